"""A played game as it is saved, exported and read back: the table, the moves and the learner's
own notes on their decisions.

Why the moves and not the cards: the deal and every later draw follow from the seed through
the engine, so the moves (in the engine's exact notation) rebuild the identical game, and a
review never reads a card the log did not produce. What the engine cannot know is stored
beside the moves: the chance of a bluff the learner stated before a decision, and the
decisions at which the coach was open.

Every door (the database row, the imported log) validates with this one model, so a damaged
game is refused with the field that is wrong, never half-loaded.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from trainer.engine.errors import MoveError
from trainer.engine.game import Game
from trainer.engine.moves import Move
from trainer.engine.notation import NotationError, move_text, parse
from trainer.engine.variants import RULES_TEXT_MAX
from trainer.i18n import tr, tr_n
from trainer.play.setup import Setup, SetupError

GAME_ID = r"^[a-z0-9]{12}$"


def new_game_id() -> str:
    """Twelve characters, random: a saved game's name in the database and in links."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))


class GameRecord(BaseModel):
    """One game against the bots, from the deal to the last move made."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    game_id: str = Field(pattern=GAME_ID)
    learner: str = Field(min_length=1, max_length=64)
    variant: str = Field(min_length=1, max_length=RULES_TEXT_MAX)  # a rule-set description
    seed: int = Field(ge=0, le=2**31 - 1)
    seats: tuple[str, ...] = Field(min_length=2, max_length=6)
    moves: list[str] = Field(default_factory=list)
    # The chance of a bluff the learner stated before a decision, by the move's index.
    stated: dict[int, float] = Field(default_factory=dict)
    # The indices of the learner's moves made with the coach open.
    coached: list[int] = Field(default_factory=list)
    resigned: bool = False
    # The players' names when they are people at a table (trainer.tables), "You" at the
    # learner's seat; None for a game against the bots (`Setup.names`).
    labels: tuple[str, ...] | None = None
    started_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    finished_at: datetime | None = None

    @field_validator("stated")
    @classmethod
    def _probabilities(cls, v: dict[int, float]) -> dict[int, float]:
        for index, p in v.items():
            if not 0.01 <= p <= 0.99:
                raise ValueError(tr("move {number}: a stated chance must be from 0.01 to "
                                    "0.99, got {value}", number=index + 1, value=p))
        return v

    @field_validator("coached")
    @classmethod
    def _once_each(cls, v: list[int]) -> list[int]:
        return sorted(set(v))  # a move is coached or not; the log lists them in order

    @field_validator("started_at", "finished_at")
    @classmethod
    def _utc(cls, v: datetime | None) -> datetime | None:
        if v is None:
            return None
        return v.replace(tzinfo=UTC) if v.tzinfo is None else v.astimezone(UTC)

    @model_validator(mode="after")
    def _table(self) -> GameRecord:
        try:
            self.setup()
        except SetupError as e:
            raise ValueError(str(e)) from None
        for k, text in enumerate(self.moves):
            try:
                parse(text)
            except NotationError as e:
                raise ValueError(tr("moves: move {number} {text}: {problem}", number=k + 1,
                                    text=repr(text), problem=e)) from None
        learner = self.setup().learner
        for field, indices in (("stated", list(self.stated)), ("coached", self.coached)):
            for index in indices:
                if not 0 <= index < len(self.moves):
                    raise ValueError(tr_n("{field}: move {number} is not the game's move "
                                          "(it has {n} move)",
                                          "{field}: move {number} is not one of the {n} moves",
                                          len(self.moves), field=field, number=index + 1))
                if parse(self.moves[index]).player != learner:
                    raise ValueError(tr("{field}: move {number} is not the learner's",
                                        field=field, number=index + 1))
        return self

    # ------------------------------------------------------------------ the table
    def setup(self) -> Setup:
        return Setup(self.variant, self.seed, tuple(self.seats), self.labels)

    @property
    def learner_seat(self) -> int:
        return self.setup().learner

    @property
    def names(self) -> list[str]:
        return self.setup().names

    def parsed(self) -> list[Move]:
        return [parse(text) for text in self.moves]

    def game(self, upto: int | None = None) -> Game:
        """The game after the first `upto` moves (all of them by default), rebuilt through the
        engine; a move the rules refuse is a ValueError naming it."""
        game = fresh_game(self.setup())
        for k, move in enumerate(self.parsed()[:upto]):
            try:
                game.apply(move)
            except MoveError as e:
                raise ValueError(not_legal_there(k, self.moves[k], e)) from None
        return game

    def learner_moves(self) -> list[int]:
        """The indices of the learner's moves."""
        seat = self.learner_seat
        return [k for k, m in enumerate(self.parsed()) if m.player == seat]

    def add(self, move: Move) -> int:
        self.moves.append(move_text(move))
        return len(self.moves) - 1


def fresh_game(setup: Setup) -> Game:
    """The deal of a table: the same seed deals the same cards, whoever sits where."""
    return Game.new(setup.names, seed=setup.seed, variant=setup.variant)


def not_legal_there(index: int, text: str, why: object) -> str:
    """A record's move the rules refuse where it stands, in the reader's language."""
    return tr("moves: move {number} {text} is not legal there: {problem}", number=index + 1,
              text=repr(text), problem=why)
