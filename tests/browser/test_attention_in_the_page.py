"""The attention explorer of "Scale the scores" as the built book shows it: drawn and read out in
the page by its ES module (attention_scaling.web, attention_view.js) for any d_k and magnitude its
sliders reach, given Present mode and the lesson's stops by the book's player.js (issue 30).

Every readout is compared with the Python package's at the same setting, character for
character; the module's arithmetic is held to 1e-12 by tests/browser/test_attention_numbers.py.
Screenshots go to _build/screenshots/explorer-attention-*.png for review.
"""

from __future__ import annotations

import re

import pytest

from attention_scaling import lesson, web
from attention_scaling.explorables import ATTENTION_MAGNITUDES
from attention_scaling.explorables.book import _describe_attention
from attention_scaling.figures import AttentionFigure
from book_files import SCREENSHOTS
from module_page import (ROOT, check_from_disk, check_phone, check_present_stops, check_without_scripts, open_page,
                         shown_reader)

pytestmark = pytest.mark.browser

PAGE = "book/scale-the-scores.html"
SHOWN = shown_reader("""dK: Number(root.dataset.dK),
        red: shownBars('.asb-panel:nth-child(1) path.asb-bar:not(.asb-outlined)'),
        blue: shownBars('.asb-panel:nth-child(1) path.asb-outlined'),
        redDrawn: subpaths('.asb-panel:nth-child(1) path.asb-bar:not(.asb-outlined)'),
        blueDrawn: subpaths('.asb-panel:nth-child(1) path.asb-outlined'),""")

_FIGURE = AttentionFigure()


def package(d_k: int, magnitude: float):
    _FIGURE.update(d_k=d_k, magnitude=magnitude, n_keys=16, seed=0)
    return _FIGURE.state, _describe_attention(_FIGURE.state)


def assert_shows(shown: dict, d_k: int, magnitude: float) -> None:
    state, r = package(d_k, magnitude)
    assert (shown["lead"], shown["cells"], shown["said"], shown["alt"]) == (r.lead, r.cells(), r.text, r.alt)
    assert shown["dK"] == d_k
    assert shown["red"] == pytest.approx(list(state.weights.unscaled), rel=1e-12, abs=1e-300)
    assert shown["blue"] == pytest.approx(list(state.weights.scaled), rel=1e-12, abs=1e-300)
    # a bar drawn for every weight with a height on the panel's axis (view.js: the plot area runs
    # from y = 24 to 162 user units for weights 1.02 to 0; a weight below about 1e-17 is at 0)
    assert (shown["redDrawn"], shown["blueDrawn"]) == (_drawn(state.weights.unscaled), _drawn(state.weights.scaled))


def _drawn(weights) -> int:
    y = lambda v: 24 + (200 - 24 - 38) * (1 - v / 1.02)  # noqa: E731  (view.js yAxis, the same doubles)
    return sum(y(0.0) - y(min(float(w), 1.02)) > 0 for w in weights)


@pytest.fixture(scope="module")
def url(server):
    return f"{server}/{PAGE}"


def test_it_opens_on_the_default_and_reads_out_the_packages_numbers(browser, url):
    context, page, errors = open_page(browser, url)
    try:
        shown = page.locator(ROOT).first.evaluate(SHOWN)
        assert shown["ready"] and errors == []
        assert_shows(shown, 64, 1.0)
        assert shown["positions"] == [web.d_position(64), web.magnitude_position(1.0)]
        assert shown["outputs"] == ["64", "1"] and shown["valuetexts"] == ["dₖ = 64", "m = 1"]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(ROOT).first.screenshot(path=str(SCREENSHOTS / "explorer-attention-1280.png"))
    finally:
        context.close()


