"""The baseline: the nine tables as the stores made them with `create_all` before migrations.

A database made before migrations holds some or all of these tables (an older one lacks
learner_names, lesson_marks or the rooms' and played games' tables, which were added later)
and no alembic_version. This revision makes only the tables that are missing, exactly as
`create_all` did, and leaves the others and their rows alone: that is how such a database is
recognised as the baseline. A new database gets all nine.

Frozen: this file is the schema of that time. A change to a table is a new revision.

Revision ID: 0001
Revises:
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _missing(table: str) -> bool:
    if context.is_offline_mode():
        return True  # SQL written for later: no database to look at
    return not sa.inspect(op.get_bind()).has_table(table)


def upgrade() -> None:
    # learners (trainer/learners/storage.py)
    if _missing("learners"):
        op.create_table(
            "learners",
            sa.Column("id", sa.String(64), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )
    if _missing("learner_names"):
        op.create_table(
            "learner_names",
            sa.Column("learner", sa.String(64), nullable=False),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("named_at", sa.DateTime(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(["learner"], ["learners.id"]),
            sa.PrimaryKeyConstraint("learner"),
        )
    if _missing("answers"):
        op.create_table(
            "answers",
            sa.Column("row", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("answer_id", sa.String(64), nullable=False),
            sa.Column("learner", sa.String(64), nullable=False),
            sa.Column("item_id", sa.String(64), nullable=False),
            sa.Column("bank", sa.String(64), nullable=False),
            sa.Column("mode", sa.String(64), nullable=False),
            sa.Column("kind", sa.String(16), nullable=False),
            sa.Column("themes", sa.Text(), nullable=False),
            sa.Column("variant", sa.String(32), nullable=False),
            sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("seconds", sa.Float(), nullable=True),
            sa.Column("stated", sa.Float(), nullable=True),
            sa.Column("bot", sa.Float(), nullable=True),
            sa.Column("prior", sa.Float(), nullable=True),
            sa.Column("bluff", sa.Boolean(), nullable=True),
            sa.Column("action", sa.String(120), nullable=False),
            sa.Column("best", sa.String(120), nullable=False),
            sa.Column("lost_pp", sa.Float(), nullable=False),
            sa.Column("grade", sa.String(16), nullable=False),
            sa.Column("trivial", sa.Boolean(), nullable=False),
            sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(["learner"], ["learners.id"]),
            sa.PrimaryKeyConstraint("row"),
            sa.UniqueConstraint("answer_id"),
        )
        op.create_index("ix_answers_learner_answered_at", "answers",
                        ["learner", "answered_at"])
    if _missing("lesson_marks"):
        op.create_table(
            "lesson_marks",
            sa.Column("row", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("learner", sa.String(64), nullable=False),
            sa.Column("lesson", sa.String(64), nullable=False),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("step", sa.Integer(), nullable=False),
            sa.Column("correct", sa.Boolean(), nullable=False),
            sa.Column("marked_at", sa.DateTime(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(["learner"], ["learners.id"]),
            sa.PrimaryKeyConstraint("row"),
        )
        op.create_index("ix_lesson_marks_learner", "lesson_marks", ["learner", "row"])

    # rooms (trainer/rooms/store.py)
    if _missing("rooms"):
        op.create_table(
            "rooms",
            sa.Column("code", sa.String(8), nullable=False),
            sa.Column("host_hash", sa.String(64), nullable=False),
            sa.Column("join_secret", sa.String(64), nullable=False),
            sa.Column("source", sa.Text(), nullable=False),
            sa.Column("settings", sa.Text(), nullable=False),
            sa.Column("questions", sa.Text(), nullable=False),
            sa.Column("bank_version", sa.String(64), nullable=False),
            sa.Column("status", sa.String(12), nullable=False),
            sa.Column("question", sa.Integer(), nullable=False),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("question_at", sa.DateTime(timezone=True), nullable=True),
            sa.PrimaryKeyConstraint("code"),
        )
    if _missing("room_seats"):
        op.create_table(
            "room_seats",
            sa.Column("token", sa.String(64), nullable=False),
            sa.Column("room", sa.String(8), nullable=False),
            sa.Column("nickname", sa.String(40), nullable=False),
            sa.Column("name_key", sa.String(40), nullable=False),
            sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("kicked", sa.Boolean(), nullable=False),
            sa.ForeignKeyConstraint(["room"], ["rooms.code"]),
            sa.PrimaryKeyConstraint("token"),
            sa.UniqueConstraint("room", "name_key", name="uq_room_seats_name"),
        )
        op.create_index("ix_room_seats_room", "room_seats", ["room"])
    if _missing("room_answers"):
        op.create_table(
            "room_answers",
            sa.Column("room", sa.String(8), nullable=False),
            sa.Column("question", sa.Integer(), nullable=False),
            sa.Column("seat", sa.String(64), nullable=False),
            sa.Column("item_id", sa.String(64), nullable=False),
            sa.Column("action", sa.String(120), nullable=False),
            sa.Column("stated", sa.Float(), nullable=True),
            sa.Column("bot", sa.Float(), nullable=True),
            sa.Column("bluff", sa.Boolean(), nullable=True),
            sa.Column("best", sa.String(120), nullable=False),
            sa.Column("lost_pp", sa.Float(), nullable=False),
            sa.Column("grade", sa.String(16), nullable=False),
            sa.Column("seconds", sa.Float(), nullable=True),
            sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(["room"], ["rooms.code"]),
            sa.ForeignKeyConstraint(["seat"], ["room_seats.token"]),
            sa.PrimaryKeyConstraint("room", "question", "seat"),
        )

    # played games (trainer/play/store.py)
    if _missing("played_games"):
        op.create_table(
            "played_games",
            sa.Column("game_id", sa.String(12), nullable=False),
            sa.Column("learner", sa.String(64), nullable=False),
            sa.Column("variant", sa.String(32), nullable=False),
            sa.Column("seed", sa.Integer(), nullable=False),
            sa.Column("seats", sa.Text(), nullable=False),
            sa.Column("moves", sa.Text(), nullable=False),
            sa.Column("stated", sa.Text(), nullable=False),
            sa.Column("coached", sa.Text(), nullable=False),
            sa.Column("resigned", sa.Boolean(), nullable=False),
            sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
            sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint("game_id"),
        )
        op.create_index("ix_played_games_learner", "played_games", ["learner"])
    if _missing("played_decisions"):
        op.create_table(
            "played_decisions",
            sa.Column("game_id", sa.String(12), nullable=False),
            sa.Column("move_index", sa.Integer(), nullable=False),
            sa.Column("rollouts", sa.Integer(), nullable=False),
            sa.Column("item", sa.Text(), nullable=False),
            sa.Column("solved", sa.Text(), nullable=True),
            sa.ForeignKeyConstraint(["game_id"], ["played_games.game_id"]),
            sa.PrimaryKeyConstraint("game_id", "move_index", "rollouts",
                                    name="pk_played_decisions"),
        )


def downgrade() -> None:
    for table in ("played_decisions", "played_games", "room_answers", "room_seats", "rooms",
                  "lesson_marks", "answers", "learner_names", "learners"):
        op.drop_table(table)
