"""Handing work in with no server (issue 31, item 5): a student's predictions and quiz codes
survive a reload, save to a file, and that file tallies on the instructor page in the browser,
with the same table as the package's ``attention_scaling.quiz.tally``.

All from disk (file://), as a class offline uses the book.
"""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from attention_scaling.quiz import answer_code, tally

pytestmark = pytest.mark.browser

LAB = "notebooks/lab-break-the-softmax.html"
QUIZ_PAGE = "book/scale-the-scores.html"
TEACH = "book/teach-with-this-book.html"


def _stored(context, url: str, n: int) -> None:
    """Wait until another tab sees ``n`` of this book's kept answers: Chromium hands a page's
    localStorage writes to its browser process asynchronously, so a reload at once may miss them.

    Each try is a new tab, which reads the store afresh from the browser process; one tab that
    waits could keep a copy taken before the writes arrived (a full run once timed out so)."""
    deadline = time.monotonic() + 30
    count = "() => Object.keys(localStorage).filter(k => k.startsWith('asb-')).length"
    while True:
        other = context.new_page()
        other.goto(url, wait_until="domcontentloaded")
        try:
            other.wait_for_function(f"n => ({count})() >= n", arg=n, timeout=2_000)
            return
        except PlaywrightTimeout:
            if time.monotonic() > deadline:
                seen = other.evaluate(count)
                raise AssertionError(f"another tab sees {seen} of the {n} kept answers after 30 s") from None
        finally:
            other.close()


def _save(page, tmp_path) -> tuple[dict, str]:
    """Click the page's "Save my answers to a file"; return the file's JSON and its name."""
    button = page.get_by_role("button", name="Save my answers to a file")
    assert button.count() == 1
    with page.expect_download() as download:
        button.click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    return json.loads(path.read_text(encoding="utf-8")), path.name


def test_answers_survive_a_reload_save_to_a_file_and_tally_on_the_instructor_page(site, browser, tmp_path):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto((site / LAB).as_uri(), wait_until="load")
        boxes = page.locator(".asb-prediction textarea")
        assert boxes.count() >= 2
        boxes.nth(0).fill("softmax([1000, 0]) gives nan")
        boxes.nth(1).fill("It overflows: e^1000 is inf")
        page.locator("#asb-collect-name").fill("Ada L.")
        _stored(context, page.url, 3)
        page.reload(wait_until="load")
        kept = page.evaluate("() => [...document.querySelectorAll('.asb-prediction textarea')].map(b => b.value)")
        assert kept[:2] == ["softmax([1000, 0]) gives nan", "It overflows: e^1000 is inf"]
        assert page.locator("#asb-collect-name").input_value() == "Ada L."  # kept for the whole book
        lab, lab_file = _save(page, tmp_path)
        assert lab_file == "answers-notebooks-lab-break-the-softmax-Ada-L.json"
        assert lab["format"] == "attention-scaling-answers/1" and lab["page"] == LAB and lab["name"] == "Ada L."
        assert [p["text"] for p in lab["predictions"]] == kept
        first = lab["predictions"][0]
        # a box is named after its task's section, not its place on the page
        assert first["id"] == "asb-prediction-task-1-the-naive-softmax" and first["section"] and first["prompt"]
        assert lab["quizzes"] == []
        said = page.locator(".asb-collect-note").inner_text()
        assert said.startswith(f"Saved {lab_file}: 2 of {len(kept)} predictions written, 0 of 0 quiz codes.")

        page.goto((site / QUIZ_PAGE).as_uri(), wait_until="load")
        quiz = page.locator(".asb-quiz")
        question = quiz.locator(".asb-question").first
        data = json.loads(question.locator("script.asb-quiz-data").text_content())
        wrong = data["correct"].index(False)
        question.locator("label").nth(wrong).click()
        code = quiz.locator(".asb-code-value").text_content()
        n_questions = quiz.locator(".asb-question").count()
        key = quiz.get_attribute("data-quiz-key")
        assert code == answer_code(key, [(wrong, False)] + [None] * (n_questions - 1))
        chapter, chapter_file = _save(page, tmp_path)
        assert chapter["quizzes"] == [{"id": quiz.get_attribute("id"), "key": key, "code": code}]
        assert chapter["predictions"] == [] and chapter["name"] == "Ada L."

        # the instructor page: codes pasted from a chat (one mistyped, one with a full stop after
        # it), the two saved files, the chapter's again, a text file and a broken saved file
        right = answer_code(key, [(data["correct"].index(True), True)] + [None] * (n_questions - 1))
        other = answer_code("7QK2", [(1, True), (0, False), None])
        chat = f"10:40 From Bo to Everyone: {right}.\n{other}, 7QK2-Bb.-Z"
        (tmp_path / "notes.txt").write_text("not a saved file", encoding="utf-8")
        (tmp_path / "broken.json").write_text(json.dumps(chapter | {"predictions": "none"}), encoding="utf-8")
        page.goto((site / TEACH).as_uri(), wait_until="load")
        tally_box = page.locator(".asb-tally")
        assert tally_box.count() == 1 and "with JavaScript on" not in tally_box.inner_text()
        page.locator("#asb-tally-codes").fill(chat)
        page.locator("#asb-tally-files").set_input_files(
            [tmp_path / lab_file, tmp_path / chapter_file, tmp_path / chapter_file, tmp_path / "notes.txt",
             tmp_path / "broken.json"])
        tally_box.get_by_role("button", name="Tally").click()
        out = page.locator(".asb-tally-out")
        page.wait_for_function("el => el.textContent.length > 0", arg=out.element_handle())
        assert out.text_content() == "\n".join([
            tally([right, other, "7QK2-Bb.-Z", code]),
            "5 pasted words were not codes and were left out",
            "1 files were older copies of another file (same name and page) and were left out",
            "Not a saved answers file: notes.txt, broken.json"])
        predictions = page.locator(".asb-tally-predictions")
        assert predictions.locator(".asb-tally-page").all_inner_texts() == [f"Predictions on {LAB}: 1 files"]
        summaries = predictions.locator("summary").all_inner_texts()
        assert summaries[0].startswith("Box 1 (") and summaries[0].endswith(": 1 of 1 written")
        assert all(s.endswith(": 0 of 1 written") for s in summaries[2:])
        predictions.locator("summary").first.click()
        box = predictions.locator("details").first
        assert box.locator(".asb-tally-prompt").inner_text() == first["prompt"]
        assert box.locator("li").all_inner_texts() == ["Ada L.: softmax([1000, 0]) gives nan"]

        # a shared computer: Start over empties this page's boxes for the next student
        page.goto((site / LAB).as_uri(), wait_until="load")
        page.once("dialog", lambda dialog: dialog.accept())
        with page.expect_navigation():
            page.get_by_role("button", name="Start over on this page").click()
        page.wait_for_function("() => document.querySelectorAll('.asb-prediction textarea').length > 0")
        assert not any(page.evaluate("() => [...document.querySelectorAll('.asb-prediction textarea')].map(b => b.value)"))
    finally:
        context.close()


def test_pages_without_predictions_or_a_quiz_have_no_save_button(site, browser):
    page = browser.new_page()
    try:
        page.goto((site / "book" / "intro.html").as_uri(), wait_until="load")
        assert page.locator(".asb-prediction, .asb-quiz").count() == 0
        assert page.locator(".asb-collect").count() == 0
    finally:
        page.close()
