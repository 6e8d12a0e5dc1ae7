r"""Numerics of softmax saturation, in numpy.

Notation (the book uses the same letters everywhere):

* ``z`` – scores (logits), shape ``(..., k)``;
* ``p`` – the softmax output :math:`P = \operatorname{softmax}(z)`, same shape;
* ``d_k`` – dimension of query and key vectors;
* ``q``, ``k`` – one query and one key; ``Q`` and ``K`` stack them as rows.

All functions validate their arguments and raise :class:`ValueError` naming the
parameter. Results are float64 unless float16 or float32 input (or ``dtype``)
asks for less precision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validate as v

__all__ = [
    "softmax",
    "softmax_jacobian",
    "diagonal_gradient",
    "entropy",
    "draw_queries_keys",
    "jacobian_norm",
    "central_difference",
    "normal_cdf",
    "ScoreSample",
    "score_sample",
    "saturation_by_dimension",
    "saturation_expectation",
]


def softmax(z, axis: int = -1, dtype=None) -> np.ndarray:
    r"""Numerically stable softmax :math:`P_i = e^{z_i} / \sum_j e^{z_j}` along ``axis``.

    The maximum of each slice is subtracted before exponentiating, so the largest
    exponent is :math:`e^0 = 1` and nothing overflows, whatever the size of ``z``.
    ``-inf`` scores (masked positions) get probability 0; a slice needs at least one
    finite score.

    Parameters
    ----------
    z : array_like, shape ``(..., k, ...)``
        Scores. ``+inf`` and NaN are rejected.
    axis : int
        Axis to normalise over (default: last).
    dtype : float16, float32 or float64, optional
        Precision of the computation and the result. Default: the input's floating
        dtype, or float64 for integer input.

    Returns
    -------
    ndarray, same shape as ``z``
        Non-negative, summing to 1 along ``axis``.
    """
    arr = v.real_array(z, "z", dtype=dtype, allow_neg_inf=True)
    ax = v.axis_index(axis, arr.ndim)
    top = arr.max(axis=ax, keepdims=True)
    if not np.isfinite(top).all():
        raise ValueError("z must have at least one finite score in every slice along axis (a fully masked row has no softmax)")
    with np.errstate(over="ignore"):  # float16: z - max may round to -inf, whose exp is the correct 0
        shifted = arr - top
    e = np.exp(shifted)
    return e / e.sum(axis=ax, keepdims=True)


def _softmax_rows(z: np.ndarray) -> np.ndarray:
    """:func:`softmax` along the last axis of finite float64 scores ``z``, unchecked."""
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _complement(arr: np.ndarray, ax: int) -> np.ndarray:
    r""":math:`1 - P_i` formed as :math:`\sum_{j \ne i} P_j`, along ``ax``, without cancellation.

    Near saturation the largest weight is :math:`1 - \delta` with a tiny :math:`\delta`, and
    ``1 - p`` returns :math:`\delta` with the absolute rounding error of ``p``, about
    :math:`10^{-16}`: relative error :math:`10^{-16}/\delta`, and exactly 0 once ``p`` rounds
    to 1. For the largest weight of each slice the complement is therefore the sum of the
    other weights, which keeps every digit. Every other weight is at most about 1/2, where
    ``1 - p`` is accurate.
    """
    work = arr.astype(np.float32) if arr.dtype == np.float16 else arr
    top = np.argmax(work, axis=ax)
    is_top = np.arange(work.shape[ax]).reshape([-1 if i == ax else 1 for i in range(work.ndim)]) \
        == np.expand_dims(top, ax)
    rest = np.where(is_top, 0, work).sum(axis=ax, keepdims=True)
    return np.where(is_top, rest, 1 - work).astype(arr.dtype)


def softmax_jacobian(p) -> np.ndarray:
    r"""Jacobian :math:`J = \operatorname{diag}(p) - p p^\top` of the softmax, batched.

    :math:`J_{ij} = \partial P_i / \partial z_j = P_i(\delta_{ij} - P_j)`. The diagonal
    :math:`J_{ii} = P_i(1 - P_i)` is formed as :math:`P_i \sum_{j \ne i} P_j`, never as
    :math:`P_i - P_i^2`: near saturation the subtraction cancels (at ``softmax([60, 0])``
    it gives exactly 0 for :math:`8.76\times10^{-27}`), the sum of the other weights does not.
    Every entry is then accurate to a few units of rounding relative to itself.

    Parameters
    ----------
    p : array_like, shape ``(..., k)``
        Softmax outputs (probabilities summing to 1 along the last axis).

    Returns
    -------
    ndarray, shape ``(..., k, k)``
    """
    arr = v.probabilities(p, "p", axis=-1)
    jac = -arr[..., :, None] * arr[..., None, :]
    idx = np.arange(arr.shape[-1])
    jac[..., idx, idx] = arr * _complement(arr, arr.ndim - 1)
    return jac


def diagonal_gradient(p, axis=None, complement=None) -> np.ndarray:
    r"""The diagonal of the Jacobian, :math:`\partial P_i / \partial z_i = P_i (1 - P_i)`.

    Three ways to call it, from the least to the most accurate near saturation:

    * ``diagonal_gradient(p)``: elementwise ``p * (1 - p)`` for probabilities taken as
      exact numbers. If ``p`` is a *computed* weight close to 1, it carries an absolute
      rounding error of about :math:`10^{-16}`, and ``1 - p`` keeps only that error: the
      relative error is :math:`10^{-16}/(1 - p)`, and a weight that rounded to 1 gives 0.
    * ``diagonal_gradient(p, axis=-1)``: ``p`` holds whole softmax outputs along ``axis``,
      and :math:`1 - P_i` is formed as the sum of the other weights
      (accurate to rounding for every weight, the largest included). Use this for the
      output of :func:`softmax`.
    * ``diagonal_gradient(p, complement=c)``: :math:`P(1-P)` as ``p * c`` with
      :math:`c = 1 - P` known accurately (for two scores, :math:`1 - P_1 = P_2`).

    Parameters
    ----------
    p : float or array_like
        Probabilities in [0, 1]. A scalar is allowed: ``diagonal_gradient(0.99)``.
    axis : int, optional
        The axis along which ``p`` sums to 1 (then ``p`` must be at least 1-D).
    complement : float or array_like, optional
        :math:`1 - p`, in [0, 1], broadcastable with ``p``; ``p + complement`` must be 1 to rounding.

    Returns
    -------
    ndarray, same shape as ``p``
        Values in [0, 1/4]; the maximum 1/4 is at ``p = 1/2``.
    """
    if axis is not None and complement is not None:
        raise ValueError("axis and complement are two ways to give 1 - p; pass at most one")
    if axis is not None:
        arr = v.probabilities(p, "p", axis=axis)
        return arr * _complement(arr, v.axis_index(axis, arr.ndim))
    arr = v.probabilities(p, "p", axis=None, min_ndim=0)
    if complement is None:
        return arr * (1 - arr)
    c = v.probabilities(complement, "complement", axis=None, min_ndim=0)
    try:
        np.broadcast_shapes(arr.shape, c.shape)
    except ValueError:
        raise ValueError(f"complement of shape {c.shape} does not broadcast with p, {arr.shape}") from None
    tol = 16 * float(np.finfo(np.result_type(arr, c)).eps)
    if (np.abs(arr.astype(np.float64) + c - 1) > tol).any():
        raise ValueError("complement must equal 1 - p (to rounding)")
    return arr * c


def entropy(p, axis: int = -1) -> np.ndarray:
    r"""Shannon entropy :math:`H(p) = -\sum_i p_i \ln p_i` in nats, with :math:`0 \ln 0 = 0`.

    It runs from 0 (all weight on one key) to :math:`\ln k` (uniform over ``k`` keys).

    Parameters
    ----------
    p : array_like, shape ``(..., k, ...)``
        Probabilities summing to 1 along ``axis``.
    axis : int
        The axis that holds one distribution (default: last).

    Returns
    -------
    ndarray
        Shape of ``p`` without ``axis``.
    """
    arr = v.probabilities(p, "p", axis=axis)
    ax = v.axis_index(axis, arr.ndim)
    return _entropy(arr, _complement(arr, ax), ax)


def _entropy(arr: np.ndarray, complement: np.ndarray, ax: int) -> np.ndarray:
    """:func:`entropy` of checked probabilities ``arr`` whose :func:`_complement` is given."""
    positive = arr > 0
    # ln P_i for a weight above 1/2 is log1p(-(sum of the other weights)): near saturation
    # ln(p) of a rounded p = 1 - delta loses delta entirely, and with it a term the size of
    # the whole entropy's leading part.
    big = arr > 0.5  # at most one weight a distribution
    logs = np.log(np.where(positive, arr, 1))
    logs[big] = np.log1p(-complement[big])
    terms = np.where(positive, arr * logs, 0)
    return -terms.sum(axis=ax)


def draw_queries_keys(d_k, magnitude, n_queries: int = 1, n_keys: int = 8, seed=0, dtype=np.float64):
    r"""Draw query and key vectors with i.i.d. :math:`\mathcal N(0, m^2)` components.

    ``magnitude`` :math:`m` is the standard deviation of each component, so a vector's
    length is about :math:`m\sqrt{d_k}` and a dot product :math:`q\cdot k` has mean 0
    and variance :math:`m^4 d_k`.

    Parameters
    ----------
    d_k : int >= 1
        Dimension of each vector.
    magnitude : float > 0
        Standard deviation :math:`m` of each component.
    n_queries, n_keys : int >= 1
        Number of query rows and key rows.
    seed : int >= 0 or numpy.random.Generator
        Seed for ``numpy.random.default_rng``; the same seed gives the same vectors.
    dtype : float16, float32 or float64

    Returns
    -------
    Q : ndarray, shape ``(n_queries, d_k)``
    K : ndarray, shape ``(n_keys, d_k)``

    Raises
    ------
    ValueError
        Naming ``magnitude`` if the components would overflow ``dtype``, or underflow it
        (``magnitude`` below its smallest normal number, where they would lose their digits
        or round to 0: float16 queries of all zeros are no answer).
    """
    d_k = v.positive_int(d_k, "d_k")
    m = v.positive_real(magnitude, "magnitude")
    n_queries = v.positive_int(n_queries, "n_queries")
    n_keys = v.positive_int(n_keys, "n_keys")
    dt = v.float_dtype(dtype)
    rng = v.generator(seed)
    info = np.finfo(dt)
    if m < float(info.smallest_normal):
        # the components would be subnormal (few significant bits) or round to 0:
        # queries and keys of all zeros, and every score 0, is a silent wrong answer
        raise ValueError(f"magnitude={m:g} underflows {dt}: components of that size are below its smallest "
                         f"normal number {float(info.smallest_normal):g} and lose their digits or round to 0")
    with np.errstate(over="ignore"):
        q = m * rng.standard_normal((n_queries, d_k))
        k = m * rng.standard_normal((n_keys, d_k))
    if not (np.isfinite(q).all() and np.isfinite(k).all()) or max(np.abs(q).max(), np.abs(k).max()) > info.max:
        raise ValueError(f"magnitude={m:g} overflows {dt}")
    return q.astype(dt), k.astype(dt)


def jacobian_norm(p) -> np.ndarray:
    r"""Spectral norm :math:`\lVert J \rVert_2` of the softmax Jacobian at ``p``, batched.

    J is symmetric positive semidefinite, so its norm is its largest eigenvalue. For
    :math:`n = 2` it is :math:`2P_1P_2` exactly; otherwise the largest eigenvalue of the
    Jacobian of :func:`softmax_jacobian`, whose entries keep their relative accuracy near
    saturation, so the norm does too (it is never rounded to 0 for a non-degenerate ``p``).

    Parameters
    ----------
    p : array_like, shape ``(..., n)``
        Softmax outputs.

    Returns
    -------
    ndarray, shape ``(...)``
        Values in [0, 1/2].
    """
    arr = v.probabilities(p, "p", axis=-1)
    n = arr.shape[-1]
    if n == 1:
        return np.zeros(arr.shape[:-1], dtype=arr.dtype)
    if n == 2:  # J = P_1 P_2 [[1, -1], [-1, 1]]: eigenvalues 0 and 2 P_1 P_2, exactly
        return 2 * arr[..., 0] * arr[..., 1]
    # The Jacobian's entries are accurate relative to themselves (see softmax_jacobian), and
    # eigvalsh is backward stable: its largest eigenvalue is off by a few units of rounding
    # times ||J||, which *is* that eigenvalue. So the norm is accurate relative to itself.
    jac = softmax_jacobian(arr).astype(np.float64)
    top = np.linalg.eigvalsh(jac)[..., -1]
    return np.maximum(top, 0).astype(arr.dtype)


def central_difference(f, x, h: float = 1e-6) -> np.ndarray:
    r"""Jacobian of ``f`` at ``x`` by central differences, :math:`(f(x + h e_j) - f(x - h e_j)) / 2h`.

    Parameters
    ----------
    f : callable
        Maps an array shaped like ``x`` to an array of any shape.
    x : array_like, shape ``(..., n)`` or any shape
        Point of evaluation (float64).
    h : float > 0
        Step. The error is of order :math:`h^2` plus rounding of order :math:`\epsilon/h`.
        The difference is divided by the step actually taken, :math:`(x + h) - (x - h)`
        after rounding; a step lost to rounding (:math:`x + h = x - h`) raises ValueError.

    Returns
    -------
    ndarray, shape ``f(x).shape + x.shape``
        ``out[a, b] = d f(x)[a] / d x[b]`` over the multi-indices ``a`` of the output and
        ``b`` of the input.
    """
    if not callable(f):
        raise ValueError(f"f must be callable, got {type(f).__name__}")
    arr = v.real_array(x, "x", dtype=np.float64, min_ndim=0)
    h = v.positive_real(h, "h")
    flat = arr.ravel()
    with np.errstate(over="ignore"):
        up, down = flat + h, flat - h
    if not (np.isfinite(up).all() and np.isfinite(down).all()):
        raise ValueError(f"h={h:g} takes x + h or x - h beyond the largest float64")
    # The step actually taken is (x + h) - (x - h) after rounding, not 2h: at x = 1 a step
    # h = 1e-15 becomes 2.22e-15, and a step below half a unit of x vanishes (x + h == x).
    taken = up - down
    lost = taken == 0
    if lost.any():
        j = int(np.argmax(lost))
        raise ValueError(f"h={h:g} is lost to rounding: x + h == x - h at x[{j}] = {flat[j]!r}; use a larger h")
    out_shape = np.shape(f(arr))
    cols = []
    for j in range(flat.size):
        plus_x, minus_x = flat.copy(), flat.copy()
        plus_x[j], minus_x[j] = up[j], down[j]
        plus = np.asarray(f(plus_x.reshape(arr.shape)), dtype=np.float64)
        minus = np.asarray(f(minus_x.reshape(arr.shape)), dtype=np.float64)
        if not (np.isfinite(plus).all() and np.isfinite(minus).all()):
            raise ValueError(f"f is not finite at x ± h (coordinate {j})")
        cols.append(((plus - minus) / taken[j]).ravel())
    return np.stack(cols, axis=-1).reshape(out_shape + arr.shape)


_erfc = np.frompyfunc(math.erfc, 1, 1)
_SQRT1_2 = 0.7071067811865476  # 1/sqrt(2) rounded once, so x/(sigma sqrt 2) takes at most two roundings


def normal_cdf(x, sigma=1.0):
    r"""CDF of :math:`\mathcal N(0, \sigma^2)` at ``x`` (``±inf`` allowed), elementwise.

    Computed as :math:`\tfrac12\operatorname{erfc}(-x/(\sigma\sqrt2))`, which keeps its relative
    accuracy in the left tail (:math:`7.6\times10^{-24}` at :math:`x = -10`), where
    :math:`\tfrac12(1 + \operatorname{erf})` cancels to 0.

    Parameters
    ----------
    x : float or array_like
        Points; NaN is rejected.
    sigma : float > 0
        Standard deviation.

    Returns
    -------
    float64 scalar for scalar (or 0-d) ``x``, else ndarray of float64 shaped like ``x``.
    """
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"x must be a real number or an array of them: {exc}") from exc
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"x must hold real numbers, got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if np.isnan(arr).any():
        raise ValueError("x contains NaN")
    sigma = v.positive_real(sigma, "sigma")
    with np.errstate(over="ignore"):  # x / sigma beyond the largest double is inf: erfc gives 0 or 2, exactly right
        t = -(arr / sigma) * _SQRT1_2
    out = 0.5 * np.asarray(_erfc(t), dtype=np.float64)
    return out[()] if out.ndim == 0 else out


@dataclass(frozen=True)
class ScoreSample:
    r"""Unit-magnitude dot products for a grid of key dimensions, precomputed once.

    Every vector is drawn once at the largest dimension; the dot product at dimension
    :math:`d` is the sum of the first :math:`d` componentwise products (a prefix sum),
    so all dimensions share the same vectors. Scores at magnitude :math:`m` are
    :math:`m^2` times these (each component of q and k has standard deviation m).

    Attributes
    ----------
    d_values : tuple of int
        The key dimensions, increasing.
    scores : ndarray, shape ``(len(d_values), n_keys)``
        :math:`q\cdot k_j` for one query and ``n_keys`` keys, at each dimension.
    pair_dots : ndarray, shape ``(len(d_values), n_pairs)``
        :math:`q\cdot k` for ``n_pairs`` independent (q, k) pairs, at each dimension.
    seed : int
    """

    d_values: tuple
    scores: np.ndarray
    pair_dots: np.ndarray
    seed: int

    def index(self, d_k: int) -> int:
        """Row of ``scores`` and ``pair_dots`` that holds dimension ``d_k``."""
        try:
            return self.d_values.index(d_k)
        except ValueError:
            raise ValueError(f"d_k must be one of {list(self.d_values)}, got {d_k!r}") from None


def score_sample(d_values, n_keys: int = 64, n_pairs: int = 2000, seed: int = 0) -> ScoreSample:
    """Draw one query, ``n_keys`` keys and ``n_pairs`` random pairs; see :class:`ScoreSample`.

    Components are standard normal (magnitude 1), drawn from
    ``numpy.random.default_rng(seed)``.
    """
    d_list = v.increasing_ints(d_values, "d_values")
    n_keys = v.positive_int(n_keys, "n_keys")
    n_pairs = v.positive_int(n_pairs, "n_pairs")
    seed = v.positive_int(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    d_max = d_list[-1]
    rows = np.array(d_list) - 1
    q = rng.standard_normal(d_max)
    keys = rng.standard_normal((n_keys, d_max))
    scores = np.cumsum(keys * q, axis=1)[:, rows].T
    pair_dots = np.empty((len(d_list), n_pairs))
    chunk = 500  # bounded memory: n_pairs x d_max products are never held at once
    for start in range(0, n_pairs, chunk):
        stop = min(n_pairs, start + chunk)
        a = rng.standard_normal((stop - start, d_max))
        b = rng.standard_normal((stop - start, d_max))
        pair_dots[:, start:stop] = np.cumsum(a * b, axis=1)[:, rows].T
    return ScoreSample(tuple(d_list), scores, pair_dots, seed)


def saturation_by_dimension(d_values, magnitude: float = 1.0, n_keys: int = 16, n_queries: int = 200, seed: int = 0):
    r"""Average saturation measures of attention, unscaled and scaled, for each key dimension.

    For each of ``n_queries`` independent queries (each with its own ``n_keys`` keys,
    components :math:`\mathcal N(0, m^2)`), computes the weights of
    :math:`\operatorname{softmax}(q\cdot k)` and :math:`\operatorname{softmax}(q\cdot k/\sqrt{d_k})`
    and averages, over queries: the largest weight, the entropy, and the largest
    :math:`P_j(1-P_j)`. Vectors are drawn once at the largest dimension and cut to
    prefixes, so every dimension sees the same draws.

    Returns
    -------
    dict
        ``{"d_values": ndarray, "unscaled": {measure: ndarray}, "scaled": {measure: ndarray}}``
        with measures ``"max weight"``, ``"entropy"``, ``"largest P(1-P)"``.
    """
    d_list = v.increasing_ints(d_values, "d_values")
    m = v.positive_real(magnitude, "magnitude")
    n_keys = v.positive_int(n_keys, "n_keys", minimum=2)
    n_queries = v.positive_int(n_queries, "n_queries")
    rng = np.random.default_rng(v.positive_int(seed, "seed", minimum=0))
    d_max = d_list[-1]
    q = rng.standard_normal((n_queries, 1, d_max))
    k = rng.standard_normal((n_queries, n_keys, d_max))
    prefix = np.cumsum(q * k, axis=-1)[..., np.array(d_list) - 1]  # (queries, keys, dims)
    out = {"d_values": np.array(d_list), "unscaled": {}, "scaled": {}}
    with np.errstate(over="ignore"):
        overflow = not np.isfinite(m * m * np.abs(prefix).max())
    if overflow:
        raise ValueError(f"magnitude={m:g} makes the scores m^2 q.k overflow float64")
    for name, divide in (("unscaled", False), ("scaled", True)):
        z = m * m * np.moveaxis(prefix, -1, 0)  # (dims, queries, keys)
        if divide:
            z = z / np.sqrt(np.array(d_list, dtype=np.float64))[:, None, None]
        p = softmax(z, axis=-1)
        out[name] = {
            "max weight": p.max(axis=-1).mean(axis=-1),
            "entropy": entropy(p, axis=-1).mean(axis=-1),
            "largest P(1-P)": diagonal_gradient(p, axis=-1).max(axis=-1).mean(axis=-1),
        }
    return out


def saturation_expectation(d_values, magnitude: float = 1.0, n_keys: int = 16, rows: int = 200_000,
                           seed: int = 16) -> dict:
    r"""The expected saturation measures of :func:`saturation_by_dimension`, from many fresh rows.

    A row is a query with its own ``n_keys`` keys, every component :math:`\mathcal N(0, m^2)`.
    Given the query, its scores :math:`q\cdot k_j` are independent normals with standard
    deviation :math:`m\lVert q\rVert`, and :math:`\lVert q\rVert^2/m^2` is chi-squared with
    :math:`d_k` degrees of freedom; so a row is drawn exactly from ``n_keys + 1`` random numbers
    instead of :math:`(n_k + 1)\,d_k`, and ``rows`` can be large enough that the means are
    the expected values to the digits the book prints. Each ``d_k`` has its own stream,
    ``default_rng([seed, d_k])``; the scaled scores are the same rows' scores over
    :math:`\sqrt{d_k}`.

    Returns
    -------
    dict
        ``{"d_values", "rows", "unscaled", "scaled", "se", "gradient gap", "gradient gap se"}``:
        ``unscaled`` and ``scaled`` map each measure (``"max weight"``, ``"entropy"``,
        ``"largest P(1-P)"``) to its mean at each ``d_k``, ``se`` holds their standard errors
        the same way, and ``gradient gap`` is the mean of the unscaled minus the scaled largest
        :math:`P_j(1-P_j)` on the same rows, with its (paired) standard error.
    """
    d_list = v.increasing_ints(d_values, "d_values")
    m = v.positive_real(magnitude, "magnitude")
    n_keys = v.positive_int(n_keys, "n_keys", minimum=2)
    rows = v.positive_int(rows, "rows", minimum=2)
    seed = v.positive_int(seed, "seed", minimum=0)
    if not np.isfinite(m * m * np.sqrt(10.0 * d_list[-1]) * 10.0):
        raise ValueError(f"magnitude={m:g} makes the scores m^2 q.k overflow float64")
    measures = ("max weight", "entropy", "largest P(1-P)")
    out: dict = {"d_values": np.array(d_list), "rows": rows, "unscaled": {}, "scaled": {},
                 "se": {"unscaled": {}, "scaled": {}}}
    sums = {(name, k): np.zeros((len(d_list), 2)) for name in ("unscaled", "scaled", "gap") for k in measures}
    chunk = 50_000  # bounded memory: chunk x n_keys scores at a time
    for a, d in enumerate(d_list):
        rng = np.random.default_rng([seed, d])
        for start in range(0, rows, chunk):
            c = min(chunk, rows - start)
            z = m * m * np.sqrt(rng.chisquare(d, size=c))[:, None] * rng.standard_normal((c, n_keys))
            # finite scores by construction (checked above), so their softmax needs no checks:
            # the same operations as softmax() and weight_measures(), without their passes
            per = {"unscaled": _measures(_softmax_rows(z), 1), "scaled": _measures(_softmax_rows(z / np.sqrt(d)), 1)}
            per["gap"] = {k: per["unscaled"][k] - per["scaled"][k] for k in measures}
            for (name, k), acc in sums.items():
                acc[a] += (per[name][k].sum(), np.square(per[name][k]).sum())
    for (name, k), (total, squares) in ((key, acc.T) for key, acc in sums.items()):
        mean = total / rows
        se = np.sqrt(np.maximum(squares / rows - mean**2, 0.0) * rows / (rows - 1) / rows)
        if name == "gap":
            if k == "largest P(1-P)":
                out["gradient gap"], out["gradient gap se"] = mean, se
        else:
            out[name][k], out["se"][name][k] = mean, se
    return out


# --- the shared draw: one query and its keys, the same on every page --------------------

#: Every draw of the explorers and chapters is a prefix of a block of this size: one query
#: and SHARED_MAX_KEYS keys, each of dimension SHARED_MAX_DIM.
SHARED_MAX_DIM = 1024
SHARED_MAX_KEYS = 64
#: Queries (each with its own keys) behind every "mean over many draws" of the explorers.
ENSEMBLE_QUERIES = 200
#: Random pairs (q, k) behind the attention explorer's histogram of |q·k|.
ENSEMBLE_PAIRS = 2000
#: Streams of :mod:`~attention_scaling.portable_random` (the page draws the same from the seed):
#: the blocks of :func:`query_ensemble` (block 0 is :func:`shared_draw`), the five streams of
#: :func:`ensemble_parts` from ENSEMBLE_STREAM on, and those of the pairs from PAIRS_STREAM on.
#: The context explorer's distractors use 1000 on.
DRAW_STREAM, ENSEMBLE_STREAM, PAIRS_STREAM = 0, 10, 20

__all__ += ["SHARED_MAX_DIM", "SHARED_MAX_KEYS", "ENSEMBLE_QUERIES", "ENSEMBLE_PAIRS", "shared_draw",
            "query_ensemble", "EnsembleParts", "ensemble_parts", "ensemble_scores", "ensemble_scores_by_dimension",
            "pair_scores", "weight_measures", "Expectation", "expectation"]


def _check_setup(d_k, n_keys, seed, magnitude):
    d_k = v.positive_int(d_k, "d_k")
    if d_k > SHARED_MAX_DIM:
        raise ValueError(f"d_k must be <= {SHARED_MAX_DIM}, got {d_k}")
    n_keys = v.positive_int(n_keys, "n_keys")
    if n_keys > SHARED_MAX_KEYS:
        raise ValueError(f"n_keys must be <= {SHARED_MAX_KEYS}, got {n_keys}")
    return d_k, n_keys, v.positive_int(seed, "seed", minimum=0), v.positive_real(magnitude, "magnitude")


def _blocks(d_k: int, n_keys: int, n_queries: int, seed: int) -> np.ndarray:
    """Blocks ``(n_queries, 1 + n_keys, d_k)``: row 0 of block i its query, rows 1.. its keys.

    Component c of row r of block i is value ``(i (1 + SHARED_MAX_KEYS) + r) SHARED_MAX_DIM + c``
    of the stream ``(seed, DRAW_STREAM)``: any prefix in d_k, keys or queries is the same draw."""
    from .portable_random import normals_at

    i = np.arange(n_queries)[:, None, None]
    r = np.arange(1 + n_keys)[None, :, None]
    c = np.arange(d_k)[None, None, :]
    return normals_at(seed, DRAW_STREAM, ((i * (1 + SHARED_MAX_KEYS) + r) * SHARED_MAX_DIM + c))


def shared_draw(d_k, n_keys: int = 16, seed: int = 0, magnitude: float = 1.0):
    r"""The one draw every explorer and chapter shows: a query and ``n_keys`` keys.

    Components are :math:`\mathcal N(0, m^2)` with :math:`m` = ``magnitude``: block 0 of
    :func:`query_ensemble`, normals of :mod:`~attention_scaling.portable_random` that the page
    draws identically from the seed. Cut to the first ``d_k`` components and the first
    ``n_keys`` keys, so the same ``(d_k, n_keys, seed, magnitude)`` gives the same vectors on
    every page, and a larger ``d_k`` extends the same vectors.

    Returns
    -------
    q : ndarray, shape ``(d_k,)``
    K : ndarray, shape ``(n_keys, d_k)``
    """
    d_k, n_keys, seed, m = _check_setup(d_k, n_keys, seed, magnitude)
    block = _blocks(d_k, n_keys, 1, seed)[0]
    return m * block[0], m * block[1:]


def query_ensemble(d_k, n_keys: int = 16, n_queries: int = ENSEMBLE_QUERIES, seed: int = 0, magnitude: float = 1.0):
    r"""``n_queries`` independent draws like :func:`shared_draw`; query 0 *is* the shared draw.

    Whole vectors, for what needs them (LayerNorm of a real query, a chapter's check). The
    explorers' means come from :func:`ensemble_parts`, the same law in a few numbers a row.

    Returns
    -------
    Q : ndarray, shape ``(n_queries, d_k)``
    K : ndarray, shape ``(n_queries, n_keys, d_k)``
    """
    d_k, n_keys, seed, m = _check_setup(d_k, n_keys, seed, magnitude)
    n_queries = v.positive_int(n_queries, "n_queries")
    blocks = _blocks(d_k, n_keys, n_queries, seed)
    return m * blocks[:, 0], m * blocks[:, 1:]


@dataclass(frozen=True)
class EnsembleParts:
    r"""Many queries with their keys at one ``d_k``, as the few numbers their scores depend on.

    Split each vector :math:`x \in \mathbb R^{d}` into its component :math:`x_1` along
    :math:`\mathbf 1/\sqrt d` and the rest :math:`x_\perp`. For :math:`q, k \sim \mathcal N(0, I_d)`:
    :math:`q_1, k_1 \sim \mathcal N(0, 1)`, :math:`|q_\perp|^2 \sim \chi^2_{d-1}`, the component
    :math:`w` of :math:`k_\perp` along :math:`q_\perp` is :math:`\mathcal N(0, 1)` and the rest of
    :math:`|k_\perp|^2` is :math:`\chi^2_{d-2}`, all independent. Then exactly

    * :math:`q\cdot k = q_1k_1 + |q_\perp|\,w`, :math:`|q|^2 = q_1^2 + |q_\perp|^2`,
      :math:`|k|^2 = k_1^2 + w^2 + \chi^2_{d-2}` (QK-norm's cosine), and
    * :math:`q_\perp\cdot k_\perp = |q_\perp|\,w`, :math:`|k_\perp|^2 = w^2 + \chi^2_{d-2}` (LayerNorm,
      which removes the mean, the component along :math:`\mathbf 1`).

    The χ² values are quantiles of fixed uniforms (common random numbers), so every mean moves
    smoothly with ``d_k``; a row costs five numbers instead of :math:`(1 + n)\,d`, which is what
    lets the page compute the means at any ``d_k`` (``web/attention.js``). Shapes: ``(Q,)`` for the
    queries' parts, ``(Q, n)`` for the keys'.
    """

    d_k: int
    q_mean: np.ndarray
    q_rest: np.ndarray  # |q_perp|^2
    k_mean: np.ndarray
    k_along: np.ndarray
    k_rest: np.ndarray  # |k_perp|^2 - k_along^2

    @property
    def n_queries(self) -> int:
        return len(self.q_mean)

    def scores(self) -> np.ndarray:
        """Unit-magnitude scores q·k, shape ``(Q, n)``."""
        return _scores(self.q_mean, self.q_rest, self.k_mean, self.k_along)

    def cosines(self) -> np.ndarray:
        """The cosines q·k / (|q| |k|) that QK-norm scales by its gain, shape ``(Q, n)``."""
        q_norm = np.sqrt(self.q_mean * self.q_mean + self.q_rest)[:, None]
        return self.scores() / (q_norm * np.sqrt(self.k_mean * self.k_mean + self.k_along * self.k_along + self.k_rest))


def _chi2(dofs, u: np.ndarray) -> np.ndarray:
    """Chi-square quantiles at the uniforms ``u`` for each number of degrees of freedom in
    ``dofs``, shape ``(len(dofs), u.size)``, in one pass (portable_random's quantiles take one
    per element); zero degrees of freedom give 0."""
    from .portable_random import chi2_quantile

    dofs = np.asarray(dofs, dtype=np.int64)
    out = np.zeros((dofs.size, u.size))
    some = dofs > 0
    if some.any():
        many = chi2_quantile(dofs[some][:, None], u[None, :])
        out[some] = many.reshape(-1, u.size)
    return out


def _scores(q_mean: np.ndarray, q_rest: np.ndarray, k_mean: np.ndarray, k_along: np.ndarray) -> np.ndarray:
    """q·k = q₁k₁ + |q⊥| w from the parts (:meth:`EnsembleParts.scores`), shape ``(Q, n)``."""
    return q_mean[:, None] * k_mean + np.sqrt(q_rest)[:, None] * k_along


def _score_parts(d_list: list[int], n_keys: int, n_queries: int, seed: int, stream: int, key_stride: int):
    """What the scores need at each dimension of ``d_list`` (checked by the caller): the keys'
    value indices, q₁, k₁, w (the same at every d_k) and |q⊥|², one row a dimension."""
    from .portable_random import normals, normals_at, uniforms

    keys = np.arange(n_queries)[:, None] * key_stride + np.arange(n_keys)
    q_mean, k_mean = normals(seed, stream, n_queries), normals_at(seed, stream + 2, keys)
    k_along = normals_at(seed, stream + 3, keys)
    q_rest = _chi2(np.array(d_list) - 1, uniforms(seed, stream + 1, n_queries))
    return keys, q_mean, k_mean, k_along, q_rest


def _along(k_along: np.ndarray, d: int) -> np.ndarray:
    """w at dimension ``d``: at d = 1 a vector is all mean, with no rest to lie along."""
    return k_along if d > 1 else np.zeros(k_along.shape)


def _ensemble_parts(d_list: list[int], n_keys: int, n_queries: int, seed: int, stream: int,
                    key_stride: int) -> list[EnsembleParts]:
    """The parts at each dimension of ``d_list`` (checked by the caller): the normals are the
    same at every d_k, and the chi-square quantiles of all of them are computed together."""
    from .portable_random import uniforms_at

    keys, q_mean, k_mean, k_along, q_rest = _score_parts(d_list, n_keys, n_queries, seed, stream, key_stride)
    k_rest = _chi2(np.array(d_list) - 2, uniforms_at(seed, stream + 4, keys).ravel())
    return [EnsembleParts(d_k=d, q_mean=q_mean, q_rest=q_rest[i], k_mean=k_mean,
                          k_along=_along(k_along, d), k_rest=k_rest[i].reshape(keys.shape))
            for i, d in enumerate(d_list)]


def _ensemble_scores(d_list: list[int], n_keys: int, n_queries: int, seed: int, stream: int,
                     key_stride: int) -> list[np.ndarray]:
    """``_ensemble_parts(...)[i].scores()`` at each dimension, bit for bit, without the keys'
    rest: the scores do not use it, and its chi-square quantiles, one a key at every d_k, were
    most of the time (1024 dimensions of 200 queries with 16 keys: 5.2 -> 0.4 CPU s)."""
    keys, q_mean, k_mean, k_along, q_rest = _score_parts(d_list, n_keys, n_queries, seed, stream, key_stride)
    return [_scores(q_mean, q_rest[i], k_mean, _along(k_along, d)) for i, d in enumerate(d_list)]


def _ensemble_args(d_k, n_keys, n_queries, seed, key_stride) -> tuple[int, int, int, int, int]:
    """:func:`ensemble_parts`' arguments, checked."""
    d_k, n_keys, seed, _ = _check_setup(d_k, n_keys, seed, 1.0)
    n_queries = v.positive_int(n_queries, "n_queries")
    return d_k, n_keys, n_queries, seed, v.positive_int(key_stride, "key_stride", minimum=n_keys)


def ensemble_parts(d_k, n_keys: int = 16, n_queries: int = ENSEMBLE_QUERIES, seed: int = 0,
                   stream: int = ENSEMBLE_STREAM, key_stride: int = SHARED_MAX_KEYS) -> EnsembleParts:
    """The :class:`EnsembleParts` of ``n_queries`` queries with ``n_keys`` keys each at ``d_k``.

    Streams ``(seed, stream + 0..4)``: q₁, the uniform of |q⊥|² (value i for query i), k₁, w and
    the uniform of the keys' rest (value ``i key_stride + j`` for key j of query i), so that
    fewer keys or queries are a prefix of the same draw.
    """
    d_k, n_keys, n_queries, seed, key_stride = _ensemble_args(d_k, n_keys, n_queries, seed, key_stride)
    return _ensemble_parts([d_k], n_keys, n_queries, seed, stream, key_stride)[0]


def ensemble_scores(d_k, n_keys: int = 16, n_queries: int = ENSEMBLE_QUERIES, seed: int = 0) -> np.ndarray:
    r"""Unit-magnitude scores :math:`q\cdot k` of the explorers' many queries, shape ``(n_queries, n_keys)``.

    Row i is query i's scores over its own keys: the law of :func:`query_ensemble`'s rows (see
    :class:`EnsembleParts`), drawn so that the page can draw it at any ``d_k``. Scores at
    magnitude :math:`m` are :math:`m^2` times these: ``ensemble_parts(...).scores()``.
    """
    d_k, n_keys, n_queries, seed, _ = _ensemble_args(d_k, n_keys, n_queries, seed, SHARED_MAX_KEYS)
    return _ensemble_scores([d_k], n_keys, n_queries, seed, ENSEMBLE_STREAM, SHARED_MAX_KEYS)[0]


def ensemble_scores_by_dimension(d_values, n_keys: int = 16, n_queries: int = ENSEMBLE_QUERIES,
                                 seed: int = 0) -> np.ndarray:
    r""":func:`ensemble_scores` at every dimension of ``d_values`` (strictly increasing), shape
    ``(len(d_values), n_queries, n_keys)``: the same numbers, bit for bit, computed together
    (a chapter that follows the many queries through every d_k from 1 to 1024 waits a
    fraction of the time that 1024 calls take)."""
    d_list = v.increasing_ints(d_values, "d_values")  # positive: the largest is the one to check
    _, n_keys, n_queries, seed, _ = _ensemble_args(d_list[-1], n_keys, n_queries, seed, SHARED_MAX_KEYS)
    # one quantile a query at each dimension: 1024 x 200 at once is some 200 000, in one pass
    return np.array(_ensemble_scores(d_list, n_keys, n_queries, seed, ENSEMBLE_STREAM, SHARED_MAX_KEYS))


def pair_scores(d_k, n_pairs: int = ENSEMBLE_PAIRS, seed: int = 0) -> np.ndarray:
    r"""Unit-magnitude :math:`q\cdot k` of ``n_pairs`` independent pairs at ``d_k``: the sample
    behind the attention explorer's histogram (streams from :data:`PAIRS_STREAM`)."""
    d_k, _, n_pairs, seed, _ = _ensemble_args(d_k, 1, v.positive_int(n_pairs, "n_pairs"), seed, 1)
    return _ensemble_scores([d_k], 1, n_pairs, seed, PAIRS_STREAM, 1)[0][:, 0]


def weight_measures(p, axis: int = -1) -> dict:
    r"""The three measures every explorer reports, for each distribution in ``p``.

    Returns ``{"max weight", "entropy", "largest P(1-P)"}``, each of shape ``p.shape``
    without ``axis``. Near saturation the largest :math:`P_j(1-P_j)` is the largest weight's,
    with :math:`1 - P_j` summed from the other weights (``diagonal_gradient(p, axis=axis)``),
    never subtracted: at ``softmax([40, 0, 0])`` that is 8.50e-18, where ``p * (1 - p)``
    gives 4.25e-18.
    """
    arr = v.probabilities(p, "p", axis=axis)
    return _measures(arr, v.axis_index(axis, arr.ndim))


def _measures(arr: np.ndarray, ax: int) -> dict:
    """:func:`weight_measures` of checked probabilities: the entropy and the gradient share one
    :func:`_complement` (the same numbers as :func:`entropy` and :func:`diagonal_gradient`)."""
    complement = _complement(arr, ax)
    return {"max weight": arr.max(axis=ax), "entropy": _entropy(arr, complement, ax),
            "largest P(1-P)": (arr * complement).max(axis=ax)}


@dataclass(frozen=True)
class Expectation:
    """Mean of a measure over ``n`` draws, its standard error, and the 10 % and 90 % quantiles.

    ``complement`` is the mean's distance from 1 when it was summed from the draws' own distances
    (a weight's 1 − P from the other weights, :func:`expectation` with ``complement``): near
    saturation ``1 - mean`` is rounding, that sum keeps its digits."""

    mean: float
    se: float
    low: float
    high: float
    n: int
    complement: float | None = None

    def show(self, digits: int = 3) -> str:
        """'0.240 ± 0.007': mean and error to ``digits`` decimals, or to more decimals when the error
        is smaller, so that the error keeps one significant digit ('0.06403 ± 0.00002'), written
        without an exponent and with the mean to the same decimal place."""
        if not isinstance(digits, (int, np.integer)) or isinstance(digits, bool) or not 0 <= digits <= 15:
            raise ValueError(f"digits must be an integer from 0 to 15, got {digits!r}")
        places = int(digits)
        if 0 < self.se < 0.95 * 10.0**-digits:  # below what ``digits`` decimals can show
            places = min(15, -int(math.floor(math.log10(self.se))))
            if round(self.se, places) >= 10.0 ** (1 - places):  # 0.0000096 rounds up to 0.00001
                places -= 1
        return f"{self.mean:.{places}f} ± {self.se:.{places}f}"


def expectation(values, complement=None) -> Expectation:
    """Summarise a sample of a measure (one value per draw) as an :class:`Expectation`.

    ``complement`` (same shape): each value's distance from 1, computed without cancellation.
    Where the values average above ½, the summary is then made from these distances (mean
    1 − their mean, the same standard error, the quantiles mirrored), so that a mean of weights
    near 1 keeps the digits of its distance from 1 (``Expectation.complement``)."""
    x = v.real_array(values, "values", dtype=np.float64).ravel()
    if x.size < 2:
        raise ValueError(f"values must hold at least 2 draws, got {x.size}")
    if complement is not None:
        c = v.real_array(complement, "complement", dtype=np.float64).ravel()
        if c.shape != x.shape:
            raise ValueError(f"complement must have the shape of values {x.shape}, got {c.shape}")
        if x.mean() > 0.5:
            d = expectation(c)
            return Expectation(1.0 - d.mean, d.se, 1.0 - d.high, 1.0 - d.low, d.n, complement=d.mean)
    low, high = np.quantile(x, [0.1, 0.9])
    return Expectation(float(x.mean()), float(x.std(ddof=1) / np.sqrt(x.size)), float(low), float(high), int(x.size))
