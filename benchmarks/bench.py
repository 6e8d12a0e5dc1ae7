"""Benchmarks: slider latency (naive vs fast, interleaved), static frame export, build time, page weight.

Run with `make bench`. Prints a table, then one JSON object as the last line. Speed is
measured here and only here: the test suite asserts behaviour, never timings.

Slider latency is the time from a slider change to a new PNG frame set on the
``ipywidgets.Image`` that shows it: for the live widget, the transparent layer of the
changing artists (the background is sent once). The naive baseline is the classic ``interact``
callback: it draws fresh vectors, makes a new pyplot figure and saves it as the inline
backend does. Both run in this one process, interleaved round by round in random order,
and the speed-up is the median of the per-round ratios (the machines are noisy). So does
the widget's path before the layered frame (full frame, Pillow's encoder:
``slider_before_over_fast``).

End to end, `make bench` also starts JupyterLab (tests/lab_server.py) on a scratch
notebook with the attention explorer and a classic `interact` drawing the same panels,
and times a key press on each slider until its new frame is painted, in the page
(`performance.now()`), interleaved round by round (``lab_*`` keys); ``--lab-before`` adds
the widget as it was before the layered frame to the same rounds (``lab_before_*``).

Page weight is what Chromium loads for each page until the network is idle (its resource
timing, as in the browser tests), served from the built site. Player frames are files
loaded on demand, so they count there only as each player's background and default frame;
what every player's distinct frame files take on disk is reported beside it.
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
from attention_scaling.explorables import attention_explorer, scale_explorer  # noqa: E402
from attention_scaling.explorables import live_positions  # noqa: E402
from attention_scaling.explorables.book import _magnitude_control  # noqa: E402
from attention_scaling.figures import D_VALUES  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def naive_frame(d_k: int, magnitude: float, n_keys: int, seed: int, n_pairs: int = 2000) -> bytes:
    """What a classic `interact` callback does: recompute everything, new figure, savefig."""
    fig = naive_figure(d_k, magnitude, n_keys, seed, n_pairs)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")  # as the inline backend does
    plt.close(fig)
    return buf.getvalue()


def naive_figure(d_k: int, magnitude: float, n_keys: int, seed: int, n_pairs: int = 2000):
    """The classic callback's new pyplot figure (the inline backend shows it, then closes it)."""
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


def slider_latency(rounds: int, seed: int = 2026) -> dict:
    import ipywidgets as w

    explorer = attention_explorer()
    image = w.Image(format="png")
    explorer.frame()  # build the figure and its background once, as the widget does on display

    def fast(params):  # what the live widget does per change (Explorable.widget)
        fig = explorer.figure
        fig.update(**(explorer.defaults() | params))
        explorer.describe(fig.state)
        image.value = fig.live_layer_png()

    def before(params):  # what the live widget did before the layered frame (before_widget)
        fig = explorer.figure
        fig.update(**(explorer.defaults() | params))
        explorer.describe(fig.state)
        image.value = pillow_png(fig)

    rng = np.random.default_rng(seed)
    fast_ms, naive_ms, ratios, before_ratios = [], [], [], []
    for _ in range(rounds):
        params = {"d_k": int(rng.choice(D_VALUES)), "magnitude": float(np.round(10 ** rng.uniform(-1, 1), 2)),
                  "n_keys": int(rng.integers(2, 33)), "seed": 0}
        timings = {}
        order = ["fast", "naive", "before"]
        rng.shuffle(order)
        for which in order:
            start = time.perf_counter()
            if which == "fast":
                fast(params)
            elif which == "before":
                before(params)
            else:
                naive_frame(**params)
            timings[which] = (time.perf_counter() - start) * 1e3
        fast_ms.append(timings["fast"])
        naive_ms.append(timings["naive"])
        ratios.append(timings["naive"] / timings["fast"])
        before_ratios.append(timings["before"] / timings["fast"])
    return {
        "slider_before_over_fast": float(np.median(before_ratios)),
        "slider_median_ms": float(np.median(fast_ms)),
        "slider_p95_ms": float(np.percentile(fast_ms, 95)),
        "naive_median_ms": float(np.median(naive_ms)),
        "naive_p95_ms": float(np.percentile(naive_ms, 95)),
        "naive_over_fast": float(np.median(ratios)),
        "rounds": rounds,
    }


