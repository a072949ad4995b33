"""No item may show a hand that decides another item's answer.

Why: a bank takes a few decisions from each persona game, from different seats. A claim item
asks "is Dee bluffing?"; a sibling item from the same game seen from Dee's seat shows Dee's
cards as "your cards". Asked one after the other (a room drill puts two items on the projector
at once), the first answers the second. So within one game an item whose viewer is the
claimant of another item's claim is left out. The rule is kept strict: a sibling from before
an exchange shows a hand the claimant no longer holds, but telling such hands apart takes the
rest of the game, and a hand that lost a card since still gives away what is left.

Which of two such items stays: the one given first, unless `rarest` says otherwise (the
shipped bank keeps the item whose rarest theme is rarer, so its drills stay as varied as they
can). The result depends on nothing but the items and that order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from trainer.quiz.bank import Item


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


def leaking_pairs(items: Iterable[Item]) -> list[tuple[Item, Item]]:
    """Every (shown, asked) pair of `items` where `shown` gives away `asked`'s answer."""
    by_game: dict[tuple[Any, ...], list[Item]] = {}
    for item in items:
        key = game_of(item)
        if key is not None:
            by_game.setdefault(key, []).append(item)
    return [(a, b) for group in by_game.values() for a in group for b in group
            if gives_away(a, b)]


def without_leaks(items: Sequence[Item], rarest: Callable[[Item], float] | None = None
                  ) -> tuple[list[Item], list[Item]]:
    """(kept, left out), each in the order of `items`: an item is left out when it gives
    away, or is given away by, an item taken before it. Items are taken in their order, or
    by `rarest` (lowest first; ties in their order)."""
    order = sorted(range(len(items)), key=lambda n: (rarest(items[n]) if rarest else 0.0, n))
    by_game: dict[tuple[Any, ...], list[Item]] = {}
    out: set[int] = set()
    for n in order:
        item = items[n]
        key = game_of(item)
        siblings = by_game.get(key, []) if key is not None else []
        if any(gives_away(item, s) or gives_away(s, item) for s in siblings):
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
