"""What a reader sees: nothing cut off or sticking out, legible figure text, the same figures in dark mode.

Every page of the built book is opened once per view, and each visit runs every check that
view needs, since typesetting a page's maths is most of a visit's time:

- at a laptop's 1280×900 served over 127.0.0.1, as the published book is served, and at a
  phone's 390×844 opened from disk (file://), as a reader offline opens the book: the load
  checks of test_browser (console, requests, fonts, maths, raw TeX; from disk, no request
  leaves the machine), then the four rules below in light and in dark mode; at 1280 also
  axe-core's full scan, its colour-contrast check in dark mode (colours do not change with the
  width) and the page's weight (a page loads the same bytes at both widths, measured; from disk
  the browser counts none). axe-core runs served: from disk it asks for the stylesheets with
  XMLHttpRequest, which Chromium refuses for file:// pages.

The four rules:

1. clipped: no element of the page's content cuts its own content off (overflow hidden or
   clip with content wider or taller than the box); at 1280 px no displayed formula scrolls
   sideways.
2. sticks out: no element reaches past the right or left edge of the nearest box the reader
   can see around it (a border or a background: admonitions, proofs, outputs, players); and a
   table or formula that scrolls sideways shows it, by a fade at its cut edge.
3. legible: the smallest text in every figure and player frame renders at ≥ 11 CSS px at
   1280 and ≥ 9 at 390. It is computed from the font size and dpi the figure was drawn
   with (a PNG text chunk written by :func:`attention_scaling.figures.png_bytes`) and the
   width the browser shows the image at.
4. dark mode: every figure and frame player looks the same in dark mode as in light mode (pixel
   for pixel, up to antialiasing), and axe-core finds no colour-contrast violation (at 1280).
   An explorer drawn in the page (SVG, ``.asb-panels``) takes the page's colours instead:
   tests/browser/test_explorer_in_the_page.py checks its text against the page's.

A fifth rule, navigation, runs in the same visit (test_page), opened in a browser whose
system setting is dark and with no mode chosen: the page follows the system's
setting (dark, then light when the system switches); in light mode the sidebar (☰) and
contents toggles open their panel (it comes into view) and close it again, the search
button opens a search field and only one search control is in sight, and on a scrolled page
nothing fixed or sticky ("Back to top") lies over text; last, the prev/next links lead to the
neighbouring pages in reading order. The toggles, search and overlap are checked in one
mode: the theme's dark mode changes colours (rules 1-4 check those in both modes), not its
scripts or layout, and a second run in dark mode cost about a second of every visit.

Each of rules 1–4 is run on a planted defect too, and must report it.
"""

from __future__ import annotations

import base64
import io
import os
import urllib.parse
from pathlib import Path

import pytest
from PIL import Image

from book_files import HTML, SCREENSHOTS
from test_browser import (GENERATED_PAGES, PAGE_WEIGHT_BUDGET, PAGES, _check, _is_theme_finding, axe_violations, page_state,
                          visiting)

pytestmark = pytest.mark.browser

VIEWPORTS = {"laptop": (1280, 900), "phone": (390, 844)}
MIN_FONT_PX = {"laptop": 11.0, "phone": 9.0}
# Mean absolute difference (0–255) between a figure's light and dark screenshots that still
# counts as the same picture: antialiasing at edges, not a lost axis.
SAME_PICTURE = 2.0
CONTENT = "article.bd-article"
# Whole-page screenshots for a person to look at (`make screenshots`): a file each, asserted
# on by nothing, and among the slowest steps of a visit, so `make test` leaves them out.
FULL_PAGE_SHOTS = bool(os.environ.get("BOOK_SCREENSHOTS"))

