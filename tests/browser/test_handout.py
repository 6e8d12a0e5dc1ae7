"""make handout: the session's documents (attention_book.handout.DOCUMENTS), rendered to images
and read back.

For the 50-minute session: the four-page student sheet (a part a page: the hook and notation,
the proof, the worksheet, the quiz), the exit ticket on its own sheet, the "after the session"
handout (the chapters' text and the explorers' strips) and the instructor's version; for the
2-hour workshop, the student's packet (its exit ticket on a sheet of its own, last) and the
instructor's. Checks the page counts and what each page holds, the text (no answer on what a
student holds before the question is collected; the answer key at the end of an instructor
version), the bookmarks against the contents page, that no dead control is printed and no box is
clipped, that maths prints at 9 pt or more, that no heading is stranded at the foot of a page and
no page is more than half blank (ink measured per page, rendered by pypdfium2).
"""

from __future__ import annotations

import functools
import re
import unicodedata

import numpy as np
import html

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from attention_book import handout
from attention_scaling import lesson

pytestmark = pytest.mark.browser

SHEET = ("session-50min", "student")
TICKET = ("session-50min", "exit-ticket")
AFTER = ("session-50min", "after")
ALL = list(handout.DOCUMENTS)
#: The documents with a contents page (the sheet and the ticket are too short for one).
WITH_CONTENTS = [key for key in ALL if key not in (SHEET, TICKET)]
#: What a student holds, by session.
STUDENTS = {s: [(s, v) for s2, v in ALL if s2 == s and v != "instructor"] for s in handout.SESSIONS}
MM = 72 / 25.4  # PDF points per millimetre


def _mm(value: str) -> float:
    return float(value.removesuffix("mm"))


@pytest.fixture(scope="module")
def handouts(site, browser, tmp_path_factory):
    out = tmp_path_factory.mktemp("handout")
    paths = handout.make_handouts(browser, site, out)
    return {key: path for key, path in zip(ALL, paths)}


def _words(text: str) -> str:
    """Text as the checks compare it: NFKC (undoes ligatures), one space between words."""
    return " ".join(unicodedata.normalize("NFKC", text).replace("\u00ad", "").split())


@functools.cache
def _extracted(pdf) -> tuple[str, ...]:
    """Each page's text as pypdf extracts it, read once per file: the handouts are printed once
    per module, and extraction (1-2 s a file) was repeated by every check that reads them."""
    return tuple(page.extract_text() for page in PdfReader(pdf).pages)


def _pages_text(pdf) -> list[str]:
    return [_words(text) for text in _extracted(pdf)]


def _document(pdf) -> BeautifulSoup:
    """The one HTML document the PDF was printed from (written beside it)."""
    return BeautifulSoup(pdf.with_suffix(".html").read_text(encoding="utf-8"), "html.parser")


# --- what the answers say, read from the built pages ------------------------------------------

SOURCES = {
    "session-50min": ["book/derive-the-softmax-gradient.html", "book/scale-the-scores.html"],
    "workshop-2h": ["book/derive-the-softmax-gradient.html", "book/scale-the-scores.html"]
    + [f"notebooks/{lab}.html" for lab, _title in handout.LABS],
}


def _plain_runs(node) -> list[str]:
    """The runs of plain text of ``node`` between its maths and code, longest first."""
    for m in node.select("span.math, div.math, code, pre"):
        m.replace_with("\u0000")
    blocks = [b for b in node.select("p, li") if not b.select("p, li")] or [node]
    return sorted((_words(r) for b in blocks for r in b.get_text().split("\u0000")), key=len, reverse=True)


def _answer_snippets(site, session) -> list[str]:
    """A sentence-long piece of every answer the handout's pages fold: its answers, the
    quiz's explanations and the exercise solutions it uses, from the built HTML."""
    snippets = []
    for name in SOURCES[session]:
        soup = BeautifulSoup((site / name).read_text(encoding="utf-8"), "html.parser")
        answers = [d for d in soup.select("details") if handout._is_answer(d)]
        if name.endswith("scale-the-scores.html"):
            answers += soup.select("#ex-divide-by-d ~ div.solution")[:1]
        elif name.startswith("book/"):
            answers = [d for d in answers if d.find_parent("div", class_="asb-quiz") is None
                       and d.find_parent("section", id="exercises") is None]
        for d in answers:
            if d.summary:
                d.summary.decompose()
            runs = [r[:60] for r in _plain_runs(d) if len(r) >= 30]
            if runs:
                snippets.append(runs[0])
    assert len(snippets) >= (4 if session == "session-50min" else 15), snippets
    return snippets


