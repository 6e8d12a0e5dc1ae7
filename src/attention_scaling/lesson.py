"""The lesson plan as data: its blocks and times, the stops an instructor steps through, the
predictions the worksheet asks for and the exit ticket's questions.

The instructor page (``book/teach-with-this-book.md``) plans a 50-minute session
(:data:`SESSION`) and a 2-hour workshop (:data:`WORKSHOP`); each is a :class:`Plan` of
:class:`Block` s with their minutes. Every place that shows the plan reads it from here: the
page's plan tables (their times are glued from the blocks), the handouts' section headings
and lab list (``attention_book.handout``), the worksheet and the exit ticket
(:mod:`attention_scaling.worksheets`: :data:`PREDICTIONS`, :data:`EXIT_QUESTIONS`), and the
players' presentation mode, which steps through :data:`STOPS` (``_static/player.js``).

For each explorer the plan uses, :data:`STOPS` lists the settings of the player's controls,
in the plan's order, with a short caption in the page's words; a :class:`Prediction` names
the stops it covers (checked: its settings text names their values).

Plain data and a few functions, no imports from the rest of the package::

    >>> [s.settings["d_k"] for s in stops("attention")]
    [1, 64, 1024, 64, 64]

A caption holds words, not numbers: the player shows each stop's settings beside it.
Where the class is asked to predict, the caption asks ("Predict: ...") rather than answers;
a caption about the one draw on screen says "in this draw" (the readout also gives the mean).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, NamedTuple

__all__ = ["Stop", "STOPS", "EXPLORERS", "CAPTION_MAX", "stops", "check_stops", "PACE", "duration", "Cut", "Block", "Plan", "SESSION",
           "WORKSHOP", "Prediction", "PREDICTIONS", "EXIT_QUESTIONS", "TIMINGS_FORMAT", "read_timings",
           "rehearsal_rows"]

#: Longest caption, in characters (it is read from a projector, one line at a time).
CAPTION_MAX = 80
#: No explorer figure has more panels than this (a stop names one of them by its index).
PANELS_MAX = 3


class Stop(NamedTuple):
    """One setting of a player: a caption, the value of every control, by control name, the
    panel the caption talks about (0 = the leftmost): a phone, where the figure scrolls
    sideways, shows that panel at the stop; and the rows of the readout it talks about (their
    labels; none: every row), which the session's slides keep while hiding the others."""

    caption: str
    settings: Mapping[str, object]
    panel: int = 0
    numbers: tuple[str, ...] = ()


#: The scale explorer's readout rows that its stops talk about.
_GRADIENTS = ("largest P(1−P)", "norm of the Jacobian ‖J‖₂")

