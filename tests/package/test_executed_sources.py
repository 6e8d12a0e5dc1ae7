"""What the execution cache is keyed on (scripts/executed_sources.py, scripts/build-book):
the reader's package modules the executed pages can run, and not the build tools
(booktools/, attention_book) no page imports."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_spec = importlib.util.spec_from_file_location("executed_sources", ROOT / "scripts" / "executed_sources.py")
executed_sources = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(executed_sources)


def names(root: Path) -> set[str]:
    """Module names relative to the package ("numerics", "figures.live"; "__init__" for the
    package itself, "figures" for a subpackage's __init__)."""
    package = root / "src" / "attention_scaling"
    out = set()
    for p in executed_sources.sources(root):
        parts = p.relative_to(package).with_suffix("").parts
        out.add(".".join(parts[:-1]) or "__init__" if parts[-1] == "__init__" else ".".join(parts))
    return out


def test_the_book_runs_its_science_and_not_its_build_tools():
    found = names(ROOT)
    # Imported by pages directly, through a function body (explorables imports context
    # inside a function), and always (the package's __init__ and _validate).
    assert {"__init__", "_validate", "numerics", "explorables", "context", "figures", "symbolic",
            "derivations", "claims", "quiz", "labs"} <= found
    # a subpackage counts with every module of it that runs (figures/: live, blit, style ...)
    assert {"figures.live", "figures.blit", "figures.style", "figures.png"} <= found
    # The build tools live in booktools/ (attention_book), so editing them re-executes nothing.
    # (The introduction and the instructors' page quote the repository with
    # attention_book.repository; the build's launch key re-executes them when it changes.)
    assert found.isdisjoint({"sphinx_ext", "pagespeed", "publishing", "handout", "chapter_notebooks", "folds",
                             "launch", "repository"})
    assert all(p.resolve().is_relative_to(ROOT / "src" / "attention_scaling")
               for p in executed_sources.sources(ROOT))


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def tiny(tmp_path):
    """A book whose chapter imports `a`, which imports `b` inside a function and `sub.c`;
    `tool` is imported by nothing; a lab imports `d` by name from the package."""
    pkg = tmp_path / "src" / "attention_scaling"
    write(pkg / "__init__.py", "from . import a\n")
    write(pkg / "_validate.py", "")
    write(pkg / "a.py", "from .sub import c\n\ndef f():\n    from .b import g\n    return g()\n")
    write(pkg / "b.py", "def g():\n    return 1\n")
    write(pkg / "sub" / "__init__.py", "")
    write(pkg / "sub" / "c.py", "from .. import b\n")
    write(pkg / "d.py", "import attention_scaling.b\n")
    write(pkg / "tool.py", "from . import a, b\n")
    write(tmp_path / "book" / "chapter.md", "```{code-cell} ipython3\nfrom attention_scaling.a import f\n```\n")
    lab = {"cells": [{"cell_type": "code", "source": ["from attention_scaling import d\n"]},
                     {"cell_type": "markdown", "source": ["from attention_scaling import tool\n"]}]}
    write(tmp_path / "notebooks" / "lab.ipynb", json.dumps(lab))
    return tmp_path


def test_imports_are_followed_through_function_bodies_and_subpackages(tiny):
    files = {str(p.relative_to(tiny / "src" / "attention_scaling")) for p in executed_sources.sources(tiny)}
    assert files == {"__init__.py", "_validate.py", "a.py", "b.py", "d.py", "sub/__init__.py", "sub/c.py"}


def test_a_page_that_imports_a_tool_brings_it_in(tiny):
    assert "tool" not in names(tiny)  # named only in a markdown cell
    write(tiny / "book" / "teach.md", "```{code-cell} ipython3\nimport attention_scaling.tool as t\n```\n")
    assert "tool" in names(tiny)


def test_the_scripts_a_counted_subpackage_holds_count_too(tiny):
    """An explorer's ES modules run in the page its cell writes: editing one re-executes."""
    write(tiny / "src" / "attention_scaling" / "sub" / "view.js", "export const x = 1;\n")
    write(tiny / "src" / "attention_scaling" / "sub" / "notes.txt", "not run\n")
    write(tiny / "src" / "attention_scaling" / "other" / "__init__.py", "")
    write(tiny / "src" / "attention_scaling" / "other" / "unused.js", "export const y = 2;\n")
    files = {str(p.relative_to(tiny / "src" / "attention_scaling")) for p in executed_sources.sources(tiny)}
    assert "sub/view.js" in files
    assert "sub/notes.txt" not in files and "other/unused.js" not in files  # no page imports `other`
    assert {"web/scale_view.js", "web/scale.js"} <= {str(p.relative_to(ROOT / "src" / "attention_scaling"))
                                                     for p in executed_sources.sources(ROOT)}
