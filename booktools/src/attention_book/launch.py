"""Launch buttons and the site's address, set where the book is built (Sphinx).

Binder, Colab and JupyterHub (nbgitpuller) open a page from a GitHub repository, and the
site's address (``html_baseurl``: sitemap, canonical links, link previews) is that
repository's GitHub Pages site. Neither is written in _config.yml: a fork builds a book
that links to itself, with no edit. The repository and branch are found by
:func:`attention_book.repository.find_repository` (which says where they come from), the
function the introduction and the instructors' page quote them with. When there is none, the book has no launch buttons at all and the build
says why in one message: it never links to a placeholder. ``html.baseurl`` in _config.yml
overrides the derived address (a custom domain, say); without a repository and without
it, the book has no address, so no sitemap and only page-relative link-preview URLs.

The JupyterHub button appears only when ``launch_buttons.jupyterhub_url`` is set.

Its handlers are wired, with their priorities, by :data:`attention_book.HOOKS`.
``python -m attention_book.launch`` prints what a build here would use.

The site is published to one branch, ``pages_branch`` in _config.yml's ``sphinx.config``
(:func:`pages_branch`): Colab opens the chapters' copies there, ``make publish`` and the
workflow push to it. An environment variable ``PAGES_BRANCH`` (``make publish
PAGES_BRANCH=site``) overrides it for the build and the push alike.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from .repository import _BRANCH, Repository, _text, find_repository

#: The launch services a repository is needed for (sphinx-book-theme's keys).
PROVIDERS = ("binderhub_url", "jupyterhub_url", "colab_url", "deepnote_url", "jupyterlite_url")


def site_address(repository: Repository | None, override: str = "") -> str:
    """The site's address with a trailing slash: ``override`` (html.baseurl) when set,
    else the repository's GitHub Pages address, else "" (unknown)."""
    override = _text(override, "override")
    if repository is not None and not isinstance(getattr(repository, "pages_url", None), str):
        raise ValueError(f"repository must be a Repository or None, got {type(repository).__name__}")
    if override:
        parts = urlsplit(override)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"override (html.baseurl in _config.yml) must be an http(s) URL, got {override!r}")
        return override if override.endswith("/") else override + "/"
    return repository.pages_url if repository is not None else ""


def pages_branch(configured: str, environ: Mapping[str, str] | None = None) -> str:
    """The branch the built site is published to: ``PAGES_BRANCH`` from ``environ``
    (``os.environ`` when None) when set, else ``configured`` (``pages_branch`` in
    _config.yml). Raises ValueError when neither is a branch name."""
    environ = os.environ if environ is None else environ
    override = _text(environ.get("PAGES_BRANCH") or "", "PAGES_BRANCH")
    branch = override or _text(configured, "configured")
    if not _BRANCH.fullmatch(branch):
        where = "PAGES_BRANCH" if override else "configured (pages_branch in _config.yml)"
        raise ValueError(f"{where} is not a branch name: {branch!r}")
    return branch


def config_pages_branch(config: Mapping) -> str:
    """``sphinx.config.pages_branch`` of a parsed _config.yml (ValueError when missing)."""
    value = ((config.get("sphinx") or {}).get("config") or {}).get("pages_branch")
    if not value:
        raise ValueError("config has no sphinx.config.pages_branch (the branch the site is published to)")
    return str(value)


# --- Sphinx (wired by attention_book.HOOKS) ----------------------------------------------------


def _configure(app, config):
    """Fill in the repository, branch and launch buttons, and html_baseurl (config-inited)."""
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    options = dict(config.html_theme_options or {})
    launch = dict(options.get("launch_buttons") or {})
    repo, note = find_repository(cwd=app.srcdir, override_url=options.get("repository_url") or "",
                                 override_branch=options.get("repository_branch") or "")
    if repo is None:
        options.pop("repository_url", None)
        options.pop("repository_branch", None)
        launch = {k: v for k, v in launch.items() if k not in PROVIDERS}
    else:
        options["repository_url"] = repo.url
        options["repository_branch"] = repo.branch
        launch = {k: v for k, v in launch.items() if k not in PROVIDERS or (v or "").strip()}
        services = [label for key, label in (("binderhub_url", "Binder"), ("colab_url", "Colab (notebooks)"),
                                             ("jupyterhub_url", "JupyterHub")) if launch.get(key)]
        note = note.replace("launch buttons", " · ".join(services) + " buttons", 1) if services else note
    options["launch_buttons"] = launch
    config.html_theme_options = options
    app.asb_launch_services = [label for key, label in SERVICE_NAMES if repo is not None and launch.get(key)]

    base = site_address(repo, config.html_baseurl or "")
    config.html_baseurl = base
    app.asb_launch = repo
    if base:
        note += f" Site address: {base}"
    else:
        # sphinx-sitemap needs an absolute address; without one there is no sitemap
        # (its own warning would fail the strict build, and this message says why).
        config.suppress_warnings = [*config.suppress_warnings, "sitemap.configuration"]
        note += (" No site address either (no sitemap; link previews use relative URLs): it is "
                 "the repository's GitHub Pages site, or html.baseurl in _config.yml.")
    logger.info("\x1b[1mattention_book.launch: %s\x1b[0m", note)


