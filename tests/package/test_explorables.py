"""Live figures and explorables: artist data equals the numerics, extremes stay finite,
the static player holds one frame per grid point, and the live widget redraws."""

from __future__ import annotations

import functools
import json
import re

import numpy as np
import pytest

from attention_scaling import diagonal_gradient, entropy, softmax, softmax_jacobian
from attention_scaling.explorables import (
    ATTENTION_MAGNITUDES,
    SCALES,
    STATIC_ENV,
    attention_explorer,
    normalization_explorer,
    context_explorer,
    scale_explorer,
)
from attention_scaling.figures import D_VALUES, MAX_KEYS, SCORE_EDGES, AttentionFigure, ScaleFigure
from attention_scaling.numerics import normal_cdf, pair_scores


@pytest.fixture(scope="module")
def attention_fig():
    return AttentionFigure(n_pairs=500)


def bar_heights(stairs):
    return stairs.get_data().values[0::2]


def test_attention_update_matches_numerics(attention_fig):
    fig = attention_fig
    fig.update(d_k=256, magnitude=1.5, n_keys=12, seed=3)
    q, k = shared_draw(256, 12, seed=3)
    z = 1.5**2 * (k @ q)
    p_u, p_s = softmax(z), softmax(z / 16.0)
    np.testing.assert_allclose(bar_heights(fig.bars_u), p_u, rtol=1e-12)
    np.testing.assert_allclose(bar_heights(fig.bars_s), p_s, rtol=1e-12)
    assert len(fig.bars_u.get_data().edges) == 2 * 12
    x, y = fig.marks_u.get_data()
    np.testing.assert_allclose(x, p_u)
    np.testing.assert_allclose(y, diagonal_gradient(p_u, axis=-1))  # 1 - P from the other weights
    size = np.abs(1.5**2 * pair_scores(256, 500, seed=3))
    counts = np.histogram(np.clip(size, SCORE_EDGES[0], SCORE_EDGES[-1]), SCORE_EDGES)[0] / size.size
    np.testing.assert_allclose(fig.hist_u.get_data().values, counts)
    edges = SCORE_EDGES.copy()
    edges[0], edges[-1] = 0, np.inf
    # the prediction's bins, against differences of the normal CDF where those keep their digits
    want = 2 * np.diff(normal_cdf(edges, 1.5**2))
    np.testing.assert_allclose(fig.pred_s.get_data().values[:28], want[:28], rtol=1e-9)
    assert fig.pred_u.get_data().values.sum() == pytest.approx(1.0)
    r = fig.state.draw.scaled
    assert r.max_weight == pytest.approx(p_s.max())
    assert r.entropy == pytest.approx(float(entropy(p_s)))


def test_any_whole_d_k_is_a_prefix_of_the_same_vectors(attention_fig):
    """One draw at 1024 components; every d_k from 1 to 1024 sums the first d_k of them."""
    q, keys = shared_draw(1024, 4, seed=0)
    sums = attention_fig.sample(0)
    for d in (1, 2, 3, 48, 100, 1000, 1024):
        np.testing.assert_allclose(sums[:4, d - 1], keys[:, :d] @ q[:d], rtol=1e-10, atol=1e-12)
        attention_fig.update(d_k=d, magnitude=1.0, n_keys=4, seed=0)
        np.testing.assert_allclose(attention_fig.state.scores.unscaled, keys[:, :d] @ q[:d], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("d_k", [D_VALUES[0], D_VALUES[-1]])
@pytest.mark.parametrize("magnitude", [0.1, 10.0])
@pytest.mark.parametrize("n_keys", [2, MAX_KEYS])
def test_attention_extremes_are_finite(attention_fig, d_k, magnitude, n_keys):
    attention_fig.update(d_k=d_k, magnitude=magnitude, n_keys=n_keys, seed=0)
    st = attention_fig.state
    for key, values in (("weights", st.weights), ("histogram", st.histogram), ("predicted", st.predicted)):
        for curve, x in values.items():
            assert np.isfinite(x).all(), (key, curve)
    for artist in (attention_fig.bars_u, attention_fig.hist_s, attention_fig.pred_u):
        assert np.isfinite(artist.get_data().values).all()
    frame = attention_fig.render()
    assert frame.shape[2] == 4 and frame[..., :3].std() > 0  # not blank


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"d_k": 0}, "d_k"),
        ({"d_k": 1025}, "d_k"),
        ({"d_k": 2.5}, "d_k"),
        ({"magnitude": 0.0}, "magnitude"),
        ({"magnitude": 50.0}, "magnitude"),
        ({"magnitude": float("nan")}, "magnitude"),
        ({"n_keys": 1}, "n_keys"),
        ({"n_keys": MAX_KEYS + 1}, "n_keys"),
        ({"seed": -1}, "seed"),
    ],
)
def test_attention_bad_input(attention_fig, kwargs, param):
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        attention_fig.update(**kwargs)


def test_scale_figure_matches_numerics():
    fig = ScaleFigure(seed=2)
    for s in (ScaleFigure.SCALE_RANGE[0], 1.0, ScaleFigure.SCALE_RANGE[1]):
        fig.update(scale=s)
        p = softmax(s * fig.z)
        np.testing.assert_allclose(bar_heights(fig.bars_p), p)
        np.testing.assert_allclose(bar_heights(fig.bars_g), diagonal_gradient(p, axis=-1))
        np.testing.assert_allclose(fig.heat.get_array(), softmax_jacobian(p))
        assert np.isfinite(fig.heat.get_array()).all()
    with pytest.raises(ValueError, match=r"^scale\b"):
        fig.update(scale=1000.0)


