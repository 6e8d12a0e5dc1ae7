"""tests/browser: headless Chromium over the built book (every page at two widths and two
themes, the explorers' players, Present, quizzes, print). Every test here carries the
``browser`` marker (tests/tiers.py)."""

import functools
import threading
from pathlib import Path

import pytest

from serving import QuietHandler, QuietServer
from tiers import mark_directory

from attention_scaling import web

WEB = Path(web.__file__).parent


def pytest_collection_modifyitems(config, items):
    mark_directory(__file__, items, "browser")


@pytest.fixture(scope="module")
def modules(browser):
    """A page with the package's modules served from its own folder over 127.0.0.1 (a module
    script cannot be imported from file://)."""
    handler = functools.partial(QuietHandler, directory=str(WEB))
    httpd = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/")  # the folder's listing: a same-origin page
    yield page, f"http://127.0.0.1:{httpd.server_address[1]}"
    context.close()
    httpd.shutdown()
    httpd.server_close()
