"""The move notation reads back exactly what it wrote, for every move of every variant, and
refuses malformed text by saying what it expected; observation strings hold no one else's
secrets."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import act, table
from trainer.engine.cards import Action, Character
from trainer.engine.errors import AmbiguousMoveError
from trainer.engine.game import Game
from trainer.engine.moves import Move, MoveKind
from trainer.engine.notation import (
    NotationError,
    complete,
    information_string,
    move_text,
    moves_text,
    parse,
    parse_moves,
    public_string,
)
from trainer.engine.variants import VARIANTS

EXAMPLES = [
    (Move.act(1, Action.INCOME), "P1:income"),
    (Move.act(0, Action.FOREIGN_AID), "P0:foreign_aid"),
    (Move.act(0, Action.STEAL, 2), "P0:steal>P2"),
    (Move.act(3, Action.COUP, 11), "P3:coup>P11"),
    (Move.act(2, Action.CONVERT), "P2:convert"),
    (Move.act(2, Action.CONVERT, 0), "P2:convert>P0"),
    (Move.act(1, Action.EMBEZZLE), "P1:embezzle"),
    (Move.act(1, Action.VENGEANCE, 0), "P1:vengeance>P0"),
    (Move.block(2, Character.CAPTAIN), "P2:block/Captain"),
    (Move.challenge(3), "P3:challenge"),
    (Move.pass_(1), "P1:pass"),
    (Move.lose(0, Character.DUKE), "P0:lose/Duke"),
    (Move.lose(0, Character.TREATY), "P0:lose/Treaty Contessa"),
    (Move.show(0, Character.DUKE), "P0:show/Duke"),
    (Move(MoveKind.SHOW, 0, cards=(Character.AMBASSADOR, Character.CONTESSA)),
     "P0:showhand/Ambassador+Contessa"),
    (Move(MoveKind.SHOW, 0, cards=(Character.CONTESSA,)), "P0:showhand/Contessa"),
    (Move.keep(0, (Character.DUKE, Character.AMBASSADOR)), "P0:keep/Ambassador+Duke"),
    (Move.keep(1, (Character.VENGEANCE,)), "P1:keep/Vengeance Assassin"),
    (Move.choose(1, "swap"), "P1:choose/swap"),
    (Move.choose(0, "Loyalist"), "P0:choose/Loyalist"),
    (Move.offer(1, Character.CONTESSA), "P1:offer/Contessa"),
    (Move.claim(2, Character.GRAVEROBBER), "P2:claim/Graverobber"),
    (Move.claim(0, Character.TREATY), "P0:claim/Treaty Contessa"),
    (Move.pay(0), "P0:pay"),
]


@pytest.mark.parametrize(("move", "text"), EXAMPLES, ids=[t for _, t in EXAMPLES])
def test_each_kind_of_move_has_one_short_spelling(move, text):
    assert move_text(move) == text
    assert parse(text) == move


def test_the_examples_cover_every_kind_and_every_action():
    assert {m.kind for m, _ in EXAMPLES} == set(MoveKind)
    assert {m.action for m, _ in EXAMPLES if m.action} | {
        Action.TAX, Action.ASSASSINATE, Action.EXCHANGE, Action.EXAMINE, Action.PEEK,
    } == set(Action)


# A variant and a player count it allows (at most six: longer games add nothing here).
tables_ = st.sampled_from(list(VARIANTS.values())).flatmap(
    lambda v: st.tuples(st.just(v), st.integers(v.min_players, min(v.max_players, 6))))


@settings(max_examples=60, deadline=None)
@given(setup=tables_, seed=st.integers(0, 2**32 - 1))
def test_every_legal_move_of_a_random_game_reads_back_as_itself(setup, seed):
    variant, players = setup
    game = Game.new(players, seed=seed, variant=variant)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_moves()
        texts = [move_text(m) for m in legal]
        assert [parse(t) for t in texts] == list(legal)
        assert len(set(texts)) == len(texts)  # distinct moves, distinct texts
        assert parse_moves(moves_text(legal)) == list(legal)
        game.apply(rng.choice(legal))


cards = st.sampled_from(list(Character))
seats = st.integers(0, 12)
any_move = st.one_of(
    st.builds(Move.act, seats, st.sampled_from(list(Action)), st.none() | seats),
    st.builds(Move.challenge, seats), st.builds(Move.pass_, seats),
    st.builds(Move.pay, seats),
    st.builds(Move.block, seats, cards), st.builds(Move.show, seats, cards),
    st.builds(Move.lose, seats, cards), st.builds(Move.offer, seats, cards),
    st.builds(Move.claim, seats, cards),
    st.builds(lambda p, c: Move(MoveKind.SHOW, p, cards=tuple(c)), seats,
              st.lists(cards, min_size=1, max_size=3)),
    st.builds(lambda p, c: Move(MoveKind.KEEP, p, cards=tuple(c)), seats,
              st.lists(cards, min_size=1, max_size=4)),
    st.builds(Move.choose, seats, st.from_regex(r"[A-Za-z0-9_-]+( [A-Za-z0-9_-]+)?",
                                                fullmatch=True)),
)


@settings(max_examples=300, deadline=None)
@given(move=any_move)
def test_any_move_of_any_field_values_reads_back_exactly(move):
    assert parse(move_text(move)) == move


@pytest.mark.parametrize(("text", "expected"), [
    ("income", "a seat and a move separated by ':'"),
    ("1:income", "a seat like P0 before ':'"),
    ("P01:income", "a seat like P0 before ':'"),
    ("p1:income", "a seat like P0 before ':'"),
    ("P1:", "an action (income, foreign_aid"),
    ("P1:fly", "an action (income, foreign_aid"),
    ("P1:Income", "an action (income, foreign_aid"),
    ("P1:steal>", "a target seat like P2 after '>'"),
    ("P1:steal>2", "a target seat like P2 after '>'"),
    ("P2:block", "'/' and what to block after 'block'"),
    ("P2:block/", "a card name (Duke, Assassin"),
    ("P2:block/captain", "not 'captain'"),
    ("P0:keep/Duke+", "a card name"),
    ("P0:keep/Duke,Captain", "a card name"),
    ("P1:choose/", "a choice after 'choose/'"),
    ("P1:challenge/Duke", "one of block, show, lose, offer, claim, showhand, keep or choose"),
    ("P1:tax/Duke", "before '/'"),
])
def test_malformed_text_is_a_value_error_naming_what_was_expected(text, expected):
    with pytest.raises(ValueError, match="expected") as info:
        parse(text)
    assert expected in str(info.value)
    assert isinstance(info.value, NotationError) and info.value.text == text


@pytest.mark.parametrize("move", [
    Move(MoveKind.CHALLENGE, 0, character=Character.DUKE),
    Move(MoveKind.ACT, 0),
    Move(MoveKind.BLOCK, 1),
    Move(MoveKind.KEEP, 1, cards=()),
    Move(MoveKind.CHOOSE, 1, choice="a/b"),
    Move(MoveKind.ACT, -1, Action.INCOME),
])
def test_a_move_the_notation_could_not_read_back_is_refused_not_written(move):
    with pytest.raises(NotationError):
        move_text(move)


def test_the_observation_string_of_a_scripted_position():
    game = table(("Maria", "Duke Captain", 3), ("Cris", "Contessa Assassin", 1),
                 deck="Ambassador Duke Captain Assassin Contessa Ambassador Duke Captain "
                      "Assassin Contessa Ambassador")
    game.apply(parse("P0:tax"))
    assert information_string(game.observation(1)) == (
        "turn 1 actor P0 | P0 3c 2h | P1 1c 2h | treasury 46 deck 11 | "
        "P1 to challenge_action action tax claim Duke\n"
        "P1 hand Contessa+Assassin")
    game.apply(parse("P1:challenge"))
    game.apply(parse("P0:show/Duke"))
    assert information_string(game.observation(0)) == (
        "turn 1 actor P0 | P0 3c 2h | P1 1c 2h | treasury 46 deck 11 | "
        "P1 to lose_influence action tax claim Duke challenger P1 (lost a challenge)\n"
        "P0 hand Captain+Ambassador | seen draw Ambassador (replacement)")


@settings(max_examples=40, deadline=None)
@given(setup=tables_, seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 40))
def test_the_table_is_the_same_for_everyone_and_no_string_holds_anothers_secret(
        setup, seed, stop):
    variant, players = setup
    game = Game.new(players, seed=seed, variant=variant)
    rng = random.Random(seed)
    for _ in range(stop):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_moves()))
    assert len({public_string(game.observation(p)) for p in range(players)}) == 1
    decoy = Character.GRAVEROBBER  # any card: what matters is that p sees no change
    for p in range(players):
        before = information_string(game.observation(p))
        other = game.clone()
        for q in range(players):
            if q != p:
                other.hidden[q] = [decoy] * len(other.hidden[q])
                if other.offers:
                    other.offers[q] = [decoy] * len(other.offers[q])
        other.deck = [decoy] * len(other.deck)
        other.log = [e if e.visible_to in (None, p) else e._replace(data={"secret": True})
                     for e in other.log]
        assert information_string(other.observation(p)) == before
        assert before.splitlines()[1].startswith(f"P{p} hand ")



def test_a_move_without_its_card_is_completed_when_only_one_card_fits():
    game = table(("Ana", "Captain Captain", 2), ("Ben", "Duke Contessa", 2))
    act(game, "tax")  # Ana bluffs the Duke
    game.apply(Move.challenge(1))
    assert complete(game, Move(MoveKind.LOSE, 0)) == Move.lose(0, Character.CAPTAIN)


def test_a_move_without_its_card_that_several_cards_fit_is_ambiguous():
    game = table(("Ana", "Captain Contessa", 2), ("Ben", "Duke Contessa", 2))
    act(game, "tax")
    game.apply(Move.challenge(1))
    with pytest.raises(AmbiguousMoveError, match="say which card: Ana could lose Captain or "
                                                 "Contessa") as info:
        complete(game, Move(MoveKind.LOSE, 0))
    assert isinstance(info.value, ValueError)
    assert info.value.candidates == (Move.lose(0, Character.CAPTAIN),
                                     Move.lose(0, Character.CONTESSA))
    assert (info.value.field, info.value.phase) == ("character", "prove_action")