#: The launch services an exercise's note may name, as the note names them, in the menu's order.
SERVICE_NAMES = (("binderhub_url", "Binder"), ("colab_url", "Colab"), ("jupyterhub_url", "your JupyterHub"))

#: What an exercise that needs a kernel says when the book has no launch menu (it would
#: otherwise point at the menu; attention_book.sphinx_ext writes the note).
#: What every such note starts with: the static page already holds a worked answer.
STATIC_ROUTE = "Its worked solution below shows every step and result, so you can follow it on this page. "
NO_LAUNCH_NOTE = (STATIC_ROUTE + "To run it yourself, download the page as a notebook (the download menu at "
                  "the top of the page) and open it in Jupyter where the book's package is installed "
                  "(`pip install -r requirements.txt` in a copy of the book's repository).")


def kernel_note(services) -> str:
    """What an exercise that needs a kernel says, naming exactly the services of the page's
    launch menu (none: download the notebook instead). A hub-less book's note never sends
    the reader to a JupyterHub its menu does not offer."""
    if isinstance(services, str) or not all(isinstance(s, str) and s.strip() for s in services):
        raise ValueError(f"services must be a sequence of service names, got {services!r}")
    services = list(services)
    if not services:
        return NO_LAUNCH_NOTE
    where = services[0] if len(services) == 1 else ", ".join(services[:-1]) + " or " + services[-1]
    return (STATIC_ROUTE + "To run it yourself, open the page from the launch menu (the rocket icon at "
            f"the top of the page) on {where}, or download it as a notebook and run it on your own machine.")


def _kernel_notes_for_launch_menu(app, doctree, docname):
    from docutils import nodes

    text = kernel_note(getattr(app, "asb_launch_services", []))
    for note in doctree.findall(nodes.paragraph):
        if "asb-needs-kernel" in note.get("classes", []):
            for child in [c for c in note.children if isinstance(c, nodes.Text)]:
                note.remove(child)
            note += nodes.Text(text)


def _notebook_download_without_launch_menu(app, pagename, templatename, context, doctree):
    """sphinx-book-theme offers a MyST chapter's executed notebook for download only
    while it builds launch buttons; with none, this offers it the same way."""
    if getattr(app, "asb_launch", None) is not None or getattr(app.builder, "format", "") != "html":
        return
    if not str(context.get("sourcename", "")).endswith((".md", ".md.txt")):
        return
    if "kernelspec" not in app.env.metadata.get(pagename, {}):
        return
    executed = Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb"
    if executed.is_file():
        target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(executed, target)
        context["ipynb_source"] = f"{pagename}.ipynb"


def _executed_notebook_keeps_outputs(app, doctree):
    """myst-nb 1.x writes ``jupyter_execute/<page>.ipynb``, the notebook a reader downloads,
    from the notebook as parsed. When a page's outputs come from jupyter-cache (a page read
    again without a change to its code, and every page of a build restored from a cache, as
    the published one is), that copy has none: myst-nb merges the cached outputs into another
    object. This writes it again with them, from the same cache record myst-nb used."""
    config = getattr(app.env, "mystnb_config", None)
    if config is None or not getattr(config, "output_folder", "") or config.execution_mode != "cache":
        return
    path = Path(config.output_folder) / f"{app.env.docname}.ipynb"
    if not path.is_file():
        return
    import nbformat
    from jupyter_cache import get_cache

    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    if not code or any(cell.get("outputs") for cell in code):
        return  # executed in this build, or nothing to run
    from myst_nb.ext.glue import extract_glue_data_cell

    try:
        _, merged = get_cache(config.execution_cache_path).merge_match_into_notebook(notebook)
    except KeyError:
        return  # not in the cache: the page was not executed
    for cell in merged.cells:
        if cell.cell_type == "code":
            extract_glue_data_cell(cell)  # glued values leave their cells, as in a page executed now
    nbformat.write(merged, path)


def _drop_stale_sitemap(app):
    """A sitemap left by an earlier build would name another address."""
    if not app.config.html_baseurl:
        stale = Path(app.outdir) / (getattr(app.config, "sitemap_filename", None) or "sitemap.xml")
        stale.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    """Print the repository, branch and site address a build in this directory would use."""
    import argparse

    import yaml

    parser = argparse.ArgumentParser(prog="python -m attention_book.launch", description=main.__doc__)
    parser.add_argument("--book", default=".", help="the book's root (where _config.yml is)")
    parser.add_argument("--baseurl", action="store_true", help="print only the site address")
    parser.add_argument("--pages-branch", action="store_true",
                        help="print only the branch the site is published to")
    args = parser.parse_args(argv)
    config = yaml.safe_load((Path(args.book) / "_config.yml").read_text()) or {}
    branch = pages_branch(config_pages_branch(config))
    if args.pages_branch:
        print(branch)
        return 0
    repository = config.get("repository") or {}
    repo, note = find_repository(cwd=args.book, override_url=repository.get("url") or "",
                                 override_branch=repository.get("branch") or "")
    base = site_address(repo, (config.get("html") or {}).get("baseurl") or "")
    if args.baseurl:
        print(base)
    else:
        print(note)
        print(f"site address: {base or '(none)'}")
        print(f"published to branch: {branch}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
