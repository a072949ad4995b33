"""Hidden-role end-games: each player sees only their own card, and bluffing is part of play.

The method: discounted CFR (Brown and Sandholm's DCFR, α = 3/2, β = 0, γ = 2: regret matching,
positive regrets discounted by t^α/(t^α + 1) and negative ones halved each iteration, the
average strategy's past weighed by (t/(t + 1))^γ; alternating updates). On the four-turn trees
of `bench/endgame.py`'s sample it reached 0.1 points of exploitability in two thirds of CFR+'s
iterations (900 against 1,340, fewer on every position), with options the strategy plays no
further apart (at most 0.6 points, against 0.8). It runs on the public tree, with every
quantity a vector over the players' private states, so one pass over the tree serves every
deal at once. The tree is cut at a horizon of whole turns;
a position on the horizon is valued as if both cards were face up (the known-role table), which
is exact for the many lines that end before it and an estimate beyond.

Private states. Before any Exchange a player's private state is their card. An Exchange adds
what the exchanger saw: the cards drawn and the card kept. Two such histories with the same card
kept and the same chances over the other player's states (as when the same three cards passed
through the hand, in any order) are merged into one state: they face the same future with
proportional weights, so one strategy serves both exactly. `Space` holds the private states of
both players and the chance of each pair.

Exploitability is exact: a best response for each player against the other's average strategy,
computed on the same tree; `Solution.exploitability` is half their summed gain (OpenSpiel's
definition), in win probability.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from trainer.endgame import kernel
from trainer.endgame.known import no_cycle_collection
from trainer.endgame.public import Edge, Node, PublicGraph, Swap, World, public_graph
from trainer.endgame.public_two import TwoCardGraph
from trainer.engine.cards import Character
from trainer.engine.game import Phase
from trainer.engine.moves import Move

Leaf = Callable[[tuple[int, int], int], np.ndarray]
NodeLeaf = Callable[[Node], np.ndarray]  # the horizon's value of a public node, by deal
# Ways of playing on from the horizon, each player choosing one unseen by the other:
# `continuations(coins, first)[k0, k1]` is player 0's chance of winning by deal (as a `Leaf`'s
# table) when player 0 plays on in the k0-th way and player 1 in the k1-th (a leaf game: see
# `_unroll`).
Continuations = Callable[[tuple[int, int], int], np.ndarray]
NodeContinuations = Callable[[Node], np.ndarray]
Graph = PublicGraph | TwoCardGraph


def _sizes(graph: Graph) -> tuple[int, int]:
    """How many hand labels each player has: one per card in the duel of one card each."""
    return graph.sizes
SwapTable = dict[World, list[tuple[float, tuple[int, ...], int]]]


@dataclass
class Space:
    """Private states of both players: `cards[p][s]` is the card (index) of p's state s, and
    `chance[s0, s1]` the chance of the deal and draws that lead to that pair of states."""

    cards: tuple[np.ndarray, np.ndarray]
    chance: np.ndarray


@dataclass
class Swaps:
    """An Exchange seen from the private states: each (state, cards drawn) is an information
    set of the exchanger, each card it may keep a slot; `token[j]` is the state the slot
    leads to in the space after, `frac[j]` that slot's share of its chance."""

    space: int
    info_state: np.ndarray  # per information set: the exchanger's state before
    info_drawn: list[tuple[int, ...]]
    slot_info: np.ndarray
    slot_kept: np.ndarray
    token: np.ndarray
    frac: np.ndarray


class Spaces:
    """The private-state spaces met in a solve, and the Exchanges between them."""

    def __init__(self, graph: Graph, deal: np.ndarray | None = None) -> None:
        n0, n1 = _sizes(graph)
        chance = np.zeros((n0, n1))
        for w in graph.worlds:
            chance[w] = graph.deal_chance(w) if deal is None else deal[w]
        if chance.sum() <= 0:
            raise ValueError("the deal gives no pair of cards a chance")
        chance /= chance.sum()
        self.graph = graph
        self.spaces = [Space((np.arange(n0), np.arange(n1)), chance)]
        self._swaps: dict[tuple[int, int, int], Swaps] = {}

    def swaps(self, space: int, x: int, edge_swaps: tuple[Swap, ...],
              private: bool = False) -> Swaps:
        """The Exchange of player `x` from `space`: what it draws and keeps depends on the
        deal alone, so it is worked out once per space and exchanger. A `private` step (a
        lost card, a replacement: `Edge.private`) is the edge's own, kept per edge (the graph
        keeps the edge's tuple alive, so its id stays its own)."""
        key = (space, x, id(edge_swaps) if private else 0)
        found = self._swaps.get(key)
        if found is None:
            found = self._swaps[key] = self._exchange(space, x, _swap_table(edge_swaps))
        return found

    def _exchange(self, g: int, x: int, table: SwapTable) -> Swaps:
        sp = self.spaces[g]
        mine, theirs = sp.cards[x], sp.cards[1 - x]
        chance = sp.chance if x == 0 else sp.chance.T
        rows, keeps = _exchange_rows(chance, mine, theirs, x, table)
        groups: dict[tuple[int, bytes], int] = {}
        new_rows: list[np.ndarray] = []
        new_cards: list[int] = []
        info_state: list[int] = []
        info_drawn: list[tuple[int, ...]] = []
        slot_info: list[int] = []
        slot_kept: list[int] = []
        token: list[int] = []
        weight: list[float] = []
        for (s, drawn), row in sorted(rows.items()):
            total = row.sum()
            shape = np.round(row / total, 12).tobytes()
            info = len(info_state)
            info_state.append(s)
            info_drawn.append(drawn)
            for kept in sorted(keeps[(s, drawn)]):
                m = groups.get((kept, shape))
                if m is None:
                    m = groups[(kept, shape)] = len(new_rows)
                    new_rows.append(np.zeros(len(theirs)))
                    new_cards.append(kept)
                new_rows[m] += row
                slot_info.append(info)
                slot_kept.append(kept)
                token.append(m)
                weight.append(float(total))
        merged = np.array(new_rows)
        frac = np.array(weight) / merged.sum(axis=1)[token]
        cards = np.array(new_cards)
        space = Space((cards, theirs) if x == 0 else (theirs, cards),
                      merged if x == 0 else merged.T)
        self.spaces.append(space)
        return Swaps(len(self.spaces) - 1, np.array(info_state), info_drawn,
                     np.array(slot_info), np.array(slot_kept), np.array(token), frac)


# Node kinds of the unrolled tree. A SUM node adds its children's values and passes every
# reach on unchanged: an edge that ends the game in some deals and goes on in the others is a
# SUM of the ends (a UTILITY node weighing only those deals) and of the deals going on (an
# EXCHANGE-like step that carries only them into the next space).
DECISION, EXCHANGE, UTILITY, SUM = 0, 1, 2, 3


@dataclass
class _Tree:
    """The public tree to the horizon, in levels; rows are (node, private state) pairs."""

    kind: list[int] = field(default_factory=list)
    space: list[int] = field(default_factory=list)
    level: list[int] = field(default_factory=list)
    decider: list[int] = field(default_factory=list)
    public: list[int] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    moves: list[list[Move]] = field(default_factory=list)
    utility: list[np.ndarray | None] = field(default_factory=list)
    swaps: list[Swaps | None] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    cut: list[bool] = field(default_factory=list)  # valued by the known-role table

    def add(self, kind: int, space: int, level: int, decider: int, public: int,
            turns: int) -> int:
        self.kind.append(kind)
        self.space.append(space)
        self.level.append(level)
        self.decider.append(decider)
        self.public.append(public)
        self.children.append([])
        self.moves.append([])
        self.utility.append(None)
        self.swaps.append(None)
        self.turns.append(turns)
        self.cut.append(False)
        return len(self.kind) - 1


