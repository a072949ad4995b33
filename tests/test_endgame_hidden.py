"""Hidden-role end-games: the solver against hand solutions and against OpenSpiel."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import expected_game_score as os_score
from open_spiel.python.algorithms import exploitability as os_exploitability

from trainer.endgame import efg, hidden
from trainer.engine.cards import Character as C

AMB_CON = (C.AMBASSADOR, C.CONTESSA)


def constant(value: float) -> hidden.Leaf:
    return lambda coins, first: np.full((5, 5), value)


def random_leaf(seed: int) -> hidden.Leaf:
    table = np.random.default_rng(seed).random((5, 5))
    return lambda coins, first: table


def test_an_assassin_who_must_win_now_wins_holding_the_assassin_against_no_contessa():
    # Worked by hand: if play reaches the next turn player 0 loses (leaf 0). Player 0 can only
    # win now by assassinating; player 1 challenges unless it holds the Contessa, and blocks
    # with it if it does; player 0 then challenges the block. Thirteen cards are face down
    # (the Ambassador and the Contessa are face up): 3 Assassins, 10 non-Contessas of 12 left.
    s = hidden.solve(AMB_CON, (3, 0), 0, horizon=1, leaf=constant(0.0), target=1e-6)
    assert s.value == pytest.approx(3 / 13 * 10 / 12, abs=1e-5)
    assert s.card_values[C.ASSASSIN] == pytest.approx(10 / 12, abs=1e-5)
    assert s.card_values[C.DUKE] == pytest.approx(0.0, abs=1e-5)


def test_a_player_to_act_with_seven_coins_coups_and_wins():
    s = hidden.solve(AMB_CON, (7, 0), 0, horizon=2, leaf=constant(0.5), target=1e-6)
    assert s.value == pytest.approx(1.0, abs=2e-6)  # within twice the exploitability


def test_at_horizon_zero_the_value_is_the_leaf_averaged_over_the_deal():
    leaf = random_leaf(3)
    s = hidden.solve(AMB_CON, (2, 2), 1, horizon=0, leaf=leaf)
    graph = hidden.public_graph(AMB_CON)
    expected = sum(graph.deal_chance(w) * leaf((2, 2), 1)[w] for w in graph.worlds)
    assert s.value == pytest.approx(expected, abs=1e-12)


def test_the_deal_chances_sum_to_one():
    graph = hidden.public_graph((C.DUKE, C.DUKE))
    assert sum(graph.deal_chance(w) for w in graph.worlds) == pytest.approx(1.0)
    duke = graph.characters.index(C.DUKE)
    assert (duke, duke) not in graph.worlds  # three Dukes: two face up, one left


def _openspiel_value(game: pyspiel.Game) -> float:
    """Player 0's chance to win, solved by OpenSpiel's own CFR+."""
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(150):  # CFR+ is within 1e-4 of the value by then on these trees
        solver.evaluate_and_update_policy()
    avg = solver.average_policy()
    value = pyspiel.expected_returns(game.new_initial_state(), avg, -1, True)[0]
    return (value + 1) / 2


def _policy_in_openspiel(game: pyspiel.Game, export: efg.Export) -> os_policy.TabularPolicy:
    """The solver's own strategy, loaded into OpenSpiel's policy table."""
    table = os_policy.TabularPolicy(game)
    for state in table.states:
        key = state.information_state_string()
        name = key.split("-", 3)[3]
        row = table.policy_for_key(key)
        row[:] = 0.0
        actions = export.actions[name]
        for a in state.legal_actions():
            move = state.action_to_string(state.current_player(), a)
            row[a] = export.policy[name][actions.index(move)]
    return table


def _measured_in_openspiel(game: pyspiel.Game, export: efg.Export) -> tuple[float, float]:
    """Player 0's chance to win under the solver's strategy and that strategy's
    exploitability, both computed by OpenSpiel (in win probability: OpenSpiel's payoffs are
    2·win − 1)."""
    table = _policy_in_openspiel(game, export)
    payoff = os_score.policy_value(game.new_initial_state(), [table, table])[0]
    return (payoff + 1) / 2, float(os_exploitability.exploitability(game, table)) / 2


CROSS_CHECK = [
    # (face-up cards, coins, first, horizon, exchanges per line)
    (AMB_CON, (2, 2), 0, 1, 1), (AMB_CON, (0, 6), 0, 1, 1), (AMB_CON, (3, 3), 1, 1, 1),
    (AMB_CON, (6, 0), 1, 1, 1), ((C.DUKE, C.CAPTAIN), (1, 4), 0, 1, 1),
    ((C.DUKE, C.CAPTAIN), (4, 1), 1, 1, 1), ((C.DUKE, C.CAPTAIN), (5, 5), 0, 1, 1),
    ((C.ASSASSIN, C.ASSASSIN), (3, 2), 0, 1, 1), ((C.ASSASSIN, C.ASSASSIN), (0, 0), 1, 1, 1),
    ((C.CONTESSA, C.DUKE), (2, 5), 0, 1, 1), ((C.CONTESSA, C.DUKE), (6, 6), 1, 1, 1),
    ((C.CAPTAIN, C.AMBASSADOR), (3, 0), 0, 1, 1), ((C.CAPTAIN, C.AMBASSADOR), (2, 9), 1, 1, 1),
    ((C.DUKE, C.DUKE), (4, 4), 0, 1, 1), ((C.AMBASSADOR, C.AMBASSADOR), (1, 2), 0, 1, 1),
    ((C.AMBASSADOR, C.AMBASSADOR), (5, 3), 1, 1, 1), ((C.CONTESSA, C.CONTESSA), (3, 3), 0, 1, 1),
    ((C.CAPTAIN, C.CAPTAIN), (2, 2), 1, 1, 1), (AMB_CON, (1, 3), 0, 2, 1),
    (AMB_CON, (3, 2), 0, 2, 2),
]


@pytest.mark.parametrize("revealed, coins, first, horizon, exchanges", CROSS_CHECK)
def test_the_value_and_exploitability_agree_with_openspiel(revealed, coins, first, horizon,
                                                          exchanges):
    """OpenSpiel plays the solver's strategy on the exported tree and measures it: the same
    chance to win and the same exploitability. A strategy whose exploitability is e is within
    2e of the game's value, so that also bounds the value. The one-turn trees are small enough
    to solve again in OpenSpiel (CFR+) for a second, independent value; at two turns that
    solve costs more than the bound adds."""
    leaf = random_leaf(sum(coins) + 7 * first)
    s = hidden.solve(revealed, coins, first, horizon=horizon, exchanges=exchanges, leaf=leaf,
                     target=1e-5)
    _agrees_with_openspiel(s, efg.export(revealed, coins, first, horizon=horizon,
                                         exchanges=exchanges, leaf=leaf, solution=s),
                           horizon, 1e-3)


def _agrees_with_openspiel(s: hidden.Solution, export: efg.Export, horizon: int,
                           exploitable: float) -> None:
    """OpenSpiel measures the solver's strategy on the export: the same value and
    exploitability; a one-turn tree is also solved again by OpenSpiel's CFR+."""
    game = pyspiel.load_efg_game(export.text)
    value, exploitability = _measured_in_openspiel(game, export)
    assert value == pytest.approx(s.value, abs=1e-9)
    assert exploitability == pytest.approx(s.exploitability, abs=1e-9)
    assert s.exploitability <= exploitable
    if horizon == 1:
        assert s.value == pytest.approx(_openspiel_value(game), abs=1e-3)


