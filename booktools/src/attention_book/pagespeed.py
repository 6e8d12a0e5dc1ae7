"""What makes the built pages open fast on a phone: the steps the build applies to every
finished page (Lighthouse in `make bench` measures them, benchmarks/bench.py).

- Images below the fold load lazily (:func:`lazy_images`), and every image keeps its room
  before it loads (:func:`sized_images`).
- The theme's assets a page does not use leave it, its head scripts are deferred, and the
  theme's script preloads go (:func:`trim_theme_assets`).
- The theme's stylesheet loses the rules no page can match (:func:`trim_theme_css`).
- The icon fonts keep only the icons the stylesheets draw (:func:`subset_icon_fonts`).
- A page's stylesheets are joined into one file, with the theme's ``@import`` inlined, and
  the tiny ``documentation_options.js`` is inlined (:func:`bundle_page_assets`): the
  first paint waits for one stylesheet instead of a dozen, one of them behind another.

:func:`speed_up_site` runs them in that order over a built site; the Sphinx extension
(:mod:`attention_book.sphinx_ext`) calls it when the build finishes, after the maths is
typeset. Each step is idempotent and leaves what a page shows as it was.
"""

from __future__ import annotations

import hashlib
import html as _html
import os
import re
from pathlib import Path


def site_pages(outdir) -> list[Path]:
    """Every HTML page of the built site under ``outdir`` (not the copies of sources and
    the static files)."""
    outdir = Path(outdir)
    if not outdir.is_dir():
        raise ValueError(f"outdir must be a built site's folder, got {outdir}")
    return sorted(p for p in outdir.rglob("*.html")
                  if p.relative_to(outdir).parts[0] not in ("_static", "_sources"))


def _rewrite(page: Path, change) -> None:
    """Apply ``change`` (text -> text) to ``page``; write it only when it changed."""
    text = page.read_text(encoding="utf-8")
    new = change(text)
    if new != text:
        page.write_text(new, encoding="utf-8")


# --- images below the fold loaded lazily -----------------------------------------------

_IMG = re.compile(r"<img\b[^>]*>")
_ARTICLE = '<article class="bd-article">'


def lazy_images(text: str) -> str:
    """``text`` (an HTML page) with the images of its article, except the first, marked
    ``loading="lazy"`` (and decoded off the main thread): a figure loads when the reader nears
    it, served or from file://. (An explorer's picture is inside <noscript>: a reader with
    scripts never loads it.) Idempotent."""
    start = text.find(_ARTICLE)
    if start < 0:
        return text
    seen = []

    def mark(m: re.Match) -> str:
        tag = m.group(0)
        seen.append(tag)
        if len(seen) == 1 or " loading=" in tag:
            return tag
        if tag.endswith("/>"):
            return tag[:-2].rstrip() + ' loading="lazy" decoding="async" />'
        return tag[:-1] + ' loading="lazy" decoding="async">'

    return text[:start] + _IMG.sub(mark, text[start:])


_SRC = re.compile(r'\bsrc="([^"]+)"')


def sized_images(text: str, page) -> str:
    """``text`` (the HTML of ``page``, a file of the built site) with every image of its article
    that has no ``width`` and ``height`` given the file's own size in pixels (the size it shows
    at, at most the column's width: book.css gives article images ``height: auto``). The page
    keeps room for a figure before it loads, so nothing below it moves when it does (a lazy
    image had no height until then). Images that are not files of the site stay as they are.
    Idempotent."""
    from PIL import Image

    start = text.find(_ARTICLE)
    if start < 0:
        return text

    def size(m: re.Match) -> str:
        tag = m.group(0)
        src = _SRC.search(tag)
        if " width=" in tag or " height=" in tag or not src or _EXTERNAL.match(src.group(1)):
            return tag
        path = (Path(page).parent / _html.unescape(src.group(1)).split("?")[0].split("#")[0]).resolve()
        try:
            with Image.open(path) as im:
                w, h = im.size
        except (OSError, ValueError):
            return tag
        return tag[:4] + f' width="{w}" height="{h}"' + tag[4:]

    return text[:start] + _IMG.sub(size, text[start:])


# --- theme assets a page does not use ---------------------------------------------------

