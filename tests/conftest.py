"""What `make test` requires beyond a plain `pytest` run.

Run by hand, pytest skips with a reason the tests this machine cannot run: the PostgreSQL tests
when COUP_TRAINER_TEST_PG_URL is not set, the compiled-engine test when the engine was not
compiled, the HAProxy tests when haproxy is not installed. `make test` must not pass by skipping
them, so it sets

- COUP_TRAINER_REQUIRE_PG=1: a test skipped for want of COUP_TRAINER_TEST_PG_URL fails instead;
- COUP_TRAINER_REQUIRE_COMPILED=1 (when a C compiler is present): a test skipped for want of
  the compiled engine fails instead;
- COUP_TRAINER_REQUIRE_HAPROXY=1: a test skipped for want of HAProxy (`python -m trainer
  serve` with several workers) fails instead.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

PG_ENV = "COUP_TRAINER_TEST_PG_URL"

# (the variable that makes it required, words every such skip reason contains, what is missing)
REQUIRED = (
    ("COUP_TRAINER_REQUIRE_PG", "COUP_TRAINER_TEST_PG_URL",
     "PostgreSQL: scripts/test-postgres.sh could not start a server (see its message above)"),
    ("COUP_TRAINER_REQUIRE_COMPILED", "compiled engine",
     "the compiled engine: a C compiler is present but the mypyc build of "
     "trainer/engine/game.py is not installed"),
    ("COUP_TRAINER_REQUIRE_HAPROXY", "HAProxy is not installed",
     "HAProxy: `make test` installs Debian's haproxy first (the Makefile's haproxy target)"),
)


# The test files that take longest, longest first (the sum of their tests' durations in a
# `make test` on a 2-core machine busy with other work, load average 10 to 16, November 2026,
# after the browser tests measured each page at every size in one visit). `make test` hands
# whole files to its two processes in collection order (--no-loadscope-reorder), and these go
# first: a long file started last keeps one process busy alone while the other has nothing
# left (xdist's own order, most tests first, started the one-test overlap file last). A file
# not listed runs after these in the usual order; the list only orders, so a stale entry
# costs time, never a test.
SLOWEST_FIRST = (
    "tests/browser/test_chrome_browser.py",  # 255 s
    "tests/browser/test_learn_browser.py",  # 253 s
    "tests/test_play_page.py",  # 172 s
    "tests/test_endgame_hidden.py",  # 163 s
    "tests/browser/test_rules_browser.py",  # 134 s
    "tests/test_endgame_tables.py",  # 134 s
    "tests/test_quiz_page.py",  # 123 s
    "tests/test_endgame_known.py",  # 123 s
    "tests/test_room_page.py",  # 115 s
    "tests/browser/test_room_browser.py",  # 86 s
    "tests/browser/test_quiz_browser.py",  # 81 s
    "tests/browser/test_play_browser.py",  # 78 s
    "tests/test_endgame_page.py",  # 75 s
    "tests/test_app.py",  # 70 s
    "tests/test_bank_build.py",  # 62 s
    "tests/test_endgame_practice_page.py",  # 56 s
    "tests/browser/test_play_overlap_browser.py",  # 54 s
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of `SLOWEST_FIRST` first, in its order; the rest keep theirs."""
    rank = {path: i for i, path in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


@pytest.fixture(scope="session", autouse=True)
def apptest_shares_what_a_server_shares() -> Iterator[None]:
    """Streamlit's AppTest does per page test what a server does once: each new AppTest scans
    every installed package's metadata for components (a fifth of a second; there are none
    here), and each run compiles the app's scripts again into a fresh script cache. A server
    scans once and keeps one cache for all its sessions; so do the tests (180 AppTests and
    730 runs in a `make test`). The installed packages and the scripts do not change during a
    run; every run still executes the scripts afresh."""
    from streamlit.components.v2 import manifest_scanner
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    scan = manifest_scanner.scan_component_manifests
    scanned: list[object] = []

    def scan_once(*args: object, **kwargs: object) -> list[object]:
        if not scanned:
            scanned.append(scan(*args, **kwargs))  # type: ignore[arg-type]
        return list(scanned[0])  # type: ignore[call-overload]

    shared = ScriptCache()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(manifest_scanner, "scan_component_manifests", scan_once)
        mp.setattr(app_test, "ScriptCache", lambda: shared)
        mp.setattr(local_script_runner, "ScriptCache", lambda: shared)
        yield


@pytest.fixture(scope="session", autouse=True)
def session_state_must_pickle() -> Iterator[None]:
    """Every AppTest run checks that what a page keeps in session state pickles (the library's
    sessions are plain data). The served app leaves the check off: a tab left open across a
    server restart would fail it on every poll (.streamlit/config.toml says why)."""
    from streamlit import config

    before = config.get_option("runner.enforceSerializableSessionState")
    config.set_option("runner.enforceSerializableSessionState", True)
    yield
    config.set_option("runner.enforceSerializableSessionState", before)


def _skip_reason(report: pytest.TestReport) -> str:
    if isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])
    return str(report.longrepr)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report: pytest.TestReport = yield
    if not report.skipped or hasattr(report, "wasxfail"):
        return report
    reason = _skip_reason(report)
    for env, words, missing in REQUIRED:
        if os.environ.get(env) == "1" and words in reason:
            report.outcome = "failed"
            report.longrepr = (f"{env}=1 requires {missing}; this test would have been "
                               f"skipped: {reason}")
            break
    return report


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database for a storage test, run once on a SQLite file and once on PostgreSQL (page
    tests that need only SQLite define their own `db_url`)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'answers.db'}"
    url = os.environ.get(PG_ENV, "").strip()
    if not url:
        pytest.skip(f"PostgreSQL skipped: {PG_ENV} is not set "
                    "(make test sets it with scripts/test-postgres.sh)")
    return url


@pytest.fixture
def empty_db_url(db_url: str) -> Iterator[str]:
    """An empty database of this test alone, on SQLite and on PostgreSQL: db_url's new SQLite
    file, or a new schema on the test PostgreSQL (the URL sets its search_path), dropped
    afterwards. For a test that builds an old schema or races on a new database: the shared
    PostgreSQL database is already migrated and holds other tests' rows."""
    if make_url(db_url).get_backend_name() == "sqlite":
        yield db_url
        return
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(db_url)
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield make_url(db_url).update_query_dict(
            {"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    finally:
        admin.dispose()


@pytest.fixture
def fil_complete() -> Iterator[None]:
    """No message met during the test is looked up without a Filipino translation (use it
    with `pytestmark = pytest.mark.usefixtures("fil_complete")`)."""
    from trainer.i18n.catalogue import catalogue

    missing = catalogue("fil").missing
    missing.clear()
    yield
    assert not missing, sorted(missing)
