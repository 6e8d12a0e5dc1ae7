"""An explorer that computes in the page, in Jupyter (issue 30, "the same module in Jupyter"):
``scale_explorer()`` displays an anywidget running the static page's module, its slider an
ipywidgets FloatLogSlider linked to it in the front end, and the kernel still knows the state.

Runs with the oldest versions too (Colab's ipywidgets 7.7.1, anywidget 0.9): there the widget is
made and its state follows its values; what the front end draws is tested in Chromium
(tests/browser/test_web_numerics.py) and in a real JupyterLab (tests/system/test_jupyterlab.py)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_scaling import web
from attention_scaling.explorables import ATTENTION_MAGNITUDES, SCALES, STATIC_ENV, attention_explorer, scale_explorer
from attention_scaling.figures import ScaleFigure


@pytest.fixture
def live(monkeypatch):
    monkeypatch.delenv(STATIC_ENV, raising=False)


def test_the_scale_explorer_is_a_slider_linked_to_the_pages_module(live):
    import anywidget
    import ipywidgets as w

    box = scale_explorer().widget()
    title, slider, view = box.children
    assert isinstance(title, w.HTMLMath) and isinstance(slider, w.FloatLogSlider)
    assert isinstance(view, anywidget.AnyWidget) and box.view is view
    assert slider.description == "scale $s$ (inverse temperature $1/T$)"
    # the live steps (10**0.02 apart) through the default, so that the slider shows s = 1 exactly
    assert (slider.base, slider.min, slider.max, slider.step) == (10, -1.3, 2.0, 0.02)
    assert slider.value == view.scale == 1.0
    (link,) = box.links  # in the front end: the page repaints without asking the kernel
    assert link._model_name == "LinkModel"  # both ways (ipywidgets.jslink), not jsdlink's one way
    assert link.source == (slider, "value") and link.target == (view, "scale")
    # no echo of a value back to the page that sent it (ipywidgets 8)
    assert slider.trait_metadata("value", "echo_update", default=True) is False
    assert view.trait_metadata("scale", "echo_update", default=True) is False
    assert view.mount == "mountScale" and view.controls == ["scale"]
    assert view.payload == web.scale_payload(0, nice=SCALES)


def test_the_views_module_is_one_file_with_a_default_export(live):
    view = scale_explorer().widget().view
    assert view._esm == web.bundle("widget.js")
    assert view._esm.rstrip().endswith("export default __asb_widget.default;")
    assert "import {" not in view._esm and "mountScale" in view._esm


@pytest.mark.parametrize("scale", [0.05, 0.37, 3.0, 100.0, 100.00000000000004, 0.01])
def test_the_kernel_knows_the_state_the_view_shows(live, scale):
    view = scale_explorer().widget().view
    view.scale = scale
    state = view.state
    scale = min(100.0, max(0.05, scale))  # held to the range, as the page holds it
    fig = ScaleFigure(seed=0)
    fig.update(scale=scale)
    assert state.scale == scale
    assert np.array_equal(state.weights, fig.state.weights)
    assert state.draw == fig.state.draw and state.mean == fig.state.mean


def test_it_displays_as_its_box(live):
    exp = scale_explorer()
    bundle = exp._repr_mimebundle_()
    assert set(bundle) == {"application/vnd.jupyter.widget-view+json", "text/plain"}
    assert bundle["text/plain"].endswith("(live: needs a running kernel)")


def test_every_explorer_has_a_module():
    """An explorer is its module: one without a mount function and a payload is refused."""
    import dataclasses

    from attention_scaling.explorables import normalization_explorer

    with pytest.raises(ValueError, match="explorer normalization needs web and payload"):
        dataclasses.replace(normalization_explorer(), web=None, payload=None)


def test_the_attention_explorer_has_its_two_sliders_and_the_number_of_keys_linked(live):
    """d_k an IntSlider from 1 to 1024 (an arrow key steps by one), the magnitude a FloatLogSlider in
    steps of 10^0.02, and the number of keys (a live-only control) an IntSlider: each linked both
    ways to the view in the page, which redraws on all three."""
    import ipywidgets as w

    box = attention_explorer().widget()
    title, d_k, magnitude, n_keys, view = box.children
    assert isinstance(d_k, w.IntSlider) and (d_k.min, d_k.max, d_k.value, d_k.step) == (1, 1024, 64, 1)
    assert isinstance(magnitude, w.FloatLogSlider) and magnitude.value == 1.0
    assert isinstance(n_keys, w.IntSlider) and (n_keys.min, n_keys.max, n_keys.value) == (2, 64, 16)
    assert [link.source for link in box.links] == [(d_k, "value"), (magnitude, "value"), (n_keys, "value")]
    assert [link.target for link in box.links] == [(view, "d_k"), (view, "magnitude"), (view, "n_keys")]
    assert view.mount == "mountAttention" and view.controls == ["d_k", "magnitude", "n_keys"]
    assert view.payload == web.attention_payload(0, nice=ATTENTION_MAGNITUDES)


@pytest.mark.parametrize("d_k, magnitude, n_keys", [(47.6, 1.0, 16), (1024.0000001, 10.0, 64), (1.0, 0.1, 2)])
def test_the_kernel_knows_the_attention_state_the_view_shows(live, d_k, magnitude, n_keys):
    from attention_scaling.figures import AttentionFigure

    view = attention_explorer().widget().view
    view.d_k, view.magnitude, view.n_keys = d_k, magnitude, n_keys
    state = view.state
    want = min(1024, round(d_k))  # rounded and held to the range, as the page holds it
    fig = AttentionFigure()
    fig.update(d_k=want, magnitude=magnitude, n_keys=n_keys)
    assert (state.d_k, state.n_keys) == (want, n_keys)
    assert np.array_equal(state.weights.scaled, fig.state.weights.scaled)
    assert state.draw == fig.state.draw and state.mean == fig.state.mean


def test_the_context_explorer_is_a_choice_and_two_sliders_linked_to_its_module(live):
    """Its method is RadioButtons named in words (linked by index: a choice's front end holds
    that), n a FloatLogSlider over steps of 2^(1/64) shown as a whole number, the gap a
    FloatSlider in steps of 0.05; each linked both ways to the view in the page."""
    import ipywidgets as w

    from attention_scaling.explorables import context_explorer

    box = context_explorer().widget()
    title, method, n, gap, view = box.children
    assert isinstance(method, w.RadioButtons) and [label for label, _ in method.options][1] == "s·ln n scaling, s = 1/ln 16"
    assert isinstance(n, w.FloatLogSlider) and isinstance(gap, w.FloatSlider)
    assert (n.value, 10 ** n.min, 10 ** n.max) == pytest.approx((1024, 2, 65536), rel=1e-9) and n.readout_format == ".0f"
    assert (gap.value, gap.min, gap.max, gap.step) == (6.0, 0.0, 20.0, 0.05)
    assert [(link.source, link.target) for link in box.links] == [
        ((method, "index"), (view, "method")), ((n, "value"), (view, "n")), ((gap, "value"), (view, "gap"))]
    assert all(link._model_name == "LinkModel" for link in box.links)
    assert (view.method, view.n, view.gap) == (0, 1024.0, 6.0) and view.mount == "mountContext"
    assert view.payload == web.context_payload(0)


@pytest.mark.parametrize("n, method, gap", [(47.6, 1, 3.3), (65535.99999, 3, 0.0), (2.0, 2, 20.0)])
def test_the_kernel_knows_the_context_state_the_view_shows(live, n, method, gap):
    from attention_scaling.context import METHODS, ContextFigure
    from attention_scaling.explorables import context_explorer

    view = context_explorer().widget().view
    view.n, view.method, view.gap = n, method, gap
    fig = ContextFigure(seed=0)
    fig.update(n=int(round(n)), gap=gap, method=METHODS[method])  # the page rounds n to whole keys
    state, want = view.state, fig.state
    assert (state.n, state.method, state.gap) == (want.n, want.method, want.gap)
    assert state.values() == want.values()
