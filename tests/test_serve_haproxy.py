"""`python -m trainer serve --workers 2`, for real: two Streamlit workers behind HAProxy on a
new PostgreSQL database of the test server's (made here, dropped afterwards). New browsers are
spread over both workers, a browser that sends its cookie back stays on its worker, the
WebSocket passes through, and SIGTERM leaves no process behind.

The tests share one launch (starting two workers is most of the time) and run in this file's
order; the last one stops it."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.conftest import PG_ENV
from tests.helpers import alive
from trainer.cli.serve import COOKIE, WORKER_HEADER, find_haproxy, free_ports

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 120  # two app imports at once on a machine busy with the rest of `make test`


@dataclass
class Served:
    launcher: subprocess.Popen[bytes]
    port: int
    workers: list[int]
    haproxy: int
    db_url: str
    run_dir: Path
    seconds: float  # from the command to the line saying it serves


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A new database on the test PostgreSQL server, dropped afterwards."""
    url = os.environ.get(PG_ENV, "").strip()
    if not url:
        pytest.skip(f"PostgreSQL skipped: {PG_ENV} is not set "
                    "(make test sets it with scripts/test-postgres.sh)")
    name = f"coup_serve_{uuid.uuid4().hex[:10]}"
    admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def serve_line(err: Path, launcher: subprocess.Popen[bytes], timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in err.read_text().splitlines():
            if line.startswith("serve: "):
                return line
        if launcher.poll() is not None:
            break
        time.sleep(0.1)
    raise AssertionError(f"no `serve:` line (exit {launcher.poll()}): {err.read_text()}")


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(scope="module")
def served(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    if find_haproxy() is None:
        pytest.skip("HAProxy is not installed: `make test` installs Debian's haproxy "
                    "(the haproxy target)")
    run_dir = tmp_path_factory.mktemp("serve")
    port = free_ports(1)[0]
    env = {**os.environ, "COUP_TRAINER_DB_URL": database}
    start = time.monotonic()
    with open(run_dir / "out.txt", "wb") as out, open(run_dir / "err.txt", "wb") as err:
        launcher = subprocess.Popen(
            [sys.executable, "-m", "trainer", "serve", "--workers", "2", "--port", str(port),
             "--run-dir", str(run_dir)], cwd=ROOT, env=env, stdout=out, stderr=err,
            start_new_session=True)
    pids: list[int] = []
    try:
        line = serve_line(run_dir / "err.txt", launcher, START_TIMEOUT)
        seconds = time.monotonic() - start
        words = line.split()
        assert words[:2] == ["serve:", "workers"] and words[-2:] == ["url",
                                                                     f"http://127.0.0.1:{port}"]
        workers = [int(w) for w in words[2:words.index("haproxy")]]
        haproxy = int(words[words.index("haproxy") + 1])
        pids = [*workers, haproxy]
        yield Served(launcher, port, workers, haproxy, database, run_dir, seconds)
    finally:
        if launcher.poll() is None:
            os.kill(launcher.pid, signal.SIGTERM)
            try:
                launcher.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(launcher.pid, signal.SIGKILL)
                launcher.wait()
        for pid in pids:  # whatever a failed test left
            if group_alive(pid):
                os.killpg(pid, signal.SIGKILL)


def get(port: int, path: str = "/", cookie: str | None = None
        ) -> tuple[int, str | None, str | None]:
    """The status, the worker that answered (HAProxy's header) and the cookie HAProxy set."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Cookie": f"{COOKIE}={cookie}"} if cookie else {})
        r = conn.getresponse()
        r.read()
        set_cookie = r.getheader("Set-Cookie")
        value = None
        if set_cookie and set_cookie.startswith(f"{COOKIE}="):
            value = set_cookie.split("=", 1)[1].split(";", 1)[0]
        return r.status, r.getheader(WORKER_HEADER), value
    finally:
        conn.close()


def test_it_serves_within_the_time_a_class_waits(served: Served) -> None:
    assert served.seconds < 60, served.seconds
    assert served.launcher.poll() is None
    state = json.loads((served.run_dir / "serve.json").read_text())
    assert state == {"url": f"http://127.0.0.1:{served.port}", "launcher": served.launcher.pid,
                     "workers": served.workers, "haproxy": served.haproxy}


def test_the_new_database_is_at_the_newest_schema(served: Served) -> None:
    from trainer.database.migrate import current, head

    engine = create_engine(served.db_url)
    try:
        with engine.connect() as conn:
            assert current(conn) == head()
    finally:
        engine.dispose()


def test_new_browsers_are_sent_to_each_worker_in_turn(served: Served) -> None:
    answers = [get(served.port) for _ in range(4)]
    assert all(status == 200 for status, _, _ in answers)
    cookies = [cookie for _, _, cookie in answers]
    assert set(cookies) == {"w1", "w2"}, answers
    assert cookies[0] != cookies[1], answers
    assert [worker for _, worker, _ in answers] == cookies  # the cookie names who answered


def test_a_browser_that_sends_its_cookie_back_stays_on_its_worker(served: Served) -> None:
    for name in ("w1", "w2"):
        answers = [get(served.port, path, cookie=name)
                   for path in ("/", "/_stcore/health", "/", "/_stcore/host-config")] * 2
        assert {worker for _, worker, _ in answers} == {name}, answers
        assert all(cookie is None for _, _, cookie in answers)  # sent once only (indirect)


def test_the_websocket_passes_through_haproxy_to_the_browsers_worker(served: Served) -> None:
    from websockets.sync.client import connect

    for name in ("w1", "w2"):
        with connect(f"ws://127.0.0.1:{served.port}/_stcore/stream", subprotocols=["streamlit"],
                     additional_headers={"Cookie": f"{COOKIE}={name}"},
                     open_timeout=10) as ws:
            assert ws.subprotocol == "streamlit"
            assert ws.response is not None
            assert ws.response.headers.get(WORKER_HEADER) == name


def test_sigterm_stops_haproxy_and_every_worker(served: Served) -> None:
    start = time.monotonic()
    os.kill(served.launcher.pid, signal.SIGTERM)
    status = served.launcher.wait(15)
    seconds = time.monotonic() - start
    assert status == 0
    assert seconds < 8, seconds
    for pid in (*served.workers, served.haproxy):
        assert not alive(pid) and not group_alive(pid), pid
    assert not (served.run_dir / "serve.json").exists()
