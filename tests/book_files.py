"""The book's source files, read from _toc.yml, for the tests that walk every chapter and lab."""

from __future__ import annotations

from pathlib import Path

import nbformat
import yaml
from myst_nb.core.read import read_myst_markdown_notebook

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"  # the built book
SCREENSHOTS = ROOT / "_build" / "screenshots"  # what the browser tests save


def toc_files() -> list[Path]:
    """Every document in _toc.yml, in reading order, as paths with their real suffix."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    names = [toc["root"]]

    def walk(node):
        for key in ("parts", "chapters", "sections"):
            for child in node.get(key, []) or []:
                if "file" in child:
                    names.append(child["file"])
                walk(child)

    walk(toc)
    paths = []
    for name in names:
        found = [p for p in (ROOT / f"{name}.md", ROOT / f"{name}.ipynb", ROOT / name) if p.is_file()]
        if not found:
            raise FileNotFoundError(f"_toc.yml lists {name}, which does not exist")
        paths.append(found[0])
    return paths


def html_page(path: Path) -> str:
    """Where the build writes a source file, relative to _build/html."""
    return str(path.relative_to(ROOT).with_suffix(".html"))


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """A chapter (MyST markdown notebook) or a lab (.ipynb) as a notebook."""
    if path.suffix == ".ipynb":
        return nbformat.read(path, as_version=4)
    return read_myst_markdown_notebook(path.read_text(), path=path)


def player_pages() -> list[str]:
    """The built pages that show an explorer (a code cell calls ``..._explorer(``)."""
    import re

    return [html_page(path) for path in toc_files()
            if any(re.search(r"\w+_explorer\(", c.source) for c in read_notebook(path).cells
                   if c.cell_type == "code")]


def executable(path: Path) -> bool:
    nb = read_notebook(path)
    return any(cell.cell_type == "code" for cell in nb.cells)


def linked_stylesheets(text: str) -> list[str]:
    """The stylesheets the head of a page (its HTML ``text``) links, in order."""
    import re

    head = text[:text.find("</head>")]
    return re.findall(r'<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="([^"]*)"', head)


def stylesheets(page: Path) -> list[str]:
    """The stylesheets a built page draws with, relative to the site: the sources of the
    bundle it links (attention_book.pagespeed), in order."""
    from attention_book.pagespeed import bundle_sources

    links = linked_stylesheets(page.read_text(encoding="utf-8"))
    return [s for href in links for s in bundle_sources((page.parent / href.split("?")[0]).read_text(encoding="utf-8"))]
