"""scripts/forget_executions.py drops a page's cached execution, so that the next build runs
it again (scripts/build-book calls it when the launch repository changes)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_cache import get_cache

from book_files import ROOT

SCRIPT = ROOT / "scripts" / "forget_executions.py"


def _cache_two_pages(tmp_path: Path) -> Path:
    cache = tmp_path / "_build" / ".jupyter_cache"
    db = get_cache(str(cache))
    for name, source in (("intro", "1 + 1"), ("teach", "2 + 2")):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source, execution_count=1)])
        path = tmp_path / "book" / f"{name}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, path)
        db.cache_notebook_file(str(path), check_validity=False)
    return cache


def _uris(cache: Path) -> list[str]:
    return sorted(Path(r.uri).name for r in get_cache(str(cache)).list_cache_records())


def _forget(cache: Path, *pages: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), str(cache), *pages], capture_output=True, text=True)


def test_the_named_page_goes_and_the_others_stay(tmp_path):
    cache = _cache_two_pages(tmp_path)
    proc = _forget(cache, "book/teach.ipynb")
    assert proc.returncode == 0, proc.stderr
    assert "dropped" in proc.stdout and "teach" in proc.stdout
    assert _uris(cache) == ["intro.ipynb"]


def test_a_record_whose_executed_copy_is_gone_is_dropped_too(tmp_path):
    """An interrupted run can leave a record without its executed notebook; jupyter-cache's
    remove_cache raises KeyError on it, which stopped `make book` (seen on this machine)."""
    cache = _cache_two_pages(tmp_path)
    db = get_cache(str(cache))
    record = next(r for r in db.list_cache_records() if r.uri.endswith("teach.ipynb"))
    shutil.rmtree(cache / "executed" / record.hashkey)
    with pytest.raises(KeyError):
        db.remove_cache(record.pk)
    proc = _forget(cache, "book/teach.ipynb")
    assert proc.returncode == 0, proc.stderr
    assert _uris(cache) == ["intro.ipynb"]


def test_a_folder_that_is_not_a_cache_is_refused(tmp_path):
    proc = _forget(tmp_path / "nowhere", "book/teach.md")
    assert proc.returncode != 0
    assert "cache must be a jupyter-cache folder" in proc.stderr