def test_scale_draw_at_is_the_draw_update_shows():
    """draw_at (a scan's view of the one draw, without the band) is the state update() makes,
    bit for bit, and leaves the figure as it was; a scale off the slider is refused by name."""
    fig = ScaleFigure(seed=2)
    fig.update(scale=3.0)
    before = fig.state
    for s in (ScaleFigure.SCALE_RANGE[0], 0.7, 1.0, 13.0, ScaleFigure.SCALE_RANGE[1]):
        shown = fig.draw_at(s)
        assert fig.state is before
        other = ScaleFigure(seed=2)
        other.update(scale=s)
        assert shown.scale == other.state.scale and shown.draw == other.state.draw
        for name in ("weights", "gradient", "jacobian"):
            np.testing.assert_array_equal(getattr(shown, name), getattr(other.state, name))
    for bad in (0.0, 1000.0, float("nan")):
        with pytest.raises(ValueError, match=r"^scale\b"):
            fig.draw_at(bad)


def test_blit_frame_equals_full_redraw(attention_fig):
    """Blitting must give the same picture as drawing the whole figure.

    Blitting draws the changing artists over everything else, so where a grid line or a
    fixed curve crosses them the stacking order differs; those few pixels are allowed.
    """
    attention_fig.update(d_k=16, magnitude=0.75, n_keys=8, seed=1)
    blit = attention_fig.render().astype(int).copy()
    for artist in attention_fig._dynamic:
        artist.set_animated(False)
    try:
        attention_fig.canvas.draw()
        full = np.asarray(attention_fig.canvas.buffer_rgba()).astype(int)
    finally:
        for artist in attention_fig._dynamic:
            artist.set_animated(True)
    differs = np.abs(blit - full).max(axis=2) > 2
    assert differs.mean() < 0.005


def player_data(html_text):
    match = re.search(r'<script type="application/json" class="asb-data">(.*?)</script>', html_text, re.S)
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def attention_player():
    return attention_explorer(n_pairs=500).static_html()


@functools.cache
def static_player(make) -> str:
    """The page's markup of an explorer as the book ships it, made once for this module."""
    return make().static_html()


def test_the_attention_page_is_its_module_with_the_stops_at_slider_positions(attention_player):
    """The attention explorer computes in the page: its data names the module and carries the
    payload (a seed and constants, no frames); each lesson stop sits at the slider positions of its
    d_k and magnitude, where the page's sliders show exactly those values."""
    from attention_scaling import web

    data = player_data(attention_player)
    assert data["module"]["mount"] == "mountAttention" and "frames" not in data
    assert data["payload"] == web.attention_payload(0, nice=ATTENTION_MAGNITUDES)
    assert [c["kind"] for c in data["controls"]] == ["range", "range"]
    positions = web.d_positions()
    for shipped, stop in zip(data["stops"], lesson.stops("attention"), strict=True):
        assert shipped["caption"] == stop.caption
        d_at, m_at = shipped["at"]
        assert positions[d_at] == stop.settings["d_k"]
        assert m_at == web.magnitude_position(stop.settings["magnitude"])
        assert stop.settings["magnitude"] in data["payload"]["niceMagnitudes"]  # snapped: exactly m
    assert "427 values from 1 to 1024" in data["module"]["note"]
    assert len(positions) == 427 and all(positions[i] == i + 1 for i in range(156))
    assert {2**i for i in range(11)} <= set(positions)


def test_player_markup_is_labelled(attention_player):
    ids = re.findall(r'<input type="range" id="([^"]+)"', attention_player)
    assert len(ids) == 2
    for cid in ids:
        assert f'<label for="{cid}">' in attention_player
        assert f'<output for="{cid}">' in attention_player
    assert 'alt="Attention explorer. One draw (seed 0) at dₖ = 64, m = 1, 16 keys.' in attention_player
    # maths is typeset (MathJax spans), never doubled parentheses; the accessible name is plain text
    assert r'key dimension <span class="math notranslate nohighlight">\(d_k\)</span>' in attention_player
    markup = attention_player.split('class="asb-data"')[0]  # (the module's script follows)
    assert "((" not in markup and "$" not in markup
    assert 'aria-label="Attention weights, their gradients and the spread of q·k, unscaled vs scaled by 1/√d_k' \
        in attention_player


def test_magnitude_grid_is_dense_where_weights_saturate():
    assert {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0} <= set(ATTENTION_MAGNITUDES)
    assert list(ATTENTION_MAGNITUDES) == sorted(ATTENTION_MAGNITUDES)


