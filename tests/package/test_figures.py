"""Static figures: their artists hold the numerics layer's values, and they render to PNG."""

from __future__ import annotations

import io
import subprocess
import sys

import numpy as np
import pytest
from matplotlib.figure import Figure

from attention_scaling import diagonal_gradient, jacobian_norm
from attention_scaling.figures import MIN_FONT_KEY, fast_png, jacobian_norm_scatter, png_bytes, self_gradient_curve

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_self_gradient_curve_data():
    fig = self_gradient_curve({"a": 0.99, "b": 0.001})
    ax = fig.axes[0]
    curve, *marks = [line for line in ax.get_lines() if len(line.get_xdata()) > 0 and line.get_linestyle() != ":"]
    x, y = curve.get_data()
    np.testing.assert_allclose(y, diagonal_gradient(x), rtol=0, atol=0)
    assert [float(m.get_xdata()[0]) for m in marks] == [0.99, 0.001]
    np.testing.assert_allclose([float(m.get_ydata()[0]) for m in marks], diagonal_gradient([0.99, 0.001]))
    assert png_bytes(fig).startswith(PNG_SIGNATURE)


def test_jacobian_norm_scatter_data():
    p = np.random.default_rng(3).dirichlet(np.ones(4), size=50)
    fig = jacobian_norm_scatter(p)
    offsets = fig.axes[0].collections[0].get_offsets()
    np.testing.assert_allclose(offsets[:, 0], p.max(axis=1))
    np.testing.assert_allclose(offsets[:, 1], jacobian_norm(p))
    assert png_bytes(fig).startswith(PNG_SIGNATURE)


def test_png_bytes_tight_cuts_to_what_is_drawn():
    """tight=True: the image is cut to the figure's drawing, labels that fall past a small
    canvas's edge included, and keeps the recorded dpi and smallest font."""
    from PIL import Image

    fig = self_gradient_curve({"a": 0.99}, width=6.8, height=3.2)
    whole, cut = (Image.open(io.BytesIO(png_bytes(fig, dpi=200, tight=t))) for t in (False, True))
    assert whole.size == (1360, 640)
    assert cut.size != whole.size and cut.size[0] < 1500 and cut.size[1] < 760
    assert cut.info[MIN_FONT_KEY] == whole.info[MIN_FONT_KEY]
    assert round(cut.info["dpi"][0]) == 200
    # no drawn pixel touches the cut image's edge: the margin is kept
    pixels = np.asarray(cut.convert("L"))
    assert (pixels[[0, -1], :] > 250).all() and (pixels[:, [0, -1]] > 250).all()


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda: self_gradient_curve({"x": 1.5}), "marks"),
        (lambda: self_gradient_curve(width=0), "width"),
        (lambda: jacobian_norm_scatter([0.5, 0.5]), "p_samples"),
        (lambda: jacobian_norm_scatter([[0.5, 0.6]]), "p_samples"),
        (lambda: png_bytes("not a figure"), "fig"),
        (lambda: png_bytes(Figure(), dpi=0), "dpi"),
        (lambda: png_bytes(Figure(), tight="yes"), "tight"),
        (lambda: fast_png(np.zeros((4, 4, 3)), 100, 11.5), "pixels"),
        (lambda: fast_png(np.zeros((4, 4), np.uint8), 100, 11.5), "pixels"),
        (lambda: fast_png(np.zeros((4, 4, 2), np.uint8), 100, 11.5), "pixels"),
        (lambda: fast_png(np.zeros((0, 4, 3), np.uint8), 100, 11.5), "pixels"),
        (lambda: fast_png(np.zeros((4, 4, 3), np.uint8), 0, 11.5), "dpi"),
        (lambda: fast_png(np.zeros((4, 4, 3), np.uint8), 100, float("nan")), "min_font_pt"),
        (lambda: fast_png(np.zeros((4, 4, 3), np.uint8), 100, 11.5, compress_level=10), "compress_level"),
    ],
)
def test_figures_bad_input(call, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        call()


def test_sci_formats_numbers():
    from attention_scaling.prose import sci

    assert sci(1.6e-10).data == "$1.6 \\times 10^{-10}$"
    assert sci(8.533e-17, digits=3).data == "$8.53 \\times 10^{-17}$"
    assert sci(0.0).data == "$0$"
    assert sci(2.5).data == "$2.5$"
    assert sci(9.99e-3).data == "$1.0 \\times 10^{-2}$"
    assert sci(-4.4e-16).data == "$-4.4 \\times 10^{-16}$"
    for bad, param in ((float("nan"), "x"), ("1", "x"), (1.0, "digits")):
        with pytest.raises(ValueError, match=rf"^{param}\b"):
            sci(bad, digits=0 if param == "digits" else 2)


@pytest.mark.parametrize("make", ["ScaleFigure", "AttentionFigure", "NormalizationFigure"])
def test_live_png_is_the_rendered_frame_with_its_font_size(make):
    """The live frame (BlitFigure.png) decodes to exactly the blitted pixels, and its text
    chunk carries the smallest font size, measured once, as make_legible reports it."""
    import io

    from PIL import Image

    from attention_scaling import figures

    fig = getattr(figures, make)()
    first = Image.open(io.BytesIO(fig.png()))
    expected_pt = figures.make_legible(fig.fig)
    fig.update(**({"scale": 7.0} if make == "ScaleFigure" else {"magnitude": 3.0}))
    png = fig.png()
    frame = fig.render()
    got = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))
    assert got.shape == frame.shape and np.array_equal(got, frame)
    assert not np.array_equal(np.asarray(first.convert("RGBA")), got)  # the update shows
    assert float(Image.open(io.BytesIO(png)).text["asb:min-font-pt"]) == expected_pt


