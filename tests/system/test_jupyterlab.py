"""The chapters and labs as students run them: a real JupyterLab server, driven in headless
Chromium.

One server (tests/lab_server.py) serves the repository root; one browser tab runs
JupyterLab as a student's does: the first page opens by the URL path its launch button uses
(Binder's ``urlpath``), every later one in the same app, as its file browser opens a file
(each launch path is checked to be a file of the repository). Each page runs all cells from
the Run menu and waits for the kernel. Each page is opened once: :func:`visit` records
everything the checks need (outputs, rendered markdown, the explorers' controls, the
module's drawing and readout before and after a key press, a mouse drag and a radio click), then shuts
its kernel down (the notebook closes, unsaved, when the next one opens). The tests below assert
on that record.

Checks: no error output, no raw MyST in rendered markdown, the widgets render; moving each
slider by keyboard (ArrowRight on its handle) and by mouse (dragging its handle) changes the
module's drawing and its readout, and so does each radio button, with the kernel asleep too;
the panels sit side by side, nothing over them; each slider's track is at least
250 px wide at a 1280×900 window with JupyterLab's default layout (file browser open); the
figure fits its output area (no horizontal scroll); no control label has doubled
parentheses; the code cells the book hides show collapsed. A screenshot of each explorer is
saved under _build/screenshots/.
"""

from __future__ import annotations

import functools
import json
import re
import time

import pytest

from attention_book.chapter_notebooks import launch_path
from book_files import toc_files
from book_files import SCREENSHOTS
from lab_server import KERNEL_IDLE_JS, ROOT, jupyterlab, lab_url, open_and_run_all

pytestmark = pytest.mark.jupyterlab

MIN_TRACK_PX = 250
# What the book's MyST looks like when nothing rendered it.
RAW_MYST = ("{glue", "{numref}", "{prf:", ":::", "```{")
WIDGET_TROUBLE = ("Loading widget...", "Error displaying widget")
CHANGE_TIMEOUT_MS = 20_000
# A live explorer: a box whose view is the page's own module (an anywidget,
# explorables.widget: SVG panels drawn in the page) beside its ipywidgets controls.
EXPLORER = ".jp-Notebook .widget-vbox:has(> .asb-widget)"


def pages() -> list[str]:
    """The JupyterLab URL path of every page a launch button opens, in the book's order: each
    chapter's generated notebook and each lab (attention_book.chapter_notebooks.launch_path)."""
    docnames = [p.relative_to(ROOT).with_suffix("").as_posix() for p in toc_files()]
    return [lab_url(launch_path(d)) for d in docnames]


def _name(urlpath: str) -> str:
    return urlpath.rsplit("/", 1)[-1].removesuffix(".ipynb")


@pytest.fixture(scope="session")
def lab_server():
    with jupyterlab() as server:
        yield server


# --- driving one page -------------------------------------------------------------------

# What the module's view shows: its panels' numbers (data-value) and its readout.
_SHOWN = """const moduleView = b => b.querySelector(':scope > .asb-widget');
    const figureOf = b => moduleView(b) ? moduleView(b).querySelector('.asb-panels') : null;
    const drawn = v => [...v.querySelectorAll('.asb-panels [data-value]')].map(e => e.dataset.value).join(' ');"""

# Everything about the outputs and the explorers, read from the DOM once the cells ran.
_READ = """() => {
    const text = e => (e ? e.textContent : '');
    %s
    const outputs = [...document.querySelectorAll('.jp-Notebook .jp-OutputArea-output')];
    const errors = [];
    for (const o of outputs) {
        const t = text(o);
        if (o.dataset.mimeType === 'application/vnd.jupyter.stderr') errors.push(t.slice(0, 1500));
        else if (o.querySelector('.jp-RenderedText')
                 && /Traceback \\(most recent call last\\)|^\\s*\\w*(Error|Exception):/m.test(t))
            errors.push(t.slice(0, 1500));
    }
    const markdown = [...document.querySelectorAll('.jp-Notebook .jp-MarkdownOutput')].map(text);
    const explorers = [...document.querySelectorAll(%s)]
        .map(b => {
            const area = b.closest('.jp-OutputArea-output');
            const stack = figureOf(b);
            const rect = e => { const r = e.getBoundingClientRect();
                                return [r.left, r.top, r.width, r.height]; };
            return {
                module: Boolean(moduleView(b)),
                panels: moduleView(b) ? [...stack.querySelectorAll('.asb-panel')].map(rect) : [],
                labels: [...b.querySelectorAll('.widget-label, .widget-htmlmath, .widget-radio-box label')]
                    .map(text).filter(t => t.trim()),
                sliders: [...b.querySelectorAll('.widget-slider')].map(s => ({
                    label: text(s.querySelector('.widget-label')).trim(),
                    track: (s.querySelector('.noUi-target') || s.querySelector('.slider-container'))
                        .getBoundingClientRect().width,
                })),
                radios: [...b.querySelectorAll('.widget-radio-box input[type=radio]')].length,
                imgRight: stack.getBoundingClientRect().right,
                imgWidth: stack.getBoundingClientRect().width,
                areaRight: area.getBoundingClientRect().right,
                areaScroll: area.scrollWidth - area.clientWidth,
                boxScroll: b.scrollWidth - b.clientWidth,
            };
        });
    return {
        errors, markdown, explorers,
        widgets: document.querySelectorAll('.jp-Notebook .jupyter-widgets').length,
        // cells whose input JupyterLab shows collapsed (metadata.jupyter.source_hidden)
        hiddenInputs: document.querySelectorAll('.jp-Notebook .jp-InputPlaceholder').length,
        trouble: outputs.map(text).filter(t => %s.some(w => t.includes(w))).map(t => t.slice(0, 300)),
    };
}""" % (_SHOWN, json.dumps(EXPLORER), json.dumps(list(WIDGET_TROUBLE)))