# (pattern of the tag, what the page must contain to need it)
_SEARCH_TOOLS = re.compile(r'[ \t]*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|'
                           r'searchindex\.js)"></script>\n?')
_DESIGN = re.compile(r'[ \t]*(?:<script\b[^>]*src="[^"]*_static/design-tabs\.js[^"]*"></script>|'
                     r'<link rel="stylesheet" type="text/css" href="[^"]*_static/sphinx-design\.min\.css[^"]*" />)\n?')
_COPY = re.compile(r'[ \t]*(?:<script src="[^"]*_static/(?:clipboard\.min|copybutton)\.js[^"]*"></script>|'
                   r'<link rel="stylesheet" type="text/css" href="[^"]*_static/copybutton\.css[^"]*" />)\n?')
# The instructor page's tally of answer codes and saved files, which no other page uses.
_TALLY = re.compile(r'[ \t]*<script\b[^>]*\bsrc="[^"]*_static/tally\.js[^"]*"[^>]*></script>\n?')
# The Font Awesome script that swaps every icon for an SVG: the theme's stylesheet draws the
# same icons with Font Awesome's web font, which the pages load anyway (see trim_theme_assets).
_ICON_SCRIPT = re.compile(r'[ \t]*<script\b[^>]*\bsrc="[^"]*_static/scripts/fontawesome\.js[^"]*"[^>]*></script>\n?')
# The theme's hints to fetch its two deferred scripts (bootstrap.js, 81 kB) at high priority,
# which on a slow phone line take bandwidth from the stylesheets the first paint waits for;
# the scripts still load, as deferred scripts do, when the parser reaches them.
_SCRIPT_PRELOAD = re.compile(r'[ \t]*<link rel="preload" as="script" href="[^"]*_static/scripts/[^"]*" />\n?')
# documentation_options.js is not deferred: inline scripts in a page's body use what it
# defines (sphinx-proof's index sets DOCUMENTATION_OPTIONS.COLLAPSE_INDEX); the page gets it
# inline instead (bundle_page_assets).
_HEAD_SCRIPT = re.compile(r'<script (?![^>]*\b(?:defer|async|type=)\b)(?![^>]*documentation_options\.js)'
                          r'([^>]*\bsrc="[^"]+"[^>]*)></script>')


def trim_theme_assets(text: str, search_page: bool = False) -> str:
    """``text`` (an HTML page) without the theme's assets it does not use, and with its
    scripts deferred so that none blocks the first paint:

    - Sphinx's search tools and the whole search index (70 kB), which pydata-sphinx-theme
      loads on every page for a search-as-you-type the book leaves off
      (``search_as_you_type`` is False: its code returns before touching them); the search
      page keeps them;
    - sphinx-design's script and stylesheet on pages with no sphinx-design element;
    - the copy button's scripts and stylesheet on pages with no code block;
    - the instructor page's tally (``_static/tally.js``) on every other page.

    Every classic script in ``<head>`` that is neither ``defer`` nor ``async`` becomes
    ``defer``: it still runs in document order, before DOMContentLoaded, but after the page
    is parsed (inline scripts only set variables the deferred ones read later), except
    ``documentation_options.js``, whose global inline scripts use. The search page is left
    as it is, but for the icon script.

    Font Awesome's script (``_static/scripts/fontawesome.js``) leaves every page: it
    replaced each ``<i class="fa-...">`` icon by an SVG after the first paint and then watched
    every change to the page (a MutationObserver over the whole document), which cost the
    maths-heavy pages more than a second of main-thread time on Lighthouse's phone. The
    theme's stylesheet draws the same Font Awesome 6 icons as characters of its web font
    (``fa-solid-900.woff2``), which the browser fetched for the first paint anyway.

    The theme's ``<link rel="preload" as="script">`` hints for its deferred scripts go too
    (``_SCRIPT_PRELOAD``). Idempotent."""
    text = _SCRIPT_PRELOAD.sub("", _ICON_SCRIPT.sub("", text))
    if search_page:
        return text
    text = _SEARCH_TOOLS.sub("", text)
    if not re.search(r'class="[^"]*\bsd-', text):
        text = _DESIGN.sub("", text)
    if 'class="highlight' not in text:
        text = _COPY.sub("", text)
    if 'class="asb-tally' not in text:
        text = _TALLY.sub("", text)
    head_end = text.find("</head>")
    if head_end > 0:
        text = _HEAD_SCRIPT.sub(r"<script defer \1></script>", text[:head_end]) + text[head_end:]
    return text


