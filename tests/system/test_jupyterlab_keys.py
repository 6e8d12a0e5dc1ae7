"""Live-notebook faults of issue 28 (part 4), in a real JupyterLab driven in Chromium.

One scratch notebook holds a chapter-style quiz and an explorer with radio buttons (the
QK-norm explorer's normalisation), then a plain cell. After Run All:

- the quiz gives feedback in JupyterLab, where quiz.js does not run: choosing an option
  shows its explanation ("Not quite. ..." / "Correct. ..."), the same as the page's; the
  answer-code line, which needs quiz.js, is not shown (it showed empty, with its Copy button);
- ArrowDown on a focused radio button (the quiz's and the explorer's) chooses the next
  option and leaves the notebook's active cell where it was (JupyterLab's command-mode
  shortcut moved to the next cell instead).
"""

from __future__ import annotations

import nbformat
import pytest

from lab_server import jupyterlab, open_and_run_all

pytestmark = pytest.mark.jupyterlab

QUIZ = '''from attention_scaling.quiz import Option as O, Question as Q, Quiz
Quiz("Self-check", [Q("What is 2 + 2?", (
    O("3", False, "one short."), O("4", True, "two and two."),
    O("5", False, "one over.")))])'''
EXPLORER = '''from attention_scaling.explorables import normalization_explorer
normalization_explorer()'''

ACTIVE_CELL = "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex"
SHOWN = "els => els.filter(e => e.checkVisibility()).map(e => e.textContent.trim())"


@pytest.fixture(scope="module")
def notebook_page(tmp_path_factory, browser):
    root = tmp_path_factory.mktemp("lab")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(QUIZ), nbformat.v4.new_code_cell(EXPLORER),
                                         nbformat.v4.new_code_cell("x = 1")])
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, root / "keys.ipynb")
    with jupyterlab(root) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        open_and_run_all(page, server, "lab/tree/keys.ipynb")
        page.wait_for_selector(".widget-radio-box input[type=radio]", timeout=60_000)
        yield page
        context.close()


def _arrow_down(page, radio) -> tuple[int, int]:
    """Focus ``radio`` and press ArrowDown: (active cell before, after)."""
    radio.focus()
    before = page.evaluate(ACTIVE_CELL)
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(300)
    return before, page.evaluate(ACTIVE_CELL)


def test_quiz_gives_feedback_and_no_empty_code_line(notebook_page):
    page = notebook_page
    quiz = page.locator(".jp-OutputArea-output .asb-quiz")
    assert quiz.locator(".asb-code").is_visible() is False
    assert quiz.locator(".asb-why").evaluate_all(SHOWN) == []
    quiz.locator("label").nth(0).click()
    assert quiz.locator(".asb-why").evaluate_all(SHOWN) == ["Not quite. one short."]
    before, after = _arrow_down(page, quiz.locator("input[type=radio]").nth(0))
    assert quiz.locator("input[type=radio]").nth(1).is_checked()
    assert quiz.locator(".asb-why").evaluate_all(SHOWN) == ["Correct. two and two."]
    assert after == before, "ArrowDown on the quiz moved the notebook to another cell"
    assert quiz.locator(".asb-code").is_visible() is False


def test_explorer_radio_takes_the_arrow_keys(notebook_page):
    page = notebook_page
    radios = page.locator(".widget-radio-box input[type=radio]")
    checked = [radios.nth(i).is_checked() for i in range(radios.count())]
    first = checked.index(True)
    assert first + 1 < len(checked)
    before, after = _arrow_down(page, radios.nth(first))
    assert radios.nth(first + 1).is_checked(), "ArrowDown did not choose the next option"
    assert after == before, "ArrowDown on a radio button moved the notebook to another cell"