# The frame (the values explorer i's SVG drew) and its readout.
_STATE = """i => {
    %s
    const b = document.querySelectorAll(%s)[i];
    return [drawn(moduleView(b)), moduleView(b).querySelector('.asb-readout').textContent];
}""" % (_SHOWN, json.dumps(EXPLORER))
# Whether the page shows explorer i's panels at their middle (they must be in view): nothing over them.
_LAYER_ON_TOP = """i => {
    %s
    const b = document.querySelectorAll(%s)[i];
    const r = figureOf(b).getBoundingClientRect();
    return figureOf(b).contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
}""" % (_SHOWN, json.dumps(EXPLORER))
# Waits until explorer i has shown the same frame for 0.2 s (a drag sends many; the module
# repaints in the page, within a frame of each).
_SETTLE = """async i => {
    const get = %s;
    let last = get(i)[0], stable = 0;
    const start = performance.now();
    while (performance.now() - start < 15000) {
        await new Promise(r => setTimeout(r, 50));
        const now = get(i)[0];
        if (now === last) { if (++stable >= 4) return true; } else { stable = 0; last = now; }
    }
    return false;
}""" % _STATE


def _explorer(page, i):
    return page.locator(EXPLORER).nth(i)


def _changes(page, i, act) -> dict:
    """Whether ``act()`` gives explorer ``i`` a new frame, and a new readout, once it settles."""
    page.evaluate(_SETTLE, i)
    before = page.evaluate(_STATE, i)
    act()
    try:
        page.wait_for_function(f"([i, before]) => ({_STATE})(i)[0] !== before[0]", arg=[i, before],
                               timeout=CHANGE_TIMEOUT_MS)
    except Exception:  # playwright's TimeoutError: the frame never changed
        return {"frame": False, "readout": False}
    page.evaluate(_SETTLE, i)
    after = page.evaluate(_STATE, i)
    return {"frame": after[0] != before[0], "readout": after[1] != before[1]}


def _drag(page, handle, dx: float):
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx / 2, y, steps=4)
    page.mouse.move(x + dx, y, steps=4)
    page.mouse.up()


# The notebook's kernel, asked to sleep: the page's module must repaint meanwhile.
_SLEEP_JS = """seconds => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    window.asbSleeping = kernel.requestExecute({code: `import time; time.sleep(${seconds})`, silent: true,
                                               store_history: false}).done;
}"""
_KERNEL_BUSY_JS = "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'busy'"
# The sleep's end: the kernel interrupted (its KeyboardInterrupt goes to this silent request
# alone, not to a cell), and the request's reply awaited whatever its status.
_INTERRUPT_JS = """async () => {
    await window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.interrupt();
    await window.asbSleeping.then(() => null, () => null);
}"""


