"""attention_book: the book's build, as one Sphinx extension (_config.yml, ``extra_extensions``).

This is not what a reader installs. The reader's package, :mod:`attention_scaling`, runs in a
student's kernel; this one runs only where the book is built (``-e ./booktools`` in
requirements.txt). The reader's package never imports it (tests/package/test_two_packages.py), and
the extension imports no book's package: what is one book's own (its description, licences,
link-preview picture, printable sheets, chapters as notebooks) is set in that book's
_config.yml (``sphinx.config``, the settings :data:`CONFIG` declares), so the same extension
builds another book, with no package of its own (tests/sites/tiny, tests/book/test_sites.py).

- :mod:`attention_book.launch` – launch buttons and the site's address, found from where
  the book is built (``python -m attention_book.launch``);
- :mod:`attention_book.chapter_notebooks` – the chapters written again as plain notebooks,
  and the Colab copies (``python -m attention_book.chapter_notebooks``);
- :mod:`attention_book.sphinx_ext` – the build's own fixes (thebe, citation roles, kernel
  notes), explorers' pictures as files, maths typeset in Node, the site's pages and tags;
- :mod:`attention_book.pagespeed`, :mod:`attention_book.publishing` – what the finished
  pages get (one stylesheet, lazy images; build stamp, preview, 404 and landing pages);
- :mod:`attention_book.folds` – the ``deeper-start`` / ``deeper-end`` directives;
- :mod:`attention_book.live` – the ``{live}`` role: a glued number the page keeps bound to an
  explorer's state;
- :mod:`attention_book.handout` – the printed session handouts (``make handout``);
- :mod:`attention_book.edition` – the learner's and the instructor's editions of one source.

:func:`setup` wires every event handler from one table, :data:`HOOKS`.
"""

from __future__ import annotations

import importlib

#: The settings the extension adds, set in a book's _config.yml under ``sphinx.config``:
#: (name, default, types). The defaults are neutral: a book that sets none gets pages that
#: name only its own title, a preview card with its title alone, and no sheets.
CONFIG = (
    # The branch the site is published to (attention_book.launch.pages_branch).
    ("pages_branch", "", [str]),
    # What pages with no words of their own (indices, search, 404, the site root) say the
    # book is about, in their description tags; "" is the book's title.
    ("book_description", "", [str]),
    # The licences every page's footer names after the build stamp: [what, licence, URL] rows.
    ("book_licences", [], [list, tuple]),
    # Where the link-preview card goes in the site, its second line (matplotlib mathtext),
    # and the picture on it: a function, module:function, returning (PNG bytes, alt text)
    # or an object whose frame() does. With none, the card holds the title and subtitle.
    ("book_preview_path", "_static/social/preview.png", [str]),
    ("book_preview_subtitle", "", [str]),
    ("book_preview_figure", "", [str]),
    # A function, module:function, called as f(outdir, footer=html) when the build ends,
    # that writes printable pages into the site and returns their paths; "" for none.
    ("book_sheets", "", [str]),
    # The same, for pages only the instructor's edition has (the session's slides), called as
    # f(outdir, footer=html) when that edition is built.
    ("book_instructor_sheets", "", [str]),
    # Whether the chapters (book/*.md) are written again as notebooks, with an install cell
    # for this repository's package (attention_book.chapter_notebooks).
    ("book_chapter_notebooks", False, [bool]),
    # The two editions (attention_book.edition): documents only the instructor's edition has,
    # and the exercises whose solutions the learner's edition keeps back.
    ("book_instructor_pages", [], [list, tuple]),
    ("book_withheld_solutions", [], [list, tuple]),
)

