"""A seeded generator implemented identically in Python and in the page's JavaScript
(``attention_scaling/web/random.js``), so that an explorer can draw its vectors in the page
from a seed instead of shipping them as numbers (issue 30).

Counter-based: value ``i`` of the stream ``(seed, stream)`` is SplitMix64 of its counter, so a
prefix, or any single value, is the same however it is asked for. :func:`uniforms` are the top
53 bits of each hash, exactly representable in a double; :func:`normals` are the normal
quantiles of those uniforms by Wichura's algorithm AS 241 (relative error about 1e-16): only
``+ - * /`` in the centre, where the page and the package agree bit for bit, and ``log`` and
``sqrt`` in the tails, where the two libraries' ``log`` can differ by a unit in the last place
and the result by a few (``tests/browser/test_web_numerics.py``).

The statistics are those of independent uniforms and normals for every use in the book; this
is not numpy's generator, whose draws (``numpy.random.default_rng``) the book uses elsewhere.
"""

from __future__ import annotations

import numpy as np

from . import _validate as v

__all__ = ["uniforms", "normals", "normal_quantile"]

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
    return ((z >> np.uint64(11)).astype(np.float64) + 0.5) / 9007199254740992.0


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
