"""`make lint` (run by `make check` and `make test`) fails on a planted lint error and a
planted misspelling, and passes on clean files; pre-commit runs the same two commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent


def lint(py: Path, text: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-s", "lint", f"VENV={VENV}", f"LINT_PY={py}", f"SPELL={py} {text}",
                           f"TYPED={py}"], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_clean_files_pass(tmp_path):
    (tmp_path / "ok.py").write_text("import math\n\nprint(math.pi)\n")
    (tmp_path / "ok.md").write_text("The softmax saturates, and its gradient vanishes.\n")
    proc = lint(tmp_path / "ok.py", tmp_path / "ok.md")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_planted_lint_error_fails(tmp_path):
    (tmp_path / "bad.py").write_text("import os\n\nprint(undefined_name)\n")
    (tmp_path / "ok.md").write_text("Fine.\n")
    proc = lint(tmp_path / "bad.py", tmp_path / "ok.md")
    assert proc.returncode != 0
    assert "F401" in proc.stdout and "F821" in proc.stdout  # unused import, undefined name


def test_a_planted_misspelling_fails(tmp_path):
    (tmp_path / "ok.py").write_text("x = 1\n")
    typo = "reci" + "eved"  # spelt in two halves, so that this file passes codespell itself
    (tmp_path / "bad.md").write_text(f"The gradient of the softmax is {typo} by the queries.\n")
    proc = lint(tmp_path / "ok.py", tmp_path / "bad.md")
    assert proc.returncode != 0
    assert f"{typo} ==> received" in proc.stdout


def test_a_planted_type_error_fails(tmp_path):
    """mypy checks the reader's package's hints: a call that cannot type-check fails the lint."""
    (tmp_path / "typed.py").write_text("def half(x: float) -> float:\n    return x / 2\n\n\nhalf(\"one\")\n")
    (tmp_path / "ok.md").write_text("Fine.\n")
    proc = lint(tmp_path / "typed.py", tmp_path / "ok.md")
    assert proc.returncode != 0
    assert "[arg-type]" in proc.stdout and "typed.py:5" in proc.stdout


def test_the_reader_package_type_checks():
    proc = subprocess.run([str(VENV / "bin" / "mypy"), "src/attention_scaling"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success: no issues found in" in proc.stdout


def test_pre_commit_runs_what_make_lint_runs():
    hooks = {h["id"]: h for repo in yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())["repos"]
             for h in repo["hooks"]}
    assert hooks["ruff"]["entry"] == ".venv/bin/ruff check"
    assert hooks["codespell"]["entry"] == ".venv/bin/codespell --toml pyproject.toml"
    recipe = subprocess.run(["make", "-n", "lint", f"VENV={VENV}"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout
    assert f"{VENV}/bin/ruff check " in recipe and f"{VENV}/bin/codespell --toml pyproject.toml " in recipe
    assert hooks["mypy"]["entry"] == ".venv/bin/mypy src/attention_scaling"
    assert f"{VENV}/bin/mypy src/attention_scaling" in recipe
