"""The attention explorer's module (attention_scaling/web/attention.js) computes in Chromium what
the package's AttentionFigure computes, from the seed alone (issue 30, "same numbers"): at the
saturated corners and 300 random settings of d_k (any whole number from 1 to 1024), the
magnitude m (log-uniform over [0.1, 10]) and the number of keys, every number of the state (the
one draw's scores and weights, P(1 - P), the histogram of |q.k| over the random pairs and its
prediction, the measures of the draw, and the means, standard errors and 10-90 % bands over the
queries) to 1e-12 relative (a standard error to 1e-12 of its mean), and the readout character
for character."""

from __future__ import annotations

import numpy as np
import pytest

from attention_scaling import web
from attention_scaling.figures import AttentionFigure

SEED = 20261206  # the random settings (numpy.random.default_rng)
REL = 1e-12
MEASURES = {"maxWeight": "max_weight", "entropy": "entropy", "largestGradient": "largest_gradient"}


def _settings(count: int) -> list[dict]:
    """The corners (d_k = 1 and 1024, m = 0.1 and 10, 2 and 64 keys), then ``count`` random ones."""
    corners = [{"d_k": d, "magnitude": m, "n_keys": n} for d in (1, 1024) for m in (0.1, 10.0) for n in (2, 64)]
    rng = np.random.default_rng(SEED)
    return corners + [{"d_k": int(rng.integers(1, 1025)), "magnitude": float(np.exp(rng.uniform(np.log(0.1), np.log(10)))),
                       "n_keys": int(rng.choice([16, 16, 2, 5, 64]))} for _ in range(count)]


def _in_page(modules, settings, payload=None) -> list[dict]:
    page, base = modules
    return page.evaluate("""async ([base, payload, settings]) => {
        const {attentionModel, attentionReadout} = await import(base + "/attention.js");
        const model = attentionModel(payload);
        return settings.map(s => {
            const state = model.state(s.d_k, s.magnitude, s.n_keys);
            return {state, readout: attentionReadout(state)};
        });
    }""", [base, payload or web.attention_payload(0), settings])


def _close(got, want, what: str) -> None:
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    bad = np.abs(got - want) > REL * np.abs(want)
    assert not bad.any(), f"{what}: page {got[bad][:4]} vs package {want[bad][:4]}"


def compare_measures(draw: dict, means: dict, draw_py, means_py, where: str) -> None:
    """The page's measures of one draw and their means over the queries (``draw``, ``means``:
    the module's) against the package's (Measures of floats and of Expectations)."""
    for js, py in MEASURES.items():
        _close([draw[js]], [getattr(draw_py, py)], f"{where}: {py}")
        mean = getattr(means_py, py)
        for part in ("mean", "low", "high"):
            _close([means[js][part]], [getattr(mean, part)], f"{where}: mean {py} {part}")
        # a standard error is a spread: where 200 values agree to 12 digits (nearly uniform
        # weights), neither language has 12 digits of their spread, so it is held to 1e-12
        # of the mean it measures
        se = means[js]["se"]
        assert abs(se - mean.se) <= REL * max(abs(mean.se), abs(mean.mean)), (f"{where}: se of {py}", se, mean.se)
        assert means[js]["n"] == mean.n


def _compare(row: dict, st, where: str) -> None:
    from attention_scaling.numerics import diagonal_gradient

    page = row["state"]
    assert (page["dK"], page["nKeys"], page["nQueries"]) == (st.d_k, st.n_keys, st.n_queries), where
    for curve in ("unscaled", "scaled"):
        at = f"{where}, {curve}"
        _close(page["scores"][curve], getattr(st.scores, curve), f"{at}: scores")
        _close(page["weights"][curve], getattr(st.weights, curve), f"{at}: weights")
        _close(page["gradients"][curve], diagonal_gradient(getattr(st.weights, curve), axis=-1), f"{at}: P(1 - P)")
        _close(page["histogram"][curve], getattr(st.histogram, curve), f"{at}: histogram")
        _close(page["predicted"][curve], getattr(st.predicted, curve), f"{at}: prediction")
        compare_measures(page["draw"][curve], page["mean"][curve], getattr(st.draw, curve), getattr(st.mean, curve), at)


@pytest.fixture(scope="module")
def figure():
    return AttentionFigure()


def test_the_attention_module_computes_the_packages_numbers_and_readout(modules, figure):
    from attention_scaling.explorables.book import _describe_attention

    settings = _settings(300)
    got = _in_page(modules, settings)
    for s, row in zip(settings, got):
        figure.update(**s, seed=0)
        _compare(row, figure.state, f"{s}")
        want = _describe_attention(figure.state)
        assert row["readout"]["values"] == want.values(), s
        assert (row["readout"]["text"], row["readout"]["alt"]) == (want.text, want.alt), s