CLIP_JS = """([root, strictMath]) => {
  // A box cuts its content when a rendered descendant reaches past its edge on an axis the box
  // does not let the reader scroll. Visually hidden helpers (MathJax's assistive MathML, which
  // screen readers read) are not content a sighted reader misses, so they and their children
  // are left out; so are descendants of closed dropdowns (not rendered).
  const out = [];
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
        (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  const hidden = d => {
    const cs = getComputedStyle(d);
    return (cs.clip && cs.clip !== 'auto') || cs.clipPath !== 'none' || cs.visibility === 'hidden' ||
           d.tagName.toLowerCase() === 'mjx-assistive-mml';
  };
  const reach = e => {               // how far visible descendants reach past e's padding box
    const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
    const left = r.left + parseFloat(cs.borderLeftWidth), right = r.right - parseFloat(cs.borderRightWidth);
    const top = r.top + parseFloat(cs.borderTopWidth), bottom = r.bottom - parseFloat(cs.borderBottomWidth);
    let x = 0, y = 0, what = '';
    const walk = a => {
      for (const d of a.childNodes) {
        let q;
        if (d.nodeType === Node.TEXT_NODE) {
          if (!d.textContent.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(d);
          q = range.getBoundingClientRect();
        } else if (d.nodeType !== Node.ELEMENT_NODE || hidden(d)) continue;
        else q = d.getBoundingClientRect();
        if (q.width > 0 && q.height > 0) {
          const dx = Math.max(q.right - right, left - q.left), dy = Math.max(q.bottom - bottom, top - q.top);
          if (dx > x) { x = dx; what = d.innerText || d.textContent || ''; }
          if (dy > y) { y = dy; what = what || d.innerText || d.textContent || ''; }
        }
        // a descendant that clips or scrolls keeps its own content: only its box counts here
        if (d.nodeType === Node.ELEMENT_NODE && getComputedStyle(d).overflowX === 'visible') walk(d);
      }
    };
    walk(e);
    return {x, y, what};
  };
  const cut = v => v === 'hidden' || v === 'clip';
  for (const e of document.querySelectorAll(root + ' *')) {
    if (!e.getClientRects().length || hidden(e)) continue;   // not rendered, or a screen-reader helper
    if (e.closest('mjx-assistive-mml, details:not([open])')) continue;    // folded on purpose
    const cs = getComputedStyle(e);
    const math = e.matches('mjx-container[display="true"], div.math');
    if (!cut(cs.overflowX) && !cut(cs.overflowY) && !(strictMath && math)) continue;
    const {x, y, what} = reach(e);
    if ((cut(cs.overflowX) && x > 1.5) || (cut(cs.overflowY) && y > 1.5))
      out.push({rule: 'clipped', what: name(e), text: (what || e.innerText).slice(0, 60),
                by: [Math.round(x), Math.round(y)]});
    else if (strictMath && math && x > 1.5)
      out.push({rule: 'derivation scrolls sideways', what: name(e), text: e.innerText.slice(0, 60),
                by: Math.round(x)});
  }
  return out;
}"""

STICK_JS = """(root) => {
  const out = [];
  const top = document.querySelector(root);
  if (!top) return out;
  const name = e => e.tagName.toLowerCase() +
        (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  const visibleBox = a => {
    if (a === top) return true;
    const cs = getComputedStyle(a);
    const bg = cs.backgroundColor;
    const hasBg = bg && bg !== 'transparent' && !/rgba\\(.*,\\s*0\\)$/.test(bg);
    const hasBorder = ['Left', 'Right'].some(s => parseFloat(cs['border' + s + 'Width']) > 0 &&
                                                  cs['border' + s + 'Style'] !== 'none');
    return hasBg || hasBorder;
  };
  const scrolls = a => ['auto', 'scroll'].includes(getComputedStyle(a).overflowX);
  for (const e of top.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const cs = getComputedStyle(e);
    if (cs.position === 'fixed' || cs.position === 'absolute' || cs.visibility === 'hidden') continue;
    if (e.closest('mjx-assistive-mml, details:not([open])')) continue;   // screen-reader copy, folds
    let a = e.parentElement, inScroller = false;
    while (a && a !== top && !visibleBox(a)) { if (scrolls(a)) inScroller = true; a = a.parentElement; }
    if (!a || inScroller) continue;                              // content of a scroller is reachable
    // anything up to the box, including the box itself, that scrolls makes the overflow reachable
    let b = e.parentElement, reachable = false;
    while (b && b !== a.parentElement) { if (scrolls(b)) reachable = true; b = b.parentElement; }
    if (reachable) continue;
    const box = a.getBoundingClientRect();
    const past = Math.max(r.right - box.right, box.left - r.left);
    if (past > 1.5) out.push({rule: 'sticks out', what: name(e), box: name(a), by: Math.round(past),
                              text: (e.innerText || e.textContent || '').slice(0, 60)});
  }
  // report the outermost offender only: its children stick out with it
  return out.filter((o, i) => i === 0 || !(out[i - 1].text.includes(o.text) && out[i - 1].box === o.box));
}"""

FIGURES_JS = """(root) => [...document.querySelectorAll(root + ' img')]
  .filter(img => img.getClientRects().length && img.naturalWidth > 0)
  .map(img => ({src: img.currentSrc || img.src, natural: img.naturalWidth,
                shown: img.getBoundingClientRect().width,
                alt: img.alt, layer: img.classList.contains('asb-frame')}))"""


def _png_bytes(src: str) -> bytes:
    if src.startswith("data:"):
        return base64.b64decode(src.split(",", 1)[1])
    path = urllib.parse.urlparse(src).path
    if src.startswith("file://"):
        return Path(urllib.parse.unquote(path)).read_bytes()
    return (HTML / urllib.parse.unquote(path).lstrip("/")).read_bytes()


