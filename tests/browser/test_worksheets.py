"""Worksheets and answer keys apart (issue 15 item 3).

- The printable prediction worksheet and exit ticket (attention_scaling.worksheets), which
  the build writes to print/ in the site: their content, their argument checks, and that
  each prints on exactly one A4 page with space to write.
- The labs as worksheets: every "Predict" prompt is followed by a space to answer, the
  checks' outputs fold, and the answer sits folded at the end of the task; on the web page
  the space is a labelled text box and, printed, the answers are left out.
"""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

import nbformat
import pytest

from attention_book.sphinx_ext import PREDICTION_LEAD
from attention_scaling.worksheets import (EXIT_QUESTIONS, EXIT_TICKET_FILE, PREDICTION_STEPS, SHEETS_DIR,
                                          WORKSHEET_FILE, Step, exit_ticket, prediction_worksheet,
                                          write_sheets)
from book_files import ROOT
from checks import open_with_store, stored

LABS = sorted((ROOT / "notebooks").glob("lab-*.ipynb"))
ANSWER = '<details class="asb-answer">'
FOLD = "hide-output"
# The prefix of the localStorage keys under which quiz.js keeps a typed prediction.
PREDICTION_PREFIX = "asb-prediction:"


def _text(raw: str) -> str:
    """Extracted PDF text, comparable: ligatures undone, spaces collapsed, and a word broken
    at its hyphen across lines ("QK- norm") joined again."""
    return re.sub(r"-\s+", "-", " ".join(unicodedata.normalize("NFKC", raw).split()))


# --- the printable sheets ------------------------------------------------------------------

def test_worksheet_has_a_row_per_step_with_space_to_write():
    page = prediction_worksheet()
    assert page.count('<td class="blank"></td>') == 2 * len(PREDICTION_STEPS)  # prediction, what you saw
    for step in PREDICTION_STEPS:
        assert step.settings.replace("“", "&ldquo;") in page or step.settings in page
        assert step.question in page
    assert "Your prediction" in page and "What you saw" in page and "Name:" in page
    assert "<script" not in page and "http" not in page  # nothing to run, nothing to fetch


def test_exit_ticket_repeats_every_question_on_each_copy():
    for copies in (1, 2, 3):
        page = exit_ticket(copies=copies)
        assert page.count('<section class="ticket">') == copies
        for q in EXIT_QUESTIONS:
            assert page.count(q.replace("'", "&#x27;")) == copies


@pytest.mark.parametrize("bad", [dict(copies=0), dict(copies=4), dict(copies=True), dict(copies=1.5),
                                 dict(questions=()), dict(questions=("ok", " "))])
def test_exit_ticket_rejects_bad_arguments(bad):
    with pytest.raises(ValueError, match="copies" if "copies" in bad else "questions"):
        exit_ticket(**bad)


@pytest.mark.parametrize("bad", [(), ("dₖ = 1",), [Step("a", "b"), "c"]])
def test_worksheet_rejects_bad_steps(bad):
    with pytest.raises(ValueError, match="steps"):
        prediction_worksheet(bad)


def test_write_sheets_needs_the_site(tmp_path):
    with pytest.raises(ValueError, match="site"):
        write_sheets(tmp_path / "missing")
    written = write_sheets(tmp_path, footer='<p class="asb-build">Built from commit x</p>')
    assert [p.name for p in written] == [WORKSHEET_FILE, EXIT_TICKET_FILE]
    assert all(p.parent == tmp_path / SHEETS_DIR and p.stat().st_size > 1000 for p in written)
    assert all(p.read_text().count("Built from commit x") == 1 for p in written)  # the build stamp, once


@pytest.mark.browser
def test_each_sheet_prints_on_one_page_with_room_to_write(site, browser):
    from pypdf import PdfReader

    expected = {
        WORKSHEET_FILE: [s.question for s in PREDICTION_STEPS] + ["Your prediction", "What you saw"],
        EXIT_TICKET_FILE: list(EXIT_QUESTIONS),
    }
    for name, texts in expected.items():
        path = site / SHEETS_DIR / name
        assert path.is_file(), f"the build did not write {path}"
        page = browser.new_page(viewport={"width": 390, "height": 844})
        requests = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(path.as_uri(), wait_until="load")
        assert requests == [path.as_uri()], f"{name} loads more than itself: {requests}"
        # on a phone it reads without sideways scrolling
        assert page.evaluate("document.documentElement.scrollWidth") <= 391, f"{name} overflows at 390 px"
        page.emulate_media(media="print")
        smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll('td.blank, .lines')]
                                    .map(e => e.getBoundingClientRect().height))""")
        assert smallest >= 60, f"{name}: a space to write is only {smallest:.0f} px tall"
        pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
        page.close()
        reader = PdfReader(io.BytesIO(pdf))
        assert len(reader.pages) == 1, f"{name} prints on {len(reader.pages)} pages, not one"
        text = _text(reader.pages[0].extract_text())
        for t in texts:
            assert _text(t) in text, f"{name}: the printed page lacks {t!r}"


def test_instructor_page_links_both_sheets():
    page = (ROOT / "book" / "teach-with-this-book.md").read_text()
    for name in (WORKSHEET_FILE, EXIT_TICKET_FILE):
        assert f'href="../{SHEETS_DIR}/{name}"' in page


# --- the labs as worksheets ----------------------------------------------------------------

def _tasks(path: Path) -> list[list]:
    """The lab's cells, split into tasks at each "## " heading."""
    tasks: list[list] = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("## "):
            tasks.append([])
        if tasks:
            tasks[-1].append(cell)
    return tasks


