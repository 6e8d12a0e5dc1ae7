"""Presentation mode of the static players (_static/player.js, book.css), in headless Chromium.

A player's Present button (or ``?present`` in the address) makes it a dialog over the whole
screen with large text; the lesson's stops (attention_scaling.lesson, shipped in the player's
JSON data) are stepped through with the keys a presentation clicker sends. One page load per
case; screenshots of each case go to _build/screenshots/present-*.png for review.
"""

from __future__ import annotations

import re

import pytest

from attention_scaling import lesson
from attention_scaling.figures import NormalizationFigure
from checks import wait_for_maths
from book_files import SCREENSHOTS

pytestmark = pytest.mark.browser

# The page that shows each explorer with stops (the first player of each page).
PAGES = {"attention": "book/scale-the-scores.html", "scale": "book/derive-the-softmax-gradient.html",
         "normalization": "book/normalize-beyond-sqrt-dk.html", "context": "book/keep-long-contexts-sharp.html"}

# What a check reads off the open player: its box, the figure's box, the readout's font
# size, the controls' positions, the figure's description and the caption.
STATE = """root => {
    const rect = e => { const r = e.getBoundingClientRect();
                        return {x: r.x, y: r.y, width: r.width, height: r.height}; };
    const data = JSON.parse(root.querySelector('script.asb-data').textContent);
    const at = data.controls.map(c => c.kind === 'radio'
        ? Number((root.querySelector(`input[name="${c.id}"]:checked`) || {value: -1}).value)
        : Number(document.getElementById(c.id).value));
    const w = window.innerWidth, h = window.innerHeight;
    const corners = [[1, 1], [w - 2, 1], [1, h - 2], [w - 2, h - 2], [w / 2, h / 2]];
    return {
        presenting: root.classList.contains('asb-presenting'),
        role: root.getAttribute('role'), modal: root.getAttribute('aria-modal'),
        label: root.getAttribute('aria-label') || '',
        focusInside: root.contains(document.activeElement),
        box: rect(root), figure: rect(root.querySelector('.asb-stack')), viewport: {w, h},
        scroller: rect(root.querySelector('.asb-scroll')),
        lowest: Math.max(...[...root.children].filter(e => e.getClientRects().length)
                                              .map(e => e.getBoundingClientRect().bottom)),
        scrollRoom: root.querySelector('.asb-scroll').scrollWidth - root.querySelector('.asb-scroll').clientWidth,
        readout: rect(root.querySelector('.asb-readout')), bar: rect(root.querySelector('.asb-present-bar')),
        covered: corners.every(([x, y]) => root.contains(document.elementFromPoint(x, y))),
        readoutPx: parseFloat(getComputedStyle(root.querySelector('.asb-readout')).fontSize),
        titlePx: parseFloat(getComputedStyle(root.querySelector('.asb-title')).fontSize),
        at, alt: root.querySelector('.asb-stack').getAttribute('aria-label'),
        caption: root.querySelector('.asb-stop').textContent,
        live: root.querySelector('.asb-stop').getAttribute('aria-live'),
        stops: data.stops,
    };
}"""


def open_page(browser, url, viewport, dark=False, route=None):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if route:
        page.route(*route)
    page.goto(url, wait_until="load")
    wait_for_maths(page)
    if dark:
        page.evaluate("() => { document.documentElement.dataset.theme = 'dark';"
                      " document.documentElement.dataset.mode = 'dark'; }")
    return context, page, errors


def state(page):
    return page.locator(".asb-player").first.evaluate(STATE)


