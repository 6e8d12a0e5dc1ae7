"""The explorers' readouts as small tables (attention_scaling.readout): rows, columns and digits.

Every cell is checked against the state's own numbers, read back from the cell's text by a
parser of this file (not the formatter's code): at most three significant figures, within half
a unit of the last digit shown, and never a 0 or 1 for a value that is not exactly that.
"""

import itertools
import re

import pytest
from bs4 import BeautifulSoup

from attention_scaling.explorables import (attention_explorer, context_explorer, normalization_explorer,
                                           scale_explorer)
from attention_scaling.numerics import Expectation
from attention_scaling.readout import Group, Readout, Row, readout_html, readout_mean, readout_number

NUMBER = re.compile(r"^(?:(?P<one>> 1 − 1e-16)|1 − (?P<gap>\d(?:\.\d+)?e-\d+|\d\.\d+)|(?P<x>\d+\.\d+|\d(?:\.\d+)?e-\d+|0\.0+\d+))$")


def parsed(text: str) -> tuple[float, float, int]:
    """(value, half a unit of its last digit, significant figures) of a cell's number."""
    m = NUMBER.match(text)
    assert m, f"not a readout number: {text!r}"
    if m["one"]:
        return 1.0, 1e-16, 1
    shown = m["gap"] or m["x"]
    mantissa, _, exponent = shown.partition("e")
    decimals = len(mantissa.partition(".")[2]) - (int(exponent) if exponent else 0)
    digits = mantissa.replace(".", "").lstrip("0") or "0"
    value = float(shown)
    return (1 - value if m["gap"] else value), 0.5 * 10.0**-decimals * (1 + 1e-9), len(digits)


def check_number(text: str, x: float, complement: float | None = None, max_figures: int = 3) -> None:
    """``text`` shows ``x`` to its own rounding; "1 − g" shows ``complement`` (1 − x from the
    other weights, more exact than the float ``x``) to g's rounding when it is given."""
    value, half, figures = parsed(text)
    assert figures <= max_figures, f"{text!r} has {figures} significant figures"
    if complement and text.startswith("1 − "):
        gap, gap_half, _ = parsed(text[len("1 − "):])
        assert abs(gap - complement) <= gap_half and abs(value - x) <= 2 * gap + 1e-15, (text, x, complement)
        return
    assert abs(value - x) <= half or (text.startswith("> 1 − ") and x == 1.0), (text, x)
    if value in (0.0, 1.0) and not text.startswith("> 1 − ") and not -1e-12 < x < 0:  # (a rounding error's -1e-17)
        assert x == value, f"{text!r} shows {value:g} for {x!r}, which is not exactly that"


def check_mean(text: str, e: Expectation) -> None:
    """A mean to its standard error's decimal place (both in fixed point), or to five decimals
    beside a smaller error (then written to one figure, in exponent form)."""
    mean, _, se = text.partition(" ± ")
    check_number(mean, e.mean, max_figures=6)
    check_number(se, e.se)
    if "e" not in mean and not mean.startswith("1 − "):
        places = len(mean.partition(".")[2])
        assert places == len(se.partition(".")[2]) if "e" not in se else places == 5, text


POINTS = {
    attention_explorer: [{"d_k": 64, "magnitude": 1.0}, {"d_k": 1024, "magnitude": 10.0},
                         {"d_k": 128, "magnitude": 10.0}, {"d_k": 1, "magnitude": 0.1}],
    scale_explorer: [{"scale": 0.05}, {"scale": 1.0}, {"scale": 100.0}],
    normalization_explorer: [{"mode": "qk-l2", "magnitude": 1.0, "gain": 2.0},
                             {"mode": "scaled", "magnitude": 10.0, "gain": 8.0}],
    context_explorer: [{"method": m, "n": n, "gap": g} for m in ("plain", "zero-logit")
                       for n, g in ((16, 10.0), (1024, 6.0), (65536, 0.0))],
}
STATE = {  # the state's measure behind each row
    "largest weight": "max_weight", "entropy": "entropy", "largest P(1−P)": "largest_gradient",
    "norm of the Jacobian ‖J‖₂": "jacobian_norm",
}


def _tables(readout):
    soup = BeautifulSoup(readout_html(readout), "html.parser")
    return soup, soup.select("table.asb-rt")


