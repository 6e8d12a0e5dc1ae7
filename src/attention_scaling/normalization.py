r"""Normalisation beyond :math:`1/\sqrt{d_k}`: temperature, QK-norm, LayerNorm, 1/d scaling,
and a tiny training run that shows attention logits growing.

Score modes for one query row ``q`` against keys ``K`` (see :func:`attention_scores`):

* ``"unscaled"`` – :math:`q\cdot k_j`;
* ``"scaled"`` – :math:`q\cdot k_j/\sqrt{d_k}` (Vaswani et al. 2017);
* ``"qk-l2"`` – :math:`g\,\hat q\cdot\hat k_j` with unit vectors and a gain ``g``
  (QK-norm, Henry et al. 2020);
* ``"qk-layernorm"`` – :math:`\mathrm{LN}(q)\cdot\mathrm{LN}(k_j)/\sqrt{d_k}`
  (LayerNorm on queries and keys, Dehghani et al. 2023);
* ``"mup"`` – :math:`q\cdot k_j/d_k` (the 1/d attention of μP, Yang et al. 2022).
"""

from __future__ import annotations

from typing import Any

import numbers

import numpy as np

from . import _validate as v
from .numerics import entropy, softmax

__all__ = [
    "MODES",
    "l2_normalize",
    "layer_norm",
    "attention_scores",
    "aligned_dot_products",
    "train_retrieval",
    "warmup_schedule",
]

MODES = ("unscaled", "scaled", "qk-l2", "qk-layernorm", "mup")


def l2_normalize(x, axis: int = -1, eps: float = 1e-12) -> np.ndarray:
    """``x`` divided by its Euclidean norm along ``axis`` (norms below ``eps`` count as ``eps``)."""
    arr = v.real_array(x, "x", dtype=np.float64)
    ax = v.axis_index(axis, arr.ndim)
    eps = v.positive_real(eps, "eps")
    # rescale by a power of two first: the squares of 1e200 overflow, those of 1e-200 underflow
    e = v.scale_exponent(arr, axis=ax)
    norm = np.ldexp(np.linalg.norm(np.ldexp(arr, -e), axis=ax, keepdims=True), e)
    return arr / np.maximum(norm, eps)


#: LayerNorm's default epsilon, added to the variance.
LAYER_NORM_EPS = 1e-5


def layer_norm(x, gain=None, bias=None, eps: float = LAYER_NORM_EPS) -> np.ndarray:
    r"""LayerNorm over the last axis: :math:`g\odot(x - \mu)/\sqrt{\sigma^2 + \epsilon} + b`."""
    arr = v.real_array(x, "x", dtype=np.float64)
    eps = v.positive_real(eps, "eps")
    # Rows larger than 1 are divided by a power of two first (exact), so that the mean and
    # the variance cannot overflow (LayerNorm of [1e200, -1e200, 0] is not 0); eps scales
    # with them. Smaller rows are left alone: there eps dominates any underflowed square.
    e = np.maximum(v.scale_exponent(arr, axis=-1), 0)
    scaled = np.ldexp(arr, -e)
    mu = scaled.mean(axis=-1, keepdims=True)
    var = scaled.var(axis=-1, keepdims=True)
    out = (scaled - mu) / np.sqrt(var + np.ldexp(eps, -2 * e))
    d = arr.shape[-1]
    if gain is not None:
        g = v.real_array(gain, "gain", dtype=np.float64)
        if g.shape != (d,):
            raise ValueError(f"gain must have shape ({d},), got {g.shape}")
        with np.errstate(over="ignore"):  # detected below
            out = out * g
    if bias is not None:
        b = v.real_array(bias, "bias", dtype=np.float64)
        if b.shape != (d,):
            raise ValueError(f"bias must have shape ({d},), got {b.shape}")
        with np.errstate(over="ignore"):
            out = out + b
    if not np.isfinite(out).all():
        raise ValueError("gain or bias is too large: the output overflows float64")
    return out


