"""The explorers' ES modules (attention_scaling.web) compute in Chromium what the Python package
computes: the scale explorer's weights, P(1 - P), Jacobian, its norm, entropy and the means,
standard errors and bands over its draws, at 300 random scales and both ends of the range,
to 1e-12 relative (issue 30, "same numbers")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attention_scaling import web
from attention_scaling.figures import ScaleFigure

WEB = Path(web.__file__).parent
SEED = 20261205  # the random scales (numpy.random.default_rng)
REL = 1e-12


def _in_page(modules, payload, scales) -> list[dict]:
    page, base = modules
    return page.evaluate("""async ([base, payload, scales]) => {
        const {scaleState} = await import(base + "/scale.js");
        return scales.map(s => scaleState(payload, s));
    }""", [base, payload, scales])


def _close(got, want, what: str) -> None:
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    bad = np.abs(got - want) > REL * np.abs(want)
    assert not bad.any(), f"{what}: page {got[bad][:4]} vs package {want[bad][:4]}"


MEASURES = {"maxWeight": "max_weight", "entropy": "entropy", "largestGradient": "largest_gradient",
            "jacobianNorm": "jacobian_norm"}


def _compare(page_state: dict, fig: ScaleFigure, scale: float) -> None:
    fig.update(scale=scale)
    st = fig.state
    where = f"s = {scale!r}"
    _close(page_state["weights"], st.weights, f"{where}: weights")
    _close(page_state["gradient"], st.gradient, f"{where}: P(1 - P)")
    _close(page_state["jacobian"], st.jacobian, f"{where}: Jacobian")
    assert page_state["nDraws"] == st.n_draws
    for js, py in MEASURES.items():
        _close(page_state["draw"][js], getattr(st.draw, py), f"{where}: {py} of the draw")
        mean = getattr(st.mean, py)
        for part in ("mean", "se", "low", "high"):
            _close(page_state["mean"][js][part], getattr(mean, part), f"{where}: {py} {part}")
        assert page_state["mean"][js]["n"] == mean.n


def test_the_scale_module_computes_the_packages_numbers(modules):
    rng = np.random.default_rng(SEED)
    low, high = ScaleFigure.SCALE_RANGE
    scales = [low, high, 1.0] + [float(x) for x in np.exp(rng.uniform(np.log(low), np.log(high), 300))]
    payload = web.scale_payload(seed=0)
    states = _in_page(modules, payload, scales)
    fig = ScaleFigure(seed=0)
    for scale, state in zip(scales, states):
        _compare(state, fig, scale)
    # at s = 100 the softmax is saturated: the gradient is a few 1e-16, kept to every digit
    assert 0 < states[1]["draw"]["largestGradient"] < 1e-15


def test_the_scale_module_writes_the_packages_readout(modules):
    """The readout built in the page (lead, every cell, the screen reader's sentence, the alt
    text) is the package's, character for character, at the same 303 scales."""
    from attention_scaling.explorables.book import _describe_scale

    rng = np.random.default_rng(SEED)
    low, high = ScaleFigure.SCALE_RANGE
    scales = [low, high, 1.0] + [float(x) for x in np.exp(rng.uniform(np.log(low), np.log(high), 300))]
    page, base = modules
    parts = page.evaluate("""async ([base, payload, scales]) => {
        const {scaleState, scaleReadout} = await import(base + "/scale.js");
        return scales.map(s => scaleReadout(scaleState(payload, s)));
    }""", [base, web.scale_payload(seed=0), scales])
    fig = ScaleFigure(seed=0)
    for scale, got in zip(scales, parts):
        fig.update(scale=scale)
        want = _describe_scale(fig.state)
        assert got["values"] == want.values(), scale
        assert (got["text"], got["alt"]) == (want.text, want.alt), scale
        assert got["columns"] == list(want.columns)
    assert "1 − " in parts[1]["text"]  # s = 100: the largest weight shown by its distance from 1


def test_a_payload_off_by_one_draw_is_caught(modules):
    """The comparison can fail: a payload whose draws start one later (the last one twice) is found out."""
    payload = web.unpack(web.scale_payload(seed=0))  # as lists: plain arrays pass through payload.js too
    shifted = dict(payload, draws=payload["draws"][1:] + payload["draws"][-1:])
    state = _in_page(modules, shifted, [2.0])[0]
    with pytest.raises(AssertionError, match="quantile|mean|se|low|high"):
        _compare(state, ScaleFigure(seed=0), 2.0)


