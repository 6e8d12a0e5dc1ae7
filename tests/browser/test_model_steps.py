"""An explorer's first work in steps (the models' warm(), which player.js runs between the page's
tasks before the view mounts, so that a phone's main thread is not held for the half second an
explorer's first state takes): the steps end, there is more than one, one model serves a payload,
and a model warmed step by step gives the same numbers, bit for bit, as one computed at once."""

from __future__ import annotations

import pytest

from attention_scaling import web

SETTINGS = {
    "attention": [[64, 1, 16], [1, 0.1, 2], [1024, 10, 64], [300, 2.5, 16]],
    "context": [{"n": 1024, "gap": 6, "method": "plain"}, {"n": 2, "gap": -40, "method": "log-n"},
                {"n": 65536, "gap": 40, "method": "soft-cap"}, {"n": 777, "gap": 3.3, "method": "zero-logit"}],
    "normalization": [[1, "scaled", 8], [10, "qk-l2", 128], [0.1, "qk-layernorm", 1], [3.3, "scaled", 5]],
}
CALLS = {"attention": ("attentionModel", "(m, s) => m.state(...s)"),
         "context": ("contextModel", "(m, s) => m.state(s)"),
         "normalization": ("normalizationModel", "(m, s) => m.state(...s)")}


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_a_model_warmed_in_steps_gives_the_same_numbers(modules, name):
    page, base = modules
    payload = getattr(web, f"{name}_payload")(0)
    make, call = CALLS[name]
    out = page.evaluate(f"""async ([base, payload, settings]) => {{
        const mod = await import(base + "/{name}.js");
        const call = {call};
        const warmedPayload = structuredClone(payload), atOncePayload = structuredClone(payload);
        const model = mod.{make}(warmedPayload);
        let steps = 0;
        for (const g = model.warm(); !g.next().done; ) steps++;
        const again = mod.{make}(warmedPayload) === model;
        const other = mod.{make}(atOncePayload) !== model;
        const warmed = settings.map(s => call(model, s));
        const atOnce = settings.map(s => call(mod.{make}(atOncePayload), s));
        // a second warm() after the model is ready ends at once
        let after = 0;
        for (const g = model.warm(); !g.next().done; ) after++;
        return {{steps, again, other, same: JSON.stringify(warmed) === JSON.stringify(atOnce), after,
                 finite: JSON.stringify(warmed).indexOf('null') < 0}};
    }}""", [base, payload, SETTINGS[name]])
    assert out["steps"] >= 5, out  # stepwise, not one block
    assert out["again"] and out["other"], out  # one model a payload object
    assert out["same"] and out["finite"], out
    assert out["after"] == 0, out  # a ready model has no steps left


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_a_model_asked_for_a_state_mid_way_finishes_and_agrees(modules, name):
    """A view mounted before the steps end (the slides, Present, printing mount at once): state()
    finishes the work, and the rest of the steps then change nothing."""
    page, base = modules
    payload = getattr(web, f"{name}_payload")(0)
    make, call = CALLS[name]
    out = page.evaluate(f"""async ([base, payload, settings]) => {{
        const mod = await import(base + "/{name}.js");
        const call = {call};
        const a = structuredClone(payload), b = structuredClone(payload);
        const model = mod.{make}(a);
        const g = model.warm();
        g.next(); g.next();
        const early = settings.map(s => call(model, s));
        while (!g.next().done);
        const late = settings.map(s => call(model, s));
        const fresh = settings.map(s => call(mod.{make}(b), s));
        return JSON.stringify(early) === JSON.stringify(fresh) && JSON.stringify(late) === JSON.stringify(fresh);
    }}""", [base, payload, SETTINGS[name]])
    assert out
