"""The prose helpers: bounds in a sentence round outward, so they hold for the unrounded value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_scaling.prose import bound, sci


@pytest.mark.parametrize("x, decimals, side, text", [
    (0.019708, 4, "upper", "0.0198"),      # the review's case: nearest would give 0.0197 < x
    (0.19958, 3, "lower", "0.199"),
    (0.2500077, 3, "upper", "0.251"),
    (0.25, 3, "upper", "0.250"),           # exact at that many decimals: kept
    (0.25, 1, "lower", "0.2"),
    (-0.0123, 2, "upper", "-0.01"),
    (-0.0123, 2, "lower", "-0.02"),
    (7.0, 0, "upper", "7"),
    (0.1 + 0.2, 1, "upper", "0.3"),        # 0.30000000000000004: float error, not a larger value
    (3.2e-6 * 1e6, 1, "lower", "3.2"),
])
def test_bound_rounds_outward(x, decimals, side, text):
    assert bound(x, decimals, side) == text


def test_bounds_hold_for_the_values_they_round():
    rng = np.random.default_rng(0)
    for x in rng.standard_normal(2000) * 10.0 ** rng.integers(-6, 3, 2000):
        for decimals in (0, 2, 4):
            slack = abs(x) * 1e-12  # a value at the digits shown up to float error is kept
            assert float(bound(x, decimals, "upper")) >= x - slack and float(bound(x, decimals, "lower")) <= x + slack
            assert float(bound(x, decimals, "upper")) - float(bound(x, decimals, "lower")) <= 10.0 ** -decimals + 1e-12


@pytest.mark.parametrize("x, side, text", [
    (2.224e-8, "upper", r"$2.3 \times 10^{-8}$"),
    (2.224e-8, "lower", r"$2.2 \times 10^{-8}$"),
    (9.96e-5, "upper", r"$1.0 \times 10^{-4}$"),   # the carry moves the exponent
    (9.96e-5, "lower", r"$9.9 \times 10^{-5}$"),   # nearest rounding's exponent would give 0.9e-4
    (3.2e-6, "lower", r"$3.2 \times 10^{-6}$"),     # the float 3.19999...e-6 is 3.2 to float error
    (2.224e-8, None, r"$2.2 \times 10^{-8}$"),
])
def test_sci_rounds_a_bound_outward(x, side, text):
    assert sci(x, 2, side=side).data == text


@pytest.mark.parametrize("args, name", [
    ((math.nan, 2, "upper"), "x"), ((True, 2, "upper"), "x"), ((0.5, -1, "upper"), "decimals"),
    ((0.5, 2.0, "upper"), "decimals"), ((0.5, 2, "up"), "side"),
])
def test_bound_rejects_bad_input_by_name(args, name):
    with pytest.raises(ValueError, match=f"^{name} "):
        bound(*args)