@pytest.mark.parametrize("channels, mode", [(3, "RGB"), (4, "RGBA")])
def test_fast_png_decodes_to_its_pixels(channels, mode):
    """fast_png writes a valid PNG (Pillow checks every chunk's CRC) that decodes to exactly
    the array, not square so that width and height cannot swap, with its dpi and font size."""
    import io

    from PIL import Image

    pixels = np.random.default_rng(channels).integers(0, 256, size=(7, 5, channels), dtype=np.uint8)
    png = fast_png(pixels, 100, 11.5)
    assert png.startswith(PNG_SIGNATURE)
    Image.open(io.BytesIO(png)).verify()
    image = Image.open(io.BytesIO(png))
    assert image.mode == mode and image.size == (5, 7)
    assert np.array_equal(np.asarray(image), pixels)
    assert image.text[MIN_FONT_KEY] == "11.5"
    assert image.info["dpi"] == pytest.approx((100, 100), abs=1e-3)
    # a view of a larger array (as a figure's RGB channels are) encodes the same pixels
    padded = np.concatenate([pixels, np.zeros((7, 5, 1), np.uint8)], axis=2)[..., :channels]
    assert fast_png(padded, 100, 11.5) == png


def test_red_and_blue_mean_unscaled_and_scaled_only():
    """The attention explorer draws unscaled red and scaled blue; the scale explorer, which has no
    scaled/unscaled pair, uses neither for its weights, its gradients or its Jacobian's signs."""
    from matplotlib.colors import to_hex

    from attention_scaling.figures import COLORS, AttentionFigure, ScaleFigure

    pair = {COLORS["unscaled"], COLORS["scaled"]}
    attention = AttentionFigure()
    assert to_hex(attention.bars_u.get_facecolor()) == COLORS["unscaled"]
    assert to_hex(attention.bars_s.get_edgecolor()) == COLORS["scaled"]
    scale = ScaleFigure(seed=0)
    used = {to_hex(scale.bars_p.get_facecolor()), to_hex(scale.bars_g.get_facecolor())}
    assert used == {COLORS["weight"], COLORS["gradient"]} and not used & pair
    assert scale.heat.get_cmap().name == "PuOr"


def test_a_figure_shows_as_png_in_ipython_with_nothing_registered():
    """IPython's own PNG formatter, fresh (no type registered), finds the figure's
    _repr_png_: a bare figure as a cell's last value shows as the PNG png_bytes makes."""
    from IPython.core.formatters import PNGFormatter

    from attention_scaling.figures import Figure, png_bytes, self_gradient_curve

    fig = self_gradient_curve()
    assert isinstance(fig, Figure) and repr(fig).startswith("<Figure size")
    shown = PNGFormatter()(fig)
    assert shown[:8] == b"\x89PNG\r\n\x1a\n" and shown == png_bytes(fig)


def test_importing_the_figures_touches_no_ipython_shell():
    """No import-time side effect: importing the figures (and the explorables, which import
    them) never asks IPython for its shell, let alone registers a formatter with it."""
    probe = ("import IPython\n"
             "def shell():\n    raise SystemExit('get_ipython called at import')\n"
             "IPython.get_ipython = shell\n"
             "import attention_scaling.figures, attention_scaling.explorables, attention_scaling.context\n")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_self_gradient_curve_alone_is_the_left_view():
    """The small figure beside chapter 1's text: one axes, the curve P(1-P) with its peak ¼ at
    ½, every mark on the curve and named in its legend; a log_view that is not a bool is refused."""
    fig = self_gradient_curve({"a": 0.99, "b": 0.001}, width=4.2, height=3.0, log_view=False)
    (ax,) = fig.axes
    x, y = ax.lines[0].get_data()
    assert np.allclose(y, x * (1 - x)) and abs(y.max() - 0.25) < 1e-12
    marks = [line for line in ax.lines[2:]]
    assert [float(m.get_ydata()[0]) for m in marks] == pytest.approx([0.99 * 0.01, 0.001 * 0.999])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a: 0.0099", "b: 0.000999"]
    with pytest.raises(ValueError, match="log_view"):
        self_gradient_curve(log_view="no")