# --- theme stylesheet rules that cannot match ------------------------------------------

#: The theme's stylesheet (397 kB, render-blocking on every page), relative to the output.
THEME_CSS = "_static/styles/pydata-sphinx-theme.css"
# Class names scripts build from a prefix at run time (bootstrap's bs-tooltip-top, the
# toggle buttons' toggle-3, sphinx-book-theme's tag_...): rules that need one are kept.
_DYNAMIC_PREFIXES = ("bs-", "toggle-", "tag_", "cg-", "button-")
_NAME = re.compile(r"[.#](-?[A-Za-z_][\w-]*)")
# what a selector does not require: functional pseudo-classes (:not(), :is(), :where(),
# :has()), attribute selectors and strings
_NOT_REQUIRED = re.compile(r":[\w-]+\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)|\[[^\]]*\]"
                           r"""|"[^"]*"|'[^']*'""")


def _split_selectors(prelude: str) -> list[str]:
    """A selector list split at its top-level commas (not those inside brackets)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(prelude):
        depth += ch in "([" and 1 or (ch in ")]" and -1 or 0)
        if ch == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    return parts + [prelude[start:]]


def unused_css_removed(css: str, names: set) -> str:
    """``css`` without the style rules none of whose selectors can match: a selector that
    requires a class or id (outside :not(), :is(), :where(), :has() and attribute
    selectors) that is not in ``names`` matches nothing. ``names`` must hold every class
    and id of every page and every word of every script that could add one; classes a
    script builds from a prefix (``_DYNAMIC_PREFIXES``) always count. Selectors that
    cannot match leave their lists; at-rules (@font-face, @keyframes, ...) stay, @media and
    @supports blocks are trimmed inside and go when empty. Idempotent."""
    import tinycss2

    if not isinstance(css, str):
        raise ValueError(f"css must be a string, got {type(css).__name__}")
    if not isinstance(names, (set, frozenset)) or not names:
        raise ValueError("names must be a non-empty set of the class and id names in use")

    def can_match(selector: str) -> bool:
        required = _NAME.findall(_NOT_REQUIRED.sub("", selector))
        return all(n in names or n.startswith(_DYNAMIC_PREFIXES) for n in required)

    def rules(nodes) -> list[str]:
        out = []
        for node in nodes:
            if node.type == "qualified-rule":
                keep = [s for s in _split_selectors(tinycss2.serialize(node.prelude)) if can_match(s)]
                if keep:
                    out.append(",".join(keep) + "{" + tinycss2.serialize(node.content) + "}")
            elif node.type == "at-rule" and node.content is not None and \
                    node.lower_at_keyword in ("media", "supports", "layer", "container"):
                inner = rules(tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True))
                if inner:
                    out.append("@" + node.at_keyword + tinycss2.serialize(node.prelude) + "{" + "".join(inner) + "}")
            elif node.type == "comment":
                continue  # incl. the source map's address: the map no longer matches
            elif node.type != "whitespace":
                out.append(tinycss2.serialize([node]))
        return out

    return "\n".join(rules(tinycss2.parse_stylesheet(css, skip_comments=False, skip_whitespace=True))) + "\n"


#: Trimmed stylesheets kept beside the site (``_build/.trimmed-css``), the newest few: the trim
#: depends only on the stylesheet and on which of its names the pages use, so a rebuild that
#: changes neither (every warm rebuild) parses no CSS.
TRIM_CACHE, TRIM_KEEP = ".trimmed-css", 4


def _write_whole(path: Path, text: str) -> None:
    """``text`` in ``path``, whole or not at all: a partial file renamed into place, so that a
    build stopped halfway, or another writing at once, never leaves a cache half written."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)


