"""Two editions from one source: the learner's book and the instructor's.

``make book`` builds the **learner's edition**, the one students read and the one published.
``make book-instructor`` builds the **instructor's edition** from the same sources into
``_build/html-instructor``. The edition is a Sphinx tag (``learner`` or ``instructor``),
which ``scripts/jupyter_book_parallel.py`` passes from ``BOOK_EDITION``; a build with
neither tag (plain ``jupyter-book build .``) is the learner's. A page can therefore also use
``{only} instructor`` blocks.

What differs, set in the book's _config.yml (``sphinx.config``):

- ``book_instructor_pages``: documents only the instructor's edition has. The learner's
  edition drops them from the table of contents before Sphinx reads anything (so they are in
  no navigation, no search index, no sitemap) and excludes their files.
- ``book_withheld_solutions``: the exercises whose worked solutions the learner's edition
  keeps back, because the lesson plan asks them in class (an exit-ticket question, say). On
  the learner's page the solution is replaced by a line saying where it is. The chapters'
  notebooks (``notebooks/chapters/``, what Binder and Colab open) are written before this
  step and are the same in both editions: they keep every solution, as the page's source
  file does in the repository.
"""

from __future__ import annotations

from docutils import nodes

#: The editions, the default first (scripts/jupyter_book_parallel.py checks BOOK_EDITION against them).
EDITIONS = ("learner", "instructor")

#: What the learner's page says where a withheld solution was.
WITHHELD_NOTE = ("Your class works this exercise together, so its worked solution is not in this "
                 "edition of the book; your instructor has it.")


def edition(app) -> str:
    """``"instructor"`` when the build has that tag, else ``"learner"``."""
    tags = getattr(app, "tags", None)
    if tags is not None and tags.has("instructor"):
        if tags.has("learner"):
            raise ValueError("tags: a build is either the learner's or the instructor's edition, not both")
        return "instructor"
    return "learner"


def _drop_from_site_map(site_map, docnames: set[str]) -> list[str]:
    """Remove ``docnames`` from an external-toc site map (and any caption left empty);
    returns those that were in it."""
    dropped = [d for d in docnames if d in site_map]
    for doc in list(site_map.values()):
        for tree in doc.subtrees:
            tree.items = [item for item in tree.items if str(item) not in docnames]
        doc.subtrees = [tree for tree in doc.subtrees if tree.items]
    for d in dropped:
        del site_map[d]
    return dropped


def _configure(app, config):
    """config-inited, after sphinx-external-toc (900) has read _toc.yml: the learner's
    edition drops the instructor pages from it and from what Sphinx reads."""
    pages = list(config.book_instructor_pages)
    bad = [p for p in pages if not isinstance(p, str) or not p or p.endswith((".md", ".ipynb"))]
    if bad:
        raise ValueError(f"book_instructor_pages: each must be a document name without its suffix "
                         f"(book/teach), got {bad!r}")
    site_map = getattr(config, "external_site_map", None)
    if site_map is not None:
        missing = [p for p in pages if p not in site_map]
        if missing:
            raise ValueError(f"book_instructor_pages: {missing!r} are not in the table of contents")
        if pages and site_map.root.docname in pages:
            raise ValueError("book_instructor_pages: the book's root page cannot be the instructor's only")
    app.asb_edition = edition(app)
    if app.asb_edition == "learner" and pages:
        if site_map is not None:
            _drop_from_site_map(site_map, set(pages))
        config.exclude_patterns = list(config.exclude_patterns) + [f"{p}.*" for p in pages]


def _withhold_solutions(app, doctree, docname):
    """doctree-resolved, after the chapter's notebook is written (chapter_notebooks, 900):
    on the learner's page a withheld exercise's solution becomes a one-line note."""
    withheld = set(app.config.book_withheld_solutions)
    if not withheld or edition(app) != "learner":
        return
    from sphinx_exercise.nodes import solution_node

    for node in list(doctree.findall(solution_node)):
        if node.get("target_label") not in withheld:
            continue
        title = next(iter(node.findall(nodes.title)), None)
        note = nodes.container(classes=["asb-withheld"])
        if title is not None:
            note += nodes.paragraph("", "", nodes.strong("", title.astext()))
        note += nodes.paragraph("", WITHHELD_NOTE)
        node.replace_self(note)
        note["classes"] = ["asb-withheld"]  # replace_self copied the solution's (its dropdown)


def _drop_stale_pages(app, exception):
    """build-finished: the learner's edition keeps no file an earlier instructor's build left
    in the same folder (Sphinx never empties it): the page, its source, its Colab copy, and
    the sheets only that edition writes (the slides)."""
    if exception is not None or edition(app) != "learner":
        return
    import shutil
    from pathlib import Path

    out = Path(app.outdir)
    listed = out / ".instructor-files"  # sphinx_ext.INSTRUCTOR_FILES: the instructor's sheets
    if listed.is_file():
        for line in listed.read_text(encoding="utf-8").splitlines():
            path = (out / line.strip()).resolve()
            if line.strip() and path.is_file() and out.resolve() in path.parents:
                path.unlink()
        listed.unlink()
    for page in app.config.book_instructor_pages:
        name = page.rsplit("/", 1)[-1]
        for path in [out / f"{page}.html", *(out / "_sources").glob(f"{page}.*"),
                     *(out / "_launch").rglob(f"{name}.ipynb")]:
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()


def _check_withheld(app, env):
    """env-check-consistency: every withheld label names an exercise that has a solution
    (a typo would otherwise withhold nothing, silently)."""
    withheld = list(app.config.book_withheld_solutions)
    if not withheld:
        return
    order = getattr(env, "sphinx_exercise_node_order", {}) or {}
    targets = {info.get("target_label") for infos in order.values() for info in infos}
    missing = [label for label in withheld if label not in targets]
    if missing:
        from sphinx.util import logging

        logging.getLogger(__name__).warning(
            f"book_withheld_solutions: no solution answers {missing!r}", type="attention_book", subtype="edition")
