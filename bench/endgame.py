"""How fast and how exact the end-game solvers are on this machine.

For a fixed sample of 1-v-1 single-influence positions of the base game (face-up pairs, coins
and the player to act spread over the table), the hidden-role solver (discounted CFR on the public
tree, `trainer/endgame/hidden.py`) is run at each horizon asked for, to an exploitability of at
most 0.1 percentage points. Reported per position and horizon: the value (player 0's chance of
winning), the exploitability measured by an exact best response, iterations, tree size and
seconds; then how far the value still moves between horizons (the issue's test: at most 0.5
points from horizon T to T+2). The known-role table is timed for lookups, and (with
`--build`) rebuilt on this machine's cores to time the build.

Each face-up pair's public graph (the engine's games in every deal, in lockstep) is built first
and timed on its own: a server builds it once per pair, and the solves then reuse it.

The solver's iterations per second are measured on the same trees (the sample at the deepest
horizon), the numpy code and the compiled loops (`trainer/endgame/kernel.py`, with numba)
taking turns iteration by iteration from the same start, in CPU time.

The duel of two cards against one (`trainer/endgame/hidden_two.py`) is solved for a fixed
sample (`SAMPLE_2V1`) one and two turns ahead, as the End-game page does, to an exploitability
of 0.01 points: how many settle, and the CPU time of the pair.

    python bench/endgame.py [--horizons 2 3 4] [--build] [--processes 2] [--skip-two]

Last line: `solve_s <median seconds at the deepest horizon, graph built> settled_pct <stored 1-v-1
positions settled, `trainer.endgame.settled`> settled_2v1_pct <the same for the stored table of
two cards against one, `trainer/endgame/hidden_two_tables.py`; -1: no such table>
settled_2v1_sample_pct <the share of a fixed sample of two cards
against one settled between one and two turns ahead, as the End-game page solves them>
solve_2v1_s <median CPU seconds of that pair of solves, graphs built> lookup_ms <p95 of reading a
stored hidden-role position, every option of every card> lookup_2v1_ms <the same for a stored
duel of two cards against one, every option of every hand; nan without the table>
exploitability_pp <largest in the
sample, in points> iters_per_s <solver iterations a second, the solver as the app runs it>
iters_per_s_numpy <the same without the compiled loops> table_min <the known-role and hidden-role
tables' recorded build minutes, or the known-role build timed now with --build>`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.endgame import (  # noqa: E402
    hidden,
    hidden_tables,
    hidden_two,
    hidden_two_tables,
    kernel,
    settled,
    tables,
)
from trainer.endgame.public import public_graph  # noqa: E402
from trainer.endgame.public_two import two_card_graph  # noqa: E402
from trainer.endgame.tables import known_values  # noqa: E402
from trainer.engine.cards import Character as C  # noqa: E402

SAMPLE = [
    ((C.AMBASSADOR, C.CONTESSA), (2, 2), 0),
    ((C.AMBASSADOR, C.CONTESSA), (0, 6), 0),
    ((C.AMBASSADOR, C.CONTESSA), (1, 1), 1),
    ((C.AMBASSADOR, C.CONTESSA), (4, 2), 0),
    ((C.DUKE, C.CAPTAIN), (3, 1), 0),
    ((C.DUKE, C.CAPTAIN), (5, 3), 1),
    ((C.DUKE, C.CAPTAIN), (0, 0), 0),
    ((C.ASSASSIN, C.CONTESSA), (3, 3), 0),
    ((C.ASSASSIN, C.CONTESSA), (6, 2), 1),
    ((C.DUKE, C.DUKE), (2, 4), 0),
]

# Two cards (player 0) against one: the card player 1 lost, the coins, who acts.
SAMPLE_2V1 = [
    (C.CONTESSA, (2, 2), 0), (C.CONTESSA, (2, 2), 1), (C.CONTESSA, (4, 1), 0),
    (C.DUKE, (3, 1), 1), (C.DUKE, (0, 5), 0), (C.DUKE, (6, 3), 1),
    (C.ASSASSIN, (3, 2), 0), (C.ASSASSIN, (1, 3), 1), (C.CAPTAIN, (5, 5), 0),
    (C.CAPTAIN, (2, 7), 1), (C.AMBASSADOR, (3, 3), 1), (C.AMBASSADOR, (1, 0), 0),
]


def two_card_sample() -> tuple[float, float]:
    """The share of `SAMPLE_2V1` settled between one and two turns ahead, and the median CPU
    seconds of the pair of solves, each lost card's graph built first (timed apart)."""
    print("\nTwo cards against one, one and two turns ahead (0.01 points):")
    for lost in sorted({lost for lost, _, _ in SAMPLE_2V1}, key=lambda c: c.value):
        start = time.process_time()
        graph = two_card_graph(lost)
        hidden_two.solve(lost, (2, 2), 0, horizon=2, target=1e-4)
        print(f"  {lost} lost: graph and a first solve {time.process_time() - start:.1f} "
              f"CPU s, {len(graph.nodes)} public nodes")
    times = []
    settled_count = 0
    print("| lost | coins | first | value 1 | value 2 | moved (pp) | hands whose best move "
          "changed | settled | CPU s |")
    print("|---|---|--:|--:|--:|--:|--:|---|--:|")
    for lost, coins, first in SAMPLE_2V1:
        start = time.process_time()
        last = hidden_two.solve(lost, coins, first, horizon=2, target=1e-4)
        prev = hidden_two.solve(lost, coins, first, horizon=1, target=1e-4)
        times.append(time.process_time() - start)
        compared = hidden_two.settledness(last, prev)
        settled_count += compared.settled
        print(f"| {lost} | {coins[0]}-{coins[1]} | {first} | {100 * prev.value:.2f} "
              f"| {100 * last.value:.2f} | {100 * compared.moved:+.2f} "
              f"| {len(compared.swapped)} | {'yes' if compared.settled else 'no'} "
              f"| {times[-1]:.2f} |")
    return 100 * settled_count / len(SAMPLE_2V1), statistics.median(times)


