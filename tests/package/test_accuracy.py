"""Accuracy against exact references: every numeric function of the package, in float64,
to 1e-12 relative, across the whole saturation regime and for scores up to the overflow
threshold.

The references are computed with mpmath at 50 significant digits or more (more for large
scores, so that z_i - max z is exact to 50 digits), from the float64 inputs taken as exact
numbers. The tolerance is 1e-12 relative; where the exact value is itself subnormal, float64
cannot hold 12 digits of it, so a few units of the smallest subnormal (2**-1074) are allowed too.

The saturation regime is 1 - P_max from about 1e-1 down to the smallest positive double
(gap up to ~744 between the largest score and the next one); ``saturated_scores`` draws it
by drawing log10(1 - P_max) uniformly.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from attention_scaling import diagonal_gradient, entropy, jacobian_norm, normal_cdf, softmax, softmax_jacobian
from attention_scaling.stability import log_softmax, logsumexp

RTOL = 1e-12
SUBNORMAL = 2.0**-1074
ATOL = 8 * SUBNORMAL
EPS = float(np.finfo(np.float64).eps)
BIG = float(np.finfo(np.float64).max)


def _dps(z) -> int:
    """50 digits beyond the integer part of the largest score, and 330 more, so that the
    reference's own 1 - P keeps 50 digits when 1 - P is as small as 1e-324."""
    return 380 + int(math.log10(max(1.0, float(np.abs(np.asarray(z)).max())))) + 1


def exact_softmax(z):
    """mpmath softmax of the float64 scores z (a list of mpf at the current precision)."""
    zs = [mpmath.mpf(float(x)) for x in z]
    m = max(zs)
    e = [mpmath.exp(x - m) for x in zs]
    s = mpmath.fsum(e)
    return [x / s for x in e]


def assert_close(computed, exact, rtol=RTOL, atol=ATOL, what=""):
    computed = np.asarray(computed, dtype=np.float64)
    exact_f = np.array([float(x) for x in np.ravel(np.asarray(exact, dtype=object))]).reshape(computed.shape)
    # A log-probability below -1.8e308 (scores spanning the whole float range) has no float64
    # value; log_softmax returns -inf there by design (as it does for float16), and only there.
    beyond = np.isneginf(exact_f)
    assert (np.isneginf(computed) == beyond).all(), (what, computed, exact_f)
    computed, exact_f = np.where(beyond, 0, computed), np.where(beyond, 0, exact_f)
    err = np.abs(computed - exact_f)
    bound = rtol * np.abs(exact_f) + atol
    assert np.isfinite(computed).all(), (what, computed)
    assert (err <= bound).all(), (what, computed, exact_f, (err / np.maximum(np.abs(exact_f), SUBNORMAL)).max())


@st.composite
def saturated_scores(draw, max_n=6):
    """Scores whose softmax is saturated: 1 - P_max from ~1e-1 down to the smallest double."""
    n = draw(st.integers(2, max_n))
    top = draw(st.one_of(st.floats(-50, 50), st.floats(-1e6, 1e6), st.floats(-BIG / 2, BIG / 2)))
    log_delta = draw(st.floats(-323.3, -1.0))  # log10 of the weight of the nearest rival
    g1 = -log_delta * math.log(10)
    gaps = [g1] + [g1 + draw(st.floats(0, 800)) for _ in range(n - 2)]
    z = np.array([top] + [top - g for g in gaps])
    order = draw(st.permutations(range(n)))
    return z[list(order)]


any_finite = st.floats(-BIG, BIG, allow_nan=False, allow_infinity=False)
general_scores = st.lists(st.one_of(any_finite, st.floats(-40, 40)), min_size=2, max_size=6).map(np.array)
scores = st.one_of(saturated_scores(), general_scores)


@settings(max_examples=200, deadline=None)
@given(scores)
def test_softmax_is_exact_to_1e12(z):
    from attention_scaling.stability import masked_softmax

    p = softmax(z)
    with mpmath.workdps(_dps(z)):
        exact = exact_softmax(z)
        assert_close(p, exact, what="softmax")
        assert_close(masked_softmax(z, np.ones(len(z), bool)), exact, what="masked_softmax")


