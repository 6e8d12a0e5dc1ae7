"""The book's four explorers (attention, scale, normalisation, context length), their
controls and the readouts they describe, and :func:`magnitude_to_saturate`.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as v
from .. import lesson, web
from ..figures import D_VALUES, MAX_KEYS, AttentionFigure, NormalizationFigure, ScaleFigure
from ..numerics import ENSEMBLE_QUERIES, Expectation
from ..readout import Group, Readout, Row
from ..state import AttentionState, ContextState, Measures, NormalizationState, ScaleState
from .controls import Control
from .explorable import Explorable
from .text import _subscripts


# --- the book's explorables ------------------------------------------------------------

#: The magnitude grid of the static players: dense from 1 to 4, where the scaled weights saturate.
ATTENTION_MAGNITUDES = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0)
#: QK-norm gains of the normalisation player (√d_k = 8 at d_k = 64 is the default).
QK_GAINS = (2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0)
SCALES = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 70.0, 100.0)


def _magnitude_control() -> "Control":
    """The vector magnitude m, shared by the attention and normalisation explorers."""
    return Control("magnitude", "vector magnitude $m$ (std of each component)", "", ATTENTION_MAGNITUDES, 1.0,
                   ("log", 0.1, 10.0, 0.02), fmt="{:g}")


def _weight_rows(draw: Measures[float], expect: Measures[Expectation]) -> tuple:
    """The rows every explorer of one weight vector reads out: one draw beside its mean.

    Above ½ the largest weight's distance from 1 is read off its P(1−P), which is then the
    largest one and was formed from the other weights' sum: 1 − P = P(1−P)/P keeps every
    digit where ``1 - P`` cancels (s = 100: 3.2e-16, not the 2.2e-16 of a subtraction)."""
    top = draw.max_weight
    complement = draw.largest_gradient / top if top > 0.5 else None
    return (Row("largest weight", top, expect.max_weight, 3, near_one=True, complement=complement),
            Row("entropy", draw.entropy, expect.entropy, 2),
            Row("largest P(1−P)", draw.largest_gradient, expect.largest_gradient, 3))


def _means_note(n: int, max_entropy: float, what: str = "queries") -> str:
    """What every 'mean' and '±' of a readout is, and the entropy's unit and ceiling."""
    return (f"Each mean is over {n} {what}, ± one standard error; this draw can sit far from it. "
            f"Entropy in nats, at most ln n = {max_entropy:.2f}.")


def _describe_attention(state: AttentionState) -> Readout:
    r, e = state.draw, state.mean
    return Readout(
        # m to four figures: the slider's positions near a round value (1.995) do not read as it (2)
        lead=f"One draw (seed {state.seed}) at dₖ = {state.d_k}, m = {state.magnitude:.4g}, {state.n_keys} keys.",
        groups=(Group("Unscaled", _weight_rows(r.unscaled, e.unscaled)),
                Group("Scaled by 1/√dₖ", _weight_rows(r.scaled, e.scaled))),
        note=_means_note(state.n_queries, state.max_entropy),
        intro="Attention explorer.",
        figure="Lines with bands: the means and the middle 80 % of the queries. "
               "Right panel: |q·k| over random pairs against its prediction.")


def attention_explorer(n_pairs: int = 2000) -> Explorable:
    """The main explorable: sliders for d_k, vector magnitude and (in Jupyter) the number of keys.

    It computes in the page (``web/attention_view.js``): any whole d_k from 1 to 1024 and any
    magnitude from 0.1 to 10; seed 0, and on the static page 16 keys.
    """
    n_pairs = v.positive_int(n_pairs, "n_pairs")
    return Explorable(
        name="attention",
        title=(r"Attention weights, their gradients and the spread of $q\cdot k$, unscaled vs scaled by "
               rf"$1/\sqrt{{d_k}}$ (one draw, beside the mean of {ENSEMBLE_QUERIES} queries)"),
        make_figure=lambda: AttentionFigure(n_pairs=n_pairs),
        controls=[
            # any whole d_k: an IntSlider in Jupyter, whose arrow keys step by one (a log slider's
            # steps would round to the same whole number near 64); the page's has 427 log positions
            Control("d_k", "key dimension $d_k$", "dimensions", D_VALUES, 64, ("int", 1, D_VALUES[-1])),
            _magnitude_control(),
        ],
        live_only=[Control("n_keys", "number of keys $n$", "keys", (16,), 16, ("int", 2, MAX_KEYS))],
        describe=_describe_attention,
        stops=lesson.stops("attention"),
        web="mountAttention",
        payload=lambda: web.attention_payload(0, nice=ATTENTION_MAGNITUDES),
    )


