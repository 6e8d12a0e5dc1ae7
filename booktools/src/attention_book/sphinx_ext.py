"""The book's own build steps, wired by :data:`attention_book.HOOKS` (the one extension in _config.yml).

Jupyter Book 1.x always loads sphinx-thebe, which declares ``THEBE_JS_URL`` twice on
every page (a console error), points at a CDN, and adds a config block. The book runs
code in Binder and in its own static players instead, so thebe's assets are removed.
It also corrects the ARIA roles of bibliography entries (see ``_fix_citation_roles``).

Publishing (see :mod:`attention_book.publishing`): the base URL comes from one place,
``html.baseurl`` in _config.yml (Sphinx's ``html_baseurl``), and feeds the sitemap, the
Open Graph tags and the 404 page. Every page's footer names the commit and date the book
was built from, and every build writes every page so that footer and the sitemap (which
lists the pages written) are never stale. The social preview image is drawn by the
build (the book's title and subtitle, over a picture the book may name), and the build
writes its own 404 page and landing page.

What is the book's own (its description, the licences its footer names, the preview's
subtitle and picture, printable sheets) is configuration, ``sphinx.config`` in _config.yml,
declared with neutral defaults by :func:`attention_book.setup` (:data:`attention_book.CONFIG`):
this package imports no book's package, and builds a book that has none.

Explorers' pictures (see ``externalize_pictures``): after the build, the picture each
explorer shows a reader without scripts is written once to a content-addressed file under
``_images/asb/`` and the page refers to it by a relative URL inside ``<noscript>``, so a
reader with scripts never loads it.
"""

from __future__ import annotations

import base64
import hashlib
import html
import importlib
import importlib.util
import json
import os
import re
import shutil
import sys
from pathlib import Path

from docutils import nodes
from sphinx.errors import ConfigError, SphinxError
from sphinx.util import logging

from . import publishing
from .pagespeed import (  # noqa: F401  (the page-speed steps, re-exported for the tests)
    THEME_CSS, bundle_stylesheets, lazy_images, speed_up_site, trim_theme_assets, trim_theme_css, unused_css_removed)

logger = logging.getLogger(__name__)


def _is_thebe(asset) -> bool:
    name = str(getattr(asset, "filename", "") or "")
    body = str(getattr(asset, "attributes", {}).get("body", "") or "")
    return "thebe" in name or "THEBE_JS_URL" in body


def _drop_thebe_assets(app, pagename, templatename, context, doctree):
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [a for a in context[key] if not _is_thebe(a)]


def _drop_thebe_config(app, doctree, docname):
    for node in list(doctree.findall(nodes.raw)):
        if "x-thebe-config" in node.astext():
            node.parent.remove(node)


def _fix_citation_roles(app, pagename, templatename, context, doctree):
    """Bibliography entries are marked role="doc-biblioentry" inside a role="list"
    container; axe-core flags that pairing as critical (a list needs listitem children,
    and doc-biblioentry is deprecated). Listitems are what the markup means."""
    body = context.get("body")
    if body and 'role="doc-biblioentry"' in body:
        context["body"] = body.replace('role="doc-biblioentry"', 'role="listitem"')


# --- publishing -------------------------------------------------------------------------


def _is_html(app) -> bool:
    return getattr(app.builder, "format", "") == "html"


def _configure_publishing(app, config):
    """Derive every URL setting from html_baseurl, and put the build stamp in the footer."""
    base = config.html_baseurl or ""
    if base and not base.endswith("/"):
        base += "/"  # urljoin would otherwise drop the last path segment
    config.html_baseurl = base
    config.ogp_site_url = base
    config.ogp_image = _preview_path(config)
    config.ogp_site_name = _book_title(config)
    for name in ("book_preview_figure", "book_sheets", "book_instructor_sheets"):
        _function_spec(config, name)  # a mistyped setting fails now, not at the end of the build
    stamp = publishing.build_stamp(app.srcdir)
    app.asb_build_stamp = stamp
    options = dict(config.html_theme_options or {})
    options["extra_footer"] = _footer(app)
    config.html_theme_options = options


def _footer(app) -> str:
    """The build stamp and the licences the book names (``book_licences``)."""
    try:
        return publishing.footer_html(app.asb_build_stamp, app.config.book_licences)
    except ValueError as e:
        raise ConfigError(str(e)) from None


def _preview_path(config) -> str:
    """Where the link-preview card goes, relative to the site root (``book_preview_path``)."""
    path = (config.book_preview_path or "").strip().lstrip("/")
    if not path.endswith(".png") or ".." in path.split("/"):
        raise ConfigError(f"book_preview_path must be a .png path inside the site, got {config.book_preview_path!r}")
    return path


