"""Pieces for load tests that drive the app through Streamlit's agent API, on loopback.

The agent API (Streamlit 1.67, experimental; `server.enableAgentApi`) runs a session without a
browser: `POST /_stcore/agent/interact` with a JSON body, one client-state change per request,
and the answer is the finished page as a snapshot. The protocol, as the running app describes it
at `GET /_stcore/agent/openapi.json`:

- `{}` or `{"page": url_path}` creates a session; the snapshot's `session_id` continues it.
- `{"session_id": s, "widget_state": {key: value}}` sets widgets; `{"session_id": s,
  "trigger": {"key": k}}` clicks a button; `{"session_id": s, "page": p}` navigates (not with
  widget changes in the same request); `{"session_id": s}` alone reruns the page.
- `actions` in a snapshot lists the keys usable now (`kind` "value" or "trigger").
- `202 wait_timed_out` is not a failure: the run goes on, and a request with only the
  `session_id` waits for it. Other refusals are `{"error": {"code", "message"}}` with a 4xx.
- Past `server.agentMaxSessions` a creating call gets `429 too_many_sessions`.

One `Session` is one simulated user (one browser tab). Used by bench/serve.py and other load
tests; nothing here reads the user's data (pass a `COUP_TRAINER_DB_URL` of a temporary file).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STREAMLIT = ROOT / ".venv" / "bin" / "streamlit"
INTERACT = "/_stcore/agent/interact"


# ----------------------------------------------------------------------------- the server
def free_port() -> int:
    """A TCP port free on 127.0.0.1 at the time of asking."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_command(port: int, options: Sequence[str] = (), app: str = "streamlit_app.py",
                   launcher: str | None = None) -> list[str]:
    """The `streamlit run` command line for a headless loopback server with the agent API on.

    `options` are more `--section.option value` flags (e.g. `--runner.postScriptGC false`).
    `launcher`, Python source, starts the server through `python -c` instead of the
    `streamlit` script: it runs first, then Streamlit's command line with the same arguments
    (to set something up in the server process before it serves)."""
    args = ["run", app, "--server.port", str(port), "--server.address", "127.0.0.1",
            "--server.headless", "true", "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none", "--server.enableAgentApi", "true",
            "--server.agentMaxSessions", "1000", *options]
    if launcher is None:
        return [str(STREAMLIT), *args]
    code = (f"{launcher}\nimport sys\nsys.argv = ['streamlit', *{args!r}]\n"
            "from streamlit.web.cli import main\nmain()\n")
    return [sys.executable, "-c", code]


def wait_healthy(base: str, proc: subprocess.Popen[bytes] | None = None,
                 timeout: float = 60.0) -> float:
    """Wait until `GET {base}/_stcore/health` answers `ok`; the seconds it took.

    Raises RuntimeError if `proc` exits first or `timeout` passes."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode} before it was up")
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                if r.status == 200 and r.read().strip() == b"ok":
                    return time.perf_counter() - start
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server at {base} was not healthy after {timeout:.0f} s")


def openapi(base: str) -> dict[str, Any]:
    """The agent API's own description, `GET {base}/_stcore/agent/openapi.json`."""
    with urllib.request.urlopen(f"{base}/_stcore/agent/openapi.json", timeout=10) as r:
        return dict(json.load(r))


@dataclass
class Server:
    """A running app server: its process, base URL and log file; with several workers
    (`serve_workers`), the launcher's process, the workers' pids and HAProxy's."""

    proc: subprocess.Popen[bytes]
    base: str
    log: Path
    workers: list[int] = field(default_factory=list)
    balancer: int | None = None

    @property
    def pid(self) -> int:
        return self.workers[0] if self.workers else self.proc.pid

    @property
    def pids(self) -> list[int]:
        """The processes that run the app's pages: the server, or every worker."""
        return self.workers or [self.proc.pid]

    def cpu(self) -> float:
        """CPU seconds used so far by the app's processes together."""
        return sum(cpu_seconds(p) for p in self.pids)

    def balancer_cpu(self) -> float:
        """CPU seconds used so far by HAProxy (0 with one process and no balancer)."""
        return cpu_seconds(self.balancer) if self.balancer else 0.0

    def rss_mib(self) -> float:
        """The app's resident memory now (VmRSS of /proc/<pid>/status, summed), in MiB."""
        return sum(rss_mib(p) for p in self.pids)

    def signal(self, sig: int) -> None:
        """Send `sig` to the server process."""
        os.kill(self.pid, sig)


