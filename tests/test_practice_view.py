"""The practice duel's words and the accuracy chart, without a browser."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from trainer.endgame.practice import Event, Graded, Offer
from trainer.engine.cards import Character as C
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.learners.answers import Answer
from trainer.views import practice_view as pv

TAX = Move(MoveKind.ACT, 0, None)


def graded(chosen: int, values: tuple[float, ...], freqs: tuple[float, ...] | None = None
           ) -> Graded:
    freqs = freqs or tuple(0.0 for _ in values)
    offers = tuple(Offer(i, None, None, v, f) for i, (v, f) in enumerate(zip(values, freqs,
                                                                             strict=True)))
    return Graded(1, Phase.ACTION, offers, chosen, {C.DUKE: 1.0})


def test_a_decision_that_gives_points_away_names_the_best_option_and_the_loss() -> None:
    line = pv.graded_lines(graded(0, (0.40, 0.62)), ["Income: take 1", "Tax"])[0]
    assert line.startswith("**Blunder.**")
    assert "“Income: take 1” gives you 40% to win; “Tax” gives 62%" in line
    assert "You gave away 22.0 percentage points of your chance to win." in line


def test_a_best_decision_in_a_mix_says_the_mix_keeps_them_guessing() -> None:
    line = pv.graded_lines(graded(1, (0.5, 0.5), (0.5, 0.5)), ["A", "B"])[0]
    assert line.startswith("**Best move.**") and "mixes" in line


def test_the_option_list_marks_your_choice_and_orders_by_win_chance() -> None:
    lines = pv.option_lines(graded(0, (0.3, 0.7), (0.0, 1.0)), ["Income", "Tax"])
    assert lines[0].startswith("- Tax: you win 70%")
    assert lines[1].endswith("← your choice")


def test_their_exchange_is_worded_without_their_card() -> None:
    keep = Move(MoveKind.KEEP, 1, cards=(C.DUKE,))
    assert pv.event_words(Event(1, keep, Phase.EXCHANGE)) == \
        "they keep one card (you do not see which)"
    mine = Move(MoveKind.KEEP, 0, cards=(C.DUKE,))
    assert pv.event_words(Event(0, mine, Phase.EXCHANGE, C.DUKE)) == "you keep the Duke"


def test_a_summary_of_one_decision_reads_in_the_singular() -> None:
    s = pv.Summary(False, False, 1, 0, 21.0, 0.24, "Assassin", "Contessa")
    lines = pv.summary_lines(s)
    assert lines[0] == "**You lost the duel.** Goal missed."
    assert lines[1] == "You held a Contessa; they held an Assassin."
    assert lines[2] == ("Your one decision was costly (an inaccuracy, a mistake or a blunder): "
                        "it gave away 21.0 points of winning chance.")


def answer(day: int, grade: str, themes: tuple[str, ...] = (pv.PRACTICE_THEME,)) -> Answer:
    return Answer(answer_id=f"a{day}{grade}xxxxxx", learner="me", item_id="i", bank="b",
                  kind="bluff", themes=themes,
                  answered_at=datetime(2026, 11, 1, tzinfo=UTC) + timedelta(days=day),
                  action="x", best="y", lost_pp=0.0 if grade == "best" else 20.0,
                  grade=grade)  # type: ignore[arg-type]


def test_accuracy_is_the_share_of_best_or_good_decisions_per_day() -> None:
    frame = pv.accuracy_frame([answer(0, "best"), answer(0, "blunder"), answer(1, "good"),
                               answer(1, "best", themes=("Duke claims",))])
    assert list(frame["decisions"]) == [2, 1]
    assert list(frame["accuracy"]) == pytest.approx([0.5, 1.0])


def test_quiz_end_game_answers_count_toward_accuracy() -> None:
    frame = pv.accuracy_frame([answer(0, "best", themes=("End-game 1-v-1",))])
    assert list(frame["decisions"]) == [1]


def test_no_end_game_answers_gives_an_empty_chart_and_an_invitation() -> None:
    frame = pv.accuracy_frame([answer(0, "best", themes=("Duke claims",))])
    assert frame.empty
    assert "No end-game decisions yet" in pv.accuracy_sentence(frame)


def test_a_graded_decision_becomes_a_valid_answer() -> None:
    a = pv.practice_answer("me", "abc123", graded(0, (0.40, 0.62)), ["Income", "Tax"],
                           datetime(2026, 11, 23, tzinfo=UTC), 4.2)
    assert a.grade == "blunder" and a.lost_pp == pytest.approx(22.0)
    assert a.action == "Income" and a.best == "Tax" and a.kind == "bluff"
    assert pv.PRACTICE_THEME in a.themes and not a.trivial


def test_seven_coins_across_the_table_is_a_warning() -> None:
    from trainer.endgame.public import public_graph

    graph = public_graph((C.CONTESSA, C.CONTESSA), "base")
    g = graph.game(graph.worlds[0], (3, 7), 0)
    line = pv.threat_line(g)
    assert line is not None and line.startswith("They have 7 coins")


def test_a_block_question_says_what_would_be_blocked() -> None:
    from trainer.endgame.public import public_graph

    graph = public_graph((C.CONTESSA, C.CONTESSA), "base")
    g = graph.game(graph.worlds[0], (3, 3), 1)
    aid = next(m for m in g.legal_moves() if m.action is not None
               and m.action.value == "foreign_aid")
    g.apply(aid)
    assert pv.situation(g) == "They take Foreign Aid. Do you block?"
