"""Static figures of finite precision (chapter 5): the softmax's error and the overflow fraction.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from .. import _validate as v
from .style import COLORS, Figure, SMALL_PT, TEXT_PT, _style


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
