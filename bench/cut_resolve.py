"""Does re-solving each cut from the beliefs it is reached with give a leaf that settles?

The nearest a fixed table at each cut comes to reading the beliefs: solve the position four
(or three) turns ahead with the face-up leaf; at every cut that play reaches, take the chance of
each pair of face-down cards given the moves that led there (both players keeping to the
solution) and solve the cut's own position from that deal a few turns ahead (`--ahead`, face
up after that); its value for each pair of cards (`Solution.pair_values`) becomes that cut's
leaf, and the position is solved again. The beliefs then move, so this is repeated (`--passes`),
looking for a fixed point, as a self-consistent leaf would need.

On held-out positions (settled six turns ahead: `bench/leaf_check.py`'s sample), three and four
turns ahead, it prints the value after each pass and the six-turn figure.

    python bench/cut_resolve.py [--positions 6] [--seed 1] [--ahead 2] [--passes 5]
    python bench/cut_resolve.py --inside 100   # the beliefs read again inside the solve

Last line: `cut_resolve positions <n> last_pass_move_pp_max <the largest change of a value in the
last pass, points> h4_err_pp_median <|four turns after the last pass − six turns|, points>
h3_h4_pp_median <|three turns − four turns| after the last pass> faceup_h4_err_pp_median <the
same error with the face-up leaf> cpu_s <…>`; with `--inside EVERY`: `cut_resolve_inside
positions <n> every <EVERY> h4_err_pp_median <…> h4_err_pp_max <…> exploitability_pp_max <…>
cpu_s <…>`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cut_beliefs import at_cuts  # noqa: E402  (bench/ is this script's own folder)
from leaf_check import _table, _value, draw, held_out  # noqa: E402

from trainer.endgame import hidden, hidden_tables  # noqa: E402
from trainer.endgame.known import no_cycle_collection  # noqa: E402
from trainer.engine.cards import Character  # noqa: E402

TARGET = hidden_tables.TARGET


def _leaves(revealed: tuple[Character, Character], tree: hidden._Tree, spaces: hidden.Spaces,
            solver: hidden._Solver, strategy: tuple[np.ndarray, np.ndarray], ahead: int,
            known: hidden.Leaf, leaves: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Each reached cut's leaf: its position solved from the deal the moves point to."""
    graph = spaces.graph
    reach = solver.reach(list(strategy))
    out = dict(leaves)
    for i, sp, joint in at_cuts(tree, spaces, solver.flows, reach):  # the others keep theirs
        deal = np.zeros(graph.sizes)
        np.add.at(deal, (sp.cards[0][:, None], sp.cards[1][None, :]), joint)
        node = graph.node(tree.public[i])
        sub = hidden.solve(revealed, node.coins, node.decider, horizon=ahead,
                           deal=deal / deal.sum(), target=10 * TARGET, iterations=3000)
        pairs = sub.pair_values()
        out[i] = np.where(np.isnan(pairs), known(node.coins, node.decider), pairs)
    return out


def passes(job: tuple[tuple[Character, Character], tuple[int, int], int, int, int]
           ) -> dict[str, object]:
    """The position's value with the face-up leaf, then after each pass."""
    revealed, coins, horizon, ahead, n = job
    start = time.process_time()
    graph = hidden.public_graph(revealed)
    known = hidden.known_leaf(graph)
    leaves: dict[int, np.ndarray] = {}
    values = []
    for k in range(n + 1):
        spaces = hidden.Spaces(graph)
        with no_cycle_collection():
            tree = hidden._unroll(graph, spaces, graph.root(coins, 0), horizon, known, 1)
            for i, u in leaves.items():
                tree.utility[i] = u
            solver = hidden._Solver(tree, spaces)
        run = hidden.iterate(solver, hidden_tables.ITERATIONS, TARGET, 20)
        values.append(run.value)
        if k < n:
            leaves = _leaves(revealed, tree, spaces, solver, run.average, ahead, known, leaves)
    return {"values": values, "cpu": time.process_time() - start}


