"""The GitHub repository a book's pages open, found from where the book is built or run.

:func:`find_repository` finds the repository and branch, :func:`parse_github_url` reads any of
GitHub's URL forms, and :func:`nbgitpuller_link` builds the JupyterHub link that clones the
repository for a student. The build's launch buttons (:mod:`attention_book.launch`) and the
pages that quote the repository (the introduction, the instructors' page: they import this
module when they find the clone's _config.yml, where requirements.txt has installed the build
tools) use this one copy. The reader's package does not need it: outside a clone there is no
repository to find. The repository is, in this order,

1. ``repository.url`` in _config.yml, when it is set (an optional override);
2. GitHub Actions' ``GITHUB_REPOSITORY`` on ``GITHUB_SERVER_URL`` (https://github.com);
3. ``git remote get-url origin``, in any of GitHub's forms (https, ``git@github.com:``,
   ``ssh://``).

The branch is the one being built (``GITHUB_REF_NAME``; for a pull request, the branch
it targets), else the checked-out branch, else ``repository.branch``. When no GitHub
repository is found (no remote, a local path, another host) or no branch, there is none,
and the sentence returned with it says why.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

GITHUB = "https://github.com"

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


# --- nbgitpuller links -------------------------------------------------------------------
# _static/hub-link.js builds the same link in the reader's browser, by the same rules;
# tests/book/test_launch.py checks the two against each other.

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