def test_the_normalization_page_has_radio_choice_magnitude_and_gain():
    """The normalisation explorer computes in the page: a group of radio buttons named in words
    (no code names in the markup), then the magnitude's and the gain's sliders at the default's
    positions; its payload is the seed and constants."""
    from attention_scaling import web

    markup = static_player(normalization_explorer)
    data = player_data(markup)
    assert data["module"]["mount"] == "mountNormalization" and "frames" not in data
    assert data["payload"] == web.normalization_payload(0, nice=ATTENTION_MAGNITUDES)
    assert [c["kind"] for c in data["controls"]] == ["radio", "range", "range"]
    radios = re.findall(r'<input type="radio" name="([^"]+)" value="(\d)"( checked)?>', markup)
    assert [(v, c) for _, v, c in radios] == [("0", " checked"), ("1", ""), ("2", "")]
    assert len({n for n, _, _ in radios}) == 1
    legend = re.search(r'<fieldset class="asb-control asb-choice" id="([^"]+)"><legend>([^<]+)</legend>', markup)
    assert legend and legend.group(1) == radios[0][0] and legend.group(2) == "normalisation"
    page = markup.split('class="asb-data"')[0]  # (the payload names the modes as the module does)
    assert "qk-l2" not in page and "qk-layernorm" not in page
    positions = re.findall(r'<input type="range" id="[^"]+" min="0" max="(\d+)" step="1" value="(\d+)"', markup)
    assert positions == [(str(web.MAGNITUDE_STEPS), str(web.magnitude_position(1.0))),
                         (str(web.GAIN_STEPS), str(web.gain_position(8.0)))]


def test_the_scale_explorer_computes_in_the_page():
    """No frames: the page gets the module's payload (the draws as numbers, the round scales
    the slider stops at exactly), the stops as slider positions, the module once, and for a
    reader without scripts the build's picture and readout of the default setting."""
    from attention_scaling import lesson, web

    markup = static_player(scale_explorer)
    data = player_data(markup)
    assert "frames" not in data and data["module"]["mount"] == "mountScale"
    payload = web.unpack(data["payload"])
    assert len(payload["z"]) == 8 and np.array(payload["draws"]).shape == (ENSEMBLE_QUERIES, 8)
    assert payload["z"] == sorted(payload["z"], reverse=True) and payload["nice"] == list(SCALES)
    stops = lesson.stops("scale")
    assert [s["at"] for s in data["stops"]] == [[web.scale_position(st.settings["scale"])] for st in stops]
    assert [s["panel"] for s in data["stops"]] == [st.panel for st in stops]
    (control,) = data["controls"]
    assert re.search(rf'<input type="range" id="{control["id"]}" min="0" max="{web.SCALE_STEPS}" step="1" '
                     rf'value="{web.scale_position(1.0)}"', markup)
    assert markup.count('<script id="asb-web-mountScale">') == 1 and "mountScale" in markup
    assert "mountContext" not in markup  # a page carries only the views it shows
    assert re.search(r'<noscript><img class="asb-picture" src="data:image/png;base64,[^"]+" alt="Softmax explorer. '
                     r'One draw of 8 scores \(seed 0\) times a scale s = 1 ', markup)
    assert '<p class="asb-lead">One draw of 8 scores (seed 0) times a scale s = 1 (temperature 1).</p>' in markup
    assert "</script>" not in markup.split('<script id="asb-web-mountScale">')[1][:-len("</script></div>")]


def test_the_context_explorer_computes_in_the_page():
    """No frames: the payload is the seed and the constants (the page draws the distractors),
    the method is a group of radio buttons named in words, n and the gap are sliders over their
    positions, the stops are those positions, and only the context view's script comes along."""
    from attention_scaling import lesson, web
    from attention_scaling.context import METHODS

    markup = static_player(context_explorer)
    data = player_data(markup)
    assert "frames" not in data and data["module"]["mount"] == "mountContext"
    assert data["payload"] == web.context_payload(0) and data["module"]["options"] == {"method": "plain", "n": 1024,
                                                                                      "gap": 6.0}
    ids = [c["id"] for c in data["controls"]]
    assert [c["kind"] for c in data["controls"]] == ["radio", "range", "range"]
    assert markup.count(f'name="{ids[0]}"') == len(METHODS) and 'value="0" checked' in markup
    ns = web.context_n_positions()
    assert re.search(rf'<input type="range" id="{ids[1]}" min="0" max="{len(ns) - 1}" step="1" '
                     rf'value="{web.context_n_position(1024)}" aria-valuetext="n = 1024 keys">', markup)
    assert re.search(rf'<input type="range" id="{ids[2]}" min="0" max="{web.GAP_STEPS}" step="1" value="120" '
                     rf'aria-valuetext="Δ = 6">', markup)
    stops = lesson.stops("context")
    assert [s["at"] for s in data["stops"]] == [
        [METHODS.index(st.settings["method"]), web.context_n_position(st.settings["n"]),
         web.gap_position(st.settings["gap"])] for st in stops]
    assert all(ns[web.context_n_position(st.settings["n"])] == st.settings["n"] for st in stops)
    assert markup.count('<script id="asb-web-mountContext">') == 1 and "mountScale" not in markup


def test_the_scale_sliders_positions():
    """1 000 positions from 0.05 to 100, both ends exact; round values at distinct positions."""
    from attention_scaling import web

    assert web.scale_position(0.05) == 0 and web.scale_position(100) == web.SCALE_STEPS == 1000
    positions = [web.scale_position(s) for s in SCALES]
    assert positions == sorted(set(positions))
    assert web.scale_position(1.0) == round(1000 * np.log(20) / np.log(2000)) == 394
    for bad in (0.049, 101, float("nan"), -1, "1", True):
        with pytest.raises(ValueError, match="^scale"):
            web.scale_position(bad)
    with pytest.raises(ValueError, match="^nice"):
        web.scale_payload(0, nice=(1.0, 1.001))


