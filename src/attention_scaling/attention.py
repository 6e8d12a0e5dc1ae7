r"""Single-head scaled dot-product attention in numpy, forward and backward.

Shapes: queries ``Q`` are ``(n_q, d_k)``, keys ``K`` are ``(n_k, d_k)``, values ``V`` are
``(n_k, d_v)``. The forward pass is

.. math::
    Z = s\,QK^\top,\qquad P = \operatorname{softmax}_{\text{rows}}(Z),\qquad O = PV,

with :math:`s = 1/\sqrt{d_k}` (scaled) or :math:`s = 1` (unscaled). The backward pass
is written out by hand, with the softmax handled through its Jacobian
:math:`J_i = \operatorname{diag}(P_i) - P_iP_i^\top` row by row:

.. math::
    \frac{\partial L}{\partial V} = P^\top G,\quad
    \frac{\partial L}{\partial P} = G V^\top,\quad
    \frac{\partial L}{\partial Z_i} = J_i \frac{\partial L}{\partial P_i},\quad
    \frac{\partial L}{\partial Q} = s\,\frac{\partial L}{\partial Z} K,\quad
    \frac{\partial L}{\partial K} = s\,\Big(\frac{\partial L}{\partial Z}\Big)^{\!\top} Q,

where :math:`G = \partial L/\partial O` is the gradient arriving from above.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .numerics import softmax, softmax_jacobian

__all__ = [
    "AttentionCache",
    "attention_forward",
    "attention_backward",
    "gradients_by_dimension",
    "gradient_rows",
    "GRADIENT_EXPERIMENT",
]


@dataclass(frozen=True)
class AttentionCache:
    """What the backward pass needs from the forward pass."""

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    scale: float
    Z: np.ndarray  # scores, (n_q, n_k)
    P: np.ndarray  # weights, (n_q, n_k)


def _scale_factor(scaled, d_k: int) -> float:
    if v.is_bool(scaled):  # True and np.True_ alike
        return 1.0 / np.sqrt(d_k) if scaled else 1.0
    return v.positive_real(scaled, "scaled")


def attention_forward(Q, K, V, scaled=True) -> tuple[np.ndarray, AttentionCache]:
    r"""Scaled dot-product attention :math:`O = \operatorname{softmax}(sQK^\top)V`.

    Parameters
    ----------
    Q : array_like, shape ``(n_q, d_k)``
    K : array_like, shape ``(n_k, d_k)``
    V : array_like, shape ``(n_k, d_v)``
    scaled : bool or float
        ``True`` multiplies the scores by :math:`1/\sqrt{d_k}`, ``False`` by 1; a positive
        number is used as the factor itself (an inverse temperature).

    Returns
    -------
    O : ndarray, shape ``(n_q, d_v)``
    cache : AttentionCache
        Input to :func:`attention_backward`.
    """
    q = v.real_array(Q, "Q", dtype=np.float64, min_ndim=2)
    k = v.real_array(K, "K", dtype=np.float64, min_ndim=2)
    val = v.real_array(V, "V", dtype=np.float64, min_ndim=2)
    for name, arr in (("Q", q), ("K", k), ("V", val)):
        if arr.ndim != 2:
            raise ValueError(f"{name} must be a 2-D array, got shape {arr.shape}")
    if k.shape[1] != q.shape[1]:
        raise ValueError(f"K must have d_k = {q.shape[1]} columns like Q, got shape {k.shape}")
    if val.shape[0] != k.shape[0]:
        raise ValueError(f"V must have one row per key ({k.shape[0]}), got shape {val.shape}")
    s = _scale_factor(scaled, q.shape[1])
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is detected and named below
        z = s * (q @ k.T)
        if not np.isfinite(z).all():
            z = (s * q) @ k.T  # s < 1 applied first may keep the scores finite
    if not np.isfinite(z).all():
        raise ValueError(f"Q and K give scores s*QK^T that overflow float64 (largest |Q| {np.abs(q).max():.3g}, "
                         f"largest |K| {np.abs(k).max():.3g}, s = {s:.3g}); scale Q and K down")
    p = softmax(z, axis=-1)
    with np.errstate(over="ignore", invalid="ignore"):
        out = p @ val
    if not np.isfinite(out).all():
        raise ValueError(f"V is too large: the output P V overflows float64 (largest |V| {np.abs(val).max():.3g})")
    return out, AttentionCache(q, k, val, s, z, p)


def attention_backward(G, cache: AttentionCache) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gradients of a loss with respect to Q, K and V, given ``G`` = dL/dO.

    Parameters
    ----------
    G : array_like, shape ``(n_q, d_v)``
        Gradient of the loss with respect to the output ``O``.
    cache : AttentionCache
        From :func:`attention_forward`.

    Returns
    -------
    dQ, dK, dV : ndarrays shaped like Q, K and V
    """
    if not isinstance(cache, AttentionCache):
        raise ValueError(f"cache must come from attention_forward, got {type(cache).__name__}")
    g = v.real_array(G, "G", dtype=np.float64, min_ndim=2)
    expected = (cache.P.shape[0], cache.V.shape[1])
    if g.shape != expected:
        raise ValueError(f"G must have the shape of the output {expected}, got {g.shape}")
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is detected and named below
        dV = cache.P.T @ g
        dP = g @ cache.V.T
        jac = softmax_jacobian(cache.P)  # (n_q, n_k, n_k), one Jacobian per query row
        dZ = np.einsum("qij,qj->qi", jac, dP)
        dQ = cache.scale * dZ @ cache.K
        dK = cache.scale * dZ.T @ cache.Q
    if not all(np.isfinite(x).all() for x in (dQ, dK, dV)):
        raise ValueError(f"G is too large: the gradients overflow float64 (largest |G| {np.abs(g).max():.3g})")
    return dQ, dK, dV


