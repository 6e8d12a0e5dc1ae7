"""The figures' visual language: the colours, the font sizes, and :class:`Figure`, a matplotlib
``Figure`` without pyplot that IPython shows as a PNG.
"""

from __future__ import annotations

import matplotlib.figure


class Figure(matplotlib.figure.Figure):
    """A matplotlib ``Figure`` (no pyplot) that IPython shows as a PNG, :func:`png_bytes`:
    without pyplot, IPython knows only a plain Figure's text form."""

    def _repr_png_(self) -> bytes:
        from .png import png_bytes

        return png_bytes(self)

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
