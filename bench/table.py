"""Game tables under load: people's phones and the shared screens through the real server.

One app process (`streamlit run streamlit_app.py`, as bench/room.py starts it; more server
options passed through) serves `--tables` game tables at once, each with `--phones` players
on their phones, bots at the remaining seats of `--seats` and its shared screen:

- set-up, as a host does it, through `TableStore` on the database the server uses: a table
  (`--rules`, no clock, no stand-in, the bots' pause `--bot-pace`), a seat per phone (`join`,
  which gives the seat token a phone keeps in its address), a bot (`--bot`) in every other
  seat; then each phone opens `/room?table=CODE&seat=TOKEN` and each screen
  `/room?table=CODE&screen=KEY`, and once every tab is open every table is dealt;
- each tab then polls as its page makes it poll (the 1-second `st.fragment` of
  trainer/ui/tables.py, which also plays what is due: the bots move `--bot-pace` seconds
  after the last move, ticked by whichever tab of the table polls);
- a phone at its decision (its page shows buttons `table_move_*`) presses a random one a
  random 0.5-`--think` seconds after the decision appeared; a button that picks an action
  whose target comes next (the page then shows the targets and `table_back`) is followed at
  once by a random target. A press whose page still shows the same decision afterwards is
  tried again after another pause (at most 3 presses on one move);
- when a table's game is over the host deals the next after `--pause` seconds, until each
  table has played `--games`; a few seconds after the last game ends (`--tail`) the tabs
  close.

How a tab is simulated (`--tabs`, see bench/room_load.py): `browser` (default) speaks
Streamlit's browser protocol over the websocket, fragment timers and all, so the server does
what it does for a phone's browser; `agent` is an agent-API session whose every poll is a
rerun of the whole page (heavier than the real fragment).

What counts, and how:

- every page a tab receives is read for `<span class="table-at" data-game="G"
  data-moves="N">` (the game and number of moves it was drawn from), with the moment it
  arrived (a browser tab: the element's frame on the websocket; an agent tab: the reply);
- a press is the request of the last click (the target, after an action picked), sent with
  the move number its page showed (the version `Tables.play` checks it against). Against
  the game's rows of `table_moves`, afterwards (bench/table_load.py `classify`): `stored`
  when row N is this seat's own move; stale (expected, not lost) when the page was behind
  (rows past N had been written before the press left: `made_at` earlier than its sending)
  or when a move the table makes itself (a forced loss of a last card, the clock, a bot,
  the stand-in) took row N after the press left; `lost` otherwise: a press made on the
  game's current move that is not in the database as that seat's move at that index,
  whether the page refused it or accepted it. Goal 0. What the page said after each press
  (accepted, "The table moved on before your press arrived", "It is X's decision, not
  yours", "That move cannot be made now") is printed beside it;
- a move seen on the phones: for each row (index k, `made_at`) and each phone of the table,
  the first moment that phone showed that game at k + 1 moves or more, minus `made_at`;
  p95 over every (move, phone) pair of every table. Goal <= 1.5 s. The screen's the same for
  its screen tab. Goal <= 1 s. (`made_at` is the server's clock on this same machine.)
- the server's CPU seconds and memory (/proc), this script's CPU, requests per second, and
  the CPU other processes used meanwhile (the server competes with them on a shared
  machine); tracebacks in the server's log.

Bounded: `--games` games a table, a hard overall `--timeout` (the server is killed at the
end, on error, on Ctrl-C and when it runs out; no game is dealt in its last minute),
loopback only.

    .venv/bin/python bench/table.py [--tables 6] [--phones 5] [--seats 6] [--games 1]
        [--think 2] [--bot-pace 0.5] [--db sqlite|postgresql] [--tabs browser|agent]
        [--workers 1] [--timeout 900] [--log server.log] [--runner.postScriptGC false ...]

PostgreSQL and `--workers N` (N > 1, PostgreSQL and browser tabs only: `python -m trainer
serve --workers N`, N processes behind HAProxy) as in bench/room.py.

Last line: `lost <n> move_seen_p95_s <x> screen_p95_s <y>` and more `name value` pairs.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from agentapi import Server, database, percentile, serve, serve_workers  # noqa: E402
from room import REPORT_S, OutOfTime, Usage, errors_line, fmt, pump  # noqa: E402
from room_load import Step, Timers  # noqa: E402
from table_load import (  # noqa: E402
    BACK,
    MOVE_KEY,
    FramedAgentTab,
    FramedBrowserTab,
    MoveRow,
    Press,
    Shown,
    at_of,
    classify,
    framed_tab,
    log_problems,
    page_outcome,
    seen_delays,
)

POLL_S = 1.0  # the pages' run_every (trainer/ui/tables.py POLL_SECONDS): agent tabs' polls
TRIES = 3  # presses at most on one move of one phone
OPEN_WAIT_S = 120.0  # for every tab to open, before the deal

Tab = FramedBrowserTab | FramedAgentTab


# ---------------------------------------------------------------------------- the set-up
@dataclass(frozen=True)
class Made:
    """One table as the host made it: code, host key, screen key, and (seat, token) of each
    phone."""

    code: str
    host: str
    screen: str
    seats: list[tuple[int, str]]


def table_store(url: str) -> Any:
    """A TableStore on `url`, as the server makes its own (beside the answers)."""
    from trainer.learners.storage import Store
    from trainer.tables.store import TableStore

    return TableStore(Store(url).engine)


def set_up(store: Any, args: argparse.Namespace) -> list[Made]:
    from trainer.rooms.codes import screen_token
    from trainer.tables.model import TableSettings

    settings = TableSettings(rules=args.rules, seats=args.seats, turn_seconds=0,
                             stand_in_after=0, bot_pace=args.bot_pace)
    made = []
    for _ in range(args.tables):
        table, host = store.create(settings)
        joined = [store.join(table.code, f"Phone {j + 1}") for j in range(args.phones)]
        for seat in range(args.phones, args.seats):
            store.seat_bot(table.code, host, seat, args.bot)
        made.append(Made(table.code, host, screen_token(table.join_secret),
                         [(s.seat, token) for s, token in joined]))
    return made


def stored_rows(store: Any, code: str) -> dict[int, list[MoveRow]]:
    """Every game of the table: its move rows, in order."""
    return {n: [MoveRow(m.index, m.seat, m.made_by, m.made_at.timestamp())
                for m in store.moves(code, n)] for n in store.games(code)}


# ------------------------------------------------------------------------- the tabs
@dataclass
class Shared:
    """What the conducting thread and the tabs share."""

    done: threading.Event = field(default_factory=threading.Event)
    opened: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def arrived(self) -> None:
        with self.lock:
            self.opened += 1


@dataclass
class Phone:
    code: str
    seat: int
    tab: Tab
    presses: list[Press] = field(default_factory=list)
    picks: list[Step] = field(default_factory=list)  # an action picked, its target next
    error: str = ""


@dataclass
class TableRun:
    index: int
    made: Made
    screen: Tab
    phones: list[Phone]
    polls: list[Step] = field(default_factory=list)  # the screen's
    dealt: list[float] = field(default_factory=list)  # time.time() of each deal
    finished: int = 0  # games over
    error: str = ""

    @property
    def code(self) -> str:
        return self.made.code


def move_keys(tab: Tab) -> list[str]:
    return sorted(k for k in tab.keys if k.startswith(MOVE_KEY))


def press(ph: Phone, timers: Timers, rng: random.Random) -> None:
    """The phone presses a random move button (and, for an action with targets, a random
    target); the press is noted with the move number its page showed."""
    tab = ph.tab
    at = at_of(tab.texts)
    step = tab.click(rng.choice(move_keys(tab)))
    timers.ran(step)
    if step.ok and BACK in tab.keys:
        ph.picks.append(step)
        targets = move_keys(tab)
        if not targets:
            return
        at = at_of(tab.texts)
        step = tab.click(rng.choice(targets))
        timers.ran(step)
    if at is None or "no widget" in step.error:
        return  # nothing was sent
    ph.presses.append(Press(ph.code, ph.seat, at[0], at[1], step.started, step.seconds,
                            step.ok, page_outcome(tab.texts) if step.ok else ""))


def run_phone(ph: Phone, shared: Shared, arrive: float, think: float, seed: int) -> None:
    """One player: open the hand's page, then poll on the page's timer and press at each of
    their decisions after a pause, until the end."""
    rng = random.Random(seed)
    tab = ph.tab
    timers = Timers(tab)
    tries: Counter[tuple[int, int]] = Counter()
    try:
        if shared.done.wait(max(0.0, arrive - time.monotonic())):
            return
        opened = tab.open()
        if not opened.ok:
            ph.error = f"the page did not open: {opened.error}"
            return
        shared.arrived()
        due: tuple[tuple[int, int], float] | None = None  # the decision, when to press
        while not shared.done.is_set():
            at = at_of(tab.texts)
            if at is None or not move_keys(tab) or tries[at] >= TRIES:
                due = None
            elif due is None or due[0] != at:
                due = (at, time.monotonic() + rng.uniform(0.5, max(0.5, think)))
            nxt = timers.next()
            wake = time.monotonic() + 0.5
            for t in (due[1] if due else None, nxt[1] if nxt else None):
                if t is not None:
                    wake = min(wake, t)
            if shared.done.wait(max(0.0, wake - time.monotonic())):
                break
            now = time.monotonic()
            if due is not None and now >= due[1]:
                tries[due[0]] += 1
                press(ph, timers, rng)
                due = None
            elif nxt is not None and now >= nxt[1]:
                timers.fire(nxt[0])
    except Exception as e:  # a phone's failure is a result, not the end of the run
        ph.error = f"{type(e).__name__}: {e}"[:200]
    finally:
        tab.close()


def run_screen(run: TableRun, shared: Shared, arrive: float, until: float) -> None:
    """The shared screen: opened, then left polling on its fragment's timer."""
    try:
        if shared.done.wait(max(0.0, arrive - time.monotonic())):
            return
        opened = run.screen.open()
        if not opened.ok:
            run.error = f"the screen did not open: {opened.error}"
            return
        shared.arrived()
        pump(Timers(run.screen), until, shared.done.is_set, run.polls)
    except Exception as e:  # noqa: BLE001 - reported with the table's results
        run.error = f"screen: {type(e).__name__}: {e}"[:200]
    finally:
        run.screen.close()


