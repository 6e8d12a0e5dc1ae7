"""The normalisation explorer of "Normalize beyond √d_k" as the built book shows it: drawn and read
out in the page by its ES module (attention_scaling.web, normalization_view.js) at any magnitude and
gain its sliders reach and each normalisation, given Present mode and the lesson's stops by the
book's player.js (issue 30).

Every readout is compared with the Python package's at the same setting, character for
character; the module's arithmetic is held to 1e-12 by tests/browser/test_normalization_numbers.py.
Screenshots go to _build/screenshots/explorer-normalization-*.png for review.
"""

from __future__ import annotations

import pytest

from attention_scaling import lesson, web
from attention_scaling.explorables import ATTENTION_MAGNITUDES
from attention_scaling.explorables.book import _describe_normalization
from attention_scaling.figures import NormalizationFigure
from book_files import SCREENSHOTS
from module_page import (ROOT, check_from_disk, check_phone, check_present_stops, check_without_scripts, open_page,
                         shown_reader)

pytestmark = pytest.mark.browser

PAGE = "book/normalize-beyond-sqrt-dk.html"
MODES = NormalizationFigure.MODES
SHOWN = shown_reader("""mode: root.dataset.mode,
        bars: [...root.querySelectorAll('.asb-panel:nth-child(1) rect.asb-bar')].map(r => Number(r.dataset.value)),
        dot: Number(root.querySelector('.asb-dot').dataset.value),
        textColour: getComputedStyle(root.querySelector('.asb-svg text')).fill,""")

_FIGURE = NormalizationFigure()


def package(mode: str, magnitude: float, gain: float):
    _FIGURE.update(magnitude=magnitude, mode=mode, gain=gain)
    return _FIGURE.state, _describe_normalization(_FIGURE.state)


def assert_shows(shown: dict, mode: str, magnitude: float, gain: float) -> None:
    state, r = package(mode, magnitude, gain)
    assert (shown["lead"], shown["cells"], shown["said"], shown["alt"]) == (r.lead, r.cells(), r.text, r.alt)
    assert shown["mode"] == mode and shown["choice"] == MODES.index(mode)
    assert shown["bars"] == pytest.approx(list(state.weights), rel=1e-12, abs=1e-300)
    assert shown["dot"] == pytest.approx(float(state.weights.max()), rel=1e-12)


def at(settings: dict) -> tuple:
    return settings["mode"], settings["magnitude"], settings["gain"]


@pytest.fixture(scope="module")
def url(server):
    return f"{server}/{PAGE}"


def test_it_opens_on_the_default_and_reads_out_the_packages_numbers(browser, url):
    context, page, errors = open_page(browser, url)
    try:
        shown = page.locator(ROOT).first.evaluate(SHOWN)
        assert shown["ready"] and shown["images"] == 0 and errors == []
        assert len(shown["panels"]) == 2 and len({round(p["y"]) for p in shown["panels"]}) == 1  # side by side
        assert shown["smallestText"] >= 11, shown["smallestText"]
        assert_shows(shown, "scaled", 1.0, 8.0)
        assert shown["positions"] == [web.magnitude_position(1.0), web.gain_position(8.0)]
        assert shown["outputs"] == ["1", "8"] and shown["valuetexts"] == ["m = 1", "g = 8"]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(ROOT).first.screenshot(path=str(SCREENSHOTS / "explorer-normalization-1280.png"))
    finally:
        context.close()


def test_keys_reach_any_magnitude_and_gain_and_every_normalisation(browser, url):
    """Arrow keys move the magnitude in log steps off the round values and the gain by 2^(1/100);
    End and Home reach the ends; arrow keys on the radio buttons choose each normalisation: at
    every stop on the way the readout and the bars are the package's."""
    context, page, errors = open_page(browser, url)
    try:
        root = page.locator(ROOT).first
        m_slider, g_slider = root.locator("input[type=range]").nth(0), root.locator("input[type=range]").nth(1)
        radios = root.locator("input[type=radio]")

        def press(key, mode, m, gain):  # then the page shows the package's numbers at (mode, m, gain)
            page.keyboard.press(key)
            assert_shows(root.evaluate(SHOWN), mode, m, gain)

        m_slider.focus()
        press("ArrowRight", "scaled", 0.1 * 100 ** ((web.magnitude_position(1.0) + 1) / 1000), 8.0)
        press("End", "scaled", 10.0, 8.0)
        radios.nth(0).focus()
        press("ArrowDown", "qk-l2", 10.0, 8.0)
        g_slider.focus()
        press("ArrowLeft", "qk-l2", 10.0, 2 ** 2.99)
        press("Home", "qk-l2", 10.0, 1.0)
        press("End", "qk-l2", 10.0, 128.0)
        radios.nth(1).focus()
        press("ArrowDown", "qk-layernorm", 10.0, 128.0)
        m_slider.focus()
        press("Home", "qk-layernorm", 0.1, 128.0)
        assert errors == []
    finally:
        context.close()


def test_a_click_on_the_magnitude_slider_moves_it(browser, url):
    context, page, errors = open_page(browser, url)
    try:
        root = page.locator(ROOT).first
        slider = root.locator("input[type=range]").nth(0)
        slider.scroll_into_view_if_needed()
        box = slider.bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.8, box["y"] + box["height"] / 2)
        shown = root.evaluate(SHOWN)
        k = shown["positions"][0]
        m = next((x for x in ATTENTION_MAGNITUDES if web.magnitude_position(x) == k), 0.1 * 100 ** (k / 1000))
        assert 1 < m < 10
        assert_shows(shown, "scaled", m, 8.0)
        assert errors == []
    finally:
        context.close()


def test_present_mode_steps_through_the_lessons_stops(browser, url):
    stops = lesson.stops("normalization")
    check_present_stops(browser, url, SHOWN, stops, lambda shown, s: assert_shows(shown, *at(s)),
                        lambda width: SCREENSHOTS / f"explorer-normalization-present-{width}.png",
                        after=lambda shown: assert_shows(shown, "scaled", 1.0, 8.0))


def test_on_a_phone_the_panels_stack_and_present_shows_each_stops_panel(browser, url):
    check_phone(browser, url, SHOWN, SCREENSHOTS / "explorer-normalization-390-dark.png", lesson.stops("normalization"),
                panels=2)


def test_in_dark_mode_the_text_takes_the_pages_light_colour(browser, url):
    context, page, errors = open_page(browser, url, dark=True)
    try:
        page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; document.documentElement.dataset.mode = 'dark'; }")
        shown = page.locator(ROOT).first.evaluate(SHOWN)
        rgb = [int(x) for x in shown["textColour"].removeprefix("rgb(").removesuffix(")").split(",")[:3]]
        assert sum(rgb) > 3 * 150, shown["textColour"]
        page.locator(ROOT).first.screenshot(path=str(SCREENSHOTS / "explorer-normalization-1280-dark.png"))
        assert errors == []
    finally:
        context.close()


def test_from_disk_it_computes_as_well(browser, site):
    check_from_disk(browser, (site / PAGE).as_uri(), SHOWN, lambda shown: assert_shows(shown, "scaled", 1.0, 8.0))


def test_without_scripts_the_builds_picture_and_readout_show(browser, url):
    check_without_scripts(browser, url, package("scaled", 1.0, 8.0)[1].lead)
