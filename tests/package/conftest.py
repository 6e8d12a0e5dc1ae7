"""The package tier: tests of the reader's package alone (numerics, figures, explorables
driven from Python, SymPy derivations, the house rules). They need no built book, browser,
server or build tools, so `make check` runs them in about a minute and scripts/test-oldest runs
exactly this directory with the oldest versions the package supports. A test that needs
more belongs in another directory of tests/. Every test here carries the ``package`` marker."""

from __future__ import annotations

import pytest
from tiers import mark_directory


# The fixtures of tests/conftest.py that need the built book or a browser: not for this tier.
OUTSIDE = {"built_book", "site", "published_site", "every_site", "server", "browser"}


def pytest_collection_modifyitems(config, items):
    for item in mark_directory(__file__, items, "package"):
        needs = OUTSIDE & set(getattr(item, "fixturenames", ()))
        if needs:
            raise pytest.UsageError(f"{item.nodeid} uses {sorted(needs)}: the package tier needs no built "
                                    "book or browser; move the test out of tests/package")
