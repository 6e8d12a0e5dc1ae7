"""Unit tests of attention_scaling.stability: breakpoints, stable forms, masks, extremes, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_scaling import central_difference, softmax, softmax_jacobian
from attention_scaling.figures import overflow_fraction_figure, png_bytes, softmax_error_figure
from attention_scaling.stability import (
    naive_row_failure_rate, naive_row_failures,
    exact_log_softmax,
    exact_logsumexp,
    log_softmax,
    logsumexp,
    masked_softmax,
    masked_softmax_backward,
    naive_breakpoint,
    naive_softmax,
    overflow_fraction,
    overflow_threshold,
    softmax_errors,
    underflow_threshold,
)

SEED = 20261205
DTYPES = [np.float16, np.float32, np.float64]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def eps(dtype) -> float:
    return float(np.finfo(dtype).eps)


def reference_logsumexp(z, axis=-1):
    """float64 log-sum-exp of the (already rounded) scores, shifted by the max."""
    z = np.asarray(z, dtype=np.float64)
    top = z.max(axis=axis, keepdims=True)
    return np.squeeze(top + np.log(np.exp(z - top).sum(axis=axis, keepdims=True)), axis=axis)


# --- the naive softmax and its breakpoints -------------------------------------------


def test_naive_softmax_agrees_with_stable_for_moderate_scores():
    z = np.random.default_rng(SEED).normal(size=(3, 5))
    np.testing.assert_allclose(naive_softmax(z), softmax(z), rtol=1e-14)
    np.testing.assert_allclose(naive_softmax(z, axis=0), softmax(z, axis=0), rtol=1e-14)


@pytest.mark.parametrize("dtype", DTYPES)
def test_naive_softmax_breaks_above_ln_max_and_keeps_dtype(dtype):
    big = np.array([overflow_threshold(dtype) * 1.01, 0.0], dtype=dtype)
    p = naive_softmax(big)
    assert p.dtype == dtype and p.shape == (2,)
    assert np.isnan(p[0])
    low = np.array([underflow_threshold(dtype) * 1.01] * 3, dtype=dtype)
    assert np.isnan(naive_softmax(low)).all()  # 0 / 0


def test_thresholds_are_logs_of_finfo():
    assert overflow_threshold(np.float16) == pytest.approx(math.log(65504))
    assert overflow_threshold("float32") == pytest.approx(88.7228391, abs=1e-6)
    assert overflow_threshold(np.float64) == pytest.approx(709.7827129, abs=1e-6)
    assert overflow_threshold(np.float16, n=16) == pytest.approx(math.log(65504) - math.log(16))
    assert underflow_threshold(np.float64) == pytest.approx(math.log(5e-324) - math.log(2), abs=1e-9)
    assert underflow_threshold(np.float16) == pytest.approx(math.log(2.0**-25))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_thresholds_are_correctly_rounded(dtype):
    """ln(smallest/2) and ln(max/n) to the nearest double (mpmath at 50 digits): for float64
    log(tiny) - log(2) gives -745.1332191019411, one step above -745.13321910194120..."""
    import mpmath

    fi = np.finfo(dtype)
    with mpmath.workdps(50):
        low = float(mpmath.log(mpmath.mpf(float(fi.smallest_subnormal)) / 2))
        highs = [float(mpmath.log(mpmath.mpf(float(fi.max)) / n)) for n in (1, 3, 16, 1000)]
    assert underflow_threshold(dtype) == low
    assert [overflow_threshold(dtype, n=n) for n in (1, 3, 16, 1000)] == highs
    if dtype is np.float64:
        assert repr(underflow_threshold(dtype)) == "-745.1332191019412"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 16, 1024])
def test_overflow_breakpoint_is_exact_and_near_ln_max_minus_ln_n(dtype, n):
    b = naive_breakpoint(dtype, n)
    before = np.nextafter(np.array(b, dtype=dtype), np.array(0, dtype=dtype))
    z_bad, z_ok = np.full(n, b, dtype=dtype), np.full(n, before, dtype=dtype)
    bad, ok = naive_softmax(z_bad), naive_softmax(z_ok)
    assert not np.isfinite(bad).all() or abs(float(bad.astype(np.float64).sum()) - 1) > 0.5
    assert np.isfinite(ok).all()
    np.testing.assert_allclose(ok.astype(np.float64), 1 / n, rtol=4 * eps(dtype))
    spacing = float(np.spacing(np.array(b, dtype=dtype)))
    assert abs(b - overflow_threshold(dtype, n)) <= 2 * spacing


@pytest.mark.parametrize("dtype", DTYPES)
def test_sum_overflow_gives_wrong_zeros_not_nan(dtype):
    n = 16
    z = np.full(n, (naive_breakpoint(dtype, 1) + naive_breakpoint(dtype, n)) / 2, dtype=dtype)
    p = naive_softmax(z)
    assert np.isfinite(p).all() and (p == 0).all()
    np.testing.assert_allclose(softmax(z).astype(np.float64), 1 / n, rtol=4 * eps(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_underflow_breakpoint(dtype):
    b = naive_breakpoint(dtype, 4, side="underflow")
    before = np.nextafter(np.array(b, dtype=dtype), np.array(0, dtype=dtype))
    assert np.isnan(naive_softmax(np.full(4, b, dtype=dtype))).all()
    assert np.isfinite(naive_softmax(np.full(4, before, dtype=dtype))).all()
    assert abs(b - underflow_threshold(dtype)) <= 2 * abs(float(np.spacing(np.array(b, dtype=dtype))))
    assert naive_breakpoint(dtype, 1, side="underflow") == b  # each term underflows alone


def test_float16_breakpoint_matches_a_scan_of_every_positive_float16():
    positive = np.arange(1, 0x7C00, dtype=np.uint16).view(np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        p = np.exp(positive) / np.exp(positive)
    assert float(positive[np.argmax(~np.isfinite(p))]) == naive_breakpoint(np.float16)


# --- log-sum-exp and log-softmax -----------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scale", [1.0, 30.0, 1e3, 1e4])
def test_logsumexp_matches_float64_reference(dtype, scale):
    z = (scale * np.random.default_rng(SEED).standard_normal((6, 9))).astype(dtype)
    got = logsumexp(z)
    assert got.dtype == dtype and got.shape == (6,)
    ref = exact_logsumexp(z)
    tol = 2 * eps(dtype) * np.maximum(1, np.abs(ref))
    assert (np.abs(got.astype(np.float64) - ref) <= tol).all()
    np.testing.assert_allclose(logsumexp(z, axis=0).astype(np.float64), reference_logsumexp(z, axis=0),
                               rtol=4 * eps(dtype), atol=4 * eps(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_logsumexp_extremes_are_finite_and_exact(dtype):
    big = float(np.finfo(dtype).max) / 2  # 1e4 and far beyond (3e4, 1.7e38, 9e307)
    for m in sorted({1e4, big}):
        z = np.array([m, m, -m], dtype=dtype)
        got = logsumexp(z)
        assert np.isfinite(got)
        assert float(got) == pytest.approx(float(z[0]) + math.log(2), rel=2 * eps(dtype))
        assert float(logsumexp(-z)) == pytest.approx(float(z[0]), rel=2 * eps(dtype))  # -(-m) = m


def test_logsumexp_with_neg_inf():
    assert logsumexp([0.0, -np.inf]) == 0.0
    assert logsumexp([-np.inf, -np.inf]) == -np.inf  # log 0
    out = logsumexp(np.array([[-np.inf, -np.inf], [0.0, 0.0]]))
    assert out[0] == -np.inf and out[1] == pytest.approx(math.log(2))


def test_logsumexp_integer_input_and_scalar_result():
    out = logsumexp([1, 2, 3])
    assert out.dtype == np.float64 and out.shape == ()
    assert float(out) == pytest.approx(math.log(math.e + math.e**2 + math.e**3))


def test_logsumexp_float16_long_rows_do_not_overflow_the_sum():
    z = np.zeros(70_000, dtype=np.float16)  # the sum, 70000, exceeds float16's max
    assert float(logsumexp(z)) == pytest.approx(math.log(70_000), rel=eps(np.float16))
    p = masked_softmax(z, np.ones(z.shape, dtype=bool))
    assert np.isfinite(p).all() and abs(float(p.astype(np.float64).sum()) - 1) < 0.05


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scale", [1.0, 50.0, 1e4])
def test_log_softmax_matches_float64_reference(dtype, scale):
    z = (scale * np.random.default_rng(SEED + 1).standard_normal((4, 7))).astype(dtype)
    got = log_softmax(z)
    assert got.dtype == dtype and got.shape == z.shape
    z64 = z.astype(np.float64)
    ref = exact_log_softmax(z)
    finite = ref >= float(np.finfo(dtype).min)
    # z_i - logsumexp(z) loses digits to cancellation: the scale of an error is the row's largest |z|
    size = np.maximum(1, np.abs(z64).max(axis=-1, keepdims=True)) * np.ones_like(ref)
    assert (np.abs(got.astype(np.float64)[finite] - ref[finite]) <= 4 * eps(dtype) * size[finite]).all()
    assert (got[~finite] == -np.inf).all()  # below the format's range: correctly -inf
    np.testing.assert_allclose(np.exp(got.astype(np.float64)).sum(axis=-1), 1, rtol=8 * eps(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_log_softmax_extremes_are_finite_and_exact(dtype):
    big = float(np.finfo(dtype).max) / 4  # 1.6e4, 8.5e37, 4.5e307
    for m in sorted({1e4, big}):
        z = np.array([m, m, 0.0, -m], dtype=dtype)
        got = log_softmax(z)
        assert got.dtype == dtype and np.isfinite(got).all()
        np.testing.assert_allclose(got.astype(np.float64), exact_log_softmax(z),
                                   rtol=2 * eps(dtype), atol=2 * eps(dtype))
        assert float(got[0]) == pytest.approx(-math.log(2), rel=2 * eps(dtype))


def test_log_softmax_survives_where_log_of_softmax_does_not():
    z = np.array([0.0, -1000.0])
    with np.errstate(divide="ignore"):
        assert np.log(softmax(z))[1] == -np.inf
    got = log_softmax(z)
    assert got[1] == -1000.0 and got[0] == 0.0  # -e^-1000 rounds to -0
    np.testing.assert_allclose(log_softmax([1e4, 1e4 - 1, -1e4]), [-math.log1p(math.exp(-1)),
                               -1 - math.log1p(math.exp(-1)), -2e4 - math.log1p(math.exp(-1))], rtol=1e-15)


def test_log_softmax_axis_and_neg_inf():
    z = np.random.default_rng(SEED).normal(size=(3, 4, 5))
    for axis in (0, 1, -1):
        np.testing.assert_allclose(np.exp(log_softmax(z, axis=axis)), softmax(z, axis=axis), rtol=1e-13)
    out = log_softmax([0.0, -np.inf, 0.0])
    assert out[1] == -np.inf and out[0] == pytest.approx(-math.log(2))


def test_exact_references():
    np.testing.assert_allclose(exact_logsumexp([[0.0, 0.0], [1.0, 1.0]]), [math.log(2), 1 + math.log(2)], rtol=1e-16)
    z = np.random.default_rng(SEED).normal(size=(2, 3, 4))
    assert exact_logsumexp(z, axis=1).shape == (2, 4)
    np.testing.assert_allclose(exact_log_softmax(z, axis=1), np.log(softmax(z, axis=1)), rtol=1e-13)
    np.testing.assert_allclose(exact_logsumexp([1e300, 1e300]), 1e300, rtol=1e-16)
    assert exact_log_softmax([0.0, -1000.0])[1] == -1000.0


# --- masks ---------------------------------------------------------------------------------


def test_fully_masked_row_is_nan_naively_and_after_max_subtraction():
    row = np.full(4, -np.inf)
    assert np.isnan(naive_softmax(row)).all()
    with np.errstate(invalid="ignore"):
        shifted = row - row.max()  # -inf - (-inf)
    assert np.isnan(np.exp(shifted) / np.exp(shifted).sum()).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_softmax_exact_zeros_and_zero_rows(dtype):
    rng = np.random.default_rng(SEED)
    z = rng.normal(size=(5, 6)).astype(dtype)
    mask = rng.random((5, 6)) < 0.6
    mask[0] = False  # fully masked row
    mask[1] = True  # nothing masked
    mask[2] = [True] + [False] * 5  # one kept position
    p = masked_softmax(z, mask)
    assert p.dtype == dtype and p.shape == z.shape
    assert np.isfinite(p).all()
    assert (p[~mask] == 0).all()
    assert (p[0] == 0).all()
    assert p[2, 0] == 1
    np.testing.assert_allclose(p[1].astype(np.float64), softmax(z[1]).astype(np.float64), rtol=4 * eps(dtype))
    for i in range(1, 5):
        np.testing.assert_allclose(p[i][mask[i]].astype(np.float64), softmax(z[i][mask[i]]).astype(np.float64),
                                   rtol=4 * eps(dtype), atol=eps(dtype))
        assert abs(float(p[i].astype(np.float64).sum()) - 1) < 8 * eps(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_softmax_ignores_masked_scores_even_huge_ones(dtype):
    top = float(np.finfo(dtype).max) / 2
    z = np.array([top, 1.0, 0.0, -top], dtype=dtype)
    mask = np.array([False, True, True, False])
    p = masked_softmax(z, mask)
    np.testing.assert_allclose(p.astype(np.float64), [0, math.e / (1 + math.e), 1 / (1 + math.e), 0],
                               rtol=4 * eps(dtype))
    extreme = np.array([1e4, -1e4, 0.0], dtype=dtype)
    q = masked_softmax(extreme, np.array([True, True, False]))
    assert np.isfinite(q).all() and q[0] == 1 and q[1] == 0 and q[2] == 0


def test_masked_softmax_neg_inf_scores_broadcast_mask_and_axis():
    z = np.array([[0.0, -np.inf, 1.0], [-np.inf, -np.inf, 2.0], [-np.inf, -np.inf, -np.inf]])
    p = masked_softmax(z, np.array([True, True, False]))  # (3,) mask broadcast over rows
    np.testing.assert_allclose(p[0], [1, 0, 0])
    assert (p[1] == 0).all() and (p[2] == 0).all()  # kept scores all -inf: attends to nothing
    cols = masked_softmax(z.T, np.array([[True], [True], [False]]), axis=0)
    np.testing.assert_array_equal(cols, p.T)


def test_masked_softmax_finite_fill_gives_uniform_rows_not_zero_rows():
    z = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    mask = np.array([[True, False, True], [False, False, False]])
    fill = float(np.finfo(np.float64).min)
    p = masked_softmax(z, mask, fill=fill)
    np.testing.assert_array_equal(p[0], masked_softmax(z, mask)[0])  # exp(min - 3) rounds to 0
    np.testing.assert_allclose(p[1], 1 / 3)  # the fully masked row attends to padding
    mild = masked_softmax(z, mask, fill=-20.0)
    assert 0 < mild[0, 1] < 1e-9  # a fill too close to the scores leaks weight


def test_masked_softmax_float16_fills():
    z = np.array([[3.0, 1.0], [0.0, 0.0]], dtype=np.float16)
    mask = np.array([[True, False], [False, False]])
    low = float(np.finfo(np.float16).min)
    p = masked_softmax(z, mask, fill=low)
    assert p.dtype == np.float16 and np.isfinite(p).all()
    np.testing.assert_array_equal(p[0], [1, 0])
    np.testing.assert_array_equal(p[1], [0.5, 0.5])
    with np.errstate(over="ignore"):
        assert np.float16(low) + np.float16(low) == -np.inf  # two masks added: -inf again
        assert np.float16(-1e9) == -np.inf
    with pytest.raises(ValueError, match=r"^fill=-1e\+09 rounds to -inf in float16"):
        masked_softmax(z, mask, fill=-1e9)


# --- gradients -------------------------------------------------------------------------------


def test_masked_softmax_backward_matches_finite_differences():
    rng = np.random.default_rng(SEED)
    for _ in range(10):
        z = 2 * rng.standard_normal(6)
        mask = rng.random(6) < 0.7
        g = rng.standard_normal(6)
        jac = central_difference(lambda x: masked_softmax(x, mask), z, h=1e-6)  # (6 outputs, 6 inputs)
        got = masked_softmax_backward(masked_softmax(z, mask), g)
        np.testing.assert_allclose(got, jac.T @ g, atol=1e-8)
        assert (got[~mask] == 0).all()


def test_masked_softmax_backward_is_the_jacobian_and_zero_for_empty_rows():
    rng = np.random.default_rng(SEED)
    z = rng.standard_normal((3, 5))
    g = rng.standard_normal((3, 5))
    p = softmax(z)
    expected = np.einsum("bij,bj->bi", softmax_jacobian(p), g)
    np.testing.assert_allclose(masked_softmax_backward(p, g), expected, rtol=1e-12, atol=1e-15)
    empty = masked_softmax(z, np.zeros((3, 5), dtype=bool))
    assert (masked_softmax_backward(empty, g) == 0).all()
    np.testing.assert_allclose(masked_softmax_backward(p.T, g.T, axis=0), expected.T, rtol=1e-12, atol=1e-15)


def test_nan_from_a_masked_row_spreads_through_the_naive_gradient():
    p = naive_softmax(np.full(3, -np.inf))
    with np.errstate(invalid="ignore"):
        naive_grad = p * (np.ones(3) - (p * np.ones(3)).sum())
    assert np.isnan(naive_grad).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_softmax_backward_keeps_dtype(dtype):
    p = masked_softmax(np.array([[1.0, 2.0], [0.0, 0.0]], dtype=dtype), np.array([[True, True], [False, False]]))
    out = masked_softmax_backward(p, np.ones((2, 2)))
    assert out.dtype == dtype and np.isfinite(out).all()
    np.testing.assert_allclose(out.astype(np.float64), 0, atol=4 * eps(dtype))


# --- the chapter's measurements ------------------------------------------------------------


def test_softmax_errors_naive_fails_exactly_above_the_threshold():
    scales = np.logspace(0, 4, 41)
    out = softmax_errors(scales, seed=SEED)
    assert out["dtypes"] == ["float16", "float32", "float64"]
    for name in out["dtypes"]:
        naive, stable = out["naive"][name], out["stable"][name]
        assert naive.shape == stable.shape == scales.shape
        assert np.isfinite(stable).all()
        assert stable.max() <= eps(name)
        t = out["threshold"][name]
        assert np.isnan(naive[scales > t * 1.001]).all()
        assert np.isfinite(naive[scales < t * 0.999]).all()
        assert np.nanmax(naive) <= eps(name)


def test_overflow_fraction_values_and_reproducibility():
    d = [16, 64, 256, 1024]
    out = overflow_fraction(d, seed=SEED)
    again = overflow_fraction([64], seed=SEED)  # the same values again: each d_k is drawn on its own
    for name in ("unscaled", "scaled", "unscaled rows", "unscaled exact", "unscaled rows exact"):
        np.testing.assert_array_equal(out[name][[1]], again[name], err_msg=name)
    assert out["dtype"] == "float16" and out["threshold"] == overflow_threshold(np.float16)
    assert out["n_scores"] == 64 * 256
    assert (np.diff(out["unscaled"]) > 0).all()
    assert (out["scaled"] == 0).all()
    np.testing.assert_allclose(out["unscaled"], out["unscaled normal"], atol=0.02)
    assert (out["scaled normal"] < 1e-25).all()
    bigger = overflow_fraction([64], magnitude=2.0, seed=SEED)  # scaled variance m^4 = 16
    assert bigger["scaled"][0] > 0.001
    assert overflow_fraction([64], dtype=np.float64, seed=SEED)["unscaled"][0] == 0


def test_chapter_figures_hold_the_data():
    errors = softmax_errors(np.logspace(0, 4, 9), seed=SEED)
    fig = softmax_error_figure(errors)
    first = fig.axes[0].get_lines()[0]
    np.testing.assert_array_equal(first.get_xdata(), errors["scales"])
    assert png_bytes(fig).startswith(PNG_SIGNATURE)
    fractions = overflow_fraction([16, 64], n_queries=8, n_keys=16, seed=SEED)
    fig = overflow_fraction_figure(fractions)
    lines = fig.axes[0].get_lines()
    np.testing.assert_array_equal(lines[0].get_ydata(), fractions["unscaled"])
    np.testing.assert_array_equal(lines[1].get_ydata(), fractions["scaled"])
    assert png_bytes(fig).startswith(PNG_SIGNATURE)


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda: naive_softmax([1.0, np.nan]), "z"),
        (lambda: naive_softmax([1.0, np.inf]), "z"),
        (lambda: naive_softmax([1.0, 2.0], axis=1), "axis"),
        (lambda: overflow_threshold("int32"), "dtype"),
        (lambda: overflow_threshold(np.float16, n=0), "n"),
        (lambda: underflow_threshold(object()), "dtype"),
        (lambda: naive_breakpoint(np.float32, n=2.5), "n"),
        (lambda: naive_breakpoint(np.float64, n=10**7), "n"),
        (lambda: naive_breakpoint(np.float16, n=70_000), "n"),
        (lambda: naive_breakpoint(np.float16, side="sideways"), "side"),
        (lambda: naive_breakpoint("complex128"), "dtype"),
        (lambda: logsumexp([]), "z"),
        (lambda: logsumexp([[1.0, 2.0]], axis=2), "axis"),
        (lambda: logsumexp(["a", "b"]), "z"),
        (lambda: log_softmax([-np.inf, -np.inf]), "z"),
        (lambda: log_softmax([1.0, np.nan]), "z"),
        (lambda: log_softmax([1.0, 2.0], axis=True), "axis"),
        (lambda: exact_logsumexp([1.0, -np.inf]), "z"),
        (lambda: exact_logsumexp([1.0], axis=3), "axis"),
        (lambda: exact_log_softmax(np.zeros(10**6 + 1)), "z"),
        (lambda: masked_softmax([1.0, 2.0], [1, 0]), "mask"),
        (lambda: masked_softmax([1.0, 2.0], [True, False, True]), "mask"),
        (lambda: masked_softmax([1.0, 2.0], np.ones((2, 2), dtype=bool)), "mask"),
        (lambda: masked_softmax([1.0, np.nan], [True, True]), "z"),
        (lambda: masked_softmax([1.0, 2.0], [True, True], fill=np.nan), "fill"),
        (lambda: masked_softmax([1.0, 2.0], [True, True], fill=np.inf), "fill"),
        (lambda: masked_softmax([1.0, 2.0], [True, True], fill="low"), "fill"),
        (lambda: masked_softmax([1.0, 2.0], [True, True], axis=-2), "axis"),
        (lambda: masked_softmax_backward([0.5, 0.6], [1.0, 1.0]), "p"),
        (lambda: masked_softmax_backward([1.5, -0.5], [1.0, 1.0]), "p"),
        (lambda: masked_softmax_backward([0.5, 0.5], [1.0]), "grad"),
        (lambda: masked_softmax_backward([0.5, 0.5], [1.0, np.nan]), "grad"),
        (lambda: softmax_errors([0.0, 1.0]), "scales"),
        (lambda: softmax_errors([[1.0]]), "scales"),
        (lambda: softmax_errors([1e5], dtypes=[np.float16]), "scales"),
        (lambda: softmax_errors([1.0], dtypes=["int8"]), "dtypes"),
        (lambda: softmax_errors([1.0], dtypes=[]), "dtypes"),
        (lambda: softmax_errors([1.0], n_scores=1), "n_scores"),
        (lambda: softmax_errors([1.0], seed=-1), "seed"),
        (lambda: overflow_fraction([64, 16]), "d_values"),
        (lambda: overflow_fraction([0]), "d_values"),
        (lambda: overflow_fraction([16], dtype="int8"), "dtype"),
        (lambda: overflow_fraction([16], magnitude=0), "magnitude"),
        (lambda: overflow_fraction([16], n_queries=0), "n_queries"),
        (lambda: overflow_fraction([16], n_keys=1.5), "n_keys"),
        (lambda: overflow_fraction([16], seed="x"), "seed"),
        (lambda: softmax_error_figure({"scales": [1]}), "errors"),
        (lambda: overflow_fraction_figure({}), "fractions"),
    ],
)
def test_bad_input_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        call()


def test_sci_formats_the_subnormal_numbers_of_the_chapter():
    from attention_scaling.prose import sci

    assert sci(5e-324, 3).data == "$4.94 \\times 10^{-324}$"
    assert sci(float(np.finfo(np.float16).smallest_subnormal), 3).data == "$5.96 \\times 10^{-8}$"
    assert sci(1.7976931348623157e308, 3).data == "$1.80 \\times 10^{308}$"


def test_overflow_fraction_exact_law_rows_and_spread():
    from attention_scaling.dot_law import dot_tail, row_failure

    out = overflow_fraction([16, 64], n_queries=32, n_keys=64, seed=SEED, repeats=20)
    t = out["threshold"]
    np.testing.assert_array_equal(out["unscaled exact"], [dot_tail(t, d) for d in (16, 64)])
    np.testing.assert_array_equal(out["scaled rows exact"], [row_failure(t, d, 64, scaled=True) for d in (16, 64)])
    assert (np.abs(out["unscaled"] - out["unscaled exact"]) <= 3 * out["unscaled se"]).all()
    assert (out["scaled exact"] > out["scaled normal"]).all()  # exponential tails, not Gaussian
    assert (out["unscaled rows exact"] < out["unscaled rows independent"]).all()
    assert (out["unscaled rows exact"] >= out["unscaled exact"]).all()
    assert out["unscaled rows sd"][0] > 0 and out["n_rows"] == 32 and out["repeats"] == 20
    assert abs(out["unscaled rows"][0] - out["unscaled rows exact"][0]) <= 3 * out["unscaled rows sd"][0]
    assert "unscaled rows sd" not in overflow_fraction([16], n_queries=4, n_keys=4, seed=SEED)
    for bad in (1, -1, 2.5):
        with pytest.raises(ValueError, match=r"^repeats\b"):
            overflow_fraction([16], repeats=bad)


def test_naive_row_failures_counts_a_term_a_sum_and_an_underflow():
    rows = np.array([[12.0, 3.0, 0.0],      # e^12 overflows float16: NaN
                     [10.5, 10.5, 0.0],     # each e^10.5 = 36320 is finite, the sum is not
                     [-2e1, -2e1, -2e1],    # e^-20 underflows float16 to 0: 0/0
                     [2.0, 1.0, 0.0]], dtype=np.float16)
    assert naive_row_failures(rows).tolist() == [True, True, True, False]
    assert naive_row_failures(rows.T, axis=0).tolist() == [True, True, True, False]
    assert naive_row_failures(rows.astype(np.float64)).tolist() == [False, False, False, False]
    assert naive_row_failures(np.zeros((2, 3, 4))).shape == (2, 3)
    with pytest.raises(ValueError, match="z"):
        naive_row_failures([1.0, np.nan])


def test_naive_row_failure_rate_against_rows_drawn_by_hand():
    share, se = naive_row_failure_rate(16, n_keys=256, n_rows=1500, seed=7)
    rng = np.random.default_rng(7)
    broken = 0
    for rows in (1000, 500):  # the function's blocks: queries, then keys
        q = rng.standard_normal((rows, 16))
        k = rng.standard_normal((rows, 256, 16))
        z = np.einsum("rd,rkd->rk", q, k).astype(np.float16)
        with np.errstate(over="ignore", invalid="ignore"):
            e = np.exp(z)
            p = e / e.sum(axis=1, keepdims=True)
        broken += int((~np.isfinite(p).all(axis=1) | (p.astype(float).sum(axis=1) < 0.5)).sum())
    assert share == broken / 1500
    assert se == pytest.approx(math.sqrt(share * (1 - share) / 1500))
    # more rows break than have a score above ln(65504): the sums overflow too
    assert 0.55 < share < 0.72
    assert naive_row_failure_rate(16, n_rows=500, scaled=True, seed=7) == (0.0, 0.0)
    assert naive_row_failure_rate(16, n_rows=200, dtype=np.float64, seed=7) == (0.0, 0.0)
    for name, kwargs in (("d_k", {"d_k": 0}), ("n_keys", {"n_keys": 0}), ("n_rows", {"n_rows": 0}),
                         ("magnitude", {"magnitude": -1.0}), ("seed", {"seed": -1})):
        with pytest.raises(ValueError, match=name):
            naive_row_failure_rate(**{"d_k": 16, **kwargs})
