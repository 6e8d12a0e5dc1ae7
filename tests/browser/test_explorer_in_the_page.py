"""The scale explorer of "Derive the softmax gradient" as the built book shows it: drawn and read
out in the page by its ES module (attention_scaling.web, scale_view.js) at any slider position,
given Present mode and the lesson's stops by the book's player.js (issue 30, step 1).

Every number the page shows is compared with the Python package's at the same scale; the
module's own arithmetic is held to 1e-12 by tests/browser/test_web_numerics.py.
Screenshots go to _build/screenshots/explorer-scale-*.png for review.
"""

from __future__ import annotations

import pytest

from attention_scaling import lesson, web
from attention_scaling.explorables import SCALES
from attention_scaling.explorables.book import _describe_scale
from attention_scaling.figures import ScaleFigure
from book_files import SCREENSHOTS
from module_page import ROOT, open_page, shown_reader

pytestmark = pytest.mark.browser

PAGE = "book/derive-the-softmax-gradient.html"
# What the page shows (module_page), with the scale and its one slider.
SHOWN = shown_reader("""scale: Number(root.dataset.scale),
        position: Number(root.querySelector('input[type=range]').value),
        output: root.querySelector('output').textContent,""")


def package(scale: float):
    fig = ScaleFigure(seed=0)
    fig.update(scale=scale)
    return _describe_scale(fig.state)


def assert_shows(shown: dict, scale: float) -> None:
    """The page's readout and description are the package's at ``scale``, character for character."""
    r = package(scale)
    assert shown["scale"] == pytest.approx(scale, rel=1e-15)
    assert (shown["lead"], shown["cells"], shown["foot"], shown["said"]) == (r.lead, r.cells(), r.note, r.text)
    assert shown["alt"] == r.alt


def shown(page) -> dict:
    return page.locator(ROOT).evaluate(SHOWN)


@pytest.mark.parametrize("mode", ["http", "file"])
def test_the_page_computes_the_packages_numbers_at_any_slider_position(browser, site, server, mode):
    url = f"{server}/{PAGE}" if mode == "http" else (site / PAGE).as_uri()
    context, page, errors = open_page(browser, url)
    s = shown(page)
    assert s["ready"] and s["images"] == 0 and len(s["panels"]) == 3  # SVG, no picture
    assert len({round(p["top"]) for p in s["panels"]}) == 1  # side by side in the book's column
    assert s["smallestText"] >= 11, s["smallestText"]  # as the reader view asks of figures at 1280
    assert_shows(s, 1.0)
    assert s["position"] == web.scale_position(1.0) and s["output"] == "1"
    slider = page.locator(f"{ROOT} input[type=range]")
    label = page.locator(f'{ROOT} label[for="{slider.get_attribute("id")}"]')
    assert "inverse temperature" in label.inner_text()
    slider.focus()
    page.keyboard.press("Home")
    assert_shows(shown(page), 0.05)
    page.keyboard.press("End")
    assert_shows(shown(page), 100.0)
    # at s = 100 the off-diagonal entries are -1e-17 and less: every "−" sits on a negative
    # colour, every "+" on a positive one (the colours are matplotlib's PuOr, orange below 0)
    cells = page.locator(ROOT).evaluate("""root => [...root.querySelectorAll('.asb-panel:nth-child(3) rect[data-value]')]
        .map((r, i) => [+r.dataset.value, r.style.fill, root.querySelectorAll('.asb-sign')[i].textContent])""")
    negative = {"rgb(127, 59, 8)", "rgb(184, 93, 8)", "rgb(230, 142, 38)", "rgb(253, 197, 127)", "rgb(251, 234, 211)"}
    assert len(cells) == 64 and {sign for _, _, sign in cells} == {"+", "−"}
    for value, fill, sign in cells:
        assert (sign == "−") == (value < 0) == (fill in negative), (value, fill, sign)
    page.keyboard.press("ArrowLeft")  # off every round value: s = 0.05 · 2000^(999/1000)
    s = shown(page)
    assert s["position"] == 999 and s["scale"] == pytest.approx(0.05 * 2000 ** 0.999, rel=1e-12)
    assert_shows(s, s["scale"])
    assert slider.get_attribute("aria-valuetext") == f"s = {s['scale']:.3g}"
    # any position: round values exactly where the slider meets them, the others in between
    for position in (1, 137, 394, 500, 871):
        slider.evaluate("(el, k) => { el.value = String(k); el.dispatchEvent(new Event('input', {bubbles: true})); }",
                        position)
        s = shown(page)
        assert s["position"] == position
        nice = [x for x in SCALES if web.scale_position(x) == position]
        assert s["scale"] == (nice[0] if nice else pytest.approx(0.05 * 2000 ** (position / 1000), rel=1e-12))
        assert_shows(s, s["scale"])
    box = slider.bounding_box()
    assert box["width"] >= 150
    page.mouse.click(box["x"] + 0.02 * box["width"], box["y"] + box["height"] / 2)
    assert shown(page)["scale"] < 0.1
    # what the lines and bands are, under the panels; the note says how to use the slider
    assert "Dashed line and grey band: the mean and the middle 80 %" in page.locator(f"{ROOT} .asb-key").inner_text()
    assert page.locator(f"{ROOT} .asb-note").inner_text().startswith("Computed in the page for any s")
    # the numbers behind the bars, as a table
    page.locator(f"{ROOT} .asb-numbers summary").click()  # filled when it opens (its toggle event)
    page.locator(f"{ROOT} .asb-numbers tbody tr").first.wait_for(timeout=5_000)
    rows = page.locator(f"{ROOT} .asb-numbers tbody tr").all_inner_texts()
    fig = ScaleFigure(seed=0)
    fig.update(scale=shown(page)["scale"])
    assert len(rows) == 8 and rows[0].split()[:2] == ["1", f"{fig.z[0]:.4g}"]
    context.close()
    assert errors == []


