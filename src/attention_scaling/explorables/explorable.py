"""An :class:`Explorable`: a live figure and its controls, shown as ipywidgets in a kernel and
as a precomputed player in the built book.
"""

from __future__ import annotations

import base64
import html
import itertools
from dataclasses import dataclass, field
from typing import Any, Callable

from .. import lesson
from ..figures import BlitFigure
from ..readout import Readout
from .controls import Control, FRAME_BUDGET_BYTES, _value_set, live_positions, log_slider_range, static_mode
from .live import RADIO_CLASS, RADIO_KEYS_JS, _FrameCache, _caches, _readout_html
from .page import module_html
from .player import _readout_data, choice_html, player_html, range_html
from .text import _subscripts, plain_text


_ids = itertools.count()


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
    # An explorer that computes in the page (explorables.page): its module's mount function in
    # attention_scaling.web, and what it is given (a callable returning the payload).
    web: str | None = None
    payload: Callable[[], dict] | None = None
    _figure: BlitFigure | None = None

    def __post_init__(self):
        names = [c.name for c in self.controls + self.live_only]
        if self.fast is not None and self.fast not in names:
            raise ValueError(f"fast must name one of the controls {names}, got {self.fast!r}")
        if (self.web is None) != (self.payload is None):
            raise ValueError("web and payload go together: a module to mount and what it is given")

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

    def _live_control(self, c: Control, cached: bool = True):
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
        if kind == "log" and cached and c.name == self.fast and _caches():
            # the cached slider needs an index to link: the same log steps, as a selection
            # labelled as the log slider's readout (d3 ".3g": 1.00, 0.0501, 100)
            return w.SelectionSlider(options=[(f"{x:#.3g}".rstrip("."), x) for x in live_positions(c)],
                                     value=c.default, **common)
        if kind == "log":
            low, high = log_slider_range(c)
            return w.FloatLogSlider(value=c.default, base=10, min=low, max=high, step=spec[2], readout_format=c.readout,
                                    **common)
        if kind == "float":
            return w.FloatSlider(value=c.default, min=spec[0], max=spec[1], step=spec[2], readout_format=c.readout,
                                 **common)
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

        if self.web is not None:
            return self._module_widget()
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

    def _module_widget(self):
        """The controls and the module's view (:func:`~.widget.module_view`), linked in the page:
        a control repaints the view with no kernel round trip. The box's ``view`` is the anywidget,
        whose ``state`` is the package's state at the current values."""
        import ipywidgets as w

        from .widget import module_view

        view = module_view(self)
        every = self.controls + self.live_only  # a live-only control (the number of keys) too
        controls = [self._live_control(c, cached=False) for c in every]
        links = []
        for c, control in zip(every, controls):
            control._value_metadata = control._index_metadata = {"echo_update": False}
            # a choice's front end holds its index (the view's value is that index)
            links.append(w.jslink((control, "index" if c.is_choice else "value"), (view, c.name)))
        title = w.HTMLMath(f"<b>{html.escape(self.title)}</b>")
        box = w.VBox([title, *controls, view], layout=w.Layout(width="100%"))
        box.view, box.links = view, links
        return box

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
        """A labelled range input over the grid (ordered values) or a group of radio buttons (a choice)."""
        if c.is_choice:
            return choice_html(c, cid)
        said = f"{c.show(c.default)} {c.unit}".strip()
        return range_html(c, cid, len(c.values) - 1, c.values.index(c.default), said, c.unit)

    def static_html(self) -> str:
        """A self-contained player: labelled controls over the grid, one frame per point.

        Ordered parameters are range inputs; choices are radio buttons. The figure's fixed
        background is shipped once; each grid point adds only a small transparent layer
        with the artists that change. The default frame is in the HTML itself, so the page
        shows it without JavaScript and when printed.
        """
        if self.web is not None:
            return module_html(self, f"asb-{self.name}-{next(_ids)}")
        grid = {c.name: c.values for c in self.controls}
        stops = lesson.check_stops(self.name, grid, self.stops) if self.stops else ()  # before any frame
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
        width, height = fig.fig.canvas.get_width_height()
        key_from = fig.key_panel_start()
        key_attr = "" if key_from is None else f' data-key-from="{key_from:.3f}"'
        _, alt0, readout0 = frames[default_index]
        figure = (f'<div class="asb-scroll"{key_attr}><div class="asb-stack" style="aspect-ratio: {width} / {height}">'
                  f'<img class="asb-background" src="data:image/png;base64,{background}" alt="" width="{width}" '
                  f'height="{height}"><img class="asb-frame" src="data:image/png;base64,{encoded[default_index]}" '
                  f'alt="{html.escape(alt0)}" width="{width}" height="{height}"></div></div>')
        return player_html(uid, self.title, bool(stops), "".join(rows), figure, readout0, self._static_note(), data)

    def _static_note(self) -> str:
        """What the static player's frames cover, what is fixed, and how to step them."""
        grid_note = "; ".join(f"every {plain_text(c.label)}" if c.is_choice  # the buttons name them
                              else f"{plain_text(c.label)} in {_value_set(c)}" for c in self.controls)
        fixed_note = ", ".join(f"{plain_text(c.label)} = {c.show(c.default)}" for c in self.live_only)
        how = "Arrow, Home and End keys step a focused control" + (
            " or choice" if any(c.is_choice for c in self.controls) else "") + "."
        return (f"Precomputed frames: {grid_note}"
                + (f"; fixed here: {fixed_note}" if fixed_note else "")
                + f". {how} In the notebook every control is live.")

    def _repr_mimebundle_(self, include=None, exclude=None):
        if static_mode():
            kind = "computed in the page" if self.web is not None else "static player"
            return {"text/html": self.static_html(), "text/plain": f"{plain_text(self.title)} ({kind})"}
        # The widget-view bundle, built here rather than by the widget: ipywidgets 7 (Colab's)
        # has no Widget._repr_mimebundle_, ipywidgets 8 makes the same bundle.
        box = self.widget()
        if any(c.live[0] == "radio" for c in self.controls + self.live_only):
            from IPython.display import Javascript, display

            display(Javascript(RADIO_KEYS_JS))  # an output before the widget's, once per explorer
        return {"application/vnd.jupyter.widget-view+json": {"version_major": 2, "version_minor": 0,
                                                             "model_id": box.model_id},
                "text/plain": f"{plain_text(self.title)} (live: needs a running kernel)"}