@settings(max_examples=150, deadline=None)
@given(scores)
def test_jacobian_every_entry_is_exact_to_1e12(z):
    jac = softmax_jacobian(softmax(z))
    with mpmath.workdps(_dps(z)):
        p = exact_softmax(z)
        n = len(p)
        exact = [[p[i] * ((1 if i == j else 0) - p[j]) for j in range(n)] for i in range(n)]
        assert_close(jac, exact, what="softmax_jacobian")


def _exact_norm(p):
    """Largest eigenvalue of diag(p) - p p^T, by mpmath's symmetric eigensolver."""
    n = len(p)
    scale = max(p[i] * (1 - p[i]) for i in range(n))
    if scale == 0:
        return mpmath.mpf(0)
    # scaled to order 1 so that the eigensolver's absolute tolerance is relative
    m = mpmath.matrix([[p[i] * ((1 if i == j else 0) - p[j]) / scale for j in range(n)] for i in range(n)])
    return max(mpmath.eigsy(m, eigvals_only=True)) * scale


@settings(max_examples=120, deadline=None)
@given(scores)
def test_jacobian_norm_is_exact_to_1e12(z):
    norm = jacobian_norm(softmax(z))
    with mpmath.workdps(_dps(z) + 20):
        assert_close(norm, _exact_norm(exact_softmax(z)), what="jacobian_norm")


@settings(max_examples=150, deadline=None)
@given(scores)
def test_diagonal_gradient_is_exact_to_1e12(z):
    p = softmax(z)
    g = diagonal_gradient(p, axis=-1)
    with mpmath.workdps(_dps(z)):
        exact = [x * (1 - x) for x in exact_softmax(z)]
        assert_close(g, exact, what="diagonal_gradient(axis=-1)")
        if len(z) == 2:  # for two scores 1 - P_1 = P_2
            assert_close(diagonal_gradient(p[0], complement=p[1]), exact[0], what="complement")


@settings(max_examples=150, deadline=None)
@given(scores)
def test_entropy_is_exact_to_1e12(z):
    h = entropy(softmax(z))
    with mpmath.workdps(_dps(z)):
        exact = -mpmath.fsum(x * mpmath.log(x) for x in exact_softmax(z) if x > 0)
        # A weight below 2**-1022 is subnormal: float64 holds it only to half a unit of 2**-1074,
        # and its term -P ln P multiplies that rounding by |ln P| + 1 <= 746.
        assert_close(h, exact, atol=746 * ATOL, what="entropy")


@settings(max_examples=200, deadline=None)
@given(scores)
@example(np.array([1.7976931348623157e308, -9.97920155e291]))  # log_softmax beyond the float range
def test_logsumexp_is_exact_to_1e12(z):
    """Relative 1e-12, plus 4 eps |max z|: where logsumexp crosses 0 (max z in about [-ln n, 0])
    the result cancels, and rounding the input max z by one unit already moves it that much."""
    out = logsumexp(z)
    with mpmath.workdps(_dps(z)):
        zs = [mpmath.mpf(float(x)) for x in z]
        m = max(zs)
        exact = m + mpmath.log(mpmath.fsum(mpmath.exp(x - m) for x in zs))
        assert_close(out, exact, atol=ATOL + 4 * EPS * float(abs(m)), what="logsumexp")
        assert_close(log_softmax(z), [x - exact for x in zs], what="log_softmax")


finite_x = st.one_of(st.floats(-40, 40), any_finite, st.sampled_from([-np.inf, np.inf]))


@settings(max_examples=300, deadline=None)
@given(finite_x, st.one_of(st.just(1.0), st.floats(1e-300, 1e300)))
def test_normal_cdf_is_exact_to_1e12(x, sigma):
    with mpmath.workdps(60):
        t = mpmath.mpf(x) / mpmath.mpf(sigma) if not math.isinf(x) else x
        if abs(t) > 1000:  # Mills: the tail is below exp(-t^2/2) < 1e-200000, far under ATOL
            exact = mpmath.mpf(0 if t < 0 else 1)
        else:
            exact = mpmath.erfc(-mpmath.mpf(x) / (mpmath.mpf(sigma) * mpmath.sqrt(2))) / 2
    scalar = normal_cdf(x, sigma=sigma)
    assert isinstance(scalar, np.float64)
    assert_close(scalar, exact, what="normal_cdf scalar")
    assert_close(normal_cdf(np.array(x), sigma=sigma), exact, what="normal_cdf 0-d")
    assert_close(normal_cdf([x, x], sigma=sigma), [exact, exact], what="normal_cdf array")


