"""Explorers' pictures as files: the build hook that writes them.

An explorer computes and draws in the page; without scripts its reader sees the picture
the build drew at the default settings, inside ``<noscript>``. ``Explorable.static_html``
writes that picture inline; ``attention_book.sphinx_ext.externalize_pictures`` runs after
the build and moves each into a content-addressed file under ``_images/asb/``, referred to
by a URL relative to its page, so that a reader with scripts never downloads it.

The hook is tested on small HTML sites written here (no build) and on the scale explorer's
own markup.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import urllib.parse
from pathlib import Path

import pytest
from PIL import Image

from attention_book.sphinx_ext import PICTURES_DIR, MissingPictureError, externalize_pictures


def png(colour: tuple[int, int, int], size: int = 8) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (size, size), colour).save(buf, format="PNG")
    return buf.getvalue()


def explorer(pid: str, picture: bytes) -> str:
    """An explorer as ``Explorable.static_html`` writes it: the picture inline in <noscript>,
    then its JSON data block."""
    data = base64.b64encode(picture).decode("ascii")
    return (f'<div class="asb-player asb-module" id="{pid}" role="group" aria-label="t">'
            f'<div class="asb-scroll"><div class="asb-stack"><noscript><img class="asb-picture" '
            f'src="data:image/png;base64,{data}" alt="alt" width="8" height="8"></noscript></div></div>'
            '<script type="application/json" class="asb-data">{"module":{"mount":"m"},"payload":{}}</script>'
            "</div>")


def page(*bodies: str) -> str:
    return f"<!DOCTYPE html><html><head><title>p</title></head><body>{''.join(bodies)}</body></html>"


RED, GREEN, BLUE = png((255, 0, 0)), png((0, 255, 0)), png((0, 0, 255))


def pictures_on(path: Path) -> list[str]:
    """The src of each explorer picture on a page, in order."""
    return re.findall(r'<img class="asb-picture" src="([^"]+)"', path.read_text(encoding="utf-8"))


def name_of(picture: bytes) -> str:
    return f"{hashlib.sha256(picture).hexdigest()[:16]}.png"


@pytest.fixture
def small_site(tmp_path) -> Path:
    """A site like the book's: pages at the root, in book/ and in notebooks/."""
    (tmp_path / "book").mkdir()
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "top.html").write_text(page(explorer("asb-top-0", RED)))
    (tmp_path / "book" / "chapter.html").write_text(page("<p>text</p>", explorer("asb-a-0", GREEN),
                                                         explorer("asb-b-1", BLUE)))
    (tmp_path / "notebooks" / "lab.html").write_text(page(explorer("asb-a-0", GREEN)))
    (tmp_path / "book" / "plain.html").write_text(page("<p>No explorer; this page shows "
                                                       "<code>class=&quot;asb-data&quot;</code> as text.</p>"))
    return tmp_path


def test_pictures_become_files_at_urls_relative_to_each_page(small_site):
    originals = {"top.html": [RED], "book/chapter.html": [GREEN, BLUE], "notebooks/lab.html": [GREEN]}
    report = externalize_pictures(small_site)
    for name, pictures in originals.items():
        path = small_site / name
        found = pictures_on(path)
        prefix = "../" * (len(Path(name).parts) - 1) + PICTURES_DIR + "/"
        assert len(found) == len(pictures) and all(e.startswith(prefix) and e.endswith(".png") for e in found)
        # resolved against the page, the URL is a file holding exactly the picture it replaced
        assert [(path.parent / urllib.parse.unquote(e)).read_bytes() for e in found] == pictures
        assert [p["bytes"] for p in report[name]] == [len(x) for x in pictures]
    assert [p["id"] for p in report["book/chapter.html"]] == ["asb-a-0", "asb-b-1"]
    # the same picture on two pages is one file
    assert sorted(p.name for p in (small_site / PICTURES_DIR).iterdir()) == sorted(
        name_of(x) for x in (RED, GREEN, BLUE))


def test_rewrite_is_idempotent(small_site):
    externalize_pictures(small_site)
    first = {p: p.read_bytes() for p in small_site.rglob("*") if p.is_file()}
    stamps = {p: p.stat().st_mtime_ns for p in first}
    externalize_pictures(small_site)
    again = {p: p.read_bytes() for p in small_site.rglob("*") if p.is_file()}
    assert again == first
    assert {p: p.stat().st_mtime_ns for p in again} == stamps  # nothing was even rewritten


def test_pages_without_explorers_are_untouched(small_site):
    plain = small_site / "book" / "plain.html"
    before, stamp = plain.read_bytes(), plain.stat().st_mtime_ns
    report = externalize_pictures(small_site)
    assert plain.read_bytes() == before and plain.stat().st_mtime_ns == stamp
    assert "book/plain.html" not in report


def test_a_rebuilt_page_gets_new_files_and_stale_ones_go(small_site):
    externalize_pictures(small_site)
    # an incremental build writes chapter.html afresh with other pictures; the rest keep theirs
    yellow = png((255, 255, 0))
    (small_site / "book" / "chapter.html").write_text(page(explorer("asb-a-0", yellow)))
    externalize_pictures(small_site)
    names = {p.name for p in (small_site / PICTURES_DIR).iterdir()}
    assert names == {name_of(RED), name_of(GREEN), name_of(yellow)}  # BLUE was only the old chapter's


def test_a_missing_picture_file_fails_the_build(small_site):
    externalize_pictures(small_site)
    (small_site / pictures_on(small_site / "top.html")[0]).unlink()
    with pytest.raises(MissingPictureError, match=r"top\.html: asb-top-0 refers to missing picture files"):
        externalize_pictures(small_site)


def test_an_explorers_own_markup_ships_its_picture_as_a_file(tmp_path):
    """The scale explorer's static HTML: its no-script picture leaves the page for a file,
    which the page then loads only inside <noscript>."""
    from attention_scaling.explorables import scale_explorer

    html_text = scale_explorer().static_html()
    inline = re.search(r'<img class="asb-picture" src="data:image/png;base64,([^"]+)"', html_text).group(1)
    (tmp_path / "book").mkdir()
    target = tmp_path / "book" / "page.html"
    target.write_text(page(html_text))
    report = externalize_pictures(tmp_path)
    assert [p["files"] for p in report["book/page.html"]] == [1]
    src = re.search(r'<noscript><img class="asb-picture" src="([^"]+)"', target.read_text()).group(1)
    assert src.startswith("../_images/asb/") and (target.parent / src).read_bytes() == base64.b64decode(inline)
