"""Make a lab gradable with otter-grader: its Otter Assign master, the student notebook with
``grader.check`` cells, and the autograder zip; then grade submissions with it.

    python scripts/make_autograder.py assign [--out _build/autograder]
    python scripts/make_autograder.py grade SUBMISSION.ipynb ... [--out _build/autograder]

Run by `make autograder` and `make grade` (scripts/make-autograder), in .venv-otter: otter-grader
is a tool for instructors and never in what students install (requirements-otter.txt).

The master is not kept as a second copy of the lab: it is made from the lab as committed
(notebooks/), with the graded questions below put where the lab asks them. Each question is the
lab's own task, asked so that a value can be checked: a solution (which Otter Assign replaces with
``...`` in the student's notebook) and tests, each worth points. Otter Assign then writes:

- ``OUT/<lab>/student/<lab>.ipynb``: what students get, each question followed by
  ``grader.check("q1")``;
- ``OUT/<lab>/autograder/<lab>-autograder_*.zip``: what grades a submission (``otter run``, or
  Gradescope), with the solutions and every test.

``grade`` checks that each submission is a notebook first, and says what is wrong with one that is
not (it is never run); then it runs the autograder on each and prints a table of scores, writing
``OUT/grades.csv``.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "_build" / "autograder"


@dataclass(frozen=True)
class Question:
    """A graded question: its name, where it goes (after the lab's cell that starts with
    ``after``), the prompt, the solution (with ``# BEGIN SOLUTION`` / ``# END SOLUTION`` or
    ``# SOLUTION`` lines, as Otter Assign reads them) and its tests, ``(points, code)`` each."""

    name: str
    after: str
    prompt: str
    solution: str
    tests: tuple[tuple[int, str], ...]
    replaces: str = ""  # a lab cell that starts with this is split: the solution replaces its head

    @property
    def points(self) -> int:
        return sum(p for p, _ in self.tests)


LAB = "lab-break-the-softmax"

QUESTIONS = (
    Question(
        "q1", "for dtype in (np.float64, np.float32, np.float16):",
        "**Graded question q1.** Put the three thresholds in a dict `thresholds`, keyed by the "
        "format's name (`\"float64\"`, `\"float32\"`, `\"float16\"`): for each, the score $z$ above "
        "which $e^z$ overflows.",
        "formats = (np.float64, np.float32, np.float16)\n"
        "thresholds = {np.dtype(t).name: float(np.log(np.finfo(t).max)) for t in formats}  # SOLUTION",
        ((1, 'assert abs(thresholds["float64"] - 709.78) < 0.01'),
         (1, 'assert abs(thresholds["float32"] - 88.72) < 0.01'),
         (1, 'assert abs(thresholds["float16"] - 11.09) < 0.01'))),
    Question(
        "q2", "## Task 3: fix it",
        "**Graded question q2.** Write `stable_softmax(z)`: subtract the largest score, then "
        "exponentiate and normalise.",
        "def stable_softmax(z):\n"
        "    # BEGIN SOLUTION\n"
        "    e = np.exp(z - z.max())\n"
        "    return e / e.sum()\n"
        "    # END SOLUTION",
        ((1, "p = stable_softmax(np.array([1000.0, 999.0, 998.0]))\n"
             "assert np.all(np.isfinite(p)) and abs(p.sum() - 1) < 1e-12"),
         (1, "z = np.array([2.0, 1.0, 0.0])\nassert np.allclose(stable_softmax(z), np.exp(z) / np.exp(z).sum())"),
         (1, "assert np.allclose(stable_softmax(np.array([-1e4, 0.0, 1e4])), [0.0, 0.0, 1.0])")),
        replaces="def stable_softmax(z):"),
    Question(
        "q3", "grads = {}",
        "**Graded question q3.** How many times smaller is the gradient $P_1(1-P_1)$ at $s = 20$ "
        "than at $s = 1$? Put it in `times_smaller`, from `grads`.",
        "times_smaller = grads[1] / grads[20]  # SOLUTION",
        ((2, "p1, p20 = np.exp(1) / (np.exp(1) + 2), np.exp(20) / (np.exp(20) + 2)\n"
             "assert abs(times_smaller / (p1 * (1 - p1) / (p20 * (1 - p20))) - 1) < 1e-6"),)),
)


def _raw(text: str):
    return nbformat.v4.new_raw_cell(text)


def _question_cells(q: Question) -> list:
    cells = [_raw(f"# BEGIN QUESTION\nname: {q.name}\npoints: {[p for p, _ in q.tests]}"),
             nbformat.v4.new_markdown_cell(q.prompt),
             _raw("# BEGIN SOLUTION"), nbformat.v4.new_code_cell(q.solution), _raw("# END SOLUTION"),
             _raw("# BEGIN TESTS")]
    cells += [nbformat.v4.new_code_cell(code) for _points, code in q.tests]
    return cells + [_raw("# END TESTS"), _raw("# END QUESTION")]


def master(lab: Path, questions=QUESTIONS) -> nbformat.NotebookNode:
    """The Otter Assign master of ``lab``: its cells, with ``questions`` after the cells they
    name, and the assignment's configuration first."""
    nb = nbformat.read(lab, as_version=4)
    config = (f"# ASSIGNMENT CONFIG\nname: {lab.stem}\ninit_cell: true\ncheck_all_cell: false\n"
              "export_cell: false\nrun_tests: true\nsolutions_pdf: false\ngenerate: true\n")
    cells = [_raw(config)]
    placed = set()
    for cell in nb.cells:
        here = [q for q in questions if cell.source.startswith(q.after)]
        split = [q for q in questions if q.replaces and cell.source.startswith(q.replaces)]
        if split:  # the solution is the head of this cell: the question takes it, the rest stays
            q = split[0]
            head = cell.source.split("\n\n", 1)
            cells += _question_cells(q)
            placed.add(q.name)
            if len(head) == 2:
                cells.append(nbformat.v4.new_code_cell(head[1], metadata=cell.metadata))
            continue
        cells.append(cell)
        for q in here:
            if not q.replaces:
                cells += _question_cells(q)
                placed.add(q.name)
    missing = [q.name for q in questions if q.name not in placed]
    if missing:
        raise ValueError(f"questions {missing} name no cell of {lab.name}")
    for cell in cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.cells = cells
    return nb


def _otter(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "otter", *args], cwd=cwd, capture_output=True, text=True)


