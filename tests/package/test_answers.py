"""Saved answer files read in Python (attention_scaling.answers), as the instructor page's tally
reads them in the browser (_static/tally.js): the same format, one file per student and page
(the newest), files that are not answers named, not dropped silently."""

from __future__ import annotations

import json

import pytest

from attention_scaling.answers import FORMAT, collect, predictions_table, read_answers
from attention_scaling.quiz import answer_code, tally


def _file(name="Ada L.", page="notebooks/lab-break-the-softmax.html", saved="2026-12-06T10:00:00.000Z",
          texts=("nan", "overflow"), code=None):
    return {"format": FORMAT, "page": page, "title": "Lab", "name": name, "saved": saved,
            "predictions": [{"id": f"asb-pred-{k}", "section": f"Task {k + 1}", "prompt": f"Predict {k + 1}",
                             "text": t} for k, t in enumerate(texts)],
            "quizzes": [] if code is None else [{"id": "quiz", "key": code[:4], "code": code}]}


def test_a_file_reads_back_what_the_page_saved(tmp_path):
    code = answer_code("7QK2", [(1, True), (0, False), None])
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(_file(code=code)), encoding="utf-8")
    s = read_answers(path)
    assert (s.page, s.name, s.student, s.codes, s.source) == (
        "notebooks/lab-break-the-softmax.html", "Ada L.", "ada l.", (code,), str(path))
    assert [(p.id, p.section, p.prompt, p.text) for p in s.predictions] == [
        ("asb-pred-0", "Task 1", "Predict 1", "nan"), ("asb-pred-1", "Task 2", "Predict 2", "overflow")]
    assert "Q1: 1 answered, 100 % right first time" in tally(s.codes)


@pytest.mark.parametrize("data, message", [
    ("{not json", "is not JSON"),
    ("[1, 2]", "a JSON object, got list"),
    (json.dumps({**_file(), "format": "something/2"}), "format must be 'attention-scaling-answers/1'"),
    (json.dumps({**_file(), "page": ""}), "page must name"),
    (json.dumps({**_file(), "predictions": "none"}), "predictions and quizzes must be lists"),
    (json.dumps({**_file(), "predictions": [{"text": "x"}]}), "prediction 0 must have an id"),
    (json.dumps({**_file(), "name": 7}), "name must be text"),
])
def test_a_file_that_is_not_answers_is_named(data, message):
    with pytest.raises(ValueError, match=message):
        read_answers(data)


def test_the_newest_file_per_student_and_page_counts_and_bad_files_are_listed(tmp_path):
    old = _file(saved="2026-12-06T10:00:00.000Z", texts=("first try", ""))
    new = _file(name=" ada l. ", saved="2026-12-06T10:05:00.000Z", texts=("second try", "it overflows"))
    other_page = _file(page="book/scale-the-scores.html", texts=("x",))
    anonymous = _file(name="", texts=("no name given",))
    for k, data in enumerate([old, new, other_page, anonymous, anonymous]):
        (tmp_path / f"{k}.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "notes.json").write_text("[]", encoding="utf-8")
    kept, problems = collect(tmp_path)
    assert sorted((s.name, s.page) for s in kept) == [
        ("", "notebooks/lab-break-the-softmax.html"), ("Ada L.", "book/scale-the-scores.html"),
        ("ada l.", "notebooks/lab-break-the-softmax.html")]  # the same anonymous file once
    assert [p for p, _why in problems] == [str(tmp_path / "notes.json")]
    table = predictions_table(kept)
    assert "**notebooks/lab-break-the-softmax.html, Task 1**: Predict 1 (2 wrote one)" in table
    assert "- ada l.: second try" in table and "first try" not in table
    assert "- (no name): no name given" in table
    assert "**notebooks/lab-break-the-softmax.html, Task 2**: Predict 2 (1 wrote one)" in table
    assert predictions_table([]) == "No predictions."