# --- the checks --------------------------------------------------------------------------------

def test_the_documents_and_their_length(handouts):
    counts = {key: len(PdfReader(path).pages) for key, path in handouts.items()}
    for key, path in handouts.items():
        assert path.name == handout.filename(*key)
    assert counts[SHEET] <= 4 and counts[TICKET] == 1, counts
    # the after-session handout holds the chapters' text and the strips; the instructor's version
    # that, the plan and the key; the workshop's packet the session's and three labs
    assert counts[SHEET] < counts[AFTER] < counts["session-50min", "instructor"], counts
    # the workshop's packet: the session's sheet, the three labs and the ticket; the instructor's, all
    assert counts[SHEET] + 6 < counts["workshop-2h", "student"] < counts["workshop-2h", "instructor"], counts
    with pytest.raises(ValueError, match="version must be one of"):
        handout.filename("workshop-2h", "after")


def test_each_page_of_the_student_sheet_holds_one_part(handouts):
    """Page 1 the hook and the session's notation; page 2 the proof, all 13 lines; page 3 the
    worksheet, every row the session asks; page 4 the variance to fill in and the quiz. No strip
    and no answer: what answers a prediction is shown on the projector, then printed in the
    "after the session" handout; nothing names what the exit ticket's third question asks for."""
    pages = _pages_text(handouts[SHEET])
    assert len(pages) == 4, [p[:60] for p in pages]
    tops = [(title, page) for level, title, page in handout.outline(handouts[SHEET]) if level == 1]
    assert [p for _t, p in tops] == [1, 2, 3, 4, 4], tops
    assert [t.split(".")[0] for t, _p in tops] == ["1", "2", "3 and 5", "4", "6"], tops
    sheet = " ".join(pages)
    for word in ("QK-norm", "LayerNorm", "temperature", "gain", "the gradient of a weight with respect to its own"):
        assert word not in sheet, f"the sheet names {word!r}, which answers a question it asks"
    assert pages[0].startswith(_words(handout.TITLE)) and "Name:" in pages[0] and "Hook." in pages[0] and "Notation" in pages[0]
    assert "In the code" not in pages[0], "the sheet's notation is the symbols and their meaning"
    assert "2. Derive the gradient" in pages[1] and all(f"({k})" in pages[1] for k in range(1, lesson.PROOF_LINES + 1))
    assert "Factor out" in pages[1] and "Checked by" in pages[1]
    assert "Your predictions" in pages[2] and handout.PANELS_PREDICTION in pages[2]
    for k, row in enumerate(handout.worksheets.PREDICTION_STEPS, 1):
        assert (_words(row.question)[:30] in pages[2]) != row.settings.startswith("Optional"), k
    assert "6. Discuss" in pages[3] and all(f"{n}." in pages[3] for n in range(1, lesson.QUIZ_QUESTIONS + 1))
    assert "Var(q·k) =" in pages[3]
    doc = _document(handouts[SHEET])
    assert not doc.select(".ho-strip, .ho-answer, .ho-key") and handout.AFTER not in " ".join(pages)
    ticket = _pages_text(handouts[TICKET])
    assert len(ticket) == 1 and all(_words(q)[:40] in ticket[0] for q in handout.worksheets.EXIT_QUESTIONS)
    assert "Name:" in ticket[0]