# --- the cases the review found, each against its exact value -----------------------------

@pytest.mark.parametrize("z", [[18.72, 0.0], [60.0, 0.0], [20.0, 0, 0, 0], [40.0, 0, 0], [37.0, 0.0],
                               [745.0, 0.0], [0.0, -744.0, -744.0]])
def test_the_reported_saturated_points(z):
    z = np.array(z)
    p = softmax(z)
    with mpmath.workdps(_dps(z) + 20):
        pe = exact_softmax(z)
        n = len(pe)
        assert_close(softmax_jacobian(p), [[pe[i] * ((1 if i == j else 0) - pe[j]) for j in range(n)]
                                           for i in range(n)], what="J")
        assert_close(jacobian_norm(p), _exact_norm(pe), what="norm")
        assert_close(diagonal_gradient(p, axis=-1), [x * (1 - x) for x in pe], what="P(1-P)")
        assert jacobian_norm(p) > 0 or _exact_norm(pe) < SUBNORMAL  # never a gradient rounded to none


def test_normal_cdf_left_tail_and_scalar_forms():
    with mpmath.workdps(60):
        exact = mpmath.ncdf(-10)
    assert_close(normal_cdf(-10.0), exact)
    assert normal_cdf(-10.0) > 0
    assert normal_cdf(0) == 0.5 and normal_cdf(np.float32(0)) == 0.5
    assert normal_cdf(np.array(0.0)).ndim == 0
    assert normal_cdf([[0.0, -np.inf]]).shape == (1, 2)


@settings(max_examples=150, deadline=None)
@given(saturated_scores(), st.lists(st.floats(-1e3, 1e3), min_size=6, max_size=6))
def test_masked_softmax_backward_keeps_saturated_gradients(z, g):
    """J g = P_i sum_j P_j (g_i - g_j), against mpmath. The tolerance is 1e-12 relative plus a few
    roundings of that sum's terms taken in absolute value (the problem's own condition: the
    g_i - g_j are rounded inputs' differences), which is far below the result itself when the
    terms do not cancel; P - <P, g> formed naively misses the top entry entirely."""
    from attention_scaling.stability import masked_softmax_backward

    g = np.array(g[: len(z)])
    out = masked_softmax_backward(softmax(z), g)
    with mpmath.workdps(_dps(z)):
        p = exact_softmax(z)
        gm = [mpmath.mpf(float(x)) for x in g]
        n = len(p)
        exact = [p[i] * mpmath.fsum(p[j] * (gm[i] - gm[j]) for j in range(n)) for i in range(n)]
        cond = [p[i] * mpmath.fsum(p[j] * abs(gm[i] - gm[j]) for j in range(n)) for i in range(n)]
    for i in range(n):
        err = abs(mpmath.mpf(float(out[i])) - exact[i])
        # a subnormal weight holds only to half a unit of 2**-1074, times a difference of g
        atol = ATOL * (1 + float(np.ptp(g)))
        assert err <= RTOL * abs(exact[i]) + 8 * n * EPS * cond[i] + atol, (i, out, exact)


# --- the saturated corners of weight_measures, context and dot_law (issue 27, part 2) ------------

from attention_scaling import dot_law, weight_measures  # noqa: E402
import exact_laws  # noqa: E402


def test_weight_measures_largest_gradient_is_the_saturated_weights():
    """softmax([40, 0, 0]): the largest P(1-P) is P1 (P2 + P3) = 8.497e-18, not 4.248e-18 (1 - P1 subtracted)."""
    z = np.array([40.0, 0.0, 0.0])
    with mpmath.workdps(60):
        pe = exact_softmax(z)
        assert_close(weight_measures(softmax(z))["largest P(1-P)"], pe[0] * (pe[1] + pe[2]))


