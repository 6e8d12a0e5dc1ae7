"""An explorer's readout as data: a lead sentence, small tables and a footnote.

Every explorer's ``describe(state)`` returns a :class:`Readout`. One formatter renders it:
:func:`readout_html` (the table under a static player, in a live explorer and in the
printed handout) and :attr:`Readout.text` (the same numbers as one sentence, for alt text
and screen readers). A number is formatted once, by :func:`readout_number` (one value) or
:func:`readout_mean` (a mean ± one standard error, the mean to the error's decimal place), and
never as a misleading 0 or 1.

A static player ships, per frame, only :meth:`Readout.values` (the lead and the cells);
its page fills the table and builds the alt text from a :meth:`Readout.template`.
"""

from __future__ import annotations

from typing import Any

import html
import math
from dataclasses import dataclass

import numpy as np

from . import _validate as v

__all__ = ["Row", "Group", "Readout", "readout_number", "readout_mean", "readout_html", "NONE"]

#: The cell of a measure a frame does not have (the sink of a method without one).
NONE = "none"


def readout_number(x: float, digits: int = 3, near_one: bool = False, complement: float | None = None,
                   small: bool = True) -> str:
    """One measured value to ``digits`` decimals, never rounded to a misleading 0 or 1.

    ``0.248`` normally; a value too small for ``digits`` decimals keeps two significant
    digits (``6.3e-16``, ``0.0012``: a vanishing gradient is small, not zero); with
    ``near_one`` (a weight) a value that would round to 1 shows its distance from 1
    (``1 − 2.1e-05``). That distance is ``complement`` when given (``1 - x`` summed from
    the other weights, with all its digits: ``1 − 3.2e-16`` where ``1 - x`` would give
    2.2e-16), else ``1 - x``, or ``> 1 − 1e-16`` when ``x`` is 1 in double precision. A tiny
    negative value from rounding (an entropy of −1e-17) shows as 0. A value below 0.01 keeps two
    significant figures (``0.0037``, not ``0.004``; ``0.00062``, not ``0.001``), so that a small
    weight or gradient reads as the text quotes it; ``small=False`` keeps ``digits`` decimals
    down to ``0.5 * 10**-digits`` (a mean written to the decimal place of its error).
    """
    if isinstance(x, bool) or not isinstance(x, (int, float, np.floating, np.integer)) or not np.isfinite(x):
        raise ValueError(f"x must be a finite real number, got {x!r}")
    x = float(x)
    digits = v.positive_int(digits, "digits")
    half = 0.5 * 10.0**-digits
    if x < 0 and x > -half or x == 0:  # -1e-17, or -0.0
        x = 0.0
    if near_one and x > 1 - half:
        gap = None if complement is None else v.as_float(complement, "complement")
        if gap is not None and not 0 <= gap < 1:
            raise ValueError(f"complement must be 1 - x from the other weights, in [0, 1), got {gap!r}")
        if gap:
            return f"1 − {gap:.2g}"
        return "> 1 − 1e-16" if x >= 1 else f"1 − {1 - x:.2g}"
    if x != 0 and (abs(x) < half or small and abs(x) < 0.01):
        return f"{x:#.2g}"  # "#": 0.0010, not 0.001, keeps its second figure
    return f"{x:.{digits}f}"


#: The most decimals a mean is written to; a smaller standard error keeps one significant figure.
MEAN_PLACES = 5


def readout_mean(e, digits: int = 3, near_one: bool = False) -> str:
    """A mean and its standard error to a common decimal place, ``0.962 ± 0.006``.

    As :meth:`~attention_scaling.numerics.Expectation.show`: ``digits`` decimals, or more when
    the error is smaller, so that it keeps one significant digit and the mean is written to the
    same place (``0.009 ± 0.003``, ``2.7653 ± 0.0002``: the mean claims no more, and no less,
    than its error allows). At most :data:`MEAN_PLACES` decimals: a smaller error is written to
    one significant figure of its own (``2.77254 ± 1e-06``), and a mean that small too in
    exponent form (``4.5e-08 ± 4e-08``). The mean is shown by :func:`readout_number`, never a
    misleading 0 or 1, its distance from 1 the draws' own (``Expectation.complement``) where it
    was summed from them.
    """
    digits = v.positive_int(digits, "digits")
    places = digits
    if 0 < e.se < 0.95 * 10.0**-digits:  # the rule of Expectation.show
        places = -math.floor(math.log10(e.se))
        if round(e.se, places) >= 10.0 ** (1 - places):
            places -= 1
    if places <= MEAN_PLACES:
        return f"{readout_number(e.mean, places, near_one, e.complement, small=False)} ± {e.se:.{places}f}"
    if e.mean != 0 and abs(e.mean) < 10.0**-MEAN_PLACES:  # a tiny mean (a saturated row's entropy)
        return f"{e.mean:.2g} ± {e.se:.1g}"
    return f"{readout_number(e.mean, MEAN_PLACES, near_one, e.complement, small=False)} ± {e.se:.1g}"


