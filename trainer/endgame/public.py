"""The public graph of a 1-v-1 end-game with hidden cards: what both players see.

Why a graph of engine positions played in lockstep: with the cards hidden, a player's options
(claims, challenges, blocks) do not depend on the card they hold, but what a move does may (a
challenge ends the game one way or the other). So every possible deal — a *world*, the pair of
face-down cards — keeps its own engine game, and a public node is the set of those games after
the same public moves. Nothing here knows a rule: moves, outcomes and draws are the engine's.

Three kinds of step leave a node:
- a *public* move, the same for every world (claims, challenges, passes);
- *forced* private moves, taken for the decider without a choice: with one card left there is
  one card to lose, and a challenged player who holds the claimed card shows it (it wins the
  game on the spot, so nothing else is worth considering; `_resolve` checks that it does);
- the Exchange: a draw only the exchanger sees, then the card they keep. The edge records,
  world by world, each draw with its chance and each card that can be kept.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, TypeVar

from trainer.endgame.chance import NO_DRAWS, outcomes
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import get_variant

World = tuple[int, int]  # the index of each player's face-down card in the rule set's characters
# Moves whose effect no hidden card changes when it leaves the hands and the deck alone (see
# `PublicGraph._public_edge`)
PUBLIC_KINDS = (MoveKind.ACT, MoveKind.BLOCK, MoveKind.PASS)


class Unsupported(ValueError):
    """A position this solver does not model (a private choice other than the Exchange's)."""


@dataclass(frozen=True)
class Swap:
    """One way an Exchange can go in one world: the cards drawn (sorted), their chance given
    that world's deck, and the card kept, which makes the new world."""

    world: World
    chance: float
    drawn: tuple[int, ...]
    kept: int
    after: World


@dataclass(frozen=True)
class Stage:
    """A private step of an edge: player `player`'s hand changes as `swaps` say, world by
    world. `private`: not an Exchange (a lost card, a replacement, or an identity step that
    only carries on the deals that go on), so it does not count against the Exchanges a line
    may make before the horizon."""

    player: int
    swaps: tuple[Swap, ...]
    private: bool


@dataclass
class Edge:
    """A public move and where it leads: `child` (a node id) for the worlds in which the game
    goes on, `over[w]` = 1.0 / 0.0 (player 0 wins / loses) for worlds in which it ends."""

    move: Move
    child: int = -1
    over: dict[World, float] = field(default_factory=dict)
    swaps: tuple[Swap, ...] = ()  # an Exchange's draws and keeps, world by world
    exchanger: int = -1
    # the duel of two cards against one (`trainer.endgame.public_two`): the private steps
    # from the deals going on to the child's deals, one hand at a time
    stages: tuple[Stage, ...] = ()


@dataclass
class Node:
    decider: int
    phase: Phase
    coins: tuple[int, int]
    edges: list[Edge] = field(default_factory=list)
    expanded: bool = False

    @property
    def turn_start(self) -> bool:
        return self.phase is _ACTION


_ACTION = Phase.ACTION  # read once: the compiled enum's attribute costs microseconds a read,
# and unrolling a duel's tree asks every node whether a turn starts there


def _winner_value(game: Game) -> float:
    return 1.0 if game.winner == 0 else 0.0


def _play(game: Game, move: Move) -> Game:
    """`move` played; a draw on the way (a shown card's replacement) must not matter, i.e. the
    game must be over whatever was drawn, and then the first outcome stands for all."""
    results = [_resolve(after) for _, after in outcomes(game, move)]
    if len(results) > 1 and not all(g.is_over and g.winner == results[0].winner
                                    for g in results):
        raise Unsupported(f"{move}: a draw that matters outside an Exchange")
    return results[0]


def _resolve(game: Game) -> Game:
    """Play the decider's forced private moves (one card to lose; showing a challenged card,
    which wins outright) until a decision that is the same in every world, or the end."""
    while not game.is_over and game.phase in (Phase.LOSE, Phase.PROVE_ACTION,
                                             Phase.PROVE_BLOCK):
        moves = game.legal_moves()
        if len(moves) == 1:
            game = _play(game, moves[0])
            continue
        p = game.decider
        for m in moves:
            trial = _play(game, m)
            if trial.is_over and trial.winner == p:
                game = trial
                break
        else:
            raise Unsupported(f"{game.pending}: a private choice with no move that wins outright")
    return game


N = TypeVar("N", bound=Node)


class Lockstep(ABC, Generic[N]):
    """What every public graph shares: its nodes, each expanded once (into its edges, by the
    graph's own `_edges`) when a solver first reaches it, under the graph's lock. The graph
    is shared by every page session of the process, and a solve may run in two at once."""

    def __init__(self) -> None:
        self.nodes: list[N] = []
        self._keys: dict[tuple[object, ...], int] = {}
        self._games: dict[int, dict[World, Game]] = {}
        self._lock = threading.RLock()

    def node(self, i: int) -> N:
        """Node `i`, expanded; only marked expanded once its edges are complete."""
        node = self.nodes[i]
        if not node.expanded:
            with self._lock:
                if not node.expanded:
                    self._expand(i)
        return node

    def _expand(self, i: int) -> None:
        node = self.nodes[i]
        games = self._games[i]
        if node.decider >= 0:
            node.edges = self._edges(games)
        node.expanded = True
        del self._games[i]

    @abstractmethod
    def _edges(self, games: dict[World, Game]) -> list[Edge]:
        """The edges of a node whose deals' games are `games`: the graph's own rules."""

    @abstractmethod
    def _add(self, games: dict[World, Game]) -> int:
        """The node of these games (new, or the one with the same key)."""

    def _copied_edge(self, games: dict[World, Game], move: Move, w0: World, g0: Game,
                     r0: Game) -> Edge | None:
        """The edge of `move` played in deal `w0` only (`g0` before, `r0` after), when it
        leaves every hand and the deck as they were and the game goes on outside an
        Exchange: every other deal's game after it is `r0` with that deal's own cards.
        None when it does not (the move is then played deal by deal)."""
        if (r0.is_over or r0.phase is Phase.EXCHANGE or r0.hidden != g0.hidden
                or sorted(r0.deck) != sorted(g0.deck)
                or any(move not in g.legal_moves() for g in games.values())):
            return None
        child: dict[World, Game] = {}
        for w, g in games.items():
            if w == w0:
                child[w] = r0
                continue
            twin = r0.clone(NO_DRAWS)
            twin.hidden = [list(h) for h in g.hidden]
            twin.deck = list(g.deck)
            child[w] = twin
        edge = Edge(move)
        edge.child = self._add(child)
        return edge


class PublicGraph(Lockstep[Node]):
    """The public nodes reachable from the roots asked for, expanded as a solver reaches them.

    One graph serves every position with the same face-up cards and rule set: the worlds are
    all the deals the court allows, and a node's key is the engine key of its games.

    `out` are further face-up cards: those of players already out of a game that started
    with more than two. They are in no hand and no deck, so they leave the court: the deal's
    chances and an Exchange's draws are those of the cards left. In the engine's two-player
    games they lie aside as `removed` cards, which no base-game rule reads."""

    def __init__(self, revealed: tuple[Character, Character], variant: str = "base", *,
                 out: tuple[Character, ...] = (), shortcuts: bool = True) -> None:
        super().__init__()
        self.shortcuts = shortcuts  # False: every move played in every deal (for tests)
        v = get_variant(variant)
        self.variant = v.name
        self.revealed = revealed
        self.out: tuple[Character, ...] = tuple(sorted(out))
        self.characters: tuple[Character, ...] = tuple(v.characters)
        court = Counter(v.court(2))
        court.subtract(revealed)
        court.subtract(self.out)
        if any(n < 0 for n in court.values()):
            raise ValueError(f"revealed {revealed}"
                             f"{f' and out {self.out}' if self.out else ''}: more copies "
                             f"than the court holds")
        self.court = court
        n = len(self.characters)
        self.worlds: tuple[World, ...] = tuple(
            (a, b) for a in range(n) for b in range(n)
            if all(court[c] >= k for c, k in
                   Counter((self.characters[a], self.characters[b])).items()))
        self._swap_cache: dict[tuple[int, World], tuple[Swap, ...]] = {}

    @property
    def labels(self) -> tuple[tuple[tuple[Character, ...], ...], tuple[tuple[Character, ...], ...]]:
        """Each player's hand labels: here a label is one card."""
        one = tuple((c,) for c in self.characters)
        return (one, one)

    @property
    def sizes(self) -> tuple[int, int]:
        """How many hand labels each player has: here a label is a card."""
        n = len(self.characters)
        return (n, n)

    # -- the deal -------------------------------------------------------------------------
    def deal_chance(self, world: World) -> float:
        """The chance that a shuffled court (less the face-up cards) deals these two cards."""
        a, b = (self.characters[i] for i in world)
        total = sum(self.court.values())
        first = self.court[a] / total
        second = (self.court[b] - (a == b)) / (total - 1)
        return first * second

    def game(self, world: World, coins: tuple[int, int], first: int) -> Game:
        cards = [self.characters[i] for i in world]
        rest = Counter(self.court)
        rest.subtract(cards)
        g = Game(names=["P1", "P2"], hands=[[cards[0]], [cards[1]]],
                 revealed=[[self.revealed[0]], [self.revealed[1]]], coins=list(coins),
                 deck=sorted(rest.elements()), first=first,
                 variant=get_variant(self.variant), removed=list(self.out))
        g.chance = NO_DRAWS
        g.log = []
        return g

    def root(self, coins: tuple[int, int], first: int) -> int:
        with self._lock:
            return self._add({w: self.game(w, coins, first) for w in self.worlds})

    # -- building ---------------------------------------------------------------------------
    def _add(self, games: dict[World, Game]) -> int:
        some = games[self.worlds[0]]
        key = some.position_key()
        i = self._keys.get(key)
        if i is None:
            i = self._keys[key] = len(self.nodes)
            self.nodes.append(Node(-1 if some.is_over else some.decider, some.phase,
                                   (some.coins[0], some.coins[1])))
            self._games[i] = games
        return i

    def _edges(self, games: dict[World, Game]) -> list[Edge]:
        some = games[self.worlds[0]]
        return [self._edge(games, move) for move in some.legal_moves()]

    def _edge(self, games: dict[World, Game], move: Move) -> Edge:
        public = self._public_edge(games, move) if self.shortcuts else None
        if public is not None:
            return public
        edge = Edge(move)
        going: dict[World, Game] = {}
        for w, g in games.items():
            if move not in g.legal_moves():
                raise Unsupported(f"{move} is legal in some deals and not in others")
            branches = outcomes(g, move)
            p, after = next(branches)
            after = _resolve(after)
            if after.is_over:
                edge.over[w] = _winner_value(after)
                if any(not _resolve(a).is_over for _, a in branches):
                    raise Unsupported(f"{move}: a draw decides whether the game goes on")
            elif after.phase is Phase.EXCHANGE:
                edge.exchanger = after.decider
                # Keeping the card already held leaves the deal as it was: one path per deal
                # gives the game after the Exchange; the chances come from `_swaps`.
                own = next(m for m in after.legal_moves()
                           if _play(after, m).hidden[after.decider] == g.hidden[after.decider])
                going[w] = _play(after, own)
            else:
                if p != 1.0:
                    raise Unsupported(f"{move}: a draw outside an Exchange")
                going[w] = after
        if edge.over and going:
            raise Unsupported(f"{move} ends the game in some deals and not in others")
        if going:
            edge.child = self._add(going)
        if edge.exchanger >= 0:
            edge.swaps = tuple(s for w in self.worlds
                               for s in self._swaps(edge.exchanger, w, games[w], move))
        return edge

    def _public_edge(self, games: dict[World, Game], move: Move) -> Edge | None:
        """The edge of a move no hidden card can change, played in one deal only: a declared
        action, a block, or a pass that draws nothing, when the game goes on with every hand
        and the deck as they were (the game's end, a forced loss or an Exchange go the long
        way, deal by deal). Every other deal's game after it is that game with the deal's own
        cards: a copy, instead of the move played again in each of some 25 deals."""
        if move.kind not in PUBLIC_KINDS:
            return None
        w0, g0 = next(iter(games.items()))
        results = list(outcomes(g0, move))
        if len(results) != 1:
            return None
        r0 = _resolve(results[0][1])
        return self._copied_edge(games, move, w0, g0, r0)

    def _swaps(self, x: int, world: World, game: Game, move: Move) -> tuple[Swap, ...]:
        """Every draw of an Exchange in this deal with its chance, and each card that can be
        kept. What an Exchange draws and offers depends on the hands and the deck alone, so
        it is worked out once per deal and exchanger and shared by every public node."""
        cached = self._swap_cache.get((x, world))
        if cached is not None:
            return cached
        index = {c: k for k, c in enumerate(self.characters)}
        out: list[Swap] = []
        for p, drawn_game in outcomes(game, move):
            pool = Counter(drawn_game.exchange_pool())
            pool[self.characters[world[x]]] -= 1
            drawn = tuple(sorted(index[c] for c in pool.elements()))
            for keep in drawn_game.legal_moves():
                kept = index[_play(drawn_game, keep).hidden[x][0]]
                new = (kept, world[1]) if x == 0 else (world[0], kept)
                out.append(Swap(world, p, drawn, kept, new))
        self._swap_cache[(x, world)] = result = tuple(out)
        return result


def public_graph(revealed: tuple[Character, Character], variant: str = "base", *,
                 out: tuple[Character, ...] = ()) -> PublicGraph:
    """One graph per face-up pair (and cards out of the game), kept for the process: solving
    a second position with the same face-up cards reuses every node the first one expanded.
    `out` in any order is one graph."""
    return _public_graph(revealed, variant, tuple(sorted(out)))


@lru_cache(maxsize=32)
def _public_graph(revealed: tuple[Character, Character], variant: str,
                  out: tuple[Character, ...]) -> PublicGraph:
    return PublicGraph(revealed, variant, out=out)
