"""The package works with the oldest versions it declares, Colab's ipywidgets 7.7.1 among them.

pyproject.toml's lower bounds are pinned in requirements-oldest.txt, and scripts/test-oldest
runs the package tier, tests/package (numerics, figures, explorables with a live display and
slider changes from Python, SymPy derivations), in a venv of those versions. The run starts in the
background as soon as this test is collected (conftest.py), while the book builds on the
other core, and this test waits for its result.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import tomllib
from pathlib import Path

from book_files import ROOT

SCRIPT = ROOT / "scripts" / "test-oldest"
PINS = ROOT / "requirements-oldest.txt"
_RUN: dict = {}


def start_background_run() -> None:
    """Start scripts/test-oldest once, its output in a temporary file."""
    if "proc" not in _RUN:
        log = tempfile.TemporaryFile()
        _RUN["log"] = log
        _RUN["proc"] = subprocess.Popen([str(SCRIPT)], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def _pins() -> dict[str, str]:
    pins = {}
    for line in PINS.read_text().splitlines():
        if m := re.fullmatch(r"([A-Za-z0-9_.-]+)==([^\s;#]+)", line.strip()):
            pins[m[1].lower().replace("_", "-")] = m[2]
    return pins


def _lower_bounds() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    bounds = {}
    for spec in project["dependencies"]:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", spec.replace(" ", ""))
        assert m, f"{spec!r} in pyproject.toml declares no lower bound"
        bounds[m[1].lower().replace("_", "-")] = m[2]
    return bounds


def _release(version: str) -> tuple[int, ...]:
    parts = [int(p) for p in version.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def test_the_oldest_environment_pins_each_declared_lower_bound():
    pins, bounds = _pins(), _lower_bounds()
    assert set(bounds) == {"numpy", "matplotlib", "ipywidgets", "sympy", "pillow", "anywidget"}
    wrong = {name: (bound, pins.get(name)) for name, bound in bounds.items()
             if name not in pins or _release(pins[name]) != _release(bound)}
    assert wrong == {}, f"requirements-oldest.txt must pin each lower bound exactly: {wrong}"


def test_package_tests_pass_with_the_oldest_versions():
    start_background_run()  # already running when the whole suite is collected
    proc, log = _RUN["proc"], _RUN["log"]
    try:
        proc.wait(timeout=1800)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    with log:  # closed here, not left to the interpreter (a ResourceWarning at exit)
        log.seek(0)
        output = log.read().decode(errors="replace")
    lines = [ln for ln in output.splitlines() if not ln.startswith("WARNING: Location")]
    summary = lines[-1] if lines else ""
    assert proc.returncode == 0, "scripts/test-oldest failed:\n" + "\n".join(lines[-60:])
    # The run really ran the package tier: a summary with many passes and nothing skipped (the
    # script runs pytest at its default verbosity, which names each file as it runs it) ...
    m = re.search(r"(\d+) passed", summary)
    assert m and int(m[1]) >= 300, f"too few tests ran with the oldest versions: {summary!r}"
    assert "skipped" not in summary and "deselected" not in summary, summary
    # ... and every file of the package tier, the context science (test_context.py) among them
    missing = [f.name for f in sorted((ROOT / "tests" / "package").glob("test_*.py"))
               if f"tests/package/{f.name} " not in output]
    assert missing == [], f"not run with the oldest versions: {missing}"
    # The package came from a wheel installed in the venv (not an editable link to src/), and
    # every one of its modules imported with these versions.
    m = re.search(r"test-oldest: imported (\d+) modules of attention_scaling from (\S+)", output)
    assert m, output[-2000:]
    installed = Path(m[2]).resolve()
    assert installed.is_relative_to((ROOT / ".venv-oldest").resolve()) and "site-packages" in installed.parts, installed
    # one module a file, a subpackage's __init__ being the subpackage (figures/, explorables/)
    assert int(m[1]) == len(list((ROOT / "src" / "attention_scaling").rglob("*.py"))), m[0]


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_oldest_venv_holds_the_pins_and_nothing_else():
    """requirements-oldest.txt is installed without dependency resolution (uv ignores pip's
    PIP_NO_DEPS: it needs --no-deps, or it pulled in JupyterLab through widgetsnbextension):
    the venv holds the pins, the package, and the installers, nothing more."""
    start_background_run()
    _RUN["proc"].wait(timeout=1800)  # the venv is ready once the run is done
    site = next((ROOT / ".venv-oldest" / "lib").glob("python3.*/site-packages"))
    have = {_normal(d.name.split("-")[0]) for d in site.glob("*.dist-info")}
    want = {_normal(n) for n in _pins()} | {"attention-scaling", "pip", "setuptools", "uv"}
    assert have == want, {"extra": sorted(have - want), "missing": sorted(want - have)}