# ------------------------------------------------------------------------- the hosts
def conduct(runs: list[TableRun], store: Any, shared: Shared, args: argparse.Namespace,
            tabs: int, deadline: float) -> str:
    """The hosts: every table dealt once every tab is open, the next game dealt `--pause`
    seconds after one ends, until each table has played `--games`. A note if it stopped
    early."""
    waited = time.monotonic() + OPEN_WAIT_S
    while shared.opened + sum(bool(ph.error) for r in runs for ph in r.phones) \
            + sum(bool(r.error) for r in runs) < tabs:
        if time.monotonic() > min(waited, deadline):
            return f"only {shared.opened} of {tabs} tabs opened; nothing was dealt"
        time.sleep(0.1)
    for run in runs:
        store.deal(run.code, run.made.host)
        run.dealt.append(time.time())
    next_deal: dict[int, float] = {}
    while any(run.finished < args.games for run in runs):
        now = time.monotonic()
        for run in runs:
            if run.finished >= args.games:
                continue
            game = store.game(run.code)
            if game is not None and game.finished_at is not None \
                    and game.number > run.finished:
                run.finished = game.number
                next_deal[run.index] = now + args.pause
            if run.finished == len(run.dealt) < args.games and now >= next_deal[run.index]:
                if now > deadline - 60:
                    return "no new game dealt in the last minute of the --timeout"
                store.deal(run.code, run.made.host)
                run.dealt.append(time.time())
        if now > deadline:
            return "stopped: the --timeout came before every game ended"
        time.sleep(0.25)
    return ""


