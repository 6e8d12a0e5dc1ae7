"""Printable sheets for a class: a one-page prediction worksheet and an exit ticket.

The build writes them beside the book (``print/`` in the site, see
:func:`write_sheets`); the instructor page links them. Each is a self-contained HTML
page laid out for one A4 sheet: no theme, no script, no maths to typeset, so it opens
and prints the same from disk, offline, in any browser.

The worksheet's steps are the predictions of the 50-minute session's plan
(:data:`attention_scaling.lesson.PREDICTIONS`); the exit ticket asks its
:data:`~attention_scaling.lesson.EXIT_QUESTIONS`.
"""

from __future__ import annotations

import html
from pathlib import Path

from .lesson import EXIT_QUESTIONS, PREDICTIONS, SESSION as _PLAN, Prediction

#: Where the sheets go, relative to the built site.
SHEETS_DIR = "print"
WORKSHEET_FILE = "prediction-worksheet.html"
EXIT_TICKET_FILE = "exit-ticket.html"
SESSION = _PLAN.title


#: The worksheet's rows and the exit ticket's questions: the lesson plan's (:mod:`.lesson`).
Step = Prediction
PREDICTION_STEPS = PREDICTIONS


_STYLE = """
@page { size: A4; margin: 12mm 14mm; }
* { box-sizing: border-box; }
html { color-scheme: light dark; }
body { font: 11pt/1.35 system-ui, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       margin: 0 auto; max-width: 182mm; padding: 1em; color: #111; background: #fff; }
h1 { font-size: 16pt; margin: 0 0 0.2em; }
p { margin: 0.3em 0; }
.meta { display: flex; gap: 2em; margin: 0.6em 0; }
.meta span { flex: 1; border-bottom: 1px solid #555; padding-bottom: 0.1em; }
table { width: 100%; border-collapse: collapse; margin-top: 0.6em; table-layout: fixed; }
th, td { border: 1px solid #555; padding: 0.35em 0.45em; vertical-align: top; text-align: left;
         overflow-wrap: anywhere; hyphens: auto; }
th { background: #eee; font-weight: 600; }
td.blank { height: 34mm; }
col.n { width: 2.2em; } col.set { width: 20%; } col.q { width: 27%; }
.lines { border: 1px solid #555; height: 26mm; margin: 0.3em 0 0.8em; }
.ticket { break-inside: avoid; }
.ticket h1 { font-size: 14pt; }
.ticket .lines { height: 16mm; margin-bottom: 0.4em; }
@media print { body { padding: 0; max-width: none; } }
.cut { border-top: 1.5px dashed #555; margin: 0.7em 0 0.5em; padding-top: 0.1em; text-align: center; }
.small { font-size: 9.5pt; color: #333; }
.foot { font-size: 7.5pt; margin-top: 0.6em; }
.foot p { margin: 0; }
@media screen and (max-width: 560px) {
  body { font-size: 9.5pt; padding: 0.5em; }
  th, td { padding: 0.25em; }
}
@media screen and (prefers-color-scheme: dark) {
  body { color: #e8e8e8; background: #15181c; }
  th { background: #2a2f36; }
  th, td, .lines, .meta span, .cut { border-color: #9aa3ad; }
  .small { color: #c4c9cf; }
}
"""


def _page(title: str, body: str, footer: str = "") -> str:
    if footer:
        body += f'<footer class="small foot">{footer}</footer>'
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
            f"<body><main>{body}</main></body></html>\n")


def prediction_worksheet(steps=PREDICTION_STEPS, footer: str = "") -> str:
    """The one-page prediction worksheet, as HTML: a row per slider move, with space for
    the prediction and for what the student saw. ``footer`` (HTML) ends the page: the
    build gives the book's build stamp and licences."""
    steps = tuple(steps)
    if not steps or not all(isinstance(s, Step) for s in steps):
        raise ValueError("steps must be a non-empty sequence of Step")
    rows = "".join(
        f"<tr><td>{i}</td><td>{html.escape(s.settings)}</td><td>{html.escape(s.question)}</td>"
        '<td class="blank"></td><td class="blank"></td></tr>'
        for i, s in enumerate(steps, 1))
    body = (
        f"<h1>Predict, then move the slider</h1>"
        f'<p class="small">{html.escape(SESSION)}: prediction worksheet. Explorer: the main explorer of '
        "“Scale the scores by √dₖ” (red: unscaled scores; blue: scores divided by √dₖ; m: the size of "
        "each component of q and k).</p>"
        '<div class="meta"><span>Name:</span><span>Date:</span></div>'
        "<p>Before each move, write what you expect. Then move the slider and write what you saw.</p>"
        '<table><colgroup><col class="n"><col class="set"><col class="q"><col><col></colgroup>'
        "<thead><tr><th>#</th><th>Set the sliders to</th><th>Predict</th><th>Your prediction</th>"
        f"<th>What you saw</th></tr></thead><tbody>{rows}</tbody></table>"
        "<p style=\"margin-top:0.8em\">In one sentence: what did dividing by √dₖ fix, and what did it "
        "not fix?</p><div class=\"lines\"></div>")
    return _page(f"Prediction worksheet: {SESSION}", body, footer)


def exit_ticket(questions=EXIT_QUESTIONS, copies: int = 2, footer: str = "") -> str:
    """The exit ticket, as HTML: ``copies`` tickets to one A4 sheet, with a cut line between."""
    questions = tuple(questions)
    if not questions or not all(isinstance(q, str) and q.strip() for q in questions):
        raise ValueError("questions must be a non-empty sequence of non-empty strings")
    if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= 3:
        raise ValueError(f"copies must be 1, 2 or 3 tickets to a sheet, got {copies!r}")
    items = "".join(f"<p>{i}. {html.escape(q)}</p><div class=\"lines\"></div>"
                    for i, q in enumerate(questions, 1))
    ticket = (f'<section class="ticket"><h1>Exit ticket</h1><p class="small">{html.escape(SESSION)}</p>'
              f'<div class="meta"><span>Name:</span><span>Date:</span></div>{items}</section>')
    cut = '<p class="cut small">✂ cut along the dashed line</p>'
    return _page(f"Exit ticket: {SESSION}", cut.join([ticket] * copies), footer)


def write_sheets(site: Path, footer: str = "") -> list[Path]:
    """Write the worksheet and the exit ticket under ``site``/print/, each ending with
    ``footer`` (HTML); return their paths."""
    site = Path(site)
    if not site.is_dir():
        raise ValueError(f"site must be the built site's directory, got {site}")
    out = site / SHEETS_DIR
    out.mkdir(exist_ok=True)
    written = []
    sheets = ((WORKSHEET_FILE, prediction_worksheet(footer=footer)), (EXIT_TICKET_FILE, exit_ticket(footer=footer)))
    for name, text in sheets:
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    return written
