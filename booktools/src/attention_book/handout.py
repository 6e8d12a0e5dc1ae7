"""Session handouts: what a student and an instructor print for each session the instructor page plans.

``make handout`` (``scripts/make_handout.py``) writes :data:`DOCUMENTS` to ``_build/handout/``::

    session-50min-student.pdf      the four-page student sheet (hook and notation; the proof;
                                   the worksheet; the quiz), a part a page
    session-50min-exit-ticket.pdf  the exit ticket, one page
    session-50min-after.pdf        after the session: the chapters' text, the explorers' strips
    session-50min-instructor.pdf   a run sheet, the plan, the material, an answer key
    workshop-2h-student.pdf        the session's material and three labs; the exit ticket on
                                   the last sheet (an odd page: the back of no lab page)
    workshop-2h-instructor.pdf

Each is assembled here as ONE self-contained HTML document, in the order of the plan on
``book/teach-with-this-book.md``, from the built pages (their sections, figures and maths)
and from the package (the explorers' modules drawn at the plan's stops, :mod:`attention_scaling.lesson`;
the worksheet's steps and the exit ticket, :mod:`attention_scaling.worksheets`), then printed
once by headless Chromium (twice, in fact: the first print tells where each section landed,
and the contents page of the second print gives those page numbers).

What goes where:

* What a student holds has no instructor material and no answers: the built pages' answers
  (``details.asb-answer``, folded answers, exercise solutions, the quiz's answers and its
  answer key) are left out, and every "Predict" box becomes a labelled space to write in.
* The instructor version starts with the plan (timings, slider settings, misconceptions,
  discussion questions), then has the same student material, then an ANSWER KEY.
* Nothing interactive is printed: a player becomes a strip of its module's SVG drawings at
  the plan's stops (Chromium runs the module before it prints), each captioned with its
  settings and the package's readout; buttons, inputs, "Show code" toggles and
  hidden check cells are dropped.

Needs BeautifulSoup (``beautifulsoup4``, pinned in requirements.txt), pypdf and Playwright
(requirements-test.txt); they are imported only when used.
"""

from __future__ import annotations

import base64
import html
import io
import json
import mimetypes
import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from attention_scaling import lesson, worksheets
from attention_scaling.readout import readout_html

__all__ = ["SESSIONS", "VERSIONS", "DOCUMENTS", "OUT_DIR", "filename", "handout_html", "strip_html",
           "print_handout", "make_handouts", "outline", "wait_for_maths", "MEASURE_JS"]

#: Sessions the instructor page plans, and the versions of each.
SESSIONS = ("session-50min", "workshop-2h")
VERSIONS = ("student", "exit-ticket", "after", "instructor")
#: What ``make handout`` prints, (session, version) each. The 50-minute session: the student
#: sheet (four pages: the hook, the notation and the proof; the worksheet; the quiz), the exit
#: ticket on a sheet of its own, the "after the session" handout (the chapters' text and the
#: explorers at each stop) and the instructor's version. The workshop: the student's packet
#: (its exit ticket on the last sheet, the back of no lab page) and the instructor's.
DOCUMENTS = (("session-50min", "student"), ("session-50min", "exit-ticket"), ("session-50min", "after"),
             ("session-50min", "instructor"), ("workshop-2h", "student"), ("workshop-2h", "instructor"))
#: What each version is called on its cover.
WHO = {"student": "Student sheet", "exit-ticket": "Exit ticket", "after": "After the session",
       "instructor": "Instructor's handout, with the plan and the answer key"}
#: Where ``make handout`` writes the PDFs, relative to the repository.
OUT_DIR = Path("_build") / "handout"
TITLE = worksheets.SESSION
SESSION_NAMES = {"session-50min": "50-minute session", "workshop-2h": "2-hour workshop"}
#: The header of the answer key: the instructor version ends with it.
ANSWER_KEY = "Answer key"
#: Colours and styles of the main explorer, named in words (a printout may be grey).
ATTENTION_LEGEND = ("Red, filled bars, solid mean lines, round points: unscaled softmax(q·k). "
                    "Blue, outlined bars, dashed mean lines, hollow squares, hatched hump: "
                    "scaled softmax(q·k/√dₖ). Bands: the middle 80 % of 200 queries. Right panel: "
                    "the predicted spreads as steps, dashed for unscaled, dotted for scaled.")
LEGENDS = {
    "attention": ATTENTION_LEGEND,
    "scale": ("Left, grey bars: the weights; middle, purple bars: P(1−P); right: the Jacobian, purple and + above 0 "
              "(its diagonal), orange and − below 0 (beside the diagonal). Dashed line, grey band: the mean and "
              "middle 80 % of 200 draws; dotted line: the ceiling ¼ of P(1−P)."),
    "normalization": ("Left: this draw's weights as bars, in its mode's colour; dashed line and grey band: their "
                      "mean and middle 80 % over 200 queries. Right, the mean largest weight against m: solid, "
                      "scaled by 1/√dₖ; dashed with squares, QK-norm; dotted with circles, LayerNorm on q, k "
                      "(where two coincide both markers show); bands: middle 80 %; dot: this draw."),
}
#: Page margins of the print (the footer with the page number sits in the bottom one).
MARGIN = {"top": "10mm", "bottom": "14mm", "left": "14mm", "right": "14mm"}


def filename(session: str, version: str) -> str:
    """``session-50min-student.pdf`` and so on, for a document of :data:`DOCUMENTS`."""
    if session not in SESSIONS:
        raise ValueError(f"session must be one of {', '.join(SESSIONS)}, got {session!r}")
    if (session, version) not in DOCUMENTS:
        versions = [v for s, v in DOCUMENTS if s == session]
        raise ValueError(f"version must be one of {', '.join(versions)} for {session}, got {version!r}")
    return f"{session}-{version}.pdf"


# --- the players as strips ------------------------------------------------------------------

@lru_cache(maxsize=None)
def _explorer(name: str):
    from attention_scaling import explorables

    makers = {"attention": explorables.attention_explorer, "scale": explorables.scale_explorer,
              "normalization": explorables.normalization_explorer}
    if name not in makers:
        raise ValueError(f"explorer must be one of {', '.join(makers)}, got {name!r}")
    return makers[name]()


def _settings_text(explorer, settings) -> str:
    from attention_scaling.explorables import plain_text

    parts = []
    for c in explorer.controls:
        value = c.show(settings[c.name])
        parts.append(f"{plain_text(c.label)} = {value}{' ' + c.unit if c.unit and not c.is_choice else ''}")
    return "; ".join(parts)


class _Stop(NamedTuple):
    stop: lesson.Stop
    settings: str  # the settings in words
    alt: str
    readout: object  # attention_scaling.readout.Readout


@lru_cache(maxsize=None)
def _frames(name: str) -> tuple:
    """Each stop of explorer ``name``'s lesson with its settings in words and the package's readout."""
    explorer = _explorer(name)
    out = []
    for stop in lesson.stops(name):
        lesson.check_stops(name, {c.name: c.values for c in explorer.controls}, (stop,))
        readout = explorer.readout(**stop.settings)
        out.append(_Stop(stop, _settings_text(explorer, stop.settings), readout.alt, readout))
    return tuple(out)


def _module_script(name: str) -> str:
    """What draws explorer ``name``'s stops in the printed document: its view's bundle (once a
    document), its payload, and a script that mounts the view, without controls, in each
    ``.ho-module`` of the strip at its stop's settings, keeping only the drawing (the strip
    prints the package's readout beside it). Chromium runs it before it prints."""
    from attention_scaling.explorables.page import modules_script
    from attention_scaling.web import GLOBAL

    explorer = _explorer(name)
    payload = json.dumps(explorer.payload(), separators=(",", ":")).replace("</", "<\\/")
    mount = json.dumps(explorer.web)
    return (modules_script(explorer.web) + f'<script type="application/json" class="ho-payload">{payload}</script>'
            "<script>(function () {\n"
            f"  var strip = document.currentScript.parentElement, web = window.{GLOBAL};\n"
            "  var payload = JSON.parse(strip.querySelector('script.ho-payload').textContent);\n"
            "  strip.querySelectorAll('.ho-module').forEach(function (box) {\n"
            f"    web[{mount}](box, payload, Object.assign(JSON.parse(box.dataset.values), {{slider: false}}));\n"
            "    box.querySelectorAll('.asb-readout, .asb-numbers, .asb-key').forEach(function (e) { e.remove(); });\n"
            "  });\n"
            "})();</script>")