# --- end to end in a real JupyterLab --------------------------------------------------

def pillow_png(fig) -> bytes:
    """The full frame as BlitFigure.png encoded it before fast_png: Pillow, RGB, compress_level 1."""
    from PIL import Image, PngImagePlugin

    from attention_scaling.figures import MIN_FONT_KEY

    buf = io.BytesIO()
    frame = fig.render()
    image = Image.fromarray(frame)
    if (frame[..., 3] == 255).all():
        image = image.convert("RGB")
    info = PngImagePlugin.PngInfo()
    info.add_text(MIN_FONT_KEY, f"{fig._smallest_pt:g}")
    image.save(buf, format="PNG", compress_level=1, pnginfo=info, dpi=(fig.fig.dpi,) * 2)
    return buf.getvalue()


def before_widget(explorer):
    """The live widget as it was before the layered frame (for ``--lab-before``): one image
    of the full frame, encoded by Pillow (RGB, compress_level 1), per change, then the
    readout; the kernel echoes each slider value back. Same controls as Explorable.widget."""
    import html

    import ipywidgets as w

    controls = {c.name: explorer._live_control(c) for c in explorer.controls + explorer.live_only}
    image = w.Image(format="png", layout=w.Layout(width="100%", max_width="1200px", margin="2px 0"))
    readout = w.HTML()

    def redraw(_change=None):
        fig = explorer.figure
        fig.update(**(explorer.defaults() | {name: s.value for name, s in controls.items()}))
        _, text = explorer.describe(fig.state)
        image.value = pillow_png(fig)
        readout.value = f'<p style="font-size:0.9em" aria-live="polite">{html.escape(text)}</p>'

    for s in controls.values():
        s.observe(redraw, names="value")
    redraw()
    image.add_class("asb-before-frame")
    title = w.HTMLMath(f"<b>{html.escape(explorer.title)} (before)</b>")
    return w.VBox([title, *controls.values(), image, readout], layout=w.Layout(width="100%"))


# The scratch notebook: the attention explorer, then a classic `interact` that draws the
# same three panels as a new pyplot figure per change (naive_figure), shown inline; with
# --lab-before, also the widget as it was before the layered frame (before_widget).
LAB_CELLS = [
    "import sys\nsys.path.insert(0, {bench!r})\nfrom bench import naive_figure\n\n"
    "%matplotlib inline\nimport ipywidgets as w\nimport matplotlib.pyplot as plt\n"
    "from attention_scaling.explorables import attention_explorer",
    "attention_explorer()",
    "def naive(magnitude):\n    naive_figure(64, magnitude, 16, 0)\n    plt.show()\n\n\n"
    "w.interact(naive, magnitude=w.FloatLogSlider(value=1.0, base=10, min=-1, max=1, step=0.02,\n"
    "                                             continuous_update=True))",
]
LAB_BEFORE_CELL = "from bench import before_widget\nbefore_widget(attention_explorer())"

# In the page: arm(which) starts a measurement of the next key press on that explorer. It
# notes the keydown, the moment the image shown changes (new frame in the DOM: a new src, or
# with the frame cache another view of the Tab shown), its load and decode, and the next
# animation frame after it (painted).
# The fast explorer's frame is the layer, the last image its frame (.asb-live-frame) shows;
# "uncached" is the same explorer's d_k slider, a control whose frames the page does not hold.
LAB_ROOTS = {"fast": ".jp-Notebook .widget-vbox:has(> .asb-live-frame)",
             "uncached": ".jp-Notebook .widget-vbox:has(> .asb-live-frame)",
             "before": ".jp-Notebook .widget-vbox:has(> .asb-before-frame)",
             "naive": ".jp-Notebook .widget-interact"}
