"""The lesson plan as one structure (attention_scaling.lesson): blocks back to back, headings
with their minutes, and worksheet rows that name the stops they cover."""

from __future__ import annotations

import pytest

from attention_scaling import lesson, worksheets
from attention_scaling.lesson import Block, Plan, Prediction


def test_the_sessions_fill_their_minutes_in_order():
    for plan, minutes in ((lesson.SESSION, 50), (lesson.WORKSHOP, 120)):
        assert plan.minutes == minutes and plan.blocks[0].start == 0 and plan.blocks[-1].end == minutes
        assert all(a.end == b.start for a, b in zip(plan.blocks, plan.blocks[1:]))
    assert [b.slug for b in lesson.SESSION.blocks] == ["hook", "derive", "curve", "why", "predict", "discuss",
                                                        "exit-ticket"]
    assert lesson.SESSION.heading("hook") == "1. The hook (0–4 min)"
    assert lesson.SESSION.heading("exit-ticket") == "7. Exit ticket (47–50 min)"
    assert lesson.WORKSHOP.block("lab-turn-on-qk-norm").times == "105–120 min"


@pytest.mark.parametrize("blocks, why", [
    ((Block(0, 5, "a", "A"), Block(6, 10, "b", "B")), "follow each other"),  # a gap
    ((Block(0, 5, "a", "A"), Block(5, 9, "b", "B")), "follow each other"),  # ends before the plan does
    ((Block(0, 5, "a", "A"), Block(5, 5, "b", "B"), Block(5, 10, "c", "C")), "positive length"),
    ((Block(0, 5, "a", "A"), Block(5, 10, "a", "B")), "slug of its own"),
])
def test_a_plan_whose_blocks_do_not_fit_is_refused(blocks, why):
    with pytest.raises(ValueError, match=why):
        Plan("t", 10, blocks)


def test_an_unknown_block_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^slug must name a block .*hook.*got 'lunch'"):
        lesson.SESSION.heading("lunch")


def test_each_worksheet_row_says_the_settings_of_its_stops():
    assert lesson.check_predictions() == lesson.PREDICTIONS
    covered = [stop for p in lesson.PREDICTIONS for stop in p.stops]
    assert covered == [("attention", i) for i in range(5)] + [("normalization", i) for i in range(4)]
    # the worksheet and the exit ticket are the plan's own
    assert worksheets.PREDICTION_STEPS is lesson.PREDICTIONS and worksheets.SESSION == lesson.SESSION.title
    assert all(q in worksheets.exit_ticket() for q in ("why does attention divide the scores by √dₖ",))


@pytest.mark.parametrize("wrong, missing", [
    (Prediction("dₖ = 1024, m = 1", "?", (("attention", 0),)), "dₖ = 1"),  # 1024 is not 1
    (Prediction("dₖ = 64, m = 3", "?", (("attention", 3), ("attention", 4))), "m = 10"),
    (Prediction("m = 10", "?", (("normalization", 1),)), "QK-norm"),
])
def test_a_row_that_misstates_its_stop_is_refused(wrong, missing):
    with pytest.raises(ValueError, match=missing):
        lesson.check_predictions([wrong])


def test_a_row_must_name_existing_stops():
    with pytest.raises(ValueError, match="has no stop 9"):
        lesson.check_predictions([Prediction("dₖ = 1", "?", (("attention", 9),))])
    with pytest.raises(ValueError, match="naming the stops"):
        lesson.check_predictions([Prediction("dₖ = 1", "?")])


def test_each_block_covers_its_work_at_the_plans_pace_and_has_slack():
    """The pace model: every block of the session holds what it lists at PACE, with time over;
    the session as a whole leaves at least 4 minutes, and every block that can run late has a cut."""
    for b in lesson.SESSION.blocks:
        assert b.work and b.needs <= b.end - b.start, b
    assert lesson.SESSION.slack >= 4
    cut = [b.slug for b in lesson.SESSION.blocks if b.cut]
    assert cut == ["derive", "curve", "why", "predict", "discuss"]
    for b in lesson.SESSION.blocks:
        if b.cut:
            assert b.cut.text.startswith(f"If you are past minute {b.cut.at}, ") and b.start < b.cut.at < b.end


