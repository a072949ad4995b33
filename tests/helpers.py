"""Building scripted positions for the rule tests in one line each."""

from __future__ import annotations

from collections import Counter

from trainer.cards import Action, Character
from trainer.chance import ScriptedChance
from trainer.game import Game
from trainer.moves import Move
from trainer.rules import BASE, Options


def cards(text: str) -> list[Character]:
    return [Character.parse(w) for w in text.split()]


def table(*seats: tuple[str, str, int], deck: str | None = None, first: int = 0,
          options: Options | None = None, draws: tuple[str, ...] = (),
          revealed: dict[int, str] | None = None) -> Game:
    """Players as (name, "Card Card", coins). The deck is the rest of the court, in a fixed
    order, unless given top to bottom; `draws` scripts each random draw in turn."""
    names = [s[0] for s in seats]
    hands = [cards(s[1]) for s in seats]
    shown = [cards((revealed or {}).get(i, "")) for i in range(len(seats))]
    if deck is None:
        rest = Counter(BASE.court(len(seats)))
        for h in hands + shown:
            rest.subtract(h)
        pile = sorted(rest.elements())
    else:
        pile = cards(deck)
    return Game(names=names, hands=hands, revealed=shown, coins=[s[2] for s in seats],
                deck=pile, first=first, options=options,
                chance=ScriptedChance(cards(d) for d in draws))


def act(game: Game, action: str, target: int | None = None) -> None:
    game.apply(Move.act(game.decider, Action.parse(action), target))


def everyone_passes(game: Game) -> None:
    """Close the current challenge or block window with nobody acting."""
    window = game.phase
    while game.phase is window and not game.is_over:
        game.apply(Move.pass_(game.decider))


def kinds(game: Game) -> set[str]:
    return {str(m.kind) for m in game.legal_moves()}
