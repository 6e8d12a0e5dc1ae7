"""attention_scaling.portable_random: the seeded generator the page implements identically
(tests/browser/test_web_numerics.py compares the two)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_scaling import portable_random as pr


def test_normals_are_standard_normal():
    x = pr.normals(1, 0, 200_000)
    assert abs(x.mean()) < 5 / math.sqrt(x.size)  # five standard errors
    assert abs(x.var() - 1) < 5 * math.sqrt(2 / x.size)
    for z, tail in ((1.0, 0.158655), (2.0, 0.022750), (3.0, 0.0013499)):
        share = (x > z).mean()
        assert abs(share - tail) < 5 * math.sqrt(tail * (1 - tail) / x.size), (z, share)


def test_uniforms_are_uniform_and_never_0_or_1():
    u = pr.uniforms(2, 5, 100_000)
    assert 0 < u.min() and u.max() < 1
    counts = np.histogram(u, bins=10, range=(0, 1))[0]
    chi2 = ((counts - 10_000) ** 2 / 10_000).sum()
    assert chi2 < 27.9  # 9 degrees of freedom, p = 0.001


def test_the_extreme_hashes_stay_strictly_inside_0_and_1():
    """The largest 64-bit hash gives 1 - 2^-53 and the smallest 2^-53: never 1 or 0, where the
    normal quantile would be infinite (with 53 bits, (2^53 - 1/2) / 2^53 rounds to 1.0)."""
    u = pr._unit(np.array([0, 2**64 - 1, 2**11], dtype=np.uint64))
    assert u[0] == 2.0**-53 and u[1] == 1 - 2.0**-53 and u[2] == 2.0**-53
    assert np.isfinite(pr.normal_quantile(u)).all()


def test_a_stream_is_the_same_however_it_is_asked_for():
    whole = pr.normals(3, 1, 1000)
    assert np.array_equal(pr.normals(3, 1, 400, start=600), whole[600:])
    assert np.array_equal(np.concatenate([pr.uniforms(3, 1, 10), pr.uniforms(3, 1, 5, start=10)]),
                          pr.uniforms(3, 1, 15))
    # other seeds and streams are other draws
    assert not np.array_equal(pr.uniforms(3, 2, 10), pr.uniforms(3, 1, 10))
    assert not np.array_equal(pr.uniforms(4, 1, 10), pr.uniforms(3, 1, 10))
    assert np.corrcoef(pr.normals(3, 1, 5000), pr.normals(3, 2, 5000))[0, 1] < 0.05


def test_the_quantile_inverts_the_normal_cdf():
    from attention_scaling.numerics import normal_cdf

    p = np.array([1e-300, 1e-12, 0.001, 0.1, 0.3, 0.5, 0.7, 0.99, 1 - 1e-12])
    x = pr.normal_quantile(p)
    back = normal_cdf(x)
    assert np.allclose(back[:-1], p[:-1], rtol=1e-12, atol=0)  # x to 1e-16; Φ amplifies it by |x|² in the far tail
    assert abs((1 - back[-1]) / 1e-12 - 1) < 1e-3  # the upper tail, where 1 - p keeps 4 digits
    assert x[5] == 0 and np.all(np.diff(x) > 0)


@pytest.mark.parametrize("call, param", [
    (lambda: pr.uniforms(-1, 0, 5), "seed"),
    (lambda: pr.uniforms(0, 1.5, 5), "stream"),
    (lambda: pr.normals(0, 0, -1), "n"),
    (lambda: pr.normals(0, 0, 5, start=-2), "start"),
    (lambda: pr.uniforms(2**53, 0, 5), "seed and stream"),
    (lambda: pr.normal_quantile([0.5, 1.0]), "p"),
])
def test_bad_input_is_refused_by_name(call, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        call()


def test_chi_square_quantiles_invert_the_distribution_function():
    """Checked against mpmath at 40 digits: P(k/2, x/2) = u (Q for u > 1/2) to within 5e-13 of x,
    for k from 1 to 1024 and u from one step above 0 to one step below 1."""
    import mpmath

    mpmath.mp.dps = 40
    for k in (1, 2, 3, 5, 10, 64, 100, 511, 1024):
        for u in (1.5 * 2.0**-53, 1e-10, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-10, 1 - 2.0**-53):
            x = float(pr.chi2_quantile(k, u))
            a, y = mpmath.mpf(k) / 2, mpmath.mpf(x) / 2
            if u <= 0.5:
                gap = mpmath.gammainc(a, 0, y, regularized=True) - mpmath.mpf(u)
            else:
                gap = mpmath.gammainc(a, y, mpmath.inf, regularized=True) - (1 - mpmath.mpf(u))
            density = mpmath.exp(-y + (a - 1) * mpmath.log(y) - mpmath.loggamma(a))
            assert abs(float(gap / (density * y))) < 5e-13, (k, u, x)  # the relative error in x


def test_chi_square_quantiles_of_an_array_are_each_elements_own():
    """The array path steps every element until the last stops (portable_random._lower_series,
    _upper_fraction); each element must still come out bit for bit as alone, as random.js
    computes it one at a time: both tails, both methods, k from 1 to 1024."""
    rng = np.random.default_rng(5)
    u = np.concatenate([rng.uniform(0, 1, 300), [1.5 * 2.0**-53, 1e-10, 0.5, 1 - 2.0**-53]])
    for k in (1, 2, 3, 7, 64, 513, 1024):
        together = pr.chi2_quantile(k, u)
        alone = np.array([float(pr.chi2_quantile(k, x)) for x in u])
        np.testing.assert_array_equal(together, alone)


def test_chi_square_quantiles_with_many_degrees_of_freedom_are_each_ones_own():
    """One pass over many k (an element's own k, as numerics.ensemble_scores_by_dimension uses
    it): every element bit for bit as with its k alone, and as alone one at a time."""
    rng = np.random.default_rng(6)
    u = np.concatenate([rng.uniform(0, 1, 60), [1.5 * 2.0**-53, 1e-10, 0.5, 1 - 2.0**-53]])
    ks = (1, 2, 3, 7, 64, 513, 1024)
    mixed = pr.chi2_quantile(np.array(ks)[:, None], u)
    for row, k in zip(mixed, ks):
        np.testing.assert_array_equal(row, pr.chi2_quantile(k, u))
    shuffled = rng.permutation(np.repeat(ks, 3))  # ks in any order, each at one uniform
    one_u = rng.uniform(0, 1, shuffled.size)
    np.testing.assert_array_equal(pr.chi2_quantile(shuffled, one_u),
                                  [float(pr.chi2_quantile(int(k), x)) for k, x in zip(shuffled, one_u)])


def test_chi_square_quantiles_are_vectorised_and_validated():
    u = np.array([[0.1, 0.5], [0.9, 0.99]])
    x = pr.chi2_quantile(4, u)
    assert x.shape == (2, 2) and np.all(np.diff(x.ravel()) > 0)
    assert pr.chi2_quantile(2, 0.5) == pytest.approx(2 * np.log(2), rel=1e-15)  # exponential
    for k in (0, 2.5, True, "4", np.array([1, 0]), np.array([1.0, 2.0]), np.array([1, 2, 3])):
        with pytest.raises(ValueError, match="^k"):
            pr.chi2_quantile(k, np.array([0.5, 0.25]))
    for bad in (0.0, 1.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match="^u"):
            pr.chi2_quantile(4, bad)
