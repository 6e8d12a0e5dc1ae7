"""Figures for the book, built with ``matplotlib.figure.Figure`` (never pyplot).

A figure made without pyplot is not tracked by any global state, so a live slider can
keep one figure and redraw it, and no figure leaks between cells. In a notebook, a
:class:`Figure` shows as a PNG through :func:`show` or by being the cell's last value (its
``_repr_png_``: nothing is registered with IPython when this module is imported).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, cast

import matplotlib.figure
import numpy as np

from . import _validate as v
from .numerics import diagonal_gradient

if TYPE_CHECKING:
    from matplotlib.axes import Axes


class Figure(matplotlib.figure.Figure):
    """A matplotlib ``Figure`` (no pyplot) that IPython shows as a PNG, :func:`png_bytes`:
    without pyplot, IPython knows only a plain Figure's text form."""

    def _repr_png_(self) -> bytes:
        return png_bytes(self)


__all__ = [
    "self_gradient_curve",
    "jacobian_norm_scatter",
    "saturation_by_dimension_figure",
    "gradient_norms_figure",
    "training_curves_figure",
    "aligned_dots_figure",
    "layernorm_placement_diagram",
    "softmax_error_figure",
    "overflow_fraction_figure",
    "png_bytes",
    "fast_png",
    "make_legible",
    "SMALL_PT",
    "BlitFigure",
    "AttentionFigure",
    "ScaleFigure",
    "NormalizationFigure",
]

# Red and blue mean unscaled and scaled wherever both appear; an explorer of one softmax
# (the scale explorer) draws its weights grey and their gradients purple instead.
COLORS = {"curve": "#1f4e79", "mark": "#c0392b", "scaled": "#1f77b4", "unscaled": "#d62728", "grid": "#dddddd",
          "weight": "#6b6b6b", "gradient": "#7b3294"}


#: Smallest text in any figure (ticks, legends, notes), and the size of titles and labels, in points.
#: A 960-px figure is shown 688 px wide on a 1280-px laptop: 11.5 pt at 100 dpi is then 11.4 CSS px.
#: On a phone the book keeps figures at least 640 px wide (they scroll sideways): 10.6 CSS px.
SMALL_PT = 11.5
TEXT_PT = 12.5
#: PNG text key that records the smallest font size of a figure, for the reader tests.
MIN_FONT_KEY = "asb:min-font-pt"


def _style(ax) -> None:
    ax.grid(True, color=COLORS["grid"], linewidth=0.6)
    ax.spines[["top", "right"]].set_visible(False)


def _texts(fig: Figure):
    from matplotlib.text import Text

    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def make_legible(fig: Figure) -> float:
    """Raise every text of ``fig`` to at least :data:`SMALL_PT`; return the smallest size, in points.

    Tick labels that do not exist yet (matplotlib makes them at draw time) get the size
    through ``tick_params``, so they are covered too.
    """
    for ax in fig.axes:
        ax.tick_params(which="both", labelsize=SMALL_PT)
    for t in _texts(fig):
        if t.get_fontsize() < SMALL_PT:
            t.set_fontsize(SMALL_PT)
    return min([t.get_fontsize() for t in _texts(fig)] or [SMALL_PT])


def _png_info(fig: Figure, dpi: float):
    """PNG text chunk with the figure's smallest font size (points), and its dpi."""
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text(MIN_FONT_KEY, f"{make_legible(fig):g}")
    return info, (dpi, dpi)


def _chunk(kind: bytes, data: bytes) -> bytes:
    import zlib

    return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")


def fast_png(pixels: np.ndarray, dpi: float, min_font_pt: float, compress_level: int = 1) -> bytes:
    """An RGB or RGBA ``uint8`` array of shape (height, width, channels) as PNG bytes, written
    directly: no row filter, zlib at ``compress_level`` (for live frames).

    Measured on the attention figure (960×395): 4–6 ms a frame, against 18–22 ms for
    Pillow at the same level (its adaptive row filters cost most of that), and about as
    many bytes. The file records the dpi (pHYs) and the smallest font size
    (:data:`MIN_FONT_KEY`), as :func:`png_bytes` does; Pillow and browsers decode it.
    """
    import zlib

    pixels = np.asarray(pixels)
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] not in (3, 4) or 0 in pixels.shape:
        raise ValueError(f"pixels must be a non-empty uint8 array of shape (height, width, 3 or 4), "
                         f"got {pixels.dtype} {pixels.shape}")
    dpi = v.positive_real(dpi, "dpi")
    min_font_pt = v.positive_real(min_font_pt, "min_font_pt")
    compress_level = v.positive_int(compress_level, "compress_level", minimum=0)
    if compress_level > 9:
        raise ValueError(f"compress_level must be at most 9, got {compress_level}")
    height, width, channels = pixels.shape
    rows = np.empty((height, width * channels + 1), np.uint8)
    rows[:, 0] = 0  # filter type None on every row
    rows[:, 1:] = pixels.reshape(height, -1)
    per_metre = round(dpi / 0.0254).to_bytes(4, "big")
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", width.to_bytes(4, "big") + height.to_bytes(4, "big")
               + bytes((8, 2 if channels == 3 else 6, 0, 0, 0))),
        _chunk(b"pHYs", per_metre + per_metre + b"\x01"),
        _chunk(b"tEXt", MIN_FONT_KEY.encode("latin-1") + b"\0" + f"{min_font_pt:g}".encode("latin-1")),
        _chunk(b"IDAT", zlib.compress(rows.data, compress_level)),
        _chunk(b"IEND", b""),
    ))


def png_bytes(fig: Figure, dpi: int = 100) -> bytes:
    """The figure as PNG bytes (for ``ipywidgets.Image`` or ``IPython.display.Image``).

    The PNG records its dpi and the figure's smallest font size (:data:`MIN_FONT_KEY`), so a
    browser test can tell how large its text is on the page.
    """
    if not isinstance(fig, matplotlib.figure.Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    dpi = v.positive_int(dpi, "dpi")
    smallest = make_legible(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={MIN_FONT_KEY: f"{smallest:g}"})
    return buf.getvalue()


def self_gradient_curve(marks: dict[str, float] | None = None, width: float = 9.0, height: float = 4.0,
                        log_view: bool = True) -> Figure:
    r"""The curve :math:`P(1-P)` with the given points marked, in two views.

    Left: on [0, 1], with the maximum ¼ at ½. Right: against the distance of :math:`P`
    from the nearer end, :math:`\min(P, 1-P)`, on log–log axes, where points that crowd
    together near 0 or 1 on the left are told apart.

    Parameters
    ----------
    marks : dict of label -> P, optional
        Probabilities to mark on the curve, each with a label.
    width, height : float
        Figure size in inches.
    log_view : bool
        Draw the right, log–log view; ``False`` gives the left view alone (a small figure
        beside the text), with its legend inside the axes.
    """
    if not isinstance(log_view, bool):
        raise ValueError(f"log_view must be True or False, got {log_view!r}")
    marks = dict(marks or {})
    values = v.probabilities(list(marks.values()) or [0.5], "marks", axis=None)
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), layout="constrained")
    ax, ax_log = fig.subplots(1, 2) if log_view else (fig.subplots(), None)
    p = np.linspace(0.0, 1.0, 401)
    ax.plot(p, diagonal_gradient(p), color=COLORS["curve"], linewidth=2)
    ax.axhline(0.25, color="0.5", linestyle=":", linewidth=1)
    ax.annotate(r"maximum $\frac{1}{4}$ at $P=\frac{1}{2}$", xy=(0.5, 0.25), xytext=(0.5, 0.272),
                ha="center", fontsize=SMALL_PT, color="0.3")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 0.3)
    ax.set_xlabel(r"weight $P_1$")
    ax.set_ylabel((r"gradient " if log_view else "") + r"$\partial P_1/\partial z_1 = P_1(1-P_1)$")
    if ax_log is not None:
        distance = np.logspace(-4, np.log10(0.5), 200)
        ax_log.loglog(distance, diagonal_gradient(distance), color=COLORS["curve"], linewidth=2)
        ax_log.set_xlabel(r"distance from the nearer end, $\min(P_1, 1-P_1)$")
        ax_log.set_ylabel(r"$P_1(1-P_1)$ (log scale)")
        ax_log.set_xlim(1e-4, 0.5)
    shapes = "osD^v<>"
    for i, (label, value) in enumerate(zip(marks, values if marks else [])):
        g = float(diagonal_gradient(value))
        style: dict[str, Any] = {"color": COLORS["mark"], "markersize": 7, "zorder": 3, "clip_on": False,
                 "markerfacecolor": "white" if i % 2 else COLORS["mark"]}
        named = f"{label}: $P(1-P)$ = {g:.4g}" if log_view else f"{label}: {g:.4g}"
        ax.plot([value], [g], shapes[i % len(shapes)], label=named, **style)
        if ax_log is not None:
            ax_log.plot([min(value, 1 - value)], [max(g, 1e-12)], shapes[i % len(shapes)], **style)
    if marks and log_view:
        fig.legend(loc="outside lower center", ncols=min(len(marks), 2), fontsize=SMALL_PT, frameon=False)
    elif marks:  # the small figure: inside, below the peak
        ax.legend(loc="lower center", fontsize=SMALL_PT, frameon=False, handletextpad=0.3)
    for axes in (ax, ax_log):
        if axes is not None:
            _style(axes)
    return fig


