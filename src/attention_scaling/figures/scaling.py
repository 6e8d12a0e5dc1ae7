"""Static figures of scaling and normalisation: saturation and gradients against d_k (chapters 3
and 4), training runs, aligned dots and LayerNorm's placement (chapter 6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _validate as v
from .style import COLORS, Figure, SMALL_PT, TEXT_PT, _style

if TYPE_CHECKING:
    from matplotlib.axes import Axes


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
        _break_logit_axis(ax_big, ax_z, floor, low_peak, max(peaks.values()))
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


def _break_logit_axis(ax_big, ax_z, floor: float, low_peak: float, top: float) -> None:
    """The logit axis in two log-scaled parts: ``ax_z`` up to 1.6 times ``low_peak``, with
    round ticks; ``ax_big`` above it, up to 10 times ``top``, with break marks between."""
    from matplotlib.ticker import LogLocator, NullFormatter

    ax_z.set_ylim(0.8 * floor, 1.6 * low_peak)
    nice = [x for x in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if 0.8 * floor <= x <= 1.6 * low_peak]
    ax_z.set_yticks(nice, [f"{x:g}" for x in nice])
    ax_z.yaxis.set_minor_formatter(NullFormatter())
    ax_big.set_ylim(1.6 * low_peak, 10 * top)
    ax_big.yaxis.set_major_locator(LogLocator(base=10, numticks=4))
    ax_big.spines["bottom"].set_visible(False)
    ax_big.tick_params(axis="x", which="both", bottom=False, labelbottom=False)
    ax_big.set_title("largest |logit| in the batch (log scale, axis broken)", fontsize=TEXT_PT)
    _break_marks(ax_big, ax_z)


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