def build_graph(revealed: tuple[C, C]) -> int:
    """Every public node of a pair's duels, coins 0-12 each, either player to act: what a
    server builds once, so that the timed solves measure the solver alone."""
    graph = public_graph(revealed, "base")
    todo = [graph.root((a, b), f) for a in range(13) for b in range(13) for f in (0, 1)]
    seen = set(todo)
    while todo:
        for edge in graph.node(todo.pop()).edges:
            if edge.child >= 0 and edge.child not in seen:
                seen.add(edge.child)
                todo.append(edge.child)
    return len(graph.nodes)


def iteration_rates(horizon: int, steps: int = 20) -> tuple[float, float]:
    """Solver iterations per CPU second over the sample's trees at `horizon`: with the compiled
    loops (nan without numba) and with numpy alone, the two solvers stepping in turn."""
    spent = {"compiled": 0.0, "numpy": 0.0}
    count = 0
    for revealed, coins, first in SAMPLE:
        graph = public_graph(revealed, "base")
        spaces = hidden.Spaces(graph, None)
        tree = hidden._unroll(graph, spaces, graph.root(coins, first), horizon,
                              hidden.known_leaf(graph), 1)
        plain = hidden._Solver(tree, spaces, compiled=False)
        fast = hidden._Solver(tree, spaces) if kernel.available() else None
        for t in range(1, steps + 1):
            for name, solver in (("numpy", plain), ("compiled", fast)):
                if solver is None:
                    continue
                start = time.process_time()
                solver.step(t)
                spent[name] += time.process_time() - start
        count += steps
    rate = {k: count / v if v > 0 else float("nan") for k, v in spent.items()}
    return rate["compiled"], rate["numpy"]