def jacobian_norm_scatter(p_samples, width: float = 6.4, height: float = 3.6) -> Figure:
    r"""Spectral norm of J against the largest weight, for many probability vectors.

    Also draws the Gershgorin bound :math:`2\max_i P_i(1-P_i) = 2P_{\max}(1-P_{\max})`
    and the global bound ½.

    Parameters
    ----------
    p_samples : array_like, shape ``(m, n)``
        Probability vectors, one per row.
    """
    from .numerics import jacobian_norm

    p = v.probabilities(p_samples, "p_samples", axis=-1, min_ndim=2)
    norms = jacobian_norm(p)
    top = p.max(axis=-1)
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), layout="constrained")
    ax = fig.add_subplot()
    ax.scatter(top, norms, s=6, alpha=0.35, color=COLORS["curve"], linewidths=0, label=r"$\|J\|_2$ of a random $P$")
    grid = np.linspace(0.0, 1.0, 401)
    ax.plot(grid, 2 * diagonal_gradient(grid), color=COLORS["mark"], linewidth=2,
            label=r"Gershgorin: $2\,P_{\max}(1-P_{\max})$")
    ax.axhline(0.5, color="0.4", linestyle="--", linewidth=1, label=r"bound $\frac{1}{2}$")
    ax.set_xlim(0, 1.0)
    ax.set_ylim(0, 0.55)
    ax.set_xlabel(r"largest weight $P_{\max}$")
    ax.set_ylabel(r"spectral norm $\|J\|_2$")
    fig.legend(loc="outside lower center", ncols=3, fontsize=SMALL_PT, frameon=False)
    _style(ax)
    return fig


def _by_dimension(stats, source: str):
    """The dimensions and the unscaled/scaled series of an experiment's result dict."""
    try:
        return np.asarray(stats["d_values"]), {name: stats[name] for name in ("unscaled", "scaled")}
    except (KeyError, TypeError) as exc:
        raise ValueError(f"stats must come from {source}()") from exc


def saturation_by_dimension_figure(stats, width: float = 9.6, height: float = 3.7) -> Figure:
    """Three panels against d_k (log axis): largest weight, entropy, largest P(1-P).

    ``stats`` is the result of :func:`~attention_scaling.numerics.saturation_by_dimension`.
    """
    d, series = _by_dimension(stats, "saturation_by_dimension")
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), layout="constrained")
    axes = fig.subplots(1, 3)
    limits = {"max weight": (0, 1.02), "entropy": (0, None), "largest P(1-P)": (0, 0.27)}
    labels = {"max weight": "mean largest weight", "entropy": "mean entropy (nats)",
              "largest P(1-P)": r"mean largest $P_j(1-P_j)$"}
    for ax, measure in zip(axes, limits):
        for name, color, marker in (("unscaled", COLORS["unscaled"], "o"), ("scaled", COLORS["scaled"], "s")):
            label = r"unscaled $q\cdot k$" if name == "unscaled" else r"scaled $q\cdot k/\sqrt{d_k}$"
            ax.plot(d, series[name][measure], marker=marker, color=color, label=label,
                    linestyle="-" if name == "unscaled" else "--")  # grey print: style, not colour alone
        ax.set_xscale("log", base=2)
        ax.set_xlabel("key dimension $d_k$")
        ax.set_ylabel(labels[measure])
        low, high = limits[measure]
        ax.set_ylim(low, high)
        _style(ax)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2, fontsize=SMALL_PT,
               frameon=False)
    return fig


def gradient_norms_figure(stats, width: float = 9.6, height: float = 4.1) -> Figure:
    """Gradients reaching the queries, and saturated rows, against d_k (scaled vs unscaled).

    ``stats`` is the result of :func:`~attention_scaling.attention.gradients_by_dimension`.
    """
    d, series = _by_dimension(stats, "gradients_by_dimension")
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), layout="constrained")
    ax_g, ax_s = fig.subplots(1, 2)
    for name, color in (("unscaled", COLORS["unscaled"]), ("scaled", COLORS["scaled"])):
        ax_g.plot(d, series[name]["mean |dq|"], "o-", color=color, label=f"{name}: mean over rows")
        ax_g.plot(d, series[name]["median |dq|"], "s--", color=color, markerfacecolor="white",
                  label=f"{name}: median over rows")
        ax_s.plot(d, series[name]["saturated rows"], "o-", color=color)
    ax_g.set_xscale("log", base=2)
    ax_g.set_yscale("log")
    ax_g.set_xlabel("key dimension $d_k$")
    ax_g.set_ylabel(r"$\|\partial L/\partial q_i\|_2$ (log scale)")
    ax_g.set_title("gradient reaching the queries", fontsize=TEXT_PT)
    ax_s.set_xscale("log", base=2)
    ax_s.set_ylim(0, 1)
    ax_s.set_xlabel("key dimension $d_k$")
    ax_s.set_ylabel("fraction of rows")
    ax_s.set_title(f"saturated rows: largest weight > {stats.get('saturation', 0.99):g}", fontsize=TEXT_PT)
    fig.legend(*ax_g.get_legend_handles_labels(), loc="outside lower center", ncols=2, fontsize=SMALL_PT,
               frameon=False)
    for ax in (ax_g, ax_s):
        _style(ax)
    return fig


def _break_marks(ax_top, ax_low) -> None:
    """Short slanted strokes on the left spine where a y axis is broken between two axes."""
    style = {"marker": [(-1, -0.5), (1, 0.5)], "markersize": 10, "linestyle": "none", "color": "0.2",
             "mec": "0.2", "mew": 1, "clip_on": False}
    ax_top.plot([0], [0], transform=ax_top.transAxes, **style)
    ax_low.plot([0], [1], transform=ax_low.transAxes, **style)