def strip_html(name: str, instructor: bool = False) -> str:
    """The player ``name`` as a strip of its module's drawings at the lesson's stops, each
    captioned with its settings and the package's readout (and, for the instructor, the stop's
    caption)."""
    from attention_scaling.explorables import plain_text

    frames = _frames(name)
    title = plain_text(_explorer(name).title)
    items = []
    head = (f'<p class="ho-strip-title">{html.escape(title)}: the {len(frames)} stops of the session plan</p>'
            f'<p class="ho-legend">{html.escape(LEGENDS[name])}</p>')
    for k, (stop, settings, alt, readout) in enumerate(frames, 1):
        said = f' <span class="ho-stop-caption">{html.escape(stop.caption)}</span>' if instructor else ""
        values = html.escape(json.dumps(stop.settings, separators=(",", ":")))
        items.append(
            f'<figure class="ho-frame">{head if k == 1 else ""}'
            f'<figcaption class="ho-frame-head"><b>Stop {k} of {len(frames)}.</b> '
            f'{html.escape(settings)}.{said}</figcaption>'
            f'<div class="ho-module" data-values="{values}" role="img" aria-label="{html.escape(alt)}"></div>'
            f'<div class="ho-readout">{readout_html(readout, live_region=False)}</div></figure>')
    return f'<div class="ho-strip" data-explorer="{name}">{"".join(items)}{_module_script(name)}</div>'


# --- pieces of the built pages ----------------------------------------------------------------

class Page(NamedTuple):
    path: Path  # the built HTML file
    soup: object


