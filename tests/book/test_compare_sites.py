"""scripts/compare_sites.py: two builds compare equal but for the build stamp, .buildinfo, the
_sources/ cell ids and where the kernel split a cell's printed lines; anything else is a
difference."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from book_files import ROOT

_spec = importlib.util.spec_from_file_location("compare_sites", ROOT / "scripts" / "compare_sites.py")
compare_sites = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare_sites)

STREAM = '<div class="output stream highlight-myst-ansi notranslate"><div class="highlight"><pre><span></span>{}</pre></div>\n</div>\n'


def page(body: str, commit: str = "abc1234") -> str:
    return (f"<html><body>{body}<p class=\"asb-build\">Built on 2026-12-05 from commit "
            f"<code>{commit}</code>.</p></body></html>")


def notebook(ids: list[str], texts: list[list[str]]) -> str:
    cells = [{"cell_type": "code", "id": i, "source": "print(1)", "metadata": {}, "execution_count": 1,
              "outputs": [{"output_type": "stream", "name": "stdout", "text": t} for t in ts]}
             for i, ts in zip(ids, texts)]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def site(root, *, commit="abc1234", ids=("a1",), chunks=(["x\n", "y\n"],), image=b"\x89PNG1", text="Hello"):
    (root / "_sources").mkdir(parents=True)
    (root / "_images").mkdir()
    (root / "index.html").write_text(page(text + "".join(STREAM.format(c) for c in chunks[0]), commit))
    (root / ".buildinfo").write_text(f"config: {commit}\n")
    (root / "_sources" / "page.ipynb").write_text(notebook(list(ids), [list(c) for c in chunks]))
    (root / "_images" / "fig.png").write_bytes(image)
    return root


def test_builds_that_differ_only_where_a_build_cannot_keep_still_are_the_same(tmp_path):
    a = site(tmp_path / "a")
    b = site(tmp_path / "b", commit="def5678", ids=("b2",), chunks=(["x\ny\n"],))
    assert compare_sites.compare(a, b) == {"only_a": [], "only_b": [], "different": [], "files": 4}


@pytest.mark.parametrize("change", [{"text": "Hallo"}, {"image": b"\x89PNG2"}, {"chunks": (["x\n", "z\n"],)}],
                         ids=["text", "image", "output"])
def test_any_other_change_is_a_difference(tmp_path, change):
    a, b = site(tmp_path / "a"), site(tmp_path / "b", **change)
    assert compare_sites.compare(a, b)["different"]


def test_a_missing_file_is_reported_and_the_command_fails(tmp_path):
    a, b = site(tmp_path / "a"), site(tmp_path / "b")
    (b / "_images" / "fig.png").unlink()
    assert compare_sites.compare(a, b)["only_a"] == ["_images/fig.png"]
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "compare_sites.py"), str(a), str(b)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "only_a: _images/fig.png" in proc.stdout


def test_a_folder_that_is_not_a_site_is_refused(tmp_path):
    with pytest.raises(ValueError, match="site_b must be a built site"):
        compare_sites.compare(site(tmp_path / "a"), tmp_path)
