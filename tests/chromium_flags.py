"""Which headless Chromium the tests, benchmarks and print scripts start, and with which
flags (as the design card measured them: no background traffic, no sandbox as root). A
module of its own, importing nothing of the project: conftest.py (also loaded by the
oldest-versions run), lab_server.py and scripts/make_pdf.py all read it, and none of them
imports another's conftest."""

import os

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

# A system Chromium, in the order taken (scripts/find-chromium keeps the same order). First
# Debian's headless shell (package chromium-headless-shell): the same Blink and V8 as the full
# browser, without its windowing and UI layers, the build Playwright itself runs headless. It
# took about a fifth less CPU than the full browser for the same page visits (the reader-view
# checks of two chapters, alternated: 19.6 and 21.3 CPU s against 26.2 and 24.3).
FULL_CHROMIUMS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")  # a reader's browser: what benchmarks time
SYSTEM_CHROMIUMS = ("/usr/bin/chromium-headless-shell", *FULL_CHROMIUMS)


def chromium_executable() -> str | None:
    """``$CHROMIUM`` (`make test` sets it from scripts/find-chromium), else the first system
    Chromium of :data:`SYSTEM_CHROMIUMS`. None means Playwright's own build
    (``$CHROMIUM=playwright``); "" means none was found."""
    value = os.environ.get("CHROMIUM", "").strip()
    if value == "playwright":
        return None
    if value:
        return value
    return next((c for c in SYSTEM_CHROMIUMS if os.access(c, os.X_OK)), "")
