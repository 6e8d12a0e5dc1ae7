r"""Claims are code: every qualitative sentence about a computed result is asserted.

A chapter that writes "the scaled weights stay below 0.3 for every :math:`d_k`" puts,
in a hidden cell next to it::

    claim("scaled: largest weight stays below 0.3 for every d_k",
          s_max.max() < 0.3, largest=s_max.max())

If the result changes so that the sentence is no longer true, :func:`claim` raises
:class:`ClaimError` with the sentence and the evidence, and the strict build fails.

A reviewer lists every claim of a page with::

    python -m attention_scaling.claims book/scale-the-scores.md notebooks/*.ipynb

which reads the code cells (no kernel) and prints the first argument of each
``claim(...)`` call with its line.
"""

from __future__ import annotations

import ast
import json
import numbers
import re
import sys
from pathlib import Path

import numpy as np

__all__ = ["ClaimError", "claim", "claims_in"]


class ClaimError(AssertionError):
    """A sentence of the book no longer agrees with the numbers behind it."""


def claim(text: str, holds, **evidence) -> None:
    """Assert that the sentence ``text`` holds; ``evidence`` is reported if it does not.

    Parameters
    ----------
    text : str
        The claim, in words, as the page states it.
    holds : bool or numpy bool (array: all elements must be true)
        The check that makes the claim true.
    **evidence
        Named values behind the claim, shown in the error.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"text must be a non-empty sentence, got {text!r}")
    if isinstance(holds, (bool, np.bool_)):
        ok = bool(holds)
    elif isinstance(holds, np.ndarray) and holds.dtype == bool and holds.size:
        ok = bool(holds.all())
    else:
        raise ValueError(f"holds must be a bool or a non-empty boolean array, got {type(holds).__name__}")
    if not ok:
        shown = ", ".join(f"{k}={_short(x)}" for k, x in evidence.items())
        raise ClaimError(f"claim no longer holds: {text}" + (f" ({shown})" if shown else ""))


def _short(x) -> str:
    if isinstance(x, numbers.Real) and not isinstance(x, bool):
        return f"{float(x):.6g}"
    return np.array2string(np.asarray(x), precision=6, threshold=20) if isinstance(x, np.ndarray) else repr(x)


_FENCE = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)


def _code_cells(path: Path):
    """(first line number, source) of each code cell of a MyST notebook or an .ipynb."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        for i, cell in enumerate(json.loads(text)["cells"]):
            if cell["cell_type"] == "code":
                yield f"cell {i + 1}", "".join(cell["source"])
        return
    for m in _FENCE.finditer(text):
        body = m.group(1)
        # MyST cell options: a ':key: value' block or a '---' YAML block before the code
        lines = body.splitlines()
        if lines and lines[0].strip() == "---":
            end = next(j for j in range(1, len(lines)) if lines[j].strip() == "---")
            lines = ["" for _ in lines[: end + 1]] + lines[end + 1:]
        lines = ["" if ln.startswith(":") and ":" in ln[1:] else ln for ln in lines]
        yield f"line {text[: m.start(1)].count(chr(10)) + 1}", "\n".join(ln for ln in lines)


def claims_in(path) -> list[tuple[str, str]]:
    """Every ``claim("...", ...)`` in the code cells of ``path``, as (where, sentence)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path must be an existing file, got {str(path)!r}")
    found = []
    for where, source in _code_cells(path):
        source = "\n".join(ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(source)):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "claim"
                    and node.args):
                first = node.args[0]
                sentence = str(first.value) if isinstance(first, ast.Constant) else ast.unparse(first)
                found.append((f"{where}+{node.lineno - 1}", sentence))
    return found


def main(argv=None) -> int:
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: python -m attention_scaling.claims PAGE [PAGE ...]", file=sys.stderr)
        return 2
    for p in paths:
        found = claims_in(p)
        print(f"{p}: {len(found)} claims")
        for where, sentence in found:
            print(f"  {where}: {sentence}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