def smallest_text_px(src: str, natural: float, shown: float) -> float | None:
    """CSS px of the smallest text of a figure image as shown, or None if it carries no font data."""
    try:
        info = Image.open(io.BytesIO(_png_bytes(src))).info
    except (OSError, ValueError):
        return None
    if "asb:min-font-pt" not in info or "dpi" not in info:
        return None
    font_px_in_image = float(info["asb:min-font-pt"]) * float(info["dpi"][0]) / 72.0
    return font_px_in_image * shown / natural


def legibility_problems(figures, minimum: float) -> list[dict]:
    problems = []
    for f in figures:
        if not f["src"].startswith("data:image/png") and not f["src"].lower().endswith(".png"):
            continue  # SVG icons and the like scale with the page
        px = smallest_text_px(f["src"], f["natural"], f["shown"])
        if px is None:
            problems.append({"rule": "legible", "what": f["alt"][:60] or f["src"][-40:],
                             "why": "the PNG carries no font size (asb:min-font-pt)"})
        elif px < minimum:
            problems.append({"rule": "legible", "what": f["alt"][:60] or f["src"][-40:],
                             "smallest text": round(px, 1), "minimum": minimum})
    return problems


def _set_mode(page, mode: str) -> None:
    """Switch the page to ``mode`` and wait until the colours have settled: the theme's
    buttons fade their colours over 0.15 s (Bootstrap's .btn transition), and axe's contrast
    check run during the fade saw half-dark text (search.html, once)."""
    page.evaluate("""async (mode) => { document.documentElement.dataset.theme = mode;
                                       document.documentElement.dataset.mode = mode;
                                       await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
                                       await Promise.all(document.getAnimations()
                                           .filter(a => a instanceof CSSTransition).map(a => a.finished.catch(() => null))); }""", mode)
    page.wait_for_timeout(50)


# The part of an element the reader sees: its box cut by every ancestor that does not let
# content overflow visibly (a sideways scroller on a phone shows part of a 640-px figure).
VISIBLE_PART_JS = """e => {
  const r = e.getBoundingClientRect();
  let left = r.left, top = r.top, right = r.right, bottom = r.bottom;
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const cs = getComputedStyle(a), q = a.getBoundingClientRect();
    if (cs.overflowX !== 'visible') { left = Math.max(left, q.left); right = Math.min(right, q.right); }
    if (cs.overflowY !== 'visible') { top = Math.max(top, q.top); bottom = Math.min(bottom, q.bottom); }
  }
  return {x: left - r.left, y: top - r.top, width: right - left, height: bottom - top, full: r.width};
}"""


KEEP_SCROLL_JS = """(e, what) => {
  const s = e.closest('.asb-scroll');
  if (!s) return;
  if (what === 'remember' && s.dataset.shotLeft === undefined) s.dataset.shotLeft = String(s.scrollLeft);
  if (what === 'restore') s.scrollLeft = Number(s.dataset.shotLeft);
}"""


def figure_shots(page) -> list[bytes]:
    """Screenshots of every figure as shown (a player's stacked layers together).

    Only the part the reader sees is kept: a figure wider than its sideways scroller would
    otherwise bring the page background beside the scroller into the picture.
    """
    shots = []
    # (an explorer drawn in the page, .asb-panels, takes the page's colours in dark mode by
    # design: tests/browser/test_explorer_in_the_page.py checks those)
    targets = page.locator(f"{CONTENT} .asb-stack:not(.asb-panels), {CONTENT} img:not(.asb-stack img)")
    for i in range(targets.count()):
        t = targets.nth(i)
        if t.is_visible() and (t.bounding_box() or {}).get("width", 0) > 20:
            # a player's sideways scroller keeps where the page put it (a phone's opens on the
            # key panel): scrolling the figure into view must not move it between the light
            # and the dark shot
            t.evaluate(KEEP_SCROLL_JS, "remember")
            t.scroll_into_view_if_needed()
            t.evaluate(KEEP_SCROLL_JS, "restore")
            part = t.evaluate(VISIBLE_PART_JS)
            box = t.bounding_box()
            if part["width"] > 1 and part["height"] > 1 and (part["x"] or part["y"] or part["width"] < box["width"] - 1):
                # only the part in sight: the page's pixels there (an element screenshot of a
                # figure scrolled sideways would be clipped differently on every scroll)
                shot = page.screenshot(clip={"x": box["x"] + part["x"], "y": box["y"] + part["y"],
                                             "width": part["width"], "height": part["height"]})
            else:
                shot = t.screenshot()
            shots.append(shot)
    return shots


def _difference(a: bytes, b: bytes) -> float:
    """Mean difference of two shots of one figure, its outermost pixels left out: a figure
    at a fractional position (chapter 1's small one floats beside the text) shares its edge
    pixels with the page's background, white in light mode and dark in dark mode, and on a
    figure 255 px wide those edges alone make a mean difference above SAME_PICTURE."""
    ia, ib = (Image.open(io.BytesIO(x)).convert("RGB") for x in (a, b))
    if ia.size != ib.size:
        return 255.0
    if ia.width > 4 and ia.height > 4:
        ia, ib = (im.crop((1, 1, im.width - 1, im.height - 1)) for im in (ia, ib))
    from PIL import ImageChops, ImageStat
    return sum(ImageStat.Stat(ImageChops.difference(ia, ib)).mean) / 3


