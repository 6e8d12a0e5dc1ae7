"""The 50-minute session as slides (present/session-50min.html: attention_book.deck and its deck.js),
in headless Chromium, from disk (file://) as an instructor opens the built instructor's edition.

Every slide is stepped through at the three screens a classroom has (1280 x 720, 1920 x 1080,
1024 x 768): nothing below or beside the edge, no text under 2.5 % of the screen's height, and
each stop slide the explorer at that stop with the readout cut to the numbers the stop talks
about. The presenter view opens in a second window and follows the slides both ways; b blanks
the audience's screen from either window. Screenshots go to _build/screenshots/deck-*.png.
"""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from attention_book import deck
from attention_scaling import lesson
from book_files import SCREENSHOTS

pytestmark = pytest.mark.browser

VIEWPORTS = [(1280, 720), (1920, 1080), (1024, 768)]

# What a slide on the screen shows: everything visible below or beside the edge, every text
# smaller than 2.5 % of the screen's height (an element's own text at its font size; a formula
# at its font size, not its sub- and superscripts; an SVG text at its font size times the SVG's
# scale), and, on a stop slide, the explorer's caption, controls and visible readout rows.
SCREEN = """() => {
  const H = innerHeight, W = innerWidth, out = {below: [], side: [], small: [], clipped: [], smallest: 1e9};
  const slide = document.querySelector('.asb-slide.asb-current');
  const shown = document.querySelector('.asb-player.asb-presenting') || slide;
  const small = (el, px, what) => {
    out.smallest = Math.min(out.smallest, px);
    if (px < 0.025 * H - 0.01) out.small.push(`${what} ${px.toFixed(1)}px: ${(el.textContent || '').trim().slice(0, 40)}`);
  };
  for (const el of shown.querySelectorAll('*')) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.bottom > H + 0.5) out.below.push(`${el.tagName}.${el.getAttribute('class') || ''} ends at ${Math.round(r.bottom)}`);
    if (r.right > W + 0.5 || r.left < -0.5) out.side.push(`${el.tagName}.${el.getAttribute('class') || ''}`);
    if (el.closest('svg')) {
      if (el.tagName === 'text' && el.textContent.trim()) {
        // cut off at the edge of an SVG that clips (one that draws past its edge is held to the screen's)
        const svg = el.ownerSVGElement, clips = getComputedStyle(svg).overflow !== 'visible';
        const m = el.getScreenCTM(), box = clips ? svg.getBoundingClientRect() : {left: -1e9, right: 1e9, top: -1e9, bottom: 1e9};
        small(el, parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b), 'svg text');
        if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
          out.clipped.push(el.textContent.trim().slice(0, 30));
      }
      continue;
    }
    if (el.tagName === 'MJX-CONTAINER') { small(el, parseFloat(getComputedStyle(el).fontSize), 'formula'); continue; }
    if (el.closest('mjx-container')) continue;
    if ([...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
      small(el, parseFloat(getComputedStyle(el).fontSize), el.tagName);
  }
  const player = document.querySelector('.asb-player.asb-presenting');
  if (player) {
    const data = JSON.parse(player.querySelector('script.asb-data').textContent);
    out.at = data.controls.map(c => c.kind === 'radio'
      ? Number((player.querySelector(`input[name="${c.id}"]:checked`) || {value: -1}).value)
      : Number(document.getElementById(c.id).value));
    out.stops = data.stops.map(s => s.at);
    out.caption = player.querySelector('.asb-stop').textContent;
    out.panels = [...player.querySelectorAll('.asb-panel')].map(p => p.getClientRects().length > 0);
    out.rows = [...player.querySelectorAll('.asb-readout tbody tr')].filter(tr => tr.getClientRects().length)
      .map(tr => tr.querySelector('th').textContent.trim());
  }
  out.images = [...shown.querySelectorAll('img')].filter(i => i.getClientRects().length)
    .map(i => ({src: i.currentSrc, width: i.getBoundingClientRect().width, natural: i.naturalWidth}));
  out.kind = slide.dataset.kind;
  out.hash = location.hash;
  out.covered = [[2, 2], [W - 3, H - 3], [W / 2, H / 2]].every(([x, y]) => {
    const e = document.elementFromPoint(x, y); return !!e && (shown.contains(e) || e === shown); });
  return out;
}"""