@pytest.mark.parametrize("session", handout.SESSIONS)
def test_student_version_has_no_answers_and_the_instructor_version_ends_with_them(site, handouts, session):
    student = " ".join(" ".join(_pages_text(handouts[key])) for key in STUDENTS[session])
    pages = _pages_text(handouts[session, "instructor"])
    instructor = " ".join(pages)
    for marker in (handout.ANSWER_KEY, "For the instructor", "Misconceptions to expect", "Discussion questions",
                   "Solution to Exercise", "One possible answer", "Answers to the exit ticket"):
        assert marker not in student, f"{session} student version prints {marker!r}"
    entries = handout.outline(handouts[session, "instructor"])
    tops = [(title, page) for level, title, page in entries if level == 1]
    assert tops[0][0].startswith("For the instructor") and tops[-1][0] == handout.ANSWER_KEY, tops
    key_page = tops[-1][1]
    key_text = " ".join(pages[key_page - 1:])
    for snippet in _answer_snippets(site, session):
        assert snippet not in student, f"{session} student version prints an answer: {snippet!r}"
        assert snippet in key_text, f"{session} answer key lacks: {snippet!r}"
        assert snippet not in " ".join(pages[:key_page - 1]), f"{session}: answer before the key: {snippet!r}"
    teach = BeautifulSoup((site / "book/teach-with-this-book.html").read_text(encoding="utf-8"), "html.parser")
    exit_answers = _plain_runs(teach.select_one("#answers-to-the-exit-ticket ol"))[0][:60]
    assert exit_answers in key_text and exit_answers not in student
    plan = _plain_runs(teach.select_one("#misconceptions-to-expect ul"))[0][:60]
    assert plan in instructor and plan not in student


@pytest.mark.parametrize("key", WITH_CONTENTS, ids="-".join)
def test_bookmarks_match_the_contents_page_and_the_page_numbers(handouts, key):
    pdf = handouts[key]
    pages = _pages_text(pdf)
    for number, text in enumerate(pages, 1):
        assert text.endswith(f"page {number} of {len(pages)}"), f"page {number}: footer {text[-40:]!r}"
    contents = [(_words(li.select_one(".ho-toc-title").get_text()), li.select_one(".ho-toc-page").get_text())
                for li in _document(pdf).select("nav.ho-contents li")]
    marks = [(_words(title), str(page)) for level, title, page in handout.outline(pdf) if level <= 2]
    assert len(contents) >= 9 and contents == marks
    # the contents fit on one page: the first, or, after the instructor's run sheet, the second
    on = pages[1] if key[1] == "instructor" else pages[0]
    assert all(title in on for title, _page in contents)


@pytest.mark.parametrize("key", ALL, ids="-".join)
def test_no_dead_control_and_players_print_as_strips(handouts, key):
    pdf = handouts[key]
    text = " ".join(_pages_text(pdf))
    for dead in ("▶", "Precomputed frames", "Drag a slider", "Toggle hidden"):
        assert dead not in text, f"{key}: {dead!r} printed"
    # a toggle's label, not in quotes (an answer may say: the “Show code cell source” button)
    toggle = re.search(r"(?<![“\"])(Show|Hide) code cell", text)
    assert toggle is None, f"{key}: a dead toggle printed: {text[toggle.start():toggle.start() + 40]!r}"
    # A control's label alone on a line (the prose may name a button: "its Present button")
    lines = {_words(line) for text in _extracted(pdf) for line in text.splitlines()}
    for dead in ("Present", "Close", "Copy", "Show code cell source", "Hide code cell source", "Answer"):
        assert dead not in lines, f"{key}: a dead {dead!r} control printed"
    doc = _document(pdf)
    controls = doc.select("main button, main input, main textarea, main select, main details, main summary, "
                          "main output, main fieldset, main .asb-player")
    assert not controls, [str(c)[:80] for c in controls]
    strips = doc.select(".ho-strip")
    # the plan's step 5 (optional) in both sessions; the QK-norm lab's explorer in the workshop;
    # none on what the class writes on during the session
    expected = {SHEET: [], TICKET: [], ("workshop-2h", "student"): ["normalization"]}.get(
        key, ["scale", "attention", "normalization"] + (["normalization"] if key[0] == "workshop-2h" else []))
    assert [s["data-explorer"] for s in strips] == expected
    for strip in strips:
        stops = lesson.stops(strip["data-explorer"])
        frames = strip.select("figure.ho-frame")
        assert len(frames) == len(stops)
        for k, (frame, stop) in enumerate(zip(frames, stops), 1):
            head = _words(frame.figcaption.get_text())
            assert head.startswith(f"Stop {k} of {len(stops)}.")
            assert all(f"= {value:g}" in head or f"= {value}" in head or str(value).replace("-", "") in head.lower()
                       for value in stop.settings.values() if not isinstance(value, str)), head
            assert frame.select_one(".ho-module") and frame.select_one(".ho-readout").get_text(strip=True)
            # the readout prints as the player's table, without the spoken copy of its numbers
            assert frame.select(".ho-readout table.asb-rt td") and not frame.select(".asb-said")
            assert (_words(stop.caption) in head) == (key[1] == "instructor")  # the plan's words: instructors only
        assert f"Stop {len(stops)} of {len(stops)}." in text


