"""Exact references for the law of q.k (attention_scaling.dot_law), with mpmath, from the definitions.

They share no code with the module, and avoid the fault it had: mpmath.quad stops when its
error estimate is below an *absolute* epsilon (1e-40 at 40 digits), so a tail of 1e-70
integrated as it stands "converges" at once to a few digits. Here the integrand is divided
by its largest value (``tail``: the density is decreasing, so that is its value at the
threshold; ``by_norm``: its largest on the grid), so that the epsilon is a relative one. They
work at 30 digits unless told otherwise: on test_accuracy's cases they agree with 50-digit runs
to 1e-28, and to 3e-17 for a row of 1e150 keys (its integrand steps from 1 to 0 within one
interval of the grid), far below the 1e-12 the tests ask of the module.

* ``tail(y, d)``: P((A - B)/2 > y) for A, B independent chi^2_d, the integral of the
  variance-gamma density :math:`w^\\nu K_\\nu(w) / (\\sqrt\\pi\\,\\Gamma(\\nu + 1/2)\\,2^\\nu)`,
  :math:`\\nu = (d-1)/2`, with :math:`K_\\nu` from :math:`K_0, K_1` (odd d) or the elementary
  :math:`K_{1/2}, K_{3/2}` (even d) by the forward recurrence, which is stable for K.
  (The dot_law module integrates over the query's norm instead, or uses a finite sum.)
* ``by_norm(t, d, kind)``: E_R[g(R)] over R = |q|^2/m^2 ~ chi^2_d on a fine geometric grid,
  with g the probability that one score (``"tail"``), two scores of a row (``"square"``) or
  any of ``n`` scores of a row (``"row"``) exceed the threshold given R.
"""

from __future__ import annotations

import math

import mpmath


def _wk(w, d: int):
    """w^nu K_nu(w), nu = (d - 1)/2."""
    if d % 2:
        v, k0, k1 = mpmath.mpf(0), mpmath.besselk(0, w), mpmath.besselk(1, w)
    else:
        v = mpmath.mpf(1) / 2
        k0 = mpmath.sqrt(mpmath.pi / (2 * w)) * mpmath.exp(-w)
        k1 = k0 * (1 + 1 / w)
    nu = (mpmath.mpf(d) - 1) / 2
    while v < nu:  # K_{v+1} = K_{v-1} + (2v/w) K_v
        k0, k1 = k1, k0 + 2 * (v + 1) / w * k1
        v += 1
    return w**nu * k0


def tail(y, d: int, dps: int = 30):
    """P((A - B)/2 > y), y > 0: the density, decreasing in w, integrated from y relative to its value at y."""
    if y <= 0:
        raise ValueError("y must be > 0")
    with mpmath.workdps(dps):
        y = mpmath.mpf(y)
        nu = (mpmath.mpf(d) - 1) / 2
        log_c = -(mpmath.log(mpmath.pi) / 2 + mpmath.loggamma(nu + mpmath.mpf(1) / 2) + nu * mpmath.log(2))
        f0 = _wk(y, d)
        cuts = [mpmath.mpf(0)] + [mpmath.mpf(4) ** j for j in range(int(math.log(4 * d + 256, 4)) + 1)]
        return mpmath.exp(log_c) * f0 * mpmath.quad(lambda u: _wk(y + u, d) / f0, cuts + [mpmath.inf])


def threshold(t, d: int, magnitude: float = 1.0, scaled: bool = False):
    """The threshold on (A - B)/2 = q.k / m^2 (at the current precision)."""
    return mpmath.mpf(t) * (mpmath.sqrt(d) if scaled else 1) / mpmath.mpf(magnitude) ** 2


def by_norm(t, d: int, kind: str = "tail", n: int = 1, magnitude: float = 1.0, scaled: bool = False,
            digits: int = 30):
    """E_R[g(R)] at ``digits`` significant digits, on a fixed geometric grid of ratio 2^(1/4) (161
    intervals), the integrand divided by its largest value on the grid."""
    with mpmath.workdps(digits):
        s = threshold(t, d, magnitude, scaled)
        a = mpmath.mpf(d) / 2
        log_norm = a * mpmath.log(2) + mpmath.loggamma(a)

        def g(r):
            above = mpmath.erfc(s / mpmath.sqrt(2 * r)) / 2
            value = {"tail": above, "square": above**2, "row": -mpmath.expm1(n * mpmath.log1p(-above))}[kind]
            return mpmath.exp((a - 1) * mpmath.log(r) - r / 2 - log_norm) * value

        end = 20 * (abs(s) + d + 10)
        grid = [end * mpmath.mpf(2) ** (-mpmath.mpf(k) / 4) for k in range(160, -1, -1)]
        top = max(g(r) for r in grid)
        return top * mpmath.quad(lambda r: g(r) / top, [mpmath.mpf(0)] + grid + [mpmath.inf])
