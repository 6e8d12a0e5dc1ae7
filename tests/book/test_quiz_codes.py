"""Answer codes: what quiz.js shows a student, read back and tallied for the instructor."""

from __future__ import annotations

import pytest

from attention_scaling.quiz import Option, Question, Quiz, answer_code, read_code, tally


def _quiz(prompt="Which?") -> Quiz:
    def q(p, right):
        return Question(p, tuple(Option(t, t == right, f"because {t}") for t in ("alpha", "beta", "gamma")))
    return Quiz("Self-check", [q(prompt, "alpha"), q("And?", "beta"), q("Last?", "gamma")])


def test_code_round_trip_and_letters():
    quiz = _quiz()
    code = answer_code(quiz.key, [(0, True), (2, False), None])
    key, answers, check = code.split("-")
    assert key == quiz.key and answers == "Ac." and len(check) == 1
    assert read_code(code).answers == ((0, True), (2, False), None)
    assert read_code(f"  {code.lower()[:4]}{code[4:]} ").key == quiz.key  # a key typed in lower case


def test_key_changes_with_the_questions():
    assert _quiz().key == _quiz().key
    assert _quiz().key != _quiz("Which one?").key


def test_check_letter_catches_a_mistyped_answer():
    code = answer_code(_quiz().key, [(0, True), (1, True), (2, True)])
    for i, wrong in ((5, "B"), (6, "a"), (7, "."), (2, "Z" if code[2] != "Z" else "Y")):
        typo = code[:i] + wrong + code[i + 1:]
        with pytest.raises(ValueError, match="code"):
            read_code(typo)


def test_tally_counts_first_answers_and_reports_bad_codes():
    quiz = _quiz()
    codes = [answer_code(quiz.key, [(0, True), (1, True), None]),
             answer_code(quiz.key, [(1, False), (1, True), (0, False)]),
             answer_code(quiz.key, [(1, False), (2, False), (2, True)]),
             "ABCD-A-Q", "not a code"]
    table = tally(codes, quiz)
    assert "Quiz %s: 3 codes" % quiz.key in table
    assert "Q1: 3 answered, 33 % right first time" in table
    assert "A (right) alpha: 1" in table and "B beta: 2" in table
    assert "Q3: 2 answered, 50 % right first time" in table
    assert "Unreadable codes (2)" in table and "'not a code'" in table
    other = tally([answer_code("AAAA", [(0, True)])], quiz)
    assert "another key" in other


@pytest.mark.parametrize("call, name", [
    (lambda: answer_code("abc", [(0, True)]), "key"),
    (lambda: answer_code("ABCD", []), "first_answers"),
    (lambda: answer_code("ABCD", [(11, True)]), "first_answers"),
    (lambda: read_code(42), "code"),
    (lambda: read_code("ABCD-A"), "code"),
    (lambda: tally("ABCD-A-B"), "codes"),
    (lambda: tally([], quiz="q"), "quiz"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