#: Every handler the book connects: (event, handler, priority) rows, in the order they run.
#: A handler is named ``module.function`` within this package and imported when Sphinx sets
#: the extension up, not when the package is imported (``python -m attention_book.launch``
#: needs none of them). Sphinx calls an event's handlers by priority (default 500), and
#: those of equal priority in the order they were connected: this table's order, after the
#: extensions _config.yml lists before ``attention_book`` (sphinx-sitemap, sphinxext-opengraph).
HOOKS = (
    # config-inited
    # Before sphinx_ext._configure_publishing copies html_baseurl into the link-preview
    # settings, and before the theme reads its options at builder-inited.
    ("config-inited", "launch._configure", 200),
    # PAGES_BRANCH overrides pages_branch; Sphinx then sees the change and rewrites pages.
    ("config-inited", "chapter_notebooks._pages_branch", 500),
    # Reads html_baseurl, which launch._configure (200) has set.
    ("config-inited", "sphinx_ext._configure_publishing", 500),
    # After sphinx-external-toc (900) has read _toc.yml into the site map: the learner's
    # edition takes the instructor pages out of it before anything is read.
    ("config-inited", "edition._configure", 950),
    # builder-inited
    # Any time: removes a sitemap an earlier build left with another address.
    ("builder-inited", "launch._drop_stale_sitemap", 500),
    # Any time before reading: pages are read in parallel and written serially.
    ("builder-inited", "chapter_notebooks._parallel_reading_serial_writing", 500),
    # Any time: draws the link-preview image into the static files.
    ("builder-inited", "sphinx_ext._make_preview", 500),
    # doctree-read
    # After myst-nb has written the page's executed notebook (while parsing it): the cached
    # outputs go back into it, so the notebook readers download has them.
    ("doctree-read", "launch._executed_notebook_keeps_outputs", 500),
    # env-updated
    # Any time: every page is written, so its footer (commit, date) is never stale.
    ("env-updated", "sphinx_ext._write_every_page", 500),
    # doctree-resolved
    # Default: marks the exercises that need a kernel, for launch._kernel_notes_for_launch_menu.
    ("doctree-resolved", "sphinx_ext._mark_kernel_exercises", 500),
    # Default: the printable answer spaces.
    ("doctree-resolved", "sphinx_ext._answer_spaces", 500),
    # After _mark_kernel_exercises (500) has written the notes it words for the launch menu.
    ("doctree-resolved", "launch._kernel_notes_for_launch_menu", 700),
    # After myst-nb's glue (default 500) and the kernel notes (700): the notebook is written
    # from the page as the reader sees it.
    ("doctree-resolved", "chapter_notebooks._generate", 900),
    # After sphinx-thebe has added its config block (default 500).
    ("doctree-resolved", "sphinx_ext._drop_thebe_config", 900),
    # After the chapter's notebook is written (900), which keeps every solution: the
    # learner's page holds back the ones the lesson plan asks in class.
    ("doctree-resolved", "edition._withhold_solutions", 950),
    # env-check-consistency
    # Any time: a withheld label that names no solution is a warning (a strict build fails).
    ("env-check-consistency", "edition._check_withheld", 500),
    # html-page-context
    # Before the theme's download menu reads ipynb_source (sphinx-book-theme, 501).
    ("html-page-context", "launch._notebook_download_without_launch_menu", 500),
    # Default: sphinx-thebe's assets leave the page's lists before they are rendered.
    ("html-page-context", "sphinx_ext._drop_thebe_assets", 500),
    # Default: the bibliography's ARIA roles.
    ("html-page-context", "sphinx_ext._fix_citation_roles", 500),
    # After sphinxext-opengraph (default 500) has written its tags.
    ("html-page-context", "sphinx_ext._add_social_tags", 600),
    # After sphinx-book-theme's launch buttons (501): no Colab on pages built from .md.
    ("html-page-context", "sphinx_ext._colab_only_for_notebooks", 900),
    # After _colab_only_for_notebooks (900): a chapter's buttons open its generated
    # notebook, which Colab can open.
    ("html-page-context", "chapter_notebooks._launch_buttons_open_notebooks", 950),
    # build-finished
    # Before sphinx-external-toc writes a bare redirect to index.html (500): the 404 page,
    # the landing page and the printable sheets.
    ("build-finished", "sphinx_ext._write_site_pages", 400),
    # Default: the Colab copies of the chapters and labs (_launch/).
    ("build-finished", "chapter_notebooks._write_launch_copies", 500),
    # Default: the explorers' no-script pictures out of the pages into files.
    ("build-finished", "sphinx_ext._externalize_pictures", 500),
    # After the Colab copies (500): the learner's edition drops what an instructor's build left.
    ("build-finished", "edition._drop_stale_pages", 550),
    # After the pages written at 400 and the pictures (500): maths typeset, pages made light.
    ("build-finished", "sphinx_ext._finish_pages", 800),
)


def handler(name: str):
    """The function a row of :data:`HOOKS` names (``module.function`` in this package)."""
    module, function = name.split(".")
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)


def setup(app):
    from . import folds, live, proof_index

    # The book's own settings (_config.yml, sphinx.config): every page shows them.
    for name, default, types in CONFIG:
        app.add_config_value(name, default, "html", types)
    # "Going deeper" folds (attention_book.folds).
    app.add_node(folds.deeper, html=(folds._visit_deeper_html, folds._depart_deeper_html),
                 text=(folds._visit_deeper_text, folds._depart_deeper_text))
    app.add_node(folds._marker)
    app.add_directive("deeper-start", folds.DeeperStart)
    app.add_directive("deeper-end", folds.DeeperEnd)
    app.add_transform(folds.FoldBetweenMarkers)
    # Numbers in the prose bound to an explorer (attention_book.live).
    app.add_node(live.live_number, html=(live.visit_live_html, live.depart_live_html),
                 text=(live.visit_live_text, live.depart_live_text))
    app.add_role("live", live.LiveRole())
    # A readable index of the theorems (attention_book.proof_index), when sphinx-proof is loaded.
    if isinstance(getattr(app, "extensions", None), dict) and "sphinx_proof" in app.extensions:
        app.add_index_to_domain("prf", proof_index.TheoremIndex)
    for event, name, priority in HOOKS:
        app.connect(event, handler(name), priority=priority)
    # Pages are read (and executed) in parallel; chapter_notebooks keeps what it generates
    # in this process until build-finished, so pages are written one at a time.
    return {"parallel_read_safe": True, "parallel_write_safe": False}
