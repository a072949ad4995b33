"""Where answers live between visits: any SQLAlchemy database, or memory when none answers.

Why plain SQLAlchemy and no Streamlit here: the page decides *which* store to use and what to
tell the learner; this module only has to be right about the data, and that is testable without
a browser against SQLite and a real PostgreSQL alike.

Two promises the page relies on:

* Saving is idempotent. Streamlit reruns the script on every click, and two tabs may save the
  same showing of an item; the database's UNIQUE answer_id (with "on conflict do nothing")
  makes the second save a no-op that reports False, so nothing is double-counted.
* Reading never trusts the table. Rows can be edited by hand; every row is validated with the
  same `Answer` model as the CSV import, and a bad row is skipped and named rather than allowed
  to break the calibration page for the learner's every other answer.

Every database failure becomes a `StorageError` with two wordings: its message names the
database (password masked) and what to do, for the server's log and the command line; its
`public` says what is wrong in plain words without the database's path or URL, for the page,
which every visitor (a phone in a room among them) reads, and which falls back to
`MemoryStore`.

The tables below are what the code reads and writes; a database gets them from the Alembic
revisions (`trainer.database`), which `Store` runs when it opens one: a new database is made,
an older one upgraded in place. A change to a table here needs a revision too (a test compares
the two).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    type_coerce,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    SQLAlchemyError,
)
from sqlalchemy.pool import StaticPool
from sqlalchemy.types import NullType

from trainer.database.migrate import MigrationError, upgrade
from trainer.engine.variants import RULES_TEXT_MAX
from trainer.i18n import N_, tr
from trainer.learners.answers import COLUMNS, Answer, describe_error, now
from trainer.paths import data_dir

ENV_VAR = "COUP_TRAINER_DB_URL"
DEFAULT_DB = data_dir() / "coup-trainer.db"
URL_FORMS = "dialect+driver://user:password@host/db or sqlite:///path"
ADVICE = (f"Answers are kept in memory in this browser tab; check {ENV_VAR} "
          "(or [db] url in .streamlit/secrets.toml) and that the database is running.")


PUBLIC_ADVICE = N_("The server's log has the details, for whoever runs it.")
# Catalogued (`N_`): a page shows it through `tr`, in its reader's language.
PUBLIC = N_("The answers' database cannot be used. The server's log has the details, for "
            "whoever runs it.")


class StorageError(Exception):
    """A database failure: the message says what failed, where and what to do (for the server's
    log and the command line); `public` says what failed without where (for a page)."""

    def __init__(self, message: str, url: str = "", public: str | None = None) -> None:
        super().__init__(message)
        self.url = url  # masked; for the log and the command line, never for a page
        # What a page may show: no path, no URL. Without one, a plain sentence, so that an
        # error raised elsewhere never puts its message on a page by default.
        self.public = public or PUBLIC


# --- the schema ----------------------------------------------------------------------------

metadata = MetaData()

learners_table = Table(
    "learners", metadata,
    Column("id", String(64), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# The name a learner is shown under (trainer.learners.names). A table of its own, added to a
# database made before names were kept apart from keys without touching the two tables above; a
# learner without a row here is shown under their old key or a guest name.
names_table = Table(
    "learner_names", metadata,
    Column("learner", String(64), ForeignKey("learners.id"), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("named_at", DateTime(timezone=True), nullable=False),
)

# Kinds and grades are plain strings, not enums: a hand-edited value must reach the validator
# (and be reported with its row) instead of being refused or coerced by the database.
answers_table = Table(
    "answers", metadata,
    Column("row", Integer, primary_key=True, autoincrement=True),
    Column("answer_id", String(64), nullable=False, unique=True),
    Column("learner", String(64), ForeignKey("learners.id"), nullable=False),
    Column("item_id", String(64), nullable=False),
    Column("bank", String(64), nullable=False),
    Column("mode", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("themes", Text, nullable=False),
    Column("variant", String(RULES_TEXT_MAX), nullable=False),  # a rule-set description
    Column("answered_at", DateTime(timezone=True), nullable=False),
    Column("seconds", Float, nullable=True),
    Column("stated", Float, nullable=True),
    Column("bot", Float, nullable=True),
    Column("prior", Float, nullable=True),
    Column("bluff", Boolean, nullable=True),
    Column("action", String(120), nullable=False),
    Column("best", String(120), nullable=False),
    Column("lost_pp", Float, nullable=False),
    Column("grade", String(16), nullable=False),
    Column("trivial", Boolean, nullable=False),
    Column("saved_at", DateTime(timezone=True), nullable=False),
    Index("ix_answers_learner_answered_at", "learner", "answered_at"),
)

# The Learn page's progress: each answer to a lesson's question (right or not, in order: the
# first try earns the stars) and each lesson finished. A table of its own, added to an older
# database like the names.
lesson_marks_table = Table(
    "lesson_marks", metadata,
    Column("row", Integer, primary_key=True, autoincrement=True),
    Column("learner", String(64), ForeignKey("learners.id"), nullable=False),
    Column("lesson", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # "answer" or "finished"
    Column("step", Integer, nullable=False),  # the question's step; 0 for "finished"
    Column("correct", Boolean, nullable=False),
    Column("marked_at", DateTime(timezone=True), nullable=False),
    Index("ix_lesson_marks_learner", "learner", "row"),
)
LESSON_MARK_KINDS = ("answer", "finished")


@dataclass(frozen=True)
class LessonMark:
    """One line of a learner's Learn progress (see `lesson_marks_table`)."""

    lesson: str
    kind: str
    step: int
    correct: bool