#: Per explorer name (``Explorable.name``), its stops in the plan's order.
STOPS: dict[str, tuple[Stop, ...]] = {
    # "Slider settings, in order", steps 1 to 4 (step 4 in two moves).
    "attention": (
        Stop("Predict: do the red and blue weights differ here? And at the next dₖ?",
             {"d_k": 1, "magnitude": 1.0}, numbers=("largest weight",)),
        Stop("In this draw red piles onto one key; blue keeps almost half on the others",
             {"d_k": 64, "magnitude": 1.0}, numbers=("largest weight",)),
        Stop("The red hump has moved right; the blue hump has not moved",
             {"d_k": 1024, "magnitude": 1.0}, panel=2, numbers=("largest weight",)),
        Stop("Stop 2's dₖ, larger vectors: in this draw the blue weights saturate too",
             {"d_k": 64, "magnitude": 3.0}, numbers=("largest weight", "largest P(1−P)")),
        Stop("Larger still: what did the scaling assume?",
             {"d_k": 64, "magnitude": 10.0}, numbers=("largest weight", "largest P(1−P)")),
    ),
    # The 15-20 min row of the 50-minute plan: s up from the plan's low end to its high
    # end (the first and the largest stop), then down to the flat end (the last stop).
    "scale": (
        Stop("Predict: what do the panels do as s grows?", {"scale": 1.0}, panel=1, numbers=_GRADIENTS),
        Stop("The largest P(1−P) rises first: in this draw it peaks near here", {"scale": 2.0}, panel=1, numbers=_GRADIENTS),
        Stop("In this draw ‖J‖₂ peaks near here; its mean peaked near the stop before", {"scale": 3.0}, panel=2, numbers=_GRADIENTS),
        Stop("Only then do both fade", {"scale": 7.0}, panel=1, numbers=_GRADIENTS),
        Stop("Both have faded: the softmax saturates", {"scale": 20.0}, panel=1, numbers=_GRADIENTS),
        Stop("Too flat: a flat softmax passes back small gradients too", {"scale": 0.05}, panel=1, numbers=_GRADIENTS),
    ),
    # Step 5 (optional, for the next session): magnitude at its largest, the
    # normalisation switched from the scaling to QK-norm, then QK-norm's gain moved.
    "normalization": (
        Stop("Large vectors, scaled by 1/√dₖ: the weights saturate",
             {"mode": "scaled", "magnitude": 10.0, "gain": 8.0}),
        Stop("Switch to QK-norm: the magnitude stops mattering",
             {"mode": "qk-l2", "magnitude": 10.0, "gain": 8.0}, panel=1),
        Stop("Move QK-norm's gain down: the weights spread out",
             {"mode": "qk-l2", "magnitude": 10.0, "gain": 2.0}),
        Stop("Move it up: the gain, not the magnitude, sets how sharp they are",
             {"mode": "qk-l2", "magnitude": 10.0, "gain": 64.0}, panel=1),
    ),
    # The chapter on long contexts (keep-long-contexts-sharp), its explorer's walk: the
    # needle fades as n grows, s·ln n holds it, the soft cap and the zero logit do not.
    "context": (
        Stop("Few keys: the needle takes nearly all the weight",
             {"method": "plain", "n": 16, "gap": 6.0}),
        Stop("Same gap, many keys: the needle fades like 1/n",
             {"method": "plain", "n": 65536, "gap": 6.0}, panel=2),
        Stop("Scale the scores by s·ln n: the needle holds its weight",
             {"method": "log-n", "n": 65536, "gap": 6.0}, panel=2),
        Stop("Cap the logits: a capped gap cannot beat many keys",
             {"method": "soft-cap", "n": 65536, "gap": 6.0}, panel=2),
        Stop("An extra zero logit: one more key, the others outvote it",
             {"method": "zero-logit", "n": 65536, "gap": 6.0}),
    ),
}

#: The explorers that have stops.
EXPLORERS = tuple(STOPS)


def stops(explorer: str) -> tuple[Stop, ...]:
    """The stops of ``explorer`` ("attention", "scale", "normalization" or "context"), in order."""
    if explorer not in STOPS:
        raise ValueError(f"explorer must be one of {', '.join(EXPLORERS)}, got {explorer!r}")
    return STOPS[explorer]


def check_stops(explorer: str, grid: Mapping[str, tuple], given: tuple[Stop, ...] | None = None) -> tuple[Stop, ...]:
    """Check that every stop of ``explorer`` is a point of its player's ``grid``.

    ``grid`` maps each control's name to the values the player has frames for; a stop
    must set every control to one of them. ``given`` checks other stops under that
    explorer's name (default: its own). Returns the stops; raises ValueError naming the
    explorer and the stop otherwise.
    """
    if not isinstance(explorer, str) or not explorer:
        raise ValueError(f"explorer must be a non-empty name, got {explorer!r}")
    if not isinstance(grid, Mapping) or not grid:
        raise ValueError(f"grid must map control names to their values, got {grid!r}")
    checked = stops(explorer) if given is None else tuple(given)
    for k, stop in enumerate(checked, 1):
        where = f"explorer {explorer!r}, stop {k} ({stop.caption!r})" if isinstance(stop, Stop) else \
            f"explorer {explorer!r}, stop {k}"
        if not isinstance(stop, Stop):
            raise ValueError(f"{where}: a stop must be a Stop(caption, settings), got {stop!r}")
        if not isinstance(stop.caption, str) or not stop.caption.strip() or len(stop.caption) > CAPTION_MAX:
            raise ValueError(f"{where}: the caption must be 1 to {CAPTION_MAX} characters")
        if set(stop.settings) != set(grid):
            raise ValueError(f"{where}: it must set exactly the controls {sorted(grid)}, "
                             f"got {sorted(stop.settings)}")
        if not isinstance(stop.numbers, tuple) or not all(isinstance(n, str) and n for n in stop.numbers):
            raise ValueError(f"{where}: numbers must be a tuple of the readout's row labels, got {stop.numbers!r}")
        if isinstance(stop.panel, bool) or not isinstance(stop.panel, int) or not 0 <= stop.panel < PANELS_MAX:
            raise ValueError(f"{where}: panel must be a panel's index from 0 (the leftmost), got {stop.panel!r}")
        for name, value in stop.settings.items():
            if value not in grid[name]:
                raise ValueError(f"{where}: {name} = {value!r} is not on the player's grid {tuple(grid[name])}")
    return checked


