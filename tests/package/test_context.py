"""Context length (attention_scaling.context): the needle's weight, s·ln n, soft-capping, the zero logit.

The references are computed independently of the code under test: with mpmath at 50 digits,
or in extended precision (np.longdouble) straight from the definitions, never with the
module's own log-sum-exp.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from attention_scaling import context as cx

mpmath.mp.dps = 50


def ref_weights(z, zero_logit: bool = False):
    """The softmax (or the softmax with an extra zero logit) of ``z`` in 50-digit arithmetic:
    (weights, the zero logit's weight)."""
    e = [mpmath.e ** mpmath.mpf(float(x)) for x in z]
    total = mpmath.fsum(e) + (1 if zero_logit else 0)
    return [x / total for x in e], (1 / total if zero_logit else mpmath.mpf(0))


def close(a, b, rel=1e-13, tiny=1e-300):
    """a (float) within ``rel`` of b (mpmath), or both below ``tiny``."""
    b = float(b)
    return abs(a - b) <= rel * abs(b) or (abs(a) < tiny and abs(b) < tiny)


# --- the needle among equal keys ------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 16, 1024, 65536])
@pytest.mark.parametrize("gap", [-800.0, -30.0, -1.0, 0.0, 0.5, 6.0, 30.0, 800.0])
def test_needle_weight_matches_50_digits(n, gap):
    exact = 1 / (1 + (n - 1) * mpmath.e ** (-mpmath.mpf(gap)))
    got = cx.needle_weight(gap, n)
    assert np.isfinite(got) and 0 <= got <= 1
    assert close(got, exact), (got, exact)


def test_needle_weight_agrees_with_a_long_double_softmax():
    """The closed form is the softmax of one score Δ among n - 1 zeros (extended precision)."""
    for n in (2, 16, 4096):
        for gap in (0.0, 3.0, 9.0):
            z = np.zeros(n, dtype=np.longdouble)
            z[0] = gap
            e = np.exp(z)
            assert abs(cx.needle_weight(gap, n) - float(e[0] / e.sum())) < 1e-15


@pytest.mark.parametrize("n", [2, 16, 65536])
@pytest.mark.parametrize("p", [1e-9, 0.1, 0.5, 0.9, 1 - 1e-9])
def test_the_gap_for_a_weight_gives_that_weight(n, p):
    gap = cx.gap_for_weight(p, n)
    assert abs(cx.needle_weight(gap, n) - p) <= 1e-12 * max(p, 1e-3)
    exact = mpmath.log(n - 1) + mpmath.log(mpmath.mpf(p) / (1 - mpmath.mpf(p)))
    assert close(gap, exact, rel=1e-10)


def test_each_doubling_adds_about_ln_2():
    steps = np.diff([cx.gap_for_weight(0.9, n) for n in cx.N_VALUES])
    assert np.all(steps > np.log(2)) and abs(steps[-1] - np.log(2)) < 1e-4


# --- soft-capping -----------------------------------------------------------------------------------

@pytest.mark.parametrize("z", [-1e6, -300.0, -50.0, -1.0, 0.0, 0.3, 49.0, 50.0, 400.0, 1e6])
def test_soft_cap_and_its_slope_match_50_digits(z):
    c = 50.0
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # no overflow on the way
        capped, slope = float(cx.soft_cap(z, c)), float(cx.soft_cap_slope(z, c))
    assert close(capped, c * mpmath.tanh(mpmath.mpf(z) / c))
    assert close(slope, mpmath.sech(mpmath.mpf(z) / c) ** 2)
    assert abs(capped) <= c


def test_soft_cap_slope_is_its_derivative():
    z = np.linspace(-20, 20, 81)
    h = 1e-5
    fd = (cx.soft_cap(z + h, 5.0) - cx.soft_cap(z - h, 5.0)) / (2 * h)
    assert np.abs(fd - cx.soft_cap_slope(z, 5.0)).max() < 1e-9


# --- the extra zero logit ---------------------------------------------------------------------------

@pytest.mark.parametrize("z", [[0.3, -1.2, 2.0], [-1000.0, -999.0, -1001.0], [1000.0, 0.0, -1000.0],
                               [-5.0] * 7, [700.0, 710.0]])
def test_softmax_with_zero_matches_50_digits(z):
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        p, sink = cx.softmax_with_zero(np.array(z))
    ref, ref_sink = ref_weights(z, zero_logit=True)
    assert all(close(float(a), b) for a, b in zip(p, ref)), (p, ref)
    assert close(float(sink), ref_sink)
    assert abs(p.sum() + sink - 1) < 1e-15


def test_softmax_with_zero_batched_and_long():
    rng = np.random.default_rng(4)
    z = rng.standard_normal((3, 65536)) - 12
    p, sink = cx.softmax_with_zero(z)
    assert p.shape == z.shape and sink.shape == (3,)
    ref = np.exp(z.astype(np.longdouble))
    total = 1 + ref.sum(axis=-1)
    assert np.allclose(p, (ref / total[:, None]).astype(float), rtol=1e-12, atol=0)
    assert np.allclose(sink, (1 / total).astype(float), rtol=1e-12)


def test_zero_logit_jacobian_by_finite_differences():
    z = np.array([0.3, -1.2, 2.0, -0.4])
    p, _ = cx.softmax_with_zero(z)
    h = 1e-6
    cols = [(cx.softmax_with_zero(z + h * e)[0] - cx.softmax_with_zero(z - h * e)[0]) / (2 * h) for e in np.eye(4)]
    assert np.abs(np.array(cols).T - (np.diag(p) - np.outer(p, p))).max() < 1e-9


# --- the four methods on one score vector -----------------------------------------------------------

@pytest.mark.parametrize("method", cx.METHODS)
@pytest.mark.parametrize("gap", [-60.0, 0.0, 6.0, 60.0])
def test_method_weights_match_50_digits_and_never_subtract(method, gap):
    """1 - P is summed from the other weights: at a gap of 60 it is ~e^-60, not 0."""
    z = np.array([gap, 0.1, -0.3, 0.2])
    got = cx.method_weights(z, method)
    logits = {"plain": z, "zero-logit": z, "log-n": z * cx.LOGN_S * np.log(4),
              "soft-cap": [cx.CAP * mpmath.tanh(mpmath.mpf(float(x)) / cx.CAP) for x in z]}[method]
    ref, ref_sink = ref_weights([float(x) for x in logits], zero_logit=method == "zero-logit")
    assert close(got["needle"], ref[0])
    assert close(got["others"], 1 - ref[0], rel=1e-12), (got["others"], 1 - ref[0])
    assert close(got["sink"], ref_sink)
    assert got["others"] > 0 and np.isfinite(got["gradient"])


@pytest.mark.parametrize("method", cx.METHODS)
def test_gradient_is_the_derivative_of_the_needles_weight(method):
    z = np.array([1.5, 0.4, -0.7, 0.9, 0.0])
    h = 1e-6
    up, down = z.copy(), z.copy()
    up[0] += h
    down[0] -= h
    fd = (cx.method_weights(up, method)["needle"] - cx.method_weights(down, method)["needle"]) / (2 * h)
    assert abs(fd - cx.method_weights(z, method)["gradient"]) < 1e-9


# --- the needle experiment --------------------------------------------------------------------------

def test_experiment_matches_a_long_double_softmax_of_the_same_scores():
    """The experiment's first draw is numpy's first 65 535 normals of its seed; its weights equal
    a direct extended-precision softmax of them, at every n up to 65 536."""
    gap = 6.0
    res = cx.needle_experiment(gap=gap, draws=2, seed=cx.EXPLORER_SEED)
    first = np.random.default_rng(cx.EXPLORER_SEED).standard_normal(cx.N_VALUES[-1] - 1)
    for i, n in enumerate(res["n"]):
        z = np.concatenate([[gap], first[: n - 1]]).astype(np.longdouble)
        for method in cx.METHODS:
            if method == "log-n":
                logits = z * np.longdouble(cx.LOGN_S) * np.log(np.longdouble(n))
            elif method == "soft-cap":
                logits = cx.CAP * np.tanh(z / cx.CAP)
            else:
                logits = z
            e = np.exp(logits - logits.max())
            extra = np.exp(-logits.max()) if method == "zero-logit" else 0
            total = e.sum() + extra
            row = res["methods"][method]
            assert abs(row["weight"][0, i] / float(e[0] / total) - 1) < 1e-12, (method, n)
            assert abs(row["others"][0, i] / float((e[1:].sum() + extra) / total) - 1) < 1e-12, (method, n)
            assert abs(row["sink"][0, i] - float(extra / total)) <= 1e-12 * max(float(extra / total), 1e-300)


@pytest.mark.parametrize("gap, offset", [(200.0, 0.0), (-200.0, 0.0), (0.0, -700.0), (700.0, 690.0)])
def test_experiment_is_finite_at_extreme_gaps(gap, offset):
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        res = cx.needle_experiment(gap=gap, offset=offset, draws=2, seed=1)
    for method in cx.METHODS:
        for key in ("weight", "others", "gradient", "sink"):
            values = res["methods"][method][key]
            assert np.all(np.isfinite(values)) and np.all(values >= 0), (method, key)
        total = res["methods"][method]["weight"] + res["methods"][method]["others"]
        assert np.allclose(total, 1, rtol=0, atol=1e-12)


def test_sink_takes_half_when_the_scores_sit_ln_n_below_zero():
    for n in (16, 1024, 65536):
        _, sink = cx.softmax_with_zero(np.full(n, -np.log(n)))
        assert abs(sink - 0.5) < 1e-12


# --- the explorer's figure --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def figure():
    return cx.ContextFigure()


def test_every_grid_point_is_finite_and_the_bars_sum_to_one(figure):
    for method in cx.METHODS:
        for n in cx.N_VALUES:
            for gap in cx.GAPS:
                figure.update(n=n, gap=gap, method=method)
                r = figure.state
                assert all(np.isfinite(x) for x in r.values()), (method, n, gap)
                bars = np.concatenate([a.get_data().values for a in
                                       (figure.bar_needle, figure.bar_top, figure.bar_rest, figure.bar_sink)])
                assert abs(bars.sum() - 1) < 1e-12, (method, n, gap, bars.sum())
                assert abs(r.needle + r.others - 1) < 1e-12


@pytest.mark.parametrize("n, gap", [(2, 0.0), (3, -40.0), (48, 3.3), (1000, 6.0), (65535, 40.0), (65536, -40.0)])
def test_figure_at_any_n_and_gap_is_the_softmax_of_the_drawn_scores(figure, n, gap):
    """Off the grid too (any n from 2 to 65 536, any gap in [-40, 40]), the figure's needle, sink
    and strongest distractor are method_weights of needle_scores: the first n - 1 of the draw."""
    z = cx.needle_scores(n, gap, seed=cx.EXPLORER_SEED)
    for method in cx.METHODS:
        figure.update(n=n, gap=gap, method=method)
        want, r = cx.method_weights(z, method), figure.state
        for got, expected in ((r.needle, want["needle"]), (r.others, want["others"]), (r.sink, want["sink"]),
                              (r.top_distractor, want["p"][1:].max())):
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-300), (method, n, gap)


