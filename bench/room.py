"""A classroom Room under load: a bounded loopback test through the real Streamlit server.

One app process (`streamlit run streamlit_app.py`, the repository's .streamlit/config.toml as
is, more server options passed through), one room of `--questions` questions (a "mixed"
drill of the base game, `Source(count=...)`, made with `RoomStore.create` on the database the
server uses), `--participants` phones and the presenter screen:

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
  waits `--reveal-pause` seconds (the class reads the reveal) before the next question.

How a tab is simulated (`--phones`, see bench/room_load.py):

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

    .venv/bin/python bench/room.py [--db sqlite|postgresql] [--phones browser|agent]
        [--participants 60] [--questions 20] [--window 10] [--quick] [--costs N]
        [--freeze] [--timeout 720] [--runner.postScriptGC false ...]

PostgreSQL: the URL in COUP_TRAINER_BENCH_PG_URL, else `scripts/test-postgres.sh start`; the
test runs in a database of its own made on that server and dropped at the end, and the server
is stopped at the end only if this run started it (another may be using one it found running).
`--freeze`: after the warm-up, `gc.freeze()` in the server (what the page could do once its
cached resources are loaded, so the collector stops walking them after every run).

Last line: `lost <n> participant_p95_s <x> presenter_p95_s <y>`.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from agentapi import Server, cpu_seconds, percentile, serve  # noqa: E402
from room_load import AgentTab, BrowserTab, Step, Tab  # noqa: E402

JOIN = "FormSubmitter:room_join_form-Join"
COUNT = re.compile(r"(\d+) of (\d+) answered")
OPTION = re.compile(r"^room_option_(\d+)_(\d+)$")
CLOSED = "Answers for that question are closed"
NOT_ANSWERED = "You did not answer this one"  # a click that landed after the reveal
ANSWER_IN = "Your answer is in"
PG_ENV = "COUP_TRAINER_BENCH_PG_URL"
PG_SCRIPT = ROOT / "scripts" / "test-postgres.sh"
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


# --------------------------------------------------------------------------- the database
@contextmanager
def database(kind: str, tmp: Path) -> Iterator[str]:
    """The URL the server and this script share: a new SQLite file, or a new PostgreSQL
    database (dropped at the end) on the server of COUP_TRAINER_BENCH_PG_URL or of
    scripts/test-postgres.sh."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp / 'room-bench.db'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    started_here = False
    url = os.environ.get(PG_ENV, "").strip()
    if not url:
        r = subprocess.run(["bash", str(PG_SCRIPT), "start"], capture_output=True, text=True,
                           timeout=300, cwd=ROOT)
        lines = r.stdout.strip().splitlines()
        if r.returncode != 0 or not lines:
            raise RuntimeError(f"scripts/test-postgres.sh start failed: {r.stderr.strip()}")
        url = lines[-1].strip()
        started_here = "started PostgreSQL" in r.stderr
    name = f"coup_room_bench_{os.getpid()}"
    admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield make_url(url).set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as c:
                c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()
        if started_here:
            subprocess.run(["bash", str(PG_SCRIPT), "stop"], capture_output=True, timeout=120,
                           cwd=ROOT)


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
    clicks: list[tuple[str, Step]] = field(default_factory=list)
    polls: list[Step] = field(default_factory=list)
    seen: list[tuple[float, int, int, int]] = field(default_factory=list)  # t, q, n, of
    question_at: dict[int, float] = field(default_factory=dict)  # time.time() in the DB
    asked: int = 0
    note: str = ""


def observe(pres: Tab, log: HostLog, q: int, step: Step) -> None:
    if not step.ok:
        return
    for text in pres.texts:
        if m := COUNT.search(text):
            log.seen.append((step.ended, q, int(m.group(1)), int(m.group(2))))
            return


