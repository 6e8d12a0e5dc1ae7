"""An explorer's first work in steps (the models' warm(), which player.js runs between the page's
tasks before the view mounts, so that a phone's main thread is not held for the half second an
explorer's first state takes): the steps end, there is more than one, one model serves a payload,
a model warmed step by step gives the same numbers, bit for bit, as one computed at once, and a
model asked for a state mid-way (the slides, Present and printing mount at once) finishes its
work and agrees too."""

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
    make, call = CALLS[name]
    out = page.evaluate(f"""async ([base, payload, settings]) => {{
        const mod = await import(base + "/{name}.js");
        const call = {call};
        const [warmedPayload, midWayPayload, atOncePayload] = [1, 2, 3].map(() => structuredClone(payload));
        const model = mod.{make}(warmedPayload);
        let steps = 0;
        for (const g = model.warm(); !g.next().done; ) steps++;
        const again = mod.{make}(warmedPayload) === model;
        const other = mod.{make}(atOncePayload) !== model;
        const atOnce = JSON.stringify(settings.map(s => call(mod.{make}(atOncePayload), s)));
        const warmed = JSON.stringify(settings.map(s => call(model, s)));
        let after = 0;  // a ready model has no steps left
        for (const g = model.warm(); !g.next().done; ) after++;
        const mid = mod.{make}(midWayPayload), g = mid.warm();
        g.next(); g.next();
        const early = JSON.stringify(settings.map(s => call(mid, s)));
        while (!g.next().done);
        const late = JSON.stringify(settings.map(s => call(mid, s)));
        return {{steps, again, other, after, warmed: warmed === atOnce, early: early === atOnce,
                 late: late === atOnce, finite: atOnce.indexOf('null') < 0}};
    }}""", [base, getattr(web, f"{name}_payload")(0), SETTINGS[name]])
    assert out["steps"] >= 5, out  # stepwise, not one block
    assert out["again"] and out["other"], out  # one model a payload object
    assert out["after"] == 0, out
    assert out["warmed"] and out["early"] and out["late"] and out["finite"], out
