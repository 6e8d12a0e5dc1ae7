"""One stylesheet a page (attention_book.pagespeed.bundle_stylesheets): on a small site of
its own, on the built book, and in Chromium, where a bundled page must look exactly as it
did with its separate stylesheets."""

from __future__ import annotations

import functools
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

from book_files import linked_stylesheets as linked
from serving import QuietHandler, QuietServer
from attention_book.pagespeed import (BUNDLES_DIR, bundle_sources, bundle_stylesheets, bundled_css,
                                         drop_icon_script, site_pages, speed_up_site, trim_theme_assets)

OPTIONS = "const DOCUMENTATION_OPTIONS = {\n    VERSION: '',\n};\n"
HEAD = """<!DOCTYPE html><html><head>
  <link href="{up}_static/styles/theme.css?digest=1" rel="stylesheet" />
  <link rel="stylesheet" type="text/css" href="{up}_static/book.css?v=2" />
  <link rel="stylesheet" href="https://cdn.example.org/x.css" />
  <link rel="preload" as="script" href="{up}_static/scripts/bootstrap.js?digest=1" />
  <script src="{up}_static/documentation_options.js?v=3"></script>
  <link rel="stylesheet" media="print" href="{up}_static/print.css" />
  <link rel="stylesheet" href="{up}_static/maths.css?v=4" />
</head><body><p class="a">text</p></body></html>
"""


