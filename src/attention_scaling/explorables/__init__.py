"""Explorables: live ipywidgets sliders in Jupyter, precomputed players on the static book.

An :class:`Explorable` pairs a :class:`~attention_scaling.figures.BlitFigure` with its
controls. Displayed in a live kernel, it shows sliders and pushes each new frame as a
PNG into an ``ipywidgets.Image`` (the figure only blits what changed). When the book is
built (``scripts/build-book`` sets ``ATTENTION_BOOK_STATIC=1``) it shows a
self-contained player instead: one labelled range input per parameter over a documented
grid of values, with a precomputed frame, alt text and readout for every grid point.
Live notebooks never compute those frames.

A chapter needs one line: ``attention_explorer()`` or ``scale_explorer()``.

One concern a module: :mod:`.text` (labels as text and HTML), :mod:`.controls` (the control
model), :mod:`.player` (the static player's data), :mod:`.live` (the ipywidgets path),
:mod:`.explorable` (:class:`Explorable`) and :mod:`.book` (the book's four explorers). Every
name chapters, labs, tests and readers import from ``attention_scaling.explorables`` is here.
"""

from ..readout import readout_mean, readout_number
from .book import (ATTENTION_MAGNITUDES, LIVE_GAPS, QK_GAINS, SCALES, attention_explorer, context_explorer,
                   gain_to_saturate, magnitude_to_saturate, normalization_explorer, scale_explorer)
from .controls import FRAME_BUDGET_BYTES, STATIC_ENV, Control, live_positions, static_mode
from .explorable import Explorable
from .live import (CACHED_CLASS, FAST_CLASS, LIVE_LAYER_COLORS, LIVE_READOUT_CSS, RADIO_CLASS, RADIO_KEYS_JS,
                   cached_layer_png)
from .text import math_html, plain_text

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
    "CACHED_CLASS",
    "FAST_CLASS",
    "LIVE_LAYER_COLORS",
    "LIVE_READOUT_CSS",
]
