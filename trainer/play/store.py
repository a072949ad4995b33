"""Played games and their valued decisions in the database, one learner's games kept from
another's.

Why the whole row is written on every save: a game is saved after each move, so a closed tab
or a restarted server resumes from the last move. The row is small (the moves in notation, not
the cards), and one upsert is simpler to get right than appending moves: a save that arrives
twice, or out of order after a retry, still leaves exactly the record that was sent.

Why every read goes through `GameRecord`: rows can be edited by hand or written by an older
version. A damaged game is refused with its id and the field that is wrong (`get`), or left
out of the list and counted (`games`), never half-loaded into a match.

Why the learner is part of every read, write and delete of a game: the game id travels in
links, so knowing an id must never open, overwrite or delete another learner's game.

Valued decisions are kept per (game, move, rollouts): valuing takes about a second per
decision, so a review that was interrupted, or a coach's advice already paid for, is never
valued again; a deeper valuation is kept beside a shallower one and the deepest one is read.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from trainer.database.stores import MigratedStore, aware
from trainer.engine.variants import RULES_TEXT_MAX
from trainer.i18n import N_, tr
from trainer.i18n.fields import field_problem, validator_reason
from trainer.play.assess import Valued
from trainer.play.record import GameRecord
from trainer.quiz.bank import Item
from trainer.quiz.solved import Solved

metadata = MetaData()

games_table = Table(
    "played_games", metadata,
    Column("game_id", String(12), primary_key=True),
    Column("learner", String(64), nullable=False),
    Column("variant", String(RULES_TEXT_MAX), nullable=False),  # a rule-set description
    Column("seed", Integer, nullable=False),
    Column("seats", Text, nullable=False),  # JSON list of persona keys, "you" once
    Column("moves", Text, nullable=False),  # JSON list of moves in the engine's notation
    Column("stated", Text, nullable=False),  # JSON object: move index (a string) to P(bluff)
    Column("coached", Text, nullable=False),  # JSON list of move indices
    Column("resigned", Boolean, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # The players' own names, for a game played at a table of people (revision 0007): JSON
    # list in seat order, "You" at the learner's seat; NULL for a game against the bots.
    Column("labels", Text, nullable=True),
    Index("ix_played_games_learner", "learner"),
)

decisions_table = Table(
    "played_decisions", metadata,
    Column("game_id", String(12), ForeignKey("played_games.game_id"), nullable=False),
    Column("move_index", Integer, nullable=False),
    Column("rollouts", Integer, nullable=False),
    Column("item", Text, nullable=False),  # JSON of Item.to_data()
    Column("solved", Text, nullable=True),  # JSON of Solved.to_data(), for a solved duel
    PrimaryKeyConstraint("game_id", "move_index", "rollouts", name="pk_played_decisions"),
)

_JSON_FIELDS = ("seats", "moves", "stated", "coached")


log = logging.getLogger(__name__)

_NOT_SAVED = N_("Game {game} could not be saved in the database.")
_NOT_YOURS = N_("game {game} belongs to another learner; it was not saved")


class PlayStoreError(Exception):
    """A saved game that cannot be read, written or found, worded for the learner."""


class StaleGameError(PlayStoreError):
    """A save from a writer that fell behind: the saved game moved on since it last saved
    (another tab, or another server, played on), so its copy was left as it is."""


@dataclass(frozen=True)
class GameSummary:
    """One line of the learner's saved games: enough to choose one without loading it."""

    game_id: str
    variant: str
    players: int
    seats: tuple[str, ...]
    started_at: datetime
    finished_at: datetime | None
    moves: int  # how many moves were made
    resigned: bool
    winner_name: str | None  # "You" or a bot's name; None while unfinished, resigned or tied


class GameList(list[GameSummary]):
    """The learner's games, newest first, and what had to be left out.

    `skipped` counts the rows that could not be read (bad JSON, a field the record refuses, a
    move the rules refuse) and `damaged` names them, so the page can say that some games are
    missing instead of silently showing fewer.
    """

    def __init__(self, games: list[GameSummary], damaged: tuple[str, ...] = (),
                 problems: dict[str, str] | None = None) -> None:
        super().__init__(games)
        self.damaged = damaged
        self.problems = problems or {}  # game id -> what is wrong with it, for the page

    @property
    def skipped(self) -> int:
        return len(self.damaged)