LAB_SLIDERS = {"fast": "magnitude", "uncached": "key dimension", "before": "magnitude", "naive": "magnitude"}
# The fast explorer's row is full: the page steps through it alone (Explorable.widget).
LAB_CACHED = ".jp-Notebook .asb-live-frame.asb-live-cached"
LAB_ARM_JS = """([which, rootSelector]) => {
    const root = document.querySelector(rootSelector);
    const shown = () => [...root.querySelectorAll(':scope > .asb-live-frame .widget-image')]
                        .filter(e => e.checkVisibility()).pop();
    const imgOf = () => (which === 'fast' || which === 'uncached') ? shown()
                      : which === 'before' ? root.querySelector(':scope > .asb-before-frame')
                      : root.querySelector('.widget-output img');
    const first = imgOf();
    const before = first ? first.src : null;
    const m = window.__lat = {t0: null, src: null, load: null, paint: null, decoded: null, bytes: 0};
    document.addEventListener('keydown', () => { if (m.t0 === null) m.t0 = performance.now(); },
                              {capture: true, once: true});
    const obs = new MutationObserver(() => {
        const img = imgOf();
        if (!img || img.src === before || m.src !== null) return;
        m.src = performance.now();
        obs.disconnect();
        const done = () => {
            m.load = performance.now();
            requestAnimationFrame(() => { m.paint = performance.now(); });
            // a second, stricter end: the image's decode() promise (it settles at a frame's commit)
            img.decode().catch(() => null).then(() => { m.decoded = performance.now(); });
        };
        if (img.complete && img.naturalWidth && img.src !== before) done();
        else img.addEventListener('load', done, {once: true});
    });
    obs.observe(root, {subtree: true, childList: true, attributes: true, attributeFilter: ['src', 'class']});
}"""


