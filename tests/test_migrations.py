"""The stores' schema by Alembic: a new database is made by the revisions, a database of the
schema before migrations is upgraded in place with every row kept, a database at the head is
left alone, several openers at once migrate it once, and the head is what the code's tables
say. Each runs on SQLite and on PostgreSQL, on an empty database of its own (empty_db_url:
on PostgreSQL a new schema, since the shared test database is already migrated)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, event, insert, inspect, select, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError

from tests import schema_before_migrations as old
from trainer.database.migrate import (
    MIGRATIONS,
    alembic_config,
    current,
    head,
    scripts,
    upgrade,
)
from trainer.engine.variants import parse_rules
from trainer.learners.answers import Answer
from trainer.learners.history import Connection
from trainer.learners.storage import ENV_VAR, StorageError, Store
from trainer.learners.storage import metadata as learners_metadata
from trainer.play.match import Match
from trainer.play.setup import Setup, mixed_seats
from trainer.play.store import PlayStore, PlayStoreError, games_table
from trainer.play.store import metadata as play_metadata
from trainer.rooms.settings import RoomSettings, Source
from trainer.rooms.store import RoomError, RoomStore
from trainer.rooms.store import metadata as rooms_metadata
from trainer.tables.store import metadata as tables_metadata

TABLES = {"learners", "learner_names", "answers", "lesson_marks", "rooms", "room_seats",
          "room_answers", "played_games", "played_decisions", "game_tables", "table_seats",
          "table_games", "table_moves"}
T0 = datetime(2025, 3, 1, 18, 30, tzinfo=UTC)
VARIANT_32 = "reformation-inquisitor+low_start"  # the longest the old columns could hold
assert len(VARIANT_32) == 32
# A whole rule set as its compact description: 150 characters.
LONG_RULES = ("reformation-inquisitor+low_start(challenge_order=target_first,challengers=all,"
              "foreign_aid_blockers=random,gainless_actions=refused,vocabulary=treason)")


@pytest.fixture
def url(empty_db_url: str) -> str:
    return empty_db_url


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    e = create_engine(url)
    yield e
    e.dispose()


def code_metadata() -> MetaData:
    """Every store's tables as the code defines them now, in one MetaData."""
    combined = MetaData()
    for metadata in (learners_metadata, rooms_metadata, play_metadata, tables_metadata):
        for table in metadata.tables.values():
            table.to_metadata(combined)
    return combined


def old_metadata() -> MetaData:
    combined = MetaData()
    for metadata in old.ALL:
        for table in metadata.tables.values():
            table.to_metadata(combined)
    return combined


def differences(engine: Engine, metadata: MetaData) -> list[Any]:
    """What `alembic revision --autogenerate` would write: empty when the database's tables are
    those of `metadata` (columns, types, lengths, nullability, keys, indexes)."""
    with engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))