def test_a_scale_outside_the_range_is_refused(modules):
    page, base = modules
    for bad in (0.0, 101.0, float("nan")):
        message = page.evaluate("""async ([base, payload, s]) => {
            const {scaleState} = await import(base + "/scale.js");
            try { scaleState(payload, s); return ""; } catch (e) { return e.name + ": " + e.message; }
        }""", [base, {"seed": 0, "z": [0.0, 1.0], "draws": [[0.0, 1.0], [1.0, 0.0]]}, bad])
        assert message.startswith("RangeError: scale must lie in [0.05,100]"), (bad, message)


def test_the_modules_ship_inside_the_package():
    assert set(web.MODULES) <= {p.name for p in WEB.glob("*.js")}
    assert "export function scaleState" in web.module_source("scale.js")
    with pytest.raises(ValueError, match="name must be one of"):
        web.module_source("player.js")
    with pytest.raises(ValueError, match="seed"):
        web.scale_payload(seed=-1)


# --- the portable generator (random.js and attention_scaling.portable_random) ----------------------

from attention_scaling import portable_random  # noqa: E402

STREAMS = [(0, 0, 0), (7, 3, 0), (2**53 - 1, 12, 1000)]  # (seed, stream, start)


def _draws(modules, kind: str, n: int) -> list[list[float]]:
    page, base = modules
    return page.evaluate("""async ([base, kind, streams, n]) => {
        const random = await import(base + "/random.js");
        return streams.map(([seed, stream, start]) => Array.from(random[kind](seed, stream, n, start)));
    }""", [base, kind, STREAMS, n])


def test_the_page_draws_the_packages_uniforms_bit_for_bit(modules):
    for (seed, stream, start), got in zip(STREAMS, _draws(modules, "uniforms", 20_000)):
        want = portable_random.uniforms(seed, stream, 20_000, start)
        assert np.array_equal(np.array(got), want), (seed, stream, start)


def test_the_page_draws_the_packages_normals(modules):
    """Bit for bit where AS 241 uses only arithmetic (|p - 1/2| <= 0.425, 85 % of draws);
    in the tails V8's log and numpy's differ by a unit in the last place now and then, which
    the rational function carries on as a few units (3 at most, measured): 1e-15 relative."""
    for (seed, stream, start), got in zip(STREAMS, _draws(modules, "normals", 100_000)):
        got, want = np.array(got), portable_random.normals(seed, stream, 100_000, start)
        centre = np.abs(portable_random.uniforms(seed, stream, 100_000, start) - 0.5) <= 0.425
        assert 0.84 < centre.mean() < 0.86  # p in [0.075, 0.925]
        assert np.array_equal(got[centre], want[centre])
        ulps = np.abs(got - want) / np.spacing(np.abs(want))
        assert ulps.max() <= 4, (seed, stream, ulps.max())


def test_the_page_quantile_at_the_ends(modules):
    page, base = modules
    ps = [5e-324, 1e-300, 1e-20, 0.02425, 0.075, 0.5, 0.925, 1 - 2**-53]
    got = page.evaluate("""async ([base, ps]) => {
        const {normalQuantile} = await import(base + "/random.js");
        return ps.map(normalQuantile);
    }""", [base, ps])
    want = portable_random.normal_quantile(ps)
    assert np.all(np.abs(np.array(got) - want) <= np.spacing(np.abs(want)))
    assert want[5] == 0 and want[0] < -38 and want[-1] > 8


# --- readout numbers (format.js and attention_scaling.readout) -----------------------------------

from attention_scaling.numerics import Expectation  # noqa: E402
from attention_scaling.readout import readout_mean, readout_number  # noqa: E402


