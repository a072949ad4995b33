"""Long runs of random legal play with every invariant checked after every move.

Property tests sample a few hundred games; this is for the hundred thousand that find the rare
position. The first violation stops the run and names the command that reproduces it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Failure:
    """The first game that broke an invariant or crashed, with what it takes to replay it
    alone: a run of thousands is no help for debugging, one seed is."""

    game: int  # counted from 1
    variant: str
    players: int
    seed: int
    error: Exception

    def lines(self) -> list[str]:
        where = f"game {self.game} ({self.variant}, {self.players} players, seed {self.seed})"
        if isinstance(self.error, InvariantViolation):
            what = f"VIOLATION in {where}: {self.error}"
        else:
            what = f"CRASH in {where}: {type(self.error).__name__}: {self.error}"
        return [what, f"reproduce: python -m trainer fuzz --games 1 --variant {self.variant} "
                      f"--players {self.players} --seed {self.seed}"]


@dataclass(frozen=True)
class Run:
    """What a fuzz run found: its failure, or how much clean play it covered."""

    games: int  # played without a failure
    pairs: list[tuple[Variant, int]]
    decisions: int
    seconds: float
    failure: Failure | None = None

    def summary(self) -> str:
        names = ", ".join(sorted({v.name for v, _ in self.pairs}))
        counts = sorted({k for _, k in self.pairs})
        return (f"{self.games} games ({names}; {counts[0]}–{counts[-1]} players), "
                f"{self.decisions} decisions, 0 invariant violations in {self.seconds:.1f} s")


def fuzz(pairs: list[tuple[Variant, int]], games: int, seed: int = 0,
         progress: Callable[[int], object] | None = None) -> Run:
    """Play `games` games cycling through `pairs`, game i with seed `seed + i`, until the
    first failure; any exception counts, since an engine crash is a violation too.
    `progress(1)` after every clean game."""
    start = time.perf_counter()
    decisions = 0
    for i in range(games):
        v, k = pairs[i % len(pairs)]
        s = seed + i
        try:
            game = play_random(v, k, s)
        except Exception as e:
            return Run(i, pairs, decisions, time.perf_counter() - start,
                       Failure(i + 1, v.name, k, s, e))
        decisions += sum(1 for e in game.log if e.kind == "move")
        if progress is not None:
            progress(1)
    return Run(games, pairs, decisions, time.perf_counter() - start)
