"""Persona tournaments: head to head at two players, one against a field at more.

Each line of the result is one pairing at one table size: how often the persona wins, with a
95% Wilson interval, against the fair share (1 / players). Seats rotate from game to game so
nobody keeps the first move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import sqrt

import pandas as pd

from trainer.bots.calibrated import Calibrated
from trainer.bots.play import play_game
from trainer.engine.rules import Variant
from trainer.engine.variants import BASE
from trainer.policies.personas import Persona, personas


def every_persona() -> dict[str, Persona]:
    """Fresh instances of every persona, the Calibrated one included."""
    return {**personas(), "calibrated": Calibrated()}

Factory = Callable[[], Persona]
Progress = Callable[[int], object]  # given the number of games just finished; result unused
MIXED = "mixed"


@dataclass(frozen=True)
class Row:
    players: int
    persona: str
    field: str
    games: int
    wins: int
    ties: int

    @property
    def rate(self) -> float:
        return self.wins / self.games

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (sound near 0 and 1, unlike ±2 SE)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def match(hero: Factory, field: Factory, players: int, games: int, *,
          variant: Variant | str = BASE,
          seed: int = 0, progress: Progress | None = None) -> tuple[int, int]:
    """`hero` in one seat and `field` in the others; the hero's seat rotates. Returns the
    hero's wins and the games without a winner (ties, and the rare game that bots cannot
    finish within `play.MAX_DECISIONS`)."""
    wins = ties = 0
    for g in range(games):
        seat = g % players
        seats = [hero() if i == seat else field() for i in range(players)]
        try:
            game = play_game(seats, variant=variant, seed=seed + g)
        except RuntimeError:  # bots caught in a cycle: no winner, counted with the ties
            ties += 1
        else:
            wins += game.winner == seat
            ties += game.winner is None
        if progress is not None:
            progress(1)
    return wins, ties


def check_names(names: Sequence[str]) -> None:
    """Refuse an unknown persona before any game is played, naming the known ones."""
    table = every_persona()
    for name in names:
        if name not in table:
            raise ValueError(f"unknown persona {name!r}; expected one of {', '.join(table)}")


def games_to_play(names: Sequence[str], counts: Sequence[int], games: int) -> int:
    """How many games `tournament` plays, so a progress bar can know its end."""
    pairs = len(names) * (len(names) - 1)
    mixed = len(names) if len(names) > 2 else 0
    return (pairs + mixed) * len(counts) * games


def _named(name: str) -> Factory:
    """A fresh bot of one persona for each game."""
    return lambda: every_persona()[name]


def _drawn(names: list[str], rng: random.Random) -> Factory:
    """A fresh bot of a persona drawn from `names` for each seat: a mixed field."""
    return lambda: every_persona()[rng.choice(names)]


def tournament(names: Sequence[str], counts: Sequence[int], games: int, *,
               variant: Variant | str = BASE, seed: int = 0,
               progress: Progress | None = None) -> pd.DataFrame:
    """Every ordered pair of personas (hero against a field of the other) at every count;
    `progress(1)` after every game (`games_to_play` of them)."""
    check_names(names)
    table = every_persona()
    pairs = [(a, b) for a in names for b in names if a != b]
    mixed = len(names) > 2  # each persona also against a field drawn from all the others
    rows: list[Row] = []
    for k in counts:
        for a, b in pairs:
            wins, ties = match(_named(a), _named(b), k, games, variant=variant, seed=seed,
                               progress=progress)
            rows.append(Row(k, a, b, games, wins, ties))
        if not mixed:
            continue
        for a in names:
            others = [b for b in names if b != a]
            draw = random.Random(f"{seed}:{k}:{a}")
            wins, ties = match(_named(a), _drawn(others, draw), k, games, variant=variant,
                               seed=seed, progress=progress)
            rows.append(Row(k, a, MIXED, games, wins, ties))
    return pd.DataFrame([{
        "players": r.players, "persona": table[r.persona].name,
        "field": table[r.field].name if r.field != MIXED else "mixture of the others",
        "games": r.games, "wins": r.wins,
        "win_rate": round(r.rate, 4), "ci_low": round(r.interval()[0], 4),
        "ci_high": round(r.interval()[1], 4), "fair_share": round(1 / r.players, 4),
        "ties": r.ties,
    } for r in rows])


def table_text(frame: pd.DataFrame) -> str:
    """The table as text, whole: a reader compares rows far apart, so none may be elided."""
    with pd.option_context("display.width", 120, "display.max_rows", 500):
        text: str = frame.to_string(index=False)
    return text