def training_curves_figure(runs: dict, width: float = 9.6, height: float = 4.4) -> Figure:
    """Largest logit and mean attention entropy over training steps, one line per run.

    ``runs`` maps a label to a log from :func:`~attention_scaling.normalization.train_retrieval`.
    Diverged runs end with a cross where they overflowed. When one run's largest logit
    dwarfs the others (more than 10 times the median peak), the logit axis is broken in
    two log-scaled parts: the lower part keeps the other runs apart, the upper part
    follows the large run to its end.
    """
    from matplotlib.ticker import LogLocator, NullFormatter

    if not isinstance(runs, dict) or not runs:
        raise ValueError("runs must be a non-empty dict of label -> train_retrieval log")
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), layout="constrained")
    peaks = {label: float(np.nanmax(np.abs(log["max logit"]))) for label, log in runs.items()}
    low_peak = max([p for p in peaks.values() if p <= 10 * np.median(list(peaks.values()))])
    broken = max(peaks.values()) > 10 * low_peak
    grid = fig.add_gridspec(2, 2, height_ratios=[1.0, 1.5] if broken else [1, 0], hspace=0.06)
    if broken:
        ax_big = fig.add_subplot(grid[0, 0])
        ax_z = fig.add_subplot(grid[1, 0], sharex=ax_big)
        logit_axes: tuple[Axes, ...] = (ax_big, ax_z)
    else:
        ax_z = fig.add_subplot(grid[:, 0])
        logit_axes = (ax_z,)
    ax_h = fig.add_subplot(grid[:, 1])
    styles = ["-", "--", "-.", ":"]
    for i, (label, log) in enumerate(runs.items()):
        color = COLORS["scaled"] if "QK-norm" in label else COLORS["unscaled"]
        steps = np.arange(len(log["max logit"]))
        # the upper part shows only the runs that reach it (a clipped run would leave a line along its edge)
        shown_in = [ax for ax in logit_axes if ax is ax_z or peaks[label] > 1.6 * low_peak]
        for ax in shown_in:
            ax.plot(steps, log["max logit"], styles[i % 4], color=color, label=label if ax is ax_z else None)
        ax_h.plot(steps, log["entropy"], styles[i % 4], color=color)
        if log.get("diverged_at", -1) >= 0:
            last = log["diverged_at"] - 1
            for ax in shown_in:
                ax.plot([last], [log["max logit"][last]], "x", color=color, markersize=9, mew=2)
    for ax in logit_axes:
        ax.set_yscale("log")
        _style(ax)
    floor = min(float(np.nanmin(np.abs(log["max logit"]))) for log in runs.values())
    if broken:
        ax_z.set_ylim(0.8 * floor, 1.6 * low_peak)
        nice = [x for x in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if 0.8 * floor <= x <= 1.6 * low_peak]
        ax_z.set_yticks(nice, [f"{x:g}" for x in nice])
        ax_z.yaxis.set_minor_formatter(NullFormatter())
        ax_big.set_ylim(1.6 * low_peak, 10 * max(peaks.values()))
        ax_big.yaxis.set_major_locator(LogLocator(base=10, numticks=4))
        ax_big.spines["bottom"].set_visible(False)
        ax_big.tick_params(axis="x", which="both", bottom=False, labelbottom=False)
        ax_big.set_title("largest |logit| in the batch (log scale, axis broken)", fontsize=TEXT_PT)
        _break_marks(ax_big, ax_z)
    else:
        ax_z.set_title("largest |logit| in the batch (log scale)", fontsize=TEXT_PT)
    ax_z.set_xlabel("training step")
    ax_h.set_title("mean attention entropy (nats)", fontsize=TEXT_PT)
    ax_h.set_xlabel("training step")
    ax_h.set_ylim(bottom=0)
    _style(ax_h)
    fig.legend(*ax_z.get_legend_handles_labels(), loc="outside lower center", ncols=len(runs), fontsize=SMALL_PT,
               frameon=False)
    return fig


def aligned_dots_figure(stats_by_alignment: dict, width: float = 9.6, height: float = 3.8) -> Figure:
    """Mean q·k against d_k for several alignments, raw and divided by sqrt(d_k) and by d_k."""
    if not isinstance(stats_by_alignment, dict) or not stats_by_alignment:
        raise ValueError("stats_by_alignment must be a non-empty dict of alignment -> aligned_dot_products()")
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), layout="constrained")
    axes = fig.subplots(1, 3)
    titles = [r"mean $q\cdot k$ (log scale)", r"mean $q\cdot k/\sqrt{d_k}$", r"mean $q\cdot k/d_k$"]
    for rho, st in stats_by_alignment.items():
        d = st["d_values"]
        for i, (ax, divide) in enumerate(zip(axes, (1.0, np.sqrt(d), d))):
            if i == 0 and not (st["mean"] > 0).all():
                ax.plot([], [], "o-", label=rf"$\rho$ = {rho:g} (mean near 0: not on the log axis)")
                continue
            ax.plot(d, st["mean"] / divide, "o-", label=rf"$\rho$ = {rho:g}")
    for ax, title in zip(axes, titles):
        ax.set_xscale("log", base=2)
        ax.set_title(title, fontsize=TEXT_PT)
        ax.set_xlabel("key dimension $d_k$")
        _style(ax)
    axes[0].set_yscale("log")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=len(stats_by_alignment),
               fontsize=SMALL_PT, frameon=False)
    return fig


def layernorm_placement_diagram(width: float = 9.6, height: float = 4.0) -> Figure:
    """Block diagram of a Post-LN and a Pre-LN Transformer layer (Xiong et al. 2020).

    Each row is the main path from left to right; the residual paths leave it before each
    sublayer (before attention and before FFN in Post-LN, before the LayerNorm that opens
    each branch in Pre-LN) and run above it into the 'add' block.
    """
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 4.0)
    ax.axis("off")
    rows = {
        "Post-LN (original Transformer): LayerNorm after each residual addition":
            (["x", "attention", "add", "LayerNorm", "FFN", "add", "LayerNorm"], [(0, 2), (3, 5)]),
        "Pre-LN: LayerNorm at the start of each residual branch":
            (["x", "LayerNorm", "attention", "add", "LayerNorm", "FFN", "add"], [(0, 3), (3, 6)]),
    }
    fills = {"LayerNorm": "#ffe08a", "attention": "#cfe3f7", "FFN": "#cfe3f7", "add": "#eeeeee", "x": "white"}
    residual = "#2e7d32"
    for r, (title, (blocks, skips)) in enumerate(rows.items()):
        y = 2.65 - 2.0 * r
        ax.text(0.1, y + 1.05, title, fontsize=TEXT_PT, fontweight="bold", va="center")
        xs = np.linspace(0.6, 9.3, len(blocks))
        for i, (x, name) in enumerate(zip(xs, blocks)):
            ax.add_patch(FancyBboxPatch((x - 0.55, y - 0.22), 1.1, 0.44, boxstyle="round,pad=0.02",
                                        facecolor=fills[name], edgecolor="0.3"))
            ax.text(x, y, name, ha="center", va="center", fontsize=SMALL_PT)
            if i:
                ax.add_patch(FancyArrowPatch((xs[i - 1] + 0.57, y), (x - 0.57, y), arrowstyle="-|>",
                                             mutation_scale=10, color="0.3"))
        for j, (start, end) in enumerate(skips):
            # the residual path leaves the main path just after block `start` and enters `end` from above
            x0, x1, top = xs[start] + 0.75, xs[end], y + 0.62
            ax.plot([x0, x0, x1], [y, top, top], color=residual, linewidth=1.8, solid_joinstyle="round")
            ax.plot([x0], [y], "o", color=residual, markersize=4)
            ax.add_patch(FancyArrowPatch((x1, top), (x1, y + 0.25), arrowstyle="-|>", mutation_scale=12,
                                         color=residual, linewidth=1.8))
            ax.text((x0 + x1) / 2, top + 0.04, "residual path", ha="center",
                    va="bottom", fontsize=SMALL_PT, color=residual)
    return fig


DTYPE_STYLES = {"float16": ("#d62728", "o"), "float32": ("#ff7f0e", "s"), "float64": ("#1f4e79", "D")}


def softmax_error_figure(errors, width: float = 8.4, height: float = 3.6) -> Figure:
    """Naive (left) and stable (right) softmax error against the largest score, per dtype.

    ``errors`` is the result of :func:`~attention_scaling.stability.softmax_errors`: the
    largest *absolute* error over the weights, :math:`\\max_i |\\hat P_i - P_i|`, as the
    y label says. Errors are drawn on a log axis; a result that is not finite (NaN in ``errors``) is
    drawn as a cross on the band labelled "inf or NaN" above the axis's numbers. Dotted
    vertical lines mark each dtype's overflow threshold ln(max).
    """
    try:
        scales = np.asarray(errors["scales"], dtype=np.float64)
        names = list(errors["dtypes"])
        panels = {kind: [np.asarray(errors[kind][n], dtype=np.float64) for n in names] for kind in ("naive", "stable")}
        thresholds = [float(errors["threshold"][n]) for n in names]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError("errors must come from stability.softmax_errors()") from exc
    floor, band = 1e-20, 1e3
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), layout="constrained")
    cast(Any, fig.get_layout_engine()).set(wspace=0.08)  # keep 10^4 and 10^0 of the two x axes apart
    axes = fig.subplots(1, 2, sharey=True)
    titles = {"naive": "naive: the formula as written", "stable": "stable: the maximum subtracted first"}
    for ax, kind in zip(axes, ("naive", "stable")):
        for i, (name, err, t) in enumerate(zip(names, panels[kind], thresholds)):
            color, marker = DTYPE_STYLES.get(name, ("0.3", "o"))
            bad = ~np.isfinite(err)
            shown = np.where(bad, np.nan, np.maximum(err, floor))
            ax.plot(scales, shown, color=color, marker=marker, markersize=3, linewidth=1.4, label=name)
            if bad.any():  # each format's failures on a row of its own inside the band, none hidden
                row = band * (0.5, 1.0, 2.0)[i % 3]
                ax.plot(scales[bad], np.full(bad.sum(), row), "x", color=color, markersize=5)
            ax.axvline(t, color=color, linestyle=":", linewidth=1.2)
        ax.axhspan(band / 3, band * 4, color="0.93", zorder=0)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(scales.min(), scales.max())
        ax.set_ylim(floor / 3, band * 4)
        ax.set_yticks([1e-20, 1e-15, 1e-10, 1e-5, 1, band],
                      [r"$\leq 10^{-20}$", "$10^{-15}$", "$10^{-10}$", "$10^{-5}$", "1", "inf or NaN"])
        ax.set_xlabel("largest score $s$ (log scale)")
        ax.set_title(titles[kind], fontsize=TEXT_PT)
        _style(ax)
    axes[0].set_ylabel("largest absolute error,\n" r"$|\hat P_i - P_i|$ over the weights")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(names), fontsize=SMALL_PT, frameon=False)
    return fig


