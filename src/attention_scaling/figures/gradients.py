"""Static figures of the softmax gradient: P(1 - P) (chapter 1) and the Jacobian's norm (chapter 2).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _validate as v
from ..numerics import diagonal_gradient
from .style import COLORS, Figure, SMALL_PT, _style


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
    from ..numerics import jacobian_norm

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