def dark_mode_problems(light: list[bytes], dark: list[bytes]) -> list[dict]:
    if len(light) != len(dark):
        return [{"rule": "dark mode", "why": f"{len(light)} figures in light mode, {len(dark)} in dark"}]
    return [{"rule": "dark mode", "figure": i, "mean difference": round(d, 1)}
            for i, (a, b) in enumerate(zip(light, dark)) if (d := _difference(a, b)) > SAME_PICTURE]


def contrast_problems(page) -> list[dict]:
    # A fresh axe each time: one that already ran here (the light-mode scan) keeps colours it
    # computed then, and reports the dark theme's chrome against light backgrounds.
    page.add_script_tag(path=str(Path(__file__).parents[1] / "vendor" / "axe-core-4.14.1.min.js"))
    found = page.evaluate(
        f"""async () => (await axe.run(document.querySelector('{CONTENT}') ? '{CONTENT}' : 'body', {{runOnly: ['color-contrast'], resultTypes: ['violations']}}))
            .violations.map(v => ({{rule: 'contrast', targets: v.nodes.map(n => n.target.join(' '))}}))""")
    return found


# A table or formula that scrolls sideways says so: its cut edge fades (book.css). Chromium
# reports the fade as the element's mask; one that scrolls with no mask gives no cue. A table
# with columns out of sight says so in words as well (nav.js's .asb-wide, a ::before line).
CUE_JS = """(root) => {
  const scrollers = root + ' .pst-scrollable-table-container, ' + root + ' div.math';
  return [...document.querySelectorAll(scrollers)]
    .filter(e => e.getClientRects().length && !e.closest('details:not([open])'))
    .filter(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
    .filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).maskImage === 'none')
    .map(e => ({rule: 'scrolls sideways with no cue', what: e.tagName.toLowerCase() + '.' + e.className,
                text: e.innerText.slice(0, 60), by: e.scrollWidth - e.clientWidth}))
    .concat([...document.querySelectorAll(root + ' .pst-scrollable-table-container')]
      .filter(e => e.getClientRects().length && !e.closest('details:not([open])'))
      .filter(e => e.scrollWidth - e.clientWidth > 16 && getComputedStyle(e, '::before').content === 'none')
      .map(e => ({rule: 'a table wider than the screen with no words saying so',
                  text: e.innerText.slice(0, 60), by: e.scrollWidth - e.clientWidth})));
}"""


def reader_problems(page, width_name: str, *, shots: bool = True) -> tuple[list[dict], list[bytes]]:
    problems = page.evaluate(CLIP_JS, [CONTENT, width_name == "laptop"])
    problems += page.evaluate(STICK_JS, CONTENT)
    problems += page.evaluate(CUE_JS, CONTENT)
    problems += legibility_problems(page.evaluate(FIGURES_JS, CONTENT), MIN_FONT_PX[width_name])
    return problems, (figure_shots(page) if shots else [])


def _stem(page_name: str) -> str:
    return page_name.replace("/", "__").removesuffix(".html")


def _full_page_shot(page, page_name: str, width_name: str, mode: str) -> None:
    if FULL_PAGE_SHOTS:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{_stem(page_name)}-{width_name}-{mode}.png"), full_page=True)


#: How each width opens a page: the laptop over HTTP, the phone from disk (the module docstring).
FROM_DISK = {"laptop": False, "phone": True}