def overflow_fraction_figure(fractions, width: float = 6.4, height: float = 3.4) -> Figure:
    """Fraction of scores above a format's overflow threshold against d_k, unscaled and scaled.

    ``fractions`` is the result of :func:`~attention_scaling.stability.overflow_fraction`:
    the sampled fractions as points (no line joins them), with error bars of ± one
    standard error, and the exact probabilities as dashed lines where ``fractions`` holds
    them. The dashed lines are drawn above the points and the grid, so that an exact line
    that coincides with the sample (the scaled one lies on 0) stays visible between them.
    """
    try:
        d = np.asarray(fractions["d_values"], dtype=np.float64)
        series = {name: np.asarray(fractions[name], dtype=np.float64) for name in ("unscaled", "scaled")}
        dtype = str(fractions["dtype"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError("fractions must come from stability.overflow_fraction()") from exc
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), layout="constrained")
    ax = fig.add_subplot()
    styles = (("unscaled", COLORS["unscaled"], "o", r"unscaled $q\cdot k$"),
              ("scaled", COLORS["scaled"], "s", r"scaled $q\cdot k/\sqrt{d_k}$"))
    for name, color, marker, label in styles:  # points only: a joining line would hide the exact one
        ax.plot(d, series[name], marker=marker, linestyle="none", color=color, markersize=7, zorder=3,
                label=f"{label}: sample" + (" ± s.e." if f"{name} se" in fractions else ""))
    for name, color, marker, label in styles:
        if f"{name} se" in fractions:  # ± one standard error
            ax.errorbar(d, series[name], yerr=np.asarray(fractions[f"{name} se"], dtype=np.float64),
                        fmt="none", ecolor=color, capsize=4, linewidth=1.2, zorder=3)
        if f"{name} exact" in fractions:
            ax.plot(d, np.asarray(fractions[f"{name} exact"], dtype=np.float64), linestyle=(0, (5, 3)),
                    color=color, linewidth=1.8, zorder=4, label=f"{label}: exact")
    ax.set_xscale("log", base=2)
    ax.set_xticks(d, [str(int(x)) for x in d])
    ax.set_ylim(-0.02, max(0.5, float(series["unscaled"].max()) + 0.05))
    ax.set_xlabel("key dimension $d_k$")
    ax.set_ylabel(f"fraction of scores above\nthe {dtype} threshold")
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: (0 if labels[i].startswith("unscaled") else 1, i))
    ax.legend([handles[i] for i in order], [labels[i] for i in order], fontsize=SMALL_PT, loc="upper left")
    _style(ax)
    return fig

# --- live figures: built once, updated in place, blitted -----------------------------------


class BlitFigure:
    """A figure drawn once, whose changing artists are redrawn alone (blitting).

    Subclasses build their axes in ``__init__``, register the artists that change with
    :meth:`_animate`, and implement :meth:`update`. Axis limits never change, so the
    saved background stays valid and a frame costs only the changed artists.
    """

    # The panel a phone's player opens on (static_html: its scroller starts there), when it is
    # not the first: a subclass sets it to one of its axes.
    key_axes: Any = None
    state: dict[str, Any]  # what the last update drew (its subclass says what)

    def __init__(self, fig: Figure):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.fig = fig
        self.canvas = FigureCanvasAgg(fig)
        self._dynamic: list = []
        self._background: Any = None
        self._smallest_pt: float | None = None  # the smallest font size, measured once with the background

    def _animate(self, *artists):
        for artist in artists:
            artist.set_animated(True)
            self._dynamic.append(artist)
        return artists[0] if len(artists) == 1 else artists

    def update(self, *args: Any, **params: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def render(self) -> np.ndarray:
        """The current frame as an RGBA array of shape (height, width, 4)."""
        if self._background is None:
            self._smallest_pt = make_legible(self.fig)
            self.canvas.draw()  # lays out the figure and draws everything not animated
            self.fig.set_layout_engine("none")  # freeze the layout: later frames only blit
            self._background = self.canvas.copy_from_bbox(self.fig.bbox)
        self.canvas.restore_region(self._background)
        for artist in self._dynamic:
            self.fig.draw_artist(artist)
        return np.asarray(self.canvas.buffer_rgba())

    def png(self, compress_level: int = 1) -> bytes:
        """The current frame as PNG bytes, encoded fast (:func:`fast_png`).

        An opaque frame (the live figures' are) is saved as RGB (72 kB for the attention
        figure, 80 kB as RGBA, and faster to encode). A palette would halve the bytes, but the fast octree
        shifts white to grey and drops the Jacobian's faint cells, and the faithful
        quantisers cost more time than the bytes save. The font-size chunk reuses the size
        measured when the background was drawn (measuring it again cost 15 ms a frame).
        The live widget sends :meth:`live_layer_png` instead, over :meth:`live_background_png`.
        """
        frame = self.render()
        if (frame[..., 3] == 255).all():
            frame = frame[..., :3]
        return fast_png(frame, self.fig.dpi, self._measured_pt(), compress_level)

    def live_background_png(self) -> bytes:
        """Everything that never changes, exactly (RGB, :func:`fast_png`): the live widget sends it once.

        Unlike :meth:`background_png` it is not quantised, so :meth:`live_layer_png` laid over it
        gives the blitted frame to within the rounding of alpha blending.
        """
        self._ensure_background()
        self.canvas.restore_region(self._background)
        rgba = np.asarray(self.canvas.buffer_rgba())
        return fast_png(rgba[..., :3] if (rgba[..., 3] == 255).all() else rgba, self.fig.dpi, self._measured_pt())

    def live_layer_png(self) -> bytes:
        """Only the changing artists on a transparent canvas, RGBA, not quantised, encoded fast
        (:func:`fast_png`): what the live widget sends per change, stacked over
        :meth:`live_background_png`.

        The attention figure's layer is about 22 kB, against 71 kB for the full frame, and it
        skips restoring the background; 90 % of its pixels are transparent.
        """
        self._ensure_background()
        renderer = self.canvas.get_renderer()
        renderer.clear()  # transparent
        for artist in self._dynamic:
            self.fig.draw_artist(artist)
        return fast_png(np.asarray(self.canvas.buffer_rgba()), self.fig.dpi, self._measured_pt())

    def key_panel_start(self) -> float | None:
        """Where :attr:`key_axes` begins, its tick labels included, as a fraction of the
        figure's width (in [0, 1)); None when the figure names no key panel."""
        if self.key_axes is None:
            return None
        return self._start_of(self.key_axes)

    def panel_start(self, index: int) -> float:
        """Where panel ``index`` (0 = the leftmost) begins, as :meth:`key_panel_start` says it."""
        panels = sorted(self.fig.axes, key=lambda ax: ax.get_position().x0)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(panels):
            raise ValueError(f"index must be a panel from 0 to {len(panels) - 1}, got {index!r}")
        return self._start_of(panels[index])

    def _start_of(self, axes) -> float:
        self._ensure_background()  # the layout is final once the background is drawn
        box = axes.get_tightbbox(self.canvas.get_renderer())
        return float(np.clip(box.x0 / self.fig.bbox.width, 0.0, 0.99))

    def _ensure_background(self) -> None:
        if self._background is None:
            self.render()

    def _measured_pt(self) -> float:
        """The smallest font size, measured when the background was drawn."""
        self._ensure_background()
        assert self._smallest_pt is not None  # render() measures it with the background
        return self._smallest_pt

    def background_png(self) -> bytes:
        """Everything that never changes (axes, labels, legends) as one optimised PNG.

        The picture has few colours (white, text greys, a few marks), so a 256-colour palette
        without dithering keeps it visually identical (mean error about 0.005 of 255) at less
        than half the bytes of RGB: room in a page's weight for legible text in the frames.
        """
        from PIL import Image

        self._ensure_background()
        self.canvas.restore_region(self._background)
        buf = io.BytesIO()
        info, dpi = _png_info(self.fig, self.fig.dpi)
        rgb = Image.fromarray(np.asarray(self.canvas.buffer_rgba())[..., :3].copy())
        rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            buf, format="PNG", optimize=True, pnginfo=info, dpi=dpi)
        return buf.getvalue()

    def layer_png(self, colors: int = 32) -> bytes:
        """Only the changing artists, on a transparent canvas, quantised (for static players).

        Laid over :meth:`background_png` this is exactly the blitted frame, so a static
        player ships the background once and a small layer per grid point.
        """
        from PIL import Image

        self._ensure_background()
        renderer = self.canvas.get_renderer()
        renderer.clear()  # transparent
        for artist in self._dynamic:
            self.fig.draw_artist(artist)
        rgba = Image.fromarray(np.asarray(self.canvas.buffer_rgba()).copy())
        layer = rgba.quantize(colors=v.positive_int(colors, "colors"), method=Image.Quantize.FASTOCTREE)
        buf = io.BytesIO()
        info, dpi = _png_info(self.fig, self.fig.dpi)
        layer.save(buf, format="PNG", optimize=True, pnginfo=info, dpi=dpi)
        return buf.getvalue()

    def _repr_png_(self) -> bytes:
        return self.png()


