"""A seeded generator implemented identically in Python and in the page's JavaScript
(``attention_scaling/web/random.js``), so that an explorer can draw its vectors in the page
from a seed instead of shipping them as numbers (issue 30).

Counter-based: value ``i`` of the stream ``(seed, stream)`` is SplitMix64 of its counter, so a
prefix, or any single value, is the same however it is asked for. :func:`uniforms` are the top
52 bits of each hash plus one half, over 2⁵², exactly representable in a double and strictly
inside (0, 1) (with 53 bits the largest, (2⁵³ − ½)/2⁵³, would round to 1); :func:`normals` are the normal
quantiles of those uniforms by Wichura's algorithm AS 241 (relative error about 1e-16): only
``+ - * /`` in the centre, where the page and the package agree bit for bit, and ``log`` and
``sqrt`` in the tails, where the two libraries' ``log`` can differ by a unit in the last place
and the result by a few (``tests/browser/test_web_numerics.py``).

The statistics are those of independent uniforms and normals for every use in the book; this
is not numpy's generator, whose draws (``numpy.random.default_rng``) the book uses elsewhere.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import _validate as v

__all__ = ["uniforms", "normals", "uniforms_at", "normals_at", "normal_quantile", "chi2_quantile",
           "half_normal_bins"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix64(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _key(seed: int, stream: int) -> np.uint64:
    seed = v.positive_int(seed, "seed", minimum=0)
    stream = v.positive_int(stream, "stream", minimum=0)
    if seed > 2**53 - 1 or stream > 2**53 - 1:
        raise ValueError(f"seed and stream must be below 2**53 (the page's safe integers), got {seed}, {stream}")
    with np.errstate(over="ignore"):
        inner = _mix64(np.array([stream], dtype=np.uint64) + _GOLDEN)
        return _mix64(np.array([seed], dtype=np.uint64) * _GOLDEN + inner)[0]


def uniforms(seed: int, stream: int, n: int, start: int = 0) -> np.ndarray:
    """``n`` uniforms in (0, 1) of the stream ``(seed, stream)``, from counter ``start`` on."""
    n = v.positive_int(n, "n", minimum=0)
    start = v.positive_int(start, "start", minimum=0)
    return _at(_key(seed, stream), np.arange(start, start + n, dtype=np.uint64))


def uniforms_at(seed: int, stream: int, index) -> np.ndarray:
    """The uniforms at positions ``index`` (non-negative integers, any shape) of the stream
    ``(seed, stream)``: ``uniforms_at(s, t, i)[...] == uniforms(s, t, i.max() + 1)[i]``."""
    at = np.asarray(index)
    if at.dtype.kind not in "iu" or (at.size and at.min() < 0):
        raise ValueError("index must hold non-negative integers")
    return _at(_key(seed, stream), at.astype(np.uint64))


def normals_at(seed: int, stream: int, index) -> np.ndarray:
    """The standard normals at positions ``index`` of the stream ``(seed, stream)``."""
    return normal_quantile(uniforms_at(seed, stream, index))


def _at(key: np.uint64, index: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = _mix64(key + (index + np.uint64(1)) * _GOLDEN)
    return _unit(z)


def _unit(bits: np.ndarray) -> np.ndarray:
    """64-bit hashes as uniforms: (top 52 bits + 1/2) / 2^52, from 2^-53 to 1 - 2^-53, never 0 or 1."""
    return ((bits >> np.uint64(12)).astype(np.float64) + 0.5) / 4503599627370496.0


_A = (3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125,
      45921.953931549871457, 67265.770927008700853, 33430.575583588128105, 2509.0809287301226727)
_B = (1.0, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077,
      21213.794301586595867, 39307.89580009271061, 28729.085735721942674, 5226.495278852545925)
_C = (1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504,
      1.27045825245236838258, 0.24178072517745061177, 0.0227238449892691845833, 7.7454501427834140764e-4)
_D = (1.0, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455,
      0.14810397642748007459, 0.0151986665636164571966, 5.475938084995344946e-4, 1.05075007164441684324e-9)
_E = (6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123,
      0.026532189526576123093, 0.0012426609473880784386, 2.71155556874348757815e-5, 2.01033439929228813265e-7)
_F = (1.0, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525,
      7.868691311456132591e-4, 1.8463183175100546818e-5, 1.4215117583164458887e-7, 2.04426310338993978564e-15)


def _poly(c, x):
    s = np.full_like(x, c[7])
    for coefficient in c[6::-1]:
        s = s * x + coefficient
    return s


def normal_quantile(p) -> np.ndarray:
    """The standard normal quantile at ``p`` in (0, 1), by AS 241, as ``random.js`` computes it."""
    p = np.asarray(v.real_array(p, "p", dtype=np.float64), dtype=np.float64)
    if ((p <= 0) | (p >= 1)).any():
        raise ValueError("p must lie strictly between 0 and 1")
    q = p - 0.5
    centre = np.abs(q) <= 0.425
    out = np.empty_like(p)
    r = 0.180625 - q[centre] * q[centre]
    out[centre] = q[centre] * _poly(_A, r) / _poly(_B, r)
    tail = ~centre
    r = np.sqrt(-np.log(np.where(q[tail] < 0, p[tail], 1 - p[tail])))
    near = r <= 5
    x = np.empty_like(r)
    x[near] = _poly(_C, r[near] - 1.6) / _poly(_D, r[near] - 1.6)
    x[~near] = _poly(_E, r[~near] - 5) / _poly(_F, r[~near] - 5)
    out[tail] = np.where(q[tail] < 0, -x, x)
    return out


def normals(seed: int, stream: int, n: int, start: int = 0) -> np.ndarray:
    """``n`` standard normals of the stream ``(seed, stream)``, from counter ``start`` on."""
    return normal_quantile(uniforms(seed, stream, n, start))


# --- the chi-square quantile -------------------------------------------------------------------
# An explorer's means over many queries at any d_k draw each query's length |q|, whose square is
# chi-square with d_k degrees of freedom, as the quantile of one uniform (common random numbers:
# the same uniform at every d_k, so the mean moves smoothly with the slider). random.js has the
# same functions, operation for operation: Halley's method on the regularised incomplete gamma
# function P(a, y) (a series below a + 1, Lentz's continued fraction for Q = 1 - P above), from
# the Wilson-Hilferty start, with log Gamma of a = k/2 summed exactly as a product of logs.

_LOG_SQRT_PI = 0.5723649429247001  # log(sqrt(pi))
_TINY = 1e-300


@functools.lru_cache(maxsize=64)
def _log_gamma_half(k: int) -> float:
    """log Gamma(k/2) for an integer k >= 1, as a sum of logs (Gamma(n) = (n-1)!,
    Gamma(n + 1/2) = sqrt(pi) (1/2)(3/2)...(n - 1/2)), summed in the same order as random.js."""
    total = 0.0
    if k % 2 == 0:
        for i in range(1, k // 2):
            total += math.log(i)
        return total
    total = _LOG_SQRT_PI
    for i in range(1, (k - 1) // 2 + 1):
        total += math.log(i - 0.5)
    return total


def _each(x, where):
    """``x[where]`` for a per-element array, ``x`` itself for a number shared by every element."""
    return x[where] if isinstance(x, np.ndarray) else x


def _lower_series(a, y: np.ndarray) -> np.ndarray:
    """sum_n y^n / (a (a+1) ... (a+n)), each element's terms added until they fall below 1e-17
    of its sum (random.js: ``lowerSeries``, one element at a time).

    All elements step together until the last has stopped: the terms shrink (y < a + 1), and
    one below 1e-17 of the sum is under half its ulp (>= 5.5e-17 of it), so adding it and
    every later one leaves that element's sum as random.js stops it, bit for bit. ``a`` is a
    number, or one per element (each element's arithmetic is the same either way)."""
    term = np.broadcast_to(1.0 / a, y.shape).astype(np.float64)
    total = term.copy()
    for n in range(1, 100_001):
        term *= y / (a + n)
        total += term
        if (term < total * 1e-17).all():
            break
    return total


def _upper_fraction(a, y: np.ndarray) -> np.ndarray:
    """Lentz's continued fraction for Q(a, y) e^y y^-a Gamma(a), per element (``upperFraction``):
    all elements step together, and each one's product stops changing at its own last step."""
    b = y + 1.0 - a
    c = np.full_like(y, 1.0 / _TINY)
    live = np.ones(y.shape, dtype=bool)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):  # stopped elements run on
        d = 1.0 / b
        h = d.copy()
        for i in range(1, 100_000):
            an = -i * (i - a)
            b += 2.0
            d = an * d + b
            d[np.abs(d) < _TINY] = _TINY
            c = b + an / c
            c[np.abs(c) < _TINY] = _TINY
            d = 1.0 / d
            step = d * c
            h = np.where(live, h * step, h)
            live &= ~(np.abs(step - 1.0) < 1e-16)
            if not live.any():
                break
    return h


