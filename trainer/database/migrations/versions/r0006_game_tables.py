"""Game tables: people playing each other on their phones, with a screen as the table.

`game_tables` is a table as the host opened it (its settings, the current game's number and
a version that every change a phone or the screen shows moves on); `table_seats` who sits
where (a person by a hash of their seat token, a bot by its persona, or nobody yet);
`table_games` each game dealt at the table (its seed, which never leaves the server, the
names, the number of moves made: what a move is checked against before it is written); and
`table_moves` every move in the engine's notation, with who made it (the person, a bot, a
stand-in, the time-out rule) and the chance of a bluff the person stated. The primary key
(table, game, move number) is the last guard against two moves at once. Nothing earlier
changes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("join_secret", sa.String(64), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "table_seats",
        sa.Column("table_code", sa.String(8), sa.ForeignKey("game_tables.code"),
                  primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("nickname", sa.String(40), nullable=True),
        sa.Column("name_key", sa.String(40), nullable=True),
        sa.Column("browser", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("away", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("token_hash", name="uq_table_seats_token"),
        sa.UniqueConstraint("table_code", "name_key", name="uq_table_seats_name"),
    )
    op.create_table(
        "table_games",
        sa.Column("table_code", sa.String(8), sa.ForeignKey("game_tables.code"),
                  primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("moved_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
    )
    op.create_table(
        "table_moves",
        sa.Column("table_code", sa.String(8), primary_key=True),
        sa.Column("game", sa.Integer(), primary_key=True),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("move", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("made_by", sa.String(10), nullable=False),
        sa.Column("stated", sa.Float(), nullable=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_code", "game"],
                                ["table_games.table_code", "table_games.number"]),
    )


def downgrade() -> None:
    op.drop_table("table_moves")
    op.drop_table("table_games")
    op.drop_table("table_seats")
    op.drop_table("game_tables")
