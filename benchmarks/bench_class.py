"""A class on one server: what each student's kernel costs while the class drags a slider.

Run with `make bench-class`. Prints a table and writes benchmarks/results/class.json, from which
deploy/z2jh/values.yaml takes its resource numbers (scripts/make_z2jh_values.py).

Each simulated student is a real kernel (jupyter_client's AsyncKernelManager, the venv's
python3 kernel) that builds the main explorer of the lab "Predict, then move the slider"
live (``attention_explorer().widget()``: ipywidgets sliders linked in the front end to the
explorer's module, an anywidget that computes and draws in the page). A slider therefore
repaints in the browser with no kernel round trip; the kernel is only told the new value. A
change is exactly what JupyterLab then sends: two ``comm_msg`` s on the shell channel, the
slider's ``{"method": "update", "state": {"value": v}}`` and, from the front end's link, the
view's ``{"state": {"d_k": v}}``. Students drag the d_k slider at about 5 changes per second
each, open loop. Its latency is the time from sending the view's message to the kernel's
``idle`` status for it on IOPub: how long the kernel takes to have the change (a cell the student
runs next waits behind it), not the repaint, which the browser does (make bench).

Measured per kernel: resident memory (RSS, and PSS, which shares libraries fairly between
kernels) once the explorer is built; CPU time per change (the kernel process's user + system
time over a round, divided by the changes it handled); latency median and p95 at N = 1, 2, 5,
10, 20, 40 students (the first N of 40 kernels started once; idle kernels cost memory, not CPU),
with the cores that other work on the machine kept busy meanwhile. Separately, each lab is run
top to bottom in a fresh kernel (nbclient) and that kernel's memory, CPU time, wall time and
module count are recorded, with whether SymPy was loaded. Last, each student's own Jupyter
server (JupyterLab, as a hub starts it) is started once, its JupyterLab page and a lab's
notebook are fetched, and its memory is recorded: a student on a hub runs one server and one
kernel at least.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import psutil
from jupyter_client.manager import AsyncKernelManager

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "class.json"
FORMAT = "attention-scaling/bench-class/2"
SIZES = (1, 2, 5, 10, 20, 40)
RATE = 5.0  # slider changes per second per student
TARGET_P95_MS = 150.0
MB = 2**20

SETUP = """
import json
from attention_scaling.explorables import attention_explorer
_box = attention_explorer().widget()
_slider = next(c for c in _box.children if str(getattr(c, "description", "")).startswith("key dimension"))
_view = _box.view
print(json.dumps({"slider": _slider.model_id, "view": _view.model_id, "low": _slider.min, "high": _slider.max}))
"""
PROBE = "import sys, json; print(json.dumps({'modules': len(sys.modules), 'sympy': 'sympy' in sys.modules}))"


def machine() -> dict:
    model = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cores": os.cpu_count(), "cpu": model,
            "ram_gb": round(psutil.virtual_memory().total / 2**30, 1),
            "python": platform.python_version(), "system": f"{platform.system()} {platform.release()}",
            "date": dt.date.today().isoformat()}


def memory(pid: int) -> dict:
    p = psutil.Process(pid)
    full = p.memory_full_info()
    return {"rss_mb": full.rss / MB, "pss_mb": getattr(full, "pss", full.uss) / MB}


def cpu_seconds(pid: int) -> float:
    t = psutil.Process(pid).cpu_times()
    return t.user + t.system


class Student:
    def __init__(self, km: AsyncKernelManager):
        self.km = km
        self.kc = km.client()
        self.kc.start_channels()
        self.pid = km.provisioner.process.pid
        self.sent: dict[str, float] = {}  # the view message's id -> when it was sent
        self.handled: dict[str, float] = {}  # -> when the kernel went idle after it

    async def execute(self, code: str) -> str:
        """Run ``code``; return its stdout, failing on an error."""
        msg_id = self.kc.execute(code)
        out = []
        while True:
            msg = await self.kc.get_iopub_msg(timeout=300)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream" and content["name"] == "stdout":
                out.append(content["text"])
            elif kind == "error":
                raise RuntimeError("\n".join(content["traceback"]))
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(out)

    async def listen(self):
        """Record when the kernel has handled each change (until cancelled)."""
        while True:
            msg = await self.kc.get_iopub_msg()
            parent = msg["parent_header"].get("msg_id")
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle" and parent in self.sent:
                self.handled[parent] = time.perf_counter()

    def change(self, ids: dict, value: int):
        """What JupyterLab sends when the d_k slider moves to ``value``: the slider's new value,
        then, from the link in the front end, the view's."""
        for model, state in ((ids["slider"], {"value": value}), (ids["view"], {"d_k": float(value)})):
            msg = self.kc.session.msg("comm_msg", {"comm_id": model, "data": {
                "method": "update", "state": state, "buffer_paths": []}})
            self.kc.shell_channel.send(msg)
        self.sent[msg["header"]["msg_id"]] = time.perf_counter()