def _function_spec(config, name: str) -> tuple[str, str] | None:
    """(module, function) of a ``module:function`` setting, None when it is empty."""
    spec = (getattr(config, name) or "").strip()
    if not spec:
        return None
    module, _, function = spec.partition(":")
    if not (module and function.isidentifier() and all(p.isidentifier() for p in module.split("."))):
        raise ConfigError(f"{name} must name a function as module:function, got {spec!r}")
    return module, function


def _configured_function(config, name: str):
    """The function a ``module:function`` setting names (imported now), or None."""
    spec = _function_spec(config, name)
    if spec is None:
        return None
    try:
        return getattr(importlib.import_module(spec[0]), spec[1])
    except (ImportError, AttributeError) as e:
        raise ConfigError(f"{name}: cannot import {spec[0]}:{spec[1]} ({e})") from None


def _package_key(app) -> str:
    """The preview is drawn by this package (publishing), from the package of the book's
    picture when it names one (``book_preview_figure``), with the book's words."""
    sources = sorted(Path(__file__).parent.glob("*.py"))
    spec = _function_spec(app.config, "book_preview_figure")
    found = importlib.util.find_spec(spec[0].split(".")[0]) if spec else None
    if found is not None and found.submodule_search_locations:  # a package: its modules
        sources += [p for d in found.submodule_search_locations for p in sorted(Path(d).glob("*.py"))]
    elif found is not None and found.origin:  # a module of its own
        sources.append(Path(found.origin))
    digest = hashlib.sha256()
    for path in sources:
        digest.update(f"{path.parent.name}/{path.name}".encode() + path.read_bytes())
    config = app.config
    digest.update(f"{_book_title(config)}|{config.html_baseurl}|{config.book_preview_subtitle}|"
                  f"{config.book_preview_figure}".encode())
    return digest.hexdigest()


def _preview_figure(app) -> tuple[bytes, str] | None:
    """The picture of the preview card, from ``book_preview_figure``: a function that
    returns (PNG bytes, alt text), or an object whose ``frame()`` returns them first (an
    explorer at its default setting). None when the book names none."""
    make = _configured_function(app.config, "book_preview_figure")
    if make is None:
        return None
    made = make()
    if hasattr(made, "frame"):
        made = made.frame()
    png, alt = made[0], made[1]
    if not (isinstance(png, bytes) and isinstance(alt, str)):
        raise ConfigError(f"book_preview_figure ({app.config.book_preview_figure}) must give (PNG bytes, alt text)")
    return png, alt


def _make_preview(app):
    """Draw the social preview card once per package version (cached with the doctrees)."""
    if not _is_html(app):
        return
    cache = Path(app.doctreedir) / "social-preview"
    png, key_file, alt_file = cache / "card.png", cache / "key", cache / "alt.txt"
    key = _package_key(app)
    if not (png.is_file() and key_file.is_file() and key_file.read_text() == key and alt_file.is_file()):
        base = app.config.html_baseurl
        site_text = re.sub(r"^https?://", "", base).rstrip("/") if base else ""
        alt = publishing.preview_card(
            png,
            title=_book_title(app.config),
            subtitle=app.config.book_preview_subtitle or "",
            site_text=site_text,
            figure=_preview_figure(app),
        )
        alt_file.write_text(alt, encoding="utf-8")
        key_file.write_text(key)
    target = Path(app.outdir) / _preview_path(app.config)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(png, target)
    app.config.ogp_image_alt = alt_file.read_text(encoding="utf-8")


def _write_every_page(app, env):
    """Every page carries the build stamp, and sphinx-sitemap lists only the pages written
    in this build, so an incremental build rewrites them all (executions stay cached)."""
    if _is_html(app):
        return sorted(env.found_docs)
    return None


_META = re.compile(r'<meta (?:property|name)="(og:[a-z:]+)" content="([^"]*)"')


def _book_title(config) -> str:
    """Jupyter Book puts _config.yml's title in html_title (Sphinx's project stays unset)."""
    return config.html_title or config.project


def _book_description(config) -> str:
    """What pages whose own first words are not a description say (indices, search, 404,
    the root): ``book_description`` in _config.yml, else the book's title."""
    return " ".join((config.book_description or "").split()) or _book_title(config)


_DESCRIPTION = re.compile(r'(<meta (?:property|name)="(?:og:description|description)" content=")([^"]*)(")')


def _plain_descriptions(metatags: str) -> str:
    """sphinxext-opengraph takes a page's first words as its description, TeX and all."""
    return _DESCRIPTION.sub(
        lambda m: m.group(1) + html.escape(publishing.plain_text_maths(html.unescape(m.group(2)))) + m.group(3),
        metatags,
    )


def with_description(head: str, description: str) -> str:
    """``head`` (a page's meta tags, or the page itself) with a ``<meta name="description">``
    holding ``description`` when it has none (before ``</head>`` when there is one)."""
    if not isinstance(description, str) or not description.strip():
        raise ValueError(f"description must be a non-empty string, got {description!r}")
    if re.search(r'<meta\b[^>]*\bname="description"', head):
        return head
    tag = f'<meta name="description" content="{html.escape(" ".join(description.split()), quote=True)}" />\n'
    return head.replace("</head>", tag + "</head>", 1) if "</head>" in head else head + tag


