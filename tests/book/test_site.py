"""The published site: CI workflow, `make publish`, sitemap, social tags, footer, 404 page.

Checks run on the book the session built (the `site` fixture). The 404 page is also
served the way GitHub Pages serves it, for a missing address deep under the site's path.
"""

from __future__ import annotations

import functools
import html
import http.server
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pytest
import yaml

from attention_book.launch import site_address
from attention_book.repository import find_repository
from book_files import ROOT, edition_toc_files, html_page, instructor_pages, learner_toc_files, toc_files
from serving import QuietServer

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())


def derived_baseurl(root: Path = ROOT) -> str:
    """The site's address a build of the clone at ``root`` derives (attention_book.launch):
    html.baseurl when set, else that clone's GitHub Pages site, else "" (no address: no sitemap)."""
    repository = CONFIG.get("repository") or {}
    repo, _ = find_repository(cwd=root, override_url=repository.get("url") or "",
                              override_branch=repository.get("branch") or "")
    return site_address(repo, (CONFIG.get("html") or {}).get("baseurl") or "")


BASEURL = derived_baseurl()
WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"
PREVIEW = CONFIG["sphinx"]["config"]["book_preview_path"]  # attention_book.CONFIG
# The redirect at the site root is not a page of its own (it has tags, not a footer).
REDIRECT = "index.html"
NOT_IN_SITEMAP = {REDIRECT, "search.html", "404.html"}


def built_pages(site: Path) -> list[str]:
    return sorted(
        str(p.relative_to(site))
        for p in site.rglob("*.html")
        if p.relative_to(site).parts[0] not in ("_static", "_sources")
    )


class _Head(HTMLParser):
    """Meta tags (by property or name) and the commit marker of one page."""

    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.commit: tuple[str, str] | None = None
        self._in_commit = False
        self._sha = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and "content" in a:
            key = a.get("property") or a.get("name")
            if key:
                self.meta[key] = a["content"]
        if tag == "code" and "asb-commit" in (a.get("class") or "").split():
            self._in_commit, self._sha = True, a.get("data-sha", "")

    def handle_data(self, data):
        if self._in_commit:
            self.commit = (data.strip(), self._sha)
            self._in_commit = False


def parse(path: Path) -> _Head:
    head = _Head()
    head.feed(path.read_text(encoding="utf-8"))
    return head


def git(*args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=20)
    except OSError:
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


# --- the workflow runs the README's commands ----------------------------------------------