def _site(root: Path) -> Path:
    files = {
        "_static/styles/theme.css": '/* theme */\n@import "../basic.css";\n',
        "_static/basic.css": '@charset "utf-8";\n.a { background: url(file.png) }\n'
                             ".b { background: url(\"data:image/svg+xml;charset=utf-8,%3Csvg%3E(1)\") }\n",
        "_static/book.css": ".a { color: red }\n@font-face { font-family: F; src: url('../_static/vendor/f.woff2?v=1#x') }\n"
                            "/*# sourceMappingURL=book.css.map */\n",
        "_static/print.css": ".a { color: black }\n",
        "_static/maths.css": '@font-face { font-family: M; src: url("mathjax/fonts/m.woff") format("woff") }\n',
        "_static/file.png": "png", "_static/vendor/f.woff2": "font", "_static/mathjax/fonts/m.woff": "font",
        "_static/documentation_options.js": OPTIONS,
        "index.html": HEAD.format(up=""),
        "book/page.html": HEAD.format(up="../"),
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)""")


def urls(css: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None) for m in _URL.finditer(css)]


def missing_files(bundle: Path) -> list[str]:
    """The relative url()s of a bundle that name no file."""
    return [u for u in urls(bundle.read_text(encoding="utf-8"))
            if not re.match(r"^(?:[a-z]+:|/|#)", u) and not (bundle.parent / re.split(r"[?#]", u)[0]).is_file()]


def test_a_page_links_one_stylesheet_with_its_sources_in_order(tmp_path):
    site = _site(tmp_path)
    report = bundle_stylesheets(site)
    assert report["pages"] == 2 and report["bundles"] == 1
    page = (site / "book/page.html").read_text(encoding="utf-8")
    links = linked(page)
    assert links[1] == "https://cdn.example.org/x.css" and len(links) == 2  # an external one is left
    assert re.fullmatch(r"\.\./_static/bundles/[0-9a-f]{16}\.css", links[0])
    assert linked((site / "index.html").read_text(encoding="utf-8"))[0] == links[0].removeprefix("../")
    bundle = site / "book" / links[0]
    css = bundle.read_text(encoding="utf-8")
    sources = bundle_sources(css)
    assert sources == ["_static/styles/theme.css", "_static/basic.css", "_static/book.css",
                       "_static/print.css", "_static/maths.css"]
    assert "@import" not in css and "@charset" not in css and "sourceMappingURL" not in css
    assert css.index(".a { background") < css.index(".a { color: red }") < css.index("@media print")
    assert re.search(r"@media print\{\s*/\* bundled from _static/print.css \*/\s*\.a \{ color: black \}\s*\}", css)
    found = urls(css)
    assert found == ["../file.png", "data:image/svg+xml;charset=utf-8,%3Csvg%3E(1)", "../vendor/f.woff2?v=1#x",
                     "../mathjax/fonts/m.woff"]
    assert missing_files(bundle) == []
    # documentation_options.js is inlined where it stood; the preload hint is not this step's
    assert f"<script>{OPTIONS.strip()}</script>" in page and "documentation_options.js" not in page
    assert 'rel="preload"' in page


def test_bundling_again_changes_nothing_and_drops_stale_bundles(tmp_path):
    site = _site(tmp_path)
    bundle_stylesheets(site)
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    stale = site / BUNDLES_DIR / ("0" * 16 + ".css")
    stale.write_text(".old {}", encoding="utf-8")
    assert bundle_stylesheets(site)["pages"] == 0
    assert not stale.exists()
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before


def test_a_changed_source_makes_a_new_bundle(tmp_path):
    site = _site(tmp_path)
    bundle_stylesheets(site)
    first = linked((site / "index.html").read_text(encoding="utf-8"))[0]
    site_copy = _site(tmp_path / "again")
    (site_copy / "_static/book.css").write_text(".a { color: blue }\n", encoding="utf-8")
    bundle_stylesheets(site_copy)
    second = linked((site_copy / "index.html").read_text(encoding="utf-8"))[0]
    assert first != second and "color: blue" in (site_copy / second).read_text(encoding="utf-8")


def test_bundles_are_made_from_kept_parts_until_a_stylesheet_changes(tmp_path, monkeypatch):
    """With a cache (BUNDLE_CACHE, as the build passes it), a rebuild whose stylesheets are
    unchanged bundles from the kept parts, parsing no CSS, into the same files as a build
    without it; a changed stylesheet, or a cache that cannot be read, parses them again."""
    from attention_book import pagespeed
    from attention_book.pagespeed import BUNDLE_CACHE

    cache = tmp_path / BUNDLE_CACHE
    plain, kept = _site(tmp_path / "plain"), _site(tmp_path / "kept")
    bundle_stylesheets(plain)
    files = lambda site: {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}  # noqa: E731
    assert bundle_stylesheets(kept, cache)["pages"] == 2
    assert files(kept) == files(plain) and cache.is_file()
    parse = pagespeed.bundled_css
    monkeypatch.setattr(pagespeed, "bundled_css", lambda *a: pytest.fail("a stylesheet was parsed again"))
    again = _site(tmp_path / "again")  # the pages as Sphinx writes them again, the stylesheets as they were
    shutil.copytree(again, tmp_path / "kept", dirs_exist_ok=True)
    assert bundle_stylesheets(kept, cache)["pages"] == 2
    assert files(kept) == files(plain)
    monkeypatch.setattr(pagespeed, "bundled_css", parse)
    shutil.copytree(again, tmp_path / "kept", dirs_exist_ok=True)
    (kept / "_static/book.css").write_text(".a { color: blue }\n", encoding="utf-8")
    bundle_stylesheets(kept, cache)
    bundle = kept / linked((kept / "index.html").read_text(encoding="utf-8"))[0]
    assert "color: blue" in bundle.read_text(encoding="utf-8") and "color: red" not in bundle.read_text(encoding="utf-8")
    cache.write_text("{not json", encoding="utf-8")
    shutil.copytree(again, tmp_path / "kept", dirs_exist_ok=True)  # red again
    parsed = []
    monkeypatch.setattr(pagespeed, "bundled_css", lambda *a: parsed.append(a[0]) or parse(*a))
    assert bundle_stylesheets(kept, cache)["pages"] == 2
    assert files(kept) == files(plain) and len(parsed) == 5  # the four the pages link, and an import


def test_bad_imports_are_errors_naming_the_file(tmp_path):
    site = _site(tmp_path)
    (site / "_static/basic.css").write_text('@import url("styles/theme.css");\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"path: .*theme\.css is in an import cycle"):
        bundled_css(site / "_static/styles/theme.css", site / BUNDLES_DIR, site)
    (site / "_static/basic.css").write_text('@import "https://cdn.example.org/y.css";\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"path: .*basic\.css imports 'https://cdn\.example\.org/y\.css'"):
        bundled_css(site / "_static/styles/theme.css", site / BUNDLES_DIR, site)
    with pytest.raises(ValueError, match="path must be a stylesheet"):
        bundled_css(site / "_static/absent.css", site / BUNDLES_DIR, site)
    with pytest.raises(ValueError, match="outdir"):
        site_pages(tmp_path / "absent")


def test_the_theme_script_preloads_go():
    head = ('<head><link rel="preload" as="script" href="../_static/scripts/bootstrap.js?digest=1" />\n'
            '<link rel="preload" as="font" href="../_static/f.woff2" />\n</head><body></body>')
    out = trim_theme_assets(head)
    assert "bootstrap.js" not in out and 'as="font"' in out


# --- the built book -----------------------------------------------------------------------

# pages with their styles inline (the 404 page, the printable sheets) and the landing redirect
SELF_CONTAINED = ("404.html", "print/", "index.html")
#: Pages with a stylesheet of their own but not the theme's: the session's slides (attention_book.deck).
NO_THEME = ("present/",)


@pytest.mark.build
def test_every_built_page_links_one_stylesheet(site):
    pages = [p for p in site_pages(site) if not p.relative_to(site).as_posix().startswith(SELF_CONTAINED)]
    assert len(pages) > 10
    bundles = set()
    for page in pages:
        text = page.read_text(encoding="utf-8")
        links = linked(text)
        assert len(links) == 1 and f"{BUNDLES_DIR}/" in links[0], (page, links)
        bundle = (page.parent / links[0]).resolve()
        assert bundle.is_file(), page
        bundles.add(bundle)
        sources = bundle_sources(bundle.read_text(encoding="utf-8"))
        if page.relative_to(site).as_posix().startswith(NO_THEME):  # the slides: the book's styles, not the theme's
            assert sources[:2] == ["_static/book.css", "present/deck.css"], page
            continue
        assert sources[:2] == ["_static/styles/theme.css", "_static/basic.css"], page
        assert "_static/book.css" in sources, page
        if "<mjx-container" in text:
            assert sources[-1] == "_static/maths.css", page
        assert "documentation_options.js" not in text and "DOCUMENTATION_OPTIONS = {" in text, page
    assert {p.name for p in (site / BUNDLES_DIR).iterdir()} == {b.name for b in bundles}  # none stale
    for bundle in bundles:
        assert missing_files(bundle) == [], bundle
        assert "@import" not in bundle.read_text(encoding="utf-8")
    for page in site_pages(site):
        if page.relative_to(site).as_posix().startswith(SELF_CONTAINED):
            assert linked(page.read_text(encoding="utf-8")) == [], page


# --- in Chromium: a bundled page looks as it did with its sources ---------------------------

# A hash of every computed property (sorted, custom properties included) of the root, the
# body and the first element in the body of each kind (tag, classes and the classes and tag
# of its parent: about 500 on a chapter, where the page has about 10,000), and of their
# ::before and ::after where these are drawn (else their content, none or normal). Only the
# body is compared: bundling changes the head.
_STYLES = """() => {
    const hash = s => { let x = 0; for (let i = 0; i < s.length; i++) x = (x * 31 + s.charCodeAt(i)) | 0; return x; };
    const kind = e => e.tagName + '.' + [...e.classList].sort().join('.');
    const kinds = new Map();
    for (const e of document.body.querySelectorAll('*')) {
        const k = kind(e) + ' < ' + kind(e.parentElement);
        if (!kinds.has(k)) kinds.set(k, e);
    }
    // Every computed style lists the same standard properties first, then the element's custom
    // properties. Reading a name (cs[i]) is the slow part (about 1.6 million names on a
    // chapter), so the standard ones are read once, from the root, and the custom ones for
    // each element; a style whose list does not start with the root's is read name by name.
    const first = getComputedStyle(document.documentElement), standard = [];
    for (let i = 0, n = first.length; i < n && !first[i].startsWith('--'); i++) standard.push(first[i]);
    const S = standard.length;
    const out = {};
    for (const [k, e] of [['html', document.documentElement], ['body', document.body], ...kinds])
        for (const pseudo of [null, '::before', '::after']) {
            const cs = getComputedStyle(e, pseudo);
            // a ::before or ::after with no content is not drawn: its content alone is compared
            if (pseudo && (cs.content === 'none' || cs.content === 'normal')) {
                out[k + pseudo] = cs.content;
                continue;
            }
            const n = cs.length, parts = [];
            const same = n >= S && cs[0] === standard[0] && cs[S - 1] === standard[S - 1] && (n === S || cs[S].startsWith('--'));
            for (let i = 0; i < n; i++) {
                const p = same && i < S ? standard[i] : cs[i];
                parts.push(p + ':' + cs.getPropertyValue(p));
            }
            out[k + (pseudo || '')] = hash(parts.sort().join(';'));
        }
    return out;
}"""


def unbundled_twin(text: str, page: Path, site: Path) -> str:
    """The page with its bundle link replaced by links to the bundle's sources, in order."""
    href = linked(text)[0]
    css = (page.parent / href).read_text(encoding="utf-8")
    sources = bundle_sources(css)
    # the file an @import pulls in comes with its importer (the theme's, the only one)
    assert '@import "../basic.css"' in (site / "_static/styles/theme.css").read_text(encoding="utf-8")
    top = [s for s in sources if s != "_static/basic.css"]
    up = "../" * (len(page.relative_to(site).parts) - 1)
    links = "".join(f'<link rel="stylesheet" href="{up}{s}" />' for s in top)
    return text.replace(f'<link rel="stylesheet" href="{href}" />', links, 1)