def _describe_scale(state: ScaleState) -> Readout:
    s, r, e = state.scale, state.draw, state.mean
    k, seed = len(state.weights), state.seed
    return Readout(
        lead=(f"One draw of {k} scores" + (f" (seed {seed})" if seed is not None else "")
              + f" times a scale s = {s:g} (temperature {1 / s:.3g})."),
        groups=(Group("", _weight_rows(r, e) + (Row("norm of the Jacobian ‖J‖₂", r.jacobian_norm, e.jacobian_norm, 3),)),),
        note=_means_note(state.n_draws, state.max_entropy, "draws"),
        intro="Softmax explorer.",
        figure="Dashed lines and bands: the mean and middle 80 % of the draws.")


def scale_explorer(seed: int = 0) -> Explorable:
    """A smaller explorable: one score vector times a scale s (inverse temperature)."""
    seed = v.positive_int(seed, "seed", minimum=0)
    return Explorable(
        name="scale",
        title=(r"One score vector times a scale $s$: softmax, $P(1-P)$ and the Jacobian "
               f"(one draw of 8 scores, seed {seed}, beside the mean of {ENSEMBLE_QUERIES} draws)"),
        make_figure=lambda: ScaleFigure(seed=seed),
        controls=[Control("scale", "scale $s$ (inverse temperature $1/T$)", "", SCALES, 1.0,
                          ("log", 0.05, 100.0, 0.02), fmt="{:g}")],
        describe=_describe_scale,
        stops=lesson.stops("scale"),
        web="mountScale",
        payload=lambda: web.scale_payload(seed, nice=SCALES),
    )


def _describe_normalization(state: NormalizationState) -> Readout:
    mode = NormalizationFigure.NAMES[state.mode]
    gain = f", gain g = {state.gain:.4g}" if state.mode == "qk-l2" else ""
    return Readout(
        lead=f"One draw (seed {state.seed}), {_subscripts(mode)}, at magnitude m = {state.magnitude:.4g}{gain}.",
        groups=(Group("", _weight_rows(state.draw, state.mean)),),
        note=_means_note(state.n_queries, state.max_entropy),
        intro="Normalisation explorer.",
        figure=(f"Right panel: the mean largest weight against the magnitude for each normalisation "
                f"(QK-norm at gain g = {state.gain:.4g}), with bands for the middle 80 % of the queries."))


def normalization_explorer(seed: int = 0) -> Explorable:
    """Magnitude and normalisation mode: with QK-norm the magnitude stops mattering.

    It computes in the page (``web/normalization_view.js``): any magnitude from 0.1 to 10 and any
    gain from 1 to 128, at d_k = 64 with 16 keys."""
    seed = v.positive_int(seed, "seed", minimum=0)
    modes = NormalizationFigure.MODES
    return Explorable(
        name="normalization",
        title=(r"Vector magnitude against three normalisations: scaling by $1/\sqrt{d_k}$, QK-norm, "
               rf"LayerNorm on $q$ and $k$ (one draw, seed {seed}, beside the mean of "
               f"{ENSEMBLE_QUERIES} queries)"),
        make_figure=lambda: NormalizationFigure(seed=seed),
        controls=[
            Control("mode", "normalisation", "", modes, "scaled", ("radio", modes),
                    names=tuple(NormalizationFigure.TEX_NAMES[m] for m in modes)),
            _magnitude_control(),
            Control("gain", r"QK-norm gain $g$ (moves the QK-norm curve)", "", QK_GAINS, 8.0,
                    # steps of 2^(1/15): the player's gains, powers of 2 (8 = √64 among them), are on the grid
                    ("log", *NormalizationFigure.GAIN_RANGE, float(np.log10(2) / 15)), fmt="{:g}"),
        ],
        describe=_describe_normalization,
        stops=lesson.stops("normalization"),
        web="mountNormalization",
        payload=lambda: web.normalization_payload(seed, nice=ATTENTION_MAGNITUDES),
    )