def settled_share() -> float:
    """The stored 1-v-1 table's settled positions (`trainer.endgame.settled`), in percent,
    with how far the values moved in the others; NaN without a table that records it."""
    import numpy as np

    z = hidden_tables._stored("base")
    if z is None or "settled" not in z:
        print("\nstored table: no settledness recorded")
        return float("nan")
    flags = z["settled"].astype(bool)
    moved = np.abs(z["moved"].astype(float)) * 100
    value_ok = moved <= 100 * settled.TOLERANCE
    print(f"\nstored table, {flags.size} positions: settled {flags.sum()} "
          f"({100 * flags.mean():.1f}%); value within 0.1 points {value_ok.sum()}, of which "
          f"a best option changed {(value_ok & ~flags).sum()}; value moved more than 0.5 points "
          f"{(moved > 0.5).sum()}, more than 5 {(moved > 5).sum()}, at most {moved.max():.1f}")
    # settled with more Exchanges in a line, read with three or more
    # (`hidden_tables.more_exchanges`)
    at = z.get("exchanges_at", np.ones(flags.shape))
    more = at > 1
    if "check_horizon" in z:
        deep = z["check_horizon"] == hidden_tables.CHECK
        agreed = z["agree_h3"] == 1 if "agree_h3" in z else deep
        five = deep & (z["horizon_at"] != hidden_tables.DEEPEST)  # last compared at 4 and 5
        print(f"  settled between {hidden_tables.HORIZON - 2} and {hidden_tables.HORIZON} "
              f"turns: {(flags & ~deep & ~more).sum()}; the rest solved "
              f"{hidden_tables.CHECK} turns ahead: {deep.sum()}, of which settled between "
              f"{hidden_tables.HORIZON} and "
              f"{hidden_tables.CHECK} {(flags & five).sum()} ({(flags & five & agreed).sum()} "
              f"where {hidden_tables.HORIZON - 1} turns agreed as well, "
              f"{(flags & five & ~agreed).sum()} where it did not)")
        six = z["horizon_at"] == hidden_tables.DEEPEST
        left = int(hidden_tables._still_moving(z).sum())
        print(f"  still moving between {hidden_tables.HORIZON} and {hidden_tables.CHECK} "
              f"turns, solved {hidden_tables.DEEPEST} turns ahead so far: {six.sum()}, of "
              f"which settled between {hidden_tables.CHECK} and {hidden_tables.DEEPEST} "
              f"{(flags & six).sum()}; {left} still to solve")
    if "by_exchange" in z:
        print(f"  moved by a second Exchange (not settled): {int(z['by_exchange'].sum())}; "
              f"settled with more Exchanges: {int(more.sum())} ("
              + ", ".join(f"read with {k}: {int((at == k).sum())}"
                          for k in hidden_tables.MORE_COUNTS) + ")")
    pairs = [str(p) for p in z["pairs"]]
    for i in range(0, len(pairs), 5):  # by pair of lost cards (the mover's first), five a row
        print("  " + "  ".join(f"{q:>24} {100 * flags[k].mean():5.1f}%"
                               for k, q in enumerate(pairs[i:i + 5], start=i)))
    return float(100 * flags.mean())


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--horizons", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--target", type=float, default=1e-3,
                    help="exploitability to stop at, in win probability (default 0.001)")
    ap.add_argument("--build", action="store_true", help="also time the known-role build")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--skip-two", action="store_true",
                    help="leave out the sample of two cards against one")
    args = ap.parse_args(argv)

    warm: list[float] = []
    worst = 0.0
    values: dict[tuple[object, ...], dict[int, float]] = {}
    print("| face up | coins | first | horizon | value | exploitability (pp) | iterations "
          "| tree nodes | cut | seconds |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|")
    for revealed in dict.fromkeys(r for r, _, _ in SAMPLE):
        start = time.perf_counter()
        nodes = build_graph(revealed)
        print(f"public graph of {revealed[0]}/{revealed[1]}: {nodes} nodes in "
              f"{time.perf_counter() - start:.1f} s (built once per pair and process)")
    print()
    for revealed, coins, first in SAMPLE:
        cold = False
        for h in sorted(args.horizons):
            start = time.perf_counter()
            s = hidden.solve(revealed, coins, first, horizon=h, target=args.target)
            took = time.perf_counter() - start
            if h == max(args.horizons) and not cold:
                warm.append(took)
            worst = max(worst, s.exploitability)
            values.setdefault((revealed, coins, first), {})[h] = s.value
            print(f"| {revealed[0]}/{revealed[1]} | {coins[0]}-{coins[1]} | {first} | {h} "
                  f"| {s.value:.4f} | {100 * s.exploitability:.3f} | {s.iterations} "
                  f"| {s.tree_nodes} | {s.cut_nodes} | {took:.2f}{' (cold)' if cold else ''} |",
                  flush=True)
    hs = sorted(args.horizons)
    if kernel.available():  # compile the loops before timing them
        hidden.solve(*SAMPLE[0], horizon=1)
    compiled_rate, numpy_rate = iteration_rates(hs[-1])
    print(f"\nSolver iterations per CPU second at horizon {hs[-1]} (sample's trees, 20 each): "
          f"compiled loops {compiled_rate:.1f}, numpy {numpy_rate:.1f}")
    print("\nHow far the value moves with the horizon (points of win probability):")
    for key, by_h in values.items():
        moves = ", ".join(f"{a}->{b}: {100 * (by_h[b] - by_h[a]):+.2f}"
                          for a, b in zip(hs, hs[1:], strict=False))
        print(f"  {key[0][0]}/{key[0][1]} coins {key[1]} first {key[2]}: {moves}")
    steady = [k for k, by_h in values.items()
              if len(hs) >= 2 and hs[-1] - 2 in by_h
              and abs(by_h[hs[-1]] - by_h[hs[-1] - 2]) <= 0.005]
    print(f"  within 0.5 points from horizon {hs[-1] - 2} to {hs[-1]}: "
          f"{len(steady)} of {len(values)}")

    table = known_values((C.DUKE, C.CAPTAIN))
    lookups = []
    for i in range(2000):
        start = time.perf_counter()
        known_values((C.DUKE, C.CAPTAIN)).value((C.DUKE, C.CONTESSA), (i % 13, (7 * i) % 13),
                                                 i % 2)
        lookups.append(time.perf_counter() - start)
    lookups.sort()
    p95 = 1000 * lookups[int(0.95 * len(lookups))]
    del table
    print(f"\nknown-role lookup: median {1000 * statistics.median(lookups):.4f} ms, "
          f"p95 {p95:.4f} ms (2,000 lookups)")
    stored = []
    for i in range(2000):
        start = time.perf_counter()
        hidden_tables.stored_solution((C.DUKE, C.CAPTAIN), (i % 7, (5 * i) % 13), i % 2)
        stored.append(time.perf_counter() - start)
    stored.sort()
    stored_p95 = 1000 * stored[int(0.95 * len(stored))]
    print(f"hidden-role stored position (every option of every card): median "
          f"{1000 * statistics.median(stored):.3f} ms, p95 {stored_p95:.3f} ms (2,000 reads)")
    lookup_2v1 = float("nan")
    if hidden_two_tables.has_table():
        reads = []
        lost_cards = [C.DUKE, C.ASSASSIN, C.CAPTAIN, C.AMBASSADOR, C.CONTESSA]
        for i in range(2000):
            start = time.perf_counter()
            hidden_two_tables.lookup(lost_cards[i % 5], (i % 13, (5 * i) % 13), i % 2)
            reads.append(time.perf_counter() - start)
        reads.sort()
        lookup_2v1 = 1000 * reads[int(0.95 * len(reads))]
        print(f"two cards against one, stored position (every option of every hand): median "
              f"{1000 * statistics.median(reads):.3f} ms, p95 {lookup_2v1:.3f} ms "
              "(2,000 reads)")
    graph_nodes = sum(len(public_graph(r, "base").nodes) for r in {r for r, _, _ in SAMPLE})
    print(f"public graph nodes built: {graph_nodes}")

    # The shipped tables record their own build; --build times the known-role one again.
    recorded = []
    for name, path in (("known-role", tables.DEFAULT_OUT),
                       ("hidden-role", hidden_tables.DEFAULT_OUT),
                       ("hidden-role two-against-one", hidden_two_tables.DEFAULT_OUT)):
        record = tables.build_minutes(path) if path.exists() else None
        if record is not None:
            minutes, processes, resumed = record
            if name != "hidden-role two-against-one":
                recorded.append(minutes)
            print(f"{name} table build (recorded in {path.name}): {minutes:.1f} min on "
                  f"{processes} processes{f', {resumed} parts resumed' if resumed else ''}")
    table_min = sum(recorded) if len(recorded) == 2 else float("nan")
    share = hidden_two_tables.settled_share()
    settled_2v1 = -1.0 if share is None else share.percent
    if share is not None:
        print(f"two cards against one, stored: {share.settled:,} of {share.positions:,} "
              f"positions settled ({share.percent:.1f} %); the two-card "
              f"player to act {share.by_mover[0][0]} of {share.by_mover[0][1]}, the one-card "
              f"player {share.by_mover[1][0]} of {share.by_mover[1][1]}; of the duels "
              f"{hidden_two_tables.SHORTER} and {hidden_two_tables.HORIZON} turns disagreed "
              f"on, {share.checked_deeper} solved {hidden_two_tables.CHECK} turns ahead, of "
              f"which {share.settled_deeper} settle between {hidden_two_tables.HORIZON} and "
              f"{hidden_two_tables.CHECK}; of those still moving, {share.solved_deepest} "
              f"solved {hidden_two_tables.DEEPEST} turns ahead so far, {share.settled_deepest} "
              f"of them settled between {hidden_two_tables.CHECK} and "
              f"{hidden_two_tables.DEEPEST}")
    if args.build:
        from trainer.endgame.tables import build

        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            build(Path(tmp) / "known.npz", processes=args.processes)
            table_min = (time.perf_counter() - start) / 60
        print(f"known-role table build: {table_min:.1f} min on {args.processes} processes "
              "(timed now; the hidden-role table's recorded time is left out)")
    settled_pct = settled_share()
    two_pct, two_s = (-1.0, float("nan")) if args.skip_two else two_card_sample()
    median = statistics.median(warm) if warm else float("nan")
    rate = compiled_rate if kernel.available() else numpy_rate
    print(f"solve_s {median:.2f} settled_pct {settled_pct:.1f} "
          f"settled_2v1_pct {settled_2v1:.1f} "
          f"settled_2v1_sample_pct {two_pct:.1f} solve_2v1_s {two_s:.2f} "
          f"lookup_ms {stored_p95:.3f} lookup_2v1_ms {lookup_2v1:.3f} "
          f"exploitability_pp {100 * worst:.3f} "
          f"iters_per_s {rate:.1f} iters_per_s_numpy {numpy_rate:.1f} table_min {table_min:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
