"""The learner's edition in a browser (attention_book.edition): the chapter whose solution the
plan asks in class loads cleanly from disk on a laptop and a phone, says where the solution is,
and its navigation (the sidebar, on the phone the drawer) has no instructor entry.

The instructor's edition is what the other browser tests open (every page, tests/conftest.py);
the two differ only by what test_editions.py lists.
"""

from __future__ import annotations

import pytest

from attention_book.edition import WITHHELD_NOTE
from test_browser import _check, axe_violations, page_state, visiting

pytestmark = pytest.mark.browser

PAGE = "book/scale-the-scores.html"


@pytest.mark.parametrize("width", [1280, 390])
def test_the_withheld_solution_and_the_navigation(browser, learner_site, width):
    with visiting(browser, (learner_site / PAGE).as_uri(), None, (width, 900)) as (page, visit):
        _check(visit, page_state(page), PAGE)
        note = page.locator(".asb-withheld")
        fold = page.locator("details.asb-deeper", has=note)
        assert not note.is_visible()  # in the chapter's folded exercises, as the other solutions
        fold.locator("summary").first.click()
        note.scroll_into_view_if_needed()
        assert note.is_visible()
        assert WITHHELD_NOTE in note.inner_text()
        assert note.locator("button, details, summary").count() == 0  # nothing to unfold
        sidebar = page.locator("#pst-primary-sidebar")
        if width == 390:  # the chapter list is in the theme's drawer (a dialog): open it as a reader does
            page.locator("button.primary-toggle").first.click()
            page.wait_for_function("() => document.getElementById('pst-primary-sidebar-modal')?.open", timeout=5000)
            sidebar = page.locator("#pst-primary-sidebar-modal")
        assert sidebar.is_visible()
        entries = sidebar.locator("nav a.reference.internal")
        titles = [t.strip() for t in entries.all_inner_texts()]
        assert len(titles) >= 14 and any("Scale the scores" in t for t in titles)
        assert not any("Teach" in t or "instructor" in t.lower() for t in titles)
        assert "For instructors" not in sidebar.inner_text()
        assert [v for v in axe_violations(page, "'.asb-withheld'")] == []
