"""Rule-set columns widened from 32 to 512 characters (answers.variant, played_games.variant).

A rule set is now written as its compact description (`trainer.engine.variants.rules_text`),
e.g. ``reformation-inquisitor+low_start+bounty+pay_five(challengers=all)``, far longer than a
variant's name. PostgreSQL enforces a VARCHAR's length and widens one in place (no rewrite);
SQLite enforces none, but the declared type is copied (batch mode) so the schema says what
the code means. Every row is kept. 512 holds the longest description there is (every
house rule switched and every table rule changed: 360 characters, checked by a test).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

COLUMNS = (("answers", "variant"), ("played_games", "variant"))


def upgrade() -> None:
    for table, column in COLUMNS:
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=sa.String(32), type_=sa.String(512),
                               existing_nullable=False)


def downgrade() -> None:
    # Fails on PostgreSQL while a description longer than 32 characters is stored.
    for table, column in COLUMNS:
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=sa.String(512), type_=sa.String(32),
                               existing_nullable=False)
