"""Exact card counting: how the cards a player cannot see may lie in the opponents' hands.

Every card is distinct, so with no evidence every way of dealing the unseen cards into the
opponents' hands (of known sizes) and the rest (deck, cards out of play) is equally likely.
Evidence about a player (the claims they made, in `trainer.estimates.posterior`) weighs each of
their possible hands by a likelihood. The hands must share one pool — if Ely holds two Dukes,
Cris cannot — so the joint weight is computed by dynamic programming over the remaining count of
each character: players are dealt one at a time from a state "copies left of each character",
and only reachable states are visited (a few hundred at most for a 15-card game).

A hand is a sorted tuple of characters; a pool is a tuple of counts in `characters` order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod

from trainer.engine.cards import Character

Hand = tuple[Character, ...]
Pool = tuple[int, ...]
Likelihood = Callable[[Hand], float]


@dataclass(frozen=True)
class Seat:
    """One opponent for the count: how many unknown cards they hold, and the evidence."""

    cards: int
    likelihood: Likelihood | None = None  # None: no evidence (every hand weighs 1)


@dataclass(frozen=True)
class Deal:
    """The result: each seat's distribution over hands, and the total weight."""

    characters: tuple[Character, ...]
    hands: tuple[dict[Hand, float], ...]  # per seat, P(hand), summing to 1
    weight: float  # Σ over joint deals of the product of likelihoods (for model comparison)

    def p_holds(self, seat: int, character: Character) -> float:
        """P(seat holds at least one `character`)."""
        return sum(p for h, p in self.hands[seat].items() if character in h)

    def p_count(self, seat: int, character: Character) -> dict[int, float]:
        """The distribution of how many `character`s the seat holds."""
        out: dict[int, float] = {}
        for h, p in self.hands[seat].items():
            k = h.count(character)
            out[k] = out.get(k, 0.0) + p
        return out


