"""Shared fixtures: the strict book build, a local web server, and headless Chromium."""

from __future__ import annotations

import atexit
import functools
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

# Test modules import these from book_files (the same three paths), never from conftest:
# tests/package has a conftest.py of its own, and "from conftest import" would find whichever
# was loaded last. This file does not import book_files, which needs myst-nb: the package tier
# also runs with the oldest versions, where the build tools are not installed.
ROOT = Path(__file__).resolve().parents[1]
# The tests' book is the instructor's edition (every page: the learner's plus the instructor
# page), built first; the learner's edition (`make book`, what is published) is built next
# into _build/html, and the published path (a fork on GitHub) is the learner's too.
HTML = ROOT / "_build" / "html-instructor"
LEARNER_HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
BIN = Path(sys.executable).parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")

# One BLAS thread a process, for this process and all it starts (the build, JupyterLab and its
# kernels, the venvs' runs): the tests keep both cores busy, and OpenBLAS's own threads (as
# many as cores, in every process that multiplies matrices) spin while they wait, so a small
# product took ten times as long with two threads as with one on a busy two-core machine.
# (Set before numpy loads; `make test` sets it too.)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from chromium_flags import CHROMIUM_ARGS, chromium_executable  # noqa: E402  (tests/ is on sys.path: this file's directory)
from serving import QuietHandler, QuietServer  # noqa: E402


@dataclass
class Build:
    returncode: int
    output: str


# The strict build runs once per test run, in the background from the moment the tests are
# collected, so that the tests that need no built book run meanwhile. Under pytest-xdist
# (`make test` runs two workers) the workers share one build: the first to claim this run's
# folder starts it, and every worker waits for its exit status file.
BUILD_TIMEOUT = 1800
RUN_DIR = ROOT / "_build" / "test-runs"
_RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex


def start_background_build() -> Path:
    """Start scripts/build-book for this run unless a worker already has; returns its folder."""
    run = RUN_DIR / _RUN_ID
    RUN_DIR.mkdir(parents=True, exist_ok=True)
    try:
        run.mkdir()
    except FileExistsError:
        return run
    for old in RUN_DIR.iterdir():  # earlier runs' logs
        if old != run and time.time() - old.stat().st_mtime > BUILD_TIMEOUT:
            subprocess.run(["rm", "-rf", str(old)], check=False)
    # Then the published path: the same tree built as a fork on GitHub (scripts/build-published),
    # from this build's executions, while the tests of this build run.
    # Then the learner's edition, from the same executions (about 15 s), into run/learner.
    script = ('BOOK_EDITION=instructor scripts/build-book "$0" > "$1/log" 2>&1; echo $? > "$1/rc.tmp"; '
              'mv "$1/rc.tmp" "$1/rc"; mkdir -p "$1/learner"; '
              'BOOK_EDITION=learner scripts/build-book "$0" > "$1/learner/log" 2>&1; '
              'echo $? > "$1/learner/rc.tmp"; mv "$1/learner/rc.tmp" "$1/learner/rc"; '
              'scripts/build-published "$0" "$1/published" > /dev/null 2>&1')
    proc = subprocess.Popen(["sh", "-c", script, sys.executable, str(run)], cwd=ROOT, start_new_session=True)

    def stop():  # an interrupted run leaves no build (and its kernels) behind
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    atexit.register(stop)
    return run


def _wait_for_build(run: Path, what: str) -> Build:
    deadline = time.monotonic() + BUILD_TIMEOUT
    while not (run / "rc").exists():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not finish in {BUILD_TIMEOUT} s", pytrace=False)
        time.sleep(1)
    output = (run / "log").read_text(encoding="utf-8", errors="replace")
    return Build(int((run / "rc").read_text().strip()), ANSI.sub("", output))


@pytest.fixture(scope="session")
def built_book() -> Build:
    """The instructor's edition, built once per test run, strictly, with the same script as
    `make book-instructor`."""
    return _wait_for_build(start_background_build(), "the book build")


@pytest.fixture(scope="session")
def built_learner_book(built_book) -> Build:
    """The learner's edition (`make book`), built after the instructor's, from its executions."""
    return _wait_for_build(start_background_build() / "learner", "the learner's build")


@pytest.fixture(scope="session")
def learner_site(built_learner_book) -> Path:
    """The learner's edition's HTML directory (_build/html)."""
    if built_learner_book.returncode != 0 or not (LEARNER_HTML / "index.html").exists():
        pytest.fail("the learner's strict build failed; see test_editions.py for its output", pytrace=False)
    return LEARNER_HTML


@pytest.fixture(scope="session")
def site(built_book) -> Path:
    """The built HTML directory; fails every dependent test if the build failed."""
    if built_book.returncode != 0 or not (HTML / "index.html").exists():
        pytest.fail("the strict book build failed; see test_build.py for its output", pytrace=False)
    return HTML