def test_display_switches_on_the_build_variable(monkeypatch):
    exp = scale_explorer()
    monkeypatch.setenv(STATIC_ENV, "1")
    bundle = exp._repr_mimebundle_()
    assert "asb-player" in bundle["text/html"]
    monkeypatch.delenv(STATIC_ENV)
    bundle = exp._repr_mimebundle_()
    view = bundle["application/vnd.jupyter.widget-view+json"]
    import ipywidgets as w

    box = w.Widget.widgets[view["model_id"]] if hasattr(w.Widget, "widgets") else None
    if box is None:  # ipywidgets 8 keeps its registry elsewhere
        from ipywidgets.widgets.widget import _instances
        box = _instances[view["model_id"]]
    assert isinstance(box, w.VBox) and view["version_major"] == 2
    if hasattr(box, "_repr_mimebundle_"):  # ipywidgets 8 makes the same bundle
        assert box._repr_mimebundle_()["application/vnd.jupyter.widget-view+json"] == view


def test_live_normalization_choice_is_radio_buttons_in_words(monkeypatch):
    """In Jupyter the choice is an ipywidgets RadioButtons named in words (its arrow keys its
    own), linked by its index to the module's view; the sliders are log sliders."""
    import ipywidgets as w

    from attention_scaling.explorables import RADIO_CLASS

    monkeypatch.delenv(STATIC_ENV, raising=False)
    box = normalization_explorer().widget()
    radios = [c for c in box.children if isinstance(c, w.RadioButtons)]
    assert len(radios) == 1 and RADIO_CLASS in radios[0]._dom_classes
    assert [label for label, _ in radios[0].options] == ["scaled by 1/√dₖ", "QK-norm", "LayerNorm on q and k"]
    assert [type(c).__name__ for c in box.children[1:4]] == ["RadioButtons", "FloatLogSlider", "FloatLogSlider"]
    link = next(k for k in box.links if k.source[0] is radios[0])
    assert link.source[1] == "index" and link.target == (box.view, "mode")


def test_static_frames_are_deterministic():
    """Two exports of the same explorable ship identical data (payload, controls, stops)."""
    first = player_data(static_player(scale_explorer))
    second = player_data(scale_explorer().static_html())
    for data in (first, second):  # element ids are numbered per page, not part of the content
        for control in data["controls"]:
            control.pop("id")
    assert first == second


def test_quiz_markup_and_validation():
    from attention_scaling.quiz import Option, Question, Quiz

    quiz = Quiz("t", [Question("2 + 2?", (Option("4", True, "it is"), Option("5", False, "off by one"),
                                          Option("22", False, "that joins the digits")))])
    markup = quiz._repr_html_()
    assert markup.count('type="radio"') == 3 and "<legend>2 + 2?</legend>" in markup
    assert json.loads(re.search(r'class="asb-quiz-data">(.*?)</script>', markup).group(1)) == {
        "correct": [True, False, False], "why": ["it is", "off by one", "that joins the digits"]}
    with pytest.raises(ValueError, match="^options"):
        Question("?", (Option("a", True, "x"), Option("b", True, "y"), Option("c", False, "z")))
    # two options: ruling one out gives the other away
    with pytest.raises(ValueError, match="^options must be at least 3"):
        Question("?", (Option("a", True, "x"), Option("b", False, "y")))
    # a long, hedged right answer among short wrong ones gives itself away
    with pytest.raises(ValueError, match="^options: the correct one"):
        Question("?", (Option("No: the other weight is positive, so it stays below 1", True, "x"),
                       Option("Yes", False, "y"), Option("Only in float16", False, "z")))
    with pytest.raises(ValueError, match="^why"):
        Option("a", False, " ")
    with pytest.raises(ValueError, match="^questions"):
        Quiz("t", [])


# --- one draw and its average: shared draws, and a mean beside every single-draw readout ----

from attention_scaling.figures import NormalizationFigure  # noqa: E402
from attention_scaling.numerics import (  # noqa: E402
    ENSEMBLE_QUERIES,
    SHARED_MAX_DIM,
    SHARED_MAX_KEYS,
    PAIRS_STREAM,
    Expectation,
    ensemble_parts,
    ensemble_scores,
    expectation,
    query_ensemble,
    shared_draw,
)
from attention_scaling.state import means_of  # noqa: E402

MEASURES = ("max_weight", "entropy", "largest_gradient")


def direct_means(Q, K, divide):
    """Means of the three measures over the rows, from the vectors themselves (no prefix sums)."""
    p = softmax(np.einsum("id,ijd->ij", Q, K) / divide)
    per_row = {"max_weight": p.max(axis=1), "entropy": entropy(p),
               "largest_gradient": (p * (1 - p)).max(axis=1)}
    return {name: float(np.mean(x)) for name, x in per_row.items()}


def test_shared_draw_is_the_first_query_of_its_ensemble_and_extends_with_d_k():
    q, k = shared_draw(64, 16, seed=5, magnitude=2.0)
    Q, K = query_ensemble(64, 16, n_queries=3, seed=5, magnitude=2.0)
    np.testing.assert_array_equal(Q[0], q)
    np.testing.assert_array_equal(K[0], k)
    q_big, k_big = shared_draw(256, 40, seed=5, magnitude=2.0)
    np.testing.assert_array_equal(q_big[:64], q)  # a larger d_k and more keys extend the same draw
    np.testing.assert_array_equal(k_big[:16, :64], k)
    # every vector is N(0, m^2): over 200 queries the sample variance is near m^2 = 4
    Q, K = query_ensemble(64, 16, seed=5, magnitude=2.0)
    assert abs(K.var() / 4 - 1) < 0.03 and abs(Q.var() / 4 - 1) < 0.05
    assert not np.array_equal(Q[0], Q[1])