def _crossing(f, low: float, high: float, threshold: float) -> float | None:
    """The x in [low, high] where the increasing ``f`` passes ``threshold`` (bisection in log x,
    to 1e-12 relative), ``low`` if it is above there already, None if it never passes."""
    if f(high) <= threshold:
        return None
    if f(low) > threshold:
        return low
    a, b = np.log(low), np.log(high)
    while b - a > 1e-12:
        mid = 0.5 * (a + b)
        a, b = (mid, b) if f(float(np.exp(mid))) <= threshold else (a, mid)
    return float(np.exp(b))


def magnitude_to_saturate(threshold: float = 0.9, d_k: int = 64, n_keys: int = 16, seed: int = 0) -> dict:
    r"""Where the largest *scaled* weight first passes ``threshold`` as the magnitude grows.

    The question of Exercises 3.3 and 6.1, answered once for both: for the one draw the
    explorers show (:func:`~attention_scaling.numerics.shared_draw`) and for the mean over
    the :data:`~attention_scaling.numerics.ENSEMBLE_QUERIES` queries of
    :func:`~attention_scaling.numerics.ensemble_scores`, both with scores
    :math:`q\cdot k/\sqrt{d_k}`. Both grow with the magnitude :math:`m` (a softmax's largest
    weight grows with the scale of its logits, here :math:`m^2`).

    Returns
    -------
    dict
        ``"magnitudes"`` (the round magnitudes the sliders stop at exactly), ``"draw"``
        (largest weight of the one draw at each), ``"mean"`` (an
        :class:`~attention_scaling.numerics.Expectation` at each), ``"first_draw"``,
        ``"first_mean"``: the first of those magnitudes above ``threshold`` (or None), and
        ``"at_draw"``, ``"at_mean"``: the magnitude in [0.1, 10] where each passes
        ``threshold`` (a slider reaches any value; None if it never does).
    """
    from ..numerics import ensemble_scores, expectation, shared_draw, softmax

    threshold = v.positive_real(threshold, "threshold")
    if threshold >= 1:
        raise ValueError(f"threshold must be below 1, got {threshold}")
    q, k = shared_draw(d_k, n_keys, seed)
    unit, unit_many = k @ q, ensemble_scores(d_k, n_keys, seed=seed)
    root = np.sqrt(d_k)

    def top(m: float) -> float:
        return float(softmax(m * m * unit / root).max())

    def mean_top(m: float) -> float:
        return float(softmax(m * m * unit_many / root).max(axis=-1).mean())

    draw = [top(m) for m in ATTENTION_MAGNITUDES]
    mean = [expectation(softmax(m * m * unit_many / root).max(axis=-1)) for m in ATTENTION_MAGNITUDES]
    return {
        "magnitudes": ATTENTION_MAGNITUDES, "draw": draw, "mean": mean,
        "first_draw": next((m for m, x in zip(ATTENTION_MAGNITUDES, draw) if x > threshold), None),
        "first_mean": next((m for m, e in zip(ATTENTION_MAGNITUDES, mean) if e.mean > threshold), None),
        "at_draw": _crossing(top, 0.1, 10.0, threshold), "at_mean": _crossing(mean_top, 0.1, 10.0, threshold),
    }


