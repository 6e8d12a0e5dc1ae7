"""Property tests (hypothesis) over random shapes and values, and one bad-input table for
every public function of the package."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

import attention_scaling as pkg
from attention_scaling import central_difference, softmax, softmax_jacobian
from attention_scaling.attention import attention_forward
from attention_scaling.normalization import attention_scores, l2_normalize, layer_norm
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
    (pkg.ensemble_prefix_scores, {"d_values": [0, 1]}, "d_values"),
    (pkg.ensemble_prefix_scores, {"d_values": [1, pkg.SHARED_MAX_DIM + 1]}, "d_values"),
    (pkg.ensemble_prefix_scores, {"d_values": [1, 2], "n_queries": 0}, "n_queries"),
    (pkg.weight_measures, {"p": [0.9, 0.9]}, "p"),
    (pkg.expectation, {"values": [1.0]}, "values"),
    (pkg.expectation, {"values": [np.nan, 1.0]}, "values"),
    (pkg.saturation_by_dimension, {"d_values": [1, 1]}, "d_values"),
    (pkg.saturation_by_dimension, {"d_values": [1, 2], "magnitude": -1.0}, "magnitude"),
    (attention_forward, {"Q": np.ones((2, 3)), "K": np.ones((2, 3)), "V": np.full((2, 1), np.nan)}, "V"),
    (attention_forward, {"Q": np.ones((0, 3)), "K": np.ones((2, 3)), "V": np.ones((2, 1))}, "Q"),
    (attention_scores, {"Q": np.ones((2, 3)), "K": np.full((2, 3), np.inf)}, "K"),
    (l2_normalize, {"x": []}, "x"),
    (layer_norm, {"x": [[np.nan, 1.0]]}, "x"),
]


@pytest.mark.parametrize("func, kwargs, param", BAD_INPUTS, ids=lambda x: getattr(x, "__name__", None))
def test_bad_input_table(func, kwargs, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        func(**kwargs)


def test_every_public_numerics_function_is_in_the_table():
    covered = {func.__name__ for func, _, _ in BAD_INPUTS}
    public = {name for name in pkg.__all__ if callable(getattr(pkg, name)) and not isinstance(getattr(pkg, name), type)}
    assert public - covered == set()
