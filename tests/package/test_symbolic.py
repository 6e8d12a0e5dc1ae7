"""The symbolic layer: checked derivations, the planted wrong step, and the book's proofs."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from attention_scaling import derivations as dv
from attention_scaling import softmax, softmax_jacobian
from attention_scaling.symbolic import (
    Derivation,
    StepError,
    _is_zero_exactly,
    abbreviation,
    as_written,
    equivalent,
    to_latex,
)

z1 = sp.Symbol("z_1", real=True)
R = sp.Symbol("R", positive=True)


def small_derivation():
    S = abbreviation("S", z1)
    d = Derivation("test")
    d.define(S, sp.exp(z1) + R)
    return d, S


# --- the engine ------------------------------------------------------------------------


def test_planted_wrong_step_raises_and_names_it():
    d, S = small_derivation()
    d.equation(sp.Derivative(S**-1, z1), -as_written(S**-2, sp.Derivative(S, z1)), "chain rule")
    with pytest.raises(StepError, match=r"step 3 \(a planted slip\)"):
        d.then(-as_written(S**-3, sp.exp(z1)), "a planted slip")
    assert len(d) == 2  # the wrong line was not added


def test_planted_wrong_line_in_the_seed_proof():
    """The seed proof with S^-3 in place of S^-2 must not build."""
    S = abbreviation("S", z1)
    P1 = abbreviation("P_1", z1)
    d = Derivation("seed, with a typo")
    d.define(S, sp.exp(z1) + R).define(P1, sp.exp(z1) / S)
    d.equation(sp.Derivative(P1, z1), sp.exp(z1) / S - sp.exp(2 * z1) / S**2, "quotient rule")
    with pytest.raises(StepError, match="typo"):
        d.then(sp.exp(z1) / S - sp.exp(2 * z1) / S**3, "typo")


def test_wrong_fact_raises():
    d, S = small_derivation()
    with pytest.raises(StepError, match="step 2"):
        d.fact(sp.Derivative(S, z1), 2 * sp.exp(z1), "wrong")


def test_then_needs_an_equation():
    d, _ = small_derivation()
    with pytest.raises(StepError, match="needs an equation"):
        d.then(z1, "nothing to continue")


def test_fact_does_not_move_the_chain():
    d, S = small_derivation()
    d.equation(S, sp.exp(z1) + R, "definition")
    d.fact(sp.Derivative(S, z1), sp.exp(z1), "side result")
    d.then(R + sp.exp(z1), "reorder")
    assert sp.simplify(d.result - (sp.exp(z1) + R)) == 0
    # after a side fact the continuation repeats the chain's left side
    assert d.lines[-1].lhs == "S"


def test_latex_is_aligned_with_reasons():
    d, S = small_derivation()
    d.equation(sp.Derivative(S, z1), sp.exp(z1), "only the first term depends on $z_1$")
    text = d.latex()
    assert text.startswith("\\begin{aligned}") and text.endswith("\\end{aligned}")
    assert text.count("&=") == 2 and text.count("\\text{") == 2
    assert "\\frac{\\partial S}{\\partial z_{1}}" in text
    assert d._repr_latex_().startswith("$$")


def test_as_written_keeps_order_and_negative_powers():
    S = abbreviation("S", z1)
    assert to_latex(as_written(sp.exp(z1), S**-1)) == "e^{z_{1}} S^{-1}"
    assert to_latex(sp.exp(z1) / S) == "\\frac{e^{z_{1}}}{S}"


def test_check_table_lists_every_line():
    d = dv.seed_proof()
    table = d.check_table().splitlines()
    assert len(table) == 2 + len(d)
    assert sum("simplify" in row or "exact" in row for row in table) == d.checked_steps


def test_exact_point_check():
    z2 = sp.Symbol("z_2", real=True)
    rng = np.random.default_rng(0)
    assert _is_zero_exactly(sp.exp(z1 + z2) - sp.exp(z1) * sp.exp(z2), rng, 4)
    assert not _is_zero_exactly(sp.exp(z1 + z2) - sp.exp(z1), rng, 4)
    assert not _is_zero_exactly(R - 1, rng, 4)


def test_equivalent_handles_matrices():
    m = sp.Matrix([[sp.exp(z1), 1], [0, z1]])
    assert equivalent(m, m.T.T) == "simplify"
    assert equivalent(m, m.T) is None


@pytest.mark.parametrize("call", [lambda: abbreviation("S"), lambda: as_written()])
def test_engine_bad_input(call):
    with pytest.raises(ValueError):
        call()


def test_define_rejects_plain_symbols():
    with pytest.raises(ValueError, match="^abbrev"):
        Derivation("x").define(z1, 1)


# --- the book's proofs ------------------------------------------------------------------


def test_seed_proof_lines_follow_the_blog_post():
    d = dv.seed_proof()
    text = d.latex()
    expected_in_order = [
        "e^{z_1} + \\cdots + e^{z_n}",  # S
        "e^{z_{1}} S^{-1}",  # P_1 as a power
        "product rule",
        "- S^{-2} \\frac{\\partial S}{\\partial z_{1}}",
        "only $e^{z_1}$ in $S$ depends on $z_1$",
        "\\frac{e^{z_{1}}}{S} - \\frac{e^{2 z_{1}}}{S^{2}}",
        "P_1 - P_1^{2}",
        "P_1 \\left(1 - P_1\\right)",
    ]
    positions = [text.index(piece) for piece in expected_in_order]
    assert positions == sorted(positions)
    assert d.checked_steps == sum(1 for c in d.checks if c.method != "definition") >= 9


def test_the_short_proof_is_the_checked_chain_without_its_side_facts():
    d = dv.seed_proof()
    short = d.chain_latex()
    rows = short.removeprefix("\\begin{aligned}\n").removesuffix("\n\\end{aligned}").split(" \\\\\n")
    # the chain from dP1/dz1 to P1(1 - P1): the equation and its five continuations
    assert len(rows) == 6
    assert rows[0].startswith("\\frac{\\partial P_1}{\\partial z_{1}} &= ")
    assert all(r.startswith(" &= ") for r in rows[1:])
    assert rows[-1] == " &= P_1 \\left(1 - P_1\\right)"
    # every row is a line of the full, checked proof, in the same order; no side fact or reason
    full = [line.rhs for line in d.lines]
    picked = [full.index(r.split("&= ", 1)[1]) for r in rows]
    assert picked == sorted(picked) and len(set(picked)) == 6
    assert "e^{z_1} + \\cdots" not in short and "rule" not in short and "(1)" not in short
    with pytest.raises(StepError, match="no chain yet"):
        small_derivation()[0].chain_latex()


def test_the_short_proof_of_two_chains_is_the_last():
    d, S = small_derivation()
    d.equation(sp.Derivative(S, z1), sp.exp(z1), "first chain")
    d.equation(sp.Derivative(S**-1, z1), -as_written(S**-2, sp.Derivative(S, z1)), "chain rule")
    d.then(-as_written(S**-2, sp.exp(z1)), "substitute")
    short = d.chain_latex()
    assert short.count("&=") == 2 and "first chain" not in short and "S^{-2} e^{z_{1}}" in short


def test_seed_proof_result_is_p_times_one_minus_p():
    d = dv.seed_proof()
    S_meaning = sp.exp(z1) + R
    p1 = sp.exp(z1) / S_meaning
    got = d.result.subs(d.definitions[1][0], d.definitions[1][1]).subs(d.definitions[0][0], S_meaning)
    assert sp.simplify(got.doit() - p1 * (1 - p1)) == 0


def test_cross_term_result():
    d = dv.cross_term_proof()
    assert to_latex(d.result) == "- P_1 P_2"
    assert d.checked_steps >= 4


@pytest.mark.parametrize("n", range(2, 7))
def test_jacobian_identity_and_properties(n):
    assert dv.jacobian_identity(n) in ("simplify",) or dv.jacobian_identity(n).startswith("exact")
    props = dv.jacobian_properties(n)
    assert set(props) == {"symmetric", "rows sum to 0", "quadratic form is a variance", "shift invariance"}
    assert dv.gershgorin_bound(n)["largest_eigenvalue_at_tight_point"] == sp.Rational(1, 2)


def test_self_gradient_maximum():
    out = dv.self_gradient_maximum()
    assert out["critical_point"] == sp.Rational(1, 2)
    assert out["maximum"] == sp.Rational(1, 4)
    assert out["second_derivative"] == -2
    assert "\\left(P - \\frac{1}{2}\\right)^{2}" in out["derivation"].latex()


@pytest.mark.parametrize("fn", [dv.jacobian_identity, dv.jacobian_properties, dv.gershgorin_bound])
@pytest.mark.parametrize("n", [1, 0, 2.5, True])
def test_derivations_bad_n(fn, n):
    with pytest.raises(ValueError, match=r"^n\b"):
        fn(n)


def test_symbolic_jacobian_matches_numerics():
    rng = np.random.default_rng(20261129)
    for n in range(2, 7):
        jac = dv.jacobian_function(n)
        for _ in range(5):
            z = rng.normal(size=n) * 3
            np.testing.assert_allclose(jac(z), softmax_jacobian(softmax(z)), rtol=0, atol=1e-12)


def test_jacobian_function_bad_input():
    with pytest.raises(ValueError, match=r"^z\b"):
        dv.jacobian_function(3)([0.1, 0.2])


def test_dot_product_moments_term_by_term_equal_the_joint_law():
    """E and Var of q·k, monomial by monomial (scale-the-scores' table, d = 1..4), and for d = 2
    the same as sympy.stats integrating the joint law of all four components at once."""
    from sympy.stats import Normal, variance

    for d in (1, 2, 3, 4):
        got = dv.dot_product_moments(d)
        assert got["mean"] == 0 and sp.simplify(got["variance"] - d * dv.SIGMA_Q**2 * dv.SIGMA_K**2) == 0
    q = [Normal(f"q_{i}", 0, dv.SIGMA_Q) for i in (1, 2)]
    k = [Normal(f"k_{i}", 0, dv.SIGMA_K) for i in (1, 2)]
    assert sp.simplify(variance(q[0] * k[0] + q[1] * k[1]) - dv.dot_product_moments(2)["variance"]) == 0
    # term by term: 3 E[x²] + E[x], with E[x²] = 5 and E[x] = 0
    x = sp.Symbol("x")
    assert dv._expectation(3 * x**2 + x, lambda base, power: 5 if power == 2 else 0) == 15
    with pytest.raises(ValueError, match="^d"):
        dv.dot_product_moments(0)