def readme_commands() -> list[str]:
    """The commands in the README's "The two commands" block, e.g. ["make book", "make test"]."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## The two commands\s+```\w*\n(.*?)```", text, re.S).group(1)
    return [" ".join(line.split("#")[0].split()) for line in block.splitlines() if line.strip()]


def make_targets(job: dict) -> list[str]:
    targets = []
    for step in job.get("steps", []):
        targets += re.findall(r"(?m)^\s*make\s+([\w-]+)", step.get("run", ""))
    return targets


def uses(job: dict, action: str) -> list[dict]:
    return [s for s in job.get("steps", []) if s.get("uses", "").split("@")[0] == action]


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def test_readme_has_two_make_commands():
    assert readme_commands() == ["make book", "make test"]


def test_workflow_runs_the_readme_commands(workflow):
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as True
    assert "pull_request" in on
    assert on["push"]["branches"] == ["main"]
    jobs = workflow["jobs"]
    # The tests run on every event, pull requests and pushes alike; the book is built (and
    # then deployed) only on a push, and only after the tests have passed.
    (test,) = [name for name, j in jobs.items() if make_targets(j) == ["test"]]
    assert "if" not in jobs[test]
    push_jobs = [j for j in jobs.values() if "github.event_name != 'pull_request'" in j.get("if", "")]
    assert [make_targets(j) for j in push_jobs if make_targets(j)] == [["book"]]
    (build,) = [j for j in push_jobs if make_targets(j) == ["book"]]
    assert build["needs"] == test
    assert jobs["deploy"]["needs"] == "build"
    everything = {f"make {t}" for j in jobs.values() for t in make_targets(j)}
    assert everything == set(readme_commands())


def test_workflow_deploys_with_the_official_pages_actions(workflow):
    jobs = workflow["jobs"]
    assert workflow["permissions"] == {"contents": "read"}
    build = next(j for j in jobs.values() if make_targets(j) == ["book"])
    assert uses(build, "actions/configure-pages")
    (upload,) = uses(build, "actions/upload-pages-artifact")
    assert upload["with"]["path"] == "_build/html"
    deploy = jobs["deploy"]
    assert deploy["needs"] == "build"
    assert "refs/heads/main" in deploy["if"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert uses(deploy, "actions/deploy-pages")


def test_workflow_caches_venv_and_executions(workflow):
    for name, job in workflow["jobs"].items():
        if not make_targets(job):
            continue
        caches = {s["with"]["path"]: s["with"] for s in uses(job, "actions/cache")}
        assert set(caches) == {".venv", "_build/.jupyter_cache"}, name
        for spec in caches.values():
            # Both packages' pyproject.toml: the reader's and the build tools' (booktools/).
            assert "hashFiles('requirements*.txt', 'pyproject.toml', 'booktools/pyproject.toml')" in spec["key"], name
            assert "python-version" in caches[".venv"]["key"]  # a venv is tied to its Python


# --- make publish ---------------------------------------------------------------------------


def publish_command(*variables: str) -> list[str]:
    """The ghp-import command `make publish` runs, as make prints it (nothing is run)."""
    venv = Path(sys.executable).parent.parent
    env = {k: v for k, v in os.environ.items() if k != "PAGES_BRANCH"}
    out = subprocess.run(["make", "-n", "publish", f"VENV={venv}", *variables], cwd=ROOT, capture_output=True,
                         text=True, check=True, env=env).stdout.replace("\\\n", " ")
    (line,) = [ln for ln in out.splitlines() if "ghp-import" in ln]
    return shlex.split(line)


def test_make_publish_pushes_the_site_to_gh_pages():
    argv = publish_command()
    assert Path(argv[0]).name == "ghp-import"
    assert {"-n", "-p"} <= set(argv)  # .nojekyll, so _static/ is served; push
    assert argv[argv.index("-b") + 1] == "gh-pages"  # pages_branch in _config.yml
    assert argv[-1] == "_build/html"
    site_argv = publish_command("PAGES_BRANCH=site")
    assert site_argv[site_argv.index("-b") + 1] == "site"


def test_a_pages_branch_given_to_make_reaches_the_build():
    """`make publish PAGES_BRANCH=site` builds with PAGES_BRANCH=site in the environment,
    which the build reads (attention_book.launch.pages_branch), so the Colab links open
    the branch that is pushed. A probe target added to the Makefile prints what a recipe sees."""
    env = {k: v for k, v in os.environ.items() if k != "PAGES_BRANCH"}
    probe = ["make", "-s", "-f", "Makefile", "-f", "-", "probe"]
    recipe = "probe:\n\t@echo \"[$$PAGES_BRANCH]\"\n"
    seen = [subprocess.run([*probe, *extra], cwd=ROOT, input=recipe, capture_output=True, text=True,
                           check=True, env=env).stdout.strip() for extra in ([], ["PAGES_BRANCH=site"])]
    assert seen == ["[]", "[site]"]


def test_publish_command_makes_a_gh_pages_branch(learner_site, tmp_path):
    """The same command in a scratch repository whose `origin` is a bare repository next to
    it (nothing leaves the machine): the pushed branch holds the site (the learner's
    edition, which `make book` builds and `make publish` pushes), in one commit."""
    argv = publish_command()
    assert argv[-1] == "_build/html"
    argv[-1] = str(learner_site)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@localhost"}
    work, origin = tmp_path / "work", tmp_path / "origin.git"
    work.mkdir()
    run = functools.partial(subprocess.run, cwd=work, env=env, check=True, capture_output=True, text=True)
    run(["git", "init", "-q", "--bare", str(origin)])
    run(["git", "init", "-q", "-b", "main"])
    run(["git", "remote", "add", "origin", str(origin)])
    run(["git", "commit", "-q", "--allow-empty", "-m", "source"])
    for _ in range(2):  # a second publish replaces the first: no history piles up
        run(argv)
    pushed = ["git", "--git-dir", str(origin)]
    files = set(run([*pushed, "ls-tree", "-r", "--name-only", "gh-pages"]).stdout.split())
    assert {".nojekyll", "index.html", "404.html", PREVIEW} | ({"sitemap.xml"} if BASEURL else set()) <= files
    assert {html_page(p) for p in learner_toc_files()} <= files
    assert not {f"{p}.html" for p in instructor_pages()} & files
    assert run([*pushed, "rev-list", "--count", "gh-pages"]).stdout.strip() == "1"
    assert run([*pushed, "log", "-1", "--format=%s", "gh-pages"]).stdout.startswith("Publish the book built from")


# --- sitemap, tags, footer -------------------------------------------------------------------


def sitemap_paths(site: Path, base: str = BASEURL) -> list[str]:
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [e.text for e in ET.parse(site / "sitemap.xml").getroot().findall("s:url/s:loc", ns)]
    assert all(loc.startswith(base) for loc in locs), locs
    return [loc[len(base):] for loc in locs]


def test_baseurl_is_set_once():
    """The address is derived from the repository; only an html.baseurl override writes it."""
    assert BASEURL == "" or (BASEURL.startswith("https://") and BASEURL.endswith("/"))
    sources = [ROOT / "_config.yml", *ROOT.glob("src/attention_scaling/**/*.py"),
               *ROOT.glob("booktools/src/attention_book/**/*.py"), ROOT / "Makefile",
               *(p for p in ROOT.glob("scripts/*") if p.is_file()), WORKFLOW, ROOT / "CITATION.cff"]
    placeholders = [str(p.relative_to(ROOT)) for p in sources if "example.github.io" in p.read_text()]
    assert placeholders == []
    if BASEURL:
        holders = [str(p.relative_to(ROOT)) for p in sources if BASEURL.rstrip("/") in p.read_text()]
        assert holders == (["_config.yml"] if (CONFIG.get("html") or {}).get("baseurl") else [])


# Each test that takes `every_site` runs on this clone's build and on the published path's
# (the same tree built as a fork on GitHub, tests/conftest.py): a site address, a sitemap,
# link previews and launch links on the one; perhaps none of them on the other.


def test_sitemap_lists_every_page(every_site):
    """Every page a reader can open, the printable sheets too: they are pages of the site,
    linked from the instructor page and shared between instructors."""
    site, base = every_site.html, derived_baseurl(every_site.root)
    if not base:  # a sitemap needs absolute addresses; a stale one must not survive
        assert not (site / "sitemap.xml").exists()
        return
    paths = sitemap_paths(site, base)
    assert len(paths) == len(set(paths))
    assert set(paths) == set(built_pages(site)) - NOT_IN_SITEMAP
    assert {html_page(p) for p in edition_toc_files(every_site.edition)} <= set(paths)


def test_every_page_has_social_tags(every_site):
    site, base = every_site.html, derived_baseurl(every_site.root)
    if not base:  # no address: no tag may point at one (a relative URL is not a dead link)
        for page in built_pages(site):
            meta = parse(site / page).meta
            assert not [k for k, v in meta.items() if re.match(r"https?://", v)], page
        return
    for page in built_pages(site):
        meta = parse(site / page).meta
        for key in ("og:title", "og:description", "og:image", "og:url", "twitter:card"):
            assert meta.get(key, "").strip(), f"{page} has no {key}"
        assert not re.search(r"\\[A-Za-z]", meta["og:description"]), f"raw TeX in {page}: {meta['og:description']}"
        assert meta["og:url"].startswith(base)
        assert meta["og:image"].startswith(base), meta["og:image"]
        assert (site / meta["og:image"][len(base):]).is_file(), f"{page}: {meta['og:image']} is not in the build"
        assert meta["twitter:card"] == "summary_large_image"
        assert meta["twitter:image"] == meta["og:image"]
        assert 0 < len(meta["twitter:image:alt"]) <= 420


def test_every_page_has_a_description_and_an_icon(every_site):
    """Search engines show a page's description (Lighthouse's SEO audit fails a page without
    one), and a browser asks the server for /favicon.ico when a page names no icon (a 404
    in the console). Every page, the generated ones too, with or without a site address."""
    site = every_site.html
    for page in built_pages(site):
        text = (site / page).read_text(encoding="utf-8")
        head = text[:text.find("</head>")]
        meta = parse(site / page).meta
        assert len(meta.get("description", "").strip()) >= 50, f"{page} has no description"
        assert not re.search(r"\\[A-Za-z]", meta["description"]), f"raw TeX in {page}: {meta['description']}"
        icons = re.findall(r'<link\b[^>]*\brel="icon"[^>]*\bhref="([^"]+)"', head)
        assert icons, f"{page} names no icon"
        assert icons[0].startswith("data:image/") or (site / page).parent.joinpath(icons[0]).resolve().is_file(), (
            f"{page}: icon {icons[0]} is not in the build")


def test_preview_is_the_main_explorable(site):
    """The preview PNG holds the main explorable's frame at its default setting, pixel for pixel."""
    import io

    from PIL import Image

    from attention_scaling.explorables import attention_explorer
    from attention_book.publishing import CARD_FRAME_TOP, PREVIEW_SIZE

    assert PREVIEW == "_static/social/attention-explorer.png"
    card = Image.open(site / PREVIEW)
    assert card.format == "PNG" and card.size == PREVIEW_SIZE
    frame = np.asarray(Image.open(io.BytesIO(attention_explorer().frame()[0])).convert("RGB"))
    h, w = frame.shape[:2]
    x0 = (PREVIEW_SIZE[0] - w) // 2
    region = np.asarray(card.convert("RGB"))[CARD_FRAME_TOP:CARD_FRAME_TOP + h, x0:x0 + w]
    assert np.array_equal(region, frame)


