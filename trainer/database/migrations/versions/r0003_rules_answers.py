"""A room's answers to rules questions: `room_answers.correct`, with `grade` and `lost_pp`
allowed to be empty.

A room can now run "Check yourself", rules questions that are right or wrong by the rules of
the game and have no valuation behind them (`trainer/verdicts/rules.py`). Such an answer is
stored with `correct` true or false and no grade and no points lost, rather than as "best" or
"blunder": every page that reads a grade takes it for win-% points given up, which a rules
question never measures. Every earlier answer is a graded decision: its `correct` stays
NULL and its grade and points lost are kept as they are. SQLite changes a column's
nullability by copying the table (batch mode); PostgreSQL alters it in place.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("room_answers") as batch:
        batch.add_column(sa.Column("correct", sa.Boolean(), nullable=True))
        batch.alter_column("lost_pp", existing_type=sa.Float(), nullable=True)
        batch.alter_column("grade", existing_type=sa.String(16), nullable=True)


def downgrade() -> None:
    # Fails while a rules answer (no grade) is stored: remove those rows first.
    with op.batch_alter_table("room_answers") as batch:
        batch.alter_column("grade", existing_type=sa.String(16), nullable=False)
        batch.alter_column("lost_pp", existing_type=sa.Float(), nullable=False)
        batch.drop_column("correct")