# --- the sessions: blocks and their minutes ---------------------------------------------------


#: The pace the plan is timed by, in minutes: what each kind of thing a block holds takes in
#: class. ``stop``: one stop of an explorer in present mode (say what changed, point at it);
#: ``prediction``: the class writes a prediction, then sees the answer; ``proof line``: one line
#: of a proof on screen, read and justified; ``board line``: one line written on the board;
#: ``show``: a figure, table or result shown and named; ``discussion``: a question for pairs,
#: then two answers heard; ``quiz question``: one multiple-choice question, answered and
#: revealed; ``ticket question``: one exit-ticket question, written. These are the plan's
#: assumptions, set here once; no classroom has timed them (the instructor page says so).
PACE = {"stop": 0.75, "prediction": 2.0, "proof line": 0.5, "board line": 1.5, "show": 1.0,
        "discussion": 2.0, "quiz question": 1.0, "ticket question": 1.0}


def duration(minutes: float) -> str:
    """``"2 min"``, ``"1.5 min"``, or under a minute ``"45 s"``."""
    return f"{minutes:g} min" if minutes >= 1 else f"{minutes * 60:.0f} s"


class Cut(NamedTuple):
    """A cut cue: if the class is past minute ``at`` of the session, ``skip`` (in words, as the
    instructor page and the run sheet print it) and ``saves`` minutes come back."""

    at: int
    skip: str
    saves: float

    @property
    def text(self) -> str:
        return f"If you are past minute {self.at}, {self.skip}."


@dataclass(frozen=True)
class Block:
    """One block of a plan: from minute ``start`` to minute ``end``, with a ``slug`` (the
    handout's section id, and the name the page glues its times under) and a ``title``;
    optionally what it holds (``work``: (what, kind of :data:`PACE`, how many) rows, which the
    block's minutes must cover at that pace) and a :class:`Cut` cue."""

    start: int
    end: int
    slug: str
    title: str
    work: tuple[tuple[str, str, int], ...] = ()
    cut: Cut | None = None

    @property
    def times(self) -> str:
        """``"0–5 min"``, as the plan's tables and the handout's headings write it."""
        return f"{self.start}–{self.end} min"

    @property
    def needs(self) -> float:
        """The minutes its ``work`` takes at :data:`PACE`."""
        return sum(PACE[kind] * n for _what, kind, n in self.work)

    @property
    def held(self) -> str:
        """What it holds at the plan's pace, as the instructor page and the run sheet print it:
        ``"the proof, line by line (13 × 30 s); the table of SymPy's checks (1 min)"``."""
        return "; ".join(f"{what} ({n} × {duration(PACE[kind])})" if n > 1 else f"{what} ({duration(PACE[kind])})"
                         for what, kind, n in self.work)


@dataclass(frozen=True)
class Plan:
    """A session: its ``title``, length in ``minutes`` and :class:`Block` s, back to back."""

    title: str
    minutes: int
    blocks: tuple[Block, ...]

    def __post_init__(self):
        ends = [0] + [b.end for b in self.blocks]
        if [b.start for b in self.blocks] != ends[:-1] or ends[-1] != self.minutes:
            raise ValueError(f"the blocks of {self.title!r} must follow each other from 0 to {self.minutes} min")
        if any(b.end <= b.start for b in self.blocks) or len({b.slug for b in self.blocks}) != len(self.blocks):
            raise ValueError(f"every block of {self.title!r} needs a positive length and a slug of its own")
        for b in self.blocks:
            unknown = [kind for _w, kind, _n in b.work if kind not in PACE]
            if unknown:
                raise ValueError(f"block {b.slug!r}: work kinds must be among {sorted(PACE)}, got {unknown}")
            if b.needs > b.end - b.start:
                raise ValueError(f"block {b.slug!r} holds {b.needs:g} min of work at the plan's pace "
                                 f"but has {b.end - b.start} min")
            if b.cut is not None and not (b.start < b.cut.at < b.end and 0 < b.cut.saves <= b.needs):
                raise ValueError(f"block {b.slug!r}: its cut cue must fall inside it ({b.times}) and save "
                                 f"part of its work, got {b.cut}")

    def block(self, slug: str) -> Block:
        for b in self.blocks:
            if b.slug == slug:
                return b
        raise ValueError(f"slug must name a block of {self.title!r} ({', '.join(b.slug for b in self.blocks)}), "
                         f"got {slug!r}")

    def heading(self, slug: str) -> str:
        """The block's heading in a handout: ``"1. The hook (0–4 min)"``."""
        b = self.block(slug)
        return f"{self.blocks.index(b) + 1}. {b.title} ({b.times})"

    @property
    def slack(self) -> float:
        """Minutes the plan leaves over its work at :data:`PACE`."""
        return self.minutes - sum(b.needs for b in self.blocks)


