"""The book's source files, read from _toc.yml, for the tests that walk every chapter and lab."""

from __future__ import annotations

from pathlib import Path

import nbformat
import yaml
from myst_nb.core.read import read_myst_markdown_notebook

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html-instructor"  # the built book the tests read: the instructor's edition
LEARNER_HTML = ROOT / "_build" / "html"  # the learner's edition (make book)
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


def instructor_pages() -> list[str]:
    """The documents only the instructor's edition has (_config.yml, book_instructor_pages)."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return list(config["sphinx"]["config"].get("book_instructor_pages", []))


def learner_toc_files() -> list[Path]:
    """The documents of the learner's edition, in reading order."""
    only = {ROOT / name for name in instructor_pages()}
    return [p for p in toc_files() if p.with_suffix("") not in only]


def edition_toc_files(edition: str) -> list[Path]:
    """The documents of the ``"learner"`` or ``"instructor"`` edition, in reading order."""
    if edition not in ("learner", "instructor"):
        raise ValueError(f"edition must be learner or instructor, got {edition!r}")
    return toc_files() if edition == "instructor" else learner_toc_files()


def html_page(path: Path) -> str:
    """Where the build writes a source file, relative to the built site."""
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
