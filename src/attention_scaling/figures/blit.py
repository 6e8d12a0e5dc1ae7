"""The blit engine: :class:`BlitFigure` draws its fixed artists once and redraws only the ones
that change (the package's pictures of an explorer: a page without scripts, a handout's stop);
helpers for the bands, means and grouped bars the figures animate.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import numpy as np

from .style import Figure, make_legible
from .png import fast_png


# --- live figures: built once, updated in place, blitted -----------------------------------


S = TypeVar("S")


class BlitFigure(Generic[S]):
    """A figure drawn once, whose changing artists are redrawn alone (blitting).

    Subclasses build their axes in ``__init__``, register the artists that change with
    :meth:`_animate`, and implement :meth:`update`. Axis limits never change, so the
    saved background stays valid and a frame costs only the changed artists.
    """

    state: S  # what the last update drew: a frozen dataclass of attention_scaling.state

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
        """
        frame = self.render()
        if (frame[..., 3] == 255).all():
            frame = frame[..., :3]
        return fast_png(frame, self.fig.dpi, self._measured_pt(), compress_level)

    def _ensure_background(self) -> None:
        if self._background is None:
            self.render()

    def _measured_pt(self) -> float:
        """The smallest font size, measured when the background was drawn."""
        self._ensure_background()
        assert self._smallest_pt is not None  # render() measures it with the background
        return self._smallest_pt

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
