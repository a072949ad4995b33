"""A database written by a released version (`tests/data/database/release-*.db`, made by
`scripts/make-db-fixture.py` with that version's own stores) is upgraded in place by opening
it, with nothing lost: on SQLite the file itself (a copy), on PostgreSQL the same rows loaded
into tables at the file's revision."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import MetaData, create_engine, insert, select, text
from sqlalchemy.engine import Engine, make_url

from trainer.database.migrate import alembic_config, current, head
from trainer.learners.answers import Answer
from trainer.learners.storage import Store
from trainer.play.store import PlayStore
from trainer.rooms.store import RoomStore
from trainer.tables.live import Tables
from trainer.tables.store import TableStore

FIXTURES = sorted((Path(__file__).parent / "data" / "database").glob("release-*.db"))
# Parents before children, for loading rows into PostgreSQL.
ORDER = ("learners", "learner_names", "answers", "lesson_marks", "rooms", "room_seats",
         "room_answers", "played_games", "played_decisions", "game_tables", "table_seats",
         "table_games", "table_moves")


def every_row(engine: Engine) -> dict[str, list[dict[str, Any]]]:
    """Each table's rows as the database holds them (its own columns, read by reflection)."""
    tables = MetaData()
    tables.reflect(engine)
    out = {}
    with engine.connect() as conn:
        for name, table in tables.tables.items():
            if name != "alembic_version":
                out[name] = sorted((dict(r._mapping) for r in conn.execute(select(table))),
                                   key=repr)
    return out


def kept(before: dict[str, list[dict[str, Any]]],
         after: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The rows after, cut to the columns that were there before (a revision may add some)."""
    return {name: sorted(({k: r[k] for k in rows[0]} for r in after.get(name, [])), key=repr)
            if rows else after.get(name, []) for name, rows in before.items()}


def load_into(url: str, fixture: Path) -> None:
    """The fixture's tables made at its revision on `url`, and its rows copied in, with the
    row counters moved past the copied ids (as a dump and restore leaves them)."""
    source = create_engine(f"sqlite:///{fixture}")
    target = create_engine(url)
    try:
        with source.connect() as conn:
            revision = current(conn)
        assert revision is not None
        config = alembic_config()
        with target.connect() as conn, conn.begin():
            config.attributes["connection"] = conn
            command.upgrade(config, revision)
        rows = every_row(source)
        tables = MetaData()
        tables.reflect(target)
        with target.begin() as conn:
            for name in ORDER:
                if rows.get(name):
                    conn.execute(insert(tables.tables[name]), rows[name])
            for name in ("answers", "lesson_marks", "room_answers"):
                if "row" in tables.tables[name].c and rows.get(name):
                    conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'row'), "
                                      f"(SELECT max(\"row\") FROM {name}))"))
    finally:
        source.dispose()
        target.dispose()


@pytest.fixture(params=[f.name for f in FIXTURES])
def released(request: pytest.FixtureRequest, empty_db_url: str,
             tmp_path: Path) -> Iterator[str]:
    """A database as the release wrote it, on SQLite or PostgreSQL."""
    fixture = Path(__file__).parent / "data" / "database" / request.param
    if make_url(empty_db_url).get_backend_name() == "sqlite":
        copy = tmp_path / "released.db"
        shutil.copyfile(fixture, copy)
        yield f"sqlite:///{copy}"
    else:
        load_into(empty_db_url, fixture)
        yield empty_db_url


def test_there_is_a_fixture_of_the_newest_release() -> None:
    assert f"release-{head()}.db" in [f.name for f in FIXTURES]


def test_a_released_database_is_upgraded_in_place_with_every_row_kept(released: str) -> None:
    engine = create_engine(released)
    try:
        before = every_row(engine)
        # a row in every table the release had (a table added later starts empty)
        assert all(before[name] for name in ORDER if name in before)
        store = Store(released)
        try:
            RoomStore(store.engine)
            PlayStore(store.engine)
            with store.engine.connect() as conn:
                assert current(conn) == head()
            assert kept(before, every_row(engine)) == before
        finally:
            store.close()
    finally:
        engine.dispose()


def test_an_upgraded_released_database_reads_back_through_every_store(released: str) -> None:
    store = Store(released)
    try:
        answers, problems = store.answers("ann-fixture")
        assert [a.answer_id for a in answers] == ["ann-fixture-1", "ann-fixture-2"]
        assert problems == []
        assert store.name_of("ann-fixture") == "Ann"
        assert [m.lesson for m in store.lesson_marks("bob-fixture")] == ["learn-coins"]
        rooms = RoomStore(store.engine)
        with store.engine.connect() as conn:
            code, token = conn.execute(text("SELECT room, token FROM room_seats")).one()
        assert rooms.seat(code, token) is not None
        assert len(rooms.my_answers(code, token)) == 1
        plays = PlayStore(store.engine)
        games = plays.games("ann-fixture")
        assert len(games) == 1 and games.skipped == 0
        game = plays.get(games[0].game_id, "ann-fixture")
        assert len(game.moves) > 0 and len(plays.valued(game.game_id)) == 1
        tables = TableStore(store.engine)
        with store.engine.connect() as conn:
            row = conn.execute(text("SELECT code FROM game_tables")).first()
        if row is not None:  # a release with game tables (revision 0006 on)
            code = str(row[0])
            table_game = tables.game(code)
            assert table_game is not None and len(tables.moves(code, table_game.number)) \
                == table_game.moves > 0
            assert Tables(tables).finished_record(code, table_game.number, 0).game().is_over
            saved = plays.games("bob-fixture")  # revision 0007: kept with the players' names
            assert plays.get(saved[0].game_id, "bob-fixture").names[0] == "You"
    finally:
        store.close()


def test_an_upgraded_released_database_takes_new_rows(released: str) -> None:
    store = Store(released)
    try:
        assert store.save(Answer(answer_id="ann-fixture-3", learner="ann-fixture",
                                 item_id="item-3", bank="b", kind="keep",
                                 answered_at=datetime(2026, 11, 2, tzinfo=UTC), action="Keep",
                                 best="Keep", lost_pp=0, grade="best"))
        assert store.count("ann-fixture") == 3
    finally:
        store.close()