def _step_while_the_kernel_sleeps(page, i) -> dict:
    """Put explorer ``i``'s kernel to sleep for 60 s, press ArrowRight on its first slider and
    record whether the view and readout changed within 3 s, and whether the kernel was still busy
    then: a module's view repaints in the page, with no kernel round trip. Then the sleep is
    interrupted (as the toolbar's stop button does), not waited out."""
    handle = _explorer(page, i).locator(".widget-slider").first.locator(".noUi-handle")
    handle.focus()
    page.wait_for_function(KERNEL_IDLE_JS)
    before = page.evaluate(_STATE, i)
    page.evaluate(_SLEEP_JS, 60)
    page.wait_for_function(_KERNEL_BUSY_JS, timeout=5_000)
    page.keyboard.press("ArrowRight")
    try:
        page.wait_for_function(f"([i, before]) => ({_STATE})(i)[0] !== before[0]", arg=[i, before], timeout=3_000)
    except Exception:  # playwright's TimeoutError: it waited for the kernel, or never changed
        pass
    after = page.evaluate(_STATE, i)
    busy = page.evaluate(_KERNEL_BUSY_JS)
    page.evaluate(_INTERRUPT_JS)
    page.wait_for_function(KERNEL_IDLE_JS, timeout=20_000)
    return {"frame": after[0] != before[0], "readout": after[1] != before[1], "kernel_busy": busy}


class LabTab:
    """One browser tab running JupyterLab for the whole session, as a student's: the first page
    opens by its launch URL (a new JupyterLab), every later one in the same app as its file
    browser opens a file (lab_server.OPEN_IN_APP_JS), the page before it closed and its kernel
    shut down. After a visit that failed, the next page opens a fresh tab by its URL."""

    def __init__(self, context, server):
        self.context, self.server = context, server
        self.page = None
        self.console: list[str] = []  # the uncaught errors of the page being visited

    def open(self, urlpath: str) -> dict:
        in_app = self.page is not None
        if not in_app:
            self.page = self.context.new_page()
            self.page.on("pageerror", lambda e: self.console.append(f"uncaught: {e}"))
        times = open_and_run_all(self.page, self.server, urlpath, in_app=in_app)
        return times | {"opened": "in the app" if in_app else "by its URL"}

    def done(self, ok: bool) -> None:
        """Shut every kernel down; after a failure, close the tab (the next page starts anew)."""
        if not ok and self.page is not None:
            self.page.close()  # no beforeunload: the notebook is never saved
            self.page = None
        for kernel in self.server.api("kernels"):
            self.server.api(f"kernels/{kernel['id']}", method="DELETE")
        if self.page is None:
            self.server.forget_workspaces()

    def close(self) -> None:
        if self.page is not None:
            self.page.close()
            self.page = None


def visit(tab: LabTab, urlpath: str) -> dict:
    """Open ``urlpath`` in ``tab``, run all cells, read the outputs and move every control once."""
    record = {"console": [], "times": {}}
    tab.console = record["console"]
    ok = False
    try:
        record["times"] |= tab.open(urlpath)
        page = tab.page
        page.wait_for_timeout(300)  # let the last widgets render
        record |= page.evaluate(_READ)
        start = time.monotonic()
        for i, explorer in enumerate(record["explorers"]):
            box = _explorer(page, i)
            box.scroll_into_view_if_needed()
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            box.screenshot(path=str(SCREENSHOTS / f"jupyterlab-{_name(urlpath)}-{i}.png"))
            assert explorer["module"], f"{urlpath}: explorer {i} is not its module's view"
            box.locator(".asb-widget").scroll_into_view_if_needed()
            explorer["layerOnTop"] = page.evaluate(_LAYER_ON_TOP, i)
            explorer["asleep"] = _step_while_the_kernel_sleeps(page, i)
            for j, slider in enumerate(explorer["sliders"]):
                handle = box.locator(".widget-slider").nth(j).locator(".noUi-handle")
                slider["keyboard"] = _changes(page, i, lambda: (handle.focus(), page.keyboard.press("ArrowRight")))
                slider["mouse"] = _changes(page, i, lambda: _drag(page, handle, -60))
            explorer["radio_changes"] = []
            for j in range(explorer["radios"]):
                radio = box.locator(".widget-radio-box input[type=radio]").nth(j)
                if radio.is_checked():
                    continue
                explorer["radio_changes"].append(_changes(page, i, radio.click))
        record["times"]["controls"] = time.monotonic() - start
        ok = True
    finally:
        tab.done(ok)
    return record


@pytest.fixture(scope="session")
def visited(browser, lab_server):
    """Each page's record, made on first use (every page opened once per session)."""
    cache = {}
    # One browser profile and one tab for every page, as one student's JupyterLab: the first
    # page opens by its launch URL, the others in the same app (LabTab).
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = LabTab(context, lab_server)

    def get(urlpath):
        if urlpath not in cache:
            try:
                cache[urlpath] = visit(tab, urlpath)
            except Exception as exc:  # a page that would not open fails each of its tests
                cache[urlpath] = exc
        if isinstance(cache[urlpath], Exception):
            pytest.fail(f"{urlpath}: {cache[urlpath]}\n--- server log ---\n{lab_server.log_text()[-2000:]}",
                        pytrace=False)
        return cache[urlpath]

    get.records = cache
    yield get
    tab.close()
    context.close()


