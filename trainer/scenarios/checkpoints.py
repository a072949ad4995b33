"""Checkpoints: what a scenario says the table looks like at a step, compared with the game.

Each difference is reported with its place in the checkpoint, so the error points at the very
line of the file that is wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from trainer.engine.cards import Action, Character
from trainer.engine.explain import PHASE_QUESTION
from trainer.engine.game import Game, Phase
from trainer.engine.moves import MoveKind
from trainer.scenarios.schema import Checkpoint
from trainer.scenarios.yaml_lines import Loc


def checkpoint_failures(g: Game, cp: Checkpoint) -> list[tuple[Loc, str]]:
    """Every way the game differs from the checkpoint, as (location in the checkpoint, text)."""
    out: list[tuple[Loc, str]] = []
    seat = {n.lower(): i for i, n in enumerate(g.names)}

    def who(name: str) -> tuple[int, str]:
        s = seat[name.strip().lower()]
        return s, g.names[s]

    for name, expected in (cp.coins or {}).items():
        s, n = who(name)
        if g.coins[s] != expected:
            out.append((("coins", name), f"{n} coins expected {expected}, found {g.coins[s]}"))
    for name, expected in (cp.influence or {}).items():
        s, n = who(name)
        if len(g.hidden[s]) != expected:
            out.append((("influence", name), f"{n} influence expected {expected}, "
                                             f"found {len(g.hidden[s])}"))
    for key, pile, label in (("hidden", g.hidden, "face-down cards"),
                             ("revealed", g.revealed, "face-up cards")):
        for name, expected in (getattr(cp, key) or {}).items():
            s, n = who(name)
            if Counter(pile[s]) != Counter(expected):
                out.append(((key, name), f"{n} {label} expected {cards_text(expected)}, "
                                         f"found {cards_text(pile[s])}"))
    if cp.face_up is not None:
        table = [c for r in g.revealed for c in r]
        if Counter(table) != Counter(cp.face_up):
            out.append((("face_up",), f"face-up cards on the table expected "
                                      f"{cards_text(cp.face_up)}, found {cards_text(table)}"))
    if cp.alive is not None:
        expected_seats = sorted(who(n)[0] for n in cp.alive)
        if expected_seats != g.living():
            out.append((("alive",), "players in the game expected "
                        f"{_names(g, expected_seats)}, found {_names(g, g.living())}"))
    if cp.treasury is not None and g.treasury != cp.treasury:
        out.append((("treasury",), f"treasury expected {cp.treasury}, found {g.treasury}"))
    if cp.deck_size is not None and len(g.deck) != cp.deck_size:
        out.append((("deck_size",), f"deck size expected {cp.deck_size}, found {len(g.deck)}"))
    if cp.deck is not None and Counter(g.deck) != Counter(cp.deck):
        missing = Counter(cp.deck) - Counter(g.deck)
        extra = Counter(g.deck) - Counter(cp.deck)
        detail = "; ".join(p for p in (
            f"missing {count_text(missing)}" if missing else "",
            f"not expected {count_text(extra)}" if extra else "") if p)
        out.append((("deck",), f"deck expected {cards_text(cp.deck)}, found {cards_text(g.deck)} "
                               f"({detail})"))
    if cp.next is not None:
        s, n = who(cp.next.player)
        if g.is_over:
            result = "a tie" if g.winner is None else f"{g.names[g.winner]} won"
            out.append((("next",), f"next decision expected {n}'s, but the game is over "
                                   f"({result})"))
        elif g.decider != s:
            out.append((("next",), f"next decision expected {n}'s, found "
                                   f"{g.names[g.decider]}'s ({PHASE_QUESTION[g.phase]})"))
        elif cp.next.phase is not None and cp.next.phase is not g.phase:
            out.append((("next",), f"{n}'s next decision expected phase {cp.next.phase} "
                                   f"({PHASE_QUESTION[cp.next.phase]}), found {g.phase} "
                                   f"({PHASE_QUESTION[g.phase]})"))
    if cp.legal_actions is not None:
        if g.is_over or g.phase is not Phase.ACTION:
            busy = "the game is over" if g.is_over else \
                f"{g.names[g.decider]} must {PHASE_QUESTION[g.phase]}"
            out.append((("legal_actions",), f"legal actions can be checked only when a player "
                                             f"chooses an action; now {busy}"))
        else:
            legal = {m.action for m in g.legal_moves()
                     if m.kind is MoveKind.ACT and m.action is not None}
            if legal != set(cp.legal_actions):
                out.append((("legal_actions",), f"legal actions for {g.names[g.decider]} "
                                                f"expected {_actions_text(cp.legal_actions)}, "
                                                f"found {_actions_text(legal)}"))
    if cp.winner is not None:
        s, n = who(cp.winner)
        if not g.is_over:
            out.append((("winner",), f"winner expected {n}, but the game is not over "
                                     f"({g.names[g.decider]} must {PHASE_QUESTION[g.phase]})"))
        elif g.winner != s:
            found = "a tie" if g.winner is None else g.names[g.winner]
            out.append((("winner",), f"winner expected {n}, found {found}"))
    if cp.tie is not None and cp.tie != g.is_tie:
        out.append((("tie",), "a tie expected" if cp.tie else "no tie expected"))
    for name, side in (cp.allegiances or {}).items():
        s, n = who(name)
        found_side = g.sides[s] if g.sides else None
        if found_side != side:
            out.append((("allegiances", name), f"{n} allegiance expected {side}, found "
                                               f"{found_side or 'none (not chosen yet)'}"))
    if cp.reserve is not None and g.reserve != cp.reserve:
        out.append((("reserve",), f"Treasury Reserve expected {cp.reserve}, found {g.reserve}"))
    if cp.mat_up is not None and Counter(g.mat_up) != Counter(cp.mat_up):
        out.append((("mat_up",), f"face-up mat cards expected {cards_text(cp.mat_up)}, found "
                                 f"{cards_text(g.mat_up)}"))
    return out


_ORDER = list(Character)
_ACTIONS = list(Action)


def cards_text(cards: Iterable[Character]) -> str:
    cards = sorted(cards, key=_ORDER.index)
    return ", ".join(cards) if cards else "none"


def plural(card: Character, k: int) -> str:
    return str(card) if k == 1 else f"{card}s"


def count_text(counts: Counter[Character]) -> str:
    return ", ".join(f"{counts[c]} {plural(c, counts[c])}" for c in _ORDER if counts[c] > 0)


def _names(g: Game, seats: Iterable[int]) -> str:
    return ", ".join(g.names[s] for s in seats) or "nobody"


def _actions_text(actions: Iterable[Action]) -> str:
    return ", ".join(a.label for a in sorted(set(actions), key=_ACTIONS.index))