def _page_url(app, pagename) -> str:
    return app.config.html_baseurl + app.builder.get_target_uri(pagename)


def _add_social_tags(app, pagename, templatename, context, doctree):
    """sphinxext-opengraph tags pages that have a doctree; this adds the same tags to the
    generated ones (index, search, proof index) and Twitter's tags to every page."""
    if not _is_html(app):
        return
    if not app.config.html_baseurl:
        # No address, so no link-preview tags; a search engine still gets a description.
        context["metatags"] = with_description(_plain_descriptions(context.get("metatags", "")),
                                               _book_description(app.config))
        return
    metatags = _plain_descriptions(context.get("metatags", ""))
    found = {k: html.unescape(v) for k, v in _META.findall(metatags)}
    title = re.sub(r"<[^>]+>", "", context.get("title") or _book_title(app.config))
    image = app.config.html_baseurl + _preview_path(app.config)
    alt = app.config.ogp_image_alt or _book_title(app.config)
    has_og = "og:title" in found
    context["metatags"] = metatags + publishing.social_tags(
        title=found.get("og:title", title),
        description=found.get("og:description") or _book_description(app.config),
        url=found.get("og:url", _page_url(app, pagename)),
        image_url=found.get("og:image", image),
        image_alt=found.get("og:image:alt", alt),
        site_name=_book_title(app.config),
        og=not has_og,
    )


def _toc_pages(app) -> list[tuple[str, str]]:
    """(path from the site root, numbered title) for every document, in reading order."""
    from .proof_index import reading_order

    env, pages = app.env, []
    for doc in reading_order(env):
        if doc in env.titles:
            number = env.toc_secnumbers.get(doc, {}).get("")
            prefix = ".".join(map(str, number)) + ". " if number else ""
            pages.append((app.builder.get_target_uri(doc), prefix + env.titles[doc].astext()))
    return pages


def _write_site_pages(app, exception):
    """The 404 page and the landing page (before sphinx-external-toc's plain redirect), and the
    book's printable sheets, when it names a function that writes them (``book_sheets``)."""
    if exception is not None or not _is_html(app):
        return
    out = Path(app.outdir)
    base = app.config.html_baseurl
    pages = _toc_pages(app)
    image = base + _preview_path(app.config)
    alt = app.config.ogp_image_alt or _book_title(app.config)
    title = _book_title(app.config)
    description = _book_description(app.config)
    icon = Path(app.confdir) / (app.config.html_favicon or "")
    favicon = icon.read_bytes() if icon.is_file() else b'<svg xmlns="http://www.w3.org/2000/svg"/>'
    tags_404 = publishing.social_tags(title=f"Page not found · {title}", description=description,
                                      url=base + "404.html", image_url=image, image_alt=alt, site_name=title)
    (out / "404.html").write_text(
        publishing.not_found_page(book_title=title, baseurl=base, pages=pages, favicon_svg=favicon,
                                  footer=_footer(app), tags=tags_404),
        encoding="utf-8",
    )
    first_path, first_title = pages[0]
    tags_root = publishing.social_tags(title=title, description=description, url=base,
                                       image_url=image, image_alt=alt, site_name=title)
    (out / "index.html").write_text(
        publishing.landing_page(book_title=title, first_page=first_path, first_title=first_title,
                                canonical=base + first_path, tags=tags_root, icon=_favicon_url(app)),
        encoding="utf-8",
    )
    logger.info("attention_book: wrote 404.html and index.html for %s", base)
    _write_instructor_sheets(app, out, favicon)
    write_sheets = _configured_function(app.config, "book_sheets")
    if write_sheets is None:
        return
    # The function writes pages into the site and returns their paths (footer: the pages' own).
    sheets = [Path(p) for p in write_sheets(out, footer=_footer(app))]
    for sheet in sheets:
        _tag_sheet(app, sheet, favicon)
    logger.info("attention_book: wrote the printable sheets %s", ", ".join(p.name for p in sheets))


#: What the instructor's edition wrote besides its pages (one path a line, from the site root):
#: a learner's build in the same folder removes them (edition._drop_stale_pages).
INSTRUCTOR_FILES = ".instructor-files"