@pytest.mark.parametrize(
    "kwargs, param",
    [({"d_k": SHARED_MAX_DIM + 1}, "d_k"), ({"d_k": 0}, "d_k"), ({"n_keys": SHARED_MAX_KEYS + 1}, "n_keys"),
     ({"seed": -1}, "seed"), ({"magnitude": 0.0}, "magnitude"), ({"magnitude": np.nan}, "magnitude")],
)
def test_shared_draw_bad_input(kwargs, param):
    args = {"d_k": 8} | kwargs
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        shared_draw(**args)
    with pytest.raises(ValueError, match=rf"^{param}\b"):
        query_ensemble(**args)


def test_expectation_summary():
    x = np.arange(11.0)
    e = expectation(x)
    assert e.mean == 5.0 and e.n == 11
    assert e.se == pytest.approx(np.sqrt(11.0) / np.sqrt(11))  # sample std of 0..10 is sqrt(11)
    assert e.low == pytest.approx(1.0) and e.high == pytest.approx(9.0)
    assert e.show(2) == "5.00 ± 1.00"
    # an error below what the digits show keeps one significant digit, with the mean to the same place
    assert expectation([1.0, 1.0 + 1e-5]).show(3) == "1.000005 ± 0.000005"
    assert Expectation(0.064031, 2.2e-5, 0, 1, 9).show() == "0.06403 ± 0.00002"
    assert Expectation(0.064031, 9.6e-5, 0, 1, 9).show() == "0.0640 ± 0.0001"  # 0.000096 rounds up
    assert Expectation(0.064031, 9.6e-4, 0, 1, 9).show() == "0.064 ± 0.001"
    assert Expectation(0.5, 0.0, 0, 1, 9).show() == "0.500 ± 0.000"
    for shown in (Expectation(1e-9, 1e-12, 0, 1, 9).show(), Expectation(3.0, 4e-7, 0, 1, 9).show(2)):
        assert "e" not in shown, shown
    for bad in (-1, 1.5, True, 16):
        with pytest.raises(ValueError, match="^digits"):
            e.show(bad)
    with pytest.raises(ValueError, match="^values"):
        expectation([1.0])


@pytest.mark.parametrize("seed", [0, 4])
def test_explorers_with_the_same_setup_show_the_same_draw(attention_fig, seed):
    """Same d_k, magnitude, keys and seed: identical weights, readouts and means in every explorer."""
    d_k, n = 64, 16
    norm = NormalizationFigure(d_k=d_k, n_keys=n, seed=seed)
    q, k = shared_draw(d_k, n, seed)
    np.testing.assert_array_equal(norm.q[0], q)
    np.testing.assert_array_equal(norm.k, k)
    for m in (0.1, 1.0, 3.0):
        attention_fig.update(d_k=d_k, magnitude=m, n_keys=n, seed=seed)
        norm.update(magnitude=m, mode="scaled")
        a, b = attention_fig.state, norm.state
        exact = softmax((m * k) @ (m * q) / np.sqrt(d_k))
        np.testing.assert_allclose(a.weights.scaled, exact, rtol=1e-12, atol=1e-300)
        np.testing.assert_allclose(b.weights, exact, rtol=1e-12, atol=1e-300)
        for name in MEASURES:
            assert f"{getattr(a.draw.scaled, name):.4f}" == f"{getattr(b.draw, name):.4f}"
            assert getattr(a.mean.scaled, name).mean == pytest.approx(getattr(b.mean, name).mean, rel=1e-12)
        assert a.n_queries == b.n_queries == ENSEMBLE_QUERIES
        scaled = _describe_attention(attention_fig.state).groups[1]
        same = _describe_normalization(norm.state).groups[0]
        assert scaled.caption.startswith("Scaled by")
        assert [r.cells(True) for r in scaled.rows] == [r.cells(True) for r in same.rows]


def _describe_attention(state):
    from attention_scaling.explorables.book import _describe_attention as describe

    return describe(state)


def _describe_normalization(state):
    from attention_scaling.explorables.book import _describe_normalization as describe

    return describe(state)


def _parts_of(Q, K):
    """The EnsembleParts of real vectors: the split along 1/sqrt(d) and within the rest."""
    from attention_scaling.numerics import EnsembleParts

    d = Q.shape[-1]
    q_mean, k_mean = Q.sum(-1) / np.sqrt(d), K.sum(-1) / np.sqrt(d)
    q_perp = Q - q_mean[:, None] / np.sqrt(d)
    k_perp = K - k_mean[..., None] / np.sqrt(d)
    q_rest = (q_perp**2).sum(-1)
    along = np.einsum("id,ijd->ij", q_perp, k_perp) / np.sqrt(q_rest)[:, None]
    return EnsembleParts(d, q_mean, q_rest, k_mean, along, (k_perp**2).sum(-1) - along**2)


def test_ensemble_parts_give_exactly_the_scores_of_whole_vectors():
    """The identities behind EnsembleParts, on real vectors: q·k, QK-norm's cosine and LayerNorm's
    product come out of the five parts exactly (to rounding), in every mode and magnitude."""
    from attention_scaling.normalization import attention_scores

    Q, K = query_ensemble(64, 16, n_queries=20, seed=9)
    parts = _parts_of(Q, K)
    np.testing.assert_allclose(parts.scores(), np.einsum("id,ijd->ij", Q, K), rtol=1e-9, atol=1e-12)
    fig = NormalizationFigure(seed=9)
    fig.parts = parts
    for mode in fig.MODES:
        for m in (0.1, 1.0, 7.0):
            want = np.stack([attention_scores(m * Q[i:i + 1], m * K[i], mode=mode, gain=5.0)[0] for i in range(20)])
            np.testing.assert_allclose(fig._ensemble_logits(m, mode, 5.0), want, rtol=1e-9, atol=1e-12)