def _expectation_marks(ax, color: str, linestyle: str, band: bool = True):
    """A band (the middle 80 % of many draws) and a horizontal line (their mean), to animate.

    Their z-order puts them above every fixed artist, in the order a blit draws them, so a
    full redraw and a blitted frame agree. ``band=False`` gives the line alone.
    """
    line = ax.axhline(0.0, color=color, linestyle=linestyle, linewidth=1.6, zorder=3.1)
    if not band:
        return (line,)
    return ax.axhspan(0.0, 0.0, color=color, alpha=0.13, linewidth=0, zorder=3), line


def _set_expectation(marks, e) -> None:
    """Move a (band and) line from :func:`_expectation_marks` to an :class:`~.numerics.Expectation`."""
    line = marks[-1]
    line.set_ydata([e.mean, e.mean])
    if len(marks) == 2:
        band = marks[0]
        if hasattr(band, "set_height"):  # axhspan gives a Rectangle (matplotlib ≥ 3.9) ...
            band.set_y(e.low)
            band.set_height(e.high - e.low)
        else:  # ... or a Polygon in axes-x, data-y coordinates (3.8)
            band.set_xy([(0, e.low), (0, e.high), (1, e.high), (1, e.low)])


def _expectations(p, axis: int = -1) -> dict:
    """Mean (with standard error and 10–90 % band) of each measure over the rows of ``p``."""
    from .numerics import expectation, weight_measures

    return {name: expectation(x) for name, x in weight_measures(p, axis=axis).items()}


def _readouts(p) -> dict:
    """The measures of one weight vector ``p`` as floats: the explorers' readouts. The largest
    P(1-P) forms 1 - P from the other weights, as :func:`weight_measures` does."""
    from .numerics import weight_measures

    return {name: float(x) for name, x in weight_measures(p).items()}


def _grouped_bar_edges(n: int, slot: int) -> tuple[np.ndarray, np.ndarray]:
    """Edges of bar ``slot`` (0 or 1) of each of ``n`` groups on [0, 1], with gaps between."""
    left = (np.arange(n) + 0.1 + 0.4 * slot) / n
    edges = np.empty(2 * n)
    edges[0::2] = left
    edges[1::2] = left + 0.4 / n
    return edges, np.zeros(2 * n - 1)


def _bar_values(values: np.ndarray) -> np.ndarray:
    """Interleave bar heights with the zero-height gaps between bars."""
    out = np.zeros(2 * len(values) - 1)
    out[0::2] = values
    return out


#: Key dimensions offered by the d_k slider: powers of two, a log scale.
D_VALUES = tuple(2**i for i in range(11))
#: Largest number of keys the explorer draws.
MAX_KEYS = 64
#: Magnitudes the slider allows (standard deviation of each component).
MAGNITUDE_RANGE = (0.1, 10.0)
#: Histogram bins for |q·k|: logarithmic, 6 per decade, fixed for every setting.
SCORE_EDGES = np.logspace(-4, 4.5, 52)


