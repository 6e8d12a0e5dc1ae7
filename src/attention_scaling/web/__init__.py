"""The explorers as ES modules that compute in the page (issue 30), and the payloads they read.

Each module (``numerics.js``, ``scale.js``, ``random.js``, ``format.js``, ``readout.js``:
package data beside this file) follows the Python package formula for formula (``random.js``:
:mod:`attention_scaling.portable_random`; ``format.js``: :mod:`attention_scaling.readout`'s
numbers, character for character), so that the page, given the numbers the package drew, shows the
same values as the package computes (``tests/browser/test_web_numerics.py`` holds them to
1e-12 relative). A payload is what the module cannot compute itself: the draws, as numbers.

The scale explorer's payload is its eight scores and the 200 draws behind its bands: 1 608
doubles, 32 kB as JSON and 16 kB gzipped (the two modules: 5.5 kB, 2.2 kB gzipped). The
static player's 19 frames it is to replace weigh 128 kB, and the module computes every scale
in between.
"""

from __future__ import annotations

import base64
import math
import re
from importlib.resources import files

import numpy as np

from .. import _validate as v

__all__ = ["MODULES", "module_source", "bundle", "scale_payload", "context_payload", "context_n_positions",
           "context_n_position", "gap_position", "GAP_STEPS", "pack", "unpack", "normalization_payload", "gain_position", "GAIN_STEPS", "scale_position", "scale_at", "SCALE_RANGE", "SCALE_STEPS",
           "GLOBAL"]

#: The global object a classic bundle fills with the entry module's exports.
GLOBAL = "attentionScalingWeb"

#: The ES modules, by name.
MODULES = ("numerics.js", "scale.js", "random.js", "format.js", "readout.js", "payload.js", "scale_view.js",
           "widget.js", "context.js", "view.js", "context_view.js", "views.js", "attention.js", "attention_view.js",
           "axes.js", "normalization.js", "normalization_view.js")


def module_source(name: str) -> str:
    """The text of the ES module ``name`` (one of :data:`MODULES`)."""
    if name not in MODULES:
        raise ValueError(f"name must be one of {', '.join(MODULES)}, got {name!r}")
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


_IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([a-z_]+\.js)";\n', re.M)
_COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.M)
_INDENT = re.compile(r"^[ \t]+", re.M)
_EXPORT = re.compile(r"^export (?:async )?(?:function\*? |const |let )([A-Za-z_$][\w$]*)", re.M)
_DEFAULT = re.compile(r"^export default ", re.M)


def _order(entry: str, seen: list[str]) -> list[str]:
    """``entry`` after the modules it imports, depth first, each once."""
    for _, name in _IMPORT.findall(module_source(entry)):
        if name not in seen:
            _order(name, seen)
    if entry not in seen:
        seen.append(entry)
    return seen


def bundle(entry: str, classic: bool = False) -> str:
    """``entry`` and every module it imports as one script, each module in a function scope of
    its own that receives what it imports and returns what it exports.

    By default an ES module exporting ``entry``'s names, and its default export if it has one
    (what anywidget loads: one module, no relative imports, ``export default {render}``). With
    ``classic``, a plain script that puts the names on ``window.``:data:`GLOBAL`: a page opened
    from disk (file://) may not import modules at all, Chromium refuses them.
    The modules must keep to ``import {a, b} from "./x.js";``, ``export function``/``const``
    and ``export default`` at the start of a line (``module_source`` files do).
    """
    order = _order(entry, [])
    parts = ["// Bundled by attention_scaling.web.bundle from " + ", ".join(order) + ".", '"use strict";']
    for name in order:
        # the page need not carry the explanations nor the indentation (the only multi-line
        # template literals are style sheets, where it means nothing)
        source = _INDENT.sub("", _COMMENT_LINE.sub("", module_source(name)))
        imports = _IMPORT.findall(source)
        exported = _EXPORT.findall(source)
        body = _EXPORT.sub(lambda m: m.group(0).removeprefix("export "), _IMPORT.sub("", source))
        if _DEFAULT.search(body):  # the module's default export, returned as `default`
            body = _DEFAULT.sub("const __default = ", body)
            exported.append("default: __default")
        params = ", ".join("{" + names.strip() + "}" for names, _ in imports)
        args = ", ".join(_scope(dep) for _, dep in imports)
        parts.append(f"const {_scope(name)} = (function ({params}) {{\n{body}\nreturn {{{', '.join(exported)}}};\n}})({args});")
    names = _EXPORT.findall(module_source(entry))
    if classic:
        parts.append(f"globalThis.{GLOBAL} = Object.assign(globalThis.{GLOBAL} || {{}}, {_scope(entry)});")
    else:
        if names:
            parts.append(f"export const {{{', '.join(names)}}} = {_scope(entry)};")
        if _DEFAULT.search(module_source(entry)):
            parts.append(f"export default {_scope(entry)}.default;")
    return "\n".join(parts) + "\n"


