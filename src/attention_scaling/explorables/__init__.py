"""Explorables: one ES module a family (:mod:`attention_scaling.web`) that computes and draws in
the page, on the static book and in Jupyter.

An :class:`Explorable` pairs a :class:`~attention_scaling.figures.BlitFigure` (the package's
own state at any setting, and the picture a page without scripts shows) with its controls and
its module. Displayed in a live kernel, it shows ipywidgets linked in the front end to the
module's anywidget (:mod:`.widget`). When the book is built (``scripts/build-book`` sets
``ATTENTION_BOOK_STATIC=1``) it writes the page's markup instead (:mod:`.page`): the controls,
the module, its payload and the lesson's stops.

A chapter needs one line: ``attention_explorer()`` or ``scale_explorer()``.

One concern a module: :mod:`.text` (labels as text and HTML), :mod:`.controls` (the control
model), :mod:`.player` (the player's markup), :mod:`.live` (the radio buttons' keys in Jupyter),
:mod:`.explorable` (:class:`Explorable`) and :mod:`.book` (the book's four explorers). Every
name chapters, labs, tests and readers import from ``attention_scaling.explorables`` is here.
"""

from ..readout import readout_mean, readout_number
from .book import (ATTENTION_MAGNITUDES, LIVE_GAPS, QK_GAINS, SCALES, attention_explorer, context_explorer,
                   gain_to_saturate, magnitude_to_saturate, normalization_explorer, scale_explorer)
from .controls import STATIC_ENV, Control, live_positions, static_mode
from .explorable import Explorable
from .live import RADIO_CLASS, RADIO_KEYS_JS
from .text import math_html, plain_text

__all__ = [
    "STATIC_ENV",
    "Control",
    "Explorable",
    "attention_explorer",
    "scale_explorer",
    "normalization_explorer",
    "context_explorer",
    "static_mode",
    "live_positions",
    "magnitude_to_saturate",
    "gain_to_saturate",
    "plain_text",
    "math_html",
    "readout_number",
    "readout_mean",
    "ATTENTION_MAGNITUDES",
    "QK_GAINS",
    "SCALES",
    "LIVE_GAPS",
    "RADIO_CLASS",
    "RADIO_KEYS_JS",
]
