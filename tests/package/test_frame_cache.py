"""The live frame cache (ipywidgets 8): the fast slider's row of frames held in the page, and
what the kernel path draws for the same positions (attention_scaling.explorables.live).

Split from test_explorables so that the package tier's two workers share its cost."""

from __future__ import annotations

import re

import numpy as np
import pytest

from frame_explorer import frame_normalization_explorer as normalization_explorer
from checks import frame_cache_of, png_pixels, shown_view


# The frame players' fast sliders (the scale and context explorers compute in the page:
# test_module_widget.py).
FAST = {normalization_explorer: "magnitude"}


@pytest.mark.parametrize("make", list(FAST))
def test_fast_slider_keeps_the_live_steps(make):
    """The cached slider is a selection over the steps it had: a log slider's default times
    the powers of 10**step inside its range (101 for the magnitude), a select's options."""
    import ipywidgets as w

    exp = make()
    cache = frame_cache_of(exp)
    if cache is None:
        return
    control = next(c for c in exp.controls + exp.live_only if c.name == FAST[make])
    assert cache.slider.description == control.described() and isinstance(cache.slider, w.SelectionSlider)
    values = [x for _, x in cache.slider.options] if control.live[0] == "log" else list(cache.slider.options)
    assert cache.slider.value == control.default and values[cache.slider.index] == control.default
    if control.live[0] == "select":
        assert values == list(control.live[1])
        return
    low, high, step = control.live[1:]
    logs = np.log10(values)
    assert np.allclose(np.diff(logs), step, rtol=0, atol=1e-9)  # evenly spaced in log, by the step
    assert values[0] >= low * (1 - 1e-12) and values[-1] <= high * (1 + 1e-12)
    assert values[0] / 10**step < low and values[-1] * 10**step > high  # and none left out
    labels = [label for label, _ in cache.slider.options]  # as the log slider's readout showed them
    assert labels[cache.slider.index] == "1.00" and labels[-1] in ("10.0", "100")
    for label, x in zip(labels, values):
        assert abs(float(label) / x - 1) < 5e-3 and len(re.sub(r"^[0.]+|\.", "", label)) == 3, label
    if control.name == "magnitude":
        assert len(values) == 101 and values[0] == 0.1 and values[-1] == 10.0


@pytest.mark.parametrize("make", list(FAST))
def test_cached_frames_are_the_kernel_paths_frames(make):
    """Each position of a filled row shows the frame and readout the kernel draws when the
    slider is moved there (a second widget, never filled: every step is drawn on demand),
    for the state at that position, with no NaN: every 4th position and the last (each
    frame costs 20–90 ms twice)."""
    filled, stepped = make(), make()
    cache = frame_cache_of(filled)
    if cache is None:
        return
    cache.fill_all()
    kernel = stepped.widget().frame_cache
    fast = FAST[make]
    every = sorted({*range(0, cache.n, 4), cache.n - 1})
    for i in every:
        drawn_before = i in kernel.fresh  # (the default's view, drawn for the display)
        kernel.slider.index = i
        if not drawn_before:
            assert getattr(stepped.figure.state, fast) == pytest.approx(cache.positions[i], rel=1e-12)
        image, readout = shown_view(kernel.box)
        assert kernel.tab.selected_index in (i, kernel.n, kernel.n + 1)
        cached_image, cached_readout = cache.views[i].children
        assert cached_readout.value == readout.value, f"position {i}"
        assert "nan" not in cached_readout.value.lower()
        assert np.array_equal(png_pixels(cached_image.value), png_pixels(image.value)), f"position {i}"
        assert np.all(np.isfinite(stepped.figure.state.values()))


def test_nothing_is_linked_before_the_row_is_full():
    import ipywidgets as w

    exp = normalization_explorer()
    cache = frame_cache_of(exp)
    if cache is None:
        return
    assert not cache.linked and "asb-live-cached" not in cache.frame._dom_classes
    for _ in range(cache.n - 1):  # the first position was drawn for the display
        assert not cache.linked and len(cache.fresh) < cache.n
        assert cache.fill_step()
    assert not cache.linked and cache.tab.selected_index == cache.slider.index
    assert not cache.fill_step()  # nothing was left, so it links
    assert cache.linked and cache.fresh == set(range(cache.n))
    (link,) = cache.links
    assert isinstance(link, w.widgets.widget_link.Link) and link.source == (cache.slider, "index")
    assert link.target == (cache.tab, "selected_index")
    assert cache.tab.selected_index == cache.slider.index and "asb-live-cached" in cache.frame._dom_classes


def test_a_linked_fast_step_draws_nothing_in_the_kernel():
    exp = normalization_explorer()
    cache = frame_cache_of(exp)
    if cache is None:
        return
    cache.fill_all()
    writes, draws = [], []
    for view in cache.views:
        for part in view.children:
            part.observe(lambda change: writes.append(change), names="value")
    update = exp.figure.update
    exp.figure.update = lambda **params: (draws.append(params), update(**params))
    cache.slider.index = 3
    assert writes == [] and draws == []
    cache.controls["gain"].value = 16.0  # the control test: unlinked, the kernel draws
    assert draws and writes


@pytest.mark.parametrize("other, value", [("mode", "qk-l2"), ("gain", 16.0)])
def test_the_row_refills_after_another_control_changes(other, value):
    """Another control unlinks the row, shows its own frame at once (drawn, not a stale one),
    and the row refills: every view then belongs to the new setting."""
    exp = normalization_explorer()
    cache = frame_cache_of(exp)
    if cache is None:
        return
    box = cache.box
    cache.fill_all()
    assert cache.linked
    control = cache.controls[other]
    control.value = value
    assert not cache.linked and "asb-live-cached" not in cache.frame._dom_classes
    shown = shown_view(box)[1].value
    assert getattr(exp.figure.state, other) == value
    from attention_scaling.explorables.live import _readout_html

    assert shown == _readout_html(exp.describe(exp.figure.state))  # the live table of the new state
    assert len(cache.fresh) <= 1
    cache.fill_all()
    assert cache.linked
    fresh = normalization_explorer().widget().frame_cache  # drawn at this setting from the start
    fresh.controls[other].value = value
    fresh.fill_all()
    for i in range(cache.n):
        assert cache.views[i].children[1].value == fresh.views[i].children[1].value, f"position {i}"


def html_unescape(text):
    import html

    return html.unescape(text)


def test_the_kernel_never_writes_into_the_view_on_show():
    """A frame and its readout reach the page as two messages: written into the view on
    show, the page could paint a frame beside another frame's readout. Every write goes to a
    hidden view, which is then shown."""
    exp = normalization_explorer()
    cache = frame_cache_of(exp)
    if cache is None:
        return
    box = cache.box
    on_show = []
    for k, view in enumerate(cache.views):
        for part in view.children:
            part.observe(lambda change, k=k: on_show.append(k) if cache.tab.selected_index == k else None,
                         names="value")
    cache.slider.index = 5  # kernel mode: drawn, then shown
    cache.controls["gain"].value = 16.0  # the shown view is stale now
    cache.fill_step()
    cache.slider.index = 6
    cache.controls["mode"].value = "qk-l2"
    cache.fill_all()
    cache.controls["gain"].value  # noqa: B018 - still linked to nothing else
    assert on_show == []
    assert shown_view(box)[1].value == cache.views[cache.slider.index].children[1].value
