"""Classroom Rooms under load: a bounded loopback test through the real Streamlit server.

One app process (`streamlit run streamlit_app.py`, the repository's .streamlit/config.toml as
is, more server options passed through) and `--rooms` rooms at once (a school: several
classes on one laptop), each of `--questions` questions (a "mixed" drill of the base game,
`Source(count=...)`, made with `RoomStore.create` on the database the server uses), with
`--phones` phones and a presenter screen of its own, run by a host thread of its own:

- each phone opens `/room?code=...`, joins with the join form's button (the seat lands in the
  address; a Join refused because another phone took the suggested name a moment before is
  clicked again, as a person would) and then keeps the page open, polling as the page makes
  it poll;
- the host runs the room from the presenter screen (`/room?code=...&host=...`) with its own
  buttons: Start, then per question Reveal and Next question, and at the end See the results;
- per question, each phone answers at a random moment within `--window` seconds of the
  question opening (its own draw; a phone that only sees the question after the window has
  closed lets it go): for a claim it first moves the slider `room_p_<code>_<q>` (1-99), then
  clicks one of the buttons `room_option_<q>_<i>`;
- the host reveals once the screen shows everyone answered or the window has closed, then
  waits `--reveal-pause` seconds (the class reads the reveal) before the next question;
- the rooms' phones arrive side by side, and the rooms start their first question together
  after the idle lobby, or `--stagger` seconds apart (default 0: every room's questions open
  in the same second, so every phone of the school answers in the same window: the worst case).

How a tab is simulated (`--tabs`, see bench/room_load.py):

  browser  (default) Streamlit's own browser protocol over the websocket, without drawing.
           The page's polling fragments (`st.fragment(run_every=...)`: 2 s on a phone, 1 s on
           the presenter's live count) run exactly as a browser runs them: a fragment-only
           rerun request on the interval the server announced, and a full page run only when
           the fragment asks for one. Lighter than a browser and as true to the server.
  agent    an agent-API session per tab (bench/agentapi.py). The agent API cannot run a
           fragment's timer, so every poll is a rerun of the whole page (phones every 2 s,
           the presenter every second while it would poll): heavier than the real page.

Why not Playwright: the phones would need five Chromium processes on a 2-core machine that
also runs the server, and the server sees exactly the same requests from `browser` tabs.

Measured and printed:

- answers lost (goal 0): per phone the answers it sent and saw accepted (the click's run
  finished and did not say the answer missed the question: "closed", or "you did not answer"
  after a reveal that came first) against the rows of `room_answers` (SQLAlchemy on the same
  database), seat by seat and question by question;
- participant interaction p95 (goal < 1 s): a phone's slider move and answer click (request
  to the end of its run) and its page refreshes (a poll that led to a full page run: the host
  changed the room). Polls that only ran the fragment are shown on their own line;
- presenter update after an answer p95 (goal <= 2 s): the k-th answer to a question (in the
  order of `answered_at`, stored by the server at the commit) counts as shown at the end of
  the first presenter run after it whose "N of M answered" has N >= k. The presenter's runs
  are its real 1-second fragment (`browser`) or a page rerun every second (`agent`), plus the
  host's own clicks; so this is the poll interval plus a run's latency, as a host sees it;
- what a poll costs: server CPU per run while the room idles in the lobby (every phone and
  the presenter polling, nothing else), and `RoomStore.pulse` / `tally` timed in this process
  on the same database; plus runs/s, the server's CPU seconds and memory (/proc), and the
  CPU other processes used meanwhile (the server competes with them on a shared machine);
- with `--costs N`, first, in a room of its own with one phone and the presenter, N runs of
  each kind one at a time (the phone's poll, each page in each state): the server's CPU per
  run, to see what a change to the pages saves.

Bounded: a hard overall `--timeout` (the server is killed at the end, on error, on Ctrl-C and
when it runs out; the host stops asking questions a minute before), loopback only.

    .venv/bin/python bench/room.py [--db sqlite|postgresql] [--tabs browser|agent]
        [--rooms 1] [--phones 60] [--questions 20] [--window 10] [--stagger 0] [--quick]
        [--costs N] [--workers 1]
        [--freeze] [--timeout 720] [--runner.postScriptGC false ...]

PostgreSQL: the URL in COUP_TRAINER_BENCH_PG_URL, else `scripts/test-postgres.sh start`; the
test runs in a database of its own made on that server and dropped at the end, and the server
is stopped at the end only if this run started it (another may be using one it found running).
`--workers N` (N > 1, PostgreSQL only): the app as a school runs it on one laptop, `python -m
trainer serve --workers N`: N app processes behind HAProxy, sticky by HAProxy's cookie; each
tab's websocket goes to the worker HAProxy picks (round robin) and stays there. The CPU figures
are the workers' together, and HAProxy's on a line of its own.
`--freeze`: after the warm-up, `gc.freeze()` in the server (what the page could do once its
cached resources are loaded, so the collector stops walking them after every run).

A school: `--rooms 5 --phones 30` (150 phones, 20 questions a room). The figures are over
every room together, then room by room.

Last line: `lost <n> participant_p95_s <x> presenter_p95_s <y>`.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from agentapi import Server, database, percentile, serve, serve_workers  # noqa: E402
from room_load import AgentTab, BrowserTab, Step, Tab, Timers  # noqa: E402

JOIN = "FormSubmitter:room_join_form-Join"
COUNT = re.compile(r"(\d+) of (\d+) answered")
QUESTION = re.compile(r"^Question (\d+) of \d+")
OPTION = re.compile(r"^room_option_(\d+)_(\d+)$")
CLOSED = "Answers for that question are closed"
NOT_ANSWERED = "You did not answer this one"  # a click that landed after the reveal
ANSWER_IN = "Your answer is in"
PHONE_POLL_S, PRESENTER_POLL_S = 2.0, 1.0  # the pages' run_every, for agent tabs
REPORT_S = 60  # of --timeout, kept for the report after the load

# Installed in the server process by --freeze: on SIGUSR1, one full collection, then everything
# alive moves to the permanent generation (the collector no longer walks it).
FREEZE_LAUNCHER = """
import gc, signal, sys
def _freeze(signum, frame):
    gc.collect()
    gc.freeze()
    print(f"bench: gc.freeze() moved {gc.get_freeze_count()} objects", file=sys.stderr,
          flush=True)
