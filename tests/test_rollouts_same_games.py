"""Cheaper playouts play the same games: each shortcut of the rollouts' inner loop (a lone
legal move played without asking, sampling without `random.choices`, claimed cards counted by
hand, observations built slot by slot, what the observer knows read once per decision) gives
the moves, the random numbers and the option values the plain way gives."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections import Counter

import pytest

from trainer.engine.chance import RandomChance
from trainer.engine.game import Game, Phase
from trainer.engine.information import resample, resampler
from trainer.engine.moves import Move
from trainer.engine.observation import Observation, observe
from trainer.estimates.posterior import mixture
from trainer.estimates.report import DEFAULT_MODEL
from trainer.estimates.rollouts import Precision, play_out, values
from trainer.policies.personas import Persona, impossible, personas, sample

CAST = ("rule", "bluffer", "skeptic", "honest", "rule", "random")


def position(players: int, seed: int, moves: int) -> Game:
    """A base game after `moves` random legal moves."""
    game = Game.new(players, seed=seed)
    choose = random.Random(seed).choice
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(choose(game.legal_moves()))
    return game


def table(players: int) -> list[Persona]:
    every = personas()
    return [every[name] for name in CAST[:players]]


def asked_every_time(game: Game, seats: list[Persona], rng: random.Random) -> int | None:
    """The plain playout: every decision observed and put to its persona."""
    while not game.is_over:
        p = game.decider
        game.apply(seats[p].choose(observe(game, p, events=False), rng))
    return game.winner


@pytest.mark.parametrize("seed", range(6))
def test_sampling_draws_the_move_and_the_number_random_choices_draws(seed: int) -> None:
    rng = random.Random(seed)
    moves = position(4, seed, 0).legal_moves()  # a first turn: seven moves
    for size in (1, 2, 3, len(moves)):
        weights = [rng.choice((0.0, 0.1, 0.25, 1.0, 2.5)) for _ in range(size)]
        weights[-1] = weights[-1] or 1.0  # a distribution has some weight
        dist = dict(zip(moves[:size], weights, strict=True))
        ours, theirs = random.Random(seed * 10 + size), random.Random(seed * 10 + size)
        drawn = sample(dist, ours)
        assert drawn == theirs.choices(list(dist), weights=list(dist.values()))[0]
        assert ours.random() == theirs.random()  # the same numbers used up


@pytest.mark.parametrize(("players", "seed", "moves"),
                         [(3, 1, 0), (4, 2, 10), (5, 3, 25), (6, 4, 5)])
def test_a_playout_plays_the_game_its_personas_would_play_asked_at_every_move(
        players: int, seed: int, moves: int) -> None:
    start = position(players, seed, moves)
    for i in range(8):
        ours, plain = (start.clone(RandomChance(random.Random(i))) for _ in range(2))
        ours_rng, plain_rng = random.Random(i), random.Random(i)
        assert play_out(ours, table(players), ours_rng) == asked_every_time(
            plain, table(players), plain_rng)
        assert ours.log == plain.log
        assert ours_rng.random() == plain_rng.random()


def test_a_playout_watching_a_player_stops_when_that_player_is_out() -> None:
    start = position(5, 7, 0)
    stopped = 0
    for i in range(20):
        game = start.clone(RandomChance(random.Random(i)))
        won = play_out(game, table(5), random.Random(i), watch=0)
        if not game.is_over:
            stopped += 1
            assert won is None and not game.alive[0]
    assert stopped > 0


def observations(count: int) -> list[Observation]:
    """Observations of every seat along a few random games."""
    out = []
    for seed in range(count):
        game = position(4 + seed % 3, seed, 0)
        choose = random.Random(seed).choice
        while not game.is_over:
            out += [observe(game, p, events=seed % 2 == 0) for p in range(game.n)]
            game.apply(choose(game.legal_moves()))
    return out


def test_an_observation_is_the_record_its_fields_make() -> None:
    for obs in observations(4)[::7]:
        fields = {name: getattr(obs, name) for name in Observation.FIELDS}
        assert type(obs) is Observation
        assert obs == Observation(**fields)
        assert obs.seats == tuple(type(s)(*s.values()) for s in obs.seats)
        if obs.pending is not None:
            assert obs.pending == type(obs.pending)(*obs.pending.values())


def test_an_observation_differs_from_one_with_any_field_changed() -> None:
    seen = observations(3)
    obs = seen[3]
    checked = 0
    for name in Observation.FIELDS:
        value = getattr(obs, name)
        other_value = next((getattr(o, name) for o in seen if getattr(o, name) != value), None)
        if other_value is None:
            continue  # every observation of a base game leaves it empty (a variant's field)
        other = obs.replace(**{name: other_value})
        assert other != obs and (other == obs) is False, name
        assert getattr(other, name) == other_value
        checked += 1
    assert checked >= 10


def test_an_observation_pickles_and_copies_to_an_equal_one() -> None:
    for obs in observations(2)[::11]:
        assert pickle.loads(pickle.dumps(obs)) == obs
        assert copy.deepcopy(obs) == obs
        assert hash(obs.seats) == hash(pickle.loads(pickle.dumps(obs.seats)))


def test_an_observation_stays_frozen() -> None:
    obs = observations(1)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.turn = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.seats[0].coins = 9  # type: ignore[misc]
    with pytest.raises(AttributeError):
        obs.pending.actor = 2  # type: ignore[misc, union-attr]


def test_a_claim_is_impossible_exactly_when_every_copy_is_seen_elsewhere() -> None:
    checked = 0
    for obs in observations(6):
        d = obs.pending
        if d is None or d.phase is not Phase.CHALLENGE_ACTION or d.claim is None:
            continue
        court = Counter(c.role for c in obs.rule_set.court(len(obs.seats)))
        seen = Counter(c.role for c in obs.hand)
        for seat in obs.seats:
            seen.update(c.role for c in seat.revealed)
        expected = d.actor != obs.player and seen[d.claim.role] >= court[d.claim.role]
        assert impossible(obs, d.actor, d.claim) == expected
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("seed", range(4))
def test_a_resampler_deals_the_worlds_resample_deals(seed: int) -> None:
    game = position(5, seed, 12)
    deal = resampler(game, game.decider)
    for i in range(3):
        ours = deal(random.Random(i), None)
        theirs = resample(game, game.decider, random.Random(i))
        assert (ours.hidden, ours.deck, ours.removed) == (theirs.hidden, theirs.deck,
                                                           theirs.removed)
        assert ours.legal_moves() == theirs.legal_moves()


# Option values for fixed seeds, as the rollouts gave them before they were made cheaper
# (wins out of 24 playouts per option, in the options' order): the cheaper playouts must give
# these exactly, or they are no longer playing the same games.
BEFORE: dict[tuple[int, int, int], list[int]] = {
    (5, 11, 14): [8, 7, 1, 5, 5, 3, 5, 5],
    (3, 2, 3): [4, 5, 10, 7, 8, 6, 4, 5],
}


@pytest.mark.parametrize(("players", "seed", "moves"), list(BEFORE))
def test_option_values_for_fixed_seeds_are_those_the_earlier_playouts_gave(
        players: int, seed: int, moves: int) -> None:
    game = position(players, seed, moves)
    valuation = values(game, game.decider, None, mixture(DEFAULT_MODEL), Precision.fixed(24),
                       seed=seed)
    assert [round(o.win * o.n) for o in valuation.options] == BEFORE[(players, seed, moves)]
    assert all(isinstance(o.move, Move) and o.n == 24 for o in valuation.options)


def test_a_policy_whose_chances_add_up_to_zero_is_refused_by_name() -> None:
    moves = position(4, 1, 0).legal_moves()
    with pytest.raises(ValueError, match="policy's chances must add up to more than zero"):
        sample({moves[0]: 0.0, moves[1]: 0.0}, random.Random(1))


def test_an_observation_refuses_a_change_to_a_field_it_does_not_have() -> None:
    obs = observations(1)[0]
    with pytest.raises(TypeError, match="no field colour"):
        obs.replace(colour="red")