def _number_cases() -> list[tuple]:
    """(x, digits, near_one, complement, small): random magnitudes from 1e-300 to 10, both signs,
    weights near 1 with and without their complement, and the ties and edges of each rule."""
    rng = np.random.default_rng(SEED)
    cases = []
    for x in np.concatenate([10.0 ** rng.uniform(-300, 1, 600), -(10.0 ** rng.uniform(-20, 0, 100)),
                             rng.uniform(0, 1, 300)]):
        cases.append((float(x), int(rng.choice([2, 3])), False, None, bool(rng.random() < 0.8)))
    for gap in 10.0 ** rng.uniform(-17, -1, 200):
        cases.append((float(1 - gap), 3, True, None, True))
        cases.append((float(1 - gap), 3, True, float(gap), True))
    edges = [0.125, 0.375, 0.0625, 2.5e-05, 0.0005, 0.0095, 0.00995, 0.01, 0.0099999, 0.9995, 0.99949, 1.0,
             0.0, -0.0, -1e-17, -0.0004, 0.5, 1e-300, 5e-324, 0.1 + 0.2, 9.9995, 0.00125]
    for x in edges:
        for digits in (2, 3):
            cases += [(x, digits, False, None, True), (x, digits, False, None, False), (x, digits, True, None, True)]
    cases += [(1.0, 3, True, 0.0, True), (1.0, 3, True, 3.2e-16, True), (0.5, 3, True, 0.5, True)]
    return cases


def _mean_cases() -> list[Expectation]:
    rng = np.random.default_rng(SEED + 1)
    out = []
    for _ in range(600):
        mean = float(10.0 ** rng.uniform(-12, 0.5)) * (1 if rng.random() < 0.9 else -1)
        se = float(abs(mean) * 10.0 ** rng.uniform(-6, 0))
        out.append(Expectation(mean, se, mean - se, mean + se, 200))
    for mean, se in ((0.962, 0.006), (0.0091, 0.003), (0.134, 0.0002), (2.08, 4e-05), (1 - 9.3e-05, 9e-05),
                     (0.25, 0.0095), (0.25, 0.00095), (0.5, 0.0), (0.0, 0.001), (3e-07, 1e-08), (0.9999, 0.00096)):
        out.append(Expectation(mean, se, mean - se, mean + se, 200))
    return out


def test_the_page_writes_the_packages_readout_numbers(modules):
    page, base = modules
    cases = _number_cases()
    got = page.evaluate("""async ([base, cases]) => {
        const {readoutNumber} = await import(base + "/format.js");
        return cases.map(([x, d, near, c, small]) => readoutNumber(x, d, near, c, small));
    }""", [base, cases])
    want = [readout_number(x, d, near, c, small) for x, d, near, c, small in cases]
    wrong = [(case, g, w) for case, g, w in zip(cases, got, want) if g != w]
    assert wrong == [], f"{len(wrong)} of {len(cases)} differ, e.g. {wrong[:5]}"
    means = _mean_cases()
    got = page.evaluate("""async ([base, means, nearOnes]) => {
        const {readoutMean} = await import(base + "/format.js");
        return means.map((e, i) => readoutMean({mean: e[0], se: e[1]}, 3, nearOnes[i]));
    }""", [base, [(e.mean, e.se) for e in means], [e.mean > 0.99 for e in means]])
    want = [readout_mean(e, 3, e.mean > 0.99) for e in means]
    wrong = [(e, g, w) for e, g, w in zip(means, got, want) if g != w]
    assert wrong == [], f"{len(wrong)} of {len(means)} differ, e.g. {wrong[:5]}"
    # ties go to even, as Python's format does: 0.125 gives 0.12 (JavaScript's toFixed gives 0.13)
    assert page.evaluate("""async base => {
        const {readoutNumber} = await import(base + "/format.js");
        return [readoutNumber(0.125, 2), readoutNumber(0.375, 2), readoutNumber(1, 3, true, 3.2e-16)];
    }""", base) == ["0.12", "0.38", "1 − 3.2e-16"]


