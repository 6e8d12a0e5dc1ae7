"""Property tests (hypothesis) over random shapes and values, and one bad-input table for
every public function of the package."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

import attention_scaling as pkg
from attention_scaling import central_difference, dot_law, softmax, softmax_jacobian
from attention_scaling import context as cx
from attention_scaling.attention import attention_backward, attention_forward, gradient_rows, gradients_by_dimension
from attention_scaling.normalization import aligned_dot_products, attention_scores, l2_normalize, layer_norm
from attention_scaling.stability import masked_softmax_backward
from checks import assert_attention_gradients_match

finite64 = st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False, width=64)
moderate = st.floats(-30, 30, allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=150, deadline=None)
@given(arrays(np.float64, array_shapes(min_dims=1, max_dims=3, max_side=6), elements=finite64),
       st.integers(-3, 2))
def test_softmax_properties_for_any_finite_input(z, axis):
    axis = axis % z.ndim
    p = softmax(z, axis=axis)
    assert p.shape == z.shape
    assert np.isfinite(p).all()
    assert (p >= 0).all() and (p <= 1).all()
    np.testing.assert_allclose(p.sum(axis=axis), 1.0, rtol=1e-12)


@settings(max_examples=100, deadline=None)
@given(arrays(np.float64, array_shapes(min_dims=1, max_dims=2, max_side=6), elements=moderate),
       st.floats(-1e3, 1e3, allow_nan=False))
def test_softmax_is_shift_invariant(z, c):
    np.testing.assert_allclose(softmax(z + c), softmax(z), rtol=1e-9, atol=1e-15)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.integers(2, 7), elements=st.floats(-5, 5, allow_nan=False)))
def test_jacobian_matches_finite_differences(z):
    np.testing.assert_allclose(softmax_jacobian(softmax(z)), central_difference(softmax, z), atol=1e-8)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.integers(1, 5), st.integers(1, 3), st.integers(0, 2**31 - 1),
       st.booleans())
def test_attention_backward_matches_finite_differences(n_q, d_k, n_k, d_v, seed, scaled):
    assert_attention_gradients_match((n_q, d_k, n_k, d_v), seed, scaled)


# --- one bad-input table for every public function ---------------------------------------

GOOD_P = [0.25, 0.75]


def attention_backward_of(G):
    """attention_backward on a small fixed forward pass, so that only G varies."""
    _, cache = attention_forward(1e-200 * np.eye(2), 1e200 * np.eye(2), np.eye(2))
    return attention_backward(G, cache)

BAD_INPUTS = [
    # (callable, kwargs, parameter named in the error)
    (pkg.softmax, {"z": []}, "z"),
    (pkg.softmax, {"z": [np.nan, 1.0]}, "z"),
    (pkg.softmax, {"z": [np.inf, 1.0]}, "z"),
    (pkg.softmax, {"z": [[1.0, 2.0]], "axis": 2}, "axis"),
    (pkg.softmax_jacobian, {"p": [[]]}, "p"),
    (pkg.softmax_jacobian, {"p": [np.nan, 1.0]}, "p"),
    (pkg.softmax_jacobian, {"p": [np.inf, 0.0]}, "p"),
    (pkg.diagonal_gradient, {"p": []}, "p"),
    (pkg.diagonal_gradient, {"p": np.inf}, "p"),
    (pkg.entropy, {"p": [0.9, 0.9]}, "p"),
    (pkg.entropy, {"p": []}, "p"),
    (pkg.jacobian_norm, {"p": [1.5, -0.5]}, "p"),
    (pkg.draw_queries_keys, {"d_k": 0, "magnitude": 1.0}, "d_k"),
    (pkg.draw_queries_keys, {"d_k": 2.5, "magnitude": 1.0}, "d_k"),
    (pkg.draw_queries_keys, {"d_k": -1, "magnitude": 1.0}, "d_k"),
    (pkg.draw_queries_keys, {"d_k": 4, "magnitude": np.nan}, "magnitude"),
    (pkg.draw_queries_keys, {"d_k": 4, "magnitude": np.inf}, "magnitude"),
    (pkg.central_difference, {"f": np.sin, "x": [np.inf]}, "x"),
    (pkg.normal_cdf, {"x": [np.nan]}, "x"),
    (pkg.normal_cdf, {"x": [0.0], "sigma": 0.0}, "sigma"),
    (pkg.score_sample, {"d_values": [0, 1]}, "d_values"),
    (pkg.score_sample, {"d_values": [1, 2], "n_keys": 0}, "n_keys"),
    (pkg.shared_draw, {"d_k": 0}, "d_k"),
    (pkg.shared_draw, {"d_k": pkg.SHARED_MAX_DIM + 1}, "d_k"),
    (pkg.shared_draw, {"d_k": 4, "n_keys": pkg.SHARED_MAX_KEYS + 1}, "n_keys"),
    (pkg.shared_draw, {"d_k": 4, "seed": -1}, "seed"),
    (pkg.shared_draw, {"d_k": 4, "magnitude": np.nan}, "magnitude"),
    (pkg.query_ensemble, {"d_k": 4, "n_queries": 0}, "n_queries"),
    (pkg.query_ensemble, {"d_k": 4, "magnitude": np.inf}, "magnitude"),
    (pkg.ensemble_parts, {"d_k": 0}, "d_k"),
    (pkg.ensemble_parts, {"d_k": pkg.SHARED_MAX_DIM + 1}, "d_k"),
    (pkg.ensemble_parts, {"d_k": 4, "n_queries": 0}, "n_queries"),
    (pkg.ensemble_scores, {"d_k": 4, "n_keys": pkg.SHARED_MAX_KEYS + 1}, "n_keys"),
    (pkg.ensemble_scores_by_dimension, {"d_values": [4, 4]}, "d_values"),
    (pkg.ensemble_scores_by_dimension, {"d_values": [4, pkg.SHARED_MAX_DIM + 1]}, "d_k"),
    (pkg.ensemble_scores_by_dimension, {"d_values": [4], "n_queries": 0}, "n_queries"),
    (pkg.ensemble_scores_by_dimension, {"d_values": [4], "seed": -1}, "seed"),
    (pkg.pair_scores, {"d_k": 4, "n_pairs": 0}, "n_pairs"),
    (pkg.pair_scores, {"d_k": 4, "seed": -1}, "seed"),
    (pkg.weight_measures, {"p": [0.9, 0.9]}, "p"),
    (pkg.expectation, {"values": [1.0]}, "values"),
    (pkg.expectation, {"values": [np.nan, 1.0]}, "values"),
    (pkg.saturation_by_dimension, {"d_values": [1, 1]}, "d_values"),
    (pkg.saturation_by_dimension, {"d_values": [1, 2], "magnitude": -1.0}, "magnitude"),
    (pkg.saturation_expectation, {"d_values": [2, 1]}, "d_values"),
    (pkg.saturation_expectation, {"d_values": [4], "rows": 1}, "rows"),
    (pkg.saturation_expectation, {"d_values": [4], "n_keys": 1}, "n_keys"),
    (pkg.saturation_expectation, {"d_values": [4], "seed": -1}, "seed"),
    (pkg.saturation_expectation, {"d_values": [4], "magnitude": 0.0}, "magnitude"),
    (attention_forward, {"Q": np.ones((2, 3)), "K": np.ones((2, 3)), "V": np.full((2, 1), np.nan)}, "V"),
    (attention_forward, {"Q": np.ones((0, 3)), "K": np.ones((2, 3)), "V": np.ones((2, 1))}, "Q"),
    (attention_scores, {"Q": np.ones((2, 3)), "K": np.full((2, 3), np.inf)}, "K"),
    (l2_normalize, {"x": []}, "x"),
    (layer_norm, {"x": [[np.nan, 1.0]]}, "x"),
    # --- issue 11, item 3: no silent wrong answer; each case, then others of its class ---
    # overflow in an intermediate
    (attention_forward, {"Q": 1e200 * np.eye(2), "K": 1e200 * np.eye(2), "V": np.eye(2)}, "Q"),
    (attention_forward, {"Q": 1e160 * np.eye(2), "K": 1e160 * np.eye(2), "V": np.eye(2), "scaled": False}, "Q"),
    (attention_backward_of, {"G": [[1e200, -1e200], [-1e200, 1e200]]}, "G"),  # dQ = s (dL/dZ) K with |K| = 1e200
    (attention_scores, {"Q": 1e200 * np.eye(2), "K": 1e200 * np.eye(2), "mode": "unscaled"}, "Q"),
    (layer_norm, {"x": [0.0, 0.0, 1.0], "gain": [1.7e308] * 3}, "gain"),
    (masked_softmax_backward, {"p": np.array([0.5, 0.5], np.float16), "grad": [1e6, 0.0]}, "grad"),
    (masked_softmax_backward, {"p": np.array([0.5, 0.5], np.float32), "grad": [1e40, -1e40]}, "grad"),
    (pkg.draw_queries_keys, {"d_k": 4, "magnitude": 1e308}, "magnitude"),  # float64 overflows too
    (pkg.central_difference, {"f": np.sin, "x": [1e308], "h": 1e308}, "h"),
    (pkg.saturation_by_dimension, {"d_values": [1, 2], "magnitude": 1e160, "n_queries": 2}, "magnitude"),
    (pkg.saturation_expectation, {"d_values": [1, 2], "magnitude": 1e160, "rows": 2}, "magnitude"),
    (gradients_by_dimension, {"d_values": [2], "magnitude": 1e160, "trials": 1, "n_queries": 2}, "magnitude"),
    # the argument the caller passed is named, not the Q and K drawn from it
    (gradient_rows, {"d_values": [4], "magnitude": 1e200}, "magnitude"),
    (gradient_rows, {"d_values": [2], "magnitude": 1e160, "trials": 1, "n_queries": 2}, "magnitude"),
    # a Python int beyond float64 is refused by name (it raised OverflowError)
    (pkg.normal_cdf, {"x": 0.0, "sigma": 10**400}, "sigma"),
    (pkg.draw_queries_keys, {"d_k": 4, "magnitude": 10**400}, "magnitude"),
    # underflow of a scale
    (pkg.draw_queries_keys, {"d_k": 4, "magnitude": 1e-10, "dtype": np.float16}, "magnitude"),
    (pkg.draw_queries_keys, {"d_k": 4, "magnitude": 1e-40, "dtype": np.float32}, "magnitude"),
    (pkg.draw_queries_keys, {"d_k": 4, "magnitude": 1e-320}, "magnitude"),
    # a step lost to rounding
    (pkg.central_difference, {"f": np.sin, "x": [0.1, 0.2], "h": 1e-20}, "h"),
    (pkg.central_difference, {"f": np.sin, "x": [1e6], "h": 1e-12}, "h"),
    # inconsistent ways to give 1 - p
    (pkg.diagonal_gradient, {"p": 0.9, "complement": 0.2}, "complement"),
    (pkg.diagonal_gradient, {"p": [0.5, 0.5], "axis": -1, "complement": 0.5}, "axis"),
    (pkg.diagonal_gradient, {"p": [0.5, 0.6], "axis": -1}, "p"),
    (pkg.normal_cdf, {"x": "a"}, "x"),
    (pkg.normal_cdf, {"x": 0.0, "sigma": np.True_}, "sigma"),
    # numpy bools are still refused where a number is wanted
    (pkg.draw_queries_keys, {"d_k": np.True_, "magnitude": 1.0}, "d_k"),
]


@pytest.mark.parametrize("func, kwargs, param", BAD_INPUTS, ids=lambda x: getattr(x, "__name__", None))
def test_bad_input_table(func, kwargs, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        func(**kwargs)


def test_every_public_numerics_function_is_in_the_table():
    covered = {func.__name__ for func, _, _ in BAD_INPUTS}
    public = {name for name in pkg.__all__ if callable(getattr(pkg, name)) and not isinstance(getattr(pkg, name), type)}
    assert public - covered == set()


# --- issue 11, item 3: where a right answer exists, it is given (closed forms) -----------------

RIGHT_VALUES = [
    # (callable, kwargs, the exact answer from a closed form)
    # low-precision intermediate: float16 grad 1e5 is inf; the answer P1 P2 (g1 - g2) = 25000 is not
    (masked_softmax_backward, {"p": np.array([0.5, 0.5], np.float16), "grad": [1e5, 0.0]},
     np.array([25000.0, -25000.0], np.float16)),  # the closed form, rounded once to float16
    # overflow of g - <P, g> in float64 where P (g - <P, g>) = P1 P2 (g1 - g2) is finite
    (masked_softmax_backward, {"p": [0.1, 0.9], "grad": [1.7e308, -1.7e308]}, [0.1 * 0.9 * 2 * 1.7e308, -0.1 * 0.9 * 2 * 1.7e308]),
    # squares that overflow or underflow
    (l2_normalize, {"x": [1e200, 1e200]}, [2**-0.5, 2**-0.5]),
    (l2_normalize, {"x": [3e300, -4e300]}, [0.6, -0.8]),
    (l2_normalize, {"x": [3e-170, 4e-170], "eps": 1e-300}, [0.6, 0.8]),
    (layer_norm, {"x": [1e200, -1e200, 0.0]}, [1.5**0.5, -(1.5**0.5), 0.0]),
    # a mean that overflows: x = c (1, 1, -1) gives (1/sqrt 2, 1/sqrt 2, -sqrt 2)
    (layer_norm, {"x": [1.5e308, 1.5e308, -1.5e308]}, [2**-0.5, 2**-0.5, -(2**0.5)]),
    # a step partly lost to rounding: the identity's derivative is exactly 1
    (central_difference, {"f": lambda t: t, "x": [1.0], "h": 1e-15}, [[1.0]]),
    # left tail and scalar input of the normal CDF (Mills ratio bound checked in test_accuracy)
    (pkg.normal_cdf, {"x": 0.0}, 0.5),
    (pkg.normal_cdf, {"x": np.array(-np.inf)}, 0.0),
]


@pytest.mark.parametrize("func, kwargs, expected", RIGHT_VALUES, ids=lambda x: getattr(x, "__name__", None))
def test_right_value_table(func, kwargs, expected):
    out = func(**kwargs)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(np.asarray(out, dtype=np.float64), expected, rtol=1e-14, atol=0)


# --- the classes of item 3, as properties ------------------------------------------------------

unit_vectors = arrays(np.float64, st.integers(2, 6), elements=st.floats(-10, 10)).filter(lambda x: np.abs(x).max() > 1e-3)


@settings(max_examples=80, deadline=None)
@given(unit_vectors, st.integers(-1000, 1000))
def test_l2_normalize_ignores_any_power_of_two_scale(x, k):
    """Overflow and underflow of the squares: l2_normalize(2^k x) = l2_normalize(x) exactly in
    exact arithmetic, and to rounding here, for every k that keeps 2^k x finite and normal."""
    scaled = np.ldexp(x, k)
    assume_ok = np.isfinite(scaled).all() and np.abs(scaled).max() < 1e308
    if not assume_ok:
        return
    kept = x != 0
    if (scaled[kept] == 0).any() or np.abs(scaled[kept]).min() < 1e-300:  # 2^k x itself underflowed
        return
    np.testing.assert_allclose(l2_normalize(scaled, eps=1e-320), l2_normalize(x), rtol=1e-13, atol=0)


@settings(max_examples=80, deadline=None)
@given(unit_vectors, st.integers(0, 480))
def test_layer_norm_of_a_scaled_row_is_layer_norm_with_a_scaled_eps(x, k):
    """LayerNorm(c x; eps) = LayerNorm(x; eps / c^2): the mean and variance of 2^k x would overflow
    in a plain implementation for large k."""
    np.testing.assert_allclose(layer_norm(np.ldexp(x, k)), layer_norm(x, eps=1e-5 * 4.0**-k), rtol=1e-12, atol=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.floats(-1e300, 1e300), st.floats(1e-300, 1e300))
def test_central_difference_steps_are_taken_or_refused(x, h):
    """A step lost to rounding: either ValueError naming h, or the identity's derivative exactly 1
    (the step actually taken, (x + h) - (x - h), is what the difference is divided by)."""
    try:
        d = central_difference(lambda t: t, [x], h=h)
    except ValueError as err:
        assert str(err).startswith("h")
        assert x + h == x - h or not np.isfinite([x + h, x - h]).all()
        return
    assert d[0, 0] == 1.0


@settings(max_examples=60, deadline=None)
@given(st.floats(-330, 308.2), st.sampled_from([np.float16, np.float32, np.float64]))
def test_draw_queries_keys_underflow_and_overflow_are_refused(log10_m, dtype):
    """Underflow of a scale, overflow of a draw: either ValueError naming magnitude, or vectors that
    are m times the magnitude-1 draw, rounded once to dtype (nothing lost to zero or inf)."""
    m = 10.0**log10_m
    if m == 0:
        return
    try:
        q, k = pkg.draw_queries_keys(4, m, n_keys=3, seed=7, dtype=dtype)
    except ValueError as err:
        assert str(err).startswith("magnitude")
        return
    q1, k1 = pkg.draw_queries_keys(4, 1.0, n_keys=3, seed=7)
    info = np.finfo(dtype)
    for got, unit in ((q, q1), (k, k1)):
        exact = m * unit
        assert np.isfinite(got).all() and (got != 0).all()
        err = np.abs(got.astype(np.float64) - exact)
        assert (err <= float(info.eps) * np.abs(exact) + float(info.smallest_subnormal)).all()


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 5).flatmap(lambda n: st.tuples(
    arrays(np.float64, n, elements=st.floats(-5, 5)), arrays(np.float64, n, elements=st.floats(-1, 1)))),
    st.integers(-60, 1020), st.sampled_from([np.float16, np.float32, np.float64]))
def test_masked_softmax_backward_right_or_refused(zg, k, dtype):
    """Low-precision intermediates and overflow of g - <P, g>: the result is P (g - <P, g>)
    computed exactly enough (float64 on g scaled by 2^-k, an exact operation) and rounded once to
    the dtype of p, or ValueError naming grad when that value does not fit the dtype."""
    z, g = zg
    p = softmax(z.astype(dtype))
    grad = np.ldexp(g, k)
    p64 = p.astype(np.float64)
    # P_i sum_j P_j (g_i - g_j) on the unscaled g: J g with J 1 = 0 even where the rounded p
    # does not sum to exactly 1 (float16)
    reference = np.ldexp(p64 * (g * p64.sum() - (p64 * g).sum()), k)
    try:
        out = masked_softmax_backward(p, grad)
    except ValueError as err:
        assert str(err).startswith("grad")
        with np.errstate(over="ignore"):
            assert not np.isfinite(reference.astype(dtype)).all()
        return
    assert out.dtype == dtype and np.isfinite(out).all()
    info = np.finfo(dtype)
    scale = np.ldexp(np.abs(g).max() + 1e-300, k)  # absolute error of the inner subtraction
    # float16 weights sum to 1 only to rounding; forms of J g that are equal when sum(p) = 1 then
    # differ by P_i |1 - sum(p)| max|g_i - g_j|, and neither is more right than the other
    unsummed = p64 * abs(1 - p64.sum()) * np.ldexp(np.ptp(g), k)
    assert (np.abs(out.astype(np.float64) - reference)
            <= float(info.eps) * np.abs(reference) + 8 * 2.0**-52 * scale + unsummed
            + float(info.smallest_subnormal)).all()


NUMPY_SCALARS = [
    # (call with python scalars, call with numpy scalars of the same values)
    (lambda: attention_forward(np.eye(2), np.eye(2), np.eye(2), scaled=True)[0],
     lambda: attention_forward(np.eye(2), np.eye(2), np.eye(2), scaled=np.True_)[0]),
    (lambda: attention_forward(np.eye(2), np.eye(2), np.eye(2), scaled=False)[0],
     lambda: attention_forward(np.eye(2), np.eye(2), np.eye(2), scaled=np.False_)[0]),
    (lambda: attention_forward(np.eye(2), np.eye(2), np.eye(2), scaled=0.5)[0],
     lambda: attention_forward(np.eye(2), np.eye(2), np.eye(2), scaled=np.float32(0.5))[0]),
    (lambda: pkg.draw_queries_keys(4, 1.5, n_queries=2, n_keys=3, seed=1)[1],
     lambda: pkg.draw_queries_keys(np.int64(4), np.float32(1.5), n_queries=np.int32(2), n_keys=np.uint8(3),
                                   seed=np.int64(1))[1]),
    (lambda: softmax([1.0, 2.0], axis=-1), lambda: softmax([1.0, 2.0], axis=np.int64(-1))),
    (lambda: pkg.normal_cdf(1.0, sigma=2.0), lambda: pkg.normal_cdf(np.float32(1.0), sigma=np.float16(2.0))),
    (lambda: central_difference(np.sin, [0.5], h=1e-3), lambda: central_difference(np.sin, [0.5], h=np.float64(1e-3))),
    (lambda: aligned_dot_products([2, 4], 0.5, n_pairs=10)["mean"],
     lambda: aligned_dot_products([np.int64(2), 4], np.float32(0.5), n_pairs=np.int64(10))["mean"]),
    (lambda: l2_normalize([3.0, 4.0], axis=0, eps=1e-12), lambda: l2_normalize([3.0, 4.0], axis=np.int8(0), eps=np.float32(1e-12))),
    (lambda: pkg.diagonal_gradient(0.25), lambda: pkg.diagonal_gradient(np.float32(0.25))),
    (lambda: gradients_by_dimension([2], trials=1, n_queries=2, n_keys=2, d_v=1)["scaled"]["mean |dq|"],
     lambda: gradients_by_dimension([np.int64(2)], trials=np.int64(1), n_queries=2, n_keys=2, d_v=1,
                                    saturation=np.float64(0.99), magnitude=np.float32(1.0))["scaled"]["mean |dq|"]),
]


@pytest.mark.parametrize("python_call, numpy_call", NUMPY_SCALARS)
def test_numpy_scalars_are_accepted_like_python_ones(python_call, numpy_call):
    np.testing.assert_array_equal(numpy_call(), python_call())


# --- dot_law in the far tail (issue 27, part 2) ----------------------------------------------------

@settings(max_examples=12, deadline=None)
@given(st.sampled_from([2, 4, 16, 64, 128]), st.floats(60.0, 700.0), st.booleans())
def test_dot_tail_quadrature_equals_the_closed_form_deep_in_the_tail(d, y, scaled):
    """Two exact routes, far below mpmath's absolute epsilon (1e-25 at the module's 25 digits): the finite sum (even d_k)
    and the mixture over the query's norm (method="quad", as odd d_k use). With one key a row
    fails exactly when its score does, so row_failure(t, d, 1) is the same number again."""
    t = y / np.sqrt(d) if scaled else y
    closed = dot_law.dot_tail(t, d, scaled=scaled)
    assert closed > 0
    np.testing.assert_allclose(dot_law.dot_tail(t, d, scaled=scaled, method="quad"), closed, rtol=1e-12)
    np.testing.assert_allclose(dot_law.row_failure(t, d, 1, scaled=scaled), closed, rtol=1e-12)


# --- context at scores up to float64's limit (issue 27, part 2) ---------------------------------

huge = st.one_of(st.floats(-1e308, 1e308), st.floats(-50, 50), st.floats(-1e5, 1e5))


@settings(max_examples=150, deadline=None)
@given(huge, huge, st.sampled_from([cx.LOGN_S, 1.0, 1e300, 1e-300]), st.sampled_from([cx.CAP, 1e-300, 1e300]),
       st.integers(0, 2**32))
@example(1e300, 1e300, cx.LOGN_S, cx.CAP, 1)  # weights 1/2, 1/2 and 1/2 on main (1/n)
@example(0.0, 1e308, 3.0, cx.CAP, 1)  # NaN on main
@example(1e5 + 3, 1e5, cx.LOGN_S, cx.CAP, 1)
def test_needle_experiment_is_method_weights_of_its_own_scores(gap, offset, s, cap, seed):
    """needle_experiment (log partitions of the distractors, computed once per n) against
    method_weights of the same scores (one softmax each, test_accuracy checks it against mpmath),
    at scores and factors up to float64's limit: finite, and equal to 1e-12. Draw d is row d of
    one (draws, max n - 1) draw."""
    ns, draws = [2, 5, 40], 2
    out = cx.needle_experiment(gap=gap, n_values=ns, draws=draws, seed=seed, offset=offset, s=s, cap=cap)
    block = np.random.default_rng(seed).standard_normal((draws, ns[-1] - 1)) + offset
    for m in cx.METHODS:
        for d in range(draws):
            for i, n in enumerate(ns):
                ref = cx.method_weights(np.r_[gap, block[d, : n - 1]], m, s=s, cap=cap)
                got = [out["methods"][m][k][d, i] for k in ("weight", "others", "sink")]
                assert all(np.isfinite(x) and 0 <= x <= 1 for x in got), (m, got)
                np.testing.assert_allclose(got, [ref["needle"], ref["others"], ref["sink"]], rtol=1e-12, atol=1e-300)
