"""Self-check quizzes that work on the static page, offline, with the keyboard.

A :class:`Quiz` renders as HTML: one ``<fieldset>`` of radio buttons per question and a
live feedback line. ``_static/quiz.js`` shows, as soon as an answer is chosen (by mouse or
with the arrow keys), whether it is right and *why*: every option carries its own
explanation. Where the page's script does not run (a live notebook: JupyterLab renders a
cell's HTML but runs no script in it), the same feedback comes from the quiz's own
stylesheet: each option's explanation is in the HTML, hidden, and a ``:has(:checked)`` rule
shows the chosen one, only while quiz.js has not taken the question over (``asb-ready``).
The answer code needs the script, so its line stays hidden until quiz.js fills it in.
Each question also has a folded "answer" with the correct option and its explanation.

Inline maths in questions, options and explanations is written ``\\(...\\)``.

**Answer codes.** Once a question is answered, the quiz shows a short code such as
``7QK2-Bc.-B`` that a student can copy and hand in through any form: the quiz's key (four
characters that change when its questions change), then the *first* answer given to each
question (its letter, capital when right, small when wrong, ``.`` when unanswered), then a
check letter that catches most typing slips. :func:`tally` turns a class's codes into counts
per question and option, with no server anywhere: the page computes the code in the
student's browser (``_static/quiz.js``, the same rules as :func:`answer_code`).
"""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["Option", "Question", "Quiz", "answer_code", "read_code", "tally"]

_ids = itertools.count()

#: Fewest options a question may have.
MIN_OPTIONS = 3
#: The correct option may be at most this much longer than the longest wrong one.
GIVEAWAY_RATIO = 1.5


@dataclass(frozen=True)
class Option:
    text: str
    correct: bool
    why: str

    def __post_init__(self):
        if not self.text.strip():
            raise ValueError("text must not be empty")
        if not self.why.strip():
            raise ValueError("why must explain the option")


@dataclass(frozen=True)
class Question:
    prompt: str
    options: tuple

    def __post_init__(self):
        if not self.prompt.strip():
            raise ValueError("prompt must not be empty")
        if len(self.options) < MIN_OPTIONS or not all(isinstance(o, Option) for o in self.options):
            raise ValueError(f"options must be at least {MIN_OPTIONS} Option objects: with two, "
                             "ruling one out gives the answer away")
        if sum(o.correct for o in self.options) != 1:
            raise ValueError("options must contain exactly one correct answer")
        right = next(o for o in self.options if o.correct)
        longest_wrong = max(len(o.text) for o in self.options if not o.correct)
        if len(right.text) > GIVEAWAY_RATIO * longest_wrong:
            raise ValueError(f"options: the correct one ({len(right.text)} characters) is more than "
                             f"{GIVEAWAY_RATIO}x longer than every wrong one ({longest_wrong}); "
                             "a hedged, detailed answer gives itself away")


@dataclass
class Quiz:
    title: str
    questions: list = field(default_factory=list)

    def __post_init__(self):
        if not self.questions or not all(isinstance(q, Question) for q in self.questions):
            raise ValueError("questions must be a non-empty list of Question objects")

    @property
    def key(self) -> str:
        """Four characters naming this quiz's content: its title, prompts and options."""
        text = json.dumps([self.title, [[q.prompt, [(o.text, o.correct) for o in q.options]]
                                        for q in self.questions]])
        return base64.b32encode(hashlib.sha256(text.encode()).digest()).decode()[:KEY_LENGTH]

    def html(self) -> str:
        uid = f"asb-quiz-{next(_ids)}"
        parts = [f'<div class="asb-quiz mathjax_process" id="{uid}" data-quiz-key="{self.key}">',
                 f'<p class="asb-quiz-title">{html.escape(self.title)}</p>']
        parts.append(_notebook_feedback_css(max(len(q.options) for q in self.questions)))
        for qi, q in enumerate(self.questions):
            qid = f"{uid}-q{qi}"
            parts.append(f'<fieldset class="asb-question" id="{qid}"><legend>{html.escape(q.prompt)}</legend>')
            for oi, o in enumerate(q.options):
                oid = f"{qid}-o{oi}"
                # data-lm-suppress-shortcuts (bare: Lumino asks only whether it is there) on the radio
                # itself, so that JupyterLab runs no notebook shortcut for a key pressed on it and the
                # arrow keys move between the options, not to the next cell. Not once on the quiz's
                # div: Lumino matches each element from the key's target up, the target first, and
                # stops only at the element that has the attribute, so the focused radio still
                # matched the command-mode selector (.jp-Notebook.jp-mod-commandMode :focus ...).
                parts.append(f'<div class="asb-option"><input type="radio" name="{qid}" id="{oid}" value="{oi}"'
                             ' data-lm-suppress-shortcuts>'
                             f'<label for="{oid}">{html.escape(o.text)}</label></div>')
            data = {"correct": [o.correct for o in q.options], "why": [o.why for o in q.options]}
            right = next(o for o in q.options if o.correct)
            parts.extend(  # the notebook's feedback (see _notebook_feedback_css); quiz.js's is below
                f'<p class="asb-why asb-why-{oi}" hidden>'
                f'{"Correct. " if o.correct else "Not quite. "}{html.escape(o.why)}</p>'
                for oi, o in enumerate(q.options))
            parts.append(
                f'<p class="asb-feedback" role="status" aria-live="polite"></p>'
                f'<details class="asb-answer"><summary>Answer</summary>'
                f'<p>{html.escape(right.text)}: {html.escape(right.why)}</p></details>'
                f'<script type="application/json" class="asb-quiz-data">{json.dumps(data)}</script>'
                "</fieldset>"
            )
        parts.append(
            '<div class="asb-code" hidden><p>Your answer code (your first answer to each question; '
            'hand it in if your teacher asks): <output class="asb-code-value"></output> '
            '<button type="button" class="asb-code-copy">Copy</button></p></div>')
        parts.append("</div>")
        return "".join(parts)

    def _repr_html_(self) -> str:
        return self.html()


