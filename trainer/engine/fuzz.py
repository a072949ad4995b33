"""Long runs of random legal play with every invariant checked after every move.

Property tests sample a few hundred games; this is for the hundred thousand that find the rare
position. The first violation stops the run and prints the command that reproduces it.
"""

from __future__ import annotations

import sys
import time

from tqdm import tqdm

from trainer.engine.invariants import InvariantViolation, play_random
from trainer.engine.rules import Variant
from trainer.engine.variants import VARIANTS, get_variant


def schedule(variant: str | None, players: int | None) -> list[tuple[Variant, int]]:
    """The (variant, player count) pairs to cycle through."""
    variants = [get_variant(variant)] if variant else list(VARIANTS.values())
    pairs = []
    for v in variants:
        counts = [players] if players else list(range(v.min_players, v.max_players + 1))
        for k in counts:
            if not v.min_players <= k <= v.max_players:
                if variant:
                    raise ValueError(
                        f"{v.name} is for {v.min_players}–{v.max_players} players, not {k}")
                continue  # every variant: only those that allow this player count
            pairs.append((v, k))
    if not pairs:
        raise ValueError(f"no variant is for {players} players")
    return pairs


def fuzz_main(games: int, variant: str | None, players: int | None, seed: int,
              quiet: bool = False) -> int:
    try:
        pairs = schedule(variant, players)
    except ValueError as e:
        print(f"fuzz: {e}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    decisions = 0
    bar = tqdm(range(games), desc="fuzz", unit="game", disable=quiet, file=sys.stderr)
    for i in bar:
        v, k = pairs[i % len(pairs)]
        s = seed + i
        try:
            game = play_random(v, k, s)
        except InvariantViolation as e:
            bar.close()
            print(f"VIOLATION in game {i + 1} ({v.name}, {k} players, seed {s}): {e}")
            print(f"reproduce: python -m trainer fuzz --games 1 --variant {v.name} "
                  f"--players {k} --seed {s}")
            return 1
        except Exception as e:  # an engine crash is a violation too
            bar.close()
            print(f"CRASH in game {i + 1} ({v.name}, {k} players, seed {s}): "
                  f"{type(e).__name__}: {e}")
            print(f"reproduce: python -m trainer fuzz --games 1 --variant {v.name} "
                  f"--players {k} --seed {s}")
            return 1
        decisions += sum(1 for e in game.log if e.kind == "move")
    bar.close()
    took = time.perf_counter() - start
    names = ", ".join(sorted({v.name for v, _ in pairs}))
    counts = sorted({k for _, k in pairs})
    print(f"{games} games ({names}; {counts[0]}–{counts[-1]} players), {decisions} decisions, "
          f"0 invariant violations in {took:.1f} s")
    return 0
