"""The live path in Jupyter (ipywidgets): the radio buttons' keys, the frame cache that lets
one slider repaint in the page with no kernel round trip, and the live readout.
"""

from __future__ import annotations

import html
import io
from typing import TYPE_CHECKING, Any

import numpy as np

from ..figures import BlitFigure
from ..readout import Readout, readout_html
from .controls import live_positions

if TYPE_CHECKING:  # the explorer a frame cache serves (it imports this module)
    from .explorable import Explorable


#: Class of a live explorer's radio buttons.
RADIO_CLASS = "asb-radio"
# JupyterLab binds the arrow keys, in command mode, to moving between cells, and its
# shortcut handler (Lumino's, on the document) takes ArrowUp/ArrowDown from a focused radio
# button in an output and prevents its default: the choice does not change and the next
# cell is selected. This handler runs first (the window's capture phase) and stops the
# event there for the explorers' radio buttons, so the browser's own handling of the key
# (move to the next option and choose it) is all that happens. Installed once per page.
RADIO_KEYS_JS = """(function () {
  if (window.asbRadioKeys) { return; }
  window.asbRadioKeys = true;
  var keys = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"];
  window.addEventListener("keydown", function (event) {
    var t = event.target;
    if (keys.indexOf(event.key) >= 0 && !event.ctrlKey && !event.metaKey && !event.altKey
        && t && t.matches && t.matches(".%s input[type=radio]")) {
      event.stopPropagation();
    }
  }, true);
})();""" % RADIO_CLASS


# --- the live frame cache (ipywidgets 8) ----------------------------------------------------

#: Colours of a live layer in the frame cache, as in the static players' layers
#: (``BlitFigure.layer_png``): about 5 kB a frame, not the 26 kB of the exact layer.
LIVE_LAYER_COLORS = 32
#: Class of a live frame once the page steps through its row alone (the row is full and linked).
CACHED_CLASS = "asb-live-cached"
#: Class of the slider whose row of frames the page caches.
FAST_CLASS = "asb-fast"
# Shows one child of the Tab that holds the row, without its tab bar, border or background.
_CACHE_CSS = ("<style>.asb-live-cache > .widget-tab-bar{display:none !important}"
              ".asb-live-cache > .widget-tab-contents{border:0 !important;padding:0 !important;"
              "margin:0 !important;background:transparent !important;overflow:visible !important}</style>")


def _caches() -> bool:
    """Whether the live widget caches frames in the page: ipywidgets 8 (Colab's 7.7.1 has
    no ``echo_update`` control nor ``Stack``, and keeps the kernel path)."""
    import ipywidgets as w

    return hasattr(w, "Stack")


def cached_layer_png(fig: BlitFigure) -> bytes:
    """The changing artists of ``fig``'s current state on a transparent canvas, quantised to
    :data:`LIVE_LAYER_COLORS` colours like the static players' layers, zlib level 6 (no
    optimiser pass): the frame cache's image of one position, laid over
    ``fig.live_background_png()``."""
    from PIL import Image, PngImagePlugin

    from ..figures import MIN_FONT_KEY

    if not isinstance(fig, BlitFigure):
        raise ValueError(f"fig must be a BlitFigure, got {type(fig).__name__}")
    fig._ensure_background()
    fig.canvas.get_renderer().clear()  # transparent
    for artist in fig._dynamic:
        fig.fig.draw_artist(artist)
    rgba = Image.fromarray(np.asarray(fig.canvas.buffer_rgba()).copy())
    layer = rgba.quantize(colors=LIVE_LAYER_COLORS, method=Image.Quantize.FASTOCTREE)
    info = PngImagePlugin.PngInfo()
    info.add_text(MIN_FONT_KEY, f"{fig._smallest_pt:g}")
    buf = io.BytesIO()
    layer.save(buf, format="PNG", compress_level=6, pnginfo=info, dpi=(fig.fig.dpi, fig.fig.dpi))
    return buf.getvalue()


#: The readout table's style in a live notebook (the book's pages have _static/book.css).
LIVE_READOUT_CSS = (
    "<style>.asb-readout{font-size:0.9em;font-variant-numeric:tabular-nums}"
    ".asb-readout p{margin:0.2em 0}.asb-tables{display:flex;flex-wrap:wrap;gap:0.2em 1.6em}"
    ".asb-rt{border-collapse:collapse;margin:0.2em 0}.asb-rt caption{text-align:left;font-weight:600}"
    ".asb-rt th,.asb-rt td{padding:0.05em 0.6em 0.05em 0;text-align:right;white-space:nowrap;border:0}"
    ".asb-rt th[scope=row],.asb-rt thead th:first-child{text-align:left;font-weight:normal}.asb-rt thead th{font-weight:600;"
    "border-bottom:1px solid currentColor}.asb-foot{font-size:0.9em;opacity:0.8}"
    ".asb-said{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}"
    "</style>")


def _readout_html(readout: Readout) -> str:
    """A live explorer's readout: the static player's table (readout_html), with its style."""
    return LIVE_READOUT_CSS + readout_html(readout)


