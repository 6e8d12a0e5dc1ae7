"""The numbers behind the gradient sentences: the row-by-row factors of the gradient that
reaches the queries (chapter "Follow the gradient", the instructor's page), and the tiny
training run's learning-rate warm-up and weight norms (chapter "Normalize beyond √d_k")."""

from __future__ import annotations

import numpy as np
import pytest

from attention_scaling.attention import GRADIENT_EXPERIMENT, gradient_rows, gradients_by_dimension
from attention_scaling.normalization import train_retrieval, warmup_schedule

SEED = 5
SMALL = {"n_queries": 6, "n_keys": 5, "d_v": 3, "trials": 3, "seed": SEED}


def test_gradient_rows_pool_to_gradients_by_dimension():
    d_values = [1, 8, 64]
    rows = gradient_rows(d_values, **SMALL)
    stats = gradients_by_dimension(d_values, **SMALL)
    assert rows["d_values"].tolist() == d_values
    for mode in ("scaled", "unscaled"):
        dq = rows[mode]["|dq|"].reshape(len(d_values), -1)
        np.testing.assert_array_equal(dq.mean(axis=1), stats[mode]["mean |dq|"])
        np.testing.assert_array_equal(np.median(dq, axis=1), stats[mode]["median |dq|"])
        sat = (rows[mode]["max weight"] > stats["saturation"]).reshape(len(d_values), -1).mean(axis=1)
        np.testing.assert_array_equal(sat, stats[mode]["saturated rows"])


