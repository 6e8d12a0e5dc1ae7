"""tests/book: the built book and its sources read as files (the strict build, links,
claims, the generated notebooks, the second book in tests/sites). Every test here carries
the ``book`` marker (tests/tiers.py)."""

from tiers import mark_directory


def pytest_collection_modifyitems(config, items):
    mark_directory(__file__, items, "book")
