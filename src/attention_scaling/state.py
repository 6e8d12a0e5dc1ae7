"""What an explorer shows, as typed data: one frozen dataclass per family of explorers.

A live figure's ``update(...)`` leaves its state in ``figure.state``: the settings, the one
draw's weights, what the readout reports of them (:class:`Measures` of floats) and, where the
explorer averages, the same measures over many draws (:class:`Measures` of
:class:`~attention_scaling.numerics.Expectation`: mean, standard error, 10-90 % band).
Everything said about a state is formatted from these fields: the readout table and its
sentence, the alt text (``describe(state)`` in :mod:`attention_scaling.explorables.book`), the
handout's answer key and the presentation's captions. No number is parsed back out of text.

The measures have names (``max_weight``, ``entropy``, ``largest_gradient``), not strings:
``state.draw.scaled.max_weight`` is the largest scaled weight of the draw shown, and
``state.mean.scaled.max_weight.mean`` its mean over the queries behind the band.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Generic, TypeVar

import numpy as np

from .numerics import Expectation, expectation, weight_measures

__all__ = ["Measures", "Pair", "AttentionState", "ScaleDraw", "ScaleState", "NormalizationState", "ContextState",
           "ContextCurves", "measures_of", "means_of", "MEASURE_KEYS"]

T = TypeVar("T")


@dataclass(frozen=True)
class Measures(Generic[T]):
    """The measures an explorer reports of a weight vector: a float each for one draw, an
    :class:`~attention_scaling.numerics.Expectation` each for many.

    ``largest_gradient`` is the largest :math:`P_j(1-P_j)`, with :math:`1-P_j` summed from the
    other weights (:func:`~attention_scaling.numerics.weight_measures`). Only the scale explorer
    reports ``jacobian_norm``, ‖J‖₂: the largest eigenvalue of diag(P) − PPᵀ.
    """

    max_weight: T
    entropy: T
    largest_gradient: T
    jacobian_norm: T | None = None

    def items(self) -> list[tuple[str, T]]:
        """(name, value) of every measure this holds, in order (``jacobian_norm`` when there is one)."""
        return [(f.name, getattr(self, f.name)) for f in fields(self) if getattr(self, f.name) is not None]

    def values(self) -> list[T]:
        return [value for _, value in self.items()]


#: Each measure's key in the dicts of :func:`~attention_scaling.numerics.weight_measures` and
#: :func:`~attention_scaling.numerics.saturation_expectation` (the many-row computations).
MEASURE_KEYS = {"max_weight": "max weight", "entropy": "entropy", "largest_gradient": "largest P(1-P)"}


def measures_of(p) -> Measures[float]:
    """The measures of one weight vector ``p`` as floats (what a readout shows for one draw)."""
    m = weight_measures(p)
    return Measures(**{name: float(m[key]) for name, key in MEASURE_KEYS.items()})


def means_of(p, axis: int = -1) -> Measures[Expectation]:
    """Mean, standard error and 10-90 % band of each measure over the weight vectors in ``p``."""
    m = weight_measures(p, axis=axis)
    top, gradient = m["max weight"], m["largest P(1-P)"]
    # above 1/2 the largest weight's P(1 - P) is the largest one: over P it is 1 - P with every digit
    with np.errstate(divide="ignore", invalid="ignore"):
        complement = np.where(top > 0.5, gradient / top, 1.0 - top)
    return Measures(**{name: expectation(m[key], complement=complement if name == "max_weight" else None)
                       for name, key in MEASURE_KEYS.items()})


@dataclass(frozen=True)
class Pair(Generic[T]):
    """One thing twice: for the raw scores q·k and for the scores scaled by 1/√d_k."""

    unscaled: T
    scaled: T

    def items(self) -> list[tuple[str, T]]:
        return [("unscaled", self.unscaled), ("scaled", self.scaled)]


@dataclass(frozen=True)
class AttentionState:
    """The attention explorer (:class:`~attention_scaling.figures.AttentionFigure`) at one setting.

    ``scores`` and ``weights`` are the one draw's (length ``n_keys``); ``histogram`` and
    ``predicted`` the fraction of random pairs per bin of ``|score|`` and its normal prediction
    (bins :data:`~attention_scaling.figures.SCORE_EDGES`); ``mean`` is over ``n_queries``
    queries of :func:`~attention_scaling.numerics.ensemble_scores`.
    """

    d_k: int
    magnitude: float
    n_keys: int
    seed: int
    scores: Pair[np.ndarray]
    weights: Pair[np.ndarray]
    histogram: Pair[np.ndarray]
    predicted: Pair[np.ndarray]
    draw: Pair[Measures[float]]
    mean: Pair[Measures[Expectation]]
    n_queries: int

    @property
    def max_entropy(self) -> float:
        """ln n: the entropy of uniform weights over the keys, the largest there is."""
        return float(np.log(self.n_keys))

    def values(self) -> list[float]:
        """Every number of the one draw the readout shows (unscaled, then scaled)."""
        return self.draw.unscaled.values() + self.draw.scaled.values()


class _OneVector:
    """What the explorers of one weight vector (scale, normalisation) share."""

    weights: np.ndarray
    draw: Measures[float]

    @property
    def max_entropy(self) -> float:
        """ln n: the entropy of uniform weights, the largest there is."""
        return float(np.log(len(self.weights)))

    def values(self) -> list[float]:
        """Every number of the one draw the readout shows."""
        return self.draw.values()


@dataclass(frozen=True)
class ScaleDraw(_OneVector):
    """The scale explorer's one draw at ``scale``, without the band over the other draws: what
    :meth:`~attention_scaling.figures.ScaleFigure.draw_at` gives a scan of the slider's positions."""

    scale: float
    weights: np.ndarray
    gradient: np.ndarray  # P_i (1 - P_i), the Jacobian's diagonal
    jacobian: np.ndarray
    draw: Measures[float]