@settings(max_examples=150, deadline=None)
@given(scores)
def test_weight_measures_are_exact_to_1e12(z):
    out = weight_measures(softmax(z))
    with mpmath.workdps(_dps(z)):
        pe = exact_softmax(z)
        assert_close(out["max weight"], max(pe), what="max weight")
        assert_close(out["largest P(1-P)"], max(x * (1 - x) for x in pe), what="largest P(1-P)")
        assert_close(out["entropy"], -mpmath.fsum(x * mpmath.log(x) for x in pe if x > 0), atol=746 * ATOL,
                     what="entropy")


# the reviewer's points: (d_k, t), relative errors 8e-8, 4.5e-7, 4 %, 18 % and 85 % on main
DEEP_ODD = [(1, 303.0), (3, 305.0), (63, 238.0), (511, 367.8), (511, 700.0)]


@pytest.mark.parametrize("d, t", DEEP_ODD)
def test_dot_tail_odd_dimension_deep_in_the_tail(d, t):
    """Below 1e-40 the quadrature used to stop at once (mpmath's error estimate is absolute)."""
    exact = exact_laws.tail(t, d)
    assert exact < 1e-40
    assert_close(dot_law.dot_tail(t, d), exact, what="auto")
    assert_close(dot_law.dot_tail(t, d, method="quad"), exact, what="quad")
    assert_close(dot_law.dot_tail(-t, d), 1 - exact, what="left tail")


@pytest.mark.parametrize("d, t", [(64, 240.0), (2, 700.0), (16, 650.0), (128, 420.0)])
def test_dot_tail_quad_agrees_with_the_closed_form_deep_in_the_tail(d, t):
    """method="quad" at d_k = 64, t = 240 was off by 4.4 %; the closed form is right to 1e-306."""
    exact = exact_laws.tail(t, d)
    assert_close(dot_law.dot_tail(t, d), exact, what="closed")
    assert_close(dot_law.dot_tail(t, d, method="quad"), exact, what="quad")


@pytest.mark.parametrize("d, t", [(63, 830.0), (127, 905.0)])
def test_dot_tail_underflow_is_a_subnormal_or_zero(d, t):
    """Beyond float64's normal range the result is the subnormal mpmath rounds to, and 0.0 far below 2**-1075."""
    exact = exact_laws.tail(t, d)
    assert 2.0**-1075 < exact < 2.0**-1022
    assert_close(dot_law.dot_tail(t, d), exact)
    assert dot_law.dot_tail(t + 60, d) == 0.0


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([1, 2, 3, 5, 8, 17, 32, 65]), st.floats(90.0, 740.0), st.sampled_from([1.0, 0.8, 1.3]),
       st.booleans())
@example(65, 740.0, 1.3, False)  # the ends of the range: the largest odd d_k at the underflow,
@example(1, 90.0, 0.8, True)  # the smallest at the near end
def test_dot_tail_is_exact_to_1e12_down_to_the_underflow(d, y, m, scaled):
    """Thresholds y on q.k/m^2 from 90 (tails of 1e-40 to 1e-30) to 740 (subnormal), odd and even d_k,
    both methods. Closer in, test_dot_law checks against the mixture at 50 digits. Ten random cases
    a run (about 0.6 s each); the fixed deep-tail cases below and test_properties' add more."""
    t = y * m * m / (math.sqrt(d) if scaled else 1.0)
    with mpmath.workdps(50):
        exact = exact_laws.tail(exact_laws.threshold(t, d, m, scaled), d)
    assert_close(dot_law.dot_tail(t, d, magnitude=m, scaled=scaled), exact, what="auto")
    assert_close(dot_law.dot_tail(t, d, magnitude=m, scaled=scaled, method="quad"), exact, what="quad")


def test_row_failure_deep_tail_is_n_times_the_tail():
    """row_failure(300, 2, 256) gave 2.7e-149 on main. For d_k = 2 one score's tail is e^-300/2, and
    256 e^-300/2 = 6.59e-129 bounds the row from above; Bonferroni bounds it from below by
    C(256, 2) P(two scores of a row) less. With Phi_bar(x)^2 <= e^(-x^2)/4 and R ~ Exp(mean 2),
    P(two) <= E[e^(-s^2/R)]/4 = sqrt(2) s K_1(sqrt(2) s)/4, below 1e-50 of the row."""
    t, d, n = 300.0, 2, 256
    with mpmath.workdps(60):
        s = mpmath.mpf(t)
        one = mpmath.exp(-s) / 2
        two = mpmath.sqrt(2) * s * mpmath.besselk(1, mpmath.sqrt(2) * s) / 4
        assert n * (n - 1) / 2 * two < 1e-50 * n * one
        assert_close(dot_law.row_failure(t, d, n), n * one)