def _tail(a, y: np.ndarray, log_gamma, lower: np.ndarray) -> np.ndarray:
    """P(a, y) where ``lower``, else Q(a, y): the regularised incomplete gamma function.
    ``a`` and ``log_gamma`` (log Gamma(a)) are numbers, or one per element of ``y``."""
    out = np.where(lower, 0.0, 1.0)
    pos = y > 0
    a, log_gamma = _each(a, pos), _each(log_gamma, pos)
    scale = np.exp(-y[pos] + a * np.log(y[pos]) - log_gamma)
    series = y[pos] < a + 1.0
    part = np.empty_like(scale)
    part[series] = _lower_series(_each(a, series), y[pos][series]) * scale[series]
    part[~series] = _upper_fraction(_each(a, ~series), y[pos][~series]) * scale[~series]
    low = lower[pos]
    # the series gives P, the fraction Q; the other is one minus it
    out[pos] = np.where(series, np.where(low, part, 1.0 - part), np.where(low, 1.0 - part, part))
    return out


#: Halley's method stops once a step is below this fraction of y: two or three steps. A tighter
#: bound is below the noise of P(a, y) and can cycle between neighbouring doubles up to the cap.
_STOP = 1e-13


def _chi2_quantiles(k, u: np.ndarray) -> np.ndarray:
    """The quantiles at the uniforms ``u`` (1-D), each element iterated as random.js does, with
    ``k`` degrees of freedom: one number, or one (>= 1) per element, so that many degrees of
    freedom are computed in one pass. The numbers that depend on ``k`` alone are computed per
    distinct ``k`` as Python floats, as for one ``k``: every element's arithmetic is the same."""
    ks = np.broadcast_to(np.asarray(k, dtype=np.int64), u.shape)
    distinct, which = np.unique(ks, return_inverse=True)
    which = which.reshape(u.shape)

    def per_k(fn):
        return np.array([fn(int(x)) for x in distinct], dtype=np.float64)[which]
    a = per_k(lambda x: 0.5 * x)
    log_gamma = per_k(_log_gamma_half)
    lower = u <= 0.5
    target = np.where(lower, u, 1.0 - u)
    z = normal_quantile(u)
    w = per_k(lambda x: 1.0 - 2.0 / (9.0 * x)) + z * per_k(lambda x: math.sqrt(2.0 / (9.0 * x)))
    y = a * w * w * w
    bad = ~(y > 1e-3 * a)  # the Wilson-Hilferty start fails far in the lower tail: P ~ y^a / Gamma(a + 1)
    y[bad] = np.exp((np.log(u[bad]) + log_gamma[bad] + per_k(lambda x: math.log(0.5 * x))[bad]) / a[bad])
    live = np.arange(u.size)
    for _ in range(200):
        yl, low, al, gl = y[live], lower[live], a[live], log_gamma[live]
        f = _tail(al, yl, gl, low) - target[live]
        density = np.exp(-yl + (al - 1.0) * np.log(yl) - gl)
        stop = (f == 0.0) | (density == 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):  # the stopped elements keep their y
            t = np.where(low, f / density, -f / density)
            step = t / (1.0 - 0.5 * t * ((al - 1.0) / yl - 1.0))
        new = yl - step
        new = np.where(new > 0.0, new, 0.5 * yl)
        done = np.abs(new - yl) <= _STOP * new
        y[live[~stop]] = new[~stop]
        live = live[~(stop | done)]
        if not live.size:
            break
    return 2.0 * y