def test_the_page_formats_like_python(modules):
    page, base = modules
    rng = np.random.default_rng(SEED + 2)
    xs = [float(x) for x in np.concatenate([10.0 ** rng.uniform(-30, 30, 400) * rng.choice([-1, 1], 400),
                                            [0.5, 1.5, 2.5, 0.125, 9.995, 99.95, 1e-5, 1e16, 123456.0, -0.0]])]
    specs = [("f", 0), ("f", 2), ("f", 3), ("g", 1), ("g", 2), ("g", 3), ("#g", 2), ("#g", 1)]
    got = page.evaluate("""async ([base, xs, specs]) => {
        const f = await import(base + "/format.js");
        return xs.map(x => specs.map(([kind, n]) => kind === "f" ? f.formatFixed(x, n)
                                                   : f.formatGeneral(x, n, kind === "#g")));
    }""", [base, xs, specs])
    for x, row in zip(xs, got):
        want = [format(x, f".{n}f") if kind == "f" else format(x, f"{'#' if kind == '#g' else ''}.{n}g")
                for kind, n in specs]
        assert row == want, (x, row, want)
    # formatSpec: the {live} role's ".Nf" and ".Ng", as Python's format(x, spec); others refused
    live = [".0f", ".3f", ".1g", ".3g", ".4g"]
    got = page.evaluate("""async ([base, xs, specs]) => {
        const f = await import(base + "/format.js");
        const bad = [".3e", "3f", ".f", ""].map(s => { try { f.formatSpec(1, s); return "no error"; }
                                                    catch (e) { return e.name; } });
        return [xs.map(x => specs.map(s => f.formatSpec(x, s))), bad];
    }""", [base, xs, live])
    assert got[1] == ["RangeError"] * 4
    wrong = [(x, row) for x, row in zip(xs, got[0]) if row != [format(x, s) for s in live]]
    assert wrong == [], wrong[:5]
    # liveText: that, except where it would read as exactly 0 or 1 and x is not (or x is 1 in
    # double precision but the other weights are not 0: its complement): the readout's form
    from attention_scaling.readout import readout_number

    cases = [(0.99996, ".3f", None), (1.0, ".3f", None), (1.0, ".3f", 3.2e-31), (0.99996, ".3f", 4.1e-05),
             (0.5, ".3f", None), (1e-5, ".3f", None), (0.0, ".3f", None), (0.99996, ".4g", None),
             (0.0004, ".2f", None), (0.12345, ".2g", None), (64.0, ".0f", None), (1.0, ".3g", None)]
    got = page.evaluate("""async ([base, cases]) => {
        const f = await import(base + "/format.js");
        return cases.map(([x, s, c]) => f.liveText(x, s, c));
    }""", [base, cases])
    assert got == ["1 − 4e-05", "1.000", "1 − 3.2e-31", "1 − 4.1e-05", "0.500", "1.0e-05", "0.000", "1 − 4e-05",
                   "0.00040", "0.12", "64", "1"]
    assert got[2] == readout_number(1.0, 3, True, 3.2e-31) and got[5] == readout_number(1e-5, 3, False)


# --- bundles: one script for a page opened from disk, one module for Jupyter -----------------------


def test_a_classic_bundle_computes_from_disk(browser, tmp_path):
    """From file:// Chromium refuses module scripts (their imports are cross-origin there), so the
    book will load a classic bundle: it computes the same state and readout as the package."""
    from attention_scaling.explorables.book import _describe_scale

    (tmp_path / "scale.js").write_text(web.bundle("scale.js", classic=True), encoding="utf-8")
    (tmp_path / "page.html").write_text('<!DOCTYPE html><meta charset="utf-8"><script src="scale.js"></script>',
                                        encoding="utf-8")
    context = browser.new_context()
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((tmp_path / "page.html").as_uri())
        scales = [0.05, 0.7, 3.0, 100.0]
        got = page.evaluate("""([payload, scales]) => scales.map(s => {
            const w = window.attentionScalingWeb, state = w.scaleState(payload, s);
            return [state.weights, w.scaleReadout(state).alt];
        })""", [web.scale_payload(seed=0), scales])
        assert errors == []
    finally:
        context.close()
    fig = ScaleFigure(seed=0)
    for scale, (weights, alt) in zip(scales, got):
        fig.update(scale=scale)
        _close(weights, fig.state.weights, f"s = {scale}: weights")
        assert alt == _describe_scale(fig.state).alt


def test_a_module_bundle_imports_as_one_file(modules):
    page, _ = modules
    got = page.evaluate("""async source => {
        const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
        const m = await import(url);
        return [Object.keys(m).sort(), m.normals(0, 0, 3)];
    }""", web.bundle("random.js"))
    assert got[0] == ["chi2Quantile", "halfNormalBins", "normalQuantile", "normals", "uniforms"]
    assert np.array_equal(got[1], portable_random.normals(0, 0, 3))
    bundled = web.bundle("scale.js")
    assert bundled.count("const __asb_numerics = ") == 1 and "import {" not in bundled
    with pytest.raises(ValueError, match="name must be one of"):
        web.bundle("nowhere.js")


