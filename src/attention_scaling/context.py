r"""Context length, the second axis of saturation: fading, s·ln n scaling, soft-capping, a zero logit.

The chapter *Keep long contexts sharp* (``book/keep-long-contexts-sharp.md``) and its lab use
this module. It holds, in the book's layer order:

* **numerics** (numpy only): the largest weight when one key sits a gap Δ above n − 1 equal
  keys, :func:`needle_weight`, and the gap that holds it at p, :func:`gap_for_weight`;
  tanh soft-capping, :func:`soft_cap` and :func:`soft_cap_slope`; the softmax with an extra
  zero logit, :func:`softmax_with_zero`; and the needle-retrieval toy,
  :func:`needle_scores` and :func:`needle_experiment`, which applies each of the four
  :data:`METHODS` to a planted needle among n − 1 random distractors. Every weight is formed
  from a log-sum-exp, and 1 − P as the sum of the other weights, never by subtraction.
* **derivations** (SymPy, imported only when called): :func:`fading_proof`,
  :func:`soft_cap_proof` and :func:`zero_logit_jacobian`.
* **the explorer's figure**, :class:`ContextFigure` (a
  :class:`~attention_scaling.figures.BlitFigure`): the weights, the needle's P(1 − P) and
  its weight against n for every method.
"""

from __future__ import annotations

import math

import numpy as np

from . import _validate as v
from . import portable_random

__all__ = [
    "N_VALUES",
    "GAPS",
    "METHODS",
    "NAMES",
    "TEX_NAMES",
    "LOGN_REFERENCE",
    "LOGN_S",
    "CAP",
    "TOP_KEYS",
    "EXPLORER_SEED",
    "CONTEXT_STREAM",
    "GAP_RANGE",
    "MAX_KEYS",
    "distractors",
    "needle_weight",
    "gap_for_weight",
    "log_n_factor",
    "soft_cap",
    "soft_cap_slope",
    "softmax_with_zero",
    "needle_scores",
    "method_weights",
    "needle_experiment",
    "fading_proof",
    "soft_cap_proof",
    "zero_logit_jacobian",
    "needle_figure",
    "ContextFigure",
]

#: Context lengths of the explorer and the experiment: 2, 4, ..., 65 536 keys.
N_VALUES = tuple(2**i for i in range(1, 17))
#: Gaps Δ of the needle above the distractors on the static player (dense where the methods part).
GAPS = (2.0, 4.0, 5.0, 6.0, 8.0)
#: The four ways of turning scores into weights, in the order of the radio buttons.
METHODS = ("plain", "log-n", "soft-cap", "zero-logit")
#: The s·ln n factor is 1 at this context length: s = 1/ln 16, as if trained on 16 keys.
LOGN_REFERENCE = 16
LOGN_S = 1.0 / np.log(LOGN_REFERENCE)
#: The toy's soft cap. Gemma 2 caps attention logits at 50; the toy's scores have unit
#: variance, so a cap of that size would barely act here. 5 binds at the toy's gaps.
CAP = 5.0
#: Their names in words (plain text), with the toy's own s and c, which the reader needs.
NAMES = {"plain": "plain 1/√d_k", "log-n": f"s·ln n scaling, s = 1/ln {LOGN_REFERENCE}",
         "soft-cap": f"soft-cap (tanh), c = {CAP:g}", "zero-logit": "extra zero logit"}
#: The same names with their maths marked up as TeX between dollars.
TEX_NAMES = {"plain": r"plain $1/\sqrt{d_k}$", "log-n": NAMES["log-n"],
             "soft-cap": f"soft-cap (tanh), $c = {CAP:g}$", "zero-logit": "extra zero logit"}
#: How many of the strongest distractors the explorer shows as bars of their own.
TOP_KEYS = 5
#: The explorer's draw: :func:`distractors` with this seed (draw 0).
EXPLORER_SEED = 0
#: Draw ``d`` of the distractors is the stream ``(seed, CONTEXT_STREAM + d)`` of
#: :mod:`attention_scaling.portable_random`, which the page's ``random.js`` draws identically.
CONTEXT_STREAM = 1000
#: The explorer's range of the needle's gap Δ (the slider's is [0, 20]).
GAP_RANGE = (-40.0, 40.0)
#: The most keys the toy draws scores for (:func:`needle_scores`, :func:`needle_experiment`):
#: 2**24, 128 MB of float64 scores per draw; the book's slider stops at 65 536.
MAX_KEYS = 2**24

_STYLE = {  # colour, marker, line style: every method is told apart in greyscale too
    "plain": ("#d62728", "o", "-"),
    "log-n": ("#1f77b4", "s", "--"),
    "soft-cap": ("#2ca02c", "^", "-."),
    "zero-logit": ("#9467bd", "D", ":"),
}


# --- numerics ---------------------------------------------------------------------------------

def _n(n, name: str = "n") -> int:
    """A number of keys >= 2, an int of any size (its logarithm is :func:`_ln`)."""
    return v.positive_int(n, name, minimum=2)


