"""The sentence that puts a decision to the learner (Quiz, Play, Rooms, Kiosk): every action
reads as a verb after "wants to" and "claims the ... to", as a noun after "blocks your", a
block names its blocker once, and the reader's own seat is "you" whether it is called "You"
(the Play page) or has a name of its own (a quiz item)."""

from __future__ import annotations

import pytest

from trainer.engine.cards import Action
from trainer.engine.explain import ACTION_NOUNS, ACTION_VERBS, action_noun, action_verb
from trainer.engine.game import Game, Phase
from trainer.engine.notation import parse
from trainer.play.assess import kind_of
from trainer.quiz.feedback import describe_pending

NAMED = ("Ana", "Ben", "Fay")  # a quiz item: every seat has a name
PLAY = ("You", "Ben", "Fay")  # the Play page: the learner's seat is called You
# Seat 0 acts first; three incomes give it the 3 coins an assassination costs.
RICH = ("P0:income", "P1:income", "P2:income")


def position(names: tuple[str, ...], moves: tuple[str, ...], phase: Phase | None = None,
             variant: str = "base") -> Game:
    """The game after `moves`, then passes until the decision is of `phase`."""
    game = Game.new(list(names), seed=0, variant=variant)
    for text in moves:
        game.apply(parse(text))
    while phase is not None and game.phase is not phase:
        game.apply(parse(f"P{game.decider}:pass"))
    return game


def line_for(game: Game, viewer: int) -> str:
    """The line as `viewer` reads it, when the decision is theirs."""
    assert game.decider == viewer, f"{game.names[game.decider]} decides, not {viewer}"
    kind = kind_of(game)
    assert kind is not None
    return describe_pending(game, viewer, kind)[0]


CASES = [
    # (names, moves, phase to pass to, viewer, the line)
    # Foreign aid: a block decision, no claim of the actor's.
    (NAMED, ("P0:foreign_aid",), None, 1, "Ana wants to take foreign aid."),
    (PLAY, ("P0:income", "P1:foreign_aid"), None, 2, "Ben wants to take foreign aid."),
    (PLAY, ("P0:income", "P1:income", "P2:foreign_aid"), None, 0,
     "Fay wants to take foreign aid."),
    # ... and the Duke's block of it, for the actor and for a third player.
    (NAMED, ("P0:foreign_aid", "P1:block/Duke"), None, 0,
     "Ben blocks your foreign aid with the Duke."),
    (NAMED, ("P0:foreign_aid", "P1:block/Duke", "P0:pass"), None, 2,
     "Ben blocks Ana's foreign aid with the Duke."),
    (PLAY, ("P0:foreign_aid", "P1:block/Duke"), None, 0,
     "Ben blocks your foreign aid with the Duke."),
    # Tax and exchange: claims to challenge.
    (NAMED, ("P0:tax",), None, 1, "Ana claims the Duke to take tax."),
    (PLAY, ("P0:income", "P1:tax"), None, 2, "Ben claims the Duke to take tax."),
    (PLAY, ("P0:income", "P1:tax"), Phase.CHALLENGE_ACTION, 2,
     "Ben claims the Duke to take tax."),
    (NAMED, ("P0:exchange",), None, 1, "Ana claims the Ambassador to exchange."),
    # Steal: the claim, the block decision, then the block to challenge.
    (NAMED, ("P0:steal>P1",), None, 1, "Ana claims the Captain to steal from you."),
    (NAMED, ("P0:steal>P1",), Phase.CHALLENGE_ACTION, 1,
     "Ana claims the Captain to steal from you."),
    (NAMED, ("P0:steal>P2",), None, 1, "Ana claims the Captain to steal from Fay."),
    (NAMED, ("P0:steal>P1",), Phase.BLOCK, 1, "Ana claims the Captain to steal from you."),
    (PLAY, ("P0:income", "P1:steal>P0"), Phase.BLOCK, 0,
     "Ben claims the Captain to steal from you."),
    (NAMED, ("P0:steal>P2", "P1:pass", "P2:pass", "P2:block/Ambassador"), None, 0,
     "Fay blocks your steal with the Ambassador."),
    (NAMED, ("P0:steal>P1", "P1:pass", "P2:pass", "P1:block/Captain", "P0:pass"), None, 2,
     "Ben blocks Ana's steal with the Captain."),
    (PLAY, ("P0:steal>P2", "P1:pass", "P2:pass", "P2:block/Ambassador"), None, 0,
     "Fay blocks your steal with the Ambassador."),
    (NAMED, ("P0:income", "P1:steal>P0", "P2:pass", "P0:pass", "P0:block/Captain"), None, 1,
     "Ana blocks your steal with the Captain."),
    # Assassinate: the claim, the block decision, the Contessa's block.
    (NAMED, (*RICH, "P0:assassinate>P1"), None, 1,
     "Ana claims the Assassin to assassinate you."),
    (NAMED, (*RICH, "P0:assassinate>P1"), Phase.BLOCK, 1,
     "Ana claims the Assassin to assassinate you."),
    (NAMED, (*RICH, "P0:assassinate>P2"), None, 1,
     "Ana claims the Assassin to assassinate Fay."),
    (NAMED, (*RICH, "P0:assassinate>P1", "P1:pass", "P2:pass", "P1:block/Contessa"), None, 0,
     "Ben blocks your assassination with the Contessa."),
    (NAMED, (*RICH, "P0:assassinate>P1", "P1:pass", "P2:pass", "P1:block/Contessa",
             "P0:pass"), None, 2,
     "Ben blocks Ana's assassination with the Contessa."),
    (PLAY, (*RICH, "P0:assassinate>P1", "P1:pass", "P2:pass", "P1:block/Contessa"), None, 0,
     "Ben blocks your assassination with the Contessa."),
]


