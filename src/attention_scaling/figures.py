"""Figures for the book, built with ``matplotlib.figure.Figure`` (never pyplot).

A figure made without pyplot is not tracked by any global state, so a live slider can
keep one figure and redraw it, and no figure leaks between cells. In a notebook, a
``Figure`` shows as a PNG through :func:`show` or by being the cell's last value.
"""

from __future__ import annotations

import io

import numpy as np
from matplotlib.figure import Figure

from . import _validate as v
from .numerics import diagonal_gradient

__all__ = ["self_gradient_curve", "jacobian_norm_scatter", "png_bytes"]

COLORS = {"curve": "#1f4e79", "mark": "#c0392b", "scaled": "#1f77b4", "unscaled": "#d62728", "grid": "#dddddd"}


def _style(ax) -> None:
    ax.grid(True, color=COLORS["grid"], linewidth=0.6)
    ax.spines[["top", "right"]].set_visible(False)


def png_bytes(fig: Figure, dpi: int = 100) -> bytes:
    """The figure as PNG bytes (for ``ipywidgets.Image`` or ``IPython.display.Image``)."""
    if not isinstance(fig, Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=v.positive_int(dpi, "dpi"))
    return buf.getvalue()


def self_gradient_curve(marks: dict[str, float] | None = None, width: float = 6.4, height: float = 3.4) -> Figure:
    r"""The curve :math:`P(1-P)` on [0, 1] with its maximum and the given points marked.

    Parameters
    ----------
    marks : dict of label -> P, optional
        Probabilities to mark on the curve, each with a label.
    width, height : float
        Figure size in inches.
    """
    marks = dict(marks or {})
    values = v.probabilities(list(marks.values()) or [0.5], "marks", axis=None)
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), layout="constrained")
    ax = fig.add_subplot()
    p = np.linspace(0.0, 1.0, 401)
    ax.plot(p, diagonal_gradient(p), color=COLORS["curve"], linewidth=2, label=r"$P(1-P)$")
    ax.axhline(0.25, color="0.5", linestyle=":", linewidth=1)
    ax.annotate(r"maximum $\frac{1}{4}$ at $P=\frac{1}{2}$", xy=(0.5, 0.25), xytext=(0.5, 0.272),
                ha="center", fontsize=9, color="0.3")
    shapes = "osD^v<>"
    for i, (label, value) in enumerate(zip(marks, values if marks else [])):
        g = float(diagonal_gradient(value))
        ax.plot([value], [g], shapes[i % len(shapes)], color=COLORS["mark"], markersize=7, zorder=3,
                markerfacecolor="white" if i % 2 else COLORS["mark"], clip_on=False, label=f"{label}: $P(1-P)$ = {g:.4g}")
    if marks:
        ax.legend(loc="lower center", fontsize=9, frameon=True, framealpha=0.95)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 0.3)
    ax.set_xlabel(r"weight $P_1$")
    ax.set_ylabel(r"gradient $\partial P_1/\partial z_1$")
    _style(ax)
    return fig


def _register_png_formatter() -> None:
    """In IPython, show a bare ``Figure`` (the last value of a cell) as a PNG.

    Without pyplot, IPython only knows a Figure's text form; this teaches it the PNG one.
    Outside IPython it does nothing.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython ships with the book's requirements
        return
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["image/png"].for_type(Figure, png_bytes)


_register_png_formatter()


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
    fig.legend(loc="outside lower center", ncols=3, fontsize=9, frameon=False)
    _style(ax)
    return fig
