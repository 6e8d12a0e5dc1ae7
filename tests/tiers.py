"""The test tiers follow the layout: each directory of tests/ marks its own tests (its
conftest.py calls :func:`mark_directory`), so `pytest -m package`, `-m book`, `-m browser` or
`-m system` selects a tier by where its files live, with no list kept by hand.

- tests/package: the reader's package alone (no built book, browser or build tools);
- tests/book: the built book and its sources, read as files (the build, links, notebooks);
- tests/browser: headless Chromium over the built book (pages, explorers, Present, print);
- tests/system: whole systems started for real (JupyterLab, JupyterHub, fresh venvs with the
  oldest versions or the offline archive, the benchmarks' harness).
"""

from __future__ import annotations

from pathlib import Path

import pytest


def mark_directory(conftest_file: str, items: list, marker: str) -> list:
    """Add ``marker`` to every collected item whose file lies under the directory of
    ``conftest_file``; returns those items. pytest calls every conftest's collection hook with
    all the session's items, so each directory picks out its own."""
    here = Path(conftest_file).resolve().parent
    mine = [item for item in items if here in Path(str(item.path)).resolve().parents]
    for item in mine:
        item.add_marker(getattr(pytest.mark, marker))
    return mine
