"""The package's public API is what the book's pages import: every
``from attention_scaling… import …`` (and ``import attention_scaling…``) in the chapters
(book/*.md), the labs (notebooks/*.ipynb) and the generated chapter notebooks
(notebooks/chapters/*.ipynb) resolves. A renamed or moved function fails here, in the
package tier, before any build."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.M | re.S)


def _code(path: Path) -> list[str]:
    """The code cells of a MyST notebook or a notebook, IPython magics blanked out."""
    if path.suffix == ".md":
        # A cell's options are ":key: value" lines or a YAML block between "---" lines.
        cells = [re.sub(r"\A---\n.*?^---\n", "", c, flags=re.M | re.S)
                 for c in _CELL.findall(path.read_text(encoding="utf-8"))]
    else:
        nb = json.loads(path.read_text(encoding="utf-8"))
        cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    # IPython magics and MyST's ":tags: [...]" lines are not Python.
    return [re.sub(r"^(\s*)(?:[%!]|:\w+:).*$", r"\1pass", c, flags=re.M) for c in cells]


def imports(path: Path) -> set[tuple[str, str]]:
    """(module, name) for each name a page imports from the package; name '' for a module."""
    found = set()
    for code in _code(path):
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "attention_scaling":
                found |= {(node.module, a.name) for a in node.names}
            elif isinstance(node, ast.Import):
                found |= {(a.name, "") for a in node.names if a.name.split(".")[0] == "attention_scaling"}
    return found


PAGES = sorted([*(ROOT / "book").glob("*.md"), *(ROOT / "notebooks").glob("*.ipynb"),
                *(ROOT / "notebooks" / "chapters").glob("*.ipynb")])
USED = sorted({pair for page in PAGES for pair in imports(page)})


def test_the_pages_import_the_package():
    assert len(PAGES) >= 20
    modules = {m for m, _ in USED}
    assert {"attention_scaling", "attention_scaling.explorables", "attention_scaling.claims",
            "attention_scaling.labs"} <= modules
    assert len(USED) > 40


@pytest.mark.parametrize("module, name", USED, ids=[f"{m}:{n or '*'}" for m, n in USED])
def test_every_name_the_pages_import_exists(module, name):
    imported = importlib.import_module(module)
    if name and name != "*":
        submodule = hasattr(imported, "__path__") and importlib.util.find_spec(f"{module}.{name}") is not None
        assert hasattr(imported, name) or submodule, f"{module} has no {name}"


def test_a_missing_name_would_be_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```{code-cell} ipython3\n%matplotlib inline\nfrom attention_scaling.numerics import nope\n```\n")
    ((module, name),) = imports(page)
    assert (module, name) == ("attention_scaling.numerics", "nope")
    with pytest.raises(AssertionError, match="has no nope"):
        test_every_name_the_pages_import_exists(module, name)
