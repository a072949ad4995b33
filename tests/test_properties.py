"""Random legal play, for every player count: the invariants of the rules always hold."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.fuzz import Table, random_table
from trainer.engine.game import Game
from trainer.engine.invariants import check_invariants, play_random
from trainer.engine.moves import MoveKind
from trainer.engine.observation import observe
from trainer.engine.rules import Options, Variant
from trainer.engine.variants import BASE, VARIANTS

seeds = st.integers(min_value=0, max_value=2**32 - 1)
# Every table rule at any of its readings (read from Options itself, so a new one is covered).
option_sets = st.fixed_dictionaries(
    {name: st.sampled_from(list(info.choices)) for name, info in Options.info().items()}
).map(lambda chosen: Options().with_(**chosen))
# A variant and a player count it allows, drawn together.
tables = st.sampled_from(list(VARIANTS.values())).flatmap(
    lambda v: st.tuples(st.just(v), st.integers(v.min_players, v.max_players)))
# A rule set drawn as the mixed fuzz run draws them (house rules switched, table rules at
# random readings), at most six players so that a property test stays quick.
mixed_tables = seeds.map(lambda s: random_table(random.Random(s), most_players=6))


def played(players: int, seed: int, stop: int, variant: Variant = BASE,
           options: Options | None = None) -> Game:
    """A random game stopped after `stop` moves (or at its end)."""
    game = Game.new(players, seed=seed, variant=variant, options=options)
    choose = random.Random(seed).choice
    for _ in range(stop):
        if game.is_over:
            break
        game.apply(choose(game.legal_moves()))
    return game


PLAYER_COUNTS = [(v, k) for v in VARIANTS.values()
                 for k in range(v.min_players, v.max_players + 1)]


@pytest.mark.parametrize(("variant", "players"), PLAYER_COUNTS,
                         ids=[f"{v.name}-{k}p" for v, k in PLAYER_COUNTS])
@settings(max_examples=12, deadline=None)
@given(seed=seeds, options=option_sets)
def test_random_legal_play_keeps_every_invariant_and_ends(variant, players, seed, options):
    game = play_random(variant, players, seed, options=options)  # checks after every move
    assert game.is_over


@settings(max_examples=80, deadline=None)
@given(table=tables, seed=seeds, stop=st.integers(0, 400))
def test_an_observation_does_not_depend_on_anyone_elses_hidden_cards(table, seed, stop):
    variant, players = table
    game = played(players, seed, stop, variant)
    for p in range(players):
        before = observe(game, p).to_dict()
        other = game.clone()
        for q in range(players):
            if q != p:
                other.hidden[q] = ["SECRET"] * len(other.hidden[q])
                if other.offers:
                    other.offers[q] = ["SECRET"] * len(other.offers[q])
        other.deck = ["SECRET"] * len(other.deck)
        other.removed = ["SECRET"] * len(other.removed)
        other.mat_cards = {e: "SECRET" for e in other.mat_cards}
        other.log = [e if e.visible_to in (None, p) else e._replace(data={"secret": True})
                     for e in other.log]
        assert observe(other, p).to_dict() == before
        assert "SECRET" not in repr(before)


@settings(max_examples=60, deadline=None)
@given(table=tables, seed=seeds)
def test_a_game_replayed_from_its_log_reaches_the_same_position(table, seed):
    variant, players = table
    game = play_random(variant, players, seed, check=False)
    again = Game.replay(game.log)
    assert again.hidden == game.hidden and again.revealed == game.revealed
    assert again.coins == game.coins and again.winner == game.winner
    assert [e for e in again.log if e.kind != "setup"] == [
        e for e in game.log if e.kind != "setup"]


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 10), seed=seeds)
def test_every_losing_decision_offers_only_the_players_own_face_down_cards(players, seed):
    game = Game.new(players, seed=seed)
    choose = random.Random(seed).choice
    while not game.is_over:
        for m in game.legal_moves():
            if m.kind is MoveKind.LOSE:
                assert m.character in game.hidden[m.player]
        check_invariants(game)
        game.apply(choose(game.legal_moves()))


@settings(max_examples=50, deadline=None)
@given(table=tables, seed=seeds, stop=st.integers(0, 200))
def test_a_pickled_or_cloned_game_plays_on_exactly_like_the_original(table, seed, stop):
    variant, players = table
    game = played(players, seed, stop, variant)
    copies = [pickle.loads(pickle.dumps(game)), game.clone(), copy.deepcopy(game)]
    for other in copies:
        assert other.pending == game.pending and other.log == game.log
    rngs = [random.Random(seed + 1) for _ in range(len(copies) + 1)]
    while not game.is_over:
        game.apply(rngs[0].choice(game.legal_moves()))
        for other, rng in zip(copies, rngs[1:], strict=True):
            other.apply(rng.choice(other.legal_moves()))
    for other in copies:
        assert other.log == game.log and other.winner == game.winner


@settings(max_examples=120, deadline=None)
@given(table=mixed_tables, seed=seeds)
def test_random_play_under_switched_house_rules_and_table_rules_keeps_every_invariant(
        table: Table, seed: int) -> None:
    game = play_random(table.variant, table.players, seed, options=table.options)
    assert game.is_over


@settings(max_examples=80, deadline=None)
@given(table=mixed_tables, seed=seeds, stop=st.integers(0, 200))
def test_a_mixed_rule_set_game_clones_pickles_and_replays_exactly(table: Table, seed: int,
                                                                  stop: int) -> None:
    game = played(table.players, seed, stop, table.variant, table.options)
    replayed = Game.replay(game.log)
    assert replayed.position_key() == game.position_key()
    assert (replayed.variant, replayed.options) == (game.variant, game.options)
    copies = [pickle.loads(pickle.dumps(game)), game.clone()]
    for other in copies:
        assert other.pending == game.pending and other.position_key() == game.position_key()
    rngs = [random.Random(seed + 1) for _ in range(len(copies) + 1)]
    while not game.is_over:
        game.apply(rngs[0].choice(game.legal_moves()))
        for other, rng in zip(copies, rngs[1:], strict=False):
            other.apply(rng.choice(other.legal_moves()))
    for other in copies:
        assert other.log == game.log and other.winner == game.winner
