"""make pdf: the handout has the pages asked for, its text can be extracted, maths is typeset."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from pypdf import PdfReader

from book_files import ROOT

pytestmark = pytest.mark.browser


def test_handout_pages_and_text(site, browser, tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    import make_pdf

    out = make_pdf.print_pages(browser, ["book/intro.html", "book/scale-the-scores.html"], tmp_path / "h.pdf", html=site)
    reader = PdfReader(out)
    assert len(reader.pages) >= 4  # two chapters, each longer than a page
    raw = " ".join(page.extract_text() for page in reader.pages)
    text = " ".join(unicodedata.normalize("NFKC", raw).split())  # NFKC undoes ligatures such as "fi"
    assert "Why attention divides by" in text and "Scale the scores by" in text
    assert "Notation" in text and "Confirm it by simulation" in text
    assert "\\frac" not in text and "$$" not in text  # maths was typeset, not left as TeX
    assert "Precomputed frames" not in text  # the players print their frame, not their controls
