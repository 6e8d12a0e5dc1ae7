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

from importlib.resources import files

from .. import _validate as v

__all__ = ["MODULES", "module_source", "scale_payload"]

#: The ES modules, by name.
MODULES = ("numerics.js", "scale.js", "random.js", "format.js", "readout.js")


def module_source(name: str) -> str:
    """The text of the ES module ``name`` (one of :data:`MODULES`)."""
    if name not in MODULES:
        raise ValueError(f"name must be one of {', '.join(MODULES)}, got {name!r}")
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def scale_payload(seed: int = 0) -> dict:
    """What ``scale.js`` needs for the scale explorer of ``seed``: the scores shown (``z``,
    sorted, largest first) and the draws behind its means (``draws``, the first of them the
    one shown, unsorted), as :class:`~attention_scaling.figures.ScaleFigure` draws them."""
    from ..figures import ScaleFigure

    seed = v.positive_int(seed, "seed", minimum=0)
    fig = ScaleFigure(seed=seed)
    return {"seed": seed, "z": [float(x) for x in fig.z], "draws": [[float(x) for x in row] for row in fig.z_draws]}