def _kind(cell) -> str:
    if cell.cell_type == "code":
        tags = cell.metadata.get("tags", [])
        # not on the web page: a prediction's variable (prediction_1 = None), which the check
        # below reads in a notebook, and the book's own checks after an answer (they print
        # nothing: tests/book/test_labs.py reads every output of a Run All)
        if "remove-cell" in tags:
            return "removed"
        return "fold" if FOLD in tags else "code"
    if cell.source.startswith(f"**{PREDICTION_LEAD}**"):
        return "space"
    if cell.source.startswith(ANSWER):
        return "answer"
    return "predict" if "**Predict" in cell.source else "text"


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.stem)
def test_every_prediction_has_a_space_a_folded_check_and_a_folded_answer_after_it(lab):
    predictions = 0
    for task in _tasks(lab):
        kinds = [_kind(c) for c in task]
        for i, kind in enumerate(kinds):
            if kind != "predict":
                continue
            predictions += 1
            assert kinds[i + 1] == "space", f"{lab.name}: no space to answer right after {task[i].source[:60]!r}"
            # in a notebook, the space is followed by the prediction's variable, which the check reads
            variable = re.fullmatch(r"(?:#.*\n)*(prediction_\d+) = None", task[i + 2].source.strip())
            assert kinds[i + 2] == "removed" and variable, f"{lab.name}: no prediction cell after the space"
            reads = [c for c in task[i + 3:] if _kind(c) == "fold" and f"check({variable[1]}," in c.source]
            assert reads, f"{lab.name}: no folded check reads {variable[1]}"
            rest = kinds[i + 2:]
            answer = rest.index("answer") if "answer" in rest else None
            assert answer is not None, f"{lab.name}: no folded answer after {task[i].source[:60]!r}"
            between = rest[:answer]
            assert "fold" in between, f"{lab.name}: the check before the answer does not fold its output"
            assert "code" not in between, f"{lab.name}: a check's output shows before the answer"
        # the answers sit at the end: nothing but text after a task's last answer
        if "answer" in kinds:
            tail = kinds[len(kinds) - kinds[::-1].index("answer"):]
            assert set(tail) <= {"text", "removed"} and not any("**Predict" in c.source for c in task[-len(tail):] if tail)
    assert predictions >= 2, f"{lab.name} has only {predictions} predictions"


@pytest.mark.browser
@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.stem)
def test_lab_page_is_a_worksheet(site, browser, lab):
    spaces = sum(_kind(c) == "space" for t in _tasks(lab) for c in t)
    answers = sum(_kind(c) == "answer" for t in _tasks(lab) for c in t)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((site / "notebooks" / f"{lab.stem}.html").as_uri(), wait_until="load")
    state = page.evaluate("""() => {
      const boxes = [...document.querySelectorAll('.asb-prediction textarea')];
      const labelled = boxes.filter(b => {
        const l = document.querySelector(`label[for="${b.id}"]`);
        return l && l.offsetHeight > 0 && l.textContent.trim() === 'Your prediction'; });
      const answers = [...document.querySelectorAll('details.asb-answer')];
      const raw = document.querySelector('article').innerText.includes('Your prediction:');
      const folded = [...document.querySelectorAll('.cell.tag_hide-output')].map(c => {
        const out = c.querySelector('.cell_output');
        return !!out && !out.checkVisibility(); });
      return {boxes: boxes.length, labelled: labelled.length, answers: answers.length,
              open: answers.filter(a => a.open).length,
              // a closed <details> keeps its content laid out but not rendered (content-visibility)
              shown: answers.filter(a => a.querySelector(':scope > :not(summary)')?.checkVisibility()).length,
              raw, folded};
    }""")
    assert state["boxes"] == spaces and state["labelled"] == spaces, state
    assert state["answers"] == answers and state["open"] == 0 and state["shown"] == 0, state
    assert not state["raw"], "a prediction cell shows as its raw text, not as a box"
    assert state["folded"] and all(state["folded"]), f"a check's output is not folded: {state['folded']}"
    page.fill(".asb-prediction textarea", "It grows by about 8.")  # a student can write in it
    page.emulate_media(media="print")
    printed = page.evaluate("""() => ({
      answers: [...document.querySelectorAll('details.asb-answer')].filter(a => a.checkVisibility()).length,
      toggles: [...document.querySelectorAll('.cell.tag_hide-output summary')].filter(a => a.checkVisibility()).length,
      boxes: [...document.querySelectorAll('.asb-prediction textarea')].map(b => b.offsetHeight)})""")
    page.close()
    assert printed["answers"] == 0, "printed, a lab shows its answers"
    assert printed["toggles"] == 0, "printed, a folded output leaves a dead 'Show code cell output'"
    assert printed["boxes"] and min(printed["boxes"]) >= 70, f"printed spaces to write are too small: {printed}"