@pytest.mark.browser
@pytest.mark.parametrize("page_name", ["search.html", "book/intro.html", "book/derive-the-softmax-gradient.html"])
def test_a_bundled_page_looks_as_with_its_sources(browser, site, tmp_path, page_name):
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    page = copy / page_name
    text = page.read_text(encoding="utf-8")
    twin = page.with_name("twin-" + page.name)
    twin.write_text(unbundled_twin(text, page, copy), encoding="utf-8")
    assert len(linked(twin.read_text(encoding="utf-8"))) > 5
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(copy)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        for (width, height), mode in (((1280, 900), "light"), ((390, 844), "dark")):
            seen = []
            for name in (page_name, twin.relative_to(copy).as_posix()):
                context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=mode)
                context.add_init_script(f"localStorage.setItem('mode', '{mode}'); localStorage.setItem('theme', '{mode}')")
                tab = context.new_page()
                tab.goto(f"{origin}/{name}")
                tab.wait_for_load_state("networkidle")
                tab.evaluate("document.fonts.ready.then(() => true)")
                seen.append((tab.evaluate(_STYLES), tab.screenshot()))
                context.close()
            (bundled, bundled_png), (sources, sources_png) = seen
            assert bundled.keys() == sources.keys() and len(bundled) > 100
            differ = sorted(k for k in bundled if bundled[k] != sources[k])
            assert differ == [], f"{page_name} at {width} px, {mode}: computed styles differ for {differ[:10]}"
            assert bundled_png == sources_png, f"{page_name} at {width} px, {mode}: the view differs"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_speed_up_site_runs_every_step(tmp_path):
    site = _site(tmp_path)
    report = speed_up_site(site)
    page = (site / "book/page.html").read_text(encoding="utf-8")
    assert report["bundles"]["pages"] == 2 and report["theme_css"] is None  # no theme stylesheet here
    assert 'rel="preload"' not in page and len(linked(page)) == 2
    assert report["unloaded"] == []  # no icon script in this site


