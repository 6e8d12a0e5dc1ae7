"""An explorer that computes in the page (issue 30): its markup on the static book.

The player's frame of pictures gives way to an ES module of :mod:`attention_scaling.web`
(``scale_view.js``), which recomputes and draws SVG at any slider position. The markup keeps
the frame player's contract, so that the book's ``player.js`` gives it Present mode and the
lesson's stops, and the handouts find it: a ``div.asb-player`` (here also ``asb-module``) with
the title, the slider (its label typeset by the build), the figure box, the readout, the note,
the key hints and its JSON data (``script.asb-data``: the payload, the slider positions of the
stops). The module itself follows as a classic script (a page opened from disk may not
import modules), once a page.

Without JavaScript the figure box holds the build's picture of the default setting and the
readout its numbers, as a frame player's page does.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from .. import lesson, web
from .player import choice_html, player_html, range_html
from .text import _subscripts, plain_text

if TYPE_CHECKING:
    from .explorable import Explorable

#: The ids of the script elements that carry the views, one a view (``asb-web-mountScale``), run
#: once a page however many explorers share it.
SCRIPT_ID = "asb-web-{mount}"
#: Each view's module, by its mount function.
VIEWS = {"mountScale": "scale_view.js", "mountContext": "context_view.js", "mountAttention": "attention_view.js",
         "mountNormalization": "normalization_view.js"}


@dataclass(frozen=True)
class Slider:
    """How a module's slider maps positions (0 to ``steps``) to values: ``position(value)`` is
    where the page's slider shows ``value``; ``said(shown)`` what a screen reader hears."""

    steps: int
    position: Callable[[Any], int]
    said: Callable[[str], str]


def _sliders(mount: str) -> dict[str, Slider]:
    """The sliders of the module mounted by ``mount``, by control name."""
    if mount == "mountScale":
        return {"scale": Slider(web.SCALE_STEPS, web.scale_position, lambda shown: f"s = {shown}")}
    if mount == "mountContext":
        ns = web.context_n_positions()
        return {"n": Slider(len(ns) - 1, lambda n: web.context_n_position(n, ns), lambda shown: f"n = {shown} keys"),
                "gap": Slider(web.GAP_STEPS, web.gap_position, lambda shown: f"Δ = {shown}")}
    if mount == "mountAttention":
        ds = web.d_positions()
        return {"d_k": Slider(len(ds) - 1, lambda d: web.d_position(d, ds), lambda shown: f"dₖ = {shown}"),
                "magnitude": Slider(web.MAGNITUDE_STEPS, web.magnitude_position, lambda shown: f"m = {shown}")}
    if mount == "mountNormalization":
        return {"magnitude": Slider(web.MAGNITUDE_STEPS, web.magnitude_position, lambda shown: f"m = {shown}"),
                "gain": Slider(web.GAIN_STEPS, web.gain_position, lambda shown: f"g = {shown}")}
    raise ValueError(f"no module mounts as {mount!r}")


#: What each module's note says its sliders reach (the note under a frame player lists its grid).
NOTES = {
    "mountScale": ("Computed in the page for any s from 0.05 to 100 (1 001 slider positions, exact at round "
                   "values): arrow keys step, Home and End jump."),
    "mountContext": ("Computed in the page: n takes 729 values from 2 to 65 536 (every whole number up to 108, "
                     "then about 1 % apart, every power of two among them), Δ any value from 0 to 20 in steps of "
                     "0.05. Arrow keys step, Home and End jump; arrow keys also move between the methods."),
    "mountAttention": ("Computed in the page: dₖ takes 427 values from 1 to 1024 (every whole number up to 156), "
                       "m any value from 0.1 to 10. Arrow keys step, Home and End jump."),
    "mountNormalization": ("Computed in the page for any m from 0.1 to 10 and any g from 1 to 128. Arrow keys "
                           "step, Home and End jump, and move between the normalisations."),
}


def _control(control, cid: str, slider: Slider | None) -> str:
    """A labelled range input over the slider's positions, or a group of radio buttons."""
    if slider is None:
        return choice_html(control, cid)
    return range_html(control, cid, slider.steps, slider.position(control.default),
                      slider.said(control.show(control.default)))


def modules_script(mount: str) -> str:
    """The classic bundle of the view mounted by ``mount`` (what it imports included), run once a
    page however many explorers share it; a page carries only the views it shows."""
    source = web.bundle(VIEWS[mount], classic=True).replace("</", "<\\/")
    script_id = SCRIPT_ID.format(mount=mount)
    return (f'<script id="{script_id}">if (!document.querySelectorAll("#{script_id}")[1]) {{\n'
            f"{source}}}</script>")


def module_html(explorer: "Explorable", uid: str) -> str:
    """The static page's markup for ``explorer`` (whose ``web`` names its module's mount)."""
    if explorer.payload is None or explorer.web is None:
        raise ValueError(f"explorer {explorer.name} names no module and payload")
    sliders = _sliders(explorer.web)
    grid = {c.name: c.values for c in explorer.controls}
    stops = lesson.check_stops(explorer.name, grid, explorer.stops) if explorer.stops else ()
    defaults = {c.name: explorer.defaults()[c.name] for c in explorer.controls}
    png, alt0, readout0 = explorer.frame()  # the default setting's picture, drawn once
    picture = base64.b64encode(png).decode("ascii")
    width, height = explorer.figure.fig.canvas.get_width_height()
    ids = {c.name: f"{uid}-{c.name}" for c in explorer.controls}
    shown = ", ".join(f"{plain_text(c.label)} {_subscripts(c.show(defaults[c.name]))}" if c.is_choice
                      else sliders[c.name].said(c.show(defaults[c.name])) for c in explorer.controls)
    # what a page without scripts says instead (player.js puts the module's note in its place)
    still = (f"This explorer computes in the page and needs JavaScript: without it, the picture shows {shown}. "
             "In the notebook every control is live.")

    def position(c, value) -> int:
        return c.values.index(value) if c.is_choice else sliders[c.name].position(value)

    data = {
        "module": {"name": explorer.name, "mount": explorer.web, "options": defaults, "note": NOTES[explorer.web]},
        "payload": explorer.payload(),
        "controls": [{"id": ids[c.name], "kind": "radio" if c.is_choice else "range", "unit": c.unit,
                      "label": plain_text(c.label), "values": []} for c in explorer.controls],
        "stops": [{"caption": stop.caption, "at": [position(c, stop.settings[c.name]) for c in explorer.controls],
                   "panel": stop.panel} for stop in stops],
    }
    controls = "".join(_control(c, ids[c.name], None if c.is_choice else sliders[c.name]) for c in explorer.controls)
    figure = (f'<div class="asb-scroll"><div class="asb-stack"><noscript><img class="asb-picture" '
              f'src="data:image/png;base64,{picture}" alt="{html.escape(alt0)}" width="{width}" height="{height}">'
              "</noscript></div></div>")
    return player_html(uid, explorer.title, bool(stops), controls, figure, readout0, still, data,
                       kind="asb-module", after=modules_script(explorer.web))
