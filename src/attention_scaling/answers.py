"""The files students save from the book's pages ("Save my answers to a file", ``_static/quiz.js``),
read in Python: for an instructor who collects them into a folder rather than tallying them on
the instructor page (which does the same in the browser, ``_static/tally.js``).

A file is JSON of format :data:`FORMAT`: the page, the student's name as they typed it, when it
was saved, each prediction box (its id, section, prompt and text) and each quiz's answer code::

    >>> saved = read_answers('{"format": "attention-scaling-answers/1", "page": "book/x.html", '
    ...                      '"name": "Ada", "saved": "2026-12-06T10:00:00Z", "predictions": [], '
    ...                      '"quizzes": [{"id": "q", "key": "7QK2", "code": "7QK2-Ba.-Z"}]}')
    >>> saved.name, saved.codes
    ('Ada', ('7QK2-Ba.-Z',))

:func:`collect` keeps one file per student and page (the newest, as the instructor page does)
and :func:`predictions_table` lists what each student wrote; the quiz codes go to
:func:`attention_scaling.quiz.tally`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

__all__ = ["FORMAT", "Prediction", "Saved", "read_answers", "collect", "predictions_table"]

#: The format the pages write (quiz.js's FORMAT).
FORMAT = "attention-scaling-answers/1"


@dataclass(frozen=True)
class Prediction:
    """One prediction box: its id on the page, its section, what it asked and what was written."""

    id: str
    section: str
    prompt: str
    text: str


@dataclass(frozen=True)
class Saved:
    """One saved file: a student's answers on one page."""

    page: str
    name: str
    saved: str
    predictions: tuple[Prediction, ...]
    codes: tuple[str, ...]
    source: str = ""  # the file it was read from, if any

    @property
    def student(self) -> str:
        """The name as the instructor page matches it: trimmed, case ignored."""
        return self.name.strip().lower()


def _text(value, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, got {type(value).__name__}")
    return value


def read_answers(data, source: str = "") -> Saved:
    """One saved file, from its path, its JSON text, or the parsed dict; ValueError saying what
    is wrong when it is not a file the pages write."""
    if isinstance(data, Path):
        source = source or str(data)
        try:
            data = data.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"data: cannot read {source}: {exc}") from None
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ValueError(f"data: {source or 'the text'} is not JSON ({exc.msg}, line {exc.lineno})") from None
    where = source or "data"
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a saved answers file is a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise ValueError(f"{where}: format must be {FORMAT!r} (a file from the book's Save button), "
                         f"got {data.get('format')!r}")
    page = data.get("page")
    if not isinstance(page, str) or not page:
        raise ValueError(f"{where}: page must name the book's page, got {page!r}")
    predictions, quizzes = data.get("predictions"), data.get("quizzes")
    if not isinstance(predictions, list) or not isinstance(quizzes, list):
        raise ValueError(f"{where}: predictions and quizzes must be lists")
    read = []
    for k, p in enumerate(predictions):
        if not isinstance(p, dict) or not isinstance(p.get("id"), str) or not p["id"]:
            raise ValueError(f"{where}: prediction {k} must have an id")
        read.append(Prediction(p["id"], _text(p.get("section"), f"{where}: prediction {k}'s section"),
                               _text(p.get("prompt"), f"{where}: prediction {k}'s prompt"),
                               _text(p.get("text"), f"{where}: prediction {k}'s text")))
    codes = []
    for k, q in enumerate(quizzes):
        if not isinstance(q, dict):
            raise ValueError(f"{where}: quiz {k} must be an object")
        code = _text(q.get("code"), f"{where}: quiz {k}'s code").strip()
        if code:
            codes.append(code)
    return Saved(page, _text(data.get("name"), f"{where}: name").strip(), _text(data.get("saved"), f"{where}: saved"),
                 tuple(read), tuple(codes), source)


def collect(paths: Iterable, on_error=None) -> tuple[list[Saved], list[tuple[str, str]]]:
    """Read every file in ``paths`` (files, or folders whose ``*.json`` are read); keep the newest
    file per student and page (a file with no name counts on its own, once). Returns the files
    kept and the (path, reason) of each file that could not be read."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        files += sorted(p.glob("*.json")) if p.is_dir() else [p]
    kept: dict[tuple, Saved] = {}
    problems = []
    for path in files:
        try:
            s = read_answers(path)
        except ValueError as exc:
            problems.append((str(path), str(exc)))
            continue
        ident = (s.student, s.page) if s.student else ("", s.page, s.saved, s.predictions, s.codes)
        if ident not in kept or s.saved > kept[ident].saved:
            kept[ident] = s
    return list(kept.values()), problems


def predictions_table(saved: Iterable[Saved]) -> str:
    """What the class wrote in each prediction box, page by page (each page's boxes in its
    order): the prompt, how many wrote something, and each student's text (Markdown), as the
    instructor page lists them."""
    boxes: dict[tuple[str, str], dict] = {}
    for s in saved:
        for p in s.predictions:
            box = boxes.setdefault((s.page, p.id), {"section": p.section, "prompt": p.prompt, "texts": []})
            if p.text.strip():
                box["texts"].append((s.name or "(no name)", p.text.strip()))
    if not boxes:
        return "No predictions."
    lines = []
    # pages in order of their names, each page's boxes in its own order (as the files list them)
    for (page, _id), box in sorted(boxes.items(), key=lambda item: item[0][0]):
        lines.append(f"**{page}, {box['section'] or 'a prediction'}**: {box['prompt']} "
                     f"({len(box['texts'])} wrote one)")
        lines += [f"- {name}: {' '.join(text.split())}" for name, text in box["texts"]]
        lines.append("")
    return "\n".join(lines).rstrip()