@contextmanager
def serve(options: Sequence[str] = (), env: dict[str, str] | None = None,
          log: Path | None = None, launcher: str | None = None,
          start_timeout: float = 90.0) -> Iterator[Server]:
    """Start the app on a free loopback port, wait for health, yield it, always stop it.

    `env` is added to this process's environment (set `COUP_TRAINER_DB_URL` to a temporary
    database). Output goes to `log` (a temporary file if None). The server is stopped with
    SIGTERM, then SIGKILL after 10 s, also when the body raises."""
    port = free_port()
    log = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"agentapi-server-{port}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(server_command(port, options, launcher=launcher), cwd=ROOT,
                                env={**os.environ, **(env or {})}, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(proc, f"http://127.0.0.1:{port}", log)
    try:
        wait_healthy(server.base, proc, start_timeout)
        yield server
    finally:
        stop(proc)


# The database a bench's server and the bench share.
PG_ENV = "COUP_TRAINER_BENCH_PG_URL"
PG_SCRIPT = ROOT / "scripts" / "test-postgres.sh"


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


# Every worker as `serve` starts its one server: the agent API on, no file watcher.
WORKER_OPTIONS = ("--server.enableAgentApi", "true", "--server.agentMaxSessions", "1000",
                  "--server.fileWatcherType", "none")


