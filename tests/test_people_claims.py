"""People's claims: the records made at every claim a person judged (the bot's chance as the
Play review makes it, counting's, the truth), and the report a host reads."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from trainer.engine.cards import Action, Character, proves
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import VARIANTS
from trainer.estimates.posterior import p_holds
from trainer.play.assess import judged_claim
from trainer.play.record import GameRecord, fresh_game
from trainer.play.review import positions
from trainer.tables.claims import (
    CONFIDENT,
    ClaimRecord,
    claim_records,
    people_report,
    records_csv,
    records_frame,
    records_from_frame,
    report_figures,
    report_lines,
)


def random_moves(game: Game, seed: int) -> list[Move]:
    """Random legal moves to the end, on a copy."""
    rng = random.Random(seed)
    g = game.clone()
    moves = []
    while not g.is_over:
        move = rng.choice(g.legal_moves())
        moves.append(move)
        g.apply(move)
    return moves


def record(game: str = "g1", *, bluff: bool, bot: float, counting: float, index: int = 0,
           challenged: bool = False, kind: str = "challenge",
           stated: float | None = None) -> ClaimRecord:
    return ClaimRecord(source="table", game=game, index=index, variant="base", players=3,
                       decider=1, claimant=0, character="Duke", kind=kind, bluff=bluff,
                       bot=bot, counting=counting, challenged=challenged, stated=stated)


def many(seed: int, games: int, per_game: int, *, bot_noise: float,
         count_noise: float) -> list[ClaimRecord]:
    """Records whose truth is a coin flip and whose forecasts are the truth blurred."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        for k in range(per_game):
            truth = bool(rng.random() < 0.4)
            bot = float(np.clip(truth * 0.8 + 0.1 + rng.normal(0, bot_noise), 0, 1))
            count = float(np.clip(truth * 0.8 + 0.1 + rng.normal(0, count_noise), 0, 1))
            out.append(record(f"g{g}", bluff=truth, bot=bot, counting=count, index=k,
                              challenged=bool(rng.random() < 0.5)))
    return out


# --------------------------------------------------------------------------- records


def test_the_bots_chance_is_the_play_reviews_at_every_judged_claim() -> None:
    game = GameRecord(game_id="abcdefghijkm", learner="ann", variant="base", seed=11,
                      seats=("you", "honest", "bluffer", "skeptic"))
    g = fresh_game(game.setup())
    for move in random_moves(g, 3):
        game.add(move)
    expected = {}
    for k, position, belief, move in positions(game):
        claim = judged_claim(position)
        if claim is None or move is None or len(position.legal_moves()) < 2:
            continue
        if position.pending is not None and position.pending.phase is Phase.BLOCK \
                and position.challenger is not None:
            continue
        obs = position.observation(0)
        expected[k] = (1 - p_holds(obs, belief, *claim), 1 - p_holds(obs, None, *claim))
    records = claim_records(fresh_game(game.setup()), game.parsed(), [0], source="table",
                            game_id=game.game_id)
    assert expected and {r.index for r in records} == set(expected)
    for r in records:
        assert (r.bot, r.counting) == pytest.approx(expected[r.index], abs=1e-12)


def test_only_the_people_seats_decisions_are_recorded() -> None:
    start = Game.new(4, seed=5)
    moves = random_moves(start, 5)
    records = claim_records(start, moves, [1, 3], source="table", game_id="x")
    assert records and {r.decider for r in records} <= {1, 3}
    assert {r.decider for r in records} == {1, 3}


def test_a_bluff_is_the_claimant_holding_no_card_that_proves_the_claim() -> None:
    start = Game.new(3, seed=8)
    moves = random_moves(start, 8)
    game = start.clone()
    truth = {}
    for k, move in enumerate(moves):
        claim = judged_claim(game)
        if claim is not None:
            truth[k] = not any(proves(c, claim[1]) for c in game.hidden[claim[0]])
        game.apply(move)
    records = claim_records(start, moves, range(3), source="table", game_id="x")
    assert records
    for r in records:
        assert r.bluff == truth[r.index]
        claim = judged_claim(_at(start, moves, r.index))
        assert claim is not None and r.character == str(claim[1])


def _at(start: Game, moves: list[Move], index: int) -> Game:
    game = start.clone()
    for move in moves[:index]:
        game.apply(move)
    return game