def run(args: argparse.Namespace, server: Server, store: Any, made: list[Made],
        t_start: float) -> tuple[int, float, float, dict[str, float | int]]:
    deadline = t_start + args.timeout - REPORT_S
    base = server.base
    print(f"server pid {' '.join(map(str, server.pids))} at {base}"
          + (f" (HAProxy pid {server.balancer})" if server.balancer else ""), flush=True)

    def tab(query: dict[str, str]) -> Tab:
        return framed_tab(args.tabs, base, query, POLL_S, args.request_timeout)

    # The first runs of each page (imports, styles) are not counted.
    first = made[0]
    warm_screen = tab({"table": first.code, "screen": first.screen})
    warm_phone = tab({"table": first.code, "seat": first.seats[0][1]})
    ws, wp = warm_screen.open(), warm_phone.open()
    warm_screen.close()
    warm_phone.close()
    if not (ws.ok and wp.ok):
        raise RuntimeError(f"warm-up: the screen or a phone did not open: "
                           f"{ws.error or wp.error}")
    print(f"warm-up: screen {ws.seconds:.2f} s, phone {wp.seconds:.2f} s (first runs, not "
          "counted)", flush=True)

    runs = [TableRun(i, m, tab({"table": m.code, "screen": m.screen}),
                     [Phone(m.code, seat, tab({"table": m.code, "seat": token}))
                      for seat, token in m.seats])
            for i, m in enumerate(made)]
    shared = Shared()
    tabs = sum(len(r.phones) + 1 for r in runs)
    usage = Usage.start(server)
    wall0 = usage.wall0
    threads = []
    for r in runs:
        arrive = wall0 + args.arrive * r.index / max(1, len(runs))
        threads.append(threading.Thread(target=run_screen, daemon=True,
                                        args=(r, shared, arrive, deadline + 30)))
        threads += [threading.Thread(
            target=run_phone, daemon=True,
            args=(ph, shared, arrive + args.arrive * (j + 1) / (len(runs) * (len(r.phones) + 1)),
                  args.think, args.seed * 100_000 + r.index * 100 + j))
            for j, ph in enumerate(r.phones)]
    for th in threads:
        th.start()
    note = ""
    try:
        note = conduct(runs, store, shared, args, tabs, deadline)
        if not note:
            shared.done.wait(args.tail)  # the last move reaches every page
    except OutOfTime as e:
        note = f"stopped: {e}; what was measured until then follows"
    finally:
        shared.done.set()
        for th in threads:
            th.join(max(0.0, min(10.0, deadline + 30 - time.monotonic())))
    signal.alarm(REPORT_S)  # the report's own time; then the server is stopped regardless
    u = usage.stop()
    if note:
        print(note, flush=True)
    return report(args, server, runs, store, u.wall, (u.cpu, u.rss0, u.rss1, u.own, u.others))