def assert_footers_name_the_commit(site: Path) -> None:
    """Every page's footer names HEAD's commit, the build date and both licences."""
    short, sha = git("rev-parse", "--short", "HEAD"), git("rev-parse", "HEAD")
    for page in built_pages(site):
        if page == REDIRECT:
            continue
        text = (site / page).read_text(encoding="utf-8")
        head = parse(site / page)
        if sha is None:
            assert "no commit recorded" in text, page
            continue
        assert head.commit == (short, sha), f"{page}: footer names {head.commit}, HEAD is {short}"
        assert re.search(r"Built on \d{4}-\d{2}-\d{2} from commit", text), page
        assert "creativecommons.org/licenses/by/4.0/" in text and ">CC BY 4.0<" in text, page
        assert ">MIT<" in text, page


def test_every_page_footer_names_the_commit(every_site):
    assert_footers_name_the_commit(every_site.html)


def test_landing_page_redirects_with_tags(every_site):
    site, base = every_site.html, derived_baseurl(every_site.root)
    text = (site / REDIRECT).read_text(encoding="utf-8")
    first = html_page(toc_files()[0])
    assert f'content="0; url={first}"' in text
    assert f'rel="canonical" href="{base}{first}"' in text


# --- the 404 page ----------------------------------------------------------------------------