@pytest.mark.parametrize("key", ALL, ids="-".join)
def test_no_box_is_wider_than_the_text_column(handouts, browser, key):
    page = browser.new_page(viewport={"width": handout.COLUMN_PX, "height": 1000})
    try:
        page.goto(handouts[key].with_suffix(".html").as_uri(), wait_until="load")
        handout.wait_for_maths(page)
        page.emulate_media(media="print")
        boxes = page.evaluate("document.querySelectorAll('main img, main table, main pre').length")
        assert boxes >= {TICKET: 0, SHEET: 3}.get(key, 11), boxes  # tables: the notation, the proof, the worksheet
        assert page.evaluate(handout.MEASURE_JS, handout.COLUMN_PX) == []
    finally:
        page.close()


# What the module drew in each stop of each strip, read in the printed document (after its scripts).
_DRAWN = """() => [...document.querySelectorAll('.ho-strip')].map(strip => ({
    explorer: strip.dataset.explorer,
    stops: [...strip.querySelectorAll('.ho-module')].map(box => ({
        values: JSON.parse(box.dataset.values),
        panels: box.querySelectorAll('.asb-panel svg').length,
        texts: [...box.querySelectorAll('.asb-panel svg text')].filter(t => t.getBBox().width > 0).length,
        smallestPt: Math.min(...[...box.querySelectorAll('.asb-panel svg text')].filter(t => t.getClientRects().length)
            .map(t => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a * 0.75)),
        red: [...box.querySelectorAll('path.asb-bar:not(.asb-outlined)')].flatMap(r => r.dataset.value.split(' ').map(Number)),
        leftovers: box.querySelectorAll('.asb-readout, .asb-numbers, .asb-key, details, input').length})),
}))"""