def test_keys_reach_any_d_k_and_magnitude(browser, url):
    """Arrow keys step d_k through whole numbers off the powers of two (63, then 62), End and Home
    reach 1024 and 1, and the magnitude moves in log steps off the grid and snaps to a round value:
    at every stop on the way the readout and the bars are the package's."""
    context, page, errors = open_page(browser, url)
    try:
        root = page.locator(ROOT).first
        d_slider, m_slider = root.locator("input[type=range]").nth(0), root.locator("input[type=range]").nth(1)
        d_slider.focus()
        page.keyboard.press("ArrowLeft")
        assert_shows(root.evaluate(SHOWN), 63, 1.0)
        page.keyboard.press("ArrowLeft")
        assert_shows(root.evaluate(SHOWN), 62, 1.0)
        m_slider.focus()
        page.keyboard.press("ArrowRight")  # one log step: 10^(2/1000) times 1, no grid value
        m = 0.1 * 100 ** ((web.magnitude_position(1.0) + 1) / 1000)
        assert_shows(root.evaluate(SHOWN), 62, m)
        d_slider.focus()
        page.keyboard.press("End")
        assert_shows(root.evaluate(SHOWN), 1024, m)
        page.keyboard.press("Home")
        assert_shows(root.evaluate(SHOWN), 1, m)
        m_slider.focus()
        page.keyboard.press("End")
        assert_shows(root.evaluate(SHOWN), 1, 10.0)
        assert errors == []
    finally:
        context.close()


def test_a_click_on_the_d_k_slider_moves_it(browser, url):
    context, page, errors = open_page(browser, url)
    try:
        root = page.locator(ROOT).first
        slider = root.locator("input[type=range]").nth(0)
        slider.scroll_into_view_if_needed()
        box = slider.bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.1, box["y"] + box["height"] / 2)
        shown = root.evaluate(SHOWN)
        d_k = web.d_positions()[shown["positions"][0]]
        assert 1 < d_k < 64 and shown["dK"] == d_k
        assert_shows(shown, d_k, 1.0)
    finally:
        context.close()


def test_present_mode_steps_through_the_lessons_stops(browser, url):
    """Each stop of the lesson sets the d_k and magnitude it names (the magnitude exactly: its
    slider position snaps to the round value); the readout is the package's there, nothing falls
    below the screen, and the smallest figure text is at least 2.5 % of the screen's height, at
    1280 x 720 and 1920 x 1080."""
    stops = lesson.stops("attention")
    assert {s.settings["magnitude"] for s in stops} <= set(ATTENTION_MAGNITUDES)
    check_present_stops(browser, url, SHOWN, stops, lambda shown, s: assert_shows(shown, s["d_k"], s["magnitude"]),
                        lambda width: SCREENSHOTS / f"explorer-attention-present-{width}.png",
                        after=lambda shown: assert_shows(shown, 64, 1.0))


def test_on_a_phone_the_panels_stack_and_present_shows_each_stops_panel(browser, url):
    check_phone(browser, url, SHOWN, SCREENSHOTS / "explorer-attention-390-dark.png", lesson.stops("attention"))


def test_from_disk_it_computes_as_well(browser, site):
    check_from_disk(browser, (site / PAGE).as_uri(), SHOWN, lambda shown: assert_shows(shown, 64, 1.0))


def test_without_scripts_the_builds_picture_and_readout_show(browser, url):
    check_without_scripts(browser, url, package(64, 1.0)[1].lead)


def test_a_finger_steps_each_slider_by_one_position(browser, url):
    """On a touch screen (no arrow keys) the "−" and "+" beside each slider move it one position:
    d_k from 64 to 65 and back down to 63, the magnitude one log step; the readout follows. They
    are not Tab stops (the sliders' own keys serve a keyboard), and a mouse's screen has none."""
    context, page, errors = open_page(browser, url, viewport=(390, 844), touch=True)
    try:
        root = page.locator(ROOT).first
        d_row, m_row = root.locator(".asb-slider").nth(0), root.locator(".asb-slider").nth(1)
        d_row.scroll_into_view_if_needed()
        steps = d_row.locator("button.asb-step")
        assert steps.count() == 2 and steps.nth(0).get_attribute("tabindex") == "-1" and steps.nth(0).is_visible()
        assert steps.nth(1).get_attribute("aria-label") == "one step up: key dimension d_k"
        steps.nth(1).tap()
        assert_shows(root.evaluate(SHOWN), 65, 1.0)
        steps.nth(0).tap()
        steps.nth(0).tap()
        assert_shows(root.evaluate(SHOWN), 63, 1.0)
        m_row.locator("button.asb-step").nth(1).tap()
        assert_shows(root.evaluate(SHOWN), 63, 0.1 * 100 ** ((web.magnitude_position(1.0) + 1) / 1000))
        box = root.locator(".asb-control").first.bounding_box()
        assert box["x"] + box["width"] <= 390 and page.evaluate("document.scrollingElement.scrollWidth") <= 390
        assert errors == []
    finally:
        context.close()


