"""Chapters generated as plain notebooks (attention_book.chapter_notebooks), and the
install cell that opens every chapter and lab.

- What the build generates is what is committed in notebooks/chapters/.
- Every generated chapter is a valid notebook without outputs, with no raw MyST, with
  every glued number as text, its removed cells hidden, short code lines and the install
  cell first.
- The install cell, run by IPython with a recorder for %pip: it does nothing when the
  package is there, installs the clone it sits in, or the repository and commit a
  published copy names, and otherwise says how to install.
- Every generated chapter runs top to bottom in a real JupyterLab: tests/system/test_jupyterlab.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
from myst_nb.core.read import read_myst_markdown_notebook
from myst_nb.core.variables import format_plain_text

from attention_book import chapter_notebooks as cn
from attention_book.chapter_notebooks import INSTALL_TAG, install_cell, launch_path
from book_files import ROOT, toc_files

CHAPTERS = [p for p in toc_files() if p.suffix == ".md" and p.parent.name == "book"]
LABS = sorted((ROOT / "notebooks").glob("*.ipynb"))
COMMITTED = ROOT / cn.CHAPTERS_DIR
RAW_MYST = re.compile(r"\{glue|\{numref\}|\{prf:|\{cite|\{doc\}|```\{|:::\{|\{ref\}|\{eq\}|\{download\}"
                      r"|<svg|<script|sd-octicon")  # nor the HTML of the page's widgets


def committed(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(COMMITTED / f"{path.stem}.ipynb", as_version=4)


def docname(path: Path) -> str:
    return str(path.relative_to(ROOT).with_suffix(""))


def markdown(nb) -> str:
    return "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


# --- the committed notebooks are what the build generates ------------------------------------


def launch_dependent(nb) -> bool:
    """A chapter that prints the launch repository's links (the instructors' page) differs
    between a build with a GitHub origin and one without."""
    return any("attention_book.repository" in c.source for c in nb.cells if c.cell_type == "code")


def test_committed_chapters_are_the_generated_ones(site):
    built = site.parent / cn.BUILD_DIR
    assert sorted(p.name for p in built.glob("*.ipynb")) == sorted(f"{p.stem}.ipynb" for p in CHAPTERS)
    stale = []
    for path in sorted(built.glob("*.ipynb")):
        mine = COMMITTED / path.name
        if not mine.is_file() or mine.read_text(encoding="utf-8") != path.read_text(encoding="utf-8"):
            if mine.is_file() and launch_dependent(nbformat.read(path, as_version=4)) \
                    and markdown(nbformat.read(mine, as_version=4)) != markdown(nbformat.read(path, as_version=4)) \
                    and [c.source for c in nbformat.read(mine, as_version=4).cells if c.cell_type == "code"] \
                    == [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]:
                continue  # only the launch repository's links differ: another clone's build
            stale.append(path.name)
    extra = sorted({p.name for p in COMMITTED.glob("*.ipynb")} - {p.name for p in built.glob("*.ipynb")})
    assert stale == [] and extra == [], (
        f"notebooks/chapters/ is out of date ({stale + extra}): run `make chapter-notebooks` and commit")


# --- every generated chapter -----------------------------------------------------------------


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_generated_chapter_is_a_clean_notebook(path):
    nb = committed(path)
    nbformat.validate(nb)
    assert nb.nbformat == 4
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.outputs == [] and c.execution_count is None for c in code)
    assert INSTALL_TAG in code[0].metadata.get("tags", []) and code[0].source == install_cell()
    assert RAW_MYST.findall(markdown(nb)) == []
    # nor the static page's notes on where to run an exercise (the notebook runs it)
    assert "static page cannot" not in markdown(nb) and "Needs a live kernel" not in markdown(nb)
    visible = [c for c in code if not c.metadata.get("jupyter", {}).get("source_hidden")]
    long = [line for c in visible for line in c.source.splitlines() if len(line) > cn.MAX_LINE]
    assert long == []


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_code_cell_is_kept_in_order_and_hidden_as_on_the_page(path):
    source = read_myst_markdown_notebook(path.read_text(encoding="utf-8"), path=path)
    want = [c for c in source.cells if c.cell_type == "code"]
    got = [c for c in committed(path).cells if c.cell_type == "code"][1:]
    assert [c.source for c in got] == [cn.portable(c.source) for c in want]
    for mine, theirs in zip(got, want):
        tags = set(theirs.metadata.get("tags", []))
        assert set(mine.metadata.get("tags", [])) == tags
        hidden = mine.metadata.get("jupyter", {})
        if tags & {"remove-cell", "hide-cell"}:
            assert hidden == {"source_hidden": True, "outputs_hidden": True}, mine.source[:80]
        if tags & {"remove-input", "hide-input"}:
            assert hidden.get("source_hidden") is True, mine.source[:80]
        if tags & {"remove-output", "hide-output"}:
            assert hidden.get("outputs_hidden") is True, mine.source[:80]
        if not tags and hidden:  # only code that belongs to a folded solution is collapsed
            assert hidden == {"source_hidden": True, "outputs_hidden": True}


def glued_texts(path: Path) -> list[str]:
    """Every {glue:text} / {glue} role of the chapter, as the book formats it, from the
    values the build's execution glued (_build/jupyter_execute/book/<chapter>.glue.json; the
    learner's build writes it again after the instructor's, so its readers wait for that build)."""
    values = json.loads((ROOT / "_build" / "jupyter_execute" / "book" / f"{path.stem}.glue.json").read_text())
    texts = []
    for name, fmt in re.findall(r"\{glue(?::text)?\}`([\w-]+)(?::([^`]*))?`", path.read_text(encoding="utf-8")):
        data = values[name]["data"]
        if "text/plain" in data and not {"text/markdown", "image/png", "text/html"} & set(data):
            texts.append(format_plain_text(data["text/plain"], fmt).strip("'\""))
    return texts


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_glued_number_is_in_the_text(path, learner_site):
    texts = glued_texts(path)
    prose = markdown(committed(path)).replace("\\", "")
    missing = [t for t in texts if t not in prose]
    assert missing == []
    if path.stem != "intro":
        assert texts, "a chapter glues numbers into its prose"


def test_theorems_exercises_and_solutions_read_as_markdown():
    nb = committed(ROOT / "book" / "scale-the-scores.md")
    text = markdown(nb)
    assert "> **Theorem 3.1** (Mean and variance of a dot product)" in text
    assert "> **Exercise 3.1**" in text and text.count("<details><summary>Solution</summary>") == 3
    assert "[Derive the softmax gradient](derive-the-softmax-gradient.ipynb)" in text
    assert text.startswith("# Scale the scores")


# --- launch paths ------------------------------------------------------------------------------


def test_launch_path():
    assert launch_path("book/scale-the-scores") == "notebooks/chapters/scale-the-scores.ipynb"
    assert launch_path("notebooks/lab-turn-on-qk-norm") == "notebooks/lab-turn-on-qk-norm.ipynb"
    for path in CHAPTERS + LABS:
        assert (ROOT / launch_path(docname(path))).is_file()
    for bad, name in ((None, "docname"), ("", "docname"), ("book/x.md", "docname"), ("../x", "docname")):
        with pytest.raises(ValueError, match=f"^{name}"):
            launch_path(bad)


# --- the install cell --------------------------------------------------------------------------


RUNNER = textwrap.dedent('''
    import json, sys
    from IPython.core.interactiveshell import InteractiveShell
    if sys.argv[2] != "present":
        sys.modules["attention_scaling"] = None  # find_spec() now says: not installed
    shell = InteractiveShell.instance()
    calls = []

    def pip(line):  # records the call; "missing": pip installs it, "pip fails": it does not
        calls.append(line)
        if sys.argv[2] == "missing":
            del sys.modules["attention_scaling"]
    shell.register_magic_function(pip, "line", "pip")
    result = shell.run_cell(open(sys.argv[1]).read())
    error = result.error_in_exec
    print(json.dumps({"pip": calls, "error": f"{type(error).__name__}: {error}" if error else ""}))
''')


def run_install_cell(tmp_path: Path, source: str, cwd: Path, package: str) -> dict:
    cell = tmp_path / "cell.py"
    cell.write_text(source)
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    proc = subprocess.run([sys.executable, str(runner), str(cell), package], cwd=cwd, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def clone(tmp_path):
    root = tmp_path / "my clone"
    (root / "notebooks" / "chapters").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "attention-scaling"\nversion = "1"\n')
    return root


def test_install_cell_does_nothing_when_the_package_is_there(tmp_path, clone):
    got = run_install_cell(tmp_path, install_cell(), clone / "notebooks" / "chapters", "present")
    assert got == {"pip": [], "error": ""}


def test_install_cell_installs_the_clone_it_sits_in(tmp_path, clone):
    got = run_install_cell(tmp_path, install_cell(), clone / "notebooks" / "chapters", "missing")
    assert got == {"pip": [f'install -q -e "{clone}"'], "error": ""}


def test_install_cell_of_a_published_copy_installs_the_built_commit(tmp_path):
    elsewhere = tmp_path / "content"  # Colab's working directory: no clone above it
    elsewhere.mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "another-package"\n')
    sha = "0123456789abcdef0123456789abcdef01234567"
    source = install_cell("https://github.com/ada/fork", sha)
    got = run_install_cell(tmp_path, source, elsewhere, "missing")
    assert got == {"pip": [f"install -q git+https://github.com/ada/fork@{sha}"], "error": ""}
    assert max(len(line) for line in source.splitlines()) <= cn.MAX_LINE


HELP = ("ModuleNotFoundError: The book's package, attention_scaling, is not installed. Open this notebook "
        "with the Binder button on the book's page, or, in a clone of the book's repository, run: "
        "pip install -r requirements.txt")


def test_install_cell_says_how_to_install_when_it_cannot(tmp_path):
    """Outside a clone and unpublished (no repository known), it names the two ways to get
    the package, with no placeholder to fill in, and stops there."""
    elsewhere = tmp_path / "content"
    elsewhere.mkdir()
    got = run_install_cell(tmp_path, install_cell(), elsewhere, "missing")
    assert got == {"pip": [], "error": HELP}
    assert "<" not in got["error"]


def test_install_cell_stops_when_pip_fails(tmp_path, clone):
    """%pip reports a failure but raises nothing: the cell checks that the package is there."""
    got = run_install_cell(tmp_path, install_cell(), clone / "notebooks" / "chapters", "pip fails")
    assert got == {"pip": [f'install -q -e "{clone}"'], "error": HELP}
    sha = "0123456789abcdef0123456789abcdef01234567"
    elsewhere = tmp_path / "content"
    elsewhere.mkdir()
    got = run_install_cell(tmp_path, install_cell("https://github.com/ada/fork", sha), elsewhere, "pip fails")
    assert got == {"pip": [f"install -q git+https://github.com/ada/fork@{sha}"], "error": HELP}


def test_install_cell_is_short_and_checks_its_input():
    lines = install_cell().splitlines()
    assert max(map(len, lines)) <= cn.MAX_LINE
    # a message naming how to get the package, and a check that pip did install it
    assert len([ln for ln in lines if not ln.lstrip().startswith("#")]) <= 17
    for kwargs, name in (({"repository": 3}, "repository"), ({"repository": "https://gitlab.com/a/b",
                                                             "commit": "a" * 40}, "repository"),
                         ({"repository": "https://github.com/a/b", "commit": "abc"}, "commit"),
                         ({"commit": "a" * 40}, "repository")):
        with pytest.raises(ValueError, match=f"^{name}"):
            install_cell(**kwargs)


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.name)
def test_every_lab_starts_with_the_install_cell(path):
    nb = nbformat.read(path, as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "code")
    assert first.source == install_cell() and INSTALL_TAG in first.metadata.get("tags", [])


# --- the Colab copies in the site ----------------------------------------------------------------


def test_the_site_carries_colab_copies_of_every_chapter_and_lab(site):
    for path in CHAPTERS + LABS:
        copy = site / cn.LAUNCH_DIR / launch_path(docname(path))
        nb = nbformat.read(copy, as_version=4)
        first = next(c for c in nb.cells if c.cell_type == "code")
        assert INSTALL_TAG in first.metadata.get("tags", [])
        assert "SOURCE = " in first.source


def test_a_figure_in_prose_is_named_not_embedded():
    """The chapters have no image outside code outputs (which the notebook makes when it
    runs); one in prose becomes a sentence naming it, never a link to a build file."""
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    doc = new_document("chapter", get_default_settings(Parser))
    section = nodes.section(ids=["a"])
    section += nodes.title(text="A chapter")
    figure = nodes.figure()
    figure += nodes.image(uri="../_images/plot.png", alt="")
    figure += nodes.caption(text="Weights against d_k")
    section += [nodes.paragraph(text="Before."), figure]
    doc += section
    source = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A chapter")])
    source.metadata["source_map"] = [0]
    nb = cn.build_notebook(doc, "book/chapter", source)
    text = markdown(nb)
    assert "plot.png" not in text and "<img" not in text and "![" not in text
    assert "A figure here on the book's page: Weights against d\\_k." in text
    assert text.startswith("# A chapter")


# --- imports a chapter's notebook can make where only the package is installed ----------------


def test_portable_replaces_the_build_only_import_and_nothing_else():
    source = "import numpy as np\nfrom myst_nb import glue\n# from myst_nb import glue, quoted"
    assert cn.portable(source) == ("import numpy as np\nfrom attention_scaling.prose import glue\n"
                                   "# from myst_nb import glue, quoted")
    assert cn.portable("") == ""
    with pytest.raises(ValueError, match="^source"):
        cn.portable(None)


def test_glue_without_myst_nb_shows_what_is_displayed_and_drops_the_rest(monkeypatch, capsys):
    from attention_scaling.prose import glue

    monkeypatch.setitem(sys.modules, "myst_nb", None)  # `from myst_nb import glue` now fails
    assert glue("hidden", 0.25, display=False) is None
    assert capsys.readouterr().out == ""
    glue("shown", 0.25)
    assert capsys.readouterr().out.strip() == "0.25"
    with pytest.raises(ValueError, match="^name"):
        glue("", 1)