@dataclass(frozen=True)
class BuiltSite:
    """A built book: its HTML, the clone it was built from (whose origin sets its links) and its
    edition (attention_book.edition): this clone's is the instructor's, the published the learner's."""

    html: Path
    root: Path
    edition: str = "instructor"


@pytest.fixture(scope="session")
def published_site(site) -> BuiltSite:
    """The same tree built as a fork on GitHub (scripts/build-published, started by the
    background build once this clone's build is done), as the published book is built."""
    run = start_background_build() / "published"
    deadline = time.monotonic() + BUILD_TIMEOUT
    while not (run / "rc").exists():
        if time.monotonic() > deadline:
            pytest.fail(f"the published build did not finish in {BUILD_TIMEOUT} s", pytrace=False)
        time.sleep(1)
    if (run / "rc").read_text().strip() != "0":
        log = ANSI.sub("", (run / "log").read_text(encoding="utf-8", errors="replace"))
        pytest.fail(f"the build as a fork on GitHub failed:\n{log[-4000:]}", pytrace=False)
    return BuiltSite(run / "book" / "_build" / "html", run / "book", "learner")


@pytest.fixture(params=["this clone", "a fork on GitHub"])
def every_site(request, site) -> BuiltSite:
    """Each test that takes it runs on this clone's build and on the published path's."""
    if request.param == "this clone":
        return BuiltSite(site, ROOT)
    return request.getfixturevalue("published_site")


@pytest.fixture(scope="session")
def server(site):
    """Serve the built book on 127.0.0.1 (a free port) for the whole session."""
    handler = functools.partial(QuietHandler, directory=str(site))
    httpd = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium through Playwright. Skips without a browser, except when CI=true."""
    in_ci = os.environ.get("CI", "").lower() == "true"
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError as exc:  # pragma: no cover - depends on the machine
        if in_ci:
            pytest.fail(f"playwright is not installed: {exc}", pytrace=False)
        pytest.skip(f"playwright is not installed: {exc}")
    exe = chromium_executable()
    if exe == "":
        message = "no Chromium found: set $CHROMIUM or run `make test`, which installs one"
        if in_ci:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    with sync_playwright() as pw:
        try:
            instance = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        except Error as exc:
            if in_ci:
                pytest.fail(f"Chromium would not start: {exc}", pytrace=False)
            pytest.skip(f"Chromium would not start: {exc}")
        yield instance
        instance.close()


def pytest_collection_finish(session):
    """Start the book build in the background as soon as a selected test needs it, and, in a
    run with one process, the oldest-versions run (tests/system/test_oldest.py) and the archive's
    install (tests/system/test_dist.py) too: they run on the second core while the book builds.
    Under pytest-xdist each of those two starts when its test does, on whichever worker
    runs it (the other worker keeps the second core busy)."""
    if any("built_book" in item.fixturenames for item in session.items):
        start_background_build()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if any(item.name == "test_package_tests_pass_with_the_oldest_versions" for item in session.items):
        from test_oldest import start_background_run

        start_background_run()

    # The archive test's fresh venv and offline install (tests/system/test_dist.py), likewise.
    if any(item.name == "test_the_archive_installs_and_runs_a_lab_offline" for item in session.items):
        from test_dist import start_background_install

        start_background_install()


# Files that start a long job of their own in the background (a venv with the oldest
# versions, the archive's offline install) and then wait for it.
_BACKGROUND_FILES = ("test_oldest.py", "test_dist.py")
# The longest files, longest first (worker-seconds in a full `make test`, 2026-12-05: 354, 259,
# 85, 77, 76, 70, 65): each stage starts with them, so that no long file is left to run alone
# at the end (test_reader_view was, for 200 s, with the other core half idle). Only an order.
_LONG_FILES = ("test_jupyterlab.py", "test_reader_view.py", "test_browser.py", "test_handout.py", "test_autograder.py",
               "test_accuracy.py", "test_hub.py", "test_pagespeed.py")


def pytest_collection_modifyitems(session, config, items):
    """Run order, file by file (make test's workers take whole files, in this order): first the
    files that start a background job, so that it overlaps everything else; then the files
    that need no built book, which keep the workers busy while the book builds in the
    background; last the files that need the build. Within each stage the longest files
    (_LONG_FILES) go first. Within a file the order is unchanged.
    Before this, a worker that drew a browser test early sat idle until the build was done."""
    needs_build: dict[str, bool] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        needs_build[path] = needs_build.get(path, False) or "built_book" in item.fixturenames

    def rank(path: str) -> tuple[int, int]:
        stage = 0 if path.endswith(_BACKGROUND_FILES) else 2 if needs_build[path] else 1
        long = next((k for k, name in enumerate(_LONG_FILES) if path.endswith(name)), len(_LONG_FILES))
        return stage, long

    first_seen = {}
    for i, item in enumerate(items):
        first_seen.setdefault(item.nodeid.split("::", 1)[0], i)
    items.sort(key=lambda item: (rank(p := item.nodeid.split("::", 1)[0]), first_seen[p]))
