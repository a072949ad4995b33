"""Pieces of the game-table bench (bench/table.py): tabs that note which game and move every
page they receive shows, and the counting done afterwards against the table's move rows.

Both pages of a table (a phone's hand and the shared screen) draw
`<span class="table-at" data-game="G" data-moves="N">`: the game and the number of its moves
the page was drawn from. A `FramedBrowserTab` notes `(time.time(), G, N)` the moment the
element arrives over the websocket (a browser draws it then); a `FramedAgentTab` when the
agent API hands back the finished page.

Everything below the tabs is plain arithmetic on those frames, the presses and the move rows,
so that tests/test_bench_table.py can check it without a server.
"""

from __future__ import annotations

import bisect
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from room_load import EARLY_FOR_RERUN, AgentTab, BrowserTab, Step
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

AT = re.compile(r'class="table-at" data-game="(\d+)" data-moves="(\d+)"')
MOVE_KEY = "table_move_"
BACK = "table_back"  # drawn with the targets, once an action with a target was picked
# What a phone's page says when a press did not count (trainer/ui/table_phone.py `_press`).
REFUSALS = (
    ("stale", "The table moved on before your press arrived"),
    ("not_yours", "decision, not yours"),
    ("not_yours", "That move is another player's"),
    ("not_yours", "No game is being played at this table"),
    ("not_yours", "The game is over."),
    ("illegal", "That move cannot be made now"),
)
# Moves the table makes itself: a press on the same version racing one of these is stale,
# not lost.
TABLE_MADE = ("forced", "timeout", "stand_in", "bot")


class Frame(NamedTuple):
    at: float  # time.time() when the page showed it
    game: int
    moves: int


def at_of(texts: Iterable[str]) -> tuple[int, int] | None:
    """(game, moves) of the first table marker in a page's texts; None without one."""
    for text in texts:
        if m := AT.search(text):
            return int(m.group(1)), int(m.group(2))
    return None


@dataclass
class FramedBrowserTab(BrowserTab):
    """A browser tab (bench/room_load.py) that also notes every table marker it receives."""

    frames: list[Frame] = field(default_factory=list)
    cut: int = 0  # runs that ended early for a rerun (`st.rerun`): the tab read the next

    def _until_finished(self) -> tuple[int, bool]:
        status, full = super()._until_finished()
        self.cut += status == EARLY_FOR_RERUN
        return status, full

    def _delta(self, msg: ForwardMsg) -> None:
        super()._delta(msg)
        d = msg.delta
        html = d.WhichOneof("type") == "new_element" and d.new_element.WhichOneof("type") == "html"
        if html and (m := AT.search(d.new_element.html.body)):
            self.frames.append(Frame(time.time(), int(m.group(1)), int(m.group(2))))


@dataclass
class FramedAgentTab(AgentTab):
    """An agent-API tab that notes the table marker of every page it is handed."""

    frames: list[Frame] = field(default_factory=list)
    cut: int = 0  # the agent API hands back the last run only: not counted here

    def _timed(self, label: str, body: dict[str, Any]) -> Step:
        step = super()._timed(label, body)
        if step.ok and (at := at_of(self.texts)) is not None:
            self.frames.append(Frame(step.ended, *at))
        return step


def framed_tab(kind: str, base: str, query: dict[str, str], interval: float,
               timeout: float) -> FramedBrowserTab | FramedAgentTab:
    """A tab on the Room page at `query`: `browser` (the websocket protocol, fragment timers)
    or `agent` (an agent-API session polling the whole page every `interval` seconds)."""
    if kind == "browser":
        return FramedBrowserTab(base, "room", query, timeout=timeout)
    return FramedAgentTab(base, "room", query, timeout=timeout, interval=interval)


def page_outcome(texts: Iterable[str]) -> str:
    """What the page said after a press: `accepted` (no refusal shown), or the refusal's
    kind (`stale`, `not_yours`, `illegal`)."""
    page = "\n".join(texts)
    return next((kind for kind, words in REFUSALS if words in page), "accepted")


# ------------------------------------------------------------------------- the counting
@dataclass(frozen=True)
class MoveRow:
    """One row of `table_moves`, its time as seconds since the epoch."""

    index: int
    seat: int
    made_by: str
    made_at: float


@dataclass
class Press:
    """One press of a move button by a phone: the game and move number its page showed when
    it pressed (what the button carries to `Tables.play`), when the request left, how long
    until its run ended, and what the page said then."""

    table: str
    seat: int
    game: int
    version: int
    sent: float  # time.time()
    seconds: float
    ok: bool  # the run ended (not a timeout or a dropped connection)
    page: str  # page_outcome after the run ("" when the run did not end)


def classify(press: Press, rows: dict[int, MoveRow]) -> str:
    """Where a press ended, from the game's move rows (by index):

    - `stored`: the row at the press's version is this seat's, made by the person;
    - `behind`: when the press left, the game already had more moves than the page showed
      (a row past the version was written before `sent`): stale, the page was behind;
    - `raced`: the row at the version is one the table made itself (a forced loss, the
      clock, a bot or the stand-in) after the press left: stale, another move came first;
    - `lost`: anything else: the press was made on the game's current version and no row
      of this seat's holds it (refused although valid, or accepted and not written)."""
    row = rows.get(press.version)
    if row is not None and row.seat == press.seat and row.made_by == "person":
        return "stored"
    before = sum(1 for r in rows.values() if r.made_at <= press.sent)
    if before > press.version:
        return "behind"
    if row is not None and row.made_by in TABLE_MADE and row.made_at > press.sent:
        return "raced"
    return "lost"


@dataclass
class Shown:
    """A tab's frames as the furthest (game, moves) it had shown by each time: `first(g, n)`
    is when it first showed game g at n moves or more (or a later game)."""

    reached: list[tuple[int, int]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    @classmethod
    def of(cls, frames: Sequence[Frame]) -> Shown:
        shown = cls()
        for f in sorted(frames, key=lambda f: f.at):
            if not shown.reached or (f.game, f.moves) > shown.reached[-1]:
                shown.reached.append((f.game, f.moves))
                shown.times.append(f.at)
        return shown

    def first(self, game: int, moves: int) -> float | None:
        i = bisect.bisect_left(self.reached, (game, moves))
        return self.times[i] if i < len(self.times) else None


def seen_delays(games: dict[int, list[MoveRow]], frames: Sequence[Frame]
                ) -> tuple[list[float], int]:
    """Per move row (game -> rows), the seconds from its `made_at` until the tab first
    showed it (its game at index + 1 moves or more); and how many it never showed."""
    shown = Shown.of(frames)
    delays: list[float] = []
    unseen = 0
    for game, rows in games.items():
        for r in rows:
            t = shown.first(game, r.index + 1)
            if t is None:
                unseen += 1
            else:
                delays.append(t - r.made_at)
    return delays, unseen


def log_problems(text: str, most: int = 5) -> tuple[int, list[str]]:
    """Tracebacks in a server's log: how many, and the last line of the first `most` (the
    exception and its message)."""
    lines = text.splitlines()
    found: list[str] = []
    count = 0
    for i, line in enumerate(lines):
        if not line.startswith("Traceback"):
            continue
        count += 1
        j = i + 1
        while j < len(lines) and (lines[j].startswith(" ") or not lines[j].strip()):
            j += 1
        if len(found) < most:
            found.append(lines[j] if j < len(lines) else "(the log ends in the traceback)")
    return count, found

