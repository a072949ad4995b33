"""A whole game against the bots: the table the rules allow, a match that replays move for move
from its seed and the learner's moves, bots that see only their own cards, and the learner's
notes kept on the move they belong to."""

from __future__ import annotations

import csv
import random
from collections.abc import Callable
from typing import Any

import pytest

from trainer.bots.calibrated import Calibrated
from trainer.engine.cards import Action, Character
from trainer.engine.errors import MoveError
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.notation import parse
from trainer.engine.observation import Observation
from trainer.engine.variants import VARIANTS, get_variant
from trainer.play.match import Match, NotYourTurn
from trainer.play.record import GameRecord
from trainer.play.setup import (
    BOTS,
    LEARNER,
    MAX_SEED,
    TOURNAMENT,
    Setup,
    SetupError,
    bot_title,
    mixed_seats,
    sizes,
    strength,
)

Policy = Callable[[Match], Move]


def by_chance(match: Match) -> Move:
    """The learner's move: a legal one drawn from a stream fixed by the seed and the move's
    number, so the same position always gets the same move."""
    legal = match.game.legal_moves()
    return random.Random(f"learner:{match.record.seed}:{match.index}").choice(legal)


def first_legal(match: Match) -> Move:
    return match.game.legal_moves()[0]


def small_table(variant: str) -> tuple[str, ...]:
    """Three seats (two where the rule set allows only two), the Calibrated bot among them."""
    return ("you", "calibrated", "honest")[: min(3, sizes(variant)[-1])]


def play(setup: Setup, policy: Policy = by_chance, *, upto: int | None = None,
         until: Callable[[Match], bool] | None = None) -> Match:
    """The match of `setup` played by the bots and `policy` to the end, or until `upto`
    moves, or until the learner is to move and `until` says stop."""
    match = Match.start(setup, "ann")
    go_on(match, policy, upto=upto, until=until)
    return match


def go_on(match: Match, policy: Policy = by_chance, *, upto: int | None = None,
          until: Callable[[Match], bool] | None = None) -> None:
    while not match.over and (upto is None or match.index < upto):
        if match.bot_to_move:
            match.bot_move()
        elif until is not None and until(match):
            return
        else:
            match.play(policy(match))


def bot_moves(record: GameRecord) -> list[tuple[int, str]]:
    seat = record.learner_seat
    return [(k, text) for k, text in enumerate(record.moves) if parse(text).player != seat]


def cut(record: GameRecord, k: int) -> GameRecord:
    """The record as it was saved after its first `k` moves."""
    return record.model_copy(update={
        "moves": record.moves[:k], "stated": {i: p for i, p in record.stated.items() if i < k},
        "coached": [i for i in record.coached if i < k], "finished_at": None}, deep=True)


def learners_decision(match: Match) -> bool:
    return match.learner_to_move and len(match.game.legal_moves()) > 1


# ---------------------------------------------------------------------- the same game again
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_same_seed_and_the_same_learner_moves_give_the_same_game(variant: str) -> None:
    setup = Setup(variant, 11, small_table(variant))
    random.seed(1)  # nothing a bot decides may come from the process's shared stream
    first = play(setup)
    random.seed(2)
    again = play(setup)
    assert first.over and bot_moves(first.record)
    assert again.record.moves == first.record.moves
    assert bot_moves(again.record) == bot_moves(first.record)
    assert again.game.snapshot() == first.game.snapshot()


def test_another_seed_deals_another_game() -> None:
    games = {tuple(play(Setup("base", seed, ("you", "honest", "skeptic"))).record.moves)
             for seed in range(4)}
    assert len(games) > 1