def chi2_quantile(k, u) -> np.ndarray:
    """The quantile at ``u`` (in (0, 1)) of the chi-square distribution with ``k`` degrees of
    freedom, as ``random.js`` computes it (``chi2Quantile``): relative error about 1e-14.

    ``k`` is one integer >= 1, or an integer array that broadcasts against ``u`` (one ``k`` an
    element, computed in one pass and bit for bit as each ``k`` alone)."""
    u = np.asarray(v.real_array(u, "u", dtype=np.float64, min_ndim=0), dtype=np.float64)
    if ((u <= 0) | (u >= 1)).any():
        raise ValueError("u must lie strictly between 0 and 1")
    if np.ndim(k) == 0:
        ks = np.full(u.shape, v.positive_int(k, "k"), dtype=np.int64)
    else:
        arr = np.asarray(k)
        if arr.dtype.kind not in "iu":
            raise ValueError(f"k must hold integers, got dtype {arr.dtype}")
        if arr.size and arr.min() < 1:
            raise ValueError(f"k must be >= 1, got {int(arr.min())}")
        try:
            ks, u = np.broadcast_arrays(arr.astype(np.int64), u)
        except ValueError:
            raise ValueError(f"k of shape {arr.shape} does not broadcast against u of shape {u.shape}") from None
    return _chi2_quantiles(ks.ravel(), u.ravel()).reshape(u.shape)


