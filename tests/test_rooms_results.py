"""What the screen shows of a room's answers, and how a room's questions are chosen."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from tests.helpers import shipped_bank
from trainer.quiz.bank import END_GAME
from trainer.rooms.model import RoomAnswer
from trainer.rooms.questions import ALL_LESSONS, choose, grade_answer, lesson_ids, resolve
from trainer.rooms.results import (
    action_counts,
    belief_points,
    class_scores,
    decision_points,
    grade_counts,
    popular_wrong,
    reliability_table,
    standings,
    stated_histogram,
)
from trainer.rooms.settings import Source

BANK = shipped_bank()


def answer(seat: str, action: str = "Pass", stated: float | None = 0.5,
           bluff: bool | None = True, bot: float | None = 0.5, lost: float = 0.0,
           grade: str = "best", question: int = 0) -> RoomAnswer:
    return RoomAnswer(question=question, seat=seat, item_id="i", action=action, stated=stated,
                      bot=bot, bluff=bluff, best="Pass", lost_pp=lost, grade=grade,
                      seconds=3.0, answered_at=datetime(2026, 1, 1, tzinfo=UTC))


def test_saying_fifty_percent_scores_zero_belief_points() -> None:
    assert belief_points(0.5, True) == 0 and belief_points(0.5, False) == 0


def test_a_confident_right_belief_scores_near_a_hundred_and_a_wrong_one_loses_more() -> None:
    assert belief_points(0.99, True) == pytest.approx(100 * (1 + math.log2(0.99)))
    assert belief_points(0.99, False) == pytest.approx(100 * (1 + math.log2(0.01)))


def test_a_best_move_earns_a_hundred_move_points_less_the_points_lost() -> None:
    assert decision_points(0) == 100 and decision_points(12.5) == 87.5


def test_the_histogram_has_every_tenth_even_when_empty() -> None:
    hist = stated_histogram([answer("a", stated=0.05), answer("b", stated=0.99),
                             answer("c", stated=0.9)])
    assert list(hist["count"]) == [1, 0, 0, 0, 0, 0, 0, 0, 0, 2]


def test_moves_nobody_chose_are_still_counted_as_zero() -> None:
    counts = action_counts([answer("a", "Challenge")], ["Challenge", "Pass"])
    assert list(counts["count"]) == [1, 0]


def test_the_most_popular_poor_move_ignores_good_ones() -> None:
    answers = [answer("a", "Pass", grade="best"), answer("b", "Pass", grade="best"),
               answer("c", "Challenge", grade="mistake")]
    assert popular_wrong(answers) == ("Challenge", 1)
    assert popular_wrong(answers[:2]) is None


def test_grades_are_counted_in_order_best_to_blunder() -> None:
    assert list(grade_counts([answer("a", grade="blunder")])) == [
        "best", "good", "inaccuracy", "mistake", "blunder"]


def test_the_class_is_compared_with_the_bot_on_the_same_claims() -> None:
    s = class_scores([answer("a", stated=0.9, bot=0.5), answer("b", stated=0.8, bot=0.5),
                      answer("c", stated=None, bluff=None)])
    assert s.n == 2 and s.brier == pytest.approx((0.01 + 0.04) / 2)
    assert s.bot_brier == pytest.approx(0.25)


def test_the_reliability_table_names_the_class_and_the_bot() -> None:
    table = reliability_table([answer("a", stated=0.9, bot=0.3)])
    assert set(table["who"]) == {"you", "bot"}


def test_the_ranking_adds_belief_and_move_points_and_counts_absent_seats() -> None:
    table = standings([answer("a", stated=0.9, lost=0.0), answer("b", stated=0.2, lost=30.0)],
                      {"a": "Ann", "b": "Ben", "c": "Cy"})
    assert [s.name for s in table] == ["Ann", "Cy", "Ben"]
    assert table[1].answered == 0 and table[1].total == 0


def test_a_drill_room_draws_the_same_questions_from_the_same_seed() -> None:
    source = Source(count=10, seed=3)
    first = [i.id for i in choose(BANK, source)]
    assert first == [i.id for i in choose(BANK, source)] and len(first) == 10


def test_a_drill_room_leaves_out_items_where_every_answer_is_as_good() -> None:
    assert not any(i.trivial for i in choose(BANK, Source(count=30, seed=1)))


def test_a_drill_room_keeps_to_its_rule_set() -> None:
    assert {i.variant for i in choose(BANK, Source(count=10, rule_set="forum"))} == {"forum"}


def test_an_end_game_room_puts_exactly_graded_items_first() -> None:
    solved = {i.id for i in BANK.items if END_GAME in i.themes and not i.trivial
              and i.variant == "base" and i.source != "lesson"}
    some = set(sorted(solved)[:3])
    picked = choose(BANK, Source(drill="end-game", count=5), some)
    assert {i.id for i in picked[:3]} == some


def test_a_lesson_room_asks_its_lessons_questions_in_step_order() -> None:
    lesson = "learn-characters"
    picked = choose(BANK, Source(kind="lesson", lesson=lesson))
    assert picked and all(i.scenario == lesson for i in picked)
    assert [i.step for i in picked] == sorted(i.step or 0 for i in picked)


def test_every_lesson_room_follows_the_given_lesson_order() -> None:
    order = {lid: n for n, lid in enumerate(reversed(lesson_ids(BANK)))}
    picked = choose(BANK, Source(kind="lesson", lesson=ALL_LESSONS, count=30),
                    lesson_order=order.__getitem__)
    seen = list(dict.fromkeys(i.scenario for i in picked))
    assert seen == sorted(seen, key=order.__getitem__)


def test_a_room_answer_is_graded_as_the_quiz_grades_it() -> None:
    item = next(i for i in choose(BANK, Source(count=30, seed=2)) if i.has_claim)
    fields = grade_answer(item, item.best.label, 0.5, None, 4.0, BANK.version)
    assert fields["grade"] == "best" and fields["lost_pp"] == 0
    assert fields["bluff"] == item.bluff and fields["bot"] == item.bot


def test_a_puzzle_room_asks_end_game_puzzles_of_the_chosen_kind() -> None:
    picked = choose(BANK, Source(kind="puzzles", puzzles="bluff", count=4, seed=5))
    assert len(picked) == 4 and all(i.id.startswith("puzzle:bluff-") for i in picked)


def test_a_puzzle_question_is_graded_by_its_exact_values() -> None:
    from trainer.quiz.solved import SolvedGrades

    item = choose(BANK, Source(kind="puzzles", puzzles="trap", count=1, seed=1))[0]
    found = resolve(BANK, SolvedGrades(BANK.version), item.id)
    assert found is not None
    again, solved = found
    assert again.id == item.id and solved is not None
    worst = min(item.options, key=lambda o: o.win)
    fields = grade_answer(item, worst.label, None, solved, None, BANK.version)
    # the exact values at the puzzle's own look-ahead and at the one it was compared with
    # (and its twin's solve): the smaller loss counts, as on the End-game page
    readings = [solved.values, solved.before, *([solved.other] if solved.other else [])]
    assert solved.before
    assert fields["lost_pp"] == pytest.approx(
        min(100 * (max(r.values()) - r[worst.label]) for r in readings), abs=0.01)



def test_a_puzzle_position_puts_the_learner_in_seat_zero_with_the_puzzles_card() -> None:
    from trainer.endgame.puzzles import find

    item = choose(BANK, Source(kind="puzzles", count=1, seed=2))[0]
    puzzle = find(item.id.removeprefix("puzzle:"))
    assert puzzle is not None
    assert item.game().observation(0).hand == (puzzle.card,)


def test_a_puzzle_question_grades_every_move_as_the_end_game_page_does():
    """Ambassador and Ambassador face up, 1 coin against 4, holding the Assassin: a settled
    position whose look-aheads grade Foreign Aid apart. A room's puzzle question and the
    End-game page read the same figures and give every move the same grade."""
    from trainer.endgame.hidden_tables import stored_solution
    from trainer.engine.cards import Character as C
    from trainer.quiz.feedback import item_valuation
    from trainer.quiz.puzzle_items import puzzle_item
    from trainer.verdicts import judge
    from trainer.views import endgame_view as v

    found = puzzle_item("puzzle:bluff-Ambassador-Ambassador-1-4-Assassin")
    assert found is not None
    item, solved = found
    assert solved.before and solved.compared == 5
    stored = stored_solution((C.AMBASSADOR, C.AMBASSADOR), (1, 4), 0)
    assert stored is not None
    choice = v.Choice(card=C.ASSASSIN, lost=(C.AMBASSADOR, C.AMBASSADOR), coins=(1, 4),
                      turn="you", mode="hidden")
    rows = v.option_rows(choice, v.distil(stored, stored.horizon, 0.0))
    page = {o.move: r.grade for o, r in zip(stored.options(C.ASSASSIN), rows, strict=True)}
    valuation = item_valuation(item, solved)
    room = {o.move: judge(valuation, o.label).grade for o in item.options}
    assert room == page
    aid = next(o for o in item.options if o.label.startswith("Foreign aid"))
    assert judge(valuation, aid.label).reason == "horizon"
