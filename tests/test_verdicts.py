"""The verdicts layer: one grade function, one vocabulary, one answer record, one kind enum."""

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from trainer.learners.history_csv import export_csv, import_csv
from trainer.learners.storage import MemoryStore
from trainer.verdicts import (
    GRADES,
    Answer,
    Decision,
    DecisionError,
    DecisionKind,
    Doubt,
    Horizons,
    OptionValue,
    Solves,
    Source,
    Valuation,
    describe_error,
    grade_for,
    judge,
    parse_grade,
    parse_kind,
    record,
    words,
)

ROOT = Path(__file__).resolve().parents[1]
GRADE_WORD = re.compile(r"\b(best|good|inaccuracy|mistake|blunder)\b", re.IGNORECASE)
# One loss (in points) inside each grade's band.
LOSS = {"best": 0.5, "good": 3.0, "inaccuracy": 7.0, "mistake": 12.0, "blunder": 20.0}
PASS_WIN = 0.6


def playouts(challenge_lost: float, diff_se: float = 0.005) -> Valuation:
    return Valuation((OptionValue("Challenge", PASS_WIN - challenge_lost / 100, 0.01, diff_se),
                      OptionValue("Pass", PASS_WIN, 0.01, 0.0)), Source("playouts", 1000))


def doubted(rare: float, often: float, moves_seen: int | None = 1) -> Valuation:
    """Challenge loses `rare` points if Dee rarely bluffs and `often` if Dee often does; at
    the bot's own estimate it loses their mean."""
    doubt = Doubt("Dee", 0.1, 0.7,
                  {"Challenge": PASS_WIN - rare / 100, "Pass": PASS_WIN},
                  {"Challenge": PASS_WIN - often / 100, "Pass": PASS_WIN}, moves_seen)
    base = playouts((rare + often) / 2)
    return Valuation(base.options, base.source, doubt)


def unsettled(shorter: float, longer: float) -> Valuation:
    """A solved duel that did not settle: Challenge loses `shorter` points looking two turns
    ahead and `longer` looking four."""
    return Valuation.solved({"Challenge": PASS_WIN - longer / 100, "Pass": PASS_WIN},
                            horizons=Horizons(2, 4, {"Challenge": PASS_WIN - shorter / 100,
                                                     "Pass": PASS_WIN}))


def solved_twice(this: float, other: float) -> Valuation:
    """A duel solved twice as one game: Challenge loses `this` points in this solve and
    `other` in the other."""
    return Valuation.solved({"Challenge": PASS_WIN - this / 100, "Pass": PASS_WIN},
                            solves=Solves({"Challenge": PASS_WIN - other / 100,
                                           "Pass": PASS_WIN}))


def every_verdict() -> list[tuple[str, object]]:
    """A verdict for every single grade, every (kinder, harsher) pair of grades either way
    round over the claimant's doubt, and every grade the playouts' noise cannot prove."""
    out: list[tuple[str, object]] = []
    for g in GRADES:
        out.append((f"single {g}", judge(playouts(LOSS[g]), "Challenge")))
        out.append((f"solved {g}", judge(Valuation.solved(
            {"Challenge": PASS_WIN - LOSS[g] / 100, "Pass": PASS_WIN}), "Challenge")))
    for low, high in words.every_grade_pair():
        for rare, often in ((low, high), (high, low)):
            out.append((f"doubt {rare}/{often}",
                        judge(doubted(LOSS[rare], LOSS[often]), "Challenge")))
    for low, high in words.every_grade_pair():
        for short, long in ((low, high), (high, low)):
            out.append((f"horizon {short}/{long}",
                        judge(unsettled(LOSS[short], LOSS[long]), "Challenge")))
    for low, high in words.every_grade_pair():
        for this, other in ((low, high), (high, low)):
            out.append((f"solves {this}/{other}",
                        judge(solved_twice(LOSS[this], LOSS[other]), "Challenge")))
    for g in GRADES:
        noise = LOSS[g] / 2 / 100  # a loss of exactly two standard errors
        out.append((f"noise {g}", judge(playouts(LOSS[g], noise), "Challenge")))
    return out


VERDICTS = every_verdict()
IDS = [name for name, _ in VERDICTS]


def page_text(v) -> str:  # type: ignore[no-untyped-def]
    """The verdict as a page shows it, in order: headline, sentence, notes."""
    parts = [words.headline(v), words.sentence(v), words.range_note(v),
             words.evidence_note(v, 1000)]
    return " ".join(p for p in parts if p)


def test_every_grade_pair_is_covered_in_both_directions() -> None:
    ranges = {(v.low, v.high) for _, v in VERDICTS if v.is_range}
    assert ranges >= {(a, b) for a, b in words.every_grade_pair() if a != b}


