"""Known-role end-games: two players with one card each, both cards face up to both.

Why solve these first: with the cards known the game is one of perfect information with chance
(only the Exchange's draw is random), so its value is exact and cheap, and it is the leaf value
that the hidden-role solver needs at its horizon. The rules are the engine's own: every node of
the graph is an engine position, its edges the engine's legal moves, the draws enumerated by
`trainer.endgame.chance`. Nothing here knows what a Steal does.

Play can loop (a Steal answered by a Steal), so the values come from value iteration run from
both bounds: every position not yet decided counted as a loss for player 0, and as a win. Where
the two meet, loops never decide the value; `Table.gap` says where they do not.

A value says who wins, not how soon, and a player who has the game won still has to be shown
the quick way home: `Table.turns` is the number of turns within which the winner forces the
win whatever the loser does and whatever is drawn, found by the same kind of iteration over
"won within k turns".
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from trainer.endgame.chance import outcomes
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.engine.variants import get_variant

# Coins at which the end-game tables start and stop: a mover with 7 coins or more coups and wins,
# but a player may hold up to the forced coup's 10 and more while the other acts.
MAX_COINS = 12
# Value iteration stops when no value moves by more than this.
TOLERANCE = 1e-12
# "Not won for certain" in the distance iteration: larger than any count of turns.
_NEVER = np.iinfo(np.int64).max // 4


@dataclass(frozen=True, order=True)
class Position:
    """A 1-v-1 end-game with one card each: `cards[p]` is player p's face-down card,
    `revealed[p]` the card p has lost, `coins[p]` p's coins; `first` acts now. `out` are the
    face-up cards of players already out (a game that started with more than two): they are
    in no hand and not in the deck."""

    cards: tuple[Character, Character]
    coins: tuple[int, int]
    revealed: tuple[Character, Character]
    first: int = 0
    variant: str = "base"
    out: tuple[Character, ...] = ()

    def game(self) -> Game:
        """The position as an engine game at the start of `first`'s turn; the deck is the rest
        of the court (the cards out lie aside as the engine's `removed` cards)."""
        v = get_variant(self.variant)
        rest = Counter(v.court(2))
        rest.subtract(list(self.cards) + list(self.revealed) + list(self.out))
        if any(n < 0 for n in rest.values()):
            raise ValueError(f"{self}: more copies of a card than the court holds")
        return Game(names=["P1", "P2"], hands=[[self.cards[0]], [self.cards[1]]],
                    revealed=[[self.revealed[0]], [self.revealed[1]]], coins=list(self.coins),
                    deck=sorted(rest.elements()), first=self.first, variant=v,
                    removed=list(self.out))


@dataclass
class _Node:
    decider: int  # -1: the game is over
    value: float  # fixed for a finished game
    edges: list[tuple[Move, list[tuple[float, int]]]] = field(default_factory=list)
    turn: bool = False  # a turn starts here (the mover chooses an action)


@dataclass
class Table:
    """Every position reachable from some roots, with player 0's chance of winning under
    perfect play by both: `low` and `high` are the values from the two bounds."""

    keys: dict[tuple[object, ...], int]
    nodes: list[_Node]
    low: list[float]
    high: list[float]
    sweeps: int
    # Per position: the turns within which its winner forces the win, -1 where nobody can.
    distance: list[int] = field(default_factory=list)

    def index(self, game: Game) -> int:
        try:
            return self.keys[game.position_key()]
        except KeyError:
            raise KeyError("that position was not reached from the table's roots") from None

    def value(self, game: Game) -> float:
        """Player 0's chance of winning from `game` under perfect play (the bounds' mean;
        they agree wherever `gap` is 0)."""
        i = self.index(game)
        return (self.low[i] + self.high[i]) / 2

    def turns(self, game: Game) -> int | None:
        """The turns (turn starts, this one included) within which the player who wins `game`
        for certain forces the win, the loser making it last and the draws falling as badly
        as they can; None where the win depends on a draw. Count 0 when the game is over or
        ends before another turn starts."""
        if not self.distance:
            self.distance = distances(self.nodes)
        d = self.distance[self.index(game)]
        return None if d < 0 else d

    def gap(self) -> float:
        """The largest difference between the two bounds: 0 when loops never decide a value."""
        return max((h - lo for lo, h in zip(self.low, self.high, strict=True)), default=0.0)

    def move_values(self, game: Game) -> list[tuple[Move, float]]:
        """Each legal move of the decider with player 0's chance of winning after it."""
        node = self.nodes[self.index(game)]
        return [(m, sum(p * self.low[j] for p, j in branch)) for m, branch in node.edges]


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused while a graph is built, and resumed as it was.

    Why: a graph of a quarter of a million positions is millions of new objects, and each
    allocation burst sets off a collection that walks all of them again; such collections
    were more than half of the cost of exploring a pair of lost cards (35 s of CPU; 15 s
    without). The graph holds no reference cycles, so nothing waits for the collector."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def explore(roots: Iterable[Game], fixed: Callable[[Game], float | None] | None = None
            ) -> tuple[dict[tuple[object, ...], int], list[_Node]]:
    """The graph of every position reachable from `roots`: one node per position key.

    `fixed(game)` may give the value of a position known already (from another table): it is
    then a leaf, not expanded, which keeps the graph to the positions whose value is sought.
    Such a leaf has no count of turns, so `distances` mean nothing on a graph with one."""
    with no_cycle_collection():
        return _explore(roots, fixed)


