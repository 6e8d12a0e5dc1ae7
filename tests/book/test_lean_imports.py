"""Lean kernels (issue 14): a lab's kernel loads only what the lab uses.

SymPy (about 40 MB and a second of import in a kernel) is needed only where a derivation
runs. Importing the package, or the explorables a slider lab starts with, must not load it.
Each import runs in a fresh interpreter, so what other tests imported does not count.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
import {module}
print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r})))
"""
HEAVY = ("sympy", "mpmath", "scipy", "pandas")


@pytest.mark.parametrize("module", ["attention_scaling", "attention_scaling.explorables"])
def test_importing_does_not_load_sympy(module):
    out = subprocess.run([sys.executable, "-c", PROBE.format(module=module, heavy=HEAVY)],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    loaded = json.loads(out.strip().splitlines()[-1])
    assert not loaded, f"import {module} loads {sorted({m.split('.')[0] for m in loaded})}"


def test_the_probe_sees_sympy_when_it_is_imported():
    """The check above can fail: the same probe reports SymPy when a module loads it."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(module="attention_scaling.symbolic",
                                                             heavy=HEAVY)],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    assert "sympy" in json.loads(out.strip().splitlines()[-1])