def _drawn_n(n, name: str) -> int:
    """A number of keys that the toy draws scores for, at most :data:`MAX_KEYS` (they are held in memory)."""
    if n > MAX_KEYS:
        raise ValueError(f"{name} must be at most MAX_KEYS = 2**24 = {MAX_KEYS} keys (the scores are held "
                         f"in memory), got {n}")
    return n


def _real(x, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a finite real number, got {x!r}")
    value = v.as_float(x, name)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {x!r}")
    return value


def _ln(k) -> float:
    """ln k of an integer k >= 1 of any size: numpy's log of the nearest double (as numpy took
    every k below 2**63), or math.log (right to rounding for any int) beyond float64's range."""
    try:
        return float(np.log(float(k)))
    except OverflowError:
        return math.log(k)


def _expit(x):
    """1/(1 + e^{-x}) without overflow, for arrays or floats."""
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def needle_weight(gap, n) -> float:
    r"""The needle's weight when it sits ``gap`` above ``n - 1`` equal keys: :math:`1/(1 + (n-1)e^{-\Delta})`.

    Formed as the logistic function of :math:`\Delta - \ln(n-1)`, so it stays exact at every
    ``n`` and gap (no overflow at Δ = ±1000); ``n`` may be an int of any size.
    """
    gap, n = _real(gap, "gap"), _n(n)
    return float(_expit(gap - _ln(n - 1)))


def gap_for_weight(p, n) -> float:
    r"""The gap Δ that gives the needle weight ``p`` among ``n`` keys: :math:`\ln(n-1) + \ln\frac{p}{1-p}`."""
    p, n = _real(p, "p"), _n(n)
    if not 0 < p < 1:
        raise ValueError(f"p must lie strictly between 0 and 1, got {p}")
    return float(_ln(n - 1) + np.log(p) - np.log1p(-p))


def log_n_factor(n, s: float = LOGN_S) -> float:
    """The factor s·ln n that multiplies every score under s·ln n scaling (Scalable-Softmax).

    With the default s = 1/ln 16 it is the logarithm of n to base 16: 1 at n = 16, 16 at
    n = 2**64. ``n`` may be an int of any size.
    """
    n = _n(n)
    s = v.positive_real(s, "s")
    factor = s * _ln(n)
    if not np.isfinite(factor):
        raise ValueError(f"s={s:g} times ln n = {_ln(n):g} overflows float64")
    return factor


def soft_cap(z, cap: float = CAP) -> np.ndarray:
    r"""Tanh soft-capping :math:`c\tanh(z/c)`: close to ``z`` for small scores, never beyond ±c.

    Where :math:`x = z/c` is below float64's smallest normal number the result is ``z`` itself
    (:math:`c\tanh x = z(1 - x^2/3 + \dots)`, and :math:`x^2` is below 1e-615): :math:`c\tanh(z/c)`
    would keep only the digits of a subnormal :math:`z/c`, or give 0 once it underflows
    (``soft_cap(1e-300, cap=1e300)``). A :math:`z/c` beyond float64 is ±inf, whose tanh, ±1, is right.
    """
    cap = v.positive_real(cap, "cap")
    z = v.real_array(z, "z", dtype=np.float64, min_ndim=0)
    with np.errstate(over="ignore"):
        x = z / cap
    out = np.where(np.abs(x) < np.finfo(np.float64).tiny, z, cap * np.tanh(x))
    return out[()] if out.ndim == 0 else out


def soft_cap_slope(z, cap: float = CAP) -> np.ndarray:
    r"""The derivative of :math:`c\tanh(z/c)`: :math:`\operatorname{sech}^2(z/c)`, formed as
    :math:`4e^{-2|x|}/(1+e^{-2|x|})^2` so that it underflows to 0 smoothly instead of overflowing."""
    cap = v.positive_real(cap, "cap")
    z = v.real_array(z, "z", dtype=np.float64, min_ndim=0)
    with np.errstate(over="ignore"):  # z/c beyond float64 is ±inf: e = 0, the slope 0
        e = np.exp(-2.0 * np.abs(z / cap))
    return 4.0 * e / (1.0 + e) ** 2


def softmax_with_zero(z) -> tuple[np.ndarray, np.ndarray]:
    r"""The softmax with an extra zero logit, :math:`p_i = e^{z_i}/(1 + \sum_j e^{z_j})`, along the last axis.

    Returns ``(p, sink)``: the weights of the real keys, which sum to less than 1, and the
    weight :math:`1/(1 + \sum_j e^{z_j})` the zero logit takes (they sum to 1 together).
    The largest of the scores and 0 is subtracted first, so nothing overflows.
    """
    z = v.real_array(z, "z", dtype=np.float64)
    top = np.maximum(z.max(axis=-1, keepdims=True), 0.0)
    with np.errstate(over="ignore"):  # z - top below -1.8e308 is -inf, whose exp is the right 0
        e, e0 = np.exp(z - top), np.exp(-top)
    total = e.sum(axis=-1, keepdims=True) + e0
    return e / total, (e0 / total)[..., 0]


def distractors(count: int, seed: int = EXPLORER_SEED, draw: int = 0) -> np.ndarray:
    """``count`` distractor scores ~ N(0, 1) of draw ``draw``: the stream ``(seed,``
    :data:`CONTEXT_STREAM` ``+ draw)`` of :mod:`~attention_scaling.portable_random`, which the
    page draws identically (``random.js``), so that the explorer computes in the page from the
    seed alone. A smaller ``count`` is a prefix of the same draw."""
    count = v.positive_int(count, "count", minimum=0)
    if count > MAX_KEYS:
        raise ValueError(f"count must be at most MAX_KEYS = {MAX_KEYS}, got {count}")
    seed = v.positive_int(seed, "seed", minimum=0)
    draw = v.positive_int(draw, "draw", minimum=0)
    return portable_random.normals(seed, CONTEXT_STREAM + draw, count)


def needle_scores(n, gap, seed: int = EXPLORER_SEED, offset: float = 0.0) -> np.ndarray:
    """Scores of the toy: the needle ``gap`` first, then ``n - 1`` distractors ~ N(``offset``, 1).

    The distractors stand for :math:`q\\cdot k/\\sqrt{d_k}` of random unit-variance vectors
    (variance 1, which is what the 1/√d_k buys). They are :func:`distractors` of ``seed``
    (draw 0); a smaller ``n`` takes the first ``n - 1`` of the same draws.
    ``n`` runs from 2 to :data:`MAX_KEYS`.
    """
    n, gap = _drawn_n(_n(n), "n"), _real(gap, "gap")
    offset = _real(offset, "offset")
    rest = distractors(n - 1, seed) + offset
    return np.concatenate([[gap], rest])


def _transform(z: np.ndarray, n: int, method: str, s: float, cap: float) -> tuple[np.ndarray, np.ndarray]:
    """(logits, d logit / d score) of ``method`` for scores ``z`` among ``n`` keys."""
    if method == "log-n":
        f = log_n_factor(n, s)
        with np.errstate(over="ignore"):  # a logit beyond float64 is ±inf; see _below_top
            return f * z, np.full_like(z, f)
    if method == "soft-cap":
        return soft_cap(z, cap), soft_cap_slope(z, cap)
    return z, np.ones_like(z)


#: Logits within ±2**10 are used as they are, and so is the log partition top logit + rel:
#: each rounding costs at most (2**10 + ln n) eps, 2.3e-13, of a weight. Beyond, "log-n" logits
#: are formed relative to the top score (s·ln n·z carries |logit| eps, and can leave float64),
#: and the needle's logit is taken relative to the top distractor's before rel is subtracted (a
#: score of 1e300 would swallow rel). With the zero logit a top logit far below zero is harmless:
#: the zero logit's weight dominates.
_ONE_NUMBER = 2.0**10


def _relative_logits(z: np.ndarray, logits: np.ndarray, slope: np.ndarray, top: float, top_logit: float,
                     method: str) -> np.ndarray:
    """The logits of the scores ``z`` minus ``top_logit``, the logit of the score ``top``.

    Within ±:data:`_ONE_NUMBER` that is ``logits - top_logit``. A "log-n" logit s·ln n·z beyond
    it carries a rounding of |logit|·eps, and beyond float64 it is ±inf (inf − inf is NaN):
    there the differences are formed from the scores, s·ln n·(z − top) (``slope`` is the
    factor s·ln n). Plain and zero-logit logits are the scores; soft-capped ones are their own
    rounding. A difference beyond float64 is ±inf, whose exp (inf, or the right 0) the callers take.
    """
    with np.errstate(over="ignore"):
        if method == "log-n" and not abs(top_logit) <= _ONE_NUMBER:
            return slope * (z - top)
        return logits - top_logit


def _check_method(method) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    return method


def method_weights(z, method: str, s: float = LOGN_S, cap: float = CAP) -> dict:
    r"""The weights of ``method`` for the scores ``z`` (a vector, the needle first).

    Returns a dict: ``"p"`` (the weights of the keys), ``"sink"`` (the zero logit's weight,
    0 except for ``"zero-logit"``), ``"logits"``, ``"needle"`` (the needle's weight),
    ``"others"`` (1 − the needle's weight, summed from the other weights and the sink, not
    subtracted), ``"P(1-P)"`` (the needle's) and ``"gradient"``: the derivative of the
    needle's weight with respect to its own score, :math:`P(1-P)` times the slope of the
    method (s·ln n, sech²(z/c), or 1).

    Scores up to float64's limit give the right weights: ``method_weights([1e308, 0],
    "log-n", s=3)`` gives [1, 0]; only ``"logits"`` itself holds ±inf where s·ln n·z is
    beyond float64.
    """
    z = v.real_array(z, "z", dtype=np.float64)
    if z.ndim != 1 or z.size < 2:
        raise ValueError(f"z must be a vector of at least 2 scores, got shape {z.shape}")
    method = _check_method(method)
    s, cap = v.positive_real(s, "s"), v.positive_real(cap, "cap")
    logits, slope = _transform(z, z.size, method, s, cap)
    if method == "zero-logit":
        p, sink_weight = softmax_with_zero(logits)
        sink = float(sink_weight)
    else:
        e = np.exp(_relative_logits(z, logits, slope, z.max(), logits.max(), method))
        p, sink = e / e.sum(), 0.0
    others = float(p[1:].sum() + sink)
    needle = float(p[0])
    return {"p": p, "sink": sink, "logits": logits, "needle": needle, "others": others,
            "P(1-P)": needle * others, "gradient": needle * others * float(slope[0])}


def _log_partitions(rest: np.ndarray, n: int, s: float, cap: float) -> dict:
    """The distractors' log partition per method, as ``(top, top_logit, rel)``.

    ``top`` is the largest distractor score, ``top_logit`` its logit (±inf where s·ln n·z
    leaves float64), and ``rel`` the log of the sum of e^(logit − top_logit) over the
    distractors, in [0, ln n]; the log partition is :func:`_log_partition`.
    """
    top = float(rest.max())
    out = {}
    for method in METHODS:
        logits, slope = _transform(rest, n, method, s, cap)
        top_logit = float(logits.max())
        rel = np.exp(_relative_logits(rest, logits, slope, top, top_logit, method)).sum()
        out[method] = (top, top_logit, float(np.log(rel)))
    return out


def _log_partition(part, method: str) -> float:
    """Log of the sum of e^(logit) over the distractors (and the zero logit) of ``part``, as one number."""
    _, top_logit, rel = part
    log_z = top_logit + rel
    return float(np.logaddexp(log_z, 0.0)) if method == "zero-logit" else log_z


def _needle_from_partition(gap, n: int, method: str, part, s: float, cap: float):
    """(P, 1 − P, gradient, sink) of the needle at ``gap`` against the distractors' partition ``part``.

    The sink is the zero logit's weight for "zero-logit", else 0.
    """
    gap = np.asarray(gap, dtype=np.float64)
    top, top_logit, rel = part
    logit, slope = _transform(gap, n, method, s, cap)
    sink = 0.0
    if top_logit <= _ONE_NUMBER and (method == "zero-logit" or top_logit >= -_ONE_NUMBER):
        log_z = _log_partition(part, method)
        x = logit - log_z
        if method == "zero-logit":  # 1 / (1 + e^{needle} + sum e^{distractors})
            sink = np.exp(-np.logaddexp(log_z, gap))
    else:  # the needle's logit relative to the top distractor's first
        relative = _relative_logits(gap, logit, slope, top, top_logit, method)
        if method == "zero-logit":  # the zero logit sits at -top relative to the top distractor
            x = relative - np.logaddexp(rel, -top)
            sink = _expit(-top - np.logaddexp(relative, rel))
        else:
            x = relative - rel
    weight, others = _expit(x), _expit(-x)
    return weight, others, weight * others * slope, sink


def needle_experiment(gap: float = 6.0, n_values=N_VALUES, draws: int = 20, seed: int = 0,
                      offset: float = 0.0, s: float = LOGN_S, cap: float = CAP) -> dict:
    r"""The needle-retrieval toy: the needle's weight and gradient against the context length.

    For each of ``draws`` draws (``np.random.default_rng(seed)``, one generator for all of them)
    ``max(n_values) - 1`` distractor scores ~ N(``offset``, 1) are drawn once; each ``n`` uses
    the first ``n - 1`` of them, and the needle's score is ``gap``. ``n_values`` run up to
    :data:`MAX_KEYS` (one draw's scores are held in memory at a time). Returns
    ``{"n": array, "gap", "seed", "draws", "offset", "methods": {method: {"weight", "others",
    "gradient", "sink"}}}``, each an array of shape ``(draws, len(n_values))``: the needle's
    weight, the other keys' total (with the sink), the derivative of the needle's weight with
    respect to its score, and, for every method, the weight the extra zero logit would take.
    The draws are numpy's, a study of their own: the explorer's one draw is :func:`distractors`
    (the portable stream the page also draws), which :func:`needle_scores` returns.
    """
    gap = _real(gap, "gap")
    ns = v.increasing_ints(n_values, "n_values")
    if ns[0] < 2:
        raise ValueError(f"n_values must start at 2 or more, got {ns[0]}")
    _drawn_n(ns[-1], "n_values")
    draws = v.positive_int(draws, "draws")
    seed = v.positive_int(seed, "seed", minimum=0)
    offset = _real(offset, "offset")
    s, cap = v.positive_real(s, "s"), v.positive_real(cap, "cap")
    rng = np.random.default_rng(seed)
    shape = (draws, len(ns))
    out = {m: {k: np.empty(shape) for k in ("weight", "others", "gradient", "sink")} for m in METHODS}
    for d in range(draws):
        rest_all = rng.standard_normal(ns[-1] - 1) + offset  # row d of one (draws, max n - 1) draw
        for i, n in enumerate(ns):
            parts = _log_partitions(rest_all[: n - 1], n, s, cap)
            for m in METHODS:
                found = _needle_from_partition(gap, n, m, parts[m], s, cap)
                for key, value in zip(("weight", "others", "gradient", "sink"), found):
                    out[m][key][d, i] = value
    return {"n": np.array(ns), "gap": gap, "seed": seed, "draws": draws, "offset": offset, "methods": out}


# --- derivations (SymPy is imported only here) ---------------------------------------------------

def fading_proof():
    r"""The needle's weight among equal keys, its limit in n, and the gap that holds it fixed.

    Returns ``{"weight": Derivation, "gap": Derivation, "limit": sympy limit of P as n → ∞,
    "limit_times_n": limit of n·P, "gap_growth": limit of Δ(n)/ln n}``; every line is checked.
    """
    import sympy as sp

    from .symbolic import Derivation, StepError, abbreviation

    n, delta = sp.symbols("n Delta", positive=True)
    p = sp.Symbol("p", positive=True)
    P = abbreviation("P", delta, n)
    weight = Derivation("needle weight among equal keys")
    weight.define(P, sp.exp(delta) / (sp.exp(delta) + (n - 1) * sp.exp(0)),
                  "softmax: the needle at $\\Delta$, $n-1$ keys at $0$",
                  display=r"\frac{e^{\Delta}}{e^{\Delta} + e^{0} + \cdots + e^{0}}")
    weight.equation(P, sp.exp(delta) / (sp.exp(delta) + n - 1), "$e^0 = 1$, $n - 1$ times")
    weight.then(1 / (1 + (n - 1) * sp.exp(-delta)), "divide above and below by $e^{\\Delta}$")
    closed = weight.result
    limit = sp.limit(closed, n, sp.oo)
    limit_n = sp.limit(n * closed, n, sp.oo)
    if limit != 0 or sp.simplify(limit_n - sp.exp(delta)) != 0:
        raise StepError(f"expected P → 0 like e^Δ/n, got limit {limit}, n·P → {limit_n}")
    solutions = sp.solve(sp.Eq(closed, p), delta)
    if len(solutions) != 1:
        raise StepError(f"expected one gap, got {solutions}")
    gap_p = abbreviation("\\Delta_p", n, p)
    target = sp.log(n - 1) + sp.log(p / (1 - p))
    gap = Derivation("the gap that holds the weight at p")
    gap.define(gap_p, solutions[0], "SymPy solves $P = p$ for $\\Delta$")
    gap.equation(gap_p, sp.log(p * (n - 1) / (1 - p)), "the same logarithm, rearranged")
    star = abbreviation("\\Delta^{*}", n, p)
    gap.define(star, target, "the gap split in two (for $n > 1$, $0 < p < 1$)")
    gap.fact(1 / (1 + (n - 1) * sp.exp(-star)), p, "put it back: the needle's weight is $p$")
    # for n > 1 and 0 < p < 1 the logarithm splits: with n = 1 + m, p = a/(1 + a), m, a > 0
    m, a = sp.symbols("m a", positive=True)
    split = sp.simplify(sp.expand_log(sp.log(p * (n - 1) / (1 - p)).subs({n: 1 + m, p: a / (1 + a)}), force=False)
                        - target.subs({n: 1 + m, p: a / (1 + a)}).expand(log=True))
    if split != 0:
        raise StepError(f"the logarithm does not split: {split}")
    growth = sp.limit(target / sp.log(n), n, sp.oo)
    if growth != 1:
        raise StepError(f"expected the gap to grow like ln n, got ratio {growth}")
    return {"weight": weight, "gap": gap, "limit": limit, "limit_times_n": limit_n, "gap_growth": growth,
            "P": closed, "solution": solutions[0]}


def soft_cap_proof():
    r"""Tanh soft-capping: :math:`|c\tanh(z/c)| < c`, slope :math:`\operatorname{sech}^2(z/c)`, checked.

    Returns ``{"slope": Derivation, "limit": limit of c·tanh(z/c) as z → ∞, "small": its
    series at z = 0 to order z³, "slope_limit": limit of the slope as z → ∞}``.
    """
    import sympy as sp

    from .symbolic import Derivation, StepError

    from .symbolic import as_written

    z = sp.Symbol("z", real=True)
    c = sp.Symbol("c", positive=True)
    capped = c * sp.tanh(z / c)
    d = Derivation("slope of the soft cap")
    d.equation(sp.Derivative(capped, z), as_written(c, c**-1, 1 - sp.tanh(z / c) ** 2),
               "chain rule, $\\tanh' = 1 - \\tanh^2$")
    d.then(1 - sp.tanh(z / c) ** 2, "cancel $c$")
    d.then(sp.sech(z / c) ** 2, "$1 - \\tanh^2 = \\operatorname{sech}^2$")
    d.then(4 / (sp.exp(z / c) + sp.exp(-z / c)) ** 2, "$\\operatorname{sech} x = 2/(e^{x} + e^{-x})$")
    limit = sp.limit(capped, z, sp.oo)
    slope_limit = sp.limit(sp.diff(capped, z), z, sp.oo)
    small = sp.series(capped, z, 0, 4).removeO()
    if limit != c or slope_limit != 0 or sp.simplify(small - (z - z**3 / (3 * c**2))) != 0:
        raise StepError(f"soft cap: limit {limit}, slope limit {slope_limit}, series {small}")
    return {"slope": d, "limit": limit, "slope_limit": slope_limit, "small": small}


def zero_logit_jacobian(n: int = 3) -> dict:
    r"""The softmax with an extra zero logit for ``n`` scores: its sum and its Jacobian, checked.

    Returns ``{"sum": how 1 − 1/(1 + Σe^{z_j}) = Σp_i was verified, "jacobian": how
    ∂p/∂z = diag(p) − ppᵀ was verified, "not_one": the sum's distance from 1}``.
    """
    import sympy as sp

    from .derivations import score_symbols
    from .symbolic import StepError, equivalent

    n = v.positive_int(n, "n", minimum=2)
    z = score_symbols(n)
    total = 1 + sum(sp.exp(s) for s in z)
    p = sp.Matrix([sp.exp(s) / total for s in z])
    summed = equivalent(sum(p), 1 - 1 / total)
    jac = equivalent(p.jacobian(z), sp.diag(*p) - p * p.T)
    if summed is None or jac is None:
        raise StepError(f"the zero-logit softmax fails its checks for n = {n}")
    return {"sum": summed, "jacobian": jac, "not_one": 1 / total, "p": p}


# --- the chapter's static figure -------------------------------------------------------------------

def needle_figure(result: dict, width: float = 9.6, height: float = 4.2):
    """The experiment of :func:`needle_experiment`: the needle's weight (log scale) and its gradient
    against n, the mean over the draws as a line, with a band for the middle 80 %."""
    from .figures.style import SMALL_PT, TEXT_PT, Figure, _style

    if not isinstance(result, dict) or "methods" not in result:
        raise ValueError("result must be what needle_experiment returns")
    ns = result["n"]
    fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")), dpi=100,
                 layout="constrained")
    ax_w, ax_g = fig.subplots(1, 2)
    for m in METHODS:
        colour, marker, line = _STYLE[m]
        for ax, key in ((ax_w, "weight"), (ax_g, "gradient")):
            data = result["methods"][m][key]
            ax.plot(ns, data.mean(axis=0), color=colour, marker=marker, linestyle=line, markersize=5,
                    linewidth=1.8, label=TEX_NAMES[m])
            ax.fill_between(ns, np.percentile(data, 10, axis=0), np.percentile(data, 90, axis=0), color=colour,
                            alpha=0.15, linewidth=0)
    guide = ns >= 256
    plain = result["methods"]["plain"]["weight"].mean(axis=0)
    ax_w.plot(ns[guide], plain[-1] * ns[-1] / ns[guide], color="0.2", linewidth=1,
              linestyle=(0, (4, 3)), label="slope $1/n$")
    ax_w.set_yscale("log")
    ax_w.set_ylim(1e-4, 2)
    ax_w.set_ylabel("the needle's weight (log scale)")
    ax_g.set_ylabel("gradient $\\partial P/\\partial\\Delta$")
    for ax in (ax_w, ax_g):
        ax.set_xscale("log", base=2)
        ax.set_xticks([2, 16, 128, 1024, 8192, 65536], ["2", "16", "128", "1k", "8k", "64k"])
        ax.set_xticks([], minor=True)
        ax.set_xlabel("keys $n$ (log scale)")
        _style(ax)
    ax_w.set_title(f"weight, needle at $\\Delta$ = {result['gap']:g}", fontsize=TEXT_PT)
    ax_g.set_title("its gradient", fontsize=TEXT_PT)
    handles, labels = ax_w.get_legend_handles_labels()
    # three columns: five entries in one row run past both edges of the figure
    fig.legend(handles, labels, loc="outside lower center", ncols=3, fontsize=SMALL_PT, frameon=False)
    return fig