@pytest.mark.parametrize("t, d, n, m, scaled", [
    (300.0, 2, 256, 1.0, False), (238.0, 63, 8, 1.0, False), (40.0, 64, 256, 1.0, True),
    pytest.param(300.0, 64, 10**150, 1.0, False, id="n=1e150"),  # n P(score) ~ 1e71: fails where |q| is large
    (500.0, 1, 3, 1.2, False),
])
def test_row_failure_is_exact_to_1e12_in_the_tail(t, d, n, m, scaled):
    got = dot_law.row_failure(t, d, n, magnitude=m, scaled=scaled)
    exact = exact_laws.by_norm(t, d, "row", n=n, magnitude=m, scaled=scaled)
    assert_close(got, exact)


@pytest.mark.parametrize("t, d, nq, nk", [(238.0, 63, 16, 32), (303.0, 1, 4, 4),
                                          (100.0, 16, 10**20, 10**20), (150.0, 2, 10**30, 10**30)])
def test_score_fraction_se_is_exact_to_1e12_in_the_tail(t, d, nq, nk):
    """Odd d_k (one score's tail by quadrature too), and even d_k with samples so large that the
    covariance of scores sharing a query, E[Phi_bar^2] - p^2 (2.9e-54 at t = 100, d_k = 16), dominates:
    it was integrated below mpmath's absolute epsilon (a factor 8 off there on main)."""
    got = dot_law.score_fraction_se(t, d, nq, nk)
    with mpmath.workdps(60):
        p = exact_laws.tail(t, d, dps=40)
        two = exact_laws.by_norm(t, d, "square", digits=40)
        exact = mpmath.sqrt((p * (1 - p) + (nq + nk - 2) * (two - p * p)) / (nq * nk))
    assert_close(got, exact)


@pytest.mark.parametrize("t, d", [(-700.0, 2), (-100.0, 31)])
def test_score_fraction_se_left_of_zero_is_that_of_the_right(t, d):
    """Negating the query negates every score: the fraction above -t is one less the fraction above t,
    with the same variance. On main, E[Phi_bar^2] - p^2 cancelled left of zero (p near 1): at
    t = -700 it went negative and the square root complex (TypeError), at -100, d_k = 31, it was
    3e-10 and 3e-8 off. The reference is the sum at |t| (40 digits)."""
    with mpmath.workdps(60):
        p = exact_laws.tail(-t, d, dps=40)
        two = exact_laws.by_norm(-t, d, "square", digits=40)
        for nq, nk in [(2, 7), (256, 769)]:
            exact = mpmath.sqrt((p * (1 - p) + (nq + nk - 2) * (two - p * p)) / (nq * nk))
            assert_close(dot_law.score_fraction_se(t, d, nq, nk), exact, what=(nq, nk))


@pytest.mark.parametrize("d", [1, 2, 3])
def test_score_fraction_se_at_zero_is_binomial(d):
    """At t = 0 every score is above with probability 1/2 whatever the query's norm, so scores that
    share a query are uncorrelated and the standard error is 1/(2n) even for n = 1e40 pairs each
    way. On main, for d_k = 1, E[Phi_bar^2] - p^2 left 7e-24 of rounding: 3.7e-32 for 5e-41."""
    n = 10**40
    assert_close(dot_law.score_fraction_se(0.0, d, n, n), 0.5 / n)


# --- context -------------------------------------------------------------------------------------

from attention_scaling import context as cx  # noqa: E402


def _exact_soft_cap(z, c):
    return mpmath.mpf(c) * mpmath.tanh(mpmath.mpf(z) / mpmath.mpf(c))