def _experiment_setup(d_values, magnitude, n_queries, n_keys, d_v, trials):
    """Validated arguments shared by the gradient experiments (ValueError names the parameter)."""
    return (v.increasing_ints(d_values, "d_values"), v.positive_real(magnitude, "magnitude"),
            v.positive_int(n_queries, "n_queries"), v.positive_int(n_keys, "n_keys", minimum=2),
            v.positive_int(d_v, "d_v"), v.positive_int(trials, "trials"))


def gradients_by_dimension(d_values, magnitude: float = 1.0, n_queries: int = 32, n_keys: int = 32,
                           d_v: int = 16, trials: int = 8, seed: int = 0, saturation: float = 0.99) -> dict:
    r"""The gradients reaching Q and K as d_k grows, scaled vs unscaled.

    For every dimension and trial, draws Q and K with :math:`\mathcal N(0, m^2)`
    components, V and the upstream gradient G with standard normal components, and runs
    the forward and backward passes. Reports, pooled over trials: the mean and the median
    over query rows of the row norm :math:`\lVert \partial L/\partial q_i\rVert_2`, the
    mean row norm of :math:`\partial L/\partial k_j`, and the fraction of query rows whose
    largest weight exceeds ``saturation``.

    Returns
    -------
    dict
        ``{"d_values": ndarray, "saturation": float, "scaled": {...}, "unscaled": {...}}``
        where each inner dict
        has ``"mean |dq|"``, ``"median |dq|"``, ``"mean |dk|"`` and ``"saturated rows"``
        arrays (one entry per dimension).
    """
    d_list, m, n_queries, n_keys, d_v, trials = _experiment_setup(d_values, magnitude, n_queries, n_keys, d_v,
                                                                  trials)
    saturation = v.positive_real(saturation, "saturation")
    if saturation >= 1:
        raise ValueError(f"saturation must be below 1, got {saturation}")
    rng = v.generator(seed)
    keys = ("mean |dq|", "median |dq|", "mean |dk|", "saturated rows")
    out: dict[str, Any] = {"d_values": np.array(d_list), "saturation": saturation,
           "scaled": {k: np.zeros(len(d_list)) for k in keys},
           "unscaled": {k: np.zeros(len(d_list)) for k in keys}}
    for i, d in enumerate(d_list):
        pooled: dict[str, tuple[list, list, list]] = {"scaled": ([], [], []), "unscaled": ([], [], [])}
        for _ in range(trials):
            q, k, val, g = _trial(rng, m, n_queries, n_keys, d, d_v)
            for name, flag in (("scaled", True), ("unscaled", False)):
                cache = _forward(q, k, val, flag, m, d)
                dq, dk, _ = attention_backward(g, cache)
                pooled[name][0].append(np.linalg.norm(dq, axis=1))
                pooled[name][1].append(np.linalg.norm(dk, axis=1))
                pooled[name][2].append(cache.P.max(axis=1) > saturation)
        for name, (dqs, dks, sats) in pooled.items():
            dq_rows, dk_rows = np.concatenate(dqs), np.concatenate(dks)
            out[name]["mean |dq|"][i] = dq_rows.mean()
            out[name]["median |dq|"][i] = np.median(dq_rows)
            out[name]["mean |dk|"][i] = dk_rows.mean()
            out[name]["saturated rows"][i] = np.concatenate(sats).mean()
    return out


def _trial(rng, m: float, n_queries: int, n_keys: int, d: int, d_v: int):
    """One trial of the gradient experiments, drawn in this order (the seeded results depend on
    it): queries and keys with components of standard deviation ``m``, standard-normal values,
    and the standard-normal upstream gradient."""
    q = m * rng.standard_normal((n_queries, d))
    k = m * rng.standard_normal((n_keys, d))
    return q, k, rng.standard_normal((n_keys, d_v)), rng.standard_normal((n_queries, d_v))