def test_the_icon_script_leaves_the_site_once_no_page_loads_it(tmp_path):
    site = _site(tmp_path)
    scripts = site / "_static" / "scripts"
    scripts.mkdir(parents=True)
    for name in ("fontawesome.js", "fontawesome.js.map", "fontawesome.js.LICENSE.txt", "bootstrap.js"):
        (scripts / name).write_text("x", encoding="utf-8")
    tag = '<script src="../_static/scripts/fontawesome.js?digest=1"></script>\n'
    page = site / "book" / "page.html"
    page.write_text(page.read_text(encoding="utf-8").replace("</head>", tag + "</head>"), encoding="utf-8")
    assert drop_icon_script(site, site_pages(site)) == []  # a page still loads it: kept
    assert (scripts / "fontawesome.js").is_file()
    report = speed_up_site(site)
    assert "fontawesome.js" not in page.read_text(encoding="utf-8")
    assert report["unloaded"] == ["_static/scripts/fontawesome.js", "_static/scripts/fontawesome.js.LICENSE.txt",
                                  "_static/scripts/fontawesome.js.map"]
    assert sorted(p.name for p in scripts.iterdir()) == ["bootstrap.js"]


def test_the_theme_stylesheet_is_trimmed_once_per_set_of_names_in_use(tmp_path, monkeypatch):
    """trim_theme_css drops the rules no page can match, and keeps each result beside the site,
    keyed by the stylesheet and the names of it that the pages use: a page that changes only
    other words reuses it (no CSS is parsed); a page that starts using a rule gets it back."""
    from attention_book import pagespeed
    from attention_book.pagespeed import THEME_CSS, TRIM_CACHE, trim_theme_css

    theme = ".a{color:red}\n.zzz{color:blue}\n@media print{.zzz{color:black}}\n"
    site = tmp_path / "html"
    (site / THEME_CSS).parent.mkdir(parents=True)
    cache = tmp_path / TRIM_CACHE

    def build(body: str) -> str:
        (site / THEME_CSS).write_text(theme, encoding="utf-8")  # Sphinx copies it afresh each build
        (site / "index.html").write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
        report = trim_theme_css(site)
        assert report["before"] == len(theme)
        return (site / THEME_CSS).read_text(encoding="utf-8")

    assert build('<p class="a">commit 571fac2</p>') == ".a{color:red}\n"
    assert len(list(cache.glob("*.css"))) == 1
    parse = pagespeed.unused_css_removed
    monkeypatch.setattr(pagespeed, "unused_css_removed", lambda *a: pytest.fail("the CSS was parsed again"))
    assert build('<p class="a">commit 0a1b2c3, other words</p>') == ".a{color:red}\n"  # the kept result
    monkeypatch.setattr(pagespeed, "unused_css_removed", parse)
    assert build('<p class="a zzz">now both</p>') == theme
    assert len(list(cache.glob("*.css"))) == 2


