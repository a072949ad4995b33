"""One answered quiz item, as it is saved, exported and scored.

Why a schema of its own: an answer travels through three doors — the quiz page saves it, the
CSV export writes it, the CSV import reads it back (possibly edited by hand) — and the scoring
reads it from any of them. Every door validates with this one model, so a malformed answer is
refused with the field that is wrong and what was expected, never half-saved.

An answer carries what the scores need (the stated probability, the truth, the bot's and the
counting estimates, the win-% lost), so the calibration page never needs the question bank the
item came from.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from trainer.engine.variants import RULES_TEXT_MAX

# The order matters: the CSV export writes the columns in this order.
Grade = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
Kind = Literal["challenge", "block", "counter", "bluff", "lose", "keep"]

# Grades by win-% lost against the best option, in percentage points (upper bounds).
GRADE_BOUNDS: tuple[tuple[Grade, float], ...] = (
    ("best", 1.0), ("good", 5.0), ("inaccuracy", 10.0), ("mistake", 15.0),
)


def grade_for(lost_pp: float) -> Grade:
    """best ≤ 1, good ≤ 5, inaccuracy ≤ 10, mistake ≤ 15, blunder > 15 points lost."""
    for grade, bound in GRADE_BOUNDS:
        if lost_pp <= bound:
            return grade
    return "blunder"


class Answer(BaseModel):
    """A learner's answer to one item. Probabilities are P(the claim is a bluff)."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    answer_id: str = Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
                           description="unique per showing of an item: saving twice is a no-op")
    learner: str = Field(min_length=1, max_length=64)
    item_id: str = Field(min_length=1, max_length=64)
    bank: str = Field(min_length=1, max_length=64, description="the question bank's version")
    mode: str = Field(default="mixed", max_length=64)
    kind: Kind
    themes: tuple[str, ...] = ()
    variant: str = Field(default="base", max_length=RULES_TEXT_MAX)  # a rule-set description
    answered_at: datetime
    seconds: float | None = Field(default=None, ge=0, le=86_400)
    stated: float | None = Field(default=None, ge=0.01, le=0.99,
                                 description="the learner's P(bluff); None without a claim")
    bot: float | None = Field(default=None, ge=0, le=1)
    prior: float | None = Field(default=None, ge=0, le=1)
    bluff: bool | None = Field(default=None, description="the truth; None without a claim")
    action: str = Field(min_length=1, max_length=120)
    best: str = Field(min_length=1, max_length=120)
    lost_pp: float = Field(ge=0, le=100)
    grade: Grade
    trivial: bool = Field(default=False,
                          description="every option within 1 point: left out of error rates")

    @field_validator("answered_at")
    @classmethod
    def _utc(cls, v: datetime) -> datetime:
        return v.replace(tzinfo=UTC) if v.tzinfo is None else v.astimezone(UTC)

    @field_validator("themes", mode="before")
    @classmethod
    def _split_themes(cls, v: object) -> object:
        if isinstance(v, str):  # the CSV and database form: "Duke claims|End-game 1-v-1"
            return tuple(t.strip() for t in v.split("|") if t.strip())
        return v

    @property
    def scored(self) -> bool:
        """Counts for calibration: a claim was judged and its truth is known."""
        return self.stated is not None and self.bluff is not None

    def row(self) -> dict[str, object]:
        """The flat form used by the database and the CSV file."""
        data = self.model_dump()
        data["themes"] = "|".join(self.themes)
        return data


COLUMNS: tuple[str, ...] = tuple(Answer.model_fields)


def describe_error(e: ValidationError, where: str = "") -> str:
    """One line per wrong field: `where: field: what was expected (got ...)`."""
    lines = []
    for err in e.errors():
        field = ".".join(str(x) for x in err["loc"]) or "answer"
        got = err.get("input")
        shown = "" if isinstance(got, dict) else f" (got {got!r})"
        lines.append(f"{where}{': ' if where else ''}{field}: {err['msg']}{shown}")
    return "\n".join(lines)


def now() -> datetime:
    return datetime.now(UTC)