def revision_of(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return current(conn)


def upgrade_to(engine: Engine, revision: str) -> None:
    """The revisions up to `revision` only, as a store would run them."""
    config = alembic_config()
    with engine.connect() as conn, conn.begin():
        config.attributes["connection"] = conn
        command.upgrade(config, revision)


def watch_ddl(engine: Engine) -> list[str]:
    """The statements that change tables, as `engine` runs them."""
    seen: list[str] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().split(None, 1)[0].upper() in ("CREATE", "ALTER", "DROP",
                                                              "INSERT", "UPDATE", "DELETE"):
            seen.append(statement)

    return seen


def fill_old_database(engine: Engine) -> None:
    """One row (or two) in each of the nine tables of the old schema, as the old code would
    have written them, variants as long as the old columns allowed."""
    room_source = Source().model_dump_json()
    record = Match.start(Setup("base", 3, mixed_seats(3, 0, 3)), "ann").record
    with engine.begin() as conn:
        conn.execute(insert(old.learners), [{"id": "ann", "created_at": T0},
                                            {"id": "bob", "created_at": T0}])
        conn.execute(insert(old.learner_names), {"learner": "ann", "name": "Ann",
                                                 "named_at": T0})
        answer = {
            "answer_id": "ann-000001", "learner": "ann", "item_id": "item-1", "bank": "b-1",
            "mode": "mixed", "kind": "challenge", "themes": "Duke claims|End-game",
            "variant": "base", "answered_at": T0, "seconds": 4.25, "stated": 0.35,
            "bot": 0.4, "prior": 1 / 3, "bluff": True, "action": "Challenge",
            "best": "Let it pass", "lost_pp": 3.5, "grade": "good", "trivial": False,
            "saved_at": T0}
        conn.execute(insert(old.answers), [
            answer,
            {**answer, "answer_id": "ann-000002", "variant": VARIANT_32, "stated": None,
             "bluff": None, "answered_at": T0 + timedelta(seconds=1)},
        ])
        conn.execute(insert(old.lesson_marks), {
            "learner": "bob", "lesson": "learn-coins", "kind": "finished", "step": 0,
            "correct": True, "marked_at": T0})
        conn.execute(insert(old.rooms), {
            "code": "ABC234", "host_hash": "h" * 64, "join_secret": "s" * 64,
            "source": room_source, "settings": RoomSettings().model_dump_json(),
            "questions": json.dumps(["q1", "q2"]), "bank_version": "default-abc",
            "status": "lobby", "question": 0, "version": 1, "created_at": T0,
            "expires_at": T0 + timedelta(hours=12), "question_at": None})
        conn.execute(insert(old.room_seats), {
            "token": "t" * 43, "room": "ABC234", "nickname": "Ann", "name_key": "ann",
            "joined_at": T0, "kicked": False})
        conn.execute(insert(old.room_answers), {
            "room": "ABC234", "question": 0, "seat": "t" * 43, "item_id": "q1",
            "action": "Pass", "stated": 0.4, "bot": 0.3, "bluff": True, "best": "Challenge",
            "lost_pp": 12.0, "grade": "mistake", "seconds": 4.0, "answered_at": T0})
        conn.execute(insert(old.played_games), {
            "game_id": record.game_id, "learner": "ann", "variant": "base", "seed": 3,
            "seats": json.dumps(list(record.seats)), "moves": "[]", "stated": "{}",
            "coached": "[]", "resigned": False, "started_at": T0, "finished_at": None,
            "updated_at": T0})
        conn.execute(insert(old.played_games), {
            "game_id": "oldgame00032", "learner": "bob", "variant": VARIANT_32, "seed": 4,
            "seats": json.dumps(list(record.seats)), "moves": "[]", "stated": "{}",
            "coached": "[]", "resigned": True, "started_at": T0, "finished_at": T0,
            "updated_at": T0})
        conn.execute(insert(old.played_decisions), {
            "game_id": record.game_id, "move_index": 0, "rollouts": 20, "item": "{}",
            "solved": None})


def every_row(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Each table's rows, read through the old definitions, in a fixed order."""
    out = {}
    with engine.connect() as conn:
        for metadata in old.ALL:
            for table in metadata.tables.values():
                out[table.name] = sorted(conn.execute(select(table)).all(), key=repr)
    return out


# ---------------------------------------------------------------------- a new database
def test_a_new_database_is_made_by_the_migrations(url: str) -> None:
    store = Store(url)
    try:
        assert revision_of(store.engine) == head()
        assert set(inspect(store.engine).get_table_names()) == TABLES | {"alembic_version"}
    finally:
        store.close()


def test_the_head_revision_makes_exactly_the_tables_the_code_defines(engine: Engine) -> None:
    """A column, index or table added to a store without a revision fails here."""
    assert upgrade(engine) is True
    assert differences(engine, code_metadata()) == []


def test_the_baseline_makes_exactly_the_schema_create_all_made(engine: Engine) -> None:
    upgrade_to(engine, "0001")
    assert revision_of(engine) == "0001"
    assert differences(engine, old_metadata()) == []


def test_opening_a_database_at_the_head_changes_nothing(url: str) -> None:
    first = Store(url)
    first.save(Answer(answer_id="ann-000001", learner="ann", item_id="i", bank="b",
                      kind="keep", answered_at=T0, action="Keep", best="Keep", lost_pp=0,
                      grade="best"))
    first.close()
    engine = create_engine(url)
    try:
        changes = watch_ddl(engine)
        assert upgrade(engine) is False
        RoomStore(engine)
        PlayStore(engine)
        assert changes == []
        assert revision_of(engine) == head()
        assert Store(url).count("ann") == 1
    finally:
        engine.dispose()


# ---------------------------------------------------------------------- an old database
def test_an_old_database_is_recognised_as_the_baseline_and_upgraded_in_place(
        engine: Engine, url: str) -> None:
    old.create_old_schema(engine)
    fill_old_database(engine)
    before = every_row(engine)
    assert revision_of(engine) is None
    store = Store(url)
    try:
        assert revision_of(store.engine) == head()
        assert every_row(engine) == before
        assert differences(engine, code_metadata()) == []
        got, problems = store.answers("ann")
        assert [a.answer_id for a in got] == ["ann-000001", "ann-000002"] and problems == []
        assert got[1].variant == VARIANT_32
        assert store.name_of("ann") == "Ann" and len(store.lesson_marks("bob")) == 1
        rooms = RoomStore(store.engine)
        assert rooms.room("ABC234").status == "lobby"
        assert rooms.seat("ABC234", "t" * 43) is not None
        plays = PlayStore(store.engine)
        game_id = before["played_decisions"][0][0]
        assert plays.get(game_id, "ann").seed == 3
    finally:
        store.close()


def test_an_upgraded_old_database_takes_a_whole_rule_set_description(engine: Engine,
                                                                     url: str) -> None:
    """The reason for revision 0002: PostgreSQL refused a description longer than 32
    characters in the old columns; after the upgrade both take it (SQLite never checked)."""
    assert len(LONG_RULES) == 150 and parse_rules(LONG_RULES).text == LONG_RULES
    old.create_old_schema(engine)
    fill_old_database(engine)
    game = {"game_id": "longrules001", "learner": "ann", "variant": LONG_RULES, "seed": 1,
            "seats": "[]", "moves": "[]", "stated": "{}", "coached": "[]", "resigned": False,
            "started_at": T0, "finished_at": None, "updated_at": T0}
    if engine.dialect.name == "postgresql":
        with pytest.raises(DBAPIError, match="too long"), engine.begin() as conn:
            conn.execute(insert(old.played_games), game)
    store = Store(url)
    try:
        long_answer = Answer(answer_id="ann-long-000001", learner="ann", item_id="i", bank="b",
                             kind="keep", variant=LONG_RULES, answered_at=T0, action="Keep",
                             best="Keep", lost_pp=0, grade="best")
        assert store.save(long_answer) is True
        assert store.save(long_answer) is False  # answer_id is still unique after the copy
        got, problems = store.answers("ann")
        assert long_answer in got and len(got) == 3 and problems == []
        with engine.begin() as conn:
            conn.execute(insert(games_table), game)
            assert conn.execute(select(games_table.c.variant).where(
                games_table.c.game_id == "longrules001")).scalar_one() == LONG_RULES
            assert conn.execute(select(games_table.c.variant).where(
                games_table.c.game_id == "oldgame00032")).scalar_one() == VARIANT_32
    finally:
        store.close()


def test_a_database_older_still_gains_the_tables_it_lacks(engine: Engine, url: str) -> None:
    """Learners and answers only, from before names, lesson progress, rooms and games."""
    old.learners.create(engine)
    old.answers.create(engine)
    with engine.begin() as conn:
        conn.execute(insert(old.learners), {"id": "ann", "created_at": T0})
    store = Store(url)
    try:
        assert set(inspect(store.engine).get_table_names()) == TABLES | {"alembic_version"}
        assert store.known("ann") and store.learners() == ["ann"]
        assert differences(engine, code_metadata()) == []
    finally:
        store.close()


def test_an_old_database_opened_by_a_rooms_store_first_is_upgraded_too(engine: Engine) -> None:
    old.create_old_schema(engine)
    fill_old_database(engine)
    before = every_row(engine)
    RoomStore(engine)
    assert revision_of(engine) == head()
    assert every_row(engine) == before


# ---------------------------------------------------------------------- stores together
def test_stores_sharing_a_database_migrate_it_once(url: str) -> None:
    store = Store(url)
    try:
        changes = watch_ddl(store.engine)
        rooms = RoomStore(store.engine)
        plays = PlayStore(store.engine)
        assert changes == []  # the answers' store made every table
        room, _host = rooms.create(Source(), RoomSettings(), ["q1"], "default-abc")
        assert rooms.room(room.code).status == "lobby"
        assert plays.games("nobody") == []
    finally:
        store.close()


@pytest.mark.parametrize("kind", ["rooms", "played games"])
def test_a_store_alone_on_a_database_finds_its_tables(engine: Engine, kind: str) -> None:
    if kind == "rooms":
        rooms = RoomStore(engine)
        room, host = rooms.create(Source(), RoomSettings(), ["q1"], "default-abc")
        assert rooms.is_host(room.code, host)
    else:
        plays = PlayStore(engine)
        record = Match.start(Setup("base", 3, mixed_seats(3, 0, 3)), "ann").record
        plays.save(record)
        assert plays.get(record.game_id, "ann") == record
    assert revision_of(engine) == head()


@pytest.mark.parametrize("start", ["new", "old"])
def test_openers_at_once_migrate_the_database_once(url: str, start: str) -> None:
    """Four openers race on a new (or an old) database, as two stores of one server or two
    servers would: each waits for the lock, one migrates, every one opens."""
    if start == "old":
        setup = create_engine(url)
        old.create_old_schema(setup)
        fill_old_database(setup)
        setup.dispose()
    engines = [create_engine(url, connect_args={"timeout": 30}
                             if url.startswith("sqlite") else {}) for _ in range(4)]
    changes = [watch_ddl(e) for e in engines]
    barrier = threading.Barrier(len(engines))
    errors: list[BaseException] = []

    def open_it(e: Engine, n: int) -> None:
        try:
            barrier.wait()
            (RoomStore if n % 2 else PlayStore)(e)
        except BaseException as exc:  # noqa: BLE001  (reported below, in the test's thread)
            errors.append(exc)

    threads = [threading.Thread(target=open_it, args=(e, n), daemon=True)
               for n, e in enumerate(engines)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=90)
        assert not any(t.is_alive() for t in threads), "an opener is still waiting"
        assert errors == []
        assert sum(1 for c in changes if c) == 1  # one opener migrated; the others only read
        assert revision_of(engines[0]) == head()
        with engines[0].connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar_one() == 1
        assert differences(engines[0], code_metadata()) == []
    finally:
        for e in engines:
            e.dispose()


# ---------------------------------------------------------------------- what cannot be done
def test_a_database_upgraded_by_a_newer_version_is_refused_saying_what_to_do(url: str) -> None:
    Store(url).close()
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
        with pytest.raises(StorageError) as caught:
            Store(url)
        message = str(caught.value)
        shown = make_url(url).render_as_string(hide_password=True)
        assert message.startswith(f"Could not bring the database at {shown} up to date: ")
        assert "'9999'" in message and "a newer version" in message
        assert "COUP_TRAINER_DB_URL" in message and str(MIGRATIONS) not in message
        with pytest.raises(RoomError, match="a newer version"):
            RoomStore(engine)
        with pytest.raises(PlayStoreError, match="a newer version"):
            PlayStore(engine)
        assert revision_of(engine) == "9999"  # left as it was
    finally:
        engine.dispose()


def test_the_pages_connection_to_a_database_of_a_newer_version_says_so_without_raising(
        url: str) -> None:
    """What every page opens first (`trainer.ui.store.database`): no store and the message,
    which the page shows while answers are kept in the tab."""
    Store(url).close()
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    store, error = Connection(url, ENV_VAR).get()
    assert store is None
    assert error is not None and "a newer version" in error and "'9999'" in error


def test_a_database_that_cannot_be_opened_is_named_with_its_reason(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'missing' / 'answers.db'}"
    with pytest.raises(StorageError) as caught:
        Store(url)
    assert str(caught.value).startswith(f"Could not reach the database at {url}: unable to "
                                        "open database file. ")


# ---------------------------------------------------------------------- the history
def test_the_history_is_one_line_from_the_baseline_to_the_head() -> None:
    script = scripts()
    assert script.get_bases() == ["0001"]
    assert script.get_heads() == [head()]
    line = list(script.walk_revisions())  # head first
    assert line[-1].revision == "0001" and line[-1].down_revision is None
    for newer, older in zip(line, line[1:], strict=False):
        assert newer.down_revision == older.revision
        assert not newer.branch_labels and not newer.dependencies
    files = {p.name for p in (MIGRATIONS / "versions").glob("*.py")}
    assert files == {Path(r.path).name for r in line}
    assert all(Path(r.path).name.startswith(f"r{r.revision}_") for r in line)
    assert [r.revision for r in reversed(line)] == [f"{n:04d}" for n in range(1, len(line) + 1)]


def test_an_upgrade_that_fails_leaves_the_database_as_it_was(url: str, engine: Engine) -> None:
    """All or nothing: a stray index with the name of one the baseline makes fails it half
    way, after some tables were made; none of them stays, nor a revision."""
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE stray (learner VARCHAR(64))"))
        conn.execute(text("CREATE INDEX ix_played_games_learner ON stray (learner)"))
    with pytest.raises(StorageError) as caught:
        Store(url)
    assert "up to date: upgrading its tables to revision" in str(caught.value)
    assert "ix_played_games_learner" in str(caught.value)
    engine.dispose()
    assert set(inspect(engine).get_table_names()) == {"stray"}
