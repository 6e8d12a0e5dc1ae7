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
from typing import TYPE_CHECKING, cast

from .. import lesson, web
from .player import player_html
from .text import math_html, plain_text

if TYPE_CHECKING:
    from .explorable import Explorable

#: The id of the script element that carries the modules (one a page, whichever explorer comes first).
SCRIPT_ID = "asb-web-modules"


def _slider(label: str, cid: str, position: int, shown: str) -> str:
    return (f'<div class="asb-control"><label for="{cid}">{math_html(label)}</label>'
            f'<span class="asb-slider"><input type="range" id="{cid}" min="0" max="{web.SCALE_STEPS}" step="1" '
            f'value="{position}" aria-valuetext="s = {html.escape(shown)}">'
            f'<output for="{cid}">{html.escape(shown)}</output><span class="asb-unit"></span></span></div>')


def _modules_script() -> str:
    """The classic bundle, run once however many explorers a page holds."""
    source = web.bundle("scale_view.js", classic=True).replace("</", "<\\/")
    return (f'<script id="{SCRIPT_ID}">if (!document.querySelectorAll("#{SCRIPT_ID}")[1]) {{\n'
            f"{source}}}</script>")


def module_html(explorer: "Explorable", uid: str) -> str:
    """The static page's markup for ``explorer`` (whose ``web`` names its module's mount)."""
    (control,) = explorer.controls
    if explorer.payload is None:
        raise ValueError(f"explorer {explorer.name} names no payload for its module")
    stops = lesson.check_stops(explorer.name, {control.name: control.values}, explorer.stops) if explorer.stops else ()
    default = explorer.defaults()[control.name]
    png, alt0, readout0 = explorer.frame()  # the default setting's picture, drawn once
    picture = base64.b64encode(png).decode("ascii")
    width, height = explorer.figure.fig.canvas.get_width_height()
    cid = f"{uid}-{control.name}"
    note = ("Computed in the page for any s from 0.05 to 100 (1 001 slider positions, exact at round "
            "values): arrow keys step, Home and End jump.")
    # what a page without scripts says instead (player.js puts the note above in its place)
    still = (f"This explorer computes in the page and needs JavaScript: without it, the picture shows "
             f"{plain_text(control.label).split(' (')[0]} = {control.show(default)}. "
             "In the notebook every control is live.")
    data = {
        "module": {"mount": explorer.web, "options": {"scale": default}, "note": note},  # the slider: controls[0]
        "payload": explorer.payload(),
        "controls": [{"id": cid, "kind": "range", "unit": control.unit, "label": plain_text(control.label),
                      "values": []}],
        "stops": [{"caption": stop.caption, "at": [web.scale_position(cast(float, stop.settings[control.name]))],
                   "panel": stop.panel} for stop in stops],
    }
    controls = _slider(control.label, cid, web.scale_position(default), control.show(default))
    figure = (f'<div class="asb-scroll"><div class="asb-stack"><noscript><img class="asb-picture" '
              f'src="data:image/png;base64,{picture}" alt="{html.escape(alt0)}" width="{width}" height="{height}">'
              "</noscript></div></div>")
    return player_html(uid, explorer.title, bool(stops), controls, figure, readout0, still, data,
                       kind="asb-module", after=_modules_script())
