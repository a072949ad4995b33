"""What a room needs to limit joining: the browser behind each seat, and the screen code's
wrong guesses.

`room_seats.browser` keeps a hash of the browser's id (the learner cookie), so a page that
drops `seat=` from its address gets its seat back instead of a new one, and one browser
cannot fill a room. `rooms.code_failures`, `code_failed_at` and `code_wait_until` count the
wrong screen codes typed for the room, from any phone, and hold the time before which a join
by screen code is refused: a rotating code is guessed in seconds when nothing counts the
misses. Every earlier seat has no browser (NULL) and every earlier room no failures (0).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("room_seats") as batch:
        batch.add_column(sa.Column("browser", sa.String(64), nullable=True))
        batch.create_index("ix_room_seats_browser", ["room", "browser"])
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("code_failures", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("code_failed_at", sa.DateTime(timezone=True),
                                   nullable=True))
        batch.add_column(sa.Column("code_wait_until", sa.DateTime(timezone=True),
                                   nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("code_wait_until")
        batch.drop_column("code_failed_at")
        batch.drop_column("code_failures")
    with op.batch_alter_table("room_seats") as batch:
        batch.drop_index("ix_room_seats_browser")
        batch.drop_column("browser")
