"""Write deploy/z2jh/values.yaml, the Zero to JupyterHub settings for a class, from `make bench-class`.

    python scripts/make_z2jh_values.py [--bench benchmarks/results/class.json] [--out deploy/z2jh/values.yaml]

`make bench-class` runs it after measuring. Every resource number in the file comes from the
measurement (benchmarks/results/class.json, format bench-class/2), by the rules below; the file
names the measurement it came from. tests/book/test_z2jh.py checks that the committed file is
what this script writes from the committed measurement, and validates it, merged over the
chart's own defaults as Helm merges them, against the chart's published values schema.

The rules, per student:
- memory guarantee (what Kubernetes reserves): their JupyterLab server plus the heaviest lab's
  kernel, PSS, rounded up to 64 MiB;
- memory limit: the server plus four such kernels (a lab, a chapter and two more open), rounded
  up to 256 MiB, and never under 1 GiB;
- CPU guarantee: the larger of what dragging a slider costs the kernel (changes per second times
  CPU per change) and running the heaviest lab top to bottom once a minute, rounded up to 0.05;
- CPU limit: one core (a lab's cell runs on one).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "results" / "class.json"
OUT = ROOT / "deploy" / "z2jh" / "values.yaml"
FORMAT = "attention-scaling/bench-class/2"
CHART_VERSION = "4.4.0"  # the Helm chart these settings were validated against (its schema: tests/vendor/z2jh)


def resources(bench: dict) -> dict:
    """Per-student guarantees and limits from a bench-class result (the rules above)."""
    if bench.get("format") != FORMAT:
        raise ValueError(f"bench: expected a {FORMAT} result from `make bench-class`, got {bench.get('format')!r}")
    if not bench.get("labs") or not bench.get("server"):
        raise ValueError("bench: the result has no labs or no server measured (run `make bench-class` in full)")
    server = bench["server"]["pss_mb"]
    kernel = max(lab["pss_mb"] for lab in bench["labs"])
    heaviest = max(bench["labs"], key=lambda lab: lab["cpu_seconds"])
    drag = bench["setup"]["rate_per_student_per_s"] * bench["cpu_ms_per_change"] / 1000
    run_lab = heaviest["cpu_seconds"] / 60
    return {
        "server_mb": server, "kernel_mb": kernel, "drag_cores": drag, "lab_cores": run_lab,
        "heaviest_lab": heaviest["lab"],
        "memory_guarantee_mb": math.ceil((server + kernel) / 64) * 64,
        "memory_limit_mb": max(1024, math.ceil((server + 4 * kernel) / 256) * 256),
        "cpu_guarantee": math.ceil(max(drag, run_lab) / 0.05 - 1e-9) * 0.05,
        "cpu_limit": 1,
    }


def values_yaml(bench: dict) -> str:
    r = resources(bench)
    m = bench["machine"]
    return f"""\
# Zero to JupyterHub (https://z2jh.jupyter.org, Helm chart jupyterhub {CHART_VERSION}) for a class
# using this book: when one server is not enough (the instructor page, "Size a server for a
# class"). Written by scripts/make_z2jh_values.py from `make bench-class` (benchmarks/results/
# class.json, {m['date']}, {m['cores']} cores of {m['cpu']}): run that again rather than editing
# the numbers. Install from the repository's root once REGISTRY and COMMIT below are filled in
# (after building and pushing the image) and a login method is set (the end of this file):
#   helm upgrade --install classhub jupyterhub --repo https://hub.jupyter.org/helm-chart/ \\
#     --version {CHART_VERSION} --namespace classhub --create-namespace --values deploy/z2jh/values.yaml

singleuser:
  # The students' image: this repository's requirements.txt (the book's package, JupyterLab,
  # nbgitpuller), built by repo2docker at the commit you teach from and pushed to a registry
  # the cluster can pull from:
  #   repo2docker --no-run --user-name jovyan --user-id 1000 --ref COMMIT \\
  #     --image-name REGISTRY/attention-scaling:COMMIT https://github.com/OWNER/REPO
  #   docker push REGISTRY/attention-scaling:COMMIT
  image:
    name: REGISTRY/attention-scaling
    tag: COMMIT
  # JupyterLab; the instructor page's nbgitpuller links open a lab in it.
  defaultUrl: /lab
  # Measured: a student's JupyterLab server {r['server_mb']:.0f} MB and the heaviest lab's kernel
  # {r['kernel_mb']:.0f} MB (PSS). Guarantee: the two, rounded up to 64 MiB. Limit: the server and
  # four such kernels, rounded up to 256 MiB, at least 1 GiB.
  memory:
    guarantee: {r['memory_guarantee_mb']}M
    limit: {r['memory_limit_mb']}M
  # Measured: dragging a slider costs the kernel {r['drag_cores']:.3f} cores (the explorers draw in
  # the browser), running {r['heaviest_lab']} top to bottom once a minute
  # {r['lab_cores']:.3f}. Guarantee: the larger, rounded up to a multiple of 0.05; limit: one core.
  cpu:
    guarantee: {r['cpu_guarantee']:.2f}
    limit: {r['cpu_limit']}

# Stop the servers of students who left: idle for 30 minutes (a lab is about 20), checked every
# 5 minutes. Their files stay on their volumes.
cull:
  enabled: true
  timeout: 1800
  every: 300

# Start the image on every node before the class arrives, so that 40 logins at once do not all
# wait for a pull.
prePuller:
  continuous:
    enabled: true

# Who may log in is yours to set, under hub.config: an authenticator for your university's
# accounts (https://z2jh.jupyter.org/en/stable/administrator/authentication.html). Until you do,
# the chart's default lets anyone in with any password: for trying the hub out, never for a class.
# (JupyterHub reads the M above as MiB.)
"""


def main(argv=None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=BENCH)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    text = values_yaml(json.loads(args.bench.read_text(encoding="utf-8")))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"make_z2jh_values: wrote {args.out}")
    return args.out


if __name__ == "__main__":
    main()
