"""How far do the players' beliefs at the cut stray from a fresh deal?

A leaf that reads the beliefs (a value of the public state and both players' beliefs) is only
worth building if the beliefs at the cut are far from those of a fresh deal where it matters.
This bench solves positions four turns ahead as the stored table does (face-up leaf), and at
every cut of each solve reads the chance of each pair of face-down cards given the moves that
led there, both players keeping to the solution (`InTree.deal_at`, without the Python loop per
node). It reports how much of the play reaches a cut, and how that weight splits by the total
variation distance between each player's card at the cut and at a fresh deal of the same
court, the larger of the two players' distances.

    python bench/cut_beliefs.py [--positions 24] [--seed 1] [--horizon 4]

Last line: `cut_beliefs positions <n> reach_cut_median <chance that play reaches a cut, median
over positions> tv_lt_05 <share of the cuts' weight with both cards within 0.05 of a fresh
deal> tv_lt_10 <…0.10> tv_lt_20 <…0.20> tv_ge_30 <share at 0.30 or more> sharp_mean <the
smaller of the players' chances that a card drawn from the belief is theirs, weighed as above>
sharp_fresh_median <the same at a fresh deal, median over positions> cpu_s <…>`.
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

from leaf_check import draw, held_out  # noqa: E402  (bench/ is this script's own folder)

from trainer.endgame import hidden, hidden_tables  # noqa: E402
from trainer.endgame.tables import packaged  # noqa: E402
from trainer.engine.cards import Character  # noqa: E402


def at_cuts(tree: hidden._Tree, spaces: hidden.Spaces, flows: tuple[hidden._Flow, ...],
            reach: list[np.ndarray]) -> list[tuple[int, hidden.Space, np.ndarray]]:
    """Every cut of the tree that play reaches: its node, its space, and the chance of each
    pair of private states there (the deal's times both players' reach)."""
    out = []
    for n, kind in enumerate(tree.kind):
        if kind != hidden.UTILITY or not tree.cut[n]:
            continue
        sp = spaces.spaces[tree.space[n]]
        r = [reach[p][int(flows[p].row_start[n]):][:len(sp.cards[p])] for p in (0, 1)]
        joint = sp.chance * r[0][:, None] * r[1][None, :]
        if joint.sum() > 1e-12:
            out.append((n, sp, joint))
    return out


def cut_distances(s: hidden.Solution) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The chance that play reaches a cut, and per cut its chance, the larger of the two
    players' total variation distances from a fresh deal, and the smaller of the two players'
    chances that a card drawn from the belief is their card (1 when the moves have shown
    it, as at the face-up leaf)."""
    tree, spaces = s.tree, s.spaces
    reach = s.solver.reach(list(s.strategy))
    fresh = spaces.spaces[0].chance
    f0, f1 = fresh.sum(axis=1), fresh.sum(axis=0)
    weights, distances, sharp = [], [], []
    for _, sp, joint in at_cuts(tree, spaces, s.flows, reach):
        total = joint.sum()
        b0 = np.bincount(sp.cards[0], joint.sum(axis=1), len(f0)) / total
        b1 = np.bincount(sp.cards[1], joint.sum(axis=0), len(f1)) / total
        # the face-up cards at every cut are the root's: a fresh deal there is the root's
        distances.append(max(0.5 * np.abs(b0 - f0).sum(), 0.5 * np.abs(b1 - f1).sum()))
        sharp.append(min(float((b0 ** 2).sum()), float((b1 ** 2).sum())))
        weights.append(total)
    return float(sum(weights)), np.array(weights), np.array(distances), np.array(sharp)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--horizon", type=int, default=4)
    args = ap.parse_args()
    raw = packaged("hidden-base.npz")
    if raw is None:
        raise SystemExit("no stored hidden-role table (trainer/endgame/data/hidden-base.npz)")
    z = dict(raw)
    # the held-out sample of bench/leaf_check.py and bench/leaf_game.py
    picked = draw(held_out(z), args.positions, np.random.default_rng(args.seed))
    names = [str(p) for p in z["pairs"]]
    reached, all_w, all_d, all_k = [], [], [], []
    fresh_k: list[float] = []
    start = time.process_time()
    for i, a, b in tqdm(picked, unit="position", file=sys.stderr):
        x, y = names[i].split("-")
        s = hidden.solve((Character(x), Character(y)), (a, b), 0, horizon=args.horizon,
                         target=hidden_tables.TARGET, iterations=hidden_tables.ITERATIONS)
        f = s.spaces.spaces[0].chance
        fresh_k.append(min(float((f.sum(axis=1) ** 2).sum()), float((f.sum(axis=0) ** 2).sum())))
        cut, w, d, k = cut_distances(s)
        reached.append(cut)
        if cut > 0:
            all_w.append(w / cut)  # each position counts once, whatever its chance of a cut
            all_d.append(d)
            all_k.append(k)
        print(f"{names[i] + f' {a}-{b}':<26} reaches a cut {cut:6.3f}  "
              f"weighted distance {float((w * d).sum() / cut) if cut > 0 else 0.0:6.3f}")
    w = np.concatenate(all_w) / len(all_w)
    d = np.concatenate(all_d)
    k = np.concatenate(all_k)
    fresh_sharp = statistics.median(fresh_k)

    def share(mask: np.ndarray) -> float:
        return float(w[mask].sum())

    print(f"cut_beliefs positions {len(picked)} "
          f"reach_cut_median {statistics.median(reached):.3f} "
          f"tv_lt_05 {share(d < 0.05):.3f} tv_lt_10 {share(d < 0.10):.3f} "
          f"tv_lt_20 {share(d < 0.20):.3f} tv_ge_30 {share(d >= 0.30):.3f} "
          f"sharp_mean {float((w * k).sum()):.3f} sharp_fresh_median {fresh_sharp:.3f} "
          f"cpu_s {time.process_time() - start:.1f}")


if __name__ == "__main__":
    main()
