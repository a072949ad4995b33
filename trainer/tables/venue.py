"""How the bot's bluff estimates did on the people who played at the tables of this database
(a shop, a school): the claim records of every finished game, and their report.

Why only people's own decisions: a stand-in bot's move, a time-out's or a forced loss at a
person's seat says nothing about people; they are left out. Why every table of the
database, not one: a host asks "how does the bot do on the people here", and a single game
has a dozen claims, far too few (the report says so when its intervals cross zero).

Each finished game's records are worked out once per process and kept (a finished game never
changes); the report itself is recomputed from them, which costs milliseconds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from trainer.engine.game import Game
from trainer.engine.notation import parse
from trainer.tables.claims import ClaimRecord, PeopleReport, claim_records, people_report
from trainer.tables.live import record_id
from trainer.tables.store import TableStore

_KEPT: dict[tuple[str, str, int], list[ClaimRecord]] = {}
_LOCK = threading.Lock()


def game_records(store: TableStore, code: str, number: int) -> list[ClaimRecord]:
    """The claims people judged in one finished game of a table (its seats' own moves only,
    with the chances they stated)."""
    key = (str(store.engine.url), code, number)
    with _LOCK:
        kept = _KEPT.get(key)
    if kept is not None:
        return kept
    game = store.game(code, number)
    if game is None or game.finished_at is None:
        return []
    moves = store.moves(code, number)
    people = {p for p, kind in enumerate(game.kinds) if kind == "person"}
    start = Game.new(list(game.names), seed=game.seed, variant=game.rules)
    stated = {m.index: m.stated for m in moves if m.stated is not None}
    own = {m.index for m in moves if m.made_by == "person"}
    records = [r for r in claim_records(start, [parse(m.move) for m in moves], people,
                                        source="table", game_id=record_id(code, number, -1),
                                        stated=stated)
               if r.index in own]
    with _LOCK:
        _KEPT[key] = records
    return records


def venue_records(store: TableStore, progress: Callable[[int, int], object] | None = None
                  ) -> list[ClaimRecord]:
    """Every finished game's claim records, newest games first."""
    games = store.finished_games()
    out: list[ClaimRecord] = []
    for done, (code, number) in enumerate(games, start=1):
        out.extend(game_records(store, code, number))
        if progress is not None:
            progress(done, len(games))
    return out


def venue_report(store: TableStore) -> tuple[PeopleReport, list[ClaimRecord]]:
    records = venue_records(store)
    return people_report(records), records
