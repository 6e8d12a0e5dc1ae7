"""Helpers for numbers in the book's prose (glued with myst-nb, never typed)."""

from __future__ import annotations

import math
import numbers

__all__ = ["glue", "sci", "bound"]


def sci(x, digits: int = 2, side: str | None = None):
    r"""``x`` in scientific notation as inline maths, e.g. ``$1.6 \times 10^{-10}$``.

    Returns an ``IPython.display.Markdown`` object, to glue and show with
    ``{glue:md}`key:myst```. Zero is shown as ``$0$``. For a bound, ``side="upper"`` or
    ``"lower"`` rounds the mantissa outward (as :func:`bound` does), not to the nearest.
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
    if side is not None:
        from decimal import Decimal

        exponent = Decimal(x).adjusted()  # of the leading digit, before any rounding
        scaled = float(Decimal(x).scaleb(-exponent))  # x / 10**exponent, in [1, 10)
        mantissa = bound(scaled, digits - 1, side)
        if mantissa in ("10", "10." + "0" * (digits - 1)):  # 9.99 rounded up carries a digit
            mantissa, exponent = f"{1:.{digits - 1}f}", exponent + 1
    if exponent == 0:
        return Markdown(f"${mantissa}$")
    return Markdown(f"${mantissa} \\times 10^{{{exponent}}}$")


def bound(x, decimals: int, side: str) -> str:
    """``x`` rounded *outward* to ``decimals`` decimals, as text for a bound in the prose.

    A sentence that says "at most 0.0198" or "between 0.199 and 0.251" must hold for the
    unrounded numbers too, so an upper bound rounds up (``side="upper"``) and a lower bound
    down (``side="lower"``): rounding 0.019708 to "0.0197" would state a bound the page's own
    number breaks. A value already at ``decimals`` digits, up to a relative float error of
    1e-12, is kept as it is.
    """
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(float(x)):
        raise ValueError(f"x must be a finite real number, got {x!r}")
    if isinstance(decimals, bool) or not isinstance(decimals, numbers.Integral) or not 0 <= decimals <= 15:
        raise ValueError(f"decimals must be an integer from 0 to 15, got {decimals!r}")
    if side not in ("upper", "lower"):
        raise ValueError(f"side must be 'upper' or 'lower', got {side!r}")
    from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

    step = Decimal(1).scaleb(-int(decimals))
    exact = Decimal(float(x))  # the float's exact value: nothing is rounded before the outward step
    nearest = exact.quantize(step)
    if abs(exact - nearest) <= abs(exact) * Decimal("1e-12"):
        out = nearest  # a value at the digits shown, up to float error (0.1 + 0.2 is "0.3", not "0.4")
    else:
        out = exact.quantize(step, rounding=ROUND_CEILING if side == "upper" else ROUND_FLOOR)
    return f"{out:.{int(decimals)}f}"


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