signal.signal(signal.SIGUSR1, _freeze)
"""


class OutOfTime(Exception):
    """The overall --timeout ran out."""


def room_store(url: str) -> Any:
    """A RoomStore on `url`, as the server makes its own."""
    from trainer.learners.storage import Store
    from trainer.rooms.store import RoomStore

    return RoomStore(Store(url).engine)


def new_room(rooms: Any, questions: int, seed: int) -> tuple[str, str, int]:
    """A new room of `questions` base-game drill items: its code, its host token and how
    many of its items are claims."""
    from trainer.quiz.bank import available_banks, load_bank
    from trainer.rooms.questions import choose
    from trainer.rooms.settings import RoomSettings, Source

    bank = load_bank(available_banks()["default"])
    source = Source(kind="drill", bank="default", drill="mixed", rule_set="base",
                    count=questions, seed=seed)
    items = choose(bank, source)
    if len(items) < questions:
        raise RuntimeError(f"the bank gave {len(items)} questions, not {questions}")
    room, host = rooms.create(source, RoomSettings(), [i.id for i in items], bank.version)
    return room.code, host, sum(i.has_claim for i in items)


def stored_answers(rooms: Any, code: str) -> set[tuple[str, int]]:
    """(seat, question) of every row of `room_answers` in the room."""
    from sqlalchemy import select

    from trainer.rooms.store import room_answers_table as t

    with rooms.engine.connect() as c:
        rows = c.execute(select(t.c.seat, t.c.question).where(t.c.room == code)).all()
    return {(str(s), int(q)) for s, q in rows}


def machine_busy() -> float:
    """CPU seconds used so far by everything on this machine, all cores (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


@dataclass
class Usage:
    """What a bench run cost, from `Usage.start` to `stop`: the server's CPU (its workers'
    together) and memory, HAProxy's CPU, this script's CPU, and what every other process on
    the machine used meanwhile (the server competes with them on a shared machine)."""

    server: Any
    cpu0: float
    rss0: float
    lb0: float
    own0: float
    busy0: float
    wall0: float
    wall: float = 0.0
    cpu: float = 0.0
    rss1: float = 0.0
    lb: float = 0.0
    own: float = 0.0
    others: float = 0.0

    @classmethod
    def start(cls, server: Any) -> Usage:
        return cls(server, server.cpu(), server.rss_mib(), server.balancer_cpu(),
                   sum(os.times()[:2]), machine_busy(), time.monotonic())

    def stop(self) -> Usage:
        """The figures since `start`; HAProxy's CPU printed when there is one."""
        self.wall = time.monotonic() - self.wall0
        self.cpu, self.rss1 = self.server.cpu() - self.cpu0, self.server.rss_mib()
        self.lb = self.server.balancer_cpu() - self.lb0
        self.own = sum(os.times()[:2]) - self.own0
        self.others = machine_busy() - self.busy0 - self.cpu - self.own - self.lb
        if self.server.balancer:
            print(f"HAProxy: CPU {self.lb:.1f} s", flush=True)
        return self


def time_calls(fn: Any, n: int) -> tuple[float, float]:
    """p50 and p95 of `n` calls of `fn()`, in milliseconds."""
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - t0))
    return percentile(times, 0.5), percentile(times, 0.95)


# ------------------------------------------------------------------------------ the phones
@dataclass
class Shared:
    """What the host thread tells the phones: when each question opened (monotonic)."""

    window: float
    opened: dict[int, float] = field(default_factory=dict)
    done: threading.Event = field(default_factory=threading.Event)
    joined: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Phone:
    index: int
    tab: Tab
    offsets: list[float]  # when it answers each question, seconds after it opened
    seat: str | None = None
    sent: set[int] = field(default_factory=set)       # accepted by the page
    refused: set[int] = field(default_factory=set)    # the page said it did not count
    failed: set[int] = field(default_factory=set)     # the click's run did not finish well
    skipped: set[int] = field(default_factory=set)    # saw the question after its window
    confirmed: set[int] = field(default_factory=set)  # the page said "your answer is in"
    seen: dict[int, float] = field(default_factory=dict)  # question -> time.time() shown
    answer_steps: list[Step] = field(default_factory=list)
    join_errors: list[str] = field(default_factory=list)  # a Join that gave no seat
    error: str = ""


def shown_question(keys: set[str]) -> int | None:
    qs = {int(m.group(1)) for k in keys if (m := OPTION.match(k))}
    return max(qs) if qs else None


