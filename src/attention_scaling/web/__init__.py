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

import re
from importlib.resources import files

from .. import _validate as v

__all__ = ["MODULES", "module_source", "bundle", "scale_payload", "GLOBAL"]

#: The global object a classic bundle fills with the entry module's exports.
GLOBAL = "attentionScalingWeb"

#: The ES modules, by name.
MODULES = ("numerics.js", "scale.js", "random.js", "format.js", "readout.js", "scale_view.js")


def module_source(name: str) -> str:
    """The text of the ES module ``name`` (one of :data:`MODULES`)."""
    if name not in MODULES:
        raise ValueError(f"name must be one of {', '.join(MODULES)}, got {name!r}")
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


_IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([a-z_]+\.js)";\n', re.M)
_EXPORT = re.compile(r"^export (?:async )?(?:function\*? |const |let )([A-Za-z_$][\w$]*)", re.M)


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

    By default an ES module exporting ``entry``'s names (what anywidget loads: one module, no
    relative imports). With ``classic``, a plain script that puts them on ``window.``:data:`GLOBAL`:
    a page opened from disk (file://) may not import modules at all, Chromium refuses them.
    The modules must keep to ``import {a, b} from "./x.js";`` and ``export function``/``const``
    at the start of a line (``module_source`` files do).
    """
    order = _order(entry, [])
    parts = ["// Bundled by attention_scaling.web.bundle from " + ", ".join(order) + ".", '"use strict";']
    for name in order:
        source = module_source(name)
        imports = _IMPORT.findall(source)
        exported = _EXPORT.findall(source)
        body = _EXPORT.sub(lambda m: m.group(0).removeprefix("export "), _IMPORT.sub("", source))
        params = ", ".join("{" + names.strip() + "}" for names, _ in imports)
        args = ", ".join(_scope(dep) for _, dep in imports)
        parts.append(f"const {_scope(name)} = (function ({params}) {{\n{body}\nreturn {{{', '.join(exported)}}};\n}})({args});")
    names = _EXPORT.findall(module_source(entry))
    if classic:
        parts.append(f"globalThis.{GLOBAL} = Object.assign(globalThis.{GLOBAL} || {{}}, {_scope(entry)});")
    else:
        parts.append(f"export const {{{', '.join(names)}}} = {_scope(entry)};")
    return "\n".join(parts) + "\n"


def _scope(name: str) -> str:
    return "__asb_" + name.removesuffix(".js")


def scale_payload(seed: int = 0) -> dict:
    """What ``scale.js`` needs for the scale explorer of ``seed``: the scores shown (``z``,
    sorted, largest first) and the draws behind its means (``draws``, the first of them the
    one shown, unsorted), as :class:`~attention_scaling.figures.ScaleFigure` draws them."""
    from ..figures import ScaleFigure

    seed = v.positive_int(seed, "seed", minimum=0)
    fig = ScaleFigure(seed=seed)
    return {"seed": seed, "z": [float(x) for x in fig.z], "draws": [[float(x) for x in row] for row in fig.z_draws]}
