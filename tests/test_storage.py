"""Answers saved, read back, exported and imported, on SQLite and on a real PostgreSQL.

The database tests run once per backend. PostgreSQL needs COUP_TRAINER_TEST_PG_URL (set by
`make test` through scripts/test-postgres.sh); without it those runs are skipped, not failed,
so a machine without PostgreSQL still tests everything on SQLite. The PostgreSQL database is
shared by every test, so each test works under learner ids of its own and forgets them after.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import Table, create_engine, insert, text

from tests import schema_before_migrations as old
from trainer.learners.answers import COLUMNS, Answer, describe_error
from trainer.learners.history import Connection
from trainer.learners.history_csv import export_csv, import_csv
from trainer.learners.storage import (
    DEFAULT_SETTING,
    ENV_VAR,
    SECRETS_SETTING,
    LessonMark,
    MemoryStore,
    StorageError,
    Store,
    database_setting,
    database_url,
    secrets_files,
)

PG_ENV = "COUP_TRAINER_TEST_PG_URL"
# A whole rule set as its compact description: 150 characters, the columns take 200.
LONG_RULES = ("reformation-inquisitor+low_start(challenge_order=target_first,challengers=all,"
              "foreign_aid_blockers=random,gainless_actions=refused,vocabulary=treason)")
T0 = datetime(2025, 3, 1, 18, 30, 0, 123456, tzinfo=UTC)


def answer(learner: str, n: int = 0, **changes: object) -> Answer:
    """A valid answer; `n` makes its answer_id and time distinct (n seconds after T0)."""
    data: dict[str, object] = dict(
        answer_id=f"{learner}-{n:06d}"[-64:], learner=learner, item_id=f"item-{n}",
        bank="bank-2025.03", mode="mixed", kind="challenge", themes=("Duke claims", "End-game"),
        variant="base", answered_at=T0 + timedelta(seconds=n), seconds=4.25, stated=0.35,
        bot=0.4, prior=1 / 3, bluff=True, action="Challenge", best="Let it pass", lost_pp=3.5,
        grade="good", trivial=False)
    data.update(changes)
    return Answer.model_validate(data)


def unclaimed(learner: str, n: int) -> Answer:
    """An answer with every optional field empty: the nulls must survive too."""
    return answer(learner, n, kind="keep", themes=(), seconds=None, stated=None, bot=None,
                  prior=None, bluff=None, trivial=True, grade="best", lost_pp=0.0)


@pytest.fixture
def learner() -> str:
    """A learner id no other test (or earlier run on the shared database) uses."""
    return f"t{uuid.uuid4().hex[:12]}"


@pytest.fixture
def store(db_url: str, learner: str) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    for who in s.learners():
        if who.startswith(learner):
            s.delete_learner(who)
    s.close()


# --- the database ---------------------------------------------------------------------------

def test_an_answer_saved_is_read_back(store: Store, learner: str) -> None:
    saved = [answer(learner, 1), unclaimed(learner, 2)]
    for a in saved:
        assert store.save(a) is True
    assert store.answers(learner) == (saved, [])


def test_saving_the_same_answer_twice_counts_it_once(store: Store, learner: str) -> None:
    a = answer(learner, 1)
    assert store.save(a) is True
    assert store.save(a) is False
    assert store.count(learner) == 1


def test_answers_survive_a_new_store_on_the_same_database(db_url: str, learner: str) -> None:
    first = Store(db_url)
    first.save(answer(learner, 1))
    first.close()
    again = Store(db_url)
    try:
        assert again.answers(learner) == ([answer(learner, 1)], [])
    finally:
        again.delete_learner(learner)
        again.close()


def test_a_whole_rule_set_description_is_saved_and_read_back(store: Store,
                                                            learner: str) -> None:
    assert len(LONG_RULES) == 150
    a = answer(learner, 1, variant=LONG_RULES)
    assert store.save(a) is True
    assert store.answers(learner) == ([a], [])


def test_a_rule_set_description_longer_than_512_characters_is_refused() -> None:
    answer("ann", 1, variant="x" * 512)
    with pytest.raises(ValidationError) as caught:
        answer("ann", 1, variant="base" + "+pay_five" * 57)
    assert describe_error(caught.value).startswith(
        "variant: String should have at most 512 characters (got 'base+pay_five+pay_five")


def test_answers_come_back_in_the_order_they_were_answered(store: Store, learner: str) -> None:
    for n in (3, 1, 4, 0, 2):
        store.save(answer(learner, n))
    got, _ = store.answers(learner)
    assert [a.answered_at for a in got] == [T0 + timedelta(seconds=n) for n in range(5)]


def test_a_corrupted_row_is_reported_and_skipped(store: Store, learner: str) -> None:
    store.save_many([answer(learner, 1), answer(learner, 2), answer(learner, 3)])
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE answers SET stated = 7, grade = 'weird' WHERE answer_id = :a"),
                     {"a": answer(learner, 2).answer_id})
        row = conn.execute(text("SELECT \"row\" FROM answers WHERE answer_id = :a"),
                           {"a": answer(learner, 2).answer_id}).scalar_one()
    got, problems = store.answers(learner)
    assert got == [answer(learner, 1), answer(learner, 3)]
    where = f"answers row {row} (answer_id {answer(learner, 2).answer_id})"
    assert problems == [
        f"{where}: stated: Input should be less than or equal to 0.99 (got 7.0)",
        f"{where}: grade: Input should be 'best', 'good', 'inaccuracy', 'mistake' or 'blunder' "
        "(got 'weird')",
    ]


def test_delete_learner_forgets_only_that_learner(store: Store, learner: str) -> None:
    other = f"{learner}-other"
    store.save_many([answer(learner, 1), answer(learner, 2), answer(other, 1)])
    assert store.delete_learner(learner) == 2
    assert store.count(learner) == 0
    assert learner not in store.learners()
    assert store.answers(other) == ([answer(other, 1)], [])
    assert other in store.learners()


def test_a_name_is_kept_beside_the_key_and_can_change(store: Store, learner: str) -> None:
    assert store.name_of(learner) is None and not store.known(learner)
    store.set_name(learner, "Ann")
    assert store.name_of(learner) == "Ann" and store.known(learner)
    store.set_name(learner, "Ann B")
    store.save(answer(learner, 1))
    assert store.name_of(learner) == "Ann B"
    assert store.answers(learner) == ([answer(learner, 1)], [])  # still under the key


def test_two_learners_may_share_a_name_and_not_their_answers(store: Store,
                                                              learner: str) -> None:
    other = f"{learner}-other"
    store.set_name(learner, "Ann")
    store.set_name(other, "Ann")
    store.save(answer(learner, 1))
    assert (store.count(learner), store.count(other)) == (1, 0)


def test_forgetting_a_learner_forgets_their_name(store: Store, learner: str) -> None:
    store.set_name(learner, "Ann")
    store.save(answer(learner, 1))
    assert store.delete_learner(learner) == 1
    assert store.name_of(learner) is None and not store.known(learner)


def old_database(url: str, learner: str, tables: tuple[Table, ...],
                 answers: list[Answer]) -> None:
    """A database of an earlier schema, as the code of its time left it: only `tables` (of
    the schema before migrations), no alembic_version, and `answers` saved."""
    engine = create_engine(url)
    try:
        for table in tables:
            table.create(engine)
        with engine.begin() as conn:
            conn.execute(insert(old.learners), {"id": learner, "created_at": T0})
            conn.execute(insert(old.answers), [{**a.row(), "saved_at": T0} for a in answers])
    finally:
        engine.dispose()


def test_a_database_made_before_names_keeps_its_answers(empty_db_url: str,
                                                         learner: str) -> None:
    """A database of the earlier schema (learners and answers, keyed by the typed name, no
    learner_names table): opening it adds the table and loses nothing."""
    old_database(empty_db_url, learner, (old.learners, old.answers),
                 [answer(learner, 1), answer(learner, 2)])
    again = Store(empty_db_url)
    try:
        assert again.answers(learner) == ([answer(learner, 1), answer(learner, 2)], [])
        assert again.known(learner) and again.name_of(learner) is None
        again.set_name(learner, "Ann")
        assert again.name_of(learner) == "Ann"
    finally:
        again.close()


def test_lesson_progress_is_read_back_in_the_order_it_was_made(store: Store,
                                                                 learner: str) -> None:
    marks = [LessonMark("learn-coins", "answer", 1, False), LessonMark("learn-coins", "answer",
                                                                       1, True),
             LessonMark("learn-coins", "finished", 0, True)]
    for m in marks:
        store.save_lesson_mark(learner, m)
    assert store.lesson_marks(learner) == marks
    assert store.lesson_marks(learner + "x") == []


def test_forgetting_a_learner_forgets_their_lesson_progress(store: Store, learner: str) -> None:
    store.save_lesson_mark(learner, LessonMark("learn-coins", "finished", 0, True))
    store.delete_learner(learner)
    assert store.lesson_marks(learner) == [] and not store.known(learner)


def test_a_lesson_mark_of_an_unknown_kind_is_refused(store: Store, learner: str) -> None:
    with pytest.raises(ValueError, match="a lesson mark is one of"):
        store.save_lesson_mark(learner, LessonMark("learn-coins", "skipped", 0, True))


def test_a_database_made_before_lesson_progress_keeps_its_answers(empty_db_url: str,
                                                                   learner: str) -> None:
    old_database(empty_db_url, learner, (old.learners, old.learner_names, old.answers),
                 [answer(learner, 1)])
    again = Store(empty_db_url)
    try:
        assert again.answers(learner) == ([answer(learner, 1)], [])
        again.save_lesson_mark(learner, LessonMark("learn-coins", "finished", 0, True))
        assert len(again.lesson_marks(learner)) == 1
    finally:
        again.close()


def test_five_thousand_answers_are_all_read_back(store: Store, learner: str) -> None:
    store.save_many(answer(learner, n) for n in range(5000))
    got, problems = store.answers(learner)
    assert (len(got), problems) == (5000, [])


def test_unreachable_database_raises_a_clear_error() -> None:
    with pytest.raises(StorageError) as caught:
        Store("postgresql+psycopg://nobody:hunter2@127.0.0.1:1/x")
    message = str(caught.value)
    assert message.startswith("Could not reach the database at "
                              "postgresql+psycopg://nobody:***@127.0.0.1:1/x: ")
    assert "refused" in message.lower()
    assert ENV_VAR in message
    assert "hunter2" not in message


def test_malformed_url_is_named_in_the_error() -> None:
    with pytest.raises(StorageError) as caught:
        Store("postgres//oops")
    assert "'postgres//oops'" in str(caught.value)
    assert "dialect+driver://user:password@host/db" in str(caught.value)
    assert "sqlite:///path" in str(caught.value)


@pytest.mark.parametrize("url", ["postgresql://u:hunter2@host:notaport/db",
                                 "postgresql+psycopg://u:hunter2@host:99x/db"])
def test_a_port_that_is_not_a_number_is_a_clear_error_naming_its_setting(url: str) -> None:
    with pytest.raises(StorageError) as caught:
        Store(url, ENV_VAR)
    message = str(caught.value)
    assert message.startswith("The database URL 'postgresql")
    assert f"(from {ENV_VAR}) is malformed: its port is not a number; expected the form " \
           "dialect+driver://user:password@host/db or sqlite:///path." in message
    assert "hunter2" not in message


def test_the_app_s_connection_reports_a_malformed_url_instead_of_raising() -> None:
    store, error = Connection("postgresql://u:p@host:notaport/db", SECRETS_SETTING).get()
    assert store is None
    assert error is not None and f"(from {SECRETS_SETTING}) is malformed" in error


def test_the_setting_a_database_url_came_from_is_named(tmp_path: Path) -> None:
    default = tmp_path / "coup-trainer.db"
    environ = {ENV_VAR: "sqlite:///e.db"}
    assert database_setting({"db": {"url": "sqlite:///s.db"}}, environ, default) == (
        "sqlite:///s.db", SECRETS_SETTING)
    assert database_setting(None, environ, default) == ("sqlite:///e.db", ENV_VAR)
    assert database_setting(None, {}, default) == (f"sqlite:///{default}", DEFAULT_SETTING)


def test_the_command_line_reads_streamlit_s_secrets_files_the_checkout_s_last(
        tmp_path: Path) -> None:
    home, checkout, broken = tmp_path / "home.toml", tmp_path / "here.toml", tmp_path / "x.toml"
    home.write_text('[db]\nurl = "sqlite:///home.db"\n[other]\nx = 1\n', encoding="utf-8")
    checkout.write_text('[db]\nurl = "sqlite:///here.db"\n', encoding="utf-8")
    broken.write_text("[db\n", encoding="utf-8")
    secrets = secrets_files([home, broken, checkout, tmp_path / "missing.toml"])
    assert secrets == {"db": {"url": "sqlite:///here.db"}, "other": {"x": 1}}


def test_database_url_prefers_secrets_then_environment_then_sqlite_file(
        tmp_path: Path) -> None:
    secrets = {"db": {"url": "postgresql+psycopg://a@s/db"}}
    environ = {ENV_VAR: "postgresql+psycopg://a@e/db"}
    default = tmp_path / "data" / "coup-trainer.db"
    assert database_url(secrets, environ, default) == "postgresql+psycopg://a@s/db"
    assert database_url({"other": {}}, environ, default) == "postgresql+psycopg://a@e/db"
    assert database_url(None, {}, default) == f"sqlite:///{default}"
    assert default.parent.is_dir()


def test_memory_store_behaves_like_a_database(tmp_path: Path) -> None:
    def script(s: Store | MemoryStore) -> list[object]:
        return [s.save(answer("ann", 2)), s.save(answer("ann", 2)), s.save(answer("ann", 1)),
                s.save_many([answer("bob", 1), answer("ann", 1), answer("bob", 1)]),
                s.answers("ann"), s.count("ann"), s.learners(), s.known("ann"),
                s.name_of("ann"), s.set_name("ann", "Ann"), s.set_name("cy", "Cy"),
                s.save_lesson_mark("ann", LessonMark("learn-coins", "answer", 1, True)),
                s.lesson_marks("ann"),
                s.name_of("ann"), s.known("cy"), s.learners(), s.delete_learner("ann"),
                s.learners(), s.answers("ann"), s.count("bob"), s.name_of("ann"),
                s.known("ann"), s.lesson_marks("ann")]

    database = Store(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        assert script(MemoryStore()) == script(database)
    finally:
        database.close()
    assert MemoryStore().dialect == "memory"


# --- CSV ---------------------------------------------------------------------------------------

def test_export_then_import_round_trips(store: Store, learner: str) -> None:
    saved = [answer(learner, 1, themes=('Quotes "and", commas',)), unclaimed(learner, 2),
             answer(learner, 3, stated=0.01, prior=0.1 + 0.2, answered_at=T0.replace(year=2024))]
    exported = export_csv(saved)
    assert exported.splitlines()[0] == ",".join(COLUMNS)
    report = import_csv(exported, learner, store)
    assert (report.added, report.duplicates, report.errors) == (3, 0, [])
    assert store.answers(learner) == (sorted(saved, key=lambda a: a.answered_at), [])


def test_import_takes_the_learner_given_not_the_one_in_the_file(store: Store,
                                                                 learner: str) -> None:
    newcomer = f"{learner}-new"
    report = import_csv(export_csv([answer(learner, 1)]), newcomer, store)
    assert report.added == 1
    assert [a.learner for a in store.answers(newcomer)[0]] == [newcomer]
    assert store.count(learner) == 0


def test_import_reports_bad_lines_with_line_numbers(store: Store, learner: str) -> None:
    lines = export_csv([answer(learner, n) for n in range(1, 5)]).splitlines()
    lines[2] = lines[2].replace(",0.35,", ",7,")           # line 3: stated
    lines[4] = lines[4].replace(",good,", ",weird,")       # line 5: grade
    report = import_csv("\n".join(lines) + "\n", learner, store)
    assert report.errors == [
        "line 3: stated: Input should be less than or equal to 0.99 (got '7')",
        "line 5: grade: Input should be 'best', 'good', 'inaccuracy', 'mistake' or 'blunder' "
        "(got 'weird')",
    ]
    assert report.added == 2
    assert store.count(learner) == 2


def test_import_rejects_a_file_with_wrong_columns(store: Store, learner: str) -> None:
    exported = export_csv([answer(learner, 1)])
    wrong = exported.replace("stated", "confidence", 1)
    report = import_csv(wrong, learner, store)
    assert len(report.errors) == 1
    assert "missing: stated" in report.errors[0]
    assert "unknown: confidence" in report.errors[0]
    assert ",".join(COLUMNS) in report.errors[0]
    assert (report.added, store.count(learner)) == (0, 0)


def test_import_counts_duplicates(store: Store, learner: str) -> None:
    exported = export_csv([answer(learner, 1), answer(learner, 2), answer(learner, 1)])
    first = import_csv(exported, learner, store)
    again = import_csv(exported, learner, store)
    assert (first.added, first.duplicates) == (2, 1)
    assert (again.added, again.duplicates) == (0, 3)
    assert store.count(learner) == 2


@pytest.mark.parametrize("junk", [
    bytes(range(256)) * 4,
    (bytes(range(256)) * 4).decode("latin-1"),
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "\u2603\x7f\x1b[31m;;\"unbalanced,quote\n\x02\x03",
], ids=["bytes", "text-with-nul", "png", "utf8-junk"])
def test_import_of_binary_junk_is_an_error(junk: str | bytes, learner: str) -> None:
    store = MemoryStore()
    report = import_csv(junk, learner, store)
    assert len(report.errors) == 1
    assert "expected a CSV file whose first line is the header" in report.errors[0]
    assert (report.added, store.count(learner)) == (0, 0)


@pytest.mark.parametrize("empty", ["", "\n\n", b"", "\ufeff"], ids=["str", "blank", "b", "bom"])
def test_import_of_an_empty_file_is_an_error(empty: str | bytes, learner: str) -> None:
    report = import_csv(empty, learner, MemoryStore())
    assert report.errors and report.errors[0].startswith("the file is empty")
    assert report.added == 0
