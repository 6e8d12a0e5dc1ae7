"""Launch buttons: found from where the book is built, never a placeholder.

- Unit tests of :mod:`attention_book.repository` and :mod:`attention_book.launch`: every form of a GitHub remote, GitHub
  Actions' variables, no remote, a remote elsewhere, the _config.yml override, bad input.
- The built site: every page carries exactly the links derived for THIS clone (none when
  its origin is not on GitHub, and then no launch menu at all and no placeholder link
  anywhere); download links point at files in the site.
- One small Jupyter Book, built in a scratch clone whose origin is a GitHub fork: its page
  links to that fork.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import pytest
import yaml

import attention_book
from attention_book import chapter_notebooks
from attention_book import launch as build_launch
from attention_book.launch import site_address
from attention_book import repository as launch
from attention_book.repository import Repository, find_repository, parse_github_url
from book_files import ROOT, html_page, instructor_pages, toc_files

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
PAGES = toc_files()
BINDER, COLAB = "mybinder.org", "colab.research.google.com"
NO_ENV: dict[str, str] = {}  # a build outside GitHub Actions

GIT_ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@localhost"}


def clone(path: Path, origin: str | None, branch: str = "course") -> Path:
    """A scratch git repository on `branch`, with `origin` as its remote (or none)."""
    path.mkdir(parents=True, exist_ok=True)
    run = lambda *a: subprocess.run(["git", *a], cwd=path, env=GIT_ENV, check=True, capture_output=True)  # noqa: E731
    run("init", "-q", "-b", branch)
    if origin is not None:
        run("remote", "add", "origin", origin)
    return path


# --- which URLs name a GitHub repository ------------------------------------------------------


@pytest.mark.parametrize("url", [
    "https://github.com/ada/attention-book",
    "https://github.com/ada/attention-book.git",
    "https://github.com/ada/attention-book/",
    "http://github.com/ada/attention-book",
    "https://ada:ghp_secret@github.com/ada/attention-book.git",
    "git@github.com:ada/attention-book.git",
    "git@github.com:ada/attention-book",
    "ssh://git@github.com/ada/attention-book.git",
    "ssh://git@github.com:22/ada/attention-book.git",
    "git://github.com/ada/attention-book.git",
    "  https://GitHub.com/ada/attention-book.git\n",
])
def test_github_remote_forms(url):
    assert parse_github_url(url) == ("ada", "attention-book")


@pytest.mark.parametrize("url", [
    "",
    "/work/main",
    "../attention-book",
    "file:///work/main",
    "https://gitlab.com/ada/attention-book.git",
    "git@gitlab.com:ada/attention-book.git",
    "https://github.com.evil.org/ada/attention-book",
    "https://github.com/ada",
    "https://github.com/ada/attention-book/tree/main",
    "ftp://github.com/ada/attention-book",
])
def test_other_urls_are_not_github_repositories(url):
    assert parse_github_url(url) is None


def test_pages_address():
    assert Repository("Ada", "attention-book", "main", "x").pages_url == "https://ada.github.io/attention-book/"
    assert Repository("Ada", "ada.github.io", "main", "x").pages_url == "https://ada.github.io/"
    repo = Repository("ada", "book", "main", "x")
    assert site_address(repo) == "https://ada.github.io/book/"
    assert site_address(repo, "https://book.uni.edu/attn") == "https://book.uni.edu/attn/"
    assert site_address(None, "https://book.uni.edu/") == "https://book.uni.edu/"
    assert site_address(None) == ""


# --- where the repository comes from ----------------------------------------------------------


@pytest.mark.parametrize("origin", ["https://github.com/ada/fork.git", "git@github.com:ada/fork.git",
                                    "ssh://git@github.com/ada/fork.git"])
def test_origin_on_github(tmp_path, origin):
    repo, note = find_repository(cwd=clone(tmp_path, origin), environ=NO_ENV)
    assert repo == Repository("ada", "fork", "course", "git remote 'origin'")
    assert repo.url == "https://github.com/ada/fork"
    assert "https://github.com/ada/fork" in note and "course" in note


def test_github_actions_variables_win_over_origin(tmp_path):
    env = {"GITHUB_REPOSITORY": "grace/book", "GITHUB_SERVER_URL": "https://github.com",
           "GITHUB_REF_NAME": "main", "GITHUB_REF_TYPE": "branch", "GITHUB_EVENT_NAME": "push"}
    repo, _ = find_repository(cwd=clone(tmp_path, "git@github.com:ada/fork.git"), environ=env)
    assert (repo.owner, repo.name, repo.branch, repo.source) == ("grace", "book", "main", "GITHUB_REPOSITORY")


def test_pull_request_links_open_the_target_branch(tmp_path):
    env = {"GITHUB_REPOSITORY": "grace/book", "GITHUB_SERVER_URL": "https://github.com",
           "GITHUB_EVENT_NAME": "pull_request", "GITHUB_REF_NAME": "7/merge", "GITHUB_BASE_REF": "main",
           "GITHUB_HEAD_REF": "topic"}
    repo, _ = find_repository(cwd=clone(tmp_path, None), environ=env)
    assert repo.branch == "main"


def test_github_enterprise_has_no_launch_buttons(tmp_path):
    env = {"GITHUB_REPOSITORY": "grace/book", "GITHUB_SERVER_URL": "https://git.corp.test", "GITHUB_REF_NAME": "main"}
    repo, note = find_repository(cwd=clone(tmp_path, "git@github.com:ada/fork.git"), environ=env)
    assert repo is None and "git.corp.test" in note


def test_no_remote(tmp_path):
    repo, note = find_repository(cwd=clone(tmp_path, None), environ=NO_ENV)
    assert repo is None
    assert "no git remote 'origin'" in note and "repository.url" in note


@pytest.mark.parametrize("origin", ["/srv/git/book.git", "https://gitlab.com/ada/book.git"])
def test_remote_elsewhere(tmp_path, origin):
    repo, note = find_repository(cwd=clone(tmp_path, origin), environ=NO_ENV)
    assert repo is None
    assert origin in note and "not a GitHub repository" in note and "repository.url" in note


def test_message_never_shows_a_token(tmp_path):
    _, note = find_repository(cwd=clone(tmp_path, "https://ada:s3cret@gitlab.com/ada/book.git"), environ=NO_ENV)
    assert "s3cret" not in note and "gitlab.com/ada/book.git" in note


def test_override_wins(tmp_path):
    env = {"GITHUB_REPOSITORY": "grace/book", "GITHUB_REF_NAME": "main"}
    repo, note = find_repository(cwd=clone(tmp_path, "git@github.com:ada/fork.git"), environ=env,
                                 override_url="https://github.com/course/attention")
    assert (repo.url, repo.branch, repo.source) == ("https://github.com/course/attention", "main",
                                                    "repository.url in _config.yml")
    assert "repository.url" in note


def test_branch_override_is_the_last_resort(tmp_path):
    path = clone(tmp_path, "git@github.com:ada/fork.git")
    repo, _ = find_repository(cwd=path, environ=NO_ENV, override_branch="spring")
    assert repo.branch == "course"  # the checked-out branch comes first
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "x"], cwd=path, env=GIT_ENV, check=True)
    subprocess.run(["git", "checkout", "-q", "--detach"], cwd=path, env=GIT_ENV, check=True)
    repo, note = find_repository(cwd=path, environ=NO_ENV)
    assert repo is None and "detached" in note and "repository.branch" in note
    repo, _ = find_repository(cwd=path, environ=NO_ENV, override_branch="spring")
    assert repo.branch == "spring"


@pytest.mark.parametrize("kwargs, name", [
    ({"override_url": "https://gitlab.com/ada/book"}, "override_url"),
    ({"override_url": "https://github.com/example"}, "override_url"),
    ({"override_url": 42}, "override_url"),
    ({"override_branch": "two words"}, "override_branch"),
    ({"environ": ["GITHUB_REPOSITORY=a/b"]}, "environ"),
    ({"environ": {"GITHUB_REPOSITORY": "just-a-name"}}, "GITHUB_REPOSITORY"),
    ({"cwd": "/no/such/directory"}, "cwd"),
])
def test_bad_input_names_the_parameter(tmp_path, kwargs, name):
    args = {"cwd": clone(tmp_path, None), "environ": NO_ENV, **kwargs}
    with pytest.raises(ValueError, match=re.escape(name)):
        find_repository(**args)


def test_bad_input_elsewhere_names_the_parameter():
    with pytest.raises(ValueError, match="^url"):
        parse_github_url(3)
    with pytest.raises(ValueError, match="^override"):
        site_address(None, "ftp://book.uni.edu/")
    with pytest.raises(ValueError, match="^repository"):
        site_address("https://github.com/ada/book")


# --- the built site ---------------------------------------------------------------------------


def this_clone(root: Path = ROOT) -> Repository | None:
    """The repository a build of the clone at ``root`` derived (same inputs: that clone, this
    environment)."""
    repository = CONFIG.get("repository") or {}
    repo, _ = find_repository(cwd=root, override_url=repository.get("url") or "",
                              override_branch=repository.get("branch") or "")
    return repo


def hrefs(html: str) -> list[str]:
    return [unquote(h.replace("&amp;", "&")) for h in re.findall(r'href="(https?://[^"]+)"', html)]


def launch_links(html: str) -> dict[str, list[str]]:
    hub = urlparse(CONFIG["launch_buttons"].get("jupyterhub_url") or "").netloc
    found = {"binder": [], "colab": [], "hub": []}
    for h in hrefs(html):
        host = urlparse(h).netloc
        kind = {BINDER: "binder", COLAB: "colab", hub: "hub"}.get(host)
        if kind and (kind != "hub" or hub):
            found[kind].append(h)
    return found


def launch_menu(html: str) -> str:
    """The HTML of the page's launch menu ('' when it has none)."""
    start = html.find('class="dropdown dropdown-launch-buttons"')
    return "" if start < 0 else html[start:html.index("</ul>", start)]