def note_seen(ph: Phone) -> None:
    q = shown_question(ph.tab.keys)
    if q is not None and q not in ph.seen:
        ph.seen[q] = time.time()


def answer(ph: Phone, q: int, code: str, rng: random.Random) -> None:
    tab = ph.tab
    slider = f"room_p_{code}_{q}"
    if slider in tab.keys:
        ph.answer_steps.append(tab.set(slider, rng.randint(1, 99)))
    options = sorted(k for k in tab.keys if k.startswith(f"room_option_{q}_"))
    if not options:
        ph.failed.add(q)
        return
    step = tab.click(rng.choice(options))
    ph.answer_steps.append(step)
    if not step.ok:
        ph.failed.add(q)
        return
    page = "\n".join(tab.texts)
    if CLOSED in page or NOT_ANSWERED in page:
        ph.refused.add(q)  # the page told the participant it did not count
        return
    ph.sent.add(q)
    if ANSWER_IN in page:
        ph.confirmed.add(q)


def run_phone(ph: Phone, shared: Shared, code: str, arrive_at: float, stop_at: float,
              seed: int) -> None:
    """One participant: arrive, join through the page, then poll and answer until the end."""
    rng = random.Random(seed)
    tab = ph.tab
    try:
        if shared.done.wait(max(0.0, arrive_at - time.monotonic())):
            return
        step = tab.open()
        for _attempt in range(3):  # as a person would: Join again after "that name is taken"
            if not step.ok or JOIN not in tab.keys:
                break
            step = tab.click(JOIN)
            ph.seat = tab.params.get("seat")
            if ph.seat:
                break
            ph.join_errors.append(next((t for t in tab.texts if "taken" in t), "no seat"))
        if not step.ok or not ph.seat:
            ph.error = f"could not join: {step.error or 'no seat in the address'}"
            return
        with shared.lock:
            shared.joined += 1
        interval = tab.poll_interval or PHONE_POLL_S
        next_poll = time.monotonic() + interval
        answered: set[int] = set()
        while not shared.done.is_set() and time.monotonic() < stop_at:
            now = time.monotonic()
            q = shown_question(tab.keys)
            due = None
            if q is not None and q not in answered and q in shared.opened:
                opened = shared.opened[q]
                due = opened + ph.offsets[q]
                if now >= due:
                    answered.add(q)
                    if now > opened + shared.window:
                        ph.skipped.add(q)
                    else:
                        answer(ph, q, code, rng)
                        if tab.steps and tab.steps[-1].full:
                            next_poll = time.monotonic() + interval  # the browser's timer
                    continue
            wake = next_poll if due is None else min(next_poll, due)
            if shared.done.wait(max(0.0, wake - time.monotonic())):
                break
            if time.monotonic() >= next_poll:
                step = tab.poll()
                note_seen(ph)
                interval = tab.poll_interval or interval
                now = time.monotonic()
                # A full run restarts the browser's timers; a slow run delays the next tick.
                next_poll = now + interval if step.full else max(next_poll + interval, now)
    except Exception as e:  # a phone's failure is a result, not the end of the run
        ph.error = f"{type(e).__name__}: {e}"[:200]
    finally:
        tab.close()


# ------------------------------------------------------------------------------- the host
@dataclass
class HostLog:
    """What a room's host and screen did: the host's clicks on the remote, the polls of the
    screen (the projector's fragment timers) and of the remote, and every count the screen
    showed, with the question it showed it for."""

    clicks: list[tuple[str, Step]] = field(default_factory=list)
    polls: list[Step] = field(default_factory=list)         # the screen's
    remote_polls: list[Step] = field(default_factory=list)  # the host remote's
    seen: list[tuple[float, int, int, int]] = field(default_factory=list)  # t, q, n, of
    question_at: dict[int, float] = field(default_factory=dict)  # time.time() in the DB
    asked: int = 0
    note: str = ""


def observe(screen: Tab, log: HostLog, step: Step) -> None:
    """Note the screen's count after one of its runs, for the question its header names (a
    screen that has not yet followed the host to the next question still counts the last)."""
    if not step.ok:
        return
    texts = screen.texts
    q = next((int(m.group(1)) - 1 for t in texts if (m := QUESTION.search(t))), None)
    if q is None:
        return
    for text in texts:
        if m := COUNT.search(text):
            log.seen.append((step.ended, q, int(m.group(1)), int(m.group(2))))
            return


def pump(timers: Timers, until: float, stop: Callable[[], bool], out: list[Step],
         then: Callable[[Step], None] | None = None) -> None:
    """Run a tab's fragment timers, as its browser would, until `until` (monotonic) or
    `stop()`; every poll goes to `out` and to `then`."""
    while not stop():
        now = time.monotonic()
        if now >= until:
            return
        nxt = timers.next()
        wake = until if nxt is None else min(until, nxt[1])
        time.sleep(max(0.0, min(wake, now + 0.2) - now))
        if nxt is not None and time.monotonic() >= nxt[1]:
            step = timers.fire(nxt[0])
            out.append(step)
            if then is not None:
                then(step)


def run_screen(screen: Tab, log: HostLog, shared: Shared, stop_at: float) -> None:
    """The projector: the screen view left open, its fragments polling on their timers."""
    timers = Timers(screen)
    with suppress(Exception):  # a screen's failure shows as its failed polls
        pump(timers, stop_at, shared.done.is_set, log.polls,
             lambda step: observe(screen, log, step))


