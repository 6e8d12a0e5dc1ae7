"""Two editions of one source (attention_book.edition): the learner's (`make book`, published)
and the instructor's (`make book-instructor`). Both pass the strict build; the instructor's
strings are in its edition and in no page, script, search index or sitemap of the learner's."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from book_files import ROOT, html_page, instructor_pages, learner_toc_files

pytestmark = pytest.mark.build

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]

#: What only the instructor's edition may hold, and where it holds it. The teach page's address
#: and title (a link or navigation entry to it), its sections of answers, and the worked solution
#: of the exercise the plan asks as exit-ticket question 1 (book_withheld_solutions).
INSTRUCTOR_ONLY = {
    "teach-with-this-book.html": "book/intro.html",  # the sidebar of every page links it
    "For instructors": "book/intro.html",  # its caption in the sidebar
    "Answers to the exit ticket": "book/teach-with-this-book.html",
    "Answers to the discussion questions": "book/teach-with-this-book.html",
    "Answers to the hook and the worksheet": "book/teach-with-this-book.html",
    "Misconceptions to expect": "book/teach-with-this-book.html",
    # the solution of ex-divide-by-d: its words, and its check's output
    "the scores shrink to 0": "book/scale-the-scores.html",
    "entropy 2.77": "book/scale-the-scores.html",
}

# What a reader of the learner's site can open or search: its pages, scripts, search index,
# sitemap and the theorem index. Not _sources/ (the "download" copies of a page's source, which,
# like the repository and the chapters' notebooks, keep every solution: an open book cannot hide a
# solution from a student who reads its source) nor _launch/ (the notebooks Colab opens, the same).
READ = (".html", ".js", ".xml", ".txt", ".json")


def _readable(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): p.read_text(encoding="utf-8", errors="replace")
            for p in site.rglob("*") if p.is_file() and p.suffix in READ
            and p.relative_to(site).parts[0] not in ("_sources", "_launch")}


def test_the_learner_edition_passes_the_strict_build(built_learner_book):
    warnings = [line for line in built_learner_book.output.splitlines() if "WARNING:" in line or "ERROR:" in line]
    assert built_learner_book.returncode == 0, built_learner_book.output[-4000:]
    assert warnings == []
    assert "build succeeded" in built_learner_book.output


def test_the_editions_are_configured():
    assert CONFIG["book_instructor_pages"] == instructor_pages() == ["book/teach-with-this-book"]
    assert CONFIG["book_withheld_solutions"] == ["ex-divide-by-d"]
    # the withheld exercise is the one exit-ticket question 1 asks
    from attention_scaling.lesson import EXIT_QUESTIONS

    assert "divide the scores by √dₖ, and not by dₖ" in EXIT_QUESTIONS[0]
    source = (ROOT / "book" / "scale-the-scores.md").read_text(encoding="utf-8")
    exercise = source[source.index(":label: ex-divide-by-d"):]
    assert "Why not divide by $d_k$ instead of $\\sqrt{d_k}$?" in exercise[:200]


@pytest.mark.parametrize("text", INSTRUCTOR_ONLY)
def test_instructor_strings_are_in_the_instructor_edition_only(site, learner_site, text):
    """Each string is where the instructor's edition shows it, and nowhere a learner can read."""
    assert text in (site / INSTRUCTOR_ONLY[text]).read_text(encoding="utf-8")
    found = [name for name, body in _readable(learner_site).items() if text in body]
    assert found == []


def test_the_learner_edition_has_every_other_page(site, learner_site):
    pages = [html_page(p) for p in learner_toc_files()]
    assert len(pages) == len(list((ROOT / "book").glob("*.md"))) - 1 + len(list((ROOT / "notebooks").glob("*.ipynb")))
    assert all((learner_site / p).is_file() for p in pages)
    for page in instructor_pages():
        assert (site / f"{page}.html").is_file() and not (learner_site / f"{page}.html").exists()
        assert not list((learner_site / "_sources").glob(f"{page}.*"))
        assert not list((learner_site / "_launch").rglob(f"{page.rsplit('/', 1)[-1]}.ipynb"))