@pytest.mark.parametrize("viewport", [(1280, 720), (1920, 1080)], ids=["720", "1080"])
def test_present_mode_steps_through_the_lessons_stops_readable_from_the_back(browser, server, viewport):
    """Each stop sets its scale exactly; the panels sit in one row with their smallest text at
    2.5 % of the screen's height or more, and nothing falls below the screen."""
    context, page, errors = open_page(browser, f"{server}/{PAGE}?present", viewport)
    stops = lesson.stops("scale")
    for k, stop in enumerate(stops):
        if k:
            page.keyboard.press("PageDown")
        s = shown(page)
        assert s["presenting"] and s["caption"] == f"Stop {k + 1} of {len(stops)}: {stop.caption}"
        assert_shows(s, stop.settings["scale"])
        assert s["box"]["width"] == viewport[0] and s["box"]["height"] == viewport[1]
        assert s["lowest"] <= viewport[1] + 0.5, f"stop {k + 1}: the player ends at {s['lowest']:.0f} px"
        assert len({round(p["top"]) for p in s["panels"]}) == 1 and len(s["panels"]) == 3
        assert s["smallestText"] >= 0.025 * viewport[1], (k, s["smallestText"])
        if k == 1:
            page.screenshot(path=str(SCREENSHOTS / f"explorer-scale-present-{viewport[1]}.png"))
        assert "Dashed line and grey band" in page.locator(f"{ROOT} .asb-key").inner_text()
    page.keyboard.press("PageUp")
    assert shown(page)["caption"].startswith(f"Stop {len(stops) - 1} of")
    page.locator(".asb-presenting .asb-present-next").click()  # to the last stop: Next is disabled
    assert page.locator(".asb-presenting .asb-present-next").is_disabled()
    assert page.locator(ROOT).evaluate("root => root.contains(document.activeElement)")  # focus stays in
    page.keyboard.press("Escape")  # Escape leaves on its second press
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.asb-presenting')", timeout=5000)
    assert_shows(shown(page), 1.0)  # the reader's own setting is back
    context.close()
    assert errors == []