def lab_latency(rounds: int = 30, warmup: int = 3, seed: int = 2026, before: bool = False) -> dict:
    """Key press on a slider → new frame painted, in JupyterLab served from this repository.

    One page holds both explorers; each round presses ArrowRight once on the fast explorer's
    magnitude slider and once on the classic `interact`'s, in random order (the first
    ``warmup`` rounds are discarded). Also counts the websocket messages and bytes the page
    receives per change, and splits the time into key → src change (kernel round trip:
    messages, compute, encoding) and src change → painted (decode and paint in the page).

    The magnitude is the explorer's fast slider: each of its steps is timed only once its
    row is full (the frame has ``asb-live-cached``), when the page shows cached frames
    without the kernel. Then each round steps the same explorer's d_k, a control the page
    does not cache (``lab_uncached_*``: the kernel path), and times the row's refill after it
    (until ``asb-live-cached`` is back; its messages and bytes too), before the next round.
    With ``before``, the widget as it was before the layered frame (:func:`before_widget`)
    takes part in every round too (``lab_before_*`` keys, ``lab_before_over_fast``): a
    before/after ratio measured in one session, whatever else loads the machine.
    Empty when no Chromium or playwright is available.
    """
    import random
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    from lab_server import CHROMIUM_ARGS, KERNEL_IDLE_JS, chromium_executable, jupyterlab, open_and_run_all

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {}
    exe = chromium_executable()
    if exe == "":
        return {}
    scratch = Path(tempfile.mkdtemp(prefix="bench-lab-", dir=ROOT))  # inside the served root
    try:
        cells = [c.format(bench=str(ROOT / "benchmarks")) for c in LAB_CELLS] + ([LAB_BEFORE_CELL] if before else [])
        kinds = ["fast", "naive"] + (["before"] if before else [])
        timed = kinds + ["uncached"]
        notebook = {"cells": [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [],
                               "execution_count": None} for c in cells],
                    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                "language": "python"}},
                    "nbformat": 4, "nbformat_minor": 5}
        (scratch / "latency.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
        urlpath = f"lab/tree/{scratch.name}/latency.ipynb"
        with jupyterlab(ROOT) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                frames = []
                page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(len(data))))
                open_and_run_all(page, server, urlpath)
                handles = {which: page.locator(f"{LAB_ROOTS[which]} .widget-slider", has_text=LAB_SLIDERS[which])
                           .locator(".noUi-handle") for which in timed}
                rng = random.Random(seed)
                ms = {which: [] for which in timed}
                parts = {which: [] for which in timed}
                traffic = {which: [] for which in timed}
                ratios, before_ratios, fills = [], [], []
                start = time.monotonic()
                page.wait_for_selector(LAB_CACHED, state="attached", timeout=300_000)
                first_fill = time.monotonic() - start  # after Run All: the rest of the first row
                for round_ in range(warmup + rounds):
                    order = list(kinds)
                    rng.shuffle(order)
                    this = {}
                    for which in order + ["uncached"]:
                        if which == "fast":  # timed only once its row is full (cached in the page)
                            page.wait_for_selector(LAB_CACHED, state="attached", timeout=300_000)
                        handles[which].scroll_into_view_if_needed()
                        handles[which].focus()
                        page.wait_for_function(KERNEL_IDLE_JS)
                        page.wait_for_timeout(100)
                        page.evaluate(LAB_ARM_JS, [which, LAB_ROOTS[which]])
                        received, pressed = len(frames), time.monotonic()
                        # d_k steps up and back down, so it stays inside its range
                        page.keyboard.press("ArrowLeft" if which == "uncached" and round_ % 2 else "ArrowRight")
                        page.wait_for_function("() => window.__lat.paint !== null && window.__lat.decoded !== null",
                                               timeout=30_000, polling=50)
                        m = page.evaluate("() => window.__lat")
                        page.wait_for_function(KERNEL_IDLE_JS)
                        page.wait_for_timeout(150)  # late messages of this change count for it
                        this[which] = m["paint"] - m["t0"]
                        if round_ >= warmup:
                            ms[which].append(this[which])
                            parts[which].append((m["src"] - m["t0"], m["paint"] - m["src"], m["decoded"] - m["t0"]))
                            traffic[which].append((len(frames) - received, sum(frames[received:])))
                        if which == "uncached":  # the row refills: wait for it before the next round
                            page.wait_for_selector(LAB_CACHED, state="attached", timeout=300_000)
                            page.wait_for_function(KERNEL_IDLE_JS)
                            if round_ >= warmup:
                                fills.append((time.monotonic() - pressed,
                                              len(frames) - received, sum(frames[received:])))
                    if round_ >= warmup:
                        ratios.append(this["naive"] / this["fast"])
                        if before:
                            before_ratios.append(this["before"] / this["fast"])
            finally:
                browser.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    def median_of(values, i):
        return float(np.median([v[i] for v in values]))

    out = {}
    if before:
        out = {"lab_before_key_to_paint_median_ms": float(np.median(ms["before"])),
               "lab_before_key_to_paint_p95_ms": float(np.percentile(ms["before"], 95)),
               "lab_before_over_fast": float(np.median(before_ratios)),
               "lab_before_naive_over_before": float(np.median(np.array(ms["naive"]) / np.array(ms["before"]))),
               "lab_before_key_to_src_median_ms": median_of(parts["before"], 0),
               "lab_before_src_to_paint_median_ms": median_of(parts["before"], 1),
               "lab_before_messages_per_change": median_of(traffic["before"], 0),
               "lab_before_bytes_per_change": median_of(traffic["before"], 1)}
    return out | {
        "lab_key_to_paint_median_ms": float(np.median(ms["fast"])),
        "lab_key_to_paint_p95_ms": float(np.percentile(ms["fast"], 95)),
        "lab_naive_key_to_paint_median_ms": float(np.median(ms["naive"])),
        "lab_naive_key_to_paint_p95_ms": float(np.percentile(ms["naive"], 95)),
        "lab_naive_over_fast": float(np.median(ratios)),
        "lab_key_to_src_median_ms": median_of(parts["fast"], 0),
        "lab_src_to_paint_median_ms": median_of(parts["fast"], 1),
        # key → the shown image's decode() settled: stricter than the next animation frame
        "lab_key_to_decoded_median_ms": median_of(parts["fast"], 2),
        "lab_key_to_decoded_p95_ms": float(np.percentile([v[2] for v in parts["fast"]], 95)),
        "lab_naive_key_to_decoded_median_ms": median_of(parts["naive"], 2),
        "lab_messages_per_change": median_of(traffic["fast"], 0),
        "lab_bytes_per_change": median_of(traffic["fast"], 1),
        "lab_naive_bytes_per_change": median_of(traffic["naive"], 1),
        "lab_uncached_key_to_paint_median_ms": float(np.median(ms["uncached"])),
        "lab_uncached_key_to_paint_p95_ms": float(np.percentile(ms["uncached"], 95)),
        "lab_uncached_messages_per_change": median_of(traffic["uncached"], 0),
        "lab_uncached_bytes_per_change": median_of(traffic["uncached"], 1),
        # from the d_k key press until the row is full again (frames drawn, sent, linked)
        "lab_row_fill_median_s": median_of(fills, 0),
        "lab_row_fill_max_s": float(max(f[0] for f in fills)),
        "lab_row_fill_messages": median_of(fills, 1),
        "lab_row_fill_bytes": median_of(fills, 2),
        "lab_first_row_fill_after_run_s": first_fill,
        "lab_row_positions": len(live_positions(_magnitude_control())),
        "lab_rounds": rounds,
    }


