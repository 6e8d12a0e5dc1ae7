"""Attention forward and backward: values, shapes, finite differences, bad input, the experiment."""

from __future__ import annotations

import numpy as np
import pytest

from attention_scaling import softmax
from attention_scaling.attention import attention_backward, attention_forward, gradients_by_dimension
from checks import assert_attention_gradients_match

SEED = 5


def test_forward_values_and_shapes():
    rng = np.random.default_rng(SEED)
    q, k, val = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
    out, cache = attention_forward(q, k, val)
    assert out.shape == (3, 2) and cache.P.shape == (3, 5)
    np.testing.assert_allclose(cache.Z, q @ k.T / 2.0)
    np.testing.assert_allclose(out, softmax(q @ k.T / 2.0) @ val)
    out_u, cache_u = attention_forward(q, k, val, scaled=False)
    np.testing.assert_allclose(cache_u.Z, q @ k.T)
    _, cache_t = attention_forward(q, k, val, scaled=0.25)
    np.testing.assert_allclose(cache_t.Z, 0.25 * q @ k.T)


def test_one_key_copies_its_value():
    val = np.array([[2.0, -1.0]])
    out, cache = attention_forward(np.ones((3, 4)), np.ones((1, 4)), val)
    np.testing.assert_array_equal(cache.P, np.ones((3, 1)))
    np.testing.assert_allclose(out, np.repeat(val, 3, axis=0))


@pytest.mark.parametrize("shape", [(1, 1, 2, 1), (3, 4, 5, 2), (6, 16, 3, 4), (2, 7, 9, 1)])
@pytest.mark.parametrize("scaled", [True, False, 0.3])
def test_backward_matches_central_differences(shape, scaled):
    assert_attention_gradients_match(shape, SEED + sum(shape), scaled)


def test_saturated_row_passes_no_gradient_to_q():
    q = np.array([[100.0, 0.0]])
    k = np.array([[1.0, 0.0], [-1.0, 0.0]])
    _, cache = attention_forward(q, k, np.eye(2), scaled=False)
    dq, dk, dv = attention_backward(np.ones((1, 2)), cache)
    assert cache.P.max() == 1.0
    assert np.abs(dq).max() < 1e-80 and np.abs(dk).max() < 1e-80
    assert np.abs(dv).max() > 0.5  # the chosen value still learns


def test_extreme_inputs_stay_finite():
    rng = np.random.default_rng(SEED)
    q, k = 1e3 * rng.normal(size=(4, 8)), 1e3 * rng.normal(size=(6, 8))
    out, cache = attention_forward(q, k, rng.normal(size=(6, 3)), scaled=False)
    grads = attention_backward(rng.normal(size=(4, 3)), cache)
    assert np.isfinite(out).all() and all(np.isfinite(x).all() for x in grads)


@pytest.mark.parametrize(
    "args, param",
    [
        ((np.ones(3), np.ones((2, 3)), np.ones((2, 1))), "Q"),
        ((np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 1))), "K"),
        ((np.ones((2, 3)), np.ones((2, 3)), np.ones((3, 1))), "V"),
        ((np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 1)), -1.0), "scaled"),
        ((np.full((2, 3), np.nan), np.ones((2, 3)), np.ones((2, 1))), "Q"),
        ((np.ones((2, 3)), np.ones((0, 3)), np.ones((0, 1))), "K"),
        ((np.ones((2, 3, 1)), np.ones((2, 3)), np.ones((2, 1))), "Q"),
    ],
)
def test_forward_bad_input(args, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        attention_forward(*args)


def test_backward_bad_input():
    _, cache = attention_forward(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 5)))
    with pytest.raises(ValueError, match=r"^G\b"):
        attention_backward(np.ones((2, 4)), cache)
    with pytest.raises(ValueError, match=r"^cache\b"):
        attention_backward(np.ones((2, 5)), {"P": 1})


def test_gradients_by_dimension():
    res = gradients_by_dimension([1, 16, 256], n_queries=8, n_keys=8, d_v=4, trials=3, seed=SEED)
    for name in ("scaled", "unscaled"):
        assert set(res[name]) == {"mean |dq|", "median |dq|", "mean |dk|", "saturated rows"}
        for values in res[name].values():
            assert values.shape == (3,) and np.isfinite(values).all()
    # at d_k = 1 scaling changes nothing
    assert res["scaled"]["mean |dq|"][0] == pytest.approx(res["unscaled"]["mean |dq|"][0])
    assert res["scaled"]["saturated rows"].max() == 0
    assert res["unscaled"]["saturated rows"][-1] > res["unscaled"]["saturated rows"][0]
    again = gradients_by_dimension([1, 16, 256], n_queries=8, n_keys=8, d_v=4, trials=3, seed=SEED)
    np.testing.assert_array_equal(again["unscaled"]["median |dq|"], res["unscaled"]["median |dq|"])


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"d_values": [4, 2]}, "d_values"),
        ({"d_values": [0, 2]}, "d_values"),
        ({"magnitude": 0}, "magnitude"),
        ({"n_keys": 1}, "n_keys"),
        ({"trials": 0}, "trials"),
        ({"saturation": 1.0}, "saturation"),
        ({"seed": -3}, "seed"),
    ],
)
def test_gradients_by_dimension_bad_input(kwargs, param):
    args = {"d_values": [1, 2]} | kwargs
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        gradients_by_dimension(**args)