# the reported cases of context: (what, computed, exact at 60 digits)
REPORTED_CONTEXT = [
    ("soft_cap(1e-10, cap=1e308)", lambda: cx.soft_cap(1e-10, cap=1e308), lambda: _exact_soft_cap(1e-10, 1e308)),
    ("soft_cap(1e-300, cap=1e300)", lambda: cx.soft_cap(1e-300, cap=1e300), lambda: _exact_soft_cap(1e-300, 1e300)),
    ("soft_cap_slope(1e308, cap=0.5)", lambda: cx.soft_cap_slope(1e308, cap=0.5), lambda: mpmath.mpf(0)),
    ("soft_cap(1e308, cap=1e-300)", lambda: cx.soft_cap(1e308, cap=1e-300), lambda: mpmath.mpf(1e-300)),
    ("needle_weight(5, n=10**20)", lambda: cx.needle_weight(5, n=10**20),
     lambda: 1 / (1 + (10**20 - 1) * mpmath.exp(-5))),
    ("gap_for_weight(0.5, n=10**20)", lambda: cx.gap_for_weight(0.5, n=10**20), lambda: mpmath.log(10**20 - 1)),
    ("log_n_factor(n=2**64)", lambda: cx.log_n_factor(n=2**64), lambda: mpmath.mpf(cx.LOGN_S) * mpmath.log(2**64)),
    ("log_n_factor(n=10**400, s=1)", lambda: cx.log_n_factor(n=10**400, s=1.0), lambda: 400 * mpmath.log(10)),
]


@pytest.mark.parametrize("what, computed, exact", REPORTED_CONTEXT, ids=[r[0] for r in REPORTED_CONTEXT])
def test_the_reported_context_cases(what, computed, exact):
    """Soft caps of tiny scores under huge caps (z/c subnormal) and of huge ones under tiny caps (z/c
    beyond float64, without a warning), and numbers of keys beyond int64 (Python ints)."""
    with np.errstate(over="raise", under="ignore", invalid="raise"):
        got = computed()
    with mpmath.workdps(60):
        assert_close(got, exact(), what=what)


@settings(max_examples=300, deadline=None)
@given(any_finite, st.floats(-320, 308).map(lambda e: 10.0**e).filter(lambda c: 0 < c < np.inf))
@example(1e-10, 1e308)
@example(-1e-300, 1e300)
def test_soft_cap_and_its_slope_are_exact_to_1e12(z, cap):
    """c tanh(z/c) and sech^2(z/c) at every scale of z and c, against the exact z/c of the float64
    inputs. The slope is exp(-2|x|) of a rounded x = z/c: relative |x| eps (below 1e-13 until it
    underflows), the problem's own condition."""
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        capped, slope = cx.soft_cap(z, cap), cx.soft_cap_slope(z, cap)
    with mpmath.workdps(60):
        x = mpmath.mpf(z) / mpmath.mpf(cap)
        assert_close(capped, mpmath.mpf(cap) * mpmath.tanh(x), what="soft_cap")
        assert_close(slope, mpmath.sech(x) ** 2 if abs(x) < 10**6 else 0, what="soft_cap_slope")


near_limit = st.lists(st.one_of(st.floats(-1.7e308, 1.7e308), st.floats(1e307, 1.7e308), st.floats(-50, 50)),
                      min_size=2, max_size=6).map(np.array)


@settings(max_examples=200, deadline=None)
@given(st.one_of(scores, near_limit), st.sampled_from(cx.METHODS), st.sampled_from([cx.LOGN_S, 3.0, 1e-3]))
@example(np.array([1e308, 0.0]), "log-n", 3.0)  # it gave [nan, nan] on main
@example(np.array([-1e308, 1e308, 5.0]), "zero-logit", cx.LOGN_S)
@example(np.array([-1e308, 1e308, 5.0]), "plain", cx.LOGN_S)
def test_method_weights_are_exact_to_1e12_at_any_score(z, method, s):
    """The weights of every method at scores up to float64's limit, saturated or not, against
    mpmath's softmax of the method's exact logits (s·ln n·z with the float64 factor s·ln n)."""
    with np.errstate(over="raise", invalid="raise"):
        out = cx.method_weights(z, method, s=s)
    with mpmath.workdps(_dps(z) + 10):
        zs = [mpmath.mpf(float(x)) for x in z]
        if method == "log-n":
            logits = [mpmath.mpf(cx.log_n_factor(len(z), s)) * x for x in zs]
        elif method == "soft-cap":
            logits = [cx.CAP * mpmath.tanh(x / cx.CAP) for x in zs]
        else:
            logits = zs
        top = max(logits + ([mpmath.mpf(0)] if method == "zero-logit" else []))
        e = [mpmath.exp(x - top) for x in logits]
        e0 = mpmath.exp(-top) if method == "zero-logit" else mpmath.mpf(0)
        total = mpmath.fsum(e) + e0
        p, sink = [x / total for x in e], e0 / total
        assert_close(out["p"], p, what="p")
        assert_close(out["sink"], sink, what="sink")
        assert_close(out["needle"], p[0], what="needle")
        assert_close(out["others"], mpmath.fsum(p[1:]) + sink, what="others")


