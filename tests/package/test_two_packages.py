"""Two distributions, one direction (issue 29).

The reader's package (``src/attention_scaling``, pyproject.toml) is what a student's kernel
installs; the book's build tools (``booktools/``, the package ``attention_book``) run only
where the book is built. The build tools may import the reader's package; the reader's
package never imports the build tools, and it imports no third-party module but those its
pyproject.toml declares (or that a declared one brings by its own declaration). All read
from the source (ast), so this runs in the package tier, with only the reader's dependencies.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READER = ROOT / "src" / "attention_scaling"
BOOK = ROOT / "booktools" / "src" / "attention_book"

# Distribution name -> the top-level module it installs, for the reader's dependencies.
MODULE_OF = {"numpy": "numpy", "matplotlib": "matplotlib", "ipywidgets": "ipywidgets", "sympy": "sympy",
             "pillow": "PIL", "anywidget": "anywidget"}
# Imported but not declared, with the reason. A reader's install brings each of them anyway.
INDIRECT = {
    "mpmath": "sympy declares it (sympy's exact arithmetic); dot_law and stability use it directly",
    "IPython": "ipywidgets declares it (the kernel's display, for widgets and glued prose)",
    "traitlets": "ipywidgets and anywidget declare it (the synced values of the explorers' widgets)",
    "myst_nb": "optional: prose.glue uses it when the book builds, and falls back without it",
}


def _imports(path: Path) -> set[str]:
    """Absolute module names ``path`` imports, anywhere in its body."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def imports_of(package: Path) -> dict[str, set[str]]:
    return {p.relative_to(package).as_posix(): _imports(p) for p in sorted(package.rglob("*.py"))}


def third_party(package: Path) -> set[str]:
    """The top-level modules ``package`` imports that are neither the standard library nor
    the two packages."""
    tops = {m.split(".")[0] for names in imports_of(package).values() for m in names}
    return {t for t in tops if t not in sys.stdlib_module_names and t not in ("attention_scaling", "attention_book")}


def test_the_reader_package_never_imports_the_build_tools():
    offenders = {f: sorted(m for m in names if m.split(".")[0] == "attention_book")
                 for f, names in imports_of(READER).items()}
    assert {f: m for f, m in offenders.items() if m} == {}


def test_the_scan_finds_an_import_of_the_build_tools(tmp_path):
    for line in ("import attention_book\n", "from attention_book.launch import main\n",
                 "def f():\n    from attention_book import sphinx_ext\n"):
        (tmp_path / "m.py").write_text(line)
        assert any(m.split(".")[0] == "attention_book" for m in imports_of(tmp_path)["m.py"]), line


def test_only_the_class_material_uses_the_reader_package():
    """The Sphinx extension builds any book (tests/book/test_sites.py): what it needs of this one's
    package is named in _config.yml (attention_book.CONFIG). Only what is made from this book's
    lesson plan imports the reader's package: ``make handout``'s printer, which no build loads,
    and the session's slides, which a build loads only because _config.yml names them
    (``book_instructor_sheets``)."""
    users = {f for f, names in imports_of(BOOK).items() if any(m.split(".")[0] == "attention_scaling" for m in names)}
    assert users == {"handout.py", "deck.py"}


def _definitions(path: Path) -> dict[str, str]:
    """Top-level name -> its definition (ast.dump), for functions, classes and assignments."""
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found[node.name] = ast.dump(node)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = ast.dump(node.value)
    return found


def test_no_definition_lives_in_both_packages():
    """Nothing is copied from one package into the other: a function, class or constant
    defined in both with the same body is one thing in two places (the repository finder was,
    until it moved to attention_book.repository, its one home)."""
    def every(package: Path) -> dict[str, tuple[str, str]]:
        return {name: (f.name, body) for f in sorted(package.glob("*.py"))
                for name, body in _definitions(f).items()}

    reader, book = every(READER), every(BOOK)
    twins = sorted(f"{name} ({reader[name][0]}, {book[name][0]})" for name in set(reader) & set(book)
                   if reader[name][1] == book[name][1] and not name.startswith("__"))
    assert twins == []


def _declared(pyproject: Path) -> set[str]:
    deps = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    return {re.split(r"[<>=!~ ;\[]", d, maxsplit=1)[0].lower() for d in deps}


def test_the_reader_package_declares_exactly_what_it_imports():
    declared = _declared(ROOT / "pyproject.toml")
    assert declared <= set(MODULE_OF), f"no module known for {declared - set(MODULE_OF)}"
    wanted = {MODULE_OF[d] for d in declared}
    imported = third_party(READER)
    assert imported - set(INDIRECT) == wanted, (
        f"imported, not declared: {sorted(imported - wanted - set(INDIRECT))}; "
        f"declared, not imported: {sorted(wanted - imported)}")


@pytest.mark.parametrize("module", ["sphinx", "docutils", "bs4", "tinycss2", "nbformat", "yaml", "pypdf",
                                    "jupyter_book"])
def test_the_reader_package_needs_no_build_tool(module):
    assert module not in third_party(READER)


def test_the_reader_pyproject_installs_only_the_reader_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["setuptools"]["packages"]["find"]["where"] == ["src"]
    assert [p.name for p in (ROOT / "src").iterdir() if (p / "__init__.py").is_file()] == ["attention_scaling"]
    book = tomllib.loads((ROOT / "booktools" / "pyproject.toml").read_text())["project"]
    assert book["name"] == "attention-book" and "attention-scaling" in book["dependencies"]


def test_requirements_install_both_and_the_venv_stamp_hashes_both_pyprojects():
    lines = [ln.strip() for ln in (ROOT / "requirements.txt").read_text().splitlines()]
    assert "-e ." in lines and "-e ./booktools" in lines
    ensure = (ROOT / "scripts" / "ensure-venv").read_text()
    assert "pyproject.toml booktools/pyproject.toml" in ensure