# ------------------------------------------------------------------------- the report
@dataclass
class Tally:
    """One table's presses and delays against its move rows."""

    kinds: Counter[str] = field(default_factory=Counter)  # classify() of each press
    pages: Counter[str] = field(default_factory=Counter)  # page_outcome() of each press
    odd: Counter[str] = field(default_factory=Counter)  # "lost, the page said stale" ...
    rows: Counter[str] = field(default_factory=Counter)  # made_by of each row
    unpressed: int = 0  # a person's row no press of theirs accounts for
    games_over: int = 0
    seen: list[float] = field(default_factory=list)
    unseen: int = 0
    screen: list[float] = field(default_factory=list)
    screen_unseen: int = 0
    own: list[float] = field(default_factory=list)  # a stored press until its page shows it
    drawn: Counter[str] = field(default_factory=Counter)  # pages drawn, states shown


def tally(run: TableRun, store: Any) -> Tally:
    t = Tally()
    games = stored_rows(store, run.code)
    t.games_over = sum(1 for n in games if (g := store.game(run.code, n)) is not None
                       and g.finished_at is not None)
    for rows in games.values():
        t.rows.update(r.made_by for r in rows)
    pressed = {(p.game, p.version, p.seat) for ph in run.phones for p in ph.presses}
    t.unpressed = sum(1 for n, rows in games.items() for r in rows
                      if r.made_by == "person" and (n, r.index, r.seat) not in pressed)
    for ph in run.phones:
        frames = ph.tab.frames
        shown = Shown.of(frames)
        for p in ph.presses:
            kind = classify(p, {r.index: r for r in games.get(p.game, [])})
            page = p.page or "no end of run"
            t.kinds[kind] += 1
            t.pages[page] += 1
            if (kind == "stored") != (page == "accepted"):
                t.odd[f"{kind}, the page said {page}"] += 1
            if kind == "stored" and (at := shown.first(p.game, p.version + 1)) is not None:
                t.own.append(at - p.sent)
        d, u = seen_delays(games, frames)
        t.seen += d
        t.unseen += u
    t.screen, t.screen_unseen = seen_delays(games, run.screen.frames)
    for who, frames in [("phone", ph.tab.frames) for ph in run.phones] \
            + [("screen", run.screen.frames)]:
        t.drawn[f"{who} pages"] += len(frames)
        t.drawn[f"{who} states"] += len({(f.game, f.moves) for f in frames})
    return t