def test_with_a_mouse_no_step_buttons_show(browser, url):
    context, page, errors = open_page(browser, url)
    try:
        steps = page.locator(ROOT).first.locator("button.asb-step")
        assert steps.count() == 4 and not any(steps.nth(i).is_visible() for i in range(4))
    finally:
        context.close()


# --- numbers in the prose bound to the explorer (the {live} role) ---------------------------------

LIVE_JS = """() => [...document.querySelectorAll('.asb-live')].map(s => ({
    bind: s.dataset.bind, spec: s.dataset.format, text: s.textContent.trim(), on: s.classList.contains('asb-live-on')}))"""


def live_text(x: float, spec: str, complement: float | None = None) -> str:
    """What a bound number should read (format.js liveText): Python's format, unless that reads
    as exactly 0 or 1 and x is not (or x is 1 but its complement is not 0); then the readout's
    own form, from the same complement."""
    from attention_scaling.readout import readout_number

    text = format(x, spec)
    shown = float(text)
    if (shown == 0 and x != 0) or (abs(shown) == 1 and (x != shown or (complement or 0) > 0)):
        return readout_number(x, int(spec[1:-1]) or 1, x > 0.5, complement if x > 0.5 else None)
    return text


def bound_values(d_k: int, magnitude: float) -> dict:
    """bind -> (value, complement) as the page's player.js reads them from the state."""
    state, _ = package(d_k, magnitude)
    top, mean = state.draw.scaled.max_weight, state.mean.unscaled.max_weight
    return {"attention:dK": (float(d_k), None), "attention:magnitude": (magnitude, None),
            "attention:draw.scaled.maxWeight": (top, state.draw.scaled.largest_gradient / top if top > 0.5 else None),
            "attention:mean.unscaled.maxWeight.mean": (mean.mean, mean.complement)}


def expected(shown: list[dict], values: dict) -> list[str]:
    return [live_text(values[s["bind"]][0], s["spec"], values[s["bind"]][1]) for s in shown]


def test_the_prose_numbers_follow_the_explorer_and_equal_the_glued_ones(browser, url, site):
    """Four numbers of the prose are bound to the explorer (d_k, m, the draw's largest blue
    weight, the mean largest red weight). Without scripts they are the build's glued values;
    with scripts, at the opening setting, the module writes exactly those; after the sliders
    move (d_k to 1024, then m to 10, where both weights saturate) they are the package's
    numbers at the new setting, a saturated one in the readout's "1 − …" form from the same
    complement as the readout table beside it (which shows the same string)."""
    built = (site / PAGE).read_text(encoding="utf-8")
    glued = re.findall(r'<span class="asb-live" data-bind="([^"]+)" data-format="([^"]+)">'
                       r'<span class="pasted-text">([^<]+)</span>', built)
    want = bound_values(64, 1.0)
    assert [g[0] for g in glued] == list(want), glued
    assert [g[2] for g in glued] == [live_text(want[bind][0], spec, want[bind][1]) for bind, spec, _ in glued]
    context, page, errors = open_page(browser, url)
    try:
        root = page.locator(ROOT).first
        assert [s["text"] for s in page.evaluate(LIVE_JS)] == [g[2] for g in glued]  # the module writes the same
        assert all(s["on"] for s in page.evaluate(LIVE_JS))
        d_slider, m_slider = root.locator("input[type=range]").nth(0), root.locator("input[type=range]").nth(1)
        d_slider.focus()
        page.keyboard.press("End")
        shown = page.evaluate(LIVE_JS)
        values = bound_values(1024, 1.0)
        assert [s["text"] for s in shown] == expected(shown, values)
        m_slider.focus()
        page.keyboard.press("End")  # m = 10: every weight saturates
        shown = page.evaluate(LIVE_JS)
        values = bound_values(1024, 10.0)
        assert [s["text"] for s in shown] == expected(shown, values)
        assert [s["text"] for s in shown][:2] == ["1024", "10"]
        assert all(s["text"].startswith("1 − ") for s in shown[2:]), shown  # never "1.000"
        assert shown[2]["text"] in str(root.evaluate(SHOWN)["cells"])  # the table says the same
        assert errors == []
    finally:
        context.close()
    context, page, _ = open_page(browser, url, scripts=False)
    try:
        assert [(s["text"], s["on"]) for s in page.evaluate(LIVE_JS)] == [(g[2], False) for g in glued]
    finally:
        context.close()