def test_the_counts_the_plan_times_are_the_contents():
    from attention_scaling.derivations import seed_proof

    assert lesson.PROOF_LINES == len(seed_proof().lines)
    assert lesson.SCALE_STOPS == len(lesson.stops("scale"))
    assert lesson.ATTENTION_STOPS == len(lesson.stops("attention"))
    assert lesson.WORKSHEET_ROWS == len([p for p in lesson.PREDICTIONS if not p.settings.startswith("Optional")])
    assert lesson.TICKET_QUESTIONS == len([q for q in lesson.EXIT_QUESTIONS if "(optional)" not in q])
    # the quiz at the end of scale-the-scores (its Q(...) questions, in the chapter's source)
    import re
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "book" / "scale-the-scores.md").read_text(encoding="utf-8")
    assert lesson.QUIZ_QUESTIONS == len(re.findall(r"\bQ\(", source))
    # the cut cues name stops the explorers have
    assert "s = 7" in lesson.SESSION.block("curve").cut.skip and 7.0 in [s.settings["scale"] for s in lesson.stops("scale")]
    assert "dₖ = 1024" in lesson.SESSION.block("predict").cut.skip


@pytest.mark.parametrize("block, why", [
    (Block(0, 2, "a", "A", (("x", "prediction", 2),)), "holds 4 min of work"),
    (Block(0, 5, "a", "A", (("x", "nap", 1),)), "work kinds must be among"),
    (Block(0, 5, "a", "A", (("x", "show", 2),), lesson.Cut(7, "skip", 1)), "must fall inside it"),
    (Block(0, 5, "a", "A", (("x", "show", 2),), lesson.Cut(3, "skip", 3)), "save part of its work"),
])
def test_a_block_with_too_much_work_or_a_bad_cut_is_refused(block, why):
    with pytest.raises(ValueError, match=why):
        Plan("t", block.end, (block,))


def test_a_blocks_work_reads_at_the_plans_pace():
    assert lesson.duration(2) == "2 min" and lesson.duration(1.5) == "1.5 min" and lesson.duration(0.75) == "45 s"
    derive = lesson.SESSION.block("derive")
    assert derive.held == "the proof, line by line (13 × 30 s); the table of SymPy's checks (1 min)"


@pytest.mark.parametrize("explorer", ["attention", "scale"])
def test_the_numbers_a_stop_talks_about_are_rows_of_its_readout(explorer):
    """The session's slides keep only the readout rows a stop names (attention_book.deck):
    each must be a row its explorer's readout has at that stop."""
    from attention_scaling import explorables

    made = {"attention": explorables.attention_explorer, "scale": explorables.scale_explorer}[explorer]()
    for k, stop in enumerate(lesson.stops(explorer), 1):
        assert stop.numbers, f"{explorer} stop {k} names the numbers it talks about"
        labels = {row.label for group in made.readout(**stop.settings).groups for row in group.rows}
        missing = set(stop.numbers) - labels
        assert not missing, f"{explorer} stop {k}: {sorted(missing)} not among {sorted(labels)}"


def test_a_stop_whose_numbers_are_not_labels_is_refused():
    stop = lesson.Stop("A caption", {"scale": 1.0}, numbers=("largest weight", ""))
    with pytest.raises(ValueError, match="numbers must be a tuple"):
        lesson.check_stops("scale", {"scale": (1.0,)}, (stop,))


def _timings(**spent):
    blocks = [{"slug": b.slug, "title": b.title, "planned": [b.start, b.end],
               "spent_minutes": spent.get(b.slug.replace("-", "_"), b.end - b.start)} for b in lesson.SESSION.blocks]
    return {"format": lesson.TIMINGS_FORMAT, "plan": lesson.SESSION.title, "minutes": 50, "blocks": blocks}


def test_a_rehearsals_timings_are_read_and_set_beside_the_plan():
    spent = lesson.read_timings(_timings(derive=11.5, exit_ticket=2))
    assert spent["derive"] == 11.5 and spent["exit-ticket"] == 2.0 and set(spent) == {b.slug for b in lesson.SESSION.blocks}
    rows = lesson.rehearsal_rows(spent)
    assert rows[1] == ("Derive the gradient", 9, 11.5, lesson.SESSION.block("derive").needs)
    assert [r[0] for r in rows] == [b.title for b in lesson.SESSION.blocks]


@pytest.mark.parametrize("change, why", [
    (lambda d: d.update(format="attention-scaling-answers/1"), "must be a timings file"),
    (lambda d: d.update(plan="Another session"), "of the plan"),
    (lambda d: d["blocks"][0].update(slug="intermission"), "slug must name a block"),
    (lambda d: d["blocks"][1].update(spent_minutes=-1), "spent_minutes must be a finite number"),
    (lambda d: d["blocks"][1].update(spent_minutes=float("nan")), "spent_minutes must be a finite number"),
    (lambda d: d["blocks"].pop(), "no time for the blocks"),
    (lambda d: d.update(blocks="all of them"), "blocks must be a list"),
])
def test_a_bad_timings_file_is_refused_by_name(change, why):
    data = _timings()
    change(data)
    with pytest.raises(ValueError, match=why):
        lesson.read_timings(data)
