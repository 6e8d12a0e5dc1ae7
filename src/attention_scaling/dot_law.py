r"""The exact law of an attention score :math:`q\cdot k`, and how often a row of scores overflows.

With independent components :math:`q_i, k_i \sim \mathcal N(0, m^2)`, the score
:math:`q\cdot k` has mean 0 and variance :math:`m^4 d_k`, but it is **not** normal. Write
:math:`q_i k_i = m^2 (U_i^2 - V_i^2)/2` with :math:`U_i = (x_i + y_i)/\sqrt 2` and
:math:`V_i = (x_i - y_i)/\sqrt 2` independent standard normals (:math:`x, y` the
standardised components). Summing over :math:`i`,

.. math::

    q\cdot k = \frac{m^2}{2}\,(A - B), \qquad A, B \text{ independent } \chi^2_{d_k},

where :math:`\chi^2_{d}` is the law of a sum of the squares of :math:`d` independent
standard normals (a gamma law with shape :math:`d/2` and scale 2). Differences of two
independent gamma variables of the same shape form the *variance-gamma* family;
:math:`q\cdot k` is a symmetric member of it. For :math:`d_k = 1` it is :math:`m^2` times a
product of two standard normals, with density :math:`K_0(|x|)/\pi`, where :math:`K_0` is
the modified Bessel function of the second kind of order 0 (it falls like
:math:`e^{-|x|}/\sqrt{|x|}`). Its tails are exponential,
:math:`\approx e^{-|x|/m^2}` times a power of :math:`|x|` (for :math:`d_k = 2` exactly
:math:`P(q\cdot k > x) = e^{-x/m^2}/2`), while a normal law with the same variance
has Gaussian tails :math:`e^{-x^2/(2 m^4 d_k)}`: far out, the normal approximation is off by
many orders of magnitude.

For even :math:`d_k = 2n`, :math:`A/2` and :math:`B/2` are Gamma(:math:`n`, 1) and the tail
is a finite sum of **positive** terms (no cancellation),

.. math::

    P\!\left(\tfrac{A - B}{2} > y\right) = e^{-y} \sum_{j=0}^{n-1} \frac{y^j}{j!}
    \sum_{i=0}^{n-1-j} \binom{n-1+i}{i} 2^{-(n+i)}, \qquad y \ge 0,

which :func:`dot_tail` evaluates with mpmath (40 significant digits), so it is accurate
to a small relative error however far out the tail lies. For odd :math:`d_k` it integrates
over the query's norm, :math:`P(q\cdot k > t) = \mathbb E_R[\bar\Phi(t/(m^2\sqrt R))]` (below),
with mpmath's quadrature at 25 digits. mpmath stops when its error estimate falls below an
*absolute* epsilon (1e-25 at 25 digits), so every quadrature here is carried out on the integrand
divided by its value at its peak (located in closed form from the tail's asymptotics): the
result keeps its relative accuracy down to float64's smallest subnormal, below which it is 0.

A naive softmax fails a whole row if **any** of its scores overflows. The scores of one row
share their query, so they are not independent; given the query, they are: with
:math:`R = \lVert q\rVert^2/m^2 \sim \chi^2_{d_k}`, each score is
:math:`\mathcal N(0, m^4 R)` and

.. math::

    P(\text{row fails}) = 1 - \mathbb E_R\!\left[\bigl(1 - \bar\Phi(t / (m^2\sqrt R))\bigr)^{n}\right],

a one-dimensional integral (:func:`row_failure`). The same conditioning gives the exact
standard error of a sampled fraction of scores (:func:`score_fraction_se`).

Every public function validates its arguments and raises :class:`ValueError` whose message
starts with the parameter's name. scipy is not used.
"""

from __future__ import annotations

import math
import numbers

import mpmath
import numpy as np

from . import _validate as v

__all__ = ["dot_tail", "normal_tail", "row_failure", "score_fraction_se"]

