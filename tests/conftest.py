"""Shared fixtures: the strict book build, a local web server, and headless Chromium."""

from __future__ import annotations

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
BIN = Path(sys.executable).parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")

# The same flags the design card measured: no background traffic, no sandbox as root.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


@dataclass
class Build:
    returncode: int
    output: str


@pytest.fixture(scope="session")
def built_book() -> Build:
    """Build the book once per test session, strictly, with the same script as `make book`."""
    proc = subprocess.run(
        [str(ROOT / "scripts" / "build-book"), sys.executable],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    return Build(proc.returncode, ANSI.sub("", proc.stdout + proc.stderr))


@pytest.fixture(scope="session")
def site(built_book) -> Path:
    """The built HTML directory; fails every dependent test if the build failed."""
    if built_book.returncode != 0 or not (HTML / "index.html").exists():
        pytest.fail("the strict book build failed; see test_build.py for its output", pytrace=False)
    return HTML


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


@pytest.fixture(scope="session")
def server(site):
    """Serve the built book on 127.0.0.1 (a free port) for the whole session."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _chromium_executable() -> str | None:
    """Path from `make test` (scripts/find-chromium); "playwright" means Playwright's own build."""
    value = os.environ.get("CHROMIUM", "").strip()
    if value == "playwright":
        return None
    if value:
        return value
    for cand in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.access(cand, os.X_OK):
            return cand
    return ""


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
    exe = _chromium_executable()
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
    """Start the oldest-versions run (tests/test_oldest.py) in the background as soon as it is
    selected: it runs on the second core while the book builds."""
    if any(item.name == "test_package_tests_pass_with_the_oldest_versions" for item in session.items):
        from test_oldest import start_background_run

        start_background_run()

    # The archive test's fresh venv and offline install (tests/test_dist.py), likewise.
    if any(item.name == "test_the_archive_installs_and_runs_a_lab_offline" for item in session.items):
        from test_dist import start_background_install

        start_background_install()