def _scope(name: str) -> str:
    return "__asb_" + name.removesuffix(".js")


#: The scale explorer's range and the positions of its log slider (``scale_view.js``).
SCALE_RANGE = (0.05, 100.0)
SCALE_STEPS = 1000


def scale_position(scale: float) -> int:
    """The position of the scale slider (0 to :data:`SCALE_STEPS`) nearest ``scale``: where the
    page's slider shows exactly ``scale`` when it is one of the payload's ``nice`` values
    (``scale_view.js``, ``scalePositions``)."""
    low, high = SCALE_RANGE
    scale = v.positive_real(scale, "scale")
    if not low <= scale <= high:
        raise ValueError(f"scale must lie in [{low}, {high}], got {scale}")
    return int(min(SCALE_STEPS, max(0, round(SCALE_STEPS * math.log(scale / low) / math.log(high / low)))))


def scale_at(position: int, nice: tuple = ()) -> float:
    """The scale the page's slider gives at ``position`` (0 to :data:`SCALE_STEPS`): one of
    ``nice`` where it sits nearest that value, else ``0.05 · 2000^(position/1000)``, both ends
    exact (``scale_view.js``, ``scalePositions``; the book's slider has ``nice`` =
    :data:`~attention_scaling.explorables.SCALES`)."""
    position = v.positive_int(position, "position", minimum=0)
    if position > SCALE_STEPS:
        raise ValueError(f"position must lie in [0, {SCALE_STEPS}], got {position}")
    for value in nice:
        if scale_position(value) == position:
            return float(value)
    low, high = SCALE_RANGE
    return low if position == 0 else high if position == SCALE_STEPS else low * (high / low) ** (position / SCALE_STEPS)


def scale_payload(seed: int = 0, nice: tuple = ()) -> dict:
    """What ``scale.js`` needs for the scale explorer of ``seed``: the scores shown (``z``,
    sorted, largest first) and the draws behind its means (``draws``, the first of them the
    one shown, unsorted), as :class:`~attention_scaling.figures.ScaleFigure` draws them, and the
    round scales its slider stops at exactly (``nice``: no two at one position)."""
    from ..figures import ScaleFigure

    seed = v.positive_int(seed, "seed", minimum=0)
    fig = ScaleFigure(seed=seed)
    nice_values = [float(x) for x in nice]
    positions = [scale_position(x) for x in nice_values]
    if len(set(positions)) != len(positions):
        raise ValueError(f"nice must hold scales at distinct slider positions, got {nice_values}")
    return {"seed": seed, "z": pack(fig.z), "draws": pack(fig.z_draws), "nice": nice_values}


def context_payload(seed: int = 0) -> dict:
    """What ``context.js`` needs for the context explorer of ``seed``: no numbers drawn, only
    the seed and stream of its distractors (``context.distractors``, which the page draws
    identically), the methods' constants (s of s·ln n, the cap), how many distractors get a
    bar of their own, the grid of n its curves are drawn at, and the methods' names."""
    from .. import context as cx
    from ..explorables.text import _subscripts

    seed = v.positive_int(seed, "seed", minimum=0)
    return {"seed": seed, "stream": cx.CONTEXT_STREAM, "s": float(cx.LOGN_S), "cap": float(cx.CAP),
            "topKeys": cx.TOP_KEYS, "nValues": list(cx.N_VALUES), "nPositions": list(context_n_positions()),
            "names": {m: _subscripts(cx.NAMES[m]) for m in cx.METHODS}}


