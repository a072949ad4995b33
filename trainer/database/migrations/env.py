"""Alembic's environment: how the revisions reach a database.

Two callers. A store opening its database (`trainer.database.migrate.upgrade`) passes its
open connection in the configuration's attributes, inside a transaction that already holds
the migration lock; the revisions run on it and the caller commits. The `alembic` command
line (alembic.ini at the top of the checkout, for developers) has no connection: the database
is `-x url=...`, else COUP_TRAINER_DB_URL, else the app's SQLite file, and the stores' tables
are the target that `alembic revision --autogenerate` and `alembic check` compare with.
"""

from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import MetaData, create_engine
from sqlalchemy.engine import Connection

from trainer.database.migrate import upgrade_lock

config = context.config


def target_metadata() -> list[MetaData]:
    """Every store's tables, as the code defines them now (for the command line only: a store
    opening a database never compares, and imports no other store)."""
    from trainer.learners.storage import metadata as learners
    from trainer.play.store import metadata as play
    from trainer.rooms.store import metadata as rooms
    from trainer.tables.store import metadata as tables

    return [learners, rooms, play, tables]


def database_url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") \
        or os.environ.get("COUP_TRAINER_DB_URL", "").strip()
    if url:
        return url
    from trainer.learners.storage import DEFAULT_DB

    return f"sqlite:///{DEFAULT_DB}"


def run(connection: Connection, compare: bool) -> None:
    context.configure(connection=connection,
                      target_metadata=target_metadata() if compare else None,
                      render_as_batch=True)  # SQLite changes a column by copying its table
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if given is not None:
    run(given, compare=False)
elif context.is_offline_mode():  # alembic upgrade --sql: the SQL, printed
    context.configure(url=database_url(), target_metadata=target_metadata(),
                      literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    if config.config_file_name is not None:
        fileConfig(config.config_file_name)  # alembic.ini's loggers: "Running upgrade ..."
    engine = create_engine(database_url())
    try:
        with engine.connect() as conn, conn.begin():
            upgrade_lock(conn)
            run(conn, compare=True)
    finally:
        engine.dispose()
