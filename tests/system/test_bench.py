"""The Lighthouse part of benchmarks/bench.py: its gzip static server, its report summary, and
that an interrupted run leaves no process behind (Lighthouse is installed for that, but never
scores a page in the tests: it takes about half a minute a page, in `make bench`)."""

from __future__ import annotations

import gzip
import sys
import urllib.request

import pytest

from book_files import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench import GzipServer, lighthouse_summary  # noqa: E402


def _get(url, accept_gzip=True):
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if accept_gzip else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers, response.read()


def test_gzip_server_compresses_text_and_not_images(tmp_path):
    page = "<!doctype html><title>t</title>" + "<p>repeated text</p>" * 500
    (tmp_path / "page.html").write_text(page, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "style.css").write_text("p { color: red }\n" * 200, encoding="utf-8")
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20
    (tmp_path / "frame.png").write_bytes(png)
    with GzipServer(tmp_path) as origin:
        headers, body = _get(f"{origin}/page.html")
        assert headers["Content-Encoding"] == "gzip"
        assert int(headers["Content-Length"]) == len(body) < len(page) / 10
        assert gzip.decompress(body).decode() == page
        headers, body = _get(f"{origin}/sub/style.css")
        assert headers["Content-Encoding"] == "gzip" and headers["Content-Type"].startswith("text/css")
        assert gzip.decompress(body) == (tmp_path / "sub" / "style.css").read_bytes()
        headers, body = _get(f"{origin}/frame.png")
        assert headers.get("Content-Encoding") is None and body == png
        headers, body = _get(f"{origin}/page.html", accept_gzip=False)
        assert headers.get("Content-Encoding") is None and body.decode() == page
        with pytest.raises(urllib.error.HTTPError) as missing:
            _get(f"{origin}/nothing.html")
        assert missing.value.code == 404
        missing.value.close()


def test_gzip_server_and_summary_validate_their_arguments(tmp_path):
    with pytest.raises(ValueError, match="directory"):
        GzipServer(tmp_path / "absent")
    with pytest.raises(ValueError, match="report"):
        lighthouse_summary({"categories": {}})


@pytest.fixture(scope="module")
def lighthouse_cli():
    """The pinned Lighthouse, installed with npm on first use (as `make bench` does), and the
    tests' Chromium. Missing, they skip, except with CI=true, where they fail."""
    import os

    from bench import find_chromium, find_lighthouse

    cli, chrome = find_lighthouse(), find_chromium()
    if cli and chrome:
        return cli
    message = f"needs Lighthouse (npm) and Chromium: lighthouse={cli}, chromium={chrome}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def _ours(marker: str) -> list[str]:
    """Live processes with ``marker`` in their command line or environment."""
    from pathlib import Path

    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if (proc / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue
            if any(marker.encode() in (proc / f).read_bytes() for f in ("cmdline", "environ")):
                found.append(f"{proc.name}: {(proc / 'cmdline').read_bytes().decode(errors='replace')}")
        except (OSError, IndexError):
            pass
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_interrupted_bench_leaves_no_lighthouse_or_chromium(site, lighthouse_cli, signal_name):
    """`make bench` stopped (Ctrl-C or SIGTERM) while Lighthouse runs: Lighthouse and the
    Chromium it launched must stop too. bench.py makes each run's Chromium profile under
    $TMPDIR, so every process of this run has that folder in its environment."""
    import os
    import signal
    import subprocess
    import time

    import shutil
    import tempfile

    assert (site / "book" / "intro.html").is_file()
    # a short folder: under pytest's tmp_path Chromium's socket path would pass 107 bytes
    marker = tempfile.mkdtemp(prefix="lh-", dir="/tmp")
    # A test run started in the background by a shell without job control (`make test &` in a
    # script) inherits SIGINT ignored, and Python then keeps ignoring it: bench gets Ctrl-C's
    # default back, as it has when a reader presses Ctrl-C.
    bench = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--only-lighthouse",
                              "--pages", "book/intro.html"], cwd=ROOT, env=dict(os.environ, TMPDIR=marker),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while not any("user-data-dir" in p for p in _ours(marker)):  # Chromium has started
            assert bench.poll() is None, f"bench ended early: {bench.stderr.read()[-2000:]!r}"
            assert time.monotonic() < deadline, "Lighthouse's Chromium never started"
            time.sleep(0.2)
        time.sleep(1)
        bench.send_signal(getattr(signal, signal_name))
        bench.wait(timeout=60)
        assert bench.returncode != 0
        deadline = time.monotonic() + 5
        while _ours(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _ours(marker) == []
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.wait()
        bench.stderr.close()
        shutil.rmtree(marker, ignore_errors=True)


def test_a_tmpdir_too_long_for_chromium_is_a_clear_error(tmp_path, monkeypatch):
    """Chromium cannot start when its socket's path would pass 107 bytes; bench says so."""
    import tempfile

    from bench import run_lighthouse

    long_dir = tmp_path / ("d" * 80)
    long_dir.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(long_dir))
    with pytest.raises(RuntimeError, match="TMPDIR is too long"):
        run_lighthouse("/bin/false", "/bin/true", "http://127.0.0.1:1/p.html", "mobile")
    assert list(long_dir.iterdir()) == []  # its folder is removed
