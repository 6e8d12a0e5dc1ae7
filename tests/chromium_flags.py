"""The flags every headless Chromium of the tests, benchmarks and print scripts starts with,
as the design card measured them: no background traffic, no sandbox as root. A module of
its own, with no imports: conftest.py (also loaded by the oldest-versions run), lab_server.py
and scripts/make_pdf.py all read it, and none of them imports another's conftest."""

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