def _theme_icon_fonts() -> Path:
    import pydata_sphinx_theme

    return Path(pydata_sphinx_theme.__file__).parent / "theme/pydata_sphinx_theme/static/vendor/fontawesome/webfonts"


def test_icon_fonts_keep_exactly_the_icons_the_stylesheets_draw(tmp_path):
    """subset_icon_fonts: each face keeps the icons of the site's rules it holds (in @media too),
    not MathJax's private-use characters (its own fonts), under the same file names; an icon no
    face holds is an error naming it."""
    from fontTools.ttLib import TTFont

    from attention_book.pagespeed import ICON_FONTS, icon_codepoints, subset_icon_fonts

    site = _site(tmp_path)
    fonts = site / ICON_FONTS
    shutil.copytree(_theme_icon_fonts(), fonts)
    full = {p.name: p.stat().st_size for p in fonts.iterdir()}
    (site / "_static" / "icons.css").write_text(
        '.fa-bars:before{content:"\\f0c9"}\n@media (min-width: 10px){.x::after{content:"\uf002"}}\n'
        '.fa-github:before{content:"\\f09b"}\nmjx-stretchy-h.mjx-c23DF mjx-beg mjx-c::before{content:"\ue152"}\n',
        encoding="utf-8")
    assert icon_codepoints(site) == {0xF0C9, 0xF002, 0xF09B}
    report = subset_icon_fonts(site)
    assert report["icons"] == 3 and report["files"] == len(full) and report["after"] < report["before"] / 20
    assert sorted(p.name for p in fonts.iterdir()) == sorted(full)
    for name, cps in (("fa-solid-900.woff2", {0xF0C9, 0xF002}), ("fa-brands-400.woff2", {0xF09B}),
                      ("fa-regular-400.woff2", set()), ("fa-solid-900.ttf", {0xF0C9, 0xF002})):
        font = TTFont(fonts / name)
        assert set(font.getBestCmap() or {}) == cps, name
        assert font.flavor == ("woff2" if name.endswith(".woff2") else None)
    shutil.rmtree(fonts)
    shutil.copytree(_theme_icon_fonts(), fonts)
    (site / "_static" / "more.css").write_text('.y:before{content:"\\e0ff"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="U\\+E0FF"):
        subset_icon_fonts(site)
    assert subset_icon_fonts(_site(tmp_path / "bare")) is None


def test_each_stylesheets_icons_are_kept_until_it_changes(tmp_path, monkeypatch):
    """icon_codepoints with a cache (ICON_CACHE, as the build passes it): the same icons as
    without; a rebuild parses only the stylesheets whose text changed, and a cache that cannot
    be read is ignored."""
    from attention_book import pagespeed
    from attention_book.pagespeed import ICON_CACHE, icon_codepoints

    site, cache = _site(tmp_path / "html"), tmp_path / ICON_CACHE
    icons = site / "_static" / "icons.css"
    icons.write_text('.fa-bars:before{content:"\\f0c9"}\nmjx-c::before{content:"\ue152"}\n', encoding="utf-8")
    assert icon_codepoints(site, cache) == icon_codepoints(site) == {0xF0C9}
    parsed = []
    parse = pagespeed._stylesheet_icons
    monkeypatch.setattr(pagespeed, "_stylesheet_icons", lambda css: parsed.append(css) or parse(css))
    assert icon_codepoints(site, cache) == {0xF0C9} and parsed == []
    icons.write_text('.fa-github:before{content:"\\f09b"}\n', encoding="utf-8")
    assert icon_codepoints(site, cache) == {0xF09B} and parsed == [icons.read_text(encoding="utf-8")]
    cache.write_text('{"x": "not a list"', encoding="utf-8")
    assert icon_codepoints(site, cache) == {0xF09B} and len(parsed) == 1 + len(list(site.rglob("*.css")))


def test_icon_fonts_are_cut_to_the_same_bytes_by_every_build(tmp_path):
    """Two builds a second apart write the same font files: fontTools stamps a font it saves with
    the time (its head table's modified date), so every build's fonts differed, and two builds of
    one commit could not be compared file by file (scripts/compare_sites.py)."""
    from attention_book.pagespeed import ICON_FONTS, subset_icon_fonts

    cut = []
    for n in range(2):
        site = _site(tmp_path / str(n))
        shutil.copytree(_theme_icon_fonts(), site / ICON_FONTS)
        (site / "_static" / "icons.css").write_text('.fa-bars:before{content:"\\f0c9"}\n', encoding="utf-8")
        subset_icon_fonts(site)
        cut.append({p.name: p.read_bytes() for p in (site / ICON_FONTS).iterdir()})
        if not n:
            time.sleep(1.1)  # the stamp counts seconds
    assert cut[0] == cut[1]


#: Every icon the page draws with an icon font (a ``::before`` whose content is one private-use
#: character): its glyph drawn alone on a canvas in the same face, and the pixels it inks.
_ICON_INK = """async () => {
    const out = [];
    for (const e of document.querySelectorAll('body *')) {
        const s = getComputedStyle(e, '::before');
        const ch = (s.content || '').replace(/^"|"$/g, '');
        if ([...ch].length !== 1 || ch.codePointAt(0) < 0xE000 || ch.codePointAt(0) > 0xF8FF) continue;
        if (!/Font Awesome/.test(s.fontFamily)) continue;
        const font = `${s.fontWeight} 48px ${s.fontFamily}`;
        await document.fonts.load(font, ch);
        const c = document.createElement('canvas'); c.width = c.height = 80;
        const g = c.getContext('2d'); g.font = font; g.textBaseline = 'middle'; g.fillText(ch, 10, 40);
        const px = g.getImageData(0, 0, 80, 80).data;
        let ink = 0; for (let i = 3; i < px.length; i += 4) if (px[i] > 0) ink++;
        out.push({cp: ch.codePointAt(0).toString(16), cls: e.className.toString().slice(0, 60), ink});
    }
    return out;
}"""


@pytest.mark.browser
def test_every_icon_a_page_draws_has_its_glyph(browser, site):
    """With the icon fonts cut (pagespeed.subset_icon_fonts), every icon of a chapter, the
    search page and a lab still draws, on a desktop and on a phone, in light and dark: a glyph a
    face lacks would ink nothing. A private-use character the fonts do not hold inks nothing here
    (the check can fail)."""
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        seen = set()
        for (width, height), mode in (((1280, 900), "light"), ((390, 844), "dark")):
            context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=mode)
            tab = context.new_page()
            for name in ("book/derive-the-softmax-gradient.html", "search.html", "notebooks/lab-find-the-needle.html"):
                tab.goto(f"{origin}/{name}")
                tab.wait_for_load_state("load")
                icons = tab.evaluate(_ICON_INK)
                assert len(icons) >= 5, (name, width, icons)
                blank = [i for i in icons if i["ink"] < 20]
                assert blank == [], f"{name} at {width} px: icons with no glyph {blank}"
                seen |= {i["cp"] for i in icons}
            planted = tab.evaluate("""async () => { const font = '900 48px "Font Awesome 6 Free"';
                await document.fonts.load(font, '\\uf6f0');
                const c = document.createElement('canvas'); c.width = c.height = 80;
                const g = c.getContext('2d'); g.font = font; g.textBaseline = 'middle'; g.fillText('\\uf6f0', 10, 40);
                const px = g.getImageData(0, 0, 80, 80).data; let ink = 0;
                for (let i = 3; i < px.length; i += 4) if (px[i] > 0) ink++; return ink; }""")
            assert planted == 0  # fa-horse: not on any page, so not in the cut font
            context.close()
        assert len(seen) >= 8, seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_article_images_keep_their_room_before_they_load(tmp_path):
    """sized_images: an article image without a size gets its file's pixels as width and height
    (a lazy image then holds its room and nothing below it moves when it loads); an image that
    has a size, a missing file, an external one or one outside the article stays; idempotent."""
    from PIL import Image

    from attention_book.pagespeed import lazy_images, sized_images

    (tmp_path / "_images").mkdir()
    Image.new("RGB", (321, 123)).save(tmp_path / "_images" / "a.png")
    page = tmp_path / "book" / "p.html"
    page.parent.mkdir()
    text = ('<html><body><img src="../_images/a.png" alt="head"><article class="bd-article">'
            '<img alt="one" src="../_images/a.png" />'
            '<img src="../_images/a.png?v=1#x" alt="&amp;">'
            '<img src="../_images/a.png" width="10" height="5">'
            '<img src="../_images/gone.png"><img src="https://example.org/a.png">'
            '<img src="data:image/png;base64,AAAA"></article></body></html>')
    out = sized_images(lazy_images(text), page)
    imgs = re.findall(r"<img\b[^>]*>", out)
    assert imgs[0] == '<img src="../_images/a.png" alt="head">'  # outside the article
    assert imgs[1].startswith('<img width="321" height="123" alt="one"') and 'loading="lazy"' not in imgs[1]
    assert imgs[2].startswith('<img width="321" height="123" src="../_images/a.png?v=1#x"') and 'loading="lazy"' in imgs[2]
    assert 'width="10" height="5"' in imgs[3] and "321" not in imgs[3]
    assert all(" width=" not in tag for tag in imgs[4:])
    assert sized_images(out, page) == out