def _trimmed_cached(css: str, words: set, cache: Path) -> str:
    """:func:`unused_css_removed` of ``css`` with ``words``, from ``cache`` when it holds it.

    Only the words the stylesheet itself contains can decide whether one of its selectors
    matches, so the key is the stylesheet and those words."""
    if not words:
        return unused_css_removed(css, words)  # which refuses it, naming names
    relevant = sorted(words & set(re.findall(r"[A-Za-z_][\w-]*", css)))
    key = hashlib.sha256(css.encode() + b"\0" + "\n".join(relevant).encode()).hexdigest()
    kept = cache / f"{key}.css"
    if kept.is_file():
        os.utime(kept)
        return kept.read_text(encoding="utf-8")
    trimmed = unused_css_removed(css, words)
    cache.mkdir(parents=True, exist_ok=True)
    _write_whole(kept, trimmed)
    for old in sorted(cache.glob("*.css"), key=lambda f: f.stat().st_mtime)[:-TRIM_KEEP]:
        old.unlink(missing_ok=True)
    return trimmed


def _theme_files(outdir: Path) -> list[Path]:
    """The pages and scripts whose words may name a class of the theme's stylesheet: every
    script, and every page, but those of pages that do not load the theme (the printable
    sheets, the session's slides) and the scripts only such pages load (the slides' deck.js):
    a word there ("toast", "show") would keep the theme's rules for every page that does."""
    files = [p for p in outdir.rglob("*") if p.suffix in (".html", ".js")
             and p.parts[len(outdir.parts)] != "_sources" and p.name != "searchindex.js"]
    pages = [p for p in files if p.suffix == ".html"]
    themed = {p for p in pages if "styles/theme.css" in p.read_text(encoding="utf-8", errors="replace")}
    if not themed:  # a site built by another theme: every file counts
        return files

    def scripts(page: Path) -> set[Path]:
        found = set()
        for src in re.findall(r'<script\b[^>]*\bsrc="([^"]+)"', page.read_text(encoding="utf-8", errors="replace")):
            local = _local(src)
            if local is not None:
                found.add((page.parent / local).resolve())
        return found

    loaded_by_theme = set().union(*(scripts(p) for p in themed))
    loaded_elsewhere = set().union(set(), *(scripts(p) for p in pages if p not in themed)) - loaded_by_theme
    return [p for p in files if (p.suffix == ".html" and p in themed)
            or (p.suffix == ".js" and p.resolve() not in loaded_elsewhere)]


def trim_theme_css(outdir) -> dict | None:
    """Remove the rules of the theme's stylesheet (``THEME_CSS``) that cannot match on any
    page of the built site under ``outdir``: those that need a class or id that no page
    holds and no script the site serves names (:func:`unused_css_removed`). Most of them
    are Font Awesome's rules for icons the book does not show and Bootstrap's for
    components it does not use. Returns ``{"before": bytes, "after": bytes}``, or None
    when the site has no such stylesheet."""
    outdir = Path(outdir)
    if not outdir.is_dir():
        raise ValueError(f"outdir must be a built site's folder, got {outdir}")
    css_path = outdir / THEME_CSS
    if not css_path.is_file():
        return None
    words = set()
    for path in _theme_files(outdir):
        words.update(re.findall(r"[A-Za-z_][\w-]*", path.read_text(encoding="utf-8", errors="replace")))
    css = css_path.read_text(encoding="utf-8")
    trimmed = _trimmed_cached(css, words, outdir.parent / TRIM_CACHE)
    if trimmed != css:
        css_path.write_text(trimmed, encoding="utf-8")
    return {"before": len(css.encode()), "after": len(trimmed.encode())}


# --- one stylesheet a page -------------------------------------------------------------

#: Where the joined stylesheets go, relative to the output; each is named by its content.
BUNDLES_DIR = "_static/bundles"
_STYLESHEET = re.compile(r'[ \t]*<link\b(?=[^>]*\brel="stylesheet")[^>]*>\n?')
_ATTR = re.compile(r'\b(href|media)="([^"]*)"')
_DOC_OPTIONS = re.compile(r'<script src="([^"]*_static/documentation_options\.js)(?:\?[^"]*)?"></script>')
_EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|#)")  # data:, http:, /abs, #fragment
#: What starts each source's part of a bundle: the file, relative to the output.
PART = "/* bundled from {} */"


def bundle_sources(css: str) -> list[str]:
    """The files a bundle was joined from, relative to the site, in order (imports included)."""
    if not isinstance(css, str):
        raise ValueError(f"css must be a string, got {type(css).__name__}")
    return re.findall(re.escape(PART).replace(re.escape("{}"), r"(\S+)"), css)


