"""Explorables: live ipywidgets sliders in Jupyter, precomputed players on the static book.

An :class:`Explorable` pairs a :class:`~attention_scaling.figures.BlitFigure` with its
controls. Displayed in a live kernel, it shows sliders and pushes each new frame as a
PNG into an ``ipywidgets.Image`` (the figure only blits what changed). When the book is
built (``scripts/build-book`` sets ``ATTENTION_BOOK_STATIC=1``) it shows a
self-contained player instead: one labelled range input per parameter over a documented
grid of values, with a precomputed frame, alt text and readout for every grid point.
Live notebooks never compute those frames.

A chapter needs one line: ``attention_explorer()`` or ``scale_explorer()``.
"""

from __future__ import annotations

import base64
import html
import itertools
import json
import os
from dataclasses import dataclass, field

import numpy as np

from . import _validate as v
from .numerics import ENSEMBLE_QUERIES
from .figures import D_VALUES, MAX_KEYS, AttentionFigure, BlitFigure, NormalizationFigure, ScaleFigure

__all__ = [
    "STATIC_ENV",
    "FRAME_BUDGET_BYTES",
    "Control",
    "Explorable",
    "attention_explorer",
    "scale_explorer",
    "normalization_explorer",
    "static_mode",
    "magnitude_to_saturate",
]

#: Set to 1 by the book build; explorables then render as static players.
STATIC_ENV = "ATTENTION_BOOK_STATIC"
#: Most bytes of frames (base64, as shipped in the page) one player may carry.
FRAME_BUDGET_BYTES = 1_500_000

_ids = itertools.count()


def static_mode() -> bool:
    """True while the book is being built (the explorables render as static players)."""
    return os.environ.get(STATIC_ENV, "") == "1"


@dataclass(frozen=True)
class Control:
    """One parameter of an explorable.

    ``values`` is the grid the static player steps through; ``live`` describes the live
    slider: ``("select", options)``, ``("log", low, high, step)`` or ``("int", low, high)``.
    """

    name: str
    label: str
    unit: str
    values: tuple
    default: object
    live: tuple
    fmt: str = "{}"

    def show(self, value) -> str:
        return self.fmt.format(value)


