"""Every store's database brought to the newest schema, by Alembic, when a store opens it.

Why one history for all nine tables (learners, learner_names, answers, lesson_marks; rooms,
room_seats, room_answers; played_games, played_decisions) rather than one per store: the app
keeps them in one database, and one alembic_version row with one line of revisions is the
simplest thing that cannot disagree with itself. Whichever store opens a database first brings
it to the head revision, tables of every store included; the others find the work done with
one read. A store used alone on a database of its own (a rooms store in a test) finds its
tables too, beside the others' empty ones.

What a store gets from `upgrade(engine)`:

* A new, empty database: every table, made by the revisions (never by `create_all`).
* A database made before migrations (the stores' tables, some or all, and no
  alembic_version): the baseline revision makes only the tables it lacks, as `create_all`
  did, which stamps it as the baseline; the later revisions then change it in place and keep
  every row.
* A database at the head revision: left alone, after one read of its revision.
* A database at a revision this code does not know (a newer version of the app upgraded it):
  `MigrationError`, never a guess.

Why safe when several processes or threads open a new database at once (two stores of one
server, or two servers behind a load balancer): the upgrade runs in one transaction that first
takes a lock and then reads the revision again, so a second opener waits and then finds the
database at the head. On PostgreSQL the lock is a transaction-level advisory lock (released at
commit or rollback, whatever happens), and DDL is transactional there, so a failed upgrade
leaves nothing half done; on SQLite it is the write lock of BEGIN IMMEDIATE, and SQLite's DDL
is transactional too. Any other database runs the upgrade in one transaction without a lock.

Errors: a database that cannot be reached raises SQLAlchemy's own error from the first read
(before any lock is asked for), which each store words in its own message; anything that goes
wrong once the upgrade has started is a `MigrationError` whose message names no file of the
server.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

# The Alembic script directory: env.py, the template, versions/. It ships inside the package.
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

# pg_advisory_xact_lock's key: any fixed 64-bit number, the same in every process ("CoupTrnr").
LOCK_KEY = 0x436F_7570_5472_6E72
# How long an opener waits for another one's upgrade (and an upgrade for the tables it
# changes) before giving up with an error rather than hanging a page.
LOCK_TIMEOUT = "60s"


class MigrationError(Exception):
    """The database could not be brought to this version's schema, worded for a person."""


def alembic_config() -> Config:
    """The Alembic configuration, made in code: no alembic.ini is needed at run time (the one
    at the top of the checkout is for the `alembic` command line)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@lru_cache(maxsize=1)
def scripts() -> ScriptDirectory:
    """The revisions, read once per process."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def head() -> str:
    """The newest revision: the schema this version of the code reads and writes."""
    newest = scripts().get_current_head()
    if newest is None:
        raise MigrationError("the migration scripts are missing: reinstall Coup Trainer")
    return newest


def current(conn: Connection) -> str | None:
    """The database's revision; None for a database that has never been migrated (new, or
    made before migrations)."""
    from alembic.runtime.migration import MigrationContext

    heads = MigrationContext.configure(conn).get_current_heads()
    if len(heads) > 1:
        raise MigrationError(f"its alembic_version table holds several revisions "
                             f"({', '.join(sorted(heads))}); it should hold one")
    return heads[0] if heads else None


def upgrade(engine: Engine) -> bool:
    """Bring the database to the head revision; True if anything was changed, False when it
    was already there (the usual case: one read, no lock)."""
    with engine.connect() as conn:  # a database that cannot be reached fails here, at once
        target = head()
        if current(conn) == target:
            return False
    try:
        with engine.connect() as conn, conn.begin():
            upgrade_lock(conn)
            start = current(conn)
            if start == target:
                return False  # another opener upgraded it while this one waited
            _check_known(start, target)
            _run(conn, target)
    except MigrationError:
        raise
    except SQLAlchemyError as e:
        raise MigrationError(f"upgrading its tables to revision {target} failed: "
                             f"{_first_line(e)}") from e
    return True


def upgrade_lock(conn: Connection) -> None:
    """Hold the database's migration lock until this transaction ends."""
    dialect = conn.dialect.name
    if dialect == "postgresql":
        conn.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    elif dialect == "sqlite":
        # The driver starts no transaction before DDL; this one takes the write lock now, so
        # a second opener waits (its busy timeout) instead of racing to make the same tables.
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _check_known(start: str | None, target: str) -> None:
    if start is None:
        return
    from alembic.util import CommandError

    try:
        known = scripts().get_revision(start) is not None
    except CommandError:
        known = False
    if not known:
        raise MigrationError(f"its tables are at revision {start!r}, which this version of "
                             f"Coup Trainer does not know (its newest is {target!r}): a newer "
                             "version has upgraded it; run that version, or a copy of the "
                             "database from before the upgrade")


def _run(conn: Connection, target: str) -> None:
    """The revisions from the database's one to `target`, on `conn`, inside its transaction
    (env.py takes the connection from the configuration's attributes)."""
    from alembic import command
    from alembic.util import CommandError

    config = alembic_config()
    config.attributes["connection"] = conn
    try:
        command.upgrade(config, target)
    except CommandError as e:  # the scripts themselves: a broken install, not the database
        raise MigrationError("the migration scripts could not be read: reinstall Coup "
                             f"Trainer ({type(e).__name__})") from e


def _first_line(e: BaseException) -> str:
    """The driver's own first line ("lock timeout", "no such table", ...)."""
    orig = e.orig if isinstance(e, DBAPIError) and e.orig is not None else e
    lines = [line.strip() for line in str(orig).splitlines() if line.strip()]
    return (lines[0] if lines else type(orig).__name__).rstrip(".")