def half_normal_bins(edges, sigma: float) -> np.ndarray:
    r"""P(eᵢ ≤ |X| < eᵢ₊₁) for X ~ N(0, σ²), between consecutive ``edges`` (increasing, from 0
    on, ``inf`` allowed last), as ``random.js`` computes it (``halfNormalBins``).

    P(|X| < e) is P(½, e²/2σ²), the regularised incomplete gamma function of the quantile
    above. A bin whose upper edge has e²/2σ² < 3/2 (where P is summed as a series) is the
    difference of two P; any other the difference of two Q = 1 − P (where Q is a continued
    fraction), so that neither difference cancels."""
    try:
        e = np.asarray(edges, dtype=np.float64)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"edges must be an array of real numbers: {exc}") from exc
    if (e.ndim != 1 or e.size < 2 or np.isnan(e).any() or not (np.diff(e) > 0).all() or e[0] < 0
            or not np.isfinite(e[:-1]).all()):
        raise ValueError("edges must be increasing, from 0 on, with only the last one infinite")
    sigma = v.positive_real(sigma, "sigma")
    with np.errstate(over="ignore"):
        y = (e / sigma) ** 2 / 2
    finite = np.isfinite(y)
    p, q = np.ones_like(y), np.zeros_like(y)  # P and Q at an infinite edge
    p[finite] = _tail(0.5, y[finite], _LOG_SQRT_PI, np.ones(finite.sum(), bool))
    q[finite] = _tail(0.5, y[finite], _LOG_SQRT_PI, np.zeros(finite.sum(), bool))
    return np.where(y[1:] < 1.5, p[1:] - p[:-1], q[:-1] - q[1:])