def test_two_matches_at_once_do_not_disturb_each_other() -> None:
    """Two learners at the same table of bots: each game goes as it would alone."""
    setup = Setup("base", 7, ("calibrated", "you", "calibrated"))
    alone = play(setup).record.moves
    a, b = Match.start(setup, "ann"), Match.start(setup, "ben")
    while not (a.over and b.over):
        for m in (a, b):
            if m.bot_to_move:
                m.bot_move()
            elif m.learner_to_move:
                m.play(by_chance(m))
    assert a.record.moves == alone and b.record.moves == alone


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_resumed_match_is_the_identical_position_and_the_bots_go_on_as_before(
        variant: str) -> None:
    setup = Setup(variant, 5, small_table(variant))
    whole = play(setup)
    record = whole.record
    n = len(record.moves)
    assert n >= 6, "too short a game to cut"
    learner = record.learner_seat
    cuts = {n // 3, n // 2}
    # a cut where a bot moves next and one where the learner does
    cuts.add(next(k for k in range(n // 2, n) if parse(record.moves[k]).player != learner))
    cuts.add(next((k for k in range(n // 2, n) if parse(record.moves[k]).player == learner),
                  n - 1))
    for k in sorted(cuts):
        partial = play(setup, upto=k)
        resumed = Match.resume(cut(record, k))
        assert resumed.game.snapshot() == partial.game.snapshot(), f"cut at {k}"
        assert resumed.game.snapshot() == record.game(k).snapshot(), f"cut at {k}"
        go_on(resumed)
        assert resumed.record.moves == record.moves, f"cut at {k}"


def test_a_resumed_match_keeps_the_learners_notes_and_the_record_itself() -> None:
    match = play(Setup("base", 3, ("you", "honest")), upto=8)
    k = match.record.learner_moves()[0]
    match.record.stated[k] = 0.4
    match.record.coached.append(k)
    saved = match.record.model_copy(deep=True)
    resumed = Match.resume(saved)
    assert resumed.record is saved
    assert resumed.record.stated == {k: 0.4} and resumed.record.coached == [k]
    assert resumed.index == 8


def test_a_record_with_a_move_after_the_end_does_not_resume() -> None:
    record = play(Setup("base", 3, ("you", "honest"))).record
    assert record.finished_at is not None
    damaged = record.model_copy(update={"moves": [*record.moves, record.moves[-1]]})
    with pytest.raises(ValueError, match=rf"move {len(record.moves) + 1} .* after the end"):
        Match.resume(damaged)


def test_a_record_with_an_illegal_move_does_not_resume_and_names_it() -> None:
    record = play(Setup("base", 3, ("you", "honest")), upto=6).record
    bad = record.model_copy(update={"moves": [*record.moves[:2], "P1:coup>P0"]})
    with pytest.raises(ValueError, match=r"move 3 'P1:coup>P0' is not legal there"):
        Match.resume(bad)


# ---------------------------------------------------------------------- what a bot sees
class Recording:
    """Sits in a bot's seat and notes each observation the bot is handed to decide from (a
    compiled persona's methods cannot be replaced on the object itself)."""

    def __init__(self, bot: Any, seen: list[tuple[int, Observation]], match: Match) -> None:
        self.bot, self.seen, self.match = bot, seen, match

    def new_game(self, rng: random.Random) -> None:
        self.bot.new_game(rng)

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        self.seen.append((self.match.index, obs))
        move: Move = self.bot.choose(obs, rng)
        return move

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


def test_a_bot_decides_from_its_own_observation_only(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = Setup("base", 9, ("honest", "you", "calibrated"))
    match = Match.start(setup, "ann")
    seen: list[tuple[int, Observation]] = []
    fed: list[tuple[int, int]] = []
    calibrated = match.bots[2]
    for seat, bot in list(match.bots.items()):  # the bots at the table, not in a rollout
        match.bots[seat] = Recording(bot, seen, match)
    assert isinstance(calibrated, Calibrated)

    def recording_observe(obs: Observation, move: Move,
                          observe: Callable[..., None] = calibrated.observe) -> None:
        fed.append((match.index, obs.player))
        observe(obs, move)

    monkeypatch.setattr(calibrated, "observe", recording_observe)
    go_on(match)
    record = match.record
    assert len(seen) == len(bot_moves(record)) > 0
    for k, obs in seen:
        seat = parse(record.moves[k]).player
        game = record.game(k)
        assert obs.player == seat != setup.learner
        assert obs == game.observation(seat)
        assert sorted(obs.hand) == sorted(game.hidden[seat])
    # The Calibrated bot (seat 2) is told of every move, through its own seat's eyes.
    assert fed == [(k, 2) for k in range(len(record.moves))]


# ---------------------------------------------------------------------- the learner's moves
def test_an_illegal_move_of_the_learners_raises_the_engines_error_and_changes_nothing() -> None:
    setup = Setup("base", 4, ("you", "calibrated"))
    match = play(setup, until=lambda m: m.game.phase is Phase.ACTION)
    before = (match.game.snapshot(), match.record.model_copy(deep=True))
    coup = Move.act(match.learner, Action.COUP, 1)  # two coins: a coup costs seven
    with pytest.raises(MoveError):
        match.play(coup, stated=0.5, coached=True)
    assert (match.game.snapshot(), match.record) == before
    # and the game goes on as if it had never been tried
    go_on(match)
    assert match.record.moves == play(setup).record.moves


def test_a_move_for_another_seat_is_refused_and_changes_nothing() -> None:
    match = play(Setup("base", 4, ("you", "honest")), until=learners_decision)
    moves = list(match.record.moves)
    with pytest.raises(MoveError):
        match.play(Move.act(1, Action.INCOME))
    assert match.record.moves == moves and match.learner_to_move


def test_a_kept_set_of_cards_in_any_order_is_the_same_move() -> None:
    """The engine accepts an exchange's kept cards in any order; the match then plays the move
    once, records it as the engine's own, and the record rebuilds the same game."""
    def exchange(m: Match) -> Move:
        legal = m.game.legal_moves()
        return next((x for x in legal if x.action is Action.EXCHANGE), legal[0])

    setup = Setup("base", 0, ("you", "honest"))
    match = play(setup, exchange,
                 until=lambda m: m.game.legal_moves()[0].kind is MoveKind.KEEP)
    keep = match.game.legal_moves()[0]
    assert keep.cards is not None and len(set(keep.cards)) == 2
    reordered = keep._replace(cards=tuple(reversed(keep.cards)))
    assert reordered not in match.game.legal_moves()
    index = match.index
    match.play(reordered)
    assert match.index == index + 1
    assert match.record.parsed()[index] == keep
    assert match.record.game().snapshot() == match.game.snapshot()


def test_a_saved_keep_written_in_another_order_resumes() -> None:
    def exchange(m: Match) -> Move:
        legal = m.game.legal_moves()
        return next((x for x in legal if x.action is Action.EXCHANGE), legal[0])

    match = play(Setup("base", 0, ("you", "honest")), exchange,
                 until=lambda m: m.game.legal_moves()[0].kind is MoveKind.KEEP)
    keep = match.game.legal_moves()[0]
    assert keep.cards is not None
    record = match.record.model_copy(deep=True)
    record.moves.append(f"P0:keep/{keep.cards[1]}+{keep.cards[0]}")
    resumed = Match.resume(record)
    assert resumed.game.snapshot() == record.game().snapshot()
    assert resumed.index == len(record.moves)


def test_a_learners_move_when_a_bot_is_to_move_is_refused() -> None:
    match = Match.start(Setup("base", 4, ("honest", "you")), "ann")
    assert match.bot_to_move and not match.learner_to_move
    move = Move.act(match.learner, Action.INCOME)
    with pytest.raises(NotYourTurn, match="not your decision"):
        match.play(move)
    assert match.record.moves == []


def test_a_bot_move_when_the_learner_is_to_move_is_refused() -> None:
    match = Match.start(Setup("base", 4, ("you", "honest")), "ann")
    assert match.learner_to_move
    with pytest.raises(NotYourTurn):
        match.bot_move()
    assert match.record.moves == []


def test_no_move_is_taken_after_the_game_is_over() -> None:
    match = play(Setup("base", 4, ("you", "honest")))
    assert match.over and not match.learner_to_move and not match.bot_to_move
    with pytest.raises(NotYourTurn, match="over"):
        match.play(Move.act(match.learner, Action.INCOME))
    with pytest.raises(NotYourTurn):
        match.bot_move()


@pytest.mark.parametrize(("given", "kept"), [(0.374, 0.37), (0.005, 0.01), (0.0, 0.01),
                                             (0.999, 0.99), (1.5, 0.99), (0.5, 0.5)])
def test_a_stated_chance_is_kept_by_the_moves_index_clamped_and_rounded(
        given: float, kept: float) -> None:
    match = play(Setup("base", 4, ("you", "honest")), until=learners_decision)
    index = match.index
    match.play(by_chance(match), stated=given)
    assert match.record.stated == {index: kept}
    GameRecord.model_validate(match.record.model_dump())  # a record that saves


def test_no_chance_stated_keeps_none() -> None:
    match = play(Setup("base", 4, ("you", "honest")), upto=10)
    assert match.record.stated == {}


def test_the_moves_made_with_the_coach_open_are_recorded() -> None:
    match = Match.start(Setup("base", 4, ("you", "honest")), "ann")
    coached: list[int] = []
    while not match.over:
        if match.bot_to_move:
            match.bot_move()
        else:
            on = len(coached) % 2 == 0 and match.index % 2 == 0
            if on:
                coached.append(match.index)
            match.play(by_chance(match), coached=on)
    assert coached and match.record.coached == coached
    assert set(coached) <= set(match.record.learner_moves())


def test_resigning_ends_the_match_and_it_is_lost() -> None:
    match = play(Setup("base", 4, ("you", "honest")), upto=5)
    assert not match.over and match.won is None
    match.resign()
    assert match.over and match.record.resigned and match.won is False
    assert match.record.finished_at is not None
    assert not match.learner_to_move and not match.bot_to_move
    with pytest.raises(NotYourTurn):
        match.bot_move()


def test_resigning_a_finished_game_changes_nothing() -> None:
    match = play(Setup("base", 4, ("you", "honest")))
    won, finished = match.won, match.record.finished_at
    assert won is not None
    match.resign()
    assert not match.record.resigned and match.won == won
    assert match.record.finished_at == finished


def test_a_finished_game_is_won_by_its_winner() -> None:
    for seed in range(6):
        match = play(Setup("base", seed, ("you", "random")))
        assert match.game.winner is not None
        assert match.won == (match.game.winner == match.learner)
        assert match.learner_out == (not match.won)


# ---------------------------------------------------------------------- the table
@pytest.mark.parametrize(("variant", "seed", "seats", "field", "words"), [
    ("base", 1, ("you",) + ("honest",) * 6, "seats", "2–6 players, not 7"),
    ("draft", 1, ("you", "honest", "rule"), "seats", "not 3"),
    ("base", 1, ("you",), "seats", "not 1"),
    ("base", 1, ("you", "you", "honest"), "seats", "exactly one seat 'you'"),
    ("base", 1, ("honest", "rule"), "seats", "exactly one seat 'you'"),
    ("base", 1, ("you", "grandmaster"), "seats", "unknown bot 'grandmaster'"),
    ("base", 1, ("you", "mixed"), "seats", "unknown bot 'mixed'"),
    ("base", -1, ("you", "honest"), "seed", "from 0 to"),
    ("base", MAX_SEED + 1, ("you", "honest"), "seed", str(MAX_SEED + 1)),
    ("chess", 1, ("you", "honest"), "variant", "unknown variant 'chess'"),
    ("base+pay5", 1, ("you", "honest"), "variant", "unknown house rule 'pay5'"),
    ("inquisitor+inheritance", 1, ("you", "honest"), "variant",
     "Inquisitor has no Ambassador"),
    ("base(challengers=every)", 1, ("you", "honest"), "variant",
     "the table rule 'challengers' cannot be 'every'"),
])
def test_a_table_the_rules_do_not_allow_is_refused_naming_the_field(
        variant: str, seed: int, seats: tuple[str, ...], field: str, words: str) -> None:
    with pytest.raises(SetupError) as e:
        Setup(variant, seed, seats)
    assert e.value.field == field
    assert str(e.value).startswith(f"{field}: ") and words in str(e.value)


def test_the_extreme_seeds_and_sizes_are_allowed() -> None:
    for seed in (0, MAX_SEED):
        assert Setup("base", seed, ("you", "honest")).seed == seed
    six = Setup("base", 0, ("rule", "you", "honest", "skeptic", "bluffer", "random"))
    assert six.players == 6 and six.learner == 1
    assert six.names == ["Ana", "You", "Ben", "Cris", "Dee", "Eli"]
    assert six.bot_seats() == [0, 2, 3, 4, 5]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_table_sizes_are_within_the_rule_set_and_six(variant: str) -> None:
    v = get_variant(variant)
    allowed = sizes(variant)
    assert allowed[0] == v.min_players and allowed[-1] == min(v.max_players, 6)
    for n in allowed:
        Setup(variant, 0, mixed_seats(n, n - 1, 0))


def test_a_mixed_table_is_fixed_by_the_seed_and_seats_bots_that_play_to_win() -> None:
    seats = mixed_seats(6, 2, 42)
    assert seats == mixed_seats(6, 2, 42)
    assert seats[2] == LEARNER and seats.count(LEARNER) == 1
    tables = {mixed_seats(6, 2, s) for s in range(20)}
    assert len(tables) > 1
    assert all("random" not in t for t in tables)


def tournament_row(key: str, players: int) -> dict[str, str]:
    with TOURNAMENT.open(encoding="utf-8") as f:
        return next(r for r in csv.DictReader(f) if r["persona"] == bot_title(key)
                    and r["players"] == str(players) and r["field"] == "mixture of the others")


@pytest.mark.parametrize("key", BOTS)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_bots_strength_is_the_tournaments_figure_at_a_measured_size(
        key: str, players: int) -> None:
    row = tournament_row(key, players)
    s = strength(key, players)
    assert s is not None and s.players == players
    assert (s.rate, s.low, s.high, s.games) == (float(row["win_rate"]), float(row["ci_low"]),
                                                float(row["ci_high"]), int(row["games"]))
    assert s.low <= s.rate <= s.high and s.fair == pytest.approx(1 / players)


def test_a_size_never_measured_takes_the_nearest_measured_one() -> None:
    five = strength("honest", 5)
    assert five is not None and five.players == 4  # 4 and 6 are as near: the smaller
    assert five.rate == float(tournament_row("honest", 4)["win_rate"])
    assert five.fair == pytest.approx(1 / 4)


def test_an_unmeasured_bot_has_no_strength() -> None:
    assert strength("grandmaster", 2) is None


def test_the_bots_are_listed_strongest_first_at_four_players() -> None:
    rates = [strength(k, 4).rate for k in BOTS]  # type: ignore[union-attr]
    assert rates == sorted(rates, reverse=True)


def test_the_learner_sees_their_own_hand() -> None:
    match = Match.start(Setup("base", 2, ("you", "honest", "rule")), "ann")
    obs = match.observation()
    assert obs.player == match.learner
    assert sorted(obs.hand) == sorted(match.game.hidden[match.learner])
    assert all(isinstance(c, Character) for c in obs.hand)


def test_the_learner_is_never_asked_to_choose_a_card_to_lose_with_nothing_to_choose() -> None:
    """Losing a last card (or one of two alike) is played for the learner and recorded;
    every loss the learner is asked about has two different cards to pick from."""
    asked = forced = 0
    for seed in range(12):
        match = Match.start(Setup("base", seed, ("you", "honest", "honest")), "ann")
        while not match.over:
            if match.bot_to_move:
                match.bot_move()
                continue
            legal = match.game.legal_moves()
            if match.game.phase is Phase.LOSE:
                asked += 1
                assert len({m.character for m in legal}) > 1, (seed, legal)
            match.play(random.Random(f"{seed}:{match.index}").choice(legal))
        seat = match.learner
        forced += sum(1 for e in match.game.log if e.kind == "lost"
                      and e.data.get("player") == seat and len(match.game.hidden[seat]) == 0)
    assert forced > 0  # some games took the learner's last card without asking
