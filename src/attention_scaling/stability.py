r"""Numerical stability of the softmax: where the formula breaks, and how not to break it.

The naive softmax :math:`e^{z_i} / \sum_j e^{z_j}` returns ``inf`` or NaN long before
the scores are large by any mathematical standard: :math:`e^z` overflows a format once
:math:`z > \ln(\text{max})` (about 11.09 in float16). This module finds those
breakpoints exactly, provides the stable forms (max subtraction, log-sum-exp,
log-softmax), a masked softmax whose fully masked rows are zero rather than NaN, and
measures how often attention scores would cross the float16 threshold.

Every result keeps the floating dtype of its input (float16, float32 or float64;
integers become float64); sums of exponentials of float16 input accumulate in float32,
as GPU kernels do. Every public function validates its arguments and raises
:class:`ValueError` whose message starts with the parameter's name.
"""

from __future__ import annotations

from typing import Any

import math
import numbers
from decimal import Context, Decimal

import numpy as np

from . import _validate as v
from .numerics import draw_queries_keys

__all__ = [
    "naive_softmax",
    "overflow_threshold",
    "underflow_threshold",
    "naive_breakpoint",
    "logsumexp",
    "log_softmax",
    "masked_softmax",
    "masked_softmax_backward",
    "exact_logsumexp",
    "exact_log_softmax",
    "softmax_errors",
    "overflow_fraction",
]

_MAX_N = 10**6  # n equal scores are materialised; keep the search's arrays small


def _float_dtype(dtype) -> np.dtype:
    """A dtype argument: a numpy float dtype, its type, or its name ("float16")."""
    return v.float_dtype(dtype)


def naive_softmax(z, axis: int = -1) -> np.ndarray:
    r"""The softmax exactly as the formula reads: ``exp(z) / exp(z).sum(axis)``.

    Nothing is subtracted first, so the result is ``inf`` or NaN wherever the formula
    breaks down in the input's precision: an :math:`e^{z_i}` or the sum overflows, or
    every term underflows to 0 (:math:`0/0`). This is the function the book breaks on
    purpose; numpy's overflow and invalid-value warnings are silenced.

    Parameters
    ----------
    z : array_like, shape ``(..., k, ...)``
        Scores, in float16, float32 or float64 (integers become float64). ``-inf``
        (a masked score) is allowed; ``+inf`` and NaN are rejected.
    axis : int
        Axis to normalise over (default: last).

    Returns
    -------
    ndarray, same shape and dtype as ``z``
        Possibly ``inf`` or NaN.
    """
    arr = v.real_array(z, "z", allow_neg_inf=True)
    ax = v.axis_index(axis, arr.ndim)
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        e = np.exp(arr)
        return e / e.sum(axis=ax, keepdims=True)


def naive_row_failures(z, axis: int = -1) -> np.ndarray:
    r"""Which rows the naive softmax breaks, in the input's precision.

    A row is broken when :func:`naive_softmax` does not return weights that sum to 1: an
    :math:`e^{z_i}` overflows (its weight is NaN), the sum of finite terms overflows
    (every weight is 0), or every term underflows (:math:`0/0`).

    Parameters
    ----------
    z : array_like, shape ``(..., k, ...)``
        Scores in float16, float32 or float64, as for :func:`naive_softmax`.
    axis : int
        The axis of a row (default: last).

    Returns
    -------
    ndarray of bool
        The shape of ``z`` without ``axis``: True where the row is broken.
    """
    arr = v.real_array(z, "z", allow_neg_inf=True)
    ax = v.axis_index(axis, arr.ndim)
    p = naive_softmax(arr, axis=ax)
    finite = np.isfinite(p).all(axis=ax)
    with np.errstate(invalid="ignore"):
        total = p.astype(np.float64).sum(axis=ax)
    return ~(finite & (total > 0.5))