def _problem(e: ValidationError) -> str:
    """The record's complaints as "field: reason", one per error, for a person to act on, in
    the reader's language (pydantic's error types worded by us; a validator's own reason as
    it gave it)."""
    parts = []
    for err in e.errors():
        where = ".".join(str(x) for x in err["loc"])
        msg = (validator_reason(err).words() if err["type"] == "value_error"
               else field_problem(err))
        parts.append(tr("{field}: {problem}", field=where, problem=msg) if where else msg)
    return "; ".join(parts)


def _record(row: RowMapping) -> GameRecord:
    """The row as a record; PlayStoreError naming the game and the field when it is damaged."""
    game_id = row["game_id"]
    data: dict[str, Any] = {k: row[k] for k in ("game_id", "learner", "variant", "seed",
                                                  "resigned")}
    for key in _JSON_FIELDS:
        try:
            data[key] = json.loads(row[key])
        except (TypeError, ValueError):
            raise PlayStoreError(tr("saved game {game} is damaged: {field}: not JSON",
                                    game=game_id, field=key)) from None
    data["started_at"] = aware(row["started_at"])
    data["finished_at"] = aware(row["finished_at"])
    if row.get("labels"):
        try:
            data["labels"] = json.loads(row["labels"])
        except (TypeError, ValueError):
            raise PlayStoreError(tr("saved game {game} is damaged: {field}: not JSON",
                                    game=game_id, field="labels")) from None
    try:
        return GameRecord.model_validate(data)
    except ValidationError as e:
        raise PlayStoreError(tr("saved game {game} is damaged: {problem}", game=game_id,
                                problem=_problem(e))) from None


def _row(record: GameRecord, stamp: datetime) -> dict[str, object]:
    return {
        "game_id": record.game_id, "learner": record.learner, "variant": record.variant,
        "seed": record.seed, "seats": json.dumps(list(record.seats)),
        "moves": json.dumps(record.moves),
        "stated": json.dumps({str(k): v for k, v in sorted(record.stated.items())}),
        "coached": json.dumps(record.coached), "resigned": record.resigned,
        "started_at": record.started_at, "finished_at": record.finished_at,
        "updated_at": stamp,
        "labels": None if record.labels is None else json.dumps(list(record.labels)),
    }


def summary(record: GameRecord) -> GameSummary:
    """The record's line in the list; a ValueError when its moves do not replay."""
    game = record.game()
    winner = None
    if game.is_over and game.winner is not None and not record.resigned:
        winner = record.names[game.winner]
    return GameSummary(record.game_id, record.variant, len(record.seats), tuple(record.seats),
                       record.started_at, record.finished_at, len(record.moves),
                       record.resigned, winner)


def _number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _valued(item_text: str, solved_text: str | None, rollouts: int) -> Valued:
    """A stored decision, checked enough that grading it cannot fail later; ValueError
    otherwise."""
    try:
        item = Item.from_data(json.loads(item_text))
        solved = None if solved_text is None else Solved.from_data(json.loads(solved_text))
    except (TypeError, KeyError, AttributeError, ValueError) as e:
        raise ValueError(f"unreadable: {e}") from None
    if item.rollouts != rollouts:
        raise ValueError(f"the item has {item.rollouts!r} rollouts, the key {rollouts}")
    if not item.options or not all(_number(o.win) and _number(o.se) and _number(o.diff_se)
                                   for o in item.options):
        raise ValueError("expected options with a win chance and its noise")
    return Valued.of(item, solved)