Rows = dict[tuple[int, tuple[int, ...]], np.ndarray]


def _exchange_rows(chance: np.ndarray, mine: np.ndarray, theirs: np.ndarray, x: int,
                   table: SwapTable) -> tuple[Rows, dict[tuple[int, tuple[int, ...]], set[int]]]:
    """The information sets of an Exchange by player `x`: for each of its states `s` and
    cards it may draw, the chance of each of the other's states with that draw (`chance`:
    the space's, the exchanger's states as rows), and the cards it may then keep.

    Why state by state and not pair by pair: after a few Exchanges a space can pair
    thousands of states with thousands, most pairs without a chance, and a Python step per
    pair was most of the time it took to unroll a tree of two cards against one."""
    rows: Rows = {}
    keeps: dict[tuple[int, tuple[int, ...]], set[int]] = {}
    draws = _draws_by_card(table, x, int(theirs.max()) + 1 if len(theirs) else 0)
    for s in range(len(mine)):
        ts = np.flatnonzero(chance[s])
        if not ts.size:
            continue
        labels = theirs[ts]
        for drawn, (p, met, kept_by) in draws.get(int(mine[s]), {}).items():
            if not met[labels].any():
                continue
            row = np.zeros(len(theirs))
            row[ts] = chance[s, ts] * p[labels]  # 0 where the other's card rules it out
            rows[(s, drawn)] = row
            keeps[(s, drawn)] = {k for k, at in kept_by.items() if at[labels].any()}
    return rows, keeps


def _draws_by_card(table: SwapTable, x: int, labels: int) -> dict[
        int, dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, dict[int, np.ndarray]]]]:
    """An Exchange's table by the exchanger's card (player `x`'s), then by the cards drawn:
    the draw's chance by the other's card, where the draw can happen at all, and for each
    card that may be kept, where it may. Each draw has one chance in a deal (the table lists
    it once per card that may be kept), so a pair's row holds that chance times the pair's,
    the product the pair by pair walk made."""
    out: dict[int, dict[tuple[int, ...], tuple[np.ndarray, np.ndarray,
                                                   dict[int, np.ndarray]]]] = {}
    for world, entries in table.items():
        a, b = (world[0], world[1]) if x == 0 else (world[1], world[0])
        if b >= labels:
            continue  # no state of the other holds this card here
        for p, drawn, kept in entries:
            by = out.setdefault(a, {})
            if drawn not in by:
                by[drawn] = (np.zeros(labels), np.zeros(labels, dtype=bool), {})
            chance, met, kept_by = by[drawn]
            if met[b] and chance[b] != p:
                raise ValueError(f"the draw {drawn} has two chances in the deal {world}")
            chance[b], met[b] = p, True
            kept_by.setdefault(kept, np.zeros(labels, dtype=bool))[b] = True
    return out


def _swap_table(edge_swaps: tuple[Swap, ...]) -> SwapTable:
    """An Exchange's draws and keeps, by deal: (chance of the draw, cards drawn, card kept)."""
    table: SwapTable = {}
    for s in edge_swaps:
        table.setdefault(s.world, []).append((s.chance, s.drawn, s.kept))
    return table


def _choosing(sizes: tuple[int, int], k: int) -> tuple[tuple[Swap, ...], tuple[Swap, ...]]:
    """The two private steps of a leaf game with `k` ways of playing on, as Exchanges that draw
    nothing: player 0 keeps "card a, way k0" (label a + k0·n0), then player 1 keeps "card b,
    way k1" (label b + k1·n1). Each step is its player's own information set (state and
    nothing drawn), so player 1 chooses without seeing player 0's choice."""
    n0, n1 = sizes
    first = tuple(Swap((a, b), 1.0, (), a + j * n0, (a + j * n0, b))
                  for a in range(n0) for b in range(n1) for j in range(k))
    second = tuple(Swap((a, b), 1.0, (), b + j * n1, (a, b + j * n1))
                   for a in range(k * n0) for b in range(n1) for j in range(k))
    return first, second


def _unroll(graph: Graph, spaces: Spaces, root: int, horizon: int, leaf: Leaf | None,
            exchanges: int, node_leaf: NodeLeaf | None = None,
            continuations: NodeContinuations | None = None) -> _Tree:
    """The public tree from `root` to the horizon. At the horizon a line is valued by
    `node_leaf` (by deal), or, given `continuations`, by a leaf game (`leaf_game` below)."""
    tree = _Tree()
    sizes = _sizes(graph)
    if node_leaf is None:
        assert leaf is not None
        one_card = leaf

        def node_leaf(node: Node) -> np.ndarray:
            return one_card(node.coins, node.decider)
    # an edge's ends as a table, once per edge of the public graph (an edge is reached along
    # many lines; the graph keeps its `over` alive, so its id stays its own while we unroll)
    over_cache: dict[int, np.ndarray] = {}

    def over_matrix(over: dict[World, float], masked: bool = False) -> np.ndarray:
        """The ends of an edge; `masked`: NaN (no weight) in the deals that go on."""
        u = over_cache.get(id(over))
        if u is None:
            u = np.full(sizes, np.nan) if masked else np.zeros(sizes)
            for w, value in over.items():
                u[w] = value
            over_cache[id(over)] = u
        return u

    def visit(pub: int, space: int, level: int, turns: int, swapped: int = 0) -> int:
        node: Node = graph.node(pub)
        if node.turn_start and (turns >= horizon or swapped >= exchanges):
            if continuations is not None:
                return leaf_game(node, pub, space, level, turns)
            i = tree.add(UTILITY, space, level, -1, pub, turns)
            tree.utility[i] = node_leaf(node)
            tree.cut[i] = True
            return i
        i = tree.add(DECISION, space, level, node.decider, pub, turns)
        for edge in node.edges:
            tree.moves[i].append(edge.move)
            if edge.stages:
                j = staged(edge, space, level + 1, turns, swapped)
            elif edge.over:
                j = tree.add(UTILITY, space, level + 1, -1, -1, turns)
                tree.utility[j] = over_matrix(edge.over)
            elif edge.exchanger >= 0:
                sw = spaces.swaps(space, edge.exchanger, edge.swaps)
                j = tree.add(EXCHANGE, space, level + 1, edge.exchanger, -1, turns)
                tree.swaps[j] = sw
                child = graph.node(edge.child)
                tree.children[j].append(visit(edge.child, sw.space, level + 2,
                                              turns + child.turn_start, swapped + 1))
            else:
                child = graph.node(edge.child)
                j = visit(edge.child, space, level + 1, turns + child.turn_start, swapped)
            tree.children[i].append(j)
        return i

    def staged(edge: Edge, space: int, level: int, turns: int, swapped: int) -> int:
        """An edge of the two-card duel: its private steps one after another (EXCHANGE
        nodes, each into its own space), after a SUM with the deals it ends, if any."""
        top = -1
        parent = -1
        if edge.over:
            top = parent = tree.add(SUM, space, level, -1, -1, turns)
            u = tree.add(UTILITY, space, level + 1, -1, -1, turns)
            tree.utility[u] = over_matrix(edge.over, masked=True)
            tree.children[parent].append(u)
            level += 1
        for stage in edge.stages:
            sw = spaces.swaps(space, stage.player, stage.swaps, private=True)
            k = tree.add(EXCHANGE, space, level, stage.player, -1, turns)
            tree.swaps[k] = sw
            if parent >= 0:
                tree.children[parent].append(k)
            else:
                top = k
            parent, space, level = k, sw.space, level + 1
            swapped += not stage.private
        child = graph.node(edge.child)
        tree.children[parent].append(visit(edge.child, space, level, turns + child.turn_start,
                                           swapped))
        return top

    steps: dict[int, tuple[tuple[Swap, ...], tuple[Swap, ...]]] = {}

    def leaf_game(node: Node, pub: int, space: int, level: int, turns: int) -> int:
        """The horizon as Brown, Sandholm and Amos's leaf game: player 0 picks one of k ways
        of playing on (knowing their own card and what they saw), player 1 picks one without
        seeing it, and the end is player 0's chance of winning under that pair of ways."""
        assert continuations is not None
        v = np.asarray(continuations(node), dtype=np.float64)
        k = v.shape[0]
        if v.shape != (k, k, *sizes):
            raise ValueError(f"continuations give a table of shape {v.shape}; expected "
                             f"(k, k, {sizes[0]}, {sizes[1]})")
        if k not in steps:
            if steps:
                raise ValueError("every leaf game of a tree needs the same number of ways")
            steps[k] = _choosing(sizes, k)
        first, second = steps[k]
        top = tree.add(EXCHANGE, space, level, 0, pub, turns)
        sw0 = spaces.swaps(space, 0, first, private=True)
        tree.swaps[top] = sw0
        tree.cut[top] = True
        mid = tree.add(EXCHANGE, sw0.space, level + 1, 1, -1, turns)
        sw1 = spaces.swaps(sw0.space, 1, second, private=True)
        tree.swaps[mid] = sw1
        end = tree.add(UTILITY, sw1.space, level + 2, -1, -1, turns)
        tree.utility[end] = v.transpose(0, 2, 1, 3).reshape(k * sizes[0], k * sizes[1])
        tree.children[top].append(mid)
        tree.children[mid].append(end)
        return top

    visit(root, 0, 0, 0)
    if steps:
        # Every end's table in the leaf games' labels (card and way), so that ends stack;
        # a state of a space before the leaf games never has a label past the cards.
        (k,) = steps
        padded: dict[int, np.ndarray] = {}
        for i, u in enumerate(tree.utility):
            if u is not None and u.shape == sizes:
                found = padded.get(id(u))
                if found is None:
                    found = padded[id(u)] = np.full((k * sizes[0], k * sizes[1]), np.nan)
                    found[:sizes[0], :sizes[1]] = u
                tree.utility[i] = found
    return tree


