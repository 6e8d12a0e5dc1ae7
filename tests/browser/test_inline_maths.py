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
