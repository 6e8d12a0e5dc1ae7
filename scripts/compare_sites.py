"""Compare two builds of the book, file by file, apart from what a build cannot keep the same.

    python scripts/compare_sites.py SITE_A SITE_B     # exit status 1 when they differ

For a renovation (issue 29: behaviour unchanged, same site), build the commit before and the
commit after into two folders and compare them. Ignored, each for a reason:

- the footer's build stamp (``<p class="asb-build">``: the commit, the date, a dirty tree);
- ``.buildinfo`` (Sphinx's hash of the configuration, which holds the stamp);
- the cell ids and execution counts of the ``_sources/`` notebooks (Jupytext makes new random
  ids at each build; a page read from the execution cache has no counts, a fresh run has);
- where the kernel split a cell's printed lines into two stream outputs (it flushes on a
  timer): consecutive stream outputs are compared as one text.

Everything else must be byte for byte the same: pages, images (the figures are deterministic),
player frames, scripts and stylesheets.
"""

from __future__ import annotations

import filecmp
import json
import re
import sys
from pathlib import Path

FOOTER = re.compile(r'<p class="asb-build">.*?</p>', re.S)
# the seam between two stream outputs of one cell, as myst-nb writes them
STREAM_SEAM = re.compile(r'</pre></div>\s*</div>\s*<div class="output stream highlight-myst-ansi notranslate">'
                         r'<div class="highlight"><pre><span></span>')


def _html(text: str) -> str:
    return STREAM_SEAM.sub("", FOOTER.sub("", text))


def _notebook(text: str) -> list:
    """The cells without ids and execution counts, consecutive stream outputs of one name as one."""
    cells = []
    for cell in json.loads(text).get("cells", []):
        outputs = []
        for out in cell.get("outputs", []):
            out = {k: v for k, v in out.items() if k != "execution_count"}
            if out.get("output_type") == "stream":
                out["text"] = "".join(out["text"])
                last = outputs[-1] if outputs else {}
                if last.get("output_type") == "stream" and last.get("name") == out.get("name"):
                    last["text"] += out["text"]
                    continue
            outputs.append(out)
        kept = {k: v for k, v in cell.items() if k not in ("id", "execution_count")}
        if "outputs" in cell:  # code cells
            kept["outputs"] = outputs
        cells.append(kept)
    return cells


def same(a: Path, b: Path) -> bool:
    """Whether two built files are the same but for what the module docstring lists."""
    if filecmp.cmp(a, b, shallow=False) or a.name == ".buildinfo":
        return True
    if a.suffix == ".html":
        return _html(a.read_text(encoding="utf-8")) == _html(b.read_text(encoding="utf-8"))
    if a.suffix == ".ipynb":
        return _notebook(a.read_text(encoding="utf-8")) == _notebook(b.read_text(encoding="utf-8"))
    return False


def compare(site_a: Path, site_b: Path) -> dict:
    """``{"only_a": [...], "only_b": [...], "different": [...], "files": n}``, paths relative."""
    for name, site in (("site_a", site_a), ("site_b", site_b)):
        if not (Path(site) / "index.html").is_file():
            raise ValueError(f"{name} must be a built site's folder (with index.html), got {site}")
    files_a = {p.relative_to(site_a) for p in Path(site_a).rglob("*") if p.is_file()}
    files_b = {p.relative_to(site_b) for p in Path(site_b).rglob("*") if p.is_file()}
    both = sorted(files_a & files_b)
    return {"only_a": sorted(map(str, files_a - files_b)), "only_b": sorted(map(str, files_b - files_a)),
            "different": [str(p) for p in both if not same(Path(site_a) / p, Path(site_b) / p)],
            "files": len(both)}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    result = compare(Path(sys.argv[1]), Path(sys.argv[2]))
    for key in ("only_a", "only_b", "different"):
        for path in result[key]:
            print(f"{key}: {path}")
    changed = result["only_a"] or result["only_b"] or result["different"]
    print(f"compare_sites: {result['files']} files in both; "
          + ("they differ" if changed else "the same, but for the build stamp, cell ids and stream seams"))
    sys.exit(1 if changed else 0)
