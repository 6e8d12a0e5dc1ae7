"""Self-check quizzes that work on the static page, offline, with the keyboard.

A :class:`Quiz` renders as HTML: one ``<fieldset>`` of radio buttons per question and a
live feedback line. ``_static/quiz.js`` shows, as soon as an answer is chosen (by mouse or
with the arrow keys), whether it is right and *why*: every option carries its own
explanation. Without JavaScript (in a live notebook, say) each question has a folded
"answer" with the correct option and its explanation instead.

Inline maths in questions, options and explanations is written ``\\(...\\)``.
"""

from __future__ import annotations

import html
import itertools
import json
from dataclasses import dataclass, field

__all__ = ["Option", "Question", "Quiz"]

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

    def html(self) -> str:
        uid = f"asb-quiz-{next(_ids)}"
        parts = [f'<div class="asb-quiz mathjax_process" id="{uid}">',
                 f'<p class="asb-quiz-title">{html.escape(self.title)}</p>']
        for qi, q in enumerate(self.questions):
            qid = f"{uid}-q{qi}"
            parts.append(f'<fieldset class="asb-question" id="{qid}"><legend>{html.escape(q.prompt)}</legend>')
            for oi, o in enumerate(q.options):
                oid = f"{qid}-o{oi}"
                parts.append(f'<div class="asb-option"><input type="radio" name="{qid}" id="{oid}" value="{oi}">'
                             f'<label for="{oid}">{html.escape(o.text)}</label></div>')
            data = {"correct": [o.correct for o in q.options], "why": [o.why for o in q.options]}
            right = next(o for o in q.options if o.correct)
            parts.append(
                f'<p class="asb-feedback" role="status" aria-live="polite"></p>'
                f'<details class="asb-answer"><summary>Answer</summary>'
                f'<p>{html.escape(right.text)}: {html.escape(right.why)}</p></details>'
                f'<script type="application/json" class="asb-quiz-data">{json.dumps(data)}</script>'
                "</fieldset>"
            )
        parts.append("</div>")
        return "".join(parts)

    def _repr_html_(self) -> str:
        return self.html()