big_n = st.one_of(st.integers(2, 70000), st.integers(2, 10**40), st.sampled_from([2**64, 10**20, 10**300 + 7, 10**400]))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.floats(-745, 745), st.floats(-1e300, 1e300)), big_n)
@example(5.0, 10**20)
def test_needle_weight_is_exact_to_1e12(gap, n):
    """P = 1/(1 + (n-1)e^-gap) for any n (Python ints of any size): the logistic of gap - ln(n-1)
    loses |gap - ln(n-1)| units of rounding, at most about 745 where the weight does not underflow."""
    with mpmath.workdps(60):
        exact = 1 / (1 + (n - 1) * mpmath.exp(-mpmath.mpf(gap)))
        assert_close(cx.needle_weight(gap, n), exact)


@settings(max_examples=300, deadline=None)
@given(st.floats(1e-300, 1.0, exclude_max=True), big_n)
@example(0.5, 10**20)
def test_gap_for_weight_is_exact_to_1e12(p, n):
    """ln(n-1) + ln(p/(1-p)); where the two terms cancel, a few roundings of each are allowed."""
    with mpmath.workdps(60):
        lo, lp = mpmath.log(n - 1), mpmath.log(mpmath.mpf(p) / (1 - mpmath.mpf(p)))
        assert_close(cx.gap_for_weight(p, n), lo + lp, atol=4 * EPS * float(abs(lo) + abs(lp)))


@settings(max_examples=200, deadline=None)
@given(big_n, st.sampled_from([cx.LOGN_S, 1.0, 3.0, 1e-300, 1e300]))
@example(2**64, cx.LOGN_S)
def test_log_n_factor_is_exact_to_1e12(n, s):
    """s ln n with the float64 s, for any n; beyond float64 (s = 1e300, n = 10**400) a ValueError names s."""
    with mpmath.workdps(60):
        exact = mpmath.mpf(s) * mpmath.log(n)
        if exact > BIG:
            with pytest.raises(ValueError, match=r"^s\b"):
                cx.log_n_factor(n, s)
        else:
            assert_close(cx.log_n_factor(n, s), exact)


@pytest.mark.parametrize("method", cx.METHODS)
def test_needle_experiment_at_scores_of_1e300(method):
    """At offset 1e300 every distractor is 1e300 in float64 (a unit there is 1e284), so a needle at
    1e300 has the weight 1/n exactly. On main the log partition 1e300 + ln(n-1) lost its ln(n-1):
    0.5 at every n (NaN for "log-n" at offset 1e308, s = 3)."""
    ns = [2, 5, 40]
    out = cx.needle_experiment(gap=1e300, n_values=ns, draws=2, seed=3, offset=1e300)["methods"][method]
    with mpmath.workdps(60):
        assert_close(out["weight"], [[mpmath.mpf(1) / n for n in ns]] * 2, what="weight")
        assert_close(out["others"], [[1 - mpmath.mpf(1) / n for n in ns]] * 2, what="others")
    assert (out["sink"] == 0).all()
    huge = cx.needle_experiment(gap=0.0, n_values=ns, draws=1, seed=3, offset=1e308, s=3.0)["methods"][method]
    if method != "soft-cap":  # the needle is 1e308 below every distractor: its weight is e^-1e308 = 0
        assert (huge["weight"] == 0).all() and (huge["others"] == 1).all()