def report(args: argparse.Namespace, server: Server, runs: list[TableRun], store: Any,
           wall: float, costs: tuple[float, float, float, float, float]
           ) -> tuple[int, float, float, dict[str, float | int]]:
    cpu, rss0, rss1, own, others = costs
    tallies = [tally(r, store) for r in runs]
    kinds = sum((t.kinds for t in tallies), Counter[str]())
    pages = sum((t.pages for t in tallies), Counter[str]())
    odd = sum((t.odd for t in tallies), Counter[str]())
    rows = sum((t.rows for t in tallies), Counter[str]())
    lost = kinds["lost"]
    phones = [ph for r in runs for ph in r.phones]
    seen = [d for t in tallies for d in t.seen]
    screen = [d for t in tallies for d in t.screen]
    over = sum(t.games_over for t in tallies)
    print(f"games: {over} of {args.games * len(runs)} over ({len(runs)} tables x "
          f"{args.games}); moves written {sum(rows.values())} ("
          + ", ".join(f"{k} {n}" for k, n in rows.most_common()) + ")", flush=True)
    print(f"presses: {sum(kinds.values())} sent: stored {kinds['stored']}; stale, the page "
          f"was behind {kinds['behind']}; stale, a move the table made came first "
          f"{kinds['raced']}; lost {lost}. The pages said: "
          + ", ".join(f"{k} {n}" for k, n in pages.most_common()), flush=True)
    unpressed = sum(t.unpressed for t in tallies)
    if odd or unpressed:
        print("  odd: " + "; ".join(f"{k}: {n}" for k, n in odd.most_common())
              + (f"; a person's moves no press accounts for: {unpressed}" if unpressed else ""))
    for ph in phones:
        if ph.error:
            print(f"  phone {ph.code} seat {ph.seat + 1}: {ph.error}")
    for r in runs:
        if r.error:
            print(f"  table {r.code}: {r.error}")

    steps = [s for ph in phones for s in ph.tab.steps]
    polls = [s for s in steps if s.label == "poll"]
    screen_polls = [s for r in runs for s in r.polls]
    pressed = [p.seconds for ph in phones for p in ph.presses if p.ok]
    print(f"phone presses (s):           {fmt(pressed)}  (the press's request to the end of "
          "its run)")
    shown_own = [d for t in tallies for d in t.own]
    print(f"a press shown on its phone:  {fmt(shown_own)}  (the press's request to the first frame "
          "of its page showing the move)")
    print(f"phone picks (s):             {fmt([s.seconds for ph in phones for s in ph.picks])}"
          "  (an action whose target comes next)")
    print(f"phone page refreshes (s):    {fmt([s.seconds for s in polls if s.ok and s.full])}"
          "  (a poll that ran the whole page)")
    print(f"phone polls, fragment only:  {fmt([s.seconds for s in polls if s.ok and not s.full])}")
    print(f"phone pages opened (s):      "
          f"{fmt([s.seconds for s in steps if s.ok and s.label.startswith('open')])}  "
          f"{errors_line(steps)}")
    print(f"screen polls (s):            {fmt([s.seconds for s in screen_polls if s.ok])}  "
          f"{errors_line(screen_polls)}")
    unseen = sum(t.unseen for t in tallies)
    screen_unseen = sum(t.screen_unseen for t in tallies)
    print(f"a move seen on a phone (s):  {fmt(seen)}"
          + (f"; {unseen} (move, phone) pairs never shown" if unseen else ""))
    print(f"the screen updated (s):      {fmt(screen)}"
          + (f"; {screen_unseen} moves never shown on a screen" if screen_unseen else ""))
    drawn = sum((t.drawn for t in tallies), Counter[str]())
    print("pages drawn per (game, move) a tab showed: " + ", ".join(
        f"{who} {drawn[who + ' pages'] / max(1, drawn[who + ' states']):.1f} "
        f"({drawn[who + ' pages']} full runs for {drawn[who + ' states']})"
        for who in ("phone", "screen")))
    if args.tabs == "browser":
        print(f"runs ended early by st.rerun (the tab read on to the next): phones "
              f"{sum(ph.tab.cut for ph in phones)}, screens {sum(r.screen.cut for r in runs)}")
    if len(runs) > 1:
        for r, t in zip(runs, tallies, strict=True):
            print(f"  table {r.index + 1} ({r.code}): {t.games_over} games over, "
                  f"{sum(t.rows.values())} moves, {sum(t.kinds.values())} presses, lost "
                  f"{t.kinds['lost']}, move seen p95 {percentile(t.seen, 0.95):.3f} s, screen "
                  f"p95 {percentile(t.screen, 0.95):.3f} s")

    requests = len(steps) + sum(len(r.screen.steps) for r in runs)
    who = f"{args.workers} workers" if args.workers > 1 else "server"
    print(f"{who}: {requests} requests in {wall:.0f} s ({requests / wall:.1f} runs/s), CPU "
          f"{cpu:.1f} s ({100 * cpu / wall:.0f}% of one core, {1000 * cpu / max(1, requests):.1f}"
          f" ms a request), memory {rss0:.0f} -> {rss1:.0f} MiB; this script's CPU {own:.1f} s "
          f"({100 * own / wall:.0f}% of one core)")
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores; other processes used {max(0.0, others):.1f} CPU s meanwhile, "
          f"{100 * max(0.0, others) / (wall * cores):.0f}% of the machine (the server and this "
          f"script {100 * (cpu + own) / (wall * cores):.0f}%)")
    traced, first = log_problems(server.log.read_text(errors="replace"))
    print(f"server log: {traced} tracebacks" + ("" if not first else ": " + " | ".join(first)))
    print("model: " + ("browser tabs: each poll is the page's own 1 s fragment, a full page run "
                       "only when the table changed" if args.tabs == "browser" else
                       "agent-API tabs: every poll reruns the whole page each second, heavier "
                       "than the real fragment") + "; a move's delay runs from its made_at to "
          "the first frame of a page showing it.")
    extra: dict[str, float | int] = {
        "presses": sum(kinds.values()), "stale": kinds["behind"] + kinds["raced"],
        "unseen": unseen + screen_unseen, "games_over": over,
        "move_seen_p50_s": percentile(seen, 0.5), "screen_p50_s": percentile(screen, 0.5),
        "server_cpu_s": cpu, "runs_per_s": requests / wall,
        "others_cpu_share": max(0.0, others) / (wall * cores)}
    return lost, percentile(seen, 0.95), percentile(screen, 0.95), extra


