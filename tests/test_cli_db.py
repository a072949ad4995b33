"""`python -m trainer db upgrade` and `db current`: the app's database by default, any by
`--database`, on SQLite and PostgreSQL; every problem one line and exit status 2."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, insert, text

from tests import schema_before_migrations as old
from trainer.cli import main
from trainer.database.migrate import current, head
from trainer.learners.storage import ENV_VAR, Store

T0 = datetime(2025, 3, 1, 18, 30, tzinfo=UTC)


def revision_of(url: str) -> str | None:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return current(conn)
    finally:
        engine.dispose()


def test_db_upgrade_brings_a_new_database_to_the_newest_revision(empty_db_url: str,
                                                                  capsys) -> None:
    assert main(["db", "upgrade", "--database", empty_db_url]) == 0
    out = capsys.readouterr().out
    assert "Revision: none yet (a new database)" in out
    assert f"Upgrading to revision {head()} ..." in out
    assert out.rstrip().endswith(f"Done: the database is at revision {head()}.")
    assert revision_of(empty_db_url) == head()


def test_db_upgrade_of_a_database_at_the_newest_revision_does_nothing(empty_db_url: str,
                                                                      capsys) -> None:
    Store(empty_db_url).close()
    assert main(["db", "upgrade", "--database", empty_db_url]) == 0
    out = capsys.readouterr().out
    assert "Upgrading" not in out
    assert out.rstrip().endswith("Nothing to do: the database is already at the newest "
                                 f"revision, {head()}.")


def test_db_current_says_a_database_without_tables_is_new(empty_db_url: str, capsys) -> None:
    assert main(["db", "current", "--database", empty_db_url]) == 0
    out = capsys.readouterr().out
    assert "a new database" in out and f"revision {head()}." in out
    assert revision_of(empty_db_url) is None  # looking changed nothing


def test_db_current_prints_the_revision_of_an_upgraded_database(empty_db_url: str,
                                                                capsys) -> None:
    Store(empty_db_url).close()
    assert main(["db", "current", "--database", empty_db_url]) == 0
    assert f": revision {head()} (the newest)." in capsys.readouterr().out


def test_db_current_of_a_sqlite_file_not_yet_made_does_not_make_it(tmp_path: Path,
                                                                   capsys) -> None:
    path = tmp_path / "later.db"
    assert main(["db", "current", "--database", f"sqlite:///{path}"]) == 0
    assert "a new database (no file yet)" in capsys.readouterr().out
    assert not path.exists()


def test_db_upgrade_uses_the_app_s_database_when_none_is_named(tmp_path: Path, monkeypatch,
                                                               capsys) -> None:
    url = f"sqlite:///{tmp_path / 'app.db'}"
    monkeypatch.setenv(ENV_VAR, url)
    monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml here
    monkeypatch.setattr("trainer.learners.storage.SECRETS_FILES", ())
    assert main(["db", "upgrade"]) == 0
    assert f"Database: {url}" in capsys.readouterr().out
    assert revision_of(url) == head()


def test_db_upgrade_reads_the_url_from_the_secrets_file_first(tmp_path: Path, monkeypatch,
                                                              capsys) -> None:
    url = f"sqlite:///{tmp_path / 'secret.db'}"
    secrets = tmp_path / ".streamlit" / "secrets.toml"
    secrets.parent.mkdir()
    secrets.write_text(f'[db]\nurl = "{url}"\n', encoding="utf-8")
    monkeypatch.setenv(ENV_VAR, f"sqlite:///{tmp_path / 'env.db'}")
    monkeypatch.setattr("trainer.learners.storage.SECRETS_FILES", (secrets,))
    assert main(["db", "upgrade"]) == 0
    assert f"Database: {url}" in capsys.readouterr().out
    assert revision_of(url) == head()


@pytest.mark.parametrize("action", ["upgrade", "current"])
def test_a_malformed_url_is_one_line_naming_its_setting_with_exit_status_2(
        action: str, monkeypatch, capsys) -> None:
    monkeypatch.setenv(ENV_VAR, "postgresql://u:secret@host:notaport/db")
    monkeypatch.setattr("trainer.learners.storage.SECRETS_FILES", ())
    assert main(["db", action]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("error: The database URL 'postgresql://u:***@host:notaport/db' "
                          f"(from {ENV_VAR}) is malformed: its port is not a number; expected")
    assert "secret" not in err and "browser tab" not in err


def test_a_database_that_cannot_be_reached_is_one_line_with_exit_status_2(tmp_path: Path,
                                                                          capsys) -> None:
    url = f"sqlite:///{tmp_path / 'no-such-folder' / 'x.db'}"
    assert main(["db", "upgrade", "--database", url]) == 2
    err = capsys.readouterr().err
    assert err == f"error: could not reach the database at {url}: unable to open database " \
                  "file\n"


def test_a_database_from_a_newer_version_is_refused_by_upgrade_and_named_by_current(
        empty_db_url: str, capsys) -> None:
    Store(empty_db_url).close()
    engine = create_engine(empty_db_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    assert main(["db", "upgrade", "--database", empty_db_url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'9999'" in err and "a newer version" in err
    assert main(["db", "current", "--database", empty_db_url]) == 0
    assert "revision 9999, which this version of Coup Trainer does not know" in \
        capsys.readouterr().out
    assert revision_of(empty_db_url) == "9999"


def test_db_runs_as_a_module_without_a_traceback(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "trainer", "db", "upgrade", "--database",
                           "postgresql://u:p@host:notaport/db"], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: The database URL") and "Traceback" not in done.stderr


def test_db_upgrade_names_and_upgrades_a_database_made_before_migrations(empty_db_url: str,
                                                                         capsys) -> None:
    engine = create_engine(empty_db_url)
    try:
        old.create_old_schema(engine)
        with engine.begin() as conn:
            conn.execute(insert(old.learners), {"id": "ann", "created_at": T0})
    finally:
        engine.dispose()
    assert main(["db", "current", "--database", empty_db_url]) == 0
    assert "tables made before migrations, with no revision yet" in capsys.readouterr().out
    assert main(["db", "upgrade", "--database", empty_db_url]) == 0
    out = capsys.readouterr().out
    assert "Revision: none yet (tables made before migrations)" in out
    assert revision_of(empty_db_url) == head()
    store = Store(empty_db_url)
    try:
        assert store.known("ann")
    finally:
        store.close()
