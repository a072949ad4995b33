"""Moves: the one type every decision in the game is answered with.

A move is an immutable tuple, cheap to create, hash and compare, and prints as a short phrase
with player numbers; `Game.describe` prints it with names.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple

from trainer.engine.cards import Action, Character


class MoveKind(StrEnum):
    ACT = "act"  # take an action on your turn
    CHALLENGE = "challenge"  # challenge the claim in the current challenge window
    PASS = "pass"  # decline to challenge or to block
    BLOCK = "block"  # block by claiming a character
    SHOW = "show"  # answer a challenge by showing the claimed character
    LOSE = "lose"  # turn a card face up (losing influence, or conceding a challenge)
    KEEP = "keep"  # after an exchange, the cards to keep (in a draft, the one card kept)
    CHOOSE = "choose"  # a named choice: an allegiance, or an Inquisitor's return or swap
    OFFER = "offer"  # show one card privately to an examining Inquisitor
    CLAIM = "claim"  # claim a character out of turn: Graverobber, or a Treaty override
    PAY = "pay"  # McGuire: pay coins instead of losing a card for a lost challenge

    __hash__ = str.__hash__


class Move(NamedTuple):
    kind: MoveKind
    player: int
    action: Action | None = None
    target: int | None = None
    character: Character | None = None
    cards: tuple[Character, ...] | None = None
    choice: str | None = None

    def __str__(self) -> str:
        return describe(self, lambda i: f"P{i}")

    # Constructors read like the rulebook.
    @staticmethod
    def act(player: int, action: Action, target: int | None = None) -> Move:
        return Move(MoveKind.ACT, player, action, target)

    @staticmethod
    def challenge(player: int) -> Move:
        return Move(MoveKind.CHALLENGE, player)

    @staticmethod
    def pass_(player: int) -> Move:
        return Move(MoveKind.PASS, player)

    @staticmethod
    def block(player: int, character: Character) -> Move:
        return Move(MoveKind.BLOCK, player, character=character)

    @staticmethod
    def show(player: int, character: Character) -> Move:
        return Move(MoveKind.SHOW, player, character=character)

    @staticmethod
    def lose(player: int, character: Character) -> Move:
        return Move(MoveKind.LOSE, player, character=character)

    @staticmethod
    def choose(player: int, choice: str) -> Move:
        return Move(MoveKind.CHOOSE, player, choice=str(choice))

    @staticmethod
    def offer(player: int, character: Character) -> Move:
        return Move(MoveKind.OFFER, player, character=character)

    @staticmethod
    def claim(player: int, character: Character) -> Move:
        return Move(MoveKind.CLAIM, player, character=character)

    @staticmethod
    def pay(player: int) -> Move:
        return Move(MoveKind.PAY, player)

    @staticmethod
    def keep(player: int, cards: tuple[Character, ...]) -> Move:
        return Move(MoveKind.KEEP, player, cards=tuple(sorted(cards)))


CLAIMS: dict[Action, Character] = {
    Action.TAX: Character.DUKE,
    Action.ASSASSINATE: Character.ASSASSIN,
    Action.STEAL: Character.CAPTAIN,
    Action.EXCHANGE: Character.AMBASSADOR,
}

CHOICE_TEXT: dict[str, str] = {
    "return": "hands the card back",
    "swap": "forces a swap with the Court deck",
}


def describe(
    move: Move, name: Callable[[int], str], claims: dict[Action, Character] | None = None
) -> str:
    """The move as a phrase, e.g. "Ely claims Duke: tax"; `name` maps a seat to a name."""
    who = name(move.player)
    k = move.kind
    if k is MoveKind.ACT and move.action is not None:
        claim = (claims or CLAIMS).get(move.action)
        label = move.action.label
        text = f"{who} claims {claim}: {label}" if claim else f"{who}: {label}"
        if move.target is not None:
            text += f" {name(move.target)}"
        return text
    if k is MoveKind.CHALLENGE:
        return f"{who} challenges"
    if k is MoveKind.PASS:
        return f"{who} passes"
    if k is MoveKind.BLOCK:
        return f"{who} blocks with {move.character}"
    if k is MoveKind.SHOW:
        if move.cards is not None:
            return f"{who} shows {' and '.join(move.cards)}"
        return f"{who} shows {move.character}"
    if k is MoveKind.OFFER:
        return f"{who} shows a card to the Inquisitor"
    if k is MoveKind.CLAIM:
        return f"{who} claims {move.character}"
    if k is MoveKind.PAY:
        return f"{who} pays instead of losing a card"
    if k is MoveKind.CHOOSE:
        choice = move.choice or ""
        return f"{who} {CHOICE_TEXT.get(choice, 'chooses ' + choice)}"
    if k is MoveKind.LOSE:
        return f"{who} loses {move.character}"
    return f"{who} keeps {' and '.join(move.cards or ())}"
