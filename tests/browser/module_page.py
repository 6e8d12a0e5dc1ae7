"""What the tests of the explorers that compute in the page share (test_explorer_in_the_page,
test_context_in_the_page, test_attention_in_the_page, test_normalization_in_the_page): opening a
page (with a mouse or a finger) and reading what a module explorer shows."""

from __future__ import annotations

from checks import wait_for_maths

#: The explorer's root on a built page.
ROOT = ".asb-player.asb-module"

# What a module explorer shows, read in the page: the readout's parts, the figure's description,
# the controls (the slider positions, their outputs and spoken values, the chosen option), the
# panels' boxes, the smallest SVG text in CSS px (its font size times the drawing's scale), the
# Present mode's caption and state, the lowest visible edge and any sideways scroll of the page.
# `extra` adds `name: expression,` lines (with `root`, `rect`, `shownBars(selector)` and
# `subpaths(selector)`, the rectangles a path draws, in scope).
_SHOWN = """root => {
    const box = root.querySelector('.asb-readout');
    const texts = [...root.querySelectorAll('.asb-svg text')].filter(t => t.getClientRects().length);
    const px = t => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a;
    const rect = e => e.getBoundingClientRect().toJSON();
    const ranges = [...root.querySelectorAll('input[type=range]')];
    const shownBars = sel => [...root.querySelectorAll(sel)].filter(r => r.style.display !== 'none')
        .flatMap(r => r.dataset.value.split(' ').map(Number));  // (a path of bars holds them all)
    const subpaths = sel => (root.querySelector(sel).getAttribute('d').match(/M/g) || []).length;
    return {
        ready: root.classList.contains('asb-ready'),
        lead: box.querySelector('.asb-lead').textContent,
        cells: [...box.querySelectorAll('td')].map(td => td.textContent),
        foot: box.querySelector('.asb-foot').textContent,
        said: box.querySelector('.asb-said').textContent,
        alt: root.querySelector('.asb-stack').getAttribute('aria-label'),
        positions: ranges.map(r => Number(r.value)), outputs: [...root.querySelectorAll('output')].map(o => o.textContent),
        valuetexts: ranges.map(r => r.getAttribute('aria-valuetext')),
        choice: [...root.querySelectorAll('input[type=radio]')].findIndex(r => r.checked),
        images: root.querySelectorAll('.asb-stack img').length,
        panels: [...root.querySelectorAll('.asb-panel')].filter(p => p.getClientRects().length).map(rect),
        focus: [...root.querySelectorAll('.asb-panel')].findIndex(p => p.classList.contains('asb-focus')),
        smallestText: Math.min(...texts.map(px)),
        caption: root.querySelector('.asb-stop').textContent,
        presenting: root.classList.contains('asb-presenting'),
        box: rect(root), viewport: [innerWidth, innerHeight],
        lowest: Math.max(...[...root.children].filter(e => e.getClientRects().length).map(e => rect(e).bottom)),
        pageScroll: document.scrollingElement.scrollWidth - innerWidth,
        %s
    };
}"""


def shown_reader(extra: str = "") -> str:
    """The function ``root => {...}`` that reads what the explorer at ``root`` shows (``_SHOWN``)."""
    return _SHOWN % extra


def open_page(browser, url, viewport=(1280, 900), dark=False, scripts=True, touch=False):
    """A new context and page at ``url`` (a phone's touch screen with ``touch``), its maths typeset;
    returns ``(context, page, errors)``, ``errors`` collecting the page's uncaught errors."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                  color_scheme="dark" if dark else "light", java_script_enabled=scripts,
                                  has_touch=touch, is_mobile=touch)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    if scripts:
        wait_for_maths(page)
    return context, page, errors


# --- checks every module explorer's page passes -------------------------------------------------


def check_present_stops(browser, url, shown_js, stops, assert_at, screenshot, sizes=((1280, 720), (1920, 1080)),
                        after=None):
    """Present mode steps through ``stops`` (lesson.Stop): at each the caption names it,
    ``assert_at(shown, stop.settings)`` holds, nothing falls below the screen and the smallest
    figure text is at least 2.5 % of its height; Escape (twice) gives back what ``after(shown)`` asserts."""
    for width, height in sizes:
        context, page, errors = open_page(browser, url, viewport=(width, height))
        try:
            root = page.locator(ROOT).first
            root.locator(".asb-present-open").click()
            for k, stop in enumerate(stops):
                if k:
                    page.keyboard.press("ArrowRight")
                shown = root.evaluate(shown_js)
                assert shown["presenting"] and shown["caption"] == f"Stop {k + 1} of {len(stops)}: {stop.caption}"
                assert_at(shown, stop.settings)
                assert shown["lowest"] <= height + 0.5, (width, k, shown["lowest"])
                assert shown["smallestText"] >= 0.025 * height, (width, k, shown["smallestText"])
            page.screenshot(path=str(screenshot(width)))
            if after is not None:
                page.keyboard.press("Escape")  # Escape leaves on its second press
                page.keyboard.press("Escape")
                after(root.evaluate(shown_js))  # the reader's own settings back
            assert errors == []
        finally:
            context.close()


def check_phone(browser, url, shown_js, screenshot, stops=(), panels=3):
    """At 390 px, dark: the ``panels`` panels stack in one column, inside the screen, with no sideways
    scroll; in Present mode each of ``stops`` shows only the panel it talks about."""
    context, page, errors = open_page(browser, url, viewport=(390, 844), dark=True)
    try:
        root = page.locator(ROOT).first
        shown = root.evaluate(shown_js)
        assert shown["pageScroll"] <= 0
        lefts = {round(p["x"]) for p in shown["panels"]}
        tops = [p["y"] for p in shown["panels"]]
        assert len(shown["panels"]) == panels and len(lefts) == 1 and tops == sorted(tops)
        assert all(p["x"] + p["width"] <= 390 for p in shown["panels"])
        root.screenshot(path=str(screenshot))
        if stops:
            root.locator(".asb-present-open").click()
        for k, stop in enumerate(stops):
            if k:
                page.keyboard.press("ArrowRight")
            shown = root.evaluate(shown_js)
            assert shown["focus"] == stop.panel and len(shown["panels"]) == 1, (k, shown["focus"])
            assert shown["pageScroll"] <= 0
        assert errors == []
    finally:
        context.close()


def check_from_disk(browser, uri, shown_js, assert_default):
    """Opened from disk (file://) the module computes as served: ``assert_default(shown)``."""
    context, page, errors = open_page(browser, uri)
    try:
        shown = page.locator(ROOT).first.evaluate(shown_js)
        assert shown["ready"] and errors == []
        assert_default(shown)
    finally:
        context.close()


def check_without_scripts(browser, url, lead):
    """Without JavaScript the build's picture shows, the readout's lead is ``lead`` and the note
    says the explorer needs scripts."""
    context, page, _ = open_page(browser, url, scripts=False)
    try:
        root = page.locator(ROOT).first
        assert root.locator("noscript img.asb-picture").count() == 1
        assert root.locator(".asb-lead").text_content() == lead
        assert "needs JavaScript" in root.locator(".asb-note").text_content()
    finally:
        context.close()
