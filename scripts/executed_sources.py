"""The package's source files the book's executed pages can run: what the execution
cache is keyed on (scripts/build-book).

A page's cached outputs go stale only when code its kernel runs changes. That is every
``attention_scaling`` module a page imports (``book/*.md`` and ``notebooks/*.ipynb``),
with every module those import in turn, found by reading their source (ast), not by
importing them: an import inside a function counts as much as one at the top. The
package's ``__init__`` and ``_validate`` always count, and so do the data files (``.js``,
``.css``, ``.json``) of every subpackage counted: the scripts the explorers put in a page. A build tool that no page imports
(the Sphinx extension, the page-speed bundler, publishing) is left out, so editing it
re-executes no chapter.

    python scripts/executed_sources.py [ROOT]   # prints the files, one per line, sorted
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

PACKAGE = "attention_scaling"
#: Package data a page can run, read beside the subpackage that holds it.
DATA_SUFFIXES = (".js", ".css", ".json")
_PAGE_IMPORT = re.compile(rf"^\s*(?:from|import)\s+({PACKAGE}(?:\.\w+)*)(?:\s+import\s+([\w ,()]+))?", re.M)


def _page_code(root: Path) -> str:
    """The code of the pages the build executes: MyST notebooks' text, notebooks' code cells."""
    parts = [p.read_text(encoding="utf-8") for p in sorted((root / "book").glob("*.md"))]
    for nb in sorted((root / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8")).get("cells", [])
        parts += ["".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code"]
    return "\n".join(parts)


def _module_file(package_dir: Path, name: str) -> Path | None:
    """The file of ``attention_scaling.x.y`` (a module or a subpackage), None if none."""
    rel = name.split(".")[1:]
    base = package_dir.joinpath(*rel) if rel else package_dir
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if rel and candidate.is_file() or not rel and candidate.name == "__init__.py" and candidate.is_file():
            return candidate
    return None


def _resolve(module: str, level: int, current: str, is_package: bool) -> str:
    if level == 0:
        return module
    parts = current.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _imports_of(path: Path, name: str) -> set[str]:
    """Every package module ``path`` (module ``name``) imports, anywhere in its body."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(node.module or "", node.level, name, is_package)
            found.add(target)
            found |= {f"{target}.{a.name}" for a in node.names}  # `from . import x`
    return {m for m in found if m == PACKAGE or m.startswith(PACKAGE + ".")}


def sources(root: Path) -> list[Path]:
    """The package files the executed pages of the book at ``root`` can run, sorted."""
    package_dir = root / "src" / PACKAGE
    todo = {PACKAGE, f"{PACKAGE}._validate"}
    for match in _PAGE_IMPORT.finditer(_page_code(root)):
        module, names = match.group(1), match.group(2) or ""
        todo.add(module)
        todo |= {f"{module}.{n.strip()}" for n in re.split(r"[,()\s]+", names) if n.strip()}
    seen: dict[str, Path] = {}
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _module_file(package_dir, name)
        if path is None:  # a function or class imported by name, not a module
            continue
        seen[name] = path
        # A module runs its package's __init__ first.
        parents = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        todo |= (_imports_of(path, name) | parents) - set(seen)
    # A package's data files (attention_scaling.web's ES modules) run in the pages too.
    data = {f for p in seen.values() if p.name == "__init__.py" for f in p.parent.iterdir()
            if f.is_file() and f.suffix in DATA_SUFFIXES}
    return sorted(set(seen.values()) | data)


if __name__ == "__main__":
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    for path in sources(root):
        print(path.relative_to(root))