def test_the_distractors_are_the_portable_stream_and_its_prefixes():
    """Draw d of seed s is the stream (s, CONTEXT_STREAM + d) of portable_random, which the page
    draws identically; a shorter draw is a prefix, and the experiment's draw d is the same."""
    from attention_scaling import portable_random

    full = cx.distractors(1000, seed=3, draw=2)
    assert np.array_equal(full, portable_random.normals(3, cx.CONTEXT_STREAM + 2, 1000))
    assert np.array_equal(cx.distractors(10, seed=3, draw=2), full[:10])
    assert np.array_equal(cx.needle_scores(11, 1.5, seed=3)[1:], cx.distractors(10, seed=3))
    with pytest.raises(ValueError, match="^count"):
        cx.distractors(cx.MAX_KEYS + 1)
    with pytest.raises(ValueError, match="^draw"):
        cx.distractors(3, draw=-1)


def test_soft_cap_bounds_every_logit_the_figure_shows(figure):
    for gap in (0.0, 8.0, 20.0):
        figure.update(n=65536, gap=gap, method="soft-cap")
        assert figure.state.largest_logit < cx.CAP


def test_explorer_frames_differ_and_say_their_settings():
    from attention_scaling.explorables import context_explorer
    from attention_scaling.explorables.text import _subscripts

    exp = context_explorer()
    seen = set()
    for method in cx.METHODS:
        png, alt, readout = exp.frame(method=method, n=4096, gap=5.0)
        assert _subscripts(cx.NAMES[method]) in alt and "n = 4096 keys" in alt and "Δ = 5" in readout.lead
        assert readout.row("", "needle weight").draw == exp.figure.state.needle
        seen.add(png)
    assert len(seen) == len(cx.METHODS)


