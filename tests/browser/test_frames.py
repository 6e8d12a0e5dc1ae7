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
import dataclasses
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
    PLAYER_DISK_BUDGET_BYTES,
    FrameBudgetError,
    externalize_frames,
)
from book_files import player_pages
from checks import player_text

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


def test_the_real_player_markup_is_rewritten(tmp_path):
    """The hook reads what ``Explorable.static_html`` writes (on a two-point grid)."""
    from attention_scaling.explorables import scale_explorer

    explorer = scale_explorer()
    control = explorer.controls[0]
    other = next(v for v in control.values if v != control.default)
    # the lesson's stops are not on a two-point grid (the player would refuse them): none here
    explorer = dataclasses.replace(explorer, controls=[dataclasses.replace(control, values=(control.default, other))],
                                   stops=(), web=None, payload=None)  # a frame player
    html_text = explorer.static_html()
    inline = json.loads(re.search(r'class="asb-data">(.*?)</script>', html_text, re.S).group(1))["frames"]
    (tmp_path / "book").mkdir()
    target = tmp_path / "book" / "page.html"
    target.write_text(page(html_text))
    report = externalize_frames(tmp_path)
    assert [p["frames"] for p in report["book/page.html"]] == [2]
    text = target.read_text()
    assert "data:image/png" not in text
    urls = json.loads(re.search(r'class="asb-data">(.*?)</script>', text, re.S).group(1))["frames"]
    assert [(target.parent / u).read_bytes() for u in urls] == [base64.b64decode(f) for f in inline]
    for cls in ("asb-background", "asb-frame"):
        src = re.search(rf'<img class="{cls}" src="([^"]+)"', text).group(1)
        assert src.startswith("../_images/asb/") and (target.parent / src).is_file()


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


# --- the built book --------------------------------------------------------------------------

PLAYER_PAGES = player_pages(frames=True)  # the scale explorer draws in the page: no frames


@pytest.mark.build
@pytest.mark.parametrize("page_name", PLAYER_PAGES)
def test_built_players_use_frame_files_within_budget(site, page_name):
    found = players_on(site / page_name)
    assert found, f"{page_name} has no player"
    for p in found:
        entries = p["frames"] + [p["background"], p["default"]]
        assert all(e.startswith("../" + FRAMES_DIR + "/") for e in entries), f"{page_name}: inline frames left"
        files = {(site / page_name).parent.joinpath(e).resolve() for e in entries}
        assert all(f.is_file() for f in files)
        size = sum(f.stat().st_size for f in files)
        assert size <= PLAYER_DISK_BUDGET_BYTES, f"{page_name} {p['id']}: {size} bytes on disk"


# --- the player, in Chromium -------------------------------------------------------------------

PLAYERS_JS = """() => [...document.querySelectorAll('.asb-player')].map(p => ({
    id: p.id,
    data: JSON.parse(p.querySelector('script.asb-data').textContent),
    inputs: [...p.querySelectorAll('input[type=range]')].map(i => i.id),
    images: [...p.querySelectorAll('img.asb-background, img.asb-frame')].map(i => i.src),
}))"""

SHOWN_JS = """(p) => {
    const img = p.querySelector('img.asb-frame');
    return {src: img.getAttribute('src'), url: img.src, complete: img.complete,
            width: img.naturalWidth, alt: img.alt, busy: img.hasAttribute('aria-busy'),
            readout: p.querySelector('.asb-readout').textContent,
            lead: p.querySelector('.asb-readout .asb-lead').textContent,
            cells: [...p.querySelectorAll('.asb-readout td')].map(td => td.textContent),
            said: p.querySelector('.asb-readout .asb-said').textContent,
            values: JSON.parse(p.querySelector('script.asb-data').textContent).controls.map(c => {
                // a range input holds the position; a group of radio buttons, the checked one
                const e = document.getElementById(c.id);
                if (e && e.type === 'range') return Number(e.value);
                const radios = [...(e || p).querySelectorAll(`input[type=radio]${e ? '' : `[name="${c.id}"]`}`)];
                return radios.findIndex(r => r.checked);
            })};
}"""


def frame_index(values: list[int], sizes: list[int]) -> int:
    """The grid point of the sliders' positions: mixed radix, the last control fastest."""
    index = 0
    for v, n in zip(values, sizes):
        index = index * n + v
    return index


def neighbours(index: int, sizes: list[int]) -> set[int]:
    out, stride = set(), 1
    for n in reversed(sizes):
        digit = index // stride % n
        if digit > 0:
            out.add(index - stride)
        if digit < n - 1:
            out.add(index + stride)
        stride *= n
    return out


def is_frame_file(url: str) -> bool:
    return f"/{FRAMES_DIR}/" in url and url.endswith(".png")


def open_player_page(browser, site, server, page_name, mode):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    requests, errors = [], []
    pg.on("request", lambda r: requests.append(r.url))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server}/{page_name}" if mode == "http" else (site / page_name).as_uri(), wait_until="load")
    pg.wait_for_load_state("networkidle")
    return context, pg, requests, errors


def wait_shown(player):
    player.locator("img.asb-frame:not([aria-busy])").wait_for(state="attached", timeout=10_000)


def on_disk(site: Path, url: str) -> Path:
    path = urllib.parse.unquote(urllib.parse.urlparse(url).path)
    return Path(path) if url.startswith("file:") else site / path.lstrip("/")