def gain_to_saturate(threshold: float = 0.9, d_k: int = 64, n_keys: int = 16, seed: int = 0) -> dict:
    r"""The QK-norm gain :math:`g` in [1, 128] at which the largest weight first passes
    ``threshold``: for the explorers' one draw and for the mean over their queries (the logits
    are :math:`g\cos(q, k)`, whatever the magnitude). The question of Exercise 6.1.

    Returns ``{"draw": g, "mean": g}`` (None where even g = 128 does not pass ``threshold``).
    """
    from ..numerics import ensemble_parts, shared_draw, softmax

    threshold = v.positive_real(threshold, "threshold")
    if threshold >= 1:
        raise ValueError(f"threshold must be below 1, got {threshold}")
    q, k = shared_draw(d_k, n_keys, seed)
    cos = (k @ q) / (np.linalg.norm(k, axis=1) * np.linalg.norm(q))
    many = ensemble_parts(d_k, n_keys, seed=seed).cosines()
    low, high = NormalizationFigure.GAIN_RANGE
    return {"draw": _crossing(lambda g: float(softmax(g * cos).max()), low, high, threshold),
            "mean": _crossing(lambda g: float(softmax(g * many).max(axis=-1).mean()), low, high, threshold)}


# --- context length: the needle among n keys (book/keep-long-contexts-sharp.md) -------------------

#: Gaps the live gap slider steps through: every quarter from 0 to 10 (the player's among them).
LIVE_GAPS = tuple(i / 4 for i in range(41))


def _describe_context(state: ContextState) -> Readout:
    from ..context import NAMES

    r, n = state, state.n
    sink = r.sink if r.method == "zero-logit" else None
    return Readout(
        lead=(f"One draw (seed {r.seed}) of {n - 1} distractor score{'s' if n > 2 else ''} ~ N(0, 1) "
              f"and a needle scored "
              f"Δ = {r.gap:g}; n = {n} keys, {_subscripts(NAMES[r.method])}."),
        groups=(Group("", (Row("needle weight", r.needle, near_one=True, complement=r.others),
                           Row("its P(1−P)", r.spread),
                           Row("its gradient dP/dΔ", r.gradient),
                           Row("strongest distractor", r.top_distractor),
                           Row("all distractors together", r.others - r.sink, near_one=True),
                           Row("extra zero logit (sink)", sink))),),
        intro="Context explorer.",
        figure=("Left: bars of the needle, the 5 strongest distractors, the rest summed, and the sink. "
                "Middle: the needle as a point on the parabola P(1−P). Right: the needle's weight against n "
                "for this method and for plain scaling, the current n ringed."))


def context_explorer(seed: int = 0) -> Explorable:
    """Context length n, the needle's gap Δ and the method: fading, s·ln n, soft-cap, a zero logit."""
    from ..context import GAPS, METHODS, N_VALUES, TEX_NAMES, ContextFigure

    seed = v.positive_int(seed, "seed", minimum=0)
    return Explorable(
        name="context",
        title=rf"A needle among $n$ keys, four ways (one draw of the distractors, seed {seed})",
        make_figure=lambda: ContextFigure(seed=seed),
        controls=[
            Control("method", "method", "", METHODS, "plain", ("radio", METHODS),
                    names=tuple(TEX_NAMES[m] for m in METHODS)),
            # any n: steps of 2^(1/64) on the live slider (the page rounds to a whole number of keys)
            Control("n", "context length $n$", "keys", N_VALUES, 1024, ("log", 2, N_VALUES[-1], float(np.log10(2) / 64)),
                    readout=".0f"),
            Control("gap", "needle's score Δ, distractors ~ N(0, 1)", "", GAPS, 6.0, ("float", 0.0, 20.0, 0.05),
                    fmt="{:g}", readout=".2f"),
        ],
        describe=_describe_context,
        stops=lesson.stops("context"),
        web="mountContext",
        payload=lambda: web.context_payload(seed),
    )