def picture_text_px(image: dict) -> float:
    """The smallest text of a picture on the screen, in CSS px: the figure's smallest font (the
    PNG records it, attention_scaling.figures.png_bytes) at its dpi, times the picture's scale."""
    from PIL import Image

    src = image["src"]
    data = base64.b64decode(src.split(",", 1)[1]) if src.startswith("data:") else \
        Path(unquote(urlparse(src).path)).read_bytes()
    info = Image.open(io.BytesIO(data)).info
    assert "asb:min-font-pt" in info and "dpi" in info, f"{src[:60]}: the PNG records no font size"
    return float(info["asb:min-font-pt"]) * float(info["dpi"][0]) / 72 * image["width"] / image["natural"]


def open_deck(browser, site, viewport, fragment="#slide-1"):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / deck.DECK_PATH).as_uri() + fragment, wait_until="load")
    page.wait_for_function("() => document.documentElement.classList.contains('asb-deck-on')", timeout=5000)
    return context, page, errors


def wait_for_slide(page, k):
    page.wait_for_function(f"() => location.hash === '#slide-{k + 1}' && "
                           f"document.querySelector('#slide-{k + 1}').classList.contains('asb-current')", timeout=5000)
    if page.evaluate(f"document.querySelector('#slide-{k + 1}').dataset.kind") == "stop":
        page.wait_for_function("() => !!document.querySelector('.asb-player.asb-presenting')", timeout=5000)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_every_slide_fits_the_screen_in_large_text(browser, site, viewport):
    slides = deck.slides(site)
    context, page, errors = open_deck(browser, site, viewport)
    assert page.evaluate("document.querySelectorAll('.asb-slide').length") == len(slides)
    keys = ["ArrowRight", "PageDown", "Space"]
    smallest = {}
    for k, slide in enumerate(slides):
        if k:
            page.keyboard.press(keys[k % 3])
        wait_for_slide(page, k)
        s = page.evaluate(SCREEN)
        where = f"{viewport[0]}x{viewport[1]}, slide {k + 1} ({slide.kind}: {slide.title})"
        assert s["kind"] == slide.kind and s["covered"], where
        assert s["below"] == [], f"{where}: below the screen: {s['below'][:4]}"
        assert s["side"] == [], f"{where}: beside the screen: {s['side'][:4]}"
        assert s["small"] == [], f"{where}: text under 2.5 % of {viewport[1]} px: {s['small'][:4]}"
        assert s["clipped"] == [], f"{where}: text cut off at its figure's edge: {s['clipped'][:4]}"
        for image in s["images"]:
            px = picture_text_px(image)
            assert px >= 0.025 * viewport[1], f"{where}: the picture's text is {px:.1f} px"
            s["smallest"] = min(s["smallest"], px)
        smallest[k + 1] = round(s["smallest"], 1)
        if slide.kind == "stop":
            stop = lesson.stops(slide.explorer)[slide.stop]
            assert s["at"] == s["stops"][slide.stop], f"{where}: the controls are not at the stop"
            n = len(lesson.stops(slide.explorer))
            assert s["caption"] == f"Stop {slide.stop + 1} of {n}: {stop.caption}", where
            assert s["rows"] and set(s["rows"]) == set(stop.numbers), f"{where}: readout rows {s['rows']}"
            # a wide screen shows every panel; a 4:3 one the stop's panel and its neighbour
            assert s["panels"][stop.panel] and sum(s["panels"]) == (2 if viewport[0] / viewport[1] < 1.5 else 3), \
                f"{where}: panels shown {s['panels']}"
        if k in (0, 4, 15, 16, 19, 24, 28, 35, 40, len(slides) - 1):
            page.screenshot(path=str(SCREENSHOTS / f"deck-{viewport[0]}-{k + 1:02d}.png"))
    page.keyboard.press("ArrowRight")  # the last slide stays
    wait_for_slide(page, len(slides) - 1)
    page.keyboard.press("Home")
    wait_for_slide(page, 0)
    page.keyboard.press("End")
    wait_for_slide(page, len(slides) - 1)
    for _ in range(len(slides) - 1):  # and back, one slide a press, to the first
        page.keyboard.press("ArrowLeft")
    wait_for_slide(page, 0)
    context.close()
    assert errors == []
    (SCREENSHOTS / f"deck-{viewport[0]}-smallest-text.json").write_text(json.dumps(smallest))