# A field added to Answer must get a column too, or it would be silently dropped on save.
_missing = set(COLUMNS) - set(answers_table.c.keys())
if _missing:
    raise RuntimeError(f"the answers table lacks columns for Answer fields: {sorted(_missing)}")

# Read back raw, without SQLAlchemy's result processing: SQLite's DateTime and Boolean
# processors would raise on (or quietly coerce) a hand-edited value, and the point of reading is
# to validate what is really stored, row by row, with the one Answer model.
_RAW = [type_coerce(answers_table.c[name], NullType()).label(name) for name in COLUMNS]


# --- where the database is -----------------------------------------------------------------

SECRETS_SETTING = "[db] url in .streamlit/secrets.toml"
DEFAULT_SETTING = "the default SQLite file"
# Where Streamlit reads secrets from, the checkout's own file last (it wins).
SECRETS_FILES = (Path.home() / ".streamlit" / "secrets.toml",
                 Path(".streamlit") / "secrets.toml")


def database_setting(secrets: Mapping[str, Any] | None = None,
                     environ: Mapping[str, str] = os.environ,
                     default: Path = DEFAULT_DB) -> tuple[str, str]:
    """The database URL and the setting it came from (named in errors about it).

    Secrets first (a deployment), then the environment (a shell or CI), then a local file.
    `st.connection` has no SQLite default, so the page resolves the URL here and passes it on.
    A missing secrets file or section is not an error: it only means "look further".
    """
    try:
        url = secrets["db"]["url"] if secrets is not None else None
    except (KeyError, TypeError, AttributeError, FileNotFoundError):
        url = None
    if isinstance(url, str) and url.strip():
        return url.strip(), SECRETS_SETTING
    url = environ.get(ENV_VAR, "").strip()
    if url:
        return url, ENV_VAR
    default.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{default}", DEFAULT_SETTING


def database_url(secrets: Mapping[str, Any] | None = None,
                 environ: Mapping[str, str] = os.environ,
                 default: Path = DEFAULT_DB) -> str:
    """The database URL the app uses (see `database_setting`)."""
    return database_setting(secrets, environ, default)[0]


