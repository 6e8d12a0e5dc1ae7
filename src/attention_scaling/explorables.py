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
import io
import itertools
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import _validate as v
from . import lesson
from .numerics import ENSEMBLE_QUERIES
from .readout import Group, Readout, Row, fill, readout_html, readout_mean, readout_number
from .figures import D_VALUES, MAX_KEYS, AttentionFigure, BlitFigure, NormalizationFigure, ScaleFigure

__all__ = [
    "STATIC_ENV",
    "FRAME_BUDGET_BYTES",
    "Control",
    "Explorable",
    "attention_explorer",
    "scale_explorer",
    "normalization_explorer",
    "context_explorer",
    "static_mode",
    "live_positions",
    "cached_layer_png",
    "magnitude_to_saturate",
    "plain_text",
    "math_html",
    "readout_number",
    "readout_mean",
    "ATTENTION_MAGNITUDES",
    "QK_GAINS",
]

#: Set to 1 by the book build; explorables then render as static players.
STATIC_ENV = "ATTENTION_BOOK_STATIC"
#: Most bytes of frames (base64, as embedded in the cell's HTML) one player may carry. The
#: built site moves the frames out of the page into files loaded on demand
#: (the build tools, :mod:`attention_book.sphinx_ext`), so this bounds the site's size, not a page's weight.
FRAME_BUDGET_BYTES = 4_000_000

_ids = itertools.count()


def static_mode() -> bool:
    """True while the book is being built (the explorables render as static players)."""
    return os.environ.get(STATIC_ENV, "") == "1"


_MATH = re.compile(r"\$([^$]+)\$")
_TEX_TO_TEXT = ((re.compile(r"\\sqrt\{([^{}]*)\}"), r"√\1"), (re.compile(r"\\hat\s*(\w)"), "\\1\u0302"),
                (re.compile(r"\\cdot\s*"), "·"), (re.compile(r"\\,"), " "), (re.compile(r"[{}]"), ""))


def plain_text(marked: str) -> str:
    r"""A label whose maths is marked ``$...$`` (TeX) as plain text: ``"$1/\sqrt{d_k}$"`` → ``"1/√d_k"``.

    Knows the few macros the book's labels use (\sqrt, \hat, \cdot, \,); raises ValueError on
    any other, so a label never shows raw TeX in alt text or a screen reader.
    """
    if not isinstance(marked, str):
        raise ValueError(f"marked must be a string, got {type(marked).__name__}")

    def one(match):
        text = match.group(1)
        for pattern, repl in _TEX_TO_TEXT:
            text = pattern.sub(repl, text)
        if "\\" in text:
            raise ValueError(f"marked uses TeX that plain_text does not know: {match.group(0)!r}")
        return text

    if marked.count("$") % 2:
        raise ValueError(f"marked has an unmatched $: {marked!r}")
    return _MATH.sub(one, marked)


def math_html(marked: str) -> str:
    """A ``$...$``-marked label as HTML: text escaped, maths in the spans the page's MathJax typesets."""
    plain_text(marked)  # validates
    parts = _MATH.split(marked)  # text, maths, text, ...
    return "".join(html.escape(part) if i % 2 == 0 else
                   f'<span class="math notranslate nohighlight">\\({html.escape(part)}\\)</span>'
                   for i, part in enumerate(parts))


_SUBSCRIPT = str.maketrans("aehijklmnoprstuvx0123456789", "ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ₀₁₂₃₄₅₆₇₈₉")


def _subscripts(text: str) -> str:
    """``d_k`` → ``dₖ`` where Unicode has the subscript letter (a live radio option is plain text)."""
    return re.sub(r"_([aehijklmnoprstuvx0-9])\b", lambda m: m.group(1).translate(_SUBSCRIPT), text)


@dataclass(frozen=True)
class Control:
    """One parameter of an explorable.

    ``label`` (and ``names``, ``unit``) mark their maths as ``$...$``. ``values`` is the grid
    the static player steps through; ``names`` gives words for categorical values, which
    then show as radio buttons. ``live`` describes the live control: ``("select", options)``
    (a slider over ordered values), ``("radio", options)``, ``("log", low, high, step)`` or
    ``("int", low, high)``. ``unit`` follows a value ("64 dimensions"); leave it empty when
    the label says it.
    """

    name: str
    label: str
    unit: str
    values: tuple
    default: Any
    live: tuple
    fmt: str = "{}"
    names: tuple | None = None

    def __post_init__(self):
        if self.default not in self.values:
            raise ValueError(f"default of {self.name} must be one of its values {self.values}, got {self.default!r}")
        if self.names is not None and len(self.names) != len(self.values):
            raise ValueError(f"names of {self.name} must name each of its {len(self.values)} values")
        if self.live[0] not in ("select", "radio", "log", "int"):
            raise ValueError(f"live control kind must be select, radio, log or int, got {self.live[0]!r}")

    @property
    def is_choice(self) -> bool:
        """A categorical control: radio buttons on the page and live."""
        return self.names is not None

    def show(self, value) -> str:
        """The value as plain text (for alt text, readouts and aria-valuetext)."""
        if self.names is not None:  # a choice (is_choice)
            return plain_text(self.names[self.values.index(value)])
        return self.fmt.format(value)

    def described(self) -> str:
        """``label (unit)`` for the live version, with ``$...$`` maths."""
        return f"{self.label} ({self.unit})" if self.unit else self.label