def test_ensemble_parts_have_the_law_of_whole_vectors():
    """chi-square rests and normal components: the parts' means agree with 2000 real queries'
    within four standard errors, at d_k = 1 (a product of two normals), 2, 64 and 1024 (500 queries
    there: 2000 whole vectors of 1024 components with their keys are 34 million normals, 10 s)."""
    for d_k, m, n_q in ((1, 2.0, 2000), (2, 1.5, 2000), (64, 1.0, 2000), (1024, 0.5, 500)):
        Q, K = query_ensemble(d_k, 16, n_queries=n_q, seed=11)
        real = means_of(softmax(m * m * np.einsum("id,ijd->ij", Q, K) / np.sqrt(d_k))).max_weight
        ours = means_of(softmax(m * m * ensemble_scores(d_k, 16, n_queries=n_q, seed=11) / np.sqrt(d_k))).max_weight
        assert abs(ours.mean - real.mean) < 4 * np.hypot(ours.se, real.se), (d_k, ours, real)
    parts = ensemble_parts(64, 16, n_queries=2000, seed=3)
    assert abs(parts.q_rest.mean() / 63 - 1) < 0.02 and abs(parts.k_rest.mean() / 62 - 1) < 0.01
    assert abs(parts.k_along.std() - 1) < 0.02 and abs(parts.q_mean.std() - 1) < 0.05
    one = ensemble_parts(1, 4, n_queries=5, seed=3)
    np.testing.assert_array_equal(one.scores(), one.q_mean[:, None] * one.k_mean)  # d_k = 1: q1 k1


def test_ensemble_scores_by_dimension_are_each_dimensions_own():
    """All dimensions at once give the scores of ensemble_scores at each, bit for bit, and
    those are the scores of the whole EnsembleParts (which the score functions skip the keys'
    chi-square rests of), as are pair_scores'; bad grids are refused by name."""
    from attention_scaling.numerics import ensemble_scores_by_dimension

    dims = [*range(1, 131), 700, 1024]
    together = ensemble_scores_by_dimension(dims, 9, n_queries=30, seed=4)
    assert together.shape == (len(dims), 30, 9)
    for row, d in zip(together, dims):
        np.testing.assert_array_equal(row, ensemble_scores(d, 9, n_queries=30, seed=4))
    for d in (1, 2, 3, 130, 1024):
        np.testing.assert_array_equal(ensemble_scores(d, 9, n_queries=30, seed=4),
                                      ensemble_parts(d, 9, n_queries=30, seed=4).scores())
        np.testing.assert_array_equal(pair_scores(d, 40, seed=4),
                                      ensemble_parts(d, 1, 40, seed=4, stream=PAIRS_STREAM, key_stride=1).scores()[:, 0])
    for bad, param in (([4, 2], "d_values"), ([], "d_values"), ([1, 2000], "d_k"), ([4], "n_keys")):
        with pytest.raises(ValueError, match=f"^{param}"):
            ensemble_scores_by_dimension(bad, 9 if param != "n_keys" else 10**6)


def test_ensemble_parts_are_prefixes_and_smooth_in_d_k():
    """Fewer keys or queries are the same draw; one more dimension moves every score a little."""
    big, small = ensemble_scores(100, 64, seed=4), ensemble_scores(100, 9, n_queries=50, seed=4)
    np.testing.assert_array_equal(big[:50, :9], small)
    a, b = ensemble_scores(500, 16, seed=4), ensemble_scores(501, 16, seed=4)
    assert np.abs(b - a).max() < 0.05 * np.abs(a).max()
    assert not np.array_equal(pair_scores(64, 10, seed=4), ensemble_scores(64, 1, 10, seed=4)[:, 0])


def test_attention_means_are_those_of_the_ensemble_scores(attention_fig):
    for d_k, m, n in ((4, 1.0, 16), (48, 0.5, 9), (1024, 1.5, 64)):
        attention_fig.update(d_k=d_k, magnitude=m, n_keys=n, seed=2)
        z = m * m * ensemble_scores(d_k, n, seed=2)
        for name, divide in (("unscaled", 1.0), ("scaled", np.sqrt(d_k))):
            p = softmax(z / divide)
            got = getattr(attention_fig.state.mean, name)
            assert got.max_weight.mean == pytest.approx(p.max(axis=1).mean(), rel=1e-12)
            assert got.entropy.mean == pytest.approx(entropy(p).mean(), rel=1e-9, abs=1e-12)


def test_scale_means_include_the_draw_shown():
    fig = ScaleFigure(seed=3)
    np.testing.assert_array_equal(np.sort(fig.z_draws[0])[::-1], fig.z)
    np.testing.assert_array_equal(fig.z_draws, np.random.default_rng(3).standard_normal((ENSEMBLE_QUERIES, 8)))
    fig.update(scale=2.0)
    p = softmax(2.0 * fig.z_draws)
    assert fig.state.mean.max_weight.mean == pytest.approx(p.max(axis=1).mean(), rel=1e-12)
    assert fig.mean_p[1].get_ydata()[0] == pytest.approx(p.max(axis=1).mean(), rel=1e-12)


