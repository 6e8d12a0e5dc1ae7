"""Helpers for numbers in the book's prose (glued with myst-nb, never typed)."""

from __future__ import annotations

import math
import numbers

__all__ = ["glue", "sci"]


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
    # Python's own rounding to `digits` significant digits: it carries 9.99 up to 1.0e1, and
    # it works for subnormal numbers such as 5e-324, where x / 10**exponent divides by 0.
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    exponent = int(exponent)
    if exponent == 0:
        return Markdown(f"${mantissa}$")
    return Markdown(f"${mantissa} \\times 10^{{{exponent}}}$")


def glue(name: str, variable, display: bool = True) -> None:
    """myst-nb's ``glue`` where myst-nb is installed (the book's build), else its stand-in:
    a value to display is displayed, and the rest is dropped, since only the book's build
    reads glued values back. The chapters generated as notebooks import this one
    (the build tools, :mod:`attention_book.chapter_notebooks`), so that they run where only this package
    is installed (Colab, say), whose dependencies do not include myst-nb."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    try:
        from myst_nb import glue as myst_glue
    except ImportError:
        if display:
            from IPython.display import display as show

            show(variable)
        return
    myst_glue(name, variable, display=display)
