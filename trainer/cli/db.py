"""`db`: bring the database to this version's schema (`db upgrade`), or say where it stands
(`db current`), before a deployment starts the app rather than on its first page.

The database is the app's own unless `--database` names another: `[db] url` in
`.streamlit/secrets.toml`, else `COUP_TRAINER_DB_URL`, else the SQLite file in the data folder.
Every failure is one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

FAILED = 2


class _Failure(Exception):
    """A problem already worded for the person at the terminal."""


def register(commands: Any) -> None:
    db = commands.add_parser("db", help="upgrade the database, or show its schema revision")
    actions = db.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    for name, run, text in (
            ("upgrade", run_upgrade, "bring the database to this version's schema"),
            ("current", run_current, "print the database's schema revision")):
        action = actions.add_parser(name, help=text, description=text)
        action.add_argument("--database", metavar="URL", default=None,
                            help="a SQLAlchemy URL (default: the app's database: [db] url in "
                                 ".streamlit/secrets.toml, else COUP_TRAINER_DB_URL, else "
                                 "the SQLite file in the data folder)")
        action.set_defaults(func=run)


def run_upgrade(args: argparse.Namespace) -> int:
    return _guarded(_upgrade, args)


def run_current(args: argparse.Namespace) -> int:
    return _guarded(_current, args)


def _guarded(work: Any, args: argparse.Namespace) -> int:
    try:
        status: int = work(args)
    except _Failure as e:
        print(f"error: {e}", file=sys.stderr, flush=True)
        return FAILED
    except Exception as e:  # noqa: BLE001  (never a traceback: say what broke, in one line)
        print(f"error: internal error ({type(e).__name__}: {e}); please report it",
              file=sys.stderr, flush=True)
        return FAILED
    return status


def _open(args: argparse.Namespace) -> tuple[Any, str]:
    """The engine of the database asked for, and how it is shown (password masked)."""
    from trainer.learners.storage import (
        ADVICE,
        StorageError,
        database_setting,
        engine_for,
        secrets_files,
    )

    if args.database is not None:
        url, setting = args.database, "--database"
    else:
        url, setting = database_setting(secrets_files())
    try:
        engine, parsed = engine_for(url, setting)
    except StorageError as e:  # the app's words, without its advice about the browser tab
        raise _Failure(str(e).removesuffix(" " + ADVICE)) from None
    return engine, parsed.render_as_string(hide_password=True)


def _read_revision(engine: Any, shown: str) -> tuple[str | None, bool]:
    """The database's revision and whether it has any of the stores' tables."""
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    from trainer.database.migrate import MigrationError, current
    from trainer.learners.storage import driver_reason

    try:
        with engine.connect() as conn:
            revision = current(conn)
            tables = bool(set(inspect(conn).get_table_names()) - {"alembic_version"})
    except SQLAlchemyError as e:
        raise _Failure(f"could not reach the database at {shown}: {driver_reason(e)}") from None
    except MigrationError as e:
        raise _Failure(f"the database at {shown} cannot be read: {e}") from None
    return revision, tables


def _sqlite_file_missing(engine: Any) -> str | None:
    """The path of a SQLite database that has no file yet (looking must not make one)."""
    from pathlib import Path

    if engine.dialect.name != "sqlite":
        return None
    path = engine.url.database
    if path in (None, "", ":memory:") or Path(path).exists():
        return None
    return str(path)


def _upgrade(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from trainer.database.migrate import MigrationError, head, upgrade
    from trainer.learners.storage import driver_reason

    engine, shown = _open(args)
    try:
        target = head()
        print(f"Database: {shown}", flush=True)
        before, tables = (None, False) if _sqlite_file_missing(engine) else \
            _read_revision(engine, shown)
        if before is None:
            print("Revision: none yet ("
                  + ("tables made before migrations" if tables else "a new database") + ")",
                  flush=True)
        else:
            print(f"Revision: {before}", flush=True)
        if before != target:
            print(f"Upgrading to revision {target} ...", flush=True)
        try:
            changed = upgrade(engine)
        except MigrationError as e:
            raise _Failure(f"could not bring the database at {shown} up to date: {e}") from None
        except SQLAlchemyError as e:
            raise _Failure(f"could not reach the database at {shown}: {driver_reason(e)}") from None
    finally:
        engine.dispose()
    print(f"Done: the database is at revision {target}." if changed else
          f"Nothing to do: the database is already at the newest revision, {target}.")
    return 0


def _current(args: argparse.Namespace) -> int:
    from trainer.database.migrate import head, scripts

    engine, shown = _open(args)
    try:
        target = head()
        missing = _sqlite_file_missing(engine)
        if missing is not None:
            print(f"{shown}: a new database (no file yet); `python -m trainer db upgrade` "
                  f"makes it at revision {target}.")
            return 0
        revision, tables = _read_revision(engine, shown)
    finally:
        engine.dispose()
    if revision is None:
        what = ("tables made before migrations, with no revision yet" if tables
                else "a new database, with no tables yet")
        print(f"{shown}: {what}; `python -m trainer db upgrade` brings it to revision "
              f"{target}.")
    elif revision == target:
        print(f"{shown}: revision {revision} (the newest).")
    elif _known(scripts(), revision):
        print(f"{shown}: revision {revision}; `python -m trainer db upgrade` brings it to "
              f"revision {target}.")
    else:
        print(f"{shown}: revision {revision}, which this version of Coup Trainer does not "
              f"know (its newest is {target}): a newer version has upgraded it.")
    return 0


def _known(scripts: Any, revision: str) -> bool:
    from alembic.util import CommandError

    try:
        return scripts.get_revision(revision) is not None
    except CommandError:
        return False