class AttentionFigure(BlitFigure):
    r"""The main explorable's figure: unscaled vs scaled (÷√d_k) attention, three panels.

    1. the attention weights of one query over ``n_keys`` keys;
    2. the curve :math:`P(1-P)` with every weight marked on it;
    3. the distribution of :math:`|q\cdot k|` over many random pairs on a log axis, against
       the prediction from :math:`q\cdot k \sim \mathcal N(0, m^4 d_k)` (unscaled) and
       :math:`\mathcal N(0, m^4)` (scaled). A log axis keeps every setting in view.

    Vectors are drawn once per seed at the largest :data:`D_VALUES`; see
    :func:`~attention_scaling.numerics.score_sample`. The query and keys shown are
    :func:`~attention_scaling.numerics.shared_draw` (the same on every page); the lines in
    panels 1 and 2 are the mean, and the bands in panel 1 the middle 80 %, over the
    :data:`~attention_scaling.numerics.ENSEMBLE_QUERIES` queries of
    :func:`~attention_scaling.numerics.query_ensemble` for the same seed.
    """

    def __init__(self, n_pairs: int = 2000, width: float = 9.6, height: float = 3.95, dpi: int = 100):
        from .numerics import ENSEMBLE_QUERIES, score_sample

        self._score_sample = score_sample
        self.n_pairs = v.positive_int(n_pairs, "n_pairs")
        self._samples: dict[int, object] = {}
        self._ensembles: dict[int, np.ndarray] = {}
        fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")),
                     dpi=v.positive_int(dpi, "dpi"), layout="constrained")
        super().__init__(fig)
        ax_w, ax_g, ax_h = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.15, 1.0, 1.25]})
        self.key_axes = ax_h  # the spread of q·k carries the √d_k story: a phone opens on it
        red, blue = COLORS["unscaled"], COLORS["scaled"]

        ax_w.set_title("weights of one draw", fontsize=TEXT_PT)
        self.bars_u = self._animate(ax_w.stairs(*reversed(_grouped_bar_edges(8, 0)), fill=True, color=red,
                                                label=r"unscaled softmax$(q\cdot k)$"))
        # In grey print the colours look alike: scaled bars are outlined (white inside), unscaled filled.
        self.bars_s = self._animate(ax_w.stairs(*reversed(_grouped_bar_edges(8, 1)), fill=True, facecolor="white",
                                                edgecolor=blue, linewidth=1.2,
                                                label=r"scaled softmax$(q\cdot k/\sqrt{d_k})$"))
        ax_w.set_xlim(0, 1)
        ax_w.set_ylim(0, 1.02)
        ax_w.set_xticks([])
        ax_w.set_xlabel("keys (a pair of bars each)")
        ax_w.set_ylabel("weight $P_j$")
        # solid lines: a dashed line costs about 250 bytes more in every static frame
        self.mean_w_u = self._animate(*_expectation_marks(ax_w, red, "-"))
        self.mean_w_s = self._animate(*_expectation_marks(ax_w, blue, "--"))  # dashed: legible in grey

        ax_g.set_title(r"gradient $P(1-P)$", fontsize=TEXT_PT)
        grid = np.linspace(0, 1, 201)
        ax_g.plot(grid, diagonal_gradient(grid), color="0.55", linewidth=1.5)
        self.marks_u = self._animate(ax_g.plot([], [], "o", color=red, markersize=6, alpha=0.8, clip_on=False)[0])
        self.marks_s = self._animate(ax_g.plot([], [], "s", color=blue, markersize=5, alpha=0.8, clip_on=False,
                                               markerfacecolor="white")[0])
        ax_g.set_xlim(0, 1)
        ax_g.set_ylim(0, 0.27)
        ax_g.set_xlabel("weight $P_j$")
        ax_g.set_ylabel(r"$\partial P_j/\partial z_j$")
        # lines alone here: bands in this panel cost about 20 kB over a static player's frames
        self.mean_g_u = (self._animate(*_expectation_marks(ax_g, red, "-", band=False)),)
        self.mean_g_s = (self._animate(*_expectation_marks(ax_g, blue, "--", band=False)),)
        ax_g.plot([], [], "-", color="0.35", linewidth=6, alpha=0.25,
                  label=f"line, band: mean, middle 80 %, {ENSEMBLE_QUERIES} queries")

        ax_h.set_title(rf"$|q\cdot k|$ of {self.n_pairs} random pairs", fontsize=TEXT_PT)
        zeros = np.zeros(len(SCORE_EDGES) - 1)
        self.hist_u = self._animate(ax_h.stairs(zeros, SCORE_EDGES, fill=True, color=red, alpha=0.45))
        self.hist_s = self._animate(ax_h.stairs(zeros, SCORE_EDGES, fill=True, color=blue, alpha=0.45, hatch="///"))
        self.pred_u = self._animate(ax_h.stairs(zeros, SCORE_EDGES, color="#7b1113", linewidth=1.3, linestyle="--",
                                                label=r"predicted, $\mathcal{N}(0, m^4 d_k)$"))
        self.pred_s = self._animate(ax_h.stairs(zeros, SCORE_EDGES, color="#0b3d66", linewidth=1.3, linestyle=":",
                                                label=r"predicted, $\mathcal{N}(0, m^4)$"))
        ax_h.set_xscale("log")
        ax_h.set_xlim(SCORE_EDGES[0], SCORE_EDGES[-1])
        ax_h.set_ylim(0, 0.3)
        ax_h.set_xlabel(r"$|$score$|$ (log scale)")
        ax_h.set_ylabel("fraction of pairs per bin")
        for ax in (ax_w, ax_g, ax_h):
            _style(ax)
        fig.legend(loc="outside lower center", ncols=3, fontsize=SMALL_PT, frameon=False, columnspacing=1.2)
        # The setting, as a title; a long placeholder reserves its space in the layout.
        # The one draw's setting, as plain text (each glyph costs bytes in every static frame).
        self.label = self._animate(fig.suptitle("one draw: $d_k$ = 1024, $m$ = 10.00, 64 keys, seed 99", fontsize=TEXT_PT))
        self.state: dict = {}
        self.update()

    def sample(self, seed: int):
        """The precomputed vectors for ``seed`` (cached; a few are kept)."""
        if seed not in self._samples:
            if len(self._samples) >= 4:
                self._samples.pop(next(iter(self._samples)))
            self._samples[seed] = self._score_sample(D_VALUES, MAX_KEYS, self.n_pairs, seed)
        return self._samples[seed]

    def ensemble(self, seed: int) -> np.ndarray:
        """Unit scores of the many-query ensemble for ``seed``, at every d_k (cached; a few are kept)."""
        from .numerics import ENSEMBLE_QUERIES, ensemble_prefix_scores

        if seed not in self._ensembles:
            if len(self._ensembles) >= 4:
                self._ensembles.pop(next(iter(self._ensembles)))
            self._ensembles[seed] = ensemble_prefix_scores(D_VALUES, ENSEMBLE_QUERIES, seed)
        return self._ensembles[seed]

    def update(self, d_k: int = 64, magnitude: float = 1.0, n_keys: int = 16, seed: int = 0) -> None:
        """Show the given setting. Only artist data changes; the axes stay fixed."""
        from .numerics import normal_cdf, softmax

        if d_k not in D_VALUES:
            raise ValueError(f"d_k must be one of {list(D_VALUES)}, got {d_k!r}")
        m = v.positive_real(magnitude, "magnitude")
        if not MAGNITUDE_RANGE[0] <= m <= MAGNITUDE_RANGE[1]:
            raise ValueError(f"magnitude must lie in {list(MAGNITUDE_RANGE)}, got {m}")
        n = v.positive_int(n_keys, "n_keys", minimum=2)
        if n > MAX_KEYS:
            raise ValueError(f"n_keys must be <= {MAX_KEYS}, got {n}")
        seed = v.positive_int(seed, "seed", minimum=0)
        sample = self.sample(seed)
        row = sample.index(d_k)
        root = float(np.sqrt(d_k))

        z_u = m * m * sample.scores[row, :n]
        z_s = z_u / root
        p_u, p_s = softmax(z_u), softmax(z_s)
        for bars, slot, p in ((self.bars_u, 0, p_u), (self.bars_s, 1, p_s)):
            edges, _ = _grouped_bar_edges(n, slot)
            bars.set_data(_bar_values(p), edges)
        self.marks_u.set_data(p_u, diagonal_gradient(p_u, axis=-1))  # 1 - P from the other weights
        self.marks_s.set_data(p_s, diagonal_gradient(p_s, axis=-1))

        size_u = np.abs(m * m * sample.pair_dots[row])
        lo, hi = SCORE_EDGES[0], SCORE_EDGES[-1]  # values beyond the axis count in the end bins
        count_u = np.histogram(np.clip(size_u, lo, hi), SCORE_EDGES)[0] / size_u.size
        count_s = np.histogram(np.clip(size_u / root, lo, hi), SCORE_EDGES)[0] / size_u.size
        open_edges = SCORE_EDGES.copy()
        open_edges[0], open_edges[-1] = 0.0, np.inf
        # |X| for X ~ N(0, sigma^2): P(a < |X| < b) = 2 (Phi(b / sigma) - Phi(a / sigma))
        pred_u = 2 * np.diff(normal_cdf(open_edges, m * m * root))
        pred_s = 2 * np.diff(normal_cdf(open_edges, m * m))
        self.hist_u.set_data(count_u)
        self.hist_s.set_data(count_s)
        self.pred_u.set_data(pred_u)
        self.pred_s.set_data(pred_s)
        ens_u = m * m * self.ensemble(seed)[row, :, :n]
        expect = {"unscaled": _expectations(softmax(ens_u)), "scaled": _expectations(softmax(ens_u / root))}
        for name, w_marks, g_marks in (("unscaled", self.mean_w_u, self.mean_g_u),
                                       ("scaled", self.mean_w_s, self.mean_g_s)):
            _set_expectation(w_marks, expect[name]["max weight"])
            _set_expectation(g_marks, expect[name]["largest P(1-P)"])
        self.label.set_text(f"one draw: $d_k$ = {d_k}, $m$ = {m:.2f}, {n} keys, seed {seed}")

        self.state = {
            "params": {"d_k": d_k, "magnitude": m, "n_keys": n, "seed": seed},
            "z_unscaled": z_u, "z_scaled": z_s, "p_unscaled": p_u, "p_scaled": p_s,
            "hist_unscaled": count_u, "hist_scaled": count_s, "pred_unscaled": pred_u, "pred_scaled": pred_s,
            "readouts": {
                name: _readouts(p) for name, p in (("unscaled", p_u), ("scaled", p_s))
            },
            "expectation": expect,
            "n_queries": len(ens_u),
            "max_entropy": float(np.log(n)),
        }