PAIR = re.compile(r"(largest weight|entropy|largest P\(1−P\)|norm of the Jacobian ‖J‖₂) "
                  r"(\d(?:\.\d)?e-\d+|\d+\.\d+|1 − \S+|> 1 − 1e-16)"
                  r"(?: \(mean ([^)]+ ± [^)]+)\))?", re.I)


@pytest.mark.parametrize("make, points", [
    (attention_explorer, [{"d_k": 1, "magnitude": 0.1}, {"d_k": 64, "magnitude": 1.0},
                          {"d_k": 1024, "magnitude": 10.0, "n_keys": 33, "seed": 7}]),
    (scale_explorer, [{"scale": 0.05}, {"scale": 2.0}, {"scale": 100.0}]),
    (normalization_explorer, [{"mode": mode, "magnitude": m} for mode in NormalizationFigure.MODES
                              for m in (0.1, 10.0)]),
])
def test_every_single_draw_readout_sits_beside_its_mean(make, points):
    """Every number of one draw in a readout or alt text is followed by its mean over the ensemble."""
    exp = make()
    for point in points:
        _, alt, readout = exp.frame(**point)
        state = exp.figure.state
        for text in (alt, readout.text):
            assert "one draw" in text.lower() and "± one standard error" in text
            assert re.search(rf"Each mean is over {ENSEMBLE_QUERIES} (queries|draws)", text)
            seed = state.seed
            if seed is not None:
                assert f"seed {seed}" in text
            # every number of the draw sits beside its mean, in the alt text and the readout alike
            found = PAIR.findall(text)
            assert len(found) == sum(len(g.rows) for g in readout.groups), text
            for measure, _, mean in found:
                assert mean, (measure, text)  # every number of the draw has its mean beside it
        for row in (r for g in readout.groups for r in g.rows):  # and in the table, a column beside it
            assert len(row.cells(readout.has_means)) == 2 and row.mean is not None
    assert "one draw" in exp.title


def test_exercises_3_3_and_6_1_get_one_answer(attention_fig):
    """magnitude_to_saturate answers both exercises; each explorer's own readouts agree with it."""
    from attention_scaling.explorables import magnitude_to_saturate

    answer = magnitude_to_saturate(0.9, d_k=64, n_keys=16, seed=0)
    norm = NormalizationFigure(d_k=64, n_keys=16, seed=0)
    for i, m in enumerate(ATTENTION_MAGNITUDES):
        attention_fig.update(d_k=64, magnitude=m, n_keys=16, seed=0)
        norm.update(magnitude=m, mode="scaled")
        for draw, mean in ((attention_fig.state.draw.scaled.max_weight, attention_fig.state.mean.scaled.max_weight.mean),
                           (norm.state.draw.max_weight, norm.state.mean.max_weight.mean)):
            assert draw == pytest.approx(answer["draw"][i], rel=1e-12)
            assert mean == pytest.approx(answer["mean"][i].mean, rel=1e-12)
    firsts = [m for m, x in zip(ATTENTION_MAGNITUDES, answer["draw"]) if x > 0.9]
    assert answer["first_draw"] == firsts[0]
    assert answer["first_mean"] == next(m for m, e in zip(ATTENTION_MAGNITUDES, answer["mean"]) if e.mean > 0.9)
    with pytest.raises(ValueError, match="^threshold"):
        magnitude_to_saturate(1.0)
    # the exact answers the sliders reach: each explorer's readout is at most 0.9 just below them
    # and above 0.9 just above
    for at, read in ((answer["at_draw"], lambda: norm.state.draw.max_weight),
                     (answer["at_mean"], lambda: norm.state.mean.max_weight.mean)):
        assert answer["first_draw"] - 0.5 < at <= answer["first_mean"]
        norm.update(magnitude=at * (1 - 1e-9), mode="scaled")
        below = read()
        norm.update(magnitude=at * (1 + 1e-9), mode="scaled")
        assert below <= 0.9 < read(), at


def test_the_gain_qk_norm_needs_is_where_the_explorers_readout_passes():
    from attention_scaling.explorables import gain_to_saturate

    needed = gain_to_saturate(0.9)
    norm = NormalizationFigure()
    for g, read in ((needed["draw"], lambda: norm.state.draw.max_weight),
                    (needed["mean"], lambda: norm.state.mean.max_weight.mean)):
        assert 1 < g < 128
        norm.update(magnitude=3.0, mode="qk-l2", gain=g * (1 - 1e-9))
        below = read()
        norm.update(magnitude=3.0, mode="qk-l2", gain=g * (1 + 1e-9))
        assert below <= 0.9 < read(), g
    assert gain_to_saturate(0.999999)["mean"] is None  # beyond g = 128 on average
    with pytest.raises(ValueError, match="^threshold"):
        gain_to_saturate(1.5)


def test_labels_typeset_on_the_page_and_plain_for_screen_readers():
    from attention_scaling.explorables import math_html, plain_text

    assert plain_text(r"scaled by $1/\sqrt{d_k}$") == "scaled by 1/√d_k"
    assert plain_text(r"spread of $q\cdot k$") == "spread of q·k"
    assert math_html("a < b and $d_k$") == 'a &lt; b and <span class="math notranslate nohighlight">\\(d_k\\)</span>'
    for bad in (r"$\frac{1}{2}$", "one $ sign", 3):
        with pytest.raises(ValueError, match="marked"):
            plain_text(bad)


