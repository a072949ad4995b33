"""The review of a played game: every real decision of the learner's valued as the coach would
value it, graded by the quiz's thresholds unless the loss is within the rollouts' noise,
forced and trivial decisions left out, and valued decisions never valued twice."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from trainer.engine.game import Phase
from trainer.engine.moves import MoveKind
from trainer.learners.answers import GRADE_BOUNDS, Answer, grade_for
from trainer.play import review as review_module
from trainer.play.assess import Valued, kind_of, label_of, stored_root, value
from trainer.play.match import Match
from trainer.play.record import GameRecord
from trainer.play.review import (
    GRADES,
    NOISE_FACTOR,
    Review,
    Step,
    accuracy,
    answers,
    decision_indices,
    meta,
    positions,
    review,
    rollout_seed,
    step,
    value_job,
)
from trainer.play.setup import Setup
from trainer.play.worker import Valuer
from trainer.quiz.solved import HORIZON, solve_item

ROLLOUTS = 20
STATED = 0.3


def play(setup: Setup, *, upto: int | None = None, notes: bool = True) -> GameRecord:
    """A game against the bots, the learner drawing a legal move from a stream fixed by the
    seed and the move's number; with `notes` the learner states a chance at every decision
    and opens the coach at every third move."""
    match = Match.start(setup, "ann")
    while not match.over and (upto is None or match.index < upto):
        if match.bot_to_move:
            match.bot_move()
        else:
            legal = match.game.legal_moves()
            move = random.Random(f"learner:{setup.seed}:{match.index}").choice(legal)
            match.play(move, stated=STATED if notes else None,
                       coached=notes and match.index % 3 == 0)
    return match.record


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """A finished three-player game with challenges, blocks, a lost card, an exchange, a
    forced move and a decision that did not matter."""
    return play(Setup("base", 8, ("you", "honest", "calibrated")))


@pytest.fixture(scope="module")
def reviewed(record: GameRecord) -> Review:
    return review(record, rollouts=ROLLOUTS)


def step_at(rev: Review, index: int) -> Step:
    return next(s for s in rev.steps if s.index == index)


def with_wins(valued: Valued, wins: dict[str, float], noise: dict[str, float] | None = None,
              **item: object) -> Valued:
    """The valued decision with the options' win chances (and the noise of their loss, in
    win probability) set by label; an option not named keeps its values."""
    noise = noise or {}
    options = tuple(replace(o, win=wins.get(o.label, o.win),
                            diff_se=noise.get(o.label, o.diff_se))
                    for o in valued.item.options)
    return Valued(replace(valued.item, options=options, **item))  # type: ignore[arg-type]


def regrade(record: GameRecord, rev: Review, index: int, valued: Valued) -> Step:
    """The review of `record` with the decision at `index` valued as `valued` (and every
    other as in `rev`)."""
    cache = {s.index: s.valued for s in rev.steps}
    cache[index] = valued
    return step_at(review(record, cache, rollouts=ROLLOUTS), index)


def by_hand(lost: float, noise: float, trivial: bool) -> tuple[str | None, float | None]:
    """The grade and the accuracy the rules give a decision."""
    if trivial:
        return None, None
    if lost <= NOISE_FACTOR * noise:
        return ("best" if lost <= 1.0 else "good"), accuracy(0.0)
    return grade_for(lost), accuracy(lost)


# ---------------------------------------------------------------------- the grades
def test_the_fixture_game_has_what_the_review_must_handle(record: GameRecord,
                                                          reviewed: Review) -> None:
    kinds = {s.kind for s in reviewed.steps}
    assert {"challenge", "block", "bluff", "keep"} <= kinds
    assert reviewed.forced >= 1
    assert any(s.grade is None for s in reviewed.steps)
    assert any(s.grade in ("mistake", "blunder") for s in reviewed.steps)
    assert record.finished_at is not None


def test_the_review_values_exactly_the_learners_real_decisions(record: GameRecord,
                                                                reviewed: Review) -> None:
    indices = [s.index for s in reviewed.steps]
    assert indices == decision_indices(record)
    assert [s.number for s in reviewed.steps] == list(range(1, len(indices) + 1))
    learner = record.learner_moves()
    assert set(indices) <= set(learner)
    left_out = [k for k in learner if k not in indices]
    assert reviewed.forced == len(left_out) >= 1
    assert all(kind_of(record.game(k)) is None for k in left_out)


def test_each_grade_is_the_decision_valued_directly(record: GameRecord,
                                                    reviewed: Review) -> None:
    moves = record.parsed()
    accuracies = []
    for s in reviewed.steps:
        game = record.game(s.index)
        belief = next(b for k, _, b, _ in positions(record, s.index + 1) if k == s.index)
        kind = kind_of(game)
        assert kind == s.kind
        direct = value(game, belief, record.learner_seat, kind=kind, rollouts=ROLLOUTS,
                       seed=rollout_seed(record, s.index), game_seed=record.seed,
                       prefix=tuple(moves[:s.index]), meta=meta(record, s.index),
                       played=moves[s.index])
        assert direct == s.valued
        chosen = label_of(game, direct.item, moves[s.index])
        lost = round(100 * (max(o.win for o in direct.item.options)
                            - direct.item.option(chosen).win), 2)
        noise = round(100 * direct.item.option(chosen).diff_se, 2)
        spread = 100 * (max(o.win for o in direct.item.options)
                        - min(o.win for o in direct.item.options))
        grade, acc = by_hand(lost, noise, spread <= 1.0)
        assert (s.chosen, s.lost_pp, s.noise_pp) == (chosen, lost, noise)
        assert s.grade == grade, f"move {s.index}: lost {lost}, noise {noise}"
        assert s.accuracy == acc
        assert s.turn == game.turn
        if acc is not None:
            accuracies.append(acc)
    assert reviewed.accuracy == pytest.approx(sum(accuracies) / len(accuracies))


def test_the_same_game_reviewed_twice_gets_the_same_review(record: GameRecord,
                                                           reviewed: Review) -> None:
    assert review(record, rollouts=ROLLOUTS).steps == reviewed.steps


def test_a_decision_with_one_legal_move_is_not_graded(record: GameRecord,
                                                      reviewed: Review) -> None:
    forced = [k for k in record.learner_moves() if len(record.game(k).legal_moves()) == 1]
    assert forced
    for k in forced:
        assert kind_of(record.game(k)) is None
        assert all(s.index != k for s in reviewed.steps)
        assert value_job((record, k, ROLLOUTS)) is None


def test_a_decision_where_every_option_is_within_a_point_is_not_graded(
        record: GameRecord, reviewed: Review) -> None:
    s = next(s for s in reviewed.steps if s.grade is not None)
    labels = [o.label for o in s.valued.item.options]
    wins = {label: 0.5 - 0.001 * i for i, label in enumerate(labels)}  # within a point
    wins[s.chosen] = 0.5 - 0.008
    regraded = regrade(record, reviewed, s.index, with_wins(s.valued, wins))
    assert regraded.grade is None and regraded.accuracy is None
    again = review(record, {**{t.index: t.valued for t in reviewed.steps},
                            s.index: with_wins(s.valued, wins)}, rollouts=ROLLOUTS)
    others = [t.accuracy for t in again.graded()]
    assert s.index not in [t.index for t in again.graded()]
    assert again.accuracy == pytest.approx(sum(others) / len(others))  # type: ignore[arg-type]


def a_step_with_three_options(rev: Review) -> Step:
    return next(s for s in rev.steps if len(s.valued.item.options) >= 3)


@pytest.mark.parametrize(("lost", "noise", "grade"), [
    (12.0, 7.0, "good"),  # a mistake by the thresholds, but within twice its noise
    (30.0, 15.0, "good"),  # even a blunder's loss, when the noise is that large
    (0.8, 0.5, "best"),  # within the noise and within a point
    (12.0, 5.9, "mistake"),  # just beyond twice the noise: the thresholds grade it
    (3.0, 1.0, "good"),
    (20.0, 2.0, "blunder"),
    (0.5, 0.0, "best"),
])
def test_a_loss_within_twice_its_noise_is_good_or_best_never_a_mistake(
        record: GameRecord, reviewed: Review, lost: float, noise: float, grade: str) -> None:
    s = a_step_with_three_options(reviewed)
    best = next(o.label for o in s.valued.item.options if o.label != s.chosen)
    wins = {o.label: 0.2 for o in s.valued.item.options}
    wins[best] = 0.6
    wins[s.chosen] = 0.6 - lost / 100
    regraded = regrade(record, reviewed, s.index,
                       with_wins(s.valued, wins, {s.chosen: noise / 100}))
    assert (regraded.lost_pp, regraded.noise_pp) == (lost, noise)
    assert regraded.grade == grade
    within = lost <= 2 * noise
    assert regraded.within_noise == within
    assert regraded.accuracy == pytest.approx(accuracy(0.0 if within else lost))


def test_accuracy_is_lichess_formula_on_the_points_lost() -> None:
    assert accuracy(0) == pytest.approx(100, abs=0.01)
    assert accuracy(15) == pytest.approx(103.1668 * math.exp(-0.04354 * 15) - 3.1669)
    assert accuracy(15) == pytest.approx(50.52, abs=0.01)
    assert accuracy(5) == pytest.approx(79.82, abs=0.01)
    assert accuracy(100) == 0 and accuracy(-5) == 100
    values = [accuracy(x) for x in range(0, 101, 5)]
    assert values == sorted(values, reverse=True)


def test_the_grade_thresholds_are_the_quizs() -> None:
    assert GRADE_BOUNDS == (("best", 1.0), ("good", 5.0), ("inaccuracy", 10.0),
                            ("mistake", 15.0))
    assert [grade_for(x) for x in (0, 1, 1.01, 5, 5.01, 10, 10.01, 15, 15.01)] == [
        "best", "best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake",
        "blunder"]


def test_the_counts_per_grade_add_up_to_the_graded_decisions(reviewed: Review) -> None:
    counts = reviewed.counts()
    assert list(counts) == list(GRADES)
    assert sum(counts.values()) == len(reviewed.graded())
    assert len(reviewed.graded()) < len(reviewed.steps)  # a trivial one is left out
    for g in GRADES:
        assert counts[g] == sum(1 for s in reviewed.steps if s.grade == g)
    assert reviewed.mistakes() == [s for s in reviewed.steps
                                   if s.grade in ("mistake", "blunder")]


def test_a_step_knows_the_learners_notes(record: GameRecord, reviewed: Review) -> None:
    for s in reviewed.steps:
        assert s.stated == record.stated.get(s.index) == STATED
        assert s.coached == (s.index in record.coached)
    assert reviewed.coached == sum(1 for s in reviewed.steps if s.index in record.coached) > 0


def test_the_win_chance_before_and_after_a_step(reviewed: Review) -> None:
    for s in reviewed.steps:
        assert s.win_before == s.valued.item.best.win
        assert s.win_after == s.valued.item.option(s.chosen).win
        assert 100 * (s.win_before - s.win_after) == pytest.approx(s.lost_pp, abs=0.006)


def test_a_swing_is_a_move_of_the_win_chance_between_two_decisions(reviewed: Review) -> None:
    """The bots' moves and the cards between two decisions, not the learner's choice."""
    steps = reviewed.steps
    expected = tuple(a.number for a, b in zip(steps, steps[1:], strict=False)
                     if abs(b.win_before - a.win_after) >= 0.15)
    assert expected and reviewed.swings == expected


# ---------------------------------------------------------------------- valued once
def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The indices of the decisions the review values (its calls to `value_at`)."""
    calls: list[int] = []
    original = review_module.value_at

    def counted(record: GameRecord, index: int, *args: object, **kwargs: object) -> Valued:
        calls.append(index)
        return original(record, index, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(review_module, "value_at", counted)
    return calls


def test_a_cached_decision_is_not_valued_again(record: GameRecord, reviewed: Review,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting(monkeypatch)
    cache = {s.index: s.valued for s in reviewed.steps}
    again = review(record, cache, rollouts=ROLLOUTS)
    assert calls == []
    assert again.steps == reviewed.steps


def test_a_cached_decision_with_more_rollouts_is_not_valued_again(
        record: GameRecord, reviewed: Review, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting(monkeypatch)
    review(record, {s.index: s.valued for s in reviewed.steps}, rollouts=ROLLOUTS - 10)
    assert calls == []


def test_a_cached_decision_with_fewer_rollouts_is_valued_again(
        record: GameRecord, reviewed: Review, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting(monkeypatch)
    s = reviewed.steps[1]
    cache = {t.index: t.valued for t in reviewed.steps}
    cache[s.index] = Valued(replace(s.valued.item, rollouts=ROLLOUTS - 1))
    again = review(record, cache, rollouts=ROLLOUTS)
    assert calls == [s.index]
    assert step_at(again, s.index) == s


def test_a_cached_decision_without_the_move_played_is_valued_again(
        record: GameRecord, reviewed: Review, monkeypatch: pytest.MonkeyPatch) -> None:
    """The coach values the usual options before the move; a move outside them (a steal from
    an unusual target) needs its own valuing."""
    calls = counting(monkeypatch)
    s = a_step_with_three_options(reviewed)
    coach = Valued(replace(s.valued.item, options=tuple(
        o for o in s.valued.item.options if o.label != s.chosen)))
    cache = {t.index: t.valued for t in reviewed.steps}
    cache[s.index] = coach
    again = review(record, cache, rollouts=ROLLOUTS)
    assert calls == [s.index]
    assert step_at(again, s.index) == s


def test_done_is_told_of_each_newly_valued_decision(record: GameRecord,
                                                    reviewed: Review) -> None:
    told: list[tuple[int, Valued]] = []
    first = review(record, rollouts=ROLLOUTS, done=lambda k, v: told.append((k, v)))
    assert told == [(s.index, s.valued) for s in first.steps]
    told.clear()
    cache = {s.index: s.valued for s in reviewed.steps[::2]}
    review(record, cache, rollouts=ROLLOUTS, done=lambda k, v: told.append((k, v)))
    assert told == [(s.index, s.valued) for s in reviewed.steps[1::2]]


def test_progress_counts_every_learners_move_up_to_the_total(record: GameRecord,
                                                             reviewed: Review) -> None:
    seen: list[tuple[int, int]] = []
    cache = {s.index: s.valued for s in reviewed.steps}
    review(record, cache, rollouts=ROLLOUTS, progress=lambda d, t: seen.append((d, t)))
    total = len(record.learner_moves())
    assert seen == [(d, total) for d in range(1, total + 1)]


# ---------------------------------------------------------------------- an unfinished game
def pending_cut(record: GameRecord, reviewed: Review) -> int:
    """A decision of the learner's in the middle of the game (a record cut just before it
    leaves it pending)."""
    return reviewed.steps[len(reviewed.steps) // 2].index


def test_the_pending_decision_of_an_unfinished_game_is_not_graded(
        record: GameRecord, reviewed: Review) -> None:
    k = pending_cut(record, reviewed)
    unfinished = record.model_copy(update={
        "moves": record.moves[:k], "stated": {i: p for i, p in record.stated.items() if i < k},
        "coached": [i for i in record.coached if i < k], "finished_at": None}, deep=True)
    last = list(positions(unfinished))[-1]
    assert last[0] == k and last[3] is None  # the position lists it, without a move
    rev = review(unfinished, {s.index: s.valued for s in reviewed.steps}, rollouts=ROLLOUTS)
    assert rev.steps == tuple(s for s in reviewed.steps if s.index < k)


def test_a_resigned_game_has_no_pending_decision(record: GameRecord,
                                                 reviewed: Review) -> None:
    k = pending_cut(record, reviewed)
    resigned = record.model_copy(update={"moves": record.moves[:k], "stated": {},
                                         "coached": [], "resigned": True}, deep=True)
    assert all(move is not None for _, _, _, move in positions(resigned))
    assert value_job((resigned, k, ROLLOUTS)) is None


def test_the_coach_values_the_pending_decision(record: GameRecord, reviewed: Review) -> None:
    """The coach's case: the decision at index len(moves), before any move is made."""
    k = pending_cut(record, reviewed)
    unfinished = record.model_copy(update={"moves": record.moves[:k], "stated": {},
                                           "coached": [], "finished_at": None}, deep=True)
    coach = value_job((unfinished, k, ROLLOUTS))
    assert coach is not None
    assert coach.rollouts == ROLLOUTS
    assert coach.item.meta["index"] == k and coach.item.meta["game"] == record.game_id
    assert coach.item.moves == tuple(record.parsed()[:k])
    game = record.game(k)
    assert {o.move for o in coach.item.options} <= set(game.legal_moves())
    # the same rollouts as the review's, option for option
    later = step_at(reviewed, k).valued
    for o in coach.item.options:
        assert later.item.option(o.label).win == o.win


def test_a_bots_move_is_not_the_learners_to_value(record: GameRecord) -> None:
    bots = [k for k, m in enumerate(record.parsed()) if m.player != record.learner_seat]
    assert value_job((record, bots[0], ROLLOUTS)) is None


# ---------------------------------------------------------------------- the truth of a claim
def test_a_judged_claims_truth_is_the_claimants_cards(record: GameRecord,
                                                      reviewed: Review) -> None:
    judged = [s for s in reviewed.steps if s.kind == "challenge"]
    assert judged
    for s in judged:
        item = s.valued.item
        assert item.has_claim and item.claimant is not None and item.claim is not None
        hand = record.game(s.index).hidden[item.claimant]
        assert item.bluff == all(str(c.role) != item.claim for c in hand)


def a_challenge(rev: Review, record: GameRecord) -> Step:
    return next(s for s in rev.steps
                if record.parsed()[s.index].kind is MoveKind.CHALLENGE and s.valued.item.has_claim)


def test_a_sound_challenge_of_an_honest_claim_is_a_good_decision_with_a_bad_outcome(
        record: GameRecord, reviewed: Review) -> None:
    s = a_challenge(reviewed, record)
    sound = with_wins(s.valued, {"Challenge": 0.6, "Pass": 0.4}, bluff=False)
    regraded = regrade(record, reviewed, s.index, sound)
    assert regraded.grade == "best"
    assert regraded.call_out is not None
    assert regraded.call_out.startswith("Good decision, bad outcome")


def test_a_challenge_that_caught_a_bluff_needs_no_consolation(record: GameRecord,
                                                              reviewed: Review) -> None:
    s = a_challenge(reviewed, record)
    caught = with_wins(s.valued, {"Challenge": 0.6, "Pass": 0.4}, bluff=True)
    assert regrade(record, reviewed, s.index, caught).call_out is None


def test_an_unsound_challenge_of_an_honest_claim_is_simply_a_mistake(
        record: GameRecord, reviewed: Review) -> None:
    s = a_challenge(reviewed, record)
    unsound = with_wins(s.valued, {"Challenge": 0.2, "Pass": 0.6},
                        {"Challenge": 0.01}, bluff=False)
    regraded = regrade(record, reviewed, s.index, unsound)
    assert regraded.grade == "blunder" and regraded.call_out is None


def test_a_sound_pass_of_a_bluff_is_a_good_decision_with_a_bad_outcome(
        record: GameRecord, reviewed: Review) -> None:
    passed = next(s for s in reviewed.steps if s.kind == "challenge"
                  and record.parsed()[s.index].kind is MoveKind.PASS)
    sound = with_wins(passed.valued, {"Challenge": 0.3, "Pass": 0.6}, bluff=True)
    regraded = regrade(record, reviewed, passed.index, sound)
    assert regraded.call_out is not None and "it was a bluff" in regraded.call_out


# ---------------------------------------------------------------------- for the Calibration page
def test_the_answers_are_valid_one_per_graded_decision_of_a_quiz_kind(
        record: GameRecord, reviewed: Review) -> None:
    rows = answers(reviewed, "ann")
    quiz_kinds = {"challenge", "block", "bluff", "lose", "keep"}
    expected = [s for s in reviewed.steps if s.grade is not None and s.kind in quiz_kinds]
    assert rows and len(rows) == len(expected)
    for a, s in zip(rows, expected, strict=True):
        assert Answer.model_validate(a.model_dump()) == a
        assert a.answer_id == f"play-{record.game_id}-{s.index}"
        assert (a.learner, a.kind, a.grade, a.lost_pp) == ("ann", s.kind, s.grade, s.lost_pp)
        assert (a.action, a.best) == (s.chosen, s.valued.best)
        assert a.answered_at == record.finished_at
        assert a.bluff == s.valued.item.bluff


def test_an_answer_carries_the_stated_chance_only_for_a_claim(reviewed: Review) -> None:
    rows = answers(reviewed, "ann")
    by_index = {s.index: s for s in reviewed.steps}
    with_claim = [a for a in rows if by_index[int(a.answer_id.rsplit("-", 1)[1])]
                  .valued.item.has_claim]
    without = [a for a in rows if a not in with_claim]
    assert with_claim and without
    assert all(a.stated == STATED and a.scored for a in with_claim)
    assert all(a.stated is None and not a.scored for a in without)


def test_the_answers_ids_are_unique_and_the_same_every_time(record: GameRecord,
                                                            reviewed: Review) -> None:
    ids = [a.answer_id for a in answers(reviewed, "ann")]
    assert len(set(ids)) == len(ids)
    again = review(record, {s.index: s.valued for s in reviewed.steps}, rollouts=ROLLOUTS)
    assert [a.answer_id for a in answers(again, "ann")] == ids


# ---------------------------------------------------------------------- a duel solved exactly
def test_a_duel_of_one_card_each_is_graded_by_its_exact_values() -> None:
    record = play(Setup("base", 2, ("you", "honest")), notes=False)
    duels = [k for k in decision_indices(record)
             if all(len(h) == 1 for i, h in enumerate(record.game(k).hidden)
                    if record.game(k).alive[i])]
    assert duels
    # the last decisions whose exact values settled (a decision a second Exchange moves is
    # graded by its playouts: the next test)
    for k in reversed(duels[:-1]):
        valued = value_job((record, k, ROLLOUTS))
        if valued is not None and valued.solved is not None:
            break
    else:
        pytest.fail("no decision of the duel settled")
    game = record.game(k)
    s = step(record, k, 1, game, kind_of(game) or "", valued, record.parsed()[k])
    assert s.solved
    assert s.lost_pp == round(valued.solved.lost_pp(s.chosen), 2)
    assert s.noise_pp == round(100 * valued.solved.exploitability, 2)
    assert s.valued.best == valued.solved.best
    assert s.win_after == valued.solved.values[s.chosen]
    grade, _ = by_hand(s.lost_pp, s.noise_pp, valued.solved.trivial)
    assert s.grade == grade


def test_a_duel_decision_a_second_exchange_moves_is_graded_by_its_playouts() -> None:
    """The same game's Exchange keep near the end: settled between two and four turns
    ahead, but not when a line may hold a second Exchange, so not a truth to grade by."""
    record = play(Setup("base", 2, ("you", "honest")), notes=False)
    duels = [k for k in decision_indices(record)
             if all(len(h) == 1 for i, h in enumerate(record.game(k).hidden)
                    if record.game(k).alive[i])]
    k = duels[-2]
    valued = value_job((record, k, ROLLOUTS))
    assert valued is not None and valued.solved is None
    assert valued.unsettled is not None and valued.unsettled.exchanges
    assert valued.unsettled.shorter == valued.unsettled.horizon == 4
    game = record.game(k)
    s = step(record, k, 1, game, kind_of(game) or "", valued, record.parsed()[k])
    assert not s.solved


# ---------------------------------------------------------------------- valued beside the game
def test_a_worker_process_values_a_decision_as_the_page_does(record: GameRecord,
                                                             reviewed: Review) -> None:
    k = reviewed.steps[0].index
    inline, pool = Valuer(0), Valuer(1)
    try:
        pool.submit(record, k, ROLLOUTS)
        inline.submit(record, k, ROLLOUTS)
        assert inline.ready(record, k, ROLLOUTS)
        assert pool.result(record, k, ROLLOUTS, timeout=60) == inline.result(record, k,
                                                                              ROLLOUTS)
        assert pool.ready(record, k, ROLLOUTS)
        assert inline.result(record, k, ROLLOUTS) == reviewed.steps[0].valued
    finally:
        pool.shutdown()


def test_a_job_never_submitted_is_run_when_its_result_is_asked_for(
        record: GameRecord, reviewed: Review) -> None:
    valuer = Valuer(0)
    k = reviewed.steps[-1].index
    assert not valuer.ready(record, k, ROLLOUTS)
    assert valuer.result(record, k, ROLLOUTS) == reviewed.steps[-1].valued
    valuer.forget(record.game_id)
    assert not valuer.ready(record, k, ROLLOUTS)


def test_a_job_is_valued_from_the_record_as_it_was_submitted(record: GameRecord,
                                                             reviewed: Review) -> None:
    """The record goes on changing while a job waits: the job keeps the moves it was given."""
    k = pending_cut(record, reviewed)
    live = record.model_copy(update={"moves": record.moves[:k], "stated": {}, "coached": []},
                             deep=True)
    valuer = Valuer(0)
    valuer.submit(live, k, ROLLOUTS)
    live.moves.append(record.moves[k])
    valued = valuer.result(live, k, ROLLOUTS)
    assert valued is not None and valued.item.meta["index"] == k



def test_a_duel_at_the_start_of_the_learners_turn_is_read_from_the_stored_table() -> None:
    for seed in range(4, 12):
        match = Match.start(Setup("base", seed, ("you", "rule")), "ann")
        rng = random.Random(seed)
        while not match.over:
            game = match.game
            if match.learner_to_move and game.phase is Phase.ACTION and kind_of(game) \
                    and all(len(game.hidden[p]) == 1 for p in (0, 1)):
                valued = value_job((match.record, match.index, 20))
                assert valued is not None and valued.exact is not None
                assert stored_root(game, 0, valued.item) == valued.exact, "read, not solved"
                if valued.exact.horizon != HORIZON:
                    # the table looked further ahead here: a fresh solve that deep takes
                    # minutes (the deeper pass's own tests check those figures)
                    assert valued.exact.compared is not None
                else:
                    fresh = solve_item(valued.item)
                    # The best option's value is the game's value for this card: the same
                    # either way (an option perfect play never takes may carry any value up
                    # to it).
                    assert abs(max(valued.exact.values.values())
                               - max(fresh.values.values())) <= 0.01
                    return
            if match.learner_to_move:
                match.play(rng.choice(game.legal_moves()))
            else:
                match.bot_move()
    pytest.fail("no duel at the start of the learner's turn in these deals")


def test_a_loss_the_noise_cannot_prove_is_tagged_too_close_to_call_never_green(
        record: GameRecord, reviewed: Review) -> None:
    from trainer.views.play_text import step_tag, step_title

    s = a_step_with_three_options(reviewed)
    best = next(o.label for o in s.valued.item.options if o.label != s.chosen)
    wins = {o.label: 0.2 for o in s.valued.item.options}
    wins[best], wins[s.chosen] = 0.6, 0.48
    regraded = regrade(record, reviewed, s.index,
                       with_wins(s.valued, wins, {s.chosen: 0.07}))
    assert regraded.grade == "good"  # counted as Good
    assert step_title(regraded).endswith("· Too close to call")
    assert 'class="coup-tag close"' in step_tag(regraded)


def _duel_item(hands, revealed, coins):  # type: ignore[no-untyped-def]
    """A two-player duel of one card each, the learner (player 0) to act, and an item of its
    moves as `stored_root` reads one: the court deck is what the hands and face-up cards
    leave."""
    from types import SimpleNamespace

    from trainer.engine.cards import Character as C
    from trainer.engine.game import Game
    from trainer.engine.variants import get_variant

    deck = [c for c in (C.DUKE, C.ASSASSIN, C.CAPTAIN, C.AMBASSADOR, C.CONTESSA)
            for _ in range(3)]
    for c in (*hands, *revealed):
        deck.remove(c)
    game = Game(names=["you", "them"], hands=[[hands[0]], [hands[1]]],
                revealed=[[revealed[0]], [revealed[1]]], coins=list(coins), deck=deck,
                first=0, variant=get_variant("base"))
    item = SimpleNamespace(options=[SimpleNamespace(label=str(m), move=m)
                                    for m in game.legal_moves()])
    return game, item


def test_a_duel_the_table_solved_six_turns_ahead_is_read_with_its_look_aheads() -> None:
    """Duke and Duke face up, 0 coins each, the learner holding the Captain to act: the table
    solved this duel six turns ahead and compared it with five, and the review's exact grade
    says six and five, not four and two."""
    from trainer.engine.cards import Character as C

    game, item = _duel_item((C.CAPTAIN, C.ASSASSIN), (C.DUKE, C.DUKE), (0, 0))
    read = stored_root(game, 0, item)  # type: ignore[arg-type]
    assert read is not None and read.horizon == 6 and read.compared == 5
    assert read.shorter == 5 and not read.settled and read.before
    assert read.other == {}  # Duke and Duke face up: no twin to read


def test_a_stored_duel_read_for_the_review_brings_its_twins_solve():
    """Captain and Contessa face up, 2 coins against 1, the Captain in hand: the review reads
    the second solve of the same duel too. The two solves grade the Exchange apart while the
    look-aheads agree: it is graded on the loss all agree on."""
    from trainer.engine.cards import Character as C
    from trainer.quiz.feedback import item_valuation
    from trainer.verdicts import judge
    from trainer.verdicts.grades import rank

    game, item = _duel_item((C.CAPTAIN, C.DUKE), (C.CAPTAIN, C.CONTESSA), (2, 1))
    read = stored_root(game, 0, item)  # type: ignore[arg-type]
    assert read is not None and read.settled and set(read.other) == set(read.values)
    exchange = next(label for label in read.values if "exchange" in label.lower())
    v = judge(item_valuation(item, read), exchange)  # type: ignore[arg-type]
    assert v.reason == "solves" and v.this_solve != v.other_solve
    assert v.grade == min(v.this_solve, v.other_solve, key=rank)  # type: ignore[arg-type]


def test_the_review_and_the_end_game_page_grade_every_option_of_a_stored_duel_alike() -> None:
    """Ambassador and Assassin face up, no coins against 6, the Duke in hand: a settled duel
    whose look-aheads and solves value weaker moves apart. The Play review and the End-game
    page read the same figures and grade each move the same."""
    from trainer.endgame import hidden_tables
    from trainer.engine.cards import Character as C
    from trainer.quiz.feedback import item_valuation
    from trainer.verdicts import judge
    from trainer.views import endgame_view as v

    game, item = _duel_item((C.DUKE, C.CAPTAIN), (C.AMBASSADOR, C.ASSASSIN), (0, 6))
    read = stored_root(game, 0, item)  # type: ignore[arg-type]
    stored = hidden_tables.stored_solution((C.AMBASSADOR, C.ASSASSIN), (0, 6), 0)
    assert read is not None and read.settled and stored is not None
    choice = v.Choice(card=C.DUKE, lost=(C.AMBASSADOR, C.ASSASSIN), coins=(0, 6),
                      turn="you", mode="hidden")
    rows = v.option_rows(choice, v.distil(stored, 4, 0.0))
    page = {o.move: (r.grade, r.lost_pp) for o, r in zip(stored.options(C.DUKE), rows,
                                                          strict=True)}
    valuation = item_valuation(item, read)  # type: ignore[arg-type]
    review = {o.move: (judge(valuation, o.label).grade, judge(valuation, o.label).lost_pp)
              for o in item.options}
    assert review == page
    assert len({g for g, _ in page.values()}) >= 3  # the duel grades its moves apart
