"""The labs let a student predict before they see (issue 28, part 3).

- A Run All of each lab, its predictions left unset (``None``; the strict build's own
  execution, read from _build/jupyter_execute), prints under every prediction a verdict line and none of the values or phrases the student is asked to
  predict (a list per lab, below). Cells whose output a student must open on purpose
  (``metadata.jupyter.outputs_hidden``, a folded answer) are not read.
- A Run All with the right predictions filled in says "✓ matches" for each of them: the
  expectations held in ``attention_scaling.labs`` agree with what the labs measure.
- Each lab says near its top not to Run All before predicting.
- ``attention_scaling.labs.check`` itself: ✓, ✗, unset, unreadable, and it never prints
  the expected value.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from nbclient import NotebookClient

from attention_scaling import labs
from book_files import ROOT

LABS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PREDICTION = re.compile(r"^(prediction_\d+) = None$", re.M)

# What must not be printed before the student has predicted: the expected values and the
# sentences that give them away, as the check cells printed them before this test.
NOT_PRINTED = {
    "lab-break-the-softmax": ["(exact", "31.2%", "about a third", "orders of magnitude"],
    "lab-derive-it-with-sympy": ["should be", "- P_1 P_2", "recognise $P_1$"],  # Task 4 answer
    "lab-find-the-needle": ["8-fold", "about 8", "close to 8", "exactly when it beats"],
    "lab-predict-then-move-the-slider": ["theory", "sqrt(64)", "sqrt(d_k)", "typical spread",
                                         "Exercise 3.3"],
    "lab-turn-on-qk-norm": ["1/16", "same at every magnitude", "rises", "stays", "explodes",
                            "bounded", "keeps learning"],
}

# The right predictions, as a student would type them.
RIGHT = {
    "lab-break-the-softmax": {1: '"nan"', 2: "(709.8, 88.7, 11.1)", 3: "0.3", 4: "4e-9", 5: '"nan"'},
    "lab-derive-it-with-sympy": {1: "P1 * (1 - P1)", 2: '"refused"'},
    "lab-find-the-needle": {1: "8", 2: '("stays", "falls")', 3: '("less", "same")', 4: "(0.3, 1)"},
    "lab-predict-then-move-the-slider": {1: "8", 2: '"lower"', 3: '"the average"', 4: "4"},
    "lab-turn-on-qk-norm": {1: '("rises", "stays")', 2: '"rises"', 3: '("explodes", "bounded")'},
}


def run_all(path, predictions=None, plant=None) -> nbformat.NotebookNode:
    """Run All in a fresh kernel, from the lab's folder, with ``predictions`` (n -> code)
    typed into the prediction cells; ``plant``: a line added to the end of the first check
    cell (to test this test)."""
    nb = nbformat.read(path, as_version=4)
    if plant:
        first_check = next(c for c in nb.cells if c.cell_type == "code" and "check(prediction_" in c.source)
        first_check.source += "\n" + plant
    for cell in nb.cells:
        if cell.cell_type == "code" and predictions:
            cell.source = PREDICTION.sub(lambda m: f"{m[1]} = {predictions[int(m[1].split('_')[1])]}",
                                         cell.source)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def printed(nb) -> str:
    """Every text a Run All shows the student, but the outputs folded on purpose."""
    texts = []
    for cell in nb.cells:
        if cell.cell_type != "code" or cell.metadata.get("jupyter", {}).get("outputs_hidden"):
            continue
        for out in cell.outputs:
            if out.output_type == "stream":
                texts.append(out.text)
            elif out.output_type in ("execute_result", "display_data"):
                texts.extend(v for k, v in out.data.items() if k.startswith("text/") and isinstance(v, str))
            elif out.output_type == "error":
                texts.append(f"{out.ename}: {out.evalue}")
    return "\n".join(texts)


def leaked(path, text) -> list[str]:
    """What of the lab's expected values and give-away phrases ``text`` prints, once the
    lines that echo the student's own prediction are left out."""
    text = "\n".join(line for line in text.splitlines() if not line.startswith("Your prediction, "))
    return [s for s in NOT_PRINTED[path.stem] if s in text]


