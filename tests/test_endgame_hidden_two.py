"""Hidden-role duels of two cards against one: the solver against hand-worked values and
against OpenSpiel on an independent export of the same game."""

from __future__ import annotations

import threading

import numpy as np
import pyspiel
import pytest

from trainer.endgame import efg_two, hidden_two
from trainer.endgame.public import Node
from trainer.endgame.public_two import TwoCardGraph, TwoNode, two_card_graph
from trainer.engine.cards import Character as C


def random_leaves(graph: TwoCardGraph, seed: int) -> tuple[hidden_two.NodeLeaf, efg_two.TwoLeaf]:
    """The same random horizon values for the solver (a table per public node) and for the
    export (a value per pair of hands): by hand labels and player 0's face-up card."""
    table = np.random.default_rng(seed).random((*graph.sizes, len(graph.characters) + 1))

    def node_leaf(node: Node) -> np.ndarray:
        assert isinstance(node, TwoNode)
        values: np.ndarray = table[:, :, node.shown + 1]
        return values

    def hand_leaf(mine: tuple[C, ...], theirs: tuple[C, ...], shown: C | None,
                  coins: tuple[int, int], first: int) -> float:
        k = graph.characters.index(shown) + 1 if shown is not None else 0
        return float(table[graph.label(0, mine), graph.label(1, theirs), k])

    return node_leaf, hand_leaf


def test_the_deal_chances_sum_to_one_and_leave_out_what_the_court_cannot_deal():
    graph = two_card_graph(C.CONTESSA)
    assert sum(graph.deal_chance(w) for w in graph.worlds) == pytest.approx(1.0)
    # two Contessas left: a hand of both leaves none for player 1
    both = graph.label(0, (C.CONTESSA, C.CONTESSA))
    assert (both, graph.label(1, (C.CONTESSA,))) not in graph.worlds
    assert len(graph.worlds) == 15 * 5 - 1


def test_at_horizon_zero_the_value_is_the_leaf_averaged_over_the_deal():
    graph = two_card_graph(C.DUKE)
    node_leaf, _ = random_leaves(graph, 1)
    s = hidden_two.solve(C.DUKE, (2, 2), 1, horizon=0, leaf=node_leaf)
    values = node_leaf(graph.nodes[graph.root((2, 2), 1)])
    assert s.value == pytest.approx(sum(graph.deal_chance(w) * values[w] for w in graph.worlds),
                                    abs=1e-12)


def test_a_two_card_player_with_seven_coins_coups_and_wins():
    graph = two_card_graph(C.ASSASSIN)
    node_leaf, _ = random_leaves(graph, 2)
    s = hidden_two.solve(C.ASSASSIN, (7, 0), 0, horizon=1, leaf=node_leaf, target=1e-6)
    assert s.value == pytest.approx(1.0, abs=2e-6)
    assert s.options((C.DUKE, C.CONTESSA))[0].text.endswith("coup P2")


def test_a_one_card_player_facing_a_coup_with_seven_coins_against_them_loses_a_card_of_choice():
    # Player 1 has 7 coins and acts: a Coup takes one of player 0's two cards, and player 0
    # chooses which; the horizon (after one turn) then values what is left.
    graph = two_card_graph(C.DUKE)
    node_leaf, _ = random_leaves(graph, 3)
    s = hidden_two.solve(C.DUKE, (0, 7), 1, horizon=1, leaf=node_leaf, target=1e-7)
    assert 0.0 < s.value < 1.0
    assert s.exploitability <= 1e-6


CROSS_CHECK = [
    # (player 1's lost card, coins, who acts): player 0 acting; player 1 acting, with a proven
    # claim's replacement and the choice of card to lose; an Exchange after a lost challenge
    (C.CONTESSA, (2, 2), 0), (C.DUKE, (3, 1), 1), (C.AMBASSADOR, (3, 3), 1),
]