# anywidget's side of widget.js, faked: a model (get, on, off) holding `state`; render the view,
# then for each of `settings` assign its values and call the handler of the first control named,
# reading the live sentence and the alt text; then clean up.
_RENDER = """async ([source, state, settings]) => {
    const m = await import(URL.createObjectURL(new Blob([source], {type: "text/javascript"})));
    const handlers = {};
    const model = {get: k => state[k], on: (e, f) => { handlers[e] = f; }, off: e => { delete handlers[e]; }};
    const el = document.createElement("div");
    document.body.appendChild(el);
    const cleanup = m.default.render({model, el});
    const seen = [];
    for (const s of settings) {
        Object.assign(state, s);
        handlers[`change:${Object.keys(s)[0]}`]();
        seen.push([el.querySelector(".asb-said").textContent, el.querySelector(".asb-stack").getAttribute("aria-label")]);
    }
    const inputs = el.querySelectorAll("input").length;
    cleanup();
    return {seen, inputs, classes: el.className, listening: Object.keys(handlers)};
}"""


def render_in_a_fake_model(page, view, settings: list[dict]) -> dict:
    """What widget.js shows for the anywidget ``view`` (its traits as the model) at each setting."""
    state = {"mount": view.mount, "payload": view.payload, "controls": view.controls}
    state |= {name: getattr(view, name) for name in view.controls}
    return page.evaluate(_RENDER, [view._esm, state, settings])


def test_the_widget_module_draws_what_its_model_holds(modules, monkeypatch):
    """What anywidget runs in Jupyter (``widget.js``, bundled with its default export): given a
    model like anywidget's (get, on, off), it mounts the view without a slider of its own (the
    ipywidget is linked to the model instead), redraws on every change of the model's value
    with the package's readout, and its cleanup stops listening."""
    from attention_scaling.explorables import STATIC_ENV, scale_explorer
    from attention_scaling.explorables.book import _describe_scale

    monkeypatch.delenv(STATIC_ENV, raising=False)
    view = scale_explorer().widget().view
    page, _ = modules
    scales = [1.0, 0.05, 2.7, 100.0, 0.123]
    got = render_in_a_fake_model(page, view, [{"scale": s} for s in scales])
    assert got["inputs"] == 0 and "asb-widget" in got["classes"].split()
    assert got["listening"] == []
    for scale, (said, alt) in zip(scales, got["seen"]):
        view.scale = scale
        want = _describe_scale(view.state)
        assert (said, alt) == (want.text, want.alt), scale


def test_the_widget_module_draws_a_context_model_with_a_choice_by_index(modules, monkeypatch):
    """The context explorer's model holds the method as the radio buttons' index and n as the
    log slider's float: the view draws the package's state at the same setting, n rounded."""
    from attention_scaling.context import METHODS
    from attention_scaling.explorables import STATIC_ENV, context_explorer
    from attention_scaling.explorables.book import _describe_context

    monkeypatch.delenv(STATIC_ENV, raising=False)
    view = context_explorer().widget().view
    page, _ = modules
    settings = [{"n": 47.6, "method": 1, "gap": 3.3}, {"n": 65535.99999, "method": 3, "gap": 0.0},
                {"n": 2.0, "method": 2, "gap": 20.0}]
    got = render_in_a_fake_model(page, view, settings)
    for s, (said, _) in zip(settings, got["seen"]):
        view.method, view.n, view.gap = s["method"], s["n"], s["gap"]
        assert view.state.method == METHODS[s["method"]] and said == _describe_context(view.state).text, s


# --- the scale explorer drawn in the page (scale_view.js), from disk -----------------------------


