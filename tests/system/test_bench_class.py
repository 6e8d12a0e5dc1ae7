"""`make bench-class` runs: real kernels with the live explorer, a real JupyterLab server, and the
Zero to JupyterHub values written from what it measured (a small class, one second a round)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from book_files import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import make_z2jh_values  # noqa: E402


def test_a_small_class_is_measured_and_sized(tmp_path):
    out = tmp_path / "class.json"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_class.py"), "--sizes", "1,2",
                           "--seconds", "1", "--output", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["format"] == make_z2jh_values.FORMAT
    assert [r["students"] for r in result["rounds"]] == [1, 2]
    for r in result["rounds"]:
        # every change the students sent reached the kernel, which had it within a second
        assert r["lost"] == 0 and r["changes"] == 5 * r["students"]
        assert 0 < r["median_ms"] <= r["p95_ms"] < 1000
        assert 0 < r["cpu_ms_per_change"] < 60  # told a value, not drawing a frame (63 ms in the frame era)
    assert 40 < result["server"]["pss_mb"] < 1000 and 40 < result["kernel_after_explorer"]["pss_mb"] < 1000
    labs = {lab["lab"] for lab in result["labs"]}
    assert labs == {p.name for p in (ROOT / "notebooks").glob("lab-*.ipynb")}
    assert all(lab["cpu_seconds"] > 0 for lab in result["labs"])
    values = make_z2jh_values.main(["--bench", str(out), "--out", str(tmp_path / "values.yaml")])
    assert "guarantee:" in values.read_text()


def test_the_values_need_a_full_measurement(tmp_path):
    bench = tmp_path / "class.json"
    bench.write_text(json.dumps({"format": make_z2jh_values.FORMAT, "labs": [], "server": {}}))
    with pytest.raises(ValueError, match="^bench: the result has no labs"):
        make_z2jh_values.main(["--bench", str(bench), "--out", str(tmp_path / "v.yaml")])