def _explore(roots: Iterable[Game], fixed: Callable[[Game], float | None] | None
             ) -> tuple[dict[tuple[object, ...], int], list[_Node]]:
    keys: dict[tuple[object, ...], int] = {}
    nodes: list[_Node] = []
    games: list[Game] = []

    def add(game: Game) -> int:
        key = game.position_key()
        i = keys.get(key)
        if i is None:
            i = keys[key] = len(nodes)
            game.log = []  # a solver needs no history, and each copy would copy it
            over = game.is_over
            known = None if over or fixed is None else fixed(game)
            if known is not None:
                nodes.append(_Node(-1, known))
                games.append(None)  # type: ignore[arg-type]  # a leaf: never expanded
                return i
            nodes.append(_Node(-1 if over else game.decider,
                               (1.0 if game.winner == 0 else 0.0) if over else 0.0,
                               turn=not over and game.phase == Phase.ACTION))
            games.append(game)
        return i

    for root in roots:
        add(root)
    done = 0
    while done < len(nodes):
        node, game = nodes[done], games[done]
        games[done] = None  # type: ignore[call-overload]  # expanded: free the copy
        done += 1
        if node.decider < 0:
            continue
        for move in game.legal_moves():
            node.edges.append((move, [(p, add(after)) for p, after in outcomes(game, move)]))
    return keys, nodes


def _arrays(nodes: list[_Node]) -> tuple[np.ndarray, ...]:
    """The graph as flat arrays: per branch its child and probability, per move where its
    branches start, per deciding node where its moves start."""
    inner = [i for i, n in enumerate(nodes) if n.decider >= 0]
    child: list[int] = []
    prob: list[float] = []
    move_at: list[int] = []
    node_at: list[int] = []
    for i in inner:
        node_at.append(len(move_at))
        for _, branch in nodes[i].edges:
            move_at.append(len(child))
            for p, j in branch:
                child.append(j)
                prob.append(p)
    mine = np.array([nodes[i].decider == 0 for i in inner], dtype=bool)
    return (np.array(inner, dtype=np.int64), np.array(child, dtype=np.int64),
            np.array(prob), np.array(move_at, dtype=np.int64),
            np.array(node_at, dtype=np.int64), mine)


def iterate(nodes: list[_Node], start: float,
            arrays: tuple[np.ndarray, ...] | None = None) -> tuple[list[float], int]:
    """Value iteration from `start` for every undecided position, all positions at once,
    until no value moves by more than `TOLERANCE`. `arrays`: `_arrays(nodes)`, when the
    caller has them already."""
    values = np.array([n.value if n.decider < 0 else start for n in nodes])
    inner, child, prob, move_at, node_at, mine = arrays or _arrays(nodes)
    sweeps = 0
    while len(inner):
        sweeps += 1
        moves = np.add.reduceat(prob * values[child], move_at)
        best = np.where(mine, np.maximum.reduceat(moves, node_at),
                        np.minimum.reduceat(moves, node_at))
        change = float(np.max(np.abs(best - values[inner])))
        values[inner] = best
        if change <= TOLERANCE:
            break
    return values.tolist(), sweeps


