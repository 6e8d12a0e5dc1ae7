"""Where `make test`'s CPU goes: a pytest plugin that charges each test file the CPU time
(user + system) its tests cost, and the jobs started in the background apart.

On two cores the suite keeps both busy from start to end, so a test's duration says little:
a test that waits costs nothing, and one that runs beside a build takes twice as long. What
bounds the suite is the CPU its work needs. For each test this plugin measures, before and
after, the CPU of its xdist worker, of the worker's children it has waited for, and of every
live descendant (a browser, a JupyterLab server, a kernel, with the children they have waited
for), and charges the difference to the test's file. Jobs that run beside the tests (the book's
build, the oldest-versions run, the dist test's install: `BACKGROUND`, and whatever they start)
are counted apart, job by job, as is their CPU once a test's process reaps them.

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

# The jobs the suite starts in the background when it is collected, by a word of their command
# line (tests/conftest.py, tests/system/test_oldest.py, tests/system/test_dist.py): each is
# counted apart, with whatever it starts, whichever worker started it. (scripts/test-oldest
# execs pytest in .venv-oldest, so both names are needed.) Under pytest-xdist, as make test
# runs, only the builds run beside the tests: the oldest-versions run and the dist test's
# install start within their tests, which wait for them, and are charged to those files.
BACKGROUND = {"scripts/build-book": "(background) the book's three builds",
              "scripts/build-published": "(background) the book's three builds",
              "scripts/test-oldest": "(background) the oldest-versions run",
              ".venv-oldest/": "(background) the oldest-versions run",
              "test_dist.py background": "(background) the dist test's wheels and install"}
OUT = Path("_build/test-cpu")

_me = psutil.Process()
_kind: dict[tuple[int, float], str] = {}  # (pid, start) -> its background job, or ""
_last: dict[tuple[int, float], tuple[float, bool]] = {}  # (pid, start) -> (CPU, a child of the worker)
_files: dict[str, list[float]] = {}
_background: dict[str, float] = {}
_reaped = [0.0, 0.0]  # the worker's RUSAGE_CHILDREN at the last sample; background CPU not yet reaped
_correction = [0.0]  # background CPU taken back from the reaped children's total so far


def _cpu(p: psutil.Process) -> float:
    t = p.cpu_times()
    return t.user + t.system + t.children_user + t.children_system


def _job(cmdline: str) -> str:
    return next((job for word, job in BACKGROUND.items() if word in cmdline), "")


def _background_job(p: psutil.Process) -> str:
    """The BACKGROUND job ``p`` or an ancestor below this worker runs, or ""."""
    chain = []
    while p is not None and p.pid != _me.pid:
        key = (p.pid, p.create_time())
        if key in _kind:
            found = _kind[key]
            break
        chain.append(key)
        try:
            found = _job(" ".join(p.cmdline()))
            if found:
                break
            p = p.parent()
        except psutil.Error:
            found = ""
            break
    else:
        found = ""
    for key in chain:
        _kind[key] = found
    return found


def _sample() -> float:
    """The worker's own CPU, its waited-for children's and its live descendants', less the
    background jobs'; those go to their job's total as they grow."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaped = children.ru_utime + children.ru_stime
    total = own.ru_utime + own.ru_stime + reaped
    seen = set()
    for p in _me.children(recursive=True):
        try:
            key, cpu = (p.pid, p.create_time()), _cpu(p)
            direct = p.ppid() == _me.pid
            job = _background_job(p)
        except psutil.Error:  # gone, or a zombie: handled below once it is reaped
            continue
        seen.add(key)
        if job:
            _background[job] = _background.get(job, 0.0) + cpu - _last.get(key, (0.0, direct))[0]
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
    (OUT / f"{name}.json").write_text(json.dumps({"files": _files, "background": _background}))


def table(folder: Path = OUT) -> dict:
    """The workers' records merged: {"files": {file: [cpu_s, wall_s]}, "background": {job: cpu_s}}."""
    files: dict[str, list[float]] = {}
    background: dict[str, float] = {}
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text())
        for job, cpu in record["background"].items():
            background[job] = background.get(job, 0.0) + cpu
        for name, (cpu, wall) in record["files"].items():
            have = files.setdefault(name, [0.0, 0.0])
            have[0] += cpu
            have[1] += wall
    return {"files": dict(sorted(files.items(), key=lambda kv: -kv[1][0])), "background": background}



if __name__ == "__main__":
    merged = table()
    rows = {name: cpu for name, (cpu, _wall) in merged["files"].items()} | merged["background"]
    total = sum(rows.values())
    print(f"{'CPU s':>8} {'share':>6}  file or background job (the tests' own time in them: in test s)")
    for name, cpu in sorted(rows.items(), key=lambda kv: -kv[1]):
        if cpu >= 1.0:
            wall = merged["files"].get(name, [0.0, None])[1]
            print(f"{cpu:8.1f} {cpu / total:6.1%}  {name}" + (f"  ({wall:.1f} s in test)" if wall else ""))
    print(f"{total:8.1f} CPU s in all")
    results = Path(__file__).parents[1] / "results" / "test-cpu.json"
    results.write_text(json.dumps({name: round(cpu, 1) for name, cpu in sorted(rows.items(), key=lambda kv: -kv[1])},
                                  indent=1) + "\n")
    print(f"written: {results}")
