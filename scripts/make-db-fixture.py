"""Write a small database exactly as this version of the app writes one, for the upgrade test.

Why a committed file rather than tables made in code: a file made by a release's own stores
keeps what that release really wrote (its types as SQLite stored them, its defaults, its
revision row), which a later revision must upgrade without losing anything. Run it once per
release whose schema changes, with that release checked out, and commit the file it writes:

    .venv/bin/python scripts/make-db-fixture.py     # tests/data/database/release-<revision>.db

It holds two learners (one named), three answers, a lesson mark, a room with a seat, an
answer and a scan of its remote, a played game with one valued decision, and a game table
(two people and a bot) whose game was played to its end, saved for one player's review under
the players' names (`tests/test_database_fixture.py` reads it).
"""

from __future__ import annotations

import sqlite3
import sys
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trainer.database.migrate import head  # noqa: E402
from trainer.learners.answers import Answer  # noqa: E402
from trainer.learners.storage import LessonMark, Store  # noqa: E402
from trainer.play.match import Match  # noqa: E402
from trainer.play.review import value_job  # noqa: E402
from trainer.play.setup import Setup, mixed_seats  # noqa: E402
from trainer.play.store import PlayStore  # noqa: E402
from trainer.rooms.settings import RoomSettings, Source  # noqa: E402
from trainer.rooms.store import RoomStore  # noqa: E402
from trainer.tables.live import Tables  # noqa: E402
from trainer.tables.model import TableSettings  # noqa: E402
from trainer.tables.store import TableStore  # noqa: E402

T0 = datetime(2026, 11, 1, 18, 30, tzinfo=UTC)


def main() -> int:
    out = ROOT / "tests" / "data" / "database" / f"release-{head()}.db"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    store = Store(f"sqlite:///{out}")
    try:
        store.set_name("ann-fixture", "Ann")
        store.save_many([
            Answer(answer_id="ann-fixture-1", learner="ann-fixture", item_id="item-1",
                   bank="default-fixture", kind="challenge", themes=("Duke claims",),
                   answered_at=T0, seconds=4.25, stated=0.35, bot=0.4, prior=1 / 3,
                   bluff=True, action="Challenge", best="Let it pass", lost_pp=3.5,
                   grade="good"),
            Answer(answer_id="ann-fixture-2", learner="ann-fixture", item_id="item-2",
                   bank="default-fixture", kind="keep", answered_at=T0,
                   variant="reformation-inquisitor+low_start(challengers=all)",
                   action="Keep Duke", best="Keep Duke", lost_pp=0, grade="best",
                   trivial=True),
            Answer(answer_id="bob-fixture-1", learner="bob-fixture", item_id="item-1",
                   bank="default-fixture", kind="challenge", answered_at=T0, stated=0.8,
                   bot=0.4, bluff=False, action="Let it pass", best="Let it pass",
                   lost_pp=0, grade="best"),
        ])
        store.save_lesson_mark("bob-fixture", LessonMark("learn-coins", "finished", 0, True))
        rooms = RoomStore(store.engine)
        room, host = rooms.create(Source(), RoomSettings(), ["item-1", "item-2"],
                                  "default-fixture")
        seat = rooms.join(room.code, "Ann")
        rooms.start(room.code, host)
        rooms.remote_opened(room.code, host, "fixture-remote-tab")  # revision 0005
        rooms.submit(room.code, seat.token, 0, item_id="item-1", action="Challenge",
                     stated=0.4, bot=0.3, bluff=True, best="Challenge", lost_pp=0.0,
                     grade="best", seconds=4.0)
        plays = PlayStore(store.engine)
        match = Match.start(Setup("base", 3, mixed_seats(3, 0, 3)), "ann-fixture")
        while not match.over and match.index < 12:
            if match.bot_to_move:
                match.bot_move()
            else:
                match.play(match.game.legal_moves()[0], stated=0.37, coached=True)
        plays.save(match.record)
        for k in match.record.learner_moves():
            valued = value_job((match.record, k, 20))
            if valued is not None:
                plays.save_valued(match.record.game_id, k, valued)
                break
        tables = TableStore(store.engine)
        table, table_host = tables.create(TableSettings(seats=3, bot_pace=0.0))
        tokens = [tables.join(table.code, name)[1] for name in ("Ann", "Ben")]
        tables.seat_bot(table.code, table_host, 2, "honest")
        tables.deal(table.code, table_host, seed=5)
        live = Tables(tables)
        for _ in range(2000):  # revision 0006: the first person's move each time, bots between
            live.tick(table.code)
            views = [live.seat_view(table.code, t) for t in tokens]
            if views[0].hands is not None:
                break
            deciding = [(t, v) for t, v in zip(tokens, views, strict=True)
                        if v.observation is not None and v.observation.legal_moves]
            if deciding:
                token, view = deciding[0]
                assert view.observation is not None
                live.play(table.code, token, view.observation.legal_moves[0], view.version,
                          stated=0.4)
        reviewed = live.finished_record(table.code, 1, 0).model_copy(
            update={"learner": "bob-fixture"})
        plays.save(reviewed)  # revision 0007: the players' names kept with the saved game
    finally:
        store.close()
    # One file, as small as it goes: no write-ahead log beside it, no free pages.
    with closing(sqlite3.connect(out)) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("VACUUM")
    print(f"wrote {out.relative_to(ROOT)} (room {room.code}, game {match.record.game_id})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