def test_404_page_is_self_contained(site):
    page = site / "404.html"
    assert page.is_file()
    text = page.read_text(encoding="utf-8")
    assert '<meta name="robots" content="noindex" />' in text
    assert not re.search(r"<link\b[^>]*rel=\"stylesheet\"", text)
    assert not re.search(r"<script\b[^>]*\bsrc=", text)
    assert all(src.startswith("data:") for src in re.findall(r"<img\b[^>]*\bsrc=\"([^\"]*)\"", text))
    assert [p for p in re.findall(r'data-path="([^"]+)"', text) if p.endswith(".html")][1:-1] == [
        html_page(p) for p in toc_files()
    ]


class _PagesHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site under `prefix`, and 404.html for any missing address, like GitHub Pages."""

    prefix = "/"

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.path.split("?")[0]
        if path.startswith(self.prefix):
            self.path = "/" + path[len(self.prefix):]
            target = Path(self.translate_path(self.path))
            if target.is_file() or (target.is_dir() and (target / "index.html").is_file()):
                return super().do_GET()
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def pages_server(site):
    prefix = urlparse(BASEURL).path or "/"
    handler = functools.partial(type("H", (_PagesHandler,), {"prefix": prefix}), directory=str(site))
    httpd = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}{prefix}"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.browser
def test_404_page_works_deep_under_the_published_path(browser, pages_server):
    """GitHub Pages answers /<repo>/any/missing/page with 404.html: its links must still work."""
    origin = pages_server.split("/", 3)
    origin = "/".join(origin[:3])
    # Without a site address the links stay relative to the site root, which is right for
    # a missing address at the root (there is no Pages site to be deep in).
    missing = pages_server + ("book/no/such/chapter.html" if BASEURL else "no-such-page.html")
    context = browser.new_context()
    page = context.new_page()
    errors, failed, external = [], [], []
    page.on("console", lambda m: errors.append((m.text, m.location.get("url"))) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append((str(e), "")))
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("request", lambda r: None if r.url.startswith(origin + "/") or r.url.startswith("data:") else external.append(r.url))
    response = page.goto(missing)
    assert response.status == 404
    assert page.locator("h1").inner_text() == "Page not found"
    # The browser reports the 404 status of the page itself; nothing else may complain.
    assert [e for e in errors if not (e[1] == missing and "404" in e[0])] == []
    assert failed == [] and external == []
    hrefs = page.eval_on_selector_all("a[data-path]", "as => as.map(a => [a.dataset.path, a.href])")
    assert hrefs and all(href == pages_server + path for path, href in hrefs)
    page.locator("main a[data-path]").first.click()
    page.wait_for_load_state("load")
    assert page.url == pages_server + html_page(toc_files()[0])
    context.close()
    # it follows the reader's dark setting, as the book's pages do (a cold reading found it white)
    for scheme, dark in (("light", False), ("dark", True)):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(missing)
        colours = page.evaluate("() => [getComputedStyle(document.body).backgroundColor, "
                                "getComputedStyle(document.querySelector('h1')).color]")
        background = [int(x) for x in colours[0][colours[0].index("(") + 1:-1].split(",")[:3]]
        assert (sum(background) < 3 * 60) == dark, (scheme, colours)
        context.close()


# --- citation and licences -------------------------------------------------------------------


def test_citation_file():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    assert cff["title"] and cff["authors"]
    assert set(cff["license"]) == {"CC-BY-4.0", "MIT"}
    cited = " ".join(str(r) for r in cff["references"])
    assert "Bishop" in cited and "Quintero" in cited


def test_the_version_is_written_once():
    """attention_scaling.__version__ is the only place: the installed metadata reads it,
    pyproject.toml names no version of its own, and CITATION.cff (which cannot read it) none."""
    import importlib.metadata
    import tomllib

    import attention_scaling

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "attention_scaling.__version__"}
    assert importlib.metadata.version("attention-scaling") == attention_scaling.__version__
    assert "version" not in yaml.safe_load((ROOT / "CITATION.cff").read_text())


def test_readme_states_licences_and_publishing():
    text = (ROOT / "README.md").read_text()
    publishing = re.search(r"## Publishing\n(.*?)(?=\n## )", text, re.S).group(1)
    for needle in ("make publish", "html.baseurl", ".github/workflows/book.yml", "gh-pages"):
        assert needle in publishing, needle
    assert "CC BY 4.0" in text and "MIT" in text and "CITATION.cff" in text


# --- incremental builds ----------------------------------------------------------------------


@pytest.mark.build
def test_a_warm_rebuild_keeps_sitemap_and_footers_whole(published_site, tmp_path):
    """Rebuilding with nothing changed writes every page again: the sitemap lists only the
    pages a build writes, and every footer carries this build's stamp. The published path's
    tree (it has a site address, so a sitemap) is rebuilt in a copy of itself, executions,
    doctrees and pages included: the other tests keep reading pages that stay put (a page
    being rewritten links eleven stylesheets until the bundling step runs). A build tool
    (the Sphinx extension) is edited first: no page runs it, so no chapter executes again
    (scripts/executed_sources.py), and the execution cache holds the same records."""
    tree = tmp_path / "book"
    shutil.copytree(published_site.root, tree, symlinks=True)
    with (tree / "src" / "attention_scaling" / "sphinx_ext.py").open("a") as tool:
        tool.write("\n# edited by test_a_warm_rebuild_keeps_sitemap_and_footers_whole\n")
    executed = tree / "_build" / ".jupyter_cache" / "executed"
    def records():  # each cached execution's files and times (a re-execution writes new ones)
        return sorted((str(p.relative_to(executed)), p.stat().st_mtime_ns) for p in executed.rglob("*"))
    before = records()
    proc = subprocess.run([str(tree / "scripts" / "build-book"), sys.executable], cwd=tree,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "re-executing" not in proc.stdout, proc.stdout[-3000:]
    assert before and records() == before
    site, base = tree / "_build" / "html", derived_baseurl(tree)
    assert base, "the published path's tree has a site address"
    assert set(sitemap_paths(site, base)) == set(built_pages(site)) - NOT_IN_SITEMAP
    assert_footers_name_the_commit(site)


PROOF_HEADER = re.compile(r"^```\{prf:(theorem|corollary|lemma|proposition)\} (.+)\n:label: (\S+)", re.M)


def test_the_theorem_index_names_every_result_by_number_and_title(site):
    """prf-theorems.html lists every result the chapters state, by its number and title under
    its chapter, linking to it, in place of sphinx-proof's index of bare labels (prf-prf)."""
    page = (site / "prf-theorems.html").read_text()
    assert not (site / "prf-prf.html").exists()
    rows = re.findall(r'<a href="([^"#]+)#([^"]+)"><code class="xref">([^<]+)</code></a>', page)
    listed = {anchor: (href, html_text(name)) for href, anchor, name in rows}
    stated = {}
    for md in sorted((ROOT / "book").glob("*.md")):
        for kind, title, label in PROOF_HEADER.findall(md.read_text()):
            stated[label] = (f"book/{md.stem}.html", kind.title(), title.strip().replace("'", "\u2019"))
    assert len(stated) >= 13 and set(listed) == set(stated)
    for label, (href, kind, title) in stated.items():
        assert listed[label][0] == href
        assert re.fullmatch(rf"{kind} \d+\.\d+ · {re.escape(title)}", listed[label][1]), listed[label]
    assert listed["thm-cross-term"][1] == "Theorem 2.1 · Off-diagonal terms"
    text = html_text(page[page.index("<h1>"):page.index("</table>")])
    assert "thm-" not in text and "cor-" not in text  # no raw label is shown
    # The chapters in the book's order, each named beside its first result.
    chapters = re.findall(r'<tr class="cap" id="cap-Chapter\xa0(\d+)">', page)
    assert chapters == sorted(chapters, key=int) and "1" in chapters
    assert "Bound the softmax Jacobian" in text