def _write_instructor_sheets(app, out: Path, favicon: bytes) -> None:
    """The instructor's edition only: the pages ``book_instructor_sheets`` writes (the
    session's slides), tagged as the printable sheets are, and listed in :data:`INSTRUCTOR_FILES`."""
    from .edition import edition

    write = _configured_function(app.config, "book_instructor_sheets")
    if write is None or edition(app) != "instructor":
        return
    paths = [Path(p) for p in write(out, footer=_footer(app))]
    for path in paths:
        if path.suffix == ".html":  # a page (the rest are its script and stylesheet)
            _tag_sheet(app, path, favicon)
    (out / INSTRUCTOR_FILES).write_text("".join(p.relative_to(out).as_posix() + "\n" for p in paths),
                                        encoding="utf-8")
    logger.info("attention_book: wrote the instructor's %s", ", ".join(p.relative_to(out).as_posix() for p in paths))


def _favicon_url(app) -> str:
    """The book's icon from the site root: Sphinx copies html_favicon into _static/ (a URL
    stays as it is); "" when the book has none."""
    favicon = (app.config.html_favicon or "").strip()
    if not favicon or "://" in favicon:
        return favicon
    return f"_static/{Path(favicon).name}"


def _tag_sheet(app, sheet: Path, favicon: bytes) -> None:
    """A printable sheet is a page of the published site like any other: linked from the
    instructor page, shared by instructors with each other. It gets a description and the
    book's icon (inline, as on the 404 page: a sheet loads no files), and, when the site
    has an address, link-preview tags and a place in the sitemap (sphinx-sitemap writes
    the sitemap in its own build-finished handler, at the default priority 500, after
    this one at 400)."""
    text = sheet.read_text(encoding="utf-8")
    found = re.search(r"<title>(.*?)</title>", text, re.S)
    title = html.unescape(found.group(1)) if found else "A sheet"
    description = f"{title}, to print for a class. {_book_description(app.config)}"
    base = app.config.html_baseurl
    path = sheet.relative_to(app.outdir).as_posix()
    tags = ""
    if base:
        tags = publishing.social_tags(title=title, description=description, url=base + path,
                                      image_url=base + _preview_path(app.config),
                                      image_alt=app.config.ogp_image_alt or _book_title(app.config),
                                      site_name=_book_title(app.config))
        links = getattr(app.env.app, "sitemap_links", None)
        if links is not None:
            links.put((path, None))
    if 'rel="icon"' not in text:
        tags += f'<link rel="icon" href="{publishing._favicon_data_uri(favicon)}" />\n'
    text = with_description(text.replace("</head>", tags + "</head>", 1), description)
    sheet.write_text(text, encoding="utf-8")


def _colab_only_for_notebooks(app, pagename, templatename, context, doctree):
    """Colab opens only .ipynb files: drop the theme's Colab button (which would open the .md
    source) from pages built from .md. attention_book.chapter_notebooks then adds one that
    opens the chapter's generated notebook (its handler runs after this one: attention_book.HOOKS)."""
    source = str(context.get("sourcename", ""))
    if source.endswith(".ipynb") or source.endswith(".ipynb.txt"):
        return
    for button in context.get("header_buttons", []):
        if isinstance(button, dict) and isinstance(button.get("buttons"), list):
            button["buttons"] = [b for b in button["buttons"] if "colab" not in str(b.get("url", ""))]


#: Class an exercise carries (``:class: needs-kernel``) when it asks for code to be run.
NEEDS_KERNEL = "needs-kernel"
KERNEL_NOTE = ("This exercise runs code, which the static page cannot. "
               "Run it in Jupyter with this book's package installed.")  # attention_book.launch words it for the menu


def _mark_kernel_exercises(app, doctree, docname):
    """Append a visible note to every exercise marked ``needs-kernel``.

    ``_static/launch.js`` adds the page's own launch links (copied from its launch menu)
    to the note; without JavaScript the note still says where to go.
    """
    from docutils import nodes

    for node in doctree.findall(nodes.Element):
        if NEEDS_KERNEL in node.get("classes", []) and "exercise" in node.get("classes", []):
            note = nodes.paragraph(classes=["asb-needs-kernel"])
            note += nodes.strong(text="Needs a live kernel. ")
            note += nodes.Text(KERNEL_NOTE)
            node += note



# --- a lab's answer spaces --------------------------------------------------------------

#: A lab's markdown cell that starts with this (in bold) is where the student writes a
#: prediction: in a notebook they edit the cell, on the web page it becomes a box to write in.
PREDICTION_LEAD = "Your prediction:"
PREDICTION_HINT = "Write it here before you open the check's output below."


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