_DIGITS = 40  # closed form and erfc
# Quadratures: _mean_over_norm scales each integrand to order one at its peak, so mpmath's absolute
# epsilon (1e-25) is a relative one, and 25 digits suffice: on 150 random cases (d_k 1 to 2**20 - 1,
# tails down to the subnormals, rows of up to 1e40 keys) every float is the one 40 digits give, and
# test_accuracy holds them to 1e-12 of 50-digit references. (Before that scaling 40 were needed.)
_QUAD_DIGITS = 25
_MAX_D = 2**20


def _real(value, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    value = v.as_float(value, name)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def _flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _args(t, d_k, magnitude, scaled):
    """Validated (threshold on q.k, m, d_k); see :func:`_s`."""
    t = _real(t, "t")
    d_k = v.positive_int(d_k, "d_k")
    if d_k > _MAX_D:
        raise ValueError(f"d_k must be at most {_MAX_D}, got {d_k}")
    m = v.positive_real(magnitude, "magnitude")
    scaled = _flag(scaled, "scaled")
    return (t, scaled), m, d_k


def _s(score, m: float, d: int):
    """The threshold on (A - B)/2 = q.k / m^2, at the working precision."""
    t, scaled = score
    on_dot = mpmath.mpf(t) * mpmath.sqrt(d) if scaled else mpmath.mpf(t)  # threshold on q.k
    return on_dot / mpmath.mpf(m) ** 2


def _tail_even(y, n: int):
    """P(G1 - G2 > y) for independent Gamma(n, 1), y >= 0: positive terms only."""
    # w_i = C(n-1+i, i) 2^-(n+i); c_j = w_0 + ... + w_{n-1-j}
    w = mpmath.mpf(2) ** -n
    cumulative = []
    total = mpmath.mpf(0)
    for i in range(n):
        total += w
        cumulative.append(total)
        w = w * (n + i) / (2 * (i + 1))
    s, term = mpmath.mpf(0), mpmath.mpf(1)
    for j in range(n):
        if j:
            term = term * y / j
        s += term * cumulative[n - 1 - j]
    return mpmath.exp(-y) * s


def _chi_pdf(d: int):
    r"""The density of :math:`U = \sqrt R`, :math:`R \sim \chi^2_d`: :math:`u^{d-1} e^{-u^2/2} / (2^{d/2-1}\Gamma(d/2))`,
    finite at 0 for every d (the density of R itself is infinite there for d = 1)."""
    a = mpmath.mpf(d) / 2
    log_norm = (a - 1) * mpmath.log(2) + mpmath.loggamma(a)
    at_zero = mpmath.exp(-log_norm) if d == 1 else mpmath.mpf(0)
    return lambda u: mpmath.exp((d - 1) * mpmath.log(u) - u * u / 2 - log_norm) if u > 0 else at_zero


def _tail(x, d: int):
    """P(A - B > x), A, B independent chi^2_d with d even, any real x: the closed form."""
    if x < 0:
        return 1 - _tail(-x, d)
    return _tail_even(x / 2, d // 2)


def _peak(s, d: int, power: int):
    r"""Where :math:`f_{\chi^2_d}(r)\,\bar\Phi(s/\sqrt r)^{k}` peaks (``k = power``, ``s > 0``), and its width.

    With :math:`\ln\bar\Phi(x) \approx -x^2/2 - \ln x` its logarithm is about
    :math:`b\ln r - r/2 - k s^2/(2r)` with :math:`b = d/2 - 1 + k/2`: the maximum is at
    :math:`r^* = b + \sqrt{b^2 + k s^2}` and the second derivative there is
    :math:`-(r^* - b)/r^{*2}`. Exact in the far tail; elsewhere a guide for the breakpoints.
    """
    b = mpmath.mpf(d) / 2 - 1 + mpmath.mpf(power) / 2
    root = mpmath.sqrt(b * b + power * s * s)
    r = b + root
    return r, r / mpmath.sqrt(root)


def _bulk(d: int) -> set:
    """Breakpoints (values of R) around the bulk of the chi^2_d density: its mean is d."""
    return {mpmath.mpf(d) / 4, mpmath.mpf(d), mpmath.mpf(4 * d + 10)}


def _mean_over_norm(f, d: int, s, power: int = 1, extra=()):
    r"""E[f(R)] for R ~ chi^2_d, to the working precision *relative to its value*, however small.

    ``f`` behaves like :math:`\bar\Phi(s/\sqrt r)^{k}` (``k = power``) in the tail; ``extra``
    are other values of R where the integrand may peak. mpmath's quadrature stops when its
    error estimate falls below an *absolute* epsilon (1e-25 at 25 digits), so an integral of
    1e-70 used to "converge" at once, to a few digits. Here the breakpoints bracket the peak of
    :func:`_peak` (for ``s > 0``, and :math:`s^2`, where :math:`\bar\Phi(s/\sqrt R)` turns, if
    it lies below that; else the bulk of the density), the integrand is divided by its largest
    value there, so that the scaled integral is of order one, and the result is scaled back.
    The integral runs over the norm :math:`u = \sqrt r`, whose density is smooth at 0 for every
    d (for d = 1 that of r is not, and the quadrature lost 1e-23 of the 40 digits there).
    """
    pdf = _chi_pdf(d)
    if s > 0:
        r, width = _peak(s, d, power)
        points = {r + j * width for j in (-3, 0, 3, 8)} | set(extra)
        if s * s < min(x for x in points if x > 0):
            points.add(s * s)
    else:
        points = _bulk(d)
    inner = sorted(mpmath.sqrt(x) for x in points if x > 0)
    g = lambda u: pdf(u) * f(u * u)  # noqa: E731
    top = max(g(x) for x in inner)
    if top == 0:
        return mpmath.mpf(0)
    return top * mpmath.quad(lambda u: g(u) / top, [mpmath.mpf(0)] + inner + [mpmath.inf])


def dot_tail(t, d_k, magnitude: float = 1.0, scaled: bool = False, method: str = "auto") -> float:
    r"""Exact :math:`P(q\cdot k > t)`, or :math:`P(q\cdot k/\sqrt{d_k} > t)` with ``scaled=True``.

    Components of :math:`q` and :math:`k` are i.i.d. :math:`\mathcal N(0, m^2)`, so
    :math:`q\cdot k = m^2(A - B)/2` with :math:`A, B` independent :math:`\chi^2_{d_k}`.

    Parameters
    ----------
    t : float
        The threshold.
    d_k : int, 1 <= d_k <= 2**20
    magnitude : float > 0
        Standard deviation :math:`m` of each component.
    scaled : bool
        Whether the score is divided by :math:`\sqrt{d_k}`.
    method : "auto", "closed" or "quad"
        "auto" uses the closed form (a finite sum of positive terms) for even
        :math:`d_k` and quadrature over the query's norm for odd :math:`d_k`;
        "quad" always integrates (slower; a check on the closed form).

    Returns
    -------
    float
        The probability, to a relative error far below float64's (40-digit mpmath for the
        closed form, a 25-digit quadrature otherwise), then
        rounded to float64 by mpmath (a subnormal below 2.2e-308, to within a unit of
        2**-1074; 0.0 only below float64's smallest positive number).
    """
    if method not in ("auto", "closed", "quad"):
        raise ValueError(f"method must be 'auto', 'closed' or 'quad', got {method!r}")
    score, m, d = _args(t, d_k, magnitude, scaled)
    closed = method != "quad" and d % 2 == 0
    with mpmath.workdps(_DIGITS if closed else _QUAD_DIGITS):
        return float(_probability(_s(score, m, d), d, closed))


def normal_tail(t, d_k, magnitude: float = 1.0, scaled: bool = False) -> float:
    r"""The normal approximation: :math:`P(X > t)` with :math:`X` normal of the same variance.

    Unscaled, :math:`X \sim \mathcal N(0, m^4 d_k)`; scaled, :math:`\mathcal N(0, m^4)`.
    Computed with erfc, so it is accurate far into the tail (no :math:`1 - \Phi`).
    """
    score, m, d = _args(t, d_k, magnitude, scaled)
    with mpmath.workdps(_DIGITS):
        s = _s(score, m, d)
        return float(mpmath.erfc(s / mpmath.sqrt(2 * d)) / 2)


def _probability(s, d: int, closed: bool):
    """P((A - B)/2 > s): the closed form, or the mixture over the query's norm."""
    if closed:
        return _tail(2 * s, d)
    return _mean_over_norm(_given_norm(s, d), d, s)


def _given_norm(s, d: int):
    """The probability that one score exceeds its threshold given R = |q|^2/m^2 = r."""
    return lambda r: mpmath.erfc(s / mpmath.sqrt(2 * r)) / 2 if r > 0 else mpmath.mpf(s < 0) + (s == 0) / 2


def row_failure(t, d_k, n_keys, magnitude: float = 1.0, scaled: bool = False) -> float:
    r"""Exact probability that a row of ``n_keys`` scores has at least one score above ``t``.

    The row shares one query :math:`q`; its keys are independent. Conditioning on
    :math:`R = \lVert q\rVert^2/m^2 \sim \chi^2_{d_k}` makes the scores independent
    :math:`\mathcal N(0, m^4 R)` (times :math:`1/d_k` in variance when scaled), and the
    result is :math:`1 - \mathbb E_R[(1 - \bar\Phi)^{n}]`, integrated with mpmath.
    Treating the scores as independent, :math:`1 - (1 - p)^n` with ``p = dot_tail(...)``,
    overstates it.
    """
    n = v.positive_int(n_keys, "n_keys")
    score, m, d = _args(t, d_k, magnitude, scaled)
    with mpmath.workdps(_QUAD_DIGITS):
        s = _s(score, m, d)
        above = _given_norm(s, d)
        # where n P(one score) reaches 1 the row fails almost surely: there the integrand can peak
        saturation = [s * s / (2 * mpmath.log(n))] if n > 1 and s > 0 else []
        # 1 - (1 - a)^n without cancellation when a is tiny
        return float(_mean_over_norm(lambda r: -mpmath.expm1(n * mpmath.log1p(-above(r))), d, s, extra=saturation))


def score_fraction_se(t, d_k, n_queries, n_keys, magnitude: float = 1.0, scaled: bool = False) -> float:
    r"""Exact standard error of the fraction of scores above ``t`` in an all-pairs sample.

    The sample is every score :math:`q_a\cdot k_b` of ``n_queries`` queries and ``n_keys``
    keys. Two scores that share a query (or, by symmetry, a key) are correlated with
    covariance :math:`c = \mathbb E_R[\bar\Phi^2] - p^2 = \mathbb E_R[(\bar\Phi - p)^2]` (the
    latter is integrated: it cannot cancel); scores that share neither are
    independent. Hence

    .. math::

        \operatorname{Var} = \frac{p(1-p) + (n_k - 1)c + (n_q - 1)c}{n_q n_k}.
    """
    nq = v.positive_int(n_queries, "n_queries")
    nk = v.positive_int(n_keys, "n_keys")
    score, m, d = _args(t, d_k, magnitude, scaled)
    with mpmath.workdps(_QUAD_DIGITS):
        # Negating the query negates every score, so the fraction above -t is one less the fraction
        # above t (ties have probability 0), with the same variance.
        s = abs(_s(score, m, d))
        p = _probability(s, d, d % 2 == 0)
        above = _given_norm(s, d)
        # c = E[(Phi_bar - p)^2], a sum of squares: E[Phi_bar^2] - p^2 cancelled where Phi_bar
        # hardly varies with R (to noise of either sign). An error e in p adds only e^2. Below the
        # tail's peak, (Phi_bar - p)^2 is about p^2 times the density: its bulk is a breakpoint too.
        c = _mean_over_norm(lambda r: (above(r) - p) ** 2, d, s, power=2, extra=_bulk(d))
        return float(mpmath.sqrt((p * (1 - p) + (nk - 1 + nq - 1) * c) / (nq * nk)))