class _FrameCache:
    """The live widget of an explorable with a ``fast`` control, under ipywidgets 8.

    Each position of the fast slider has a *view*: its layer image over the background, and
    its readout below, in one box. The views of the current *row* (every position of the
    fast slider, at the current setting of every other control) are the children of one
    ``ipywidgets.Tab`` whose tab bar is hidden: a Tab renders all its children and shows
    one, so showing another is a class change in the page, with nothing to load. A frame
    and its readout are one child and switch together, so they never disagree.

    While the row is not full the kernel draws the frame of each new position (as the
    kernel path does) and then shows it. A task on the kernel's event loop fills the rest
    of the row, nearest the slider first, yielding between frames so slider messages are
    served. When the row is full, ``jslink`` ties the slider's index to the Tab's
    ``selected_index``: a fast step then shows a frame the page holds, without the kernel,
    which draws nothing more. Any other control unlinks, draws the current frame at once and
    refills the row. The kernel never writes into the view on show: a stale view on show
    is replaced by drawing into one of two spare views, which is then shown.
    """

    def __init__(self, exp: Explorable, controls: dict):
        import ipywidgets as w

        self.exp, self.controls = exp, controls
        self.slider = controls[exp.fast]
        self.slider.add_class(FAST_CLASS)
        self.positions = live_positions(next(c for c in exp.controls + exp.live_only if c.name == exp.fast))
        self.n = len(self.positions)
        if len(self.slider.options) != self.n:
            raise ValueError(f"fast slider of {exp.name} has {len(self.slider.options)} options, not {self.n}")
        fig = exp.figure
        fig.update(**exp.defaults())
        self.background = w.Image(value=fig.live_background_png(), format="png", layout=w.Layout(
            grid_area="frame", width="100%", margin="0", align_self="flex-start"))

        def view():
            image = w.Image(format="png", layout=w.Layout(width="100%", margin="0"))
            box = w.VBox([image, w.HTML()], layout=w.Layout(width="100%", margin="0", padding="0"))
            box.add_class("asb-live-view")
            return box

        self.views = [view() for _ in range(self.n + 2)]  # the row, then two spares
        self.tab = w.Tab(children=self.views, layout=w.Layout(grid_area="frame", width="100%", margin="0"))
        self.tab.add_class("asb-live-cache")
        self.tab._selected_index_metadata = {"echo_update": False}
        self.frame = w.GridBox([self.background, self.tab], layout=w.Layout(
            width="100%", max_width="1200px", margin="2px 0", grid_template_columns="minmax(0, 1fr)",
            grid_template_areas='"frame"'))
        self.frame.add_class("asb-live-frame")
        style = w.HTML(_CACHE_CSS, layout=w.Layout(display="none"))
        title = w.HTMLMath(f"<b>{html.escape(exp.title)}</b>")
        self.box = w.VBox([style, title, *controls.values(), self.frame], layout=w.Layout(width="100%"))
        self.box.frame_cache = self
        self.key: tuple | None = None
        self.fresh: set[int] = set()
        self.links: tuple = ()
        self.task: Any = None
        for c in controls.values():
            if c is self.slider:
                c.observe(self._fast_moved, names="index")
            else:
                c.observe(self._other_changed, names="value")
        self.show()
        self.start_fill()

    @property
    def linked(self) -> bool:
        return bool(self.links)

    def params(self, i: int) -> dict:
        """Every control's value, the fast one at position ``i``."""
        return self.exp.defaults() | {name: c.value for name, c in self.controls.items()} | {
            self.exp.fast: self.positions[i]}

    def _row_key(self) -> tuple:
        return tuple((name, c.value) for name, c in self.controls.items() if c is not self.slider)

    def _draw(self, i: int, into: int) -> None:
        fig = self.exp.figure
        fig.update(**self.params(i))
        image, readout = self.views[into].children
        image.value = cached_layer_png(fig)
        readout.value = _readout_html(self.exp.describe(fig.state))

    def _draw_hidden(self, i: int) -> int:
        """Draw position ``i`` into a view not on show: its own, else a spare. Returns the view."""
        shown = self.tab.selected_index
        into = i if shown != i else (self.n if shown != self.n else self.n + 1)
        self._draw(i, into)
        if into == i:
            self.fresh.add(i)
        return into

    def show(self) -> None:
        """Kernel mode: show the slider's position at the current setting of the others."""
        key = self._row_key()
        if key != self.key:
            self.unlink()
            self.key, self.fresh = key, set()
        i = self.slider.index
        self.tab.selected_index = i if i in self.fresh else self._draw_hidden(i)

    def _fast_moved(self, _change=None) -> None:
        if not self.links:  # linked, the page shows the cached frame by itself
            self.show()
            self.start_fill()

    def _other_changed(self, _change=None) -> None:
        self.unlink()
        self.show()
        self.start_fill()

    def unlink(self) -> None:
        for link in self.links:
            link.unlink()
        self.links = ()
        self.frame.remove_class(CACHED_CLASS)

    def link(self) -> None:
        """Once the row is full: the slider's index drives the Tab in the page."""
        import ipywidgets as w

        if self.links or len(self.fresh) < self.n:
            return
        self.tab.selected_index = self.slider.index
        self.links = (w.jslink((self.slider, "index"), (self.tab, "selected_index")),)
        self.frame.add_class(CACHED_CLASS)

    def fill_step(self) -> bool:
        """Draw the stale position nearest the slider; link once none is left. Returns
        whether one was drawn."""
        i0 = self.slider.index
        for d in range(self.n):
            for j in (i0 + d, i0 - d):
                if 0 <= j < self.n and j not in self.fresh:
                    self._draw_hidden(j)
                    return True
        self.link()
        return False

    def fill_all(self) -> None:
        """Fill the whole row now (no event loop: tests, scripts)."""
        while self.fill_step():
            pass

    async def _fill(self) -> None:
        import asyncio

        try:
            while self.fill_step():
                await asyncio.sleep(0)  # serve the slider's messages between frames
        finally:
            self.task = None

    def start_fill(self) -> None:
        """Fill the row in the background, on the running event loop (a kernel's); without
        one, nothing is scheduled and the kernel path serves every position."""
        import asyncio

        if self.task is not None or self.links:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.task = loop.create_task(self._fill())