@pytest.mark.parametrize(("name", "v"), VERDICTS, ids=IDS)
def test_no_headline_holds_two_grade_words(name: str, v) -> None:  # type: ignore[no-untyped-def]
    headline = words.headline(v)
    assert len(GRADE_WORD.findall(headline)) <= 1, headline
    assert not re.search(r"\b\w+ to \w+\b", headline.split(":")[0]) or \
        headline.startswith("Too close to call"), headline


@pytest.mark.parametrize(("name", "v"), VERDICTS, ids=IDS)
def test_a_range_grade_never_gets_a_success_box(name: str, v) -> None:  # type: ignore[no-untyped-def]
    if v.is_range:
        assert words.tone(v) != "success"
    else:
        assert words.tone(v) == words.TONES[v.grade]


@pytest.mark.parametrize(("name", "v"), VERDICTS, ids=IDS)
def test_the_first_mention_of_points_carries_its_definition(name: str, v) -> None:  # type: ignore[no-untyped-def]
    text = page_text(v)
    first = re.search(r"\bpoints?\b", text)
    if first is None:
        return
    assert re.match(r"points? of your chance to win", text[first.start():]), text
    assert text[:first.start()].endswith("percentage "), text


@pytest.mark.parametrize(("name", "v"), VERDICTS, ids=IDS)
def test_a_range_headline_says_what_it_depends_on(name: str, v) -> None:  # type: ignore[no-untyped-def]
    if v.reason == "doubt" and v.sound:
        assert words.headline(v) == "Sound however often Dee bluffs"
    elif v.reason == "doubt":
        assert words.headline(v).startswith("Depends on Dee: ")
        assert "rarely bluffs" in words.headline(v) and "often does" in words.headline(v)
    elif v.reason == "noise":
        assert words.headline(v) == words.CLOSE_CALL
    elif v.reason == "horizon" and v.sound:
        assert words.headline(v) == "Sound however far ahead you look"
    elif v.reason == "horizon":
        assert words.headline(v).startswith("Depends on how far ahead you look: ")
        assert "looking 2," in words.headline(v) and "looking 4 turns ahead" in words.headline(v)
    elif v.reason == "solves" and v.sound:
        assert words.headline(v) == "Sound however they play perfectly"
    elif v.reason == "solves":
        assert words.headline(v).startswith("Depends on which perfect play: ")
        assert " in one, " in words.headline(v) and words.headline(v).endswith(" in another")
    else:
        assert words.headline(v) == words.HEADLINES[v.grade]


def test_the_rarely_and_often_sides_are_not_swapped() -> None:
    v = judge(doubted(20.0, 0.0), "Challenge")
    assert words.headline(v) == ("Depends on Dee: a serious error if Dee rarely bluffs, "
                                 "right if Dee often does")


@pytest.mark.parametrize(("name", "v"), VERDICTS, ids=IDS)
def test_a_short_headline_holds_at_most_one_grade_word(name: str, v) -> None:  # type: ignore[no-untyped-def]
    short = words.short_headline(v)
    assert len(GRADE_WORD.findall(short)) <= 1 and len(short) <= 24, short


def test_an_unsettled_end_game_is_graded_on_the_loss_both_look_aheads_agree_on() -> None:
    v = judge(unsettled(20.0, 3.0), "Challenge")
    assert (v.grade, v.low, v.high, v.reason, v.lost_pp) == ("good", "good", "blunder",
                                                             "horizon", 3.0)
    assert (v.shorter, v.longer) == ("blunder", "good")


def test_a_duel_solved_twice_is_graded_on_the_loss_both_solves_agree_on() -> None:
    v = judge(solved_twice(16.0, 3.0), "Challenge")
    assert (v.grade, v.low, v.high, v.reason, v.lost_pp) == ("good", "good", "blunder",
                                                             "solves", 3.0)
    assert (v.this_solve, v.other_solve) == ("blunder", "good")
    assert words.headline(v) == ("Depends on which perfect play: a serious error in one, "
                                 "close to right in another")
    assert words.short_headline(v) == "Depends on perfect play"
    assert "more than one perfect way to play" in (words.range_note(v) or "")
    assert words.sentence(v).startswith("Challenge gives up 3.0 percentage points of your "
                                        "chance to win or 16.0 points")


def test_two_solves_in_the_same_band_give_one_grade_from_this_solve() -> None:
    v = judge(solved_twice(12.0, 13.0), "Challenge")
    assert (v.grade, v.is_range, v.reason, v.lost_pp) == ("mistake", False, None, 12.0)