def predictions(path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    return [m for c in nb.cells if c.cell_type == "code" for m in PREDICTION.findall(c.source)]


def test_every_lab_has_its_lists():
    assert sorted(NOT_PRINTED) == sorted(RIGHT) == [p.stem for p in LABS]


def built_run_all(path) -> nbformat.NotebookNode:
    """The lab as the strict build ran it: a Run All in a fresh kernel, from the lab's folder,
    its predictions unset, as a student's first Run All (myst-nb's executed copy,
    _build/jupyter_execute/notebooks/<lab>.ipynb). Read, not run again: the build has run it.
    The learner's build, which follows the instructor's, writes that file again from the same
    execution: the tests that read it wait for that build too (learner_site)."""
    return nbformat.read(ROOT / "_build" / "jupyter_execute" / "notebooks" / path.name, as_version=4)


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.stem)
def test_run_all_prints_no_expected_value(path, learner_site):
    text = printed(built_run_all(path))
    assert leaked(path, text) == [], f"{path.name}: Run All prints {leaked(path, text)} before anything is predicted"
    names = predictions(path)
    assert names == [f"prediction_{i}" for i in range(1, len(names) + 1)] and names, \
        "each prediction is a variable prediction_1, prediction_2, ... set to None"
    # one verdict per prediction, and no ✓/✗ (nothing to compare yet)
    assert text.count(labs.NOT_YET) == len(names), f"{path.name}: a prediction has no check"
    assert labs.MATCH not in text and labs.LOOK_AGAIN not in text


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.stem)
def test_right_predictions_match(path):
    text = printed(run_all(path, RIGHT[path.stem]))
    verdicts = re.findall(r"^Your prediction, .*$", text, re.M)
    assert len(verdicts) == len(predictions(path))
    assert all(v.endswith(labs.MATCH) for v in verdicts), verdicts
    # a right prediction is echoed, and nothing else gives the answer
    assert leaked(path, text) == [], f"{path.name}: Run All with predictions prints {leaked(path, text)}"


def test_the_leak_check_catches_a_check_cell_that_prints_the_theory():
    """A check cell that printed the expected value, as the labs once did, fails the test."""
    path = ROOT / "notebooks" / "lab-predict-then-move-the-slider.ipynb"
    text = printed(run_all(path, plant='print("theory: sqrt(64) = 8")'))
    assert "theory: sqrt(64) = 8" in text and "theory" in leaked(path, text)


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.stem)
def test_lab_says_not_to_run_all_first(path):
    nb = nbformat.read(path, as_version=4)
    top = "\n".join(c.source for c in nb.cells[:3] if c.cell_type == "markdown")
    assert "do not Run All" in top and "prediction_1" in top


# --- the helper ---------------------------------------------------------------------------------


def test_check_says_match_or_look_again_never_the_value(capsys):
    assert labs.check(8, labs.Number(8.0, rel=0.1)) is True
    assert labs.check(64, labs.Number(8.0, rel=0.1)) is False
    out = capsys.readouterr().out.splitlines()
    assert out == ["Your prediction, 8: ✓ matches", "Your prediction, 64: ✗ look again"]
    assert labs.check(None, "find-the-needle/1") is None
    assert capsys.readouterr().out.strip() == labs.NOT_YET
    assert labs.check("8", labs.Number(8.0, rel=0.1)) is None      # a string is not a number
    assert "cannot read it: write a number" in capsys.readouterr().out
    assert labs.check(("less", "more"), "find-the-needle/3") is False
    assert capsys.readouterr().out.strip().endswith("✗ look again (part 1 ✓, part 2 ✗)")
    assert labs.check(" NaN ", "break-the-softmax/1") is True
    assert labs.check(9.0, labs.Number(1e-8, factor=10)) is False
    assert labs.check(3e-8, labs.Number(1e-8, factor=10)) is True


