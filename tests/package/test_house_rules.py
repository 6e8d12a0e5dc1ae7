"""House rules for the package's code that a linter does not check.

No function in the reader's package (``src/attention_scaling``) or the book's build tools
(``booktools/src/attention_book``) runs over ``MAX_LINES`` lines (its signature,
docstring and body). The functions that did when the rule came in are listed in
``LONG_FUNCTIONS`` with their length then: each may shrink, none may grow, and one that
falls to ``MAX_LINES`` or below must leave the list, so the list only gets shorter.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (ROOT / "src" / "attention_scaling", ROOT / "booktools" / "src" / "attention_book")
MAX_LINES = 60

# Known debt (issue 29): (package/module, qualified name) -> its length when the rule came in.
LONG_FUNCTIONS = {
    ("attention_book/chapter_notebooks.py", "build_notebook"): 109,
    ("attention_book/chapter_notebooks.py", "_block"): 103,
    ("attention_scaling/context.py", "ContextFigure.__init__"): 98,
    ("attention_scaling/normalization.py", "train_retrieval"): 93,
    ("attention_scaling/stability.py", "overflow_fraction"): 85,
    ("attention_book/sphinx_ext.py", "prerender_maths"): 76,
    ("attention_book/handout.py", "_parts"): 74,
    ("attention_scaling/figures/live.py", "AttentionFigure.__init__"): 67,
    ("attention_scaling/explorables/explorable.py", "Explorable.static_html"): 67,
    ("attention_scaling/figures/live.py", "NormalizationFigure.__init__"): 65,
    ("attention_scaling/figures/scaling.py", "training_curves_figure"): 64,
}


def function_lengths(path: Path) -> dict[str, int]:
    """Qualified name (``Class.method``, ``outer.inner``) -> lines, for every function."""
    lengths: dict[str, int] = {}

    def visit(node, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    lengths[name] = child.end_lineno - child.lineno + 1
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return lengths


def long_functions() -> dict[tuple[str, str], int]:
    return {(p.relative_to(package.parent).as_posix(), name): n
            for package in PACKAGES for p in sorted(package.rglob("*.py"))
            for name, n in function_lengths(p).items() if n > MAX_LINES}


def test_no_new_long_function_and_none_grows():
    found = long_functions()
    new = {k: n for k, n in found.items() if k not in LONG_FUNCTIONS}
    grown = {k: (LONG_FUNCTIONS[k], n) for k, n in found.items() if k in LONG_FUNCTIONS and n > LONG_FUNCTIONS[k]}
    assert new == {}, f"functions over {MAX_LINES} lines: split them {new}"
    assert grown == {}, f"listed long functions grew (then, now): {grown}"


def test_the_debt_list_only_names_functions_still_long():
    found = long_functions()
    fixed = sorted(k for k in LONG_FUNCTIONS if k not in found)
    assert fixed == [], f"now {MAX_LINES} lines or fewer (or gone): remove them from LONG_FUNCTIONS: {fixed}"


def test_both_packages_are_measured():
    found = {path for path, _ in long_functions()}
    assert {"attention_scaling/context.py", "attention_book/sphinx_ext.py"} <= found


def test_the_measure_counts_methods_and_nested_functions(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("class A:\n    def f(self):\n        def g():\n            pass\n        return 1\n\n"
                      "def h():\n" + "    x = 1\n" * 70)
    assert function_lengths(module) == {"A.f": 4, "A.f.g": 2, "h": 71}


TIERS = ("package", "book", "browser", "system")


def test_every_test_file_lives_in_a_tier_that_marks_it():
    """No test module sits loose in tests/: each is in one tier directory, and each tier's
    conftest.py gives its tests the tier's marker (tests/tiers.py), so `-m <tier>` is the layout."""
    tests = ROOT / "tests"
    assert not sorted(p.name for p in tests.glob("test_*.py")), "a test module outside a tier directory"
    homes = {p.parent.name for p in tests.rglob("test_*.py") if "sites" not in p.parts}
    assert homes == set(TIERS)
    for tier in TIERS:
        conftest = (tests / tier / "conftest.py").read_text(encoding="utf-8")
        assert f'mark_directory(__file__, items, "{tier}")' in conftest, tier
