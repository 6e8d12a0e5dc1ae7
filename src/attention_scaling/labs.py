"""Predict, then check: the labs' check cells.

A lab asks the student to predict before a cell shows the result. The student keeps the
prediction in a variable (``prediction_1 = ...``, ``None`` until they have one); the check
cell prints what it measured and then :func:`check`, which says whether the prediction
matches: ``✓ matches`` or ``✗ look again``. It never prints the expected value: that lives
here (:func:`expected`, keyed ``"<lab>/<n>"`` for the lab's ``prediction_<n>``) or, for a value that depends on the
draw, is the measured number the cell has just printed; the reasoning is in the lab's
folded answer.

>>> check(8, Number(8.0, rel=0.15))
Your prediction, 8: ✓ matches
True
>>> check(None, "find-the-needle/1")
No prediction yet: set it in the prediction cell above, run that cell, then this one.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Choice", "Expression", "Number", "Parts", "check", "expected", "tasks"]

MATCH = "✓ matches"
LOOK_AGAIN = "✗ look again"
NOT_YET = "No prediction yet: set it in the prediction cell above, run that cell, then this one."


@dataclass(frozen=True)
class Number:
    """A number, within ``rel`` (relative), ``abs`` (absolute) or a ``factor`` of it.
    ``value`` may be a function of no arguments, computed when first needed."""

    value: object
    rel: float | None = None
    abs: float | None = None
    factor: float | None = None

    def __post_init__(self):
        given = [t for t in (self.rel, self.abs, self.factor) if t is not None]
        if len(given) != 1:
            raise ValueError("rel, abs, factor: give exactly one tolerance")
        if self.factor is not None and not self.factor > 1:
            raise ValueError(f"factor must be above 1, got {self.factor!r}")
        if not given[0] > 0:
            raise ValueError(f"tolerance must be positive, got {given[0]!r}")

    def judge(self, prediction, definitions=()):
        if isinstance(prediction, bool) or not isinstance(prediction, numbers.Real):
            return None, "write a number"
        x, want = float(prediction), float(self.value() if callable(self.value) else self.value)
        if not math.isfinite(x):
            return None, "write a finite number"
        if self.factor is not None:
            ok = x > 0 and want > 0 and abs(math.log(x / want)) <= math.log(self.factor)
        elif self.rel is not None:
            ok = abs(x - want) <= self.rel * abs(want)
        else:
            ok = abs(x - want) <= self.abs
        return ok, ""


@dataclass(frozen=True)
class Choice:
    """One of ``options`` (words, compared without case or surrounding spaces)."""

    value: str
    options: tuple

    def __post_init__(self):
        if self.value not in self.options:
            raise ValueError(f"value must be one of options {self.options!r}")

    def judge(self, prediction, definitions=()):
        words = ", ".join(repr(o) for o in self.options[:-1]) + f" or {self.options[-1]!r}"
        if not isinstance(prediction, str) or prediction.strip().lower() not in self.options:
            return None, f"write one of {words}"
        return prediction.strip().lower() == self.value, ""


@dataclass(frozen=True)
class Expression:
    """A SymPy expression equal to ``text``, in which names stand for the prediction's
    symbols and for the abbreviations of ``definitions`` (``P_1``), checked as a
    derivation checks a line (:func:`attention_scaling.symbolic.equivalent`)."""

    text: str

    def judge(self, prediction, definitions=()):
        import sympy as sp

        from .symbolic import equivalent

        try:
            mine = sp.sympify(prediction)
        except (sp.SympifyError, TypeError):
            return None, "write a SymPy expression"
        names = {s.name: s for s in mine.free_symbols}
        names |= {type(a).latex_name: a for a, _ in definitions}
        try:
            return equivalent(mine, sp.sympify(self.text, locals=names), definitions) is not None, ""
        except ValueError:  # an abbreviation the derivation does not define
            return None, "use only the derivation's abbreviations"


@dataclass(frozen=True)
class Parts:
    """A prediction in several parts (a tuple), each judged on its own."""

    parts: tuple

    def judge(self, prediction, definitions=()):
        if not isinstance(prediction, (tuple, list)) or len(prediction) != len(self.parts):
            return None, f"write {len(self.parts)} answers in parentheses, separated by commas"
        verdicts = [p.judge(x, definitions) for p, x in zip(self.parts, prediction)]
        for i, (ok, hint) in enumerate(verdicts, 1):
            if ok is None:
                return None, f"part {i}: {hint}"
        if all(ok for ok, _ in verdicts):
            return True, ""
        return False, "(" + ", ".join(f"part {i} {'✓' if ok else '✗'}" for i, (ok, _) in
                                      enumerate(verdicts, 1)) + ")"


def _float_overflow():
    import numpy as np

    return tuple(Number(float(np.log(float(np.finfo(t).max))), rel=0.05)
                 for t in (np.float64, np.float32, np.float16))


def _float16_share():
    import numpy as np

    from .dot_law import dot_tail

    return dot_tail(float(np.log(float(np.finfo(np.float16).max))), 512)


def _saturation_gradient():
    import numpy as np

    from .numerics import diagonal_gradient, softmax

    return float(diagonal_gradient(softmax(np.array([20.0, 0.0, 0.0])), axis=-1)[0])


def _first_saturating_magnitude():
    from .explorables import magnitude_to_saturate

    return magnitude_to_saturate(0.9, d_k=1024)["first_mean"]


_TREND = ("rises", "falls", "stays")


@lru_cache(maxsize=1)
def _table() -> dict:
    overflow = _float_overflow()
    return {
        "break-the-softmax/1": Choice("nan", ("nan", "inf", "same", "error")),
        "break-the-softmax/2": Parts(overflow),
        "break-the-softmax/3": Number(_float16_share, rel=0.3),
        "break-the-softmax/4": Number(_saturation_gradient, factor=10.0),
        "break-the-softmax/5": Choice("nan", ("nan", "zeros", "uniform", "error")),
        "derive-it-with-sympy/1": Expression("P_1*(1 - P_1)"),
        "derive-it-with-sympy/2": Choice("refused", ("accepted", "refused")),
        "predict-then-move-the-slider/1": Number(8.0, rel=0.15),
        "predict-then-move-the-slider/2": Choice("lower", ("higher", "the same", "lower")),
        "predict-then-move-the-slider/3": Choice("the average", ("the d_k", "the average", "neither")),
        "predict-then-move-the-slider/4": Number(_first_saturating_magnitude, rel=0.01),
        "turn-on-qk-norm/1": Parts((Choice("rises", _TREND), Choice("stays", _TREND))),
        "turn-on-qk-norm/2": Choice("rises", _TREND),
        "turn-on-qk-norm/3": Parts((Choice("explodes", ("explodes", "bounded", "shrinks")),
                                    Choice("bounded", ("explodes", "bounded", "shrinks")))),
        "find-the-needle/1": Number(8.0, rel=0.25),
        "find-the-needle/3": Parts((Choice("less", ("more", "less", "same")),
                                    Choice("same", ("more", "less", "same")))),
    }


def expected(task: str):
    """What the book expects for ``task`` (``"<lab>/<n>"``: the lab's ``prediction_<n>``), as
    a judge."""
    table = _table()
    if task not in table:
        raise ValueError(f"task must be one of {sorted(table)}, got {task!r}")
    return table[task]


def tasks() -> list[str]:
    """The labs' tasks whose expectation is held here."""
    return sorted(_table())


def check(prediction, against, *, definitions=()) -> bool | None:
    """Print whether ``prediction`` matches, never what it should be; return True, False,
    or None (no prediction yet, or one that cannot be read).

    ``against`` is a task's name (``"find-the-needle/1"``: the expectation held in
    :func:`expected`) or a judge (:class:`Number`, :class:`Choice`, :class:`Expression`,
    :class:`Parts`) built from what the cell has just measured and printed.
    ``definitions``: a derivation's, for an :class:`Expression` in its abbreviations.
    """
    judge = expected(against) if isinstance(against, str) else against
    if not isinstance(judge, (Number, Choice, Expression, Parts)):
        raise ValueError(f"against must be a task name or a Number, Choice, Expression or Parts, "
                         f"got {type(against).__name__}")
    if prediction is None or prediction is Ellipsis:
        print(NOT_YET)
        return None
    ok, hint = judge.judge(prediction, tuple(definitions))
    shown = prediction if isinstance(prediction, str) else repr(prediction)
    if ok is None:
        print(f"Your prediction, {shown}: cannot read it: {hint}.")
    else:
        print(f"Your prediction, {shown}: {MATCH if ok else LOOK_AGAIN}" + (f" {hint}" if hint else ""))
    return ok
