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

import math

import numpy as np

from . import _validate as v

__all__ = ["uniforms", "normals", "normal_quantile", "chi2_quantile"]

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
    key = _key(seed, stream)
    counters = np.arange(start + 1, start + n + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = _mix64(key + counters * _GOLDEN)
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


def _lower_series(a: float, y: float) -> float:
    term = 1.0 / a
    total = term
    n = 0
    while n < 100_000:
        n += 1
        term *= y / (a + n)
        total += term
        if term < total * 1e-17:
            break
    return total


def _upper_fraction(a: float, y: float) -> float:
    b = y + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-16:
            break
    return h


def _tail(a: float, y: float, log_gamma: float, lower: bool) -> float:
    """P(a, y) (``lower``) or Q(a, y), the regularised incomplete gamma function."""
    if y <= 0:
        return 0.0 if lower else 1.0
    scale = math.exp(-y + a * math.log(y) - log_gamma)
    if y < a + 1.0:
        p = _lower_series(a, y) * scale
        return p if lower else 1.0 - p
    q = _upper_fraction(a, y) * scale
    return 1.0 - q if lower else q


def _chi2_quantile(k: int, u: float) -> float:
    a = 0.5 * k
    log_gamma = _log_gamma_half(k)
    lower = u <= 0.5
    target = u if lower else 1.0 - u
    z = float(normal_quantile(np.array([u]))[0])
    w = 1.0 - 2.0 / (9.0 * k) + z * math.sqrt(2.0 / (9.0 * k))
    y = 0.5 * k * w * w * w
    if not y > 1e-3 * a:  # the Wilson-Hilferty start fails far in the lower tail: P ~ y^a / Gamma(a + 1)
        y = math.exp((math.log(u) + log_gamma + math.log(a)) / a)
    for _ in range(200):
        f = _tail(a, y, log_gamma, lower) - target
        density = math.exp(-y + (a - 1.0) * math.log(y) - log_gamma)
        if f == 0.0 or density == 0.0:
            break
        t = f / density if lower else -f / density
        step = t / (1.0 - 0.5 * t * ((a - 1.0) / y - 1.0))
        new = y - step
        if not new > 0.0:
            new = 0.5 * y
        done = abs(new - y) <= 1e-15 * new
        y = new
        if done:
            break
    return 2.0 * y


def chi2_quantile(k: int, u) -> np.ndarray:
    """The quantile at ``u`` (in (0, 1)) of the chi-square distribution with ``k`` degrees of
    freedom, as ``random.js`` computes it (``chi2Quantile``): relative error about 1e-14."""
    k = v.positive_int(k, "k")
    u = np.asarray(v.real_array(u, "u", dtype=np.float64, min_ndim=0), dtype=np.float64)
    if ((u <= 0) | (u >= 1)).any():
        raise ValueError("u must lie strictly between 0 and 1")
    return np.vectorize(lambda x: _chi2_quantile(k, float(x)), otypes=[np.float64])(u)
