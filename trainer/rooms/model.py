"""A room, a seat and an answer as plain values: what the store returns and the screens read.

Why apart from the store: the words and charts of a room (trainer.views) may read these but
never reach the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from trainer.rooms.settings import RoomSettings, Source
from trainer.verdicts.grades import Grade

Status = Literal["lobby", "question", "revealed", "finished", "closed"]
STATUSES: tuple[Status, ...] = ("lobby", "question", "revealed", "finished", "closed")


@dataclass(frozen=True)
class Room:
    code: str
    source: Source
    settings: RoomSettings
    questions: tuple[str, ...]
    bank_version: str
    status: Status
    question: int
    version: int
    created_at: datetime
    expires_at: datetime
    question_at: datetime | None
    join_secret: str

    @property
    def open(self) -> bool:
        return self.status not in ("finished", "closed")

    @property
    def item_id(self) -> str | None:
        """The question on the screen (also once revealed); None in the lobby and after."""
        if self.status in ("question", "revealed"):
            return self.questions[self.question]
        return None

    @property
    def asked(self) -> int:
        """How many questions were put to the room: every one up to the one on the screen (or
        the last one shown, once finished), none if it never left the lobby. A room ended
        early sums up these, never the questions it did not reach."""
        if self.question_at is None:
            return 0
        return min(self.question + 1, len(self.questions))

    @property
    def last(self) -> bool:
        return self.question >= len(self.questions) - 1


@dataclass(frozen=True)
class Seat:
    token: str
    room: str
    nickname: str
    joined_at: datetime
    kicked: bool


@dataclass(frozen=True)
class RoomAnswer:
    """One seat's answer to one question of a room: a decision's (graded, with the win-%
    points it lost) or a rules question's (right or wrong: `correct`, no grade and no points
    lost; trainer/verdicts/rules.py says why)."""

    question: int
    seat: str
    item_id: str
    action: str
    stated: float | None
    bot: float | None
    bluff: bool | None
    best: str
    lost_pp: float | None  # None for a rules question
    grade: Grade | None  # the verdict layer's grade, checked when read back; None for rules
    seconds: float | None
    answered_at: datetime
    correct: bool | None = None  # a rules question's verdict; None for a decision