def _local(href: str) -> str | None:
    """The path of a relative ``href`` without its query and fragment, or None if external."""
    if not href or _EXTERNAL.match(href):
        return None
    return re.split(r"[?#]", href, maxsplit=1)[0] or None


def _rebased_urls(nodes, source_dir: Path, bundle_dir: Path) -> None:
    """Rewrite, in place, every relative ``url()`` in tinycss2 ``nodes`` (written for a file in
    ``source_dir``) so that it points at the same file from ``bundle_dir``."""
    from tinycss2.serializer import serialize_string_value

    def rebased(url: str) -> str | None:
        path = _local(url)
        if path is None:
            return None
        rest = url[len(path):]
        return os.path.relpath(os.path.normpath(source_dir / path), bundle_dir).replace(os.sep, "/") + rest

    for node in nodes:
        if node.type == "url":
            new = rebased(node.value)
            if new is not None:
                node.value, node.representation = new, f'url("{serialize_string_value(new)}")'
        elif node.type == "function" and node.lower_name == "url":
            for arg in node.arguments:
                if arg.type == "string" and (new := rebased(arg.value)) is not None:
                    arg.value, arg.representation = new, f'"{serialize_string_value(new)}"'
        for child in ("prelude", "content", "arguments"):
            inner = getattr(node, child, None)
            if isinstance(inner, list):
                _rebased_urls(inner, source_dir, bundle_dir)


def bundled_css(path, bundle_dir, outdir, _seen=None) -> str:
    """The stylesheet ``path`` as a bundle in ``bundle_dir`` carries it: every ``@import``
    replaced by the file it imports (inside ``@media`` when it names media), every relative
    ``url()`` pointing at the same file from ``bundle_dir``, ``@charset`` and the source map
    comment left out (the map no longer matches). Raises ValueError for an import outside
    ``outdir``, a missing one, or an import cycle."""
    import tinycss2

    path, outdir = Path(os.path.normpath(path)), Path(outdir)
    seen = set() if _seen is None else _seen
    if path in seen:
        raise ValueError(f"path: {path} is in an import cycle")
    if not path.is_file() or not path.is_relative_to(outdir):
        raise ValueError(f"path must be a stylesheet of the site under {outdir}, got {path}")
    seen = seen | {path}
    out = [PART.format(path.relative_to(outdir).as_posix())]
    nodes = tinycss2.parse_stylesheet(path.read_text(encoding="utf-8"), skip_comments=False)
    for node in nodes:
        if node.type == "at-rule" and node.lower_at_keyword == "import":
            prelude = [t for t in node.prelude if t.type not in ("whitespace", "comment")]
            target = prelude[0] if prelude else None
            url = (target.value if target is not None and target.type in ("string", "url") else
                   target.arguments[0].value if target is not None and target.type == "function"
                   and target.lower_name == "url" and target.arguments else None)
            local = _local(url or "")
            if local is None:
                raise ValueError(f"path: {path} imports {url!r}, which is not a file of the site")
            inner = bundled_css(path.parent / local, bundle_dir, outdir, seen)
            media = tinycss2.serialize(prelude[1:]).strip()
            out.append(f"@media {media}{{\n{inner}\n}}" if media else inner)
        elif node.type == "at-rule" and node.lower_at_keyword == "charset":
            continue
        elif node.type == "comment" and "sourceMappingURL" in node.value:
            continue
        else:
            _rebased_urls([node], path.parent, Path(bundle_dir))
            out.append(tinycss2.serialize([node]))
    return "\n".join(part.strip("\n") for part in out if part.strip())