def test_an_unfinished_strategys_exploitability_is_what_openspiel_measures():
    leaf = random_leaf(11)
    s = hidden.solve(AMB_CON, (1, 3), 0, horizon=2, leaf=leaf, iterations=10, target=0.0,
                     check_every=10)
    assert s.exploitability > 1e-2  # far from converged, so the comparison means something
    export = efg.export(AMB_CON, (1, 3), 0, horizon=2, leaf=leaf, solution=s)
    game = pyspiel.load_efg_game(export.text)
    value, exploitability = _measured_in_openspiel(game, export)
    assert exploitability == pytest.approx(s.exploitability, abs=1e-9)
    assert value == pytest.approx(s.value, abs=1e-9)


# ------------------------------------------------------------------ the horizon as a leaf game
def ways(seed: int, k: int) -> hidden.Continuations:
    """k ways of playing on for each player, with random chances by deal."""
    table = np.random.default_rng(seed).random((k, k, 5, 5))
    return lambda coins, first: table


@pytest.mark.parametrize("revealed, coins, first, horizon, exchanges", [
    (AMB_CON, (2, 2), 0, 1, 1), ((C.DUKE, C.CAPTAIN), (1, 4), 0, 1, 1),
    ((C.CONTESSA, C.DUKE), (2, 5), 1, 1, 1), (AMB_CON, (3, 2), 0, 2, 2),
])
def test_a_leaf_game_agrees_with_openspiel(revealed, coins, first, horizon, exchanges):
    """At the horizon each player picks one of three ways of playing on, player 1 without
    seeing player 0's pick. The export writes that as two decisions, the second in one
    information set whatever the first was; OpenSpiel measures the solver's strategy on it."""
    continuations = ways(sum(coins) + first, 3)
    s = hidden.solve(revealed, coins, first, horizon=horizon, exchanges=exchanges,
                     target=1e-5, iterations=5000, continuations=continuations)
    _agrees_with_openspiel(s, efg.export(revealed, coins, first, horizon=horizon,
                                         exchanges=exchanges, solution=s,
                                         continuations=continuations), horizon, 1e-5)