def test_the_presenter_view_follows_the_slides_from_disk(browser, site):
    """P opens the presenter view in a second window (file://, no server): it shows the slide's
    notes, this slide and the next, a clock, the block's time left and its cut cue; a step in
    either window moves both; b in the presenter view blanks the audience's screen, and again
    brings it back; in the audience's window any key brings it back."""
    slides = deck.slides(site)
    context, page, errors = open_deck(browser, site, (1280, 720))
    with context.expect_page() as opened:
        page.keyboard.press("p")
    pv = opened.value
    pv.set_viewport_size({"width": 1280, "height": 800})
    pv.on("pageerror", lambda e: errors.append("presenter: " + str(e)))
    pv.wait_for_load_state("load")
    assert "?presenter" in pv.url and pv.url.startswith("file://")
    where = "() => document.querySelector('.asb-pv-where').textContent"
    pv.wait_for_function(f"() => ({where})().startsWith('Slide 1 of {len(slides)}')", timeout=5000)

    def presenter():
        return pv.evaluate("""() => ({where: document.querySelector('.asb-pv-where').textContent,
            now: document.querySelector('.asb-pv-now .asb-slide-title').textContent,
            next: (document.querySelector('.asb-pv-upcoming .asb-slide-title') || {textContent: ''}).textContent,
            notes: document.querySelector('.asb-pv-notes').textContent,
            block: document.querySelector('.asb-pv-block').textContent,
            cue: document.querySelector('.asb-pv-cue').textContent,
            clock: document.querySelector('.asb-pv-elapsed').textContent})""")

    two = next(k for k, s in enumerate(slides) if s.title == f"The proof, line 2 of {lesson.PROOF_LINES}")
    for _ in range(two):  # the audience's window steps: the presenter's follows
        page.keyboard.press("ArrowRight")
    wait_for_slide(page, two)
    pv.wait_for_function(f"() => ({where})().startsWith('Slide {two + 1} of')", timeout=5000)
    p = presenter()
    derive = lesson.SESSION.block("derive")
    assert p["now"] == slides[two].title and p["next"] == slides[two + 1].title
    # the clock has not started: minute 0, before the block's start, is ahead of the plan
    assert p["block"] == f"{derive.title} ({derive.times}): {derive.start}:00 ahead of the plan " \
                         f"(this block starts at minute {derive.start})", p["block"]
    assert derive.cut.skip in p["cue"] and f"minute {derive.cut.at}" in p["cue"]
    assert f"Line 2 of {lesson.PROOF_LINES}" in p["notes"]
    pv.keyboard.press("ArrowRight")  # the presenter steps: the audience follows
    wait_for_slide(page, two + 1)
    pv.click(".asb-pv-next")
    here = two + 2
    wait_for_slide(page, here)
    assert presenter()["clock"] == "0:00"
    pv.click(".asb-pv-toggle")
    pv.wait_for_function("() => document.querySelector('.asb-pv-elapsed').textContent !== '0:00'", timeout=5000)
    # what reaches the audience's window by postMessage (each message also comes by the channel)
    page.evaluate("() => { window.asbSeen = []; window.addEventListener('message', e => window.asbSeen.push(e.data)); }")
    pv.keyboard.press("b")  # from the presenter's laptop, a black screen on the projector
    page.wait_for_function("() => document.documentElement.classList.contains('asb-deck-blanked')", timeout=5000)
    black = page.evaluate("() => { const e = document.elementFromPoint(640, 360); "
                          "return getComputedStyle(document.documentElement, '::after').backgroundColor; }")
    assert black == "rgb(0, 0, 0)"
    page.screenshot(path=str(SCREENSHOTS / "deck-blank.png"))
    assert "the screen is black" in presenter()["where"]
    pv.keyboard.press("b")
    page.wait_for_function("() => !document.documentElement.classList.contains('asb-deck-blanked')", timeout=5000)
    page.keyboard.press(".")  # the clicker's key, in the audience's window
    page.wait_for_function("() => document.documentElement.classList.contains('asb-deck-blanked')", timeout=5000)
    # a late second copy of the presenter's "screen back" (the machine busy) leaves it black
    replayed = page.evaluate("""() => { const back = window.asbSeen.filter(m => m && m.type === 'at' && !m.blanked).pop();
        if (back) { window.postMessage(back, '*'); } return !!back; }""")
    page.wait_for_timeout(300)
    assert replayed and page.evaluate("() => document.documentElement.classList.contains('asb-deck-blanked')")
    page.keyboard.press("ArrowRight")  # only brings the screen back
    page.wait_for_function("() => !document.documentElement.classList.contains('asb-deck-blanked')", timeout=5000)
    wait_for_slide(page, here)
    clock = presenter()["clock"]
    pv.reload()  # the clock survives a reload of the presenter's window
    pv.wait_for_function(f"() => ({where})().startsWith('Slide {here + 1} of')", timeout=5000)
    pv.wait_for_function("() => document.querySelector('.asb-pv-elapsed').textContent !== '0:00'", timeout=5000)
    assert pv.locator(".asb-pv-toggle").inner_text() == "Pause", clock
    for key in ("1", "2", "Enter"):  # a slide's number and Enter: a jump, in either window
        page.keyboard.press(key)
    wait_for_slide(page, 11)
    pv.wait_for_function(f"() => ({where})().startsWith('Slide 12 of')", timeout=5000)
    pv.select_option(".asb-pv-go", "2")  # the presenter's list of slides
    wait_for_slide(page, 2)
    page.evaluate("location.hash = '#slide-5'")  # the address bar, or the browser's Back
    wait_for_slide(page, 4)
    pv.keyboard.press("End")  # a stop of the explorer on the projector, its caption in the presenter's
    last_stop = max(k for k, s in enumerate(slides) if s.kind == "stop")
    for _ in range(len(slides) - 1 - last_stop):
        pv.keyboard.press("ArrowLeft")
    wait_for_slide(page, last_stop)
    assert "stop" in pv.evaluate("document.querySelector('.asb-pv-now .asb-pv-stop').textContent")
    pv.screenshot(path=str(SCREENSHOTS / "deck-presenter.png"))
    page.screenshot(path=str(SCREENSHOTS / "deck-audience-stop.png"))
    # a presenter's laptop in dark mode: the presenter view turns dark, the projector stays light
    background = "() => getComputedStyle(document.body).backgroundColor"
    assert pv.evaluate(background) == "rgb(255, 255, 255)"
    for window in (pv, page):
        window.emulate_media(color_scheme="dark")
    pv.wait_for_function("() => document.documentElement.dataset.theme === 'dark'", timeout=5000)
    assert pv.evaluate(background) == "rgb(18, 18, 18)"
    assert pv.evaluate("() => getComputedStyle(document.querySelector('.asb-pv-notes')).color") == "rgb(206, 214, 221)"
    assert page.evaluate(background) == "rgb(255, 255, 255)"
    pv.screenshot(path=str(SCREENSHOTS / "deck-presenter-dark.png"))
    pv.emulate_media(color_scheme="light")
    pv.wait_for_function("() => document.documentElement.dataset.theme === 'light'", timeout=5000)
    page.click(".asb-presenting .asb-present-close")  # the explorer's Close: as Escape, one press arms
    assert page.evaluate("document.documentElement.classList.contains('asb-deck-on')")
    assert page.locator(".asb-deck-toast").inner_text().startswith("Press Escape again")
    page.keyboard.press("Escape")  # the second leaves
    page.wait_for_function("() => !document.documentElement.classList.contains('asb-deck-on')", timeout=5000)
    assert page.locator(".asb-deck-head").is_visible() and not page.locator(".asb-presenting").count()
    # the list of slides left on the projector shows no notes (they hold the answers) until asked
    assert page.locator(".asb-notes").first.is_hidden()
    page.check(".asb-deck-show-notes")
    assert page.locator(".asb-notes").first.is_visible()
    context.close()
    assert errors == []