def _notebook_feedback_css(n_options: int) -> str:
    """The feedback of a quiz where quiz.js does not run: the chosen option's explanation
    (``.asb-why-N``, hidden by default) is shown while its question is not ``asb-ready``,
    the class quiz.js gives a question it handles. The rules are the same for every quiz (a
    question's options are its own descendants), so they name no quiz: short, since every
    page with a quiz carries them."""
    chosen = ",".join(f'.asb-question:not(.asb-ready):has([value="{oi}"]:checked) .asb-why-{oi}'
                      for oi in range(n_options))
    return f"<style>{chosen}{{display:block;margin:0.3em 0 0}}</style>"


#: Characters of a quiz key, and the letters that name options (A = the first).
KEY_LENGTH = 4
LETTERS = "ABCDEFGHIJ"
_CODE = re.compile(r"([A-Z2-7]{4})-([A-Ja-j.]+)-([A-W])")


def _check_letter(body: str) -> str:
    """A letter from the weighted sum of the characters (quiz.js computes the same)."""
    return chr(ord("A") + sum((i + 1) * ord(c) for i, c in enumerate(body)) % 23)


def answer_code(key: str, first_answers: list) -> str:
    """The code quiz.js shows: ``key-answers-check``. ``first_answers`` holds, per question,
    ``None`` (unanswered) or ``(option index, right)``."""
    if not isinstance(key, str) or not re.fullmatch(r"[A-Z2-7]{4}", key):
        raise ValueError(f"key must be four characters A-Z or 2-7, got {key!r}")
    if not isinstance(first_answers, (list, tuple)) or not first_answers:
        raise ValueError("first_answers must be a non-empty list")
    letters = []
    for answer in first_answers:
        if answer is None:
            letters.append(".")
            continue
        if (not isinstance(answer, (list, tuple)) or len(answer) != 2 or not isinstance(answer[0], int)
                or not 0 <= answer[0] < len(LETTERS)):
            raise ValueError(f"first_answers: {answer!r} is not None or (option index, right)")
        letter = LETTERS[answer[0]]
        letters.append(letter if answer[1] else letter.lower())
    body = f"{key}-{''.join(letters)}"
    return f"{body}-{_check_letter(body)}"


@dataclass(frozen=True)
class Code:
    """One student's code, read: the quiz key and, per question, None or (option index, right)."""

    key: str
    answers: tuple


def read_code(code: str) -> Code:
    """Read one answer code; ValueError (naming ``code``) when it is malformed or mistyped."""
    if not isinstance(code, str):
        raise ValueError(f"code must be a string, got {type(code).__name__}")
    text = code.strip().upper()[:KEY_LENGTH] + code.strip()[KEY_LENGTH:]
    m = _CODE.fullmatch(text)
    if not m:
        raise ValueError(f"code {code!r} is not of the form KEY-answers-C (e.g. 7QK2-Bc.-B)")
    body = f"{m[1]}-{m[2]}"
    if _check_letter(body) != m[3]:
        raise ValueError(f"code {code!r} fails its check letter: a character was mistyped")
    answers = tuple(None if c == "." else (LETTERS.index(c.upper()), c.isupper()) for c in m[2])
    return Code(m[1], answers)


def tally(codes: Iterable[str], quiz: Quiz | None = None) -> str:
    """A class's answer codes as a table per quiz key: for each question, how many students
    first chose each option, and the share that was right first time. Codes that cannot be
    read are counted and listed, not dropped silently. With ``quiz``, options are named and
    codes from other quizzes (another key) are reported as such."""
    if isinstance(codes, str) or not isinstance(codes, Iterable):
        raise ValueError("codes must be a list of answer codes (strings)")
    if quiz is not None and not isinstance(quiz, Quiz):
        raise ValueError(f"quiz must be a Quiz, got {type(quiz).__name__}")
    read: dict[str, list] = {}
    bad: list = []
    for code in codes:
        try:
            c = read_code(code)
        except ValueError:
            bad.append(code)
            continue
        read.setdefault(c.key, []).append(c)
    lines = []
    for key, group in sorted(read.items()):
        known = quiz is not None and key == quiz.key
        lines.append(f"Quiz {key}: {len(group)} codes" + ("" if quiz is None or known else
                                                          " (not the quiz given: another key)"))
        n_questions = max(len(c.answers) for c in group)
        for qi in range(n_questions):
            given = [c.answers[qi] for c in group if qi < len(c.answers) and c.answers[qi] is not None]
            right = sum(1 for _, ok in given if ok)
            counts: dict[int, int] = {}
            for index, _ in given:
                counts[index] = counts.get(index, 0) + 1
            share = f"{100 * right / len(given):.0f} % right first time" if given else "no answers"
            lines.append(f"  Q{qi + 1}: {len(given)} answered, {share}")
            for index in sorted(counts):
                name = LETTERS[index]
                if known and quiz is not None and qi < len(quiz.questions) and index < len(quiz.questions[qi].options):
                    option = quiz.questions[qi].options[index]
                    name += f" {'(right) ' if option.correct else ''}{option.text}"
                lines.append(f"    {name}: {counts[index]}")
    if bad:
        lines.append(f"Unreadable codes ({len(bad)}): " + ", ".join(map(repr, bad)))
    return "\n".join(lines) if lines else "No codes."
