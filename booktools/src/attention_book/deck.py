"""The 50-minute session as slides: ``present/session-50min.html`` in the instructor's edition.

The deck runs through the session in the order of the lesson plan
(:data:`attention_scaling.lesson.SESSION`): the hook, the proof one line at a time (the
SymPy-checked :func:`attention_scaling.derivations.seed_proof`, each line with its reason
and how SymPy checked it), Figure 1.1, the scale explorer's stops, the variance theorem, its
table and the simulation, the worksheet's predictions each followed by the main explorer's
stops, the discussion questions, the chapter's quiz and the exit ticket. Every slide is made
from the book's own content: the package's data, or a piece of a built page (the theorem, the
figures, the quiz, the discussion questions), and each carries presenter notes (the answer,
the block's minutes, its cut cue) that only the presenter view shows.

``deck_assets/deck.js`` (copied beside the slides, with ``deck.css``; not in ``_static``, which
Jupyter Book loads on every page) shows one slide at a time, fitted to the screen, with a clicker's keys,
a black screen and full screen, and opens the presenter view (``?presenter``) in a second
window that it keeps in step with, with no server (BroadcastChannel, and ``postMessage``
between the two windows). Stop slides drive the explorer's own Present mode
(``_static/player.js``).

The instructor's edition writes it when the build ends, before the maths is typeset (the
slides' formulas are typeset with the pages'): ``book_instructor_sheets`` in _config.yml
names :func:`write_deck`.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from attention_scaling import lesson, worksheets

__all__ = ["Slide", "DECK_PATH", "slides", "deck_html", "write_deck", "KINDS"]

#: Where the deck goes in the instructor's site.
DECK_PATH = "present/session-50min.html"
#: The kinds of slide, as deck.js and the tests read them.
KINDS = ("title", "question", "answer", "proof", "table", "figure", "theorem", "stop", "discussion", "quiz",
         "ticket")


@dataclass(frozen=True)
class Slide:
    """One slide: the ``block`` of the plan it belongs to (its slug), its ``kind`` (one of
    :data:`KINDS`), a plain-text ``title`` (the heading; a stop's is its caption), the ``body``
    (HTML), the presenter's ``notes`` (HTML), and for a stop, the ``explorer`` and the stop's
    index in :data:`attention_scaling.lesson.STOPS`."""

    block: str
    kind: str
    title: str
    body: str = ""
    notes: str = ""
    explorer: str | None = None
    stop: int | None = None
    data: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        lesson.SESSION.block(self.block)  # names a block of the plan
        if (self.kind == "stop") != (self.explorer is not None and self.stop is not None):
            raise ValueError(f"slide {self.title!r}: a stop slide, and only one, names its explorer and stop")


_DOLLARS = re.compile(r"\$([^$]+)\$")


def _tex(text: str) -> str:
    """Plain text with ``$..$`` maths, as HTML whose maths the build typesets (``\\(..\\)``)."""
    parts = _DOLLARS.split(text)
    return "".join(html.escape(p) if i % 2 == 0 else rf"\({html.escape(p)}\)" for i, p in enumerate(parts))


def _p(text: str, cls: str = "") -> str:
    """A paragraph of ``text`` (HTML); with a class, a block that may hold paragraphs itself."""
    return f'<div class="{cls}">{text}</div>' if cls else f"<p>{text}</p>"


def _div(fragment: str) -> str:
    """A block for a fragment of a built page that may hold paragraphs (a list item's)."""
    return f"<div>{fragment}</div>"


def _block_note(slug: str) -> str:
    b = lesson.SESSION.block(slug)
    return _p(f"<b>{html.escape(b.title)}</b>, {b.times}: {html.escape(b.held)}.")


# --- the pieces of the built pages ----------------------------------------------------------


def _built(site: Path, name: str, selector: str):
    """A fresh copy of the first element matching ``selector`` on built page ``name``, ready for
    a slide: no heading links, buttons or scripts, its links unwrapped."""
    from .handout import _select

    node = _select(site, name, selector)
    for t in node.select("a.headerlink, button, script, span.section-number, .asb-present-open"):
        t.decompose()
    for a in node.find_all("a"):
        a.unwrap()
    return node


def _items(site: Path, name: str, section: str) -> list[str]:
    """The list items of a built section (its first list), as HTML."""
    ol = _built(site, name, f"section#{section} > ol, section#{section} > ul")
    return [li.decode_contents() for li in ol.find_all("li", recursive=False)]


T = "book/teach-with-this-book.html"
DERIVE = "book/derive-the-softmax-gradient.html"
SCALE = "book/scale-the-scores.html"


# --- the slides, block by block -------------------------------------------------------------


def _agenda() -> str:
    rows = "".join(f"<tr><td>{b.times}</td><td>{html.escape(b.title)}</td></tr>" for b in lesson.SESSION.blocks)
    return f'<table class="asb-deck-agenda"><tbody>{rows}</tbody></table>'


def _hook(site: Path) -> list[Slide]:
    from .handout import HOOK

    answers = _items(site, T, "answers-to-the-hook-and-the-worksheet")
    answer = next(a for a in answers if "The hook." in a)
    return [
        Slide("hook", "title", worksheets.SESSION, _p("A 50-minute session", "asb-deck-sub") + _agenda(),
              _block_note("hook") + _p("Keys: → or Space next, ← back, B black screen, F full screen, "
                                       "P this presenter view, Esc twice to leave.")),
        Slide("hook", "question", "The hook: predict first",
              _p(html.escape(HOOK), "asb-deck-lead") + _p("Write your guess, and why.", "asb-deck-ask"),
              _div(answer) + _p("Hear two or three guesses before the next slide, which answers it.")),
        Slide("hook", "answer", "The hook: the answer", _p(_hook_answer(answer), "asb-deck-lead"),
              _p("The next 9 minutes derive why: ∂P₁/∂z₁ = P₁(1 − P₁), line by line.")),
    ]


def _hook_answer(answer: str) -> str:
    """The instructor page's answer to the hook, without its bold lead-in ("The hook.")."""
    from .handout import _soup

    soup = _soup(answer)
    lead = soup.find("strong")
    if lead is not None and lead.get_text(strip=True).startswith("The hook"):
        lead.decompose()
    return soup.decode().strip()


def _derive() -> list[Slide]:
    from attention_scaling.derivations import seed_proof

    proof = seed_proof()
    n = len(proof.lines)
    out = []
    chain_lhs = {}
    for k, (line, check) in enumerate(zip(proof.lines, proof.checks), 1):
        lhs = line.lhs or chain_lhs[line.chain]
        if line.chain:
            chain_lhs[line.chain] = lhs
        how = ("a definition: nothing to check" if check.method == "definition"
               else f"SymPy checked that it holds ({html.escape(check.method)})")
        # the lines it follows from, dimmed: the line before it, or, in a chain, every line since
        # the chain's line before it (the side results it substitutes come between)
        first = k - 1
        if line.chain:
            earlier = [j for j in range(1, k) if proof.lines[j - 1].chain == line.chain]
            first = earlier[-1] if earlier else k - 1
        before = "".join(
            f'<div class="asb-deck-before">\\[({j})\\quad {proof.lines[j - 1].lhs or chain_lhs.get(proof.lines[j - 1].chain, "")}'
            f" = {proof.lines[j - 1].rhs}\\]</div>" for j in range(max(first, 1), k))
        checked = "" if check.method == "definition" else _p("✓ SymPy checked this line", "asb-deck-check")
        body = (before + f'<div class="asb-deck-line">\\[({k})\\quad {lhs} = {line.rhs}\\]</div>'
                + _p(_tex(line.reason[0].upper() + line.reason[1:]), "asb-deck-reason") + checked)
        notes = _p(f"Line {k} of {n}: {_tex(line.reason)}; {how}.")
        if k == 1:
            notes = _block_note("derive") + notes
        out.append(Slide("derive", "proof", f"The proof, line {k} of {n}", body, notes,
                         data={"line": k, "lines": n}))
    rows = "".join(f"<tr><td>{c.step}</td><td>{_tex(c.reason)}</td><td>{html.escape(c.method)}</td></tr>"
                   for c in proof.checks)
    cut = lesson.SESSION.block("derive").cut
    out.append(Slide("derive", "table", "How SymPy checked every line",
                     '<table class="asb-deck-table"><thead><tr><th>Line</th><th>Reason</th><th>Checked by</th>'
                     f"</tr></thead><tbody>{rows}</tbody></table>",
                     _p(f"{proof.checked_steps} of the {n} lines are checked; the others are definitions. "
                        "A wrong line stops the build.") + (_p(html.escape(cut.text)) if cut else "")))
    return out


def _on_screen(explorer: str, stop) -> str:
    """The numbers the stop talks about as its readout shows them (the package's readout at the
    stop's settings, :mod:`attention_scaling.readout`): "Unscaled: largest weight 0.108 (mean 0.192 ± 0.009)"."""
    from .handout import _explorer

    readout = _explorer(explorer).readout(**stop.settings)
    said = []
    for group in readout.groups:
        rows = [r for r in group.rows if not stop.numbers or r.label in stop.numbers]
        cells = [f"{r.label} {r.cells(True)[0]} (mean {r.cells(True)[1]})" if r.mean is not None
                 else f"{r.label} {r.cells(False)[0]}" for r in rows]
        if cells:
            said.append((f"{group.caption}: " if group.caption else "") + "; ".join(cells))
    return _p("On the screen: " + html.escape(". ".join(said)) + ".")


def _stop_slides(block: str, explorer: str, indices, notes_first: str = "", talk: dict | None = None) -> list[Slide]:
    """The stop slides of ``explorer`` at ``indices``; their notes: the stop, the numbers on the
    screen, and ``talk`` (stop index -> HTML) where the instructor page says what to point at."""
    from .handout import LEGENDS

    stops = lesson.stops(explorer)
    out = []
    for i in indices:
        stop = stops[i]
        end = "" if stop.caption.endswith(("?", ".", "!")) else "."
        notes = _p(f"Stop {i + 1} of {len(stops)}: {html.escape(stop.caption)}{end}") + _on_screen(explorer, stop)
        notes += (talk or {}).get(i, "")
        if not out:
            notes = notes_first + notes + _p("The figure: " + html.escape(LEGENDS[explorer]))
        out.append(Slide(block, "stop", stop.caption, notes=notes, explorer=explorer, stop=i))
    return out


#: The points Figure 1.1 marks (the chapter's: the blog post's examples).
EXAMPLES = {"P = 0.99": 0.99, "P = 0.998": 0.998, "P = 0.001": 0.001}


def _projector_figure(site: Path) -> str:
    """Figure 1.1 drawn again by the package's function, on a smaller canvas than the page's, so
    that its text is larger against the screen (its alt text and caption are the page's)."""
    import base64
    import io

    import matplotlib.pyplot as plt
    from PIL import Image

    from attention_scaling.figures import png_bytes, self_gradient_curve

    built = _built(site, DERIVE, "figure#fig-self-gradient")
    alt = built.find("img").get("alt", "")
    caption = built.select_one("figcaption .caption-text") or built.find("figcaption")
    first = re.search(r"^(.*?[.])\s", caption.decode_contents(), re.S) if caption is not None else None
    fig = self_gradient_curve(EXAMPLES, width=6.8, height=3.2)
    try:  # cut to what it draws (the smaller canvas pushes its outer labels past the edge), crisp at 200 dpi
        data = png_bytes(fig, dpi=200, tight=True)
    finally:
        plt.close(fig)
    width, height = Image.open(io.BytesIO(data)).size
    ratio = width / height
    png = base64.b64encode(data).decode("ascii")
    # as wide as the slide allows, or as 68 % of the screen's height allows (deck.css)
    return (f'<figure><img class="asb-deck-img" src="data:image/png;base64,{png}" alt="{html.escape(alt)}" '
            f'style="width: min(100%, calc(68vh * {ratio:.4f}))">'
            + (f"<figcaption>Figure 1.1. {first.group(1)}</figcaption>" if first else "") + "</figure>")


def _curve(site: Path) -> list[Slide]:
    from .handout import PANELS_PREDICTION

    fig = _projector_figure(site)
    cut = lesson.SESSION.block("curve").cut
    return [
        Slide("curve", "figure", "The gradient P(1 − P) against the weight", fig,
              _block_note("curve") + _p("Name the peak: P = 1/2, where P(1 − P) = 1/4; at either end it vanishes.")),
        Slide("curve", "question", "The scale explorer: predict first",
              _p(html.escape(PANELS_PREDICTION), "asb-deck-lead") + _p("Write your prediction.", "asb-deck-ask"),
              _p("Then step through the stops. What they should see:")
              + _div(next(a for a in _items(site, T, "answers-to-the-hook-and-the-worksheet")
                          if "what do the panels do" in a))),
        *_stop_slides("curve", "scale", range(len(lesson.stops("scale"))),
                      _p(html.escape(cut.text)) if cut else ""),
    ]


def _why(site: Path) -> list[Slide]:
    theorem = _built(site, SCALE, "div#thm-dot-variance")
    table = _built(site, SCALE, "section#compute-the-variance-of-a-dot-product div.pst-scrollable-table-container")
    sim = _built(site, SCALE, "section#confirm-it-by-simulation details.asb-deeper table")
    said = _built(site, SCALE, "section#confirm-it-by-simulation > p")
    cut = lesson.SESSION.block("why").cut
    return [
        Slide("why", "theorem", "Why √dₖ: the variance of a dot product", theorem.decode(),
              _block_note("why") + _p("On the board, the proof in two lines: E[q·k] = Σ E[qᵢ]E[kᵢ] = 0; "
                                      "Var(q·k) = Σ Var(qᵢkᵢ) (independent terms) = Σ E[qᵢ²]E[kᵢ²] = dₖσ_q²σ_k². "
                                      "The spread of q·k is then σ_qσ_k√dₖ: dividing by √dₖ keeps it at σ_qσ_k "
                                      "whatever dₖ is (1 for unit components).")),
        Slide("why", "table", "SymPy's sympy.stats gives the same moments", table.decode(),
              _p("The table is computed by sympy.stats while the page builds.")),
        Slide("why", "table", "A simulation agrees",
              re.sub(r"\s*\(the fold has the table\)", "", said.decode()) + sim.decode(),
              _p(html.escape(cut.text)) if cut else ""),
    ]


def _predict(site: Path) -> list[Slide]:
    from .handout import FIX_QUESTION  # the worksheet's last question, as the sheet prints it

    out = []
    rows = lesson.PREDICTIONS[:lesson.WORKSHEET_ROWS]  # the optional fifth is for the next session
    # what the class should see at each step (the instructor page's "Slider settings, in order")
    seen = _items(site, T, "slider-settings-in-order")
    cut = lesson.SESSION.block("predict").cut
    for k, pred in enumerate(rows, 1):
        notes = (_block_note("predict") + (_p(html.escape(cut.text)) if cut else "")) if k == 1 else ""
        out.append(Slide("predict", "question", f"Predict, row {k} of {len(rows)}: {pred.settings}",
                         _p(html.escape(pred.question), "asb-deck-lead")
                         + _p("Write it in the worksheet's row before the next slide.", "asb-deck-ask"),
                         notes + _p("Give the class a minute; hear one prediction. What they should see:")
                         + _div(seen[k - 1])))
        covered = [i for explorer, i in pred.stops if explorer == "attention"]
        out += _stop_slides("predict", "attention", covered,
                            talk={i: _p("Point at:") + _div(seen[k - 1]) for i in covered})
    out.append(Slide("predict", "question", "In one sentence", _p(html.escape(FIX_QUESTION), "asb-deck-lead")
                     + _p("Write it under your worksheet.", "asb-deck-ask"),
                     _div(next(a for a in _items(site, T, "answers-to-the-hook-and-the-worksheet")
                               if "In one sentence" in a))))
    return out


def _discuss(site: Path) -> list[Slide]:
    from .handout import _select

    questions = _items(site, T, "discussion-questions")
    answers = _items(site, T, "answers-to-the-discussion-questions")
    quiz_first = _text_of(_built(site, SCALE, "section#check-your-understanding fieldset.asb-question legend"))
    out = []
    for k, (q, a) in enumerate(zip(questions, answers), 1):
        notes = (_block_note("discuss") + _p("Pick two of the four (type the slide's number and Enter to jump).")
                 if k == 1 else "") + _div(a)
        if _gives_away(a, quiz_first):
            notes += _p("Its answer gives away the quiz's first question: pick it only if the quiz is skipped.")
        out.append(Slide("discuss", "discussion", f"Discuss, question {k} of {len(questions)}",
                         _p(q, "asb-deck-lead"), notes))
    quiz = _built(site, SCALE, "section#check-your-understanding div.asb-quiz")
    fields = quiz.select("fieldset.asb-question")
    letters = "ABCDEFGH"
    cut = lesson.SESSION.block("discuss").cut
    for k, q in enumerate(fields, 1):
        options = [o.find("label").decode_contents() for o in q.select("div.asb-option")]
        # its answers (the data script _built drops), from the page itself
        facts = json.loads(_select(site, SCALE, f"fieldset#{q['id']} script.asb-quiz-data").string)
        right = [i for i, ok in enumerate(facts["correct"]) if ok]
        items = "".join(f"<li><b>{letters[i]}.</b> {o}</li>" for i, o in enumerate(options))
        legend = q.find("legend").decode_contents()
        why = " ".join(html.escape(facts["why"][i]) for i in right)
        notes = _p(f"Answer: <b>{', '.join(letters[i] for i in right)}</b>. {why}")
        if k == 1 and cut:
            notes = _p(html.escape(cut.text)) + notes
        out.append(Slide("discuss", "quiz", f"Quiz, question {k} of {len(fields)}",
                         _p(legend, "asb-deck-lead") + f'<ul class="asb-deck-options asb-deck-lead">{items}</ul>', notes))
    return out


def _text_of(node) -> str:
    return " ".join(node.get_text(" ").split())


def _gives_away(answer: str, question: str) -> bool:
    """Whether a discussion answer names both numbers of a quiz question ("from 64 to 256")."""
    numbers = set(re.findall(r"\b\d{2,}\b", question))
    from .handout import _soup

    return len(numbers) >= 2 and numbers <= set(re.findall(r"\b\d{2,}\b", _text_of(_soup(answer))))


def _ticket(site: Path) -> list[Slide]:
    items = "".join(f"<li>{html.escape(q)}</li>" for q in worksheets.EXIT_QUESTIONS)
    answers = _built(site, T, "section#answers-to-the-exit-ticket")
    for h in answers.find_all(["h2", "h3"]):
        h.decompose()
    return [Slide("exit-ticket", "ticket", "Exit ticket: on the printed ticket",
                  f'<ol class="asb-deck-ticket asb-deck-lead">{items}</ol>',
                  _block_note("exit-ticket") + answers.decode_contents())]


def slides(site) -> list[Slide]:
    """Every slide of the 50-minute session, in the plan's order, from the built instructor's
    site ``site`` (its pages before or after their maths is typeset) and the package."""
    site = Path(site)
    if not (site / T).is_file():
        raise ValueError(f"site must be the instructor's edition of the built book (with {T}), got {site}")
    out = _hook(site) + _derive() + _curve(site) + _why(site) + _predict(site) + _discuss(site) + _ticket(site)
    order = [b.slug for b in lesson.SESSION.blocks]
    if [s.block for s in out] != sorted((s.block for s in out), key=order.index):
        raise ValueError("the slides must follow the plan's blocks in order")
    return out


# --- the page -------------------------------------------------------------------------------


def _plan_json() -> str:
    plan = lesson.SESSION
    blocks = [{"slug": b.slug, "title": b.title, "start": b.start, "end": b.end, "times": b.times,
               "cut": {"at": b.cut.at, "skip": b.cut.skip, "saves": b.cut.saves} if b.cut else None}
              for b in plan.blocks]
    return json.dumps({"title": plan.title, "minutes": plan.minutes, "blocks": blocks}, ensure_ascii=False)


def _players(stop_slides: list[Slide]) -> str:
    from .handout import _explorer
    from attention_scaling.explorables.page import module_html

    names = list(dict.fromkeys(s.explorer for s in stop_slides))
    return "".join(f'<div class="asb-deck-player" data-explorer="{n}">'
                   f"{module_html(_explorer(n), f'asb-deck-{n}')}</div>" for n in names)


def deck_html(site, footer: str = "") -> str:
    """The deck as one page of the instructor's site (at :data:`DECK_PATH`), with the site's
    ``footer`` (HTML) under the list of slides."""
    all_slides = slides(site)
    sections = []
    for k, s in enumerate(all_slides, 1):
        attrs = (f'id="slide-{k}" class="asb-slide asb-kind-{s.kind}" data-block="{s.block}" data-kind="{s.kind}"'
                 f' aria-label="Slide {k} of {len(all_slides)}"')
        if s.kind == "stop":
            numbers = html.escape(json.dumps(list(lesson.stops(s.explorer)[s.stop].numbers), ensure_ascii=False))
            panel = lesson.stops(s.explorer)[s.stop].panel
            attrs += (f' data-explorer="{s.explorer}" data-stop="{s.stop}" data-panel="{panel}"'
                      f' data-numbers="{numbers}"')
        heading = f'<h2 class="asb-slide-title">{_tex(s.title)}</h2>'
        sections.append(f"<section {attrs}>{heading}<div class=\"asb-slide-body\">{s.body}</div>"
                        f'<aside class="asb-notes" aria-label="Presenter notes">{s.notes}</aside></section>')
    plan = html.escape(_plan_json())
    title = html.escape(f"Present: {lesson.SESSION.title} (50-minute session)")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title>"
        '<link rel="stylesheet" href="../_static/book.css"><link rel="stylesheet" href="deck.css">'
        "</head><body class=\"asb-deck-page\">"
        f'<main class="asb-deck" data-plan="{plan}" aria-label="{title}">'
        '<header class="asb-deck-head"><h1>' + html.escape(lesson.SESSION.title) + ": the 50-minute session</h1>"
        f"<p>{len(all_slides)} slides in the order of the plan on the instructor page. "
        '<button type="button" class="asb-deck-start">Present from slide 1</button> '
        '<button type="button" class="asb-deck-presenter">Open the presenter view</button></p>'
        "<p class=\"asb-deck-help\">Keys while presenting: → PageDown Space next, ← PageUp back, Home End, "
        "B or . black screen, F full screen, P presenter view, Esc twice to leave. "
        "The presenter view (a second window) shows the notes, the next slide, a clock and the time "
        "left against the plan, and follows the slides both ways.</p>"
        "<p class=\"asb-deck-help\">The slides use the built book's scripts, styles and fonts: to take them to "
        "the classroom, copy the whole built folder (or open them from its web server), not this file alone. "
        "Type a slide's number and Enter to jump to it.</p>"
        '<p><label><input type="checkbox" class="asb-deck-show-notes"> Show the presenter notes in this list '
        "(they hold the answers: keep them off the projector)</label></p>"
        "<noscript><p>Presenting needs JavaScript: without it the slides are listed below, with their "
        "notes.</p></noscript></header>"
        + "".join(sections)
        + f'<div class="asb-deck-players" hidden>{_players([s for s in all_slides if s.kind == "stop"])}</div>'
        + (f'<footer class="asb-deck-foot">{footer}</footer>' if footer else "")
        + "</main>"
        '<script defer src="../_static/player.js"></script><script defer src="deck.js"></script>'
        "</body></html>\n")


#: The slides' script and stylesheet, in this package; written beside the slides.
ASSETS = ("deck.js", "deck.css")


def write_deck(outdir, footer: str = "") -> list[Path]:
    """Write the deck, its script and its stylesheet into the built instructor's site
    ``outdir``; return their paths, the page first."""
    from importlib.resources import files

    out = Path(outdir) / DECK_PATH
    out.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ASSETS:
        asset = out.parent / name
        asset.write_text(files("attention_book").joinpath("deck_assets", name).read_text(encoding="utf-8"),
                         encoding="utf-8")
        written.append(asset)
    out.write_text(deck_html(outdir, footer), encoding="utf-8")
    return [out, *written]
