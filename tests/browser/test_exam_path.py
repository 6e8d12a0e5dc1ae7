"""The exam path: a reader who opens no "Going deeper" fold reads a chapter in ≤ 6 screens.

Each chapter is opened over http at a laptop's 1280×900 with every ``details.asb-deeper``
closed, and its article (``article.bd-article``) must be at most 6 × 900 px tall. It must
open with exactly one Key results box (``.asb-key``), in its first section (the Overview,
before the second section starts), and opening every fold must make the page taller: the
folds hold content.
"""

from __future__ import annotations

import pytest

from book_files import ROOT
from test_browser import visiting

pytestmark = pytest.mark.browser

VIEWPORT = (1280, 900)
SCREENS = 6
CHAPTERS = [
    "derive-the-softmax-gradient",
    "bound-the-softmax-jacobian",
    "scale-the-scores",
    "follow-the-gradient",
    "keep-the-softmax-finite",
    "normalize-beyond-sqrt-dk",
    "keep-long-contexts-sharp",
]

MEASURE = """() => {
  const article = document.querySelector('article.bd-article');
  const folds = [...article.querySelectorAll('details.asb-deeper')];
  folds.forEach(d => { d.open = false; });
  const closed = article.getBoundingClientRect().height;
  const keys = [...article.querySelectorAll('.admonition.asb-key')];
  const sections = [...article.querySelectorAll('section > section')].filter(
      s => s.querySelector(':scope > h2'));
  const second = sections[1];
  const keyFirst = keys.length === 1 && !!second &&
      (keys[0].compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  const keyTitle = keys.length ? keys[0].querySelector('.admonition-title').innerText.trim() : '';
  folds.forEach(d => { d.open = true; });
  const open = article.getBoundingClientRect().height;
  folds.forEach(d => { d.open = false; });
  return {closed, open, folds: folds.length, keys: keys.length, keyFirst, keyTitle};
}"""


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_reads_in_six_screens_with_every_fold_closed(browser, server, chapter):
    with visiting(browser, f"{server}/book/{chapter}.html", server, VIEWPORT) as (page, _visit):
        m = page.evaluate(MEASURE)
    screens = m["closed"] / VIEWPORT[1]
    assert m["keys"] == 1, f"{chapter}: {m['keys']} Key results boxes, not one"
    assert m["keyTitle"] == "Key results", f"{chapter}: the box is titled {m['keyTitle']!r}"
    assert m["keyFirst"], f"{chapter}: the Key results box is not in the chapter's first section"
    assert m["folds"] > 0, f"{chapter}: no Going deeper fold"
    assert m["open"] > m["closed"], f"{chapter}: opening the folds adds nothing ({m})"
    assert m["closed"] <= SCREENS * VIEWPORT[1], (
        f"{chapter}: {screens:.2f} screens of {VIEWPORT[1]} px with every fold closed, more than {SCREENS}")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_fold_that_names_a_figure_holds_it(site, chapter):
    """A fold's title that says "Figure 7.1" holds the figure the build numbered 7.1 (a title
    is plain text: nothing renumbers it when a figure moves)."""
    import re

    from bs4 import BeautifulSoup

    soup = BeautifulSoup((site / "book" / f"{chapter}.html").read_text(encoding="utf-8"), "html.parser")
    named = 0
    for fold in soup.select("details.asb-deeper"):
        title = fold.summary.get_text(" ", strip=True)
        for number in re.findall(r"Figure (\d+\.\d+)", title):
            captions = [c.get_text(" ", strip=True) for c in fold.select(".caption-number")]
            assert f"Fig. {number}" in captions, f"{chapter}: fold {title!r} holds {captions}"
            named += 1
    assert named == len(re.findall(r"deeper-start[^\n]*Figure \d", (ROOT / "book" / f"{chapter}.md").read_text()))