def secrets_files(paths: Iterable[Path] | None = None) -> dict[str, Any]:
    """The secrets Streamlit would read, for code that runs without Streamlit (the command
    line): the files that exist, merged in order. A file that is not TOML is skipped, as the
    app would find no database URL in it either."""
    import tomllib

    merged: dict[str, Any] = {}
    for path in SECRETS_FILES if paths is None else paths:
        try:
            merged.update(tomllib.loads(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
    return merged


def mask(url: str) -> str:
    """The URL as it may be shown or logged: never the password, even of a malformed URL."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return re.sub(r"(//[^/@:]*:)[^/@]*@", r"\1***@", url)


def driver_reason(e: BaseException) -> str:
    """The driver's own first line: "connection refused", "no such table", ..."""
    orig = e.orig if isinstance(e, DBAPIError) and e.orig is not None else e
    lines = [line.strip() for line in str(orig).splitlines() if line.strip()]
    return (lines[0] if lines else type(orig).__name__).rstrip(".")


# What the database's driver said, in words that name no file, host or user: the first words
# of a known reason, then what a visitor is told.
_REASONS = (
    ("unable to open database file", "its file cannot be opened (a missing folder, a folder "
     "where the file should be, or no permission)"),
    ("readonly database", "its file is read-only"),
    ("not a database", "its file is not a database"),
    ("disk i/o error", "a disk error"),
    ("database is locked", "it is busy"),
    ("disk is full", "the disk is full"),
    ("connection refused", "the database server refused the connection"),
    ("authentication failed", "the database server refused the user name or password"),
    ("timeout", "the database server did not answer in time"),
    ("timed out", "the database server did not answer in time"),
    ("could not translate host name", "the database server's name is not known"),
    ("name or service not known", "the database server's name is not known"),
    ("does not exist", "the database named in its URL does not exist"),
)


def plain_reason(e: BaseException) -> str:
    """Why the database failed, in plain words that name no path, URL, host or user."""
    said = driver_reason(e).lower()
    for words, plain in _REASONS:
        if words in said:
            return plain
    return "the database reported an error"


def _malformed(e: Exception) -> str:
    """What is wrong with a URL SQLAlchemy could not parse, in a few words."""
    if isinstance(e, ValueError) and "int()" in str(e):  # urls.py: int(components["port"])
        return "its port is not a number"
    return "it is not a URL SQLAlchemy can read"


def engine_for(url: str, setting: str = "") -> tuple[Engine, URL]:
    """An engine for `url`, as every store opens one; a malformed URL, an unknown kind of
    database or a missing driver is a `StorageError` naming `setting` (where the URL came from)."""
    shown = mask(url)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as e:  # ValueError: a port that is not a number
        origin = f" (from {setting})" if setting else ""
        raise StorageError(f"The database URL {shown!r}{origin} is malformed: {_malformed(e)}; "
                           f"expected the form {URL_FORMS}. {ADVICE}", shown,
                           f"The database URL{origin} is malformed: {_malformed(e)}; "
                           f"expected an SQLAlchemy URL (docs/quiz.md, 'Where answers are "
                           f"kept'). {PUBLIC_ADVICE}") from e
    options: dict[str, Any] = {}
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        # Streamlit answers each browser tab on its own thread; one file, shared across them.
        options["connect_args"] = {"check_same_thread": False}
        if parsed.database in (None, "", ":memory:"):
            options["poolclass"] = StaticPool  # otherwise each thread gets its own empty db
    else:
        options["pool_pre_ping"] = True  # a restarted server must not fail the next click
        if backend == "postgresql":
            options["connect_args"] = {"connect_timeout": 3}
    try:
        engine = create_engine(parsed, **options)
    except NoSuchModuleError as e:
        hint = " (use postgresql+psycopg://)" if backend == "postgres" else ""
        raise StorageError(f"The database URL {shown!r} names an unknown kind of database "
                           f"{parsed.drivername!r}{hint}; expected the form {URL_FORMS}. "
                           f"{ADVICE}", shown,
                           f"The database URL names an unknown kind of database. "
                           f"{PUBLIC_ADVICE}") from e
    except ImportError as e:
        hint = " (psycopg 3 is installed: use postgresql+psycopg://)" \
            if backend == "postgresql" else ""
        raise StorageError(f"The driver for {shown!r} is not installed: {e}{hint}. {ADVICE}",
                           shown, "The driver for the answers' database is not installed on "
                           f"the server. {PUBLIC_ADVICE}") from e
    except (ArgumentError, TypeError, ValueError) as e:
        raise StorageError(f"The database URL {shown!r} could not be used: {e}; expected the "
                           f"form {URL_FORMS}. {ADVICE}", shown,
                           f"The database URL could not be used. {PUBLIC_ADVICE}") from e
    if backend == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine, parsed


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL and a busy timeout: browser tabs on several threads read while one writes."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA busy_timeout = 5000")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA journal_mode = WAL")
    finally:
        cursor.close()


# --- the stores ----------------------------------------------------------------------------

class AnswerStore(Protocol):
    """What the pages and the CSV import need; `Store` and `MemoryStore` both provide it."""

    @property
    def dialect(self) -> str: ...
    @property
    def url_for_display(self) -> str: ...
    def save(self, answer: Answer) -> bool: ...
    def save_many(self, answers: Iterable[Answer]) -> list[bool]: ...
    def answers(self, learner: str) -> tuple[list[Answer], list[str]]: ...
    def learners(self) -> list[str]: ...
    def count(self, learner: str) -> int: ...
    def delete_learner(self, learner: str) -> int: ...
    def known(self, learner: str) -> bool: ...
    def name_of(self, learner: str) -> str | None: ...
    def set_name(self, learner: str, name: str) -> None: ...
    def save_lesson_mark(self, learner: str, mark: LessonMark) -> None: ...
    def lesson_marks(self, learner: str) -> list[LessonMark]: ...
    def close(self) -> None: ...


class Store:
    """Answers in a SQLAlchemy database: SQLite by default, PostgreSQL or any other by URL."""

    def __init__(self, url: str, setting: str = "") -> None:
        """`setting`: where the URL came from (`database_setting`), named if it is malformed."""
        self._engine, parsed = engine_for(url, setting)
        self._shown = parsed.render_as_string(hide_password=True)
        try:
            upgrade(self._engine)
        except SQLAlchemyError as e:
            self._engine.dispose()
            raise StorageError(f"Could not reach the database at {self._shown}: "
                               f"{driver_reason(e)}. {ADVICE}", self._shown,
                               "Could not open the answers' database: "
                               f"{plain_reason(e)}. {PUBLIC_ADVICE}") from e
        except MigrationError as e:
            self._engine.dispose()
            raise StorageError(f"Could not bring the database at {self._shown} up to date: {e}. "
                               f"{ADVICE}", self._shown,
                               f"Could not bring the answers' database up to date: {e}. "
                               f"{PUBLIC_ADVICE}") from e

    @property
    def dialect(self) -> str:
        return self._engine.dialect.name

    @property
    def url_for_display(self) -> str:
        return self._shown

    @property
    def engine(self) -> Engine:
        """For tests and maintenance scripts that need raw SQL; the pages never do."""
        return self._engine

    @contextmanager
    def _failing(self, what: str) -> Iterator[None]:
        try:
            yield
        except SQLAlchemyError as e:
            raise StorageError(f"Could not {what} in the database at {self._shown}: "
                               f"{driver_reason(e)}. {ADVICE}", self._shown,
                               f"Could not {what} in the answers' database: "
                               f"{plain_reason(e)}. {PUBLIC_ADVICE}") from e

    def _insert_ignoring_duplicates(self, conn: Connection, rows: list[dict[str, object]],
                                    ) -> set[str]:
        """Insert rows, skipping answer_ids already stored; return the answer_ids inserted.

        "On conflict do nothing" rather than check-then-insert: two browser tabs saving the same
        answer at once must not both succeed, and a failed INSERT would abort a PostgreSQL
        transaction. RETURNING tells exactly which rows went in (SQLite >= 3.35 has it).
        """
        if not rows:
            return set()
        self._ensure_learners(conn, {str(r["learner"]) for r in rows})
        name = self.dialect
        if name in ("sqlite", "postgresql"):
            dialect_insert = sqlite.insert if name == "sqlite" else postgresql.insert
            statement = (dialect_insert(answers_table)
                         .on_conflict_do_nothing(index_elements=["answer_id"])
                         .returning(answers_table.c.answer_id))
            return set(conn.execute(statement, rows).scalars())
        # Any other database: a savepoint per row keeps one duplicate from failing the rest.
        added = set()
        for row in rows:
            try:
                with conn.begin_nested():
                    conn.execute(insert(answers_table), row)
                added.add(str(row["answer_id"]))
            except IntegrityError:
                pass
        return added

    def _ensure_learners(self, conn: Connection, learners: set[str]) -> None:
        """A learners row for each id (answers and names refer to it), added if missing."""
        stamp = now()
        name = self.dialect
        if name in ("sqlite", "postgresql"):
            dialect_insert = sqlite.insert if name == "sqlite" else postgresql.insert
            conn.execute(dialect_insert(learners_table).on_conflict_do_nothing(
                index_elements=["id"]), [{"id": x, "created_at": stamp} for x in learners])
            return
        known = set(conn.execute(select(learners_table.c.id)
                                 .where(learners_table.c.id.in_(learners))).scalars())
        for x in learners - known:
            conn.execute(insert(learners_table), {"id": x, "created_at": stamp})

    def save(self, answer: Answer) -> bool:
        """True if stored now, False if this showing of the item was already saved."""
        return self.save_many([answer])[0]

    def save_many(self, answers: Iterable[Answer]) -> list[bool]:
        """One transaction for many answers (a CSV import): one flag per answer, as `save`.

        An answer_id repeated within `answers` counts once, for its first occurrence.
        """
        answers = list(answers)
        stamp = now()
        rows: dict[str, dict[str, object]] = {}
        for a in answers:
            rows.setdefault(a.answer_id, {**a.row(), "saved_at": stamp})
        with self._failing(f"save {len(answers)} answer(s)"), self._engine.begin() as conn:
            added = self._insert_ignoring_duplicates(conn, list(rows.values()))
        flags = []
        for a in answers:
            flags.append(a.answer_id in added)
            added.discard(a.answer_id)
        return flags

    def answers(self, learner: str) -> tuple[list[Answer], list[str]]:
        """Every answer of a learner, oldest first, and one message per field of a bad row."""
        query = (select(answers_table.c.row, *_RAW)
                 .where(answers_table.c.learner == learner)
                 .order_by(answers_table.c.answered_at, answers_table.c.row))
        with self._failing("read a learner's answers"), self._engine.connect() as conn:
            rows = conn.execute(query).all()
        good: list[Answer] = []
        problems: list[str] = []
        for number, *values in rows:
            data = dict(zip(COLUMNS, values, strict=True))
            try:
                good.append(Answer.model_validate(data))
            except ValidationError as e:
                where = tr("answers row {row} (answer_id {answer})", row=number,
                           answer=data["answer_id"])
                problems.extend(describe_error(e, where).splitlines())
        return good, problems

    def learners(self) -> list[str]:
        with self._failing("list the learners"), self._engine.connect() as conn:
            return list(conn.execute(select(learners_table.c.id)
                                     .order_by(learners_table.c.id)).scalars())

    def count(self, learner: str) -> int:
        query = select(func.count()).where(answers_table.c.learner == learner)
        with self._failing("count a learner's answers"), self._engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def save_lesson_mark(self, learner: str, mark: LessonMark) -> None:
        if mark.kind not in LESSON_MARK_KINDS:
            raise ValueError(f"a lesson mark is one of {LESSON_MARK_KINDS}, not {mark.kind!r}")
        row = {"learner": learner, "lesson": mark.lesson, "kind": mark.kind, "step": mark.step,
               "correct": mark.correct, "marked_at": now()}
        with self._failing("save a lesson's progress"), self._engine.begin() as conn:
            self._ensure_learners(conn, {learner})
            conn.execute(insert(lesson_marks_table), row)

    def lesson_marks(self, learner: str) -> list[LessonMark]:
        """The learner's Learn progress, in the order it was made."""
        t = lesson_marks_table
        query = (select(t.c.lesson, t.c.kind, t.c.step, t.c.correct)
                 .where(t.c.learner == learner).order_by(t.c.row))
        with self._failing("read a learner's lesson progress"), self._engine.connect() as conn:
            rows = conn.execute(query).all()
        return [LessonMark(str(lesson), str(kind), int(step), bool(correct))
                for lesson, kind, step, correct in rows if kind in LESSON_MARK_KINDS]

    def delete_learner(self, learner: str) -> int:
        """Forget a learner entirely (their answers, their lesson progress, their name and their
        id); returns answers deleted."""
        with self._failing("delete a learner"), self._engine.begin() as conn:
            gone = conn.execute(delete(answers_table)
                                .where(answers_table.c.learner == learner)).rowcount
            conn.execute(delete(lesson_marks_table)
                         .where(lesson_marks_table.c.learner == learner))
            conn.execute(delete(names_table).where(names_table.c.learner == learner))
            conn.execute(delete(learners_table).where(learners_table.c.id == learner))
        return int(gone or 0)

    def known(self, learner: str) -> bool:
        """Whether anything was ever saved under this key (an old name link must not create a
        learner: names are no longer keys)."""
        query = select(learners_table.c.id).where(learners_table.c.id == learner)
        with self._failing("look a learner up"), self._engine.connect() as conn:
            return conn.execute(query).first() is not None

    def name_of(self, learner: str) -> str | None:
        """The name the learner chose, or None when they have not chosen one."""
        query = select(names_table.c.name).where(names_table.c.learner == learner)
        with self._failing("read a learner's name"), self._engine.connect() as conn:
            name = conn.execute(query).scalar_one_or_none()
        return None if name is None else str(name)

    def set_name(self, learner: str, name: str) -> None:
        """Show the learner under `name` from now on (their key and answers do not change)."""
        row = {"learner": learner, "name": name, "named_at": now()}
        with self._failing("save a learner's name"), self._engine.begin() as conn:
            self._ensure_learners(conn, {learner})
            dialect = self.dialect
            if dialect in ("sqlite", "postgresql"):
                dialect_insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
                statement = dialect_insert(names_table).values(row)
                conn.execute(statement.on_conflict_do_update(
                    index_elements=["learner"],
                    set_={"name": statement.excluded.name,
                          "named_at": statement.excluded.named_at}))
                return
            conn.execute(delete(names_table).where(names_table.c.learner == learner))
            conn.execute(insert(names_table), row)

    def close(self) -> None:
        self._engine.dispose()

    def __repr__(self) -> str:
        return f"Store({self._shown!r})"


class MemoryStore:
    """The fallback when the database fails: the quiz keeps working, nothing outlives it.

    The same contract as `Store` (idempotent saves, answered_at order), so the page need not
    know which one it holds. A lock, because a cached store is shared by the tabs' threads.
    """

    def __init__(self) -> None:
        self._answers: dict[str, Answer] = {}
        self._learners: dict[str, datetime] = {}
        self._names: dict[str, str] = {}
        self._marks: dict[str, list[LessonMark]] = {}
        self._lock = threading.Lock()

    @property
    def dialect(self) -> str:
        return "memory"

    @property
    def url_for_display(self) -> str:
        return "memory (this browser tab only)"

    def save(self, answer: Answer) -> bool:
        return self.save_many([answer])[0]

    def save_many(self, answers: Iterable[Answer]) -> list[bool]:
        flags = []
        with self._lock:
            for a in answers:
                new = a.answer_id not in self._answers
                if new:
                    self._answers[a.answer_id] = a
                    self._learners.setdefault(a.learner, now())
                flags.append(new)
        return flags

    def answers(self, learner: str) -> tuple[list[Answer], list[str]]:
        with self._lock:
            mine = [a for a in self._answers.values() if a.learner == learner]
        return sorted(mine, key=lambda a: a.answered_at), []  # stable: ties in saving order

    def learners(self) -> list[str]:
        with self._lock:
            return sorted(self._learners)

    def count(self, learner: str) -> int:
        with self._lock:
            return sum(a.learner == learner for a in self._answers.values())

    def delete_learner(self, learner: str) -> int:
        with self._lock:
            ids = [k for k, a in self._answers.items() if a.learner == learner]
            for k in ids:
                del self._answers[k]
            self._learners.pop(learner, None)
            self._names.pop(learner, None)
            self._marks.pop(learner, None)
        return len(ids)

    def save_lesson_mark(self, learner: str, mark: LessonMark) -> None:
        if mark.kind not in LESSON_MARK_KINDS:
            raise ValueError(f"a lesson mark is one of {LESSON_MARK_KINDS}, not {mark.kind!r}")
        with self._lock:
            self._learners.setdefault(learner, now())
            self._marks.setdefault(learner, []).append(mark)

    def lesson_marks(self, learner: str) -> list[LessonMark]:
        with self._lock:
            return list(self._marks.get(learner, []))

    def known(self, learner: str) -> bool:
        with self._lock:
            return learner in self._learners

    def name_of(self, learner: str) -> str | None:
        with self._lock:
            return self._names.get(learner)

    def set_name(self, learner: str, name: str) -> None:
        with self._lock:
            self._learners.setdefault(learner, now())
            self._names[learner] = name

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return "MemoryStore()"
