"""Building scripted positions for the rule tests in one line each."""

from __future__ import annotations

from collections import Counter

from trainer.cards import Action, Character
from trainer.chance import ScriptedChance
from trainer.game import Game
from trainer.moves import Move
from trainer.rules import BASE, Options, Variant, get_variant


def cards(text: str) -> list[Character]:
    return [Character.parse(w) for w in text.split()]


def cards_of(text: str) -> list[Character]:
    """Cards separated by commas, for names of more than one word ("Treaty Contessa, Duke")."""
    return [Character.parse(w) for w in text.split(",") if w.strip()]


def table(*seats: tuple[str, str, int], deck: str | None = None, first: int = 0,
          options: Options | None = None, draws: tuple[str, ...] = (),
          revealed: dict[int, str] | None = None, variant: Variant | str = BASE,
          allegiances: str | None = None, reserve: int = 0,
          mat: list[tuple[str, str | None]] | None = None, picks: tuple[int, ...] = (),
          treasury: int | None = None) -> Game:
    """Players as (name, "Card Card", coins); a hand with a comma is read card by card on
    commas. The deck is the rest of the court, in a fixed order, unless given top to bottom;
    `draws` scripts each random draw in turn."""
    v = get_variant(variant) if isinstance(variant, str) else variant

    def read(text: str) -> list[Character]:
        return cards_of(text) if "," in text else cards(text)

    names = [s[0] for s in seats]
    hands = [read(s[1]) for s in seats]
    shown = [read((revealed or {}).get(i, "")) for i in range(len(seats))]
    on_mat = [(e, Character.parse(c) if c else None) for e, c in (mat or [])]
    if deck is None:
        rest = Counter(v.court(len(seats)))
        for h in hands + shown + [[c for _, c in on_mat if c is not None]]:
            rest.subtract(h)
        pile = sorted(rest.elements())
    else:
        pile = read(deck)
    return Game(names=names, hands=hands, revealed=shown, coins=[s[2] for s in seats],
                deck=pile, first=first, options=options, variant=v,
                chance=ScriptedChance((read(d) for d in draws), picks),
                allegiances=allegiances.split() if allegiances else None, reserve=reserve,
                mat=on_mat or None, treasury=treasury)


def act(game: Game, action: str, target: int | None = None) -> None:
    game.apply(Move.act(game.decider, Action.parse(action), target))


def everyone_passes(game: Game) -> None:
    """Close the current challenge or block window with nobody acting."""
    window = game.phase
    while game.phase is window and not game.is_over:
        game.apply(Move.pass_(game.decider))


def kinds(game: Game) -> set[str]:
    return {str(m.kind) for m in game.legal_moves()}