def _forward(q, k, val, scaled: bool, m: float, d: int):
    """The cache of attention_forward for an experiment's draw; scores that overflow are the
    caller's ``magnitude`` (the argument it passed), not the Q and K drawn from it."""
    try:
        return attention_forward(q, k, val, scaled=scaled)[1]
    except ValueError as err:
        raise ValueError(f"magnitude={m:g} is too large at d_k = {d}: {err}") from None


def gradient_rows(d_values, magnitude: float = 1.0, n_queries: int = 32, n_keys: int = 32,
                  d_v: int = 16, trials: int = 8, seed: int = 0) -> dict:
    r"""Row by row, the factors of the gradient that reaches each query.

    Draws exactly what :func:`gradients_by_dimension` draws with the same arguments (same
    generator, same order), so its rows pool to that function's statistics. For query row
    :math:`i`, :math:`\partial L/\partial q_i = s\sum_j (\partial L/\partial Z)_{ij}\,k_j`, so

    .. math::
        \lVert\partial L/\partial q_i\rVert = s\,\bar k \cdot
        \lVert\partial L/\partial Z_i\rVert \cdot c_i,
        \qquad \bar k = \Big(\tfrac1{n_k}\sum_j \lVert k_j\rVert^2\Big)^{1/2},

    the key factor :math:`s\bar k` (about :math:`s\,m\sqrt{d_k}`), the softmax factor
    :math:`\lVert\partial L/\partial Z_i\rVert = \lVert J_i\,\partial L/\partial P_i\rVert`,
    and a geometric factor :math:`c_i` (about 1 when the keys are nearly orthogonal).

    Returns
    -------
    dict
        ``{"d_values": ndarray, "scaled": {...}, "unscaled": {...}}``; each inner dict holds
        arrays of shape ``(len(d_values), trials, n_queries)``: ``"|dq|"``, ``"s|k|"`` (the
        key factor, the same for every row of a trial), ``"|dz|"`` (the softmax factor),
        ``"|dp|"`` (:math:`\lVert\partial L/\partial P_i\rVert`), ``"|J|"`` (the spectral
        norm of the row's Jacobian), ``"max weight"``, and ``"gap"`` (the largest score of
        the row minus the second largest, after scaling).
    """
    d_list, m, n_queries, n_keys, d_v, trials = _experiment_setup(d_values, magnitude, n_queries, n_keys, d_v,
                                                                  trials)
    rng = v.generator(seed)
    names = ("|dq|", "s|k|", "|dz|", "|dp|", "|J|", "max weight", "gap")
    shape = (len(d_list), trials, n_queries)
    out: dict[str, Any] = {"d_values": np.array(d_list),
           "scaled": {k: np.zeros(shape) for k in names},
           "unscaled": {k: np.zeros(shape) for k in names}}
    for i, d in enumerate(d_list):
        for t in range(trials):
            q, k, val, g = _trial(rng, m, n_queries, n_keys, d, d_v)
            for name, flag in (("scaled", True), ("unscaled", False)):
                cache = _forward(q, k, val, flag, m, d)
                dq, _, _ = attention_backward(g, cache)
                dp = g @ val.T
                jac = softmax_jacobian(cache.P)
                dz = np.einsum("qij,qj->qi", jac, dp)
                top2 = np.sort(cache.Z, axis=1)[:, -2:]
                row = out[name]
                row["|dq|"][i, t] = np.linalg.norm(dq, axis=1)
                row["s|k|"][i, t] = cache.scale * np.sqrt(np.mean(np.sum(k * k, axis=1)))
                row["|dz|"][i, t] = np.linalg.norm(dz, axis=1)
                row["|dp|"][i, t] = np.linalg.norm(dp, axis=1)
                row["|J|"][i, t] = np.linalg.norm(jac, ord=2, axis=(1, 2))
                row["max weight"][i, t] = cache.P.max(axis=1)
                row["gap"][i, t] = top2[:, 1] - top2[:, 0]
    return out


#: The experiment of the chapter "Follow the gradient" (magnitude, rows, keys, d_v, trials and
#: seed). Pages that quote its numbers call ``gradient_rows(D_VALUES, **GRADIENT_EXPERIMENT)``
#: or ``gradients_by_dimension(D_VALUES, **GRADIENT_EXPERIMENT)``, so that they agree.
GRADIENT_EXPERIMENT = {"magnitude": 1.0, "n_queries": 32, "n_keys": 32, "d_v": 16, "trials": 8, "seed": 11}