@dataclass(frozen=True)
class ScaleState(_OneVector):
    """The scale explorer (:class:`~attention_scaling.figures.ScaleFigure`): one score vector
    times ``scale``; ``mean`` is over ``n_draws`` such vectors."""

    scale: float
    seed: int | None
    weights: np.ndarray
    gradient: np.ndarray  # P_i (1 - P_i), the Jacobian's diagonal
    jacobian: np.ndarray
    draw: Measures[float]
    mean: Measures[Expectation]
    n_draws: int


@dataclass(frozen=True)
class NormalizationState(_OneVector):
    """The normalisation explorer (:class:`~attention_scaling.figures.NormalizationFigure`):
    ``mode`` (``"scaled"``, ``"qk-l2"``, ``"qk-layernorm"``) at ``magnitude``, QK-norm's
    ``gain``; ``mean`` is over ``n_queries`` queries."""

    magnitude: float
    mode: str
    gain: float
    seed: int
    weights: np.ndarray
    draw: Measures[float]
    mean: Measures[Expectation]
    n_queries: int


@dataclass(frozen=True)
class ContextCurves:
    """The needle against the context length, one value per n of :data:`~attention_scaling.context.N_VALUES`."""

    weight: np.ndarray
    others: np.ndarray  # 1 - weight, summed from the other weights
    spread: np.ndarray  # weight * others: the needle's P(1 - P)
    gradient: np.ndarray  # dP/dΔ


@dataclass(frozen=True)
class ContextState:
    """The context explorer (:class:`~attention_scaling.context.ContextFigure`): a needle
    scored ``gap`` above ``n - 1`` standard-normal distractors, under ``method``.

    ``needle`` is its weight, ``others`` 1 − that weight (summed from the rest), ``spread``
    its P(1 − P), ``gradient`` dP/dΔ; ``top_distractor`` is the largest other weight, ``rest``
    the distractors beyond the five drawn, ``sink`` the extra zero logit's weight (0 without
    one), ``largest_logit`` the largest logit after the method's transform. ``curves`` holds
    the needle at every n for each method, at this gap.
    """

    n: int
    gap: float
    method: str
    seed: int
    needle: float
    others: float
    spread: float
    gradient: float
    top_distractor: float
    rest: float
    sink: float
    largest_logit: float
    curves: dict[str, ContextCurves]

    def values(self) -> list[float]:
        """Every number the readout can show, for checks that all are finite."""
        return [self.needle, self.others, self.spread, self.gradient, self.top_distractor, self.rest,
                self.sink, self.largest_logit]