class _Infos:
    """The information set of (node, state) at a decision, of (node, state, drawn) at an
    Exchange: a decision's sets are numbered in a block per node, one per state."""

    def __init__(self) -> None:
        self.decision: dict[int, int] = {}  # node -> its first information set
        self.exchange: dict[tuple[object, ...], int] = {}

    def __getitem__(self, key: tuple[object, ...]) -> int:
        if len(key) == 2:
            node, state = key
            assert isinstance(node, int | np.integer) and isinstance(state, int | np.integer)
            return self.decision[int(node)] + int(state)
        return self.exchange[key]


@dataclass
class _Flow:
    """One player's part of the tree as flat arrays: rows, slots (actions of their
    information sets) and the links along which reach flows down and values flow up."""

    rows: int
    row_start: np.ndarray  # per node
    # links, level by level: child row <- parent row, times the slot's probability (or 1)
    link_level: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]
    slots: int
    slot_info: np.ndarray  # information set of each slot
    info_row: np.ndarray  # the row each information set hangs from
    info_start: np.ndarray  # first slot of each information set
    slot_child: np.ndarray
    slot_coef: np.ndarray
    infos: _Infos = field(default_factory=_Infos)
    # per level: the span of child rows and of parent rows its links touch
    dst_span: list[tuple[int, int]] = field(default_factory=list)
    src_span: list[tuple[int, int]] = field(default_factory=list)
    # every link in level order, of which `link_level` holds views, and where each level
    # starts: the run the compiled loops read (None for a flow laid out by hand)
    links: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None


def _exclusive(counts: np.ndarray) -> np.ndarray:
    """Where each block starts when blocks of these sizes are laid end to end."""
    out: np.ndarray = np.cumsum(counts) - counts
    return out


def _flows(tree: _Tree, spaces: Spaces) -> tuple[_Flow, _Flow]:
    """Both players' flat arrays, in the order the solver's sums expect: nodes by level, and
    within a level node by node; at a decision of the player, state by state and then option
    by option (an information set's slots together), at any other node child by child and
    then state by state.

    Why whole-array arithmetic: a duel's tree has some ten thousand nodes, and listing their
    links a node at a time in Python took half a second a solve. Every link is numbered here
    by its parent and its place in the parent's block, and its rows and slot follow from the
    blocks' starts. Only the player's Exchanges, a few per tree, are laid out one by one."""
    n = len(tree.kind)
    level = np.asarray(tree.level, dtype=np.int64)
    order = np.argsort(level, kind="stable")
    nk = np.fromiter((len(c) for c in tree.children), dtype=np.int64, count=n)
    kid_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(nk, out=kid_ptr[1:])
    kids = np.fromiter((k for c in tree.children for k in c), dtype=np.int64,
                       count=int(kid_ptr[-1]))
    kind = np.asarray(tree.kind, dtype=np.int64)
    decider = np.asarray(tree.decider, dtype=np.int64)
    space = np.asarray(tree.space, dtype=np.int64)
    depth = int(level.max()) + 1
    flows = []
    for p in (0, 1):
        size = np.array([len(sp.cards[p]) for sp in spaces.spaces], dtype=np.int64)[space]
        starts = np.zeros(n, dtype=np.int64)
        starts[order] = _exclusive(size[order])
        # the nodes with children, by level: each owns a block of links
        par = order[nk[order] > 0]
        mine = (decider[par] == p) & (kind[par] == DECISION)
        swapping = (decider[par] == p) & (kind[par] == EXCHANGE)
        swap_slots = np.zeros(len(par), dtype=np.int64)
        swap_infos = np.zeros(len(par), dtype=np.int64)
        for q in np.flatnonzero(swapping):
            sw = tree.swaps[int(par[q])]
            assert sw is not None
            swap_slots[q] = len(sw.slot_info)
            swap_infos[q] = len(sw.info_state)
        n_slot = np.where(mine, size[par] * nk[par], swap_slots)
        n_info = np.where(mine, size[par], swap_infos)
        n_link = np.where(swapping, swap_slots, size[par] * nk[par])
        slot_base, info_base, link_base = _exclusive(n_slot), _exclusive(n_info), \
            _exclusive(n_link)
        # every link: its parent's place in `par` and its place in the parent's block
        owner = np.repeat(np.arange(len(par)), n_link)
        j = np.arange(int(n_link.sum())) - link_base[owner]
        node = par[owner]
        dst = np.empty(len(j), dtype=np.int64)
        src = np.empty(len(j), dtype=np.int64)
        sig = np.full(len(j), -1, dtype=np.int64)
        coef = np.ones(len(j), dtype=np.float64)
        m = np.flatnonzero(mine[owner])  # state-major: state j // options, option j % options
        state, option = j[m] // nk[node[m]], j[m] % nk[node[m]]
        dst[m] = starts[kids[kid_ptr[node[m]] + option]] + state
        src[m] = starts[node[m]] + state
        sig[m] = slot_base[owner[m]] + j[m]
        o = np.flatnonzero(~(mine | swapping)[owner])  # child-major
        child, state_o = j[o] // size[node[o]], j[o] % size[node[o]]
        dst[o] = starts[kids[kid_ptr[node[o]] + child]] + state_o
        src[o] = starts[node[o]] + state_o
        n_slots, n_infos = int(n_slot.sum()), int(n_info.sum())
        slot_info = np.empty(n_slots, dtype=np.int64)
        slot_child = np.empty(n_slots, dtype=np.int64)
        slot_coef = np.ones(n_slots, dtype=np.float64)
        slot_child[sig[m]] = dst[m]
        slot_info[sig[m]] = info_base[owner[m]] + state
        info_row = np.empty(n_infos, dtype=np.int64)
        info_start = np.empty(n_infos, dtype=np.int64)
        decisions = np.flatnonzero(mine)  # one information set per state of the node
        who = np.repeat(decisions, n_info[decisions])
        st = np.arange(len(who)) - np.repeat(_exclusive(n_info[decisions]), n_info[decisions])
        info_row[info_base[who] + st] = starts[par[who]] + st
        info_start[info_base[who] + st] = slot_base[who] + st * nk[par[who]]
        infos = _Infos()
        infos.decision = {int(par[q]): int(info_base[q]) for q in decisions}
        for q in np.flatnonzero(swapping):
            i = int(par[q])
            sw = tree.swaps[i]
            assert sw is not None
            (k,) = tree.children[i]
            ib, sb, lb = int(info_base[q]), int(slot_base[q]), int(link_base[q])
            ni, ns = len(sw.info_state), len(sw.slot_info)
            for t, kept_state in enumerate(sw.info_state):
                infos.exchange[(i, int(kept_state), sw.info_drawn[t])] = ib + t
            info_row[ib:ib + ni] = starts[i] + sw.info_state
            # the slots of an information set are contiguous (sorted by set)
            info_start[ib:ib + ni] = sb + np.searchsorted(sw.slot_info, np.arange(ni))
            slot_info[sb:sb + ns] = ib + sw.slot_info
            slot_child[sb:sb + ns] = starts[k] + sw.token
            slot_coef[sb:sb + ns] = sw.frac
            dst[lb:lb + ns] = starts[k] + sw.token
            src[lb:lb + ns] = starts[i] + sw.info_state[sw.slot_info]
            sig[lb:lb + ns] = np.arange(sb, sb + ns)
            coef[lb:lb + ns] = sw.frac
        # the links are in their parents' order, so a level's links are one run
        bounds = np.searchsorted(level[node] + 1, np.arange(depth + 1))
        link_level = []
        dst_span = []
        src_span = []
        for d in range(depth):
            lo, hi = int(bounds[d]), int(bounds[d + 1])
            link_level.append((dst[lo:hi], src[lo:hi], sig[lo:hi], coef[lo:hi]))
            dst_span.append((int(dst[lo:hi].min()), int(dst[lo:hi].max()) + 1)
                            if hi > lo else (0, 0))
            src_span.append((int(src[lo:hi].min()), int(src[lo:hi].max()) + 1)
                            if hi > lo else (0, 0))
        level_ptr = bounds - bounds[0]
        run = (dst[bounds[0]:bounds[-1]], src[bounds[0]:bounds[-1]], sig[bounds[0]:bounds[-1]],
               coef[bounds[0]:bounds[-1]], level_ptr)
        flows.append(_Flow(int(size.sum()), starts, link_level, n_slots, slot_info, info_row,
                           info_start, slot_child, slot_coef, infos, dst_span, src_span, run))
    return flows[0], flows[1]