#: Counts the plan's blocks hold, each checked against what it counts (tests/package/test_lesson.py):
#: the proof's lines (derivations.seed_proof), the scale explorer's stops (STOPS["scale"]), the main
#: explorer's (STOPS["attention"]) and the worksheet rows they cover (PREDICTIONS, less the optional
#: one), the chapter's quiz, the exit ticket's written questions (EXIT_QUESTIONS, less the optional).
PROOF_LINES, SCALE_STOPS, ATTENTION_STOPS, WORKSHEET_ROWS, QUIZ_QUESTIONS, TICKET_QUESTIONS = 13, 6, 5, 4, 3, 3

#: The 50-minute session (the instructor page's "Plan a 50-minute session").
SESSION = Plan("Why attention divides by √dₖ", 50, (
    Block(0, 4, "hook", "The hook",
          (("the saturated row, and the class's guesses", "prediction", 1), ("the answer, P₁(1 − P₁)", "show", 1))),
    Block(4, 13, "derive", "Derive the gradient",
          (("the proof, line by line", "proof line", PROOF_LINES), ("the table of SymPy's checks", "show", 1)),
          Cut(11, "skip the table of checks: say that the build checked every line", 1)),
    Block(13, 21, "curve", "Read the curve",
          (("Figure 1.1", "show", 1), ("the scale explorer: predict first", "prediction", 1),
           ("its stops", "stop", SCALE_STOPS)),
          Cut(18, "skip the scale explorer's stop at s = 7: from its peak go straight to s = 20", 0.75)),
    Block(21, 28, "why", "Why √dₖ",
          (("the variance of q·k and its proof, on the board", "board line", 2), ("the sympy.stats table", "show", 1),
           ("the simulation", "show", 1)),
          Cut(26, "skip the simulation: the table shows the same law", 1)),
    Block(28, 40, "predict", "Predict, then move the slider",
          (("the worksheet's rows", "prediction", WORKSHEET_ROWS), ("the main explorer's stops", "stop", ATTENTION_STOPS)),
          Cut(36, "skip step 3 (dₖ = 1024) and its prediction: the “why” block showed the spread grow", 2.75)),
    Block(40, 47, "discuss", "Discuss and check yourself",
          (("two of the four discussion questions", "discussion", 2), ("the chapter's quiz", "quiz question", QUIZ_QUESTIONS)),
          Cut(44, "skip the quiz: students take it after class (the chapter keeps their answers and "
                  "their answer code)", 3)),
    Block(47, 50, "exit-ticket", "Exit ticket", (("its questions", "ticket question", TICKET_QUESTIONS),)),
))

#: The 2-hour workshop: the session, a break, then three labs (their slugs are the labs' names).
WORKSHOP = Plan("Why attention divides by √dₖ: a 2-hour workshop", 120, (
    Block(0, 50, "session", "The 50-minute session"),
    Block(50, 60, "break", "Break"),
    Block(60, 85, "lab-derive-it-with-sympy", "Lab: derive it with SymPy"),
    Block(85, 105, "lab-break-the-softmax", "Lab: break the softmax"),
    Block(105, 120, "lab-turn-on-qk-norm", "Lab: turn on QK-norm"),
))


# --- what the class writes: predictions and the exit ticket --------------------------------------


@dataclass(frozen=True)
class Prediction:
    """One move of a slider in the "predict" block: where to set the explorer (in words), what
    to predict first, and the stops of :data:`STOPS` it covers, as (explorer, index) pairs."""

    settings: str
    question: str
    stops: tuple[tuple[str, int], ...] = ()


#: The worksheet's rows, in the plan's order (the main explorer's stops, then the
#: normalisation explorer's first two).
PREDICTIONS = (
    Prediction("dₖ = 1, m = 1", "Do the red (unscaled) and blue (scaled) weights differ?", (("attention", 0),)),
    Prediction("dₖ = 64, m = 1", "Which weights pile onto one key: the red or the blue?", (("attention", 1),)),
    Prediction("dₖ = 1024, m = 1", "From dₖ = 64, how many times wider does the red spread of q·k get? "
                                   "And the blue one?", (("attention", 2),)),
    Prediction("dₖ = 64, m = 3, then m = 10", "Do the blue (scaled) weights saturate now? Why, or why not?",
               (("attention", 3), ("attention", 4))),
    Prediction("Optional: normalisation explorer at m = 10: “scaled by 1/√dₖ”, “QK-norm”, then its gain",
               "What happens to the largest weight when QK-norm is on? When its gain moves?",
               (("normalization", 0), ("normalization", 1), ("normalization", 2), ("normalization", 3))),
)