def assign(out: Path) -> dict:
    """Write the master and run Otter Assign; returns the paths it made."""
    lab = ROOT / "notebooks" / f"{LAB}.ipynb"
    work = out / LAB
    shutil.rmtree(work, ignore_errors=True)
    (work / "master").mkdir(parents=True)
    path = work / "master" / f"{LAB}.ipynb"
    nbformat.write(master(lab), path)
    proc = _otter("assign", str(path), str(work / "dist"), cwd=ROOT / "notebooks")
    if proc.returncode != 0:
        raise SystemExit(f"make_autograder: otter assign failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    zips = sorted((work / "dist" / "autograder").glob(f"{LAB}-autograder_*.zip"))
    if len(zips) != 1:
        raise SystemExit(f"make_autograder: expected one autograder zip, found {zips}")
    made = {"master": path, "student": work / "dist" / "student" / f"{LAB}.ipynb", "autograder": zips[0],
            "solution": work / "dist" / "autograder" / f"{LAB}.ipynb"}
    print(f"make_autograder: {LAB}: {sum(q.points for q in QUESTIONS)} points in {len(QUESTIONS)} questions;"
          f" student notebook {made['student']}, autograder {made['autograder']}")
    return made


def why_not_a_notebook(path: Path) -> str | None:
    """What is wrong with ``path`` as a submission, or None if it is a notebook."""
    if not path.is_file():
        return "no such file"
    if path.suffix != ".ipynb":
        return f"not a notebook (.ipynb), but {path.suffix or 'a file with no suffix'}"
    try:
        nb = nbformat.read(path, as_version=4)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return f"not a notebook: its JSON does not parse ({exc})"
    except Exception as exc:  # nbformat's own reader errors (a JSON that is no notebook)
        return f"not a notebook: {exc}"
    try:
        nbformat.validate(nb)
    except nbformat.ValidationError as exc:
        return f"not a valid notebook: {exc.message}"
    if not any(c.cell_type == "code" for c in nb.cells):
        return "a notebook with no code cells"
    return None


def grade(submissions: list[Path], autograder: Path, out: Path) -> list[dict]:
    """Grade each submission with ``autograder``; a file that is not a notebook gets its reason."""
    rows = []
    for sub in submissions:
        problem = why_not_a_notebook(sub)
        if problem is not None:
            rows.append({"submission": sub.name, "score": "", "total": "", "problem": problem})
            continue
        with tempfile.TemporaryDirectory() as tmp:
            proc = _otter("run", "-a", str(autograder.resolve()), "-o", tmp, "--no-logo", str(sub.resolve()),
                          cwd=Path(tmp))
            results = Path(tmp) / "results.json"
            if proc.returncode != 0 or not results.is_file():
                last = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
                rows.append({"submission": sub.name, "score": "", "total": "",
                             "problem": f"the autograder could not run it: {last[0]}"})
                continue
            data = json.loads(results.read_text())
        tests = [t for t in data["tests"] if t.get("max_score") is not None]  # not the "Public Tests" summary
        score, total = sum(t["score"] for t in tests), sum(t["max_score"] for t in tests)
        rows.append({"submission": sub.name, "score": score, "total": total, "problem": "",
                     **{t["name"]: f"{t['score']:g}/{t['max_score']:g}" for t in tests}})
    out.mkdir(parents=True, exist_ok=True)
    fields = ["submission", "score", "total", "problem"] + sorted({k for r in rows for k in r} - {
        "submission", "score", "total", "problem"})
    with (out / "grades.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    for r in rows:
        said = r["problem"] or f"{r['score']:g} / {r['total']:g}"
        print(f"{r['submission']}: {said}")
    print(f"make_autograder: wrote {out / 'grades.csv'}")
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["assign", "grade"])
    parser.add_argument("submissions", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.command == "assign":
        assign(args.out)
        return 0
    if not args.submissions:
        parser.error("grade needs at least one submission (a student's .ipynb)")
    zips = sorted((args.out / LAB / "dist" / "autograder").glob(f"{LAB}-autograder_*.zip"))
    if not zips:
        parser.error("no autograder zip: run `make autograder` first")
    rows = grade(args.submissions, zips[-1], args.out)
    return 1 if any(r["problem"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
