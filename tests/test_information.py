"""What a player can see, and what it cannot: the engine's moves for a hand it cannot see and its
resampled worlds (OpenSpiel's resample_from_infostate) agree with the real game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.information import known_cards, resample
from trainer.engine.invariants import check_invariants
from trainer.engine.observation import observe
from trainer.engine.variants import VARIANTS, get_variant

seeds = st.integers(min_value=0, max_value=2**32 - 1)
tables = st.sampled_from(list(VARIANTS.values())).flatmap(
    lambda v: st.tuples(st.just(v), st.integers(v.min_players, min(v.max_players, 6))))
# Decisions whose moves depend on cards the decider alone has seen, not on a hand.
PRIVATE_CHOICES = (Phase.EXCHANGE, Phase.DRAFT)


def random_positions(variant, players, seed):
    """Every position of one random game, the game left at its end."""
    game = Game.new(players, seed=seed, variant=variant)
    rng = random.Random(seed)
    while not game.is_over:
        yield game
        game.apply(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_the_moves_for_the_hand_really_held_are_the_legal_moves(variant):
    for seed in range(12):
        players = variant.min_players + seed % (min(variant.max_players, 6)
                                                - variant.min_players + 1)
        for game in random_positions(variant, players, seed):
            if game.phase in PRIVATE_CHOICES:
                continue
            decider = game.decider
            watcher = (decider + 1) % game.n
            obs = game.observation(watcher)
            assert set(obs.legal_moves_for(game.hidden[decider])) == set(game.legal_moves()), (
                f"{variant.name} seed {seed} turn {game.turn} {game.phase}")


def test_the_moves_for_a_hand_change_with_the_hand():
    game = Game.new(["Ana", "Ben", "Cat"], seed=3)
    game.apply(next(m for m in game.legal_moves() if m.action == "tax"))
    game.apply(next(m for m in game.legal_moves() if m.kind == "challenge"))
    obs = game.observation(2)
    duke = obs.legal_moves_for((Character.DUKE, Character.CONTESSA))
    none = obs.legal_moves_for((Character.CAPTAIN, Character.CONTESSA))
    assert [m.kind for m in duke] == ["show", "lose", "lose"]
    assert [m.kind for m in none] == ["lose", "lose"]


def test_an_exchange_choice_is_not_answered_for_a_hand():
    game = Game.new(["Ana", "Ben"], seed=1)
    game.apply(next(m for m in game.legal_moves() if m.action == "exchange"))
    game.apply(next(m for m in game.legal_moves() if m.kind == "pass"))
    assert game.phase is Phase.EXCHANGE
    with pytest.raises(ValueError, match="only the player has seen"):
        game.observation(1).legal_moves_for(game.hidden[0])


@settings(max_examples=150, deadline=None)
@given(table=tables, seed=seeds, stop=st.integers(0, 80), pick=st.integers(0, 9))
def test_a_resampled_game_looks_the_same_to_its_observer_and_plays_on(table, seed, stop, pick):
    variant, players = table
    game = Game.new(players, seed=seed, variant=variant)
    rng = random.Random(seed)
    for _ in range(stop):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_moves()))
    observer = pick % players
    world = resample(game, observer, random.Random(seed + 1))
    assert observe(world, observer) == observe(game, observer)
    check_invariants(world)
    while not world.is_over:  # the world is a real game: every rule holds to its end
        world.apply(rng.choice(world.legal_moves()))
        check_invariants(world)


def test_resampling_keeps_what_the_observer_knows_and_deals_the_rest_again():
    game = Game.new(4, seed=7)
    seen = {tuple(sorted(resample(game, 0, random.Random(i)).hidden[1])) for i in range(40)}
    assert len(seen) > 5
    for i in range(40):
        world = resample(game, 0, random.Random(i))
        assert world.hidden[0] == game.hidden[0]
        assert sorted(world.deck + [c for h in world.hidden for c in h]) == sorted(
            game.deck + [c for h in game.hidden for c in h])


def test_resampling_deals_the_hands_it_is_given():
    game = Game.new(3, seed=2)
    unseen = known_cards(game.observation(0)).unseen
    pick = sorted(unseen.elements())
    hands = {1: pick[:2], 2: pick[-2:]}
    world = resample(game, 0, random.Random(0), hands)
    assert (world.hidden[1], world.hidden[2]) == (pick[:2], pick[-2:])


def test_hands_that_use_a_card_the_observer_sees_are_refused():
    game = Game.new(3, seed=2)
    mine = game.hidden[0][0]
    with pytest.raises(ValueError, match="can see elsewhere"):
        resample(game, 0, random.Random(0), {1: [mine, mine], 2: [mine, mine]})


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_every_position_of_a_game_resamples_for_every_player(variant):
    phases = set()
    for seed in range(4):
        players = min(variant.max_players, 3 + seed % 2)
        for game in random_positions(variant, players, seed):
            phases.add(game.phase)
            for observer in range(game.n):
                world = resample(game, observer, random.Random(seed))
                assert observe(world, observer) == observe(game, observer)
                check_invariants(world)
                world.apply(random.Random(seed).choice(world.legal_moves()))
    assert Phase.CHALLENGE_ACTION in phases


def test_cards_returned_to_the_deck_may_be_in_an_exchange_in_progress():
    # McGuire, six players: seat 3 put an Assassin and a Contessa back in a deck of two;
    # seat 5 then exchanged and holds them among its drawn cards. Seat 3 must not count
    # them as still in the (now empty) deck.
    game = Game.new(6, seed=50, variant=VARIANTS["mcguire"])
    rng = random.Random(50)
    for _ in range(50):
        game.apply(rng.choice(game.legal_moves()))
    assert game.phase is Phase.EXCHANGE and game.decider == 5 and not game.deck
    assert known_cards(game.observation(3)).known_in_deck == ()
    world = resample(game, 3, random.Random(51))
    assert observe(world, 3) == observe(game, 3)
    check_invariants(world)


def test_a_position_reached_two_ways_has_one_key():
    # Two Incomes each, or a fresh deal at three coins each: the same position, turn aside.
    hands = [[Character.DUKE, Character.CAPTAIN], [Character.CONTESSA, Character.ASSASSIN]]
    deck = [c for c in Character.__members__.values() if c in VARIANTS["base"].characters
            for _ in range(3)]
    for card in hands[0] + hands[1]:
        deck.remove(card)
    dealt = dict(names=["Ana", "Ben"], hands=hands, deck=deck)
    played = Game(coins=[1, 1], **dealt)
    for _ in range(4):
        played.apply(next(m for m in played.legal_moves() if m.action is not None
                          and m.action.value == "income"))
    fresh = Game(coins=[3, 3], **dealt)
    assert played.turn != fresh.turn
    assert played.position_key() == fresh.position_key()
    hash(played.position_key())


def test_positions_that_play_on_differently_have_different_keys():
    game = Game.new(3, seed=4)
    key = game.position_key()
    game.apply(game.legal_moves()[0])
    assert game.position_key() != key
    other = Game.new(3, seed=5)
    assert other.position_key() != Game.new(3, seed=4).position_key()


def test_a_card_i_draw_may_be_one_i_knew_was_in_the_deck():
    # Two-player draft, seed 10611: player 0 returns two Ambassadors in an exchange, later
    # proves a Captain and draws an Ambassador as its replacement: one of the two it knew
    # were in the deck, since the third is face up.
    game = Game.new(2, seed=10611, variant=get_variant("draft"))
    rng = random.Random(10611)
    for _ in range(17):
        game.apply(rng.choice(game.legal_moves()))
    assert game.hidden[0] == [Character.AMBASSADOR]
    known = known_cards(observe(game, 0))
    assert known.known_in_deck == (Character.AMBASSADOR,)
    world = resample(game, 0, random.Random(10612))
    assert observe(world, 0) == observe(game, 0)


def test_a_card_i_was_shown_is_no_longer_known_after_its_holder_exchanges():
    """Inquisitor, four players: player 3 examines player 2's Captain and hands it back;
    player 2 then exchanges (the Captain may go back to the deck) and is assassinated. A
    resampled world must not keep the Captain in player 2's hand."""
    game = Game.new(4, seed=239, variant=get_variant("inquisitor"))
    rng = random.Random(239)
    for _ in range(60):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_moves()))
    assert known_cards(game.observation(3)).known_in_hand == {}
    world = resample(game, 3, random.Random(240))
    assert observe(world, 3) == observe(game, 3)


def test_a_card_i_was_shown_is_no_longer_known_after_another_player_forces_a_swap():
    """Inquisitor, three players: player 0 examines player 2's Assassin and hands it back;
    player 2 loses its other card, then player 1 examines player 2 and forces a swap (the
    Assassin goes back to the deck, player 2 draws anew). Player 0 must not go on counting the
    Assassin in player 2's hand, or a resampled world is one card short in the deck."""
    game = Game.new(3, seed=1144, variant=get_variant("inquisitor"))
    rng = random.Random(1144)
    swapped = False
    while not swapped:
        move = rng.choice(game.legal_moves())
        game.apply(move)
        swapped = move.choice == "swap" and move.player == 1
    assert known_cards(game.observation(0)).known_in_hand == {}
    world = resample(game, 0, random.Random(1145))
    assert observe(world, 0) == observe(game, 0)
