"""The public graph of a duel of two cards against one with hidden cards: what both players see.

The same lockstep as `trainer.endgame.public` (one engine game per deal, a public node being the
set of those games after the same public moves), with what a second card brings:

- *Labels.* A world is a pair of hand labels: player 0's hand (any two cards the court can deal,
  and after a lost card the one left: `labels[0]`), player 1's card (`labels[1]`).
- *Choosing the card to lose* (after a lost challenge, a Coup or an Assassination) is the
  two-card player's own decision. Its options differ between deals (a hand of two Dukes can only
  lose a Duke), but which card is lost is public, so it is one public decision over every card
  some deal can lose: in a deal without that card the option ends the game as a loss for the
  chooser. The chooser knows their own hand, so such an option is never worth taking; it only
  keeps the decision's options the same in every deal, as a public node needs.
- *Edges that end the game in some deals and not in others* (a challenge: the game ends where
  the claim was a bluff and goes on where it was true). `Edge.over` holds the deals that end,
  `Edge.child` the node where the others go on.
- *Transitions of a hand*: after an edge, a hand may change in a way only its holder sees in
  full — the Exchange (drawn cards, then the ones kept), the replacement drawn after showing a
  challenged card, the card left after losing one. Each is listed world by world as `Swap`s
  (chance, what the holder saw, the label kept, the world after), and `Edge.exchanger` says
  whose hand changes. When some deals end and the others go on unchanged, the edge still lists
  an identity `Swap` per going deal, so the solver carries only those on.

Forced private moves are played for the decider as in the one-card duel: one card left to lose,
and a challenged player who holds the claimed card shows it. Showing is the better answer in
both seats here: the two-card player wins outright by it, and the one-card player keeps their
only card (conceding would lose it and the game).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from trainer.endgame.chance import NO_DRAWS, outcomes
from trainer.endgame.known_two import hands
from trainer.endgame.public import (
    PUBLIC_KINDS,
    Edge,
    Lockstep,
    Node,
    Stage,
    Swap,
    Unsupported,
    World,
)
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import get_variant

Label = tuple[Character, ...]

_OPEN = (Phase.LOSE, Phase.PROVE_ACTION, Phase.PROVE_BLOCK)


@dataclass
class TwoNode(Node):
    """A public node; `shown` is player 0's face-up card once they have lost one (an index
    into the rule set's characters), -1 while they hold two."""

    shown: int = -1


def _settle(game: Game) -> list[tuple[float, Game]]:
    """Play the decider's forced private moves, with every draw on the way: a last card lost,
    a challenged card shown (see the module's docstring). Stops at a decision every deal shares
    (a two-card player choosing which card to lose is one), or at the end."""
    if game.is_over or game.phase not in _OPEN:
        return [(1.0, game)]
    p = game.decider
    moves = game.legal_moves()
    hand = game.hidden[p]
    if game.phase is Phase.LOSE:
        if len(hand) > 1:
            return [(1.0, game)]
        move = moves[0]
    else:
        shows = [m for m in moves if m.kind is MoveKind.SHOW]
        if shows:
            move = shows[0]
        elif len(hand) > 1:
            return [(1.0, game)]
        else:
            move = moves[0]
    return [(q * r, g) for q, after in outcomes(game, move) for r, g in _settle(after)]


def _open_loss(game: Game) -> bool:
    """A two-card player choosing the card to lose (after a Coup, an Assassination or a lost
    challenge): a public decision whose options differ between deals."""
    return game.phase in _OPEN and len(game.hidden[game.decider]) > 1


