"""What every store of its own tables shares: opening a database brings every store's tables up
to date (one history of migrations, `trainer.database.migrate`), and a transaction.

Why one base: the rooms, the played games and the game tables each open the answers' database
the same way, and each must turn a database that cannot be migrated into its own error, worded
for the page that shows it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import ClassVar

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from trainer.database.migrate import MigrationError, upgrade


def aware(t: datetime | None) -> datetime | None:
    """A time read back from the database, in UTC: SQLite hands back naive datetimes for what
    was stored in UTC."""
    if t is None or t.tzinfo is not None:
        return t
    return t.replace(tzinfo=UTC)


class MigratedStore:
    """A store on one SQLAlchemy database whose tables are made, or brought up to date, when
    it opens. A subclass names its error and its tables (`failure`, `tables`)."""

    failure: ClassVar[type[Exception]] = RuntimeError
    tables: ClassVar[str] = "tables"  # as a sentence says it: "the rooms' tables"

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        try:
            upgrade(engine)  # the tables of every store, made or brought up to date
        except (SQLAlchemyError, MigrationError) as e:
            raise self.failure(f"{self.tables[:1].upper()}{self.tables[1:]} could not be made "
                               f"in the database: {e}") from e

    @property
    def engine(self) -> Engine:
        return self._engine

    @contextmanager
    def _tx(self, what: str = "") -> Iterator[Connection]:
        """One transaction (`what` it is for: a store may word its failure with it)."""
        with self._engine.begin() as conn:
            yield conn
