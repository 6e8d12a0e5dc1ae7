"""The graded lab (otter-grader, issue 31): `make autograder` makes the student notebook with
``grader.check`` cells and the autograder zip from the lab as committed; `make grade` gives a
correct submission full marks, a wrong one partial marks question by question, and says what is
wrong with a file that is not a notebook, without running it. All in .venv-otter, with the real
otter-grader (requirements-otter.txt), as an instructor runs it."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys

import nbformat
import pytest

from book_files import ROOT
from lab_server import jupyterlab, lab_url, open_and_run_all

sys.path.insert(0, str(ROOT / "scripts"))
import make_autograder  # noqa: E402

LAB = make_autograder.LAB


def _run(*args, cwd=ROOT):
    return subprocess.run([str(ROOT / "scripts" / "make-autograder"), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=1500)


@pytest.fixture(scope="module")
def assigned(tmp_path_factory):
    out = tmp_path_factory.mktemp("autograder")
    proc = _run("assign", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def test_the_student_notebook_asks_and_checks_each_question_without_its_answers(assigned):
    student = nbformat.read(assigned / LAB / "dist" / "student" / f"{LAB}.ipynb", as_version=4)
    code = [c.source for c in student.cells if c.cell_type == "code"]
    assert code[0].startswith("# Initialize Otter\nimport otter")
    checks = [s for s in code if s.startswith("grader.check(")]
    assert checks == [f'grader.check("{q.name}")' for q in make_autograder.QUESTIONS]
    text = "\n".join(code)
    assert "def stable_softmax(z):\n    ..." in text and "np.exp(z - z.max())" not in text
    assert "thresholds = ..." in text and "times_smaller = ..." in text
    # every task of the lab is still there, in order, and the lab itself imports no otter
    lab = nbformat.read(ROOT / "notebooks" / f"{LAB}.ipynb", as_version=4)
    headings = [c.source.split("\n")[0] for c in lab.cells if c.cell_type == "markdown" and c.source.startswith("## ")]
    assert [c.source.split("\n")[0] for c in student.cells
            if c.cell_type == "markdown" and c.source.startswith("## ")] == headings
    assert not any("otter" in c.source for c in lab.cells)
    zips = list((assigned / LAB / "dist" / "autograder").glob(f"{LAB}-autograder_*.zip"))
    assert len(zips) == 1


def _submission(assigned, tmp_path, name, edit=None):
    nb = nbformat.read(assigned / LAB / "dist" / "student" / f"{LAB}.ipynb", as_version=4)
    for cell in nb.cells:
        if edit and cell.cell_type == "code":
            cell.source = edit(cell.source)
    path = tmp_path / name
    nbformat.write(nb, path)
    return path


def test_grading_a_correct_a_wrong_and_a_broken_submission(assigned, tmp_path):
    correct = tmp_path / "ada-correct.ipynb"
    correct.write_bytes((assigned / LAB / "dist" / "autograder" / f"{LAB}.ipynb").read_bytes())  # the solutions

    def wrong_answers(source):  # q1 right, q2 without the shift (overflows), q3 left undone
        source = source.replace("thresholds = ...", 'thresholds = {"float64": 709.78, "float32": 88.72, "float16": 11.09}')
        return source.replace("def stable_softmax(z):\n    ...", "def stable_softmax(z):\n    e = np.exp(z)\n    return e / e.sum()")

    wrong = _submission(assigned, tmp_path, "bo-partial.ipynb", wrong_answers)
    broken = tmp_path / "cy-broken.ipynb"
    broken.write_text('{"cells": [', encoding="utf-8")  # a download cut short
    text = tmp_path / "di-essay.txt"
    text.write_text("I did the lab on paper.", encoding="utf-8")
    proc = _run("grade", str(correct), str(wrong), str(broken), str(text), "--out", str(assigned))
    assert proc.returncode == 1, proc.stdout + proc.stderr  # some files were not gradable: said, not crashed
    assert "Traceback" not in proc.stdout + proc.stderr
    with (assigned / "grades.csv").open(encoding="utf-8") as fh:
        rows = {r["submission"]: r for r in csv.DictReader(fh)}
    total = sum(q.points for q in make_autograder.QUESTIONS)
    assert (rows["ada-correct.ipynb"]["score"], rows["ada-correct.ipynb"]["total"]) == (f"{total:g}", f"{total:g}")
    assert [rows["ada-correct.ipynb"][q.name] for q in make_autograder.QUESTIONS] == ["3/3", "3/3", "2/2"]
    assert [rows["bo-partial.ipynb"][q.name] for q in make_autograder.QUESTIONS] == ["3/3", "1/3", "0/2"]
    assert rows["bo-partial.ipynb"]["score"] == "4"
    assert rows["cy-broken.ipynb"]["problem"].startswith("not a notebook") and rows["cy-broken.ipynb"]["score"] == ""
    assert rows["di-essay.txt"]["problem"] == "not a notebook (.ipynb), but .txt"
    assert f"ada-correct.ipynb: {total} / {total}" in proc.stdout and "cy-broken.ipynb: not a notebook" in proc.stdout


# Each grader.check cell's output as JupyterLab shows it, in the notebook's order.
_CHECKS = """() => window.jupyterapp.shell.currentWidget.content.widgets
    .filter(c => c.model.type === 'code' && c.model.sharedModel.getSource().startsWith('grader.check('))
    .map(c => [c.model.sharedModel.getSource(),
               [...c.node.querySelectorAll('.jp-OutputArea-output')].map(o => o.innerText).join(' ')])"""


def _wrong_q3(source):  # the ratio upside down (a cell that errs would stop Run All before the check)
    return source.replace("times_smaller = grads[1] / grads[20]", "times_smaller = grads[20] / grads[1]")


def test_grader_check_cells_in_jupyterlab(assigned, tmp_path, browser):
    """As a student meets them: the graded notebook opened in a real JupyterLab (run from
    .venv-otter, where otter is installed, as on a course's hub), Run All: each grader.check cell
    says its question passed, and with q3 answered wrongly q3's cell says which test failed."""
    solved = assigned / LAB / "dist" / "autograder" / f"{LAB}.ipynb"  # the student notebook, answered
    for case, edit in (("right", None), ("q3-wrong", _wrong_q3)):
        nb = nbformat.read(solved, as_version=4)
        before = [c.source for c in nb.cells]
        for cell in nb.cells:
            if edit and cell.cell_type == "code":
                cell.source = edit(cell.source)
        assert (edit is None) == (before == [c.source for c in nb.cells]), f"{case}: the edit found its cell"
        (tmp_path / case).mkdir()
        nbformat.write(nb, tmp_path / case / f"{LAB}.ipynb")  # otter.Notebook reads its tests from this file
    shown = {}
    with jupyterlab(tmp_path, python=ROOT / ".venv-otter" / "bin" / "python") as server:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            # the first by its URL, the second in the same JupyterLab (the first closed)
            for case in ("right", "q3-wrong"):
                open_and_run_all(page, server, lab_url(f"{case}/{LAB}.ipynb"), in_app=case != "right")
                shown[case] = dict(page.evaluate(_CHECKS))
                for kernel in server.api("kernels"):
                    server.api(f"kernels/{kernel['id']}", method="DELETE")
        finally:
            context.close()
    names = [q.name for q in make_autograder.QUESTIONS]
    assert list(shown["right"]) == [f'grader.check("{n}")' for n in names]
    for n in names:
        assert re.fullmatch(rf"\s*{n} passed!\s*\S*\s*", shown["right"][f'grader.check("{n}")']), shown["right"]
    wrong = shown["q3-wrong"]
    for n in ("q1", "q2"):
        assert re.fullmatch(rf"\s*{n} passed!\s*\S*\s*", wrong[f'grader.check("{n}")']), wrong
    said = wrong['grader.check("q3")']
    assert "passed!" not in said and "Test case failed" in said and "times_smaller" in said, wrong


def test_a_question_must_name_a_cell_of_the_lab():
    q = make_autograder.Question("q9", "no cell starts like this", "p", "x = 1  # SOLUTION", ((1, "assert x"),))
    with pytest.raises(ValueError, match=r"questions \['q9'\] name no cell"):
        make_autograder.master(ROOT / "notebooks" / f"{LAB}.ipynb", (q,))


def test_why_not_a_notebook(tmp_path):
    good = tmp_path / "a.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")]), good)
    empty = tmp_path / "b.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), empty)
    invalid = tmp_path / "c.ipynb"
    invalid.write_text(json.dumps({"cells": "none", "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    assert make_autograder.why_not_a_notebook(good) is None
    assert make_autograder.why_not_a_notebook(empty) == "a notebook with no code cells"
    assert make_autograder.why_not_a_notebook(invalid).startswith("not a")
    assert make_autograder.why_not_a_notebook(tmp_path / "gone.ipynb") == "no such file"