class PlayStore(MigratedStore):
    """Played games in one SQLAlchemy database (the answers' database: SQLite or PostgreSQL)."""

    failure = PlayStoreError
    tables = "the played games' tables"

    @contextmanager
    def _tx(self, what: str = N_("The database could not be read or written."), /,
            **fields: Any) -> Iterator[Connection]:
        """One transaction; a database failure is a PlayStoreError saying what was tried
        (`what`, a catalogued sentence, and its fields). The database's own words go to the
        log, never to the page: they may hold its address, its files and its SQL."""
        try:
            with self._engine.begin() as conn:
                yield conn
        except SQLAlchemyError as e:
            log.warning("%s", e)
            raise PlayStoreError(tr(what, **fields)) from e

    def _insert(self) -> Any:
        """The dialect's own INSERT, which has ON CONFLICT; None for any other database."""
        name = self._engine.dialect.name
        if name == "sqlite":
            return sqlite.insert
        if name == "postgresql":
            return postgresql.insert
        return None

    # ------------------------------------------------------------------ games
    def save(self, record: GameRecord, after: int | None = None) -> None:
        """Insert the game or replace its row with `record`. A game id taken by another
        learner is refused and their game left as it was.

        `after` makes the save a compare-and-set: the number of moves the writer last saved
        (or read). The row is replaced only if it still holds exactly those first moves of
        `record` (or already all of them); otherwise the game moved on elsewhere and
        `StaleGameError` leaves it as it is. A new game (`after=0`) is inserted."""
        if after is not None:
            self._save_after(record, after)
            return
        row = _row(record, datetime.now(UTC))
        owned = games_table.c.learner == record.learner
        with self._tx(_NOT_SAVED, game=record.game_id) as conn:
            dialect_insert = self._insert()
            if dialect_insert is not None:
                statement = dialect_insert(games_table).values(row)
                changes = {k: statement.excluded[k] for k in row if k != "game_id"}
                # The WHERE is about the row already there: another learner's is not updated,
                # and then nothing comes back.
                saved = conn.execute(statement.on_conflict_do_update(
                    index_elements=["game_id"], set_=changes, where=owned,
                ).returning(games_table.c.game_id)).first() is not None
            else:
                saved = bool(conn.execute(update(games_table).where(
                    games_table.c.game_id == record.game_id, owned).values(row)).rowcount)
                if not saved and conn.execute(select(games_table.c.game_id).where(
                        games_table.c.game_id == record.game_id)).first() is None:
                    conn.execute(insert(games_table), row)
                    saved = True
            if not saved:
                raise PlayStoreError(tr(_NOT_YOURS, game=record.game_id))

    def _save_after(self, record: GameRecord, after: int) -> None:
        if not 0 <= after <= len(record.moves):
            raise ValueError(f"after: {after} is not a number of moves of this game "
                             f"(0 to {len(record.moves)})")
        row = _row(record, datetime.now(UTC))
        seen = {json.dumps(record.moves[:after]), row["moves"]}
        where = (games_table.c.game_id == record.game_id,
                 games_table.c.learner == record.learner, games_table.c.moves.in_(seen))
        with self._tx(_NOT_SAVED, game=record.game_id) as conn:
            if conn.execute(update(games_table).where(*where).values(row)).rowcount:
                return
            there = conn.execute(select(games_table.c.learner, games_table.c.moves).where(
                games_table.c.game_id == record.game_id)).first()
            if there is None and after == 0:
                conn.execute(insert(games_table), row)
                return
        if there is None:
            raise StaleGameError(tr("game {game} is no longer saved; it was not saved again",
                                    game=record.game_id))
        if there.learner != record.learner:
            raise PlayStoreError(tr(_NOT_YOURS, game=record.game_id))
        raise StaleGameError(tr("game {game} was played on elsewhere since this copy was "
                                "saved; this copy was not saved", game=record.game_id))

    def repair(self, game_id: str, learner: str) -> tuple[GameRecord, str | None]:
        """Cut a saved game whose moves no longer replay back to its last legal move, and
        save it so: the record kept and what was wrong (None when nothing was). A game that
        cannot be read at all stays as it is (PlayStoreError)."""
        from trainer.play.match import Match

        match, problem = Match.rebuild(self.get(game_id, learner))
        if problem is not None:
            self.save(match.record)
        return match.record, problem

    def get(self, game_id: str, learner: str) -> GameRecord:
        """The learner's saved game. Its moves are not replayed here: `Match.resume` does
        that and names the first move the rules refuse."""
        with self._tx(N_("Game {game} could not be read from the database."),
                      game=game_id) as conn:
            row = conn.execute(select(games_table).where(
                games_table.c.game_id == game_id, games_table.c.learner == learner)
            ).mappings().first()
        if row is None:
            raise PlayStoreError(tr("no saved game {game} for this learner", game=game_id))
        return _record(row)

    def games(self, learner: str, limit: int | None = None) -> GameList:
        """The learner's games, newest first (by start), the newest `limit` of them when
        given (each is replayed to say how it went: a page lists a few, not every game). A
        game that cannot be read or replayed is left out and counted in the list's
        `skipped` (and named in `damaged`)."""
        query = (select(games_table).where(games_table.c.learner == learner)
                 .order_by(games_table.c.started_at.desc(), games_table.c.game_id))
        if limit is not None:
            query = query.limit(limit)
        with self._tx(N_("The saved games could not be listed from the database.")) as conn:
            rows = conn.execute(query).mappings().all()
        out: list[GameSummary] = []
        damaged: list[str] = []
        problems: dict[str, str] = {}
        for row in rows:
            try:
                out.append(summary(_record(row)))
            except (PlayStoreError, ValueError) as e:
                damaged.append(str(row["game_id"]))
                problems[str(row["game_id"])] = str(e)
        return GameList(out, tuple(damaged), problems)

    def delete(self, game_id: str, learner: str) -> bool:
        """Forget the learner's game and its valued decisions: True if it was there, False
        if there was no such game of theirs (a second click on Delete is not an error)."""
        with self._tx(N_("Game {game} could not be deleted from the database."),
                      game=game_id) as conn:
            mine = conn.execute(select(games_table.c.game_id).where(
                games_table.c.game_id == game_id, games_table.c.learner == learner)).first()
            if mine is None:
                return False
            conn.execute(delete(decisions_table).where(decisions_table.c.game_id == game_id))
            conn.execute(delete(games_table).where(games_table.c.game_id == game_id))
        return True

    # ------------------------------------------------------------------ decisions
    def save_valued(self, game_id: str, index: int, valued: Valued) -> bool:
        """Keep a valued decision: True if stored now, False if this game's move was already
        stored with as many rollouts (the first one stands; valuing is deterministic)."""
        row = {"game_id": game_id, "move_index": index, "rollouts": valued.rollouts,
               "item": json.dumps(valued.item.to_data()),
               "solved": None if valued.exact is None
               else json.dumps(valued.exact.to_data())}
        keys = ["game_id", "move_index", "rollouts"]
        with self._tx(N_("A decision of game {game} could not be saved in the database."),
                      game=game_id) as conn:
            # Checked here, not left to the foreign key: SQLite does not enforce it.
            if conn.execute(select(games_table.c.game_id)
                            .where(games_table.c.game_id == game_id)).first() is None:
                raise PlayStoreError(tr("no saved game {game}: save the game before its "
                                        "decisions", game=game_id))
            dialect_insert = self._insert()
            if dialect_insert is not None:
                done = conn.execute(dialect_insert(decisions_table)
                                    .on_conflict_do_nothing(index_elements=keys)
                                    .returning(decisions_table.c.game_id), row)
                return done.first() is not None
            try:
                with conn.begin_nested():
                    conn.execute(insert(decisions_table), row)
                return True
            except IntegrityError:
                return False

    def valued(self, game_id: str) -> dict[int, Valued]:
        """For each move the deepest valuation that can be read; a damaged one is passed over
        (the review values that decision again rather than fail)."""
        with self._tx(N_("The decisions of game {game} could not be read from the "
                         "database."), game=game_id) as conn:
            rows = conn.execute(select(decisions_table.c.move_index, decisions_table.c.rollouts,
                                       decisions_table.c.item, decisions_table.c.solved)
                                .where(decisions_table.c.game_id == game_id)
                                .order_by(decisions_table.c.move_index,
                                          decisions_table.c.rollouts.desc())).all()
        out: dict[int, Valued] = {}
        for index, rollouts, item, solved in rows:
            if int(index) in out:
                continue
            try:
                out[int(index)] = _valued(item, solved, int(rollouts))
            except ValueError:
                continue
        return out