def _answer_spaces(app, doctree, docname):
    """Turn each "**Your prediction:** ..." paragraph into a labelled text box.

    On the static page (and printed) the box is the space to answer; the check's output
    and the answer stay folded below it (tags ``hide-output`` and ``<details
    class="asb-answer">``), so a lab page works as a worksheet.
    """
    counts: dict[str, int] = {}
    for para in list(doctree.findall(nodes.paragraph)):
        # myst-nb may start a notebook cell's paragraph with an empty text node
        lead = next((c for c in para.children if not (isinstance(c, nodes.Text) and not c.strip())), None)
        if isinstance(lead, nodes.strong) and lead.astext().strip() == PREDICTION_LEAD:
            # named after its section (the task's heading), so that a box keeps its id, and the
            # answers saved under it, when another task gains or loses a box
            section = next((a for a in _ancestors(para) if isinstance(a, nodes.section) and a.get("ids")), None)
            where = section["ids"][0] if section is not None else "page"
            counts[where] = counts.get(where, 0) + 1
            box = f"asb-prediction-{where}" + (f"-{counts[where]}" if counts[where] > 1 else "")
            para.replace_self(nodes.raw(
                "", f'<div class="asb-prediction"><label for="{box}">Your prediction</label>'
                    f'<textarea id="{box}" rows="3" placeholder="{html.escape(PREDICTION_HINT)}">'
                    "</textarea></div>", format="html"))

# --- explorers' pictures as files -------------------------------------------------------

#: Where the pictures go, relative to the output directory (one file per distinct PNG).
PICTURES_DIR = "_images/asb"

_PLAYER_DATA = re.compile(r'(<script type="application/json" class="asb-data">)(.*?)(</script>)', re.S)
# the picture an explorer shows without scripts (class and src in either order)
_PICTURE = re.compile(r'<img\b(?=[^>]*\sclass="[^"]*\basb-picture\b)[^>]*>')
_SRC = re.compile(r'(\ssrc=")([^"]*)(")')
_PLAYER_ID = re.compile(r'<div class="asb-player\b[^"]*"[^>]*?\sid="([^"]+)"')
_DATA_PREFIX = "data:image/png;base64,"


class MissingPictureError(SphinxError):
    category = "Explorer picture missing"


def _picture_file(outdir: Path, png: bytes) -> Path:
    """Write ``png`` once under its content hash (identical pictures share one file)."""
    target = outdir / PICTURES_DIR / f"{hashlib.sha256(png).hexdigest()[:16]}.png"
    if not (target.is_file() and target.read_bytes() == png):
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.part")
        partial.write_bytes(png)
        os.replace(partial, target)  # never a half-written file, even with parallel writers
    return target


def _rewrite_page(text: str, outdir: Path, here: Path) -> str:
    """``text`` with every inline picture of its explorers replaced by a file URL relative to ``here``."""

    def url(src: str) -> str:
        png = base64.b64decode(src.removeprefix(_DATA_PREFIX), validate=True)
        return Path(os.path.relpath(_picture_file(outdir, png), here)).as_posix()

    def image(m: re.Match) -> str:
        return _SRC.sub(lambda s: s.group(1) + (url(s.group(2)) if s.group(2).startswith(_DATA_PREFIX)
                                                 else s.group(2)) + s.group(3), m.group(0), count=1)

    return _PICTURE.sub(image, text)


def _players(text: str, here: Path) -> list[tuple[str, set]]:
    """(id, set of files it refers to) for each explorer of a rewritten page. An explorer's
    picture is between the previous explorer's data block and its own."""
    out, start = [], 0
    for m in _PLAYER_DATA.finditer(text):
        head = text[start:m.start()]
        start = m.end()
        srcs = [_SRC.search(tag).group(2) for tag in _PICTURE.findall(head) if _SRC.search(tag)]
        ids = _PLAYER_ID.findall(head)
        files = {(here / e).resolve() for e in srcs if not e.startswith("data:")}
        out.append((ids[-1] if ids else f"player {len(out) + 1}", files))
    return out


