"""tests/system: whole systems started for real: JupyterLab and JupyterHub driven in Chromium,
fresh venvs (the oldest versions, the offline archive, a chapter with only the package) and
the benchmarks' harness. Every test here carries the ``system`` marker (tests/tiers.py)."""

from tiers import mark_directory


def pytest_collection_modifyitems(config, items):
    mark_directory(__file__, items, "system")
