"""Helpers for numbers in the book's prose (glued with myst-nb, never typed)."""

from __future__ import annotations

import math
import numbers

__all__ = ["sci"]


def sci(x, digits: int = 2):
    r"""``x`` in scientific notation as inline maths, e.g. ``$1.6 \times 10^{-10}$``.

    Returns an ``IPython.display.Markdown`` object, to glue and show with
    ``{glue:md}`key:myst```. Zero is shown as ``$0$``.
    """
    from IPython.display import Markdown

    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(float(x)):
        raise ValueError(f"x must be a finite real number, got {x!r}")
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or digits < 1:
        raise ValueError(f"digits must be an integer >= 1, got {digits!r}")
    x = float(x)
    if x == 0:
        return Markdown("$0$")
    exponent = math.floor(math.log10(abs(x)))
    mantissa = x / 10**exponent
    if round(abs(mantissa), digits - 1) >= 10:  # 9.99 rounding up to 10.0
        mantissa /= 10
        exponent += 1
    if exponent == 0:
        return Markdown(f"${mantissa:.{digits - 1}f}$")
    return Markdown(f"${mantissa:.{digits - 1}f} \\times 10^{{{exponent}}}$")