def _two_ways(this: float, before: float, twin: float) -> Valuation:
    """A duel's Challenge losing `this` points in this solve 4 turns ahead, `before` 2 turns
    ahead and `twin` in a second solve 4 turns ahead (Pass is best in all three)."""
    return Valuation.solved({"Challenge": PASS_WIN - this / 100, "Pass": PASS_WIN},
                            horizons=Horizons(2, 4, {"Challenge": PASS_WIN - before / 100,
                                                     "Pass": PASS_WIN}),
                            solves=Solves({"Challenge": PASS_WIN - twin / 100,
                                           "Pass": PASS_WIN}))


def test_a_look_ahead_says_what_both_its_solves_agree_on() -> None:
    """Look-aheads apart (a mistake at 2 turns, a blunder at 4 in this solve) and a second
    solve at 4 turns calling it good: 4 turns ahead says good, and the grade is good."""
    v = judge(_two_ways(20, 12, 3), "Challenge")
    assert (v.reason, v.lost_pp, v.grade, v.shorter, v.longer) == (
        "horizon", 3.0, "good", "mistake", "good")
    assert v.solves is not None and "Two solves" in (words.range_note(v) or "")


def test_a_second_solve_that_settles_the_look_aheads_makes_the_range_its_own() -> None:
    """A mistake at 2 turns, a blunder at 4 in this solve, a mistake at 4 in the other: the
    look-aheads agree once 4 turns says what both solves do, and the range is the solves'."""
    v = judge(_two_ways(20, 12, 12), "Challenge")
    assert (v.reason, v.lost_pp, v.grade, v.other_solve, v.this_solve) == (
        "solves", 12.0, "mistake", "mistake", "blunder")
    assert v.lost_range == pytest.approx((12.0, 20.0))


def test_a_second_solve_that_agrees_changes_nothing_of_the_look_aheads() -> None:
    v = judge(_two_ways(20, 3, 21), "Challenge")
    assert (v.reason, v.lost_pp, v.solves) == ("horizon", 3.0, None)


def test_the_shorter_and_longer_sides_are_not_swapped() -> None:
    v = judge(unsettled(20.0, 0.0), "Challenge")
    assert words.headline(v) == ("Depends on how far ahead you look: a serious error looking "
                                 "2, right looking 4 turns ahead")
    assert "nobody knows yet which is right" in (words.range_note(v) or "")


def test_a_position_checked_one_turn_deeper_names_the_nearer_look_ahead_first() -> None:
    """A stored position checked deeper compares 4 turns ahead (its own) with 5 (`before`):
    the words still go from the nearer look-ahead to the farther, each with its own grade."""
    deeper = Valuation.solved({"Challenge": PASS_WIN - 0.0, "Pass": PASS_WIN},
                              horizons=Horizons(5, 4, {"Challenge": PASS_WIN - 0.20,
                                                       "Pass": PASS_WIN}))
    v = judge(deeper, "Challenge")
    assert words.headline(v) == ("Depends on how far ahead you look: right looking 4, a "
                                 "serious error looking 5 turns ahead")
    assert "Looking 4 and 5 turns ahead" in (words.range_note(v) or "")


def test_an_unsettled_grade_that_agrees_is_one_grade() -> None:
    v = judge(unsettled(12.0, 13.0), "Challenge")
    assert (v.grade, v.is_range, v.lost_pp) == ("mistake", False, 12.0)


def test_a_range_that_is_sound_at_both_ends_says_so_without_green() -> None:
    v = judge(doubted(0.0, 4.0), "Challenge")
    assert words.headline(v) == "Sound however often Dee bluffs" and words.tone(v) == "info"


def test_a_range_speaks_of_the_bots_best_guess() -> None:
    v = judge(doubted(0.0, 30.0), "Challenge")
    assert words.sentence(v).startswith("At the bot's best guess about Dee, Challenge gives up")


def test_a_grade_saved_from_a_range_is_the_grade_at_the_bots_own_estimate() -> None:
    v = judge(doubted(0.0, 30.0), "Challenge")
    assert (v.low, v.high, v.grade) == ("best", "blunder", grade_for(15.0))


def test_a_loss_within_the_playouts_noise_counts_as_good_and_reads_too_close_to_call() -> None:
    v = judge(playouts(12.0, diff_se=0.07), "Challenge")
    assert (v.grade, v.low, v.high, v.reason) == ("good", "good", "mistake", "noise")
    assert words.headline(v) == "Too close to call" and words.tone(v) == "info"


def test_a_solved_value_is_never_softened_by_noise() -> None:
    v = judge(Valuation.solved({"Challenge": 0.48, "Pass": 0.6}, exploitability=0.1),
              "Challenge")
    assert (v.grade, v.is_range) == ("mistake", False)