@dataclass
class _Utilities:
    """The utility nodes grouped by space: the rows of each node and the weights
    chance × outcome for player 0 (and 1 − outcome for player 1); `chance` per group weighs
    every end alike, for the chance of reaching a point rather than of winning from it.
    The numpy code reads these; the compiled loops read `_Ends`."""

    groups: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]
    chance: list[np.ndarray]
    outcome: list[np.ndarray]


def _utilities(tree: _Tree, spaces: Spaces, f0: _Flow, f1: _Flow) -> _Utilities:
    groups = []
    chances = []
    outcomes = []
    for g, nodes in _ends_by_space(tree).items():
        sp = spaces.spaces[g]
        c0, c1 = sp.cards
        # every end's (card, card) table, then the rows and columns of this space's cards
        # (one indexing of the stack, not one a node)
        ends = np.stack([tree.utility[i] for i in nodes])  # type: ignore[misc]
        u = ends[:, np.asarray(c0)[:, None], np.asarray(c1)[None, :]]
        # NaN: a deal that goes on past this end (an edge ending only some deals), no weight
        live = ~np.isnan(u)
        u = np.where(live, u, 0.0)
        chance = sp.chance[None] * live
        w0 = chance * u
        w1 = chance * (1.0 - u)
        rows0 = f0.row_start[nodes][:, None] + np.arange(len(c0))[None]
        rows1 = f1.row_start[nodes][:, None] + np.arange(len(c1))[None]
        groups.append((rows0, rows1, w0, w1))
        chances.append(np.ascontiguousarray(chance))
        outcomes.append(np.ascontiguousarray(u))
    return _Utilities(groups, chances, outcomes)


def _ends_by_space(tree: _Tree) -> dict[int, list[int]]:
    by_space: dict[int, list[int]] = {}
    for i, k in enumerate(tree.kind):
        if k == UTILITY:
            by_space.setdefault(tree.space[i], []).append(i)
    return by_space


@dataclass
class _Ends:
    """Every end of the tree for the compiled loops (`kernel.ends`), in one set of arrays.

    An end's rows are consecutive (`start0[e]` + player 0's state, `start1[e]` + player 1's).
    Its outcome is a table by deal: `outcome[e, deal, 0]` player 0's (0 where the deal goes on
    past it), `outcome[e, deal, 1]` 1 where the deal ends here, else 0. Its space (`space[e]`,
    numbered here) has `n0[g]` × `n1[g]` pairs of private states, whose chances are the
    space's own table, laid out in `chance` from `chance_at[g]` (the space's `chance` is made
    a view of it, so nothing is copied), and whose hands are `hand0[hand0_at[g] + i]` and
    `hand1[hand1_at[g] + j]`: the pair's deal is hand0 × `labels` + hand1. The loops work out
    both players' weights from these as they read them (the same products as the numpy code,
    so the same bits).

    Why: laid out per pair of private states and per end, as the numpy code has them, the
    weights were most of a deep solve's memory (4.6 of 8.7 GB for a duel of two cards against
    one four turns ahead, whose Exchanges make spaces of thousands of states, while an end's
    outcome is still one of 100 deals'); and a call into the compiled code per space (a
    thousand spaces in such a tree) cost more than the sums themselves."""

    start0: np.ndarray
    start1: np.ndarray
    space: np.ndarray
    outcome: np.ndarray
    n0: np.ndarray
    n1: np.ndarray
    chance_at: np.ndarray
    chance: np.ndarray
    hand0_at: np.ndarray
    hand0: np.ndarray
    hand1_at: np.ndarray
    hand1: np.ndarray
    labels: int
    # An end in a space of no more pairs of states than deals keeps its weights laid out per
    # pair, as the numpy code has them (no larger than its table by deal, and read in order,
    # which the loops do twice as fast): from `paired_at[e]` (-1 for the others), the pair's
    # chance where the deal ends here (`paired_chance`) and player 0's outcome
    # (`paired_outcome`), state by state of player 0.
    paired_at: np.ndarray
    paired_chance: np.ndarray
    paired_outcome: np.ndarray