@pytest.mark.parametrize("lost, coins, first", CROSS_CHECK)
def test_the_value_agrees_with_openspiel_on_an_export_with_every_engine_decision(lost, coins,
                                                                                first):
    """The export plays every deal's engine game with every decision the engine offers (the
    card to lose among the hand's own, showing or conceding a challenged card), none of the
    solver's modelling; OpenSpiel's CFR+ solves it. One turn, random horizon values."""
    graph = two_card_graph(lost)
    node_leaf, hand_leaf = random_leaves(graph, sum(coins) + 7 * first)
    s = hidden_two.solve(lost, coins, first, horizon=1, leaf=node_leaf, target=1e-5,
                         iterations=5000)
    assert s.exploitability <= 1e-5
    game = pyspiel.load_efg_game(efg_two.export(lost, coins, first, horizon=1, leaf=hand_leaf))
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = (pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0] + 1) / 2
    theirs = pyspiel.exploitability(game, policy) / 2
    assert theirs <= 1e-4
    # each value is within twice its strategy's exploitability of the game's value
    assert s.value == pytest.approx(value, abs=2 * (s.exploitability + theirs))


def test_a_node_is_expanded_under_the_graphs_lock_and_only_then_marked_expanded():
    """Page sessions share a graph: a second solve reaching a node that another is still
    expanding waits for it, and never sees a node marked expanded with half its edges."""
    graph = TwoCardGraph(C.CAPTAIN)  # a graph of its own, not the process's shared one
    root = graph.root((4, 4), 0)
    seen: list[int] = []
    with graph._lock:
        worker = threading.Thread(target=lambda: seen.append(len(graph.node(root).edges)))
        worker.start()
        worker.join(timeout=0.3)
        assert worker.is_alive() and not graph.nodes[root].expanded
    worker.join(timeout=60)
    assert seen == [len(graph.nodes[root].edges)] and seen[0] > 0


def test_a_line_is_followed_through_every_exchange_unless_a_cut_is_asked_for():
    """Duke lost, one coin against two, the one-card player to act, two turns ahead: a line
    is no longer stopped at the turn after its first Exchange. Two turns hold at most two
    Exchanges, so the default is the solve allowing two; cutting at the first moves the
    two-card player's chance by more than a point."""
    whole = hidden_two.solve(C.DUKE, (1, 2), 1, horizon=2, target=1e-5)
    two = hidden_two.solve(C.DUKE, (1, 2), 1, horizon=2, exchanges=2, target=1e-5)
    cut = hidden_two.solve(C.DUKE, (1, 2), 1, horizon=2, exchanges=1, target=1e-5)
    assert whole.value == pytest.approx(two.value, abs=1e-9)
    assert whole.value - cut.value < -0.01


def _rows_pair_by_pair(chance, mine, theirs, x, table):
    """An Exchange's information sets read the plain way, one pair of states at a time."""
    rows, keeps = {}, {}
    for s, t in zip(*np.nonzero(chance), strict=True):
        s, t = int(s), int(t)
        world = (int(mine[s]), int(theirs[t])) if x == 0 else (int(theirs[t]), int(mine[s]))
        for _, drawn, kept in table.get(world, ()):
            if (s, drawn) not in rows:
                rows[(s, drawn)] = np.zeros(len(theirs))
                keeps[(s, drawn)] = set()
            keeps[(s, drawn)].add(kept)
        for p, drawn in {(p, d) for p, d, _ in table.get(world, ())}:
            rows[(s, drawn)][t] += chance[s, t] * p
    return rows, keeps


def test_an_exchange_read_state_by_state_has_the_information_sets_read_pair_by_pair(
        monkeypatch):
    """Every Exchange of a solve of two cards against one, two turns ahead (Exchanges of
    spaces an earlier Exchange made larger included): the same information sets, the same chances
    to the bit, the same cards to keep."""
    from trainer.endgame import hidden

    real = hidden._exchange_rows
    seen = []

    def checked(chance, mine, theirs, x, table):
        rows, keeps = real(chance, mine, theirs, x, table)
        plain_rows, plain_keeps = _rows_pair_by_pair(chance, mine, theirs, x, table)
        assert keeps == plain_keeps
        assert rows.keys() == plain_rows.keys()
        for key, row in rows.items():
            assert row.tobytes() == plain_rows[key].tobytes(), key
        seen.append(chance.shape)
        return rows, keeps

    monkeypatch.setattr(hidden, "_exchange_rows", checked)
    hidden_two.solve(C.CAPTAIN, (2, 2), 0, horizon=2, iterations=1)
    root = seen[0]
    assert len(seen) >= 100 and any(a * b > root[0] * root[1] for a, b in seen), seen[:5]
