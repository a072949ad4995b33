"""What a room asks and how it shows results: the host's choices, validated.

Why pydantic: the settings are stored as JSON in the database and come back from there; a
hand-edited or older row is checked field by field and named in the message, never trusted.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from trainer.i18n import N_

Names = Literal["names", "anonymous"]
Leaderboard = Literal["off", "end", "each"]
Live = Literal["after-reveal", "live"]
SourceKind = Literal["drill", "lesson", "puzzles", "check"]
PuzzleKind = Literal["any", "bluff", "trap", "hold"]

MAX_SEATS = 500  # the highest cap a host may set

# The choices' words, in English, marked for the catalogue: shown with `tr()`.
NAMES = {"anonymous": N_("Anonymous (generated names only)"),
         "names": N_("Names (each phone picks one)")}
LEADERBOARD = {"off": N_("No leaderboard"), "end": N_("At the end"),
               "each": N_("After each question")}
LIVE = {"after-reveal": N_("Hidden until you reveal"), "live": N_("Live, as answers come in")}


class RoomSettings(BaseModel):
    """The host's settings; the defaults follow what teachers ask for: anonymous, no
    leaderboard, answers hidden until the reveal."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    names: Names = "anonymous"
    leaderboard: Leaderboard = "off"
    live: Live = "after-reveal"
    screen_code: bool = False  # the rotating two-step join code
    # The most people in the room at once (removed ones free their place): a class, not a
    # script filling the lobby. A row stored before this field loads with the default.
    max_seats: int = Field(default=100, ge=1, le=MAX_SEATS)


class Source(BaseModel):
    """Where the questions come from: a quiz drill of one rule set, a lesson's questions
    (`lesson` "*" takes every lesson's), end-game puzzles of one kind (or any), or "check":
    the rules questions of "Check yourself" after the Learn path (`lesson` names the lesson
    file, `trainer.rooms.check`), read from the lesson library rather than a question bank.
    Adding a kind adds no field, so a room stored before it still loads as it was."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: SourceKind = "drill"
    bank: str = "default"
    drill: Literal["mixed", "theme", "end-game"] = "mixed"
    theme: str | None = None
    rule_set: str = "base"
    lesson: str | None = None
    puzzles: PuzzleKind = "any"
    count: int = Field(default=10, ge=1, le=30)
    seed: int = 0
