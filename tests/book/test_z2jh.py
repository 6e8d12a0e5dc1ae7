"""deploy/z2jh/values.yaml: Zero to JupyterHub's settings for a class bigger than one server.

Its numbers come from `make bench-class` (scripts/make_z2jh_values.py, from the committed
benchmarks/results/class.json), and it validates, merged over the chart's defaults as Helm
merges them, against the chart's published values schema (tests/vendor/z2jh, chart 4.4.0)."""

from __future__ import annotations

import copy
import json
import sys

import jsonschema
import pytest
import yaml

from book_files import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import make_z2jh_values as z2jh  # noqa: E402

VENDOR = ROOT / "tests" / "vendor" / "z2jh"
VALUES = ROOT / "deploy" / "z2jh" / "values.yaml"
BENCH = json.loads((ROOT / "benchmarks" / "results" / "class.json").read_text(encoding="utf-8"))


def _merged(ours: dict) -> dict:
    """Helm's merge of user values over a chart's defaults: maps merge key by key, anything
    else (lists too) replaces the default."""
    def merge(base, over):
        if isinstance(base, dict) and isinstance(over, dict):
            out = dict(base)
            for key, value in over.items():
                out[key] = merge(base.get(key), value) if key in base else value
            return out
        return over
    return merge(yaml.safe_load((VENDOR / "values.yaml").read_text(encoding="utf-8")), ours)


def _errors(values: dict) -> list[str]:
    schema = json.loads((VENDOR / "values.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    return sorted(f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(values))


def test_the_committed_values_are_what_bench_class_gives():
    assert VALUES.read_text(encoding="utf-8") == z2jh.values_yaml(BENCH)


def test_the_values_validate_against_the_charts_schema():
    ours = yaml.safe_load(VALUES.read_text(encoding="utf-8"))
    assert _errors(_merged(ours)) == []
    # and the merge kept what we set
    merged = _merged(ours)
    assert merged["singleuser"]["memory"] == ours["singleuser"]["memory"]
    assert merged["cull"]["timeout"] == 1800 and merged["cull"]["every"] == 300
    assert merged["hub"] == _merged({})["hub"]  # the chart's own hub settings, untouched


@pytest.mark.parametrize("path, value, message", [
    (("singleuser", "memory", "guaranteed"), "1G", "Additional properties are not allowed"),
    (("singleuser", "cpu", "limit"), "one", "is not of type"),
    (("cull", "timeout"), "soon", "is not of type"),
])
def test_the_schema_catches_a_mistake(path, value, message):
    """The validation is not vacuous: a typo or a wrong type in the file would fail it."""
    ours = copy.deepcopy(yaml.safe_load(VALUES.read_text(encoding="utf-8")))
    node = ours
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    errors = _errors(_merged(ours))
    assert errors and all(message in e for e in errors), errors


def test_the_resources_follow_the_measurement():
    r = z2jh.resources(BENCH)
    server, kernel = BENCH["server"]["pss_mb"], max(lab["pss_mb"] for lab in BENCH["labs"])
    assert r["memory_guarantee_mb"] % 64 == 0 and 0 <= r["memory_guarantee_mb"] - (server + kernel) < 64
    assert r["memory_limit_mb"] >= max(1024, server + 4 * kernel)
    drag = BENCH["setup"]["rate_per_student_per_s"] * BENCH["cpu_ms_per_change"] / 1000
    assert r["cpu_guarantee"] >= drag and r["cpu_guarantee"] - max(drag, r["lab_cores"]) < 0.05 + 1e-9
    values = yaml.safe_load(VALUES.read_text(encoding="utf-8"))["singleuser"]
    assert values["memory"] == {"guarantee": f"{r['memory_guarantee_mb']}M", "limit": f"{r['memory_limit_mb']}M"}
    assert values["cpu"] == {"guarantee": round(r["cpu_guarantee"], 2), "limit": 1}


def test_rounding_and_bad_measurements():
    bench = {"format": z2jh.FORMAT, "server": {"pss_mb": 90.0}, "setup": {"rate_per_student_per_s": 5.0},
             "cpu_ms_per_change": 4.0, "labs": [{"lab": "a.ipynb", "pss_mb": 100.0, "cpu_seconds": 3.6},
                                               {"lab": "b.ipynb", "pss_mb": 60.0, "cpu_seconds": 1.0}]}
    r = z2jh.resources(bench)
    assert (r["memory_guarantee_mb"], r["memory_limit_mb"]) == (192, 1024)
    assert r["cpu_guarantee"] == pytest.approx(0.1)  # 3.6 s a minute = 0.06 cores, above dragging's 0.02
    bench["labs"][0]["pss_mb"] = 400.0
    assert z2jh.resources(bench)["memory_limit_mb"] == 1792  # 90 + 1600 = 1690 -> 7 x 256
    with pytest.raises(ValueError, match="^bench: expected"):
        z2jh.resources({**bench, "format": "attention-scaling/bench-class/1"})
    with pytest.raises(ValueError, match="^bench: the result has no labs"):
        z2jh.resources({**bench, "labs": []})