def _forced(nodes: list[_Node], winner: int, arrays: tuple[np.ndarray, ...]) -> np.ndarray:
    """Per position, the turns within which `winner` forces the win (`_NEVER` where it
    cannot). Why a retrograde iteration and not a search: play loops, so the counts are the
    fixed point of "a position is won within k turns when the winner has a move, or the loser
    has only moves, whose every draw is won within k turns, one less if a turn starts here",
    reached from above: after n sweeps a count is the best the winner can force within n
    decisions, and the first sweep that changes nothing has them all. Every draw must be won,
    so a win that hangs on an Exchange's draw is never counted."""
    inner, child, _, move_at, node_at, mine = arrays
    left = np.array([0 if n.decider < 0 and n.value == (1.0 if winner == 0 else 0.0)
                     else _NEVER for n in nodes], dtype=np.int64)
    turn = np.array([nodes[i].turn for i in inner], dtype=np.int64)
    ours = mine if winner == 0 else ~mine
    while len(inner):
        worst_draw = np.maximum.reduceat(left[child], move_at)
        best = np.where(ours, np.minimum.reduceat(worst_draw, node_at),
                        np.maximum.reduceat(worst_draw, node_at))
        best = np.where(best >= _NEVER, _NEVER, best + turn)
        if np.array_equal(best, left[inner]):
            break
        left[inner] = best
    return left


def distances(nodes: list[_Node], arrays: tuple[np.ndarray, ...] | None = None) -> list[int]:
    """Per position, the turns within which its winner forces the win; -1 where neither
    player wins for certain (the value lies strictly between 0 and 1)."""
    arrays = arrays or _arrays(nodes)
    zero, one = _forced(nodes, 0, arrays), _forced(nodes, 1, arrays)
    assert not np.any((zero < _NEVER) & (one < _NEVER)), "a position won by both players"
    out = np.where(zero < _NEVER, zero, np.where(one < _NEVER, one, -1))
    return [int(d) for d in out]


def solve(roots: Iterable[Game]) -> Table:
    """Explore from `roots`, value every position from both bounds and count the turns of
    every certain win."""
    keys, nodes = explore(roots)
    arrays = _arrays(nodes)
    low, a = iterate(nodes, 0.0, arrays)
    high, b = iterate(nodes, 1.0, arrays)
    return Table(keys, nodes, low, high, max(a, b), distances(nodes, arrays))


def positions(cards: Iterable[tuple[Character, Character]],
              revealed: tuple[Character, Character], *, coins: int = MAX_COINS,
              variant: str = "base", out: tuple[Character, ...] = ()) -> Iterator[Position]:
    """Every position with these face-down and face-up cards (and `out`, the cards of
    players already out), coins 0..`coins` each, either player to act; card pairs the court
    cannot deal are left out."""
    court = Counter(get_variant(variant).court(2))
    for pair in cards:
        used = Counter(pair + revealed + out)
        if any(used[c] > court[c] for c in used):
            continue
        for a in range(coins + 1):
            for b in range(coins + 1):
                for first in (0, 1):
                    yield Position(pair, (a, b), revealed, first, variant, out)


def race(cards: tuple[Character, ...], revealed: tuple[Character, Character], *,
         coins: int = 6, variant: str = "base",
         table: Table | None = None) -> dict[tuple[Character, Character], int]:
    """coupSim's summary, exact: for each card X and each card Y, in how many of the coin
    pairs 0..`coins` each the player holding X and acting first wins for certain against Y.
    Pairs the court cannot deal (with these lost cards) are left out."""
    pairs = [(x, y) for x in cards for y in cards]
    roots = list(positions(pairs, revealed, coins=coins, variant=variant))
    table = table or solve(p.game() for p in roots)
    out: dict[tuple[Character, Character], int] = {}
    for p in roots:
        if p.first == 0:
            won = table.value(p.game()) > 1 - 1e-9
            out[p.cards] = out.get(p.cards, 0) + won
    return out
