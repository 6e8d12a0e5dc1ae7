"""The normalisation explorer's module (attention_scaling/web/normalization.js) computes in Chromium
what the package's NormalizationFigure computes, from the seed alone (issue 30, "same numbers"): at
the corners (m = 0.1 and 10, g = 1 and 128, every normalisation) and 300 random settings (m and g
log-uniform over their ranges, the mode at random), the one draw's weights and measures, the means,
standard errors and 10-90 % bands over the queries, and the three curves against m, to 1e-12
relative (a logit to 1e-12 of the largest, a standard error to 1e-12 of its mean), and the readout
character for character."""

from __future__ import annotations

import numpy as np
import pytest

from attention_scaling import web
from attention_scaling.explorables import ATTENTION_MAGNITUDES
from attention_scaling.figures import NormalizationFigure
from test_attention_numbers import REL, _close, compare_measures

SEED = 20261207  # the random settings (numpy.random.default_rng)
MODES = NormalizationFigure.MODES


def _settings(count: int) -> list[dict]:
    corners = [{"magnitude": m, "mode": mode, "gain": g} for m in (0.1, 10.0) for mode in MODES for g in (1.0, 128.0)]
    rng = np.random.default_rng(SEED)
    return corners + [{"magnitude": float(np.exp(rng.uniform(np.log(0.1), np.log(10)))), "mode": str(rng.choice(MODES)),
                       "gain": float(2 ** rng.uniform(0, 7))} for _ in range(count)]


def _in_page(modules, settings, payload=None) -> list[dict]:
    page, base = modules
    return page.evaluate("""async ([base, payload, settings]) => {
        const {normalizationModel, normalizationReadout} = await import(base + "/normalization.js");
        const model = normalizationModel(payload);
        return settings.map(s => {
            const state = model.state(s.magnitude, s.mode, s.gain);
            return {state: {...state, scores: Array.from(state.scores), weights: Array.from(state.weights)},
                    readout: normalizationReadout(state, payload.names)};
        });
    }""", [base, payload or web.normalization_payload(0, nice=ATTENTION_MAGNITUDES), settings])


def _compare(row: dict, fig: NormalizationFigure, where: str) -> None:
    page, st = row["state"], fig.state
    assert (page["dK"], page["nKeys"], page["nQueries"], page["mode"]) == (fig.d_k, len(fig.k), st.n_queries, st.mode)
    z = fig._scores(st.magnitude * fig.q, st.magnitude * fig.k, mode=st.mode, gain=st.gain)[0]
    assert np.max(np.abs(np.array(page["scores"]) - z)) <= REL * np.max(np.abs(z)), f"{where}: logits"
    _close(page["weights"], st.weights, f"{where}: weights")
    compare_measures(page["draw"], page["mean"], st.draw, st.mean, where)
    for mode in MODES:  # the right panel's curves and bands, at the figure's grid
        stats = [fig.expectation(m, mode).max_weight for m in fig.GRID]
        for part in ("mean", "low", "high"):
            _close([c[part] for c in page["curves"][mode]], [getattr(e, part) for e in stats], f"{where}: {mode} {part}")


@pytest.fixture(scope="module")
def figure():
    return NormalizationFigure()


def test_the_normalization_module_computes_the_packages_numbers_and_readout(modules, figure):
    from attention_scaling.explorables.book import _describe_normalization

    settings = _settings(300)
    got = _in_page(modules, settings)
    for s, row in zip(settings, got):
        figure.update(**s)
        _compare(row, figure, f"{s}")
        want = _describe_normalization(figure.state)
        assert row["readout"]["values"] == want.values(), s
        assert (row["readout"]["text"], row["readout"]["alt"]) == (want.text, want.alt), s


def test_another_seed_is_another_draw(modules):
    setting = {"magnitude": 3.0, "mode": "qk-layernorm", "gain": 8.0}
    got = _in_page(modules, [setting], web.normalization_payload(1))
    one, zero = NormalizationFigure(seed=1), NormalizationFigure(seed=0)
    one.update(**setting)
    zero.update(**setting)
    _compare(got[0], one, "seed 1")
    with pytest.raises(AssertionError):
        _close(got[0]["state"]["weights"], zero.state.weights, "seed 1 against seed 0")


def test_a_wrong_epsilon_is_caught(modules, figure):
    """LayerNorm's epsilon matters at small magnitudes: a payload with another one is seen."""
    payload = web.normalization_payload(0) | {"eps": 1e-6}
    got = _in_page(modules, [{"magnitude": 0.1, "mode": "qk-layernorm", "gain": 8.0}], payload)
    figure.update(magnitude=0.1, mode="qk-layernorm", gain=8.0)
    with pytest.raises(AssertionError):
        _close(got[0]["state"]["weights"], figure.state.weights, "eps 1e-6")


@pytest.mark.parametrize("bad, message", [({"magnitude": 0.09}, "magnitude must lie"),
                                          ({"magnitude": float("nan")}, "magnitude must lie"),
                                          ({"gain": 129}, "gain must lie"), ({"gain": 0.5}, "gain must lie"),
                                          ({"mode": "mup"}, "mode must be one of")])
def test_a_setting_outside_the_range_is_refused(modules, bad, message):
    page, base = modules
    setting = {"magnitude": 1.0, "mode": "scaled", "gain": 8.0, **bad}
    error = page.evaluate("""async ([base, payload, s]) => {
        const {normalizationModel} = await import(base + "/normalization.js");
        try { normalizationModel(payload).state(s.magnitude, s.mode, s.gain); return null; }
        catch (e) { return e.name + ": " + e.message; }
    }""", [base, web.normalization_payload(0), setting])
    assert error is not None and error.startswith("RangeError") and message in error