def host_click(pres: Tab, log: HostLog, key: str, q: int) -> Step:
    """The host clicks `key` on the presenter screen; when the button is not there (a run
    that has not ended), the host waits for the screen and tries again, three times."""
    for _attempt in range(3):
        if key not in pres.keys:
            log.polls.append(pres.poll())
            continue
        step = pres.click(key)
        log.clicks.append((key, step))
        if step.ok:
            observe(pres, log, q, step)
            return step
    raise RuntimeError(f"the host could not click {key}: the presenter shows "
                       f"{sorted(pres.keys)}")


def run_host(pres: Tab, rooms: Any, code: str, shared: Shared, questions: int,
             reveal_pause: float, soft_deadline: float, log: HostLog) -> None:
    for q in range(questions):
        if time.monotonic() > soft_deadline:
            log.note = f"stopped after {q} questions: the overall --timeout is near"
            break
        host_click(pres, log, "room_start" if q == 0 else "room_next", q)
        shared.opened[q] = time.monotonic()
        at = rooms.room(code).question_at
        log.question_at[q] = at.timestamp() if at else time.time()
        log.asked = q + 1
        closes = shared.opened[q] + shared.window
        interval = pres.poll_interval or PRESENTER_POLL_S
        next_poll = time.monotonic() + interval
        while time.monotonic() < min(closes, soft_deadline + 30):
            last = [n >= of for _t, qq, n, of in log.seen[-1:] if qq == q]
            if last and last[0]:
                break  # the screen shows everyone answered
            time.sleep(max(0.0, min(next_poll, closes) - time.monotonic()))
            if time.monotonic() >= next_poll:
                step = pres.poll()
                log.polls.append(step)
                observe(pres, log, q, step)
                interval = pres.poll_interval or interval
                next_poll = max(next_poll + interval, time.monotonic())
        host_click(pres, log, "room_reveal", q)
        time.sleep(reveal_pause)
    if log.asked:
        host_click(pres, log, "room_next", log.asked - 1)  # the last: "See the results"


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
    its own (one phone, the presenter) before the load: what each poll and redraw costs."""
    pres = BrowserTab(server.base, "room", {"code": code, "host": host}, timeout=timeout)
    phone = BrowserTab(server.base, "room", {"code": code}, timeout=timeout)
    rows: list[tuple[str, float, float]] = []

    def measure(label: str, step: Any) -> None:
        step()  # a first run of this kind, not counted
        c0 = cpu_seconds(server.pid)
        done = [step() for _ in range(runs)]
        cpu = cpu_seconds(server.pid) - c0
        if not all(d.ok for d in done):
            raise RuntimeError(f"--costs: {label}: {next(d.error for d in done if not d.ok)}")
        rows.append((label, 1000 * cpu / runs,
                     1000 * percentile([d.seconds for d in done], 0.5)))

    try:
        pres.open()
        phone.open()
        phone.click(JOIN)
        measure("phone poll, nothing changed (its fragment)", phone.poll)
        measure("phone page, lobby", phone.rerun)
        pres.click("room_start")
        measure("presenter live count (its fragment)", pres.poll)
        measure("presenter page, question open", pres.rerun)
        phone.rerun()
        measure("phone page, question open", phone.rerun)
        option = sorted(k for k in phone.keys if k.startswith("room_option_0_"))[0]
        phone.click(option)
        measure("phone page, answered", phone.rerun)
        pres.click("room_reveal")
        measure("presenter page, revealed", pres.rerun)
        measure("phone page, revealed (feedback)", phone.rerun)
        while rooms.room(code).status != "finished":
            room = rooms.room(code)
            (rooms.reveal if room.status == "question" else rooms.next)(code, host)
        measure("presenter page, finished", pres.rerun)
        measure("phone page, finished (results)", phone.rerun)
    finally:
        pres.close()
        phone.close()
    print(f"one run at a time ({runs} of each, server CPU per run and latency p50):")
    for label, cpu_ms, p50_ms in rows:
        print(f"  {label:<46}{cpu_ms:7.1f} ms CPU {p50_ms:7.1f} ms", flush=True)


# ------------------------------------------------------------------------------- the run
def make_tab(kind: str, base: str, query: dict[str, str], interval: float,
             timeout: float) -> Tab:
    if kind == "browser":
        return BrowserTab(base, "room", query, timeout=timeout)
    return AgentTab(base, "room", query, timeout=timeout, interval=interval)


def run(args: argparse.Namespace, server: Server, rooms: Any, code: str, host: str,
        t_start: float) -> tuple[int, float, float]:
    p, n = args.participants, args.questions
    deadline = t_start + args.timeout - REPORT_S
    soft = deadline - 60  # no new question after this
    base = server.base
    print(f"server pid {server.pid} at {base}", flush=True)

    # warm-up: the presenter screen (bank, grades, lessons), the join page
    pres = make_tab(args.phones, base, {"code": code, "host": host}, PRESENTER_POLL_S,
                    args.request_timeout)
    t = pres.open()
    if not t.ok:
        raise RuntimeError(f"the presenter screen did not open: {t.error}")
    warm = make_tab(args.phones, base, {"code": code}, PHONE_POLL_S, args.request_timeout)
    w = warm.open()
    warm.close()
    print(f"warm-up: presenter screen {t.seconds:.2f} s, join page {w.seconds:.2f} s "
          f"(first runs, not counted)", flush=True)
    if args.freeze:
        server.signal(signal.SIGUSR1)
        time.sleep(1.0)
        print("  " + next((ln for ln in server.log.read_text().splitlines()
                           if "gc.freeze()" in ln), "gc.freeze() not reported!"), flush=True)

    if args.costs:
        other, other_host, _claims = new_room(rooms, args.questions, args.seed + 1)
        costs(server, rooms, other, other_host, args.costs, args.request_timeout)
    pulse = time_calls(lambda: rooms.pulse(code), 200)
    tally = time_calls(lambda: rooms.tally(code, host, 0), 200)
    print(f"in this process, on the same database: RoomStore.pulse p50 {pulse[0]:.2f} ms "
          f"p95 {pulse[1]:.2f} ms; RoomStore.tally p50 {tally[0]:.2f} ms p95 {tally[1]:.2f} ms",
          flush=True)

    shared = Shared(window=args.window)
    rng = random.Random(args.seed)
    phones = [Phone(i, make_tab(args.phones, base, {"code": code}, PHONE_POLL_S,
                                args.request_timeout),
                    [rng.uniform(0.5, 0.9 * args.window) for _ in range(n)])
              for i in range(p)]
    cpu0, rss0, wall0 = cpu_seconds(server.pid), server.rss_mib(), time.monotonic()
    own0, busy0 = sum(os.times()[:2]), machine_busy()
    t0 = time.monotonic()
    threads = [threading.Thread(target=run_phone, daemon=True,
                                args=(ph, shared, code, t0 + args.arrive * i / p, soft + 30,
                                      args.seed * 1000 + i))
               for i, ph in enumerate(phones)]
    for th in threads:
        th.start()
    log = HostLog()
    try:
        # the lobby: wait for everyone, then measure the room idling (polls only)
        while shared.joined + sum(bool(ph.error) for ph in phones) < p:
            if time.monotonic() > t0 + args.arrive + 120:
                break
            time.sleep(0.2)
            if time.monotonic() > soft:
                raise OutOfTime("the phones had not joined before the --timeout")
        joined_s = time.monotonic() - t0
        time.sleep(2.0)
        idle0, c0 = time.time(), cpu_seconds(server.pid)
        interval = pres.poll_interval or PRESENTER_POLL_S
        while time.time() < idle0 + args.idle:
            time.sleep(interval)
            log.polls.append(pres.poll())
        idle1, c1 = time.time(), cpu_seconds(server.pid)
        idle_steps = [s for ph in phones for s in list(ph.tab.steps)
                      if idle0 <= s.started < idle1] + \
                     [s for s in log.polls if idle0 <= s.started < idle1]
        idle_polls = [s.seconds for s in idle_steps if s.label == "poll"]
        print(f"joined: {shared.joined} of {p} in {joined_s:.1f} s (arrivals spread over "
              f"{args.arrive:.0f} s)", flush=True)
        kind = "fragment-only runs" if args.phones == "browser" else "full page reruns"
        print(f"lobby, idle for {idle1 - idle0:.1f} s: {len(idle_steps)} polls "
              f"({len(idle_steps) / (idle1 - idle0):.1f}/s, {kind}); server CPU "
              f"{1000 * (c1 - c0) / max(1, len(idle_steps)):.1f} ms per poll, "
              f"{100 * (c1 - c0) / (idle1 - idle0):.0f}% of a core; poll latency "
              f"{fmt(idle_polls)}", flush=True)

        run_host(pres, rooms, code, shared, n, args.reveal_pause, soft, log)
        time.sleep(PHONE_POLL_S + 2.0)  # the phones see the results
    except OutOfTime as e:
        log.note = f"stopped: {e}; what was measured until then follows"
    finally:
        shared.done.set()
        for th in threads:
            th.join(max(0.0, min(5.0, deadline - time.monotonic())))
        pres.close()
    signal.alarm(REPORT_S)  # the report's own time; then the server is stopped regardless
    wall = time.monotonic() - wall0
    cpu, rss1 = cpu_seconds(server.pid) - cpu0, server.rss_mib()
    own = sum(os.times()[:2]) - own0
    others = machine_busy() - busy0 - cpu - own
    return report(args, phones, log, rooms, code, host, wall, cpu, rss0, rss1, own, others)


def report(args: argparse.Namespace, phones: list[Phone], log: HostLog, rooms: Any, code: str,
           host: str, wall: float, cpu: float, rss0: float, rss1: float, own: float,
           others: float) -> tuple[int, float, float]:
    stored = stored_answers(rooms, code)
    expected = {(ph.seat, q) for ph in phones if ph.seat for q in ph.sent}
    lost = len(expected - stored)
    extra = stored - expected
    failed_in_db = sum((ph.seat, q) in stored for ph in phones for q in ph.failed)
    sent = sum(len(ph.sent) for ph in phones)
    print(f"questions asked: {log.asked} of {args.questions}. {log.note}".rstrip(), flush=True)
    n_conf = sum(len(ph.confirmed) for ph in phones)
    n_refused = sum(len(ph.refused) for ph in phones)
    n_failed = sum(len(ph.failed) for ph in phones)
    n_skipped = sum(len(ph.skipped) for ph in phones)
    print(f"answers: {sent} sent and accepted by the page ({n_conf} showed 'your answer is "
          f"in'), {n_refused} refused (the page said they did not count: closed), {n_failed} "
          f"clicks that failed ({failed_in_db} of them stored), {n_skipped} let go (seen "
          f"after the window); rows in room_answers: {len(stored)}; lost {lost}, rows no "
          f"phone counted {len(extra) - failed_in_db}", flush=True)
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
    participant = clicks + sliders + refreshes
    print(f"phone answer clicks (s):     {fmt(clicks)}")
    print(f"phone slider moves (s):      {fmt(sliders)}")
    print(f"phone page refreshes (s):    {fmt(refreshes)}  (a poll that ran the whole page)")
    if args.phones == "browser":
        print(f"phone polls, fragment only:  {fmt(fragment)}  (the real 2 s fragment)")
    else:
        print("phone polls: every one is a full page rerun here (agent API), heavier than the "
              "real page's fragment")
    print(f"phone open + join (s):       {fmt(joins)}")
    print(f"participant interactions:    {fmt(participant)}  {errors_line(steps)}")
    shows = [ph.seen[q] - log.question_at[q] for ph in phones for q in ph.seen
             if q in log.question_at]
    print(f"a phone shows a new question after the host's click (s): {fmt(shows)}")

    delays, unseen = presenter_delays(log, rooms.answers(code, host))
    print(f"presenter count polls (s):   {fmt([s.seconds for s in log.polls if s.ok])}  "
          f"{errors_line(log.polls)}")
    for key in ("room_start", "room_reveal", "room_next"):
        print(f"host clicks {key:<12}(s): {fmt([s.seconds for k, s in log.clicks if k == key])}")
    print(f"presenter update after an answer (s): {fmt(delays)}"
          + (f"; {unseen} answers never shown before the reveal's count" if unseen else ""))
    runs = len(steps) + len(log.polls) + len(log.clicks)
    print(f"server: {runs} requests in {wall:.0f} s ({runs / wall:.1f}/s), CPU {cpu:.1f} s "
          f"({100 * cpu / wall:.0f}% of one core, {1000 * cpu / max(1, runs):.0f} ms per "
          f"request), memory {rss0:.0f} -> {rss1:.0f} MiB; this script's CPU {own:.1f} s")
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores; other processes used {others:.0f} CPU s during the run "
          f"({100 * others / wall / cores:.0f}% of the machine): the server competed with "
          f"them" if others > 0.1 * wall else f"machine: {cores} cores, otherwise idle "
          f"({others:.0f} CPU s used by other processes)")
    if args.phones == "browser":
        print("model: phones and the presenter speak the browser's websocket protocol; each "
              "poll is the page's own fragment on its own timer (2 s phone, 1 s presenter), "
              "so the server does what it does for real browsers.")
    else:
        print("model: agent-API sessions; the agent API cannot run a fragment's timer, so each "
              "phone reruns its whole page every 2 s and the presenter every 1 s while a "
              "question is open: heavier than the real fragments, which only read the room's "
              "version (phones) or the count (presenter).")
    print("presenter update = end of the first presenter run (1 s poll or host click) whose "
          "'N of M answered' includes the answer, minus the answer's answered_at.")
    p_p95 = percentile(participant, 0.95)
    s_p95 = percentile(delays, 0.95)
    return lost, p_p95, s_p95


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="Other --section.option value pairs go to `streamlit run` unchanged.")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--phones", choices=["browser", "agent"], default="browser",
                        help="how a tab is simulated (default browser; see the docstring)")
    parser.add_argument("--participants", type=int, help="phones (default 60; 20 with --quick)")
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
    for name, full, quick in (("participants", 60, 20), ("questions", 20, 5),
                              ("window", 10.0, 4.0), ("reveal_pause", 3.0, 1.0),
                              ("arrive", 15.0, 5.0)):
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)
    if any(not a.startswith("--") or "." not in a for a in rest[::2]) or len(rest) % 2:
        parser.error(f"unknown arguments {rest}: server options go as --section.option value")
    if args.participants < 1 or not 1 <= args.questions <= 30 or args.window <= 1 \
            or args.timeout < 2 * REPORT_S:
        parser.error("--participants >= 1, --questions 1..30, --window > 1 and --timeout >= "
                     f"{2 * REPORT_S} please")

    t_start = time.monotonic()

    def out_of_time(_signum: int, _frame: object) -> None:
        raise OutOfTime(f"the overall --timeout of {args.timeout:.0f} s ran out")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(int(args.timeout) - REPORT_S)  # the load ends here at the latest
    print(f"room: {args.participants} participants x {args.questions} questions, window "
          f"{args.window:.0f} s, reveal pause {args.reveal_pause:.0f} s, db {args.db}, phones "
          f"{args.phones}, server options {' '.join(rest) or '(config.toml as is)'}"
          + (", gc.freeze() after the warm-up" if args.freeze else ""), flush=True)
    result: tuple[int, float, float] | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="coup-room-") as tmpdir, \
                database(args.db, Path(tmpdir)) as url:
            rooms = room_store(url)
            code, host, claims = new_room(rooms, args.questions, args.seed)
            print(f"room {code}: {args.questions} questions ({claims} with a claim)",
                  flush=True)
            try:
                with serve(rest, env={"COUP_TRAINER_DB_URL": url},
                           log=Path(tmpdir) / "server.log",
                           launcher=FREEZE_LAUNCHER if args.freeze else None) as server:
                    result = run(args, server, rooms, code, host, t_start)
            finally:
                rooms.engine.dispose()
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