@cache
def _hands(n_chars: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every hand of k cards as a count vector over n_chars characters."""
    out = []
    for combo in combinations_with_replacement(range(n_chars), k):
        v = [0] * n_chars
        for c in combo:
            v[c] += 1
        out.append(tuple(v))
    return tuple(out)


def _ways(pool: Pool, hand: tuple[int, ...]) -> int:
    """Ways to pick these counts of each character from the pool's distinct cards."""
    return prod(comb(n, x) for n, x in zip(pool, hand, strict=True))


def deal(unseen: Mapping[Character, int], seats: Sequence[Seat],
         characters: Sequence[Character] | None = None) -> Deal:
    """The exact distribution of every seat's hand given the unseen cards and the evidence.

    The unseen cards not in these seats' hands are "the rest" (deck, cards out of play, other
    players without evidence can also be left out and counted in the rest)."""
    chars = tuple(characters) if characters is not None else tuple(
        c for c in unseen if unseen[c] > 0)
    start: Pool = tuple(unseen.get(c, 0) for c in chars)
    total_cards = sum(start)
    if sum(s.cards for s in seats) > total_cards:
        raise ValueError(f"the seats hold {sum(s.cards for s in seats)} unknown cards but only "
                         f"{total_cards} are unseen")
    n = len(chars)

    def weight(seat: Seat, hand: tuple[int, ...]) -> float:
        if seat.likelihood is None:
            return 1.0
        return seat.likelihood(_as_hand(hand, chars))

    # Forward: F[j][state] = total weight of dealing seats < j and reaching `state`. Each
    # state's feasible hands, with what is left and in how many ways, are listed here once
    # and walked again backward and for the marginals: the same integers in the same order,
    # so the same sums to the last bit, without working them out three times.
    forward: list[dict[Pool, float]] = [{start: 1.0}]
    steps: list[dict[Pool, list[tuple[tuple[int, ...], float, Pool, int]]]] = []
    for seat in seats:
        opts = [(h, lw) for h in _hands(n, seat.cards) if (lw := weight(seat, h)) != 0.0]
        listed: dict[Pool, list[tuple[tuple[int, ...], float, Pool, int]]] = {}
        nxt: dict[Pool, float] = {}
        for state, w in forward[-1].items():
            out = listed[state] = []
            for h, lw in opts:
                if any(x > s for x, s in zip(h, state, strict=True)):
                    continue
                rest = tuple(s - x for s, x in zip(state, h, strict=True))
                ways = _ways(state, h)
                out.append((h, lw, rest, ways))
                nxt[rest] = nxt.get(rest, 0.0) + w * ways * lw
        steps.append(listed)
        forward.append(nxt)
    z = sum(forward[-1].values())
    if z <= 0.0:
        raise ValueError("no deal of the unseen cards fits the evidence")
    # Backward: B[j][state] = total weight of dealing seats >= j from `state`.
    backward: list[dict[Pool, float]] = [dict() for _ in range(len(seats) + 1)]
    backward[len(seats)] = dict.fromkeys(forward[-1], 1.0)
    for j in range(len(seats) - 1, -1, -1):
        b: dict[Pool, float] = {}
        after = backward[j + 1]
        for state in forward[j]:
            acc = 0.0
            for _, lw, rest, ways in steps[j][state]:
                acc += ways * lw * after.get(rest, 0.0)
            b[state] = acc
        backward[j] = b
    hands: list[dict[Hand, float]] = []
    for j in range(len(seats)):
        marg: dict[Hand, float] = {}
        after = backward[j + 1]
        named: dict[tuple[int, ...], Hand] = {}
        for state, fw in forward[j].items():
            for h, lw, rest, ways in steps[j][state]:
                w = fw * ways * lw * after.get(rest, 0.0)
                if w:
                    key = named.get(h) or named.setdefault(h, _as_hand(h, chars))
                    marg[key] = marg.get(key, 0.0) + w / z
        hands.append(marg)
    return Deal(chars, tuple(hands), z)


def sample_deals(unseen: Mapping[Character, int], seats: Sequence[Seat], count: int,
                 rng: random.Random) -> list[tuple[Hand, ...]]:
    """`count` joint deals of the seats' unknown cards drawn exactly from the posterior:
    backward tables once, then each seat's hand given the cards the earlier seats took."""
    chars = tuple(c for c in unseen if unseen[c] > 0)
    start: Pool = tuple(unseen[c] for c in chars)
    n = len(chars)
    opts = [[(h, 1.0 if s.likelihood is None else s.likelihood(_as_hand(h, chars)))
             for h in _hands(n, s.cards)] for s in seats]

    @cache
    def back(j: int, state: Pool) -> float:
        if j == len(seats):
            return 1.0
        return sum(_ways(state, h) * lw * back(j + 1, _minus(state, h))
                   for h, lw in opts[j] if lw and _fits(h, state))

    # Each seat's hands and their weights given the cards left, worked out once per (seat,
    # cards left): a few hundred deals meet only a handful of states, and working the
    # weights out again for each deal was most of the drawing's cost. The draws are the same.
    steps: dict[tuple[int, Pool], tuple[list[tuple[int, ...]], list[float]]] = {}
    named: dict[tuple[int, ...], Hand] = {}
    deals = []
    for _ in range(count):
        state, hands = start, []
        for j in range(len(seats)):
            step = steps.get((j, state))
            if step is None:
                choices = [(h, _ways(state, h) * lw * back(j + 1, _minus(state, h)))
                           for h, lw in opts[j] if lw and _fits(h, state)]
                weights = [w for _, w in choices]
                if not any(weights):
                    raise ValueError("no deal of the unseen cards fits the evidence")
                step = steps[(j, state)] = ([c for c, _ in choices], weights)
            h = rng.choices(step[0], weights=step[1])[0]
            hand = named.get(h)
            if hand is None:
                hand = named[h] = _as_hand(h, chars)
            hands.append(hand)
            state = _minus(state, h)
        deals.append(tuple(hands))
    return deals


def _fits(hand: tuple[int, ...], state: Pool) -> bool:
    return all(x <= s for x, s in zip(hand, state, strict=True))


def _minus(state: Pool, hand: tuple[int, ...]) -> Pool:
    return tuple(s - x for s, x in zip(state, hand, strict=True))


def _as_hand(counts: tuple[int, ...], chars: tuple[Character, ...]) -> Hand:
    return tuple(sorted(c for c, k in zip(chars, counts, strict=True) for _ in range(k)))


def p_holds_prior(unseen_total: int, copies_unseen: int, cards: int) -> float:
    """P(a hand of `cards` unknown cards holds at least one of a character with
    `copies_unseen` of its copies among `unseen_total` unseen cards): the hypergeometric
    1 − C(U − u, k) / C(U, k)."""
    if cards > unseen_total:
        raise ValueError("more cards in the hand than unseen cards")
    return 1.0 - comb(unseen_total - copies_unseen, cards) / comb(unseen_total, cards)
