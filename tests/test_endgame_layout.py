"""The hidden-role solver's flat arrays (`hidden._flows`, built with whole-array arithmetic)
are exactly the ones a node-by-node walk of the tree lays out."""

from __future__ import annotations

import numpy as np
import pytest

from trainer.endgame.hidden import (
    DECISION,
    EXCHANGE,
    Spaces,
    _Flow,
    _flows,
    _Infos,
    _Tree,
    _unroll,
    known_leaf,
)
from trainer.endgame.public import public_graph
from trainer.engine.cards import Character as C


def node_by_node(tree: _Tree, spaces: Spaces) -> tuple[_Flow, _Flow]:
    """The layout as first written, a node at a time: nodes by level, and within a decision
    of the player, state by state and then option by option. Slow, and plain to read."""
    sizes = [[len(spaces.spaces[g].cards[p]) for g in tree.space] for p in (0, 1)]
    order = [int(i) for i in np.argsort(np.array(tree.level), kind="stable")]
    flows = []
    for p in (0, 1):
        size_of = sizes[p]
        starts = [0] * len(tree.kind)
        rows = 0
        for i in order:
            starts[i] = rows
            rows += size_of[i]
        depth = max(tree.level) + 1
        # per level: child rows, parent rows, slots (-1: no slot of the player), coefficients
        dst: list[list[int]] = [[] for _ in range(depth)]
        src: list[list[int]] = [[] for _ in range(depth)]
        sig: list[list[int]] = [[] for _ in range(depth)]
        coef: list[list[float]] = [[] for _ in range(depth)]
        slot_info: list[int] = []
        info_row: list[int] = []
        info_start: list[int] = []
        slot_child: list[int] = []
        slot_coef: list[float] = []
        infos = _Infos()
        n_infos = n_slots = 0
        for i in order:
            kids = tree.children[i]
            if not kids:
                continue
            lv = tree.level[i] + 1
            size = size_of[i]
            base = starts[i]
            kid_starts = [starts[k] for k in kids]
            if tree.kind[i] == DECISION and tree.decider[i] == p:
                nk = len(kids)
                infos.decision[i] = n_infos
                child = [k0 + s for s in range(size) for k0 in kid_starts]
                info_row.extend(range(base, base + size))
                info_start.extend(range(n_slots, n_slots + size * nk, nk))
                slot_info.extend(n_infos + s for s in range(size) for _ in range(nk))
                slot_child.extend(child)
                slot_coef.extend([1.0] * (size * nk))
                dst[lv].extend(child)
                src[lv].extend(base + s for s in range(size) for _ in range(nk))
                sig[lv].extend(range(n_slots, n_slots + size * nk))
                coef[lv].extend([1.0] * (size * nk))
                n_infos += size
                n_slots += size * nk
            elif tree.kind[i] == EXCHANGE and tree.decider[i] == p:
                sw = tree.swaps[i]
                assert sw is not None
                (k,) = kids
                for n, st in enumerate(sw.info_state):
                    infos.exchange[(int(i), int(st), sw.info_drawn[n])] = n_infos + n
                info_row.extend((base + sw.info_state).tolist())
                # the slots of an information set are contiguous (sorted by set)
                firsts = np.searchsorted(sw.slot_info, np.arange(len(sw.info_state)))
                info_start.extend((n_slots + firsts).tolist())
                child = (starts[k] + sw.token).tolist()
                slots = len(sw.slot_info)
                slot_info.extend((n_infos + sw.slot_info).tolist())
                slot_child.extend(child)
                frac = sw.frac.tolist()
                slot_coef.extend(frac)
                dst[lv].extend(child)
                src[lv].extend((base + sw.info_state[sw.slot_info]).tolist())
                sig[lv].extend(range(n_slots, n_slots + slots))
                coef[lv].extend(frac)
                n_infos += len(sw.info_state)
                n_slots += slots
            else:
                nk = len(kids)
                dst[lv].extend(k0 + s for k0 in kid_starts for s in range(size))
                src[lv].extend(list(range(base, base + size)) * nk)
                sig[lv].extend([-1] * (size * nk))
                coef[lv].extend([1.0] * (size * nk))
        link_level = [(np.array(d, dtype=np.int64), np.array(s, dtype=np.int64),
                       np.array(g, dtype=np.int64), np.array(c, dtype=np.float64))
                      for d, s, g, c in zip(dst, src, sig, coef, strict=True)]
        dst_span = [(min(d), max(d) + 1) if d else (0, 0) for d in dst]
        src_span = [(min(s), max(s) + 1) if s else (0, 0) for s in src]
        flows.append(_Flow(rows, np.array(starts, dtype=np.int64), link_level, n_slots,
                           np.array(slot_info, dtype=np.int64),
                           np.array(info_row, dtype=np.int64),
                           np.array(info_start, dtype=np.int64),
                           np.array(slot_child, dtype=np.int64),
                           np.array(slot_coef, dtype=np.float64), infos, dst_span, src_span))
    return flows[0], flows[1]


CASES = [
    # (face-up cards, coins, first, horizon, exchanges per line)
    ((C.AMBASSADOR, C.CONTESSA), (2, 2), 0, 2, 1),
    ((C.AMBASSADOR, C.CONTESSA), (3, 2), 0, 2, 2),
    ((C.AMBASSADOR, C.CONTESSA), (1, 1), 1, 3, 1),
    ((C.DUKE, C.CAPTAIN), (5, 3), 1, 2, 1),
    ((C.ASSASSIN, C.CONTESSA), (6, 2), 1, 0, 1),
]


@pytest.mark.parametrize("revealed, coins, first, horizon, exchanges", CASES)
def test_the_flat_arrays_are_the_node_by_node_layout(revealed, coins, first, horizon,
                                                      exchanges):
    graph = public_graph(revealed, "base")
    spaces = Spaces(graph, None)
    tree = _unroll(graph, spaces, graph.root(coins, first), horizon, known_leaf(graph),
                   exchanges)
    for want, got in zip(node_by_node(tree, spaces), _flows(tree, spaces), strict=True):
        assert (got.rows, got.slots) == (want.rows, want.slots)
        for name in ("row_start", "slot_info", "info_row", "info_start", "slot_child",
                     "slot_coef"):
            a, b = getattr(want, name), getattr(got, name)
            assert a.dtype == b.dtype and np.array_equal(a, b), name
        assert len(got.link_level) == len(want.link_level)
        for level_want, level_got in zip(want.link_level, got.link_level, strict=True):
            for a, b in zip(level_want, level_got, strict=True):
                assert a.dtype == b.dtype and np.array_equal(a, b)
        assert (got.dst_span, got.src_span) == (want.dst_span, want.src_span)
        assert got.infos.decision == want.infos.decision
        assert got.infos.exchange == want.infos.exchange