async def start(n: int) -> list[tuple[Student, dict]]:
    students = []
    gate = asyncio.Semaphore(os.cpu_count() or 2)  # as many starting at once as cores

    async def one():
        async with gate:
            km = AsyncKernelManager(kernel_name="python3")
            await km.start_kernel(cwd=str(ROOT / "notebooks"))
            s = Student(km)
            await s.kc.wait_for_ready(timeout=300)
            ids = json.loads((await s.execute(SETUP)).strip().splitlines()[-1])
            students.append((s, ids))
            print(f"  kernel {len(students)}/{n} ready", file=sys.stderr, end="\r")

    await asyncio.gather(*(one() for _ in range(n)))
    print(file=sys.stderr)
    return students


async def drag(students, seconds: float) -> dict:
    """Every student drags for ``seconds``; return latency and CPU figures."""
    listeners = []
    for s, _ids in students:
        s.sent.clear()
        s.handled.clear()
        listeners.append(asyncio.create_task(s.listen()))
    cpu0 = {s.pid: cpu_seconds(s.pid) for s, _ in students}
    machine0, wall0 = psutil.cpu_times(), time.perf_counter()
    n_changes = int(seconds * RATE)
    t0 = time.perf_counter() + 0.2
    offsets = [i / (RATE * len(students)) for i in range(len(students))]  # spread the phases

    async def one(k, s, ids):
        for j in range(n_changes):
            await asyncio.sleep(max(0.0, t0 + offsets[k] + j / RATE - time.perf_counter()))
            # up and down the slider, every change a new value
            s.change(ids, 1 + (37 * (j + k) + 17) % ids["high"])

    await asyncio.gather(*(one(k, s, ids) for k, (s, ids) in enumerate(students)))
    deadline = time.perf_counter() + 300
    while any(len(s.handled) < len(s.sent) for s, _ in students) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    machine1, wall = psutil.cpu_times(), time.perf_counter() - wall0
    busy = sum(machine1) - machine1.idle - machine1.iowait - (sum(machine0) - machine0.idle - machine0.iowait)
    ours = sum(cpu_seconds(s.pid) - cpu0[s.pid] for s, _ in students)
    latencies, cpu_ms, lost = [], [], 0
    for s, _ in students:
        lost += len(s.sent) - len(s.handled)
        latencies += [(s.handled[m] - t) * 1000 for m, t in s.sent.items() if m in s.handled]
        cpu_ms.append((cpu_seconds(s.pid) - cpu0[s.pid]) * 1000 / max(1, len(s.handled)))
    latencies.sort()
    return {"students": len(students), "changes": len(latencies), "lost": lost,
            "median_ms": statistics.median(latencies),
            "p95_ms": latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))],
            "cpu_ms_per_change": statistics.median(cpu_ms),
            # the machine is shared: cores kept busy by everything else during the round
            "other_cores_busy": max(0.0, (busy - ours) / wall), "seconds": wall}