@dataclass
class Explorable:
    """A figure with its controls, shown live or as a static player (see the module docstring)."""

    name: str
    title: str
    make_figure: object  # callable returning a BlitFigure
    controls: list
    live_only: list = field(default_factory=list)  # sliders only the live version has
    describe: object = None  # callable(state) -> (alt text, readout text)
    _figure: BlitFigure | None = None

    @property
    def figure(self) -> BlitFigure:
        if self._figure is None:
            self._figure = self.make_figure()
        return self._figure

    def defaults(self) -> dict:
        return {c.name: c.default for c in self.controls + self.live_only}

    def frame(self, **params) -> tuple[bytes, str, str]:
        """Update to ``params`` (others at their defaults); return (fast PNG, alt, readout)."""
        fig = self.figure
        fig.update(**(self.defaults() | params))
        alt, readout = self.describe(fig.state)
        return fig.png(), alt, readout

    # --- live ----------------------------------------------------------------------

    def widget(self):
        """Sliders, the frame and a readout, wired together (needs a live kernel to update)."""
        import ipywidgets as w

        sliders = {}
        for c in self.controls + self.live_only:
            kind, *spec = c.live
            desc = f"{c.label} ({c.unit})" if c.unit else c.label
            common = {"description": desc, "continuous_update": True,
                      "style": {"description_width": "initial"}, "layout": w.Layout(width="420px")}
            if kind == "select":
                sliders[c.name] = w.SelectionSlider(options=list(spec[0]), value=c.default, **common)
            elif kind == "log":
                low, high, step = spec
                sliders[c.name] = w.FloatLogSlider(value=c.default, base=10, min=np.log10(low), max=np.log10(high),
                                                   step=step, readout_format=".2f", **common)
            elif kind == "int":
                sliders[c.name] = w.IntSlider(value=c.default, min=spec[0], max=spec[1], **common)
            else:  # pragma: no cover - programming error
                raise ValueError(f"control kind must be select, log or int, got {kind!r}")
        image = w.Image(format="png", layout=w.Layout(width="100%", max_width="1200px"))
        readout = w.HTML()

        def redraw(_change=None):
            params = {name: s.value for name, s in sliders.items()}
            png, alt, text = self.frame(**params)
            image.value = png
            readout.value = f'<p style="font-size:0.9em" aria-live="polite">{html.escape(text)}</p>'

        for s in sliders.values():
            s.observe(redraw, names="value")
        redraw()
        return w.VBox([w.HTML(f"<b>{html.escape(self.title)}</b>"), w.HBox(list(sliders.values())[:2]),
                       w.HBox(list(sliders.values())[2:]), image, readout])

    # --- static --------------------------------------------------------------------

    def grid(self):
        """Every grid point, in the order the player indexes them (last control fastest)."""
        return [dict(zip([c.name for c in self.controls], combo))
                for combo in itertools.product(*[c.values for c in self.controls])]

    def static_frames(self) -> list[tuple[bytes, str, str]]:
        """(layer PNG, alt text, readout) for every grid point; see ``BlitFigure.layer_png``."""
        out = []
        fig = self.figure
        for point in self.grid():
            fig.update(**(self.defaults() | point))
            alt, readout = self.describe(fig.state)
            out.append((fig.layer_png(), alt, readout))
        return out

    def static_html(self) -> str:
        """A self-contained player: labelled range inputs over the grid, one frame per point.

        The figure's fixed background is shipped once; each grid point adds only a small
        transparent layer with the artists that change. The default frame is in the HTML
        itself, so the page shows it without JavaScript and when printed.
        """
        frames = self.static_frames()
        fig = self.figure
        fig.update(**self.defaults())
        background = base64.b64encode(fig.background_png()).decode("ascii")
        encoded = [base64.b64encode(png).decode("ascii") for png, _, _ in frames]
        total = len(background) + sum(len(e) for e in encoded)
        if total > FRAME_BUDGET_BYTES:
            raise ValueError(f"frames of {self.name} take {total} bytes, over the budget of {FRAME_BUDGET_BYTES}")
        uid = f"asb-{self.name}-{next(_ids)}"
        default_index = self.grid().index({c.name: c.default for c in self.controls})
        rows = []
        for c in self.controls:
            shown = c.show(c.default)
            cid = f"{uid}-{c.name}"
            rows.append(
                f'<div class="asb-control"><label for="{cid}">{html.escape(c.label)}</label>'
                f'<input type="range" id="{cid}" min="0" max="{len(c.values) - 1}" step="1" '
                f'value="{c.values.index(c.default)}" aria-valuetext="{html.escape(f"{shown} {c.unit}".strip())}">'
                f'<output for="{cid}">{html.escape(shown)}</output>'
                f'<span class="asb-unit">{html.escape(c.unit)}</span></div>'
            )
        data = {
            "controls": [{"id": f"{uid}-{c.name}", "unit": c.unit, "values": [c.show(x) for x in c.values]}
                         for c in self.controls],
            "frames": encoded,
            "alts": [alt for _, alt, _ in frames],
            "readouts": [r for _, _, r in frames],
        }
        grid_note = "; ".join(f"{c.label} in {{{', '.join(c.show(x) for x in c.values)}}}" for c in self.controls)
        fixed_note = ", ".join(f"{c.label} = {c.show(c.default)}" for c in self.live_only)
        width, height = fig.fig.canvas.get_width_height()
        _, alt0, readout0 = frames[default_index]
        note = (f"Precomputed frames for every combination of {grid_note}"
                + (f"; fixed here: {fixed_note}" if fixed_note else "")
                + ". Drag a slider or focus it and use the arrow, Home and End keys."
                + " In the notebook version every slider is live.")
        return (
            f'<div class="asb-player" id="{uid}" role="group" aria-label="{html.escape(self.title)}">'
            f'<p class="asb-title">{html.escape(self.title)}</p>'
            f'<div class="asb-controls">{"".join(rows)}</div>'
            f'<div class="asb-stack" style="aspect-ratio: {width} / {height}">'
            f'<img class="asb-background" src="data:image/png;base64,{background}" alt="" width="{width}" height="{height}">'
            f'<img class="asb-frame" src="data:image/png;base64,{encoded[default_index]}" '
            f'alt="{html.escape(alt0)}" width="{width}" height="{height}"></div>'
            f'<p class="asb-readout" aria-live="polite">{html.escape(readout0)}</p>'
            f'<p class="asb-note">{html.escape(note)}</p>'
            f'<script type="application/json" class="asb-data">{json.dumps(data, separators=(",", ":"))}</script>'
            "</div>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        if static_mode():
            return {"text/html": self.static_html(), "text/plain": f"{self.title} (static player)"}
        return self.widget()._repr_mimebundle_(include=include, exclude=exclude)


# --- the book's explorables ------------------------------------------------------------

ATTENTION_MAGNITUDES = (0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 3.0, 10.0)
SCALES = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 70.0, 100.0)


