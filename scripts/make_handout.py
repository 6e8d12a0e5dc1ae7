"""Print the session documents (the 50-minute session's student sheet, exit ticket, after-session
handout and instructor version; the 2-hour workshop's student packet and instructor version).

    python scripts/make_handout.py [--out DIR]

Reads the instructor's edition of the built book (_build/html-instructor, which
`make book-instructor` builds: the documents quote its instructor page and its slides) and
writes attention_book.handout.DOCUMENTS as PDFs to _build/handout/ with headless Chromium; the
logic is in attention_book.handout.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from make_pdf import CHROMIUM_ARGS, chromium_path  # noqa: E402

from attention_book.handout import OUT_DIR, make_handouts, outline  # noqa: E402


def main(argv=None) -> list[Path]:
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / OUT_DIR))
    args = parser.parse_args(argv)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        written = make_handouts(browser, ROOT / "_build" / "html-instructor", Path(args.out))
        browser.close()
    for path in written:
        print(f"make_handout: wrote {path} ({len(PdfReader(path).pages)} pages, "
              f"{sum(level == 1 for level, _t, _p in outline(path))} sections)")
    return written


if __name__ == "__main__":
    main()
