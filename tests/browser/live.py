"""Start the app with `streamlit run` on a free loopback port, for the browser tests."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
LOGS = ROOT / "artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-dev-shm-usage"]
# `make screenshots` sets it: the browser tests then save what a visitor sees as images.
SCREENSHOTS_ENV = "COUP_TRAINER_SCREENSHOTS"
# Set it to repeat the sample of a run (`sample_seed`).
SAMPLE_SEED_ENV = "COUP_TRAINER_SAMPLE_SEED"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve_app(name: str = "app", env: dict[str, str] | None = None) -> Iterator[str]:
    """Start the app on a free loopback port, wait for its health check, stop it at the end.
    The server's output goes to artifacts/streamlit-<name>.log (tracebacks in full). Answers
    go to a database of this run only, never the checkout's own."""
    port = _free_port()
    LOGS.mkdir(parents=True, exist_ok=True)
    log_path = LOGS / f"streamlit-{name}.log"
    db = LOGS / f"answers-{name}-{port}.db"
    env = {**os.environ, "STREAMLIT_CLIENT_SHOW_ERROR_DETAILS": "full",
           "COUP_TRAINER_DB_URL": f"sqlite:///{db}", **(env or {})}
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "streamlit_app.py",
             "--server.port", str(port), "--server.address", "127.0.0.1",
             "--server.headless", "true", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None:
                pytest.fail(f"streamlit exited early:\n{log_path.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"streamlit did not answer /_stcore/health within 30 s "
                            f"(log: {log_path})")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for leftover in LOGS.glob(f"answers-{name}-{port}.db*"):
            leftover.unlink()


def sample_seed() -> int:
    """The seed of a test that measures a random part of what it walks (some steps of many):
    drawn afresh each run, so that runs together cover the whole, or fixed by
    $COUP_TRAINER_SAMPLE_SEED to repeat a run. The test says it in its assertion messages."""
    fixed = os.environ.get(SAMPLE_SEED_ENV, "").strip()
    return int(fixed) if fixed else random.randrange(1_000_000)


def wait_idle(page, timeout: float = 20_000) -> None:
    """Wait until the app's script has finished its rerun. Streamlit redraws a page element
    by element, so a caption can already show the new step while a button below it still
    belongs to the previous one; reading the page before the rerun ends races with it."""
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                           timeout=timeout)


def cookie(context, name: str, ok=lambda value: True, timeout: float = 10.0) -> dict:
    """The browser's cookie `name` once it is set to a value `ok` accepts. The app writes its
    cookies from a script in the page, which runs after the rerun that drew it, so a test that
    reads the cookie the moment the page shows the change races with that script."""
    deadline = time.monotonic() + timeout
    while True:
        found = next((c for c in context.cookies() if c["name"] == name), None)
        if found is not None and ok(found["value"]):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"cookie {name!r} is {found and found['value']!r} after "
                                 f"{timeout} s: not the value expected")
        time.sleep(0.1)


def until(act, check, tries: int = 3, timeout: float = 5_000) -> None:
    """Act, then wait for its effect; act again if a busy machine lost the key press or the
    click (one that lands while the page is still rerunning). Only for acts that are
    harmless to repeat. `check(timeout)` raises AssertionError while the effect is missing."""
    for attempt in range(tries):
        act()
        try:
            check(timeout)
            return
        except AssertionError:
            if attempt == tries - 1:
                raise


def screenshots_wanted() -> bool:
    """Whether this run saves screenshots. Without them (a plain test run) a test skips what it
    does only for the image: a window made tall for a full-length shot, a pause for fonts and
    charts to settle before the shot. What a test measures or reads it does either way."""
    return os.environ.get(SCREENSHOTS_ENV) == "1"


def settle_for_screenshot(page, ms: float) -> None:
    """Pause `ms` before a screenshot, only when screenshots are saved."""
    if screenshots_wanted():
        page.wait_for_timeout(ms)


def shoot_at(page, folder: Path, name: str, sizes: tuple[dict[str, int], ...]) -> None:
    """The page at each of `sizes`, saved as `<name>-<width>x<height>.png` in `folder`, then
    restored to its own size. Without screenshots it only waits for the page's rerun to end:
    the sizes are for the images, and nothing is measured at them."""
    if not screenshots_wanted():
        wait_idle(page)
        return
    own = page.viewport_size
    for size in sizes:
        page.set_viewport_size(size)
        wait_idle(page)
        settle_for_screenshot(page, 600)
        page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"),
                        full_page=False)
    page.set_viewport_size(own)