class ScaleFigure(BlitFigure):
    r"""One score vector multiplied by a scale :math:`s` (an inverse temperature, :math:`s = 1/T`).

    Panels: the softmax output, the diagonal gradients :math:`P_i(1-P_i)`, and the whole
    Jacobian :math:`\operatorname{diag}(P) - PP^\top` as a heatmap. The scores are one draw
    of ``n_scores`` standard normals; lines and bands in the first two panels show the mean
    and middle 80 % of the largest weight and the largest :math:`P_i(1-P_i)` over
    ``n_draws`` such draws (draw 0 is the one shown, before sorting).
    """

    SCALE_RANGE = (0.05, 100.0)
    #: The gradients P(1−P) (the second panel) carry this explorer's story: a phone opens on them.
    key_axes = property(lambda self: self.fig.axes[1])

    def __init__(self, n_scores: int = 8, seed: int = 0, width: float = 9.6, height: float = 3.4, dpi: int = 100,
                 n_draws: int = 200):
        n = v.positive_int(n_scores, "n_scores", minimum=2)
        n_draws = v.positive_int(n_draws, "n_draws", minimum=2)
        rng = v.generator(seed)
        self.seed = int(seed) if isinstance(seed, (int, np.integer)) else None  # None: a Generator was given
        first = rng.standard_normal(n)
        self.z = np.sort(first)[::-1]
        # the same stream continued: with an int seed this is default_rng(seed).standard_normal((n_draws, n))
        self.z_draws = np.vstack([first, rng.standard_normal((n_draws - 1, n))])
        fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")),
                     dpi=v.positive_int(dpi, "dpi"), layout="constrained")
        super().__init__(fig)
        ax_p, ax_g, ax_j = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.0, 1.0, 0.85]})
        idx = np.arange(n + 1) - 0.5
        self._bar_edges = np.repeat(np.arange(n), 2) + np.tile([-0.36, 0.36], n)
        ax_p.set_title(r"weights $P = \mathrm{softmax}(s\,z)$", fontsize=TEXT_PT)
        self.bars_p = self._animate(ax_p.stairs(np.zeros(2 * n - 1), self._bar_edges, fill=True, color=COLORS["weight"]))
        ax_p.set_ylim(0, 1.02)
        ax_p.set_ylabel("weight $P_i$")
        self.mean_p = self._animate(*_expectation_marks(ax_p, "0.25", "--"))
        # no legend: the title above the panels says what the dashed line is
        ax_g.set_title(r"gradient $P_i(1-P_i)$", fontsize=TEXT_PT)
        self.bars_g = self._animate(ax_g.stairs(np.zeros(2 * n - 1), self._bar_edges, fill=True, color=COLORS["gradient"]))
        ax_g.axhline(0.25, color="0.5", linestyle=":", linewidth=1)
        self.mean_g = self._animate(*_expectation_marks(ax_g, "0.25", "--"))
        ax_g.set_ylim(0, 0.27)
        for ax in (ax_p, ax_g):
            ax.set_xlim(idx[0], idx[-1])
            ax.set_xticks(range(n), [f"{i + 1}" for i in range(n)])
            ax.set_xlabel("index $i$, largest score first")
            _style(ax)
        ax_j.set_title(r"Jacobian $\partial P_i/\partial z_j$", fontsize=TEXT_PT)
        # purple above 0 (the diagonal, the gradient bars' colour), orange below: not red/blue.
        # Ten steps of 0.05: a layer's 32-colour palette holds them exactly, and the colour bar
        # reads as steps rather than a ramp the palette would band anyway.
        import matplotlib

        steps = matplotlib.colormaps["PuOr"].resampled(10)
        self.heat = self._animate(ax_j.imshow(np.zeros((n, n)), cmap=steps, vmin=-0.25, vmax=0.25))
        # the sign in marks too, for a greyscale print: + above 0 (the diagonal), − below 0
        from matplotlib.patheffects import withStroke

        halo = [withStroke(linewidth=3.2, foreground="white")]  # legible on the dark cells too
        self.signs = {sign: self._animate(ax_j.scatter([], [], marker=marker, s=34, linewidths=1.3, color="0.05",
                                                       path_effects=halo))
                      for sign, marker in ((1, "+"), (-1, "_"))}
        ax_j.set_xticks(range(n), [f"{i + 1}" for i in range(n)])
        ax_j.set_yticks(range(n), [f"{i + 1}" for i in range(n)])
        ax_j.set_xlabel("$j$")
        ax_j.set_ylabel("$i$")
        fig.colorbar(self.heat, ax=ax_j, shrink=0.85)
        self.label = self._animate(fig.suptitle("one draw of 8 scores at scale $s$ = 0.000 (temperature $T = 1/s$ = 0.000)\n"
                                                "dashed line and grey band: the largest, mean and middle 80 % of 200 draws",
                                                fontsize=TEXT_PT))
        self.state: dict = {}
        self.update()

    def update(self, scale: float = 1.0) -> None:
        from .numerics import expectation, softmax, softmax_jacobian

        s = v.positive_real(scale, "scale")
        if not self.SCALE_RANGE[0] <= s <= self.SCALE_RANGE[1]:
            raise ValueError(f"scale must lie in {list(self.SCALE_RANGE)}, got {s}")
        p = softmax(s * self.z)
        g = diagonal_gradient(p, axis=-1)  # 1 - P from the other weights, as in the Jacobian
        jac = softmax_jacobian(p)
        self.bars_p.set_data(_bar_values(p))
        self.bars_g.set_data(_bar_values(g))
        self.heat.set_data(jac)
        for sign, marks in self.signs.items():
            marks.set_offsets(np.argwhere(np.sign(jac) == sign)[:, ::-1].reshape(-1, 2))
        p_draws = softmax(s * self.z_draws)
        expect = _expectations(p_draws)
        expect["norm of J"] = expectation(np.linalg.eigvalsh(softmax_jacobian(p_draws))[..., -1])
        _set_expectation(self.mean_p, expect["max weight"])
        _set_expectation(self.mean_g, expect["largest P(1-P)"])
        self.label.set_text(f"one draw of {len(p)} scores at scale $s$ = {s:.3g} (temperature $T = 1/s$ = {1 / s:.3g})\n"
                            f"dashed line and grey band: the largest, mean and middle 80 % of {len(p_draws)} draws")
        self.state = {"params": {"scale": s, "seed": self.seed}, "p": p, "gradient": g, "jacobian": jac,
                      "expectation": expect, "n_draws": len(p_draws),
                      "readouts": {**_readouts(p), "norm of J": float(np.linalg.eigvalsh(jac)[-1])},
                      "max_entropy": float(np.log(len(p)))}


