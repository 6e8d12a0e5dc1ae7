"""Launch links and the site's address, found from where the book is built.

Binder, Colab and JupyterHub (nbgitpuller) open a page from a GitHub repository, and the
site's address (``html_baseurl``: sitemap, canonical links, link previews) is that
repository's GitHub Pages site. Neither is written in _config.yml: a fork builds a book
that links to itself, with no edit. The repository is, in this order,

1. ``repository.url`` in _config.yml, when it is set (an optional override);
2. GitHub Actions' ``GITHUB_REPOSITORY`` on ``GITHUB_SERVER_URL`` (https://github.com);
3. ``git remote get-url origin``, in any of GitHub's forms (https, ``git@github.com:``,
   ``ssh://``).

The branch is the one being built (``GITHUB_REF_NAME``; for a pull request, the branch
it targets), else the checked-out branch, else ``repository.branch``. When no GitHub
repository is found (no remote, a local path, another host) or no branch, the book has
no launch buttons at all and the build says why in one message: it never links to a
placeholder. ``html.baseurl`` in _config.yml overrides the derived address (a custom
domain, say); without a repository and without it, the book has no address, so no
sitemap and only page-relative link-preview URLs.

The JupyterHub button appears only when ``launch_buttons.jupyterhub_url`` is set.

Registered as its own Sphinx extension (_config.yml, ``extra_extensions``); its
``config-inited`` handler runs before :mod:`attention_scaling.sphinx_ext` reads
``html_baseurl``. ``python -m attention_scaling.launch`` prints what a build here would
use.

The site is published to one branch, ``pages_branch`` in _config.yml's ``sphinx.config``
(:func:`pages_branch`): Colab opens the chapters' copies there, ``make publish`` and the
workflow push to it. An environment variable ``PAGES_BRANCH`` (``make publish
PAGES_BRANCH=site``) overrides it for the build and the push alike.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

GITHUB = "https://github.com"
#: The launch services a repository is needed for (sphinx-book-theme's keys).
PROVIDERS = ("binderhub_url", "jupyterhub_url", "colab_url", "deepnote_url", "jupyterlite_url")

_OWNER = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})")
_NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")
_SCP = re.compile(r"(?:[A-Za-z0-9._-]+@)?(?P<host>[A-Za-z0-9.-]+):(?P<path>(?!/).+)")
_GITHUB_HOSTS = {"github.com", "www.github.com"}
_BRANCH = re.compile(r"[^\s~^:?*\[\\]+")


@dataclass(frozen=True)
class Repository:
    """A GitHub repository and the branch the launch links open."""

    owner: str
    name: str
    branch: str
    source: str  # where the repository was found, for the build's message

    @property
    def url(self) -> str:
        return f"{GITHUB}/{self.owner}/{self.name}"

    @property
    def pages_url(self) -> str:
        """The repository's GitHub Pages address (a user or organisation site for
        ``OWNER.github.io``, a project site under ``/NAME/`` otherwise)."""
        host = f"{self.owner.lower()}.github.io"
        if self.name.lower() == host:
            return f"https://{host}/"
        return f"https://{host}/{self.name}/"


def _text(value, name: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string, got {type(value).__name__}")
    return value.strip()


def _owner_name(path: str) -> tuple[str, str] | None:
    parts = path.strip("/").split("/")
    if len(parts) != 2:
        return None
    owner, name = parts
    if name.endswith(".git"):
        name = name[: -len(".git")]
    if not (_OWNER.fullmatch(owner) and _NAME.fullmatch(name)) or name in (".", ".."):
        return None
    return owner, name


def parse_github_url(url: str) -> tuple[str, str] | None:
    """``(owner, name)`` of a GitHub repository URL, or None for anything else.

    Accepts ``https://github.com/o/r(.git)``, ``git@github.com:o/r.git``,
    ``ssh://git@github.com(:22)/o/r.git`` and ``git://github.com/o/r.git``. A local
    path, a ``file://`` URL or another host gives None.
    """
    url = _text(url, "url")
    if not url:
        return None
    if "://" in url:
        parts = urlsplit(url)
        if parts.scheme.lower() not in ("https", "http", "ssh", "git", "git+ssh"):
            return None
        if (parts.hostname or "").lower() not in _GITHUB_HOSTS:
            return None
        return _owner_name(parts.path)
    scp = _SCP.fullmatch(url)
    if scp and scp["host"].lower() in _GITHUB_HOSTS:
        return _owner_name(scp["path"])
    return None


def redact(url: str) -> str:
    """``url`` without a password or token, for messages (``https://x:TOKEN@github.com``)."""
    url = _text(url, "url")
    if "://" not in url:
        return url
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{netloc}"))


def _git(cwd: Path, *args: str) -> str:
    try:
        proc = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


def _actions_branch(environ: Mapping[str, str]) -> str:
    """The branch a GitHub Actions run builds. A pull request's ref is ``N/merge``,
    which no launch service can open: its links use the branch it targets."""
    if environ.get("GITHUB_EVENT_NAME", "").startswith("pull_request") or environ.get("GITHUB_BASE_REF"):
        return environ.get("GITHUB_BASE_REF", "").strip()
    if environ.get("GITHUB_REF_TYPE", "branch") != "branch":
        return ""
    return environ.get("GITHUB_REF_NAME", "").strip()


def find_repository(*, cwd=".", environ: Mapping[str, str] | None = None, override_url: str = "",
                    override_branch: str = "") -> tuple[Repository | None, str]:
    """The GitHub repository and branch the launch links open, and a sentence saying
    where they came from or, when there is none, why and how to set them.

    ``cwd`` is a directory inside the git work tree, ``environ`` the environment
    (``os.environ`` when None), ``override_url`` and ``override_branch`` the optional
    ``repository.url`` and ``repository.branch`` of _config.yml.
    """
    override_url = _text(override_url, "override_url")
    override_branch = _text(override_branch, "override_branch")
    if environ is None:
        environ = os.environ
    if not isinstance(environ, Mapping):
        raise ValueError(f"environ must be a mapping of environment variables, got {type(environ).__name__}")
    if not isinstance(cwd, (str, os.PathLike)) or not Path(cwd).is_dir():
        raise ValueError(f"cwd must be an existing directory, got {cwd!r}")
    if override_branch and not _BRANCH.fullmatch(override_branch):
        raise ValueError(f"override_branch (repository.branch) is not a branch name: {override_branch!r}")
    cwd = Path(cwd)
    how = ("To get them, build from a clone whose origin is on GitHub, or on GitHub Actions, "
           "or set repository.url (https://github.com/OWNER/REPO) in _config.yml.")

    if override_url:
        found = parse_github_url(override_url)
        if found is None:
            raise ValueError("override_url (repository.url in _config.yml) must be a GitHub repository, "
                             f"https://github.com/OWNER/REPO, got {redact(override_url)!r}")
        source = "repository.url in _config.yml"
    elif environ.get("GITHUB_REPOSITORY", "").strip():
        slug = environ["GITHUB_REPOSITORY"].strip()
        found = _owner_name(slug)
        if found is None or slug.count("/") != 1:
            raise ValueError(f"environ['GITHUB_REPOSITORY'] must be OWNER/NAME, got {slug!r}")
        server = environ.get("GITHUB_SERVER_URL", GITHUB).strip().rstrip("/") or GITHUB
        if server.lower() != GITHUB:
            return None, (f"no launch buttons: this build runs on {server}, not on github.com, and Binder "
                          f"and Colab open only github.com repositories. {how}")
        source = "GITHUB_REPOSITORY"
    else:
        origin = _git(cwd, "remote", "get-url", "origin")
        if not origin:
            return None, f"no launch buttons: this clone has no git remote 'origin'. {how}"
        found = parse_github_url(origin)
        if found is None:
            return None, (f"no launch buttons: git remote 'origin' is {redact(origin)}, not a GitHub "
                          f"repository. {how}")
        source = "git remote 'origin'"

    branch = _actions_branch(environ) or _git(cwd, "symbolic-ref", "--short", "-q", "HEAD") or override_branch
    owner, name = found
    if not branch:
        return None, (f"no launch buttons: found {GITHUB}/{owner}/{name} ({source}) but no branch "
                      "(HEAD is detached). Check out a branch or set repository.branch in _config.yml.")
    repo = Repository(owner, name, branch, source)
    return repo, f"launch buttons open {repo.url} at branch {branch} (from {source})."


def site_address(repository: Repository | None, override: str = "") -> str:
    """The site's address with a trailing slash: ``override`` (html.baseurl) when set,
    else the repository's GitHub Pages address, else "" (unknown)."""
    override = _text(override, "override")
    if repository is not None and not isinstance(repository, Repository):
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


# --- Sphinx --------------------------------------------------------------------------------


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
    logger.info("\x1b[1mattention_scaling.launch: %s\x1b[0m", note)


#: The launch services an exercise's note may name, as the note names them, in the menu's order.
SERVICE_NAMES = (("binderhub_url", "Binder"), ("colab_url", "Colab"), ("jupyterhub_url", "your JupyterHub"))

#: What an exercise that needs a kernel says when the book has no launch menu (it would
#: otherwise point at the menu; attention_scaling.sphinx_ext writes the note).
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


def _drop_stale_sitemap(app):
    """A sitemap left by an earlier build would name another address."""
    if not app.config.html_baseurl:
        stale = Path(app.outdir) / (getattr(app.config, "sitemap_filename", None) or "sitemap.xml")
        stale.unlink(missing_ok=True)


def setup(app):
    # Before attention_scaling.sphinx_ext (priority 500) copies html_baseurl into the
    # link-preview settings, and before the theme reads its options (builder-inited).
    app.connect("config-inited", _configure, priority=200)
    app.connect("builder-inited", _drop_stale_sitemap)
    # After attention_scaling.sphinx_ext has written the notes (priority 500).
    app.connect("doctree-resolved", _kernel_notes_for_launch_menu, priority=700)
    # Before the theme's download menu reads ipynb_source (priority 501).
    app.connect("html-page-context", _notebook_download_without_launch_menu, priority=500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv: list[str] | None = None) -> int:
    """Print the repository, branch and site address a build in this directory would use."""
    import argparse

    import yaml

    parser = argparse.ArgumentParser(prog="python -m attention_scaling.launch", description=main.__doc__)
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


# The repository path each page's launch buttons open (a chapter opens the notebook the
# build generates from it): attention_scaling.chapter_notebooks, re-exported here.
from attention_scaling.chapter_notebooks import launch_path  # noqa: E402,F401

if __name__ == "__main__":
    sys.exit(main())


# --- nbgitpuller links -------------------------------------------------------------------
# _static/hub-link.js builds the same link in the reader's browser, by the same rules;
# tests/test_launch.py checks the two against each other.

_SAFE_PATH = re.compile(r"[^\\\s]+")


def _quote_plus(text: str) -> str:
    """``urllib.parse.quote_plus(text, safe="/")``, spelled out for the JavaScript twin."""
    from urllib.parse import quote_plus

    return quote_plus(text, safe="/")


def nbgitpuller_link(hub: str, repo: str, branch: str, path: str) -> str:
    """The nbgitpuller link that clones (or updates) ``repo`` at ``branch`` into the
    student's home on JupyterHub ``hub`` and opens ``path`` of it in JupyterLab.

    ``hub`` is the hub's address (``http(s)://host[/prefix]``, a trailing slash is
    dropped); ``repo`` any git URL the hub can clone (``https://github.com/o/r``, a
    ``file://`` URL in the tests); ``path`` a file of the repository, relative to its
    root with ``/`` separators. The clone lands in a folder named like nbgitpuller names
    it: the last part of ``repo`` (``r`` for ``.../o/r``, ``r.git`` for ``.../o/r.git``).
    Pulling again with the same link merges: a student's edits are kept, new commits
    arrive. Raises ValueError naming the parameter on bad input.
    """
    hub = _text(hub, "hub").rstrip("/")
    parts = urlsplit(hub)
    if (parts.scheme not in ("http", "https") or not parts.netloc or "?" in hub
            or "#" in hub or re.search(r"\s", hub)):
        raise ValueError(f"hub must be the hub's http(s) address, like https://hub.your-university.edu,"
                         f" got {hub!r}")
    repo = _text(repo, "repo")
    name = repo.rstrip("/").rsplit("/", 1)[-1]
    if not repo or re.search(r"\s", repo) or name in ("", ".", "..") or ":" in name:
        raise ValueError(f"repo must be a git URL ending in the repository's name, got {repo!r}")
    branch = _text(branch, "branch")
    if not _BRANCH.fullmatch(branch):
        raise ValueError(f"branch must be a git branch name, got {branch!r}")
    path = _text(path, "path")
    segments = path.split("/")
    if (not _SAFE_PATH.fullmatch(path) or path.startswith("/")
            or any(s in ("", ".", "..") for s in segments)):
        raise ValueError(f"path must be a file's path inside the repository, like"
                         f" notebooks/lab.ipynb, got {path!r}")
    query = "&".join(f"{key}={_quote_plus(value)}" for key, value in (
        ("repo", repo), ("urlpath", f"lab/tree/{name}/{path}"), ("branch", branch)))
    return f"{hub}/hub/user-redirect/git-pull?{query}"
