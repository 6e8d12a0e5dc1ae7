"""The book's build is one Sphinx extension, ``attention_book`` (booktools/), whose setup()
wires every handler from one table, :data:`attention_book.HOOKS` (issue 29)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import itertools

import yaml

import attention_book
from book_files import ROOT

BOOK = ROOT / "booktools" / "src" / "attention_book"


class RecordingApp:
    """Just enough of a Sphinx application to record what setup() registers."""

    def __init__(self, extensions=("sphinx_proof",)):
        self.connected, self.directives, self.nodes, self.transforms, self.config_values = [], [], [], [], []
        self.roles = []
        self.extensions, self.indices = dict.fromkeys(extensions), []

    def add_index_to_domain(self, domain, index):
        self.indices.append((domain, index.__name__))

    def connect(self, event, handler, priority=500):
        self.connected.append((event, handler, priority))

    def add_directive(self, name, cls):
        self.directives.append(name)

    def add_node(self, node, **visitors):
        self.nodes.append(node.__name__)

    def add_role(self, name, role):
        self.roles.append(name)

    def add_transform(self, transform):
        self.transforms.append(transform.__name__)

    def add_config_value(self, name, default, rebuild, types=()):
        self.config_values.append(name)


def test_config_lists_one_extension_of_ours():
    extensions = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["extra_extensions"]
    ours = [e for e in extensions if e.split(".")[0] in ("attention_book", "attention_scaling")]
    assert ours == ["attention_book"]


def test_setup_connects_every_row_of_the_table_in_its_order():
    app = RecordingApp()
    meta = attention_book.setup(app)
    assert [(e, h, p) for e, h, p in app.connected] == [
        (e, attention_book.handler(name), p) for e, name, p in attention_book.HOOKS]
    assert all(callable(h) for _, h, _ in app.connected)
    assert sorted(app.directives) == ["deeper-end", "deeper-start"]
    assert app.nodes == ["deeper", "_marker", "live_number"] and app.transforms == ["FoldBetweenMarkers"]
    assert app.roles == ["live"]
    assert app.config_values == [name for name, _, _ in attention_book.CONFIG]
    assert app.config_values[0] == "pages_branch" and all(n.startswith("book_") for n in app.config_values[1:])
    # the theorem index, given sphinx-proof's domain (and none without it)
    assert app.indices == [("prf", "TheoremIndex")]
    without = RecordingApp(extensions=())
    attention_book.setup(without)
    assert without.indices == []
    # chapter_notebooks keeps what it generates in the writing process.
    assert meta == {"parallel_read_safe": True, "parallel_write_safe": False}


def test_the_table_lists_each_event_in_the_order_its_handlers_run():
    """Sphinx runs an event's handlers by priority, equal ones in the order connected: the
    table is grouped by event and sorted by priority, so it reads in that order."""
    events = [e for e, _ in itertools.groupby(attention_book.HOOKS, key=lambda row: row[0])]
    assert len(events) == len(set(events)), "an event's rows are not together"
    for event in events:
        priorities = [p for e, _, p in attention_book.HOOKS if e == event]
        assert priorities == sorted(priorities), event
    assert len({name for _, name, _ in attention_book.HOOKS}) == len(attention_book.HOOKS)


def test_no_other_module_is_an_extension_of_its_own():
    """Only the package's __init__ has a setup(); the modules' handlers are in the table."""
    for path in sorted(BOOK.glob("*.py")):
        if path.name == "__init__.py":
            continue
        names = {n.name for n in ast.parse(path.read_text()).body if isinstance(n, ast.FunctionDef)}
        assert "setup" not in names, path.name
        assert "app.connect(" not in path.read_text(), path.name


def test_the_build_modules_left_the_reader_package():
    for name in ("sphinx_ext", "chapter_notebooks", "pagespeed", "publishing", "handout", "folds"):
        assert importlib.util.find_spec(f"attention_scaling.{name}") is None, name
        assert importlib.util.find_spec(f"attention_book.{name}") is not None, name
    # the repository finder has one home, the build tools (attention_book.repository)
    assert importlib.util.find_spec("attention_scaling.launch") is None
    finder = importlib.import_module("attention_book.repository")
    assert {"find_repository", "nbgitpuller_link", "Repository", "parse_github_url"} <= set(dir(finder))
    assert not hasattr(finder, "setup") and not hasattr(finder, "_configure")


def test_the_maths_tool_ships_inside_the_package():
    from attention_book.sphinx_ext import MATHS_TOOL

    assert MATHS_TOOL.is_relative_to(BOOK)
    assert {"render.js", "package.json", "package-lock.json"} <= {p.name for p in MATHS_TOOL.iterdir()}
