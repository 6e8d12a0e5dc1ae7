"""Benchmarks (issue 30): what a reader feels, measured end to end, where the reader feels it.

Run with `make bench`. Prints a table, then one JSON object as the last line. Speed is
measured here and only here: the test suite asserts behaviour, never timings.

* **JupyterLab, key press → painted** (``lab_*``): a real JupyterLab (tests/lab_server.py) on a
  scratch notebook with three explorers of the same figure: the book's attention explorer (its
  ES module as an anywidget, the controls ipywidgets linked to it in the page), the **frame path**
  as the live widget drew every control but the cached one before issue 30 (the kernel updates
  the package's matplotlib figure and sends a PNG to an ``ipywidgets.Image``: :func:`frame_widget`),
  and a classic ``interact`` that draws a new pyplot figure per change (:func:`naive_figure`).
  Each round presses an arrow key once on every control of the module (d_k, magnitude, number
  of keys) and on the magnitude and d_k of the two baselines, in random order, and times the
  key's event to the frame after the change was painted (:data:`PAINT_JS`). Websocket frames
  the page receives per change are counted too: the module's changes need none. The **floor**
  (``lab_floor_slider``) is an ipywidgets IntSlider in the same notebook linked to nothing: what
  the slider itself costs from the key to its painted frame, before any explorer work.
* **Static page, input → painted under 4× CPU throttling** (``static_*``): the built "Scale
  the scores" page served from disk, Chromium slowed four times through the DevTools protocol
  (Lighthouse's mobile setting); arrow keys on each range input of the attention explorer, and
  on a range input that only writes its value (``static_floor``: what any change costs there),
  and a click on the d_k slider's track that jumps to a new value (``static_dimension_click``).
* **Build** cold and warm, **page weight** (bytes each page loads until the network is idle,
  served gzip-compressed as a static host serves them: sent and decoded), and **Lighthouse**
  (mobile and desktop presets) over every page.

Every latency is a median and a 95th percentile over rounds interleaved in one session; the
ratios between paths are medians of per-round ratios (the machines are noisy).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the naive baseline uses pyplot on purpose)
import numpy as np  # noqa: E402

from attention_scaling import diagonal_gradient, draw_queries_keys, softmax  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# The tests' browser and JupyterLab helpers (chromium_flags, lab_server), which the timings share.
sys.path.insert(0, str(ROOT / "tests"))
#: The page whose attention explorer the static timing drives.
STATIC_PAGE = "book/scale-the-scores.html"
#: Lighthouse's mobile preset slows the CPU four times; so does the static timing.
THROTTLE = 4


def naive_figure(d_k: int, magnitude: float, n_keys: int, seed: int, n_pairs: int = 2000):
    """A classic `interact` callback's figure: fresh vectors, a new pyplot figure of the same
    three panels (the inline backend shows it, then closes it)."""
    q, k = draw_queries_keys(d_k, magnitude, n_queries=1, n_keys=n_keys, seed=seed)
    z = (q @ k.T)[0]
    p_u, p_s = softmax(z), softmax(z / np.sqrt(d_k))
    a, b = draw_queries_keys(d_k, magnitude, n_queries=n_pairs, n_keys=n_pairs, seed=seed + 1)
    dots = np.abs(np.einsum("ij,ij->i", a, b))
    fig, axes = plt.subplots(1, 3, figsize=(9.6, 3.7))
    x = np.arange(n_keys)
    axes[0].bar(x - 0.2, p_u, 0.4, color="#d62728", label="unscaled")
    axes[0].bar(x + 0.2, p_s, 0.4, color="#1f77b4", label="scaled")
    axes[0].legend()
    grid = np.linspace(0, 1, 201)
    axes[1].plot(grid, diagonal_gradient(grid), color="0.5")
    axes[1].plot(p_u, diagonal_gradient(p_u), "o", color="#d62728")
    axes[1].plot(p_s, diagonal_gradient(p_s), "s", color="#1f77b4")
    bins = np.logspace(-4, 4.5, 52)
    axes[2].hist(np.clip(dots, bins[0], bins[-1]), bins, alpha=0.5, color="#d62728")
    axes[2].hist(np.clip(dots / np.sqrt(d_k), bins[0], bins[-1]), bins, alpha=0.5, color="#1f77b4")
    axes[2].set_xscale("log")
    fig.suptitle(f"d_k = {d_k}, m = {magnitude:.2f}")
    fig.tight_layout()
    return fig


def frame_widget(explorer):
    """The frame path, for comparison: the explorer's ipywidgets controls, and per change the
    kernel updates the package's matplotlib figure and sends its PNG (``BlitFigure.png``) to an
    ``ipywidgets.Image``, with the readout below: what the live widget did for every control but
    the one whose frames it cached, before the module (issue 30)."""
    import html

    import ipywidgets as w

    controls = {c.name: explorer._live_control(c) for c in explorer.controls + explorer.live_only}
    image = w.Image(format="png", layout=w.Layout(width="100%", max_width="1200px", margin="2px 0"))
    readout = w.HTML()

    def redraw(_change=None):
        fig = explorer.figure
        fig.update(**(explorer.defaults() | {name: s.value for name, s in controls.items()}))
        text = explorer.describe(fig.state).text
        image.value = fig.png()
        readout.value = f'<p style="font-size:0.9em" aria-live="polite">{html.escape(text)}</p>'

    for s in controls.values():
        s.observe(redraw, names="value")
    redraw()
    box = w.VBox([w.HTML("<b>The frame path</b>"), *controls.values(), image, readout], layout=w.Layout(width="100%"))
    box.add_class("asb-bench-frames")
    return box


# --- key press → painted --------------------------------------------------------------

#: In the page: ``arm([root, figure])`` starts the measure of the next key press (or click) inside
#: the element ``root``. It notes the keydown (pointerdown) event's time stamp (when the browser took it),
#: the first change inside ``figure`` (the module's SVG; a baseline's image gets a new src or a
#: new element, then is decoded), and the frame after that change was painted: a task posted
#: from the next animation frame runs once that frame has been produced.
PAINT_JS = """([rootSelector, figureSelector]) => {
    const root = document.querySelector(rootSelector);
    const imageOf = () => [...root.querySelectorAll(figureSelector + ' img, img' + figureSelector)]
                          .filter(e => e.checkVisibility()).pop();
    const first = imageOf(), firstSrc = first ? first.src : null;
    const m = window.__lat = {t0: null, changed: null, paint: null};
    for (const kind of ['keydown', 'pointerdown'])
        root.addEventListener(kind, e => { if (m.t0 === null) m.t0 = e.timeStamp; }, {capture: true, once: true});
    const painted = () => requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { m.paint = performance.now(); };
        channel.port2.postMessage(0);
    });
    const obs = new MutationObserver(() => {
        if (m.t0 === null || m.changed !== null) return;
        if (first === undefined && !imageOf()) { m.changed = performance.now(); obs.disconnect(); painted(); return; }
        const img = imageOf();
        if (first !== undefined) {
            if (!img || (img === first && img.src === firstSrc)) return;
            m.changed = performance.now();
            obs.disconnect();
            img.decode().catch(() => null).then(painted);
        } else {
            m.changed = performance.now();
            obs.disconnect();
            painted();
        }
    });
    const figure = root.querySelector(figureSelector) || root;
    obs.observe(figure.parentElement || figure, {subtree: true, childList: true, attributes: true,
                                                 characterData: true});
}"""


def _measure_key(page, root: str, figure: str, key: str, timeout_ms: int = 30_000) -> dict:
    """Press ``key`` (the control has the focus) and return the milliseconds from its keydown to
    the change (``changed``) and to the painted frame (``paint``)."""
    page.evaluate(PAINT_JS, [root, figure])
    page.keyboard.press(key)
    page.wait_for_function("() => window.__lat.paint !== null", timeout=timeout_ms, polling=20)
    m = page.evaluate("() => window.__lat")
    return {"paint": m["paint"] - m["t0"], "changed": m["changed"] - m["t0"]}


def _measure_click(page, root: str, figure: str, slider, fraction: float, timeout_ms: int = 30_000) -> dict:
    """Click the range input ``slider`` at ``fraction`` of its width (its value jumps there) and
    return the milliseconds from the pointerdown to the change and to the painted frame."""
    box = slider.bounding_box()
    page.evaluate(PAINT_JS, [root, figure])
    page.mouse.click(box["x"] + fraction * box["width"], box["y"] + box["height"] / 2)
    page.wait_for_function("() => window.__lat.paint !== null", timeout=timeout_ms, polling=20)
    m = page.evaluate("() => window.__lat")
    return {"paint": m["paint"] - m["t0"], "changed": m["changed"] - m["t0"]}


def _summary(prefix: str, values: list[float]) -> dict:
    return {f"{prefix}_median_ms": float(np.median(values)), f"{prefix}_p95_ms": float(np.percentile(values, 95))}


# The scratch notebook: the book's explorer, the frame path and a classic interact, one a cell.
LAB_CELLS = [
    "import sys\nsys.path.insert(0, {bench!r})\nfrom bench import frame_widget, naive_figure\n\n"
    "%matplotlib inline\nimport ipywidgets as w\nimport matplotlib.pyplot as plt\n"
    "from attention_scaling.explorables import attention_explorer",
    "attention_explorer()",
    "frame_widget(attention_explorer())",
    "def naive(d_k, magnitude):\n    naive_figure(d_k, magnitude, 16, 0)\n    plt.show()\n\n\n"
    "w.interact(naive, d_k=w.IntSlider(value=64, min=1, max=1024, continuous_update=True),\n"
    "           magnitude=w.FloatLogSlider(value=1.0, base=10, min=-1, max=1, step=0.02, continuous_update=True))",
    "w.VBox([w.IntSlider(value=500, min=0, max=1000, description='floor')]).add_class('asb-bench-floor')",
]
#: Each path's box in the notebook and its figure inside it.
LAB_PATHS = {"module": (".jp-Notebook .widget-vbox:has(> .asb-widget)", ".asb-panels"),
             "frames": (".jp-Notebook .asb-bench-frames", ".widget-image"),
             "naive": (".jp-Notebook .widget-interact", ".widget-output"),
             "floor": (".jp-Notebook .asb-bench-floor", ".widget-slider")}
#: What each round presses: (path, slider label).
LAB_CONTROLS = [("module", "key dimension"), ("module", "vector magnitude"), ("module", "number of keys"),
                ("frames", "key dimension"), ("frames", "vector magnitude"),
                ("naive", "d_k"), ("naive", "magnitude"), ("floor", "floor")]


def lab_latency(rounds: int = 30, warmup: int = 3, seed: int = 2026) -> dict:
    """Key press → painted frame in JupyterLab served from this repository, for every control of
    the main explorer and for the two baselines' d_k and magnitude (see the module docstring).

    Rounds are interleaved in random order; ArrowRight on even rounds, ArrowLeft on odd ones, so
    that each control stays near its default. Empty when no Chromium or playwright is available.
    """
    import random
    import tempfile

    from chromium_flags import chromium_executable
    from lab_server import CHROMIUM_ARGS, KERNEL_IDLE_JS, jupyterlab, open_and_run_all

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {}
    exe = find_chromium() or chromium_executable()  # a reader's full browser where there is one
    if exe == "":
        return {}
    scratch = Path(tempfile.mkdtemp(prefix="bench-lab-", dir=ROOT))  # inside the served root
    ms = {c: [] for c in LAB_CONTROLS}
    traffic = {c: [] for c in LAB_CONTROLS}
    try:
        cells = [c.format(bench=str(ROOT / "benchmarks")) for c in LAB_CELLS]
        notebook = {"cells": [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [],
                               "execution_count": None} for c in cells],
                    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                "language": "python"}},
                    "nbformat": 4, "nbformat_minor": 5}
        (scratch / "latency.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
        with jupyterlab(ROOT) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                frames = []
                page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(len(data))))
                open_and_run_all(page, server, f"lab/tree/{scratch.name}/latency.ipynb")
                page.wait_for_timeout(500)
                rng = random.Random(seed)
                for round_ in range(warmup + rounds):
                    order = list(LAB_CONTROLS)
                    rng.shuffle(order)
                    for control in order:
                        path, label = control
                        root, figure = LAB_PATHS[path]
                        handle = page.locator(f"{root} .widget-slider", has_text=label).first.locator(".noUi-handle")
                        handle.scroll_into_view_if_needed()
                        handle.focus()
                        page.wait_for_function(KERNEL_IDLE_JS)
                        page.wait_for_timeout(100)
                        received = len(frames)
                        m = _measure_key(page, root, figure, "ArrowLeft" if round_ % 2 else "ArrowRight")
                        page.wait_for_function(KERNEL_IDLE_JS)
                        page.wait_for_timeout(150)  # late messages of this change count for it
                        if round_ >= warmup:
                            ms[control].append(m["paint"])
                            traffic[control].append((len(frames) - received, sum(frames[received:])))
            finally:
                browser.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    out = {"lab_rounds": rounds}
    for (path, label), values in ms.items():
        out |= _summary(_lab_key(path, label), values)
        out[f"{_lab_key(path, label)}_messages"] = float(np.median([t[0] for t in traffic[(path, label)]]))
        out[f"{_lab_key(path, label)}_bytes"] = float(np.median([t[1] for t in traffic[(path, label)]]))
    for which in ("dimension", "magnitude"):
        module = np.array(ms[next(c for c in LAB_CONTROLS if c[0] == "module" and _lab_key(*c).endswith(which))])
        for base in ("frames", "naive"):
            other = np.array(ms[next(c for c in LAB_CONTROLS if c[0] == base and _lab_key(*c).endswith(which))])
            out[f"lab_{base}_over_module_{which}"] = float(np.median(other / module))
    return out


def _lab_key(path: str, label: str) -> str:
    """``lab_<path>_<control>``: the control as dimension, magnitude or keys."""
    word = {"d_k": "dimension", "dimension": "dimension", "magnitude": "magnitude", "keys": "keys",
            "floor": "slider"}[label.split()[-1]]
    return f"lab_{path}_{word}"


#: The static page's floor: a range input placed just above the explorer whose input handler only
#: writes its value into a span beside it. Its key -> painted is what any change costs on this page
#: (a frame of the page, and the wait for the next frame), with no explorer work at all.
FLOOR_JS = """root => {
    const box = document.createElement('div');
    box.className = 'asb-bench-floor';
    box.innerHTML = '<input type="range" min="0" max="1000" value="0" aria-label="floor">' +
                    '<span class="asb-bench-floor-out">0</span>';
    const explorer = document.querySelector(root);
    explorer.parentNode.insertBefore(box, explorer);
    const out = box.querySelector('span');
    box.querySelector('input').addEventListener('input', e => { out.textContent = e.target.value; });
}"""


def static_latency(rounds: int = 60, throttle: int = THROTTLE, seed: int = 2026) -> dict:
    """Input → painted frame on the built page :data:`STATIC_PAGE`, its attention explorer's two
    range inputs (d_k, magnitude) pressed in turn, with the CPU slowed ``throttle`` times.

    Every press is ArrowRight (ArrowLeft where a click left the thumb at the end), a new value
    nearly always. The page computes the d_k slider's neighbouring values while it is idle
    (attention.js, ``prefetch``), and the presses are 50 ms or more apart, so an arrow key's new
    d_k is ready when it comes: ``static_dimension``. A jump is not: ``static_dimension_click``
    clicks the d_k slider's track at a random point at least a tenth of its width from the
    thumb, a value neither shown nor prepared before. Served gzip-compressed from the built
    site; the first ``rounds // 10`` rounds are warm-up. Empty without the built page,
    playwright or a Chromium."""
    import random

    html_dir = ROOT / "_build" / "html"
    if not (html_dir / STATIC_PAGE).is_file():
        return {}
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {}
    exe = find_chromium()
    if not exe:
        return {}
    from chromium_flags import CHROMIUM_ARGS

    root = ".asb-player.asb-module"
    warmup = max(1, rounds // 10)
    ms: dict[str, list[float]] = {}
    rng = random.Random(seed)
    with GzipServer(html_dir) as origin, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{origin}/{STATIC_PAGE}", wait_until="load")
            page.locator(root).first.scroll_into_view_if_needed()  # it mounts on sight (player.js)
            page.wait_for_selector(f"{root}.asb-ready", timeout=30_000)
            page.evaluate(FLOOR_JS, root)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            inputs = {"dimension": page.locator(f"{root} input[type=range]").nth(0),
                      "magnitude": page.locator(f"{root} input[type=range]").nth(1),
                      "floor": page.locator(".asb-bench-floor input")}
            targets = {"dimension": (root, ".asb-panels"), "magnitude": (root, ".asb-panels"),
                       "floor": (".asb-bench-floor", ".asb-bench-floor-out")}
            inputs["dimension"].scroll_into_view_if_needed()
            slider = inputs["dimension"]
            for round_ in range(warmup + rounds):
                order = [*inputs, "dimension_click"]
                rng.shuffle(order)
                for which in order:
                    if which == "dimension_click":
                        at = float(slider.evaluate("e => e.value / e.max"))
                        fraction = rng.choice([f for f in np.linspace(0.02, 0.98, 97) if abs(f - at) >= 0.1])
                        page.wait_for_timeout(50)
                        m = _measure_click(page, root, ".asb-panels", slider, fraction)
                    else:
                        inputs[which].focus()
                        page.wait_for_timeout(50)
                        # (a click may have left the thumb at the end: then the key goes back)
                        at_end = inputs[which].evaluate("e => Number(e.value) >= Number(e.max)")
                        m = _measure_key(page, *targets[which], "ArrowLeft" if at_end else "ArrowRight")
                    if round_ >= warmup:
                        ms.setdefault(which, []).append(m["paint"])
        finally:
            browser.close()
    out = {"static_rounds": rounds, "static_throttle": throttle}
    for which, values in ms.items():
        out |= _summary(f"static_{which}", values)
    return out


def build_times() -> dict:
    env = dict(os.environ)
    shutil.rmtree(ROOT / "_build", ignore_errors=True)
    cmd = [str(ROOT / "scripts" / "build-book"), sys.executable]
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True)
    warm = time.perf_counter() - start
    return {"build_cold_s": cold, "build_warm_s": warm}


def _pages(html_dir: Path) -> list[Path]:
    """Every page a reader can open (not the landing redirect, not the theme's files)."""
    return sorted(p for p in html_dir.rglob("*.html")
                  if p.relative_to(html_dir).parts[0] not in ("_static", "_sources")
                  and p.relative_to(html_dir).as_posix() != "index.html")


def page_weight_estimate(html_dir: Path) -> dict:
    """Bytes of each page's HTML plus every local asset it links (no browser needed)."""
    import re

    out = {}
    for page in _pages(html_dir):
        text = page.read_text(encoding="utf-8")
        total = len(text.encode())
        for ref in set(re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="([^"#?]+)', text)):
            if ref.startswith(("data:", "http")):
                continue
            target = (page.parent / ref).resolve()
            if target.is_file() and target.suffix in (".js", ".css", ".png", ".svg", ".woff", ".woff2"):
                total += target.stat().st_size
        out[page.relative_to(html_dir).as_posix()] = total
    return out


def page_load_bytes(html_dir: Path) -> dict | None:
    """Bytes Chromium loads for each page until the network is idle, from its own resource
    timing, served gzip-compressed by :class:`GzipServer` as a static host serves them:
    ``{page: {"sent": compressed bytes, "decoded": bytes once decompressed}}``. None without
    playwright or a Chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    exe = find_chromium()
    if not exe:
        return None
    from chromium_flags import CHROMIUM_ARGS

    out = {}
    with GzipServer(html_dir) as origin, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            for page in _pages(html_dir):
                name = page.relative_to(html_dir).as_posix()
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                tab = context.new_page()
                tab.goto(f"{origin}/{name}", wait_until="load")
                tab.wait_for_load_state("networkidle")
                out[name] = tab.evaluate(
                    """() => [performance.getEntriesByType('navigation')[0],
                              ...performance.getEntriesByType('resource')].filter(e => e)
                             .reduce((sum, e) => ({sent: sum.sent + (e.encodedBodySize || 0),
                                                   decoded: sum.decoded + (e.decodedBodySize || 0)}),
                                     {sent: 0, decoded: 0})""")
                context.close()
        finally:
            browser.close()
    return out


def page_weight() -> dict:
    """Per page, the bytes loaded at page load, sent (gzip) and decoded, measured in Chromium
    (:func:`page_load_bytes`; estimated from the HTML's links, decoded, without one), and what
    the explorers' no-script pictures take on disk (loaded only by a reader without scripts)."""
    from attention_book.sphinx_ext import PICTURES_DIR

    html_dir = ROOT / "_build" / "html"
    measured = page_load_bytes(html_dir)
    if measured is None:
        per_page = {name: {"sent": None, "decoded": size} for name, size in page_weight_estimate(html_dir).items()}
    else:
        per_page = measured
    out = {"page_bytes": per_page, "page_bytes_measured_in": "chromium" if measured is not None else "estimate"}
    for which in ("sent", "decoded"):
        if all(v[which] is not None for v in per_page.values()):
            worst = max(per_page, key=lambda n: per_page[n][which])
            out[f"page_max_{which}_bytes"], out[f"page_max_{which}"] = per_page[worst][which], worst
    out["picture_files_bytes"] = sum(f.stat().st_size for f in (html_dir / PICTURES_DIR).glob("*.png"))
    return out


# --- Lighthouse over every page, served gzip-compressed ---------------------------------

#: The npm package and its exact version (installed on demand, like scripts/find-chp).
LIGHTHOUSE_VERSION = "12.8.2"
LIGHTHOUSE_DIR = ROOT / ".venv" / "lighthouse"
LIGHTHOUSE_CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
LIGHTHOUSE_PRESETS = ("mobile", "desktop")
# Served compressed, as a static host (GitHub Pages) serves them.
GZIP_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml",
              "application/xml", "font/ttf", "application/vnd.ms-fontobject")


def gzip_handler(directory: Path):
    """A quiet static-file handler for ``directory`` that gzips text types when the client
    accepts it (HTML, CSS, JavaScript, JSON, SVG); images and woff fonts go as they are."""
    import functools
    import gzip
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send_head(self):
            path = self.translate_path(self.path)
            if os.path.isdir(path):
                index = os.path.join(path, "index.html")
                if not self.path.split("?")[0].endswith("/") or not os.path.isfile(index):
                    return super().send_head()
                path = index
            ctype = self.guess_type(path)
            if ("gzip" not in self.headers.get("Accept-Encoding", "")
                    or not ctype.startswith(GZIP_TYPES) or not os.path.isfile(path)):
                return super().send_head()
            with open(path, "rb") as f:
                body = gzip.compress(f.read(), compresslevel=6, mtime=0)
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return io.BytesIO(body)

    return functools.partial(Handler, directory=str(directory))


class GzipServer:
    """``with GzipServer(html_dir) as origin:`` serves ``html_dir`` on 127.0.0.1 (a threaded
    http.server), gzip-compressing text types; ``origin`` is ``http://127.0.0.1:PORT``."""

    def __init__(self, directory):
        directory = Path(directory)
        if not directory.is_dir():
            raise ValueError(f"directory must be an existing folder, got {directory}")
        self.directory = directory

    def __enter__(self) -> str:
        import http.server
        import threading

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), gzip_handler(self.directory))
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def find_lighthouse() -> str | None:
    """The pinned Lighthouse CLI, installed into .venv/lighthouse with npm on first use."""
    cli = LIGHTHOUSE_DIR / "node_modules" / ".bin" / "lighthouse"

    def version() -> str:
        try:
            return subprocess.run([str(cli), "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
        except OSError:
            return ""

    if cli.exists() and version() == LIGHTHOUSE_VERSION:
        return str(cli)
    if not shutil.which("npm"):
        print("bench: no npm, so no Lighthouse (install Node.js >= 18.16)", file=sys.stderr)
        return None
    print(f"bench: installing lighthouse@{LIGHTHOUSE_VERSION} into {LIGHTHOUSE_DIR} (npm, once)", file=sys.stderr)
    LIGHTHOUSE_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "install", "--prefix", str(LIGHTHOUSE_DIR), "--no-save", "--no-audit", "--no-fund",
                    "--loglevel=error", f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True, stdout=sys.stderr)
    return str(cli) if version() == LIGHTHOUSE_VERSION else None


def find_chromium() -> str | None:
    """The Chromium the benchmarks time: a reader's full browser. $CHROMIUM unless it names
    the headless shell (scripts/find-chromium's first choice, which draws the same pages with
    less work: what the tests want, and what a timing of a reader's browser must not use), then
    the system's full browser, else whatever scripts/find-chromium finds. None when only
    Playwright's own is found."""
    from chromium_flags import FULL_CHROMIUMS

    exe = os.environ.get("CHROMIUM", "").strip()
    if exe and exe != "playwright" and not exe.endswith("headless-shell"):
        return exe
    full = next((c for c in FULL_CHROMIUMS if os.access(c, os.X_OK)), None)
    if full:
        return full
    exe = exe or subprocess.run(
        [str(ROOT / "scripts" / "find-chromium"), sys.executable], capture_output=True, text=True).stdout.strip()
    return exe if exe and exe != "playwright" else None


def lighthouse_summary(report: dict) -> dict:
    """The numbers bench reports from one Lighthouse JSON report: the four category scores
    (0-100), FCP, LCP and TBT in ms, CLS, and the bytes: transferred (compressed) and
    uncompressed (every resource the page loaded, decoded)."""
    if not isinstance(report, dict) or "categories" not in report or "audits" not in report:
        raise ValueError("report must be a Lighthouse JSON report (with categories and audits)")
    audits = report["audits"]
    out = {c: (None if report["categories"][c]["score"] is None else round(100 * report["categories"][c]["score"]))
           for c in LIGHTHOUSE_CATEGORIES}
    for key, audit in (("fcp_ms", "first-contentful-paint"), ("lcp_ms", "largest-contentful-paint"),
                       ("tbt_ms", "total-blocking-time"), ("cls", "cumulative-layout-shift")):
        out[key] = audits[audit].get("numericValue")
    requests = (audits.get("network-requests", {}).get("details") or {}).get("items", [])
    out["bytes_transferred"] = int(audits["total-byte-weight"].get("numericValue") or 0)
    out["bytes"] = int(sum(r.get("resourceSize") or 0 for r in requests))
    out["requests"] = len(requests)
    # what keeps accessibility, best practices or SEO under 100: the audits that fail
    out["failing"] = sorted({ref["id"] for c in LIGHTHOUSE_CATEGORIES[1:] for ref in report["categories"][c]["auditRefs"]
                             if ref.get("weight") and (audits.get(ref["id"], {}).get("score") is not None)
                             and audits[ref["id"]]["score"] < 1})
    if report.get("runtimeError"):
        out["error"] = report["runtimeError"].get("message", "runtime error")
    return out


def _running(pid: int, marker: str) -> bool:
    """Whether process ``pid`` is alive and is ours: ``marker`` (a folder bench made) is in
    its command line or environment (a reused pid is left alone)."""
    try:
        proc = Path(f"/proc/{pid}")
        state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z" and any(marker.encode() in (proc / f).read_bytes() for f in ("cmdline", "environ"))
    except (OSError, IndexError):
        return False


def stop_lighthouse(proc: subprocess.Popen, profiles: Path, grace_s: float = 10.0) -> None:
    """Stop a Lighthouse run and the Chromium it launched, leaving no process behind.

    ``proc`` was started in its own session (so its process group is Lighthouse and its
    children) with ``TMPDIR=profiles``. SIGINT first: Lighthouse's chrome-launcher then
    closes Chromium and removes its profile. Whatever is still alive after ``grace_s``
    seconds is killed: Lighthouse's process group, then each Chromium (chrome-launcher
    starts it detached, as the leader of its own process group, and writes its pid to
    ``chrome.pid`` in the profile it made under ``profiles``) with its group."""
    if grace_s < 0:
        raise ValueError(f"grace_s must be >= 0, got {grace_s!r}")
    import signal

    marker = str(profiles)
    chromes = set()

    def find_chromes():
        for pid_file in Path(profiles).glob("*/chrome.pid"):
            try:
                chromes.add(int(pid_file.read_text().strip()))
            except (OSError, ValueError):
                pass

    find_chromes()  # read before chrome-launcher removes the profile
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait(timeout=grace_s)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    find_chromes()
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
    for pid in chromes:
        if _running(pid, marker):
            try:
                os.killpg(pid, signal.SIGKILL) if os.getpgid(pid) == pid else os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def run_lighthouse(cli: str, chrome: str, url: str, preset: str) -> dict:
    """One Lighthouse run (its default simulated throttling) of ``url`` with ``preset``.

    Interrupted (Ctrl-C, SIGTERM in :func:`lighthouse`, a timeout), it stops Lighthouse and
    its Chromium before re-raising (:func:`stop_lighthouse`)."""
    import tempfile

    if preset not in LIGHTHOUSE_PRESETS:
        raise ValueError(f"preset must be one of {LIGHTHOUSE_PRESETS}, got {preset!r}")
    cmd = [cli, url, "--output=json", "--output-path=stdout", "--quiet",
           "--only-categories=" + ",".join(LIGHTHOUSE_CATEGORIES),
           "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run "
           "--disable-background-networking --disable-component-update"]
    if preset == "desktop":
        cmd.append("--preset=desktop")
    # Chromium's profile goes under a folder of this run's own, which marks its processes.
    profiles = Path(tempfile.mkdtemp(prefix="bench-lighthouse-"))
    # Chromium makes its singleton socket at <profiles>/.org.chromium.Chromium.XXXXXX/
    # SingletonSocket; past the 107 bytes a Unix socket's path may have it cannot start, and
    # Lighthouse says only "Unable to connect to Chrome" (seen with pytest's tmp_path as TMPDIR).
    if len(os.fsencode(profiles)) + len("/.org.chromium.Chromium.XXXXXX/SingletonSocket") > 107:
        shutil.rmtree(profiles, ignore_errors=True)
        raise RuntimeError(f"TMPDIR is too long for Chromium's socket ({profiles}): use a shorter one, e.g. /tmp")
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, env=dict(os.environ, CHROME_PATH=chrome, TMPDIR=str(profiles)))
        try:
            out, err = proc.communicate(timeout=300)
        except BaseException:
            stop_lighthouse(proc, profiles)
            raise
    finally:
        shutil.rmtree(profiles, ignore_errors=True)
    if proc.returncode != 0 or not out.strip():
        raise RuntimeError(f"lighthouse failed on {url} ({preset}): {err.strip()[-2000:]}")
    return lighthouse_summary(json.loads(out))