async def lab_memory(path: Path) -> dict:
    """Run one lab top to bottom in a fresh kernel; its memory and modules afterwards."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    km = AsyncKernelManager(kernel_name="python3")
    client = NotebookClient(nb, km=km, timeout=600, resources={"metadata": {"path": str(path.parent)}})
    async with client.async_setup_kernel(cwd=str(path.parent)):
        start = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            await client.async_execute_cell(cell, index)
        seconds = time.perf_counter() - start
        pid = km.provisioner.process.pid
        cpu = cpu_seconds(pid)
        mem = memory(pid)
        probe = nbformat.v4.new_code_cell(PROBE)
        nb.cells.append(probe)
        await client.async_execute_cell(probe, len(nb.cells) - 1)
        info = json.loads(probe.outputs[0]["text"])
    return {"lab": path.name, "seconds": seconds, "cpu_seconds": cpu, **mem, **info}


def server_memory() -> dict:
    """Start a JupyterLab server as a hub's spawner does (no browser, a token), fetch its
    JupyterLab page and a lab's notebook through its API, and return its memory then."""
    import socket
    import subprocess
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    token = "bench-class"
    proc = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
                             "--ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}",
                             *(["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else [])],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the JupyterLab server did not start") from None
                time.sleep(0.5)
        for path in ("/lab", "/api/contents/notebooks/lab-predict-then-move-the-slider.ipynb"):
            urllib.request.urlopen(f"{base}{path}?token={token}", timeout=60).read()
        time.sleep(1)
        return memory(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


async def main(seconds: float, sizes: tuple[int, ...], labs: bool) -> dict:
    print("starting kernels (each builds the live explorer)...", file=sys.stderr)
    students = await start(max(sizes))
    try:
        mems = [memory(s.pid) for s, _ in students]
        rounds = []
        for n in sizes:
            r = await drag(students[:n], seconds)
            rounds.append(r)
            print(f"  N = {n:>2}: median {r['median_ms']:.0f} ms, p95 {r['p95_ms']:.0f} ms",
                  file=sys.stderr)
    finally:
        for s, _ in students:
            s.kc.stop_channels()
        await asyncio.gather(*(s.km.shutdown_kernel(now=True) for s, _ in students))
    lab_rows = []
    if labs:
        for path in sorted((ROOT / "notebooks").glob("lab-*.ipynb")):
            print(f"running {path.name}...", file=sys.stderr)
            lab_rows.append(await lab_memory(path))
    print("starting a student's JupyterLab server...", file=sys.stderr)
    server = server_memory()
    ok = [r["students"] for r in rounds if r["p95_ms"] <= TARGET_P95_MS and r["lost"] == 0]
    return {
        "format": FORMAT,
        "machine": machine(),
        "setup": {"rate_per_student_per_s": RATE, "seconds_per_round": seconds,
                  "target_p95_ms": TARGET_P95_MS, "explorer": "attention_explorer().widget()",
                  "message": "comm_msg {method: update, state: {value}} to the d_k slider, then {d_k} to the view",
                  "latency": "sent -> the kernel idle after the view's message (the repaint is the browser's)"},
        "kernel_after_explorer": {"rss_mb": statistics.median(m["rss_mb"] for m in mems),
                                  "pss_mb": statistics.median(m["pss_mb"] for m in mems)},
        "server": server,
        "rounds": rounds,
        "largest_n_meeting_target": max(ok) if ok else 0,
        "cpu_ms_per_change": statistics.median(r["cpu_ms_per_change"] for r in rounds),
        "labs": lab_rows,
    }


def table(result: dict) -> str:
    rows = [("machine", f"{result['machine']['cores']} cores, {result['machine']['cpu']}, "
             f"{result['machine']['ram_gb']} GB, Python {result['machine']['python']}")]
    k = result["kernel_after_explorer"]
    rows.append(("kernel with the live explorer, RSS / PSS", f"{k['rss_mb']:.0f} / {k['pss_mb']:.0f} MB"))
    rows.append(("a student's JupyterLab server, RSS / PSS",
                 f"{result['server']['rss_mb']:.0f} / {result['server']['pss_mb']:.0f} MB"))
    rows.append(("CPU per slider change (median kernel)", f"{result['cpu_ms_per_change']:.2f} ms"))
    for r in result["rounds"]:
        rows.append((f"N = {r['students']:>2}: latency median / p95",
                     f"{r['median_ms']:.0f} / {r['p95_ms']:.0f} ms ({r['changes']} changes, "
                     f"other work busy {r['other_cores_busy']:.1f} cores"
                     + (f", {r['lost']} unanswered)" if r["lost"] else ")")))
    rows.append((f"largest N with p95 <= {TARGET_P95_MS:.0f} ms", str(result["largest_n_meeting_target"])))
    for lab in result["labs"]:
        rows.append((f"{lab['lab']}: kernel RSS / PSS", f"{lab['rss_mb']:.0f} / {lab['pss_mb']:.0f} MB, "
                     f"{lab['cpu_seconds']:.1f} s CPU, "
                     f"{lab['modules']} modules, sympy {'loaded' if lab['sympy'] else 'not loaded'}"))
    width = max(len(a) for a, _ in rows)
    return "\n".join([f"{'measure':<{width}}  value", f"{'-' * width}  {'-' * 40}"]
                     + [f"{a:<{width}}  {b}" for a, b in rows])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="dragging time per round")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="class sizes, e.g. 5,10")
    parser.add_argument("--no-labs", action="store_true", help="skip running each lab")
    parser.add_argument("--output", default=str(RESULTS), help="where to write the JSON")
    args = parser.parse_args()
    sizes = tuple(int(x) for x in args.sizes.split(","))
    if any(n < 1 for n in sizes):
        raise ValueError(f"sizes must be positive, got {args.sizes!r}")
    result = asyncio.run(main(args.seconds, sizes, not args.no_labs))
    print(table(result))
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
