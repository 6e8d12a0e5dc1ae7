"""The exact law of q.k (attention_scaling.dot_law) against independent references.

References: a large seeded Monte Carlo where the probability is large, the d_k = 1 closed
form (density K0(|x|)/pi), the d_k = 2 closed form (a Laplace law, P = e^-t / 2), and
mpmath quadratures that share no code with the module (the chi^2 mixture over the query's
norm, at 50 digits).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from attention_scaling.dot_law import dot_tail, normal_tail, row_failure, score_fraction_se

F16 = math.log(65504.0)  # ln(max) of float16
SEED = 2026


def _by_norm(t, d, m=1.0, scaled=False, power=1, n=None):
    """E_R[g(R)] with R ~ chi^2_d, g the probability that a score exceeds t given |q|^2 = m^2 R.

    Written here from the definition, at 50 digits: P(q.k > t | q) = Phi_bar(t / (m |q|)).
    """
    with mpmath.workdps(50):
        thr = mpmath.mpf(t) * (mpmath.sqrt(d) if scaled else 1) / mpmath.mpf(m) ** 2
        a = mpmath.mpf(d) / 2

        def pdf(r):
            return mpmath.exp((a - 1) * mpmath.log(r) - r / 2 - a * mpmath.log(2) - mpmath.loggamma(a))

        def g(r):
            above = mpmath.erfc(thr / mpmath.sqrt(2 * r)) / 2
            return above**power if n is None else 1 - (1 - above) ** n

        return mpmath.quad(lambda r: pdf(r) * g(r), [0, d / 4, d, 4 * d + 10, mpmath.inf])


def test_d2_is_a_laplace_law_far_into_the_tail():
    # d_k = 2: (A - B)/2 is a difference of two Exp(1), so P(q.k > t) = e^-t / 2 exactly.
    for t in (0.0, 0.5, 3.0, 40.0, 200.0, 700.0):
        exact = math.exp(-t) / 2
        assert dot_tail(t, 2) == pytest.approx(exact, rel=1e-13)
    assert dot_tail(700.0, 2) < 1e-300


def _k0_tail(t, dps=50):
    """P(XY > t) for independent standard normals: the integral of K0(|x|)/pi from t to infinity.

    With K0(u) = int_0^inf exp(-u cosh s) ds, integrating over u first gives
    int_t^inf K0(u) du = int_0^inf exp(-t cosh s) / cosh s ds, a fast elementary integral.
    Cut at s = 12 (t >= 0.1 here): the rest is below exp(-0.1 cosh 12) < 1e-3500 of it.
    """
    assert t >= 0.1
    with mpmath.workdps(dps):
        return mpmath.quad(lambda s: mpmath.exp(-t * mpmath.cosh(s)) / mpmath.cosh(s), [0, 1, 3, 6, 12]) / mpmath.pi


def test_the_k0_reference_is_the_integral_of_k0():
    with mpmath.workdps(20):
        direct = mpmath.quad(lambda u: mpmath.besselk(0, u) / mpmath.pi, [3, 4, 13, mpmath.inf])
    assert float(_k0_tail(3.0)) == pytest.approx(float(direct), rel=1e-15)


@pytest.mark.parametrize("t", [3.0, 60.0, 150.0])
def test_d1_matches_the_bessel_k0_density(t):
    # d_k = 1: q.k is a product of two standard normals, density K0(|x|)/pi. d_k = 1 is odd,
    # so dot_tail integrates over the chi^2 mixture: a different route from this one.
    exact = float(_k0_tail(t))
    assert dot_tail(t, 1) == pytest.approx(exact, rel=1e-12)
    assert dot_tail(-t, 1) == pytest.approx(1 - exact, rel=1e-12)
    assert exact < 1e-60 or t < 150


@pytest.mark.parametrize("d", [4, 16, 64, 256, 1024])
def test_closed_form_matches_quadrature_to_1e_12_far_into_the_tail(d):
    # the reviewer's points: scaled at the float16 threshold; and one below 1e-30
    for t, scaled in ((F16, True), (F16, False), (2.0, True), (0.1, False)):
        ref = float(_by_norm(t, d, scaled=scaled))
        assert dot_tail(t, d, scaled=scaled) == pytest.approx(ref, rel=1e-12)
    far = 40.0 * math.sqrt(d) if d < 1024 else 16.0 * math.sqrt(d)  # a score far out
    ref = float(_by_norm(far, d))
    assert ref < 1e-30
    assert dot_tail(far, d) == pytest.approx(ref, rel=1e-12)
    assert dot_tail(far, d, method="quad") == pytest.approx(ref, rel=1e-12)


def test_odd_dimension_matches_the_norm_mixture():
    for d in (17,):
        for t in (F16, 30.0):
            assert dot_tail(t, d) == pytest.approx(float(_by_norm(t, d)), rel=1e-12)


def test_the_reviewers_figures():
    # issue 11: scaled d_k = 16: 3.09e-14 exact; 64, 256, 1024: 7.03e-20, 8.81e-25, 1.65e-27;
    # unscaled d_k = 16: 0.429 % against the normal 0.278 %.
    scaled = [dot_tail(F16, d, scaled=True) for d in (16, 64, 256, 1024)]
    np.testing.assert_allclose(scaled, [3.09e-14, 7.03e-20, 8.81e-25, 1.65e-27], rtol=5e-3)
    assert dot_tail(F16, 16) == pytest.approx(0.00429, rel=2e-3)
    assert normal_tail(F16, 16) == pytest.approx(0.00278, rel=2e-3)


def test_symmetry_scaling_and_the_median():
    assert dot_tail(0.0, 16) == pytest.approx(0.5, rel=1e-15)
    for d in (1, 16):
        assert dot_tail(-2.5, d) == pytest.approx(1 - dot_tail(2.5, d), rel=1e-12)
    # q.k with components N(0, m^2) is m^2 times q.k with standard components
    assert dot_tail(9.0, 16, magnitude=1.5) == pytest.approx(dot_tail(4.0, 16), rel=1e-13)
    assert dot_tail(2.0, 64, scaled=True) == pytest.approx(dot_tail(16.0, 64), rel=1e-13)
    t = np.linspace(0, 40, 9)
    tails = [dot_tail(x, 16) for x in t]
    assert (np.diff(tails) < 0).all()


def test_normal_tail_is_the_normal_law():
    for t, d, m, scaled in ((F16, 16, 1.0, False), (F16, 16, 1.0, True), (3.0, 4, 2.0, False)):
        sd = m * m * (1 if scaled else math.sqrt(d))
        assert normal_tail(t, d, magnitude=m, scaled=scaled) == pytest.approx(
            0.5 * math.erfc(t / sd / math.sqrt(2)), rel=1e-13)


def test_against_a_large_seeded_monte_carlo():
    # where the probability is large: 10^6 independent scores, each with its own q and k
    rng = np.random.default_rng(SEED)
    n, d, t, m = 1_000_000, 4, 2.0, 1.2
    scores = np.zeros(n)
    for _ in range(d):
        scores += (m * rng.standard_normal(n)) * (m * rng.standard_normal(n))
    p = dot_tail(t, d, magnitude=m)
    se = math.sqrt(p * (1 - p) / n)
    assert abs(np.mean(scores > t) - p) < 5 * se
    # the normal law with the same variance is rejected by the same sample
    assert abs(np.mean(scores > t) - normal_tail(t, d, magnitude=m)) > 10 * se


def test_row_failure_against_simulation_and_identities():
    d, n_keys, rows = 16, 256, 4000
    p_row = row_failure(F16, d, n_keys)
    rng = np.random.default_rng(SEED)
    fails = 0
    for _ in range(rows // 500):  # every row its own query and keys
        q = rng.standard_normal((500, 1, d))
        k = rng.standard_normal((500, n_keys, d))
        fails += int(((k @ q.transpose(0, 2, 1))[..., 0] > F16).any(axis=1).sum())
    se = math.sqrt(p_row * (1 - p_row) / rows)
    assert abs(fails / rows - p_row) < 5 * se
    # the scores of a row share their query, so independence overstates the failures
    p = dot_tail(F16, d)
    assert 1 - (1 - p) ** n_keys > p_row + 10 * se
    # one key: a row fails when its score does
    assert row_failure(F16, d, 1) == pytest.approx(p, rel=1e-12)
    assert row_failure(F16, d, n_keys) == pytest.approx(float(_by_norm(F16, d, n=n_keys)), rel=1e-10)
    # a tiny probability is not lost to cancellation in 1 - (1 - p)^n
    tiny = row_failure(F16, 64, n_keys, scaled=True)
    assert tiny == pytest.approx(float(_by_norm(F16, 64, scaled=True, n=n_keys)), rel=1e-10)
    assert 1e-18 < tiny < 1e-16


def test_score_fraction_se_against_repeated_samples():
    # the spread of the all-pairs fraction over independent repeats of a 64 x 256 sample
    d, nq, nk, repeats = 16, 64, 256, 400
    rng = np.random.default_rng(SEED)
    fractions = [np.mean(rng.standard_normal((nq, d)) @ rng.standard_normal((nk, d)).T > F16)
                 for _ in range(repeats)]
    se = score_fraction_se(F16, d, nq, nk)
    spread = float(np.std(fractions, ddof=1))
    assert spread == pytest.approx(se, rel=0.15)  # the sd of a sd from 400 draws: about 4 %
    # the shared queries and keys widen it well beyond the binomial error
    p = dot_tail(F16, d)
    assert se > 1.5 * math.sqrt(p * (1 - p) / (nq * nk))
    assert score_fraction_se(F16, d, 1, 1) == pytest.approx(math.sqrt(p * (1 - p)), rel=1e-12)


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda: dot_tail(float("nan"), 16), "t"),
        (lambda: dot_tail(float("inf"), 16), "t"),
        (lambda: dot_tail("1", 16), "t"),
        (lambda: dot_tail(True, 16), "t"),
        (lambda: dot_tail(1.0, 0), "d_k"),
        (lambda: dot_tail(1.0, 2.5), "d_k"),
        (lambda: dot_tail(1.0, 2**21), "d_k"),
        (lambda: dot_tail(1.0, 16, magnitude=0), "magnitude"),
        (lambda: dot_tail(1.0, 16, magnitude=float("nan")), "magnitude"),
        (lambda: dot_tail(1.0, 16, scaled=1), "scaled"),
        (lambda: dot_tail(1.0, 16, method="normal"), "method"),
        (lambda: dot_tail(10**400, 16), "t"),  # a Python int beyond float64 (it raised OverflowError)
        (lambda: dot_tail(1.0, 16, magnitude=10**400), "magnitude"),
        (lambda: row_failure(-(10**400), 16, 8), "t"),
        (lambda: normal_tail(1.0, -1), "d_k"),
        (lambda: row_failure(1.0, 16, 0), "n_keys"),
        (lambda: row_failure(1.0, 16, 8, scaled="yes"), "scaled"),
        (lambda: score_fraction_se(1.0, 16, 0, 8), "n_queries"),
        (lambda: score_fraction_se(1.0, 16, 8, 1.5), "n_keys"),
    ],
)
def test_bad_input_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        call()


def test_numpy_scalars_are_accepted():
    assert dot_tail(np.float32(2.0), np.int64(16), magnitude=np.float64(1.0), scaled=np.True_) == dot_tail(
        2.0, 16, scaled=True)


def test_the_tail_is_exponential_with_rate_one_over_m_squared():
    # q.k = m^2 (G1 - G2), G ~ Gamma(d_k/2, 1): P(q.k > x) ~ e^(-x/m^2) x^(d_k/2 - 1) far out,
    # so one more unit of x costs a factor e^(-1/m^2), times about (1 + 1/x)^(d_k/2 - 1).
    for m in (1.0, 1.5):
        x = 600.0 * m * m
        ratio = dot_tail(x + 1, 16, magnitude=m) / dot_tail(x, 16, magnitude=m)
        assert ratio == pytest.approx(math.exp(-1 / m**2) * (1 + 1 / x) ** 7, rel=1e-3)
    # a normal law with the same variance (16) charges e^(-(61^2 - 60^2) / 32) = 0.023 at 60 already
    assert normal_tail(61.0, 16) / normal_tail(60.0, 16) < 0.03 < 0.3 < dot_tail(61.0, 16) / dot_tail(60.0, 16)