def lighthouse(html_dir: Path, pages: list[str] | None = None, presets=LIGHTHOUSE_PRESETS) -> dict:
    """Lighthouse (pinned, npm) with the tests' Chromium over every page of the built site
    (or ``pages``, paths relative to it), served gzip-compressed by :class:`GzipServer`,
    with the mobile and desktop presets. Empty when Lighthouse or Chromium is missing."""
    names = [p.relative_to(html_dir).as_posix() for p in _pages(html_dir)]
    if pages:
        unknown = sorted(set(pages) - set(names))
        if unknown:
            raise ValueError(f"pages must be built pages of {html_dir}, not {unknown}")
        names = [n for n in names if n in pages]
    cli, chrome = find_lighthouse(), find_chromium()
    if not cli or not chrome:
        print("bench: Lighthouse skipped (no Lighthouse or no Chromium)", file=sys.stderr)
        return {}
    per_page = {}
    start = time.perf_counter()
    import signal
    import threading

    def terminated(signum, frame):  # SIGTERM unwinds like Ctrl-C, so the run stops its Chromium
        raise KeyboardInterrupt(f"signal {signum}")

    on_term = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, terminated) if on_term else None
    try:
        with GzipServer(html_dir) as origin:
            for name in names:
                per_page[name] = {preset: run_lighthouse(cli, chrome, f"{origin}/{name}", preset)
                                  for preset in presets}
                print(f"bench: lighthouse {name}: " + ", ".join(
                    f"{preset} {r['performance']}" for preset, r in per_page[name].items()), file=sys.stderr)
    finally:
        if on_term:
            signal.signal(signal.SIGTERM, previous)
    out = {"lighthouse": per_page, "lighthouse_version": LIGHTHOUSE_VERSION,
           "lighthouse_s": time.perf_counter() - start}
    for preset in presets:
        scores = {n: r[preset]["performance"] for n, r in per_page.items()}
        worst = min(scores, key=lambda n: scores[n] if scores[n] is not None else -1)
        out[f"lighthouse_min_{preset}"] = scores[worst]
        out[f"lighthouse_min_{preset}_page"] = worst
        out[f"lighthouse_min_other_{preset}"] = min(
            r[preset][c] for r in per_page.values() for c in LIGHTHOUSE_CATEGORIES[1:])
    heaviest = max(per_page, key=lambda n: max(r["bytes_transferred"] for r in per_page[n].values()))
    out["lighthouse_max_sent_bytes"] = max(r["bytes_transferred"] for r in per_page[heaviest].values())
    out["lighthouse_max_sent"] = heaviest
    return out