def _layout(r: Readout) -> tuple:
    """What a readout's tables look like without their numbers: captions, columns, row labels."""
    return r.columns, tuple((g.caption, tuple(row.label for row in g.rows)) for g in r.groups)


def _readout_data(readouts: list) -> dict:
    """A static player's readouts, compactly: per frame only :meth:`Readout.values` (the lead
    and the cells, which player.js writes into the table); the alt text and the sentence a
    screen reader hears as templates, one per distinct wording (a frame without a sink says
    nothing of it), each frame's by index (one index when every frame shares it)."""
    if len({_layout(r) for r in readouts}) != 1:
        raise ValueError("every frame of a player must read out the same table (captions, columns, rows)")
    templates: list = []

    def index(template: str) -> int:
        if template not in templates:
            templates.append(template)
        return templates.index(template)

    alt_of, said_of = [], []
    for r in readouts:
        alt_of.append(index(r.template(alt=True)))
        said_of.append(index(r.template(alt=False)))
        if fill(templates[alt_of[-1]], r.values()) != r.alt or fill(templates[said_of[-1]], r.values()) != r.text:
            raise ValueError(f"a readout's template does not give back its text: {r.text!r}")

    def one(xs):
        return xs[0] if len(set(xs)) == 1 else xs

    return {"values": [r.values() for r in readouts], "templates": templates, "alt": one(alt_of),
            "said": one(said_of)}


def _present_markup(has_stops: bool) -> str:
    """Presentation mode's markup (player.js): a Present button, shown only once the script
    runs and never printed, and the bar it shows: the stop, then Back and Next for a touch
    screen or a mouse (a clicker sends the keys their labels and titles name) and Close."""
    return (
        '<button type="button" class="asb-present-open" title="Show this player full screen, '
        f'{"with the lesson&#39;s stops" if has_stops else "one value at a time"}">Present</button>'
        '<div class="asb-present-bar"><p class="asb-stop" aria-live="polite"></p>'
        '<span class="asb-present-nav">'
        '<button type="button" class="asb-present-back" title="Previous stop (← or PageUp)">← Back</button>'
        '<button type="button" class="asb-present-next" title="Next stop (→, PageDown or Space)">Next →</button>'
        '<button type="button" class="asb-present-close" title="Leave (Escape)">Close <kbd>Esc</kbd></button>'
        '</span></div>'
    )


