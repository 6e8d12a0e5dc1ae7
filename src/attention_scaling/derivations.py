r"""The book's derivations about the softmax, each one checked by SymPy as it is built.

Variables: ``z_1, z_2, ...`` are scores, ``R`` stands for the terms of the
denominator that do not depend on the scores being differentiated. ``R`` is only
assumed non-negative, so ``S = e^{z_1} + R`` covers every number of scores at once, ``n = 1``
(``R = 0``) included, and ``S = e^{z_1} + e^{z_2} + R`` every ``n >= 2`` (``R = 0`` at ``n = 2``).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from . import _validate as v
from .symbolic import Derivation, StepError, abbreviation, as_written, equivalent

__all__ = [
    "score_symbols",
    "softmax_vector",
    "seed_proof",
    "cross_term_proof",
    "jacobian_identity",
    "jacobian_properties",
    "self_gradient_maximum",
    "gershgorin_bound",
    "jacobian_function",
    "dot_product_moments",
    "single_term_moments",
]

z1, z2 = sp.symbols("z_1 z_2", real=True)
R = sp.Symbol("R", nonnegative=True)  # R = 0 is a case the proofs must cover (n = 2 for the cross term)


def score_symbols(n: int) -> tuple[sp.Symbol, ...]:
    """Real symbols ``z_1, ..., z_n``."""
    n = v.positive_int(n, "n")
    return sp.symbols(f"z_1:{n + 1}", real=True) if n > 1 else (sp.Symbol("z_1", real=True),)


def softmax_vector(z) -> sp.Matrix:
    """The softmax of the symbols ``z`` as a column vector."""
    total = sum(sp.exp(s) for s in z)
    return sp.Matrix([sp.exp(s) / total for s in z])


def seed_proof() -> Derivation:
    r"""The proof of :math:`\partial P_1/\partial z_1 = P_1(1-P_1)`, line by line as in the blog post."""
    S = abbreviation("S", z1)
    P1 = abbreviation("P_1", z1)
    d = Derivation("∂P₁/∂z₁ = P₁(1 − P₁)")
    d.define(S, sp.exp(z1) + R, "definition",
             display=r"e^{z_1} + \cdots + e^{z_n}")
    d.define(P1, sp.exp(z1) / S, "softmax of $z_1$")
    d.fact(P1, as_written(sp.exp(z1), S**-1), "division as a power of $S$")
    d.equation(sp.Derivative(P1, z1),
               sp.Add(as_written(sp.Derivative(sp.exp(z1), z1), S**-1),
                      as_written(sp.exp(z1), sp.Derivative(S**-1, z1)), evaluate=False),
               "product rule")
    d.fact(sp.Derivative(sp.exp(z1), z1), sp.exp(z1), "$\\partial e^x/\\partial x = e^x$")
    d.fact(sp.Derivative(S**-1, z1), -as_written(S**-2, sp.Derivative(S, z1)),
           "$\\partial x^{-1}/\\partial x = -x^{-2}$, chain rule")
    d.then(sp.Add(as_written(sp.exp(z1), S**-1),
                  -as_written(sp.exp(z1), S**-2, sp.Derivative(S, z1)), evaluate=False),
           "substitute both")
    d.fact(sp.Derivative(S, z1), sp.exp(z1), "only $e^{z_1}$ in $S$ depends on $z_1$")
    d.then(sp.Add(as_written(sp.exp(z1), S**-1), -as_written(sp.exp(z1), S**-2, sp.exp(z1)),
                  evaluate=False),
           "substitute $\\partial S/\\partial z_1$")
    d.then(sp.Add(sp.exp(z1) / S, -sp.exp(2 * z1) / S**2, evaluate=False), "collect powers")
    d.fact(P1**2, sp.exp(2 * z1) / S**2, "square the definition of $P_1$")
    d.then(sp.Add(P1, -P1**2, evaluate=False), "recognise $P_1$ and $P_1^2$")
    d.then(as_written(P1, 1 - P1), "factor out $P_1$")
    return d


def cross_term_proof() -> Derivation:
    r""":math:`\partial P_1/\partial z_2 = -P_1 P_2`: the off-diagonal terms (any i ≠ j, by relabelling)."""
    S = abbreviation("S", z1, z2)
    P1 = abbreviation("P_1", z1, z2)
    P2 = abbreviation("P_2", z1, z2)
    d = Derivation("∂P₁/∂z₂ = −P₁P₂")
    d.define(S, sp.exp(z1) + sp.exp(z2) + R, "definition",
             display=r"e^{z_1} + e^{z_2} + \cdots + e^{z_n}")
    d.define(P1, sp.exp(z1) / S, "softmax of $z_1$")
    d.define(P2, sp.exp(z2) / S, "softmax of $z_2$")
    d.equation(sp.Derivative(P1, z2), as_written(sp.exp(z1), sp.Derivative(S**-1, z2)),
               "$e^{z_1}$ does not depend on $z_2$")
    d.then(-as_written(sp.exp(z1), S**-2, sp.Derivative(S, z2)), "$\\partial x^{-1}/\\partial x = -x^{-2}$, chain rule")
    d.then(-as_written(sp.exp(z1), S**-2, sp.exp(z2)), "only $e^{z_2}$ in $S$ depends on $z_2$")
    d.then(-as_written(sp.exp(z1) / S, sp.exp(z2) / S), "split $S^{-2} = S^{-1} S^{-1}$")
    d.then(-P1 * P2, "recognise $P_1$ and $P_2$")
    return d


def jacobian_identity(n: int) -> str:
    r"""Check :math:`J = \operatorname{diag}(P) - PP^\top` for ``n`` explicit scores.

    The Jacobian is computed by SymPy from the definition of the softmax; returns how
    the equality was verified. Raises :class:`StepError` if it does not hold.
    """
    n = v.positive_int(n, "n", minimum=2)
    z = score_symbols(n)
    p = softmax_vector(z)
    method = equivalent(p.jacobian(z), sp.diag(*p) - p * p.T)
    if method is None:
        raise StepError(f"J = diag(P) - PP^T fails for n = {n}")
    return method


def _probability_symbols(n: int):
    """Symbols P_1..P_{n-1} and P_n = 1 - (P_1 + ... + P_{n-1}): a point on the simplex."""
    free = sp.symbols(f"P_1:{n}", positive=True)
    return list(free) + [1 - sum(free)], free


def jacobian_properties(n: int) -> dict[str, str]:
    r"""Check, symbolically for ``n`` scores, the properties of :math:`J = \operatorname{diag}(P) - PP^\top`.

    Returns ``{property: how it was verified}`` for: symmetric; rows sum to 0 (J·𝟙 = 0,
    which is shift invariance); the quadratic form equals a weighted variance
    :math:`v^\top J v = \sum_i P_i (v_i - \bar v)^2` with :math:`\bar v = \sum_i P_i v_i`
    (so J is positive semidefinite); and softmax(z + c) = softmax(z).
    """
    n = v.positive_int(n, "n", minimum=2)
    p_list, _ = _probability_symbols(n)
    p = sp.Matrix(p_list)
    jac = sp.diag(*p) - p * p.T
    vec = sp.Matrix(sp.symbols(f"v_1:{n + 1}", real=True))
    mean = (p.T * vec)[0]
    z = score_symbols(n)
    c = sp.Symbol("c", real=True)
    checks = {
        "symmetric": (jac, jac.T),
        "rows sum to 0": (jac * sp.ones(n, 1), sp.zeros(n, 1)),
        "quadratic form is a variance": ((vec.T * jac * vec)[0], sum(p[i] * (vec[i] - mean) ** 2 for i in range(n))),
        "shift invariance": (softmax_vector([s + c for s in z]), softmax_vector(z)),
    }
    out = {}
    for name, (a, b) in checks.items():
        method = equivalent(a, b)
        if method is None:
            raise StepError(f"Jacobian property '{name}' fails for n = {n}")
        out[name] = method
    return out


def self_gradient_maximum() -> dict:
    """Find the maximum of P(1 − P) on [0, 1] with SymPy and prove the bound ¼ − P(1 − P) = (P − ½)²."""
    P = sp.Symbol("P", real=True)
    g = P * (1 - P)
    critical = sp.solve(sp.diff(g, P), P)
    if len(critical) != 1:
        raise StepError(f"expected one critical point of P(1 - P), got {critical}")
    p_star = critical[0]
    curvature = sp.diff(g, P, 2)
    d = Derivation("P(1 − P) ≤ ¼")
    d.equation(sp.Rational(1, 4) - g, sp.Add(sp.Rational(1, 4), -P, P**2, evaluate=False), "expand")
    d.then(sp.Pow(sp.Add(P, -sp.Rational(1, 2), evaluate=False), 2, evaluate=False), "complete the square")
    return {
        "critical_point": p_star,
        "second_derivative": curvature,
        "maximum": g.subs(P, p_star),
        "derivation": d,
    }


def gershgorin_bound(n: int) -> dict:
    r"""Gershgorin's bound on the eigenvalues of J, checked symbolically for ``n`` scores.

    Row i of J has centre :math:`P_i(1-P_i)` and radius
    :math:`\sum_{j\ne i} |{-P_iP_j}| = P_i(1-P_i)` on the simplex, so every eigenvalue
    lies in :math:`[0, 2P_i(1-P_i)] \subseteq [0, \tfrac12]`. Also checks that
    :math:`p = (\tfrac12, \tfrac12, 0, \dots)` attains ½ with eigenvector (1, −1, 0, …).
    """
    n = v.positive_int(n, "n", minimum=2)
    p_list, _ = _probability_symbols(n)
    p = sp.Matrix(p_list)
    jac = sp.diag(*p) - p * p.T
    for i in range(n):
        radius = sum(p[i] * p[j] for j in range(n) if j != i)  # |−P_i P_j| with P ≥ 0
        if equivalent(radius, jac[i, i]) is None:
            raise StepError(f"Gershgorin radius of row {i + 1} is not P_i(1 - P_i) for n = {n}")
    half = sp.Rational(1, 2)
    tight = [half, half] + [0] * (n - 2)
    jt = sp.diag(*tight) - sp.Matrix(tight) * sp.Matrix(tight).T
    vec = sp.Matrix([1, -1] + [0] * (n - 2))
    if jt * vec != half * vec:
        raise StepError(f"(1, -1, 0, ...) is not an eigenvector with eigenvalue 1/2 for n = {n}")
    return {"n": n, "largest_eigenvalue_at_tight_point": max(jt.eigenvals())}


def jacobian_function(n: int):
    """The SymPy Jacobian of the softmax for ``n`` scores, compiled to a numpy function.

    Returns ``f(z) -> ndarray (n, n)``; it validates that ``z`` has shape ``(n,)``.
    """
    n = v.positive_int(n, "n", minimum=2)
    z = score_symbols(n)
    compiled = sp.lambdify([z], softmax_vector(z).jacobian(z), modules="numpy")

    def jacobian(zv):
        arr = v.real_array(zv, "z", dtype="float64")
        if arr.shape != (n,):
            raise ValueError(f"z must have shape ({n},), got {arr.shape}")
        return np.asarray(compiled(arr), dtype=np.float64)

    return jacobian


SIGMA_Q, SIGMA_K = sp.symbols("sigma_q sigma_k", positive=True)


def _expectation(expr, moment):
    """E[``expr``] for a polynomial in independent random symbols: the expanded sum, term by
    term, each term's expectation the product of its factors' moments ``moment(x, power)``."""
    total = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(expr)):
        coeff, factors = term.as_coeff_mul()
        value = coeff
        for factor in factors:
            base, power = factor.as_base_exp()
            value *= moment(base, power)
        total += value
    return total


def dot_product_moments(d: int) -> dict:
    r"""Mean and variance of :math:`q\cdot k` for ``d`` explicit components, by ``sympy.stats``.

    Components are independent, :math:`q_i \sim \mathcal N(0, \sigma_q^2)` and
    :math:`k_i \sim \mathcal N(0, \sigma_k^2)`. :math:`\mathbb E[q\cdot k]` and
    :math:`\mathbb E[(q\cdot k)^2]` are expanded into monomials, and each monomial's expectation
    is the product of its independent factors' moments, each from ``sympy.stats``
    (:math:`\mathbb E[q_i] = 0`, :math:`\mathbb E[q_i^2] = \sigma_q^2`, ...): what the joint
    integral gives, without integrating over all 2d components at once. Returns
    ``{"mean", "variance"}`` as SymPy expressions in ``sigma_q`` and ``sigma_k``; raises
    :class:`StepError` unless they are 0 and :math:`d\,\sigma_q^2\sigma_k^2`.
    """
    import functools

    from sympy.stats import E, Normal

    d = v.positive_int(d, "d")
    q = [Normal(f"q_{i + 1}", 0, SIGMA_Q) for i in range(d)]
    k = [Normal(f"k_{i + 1}", 0, SIGMA_K) for i in range(d)]
    dot = sum(a * b for a, b in zip(q, k))

    @functools.lru_cache(maxsize=None)
    def moment(x, power):
        return sp.simplify(E(x**power))

    mean = sp.simplify(_expectation(dot, moment))
    var = sp.simplify(_expectation(dot**2, moment) - mean**2)
    if mean != 0 or sp.simplify(var - d * SIGMA_Q**2 * SIGMA_K**2) != 0:
        raise StepError(f"E[q.k] = {mean}, Var(q.k) = {var} for d = {d}, not 0 and d sigma_q^2 sigma_k^2")
    return {"mean": mean, "variance": var}


def single_term_moments() -> dict:
    r"""The moments of one term :math:`q_i k_i` that the general proof uses, by ``sympy.stats``.

    Returns ``E[q_i]E[k_i]``-style facts: ``{"E[qk]", "E[q^2]", "E[k^2]", "E[(qk)^2]", "Var(qk)"}``.
    """
    from sympy.stats import E, Normal, variance

    q, k = Normal("q_i", 0, SIGMA_Q), Normal("k_i", 0, SIGMA_K)
    out = {
        "E[qk]": sp.simplify(E(q * k)),
        "E[q^2]": sp.simplify(E(q**2)),
        "E[k^2]": sp.simplify(E(k**2)),
        "E[(qk)^2]": sp.simplify(E((q * k) ** 2)),
        "Var(qk)": sp.simplify(variance(q * k)),
    }
    if out["E[qk]"] != 0 or sp.simplify(out["Var(qk)"] - SIGMA_Q**2 * SIGMA_K**2) != 0:
        raise StepError(f"unexpected moments of one term: {out}")
    return out