def test_strips_print_the_modules_drawing_at_each_stop(handouts, browser):
    """Each stop of each strip is the explorer's module drawn at the stop's settings (its panels,
    nothing interactive); the main explorer's bars are the package's weights there, to 1e-12."""
    from attention_scaling.figures import AttentionFigure

    page = browser.new_page(viewport={"width": handout.COLUMN_PX, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(handouts[AFTER].with_suffix(".html").as_uri(), wait_until="load")
        page.emulate_media(media="print")
        strips = page.evaluate(_DRAWN)
    finally:
        page.close()
    assert errors == []
    assert [s["explorer"] for s in strips] == ["scale", "attention", "normalization"]
    figure = AttentionFigure()
    for strip in strips:
        stops = lesson.stops(strip["explorer"])
        assert [s["values"] for s in strip["stops"]] == [dict(stop.settings) for stop in stops]
        for drawn, stop in zip(strip["stops"], stops):
            assert drawn["panels"] >= 2 and drawn["texts"] >= 10 and drawn["leftovers"] == 0, (strip["explorer"], drawn)
            assert drawn["smallestPt"] >= 7, (strip["explorer"], stop.settings, drawn["smallestPt"])
            if strip["explorer"] == "attention":
                figure.update(**({"n_keys": 16, "seed": 0} | stop.settings))
                assert drawn["red"] == pytest.approx(list(figure.state.weights.unscaled), rel=1e-12, abs=1e-300)


def _ink(pdf, scale: float = 0.5):
    """Per page: a boolean array, True where a row of the text area holds ink."""
    import pypdfium2 as pdfium

    top, bottom = _mm(handout.MARGIN["top"]), _mm(handout.MARGIN["bottom"])
    rows = []
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for page in doc:
            grey = np.asarray(page.render(scale=scale).to_pil().convert("L"))
            px_per_mm = grey.shape[0] / (page.get_height() / MM)
            area = grey[round(top * px_per_mm):grey.shape[0] - round(bottom * px_per_mm)]
            rows.append((area < 200).any(axis=1))
    finally:
        doc.close()
    return rows


#: The longest blank stretch a page may have (a share of its printable area), unless it is the
#: last page of a section followed by a page that starts the next section at its top.
MOST_BLANK = 0.25


def _sections_at_the_top(reader) -> set[int]:
    """Pages (from 1) that start with a top-level section: its heading within 20 mm of the
    top of the printable area."""
    out = set()
    for item in reader.outline:
        if isinstance(item, list):
            continue
        page = reader.get_destination_page_number(item)
        height = float(reader.pages[page].mediabox.height)
        if height - float(item.top) <= (_mm(handout.MARGIN["top"]) + 20) * MM:
            out.add(page + 1)
    return out


def _starts_with_a_whole_box(text: str) -> bool:
    """Does a page's text start with a box printed whole: the proof, a strip's frame, or a
    numbered figure (its picture, which has no text, then its caption)?"""
    return bool(text.startswith("Proof.") or re.match(r"Stop \d+ of \d+\.", text)
                or re.match(r"Fig\. \d+\.\d+ ", text) or "stops of the session plan" in text[:300])


def _longest_blank(row_ink) -> float:
    """The longest run of rows with no ink (the blank at the foot included), as a share of the area."""
    longest = run = 0
    for inked in row_ink:
        run = 0 if inked else run + 1
        longest = max(longest, run)
    return longest / len(row_ink)


@pytest.mark.parametrize("key", ALL, ids="-".join)
def test_no_half_blank_page_and_no_stranded_heading(handouts, key):
    pdf = handouts[key]
    ink = _ink(pdf)
    reader = PdfReader(pdf)
    bottom = _mm(handout.MARGIN["bottom"]) * MM
    starts = _sections_at_the_top(reader)
    blank = {number: _longest_blank(rows) for number, rows in enumerate(ink, 1)}
    texts = _pages_text(pdf)
    for number, rows in enumerate(ink, 1):
        assert rows.any(), f"{key}: page {number} is empty"
        # a section's last page may end blank, but only when the next page starts a new section at its top;
        # so may a page whose next one starts with a box kept whole: the proof (its derivation on the page
        # of its words) or a strip's frame (its settings, figure and readout together)
        last_of_section = number + 1 in starts or number == len(ink)
        # the instructor's run sheet is page 1, alone by design (the contents follow on page 2)
        last_of_section = last_of_section or (key[1] == "instructor" and number == 1)
        # the workshop's last lab page before the blank page that puts the exit ticket on a sheet of its own
        last_of_section = last_of_section or (number < len(ink) and "left blank" in texts[number])
        if not (last_of_section or _starts_with_a_whole_box(texts[number] if number < len(ink) else "")):
            assert blank[number] <= MOST_BLANK, f"{key}: page {number} is {blank[number]:.0%} blank (all: {blank})"

    def walk(items):
        for item in items:
            if isinstance(item, list):
                yield from walk(item)
            else:
                yield item

    for item in walk(reader.outline):
        room = float(item.top) - bottom  # from the heading's top down to the foot of the text area
        assert room > 22 * MM, f"{key}: heading {item.title!r} stranded at the foot of a page ({room / MM:.0f} mm)"


def test_the_main_explorer_tells_scaled_from_unscaled_without_colour():
    """Greyscale print: the scaled artists differ from the unscaled ones in fill, line style
    or hatch, not in colour alone (the prose names both: "red, filled ...; blue, outlined")."""
    from matplotlib.colors import to_rgba

    from attention_scaling.figures import AttentionFigure

    fig = AttentionFigure(n_pairs=200)
    assert to_rgba(fig.bars_s.get_facecolor())[:3] != to_rgba(fig.bars_u.get_facecolor())[:3]
    assert to_rgba(fig.bars_s.get_facecolor())[:3] == (1.0, 1.0, 1.0)  # outlined, not filled
    line_u, line_s = fig.mean_w_u[-1], fig.mean_w_s[-1]
    assert line_u.get_linestyle() != line_s.get_linestyle()
    assert fig.mean_g_u[0].get_linestyle() != fig.mean_g_s[0].get_linestyle()
    assert fig.hist_s.get_hatch() and not fig.hist_u.get_hatch()
    assert "outlined" in handout.ATTENTION_LEGEND and "dashed" in handout.ATTENTION_LEGEND


# --- predict, then see; taught before asked; answered in the key -------------------------------

@pytest.mark.parametrize("key", ALL, ids="-".join)
def test_every_prediction_comes_before_the_strip_that_answers_it(handouts, key):
    """A strip shows what the class is asked to predict: in every section its "Predict"
    space (or the worksheet's table) comes first, and the strip after it under a heading
    that says so, never beside it or before it."""
    doc = _document(handouts[key])
    for part in doc.select("section.ho-part:not(.ho-lab)"):  # a lab keeps its own order of tasks
        order = part.select(".ho-write, table.ho-worksheet, .ho-strip, h2, h3")
        strips = [i for i, el in enumerate(order) if "ho-strip" in (el.get("class") or [])]
        asks = [i for i, el in enumerate(order) if el.name == "table" or (
            "ho-write" in (el.get("class") or []) and "Predict" in el.get_text())]
        for i in strips:
            heads = [el for el in order[:i] if el.name in ("h2", "h3")]
            assert heads and heads[-1].get_text().startswith(handout.AFTER), (key, heads[-1:])
        if strips and part.select_one("h1").get("id") != "qk-norm":
            assert asks and max(asks) < min(strips), f"{key}: a prediction after its strip in {part.h1.get_text()!r}"


def test_the_fifty_minute_handout_teaches_what_its_worksheet_and_ticket_ask():
    """Row 5 of the worksheet and the ticket's question 3 ask about QK-norm: the 50-minute
    student version has a section on it (marked optional, like row 5 and the plan's step 5)."""
    import attention_scaling.worksheets as ws

    assert ws.PREDICTION_STEPS[-1].settings.startswith("Optional") and "QK-norm" in ws.PREDICTION_STEPS[-1].settings
    assert "trainable" in ws.EXIT_QUESTIONS[2]


def test_the_after_session_handout_has_the_qk_norm_section(handouts):
    pages = _pages_text(handouts[AFTER])
    tops = [(title, page) for level, title, page in handout.outline(handouts[AFTER]) if level == 1]
    titles = [t for t, _p in tops]
    assert any(t.startswith("5b. Optional") for t in titles), titles
    at = [p for t, p in tops if t.startswith("5b.")][0]
    text = " ".join(pages[at - 1:])
    section = text[:text.index("6. Discuss")]
    assert "QK-norm" in section and "Stop 4 of 4." in section  # taught, with the explorer's strip


def test_answer_key_answers_every_prediction_row_with_the_explorers_numbers(handouts):
    """Each row of the prediction table is answered with numbers computed here from the
    figures (not from the handout's code): the means of the largest weight at the stops."""
    from attention_scaling.figures import AttentionFigure, NormalizationFigure

    doc = _document(handouts["session-50min", "instructor"])
    key = doc.select_one("section.ho-key")
    rows = [_words(tr.get_text(" ")) for tr in key.select("table.ho-stops")[-1].select("tbody tr")]
    assert len(rows) == len(handout.worksheets.PREDICTION_STEPS), rows
    att, norm = lesson.stops("attention"), lesson.stops("normalization")
    fig = AttentionFigure(n_pairs=200)

    def mean(stop, curve):
        fig.update(**stop.settings)
        return getattr(fig.state.mean, curve).max_weight.mean

    assert f"{mean(att[1], 'unscaled'):.3f}" in rows[1] and f"{mean(att[1], 'scaled'):.3f}" in rows[1]
    assert f"{mean(att[3], 'scaled'):.3f}" in rows[3] and f"{mean(att[4], 'scaled'):.3f}" in rows[3]
    nf = NormalizationFigure(seed=0)
    for stop in norm[:2]:
        st = stop.settings
        assert f"{nf.expectation(st['magnitude'], st['mode'], gain=st['gain']).max_weight.mean:.3f}" in rows[4]
    d2, d3 = att[1].settings["d_k"], att[2].settings["d_k"]
    assert f"= {(d3 / d2) ** 0.5:g} times" in rows[2]
    text = _words(key.get_text(" "))
    for heading in ("Answers to the discussion questions", "Answers to the hook and the worksheet"):
        assert heading in text
    for question in ("The hook", "Predict: what do the panels do", "In one sentence: what did dividing"):
        assert question in text, question


# --- print is not the web page -----------------------------------------------------------------

WEB_ONLY = [r"dropdown below", r"dropdown of checks", r"reasons? on the right", r"under the player",
            r"next chapter derives", r"blog post", r"\b(Theorem|Exercise) \d+\.\d+", r"Lab Lab",
            r"\b[Tt]he fold\b", r"Going deeper"]  # a chapter's "Going deeper" folds print open


@pytest.mark.parametrize("key", ALL, ids="-".join)
def test_print_has_no_web_only_wording_and_cites_what_it_lists(handouts, key):
    text = " ".join(_pages_text(handouts[key]))
    for pattern in WEB_ONLY:
        found = re.search(pattern, text)
        assert found is None, f"{key}: prints {text[max(found.start() - 30, 0):found.end() + 30]!r}"
    for label in set(re.findall(r"\[([A-Z][A-Za-z]*\+?\d\d)\]", text)):
        assert re.search(rf"Reference: \[{re.escape(label)}\] \w", text), f"{key}: cites [{label}], lists no reference"
    titles = [_words(t.get_text()) for t in _document(handouts[key]).select(".ho-answer-title")]
    assert all(a != b for a, b in zip(titles, titles[1:])), titles


def test_the_exit_ticket_is_not_answered_in_the_student_material(handouts):
    """Question 2's row and its gradient are not printed before the ticket asks them."""
    from fractions import Fraction

    q = handout.worksheets.EXIT_QUESTIONS[1]
    row = re.search(r"P = \(([0-9.]+),", q).group(1)
    grad = Fraction(row) * (1 - Fraction(row))
    sheet = " ".join(_pages_text(handouts[SHEET]))  # handed out with the ticket, on the desk
    assert f"{float(grad):g}" not in sheet and row not in sheet
    assert row in " ".join(_pages_text(handouts[TICKET]))
    pages = _pages_text(handouts["workshop-2h", "student"])
    ticket = [p for _l, t, p in handout.outline(handouts["workshop-2h", "student"]) if t.startswith("7. Exit ticket")][0]
    before = " ".join(pages[:ticket - 1])
    assert f"{float(grad):g}" not in before and row not in before


def test_the_exit_ticket_is_on_one_page_of_its_own_sheet(handouts):
    """The ticket is handed in: its section (all its questions and spaces) is on one page. In the
    50-minute session it is a document of its own; in the workshop's packet it is the last page and
    an odd one, so that printed on both sides it is the back of no lab page."""
    assert len(PdfReader(handouts[TICKET]).pages) == 1
    packet = handouts["workshop-2h", "student"]
    pages = _pages_text(packet)
    tops = [(t, p) for level, t, p in handout.outline(packet) if level == 1]
    assert tops[-1][0].startswith("7. Exit ticket") and tops[-1][1] == len(pages) and len(pages) % 2 == 1, \
        (tops[-3:], len(pages))
    assert tops[-2][0].startswith("10. Lab"), "the labs come before it"
    if _document(packet).select(".ho-filler"):  # the last lab ended on an odd page: its back is left blank
        assert "left blank" in pages[-2]
    for key in (("session-50min", "instructor"), ("workshop-2h", "student")):
        pdf = handouts[key]
        tops = [(t, p) for level, t, p in handout.outline(pdf) if level == 1]
        k = [i for i, (t, _p) in enumerate(tops) if t.startswith("7. Exit ticket")][0]
        start = tops[k][1]
        pages = _pages_text(pdf)
        last_q = handout.worksheets.EXIT_QUESTIONS[-1]
        assert _words(last_q)[:40] in pages[start - 1], f"{key}: the ticket runs past page {start}"


def test_the_scale_explorers_jacobian_marks_its_sign_without_colour():
    """Greyscale print: red and blue cells of the Jacobian print as the same grey, so each
    cell also carries a + (above 0) or a − (below 0) mark, where J has that sign."""
    from attention_scaling.figures import ScaleFigure

    fig = ScaleFigure(seed=0)
    for scale in (0.05, 3.0, 20.0):
        fig.update(scale=scale)
        jac = fig.state.jacobian
        for sign, marks in fig.signs.items():
            cells = {(int(round(y)), int(round(x))) for x, y in marks.get_offsets()}
            assert cells == {tuple(c) for c in np.argwhere(np.sign(jac) == sign)}, (scale, sign)
        assert {fig.signs[1].get_paths()[0].vertices.tobytes()} != {fig.signs[-1].get_paths()[0].vertices.tobytes()}
    assert "+" in handout.LEGENDS["scale"] and "−" in handout.LEGENDS["scale"]


def test_answer_key_quotes_the_digits_of_the_strips_tables():
    """The prediction answers read the readout's rows (no text parsing) and print its digits."""
    from attention_book.handout import _frames, _prediction_answers, _readout

    answers = html.unescape(_prediction_answers())
    for curve, word in (("Unscaled", "The red (unscaled): its largest weight is"), ("Scaled by", "the blue's is")):
        read = _readout("attention", 2, curve, "largest weight")
        draw, mean = _frames("attention")[1].readout.row(curve, "largest weight").cells(True)
        assert read.draw == draw and mean.startswith(f"{read.mean} ± ")
        assert f"{word} {draw}" in answers and f"(mean {read.mean})" in answers
    with pytest.raises(ValueError, match="no row"):
        _readout("attention", 2, "Unscaled", "smallest weight")


@pytest.mark.parametrize("session", handout.SESSIONS)
def test_the_instructor_version_starts_with_a_one_page_run_sheet(site, handouts, session):
    """Page 1: the run sheet, from the lesson plan's data: every block's minutes and title, its
    slides in the session's deck, what it holds, and each cut cue with its minute; the contents
    start page 2."""
    from attention_book import deck

    pages = _pages_text(handouts[session, "instructor"])
    first = " ".join(pages[0].split())
    assert "Run sheet" in first and "Contents" not in first and pages[1].lstrip().startswith("Contents")
    numbers = [k for k, _s in enumerate(deck.slides(site), 1)]
    blocks = [s.block for s in deck.slides(site)]
    for b in handout.lesson.SESSION.blocks:
        assert b.times in first and b.title.split()[0] in first, b
        ks = [k for k, block in zip(numbers, blocks) if block == b.slug]
        said = f"{ks[0]}–{ks[-1]}" if len(ks) > 1 else str(ks[0])
        assert _words(f"{b.title} {said}") in first, (b.slug, said)
        if b.cut:
            assert f"If you are past minute {b.cut.at}" in first, b.cut
    if session == "workshop-2h":
        assert all(b.times in first for b in handout.lesson.WORKSHOP.blocks[1:])
    student = " ".join(_pages_text(handouts[session, "student"])[0].split())
    assert "Run sheet" not in student and "If you are past minute" not in student


_PRINTED_SIZES = """() => ({
    maths: [...document.querySelectorAll('main mjx-container')].filter(m => m.getClientRects().length)
        .map(m => [parseFloat(getComputedStyle(m).fontSize) * 0.75, m.textContent.slice(0, 30)]),
    pictures: [...document.querySelectorAll('main img')].filter(i => i.getClientRects().length)
        .map(i => ({src: i.src, width: i.getBoundingClientRect().width, natural: i.naturalWidth})),
})"""


@pytest.mark.parametrize("key", [SHEET, AFTER, ("workshop-2h", "student")], ids="-".join)
def test_maths_prints_at_nine_points_and_figure_text_at_seven(handouts, browser, key):
    """Every formula at 9 pt or more (its font size: sub- and superscripts are smaller by
    design); every picture's smallest text (the PNG records it) at 7 pt or more at its printed
    width. The strips' drawings are held to 7 pt in test_strips_print_the_modules_drawing_at_each_stop."""
    import base64
    import io

    from PIL import Image

    page = browser.new_page(viewport={"width": handout.COLUMN_PX, "height": 1000})
    try:
        page.goto(handouts[key].with_suffix(".html").as_uri(), wait_until="load")
        handout.wait_for_maths(page)
        page.emulate_media(media="print")
        sizes = page.evaluate(_PRINTED_SIZES)
    finally:
        page.close()
    small = [(round(pt, 2), text) for pt, text in sizes["maths"] if pt < 9 - 1e-6]
    assert len(sizes["maths"]) > 20 and small == [], f"{key}: maths under 9 pt: {small[:5]}"
    for picture in sizes["pictures"]:
        if not picture["src"].startswith("data:image/png"):
            continue
        info = Image.open(io.BytesIO(base64.b64decode(picture["src"].split(",", 1)[1]))).info
        if "asb:min-font-pt" not in info:  # a picture with no text (none today has none)
            continue
        pt = float(info["asb:min-font-pt"]) * picture["width"] / picture["natural"] * float(info["dpi"][0]) / 96
        assert pt >= 7, f"{key}: a figure's text prints at {pt:.1f} pt"
