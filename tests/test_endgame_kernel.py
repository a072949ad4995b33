"""The hidden-role solver's compiled loops (`trainer/endgame/kernel.py`) against its numpy code:
the same sums, so the same solutions."""

from __future__ import annotations

import numpy as np
import pytest

from trainer.endgame import hidden, kernel
from trainer.endgame.public import public_graph
from trainer.engine.cards import Character as C

REVEALED = (C.AMBASSADOR, C.CONTESSA)


def _solvers(horizon: int = 2) -> tuple[hidden._Solver, hidden._Solver]:
    """The same tree twice: one solver on the numpy code, one on the compiled loops."""
    graph = public_graph(REVEALED, "base")
    spaces = hidden.Spaces(graph, None)
    tree = hidden._unroll(graph, spaces, graph.root((2, 2), 0), horizon,
                          hidden.known_leaf(graph), 1)
    plain = hidden._Solver(tree, spaces, compiled=False)
    fast = hidden._Solver(tree, spaces)
    assert fast.compiled, "numba is a test dependency: the compiled loops must be on here"
    return plain, fast


def _two_card_solvers() -> tuple[hidden._Solver, hidden._Solver]:
    """The same for a duel of two cards against one, whose challenges end some deals and not
    others: ends where some deals go on, which the compiled loops skip by their NaN."""
    from trainer.endgame.hidden_two import NO_EXCHANGE_CUT, known_leaf
    from trainer.endgame.public_two import two_card_graph

    graph = two_card_graph(C.CONTESSA, "base")
    spaces = hidden.Spaces(graph, None)
    tree = hidden._unroll(graph, spaces, graph.root((2, 2), 0), 2, None, NO_EXCHANGE_CUT,
                          node_leaf=known_leaf(graph))
    return hidden._Solver(tree, spaces, compiled=False), hidden._Solver(tree, spaces)


def _random_strategy(solver: hidden._Solver, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [solver._match(p, rng.random(solver.flows[p].slots)) for p in (0, 1)]


def _close(a: list[np.ndarray], b: list[np.ndarray]) -> float:
    return max(float(np.abs(x - y).max()) for x, y in zip(a, b, strict=True))


def test_numba_is_on_unless_turned_off(monkeypatch):
    assert kernel.available()
    monkeypatch.setenv(kernel.OFF_ENV, "1")
    assert not kernel.available()


def test_the_compiled_reach_is_numpys():
    plain, fast = _solvers()
    sigma = _random_strategy(plain, 1)
    assert _close(plain.reach(sigma), fast.reach(sigma)) == 0.0
    for p, card in ((0, 0), (1, 2)):
        assert _close(plain.reach(sigma, only=(p, card)), fast.reach(sigma, only=(p, card))) == 0.0


def test_the_compiled_values_are_numpys():
    plain, fast = _solvers()
    sigma = _random_strategy(plain, 2)
    reach = plain.reach(sigma)
    # numpy's einsum may add the five terms of an end in another order: a rounding apart
    assert _close(plain.values(reach, sigma), fast.values(reach, sigma)) < 1e-15
    assert _close(plain.values(reach, sigma, weights=True),
                  fast.values(reach, sigma, weights=True)) < 1e-15


def test_ends_that_stop_only_some_deals_weigh_only_those_compiled_too():
    plain, fast = _two_card_solvers()
    live = fast.ends.outcome[:, :, 1]  # per end and deal: 1 where the deal ends there
    assert ((live == 0).any(axis=1) & (live == 1).any(axis=1)).any()
    sigma = _random_strategy(plain, 4)
    reach = plain.reach(sigma)
    assert _close(plain.values(reach, sigma), fast.values(reach, sigma)) < 1e-15
    assert _close(plain.values(reach, sigma, weights=True),
                  fast.values(reach, sigma, weights=True)) < 1e-15
    assert plain.evaluate(sigma)[1] == pytest.approx(fast.evaluate(sigma)[1], abs=1e-14)


@pytest.mark.parametrize("best", [0, 1])
def test_the_compiled_best_response_is_numpys(best):
    plain, fast = _solvers()
    sigma = _random_strategy(plain, 3)
    reach = plain.reach(sigma)
    a = plain.values(reach, sigma, best=best, players=(best,))[best]
    b = fast.values(reach, sigma, best=best, players=(best,))[best]
    assert float(np.abs(a - b).max()) < 1e-15
    assert plain.evaluate(sigma)[1] == pytest.approx(fast.evaluate(sigma)[1], abs=1e-14)


def test_the_first_iterations_are_numpys():
    plain, fast = _solvers()
    for t in range(1, 4):
        plain.step(t)
        fast.step(t)
        assert _close(plain.sigma, fast.sigma) < 1e-12
        assert _close(plain.regret, fast.regret) < 1e-12
        assert _close(plain.average, fast.average) < 1e-12


def test_a_solve_without_numba_is_as_good_and_worth_the_same(monkeypatch):
    """Later iterations part by rounding (regret matching turns a regret of 1e-17 against 0
    into a different strategy where the choice does not matter), so two solves agree as
    solutions: each at most the target from the game's value, so within the sum apart."""
    fast = hidden.solve(REVEALED, (1, 3), 0, horizon=2, target=1e-3)
    monkeypatch.setenv(kernel.OFF_ENV, "1")
    plain = hidden.solve(REVEALED, (1, 3), 0, horizon=2, target=1e-3)
    assert not plain.solver.compiled and fast.solver.compiled
    assert max(plain.exploitability, fast.exploitability) <= 1e-3
    bound = 2 * (plain.exploitability + fast.exploitability)
    assert abs(plain.value - fast.value) <= bound


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("player", [0, 1])
def test_a_space_read_once_for_all_its_ends_gives_each_end_the_sum_it_has_alone(player,
                                                                                 weights):
    """The compiled ends read a large space's chances once for the run of its ends; forced
    on every space of a tree of two cards against one, each end's figures are the same to
    the bit as read one end at a time."""
    _, fast = _two_card_solvers()
    e = fast.ends
    runs = np.flatnonzero((np.diff(e.space) == 0) & (e.paired_at[1:] < 0))
    assert runs.size, "no space with a run of ends read from its table by deal"
    reach = fast.reach(_random_strategy(fast, 6))
    args = (e.start0, e.start1, e.space, e.outcome, e.n0, e.n1, e.chance_at, e.chance,
            e.hand0_at, e.hand0, e.hand1_at, e.hand1, e.labels, e.paired_at, e.paired_chance,
            e.paired_outcome)
    alone, together = (np.full(len(reach[player]), np.nan) for _ in range(2))
    kernel.ends(alone, player, weights, reach[1 - player], *args, shared=1 << 62)
    kernel.ends(together, player, weights, reach[1 - player], *args, shared=0)
    touched = ~np.isnan(alone)
    assert touched.any() and np.array_equal(touched, ~np.isnan(together))
    assert alone[touched].tobytes() == together[touched].tobytes()