@dataclass
class Explorable:
    """A figure with its controls, shown live or as a static player (see the module docstring).

    ``title`` marks its maths as ``$...$``; it is typeset on the page and read as plain text
    by screen readers.
    """

    name: str
    title: str
    make_figure: Callable[[], BlitFigure]  # returns the figure the explorer draws on
    controls: list
    live_only: list = field(default_factory=list)  # sliders only the live version has
    describe: Any = None  # callable(state) -> Readout (attention_scaling.readout)
    stops: tuple = ()  # the lesson's settings to step through (attention_scaling.lesson)
    fast: str | None = None  # the control whose row of frames the live widget caches in the page
    _figure: BlitFigure | None = None

    def __post_init__(self):
        names = [c.name for c in self.controls + self.live_only]
        if self.fast is not None and self.fast not in names:
            raise ValueError(f"fast must name one of the controls {names}, got {self.fast!r}")

    @property
    def figure(self) -> BlitFigure:
        if self._figure is None:
            self._figure = self.make_figure()
        return self._figure

    def defaults(self) -> dict:
        return {c.name: c.default for c in self.controls + self.live_only}

    def frame(self, **params) -> tuple[bytes, str, Readout]:
        """Update to ``params`` (others at their defaults); return (fast PNG, alt, readout)."""
        fig = self.figure
        fig.update(**(self.defaults() | params))
        readout = self.describe(fig.state)
        return fig.png(), readout.alt, readout

    # --- live ----------------------------------------------------------------------

    def _live_control(self, c: Control):
        """One live control on a row of its own: the label (typeset by the front end), then a
        slider that keeps most of the row to be dragged in, or radio buttons."""
        import ipywidgets as w

        kind, *spec = c.live
        common: dict[str, Any] = {"description": c.described(), "style": {"description_width": "initial"}}
        if kind == "radio":  # option names are not typeset: "1/√dₖ", not "1/√d_k"
            radio = w.RadioButtons(options=[(_subscripts(c.show(x)), x) for x in spec[0]], value=c.default,
                                   layout=w.Layout(width="auto"), **common)
            radio.add_class(RADIO_CLASS)  # its arrow keys stay its own (RADIO_KEYS_JS)
            return radio
        common |= {"continuous_update": True, "layout": w.Layout(width="100%", max_width="760px")}
        if kind == "select":
            return w.SelectionSlider(options=list(spec[0]), value=c.default, **common)
        if kind == "log" and c.name == self.fast and _caches():
            # the cached slider needs an index to link: the same log steps, as a selection
            # labelled as the log slider's readout (d3 ".3g": 1.00, 0.0501, 100)
            return w.SelectionSlider(options=[(f"{x:#.3g}".rstrip("."), x) for x in live_positions(c)],
                                     value=c.default, **common)
        if kind == "log":
            low, high, step = spec
            return w.FloatLogSlider(value=c.default, base=10, min=np.log10(low), max=np.log10(high),
                                    step=step, readout_format=".3g", **common)
        return w.IntSlider(value=c.default, min=spec[0], max=spec[1], **common)

    def widget(self):
        """Controls, the frame and a readout, wired together (needs a live kernel to update).

        The frame is two images stacked in one grid cell (:meth:`_live_frame`): the figure's
        fixed background, sent once, and a transparent layer of the changing artists, the
        only image sent per change (about a third of the bytes of a full frame, and
        faster to encode and decode). A change sends the layer, then the readout, and the
        kernel does not echo a slider's value back to the page.

        With ipywidgets 8 and a ``fast`` control, the page also caches that control's row of
        frames and steps through them without the kernel (:class:`_FrameCache`).
        """
        import ipywidgets as w

        controls = {c.name: self._live_control(c) for c in self.controls + self.live_only}
        for s in controls.values():  # ipywidgets 8 echoes a synced value (a selection's index)
            s._value_metadata = s._index_metadata = {"echo_update": False}  # back to the page: not ours
        fig = self.figure
        fig.update(**self.defaults())
        if self.fast is not None and _caches():
            return _FrameCache(self, controls).box
        stack, layer = self._live_frame(fig.live_background_png())
        readout = w.HTML()

        def redraw(_change=None):
            params = {name: s.value for name, s in controls.items()}
            fig.update(**(self.defaults() | params))
            layer.value = fig.live_layer_png()
            readout.value = _readout_html(self.describe(fig.state))

        for s in controls.values():
            s.observe(redraw, names="value")
        redraw()
        title = w.HTMLMath(f"<b>{html.escape(self.title)}</b>")
        return w.VBox([title, *controls.values(), stack, readout], layout=w.Layout(width="100%"))

    @staticmethod
    def _live_frame(background: bytes):
        """(stack, layer): a one-cell grid holding the background image and, over it, the
        layer image. Both are as wide as the cell, so they keep the figure's aspect ratio and
        scale together with the notebook's width, like one image (at most 1200 px wide)."""
        import ipywidgets as w

        def image(**kw):
            # no margins: images in one cell must coincide, and 2-px side margins overflow 100 %
            return w.Image(format="png", layout=w.Layout(grid_area="frame", width="100%", margin="0"), **kw)

        background, layer = image(value=background), image()
        stack = w.GridBox([background, layer], layout=w.Layout(
            width="100%", max_width="1200px", margin="2px 0", grid_template_columns="minmax(0, 1fr)",
            grid_template_areas='"frame"'))
        stack.add_class("asb-live-frame")
        return stack, layer

    # --- static --------------------------------------------------------------------

    def grid(self):
        """Every grid point, in the order the player indexes them (last control fastest)."""
        return [dict(zip([c.name for c in self.controls], combo))
                for combo in itertools.product(*[c.values for c in self.controls])]

    def static_frames(self) -> list[tuple[bytes, str, Readout]]:
        """(layer PNG, alt text, readout) for every grid point; see ``BlitFigure.layer_png``."""
        out = []
        fig = self.figure
        for point in self.grid():
            fig.update(**(self.defaults() | point))
            readout = self.describe(fig.state)
            out.append((fig.layer_png(), readout.alt, readout))
        return out

    def _static_control(self, c: Control, cid: str) -> str:
        """A labelled range input (ordered values) or a group of radio buttons (a choice)."""
        label = math_html(c.label)
        if c.names is not None:  # a choice (is_choice)
            options = "".join(
                f'<label class="asb-option"><input type="radio" name="{cid}" value="{i}"'
                f'{" checked" if x == c.default else ""}> {math_html(name)}</label>'
                for i, (x, name) in enumerate(zip(c.values, c.names)))
            return (f'<fieldset class="asb-control asb-choice" id="{cid}"><legend>{label}</legend>'
                    f'<div class="asb-options">{options}</div></fieldset>')
        shown = c.show(c.default)
        return (f'<div class="asb-control"><label for="{cid}">{label}</label>'
                f'<span class="asb-slider"><input type="range" id="{cid}" min="0" max="{len(c.values) - 1}" step="1" '
                f'value="{c.values.index(c.default)}" aria-valuetext="{html.escape(f"{shown} {c.unit}".strip())}">'
                f'<output for="{cid}">{html.escape(shown)}</output>'
                f'<span class="asb-unit">{html.escape(c.unit)}</span></span></div>')

    def static_html(self) -> str:
        """A self-contained player: labelled controls over the grid, one frame per point.

        Ordered parameters are range inputs; choices are radio buttons. The figure's fixed
        background is shipped once; each grid point adds only a small transparent layer
        with the artists that change. The default frame is in the HTML itself, so the page
        shows it without JavaScript and when printed.
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
        rows = [self._static_control(c, f"{uid}-{c.name}") for c in self.controls]
        grid = {c.name: c.values for c in self.controls}
        stops = lesson.check_stops(self.name, grid, self.stops) if self.stops else ()
        data = {
            "controls": [{"id": f"{uid}-{c.name}", "unit": c.unit, "kind": "radio" if c.is_choice else "range",
                          "label": plain_text(c.label), "values": [c.show(x) for x in c.values]}
                         for c in self.controls],
            "frames": encoded,
            "readout": _readout_data([r for _, _, r in frames]),
            # presentation mode steps through these (the player's grid indices; see lesson.py)
            "stops": [{"caption": stop.caption,
                       "at": [c.values.index(stop.settings[c.name]) for c in self.controls],
                       "index": self.grid().index(dict(stop.settings)),
                       "panelFrom": round(fig.panel_start(stop.panel), 3)}  # a phone scrolls there
                      for stop in stops],
        }
        grid_note = "; ".join(f"every {plain_text(c.label)}" if c.is_choice  # the buttons name them
                              else f"{plain_text(c.label)} in {_value_set(c)}" for c in self.controls)
        fixed_note = ", ".join(f"{plain_text(c.label)} = {c.show(c.default)}" for c in self.live_only)
        width, height = fig.fig.canvas.get_width_height()
        key_from = fig.key_panel_start()
        key_attr = "" if key_from is None else f' data-key-from="{key_from:.3f}"'
        _, alt0, readout0 = frames[default_index]
        how = "Arrow, Home and End keys step a focused control" + (
            " or choice" if any(c.is_choice for c in self.controls) else "") + "."
        note = (f"Precomputed frames: {grid_note}"
                + (f"; fixed here: {fixed_note}" if fixed_note else "")
                + f". {how} In the notebook every control is live.")
        # UTF-8 as it is (a "±" is 2 bytes, not the 6 of "\\u00b1"); "</" escaped inside <script>
        payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
        return (
            f'<div class="asb-player" id="{uid}" role="group" aria-label="{html.escape(plain_text(self.title))}">'
            f'{_present_markup(bool(stops))}'
            f'<p class="asb-title" id="{uid}-title">{math_html(self.title)}</p>'
            f'<div class="asb-controls">{"".join(rows)}</div>'
            f'<div class="asb-scroll"{key_attr}><div class="asb-stack" style="aspect-ratio: {width} / {height}">'
            f'<img class="asb-background" src="data:image/png;base64,{background}" alt="" width="{width}" height="{height}">'
            f'<img class="asb-frame" src="data:image/png;base64,{encoded[default_index]}" '
            f'alt="{html.escape(alt0)}" width="{width}" height="{height}"></div></div>'
            f'{readout_html(readout0)}'
            f'<p class="asb-note">{html.escape(note)}</p>'
            '<p class="asb-keys">Next: → PageDown Space. Back: ← PageUp. '
            'Fine steps: ↑ ↓ on a control. Leave: Escape.</p>'
            f'<script type="application/json" class="asb-data">{payload}</script>'
            "</div>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        if static_mode():
            return {"text/html": self.static_html(), "text/plain": f"{plain_text(self.title)} (static player)"}
        # The widget-view bundle, built here rather than by the widget: ipywidgets 7 (Colab's)
        # has no Widget._repr_mimebundle_, ipywidgets 8 makes the same bundle.
        box = self.widget()
        if any(c.live[0] == "radio" for c in self.controls + self.live_only):
            from IPython.display import Javascript, display

            display(Javascript(RADIO_KEYS_JS))  # an output before the widget's, once per explorer
        return {"application/vnd.jupyter.widget-view+json": {"version_major": 2, "version_minor": 0,
                                                             "model_id": box.model_id},
                "text/plain": f"{plain_text(self.title)} (live: needs a running kernel)"}


#: Class of a live explorer's radio buttons.
RADIO_CLASS = "asb-radio"
# JupyterLab binds the arrow keys, in command mode, to moving between cells, and its
# shortcut handler (Lumino's, on the document) takes ArrowUp/ArrowDown from a focused radio
# button in an output and prevents its default: the choice does not change and the next
# cell is selected. This handler runs first (the window's capture phase) and stops the
# event there for the explorers' radio buttons, so the browser's own handling of the key
# (move to the next option and choose it) is all that happens. Installed once per page.
RADIO_KEYS_JS = """(function () {
  if (window.asbRadioKeys) { return; }
  window.asbRadioKeys = true;
  var keys = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"];
  window.addEventListener("keydown", function (event) {
    var t = event.target;
    if (keys.indexOf(event.key) >= 0 && !event.ctrlKey && !event.metaKey && !event.altKey
        && t && t.matches && t.matches(".%s input[type=radio]")) {
      event.stopPropagation();
    }
  }, true);
})();""" % RADIO_CLASS


# --- the live frame cache (ipywidgets 8) ----------------------------------------------------

#: Colours of a live layer in the frame cache, as in the static players' layers
#: (``BlitFigure.layer_png``): about 5 kB a frame, not the 26 kB of the exact layer.
LIVE_LAYER_COLORS = 32
#: Class of a live frame once the page steps through its row alone (the row is full and linked).
CACHED_CLASS = "asb-live-cached"
#: Class of the slider whose row of frames the page caches.
FAST_CLASS = "asb-fast"
# Shows one child of the Tab that holds the row, without its tab bar, border or background.
_CACHE_CSS = ("<style>.asb-live-cache > .widget-tab-bar{display:none !important}"
              ".asb-live-cache > .widget-tab-contents{border:0 !important;padding:0 !important;"
              "margin:0 !important;background:transparent !important;overflow:visible !important}</style>")


def _caches() -> bool:
    """Whether the live widget caches frames in the page: ipywidgets 8 (Colab's 7.7.1 has
    no ``echo_update`` control nor ``Stack``, and keeps the kernel path)."""
    import ipywidgets as w

    return hasattr(w, "Stack")


def live_positions(control: Control) -> tuple:
    """The values a live slider steps through.

    ``("select", options)``: the options; ``("int", low, high)``: every integer;
    ``("log", low, high, step)``: the default times the powers of ``10**step`` that lie in
    [low, high] (rounded to 12 significant digits, so 0.1, 1 and 10 are exact), which are
    the steps of a log slider started at its default.
    """
    if not isinstance(control, Control):
        raise ValueError(f"control must be a Control, got {type(control).__name__}")
    kind, *spec = control.live
    if kind in ("select", "radio"):
        return tuple(spec[0])
    if kind == "int":
        return tuple(range(spec[0], spec[1] + 1))
    low, high, step = spec
    centre = float(np.log10(control.default))
    first = int(np.ceil((np.log10(low) - centre) / step - 1e-9))
    last = int(np.floor((np.log10(high) - centre) / step + 1e-9))
    return tuple(float(f"{10.0 ** (centre + k * step):.12g}") for k in range(first, last + 1))


def cached_layer_png(fig: BlitFigure) -> bytes:
    """The changing artists of ``fig``'s current state on a transparent canvas, quantised to
    :data:`LIVE_LAYER_COLORS` colours like the static players' layers, zlib level 6 (no
    optimiser pass): the frame cache's image of one position, laid over
    ``fig.live_background_png()``."""
    from PIL import Image, PngImagePlugin

    from .figures import MIN_FONT_KEY

    if not isinstance(fig, BlitFigure):
        raise ValueError(f"fig must be a BlitFigure, got {type(fig).__name__}")
    fig._ensure_background()
    fig.canvas.get_renderer().clear()  # transparent
    for artist in fig._dynamic:
        fig.fig.draw_artist(artist)
    rgba = Image.fromarray(np.asarray(fig.canvas.buffer_rgba()).copy())
    layer = rgba.quantize(colors=LIVE_LAYER_COLORS, method=Image.Quantize.FASTOCTREE)
    info = PngImagePlugin.PngInfo()
    info.add_text(MIN_FONT_KEY, f"{fig._smallest_pt:g}")
    buf = io.BytesIO()
    layer.save(buf, format="PNG", compress_level=6, pnginfo=info, dpi=(fig.fig.dpi, fig.fig.dpi))
    return buf.getvalue()


#: The readout table's style in a live notebook (the book's pages have _static/book.css).
LIVE_READOUT_CSS = (
    "<style>.asb-readout{font-size:0.9em;font-variant-numeric:tabular-nums}"
    ".asb-readout p{margin:0.2em 0}.asb-tables{display:flex;flex-wrap:wrap;gap:0.2em 1.6em}"
    ".asb-rt{border-collapse:collapse;margin:0.2em 0}.asb-rt caption{text-align:left;font-weight:600}"
    ".asb-rt th,.asb-rt td{padding:0.05em 0.6em 0.05em 0;text-align:right;white-space:nowrap;border:0}"
    ".asb-rt th[scope=row],.asb-rt thead th:first-child{text-align:left;font-weight:normal}.asb-rt thead th{font-weight:600;"
    "border-bottom:1px solid currentColor}.asb-foot{font-size:0.9em;opacity:0.8}"
    ".asb-said{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}"
    "</style>")


def _readout_html(readout: Readout) -> str:
    """A live explorer's readout: the static player's table (readout_html), with its style."""
    return LIVE_READOUT_CSS + readout_html(readout)


class _FrameCache:
    """The live widget of an explorable with a ``fast`` control, under ipywidgets 8.

    Each position of the fast slider has a *view*: its layer image over the background, and
    its readout below, in one box. The views of the current *row* (every position of the
    fast slider, at the current setting of every other control) are the children of one
    ``ipywidgets.Tab`` whose tab bar is hidden: a Tab renders all its children and shows
    one, so showing another is a class change in the page, with nothing to load. A frame
    and its readout are one child and switch together, so they never disagree.

    While the row is not full the kernel draws the frame of each new position (as the
    kernel path does) and then shows it. A task on the kernel's event loop fills the rest
    of the row, nearest the slider first, yielding between frames so slider messages are
    served. When the row is full, ``jslink`` ties the slider's index to the Tab's
    ``selected_index``: a fast step then shows a frame the page holds, without the kernel,
    which draws nothing more. Any other control unlinks, draws the current frame at once and
    refills the row. The kernel never writes into the view on show: a stale view on show
    is replaced by drawing into one of two spare views, which is then shown.
    """

    def __init__(self, exp: "Explorable", controls: dict):
        import ipywidgets as w

        self.exp, self.controls = exp, controls
        self.slider = controls[exp.fast]
        self.slider.add_class(FAST_CLASS)
        self.positions = live_positions(next(c for c in exp.controls + exp.live_only if c.name == exp.fast))
        self.n = len(self.positions)
        if len(self.slider.options) != self.n:
            raise ValueError(f"fast slider of {exp.name} has {len(self.slider.options)} options, not {self.n}")
        fig = exp.figure
        fig.update(**exp.defaults())
        self.background = w.Image(value=fig.live_background_png(), format="png", layout=w.Layout(
            grid_area="frame", width="100%", margin="0", align_self="flex-start"))

        def view():
            image = w.Image(format="png", layout=w.Layout(width="100%", margin="0"))
            box = w.VBox([image, w.HTML()], layout=w.Layout(width="100%", margin="0", padding="0"))
            box.add_class("asb-live-view")
            return box

        self.views = [view() for _ in range(self.n + 2)]  # the row, then two spares
        self.tab = w.Tab(children=self.views, layout=w.Layout(grid_area="frame", width="100%", margin="0"))
        self.tab.add_class("asb-live-cache")
        self.tab._selected_index_metadata = {"echo_update": False}
        self.frame = w.GridBox([self.background, self.tab], layout=w.Layout(
            width="100%", max_width="1200px", margin="2px 0", grid_template_columns="minmax(0, 1fr)",
            grid_template_areas='"frame"'))
        self.frame.add_class("asb-live-frame")
        style = w.HTML(_CACHE_CSS, layout=w.Layout(display="none"))
        title = w.HTMLMath(f"<b>{html.escape(exp.title)}</b>")
        self.box = w.VBox([style, title, *controls.values(), self.frame], layout=w.Layout(width="100%"))
        self.box.frame_cache = self
        self.key: tuple | None = None
        self.fresh: set[int] = set()
        self.links: tuple = ()
        self.task: Any = None
        for c in controls.values():
            if c is self.slider:
                c.observe(self._fast_moved, names="index")
            else:
                c.observe(self._other_changed, names="value")
        self.show()
        self.start_fill()

    @property
    def linked(self) -> bool:
        return bool(self.links)

    def params(self, i: int) -> dict:
        """Every control's value, the fast one at position ``i``."""
        return self.exp.defaults() | {name: c.value for name, c in self.controls.items()} | {
            self.exp.fast: self.positions[i]}

    def _row_key(self) -> tuple:
        return tuple((name, c.value) for name, c in self.controls.items() if c is not self.slider)

    def _draw(self, i: int, into: int) -> None:
        fig = self.exp.figure
        fig.update(**self.params(i))
        image, readout = self.views[into].children
        image.value = cached_layer_png(fig)
        readout.value = _readout_html(self.exp.describe(fig.state))

    def _draw_hidden(self, i: int) -> int:
        """Draw position ``i`` into a view not on show: its own, else a spare. Returns the view."""
        shown = self.tab.selected_index
        into = i if shown != i else (self.n if shown != self.n else self.n + 1)
        self._draw(i, into)
        if into == i:
            self.fresh.add(i)
        return into

    def show(self) -> None:
        """Kernel mode: show the slider's position at the current setting of the others."""
        key = self._row_key()
        if key != self.key:
            self.unlink()
            self.key, self.fresh = key, set()
        i = self.slider.index
        self.tab.selected_index = i if i in self.fresh else self._draw_hidden(i)

    def _fast_moved(self, _change=None) -> None:
        if not self.links:  # linked, the page shows the cached frame by itself
            self.show()
            self.start_fill()

    def _other_changed(self, _change=None) -> None:
        self.unlink()
        self.show()
        self.start_fill()

    def unlink(self) -> None:
        for link in self.links:
            link.unlink()
        self.links = ()
        self.frame.remove_class(CACHED_CLASS)

    def link(self) -> None:
        """Once the row is full: the slider's index drives the Tab in the page."""
        import ipywidgets as w

        if self.links or len(self.fresh) < self.n:
            return
        self.tab.selected_index = self.slider.index
        self.links = (w.jslink((self.slider, "index"), (self.tab, "selected_index")),)
        self.frame.add_class(CACHED_CLASS)

    def fill_step(self) -> bool:
        """Draw the stale position nearest the slider; link once none is left. Returns
        whether one was drawn."""
        i0 = self.slider.index
        for d in range(self.n):
            for j in (i0 + d, i0 - d):
                if 0 <= j < self.n and j not in self.fresh:
                    self._draw_hidden(j)
                    return True
        self.link()
        return False

    def fill_all(self) -> None:
        """Fill the whole row now (no event loop: tests, scripts)."""
        while self.fill_step():
            pass

    async def _fill(self) -> None:
        import asyncio

        try:
            while self.fill_step():
                await asyncio.sleep(0)  # serve the slider's messages between frames
        finally:
            self.task = None

    def start_fill(self) -> None:
        """Fill the row in the background, on the running event loop (a kernel's); without
        one, nothing is scheduled and the kernel path serves every position."""
        import asyncio

        if self.task is not None or self.links:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.task = loop.create_task(self._fill())


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