@contextmanager
def serve_workers(workers: int, options: Sequence[str] = (), env: dict[str, str] | None = None,
                  log: Path | None = None, start_timeout: float = 120.0) -> Iterator[Server]:
    """The app as a school would run it: `python -m trainer serve --workers N` (N streamlit
    processes behind HAProxy, sticky by cookie; `env` must name a PostgreSQL database in
    COUP_TRAINER_DB_URL) on a free loopback port. Yields once `serve.json` in its run folder
    names the workers and HAProxy; always stops it (SIGTERM to the launcher, which stops the
    workers and HAProxy)."""
    port = free_port()
    log = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"serve-{port}.log"
    run_dir = log.parent / f"serve-{port}"
    command = [sys.executable, "-m", "trainer", "serve", "--workers", str(workers), "--port",
               str(port), "--run-dir", str(run_dir), "--", *WORKER_OPTIONS, *options]
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **(env or {})},
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        started, info = time.monotonic(), run_dir / "serve.json"
        while not info.exists():
            if proc.poll() is not None:
                raise RuntimeError(f"`trainer serve` exited with code {proc.returncode}: "
                                   f"{log.read_text()[-800:]}")
            if time.monotonic() - started > start_timeout:
                raise RuntimeError(f"`trainer serve` was not up after {start_timeout:.0f} s")
            time.sleep(0.2)
        time.sleep(0.2)  # the file is written whole, but give the writer its moment
        facts = json.loads(info.read_text())
        server = Server(proc, f"http://127.0.0.1:{port}", log, [int(p) for p in
                                                               facts["workers"]],
                        int(facts["haproxy"]))
        wait_healthy(server.base, proc, start_timeout)
        yield server
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """Stop a server started by `serve`: SIGTERM to it (and its process group), SIGKILL if it
    has not exited after `grace` seconds."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)


def rss_mib(pid: int) -> float:
    """VmRSS of process `pid` from /proc/<pid>/status, in MiB (Linux only)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by process `pid` (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------- the collector inside the server
# Python source for `serve(launcher=...)`: counts the server's garbage collections and the
# CPU time of each (thread time of the collecting thread, so other load on the machine does
# not inflate it). On SIGUSR2 it writes one line to its log: `bench-gc {json}` with `n` and
# `cpu_s` per generation since start, `max_s` (the longest since the previous line),
# `tracked` (objects the collector tracks) and `frozen` (objects `gc.freeze()` holds).
GC_STATS_LAUNCHER = """
import gc as _gc, json as _json, signal as _signal, sys as _sys, time as _time
_gcs = {"n": [0, 0, 0], "cpu_s": [0.0, 0.0, 0.0], "max_s": 0.0, "t0": 0.0}
def _gc_cb(phase, info):
    if phase == "start":
        _gcs["t0"] = _time.thread_time()
    else:
        d, g = _time.thread_time() - _gcs["t0"], info["generation"]
        _gcs["n"][g] += 1
        _gcs["cpu_s"][g] += d
        _gcs["max_s"] = max(_gcs["max_s"], d)
_gc.callbacks.append(_gc_cb)
def _gc_dump(signum, frame):
    out = {"n": list(_gcs["n"]), "cpu_s": [round(x, 4) for x in _gcs["cpu_s"]],
           "max_s": round(_gcs["max_s"], 4), "tracked": len(_gc.get_objects()),
           "frozen": _gc.get_freeze_count()}
    _gcs["max_s"] = 0.0
    print("bench-gc " + _json.dumps(out), file=_sys.stderr, flush=True)
_signal.signal(_signal.SIGUSR2, _gc_dump)
"""


def gc_stats(server: Server, timeout: float = 10.0) -> dict[str, Any]:
    """The server's collector figures now (a server started with `GC_STATS_LAUNCHER` in its
    launcher): sends SIGUSR2 and reads the `bench-gc` line it writes to its log."""
    def lines() -> list[str]:
        return [x for x in server.log.read_text(errors="replace").splitlines()
                if x.startswith("bench-gc ")]

    before = len(lines())
    server.signal(signal.SIGUSR2)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = lines()
        if len(found) > before:
            return dict(json.loads(found[-1].split(" ", 1)[1]))
        time.sleep(0.05)
    raise RuntimeError("the server did not report its collector figures")


# ---------------------------------------------------------------------------- a session
class AgentError(RuntimeError):
    """A request the agent API refused: `status` (HTTP) and `code` (e.g. `unknown_key`)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code = status, code


@dataclass
class Timed:
    """One interaction: what it was, how long the request took (seconds) and whether the app
    answered `ready` (False: refused, timed out or `status: "error"`)."""

    label: str
    seconds: float
    ok: bool
    error: str = ""


@dataclass
class Session:
    """One agent-API session: a simulated user with one tab, over one keep-alive connection.

    Create it with `Session(base)`, then `open(page)`; every call after that continues the
    same Streamlit session through its `session_id`. `timings` records every interaction."""

    base: str
    timeout: float = 120.0
    session_id: str | None = None
    snapshot: dict[str, Any] = field(default_factory=dict)
    timings: list[Timed] = field(default_factory=list)
    cookies: dict[str, str] = field(default_factory=dict)  # HAProxy's sticky cookie, say
    _conn: http.client.HTTPConnection | None = None

    # -- low level
    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            host = self.base.split("://", 1)[1]
            self._conn = http.client.HTTPConnection(host, timeout=self.timeout)
        return self._conn

    def close(self) -> None:
        """Close the connection (the server ends the session itself once idle)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _post(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if self.cookies:  # as a browser does: behind HAProxy, the session stays on its worker
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):  # a keep-alive connection the server closed: reconnect once
            conn = self._connection()
            try:
                conn.request("POST", INTERACT, body=data, headers=headers)
                resp = conn.getresponse()
                for cookie in resp.headers.get_all("Set-Cookie") or []:
                    name, _, value = cookie.split(";", 1)[0].partition("=")
                    self.cookies[name.strip()] = value.strip()
                payload = resp.read()
                return resp.status, json.loads(payload) if payload else {}
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def request(self, body: dict[str, Any]) -> dict[str, Any]:
        """Send one interact request; wait out `202 wait_timed_out` by resending only the
        `session_id`; return the snapshot (kept as `self.snapshot`). Raises AgentError."""
        if self.session_id is not None:
            body = {"session_id": self.session_id, **body}
        status, reply = self._post(body)
        while status == 202 and reply.get("session_id"):
            self.session_id = reply["session_id"]
            status, reply = self._post({"session_id": self.session_id})
        if reply.get("session_id"):
            self.session_id = reply["session_id"]
        if status != 200:
            err = reply.get("error", {})
            raise AgentError(status, err.get("code", "?"), err.get("message", str(reply)[:200]))
        self.snapshot = reply
        return reply

    # -- timed interactions
    def timed(self, label: str, body: dict[str, Any]) -> Timed:
        """Send `body` (see `request`) and record how long it took under `label`. A refusal
        or an app error is recorded as not ok, not raised."""
        start = time.perf_counter()
        try:
            snap = self.request(body)
            ok, error = snap.get("status") == "ready", ""
            if not ok:
                error = "app error"
        except (AgentError, OSError, ValueError) as e:
            ok, error = False, str(e)[:200]
        t = Timed(label, time.perf_counter() - start, ok, error)
        self.timings.append(t)
        return t

    def open(self, page: str = "", query_params: dict[str, list[str]] | None = None) -> Timed:
        """Create the session on `page` (a `url_path`; "" is the default page), as a new tab
        opening that address."""
        body: dict[str, Any] = {"page": page}
        if query_params:
            body["query_params"] = query_params
        return self.timed(f"open {page or 'default'}", body)

    def set(self, key: str, value: Any) -> Timed:
        """Set widget `key` to `value` (one run)."""
        return self.timed(f"set {key}", {"widget_state": {key: value}})

    def click(self, key: str) -> Timed:
        """Fire the trigger `key` (a button click; one run)."""
        return self.timed(f"click {key}", {"trigger": {"key": key}})

    def goto(self, page: str) -> Timed:
        """Open `page` (a `url_path`) in this simulated tab."""
        return self.timed(f"goto {page or 'default'}", {"page": page})

    def rerun(self) -> Timed:
        """Rerun the current page with no changes."""
        return self.timed("rerun", {})

    def actions(self, kind: str | None = None) -> list[str]:
        """The keys usable now in the latest snapshot (of `kind` "value" or "trigger")."""
        return [a["key"] for a in self.snapshot.get("actions", [])
                if kind is None or a.get("kind") == kind]


# ------------------------------------------------------------------- many users at once
def run_users(users: int, work: Callable[[int, Session], None], base: str,
              deadline: float, timeout: float = 120.0) -> tuple[list[Timed], float]:
    """Run `work(i, session)` for users 0..`users`-1, each on its own thread and `Session`,
    all released together (a barrier), and wait for them until `deadline` (time.monotonic).

    Returns every user's timings and the wall time from release to the last finish. A user
    whose work raises gets a not-ok timing with the error; a user still running at the
    deadline is left (its thread is a daemon) and noted as timed out."""
    sessions = [Session(base, timeout=timeout) for _ in range(users)]
    gate = threading.Barrier(users + 1)
    failures: list[Timed] = []
    lock = threading.Lock()

    def one(i: int) -> None:
        gate.wait()
        try:
            work(i, sessions[i])
        except Exception as e:  # a user's failure is a result, not the end of the run
            with lock:
                failures.append(Timed("user", 0.0, False, f"{type(e).__name__}: {e}"[:200]))
        finally:
            sessions[i].close()

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(users)]
    for t in threads:
        t.start()
    gate.wait()
    start = time.perf_counter()
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    wall = time.perf_counter() - start
    late = sum(t.is_alive() for t in threads)
    if late:
        failures.append(Timed("user", 0.0, False, f"{late} users still running at the deadline"))
    timings = [t for s in sessions for t in list(s.timings)]
    return timings + failures, wall


def percentile(values: Sequence[float], q: float) -> float:
    """The `q` quantile (0..1) of `values`, linear between the nearest ranks; nan if empty."""
    if not values:
        return float("nan")
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)
