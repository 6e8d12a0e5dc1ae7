"""Normalisation: QK-norm and LayerNorm scores, aligned dot products, the tiny training run."""

from __future__ import annotations

import numpy as np
import pytest

from attention_scaling.figures import NormalizationFigure
from attention_scaling.normalization import (
    MODES,
    aligned_dot_products,
    attention_scores,
    l2_normalize,
    layer_norm,
    train_retrieval,
)

SEED = 9


def test_l2_normalize_and_layer_norm():
    x = np.array([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(l2_normalize(x), [[0.6, 0.8], [0.0, 0.0]])
    y = layer_norm(np.array([[1.0, 2.0, 3.0, 4.0]]), eps=1e-12)
    assert y.mean() == pytest.approx(0, abs=1e-12) and y.std() == pytest.approx(1)
    z = layer_norm(np.ones((2, 3)) * [1.0, 2.0, 3.0], gain=np.full(3, 2.0), bias=np.ones(3))
    np.testing.assert_allclose(z.mean(axis=-1), 1.0)


@pytest.mark.parametrize("mode", MODES)
def test_scores_shapes_and_definitions(mode):
    rng = np.random.default_rng(SEED)
    q, k = rng.normal(size=(3, 16)), rng.normal(size=(5, 16))
    z = attention_scores(q, k, mode=mode, gain=4.0)
    assert z.shape == (3, 5) and np.isfinite(z).all()
    expected = {
        "unscaled": q @ k.T,
        "scaled": q @ k.T / 4.0,
        "mup": q @ k.T / 16.0,
        "qk-l2": 4.0 * l2_normalize(q) @ l2_normalize(k).T,
        "qk-layernorm": layer_norm(q) @ layer_norm(k).T / 4.0,
    }[mode]
    np.testing.assert_allclose(z, expected)


@pytest.mark.parametrize("mode", ["qk-l2", "qk-layernorm"])
def test_qk_norm_scores_ignore_magnitude(mode):
    rng = np.random.default_rng(SEED)
    q, k = rng.normal(size=(2, 32)), rng.normal(size=(6, 32))
    base = attention_scores(q, k, mode=mode)
    for m in (0.5, 10.0, 1e4):  # LayerNorm's eps only matters for much smaller vectors
        np.testing.assert_allclose(attention_scores(m * q, m * k, mode=mode), base, rtol=1e-4, atol=1e-9)
    if mode == "qk-l2":
        assert np.abs(attention_scores(1e4 * q, k, mode=mode, gain=3.0)).max() <= 3.0 + 1e-12


def test_aligned_dot_products_mean_grows_like_d():
    res = aligned_dot_products([16, 256], 0.5, n_pairs=4000, seed=SEED)
    np.testing.assert_allclose(res["mean"] / res["d_values"], 0.5, rtol=0.05)
    indep = aligned_dot_products([256], 0.0, n_pairs=4000, seed=SEED)
    assert abs(indep["mean"][0]) < 4 * np.sqrt(256 / 4000)


def test_train_retrieval_logs_and_determinism():
    a = train_retrieval(True, steps=20, lr=1.0, seed=SEED)
    b = train_retrieval(True, steps=20, lr=1.0, seed=SEED)
    for key in ("loss", "max logit", "entropy", "accuracy", "gain"):
        assert a[key].shape == (20,)
        np.testing.assert_array_equal(a[key], b[key])
    assert a["diverged_at"] == -1
    assert a["loss"][-5:].mean() < a["loss"][:5].mean()  # it learns
    # QK-norm: every logit is bounded by the gain of its step
    assert (a["max logit"] <= a["gain"] + 1e-9).all()
    plain = train_retrieval(False, steps=20, lr=1.0, seed=SEED)
    assert np.isnan(plain["gain"]).all()


def test_train_retrieval_divergence_is_reported_not_raised():
    log = train_retrieval(False, steps=400, lr=16.0, seed=1)
    assert log["diverged_at"] > 0
    assert np.isnan(log["loss"][log["diverged_at"]:]).all()
    assert np.isfinite(log["loss"][: log["diverged_at"]]).all()


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda: attention_scores(np.ones((2, 3)), np.ones((2, 4))), "K"),
        (lambda: attention_scores(np.ones((2, 3)), np.ones((2, 3)), mode="cosine"), "mode"),
        (lambda: attention_scores(np.ones((2, 3)), np.ones((2, 3)), mode="qk-l2", gain=0), "gain"),
        (lambda: layer_norm(np.ones((2, 3)), gain=np.ones(2)), "gain"),
        (lambda: l2_normalize([np.nan]), "x"),
        (lambda: aligned_dot_products([4], 1.5), "alignment"),
        (lambda: train_retrieval(True, steps=0), "steps"),
        (lambda: train_retrieval(True, lr=-1.0), "lr"),
        (lambda: train_retrieval(True, n_keys=1), "n_keys"),
    ],
)
def test_normalization_bad_input(call, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        call()


def test_normalization_figure_follows_the_modes():
    fig = NormalizationFigure()
    for mode in fig.MODES:
        for m in (0.1, 10.0):
            fig.update(magnitude=m, mode=mode)
            p = fig.state.weights
            np.testing.assert_allclose(fig.bars.get_data().values[0::2], p)
            assert fig.marker.get_data()[1][0] == pytest.approx(p.max())
            assert np.isfinite(p).all()
    with pytest.raises(ValueError, match="^mode"):
        fig.update(mode="none")