def naive_row_failure_rate(d_k, n_keys: int = 256, n_rows: int = 20_000, dtype=np.float16,
                           magnitude: float = 1.0, scaled: bool = False, seed: int = 0):
    r"""Share of independent attention rows that the naive softmax breaks, with its standard error.

    Each row is a fresh query against ``n_keys`` fresh keys, all with i.i.d.
    :math:`\mathcal N(0, m^2)` components (``np.random.default_rng(seed)``, drawn in
    blocks of at most 1000 rows: the queries, then the keys). The scores
    :math:`q\cdot k` (divided by :math:`\sqrt{d_k}` if ``scaled``) are formed in float64,
    rounded to ``dtype`` and put through :func:`naive_softmax`; a row counts as broken as
    in :func:`naive_row_failures`, so a row whose sum overflows with no single term
    overflowing counts too. The rows are independent, so the standard error is the
    binomial :math:`\sqrt{p(1-p)/n}`.

    Returns
    -------
    tuple of float
        ``(share, standard error)``.
    """
    d = v.positive_int(d_k, "d_k")
    n_keys = v.positive_int(n_keys, "n_keys")
    n_rows = v.positive_int(n_rows, "n_rows")
    dt = _float_dtype(dtype)
    m = v.positive_real(magnitude, "magnitude")
    seed = v.positive_int(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    broken = 0
    for start in range(0, n_rows, 1000):
        rows = min(1000, n_rows - start)
        q = m * rng.standard_normal((rows, d))
        k = m * rng.standard_normal((rows, n_keys, d))
        z = np.einsum("rd,rkd->rk", q, k)
        if scaled:
            z = z / math.sqrt(d)
        with np.errstate(over="ignore"):
            broken += int(naive_row_failures(z.astype(dt)).sum())
    share = broken / n_rows
    return share, math.sqrt(share * (1 - share) / n_rows)


def overflow_threshold(dtype, n: int = 1) -> float:
    r"""The score above which :math:`n` equal terms :math:`e^z` overflow: :math:`\ln(\text{max}) - \ln n`.

    ``max`` is ``numpy.finfo(dtype).max``. With ``n = 1`` this is where :math:`e^z`
    itself overflows; with ``n`` equal scores the sum :math:`n e^z` overflows first.

    Parameters
    ----------
    dtype : float16, float32 or float64
    n : int >= 1
        Number of equal scores.

    Returns
    -------
    float
        Computed in float64 from ``finfo``.
    """
    dt = _float_dtype(dtype)
    n = v.positive_int(n, "n")
    return _ln(Decimal(float(np.finfo(dt).max)) / n)


def underflow_threshold(dtype) -> float:
    r"""The score below which :math:`e^z` rounds to 0: :math:`\ln(\text{smallest subnormal} / 2)`.

    A positive number smaller than half the smallest subnormal rounds to 0 (to nearest),
    so below this score every :math:`e^{z_j}` vanishes and the naive softmax is
    :math:`0/0`.

    Parameters
    ----------
    dtype : float16, float32 or float64

    Returns
    -------
    float
        Correctly rounded to float64 (``s / 2`` is 0 in float64, and ``log(s) - log(2)``
        can be one step off: it gives -745.1332191019411 for float64, where the value is
        -745.13321910194120...).
    """
    dt = _float_dtype(dtype)
    return _ln(Decimal(float(np.finfo(dt).smallest_subnormal)) / 2)


def _ln(x: Decimal) -> float:
    """ln x of an exact positive decimal, correctly rounded to float64 (40 digits, then one rounding)."""
    return float(x.ln(Context(prec=40)))


def _positive_floats(dt: np.dtype):
    """Bit patterns of the positive finite floats of ``dt``: their order is the floats' order."""
    uint = {2: np.uint16, 4: np.uint32, 8: np.uint64}[dt.itemsize]
    top = int(np.array(np.finfo(dt).max, dtype=dt).view(uint))

    def value(bits: int):
        return np.array(bits, dtype=uint).view(dt)[()]

    return top, value


def naive_breakpoint(dtype, n: int = 1, side: str = "overflow") -> float:
    r"""The first representable score at which :func:`naive_softmax` of ``n`` equal scores fails.

    For ``n`` equal scores :math:`(z, \dots, z)` the right answer is :math:`1/n` in every
    position. The naive softmax *fails* when it returns anything else: ``inf`` or NaN
    (an overflowing :math:`e^z` gives :math:`\infty/\infty`, an underflowing one
    :math:`0/0`), or weights that no longer sum to 1 (an overflowing *sum* gives
    :math:`e^z/\infty = 0`: finite, and silently wrong).

    The search is a bisection over the bit patterns of the positive floats of ``dtype``
    (their integer order is their numerical order), so it is exact: the score returned
    fails, and the representable score just before it does not.

    Parameters
    ----------
    dtype : float16, float32 or float64
    n : int >= 1
        Number of equal scores. At most :math:`10^6`, and below ``finfo(dtype).max``
        (otherwise even :math:`z = 0` overflows the sum).
    side : "overflow" or "underflow"
        ``"overflow"``: the smallest :math:`z > 0` at which :math:`e^z` or the sum
        overflows. ``"underflow"``: the largest :math:`z < 0` at which every term
        rounds to 0 and the softmax is :math:`0/0`.

    Returns
    -------
    float
        The breakpoint (a value of ``dtype``, returned as a Python float). Compare it with
        :func:`overflow_threshold` or :func:`underflow_threshold`.
    """
    dt = _float_dtype(dtype)
    n = v.positive_int(n, "n")
    if n > _MAX_N:
        raise ValueError(f"n must be <= {_MAX_N}, got {n}")
    if n >= float(np.finfo(dt).max):
        raise ValueError(f"n must be below finfo({dt}).max = {float(np.finfo(dt).max):g}, got {n}")
    if side not in ("overflow", "underflow"):
        raise ValueError(f"side must be 'overflow' or 'underflow', got {side!r}")
    sign = 1 if side == "overflow" else -1
    top, value = _positive_floats(dt)

    def fails(bits: int) -> bool:
        p = naive_softmax(np.full(n, sign * value(bits), dtype=dt))
        return not np.isfinite(p).all() or abs(float(p.astype(np.float64).sum()) - 1) > 0.5

    lo, hi = 0, top  # invariant: fails(lo) is False, fails(hi) is True
    if fails(lo) or not fails(hi):  # pragma: no cover - impossible for the three formats
        raise RuntimeError(f"no breakpoint bracketed for {dt}, n={n}, side={side}")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fails(mid):
            hi = mid
        else:
            lo = mid
    return float(sign * value(hi))


def _acc(dt: np.dtype) -> np.dtype:
    """Accumulator for sums of exponentials: float32 for float16 input, as GPU kernels do."""
    return np.dtype(np.float32) if dt == np.float16 else dt


def _shift(arr: np.ndarray, ax: int):
    r"""``arr - max`` along ``ax``, with the max (``-inf`` for an all ``-inf`` slice) kept apart.

    In a slice whose scores are all ``-inf`` the shift uses 0 instead, so no
    :math:`-\infty - (-\infty)` is ever formed. float16 differences that overflow
    round to ``-inf``, whose exponential is the correct 0.
    """
    top = arr.max(axis=ax, keepdims=True)
    finite = np.isfinite(top)
    with np.errstate(over="ignore"):
        shifted = arr - np.where(finite, top, 0).astype(arr.dtype)
    return shifted, top, finite


def logsumexp(z, axis: int = -1) -> np.ndarray:
    r"""Stable :math:`\log \sum_j e^{z_j}` along ``axis``, as :math:`m + \log\sum_j e^{z_j - m}`.

    With :math:`m = \max_j z_j`, every exponent is :math:`\le 0` and one of them is 0,
    so the sum lies in :math:`[1, k]` and neither overflows nor underflows, at any size
    of the scores. A slice whose scores are all ``-inf`` gives ``-inf`` (:math:`\log 0`).

    Parameters
    ----------
    z : array_like, shape ``(..., k, ...)``
        Scores, float16, float32 or float64 (integers become float64). ``-inf`` is
        allowed; ``+inf`` and NaN are rejected.
    axis : int
        Axis to reduce (default: last).

    Returns
    -------
    ndarray
        Shape of ``z`` without ``axis``, dtype of ``z``.
    """
    arr = v.real_array(z, "z", allow_neg_inf=True)
    ax = v.axis_index(axis, arr.ndim)
    shifted, top, finite = _shift(arr, ax)
    rest = _rest(shifted, ax)
    with np.errstate(divide="ignore", over="ignore"):  # log 0 = -inf in an all -inf slice
        out = np.where(finite, top + np.log1p(rest), top)
    return np.squeeze(out, axis=ax).astype(arr.dtype)


def _rest(shifted: np.ndarray, ax: int) -> np.ndarray:
    r""":math:`\sum_j e^{z_j - m} - 1`, the sum without the largest score's exact 1, so that
    :math:`\log\sum_j e^{z_j-m}` is ``log1p(rest)``: near saturation the sum is
    :math:`1 + 10^{-20}`, which rounds to 1, and its log to 0, while log1p keeps every digit."""
    e = np.exp(shifted).astype(_acc(shifted.dtype))
    first_top = np.expand_dims(np.argmax(shifted, axis=ax), ax)
    is_top = np.arange(shifted.shape[ax]).reshape([-1 if i == ax else 1 for i in range(shifted.ndim)]) == first_top
    return np.where(is_top, 0, e).sum(axis=ax, keepdims=True)


def log_softmax(z, axis: int = -1) -> np.ndarray:
    r"""Stable :math:`\log \operatorname{softmax}(z)_i = (z_i - m) - \log\sum_j e^{z_j - m}`.

    Unlike ``np.log(softmax(z))``, it stays finite where a weight underflows to 0:
    ``log_softmax([0, -1000])`` is :math:`(-e^{-1000}, -1000)` to rounding, not
    :math:`(0, -\infty)`. A ``-inf`` score gives ``-inf``.

    Parameters
    ----------
    z : array_like, shape ``(..., k, ...)``
        Scores, float16, float32 or float64. ``-inf`` is allowed, but every slice needs
        at least one finite score (a fully masked slice has no softmax; see
        :func:`masked_softmax`).
    axis : int
        Axis to normalise over (default: last).

    Returns
    -------
    ndarray, same shape and dtype as ``z``
        Values :math:`\le 0`.
    """
    arr = v.real_array(z, "z", allow_neg_inf=True)
    ax = v.axis_index(axis, arr.ndim)
    shifted, _, finite = _shift(arr, ax)
    if not finite.all():
        raise ValueError(
            "z must have at least one finite score in every slice along axis "
            "(a fully masked slice has no log-softmax; use masked_softmax)"
        )
    with np.errstate(over="ignore"):  # float16: -65504 - log(k) rounds to -inf, correctly tiny
        return (shifted - np.log1p(_rest(shifted, ax))).astype(arr.dtype)


def _fill_value(fill, dt: np.dtype) -> float:
    if isinstance(fill, bool) or not isinstance(fill, numbers.Real):
        raise ValueError(f"fill must be a real number or -inf, got {fill!r}")
    fill = float(fill)
    if math.isnan(fill) or fill == math.inf:
        raise ValueError(f"fill must be finite or -inf, got {fill}")
    if math.isfinite(fill):
        with np.errstate(over="ignore"):
            cast = np.array(fill, dtype=dt)
        if not np.isfinite(cast):
            low = float(np.finfo(dt).min)
            raise ValueError(f"fill={fill:g} rounds to -inf in {dt}; use -inf or a value >= {low:g}")
    return fill


def masked_softmax(z, mask, axis: int = -1, fill=-np.inf) -> np.ndarray:
    r"""Softmax over the kept positions only; masked weights are exactly 0, and a fully masked slice is all 0.

    With the default ``fill = -inf``, position :math:`i` gets
    :math:`e^{z_i - m} / \sum_{j \text{ kept}} e^{z_j - m}` if it is kept, where
    :math:`m` is the largest kept score, and exactly 0 if it is masked. A slice with no
    kept position (or whose kept scores are all ``-inf``) attends to nothing: its weights
    are all 0, not NaN. Then the attention output of that row is the zero vector and its
    gradient (:func:`masked_softmax_backward`) is exactly 0, so one empty row cannot
    poison a batch. The scores at masked positions are never used.

    A finite ``fill`` reproduces the other common recipe: write ``fill`` (say
    ``finfo(dtype).min``) into the masked positions and take an ordinary stable softmax.
    Masked weights are then :math:`e^{\text{fill} - m}` (0 after rounding only if the fill
    is far enough below the kept scores), and a fully masked slice gets *uniform* weights
    :math:`1/k` over positions that were meant to be ignored. The result is finite, but it
    is not the zero row of the default.

    Parameters
    ----------
    z : array_like, shape ``(..., k, ...)``
        Scores, float16, float32 or float64 (integers become float64). ``-inf`` is
        allowed and acts as a masked score; ``+inf`` and NaN are rejected.
    mask : array_like of bool
        ``True`` = keep, ``False`` = mask. Must broadcast to ``z.shape``.
    axis : int
        Axis to normalise over (default: last).
    fill : float or -inf
        Score written into masked positions. ``-inf`` (default) gives exact zeros; a
        finite value must be representable in ``z``'s dtype (``-1e9`` is not, in float16).

    Returns
    -------
    ndarray, same shape and dtype as ``z``
        Finite, in [0, 1]; each slice sums to 1 or (fully masked, ``fill = -inf``) to 0.
    """
    arr = v.real_array(z, "z", allow_neg_inf=True)
    ax = v.axis_index(axis, arr.ndim)
    m = np.asarray(mask)
    if m.dtype != np.bool_:
        raise ValueError(f"mask must be a boolean array (True = keep), got dtype {m.dtype}")
    try:
        shape = np.broadcast_shapes(m.shape, arr.shape)
    except ValueError:
        shape = None
    if shape != arr.shape:
        raise ValueError(f"mask of shape {m.shape} does not broadcast to the shape of z, {arr.shape}")
    fill = _fill_value(fill, arr.dtype)
    filled = np.where(m, arr, np.array(fill, dtype=arr.dtype))
    shifted, _, _ = _shift(filled, ax)  # -inf stays -inf, and its exponential is 0
    e = np.exp(shifted)
    total = e.sum(axis=ax, keepdims=True, dtype=_acc(arr.dtype))
    return (e / np.where(total > 0, total, 1)).astype(arr.dtype)


def masked_softmax_backward(p, grad, axis: int = -1) -> np.ndarray:
    r"""Gradient with respect to the scores, :math:`\partial L/\partial z = P \odot (g - \langle P, g\rangle)`.

    This is :math:`J g` with the softmax Jacobian :math:`J = \operatorname{diag}(P) - PP^\top`
    (symmetric, so the vector–Jacobian product is :math:`Jg`), applied slice by slice.
    It is computed in float64 on :math:`g` minus its entry under the largest weight (which
    changes nothing, since :math:`J\mathbb 1 = 0`), so that a saturated slice keeps its tiny
    gradient instead of cancelling it to 0, and on :math:`g/2^e` scaled back, so that no
    intermediate overflows. A result too large for the dtype of ``p`` raises ValueError.
    It is exact for :func:`masked_softmax` too: masked positions have :math:`P_i = 0` and
    get gradient 0, and an all-zero (fully masked) slice gets an all-zero gradient.

    Parameters
    ----------
    p : array_like, shape ``(..., k, ...)``
        Weights from a softmax or :func:`masked_softmax`: in [0, 1], each slice along
        ``axis`` summing to 1 or all zero.
    grad : array_like, same shape as ``p``
        :math:`g = \partial L/\partial P`, finite.
    axis : int
        The softmax axis (default: last).

    Returns
    -------
    ndarray, same shape as ``p``
        In the dtype of ``p``.
    """
    arr = v.real_array(p, "p")
    ax = v.axis_index(axis, arr.ndim)
    if (arr < 0).any() or (arr > 1).any():
        raise ValueError("p must lie in [0, 1]")
    total = arr.astype(np.float64).sum(axis=ax)
    tol = max(1e-9, 16 * float(np.finfo(arr.dtype).eps) * arr.shape[ax])
    if not (np.isclose(total, 1, rtol=0, atol=tol) | (total == 0)).all():
        raise ValueError(f"p must sum to 1 (or be all zero, a fully masked slice) along axis {axis}")
    g = v.real_array(grad, "grad")
    if g.shape != arr.shape:
        raise ValueError(f"grad must have the shape of p, {arr.shape}, got {g.shape}")
    # Work in float64 on grad / 2**e (exact): a float16 grad of 1e5 is inf, and even in float64
    # g_i - <P, g> can overflow where the answer P_i (g_i - <P, g>), at most max|g| / 2, does not.
    p64, g64 = arr.astype(np.float64), g.astype(np.float64)
    e = v.scale_exponent(g64, axis=ax)
    unit = np.ldexp(g64, -e)
    # Centre g at its entry under the largest weight (shift invariance: J 1 = 0). Otherwise,
    # near saturation, g_t - <P, g> = g_t - (P_t g_t + ...) cancels like 1 - P_t and returns 0
    # for a gradient of P_t sum_j P_j (g_t - g_j); centred, the P_t term is exactly 0.
    top = np.expand_dims(np.argmax(p64, axis=ax), ax)
    h = unit - np.take_along_axis(unit, top, axis=ax)
    out = np.ldexp(p64 * (h - (p64 * h).sum(axis=ax, keepdims=True)), e)
    with np.errstate(over="ignore"):
        cast = out.astype(arr.dtype)
    if not np.isfinite(cast).all():
        raise ValueError(f"grad is too large: the gradient (largest |value| {np.abs(out).max():.3g}) "
                         f"overflows {arr.dtype}, the dtype of p")
    return cast


_EXACT_DIGITS = 40


def _exact_rows(z, axis):
    """Validated float scores, moved so that ``axis`` is last, as a 2-D float64 array."""
    arr = v.real_array(z, "z")
    ax = v.axis_index(axis, arr.ndim)
    if arr.size > 10**6:
        raise ValueError(f"z must have at most 10**6 scores for the exact reference, got {arr.size}")
    moved = np.moveaxis(arr.astype(np.float64), ax, -1)
    return moved.reshape(-1, moved.shape[-1]), moved.shape, ax


def _digits(rows: np.ndarray) -> int:
    """Working digits: 40 beyond the integer part of the largest score, so that
    ``z_i - logsumexp(z)`` keeps 40 significant digits even for scores near 1e308."""
    return _EXACT_DIGITS + int(math.log10(max(1.0, float(np.abs(rows).max())))) + 1


def _exact_lse(row):
    import mpmath

    return mpmath.log(mpmath.fsum(mpmath.exp(mpmath.mpf(float(x))) for x in row))


def exact_logsumexp(z, axis: int = -1) -> np.ndarray:
    r"""Reference :math:`\log\sum_j e^{z_j}` with 40 significant digits (mpmath), rounded to float64.

    The scores are taken exactly as given (a float16 score is the float16 number it
    holds). Use it to measure the error of :func:`logsumexp` in every format, float64
    included. Slow: about a microsecond per score.

    Parameters
    ----------
    z : array_like, shape ``(..., k, ...)``
        Finite scores, at most :math:`10^6` of them.
    axis : int

    Returns
    -------
    ndarray of float64
        Shape of ``z`` without ``axis``.
    """
    import mpmath

    rows, shape, _ = _exact_rows(z, axis)
    with mpmath.workdps(_digits(rows)):
        out = np.array([float(_exact_lse(row)) for row in rows])
    return out.reshape(shape[:-1])


def exact_log_softmax(z, axis: int = -1) -> np.ndarray:
    r"""Reference :math:`z_i - \log\sum_j e^{z_j}` with 40 significant digits (mpmath), rounded to float64.

    Parameters
    ----------
    z : array_like, shape ``(..., k, ...)``
        Finite scores, at most :math:`10^6` of them.
    axis : int

    Returns
    -------
    ndarray of float64, same shape as ``z``
    """
    import mpmath

    rows, shape, ax = _exact_rows(z, axis)
    with mpmath.workdps(_digits(rows)):
        out = []
        for row in rows:
            lse = _exact_lse(row)
            out.append([float(mpmath.mpf(float(x)) - lse) for x in row])
    return np.moveaxis(np.array(out).reshape(shape), -1, ax)


def _exact_softmax(z: np.ndarray) -> np.ndarray:
    """Softmax of float64 values in 40-digit arithmetic (mpmath), rounded to float64."""
    import mpmath

    with mpmath.workdps(_digits(z)):
        e = [mpmath.exp(mpmath.mpf(float(x))) for x in z]
        s = mpmath.fsum(e)
        return np.array([float(x / s) for x in e])


def softmax_errors(scales, dtypes=(np.float16, np.float32, np.float64), n_scores: int = 8, seed: int = 0):
    r"""Largest error of the naive and the stable softmax against the exact one, per score scale.

    One score pattern :math:`u` is drawn once: :math:`u_1 = 1` and the other
    ``n_scores - 1`` entries uniform on :math:`[-1, 1)` from
    ``numpy.random.default_rng(seed)``. At scale :math:`s` the scores are :math:`z = s\,u`
    (so the largest score is :math:`s`), rounded to each dtype. The exact softmax of the
    rounded scores is computed with 40 significant digits (mpmath); the error is the
    largest absolute difference over the weights, or NaN where the result is not finite.

    Parameters
    ----------
    scales : array_like of float > 0
        Values of :math:`s`; each :math:`s\,u` must fit every dtype.
    dtypes : sequence of float16, float32, float64
    n_scores : int >= 2
    seed : int >= 0

    Returns
    -------
    dict
        ``{"scales": ndarray, "dtypes": [name, ...], "naive": {name: ndarray},
        "stable": {name: ndarray}, "threshold": {name: ln(max)}}``.
    """
    from .numerics import softmax

    s = v.real_array(scales, "scales", dtype=np.float64)
    if s.ndim != 1 or (s <= 0).any():
        raise ValueError("scales must be a 1-D array of positive numbers")
    try:
        dts = [_float_dtype(d) for d in dtypes]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"dtypes must be a sequence of float16, float32 or float64: {exc}") from None
    if not dts:
        raise ValueError("dtypes must not be empty")
    n_scores = v.positive_int(n_scores, "n_scores", minimum=2)
    rng = np.random.default_rng(v.positive_int(seed, "seed", minimum=0))
    u = np.concatenate([[1.0], rng.uniform(-1.0, 1.0, n_scores - 1)])
    out: dict[str, Any] = {"scales": s, "dtypes": [dt.name for dt in dts], "naive": {}, "stable": {}, "threshold": {}}
    for dt in dts:
        if s.max() * np.abs(u).max() > float(np.finfo(dt).max):
            raise ValueError(f"scales must keep the scores inside the range of {dt}; largest is {s.max():g}")
        naive, stable = np.empty(s.size), np.empty(s.size)
        for i, scale in enumerate(s):
            z = (scale * u).astype(dt)
            exact = _exact_softmax(z.astype(np.float64))
            for store, p in ((naive, naive_softmax(z)), (stable, softmax(z))):
                p64 = p.astype(np.float64)
                store[i] = np.abs(p64 - exact).max() if np.isfinite(p64).all() else np.nan
        out["naive"][dt.name], out["stable"][dt.name] = naive, stable
        out["threshold"][dt.name] = overflow_threshold(dt)
    return out