@pytest.mark.parametrize("width_name", list(VIEWPORTS))
@pytest.mark.parametrize("page_name", PAGES)
def test_page(browser, site, server, page_name, width_name):
    """At a laptop's width served over 127.0.0.1, at a phone's from disk (file://): the page
    loads cleanly (test_browser._check: no console error, no failed or external request, fonts
    and icons drawn, maths typeset, no raw TeX, no sideways overflow), then the four rules in
    light and in dark mode. At the laptop width also axe-core's full scan (nothing serious or
    critical outside the theme's own findings), axe's colour-contrast check in dark mode and
    the page's weight. Then rule 5, navigation: the page is opened as by a reader whose
    system is dark and who never chose a mode, so it must be dark, and light when the system
    turns light; in light mode the toggles, search and "nothing fixed over text"; last,
    prev/next (which leaves the page). The printable sheets (print/) have no theme, sidebars
    or modes: there only the load and rules 1-4 are checked. One load per page and width:
    typesetting is most of a visit's time."""
    laptop, from_disk = width_name == "laptop", FROM_DISK[width_name]
    base = site.as_uri() if from_disk else server
    with visiting(browser, f"{base}/{page_name}", None if from_disk else server, VIEWPORTS[width_name],
                  color_scheme="dark") as (page, visit):
        state = page_state(page)
        themed = page.evaluate("!!document.getElementById('pst-primary-sidebar')")
        navigation = follows_system_problems(page) if themed else []
        _set_mode(page, "light")
        light, light_shots = reader_problems(page, width_name)
        _full_page_shot(page, page_name, width_name, "light")
        axe = [v for v in axe_violations(page) if not _is_theme_finding(v)] if laptop else []
        if themed:
            navigation += navigation_problems(page, page_name, width_name, "light")
        _set_mode(page, "dark")
        dark, dark_shots = reader_problems(page, width_name)
        dark += dark_mode_problems(light_shots, dark_shots)
        if laptop:  # colours are the same at both widths; axe takes seconds a page
            dark += contrast_problems(page)
        _full_page_shot(page, page_name, width_name, "dark")
        # following a link aborts what this page still loads; the next page has its own test
        failed_here = list(visit.failed)
        navigation += prev_next_problems(page, base, page_name)
        visit.failed[:] = failed_here
    _check(visit, state, page_name)
    if laptop:
        assert 0 < state["weight"] <= PAGE_WEIGHT_BUDGET, f"{page_name} loads {state['weight']} bytes"
    assert axe == [], f"{page_name}: {axe}"
    assert light == [], f"{page_name} at {width_name}, light: {light}"
    assert dark == [], f"{page_name} at {width_name}, dark: {dark}"
    assert navigation == [], f"{page_name} at {width_name}, navigation: {navigation}"


# --- every rule reports a planted defect ---------------------------------------------------------


def _planted_png(font_pt: float = 10.0, dpi: int = 100, width: int = 960, transparent: bool = False,
                 with_font: bool = True) -> str:
    from PIL import ImageDraw, PngImagePlugin
    img = Image.new("RGBA", (width, 200), (0, 0, 0, 0) if transparent else (255, 255, 255, 255))
    ImageDraw.Draw(img).line([(10, 190), (width - 10, 10)], fill=(0, 0, 0, 255), width=4)
    meta = PngImagePlugin.PngInfo()
    if with_font:
        meta.add_text("asb:min-font-pt", str(font_pt))
    buf = io.BytesIO()
    img.save(buf, format="PNG", pnginfo=meta, dpi=(dpi, dpi))
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _planted(browser, body: str, width_name: str = "laptop"):
    w, h = VIEWPORTS[width_name]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    page.set_content(
        "<html><head><style>html[data-theme=dark] body{background:#121212;color:#ddd}"
        ".admonition{border:1px solid #888;width:300px}</style></head>"
        f'<body><article class="bd-article" style="width:700px">{body}</article></body></html>')
    return context, page


def test_planted_clipped_box_is_reported(browser):
    context, page = _planted(browser, '<div style="width:120px;overflow:hidden;white-space:nowrap">'
                                      'chain rule, because S depends on z_1</div>')
    found = page.evaluate(CLIP_JS, [CONTENT, True])
    context.close()
    assert [p["rule"] for p in found] == ["clipped"]


def test_planted_scrolling_derivation_is_reported_at_laptop_width(browser):
    body = '<div class="math" style="width:200px;overflow-x:auto;white-space:nowrap">' + "x + " * 80 + "</div>"
    context, page = _planted(browser, body)
    strict = page.evaluate(CLIP_JS, [CONTENT, True])
    lenient = page.evaluate(CLIP_JS, [CONTENT, False])
    context.close()
    assert [p["rule"] for p in strict] == ["derivation scrolls sideways"] and lenient == []


@pytest.mark.parametrize("cue", [False, True])
def test_planted_table_scrolling_with_no_cue_is_reported(browser, cue):
    """A wide table in the theme's scroll container: with book.css's fade and its line in words
    (the class nav.js gives a table with columns out of sight) it passes, without (a page
    whose styles lack them) it is reported twice. A table that fits needs no cue."""
    css = (HTML / "_static" / "book.css").read_text() if cue else ""
    wide = " asb-wide" if cue else ""
    row = "<tr>" + "<td>709.7827128933840</td>" * 6 + "</tr>"
    body = (f"<style>{css}</style><div class='pst-scrollable-table-container{wide}' style='overflow-x:auto'>"
            f"<table>{row}</table></div><div class='pst-scrollable-table-container' "
            "style='overflow-x:auto'><table><tr><td>fits</td></tr></table></div>")
    context, page = _planted(browser, body, "phone")
    if cue:  # the fade is a scroll-driven animation: under a loaded run it applies a moment later
        page.wait_for_function("() => getComputedStyle(document.querySelector('.asb-wide')).maskImage !== 'none'",
                               timeout=5_000)
    else:
        page.wait_for_timeout(100)
    found = page.evaluate(CUE_JS, CONTENT)
    context.close()
    assert [p["rule"] for p in found] == ([] if cue else ["scrolls sideways with no cue",
                                                         "a table wider than the screen with no words saying so"])


