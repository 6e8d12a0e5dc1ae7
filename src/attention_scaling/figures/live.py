"""The explorers' live figures: attention over d_k and magnitude, one softmax's scale, and
normalisation (temperature, QK-norm, LayerNorm).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import _validate as v
from ..numerics import Expectation, diagonal_gradient
from ..state import AttentionState, Measures, NormalizationState, Pair, ScaleDraw, ScaleState, means_of, measures_of
from .style import COLORS, Figure, SMALL_PT, TEXT_PT, _style
from .blit import BlitFigure, _bar_values, _expectation_marks, _grouped_bar_edges, _set_expectation


#: Key dimensions offered by the d_k slider: powers of two, a log scale.
D_VALUES = tuple(2**i for i in range(11))
#: Largest number of keys the explorer draws.
MAX_KEYS = 64
#: Magnitudes the slider allows (standard deviation of each component).
MAGNITUDE_RANGE = (0.1, 10.0)
#: Histogram bins for |q·k|: logarithmic, 6 per decade, fixed for every setting.
SCORE_EDGES = np.logspace(-4, 4.5, 52)


class AttentionFigure(BlitFigure[AttentionState]):
    r"""The main explorable's figure: unscaled vs scaled (÷√d_k) attention, three panels.

    1. the attention weights of one query over ``n_keys`` keys;
    2. the curve :math:`P(1-P)` with every weight marked on it;
    3. the distribution of :math:`|q\cdot k|` over many random pairs on a log axis, against
       the prediction from :math:`q\cdot k \sim \mathcal N(0, m^4 d_k)` (unscaled) and
       :math:`\mathcal N(0, m^4)` (scaled). A log axis keeps every setting in view.

    The query and keys shown are :func:`~attention_scaling.numerics.shared_draw` (the same on
    every page); the lines in panels 1 and 2 are the mean, and the bands in panel 1 the middle
    80 %, over the :data:`~attention_scaling.numerics.ENSEMBLE_QUERIES` queries of
    :func:`~attention_scaling.numerics.ensemble_scores`; panel 3 counts the ``n_pairs`` pairs of
    :func:`~attention_scaling.numerics.pair_scores`. All of them the page draws from the seed.
    """

    def __init__(self, n_pairs: int = 2000, width: float = 9.6, height: float = 3.95, dpi: int = 100):
        from ..numerics import ENSEMBLE_QUERIES

        self.n_pairs = v.positive_int(n_pairs, "n_pairs")
        self._samples: dict[int, np.ndarray] = {}
        self._ensembles: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")),
                     dpi=v.positive_int(dpi, "dpi"), layout="constrained")
        super().__init__(fig)
        ax_w, ax_g, ax_h = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.15, 1.0, 1.25]})
        self._weights_panel(ax_w)
        self._gradient_panel(ax_g, ENSEMBLE_QUERIES)
        self._spread_panel(ax_h)
        for ax in (ax_w, ax_g, ax_h):
            _style(ax)
        fig.legend(loc="outside lower center", ncols=3, fontsize=SMALL_PT, frameon=False, columnspacing=1.2)
        # The setting, as a title; a long placeholder reserves its space in the layout.
        # The one draw's setting, as plain text (each glyph costs bytes in every static frame).
        self.label = self._animate(fig.suptitle("one draw: $d_k$ = 1024, $m$ = 10.00, 64 keys, seed 99", fontsize=TEXT_PT))
        self.update()

    def _weights_panel(self, ax_w) -> None:
        """1: one draw's weights, unscaled and scaled side by side, with the means' lines and bands."""
        red, blue = COLORS["unscaled"], COLORS["scaled"]
        ax_w.set_title("weights of one draw", fontsize=TEXT_PT)
        self.bars_u = self._animate(ax_w.stairs(*reversed(_grouped_bar_edges(8, 0)), fill=True, color=red,
                                                label=r"unscaled softmax$(q\cdot k)$"))
        # In grey print the colours look alike: scaled bars are outlined (white inside), unscaled filled.
        self.bars_s = self._animate(ax_w.stairs(*reversed(_grouped_bar_edges(8, 1)), fill=True, facecolor="white",
                                                edgecolor=blue, linewidth=1.2,
                                                label=r"scaled softmax$(q\cdot k/\sqrt{d_k})$"))
        ax_w.set_xlim(0, 1)
        ax_w.set_ylim(0, 1.02)
        ax_w.set_xticks([])
        ax_w.set_xlabel("keys (a pair of bars each)")
        ax_w.set_ylabel("weight $P_j$")
        # solid lines: a dashed line costs about 250 bytes more in every static frame
        self.mean_w_u = self._animate(*_expectation_marks(ax_w, red, "-"))
        self.mean_w_s = self._animate(*_expectation_marks(ax_w, blue, "--"))  # dashed: legible in grey

    def _gradient_panel(self, ax_g, n_queries: int) -> None:
        """2: the curve P(1 − P), every weight of the draw marked on it, and the means' lines."""
        red, blue = COLORS["unscaled"], COLORS["scaled"]
        ax_g.set_title(r"gradient $P(1-P)$", fontsize=TEXT_PT)
        grid = np.linspace(0, 1, 201)
        ax_g.plot(grid, diagonal_gradient(grid), color="0.55", linewidth=1.5)
        self.marks_u = self._animate(ax_g.plot([], [], "o", color=red, markersize=6, alpha=0.8, clip_on=False)[0])
        self.marks_s = self._animate(ax_g.plot([], [], "s", color=blue, markersize=5, alpha=0.8, clip_on=False,
                                               markerfacecolor="white")[0])
        ax_g.set_xlim(0, 1)
        ax_g.set_ylim(0, 0.27)
        ax_g.set_xlabel("weight $P_j$")
        ax_g.set_ylabel(r"$\partial P_j/\partial z_j$")
        # lines alone here: bands in this panel cost about 20 kB over a static player's frames
        self.mean_g_u = (self._animate(*_expectation_marks(ax_g, red, "-", band=False)),)
        self.mean_g_s = (self._animate(*_expectation_marks(ax_g, blue, "--", band=False)),)
        ax_g.plot([], [], "-", color="0.35", linewidth=6, alpha=0.25,
                  label=f"line, band: mean, middle 80 %, {n_queries} queries")

    def _spread_panel(self, ax_h) -> None:
        """3: |q·k| of random pairs against its normal prediction, unscaled and scaled."""
        red, blue = COLORS["unscaled"], COLORS["scaled"]
        ax_h.set_title(rf"$|q\cdot k|$ of {self.n_pairs} random pairs", fontsize=TEXT_PT)
        zeros = np.zeros(len(SCORE_EDGES) - 1)
        self.hist_u = self._animate(ax_h.stairs(zeros, SCORE_EDGES, fill=True, color=red, alpha=0.45))
        self.hist_s = self._animate(ax_h.stairs(zeros, SCORE_EDGES, fill=True, color=blue, alpha=0.45, hatch="///"))
        self.pred_u = self._animate(ax_h.stairs(zeros, SCORE_EDGES, color="#7b1113", linewidth=1.3, linestyle="--",
                                                label=r"predicted, $\mathcal{N}(0, m^4 d_k)$"))
        self.pred_s = self._animate(ax_h.stairs(zeros, SCORE_EDGES, color="#0b3d66", linewidth=1.3, linestyle=":",
                                                label=r"predicted, $\mathcal{N}(0, m^4)$"))
        ax_h.set_xscale("log")
        ax_h.set_xlim(SCORE_EDGES[0], SCORE_EDGES[-1])
        ax_h.set_ylim(0, 0.3)
        ax_h.set_xlabel(r"$|$score$|$ (log scale)")
        ax_h.set_ylabel("share of pairs per bin")

    def sample(self, seed: int) -> np.ndarray:
        r"""The one draw's unit scores at every d_k, ``(MAX_KEYS, 1024)`` prefix sums (cached; a few kept).

        Column d − 1 holds the keys' :math:`q\cdot k_j` over the first d components, summed in
        order as the page sums them (``web/attention.js``)."""
        from ..numerics import SHARED_MAX_DIM, shared_draw

        if seed not in self._samples:
            if len(self._samples) >= 4:
                self._samples.pop(next(iter(self._samples)))
            q, keys = shared_draw(SHARED_MAX_DIM, MAX_KEYS, seed)
            self._samples[seed] = np.cumsum(keys * q, axis=1)
        return self._samples[seed]

    def ensemble(self, seed: int, d_k: int) -> tuple[np.ndarray, np.ndarray]:
        """Unit scores of the many queries ``(ENSEMBLE_QUERIES, MAX_KEYS)`` and of the random
        pairs ``(n_pairs,)`` at ``d_k`` (cached; a few are kept)."""
        from ..numerics import ENSEMBLE_QUERIES, ensemble_scores, pair_scores

        key = (seed, d_k)
        if key not in self._ensembles:
            if len(self._ensembles) >= 64:
                self._ensembles.pop(next(iter(self._ensembles)))
            self._ensembles[key] = (ensemble_scores(d_k, MAX_KEYS, ENSEMBLE_QUERIES, seed),
                                    pair_scores(d_k, self.n_pairs, seed))
        return self._ensembles[key]

    def update(self, d_k: int = 64, magnitude: float = 1.0, n_keys: int = 16, seed: int = 0) -> None:
        """Show the given setting (any whole d_k from 1 to 1024). Only artist data changes."""
        from ..numerics import softmax
        from ..portable_random import half_normal_bins

        d_k = v.positive_int(d_k, "d_k")
        if d_k > D_VALUES[-1]:
            raise ValueError(f"d_k must be <= {D_VALUES[-1]}, got {d_k}")
        m = v.positive_real(magnitude, "magnitude")
        if not MAGNITUDE_RANGE[0] <= m <= MAGNITUDE_RANGE[1]:
            raise ValueError(f"magnitude must lie in {list(MAGNITUDE_RANGE)}, got {m}")
        n = v.positive_int(n_keys, "n_keys", minimum=2)
        if n > MAX_KEYS:
            raise ValueError(f"n_keys must be <= {MAX_KEYS}, got {n}")
        seed = v.positive_int(seed, "seed", minimum=0)
        root = float(np.sqrt(d_k))
        ensemble, pairs = self.ensemble(seed, d_k)

        z_u = m * m * self.sample(seed)[:n, d_k - 1]
        z_s = z_u / root
        p_u, p_s = softmax(z_u), softmax(z_s)
        for bars, slot, p in ((self.bars_u, 0, p_u), (self.bars_s, 1, p_s)):
            edges, _ = _grouped_bar_edges(n, slot)
            bars.set_data(_bar_values(p), edges)
        self.marks_u.set_data(p_u, diagonal_gradient(p_u, axis=-1))  # 1 - P from the other weights
        self.marks_s.set_data(p_s, diagonal_gradient(p_s, axis=-1))

        size_u = np.abs(m * m * pairs)
        lo, hi = SCORE_EDGES[0], SCORE_EDGES[-1]  # values beyond the axis count in the end bins
        count_u = np.histogram(np.clip(size_u, lo, hi), SCORE_EDGES)[0] / size_u.size
        count_s = np.histogram(np.clip(size_u / root, lo, hi), SCORE_EDGES)[0] / size_u.size
        open_edges = SCORE_EDGES.copy()
        open_edges[0], open_edges[-1] = 0.0, np.inf
        pred_u = half_normal_bins(open_edges, m * m * root)  # |X| for X ~ N(0, m^4 d_k) ...
        pred_s = half_normal_bins(open_edges, m * m)  # ... and N(0, m^4)
        self.hist_u.set_data(count_u)
        self.hist_s.set_data(count_s)
        self.pred_u.set_data(pred_u)
        self.pred_s.set_data(pred_s)
        ens_u = m * m * ensemble[:, :n]
        expect = Pair(means_of(softmax(ens_u)), means_of(softmax(ens_u / root)))
        for e, w_marks, g_marks in ((expect.unscaled, self.mean_w_u, self.mean_g_u),
                                    (expect.scaled, self.mean_w_s, self.mean_g_s)):
            _set_expectation(w_marks, e.max_weight)
            _set_expectation(g_marks, e.largest_gradient)
        self.label.set_text(f"one draw: $d_k$ = {d_k}, $m$ = {m:.2f}, {n} keys, seed {seed}")

        self.state = AttentionState(
            d_k=d_k, magnitude=m, n_keys=n, seed=seed, scores=Pair(z_u, z_s), weights=Pair(p_u, p_s),
            histogram=Pair(count_u, count_s), predicted=Pair(pred_u, pred_s),
            draw=Pair(measures_of(p_u), measures_of(p_s)), mean=expect, n_queries=len(ens_u))