# ------------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="Other --section.option value pairs go to `streamlit run` unchanged.")
    parser.add_argument("--tables", type=int, default=6, help="tables at once (default 6)")
    parser.add_argument("--phones", type=int, default=5, help="phones a table (default 5)")
    parser.add_argument("--seats", type=int, default=6,
                        help="seats a table; the ones no phone takes get a bot (default 6)")
    parser.add_argument("--games", type=int, default=1,
                        help="games each table plays to their end (default 1)")
    parser.add_argument("--think", type=float, default=2.0,
                        help="a phone presses 0.5 to this many seconds after its decision "
                             "shows (default 2)")
    parser.add_argument("--bot-pace", type=float, default=0.5,
                        help="the tables' pause before a bot's move, seconds (default 0.5)")
    parser.add_argument("--bot", default="honest", help="the bots' persona (default honest)")
    parser.add_argument("--rules", default="base", help="the tables' rule set (default base)")
    parser.add_argument("--pause", type=float, default=3.0,
                        help="seconds between a game's end and the next deal (default 3)")
    parser.add_argument("--arrive", type=float, default=3.0,
                        help="seconds over which the tabs open (default 3)")
    parser.add_argument("--tail", type=float, default=5.0,
                        help="seconds the tabs stay open after the last game ends (default 5)")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--tabs", choices=["browser", "agent"], default="browser",
                        help="how a tab is simulated (default browser; see the docstring)")
    parser.add_argument("--workers", type=int, default=1,
                        help="app processes: above 1, `python -m trainer serve --workers N` "
                             "(HAProxy in front; needs --db postgresql and browser tabs)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="hard limit for the whole run, seconds (default 900)")
    parser.add_argument("--request-timeout", type=float, default=60.0,
                        help="seconds a tab waits for a run before noting it as failed "
                             "(default 60)")
    parser.add_argument("--log", type=Path, help="keep a copy of the server's log here")
    args, rest = parser.parse_known_args()
    if len(rest) % 2 or any(not a.startswith("--") or "." not in a for a in rest[::2]):
        parser.error(f"unknown arguments {rest}: server options go as --section.option value")
    if args.workers > 1 and (args.db != "postgresql" or args.tabs != "browser"):
        parser.error("--workers above 1 needs --db postgresql and --tabs browser")
    if not (1 <= args.tables <= 20 and 1 <= args.phones < args.seats + 1 <= 7
            and 1 <= args.games <= 10 and args.think >= 0.5
            and args.timeout >= 2 * REPORT_S):
        parser.error(f"--tables 1..20, --seats up to 6, --phones 1..seats, --games 1..10, "
                     f"--think >= 0.5 and --timeout >= {2 * REPORT_S} please")

    t_start = time.monotonic()

    def alarm(_signum: int, _frame: object) -> None:
        raise OutOfTime(f"the overall --timeout of {args.timeout:.0f} s ran out")

    signal.signal(signal.SIGALRM, alarm)
    signal.alarm(int(args.timeout) - REPORT_S)
    bots = args.seats - args.phones
    print(f"tables: {args.tables} x {args.seats} seats ({args.phones} phones, {bots} "
          f"{args.bot} bot{'s' if bots != 1 else ''}), rules {args.rules}, {args.games} "
          f"game(s) each, think 0.5-{args.think:g} s, bot pace {args.bot_pace:g} s, no clock, "
          f"no stand-in; db {args.db}, tabs {args.tabs}, app processes {args.workers}, "
          f"server options {' '.join(rest) or '(config.toml as is)'}", flush=True)
    result = None
    try:
        with tempfile.TemporaryDirectory(prefix="coup-table-") as tmpdir, \
                database(args.db, Path(tmpdir)) as url:
            store = table_store(url)
            log = Path(tmpdir) / "server.log"
            try:
                made = set_up(store, args)
                print("made: " + ", ".join(m.code for m in made), flush=True)
                env = {"COUP_TRAINER_DB_URL": url}
                with (serve_workers(args.workers, rest, env=env, log=log) if args.workers > 1
                      else serve(rest, env=env, log=log)) as server:
                    result = run(args, server, store, made, t_start)
            finally:
                store.engine.dispose()
                if args.log is not None and log.exists():
                    shutil.copyfile(log, args.log)
    except OutOfTime as e:
        print(f"stopped: {e}", flush=True)
    finally:
        signal.alarm(0)
    print(f"{time.monotonic() - t_start:.0f} s in all", flush=True)
    if result is None:
        print("lost nan move_seen_p95_s nan screen_p95_s nan")
        sys.exit(1)
    lost, seen, screen, extra = result
    print(f"lost {lost} move_seen_p95_s {seen:.3f} screen_p95_s {screen:.3f} "
          + " ".join(f"{k} {v}" if isinstance(v, int) else f"{k} {v:.3f}"
                     for k, v in extra.items()))


if __name__ == "__main__":
    with suppress(KeyboardInterrupt):
        main()