def test_planted_text_sticking_out_of_a_box_is_reported(browser):
    body = ('<div class="admonition"><p><span style="display:inline-block;width:420px">R &gt; 0 collects'
            ' the other terms</span></p></div><div class="admonition"><p>fits</p></div>')
    context, page = _planted(browser, body)
    found = page.evaluate(STICK_JS, CONTENT)
    context.close()
    assert [p["rule"] for p in found] == ["sticks out"] and "R > 0" in found[0]["text"]


@pytest.mark.parametrize("width_name, shown, font_pt, flagged", [
    ("laptop", 688, 10.0, True),    # 960-px frame at 688 px: 10 pt at 100 dpi is 9.6 CSS px
    ("laptop", 688, 12.0, False),   # 11.5 CSS px
    ("phone", 350, 16.0, True),     # 8.1 CSS px on a phone
])
def test_planted_small_figure_text_is_reported(browser, width_name, shown, font_pt, flagged):
    src = _planted_png(font_pt=font_pt)
    context, page = _planted(browser, f'<img src="{src}" alt="planted" style="width:{shown}px">', width_name)
    found = legibility_problems(page.evaluate(FIGURES_JS, CONTENT), MIN_FONT_PX[width_name])
    context.close()
    assert bool(found) == flagged, found


def test_planted_figure_without_font_data_is_reported(browser):
    context, page = _planted(browser, f'<img src="{_planted_png(with_font=False)}" alt="planted">')
    found = legibility_problems(page.evaluate(FIGURES_JS, CONTENT), 11.0)
    context.close()
    assert found and "no font size" in found[0]["why"]


def test_planted_transparent_figure_is_reported_in_dark_mode(browser):
    transparent = f'<img src="{_planted_png(transparent=True)}" alt="t" style="width:600px">'
    opaque = f'<img src="{_planted_png()}" alt="o" style="width:600px">'
    context, page = _planted(browser, transparent + opaque)
    _set_mode(page, "light")
    light = figure_shots(page)
    _set_mode(page, "dark")
    dark = figure_shots(page)
    context.close()
    found = dark_mode_problems(light, dark)
    assert [p["figure"] for p in found] == [0]


def test_planted_low_contrast_is_reported_in_dark_mode(browser):
    context, page = _planted(browser, '<p style="color:#333">Correct: the gradient vanishes.</p>')
    _set_mode(page, "dark")
    found = contrast_problems(page)
    context.close()
    assert [p["rule"] for p in found] == ["contrast"]


# --- 5. navigation ------------------------------------------------------------------------------

# Pages in reading order: each one's prev/next links lead to its neighbours.
READING_ORDER = [p for p in PAGES if p not in GENERATED_PAGES]

# Where a panel is and whether a reader sees it: the sidebar itself, or the theme's <dialog>
# it is moved into on a narrow screen. Seen: a box of some size inside the viewport, visible,
# not faded out.
PANEL_JS = """(kind) => {
  const vw = innerWidth, vh = innerHeight;
  const dialog = document.getElementById('pst-' + kind + '-sidebar-modal');
  const sidebar = document.getElementById('pst-' + kind + '-sidebar');
  const seen = e => {
    if (!e) return false;
    const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
    return r.width > 40 && r.height > 40 && r.left >= -1 && r.right <= vw + 1 && r.top < vh && r.bottom > 0 &&
           cs.visibility === 'visible' && parseFloat(cs.opacity) > 0.5 && cs.display !== 'none' &&
           !!e.querySelector('a[href]');
  };
  return {open: !!(dialog && dialog.open && seen(dialog)) || seen(sidebar), dialog: !!(dialog && dialog.open)};
}"""

# What a failing close reports of the sidebar: where it is and how it is styled.
SIDEBAR_STATE_JS = """(kind) => {
  const s = document.getElementById('pst-' + kind + '-sidebar'), cs = getComputedStyle(s), r = s.getBoundingClientRect();
  return {classes: s.className, rect: [r.left, r.top, r.width, r.height].map(Math.round), display: cs.display,
          visibility: cs.visibility, opacity: cs.opacity, position: cs.position, scrollY: Math.round(scrollY),
          links: s.querySelectorAll('a[href]').length, inDialog: !!s.closest('dialog')};
}"""

# A button in sight: its centre inside the window and inside every ancestor that clips (not
# scrolled out of its sidebar).
VISIBLE_BUTTONS_JS = """(selector) => [...document.querySelectorAll(selector)].filter(e => {
  const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
  if (!(r.width > 0 && r.height > 0 && cs.visibility === 'visible')) return false;
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || x > innerWidth || y < 0 || y > innerHeight) return false;
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const q = a.getBoundingClientRect(), s = getComputedStyle(a);
    if (s.overflowY !== 'visible' && (y < q.top || y > q.bottom)) return false;
    if (s.overflowX !== 'visible' && (x < q.left || x > q.right)) return false;
  }
  return true;
}).length"""