@pytest.mark.parametrize("names, moves, phase, viewer, expected", CASES)
def test_a_decision_reads_as_a_sentence(names: tuple[str, ...], moves: tuple[str, ...],
                                        phase: Phase | None, viewer: int,
                                        expected: str) -> None:
    assert line_for(position(names, moves, phase), viewer) == expected


def test_the_inquisitors_examination_reads_in_both_vocabularies() -> None:
    game = position(NAMED, ("P0:examine>P1",), variant="inquisitor")
    assert line_for(game, 1) == "Ana claims the Inquisitor to examine you."
    game = position(NAMED, ("P0:examine>P2",), variant="inquisitor(vocabulary=treason)")
    assert line_for(game, 1) == "Ana claims the Inquisitor to interrogate Fay."


# Every action, as a verb and as a noun, without a target and with one.
WORDS = [
    (Action.INCOME, "take income", "take income", "income"),
    (Action.FOREIGN_AID, "take foreign aid", "take foreign aid", "foreign aid"),
    (Action.COUP, "launch a coup", "launch a coup against Ben", "coup"),
    (Action.TAX, "take tax", "take tax", "tax"),
    (Action.ASSASSINATE, "assassinate", "assassinate Ben", "assassination"),
    (Action.STEAL, "steal", "steal from Ben", "steal"),
    (Action.EXCHANGE, "exchange", "exchange", "exchange"),
]


@pytest.mark.parametrize("action, verb, aimed, noun", WORDS)
def test_each_of_the_seven_actions_has_a_verb_and_a_noun(action: Action, verb: str, aimed: str,
                                                         noun: str) -> None:
    game = Game.new(list(NAMED), seed=0)
    assert action_verb(game, action) == verb
    assert action_verb(game, action, "Ben") == aimed
    assert action_noun(game, action) == noun


def test_a_decision_the_engine_words_is_put_to_the_reader_as_theirs() -> None:
    game = Game.new(list(NAMED[:2]), seed=0, variant="draft")
    line, _ = describe_pending(game, game.decider, "other")
    assert line == "Choose one card of your draft set to keep."


def test_every_action_has_words() -> None:
    assert set(ACTION_VERBS) == set(Action) == set(ACTION_NOUNS)


def test_the_tables_status_line_reads_as_the_readers_own() -> None:
    from trainer.views.table_view import table_view

    game = Game.new(list(PLAY), seed=0)
    assert table_view(game.observation(0)).question == "Your turn: choose an action"
    game.apply(parse("P0:foreign_aid"))
    assert table_view(game.observation(0)).question == "Ben must block or pass"
    draft = Game.new(["You", "Ben"], seed=0, variant="draft")
    assert table_view(draft.observation(0)).question == (
        "You must choose one card of your draft set to keep")