@lru_cache(maxsize=None)
def _page(site: str, name: str) -> Page:
    from bs4 import BeautifulSoup

    path = Path(site) / name
    if not path.is_file():
        raise FileNotFoundError(f"not in the built book (run make book first): {path}")
    return Page(path, BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser"))


def _select(site: Path, name: str, selector: str):
    """A fresh copy of the first element matching the CSS ``selector`` on built page ``name``
    (the handouts' sections, the slides' pieces); a page without one is an error."""
    found = _page(str(site), name).soup.select_one(selector)
    if found is None:
        raise ValueError(f"{name} has nothing matching {selector!r}")
    return _soup(str(found)).find()


def _section(site: Path, name: str, section_id: str):
    """A fresh copy of one section of a built page, and the page's path."""
    return _select(site, name, f'section[id="{section_id}"]'), _page(str(site), name).path


def _is_answer(details) -> bool:
    summary = details.find("summary")
    text = summary.get_text(" ", strip=True) if summary else ""
    return "asb-answer" in (details.get("class") or []) or bool(re.search(r"\banswers?\b", text, re.I))


def _answer_html(details) -> str:
    summary = details.find("summary")
    title = summary.get_text(" ", strip=True) if summary else "Answer"
    title = re.sub(r"\s*\(open it.*?\)\s*$", "", title)
    section = details.find_parent("section")
    heading = section.find(["h2", "h3"]) if section else None
    if heading:  # say which task it answers: "Task 2: ...: answer"
        title = f"{heading.get_text(' ', strip=True)}: {title[0].lower() + title[1:]}"
    if summary:
        summary.decompose()
    return f'<div class="ho-answer"><p class="ho-answer-title">{html.escape(title)}</p>{details.decode_contents()}</div>'


def _write_space(label: str, tall: bool = False) -> str:
    cls = "ho-lines ho-tall" if tall else "ho-lines"
    return f'<div class="ho-write"><p class="ho-write-label">{html.escape(label)}</p><div class="{cls}"></div></div>'


def _quiz(quiz, key: list, where: str) -> str:
    """A quiz as printed questions with lettered options; its answers go to ``key``."""
    out = ['<div class="ho-quiz mathjax_process"><p class="ho-quiz-title">Self-check</p><ol>']
    answers = []
    for q in quiz.select("fieldset.asb-question"):
        legend = q.find("legend").decode_contents()
        options = [o.find("label").decode_contents() for o in q.select("div.asb-option")]
        letters = "ABCDEFGH"
        items = "".join(f"<li><b>{letters[i]}.</b> {o}</li>" for i, o in enumerate(options))
        out.append(f'<li><p>{legend}</p><ul class="ho-options">{items}</ul></li>')
        data = q.find("script", class_="asb-quiz-data")
        correct = json.loads(data.string)["correct"] if data else []
        right = [letters[i] for i, ok in enumerate(correct) if ok]
        ans = q.find("details", class_="asb-answer")
        why = ans.find("p").decode_contents() if ans and ans.find("p") else ""
        answers.append(f"<li><p><b>{', '.join(right)}.</b> {why}</p></li>")
    out.append("</ol></div>")
    key.append((where, f'<ol class="mathjax_process">{"".join(answers)}</ol>'))
    return "".join(out)


#: A sentence or clause of a chapter that points the web reader to a "Going deeper" fold
#: (folds.py): "(the fold has the table)", "; the fold explains how ...", "The fold below ...".
_FOLD_POINTER = re.compile(r"\s*\(the fold\b[^)]*\)|;\s+the fold\b|(?:(?<=[.!?])|^)\s*The fold\b")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def _drop_fold_pointer(text_node) -> bool:
    """Cut the first fold pointer out of ``text_node`` (a string of a paragraph) up to the end of its
    sentence, which may lie past maths in a later string; a clause after ";" leaves a full stop."""
    from bs4 import NavigableString

    text = str(text_node)
    found = _FOLD_POINTER.search(text)
    if found is None:
        return False
    head, rest = text[:found.start()], text[found.end():]
    if found.group().lstrip().startswith("("):  # a parenthesis: just that
        text_node.replace_with(NavigableString(head + rest))
        return True
    stop = "." if found.group().startswith(";") else ""
    end = _SENTENCE_END.search(rest)
    if end is not None:
        text_node.replace_with(NavigableString(head + stop + rest[end.end():]))
        return True
    node = text_node.next_sibling
    text_node.replace_with(NavigableString(head + stop))
    while node is not None:  # the sentence runs on past maths or code: drop up to its end
        following = node.next_sibling
        if isinstance(node, NavigableString) and (end := _SENTENCE_END.search(str(node))):
            node.replace_with(NavigableString(str(node)[end.end():]))
            break
        node.extract()
        node = following
    return True


def _open_folds(section) -> None:
    """Print a "Going deeper" fold (folds.py) open and unboxed, as the book's own print does
    (``_static/nav.js`` opens them, ``book.css`` drops their frame), and drop the words that
    point the web reader to a fold: in print there is none."""
    from bs4 import NavigableString

    for fold in section.select("details.asb-deeper"):
        body = fold.find("div", class_="asb-deeper-body")
        if body is not None:
            fold.replace_with(body)
            body.unwrap()
        else:
            fold.decompose()
    for block in section.find_all(["p", "li"]):
        while any(_drop_fold_pointer(t) for t in block.find_all(string=True, recursive=False)
                  if isinstance(t, NavigableString) and "fold" in t):
            pass


def _clean(section, page_path: Path, instructor: bool, key: list, where: str, drop=()):
    """Make a built section printable: demote its headings, drop controls and hidden cells,
    inline images, turn players into strips and answers into key entries (or nothing)."""
    for quiz in section.select("div.asb-quiz"):  # first: its answers are in its scripts
        quiz.replace_with(_soup(_quiz(quiz, key, where)))
    _open_folds(section)
    for sel in ["a.headerlink", "span.section-number", "script", "button", ".asb-code", "p.asb-feedback"]:
        for t in section.select(sel):
            t.decompose()
    for selector in drop:
        for t in section.select(selector):
            t.decompose()
    for player in section.select("div.asb-player"):
        name = player.get("id", "").split("-")[1]
        player.replace_with(_soup(strip_html(name, instructor)))
    for sol in section.select("div.solution"):
        sol.decompose()  # exercise solutions go to the key explicitly (see _exercise)
    for cell in section.select("div.cell"):  # hidden code (checks, plots): not printed
        for d in cell.select("details.hide"):
            d.decompose()
        if not cell.get_text(strip=True) and not cell.find("img"):
            cell.decompose()
    for d in section.find_all("details"):
        if _is_answer(d):
            key.append((where, _answer_html(d)))
            d.decompose()
        else:  # a dropdown that is not an answer is printed open, its title as a heading
            summary = d.find("summary")
            title = summary.get_text(" ", strip=True) if summary else ""
            if summary:
                summary.decompose()
            d.name = "div"
            d.attrs = {"class": ["ho-box"]}
            d.insert(0, _soup(f'<p class="ho-box-title">{html.escape(title)}</p>'))
    for box in section.select("div.asb-prediction"):
        label = box.find("label")
        box.replace_with(_soup(_write_space(label.get_text(strip=True) if label else "Your answer")))
    for t in section.select("textarea, input, select, output, fieldset"):
        t.decompose()
    for a in section.select("span.bibtex-citation a[title]"):  # listed under References at the end
        a.replace_with(_soup(f'<span class="ho-cite" data-ref="{html.escape(a["title"])}">'
                             f"{html.escape(a.get_text())}</span>"))
    for a in section.find_all("a"):
        a.unwrap()
    for h in section.find_all(["h2", "h3", "h4", "h5"]):
        h.name = {"h2": "h2", "h3": "h3", "h4": "h4", "h5": "h4"}[h.name]
    for img in section.find_all("img"):
        src = img.get("src", "")
        if src.startswith("data:"):
            continue
        file = (page_path.parent / src.split("?")[0]).resolve()
        mime = mimetypes.guess_type(file.name)[0] or "image/png"
        img["src"] = f"data:{mime};base64,{base64.b64encode(file.read_bytes()).decode()}"
        for attr in ("width", "height", "loading"):
            img.attrs.pop(attr, None)
    for pre in section.find_all("pre"):
        pre["class"] = (pre.get("class") or []) + ["tex2jax_ignore"]
    return section


#: Words that only make sense on the web page (a dropdown, a player, the book's chapters and
#: its numbering), as (pattern, what print says instead).
PRINT_WORDING = (
    (r"the dropdown\s+below\s+shows\s+that\s+every\s+line", "in fact every line"),
    (r"Each line below gives its\s+reason on the right", "Each line below gives its reason (printed under it)"),
    (r"The readouts under the player give", "The readout under each frame gives"),
    # the comma may sit inside the span that keeps it with the formula before it (asb-nobreak)
    (r",(</span>)?\s+which the next chapter\s+derives", r"\1"),
    (r" \((?:<[^>]+>)*Exercise [0-9.]+(?:<[^>]+>)* checks the last row\)", ""),  # chapter 3's table
    (r"\(the blog post calls it", "(some texts call it"),
    (r"The blog post[’']s example of", "A classic example of"),
    (r"the blog post[’']s examples", "the examples above"),
    (r"the proof and its dropdown of checks", "the proof (on the web page, its dropdown lists the checks)"),
    (r'<span class="caption-number">(Theorem|Exercise|Solution to Exercise) [0-9.]+ </span>', r"\1 "),
    (r"Solution to\s*Exercise [0-9.]+", "Solution"),
    (r"(the prediction of|by) Theorem [0-9.]+", r"\1 the theorem"),
)


def _print_wording(text: str) -> str:
    for pattern, said in PRINT_WORDING:
        text = re.sub(pattern, said, text)
    return text


def _soup(text: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(text, "html.parser")


def _sections(site, name, ids, instructor, key, where, **kw) -> str:
    out = []
    for sid in ids:
        sec, path = _section(site, name, sid)
        out.append(_clean(sec, path, instructor, key, where, **kw).decode_contents())
    return "".join(out)


def _children(site, name, section_id, instructor, key, where, skip=("h1", "h2", "h3"), drop=()) -> str:
    """The content of a section without its own heading and without its subsections."""
    sec, path = _section(site, name, section_id)
    for child in list(sec.find_all(recursive=False)):
        if child.name in skip or child.name == "section":
            child.decompose()
    return _clean(sec, path, instructor, key, where, drop=drop).decode_contents()


def _exercise(site, name, exercise_id) -> str:
    """An exercise and its solution, for the key."""
    page = _page(str(site), name)
    ex = page.soup.find(id=exercise_id)
    sol = ex.find_next_sibling("div", class_="solution")
    parts = []
    for node in (ex, sol):
        sec = _soup(str(node))
        for t in sec.select("a.headerlink, script, button"):
            t.decompose()
        for a in sec.find_all("a"):
            a.unwrap()
        parts.append(f'<div class="ho-box">{sec.decode()}</div>')
    code = _soup(parts[-1]).get_text()
    if any(name in code for name in ("np.", "shared_draw", "DRAW_SEED")):  # names from the setup cell
        parts.append('<p class="ho-note">The code above runs in the chapter\'s notebook, after its setup cell, '
                     "which imports and defines what it uses: <code>import numpy as np</code>, "
                     "<code>from attention_scaling.numerics import shared_draw</code>, and "
                     "<code>DRAW_SEED</code>, the seed of the explorers' draw.</p>")
    return "".join(parts)


# --- the handout ------------------------------------------------------------------------------

def _h1(title: str, anchor: str) -> str:
    return f'<h1 id="{anchor}">{html.escape(title)}</h1>'


def _block_html(slug: str, body: str, cls: str = "") -> str:
    """A block of the session's plan (:data:`attention_scaling.lesson.SESSION`): its heading
    says its number, title and minutes; its anchor is its slug."""
    return _section_html(lesson.SESSION.heading(slug), slug, body, cls)


def _section_html(title, anchor, body, cls="") -> str:
    return f'<section class="ho-part {cls}">{_h1(title, anchor)}{body}</section>'


HOOK = ("A row of attention weights is P = (0.001, 0.998, 0.001): the model puts almost all its "
        "attention on the second key. If the model is wrong about this row, how much can it learn "
        "from its mistake?")

#: The workshop's labs (name, title with its times), from the lesson plan.
LABS = tuple((b.slug, f"{b.title} ({b.times})") for b in lesson.WORKSHOP.blocks if b.slug.startswith("lab-"))


#: The heading over the strips that answer a prediction: they come after it, never beside it.
AFTER = "After you predict:"
PANELS_PREDICTION = "Predict: what do the panels do as s grows from 1 to 20? And down to 0.05?"


def _predict_first(body: str, label: str) -> str:
    """Put the "Predict" space before the first strip of ``body`` (the strip answers it),
    and the strip under a heading that says so."""
    at = body.find('<div class="ho-strip"')
    if at < 0:
        raise ValueError("body must hold the strip that answers the prediction")
    return (body[:at] + _write_space(label) + f"<h3>{AFTER} the explorer at each stop</h3>" + body[at:])


def _qk_norm(site: Path, instructor: bool) -> str:
    """Step 5 of the plan (optional): what the scaling assumed, and QK-norm, from the opening and
    the summary of "Normalize beyond √dₖ", then its explorer at the plan's stops."""
    page = _page(str(site), "book/normalize-beyond-sqrt-dk.html")
    opening = _soup(str(page.soup.find("section", id="overview").find("p")))
    summary = _soup(str(page.soup.find("section", id="summary").find("ul")))
    for a in opening.find_all("a"):  # "of Theorem 3.1": the book's numbering, not the handout's
        a.replace_with("the variance formula of section 4")
    text = opening.p.decode_contents()
    opening.p.clear()
    opening.p.append(_soup(text.split(" This chapter")[0]))
    items = summary.ul.find_all("li", recursive=False)
    for li in items[2:]:
        li.decompose()
    summary = _soup(re.sub(r"\s*\(<a\b[^>]*>[^<]*</a>\)", "", summary.decode()))  # "(Theorem 6.1)"
    return ('<div class="ho-keep"><p>Optional in the 50-minute session (row 5 of your predictions), or for '
            "the next one. It answers the exit ticket's question 3.</p>"
            f'<div class="mathjax_process">{opening.decode()}{summary.decode()}</div></div>'
            f"<h2>{AFTER} the normalisation explorer at each stop</h2>" + strip_html("normalization", instructor))


#: The worksheet's last question.
FIX_QUESTION = "In one sentence: what did dividing by √dₖ fix, and what did it not fix?"


def _worksheet_table(steps=None) -> str:
    rows = "".join(
        f"<tr><td>{i}</td><td>{html.escape(s.settings)}</td><td>{html.escape(s.question)}</td>"
        '<td class="ho-blank"></td><td class="ho-blank"></td></tr>'
        for i, s in enumerate(worksheets.PREDICTION_STEPS if steps is None else steps, 1))
    return ('<table class="ho-worksheet"><colgroup><col class="n"><col class="set"><col class="q"><col><col>'
            "</colgroup><thead><tr><th>#</th><th>Set the sliders to</th><th>Predict</th>"
            f"<th>Your prediction</th><th>What you saw</th></tr></thead><tbody>{rows}</tbody></table>")


B, T = "book/", "book/teach-with-this-book.html"


def _plan_part(site: Path, session: str, key: list) -> str:
    """For the instructor: the plan, the slider settings, misconceptions and discussion questions."""
    plan = _children(site, T, "plan-a-50-minute-session", True, key, "plan")
    body = (f"<h2>Plan a 50-minute session</h2>{plan}"
            + _sections(site, T, ["pace-and-cut-cues", "slider-settings-in-order", "misconceptions-to-expect",
                                  "discussion-questions"], True, key, "plan"))
    if session == "workshop-2h":
        body += _sections(site, T, ["run-a-2-hour-workshop"], True, key, "plan")
    body = body.replace("<h3", "<h2").replace("</h3>", "</h2>")
    return _section_html("For the instructor: the plan", "plan", body)


def _predict_part(site: Path, instructor: bool, key: list) -> str:
    """The worksheet, then the chapter's explorer section without its "things to try" (the
    list, or the fold of this draw's numbers under a summary of what they show: the
    worksheet asks what the class should see)."""
    explore, _path = _section(site, B + "scale-the-scores.html", "explore-dk-and-the-vector-magnitude")
    for child in list(explore.find_all(recursive=False)):
        summary = child.find("summary") if child.name == "details" else None
        if (child.name in ("h2", "ol")
                or (child.name == "p" and re.match(r"(\w+ )?things to try\b", child.get_text(strip=True), re.I))
                or (summary is not None and "things to try" in summary.get_text(" ", strip=True).lower())):
            child.decompose()
    explore = _clean(explore, _path, instructor, key, "predict").decode_contents()
    predict = ('<h2>Your predictions</h2><p>Before each move, write what you expect. Then look at the '
               'explorer (on the projector, or the strip below) and write what you saw.</p>'
               + _worksheet_table()
               + _write_space(FIX_QUESTION)
               + f"<h2>{AFTER} the explorer at each step</h2>" + explore)
    return _block_html("predict", predict)


def _lab_part(site: Path, n: int, lab: str, title: str, instructor: bool, key: list) -> str:
    """A lab of the 2-hour workshop: its introduction and its tasks (its hidden cells are its
    checks and its worked answers: output included)."""
    name = f"notebooks/{lab}.html"
    page = _page(str(site), name)
    top = page.soup.select_one("article.bd-article > section")
    intro = _soup("".join(str(c) for c in top.find_all(recursive=False) if c.name not in ("h1", "section")))
    hidden = ["div.cell.tag_hide-input"]
    intro = _clean(_soup(f"<section>{intro.decode()}</section>").section, page.path, instructor,
                   key, title, drop=hidden).decode_contents()
    tasks = "".join(
        _sections(site, name, [s["id"]], instructor, key, title, drop=hidden)
        + (_write_space("Your answers", tall=True) if s["id"] == "check-yourself" else "")
        for s in top.find_all("section", recursive=False))
    return _section_html(f"{n}. {title}", lab, intro + tasks, "ho-lab")


def _slide_numbers(site: Path) -> dict[str, str]:
    """Block slug -> its slides in the session's deck ("4–17"), read from the built deck."""
    from .deck import DECK_PATH

    found: dict[str, list[int]] = {}
    for k, slide in enumerate(_page(str(site), DECK_PATH).soup.select("section.asb-slide"), 1):
        found.setdefault(slide["data-block"], []).append(k)
    return {slug: f"{ks[0]}–{ks[-1]}" if len(ks) > 1 else str(ks[0]) for slug, ks in found.items()}


def _run_sheet(site: Path, session: str) -> str:
    """The instructor's first page: the session's blocks with their minutes, their slides in the
    session's deck (``present/session-50min.html``), what each holds and its cut cue, from the
    lesson plan's data (attention_scaling.lesson), as the instructor page's "Pace and cut cues" table."""
    slides = _slide_numbers(site)
    rows = []
    for b in lesson.SESSION.blocks:
        held = b.held
        cut = html.escape(b.cut.text) + f" <i>(saves {b.cut.saves:g} min)</i>" if b.cut else "–"
        rows.append(f"<tr><td>{b.times}</td><td><b>{html.escape(b.title)}</b></td><td>{slides.get(b.slug, '–')}</td>"
                    f"<td>{html.escape(held)}</td><td>{cut}</td></tr>")
    if session == "workshop-2h":
        rows += [f"<tr><td>{b.times}</td><td><b>{html.escape(b.title)}</b></td><td>–</td><td></td><td>–</td></tr>"
                 for b in lesson.WORKSHOP.blocks[1:]]
    body = (f"<p>{lesson.SESSION.minutes} minutes, {lesson.SESSION.slack:g} of them spare at the plan's pace; "
            "check the clock at each cue. On the projector: the session's slides "
            "(<code>present/session-50min.html</code> in the instructor's edition; type a slide's number and "
            "Enter to jump), or each explorer's <b>Present</b> button, which steps through its stops.</p>"
            "<table class=\"ho-run\"><thead><tr><th>Time</th><th>Block</th><th>Slides</th><th>What it holds</th>"
            "<th>If you run late</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
    # on the cover, before the contents: not a heading (the contents and bookmarks list the parts)
    return f'<div class="ho-run-sheet"><p class="ho-run-title">Run sheet</p>{body}</div>'


def _hook(site: Path, instructor: bool, key: list, sheet: bool = False) -> str:
    notation = _children(site, B + "intro.html", "notation", instructor, key, "notation",
                         drop=["div.pst-scrollable-table-container ~ p"])  # how the book writes errors
    if sheet:
        notation = _session_notation(notation)
    return (f'<div class="ho-box ho-hook"><p><b>Hook.</b> {html.escape(HOOK)}</p></div>'
            + _write_space("Your guess, and why", tall=sheet) + "<h2>Notation</h2>" + notation)


#: The notation rows the student sheet keeps, by their code names (the table's third column): the
#: symbols the session's slides and sheet use. Not P(1 − P)'s row, which answers the hook, nor the
#: normalisations' (QK-norm's gain, LayerNorm's γ, β, ε) and the temperature's, which answer the
#: exit ticket's third question.
SHEET_SYMBOLS = ("z", "n_keys", "p", "d_k", "q,k", "magnitude")


def _session_notation(notation: str) -> str:
    """The notation table for the student sheet: the symbols of :data:`SHEET_SYMBOLS` and their
    meanings (not the code's names)."""
    soup = _soup(notation)
    table = soup.find("table")
    for row in table.find_all("tr"):
        cells = row.find_all(["td", "th"])
        if len(cells) != 3:
            continue
        code = "".join(cells[2].get_text().split())
        if row.find("td") and code not in SHEET_SYMBOLS:
            row.decompose()
            continue
        cells[2].decompose()
    for col in table.find_all("col")[2:]:
        col.decompose()
    for p in soup.find_all("p", recursive=False):  # "One set of symbols is used throughout the book and its code."
        p.decompose()
    return soup.decode()


def _with_proof_table(site: Path, fragment: str) -> str:
    """``fragment`` with the chapter's proof block (its glued derivation, ``#equation-eq-seed-proof``)
    replaced by :func:`_proof_table`."""
    soup = _soup(fragment)
    block = soup.select_one("div.proof div.math")
    if block is None:
        raise ValueError("the derivation's section has no proof block to print as a table")
    block.replace_with(_soup(_proof_table(site)))
    return soup.decode()


def _proof_table(site: Path) -> str:
    """The proof as the session's slides show it (attention_book.deck: the SymPy-checked lines,
    typeset when the book was built), one row a line: the line, its reason, whether SymPy
    checked it."""
    from .deck import DECK_PATH

    page = _page(str(site), DECK_PATH)
    rows = []
    for slide in page.soup.select('section.asb-slide[data-kind="proof"]'):
        line = slide.select_one(".asb-deck-line").decode_contents()
        reason = slide.select_one(".asb-deck-reason").decode_contents()
        checked = "SymPy" if slide.select_one(".asb-deck-check") else "definition"
        rows.append(f"<tr><td>{line}</td><td>{reason}</td><td>{checked}</td></tr>")
    if not rows:
        raise ValueError(f"{DECK_PATH} in {site} has no proof slides: build the instructor's edition")
    return ('<table class="ho-proof"><thead><tr><th>Line</th><th>Reason</th><th>Checked by</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _discuss(site: Path, instructor: bool, key: list) -> str:
    return ("<p>Circle one answer to each question, then discuss it with your neighbour.</p>"
            + _children(site, B + "scale-the-scores.html", "check-your-understanding", instructor, key, "quiz",
                        drop=["section > p"]))  # the page's words are about its on-screen feedback


def _ticket_html(tall: bool = False) -> str:
    """The exit ticket's questions, each with space to answer (``tall``: a page of its own)."""
    return "".join(f'<p class="ho-q">{i}. {html.escape(q)}</p>' + _write_space("Your answer", tall=tall)
                   for i, q in enumerate(worksheets.EXIT_QUESTIONS, 1))


def _parts(site: Path, session: str, instructor: bool, ticket: str = "in place") -> list[str]:
    """The handout's parts in the plan's order. ``ticket``: the exit ticket "in place" (after
    the quiz), "last" (on a sheet of its own at the end, see :func:`handout_html`) or "none"."""
    key: list = []
    parts = [_plan_part(site, session, key)] if instructor else []
    parts.append(_block_html("hook", _hook(site, instructor, key)))
    derive = _sections(site, B + "derive-the-softmax-gradient.html",
                       ["define-the-softmax", "rebuild-the-proof-line-by-line"], instructor, key, "derive",
                       drop=["details.sd-dropdown"])  # the table of checks repeats the proof's lines
    # the proof's 13-line aligned block, shrunk to fit a page, becomes the table of its lines
    # (attention_book.deck's), at the text's size and able to break between rows
    derive = _with_proof_table(site, derive)
    parts.append(_block_html("derive", derive))
    curve = _sections(site, B + "derive-the-softmax-gradient.html", ["put-numbers-on-it", "turn-up-the-scale"],
                      instructor, key, "curve")
    parts.append(_block_html("curve", _predict_first(curve, PANELS_PREDICTION)))
    why = _sections(site, B + "scale-the-scores.html",
                    ["compute-the-variance-of-a-dot-product", "confirm-it-by-simulation"], instructor, key, "why")
    parts.append(_block_html("why", why))
    parts.append(_predict_part(site, instructor, key))
    parts.append(_section_html("5b. Optional: when the vectors grow, normalise them", "qk-norm",
                               _qk_norm(site, instructor)))
    parts.append(_block_html("discuss", _discuss(site, instructor, key)))
    if ticket == "in place":
        parts.append(_block_html("exit-ticket", _ticket_html(), "ho-ticket"))
    if session == "workshop-2h":
        parts += [_lab_part(site, n, lab, title, instructor, key) for n, (lab, title) in enumerate(LABS, 8)]
    if ticket == "last":
        parts.append(_block_html("exit-ticket", _ticket_html(), "ho-ticket ho-own-sheet"))
    parts = [_with_references(part) for part in parts]
    if instructor:
        parts.append(_answer_key(site, session, key))
    return [_print_wording(p) for p in parts]


def _sheet_parts(site: Path) -> list[str]:
    """The 50-minute session's student sheet, a page each: the hook and the notation; the proof;
    the worksheet (the scale explorer's prediction and the main explorer's rows); the quiz. No
    strip, no answer: what answers a prediction is on the projector, then in the "after the
    session" handout."""
    key: list = []
    derive_page = B + "derive-the-softmax-gradient.html"
    theorem, _path = _section(site, derive_page, "rebuild-the-proof-line-by-line")
    theorem = _clean(_soup(f"<section>{theorem.select_one('div#thm-self-gradient')}</section>").section, _path,
                     False, key, "derive").decode_contents()
    derive = (_children(site, derive_page, "define-the-softmax", False, key, "derive") + theorem
              + "<h2>The proof, line by line</h2>" + _proof_table(site))
    rows = [s for s in worksheets.PREDICTION_STEPS if not s.settings.startswith("Optional")]
    worksheet = ('<p class="ho-explain">On the projector, two explorers. The <b>scale explorer</b> multiplies 8 '
                 "scores by a scale s and shows, left to right, the weights P = softmax(s z), each weight's "
                 "gradient P(1 − P), and the Jacobian. The <b>main explorer</b> draws a query and 16 keys with "
                 "dₖ components of size m, and shows the weights two ways: red, unscaled softmax(q·k); blue, "
                 "scaled softmax(q·k/√dₖ).</p>"
                 + _write_space(PANELS_PREDICTION)
                 + "<h2>Your predictions</h2><p>Before each move of the main explorer, write what you expect; "
                 "then look at the projector and write what you saw.</p>" + _worksheet_table(rows)
                 + _write_space(FIX_QUESTION))
    curve, predict = lesson.SESSION.block("curve"), lesson.SESSION.block("predict")
    number = {b.slug: k for k, b in enumerate(lesson.SESSION.blocks, 1)}
    why = lesson.SESSION.block("why")
    variance = ("<p>Fill in while the board shows why. For q and k with dₖ independent components of mean 0 "
                "and size m (standard deviation):</p>" + _write_space("Var(q·k) = ……… , so the spread of q·k is "
                "……… ; divided by √dₖ, the spread is ………"))
    parts = [_block_html("hook", _hook(site, False, key, sheet=True), "ho-sheet-page"),
             _block_html("derive", derive, "ho-sheet-page"),
             _section_html(f"{number['curve']} and {number['predict']}. Your worksheet "
                           f"({curve.start}–{curve.end} and {predict.start}–{predict.end} min)", "worksheet",
                           worksheet, "ho-sheet-page"),
             _section_html(f"{number['why']}. {why.title} ({why.times})", "why", variance, "ho-sheet-page")
             + _block_html("discuss", _discuss(site, False, key))]
    return [_print_wording(p) for p in parts]


_KEY_NAMES = {
    "derive": "Derive the gradient", "curve": "Read the curve", "why": "Why √dₖ",
    "predict": "Predict, then move the slider", "quiz": "Self-check quiz (section 6)", "notation": "The hook",
    "plan": "The plan",
}


class _Read(NamedTuple):
    draw: str  # this draw's cell, as the strip prints it
    mean: str  # the mean, with the digits of its cell
    value: float  # the mean's value


def _readout(name: str, k: int, curve: str, measure: str) -> _Read:
    """``measure`` ("largest weight", ...) of ``curve`` ("Unscaled", "Scaled by", "" for the only
    one) in the readout printed under stop ``k`` of ``name``: read from its rows, not its text."""
    row = _frames(name)[k - 1].readout.row(curve, measure)
    return _Read(row.cells(False)[0], row.mean_shown, row.mean.mean)


def _prediction_answers() -> str:
    """Each row of the prediction table, answered with the numbers the strips print."""
    att = lesson.stops("attention")
    W, U, S = "largest weight", "Unscaled", "Scaled by"
    u1, s1 = _readout("attention", 1, U, W), _readout("attention", 1, S, W)
    u2, s2 = _readout("attention", 2, U, W), _readout("attention", 2, S, W)
    b4, b4b = _readout("attention", 4, S, W), _readout("attention", 5, S, W)
    n1, n2 = _readout("normalization", 1, "", W), _readout("normalization", 2, "", W)
    d2, d3 = att[1].settings["d_k"], att[2].settings["d_k"]
    m4, m4b = att[3].settings["magnitude"], att[4].settings["magnitude"]
    # what the answers say must be what the strips show
    if not (u1 == s1 and u2.value > 2 * s2.value and b4.value < 0.9 < b4b.value
            and n2.value < 0.5 < 0.9 < n1.value):
        raise ValueError("the stops no longer show what the answer key says: "
                         f"{u1}, {s1}, {u2}, {s2}, {b4}, {b4b}, {n1}, {n2}")
    rows = [
        f"No: they are the same (largest weight {u1.draw} for both, mean {u1.mean}). "
        "Dividing by √1 changes nothing.",
        f"The red (unscaled): its largest weight is {u2.draw} in this draw (mean {u2.mean}); "
        f"the blue's is {s2.draw} (mean {s2.mean}).",
        f"The red spread of q·k gets about √({d3}/{d2}) = {(d3 / d2) ** 0.5:g} times wider; "
        "the blue one, divided by √dₖ, does not move.",
        f"In this draw, yes: the largest blue weight is {b4.draw} at m = {m4:g} and {b4b.draw} at "
        f"m = {m4b:g}. On average only at m = {m4b:g}: the means are {b4.mean} and {b4b.mean}. "
        "The scaling assumed components of size about 1.",
        f"It drops: the mean largest weight goes from {n1.mean} (scaled by 1/√dₖ) to {n2.mean} with "
        f"QK-norm (this draw: {n1.draw} to {n2.draw}); the magnitude stops mattering.",
    ]
    if len(rows) != len(worksheets.PREDICTION_STEPS):
        raise ValueError("the answers must follow the worksheet's rows")
    items = "".join(f"<tr><td>{i}</td><td>{html.escape(st.settings)}</td><td>{html.escape(r)}</td></tr>"
                    for i, (st, r) in enumerate(zip(worksheets.PREDICTION_STEPS, rows), 1))
    return ('<table class="ho-stops"><thead><tr><th>#</th><th>Settings</th><th>Answer</th></tr></thead>'
            f"<tbody>{items}</tbody></table>")


def _once(answers: list) -> str:
    """Answers in order, each title printed once: a task's second answer goes under its first's."""
    out, last = [], None
    for text in answers:
        title = re.search(r'<p class="ho-answer-title">(.*?)</p>', text)
        if title and title.group(1) == last:
            text = text.replace(title.group(0), "", 1)
        last = title.group(1) if title else None
        out.append(text)
    return "".join(out)


def _with_references(part: str) -> str:
    """A section that cites ends with the references it cites (the book's list is not printed)."""
    refs: dict = {}
    for cite in _soup(part).select("span.ho-cite"):
        refs.setdefault(cite.get_text(), cite["data-ref"])
    if not refs:
        return part
    listed = "".join(f'<p class="ho-ref">Reference: [{html.escape(label)}] {html.escape(ref)}</p>'
                     for label, ref in refs.items())
    return part[:part.rindex("</section>")] + listed + "</section>"


def _answer_key(site: Path, session: str, key: list) -> str:
    body = ['<p>What the class should see at each step, the answers to the self-check, the exit '
            "ticket and the exercise it comes from"
            + (", and each lab's answers, task by task." if session == "workshop-2h" else ".") + "</p>"]
    rows = []
    for name in ("attention", "normalization", "scale"):
        for k, (stop, settings, _alt, _readout) in enumerate(_frames(name), 1):
            rows.append(f"<tr><td>{html.escape(name)} {k}</td><td>{html.escape(settings)}</td>"
                        f"<td>{html.escape(stop.caption)}</td></tr>")
    body.append("<h2>Predictions: what the explorers show at each stop</h2>"
                + _sections(site, T, ["slider-settings-in-order"], True, [], "key").replace(
                    "<h3", "<h4").replace("</h3>", "</h4>")
                + '<table class="ho-stops"><thead><tr><th>Explorer, stop</th><th>Settings</th>'
                f"<th>What to see</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
    body.append("<h2>Your predictions: the answer to each row</h2>" + _prediction_answers())
    body.append("".join(_sections(site, T, [sid], True, [], "key").replace("<h3", "<h2").replace("</h3>", "</h2>")
                        for sid in ("answers-to-the-hook-and-the-worksheet", "answers-to-the-discussion-questions")))
    grouped: dict = {}
    for where, text in key:
        grouped.setdefault(where, []).append(text)
    if "quiz" in grouped:
        body.append(f"<h2>{_KEY_NAMES['quiz']}</h2>" + "".join(grouped.pop("quiz")))
    body.append("<h2>Exit ticket</h2>" + _children(site, T, "answers-to-the-exit-ticket", True, [], "key"))
    body.append("<h2>Exercise: why not divide by dₖ?</h2>"
                + _exercise(site, "book/scale-the-scores.html", "ex-divide-by-d"))
    for _lab, title in LABS:
        if title in grouped:
            body.append(f"<h2>{html.escape(title.split(' (')[0])}: answers</h2>" + _once(grouped.pop(title)))
    for where, texts in grouped.items():
        body.append(f"<h2>{html.escape(_KEY_NAMES.get(where, where))}: answers</h2>" + _once(texts))
    return _section_html(ANSWER_KEY, "answer-key", "".join(body), "ho-key")


def _contents(parts_html: str, pages: list | None) -> str:
    soup = _soup(parts_html)
    items = []
    headings = soup.find_all(["h1", "h2"])
    if pages is not None and len(pages) != len(headings):
        raise ValueError(f"pages must give the page of each of the {len(headings)} headings, got {len(pages)}")
    for k, h in enumerate(headings):
        title = h.get_text(" ", strip=True)
        page = pages[k] if pages else ""
        items.append(f'<li class="ho-toc-{h.name}"><span class="ho-toc-title">{html.escape(title)}</span>'
                     f'<span class="ho-toc-dots"></span><span class="ho-toc-page">{page}</span></li>')
    long = ' class="ho-long"' if len(items) > 30 else ""  # two columns, so that it fits on page 1
    return (f'<nav class="ho-contents" aria-label="Contents"><p class="ho-contents-title">Contents</p>'
            f'<ol{long}>{"".join(items)}</ol></nav>')


_STYLE = """
@page { size: A4; }
* { box-sizing: border-box; }
html { color: #111; background: #fff; }
body { font: 10.5pt/1.38 "DejaVu Sans", system-ui, Arial, sans-serif; margin: 0; }
h1 { font-size: 16pt; margin: 0.9em 0 0.35em; padding-bottom: 0.15em; border-bottom: 1.5px solid #333; }
h2 { font-size: 13pt; margin: 0.9em 0 0.3em; }
h3 { font-size: 11.5pt; margin: 0.8em 0 0.25em; }
h4 { font-size: 10.5pt; margin: 0.7em 0 0.2em; }
h1, h2, h3, h4, .ho-box-title, .ho-strip-title, .ho-write-label, .ho-q, .ho-answer-title, legend, caption,
.admonition-title { break-after: avoid; page-break-after: avoid; }
p { margin: 0.3em 0 0.45em; }
p, li { orphans: 4; widows: 3; }  /* a heading kept with its next paragraph gets 4 of its lines */
p:has(+ table), p:has(+ .pst-scrollable-table-container), p:has(+ figure), p:has(+ div.cell:not(:has(figure))),
p:has(+ div.math), p:has(+ .ho-write) { break-after: avoid; page-break-after: avoid; }
.ho-part:first-of-type h1 { margin-top: 0.4em; }
.ho-cover { margin-bottom: 1em; }
.ho-cover .ho-title { font-size: 21pt; font-weight: 700; margin: 0 0 0.1em; }
.ho-cover .ho-subtitle { font-size: 13pt; margin: 0 0 0.6em; }
.ho-meta { display: flex; gap: 2em; margin: 0.6em 0; }
.ho-meta span { flex: 1; border-bottom: 1px solid #555; }
.ho-contents-title { font-weight: 700; font-size: 13pt; margin: 0.6em 0 0.2em; }
.ho-contents ol { list-style: none; padding: 0; margin: 0; }
.ho-contents li { display: flex; align-items: baseline; gap: 0.4em; margin: 0.12em 0; }
.ho-toc-h2 { padding-left: 1.6em; font-size: 9.5pt; }
.ho-toc-h1 { font-weight: 600; margin-top: 0.35em !important; }
.ho-toc-dots { flex: 1; border-bottom: 1px dotted #777; }
.ho-toc-page { min-width: 1.6em; text-align: right; }
img { max-width: 100%; height: auto; }
figure { margin: 0.5em 0; break-inside: avoid; page-break-inside: avoid; }
figcaption, .caption { font-size: 9.5pt; }
table { border-collapse: collapse; margin: 0.5em 0; max-width: 100%; break-inside: avoid; font-size: 9.5pt; }
th, td { border: 1px solid #777; padding: 0.2em 0.4em; vertical-align: top; text-align: left; }
th { background: #eee; }
div.highlight pre, pre { font: 8.4pt/1.3 "DejaVu Sans Mono", monospace; background: #f4f4f4; border: 1px solid #ccc;
  padding: 0.35em 0.5em; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.35em 0; }
code { font: 0.92em "DejaVu Sans Mono", monospace; }
.ho-box, div.admonition, div.proof, div.exercise, div.solution { border: 1px solid #888; border-left: 4px solid #555;
  padding: 0.3em 0.7em; margin: 0.6em 0; }
.ho-box-title, .admonition-title { font-weight: 700; margin: 0.2em 0; }
.ho-hook { font-size: 11pt; }
.ho-write { break-inside: avoid; margin: 0.4em 0 0.7em; }
.ho-write-label { font-weight: 600; margin: 0.2em 0; font-size: 9.5pt; }
.ho-lines { height: 18mm; border: 1px solid #555;
  background: repeating-linear-gradient(#fff 0, #fff 7.6mm, #bbb 7.6mm, #bbb 7.9mm); }
.ho-q { font-weight: 600; margin-top: 0.6em; }
.ho-lines.ho-tall { height: 36mm; }
table.ho-worksheet { width: 100%; table-layout: fixed; }
table.ho-worksheet td.ho-blank { height: 24mm; }
table.ho-worksheet col.n { width: 2em; } table.ho-worksheet col.set { width: 21%; }
table.ho-worksheet col.q { width: 27%; }
.ho-strip { margin: 0.5em 0; }
.ho-strip-title { font-weight: 700; break-after: avoid; }
.ho-legend { font-size: 9pt; break-after: avoid; border: 1px dashed #777; padding: 0.2em 0.5em; }
.ho-frame { break-inside: avoid; page-break-inside: avoid; margin: 0.2em 0 0.45em; border-top: 1px solid #bbb;
  padding-top: 0.2em; }
/* every panel the same width, a third of the column: three-panel modules fill it, two-panel ones two thirds */
.ho-module { width: 100%; margin: 0.1em auto; }
.ho-strip[data-explorer="normalization"] .ho-module { width: 67%; }
/* the module's panels in one row, whatever the page's width */
.ho-module .asb-panels { grid-template-columns: none; grid-auto-flow: column; grid-auto-columns: minmax(0, 1fr);
  max-width: none; }
.ho-frame-head { font-size: 9.5pt; }
.ho-stop-caption { font-style: italic; }
.ho-readout { font-size: 7.4pt; line-height: 1.22; color: #222; margin: 0.05em 0; font-variant-numeric: tabular-nums; }
.ho-readout p { margin: 0.05em 0; }
.ho-readout .asb-tables { display: flex; flex-wrap: wrap; gap: 0 2.2em; }
.ho-readout table.asb-rt { border-collapse: collapse; margin: 0.05em 0; width: auto; font-size: 1em; }
.ho-readout .asb-rt caption { text-align: left; font-weight: 700; padding: 0; }
.ho-readout .asb-rt th, .ho-readout .asb-rt td { padding: 0 0 0 0.8em; border: 0; text-align: right; white-space: nowrap; }
.ho-readout .asb-rt th[scope="row"], .ho-readout .asb-rt thead th:first-child { padding-left: 0; text-align: left; }
.ho-readout .asb-rt thead th { font-weight: 700; border-bottom: 0.5pt solid #555; }
.ho-readout .asb-foot { color: #444; }
/* on paper each table's rows flow as "label value mean ..." (the strips must keep to their pages) */
.ho-readout table.asb-rt, .ho-readout .asb-rt tbody { display: flex; flex-wrap: wrap; gap: 0 1.1em; align-items: baseline; }
.ho-readout .asb-rt thead { display: none; }
.ho-readout .asb-rt tr { display: flex; gap: 0.3em; }
.ho-readout .asb-rt th, .ho-readout .asb-rt td { padding: 0; }
.ho-readout .asb-rt td + td::before { content: "mean "; }
.ho-readout .asb-rt caption { display: block; margin-right: 0.4em; }
.ho-frame + .ho-frame .ho-readout .asb-foot { display: none; }  /* said once, under a strip's first stop */
.ho-quiz ol { padding-left: 1.4em; }
.ho-options { list-style: none; padding-left: 0.6em; margin: 0.1em 0 0.5em; }
.ho-answer { border-left: 3px solid #555; padding: 0.1em 0.6em; margin: 0.5em 0; }
.ho-answer-title { font-weight: 700; }
.ho-key { break-before: page; }
.ho-run-sheet { break-after: page; page-break-after: always; }
.ho-run-title { font-size: 14pt; font-weight: 700; margin: 0.6em 0 0.3em; }
table.ho-run { font-size: 9.5pt; width: 100%; } table.ho-run td { vertical-align: top; }
table.ho-run td:first-child { white-space: nowrap; }
.ho-key h2 { border-top: 1px solid #999; padding-top: 0.3em; }
.cell_output, .output { max-width: 100%; }
div.math, mjx-container[display="true"] { max-width: 100%; overflow: hidden; }
div.proof div.math { font-size: 68%; }  /* a 13-line aligned proof fits on the page of its theorem */
.ho-frame .ho-strip-title { margin-top: 0; }
.pst-scrollable-table-container { overflow: visible; }
.ho-lab h2 { break-before: auto; }
/* a lab's one-line "Time: ... You need: ..." under its heading: kept with the paragraph after it too,
   or the heading and that line alone end a page */
.ho-lab > h1 + p { break-after: avoid; page-break-after: avoid; }
/* a long table breaks between its rows (a plan's table kept whole leaves most of a page blank) */
table { break-inside: auto; } tr, thead { break-inside: avoid; page-break-inside: avoid; }
div.proof:not(:has(table.ho-proof)) { break-inside: avoid; page-break-inside: avoid; }  /* its derivation stays with it */
.ho-ticket { break-inside: avoid; page-break-inside: avoid; }  /* handed in: one page */
.ho-ref { font-size: 8.5pt; }
.ho-keep { break-inside: avoid; page-break-inside: avoid; }  /* a short section's words stay with its heading */
.ho-contents ol.ho-long { columns: 2; column-gap: 1.6em; font-size: 9pt; }
/* the student sheet: a part a page */
table.ho-proof { width: 100%; } table.ho-proof td { vertical-align: middle; padding: 0.05em 0.4em; }
table.ho-proof mjx-container[display="true"] { margin: 0.15em 0 !important; text-align: left !important; }
.ho-sheet-page + .ho-sheet-page { break-before: page; page-break-before: always; }
.ho-student .ho-cover, .ho-exit-ticket .ho-cover { margin-bottom: 0.3em; }
/* the workshop's exit ticket: a sheet of its own at the end (a blank page first if needed) */
.ho-own-sheet, .ho-filler + .ho-own-sheet { break-before: page; page-break-before: always; }
.ho-filler { break-before: page; page-break-before: always; color: #777; font-size: 9pt; text-align: center; padding-top: 40%; }
.ho-contents li { margin: 0.05em 0; } .ho-toc-h2 { font-size: 9pt; }
"""


@lru_cache(maxsize=None)
def _body(site_dir: str, session: str, version: str) -> str:
    """A document's parts, made once per built site (as :func:`_page` reads each page once):
    :func:`print_handout` asks twice, for its first print and for the one with page numbers."""
    site = Path(site_dir)
    if version == "student" and session == "session-50min":
        return "".join(_sheet_parts(site))
    if version == "exit-ticket":
        return _block_html("exit-ticket", _ticket_html(tall=True), "ho-ticket")
    if version == "student":  # the workshop's packet: the session's sheet, the labs, the ticket last
        key: list = []
        labs = [_with_references(_lab_part(site, n, lab, title, False, key)) for n, (lab, title) in enumerate(LABS, 8)]
        ticket = _block_html("exit-ticket", "<p>Collected at minute 50, before the break: this is the last "
                                            "sheet, to tear off.</p>" + _ticket_html(tall=True), "ho-ticket ho-own-sheet")
        return "".join(_sheet_parts(site)) + "".join(_print_wording(p) for p in labs) + ticket
    ticket = {"after": "none", "instructor": "in place"}.get(version, "last")
    return "".join(_parts(site, session, version == "instructor", ticket))


#: The blank page before the workshop's exit ticket, when it would otherwise share a sheet.
FILLER = '<div class="ho-filler"><p>This page is left blank: the exit ticket is on a sheet of its own.</p></div>'


def handout_html(site, session: str, version: str, pages: list | None = None, filler: bool = False) -> str:
    """The whole handout as one HTML document; ``pages`` lists the page number of each h1
    and h2 heading in order (from a first print), for the contents page. The student sheet and
    the exit ticket have no contents page. ``filler``: a blank page before the exit ticket at
    the end of the workshop's packet, so that it starts a sheet of its own."""
    site = Path(site)
    filename(session, version)  # validates
    if not (site / "book").is_dir():
        raise ValueError(f"site must be the built book's directory (with book/), got {site}")
    body = _body(str(site), session, version)
    if filler:
        at = body.rfind('<section class="ho-part ho-ticket ho-own-sheet">')
        if at < 0:
            raise ValueError(f"filler: {session} {version} has no exit ticket on a sheet of its own")
        body = body[:at] + FILLER + body[at:]
    contents = version not in ("exit-ticket",) and not (version == "student" and session == "session-50min")
    cover = (f'<header class="ho-cover"><p class="ho-title">{html.escape(TITLE)}</p>'
             f'<p class="ho-subtitle">{SESSION_NAMES[session]}: {WHO[version]}</p>'
             + (_run_sheet(site, session) if version == "instructor" else '<div class="ho-meta"><span>Name:</span><span>Date:</span></div>')
             + (_contents(body, pages) if contents else "") + "</header>")
    mathjax = _mathjax_head(site)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(TITLE)}: {SESSION_NAMES[session]} ({version})</title>"
            f"<style>{_STYLE}</style>{mathjax}</head><body class=\"ho-{version}\"><main>{cover}{body}</main></body></html>\n")


def _mathjax_head(site: Path) -> str:
    """How the book's pages draw their maths, from the built site: the stylesheet of the maths
    typeset at build time (sphinx_ext.prerender_maths), or, in a book built without Node.js,
    the site's own MathJax set-up, as the pages load it."""
    from .pagespeed import bundle_sources

    page = _page(str(site), "book/intro.html")
    out = []
    # The page links one stylesheet (attention_book.pagespeed) that holds the theme's too:
    # the handout takes the maths' own file among its sources.
    for link in page.soup.head.find_all("link", rel="stylesheet"):
        bundle = page.path.parent / link.get("href", "").split("?")[0]
        for source in bundle_sources(bundle.read_text(encoding="utf-8")) if bundle.is_file() else []:
            if source.endswith("maths.css"):
                out.append(f'<link rel="stylesheet" href="{(site / source).resolve().as_uri()}">')
    for script in page.soup.head.find_all("script"):
        src = script.get("src", "")
        if "mathjax" in src.lower():
            out.append(f'<script defer src="{(page.path.parent / src.split("?")[0]).resolve().as_uri()}"></script>')
        elif script.string and "MathJax" in script.string:
            out.append(f"<script>{script.string}</script>")
    return "".join(out)


# --- printing ---------------------------------------------------------------------------------

#: Resolves once the page's maths is typeset (the one place that knows how maths is rendered).
MATHS_READY_JS = "async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise }"


def wait_for_maths(page) -> None:
    """Wait until the maths of a Playwright ``page`` is typeset."""
    page.evaluate(MATHS_READY_JS)


#: Width in CSS px of the printed text column (A4 minus the side margins), at 96 px per inch.
COLUMN_PX = round((210 - 28) / 25.4 * 96)

#: Boxes wider than the text column, or whose content overflows them (a clipped box), as
#: [{what, width, scroll}]: run in the handout, laid out at the column's width for print.
MEASURE_JS = """(column) => {
  const bad = [];
  const sel = 'main img, main table, main pre, main figure, main .ho-box, main .ho-write, main div.math, '
            + 'main mjx-container, main .admonition, main .ho-frame, main .cell_output';
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    const clipped = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible';
    if (r.right > column + 1 || r.left < -1 || clipped)
      bad.push({what: el.tagName + '.' + el.className, right: Math.round(r.right), scroll: el.scrollWidth,
                width: el.clientWidth, text: (el.textContent || el.alt || '').slice(0, 60)});
  }
  return bad;
}"""


def _footer(session: str, version: str) -> str:
    return ('<div style="font: 8pt sans-serif; width: 100%; margin: 0 14mm; display: flex; '
            'justify-content: space-between; color: #333;">'
            f"<span>{html.escape(TITLE)} · {SESSION_NAMES[session]} · {version}</span>"
            '<span>page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>')


def outline(pdf) -> list[tuple[int, str, int]]:
    """The PDF's bookmarks as (level, title, page number from 1), in order."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    out = []

    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                out.append((level, " ".join(str(item.title).split()), reader.get_destination_page_number(item) + 1))

    walk(reader.outline, 1)
    return out


def _pdf(page, session: str, version: str) -> bytes:
    return page.pdf(format="A4", print_background=True, margin=MARGIN, display_header_footer=True,
                    header_template="<span></span>", footer_template=_footer(session, version),
                    outline=True, tagged=True)


# The second pass, in the page the first printed: each heading's page in the contents, and the
# blank page before the exit ticket; false if the contents lists another number of headings.
_SECOND_PASS_JS = """([pages, filler]) => {
    const spans = [...document.querySelectorAll('.ho-contents .ho-toc-page')];
    if (spans.length !== pages.length) return false;
    spans.forEach((span, k) => { span.textContent = String(pages[k]); });
    if (filler) {
        const ticket = [...document.querySelectorAll('section.ho-part.ho-ticket.ho-own-sheet')].pop();
        ticket.insertAdjacentHTML('beforebegin', filler);
    }
    return true;
}"""


def print_handout(browser, site, session: str, version: str, out) -> Path:
    """Print one handout with a Playwright ``browser`` to ``out`` (a PDF), in two passes:
    the first finds the page of each section, the second prints the contents page with them.
    Both print the same loaded page (typesetting and the explorers' drawing are most of a
    print's time): the second only writes the page numbers into the contents (and the blank
    page before the workshop's exit ticket), which is all that tells the two documents apart.
    A document with neither (the student sheet, the exit ticket) is printed once. The HTML
    file beside the PDF is the second pass's document, as a fresh load would show it."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = out.with_suffix(".html")  # the one HTML document the PDF is printed from
    scratch.write_text(handout_html(site, session, version), encoding="utf-8")
    page = browser.new_page(viewport={"width": COLUMN_PX, "height": 1100})
    try:
        page.goto(scratch.as_uri(), wait_until="load")
        wait_for_maths(page)
        page.emulate_media(media="print")
        first = _pdf(page, session, version)
        marks = [(title, number) for level, title, number in outline(io.BytesIO(first)) if level <= 2]
        pages = [number for _title, number in marks]
        # the workshop's exit ticket, last, must start a sheet (an odd page) when printed on both sides
        filler = (version == "student" and session == "workshop-2h" and bool(marks)
                  and marks[-1][1] % 2 == 0 and lesson.SESSION.block("exit-ticket").title in marks[-1][0])
        if filler:
            pages[-1] += 1
        final_html = handout_html(site, session, version, pages, filler)
        has_contents = page.locator(".ho-contents").count() > 0
        if has_contents or filler:
            if not page.evaluate(_SECOND_PASS_JS, [pages if has_contents else [], FILLER if filler else ""]):
                raise ValueError(f"{session} {version}: the contents does not list the {len(pages)} headings printed")
            final = _pdf(page, session, version)
        else:
            final = first
    finally:
        page.close()
    scratch.write_text(final_html, encoding="utf-8")
    out.write_bytes(final)
    return out


def make_handouts(browser, site, out_dir) -> list[Path]:
    """Every document of :data:`DOCUMENTS` into ``out_dir``, in that order; returns their paths."""
    out_dir = Path(out_dir)
    return [print_handout(browser, site, s, v, out_dir / filename(s, v)) for s, v in DOCUMENTS]