def test_on_a_phone_the_panels_stack_and_a_stop_shows_its_panel(browser, site):
    context, page, errors = open_page(browser, (site / PAGE).as_uri(), (390, 844))
    s = shown(page)
    panels = s["panels"]
    assert len(panels) == 3 and all(b["top"] >= a["bottom"] - 0.5 for a, b in zip(panels, panels[1:]))
    assert s["pageScroll"] <= 0, "nothing scrolls sideways"
    assert all(p["right"] <= 390 for p in panels)
    assert page.locator(f"{ROOT} .asb-scroll").evaluate("e => getComputedStyle(e, '::before').content") == "none"
    assert s["smallestText"] >= 11, s["smallestText"]
    page.locator(ROOT).screenshot(path=str(SCREENSHOTS / "explorer-scale-390.png"))
    page.locator(f"{ROOT} .asb-present-open").click()
    for k, stop in enumerate(lesson.stops("scale")):
        if k:
            page.keyboard.press("ArrowRight")
        s = shown(page)
        assert len(s["panels"]) == 1 and s["focus"] == stop.panel, (k, s["focus"])
        assert s["lowest"] <= 844.5 and s["pageScroll"] <= 0
        assert_shows(s, stop.settings["scale"])
    page.screenshot(path=str(SCREENSHOTS / "explorer-scale-present-390.png"))
    context.close()
    assert errors == []


def test_dark_mode_comes_from_the_pages_colours(browser, site):
    context, page, errors = open_page(browser, (site / PAGE).as_uri(), dark=True)
    page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; document.documentElement.dataset.mode = 'dark'; }")
    colours = page.locator(ROOT).evaluate("""root => ({
        text: getComputedStyle(root).color,
        tick: getComputedStyle(root.querySelector('.asb-tick')).fill,
        box: getComputedStyle(root.querySelector('.asb-stack')).backgroundColor,
        page: getComputedStyle(document.body).backgroundColor})""")
    assert colours["tick"] == colours["text"], colours  # text takes the page's colour
    assert colours["box"] == "rgba(0, 0, 0, 0)", colours  # no white card behind the panels
    assert sum(map(int, colours["page"][4:-1].split(",")[:3])) < 3 * 80, colours
    page.locator(ROOT).screenshot(path=str(SCREENSHOTS / "explorer-scale-1280-dark.png"))
    context.close()
    assert errors == []


def test_without_javascript_the_builds_picture_and_readout_show(browser, site):
    context, page, _ = open_page(browser, (site / PAGE).as_uri(), scripts=False)
    picture = page.locator(f"{ROOT} img.asb-picture")
    assert picture.is_visible()
    assert picture.evaluate("img => img.complete && img.naturalWidth") == 960
    assert picture.get_attribute("alt") == package(1.0).alt
    assert page.locator(f"{ROOT} .asb-lead").inner_text() == package(1.0).lead
    assert "needs JavaScript" in page.locator(f"{ROOT} .asb-note").inner_text()
    assert not page.locator(f"{ROOT} .asb-controls").is_visible()  # no control that does nothing
    context.close()


def test_without_the_lessons_stops_present_mode_steps_through_the_round_values(browser, server):
    """An explorer the lesson has no stops for (its stops emptied on the way to the browser)
    presents the round values its slider meets exactly, from the smallest."""
    import re

    def strip(route):
        body = re.sub(r'"stops":\[.*?\]\}</script>', '"stops":[]}</script>', route.fetch().text(), flags=re.S)
        route.fulfill(body=body, headers={"content-type": "text/html"})

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/derive-the-softmax-gradient.html*", strip)
    page.goto(f"{server}/{PAGE}?present", wait_until="load")
    for k, value in enumerate(SCALES[:3]):
        if k:
            page.keyboard.press("ArrowRight")
        s = shown(page)
        assert s["caption"] == f"Stop {k + 1} of {len(SCALES)}: scale s = {value:g}"
        assert_shows(s, value)
    context.close()
    assert errors == []
