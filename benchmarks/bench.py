"""Benchmarks: slider latency (naive vs fast, interleaved), static frame export, build time, page weight.

Run with `make bench`. Prints a table, then one JSON object as the last line. Speed is
measured here and only here: the test suite asserts behaviour, never timings.

Slider latency is the time from a slider change to a new PNG frame set on the
``ipywidgets.Image`` that shows it. The naive baseline is the classic ``interact``
callback: it draws fresh vectors, makes a new pyplot figure and saves it as the inline
backend does. Both run in this one process, interleaved round by round in random order,
and the speed-up is the median of the per-round ratios (the machines are noisy).

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
from attention_scaling.figures import D_VALUES  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def naive_frame(d_k: int, magnitude: float, n_keys: int, seed: int, n_pairs: int = 2000) -> bytes:
    """What a classic `interact` callback does: recompute everything, new figure, savefig."""
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
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")  # as the inline backend does
    plt.close(fig)
    return buf.getvalue()


def slider_latency(rounds: int, seed: int = 2026) -> dict:
    import ipywidgets as w

    explorer = attention_explorer()
    image = w.Image(format="png")
    explorer.frame()  # build the figure and its background once, as the widget does on display

    def fast(params):
        png, _, _ = explorer.frame(**params)
        image.value = png

    rng = np.random.default_rng(seed)
    fast_ms, naive_ms, ratios = [], [], []
    for _ in range(rounds):
        params = {"d_k": int(rng.choice(D_VALUES)), "magnitude": float(np.round(10 ** rng.uniform(-1, 1), 2)),
                  "n_keys": int(rng.integers(2, 33)), "seed": 0}
        timings = {}
        order = ["fast", "naive"] if rng.random() < 0.5 else ["naive", "fast"]
        for which in order:
            start = time.perf_counter()
            if which == "fast":
                fast(params)
            else:
                naive_frame(**params)
            timings[which] = (time.perf_counter() - start) * 1e3
        fast_ms.append(timings["fast"])
        naive_ms.append(timings["naive"])
        ratios.append(timings["naive"] / timings["fast"])
    return {
        "slider_median_ms": float(np.median(fast_ms)),
        "slider_p95_ms": float(np.percentile(fast_ms, 95)),
        "naive_median_ms": float(np.median(naive_ms)),
        "naive_p95_ms": float(np.percentile(naive_ms, 95)),
        "naive_over_fast": float(np.median(ratios)),
        "rounds": rounds,
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
    else estimated from the HTML's links); per static player, its frame files on disk."""
    from attention_scaling.sphinx_ext import FRAMES_DIR, externalize_frames

    html_dir = ROOT / "_build" / "html"
    measured = page_load_bytes(html_dir)
    per_page = measured if measured is not None else page_weight_estimate(html_dir)
    worst_page = max(per_page, key=per_page.get)
    # idempotent on a built site: it only reports what each player's distinct files take
    players = {f"{page}#{p['id']}": p["bytes"] for page, found in externalize_frames(html_dir).items()
               for p in found}
    out = {"page_bytes": per_page, "page_max_bytes": per_page[worst_page], "page_max": worst_page,
           "page_bytes_measured_in": "chromium" if measured is not None else "estimate from the HTML's links",
           "player_disk_bytes": players}
    out["frame_files_bytes"] = sum(f.stat().st_size for f in (html_dir / FRAMES_DIR).glob("*.png"))
    if players:
        worst_player = max(players, key=players.get)
        out |= {"player_disk_max_bytes": players[worst_player], "player_disk_max": worst_player}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--no-build", action="store_true", help="skip the cold and warm build timings")
    args = parser.parse_args()

    result = {"python": platform.python_version(), "numpy": np.__version__,
              "matplotlib": matplotlib.__version__, "cores": os.cpu_count()}
    result |= slider_latency(args.rounds)
    result |= frame_export()
    if not args.no_build:
        result |= build_times()
    if (ROOT / "_build" / "html").is_dir():
        result |= page_weight()

    rows = [
        ("machine", f"Python {result['python']}, numpy {result['numpy']}, matplotlib {result['matplotlib']}, "
                    f"{result['cores']} cores"),
        ("slider → frame, fast (median / p95)", f"{result['slider_median_ms']:.1f} / {result['slider_p95_ms']:.1f} ms"),
        ("slider → frame, naive interact (median / p95)",
         f"{result['naive_median_ms']:.1f} / {result['naive_p95_ms']:.1f} ms"),
        ("naive / fast, median of per-round ratios", f"{result['naive_over_fast']:.1f}× ({result['rounds']} rounds)"),
        ("static frames, export time (both players)", f"{result['frames_export_s']:.2f} s"),
        ("static frames, largest player as inline HTML", f"{result['frames_max_page_bytes'] / 1e6:.2f} MB"),
    ]
    if "build_cold_s" in result:
        rows.append(("book build, cold / warm", f"{result['build_cold_s']:.1f} / {result['build_warm_s']:.1f} s"))
    if "page_max_bytes" in result:
        how = "loaded in Chromium" if result["page_bytes_measured_in"] == "chromium" else "estimated"
        rows.append((f"heaviest page at load ({how})",
                     f"{result['page_max_bytes'] / 1e6:.2f} MB ({result['page_max']})"))
        for name, size in sorted(result["page_bytes"].items(), key=lambda kv: -kv[1])[:5]:
            rows.append((f"  {name}", f"{size / 1e6:.2f} MB"))
    if "player_disk_max_bytes" in result:
        rows.append(("largest player, frame files on disk",
                     f"{result['player_disk_max_bytes'] / 1e6:.2f} MB ({result['player_disk_max']})"))
        for name, size in sorted(result["player_disk_bytes"].items()):
            rows.append((f"  {name}", f"{size / 1e6:.3f} MB"))
        rows.append(("all frame files of the site (distinct)", f"{result['frame_files_bytes'] / 1e6:.2f} MB"))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)}  value")
    print(f"{'-' * width}  {'-' * 40}")
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
