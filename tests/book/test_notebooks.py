"""Labs are saved without outputs and listed in the book; visible code fits the page."""

from __future__ import annotations

import nbformat
import pytest

from book_files import ROOT, executable, read_notebook, toc_files

SOURCES = [p for p in toc_files() if executable(p)]
LABS = sorted((ROOT / "notebooks").glob("*.ipynb"))


# Every chapter and lab runs top to bottom in a real JupyterLab (tests/system/test_jupyterlab.py): the
# chapters as the generated notebooks their launch buttons open, which hold the numbers of one
# execution as text; tests/book/test_chapter_notebooks.py compares them with this build's, a second,
# independent execution (determinism). The strict build executes every source once more and
# fails on an error or on anything written to stderr.


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.name)
def test_lab_saved_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.outputs or c.execution_count)]
    assert dirty == [], f"{path.name}: cells {dirty} carry outputs or execution counts"


def test_every_lab_is_in_the_book():
    listed = set(toc_files())
    assert [p.name for p in LABS if p not in listed] == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_visible_code_fits_the_page(path):
    """Lines longer than this are cut off in the book's code cells (seen in screenshots)."""
    too_long = [
        line
        for cell in read_notebook(path).cells
        if cell.cell_type == "code" and not {"remove-cell", "remove-input"} & set(cell.metadata.get("tags", []))
        for line in cell.source.splitlines()
        if len(line) > 78
    ]
    assert too_long == []
