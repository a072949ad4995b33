"""One answered decision, as it is saved, exported and scored: the learner's answer record.

Why a schema of its own: an answer travels through three doors — a page saves it, the CSV
export writes it, the CSV import reads it back (possibly edited by hand) — and the scoring
reads it from any of them. Every door validates with this one model, so a malformed answer is
refused with the field that is wrong and what was expected, never half-saved. Every feature
makes it the one way, `record`, from the verdict on the decision: the grade, the points lost
and the best option are the verdict's, never recomputed.

An answer carries what the scores need (the stated probability, the truth, the bot's and the
counting estimates, the win-% lost), so the calibration page never needs the question bank the
item came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from trainer.engine.variants import RULES_TEXT_MAX
from trainer.i18n import tr, trc
from trainer.i18n.fields import field_problem
from trainer.verdicts.grades import Grade
from trainer.verdicts.kinds import DecisionKind, parse_kind
from trainer.verdicts.verdict import Verdict

LABEL_MAX = 120


class Answer(BaseModel):
    """A learner's answer to one decision. Probabilities are P(the claim is a bluff)."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    answer_id: str = Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
                           description="unique per showing of an item: saving twice is a no-op")
    learner: str = Field(min_length=1, max_length=64)
    item_id: str = Field(min_length=1, max_length=64)
    bank: str = Field(min_length=1, max_length=64, description="the question bank's version")
    mode: str = Field(default="mixed", max_length=64)
    kind: DecisionKind
    themes: tuple[str, ...] = ()
    variant: str = Field(default="base", max_length=RULES_TEXT_MAX)  # a rule-set description
    answered_at: datetime
    seconds: float | None = Field(default=None, ge=0, le=86_400)
    stated: float | None = Field(default=None, ge=0.01, le=0.99,
                                 description="the learner's P(bluff); None without a claim")
    bot: float | None = Field(default=None, ge=0, le=1)
    prior: float | None = Field(default=None, ge=0, le=1)
    bluff: bool | None = Field(default=None, description="the truth; None without a claim")
    action: str = Field(min_length=1, max_length=LABEL_MAX)
    best: str = Field(min_length=1, max_length=LABEL_MAX)
    lost_pp: float = Field(ge=0, le=100)
    grade: Grade
    trivial: bool = Field(default=False,
                          description="every option within 1 point: left out of error rates")

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, v: object) -> DecisionKind:
        # The kinds an answer is saved under; an old file's "counter" reads as a block.
        return parse_kind(v, answered=True)

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
        data["kind"] = self.kind.value
        data["themes"] = "|".join(self.themes)
        return data


COLUMNS: tuple[str, ...] = tuple(Answer.model_fields)


def record(verdict: Verdict, *, answer_id: str, learner: str, item_id: str, bank: str,
           kind: DecisionKind | str, answered_at: datetime, mode: str = "mixed",
           themes: Sequence[str] = (), variant: str = "base", seconds: float | None = None,
           stated: float | None = None, bot: float | None = None, prior: float | None = None,
           bluff: bool | None = None) -> Answer:
    """The answer record of a verdict: what was chosen, the best option, the points lost and
    the grade come from the verdict; the rest says who answered what, when. Raises pydantic's
    ValidationError (see `describe_error`) on a bad field."""
    return Answer(
        answer_id=answer_id, learner=learner, item_id=item_id, bank=bank, mode=mode,
        kind=parse_kind(kind, answered=True), themes=tuple(themes), variant=variant,
        answered_at=answered_at,
        seconds=None if seconds is None else round(min(seconds, 86_400), 2),
        stated=stated, bot=bot, prior=prior, bluff=bluff, action=verdict.chosen[:LABEL_MAX],
        best=verdict.best[:LABEL_MAX], lost_pp=min(100.0, verdict.lost_pp),
        grade=verdict.grade, trivial=verdict.trivial)


def describe_error(e: ValidationError, where: str = "") -> str:
    """One line per wrong field: `where: field: what was expected (got ...)`, in the reader's
    language (`where`, a line or a row, comes in it already)."""
    lines = []
    for err in e.errors():
        field = ".".join(str(x) for x in err["loc"]) or trc("record", "answer")
        problem = field_problem(err)
        got = err.get("input")
        if isinstance(got, dict):
            lines.append(tr("{where}: {field}: {problem}", where=where, field=field,
                            problem=problem) if where else
                         tr("{field}: {problem}", field=field, problem=problem))
        else:
            lines.append(tr("{where}: {field}: {problem} (got {value})", where=where,
                            field=field, problem=problem, value=repr(got)) if where else
                         tr("{field}: {problem} (got {value})", field=field, problem=problem,
                            value=repr(got)))
    return "\n".join(lines)


def now() -> datetime:
    return datetime.now(UTC)
