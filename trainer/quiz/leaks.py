"""No item may show what decides another item's answer.

Why: a bank takes a few decisions from each persona game, from different seats, and a learner
may meet two of them one after the other (a quiz session) or side by side (a room drill puts
two items on the projector at once). Two ways one item can answer another's claim ("is Dee
bluffing?"):

- A sibling seen from Dee's seat shows Dee's cards as "your cards". So within one game an item
  whose viewer is the claimant of another item's claim is left out. The rule is kept strict:
  a sibling from before an exchange shows a hand the claimant no longer holds, but telling
  such hands apart takes the rest of the game, and a hand that lost a card since still gives
  away what is left.
- A *later* sibling's history, which the item shows move by move, tells how the claim turned
  out: the claim is challenged and Dee shows the card or gives up a card, or Dee later turns
  the claimed card face up, or turns up every card she held at the claim without it, all
  before her hand changes (`answer_shown`). A learner who saw the later item knows the answer
  of the earlier one.

Why leave one of the two out rather than keep two items of one game apart when drawing: a
learner meets the bank's items in many ways (a quiz session over days, a room drill, the
Kiosk, a page of results that lists them), and each would need its own rule; a bank in which
no item answers another is safe in all of them, and a teacher can put any two items side by
side. Which of two such items stays: the one given first, unless `rarest` says otherwise (the
shipped bank keeps the item whose rarest theme is rarer, so its drills stay as varied as they
can). The result depends on nothing but the items and that order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.quiz.bank import Item, new_game

# What a claim's answer is, when some moves show it: a bluff, or not.
BLUFF, HONEST = True, False


def game_of(item: Item) -> tuple[Any, ...] | None:
    """What identifies the game an item's position comes from (one deal); None for an
    item that stands alone (an end-game puzzle)."""
    if item.scenario is not None:
        return ("lesson", item.variant, item.scenario)
    if item.seed is None:
        return None
    return (item.source, item.variant, item.players, item.seed,
            tuple(item.meta.get("names") or ()))


def gives_away(shown: Item, asked: Item) -> bool:
    """True when showing `shown` puts on screen the hand that decides `asked`'s claim: both
    from one game, and `shown` seen from the claimant's seat."""
    return (asked.has_claim and asked.claimant is not None and shown.id != asked.id
            and shown.viewer == asked.claimant and game_of(shown) is not None
            and game_of(shown) == game_of(asked))


def _to_prove(game: Game) -> Character | None:
    """The character the player to move must show to win the challenge under way, or None
    when no such proof is asked (an inverted claim proves the opposite and says nothing)."""
    d = game.pending
    if d is None:
        return None
    if d.phase is Phase.PROVE_ACTION and d.action is not None:
        return None if game.variant.spec(d.action).inverted else d.claim
    if d.phase is Phase.PROVE_BLOCK:
        return d.block_character
    if d.phase is Phase.PROVE_CLAIM:
        return d.claim
    return None


@dataclass(frozen=True)
class Seen:
    """One decision of a persona game as these rules need it, before it is graded: the
    moves before it, the seat it is seen from and, for a claim, the claimant and the
    character claimed."""

    moves: tuple[Move, ...]
    viewer: int
    claimant: int | None = None
    claim: Character | None = None


def claim_outcome(game: tuple[int, int, str], asked: Seen, after: Sequence[Move]
                  ) -> bool | None:
    """What the moves `after` (played on from `asked`'s decision in the persona game
    `game`: seed, players, rule set) show everyone about `asked`'s claim: `BLUFF`, `HONEST`,
    or None when they leave it open.

    The claimant's hand at the claim stays theirs until it changes in public (an exchange, a
    swap, a proof's replacement); until then each card they turn face up was in it. So the
    claim is shown honest when they show or turn up the claimed card, and a bluff when they
    give up a card (or pay) rather than show it, or turn up every card they held at the
    claim without it. After a change of hand the moves say no more about the old one (a
    shown card other than the claimed one is replaced too, and what stays can no longer be
    told from what came)."""
    if asked.claimant is None or asked.claim is None:
        return None
    seed, players, variant = game
    claimant, role = asked.claimant, asked.claim
    state = new_game(players, seed, variant)
    for m in asked.moves:
        state.apply(m)
    down = len(state.hidden[claimant])
    for m in after:
        if state.is_over:
            break
        d = state.pending
        if m.player == claimant:
            proving = _to_prove(state) if state.decider == claimant else None
            if m.kind is MoveKind.SHOW:
                if m.character == role:
                    return HONEST
                break
            if m.kind is MoveKind.LOSE and m.character is not None:
                if m.character == role:
                    return HONEST
                if proving == role:
                    return BLUFF
                down -= 1
                if down <= 0:
                    return BLUFF
            if m.kind is MoveKind.PAY and proving == role:
                return BLUFF
            if m.kind is MoveKind.KEEP:
                break
        if (m.kind is MoveKind.CHOOSE and m.choice == "swap" and d is not None
                and d.target == claimant):
            break
        state.apply(m)
    return None


