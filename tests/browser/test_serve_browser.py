"""A school's room through `python -m trainer serve --workers 2`: two app processes behind
HAProxy on a new PostgreSQL database, in real browsers. The laptop that makes the room and the
teacher's phone are sent to different workers (each browser keeps the worker HAProxy's cookie
names), and so are the pupil's phone and the projected screen; the room still works as one:

- the laptop shows its remote's QR code, the teacher's phone (on the other worker) opens the
  remote, and the laptop's QR code hides itself, which it could only learn from the database;
- a pupil joins on the other worker and answers; the laptop's remote and the screen count the
  answer.

Screenshots (with COUP_TRAINER_SCREENSHOTS=1) of the remote and the phone go to
artifacts/screenshots/serve/."""

from __future__ import annotations

import re

import pytest

from tests.browser.live import PHONE, SCREENSHOTS, shoot_at, wait_idle
from tests.browser.test_room_browser import SCREEN, make_room, open_screen, take_seat
from tests.test_serve_haproxy import Served, database, served
from trainer.cli.serve import COOKIE
from trainer.views import room_remote

pytestmark = pytest.mark.browser

__all__ = ["database", "served"]  # the fixtures: one launch of two workers for this file


def _logs(served: Served) -> str:
    """The tail of each worker's log, for a failure's message."""
    return "\n".join(f"{path.name}: {path.read_text(errors='replace')[-1500:]}"
                     for path in sorted(served.run_dir.glob("w*.log")))


def worker_of(context, base: str) -> str:
    """The worker HAProxy gave this browser (the value of its sticky cookie)."""
    return next(c["value"] for c in context.cookies(base) if c["name"] == COOKIE)


def on_worker(browser, base: str, worker: str, **options):
    """A new browser that HAProxy will send to `worker`: it carries that worker's cookie, as
    a browser does after its first visit."""
    context = browser.new_context(**options)
    context.add_cookies([{"name": COOKIE, "value": worker, "url": base}])
    return context


def test_a_room_served_by_two_workers_works_as_one(browser, served: Served) -> None:
    from playwright.sync_api import expect

    base = f"http://127.0.0.1:{served.port}"
    laptop_ctx = browser.new_context(viewport=SCREEN)
    contexts = [laptop_ctx]
    try:
        laptop = laptop_ctx.new_page()
        code, host = make_room(laptop, base)
        mine = worker_of(laptop_ctx, base)
        other = next(w for w in ("w1", "w2") if w != mine)

        laptop.get_by_role("button", name=room_remote.SHOW_QR).click()
        expect(laptop.locator("img.coup-qr")).to_be_visible(timeout=15_000)
        teacher_ctx = on_worker(browser, base, other, viewport=PHONE, is_mobile=True,
                                has_touch=True)
        contexts.append(teacher_ctx)
        teacher = teacher_ctx.new_page()
        teacher.goto(f"{base}/room?code={code}&host={host}")  # what the QR code holds
        expect(teacher.locator(".st-key-room_start button")).to_be_visible(timeout=30_000)
        assert worker_of(teacher_ctx, base) == other
        # The laptop's QR code hides itself within a few of its one-second polls, although
        # the teacher's phone was served by the other process.
        expect(laptop.locator("img.coup-qr")).to_have_count(0, timeout=15_000)
        expect(laptop.get_by_text(room_remote.QR_SCANNED)).to_be_visible()

        screen_ctx = on_worker(browser, base, other, viewport=SCREEN)
        pupil_ctx = on_worker(browser, base, other, viewport=PHONE, is_mobile=True,
                              has_touch=True)
        contexts += [screen_ctx, pupil_ctx]
        screen, pupil = screen_ctx.new_page(), pupil_ctx.new_page()
        errors: list[str] = []  # what the screen's page reported, for a failure's message
        screen.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        screen.on("console", lambda m: errors.append(f"console: {m.text}")
                  if m.type == "error" and "Failed to load resource" not in m.text else None)
        open_screen(laptop, screen)
        pupil.goto(f"{base}/room?code={code}")
        take_seat(pupil, code)
        expect(screen.locator("p.room-count")).to_have_text("1 joined", timeout=15_000)

        laptop.locator(".st-key-room_start button").click()
        option = pupil.locator(".st-key-room_option_0_0 button")
        expect(option).to_be_enabled(timeout=20_000)
        wait_idle(pupil)
        option.click()
        expect(pupil.get_by_text("Your answer is in")).to_be_visible(timeout=15_000)
        expect(laptop.get_by_text(re.compile(r"Question 1 of \d+: 1 of 1 answered"))) \
            .to_be_visible(timeout=15_000)
        # the screen, on the other worker, first reruns into the question on its own poll:
        # on a loaded machine (the whole suite in two processes) that can take over 15 s
        try:
            expect(screen.locator("p.room-count")).to_have_text("1 of 1 answered",
                                                                timeout=40_000)
        except AssertionError as e:  # rare in a full run: say what the screen showed
            raise AssertionError(f"{e}\n--- the screen showed:\n"
                                 f"{screen.locator('body').inner_text()[:2000]}\n"
                                 f"--- its errors: {errors}\n"
                                 f"--- the workers' logs:\n{_logs(served)}") from e
        assert {worker_of(c, base) for c in contexts} == {"w1", "w2"}
        wait_idle(laptop)
        shoot_at(laptop, SCREENSHOTS / "serve", "remote-answered", (PHONE, SCREEN))
        shoot_at(pupil, SCREENSHOTS / "serve", "phone-answered", (PHONE, SCREEN))
    finally:
        for context in contexts:
            context.close()