class ScaleFigure(BlitFigure[ScaleState]):
    r"""One score vector multiplied by a scale :math:`s` (an inverse temperature, :math:`s = 1/T`).

    Panels: the softmax output, the diagonal gradients :math:`P_i(1-P_i)`, and the whole
    Jacobian :math:`\operatorname{diag}(P) - PP^\top` as a heatmap. The scores are one draw
    of ``n_scores`` standard normals; lines and bands in the first two panels show the mean
    and middle 80 % of the largest weight and the largest :math:`P_i(1-P_i)` over
    ``n_draws`` such draws (draw 0 is the one shown, before sorting).
    """

    SCALE_RANGE = (0.05, 100.0)

    def __init__(self, n_scores: int = 8, seed: int = 0, width: float = 9.6, height: float = 3.4, dpi: int = 100,
                 n_draws: int = 200):
        n = v.positive_int(n_scores, "n_scores", minimum=2)
        n_draws = v.positive_int(n_draws, "n_draws", minimum=2)
        rng = v.generator(seed)
        self.seed = int(seed) if isinstance(seed, (int, np.integer)) else None  # None: a Generator was given
        first = rng.standard_normal(n)
        self.z = np.sort(first)[::-1]
        # the same stream continued: with an int seed this is default_rng(seed).standard_normal((n_draws, n))
        self.z_draws = np.vstack([first, rng.standard_normal((n_draws - 1, n))])
        fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")),
                     dpi=v.positive_int(dpi, "dpi"), layout="constrained")
        super().__init__(fig)
        ax_p, ax_g, ax_j = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.0, 1.0, 0.85]})
        idx = np.arange(n + 1) - 0.5
        self._bar_edges = np.repeat(np.arange(n), 2) + np.tile([-0.36, 0.36], n)
        ax_p.set_title(r"weights $P = \mathrm{softmax}(s\,z)$", fontsize=TEXT_PT)
        self.bars_p = self._animate(ax_p.stairs(np.zeros(2 * n - 1), self._bar_edges, fill=True, color=COLORS["weight"]))
        ax_p.set_ylim(0, 1.02)
        ax_p.set_ylabel("weight $P_i$")
        self.mean_p = self._animate(*_expectation_marks(ax_p, "0.25", "--"))
        # no legend: the title above the panels says what the dashed line is
        ax_g.set_title(r"gradient $P_i(1-P_i)$", fontsize=TEXT_PT)
        self.bars_g = self._animate(ax_g.stairs(np.zeros(2 * n - 1), self._bar_edges, fill=True, color=COLORS["gradient"]))
        ax_g.axhline(0.25, color="0.5", linestyle=":", linewidth=1)
        self.mean_g = self._animate(*_expectation_marks(ax_g, "0.25", "--"))
        ax_g.set_ylim(0, 0.27)
        for ax in (ax_p, ax_g):
            ax.set_xlim(idx[0], idx[-1])
            ax.set_xticks(range(n), [f"{i + 1}" for i in range(n)])
            ax.set_xlabel("index $i$, largest score first")
            _style(ax)
        ax_j.set_title(r"Jacobian $\partial P_i/\partial z_j$", fontsize=TEXT_PT)
        # purple above 0 (the diagonal, the gradient bars' colour), orange below: not red/blue.
        # Ten steps of 0.05: a layer's 32-colour palette holds them exactly, and the colour bar
        # reads as steps rather than a ramp the palette would band anyway.
        import matplotlib

        steps = matplotlib.colormaps["PuOr"].resampled(10)
        self.heat = self._animate(ax_j.imshow(np.zeros((n, n)), cmap=steps, vmin=-0.25, vmax=0.25))
        # the sign in marks too, for a greyscale print: + above 0 (the diagonal), − below 0
        from matplotlib.patheffects import withStroke

        halo = [withStroke(linewidth=3.2, foreground="white")]  # legible on the dark cells too
        self.signs = {sign: self._animate(ax_j.scatter([], [], marker=marker, s=34, linewidths=1.3, color="0.05",
                                                       path_effects=halo))
                      for sign, marker in ((1, "+"), (-1, "_"))}
        ax_j.set_xticks(range(n), [f"{i + 1}" for i in range(n)])
        ax_j.set_yticks(range(n), [f"{i + 1}" for i in range(n)])
        ax_j.set_xlabel("$j$")
        ax_j.set_ylabel("$i$")
        fig.colorbar(self.heat, ax=ax_j, shrink=0.85)
        self.label = self._animate(fig.suptitle("one draw of 8 scores at scale $s$ = 0.000 (temperature $T = 1/s$ = 0.000)\n"
                                                "dashed line and grey band: the largest, mean and middle 80 % of 200 draws",
                                                fontsize=TEXT_PT))
        self.update()

    def draw_at(self, scale: float = 1.0) -> ScaleDraw:
        """The shown draw at ``scale``, as :meth:`update` shows it and its readout reports it,
        without drawing and without the band over the other draws (a scan of the slider's
        positions that reads the one draw needs no more)."""
        from ..numerics import softmax, softmax_jacobian

        s = v.positive_real(scale, "scale")
        if not self.SCALE_RANGE[0] <= s <= self.SCALE_RANGE[1]:
            raise ValueError(f"scale must lie in {list(self.SCALE_RANGE)}, got {s}")
        p = softmax(s * self.z)
        g = diagonal_gradient(p, axis=-1)  # 1 - P from the other weights, as in the Jacobian
        jac = softmax_jacobian(p)
        draw = replace(measures_of(p), jacobian_norm=float(np.linalg.eigvalsh(jac)[-1]))
        return ScaleDraw(scale=s, weights=p, gradient=g, jacobian=jac, draw=draw)

    def update(self, scale: float = 1.0) -> None:
        from ..numerics import expectation, softmax, softmax_jacobian

        shown = self.draw_at(scale)
        s, p, g, jac = shown.scale, shown.weights, shown.gradient, shown.jacobian
        self.bars_p.set_data(_bar_values(p))
        self.bars_g.set_data(_bar_values(g))
        self.heat.set_data(jac)
        for sign, marks in self.signs.items():
            marks.set_offsets(np.argwhere(np.sign(jac) == sign)[:, ::-1].reshape(-1, 2))
        p_draws = softmax(s * self.z_draws)
        means = means_of(p_draws)
        expect = replace(means, jacobian_norm=expectation(np.linalg.eigvalsh(softmax_jacobian(p_draws))[..., -1]))
        _set_expectation(self.mean_p, expect.max_weight)
        _set_expectation(self.mean_g, expect.largest_gradient)
        self.label.set_text(f"one draw of {len(p)} scores at scale $s$ = {s:.3g} (temperature $T = 1/s$ = {1 / s:.3g})\n"
                            f"dashed line and grey band: the largest, mean and middle 80 % of {len(p_draws)} draws")
        self.state = ScaleState(scale=s, seed=self.seed, weights=p, gradient=g, jacobian=jac, draw=shown.draw,
                                mean=expect, n_draws=len(p_draws))