def _compact_ends(tree: _Tree, spaces: Spaces, f0: _Flow, f1: _Flow) -> _Ends:
    by_space = _ends_by_space(tree)
    nodes = [i for g in by_space for i in by_space[g]]
    space = np.repeat(np.arange(len(by_space)), [len(v) for v in by_space.values()])
    if nodes:
        tables = np.stack([tree.utility[i] for i in nodes])  # type: ignore[misc]
    else:
        n_labels = _sizes(spaces.graph)
        tables = np.zeros((0, n_labels[0], n_labels[1]))
    flat = tables.reshape(len(nodes), -1)
    live = ~np.isnan(flat)
    outcome = np.ascontiguousarray(np.stack([np.where(live, flat, 0.0),
                                             live.astype(np.float64)], axis=2))
    used = [spaces.spaces[g] for g in by_space]
    n0 = np.array([len(sp.cards[0]) for sp in used], dtype=np.int64)
    n1 = np.array([len(sp.cards[1]) for sp in used], dtype=np.int64)
    chance_at = _exclusive(n0 * n1)
    chance = np.empty(int((n0 * n1).sum()))
    for k, sp in enumerate(used):
        # the space's table moves into the one buffer (a view of it from now on), one space
        # at a time, so that no second copy of them all is ever held
        view = chance[chance_at[k]:chance_at[k] + n0[k] * n1[k]].reshape(n0[k], n1[k])
        view[...] = sp.chance
        sp.chance = view

    def hands(p: int) -> tuple[np.ndarray, np.ndarray]:
        parts = [np.asarray(sp.cards[p], dtype=np.int64) for sp in used]
        joined = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        return _exclusive(np.array([len(x) for x in parts], dtype=np.int64)), joined

    paired_at = np.full(len(nodes), -1, dtype=np.int64)
    paired_chance: list[np.ndarray] = []
    paired_outcome: list[np.ndarray] = []
    at = 0
    e = 0
    for k, (g, members) in enumerate(by_space.items()):
        n = len(members)
        if n0[k] * n1[k] <= flat.shape[1]:
            c0, c1 = (np.asarray(c, dtype=np.int64) for c in spaces.spaces[g].cards)
            u = tables[e:e + n][:, c0[:, None], c1[None, :]]
            ends_here = ~np.isnan(u)
            paired_chance.append((spaces.spaces[g].chance[None] * ends_here).reshape(n, -1))
            paired_outcome.append(np.where(ends_here, u, 0.0).reshape(n, -1))
            paired_at[e:e + n] = at + np.arange(n) * n0[k] * n1[k]
            at += n * int(n0[k] * n1[k])
        e += n

    def joined(parts: list[np.ndarray]) -> np.ndarray:
        return np.concatenate([x.ravel() for x in parts]) if parts else np.zeros(0)

    idx = np.asarray(nodes, dtype=np.int64)
    return _Ends(f0.row_start[idx].astype(np.int64), f1.row_start[idx].astype(np.int64),
                 space.astype(np.int64), outcome, n0, n1, chance_at, chance, *hands(0),
                 *hands(1), int(tables.shape[2]), paired_at, joined(paired_chance),
                 joined(paired_outcome))


@dataclass(frozen=True)
class Option:
    """One option of the player to act, holding `card`, under equilibrium play after it:
    the mover's chance of winning (`value`), what it costs against the best option
    (`loss`, in win probability), how often the equilibrium plays it (`frequency`), and the
    mover's chance against each card the other player may hold (`against`)."""

    move: Move
    text: str
    value: float
    loss: float
    frequency: float
    against: dict[Character, float]


class InTree:
    """What a game played out against a solution needs inside its tree (the duel of one card
    each and of two cards against one alike): each decision's options with their values and
    frequencies, what a player should believe of the other's hand, and the deal to solve
    again from at the horizon. Hands are the graph's labels (`graph.labels`)."""

    tree: _Tree
    flows: tuple[_Flow, _Flow]
    strategy: tuple[np.ndarray, np.ndarray]
    solver: _Solver
    spaces: Spaces
    graph: Graph
    _cf: dict[int, tuple[np.ndarray, np.ndarray]]
    _reach: list[np.ndarray] | None

    def _counterfactual(self, p: int) -> tuple[np.ndarray, np.ndarray]:
        """Player p's counterfactual values of every row, and the weights that turn them
        into win chances."""
        found = self._cf.get(p)
        if found is None:
            sigma = list(self.strategy)
            reach = self.solver.reach(sigma, players=(1 - p,))
            found = self._cf[p] = (
                self.solver.values(reach, sigma, players=(p,))[p],
                self.solver.values(reach, sigma, players=(p,), weights=True)[p])
        return found

    def choices(self, node: int, state: int,
                drawn: tuple[int, ...] | None = None) -> list[Choice]:
        """The options of the player deciding at `node` of the tree, in private state
        `state` (and at an Exchange, having drawn `drawn`), in the node's order: each one's
        win chance when both play the solution from there, and how often the solution
        takes it. The win chance weighs the other player's cards by how likely each is to
        have played the moves that led here."""
        d = self.tree.decider[node]
        f = self.flows[d]
        v, w = self._counterfactual(d)
        if self.tree.kind[node] == DECISION:
            start = int(f.info_start[f.infos[(node, state)]])
            picks: list[tuple[Move | None, tuple[Character, ...] | None, int]] = [
                (m, None, -1) for m in self.tree.moves[node]]
        elif self.tree.kind[node] == EXCHANGE:
            sw = self.tree.swaps[node]
            assert sw is not None and drawn is not None
            start = int(f.info_start[f.infos[(node, state, drawn)]])
            local = next(k for k, (s, dr) in enumerate(zip(sw.info_state, sw.info_drawn,
                                                             strict=True))
                         if s == state and dr == drawn)
            picks = [(None, self.graph.labels[d][int(sw.slot_kept[j])], int(sw.token[j]))
                     for j in np.flatnonzero(sw.slot_info == local)]
        else:
            return []
        out = []
        for k, (move, hand, token) in enumerate(picks):
            child = int(f.slot_child[start + k])
            value = float(v[child] / w[child]) if w[child] > 0 else float("nan")
            kept = hand[0] if hand is not None and len(hand) == 1 else None
            out.append(Choice(k, move, kept, token, value,
                              float(self.strategy[d][start + k]), hand))
        return out

    def belief_hands(self, node: int, player: int, state: int
                     ) -> dict[tuple[Character, ...], float]:
        """What `player`, in private state `state` at `node`, should make of the other
        player's hand: the deal's chances weighed by how likely each hand was to play the
        moves that led here."""
        o = 1 - player
        if self._reach is None:
            self._reach = self.solver.reach(list(self.strategy))
        sp = self.spaces.spaces[self.tree.space[node]]
        start = int(self.flows[o].row_start[node])
        reach = self._reach[o][start:start + len(sp.cards[o])]
        weight = (sp.chance[state] if player == 0 else sp.chance[:, state]) * reach
        total = weight.sum()
        out: dict[tuple[Character, ...], float] = {}
        for t in np.flatnonzero(weight > 0):
            hand = self.graph.labels[o][int(sp.cards[o][t])]
            out[hand] = out.get(hand, 0.0) + float(weight[t] / total)
        return out

    def deal_at(self, node: int, smooth: tuple[int, float] | None = None) -> np.ndarray:
        """The chance of each pair of face-down cards at `node` given the moves that led
        there, both playing the solution: the deal to re-solve from when play reaches the
        horizon. `smooth=(player, eps)` mixes that player's strategy with eps of uniform
        play, so a line the solution never plays still says something about the cards."""
        sigma = list(self.strategy)
        if smooth is not None:
            p, eps = smooth
            sigma[p] = (1 - eps) * sigma[p] + eps * self.solver.uniform[p]
        reach = self.solver.reach(sigma)
        sp = self.spaces.spaces[self.tree.space[node]]
        r = [reach[p][int(self.flows[p].row_start[node]):][:len(sp.cards[p])] for p in (0, 1)]
        joint = sp.chance * r[0][:, None] * r[1][None, :]
        out = np.zeros(_sizes(self.graph))
        np.add.at(out, (sp.cards[0][:, None], sp.cards[1][None, :]), joint)
        total = out.sum()
        if total <= 0:
            raise ValueError(f"node {node} cannot be reached under these strategies")
        deal: np.ndarray = out / total
        return deal