# --- SymPy ------------------------------------------------------------------------------------------

def test_derivations_are_checked():
    fade = cx.fading_proof()
    assert fade["weight"].checked_steps == 2 and fade["gap"].checked_steps == 2
    assert fade["limit"] == 0 and fade["gap_growth"] == 1
    cap = cx.soft_cap_proof()
    assert cap["slope"].checked_steps == 4
    for n in (2, 3, 4):
        out = cx.zero_logit_jacobian(n)
        assert out["sum"] and out["jacobian"]


def test_a_wrong_step_is_refused():
    import sympy as sp

    from attention_scaling.symbolic import Derivation, StepError

    n, d = sp.symbols("n Delta", positive=True)
    bad = Derivation("planted slip: n instead of n - 1")
    with pytest.raises(StepError, match="planted slip"):
        bad.equation(sp.exp(d) / (sp.exp(d) + n - 1), 1 / (1 + n * sp.exp(-d)), "divide by e^Delta")


# --- validation -------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: cx.needle_weight(1.0, 1), "n"),
    (lambda: cx.needle_weight(float("nan"), 4), "gap"),
    (lambda: cx.needle_weight(1.0, True), "n"),
    (lambda: cx.gap_for_weight(1.0, 4), "p"),
    (lambda: cx.gap_for_weight(0.5, 1), "n"),
    (lambda: cx.log_n_factor(16, s=0), "s"),
    (lambda: cx.soft_cap([1.0], cap=-1), "cap"),
    (lambda: cx.soft_cap_slope([np.inf]), "z"),
    (lambda: cx.softmax_with_zero([]), "z"),
    (lambda: cx.needle_scores(1, 2.0), "n"),
    (lambda: cx.needle_scores(4, 2.0, seed=-1), "seed"),
    (lambda: cx.method_weights([1.0, 2.0], "softmax"), "method"),
    (lambda: cx.method_weights([1.0], "plain"), "z"),
    (lambda: cx.needle_experiment(gap=np.inf), "gap"),
    (lambda: cx.needle_experiment(n_values=[1, 4]), "n_values"),
    (lambda: cx.needle_experiment(n_values=[8, 4]), "n_values"),
    (lambda: cx.needle_experiment(draws=0), "draws"),
    (lambda: cx.needle_figure({}), "result"),
    (lambda: cx.ContextFigure(seed=-1), "seed"),
])
def test_bad_arguments_raise_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call()


