"""The attention explorer of "Scale the scores" as the built book shows it: drawn and read out in
the page by its ES module (attention_scaling.web, attention_view.js) for any d_k and magnitude its
sliders reach, given Present mode and the lesson's stops by the book's player.js (issue 30).

Every readout is compared with the Python package's at the same setting, character for
character; the module's arithmetic is held to 1e-12 by tests/browser/test_attention_numbers.py.
Screenshots go to _build/screenshots/explorer-attention-*.png for review.
"""

from __future__ import annotations

import pytest

from attention_scaling import lesson, web
from attention_scaling.explorables import ATTENTION_MAGNITUDES
from attention_scaling.explorables.book import _describe_attention
from attention_scaling.figures import AttentionFigure
from book_files import SCREENSHOTS
from test_explorer_in_the_page import open_page

pytestmark = pytest.mark.browser

PAGE = "book/scale-the-scores.html"
ROOT = ".asb-player.asb-module"

SHOWN = """root => {
    const box = root.querySelector('.asb-readout');
    const texts = [...root.querySelectorAll('.asb-svg text')].filter(t => t.getClientRects().length);
    const px = t => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a;
    const rect = e => e.getBoundingClientRect().toJSON();
    const ranges = [...root.querySelectorAll('input[type=range]')];
    const shownBars = sel => [...root.querySelectorAll(sel)].filter(r => r.style.display !== 'none')
        .map(r => Number(r.dataset.value));
    return {
        ready: root.classList.contains('asb-ready'),
        lead: box.querySelector('.asb-lead').textContent,
        cells: [...box.querySelectorAll('td')].map(td => td.textContent),
        said: box.querySelector('.asb-said').textContent,
        alt: root.querySelector('.asb-stack').getAttribute('aria-label'),
        positions: ranges.map(r => Number(r.value)), outputs: [...root.querySelectorAll('output')].map(o => o.textContent),
        valuetexts: ranges.map(r => r.getAttribute('aria-valuetext')),
        dK: Number(root.dataset.dK),
        panels: [...root.querySelectorAll('.asb-panel')].filter(p => p.getClientRects().length).map(rect),
        smallestText: Math.min(...texts.map(px)),
        caption: root.querySelector('.asb-stop').textContent,
        presenting: root.classList.contains('asb-presenting'),
        viewport: [innerWidth, innerHeight],
        lowest: Math.max(...[...root.children].filter(e => e.getClientRects().length).map(e => rect(e).bottom)),
        pageScroll: document.scrollingElement.scrollWidth - innerWidth,
        red: shownBars('.asb-panel:nth-child(1) rect.asb-bar:not(.asb-outlined)'),
        blue: shownBars('.asb-panel:nth-child(1) rect.asb-outlined'),
        focus: [...root.querySelectorAll('.asb-panel')].findIndex(p => p.classList.contains('asb-focus')),
    };
}"""

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
    for width, height in ((1280, 720), (1920, 1080)):
        context, page, errors = open_page(browser, url, viewport=(width, height))
        try:
            root = page.locator(ROOT).first
            root.locator(".asb-present-open").click()
            for k, stop in enumerate(stops):
                if k:
                    page.keyboard.press("ArrowRight")
                shown = root.evaluate(SHOWN)
                assert shown["presenting"] and shown["caption"] == f"Stop {k + 1} of {len(stops)}: {stop.caption}"
                assert_shows(shown, stop.settings["d_k"], stop.settings["magnitude"])
                assert shown["lowest"] <= height + 0.5, (width, k, shown["lowest"])
                assert shown["smallestText"] >= 0.025 * height, (width, k, shown["smallestText"])
            page.screenshot(path=str(SCREENSHOTS / f"explorer-attention-present-{width}.png"))
            page.keyboard.press("Escape")
            assert_shows(root.evaluate(SHOWN), 64, 1.0)  # the reader's own settings back
            assert errors == []
        finally:
            context.close()


def test_on_a_phone_the_panels_stack_and_present_shows_each_stops_panel(browser, url):
    context, page, errors = open_page(browser, url, viewport=(390, 844), dark=True)
    try:
        root = page.locator(ROOT).first
        shown = root.evaluate(SHOWN)
        assert shown["pageScroll"] <= 0
        lefts = {round(p["x"]) for p in shown["panels"]}
        tops = [p["y"] for p in shown["panels"]]
        assert len(shown["panels"]) == 3 and len(lefts) == 1 and tops == sorted(tops)
        assert all(p["x"] + p["width"] <= 390 for p in shown["panels"])
        root.screenshot(path=str(SCREENSHOTS / "explorer-attention-390-dark.png"))
        root.locator(".asb-present-open").click()
        for k, stop in enumerate(lesson.stops("attention")):
            if k:
                page.keyboard.press("ArrowRight")
            shown = root.evaluate(SHOWN)
            assert shown["focus"] == stop.panel and len(shown["panels"]) == 1, (k, shown["focus"])
            assert shown["pageScroll"] <= 0
        assert errors == []
    finally:
        context.close()


def test_from_disk_it_computes_as_well(browser, site):
    context, page, errors = open_page(browser, (site / PAGE).as_uri())
    try:
        shown = page.locator(ROOT).first.evaluate(SHOWN)
        assert shown["ready"] and errors == []
        assert_shows(shown, 64, 1.0)
    finally:
        context.close()


def test_without_scripts_the_builds_picture_and_readout_show(browser, url):
    context, page, _ = open_page(browser, url, scripts=False)
    try:
        root = page.locator(ROOT).first
        assert root.locator("noscript img.asb-picture").count() == 1
        _, r = package(64, 1.0)
        assert root.locator(".asb-lead").text_content() == r.lead
        assert "needs JavaScript" in root.locator(".asb-note").text_content()
    finally:
        context.close()


def test_a_finger_steps_each_slider_by_one_position(browser, url):
    """On a touch screen (no arrow keys) the "−" and "+" beside each slider move it one position:
    d_k from 64 to 65 and back down to 63, the magnitude one log step; the readout follows. They
    are not Tab stops (the sliders' own keys serve a keyboard), and a mouse's screen has none."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(url, wait_until="load")
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
