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
    assert sum(s.title.startswith("Predict, row") for s in slides) == lesson.WORKSHEET_ROWS
    hook = [s.kind for s in slides if s.block == "hook"]
    assert hook == ["title", "question", "answer"], "the hook is asked, then answered"
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


def _sentences(fragment: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", _text(fragment)) if len(s) > 30]


def test_no_slide_shows_an_answer_before_its_question_is_answered(site):
    """The answers are in the presenter's notes: no slide up to a question's shows its answer;
    only the hook's is shown at all, on the slide after it (the plan's "the answer, P₁(1 − P₁)").
    The quiz's right options and reasons, the discussion answers, the worksheet's and the exit
    ticket's answers are on no slide."""
    slides = deck.slides(site)
    shown = [_text(s.body) + " " + s.title for s in slides]
    asked = 0
    for k, s in enumerate(slides):
        if s.kind not in ("question", "quiz", "discussion", "ticket"):
            continue
        answers = _sentences(s.notes)
        assert answers, f"slide {k + 1} ({s.title}): its notes give no answer"
        asked += 1
        shown_after = [] if s.block == "hook" else shown[k + 1:]  # only the hook's answer follows it
        leaked = [a for a in answers if any(a in text for text in shown[:k + 1] + shown_after)]
        assert leaked == [], f"slide {k + 1} ({s.title}): its answer is on the screen: {leaked[:2]}"
    assert asked >= 14
    hook_answer = _sentences(slides[1].notes)[0]
    assert hook_answer[:40] in shown[2], "the hook's answer is the next slide"
    quiz = [s for s in slides if s.kind == "quiz"]
    assert all(re.search(r"Answer: [A-D]\b", _text(s.notes)) for s in quiz)
    assert not any(re.search(r"\b(Correct|Not quite)\b", _text(s.body)) for s in quiz)


def test_the_deck_page_is_in_the_instructors_edition_only(site, learner_site):
    page = (site / deck.DECK_PATH).read_text(encoding="utf-8")
    assert page.count('class="asb-slide ') == len(deck.slides(site))
    assert 'src="deck.js"' in page and "_static/player.js" in page
    for asset in deck.ASSETS:  # beside the slides, not in _static (which every page of the book loads)
        assert (site / "present" / asset).is_file() and not (site / "_static" / asset).exists()
        assert not (learner_site / "present" / asset).exists()
    assert "deck.js" not in (site / "book/intro.html").read_text(encoding="utf-8")
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
