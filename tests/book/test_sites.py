"""A second book, built with the build tools alone (issue 29: "a house others can carry on").

``tests/sites/tiny/`` is a two-page book of its own (its title, description and preview
subtitle in its _config.yml) that lists the one extension, ``attention_book``, and has no
package. It is built here as the main book is (``jupyter-book build -W -n --keep-going``),
in a copy outside this repository and in a Python that cannot import the main book's package
(:data:`BLOCKER` puts a finder first on ``sys.meta_path`` that refuses ``attention_scaling``
and records every attempt). The tests then read its pages: the "Going deeper" fold, the
glued number and the cross-references work, the tags name the tiny book, and nothing of
the main book (its title, words, licences, preview, package) shows anywhere in the site.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "sites" / "tiny"
MAIN = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
TINY_CONFIG = yaml.safe_load((TINY / "_config.yml").read_text(encoding="utf-8"))
BUILD_TIMEOUT = 600

#: Run as ``python -c BLOCKER REPORT jupyter-book-args...``: jupyter-book in a Python where
#: ``import attention_scaling`` fails; REPORT gets whether it did fail, and every import of it
#: the build then asked for.
BLOCKER = textwrap.dedent('''
    import importlib.abc, json, sys

    asked = []

    class NoReaderPackage(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "attention_scaling":
                asked.append(name)
                raise ModuleNotFoundError(f"No module named {name!r} (blocked by tests/book/test_sites.py)", name=name)
            return None

    sys.meta_path.insert(0, NoReaderPackage())
    try:
        import attention_scaling  # noqa: F401
        blocked = False
    except ModuleNotFoundError:
        blocked = True
    asked.clear()
    report, sys.argv = sys.argv[1], ["jupyter-book", *sys.argv[2:]]
    try:
        from jupyter_book.cli.main import main
        main()
    finally:
        with open(report, "w") as f:
            json.dump({"blocked": blocked, "asked": asked}, f)
''')


@dataclass(frozen=True)
class TinySite:
    returncode: int
    output: str
    html: Path
    report: dict


def _env() -> dict:
    """This environment, minus what would tie the build to a GitHub repository."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_") and k != "PAGES_BRANCH"}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> TinySite:
    """The tiny book, copied outside the repository and built strictly, once per module."""
    book = tmp_path_factory.mktemp("sites") / "tiny"
    shutil.copytree(TINY, book, ignore=shutil.ignore_patterns("_build"))
    report = book.parent / "imports.json"
    proc = subprocess.run([sys.executable, "-c", BLOCKER, str(report), "build", str(book), "-W", "-n", "--keep-going"],
                          env=_env(), capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    found = json.loads(report.read_text()) if report.is_file() else {}
    return TinySite(proc.returncode, proc.stdout + proc.stderr, book / "_build" / "html", found)


def page(site: TinySite, name: str) -> str:
    return (site.html / name).read_text(encoding="utf-8")


def meta(text: str) -> dict[str, str]:
    """A page's meta tags: property or name -> content (unescaped)."""
    return {m.group(1): unescape(m.group(2))
            for m in re.finditer(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', text)}


@pytest.mark.build
def test_the_tiny_book_builds_strictly(tiny):
    assert tiny.returncode == 0, tiny.output[-4000:]
    assert "build succeeded." in tiny.output
    # Sphinx's warnings read "file:line: WARNING: ..." (the kernel's own log lines do not).
    assert not [ln for ln in tiny.output.splitlines() if "WARNING:" in ln]
    for name in ("start.html", "fold-it.html", "index.html", "404.html", "search.html", "sitemap.xml",
                 "_static/social/preview.png"):
        assert (tiny.html / name).is_file(), name


@pytest.mark.build
def test_the_build_never_imports_the_reader_package(tiny):
    """The Python that built it could not import attention_scaling, and never tried."""
    assert tiny.returncode == 0, tiny.output[-4000:]
    assert tiny.report == {"blocked": True, "asked": []}


@pytest.mark.build
def test_the_fold_renders_as_details_with_its_title(tiny):
    text = page(tiny, "fold-it.html")
    folds = re.findall(r'<details class="asb-deeper"><summary><span class="asb-deeper-title">([^<]*)</span>'
                       r'</summary><div class="asb-deeper-body">(.*?)</div></details>', text, re.S)
    assert [title for title, _ in folds] == ["Going deeper: why the count doubles"]
    body = folds[0][1]
    assert "Folding lays the stack on top of itself" in body and "What comes next" not in body
    assert 'href="start.html"' in body  # the {doc} link inside the fold


@pytest.mark.build
def test_the_glued_number_and_the_cross_reference_resolve(tiny):
    assert re.search(r'the stack has <span class="pasted-text">128</span> layers', page(tiny, "fold-it.html"))
    # the {live} role: the same glued number in a span bound to an explorer's state
    assert re.search(r'bound to it: <span class="asb-live" data-bind="folding:layers" data-format=".0f">'
                     r'<span class="pasted-text">128</span></span> layers', page(tiny, "fold-it.html"))
    assert re.search(r'<a class="reference internal" href="fold-it.html#count-the-layers">', page(tiny, "start.html"))


@pytest.mark.build
def test_the_tags_name_the_tiny_book(tiny):
    title, description = TINY_CONFIG["title"], TINY_CONFIG["sphinx"]["config"]["book_description"]
    base = TINY_CONFIG["html"]["baseurl"]
    for name in ("start.html", "fold-it.html", "index.html", "404.html", "search.html"):
        tags = meta(page(tiny, name))
        assert tags["og:site_name"] == title, name
        assert tags["og:image"] == tags["twitter:image"] == base + "_static/social/preview.png", name
        assert tags["og:image:alt"].startswith(f"Preview of the book: {title}."), name
        assert tags["description"], name
    # Pages with no words of their own describe the book as its _config.yml does.
    for name in ("index.html", "404.html", "search.html"):
        tags = meta(page(tiny, name))
        assert tags["description"] == tags["twitter:description"] == description, name
    assert meta(page(tiny, "fold-it.html"))["og:title"] == "Fold it"
    assert meta(page(tiny, "index.html"))["og:title"] == title
    assert f"<title>Page not found · {title}</title>" in page(tiny, "404.html")
    # Its footer: the build stamp, and no licence, since the tiny book names none.
    footer = re.search(r'<p class="asb-build">.*?</p>', page(tiny, "start.html")).group(0)
    assert "Built on " in footer and "license" not in footer


@pytest.mark.build
def test_every_file_a_page_loads_is_in_the_site(tiny):
    """Stylesheets, scripts, images and icons: the ones the build writes into the pages (the
    landing page's icon among them) exist in this book's site, not only in the main book's."""
    pages = sorted(p for p in tiny.html.rglob("*.html") if p.relative_to(tiny.html).parts[0] != "_static")
    missing = []
    for path in pages:
        for tag in re.findall(r"<(?:link|script|img)\b[^>]*>", path.read_text(encoding="utf-8")):
            for url in re.findall(r'\b(?:href|src)="([^"]+)"', tag):
                if re.match(r"[a-z][a-z0-9+.-]*:|#|//", url):
                    continue
                if not (path.parent / url.split("#")[0].split("?")[0]).is_file():
                    missing.append(f"{path.relative_to(tiny.html)}: {url}")
    assert len(pages) >= 5 and missing == []


def main_book_strings() -> list[str]:
    """What only the main book says: its title, author, words and licences, and its package."""
    config = MAIN["sphinx"]["config"]
    return [MAIN["title"], "Softmax saturation", MAIN["author"], config["book_description"],
            config["book_preview_subtitle"], "divides by √d_k", "sqrt{d_k}", "attention_scaling",
            "attention-scaling", Path(config["book_preview_path"]).name, "worksheet", "exit ticket",
            # as its footer names them (the theme's own files carry MIT and CC BY notices)
            *[f'rel="license">{name}</a>' for _, name, _ in config["book_licences"]]]


def test_the_tiny_book_itself_names_nothing_of_the_main_book():
    assert "attention_book" in TINY_CONFIG["sphinx"]["extra_extensions"]
    for path in sorted(p for p in TINY.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8")
        assert [s for s in main_book_strings() if s in text] == [], path.name


@pytest.mark.build
def test_no_string_of_the_main_book_is_in_the_tiny_site(tiny):
    assert tiny.returncode == 0, tiny.output[-4000:]
    strings = main_book_strings()
    files = sorted(p for p in tiny.html.rglob("*") if p.is_file())
    assert len([p for p in files if p.suffix == ".html"]) >= 5
    found = {p.relative_to(tiny.html).as_posix(): [s for s in strings if s.encode() in p.read_bytes()] for p in files}
    assert {name: hits for name, hits in found.items() if hits} == {}
    assert not (tiny.html / "print").exists() and not (tiny.html / "_launch").exists()
    assert not (tiny.html.parent / "chapter_notebooks").exists()


def test_setting_the_extension_up_imports_no_book_package():
    """setup() imports every module :data:`attention_book.HOOKS` names (no build needed):
    in a Python that cannot import attention_scaling, it still runs, and asks for nothing."""
    probe = BLOCKER.split("report, sys.argv")[0] + textwrap.dedent('''
        import attention_book

        class App:
            def __getattr__(self, name):
                return lambda *args, **kwargs: None

        attention_book.setup(App())
        print(json.dumps({"blocked": blocked, "asked": asked, "hooks": len(attention_book.HOOKS)}))
    ''')
    proc = subprocess.run([sys.executable, "-c", probe], env=_env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["blocked"] and report["asked"] == [] and report["hooks"] > 20


@pytest.mark.parametrize("text", ["layers", "layers:.3e <folding:layers>", "layers:.3f <Folding:layers>",
                                  "layers:.3f folding:layers", "layers:.3f <folding:>"])
def test_a_malformed_live_role_is_an_error_that_says_the_syntax(text):
    """{live} needs key:.Nf or key:.Ng and <module:path>: anything else is a build error
    (the strict build fails) naming the form it wants, before any glue is looked up."""
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.parsers.rst.states import Inliner
    from docutils.utils import new_document

    from attention_book.live import LiveRole

    document = new_document("page.md", get_default_settings(Parser))
    inliner = Inliner()
    inliner.init_customizations(document.settings)
    inliner.document, inliner.reporter = document, document.reporter
    document.reporter.get_source_and_line = lambda line: ("page.md", line)  # as a state machine sets it
    made, messages = LiveRole()("live", f"{{live}}`{text}`", text, 1, inliner)
    assert made == [] and len(messages) == 1
    assert messages[0]["level"] == 3 and "key:.Nf <module:path>" in messages[0].astext()
