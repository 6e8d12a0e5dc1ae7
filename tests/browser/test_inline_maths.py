"""Formulas scroll sideways only when they are wider than their box.

``span.math`` and ``div.math`` scroll (``_static/book.css``) so that a long formula never
widens a phone's page. MathJax's hidden copy for screen readers is as wide as its MathML
text, and it made most inline formulas scrollable by a few pixels: where scrollbars are not
overlays (Windows, most Linux desktops) each one showed a scrollbar. Here no formula's box
scrolls further than its visible formula is wide.
"""

from __future__ import annotations

import pytest

from test_browser import visiting

pytestmark = pytest.mark.browser

PAGES = ["book/derive-the-softmax-gradient.html", "book/scale-the-scores.html",
         "book/keep-the-softmax-finite.html", "book/revise.html"]
READ = """() => [...document.querySelectorAll('span.math, div.math')].map(e => {
    const shown = e.querySelector('mjx-math');
    return {text: e.textContent.slice(0, 40), scroll: e.scrollWidth, box: e.clientWidth,
            formula: shown ? shown.getBoundingClientRect().width : 0};
})"""


@pytest.mark.parametrize("path", PAGES)
def test_formulas_scroll_only_when_too_wide(browser, server, path):
    with visiting(browser, f"{server}/{path}", server, viewport=(1280, 900)) as (page, _visit):
        boxes = page.evaluate(READ)
    assert len(boxes) >= 10, f"{path}: only {len(boxes)} formulas found"
    needless = [b for b in boxes if b["scroll"] > b["box"] + 1 and b["formula"] <= b["box"] + 1]
    assert needless == [], f"{path}: {len(needless)} of {len(boxes)} formulas scroll with room to spare: {needless[:3]}"


TAB_STOPS = """() => [...document.querySelectorAll('article mjx-container')]
    .filter(m => !m.closest('.asb-player') && m.checkVisibility())  // shown: not in a closed fold
    .map(m => { const box = m.closest('span.math') || m;
                return {tab: m.getAttribute('tabindex'),
                        scrolls: box.scrollWidth > box.clientWidth + 1 || m.scrollWidth > m.clientWidth + 1}; })"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_formula_is_a_tab_stop_only_while_it_scrolls(browser, server, width):
    """Every formula used to be a Tab stop (the eighth cold reading: a keyboard user tabbed
    through a hundred of them). Now only one that scrolls is, so that it can still be scrolled
    by keyboard; on a phone a wide display formula scrolls, and is one."""
    path = "book/bound-the-softmax-jacobian.html"
    with visiting(browser, f"{server}/{path}", server, viewport=(width, 900)) as (page, _visit):
        # the script runs once the page has loaded, and again once the fonts have (they change widths)
        try:
            page.wait_for_function(f"({TAB_STOPS})().every(f => (f.tab === '0') === f.scrolls)", timeout=10_000)
        except Exception:  # the assertion below names what is wrong
            pass
        shown = page.evaluate(TAB_STOPS)
    assert len(shown) >= 30, f"{path}: only {len(shown)} formulas shown"
    wrong = [f for f in shown if (f["tab"] == "0") != f["scrolls"]]
    assert wrong == [], f"{path} at {width} px: {len(wrong)} formulas' Tab stop does not follow their scrolling"
    stops = sum(f["tab"] == "0" for f in shown)
    if width == 390:  # a fold opened shows its formulas laid out for the first time
        with visiting(browser, f"{server}/{path}", server, viewport=(width, 900)) as (page, _visit):
            page.evaluate("document.querySelectorAll('details.asb-deeper').forEach(d => d.open = true)")
            # the script updates 150 ms after the folds open and again when their fonts arrive
            try:
                page.wait_for_function(f"({TAB_STOPS})().every(f => (f.tab === '0') === f.scrolls)",
                                       timeout=10_000)
            except Exception:  # the assertion below names what is wrong
                pass
            opened = page.evaluate(TAB_STOPS)
        assert len(opened) > len(shown)
        late = [f for f in opened if (f["tab"] == "0") != f["scrolls"]]
        assert late == [], f"{len(late)} formulas of opened folds: Tab stop does not follow scrolling"
    if width == 1280:
        assert stops < len(shown) / 10, f"{stops} of {len(shown)} formulas are Tab stops at 1280 px"
    else:
        assert stops >= 1, "no formula scrolls at 390 px, so this page tests nothing there"
