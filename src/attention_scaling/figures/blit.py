"""The blit engine: :class:`BlitFigure` draws its fixed artists once and redraws only the ones
that change; helpers for the bands, means and grouped bars the live figures animate.
"""

from __future__ import annotations

import io
from typing import Any, Generic, TypeVar

import numpy as np

from .. import _validate as v
from .style import Figure, make_legible
from .png import _png_info, fast_png


# --- live figures: built once, updated in place, blitted -----------------------------------


S = TypeVar("S")


class BlitFigure(Generic[S]):
    """A figure drawn once, whose changing artists are redrawn alone (blitting).

    Subclasses build their axes in ``__init__``, register the artists that change with
    :meth:`_animate`, and implement :meth:`update`. Axis limits never change, so the
    saved background stays valid and a frame costs only the changed artists.
    """

    # The panel a phone's player opens on (static_html: its scroller starts there), when it is
    # not the first: a subclass sets it to one of its axes.
    key_axes: Any = None
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
