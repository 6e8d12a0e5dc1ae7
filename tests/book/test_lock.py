"""requirements.txt, the lock every install shares, is what `make lock` writes from
requirements.in (uv pip compile): nothing in it is edited by hand."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from book_files import ROOT

UV = Path(sys.executable).parent / "uv"


def _make_lock_command() -> str:
    """The Makefile's `lock` recipe, as `make -n` prints it, for this venv's uv."""
    recipe = subprocess.run(["make", "-n", "lock", "VENV=" + str(UV.parent.parent)], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    # under `make test` the sub-make also prints "Entering/Leaving directory" lines (MAKEFLAGS -w)
    lines = [ln.strip() for ln in recipe.replace("\\\n", " ").splitlines() if " pip compile " in ln]
    assert len(lines) == 1, recipe
    line = lines[0][lines[0].index(str(UV)):]
    assert "requirements.in -o requirements.txt" in line, line
    return line


def test_the_lock_is_what_make_lock_writes(tmp_path):
    """Compiled again from requirements.in, with its own pins as the starting point (as `make
    lock` does), the lock comes out byte for byte the same: every direct requirement is in it,
    nothing is missing, extra or out of step. Offline from uv's cache when it can, else from the
    package registry."""
    out = tmp_path / "requirements.txt"
    shutil.copy(ROOT / "requirements.txt", out)
    command = _make_lock_command().replace("-o requirements.txt", f"-o {out}")
    for extra in ("--offline ", ""):
        proc = subprocess.run(command.replace("pip compile ", f"pip compile {extra}"), shell=True, cwd=ROOT,
                              capture_output=True, text=True, timeout=600)
        if proc.returncode == 0:
            break
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert out.read_text() == (ROOT / "requirements.txt").read_text()


def test_every_direct_requirement_is_pinned_in_the_input():
    """requirements.in names each direct requirement at an exact version (Jupyter Book 1.x:
    an unpinned install brings 2.x), and the lock holds that same version."""
    lock = (ROOT / "requirements.txt").read_text()
    direct = [ln for ln in (ROOT / "requirements.in").read_text().splitlines() if ln and not ln.startswith(("#", "-e"))]
    assert direct and all(re.fullmatch(r"[A-Za-z0-9_.-]+==[^\s]+", ln) for ln in direct), direct
    for pin in direct:
        assert re.search(rf"^{re.escape(pin)}$", lock, re.M), pin
    assert "jupyter-book==1." in "\n".join(direct)
