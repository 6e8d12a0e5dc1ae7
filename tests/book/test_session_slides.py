"""The session's slides as data and as a page (attention_book.deck): they follow the lesson plan,
each is made from the book's content, the audience sees no answer, and only the instructor's
edition has them. The slides in a browser: tests/browser/test_present_the_session.py."""

from __future__ import annotations

import re

import pytest

from attention_book import deck
from attention_scaling import lesson, worksheets
from attention_scaling.derivations import seed_proof

pytestmark = pytest.mark.build


def _text(fragment: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(fragment, "html.parser")
    for mathml in soup.select("mjx-assistive-mml"):  # a typeset formula's text once, not twice
        mathml.decompose()
    return " ".join(soup.get_text().split())


def test_the_slides_follow_the_plan(site):
    slides = deck.slides(site)
    order = [b.slug for b in lesson.SESSION.blocks]
    blocks = [s.block for s in slides]
    assert list(dict.fromkeys(blocks)) == order, "every block has slides, in the plan's order"
    proof = [s for s in slides if s.kind == "proof"]
    assert len(proof) == lesson.PROOF_LINES == len(seed_proof().lines)
    assert [s.data["line"] for s in proof] == list(range(1, lesson.PROOF_LINES + 1))
    stops = [(s.explorer, s.stop) for s in slides if s.kind == "stop"]
    assert stops == ([("scale", k) for k in range(lesson.SCALE_STOPS)]
                     + [("attention", k) for k in range(lesson.ATTENTION_STOPS)])
    # the class predicts before it sees: a question slide opens the scale explorer's stops and
    # each worksheet row's
    for k, s in enumerate(slides):
        if s.kind == "stop" and (k == 0 or slides[k - 1].kind != "stop"):
            assert slides[k - 1].kind == "question", f"slide {k + 1} ({s.title}) comes with no prediction before it"
    assert sum(s.kind == "question" and s.block == "predict" for s in slides) == lesson.WORKSHEET_ROWS
    assert sum(s.kind == "quiz" for s in slides) == lesson.QUIZ_QUESTIONS
    ticket = [s for s in slides if s.kind == "ticket"]
    assert len(ticket) == 1 and all(q in _text(ticket[0].body) for q in worksheets.EXIT_QUESTIONS)


def test_every_block_opens_with_its_minutes_and_cut_cue_in_the_notes(site):
    slides = deck.slides(site)
    for block in lesson.SESSION.blocks:
        notes = " ".join(_text(s.notes) for s in slides if s.block == block.slug)
        assert f"{block.title}, {block.times}" in notes, block.slug
        if block.cut:
            assert block.cut.text in notes, f"{block.slug}: its cut cue is not in the notes"
    assert all(_text(s.notes) for s in slides), "every slide has notes"


def test_the_proof_slides_are_the_checked_proof(site):
    proof = seed_proof()
    slides = [s for s in deck.slides(site) if s.kind == "proof"]
    for line, check, slide in zip(proof.lines, proof.checks, slides):
        assert line.rhs in slide.body, f"line {check.step}: its right side is not on its slide"
        assert ("SymPy checked this line" in slide.body) == (check.method != "definition"), check.step


def test_no_slide_shows_an_answer(site):
    """The answers are in the presenter's notes only: the quiz's right options and their reasons,
    the discussion answers, the hook's and the exit ticket's answers."""
    slides = deck.slides(site)
    shown = " ".join(_text(s.body) + " " + s.title for s in slides)
    answers = []
    for s in slides:
        if s.kind in ("quiz", "discussion", "ticket") or (s.block == "hook" and s.kind == "question"):
            notes = _text(s.notes)
            assert notes, s.title
            answers += [sentence for sentence in re.split(r"(?<=[.!?])\s+", notes) if len(sentence) > 30]
    assert len(answers) >= 10
    leaked = [a for a in answers if a in shown]
    assert leaked == [], f"answers on the audience's screen: {leaked[:3]}"
    quiz = [s for s in slides if s.kind == "quiz"]
    assert all(re.search(r"Answer: [A-D]\b", _text(s.notes)) for s in quiz)
    assert not any(re.search(r"\b(Correct|Not quite)\b", _text(s.body)) for s in quiz)


def test_the_deck_page_is_in_the_instructors_edition_only(site, learner_site):
    page = (site / deck.DECK_PATH).read_text(encoding="utf-8")
    assert page.count('class="asb-slide ') == len(deck.slides(site))
    assert "_static/deck.js" in page and "_static/player.js" in page
    assert "<mjx-container" in page and "\\(" not in page, "its maths is typeset when the book is built"
    assert 'href="../present/session-50min.html"' in (site / "book/teach-with-this-book.html").read_text(encoding="utf-8")
    assert not (learner_site / "present").exists() and not (learner_site / ".instructor-files").exists()


@pytest.mark.parametrize("kwargs, why", [
    ({"block": "hook", "kind": "movie", "title": "x"}, "kind must be one of"),
    ({"block": "nowhere", "kind": "title", "title": "x"}, "slug must name a block"),
    ({"block": "curve", "kind": "stop", "title": "x"}, "names its explorer and stop"),
    ({"block": "curve", "kind": "figure", "title": "x", "explorer": "scale", "stop": 0}, "names its explorer"),
])
def test_a_slide_that_breaks_the_plan_is_refused(kwargs, why):
    with pytest.raises(ValueError, match=why):
        deck.Slide(**kwargs)


def test_slides_need_the_instructors_edition(learner_site):
    with pytest.raises(ValueError, match="instructor's edition"):
        deck.slides(learner_site)