def _measures(draw: dict, expect: dict) -> str:
    """'largest weight 0.248 (mean 0.240 ± 0.007), entropy …': one draw beside its mean, compactly

    (every static frame of a player carries its readout: each character counts ~90 times)."""
    def both(name, digits):
        return f"{draw[name]:.{digits}f} (mean {expect[name].show(digits)})"

    return (f"largest weight {both('max weight', 3)}, entropy {both('entropy', 2)}, "
            f"largest P(1-P) {both('largest P(1-P)', 3)}")


def _means_note(n: int, max_entropy: float, what: str = "queries") -> str:
    """What every 'mean' and '±' of a readout is, and the entropy's unit and ceiling."""
    return f"each mean is over {n} {what}, ± one standard error; entropy in nats, at most {max_entropy:.2f}"


def _describe_attention(state) -> tuple[str, str]:
    p = state["params"]
    r, e = state["readouts"], state["expectation"]
    lead = (f"One draw (seed {p['seed']}) at d_k = {p['d_k']}, magnitude m = {p['magnitude']:.2f}, "
            f"{p['n_keys']} keys; {_means_note(state['n_queries'], state['max_entropy'])}.")

    def part(name):
        return _measures(r[name], e[name])

    top = {name: f"{r[name]['max weight']:.3f} (mean {e[name]['max weight'].show()})" for name in r}
    alt = (f"Attention explorer, one draw (seed {p['seed']}) at d_k = {p['d_k']}, m = {p['magnitude']:.2f}, "
           f"{p['n_keys']} keys. Largest weight, unscaled {top['unscaled']}, scaled {top['scaled']}; each mean "
           f"is over {state['n_queries']} queries, ± one standard error, drawn as lines with bands for their "
           f"middle 80 %. Right panel: |q·k| over random pairs against its prediction. All numbers: readout.")
    readout = f"{lead} Unscaled: {part('unscaled')}.  Scaled by 1/√d_k: {part('scaled')}."
    return alt, readout


def attention_explorer(n_pairs: int = 2000) -> Explorable:
    """The main explorable: sliders for d_k, vector magnitude, number of keys and seed.

    On the static page d_k and magnitude vary over a grid; 16 keys and seed 0 are fixed.
    """
    n_pairs = v.positive_int(n_pairs, "n_pairs")
    return Explorable(
        name="attention",
        title=("Attention weights, their gradients and the spread of q·k, unscaled vs scaled by 1/√d_k "
               f"(each frame: one draw, beside the mean of {ENSEMBLE_QUERIES} queries)"),
        make_figure=lambda: AttentionFigure(n_pairs=n_pairs),
        controls=[
            Control("d_k", "key dimension d_k", "dimensions", D_VALUES, 64, ("select", D_VALUES)),
            Control("magnitude", "vector magnitude m", "(std of each component)", ATTENTION_MAGNITUDES, 1.0,
                    ("log", 0.1, 10.0, 0.02), fmt="{:g}"),
        ],
        live_only=[
            Control("n_keys", "number of keys n", "keys", (16,), 16, ("int", 2, MAX_KEYS)),
            Control("seed", "seed", "", (0,), 0, ("int", 0, 99)),
        ],
        describe=_describe_attention,
    )


def _describe_scale(state) -> tuple[str, str]:
    s = state["params"]["scale"]
    r, e = state["readouts"], state["expectation"]
    k, seed = len(state["p"]), state["params"].get("seed")
    lead = (f"One draw of {k} scores" + (f" (seed {seed})" if seed is not None else "")
            + f" times a scale s = {s:g} (temperature {1 / s:.3g}); "
            + f"{_means_note(state['n_draws'], state['max_entropy'], 'draws')}.")
    text = ("This draw: " + _measures(r, e)
            + f", norm of the Jacobian {r['norm of J']:.4f} (mean {e['norm of J'].show(4)})")
    alt = f"Softmax explorer. {lead} {text}. Dashed lines and bands: the mean and middle 80 % of the draws."
    return alt, f"{lead} {text}."