def _explores(urlpath: str) -> bool:
    """Whether the page's code makes an explorer (then it must render live); prose that names
    ``attention_explorer()`` does not count."""
    import nbformat

    nb = nbformat.read(ROOT / urlpath.removeprefix("lab/tree/"), as_version=4)
    return any("_explorer(" in c.source for c in nb.cells if c.cell_type == "code")


# --- the checks -------------------------------------------------------------------------

def _has_choices(urlpath: str) -> bool:
    """Whether the page makes an explorer with a choice (radio buttons), by the package's own
    controls: normalization's mode, the context explorer's method."""
    import nbformat

    from attention_scaling import explorables as ex

    makers = [f for f in (ex.attention_explorer, ex.scale_explorer, ex.normalization_explorer, ex.context_explorer)
              if any(c.is_choice for c in f().controls)]
    nb = nbformat.read(ROOT / urlpath.removeprefix("lab/tree/"), as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    return any(f"{f.__name__}(" in code for f in makers)


PAGES = pages()
EXPLORING = [p for p in PAGES if _explores(p)]  # the pages whose explorers are moved below
WITH_CHOICES = [p for p in EXPLORING if _has_choices(p)]


def test_pages_are_the_launch_paths():
    assert PAGES, "no labs found under notebooks/"
    assert EXPLORING and WITH_CHOICES and set(WITH_CHOICES) < set(EXPLORING) < set(PAGES)
    for urlpath in PAGES:
        assert urlpath.startswith("lab/tree/") and (ROOT / urlpath.removeprefix("lab/tree/")).is_file()


def test_a_launch_url_opens_its_notebook(visited):
    """The session's first page opened by its launch URL, in a JupyterLab of its own."""
    visited(PAGES[0])
    opened = {p: r["times"]["opened"] for p, r in visited.records.items() if isinstance(r, dict)}
    assert "by its URL" in opened.values(), opened


@pytest.mark.parametrize("urlpath", PAGES, ids=_name)
def test_runs_without_error(visited, urlpath):
    record = visited(urlpath)
    assert record["errors"] == [], f"{urlpath}: error output:\n" + "\n---\n".join(record["errors"])
    assert record["console"] == [], f"{urlpath}: uncaught errors in the page: {record['console']}"


@pytest.mark.parametrize("urlpath", PAGES, ids=_name)
def test_hidden_cells_stay_collapsed(visited, urlpath):
    """A cell the book removes or hides shows collapsed (its metadata.jupyter.source_hidden)."""
    import nbformat

    nb = nbformat.read(ROOT / urlpath.removeprefix("lab/tree/"), as_version=4)
    hidden = sum(1 for c in nb.cells if c.get("metadata", {}).get("jupyter", {}).get("source_hidden"))
    assert visited(urlpath)["hiddenInputs"] == hidden, f"{urlpath}: {hidden} cells should show collapsed"


@pytest.mark.parametrize("urlpath", PAGES, ids=_name)
def test_no_raw_myst(visited, urlpath):
    record = visited(urlpath)
    raw = sorted({token for cell in record["markdown"] for token in RAW_MYST if token in cell})
    assert raw == [], f"{urlpath}: rendered markdown shows raw MyST {raw}"


@pytest.mark.parametrize("urlpath", PAGES, ids=_name)
def test_widgets_render(visited, urlpath):
    record = visited(urlpath)
    assert record["trouble"] == [], f"{urlpath}: widgets did not render: {record['trouble']}"
    if _explores(urlpath):
        assert record["widgets"] > 0 and record["explorers"], f"{urlpath}: no live explorer on the page"
        for explorer in record["explorers"]:
            assert explorer["sliders"], f"{urlpath}: an explorer without sliders"


def _explorers(visited, urlpath):
    explorers = visited(urlpath)["explorers"]
    assert explorers, f"{urlpath}: no live explorer to check"  # never pass on nothing
    return explorers


def _letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


@functools.cache
def _readout_moves(label: str) -> bool:
    """Whether moving the slider labelled ``label`` away from its default changes the package's
    own readout, the other controls at their defaults (the explorer that has it, found by the
    label's first words: the rendered maths reads differently from the source)."""
    from attention_scaling import explorables as ex
    from attention_scaling.readout import readout_html

    found = set()
    for make in (ex.attention_explorer, ex.scale_explorer, ex.normalization_explorer, ex.context_explorer):
        exp = make()
        for c in (*exp.controls, *exp.live_only):
            if not c.is_choice and _letters(ex.plain_text(c.label))[:10] == _letters(label)[:10]:
                # a live-only control has one grid value: take its live slider's next step
                other = next((x for x in reversed(c.values) if x != c.default), c.default + 1)
                found.add(readout_html(exp.frame(**{c.name: other})[2]) != readout_html(exp.frame()[2]))
    assert len(found) == 1, f"no single explorer control is labelled like {label!r}: {found}"
    return found.pop()


@pytest.mark.parametrize("urlpath", EXPLORING, ids=_name)
def test_keyboard_and_mouse_move_the_frame(visited, urlpath):
    for explorer in _explorers(visited, urlpath):
        for slider in explorer["sliders"]:
            for how, what in (("keyboard", "ArrowRight on"), ("mouse", "dragging")):
                assert slider[how]["frame"], f"{urlpath}: {what} '{slider['label']}' left the frame as it was"
                # the readout moves exactly when the package's readout moves with that control at the
                # defaults (QK-norm's gain moves its curve, not the scaled weights the readout shows)
                moves = _readout_moves(slider["label"])
                assert slider[how]["readout"] == moves, (
                    f"{urlpath}: {what} '{slider['label']}' {'left' if moves else 'changed'} the readout")


@pytest.mark.parametrize("urlpath", WITH_CHOICES, ids=_name)
def test_radio_buttons_change_the_frame(visited, urlpath):
    explorers = _explorers(visited, urlpath)
    assert any(e["radios"] for e in explorers), f"{urlpath}: its explorer has a choice, but no radio buttons showed"
    for explorer in explorers:
        assert len(explorer["radio_changes"]) == max(explorer["radios"] - 1, 0)
        for change in explorer["radio_changes"]:
            assert change["frame"] and change["readout"], f"{urlpath}: a radio button left the frame as it was"


@pytest.mark.parametrize("urlpath", EXPLORING, ids=_name)
def test_layout_gives_room(visited, urlpath):
    for explorer in _explorers(visited, urlpath):
        for slider in explorer["sliders"]:
            assert slider["track"] >= MIN_TRACK_PX, (
                f"{urlpath}: the track of '{slider['label']}' is {slider['track']:.0f} px, under {MIN_TRACK_PX}")
        assert explorer["imgWidth"] > 0, f"{urlpath}: the figure has no width"
        panels = explorer["panels"]  # SVG panels (two or three) side by side in the notebook's width
        assert len(panels) >= 2 and len({round(p[1]) for p in panels}) == 1, (urlpath, panels)
        assert all(p[2] > 150 and p[3] > 100 for p in panels), (urlpath, panels)
        assert explorer["layerOnTop"], f"{urlpath}: something covers the explorer's panels"
        assert explorer["imgRight"] <= explorer["areaRight"] + 0.5, f"{urlpath}: the figure is wider than its output"
        assert explorer["areaScroll"] <= 0 and explorer["boxScroll"] <= 0, f"{urlpath}: the explorer scrolls sideways"


DOUBLED = re.compile(r"\(\s*\(|\)\s*\)")


@pytest.mark.parametrize("urlpath", EXPLORING, ids=_name)
def test_labels_read_well(visited, urlpath):
    for explorer in _explorers(visited, urlpath):
        assert explorer["labels"], f"{urlpath}: an explorer without labels"
        doubled = [label for label in explorer["labels"] if DOUBLED.search(label)]
        assert doubled == [], f"{urlpath}: doubled parentheses in {doubled}"


def test_the_explorer_pages_are_found():
    names = {_name(p) for p in EXPLORING}
    assert {"derive-the-softmax-gradient", "keep-long-contexts-sharp", "lab-find-the-needle"} <= names


@pytest.mark.parametrize("urlpath", EXPLORING, ids=_name)
def test_a_module_repaints_while_the_kernel_sleeps(visited, urlpath):
    """An explorer's view is the page's module (an anywidget), its controls ipywidgets linked to
    it in the page: with the kernel asleep, a key press still redraws the panels and the readout
    at once."""
    modules = [e for e in _explorers(visited, urlpath) if e["module"]]
    assert modules, f"{urlpath}: no explorer computes in the page"
    for explorer in modules:
        step = explorer["asleep"]
        assert step["kernel_busy"], f"{urlpath}: the kernel was not asleep during the step: {step}"
        assert step["frame"] and step["readout"], f"{urlpath}: the view waited for the kernel: {step}"