def bundle_page_assets(text: str, page, outdir, _parts=None) -> tuple[str, dict]:
    """``text`` (the HTML of ``page``, a file of the site under ``outdir``) with the
    stylesheets its ``<head>`` links joined into one: the first link becomes a link to
    ``BUNDLES_DIR/<hash of the content>.css`` and the others go. The sources keep their
    order, so the cascade is unchanged; a link with ``media`` is wrapped in ``@media``.
    ``documentation_options.js``, which the page loads before any other script (the
    page's inline scripts use it), is inlined where it stood. Returns the new text and
    ``{bundle file name: css}`` for the bundles it needs (written by the caller). A page
    whose only stylesheet is already a bundle is left as it is. (``_parts``: a dict in which
    :func:`bundle_stylesheets` keeps each source's part across the pages that share it.)"""
    page, outdir = Path(page), Path(outdir)
    head_end = text.find("</head>")
    if head_end < 0:
        return text, {}
    head, rest = text[:head_end], text[head_end:]
    bundle_dir = outdir / BUNDLES_DIR
    parts = {} if _parts is None else _parts
    links = []  # (match, source file, media) of each local stylesheet
    for m in _STYLESHEET.finditer(head):
        attrs = dict(_ATTR.findall(m.group(0)))
        local = _local(attrs.get("href", ""))
        if local is not None:  # an external one is left alone (the browser tests forbid them)
            links.append((m, Path(os.path.normpath(page.parent / local)), attrs.get("media", "all").strip()))
    bundles = {}
    if links and not (len(links) == 1 and links[0][1].parent == bundle_dir):
        for _, source, _ in links:
            if source not in parts:
                parts[source] = bundled_css(source, bundle_dir, outdir)
        css = "\n".join(parts[source] if media in ("", "all") else f"@media {media}{{\n{parts[source]}\n}}"
                        for _, source, media in links) + "\n"
        name = hashlib.sha256(css.encode("utf-8")).hexdigest()[:16] + ".css"
        bundles[name] = css
        href = os.path.relpath(bundle_dir / name, page.parent).replace(os.sep, "/")
        first = links[0][0]
        indent = first.group(0)[:len(first.group(0)) - len(first.group(0).lstrip(" \t"))]
        new_head, last = [], 0
        for m, _, _ in links:
            new_head.append(head[last:m.start()])
            if m is first:
                new_head.append(f'{indent}<link rel="stylesheet" href="{href}" />\n')
            last = m.end()
        head = "".join(new_head) + head[last:]
    options = _DOC_OPTIONS.search(head)
    if options:
        source = (page.parent / options.group(1)).read_text(encoding="utf-8").strip()
        if "</script" in source.lower():
            raise ValueError(f"page: {options.group(1)} cannot be inlined (it holds '</script')")
        head = head[:options.start()] + f"<script>{source}</script>" + head[options.end():]
    return head + rest, bundles


#: Each source's part of the bundles kept beside the site (``_build/.bundled-css.json``), for
#: the newest ``BUNDLE_KEEP`` sets of stylesheets: a part depends only on the site's stylesheets
#: (a source and what it imports) and on this module, so a rebuild that changes none of them
#: (every warm rebuild) parses no CSS to bundle it.
BUNDLE_CACHE, BUNDLE_KEEP = ".bundled-css.json", 4


