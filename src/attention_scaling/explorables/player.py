"""The static player's data: the readouts shipped per frame and the Present-mode markup
(_static/player.js reads both).
"""

from __future__ import annotations

import html
import json

from ..readout import Readout, readout_html
from .text import math_html, plain_text

#: The keys Present mode answers to, as a player prints them under itself.
KEYS_HTML = ('<p class="asb-keys">Next: → PageDown Space. Back: ← PageUp. First, last: Home End. '
             "Black screen: B or . (any key returns). Full screen: F. "
             "Fine steps: ↑ ↓ on a control. Leave: Escape twice.</p>")


def player_html(uid: str, title: str, has_stops: bool, controls: str, figure: str, readout: Readout,
                note: str, data: dict, kind: str = "", after: str = "") -> str:
    """A player's markup around its parts, as ``_static/player.js`` reads it: the Present
    button and bar, the title, the controls, the figure, the readout, the note, the key hints
    and the data (JSON: UTF-8 as it is, "±" 2 bytes and not the 6 of "\\u00b1"; "</" escaped
    inside <script>), then ``after``. ``kind`` is a further class of the player's box."""
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    classes = "asb-player" + (f" {kind}" if kind else "")
    return (
        f'<div class="{classes}" id="{uid}" role="group" aria-label="{html.escape(plain_text(title))}">'
        f"{_present_markup(has_stops)}"
        f'<p class="asb-title" id="{uid}-title">{math_html(title)}</p>'
        f'<div class="asb-controls">{controls}</div>{figure}{readout_html(readout)}'
        f'<p class="asb-note">{html.escape(note)}</p>{KEYS_HTML}'
        f'<script type="application/json" class="asb-data">{payload}</script>{after}</div>'
    )


def choice_html(control, cid: str) -> str:
    """A choice as a group of radio buttons named in words, each option's value its index."""
    options = "".join(
        f'<label class="asb-option"><input type="radio" name="{cid}" value="{i}"'
        f'{" checked" if x == control.default else ""}> {math_html(name)}</label>'
        for i, (x, name) in enumerate(zip(control.values, control.names)))
    return (f'<fieldset class="asb-control asb-choice" id="{cid}"><legend>{math_html(control.label)}</legend>'
            f'<div class="asb-options">{options}</div></fieldset>')


def range_html(control, cid: str, steps: int, position: int, said: str, unit: str = "") -> str:
    """An ordered control as a labelled range input over positions 0 to ``steps``, its value shown
    beside it (``said``: what a screen reader hears)."""
    shown = control.show(control.default)
    return (f'<div class="asb-control"><label for="{cid}">{math_html(control.label)}</label>'
            f'<span class="asb-slider"><input type="range" id="{cid}" min="0" max="{steps}" step="1" '
            f'value="{position}" aria-valuetext="{html.escape(said)}">'
            f'<output for="{cid}">{html.escape(shown)}</output>'
            f'<span class="asb-unit">{html.escape(unit)}</span></span></div>')


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
        '<button type="button" class="asb-present-close" title="Leave (Escape twice)">Close <kbd>Esc</kbd></button>'
        '</span></div>'
    )
