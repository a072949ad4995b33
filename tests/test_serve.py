"""`python -m trainer serve`: what it would start, what it refuses, and how it stops, without
Streamlit (tests/test_serve_haproxy.py serves the real app through HAProxy)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.helpers import alive
from trainer.cli import main
from trainer.cli import serve as serve_cli
from trainer.cli.serve import (
    FAILED,
    REFUSED,
    Backend,
    Launcher,
    Plan,
    Process,
    free_ports,
    haproxy_config,
    make_plan,
)

ROOT = Path(__file__).resolve().parent.parent
PG = "postgresql+psycopg://coup:s3cret-pw@db.example/coup_trainer"
WORKERS = [Backend("w1", 40001), Backend("w2", 40002), Backend("w3", 40003)]


def haproxy_missing_reason() -> str:
    return "HAProxy is not installed: `make test` installs Debian's haproxy (the haproxy target)"


@pytest.fixture
def app_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No database setting of the person running the tests: no secrets file in a home, no
    COUP_TRAINER_DB_URL."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COUP_TRAINER_DB_URL", raising=False)


def plan(lan: bool = False, workers: int = 2, **kw: object) -> Plan:
    options: dict[str, object] = {"db_url": PG, "run_dir": None, "haproxy": "/usr/sbin/haproxy",
                                  **kw}
    return make_plan(workers=workers, port=free_ports(1)[0], lan=lan,
                     **options)  # type: ignore[arg-type]


# --- HAProxy's configuration ----------------------------------------------------------------

def test_each_worker_gets_a_sticky_cookie_of_its_own() -> None:
    config = haproxy_config(WORKERS, address="127.0.0.1", port=8501)
    assert "cookie COUP_SERVER insert indirect nocache" in config
    for b in WORKERS:
        assert f"server {b.name} 127.0.0.1:{b.port} cookie {b.name}" in config
    assert "balance roundrobin" in config
    assert "balance source" not in config and "hash-type" not in config


def test_websockets_stay_open_for_an_hour() -> None:
    config = haproxy_config(WORKERS, address="127.0.0.1", port=8501)
    assert re.search(r"^\s*mode http$", config, re.M)
    assert re.search(r"^\s*timeout tunnel 1h$", config, re.M)
    for timeout in ("client", "server", "connect"):
        assert re.search(rf"^\s*timeout {timeout} \d+s$", config, re.M), timeout


def test_haproxy_checks_each_worker_at_streamlits_health_address() -> None:
    config = haproxy_config(WORKERS, address="127.0.0.1", port=8501)
    assert "option httpchk GET /_stcore/health" in config
    assert re.search(r"^\s*default-server check\b", config, re.M)


def test_haproxy_serves_this_computer_only_unless_lan_is_asked_for(app_env: None) -> None:
    private, public = plan(lan=False), plan(lan=True)
    assert private.config is not None and public.config is not None
    assert re.findall(r"^\s*bind (\S+):\d+$", private.config, re.M) == ["127.0.0.1"]
    assert re.findall(r"^\s*bind (\S+):\d+$", public.config, re.M) == ["0.0.0.0"]
    for worker in (*private.workers, *public.workers):  # only HAProxy is ever on the network
        assert worker.command[worker.command.index("--server.address") + 1] == "127.0.0.1"


def test_haproxy_accepts_the_configuration(tmp_path: Path) -> None:
    haproxy = serve_cli.find_haproxy()
    if haproxy is None:
        pytest.skip(haproxy_missing_reason())
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(haproxy_config(WORKERS, address="0.0.0.0", port=8501))
    check = subprocess.run([haproxy, "-c", "-f", str(cfg)], capture_output=True, text=True,
                           timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "WARNING" not in check.stdout + check.stderr


# --- what it starts -------------------------------------------------------------------------

def test_one_worker_is_the_streamlit_command_of_make_run(app_env: None) -> None:
    out = subprocess.run(["make", "-n", "-s", "run", "PORT=8601", "LAN=1"], cwd=ROOT, text=True,
                         capture_output=True, check=True, timeout=300).stdout
    made = next(line for line in out.replace("\\\n", " ").splitlines() if "streamlit run" in line)
    one = make_plan(workers=1, port=8601, lan=True, db_url=None, run_dir=None)
    assert one.haproxy is None and one.db_url is None and len(one.workers) == 1
    command = one.workers[0].command
    assert command[:3] == [sys.executable, "-m", "streamlit"]
    assert command[3:] == made.split()[made.split().index("run"):]


def test_options_after_a_double_dash_go_to_every_worker(app_env: None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.cli import parser

    planned: list[Plan] = []
    monkeypatch.setattr(serve_cli, "Launcher", lambda p: planned.append(p) or _Ran())
    args = parser().parse_args(["serve", "--workers", "2", "--db-url", PG, "--port",
                                str(free_ports(1)[0]), "--", "--server.enableAgentApi", "true"])
    monkeypatch.setattr(serve_cli, "find_haproxy", lambda: "/usr/sbin/haproxy")
    assert args.func(args) == 0
    assert [w.command[-2:] for w in planned[0].workers] == [["--server.enableAgentApi",
                                                             "true"]] * 2


class _Ran:
    def run(self) -> int:
        return 0


def test_the_workers_share_one_random_cookie_secret_kept_out_of_their_arguments(
        app_env: None) -> None:
    first, second = plan(workers=3), plan(workers=3)
    secrets = {w.env["STREAMLIT_SERVER_COOKIE_SECRET"] for w in first.workers}
    assert len(secrets) == 1 and len(secrets.pop()) >= 32
    assert first.workers[0].env != second.workers[0].env  # a new one at each launch
    for worker in first.workers:
        assert not any("cookie" in arg.lower() for arg in worker.command)


def test_the_workers_are_told_the_address_haproxy_listens_on(app_env: None) -> None:
    assert {w.env["COUP_TRAINER_PUBLIC_ADDRESS"] for w in plan(lan=True).workers} == {"0.0.0.0"}


def test_the_database_password_is_never_shown(app_env: None) -> None:
    p = plan()
    assert "s3cret-pw" not in p.shown and "coup:***@db.example" in p.shown
    assert all("s3cret-pw" not in " ".join(w.command) for w in p.workers)


def test_the_room_page_reads_the_address_haproxy_listens_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit import config

    from trainer.ui.links import PUBLIC_ADDRESS_ENV, reachable_from_lan

    assert PUBLIC_ADDRESS_ENV == serve_cli.PUBLIC_ADDRESS_ENV
    before = config.get_option("server.address")
    config.set_option("server.address", "127.0.0.1")  # a worker's own address
    try:
        monkeypatch.setenv(PUBLIC_ADDRESS_ENV, "0.0.0.0")
        assert reachable_from_lan()
        monkeypatch.setenv(PUBLIC_ADDRESS_ENV, "127.0.0.1")
        assert not reachable_from_lan()
        monkeypatch.delenv(PUBLIC_ADDRESS_ENV)
        assert not reachable_from_lan()
    finally:
        config.set_option("server.address", before)


# --- what it refuses ------------------------------------------------------------------------

def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["serve", "--port", str(free_ports(1)[0]), *argv]) == REFUSED
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


def test_several_workers_refuse_the_default_sqlite_file(app_env: None, capsys) -> None:
    said = refused(["--workers", "2"], capsys)
    assert said.startswith("error: --workers 2 needs a PostgreSQL database")
    assert "postgresql+psycopg://" in said and "COUP_TRAINER_DB_URL" in said
    assert "docs/rooms.md" in said and "default SQLite file" in said


def test_several_workers_refuse_a_sqlite_url(app_env: None, tmp_path: Path, capsys) -> None:
    said = refused(["--workers", "3", "--db-url", f"sqlite:///{tmp_path}/a.db"], capsys)
    assert "--workers 3 needs a PostgreSQL database" in said
    assert f"the database asked for is sqlite:///{tmp_path}/a.db:" in said


def test_several_workers_refuse_a_sqlite_url_from_the_environment(
        app_env: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys) -> None:
    monkeypatch.setenv("COUP_TRAINER_DB_URL", f"sqlite:///{tmp_path}/a.db")
    assert "needs a PostgreSQL database" in refused(["--workers", "2"], capsys)


def test_several_workers_without_haproxy_name_the_package_and_the_make_target(
        app_env: None, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(serve_cli, "find_haproxy", lambda: None)
    said = refused(["--workers", "2", "--db-url", PG], capsys)
    assert "HAProxy is not installed" in said
    assert "make serve" in said and "apt-get install haproxy" in said


def test_haproxy_is_found_where_debian_puts_it_when_not_on_the_path(tmp_path: Path) -> None:
    sbin = tmp_path / "sbin"
    sbin.mkdir()
    (sbin / "haproxy").write_text("#!/bin/sh\n")
    (sbin / "haproxy").chmod(0o755)
    assert serve_cli.find_haproxy(path=str(tmp_path / "bin"), dirs=[str(sbin)]) == \
        str(sbin / "haproxy")
    assert serve_cli.find_haproxy(path=str(tmp_path / "bin"), dirs=[]) is None


def test_a_database_in_the_apps_secrets_other_than_the_one_asked_for_is_refused(
        app_env: None, tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    (checkout / ".streamlit").mkdir(parents=True)
    (checkout / "streamlit_app.py").write_text("")
    (checkout / ".streamlit" / "secrets.toml").write_text(
        '[db]\nurl = "postgresql+psycopg://other@elsewhere/db"\n')
    with pytest.raises(serve_cli._Refused, match="secrets.toml .*names another database"):
        plan(checkout=checkout)
    found = plan(checkout=checkout, db_url=None)  # the app's own choice is served
    assert found.db_url == "postgresql+psycopg://other@elsewhere/db"


def test_a_port_in_use_is_refused_before_anything_starts(app_env: None, capsys) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == REFUSED
    assert f"port {port} on 127.0.0.1 cannot be used" in capsys.readouterr().err


# --- starting and stopping (stand-in workers) -------------------------------------------------

HEALTHY = """
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
"""


def stand_ins(tmp_path: Path, n: int) -> Plan:
    workers = tuple(Process(f"w{i}", [sys.executable, "-c", HEALTHY, str(port)],
                            log=tmp_path / f"w{i}.log",
                            health=f"http://127.0.0.1:{port}/_stcore/health")
                    for i, port in enumerate(free_ports(n), start=1))
    return Plan(workers, None, None, "http://127.0.0.1:1", tmp_path, tmp_path, shown="up")


def launch_then(tmp_path: Path, n: int, then) -> tuple[int, str, list[int]]:
    """Run a launcher of `n` stand-in workers here (signals reach the main thread only) and
    call `then(pids)` from another thread once it has said it serves."""
    err = io.StringIO()
    launcher = Launcher(stand_ins(tmp_path, n), out=io.StringIO(), err=err, grace=2.0)
    pids: list[int] = []

    def watch() -> None:
        deadline = time.monotonic() + 30
        while "serve: workers" not in err.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
        line = err.getvalue().split("serve: workers ", 1)[-1].split(" url ")[0]
        pids.extend(int(p) for p in line.split() if p.isdigit())
        if pids:  # not once the launcher has returned: the signal would reach pytest
            then(pids)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    status = launcher.run()
    thread.join(10)
    return status, err.getvalue(), pids


def test_a_worker_that_dies_stops_every_other_and_fails(tmp_path: Path) -> None:
    status, err, pids = launch_then(tmp_path, 3, lambda pids: os.kill(pids[1], 9))
    assert status == FAILED
    assert f"error: w2 (pid {pids[1]}) exited with signal 9 (its log: {tmp_path / 'w2.log'})" \
        in err
    assert len(pids) == 3 and not any(alive(pid) for pid in pids)


def test_sigterm_stops_every_worker_and_succeeds(tmp_path: Path) -> None:
    status, err, pids = launch_then(tmp_path, 2,
                                    lambda pids: os.kill(os.getpid(), 15))
    assert status == 0 and "error" not in err
    assert len(pids) == 2 and not any(alive(pid) for pid in pids)
