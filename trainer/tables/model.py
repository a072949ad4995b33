"""A game table, its seats and its games as plain values: what the store returns and the
screens read.

Why apart from the store: the words of a table (trainer.views) may read these but never reach
the database, and none of them carries a secret. A seat's token is shown once, when it is
made; the deal's seed stays in `TableGame`, which only the live table reads
(`trainer.tables.live`), never a page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from trainer.engine.errors import RuleSetError
from trainer.engine.explain import variant_title
from trainer.engine.variants import RULES_TEXT_MAX, parse_rules
from trainer.i18n import tr
from trainer.play.setup import BOTS, table_sizes

Status = Literal["lobby", "playing", "over", "closed"]
STATUSES: tuple[Status, ...] = ("lobby", "playing", "over", "closed")
SeatKind = Literal["open", "person", "bot"]
# Who made a move: the person at the seat, a bot in a bot's seat, a bot standing in for a
# person who has gone, the time-out rule, or the engine's forced loss of a last card.
MadeBy = Literal["person", "bot", "stand_in", "timeout", "forced"]
MADE_BY: tuple[MadeBy, ...] = ("person", "bot", "stand_in", "timeout", "forced")

# The bot that stands in for a person who has gone, unless the host picks another: the bot
# that plays best among those that decide at once (the Calibrated bot plays each option out).
STAND_IN = "honest"
TURN_SECONDS = (0, 30, 60, 90, 120, 300)  # 0: no clock
STAND_IN_AFTER = (0, 60, 120, 300)  # 0: never
BOT_PACES = (0.5, 1.0, 1.5, 2.5)


class TableSettings(BaseModel):
    """What the host chose: the rules, the number of seats and the table's clocks.

    `turn_seconds`: when above 0, a decision not made in that many seconds is made by the
    time-out rule (`trainer.tables.live.timeout_move`: the forum variant's Income, a Coup on
    a random player at 10+ coins, a pass in a window; the stand-in bot where that rule says
    nothing), in any rule set. `stand_in_after`: when above 0, a person whose phone has not
    been seen for that long is played by the stand-in bot until the phone comes back.
    `bot_pace`: the pause before each bot move, so a person can follow the table."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: str = Field(default="base", min_length=1, max_length=RULES_TEXT_MAX)
    seats: int = Field(default=4, ge=2, le=6)
    turn_seconds: int = Field(default=0, ge=0, le=3600)
    stand_in_after: int = Field(default=120, ge=0, le=3600)
    stand_in: str = STAND_IN
    bot_pace: float = Field(default=1.5, ge=0.0, le=10.0)

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: str) -> str:
        try:
            return parse_rules(v).text
        except RuleSetError as e:
            raise ValueError(str(e)) from None

    @field_validator("stand_in")
    @classmethod
    def _bot(cls, v: str) -> str:
        if v not in BOTS:
            raise ValueError(f"unknown bot {v!r}; expected one of {', '.join(BOTS)}")
        return v

    @model_validator(mode="after")
    def _size(self) -> TableSettings:
        allowed = table_sizes(parse_rules(self.rules))
        if self.seats not in allowed:
            raise ValueError(tr("{rules} is played here by {low}–{high} players, not {seats}",
                                rules=variant_title(parse_rules(self.rules).variant),
                                low=allowed[0], high=allowed[-1], seats=self.seats))
        return self

    @property
    def clock(self) -> timedelta | None:
        return timedelta(seconds=self.turn_seconds) if self.turn_seconds else None


@dataclass(frozen=True)
class TableSeat:
    """One seat as anyone may know it: never its token."""

    seat: int
    kind: SeatKind
    nickname: str | None
    bot: str | None  # the persona of a bot seat, or the stand-in of a person's seat
    away: bool  # a person's seat the stand-in plays for now
    seen_at: datetime | None

    @property
    def filled(self) -> bool:
        return self.kind != "open"


@dataclass(frozen=True)
class GameTable:
    code: str
    settings: TableSettings
    status: Status
    game: int  # the current game's number; 0 before the first deal
    version: int
    created_at: datetime
    expires_at: datetime
    seats: tuple[TableSeat, ...]
    join_secret: str  # the screen key is derived from it; never shown

    @property
    def open_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "open"]

    @property
    def people(self) -> list[TableSeat]:
        return [s for s in self.seats if s.kind == "person"]


@dataclass(frozen=True)
class TableGame:
    """One game dealt at a table. `seed` deals the cards: only the live table reads it."""

    number: int
    seed: int
    rules: str
    names: tuple[str, ...]
    kinds: tuple[SeatKind, ...]  # who sat where when it was dealt (person or bot)
    moves: int
    started_at: datetime
    moved_at: datetime
    finished_at: datetime | None
    winner: int | None


@dataclass(frozen=True)
class TableMove:
    index: int
    move: str  # the engine's notation
    seat: int
    made_by: MadeBy
    stated: float | None
    made_at: datetime
