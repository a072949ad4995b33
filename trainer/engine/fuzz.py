"""Long runs of random legal play with every invariant checked after every move.

Property tests sample a few hundred games; this is for the hundred thousand that find the rare
position. The first violation stops the run and names the command that reproduces it.

With `mix`, every game is played under a rule set drawn at random: a registered rule set,
each of McGuire's house rules switched on or off by a coin flip (where it can apply), each
table rule set to one of its readings, and a player count the result allows. The run counts
how often every switch was on and off and every reading in force, so its summary shows that
the combinations were really covered.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from trainer.engine.invariants import InvariantViolation, play_random
from trainer.engine.rules import Options, Variant
from trainer.engine.variants import (
    HOUSE_RULES,
    VARIANTS,
    compose,
    house_rules_on,
    parse_rules,
    rules_text,
)


@dataclass(frozen=True)
class Table:
    """One game's rules and size."""

    variant: Variant
    options: Options
    players: int

    @property
    def rules(self) -> str:
        return rules_text(self.variant, self.options)


def schedule(rules: str | None, players: int | None) -> list[Table]:
    """The tables to cycle through: one rule set (a compact description, table rules
    included) or every registered one, at one player count or every count it allows."""
    if rules:
        ruleset = parse_rules(rules)
        chosen = [(ruleset.variant, ruleset.options)]
    else:
        chosen = [(v, Options()) for v in VARIANTS.values()]
    tables = []
    for v, options in chosen:
        most = v.most_players(options)
        counts = [players] if players else list(range(v.min_players, most + 1))
        for k in counts:
            if not v.min_players <= k <= most:
                if rules:
                    raise ValueError(f"{v.name} is for {v.min_players}–{most} players, not {k}")
                continue  # every variant: only those that allow this player count
            tables.append(Table(v, options, k))
    if not tables:
        raise ValueError(f"no variant is for {players} players")
    return tables


def random_table(rng: random.Random, most_players: int | None = None) -> Table:
    """A rule set drawn at random: a registered one, every house rule that can apply switched
    by a coin flip, every table rule set to one of its readings, and an allowed table size
    (at most `most_players`, when given)."""
    family = rng.choice(list(VARIANTS.values()))
    switches: dict[str, bool] = {}
    for rule in HOUSE_RULES:
        on = rng.random() < 0.5
        switches[rule.name] = on and (rule.is_on(family) or not rule.unfit(family))
    variant = compose(family, switches)
    options = Options().with_(**{name: rng.choice(list(info.choices))
                                 for name, info in Options.info().items()})
    most = variant.most_players(options)
    # Tables past ten players are long: draw them now and then, not one game in two.
    top = most if most <= 10 or rng.random() < 0.1 else 10
    if most_players is not None:
        top = max(variant.min_players, min(top, most_players))
    return Table(variant, options, rng.randint(variant.min_players, top))


@dataclass(frozen=True)
class Failure:
    """The first game that broke an invariant or crashed, with what it takes to replay it
    alone: a run of thousands is no help for debugging, one seed is."""

    game: int  # counted from 1
    variant: str  # the rule set's compact description, table rules included
    players: int
    seed: int
    error: Exception

    def lines(self) -> list[str]:
        where = f"game {self.game} ({self.variant}, {self.players} players, seed {self.seed})"
        if isinstance(self.error, InvariantViolation):
            what = f"VIOLATION in {where}: {self.error}"
        else:
            what = f"CRASH in {where}: {type(self.error).__name__}: {self.error}"
        rules = f"'{self.variant}'" if "(" in self.variant else self.variant
        return [what, f"reproduce: python -m trainer fuzz --games 1 --variant {rules} "
                      f"--players {self.players} --seed {self.seed}"]


@dataclass(frozen=True)
class Run:
    """What a fuzz run found: its failure, or how much clean play it covered."""

    games: int  # played without a failure
    tables: list[Table]
    decisions: int
    seconds: float
    failure: Failure | None = None
    # With `mix`: games per house rule switched on and off, and per reading in force.
    coverage: Counter[str] | None = None

    def summary(self) -> str:
        names = ", ".join(sorted({t.variant.family or t.variant.name for t in self.tables}))
        counts = sorted({t.players for t in self.tables})
        kind = f"random rule sets from {names}" if self.coverage is not None else names
        line = (f"{self.games} games ({kind}; {counts[0]}–{counts[-1]} players), "
                f"{self.decisions} decisions, 0 invariant violations in {self.seconds:.1f} s")
        if self.coverage is not None:
            fewest = min(self.coverage.values()) if self.coverage else 0
            line += (f"; every house rule on and off and every table-rule reading in force "
                     f"in at least {fewest} games")
        return line


def coverage_keys() -> list[str]:
    """What a mixed run must cover: each switch on and off, each reading of each option."""
    keys = [f"{r.name}={state}" for r in HOUSE_RULES for state in ("on", "off")]
    keys += [f"{name}={value}" for name, info in Options.info().items()
             for value in info.choices]
    return keys


def fuzz(tables: list[Table], games: int, seed: int = 0,
         progress: Callable[[int], object] | None = None, *, mix: bool = False) -> Run:
    """Play `games` games cycling through `tables` (or, with `mix`, each at a random rule set
    drawn from its seed), game i with seed `seed + i`, until the first failure; any exception
    counts, since an engine crash is a violation too. `progress(1)` after every clean game."""
    start = time.perf_counter()
    decisions = 0
    coverage: Counter[str] | None = Counter(dict.fromkeys(coverage_keys(), 0)) if mix else None
    seen: list[Table] = []
    for i in range(games):
        s = seed + i
        table = random_table(random.Random(s)) if mix else tables[i % len(tables)]
        try:
            game = play_random(table.variant, table.players, s, options=table.options)
        except Exception as e:
            return Run(i, seen or [table], decisions, time.perf_counter() - start,
                       Failure(i + 1, table.rules, table.players, s, e), coverage)
        decisions += sum(1 for e in game.log if e.kind == "move")
        if coverage is not None:
            for name, on in house_rules_on(table.variant).items():
                coverage[f"{name}={'on' if on else 'off'}"] += 1
            for name, value in table.options.as_dict().items():
                coverage[f"{name}={value}"] += 1
            if len(seen) < 10_000:
                seen.append(table)
        if progress is not None:
            progress(1)
    return Run(games, seen if mix else tables, decisions, time.perf_counter() - start,
               None, coverage)