def host_click(remote: Tab, timers: Timers, log: HostLog, key: str) -> Step:
    """The host clicks `key` on the remote; when the button is not there (a run that has not
    ended), the host waits for the remote and tries again, three times."""
    for _attempt in range(3):
        if key not in remote.keys:
            step = remote.poll()
            timers.ran(step)
            log.remote_polls.append(step)
            continue
        step = remote.click(key)
        timers.ran(step)
        log.clicks.append((key, step))
        if step.ok:
            return step
    raise RuntimeError(f"the host could not click {key}: the remote shows "
                       f"{sorted(remote.keys)}")


def run_host(remote: Tab, rooms: Any, code: str, shared: Shared, questions: int,
             reveal_pause: float, soft_deadline: float, log: HostLog) -> None:
    """The teacher: Start, then per question Reveal (once the screen shows everyone answered
    or the window has closed) and Next; the remote's own timers run meanwhile."""
    timers = Timers(remote)

    def wait(until: float, stop: Callable[[], bool] = lambda: False) -> None:
        pump(timers, until, stop, log.remote_polls)

    for q in range(questions):
        if time.monotonic() > soft_deadline:
            log.note = f"stopped after {q} questions: the overall --timeout is near"
            break
        host_click(remote, timers, log, "room_start" if q == 0 else "room_next")
        shared.opened[q] = time.monotonic()
        at = rooms.room(code).question_at
        log.question_at[q] = at.timestamp() if at else time.time()
        log.asked = q + 1

        def everyone(q: int = q) -> bool:
            last = [n >= of for _t, qq, n, of in log.seen[-1:] if qq == q]
            return bool(last and last[0])

        wait(min(shared.opened[q] + shared.window, soft_deadline + 30), everyone)
        host_click(remote, timers, log, "room_reveal")
        wait(time.monotonic() + reveal_pause)
    if log.asked:
        host_click(remote, timers, log, "room_next")  # the last: "See the results"


# ---------------------------------------------------------------------------- reporting
def fmt(xs: Sequence[float]) -> str:
    if not xs:
        return "n 0"
    return (f"n {len(xs)}  p50 {percentile(xs, 0.5):.3f}  p95 {percentile(xs, 0.95):.3f}  "
            f"max {max(xs):.3f}")


def presenter_delays(log: HostLog, answers: list[Any]) -> tuple[list[float], int]:
    """Per answer, the seconds until a presenter run showed a count including it; and how
    many answers no presenter run showed."""
    seen = sorted(log.seen)
    delays: list[float] = []
    unseen = 0
    by_q: dict[int, list[float]] = {}
    for a in answers:
        by_q.setdefault(a.question, []).append(a.answered_at.timestamp())
    for q, times in by_q.items():
        for k, at in enumerate(sorted(times), 1):
            shown = next((t for t, qq, n, _of in seen if qq == q and n >= k and t >= at), None)
            if shown is None:
                unseen += 1
            else:
                delays.append(shown - at)
    return delays, unseen


def errors_line(steps: list[Step]) -> str:
    bad = [s for s in steps if not s.ok]
    if not bad:
        return "errors 0"
    return f"errors {len(bad)} (first: {bad[0].label}: {bad[0].error})"


# ------------------------------------------------------------------------ one run's cost
def costs(server: Server, rooms: Any, code: str, host: str, runs: int,
          timeout: float) -> None:
    """--costs: the server's CPU for one run of each kind, one tab at a time, in a room of
    its own (one phone, the host's remote, the screen) before the load: what each poll and
    redraw costs."""
    remote = BrowserTab(server.base, "room", {"code": code, "host": host}, timeout=timeout)
    screen = BrowserTab(server.base, "room", {"code": code,
                                              "screen": rooms.screen_token(code, host)},
                        timeout=timeout)
    phone = BrowserTab(server.base, "room", {"code": code}, timeout=timeout)
    rows: list[tuple[str, float, float]] = []

    def measure(label: str, step: Any) -> None:
        step()  # a first run of this kind, not counted
        c0 = server.cpu()
        done = [step() for _ in range(runs)]
        cpu = server.cpu() - c0
        if not all(d.ok for d in done):
            raise RuntimeError(f"--costs: {label}: {next(d.error for d in done if not d.ok)}")
        rows.append((label, 1000 * cpu / runs,
                     1000 * percentile([d.seconds for d in done], 0.5)))

    try:
        remote.open()
        screen.open()
        phone.open()
        phone.click(JOIN)
        measure("phone poll, nothing changed (its fragment)", phone.poll)
        measure("phone page, lobby", phone.rerun)
        measure("screen poll, lobby (its fastest fragment)", screen.poll)
        remote.click("room_start")
        screen.rerun()
        measure("screen live count (its fastest fragment)", screen.poll)
        measure("screen page, question open", screen.rerun)
        measure("host remote poll, question open", remote.poll)
        measure("host remote page, question open", remote.rerun)
        phone.rerun()
        measure("phone page, question open", phone.rerun)
        option = sorted(k for k in phone.keys if k.startswith("room_option_0_"))[0]
        phone.click(option)
        measure("phone page, answered", phone.rerun)
        remote.click("room_reveal")
        measure("screen page, revealed", screen.rerun)
        measure("phone page, revealed (feedback)", phone.rerun)
        while rooms.room(code).status != "finished":
            room = rooms.room(code)
            (rooms.reveal if room.status == "question" else rooms.next)(code, host)
        measure("screen page, finished", screen.rerun)
        measure("phone page, finished (results)", phone.rerun)
    finally:
        for tab in (remote, screen, phone):
            tab.close()
    print(f"one run at a time ({runs} of each, server CPU per run and latency p50):")
    for label, cpu_ms, p50_ms in rows:
        print(f"  {label:<46}{cpu_ms:7.1f} ms CPU {p50_ms:7.1f} ms", flush=True)