def scale_explorer(seed: int = 0) -> Explorable:
    """A smaller explorable: one score vector times a scale s (inverse temperature)."""
    seed = v.positive_int(seed, "seed", minimum=0)
    return Explorable(
        name="scale",
        title=(f"One score vector times a scale s: softmax, P(1−P) and the Jacobian "
               f"(one draw of 8 scores, seed {seed}, beside the mean of {ENSEMBLE_QUERIES} draws)"),
        make_figure=lambda: ScaleFigure(seed=seed),
        controls=[Control("scale", "scale s", "(inverse temperature 1/T)", SCALES, 1.0,
                          ("log", 0.05, 100.0, 0.02), fmt="{:g}")],
        describe=_describe_scale,
    )


def _describe_normalization(state) -> tuple[str, str]:
    p = state["params"]
    lead = (f"One draw (seed {p['seed']}) with {p['mode']} scores at magnitude m = {p['magnitude']:.2f}; "
            f"{_means_note(state['n_queries'], state['max_entropy'])}.")
    text = "This draw: " + _measures(state["readouts"], state["expectation"])
    alt = (f"Normalisation explorer. {lead} {text}. Right panel: the mean largest weight against the magnitude "
           f"for every mode, with bands for the middle 80 % of the queries.")
    return alt, f"{lead} {text}."


def normalization_explorer(seed: int = 0) -> Explorable:
    """Magnitude and normalisation mode: with QK-norm the magnitude stops mattering."""
    seed = v.positive_int(seed, "seed", minimum=0)
    modes = NormalizationFigure.MODES
    return Explorable(
        name="normalization",
        title=("Vector magnitude against three normalisations: 1/√d_k, QK-norm, LayerNorm on q and k "
               f"(each frame: one draw, seed {seed}, beside the mean of {ENSEMBLE_QUERIES} queries)"),
        make_figure=lambda: NormalizationFigure(seed=seed),
        controls=[
            Control("mode", "normalisation", "", modes, "scaled", ("select", modes)),
            Control("magnitude", "vector magnitude m", "(std of each component)", ATTENTION_MAGNITUDES, 1.0,
                    ("log", 0.1, 10.0, 0.02), fmt="{:g}"),
        ],
        describe=_describe_normalization,
    )


def magnitude_to_saturate(threshold: float = 0.9, d_k: int = 64, n_keys: int = 16, seed: int = 0) -> dict:
    r"""On the magnitude grid, where the largest *scaled* weight first passes ``threshold``.

    The question of Exercises 3.3 and 6.1, answered once for both: for the one draw the
    explorers show (:func:`~attention_scaling.numerics.shared_draw`) and for the mean over
    the :data:`~attention_scaling.numerics.ENSEMBLE_QUERIES` queries of
    :func:`~attention_scaling.numerics.query_ensemble`, both with scores
    :math:`q\cdot k/\sqrt{d_k}`.

    Returns
    -------
    dict
        ``"magnitudes"`` (the grid), ``"draw"`` (largest weight of the one draw at each),
        ``"mean"`` (an :class:`~attention_scaling.numerics.Expectation` at each), and
        ``"first_draw"``, ``"first_mean"``: the first grid magnitude above ``threshold``, or
        None if none is.
    """
    from .numerics import expectation, query_ensemble, shared_draw, softmax

    threshold = v.positive_real(threshold, "threshold")
    if threshold >= 1:
        raise ValueError(f"threshold must be below 1, got {threshold}")
    q, k = shared_draw(d_k, n_keys, seed)
    Q, K = query_ensemble(d_k, n_keys, seed=seed)
    unit, unit_many = k @ q, np.einsum("id,ijd->ij", Q, K)
    root = np.sqrt(d_k)
    draw = [float(softmax(m * m * unit / root).max()) for m in ATTENTION_MAGNITUDES]
    mean = [expectation(softmax(m * m * unit_many / root).max(axis=-1)) for m in ATTENTION_MAGNITUDES]
    return {
        "magnitudes": ATTENTION_MAGNITUDES, "draw": draw, "mean": mean,
        "first_draw": next((m for m, x in zip(ATTENTION_MAGNITUDES, draw) if x > threshold), None),
        "first_mean": next((m for m, e in zip(ATTENTION_MAGNITUDES, mean) if e.mean > threshold), None),
    }
