"""`serve`: the app from one process, or from several behind HAProxy, started by one command.

    python -m trainer serve                         # one process, as `make run` starts it
    python -m trainer serve --workers 2 --lan       # two behind HAProxy, open to the network

Why several processes: one Streamlit process runs one Python thread at a time, so it uses about
one core however many tabs it serves (docs/serving.md); a school's rooms need more. Why HAProxy
in front, sticky by a cookie it sets: a browser tab's Streamlit session lives in the memory of
the process that opened it, over a WebSocket, so every request of that browser must reach the
same process; and behind a school's Wi-Fi every phone may share one address, so sticking by
address would send a whole class to one process. Why PostgreSQL: rooms, seats, answers and
learners live only in the database, so every process must share one that takes writes from
several processes at once.

What `--workers N` (N > 1) does, in order: checks that HAProxy is installed and that the
database is PostgreSQL; brings the database to the newest schema once, here (the workers then
find it done instead of all upgrading at the same moment); starts N `streamlit run` workers on
free loopback ports (never on the network: only HAProxy is reached from outside), all with one
cookie secret, random per launch and passed in the environment (`ps` shows every argument);
waits until each answers `/_stcore/health`; writes HAProxy's configuration into the run folder
and starts it on the public address; and says where the app is. With `--workers 1` it runs the
one `streamlit run` command of `make run` (the same options), supervised the same way.

A worker or HAProxy that exits by itself stops everything, with a non-zero status and the
name of its log: half of a class would otherwise lose its session and be sent to the other
workers without anyone being told, and a worker that died once (out of memory, say) would
die again under the same load. Restarting belongs to whatever supervises the command
(systemd's `Restart=on-failure`). Ctrl-C, SIGTERM and SIGHUP stop HAProxy first (no new
requests) and then the workers: SIGTERM to each process group (a worker's own helper processes
included), SIGKILL to whatever remains after `GRACE` seconds.

For scripts (the room bench sums the workers' CPU): once everything answers, one line on
stderr, `serve: workers <pid> <pid> ... haproxy <pid> url http://127.0.0.1:PORT` (`haproxy <pid>`
only with more than one worker), and the same as JSON in `<run dir>/serve.json`, removed when
the command stops.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO, Any

from trainer.paths import CHECKOUT

FAILED = 1  # a worker or HAProxy failed to start or stopped by itself
REFUSED = 2  # nothing was started: the options, the database or HAProxy are not right

LOOPBACK = "127.0.0.1"
EVERYWHERE = "0.0.0.0"
COOKIE = "COUP_SERVER"
WORKER_HEADER = "X-Coup-Worker"
# Set in every worker's environment, read by trainer.ui.links: the address HAProxy listens on,
# so the Room page tells the host whether phones can join (the worker itself is on loopback).
PUBLIC_ADDRESS_ENV = "COUP_TRAINER_PUBLIC_ADDRESS"
COOKIE_SECRET_ENV = "STREAMLIT_SERVER_COOKIE_SECRET"
DB_ENV = "COUP_TRAINER_DB_URL"  # trainer.learners.storage.ENV_VAR, without importing SQLAlchemy
HEALTH = "/_stcore/health"
START_TIMEOUT = 180.0  # seconds for every worker to answer (N imports of the app at once)
HAPROXY_TIMEOUT = 15.0
GRACE = 5.0  # seconds between SIGTERM and SIGKILL when stopping
POLL = 0.2
# Where Debian puts haproxy: /usr/sbin, which is not on an ordinary user's PATH.
HAPROXY_DIRS = ("/usr/sbin", "/usr/local/sbin", "/sbin")
HAPROXY_MISSING = ("HAProxy is not installed, and --workers above 1 needs it: `make serve` "
                   "installs Debian's package haproxy (or: apt-get install haproxy)")
DOCS = "docs/rooms.md, 'Several processes: PostgreSQL behind a load balancer'"


class _Refused(Exception):
    """A problem found before anything was started, worded for the person at the terminal."""


class _Failed(Exception):
    """A process failed after the start began, worded for the person at the terminal."""


# --- the command line ----------------------------------------------------------------------

def register(commands: Any) -> None:
    p = commands.add_parser(
        "serve", help="serve the app: one process, or several behind HAProxy (docs/rooms.md)",
        description="Serve the app from one process, as `make run` does, or from several "
                    "behind HAProxy with sticky sessions, sharing one PostgreSQL database "
                    "(docs/rooms.md, 'Several processes'). Options after `--` go to every "
                    "`streamlit run`, e.g. `-- --server.enableAgentApi true`.")
    p.add_argument("--workers", type=_positive, default=1, metavar="N",
                   help="app processes (default 1; more needs PostgreSQL and HAProxy; at most "
                        "one per core helps)")
    p.add_argument("--port", type=_port, default=8501, help="the port browsers use (8501)")
    p.add_argument("--lan", action="store_true",
                   help="listen on every network interface (0.0.0.0), so phones on the same "
                        "network can join; without it, this computer only (127.0.0.1)")
    p.add_argument("--db-url", default=None, metavar="URL",
                   help="the database, a SQLAlchemy URL (default: the app's own, [db] url in "
                        ".streamlit/secrets.toml, else COUP_TRAINER_DB_URL, else the SQLite "
                        "file); prefer COUP_TRAINER_DB_URL for a URL with a password, since "
                        "every command's arguments are visible to other users in `ps`")
    p.add_argument("--run-dir", type=Path, default=None, metavar="DIR",
                   help="where HAProxy's configuration, the logs and serve.json go (default "
                        ".run/serve-PORT in the checkout)")
    p.add_argument("streamlit_args", nargs=argparse.REMAINDER, metavar="-- OPTION ...",
                   help="more `streamlit run` options for every worker")
    p.set_defaults(func=run)


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {n}")
    return n


def _port(text: str) -> int:
    n = int(text)
    if not 1 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {n}")
    return n


def run(args: argparse.Namespace) -> int:
    extra = list(args.streamlit_args)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    try:
        plan = make_plan(workers=args.workers, port=args.port, lan=args.lan,
                         db_url=args.db_url, run_dir=args.run_dir, extra=extra)
    except _Refused as e:
        print(f"error: {e}", file=sys.stderr, flush=True)
        return REFUSED
    return Launcher(plan).run()


# --- what to start (plain data, tested without starting anything) ---------------------------

@dataclass(frozen=True)
class Backend:
    """One worker as HAProxy sees it: its name (also its cookie value) and its loopback port."""

    name: str
    port: int


def haproxy_config(backends: Sequence[Backend], *, address: str, port: int) -> str:
    """HAProxy's configuration: `address:port` in front of `backends`, sticky by a cookie.

    - `balance roundrobin`: a browser without the cookie (a phone that has just scanned the
      room's code) goes to the next worker in turn, so a class arriving at once is split
      evenly and predictably. `leastconn` would count open connections, and an open tab's
      WebSocket costs nothing while it waits; what costs is the clicks, which no balancer
      can foresee.
    - `cookie COUP_SERVER insert indirect nocache httponly`: HAProxy names the worker in a
      cookie of its own, sent once (`indirect`: not again while the browser sends it back),
      never cached by a proxy (`nocache`), out of page scripts' reach (`httponly`). Not by
      source address: a school's network may show every phone as one address.
    - `timeout tunnel 1h`: a tab's WebSocket is one long connection; an idle one is closed
      after an hour (the page then reconnects). `timeout client/server 60s` bound the plain
      HTTP requests (the agent API's longest wait is 30 s by default).
    - `option httpchk GET /_stcore/health`, every 2 s, down after 5 failures in a row: a busy
      worker answers late but is not taken out, since taking it out sends its tabs elsewhere
      and they lose their session. `option redispatch`: a browser whose worker is down is
      sent to another (a new session) rather than to an error.
    - `maxconn 4096` in all (one connection per open tab, and a few more while a page
      loads), and none per worker: a worker's limit would queue new tabs behind the
      WebSockets of open ones, which never finish.
    - `X-Coup-Worker`: the name of the worker that answered, on each response. It tells no
      more than the cookie's value (w1, w2, ...), and lets a test or a bench check where a
      request went.
    """
    if not backends:
        raise ValueError("HAProxy needs at least one worker")
    servers = "\n".join(f"    server {b.name} {LOOPBACK}:{b.port} cookie {b.name}"
                        for b in backends)
    return f"""\
# Written by `python -m trainer serve` at each start; edits are lost (see trainer/cli/serve.py).
global
    maxconn 4096
    log stderr format raw local0 notice

defaults
    mode http
    log global
    option forwardfor
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    timeout http-keep-alive 10s
    timeout queue 30s
    timeout tunnel 1h

frontend coup
    bind {address}:{port}
    default_backend workers

backend workers
    balance roundrobin
    cookie {COOKIE} insert indirect nocache httponly
    option httpchk GET {HEALTH}
    http-check expect string ok
    option redispatch
    default-server check inter 2s fall 5 rise 2
    http-response set-header {WORKER_HEADER} %s
{servers}
"""


def streamlit_command(port: int, address: str, extra: Sequence[str] = (),
                      python: str = sys.executable) -> list[str]:
    """The `streamlit run` command of `make run` (the same options), for this Python."""
    return [python, "-m", "streamlit", "run", "streamlit_app.py", "--server.port", str(port),
            "--server.address", address, "--browser.gatherUsageStats", "false", *extra]


def database_problem(url: str | None, workers: int) -> str | None:
    """Why `workers` processes cannot share the database at `url` (None: the app's default
    SQLite file), or None when they can: several need PostgreSQL."""
    if workers == 1:
        return None
    if url is None:
        got = "the app's database is the default SQLite file"
    else:
        from trainer.learners.storage import mask

        backend = url.split(":", 1)[0].split("+", 1)[0].lower()
        if backend in ("postgresql", "postgres"):
            return None
        got = f"the database asked for is {mask(url)}"
    return (f"--workers {workers} needs a PostgreSQL database that every worker shares, and "
            f"{got}: set COUP_TRAINER_DB_URL (or --db-url, or make serve DB=...) to "
            f"postgresql+psycopg://user:password@host/database; {DOCS}, says how to make one")


@dataclass(frozen=True)
class Process:
    """A process to start: its name, command, extra environment and log (None: inherit the
    terminal's output)."""

    name: str
    command: list[str]
    env: dict[str, str] = field(default_factory=dict)
    log: Path | None = None
    health: str | None = None  # a URL that answers "ok" once it serves


@dataclass(frozen=True)
class Plan:
    """Everything one `serve` starts, in order."""

    workers: tuple[Process, ...]
    haproxy: Process | None
    config: str | None
    url: str  # where a script on this computer reaches the app: http://127.0.0.1:PORT
    run_dir: Path
    cwd: Path
    db_url: str | None = None  # to upgrade before starting (several workers only)
    shown: str = ""  # the line said once it serves


def make_plan(*, workers: int, port: int, lan: bool, db_url: str | None,
              run_dir: Path | None, extra: Sequence[str] = (),
              environ: Mapping[str, str] = os.environ, haproxy: str | None = None,
              checkout: Path | None = CHECKOUT) -> Plan:
    """What to start, or `_Refused` with what is wrong; nothing is started."""
    if checkout is None or not (checkout / "streamlit_app.py").is_file():
        raise _Refused("`serve` runs the app from a checkout of Coup Trainer (its "
                       "streamlit_app.py and pages/), and none was found beside this package")
    address = EVERYWHERE if lan else LOOPBACK
    url = f"http://{LOOPBACK}:{port}"
    where = (f"Coup Trainer is on port {port} of every network interface (phones on the same "
             f"network open http://<this computer's address>:{port})" if lan else
             f"Coup Trainer is at http://localhost:{port} (this computer only)")
    run_dir = (run_dir if run_dir is not None else checkout / ".run" / f"serve-{port}").resolve()
    resolved, from_secrets = _database(db_url, checkout, environ)
    db_env = {DB_ENV: db_url} if db_url is not None else {}
    if from_secrets is not None and db_url is not None and from_secrets != db_url:
        raise _Refused("the app reads [db] url in .streamlit/secrets.toml before "
                       "COUP_TRAINER_DB_URL, and it names another database: remove it there, "
                       "or serve that database")
    problem = database_problem(resolved, workers)
    if problem is not None:
        raise _Refused(problem)
    _check_port_free(address, port)
    if workers == 1:
        worker = Process("w1", streamlit_command(port, address, extra), db_env,
                         health=f"http://{LOOPBACK}:{port}{HEALTH}")
        return Plan((worker,), None, None, url, run_dir, checkout,
                    shown=f"{where}, served by one process. Ctrl-C stops it.")
    haproxy = haproxy or find_haproxy()
    if haproxy is None:
        raise _Refused(HAPROXY_MISSING)
    env = {**db_env, COOKIE_SECRET_ENV: secrets.token_hex(32), PUBLIC_ADDRESS_ENV: address,
           "STREAMLIT_SERVER_HEADLESS": "true"}
    backends = [Backend(f"w{i}", p) for i, p in enumerate(free_ports(workers), start=1)]
    procs = tuple(Process(b.name, streamlit_command(b.port, LOOPBACK, extra), env,
                          run_dir / f"{b.name}.log",
                          f"http://{LOOPBACK}:{b.port}{HEALTH}") for b in backends)
    config = haproxy_config(backends, address=address, port=port)
    proxy = Process("haproxy", [haproxy, "-f", str(run_dir / "haproxy.cfg"), "-db"],
                    log=run_dir / "haproxy.log", health=f"http://{LOOPBACK}:{port}{HEALTH}")
    from trainer.learners.storage import mask

    assert resolved is not None  # database_problem refused the default
    return Plan(procs, proxy, config, url, run_dir, checkout, db_url=resolved,
                shown=f"{where}, served by {workers} workers behind HAProxy on the database "
                      f"{mask(resolved)}; their logs and HAProxy's configuration are in "
                      f"{run_dir}. Ctrl-C stops it.")


def _database(db_url: str | None, checkout: Path,
              environ: Mapping[str, str]) -> tuple[str | None, str | None]:
    """The database the workers will use (None: the default SQLite file), and the URL of the
    app's secrets file if it names one (it wins over the environment in the app)."""
    from trainer.learners.storage import (
        ENV_VAR,
        SECRETS_SETTING,
        database_setting,
        secrets_files,
    )

    assert ENV_VAR == DB_ENV
    found = secrets_files([Path.home() / ".streamlit" / "secrets.toml",
                           checkout / ".streamlit" / "secrets.toml"])
    env = dict(environ)
    if db_url is not None:
        env[DB_ENV] = db_url
    url, setting = database_setting(found, env)  # the app's own order
    if setting == SECRETS_SETTING:
        return url, url
    return (url if setting == ENV_VAR else None), None


def find_haproxy(path: str | None = None, dirs: Sequence[str] = HAPROXY_DIRS) -> str | None:
    """The haproxy program: on PATH, else where Debian installs it."""
    found = shutil.which("haproxy", path=path)
    if found:
        return found
    for d in dirs:
        candidate = Path(d) / "haproxy"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def free_ports(n: int) -> list[int]:
    """`n` distinct TCP ports free on loopback at the time of asking."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            socks.append(s)
            s.bind((LOOPBACK, 0))
        return [int(s.getsockname()[1]) for s in socks]
    finally:
        for s in socks:
            s.close()


def _check_port_free(address: str, port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers bind
        try:
            s.bind((address, port))
        except OSError as e:
            raise _Refused(f"port {port} on {address} cannot be used ({e.strerror}): another "
                           "server has it? Choose another with --port") from None


def _upgrade(url: str) -> None:
    """The database at the newest schema, once, before the workers open it."""
    from sqlalchemy.exc import SQLAlchemyError

    from trainer.database.migrate import MigrationError, upgrade
    from trainer.learners.storage import ADVICE, StorageError, driver_reason, engine_for, mask

    try:
        engine, _ = engine_for(url, "the database URL")
    except StorageError as e:
        raise _Refused(str(e).removesuffix(" " + ADVICE)) from None
    try:
        upgrade(engine)
    except SQLAlchemyError as e:
        raise _Refused(f"could not reach the database at {mask(url)}: "
                       f"{driver_reason(e)}") from None
    except MigrationError as e:
        raise _Refused(f"could not bring the database at {mask(url)} up to date: {e}") from None
    finally:
        engine.dispose()


# --- starting and stopping ------------------------------------------------------------------

# prctl, looked up here: a child between fork and exec must not import anything.
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In a child, before it runs: SIGTERM when the launcher dies, even by SIGKILL (Linux), so
    that a launcher killed outright leaves no worker or HAProxy behind."""
    if _LIBC is not None:
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class Launcher:
    """Starts a plan's processes, watches them, and stops them all."""

    def __init__(self, plan: Plan, out: IO[str] | None = None, err: IO[str] | None = None,
                 grace: float = GRACE, start_timeout: float = START_TIMEOUT,
                 upgrade: Callable[[str], None] = _upgrade) -> None:
        self.plan = plan
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.grace = grace
        self.start_timeout = start_timeout
        self.upgrade = upgrade
        self.started: list[tuple[Process, subprocess.Popen[bytes]]] = []
        self.stop_asked: int | None = None  # the signal that asked

    def say(self, line: str, err: bool = False) -> None:
        print(line, file=self.err if err else self.out, flush=True)

    def run(self) -> int:
        # SIGHUP only when not ignored: under `nohup` a closed terminal must not stop it.
        asked = [signal.SIGINT, signal.SIGTERM] + \
            ([signal.SIGHUP] if signal.getsignal(signal.SIGHUP) != signal.SIG_IGN else [])
        old = {s: signal.signal(s, self._ask_stop) for s in asked}
        try:
            return self._run()
        except _Refused as e:
            self.say(f"error: {e}", err=True)
            return REFUSED
        except _Failed as e:
            self.say(f"error: {e}; stopping", err=True)
            return FAILED
        finally:
            if self.started and self.stop_asked is not None:
                self.say(f"Stopping ({signal.Signals(self.stop_asked).name}).")
            self.stop_all()
            with suppress(OSError):
                (self.plan.run_dir / "serve.json").unlink(missing_ok=True)
            for s, handler in old.items():
                signal.signal(s, handler)

    def _ask_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stop_asked = signum

    def _run(self) -> int:
        plan = self.plan
        if plan.workers[0].log is not None or plan.config is not None:
            plan.run_dir.mkdir(parents=True, exist_ok=True)
        if plan.db_url is not None:
            self.upgrade(plan.db_url)
        if self.stop_asked is not None:  # Ctrl-C while the database was upgraded
            return 0
        for worker in plan.workers:
            self._start(worker)
        if not self._wait_healthy(list(self.started), self.start_timeout):
            return 0
        if plan.haproxy is not None:
            assert plan.config is not None
            (plan.run_dir / "haproxy.cfg").write_text(plan.config, encoding="utf-8")
            self._start(plan.haproxy)
            if not self._wait_healthy(self.started[-1:], HAPROXY_TIMEOUT):
                return 0
        self._announce()
        while self.stop_asked is None:
            for proc, popen in self.started:
                status = popen.poll()
                if status is not None:
                    raise _Failed(self._exited(proc, status))
            time.sleep(POLL)
        return 0

    def _start(self, proc: Process) -> None:
        env = {**os.environ, **proc.env}
        out: IO[bytes] | None = None
        try:
            if proc.log is not None:  # kept across starts: a crash's log outlives a restart
                out = open(proc.log, "ab")  # noqa: SIM115  (the child keeps it; closed below)
                out.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} python -m trainer serve "
                          f"starts {proc.name}\n".encode())
                out.flush()
            popen = subprocess.Popen(proc.command, cwd=self.plan.cwd, env=env,
                                     stdin=subprocess.DEVNULL, stdout=out,
                                     stderr=subprocess.STDOUT if out else None,
                                     start_new_session=True, preexec_fn=_die_with_parent)
        except OSError as e:
            raise _Failed(f"{proc.name} could not be started: {e}") from None
        finally:
            if out is not None:
                out.close()
        self.started.append((proc, popen))

    def _wait_healthy(self, procs: list[tuple[Process, subprocess.Popen[bytes]]],
                      timeout: float) -> bool:
        """Until each of `procs` answers its health URL: True, or False when a stop was
        asked meanwhile; `_Failed` when one exits or `timeout` passes."""
        waiting = [(p, popen) for p, popen in procs if p.health is not None]
        deadline = time.monotonic() + timeout
        while waiting:
            if self.stop_asked is not None:
                return False
            for p, popen in list(waiting):
                status = popen.poll()
                if status is not None:
                    raise _Failed(self._exited(p, status))
                assert p.health is not None
                if _answers(p.health):
                    waiting.remove((p, popen))
            if waiting and time.monotonic() > deadline:
                names = ", ".join(p.name for p, _ in waiting)
                raise _Failed(f"{names} did not answer {HEALTH} within {timeout:.0f} s"
                              + self._log_hint(waiting[0][0]))
            if waiting:
                time.sleep(POLL)
        return True

    def _exited(self, proc: Process, status: int) -> str:
        how = f"signal {-status}" if status < 0 else f"status {status}"
        return f"{proc.name} (pid {self._pid(proc)}) exited with {how}" + self._log_hint(proc)

    def _pid(self, proc: Process) -> int | None:
        return next((popen.pid for p, popen in self.started if p is proc), None)

    def _log_hint(self, proc: Process) -> str:
        return f" (its log: {proc.log})" if proc.log is not None else ""

    def _announce(self) -> None:
        plan = self.plan
        workers = [popen.pid for p, popen in self.started if p in plan.workers]
        proxy = [popen.pid for p, popen in self.started if p is plan.haproxy]
        self.say(plan.shown)
        state = {"url": plan.url, "launcher": os.getpid(), "workers": workers,
                 "haproxy": proxy[0] if proxy else None}
        if plan.haproxy is not None:
            path = plan.run_dir / "serve.json"
            path.with_suffix(".tmp").write_text(json.dumps(state), encoding="utf-8")
            path.with_suffix(".tmp").replace(path)
        line = "serve: workers " + " ".join(map(str, workers))
        if proxy:
            line += f" haproxy {proxy[0]}"
        self.say(f"{line} url {plan.url}", err=True)

    def stop_all(self) -> None:
        """HAProxy first, then the workers: SIGTERM to each process group, SIGKILL to what
        remains after the grace period; every child reaped."""
        order = sorted(self.started, key=lambda pp: pp[0] is not self.plan.haproxy)
        for _, popen in order:
            if popen.poll() is None:
                _signal_group(popen.pid, signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for _, popen in order:
            with suppress(subprocess.TimeoutExpired):
                popen.wait(max(0.0, deadline - time.monotonic()))
        for _, popen in order:
            # The group too: a worker's helpers (the Play page's valuers) may outlive it.
            _signal_group(popen.pid, signal.SIGKILL)
            if popen.poll() is None:
                popen.wait()
        self.started.clear()


def _signal_group(pgid: int, sig: int) -> None:
    with suppress(OSError):  # the group is gone already
        os.killpg(pgid, sig)


# Straight to the address: an http_proxy in the environment must not carry loopback requests.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _answers(url: str) -> bool:
    try:
        with _DIRECT.open(url, timeout=2) as r:
            return bool(r.status == 200 and r.read().strip() == b"ok")
    except OSError:
        return False