def test_thin_evidence_about_the_claimant_is_said_on_the_page() -> None:
    v = judge(doubted(0.0, 20.0, moves_seen=1), "Challenge")
    note = words.evidence_note(v, 1000)
    assert note is not None and "rests on one move by Dee" in note


def test_noisy_playouts_are_said_on_the_page() -> None:
    v = judge(playouts(30.0, diff_se=0.03), "Challenge")
    note = words.evidence_note(v, 200)
    assert note is not None and "200 playouts" in note and "3.0 points either way" in note


def test_firm_figures_carry_no_evidence_note() -> None:
    assert words.evidence_note(judge(playouts(30.0), "Challenge"), 1000) is None


def test_a_decision_refuses_an_option_it_does_not_offer() -> None:
    d = Decision(None, 1, DecisionKind.CHALLENGE, ("Challenge", "Pass"))
    with pytest.raises(DecisionError, match="'Exchange' is not an answer.*'Challenge', 'Pass'"):
        d.judge(playouts(3.0), "Exchange")


def test_a_valuation_needs_an_option() -> None:
    with pytest.raises(ValueError, match="options"):
        Valuation((), Source("estimate"))


# ------------------------------------------------------------------------ kinds and grades
def test_the_kind_of_an_answer_is_one_of_the_five_the_quiz_asks() -> None:
    assert [k.value for k in DecisionKind if k.answered] == [
        "challenge", "block", "bluff", "lose", "keep"]
    with pytest.raises(ValueError, match="kind: expected one of challenge, block, bluff, "
                                         "lose, keep"):
        parse_kind("prove", answered=True)


def test_an_old_counter_kind_reads_as_a_block() -> None:
    assert parse_kind("counter") is DecisionKind.BLOCK


def test_a_stored_grade_is_checked() -> None:
    assert parse_grade(" Mistake ") == "mistake"
    with pytest.raises(ValueError, match="grade: expected one of best, good"):
        parse_grade("dreadful")


def answer_row(kind: str = "challenge") -> dict[str, object]:
    v = judge(playouts(12.0), "Challenge")
    a = record(v, answer_id="answer0001", learner="ann", item_id="i-1", bank="b-1",
               kind="challenge", answered_at=datetime(2026, 1, 2, tzinfo=UTC), stated=0.4,
               bot=0.3, prior=0.5, bluff=False)
    return {**a.row(), "kind": kind}


def test_the_answer_record_takes_its_grade_and_loss_from_the_verdict() -> None:
    row = answer_row()
    assert (row["action"], row["best"], row["lost_pp"], row["grade"], row["kind"]) == (
        "Challenge", "Pass", 12.0, "mistake", "challenge")


def test_an_answer_row_with_an_unknown_kind_names_the_field() -> None:
    with pytest.raises(ValidationError) as e:
        Answer.model_validate(answer_row("counterattack"))
    assert "kind: " in describe_error(e.value) and "expected one of challenge" in \
        describe_error(e.value)


def test_an_old_csv_with_a_counter_kind_still_imports() -> None:
    store = MemoryStore()
    text = export_csv([Answer.model_validate(answer_row("counter"))])
    text = text.replace(",block,", ",counter,")
    assert ",counter," in text
    report = import_csv(text, "ann", store)
    assert not report.errors
    saved, problems = store.answers("ann")
    assert problems == [] and [a.kind for a in saved] == [DecisionKind.BLOCK]


# ------------------------------------------------------------------------ one layer
def sources(folder: str) -> list[Path]:
    return sorted((ROOT / "trainer" / folder).rglob("*.py"))


def test_no_view_computes_a_grade() -> None:
    for path in sources("views") + sources("ui"):
        text = path.read_text()
        assert "grade_for(" not in text and "GRADE_BOUNDS" not in text, path


def test_the_answer_record_is_built_only_by_the_verdicts_layer() -> None:
    for path in sorted((ROOT / "trainer").rglob("*.py")):
        if "verdicts" in path.parts:
            continue
        assert not re.search(r"(?<![A-Za-z_])Answer\(", path.read_text()), path


# ------------------------------------------------------------------------ break-even words
@pytest.mark.parametrize(("p_star", "line"), [
    (0.25, "A challenge pays when the chance of a bluff is above 25%."),
    (None, "Here a challenge never pays."),
    # the estimate clamps to 1 where passing beats challenging even a sure bluff
    (1.0, "Here a challenge never pays."),
])
def test_where_a_challenge_pays_is_said_as_a_chance_a_newcomer_can_read(
        p_star: float | None, line: str) -> None:
    from trainer.verdicts.words import break_even_line

    assert break_even_line(p_star) == line