def test_full_screen_from_the_start_button_and_f(browser, site):
    """The start button asks for full screen; F leaves and re-enters it without leaving the slides."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto((site / deck.DECK_PATH).as_uri(), wait_until="load")
    assert page.locator(".asb-deck-head").is_visible(), "without #slide-N the page lists the slides"
    page.click(".asb-deck-start")
    wait_for_slide(page, 0)
    page.wait_for_function("() => document.fullscreenElement === document.documentElement", timeout=5000)
    page.keyboard.press("f")
    page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
    assert page.evaluate("document.documentElement.classList.contains('asb-deck-on')")
    assert page.locator(".asb-deck-toast").is_hidden(), "leaving full screen by F does not arm Escape"
    page.keyboard.press("F")
    page.wait_for_function("() => document.fullscreenElement === document.documentElement", timeout=5000)
    context.close()


@pytest.mark.parametrize("plant, found", [
    # tick labels too large for their panel: cut off at the edge of an SVG that clips
    (".asb-scale-explorer .asb-svg .asb-tick { font-size: 40px !important; }", "clipped"),
    # text too small for the back row
    (".asb-presenting .asb-readout { font-size: 9px !important; }", "small"),
    # a readout that runs below the screen
    (".asb-presenting .asb-readout { padding-bottom: 900px !important; }", "below"),
], ids=["clipped", "small", "below"])
def test_each_rule_reports_a_planted_defect(browser, site, plant, found):
    context, page, _errors = open_deck(browser, site, (1280, 720), "#slide-20")
    wait_for_slide(page, 19)
    assert page.evaluate(SCREEN)[found] == [], "the slide is clean before the plant"
    page.add_style_tag(content=plant)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate(SCREEN)[found], f"a planted defect is not reported as {found}"
    context.close()


def test_a_rehearsal_is_timed_block_by_block_and_saved(browser, site):
    """With the presenter view's clock running, the time each block's slides are on the screen
    adds up to that block; "Save the timings" writes the file attention_scaling.lesson reads.
    (The browser's clock is Playwright's, moved on by whole minutes.)"""
    slides = deck.slides(site)
    first = {}
    for k, s in enumerate(slides):
        first.setdefault(s.block, k)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    context.clock.install()
    page = context.new_page()
    page.goto((site / deck.DECK_PATH).as_uri() + "#slide-1", wait_until="load")
    with context.expect_page() as opened:
        page.keyboard.press("p")
    pv = opened.value
    pv.wait_for_load_state("load")
    pv.click(".asb-pv-toggle")  # start the clock on the title slide
    plan = {"hook": 3, "derive": 10, "curve": 6}  # minutes a rehearsal spends on each
    for slug, minutes in plan.items():
        pv.select_option(".asb-pv-go", str(first[slug]))
        page.wait_for_function(f"() => location.hash === '#slide-{first[slug] + 1}'", timeout=5000)
        context.clock.run_for(minutes * 60_000)
    pv.wait_for_function("() => document.querySelector('.asb-pv-spent').textContent.startsWith('Spent on this block: 6:0')",
                         timeout=5000)
    with pv.expect_download() as saved:
        pv.click(".asb-pv-save")
    data = json.loads(Path(saved.value.path()).read_text(encoding="utf-8"))
    spent = lesson.read_timings(data)
    for slug, minutes in plan.items():
        assert spent[slug] == pytest.approx(minutes, abs=0.05), (slug, spent)
    assert sum(spent.values()) == pytest.approx(sum(plan.values()), abs=0.1)
    assert data["elapsed_minutes"] == pytest.approx(sum(plan.values()), abs=0.1)
    context.close()
