"""The revision page: its "every fix" table answers every column, and reads on a phone.

Every cell of the table is filled ("—" where nothing applies would still be text). At 390 px
each row is a card: no cell reaches past the screen, and each cell says which column it is
("Does not fix: ..."), where at 1280 px it stays a table.
"""

from __future__ import annotations

import pytest

from test_browser import visiting

pytestmark = pytest.mark.browser

PAGE = "book/revise.html"
COLUMNS = ("Problem", "Fix", "Guarantees", "Does not fix", "Where")
READ = """() => {
    const table = document.querySelector('table.asb-fixes');
    if (!table) return null;
    const rows = [...table.querySelectorAll('tbody tr')];
    return {
        head: [...table.querySelectorAll('thead th')].map(th => th.textContent.trim()),
        display: getComputedStyle(rows[0]).display,
        width: window.innerWidth,
        cells: rows.map(tr => [...tr.children].map(td => ({
            text: td.textContent.trim(),
            label: getComputedStyle(td, '::before').content,
            right: td.getBoundingClientRect().right,
        }))),
    };
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_every_fix_is_answered_and_fits(browser, server, width):
    with visiting(browser, f"{server}/{PAGE}", server, viewport=(width, 900)) as (page, visit):
        table = page.evaluate(READ)
    assert table is not None, "the revision page has no table.asb-fixes"
    assert tuple(table["head"]) == COLUMNS
    assert len(table["cells"]) >= 10
    for row in table["cells"]:
        assert len(row) == len(COLUMNS) and all(cell["text"] for cell in row), row
        assert all(cell["right"] <= table["width"] + 0.5 for cell in row), (width, row)
        labels = [cell["label"] for cell in row]
        if width < 700:  # a card: every cell named by its column
            assert labels == [f'"{c}: "' for c in COLUMNS], labels
        else:
            assert set(labels) <= {"none", "normal"}, labels
    assert (table["display"] == "block") == (width < 700)
    assert visit.console_errors == []