class NormalizationFigure(BlitFigure):
    """Attention weights of one query under three normalisations, as the vector magnitude grows.

    Modes: ``"scaled"`` (divide by √d_k), ``"qk-l2"`` (QK-norm with gain ``gain``, √d_k
    by default) and ``"qk-layernorm"`` (LayerNorm on q and k, then divide by √d_k). Left:
    the weights of the current mode for one draw, :func:`~attention_scaling.numerics.shared_draw`
    (the same query and keys as the attention explorer at this ``d_k``, keys and seed), with
    a line and band for the mean and middle 80 % of the largest weight over the queries of
    :func:`~attention_scaling.numerics.query_ensemble`. Right: that mean (curves) and band
    against the magnitude for every mode, with the one draw at the current setting marked.
    The QK-norm curve and band move with the gain; the other two do not depend on it.
    """

    MODES = ("scaled", "qk-l2", "qk-layernorm")
    #: Legend entries (mathtext).
    LABELS = {"scaled": r"$q\cdot k/\sqrt{d_k}$", "qk-l2": r"QK-norm: $g\,\hat q\cdot\hat k$",
              "qk-layernorm": r"LayerNorm on $q$, $k$"}
    #: The modes' names in words, for titles, readouts and controls.
    NAMES = {"scaled": "scaled by 1/√d_k", "qk-l2": "QK-norm", "qk-layernorm": "LayerNorm on q and k"}
    #: The same names with their maths marked up as TeX between dollars.
    TEX_NAMES = {"scaled": r"scaled by $1/\sqrt{d_k}$", "qk-l2": "QK-norm", "qk-layernorm": r"LayerNorm on $q$ and $k$"}
    #: Gains the QK-norm curve can be drawn at (the live slider and the static player's grid).
    GAIN_RANGE = (1.0, 128.0)
    #: QK-norm's and LayerNorm's curves can coincide: their markers alternate along the grid
    #: (squares, then circles half a step later) so that both stay visible.
    MARKS = {"scaled": {}, "qk-l2": dict(marker="s", markevery=(0, 8), markersize=5),
             "qk-layernorm": dict(marker="o", markevery=(4, 8), markersize=5, markerfacecolor="none")}
    #: The methods' curves against m (the second panel): a phone's player opens on them.
    key_axes = property(lambda self: self.fig.axes[1])

    def __init__(self, d_k: int = 64, n_keys: int = 16, seed: int = 0, width: float = 9.6, height: float = 4.6,
                 dpi: int = 100):
        from .normalization import attention_scores
        from .numerics import ENSEMBLE_QUERIES, query_ensemble, shared_draw

        self._scores = attention_scores
        self.d_k = v.positive_int(d_k, "d_k")
        n = v.positive_int(n_keys, "n_keys", minimum=2)
        self.seed = v.positive_int(seed, "seed", minimum=0)
        q, self.k = shared_draw(self.d_k, n, self.seed)
        self.q = q[None, :]
        self.q_draws, self.k_draws = query_ensemble(self.d_k, n, ENSEMBLE_QUERIES, self.seed)
        self.default_gain = float(np.sqrt(self.d_k))
        self.gain = self.default_gain
        self._ensemble_cache: dict = {}
        fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")),
                     dpi=v.positive_int(dpi, "dpi"), layout="constrained")
        super().__init__(fig)
        ax_w, ax_m = fig.subplots(1, 2)
        ax_w.set_title("attention weights of one query", fontsize=TEXT_PT)
        edges, zeros = _grouped_bar_edges(n, 0)
        self.bars = self._animate(ax_w.stairs(zeros, edges * 1.0, fill=True, color=COLORS["scaled"]))
        ax_w.set_xlim(0, 1)
        ax_w.set_ylim(0, 1.02)
        ax_w.set_xticks([])
        ax_w.set_xlabel(f"{n} keys")
        ax_w.set_ylabel("weight $P_j$")
        self.mean_w = self._animate(*_expectation_marks(ax_w, "0.25", "--"))
        ax_w.plot([], [], "--", color="0.25", label=f"left, dashed: largest weight, mean of {ENSEMBLE_QUERIES} queries")
        self.grid = np.logspace(-1, 1, 41)
        self.curves, self.bands = {}, {}
        for mode, style in zip(self.MODES, ("-", "--", ":")):
            stats = [self.expectation(m, mode)["max weight"] for m in self.grid]
            self.curves[mode] = ax_m.plot(self.grid, [e.mean for e in stats], style, linewidth=2,
                                          label=self.LABELS[mode], **self.MARKS[mode])[0]
            self.bands[mode] = ax_m.fill_between(self.grid, [e.low for e in stats], [e.high for e in stats],
                                                 alpha=0.12, color=self.curves[mode].get_color(), linewidth=0)
        # the QK-norm curve and band follow the gain: drawn with each frame, above the fixed
        # artists, and the LayerNorm curve again on top of them, as in a full redraw
        self.bands["qk-l2"].set_zorder(3)
        self.curves["qk-l2"].set_zorder(3.1)
        self.curves["qk-layernorm"].set_zorder(3.2)
        self._animate(self.bands["qk-l2"], self.curves["qk-l2"], self.curves["qk-layernorm"])
        self.marker = self._animate(ax_m.plot([], [], "o", color=COLORS["mark"], markersize=9, zorder=4,
                                              clip_on=False)[0])
        ax_m.plot([], [], "o", color="0.3", markersize=7, label="one draw (seed %d), in its curve's colour" % self.seed)
        ax_m.fill_between([], [], [], color="0.3", alpha=0.2, linewidth=0, label="bands: middle 80 %, same colours")
        ax_m.set_xscale("log")
        ax_m.set_xlim(0.1, 10)
        ax_m.set_xticks([0.1, 0.3, 1, 3, 10], ["0.1", "0.3", "1", "3", "10"])
        ax_m.set_xticks([], minor=True)
        ax_m.set_ylim(0, 1.02)
        ax_m.set_xlabel("vector magnitude $m$ (log scale)")
        ax_m.set_ylabel("largest weight")
        ax_m.set_title(rf"mean of {ENSEMBLE_QUERIES} queries, $d_k$ = {self.d_k}", fontsize=TEXT_PT)
        handles, labels = ax_m.get_legend_handles_labels()  # the curves, the draw, the band; then the left panel's line
        more = ax_w.get_legend_handles_labels()
        fig.legend(handles + more[0], labels + more[1], loc="outside lower center", ncols=2, fontsize=SMALL_PT,
                   frameon=False)
        for ax in (ax_w, ax_m):
            _style(ax)
        self.label = self._animate(fig.suptitle(
            "bars: one draw (seed 99), LayerNorm on $q$ and $k$, magnitude $m$ = 10.00, gain $g$ = 128", fontsize=TEXT_PT))
        self.state: dict = {}
        self.update()

    def _weights(self, magnitude: float, mode: str, gain: float) -> np.ndarray:
        from .numerics import softmax

        z = self._scores(magnitude * self.q, magnitude * self.k, mode=mode, gain=gain)[0]
        return softmax(z)

    def expectation(self, magnitude: float, mode: str, gain: float | None = None) -> dict:
        """Mean (and band) of each measure over the ensemble's queries at this magnitude and mode (cached).

        ``gain`` (QK-norm only) defaults to the figure's current gain.
        """
        from .normalization import l2_normalize, layer_norm
        from .numerics import softmax

        gain = self.gain if gain is None else v.positive_real(gain, "gain")
        key = (float(magnitude), mode, float(gain) if mode == "qk-l2" else None)
        if key not in self._ensemble_cache:
            if len(self._ensemble_cache) > 4096:
                self._ensemble_cache.clear()
            q, k = magnitude * self.q_draws, magnitude * self.k_draws  # (Q, d), (Q, n, d)
            if mode == "scaled":
                z = np.einsum("id,ijd->ij", q, k) / np.sqrt(self.d_k)
            elif mode == "qk-l2":
                z = gain * np.einsum("id,ijd->ij", l2_normalize(q), l2_normalize(k))
            else:
                z = np.einsum("id,ijd->ij", layer_norm(q), layer_norm(k)) / np.sqrt(self.d_k)
            self._ensemble_cache[key] = _expectations(softmax(z))
        return self._ensemble_cache[key]

    def update(self, magnitude: float = 1.0, mode: str = "scaled", gain: float | None = None) -> None:
        """Show ``mode`` at ``magnitude``; ``gain`` is QK-norm's g (default √d_k), in ``GAIN_RANGE``."""
        m = v.positive_real(magnitude, "magnitude")
        if not MAGNITUDE_RANGE[0] <= m <= MAGNITUDE_RANGE[1]:
            raise ValueError(f"magnitude must lie in {list(MAGNITUDE_RANGE)}, got {m}")
        if mode not in self.MODES:
            raise ValueError(f"mode must be one of {self.MODES}, got {mode!r}")
        g = self.default_gain if gain is None else v.positive_real(gain, "gain")
        if not self.GAIN_RANGE[0] <= g <= self.GAIN_RANGE[1]:
            raise ValueError(f"gain must lie in {list(self.GAIN_RANGE)}, got {g}")
        if g != self.gain or not self.state:
            self.gain = g
            stats = [self.expectation(x, "qk-l2")["max weight"] for x in self.grid]
            self.curves["qk-l2"].set_ydata([e.mean for e in stats])
            low, high = [e.low for e in stats], [e.high for e in stats]  # the band as one polygon
            self.bands["qk-l2"].set_verts([np.column_stack([np.r_[self.grid, self.grid[::-1]],
                                                            np.r_[low, high[::-1]]])])
        p = self._weights(m, mode, g)
        self.bars.set_data(_bar_values(p))
        self.marker.set_data([m], [p.max()])
        self.marker.set_color(self.curves[mode].get_color())
        self.bars.set_color(self.curves[mode].get_color())  # the bars take the colour of their curve
        expect = self.expectation(m, mode)
        _set_expectation(self.mean_w, expect["max weight"])
        self.label.set_text(f"bars: one draw (seed {self.seed}), {self.TEX_NAMES[mode]},  magnitude $m$ = {m:.2f}"
                            + (f",  gain $g$ = {g:g}" if mode == "qk-l2" else ""))
        self.state = {"params": {"magnitude": m, "mode": mode, "gain": g, "seed": self.seed}, "p": p,
                      "expectation": expect, "n_queries": len(self.q_draws),
                      "readouts": _readouts(p),
                      "max_entropy": float(np.log(len(p)))}