class TwoCardGraph(Lockstep[TwoNode]):
    """The public nodes of the duels where player 0 holds two cards and player 1 one card,
    having lost `lost`, expanded as a solver reaches them. Player 0's losses and Exchanges lead
    on within the same graph (to one card each), so a line is followed to the horizon whatever
    happens on the way."""

    def __init__(self, lost: Character, variant: str = "base") -> None:
        super().__init__()
        v = get_variant(variant)
        if v.name != "base":
            raise Unsupported(f"{v.name}: the two-card duel is solved for the base game only")
        self.variant = v.name
        self.lost = lost
        self.characters: tuple[Character, ...] = tuple(v.characters)
        court = Counter(v.court(2))
        court.subtract([lost])
        self.court = court
        two: list[Label] = [tuple(h) for h in hands(v.name)]
        one: list[Label] = [(c,) for c in self.characters]
        self.labels: tuple[tuple[Label, ...], tuple[Label, ...]] = (tuple(two + one), tuple(one))
        self.sizes = (len(self.labels[0]), len(self.labels[1]))
        self._index = ({h: i for i, h in enumerate(self.labels[0])},
                       {h: i for i, h in enumerate(self.labels[1])})
        self._char = {c: k for k, c in enumerate(self.characters)}
        self.worlds: tuple[World, ...] = tuple(
            (h, c) for h in range(len(two)) for c in range(len(one))
            if self._dealable(self.labels[0][h] + self.labels[1][c]))
        self._exchange_cache: dict[tuple[int, int, tuple[Character, ...]],
                                   list[tuple[float, tuple[int, ...], int]]] = {}

    def _dealable(self, cards: tuple[Character, ...]) -> bool:
        return all(self.court[c] >= k for c, k in Counter(cards).items())

    def label(self, player: int, hand: tuple[Character, ...] | list[Character]) -> int:
        """The label of a hand (in any order)."""
        key = tuple(sorted(hand, key=self._char.__getitem__))
        return self._index[player][key]

    # -- the deal -------------------------------------------------------------------------
    def deal_chance(self, world: World) -> float:
        """The chance that a shuffled court (less player 1's lost card) deals player 0 this
        hand and player 1 this card."""
        hand, card = self.labels[0][world[0]], self.labels[1][world[1]]
        total = sum(self.court.values())
        a, b = hand
        if a == b:
            pair = self.court[a] / total * (self.court[a] - 1) / (total - 1)
        else:
            pair = 2 * self.court[a] / total * self.court[b] / (total - 1)
        left = self.court[card[0]] - hand.count(card[0])
        return pair * left / (total - 2)

    def game(self, world: World, coins: tuple[int, int], first: int) -> Game:
        hand, card = self.labels[0][world[0]], self.labels[1][world[1]]
        rest = Counter(self.court)
        rest.subtract([*hand, *card])
        g = Game(names=["P1", "P2"], hands=[list(hand), list(card)], revealed=[[], [self.lost]],
                 coins=list(coins), deck=sorted(rest.elements()), first=first,
                 variant=get_variant(self.variant))
        g.chance = NO_DRAWS
        g.log = []
        return g

    def root(self, coins: tuple[int, int], first: int) -> int:
        with self._lock:
            return self._add({w: self.game(w, coins, first) for w in self.worlds})

    # -- building ---------------------------------------------------------------------------
    def _world(self, game: Game) -> World:
        return (self.label(0, game.hidden[0]), self.label(1, game.hidden[1]))

    def _add(self, games: dict[World, Game]) -> int:
        live = tuple(sorted(games))
        some = games[live[0]]
        key = (some.position_key(), live)
        i = self._keys.get(key)
        if i is None:
            i = self._keys[key] = len(self.nodes)
            shown = self._char[some.revealed[0][0]] if some.revealed[0] else -1
            self.nodes.append(TwoNode(-1 if some.is_over else some.decider, some.phase,
                                      (some.coins[0], some.coins[1]), shown=shown))
            self._games[i] = games
        return i

    def live(self, i: int) -> tuple[World, ...]:
        """The deals still possible at node `i` (before it is expanded)."""
        return tuple(sorted(self._games[i]))

    def _edges(self, games: dict[World, Game]) -> list[Edge]:
        some = next(iter(games.values()))
        if _open_loss(some):
            moves: list[Move] = []
            for g in games.values():
                moves.extend(m for m in g.legal_moves() if m not in moves)
            order = {c: k for k, c in enumerate(self.characters)}
            moves.sort(key=lambda m: (m.kind is not MoveKind.LOSE,
                                      order.get(m.character, -1) if m.character else -1))
        else:
            moves = list(some.legal_moves())
        return [self._edge(games, move) for move in moves]

    def _edge(self, games: dict[World, Game], move: Move) -> Edge:
        public = self._public_edge(games, move) or self._exchange_edge(games, move)
        if public is not None:
            return public
        edge = Edge(move)
        going: dict[World, list[_Step]] = {}
        for w, g in games.items():
            if move not in g.legal_moves():
                if not _open_loss(g):
                    raise Unsupported(f"{move} is legal in some deals and not in others")
                edge.over[w] = 0.0 if g.decider == 0 else 1.0  # a card this hand lacks
                continue
            results = [(p * q, r) for p, after in outcomes(g, move) for q, r in _settle(after)]
            ends = [r for _, r in results if r.is_over]
            if ends:
                if len(ends) < len(results) or any(r.winner != ends[0].winner for r in ends):
                    raise Unsupported(f"{move}: a draw decides how the game goes on")
                edge.over[w] = 1.0 if ends[0].winner == 0 else 0.0
                continue
            going[w] = self._transitions(w, results)
        if not going:
            return edge
        child: dict[World, Game] = {}
        for ts in going.values():
            for t in ts:
                if t.after not in child:
                    child[t.after] = t.game if t.game is not None else _kept(t)
        edge.child = self._add(child)
        edge.stages = self._stages(move, going, bool(edge.over))
        return edge

    def _public_edge(self, games: dict[World, Game], move: Move) -> Edge | None:
        """The edge of a move no hidden card can change, played in one deal only: a declared
        action, a block, or a pass that draws nothing, when it leaves every hand and the deck
        as they were (a forced loss, a draw or the game's end go the long way, deal by deal).
        Every other deal's game after it is that game with the deal's own hands and deck: a
        copy, a third of the cost of playing the move again in each of some 74 deals."""
        if move.kind not in PUBLIC_KINDS:
            return None
        w0, g0 = next(iter(games.items()))
        results = [r for _, after in outcomes(g0, move) for _, r in _settle(after)]
        if len(results) != 1:
            return None
        r0 = results[0]
        return self._copied_edge(games, move, w0, g0, r0)

    def _exchange_edge(self, games: dict[World, Game], move: Move) -> Edge | None:
        """The edge of a pass that lets an Exchange go ahead, without playing it in every
        deal: what an Exchange draws and offers depends only on the exchanger's hand and the
        deck, so it is asked of the engine once per hand and deck (`_exchange_cache`), and
        the game after it (the turn over, the same in every deal but for the hands and the
        deck) is played once and copied with each deal's own."""
        if move.kind is not MoveKind.PASS:
            return None
        w0, g0 = next(iter(games.items()))
        _, r0 = next(outcomes(g0, move))
        if (r0.is_over or r0.phase is not Phase.EXCHANGE or r0.hidden != g0.hidden
                or any(move not in g.legal_moves() for g in games.values())):
            return None
        x = r0.decider
        going: dict[World, list[_Step]] = {}
        for w, g in games.items():
            key = (x, w[x], tuple(sorted(g.deck)))
            entries = self._exchange_cache.get(key)
            if entries is None:
                entries = self._exchange_cache[key] = self._exchange_entries(w, g, move)
            going[w] = [_Step(p, seen, _with(w, x, kept), None, x, True)
                        for p, seen, kept in entries]
        own = next(m for m in r0.legal_moves()
                   if m.cards is not None and self.label(x, m.cards) == w0[x])
        template = _kept(_Step(1.0, (), w0, None, x, True, (r0, own)))
        child: dict[World, Game] = {}
        for ts in going.values():
            for t in ts:
                if t.after not in child:
                    child[t.after] = self._rebase(template, t.after)
        edge = Edge(move)
        edge.child = self._add(child)
        edge.stages = self._stages(move, going, False)
        return edge

    def _exchange_entries(self, w: World, g: Game, move: Move
                          ) -> list[tuple[float, tuple[int, ...], int]]:
        """An Exchange's draws in deal `w` as the engine makes them: (chance, the cards drawn,
        a hand the exchanger may keep), once per hand it may keep."""
        out = []
        for p, r in outcomes(g, move):
            x = r.decider
            pool = Counter(r.exchange_pool())
            pool.subtract(self.labels[x][w[x]])
            seen = tuple(sorted(self._char[c] for c in pool.elements()))
            for keep in r.legal_moves():
                assert keep.cards is not None
                out.append((p, seen, self.label(x, keep.cards)))
        return out

    def _rebase(self, template: Game, world: World) -> Game:
        """`template` with the hands of `world`, and the deck the rest of the court."""
        twin = template.clone(NO_DRAWS)
        hands = [list(self.labels[0][world[0]]), list(self.labels[1][world[1]])]
        rest = Counter(self.court)
        rest.subtract([*hands[0], *hands[1], *template.revealed[0]])
        twin.hidden = hands
        twin.deck = sorted(rest.elements())
        return twin

    @staticmethod
    def _stages(move: Move, going: dict[World, list[_Step]], some_end: bool) -> tuple[Stage, ...]:
        """The private steps from the deals going on to the child's deals, one hand at a time:
        first a hand that changes the same way whatever is drawn (the card left after losing
        one), then a hand that changes by a draw or a choice (an Exchange, a replacement).
        Where only some deals go on and no hand changes, one identity step carries them."""
        fixed: set[int] = set()
        varied: set[int] = set()
        for w, ts in going.items():
            for q in (0, 1):
                drawn = any(t.changer == q and (t.seen or t.exchange) for t in ts)
                if drawn or len({t.after[q] for t in ts}) > 1:
                    varied.add(q)
                elif ts[0].after[q] != w[q]:
                    fixed.add(q)
        fixed -= varied
        if len(fixed) > 1 or len(varied) > 1:
            raise Unsupported(f"{move}: both hands change")
        stages: list[Stage] = []
        first = dict.fromkeys(going, ())
        if fixed:
            q = next(iter(fixed))
            mid = {w: _with(w, q, ts[0].after[q]) for w, ts in going.items()}
            if len(set(mid.values())) < len(mid):
                raise Unsupported(f"{move}: two deals become one")
            stages.append(Stage(q, tuple(Swap(w, 1.0, (), m[q], m) for w, m in mid.items()),
                                True))
        else:
            mid = {w: w for w in going}
        if varied:
            x = next(iter(varied))
            stages.append(Stage(x, tuple(Swap(mid[w], t.chance, t.seen, t.after[x], t.after)
                                         for w, ts in going.items() for t in ts),
                                not any(t.exchange for ts in going.values() for t in ts)))
        if not stages and some_end:
            stages.append(Stage(0, tuple(Swap(w, 1.0, (), w[0], w) for w in first), True))
        return tuple(stages)

    def _transitions(self, w: World, results: list[tuple[float, Game]]) -> list[_Step]:
        """Where world `w` goes after a move: an Exchange's draw is listed once per hand it may
        keep, a replacement drawn after showing a card once per card it may be."""
        out: list[_Step] = []
        drawn = len(results) > 1
        for p, r in results:
            if r.phase is Phase.EXCHANGE:
                x = r.decider
                pool = Counter(r.exchange_pool())
                pool.subtract(self.labels[x][w[x]])
                seen = tuple(sorted(self._char[c] for c in pool.elements()))
                other = self.label(1 - x, r.hidden[1 - x])
                for keep in r.legal_moves():
                    # the hand kept is the move's own cards: the game after it is played only
                    # for a world no other step reaches first (see `_edge`)
                    assert keep.cards is not None
                    after = _with((other, other), x, self.label(x, keep.cards))
                    after = _with(after, 1 - x, other)
                    out.append(_Step(p, seen, after, None, x, True, (r, keep)))
                continue
            after = self._world(r)
            if drawn:  # a replacement: whose hand differs between the draws is who drew
                x = 1 if len({self._world(g)[1] for _, g in results}) > 1 else 0
                out.append(_Step(p, tuple(sorted(self._char[c] for c in r.hidden[x])), after,
                                 r, x))
            else:
                out.append(_Step(p, (), after, r,
                                 next((x for x in (0, 1) if after[x] != w[x]), -1)))
        return out