@pytest.mark.parametrize("task", labs.tasks())
def test_a_wrong_prediction_is_not_told_the_answer(task, capsys):
    judge = labs.expected(task)
    parts = judge.parts if isinstance(judge, labs.Parts) else (judge,)
    wrong = tuple({labs.Number: 1e6, labs.Choice: "nonsense", labs.Expression: "z_9"}[type(p)] for p in parts)
    labs.check(wrong if isinstance(judge, labs.Parts) else wrong[0], task)
    out = capsys.readouterr().out.split(":", 1)[1]  # after the echoed prediction
    for part in parts:  # a choice's options are named, so only numbers can leak
        if isinstance(part, labs.Number):
            value = float(part.value() if callable(part.value) else part.value)
            assert all(f"{value:{f}}" not in out for f in (".2g", ".3g", "g")), out


def test_check_refuses_what_it_cannot_judge():
    with pytest.raises(ValueError, match="^task"):
        labs.check(1, "no-such-lab/1")
    with pytest.raises(ValueError, match="^against"):
        labs.check(1, 8.0)
    with pytest.raises(ValueError, match="^rel, abs, factor"):
        labs.Number(1.0)
    with pytest.raises(ValueError, match="^value"):
        labs.Choice("x", ("a", "b"))


# --- a lab never repeats an exercise word for word ------------------------------------------------

RUN = 12  # words in a row that a lab's markdown may not share with a chapter's exercise
_EXERCISE = re.compile(r"^```\{exercise\}[^\n]*\n(.*?)^```", re.M | re.S)
# "Three things to try: ..." in view, then the list in its fold, up to the fold's end
_THINGS_TO_TRY = re.compile(r"^(?:\w+ )?[Tt]hings to try:(.*?)(?=^#|^```\{deeper-end\}|\Z)", re.M | re.S)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


def exercise_texts() -> dict[str, str]:
    """Each chapter's exercises (their statements, options dropped) and "Things to try" lists."""
    out = {}
    for chapter in sorted((ROOT / "book").glob("*.md")):
        text = chapter.read_text(encoding="utf-8")
        for i, m in enumerate(_EXERCISE.finditer(text), 1):
            out[f"{chapter.stem} exercise {i}"] = re.sub(r"^:\w[^\n]*$", "", m[1], flags=re.M)
        for m in _THINGS_TO_TRY.finditer(text):
            out[f"{chapter.stem} things to try"] = m[1]
    return out


def test_the_repeat_check_finds_exercises_and_a_copied_sentence():
    texts = exercise_texts()
    assert sum("exercise" in k for k in texts) >= 20 and any("things to try" in k for k in texts), sorted(texts)
    copied = " ".join(_words(texts["derive-the-softmax-gradient exercise 2"])[:RUN])
    assert _runs(_words(f"Now: {copied}, then run it.")) & _runs(_words(texts["derive-the-softmax-gradient exercise 2"]))


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.stem)
def test_lab_repeats_no_exercise_word_for_word(path):
    cells = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"]
    shared = {}
    for name, text in exercise_texts().items():
        theirs = _runs(_words(text))
        for i, source in enumerate(cells):
            common = _runs(_words(source)) & theirs
            if common:
                shared[f"markdown cell {i} / {name}"] = " ".join(min(common))
    assert not shared, f"{path.name} repeats {RUN} or more words in a row: {shared}"


def test_task_1_reads_the_log_axis():
    """The spread's hump is drawn on a log axis: scaling every score slides it and keeps
    its width (it does not get wider), and Task 1 and its answer say so."""
    nb = nbformat.read(ROOT / "notebooks" / "lab-predict-then-move-the-slider.ipynb", as_version=4)
    task = []
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.startswith("## ") and task:
            break
        if task or cell.source.startswith("## Task 1"):
            task.append(cell.source)
    text = " ".join(" ".join(task).split())
    assert "logarithmic" in text and "slides" in text and "keeps its width" in text, text[:400]
    said = re.sub(r"does not get wider", "", text)
    assert not re.search(r"\bwider\b|\bwidens?\b|\bbroader\b", said), "Task 1 says the hump gets wider"