@pytest.mark.parametrize("make", list(POINTS), ids=lambda m: m.__name__)
def test_table_rows_and_cells_are_the_states_numbers(make):
    exp = make()
    for point in POINTS[make]:
        _, alt, readout = exp.frame(**point)
        state = exp.figure.state
        soup, tables = _tables(readout)
        assert soup.select_one(".asb-lead").get_text() == readout.lead and "seed 0" in readout.lead
        if make is attention_explorer:
            assert [t.caption.get_text() for t in tables] == ["Unscaled", "Scaled by 1/√dₖ"]
        else:
            assert len(tables) == 1 and tables[0].caption is None
        for table, group in zip(tables, readout.groups):
            heads = [th.get_text() for th in table.select("thead th")]
            labels = [th.get_text() for th in table.select("tbody th[scope=row]")]
            assert labels == [r.label for r in group.rows]
            cells = [[td.get_text() for td in tr.select("td")] for tr in table.select("tbody tr")]
            if make is context_explorer:
                assert heads == ["measure", "this draw"]
                r = state
                expected = [r.needle, r.spread, r.gradient, r.top_distractor, r.others - r.sink,
                            r.sink if point["method"] == "zero-logit" else None]
                for (cell,), x in zip(cells, expected):
                    assert cell == "none" if x is None else check_number(cell, x) is None
                continue
            assert heads == ["measure", "this draw", "mean ± s.e."]
            name = {"Unscaled": "unscaled", "Scaled by 1/√dₖ": "scaled"}.get(group.caption)
            draws = getattr(state.draw, name) if name else state.draw
            means = getattr(state.mean, name) if name else state.mean
            assert len(cells) == len(labels) >= 3
            gaps = {r.label: r.complement for r in group.rows}  # 1 − x from the other weights
            for label, (draw, mean) in zip(labels, cells):
                if gaps[label] is not None:
                    assert abs(gaps[label] - (1 - getattr(draws, STATE[label]))) < 1e-15
                check_number(draw, getattr(draws, STATE[label]), gaps[label])
                check_mean(mean, getattr(means, STATE[label]))
        # the footnote says once what every mean and ± is; the alt text names the numbers
        if readout.has_means:
            assert soup.select_one(".asb-foot").get_text().startswith("Each mean is over 200 ")
            assert "±" not in readout.note.replace("± one standard error", "")
        for cell in readout.cells():
            assert cell in alt or cell == "none"


@pytest.mark.parametrize("make", list(POINTS), ids=lambda m: m.__name__)
def test_no_cell_is_a_misleading_zero_or_one_anywhere_on_the_grid(make):
    """At every combination of each control's round values: a cell that reads 0 or 1 is exactly that."""
    exp = make()
    fig = exp.figure
    names = [c.name for c in exp.controls]
    for combo in itertools.product(*[c.values for c in exp.controls]):
        point = dict(zip(names, combo))
        fig.update(**(exp.defaults() | point))
        readout = exp.describe(fig.state)
        for group in readout.groups:
            for row in group.rows:
                draw, *mean = row.cells(readout.has_means)
                if row.draw is not None:
                    check_number(draw, row.draw, row.complement)
                if mean:
                    check_mean(mean[0], row.mean)


def test_readout_mean_writes_the_mean_to_its_errors_place():
    """The mean claims the precision of its standard error, no more and no less (a review read
    "2.77 ± 0.0002" as 2.7700 for a mean of 2.7653, 24 errors away)."""
    e = Expectation
    assert readout_mean(e(0.962, 0.006, 0, 1, 9)) == "0.962 ± 0.006"
    assert readout_mean(e(0.009, 0.003, 0, 1, 9), 2) == "0.009 ± 0.003"  # the error keeps a digit
    assert readout_mean(e(0.1337, 2e-4, 0, 1, 9)) == "0.1337 ± 0.0002"
    assert readout_mean(e(2.76527, 2e-4, 0, 1, 9), 2) == "2.7653 ± 0.0002"  # the review's entropy mean
    assert readout_mean(e(2.6585, 3e-3, 0, 1, 9), 2) == "2.659 ± 0.003"
    assert readout_mean(e(2.07839, 4e-5, 0, 1, 9), 2) == "2.07839 ± 0.00004"
    # below five decimals the mean stops there and the error keeps one figure of its own
    assert readout_mean(e(2.772541, 1e-6, 0, 1, 9), 2) == "2.77254 ± 1e-06"
    assert readout_mean(e(0.99991, 9e-5, 0, 1, 9), near_one=True) == "0.99991 ± 0.00009"
    assert readout_mean(e(0.9999991, 8e-7, 0, 1, 9), near_one=True) == "1 − 9e-07 ± 8e-07"  # never "1.00000"
    assert readout_mean(e(0.5, 0.0, 0, 1, 9)) == "0.500 ± 0.000"  # exactly 0 may read 0
    assert readout_mean(e(4.5e-8, 4.5e-8, 0, 1, 9), 2) == "4.5e-08 ± 4e-08"
    assert readout_number(0.0625) == "0.062" and readout_number(0.00123) == "0.0012" and readout_number(0.00031) == "0.00031"