def wait_for_stop(page, k):
    """Wait until stop ``k`` (from 0) is applied: its caption shown and the controls at its
    positions (the module redraws as they move); return the state."""
    try:
        page.wait_for_function(
            """k => { const root = document.querySelector('.asb-player');
                      const data = JSON.parse(root.querySelector('script.asb-data').textContent);
                      const at = data.controls.map(c => c.kind === 'radio'
                          ? Number((root.querySelector(`input[name="${c.id}"]:checked`) || {value: -1}).value)
                          : Number(document.getElementById(c.id).value));
                      return root.querySelector('.asb-stop').textContent.startsWith(`Stop ${k + 1} of`)
                             && JSON.stringify(at) === JSON.stringify(data.stops[k].at); }""", arg=k, timeout=5000)
    except Exception:  # playwright's TimeoutError
        s = state(page)
        pytest.fail(f"stop {k + 1} never showed: the controls are at {s['at']}, the caption is {s['caption']!r}",
                    pytrace=False)
    return state(page)


def settings_in_alt(name, settings):
    """How a frame's alt text (written from the figure's state, its readout's lead) states these settings."""
    from attention_scaling.explorables.text import _subscripts

    if name == "attention":
        return f"at dₖ = {settings['d_k']}, m = {settings['magnitude']:.2f},"
    if name == "scale":
        return f"times a scale s = {settings['scale']:g} "
    if name == "context":
        from attention_scaling.context import NAMES
        return (f"and a needle scored Δ = {settings['gap']:g}; n = {settings['n']} keys, "
                f"{_subscripts(NAMES[settings['method']])}.")
    mode = settings["mode"]
    gain = f", gain g = {settings['gain']:.4g}" if mode == "qk-l2" else ""
    return f"{_subscripts(NormalizationFigure.NAMES[mode])}, at magnitude m = {settings['magnitude']:.4g}{gain}."


def assert_at_stop(s, k, name):
    """Controls, figure and caption all show stop ``k`` of the lesson's stops for ``name``."""
    stops = lesson.stops(name)
    shipped = s["stops"][k]
    assert s["at"] == shipped["at"], (k, s["at"], shipped["at"])
    assert settings_in_alt(name, stops[k].settings) in s["alt"], (k, s["alt"])
    assert s["caption"] == f"Stop {k + 1} of {len(stops)}: {stops[k].caption}"


def readout_on_screen(page, k):
    """Each stop's readout (its length varies) ends on the screen: the figure makes room."""
    try:
        page.wait_for_function("""() => { const r = document.querySelector('.asb-presenting .asb-readout')
                                          .getBoundingClientRect(); return r.bottom <= innerHeight + 0.5; }""",
                               timeout=3000)
    except Exception:
        bottom = page.evaluate("() => document.querySelector('.asb-presenting .asb-readout')"
                               ".getBoundingClientRect().bottom")
        pytest.fail(f"stop {k + 1}: the readout ends at {bottom:.0f} px, below the screen", pytrace=False)


UNITS = """root => [...root.querySelectorAll('.asb-slider')].map(s => {
    const out = s.querySelector('output'), unit = s.querySelector('.asb-unit');
    const o = out.getBoundingClientRect(), u = unit.getBoundingClientRect();
    return {text: out.textContent + '|' + unit.textContent, overflow: out.scrollWidth - out.clientWidth,
            gap: unit.textContent ? u.left - o.right : null};
})"""


def assert_values_sit_by_their_units(page, where):
    """Each slider's value fits its box and sits just before its unit: "65536 keys", "64 dimensions"."""
    for c in page.locator(".asb-player").first.evaluate(UNITS):
        assert c["overflow"] <= 0, f"{where}: the value {c['text']!r} overflows its box by {c['overflow']} px"
        if c["gap"] is not None:
            assert 2 <= c["gap"] <= 12, f"{where}: {c['text']!r}: {c['gap']:.1f} px between value and unit"