def test_one_way_of_playing_on_is_the_horizon_itself():
    graph = hidden.public_graph(AMB_CON)
    leaf = hidden.known_leaf(graph)
    plain = hidden.solve(AMB_CON, (2, 2), 0, horizon=2, target=1e-6)
    game = hidden.solve(AMB_CON, (2, 2), 0, horizon=2, target=1e-6,
                        continuations=lambda coins, first: leaf(coins, first)[None, None])
    assert game.value == plain.value and game.iterations == plain.iterations
    assert game.cut_nodes == plain.cut_nodes


def test_a_way_that_wins_more_against_every_way_is_the_one_played():
    """Player 0's second way beats the first by 0.1 against each of player 1's, and player
    1's second holds player 0 to 0.05 less than its first: both play their second way, and
    the value is the horizon's under that pair."""
    base = np.random.default_rng(4).random((5, 5)) * 0.8 + 0.05
    table = np.stack([np.stack([base, base - 0.05]), np.stack([base + 0.1, base + 0.05])])
    s = hidden.solve(AMB_CON, (1, 3), 1, horizon=1, target=1e-7,
                     continuations=lambda coins, first: table)
    only = hidden.solve(AMB_CON, (1, 3), 1, horizon=1, target=1e-7,
                        leaf=lambda coins, first: base + 0.05)
    assert s.value == pytest.approx(only.value, abs=1e-6)


def test_continuations_of_the_wrong_shape_are_refused_with_the_shape_expected():
    with pytest.raises(ValueError, match=r"expected \(k, k, 5, 5\)"):
        hidden.solve(AMB_CON, (2, 2), 0, horizon=1,
                     continuations=lambda coins, first: np.zeros((2, 3, 5, 5)))


def test_an_options_value_is_its_chance_against_each_card_weighed_by_that_cards_chance():
    s = hidden.solve(AMB_CON, (0, 6), 0, horizon=2, target=1e-5, leaf=random_leaf(5))
    for card in (C.DUKE, C.CONTESSA):
        seen = s.against(card)
        options = s.options(card)
        assert options[0].loss == 0.0 and all(o.loss >= 0 for o in options)
        assert sum(o.frequency for o in options) == pytest.approx(1.0)
        for o in options:
            assert o.value == pytest.approx(sum(seen[e] * v for e, v in o.against.items()))


def test_the_options_played_at_equilibrium_are_worth_the_cards_value():
    s = hidden.solve(AMB_CON, (2, 2), 0, horizon=2, target=1e-6, leaf=random_leaf(6))
    for card, value in s.card_values.items():
        mixed = sum(o.frequency * o.value for o in s.options(card))
        assert mixed == pytest.approx(value, abs=1e-4)


def test_the_two_players_chances_add_up_to_one_over_the_deal():
    s = hidden.solve(AMB_CON, (2, 3), 1, horizon=2, target=1e-6, leaf=random_leaf(8))
    theirs = s.win_chances(1)
    chance = s.card_chance(1)
    assert sum(chance[c] * theirs[c] for c in theirs) == pytest.approx(1 - s.value, abs=1e-9)


def test_the_solve_command_lists_the_movers_options_best_first(capsys):
    from trainer.cli import main

    assert main(["endgame", "solve", "--lost", "Ambassador", "Contessa", "--coins", "3", "0",
                 "--card", "Assassin", "--horizon", "1"]) == 0
    out = capsys.readouterr().out
    assert "P1 holding the Assassin:" in out
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in out.splitlines() if line.startswith("| P1")]
    wins = [float(r[1]) for r in rows]
    assert wins == sorted(wins, reverse=True)
    # the Assassin's own move is one the equilibrium plays (a mix of options worth the same
    # may list another first; solved to 0.1 points of exploitability, options the mix plays
    # can read up to about a point apart: docs/endgame.md)
    assassinate = next(r for r in rows if "assassinate" in r[0])
    assert float(assassinate[3].rstrip("%")) >= 10 and float(assassinate[2]) <= 1.0