# Fixed or sticky things over text the reader sees: every fixed or sticky element's box
# against the boxes of the article's text lines in the viewport. The bars content scrolls
# under (the theme's header and the article's sticky header) are the frame, not over text:
# text is counted only below them.
OVERLAP_JS = """(root) => {
  const frames = [...document.querySelectorAll('#pst-header, .bd-header-article')];
  const top = Math.max(0, ...frames.map(f => { const r = f.getBoundingClientRect(); return r.height ? r.bottom : 0; }));
  const floating = [...document.querySelectorAll('body *')].filter(e => {
    const cs = getComputedStyle(e);
    if (!['fixed', 'sticky'].includes(cs.position) || frames.includes(e)) return false;
    if (frames.some(f => f.contains(e)) || e.closest('dialog:not([open])')) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && cs.visibility === 'visible' && cs.display !== 'none' && parseFloat(cs.opacity) > 0.1;
  });
  const lines = [];
  const text = document.querySelector(root) || document.querySelector('.bd-main') || document.body;
  const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || n.parentElement.closest('mjx-assistive-mml, details:not([open]), script, style')) continue;
    // text for screen readers only (a 1-px box that clips it, as the players' spoken sentence)
    // is not drawn, though its line boxes run on past the clip
    const b = n.parentElement.getBoundingClientRect();
    if (b.width <= 1 && b.height <= 1 && getComputedStyle(n.parentElement).overflow === 'hidden') continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const q of range.getClientRects())
      if (q.width > 0 && q.top >= top && q.bottom <= innerHeight && q.bottom > top) lines.push({q, node: n, text: n.textContent.trim()});
  }
  const out = [];
  for (const f of floating) {
    const r = f.getBoundingClientRect();
    const hit = lines.find(({q, node}) => !f.contains(node) && q.left < r.right - 1 && q.right > r.left + 1 && q.top < r.bottom - 1 && q.bottom > r.top + 1);
    if (hit) out.push({rule: 'covers text', what: f.tagName.toLowerCase() + (f.id ? '#' + f.id : '') + '.' + f.className,
                       text: hit.text.slice(0, 40)});
  }
  return out;
}"""


def _scroll_to_a_readout(page) -> None:
    """Down past a readout (or the middle of the page), then back up a little, as a reader
    does, which is when the theme shows its "Back to top" button; a readout ends up at the
    top of the window, under the article's header, where that button appears."""
    page.evaluate("""async () => {
      const wait = () => new Promise(r => setTimeout(r, 100));
      const target = document.querySelector('.asb-readout, article.bd-article table, article.bd-article p:nth-of-type(3)');
      const y = target ? target.getBoundingClientRect().top + scrollY - 70 : document.body.scrollHeight / 2;
      const go = t => scrollTo({top: t, behavior: 'instant'});
      go(y + 400); await wait(); go(y + 200); await wait(); go(y); await wait();
    }""")
    page.wait_for_timeout(150)


def _click(page, locator) -> bool:
    """Click like a reader, then take the pointer away (a theme tooltip shown on hover would
    otherwise lie over the next button). False if the click could not happen."""
    from playwright.sync_api import Error
    try:
        locator.click(timeout=3000)
    except Error:
        return False
    page.mouse.move(1, page.viewport_size["height"] - 1)
    return True


def _wait_panel(page, kind: str, shown: bool, timeout: float = 10000) -> None:
    """Until the panel is shown (or not), for at most ``timeout`` ms: the sidebar slides and
    fades over 0.25 s. Under the full suite beside a build on two cores, a close was seen
    not to finish within 5 s (3 of 142 visits; not reproduced quiet, nor in 40 loaded visits
    since): a "did not close again" report now carries the sidebar's own state."""
    from playwright.sync_api import Error
    try:
        page.wait_for_function(f"([kind, shown]) => ({PANEL_JS})(kind).open === shown", arg=[kind, shown],
                               timeout=timeout, polling=50)
    except Error:
        pass  # the caller reports the state it finds