def test_a_withheld_solution_says_where_it_is(site, learner_site):
    from bs4 import BeautifulSoup

    from attention_book.edition import WITHHELD_NOTE

    learner = BeautifulSoup((learner_site / "book/scale-the-scores.html").read_text(encoding="utf-8"), "html.parser")
    notes = learner.select(".asb-withheld")
    assert len(notes) == 1
    assert notes[0].get_text(" ", strip=True) == f"Solution to Exercise 3.2 {WITHHELD_NOTE}"
    assert "dropdown" not in notes[0]["class"]  # nothing to unfold
    # the other solutions of the chapter are still there, folded
    assert len(learner.select(".solution.dropdown")) == 2
    instructor = BeautifulSoup((site / "book/scale-the-scores.html").read_text(encoding="utf-8"), "html.parser")
    assert not instructor.select(".asb-withheld") and len(instructor.select(".solution.dropdown")) == 3


# --- the extension's pieces, on their own ------------------------------------------------------


def _site_map(tmp_path: Path):
    from sphinx_external_toc.parsing import parse_toc_yaml

    toc = tmp_path / "_toc.yml"
    toc.write_text("format: jb-book\nroot: intro\nparts:\n"
                   "  - caption: Chapters\n    chapters:\n      - file: a\n      - file: b\n"
                   "  - caption: For instructors\n    chapters:\n      - file: teach\n")
    return parse_toc_yaml(toc)


def test_dropping_a_page_drops_its_empty_caption(tmp_path):
    from attention_book.edition import _drop_from_site_map

    site_map = _site_map(tmp_path)
    assert _drop_from_site_map(site_map, {"teach", "nowhere"}) == ["teach"]
    assert "teach" not in site_map
    assert [tree.caption for tree in site_map.root.subtrees] == ["Chapters"]
    assert [str(item) for item in site_map.root.subtrees[0].items] == ["a", "b"]


class _Tags(set):
    def has(self, tag):
        return tag in self


class _Config:
    def __init__(self, site_map, pages):
        self.external_site_map, self.book_instructor_pages, self.exclude_patterns = site_map, pages, ["_build"]


class _App:
    def __init__(self, *tags):
        self.tags = _Tags(tags)


@pytest.mark.parametrize("tags, expected", [((), "learner"), (("learner",), "learner"),
                                            (("instructor",), "instructor")])
def test_the_edition_is_the_builds_tag(tags, expected):
    from attention_book.edition import edition

    assert edition(_App(*tags)) == expected


def test_a_build_cannot_be_both_editions():
    from attention_book.edition import edition

    with pytest.raises(ValueError, match="^tags"):
        edition(_App("learner", "instructor"))


def test_configuring_the_learner_edition_excludes_the_pages(tmp_path):
    from attention_book.edition import _configure

    config, app = _Config(_site_map(tmp_path), ["teach"]), _App()
    _configure(app, config)
    assert app.asb_edition == "learner" and "teach" not in config.external_site_map
    assert config.exclude_patterns == ["_build", "teach.*"]
    config, app = _Config(_site_map(tmp_path), ["teach"]), _App("instructor")
    _configure(app, config)
    assert app.asb_edition == "instructor" and "teach" in config.external_site_map
    assert config.exclude_patterns == ["_build"]


@pytest.mark.parametrize("pages, message", [(["teach.md"], "without its suffix"), ([""], "without its suffix"),
                                            (["nowhere"], "not in the table of contents"),
                                            (["intro"], "root page")])
def test_bad_instructor_pages_are_named(tmp_path, pages, message):
    from attention_book.edition import _configure

    with pytest.raises(ValueError, match=f"^book_instructor_pages: .*{message}"):
        _configure(_App(), _Config(_site_map(tmp_path), pages))


def test_a_withheld_label_that_answers_nothing_is_a_warning(caplog):
    """A typo in book_withheld_solutions would withhold nothing: the strict build fails on it."""
    import logging

    from attention_book.edition import _check_withheld

    class App:
        class config:
            book_withheld_solutions = ["ex-a", "ex-typo"]

    class Env:
        sphinx_exercise_node_order = {"book/x": [{"type": "exercise", "label": "ex-a", "target_label": None},
                                                 {"type": "solution", "label": "s", "target_label": "ex-a"}]}

    with caplog.at_level(logging.WARNING):
        _check_withheld(App, Env)
    assert [r.getMessage() for r in caplog.records] == ["book_withheld_solutions: no solution answers ['ex-typo']"]