def _weight_rows(draw: dict, expect: dict) -> tuple:
    """The rows every explorer of one weight vector reads out: one draw beside its mean.

    Above ½ the largest weight's distance from 1 is read off its P(1−P), which is then the
    largest one and was formed from the other weights' sum: 1 − P = P(1−P)/P keeps every
    digit where ``1 - P`` cancels (s = 100: 3.2e-16, not the 2.2e-16 of a subtraction)."""
    top = draw["max weight"]
    complement = draw["largest P(1-P)"] / top if top > 0.5 else None
    return (Row("largest weight", top, expect["max weight"], 3, near_one=True, complement=complement),
            Row("entropy", draw["entropy"], expect["entropy"], 2),
            Row("largest P(1−P)", draw["largest P(1-P)"], expect["largest P(1-P)"], 3))


def _means_note(n: int, max_entropy: float, what: str = "queries") -> str:
    """What every 'mean' and '±' of a readout is, and the entropy's unit and ceiling."""
    return (f"Each mean is over {n} {what}, ± one standard error; this draw can sit far from it. "
            f"Entropy in nats, at most ln n = {max_entropy:.2f}.")


def _describe_attention(state) -> Readout:
    p = state["params"]
    r, e = state["readouts"], state["expectation"]
    return Readout(
        lead=f"One draw (seed {p['seed']}) at dₖ = {p['d_k']}, m = {p['magnitude']:.2f}, {p['n_keys']} keys.",
        groups=(Group("Unscaled", _weight_rows(r["unscaled"], e["unscaled"])),
                Group("Scaled by 1/√dₖ", _weight_rows(r["scaled"], e["scaled"]))),
        note=_means_note(state["n_queries"], state["max_entropy"]),
        intro="Attention explorer.",
        figure="Lines with bands: the means and the middle 80 % of the queries. "
               "Right panel: |q·k| over random pairs against its prediction.")