@dataclass
class Solution(InTree):
    """A solved position: player 0's chance of winning under the average strategies, the
    exploitability of those strategies, and what a page needs to show the options."""

    value: float
    exploitability: float
    iterations: int
    card_values: dict[Character, float]  # player 0's win chance holding each card
    tree_nodes: int
    cut_nodes: int
    strategy: tuple[np.ndarray, np.ndarray]
    tree: _Tree = field(repr=False)
    flows: tuple[_Flow, _Flow] = field(repr=False)
    spaces: Spaces = field(repr=False)
    solver: _Solver = field(repr=False)
    graph: PublicGraph = field(repr=False)
    coins: tuple[int, int] = (0, 0)
    first: int = 0
    _cf: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    _reach: list[np.ndarray] | None = field(default=None, repr=False)
    _option_values: tuple[np.ndarray, dict[int, np.ndarray]] | None = field(
        default=None, repr=False)

    @property
    def mover(self) -> int:
        return self.tree.decider[0]

    def card_chance(self, player: int) -> dict[Character, float]:
        """The chance of each card for `player` at the deal."""
        chance = self.spaces.spaces[0].chance.sum(axis=1 - player)
        return {self.graph.characters[c]: float(chance[c]) for c in range(len(chance))
                if chance[c] > 0}

    def win_chances(self, player: int) -> dict[Character, float]:
        """`player`'s chance of winning holding each card, under equilibrium play."""
        if player == 0:
            return dict(self.card_values)
        sigma = list(self.strategy)
        v = self.solver.values(self.solver.reach(sigma), sigma, players=(1,))[1]
        f = self.flows[1]
        start = int(f.row_start[0])
        chance = self.spaces.spaces[0].chance.sum(axis=0)
        return {self.graph.characters[c]: float(v[start + c] / chance[c])
                for c in range(len(chance)) if chance[c] > 0}

    def against(self, card: Character) -> dict[Character, float]:
        """The other player's card, as the mover holding `card` sees it at the start."""
        p = self.mover
        c = self.graph.characters.index(card)
        chance = self.spaces.spaces[0].chance
        row = chance[c] if p == 0 else chance[:, c]
        total = row.sum()
        return {self.graph.characters[e]: float(row[e] / total) for e in range(len(row))
                if row[e] > 0}

    def line(self, card: Character, option: Move, steps: int = 8) -> list[Step]:
        """The most likely line of play after `option`, the mover holding `card`."""
        return _line(self, card, self.tree.moves[0].index(option), steps)

    def options(self, card: Character) -> list[Option]:
        """The mover's options holding `card`, best first."""
        if self.tree.kind[0] != DECISION:
            return []
        p = self.mover
        c = self.graph.characters.index(card)
        f = self.flows[p]
        v, by_card = self._mover_values()
        chance = self.spaces.spaces[0].chance
        marginal = (chance[c] if p == 0 else chance[:, c]).sum()
        # per card of the other player: their reach at the root set to that card alone
        per_card: dict[int, np.ndarray] = {}
        for e, against in by_card.items():
            pair = chance[c, e] if p == 0 else chance[e, c]
            if pair > 0:
                per_card[e] = against / pair
        info = f.infos[(0, c)]
        start = int(f.info_start[info])
        kids = self.tree.children[0]
        game = self.graph.game(_a_world(self.graph, p, c), self.coins, self.first)
        values = [float(v[int(f.row_start[k]) + c] / marginal) for k in kids]
        best = max(values)
        out = []
        for a, k in enumerate(kids):
            move = self.tree.moves[0][a]
            row = int(f.row_start[k]) + c
            out.append(Option(
                move, game.describe(move), values[a], best - values[a],
                float(self.strategy[p][start + a]),
                {self.graph.characters[e]: float(pv[row]) for e, pv in per_card.items()}))
        return sorted(out, key=lambda o: -o.value)


    def pair_values(self, strategy: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Player 0's chance of winning for each pair of face-down cards (`[c0, c1]`, NaN
        where the deal cannot give the pair), both players keeping to the solved strategies
        (or to `strategy`, one per player in the solver's layout).

        Why per pair: the value of a position over the deal is these figures weighed by the
        deal's chances, and a horizon valued by some strategies played on (rather than both
        cards turned face up) is exactly such a table (`bench/leaf_check.py` measures one,
        and `bench/leaf_game.py` one per pair of ways of playing on)."""
        sigma = list(self.strategy if strategy is None else strategy)
        chance = self.spaces.spaces[0].chance
        n0, n1 = chance.shape
        out = np.full((n0, n1), np.nan)
        start = int(self.flows[0].row_start[0])
        for e in range(n1):
            if not (chance[:, e] > 0).any():
                continue
            v = self.solver.values(self.solver.reach(sigma, only=(1, e)), sigma,
                                   players=(0,))[0]
            for c in range(n0):
                if chance[c, e] > 0:
                    out[c, e] = v[start + c] / chance[c, e]
        return out

    def _mover_values(self) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """The mover's counterfactual values of every row, against the other player's whole
        deal and against each of their cards alone: the same for every card the mover may
        hold, so worked out once (a page lists the options of all five)."""
        if self._option_values is None:
            p = self.mover
            sigma = list(self.strategy)
            v = self.solver.values(self.solver.reach(sigma), sigma, players=(p,))[p]
            by_card = {}
            for e in range(len(self.graph.characters)):
                r = self.solver.reach(sigma, only=(1 - p, e))
                by_card[e] = self.solver.values(r, sigma, players=(p,))[p]
            self._option_values = (v, by_card)
        return self._option_values

    def belief(self, node: int, player: int, state: int) -> dict[Character, float]:
        """`belief_hands` by the other player's card (here a hand is one card)."""
        return {hand[0]: p for hand, p in self.belief_hands(node, player, state).items()}


@dataclass(frozen=True)
class Choice:
    """One option at a point inside the solved tree: a public move, or at an Exchange the card
    kept (`kept`, and `token`, the private state it leads to), with the decider's win chance
    after it (`value`) and the solution's frequency for it."""

    index: int
    move: Move | None
    kept: Character | None
    token: int
    value: float
    frequency: float
    hand: tuple[Character, ...] | None = None  # at an Exchange, the whole hand kept


@dataclass(frozen=True)
class Step:
    """One move of a line of play: who made it, the move, and the decision it answered."""

    player: int
    move: Move
    phase: Phase


def _line(solution: Solution, card: Character, first: int, steps: int) -> list[Step]:
    """The most likely line after the mover's option `first`, the mover holding `card`: the
    mover's most likely move at each of its decisions, the other player's most likely move
    given what the mover knows of its card (weighed by how likely each card is to have
    played the line so far). It stops when the game ends, at the horizon, at an Exchange
    (whose draw is private) or after `steps` moves."""
    tree, graph = solution.tree, solution.graph
    p = solution.mover
    c = graph.characters.index(card)
    chance = solution.spaces.spaces[0].chance
    belief = (chance[c] if p == 0 else chance[:, c]).astype(float)
    node = 0
    out: list[Step] = []
    while len(out) < steps and tree.kind[node] == DECISION:
        d = tree.decider[node]
        f = solution.flows[d]
        n = len(tree.children[node])
        if d == p:
            start = int(f.info_start[f.infos[(node, c)]])
            probs = solution.strategy[d][start:start + n]
            a = first if not out else int(np.argmax(probs))
        else:
            mix = np.zeros(n)
            for e, b in enumerate(belief):
                if b > 0:
                    start = int(f.info_start[f.infos[(node, e)]])
                    mix += b * solution.strategy[d][start:start + n]
            a = int(np.argmax(mix))
            for e in range(len(belief)):
                if belief[e] > 0:
                    start = int(f.info_start[f.infos[(node, e)]])
                    belief[e] *= solution.strategy[d][start + a]
            if belief.sum() > 0:
                belief /= belief.sum()
        out.append(Step(d, tree.moves[node][a], graph.node(tree.public[node]).phase))
        node = tree.children[node][a]
    return out


