"""Session handouts: a student and an instructor version of each session the instructor page plans.

``make handout`` (``scripts/make_handout.py``) writes four PDFs to ``_build/handout/``::

    session-50min-student.pdf     session-50min-instructor.pdf
    workshop-2h-student.pdf       workshop-2h-instructor.pdf

Each is assembled here as ONE self-contained HTML document, in the order of the plan on
``book/teach-with-this-book.md``, from the built pages (their sections, figures and maths)
and from the package (the players' frames at the plan's stops, :mod:`attention_scaling.lesson`;
the worksheet's steps and the exit ticket, :mod:`attention_scaling.worksheets`), then printed
once by headless Chromium (twice, in fact: the first print tells where each section landed,
and the contents page of the second print gives those page numbers).

What goes where:

* The student version has no instructor material and no answers: the built pages' answers
  (``details.asb-answer``, folded answers, exercise solutions, the quiz's answers and its
  answer key) are left out, and every "Predict" box becomes a labelled space to write in.
* The instructor version starts with the plan (timings, slider settings, misconceptions,
  discussion questions), then has the same student material, then an ANSWER KEY.
* Nothing interactive is printed: a player becomes a strip of frames at the plan's stops,
  each captioned with its settings and readout; buttons, inputs, "Show code" toggles and
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

from . import lesson, worksheets

__all__ = ["SESSIONS", "VERSIONS", "OUT_DIR", "filename", "handout_html", "strip_html",
           "print_handout", "make_handouts", "outline", "wait_for_maths", "MEASURE_JS"]

#: Sessions the instructor page plans, and the versions of each.
SESSIONS = ("session-50min", "workshop-2h")
VERSIONS = ("student", "instructor")
#: Where ``make handout`` writes the PDFs, relative to the repository.
OUT_DIR = Path("_build") / "handout"
TITLE = worksheets.SESSION
SESSION_NAMES = {"session-50min": "50-minute session", "workshop-2h": "2-hour workshop"}
#: The header of the answer key: the instructor version ends with it.
ANSWER_KEY = "Answer key"
#: Colours and styles of the main explorer, named in words (a printout may be grey).
ATTENTION_LEGEND = ("Red, filled bars, solid lines, round points: unscaled softmax(q·k). "
                    "Blue, outlined bars, dashed lines, hollow squares, hatched hump: "
                    "scaled softmax(q·k/√dₖ).")
LEGENDS = {
    "attention": ATTENTION_LEGEND,
    "scale": ("Left, blue bars: the weights; middle, red bars: P(1−P); right: the Jacobian, red above 0 "
              "(its diagonal), blue below 0 (beside the diagonal). Dashed line, grey band: the mean and "
              "middle 80 % of 200 draws."),
    "normalization": ("Solid line: scaled by 1/√dₖ; dashed: QK-norm; dotted: LayerNorm on q, k. "
                      "Bars: the draw, in the colour of its curve."),
}
#: Page margins of the print (the footer with the page number sits in the bottom one).
MARGIN = {"top": "10mm", "bottom": "14mm", "left": "14mm", "right": "14mm"}


def filename(session: str, version: str) -> str:
    """``session-50min-student.pdf`` and so on."""
    if session not in SESSIONS:
        raise ValueError(f"session must be one of {', '.join(SESSIONS)}, got {session!r}")
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {', '.join(VERSIONS)}, got {version!r}")
    return f"{session}-{version}.pdf"


# --- the players as strips ------------------------------------------------------------------

@lru_cache(maxsize=None)
def _explorer(name: str):
    from . import explorables

    makers = {"attention": explorables.attention_explorer, "scale": explorables.scale_explorer,
              "normalization": explorables.normalization_explorer}
    if name not in makers:
        raise ValueError(f"explorer must be one of {', '.join(makers)}, got {name!r}")
    return makers[name]()


def _settings_text(explorer, settings) -> str:
    from .explorables import plain_text

    parts = []
    for c in explorer.controls:
        value = c.show(settings[c.name])
        parts.append(f"{plain_text(c.label)} = {value}{' ' + c.unit if c.unit and not c.is_choice else ''}")
    return "; ".join(parts)


@lru_cache(maxsize=None)
def _frames(name: str) -> tuple:
    explorer = _explorer(name)
    out = []
    for stop in lesson.stops(name):
        lesson.check_stops(name, {c.name: c.values for c in explorer.controls}, (stop,))
        png, alt, readout = explorer.frame(**stop.settings)
        out.append((stop, _settings_text(explorer, stop.settings), png, alt, readout))
    return tuple(out)


def strip_html(name: str, instructor: bool = False) -> str:
    """The player ``name`` as a strip of frames at the lesson's stops, each captioned with
    its settings and readout (and, for the instructor, the stop's caption)."""
    from .explorables import plain_text

    frames = _frames(name)
    title = plain_text(_explorer(name).title)
    items = []
    head = (f'<p class="ho-strip-title">{html.escape(title)}: the {len(frames)} stops of the session plan</p>'
            f'<p class="ho-legend">{html.escape(LEGENDS[name])}</p>')
    for k, (stop, settings, png, alt, readout) in enumerate(frames, 1):
        said = f' <span class="ho-stop-caption">{html.escape(stop.caption)}</span>' if instructor else ""
        items.append(
            f'<figure class="ho-frame">{head if k == 1 else ""}'
            f'<figcaption class="ho-frame-head"><b>Stop {k} of {len(frames)}.</b> '
            f'{html.escape(settings)}.{said}</figcaption>'
            f'<img src="data:image/png;base64,{base64.b64encode(png).decode()}" alt="{html.escape(alt)}">'
            f'<p class="ho-readout">{html.escape(readout)}</p></figure>')
    return f'<div class="ho-strip" data-explorer="{name}">{"".join(items)}</div>'


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


def _section(site: Path, name: str, section_id: str):
    """A fresh copy of one section of a built page."""
    from bs4 import BeautifulSoup

    page = _page(str(site), name)
    found = page.soup.find("section", id=section_id)
    if found is None:
        raise ValueError(f"{name} has no section {section_id!r}")
    return BeautifulSoup(str(found), "html.parser").section, page.path


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


def _clean(section, page_path: Path, instructor: bool, key: list, where: str, drop=()):
    """Make a built section printable: demote its headings, drop controls and hidden cells,
    inline images, turn players into strips and answers into key entries (or nothing)."""
    for quiz in section.select("div.asb-quiz"):  # first: its answers are in its scripts
        quiz.replace_with(_soup(_quiz(quiz, key, where)))
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
    return "".join(parts)


# --- the handout ------------------------------------------------------------------------------

def _h1(title: str, anchor: str) -> str:
    return f'<h1 id="{anchor}">{html.escape(title)}</h1>'


def _section_html(title, anchor, body, cls="") -> str:
    return f'<section class="ho-part {cls}">{_h1(title, anchor)}{body}</section>'


HOOK = ("A row of attention weights is P = (0.001, 0.998, 0.001): the model puts almost all its "
        "attention on the second key. If the model is wrong about this row, how much can it learn "
        "from its mistake?")

LABS = (
    ("lab-derive-it-with-sympy", "Lab: derive it with SymPy (60–85 min)"),
    ("lab-break-the-softmax", "Lab: break the softmax (85–105 min)"),
    ("lab-turn-on-qk-norm", "Lab: turn on QK-norm (105–120 min)"),
)


def _worksheet_table() -> str:
    rows = "".join(
        f"<tr><td>{i}</td><td>{html.escape(s.settings)}</td><td>{html.escape(s.question)}</td>"
        '<td class="ho-blank"></td><td class="ho-blank"></td></tr>'
        for i, s in enumerate(worksheets.PREDICTION_STEPS, 1))
    return ('<table class="ho-worksheet"><colgroup><col class="n"><col class="set"><col class="q"><col><col>'
            "</colgroup><thead><tr><th>#</th><th>Set the sliders to</th><th>Predict</th>"
            f"<th>Your prediction</th><th>What you saw</th></tr></thead><tbody>{rows}</tbody></table>")


def _parts(site: Path, session: str, instructor: bool) -> list[str]:
    key: list = []
    B, T = "book/", "book/teach-with-this-book.html"
    parts = []
    if instructor:
        plan = _children(site, T, "plan-a-50-minute-session", True, key, "plan")
        body = (f"<h2>Plan a 50-minute session</h2>{plan}"
                + _sections(site, T, ["slider-settings-in-order", "misconceptions-to-expect",
                                      "discussion-questions"], True, key, "plan"))
        if session == "workshop-2h":
            body += _sections(site, T, ["run-a-2-hour-workshop"], True, key, "plan")
        body = body.replace("<h3", "<h2").replace("</h3>", "</h2>")
        parts.append(_section_html("For the instructor: the plan", "plan", body))
    hook = (f'<div class="ho-box ho-hook"><p><b>Hook.</b> {html.escape(HOOK)}</p></div>'
            + _write_space("Your guess, and why") + "<h2>Notation</h2>"
            + _children(site, B + "intro.html", "notation", instructor, key, "notation",
                        drop=["div.pst-scrollable-table-container ~ p"]))  # how the book writes errors
    parts.append(_section_html("1. The hook (0–5 min)", "hook", hook))
    derive = _sections(site, B + "derive-the-softmax-gradient.html",
                       ["define-the-softmax", "rebuild-the-proof-line-by-line"], instructor, key, "derive",
                       drop=["details.sd-dropdown"])  # the table of checks repeats the proof's lines
    parts.append(_section_html("2. Derive the gradient (5–15 min)", "derive", derive))
    curve = (_sections(site, B + "derive-the-softmax-gradient.html", ["put-numbers-on-it", "turn-up-the-scale"],
                       instructor, key, "curve")
             + _write_space("Predict: what do the panels do as s grows from 1 to 20? And down to 0.05?"))
    parts.append(_section_html("3. Read the curve (15–20 min)", "curve", curve))
    why = _sections(site, B + "scale-the-scores.html",
                    ["compute-the-variance-of-a-dot-product", "confirm-it-by-simulation"], instructor, key, "why")
    parts.append(_section_html("4. Why √dₖ (20–30 min)", "why", why))
    explore, _path = _section(site, B + "scale-the-scores.html", "explore-dk-and-the-vector-magnitude")
    for child in list(explore.find_all(recursive=False)):
        if child.name in ("h2", "ol"):  # the numbered "try" list tells what the class should see
            child.decompose()
    for para in explore.find_all("p", recursive=False):
        if para.get_text(strip=True) == "Things to try:":
            para.decompose()
    explore = _clean(explore, _path, instructor, key, "predict").decode_contents()
    predict = ('<h2>Your predictions</h2><p>Before each move, write what you expect. Then look at the '
               'explorer (on the projector, or the strip below) and write what you saw.</p>'
               + _worksheet_table()
               + _write_space("In one sentence: what did dividing by √dₖ fix, and what did it not fix?")
               + "<h2>The explorer at each step</h2>" + explore)
    parts.append(_section_html("5. Predict, then move the slider (30–42 min)", "predict", predict))
    discuss = ("<p>Circle one answer to each question, then discuss it with your neighbour.</p>"
               + _children(site, B + "scale-the-scores.html", "check-your-understanding", instructor, key, "quiz",
                           drop=["section > p"]))  # the page's words are about its on-screen feedback
    parts.append(_section_html("6. Discuss and check yourself (42–48 min)", "discuss", discuss))
    ticket = "".join(f'<p class="ho-q">{i}. {html.escape(q)}</p>' + _write_space("Your answer")
                     for i, q in enumerate(worksheets.EXIT_QUESTIONS, 1))
    parts.append(_section_html("7. Exit ticket (48–50 min)", "exit-ticket", ticket))
    if session == "workshop-2h":
        for n, (lab, title) in enumerate(LABS, 8):
            name = f"notebooks/{lab}.html"
            page = _page(str(site), name)
            top = page.soup.select_one("article.bd-article > section")
            intro = _soup("".join(str(c) for c in top.find_all(recursive=False)
                                  if c.name not in ("h1", "section")))
            # a lab's hidden cells are its checks and its worked answers: output included
            hidden = ["div.cell.tag_hide-input"]
            intro = _clean(_soup(f"<section>{intro.decode()}</section>").section, page.path, instructor,
                           key, title, drop=hidden).decode_contents()
            tasks = "".join(
                _sections(site, name, [s["id"]], instructor, key, title, drop=hidden)
                + (_write_space("Your answers", tall=True) if s["id"] == "check-yourself" else "")
                for s in top.find_all("section", recursive=False))
            parts.append(_section_html(f"{n}. {title}", lab, intro + tasks, "ho-lab"))
    if instructor:
        parts.append(_answer_key(site, session, key))
    return parts


_KEY_NAMES = {
    "derive": "Derive the gradient", "curve": "Read the curve", "why": "Why √dₖ",
    "predict": "Predict, then move the slider", "quiz": "Self-check quiz (section 6)", "notation": "The hook",
    "plan": "The plan",
}


def _answer_key(site: Path, session: str, key: list) -> str:
    T = "book/teach-with-this-book.html"
    body = ['<p>What the class should see at each step, the answers to the self-check, the exit '
            "ticket and the exercise it comes from"
            + (", and each lab's answers, task by task." if session == "workshop-2h" else ".") + "</p>"]
    rows = []
    for name in ("attention", "normalization", "scale"):
        for k, (stop, settings, _png, _alt, _readout) in enumerate(_frames(name), 1):
            rows.append(f"<tr><td>{html.escape(name)} {k}</td><td>{html.escape(settings)}</td>"
                        f"<td>{html.escape(stop.caption)}</td></tr>")
    body.append("<h2>Predictions: what the explorers show at each stop</h2>"
                + _sections(site, T, ["slider-settings-in-order"], True, [], "key").replace(
                    "<h3", "<h4").replace("</h3>", "</h4>")
                + '<table class="ho-stops"><thead><tr><th>Explorer, stop</th><th>Settings</th>'
                f"<th>What to see</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
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
            body.append(f"<h2>{html.escape(title.split(' (')[0])}: answers</h2>" + "".join(grouped.pop(title)))
    for where, texts in grouped.items():
        body.append(f"<h2>{html.escape(_KEY_NAMES.get(where, where))}: answers</h2>" + "".join(texts))
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
    return f'<nav class="ho-contents" aria-label="Contents"><p class="ho-contents-title">Contents</p><ol>{"".join(items)}</ol></nav>'


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
p:has(+ table), p:has(+ .pst-scrollable-table-container), p:has(+ figure), p:has(+ div.cell),
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
.ho-lines { height: 21mm; border: 1px solid #555;
  background: repeating-linear-gradient(#fff 0, #fff 7.6mm, #bbb 7.6mm, #bbb 7.9mm); }
.ho-q { font-weight: 600; margin-top: 0.6em; }
.ho-lines.ho-tall { height: 36mm; }
table.ho-worksheet { width: 100%; table-layout: fixed; }
table.ho-worksheet td.ho-blank { height: 27mm; }
table.ho-worksheet col.n { width: 2em; } table.ho-worksheet col.set { width: 21%; }
table.ho-worksheet col.q { width: 27%; }
.ho-strip { margin: 0.5em 0; }
.ho-strip-title { font-weight: 700; break-after: avoid; }
.ho-legend { font-size: 9pt; break-after: avoid; border: 1px dashed #777; padding: 0.2em 0.5em; }
.ho-frame { break-inside: avoid; page-break-inside: avoid; margin: 0.3em 0 0.7em; border-top: 1px solid #bbb;
  padding-top: 0.25em; }
.ho-frame img { display: block; width: 84%; margin: 0.15em auto; }
.ho-frame-head { font-size: 9.5pt; }
.ho-stop-caption { font-style: italic; }
.ho-readout { font-size: 7.8pt; line-height: 1.28; color: #222; margin: 0.1em 0; }
.ho-quiz ol { padding-left: 1.4em; }
.ho-options { list-style: none; padding-left: 0.6em; margin: 0.1em 0 0.5em; }
.ho-answer { border-left: 3px solid #555; padding: 0.1em 0.6em; margin: 0.5em 0; }
.ho-answer-title { font-weight: 700; }
.ho-key { break-before: page; }
.ho-key h2 { border-top: 1px solid #999; padding-top: 0.3em; }
.cell_output, .output { max-width: 100%; }
div.math, mjx-container[display="true"] { max-width: 100%; overflow: hidden; }
div.proof div.math { font-size: 74%; }  /* a 13-line aligned proof fits on one page */
.ho-frame .ho-strip-title { margin-top: 0; }
.pst-scrollable-table-container { overflow: visible; }
.ho-lab h2 { break-before: auto; }
"""


def handout_html(site, session: str, version: str, pages: list | None = None) -> str:
    """The whole handout as one HTML document; ``pages`` lists the page number of each h1
    and h2 heading in order (from a first print), for the contents page."""
    site = Path(site)
    filename(session, version)  # validates
    if not (site / "book").is_dir():
        raise ValueError(f"site must be the built book's directory (with book/), got {site}")
    instructor = version == "instructor"
    body = "".join(_parts(site, session, instructor))
    who = "Instructor's handout, with the plan and the answer key" if instructor else "Student handout"
    cover = (f'<header class="ho-cover"><p class="ho-title">{html.escape(TITLE)}</p>'
             f'<p class="ho-subtitle">{SESSION_NAMES[session]}: {who}</p>'
             + ("" if instructor else '<div class="ho-meta"><span>Name:</span><span>Date:</span></div>')
             + _contents(body, pages) + "</header>")
    mathjax = _mathjax_head(site)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(TITLE)}: {SESSION_NAMES[session]} ({version})</title>"
            f"<style>{_STYLE}</style>{mathjax}</head><body><main>{cover}{body}</main></body></html>\n")


def _mathjax_head(site: Path) -> str:
    """How the book's pages draw their maths, from the built site: the stylesheet of the maths
    typeset at build time (sphinx_ext.prerender_maths), or, in a book built without Node.js,
    the site's own MathJax set-up, as the pages load it."""
    page = _page(str(site), "book/intro.html")
    out = []
    for link in page.soup.head.find_all("link", rel="stylesheet"):
        href = link.get("href", "")
        if "maths.css" in href:
            out.append(f'<link rel="stylesheet" href="{(page.path.parent / href.split("?")[0]).resolve().as_uri()}">')
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


def _print(browser, document: str, session: str, version: str, scratch: Path) -> bytes:
    scratch.write_text(document, encoding="utf-8")
    page = browser.new_page(viewport={"width": COLUMN_PX, "height": 1100})
    try:
        page.goto(scratch.as_uri(), wait_until="load")
        wait_for_maths(page)
        page.emulate_media(media="print")
        return page.pdf(format="A4", print_background=True, margin=MARGIN, display_header_footer=True,
                        header_template="<span></span>", footer_template=_footer(session, version),
                        outline=True, tagged=True)
    finally:
        page.close()


def print_handout(browser, site, session: str, version: str, out) -> Path:
    """Print one handout with a Playwright ``browser`` to ``out`` (a PDF), in two passes:
    the first finds the page of each section, the second prints the contents page with them."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = out.with_suffix(".html")  # the one HTML document the PDF is printed from
    first = _print(browser, handout_html(site, session, version), session, version, scratch)
    pages = [number for level, _title, number in outline(io.BytesIO(first)) if level <= 2]
    final = _print(browser, handout_html(site, session, version, pages), session, version, scratch)
    out.write_bytes(final)
    return out


def make_handouts(browser, site, out_dir) -> list[Path]:
    """All four handouts into ``out_dir``; returns their paths."""
    out_dir = Path(out_dir)
    return [print_handout(browser, site, s, v, out_dir / filename(s, v)) for s in SESSIONS for v in VERSIONS]
