"""The context explorer of "Keep long contexts sharp" as the built book shows it: drawn and read out
in the page by its ES module (attention_scaling.web, context_view.js) for any n its slider reaches
and any gap, given Present mode and the lesson's stops by the book's player.js (issue 30).

Every readout is compared with the Python package's at the same setting, character for
character; the module's arithmetic is held to 1e-12 by tests/browser/test_web_numerics.py.
Screenshots go to _build/screenshots/explorer-context-*.png for review.
"""

from __future__ import annotations

import pytest

from attention_scaling import lesson, web
from attention_scaling.context import ContextFigure, METHODS
from attention_scaling.explorables.book import _describe_context
from book_files import SCREENSHOTS
from module_page import (ROOT, check_from_disk, check_phone, check_present_stops, check_without_scripts, open_page,
                         shown_reader)

pytestmark = pytest.mark.browser

PAGE = "book/keep-long-contexts-sharp.html"
SHOWN = shown_reader("""n: Number(root.dataset.n),
        bars: [...root.querySelectorAll('.asb-panel:nth-child(1) rect.asb-bar')].map(r => Number(r.dataset.value)),""")

_FIGURE = ContextFigure(seed=0)


def package(n: int, gap: float, method: str):
    _FIGURE.update(n=n, gap=gap, method=method)
    return _FIGURE.state, _describe_context(_FIGURE.state)


def assert_shows(shown: dict, n: int, gap: float, method: str) -> None:
    state, r = package(n, gap, method)
    assert (shown["lead"], shown["cells"], shown["said"], shown["alt"]) == (r.lead, r.cells(), r.text, r.alt)
    assert shown["n"] == n and shown["choice"] == METHODS.index(method)
    # the bars: the needle, the strongest distractor (first of five), the rest and the sink
    assert shown["bars"][0] == pytest.approx(state.needle, rel=1e-12, abs=1e-300)
    assert shown["bars"][1] == pytest.approx(state.top_distractor, rel=1e-12, abs=1e-300)
    assert shown["bars"][-2:] == pytest.approx([state.rest, state.sink], rel=1e-12, abs=1e-300)


@pytest.fixture(scope="module")
def url(server):
    return f"{server}/{PAGE}"


def test_it_opens_on_the_default_and_reads_out_the_packages_numbers(browser, url):
    context, page, errors = open_page(browser, url)
    try:
        shown = page.locator(ROOT).evaluate(SHOWN)
        assert shown["ready"] and errors == []
        assert_shows(shown, 1024, 6.0, "plain")
        ns = web.context_n_positions()
        assert shown["positions"] == [web.context_n_position(1024), web.gap_position(6.0)]
        assert shown["outputs"] == ["1024", "6"] and shown["valuetexts"] == ["n = 1024 keys", "Δ = 6"]
        assert ns[shown["positions"][0]] == 1024
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(ROOT).screenshot(path=str(SCREENSHOTS / "explorer-context-1280.png"))
    finally:
        context.close()


def test_keys_reach_any_n_and_gap_and_every_method(browser, url):
    """Arrow keys step n through every integer its positions hold (off the powers of two), End
    and Home reach 65 536 and 2, the gap steps by 0.05, and the radio group's arrow keys choose
    each method: at every stop on the way the readout is the package's."""
    context, page, errors = open_page(browser, url)
    try:
        root = page.locator(ROOT)
        n_slider, gap_slider = root.locator("input[type=range]").nth(0), root.locator("input[type=range]").nth(1)
        ns = web.context_n_positions()
        n_slider.focus()
        page.keyboard.press("ArrowLeft")  # below 1024: an n no grid had
        n_at = ns[web.context_n_position(1024) - 1]
        assert n_at not in (512, 1024)
        assert_shows(root.evaluate(SHOWN), n_at, 6.0, "plain")
        page.keyboard.press("End")
        assert_shows(root.evaluate(SHOWN), 65536, 6.0, "plain")
        gap_slider.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        assert_shows(root.evaluate(SHOWN), 65536, 6.15, "plain")
        root.locator("input[type=radio]").nth(0).focus()
        for k, method in enumerate(METHODS[1:], start=1):
            page.keyboard.press("ArrowDown")
            assert_shows(root.evaluate(SHOWN), 65536, 6.15, method)
        n_slider.focus()
        page.keyboard.press("Home")
        assert_shows(root.evaluate(SHOWN), 2, 6.15, "zero-logit")
        gap_slider.focus()
        page.keyboard.press("Home")
        assert_shows(root.evaluate(SHOWN), 2, 0.0, "zero-logit")
        assert errors == []
    finally:
        context.close()


def test_a_click_on_the_n_slider_moves_it(browser, url):
    context, page, errors = open_page(browser, url)
    try:
        root = page.locator(ROOT)
        slider = root.locator("input[type=range]").nth(0)
        slider.scroll_into_view_if_needed()
        box = slider.bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.2, box["y"] + box["height"] / 2)
        shown = root.evaluate(SHOWN)
        n = web.context_n_positions()[shown["positions"][0]]
        assert n < 1024 and shown["n"] == n
        assert_shows(shown, n, 6.0, "plain")
    finally:
        context.close()


def test_present_mode_steps_through_the_lessons_stops(browser, url):
    """Each stop of the lesson (attention_scaling.lesson) sets the method, n and gap it names; the
    readout is the package's there, nothing falls below the screen, and the smallest figure text is
    at least 2.5 % of the screen's height, at 1280 x 720 and 1920 x 1080."""
    check_present_stops(browser, url, SHOWN, lesson.stops("context"),
                        lambda shown, s: assert_shows(shown, s["n"], s["gap"], s["method"]),
                        lambda width: SCREENSHOTS / f"explorer-context-present-{width}.png")


def test_on_a_phone_the_panels_stack_without_a_sideways_scroll(browser, url):
    check_phone(browser, url, SHOWN, SCREENSHOTS / "explorer-context-390-dark.png")


def test_from_disk_it_computes_as_well(browser, site):
    check_from_disk(browser, (site / PAGE).as_uri(), SHOWN, lambda shown: assert_shows(shown, 1024, 6.0, "plain"))


def test_without_scripts_the_builds_picture_and_readout_show(browser, url):
    check_without_scripts(browser, url, package(1024, 6.0, "plain")[1].lead)
