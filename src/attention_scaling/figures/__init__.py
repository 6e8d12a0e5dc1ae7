"""Figures for the book, built with ``matplotlib.figure.Figure`` (never pyplot).

A figure made without pyplot is not tracked by any global state, so a live slider can
keep one figure and redraw it, and no figure leaks between cells. In a notebook, a
:class:`Figure` shows as a PNG through :func:`show` or by being the cell's last value (its
``_repr_png_``: nothing is registered with IPython when this module is imported).

One concern a module: :mod:`.style` (colours, fonts, :class:`Figure`), :mod:`.png` (encoding),
:mod:`.gradients`, :mod:`.scaling` and :mod:`.finite` (static figures by topic), :mod:`.blit` (the
engine of the live figures) and :mod:`.live` (the explorers' figures). Every name chapters, labs
and readers' notebooks import from ``attention_scaling.figures`` is here.
"""

from .blit import BlitFigure
from .finite import DTYPE_STYLES, overflow_fraction_figure, softmax_error_figure
from .gradients import jacobian_norm_scatter, self_gradient_curve
from .live import D_VALUES, MAGNITUDE_RANGE, MAX_KEYS, SCORE_EDGES, AttentionFigure, NormalizationFigure, ScaleFigure
from .png import fast_png, png_bytes
from .scaling import (aligned_dots_figure, gradient_norms_figure, layernorm_placement_diagram,
                      saturation_by_dimension_figure, training_curves_figure)
from .style import COLORS, MIN_FONT_KEY, SMALL_PT, TEXT_PT, Figure, make_legible

__all__ = [
    "self_gradient_curve",
    "jacobian_norm_scatter",
    "saturation_by_dimension_figure",
    "gradient_norms_figure",
    "training_curves_figure",
    "aligned_dots_figure",
    "layernorm_placement_diagram",
    "softmax_error_figure",
    "overflow_fraction_figure",
    "png_bytes",
    "fast_png",
    "make_legible",
    "SMALL_PT",
    "BlitFigure",
    "AttentionFigure",
    "ScaleFigure",
    "NormalizationFigure",
    "Figure",
    "COLORS",
    "TEXT_PT",
    "MIN_FONT_KEY",
    "D_VALUES",
    "MAX_KEYS",
    "MAGNITUDE_RANGE",
    "SCORE_EDGES",
    "DTYPE_STYLES",
]