def inside(job: tuple[tuple[Character, Character], tuple[int, int], int, int, int]
           ) -> dict[str, object]:
    """The beliefs read again inside the solve: every `every` iterations (of 600) each reached
    cut's leaf is made anew from the average strategy so far, and the solve goes on with its
    regrets and averages carried over (the tree, so their layout, is the same). Returns the
    value after each refresh, and at the end with its exploitability."""
    revealed, coins, horizon, ahead, every = job
    start = time.process_time()
    graph = hidden.public_graph(revealed)
    known = hidden.known_leaf(graph)
    spaces = hidden.Spaces(graph)
    with no_cycle_collection():
        tree = hidden._unroll(graph, spaces, graph.root(coins, 0), horizon, known, 1)
        solver = hidden._Solver(tree, spaces)
    values = []
    total = 600
    for t in range(1, total + 1):
        solver.step(t)
        if t % every == 0 and t < total:
            average = solver.average_strategy()
            leaves = _leaves(revealed, tree, spaces, solver, (average[0], average[1]), ahead,
                             known, {})
            for i, u in leaves.items():
                tree.utility[i] = u
            fresh = hidden._Solver(tree, spaces)
            fresh.regret, fresh.average, fresh.sigma = solver.regret, solver.average, \
                solver.sigma
            solver = fresh
            values.append(solver.evaluate(solver.average_strategy())[0])
    value, exploitability, _ = solver.evaluate(solver.average_strategy())
    return {"values": [*values, value], "exploitability": exploitability,
            "cpu": time.process_time() - start}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ahead", type=int, default=2)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--inside", type=int, default=0, metavar="EVERY",
                    help="read the beliefs again inside the solve, every EVERY iterations")
    args = ap.parse_args()
    z = _table()
    picked = draw(held_out(z), args.positions, np.random.default_rng(args.seed))
    if args.inside:
        report_inside(z, picked, args.ahead, args.inside, args.processes)
        return
    names = [str(p) for p in z["pairs"]]
    jobs = []
    for i, a, b in picked:
        x, y = names[i].split("-")
        for h in (3, 4):
            jobs.append(((Character(x), Character(y)), (a, b), h, args.ahead, args.passes))
    with Pool(args.processes) as pool:
        results = pool.map(passes, jobs)
    moves, errors, gaps, face, cpu = [], [], [], [], 0.0
    for k, (i, a, b) in enumerate(picked):
        r3, r4 = results[2 * k], results[2 * k + 1]
        v3, v4 = r3["values"], r4["values"]
        truth = _value(z, "mover_h6", i, a, b)
        assert isinstance(v3, list) and isinstance(v4, list)
        moves += [abs(v[-1] - v[-2]) * 100 for v in (v3, v4)]
        errors.append(abs(v4[-1] - truth) * 100)
        gaps.append(abs(v4[-1] - v3[-1]) * 100)
        face.append(abs(v4[0] - truth) * 100)
        cpu += float(r3["cpu"]) + float(r4["cpu"])  # type: ignore[arg-type]
        for h, v in ((3, v3), (4, v4)):
            print(f"{names[i] + f' {a}-{b}':<26} {h} turns: face-up {v[0]:.4f}, passes "
                  + " ".join(f"{x:.4f}" for x in v[1:]) + f"  (6 turns {truth:.4f})")
    print(f"cut_resolve positions {len(picked)} last_pass_move_pp_max {max(moves):.2f} "
          f"h4_err_pp_median {statistics.median(errors):.2f} "
          f"h3_h4_pp_median {statistics.median(gaps):.2f} "
          f"faceup_h4_err_pp_median {statistics.median(face):.2f} cpu_s {cpu:.1f}")


def report_inside(z: dict[str, np.ndarray], picked: list[tuple[int, int, int]], ahead: int,
                  every: int, processes: int) -> None:
    names = [str(p) for p in z["pairs"]]
    jobs = []
    for i, a, b in picked:
        x, y = names[i].split("-")
        jobs.append(((Character(x), Character(y)), (a, b), 4, ahead, every))
    with Pool(processes) as pool:
        results = pool.map(inside, jobs)
    errors, exploit, cpu = [], [], 0.0
    for (i, a, b), r in zip(picked, results, strict=True):
        v = r["values"]
        assert isinstance(v, list)
        truth = _value(z, "mover_h6", i, a, b)
        errors.append(abs(v[-1] - truth) * 100)
        exploit.append(float(r["exploitability"]) * 100)  # type: ignore[arg-type]
        cpu += float(r["cpu"])  # type: ignore[arg-type]
        print(f"{names[i] + f' {a}-{b}':<26} 4 turns, refreshed: "
              + " ".join(f"{x:.4f}" for x in v) + f"  (6 turns {truth:.4f})")
    print(f"cut_resolve_inside positions {len(picked)} every {every} "
          f"h4_err_pp_median {statistics.median(errors):.2f} "
          f"h4_err_pp_max {max(errors):.2f} exploitability_pp_max {max(exploit):.2f} "
          f"cpu_s {cpu:.1f}")


if __name__ == "__main__":
    main()