def test_an_off_by_one_in_d_k_is_caught(modules, figure):
    """The comparison sees one dimension more or less, in the draw and in the means, at
    both ends of the range and in the middle."""
    for d_k in (2, 48, 1023):
        got = _in_page(modules, [{"d_k": d_k + k, "magnitude": 1.0, "n_keys": 16} for k in (-1, 1)])
        figure.update(d_k=d_k, magnitude=1.0, n_keys=16, seed=0)
        for row in got:
            with pytest.raises(AssertionError):
                _close(row["state"]["weights"]["unscaled"], figure.state.weights.unscaled, "draw")
            with pytest.raises(AssertionError):
                _close([row["state"]["mean"]["scaled"]["maxWeight"]["mean"]],
                       [figure.state.mean.scaled.max_weight.mean], "mean")


def test_another_seed_is_another_draw(modules, figure):
    got = _in_page(modules, [{"d_k": 64, "magnitude": 1.0, "n_keys": 16}], web.attention_payload(1))
    figure.update(d_k=64, magnitude=1.0, n_keys=16, seed=1)
    _compare(got[0], figure.state, "seed 1")
    figure.update(d_k=64, magnitude=1.0, n_keys=16, seed=0)
    with pytest.raises(AssertionError):
        _close(got[0]["state"]["weights"]["scaled"], figure.state.weights.scaled, "seed 1 against seed 0")


@pytest.mark.parametrize("bad, message", [({"d_k": 0}, "d_k must be"), ({"d_k": 1025}, "d_k must be"),
                                          ({"d_k": 2.5}, "d_k must be"), ({"magnitude": 10.5}, "magnitude must lie"),
                                          ({"magnitude": float("nan")}, "magnitude must lie"),
                                          ({"n_keys": 65}, "n_keys must be")])
def test_a_setting_outside_the_range_is_refused(modules, bad, message):
    page, base = modules
    setting = {"d_k": 64, "magnitude": 1.0, "n_keys": 16, **bad}
    error = page.evaluate("""async ([base, payload, s]) => {
        const {attentionModel} = await import(base + "/attention.js");
        try { attentionModel(payload).state(s.d_k, s.magnitude, s.n_keys); return null; }
        catch (e) { return e.name + ": " + e.message; }
    }""", [base, web.attention_payload(0), setting])
    assert error is not None and error.startswith("RangeError") and message in error


def test_the_page_bins_the_normal_law_as_the_package_does(modules):
    """half_normal_bins against halfNormalBins over six decades of sigma, to 1e-12 relative."""
    from attention_scaling.figures import SCORE_EDGES
    from attention_scaling.portable_random import half_normal_bins

    edges = [0.0, *SCORE_EDGES[1:-1].tolist(), float("inf")]
    sigmas = [1e-4, 0.01, 0.3, 1.0, 8.0, 32.0, 1e3, 3.2e4]
    page, base = modules
    got = page.evaluate("""async ([base, edges, sigmas]) => {
        const {halfNormalBins} = await import(base + "/random.js");
        return sigmas.map(s => halfNormalBins(edges.map(e => e === null ? Infinity : e), s));
    }""", [base, [None if np.isinf(e) else e for e in edges], sigmas])
    for sigma, row in zip(sigmas, got):
        _close(row, half_normal_bins(edges, sigma), f"sigma = {sigma}")


@pytest.mark.parametrize("idle", ["requestIdleCallback", "timer"])
def test_values_prepared_while_idle_are_the_values_computed_at_once(modules, figure, idle):
    """model.prefetch(dKs) computes the unit scores of the d_k a reader is likely to ask for next
    while the page is idle (rows at a time), so that the step to one finds them ready; the
    states read from them are the package's, and a value outside the range or not whole is
    passed over. A browser without requestIdleCallback (Safari) does the same work on a timer."""
    page, base = modules
    got = page.evaluate("""async ([base, payload, idle]) => {
        const {attentionModel} = await import(base + "/attention.js");
        const saved = window.requestIdleCallback;
        if (idle === "timer") window.requestIdleCallback = undefined;
        const model = attentionModel(payload);  // (it takes the scheduler the page has now)
        window.requestIdleCallback = saved;
        model.state(500, 1, 16);
        const before = [501, 499].map(model.ready);
        model.prefetch([501, 0, 1025, 2.5, 499]);
        for (let i = 0; i < 100 && !(model.ready(501) && model.ready(499)); i++) {
            await new Promise(r => setTimeout(r, 50));
        }
        return {before, after: [501, 499, 502, 0, 1025, 2.5].map(model.ready),
                states: [501, 499].map(d => ({state: model.state(d, 2.5, 16)}))};
    }""", [base, web.attention_payload(0), idle])
    assert got["before"] == [False, False]
    assert got["after"] == [True, True, False, False, False, False]
    for d, row in zip((501, 499), got["states"]):
        figure.update(d_k=d, magnitude=2.5, n_keys=16, seed=0)
        _compare(row, figure.state, f"prepared d_k = {d}")