def attention_scores(Q, K, mode: str = "scaled", gain: float = 10.0) -> np.ndarray:
    r"""Attention logits ``(n_q, n_k)`` under one of :data:`MODES`.

    ``gain`` is the QK-norm gain :math:`g` (only used by ``"qk-l2"``): the logits then lie
    in :math:`[-g, g]` whatever the size of ``Q`` and ``K``.
    """
    q = v.real_array(Q, "Q", dtype=np.float64, min_ndim=2)
    k = v.real_array(K, "K", dtype=np.float64, min_ndim=2)
    if q.ndim != 2 or k.ndim != 2 or q.shape[1] != k.shape[1]:
        raise ValueError(f"K must be 2-D with as many columns as Q {q.shape}, got {k.shape}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    d = q.shape[1]
    if mode in ("unscaled", "scaled", "mup"):
        with np.errstate(over="ignore", invalid="ignore"):
            finite = np.isfinite(q @ k.T).all()
        if not finite:
            raise ValueError(f"Q and K give dot products that overflow float64 (largest |Q| "
                             f"{np.abs(q).max():.3g}, largest |K| {np.abs(k).max():.3g}); scale them down or use QK-norm")
    if mode == "unscaled":
        return q @ k.T
    if mode == "scaled":
        return q @ k.T / np.sqrt(d)
    if mode == "mup":
        return q @ k.T / d
    if mode == "qk-l2":
        return v.positive_real(gain, "gain") * (l2_normalize(q) @ l2_normalize(k).T)
    return layer_norm(q) @ layer_norm(k).T / np.sqrt(d)


def aligned_dot_products(d_values, alignment: float, n_pairs: int = 2000, seed: int = 0) -> dict:
    r"""Mean and standard deviation of :math:`q\cdot k` when k is correlated with q.

    Draws unit-variance ``q`` and ``k = ρ q + \sqrt{1-ρ^2}\,ε`` with correlation
    ``alignment`` ρ per component. Then :math:`\mathbb E[q\cdot k] = ρ d` grows like
    :math:`d`, not :math:`\sqrt d` — the situation μP's 1/d scaling is designed for.
    """
    d_list = v.increasing_ints(d_values, "d_values")
    if v.is_bool(alignment) or not isinstance(alignment, numbers.Real) or not 0 <= alignment <= 1:
        raise ValueError(f"alignment must be a number in [0, 1], got {alignment!r}")
    alignment = float(alignment)  # np.float32(0.5) computes like 0.5
    n_pairs = v.positive_int(n_pairs, "n_pairs")
    rng = v.generator(seed)
    mean, std = [], []
    for d in d_list:
        q = rng.standard_normal((n_pairs, d))
        k = alignment * q + np.sqrt(1 - alignment**2) * rng.standard_normal((n_pairs, d))
        dots = np.einsum("ij,ij->i", q, k)
        mean.append(dots.mean())
        std.append(dots.std())
    return {"d_values": np.array(d_list), "mean": np.array(mean), "std": np.array(std)}


def _l2_backward(x, grad_unit, eps=1e-12):
    """Gradient through u = x/|x| (row-wise): (g - u (u.g)) / |x|."""
    norm = np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), eps)
    u = x / norm
    return (grad_unit - u * np.sum(u * grad_unit, axis=-1, keepdims=True)) / norm


_LOG_KEYS = ("loss", "max logit", "entropy", "accuracy", "gain", "lr", "|W_q|", "|W_k|", "|dW_q|", "|dW_k|")


def _retrieval_forward(q, k, gain: float | None, d_k: int):
    """(q, k, logits, what the backward pass needs) for queries ``q`` (batch, d_k) and keys
    ``k`` (batch, n_keys, d_k), or None once anything is no longer finite."""
    if not (np.isfinite(q).all() and np.isfinite(k).all()):
        return None
    z, normed = _retrieval_logits(q, k, gain, d_k)
    return (q, k, z, normed) if np.isfinite(z).all() else None


def _retrieval_logits(q, k, gain: float | None, d_k: int):
    """The logits of :func:`train_retrieval`: scaled dot products, or with QK-norm (a ``gain``)
    ``gain`` times the cosines; also (q̂, k̂, cosines) for the backward pass, or None."""
    if gain is None:
        return np.einsum("bd,bnd->bn", q, k) / np.sqrt(d_k), None
    qn, kn = l2_normalize(q), l2_normalize(k)
    cos = np.einsum("bd,bnd->bn", qn, kn)
    return gain * cos, (qn, kn, cos)


def _loss_gradient(p, target):
    """dL/dz of the mean cross-entropy over the batch: (P - one-hot of the target) / batch."""
    dz = p.copy()
    dz[np.arange(len(target)), target] -= 1.0
    dz /= len(target)
    return dz


def _retrieval_backward(dz, q, k, gain: float, d_k: int, normed):
    """dL/dq, dL/dk and dL/dg (0 without QK-norm) from dL/dz, through :func:`_retrieval_logits`."""
    if normed is None:
        return np.einsum("bn,bnd->bd", dz, k) / np.sqrt(d_k), np.einsum("bn,bd->bnd", dz, q) / np.sqrt(d_k), 0.0
    qn, kn, cos = normed
    d_qn = gain * np.einsum("bn,bnd->bd", dz, kn)
    d_kn = gain * np.einsum("bn,bd->bnd", dz, qn)
    return _l2_backward(q, d_qn), _l2_backward(k, d_kn), np.sum(dz * cos)


def _log_step(log: dict, step: int, z, p, target, gain: float, lr: float, w_q, w_k) -> None:
    """One step's row of :func:`train_retrieval`'s log (before the step's update)."""
    loss = -np.log(np.maximum(p[np.arange(len(target)), target], 1e-300))
    log["loss"][step] = loss.mean()
    log["max logit"][step] = np.abs(z).max()
    log["entropy"][step] = entropy(p, axis=-1).mean()
    log["accuracy"][step] = np.mean(p.argmax(axis=-1) == target)
    log["gain"][step] = gain
    log["lr"][step] = lr
    log["|W_q|"][step] = np.linalg.norm(w_q)
    log["|W_k|"][step] = np.linalg.norm(w_k)