#: The exit ticket's questions (the answers are on the instructor page).
EXIT_QUESTIONS = (
    "In one sentence: why does attention divide the scores by √dₖ, and not by dₖ?",
    "A row of attention weights is P = (0.995, 0.003, 0.002). Compute ∂P₁/∂z₁ = P₁(1 − P₁). "
    "Is it large or small, compared with the largest value P₁(1 − P₁) can take?",
    "The scaled scores still grow when the query and key vectors grow. Name one thing that keeps "
    "attention trainable then.",
    "What is still unclear to you? (optional)",
)

_WORDS = {"d_k": "dₖ", "magnitude": "m"}


def check_predictions(predictions=PREDICTIONS) -> tuple[Prediction, ...]:
    """Check that each prediction's settings text names the values of the stops it covers
    (``dₖ = 64``, ``m = 3``; a QK-norm stop, "QK-norm"), and that its stops exist; returns them."""
    checked = tuple(predictions)
    for k, pred in enumerate(checked, 1):
        if not isinstance(pred, Prediction) or not pred.stops:
            raise ValueError(f"prediction {k}: must be a Prediction naming the stops it covers, got {pred!r}")
        for explorer, index in pred.stops:
            if not 0 <= index < len(stops(explorer)):
                raise ValueError(f"prediction {k}: {explorer!r} has no stop {index}")
            settings = stops(explorer)[index].settings
            said = [f"{_WORDS[name]} = {value:g}" for name, value in settings.items() if name in _WORDS]
            if settings.get("mode") == "qk-l2":
                said.append("QK-norm")
            missing = [w for w in said if not re.search(re.escape(w) + r"(?![\d.])", pred.settings)]
            if missing:
                raise ValueError(f"prediction {k} ({pred.settings!r}) does not say {missing} of stop "
                                 f"{index + 1} of {explorer!r}")
    return checked


# --- a rehearsal's timings ----------------------------------------------------------------------

#: The format of the timings the slides' presenter view saves ("Save the timings").
TIMINGS_FORMAT = "attention-scaling-timings/1"


def read_timings(data: Mapping, plan: Plan = SESSION) -> dict[str, float]:
    """The minutes a rehearsal (or a class) spent on each block of ``plan``, from the file the
    slides' presenter view saves (parsed JSON): ``{slug: minutes}``, every block of the plan.
    Raises ValueError naming what is wrong: another format or plan, an unknown or missing block,
    a negative or non-finite time."""
    import math

    if not isinstance(data, Mapping) or data.get("format") != TIMINGS_FORMAT:
        raise ValueError(f"data must be a timings file of format {TIMINGS_FORMAT!r}, got "
                         f"{data.get('format') if isinstance(data, Mapping) else type(data).__name__!r}")
    if data.get("plan") != plan.title:
        raise ValueError(f"data: these timings are of the plan {data.get('plan')!r}, not {plan.title!r}")
    blocks = data.get("blocks")
    if not isinstance(blocks, list) or not all(isinstance(b, Mapping) for b in blocks):
        raise ValueError("data: blocks must be a list of {slug, spent_minutes}")
    spent = {}
    for b in blocks:
        slug, minutes = b.get("slug"), b.get("spent_minutes")
        plan.block(slug)  # names a block of the plan, or raises
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not math.isfinite(minutes) \
                or minutes < 0:
            raise ValueError(f"data: block {slug!r}: spent_minutes must be a finite number >= 0, got {minutes!r}")
        spent[slug] = float(minutes)
    missing = [b.slug for b in plan.blocks if b.slug not in spent]
    if missing:
        raise ValueError(f"data: no time for the blocks {missing}")
    return spent


def rehearsal_rows(spent: Mapping[str, float], plan: Plan = SESSION) -> list[tuple[str, int, float, float]]:
    """Per block of ``plan``: (title, minutes planned, minutes spent, minutes its work needs at
    :data:`PACE`), for ``spent`` from :func:`read_timings`: what to compare before trusting the
    plan's times, or changing them."""
    return [(b.title, b.end - b.start, float(spent[b.slug]), b.needs) for b in plan.blocks]