def attention_payload(seed: int = 0, nice: tuple = ()) -> dict:
    """What ``attention.js`` needs for the attention explorer of ``seed``: no numbers drawn, only
    the seed, the streams of the one draw, the many queries and the pairs (which the page draws
    identically: ``numerics.shared_draw``, ``ensemble_scores``, ``pair_scores``), their sizes, the
    histogram's bin edges, the d_k slider's values and the round magnitudes its magnitude slider
    stops at exactly (``nice``: no two at one position)."""
    from .. import numerics as nm
    from ..figures import SCORE_EDGES

    seed = v.positive_int(seed, "seed", minimum=0)
    nice_values = [float(x) for x in nice]
    positions = [magnitude_position(x) for x in nice_values]
    if len(set(positions)) != len(positions):
        raise ValueError(f"nice must hold magnitudes at distinct slider positions, got {nice_values}")
    return {"seed": seed, "maxDim": nm.SHARED_MAX_DIM, "maxKeys": nm.SHARED_MAX_KEYS,
            "nQueries": nm.ENSEMBLE_QUERIES, "nPairs": nm.ENSEMBLE_PAIRS,
            "streams": {"draw": nm.DRAW_STREAM, "ensemble": nm.ENSEMBLE_STREAM, "pairs": nm.PAIRS_STREAM},
            "edges": [float(e) for e in SCORE_EDGES], "dPositions": list(d_positions()),
            "niceMagnitudes": nice_values}


def normalization_payload(seed: int = 0, nice: tuple = ()) -> dict:
    """What ``normalization.js`` needs for the normalisation explorer of ``seed``: no numbers drawn,
    only the seed and the streams of the one draw and the many queries (the attention explorer's
    at d_k = 64 and 16 keys: ``numerics.shared_draw``, ``ensemble_parts``, which the page draws
    identically), their sizes, LayerNorm's epsilon, the magnitudes the curves are drawn at (the
    figure's grid), the normalisations' names and the round magnitudes the magnitude slider stops
    at exactly (``nice``)."""
    from .. import numerics as nm
    from ..explorables.text import _subscripts
    from ..figures import NormalizationFigure
    from ..normalization import LAYER_NORM_EPS

    seed = v.positive_int(seed, "seed", minimum=0)
    nice_values = [float(x) for x in nice]
    positions = [magnitude_position(x) for x in nice_values]
    if len(set(positions)) != len(positions):
        raise ValueError(f"nice must hold magnitudes at distinct slider positions, got {nice_values}")
    return {"seed": seed, "dK": NORMALIZATION_D_K, "nKeys": NORMALIZATION_KEYS, "maxDim": nm.SHARED_MAX_DIM,
            "maxKeys": nm.SHARED_MAX_KEYS, "nQueries": nm.ENSEMBLE_QUERIES,
            "streams": {"draw": nm.DRAW_STREAM, "ensemble": nm.ENSEMBLE_STREAM}, "eps": LAYER_NORM_EPS,
            "grid": [float(m) for m in NormalizationFigure.GRID],
            "names": {m: _subscripts(NormalizationFigure.NAMES[m]) for m in NormalizationFigure.MODES},
            "niceMagnitudes": nice_values}


#: The normalisation explorer's d_k and number of keys (NormalizationFigure's defaults).
NORMALIZATION_D_K = 64
NORMALIZATION_KEYS = 16
#: The gain slider: position k of GAIN_STEPS is g = 2^(k / 100), from 1 to 128.
GAIN_STEPS = 700


def gain_position(gain: float) -> int:
    """The gain slider's position nearest ``gain`` (``normalization_view.js``, ``normalizationPositions``)."""
    g = v.positive_real(gain, "gain")
    if not 1 <= g <= 2 ** (GAIN_STEPS / 100):
        raise ValueError(f"gain must lie in [1, {2 ** (GAIN_STEPS / 100):g}], got {g}")
    return int(min(GAIN_STEPS, max(0, round(100 * math.log2(g)))))