def train_retrieval(qk_norm: bool, steps: int = 300, lr: float = 2.0, d_model: int = 32, d_k: int = 32,
                    n_keys: int = 16, batch: int = 32, gain_init: float | None = None, seed: int = 0,
                    warmup: int = 0) -> dict:
    r"""Train one attention layer on a toy retrieval task with plain SGD, and log its logits.

    Each example is ``n_keys`` random unit-variance token vectors and a query that is a
    noisy copy of one of them; the loss is the cross-entropy of the attention weights
    against that token, :math:`L = -\ln P_{\text{target}}`. The trainable parameters are
    the projections :math:`W_q, W_k \in \mathbb R^{d_{model}\times d_k}` and, with QK-norm,
    the gain :math:`g` (initialised to ``gain_init``, default :math:`\sqrt{d_k}`, so that both
    variants start with logits of the same size). Without QK-norm the logits are
    :math:`(xW_q)\cdot(x_jW_k)/\sqrt{d_k}`; with it, :math:`g\,\widehat{xW_q}\cdot\widehat{x_jW_k}`.

    ``warmup`` is the number of steps of a linear learning-rate warm-up: step ``t`` uses
    ``warmup_schedule(steps, lr, warmup)[t]``, rising linearly from ``lr/warmup`` to ``lr``
    (``warmup=0``: the constant rate ``lr`` from the first step).

    Returns
    -------
    dict of ndarrays, one entry per step
        ``"loss"``, ``"max logit"`` (largest |logit| in the batch), ``"entropy"`` (mean
        attention entropy, nats), ``"accuracy"`` (share of queries whose largest weight is
        on the target), ``"gain"`` (QK-norm only, else NaN), ``"lr"`` (the step's learning
        rate), ``"|W_q|"`` and ``"|W_k|"`` (Frobenius norms of the projections before the
        step's update) and ``"|dW_q|"`` and ``"|dW_k|"`` (Frobenius norms of the step's
        updates, learning rate included). If the logits overflow to
        infinity, the run stops: ``"diverged_at"`` holds that step (else -1) and the later
        entries are NaN.
    """
    steps, d_model, d_k, batch = (v.positive_int(x, name) for x, name in
                                  ((steps, "steps"), (d_model, "d_model"), (d_k, "d_k"), (batch, "batch")))
    lr, n_keys = v.positive_real(lr, "lr"), v.positive_int(n_keys, "n_keys", minimum=2)
    gain = np.sqrt(d_k) if gain_init is None else v.positive_real(gain_init, "gain_init")
    rates = warmup_schedule(steps, lr, warmup)
    rng = v.generator(seed)
    w_q = rng.standard_normal((d_model, d_k)) / np.sqrt(d_model)
    w_k = rng.standard_normal((d_model, d_k)) / np.sqrt(d_model)
    log: dict[str, Any] = {k: np.full(steps, np.nan) for k in _LOG_KEYS} | {"diverged_at": -1}
    with np.errstate(over="ignore", invalid="ignore"):  # a diverging run is detected below
        for step in range(steps):
            lr = rates[step]
            x = rng.standard_normal((batch, n_keys, d_model))
            target = rng.integers(0, n_keys, size=batch)
            query = x[np.arange(batch), target] + 0.5 * rng.standard_normal((batch, d_model))
            forward = _retrieval_forward(query @ w_q, x @ w_k, gain if qk_norm else None, d_k)
            if forward is None:  # the logits overflowed
                log["diverged_at"] = step
                break
            q, k, z, normed = forward
            p = softmax(z, axis=-1)
            _log_step(log, step, z, p, target, gain if qk_norm else np.nan, lr, w_q, w_k)
            d_q, d_k_vec, d_gain = _retrieval_backward(_loss_gradient(p, target), q, k, gain, d_k, normed)
            if qk_norm:
                gain -= lr * d_gain
            step_q, step_k = lr * query.T @ d_q, lr * np.einsum("bnm,bnd->md", x, d_k_vec)
            log["|dW_q|"][step], log["|dW_k|"][step] = np.linalg.norm(step_q), np.linalg.norm(step_k)
            w_q -= step_q
            w_k -= step_k
    return log


def warmup_schedule(steps: int, lr: float, warmup: int = 0) -> np.ndarray:
    r"""Per-step learning rates with a linear warm-up: :math:`\eta_t = \eta\,\min(1, (t+1)/W)`.

    Step ``t`` (counted from 0) of ``steps`` uses :math:`\eta (t+1)/W` while
    :math:`t < W` = ``warmup`` and :math:`\eta` = ``lr`` afterwards, so the rate rises in
    equal increments from :math:`\eta/W` to :math:`\eta` at step :math:`W-1`.
    ``warmup=0`` gives the constant rate.
    """
    steps = v.positive_int(steps, "steps")
    lr = v.positive_real(lr, "lr")
    if isinstance(warmup, bool) or not isinstance(warmup, (int, np.integer)) or warmup < 0:
        raise ValueError(f"warmup must be a non-negative integer number of steps, got {warmup!r}")
    t = np.arange(1, steps + 1, dtype=np.float64)
    return lr * np.minimum(1.0, t / warmup) if warmup else np.full(steps, lr)