# --- the explorer's figure ------------------------------------------------------------------------

from .figures.blit import BlitFigure  # noqa: E402  (figures after numerics)
from .figures.style import COLORS, SMALL_PT, TEXT_PT, _style  # noqa: E402
from .state import ContextCurves, ContextState  # noqa: E402


class ContextFigure(BlitFigure[ContextState]):
    """The needle among ``n - 1`` random distractors, under the four :data:`METHODS`.

    Left: the weights of the current method, for one draw (``EXPLORER_SEED``): the needle, the
    :data:`TOP_KEYS` strongest distractors, the rest of the keys summed into one bar, and the
    extra zero logit's weight (the sink). Middle: the needle on the parabola P(1 − P), its
    gradient with respect to its own logit. Right: the needle's weight against n for the
    current method, with plain scaling beside it for reference, the current n ringed. The distractors are drawn once at the largest n; a smaller n takes a prefix. Every
    log partition is precomputed at init, so an update costs a few logistic functions.
    """


    def __init__(self, seed: int = EXPLORER_SEED, s: float = LOGN_S, cap: float = CAP, width: float = 9.6,
                 height: float = 5.2, dpi: int = 100):
        from .figures import Figure

        self.seed = v.positive_int(seed, "seed", minimum=0)
        self.s, self.cap = v.positive_real(s, "s"), v.positive_real(cap, "cap")
        self.ns = np.array(N_VALUES)
        self.rest_all = distractors(N_VALUES[-1] - 1, self.seed)
        # the bars take the logits themselves, s·ln n·z for scores up to the gap's 40
        if not math.isfinite(log_n_factor(N_VALUES[-1], self.s) * max(GAP_RANGE[1], float(np.abs(self.rest_all).max()))):
            raise ValueError(f"s={self.s:g} makes the explorer's logits s·ln n·z overflow float64")
        self._at: dict[int, dict] = {}
        self._parts = {m: [self.partition(n)["parts"][m] for n in N_VALUES] for m in METHODS}
        fig = Figure(figsize=(v.positive_real(width, "width"), v.positive_real(height, "height")),
                     dpi=v.positive_int(dpi, "dpi"), layout="constrained")
        super().__init__(fig)
        ax_w, ax_g, ax_n = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.1, 1.0, 1.0]})
        self._bars(ax_w)
        self._needle_panels(ax_g, ax_n)
        self._legend_and_title(fig, ax_w, ax_g, ax_n)
        self._gap: float | None = None
        self.update()

    def partition(self, n: int) -> dict:
        """What every update at ``n`` keys needs of the first ``n - 1`` distractors, for each
        method: their log partition (``parts``, :func:`_log_partitions`; ``log_z``), the logits
        of the :data:`TOP_KEYS` strongest (``top``) and the log-sum-exp of the others' logits,
        taken in their drawn order (``log_rest``). Computed once for each n (the page's
        ``context.js`` computes the same)."""
        if n not in self._at:
            rest = self.rest_all[: n - 1]
            parts = _log_partitions(rest, n, self.s, self.cap)
            order = np.argsort(rest)[::-1]
            top, others = rest[order[:TOP_KEYS]], np.delete(rest, order[:TOP_KEYS])
            at: dict = {"parts": parts, "log_z": {}, "top": {}, "log_rest": {}}
            for m in METHODS:
                at["log_z"][m] = _log_partition(parts[m], m)
                at["top"][m], _ = _transform(top, n, m, self.s, self.cap)
                if others.size:
                    lo, _ = _transform(others, n, m, self.s, self.cap)
                    at["log_rest"][m] = float(lo.max() + np.log(np.exp(lo - lo.max()).sum()))
                else:
                    at["log_rest"][m] = -np.inf
            self._at[n] = at
        return self._at[n]

    def _bars(self, ax_w) -> None:
        """Left: the needle, the strongest distractors, the rest summed, the sink."""
        slots = TOP_KEYS + 3  # needle, top distractors, rest, sink
        self._slots = slots
        # bar centres: the needle, the top distractors side by side, then the rest and the sink apart
        x = np.r_[0.0, 1.2 + np.arange(TOP_KEYS), TOP_KEYS + 1.8, TOP_KEYS + 3.4]
        self._edges = np.empty(2 * slots)
        self._edges[0::2], self._edges[1::2] = x - 0.4, x + 0.4
        self._x = x

        def bars(**style):
            return self._animate(ax_w.stairs(np.zeros(2 * slots - 1), self._edges, fill=True, **style))

        self.bar_needle = bars(color=_STYLE["plain"][0])
        self.bar_top = bars(color="0.55")
        self.bar_rest = bars(facecolor="0.8", edgecolor="0.3", linewidth=0.8)
        self.bar_sink = bars(facecolor="white", edgecolor="0.1", linewidth=1.2)
        ax_w.set_xticks([x[0], x[1:TOP_KEYS + 1].mean(), x[-2], x[-1]],
                        ["needle", f"top {TOP_KEYS}\nothers", "rest", "sink"])
        ax_w.set_xlim(x[0] - 0.7, x[-1] + 0.7)
        ax_w.set_ylim(0, 1.02)
        ax_w.set_ylabel("weight")
        ax_w.set_title("weights of one draw", fontsize=TEXT_PT)

    def _needle_panels(self, ax_g, ax_n) -> None:
        """Middle: the needle on the parabola P(1 − P); right: its weight against n."""
        self.curves_n = {}
        for m in METHODS:
            colour, marker, line = _STYLE[m]
            self.curves_n[m] = ax_n.plot(self.ns, np.zeros(len(self.ns)), label=TEX_NAMES[m], color=colour,
                                         marker=marker, linestyle=line, markersize=4.5, linewidth=1.6)[0]
        self._animate(*self.curves_n.values())
        # middle: P(1 - P) is a fixed parabola in P; the needle is a point on it
        grid = np.linspace(0, 1, 201)
        ax_g.plot(grid, grid * (1 - grid), color="0.35", linewidth=1.6)
        ax_g.axhline(0.25, color="0.4", linewidth=0.8, linestyle=(0, (1, 2)))
        ax_g.text(0.5, 0.258, "peak ¼ at P = ½", fontsize=SMALL_PT, ha="center", va="bottom", color="0.3")
        self.mark_g = self._animate(ax_g.plot([], [], "o", markersize=11, markerfacecolor="none",
                                              markeredgecolor=COLORS["mark"], markeredgewidth=2.2, zorder=5,
                                              clip_on=False)[0])
        self.dot_g = self._animate(ax_g.plot([], [], "o", markersize=6, zorder=6, clip_on=False)[0])
        self.mark_n = self._animate(ax_n.plot([], [], "o", markersize=11, markerfacecolor="none",
                                              markeredgecolor=COLORS["mark"], markeredgewidth=2.2, zorder=5,
                                              clip_on=False)[0])
        ax_g.set_xlim(0, 1)
        ax_g.set_ylim(0, 0.3)
        ax_g.set_xlabel("the needle's weight $P$")
        ax_g.set_title("the needle's $P(1-P)$", fontsize=TEXT_PT)
        ax_n.set_xscale("log", base=2)
        ax_n.set_xlim(1.6, 8e4)
        ax_n.set_xticks([2, 16, 128, 1024, 8192, 65536], ["2", "16", "128", "1k", "8k", "64k"])
        ax_n.set_xticks([], minor=True)
        ax_n.set_xlabel("keys $n$ (log scale)")
        ax_n.set_ylim(0, 1.02)
        ax_n.set_title("the needle's weight", fontsize=TEXT_PT)

    def _legend_and_title(self, fig, ax_w, ax_g, ax_n) -> None:
        ax_w.plot([], [], "o", markersize=9, markerfacecolor="none", markeredgecolor=COLORS["mark"],
                  markeredgewidth=2, label="ring: the current setting")
        handles, labels = ax_n.get_legend_handles_labels()
        extra = ax_w.get_legend_handles_labels()
        fig.legend(handles + extra[0], labels + extra[1], loc="outside lower center", ncols=3, fontsize=SMALL_PT,
                   frameon=False)
        for ax in (ax_w, ax_g, ax_n):
            _style(ax)
        # a fixed title: the controls show the settings, and a changing one would cost every
        # static frame about a third of its bytes
        fig.suptitle(f"one draw of the distractors (seed {self.seed}); the needle ringed where it stands",
                     fontsize=TEXT_PT)

    def curves(self, gap: float, method: str) -> ContextCurves:
        """The needle's weight, 1 − weight, P(1 − P) and gradient at every n of :data:`N_VALUES`, for one draw."""
        rows = [_needle_from_partition(gap, n, method, self._parts[method][i], self.s, self.cap)
                for i, n in enumerate(N_VALUES)]
        weights, others, grads = (np.array([float(row[k]) for row in rows]) for k in range(3))
        return ContextCurves(weight=weights, others=others, spread=weights * others, gradient=grads)

    def update(self, n: int = 1024, gap: float = 6.0, method: str = "plain") -> None:
        """Show ``method`` with the needle ``gap`` above 0 among ``n`` keys: any integer ``n``
        from 2 to the last of :data:`N_VALUES`, any ``gap`` in :data:`GAP_RANGE`."""
        n = v.positive_int(n, "n", minimum=2)
        if n > N_VALUES[-1]:
            raise ValueError(f"n must lie in [2, {N_VALUES[-1]}], got {n}")
        gap = _real(gap, "gap")
        if not GAP_RANGE[0] <= gap <= GAP_RANGE[1]:
            raise ValueError(f"gap must lie in [{GAP_RANGE[0]:g}, {GAP_RANGE[1]:g}], got {gap}")
        method = _check_method(method)
        if gap != self._gap:
            self._gap = gap
            self._all = {m: self.curves(gap, m) for m in METHODS}
            for m in METHODS:
                self.curves_n[m].set_ydata(self._all[m].weight)
        at = self.partition(n)
        weight, others, slope_grad, _ = _needle_from_partition(gap, n, method, at["parts"][method], self.s, self.cap)
        weight, others, gradient = float(weight), float(others), float(slope_grad)
        spread = weight * others
        # every weight from the log partition: e^(logit - log Z), Z = needle + distractors (+ 1)
        needle_logit, _ = _transform(np.array([gap]), n, method, self.s, self.cap)
        log_total = float(np.logaddexp(needle_logit[0], at["log_z"][method]))
        top = np.exp(at["top"][method] - log_total)
        rest = float(np.exp(at["log_rest"][method] - log_total))
        sink = float(np.exp(-log_total)) if method == "zero-logit" else 0.0
        heights = np.zeros(self._slots)
        heights[0] = weight
        self.bar_needle.set_data(self._interleave(heights, [0]))
        heights[1:1 + len(top)] = top
        self.bar_top.set_data(self._interleave(heights, range(1, 1 + TOP_KEYS)))
        heights[TOP_KEYS + 1], heights[TOP_KEYS + 2] = rest, sink
        self.bar_rest.set_data(self._interleave(heights, [TOP_KEYS + 1]))
        self.bar_sink.set_data(self._interleave(heights, [TOP_KEYS + 2]))
        self.bar_needle.set_color(_STYLE[method][0])
        for m in METHODS:  # the current method's curves, and plain's for reference (fewer bytes a frame)
            self.curves_n[m].set_visible(m in (method, "plain"))
        self.curves_n[method].set_zorder(3)
        self.mark_g.set_data([weight], [spread])
        self.dot_g.set_data([weight], [spread])
        self.dot_g.set_color(_STYLE[method][0])
        self.dot_g.set_marker(_STYLE[method][1])
        self.mark_n.set_data([n], [weight])
        self.state = ContextState(n=n, gap=gap, method=method, seed=self.seed, needle=weight, others=others,
                                  spread=spread, gradient=gradient, top_distractor=float(top[0]), rest=rest, sink=sink,
                                  largest_logit=float(max(needle_logit[0], at["top"][method][0])),
                                  curves=self._all)

    def _interleave(self, heights: np.ndarray, keep) -> np.ndarray:
        """Bar heights of the slots in ``keep`` (others 0), interleaved with the gaps between bars."""
        out = np.zeros(2 * self._slots - 1)
        for k in keep:
            out[2 * k] = heights[k]
        return out