class NormalizationFigure(BlitFigure[NormalizationState]):
    """Attention weights of one query under three normalisations, as the vector magnitude grows.

    Modes: ``"scaled"`` (divide by √d_k), ``"qk-l2"`` (QK-norm with gain ``gain``, √d_k
    by default) and ``"qk-layernorm"`` (LayerNorm on q and k, then divide by √d_k). Left:
    the weights of the current mode for one draw, :func:`~attention_scaling.numerics.shared_draw`
    (the same query and keys as the attention explorer at this ``d_k``, keys and seed), with
    a line and band for the mean and middle 80 % of the largest weight over the queries of
    :func:`~attention_scaling.numerics.ensemble_parts` (the attention explorer's at this ``d_k``). Right: that mean (curves) and band
    against the magnitude for every mode, with the one draw at the current setting marked.
    The QK-norm curve and band move with the gain; the other two do not depend on it.
    """

    MODES = ("scaled", "qk-l2", "qk-layernorm")
    #: Legend entries (mathtext).
    LABELS = {"scaled": r"$q\cdot k/\sqrt{d_k}$", "qk-l2": r"QK-norm: $g\,\hat q\cdot\hat k$",
              "qk-layernorm": r"LayerNorm on $q$, $k$"}
    #: The modes' names in words, for titles, readouts and controls.
    NAMES = {"scaled": "scaled by 1/√d_k", "qk-l2": "QK-norm", "qk-layernorm": "LayerNorm on q and k"}
    #: The same names with their maths marked up as TeX between dollars.
    TEX_NAMES = {"scaled": r"scaled by $1/\sqrt{d_k}$", "qk-l2": "QK-norm", "qk-layernorm": r"LayerNorm on $q$ and $k$"}
    #: Gains the QK-norm curve can be drawn at (the page's slider: 2^(k/100), k = 0 to 700).
    GAIN_RANGE = (1.0, 128.0)
    #: The magnitudes the curves are drawn at (the right panel's x values).
    GRID = np.logspace(-1, 1, 41)
    #: QK-norm's and LayerNorm's curves can coincide: their markers alternate along the grid
    #: (squares, then circles half a step later) so that both stay visible.
    MARKS = {"scaled": {}, "qk-l2": dict(marker="s", markevery=(0, 8), markersize=5),
             "qk-layernorm": dict(marker="o", markevery=(4, 8), markersize=5, markerfacecolor="none")}

    def __init__(self, d_k: int = 64, n_keys: int = 16, seed: int = 0, width: float = 9.6, height: float = 4.6,
                 dpi: int = 100):
        from ..normalization import attention_scores
        from ..numerics import ENSEMBLE_QUERIES, ensemble_parts, shared_draw

        self._scores = attention_scores
        self.d_k = v.positive_int(d_k, "d_k")
        n = v.positive_int(n_keys, "n_keys", minimum=2)
        self.seed = v.positive_int(seed, "seed", minimum=0)
        q, self.k = shared_draw(self.d_k, n, self.seed)
        self.q = q[None, :]
        self.parts = ensemble_parts(self.d_k, n, ENSEMBLE_QUERIES, self.seed)
        self.default_gain = float(np.sqrt(self.d_k))
        self.gain = self.default_gain
        self._curve_gain: float | None = None  # the gain the QK-norm curve is drawn at
        self._ensemble_cache: dict = {}
        fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")),
                     dpi=v.positive_int(dpi, "dpi"), layout="constrained")
        super().__init__(fig)
        ax_w, ax_m = fig.subplots(1, 2)
        self._weights_panel(ax_w, n, ENSEMBLE_QUERIES)
        self._curves_panel(ax_m, ENSEMBLE_QUERIES)
        handles, labels = ax_m.get_legend_handles_labels()  # the curves, the draw, the band; then the left panel's line
        more = ax_w.get_legend_handles_labels()
        fig.legend(handles + more[0], labels + more[1], loc="outside lower center", ncols=2, fontsize=SMALL_PT,
                   frameon=False)
        for ax in (ax_w, ax_m):
            _style(ax)
        self.label = self._animate(fig.suptitle(
            "bars: one draw (seed 99), LayerNorm on $q$ and $k$, magnitude $m$ = 10.00, gain $g$ = 128", fontsize=TEXT_PT))
        self.update()

    def _weights_panel(self, ax_w, n: int, n_queries: int) -> None:
        """Left: the weights of the current mode for one draw, with the mean's line and band."""
        ax_w.set_title("attention weights of one query", fontsize=TEXT_PT)
        edges, zeros = _grouped_bar_edges(n, 0)
        self.bars = self._animate(ax_w.stairs(zeros, edges * 1.0, fill=True, color=COLORS["scaled"]))
        ax_w.set_xlim(0, 1)
        ax_w.set_ylim(0, 1.02)
        ax_w.set_xticks([])
        ax_w.set_xlabel(f"{n} keys")
        ax_w.set_ylabel("weight $P_j$")
        self.mean_w = self._animate(*_expectation_marks(ax_w, "0.25", "--"))
        ax_w.plot([], [], "--", color="0.25", label=f"left, dashed: largest weight, mean of {n_queries} queries")

    def _curves_panel(self, ax_m, n_queries: int) -> None:
        """Right: the mean largest weight against m for every mode, its band, the draw marked."""
        self.grid = self.GRID
        self.curves, self.bands = {}, {}
        for mode, style in zip(self.MODES, ("-", "--", ":")):
            stats = [self.expectation(m, mode).max_weight for m in self.grid]
            self.curves[mode] = ax_m.plot(self.grid, [e.mean for e in stats], style, linewidth=2,
                                          label=self.LABELS[mode], **self.MARKS[mode])[0]
            self.bands[mode] = ax_m.fill_between(self.grid, [e.low for e in stats], [e.high for e in stats],
                                                 alpha=0.12, color=self.curves[mode].get_color(), linewidth=0)
        # the QK-norm curve and band follow the gain: drawn with each frame, above the fixed
        # artists, and the LayerNorm curve again on top of them, as in a full redraw
        self.bands["qk-l2"].set_zorder(3)
        self.curves["qk-l2"].set_zorder(3.1)
        self.curves["qk-layernorm"].set_zorder(3.2)
        self._animate(self.bands["qk-l2"], self.curves["qk-l2"], self.curves["qk-layernorm"])
        self.marker = self._animate(ax_m.plot([], [], "o", color=COLORS["mark"], markersize=9, zorder=4,
                                              clip_on=False)[0])
        ax_m.plot([], [], "o", color="0.3", markersize=7, label="one draw (seed %d), in its curve's colour" % self.seed)
        ax_m.fill_between([], [], [], color="0.3", alpha=0.2, linewidth=0, label="bands: middle 80 %, same colours")
        ax_m.set_xscale("log")
        ax_m.set_xlim(0.1, 10)
        ax_m.set_xticks([0.1, 0.3, 1, 3, 10], ["0.1", "0.3", "1", "3", "10"])
        ax_m.set_xticks([], minor=True)
        ax_m.set_ylim(0, 1.02)
        ax_m.set_xlabel("vector magnitude $m$ (log scale)")
        ax_m.set_ylabel("largest weight")
        ax_m.set_title(rf"mean of {n_queries} queries, $d_k$ = {self.d_k}", fontsize=TEXT_PT)

    def _weights(self, magnitude: float, mode: str, gain: float) -> np.ndarray:
        from ..numerics import softmax

        z = self._scores(magnitude * self.q, magnitude * self.k, mode=mode, gain=gain)[0]
        return softmax(z)

    def expectation(self, magnitude: float, mode: str, gain: float | None = None) -> Measures[Expectation]:
        """Mean (and band) of each measure over the ensemble's queries at this magnitude and mode (cached).

        ``gain`` (QK-norm only) defaults to the figure's current gain.
        """
        from ..numerics import softmax

        gain = self.gain if gain is None else v.positive_real(gain, "gain")
        key = (float(magnitude), mode, float(gain) if mode == "qk-l2" else None)
        if key not in self._ensemble_cache:
            if len(self._ensemble_cache) > 4096:
                self._ensemble_cache.clear()
            self._ensemble_cache[key] = means_of(softmax(self._ensemble_logits(magnitude, mode, gain)))
        return self._ensemble_cache[key]

    def _ensemble_logits(self, magnitude: float, mode: str, gain: float) -> np.ndarray:
        """The many queries' logits ``(Q, n)`` in ``mode``, from their parts (exactly the law of
        whole vectors, :class:`~attention_scaling.numerics.EnsembleParts`)."""
        from ..normalization import LAYER_NORM_EPS

        p, d, m2 = self.parts, self.d_k, magnitude * magnitude
        if mode == "scaled":
            return m2 * p.scores() / np.sqrt(d)
        if mode == "qk-l2":  # g cos(q, k): the magnitude cancels
            return gain * p.cosines()
        # LayerNorm keeps x minus its mean, x_perp, over sqrt(var + eps) with var = m^2 |x_perp|^2 / d
        q_scale = np.sqrt(m2 * p.q_rest / d + LAYER_NORM_EPS)[:, None]
        k_scale = np.sqrt(m2 * (p.k_along * p.k_along + p.k_rest) / d + LAYER_NORM_EPS)
        return m2 * np.sqrt(p.q_rest)[:, None] * p.k_along / (q_scale * k_scale) / np.sqrt(d)

    def update(self, magnitude: float = 1.0, mode: str = "scaled", gain: float | None = None) -> None:
        """Show ``mode`` at ``magnitude``; ``gain`` is QK-norm's g (default √d_k), in ``GAIN_RANGE``."""
        m = v.positive_real(magnitude, "magnitude")
        if not MAGNITUDE_RANGE[0] <= m <= MAGNITUDE_RANGE[1]:
            raise ValueError(f"magnitude must lie in {list(MAGNITUDE_RANGE)}, got {m}")
        if mode not in self.MODES:
            raise ValueError(f"mode must be one of {self.MODES}, got {mode!r}")
        g = self.default_gain if gain is None else v.positive_real(gain, "gain")
        if not self.GAIN_RANGE[0] <= g <= self.GAIN_RANGE[1]:
            raise ValueError(f"gain must lie in {list(self.GAIN_RANGE)}, got {g}")
        if g != self._curve_gain:  # the QK-norm curve and band, drawn at the gain asked for
            self.gain = self._curve_gain = g
            stats = [self.expectation(x, "qk-l2").max_weight for x in self.grid]
            self.curves["qk-l2"].set_ydata([e.mean for e in stats])
            low, high = [e.low for e in stats], [e.high for e in stats]  # the band as one polygon
            self.bands["qk-l2"].set_verts([np.column_stack([np.r_[self.grid, self.grid[::-1]],
                                                            np.r_[low, high[::-1]]])])
        p = self._weights(m, mode, g)
        self.bars.set_data(_bar_values(p))
        self.marker.set_data([m], [p.max()])
        self.marker.set_color(self.curves[mode].get_color())
        self.bars.set_color(self.curves[mode].get_color())  # the bars take the colour of their curve
        expect = self.expectation(m, mode)
        _set_expectation(self.mean_w, expect.max_weight)
        self.label.set_text(f"bars: one draw (seed {self.seed}), {self.TEX_NAMES[mode]},  magnitude $m$ = {m:.2f}"
                            + (f",  gain $g$ = {g:g}" if mode == "qk-l2" else ""))
        self.state = NormalizationState(magnitude=m, mode=mode, gain=g, seed=self.seed, weights=p,
                                        draw=measures_of(p), mean=expect, n_queries=self.parts.n_queries)
