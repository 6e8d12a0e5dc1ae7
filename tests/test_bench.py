"""The Lighthouse part of benchmarks/bench.py: its gzip static server (Lighthouse itself runs
only in `make bench`, never in the tests: it takes about half a minute a page)."""

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
