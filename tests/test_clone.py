"""A copy of a game is a twin: it draws exactly the numbers the original would, and from the
moment it is made, nothing done to one of them changes the other. For both kinds of chance the
engine makes (a seeded generator, a script) and every rule set."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.chance import Chance, RandomChance, ScriptedChance, copy_chance
from trainer.engine.game import Game, _restore
from trainer.engine.variants import VARIANTS
from trainer.estimates.rollouts import _copy_for_rollout

seeds = st.integers(min_value=0, max_value=2**32 - 1)
CHANCES = ("random", "scripted")


def _start(variant_name: str, players: int, seed: int, chance: str) -> Game:
    variant = VARIANTS[variant_name]
    game = Game.new(players, seed=seed, variant=variant)
    if chance == "scripted":  # the same deal, every later draw from the top (as perft plays)
        setup = next(e for e in game.log if e.kind == "setup")
        game = Game.from_snapshot(setup.data, ScriptedChance())
    return game


def _played(variant_name: str, players: int, seed: int, stop: int, chance: str) -> Game:
    game = _start(variant_name, players, seed, chance)
    choose = random.Random(seed).choice
    for _ in range(stop):
        if game.is_over:
            break
        game.apply(choose(game.legal_moves()))
    return game


def _chance_state(chance: Chance) -> Any:
    if isinstance(chance, RandomChance):
        return chance.rng.getstate()
    assert isinstance(chance, ScriptedChance)
    return [list(d) for d in chance.queue], list(chance.picks)


def _everything(game: Game) -> tuple[Any, ...]:
    """All a game holds, its random stream included."""
    return game.position_key(), game.log, game.turn, _chance_state(game.chance)


def _play_to_end(game: Game, seed: int) -> list[Any]:
    choose = random.Random(seed).choice
    while not game.is_over:
        game.apply(choose(game.legal_moves()))
    return game.log


def _fields(game: Game) -> dict[str, Any]:
    state = game._state()
    del state["chance"]
    return state


@pytest.mark.parametrize("chance", CHANCES)
@pytest.mark.parametrize("variant_name", sorted(VARIANTS))
@settings(max_examples=15, deadline=None)
@given(seed=seeds, stop=st.integers(0, 120), moves=seeds)
def test_a_clone_plays_on_with_the_same_draws_as_the_original(variant_name: str, chance: str,
                                                              seed: int, stop: int,
                                                              moves: int) -> None:
    variant = VARIANTS[variant_name]
    players = random.Random(seed).randint(variant.min_players, variant.max_players)
    game = _played(variant_name, players, seed, stop, chance)
    twin = game.clone()
    assert _everything(twin) == _everything(game)
    assert _play_to_end(twin, moves) == _play_to_end(game, moves)
    assert _chance_state(twin.chance) == _chance_state(game.chance)


@pytest.mark.parametrize("chance", CHANCES)
@pytest.mark.parametrize("variant_name", sorted(VARIANTS))
@settings(max_examples=15, deadline=None)
@given(seed=seeds, stop=st.integers(0, 120), moves=seeds)
def test_advancing_a_clone_or_its_original_never_changes_the_other(variant_name: str,
                                                                   chance: str, seed: int,
                                                                   stop: int,
                                                                   moves: int) -> None:
    variant = VARIANTS[variant_name]
    players = random.Random(seed).randint(variant.min_players, variant.max_players)
    game = _played(variant_name, players, seed, stop, chance)
    twin = game.clone()
    before = _everything(game)
    _play_to_end(twin, moves)
    assert _everything(game) == before
    after = _everything(twin)
    _play_to_end(game, moves + 1)
    assert _everything(twin) == after


@pytest.mark.parametrize("variant_name", sorted(VARIANTS))
@settings(max_examples=15, deadline=None)
@given(seed=seeds, stop=st.integers(0, 120))
def test_a_clone_is_the_game_that_pickling_rebuilds(variant_name: str, seed: int,
                                                    stop: int) -> None:
    variant = VARIANTS[variant_name]
    players = random.Random(seed).randint(variant.min_players, variant.max_players)
    game = _played(variant_name, players, seed, stop, "random")
    rebuilt = _restore(game._state())
    assert _fields(game.clone()) == _fields(rebuilt) == _fields(game)
    assert _fields(pickle.loads(pickle.dumps(game))) == _fields(game)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, used=st.integers(0, 50), draws=st.lists(st.integers(1, 9), max_size=20))
def test_a_copied_generator_draws_the_same_numbers_and_stays_apart(seed: int, used: int,
                                                                   draws: list[int]) -> None:
    original = RandomChance(seed)
    for _ in range(used):
        original.pick(7)
    twin = copy_chance(original)
    assert isinstance(twin, RandomChance) and twin.rng is not original.rng
    before = original.rng.getstate()
    deck = [f"card{i}" for i in range(12)]
    ours = [twin.pick(n) for n in draws] + [twin.draw(list(deck), 3)]
    assert original.rng.getstate() == before
    theirs = [original.pick(n) for n in draws] + [original.draw(list(deck), 3)]
    assert ours == theirs
    assert twin.rng.random() == original.rng.random()


def test_a_copied_script_serves_the_same_draws_and_picks_on_its_own() -> None:
    original = ScriptedChance(draws=[["Duke"], ["Captain", "Contessa"]], picks=[2, 0])
    twin = copy_chance(original)
    assert isinstance(twin, ScriptedChance)
    deck = ["Duke", "Captain", "Contessa", "Assassin"]
    ours = (twin.draw(list(deck), 1), twin.draw(list(deck), 2), twin.pick(3), twin.pick(3))
    assert [list(d) for d in original.queue] == [["Duke"], ["Captain", "Contessa"]]
    assert list(original.picks) == [2, 0]
    theirs = (original.draw(list(deck), 1), original.draw(list(deck), 2), original.pick(3),
              original.pick(3))
    assert ours == theirs == (["Duke"], ["Captain", "Contessa"], 2, 0)


class _Counting(RandomChance):
    """A kind of chance the engine does not know, with a field of its own."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def pick(self, n: int) -> int:
        self.calls += 1
        return super().pick(n)


def test_another_kind_of_chance_is_copied_whole_as_its_own_kind() -> None:
    original = _Counting(3)
    original.pick(5)
    twin = copy_chance(original)
    assert type(twin) is _Counting and twin.calls == 1 and twin.rng is not original.rng
    assert twin.pick(100) == original.pick(100)


def test_a_clone_given_its_own_chance_draws_from_it_and_leaves_the_original_alone() -> None:
    game = _played("base", 4, 11, 10, "random")
    before = _everything(game)
    given = RandomChance(99)
    twin = game.clone(given)
    assert twin.chance is given
    _play_to_end(twin, 5)
    assert _everything(game) == before


def test_a_rollout_copy_draws_from_its_seed_not_from_the_world() -> None:
    world = _played("base", 4, 12, 6, "random")
    before = _everything(world)
    a, b = _copy_for_rollout(world, 0.25), _copy_for_rollout(world, 0.25)
    assert isinstance(a.chance, RandomChance)
    assert a.chance.rng.getstate() == random.Random(0.25).getstate()
    assert _play_to_end(a, 3) == _play_to_end(b, 3)
    assert _everything(world) == before
