"""tests/browser: headless Chromium over the built book (every page at two widths and two
themes, the explorers' players, Present, quizzes, print). Every test here carries the
``browser`` marker (tests/tiers.py)."""

from tiers import mark_directory


def pytest_collection_modifyitems(config, items):
    mark_directory(__file__, items, "browser")
