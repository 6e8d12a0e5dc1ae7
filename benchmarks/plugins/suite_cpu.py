"""Where `make test`'s CPU goes: a pytest plugin that charges each test file the CPU time
(user + system) its tests cost, and the jobs started in the background apart.

On two cores the suite keeps both busy from start to end, so a test's duration says little:
a test that waits costs nothing, and one that runs beside a build takes twice as long. What
bounds the suite is the CPU its work needs. For each test this plugin measures, before and
after, the CPU of its xdist worker, of the worker's children it has waited for, and of every
live descendant (a browser, a JupyterLab server, a kernel, with the children they have waited
for), and charges the difference to the test's file. Jobs that run beside the tests (the book's
build, the oldest-versions run, the dist test's install: `BACKGROUND`, and whatever they start)
are counted apart, as is their CPU once a test's process reaps them.

    make bench-tests   the whole suite with this plugin (PYTHONPATH=benchmarks/plugins,
                       pytest -p suite_cpu); then this file as a script prints the table and
                       writes benchmarks/results/test-cpu.json
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import psutil
import pytest

# The command lines of the jobs the suite starts in the background (tests/conftest.py,
# tests/system/test_oldest.py, tests/system/test_dist.py).
BACKGROUND = ("scripts/build-book", "scripts/build-published", "scripts/test-oldest", "test_dist.py background")
OUT = Path(os.environ.get("TEST_CPU_DIR", "_build/test-cpu"))

_me = psutil.Process()
_kind: dict[tuple[int, float], bool] = {}  # (pid, start) -> in the background
_last: dict[tuple[int, float], tuple[float, bool]] = {}  # (pid, start) -> (CPU, a child of the worker)
_files: dict[str, list[float]] = {}
_background = [0.0]
_reaped = [0.0, 0.0]  # the worker's RUSAGE_CHILDREN at the last sample; background CPU not yet reaped


def _cpu(p: psutil.Process) -> float:
    t = p.cpu_times()
    return t.user + t.system + t.children_user + t.children_system


def _is_background(p: psutil.Process) -> bool:
    """Whether ``p`` or an ancestor below this worker runs one of the BACKGROUND jobs."""
    chain = []
    while p is not None and p.pid != _me.pid:
        key = (p.pid, p.create_time())
        if key in _kind:
            found = _kind[key]
            break
        chain.append(key)
        try:
            found = any(b in " ".join(p.cmdline()) for b in BACKGROUND)
            if found:
                break
            p = p.parent()
        except psutil.Error:
            found = False
            break
    else:
        found = False
    for key in chain:
        _kind[key] = found
    return found


def _sample() -> float:
    """The worker's own CPU, its waited-for children's and its live descendants', less the
    background jobs'; those go to the background total as they grow."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaped = children.ru_utime + children.ru_stime
    total = own.ru_utime + own.ru_stime + reaped
    seen = set()
    for p in _me.children(recursive=True):
        try:
            key, cpu = (p.pid, p.create_time()), _cpu(p)
            direct = p.ppid() == _me.pid
            background = _is_background(p)
        except psutil.Error:  # gone, or a zombie: handled below once it is reaped
            continue
        seen.add(key)
        if background:
            _background[0] += cpu - _last.get(key, (0.0, direct))[0]
        else:
            total += cpu
        _last[key] = (cpu, direct)
    # A background job started by the worker itself, once ended, is reaped into the worker's
    # RUSAGE_CHILDREN (by subprocess, at a later Popen): that CPU is not the tests'. It is
    # taken back from the children's total as that total grows.
    for key in [k for k in _last if k not in seen]:
        cpu, direct = _last.pop(key)
        if direct and _kind.get(key):
            _reaped[1] += cpu
    grown = reaped - _reaped[0]
    _reaped[0] = reaped
    back = min(_reaped[1], grown)
    _reaped[1] -= back
    _correction[0] += back
    return total - _correction[0]


_correction = [0.0]  # background CPU taken back from the reaped children's total so far


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before, start = _sample(), time.monotonic()
    yield
    after = _sample()
    spent = _files.setdefault(item.nodeid.split("::")[0], [0.0, 0.0])
    spent[0] += max(0.0, after - before)
    spent[1] += time.monotonic() - start


def pytest_sessionfinish(session):
    _sample()
    OUT.mkdir(parents=True, exist_ok=True)
    name = os.environ.get("PYTEST_XDIST_WORKER", "main")
    (OUT / f"{name}.json").write_text(json.dumps({"files": _files, "background": _background[0]}))


def table(folder: Path = OUT) -> dict:
    """The workers' records merged: {"files": {file: [cpu_s, wall_s]}, "background": cpu_s}."""
    files, background = {}, 0.0
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text())
        background += record["background"]
        for name, (cpu, wall) in record["files"].items():
            have = files.setdefault(name, [0.0, 0.0])
            have[0] += cpu
            have[1] += wall
    return {"files": dict(sorted(files.items(), key=lambda kv: -kv[1][0])), "background": background}


if __name__ == "__main__":
    merged = table()
    total = sum(cpu for cpu, _ in merged["files"].values())
    print(f"{'CPU s':>8} {'share':>6} {'in test s':>10}  file")
    for name, (cpu, wall) in merged["files"].items():
        if cpu >= 1.0:
            print(f"{cpu:8.1f} {cpu / total:6.1%} {wall:10.1f}  {name}")
    print(f"{total:8.1f} in the tests, {merged['background']:.1f} in the background jobs")
    results = Path(__file__).parents[1] / "results" / "test-cpu.json"
    results.write_text(json.dumps({k: ([round(x, 1) for x in v] if isinstance(v, list) else v)
                                   for k, v in merged["files"].items()} | {"(background)": round(merged["background"], 1)},
                                  indent=1) + "\n")
    print(f"written: {results}")
