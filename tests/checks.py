"""Checks shared by several test files."""

from __future__ import annotations

import json

import numpy as np

from attention_scaling import central_difference
from attention_scaling.attention import attention_backward, attention_forward


# Maths ready on a page: the book's maths is typeset at build time (a stylesheet and its web
# fonts, attention_book.sphinx_ext.prerender_maths); a page built without Node.js, or a
# notebook's HTML, typesets in the browser with MathJax. Waits for whichever the page uses.
WAIT_FOR_MATHS_JS = """async () => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
    await document.fonts.ready;
    // An explorer mounts when it comes near the window (player.js): scroll to each, as a reader
    // reading down the page does, until it is mounted, then back to where the page was. One
    // with no box (a slide not shown, a closed fold) cannot come into view: it mounts when
    // shown (deck.js, the fold's opening), as a reader sees it.
    const players = [...document.querySelectorAll('.asb-player')]
        .filter(p => p.asbMount && p.getClientRects().length);
    if (players.length) {
        const at = [scrollX, scrollY];
        for (const p of players) {
            p.scrollIntoView({block: 'center', behavior: 'instant'});
            const t0 = performance.now();
            while (!p.classList.contains('asb-ready') && performance.now() - t0 < 20000) {
                await new Promise(r => requestAnimationFrame(r));
            }
        }
        scrollTo({left: at[0], top: at[1], behavior: 'instant'});
        await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    await document.fonts.ready;
}"""


def wait_for_maths(page) -> None:
    """Wait (Playwright ``page``) until the page's maths is typeset, its fonts are loaded and
    its explorers mounted (each scrolled to, as a reader reaching it, then the page scrolled
    back)."""
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


# --- what a page keeps in this browser (localStorage) ------------------------------------------
# Chromium hands a page's localStorage writes to its browser process asynchronously, and in
# loaded full runs it lost some: a reload, or a new tab of the same context, found the store
# without them even half a minute later (a quiz's answers, a typed prediction: in two of five
# fresh-clone runs on 2026-12-07). The book's pages never remove those entries on loading. So
# a check that a page restores what it stored reads the store the page left (stored), and, where
# the browser has not kept it, opens the page with that very store put back before the page's
# scripts run (open_with_store), as the browser should have kept it, and says so.

def stored(page, prefix: str) -> dict[str, str]:
    """The entries of ``page``'s localStorage whose keys start with ``prefix``."""
    return page.evaluate("""p => Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith(p))
                                                      .map(k => [k, localStorage.getItem(k)]))""", prefix)


def open_with_store(context, url: str, prefix: str, entries: dict[str, str]):
    """A new tab of ``context`` at ``url`` whose localStorage holds exactly ``entries`` under
    ``prefix`` when the page's own scripts start (an init script); returns the page."""
    page = context.new_page()
    page.add_init_script(script=f"""(() => {{
        const want = {json.dumps(entries)}, prefix = {json.dumps(prefix)};
        for (const k of Object.keys(localStorage))
            if (k.startsWith(prefix) && !(k in want)) localStorage.removeItem(k);
        for (const [k, v] of Object.entries(want)) if (localStorage.getItem(k) !== v) localStorage.setItem(k, v);
    }})()""")
    page.goto(url, wait_until="load")
    return page