#: The attention explorer's magnitude slider: MAGNITUDE_STEPS log steps over MAGNITUDE_RANGE.
MAGNITUDE_RANGE = (0.1, 10.0)
MAGNITUDE_STEPS = 1000


def magnitude_position(magnitude: float) -> int:
    """The magnitude slider's position nearest ``magnitude`` (``attention_view.js``,
    ``attentionPositions``)."""
    low, high = MAGNITUDE_RANGE
    m = v.positive_real(magnitude, "magnitude")
    if not low <= m <= high:
        raise ValueError(f"magnitude must lie in [{low}, {high}], got {m}")
    return int(min(MAGNITUDE_STEPS, max(0, round(MAGNITUDE_STEPS * math.log(m / low) / math.log(high / low)))))


def d_positions(steps: int = 1000) -> tuple[int, ...]:
    """The d_k slider's values, position by position: every integer ``round(1024^(k/steps))``
    reaches for k from 0 to ``steps``, and every power of two from 1 to 1024 (merged where two
    round to one integer: 1, 2, 3, ... then about 0.7 % apart)."""
    steps = v.positive_int(steps, "steps")
    reached = {int(round(1024 ** (k / steps))) for k in range(steps + 1)}
    return tuple(sorted(reached | {2**i for i in range(11)}))


def d_position(d_k: int, positions: tuple[int, ...] | None = None) -> int:
    """The position of ``d_k`` on the d_k slider, or of the largest value below it."""
    positions = d_positions() if positions is None else positions
    d_k = v.positive_int(d_k, "d_k")
    if d_k > positions[-1]:
        raise ValueError(f"d_k must lie in [1, {positions[-1]}], got {d_k}")
    return max(i for i, x in enumerate(positions) if x <= d_k)


#: The context explorer's gap slider: position k of GAP_STEPS is the gap k / 20, from 0 to 20.
GAP_STEPS = 400


def gap_position(gap: float) -> int:
    """The gap slider's position nearest ``gap`` (``context_view.js``, ``contextPositions``)."""
    gap = v.as_float(gap, "gap")
    if not 0 <= gap <= GAP_STEPS / 20:
        raise ValueError(f"gap must lie in [0, {GAP_STEPS / 20:g}], got {gap}")
    return int(round(gap * 20))


def context_n_positions(steps: int = 1000) -> tuple[int, ...]:
    """The n slider's values, position by position: every integer ``round(2 · 32768^(k/steps))``
    reaches for k from 0 to ``steps``, and every power of two from 2 to 65 536 (1 001 log steps,
    merged where two round to one integer: 2, 3, 4, ... then about 1 % apart)."""
    steps = v.positive_int(steps, "steps")
    reached = {int(round(2 * 32768 ** (k / steps))) for k in range(steps + 1)}
    return tuple(sorted(reached | {2**i for i in range(1, 17)}))


def context_n_position(n: int, positions: tuple[int, ...] | None = None) -> int:
    """The position of ``n`` on the n slider, or of the largest value below it."""
    positions = context_n_positions() if positions is None else positions
    n = v.positive_int(n, "n", minimum=2)
    if n > positions[-1]:
        raise ValueError(f"n must lie in [2, {positions[-1]}], got {n}")
    return max(i for i, x in enumerate(positions) if x <= n)


def pack(values) -> str:
    """Numbers as the page reads them (``payload.js``): the bytes of float64s, little-endian,
    in base64; exactly these doubles, in 10.7 characters each where their text takes about 19."""
    array = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(array)):
        raise ValueError("values must be finite")
    return base64.b64encode(array.astype("<f8").tobytes()).decode("ascii")


def unpack(payload: dict) -> dict:
    """A payload with its packed numbers as lists again (``z`` a list, ``draws`` rows of ``len(z)``)."""
    z = np.frombuffer(base64.b64decode(payload["z"]), dtype="<f8")
    draws = np.frombuffer(base64.b64decode(payload["draws"]), dtype="<f8").reshape(-1, len(z))
    return {**payload, "z": z.tolist(), "draws": draws.tolist()}
