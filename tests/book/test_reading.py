"""What a student meets: labs that leave the work to them, controls that exist, chapters that open with reading."""

import re

import nbformat

from book_files import ROOT

LABS = ROOT / "notebooks"


def _cells(name):
    return nbformat.read(LABS / name, as_version=4).cells


def test_derive_lab_leaves_the_cross_term_to_the_student():
    cells = _cells("lab-derive-it-with-sympy.ipynb")
    turn = next(c for c in cells if c.cell_type == "code" and 'Derivation("cross term")' in c.source)
    assert "cross.then(" not in turn.source.replace('cross.then(<next expression>', ""), "the answer is in the cell"
    i = cells.index(turn)
    folded, answer = cells[i + 1], cells[i + 2]
    assert folded.cell_type == "markdown" and folded.source.startswith("<details>")
    # the answer is checked by SymPy when the lab runs, and shown folded in JupyterLab and in the book
    assert answer.cell_type == "code" and "answer.then(" in answer.source
    assert answer.metadata["jupyter"]["source_hidden"] is True and "hide-input" in answer.metadata["tags"]


def test_predict_lab_names_only_controls_of_the_static_player_without_saying_live():
    """A slider the static player lacks (seed, number of keys) is named only as a live-notebook one."""
    for cell in _cells("lab-predict-then-move-the-slider.ipynb"):
        if cell.cell_type != "markdown":
            continue
        for sentence in re.split(r"(?<=[.?!])\s+", cell.source):
            if re.search(r"seed slider|number of keys slider|slider for the number of keys", sentence):
                assert "live notebook" in sentence, sentence


def test_chapters_open_with_reading_not_setup():
    """The imports and glue bookkeeping that open a chapter are removed from the static page."""
    from book_files import read_notebook, toc_files

    for page in toc_files():
        if page.suffix != ".md" or page.parent.name != "book":
            continue
        for cell in read_notebook(page).cells:
            if cell.cell_type != "code":
                continue
            code = [ln for ln in cell.source.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
            setup = all(ln.startswith(("import ", "from ", " ", ")")) or "glue(" in ln for ln in code)
            tags = cell.metadata.get("tags", [])
            if code and setup:
                assert {"remove-cell", "remove-input"} & set(tags), f"{page.name}: setup cell shown: {code[:2]}"
