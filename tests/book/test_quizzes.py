"""Where the right answer sits in the book's quizzes: never a pattern a reader can learn.

quiz.Question already refuses fewer than three options and a correct option much longer
than the others. What it cannot see is the book as a whole: when the right answer is
always the first option, a reader learns to pick the first one.
"""

from __future__ import annotations

import ast
from collections import Counter

import nbformat
from book_files import toc_files
from myst_nb.core.read import read_myst_markdown_notebook


def _code_cells(path):
    if path.suffix == ".ipynb":
        nb = nbformat.read(path, as_version=4)
    else:
        nb = read_myst_markdown_notebook(path.read_text(encoding="utf-8"))
    return [c.source for c in nb.cells if c.cell_type == "code"]


def _name(node) -> str:
    return getattr(node.func, "id", getattr(node.func, "attr", "")) if isinstance(node, ast.Call) else ""


def correct_positions(source: str) -> list[int]:
    """Index of the correct option of every ``Q(prompt, (O(...), ...))`` in a cell."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    positions = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if _name(node) == "Q" and len(node.args) >= 2 and isinstance(node.args[1], ast.Tuple):
            flags = [o.args[1].value for o in node.args[1].elts if _name(o) == "O"]
            assert flags.count(True) == 1, source[:200]
            positions.append(flags.index(True))
    return positions


def quiz_positions() -> dict[str, list[int]]:
    found = {}
    for path in toc_files():
        for source in _code_cells(path):
            if "Quiz(" in source:
                found.setdefault(path.name, []).extend(correct_positions(source))
    return found


def check_positions(found: dict[str, list[int]]) -> list[str]:
    """Problems with where the right answers sit: the rule, separate from the book."""
    everything = [p for positions in found.values() for p in positions]
    problems = []
    if not everything:
        return ["no quiz found"]
    position, count = Counter(everything).most_common(1)[0]
    if count > len(everything) / 2:
        problems.append(f"option {position + 1} is the right answer in {count} of {len(everything)} questions")
    for page, positions in found.items():
        if len(positions) >= 2 and len(set(positions)) == 1:
            problems.append(f"{page}: every right answer is option {positions[0] + 1}")
    return problems


def test_right_answers_do_not_sit_in_one_place():
    found = quiz_positions()
    assert sum(map(len, found.values())) >= 10, found   # every chapter has a quiz
    assert check_positions(found) == []


def test_the_rule_catches_a_book_whose_answers_all_come_first():
    planted = {page: [0] * len(positions) for page, positions in quiz_positions().items()}
    problems = check_positions(planted)
    assert any("option 1 is the right answer" in p for p in problems), problems
    assert any("every right answer is option 1" in p for p in problems), problems


def test_positions_are_read_from_the_options_in_order():
    source = 'Quiz("t", [Q("p", (O("a", False, "x"), O("b", False, "y"), O("c", True, "z"))),])'
    assert correct_positions(source) == [2]