def overflow_fraction(d_values, dtype=np.float16, magnitude: float = 1.0, n_queries: int = 64,
                      n_keys: int = 256, seed: int = 0, repeats: int = 0):
    r"""Fraction of attention scores, and of rows, above the overflow threshold of ``dtype``.

    For each key dimension :math:`d_k`, draws ``n_queries`` queries and ``n_keys`` keys
    with :func:`~attention_scaling.numerics.draw_queries_keys` (components
    :math:`\mathcal N(0, m^2)`, seed ``seed``), forms all scores :math:`q\cdot k` in
    float64, and counts those above :math:`t = \ln(\text{max})` of ``dtype`` (where a naive
    softmax's :math:`e^z` overflows; only positive scores can), before and after dividing
    by :math:`\sqrt{d_k}`. A row (one query against its ``n_keys`` keys) fails if any of
    its scores does.

    Beside each sampled fraction it returns the exact probability from
    :mod:`attention_scaling.dot_law` (the law of :math:`q\cdot k = m^2(A - B)/2`, not a
    normal law), the exact standard error of the sampled fraction of scores (the scores
    share queries and keys, so they are correlated), the normal approximation
    :math:`P(X > t)` with :math:`X \sim \mathcal N(0, m^4 d_k)` unscaled and
    :math:`\mathcal N(0, m^4)` scaled, and the exact share of failing rows (conditioned on
    the query's norm) beside :math:`1 - (1 - p)^{n_k}`, what independent scores would give.

    Parameters
    ----------
    d_values : sequence of int >= 1, strictly increasing
    dtype : float16, float32 or float64
        The format whose threshold is used (default float16).
    magnitude : float > 0
        Standard deviation :math:`m` of each component.
    n_queries, n_keys : int >= 1
    seed : int >= 0
    repeats : int >= 0
        If at least 2, the same sample is drawn ``repeats`` more times (independent
        streams spawned from ``seed``) and the standard deviation of the share of failing
        rows over them is returned as ``"<kind> rows sd"``: the sampling error of that share.

    Returns
    -------
    dict
        ``{"d_values", "dtype", "threshold", "n_scores", "n_rows", "repeats"}`` and, for
        ``kind`` in ``"unscaled"``, ``"scaled"``, float64 arrays with one value per
        dimension: ``kind`` (sampled fraction of scores), ``"<kind> exact"``,
        ``"<kind> se"``, ``"<kind> normal"``, ``"<kind> rows"`` (sampled share of rows),
        ``"<kind> rows exact"``, ``"<kind> rows independent"`` and, with ``repeats``,
        ``"<kind> rows sd"``.
    """
    d_list = v.increasing_ints(d_values, "d_values")
    dt = _float_dtype(dtype)
    m = v.positive_real(magnitude, "magnitude")
    n_queries = v.positive_int(n_queries, "n_queries")
    n_keys = v.positive_int(n_keys, "n_keys")
    seed = v.positive_int(seed, "seed", minimum=0)
    repeats = v.positive_int(repeats, "repeats", minimum=0)
    if repeats == 1:
        raise ValueError("repeats must be 0 or at least 2 (a standard deviation needs two draws)")
    t = overflow_threshold(dt)
    streams = np.random.SeedSequence(seed).spawn(repeats)
    per_d = [_overflow_at(d, t, m, n_queries, n_keys, seed, streams) for d in d_list]
    out = {"d_values": np.array(d_list), "dtype": dt.name, "threshold": t, "n_scores": n_queries * n_keys,
           "n_rows": n_queries, "repeats": repeats}
    out.update({name: np.array([r[name] for r in per_d], dtype=np.float64) for name in per_d[0]})
    return out