def navigation_problems(page, page_name: str, width_name: str, mode: str) -> list[dict]:
    """The toggles open and close their panels, search opens, nothing floats over text."""
    problems = []
    if page.evaluate("!!document.getElementById('pst-primary-sidebar')"):
        for kind in ("primary", "secondary"):
            panel = lambda: page.evaluate(PANEL_JS, kind)  # noqa: E731
            toggles = [t for t in page.locator(f".{kind}-toggle").all() if t.is_visible()]
            has_panel = page.evaluate(f"!!document.querySelector('#pst-{kind}-sidebar a[href]')")
            if not has_panel:
                continue
            if not toggles:
                if not panel()["open"]:
                    problems.append({"rule": f"{kind} sidebar", "why": "no toggle and not shown", "mode": mode})
                continue
            before = panel()["open"]
            if not _click(page, toggles[0]):
                problems.append({"rule": f"{kind} toggle", "why": "cannot be clicked", "mode": mode})
                continue
            _wait_panel(page, kind, not before)
            after = panel()
            if after["open"] == before:
                problems.append({"rule": f"{kind} toggle", "why": "a click changed nothing", "mode": mode})
            # close again: the toggle on a wide screen, Escape for the dialog over the page
            if after["dialog"]:
                page.keyboard.press("Escape")
            else:
                _click(page, toggles[0])
            _wait_panel(page, kind, before)
            if panel()["open"] != before:
                problems.append({"rule": f"{kind} toggle", "why": "did not close again", "mode": mode,
                                 "opened": after, "closed with": "Escape" if after["dialog"] else "the toggle",
                                 "panel": panel(), "sidebar": page.evaluate(SIDEBAR_STATE_JS, kind),
                                 "focus": page.evaluate("document.activeElement.outerHTML.slice(0, 80)")})
    # search: exactly one search control in sight, and it opens a search field
    shown = page.evaluate(VISIBLE_BUTTONS_JS, ".search-button__button")
    if shown != 1 and not page_name.endswith("search.html"):
        problems.append({"rule": "search", "why": f"{shown} search boxes in sight", "mode": mode})
    buttons = [b for b in page.locator(".search-button__button").all() if b.is_visible()]
    if buttons:
        clicked = _click(page, buttons[0])
        # on search.html the button focuses the page's own search field
        field = """() => [...document.querySelectorAll('input[name=q]')].some(i =>
            i.getClientRects().length && getComputedStyle(i).visibility === 'visible' &&
            (i.closest('dialog[open]') || document.activeElement === i))"""
        try:
            page.wait_for_function(field, timeout=1000, polling=50)
        except Exception:  # noqa: BLE001 - reported below
            pass
        if not (clicked and page.evaluate(field)):
            problems.append({"rule": "search", "why": "the search button shows no search field", "mode": mode})
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('#pst-search-dialog[open]')", timeout=1000, polling=50)
    _scroll_to_a_readout(page)
    problems += [dict(p, mode=mode) for p in page.evaluate(OVERLAP_JS, CONTENT)]
    page.evaluate("scrollTo(0, 0)")
    return problems


def _in_site(url: str | None, base: str) -> str | None:
    """``url``'s page under the site at ``base`` (a server's address or the folder's file:// URI),
    without its query and fragment: ``book/intro.html``."""
    if not url:
        return url
    bare = urllib.parse.urldefrag(url)[0].split("?")[0]
    return bare.removeprefix(base + "/")


def prev_next_problems(page, base: str, page_name: str) -> list[dict]:
    """The previous and next links lead to the neighbours in reading order; following one
    (the next, or the previous on the last page) arrives there. ``base`` is the site's address
    (served) or its folder's file:// URI."""
    if page_name not in READING_ORDER:
        return []
    i = READING_ORDER.index(page_name)
    want = {"prev": READING_ORDER[i - 1] if i > 0 else None,
            "next": READING_ORDER[i + 1] if i + 1 < len(READING_ORDER) else None}
    links = page.evaluate("""() => ({prev: document.querySelector('a.left-prev')?.href || null,
                                     next: document.querySelector('a.right-next')?.href || null})""")
    problems = []
    for side in ("prev", "next"):
        got = _in_site(links[side], base)
        if got != want[side]:
            problems.append({"rule": f"{side} link", "want": want[side], "got": got})
    side = "next" if want["next"] else "prev"
    if want[side] and links[side]:
        page.locator("a.right-next" if side == "next" else "a.left-prev").first.click()
        # arriving is the check; the next page's own visit checks how it loads
        try:
            page.wait_for_url(f"**/{want[side]}", wait_until="commit", timeout=10_000)
        except Exception:  # noqa: BLE001 - reported below, with where it went
            pass
        arrived = _in_site(page.url, base)
        if arrived != want[side]:
            problems.append({"rule": f"following {side}", "want": want[side], "arrived": arrived})
    return problems


def follows_system_problems(page) -> list[dict]:
    """A reader who never chose a mode sees the system's: the page opened under a dark system
    setting is dark, and turns light when the system does."""
    problems = []
    for mode in ("dark", "light"):
        page.emulate_media(color_scheme=mode)
        try:  # the theme follows on the media query's change event
            page.wait_for_function("(mode) => document.documentElement.dataset.theme === mode", arg=mode,
                                   timeout=2000, polling=50)
        except Exception:  # noqa: BLE001 - reported below
            pass
        theme = page.evaluate("document.documentElement.dataset.theme")
        if theme != mode:
            problems.append({"rule": "follows the system", "system": mode, "page": theme})
    return problems