def assert_fills_screen(s, large_text):
    vw, vh = s["viewport"]["w"], s["viewport"]["h"]
    assert s["presenting"] and s["covered"]
    assert (s["box"]["x"], s["box"]["y"], s["box"]["width"], s["box"]["height"]) == (0, 0, vw, vh)
    fig = s["figure"]
    # the caption, the figure and the readout are all on the screen (a clicker cannot scroll),
    # the figure as large as the room they leave
    out = s["readout"]["y"] + s["readout"]["height"]
    assert out <= vh + 0.5 and s["bar"]["y"] >= 0, f"the readout ends at {out:.0f} px, below the {vh} px screen"
    assert s["lowest"] <= vh + 0.5, f"the player's last line (title, key hints) ends at {s['lowest']:.0f} px, below {vh}"
    assert fig["width"] >= 0.85 * vw or fig["height"] >= 0.45 * vh, (fig, vw, vh)
    box = s["scroller"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= vw + 0.5, "the figure's box sticks out at the side"
    assert fig["x"] >= 0 and fig["x"] + fig["width"] <= vw + 0.5, "the figure is cut off at the side"
    assert s["scrollRoom"] <= 0, "the figure scrolls sideways"
    if large_text:
        assert s["readoutPx"] >= 24 and s["titlePx"] >= 24, (s["readoutPx"], s["titlePx"])
    assert s["role"] == "dialog" and s["modal"] == "true" and s["label"] and s["live"] == "polite"


# (Each explorer computes in the page: test_*_in_the_page.py present each at its stops; these cases
# check what player.js gives every explorer, on the normalisation explorer's page.)
CASES = [("normalization", (1280, 720)), ("normalization", (390, 844))]


@pytest.mark.parametrize("name, viewport", CASES, ids=[f"{n}-{w}" for n, (w, _) in CASES])
def test_present_button_fills_the_screen_and_steps_through_the_stops(browser, server, name, viewport):
    context, page, errors = open_page(browser, f"{server}/{PAGES[name]}", viewport)
    button = page.locator(".asb-player .asb-present-open").first
    button.scroll_into_view_if_needed()
    scrolled = page.evaluate("() => window.scrollY")
    assert scrolled > 0 and button.is_visible()
    assert_values_sit_by_their_units(page, "on the page")
    own = state(page)["at"]  # the reader's settings before presenting
    page.emulate_media(media="print")  # nothing dead is printed
    assert not button.is_visible()
    page.emulate_media(media="screen")
    button.click()
    s = wait_for_stop(page, 0)
    assert s["focusInside"], "focus moves into the dialog"
    assert_fills_screen(s, large_text=viewport[0] >= 1280)
    assert_at_stop(s, 0, name)
    assert page.locator(".asb-presenting .asb-keys").is_visible(), "with a mouse and keys, the key hints show"
    page.screenshot(path=str(SCREENSHOTS / f"present-{name}-{viewport[0]}.png"))
    for k, key in enumerate(["PageDown", "ArrowRight", "Space"], 1):
        page.keyboard.press(key)
        assert_at_stop(wait_for_stop(page, k), k, name)
        readout_on_screen(page, k)
        assert_values_sit_by_their_units(page, f"presenting, stop {k + 1}")
    page.keyboard.press("PageUp")
    assert_at_stop(wait_for_stop(page, 2), 2, name)
    for _ in range(8):  # Tab and Shift+Tab stay inside the dialog
        page.keyboard.press("Tab")
        assert state(page)["focusInside"]
    page.keyboard.press("Shift+Tab")
    assert state(page)["focusInside"]
    page.keyboard.press("Escape")  # a stray Escape does not end the lesson: the second one does
    assert state(page)["presenting"]
    assert page.locator(".asb-presenting .asb-stop").inner_text().startswith("Press Escape again to leave")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.asb-presenting')", timeout=5000)
    back = page.evaluate("""() => ({focus: document.activeElement.className, y: window.scrollY,
                                    role: document.querySelector('.asb-player').getAttribute('role'),
                                    inPage: !!document.querySelector('.bd-content .asb-player')})""")
    assert back["focus"] == "asb-present-open" and back["role"] == "group" and back["inPage"]
    assert abs(back["y"] - scrolled) <= 2, "the page is back where it was"
    assert state(page)["at"] == own, "leaving gives the reader's own settings back"
    context.close()
    assert errors == []


OVERLAPS = """root => {
    const boxes = [...root.querySelectorAll('.asb-readout table.asb-rt')].map(t => t.getBoundingClientRect());
    const out = [];
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push([i]);
    }));
    const cells = [...root.querySelectorAll('.asb-readout td, .asb-readout th')]
        .filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent);
    return {tables: boxes.length, overlaps: out.length, clipped: cells};
}"""


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 720)], ids=["390", "1280"])
def test_back_and_next_buttons_step_on_a_touch_screen(browser, server, viewport):
    """A tablet or phone sends no keys: the bar's Next and Back buttons step through the stops
    (Back is disabled at the first stop, Next at the last), their labels name the keys, the
    readout's tables do not overlap, and Close gives the reader's own settings back."""
    name = "normalization"
    phone = viewport[0] < 700
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, has_touch=True,
                                  is_mobile=phone)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/{PAGES[name]}", wait_until="load")
    wait_for_maths(page)
    own = state(page)["at"]
    page.locator(".asb-player .asb-present-open").first.tap()
    s = wait_for_stop(page, 0)
    assert_fills_screen(s, large_text=viewport[0] >= 1280)
    # the key hints ("Next: → PageDown Space") only where a keyboard may be: not on a screen
    # that is touch alone (a phone; headless Chromium's touch emulation at 1280 counts as one too)
    touch_only = page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
    assert touch_only or not phone
    assert page.locator(".asb-presenting .asb-keys").is_visible() == (not touch_only)
    bar = page.locator(".asb-presenting .asb-present-bar")
    back, next_ = bar.locator(".asb-present-back"), bar.locator(".asb-present-next")
    for b in (back, next_, bar.locator(".asb-present-close")):
        box = b.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= viewport[1] and box["height"] >= 30, box
    assert back.is_disabled() and next_.is_enabled()
    assert "←" in back.inner_text() and "→" in next_.inner_text() and "Esc" in bar.inner_text()
    n = len(lesson.stops(name))
    for k in range(1, n):
        next_.tap()
        assert_at_stop(wait_for_stop(page, k), k, name)
        readout_on_screen(page, k)
        tables = page.locator(".asb-player").first.evaluate(OVERLAPS)
        assert tables["tables"] >= 1 and tables["overlaps"] == 0, (k, tables)
        assert tables["clipped"] == [], (k, tables)
    assert next_.is_disabled() and back.is_enabled()
    page.screenshot(path=str(SCREENSHOTS / f"present-touch-{viewport[0]}.png"))
    back.tap()
    assert_at_stop(wait_for_stop(page, n - 2), n - 2, name)
    bar.locator(".asb-present-close").tap()
    page.wait_for_function("() => !document.querySelector('.asb-presenting')", timeout=5000)
    assert state(page)["at"] == own
    context.close()
    assert errors == []