def test_the_solve_command_names_a_card_it_does_not_know(capsys):
    from trainer.cli import main

    assert main(["endgame", "solve", "--lost", "Duke", "Dukke", "--coins", "1", "1"]) == 2
    assert "Dukke" in capsys.readouterr().err


def test_the_likely_line_starts_with_the_option_and_follows_the_strategies():
    s = hidden.solve(AMB_CON, (0, 6), 0, horizon=2, target=1e-5)
    best = s.options(C.CONTESSA)[0]
    line = s.line(C.CONTESSA, best.move)
    assert line[0].move == best.move and line[0].player == 0
    assert all(step.player in (0, 1) for step in line) and len(line) >= 2


def _walk(graph, root: int, depth: int) -> list[tuple[object, ...]]:
    """Every node and edge within `depth` public moves of `root`, breadth first, as plain
    data: the same list for two graphs means the same tree whatever the node numbers."""
    out: list[tuple[object, ...]] = []
    level, seen = [root], {root}
    for _ in range(depth):
        nxt = []
        for i in level:
            node = graph.node(i)
            out.append((node.decider, node.phase, node.coins))
            for e in node.edges:
                child = graph.nodes[e.child] if e.child >= 0 else None
                out.append((str(e.move), sorted(e.over.items()), e.exchanger, e.swaps,
                            None if child is None else (child.decider, child.phase,
                                                         child.coins)))
                if e.child >= 0 and e.child not in seen:
                    seen.add(e.child)
                    nxt.append(e.child)
        level = nxt
    return out


@pytest.mark.parametrize("revealed, coins, first", [
    (AMB_CON, (2, 2), 0), ((C.DUKE, C.CAPTAIN), (3, 1), 1), ((C.ASSASSIN, C.CONTESSA), (4, 6), 0),
])
def test_a_move_copied_to_every_deal_makes_the_tree_playing_it_in_each_deal_makes(
        revealed, coins, first, monkeypatch):
    """The graph plays a move no hidden card changes in one deal and copies the game to the
    others; played in every deal instead, the tree and the solved values are the same."""
    from trainer.endgame.public import PublicGraph

    fast, slow = PublicGraph(revealed), PublicGraph(revealed, shortcuts=False)
    assert _walk(fast, fast.root(coins, first), 9) == _walk(slow, slow.root(coins, first), 9)
    solved = []
    for graph in (fast, slow):
        monkeypatch.setattr(hidden, "public_graph", lambda *a, g=graph, **k: g)
        s = hidden.solve(revealed, coins, first, horizon=3, target=1e-3)  # the same numbers
        solved.append((s.value, s.tree_nodes, s.card_values))
    assert solved[0] == solved[1]


def test_at_horizon_zero_each_pair_of_cards_is_worth_the_leaf():
    leaf = random_leaf(4)
    s = hidden.solve(AMB_CON, (2, 2), 0, horizon=0, leaf=leaf)
    pairs = s.pair_values()
    graph = hidden.public_graph(AMB_CON)
    for w in graph.worlds:
        assert pairs[w] == pytest.approx(leaf((2, 2), 0)[w], abs=1e-12)
    dukes = hidden.solve((C.DUKE, C.DUKE), (2, 2), 0, horizon=0, leaf=leaf).pair_values()
    duke = graph.characters.index(C.DUKE)
    assert np.isnan(dukes[duke, duke])  # two Dukes face up leave one: it cannot be dealt twice


def test_the_pairs_of_cards_weighed_by_the_deal_give_each_cards_value_and_the_whole():
    s = hidden.solve(AMB_CON, (1, 3), 0, horizon=2, target=1e-6, leaf=random_leaf(9))
    pairs = np.nan_to_num(s.pair_values())
    chance = s.spaces.spaces[0].chance
    assert float((pairs * chance).sum()) == pytest.approx(s.value, abs=1e-9)
    for card, value in s.card_values.items():
        c = s.graph.characters.index(card)
        assert float(pairs[c] @ chance[c] / chance[c].sum()) == pytest.approx(value, abs=1e-9)