# ------------------------------------------------------------------------------- the run
def make_tab(kind: str, base: str, query: dict[str, str], interval: float,
             timeout: float) -> Tab:
    if kind == "browser":
        return BrowserTab(base, "room", query, timeout=timeout)
    return AgentTab(base, "room", query, timeout=timeout, interval=interval)


@dataclass
class RoomRun:
    """One room of the load: its code and host token, the host's remote (where the host
    clicks) and the screen view (what the projector shows: the counts are read there), its
    phones and what its host did. Each room has a host thread and a screen thread of its
    own, as each class has a teacher and a projector."""

    index: int
    code: str
    host: str
    claims: int
    remote: Tab
    screen: Tab
    phones: list[Phone]
    shared: Shared
    log: HostLog = field(default_factory=HostLog)
    error: str = ""


def host_room(room: RoomRun, store: Any, args: argparse.Namespace, idle_until: float,
              soft: float) -> None:  # idle_until and soft: time.monotonic()
    """A room's host: the remote's timers run through the idle lobby (the polls' cost is
    measured then), then the host runs the questions. A host's failure is a result."""
    try:
        pump(Timers(room.remote), idle_until, lambda: False, room.log.remote_polls)
        # --stagger: teachers start their rooms a moment apart
        time.sleep(args.stagger * room.index)
        run_host(room.remote, store, room.code, room.shared, args.questions,
                 args.reveal_pause, soft, room.log)
        time.sleep(PHONE_POLL_S + 2.0)  # the phones see the results
    except OutOfTime as e:
        room.log.note = f"stopped: {e}; what was measured until then follows"
    except Exception as e:  # noqa: BLE001 - reported with the room's results
        room.error = f"{type(e).__name__}: {e}"[:300]
    finally:
        room.shared.done.set()


def run(args: argparse.Namespace, server: Server, store: Any, made: list[tuple[str, str, int]],
        t_start: float) -> tuple[int, float, float]:
    p, n = args.phones, args.questions
    deadline = t_start + args.timeout - REPORT_S
    soft = deadline - 60  # no new question after this
    base = server.base
    print(f"server pid {' '.join(map(str, server.pids))} at {base}"
          + (f" (HAProxy pid {server.balancer})" if server.balancer else ""), flush=True)

    def tab(query: dict[str, str], interval: float) -> Tab:
        return make_tab(args.tabs, base, query, interval, args.request_timeout)

    # warm-up: the remotes and screens (bank, grades, lessons), the join page
    rooms: list[RoomRun] = []
    rng = random.Random(args.seed)
    for i, (code, host, claims) in enumerate(made):
        remote = tab({"code": code, "host": host}, PRESENTER_POLL_S)
        screen = tab({"code": code, "screen": store.screen_token(code, host)},
                     PRESENTER_POLL_S)
        t, s = remote.open(), screen.open()
        if not (t.ok and s.ok):
            raise RuntimeError(f"the remote or screen of room {code} did not open: "
                               f"{t.error or s.error}")
        if i == 0:
            warm = tab({"code": code}, PHONE_POLL_S)
            w = warm.open()
            warm.close()
            print(f"warm-up: host remote {t.seconds:.2f} s, screen {s.seconds:.2f} s, join "
                  f"page {w.seconds:.2f} s (first runs, not counted)", flush=True)
        phones = [Phone(j, tab({"code": code}, PHONE_POLL_S),
                        [rng.uniform(0.5, 0.9 * args.window) for _ in range(n)])
                  for j in range(p)]
        rooms.append(RoomRun(i, code, host, claims, remote, screen, phones,
                             Shared(window=args.window)))
    if args.freeze:
        for pid in server.pids:
            os.kill(pid, signal.SIGUSR1)
        time.sleep(1.0)
        print("  " + next((ln for ln in server.log.read_text().splitlines()
                           if "gc.freeze()" in ln), "gc.freeze() not reported!"), flush=True)

    first = rooms[0]
    if args.costs:
        other, other_host, _claims = new_room(store, args.questions, args.seed + 1000)
        costs(server, store, other, other_host, args.costs, args.request_timeout)
    pulse = time_calls(lambda: store.pulse(first.code), 200)
    tally = time_calls(lambda: store.tally(first.code, first.host, 0), 200)
    print(f"in this process, on the same database: RoomStore.pulse p50 {pulse[0]:.2f} ms "
          f"p95 {pulse[1]:.2f} ms; RoomStore.tally p50 {tally[0]:.2f} ms p95 {tally[1]:.2f} ms",
          flush=True)

    everyone = [ph for room in rooms for ph in room.phones]
    total = len(everyone)
    usage = Usage.start(server)
    t0 = time.monotonic()
    # Every room's phones arrive over --arrive seconds, the rooms' arrivals side by side.
    threads = [threading.Thread(target=run_phone, daemon=True,
                                args=(ph, room.shared, room.code, t0 + args.arrive * j / p,
                                      soft + 30, args.seed * 100_000 + room.index * 1000 + j))
               for room in rooms for j, ph in enumerate(room.phones)]
    threads += [threading.Thread(target=run_screen, daemon=True,
                                 args=(room.screen, room.log, room.shared, soft + 60))
                for room in rooms]
    for th in threads:
        th.start()
    hosts: list[threading.Thread] = []
    try:
        # the lobby: wait for everyone, then measure the rooms idling (polls only)
        while sum(r.shared.joined for r in rooms) + sum(bool(ph.error) for ph in everyone) \
                < total:
            if time.monotonic() > t0 + args.arrive + 120:
                break
            time.sleep(0.2)
            if time.monotonic() > soft:
                raise OutOfTime("the phones had not joined before the --timeout")
        joined_s = time.monotonic() - t0
        time.sleep(2.0)
        idle0, c0 = time.time(), server.cpu()
        idle1 = idle0 + args.idle
        hosts = [threading.Thread(target=host_room, daemon=True,
                                  args=(room, store, args, time.monotonic() + args.idle, soft))
                 for room in rooms]
        for th in hosts:
            th.start()
        time.sleep(max(0.0, idle1 - time.time()))
        idle1, c1 = time.time(), server.cpu()
        idle_steps = [s for ph in everyone for s in list(ph.tab.steps)
                      if idle0 <= s.started < idle1] + \
                     [s for room in rooms for s in list(room.log.polls)
                      + list(room.log.remote_polls) if idle0 <= s.started < idle1]
        idle_polls = [s.seconds for s in idle_steps if s.label == "poll"]
        joined = sum(r.shared.joined for r in rooms)
        print(f"joined: {joined} of {total} in {joined_s:.1f} s ({len(rooms)} rooms of {p}; "
              f"each room's arrivals spread over {args.arrive:.0f} s)", flush=True)
        kind = "fragment-only runs" if args.tabs == "browser" else "full page reruns"
        print(f"lobby, idle for {idle1 - idle0:.1f} s: {len(idle_steps)} polls "
              f"({len(idle_steps) / (idle1 - idle0):.1f}/s, {kind}); server CPU "
              f"{1000 * (c1 - c0) / max(1, len(idle_steps)):.1f} ms per poll, "
              f"{100 * (c1 - c0) / (idle1 - idle0):.0f}% of a core; poll latency "
              f"{fmt(idle_polls)}", flush=True)
        for th in hosts:
            th.join(max(0.0, deadline - time.monotonic()))
    except OutOfTime as e:
        for room in rooms:
            room.log.note = room.log.note or f"stopped: {e}; what was measured until then follows"
    finally:
        for room in rooms:
            room.shared.done.set()
        for th in threads + hosts:
            th.join(max(0.0, min(5.0, deadline - time.monotonic())))
        for room in rooms:
            room.remote.close()
            room.screen.close()
    signal.alarm(REPORT_S)  # the report's own time; then the server is stopped regardless
    u = usage.stop()
    return report(args, rooms, store, u.wall, u.cpu, u.rss0, u.rss1, u.own, u.others)