def test_at_a_challenge_window_challenged_is_whether_the_person_challenged() -> None:
    start = Game.new(4, seed=2)
    moves = random_moves(start, 2)
    records = claim_records(start, moves, range(4), source="table", game_id="x")
    windows = [r for r in records if r.kind == "challenge"]
    assert windows
    for r in windows:
        assert r.challenged == (moves[r.index].kind is MoveKind.CHALLENGE)


def test_at_a_block_decision_challenged_is_whether_the_person_blocked() -> None:
    found = []
    for seed in range(20):
        start = Game.new(3, seed=seed)
        moves = random_moves(start, seed)
        found += [(r, moves[r.index]) for r in claim_records(
            start, moves, range(3), source="table", game_id="x") if r.kind == "block"]
    assert found
    assert {r.challenged for r, _ in found} == {True, False}
    for r, move in found:
        assert r.challenged == (move.kind is MoveKind.BLOCK)
        assert r.character in ("Captain", "Assassin")


def test_a_block_decision_after_the_claim_was_proven_is_left_out() -> None:
    game = Game(names=["A", "B", "C"], hands=[[Character.CAPTAIN, Character.DUKE],
                                             [Character.CONTESSA, Character.DUKE],
                                             [Character.ASSASSIN, Character.ASSASSIN]],
                coins=[2, 2, 2], deck=[Character.CAPTAIN, Character.CAPTAIN,
                                       Character.AMBASSADOR, Character.AMBASSADOR,
                                       Character.AMBASSADOR, Character.CONTESSA,
                                       Character.CONTESSA, Character.DUKE,
                                       Character.ASSASSIN])
    moves = [Move.act(0, Action.STEAL, 1), Move.challenge(1), Move.show(0, Character.CAPTAIN),
             Move.lose(1, Character.DUKE), Move.pass_(1)]
    records = claim_records(game, moves, [1], source="table", game_id="x")
    assert [(r.index, r.kind) for r in records] == [(1, "challenge")]


def test_the_start_game_is_left_as_it_was() -> None:
    start = Game.new(3, seed=4)
    before = start.snapshot()
    claim_records(start, random_moves(start, 4), range(3), source="table", game_id="x")
    assert start.snapshot() == before


def test_stated_chances_are_kept_by_the_moves_index() -> None:
    start = Game.new(3, seed=6)
    moves = random_moves(start, 6)
    records = claim_records(start, moves, range(3), source="table", game_id="x")
    said = {records[0].index: 0.3}
    again = claim_records(start, moves, range(3), source="table", game_id="x", stated=said)
    assert again[0].stated == 0.3 and all(r.stated is None for r in again[1:])