def externalize_pictures(outdir) -> dict:
    """Move the picture each explorer shows without scripts out of the HTML pages under
    ``outdir`` into files.

    Each inline PNG (``<img class="asb-picture">``, as ``Explorable.static_html`` writes
    it inside ``<noscript>``) becomes a file under ``PICTURES_DIR`` named by its content
    hash, referred to by a URL relative to the page (so it works served and from
    file://): a reader with scripts never loads it. Pages without explorers are not
    touched, and a page already rewritten (an incremental build) stays as it is: running
    this twice changes nothing. Files that no page refers to any more are removed.

    Returns ``{page: [{"id", "files", "bytes"}, ...]}`` for every page with explorers.
    Raises ``MissingPictureError`` naming every page that refers to a missing file.
    """
    outdir = Path(outdir)
    report, used, problems = {}, set(), []
    for page in sorted(outdir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if 'class="asb-data"' not in text:
            continue
        name = page.relative_to(outdir).as_posix()
        new = _rewrite_page(text, outdir, page.parent)
        if new != text:
            page.write_text(new, encoding="utf-8")
        report[name] = []
        for pid, files in _players(new, page.parent):
            missing = sorted(f.name for f in files if not f.is_file())
            if missing:
                problems.append(f"{name}: {pid} refers to missing picture files {', '.join(missing[:3])}")
                continue
            used |= files
            report[name].append({"id": pid, "files": len(files), "bytes": sum(f.stat().st_size for f in files)})
    if problems:
        raise MissingPictureError("\n".join(problems))
    pictures = outdir / PICTURES_DIR
    if pictures.is_dir():
        for stale in pictures.iterdir():
            if stale.resolve() not in used:
                stale.unlink()
    return report


def _externalize_pictures(app, exception):
    if exception is not None or not _is_html(app):
        return
    for page, players in externalize_pictures(app.outdir).items():
        for p in players:
            logger.info("attention_book: %s %s: its picture in %d file, %d bytes",
                        page, p["id"], p["files"], p["bytes"])


# --- maths typeset at build time -------------------------------------------------------

#: The Node tool (MathJax 3.2.2 from npm, pinned by its package-lock.json), shipped in this
#: package as data, and the shared stylesheet it writes, relative to the output directory.
MATHS_TOOL = Path(__file__).resolve().parent / "mathjax_prerender"
MATHS_CSS = "_static/maths.css"
#: Where the stylesheet finds MathJax's CHTML fonts (served from _extra/), relative to it.
MATHS_FONT_URL = "mathjax/es5/output/chtml/fonts/woff-v2"
#: Size of the maths relative to the text: what the browser's MathJax measured on every
#: formula of the book (it matches ex-heights with the theme's system-ui font).
MATHS_SCALE = 1.273

# What the browser's MathJax would typeset: \(..\) inline, \[..\] and $$..$$ displayed, in
# text outside the elements it skips (skipHtmlTags); comments are left alone.
_SKIP_OR_TAG = re.compile(r"<!--.*?-->|<(script|style|pre|code|textarea|noscript)\b[^>]*>.*?</\1\s*>|<[^>]*>",
                          re.S | re.I)
_TEX = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]|\$\$(.+?)\$\$", re.S)
_MATHJAX_SCRIPTS = re.compile(r'<script>window\.MathJax = .*?</script>\s*|<script\b[^>]*\bsrc="[^"]*mathjax/es5/'
                              r'tex-chtml\.js[^"]*"[^>]*></script>\s*', re.S)
_QUIZ_DATA = re.compile(r'(<script type="application/json" class="asb-quiz-data">)(.*?)(</script>)', re.S)


class MathsError(SphinxError):
    category = "Maths that MathJax cannot typeset"


def _tex_in_text(text: str):
    """(start, end, tex, display) of every formula in one run of HTML text (entities decoded)."""
    for m in _TEX.finditer(text):
        tex = m.group(1) if m.group(1) is not None else (m.group(2) if m.group(2) is not None else m.group(3))
        yield m.start(), m.end(), html.unescape(tex), m.group(1) is None


def _page_formulas(text: str):
    """(start, end, tex, display) of every formula the browser's MathJax would typeset in a page."""
    pos = 0
    for tag in _SKIP_OR_TAG.finditer(text + "<>"):
        for start, end, tex, display in _tex_in_text(text[pos:tag.start()]):
            yield pos + start, pos + end, tex, display
        pos = tag.end()


def _quiz_formulas(why: str):
    """(start, end, tex, display) of the formulas in a quiz's plain-text feedback."""
    for m in _TEX.finditer(why):
        tex = m.group(1) if m.group(1) is not None else (m.group(2) if m.group(2) is not None else m.group(3))
        yield m.start(), m.end(), tex, m.group(1) is None


_MATH_OPEN = '<span class="math notranslate nohighlight">'
# Punctuation that must not start a line after an inline formula ("$k_j$." wrapping as "." alone).
_TRAILING = re.compile(r"(</span>)?([.,;:!?)\]\u2019\u201d]+)")


def _splice(text: str, found, rendered: dict, escape=None) -> str:
    """``text`` with each formula replaced by its typeset HTML. An inline formula followed by
    punctuation is kept on one line with it (``span.asb-nobreak``), with Sphinx's math span
    inside when the formula has one."""
    esc = escape or (lambda x: x)
    out, pos = [], 0
    for start, end, tex, display in found:
        before, html_ = text[pos:start], rendered[(tex, display)]
        tail = None if display else _TRAILING.match(text, end)
        if tail and (tail.group(1) is None) == (not before.endswith(_MATH_OPEN)):
            wrapped = before.endswith(_MATH_OPEN)
            out.append(esc(before[:-len(_MATH_OPEN)] if wrapped else before))
            out.append('<span class="asb-nobreak">' + (_MATH_OPEN if wrapped else "") + html_
                       + ("</span>" if wrapped else "") + esc(tail.group(2)) + "</span>")
            pos = tail.end()
            continue
        out.append(esc(before))
        out.append(html_)
        pos = end
    out.append(esc(text[pos:]))
    return "".join(out)