@pytest.fixture
def scale_view(browser, tmp_path):
    """A page opened from disk with the classic bundle of scale_view.js mounted in it: a
    function of the viewport and colour scheme that returns the Playwright page."""
    (tmp_path / "view.js").write_text(web.bundle("scale_view.js", classic=True), encoding="utf-8")
    payload = web.scale_payload(seed=0)
    import json

    (tmp_path / "page.html").write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        '<style>body { font: 16px sans-serif; margin: 8px; } .dark { color: rgb(230, 230, 230); '
        'background: #111; }</style><script src="view.js"></script></head><body><main id="holder">'
        '<div id="x"></div></main><script>'
        f'const s = document.createElement("style"); s.textContent = attentionScalingWeb.SCALE_VIEW_CSS;'
        f'document.head.appendChild(s); window.view = attentionScalingWeb.mountScale('
        f'document.getElementById("x"), {json.dumps(payload)});</script></body></html>', encoding="utf-8")
    contexts = []

    def open_at(width: int, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((tmp_path / "page.html").as_uri())
        assert errors == []
        return page

    yield open_at
    for context in contexts:
        context.close()


def _package_readout(scale: float):
    from attention_scaling.explorables.book import _describe_scale

    fig = ScaleFigure(seed=0)
    fig.update(scale=scale)
    return fig.state, _describe_scale(fig.state)


def test_the_view_draws_the_state_and_reads_it_out(scale_view):
    page = scale_view(1280)
    state, readout = _package_readout(1.0)
    bars = page.eval_on_selector_all(".asb-panel:nth-child(1) rect.asb-bar", "rs => rs.map(r => [+r.dataset.value, +r.getAttribute('height')])")
    _close([v for v, _ in bars], state.weights, "bar values")
    heights = np.array([h for _, h in bars])
    assert np.allclose(heights / heights[0], state.weights / state.weights[0], rtol=1e-9)  # heights are the weights
    cells = page.eval_on_selector_all(".asb-readout td", "ts => ts.map(t => t.textContent)")
    assert cells == readout.cells()
    assert page.inner_text(".asb-said") == readout.text
    jac = page.eval_on_selector_all(".asb-panel:nth-child(3) rect[data-value]", "rs => rs.map(r => +r.dataset.value)")
    _close(jac, state.jacobian.ravel(), "Jacobian cells")
    signs = page.eval_on_selector_all(".asb-sign", "ts => ts.map(t => t.textContent)")
    assert signs[:8] == ["+"] + ["−"] * 7  # the diagonal is positive, the rest negative


def test_the_slider_moves_by_keyboard_to_any_scale(scale_view):
    page = scale_view(1280)
    page.focus("input[type=range]")
    page.keyboard.press("End")
    assert float(page.get_attribute("#x", "data-scale")) == 100
    assert page.inner_text(".asb-said") == _package_readout(100.0)[1].text
    page.keyboard.press("Home")
    assert float(page.get_attribute("#x", "data-scale")) == pytest.approx(0.05, rel=1e-12)
    page.keyboard.press("ArrowRight")
    s = float(page.get_attribute("#x", "data-scale"))
    assert 0.05 < s < 0.06  # a step off any grid: the readout is the package's there too
    assert page.inner_text(".asb-said") == _package_readout(s)[1].text
    assert page.get_attribute("input[type=range]", "aria-valuetext") == f"s = {s:.3g}"


def test_the_panels_stack_on_a_phone_and_sit_side_by_side_on_a_laptop(scale_view):
    wide = scale_view(1280).eval_on_selector_all(".asb-panel", "ps => ps.map(p => p.getBoundingClientRect().toJSON())")
    assert len({round(b["top"]) for b in wide}) == 1  # one row
    page = scale_view(390, 844)
    narrow = page.eval_on_selector_all(".asb-panel", "ps => ps.map(p => p.getBoundingClientRect().toJSON())")
    assert all(b2["top"] >= b1["bottom"] - 0.5 for b1, b2 in zip(narrow, narrow[1:]))  # stacked
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")  # nothing to scroll sideways
    svg = page.eval_on_selector(".asb-panel svg", "s => [s.getBoundingClientRect().width, s.parentElement.clientWidth]")
    assert abs(svg[0] - svg[1]) < 1  # the drawing scales to its box
    small = page.evaluate("Math.min(...[...document.querySelectorAll('.asb-svg text')].map(t => t.getBoundingClientRect().height).filter(h => h > 0))")
    assert small >= 9, small  # the smallest text on a phone, in CSS px


def test_the_view_takes_the_pages_colours_and_its_data_table_opens(scale_view):
    page = scale_view(1280)
    page.evaluate("document.getElementById('holder').classList.add('dark')")
    fill = page.eval_on_selector(".asb-tick", "t => getComputedStyle(t).fill")
    assert fill == "rgb(230, 230, 230)"  # dark mode from the page: no second drawing
    page.click(".asb-numbers summary")  # the table is filled when the disclosure opens (its toggle event)
    page.wait_for_function("() => document.querySelectorAll('.asb-numbers tbody tr').length > 0", timeout=5_000)
    rows = page.eval_on_selector_all(".asb-numbers tbody tr", "rs => rs.map(r => r.textContent)")
    assert len(rows) == 8 and rows[0].startswith("1")


def test_the_slider_positions_are_the_packages(modules):
    """Every one of the 1 001 positions gives the scale `web.scale_at` says (the round values
    exactly; the others to a unit or two in the last place: JavaScript's ** and C's pow), and
    `web.scale_position` is the page's inverse at round values and between them."""
    from attention_scaling.explorables import SCALES

    page, base = modules
    got = page.evaluate("""async ([base, nice, values]) => {
        const {scalePositions} = await import(base + "/scale_view.js");
        const at = scalePositions(nice);
        return {scales: Array.from({length: at.steps + 1}, (_, k) => at.toScale(k)), steps: at.steps,
                positions: values.map(at.toStep)};
    }""", [base, list(SCALES), list(SCALES) + [0.0731, 2.5, 47.0, 99.9]])
    assert got["steps"] == web.SCALE_STEPS
    want = [web.scale_at(k, SCALES) for k in range(web.SCALE_STEPS + 1)]
    _close(got["scales"], want, "slider scales")
    assert [got["scales"][web.scale_position(x)] for x in SCALES] == list(SCALES)  # exact
    assert got["positions"] == [web.scale_position(x) for x in list(SCALES) + [0.0731, 2.5, 47.0, 99.9]]
    for bad in (-1, 1001, 2.5, True):
        with pytest.raises(ValueError, match="^position"):
            web.scale_at(bad)


def test_a_packed_payload_is_the_packages_doubles_bit_for_bit(modules):
    page, base = modules
    payload = web.scale_payload(seed=0)
    got = page.evaluate("""async ([base, payload]) => {
        const {unpack} = await import(base + "/payload.js");
        const u = unpack(payload);
        return [u.z, u.draws, unpack(u) === u];
    }""", [base, payload])
    fig = ScaleFigure(seed=0)
    assert np.array_equal(got[0], fig.z) and np.array_equal(got[1], fig.z_draws) and got[2]
    assert web.unpack(payload)["draws"] == fig.z_draws.tolist()
    with pytest.raises(ValueError, match="finite"):
        web.pack([1.0, float("nan")])


def test_the_page_computes_the_packages_chi_square_quantiles(modules):
    """The quantiles an explorer's means at any d_k will draw query lengths from: the page's
    equal the package's to 1e-12 relative at 400 random (k, u) and at the extremes (k = 1 and
    1024, u one step from 0 and from 1)."""
    from attention_scaling import portable_random

    rng = np.random.default_rng(SEED)
    cases = [(k, u) for k in (1, 2, 3, 64, 1023, 1024) for u in (1.5 * 2.0**-53, 1e-10, 0.5, 1 - 2.0**-53)]
    cases += [(int(k), float(u)) for k, u in zip(rng.integers(1, 1025, 400), rng.uniform(0, 1, 400))]
    page, base = modules
    got = page.evaluate("""async ([base, cases]) => {
        const {chi2Quantile} = await import(base + "/random.js");
        return cases.map(([k, u]) => chi2Quantile(k, u));
    }""", [base, cases])
    want = [float(portable_random.chi2_quantile(k, u)) for k, u in cases]
    _close(got, want, "chi-square quantiles")
    errors = page.evaluate("""async base => {
        const {chi2Quantile} = await import(base + "/random.js");
        return [[0, 0.5], [2.5, 0.5], [4, 0], [4, 1], [4, NaN]].map(([k, u]) => {
            try { chi2Quantile(k, u); return "no error"; } catch (e) { return e.name; } });
    }""", base)
    assert errors == ["RangeError"] * 5


# --- the context explorer (context.js): any n from 2 to 65 536, any gap in [-40, 40] ----------------

CONTEXT_FIELDS = {"needle": "needle", "others": "others", "spread": "spread", "gradient": "gradient",
                  "topDistractor": "top_distractor", "rest": "rest", "sink": "sink", "largestLogit": "largest_logit"}


def _context_settings(count: int) -> list[dict]:
    """The saturated corners (n = 65 536 and n = 2, gaps of ±40 and 0, every method), then ``count``
    random settings: n log-uniform over [2, 65 536], the gap uniform over [-40, 40]."""
    from attention_scaling.context import GAP_RANGE, METHODS

    corners = [{"n": n, "gap": gap, "method": m} for n in (2, 65536) for gap in (*GAP_RANGE, 0.0) for m in METHODS]
    rng = np.random.default_rng(SEED)
    return corners + [{"n": int(np.exp(rng.uniform(np.log(2), np.log(65536.5)))),
                       "gap": float(rng.uniform(*GAP_RANGE)), "method": str(rng.choice(METHODS))}
                      for _ in range(count)]


def _context_in_page(modules, payload, settings) -> list[dict]:
    page, base = modules
    return page.evaluate("""async ([base, payload, settings]) => {
        const {contextModel, contextReadout} = await import(base + "/context.js");
        const model = contextModel(payload);
        return settings.map(s => {
            const state = model.state(s);
            return {state: {...state, curves: state.curves[s.method]}, readout: contextReadout(state, payload)};
        });
    }""", [base, payload, settings])


def test_the_context_module_computes_the_packages_numbers_and_readout(modules):
    """At the corners and 300 random settings: every number of the state, the needle's curve
    against n, and the readout (lead, cells, sentence, alt text) are the package's
    (ContextFigure.update, _describe_context), the numbers to 1e-12 relative."""
    from attention_scaling.context import ContextFigure
    from attention_scaling.explorables.book import _describe_context

    settings = _context_settings(300)
    got = _context_in_page(modules, web.context_payload(0), settings)
    fig = ContextFigure(seed=0)
    for s, row in zip(settings, got):
        fig.update(**s)
        st, where = fig.state, f"{s}"
        for js, py in CONTEXT_FIELDS.items():
            _close([row["state"][js]], [getattr(st, py)], f"{where}: {py}")
        for part in ("weight", "others", "spread", "gradient"):
            _close(row["state"]["curves"][part], getattr(st.curves[s["method"]], part), f"{where}: curve {part}")
        want = _describe_context(st)
        assert row["readout"]["values"] == want.values(), where
        assert (row["readout"]["text"], row["readout"]["alt"]) == (want.text, want.alt), where


def test_an_off_by_one_in_n_is_caught(modules):
    """The comparison above sees one distractor more or less: the page's numbers at n ± 1 are
    not the package's at n, at every method, even at n = 65 535 (a needle far above them)."""
    from attention_scaling.context import METHODS, ContextFigure

    fig = ContextFigure(seed=0)
    for n, gap in ((1000, 4.0), (65535, 8.0)):
        settings = [{"n": n + k, "gap": gap, "method": m} for k in (-1, 1) for m in METHODS]
        got = _context_in_page(modules, web.context_payload(0), settings)
        for s, row in zip(settings, got):
            fig.update(n=n, gap=gap, method=s["method"])
            with pytest.raises(AssertionError):
                _close([row["state"]["needle"]], [fig.state.needle], f"{s} against n = {n}")


@pytest.mark.parametrize("bad, message", [({"n": 1}, "n must be an integer"), ({"n": 65537}, "n must be an integer"),
                                          ({"n": 10.5}, "n must be an integer"), ({"gap": 40.5}, "gap must lie"),
                                          ({"method": "cubic"}, "method must be one of")])
def test_a_context_setting_outside_the_range_is_refused(modules, bad, message):
    page, base = modules
    error = page.evaluate("""async ([base, payload, setting]) => {
        const {contextModel} = await import(base + "/context.js");
        try { contextModel(payload).state(setting); return null; } catch (e) { return e.name + ": " + e.message; }
    }""", [base, web.context_payload(0), {"n": 16, "gap": 4, "method": "plain", **bad}])
    assert error is not None and error.startswith("RangeError") and message in error


def test_the_page_sums_as_numpy_does(modules):
    """numpy's pairwise summation, bit for bit, at every length that changes its branches."""
    page, base = modules
    rng = np.random.default_rng(SEED)
    arrays = [np.exp(rng.standard_normal(n)) for n in (*range(1, 40), 127, 128, 129, 255, 256, 1000, 65535)]
    got = page.evaluate("""async ([base, arrays]) => {
        const {pairwiseSum} = await import(base + "/context.js");
        return arrays.map(a => pairwiseSum(Float64Array.from(a)));
    }""", [base, [a.tolist() for a in arrays]])
    assert got == [float(a.sum()) for a in arrays]