def _overflow_at(d: int, t: float, m: float, n_queries: int, n_keys: int, seed: int, streams) -> dict:
    """:func:`overflow_fraction`'s values at one dimension ``d``: sampled, exact and normal,
    for scores and rows, unscaled and scaled (and the rows' sd over the ``streams``, if any)."""
    from . import dot_law

    q, k = draw_queries_keys(d, m, n_queries=n_queries, n_keys=n_keys, seed=seed)
    shares: dict[str, list] = {"unscaled": [], "scaled": []}
    for stream in streams:
        q_r, k_r = draw_queries_keys(d, m, n_queries=n_queries, n_keys=n_keys, seed=np.random.default_rng(stream))
        s_r = q_r @ k_r.T
        shares["unscaled"].append(np.mean((s_r > t).any(axis=1)))
        shares["scaled"].append(np.mean((s_r / math.sqrt(d) > t).any(axis=1)))
    scores = q @ k.T
    row: dict[str, float] = {}
    for kind, z in (("unscaled", scores), ("scaled", scores / math.sqrt(d))):
        flag = kind == "scaled"
        p = dot_law.dot_tail(t, d, magnitude=m, scaled=flag)
        row[kind] = np.mean(z > t)
        row[kind + " exact"] = p
        row[kind + " se"] = dot_law.score_fraction_se(t, d, n_queries, n_keys, magnitude=m, scaled=flag)
        row[kind + " normal"] = dot_law.normal_tail(t, d, magnitude=m, scaled=flag)
        row[kind + " rows"] = np.mean((z > t).any(axis=1))
        row[kind + " rows exact"] = dot_law.row_failure(t, d, n_keys, magnitude=m, scaled=flag)
        row[kind + " rows independent"] = -math.expm1(n_keys * math.log1p(-p))
        if streams:
            row[kind + " rows sd"] = np.std(shares[kind], ddof=1)
    return row
