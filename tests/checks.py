"""Checks shared by several test files."""

from __future__ import annotations


import numpy as np

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