def html_text(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


def test_every_downloaded_notebook_carries_its_outputs(site, published_site):
    """A chapter's "download .ipynb" is its executed notebook. myst-nb 1.x wrote it without
    outputs whenever they came from jupyter-cache, as they do for every page of the published
    build (restored from this build's executions) and for a page re-read with its code
    unchanged; attention_book.launch puts them back. Both builds offer the same outputs."""
    import json

    def outputs(html_dir: Path) -> dict[str, list]:
        found = {}
        for nb in sorted((html_dir / "_sources" / "book").glob("*.ipynb")):
            cells = json.loads(nb.read_text())["cells"]
            found[nb.stem] = [c.get("outputs", []) for c in cells if c["cell_type"] == "code"]
        return found

    here, published = outputs(site), outputs(published_site.html)
    only_instructors = {p.rsplit("/", 1)[-1] for p in instructor_pages()}
    assert set(here) - only_instructors == set(published) and len(published) >= 8
    assert not only_instructors & set(published)  # the published edition is the learner's
    chapters = [name for name in here if name not in ("intro", "revise", "teach-with-this-book")]
    assert len(chapters) == 7  # the numbered chapters, each with figures or printed results
    for name, cells in here.items():
        assert sum(1 for c in cells if c) >= 1 or name not in chapters, f"{name}: no code cell has an output"
        if name in published:
            assert [len(c) for c in published[name]] == [len(c) for c in cells], name
        # glued values leave their cells, as when a page is executed in the build
        assert not any("scrapbook" in o.get("metadata", {}) for c in cells for o in c if "metadata" in o), name


def test_the_general_index_names_the_books_ideas(site):
    """genindex.html held only dk, d_k and key dimension, each listed from six pages (the
    eighth cold reading: "close to useless"). Each chapter now indexes the ideas its sections
    introduce; every entry links into a chapter, and dk (which search needs: the text writes
    dₖ) links to chapter 3 alone."""
    page = (site / "genindex.html").read_text()
    body = page[page.index("<h1"):page.index("</article>")]
    terms = {html.unescape(t).strip() for t in re.findall(r'<li>(?:<a href="[^"]*">)?([^<]+)<', body)}
    for term in ("attention sink", "Gershgorin's circle theorem", "log-sum-exp", "QK-norm", "temperature",
                 "soft cap (tanh)", "μP (muP)", "max subtraction", "Pre-LN", "cancellation"):
        assert term in terms, term
    links = re.findall(r'<a href="(book/[^"#]+)#', body)
    assert len(links) >= 40 and {link.split("/")[1] for link in links} >= {
        f"{name}.html" for name in ("derive-the-softmax-gradient", "bound-the-softmax-jacobian", "scale-the-scores",
                                    "follow-the-gradient", "keep-the-softmax-finite", "normalize-beyond-sqrt-dk",
                                    "keep-long-contexts-sharp")}
    dk = re.findall(r'<li><a href="([^"#]+)#[^"]*">dk</a>', body)
    assert dk == ["book/scale-the-scores.html"] and "<li>dk" not in body  # one link, not a list of six