def attention_explorer(n_pairs: int = 2000) -> Explorable:
    """The main explorable: sliders for d_k, vector magnitude, number of keys and seed.

    On the static page d_k and magnitude vary over a grid; 16 keys and seed 0 are fixed.
    """
    n_pairs = v.positive_int(n_pairs, "n_pairs")
    return Explorable(
        name="attention",
        title=(r"Attention weights, their gradients and the spread of $q\cdot k$, unscaled vs scaled by "
               rf"$1/\sqrt{{d_k}}$ (each frame: one draw, beside the mean of {ENSEMBLE_QUERIES} queries)"),
        make_figure=lambda: AttentionFigure(n_pairs=n_pairs),
        controls=[
            Control("d_k", "key dimension $d_k$", "dimensions", D_VALUES, 64, ("select", D_VALUES)),
            _magnitude_control(),
        ],
        live_only=[
            Control("n_keys", "number of keys $n$", "keys", (16,), 16, ("int", 2, MAX_KEYS)),
            Control("seed", "seed of the draw", "", (0,), 0, ("int", 0, 99)),
        ],
        describe=_describe_attention,
        stops=lesson.stops("attention"),
        fast="magnitude",
    )


def _describe_scale(state) -> Readout:
    s = state["params"]["scale"]
    r, e = state["readouts"], state["expectation"]
    k, seed = len(state["p"]), state["params"].get("seed")
    return Readout(
        lead=(f"One draw of {k} scores" + (f" (seed {seed})" if seed is not None else "")
              + f" times a scale s = {s:g} (temperature {1 / s:.3g})."),
        groups=(Group("", _weight_rows(r, e) + (Row("norm of the Jacobian ‖J‖₂", r["norm of J"], e["norm of J"], 3),)),),
        note=_means_note(state["n_draws"], state["max_entropy"], "draws"),
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
        fast="scale",
    )


