"""An :class:`Explorable`: a figure, its controls and the ES module that draws it (issue 30): the
same module computes in the built book's page and, as an anywidget, in a live kernel, where the
controls are ipywidgets linked to it in the front end.
"""

from __future__ import annotations

import html
import itertools
from dataclasses import dataclass, field
from typing import Any, Callable

from ..figures import BlitFigure
from ..readout import Readout
from .controls import Control, log_slider_range, static_mode
from .live import RADIO_CLASS, RADIO_KEYS_JS
from .page import module_html
from .text import _subscripts, plain_text


_ids = itertools.count()


@dataclass
class Explorable:
    """A figure with its controls and the module that draws them (see the module docstring).

    ``title`` marks its maths as ``$...$``; it is typeset on the page and read as plain text
    by screen readers.
    """

    name: str
    title: str
    make_figure: Callable[[], BlitFigure]  # the package's figure: its state, and the picture without scripts
    controls: list
    live_only: list = field(default_factory=list)  # sliders only the live version has
    describe: Any = None  # callable(state) -> Readout (attention_scaling.readout)
    stops: tuple = ()  # the lesson's settings to step through (attention_scaling.lesson)
    # The module that computes in the page (explorables.page): its mount function in
    # attention_scaling.web, and what it is given (a callable returning the payload).
    web: str | None = None
    payload: Callable[[], dict] | None = None
    _figure: BlitFigure | None = None

    def __post_init__(self):
        if self.web is None or self.payload is None:
            raise ValueError(f"explorer {self.name} needs web and payload: the module that draws it and what "
                             "it is given")

    @property
    def figure(self) -> BlitFigure:
        if self._figure is None:
            self._figure = self.make_figure()
        return self._figure

    def defaults(self) -> dict:
        return {c.name: c.default for c in self.controls + self.live_only}

    def readout(self, **params) -> Readout:
        """The readout at ``params`` (others at their defaults), from the package's state: what a
        handout prints under the module's drawing at a stop."""
        fig = self.figure
        fig.update(**(self.defaults() | params))
        return self.describe(fig.state)

    def frame(self, **params) -> tuple[bytes, str, Readout]:
        """Update to ``params`` (others at their defaults); return (the figure's PNG, alt, readout):
        the picture a page shows without scripts."""
        readout = self.readout(**params)
        return self.figure.png(), readout.alt, readout

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
        if kind == "log":
            low, high = log_slider_range(c)
            return w.FloatLogSlider(value=c.default, base=10, min=low, max=high, step=spec[2], readout_format=c.readout,
                                    **common)
        if kind == "float":
            return w.FloatSlider(value=c.default, min=spec[0], max=spec[1], step=spec[2], readout_format=c.readout,
                                 **common)
        return w.IntSlider(value=c.default, min=spec[0], max=spec[1], **common)

    def widget(self):
        """The controls and the module's view (:func:`~.widget.module_view`), linked in the page:
        a control repaints the view with no kernel round trip. The box's ``view`` is the anywidget,
        whose ``state`` is the package's state at the current values."""
        import ipywidgets as w

        from .widget import module_view

        view = module_view(self)
        every = self.controls + self.live_only  # a live-only control (the number of keys) too
        controls = [self._live_control(c) for c in every]
        links = []
        for c, control in zip(every, controls):
            control._value_metadata = control._index_metadata = {"echo_update": False}
            # a choice's front end holds its index (the view's value is that index)
            links.append(w.jslink((control, "index" if c.is_choice else "value"), (view, c.name)))
        title = w.HTMLMath(f"<b>{html.escape(self.title)}</b>")
        box = w.VBox([title, *controls, view], layout=w.Layout(width="100%"))
        box.view, box.links = view, links
        return box

    # --- static --------------------------------------------------------------------

    def static_html(self) -> str:
        """The built page's markup: the module's player (:func:`~.page.module_html`), with the
        figure's picture at the default setting for a page without scripts."""
        return module_html(self, f"asb-{self.name}-{next(_ids)}")

    def _repr_mimebundle_(self, include=None, exclude=None):
        if static_mode():
            return {"text/html": self.static_html(), "text/plain": f"{plain_text(self.title)} (computed in the page)"}
        # The widget-view bundle, built here rather than by the widget: ipywidgets 7 (Colab's)
        # has no Widget._repr_mimebundle_, ipywidgets 8 makes the same bundle.
        box = self.widget()
        if any(c.live[0] == "radio" for c in self.controls + self.live_only):
            from IPython.display import Javascript, display

            display(Javascript(RADIO_KEYS_JS))  # an output before the widget's, once per explorer
        return {"application/vnd.jupyter.widget-view+json": {"version_major": 2, "version_minor": 0,
                                                             "model_id": box.model_id},
                "text/plain": f"{plain_text(self.title)} (live: needs a running kernel)"}