def _ensure_mathjax_node(node_dir: Path) -> Path | None:
    """node_modules with mathjax-full as pinned by the tool's package-lock.json, installed
    with ``npm ci`` into ``node_dir`` (once per lockfile). None without Node.js and npm."""
    lock = (MATHS_TOOL / "package-lock.json").read_bytes()
    stamp = node_dir / "lock.sha256"
    modules = node_dir / "node_modules"
    digest = hashlib.sha256(lock).hexdigest()
    if (modules / "mathjax-full" / "package.json").is_file() and stamp.is_file() and stamp.read_text() == digest:
        return modules
    if not (shutil.which("node") and shutil.which("npm")):
        return None
    import subprocess

    node_dir.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(MATHS_TOOL / name, node_dir / name)
    logger.info("attention_book: installing MathJax for Node into %s (npm ci, once)", node_dir)
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=node_dir,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise MathsError(f"npm ci in {node_dir} failed: {done.stderr.strip()[-2000:]}")
    stamp.write_text(digest)
    return modules


#: Typeset results kept beside MathJax's node_modules, the newest few: a rebuild whose pages
#: hold the same formulas (every warm rebuild) starts no Node.
TYPESET_CACHE, TYPESET_KEEP = "typeset-cache", 4


def _typeset(items: list, modules: Path) -> dict:
    """Run the Node tool over ``items`` [(tex, display)]: {"html": [...], "css": ..., "errors": [...]}.

    A result without errors is kept under ``modules/../typeset-cache``, named by the hash of the
    request, the tool's script and its lockfile, and reused for the same request."""
    import subprocess

    request = json.dumps({"items": items, "fontURL": MATHS_FONT_URL, "scale": MATHS_SCALE})
    key = hashlib.sha256(b"\0".join([request.encode(), (MATHS_TOOL / "render.js").read_bytes(),
                                      (MATHS_TOOL / "package-lock.json").read_bytes()])).hexdigest()
    cache = modules.parent / TYPESET_CACHE
    kept = cache / f"{key}.json"
    if kept.is_file():
        try:
            result = json.loads(kept.read_text(encoding="utf-8"))
            if len(result["html"]) == len(items) and not result["errors"]:
                os.utime(kept)
                return result
        except (ValueError, KeyError, TypeError):
            pass  # a damaged entry is typeset again and replaced
    done = subprocess.run(["node", str(MATHS_TOOL / "render.js")], input=request, capture_output=True,
                          text=True, env=dict(os.environ, NODE_PATH=str(modules)))
    if done.returncode != 0:
        raise MathsError(f"MathJax in Node failed: {done.stderr.strip()[-2000:]}")
    result = json.loads(done.stdout)
    if not result["errors"]:
        cache.mkdir(parents=True, exist_ok=True)
        partial = kept.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(done.stdout, encoding="utf-8")
        partial.replace(kept)
        for old in sorted(cache.glob("*.json"), key=lambda f: f.stat().st_mtime)[:-TYPESET_KEEP]:
            old.unlink(missing_ok=True)
    return result


def prerender_maths(outdir, node_dir=None) -> dict | None:
    """Typeset every page's maths once, at build time, so that readers run no MathJax.

    Every formula the browser's MathJax would have typeset (``\\(..\\)``, ``\\[..\\]``,
    ``$$..$$`` in the text of the HTML pages under ``outdir``) becomes MathJax 3.2.2's CHTML
    with its assistive MathML, made by Node (``attention_book/mathjax_prerender``). The quizzes'
    feedback, which quiz.js inserts when an answer is chosen, gets its HTML too (``whyHtml``
    in the quiz data). One stylesheet (``MATHS_CSS``, the fonts served from the site) serves
    every page; MathJax's script and its configuration leave the pages. Running it again
    changes nothing.

    Returns ``{"pages": n, "formulas": n, "distinct": n}``, or None when Node.js and npm
    are missing (the pages then keep MathJax, which typesets them in the browser). Raises
    MathsError naming the page of every formula with a TeX error.
    """
    outdir = Path(outdir)
    if not outdir.is_dir():
        raise ValueError(f"outdir must be a built site's folder, got {outdir}")
    modules = _ensure_mathjax_node(Path(node_dir) if node_dir else Path(sys.prefix) / "mathjax-node")
    if modules is None:
        logger.info("attention_book: no Node.js and npm, so the browser's MathJax typesets the maths")
        return None
    pages = _pages_with_maths(outdir)
    wanted = sorted({(tex, display) for text, found, quizzes in pages.values()
                     for f in found + [f for qz in quizzes for fs in qz for f in fs] for tex, display in [f[2:]]})
    result = _typeset([list(w) for w in wanted], modules) if wanted else {"html": [], "css": "", "errors": []}
    rendered = dict(zip(wanted, result["html"]))
    if result["errors"]:
        bad = {wanted[i]: message for i, message in result["errors"]}
        problems = [f"{page.relative_to(outdir)}: {message} in {tex!r}"
                    for page, (text, found, quizzes) in pages.items()
                    for tex, display in {f[2:] for f in found + [f for qz in quizzes for fs in qz for f in fs]}
                    for message in [bad.get((tex, display))] if message]
        raise MathsError("\n".join(sorted(problems)))
    css_path = outdir / MATHS_CSS
    version = _write_maths_css(css_path, result["css"])
    for page, (text, found, quizzes) in pages.items():
        new = _typeset_page(text, found, quizzes, rendered, Path(os.path.relpath(css_path, page.parent)).as_posix(),
                            version)
        if new != text:
            page.write_text(new, encoding="utf-8")
    return {"pages": len(pages), "formulas": sum(len(found) for _, found, _ in pages.values()),
            "distinct": len(wanted)}