def _describe_normalization(state) -> Readout:
    p = state["params"]
    mode = NormalizationFigure.NAMES[p["mode"]]
    gain = f", gain g = {p['gain']:g}" if p["mode"] == "qk-l2" else ""
    return Readout(
        lead=f"One draw (seed {p['seed']}), {_subscripts(mode)}, at magnitude m = {p['magnitude']:.2f}{gain}.",
        groups=(Group("", _weight_rows(state["readouts"], state["expectation"])),),
        note=_means_note(state["n_queries"], state["max_entropy"]),
        intro="Normalisation explorer.",
        figure=(f"Right panel: the mean largest weight against the magnitude for each normalisation "
                f"(QK-norm at gain g = {p['gain']:g}), with bands for the middle 80 % of the queries."))


def normalization_explorer(seed: int = 0) -> Explorable:
    """Magnitude and normalisation mode: with QK-norm the magnitude stops mattering."""
    seed = v.positive_int(seed, "seed", minimum=0)
    modes = NormalizationFigure.MODES
    return Explorable(
        name="normalization",
        title=(r"Vector magnitude against three normalisations: scaling by $1/\sqrt{d_k}$, QK-norm, "
               rf"LayerNorm on $q$ and $k$ (each frame: one draw, seed {seed}, beside the mean of "
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
        fast="magnitude",
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


def _value_set(control) -> str:
    """A control's values as the player's note lists them: every value, or, for six or more
    that each double the last (d_k 1 to 1024, n 2 to 65 536), the first three and the last."""
    shown = [control.show(x) for x in control.values]
    doubling = (len(shown) >= 6 and not control.is_choice
                and all(isinstance(x, (int, float)) and x > 0 for x in control.values)
                and all(b == 2 * a for a, b in zip(control.values, control.values[1:])))
    if doubling:
        return f"{{{shown[0]}, {shown[1]}, {shown[2]}, …, {shown[-1]}}}, doubling"
    return "{" + ", ".join(shown) + "}"


# --- context length: the needle among n keys (book/keep-long-contexts-sharp.md) -------------------

#: Gaps the live gap slider steps through: every quarter from 0 to 10 (the player's among them).
LIVE_GAPS = tuple(i / 4 for i in range(41))


def _describe_context(state) -> Readout:
    from .context import NAMES

    p, r = state["params"], state["readouts"]
    sink = r["sink"] if p["method"] == "zero-logit" else None
    return Readout(
        lead=(f"One draw (seed {p['seed']}) of {p['n'] - 1} distractor score{'s' if p['n'] > 2 else ''} ~ N(0, 1) "
              f"and a needle scored "
              f"Δ = {p['gap']:g}; n = {p['n']} keys, {_subscripts(NAMES[p['method']])}."),
        groups=(Group("", (Row("needle weight", r["needle"], near_one=True, complement=r["others"]),
                           Row("its P(1−P)", r["P(1-P)"]),
                           Row("its gradient dP/dΔ", r["gradient"]),
                           Row("strongest distractor", r["top distractor"]),
                           Row("all other keys together", r["others"] - r["sink"], near_one=True),
                           Row("extra zero logit (sink)", sink))),),
        intro="Context explorer.",
        figure=("Left: bars of the needle, the 5 strongest distractors, the rest summed, and the sink. "
                "Middle: the needle as a point on the parabola P(1−P). Right: the needle's weight against n "
                "for this method and for plain scaling, the current n ringed."))


def context_explorer(seed: int = 0) -> Explorable:
    """Context length n, the needle's gap Δ and the method: fading, s·ln n, soft-cap, a zero logit."""
    from .context import GAPS, METHODS, N_VALUES, TEX_NAMES, ContextFigure

    seed = v.positive_int(seed, "seed", minimum=0)
    return Explorable(
        name="context",
        title=rf"A needle among $n$ keys, four ways (one draw of the distractors, seed {seed})",
        make_figure=lambda: ContextFigure(seed=seed),
        controls=[
            Control("method", "method", "", METHODS, "plain", ("radio", METHODS),
                    names=tuple(TEX_NAMES[m] for m in METHODS)),
            Control("n", "context length $n$", "keys", N_VALUES, 1024, ("select", N_VALUES)),
            Control("gap", "needle's score Δ, distractors ~ N(0, 1)", "", GAPS, 6.0, ("select", LIVE_GAPS),
                    fmt="{:g}"),
        ],
        describe=_describe_context,
        stops=lesson.stops("context"),
        fast="gap",
    )