def _a_world(graph: PublicGraph, p: int, card: int) -> World:
    return next(w for w in graph.worlds if w[p] == card)


ALPHA, BETA, GAMMA = 1.5, 0.0, 2.0  # discounted CFR's parameters (Brown and Sandholm, 2019)


def discounts(t: int) -> tuple[float, float, float]:
    """Iteration t's factors: on positive regrets, on negative regrets, and on the average
    strategy so far (before iteration t's own part is added)."""
    return (t ** ALPHA / (t ** ALPHA + 1.0), t ** BETA / (t ** BETA + 1.0),
            (t / (t + 1.0)) ** GAMMA)


def _flat(f: _Flow) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A player's links as one run in level order, and where each level starts in it: the
    arrays the levels are views of, not a copy (a deep solve's links are a fifth of its
    memory)."""
    if f.links is not None:
        return f.links
    parts = list(zip(*f.link_level, strict=True))
    sizes = [len(d) for d in parts[0]]
    level_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    dst, src, sig = (np.concatenate(parts[k]).astype(np.int64) for k in range(3))
    coef = np.concatenate(parts[3]).astype(np.float64)
    return dst, src, sig, coef, level_ptr


class _Solver:
    def __init__(self, tree: _Tree, spaces: Spaces, compiled: bool | None = None) -> None:
        """`compiled`: use the compiled loops (by default, where `kernel.available()`); fixed
        here, as the two keep different tables."""
        self.tree = tree
        self.spaces = spaces
        self.flows = _flows(tree, spaces)
        self.compiled = kernel.available() if compiled is None else compiled
        # the numpy code's tables of the ends, or the compiled loops' (far smaller)
        self.util = _Utilities([], [], []) if self.compiled else \
            _utilities(tree, spaces, *self.flows)
        self.ends = _compact_ends(tree, spaces, *self.flows) if self.compiled else None
        # each slot's probability when its information set has no positive regret
        self.uniform = [1.0 / np.bincount(f.slot_info)[f.slot_info] if f.slots else np.zeros(0)
                        for f in self.flows]
        self.regret = [np.zeros(f.slots) for f in self.flows]
        self.average = [np.zeros(f.slots) for f in self.flows]
        self.sigma = [self._match(p, self.regret[p]) for p in (0, 1)]
        # The compiled loops (`kernel`) read each player's links as one run in level order.
        self.flat = [_flat(f) for f in self.flows] if self.compiled else []
        # an iteration's own reach and value arrays, reused (see `reach`), and room for
        # one information set's slot values
        self._buffers = ([np.zeros(f.rows) for f in self.flows],
                         [np.zeros(f.rows) for f in self.flows])
        widest = max((int(np.bincount(f.slot_info).max()) for f in self.flows if f.slots),
                     default=1)
        self._scratch = np.zeros(widest)

    def _match(self, p: int, regret: np.ndarray) -> np.ndarray:
        """Regret matching: each information set plays its positive regrets in proportion,
        or uniformly when none is positive."""
        f = self.flows[p]
        if not f.slots:
            return np.zeros(0)
        pos = np.maximum(regret, 0.0)
        total = np.add.reduceat(pos, f.info_start)[f.slot_info]
        sigma: np.ndarray = np.where(total > 0, pos / np.where(total > 0, total, 1.0),
                                     self.uniform[p])
        return sigma

    def reach(self, sigma: list[np.ndarray], only: tuple[int, int] | None = None,
              players: tuple[int, ...] = (0, 1),
              out: list[np.ndarray] | None = None) -> list[np.ndarray]:
        """Each player's own reach of every row, top down, level by level (a level's rows
        are contiguous, so a level is one weighted count). `only=(player, card)` starts that
        player from that one card, for values against a known card. `out`: arrays to fill
        in place (an iteration reuses its own: fresh ones cost a page fault per 4 KiB)."""
        result = []
        for p in (0, 1):
            f = self.flows[p]
            if p not in players:
                result.append(out[p] if out is not None else np.zeros(f.rows))
                continue
            if out is not None:
                r = out[p]
                r.fill(0.0)
            else:
                r = np.zeros(f.rows)
            start = int(f.row_start[0])
            if only is not None and only[0] == p:
                r[start + only[1]] = 1.0
            else:
                r[start:start + len(self.spaces.spaces[0].cards[p])] = 1.0
            if self.compiled:
                dst, src, sig, coef, _ = self.flat[p]
                kernel.reach_down(r, sigma[p], dst, src, sig, coef)
                result.append(r)
                continue
            ext = np.append(sigma[p], 1.0)
            for (dst, src, sig, coef), (lo, hi) in zip(f.link_level, f.dst_span, strict=True):
                if hi > lo:
                    r[lo:hi] = np.bincount(dst - lo, r[src] * ext[sig] * coef, hi - lo)
            result.append(r)
        return result

    def values(self, reach: list[np.ndarray], sigma: list[np.ndarray], best: int = -1,
               players: tuple[int, ...] = (0, 1), weights: bool = False,
               out: list[np.ndarray] | None = None) -> list[np.ndarray]:
        """Counterfactual values of every row, bottom up. Player `best` (if any) takes
        their best slot at each information set instead of `sigma`. With `weights`, every
        end is worth 1: a row's figure is then the chance of the deals and the other
        player's moves that lead to it, by which its value divides into a win chance.
        `out`: arrays to fill in place, as in `reach`."""
        if out is not None:
            for p in players:
                out[p].fill(0.0)
            v = out
        else:
            v = [np.zeros(f.rows) for f in self.flows]
        if self.compiled:
            return self._compiled_values(v, reach, sigma, best, players, weights)
        for (rows0, rows1, w0, w1), c in zip(self.util.groups, self.util.chance, strict=True):
            if weights:
                w0 = w1 = c
            if 0 in players:
                v[0][rows0] = np.einsum("nij,nj->ni", w0, reach[1][rows1])
            if 1 in players:
                v[1][rows1] = np.einsum("nij,ni->nj", w1, reach[0][rows0])
        for p in players:
            f = self.flows[p]
            ext = np.append(sigma[p], 1.0)
            vp = v[p]
            for (dst, src, sig, coef), (lo, hi) in zip(reversed(f.link_level),
                                                       reversed(f.src_span), strict=True):
                if hi <= lo:
                    continue
                if p == best:
                    mine = sig >= 0
                    q = vp[dst[mine]] * coef[mine]
                    slots = sig[mine]
                    top = np.full(len(f.info_row), -np.inf)
                    np.maximum.at(top, f.slot_info[slots], q)
                    hit = np.unique(f.slot_info[slots])
                    np.add.at(vp, f.info_row[hit], top[hit])
                    other = ~mine
                    vp[lo:hi] += np.bincount(src[other] - lo, vp[dst[other]], hi - lo)
                else:
                    vp[lo:hi] += np.bincount(src - lo, vp[dst] * ext[sig] * coef, hi - lo)
        return v

    def _compiled_values(self, v: list[np.ndarray], reach: list[np.ndarray],
                         sigma: list[np.ndarray], best: int, players: tuple[int, ...],
                         weights: bool) -> list[np.ndarray]:
        """`values` through the compiled loops: the same sums in the same order."""
        e = self.ends
        assert e is not None
        for p in players:
            kernel.ends(v[p], p, weights, reach[1 - p], e.start0, e.start1, e.space, e.outcome,
                        e.n0, e.n1, e.chance_at, e.chance, e.hand0_at, e.hand0, e.hand1_at,
                        e.hand1, e.labels, e.paired_at, e.paired_chance, e.paired_outcome)
        for p in players:
            f = self.flows[p]
            dst, src, sig, coef, level_ptr = self.flat[p]
            if p == best:
                kernel.best_up(v[p], dst, src, sig, coef, level_ptr, f.slot_info, f.info_row)
            else:
                kernel.values_up(v[p], sigma[p], dst, src, sig, coef, level_ptr)
        return v

    def slot_values(self, p: int, v: np.ndarray) -> np.ndarray:
        f = self.flows[p]
        q: np.ndarray = v[f.slot_child] * f.slot_coef
        return q

    def step(self, t: int) -> None:
        """One iteration of discounted CFR, player 0 then player 1 (alternating updates):
        each against the other's current strategy, with its own reach for the average."""
        buffers = self._buffers if self.compiled else None
        reach = self.reach(self.sigma, out=None if buffers is None else buffers[0])
        grow, shrink, keep = discounts(t)
        for p in (0, 1):
            f = self.flows[p]
            if not f.slots:
                continue
            if p == 1:  # player 0 has just changed its strategy: only its reach moves
                reach[0] = self.reach(self.sigma, players=(0,),
                                      out=None if buffers is None else buffers[0])[0]
            v = self.values(reach, self.sigma, players=(p,),
                            out=None if buffers is None else buffers[1])[p]
            if self.compiled:
                kernel.regret_step(self.regret[p], self.average[p], self.sigma[p], v,
                                   reach[p], f.slot_child, f.slot_coef, f.info_start,
                                   f.info_row, self.uniform[p], grow, shrink, keep,
                                   self._scratch)
                continue
            q = self.slot_values(p, v)
            info_value = np.add.reduceat(q * self.sigma[p], f.info_start)
            r = self.regret[p] + q - info_value[f.slot_info]
            self.regret[p] = np.where(r > 0.0, r * grow, r * shrink)
            own = reach[p][f.info_row][f.slot_info]
            self.average[p] = self.average[p] * keep + own * self.sigma[p]
            self.sigma[p] = self._match(p, self.regret[p])

    def average_strategy(self) -> list[np.ndarray]:
        out = []
        for p in (0, 1):
            f = self.flows[p]
            if not f.slots:
                out.append(np.zeros(0))
                continue
            total = np.add.reduceat(self.average[p], f.info_start)[f.slot_info]
            count = np.bincount(f.slot_info)[f.slot_info]
            out.append(np.where(total > 0, self.average[p] / np.where(total > 0, total, 1.0),
                                1.0 / count))
        return out

    def root_value(self, p: int, v: np.ndarray) -> float:
        f = self.flows[p]
        n = len(self.spaces.spaces[0].cards[p])
        return float(v[f.row_start[0]:f.row_start[0] + n].sum())

    def evaluate(self, sigma: list[np.ndarray]) -> tuple[float, float, np.ndarray]:
        """Player 0's value under `sigma`, the exploitability of `sigma`, and player 0's
        value per card at the root."""
        reach = self.reach(sigma)
        v = self.values(reach, sigma)
        value = self.root_value(0, v[0])
        gains = []
        for p in (0, 1):
            br = self.values(reach, sigma, best=p, players=(p,))[p]
            mine = value if p == 0 else 1.0 - value
            gains.append(self.root_value(p, br) - mine)
        f0 = self.flows[0]
        n = len(self.spaces.spaces[0].cards[0])
        return value, sum(gains) / 2, v[0][f0.row_start[0]:f0.row_start[0] + n]


