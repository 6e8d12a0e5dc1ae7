"""An explorer that computes in the page, in Jupyter: an anywidget running the static page's module.

The view is :class:`ModuleView`, an ``anywidget.AnyWidget`` whose front end is ``widget.js`` of
:mod:`attention_scaling.web` (bundled into one module): it mounts the same view the static book
mounts (``scale_view.js``) and redraws it whenever one of its control values changes. The
controls are ordinary ipywidgets (a ``FloatLogSlider`` for the scale), linked to those values in
the front end (``ipywidgets.jslink``): a slider repaints the view without the kernel, which only
hears of the new value. The kernel still knows the state: :attr:`ModuleView.state` is the
package's own figure state at the current values, for a lab that reads it.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .. import web

if TYPE_CHECKING:
    from .explorable import Explorable


@functools.cache
def _view_class(names: tuple[str, ...], choices: tuple[str, ...] = ()) -> type:
    """The anywidget class of an explorer with these controls: one synced value per control, a
    float, or for a choice (in ``choices``) the index of the chosen option."""
    import anywidget
    import traitlets as t

    traits: dict[str, Any] = {name: (t.Int(0) if name in choices else t.Float(0.0)).tag(sync=True) for name in names}
    namespace = {
        "__doc__": ModuleViewDoc,
        "_esm": web.bundle("widget.js"),
        "mount": t.Unicode("").tag(sync=True),
        "payload": t.Dict().tag(sync=True),
        "controls": t.List(t.Unicode()).tag(sync=True),
        "state": property(_state),
        **traits,
    }
    return type("ModuleView", (anywidget.AnyWidget,), namespace)


ModuleViewDoc = """The front end of a module explorer (``widget.js``): ``mount`` names the view,
``payload`` is what the package computed for it, ``controls`` names the value traits the view
redraws on; ``state`` is the package's state at the current values."""


def _state(view) -> Any:
    """The package's own state of the explorer at the view's current values (its figure's), each
    value held to its control's range as the page holds it (a slider's last step can overshoot
    its end by a rounding)."""
    explorer = view._explorer
    values: dict[str, Any] = {}
    for c in explorer.controls + explorer.live_only:
        value = getattr(view, c.name)
        if c.is_choice:
            values[c.name] = c.values[value]
            continue
        low, high = c.live[1:3]
        value = min(high, max(low, value))
        values[c.name] = int(round(value)) if isinstance(c.default, int) else value  # a count: the page rounds it
    explorer.figure.update(**(explorer.defaults() | values))
    return explorer.figure.state


def module_view(explorer: "Explorable"):
    """The anywidget for ``explorer`` (whose ``web`` names its mount function), at its defaults."""
    if explorer.web is None or explorer.payload is None:
        raise ValueError(f"explorer {explorer.name} has no module to show in Jupyter")
    every = explorer.controls + explorer.live_only
    names = tuple(c.name for c in every)
    choices = tuple(c.name for c in every if c.is_choice)
    values = {c.name: c.values.index(c.default) if c.is_choice else float(c.default) for c in every}
    view = _view_class(names, choices)(mount=explorer.web, payload=explorer.payload(), controls=list(names), **values)
    view._explorer = explorer
    for name in names:  # ipywidgets 8 echoes a value back to the page that sent it: not needed here
        setattr(view, f"_{name}_metadata", {"echo_update": False})
    return view