@pytest.mark.browser
def test_a_prediction_typed_on_the_page_survives_a_new_visit(site, browser):
    """The cold student reading lost a typed prediction on coming back: each box now keeps its
    own text in this browser (quiz.js), and an emptied box forgets it. Each visit is a new
    tab (a reload would restore the form from the browser's own page state)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    url = (site / "notebooks" / f"{LABS[0].stem}.html").as_uri()

    def read(page):
        return page.evaluate("() => [...document.querySelectorAll('.asb-prediction textarea')].map(b => b.value)")

    def visit():
        page = context.new_page()
        page.goto(url, wait_until="load")
        return page, read(page)

    def come_back(typed_on, done):
        """A new tab, while the one typed on is still open, up to three times over about ten
        seconds, as a student might. In loaded runs Chromium lost such writes (checks.stored):
        if the new tab's store differs from what the typed-on tab left, the return is checked
        on a tab opened with that very store put back. Where the stores agree and the box does
        not, that is the page's fault: the assertions below fail."""
        left = stored(typed_on, PREDICTION_PREFIX)
        for attempt in range(3):
            page, values = visit()
            if done(values):
                break
            if attempt < 2:
                page.close()
                typed_on.wait_for_timeout(1000 * (1 + 3 * attempt))
        else:
            if stored(page, PREDICTION_PREFIX) != left:
                page.close()
                page = open_with_store(context, url, PREDICTION_PREFIX, left)
                values = read(page)
                print(f"{url}: the browser lost the page's stored predictions; the return was checked "
                      "from the same store put back")
        typed_on.close()
        return page, values

    page, values = visit()
    assert len(values) >= 2 and not any(values), values
    page.locator(".asb-prediction textarea").nth(1).fill("It returns nan: e^1000 overflows.")
    page, kept = come_back(page, lambda values: any(values))
    assert kept[1] == "It returns nan: e^1000 overflows." and kept[0] == "" and not any(kept[2:]), kept
    page.locator(".asb-prediction textarea").nth(1).fill("")
    page, emptied = come_back(page, lambda values: not any(values))
    assert not any(emptied), emptied
    context.close()


def test_teach_notebook_keeps_the_sheets_text_without_dead_links():
    """The instructor page's generated notebook (notebooks/chapters/) has no print/ beside it:
    the sheets' names stay as text, their site-relative links go."""
    nb = nbformat.read(ROOT / "notebooks" / "chapters" / "teach-with-this-book.ipynb", as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "prediction worksheet" in text and "exit ticket" in text
    assert f"{SHEETS_DIR}/{WORKSHEET_FILE}" not in text and f"{SHEETS_DIR}/{EXIT_TICKET_FILE}" not in text


def test_worksheet_steps_are_the_lessons_stops():
    """The worksheet's rows name the settings presentation mode steps through
    (attention_scaling.lesson), so the sheet and the projector cannot drift apart."""
    from attention_scaling.lesson import stops

    settings = [s.settings for s in PREDICTION_STEPS]
    for stop in stops("attention"):
        d_k, m = stop.settings["d_k"], stop.settings["magnitude"]
        assert any(f"dₖ = {d_k}," in t and f"m = {m:g}" in t for t in settings), (d_k, m)
    norm = stops("normalization")
    assert [s.settings["mode"] for s in norm[:2]] == ["scaled", "qk-l2"]
    assert {s.settings["magnitude"] for s in norm[:2]} == {10.0}
    assert "m = 10" in settings[-1] and "QK-norm" in settings[-1]
