"""Would looking one turn deeper settle the positions a second Exchange keeps moving?

In 606 of the stored table's positions that a second Exchange in a line moved, 3 turns ahead
with two Exchanges allowed disagrees with 4 turns ahead with two (`agree_x2h3` is 0), so the
Exchange passes cannot settle them (docs/endgame.md, *Settled with two Exchanges*). This bench
solves a random sample of them (one of each twin: the face-up cards swapped is the same duel)
5 turns ahead with two Exchanges and puts the result to the project's settled test against the
stored 4-turn figures with two Exchanges: how many would a 5-turn pass settle, and at what cost.

    python bench/five_turns_two_exchanges.py [--positions 8] [--seed 5]

Last line: `five_turns_two_exchanges positions <n> settled <n> moved_pp_median <|value at 5
turns minus at 4|, points> moved_pp_max <…> cpu_s_median <CPU seconds of a 5-turn solve>
cpu_s_max <…> pool <positions sampled from> twins <one of each twin in the pool>`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.endgame import hidden, hidden_tables, settled  # noqa: E402
from trainer.endgame.tables import packaged  # noqa: E402
from trainer.engine.cards import Character  # noqa: E402

HORIZON = hidden_tables.HORIZON + 1
EXCHANGES = hidden_tables.EXCHANGES  # two: the count at which 3 turns ahead disagreed


def pool(z: dict[str, np.ndarray]) -> tuple[int, list[tuple[int, int, int]]]:
    """The positions a second Exchange moved whose 3-turn solve with two Exchanges disagreed
    with 4 turns, and one of each twin among them (the first in the table's order)."""
    names = [str(p) for p in z["pairs"]]
    found = np.argwhere((z["settled"] == 1) & (z["agree_x2"] == 0) & (z["agree_x2h3"] == 0))
    one = []
    for i, a, b in found.tolist():
        x, y = names[i].split("-")
        if i <= names.index(f"{y}-{x}"):
            one.append((i, a, b))
    return len(found), one


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    raw = packaged("hidden-base.npz")
    if raw is None or "agree_x2h3" not in raw:
        raise SystemExit("the stored table has no pass with two Exchanges to sample from")
    z = dict(raw)
    names = [str(p) for p in z["pairs"]]
    size, twins = pool(z)
    rng = np.random.default_rng(args.seed)
    count = min(args.positions, len(twins))
    picked = [twins[k] for k in rng.choice(len(twins), size=count, replace=False)]
    moved, cpu, settles = [], [], 0
    for i, a, b in tqdm(picked, desc="5 turns ahead, two Exchanges", unit="position"):
        x, y = names[i].split("-")
        moves = [str(t) for t in z["option_move"][i, a, b] if str(t)]
        start = time.process_time()
        s = hidden.solve((Character(x), Character(y)), (a, b), 0, horizon=HORIZON,
                         exchanges=EXCHANGES, target=hidden_tables.TARGET,
                         iterations=hidden_tables.ITERATIONS)
        cpu.append(time.process_time() - start)
        before = float(z["value_x2"][i, a, b])
        found = settled.compare(before, s.value, z["option_value_x2"][i, a, b],
                                hidden_tables._options(s, moves, len(z["characters"])))
        settles += int(found.settled)
        moved.append(100 * abs(s.value - before))
        tqdm.write(f"{names[i]} {a}-{b}: {100 * float(z['value_x2h3'][i, a, b]):.2f}% at 3 "
                   f"turns, {100 * before:.2f}% at 4, {100 * s.value:.2f}% at 5; "
                   f"{'settled' if found.settled else 'moves'}; {s.tree_nodes} tree nodes, "
                   f"{cpu[-1]:.1f} CPU s")
    print(f"five_turns_two_exchanges positions {count} settled {settles} "
          f"moved_pp_median {statistics.median(moved):.2f} moved_pp_max {max(moved):.2f} "
          f"cpu_s_median {statistics.median(cpu):.1f} cpu_s_max {max(cpu):.1f} "
          f"pool {size} twins {len(twins)}")


if __name__ == "__main__":
    main()