def test_control_validates_its_grid():
    from attention_scaling.explorables import Control

    with pytest.raises(ValueError, match="default of m"):
        Control("m", "m", "", (1, 2), 3, ("select", (1, 2)))
    with pytest.raises(ValueError, match="names of m"):
        Control("m", "m", "", (1, 2), 1, ("radio", (1, 2)), names=("one",))
    with pytest.raises(ValueError, match="live control kind"):
        Control("m", "m", "", (1, 2), 1, ("dial", (1, 2)))


def test_readout_numbers_are_never_a_misleading_zero_or_one():
    from attention_scaling.explorables import readout_number

    assert readout_number(0.2481, 3) == "0.248"
    assert readout_number(6.3e-16, 4) == "6.3e-16"  # a vanishing gradient is small, not 0.0000
    assert readout_number(0.0, 3) == "0.000"
    assert readout_number(-1e-17, 2) == "0.00"  # an entropy's rounding error is not negative
    assert readout_number(1 - 2.1e-5, 3, near_one=True) == "1 − 2.1e-05"
    assert readout_number(1.0, 3, near_one=True) == "> 1 − 1e-16"
    assert readout_number(-0.0, 2) == "0.00" and readout_number(0.0031, 2) == "0.0031"
    assert readout_number(0.9994, 3, near_one=True) == "0.999"
    for bad in (float("nan"), "0.5", True):
        with pytest.raises(ValueError, match="x must"):
            readout_number(bad, 3)
    _, _, readout = scale_explorer().frame(scale=100.0)
    assert "‖J‖₂ 0.000" not in readout.text and "largest P(1−P) 0.000 " not in readout.text


# --- the lesson's stops (attention_scaling.lesson), stepped through in presentation mode ---

from attention_scaling import lesson  # noqa: E402

EXPLORERS = {"attention": lambda: attention_explorer(n_pairs=500), "scale": scale_explorer,
             "normalization": normalization_explorer, "context": context_explorer}


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_every_lesson_stop_is_a_point_of_its_players_grid(name):
    explorable = EXPLORERS[name]()
    assert explorable.name == name and explorable.stops == lesson.stops(name)
    grid = {c.name: c.values for c in explorable.controls}
    assert lesson.check_stops(name, grid) == lesson.stops(name)
    assert len(lesson.stops(name)) >= 4
    figure = explorable.make_figure()
    for stop in lesson.stops(name):
        assert 0 < len(stop.caption) <= lesson.CAPTION_MAX
        assert set(stop.settings) == set(grid) and all(stop.settings[k] in grid[k] for k in grid)
        assert 0 <= stop.panel < len(figure.fig.axes)


def test_a_stop_off_the_grid_is_refused_naming_explorer_and_stop():
    explorable = attention_explorer()
    grid = {c.name: c.values for c in explorable.controls}
    bad = lesson.stops("attention")[:2] + (lesson.Stop("between grid points", {"d_k": 100, "magnitude": 1.0}),)
    with pytest.raises(ValueError, match=r"explorer 'attention', stop 3 \('between grid points'\): d_k = 100"):
        lesson.check_stops("attention", grid, bad)
    missing = (lesson.Stop("no magnitude", {"d_k": 64}),)
    with pytest.raises(ValueError, match=r"explorer 'attention', stop 1 .*exactly the controls"):
        lesson.check_stops("attention", grid, missing)
    with pytest.raises(ValueError, match="caption"):
        lesson.check_stops("attention", grid, (lesson.Stop("x" * (lesson.CAPTION_MAX + 1), {"d_k": 64,
                                                                                          "magnitude": 1.0}),))
    with pytest.raises(ValueError, match="explorer must be one of"):
        lesson.stops("softmax")
    for panel in (3, -1, True, 1.0):  # a panel of the figure, by its index from the left
        with pytest.raises(ValueError, match="panel must be"):
            lesson.check_stops("attention", grid, (lesson.Stop("one", {"d_k": 64, "magnitude": 1.0}, panel),))
    # the player refuses them too, before computing a frame
    explorable.stops = bad
    with pytest.raises(ValueError, match="explorer 'attention', stop 3"):
        explorable.static_html()


def test_player_data_carries_the_stops_as_slider_positions():
    from attention_scaling import web

    markup = static_player(normalization_explorer)
    data = player_data(markup)
    assert len(data["stops"]) == len(lesson.stops("normalization"))
    for shipped, stop in zip(data["stops"], lesson.stops("normalization")):
        assert shipped["caption"] == stop.caption and shipped["panel"] == stop.panel
        s = stop.settings
        assert shipped["at"] == [NormalizationFigure.MODES.index(s["mode"]), web.magnitude_position(s["magnitude"]),
                                 web.gain_position(s["gain"])]
    # presentation mode's markup: a Present button, a caption for the stops, Back, Next and
    # Close buttons that name their keys
    assert '<button type="button" class="asb-present-open"' in markup
    assert '<p class="asb-stop" aria-live="polite">' in markup
    for cls, text in (("back", "← Back"), ("next", "Next →"), ("close", "Close <kbd>Esc</kbd>")):
        assert re.search(rf'<button type="button" class="asb-present-{cls}" title="[^"]+">{text}</button>',
                         markup), cls


def test_a_player_without_lesson_stops_ships_none():
    data = player_data(static_player(scale_explorer))
    assert len(data["stops"]) == len(lesson.stops("scale"))
    explorable = scale_explorer()
    explorable.stops = ()
    assert player_data(explorable.static_html())["stops"] == []
