"""The lesson plan's slider settings, as data: the stops an instructor steps through.

The instructor page (``book/teach-with-this-book.md``) plans a 50-minute session around
three explorers. For each, this module lists the settings of the player's controls the
plan names, in the plan's order, with a short caption in the page's words. The static
players step through them in presentation mode (``_static/player.js``), the instructor
page reads its claims' settings from here, and a handout can print them as strips.

Plain data and two functions, no imports from the rest of the package::

    >>> [s.settings["d_k"] for s in stops("attention")]
    [1, 64, 1024, 64, 64]

A caption holds words, not numbers: the player shows each stop's settings beside it.
Where the class is asked to predict, the caption asks ("Predict: ...") rather than answers;
a caption about the one draw on screen says "in this draw" (the readout also gives the mean).
"""

from __future__ import annotations

from typing import Mapping, NamedTuple

__all__ = ["Stop", "STOPS", "EXPLORERS", "CAPTION_MAX", "stops", "check_stops"]

#: Longest caption, in characters (it is read from a projector, one line at a time).
CAPTION_MAX = 80
#: No explorer figure has more panels than this (a stop names one of them by its index).
PANELS_MAX = 3


class Stop(NamedTuple):
    """One setting of a player: a caption, the value of every control, by control name, and
    the panel the caption talks about (0 = the leftmost): a phone, where the figure scrolls
    sideways, shows that panel at the stop."""

    caption: str
    settings: Mapping[str, object]
    panel: int = 0


#: Per explorer name (``Explorable.name``), its stops in the plan's order.
STOPS: dict[str, tuple[Stop, ...]] = {
    # "Slider settings, in order", steps 1 to 4 (step 4 in two moves).
    "attention": (
        Stop("Predict: do the red and blue weights differ here? And at the next dₖ?",
             {"d_k": 1, "magnitude": 1.0}),
        Stop("In this draw the red weights pile onto one key; the blue ones spread out",
             {"d_k": 64, "magnitude": 1.0}),
        Stop("The red hump has moved right; the blue hump has not moved",
             {"d_k": 1024, "magnitude": 1.0}, panel=2),
        Stop("Stop 2's dₖ, larger vectors: in this draw the blue weights saturate too",
             {"d_k": 64, "magnitude": 3.0}),
        Stop("Larger still: what did the scaling assume?",
             {"d_k": 64, "magnitude": 10.0}),
    ),
    # The 15-20 min row of the 50-minute plan: s up from the plan's low end to its high
    # end (the first and the largest stop), then down to the flat end (the last stop).
    "scale": (
        Stop("Predict: what do the panels do as s grows?", {"scale": 1.0}, panel=1),
        Stop("The panels first rise: in this draw the largest P(1-P) peaks here", {"scale": 2.0}, panel=1),
        Stop("In this draw ‖J‖₂ peaks here; its mean peaked one stop earlier", {"scale": 3.0}, panel=2),
        Stop("Only then do both fade", {"scale": 7.0}, panel=1),
        Stop("Both have faded: the softmax saturates", {"scale": 20.0}, panel=1),
        Stop("Too flat: a flat softmax passes back small gradients too", {"scale": 0.05}, panel=1),
    ),
    # Step 5 (optional, for the next session): magnitude at its largest, the
    # normalisation switched from the scaling to QK-norm, then QK-norm's gain moved.
    "normalization": (
        Stop("Large vectors, scaled by 1/√dₖ: the weights saturate",
             {"mode": "scaled", "magnitude": 10.0, "gain": 8.0}),
        Stop("Switch to QK-norm: the magnitude stops mattering",
             {"mode": "qk-l2", "magnitude": 10.0, "gain": 8.0}),
        Stop("Move QK-norm's gain down: the weights spread out",
             {"mode": "qk-l2", "magnitude": 10.0, "gain": 2.0}),
        Stop("Move it up: the gain, not the magnitude, sets how sharp they are",
             {"mode": "qk-l2", "magnitude": 10.0, "gain": 64.0}),
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
        if isinstance(stop.panel, bool) or not isinstance(stop.panel, int) or not 0 <= stop.panel < PANELS_MAX:
            raise ValueError(f"{where}: panel must be a panel's index from 0 (the leftmost), got {stop.panel!r}")
        for name, value in stop.settings.items():
            if value not in grid[name]:
                raise ValueError(f"{where}: {name} = {value!r} is not on the player's grid {tuple(grid[name])}")
    return checked
