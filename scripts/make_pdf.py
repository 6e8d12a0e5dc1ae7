"""Print pages of the built book to one PDF handout with headless Chromium (no LaTeX).

    python scripts/make_pdf.py [--out FILE] [PAGE.html ...]

Pages are paths under _build/html, the learner's edition (default: every page of its table
of contents, in order). Each is opened from disk, its maths is ready (typeset at build time, or by MathJax
in a book built without Node.js), and Chromium prints it
with the book's print styles (no sidebars; explorers show their default frame). The
pages are then joined into one PDF with pypdf.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from book_files import LEARNER_HTML, html_page, learner_toc_files  # noqa: E402
from checks import wait_for_maths  # noqa: E402
from chromium_flags import CHROMIUM_ARGS, chromium_executable  # noqa: E402


def chromium_path() -> str | None:
    """The Chromium to print with: $CHROMIUM, else a system one (None: Playwright's own)."""
    return chromium_executable() or None

def print_pages(browser, pages, out: Path, html: Path = LEARNER_HTML) -> Path:
    """Print ``pages`` (paths under ``html``, a built site) with a Playwright ``browser`` into ``out``."""
    from pypdf import PdfReader, PdfWriter

    missing = [p for p in pages if not (html / p).is_file()]
    if missing:
        raise SystemExit(f"make_pdf: not in the built book (run make book first): {missing}")
    writer = PdfWriter()
    page = browser.new_page()
    for name in pages:
        page.goto((html / name).as_uri(), wait_until="load")
        wait_for_maths(page)
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4", print_background=True,
                       margin={"top": "14mm", "bottom": "14mm", "left": "12mm", "right": "12mm"})
        for p in PdfReader(io.BytesIO(pdf)).pages:
            writer.add_page(p)
        print(f"make_pdf: {name}")
    page.close()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as fh:
        writer.write(fh)
    print(f"make_pdf: wrote {out} ({len(writer.pages)} pages)")
    return out


def main(argv=None) -> Path:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", help="pages under _build/html (default: the whole book)")
    parser.add_argument("--out", default=str(ROOT / "_build" / "handout.pdf"))
    args = parser.parse_args(argv)
    pages = args.pages or [html_page(p) for p in learner_toc_files()]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        out = print_pages(browser, pages, Path(args.out))
        browser.close()
    return out


if __name__ == "__main__":
    main()
