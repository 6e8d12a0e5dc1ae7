"""Pages that open fast (issue 17): maths typeset at build time, images below the fold
loaded lazily, theme assets a page does not use left out (attention_book.sphinx_ext).
The pages of the built book are checked in the browser by test_browser/test_reader_view
(every formula typeset and drawn, no raw TeX, axe); these are the steps themselves."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from attention_book.sphinx_ext import (MATHS_CSS, TYPESET_CACHE, TYPESET_KEEP, MathsError, lazy_images,
                                       prerender_maths, trim_theme_assets)
from book_files import html_page, stylesheets, toc_files

needs_node = pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")),
                                reason="typesetting at build time needs Node.js and npm")

PAGE = """<!DOCTYPE html><html><head>
<script>window.MathJax = {"options": {"processHtmlClass": "math"}}</script>
<script defer="defer" src="../_static/mathjax/es5/tex-chtml.js?v=1"></script>
</head><body><article class="bd-article">
<p>Inline <span class="math notranslate nohighlight">\\(P_1 &lt; 1\\)</span> and</p>
<div class="math notranslate nohighlight">
\\[\\frac{\\partial P_1}{\\partial z_1} = P_1(1 - P_1)\\]</div>
<legend>In a quiz: \\(d_k\\)</legend>
<pre>\\(left alone\\)</pre><code>\\[also\\]</code>
<script type="application/json" class="asb-quiz-data">{"correct": [true], "why": ["Since \\\\(a<b\\\\) & so."]}</script>
</article></body></html>"""


@pytest.fixture
def tiny_site(tmp_path):
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "page.html").write_text(PAGE, encoding="utf-8")
    return tmp_path


@needs_node
def test_maths_is_typeset_at_build_time(tiny_site, tmp_path_factory):
    site = tiny_site
    node = tmp_path_factory.getbasetemp() / "mathjax-node"  # npm ci once for this session
    report = prerender_maths(site, node_dir=node)
    page = (site / "book" / "page.html").read_text(encoding="utf-8")
    assert report == {"pages": 1, "formulas": 3, "distinct": 4}  # and the quiz's one
    assert "MathJax =" not in page and "tex-chtml.js" not in page  # no typesetting in the browser
    assert page.count("<mjx-container") == 4 and "<mjx-assistive-mml" in page  # 3 + the quiz's
    assert page.count('display="true"') >= 1 and "<math " in page
    assert "\\(left alone\\)" in page and "\\[also\\]" in page  # pre and code are not maths
    assert not re.search(r"\\\(|\\\[", re.sub(r"<(pre|code|script)\b.*?</\1>", "", page, flags=re.S))
    css = (site / MATHS_CSS).read_text(encoding="utf-8")
    assert '<link rel="stylesheet" href="../_static/maths.css?v=' in page
    assert "mjx-assistive-mml" in css and "woff-v2" in css and "mjx-c1D443" in css  # 𝑃's glyph
    quiz = json.loads(re.search(r'class="asb-quiz-data">(.*?)</script>', page, re.S).group(1).replace("<\\/", "</"))
    assert quiz["why"] == ["Since \\(a<b\\) & so."]  # kept for a page without the build's HTML
    assert quiz["whyHtml"][0].startswith("Since <mjx-container") and quiz["whyHtml"][0].endswith(" &amp; so.")
    # again: nothing changes (an incremental build sees its own output)
    prerender_maths(site, node_dir=node)
    assert (site / "book" / "page.html").read_text(encoding="utf-8") == page
    assert (site / MATHS_CSS).read_text(encoding="utf-8") == css


@needs_node
def test_the_same_formulas_are_typeset_again_without_node(tmp_path, tmp_path_factory, monkeypatch):
    """A rebuild whose pages hold the formulas typeset before (every warm rebuild) takes them
    from the typeset cache beside MathJax's node_modules: with a `node` that only fails on the
    PATH it still gives the same page; a new formula needs Node, and fails with it."""
    node = tmp_path_factory.getbasetemp() / "mathjax-node"
    first, second = tmp_path / "first", tmp_path / "second"
    for site in (first, second):
        (site / "book").mkdir(parents=True)
        (site / "book" / "page.html").write_text(PAGE, encoding="utf-8")
    prerender_maths(first, node_dir=node)
    broken = tmp_path / "bin"
    broken.mkdir()
    (broken / "node").write_text("#!/bin/sh\necho no node here >&2\nexit 3\n")
    (broken / "node").chmod(0o755)
    monkeypatch.setenv("PATH", f"{broken}:{os.environ['PATH']}")
    prerender_maths(second, node_dir=node)
    assert (second / "book" / "page.html").read_text() == (first / "book" / "page.html").read_text()
    assert (second / MATHS_CSS).read_text() == (first / MATHS_CSS).read_text()
    (second / "book" / "new.html").write_text(PAGE.replace("d_k\\)", "d_v\\)"), encoding="utf-8")
    with pytest.raises(MathsError, match="no node here"):
        prerender_maths(second, node_dir=node)
    assert 1 <= len(list((node / TYPESET_CACHE).glob("*.json"))) <= TYPESET_KEEP


@needs_node
def test_a_tex_error_fails_the_build_naming_the_page(tiny_site, tmp_path_factory):
    site = tiny_site
    (site / "book" / "bad.html").write_text(PAGE.replace("d_k\\)", "\\frac{d_k\\)"), encoding="utf-8")
    with pytest.raises(MathsError, match=r"book/bad\.html: .*frac\{d_k"):
        prerender_maths(site, node_dir=tmp_path_factory.getbasetemp() / "mathjax-node")


@needs_node
def test_a_site_without_maths_loses_mathjax_and_gets_no_stylesheet(tmp_path, tmp_path_factory):
    """A book with no formula (tests/book/test_launch.py's one-page fork) still builds: its pages
    drop MathJax's script and link no maths stylesheet, and none is written."""
    (tmp_path / "book").mkdir()
    no_maths = re.sub(r"<article.*</article>", "<article><p>No maths here.</p></article>", PAGE, flags=re.S)
    (tmp_path / "book" / "page.html").write_text(no_maths, encoding="utf-8")
    report = prerender_maths(tmp_path, node_dir=tmp_path_factory.getbasetemp() / "mathjax-node")
    page = (tmp_path / "book" / "page.html").read_text(encoding="utf-8")
    assert report == {"pages": 1, "formulas": 0, "distinct": 0}
    assert "tex-chtml.js" not in page and "maths.css" not in page and "No maths here." in page
    assert not (tmp_path / MATHS_CSS).exists()


def test_prerender_validates_its_folder(tmp_path):
    with pytest.raises(ValueError, match="outdir"):
        prerender_maths(tmp_path / "absent")


def test_images_after_the_first_load_lazily():
    page = ('<head><img src="logo.png"></head><article class="bd-article"><img src="fig1.png" />'
            '<noscript><img class="asb-picture" src="a.png"></noscript>'
            '<img src="fig2.png" /><img src="fig3.png" loading="eager">')
    out = lazy_images(page)
    lazy = re.findall(r'src="([^"]+)"[^>]*loading="lazy"', out)
    assert lazy == ["a.png", "fig2.png"]
    assert lazy_images(out) == out


def test_unused_theme_assets_are_left_out_and_scripts_deferred():
    head = ('<head><script src="_static/searchtools.js"></script>\n<script src="searchindex.js"></script>\n'
            '<script src="_static/design-tabs.js?v=1"></script>\n'
            '<link rel="stylesheet" type="text/css" href="_static/sphinx-design.min.css?v=2" />\n'
            '<script src="_static/copybutton.js?v=3"></script>\n<script src="_static/doctools.js?v=4"></script>\n'
            '<script src="_static/documentation_options.js?v=5"></script>\n'
            '<script>var inline = 1;</script><script defer src="_static/x.js"></script>\n'
            '<script src="_static/tally.js?v=6"></script></head>')
    plain = trim_theme_assets(head + "<body><p>text</p></body>")
    assert "searchindex" not in plain and "design" not in plain and "copybutton" not in plain
    assert "tally.js" not in plain and "tally.js" in trim_theme_assets(head + '<body><div class="asb-tally"></div></body>')
    assert '<script defer src="_static/doctools.js?v=4"></script>' in plain
    assert "<script>var inline = 1;</script>" in plain and plain.count("defer") == 2
    # its globals are used by inline scripts in the body (sphinx-proof's index)
    assert '<script src="_static/documentation_options.js?v=5"></script>' in plain
    used = trim_theme_assets(head + '<body><div class="sd-card"></div><div class="highlight"></div></body>')
    assert "searchindex" not in used and "design-tabs.js" in used and "sphinx-design.min.css" in used
    assert "copybutton.js" in used
    assert trim_theme_assets(head, search_page=True) == head


@pytest.mark.build
@needs_node
def test_built_pages_have_no_mathjax_when_node_is_there(site):
    """The built book: every page with maths links the shared stylesheet, none loads MathJax."""
    for path in toc_files():
        text = (site / html_page(path)).read_text(encoding="utf-8")
        assert "tex-chtml.js" not in text and "window.MathJax" not in text, path
        if 'class="math' in text:
            assert "<mjx-container" in text and MATHS_CSS in stylesheets(site / html_page(path)), path