def lighthouse_rows(result: dict) -> list[tuple[str, str]]:
    rows = []
    for name, by_preset in result.get("lighthouse", {}).items():
        for preset, r in by_preset.items():
            rows.append((f"  {name} ({preset})",
                         f"perf {r['performance']} a11y {r['accessibility']} bp {r['best-practices']} "
                         f"seo {r['seo']} | FCP {r['fcp_ms'] / 1e3:.1f} s LCP {r['lcp_ms'] / 1e3:.1f} s "
                         f"TBT {r['tbt_ms']:.0f} ms CLS {r['cls']:.3f} | {r['bytes'] / 1e6:.2f} MB "
                         f"({r['bytes_transferred'] / 1e6:.2f} MB sent)"
                         + (f" | failing: {', '.join(r['failing'])}" if r.get("failing") else "")))
    for preset in LIGHTHOUSE_PRESETS:
        if f"lighthouse_min_{preset}" in result:
            rows.insert(0, (f"Lighthouse {result['lighthouse_version']}, lowest performance ({preset})",
                            f"{result[f'lighthouse_min_{preset}']} ({result[f'lighthouse_min_{preset}_page']}); "
                            f"lowest a11y/bp/seo {result[f'lighthouse_min_other_{preset}']}"))
    return rows


#: Targets of issue 30 the table prints beside the figures.
TARGETS = {"median": 16.0, "p95": 33.0, "page_sent": 600_000, "lighthouse": 90}


