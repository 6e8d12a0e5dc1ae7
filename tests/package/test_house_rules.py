"""House rules for the package's code that a linter does not check.

No function in the reader's package (``src/attention_scaling``) or the book's build tools
(``booktools/src/attention_book``) runs over ``MAX_LINES`` lines (its signature,
docstring and body). The functions that did when the rule came in are listed in
``LONG_FUNCTIONS`` with their length then: each may shrink, none may grow, and one that
falls to ``MAX_LINES`` or below must leave the list, so the list only gets shorter (it is
empty now).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (ROOT / "src" / "attention_scaling", ROOT / "booktools" / "src" / "attention_book")
MAX_LINES = 60

# Known debt: (package/module, qualified name) -> its length when the rule came in. Issue 29
# listed 11 functions; all were split (session 20), so none may grow past MAX_LINES again.
LONG_FUNCTIONS: dict[tuple[str, str], int] = {}


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
    """The scan reads every module of both packages: the longest function of each is found."""
    lengths = {(p.relative_to(package.parent).as_posix(), name): n
               for package in PACKAGES for p in sorted(package.rglob("*.py"))
               for name, n in function_lengths(p).items()}
    for module, name in (("attention_scaling/context.py", "ContextFigure.update"),
                         ("attention_book/sphinx_ext.py", "prerender_maths"),
                         ("attention_scaling/figures/live.py", "AttentionFigure.update")):
        assert 20 < lengths[module, name] <= MAX_LINES, (module, name)


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