def _stylesheets_key(outdir: Path) -> str:
    """A hash of every stylesheet of the site (the bundles aside) with its path, and of this
    module's source: what each source's bundled part can depend on."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    bundle_dir = outdir / BUNDLES_DIR
    for css in sorted(p for p in outdir.rglob("*.css") if p.parent != bundle_dir):
        digest.update(b"\0" + css.relative_to(outdir).as_posix().encode() + b"\0" + css.read_bytes())
    return digest.hexdigest()


def _read_json_dict(path: Path) -> dict:
    """A JSON object kept in ``path``, or an empty one if the file is missing or unreadable."""
    import json

    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return kept if isinstance(kept, dict) else {}


def _write_json(path: Path, value) -> None:
    """``value`` as JSON in ``path`` (:func:`_write_whole`)."""
    import json

    _write_whole(path, json.dumps(value))


def bundle_stylesheets(outdir, cache: Path | None = None) -> dict:
    """Every page of the site under ``outdir`` through :func:`bundle_page_assets`; writes the
    bundles under ``BUNDLES_DIR`` and removes those no page links any more. Returns
    ``{"pages": pages changed, "bundles": bundles in use, "bytes": their largest size}``.
    ``cache``: a JSON file that keeps each source's part (``BUNDLE_CACHE``), read and written;
    None bundles from the stylesheets alone."""
    outdir = Path(outdir)
    bundle_dir = outdir / BUNDLES_DIR
    key = _stylesheets_key(outdir) if cache is not None else ""
    kept = _read_json_dict(cache) if cache is not None else {}
    found = kept.get(key)
    parts = ({Path(os.path.normpath(outdir / rel)): part for rel, part in found.items()}
             if isinstance(found, dict) and all(isinstance(v, str) for v in found.values()) else {})
    used, changed = {}, 0
    for page in site_pages(outdir):
        text = page.read_text(encoding="utf-8")
        new, bundles = bundle_page_assets(text, page, outdir, parts)
        used |= bundles
        for name in re.findall(r'_static/bundles/([0-9a-f]{16}\.css)', new):  # pages bundled before
            used.setdefault(name, None)
        if new != text:
            page.write_text(new, encoding="utf-8")
            changed += 1
    if cache is not None:  # this set first, then the newest others (the other edition's)
        others = [(k, v) for k, v in kept.items() if k != key and isinstance(v, dict)][:BUNDLE_KEEP - 1]
        mine = {os.path.relpath(source, outdir).replace(os.sep, "/"): part for source, part in parts.items()}
        _write_json(cache, {key: mine} | dict(others))
    bundle_dir.mkdir(parents=True, exist_ok=True)
    for name, css in used.items():
        if css is not None and not (bundle_dir / name).is_file():
            (bundle_dir / name).write_text(css, encoding="utf-8")
    for old in bundle_dir.glob("*.css"):
        if old.name not in used:
            old.unlink()
    sizes = [(bundle_dir / n).stat().st_size for n in used if (bundle_dir / n).is_file()]
    return {"pages": changed, "bundles": len(sizes), "bytes": max(sizes, default=0)}


# --- all of it ---------------------------------------------------------------------------


def speed_up_site(outdir) -> dict:
    """The steps of this module, in order, over the built site under ``outdir`` (maths
    already typeset): lazy images, the theme's unused assets out, its stylesheet trimmed
    (which reads the finished pages), then one stylesheet a page, and the icon fonts cut.
    Returns what each did. What a rebuild can reuse is kept beside the site: the trimmed
    stylesheet (``TRIM_CACHE``), the bundles' parts (``BUNDLE_CACHE``) and each stylesheet's
    icons (``ICON_CACHE``)."""
    outdir = Path(outdir)
    pages = site_pages(outdir)
    for page in pages:
        name = page.relative_to(outdir).as_posix()
        _rewrite(page, lambda t: trim_theme_assets(sized_images(lazy_images(t), page), search_page=name == "search.html"))
    return {"theme_css": trim_theme_css(outdir), "bundles": bundle_stylesheets(outdir, outdir.parent / BUNDLE_CACHE),
            "unloaded": drop_icon_script(outdir, pages),
            "icon_fonts": subset_icon_fonts(outdir, outdir.parent / ICON_CACHE)}


ICON_FONTS = "_static/vendor/fontawesome/webfonts"


def _private_use(ch: str) -> bool:
    """A character of Unicode's private use areas, where icon fonts put their glyphs."""
    cp = ord(ch)
    return 0xE000 <= cp <= 0xF8FF or cp >= 0xF0000


def _stylesheet_icons(css: str) -> set[int]:
    """The private-use characters that the rules of one stylesheet draw, MathJax's aside
    (:func:`icon_codepoints`)."""
    import tinycss2

    found: set[int] = set()

    def walk(nodes) -> None:
        for node in nodes:
            if node.type == "qualified-rule":
                selectors = [x.strip() for x in _split_selectors(tinycss2.serialize(node.prelude))]
                if all(x.startswith("mjx-") for x in selectors):
                    continue
                found.update(ord(c) for c in tinycss2.serialize(node.content) if _private_use(c))
            elif node.type == "at-rule" and node.content is not None and node.at_keyword != "font-face":
                walk(tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True))

    walk(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))
    return found


#: Each stylesheet's icons kept beside the site (``_build/.icon-codepoints.json``), by the hash
#: of its text and of this module's source, the newest ``ICON_KEEP``: a rebuild parses only
#: the stylesheets that changed (a warm rebuild none; parsing them all took a fifth of it).
ICON_CACHE, ICON_KEEP = ".icon-codepoints.json", 200


def _read_icon_cache(path: Path) -> dict[str, list[int]]:
    """The kept icons, or nothing if the file is missing, unreadable or not of this form."""
    return {k: v for k, v in _read_json_dict(path).items()
            if isinstance(v, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in v)}


