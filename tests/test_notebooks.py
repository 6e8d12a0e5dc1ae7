"""Every chapter and lab runs top to bottom in a fresh kernel, with no error and no stderr."""

from __future__ import annotations

import json
import time

import nbformat
import pytest
from nbclient import NotebookClient

from book_files import ROOT, executable, read_notebook, toc_files
from conftest import ROOT as _ROOT

SOURCES = [p for p in toc_files() if executable(p)]
LABS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def glued_values(outputs) -> dict:
    """{name: the value's main representation} for every myst-nb glue output."""
    values = {}
    for out in outputs:
        name = out.get("metadata", {}).get("scrapbook", {}).get("name")
        if name:
            data = out["data"]
            main = next((m for m in ("text/latex", "text/markdown", "image/png", "text/plain") if m in data),
                        sorted(data)[0])
            values[name] = data[main]
    return values


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_runs_in_fresh_kernel(path, site):
    """Runs the source in a fresh kernel, and checks determinism: every value it glues is
    identical to the value glued by the book build (a second, independent execution)."""
    nb = read_notebook(path)
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    client.execute()  # raises CellExecutionError on the first failing cell
    elapsed = time.perf_counter() - start
    stderr = [
        out.get("text", "")
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream" and out.get("name") == "stderr"
    ]
    assert stderr == [], f"{path.name} wrote to stderr: {stderr}"
    if path.suffix == ".ipynb":  # labs must fit in a class: 30 s on this 2-core machine
        assert elapsed <= 30, f"{path.name} took {elapsed:.1f} s in a fresh kernel"
    fresh = glued_values(out for cell in nb.cells if cell.cell_type == "code" for out in cell.get("outputs", []))
    built_file = _ROOT / "_build" / "jupyter_execute" / path.relative_to(ROOT).with_suffix(".glue.json")
    if fresh or built_file.exists():
        built = {k: glued_values([v])[k] for k, v in json.loads(built_file.read_text()).items()}
        assert fresh == built, f"{path.name}: glued values differ between two executions"


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.name)
def test_lab_saved_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.outputs or c.execution_count)]
    assert dirty == [], f"{path.name}: cells {dirty} carry outputs or execution counts"


def test_every_lab_is_in_the_book():
    listed = set(toc_files())
    assert [p.name for p in LABS if p not in listed] == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_visible_code_fits_the_page(path):
    """Lines longer than this are cut off in the book's code cells (seen in screenshots)."""
    too_long = [
        line
        for cell in read_notebook(path).cells
        if cell.cell_type == "code" and not {"remove-cell", "remove-input"} & set(cell.metadata.get("tags", []))
        for line in cell.source.splitlines()
        if len(line) > 78
    ]
    assert too_long == []