def test_present_in_the_address_opens_it_from_disk_and_close_button_leaves(browser, site):
    name = "normalization"
    context, page, errors = open_page(browser, (site / PAGES[name]).as_uri() + "?present", (1280, 720))
    s = wait_for_stop(page, 0)
    assert_fills_screen(s, large_text=True)
    assert_at_stop(s, 0, name)
    page.locator(".asb-presenting .asb-present-close").click()
    assert not state(page)["presenting"]
    assert page.evaluate("() => document.activeElement.className") == "asb-present-open"
    context.close()
    assert errors == []


def test_present_button_is_not_shown_without_javascript(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((site / PAGES["scale"]).as_uri())
    assert page.locator(".asb-present-open").count() == 1
    assert not page.locator(".asb-present-open").is_visible()
    assert not page.locator(".asb-present-bar").is_visible()
    context.close()


def test_a_stop_where_the_class_predicts_asks_and_does_not_answer():
    """The worksheet asks its first row at the main explorer's first stop, and the plan asks
    the class to predict at the scale explorer's first stop: on the projector these captions
    ask ("Predict: ..."), like a worksheet, and give no answer away."""
    from attention_scaling.worksheets import PREDICTION_STEPS

    first = lesson.stops("attention")[0]
    assert f"dₖ = {first.settings['d_k']}, m = {first.settings['magnitude']:g}" == PREDICTION_STEPS[0].settings
    for name in ("attention", "scale"):
        caption = lesson.stops(name)[0].caption
        assert caption.startswith("Predict:") and caption.endswith("?"), caption
        assert not re.search(r"\b(agree|same|changes nothing|differ:|saturate|pile)\b", caption), caption


def test_a_caption_about_one_draw_says_so():
    """The readout under a stop gives this draw and the mean over many; a caption that states
    a peak or saturation holds for this draw only, and says so."""
    for name in lesson.EXPLORERS:
        for stop in lesson.stops(name):
            if re.search(r"\b(peaks?|pile|saturate)\b", stop.caption) and name != "normalization":
                assert "in this draw" in stop.caption.lower() or stop.caption.startswith("Both have faded"), \
                    (name, stop.caption)


def test_present_keys_jump_blank_the_screen_and_toggle_full_screen(browser, site):
    """From disk, at 1280 x 720: Home and End go to the first and last stop; B or . (a clicker's
    black-screen key) blanks the screen, and the next key only brings it back; F leaves and
    re-enters full screen without leaving Present; one Escape arms, and after four seconds
    disarms; two leave."""
    name = "normalization"
    n = len(lesson.stops(name))
    context, page, errors = open_page(browser, (site / PAGES[name]).as_uri(), (1280, 720))
    page.locator(".asb-player .asb-present-open").first.click()
    wait_for_stop(page, 0)
    page.keyboard.press("End")
    assert_at_stop(wait_for_stop(page, n - 1), n - 1, name)
    page.keyboard.press("Home")
    assert_at_stop(wait_for_stop(page, 0), 0, name)
    root = page.locator(".asb-presenting")
    look = """root => ({blanked: root.classList.contains('asb-blanked'), bg: getComputedStyle(root).backgroundColor,
                       shown: [...root.children].filter(e => getComputedStyle(e).visibility !== 'hidden').length})"""
    for key in ("b", "."):
        page.keyboard.press(key)
        blank = root.evaluate(look)
        assert blank == {"blanked": True, "bg": "rgb(0, 0, 0)", "shown": 0}, (key, blank)
        page.screenshot(path=str(SCREENSHOTS / "present-blank.png"))
        page.keyboard.press("ArrowRight")  # brings the screen back, and does not step
        back = root.evaluate(look)
        assert not back["blanked"] and back["shown"] > 0 and back["bg"] != "rgb(0, 0, 0)"
        assert_at_stop(wait_for_stop(page, 0), 0, name)
    full = "() => document.fullscreenElement === document.querySelector('.asb-presenting')"
    page.wait_for_function(full, timeout=5000)  # the Present button asked for full screen
    page.keyboard.press("f")
    page.wait_for_function("() => !document.fullscreenElement", timeout=5000)
    assert state(page)["presenting"]
    assert page.locator(".asb-presenting .asb-stop").inner_text().startswith("Stop 1 of")  # not armed
    page.keyboard.press("F")
    page.wait_for_function(full, timeout=5000)
    page.keyboard.press("Escape")
    caption = page.locator(".asb-presenting .asb-stop")
    assert caption.inner_text().startswith("Press Escape again")
    page.wait_for_function("() => document.querySelector('.asb-presenting .asb-stop').textContent.startsWith('Stop 1')",
                           timeout=6000)  # disarmed after four seconds
    page.keyboard.press("Escape")
    assert state(page)["presenting"]
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.asb-presenting')", timeout=5000)
    context.close()
    assert errors == []
