"""Who sits at the table of a played game: the learner's seat and a bot persona in every other.

Why a module of its own: the page, the saved game, the exported log and the link that replays a
deal all describe a table the same way (the rule set, the seed and one persona key per seat),
and each must refuse a table the rules do not allow with the field that is wrong.

A bot's strength is the tournament's measured win rate against a mixed field of the other
bots (`trainer/bots/data/tournament.csv`, made by `python -m trainer tournament --out`), so a
learner picks an opponent by how often it wins, not by its name.
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from trainer.bots.tournament import every_persona
from trainer.engine.errors import RuleSetError
from trainer.engine.explain import SECOND_PERSON
from trainer.engine.variants import RuleSet, parse_rules, title_words
from trainer.i18n import N_, tr, trc

LEARNER = "you"
MIXED = "mixed"
YOU = SECOND_PERSON  # the learner's seat: the engine words its moves as "You pass"
# The bots a learner can sit with, strongest first by the tournament at four players.
BOTS = ("calibrated", "honest", "rule", "skeptic", "bluffer", "random")
# A mixed table draws from the bots that play to win (Random is for a first game only).
MIXED_FROM = ("calibrated", "honest", "rule", "skeptic", "bluffer")
BOT_NAMES = ("Ana", "Ben", "Cris", "Dee", "Eli", "Fay")
TOURNAMENT = Path(__file__).resolve().parents[1] / "bots" / "data" / "tournament.csv"
MIXED_FIELD = "mixture of the others"
MAX_SEED = 2**31 - 1
MAX_PLAYERS = 6  # a screen of seats a person can follow; the bots were measured up to six


def sizes(variant: str) -> range:
    """The table sizes a game under these rules (a description: the rule set, its house rules
    and its table rules) can have here: what the rules allow, up to `MAX_PLAYERS`."""
    rules = parse_rules(variant)
    return table_sizes(rules)


def table_sizes(rules: RuleSet) -> range:
    v = rules.variant
    return range(v.min_players, min(v.most_players(rules.options), MAX_PLAYERS) + 1)


class SetupError(ValueError):
    """A table the rules or the bots do not allow, with the field that is wrong."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(tr("{field}: {reason}", field=_field_words(field), reason=message))
        self.reason = message
        self.field = field


def _field_words(field: str) -> str:
    """The name of a table's field as an error starts with it (English: the field's own)."""
    if field == "variant":
        return trc("table field", "variant")
    if field == "seats":
        return trc("table field", "seats")
    if field == "names":
        return trc("table field", "names")
    if field == "seed":
        return trc("table field", "seed")
    return field


@dataclass(frozen=True)
class Setup:
    """A table: the rules (a rule set's whole description, ``base+pay_five(challengers=all)``,
    kept in its written form however it was typed), the deal's seed and one persona key per
    seat (`LEARNER` once)."""

    variant: str
    seed: int
    seats: tuple[str, ...]
    # The players' own names (a game between people at a table), in seat order; None: "You"
    # and the bots' short names. The deal does not depend on them.
    labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        check(self)
        object.__setattr__(self, "variant", parse_rules(self.variant).text)

    @property
    def rules(self) -> RuleSet:
        return parse_rules(self.variant)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def learner(self) -> int:
        return self.seats.index(LEARNER)

    @property
    def names(self) -> list[str]:
        """"You" at the learner's seat, a short name at every other, in seat order (or the
        players' own names, given as `labels`)."""
        if self.labels is not None:
            return list(self.labels)
        others = iter(BOT_NAMES)
        return [YOU if s == LEARNER else next(others) for s in self.seats]

    def bot_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s != LEARNER]


def check(setup: Setup) -> None:
    """Refuse a table the rules do not allow, naming the field."""
    try:
        rules = parse_rules(setup.variant)
    except RuleSetError as e:
        raise SetupError(e.reason, "variant") from None
    v = rules.variant
    allowed = table_sizes(rules)
    if len(setup.seats) not in allowed:
        raise SetupError(tr("{rules} is played here by {least}–{most} players, not {n}",
                            rules=title_words(v), least=allowed[0], most=allowed[-1],
                            n=len(setup.seats)), "seats")
    if setup.seats.count(LEARNER) != 1:
        raise SetupError(tr("expected exactly one seat {learner} (the learner), got {n}",
                            learner=repr(LEARNER), n=setup.seats.count(LEARNER)), "seats")
    unknown = [s for s in setup.seats if s != LEARNER and s not in BOTS]
    if unknown:
        raise SetupError(tr("unknown bot {bot}; expected one of {choices}",
                            bot=repr(unknown[0]), choices=", ".join(BOTS)), "seats")
    if setup.labels is not None and (len(setup.labels) != len(setup.seats)
                                     or len(set(setup.labels)) != len(setup.labels)
                                     or not all(name.strip() for name in setup.labels)):
        raise SetupError(tr("expected {n} different names, one per seat, got {names}",
                            n=len(setup.seats), names=list(setup.labels)), "names")
    if not 0 <= setup.seed <= MAX_SEED:
        raise SetupError(tr("expected a whole number from 0 to {most}, got {seed}",
                            most=MAX_SEED, seed=setup.seed), "seed")


def mixed_seats(players: int, learner: int, seed: int) -> tuple[str, ...]:
    """A mixed table: every bot seat drawn from `MIXED_FROM`, fixed by the seed."""
    rng = random.Random(f"mixed:{seed}")
    return tuple(LEARNER if i == learner else rng.choice(MIXED_FROM) for i in range(players))


# The personas' names as people read them; the persona's own `name` stays the identifier the
# tournament's table is keyed by.
BOT_TITLES = {"calibrated": N_("Calibrated"), "honest": N_("Honest"), "rule": N_("Rule bot"),
              "skeptic": N_("Skeptic"), "bluffer": N_("Bluffer"), "random": N_("Random")}


def bot_title(key: str) -> str:
    """The persona's name as people read it: "Calibrated", "Rule bot"."""
    title = BOT_TITLES.get(key)
    return tr(title) if title is not None else every_persona()[key].name


@dataclass(frozen=True)
class Strength:
    """How often a bot wins against a mixed field of the other bots, as measured."""

    players: int  # the table size of the measurement (the nearest one measured)
    rate: float
    low: float
    high: float
    games: int

    @property
    def fair(self) -> float:
        return 1 / self.players


@cache
def _strengths() -> dict[tuple[str, int], Strength]:
    out: dict[tuple[str, int], Strength] = {}
    titles = {every_persona()[k].name: k for k in BOTS}
    with TOURNAMENT.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            key = titles.get(row["persona"])
            if key is None or row["field"] != MIXED_FIELD:
                continue
            n = int(row["players"])
            out[(key, n)] = Strength(n, float(row["win_rate"]), float(row["ci_low"]),
                                     float(row["ci_high"]), int(row["games"]))
    return out


def strength(key: str, players: int) -> Strength | None:
    """The bot's measured win rate at `players`, or at the nearest table size measured (the
    tournament plays 2, 3, 4 and 6); None for a bot never measured."""
    table = _strengths()
    sizes = sorted({n for k, n in table if k == key}, key=lambda n: (abs(n - players), n))
    return table[(key, sizes[0])] if sizes else None
