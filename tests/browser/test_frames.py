"""Player frames as files: the build hook that writes them, and the player that loads them.

``attention_book.sphinx_ext.externalize_frames`` runs after the build. It moves every
frame a static player carries inline into a content-addressed file under ``_images/asb/``
and puts the file's URL, relative to the page, in its place. ``_static/player.js`` loads a
frame only when the reader asks for it (plus its neighbours, after a change), and swaps it
in only once it has loaded.

The hook is tested on small HTML sites written here (no build); the player in headless
Chromium on the built book, served over HTTP and opened from file://.
"""

from __future__ import annotations

import base64
import io
import hashlib
import json
import re
import urllib.parse
from pathlib import Path

import pytest
from PIL import Image

from attention_book.sphinx_ext import (
    FRAMES_DIR,
    FrameBudgetError,
    externalize_frames,
)

# --- the hook, on small sites ----------------------------------------------------------------


def png(colour: tuple[int, int, int], size: int = 8) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (size, size), colour).save(buf, format="PNG")
    return buf.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def player(pid: str, frames: list[bytes], background: bytes, default: int = 0) -> str:
    """A player as ``Explorable.static_html`` writes it: inline images and a JSON data block."""
    data = {"controls": [{"id": f"{pid}-x", "unit": "", "values": [str(i) for i in range(len(frames))]}],
            "frames": [b64(f) for f in frames],
            "readout": {"values": [[f"lead {i}.", str(i)] for i in range(len(frames))],
                        "templates": ["alt {0} {1}", "{0} {1}"], "alt": 0, "said": 1}}
    return (f'<div class="asb-player" id="{pid}" role="group" aria-label="t"><div class="asb-stack">'
            f'<img class="asb-background" src="data:image/png;base64,{b64(background)}" alt="" width="8" height="8">'
            f'<img class="asb-frame" src="data:image/png;base64,{b64(frames[default])}" alt="alt {default}" '
            f'width="8" height="8"></div><div class="asb-readout"><p class="asb-lead">lead {default}.</p>'
            f'<table class="asb-rt"><tbody><tr><th scope="row">x</th><td>{default}</td></tr></tbody></table>'
            f'<p class="asb-said" aria-live="polite">lead {default}. {default}</p></div>'
            f'<script type="application/json" class="asb-data">{json.dumps(data, separators=(",", ":"))}</script>'
            "</div>")


def page(*bodies: str) -> str:
    return f"<!DOCTYPE html><html><head><title>p</title></head><body>{''.join(bodies)}</body></html>"


RED, GREEN, BLUE, GREY = png((255, 0, 0)), png((0, 255, 0)), png((0, 0, 255)), png((128, 128, 128))


def players_on(path: Path) -> list[dict]:
    """What each player of a page refers to: its frame entries and its images' src."""
    text = path.read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r'<div class="asb-player[^>]*id="([^"]+)".*?class="asb-data">(.*?)</script>', text, re.S):
        block = m.group(0)
        out.append({"id": m.group(1), "frames": json.loads(m.group(2))["frames"],
                    "background": re.search(r'class="asb-background" src="([^"]+)"', block).group(1),
                    "default": re.search(r'class="asb-frame" src="([^"]+)"', block).group(1)})
    return out


@pytest.fixture
def small_site(tmp_path) -> Path:
    """A site like the book's: pages at the root, in book/ and in notebooks/."""
    (tmp_path / "book").mkdir()
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "top.html").write_text(page(player("asb-top-0", [RED, GREEN], GREY)))
    (tmp_path / "book" / "chapter.html").write_text(page("<p>text</p>", player("asb-a-0", [RED, GREEN, BLUE], GREY, 1),
                                                         player("asb-b-1", [BLUE, RED], GREEN)))
    (tmp_path / "notebooks" / "lab.html").write_text(page(player("asb-a-0", [RED, GREEN, BLUE], GREY, 2)))
    (tmp_path / "book" / "plain.html").write_text(page("<p>No player; this page shows "
                                                       "<code>class=&quot;asb-data&quot;</code> as text.</p>"))
    return tmp_path


def test_frames_become_files_at_urls_relative_to_each_page(small_site):
    originals = {"top.html": [([RED, GREEN], GREY, 0)],
                 "book/chapter.html": [([RED, GREEN, BLUE], GREY, 1), ([BLUE, RED], GREEN, 0)],
                 "notebooks/lab.html": [([RED, GREEN, BLUE], GREY, 2)]}
    externalize_frames(small_site)
    for name, expected in originals.items():
        path = small_site / name
        found = players_on(path)
        assert len(found) == len(expected)
        for got, (frames, background, default) in zip(found, expected):
            entries = got["frames"] + [got["background"], got["default"]]
            assert not any(e.startswith("data:") for e in entries), f"{name} still has inline frames"
            prefix = "../" * (len(Path(name).parts) - 1) + FRAMES_DIR + "/"
            assert all(e.startswith(prefix) and e.endswith(".png") for e in entries), (name, entries)
            # resolved against the page, the URL is a file holding exactly the frame it replaced
            shown = [(path.parent / urllib.parse.unquote(e)).read_bytes() for e in entries]
            assert shown == frames + [background, frames[default]]