def tells(shown: Seen, asked: Seen, game: tuple[int, int, str]) -> bool:
    """True when `shown` answers `asked`'s claim, both decisions of the persona game
    `game`: `shown` is seen from the claimant's seat, or it comes later on the same line of
    play and the moves between show how the claim turned out."""
    if asked.claimant is None or asked.claim is None:
        return False
    if shown.viewer == asked.claimant:
        return True
    return (len(shown.moves) > len(asked.moves)
            and shown.moves[:len(asked.moves)] == asked.moves
            and claim_outcome(game, asked, shown.moves[len(asked.moves):]) is not None)


def _seen(item: Item) -> Seen:
    return Seen(tuple(item.moves), item.viewer, item.claimant,
                Character(item.claim) if item.claim is not None else None)


def answer_shown(asked: Item, after: Sequence[Move]) -> bool | None:
    """What the moves `after` (played on from `asked`'s decision) show everyone about
    `asked`'s claim (`claim_outcome`); None for an item of no persona game."""
    if asked.seed is None or asked.scenario is not None:
        return None
    return claim_outcome((asked.seed, asked.players, asked.variant), _seen(asked), after)


def settles(shown: Item, asked: Item) -> bool:
    """True when `shown`'s history settles `asked`'s claim: both from one persona game,
    `shown` later on the same line of play, and the moves between the two decisions show
    how the claim turned out (`answer_shown`)."""
    if not (asked.has_claim and shown.id != asked.id and asked.seed is not None
            and asked.scenario is None and game_of(asked) is not None
            and game_of(shown) == game_of(asked)
            and len(shown.moves) > len(asked.moves)
            and tuple(shown.moves[:len(asked.moves)]) == tuple(asked.moves)):
        return False
    assert asked.seed is not None
    return claim_outcome((asked.seed, asked.players, asked.variant), _seen(asked),
                         shown.moves[len(asked.moves):]) is not None


def reveals(shown: Item, asked: Item) -> bool:
    """True when showing `shown` answers `asked`'s claim, by either way above."""
    return gives_away(shown, asked) or settles(shown, asked)


def _by_game(items: Iterable[Item]) -> dict[tuple[Any, ...], list[Item]]:
    groups: dict[tuple[Any, ...], list[Item]] = {}
    for item in items:
        key = game_of(item)
        if key is not None:
            groups.setdefault(key, []).append(item)
    return groups


def leaking_pairs(items: Iterable[Item]) -> list[tuple[Item, Item]]:
    """Every (shown, asked) pair of `items` where `shown` gives away `asked`'s answer: its
    viewer is the claimant, or its history settles the claim."""
    return [(a, b) for group in _by_game(items).values() for a in group for b in group
            if reveals(a, b)]


def without_leaks(items: Sequence[Item], rarest: Callable[[Item], float] | None = None
                  ) -> tuple[list[Item], list[Item]]:
    """(kept, left out), each in the order of `items`: an item is left out when it answers,
    or is answered by, an item taken before it (`reveals`). Items are taken in their order,
    or by `rarest` (lowest first; ties in their order)."""
    order = sorted(range(len(items)), key=lambda n: (rarest(items[n]) if rarest else 0.0, n))
    by_game: dict[tuple[Any, ...], list[Item]] = {}
    out: set[int] = set()
    for n in order:
        item = items[n]
        key = game_of(item)
        siblings = by_game.get(key, []) if key is not None else []
        if any(reveals(item, s) or reveals(s, item) for s in siblings):
            out.add(n)
            continue
        if key is not None:
            by_game.setdefault(key, []).append(item)
    return ([i for n, i in enumerate(items) if n not in out],
            [i for n, i in enumerate(items) if n in out])


def theme_rarity(items: Sequence[Item]) -> Callable[[Item], float]:
    """An item's rarest theme's count among `items`: the lower, the more a drill of that
    theme needs the item."""
    counts: dict[str, int] = {}
    for i in items:
        for t in i.themes:
            counts[t] = counts.get(t, 0) + 1
    return lambda item: float(min((counts[t] for t in item.themes), default=0))
