"""The players' own names of a saved game played at a table of people.

`played_games.labels` keeps them (a JSON list in seat order, "You" at the learner's seat), so
a game a player reviewed at a table and finds again in *Your games* on the Play page reads
with the names it was played under. Every earlier game, played against the bots, has none
(NULL): its names are the bots' short names, as before.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("played_games") as batch:
        batch.add_column(sa.Column("labels", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("played_games") as batch:
        batch.drop_column("labels")