@pytest.mark.parametrize("call, name", [
    # sizes beyond memory name the argument (numpy said "array is too big")
    (lambda: cx.needle_scores(2**62, 1.0), "n"),
    (lambda: cx.needle_scores(cx.MAX_KEYS + 1, 1.0), "n"),
    (lambda: cx.needle_experiment(n_values=[2, 2**62]), "n_values"),
    # Python ints beyond float64, and factors that overflow, are refused by name
    (lambda: cx.needle_weight(10**400, 4), "gap"),
    (lambda: cx.soft_cap(1.0, cap=10**400), "cap"),
    (lambda: cx.log_n_factor(10**10, s=1e308), "s"),
    (lambda: cx.needle_experiment(offset=10**400), "offset"),
    (lambda: cx.ContextFigure(s=1e307), "s"),  # the explorer's logits s·ln(65536)·z overflow for z up to 20
])
def test_sizes_and_overflows_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


@pytest.mark.parametrize("params, name", [({"n": 1}, "n"), ({"n": 65537}, "n"), ({"n": 100.5}, "n"),
                                           ({"gap": -40.5}, "gap"), ({"gap": 41.0}, "gap"), ({"gap": np.nan}, "gap"),
                                           ({"method": "plain 1/sqrt(d_k)"}, "method")])
def test_figure_update_validates(figure, params, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        figure.update(**params)


def test_the_needle_figures_legend_fits_inside_the_figure():
    """Fig. 7.1's five legend entries in one row ran past both edges (a cold reading saw the
    first and last entries cut off); every legend of the figure lies inside it."""
    from attention_scaling import context as cx

    fig = cx.needle_figure(cx.needle_experiment(draws=2))
    fig.canvas.draw()
    box = fig.bbox
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    assert legends
    for legend in legends:
        extent = legend.get_window_extent()
        assert box.x0 - 0.5 <= extent.x0 and extent.x1 <= box.x1 + 0.5, (extent, box)
        assert box.y0 - 0.5 <= extent.y0 and extent.y1 <= box.y1 + 0.5, (extent, box)