@dataclass(frozen=True)
class Row:
    """One measure: its value in this draw and, when there is one, its mean over many draws.

    ``draw`` is None for a measure this frame does not have (shown as :data:`NONE`).
    ``digits`` are decimals: 3 for weights and gradients, 2 for an entropy.
    """

    label: str
    draw: float | None
    mean: Any = None  # an attention_scaling.numerics.Expectation
    digits: int = 3
    near_one: bool = False
    complement: float | None = None  # 1 - draw from the other weights (readout_number)

    def cells(self, with_mean: bool) -> tuple[str, ...]:
        shown = NONE if self.draw is None else readout_number(self.draw, self.digits, self.near_one,
                                                               self.complement)
        if not with_mean:
            return (shown,)
        return shown, NONE if self.mean is None else readout_mean(self.mean, self.digits, self.near_one)

    @property
    def mean_shown(self) -> str:
        """The mean alone, with the digits of its cell (for prose that quotes the readout)."""
        return readout_number(self.mean.mean, self.digits, self.near_one, small=False)


@dataclass(frozen=True)
class Group:
    """One table: the measures of one curve (``caption``: "unscaled"), or of the only one ("")."""

    caption: str
    rows: tuple


@dataclass(frozen=True)
class Readout:
    """What an explorer reads out for one state (see the module docstring).

    ``lead`` states the settings, ``note`` what "mean" and "±" are (each a sentence, with its
    full stop); ``intro`` and ``figure`` are for the alt text only: what the image is, and
    what its panels draw.
    """

    lead: str
    groups: tuple
    note: str = ""
    intro: str = ""
    figure: str = ""

    def __post_init__(self):
        if not self.groups or any(not g.rows for g in self.groups):
            raise ValueError("a readout needs at least one group, each with at least one row")
        fixed = [self.note, self.intro, self.figure] + [g.caption for g in self.groups] + [
            r.label for g in self.groups for r in g.rows]
        if any("{" in x or "}" in x for x in fixed):  # they are written into templates as they are
            raise ValueError(f"a readout's fixed text must have no braces: {fixed}")

    @property
    def has_means(self) -> bool:
        return any(r.mean is not None for g in self.groups for r in g.rows)

    @property
    def columns(self) -> tuple[str, ...]:
        return ("measure", "this draw", "mean ± s.e.") if self.has_means else ("measure", "this draw")

    def cells(self) -> list[str]:
        """Every value cell, table by table, row by row: what changes from frame to frame."""
        return [c for g in self.groups for r in g.rows for c in r.cells(self.has_means)]

    def values(self) -> list[str]:
        """The lead, then :meth:`cells`: every string the table shows (what the page's module
        writes, compared string for string)."""
        return [self.lead, *self.cells()]

    def row(self, caption: str, label: str) -> Row:
        """The row ``label`` of the group whose caption starts with ``caption`` ("" for the only one)."""
        for g in self.groups:
            if g.caption.startswith(caption):
                for r in g.rows:
                    if r.label == label:
                        return r
        raise ValueError(f"no row {label!r} in a group {caption!r} of this readout: {self.text}")

    def _sentence(self, values: list[str]) -> str:
        """The readout as one sentence, from ``values`` (:meth:`values`, or placeholders)."""
        lead, cells = values[0], iter(values[1:])
        parts = []
        for g in self.groups:
            said = []
            for r in g.rows:
                got = [next(cells) for _ in r.cells(self.has_means)]
                if r.draw is None:
                    continue
                said.append(f"{r.label} {got[0]}" + (f" (mean {got[1]})" if len(got) > 1 else ""))
            listed = ", ".join(said)
            parts.append(f"{g.caption}: {listed}" if g.caption else listed[:1].upper() + listed[1:])
        return f"{lead} " + "; ".join(parts) + "." + (f" {self.note}" if self.note else "")

    @property
    def text(self) -> str:
        """The readout as plain text: what a screen reader hears when the table changes."""
        return self._sentence(self.values())

    @property
    def alt(self) -> str:
        """The figure's alt text: what it is, the readout's numbers, what its panels draw."""
        return " ".join(x for x in (self.intro, self.text, self.figure) if x)


def readout_html(r: Readout, live_region: bool = True) -> str:
    """The readout as HTML: the lead, one ``<table>`` per group, the note as a footnote.

    With ``live_region``, a visually hidden ``aria-live`` sentence (:attr:`Readout.text`)
    follows: a screen reader hears the new numbers, with their names, when they change.
    """
    esc = html.escape
    tables = []
    head = "".join(f'<th scope="col">{esc(c)}</th>' for c in r.columns)
    for g in r.groups:
        body = "".join(f'<tr><th scope="row">{esc(row.label)}</th>'
                       + "".join(f"<td>{esc(c)}</td>" for c in row.cells(r.has_means)) + "</tr>"
                       for row in g.rows)
        caption = f"<caption>{esc(g.caption)}</caption>" if g.caption else ""
        tables.append(f'<table class="asb-rt">{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')
    note = f'<p class="asb-foot">{esc(r.note)}</p>' if r.note else ""
    said = (f'<p class="asb-said" aria-live="polite">{esc(r.text)}</p>') if live_region else ""
    return (f'<div class="asb-readout"><p class="asb-lead">{esc(r.lead)}</p>'
            f'<div class="asb-tables">{"".join(tables)}</div>{note}{said}</div>')