def icon_codepoints(outdir, cache: Path | None = None) -> set[int]:
    """Every private-use character that a style rule of the site's stylesheets draws, MathJax's
    own rules (selectors of ``mjx-`` elements, drawn with MathJax's fonts) aside: the icons its
    pages can show. Font Awesome draws an icon as a ``::before`` whose ``content`` is such a
    character (the theme's own rules do too), and the theme's stylesheet has lost the rules of
    the icons no page or script names (:func:`trim_theme_css`), so what is left can be drawn.

    ``cache``: a JSON file that keeps each stylesheet's icons (``ICON_CACHE``), read and
    written; None parses every stylesheet."""
    kept = _read_icon_cache(cache) if cache is not None else {}
    source = hashlib.sha256(Path(__file__).read_bytes()).digest()  # an edit here: all parsed anew
    found: set[int] = set()
    used: dict[str, list[int]] = {}
    for css in sorted(Path(outdir).rglob("*.css")):
        text = css.read_text(encoding="utf-8")
        key = hashlib.sha256(source + text.encode("utf-8")).hexdigest()
        icons = used.get(key)
        if icons is None:
            icons = kept.get(key)
        if icons is None:
            icons = sorted(_stylesheet_icons(text))
        used[key] = icons
        found.update(icons)
    if cache is not None:  # this site's first, then the newest others (the other edition's)
        rest = [k for k in kept if k not in used][:max(0, ICON_KEEP - len(used))]
        _write_json(cache, used | {k: kept[k] for k in rest})
    return found


def subset_icon_fonts(outdir, cache: Path | None = None) -> dict | None:
    """Cut the icon fonts (``ICON_FONTS``: Font Awesome's, which the theme loads on every page
    before its icons show) down to the glyphs of :func:`icon_codepoints`, under the same names,
    so that no stylesheet changes: 156 kB of the solid face becomes about 3 kB, the largest
    request of a page's first paint after its HTML and stylesheet. Returns the bytes before and
    after, or None if the site has no icon fonts.

    Sphinx copies a theme's files afresh when they differ, so every build cuts the full fonts.
    An icon that no face of the fonts holds (a theme that moved on) is an error, not a blank.
    ``cache``: where :func:`icon_codepoints` keeps each stylesheet's icons."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    folder = Path(outdir) / ICON_FONTS
    files = sorted(p for p in folder.glob("*") if p.suffix in (".woff2", ".ttf")) if folder.is_dir() else []
    if not files:
        return None
    wanted = icon_codepoints(outdir, cache)
    before = after = 0
    held: set[int] = set()
    for path in files:
        # the theme's own stamp kept: fontTools would write the time of saving, and every build's
        # fonts (so its site) would differ from the last's
        font = TTFont(path, recalcTimestamp=False)
        held |= set(font.getBestCmap())
        keep = sorted(wanted & set(font.getBestCmap()))
        options = subset.Options()
        options.flavor = "woff2" if path.suffix == ".woff2" else None
        options.layout_features = ["*"]
        options.notdef_outline = False  # a glyph a face lacks draws nothing, not a box
        cut = subset.Subsetter(options)
        cut.populate(unicodes=keep)
        cut.subset(font)
        size = path.stat().st_size
        font.flavor = options.flavor
        font.save(path)
        before, after = before + size, after + path.stat().st_size
    missing = wanted - held
    if missing:
        raise ValueError("the stylesheets draw icons that no icon font holds: "
                         + ", ".join(f"U+{cp:04X}" for cp in sorted(missing)))
    return {"files": len(files), "icons": len(wanted), "before": before, "after": after}


def drop_icon_script(outdir, pages) -> list[str]:
    """Font Awesome's script and its map and licence files leave the site once no page
    loads it (:func:`trim_theme_assets` takes it off every page): 1.5 MB that a reader
    offline would otherwise carry. Returns the files removed (none if a page still loads it)."""
    outdir = Path(outdir)
    if any("_static/scripts/fontawesome.js" in page.read_text(encoding="utf-8") for page in pages):
        return []
    removed = sorted((outdir / "_static" / "scripts").glob("fontawesome.js*"))
    for path in removed:
        path.unlink()
    return [p.relative_to(outdir).as_posix() for p in removed]
