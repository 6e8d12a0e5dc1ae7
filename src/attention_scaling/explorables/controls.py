"""The control model: a :class:`Control` (an ordered slider or a named choice), the grid the
static player offers, the values the live slider takes, and the build's static mode.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from .text import plain_text


#: Set to 1 by the book build; explorables then render as the page's module (not a widget).
STATIC_ENV = "ATTENTION_BOOK_STATIC"


def static_mode() -> bool:
    """True while the book is being built (the explorables render as the page's module)."""
    return os.environ.get(STATIC_ENV, "") == "1"


@dataclass(frozen=True)
class Control:
    """One parameter of an explorable.

    ``label`` (and ``names``, ``unit``) mark their maths as ``$...$``. ``values`` is the grid
    the static player steps through; ``names`` gives words for categorical values, which
    then show as radio buttons. ``live`` describes the live control: ``("select", options)``
    (a slider over ordered values), ``("radio", options)``, ``("log", low, high, step)``,
    ``("float", low, high, step)`` or ``("int", low, high)``. ``unit`` follows a value ("64
    dimensions"); leave it empty when the label says it. ``readout`` is how a live float
    slider shows its value (a d3 format: ".3g", ".0f" for a count).
    """

    name: str
    label: str
    unit: str
    values: tuple
    default: Any
    live: tuple
    fmt: str = "{}"
    names: tuple | None = None
    readout: str = ".3g"

    def __post_init__(self):
        if self.default not in self.values:
            raise ValueError(f"default of {self.name} must be one of its values {self.values}, got {self.default!r}")
        if self.names is not None and len(self.names) != len(self.values):
            raise ValueError(f"names of {self.name} must name each of its {len(self.values)} values")
        if self.live[0] not in ("select", "radio", "log", "float", "int"):
            raise ValueError(f"live control kind must be select, radio, log, float or int, got {self.live[0]!r}")

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
    if kind == "float":
        low, high, step = spec
        return tuple(float(f"{low + k * step:.12g}") for k in range(int(round((high - low) / step)) + 1))
    centre, step, first, last = _log_steps(control)
    return tuple(float(f"{10.0 ** (centre + k * step):.12g}") for k in range(first, last + 1))


def _log_steps(control: Control) -> tuple[float, float, int, int]:
    """(log10 of the default, the step, the first and last step from it inside the range) of a
    ``("log", low, high, step)`` control."""
    _, low, high, step = control.live
    centre = float(np.log10(control.default))
    first = int(np.ceil((np.log10(low) - centre) / step - 1e-9))
    last = int(np.floor((np.log10(high) - centre) / step + 1e-9))
    return centre, step, first, last


def log_slider_range(control: Control) -> tuple[float, float]:
    """(min, max) exponents of a live log slider over the steps of :func:`live_positions`: its
    default is a step, so the slider shows it exactly (from 10**log10(low), the front end would
    round the default to its nearest step: s = 0.998 for 1)."""
    centre, step, first, last = _log_steps(control)
    return round(centre + first * step, 12), round(centre + last * step, 12)