def _pages_with_maths(outdir: Path) -> dict:
    """Every HTML page with maths (or MathJax's script, or the maths stylesheet) under
    ``outdir``: page -> (text, its formulas, its quizzes' feedback formulas)."""
    pages = {}
    for page in sorted(outdir.rglob("*.html")):
        if page.relative_to(outdir).parts[0] in ("_static", "_sources"):
            continue
        text = page.read_text(encoding="utf-8")
        found = list(_page_formulas(text))
        quizzes = []
        for m in _QUIZ_DATA.finditer(text):
            data = json.loads(m.group(2))  # feedback typeset before (whyHtml) stays as it is
            quizzes.append([] if "whyHtml" in data else [list(_quiz_formulas(w)) for w in data.get("why", [])])
        if found or any(q for qz in quizzes for q in qz) or _MATHJAX_SCRIPTS.search(text) or \
                MATHS_CSS in text:
            pages[page] = (text, found, quizzes)
    return pages


def _write_maths_css(css_path: Path, css: str) -> str:
    """Add MathJax's new rule blocks to the maths stylesheet; return its version (a hash).

    The rules of formulas typeset in an earlier run (pages it left as they were) stay: the
    stylesheet is the union of MathJax's rule blocks, old ones first."""
    old = css_path.read_text(encoding="utf-8").split("\n\n") if css_path.is_file() else []
    blocks = old + [b for b in css.strip().split("\n\n") if b and b not in set(old)]
    if blocks != old:
        css_path.parent.mkdir(parents=True, exist_ok=True)
        css_path.write_text("\n\n".join(blocks), encoding="utf-8")
    return hashlib.sha256(css_path.read_bytes() if css_path.is_file() else b"").hexdigest()[:8]  # none: no maths


def _typeset_page(text: str, found: list, quizzes: list, rendered: dict, href: str, version: str) -> str:
    """One page with its formulas and its quizzes' feedback typeset, MathJax's script gone and
    the maths stylesheet (``href``, at ``version``) linked where a formula is."""
    new = _splice(text, found, rendered)

    def quiz(m, it=iter(quizzes)):
        data, spans = json.loads(m.group(2)), next(it)
        if "whyHtml" in data:
            return m.group(0)
        data["whyHtml"] = [_splice(w, fs, rendered, escape=html.escape) for w, fs in zip(data["why"], spans)]
        return m.group(1) + json.dumps(data).replace("</", "<\\/") + m.group(3)

    new = _QUIZ_DATA.sub(quiz, new)
    new = _MATHJAX_SCRIPTS.sub("", new)
    new = re.sub(r'<link rel="stylesheet" href="[^"]*' + re.escape(MATHS_CSS) + r'[^"]*" />\n', "", new)
    if "<mjx-container" in new:
        new = new.replace("</head>", f'<link rel="stylesheet" href="{href}?v={version}" />\n</head>', 1)
    return new


def _finish_pages(app, exception):
    """Once every page is written: the maths typeset, then the page-speed steps
    (:func:`attention_book.pagespeed.speed_up_site`), which read the finished pages."""
    if exception is not None or not _is_html(app):
        return
    report = prerender_maths(app.outdir)
    if report:
        logger.info("attention_book: typeset %d formulas (%d distinct) on %d pages at build time",
                    report["formulas"], report["distinct"], report["pages"])
    speed = speed_up_site(app.outdir)
    if speed["theme_css"]:
        logger.info("attention_book: the theme's stylesheet without the rules no page can use: %d -> %d bytes",
                    speed["theme_css"]["before"], speed["theme_css"]["after"])
    logger.info("attention_book: %d pages link one stylesheet each (%d bundles, the largest %d bytes)",
                speed["bundles"]["pages"], speed["bundles"]["bundles"], speed["bundles"]["bytes"])
    if speed["icon_fonts"]:
        logger.info("attention_book: %d icon fonts cut to the %d icons the stylesheets draw: %d -> %d bytes",
                    speed["icon_fonts"]["files"], speed["icon_fonts"]["icons"],
                    speed["icon_fonts"]["before"], speed["icon_fonts"]["after"])