def _with(w: World, q: int, label: int) -> World:
    return (label, w[1]) if q == 0 else (w[0], label)


@dataclass(frozen=True)
class _Step:
    """One way a world goes on after an edge: its chance, what the changing hand's holder saw
    (drawn cards), the world after, its game, and whose hand changed (-1: neither)."""

    chance: float
    seen: tuple[int, ...]
    after: World
    game: Game | None  # None: an Exchange's keep, played when needed from `keep`
    changer: int
    exchange: bool = False
    keep: tuple[Game, Move] | None = None


def _kept(step: _Step) -> Game:
    """The game after an Exchange's keep (which draws nothing and ends the turn)."""
    assert step.keep is not None
    game, move = step.keep
    kept = [g for _, after in outcomes(game, move) for _, g in _settle(after)]
    if len(kept) != 1:
        raise Unsupported("a draw after an Exchange's keep")
    return kept[0]


def two_card_graph(lost: Character, variant: str = "base") -> TwoCardGraph:
    """One graph per lost card, kept for the process (as `public.public_graph`): a second
    position with the same lost card reuses every node the first one expanded."""
    return _two_card_graph(lost, variant)


@lru_cache(maxsize=8)
def _two_card_graph(lost: Character, variant: str) -> TwoCardGraph:
    return TwoCardGraph(lost, variant)