def test_until_leaves_out_a_seats_decisions_from_that_move_on() -> None:
    start = Game.new(3, seed=9)
    moves = random_moves(start, 9)
    every = claim_records(start, moves, range(3), source="table", game_id="x")
    cut = every[len(every) // 2].index
    some = claim_records(start, moves, range(3), source="table", game_id="x",
                         until={every[len(every) // 2].decider: cut})
    seat = every[len(every) // 2].decider
    assert [r for r in some if r.decider != seat] == [r for r in every if r.decider != seat]
    assert [r for r in some if r.decider == seat] == [
        r for r in every if r.decider == seat and r.index < cut]


def test_an_unknown_source_is_refused() -> None:
    with pytest.raises(ValueError, match="source"):
        claim_records(Game.new(2, seed=1), [], [0], source="bots", game_id="x")


@pytest.mark.parametrize("rules", [*VARIANTS, "base(challengers=all)",
                                   "base(foreign_aid_blockers=random)",
                                   "base+pay_five+bounty", "inquisitor(examine_pick=random)"])
def test_every_rule_set_gives_records_whose_truth_and_chances_hold(rules: str) -> None:
    records: list[ClaimRecord] = []
    for seed in range(3):
        start = Game.new(3 if rules != "draft" else 2, seed=seed, variant=rules)
        moves = random_moves(start, seed)
        made = claim_records(start, moves, range(start.n), source="table",
                             game_id=f"{rules}-{seed}")
        for r in made:
            game = _at(start, moves, r.index)
            claim = judged_claim(game)
            assert claim is not None
            claimant, role = claim
            assert (r.claimant, r.character, r.decider) == (claimant, str(role), game.decider)
            assert r.bluff == (not any(proves(c, role) for c in game.hidden[claimant]))
            assert 0.0 <= r.bot <= 1.0 and 0.0 <= r.counting <= 1.0
            assert r.variant == game.variant.name or r.variant.startswith(game.variant.name)
        records += made
    assert records


# --------------------------------------------------------------------------- the report


def test_brier_scores_are_the_mean_squared_distance_from_the_truth() -> None:
    records = [record("a", bluff=True, bot=0.9, counting=0.5, index=0),
               record("a", bluff=False, bot=0.3, counting=0.5, index=1),
               record("b", bluff=True, bot=0.6, counting=0.5, index=0),
               record("b", bluff=False, bot=0.0, counting=0.5, index=1)]
    report = people_report(records)
    assert report.bot is not None and report.counting is not None
    assert report.bot.brier == pytest.approx((0.01 + 0.09 + 0.16 + 0.0) / 4)
    assert report.counting.brier == pytest.approx(0.25)
    assert report.difference == pytest.approx(0.065 - 0.25)
    assert (report.n, report.games, report.bluffs, report.base_rate) == (4, 2, 2, 0.5)


def test_the_same_records_give_the_same_figures_in_any_order() -> None:
    records = many(1, 20, 8, bot_noise=0.2, count_noise=0.3)
    shuffled = list(records)
    random.Random(0).shuffle(shuffled)
    assert people_report(records) == people_report(shuffled)


def test_another_seed_gives_other_intervals() -> None:
    records = many(1, 20, 8, bot_noise=0.2, count_noise=0.3)
    a, b = people_report(records), people_report(records, seed=7)
    assert a.bot is not None and b.bot is not None
    assert a.bot.brier == b.bot.brier and a.bot.interval != b.bot.interval


@pytest.mark.parametrize("seed", range(5))
def test_every_interval_holds_its_point_estimate(seed: int) -> None:
    report = people_report(many(seed, 12, 6, bot_noise=0.25, count_noise=0.3))
    assert report.bot is not None and report.counting is not None
    assert report.bot.interval is not None and report.counting.interval is not None
    assert report.difference_interval is not None
    assert report.bot.brier in report.bot.interval
    assert report.counting.brier in report.counting.interval
    assert report.difference in report.difference_interval


def test_the_bootstrap_resamples_whole_games() -> None:
    """Two games, one forecast perfectly and one wholly wrong: over games a resample is all of
    one, all of the other or half each, so the interval spans 0 to 1; resampling 200 claims
    one by one would have kept it near 0.5."""
    records = [record("right", bluff=True, bot=1.0, counting=0.5, index=k) for k in range(100)]
    records += [record("wrong", bluff=False, bot=1.0, counting=0.5, index=k)
                for k in range(100)]
    report = people_report(records)
    assert report.bot is not None and report.bot.interval is not None
    assert report.bot.brier == 0.5
    assert (report.bot.interval.low, report.bot.interval.high) == (0.0, 1.0)


def test_one_game_has_no_interval_and_the_words_say_so() -> None:
    report = people_report([record(bluff=True, bot=0.7, counting=0.5, index=k)
                            for k in range(5)])
    assert report.bot is not None and report.bot.interval is None
    assert report.difference_interval is None
    text = " ".join(report_lines(report))
    assert "one game is too few" in text and "closer to the truth" not in text


def test_no_records_make_a_report_that_says_so() -> None:
    report = people_report([])
    assert report.n == 0 and report.bot is None
    assert report_lines(report) == [
        "No claims judged by people yet: there is nothing to measure."]
    assert report_figures(report)[0] == ("claims", "0 in 0 games")


def test_the_words_claim_no_difference_when_the_interval_holds_zero() -> None:
    records = many(3, 10, 5, bot_noise=0.3, count_noise=0.3)
    report = people_report(records)
    assert report.difference_interval is not None and report.difference_interval.holds_zero
    text = " ".join(report_lines(report))
    assert "There is no clear difference" in text
    assert "closer to the truth than" not in text


def test_the_words_name_the_closer_forecaster_when_the_interval_excludes_zero() -> None:
    better = people_report(many(4, 30, 8, bot_noise=0.05, count_noise=0.4))
    worse = people_report(many(4, 30, 8, bot_noise=0.4, count_noise=0.05))
    assert better.difference_interval is not None and better.difference_interval.high < 0
    assert worse.difference_interval is not None and worse.difference_interval.low > 0
    assert "The bot's chances were closer to the truth than counting cards alone" in \
        report_lines(better)[1]
    assert "Counting cards alone was closer to the truth than the bot's chances" in \
        report_lines(worse)[1]
    assert "no clear difference" not in " ".join(report_lines(better) + report_lines(worse))


def test_the_first_sentence_counts_claims_games_and_bluffs() -> None:
    records = [record(f"g{k % 3}", bluff=k % 4 == 0, bot=0.5, counting=0.5, index=k)
               for k in range(412)]
    assert report_lines(people_report(records))[0] == \
        "Out of 412 claims people judged in 3 games, 25% were bluffs."


def test_a_confident_miss_is_a_chance_at_the_threshold_on_the_wrong_side() -> None:
    assert CONFIDENT == 0.2
    records = [record("a", bluff=False, bot=0.8, counting=0.5),  # confident, missed
               record("a", bluff=True, bot=0.2, counting=0.5, index=1),  # confident, missed
               record("a", bluff=False, bot=0.79, counting=0.5, index=2),  # not confident
               record("b", bluff=True, bot=0.95, counting=0.5),  # confident, right
               record("b", bluff=False, bot=0.0, counting=0.21, index=1)]  # confident, right
    report = people_report(records)
    assert report.bot is not None and report.counting is not None
    assert (report.bot.confident, report.bot.misses) == (4, 2)
    assert (report.counting.confident, report.counting.misses) == (0, 0)
    text = report_lines(report)[2]
    assert "the bot missed 2 of its 4 confident chances" in text
    assert "counting cards alone was never that confident" in text


def test_peoples_challenges_are_counted_by_what_they_caught() -> None:
    records = [record("a", bluff=True, bot=0.5, counting=0.5, challenged=True),
               record("a", bluff=False, bot=0.5, counting=0.5, index=1, challenged=True),
               record("a", bluff=True, bot=0.5, counting=0.5, index=2, challenged=True),
               record("b", bluff=True, bot=0.5, counting=0.5, challenged=False),
               record("b", bluff=False, bot=0.5, counting=0.5, index=1, challenged=False),
               record("b", bluff=True, bot=0.5, counting=0.5, index=2, challenged=True,
                      kind="block")]
    report = people_report(records)
    assert (report.judged, report.challenges, report.caught) == (5, 3, 2)
    assert report.passed == 2 and report.passed_bluffs == 1
    assert report_lines(report)[3] == (
        "People challenged 3 of the 5 claims they could have challenged, and 2 of their "
        "challenges (67%) caught a bluff; of the claims they let pass, 50% were bluffs.")


def test_stated_chances_are_scored_beside_the_bot_on_the_same_claims() -> None:
    records = [record("a", bluff=True, bot=0.6, counting=0.5, stated=0.9),
               record("a", bluff=False, bot=0.2, counting=0.5, index=1, stated=0.5),
               record("a", bluff=False, bot=0.2, counting=0.5, index=2)]
    report = people_report(records)
    assert report.stated == 2
    assert report.stated_brier == pytest.approx((0.01 + 0.25) / 2)
    assert report.bot_brier_on_stated == pytest.approx((0.16 + 0.04) / 2)
    assert "People gave their own chance of a bluff for 2 claims" in report_lines(report)[-1]


def test_negative_numbers_are_written_with_a_minus_sign() -> None:
    report = people_report(many(4, 30, 8, bot_noise=0.05, count_noise=0.4))
    line = report_lines(report)[1]
    assert "the difference is −0." in line and "interval −0." in line
    assert "-0" not in line and "−0.000" not in line


# --------------------------------------------------------------------------- tables


def test_the_records_frame_has_one_row_per_record_in_the_records_columns() -> None:
    records = many(2, 3, 4, bot_noise=0.1, count_noise=0.1)
    frame = records_frame(records)
    assert list(frame.columns)[:4] == ["source", "game", "index", "variant"]
    assert len(frame) == 12
    assert records_from_frame(frame) == records


def test_an_empty_frame_keeps_its_columns() -> None:
    frame = records_frame([])
    assert len(frame) == 0 and "bot" in frame.columns


def test_the_csv_reads_back_as_the_same_records() -> None:
    import io

    records = many(2, 3, 4, bot_noise=0.1, count_noise=0.1)
    records[0] = replace(records[0], stated=0.25)
    frame = pd.read_csv(io.StringIO(records_csv(records)), dtype={"game": str})
    assert records_from_frame(frame) == records


def test_a_game_id_that_a_spreadsheet_would_run_is_written_as_text() -> None:
    records = [record("=HYPERLINK(\"http://x\")", bluff=True, bot=0.5, counting=0.5)]
    text = records_csv(records)
    assert "'=HYPERLINK" in text and ",=" not in text