def test_gradient_rows_factors_match_an_independent_computation():
    """Redraws the first trial by hand and forms dL/dZ from the closed form P*(dP - <P, dP>)."""
    d = 16
    rows = gradient_rows([d], **SMALL)
    rng = np.random.default_rng(SEED)
    q = rng.standard_normal((SMALL["n_queries"], d))
    k = rng.standard_normal((SMALL["n_keys"], d))
    val = rng.standard_normal((SMALL["n_keys"], SMALL["d_v"]))
    g = rng.standard_normal((SMALL["n_queries"], SMALL["d_v"]))
    for mode, s in (("scaled", 1 / np.sqrt(d)), ("unscaled", 1.0)):
        z = s * q @ k.T
        e = np.exp(z - z.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        dp = g @ val.T
        dz = p * (dp - np.sum(p * dp, axis=1, keepdims=True))
        dq = s * dz @ k
        got = {name: arr[0, 0] for name, arr in rows[mode].items()}
        np.testing.assert_allclose(got["|dq|"], np.linalg.norm(dq, axis=1), rtol=1e-10)
        np.testing.assert_allclose(got["|dz|"], np.linalg.norm(dz, axis=1), rtol=1e-10)
        np.testing.assert_allclose(got["|dp|"], np.linalg.norm(dp, axis=1), rtol=1e-12)
        np.testing.assert_allclose(got["s|k|"], s * np.sqrt(np.mean(np.sum(k**2, axis=1))), rtol=1e-12)
        np.testing.assert_allclose(got["max weight"], p.max(axis=1), rtol=1e-12)
        top2 = np.sort(z, axis=1)[:, -2:]
        np.testing.assert_allclose(got["gap"], top2[:, 1] - top2[:, 0], rtol=1e-12, atol=1e-12)
        jnorm = [np.linalg.eigvalsh(np.diag(r) - np.outer(r, r))[-1] for r in p]
        np.testing.assert_allclose(got["|J|"], jnorm, rtol=1e-9, atol=1e-15)


def test_gradient_rows_respect_the_jacobian_bound():
    rows = gradient_rows([1, 16, 256], **SMALL)
    for mode in ("scaled", "unscaled"):
        r = rows[mode]
        pmax = r["max weight"]
        # ||J||_2 <= 2 P_max (1 - P_max) (chapter "Bound the softmax Jacobian")
        assert np.all(r["|J|"] <= 2 * pmax * (1 - pmax) + 1e-12)
        assert np.all(r["gap"] >= 0)
        # Cauchy-Schwarz: ||sum_j dZ_ij k_j|| <= ||dZ_i|| ||K||_F = ||dZ_i|| sqrt(n_k) k_rms
        assert np.all(r["|dq|"] <= r["s|k|"] * r["|dz|"] * np.sqrt(SMALL["n_keys"]) * (1 + 1e-12))


def test_gradient_experiment_is_the_chapters_setup():
    assert set(GRADIENT_EXPERIMENT) == {"magnitude", "n_queries", "n_keys", "d_v", "trials", "seed"}
    rows = gradient_rows([4], **(GRADIENT_EXPERIMENT | {"trials": 1}))
    assert rows["scaled"]["|dq|"].shape == (1, 1, GRADIENT_EXPERIMENT["n_queries"])


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"d_values": [4, 2]}, "d_values"),
        ({"magnitude": -1.0}, "magnitude"),
        ({"n_keys": 1}, "n_keys"),
        ({"d_v": 0}, "d_v"),
        ({"trials": 0}, "trials"),
        ({"seed": -1}, "seed"),
    ],
)
def test_gradient_rows_bad_input(kwargs, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        gradient_rows(**({"d_values": [1, 2]} | kwargs))


def test_warmup_schedule_is_linear_then_constant():
    lr, w, steps = 4.0, 5, 8
    rates = warmup_schedule(steps, lr, w)
    np.testing.assert_allclose(rates, [0.8, 1.6, 2.4, 3.2, 4.0, 4.0, 4.0, 4.0], rtol=1e-15)
    assert np.all(np.diff(rates[:w]) > 0)
    np.testing.assert_allclose(np.diff(rates[:w]), lr / w, rtol=1e-12)  # equal increments
    np.testing.assert_array_equal(warmup_schedule(3, 0.5), [0.5, 0.5, 0.5])
    # a warm-up longer than the run never reaches the full rate
    assert warmup_schedule(10, 4.0, 50).max() == pytest.approx(4.0 * 10 / 50)


@pytest.mark.parametrize(
    "args, param",
    [((0, 1.0, 1), "steps"), ((5, 0.0, 1), "lr"), ((5, 1.0, -1), "warmup"), ((5, 1.0, 2.5), "warmup"),
     ((5, 1.0, True), "warmup")],
)
def test_warmup_schedule_bad_input(args, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        warmup_schedule(*args)


def test_train_retrieval_follows_its_warmup():
    plain = train_retrieval(False, steps=12, lr=4.0, seed=SEED)
    np.testing.assert_array_equal(plain["lr"], np.full(12, 4.0))
    warm = train_retrieval(False, steps=12, lr=4.0, seed=SEED, warmup=10)
    np.testing.assert_array_equal(warm["lr"], warmup_schedule(12, 4.0, 10))
    # the same data and the same start: the first loss agrees, the first update is 10 x smaller
    assert warm["loss"][0] == plain["loss"][0]
    assert warm["|dW_q|"][0] == pytest.approx(plain["|dW_q|"][0] / 10, rel=1e-12)
    with pytest.raises(ValueError, match=r"^warmup\b"):
        train_retrieval(False, steps=5, warmup=-2)


@pytest.mark.parametrize("qk_norm", [False, True])
def test_train_retrieval_weight_norms_are_consistent(qk_norm):
    log = train_retrieval(qk_norm, steps=30, lr=2.0, seed=SEED)
    for key in ("|W_q|", "|W_k|", "|dW_q|", "|dW_k|"):
        assert np.isfinite(log[key]).all() and (log[key] > 0).all()
    # the norm after a step is within the size of that step (triangle inequality)
    for w, dw in (("|W_q|", "|dW_q|"), ("|W_k|", "|dW_k|")):
        assert np.all(np.abs(np.diff(log[w])) <= log[dw][:-1] * (1 + 1e-12))
