"""The nine tables exactly as the stores made them with `create_all` before migrations: a
frozen copy (of trainer/learners/storage.py, trainer/rooms/store.py and trainer/play/store.py
at that time), so a test can build a database of the old schema and upgrade it. Never edit
to follow the stores: it is the past."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine import Engine

# One MetaData per store, as the stores had: each made its own tables with create_all.
learners_metadata = MetaData()
rooms_metadata = MetaData()
play_metadata = MetaData()

learners = Table(
    "learners", learners_metadata,
    Column("id", String(64), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
learner_names = Table(
    "learner_names", learners_metadata,
    Column("learner", String(64), ForeignKey("learners.id"), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("named_at", DateTime(timezone=True), nullable=False),
)
answers = Table(
    "answers", learners_metadata,
    Column("row", Integer, primary_key=True, autoincrement=True),
    Column("answer_id", String(64), nullable=False, unique=True),
    Column("learner", String(64), ForeignKey("learners.id"), nullable=False),
    Column("item_id", String(64), nullable=False),
    Column("bank", String(64), nullable=False),
    Column("mode", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("themes", Text, nullable=False),
    Column("variant", String(32), nullable=False),
    Column("answered_at", DateTime(timezone=True), nullable=False),
    Column("seconds", Float, nullable=True),
    Column("stated", Float, nullable=True),
    Column("bot", Float, nullable=True),
    Column("prior", Float, nullable=True),
    Column("bluff", Boolean, nullable=True),
    Column("action", String(120), nullable=False),
    Column("best", String(120), nullable=False),
    Column("lost_pp", Float, nullable=False),
    Column("grade", String(16), nullable=False),
    Column("trivial", Boolean, nullable=False),
    Column("saved_at", DateTime(timezone=True), nullable=False),
    Index("ix_answers_learner_answered_at", "learner", "answered_at"),
)
lesson_marks = Table(
    "lesson_marks", learners_metadata,
    Column("row", Integer, primary_key=True, autoincrement=True),
    Column("learner", String(64), ForeignKey("learners.id"), nullable=False),
    Column("lesson", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("step", Integer, nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("marked_at", DateTime(timezone=True), nullable=False),
    Index("ix_lesson_marks_learner", "learner", "row"),
)

rooms = Table(
    "rooms", rooms_metadata,
    Column("code", String(8), primary_key=True),
    Column("host_hash", String(64), nullable=False),
    Column("join_secret", String(64), nullable=False),
    Column("source", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("questions", Text, nullable=False),
    Column("bank_version", String(64), nullable=False),
    Column("status", String(12), nullable=False),
    Column("question", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("question_at", DateTime(timezone=True), nullable=True),
)
room_seats = Table(
    "room_seats", rooms_metadata,
    Column("token", String(64), primary_key=True),
    Column("room", String(8), ForeignKey("rooms.code"), nullable=False),
    Column("nickname", String(40), nullable=False),
    Column("name_key", String(40), nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Column("kicked", Boolean, nullable=False),
    UniqueConstraint("room", "name_key", name="uq_room_seats_name"),
    Index("ix_room_seats_room", "room"),
)
room_answers = Table(
    "room_answers", rooms_metadata,
    Column("room", String(8), ForeignKey("rooms.code"), primary_key=True),
    Column("question", Integer, primary_key=True),
    Column("seat", String(64), ForeignKey("room_seats.token"), primary_key=True),
    Column("item_id", String(64), nullable=False),
    Column("action", String(120), nullable=False),
    Column("stated", Float, nullable=True),
    Column("bot", Float, nullable=True),
    Column("bluff", Boolean, nullable=True),
    Column("best", String(120), nullable=False),
    Column("lost_pp", Float, nullable=False),
    Column("grade", String(16), nullable=False),
    Column("seconds", Float, nullable=True),
    Column("answered_at", DateTime(timezone=True), nullable=False),
)

played_games = Table(
    "played_games", play_metadata,
    Column("game_id", String(12), primary_key=True),
    Column("learner", String(64), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("seed", Integer, nullable=False),
    Column("seats", Text, nullable=False),
    Column("moves", Text, nullable=False),
    Column("stated", Text, nullable=False),
    Column("coached", Text, nullable=False),
    Column("resigned", Boolean, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_played_games_learner", "learner"),
)
played_decisions = Table(
    "played_decisions", play_metadata,
    Column("game_id", String(12), ForeignKey("played_games.game_id"), nullable=False),
    Column("move_index", Integer, nullable=False),
    Column("rollouts", Integer, nullable=False),
    Column("item", Text, nullable=False),
    Column("solved", Text, nullable=True),
    PrimaryKeyConstraint("game_id", "move_index", "rollouts", name="pk_played_decisions"),
)

ALL = (learners_metadata, rooms_metadata, play_metadata)


def create_old_schema(engine: Engine) -> None:
    """The database as the old code left it: each store's create_all, no alembic_version."""
    for metadata in ALL:
        metadata.create_all(engine)