def test_readout_validates_its_parts():
    with pytest.raises(ValueError, match="at least one group"):
        Readout("Lead.", ())
    with pytest.raises(ValueError, match="braces"):
        Readout("Lead.", (Group("", (Row("a {0}", 0.5),)),))
    r = Readout("Lead.", (Group("", (Row("a", 0.25), Row("b", None))),), note="Note.")
    assert r.columns == ("measure", "this draw") and r.values() == ["Lead.", "0.250", "none"]
    assert r.text == "Lead. A 0.250. Note."
    with pytest.raises(ValueError, match="no row"):
        r.row("", "c")


def test_a_saturated_weight_shows_its_distance_from_1_from_the_other_weights():
    """At s = 100 the scale explorer's largest weight is 1 − 3.16e-16 (mpmath); ``1 - P`` in
    float64 gives 2.2e-16. The readout takes the distance from the other weights, so it agrees
    with the row's own P(1−P)."""
    from attention_scaling.explorables import scale_explorer

    assert readout_number(0.9999999999999998, 3, near_one=True) == "1 − 2.2e-16"  # by subtraction
    assert readout_number(0.9999999999999998, 3, near_one=True, complement=3.156e-16) == "1 − 3.2e-16"
    assert readout_number(1.0, 3, near_one=True, complement=1.1e-27) == "1 − 1.1e-27"
    assert readout_number(1.0, 3, near_one=True, complement=0.0) == "> 1 − 1e-16"  # underflowed: all we know
    assert readout_number(0.5, 3, near_one=True, complement=0.5) == "0.500"  # not near 1: unused
    for bad in (-1e-3, 1.0, float("nan")):
        with pytest.raises(ValueError, match="complement"):
            readout_number(1.0, 3, near_one=True, complement=bad)
    explorer = scale_explorer()
    figure = explorer.make_figure()
    figure.update(scale=100.0)
    rows = {r.label: r.cells(True)[0] for g in explorer.describe(figure.state).groups for r in g.rows}
    assert rows["largest weight"] == "1 − 3.2e-16" and rows["largest P(1−P)"] == "3.2e-16"


def test_every_small_value_keeps_two_significant_figures():
    """Chapter 7 quotes the needle's weight among 65 536 keys as 0.0037 and the capped one as
    0.00062; the readout said 0.004 and 0.001, and the needle's P(1-P) beside it still said
    0.004. Every value below 0.01 keeps two significant figures, in every row; a mean keeps the
    decimal place of its standard error (small=False)."""
    assert readout_number(0.00366) == "0.0037"
    assert readout_number(0.00061) == "0.00061"
    assert readout_number(0.0123) == "0.012"  # from 0.01 on, three decimals
    assert readout_number(-0.0042) == "-0.0042"
    assert readout_number(0.00366, 3, small=False) == "0.004"  # a mean to its error's place
    assert readout_mean(Expectation(0.0091, 0.003, 0.0031, 0.0151, 200)) == "0.009 ± 0.003"
    explorer = context_explorer()
    figure = explorer.make_figure()
    for method in ("plain", "soft-cap"):
        figure.update(n=65536, gap=6.0, method=method)
        rows = {r.label: r.cells(False)[0] for g in explorer.describe(figure.state).groups for r in g.rows}
        needle = figure.state.needle
        assert needle < 0.01 and rows["needle weight"] == f"{needle:.2g}", method
        for label, cell in rows.items():
            value = float(cell) if cell.replace(".", "", 1).replace("e-", "", 1).isdigit() else None
            if value is not None and 0 < value < 0.01:
                assert len(cell.lstrip("0.").split("e")[0].replace(".", "")) == 2, (method, label, cell)
