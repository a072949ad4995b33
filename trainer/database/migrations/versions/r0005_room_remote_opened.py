"""Which tab last opened a room's remote, and when: how the laptop's QR code learns that the
teacher's phone scanned it when several processes serve the app.

`rooms.remote_tab` keeps a hash of the tab's id and `rooms.remote_at` when it first opened the
host's remote. Until now the server kept this in its memory, which the teacher's phone and
the laptop share only when one process serves both; behind `python -m trainer serve` they
may be served by two. Every earlier room has neither (NULL): no scan seen yet.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("remote_tab", sa.String(64), nullable=True))
        batch.add_column(sa.Column("remote_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("remote_at")
        batch.drop_column("remote_tab")
