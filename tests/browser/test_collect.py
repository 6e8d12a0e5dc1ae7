"""Handing work in with no server (issue 31, item 5): a student's predictions and quiz codes
survive a reload, save to a file, and that file tallies on the instructor page in the browser,
with the same table as the package's ``attention_scaling.quiz.tally``.

All from disk (file://), as a class offline uses the book.
"""

from __future__ import annotations

import json

import pytest

from attention_scaling.quiz import answer_code, tally

pytestmark = pytest.mark.browser

LAB = "notebooks/lab-break-the-softmax.html"
QUIZ_PAGE = "book/scale-the-scores.html"
TEACH = "book/teach-with-this-book.html"


def _save(page, tmp_path) -> dict:
    """Click the page's "Save my answers to a file" and return the file's JSON."""
    button = page.get_by_role("button", name="Save my answers to a file")
    assert button.count() == 1
    with page.expect_download() as download:
        button.click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    return json.loads(path.read_text(encoding="utf-8"))


def test_answers_survive_a_reload_save_to_a_file_and_tally_on_the_instructor_page(site, browser, tmp_path):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto((site / LAB).as_uri(), wait_until="load")
        boxes = page.locator(".asb-prediction textarea")
        assert boxes.count() >= 2
        boxes.nth(0).fill("softmax([1000, 0]) gives nan")
        boxes.nth(1).fill("It overflows: e^1000 is inf")
        page.reload(wait_until="load")
        kept = page.evaluate("() => [...document.querySelectorAll('.asb-prediction textarea')].map(b => b.value)")
        assert kept[:2] == ["softmax([1000, 0]) gives nan", "It overflows: e^1000 is inf"]
        lab = _save(page, tmp_path)
        assert lab["format"] == "attention-scaling-answers/1" and lab["page"] == LAB
        assert [p["text"] for p in lab["predictions"]] == kept
        assert lab["predictions"][0]["id"] == "asb-prediction-1" and lab["predictions"][0]["section"]
        assert lab["quizzes"] == []

        page.goto((site / QUIZ_PAGE).as_uri(), wait_until="load")
        quiz = page.locator(".asb-quiz")
        first = quiz.locator(".asb-question").first
        data = json.loads(first.locator("script.asb-quiz-data").text_content())
        wrong = data["correct"].index(False)
        first.locator("label").nth(wrong).click()
        code = quiz.locator(".asb-code-value").text_content()
        n_questions = quiz.locator(".asb-question").count()
        key = quiz.get_attribute("data-quiz-key")
        assert code == answer_code(key, [(wrong, False)] + [None] * (n_questions - 1))
        chapter = _save(page, tmp_path)
        assert chapter["quizzes"] == [{"id": quiz.get_attribute("id"), "key": key, "code": code}]
        assert chapter["predictions"] == []

        # the instructor page: codes pasted (one mistyped) and the two saved files
        pasted = [answer_code(key, [(data["correct"].index(True), True)] + [None] * (n_questions - 1)),
                  answer_code("7QK2", [(1, True), (0, False), None]), "7QK2-Bb.-Z"]
        (tmp_path / "notes.txt").write_text("not a saved file", encoding="utf-8")
        page.goto((site / TEACH).as_uri(), wait_until="load")
        tally_box = page.locator(".asb-tally")
        assert tally_box.count() == 1 and "with JavaScript on" not in tally_box.inner_text()
        page.locator("#asb-tally-codes").fill(",\n".join(pasted))
        page.locator("#asb-tally-files").set_input_files(
            [tmp_path / f"answers-{LAB.replace('/', '-').removesuffix('.html')}.json",
             tmp_path / f"answers-{QUIZ_PAGE.replace('/', '-').removesuffix('.html')}.json",
             tmp_path / "notes.txt"])
        tally_box.get_by_role("button", name="Tally").click()
        out = page.locator(".asb-tally-out")
        page.wait_for_function("el => el.textContent.length > 0", arg=out.element_handle())
        assert out.text_content() == tally(pasted + [code]) + "\nNot a saved answers file: notes.txt"
        predictions = page.locator(".asb-tally-predictions")
        assert predictions.locator(".asb-tally-page").all_inner_texts() == [f"Predictions on {LAB}: 1 files"]
        summaries = predictions.locator("summary").all_inner_texts()
        assert summaries[0].startswith("Box 1 (") and summaries[0].endswith(": 1 of 1 written")
        assert all(s.endswith(": 0 of 1 written") for s in summaries[2:])
        predictions.locator("summary").first.click()
        assert predictions.locator("details").first.locator("li").all_inner_texts() == ["softmax([1000, 0]) gives nan"]
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