@pytest.mark.browser
@pytest.mark.parametrize("mode", ["http", "file"])
@pytest.mark.parametrize("page_name", PLAYER_PAGES)
def test_player_loads_frames_on_demand(browser, site, server, page_name, mode):
    """At load only each player's background and default frame; after a key press or a click the
    chosen frame, from its file, with its alt and readout, and then its neighbours."""
    context, pg, requests, errors = open_player_page(browser, site, server, page_name, mode)
    try:
        players = pg.evaluate(PLAYERS_JS)
        assert players
        at_load = {u for u in requests if is_frame_file(u)}
        images = {u for p in players for u in p["images"]}
        assert at_load and at_load <= images, f"frame files fetched at load: {sorted(at_load - images)}"
        for i, info in enumerate(players):
            player = pg.locator(".asb-player").nth(i)
            data = info["data"]
            sizes = [len(c["values"]) for c in data["controls"]]
            assert all(is_frame_file(f) for f in data["frames"]), "the build left inline frames"
            moves = [(f"#{input_id}", key) for input_id in info["inputs"] for key in ("End", "Home", "ArrowRight")]
            # a choice (a group of radio buttons): the last option, then the first
            radios = player.locator("input[type=radio]")
            moves += [(radios.nth(k), None) for k in ((radios.count() - 1, 0) if radios.count() else ())]
            for control, key in moves:
                if key is None:
                    control.click()
                else:
                    pg.locator(control).focus()
                    pg.keyboard.press(key)
                wait_shown(player)
                shown = pg.evaluate(SHOWN_JS, player.element_handle())
                index = frame_index(shown["values"], sizes)
                assert shown["src"] == data["frames"][index], (key, str(control))
                assert shown["complete"] and shown["width"] > 0, f"{shown['url']} did not load"
                assert on_disk(site, shown["url"]).is_file()
                assert shown["url"].startswith(server + "/" if mode == "http" else site.as_uri() + "/")
                # the table, the alt text and the spoken sentence are the frame's (player_text: the
                # templates filled as player.js fills them)
                assert shown["alt"] == player_text(data, index)
                assert [shown["lead"], *shown["cells"]] == data["readout"]["values"][index]
                assert shown["said"] == player_text(data, index, "said")
                assert all(v in shown["alt"] for v in data["readout"]["values"][index][1:] if v != "none")
                # after the change, the frames one step away on each control are fetched
                wanted = {urllib.parse.urljoin(pg.url, data["frames"][j]) for j in neighbours(index, sizes)}
                pg.wait_for_timeout(200)
                fetched = set(requests)  # a frame is fetched once, maybe by an earlier prefetch
                assert wanted <= fetched, f"neighbours not prefetched: {sorted(wanted - fetched)[:3]}"
        assert errors == []
    finally:
        context.close()


@pytest.mark.browser
def test_no_frame_is_fetched_before_the_reader_moves_a_slider(browser, site, server):
    """Scrolling through a player page loads no frame beyond the defaults: frames are not
    fetched until a control changes."""
    page_name = PLAYER_PAGES[0]
    context, pg, requests, _ = open_player_page(browser, site, server, page_name, "http")
    try:
        players = pg.evaluate(PLAYERS_JS)
        for i in range(len(players)):
            pg.locator(".asb-player").nth(i).scroll_into_view_if_needed()
        pg.mouse.wheel(0, 20_000)
        pg.wait_for_timeout(500)
        fetched = {u for u in requests if is_frame_file(u)}
        assert fetched <= {u for p in players for u in p["images"]}
    finally:
        context.close()


def first_player_page():
    return next(p for p in PLAYER_PAGES if "normalize-beyond-sqrt-dk" in p)


@pytest.mark.browser
def test_a_failed_frame_keeps_the_previous_one_and_says_so(browser, site, server):
    context, pg, requests, errors = open_player_page(browser, site, server, first_player_page(), "http")
    try:
        player = pg.locator(".asb-player").first
        pg.route(f"**/{FRAMES_DIR}/*.png", lambda route: route.abort())
        before = pg.evaluate(SHOWN_JS, player.element_handle())
        player.locator("input[type=range]").first.focus()
        pg.keyboard.press("ArrowRight")
        wait_shown(player)
        after = pg.evaluate(SHOWN_JS, player.element_handle())
        assert after["values"] != before["values"]
        assert after["src"] == before["src"] and after["width"] > 0  # still the previous frame
        assert after["alt"] == before["alt"]  # which the alt text still describes
        assert "could not be loaded" in after["readout"]
        pg.unroute(f"**/{FRAMES_DIR}/*.png")
        pg.keyboard.press("ArrowRight")  # moving on loads frames again
        wait_shown(player)
        assert "could not be loaded" not in pg.evaluate(SHOWN_JS, player.element_handle())["readout"]
        assert errors == []
    finally:
        context.close()


@pytest.mark.browser
def test_a_slow_frame_never_blanks_the_figure(browser, site, server):
    context, pg, requests, errors = open_player_page(browser, site, server, first_player_page(), "http")
    try:
        player = pg.locator(".asb-player").first
        held = []
        pg.route(f"**/{FRAMES_DIR}/*.png", lambda route: held.append(route))
        before = pg.evaluate(SHOWN_JS, player.element_handle())
        player.locator("input[type=range]").first.focus()
        pg.keyboard.press("End")
        pg.wait_for_timeout(300)
        waiting = pg.evaluate(SHOWN_JS, player.element_handle())
        assert held, "the new frame was requested"
        assert waiting["busy"] and waiting["src"] == before["src"] and waiting["width"] > 0
        assert waiting["alt"] == before["alt"] and waiting["readout"] == before["readout"]
        for route in held:
            route.continue_()
        pg.unroute(f"**/{FRAMES_DIR}/*.png")
        wait_shown(player)
        shown = pg.evaluate(SHOWN_JS, player.element_handle())
        assert shown["src"] != before["src"] and shown["width"] > 0 and shown["alt"] != before["alt"]
        assert errors == []
    finally:
        context.close()
