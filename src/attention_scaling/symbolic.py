r"""Machine-checked derivations: a chain of steps that SymPy verifies one by one.

A :class:`Derivation` is written the way a textbook writes a proof, one line at a
time, each line with a short reason. Every line is checked by SymPy against the line
before it *when it is written*, so a chapter that builds a derivation cannot show a
step that does not follow: the build stops with a :class:`StepError` naming the step.

Lines come in four kinds:

* :meth:`Derivation.define` introduces an abbreviation (``S``, ``P_1``) and what it
  stands for. Definitions are assumptions, shown but not checked.
* :meth:`Derivation.equation` starts a new chain ``lhs = rhs`` and checks it.
* :meth:`Derivation.then` continues the current chain, ``= rhs``, and checks that
  ``rhs`` equals the previous right-hand side.
* :meth:`Derivation.fact` states a side result ``lhs = rhs`` (a rule, a lemma), checks
  it, and leaves the current chain where it was.

Two expressions are equal when, after every abbreviation is replaced by its
definition and every derivative is evaluated, their difference simplifies to 0. When
``simplify`` cannot decide, the difference is evaluated **exactly** at several random
points: a variable that appears inside ``exp`` is set to ``log(r)`` for a random
rational ``r`` (so ``exp`` gives back ``r``), every other variable to a random
rational, and the result must be exactly 0 at every point.

The chain renders itself as an ``aligned`` LaTeX block with the reasons beside the
lines (:meth:`Derivation.latex`), so what the reader sees is what was checked.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import sympy as sp
from sympy.printing.latex import LatexPrinter

__all__ = [
    "Abbreviation",
    "AsWritten",
    "CheckRecord",
    "Derivation",
    "StepError",
    "abbreviation",
    "as_written",
    "equivalent",
    "to_latex",
]


class StepError(ValueError):
    """A step of a derivation that does not follow from the one before it."""


class Abbreviation(sp.Function):
    """Base class of named abbreviations such as ``S`` or ``P_1``.

    An abbreviation is a function of the variables it depends on, so SymPy keeps
    ``∂S/∂z_1`` unevaluated until the definition is substituted, but it prints as its
    bare name.
    """

    latex_name = "?"

    def _latex(self, printer, exp=None):
        return self.latex_name if exp is None else f"{self.latex_name}^{{{exp}}}"

    def _sympystr(self, printer):
        return self.latex_name.replace("{", "").replace("}", "")


def abbreviation(latex_name: str, *depends_on: sp.Symbol) -> sp.Expr:
    """A new abbreviation printed as ``latex_name`` that depends on ``depends_on``."""
    if not depends_on:
        raise ValueError("depends_on must name at least one variable")
    cls_name = "Abbrev_" + "".join(ch if ch.isalnum() else "_" for ch in latex_name)
    cls = type(cls_name, (Abbreviation,), {"latex_name": latex_name})
    return cls(*depends_on)


class AsWritten(sp.UnevaluatedExpr):
    """A product shown exactly as written: factors in order, ``S^{-1}`` rather than ``1/S``.

    It is only a way of printing: for checking, it is the ordinary product.
    """


def as_written(*factors) -> sp.Expr:
    """The product of ``factors``, printed in the given order with negative powers kept."""
    if not factors:
        raise ValueError("factors must not be empty")
    return AsWritten(sp.Mul(*factors, evaluate=False))


class _StepPrinter(LatexPrinter):
    """LaTeX printing tuned for derivations: ∂ fractions, products as written."""

    def __init__(self):
        super().__init__({"order": "none"})

    def _atom(self, expr) -> str:
        """Print a factor; negative integer powers stay as exponents (S^{-1})."""
        if isinstance(expr, sp.Pow) and expr.exp.is_Integer and expr.exp < 0:
            base = self._print(expr.base)
            if not isinstance(expr.base, (sp.Symbol, Abbreviation)):
                base = rf"\left({base}\right)"
            return f"{base}^{{{self._print(expr.exp)}}}"
        if isinstance(expr, sp.Add):
            return rf"\left({self._print(expr)}\right)"
        return self._print(expr)

    def _print_AsWritten(self, expr):
        factors = list(sp.Mul.make_args(expr.args[0]))
        sign = ""
        if factors and factors[0] == -1:
            sign, factors = "- ", factors[1:]
        return sign + " ".join(self._atom(f) for f in factors)

    def _print_Derivative(self, expr):
        variables = expr.variable_count
        if len(variables) != 1 or variables[0][1] != 1:
            return super()._print_Derivative(expr)
        var = self._print(variables[0][0])
        inner = expr.expr
        if isinstance(inner, (sp.Symbol, Abbreviation, sp.exp)) or (
            isinstance(inner, sp.Pow) and isinstance(inner.base, (sp.Symbol, Abbreviation))
        ):
            return rf"\frac{{\partial {self._atom(inner)}}}{{\partial {var}}}"
        return rf"\frac{{\partial}}{{\partial {var}}}\left({self._print(inner)}\right)"


def to_latex(expr) -> str:
    """LaTeX for ``expr`` as the derivations print it."""
    return _StepPrinter().doprint(expr)


@dataclass
class CheckRecord:
    """How one step was verified."""

    step: int
    reason: str
    method: str  # "simplify", "exact at N random points", or "definition"
    seconds: float = field(repr=False, compare=False)  # how long it took: not part of what was checked


@dataclass
class _Line:
    lhs: str  # LaTeX; empty for a continuation line
    rhs: str
    reason: str
    chain: int = 0  # which chain the line belongs to (1, 2, ...); 0 for a definition or a side fact


def _expand_definitions(expr, definitions):
    """Replace abbreviations by their definitions (repeatedly) and evaluate derivatives."""
    for _ in range(len(definitions) + 1):
        if not expr.atoms(Abbreviation):
            break
        for abbrev, meaning in reversed(definitions):
            expr = expr.subs(abbrev, meaning)
    if expr.atoms(Abbreviation):
        raise StepError(f"an abbreviation without a definition remains in {expr}")
    return expr.doit()


def _is_zero_exactly(diff, rng: np.random.Generator, points: int) -> bool:
    """Exact zero test of ``diff`` at random points (see the module docstring)."""
    free = sorted(diff.free_symbols, key=lambda s: s.name)
    in_exp = set().union(*(e.free_symbols for e in diff.atoms(sp.exp))) if diff.atoms(sp.exp) else set()
    for _ in range(points):
        values = {}
        for sym in free:
            num = int(rng.integers(1, 97))
            den = int(rng.integers(1, 29))
            r = sp.Rational(num, den)
            if sym in in_exp:
                values[sym] = sp.log(r)
            elif sym.is_positive or sym.is_nonnegative:
                values[sym] = r
            else:
                values[sym] = r if rng.random() < 0.5 else -r
        value = sp.simplify(diff.subs(values))
        if value != 0:  # a nonzero number, or an expression SymPy cannot reduce
            return False
    return True


def equivalent(a, b, definitions=(), *, points: int = 6, seed: int = 0) -> str | None:
    """Return how ``a == b`` was verified, or ``None`` if it was not.

    ``definitions`` is a sequence of ``(abbreviation, meaning)`` pairs. Matrices are
    compared entry by entry.
    """
    diff = _expand_definitions(sp.sympify(a), definitions) - _expand_definitions(sp.sympify(b), definitions)
    entries = list(diff) if isinstance(diff, sp.MatrixBase) else [diff]
    if all(sp.simplify(e) == 0 for e in entries):
        return "simplify"
    rng = np.random.default_rng(seed)
    if all(_is_zero_exactly(sp.simplify(e), rng, points) for e in entries):
        return f"exact at {points} random points"
    return None


@dataclass
class Derivation:
    """A proof as a chain of SymPy-checked steps. See the module docstring.

    Parameters
    ----------
    title : str
        Shown in error messages.
    points : int
        Number of random points for the exact fallback check.
    seed : int
        Seed of the random points (``numpy.random.default_rng``).
    """

    title: str
    points: int = 6
    seed: int = 0
    definitions: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    _current: sp.Expr | None = None
    _chain_lhs: str = ""
    _chain_is_last: bool = False
    _chains: int = 0

    def _check(self, a, b, reason: str, against: str = "the line before") -> None:
        """Check ``b`` equals ``a``; ``against`` says what ``a`` is, for the error message
        (the line before, in a chain; the equation's own left side, for a new one)."""
        step = len(self.lines) + 1
        start = time.perf_counter()
        method = equivalent(a, b, self.definitions, points=self.points, seed=self.seed + step)
        seconds = time.perf_counter() - start
        if method is None:
            raise StepError(
                f"{self.title}, step {step} ({reason}) does not follow:\n"
                f"  new line:  {sp.sstr(b)}\n  is not equal to {against}:  {sp.sstr(a)}"
            )
        self.checks.append(CheckRecord(step, reason, method, seconds))

    def define(self, abbrev, meaning, reason: str = "definition", display: str | None = None) -> Derivation:
        """Introduce ``abbrev`` := ``meaning``. ``display`` overrides the shown right side
        (for example ``e^{z_1} + \\cdots + e^{z_n}`` for a sum that is checked as
        ``e^{z_1} + R``); the reason should say so."""
        if not isinstance(abbrev, Abbreviation):
            raise ValueError("abbrev must be made with abbreviation()")
        self.definitions.append((abbrev, sp.sympify(meaning)))
        self.lines.append(_Line(to_latex(abbrev), display or to_latex(meaning), reason))
        self.checks.append(CheckRecord(len(self.lines), reason, "definition", 0.0))
        self._chain_is_last = False
        return self

    def equation(self, lhs, rhs, reason: str) -> Derivation:
        """Start a new chain ``lhs = rhs``; the chain continues from ``rhs``."""
        self._check(lhs, rhs, reason, against="its left side")
        self._chains += 1
        self.lines.append(_Line(to_latex(lhs), to_latex(rhs), reason, self._chains))
        self._current = sp.sympify(rhs)
        self._chain_lhs, self._chain_is_last = to_latex(lhs), True
        return self

    def then(self, rhs, reason: str) -> Derivation:
        """Continue the current chain with ``= rhs``."""
        if self._current is None:
            raise StepError(f"{self.title}: then() needs an equation() to continue")
        self._check(self._current, rhs, reason)
        # After a side fact, repeat the chain's left side so the line cannot be misread.
        lhs = "" if self._chain_is_last else self._chain_lhs
        self.lines.append(_Line(lhs, to_latex(rhs), reason, self._chains))
        self._current = sp.sympify(rhs)
        self._chain_is_last = True
        return self

    def fact(self, lhs, rhs, reason: str) -> Derivation:
        """State and check a side result ``lhs = rhs`` without moving the current chain."""
        self._check(lhs, rhs, reason, against="its left side")
        self.lines.append(_Line(to_latex(lhs), to_latex(rhs), reason))
        self._chain_is_last = False
        return self

    @property
    def result(self) -> sp.Expr:
        """The right-hand side of the last chained line."""
        if self._current is None:
            raise StepError(f"{self.title}: no chain yet")
        return self._current

    def latex(self) -> str:
        r"""The whole derivation as one ``aligned`` block: numbered lines, each with its reason beneath it.

        The reason sits on a row of its own, in small type under the right-hand side, so
        the block is as wide as its widest formula and never needs a reasons column beside
        it: it fits a laptop's page and, for all but the longest formulas, a phone's.
        """
        rows = []
        for number, line in enumerate(self.lines, start=1):
            # columns: line number (right), left side (right), right side (left)
            rows.append(rf"\scriptstyle ({number}) && {line.lhs} &= {line.rhs}")
            rows.append(rf"&& &\quad{{\small\text{{{line.reason}}}}}")
        # a little air after each reason, so it reads as the end of its own line
        body = "".join(row + (" \\\\[6pt]\n" if i % 2 else " \\\\\n") for i, row in enumerate(rows[:-1]))
        return "\\begin{aligned}\n" + body + rows[-1] + "\n\\end{aligned}"

    def chain_latex(self) -> str:
        r"""The main chain alone, as one compact ``aligned`` block: no definitions, no side
        facts, no reasons, no line numbers.

        Each line of it was checked against the line before it in the chain (the side facts
        only justify those steps), so this is the short proof in the same SymPy-checked
        expressions as :meth:`latex`; the full block gives the reasons. A derivation of
        several chains shows the last one, which ends in :attr:`result`.
        """
        if not self._chains:
            raise StepError(f"{self.title}: no chain yet")
        rows = [line for line in self.lines if line.chain == self._chains]
        first = rows[0].lhs
        body = " \\\\\n".join(rf"{first if i == 0 else ''} &= {line.rhs}" for i, line in enumerate(rows))
        return "\\begin{aligned}\n" + body + "\n\\end{aligned}"

    def check_table(self) -> str:
        """A Markdown table: every line, its reason, and how SymPy verified it."""
        rows = ["| Line | Shows | Reason | Verified by |", "|---|---|---|---|"]
        for record, line in zip(self.checks, self.lines):
            lhs = line.lhs or self._chain_lhs_at(record.step)
            rows.append(f"| {record.step} | ${lhs} = {line.rhs}$ | {record.reason} | {record.method} |")
        return "\n".join(rows)

    def _chain_lhs_at(self, step: int) -> str:
        for line in reversed(self.lines[: step - 1]):
            if line.lhs:
                return line.lhs
        return ""

    @property
    def checked_steps(self) -> int:
        """How many lines were verified (definitions are not counted)."""
        return sum(1 for c in self.checks if c.method != "definition")

    def _repr_latex_(self) -> str:
        return "$$\n" + self.latex() + "\n$$"

    def __len__(self) -> int:
        return len(self.lines)