@dataclass
class Tallied:
    """One room's answers against the database."""

    lost: int
    stored: int
    sent: int
    confirmed: int
    refused: int
    failed: int
    failed_stored: int
    skipped: int
    uncounted: int


def tally_room(room: RoomRun, store: Any) -> Tallied:
    stored = stored_answers(store, room.code)
    expected = {(ph.seat, q) for ph in room.phones if ph.seat for q in ph.sent}
    failed_in_db = sum((ph.seat, q) in stored for ph in room.phones for q in ph.failed)
    return Tallied(
        lost=len(expected - stored), stored=len(stored),
        sent=sum(len(ph.sent) for ph in room.phones),
        confirmed=sum(len(ph.confirmed) for ph in room.phones),
        refused=sum(len(ph.refused) for ph in room.phones),
        failed=sum(len(ph.failed) for ph in room.phones), failed_stored=failed_in_db,
        skipped=sum(len(ph.skipped) for ph in room.phones),
        uncounted=len(stored - expected) - failed_in_db)


def participant_times(phones: list[Phone]) -> list[float]:
    """A phone's slider moves, answer clicks and page refreshes (polls that ran the page)."""
    answers = [s for ph in phones for s in ph.answer_steps]
    refreshes = [s.seconds for ph in phones for s in ph.tab.steps
                 if s.label == "poll" and s.ok and s.full]
    return [s.seconds for s in answers if s.ok] + refreshes


