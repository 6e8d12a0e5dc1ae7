"""What the reader sees in the figures of "Keep the softmax finite" (Figs. 5.1 and 5.2).

Fig. 5.2 must show both exact curves as dashed lines between the sample points (a solid
line joining the points used to cover them), and Fig. 5.1 must plot, and say it plots,
the largest *absolute* error of the weights.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb

from attention_scaling import softmax
from attention_scaling.figures import overflow_fraction_figure, softmax_error_figure
from attention_scaling.stability import naive_softmax, overflow_fraction, softmax_errors

SEED = 2026


@pytest.fixture(scope="module")
def fractions():
    return overflow_fraction([16, 64, 256, 1024], n_queries=16, n_keys=32, seed=SEED)


def _pixels(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].astype(float) / 255


def _share_in_colour(fig, ax, xs, ys, colour, tolerance=0.25):
    """Share of points on the segments' middle halves whose pixel (±1 px) has ``colour``."""
    img = _pixels(fig)
    height = img.shape[0]
    want = np.array(to_rgb(colour))
    hits = total = 0
    for (x0, y0), (x1, y1) in zip(zip(xs[:-1], ys[:-1]), zip(xs[1:], ys[1:])):
        a = ax.transData.transform((x0, y0))
        b = ax.transData.transform((x1, y1))
        for t in np.linspace(0.25, 0.75, 120):
            px, py = a + t * (b - a)
            col, row = int(round(px)), int(round(height - py))
            patch = img[row - 1:row + 2, col]
            hits += bool((np.linalg.norm(patch - want, axis=-1) < tolerance).any())
            total += 1
    return hits / total


def test_both_exact_curves_show_dashed_between_the_points(fractions):
    fig = overflow_fraction_figure(fractions)
    ax = fig.axes[0]
    d = np.asarray(fractions["d_values"], dtype=float)
    exact_lines = {line.get_color(): line for line in ax.get_lines() if line.get_label().endswith("exact")}
    assert len(exact_lines) == 2, "one labelled exact line per series"
    for name in ("unscaled", "scaled"):
        line = next(ln for ln in exact_lines.values() if ln.get_label().startswith(name))
        np.testing.assert_array_equal(line.get_ydata(), fractions[f"{name} exact"])
        share = _share_in_colour(fig, ax, d, np.asarray(fractions[f"{name} exact"]), line.get_color())
        # dashed and on top: its colour shows on part of the way, not nowhere, not everywhere
        assert 0.3 < share < 0.9, (name, share)


def test_exact_curves_are_named_in_the_legend(fractions):
    labels = [t.get_text() for t in overflow_fraction_figure(fractions).axes[0].get_legend().get_texts()]
    assert sum(label.endswith("exact") for label in labels) == 2, labels
    assert sum("s.e." in label for label in labels) >= 1, labels


def test_error_figure_plots_and_names_the_absolute_error():
    scales = np.array([1.0, 10.0, 200.0])
    errors = softmax_errors(scales, dtypes=[np.float16], n_scores=8, seed=SEED)
    # the documented scores: u_1 = 1, the others uniform on [-1, 1) from default_rng(seed)
    rng = np.random.default_rng(SEED)
    u = np.concatenate([[1.0], rng.uniform(-1.0, 1.0, 7)])
    for i, s in enumerate(scales):
        z = (s * u).astype(np.float16)
        with mpmath.workdps(40):
            e = [mpmath.exp(mpmath.mpf(float(x))) for x in z]
            exact = np.array([float(x / mpmath.fsum(e)) for x in e])
        p = softmax(z).astype(float)
        assert errors["stable"]["float16"][i] == pytest.approx(np.abs(p - exact).max(), rel=1e-9, abs=1e-300)
        if np.isfinite(naive_softmax(z).astype(float)).all():
            naive = np.abs(naive_softmax(z).astype(float) - exact).max()
            assert errors["naive"]["float16"][i] == pytest.approx(naive, rel=1e-9, abs=1e-300)
    # at s = 200 a weight underflows to 0: relative error 1, absolute error tiny
    assert errors["stable"]["float16"][-1] < 1e-10
    fig = softmax_error_figure(errors)
    label = fig.axes[0].get_ylabel()
    assert "absolute" in label and "relative" not in label