def frame_export() -> dict:
    out = {}
    sizes = []
    start_all = time.perf_counter()
    for make in (attention_explorer, scale_explorer):
        start = time.perf_counter()
        html = make().static_html()
        out[f"frames_{make.__name__}_s"] = time.perf_counter() - start
        sizes.append(len(html.encode()))
    out["frames_export_s"] = time.perf_counter() - start_all
    out["frames_max_page_bytes"] = max(sizes)
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
    timing (decoded sizes), served over 127.0.0.1: what a reader's browser fetches before
    touching anything. None without playwright or a Chromium ($CHROMIUM, /usr/bin/chromium)."""
    import functools
    import http.server
    import threading

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    exe = os.environ.get("CHROMIUM") or next(
        (c for c in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.access(c, os.X_OK)), None)
    if not exe or exe == "playwright":
        return None

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(html_dir)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{httpd.server_address[1]}"
    out = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=exe, args=["--headless", "--no-sandbox", "--disable-gpu"])
            for page in _pages(html_dir):
                name = page.relative_to(html_dir).as_posix()
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                tab = context.new_page()
                tab.goto(f"{origin}/{name}", wait_until="load")
                tab.wait_for_load_state("networkidle")
                out[name] = tab.evaluate(
                    """() => [performance.getEntriesByType('navigation')[0],
                              ...performance.getEntriesByType('resource')]
                             .reduce((sum, e) => sum + (e && e.decodedBodySize || 0), 0)""")
                context.close()
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    return out


def page_weight() -> dict:
    """Per page, the bytes loaded at page load (measured in Chromium when there is one,
    else estimated from the HTML's links); and what the explorers' no-script pictures take
    on disk (loaded only by a reader without scripts)."""
    from attention_book.sphinx_ext import PICTURES_DIR

    html_dir = ROOT / "_build" / "html"
    measured = page_load_bytes(html_dir)
    per_page = measured if measured is not None else page_weight_estimate(html_dir)
    worst_page = max(per_page, key=per_page.get)
    out = {"page_bytes": per_page, "page_max_bytes": per_page[worst_page], "page_max": worst_page,
           "page_bytes_measured_in": "chromium" if measured is not None else "estimate from the HTML's links"}
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
    """The tests' Chromium (scripts/find-chromium); None when only Playwright's own is found."""
    exe = os.environ.get("CHROMIUM") or subprocess.run(
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
    heaviest = max(per_page, key=lambda n: max(r["bytes"] for r in per_page[n].values()))
    out["page_max_bytes"] = max(r["bytes"] for r in per_page[heaviest].values())
    out["page_max"] = heaviest
    out["page_bytes_measured_in"] = "lighthouse"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--no-build", action="store_true", help="skip the cold and warm build timings")
    parser.add_argument("--lab-rounds", type=int, default=30, help="rounds of the JupyterLab key → paint timing")
    parser.add_argument("--no-lab", action="store_true", help="skip the end-to-end timing in JupyterLab")
    parser.add_argument("--lab-before", action="store_true",
                        help="also time the live widget as it was before the layered frame, in the same rounds")
    parser.add_argument("--lighthouse", action="store_true",
                        help="also run Lighthouse (mobile and desktop presets) over every built page")
    parser.add_argument("--only-lighthouse", action="store_true", help="run Lighthouse and nothing else")
    parser.add_argument("--pages", nargs="+", metavar="PAGE",
                        help="Lighthouse only these pages (paths under _build/html, e.g. book/intro.html)")
    args = parser.parse_args()
    html_dir = ROOT / "_build" / "html"
    if args.only_lighthouse:
        result = lighthouse(html_dir, args.pages)
        for name, value in lighthouse_rows(result):
            print(f"{name}  {value}")
        print(json.dumps(result, sort_keys=True))
        return

    result = {"python": platform.python_version(), "numpy": np.__version__,
              "matplotlib": matplotlib.__version__, "cores": os.cpu_count()}
    result |= slider_latency(args.rounds)
    if not args.no_lab:
        result |= lab_latency(args.lab_rounds, before=args.lab_before)
    result |= frame_export()
    if not args.no_build:
        result |= build_times()
    if html_dir.is_dir():
        result |= page_weight()
        if args.lighthouse:
            # Lighthouse's page_max_bytes (every resource the page loads, uncompressed) replaces
            # the load-time measure above; that one stays as page_max_bytes_at_load.
            result["page_max_bytes_at_load"] = result["page_max_bytes"]
            result |= lighthouse(html_dir, args.pages)

    rows = [
        ("machine", f"Python {result['python']}, numpy {result['numpy']}, matplotlib {result['matplotlib']}, "
                    f"{result['cores']} cores"),
        ("slider → frame, fast (median / p95)", f"{result['slider_median_ms']:.1f} / {result['slider_p95_ms']:.1f} ms"),
        ("slider → frame, naive interact (median / p95)",
         f"{result['naive_median_ms']:.1f} / {result['naive_p95_ms']:.1f} ms"),
        ("naive / fast, median of per-round ratios", f"{result['naive_over_fast']:.1f}× ({result['rounds']} rounds)"),
        ("before the layered frame / fast, median of per-round ratios", f"{result['slider_before_over_fast']:.2f}×"),
    ]
    if "lab_key_to_paint_median_ms" in result:
        rows += [
            ("JupyterLab: key → frame painted, fast (median / p95)",
             f"{result['lab_key_to_paint_median_ms']:.1f} / {result['lab_key_to_paint_p95_ms']:.1f} ms"
             " (targets ≤ 50 / ≤ 100)"),
            ("JupyterLab: key → frame painted, naive interact (median / p95)",
             f"{result['lab_naive_key_to_paint_median_ms']:.1f} / {result['lab_naive_key_to_paint_p95_ms']:.1f} ms"),
            ("JupyterLab: naive / fast, median of per-round ratios",
             f"{result['lab_naive_over_fast']:.1f}× ({result['lab_rounds']} rounds; target ≥ 10×)"),
            ("JupyterLab: fast, key → new src / src → painted (medians)",
             f"{result['lab_key_to_src_median_ms']:.1f} / {result['lab_src_to_paint_median_ms']:.1f} ms"),
            ("JupyterLab: key → decode() settled, fast (median / p95) / naive (median)",
             f"{result['lab_key_to_decoded_median_ms']:.1f} / {result['lab_key_to_decoded_p95_ms']:.1f} ms"
             f" / {result['lab_naive_key_to_decoded_median_ms']:.1f} ms"),
            ("JupyterLab: fast, websocket messages / bytes per change",
             f"{result['lab_messages_per_change']:.0f} / {result['lab_bytes_per_change'] / 1e3:.1f} kB"
             f" (naive {result['lab_naive_bytes_per_change'] / 1e3:.0f} kB)"),
            ("JupyterLab: d_k (not cached, kernel path), key → painted (median / p95)",
             f"{result['lab_uncached_key_to_paint_median_ms']:.1f} / {result['lab_uncached_key_to_paint_p95_ms']:.1f}"
             f" ms, {result['lab_uncached_messages_per_change']:.0f} messages,"
             f" {result['lab_uncached_bytes_per_change'] / 1e3:.0f} kB"),
            ("JupyterLab: refill of the magnitude row after d_k (median / max)",
             f"{result['lab_row_fill_median_s']:.1f} / {result['lab_row_fill_max_s']:.1f} s,"
             f" {result['lab_row_positions']} frames, {result['lab_row_fill_messages']:.0f} messages,"
             f" {result['lab_row_fill_bytes'] / 1e6:.2f} MB"),
        ]
    if "lab_before_over_fast" in result:
        rows += [
            ("JupyterLab: before the layered frame, key → painted (median / p95)",
             f"{result['lab_before_key_to_paint_median_ms']:.1f} / {result['lab_before_key_to_paint_p95_ms']:.1f} ms"),
            ("JupyterLab: before / fast, median of per-round ratios", f"{result['lab_before_over_fast']:.2f}×"),
            ("JupyterLab: before, key → new src / src → painted (medians)",
             f"{result['lab_before_key_to_src_median_ms']:.1f} / {result['lab_before_src_to_paint_median_ms']:.1f} ms"),
            ("JupyterLab: before, websocket messages / bytes per change",
             f"{result['lab_before_messages_per_change']:.0f} / {result['lab_before_bytes_per_change'] / 1e3:.0f} kB"),
        ]
    rows += [
        ("static frames, export time (both players)", f"{result['frames_export_s']:.2f} s"),
        ("static frames, largest player as inline HTML", f"{result['frames_max_page_bytes'] / 1e6:.2f} MB"),
    ]
    if "build_cold_s" in result:
        rows.append(("book build, cold / warm", f"{result['build_cold_s']:.1f} / {result['build_warm_s']:.1f} s"))
    if "page_max_bytes" in result:
        how = {"chromium": "loaded in Chromium", "lighthouse": "loaded in Lighthouse"}.get(
            result["page_bytes_measured_in"], "estimated")
        rows.append((f"heaviest page at load ({how})",
                     f"{result['page_max_bytes'] / 1e6:.2f} MB ({result['page_max']})"))
        for name, size in sorted(result["page_bytes"].items(), key=lambda kv: -kv[1])[:5]:
            rows.append((f"  {name}", f"{size / 1e6:.2f} MB"))
    rows += lighthouse_rows(result)
    if "picture_files_bytes" in result:
        rows.append(("explorers' no-script pictures (distinct files)",
                     f"{result['picture_files_bytes'] / 1e6:.2f} MB"))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)}  value")
    print(f"{'-' * width}  {'-' * 40}")
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