def known_leaf(graph: PublicGraph) -> Leaf:
    """The horizon's value: the known-role table (both cards face up) at that position."""
    from trainer.endgame.tables import known_values

    filled = np.nan_to_num(known_values(graph.revealed, graph.variant).values)  # once
    filled.setflags(write=False)  # the leaves are views of it

    def leaf(coins: tuple[int, int], first: int) -> np.ndarray:
        values: np.ndarray = filled[:, :, coins[0], coins[1], first]
        return values

    return leaf


def solve(revealed: tuple[Character, Character], coins: tuple[int, int], first: int = 0, *,
          horizon: int = 4, exchanges: int = 1, variant: str = "base",
          iterations: int = 2000,
          target: float = 1e-3, leaf: Leaf | None = None,
          check_every: int = 20, deal: np.ndarray | None = None,
          out: tuple[Character, ...] = (),
          progress: Callable[[int, float], None] | None = None,
          continuations: Continuations | None = None) -> Solution:
    """Solve the hidden-role end-game with these face-up cards and coins, `first` to act,
    cut `horizon` whole turns ahead (or at the turn after the `exchanges`-th Exchange of a
    line); stop when the exploitability is at most `target` (in win probability) or after
    `iterations`. `progress(iteration, exploitability)` hears of every check.

    `deal[c0, c1]` weighs the pairs of face-down cards (by default, as a shuffled court deals
    them): a game already under way re-solves from what its moves so far say of the cards.

    `out`: the face-up cards of players already out (a game that started with more than
    two). They leave the court, so the deal, the Exchange's draws and the horizon's
    known-role values (`tables.court_values`, solved on first use) are those of the rest.

    `continuations`: the horizon is a leaf game in place of `leaf` (see `_unroll`)."""
    graph = public_graph(revealed, variant, out=out)
    if leaf is None and graph.out:
        from trainer.endgame.tables import court_leaf

        leaf = court_leaf(revealed, graph.out, variant)
    spaces = Spaces(graph, deal)
    root = graph.root(coins, first)
    with no_cycle_collection():  # a tree is some 100,000 new lists: see known.py
        node_continuations = None
        if continuations is not None:
            given = continuations

            def node_continuations(node: Node) -> np.ndarray:
                return given(node.coins, node.decider)
        tree = _unroll(graph, spaces, root, horizon, leaf or known_leaf(graph), exchanges,
                       continuations=node_continuations)
        solver = _Solver(tree, spaces)
    run = iterate(solver, iterations, target, check_every, progress)
    chance = spaces.spaces[0].chance.sum(axis=1)
    cards = {graph.characters[c]: float(run.per_label[c] / chance[c])
             for c in range(len(chance)) if chance[c] > 0}
    return Solution(run.value, run.exploitability, run.iterations, cards, len(tree.kind),
                    sum(tree.cut), run.average, tree, solver.flows, spaces, solver, graph,
                    coins, first)


@dataclass
class Run:
    """What the iterations reached: player 0's value, the exploitability, player 0's value
    per hand label at the root (weighed by its chance), the iterations, the average
    strategies."""

    value: float
    exploitability: float
    per_label: np.ndarray
    iterations: int
    average: tuple[np.ndarray, np.ndarray]


def iterate(solver: _Solver, iterations: int, target: float, check_every: int,
            progress: Callable[[int, float], None] | None = None) -> Run:
    """Discounted CFR until the exploitability is at most `target` or after `iterations`."""
    t = 0
    value, exploit, per_label = 0.0, 1.0, np.zeros(0)
    while t < iterations:
        t += 1
        solver.step(t)
        if t % check_every == 0 or t == iterations:
            value, exploit, per_label = solver.evaluate(solver.average_strategy())
            if progress is not None:
                progress(t, exploit)
            if exploit <= target:
                break
    average = solver.average_strategy()
    return Run(value, exploit, per_label, t, (average[0], average[1]))
