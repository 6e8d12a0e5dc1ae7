"""Unit tests of attention_scaling.numerics: exact values, extremes, finite differences, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_scaling import (
    central_difference,
    diagonal_gradient,
    draw_queries_keys,
    entropy,
    jacobian_norm,
    softmax,
    softmax_jacobian,
)

SEED = 20261129


# --- softmax -----------------------------------------------------------------


def test_softmax_exact_small_cases():
    np.testing.assert_allclose(softmax([0.0, 0.0]), [0.5, 0.5], rtol=0, atol=0)
    e = math.e
    np.testing.assert_allclose(softmax([1.0, 0.0]), [e / (e + 1), 1 / (e + 1)], rtol=1e-15)
    np.testing.assert_allclose(softmax([0.0, math.log(3.0)]), [0.25, 0.75], rtol=1e-15)
    np.testing.assert_allclose(softmax([7.0]), [1.0], rtol=0)


def test_softmax_matches_the_definition():
    z = np.random.default_rng(SEED).normal(size=(4, 6))
    expected = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(softmax(z), expected, rtol=1e-13)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2])
def test_softmax_any_axis(axis):
    z = np.random.default_rng(SEED).normal(size=(3, 4, 5))
    p = softmax(z, axis=axis)
    assert p.shape == z.shape
    np.testing.assert_allclose(p.sum(axis=axis), 1.0, rtol=1e-14)
    np.testing.assert_allclose(p, np.moveaxis(softmax(np.moveaxis(z, axis, -1)), -1, axis), rtol=1e-14)


def test_softmax_is_shift_invariant():
    z = np.random.default_rng(SEED).normal(size=7)
    np.testing.assert_allclose(softmax(z + 1234.5), softmax(z), rtol=1e-9)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("magnitude", [1e4, -1e4])
def test_softmax_extremes_finite_and_normalised(dtype, magnitude):
    z = np.array([magnitude, 0.0, -magnitude, 0.5 * magnitude], dtype=dtype)
    p = softmax(z)
    assert p.dtype == dtype
    assert np.isfinite(p).all()
    assert abs(float(p.astype(np.float64).sum()) - 1) < 10 * np.finfo(dtype).eps
    assert p[np.argmax(z)] == 1  # all the weight on the largest score


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_softmax_respects_dtype_argument(dtype):
    p = softmax([1, 2, 3], dtype=dtype)
    assert p.dtype == dtype
    np.testing.assert_allclose(p, softmax([1.0, 2.0, 3.0]), rtol=np.finfo(dtype).eps * 8)


def test_softmax_integer_input_gives_float64():
    assert softmax([1, 2, 3]).dtype == np.float64


def test_softmax_float16_does_not_overflow_where_naive_does():
    z = np.array([12.0, 0.0], dtype=np.float16)  # e^12 > 65504, the float16 maximum
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(z) / np.exp(z).sum()
    assert not np.isfinite(naive).all()
    assert np.isfinite(softmax(z)).all()


def test_softmax_masked_scores_get_zero_weight():
    p = softmax([0.0, -np.inf, np.log(3.0)])
    np.testing.assert_allclose(p, [0.25, 0.0, 0.75], rtol=1e-15)


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"z": [1.0, np.nan]}, "z"),
        ({"z": [1.0, np.inf]}, "z"),
        ({"z": [-np.inf, -np.inf]}, "z"),
        ({"z": []}, "z"),
        ({"z": 3.0}, "z"),
        ({"z": ["a", "b"]}, "z"),
        ({"z": [[1.0, 2.0], [3.0]]}, "z"),
        ({"z": [1 + 2j, 0]}, "z"),
        ({"z": [1e6, 0.0], "dtype": np.float16}, "z"),
        ({"z": [1.0, 2.0], "axis": 1}, "axis"),
        ({"z": [1.0, 2.0], "axis": 0.5}, "axis"),
        ({"z": [1.0, 2.0], "axis": True}, "axis"),
        ({"z": [1.0, 2.0], "dtype": np.int32}, "dtype"),
        ({"z": [1.0, 2.0], "dtype": "not-a-dtype"}, "dtype"),
    ],
)
def test_softmax_bad_input(kwargs, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        softmax(**kwargs)


# --- Jacobian ----------------------------------------------------------------


def test_jacobian_exact_two_by_two():
    np.testing.assert_allclose(softmax_jacobian([0.5, 0.5]), [[0.25, -0.25], [-0.25, 0.25]], rtol=0, atol=0)
    np.testing.assert_allclose(softmax_jacobian([0.25, 0.75]), [[0.1875, -0.1875], [-0.1875, 0.1875]], atol=0)


def test_jacobian_of_one_hot_is_zero():
    np.testing.assert_array_equal(softmax_jacobian([0.0, 1.0, 0.0]), np.zeros((3, 3)))


def test_jacobian_against_central_differences():
    z = np.random.default_rng(SEED).normal(size=(3, 2, 5))
    analytic = softmax_jacobian(softmax(z))
    assert analytic.shape == (3, 2, 5, 5)
    for index in np.ndindex(3, 2):
        numeric = central_difference(softmax, z[index])
        np.testing.assert_allclose(analytic[index], numeric, atol=1e-9)


def test_jacobian_properties():
    p = softmax(np.random.default_rng(SEED).normal(size=(10, 6)) * 3)
    jac = softmax_jacobian(p)
    np.testing.assert_allclose(jac, np.swapaxes(jac, -1, -2), atol=0)  # symmetric
    np.testing.assert_allclose(jac.sum(axis=-1), 0, atol=1e-15)  # rows sum to 0
    assert (np.linalg.eigvalsh(jac) > -1e-15).all()  # positive semidefinite
    np.testing.assert_allclose(np.diagonal(jac, axis1=-2, axis2=-1), diagonal_gradient(p), rtol=1e-13)


@pytest.mark.parametrize(
    "p",
    [[0.5, 0.6], [1.2, -0.2], [np.nan, 1.0], [], 0.5, [[0.5, 0.5], [0.9, 0.2]]],
)
def test_jacobian_bad_input(p):
    with pytest.raises(ValueError, match=r"^p\b"):
        softmax_jacobian(p)


# --- P(1 - P) and entropy --------------------------------------------------------


def test_diagonal_gradient_values():
    assert diagonal_gradient(0.99) == pytest.approx(0.0099, rel=1e-12)
    assert diagonal_gradient(0.5) == 0.25
    np.testing.assert_array_equal(diagonal_gradient([0.0, 1.0]), [0.0, 0.0])
    grid = np.linspace(0, 1, 1001)
    values = diagonal_gradient(grid)
    assert values.max() == 0.25 and grid[values.argmax()] == 0.5


@pytest.mark.parametrize("p", [1.5, -0.1, np.nan, np.inf, [], "x"])
def test_diagonal_gradient_bad_input(p):
    with pytest.raises(ValueError, match=r"^p\b"):
        diagonal_gradient(p)


def test_entropy_values():
    assert entropy([1.0, 0.0, 0.0]) == 0.0
    assert entropy(np.full(8, 1 / 8)) == pytest.approx(math.log(8), rel=1e-15)
    assert entropy([0.5, 0.5]) == pytest.approx(math.log(2), rel=1e-15)
    batch = np.array([[1.0, 0.0], [0.5, 0.5]])
    np.testing.assert_allclose(entropy(batch), [0.0, math.log(2)], rtol=1e-15)
    np.testing.assert_allclose(entropy(batch.T, axis=0), [0.0, math.log(2)], rtol=1e-15)


def test_entropy_falls_as_scores_grow():
    z = np.random.default_rng(SEED).normal(size=16)
    values = [float(entropy(softmax(s * z))) for s in (0.0, 1.0, 4.0, 16.0, 64.0)]
    assert values[0] == pytest.approx(math.log(16))
    assert all(a > b for a, b in zip(values, values[1:]))
    assert values[-1] < 1e-3


@pytest.mark.parametrize(
    "kwargs, param",
    [({"p": [0.3, 0.3]}, "p"), ({"p": [-0.5, 1.5]}, "p"), ({"p": [0.5, 0.5], "axis": 2}, "axis")],
)
def test_entropy_bad_input(kwargs, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        entropy(**kwargs)


# --- query and key vectors -----------------------------------------------------


def test_draw_shapes_and_dtype():
    q, k = draw_queries_keys(64, 1.0, n_queries=3, n_keys=5, seed=SEED, dtype=np.float32)
    assert q.shape == (3, 64) and k.shape == (5, 64)
    assert q.dtype == k.dtype == np.float32


def test_draw_is_deterministic_and_seed_dependent():
    a = draw_queries_keys(16, 2.0, seed=SEED)
    b = draw_queries_keys(16, 2.0, seed=SEED)
    c = draw_queries_keys(16, 2.0, seed=SEED + 1)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[1], c[1])


def test_draw_accepts_a_generator():
    q1, _ = draw_queries_keys(8, 1.0, seed=np.random.default_rng(SEED))
    q2, _ = draw_queries_keys(8, 1.0, seed=SEED)
    np.testing.assert_array_equal(q1, q2)


def test_draw_statistics_match_magnitude_and_dk():
    d_k, m = 256, 1.5
    q, k = draw_queries_keys(d_k, m, n_queries=400, n_keys=400, seed=SEED)
    assert q.std() == pytest.approx(m, rel=0.02)
    dots = (q @ k.T).ravel()
    assert dots.mean() == pytest.approx(0.0, abs=0.05 * m**2 * math.sqrt(d_k))
    assert dots.var() == pytest.approx(m**4 * d_k, rel=0.05)


def test_draw_magnitude_scales_vectors_exactly():
    q1, k1 = draw_queries_keys(32, 1.0, seed=SEED)
    q3, k3 = draw_queries_keys(32, 3.0, seed=SEED)
    np.testing.assert_allclose(q3, 3 * q1, rtol=1e-15)
    np.testing.assert_allclose(k3, 3 * k1, rtol=1e-15)


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"d_k": 0}, "d_k"),
        ({"d_k": -4}, "d_k"),
        ({"d_k": 2.5}, "d_k"),
        ({"d_k": True}, "d_k"),
        ({"magnitude": 0.0}, "magnitude"),
        ({"magnitude": -1.0}, "magnitude"),
        ({"magnitude": np.nan}, "magnitude"),
        ({"magnitude": np.inf}, "magnitude"),
        ({"magnitude": "big"}, "magnitude"),
        ({"n_queries": 0}, "n_queries"),
        ({"n_keys": 1.5}, "n_keys"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"dtype": np.int64}, "dtype"),
        ({"magnitude": 1e6, "dtype": np.float16}, "magnitude"),
    ],
)
def test_draw_bad_input(kwargs, param):
    args = {"d_k": 8, "magnitude": 1.0} | kwargs
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        draw_queries_keys(**args)


# --- Jacobian norm and central differences ------------------------------------------


def test_jacobian_norm_values_and_bound():
    assert jacobian_norm([0.5, 0.5]) == pytest.approx(0.5, abs=1e-15)
    assert jacobian_norm([0.5, 0.5, 0.0, 0.0]) == pytest.approx(0.5, abs=1e-15)
    assert jacobian_norm([1.0, 0.0, 0.0]) == pytest.approx(0.0, abs=1e-15)
    rng = np.random.default_rng(SEED)
    p = rng.dirichlet(np.full(7, 0.3), size=500)
    norms = jacobian_norm(p)
    assert norms.shape == (500,)
    assert (norms <= 0.5 + 1e-15).all() and (norms >= 0).all()


def test_central_difference_exact_for_quadratics():
    a = np.array([[1.0, 2.0], [3.0, -1.0]])
    f = lambda x: a @ x + x**2  # noqa: E731 - Jacobian a + 2 diag(x)
    x = np.array([0.3, -1.2])
    np.testing.assert_allclose(central_difference(f, x, h=1e-3), a + 2 * np.diag(x), atol=1e-9)


def test_central_difference_shapes():
    x = np.ones((2, 3))
    assert central_difference(lambda t: t.sum(), x).shape == (2, 3)
    assert central_difference(lambda t: t * 2, x).shape == (2, 3, 2, 3)


@pytest.mark.parametrize(
    "kwargs, param",
    [({"f": 3}, "f"), ({"x": [np.nan]}, "x"), ({"x": []}, "x"), ({"h": 0.0}, "h"), ({"h": -1e-3}, "h")],
)
def test_central_difference_bad_input(kwargs, param):
    args = {"f": np.sin, "x": [0.1, 0.2]} | kwargs
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        central_difference(**args)


def test_jacobian_norm_bad_input():
    with pytest.raises(ValueError, match=r"^p\b"):
        jacobian_norm([0.2, 0.2])


# --- 1 - P without cancellation (issue 11) ------------------------------------------------------


def test_diagonal_gradient_three_ways_agree_away_from_saturation():
    p = softmax(np.random.default_rng(SEED).normal(size=(4, 5)))
    plain = diagonal_gradient(p)
    np.testing.assert_allclose(diagonal_gradient(p, axis=-1), plain, rtol=1e-14)
    np.testing.assert_allclose(diagonal_gradient(p[:, 0], complement=1 - p[:, 0]), plain[:, 0], rtol=0)
    np.testing.assert_allclose(diagonal_gradient(p.T, axis=0), plain.T, rtol=1e-14)


def test_diagonal_gradient_with_axis_keeps_a_saturated_gradient():
    # z = (37, 0): P_1 = 1/(1 + e^-37) rounds to 1.0, but P_1 (1 - P_1) = P_1 P_2 is not 0
    p = softmax(np.array([37.0, 0.0]))
    assert p[0] == 1.0 and diagonal_gradient(p[0]) == 0.0  # p * (1 - p) of the rounded weight
    exact = math.exp(-37) / (1 + math.exp(-37)) ** 2
    assert diagonal_gradient(p, axis=-1)[0] == pytest.approx(exact, rel=1e-14)
    assert diagonal_gradient(p[0], complement=p[1]) == pytest.approx(exact, rel=1e-14)


def test_jacobian_diagonal_is_p_times_the_other_weights():
    p = softmax(np.array([60.0, 0.0]))
    exact = math.exp(-60) / (1 + math.exp(-60)) ** 2  # 8.76e-27
    jac = softmax_jacobian(p)
    assert jac[0, 0] == pytest.approx(exact, rel=1e-14) and jac[1, 1] == pytest.approx(exact, rel=1e-14)
    assert jacobian_norm(p) == pytest.approx(2 * exact, rel=1e-14)


def test_normal_cdf_scalars_and_tails():
    from attention_scaling import normal_cdf

    assert normal_cdf(0.0) == 0.5 and isinstance(normal_cdf(0.0), np.float64)
    assert normal_cdf(np.array(0.0)) == 0.5
    assert normal_cdf(-10.0) == pytest.approx(0.5 * math.erfc(10 / math.sqrt(2)), rel=1e-14)
    assert normal_cdf(-37.0) > 0  # 5.7e-300
    np.testing.assert_array_equal(normal_cdf([-np.inf, np.inf]), [0.0, 1.0])


# --- saturation_expectation: the expected curves of chapter 3 -----------------------------


def test_saturation_expectation_matches_a_direct_simulation_of_whole_vectors():
    """The chi-squared shortcut draws the same rows in distribution as queries and keys drawn in
    full: its means agree with saturation_by_dimension's over 3000 queries within 4 standard
    errors of the two combined, for both curves and every measure."""
    from attention_scaling import saturation_by_dimension, saturation_expectation

    dims = [1, 16, 256]
    fast = saturation_expectation(dims, magnitude=0.8, n_keys=8, rows=40_000, seed=SEED % 1000)
    full = saturation_by_dimension(dims, magnitude=0.8, n_keys=8, n_queries=3000, seed=5)
    direct_se = {"max weight": 0.5, "entropy": 2.1, "largest P(1-P)": 0.25}  # bounds on a row's spread
    for curve in ("unscaled", "scaled"):
        for measure, spread in direct_se.items():
            gap = np.abs(fast[curve][measure] - full[curve][measure])
            allowed = 4 * np.hypot(fast["se"][curve][measure], spread / np.sqrt(3000))
            assert (gap < allowed).all(), (curve, measure, gap, allowed)
            assert fast[curve][measure].shape == (3,) and (fast["se"][curve][measure] > 0).all()


def test_saturation_expectation_is_seeded_per_dimension_and_pairs_the_two_curves():
    from attention_scaling import saturation_expectation

    a = saturation_expectation([1, 64], rows=5_000)
    b = saturation_expectation([64], rows=5_000)
    assert a["unscaled"]["max weight"][1] == b["unscaled"]["max weight"][0]  # d_k's own stream
    assert a["rows"] == 5_000 and list(a["d_values"]) == [1, 64]
    # at d_k = 1 scaling changes nothing: the same rows give the same measures, a zero gap
    assert a["unscaled"]["entropy"][0] == a["scaled"]["entropy"][0]
    assert a["gradient gap"][0] == 0.0 and a["gradient gap se"][0] == 0.0
    gap = a["unscaled"]["largest P(1-P)"] - a["scaled"]["largest P(1-P)"]
    assert np.allclose(a["gradient gap"], gap, atol=1e-12) and a["gradient gap se"][1] > 0


def test_saturation_expectation_stays_finite_for_huge_vectors():
    from attention_scaling import saturation_expectation

    out = saturation_expectation([1024], magnitude=1e90, rows=1_000)
    assert out["unscaled"]["max weight"][0] == pytest.approx(1.0, abs=1e-12)
    for curve in ("unscaled", "scaled"):
        for values in (*out[curve].values(), *out["se"][curve].values()):
            assert np.isfinite(values).all()