def kernel_notes(html: str) -> list[str]:
    """The text of every needs-a-kernel note on the page."""
    notes = re.findall(r'<p class="asb-needs-kernel">(.*?)</p>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", n).split()) for n in notes]


def test_kernel_note_names_the_menus_services():
    assert build_launch.kernel_note([]) == build_launch.NO_LAUNCH_NOTE
    # the static page answers first: every note points at the worked solution before any route
    assert all(build_launch.kernel_note(s).startswith(build_launch.STATIC_ROUTE) for s in ([], ["Binder"]))
    assert "on Binder, or download it" in build_launch.kernel_note(["Binder"])
    assert "on Binder, Colab or your JupyterHub," in build_launch.kernel_note(["Binder", "Colab", "your JupyterHub"])
    for bad in ("Binder", [""], [3]):
        with pytest.raises(ValueError, match="^services"):
            build_launch.kernel_note(bad)


@pytest.mark.parametrize("source", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_launch_links_are_the_derived_ones(every_site, source):
    """On this clone's build and on the published path's (a fork on GitHub)."""
    site, root = every_site.html, every_site.root
    if every_site.edition == "learner" and source.with_suffix("") in {ROOT / p for p in instructor_pages()}:
        assert not (site / html_page(source)).exists()  # the learner's edition has no such page
        return
    html = (site / html_page(source)).read_text(encoding="utf-8")
    repo, launch_cfg = this_clone(root), CONFIG["launch_buttons"]
    found = launch_links(html)
    if repo is None:
        assert found == {"binder": [], "colab": [], "hub": []}
        assert "dropdown-launch-buttons" not in html and "fa-rocket" not in html  # no empty menu
        return
    assert "dropdown-launch-buttons" in html
    # A chapter opens the notebook the build generates from it (notebooks/chapters/),
    # a lab itself; Colab opens the copy in the published site (gh-pages, _launch/).
    path = chapter_notebooks.launch_path(str(source.relative_to(ROOT).with_suffix("")))
    assert (root / path).is_file() and (site / "_launch" / path).is_file()
    # The prose may link Binder too (the intro's "where the notebooks are"): to this clone.
    assert all(urlparse(b).path.startswith(f"/v2/gh/{repo.owner}/{repo.name}/{repo.branch}")
               for b in found["binder"])
    found = {**launch_links(launch_menu(html)), "hub": found["hub"]}
    (binder,) = found["binder"]
    url = urlparse(binder)
    assert url.path == f"/v2/gh/{repo.owner}/{repo.name}/{repo.branch}"
    assert parse_qs(url.query)["urlpath"] == [f"lab/tree/{path}"]
    if launch_cfg.get("jupyterhub_url"):
        (hub,) = found["hub"]
        query = parse_qs(urlparse(hub).query)
        assert query["repo"] == [repo.url] and query["branch"] == [repo.branch]
        assert query["urlpath"] == [f"lab/tree/{repo.name}/{path}"]
    else:
        # The prose may name JupyterHub (how a course runs the book); the launch menu and
        # the notes that point at it must not offer one.
        assert found["hub"] == []
        assert "JupyterHub" not in launch_menu(html)
        assert [n for n in kernel_notes(html) if "JupyterHub" in n] == []
    services = [name for key, name in build_launch.SERVICE_NAMES if launch_cfg.get(key)]
    assert all(n.endswith(build_launch.kernel_note(services)) for n in kernel_notes(html))
    (colab,) = found["colab"]
    branch = CONFIG["sphinx"]["config"]["pages_branch"]
    assert urlparse(colab).path == f"/github/{repo.owner}/{repo.name}/blob/{branch}/_launch/{path}"


# Placeholder hosts, and the old placeholder repository in any launch URL
# (github.com/example/..., mybinder's /gh/example/..., Colab's /github/example/...).
PLACEHOLDER = re.compile(r"example\.(?:org|com)|example\.github\.io|hub\.example"
                         r"|(?:github\.com|/gh|/github)/example/|\bexample/attention-scaling\b")


def test_no_placeholder_anywhere_in_the_site(site):
    """No page, script, sitemap or feed links to a placeholder address."""
    offenders = []
    for path in site.rglob("*"):
        if path.suffix in {".html", ".js", ".xml", ".txt", ".json"} and "mathjax" not in path.parts:
            text = path.read_text(encoding="utf-8", errors="replace")
            offenders += [f"{path.relative_to(site)}: {m.group(0)}" for m in PLACEHOLDER.finditer(text)]
    assert offenders == []


def test_the_build_says_where_the_links_come_from(built_book, site):
    repo = this_clone()
    (line,) = [ln for ln in built_book.output.splitlines() if "attention_book.launch:" in ln]
    if repo is None:
        assert "no launch buttons" in line and "repository.url" in line
        assert "No site address" in line and not (site / "sitemap.xml").exists()
    else:
        assert repo.url in line and f"branch {repo.branch}" in line


@pytest.mark.parametrize("source", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_download_links_exist_in_the_site(site, source):
    page = site / html_page(source)
    html = page.read_text(encoding="utf-8")
    downloads = set(re.findall(r'href="([^"]*_sources/[^"]+)"', html))
    suffixes = {".ipynb"} | ({".md"} if source.suffix == ".md" else set())
    assert {d.rsplit(".", 1)[-1] for d in downloads} >= {s.lstrip(".") for s in suffixes}
    for href in downloads:
        assert (page.parent / href).resolve().is_file(), href


# --- the branch the site is published to ----------------------------------------------------


def test_pages_branch_is_configured_unless_the_environment_says_otherwise():
    assert build_launch.pages_branch("gh-pages", environ={}) == "gh-pages"
    assert build_launch.pages_branch("gh-pages", environ={"PAGES_BRANCH": "site"}) == "site"
    assert build_launch.pages_branch("gh-pages", environ={"PAGES_BRANCH": ""}) == "gh-pages"
    assert build_launch.config_pages_branch(CONFIG) == "gh-pages"


@pytest.mark.parametrize("configured, environ, named", [
    ("", {}, "configured"), ("two words", {}, "configured"), ("gh-pages", {"PAGES_BRANCH": "a:b"}, "PAGES_BRANCH"),
])
def test_pages_branch_rejects_what_is_not_a_branch(configured, environ, named):
    with pytest.raises(ValueError, match=named):
        build_launch.pages_branch(configured, environ=environ)


def test_config_without_a_pages_branch_is_an_error():
    with pytest.raises(ValueError, match="pages_branch"):
        build_launch.config_pages_branch({"sphinx": {"config": {}}})
    with pytest.raises(ValueError, match="branch"):
        chapter_notebooks.colab_url("https://colab.research.google.com", "ada", "fork", "book/intro", "")


def test_the_command_line_prints_the_pages_branch():
    def run(**env):
        return subprocess.run([sys.executable, "-m", "attention_book.launch", "--pages-branch"], cwd=ROOT,
                              env={**{k: v for k, v in os.environ.items() if k != "PAGES_BRANCH"}, **env},
                              capture_output=True, text=True, check=True).stdout.strip()
    assert run() == CONFIG["sphinx"]["config"]["pages_branch"]
    assert run(PAGES_BRANCH="site") == "site"


# --- a fork on GitHub gets links to itself ------------------------------------------------------


TINY_CONFIG = {
    "title": "Tiny",
    "only_build_toc_files": True,
    "execute": {"execute_notebooks": "off"},
    "repository": {"url": ""},
    "launch_buttons": {"notebook_interface": "jupyterlab", "binderhub_url": "https://mybinder.org",
                       "colab_url": "https://colab.research.google.com",
                       "jupyterhub_url": "https://hub.uni.test"},
    "sphinx": {"extra_extensions": ["sphinx_sitemap", "attention_book"],
               "config": {"sitemap_url_scheme": "{link}", "pages_branch": "pages", "book_chapter_notebooks": True}},
}
TINY_NOTEBOOK = """{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# A lab"]}],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
 "nbformat": 4, "nbformat_minor": 5}"""


TINY_CHAPTER = """---
jupytext: {text_representation: {extension: .md, format_name: myst}}
kernelspec: {display_name: Python 3, language: python, name: python3}
---
# A chapter

```{code-cell} ipython3
x = 1
```
"""


def test_a_fork_on_github_builds_links_to_itself(tmp_path):
    """A one-page book in a clone whose origin is git@github.com:ada/fork.git, on branch
    `course`, built by jupyter-book with this extension (outside GitHub Actions). Its site
    is published to the branch `pages` (_config.yml), and the build is run as `make publish
    PAGES_BRANCH=site` runs it, so Colab opens the branch `site`."""
    book = clone(tmp_path / "fork", "git@github.com:ada/fork.git")
    (book / "labs").mkdir()
    (book / "labs" / "lab.ipynb").write_text(TINY_NOTEBOOK)
    (book / "book").mkdir()
    (book / "book" / "chapter.md").write_text(TINY_CHAPTER)
    (book / "_toc.yml").write_text("format: jb-book\nroot: labs/lab\nchapters:\n  - file: book/chapter\n")
    (book / "_config.yml").write_text(yaml.safe_dump(TINY_CONFIG))
    env = {k: v for k, v in GIT_ENV.items() if not k.startswith("GITHUB_")}
    env["PAGES_BRANCH"] = "site"
    for args in (["add", "-A"], ["commit", "-q", "-m", "a fork"]):
        subprocess.run(["git", *args], cwd=book, env=env, check=True, capture_output=True)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=book, env=env, check=True, capture_output=True,
                            text=True).stdout.strip()
    proc = subprocess.run([str(Path(sys.executable).parent / "jupyter-book"), "build", str(book), "-W"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "launch: Binder · Colab (notebooks) · JupyterHub buttons open https://github.com/ada/fork" in proc.stdout
    # A lab opens itself; a chapter opens the notebook generated from it, which Colab finds in the site.
    for page, path in (("labs/lab.html", "labs/lab.ipynb"),
                       ("book/chapter.html", "notebooks/chapters/chapter.ipynb")):
        html = (book / "_build" / "html" / page).read_text(encoding="utf-8")
        links = [h for h in hrefs(html) if urlparse(h).netloc in (BINDER, COLAB, "hub.uni.test")]
        assert sorted(links) == sorted([
            f"https://mybinder.org/v2/gh/ada/fork/course?urlpath=lab/tree/{path}",
            f"https://colab.research.google.com/github/ada/fork/blob/site/_launch/{path}",
            "https://hub.uni.test/hub/user-redirect/git-pull?repo=https://github.com/ada/fork"
            f"&urlpath=lab/tree/fork/{path}&branch=course",
        ]), page
    # The Colab copies install the package from this fork at the commit built.
    for copy in ("notebooks/chapters/chapter.ipynb", "labs/lab.ipynb"):
        cells = json.loads((book / "_build" / "html" / "_launch" / copy).read_text())["cells"]
        if copy.startswith("notebooks"):
            install = "".join(next(c for c in cells if c["cell_type"] == "code")["source"])
            assert install == chapter_notebooks.install_cell("https://github.com/ada/fork", commit)
        else:  # this lab has no install cell: it is copied as it is
            assert cells == json.loads(TINY_NOTEBOOK)["cells"]
    sitemap = (book / "_build" / "html" / "sitemap.xml").read_text()
    assert "<loc>https://ada.github.io/fork/labs/lab.html</loc>" in sitemap
    assert attention_book.__name__ in TINY_CONFIG["sphinx"]["extra_extensions"]


# --- nbgitpuller links (launch.nbgitpuller_link; the hub test opens them on a real hub) ----

LAB = "notebooks/lab-predict-then-move-the-slider.ipynb"


@pytest.mark.parametrize("hub, repo, branch, path, folder", [
    ("https://hub.uni.test", "https://github.com/ada/book", "main", LAB, "book"),
    ("https://hub.uni.test/", "https://github.com/ada/book.git", "course/2026", LAB, "book.git"),
    ("http://127.0.0.1:8123/prefix", "file:///tmp/served/attention.git", "hub", "a/b_c&d=e.ipynb",
     "attention.git"),
    ("https://hub.uni.test", "git@github.com:ada/book.git", "ä+ö", "notebooks/ß?.ipynb", "book.git"),
])
def test_nbgitpuller_link_decodes_to_what_nbgitpuller_reads(hub, repo, branch, path, folder):
    link = launch.nbgitpuller_link(hub, repo, branch, path)
    parts = urlparse(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == hub.rstrip("/") + "/hub/user-redirect/git-pull"
    query = parse_qs(parts.query, strict_parsing=True)
    assert query == {"repo": [repo], "urlpath": [f"lab/tree/{folder}/{path}"], "branch": [branch]}
    # nbgitpuller clones into the last part of the URL; the link opens the file there
    assert folder == repo.rstrip("/").split("/")[-1]
    assert not re.search(r"\s", link)


@pytest.mark.parametrize("kwargs, name", [
    ({"hub": "hub.uni.test"}, "hub"),
    ({"hub": "ftp://hub.uni.test"}, "hub"),
    ({"hub": "https://hub.uni.test?x=1"}, "hub"),
    ({"hub": "https://my hub"}, "hub"),
    ({"hub": 3}, "hub"),
    ({"repo": ""}, "repo"),
    ({"repo": "https://github.com/.."}, "repo"),
    ({"repo": "file:///tmp/a b/x.git"}, "repo"),
    ({"branch": ""}, "branch"),
    ({"branch": "a b"}, "branch"),
    ({"branch": "a:b"}, "branch"),
    ({"path": ""}, "path"),
    ({"path": "/etc/passwd"}, "path"),
    ({"path": "../x.ipynb"}, "path"),
    ({"path": "notebooks//x.ipynb"}, "path"),
    ({"path": "notebooks\\x.ipynb"}, "path"),
    ({"path": None}, "path"),
])
def test_nbgitpuller_link_bad_input_names_the_parameter(kwargs, name):
    args = {"hub": "https://hub.uni.test", "repo": "https://github.com/ada/book",
            "branch": "main", "path": LAB} | kwargs
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        launch.nbgitpuller_link(**args)


# The link builder on the instructor page (_static/hub-link.js) against the Python function.
LINK_CASES = [
    ("https://hub.uni.test", "https://github.com/ada/book", "main", LAB),
    ("HTTPS://Hub.Uni.test/jupyter/", "https://github.com/ada/book.git", "course/2026", LAB),
    ("  http://127.0.0.1:8123/prefix//  ", "file:///tmp/served/attention", "hub", "a/b_c&d=e+f.ipynb"),
    ("https://hub.uni.test", "git@github.com:ada/book.git", "ä+ö!'()", "notebooks/ß?%.ipynb"),
    ("https://hub.uni.test", "https://github.com/ada/book/", "main", "x.ipynb"),
    # each of these is refused, by both, naming the same parameter
    ("hub.uni.test", "https://github.com/ada/book", "main", LAB),
    ("https://hub.uni.test?next=1", "https://github.com/ada/book", "main", LAB),
    ("https://hub.uni.test#top", "https://github.com/ada/book", "main", LAB),
    ("https://", "https://github.com/ada/book", "main", LAB),
    ("https://hub.uni.test", "https://github.com/..", "main", LAB),
    ("https://hub.uni.test", "https://github.com/ada/book", "a:b", LAB),
    ("https://hub.uni.test", "https://github.com/ada/book", "main", "notebooks/../x.ipynb"),
    ("https://hub.uni.test", "https://github.com/ada/book", "main", "/x.ipynb"),
]


def python_link(*args) -> str:
    try:
        return launch.nbgitpuller_link(*args)
    except ValueError as exc:
        return "error: " + str(exc).split()[0]


@pytest.mark.browser
def test_the_page_builds_the_same_links_as_python(browser):
    page = browser.new_page()
    page.set_content("<!doctype html><title>t</title>")
    page.add_script_tag(path=str(ROOT / "_static" / "hub-link.js"))
    got = page.evaluate("""cases => cases.map(args => {
        try { return window.asbHubLink.nbgitpullerLink(...args); }
        catch (err) { return "error: " + err.message.split(" ")[0]; }
    })""", LINK_CASES)
    page.close()
    want = [python_link(*args) for args in LINK_CASES]
    assert got == want
    assert sum(w.startswith("error") for w in want) == 8


@pytest.mark.browser
def test_the_instructor_page_form_builds_the_link(browser, server):
    """The form on "Teach with this book": typing a hub's address shows the same link as
    the Python function for the repository, branch and lab the form holds; a bad address
    shows the error instead."""
    page = browser.new_page()
    page.goto(f"{server}/book/teach-with-this-book.html")
    form = page.locator("form.asb-hub-link")
    values = {name: form.locator(f"[name={name}]").input_value() for name in ("repo", "branch", "path")}
    assert values["path"] == LAB
    for hub in ("https://hub.uni.test", "http://127.0.0.1:8000/jupyter/"):
        form.locator("[name=hub]").fill(hub)
        assert form.locator("output").inner_text() == launch.nbgitpuller_link(
            hub, values["repo"], values["branch"], values["path"])
    form.locator("[name=hub]").fill("hub.uni.test")
    assert form.locator("output").inner_text().startswith("hub must be")
    page.close()