def report(args: argparse.Namespace, rooms: list[RoomRun], store: Any, wall: float, cpu: float,
           rss0: float, rss1: float, own: float, others: float) -> tuple[int, float, float]:
    tallies = [tally_room(room, store) for room in rooms]
    phones = [ph for room in rooms for ph in room.phones]
    logs = [room.log for room in rooms]
    asked = [log.asked for log in logs]
    notes = sorted({log.note for log in logs if log.note} | {r.error for r in rooms if r.error})
    print(f"questions asked: {sum(asked)} of {args.questions * len(rooms)} "
          f"({', '.join(map(str, asked))} a room). {' '.join(notes)}".rstrip(), flush=True)

    def total(name: str) -> int:
        return sum(getattr(t, name) for t in tallies)

    lost = total("lost")
    print(f"answers: {total('sent')} sent and accepted by the page ({total('confirmed')} "
          f"showed 'your answer is in'), {total('refused')} refused (the page said they did "
          f"not count: closed), {total('failed')} clicks that failed ({total('failed_stored')} "
          f"of them stored), {total('skipped')} let go (seen after the window); rows in "
          f"room_answers: {total('stored')}; lost {lost}, rows no phone counted "
          f"{total('uncounted')}", flush=True)
    retries = [e for ph in phones for e in ph.join_errors]
    if retries:
        print(f"joins that gave no seat and were tried again: {len(retries)} (first: "
              f"{retries[0][:120]})")
    bad_phones = [ph for ph in phones if ph.error]
    if bad_phones:
        print(f"phones with an error: {len(bad_phones)} (first: {bad_phones[0].error})")

    steps = [s for ph in phones for s in ph.tab.steps]
    answers = [s for ph in phones for s in ph.answer_steps]
    clicks = [s.seconds for s in answers if s.ok and s.label.startswith("click")]
    sliders = [s.seconds for s in answers if s.ok and s.label.startswith("set")]
    polls = [s for s in steps if s.label == "poll"]
    refreshes = [s.seconds for s in polls if s.ok and s.full]
    fragment = [s.seconds for s in polls if s.ok and not s.full]
    joins = [s.seconds for s in steps if s.ok and (s.label.startswith("open")
                                                   or s.label == f"click {JOIN}")]
    participant = participant_times(phones)
    print(f"phone answer clicks (s):     {fmt(clicks)}")
    print(f"phone slider moves (s):      {fmt(sliders)}")
    print(f"phone page refreshes (s):    {fmt(refreshes)}  (a poll that ran the whole page)")
    if args.tabs == "browser":
        print(f"phone polls, fragment only:  {fmt(fragment)}  (the real 2 s fragment)")
    else:
        print("phone polls: every one is a full page rerun here (agent API), heavier than the "
              "real page's fragment")
    print(f"phone open + join (s):       {fmt(joins)}")
    print(f"participant interactions:    {fmt(participant)}  {errors_line(steps)}")
    shows = [ph.seen[q] - room.log.question_at[q] for room in rooms for ph in room.phones
             for q in ph.seen if q in room.log.question_at]
    print(f"a phone shows a new question after the host's click (s): {fmt(shows)}")

    delays: list[float] = []
    unseen = 0
    per_room: list[tuple[float, float]] = []
    for room in rooms:
        d, u = presenter_delays(room.log, store.answers(room.code, room.host))
        delays += d
        unseen += u
        per_room.append((percentile(participant_times(room.phones), 0.95),
                         percentile(d, 0.95)))
    pres_polls = [s for log in logs for s in log.polls]
    remote_polls = [s for log in logs for s in log.remote_polls]
    print(f"screen polls (s):            {fmt([s.seconds for s in pres_polls if s.ok])}  "
          f"{errors_line(pres_polls)}")
    print(f"host remote polls (s):       {fmt([s.seconds for s in remote_polls if s.ok])}  "
          f"{errors_line(remote_polls)}")
    clicks_by = [(k, s) for log in logs for k, s in log.clicks]
    for key in ("room_start", "room_reveal", "room_next"):
        print(f"host clicks {key:<12}(s): {fmt([s.seconds for k, s in clicks_by if k == key])}")
    print(f"presenter update after an answer (s): {fmt(delays)}"
          + (f"; {unseen} answers never shown before the reveal's count" if unseen else ""))
    if len(rooms) > 1:
        for room, t, (pp, sp) in zip(rooms, tallies, per_room, strict=True):
            print(f"  room {room.index + 1} ({room.code}): {room.log.asked} questions, "
                  f"{t.stored} answers stored, lost {t.lost}, participant p95 {pp:.3f} s, "
                  f"presenter p95 {sp:.3f} s")
    runs = len(steps) + len(pres_polls) + len(remote_polls) + len(clicks_by)
    who = f"{args.workers} workers" if args.workers > 1 else "server"
    print(f"{who}: {runs} requests in {wall:.0f} s ({runs / wall:.1f}/s), CPU {cpu:.1f} s "
          f"({100 * cpu / wall:.0f}% of one core, {1000 * cpu / max(1, runs):.0f} ms per "
          f"request), memory {rss0:.0f} -> {rss1:.0f} MiB; this script's CPU {own:.1f} s")
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores; other processes used {others:.0f} CPU s during the run "
          f"({100 * others / wall / cores:.0f}% of the machine): the server competed with "
          f"them" if others > 0.1 * wall else f"machine: {cores} cores, otherwise idle "
          f"({others:.0f} CPU s used by other processes)")
    if args.tabs == "browser":
        print("model: phones and the presenters speak the browser's websocket protocol; each "
              "poll is the page's own fragment on its own timer (2 s phone, 1 s presenter), "
              "so the server does what it does for real browsers.")
    else:
        print("model: agent-API sessions; the agent API cannot run a fragment's timer, so each "
              "phone reruns its whole page every 2 s and the presenter every 1 s while a "
              "question is open: heavier than the real fragments, which only read the room's "
              "version (phones) or the count (presenter).")
    print("presenter update = end of the first run of the screen view (what the projector "
          "shows: its 1 s fragment, or a full run after the host's click) whose 'N of M "
          "answered' for that question includes the answer, minus the answer's answered_at.")
    return lost, percentile(participant, 0.95), percentile(delays, 0.95)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="Other --section.option value pairs go to `streamlit run` unchanged.")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--workers", type=int, default=1,
                        help="app processes: above 1, `python -m trainer serve --workers N` "
                             "(HAProxy in front, sticky sessions; needs --db postgresql)")
    parser.add_argument("--tabs", choices=["browser", "agent"], default="browser",
                        help="how a tab is simulated (default browser; see the docstring)")
    parser.add_argument("--rooms", type=int, default=1,
                        help="rooms running at once, each with its own presenter (default 1)")
    parser.add_argument("--phones", "--participants", dest="phones", type=int,
                        help="phones in each room (default 60; 20 with --quick)")
    parser.add_argument("--stagger", type=float, default=0.0,
                        help="seconds between one room's Start and the next room's (default 0: "
                             "every room opens its questions at the same moment, the worst "
                             "case)")
    parser.add_argument("--questions", type=int, help="questions (default 20; 5 with --quick)")
    parser.add_argument("--window", type=float,
                        help="seconds a question stays open at most (default 10; 4 with --quick)")
    parser.add_argument("--reveal-pause", type=float,
                        help="seconds between a reveal and the next question (default 3; 1 "
                             "with --quick)")
    parser.add_argument("--arrive", type=float,
                        help="seconds over which the phones arrive (default 15; 5 with --quick)")
    parser.add_argument("--idle", type=float, default=8.0,
                        help="seconds the lobby idles, to measure the cost of polls (default 8)")
    parser.add_argument("--quick", action="store_true", help="a small, short room (a smoke test)")
    parser.add_argument("--freeze", action="store_true",
                        help="gc.freeze() in the server after the warm-up")
    parser.add_argument("--costs", type=int, default=0, metavar="N",
                        help="first, in a room of its own, N runs of each kind one at a time: "
                             "the server's CPU per poll and per page (default 0: skip)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=720.0,
                        help="hard limit for the whole run, seconds (default 720)")
    parser.add_argument("--request-timeout", type=float, default=120.0,
                        help="seconds a tab waits for a run before noting it as failed (it "
                             "goes on waiting before its next request; default 120)")
    args, rest = parser.parse_known_args()
    for name, full, quick in (("phones", 60, 20), ("questions", 20, 5),
                              ("window", 10.0, 4.0), ("reveal_pause", 3.0, 1.0),
                              ("arrive", 15.0, 5.0)):
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)
    if any(not a.startswith("--") or "." not in a for a in rest[::2]) or len(rest) % 2:
        parser.error(f"unknown arguments {rest}: server options go as --section.option value")
    if args.workers > 1 and (args.db != "postgresql" or args.tabs != "browser"):
        parser.error("--workers above 1 shares one database between processes: --db "
                     "postgresql, and --tabs browser (a websocket stays on its worker)")
    if args.phones < 1 or not 1 <= args.rooms <= 20 or not 1 <= args.questions <= 30 \
            or args.window <= 1 or args.stagger < 0 or args.timeout < 2 * REPORT_S:
        parser.error("--phones >= 1, --rooms 1..20, --questions 1..30, --window > 1, "
                     f"--stagger >= 0 and --timeout >= {2 * REPORT_S} please")

    t_start = time.monotonic()

    def out_of_time(_signum: int, _frame: object) -> None:
        raise OutOfTime(f"the overall --timeout of {args.timeout:.0f} s ran out")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(int(args.timeout) - REPORT_S)  # the load ends here at the latest
    print(f"rooms: {args.rooms} x {args.phones} phones x {args.questions} questions, window "
          f"{args.window:.0f} s, reveal pause {args.reveal_pause:.0f} s, rooms started "
          f"{args.stagger:g} s apart, db {args.db}, tabs {args.tabs}, app processes "
          f"{args.workers}{' behind HAProxy' if args.workers > 1 else ''}, server options "
          f"{' '.join(rest) or '(config.toml as is)'}"
          + (", gc.freeze() after the warm-up" if args.freeze else ""), flush=True)
    result: tuple[int, float, float] | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="coup-room-") as tmpdir, \
                database(args.db, Path(tmpdir)) as url:
            store = room_store(url)
            made = [new_room(store, args.questions, args.seed + i) for i in range(args.rooms)]
            for code, _host, claims in made:
                print(f"room {code}: {args.questions} questions ({claims} with a claim)",
                      flush=True)
            try:
                env, log = {"COUP_TRAINER_DB_URL": url}, Path(tmpdir) / "server.log"
                if args.workers > 1:
                    if args.freeze:
                        raise SystemExit("--freeze needs one process (--workers 1)")
                    starting = serve_workers(args.workers, rest, env=env, log=log)
                else:
                    starting = serve(rest, env=env, log=log,
                                     launcher=FREEZE_LAUNCHER if args.freeze else None)
                with starting as server:
                    result = run(args, server, store, made, t_start)
            finally:
                store.engine.dispose()
    except OutOfTime as e:
        print(f"stopped: {e}", flush=True)
    finally:
        signal.alarm(0)
    print(f"{time.monotonic() - t_start:.0f} s in all", flush=True)
    if result is None:
        print("lost nan participant_p95_s nan presenter_p95_s nan")
        sys.exit(1)
    lost, p95, s95 = result
    print(f"lost {lost} participant_p95_s {p95:.3f} presenter_p95_s {s95:.3f}")


if __name__ == "__main__":
    with suppress(KeyboardInterrupt):
        main()
