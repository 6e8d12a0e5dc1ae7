"""Checks shared by several test files."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from attention_scaling import central_difference
from attention_scaling.attention import attention_backward, attention_forward


# Maths ready on a page: the book's maths is typeset at build time (a stylesheet and its web
# fonts, attention_book.sphinx_ext.prerender_maths); a page built without Node.js, or a
# notebook's HTML, typesets in the browser with MathJax. Waits for whichever the page uses.
WAIT_FOR_MATHS_JS = """async () => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
    await document.fonts.ready;
}"""


def wait_for_maths(page) -> None:
    """Wait (Playwright ``page``) until the page's maths is typeset and its fonts are loaded."""
    page.evaluate(WAIT_FOR_MATHS_JS)


def assert_attention_gradients_match(shape, seed, scaled, atol=1e-7):
    """Random Q, K, V and upstream G of ``shape = (n_q, d_k, n_k, d_v)``: the hand-written
    backward pass must equal central differences of L = sum(O * G) for Q, K and V."""
    n_q, d_k, n_k, d_v = shape
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(n_q, d_k)), rng.normal(size=(n_k, d_k))
    val, g = rng.normal(size=(n_k, d_v)), rng.normal(size=(n_q, d_v))
    _, cache = attention_forward(q, k, val, scaled)
    dq, dk, dv = attention_backward(g, cache)

    def loss(qx=q, kx=k, vx=val):
        return float(np.sum(attention_forward(qx, kx, vx, scaled)[0] * g))

    np.testing.assert_allclose(dq, central_difference(lambda x: loss(qx=x), q), atol=atol)
    np.testing.assert_allclose(dk, central_difference(lambda x: loss(kx=x), k), atol=atol)
    np.testing.assert_allclose(dv, central_difference(lambda x: loss(vx=x), val), atol=atol)


def player_text(data, index, which="alt"):
    """Frame ``index``'s alt text (or "said": its spoken readout), as player.js builds it."""
    from attention_scaling.readout import fill

    r = data["readout"]
    at = r[which] if isinstance(r[which], int) else r[which][index]
    return fill(r["templates"][at], r["values"][index])


# --- live explorer widgets (ipywidgets), shared by test_explorables and test_frame_cache ---


def find_widgets(kind, node):
    if isinstance(node, kind):
        yield node
    for child in getattr(node, "children", ()):
        yield from find_widgets(kind, child)


def shown_view(box):
    """(layer image, readout HTML) the page shows: the frame cache's selected view, or under
    ipywidgets 7 (no cache) the layer of the frame's stack and the last HTML of the box."""
    cache = getattr(box, "frame_cache", None)
    if cache is None:
        import ipywidgets as w

        return next(c for c in box.children if isinstance(c, w.GridBox)).children[1], box.children[-1]
    return cache.views[cache.tab.selected_index].children


def caches_frames() -> bool:
    import ipywidgets as w

    return hasattr(w, "Stack")  # ipywidgets 8; Colab's 7.7.1 keeps the kernel path


def frame_cache_of(exp):
    """The frame cache of a new live widget of ``exp``; None under ipywidgets 7, after
    checking that the kernel path serves it there (a frame of two stacked images, a layer
    redrawn when the fast control moves)."""
    import ipywidgets as w

    box = exp.widget()
    if caches_frames():
        return box.frame_cache
    assert not hasattr(box, "frame_cache")
    stack = next(c for c in box.children if isinstance(c, w.GridBox))
    layer = stack.children[1]
    before = layer.value
    control = next(c for c in box.children if getattr(c, "description", None) == next(
        k.described() for k in exp.controls + exp.live_only if k.name == exp.fast))
    if isinstance(control, w.SelectionSlider):
        control.index = (control.index + 1) % len(control.options)
    else:  # a log slider, at its default (1 of 0.1-10 or 0.05-100)
        control.value = control.value * 1.5
    assert layer.value != before
    return None


def png_pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))