def result_rows(result: dict) -> list[tuple[str, str]]:
    """The table's rows for a result of :func:`main` (any part may be missing)."""
    rows = [("machine", f"Python {result['python']}, numpy {result['numpy']}, matplotlib {result['matplotlib']}, "
                        f"{result['cores']} cores")]

    def ms(key: str) -> str:
        return f"{result[key + '_median_ms']:.1f} / {result[key + '_p95_ms']:.1f} ms"

    names = {"dimension": "d_k", "magnitude": "magnitude", "keys": "number of keys"}
    if "lab_rounds" in result:
        for control in ("dimension", "magnitude", "keys"):
            key = f"lab_module_{control}"
            rows.append((f"JupyterLab: key → painted, module, {names[control]} (median / p95)",
                         f"{ms(key)}, {result[key + '_messages']:.0f} messages received"
                         f" (targets ≤ {TARGETS['median']:.0f} / ≤ {TARGETS['p95']:.0f})"))
        for base, what in (("frames", "frame path (kernel PNG)"), ("naive", "naive interact")):
            for control in ("dimension", "magnitude"):
                key = f"lab_{base}_{control}"
                rows.append((f"JupyterLab: key → painted, {what}, {names[control]} (median / p95)",
                             f"{ms(key)}, {result[key + '_messages']:.0f} messages, {result[key + '_bytes'] / 1e3:.0f} kB;"
                             f" {result[f'lab_{base}_over_module_{control}']:.1f}× the module"))
        if "lab_floor_slider_median_ms" in result:
            rows.append(("JupyterLab: key → painted, the floor: an IntSlider linked to nothing, same notebook "
                         "(median / p95)", ms("lab_floor_slider")))
        rows.append(("JupyterLab: rounds", f"{result['lab_rounds']} (each control once a round, random order)"))
    if "static_rounds" in result:
        for control in ("dimension", "magnitude"):
            rows.append((f"static page, input → painted at {result['static_throttle']}× CPU throttling, "
                         f"{names[control]} (median / p95)",
                         f"{ms(f'static_{control}')} (target median ≤ {TARGETS['median']:.0f})"))
        if "static_dimension_click_median_ms" in result:
            rows.append((f"static page, a click on the {names['dimension']} slider's track (a jump to a value "
                         "not prepared), same throttling (median / p95)", ms("static_dimension_click")))
        if "static_floor_median_ms" in result:
            rows.append(("static page, the floor: a range input that only writes its value, same page and "
                         "throttling (median / p95)", ms("static_floor")))
    if "build_cold_s" in result:
        rows.append(("book build, cold / warm", f"{result['build_cold_s']:.1f} / {result['build_warm_s']:.1f} s"))
    if "page_max_decoded_bytes" in result:
        if "page_max_sent_bytes" in result:
            rows.append(("heaviest page at load, sent gzip-compressed",
                         f"{result['page_max_sent_bytes'] / 1e6:.2f} MB ({result['page_max_sent']};"
                         f" target ≤ {TARGETS['page_sent'] / 1e6:.1f} MB)"))
        rows.append(("heaviest page at load, decoded", f"{result['page_max_decoded_bytes'] / 1e6:.2f} MB"
                     f" ({result['page_max_decoded']})"))
        for name, size in sorted(result["page_bytes"].items(), key=lambda kv: -kv[1]["decoded"])[:5]:
            sent = "" if size["sent"] is None else f"{size['sent'] / 1e6:.2f} MB sent, "
            rows.append((f"  {name}", f"{sent}{size['decoded'] / 1e6:.2f} MB decoded"))
    rows += lighthouse_rows(result)
    if "picture_files_bytes" in result:
        rows.append(("explorers' no-script pictures (distinct files)", f"{result['picture_files_bytes'] / 1e6:.2f} MB"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60, help="presses of each control on the static page")
    parser.add_argument("--no-build", action="store_true", help="skip the cold and warm build timings")
    parser.add_argument("--lab-rounds", type=int, default=30, help="rounds of the JupyterLab key → paint timing")
    parser.add_argument("--no-lab", action="store_true", help="skip the end-to-end timing in JupyterLab")
    parser.add_argument("--lighthouse", action="store_true",
                        help="also run Lighthouse (mobile and desktop presets) over every built page")
    parser.add_argument("--only-lighthouse", action="store_true", help="run Lighthouse and nothing else")
    parser.add_argument("--presets", nargs="+", choices=LIGHTHOUSE_PRESETS, default=list(LIGHTHOUSE_PRESETS),
                        help="Lighthouse's presets (default: both)")
    parser.add_argument("--pages", nargs="+", metavar="PAGE",
                        help="Lighthouse only these pages (paths under _build/html, e.g. book/intro.html)")
    args = parser.parse_args()
    html_dir = ROOT / "_build" / "html"
    if args.only_lighthouse:
        result = lighthouse(html_dir, args.pages, args.presets)
        for name, value in lighthouse_rows(result):
            print(f"{name}  {value}")
        print(json.dumps(result, sort_keys=True))
        return

    result = {"python": platform.python_version(), "numpy": np.__version__,
              "matplotlib": matplotlib.__version__, "cores": os.cpu_count()}
    if not args.no_lab:
        result |= lab_latency(args.lab_rounds)
    if not args.no_build:
        result |= build_times()
    if html_dir.is_dir():
        result |= static_latency(args.rounds)
        result |= page_weight()
        if args.lighthouse:
            result |= lighthouse(html_dir, args.pages, args.presets)
    rows = result_rows(result)
    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)}  value")
    print(f"{'-' * width}  {'-' * 40}")
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