def test_identical_frames_share_one_file(small_site):
    report = externalize_frames(small_site)
    # RED, GREEN, BLUE, GREY: four distinct PNGs across three pages and four players
    assert sorted(p.name for p in (small_site / FRAMES_DIR).iterdir()) == sorted(
        {f"{hashlib.sha256(x).hexdigest()[:16]}.png" for x in (RED, GREEN, BLUE, GREY)})
    chapter = {p["id"]: p for p in report["book/chapter.html"]}
    assert chapter["asb-a-0"]["frames"] == 3 and chapter["asb-a-0"]["files"] == 4
    assert chapter["asb-a-0"]["bytes"] == len(RED) + len(GREEN) + len(BLUE) + len(GREY)
    assert chapter["asb-b-1"]["files"] == 3  # background GREEN, frames BLUE and RED
    # the same player on two pages uses the same files
    lab = players_on(small_site / "notebooks" / "lab.html")[0]
    ch = players_on(small_site / "book" / "chapter.html")[0]
    assert lab["frames"] == ch["frames"]


def test_rewrite_is_idempotent(small_site):
    externalize_frames(small_site)
    first = {p: p.read_bytes() for p in small_site.rglob("*") if p.is_file()}
    stamps = {p: p.stat().st_mtime_ns for p in first}
    report = externalize_frames(small_site)
    again = {p: p.read_bytes() for p in small_site.rglob("*") if p.is_file()}
    assert again == first
    assert {p: p.stat().st_mtime_ns for p in again} == stamps  # nothing was even rewritten
    assert report["book/chapter.html"][0]["files"] == 4


def test_pages_without_players_are_untouched(small_site):
    plain = small_site / "book" / "plain.html"
    before, stamp = plain.read_bytes(), plain.stat().st_mtime_ns
    report = externalize_frames(small_site)
    assert plain.read_bytes() == before and plain.stat().st_mtime_ns == stamp
    assert "book/plain.html" not in report


def test_a_rebuilt_page_gets_new_files_and_stale_ones_go(small_site):
    yellow = png((255, 255, 0))
    (small_site / "notebooks" / "lab.html").write_text(page(player("asb-a-0", [yellow, GREEN], GREY)))
    externalize_frames(small_site)
    assert (small_site / FRAMES_DIR / f"{hashlib.sha256(yellow).hexdigest()[:16]}.png").is_file()
    # an incremental build writes chapter.html afresh with other frames; top.html and the
    # lab keep theirs
    (small_site / "book" / "chapter.html").write_text(page(player("asb-a-0", [GREY, GREY], BLUE)))
    (small_site / "notebooks" / "lab.html").write_text(page("<p>the lab lost its player</p>"))
    externalize_frames(small_site)
    got = players_on(small_site / "book" / "chapter.html")[0]
    assert got["frames"][0] == got["frames"][1]  # identical frames: one URL
    names = {p.name for p in (small_site / FRAMES_DIR).iterdir()}
    still_used = {Path(e).name for p in players_on(small_site / "top.html") for e in p["frames"] + [p["background"]]}
    still_used |= {Path(e).name for e in got["frames"] + [got["background"]]}
    assert names == still_used  # yellow, used only by the lab's old player, is gone


def test_players_over_the_disk_budget_fail_the_build(small_site):
    report = externalize_frames(small_site)
    biggest = max(p["bytes"] for players in report.values() for p in players)
    with pytest.raises(FrameBudgetError) as err:
        externalize_frames(small_site, budget=biggest - 1)
    message = str(err.value)
    assert "book/chapter.html" in message and "asb-a-0" in message and f"{biggest - 1:,}" in message
    assert "top.html" not in message  # that player is within the budget
    externalize_frames(small_site, budget=biggest)  # exactly at the budget passes


def test_a_missing_frame_file_fails_the_build(small_site):
    externalize_frames(small_site)
    entry = players_on(small_site / "top.html")[0]["frames"][1]
    (small_site / entry).unlink()
    with pytest.raises(FrameBudgetError, match=r"top\.html: asb-top-0 refers to missing frame files"):
        externalize_frames(small_site)


@pytest.mark.parametrize("budget", [0, -5, 1.5, "4MB"])
def test_budget_is_validated(small_site, budget):
    with pytest.raises(ValueError, match="budget"):
        externalize_frames(small_site, budget=budget)


def test_an_explorer_that_computes_in_the_page_ships_its_picture_as_a_file(tmp_path):
    """The scale explorer has no frames; the picture a reader without scripts sees leaves the
    page for a file like a frame, which the page then loads only inside <noscript>."""
    from attention_scaling.explorables import scale_explorer

    html_text = scale_explorer().static_html()
    inline = re.search(r'<img class="asb-picture" src="data:image/png;base64,([^"]+)"', html_text).group(1)
    (tmp_path / "book").mkdir()
    target = tmp_path / "book" / "page.html"
    target.write_text(page(html_text))
    report = externalize_frames(tmp_path)
    assert [(p["frames"], p["files"]) for p in report["book/page.html"]] == [(0, 1)]
    src = re.search(r'<noscript><img class="asb-picture" src="([^"]+)"', target.read_text()).group(1)
    assert src.startswith("../_images/asb/") and (target.parent / src).read_bytes() == base64.b64decode(inline)
