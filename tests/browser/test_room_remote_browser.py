"""The presenter screen on the wire: the host makes a room on the laptop, which becomes the
remote; the screen view is opened from it in a browser of its own; a phone joins and answers
a question, and the remote reveals it. Every websocket frame the screen's browser receives is
read: none may hold the host key or the remote's link, which would hand the room to anyone
photographing the projector. Screenshots of the screen and the remote at a phone's and a
laptop's size go to /tmp/shots-z."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser.live import PHONE, serve_app, shoot_at, wait_idle
from tests.browser.test_room_browser import SCREEN, _query, make_room, take_seat
from tests.browser.test_room_check_browser import frame_text
from trainer.views import room_remote

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("COUP_TRAINER_ROOM_SHOTS", "/tmp/shots-z"))


def shoot(page, name: str) -> None:
    """The page at a phone's and a laptop's size, restored to its own size afterwards."""
    shoot_at(page, SHOTS, name, (PHONE, SCREEN))


def test_the_screen_receives_no_host_key_in_any_frame(browser) -> None:
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    with serve_app("room-remote") as app_url:
        laptop_ctx = browser.new_context(viewport=SCREEN)
        screen_ctx = browser.new_context(viewport=SCREEN)
        phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        try:
            remote, screen, phone = (c.new_page() for c in (laptop_ctx, screen_ctx,
                                                             phone_ctx))
            frames: list[str] = []
            screen.on("websocket", lambda ws: ws.on(
                "framereceived", lambda payload: frames.append(frame_text(payload))))
            phone.goto(f"{app_url}/room", wait_until="commit")
            code, host = make_room(remote, app_url)
            link = remote.get_by_role("link", name=room_remote.PROJECT_THIS)
            expect(link).to_be_visible(timeout=20_000)
            href = str(link.evaluate("a => a.href"))  # the page's own origin: no LAN needed
            assert f"code={code}" in href and "screen=" in href and host not in href, href
            expect(remote.get_by_text(room_remote.NOT_THIS_PAGE)).to_be_visible()
            assert host not in remote.locator("body").inner_text()  # never printed

            screen.goto(href)
            expect(screen.locator("p.room-code")).to_have_text(code, timeout=30_000)
            assert "host" not in _query(screen)
            phone.goto(f"{app_url}/room?code={code}")
            _, name = take_seat(phone, code)
            expect(screen.locator("p.room-count")).to_have_text("1 joined", timeout=10_000)
            # The remote's one poll redraws it when someone joins: the phone's name is in
            # its list of people (a box to tick, to remove them) without a click on it.
            expect(remote.get_by_role("checkbox", name=name)).to_be_attached(timeout=10_000)
            expect(remote.get_by_text("In the lobby: 1 joined.", exact=False)).to_be_visible()
            wait_idle(remote)
            shoot(screen, "screen-lobby")
            shoot(remote, "remote-lobby")

            remote.locator(".st-key-room_start button").click()
            # the screen follows the room by its poll: no click on the screen at all
            expect(screen.get_by_text(re.compile(r"^Question 1 of \d+$"))).to_be_visible(
                timeout=15_000)
            expect(phone.locator(".st-key-room_option_0_0 button")).to_be_enabled(
                timeout=20_000)
            wait_idle(phone)
            phone.locator(".st-key-room_option_0_0 button").click()
            expect(phone.get_by_text("Your answer is in")).to_be_visible(timeout=10_000)
            expect(screen.locator("p.room-count")).to_have_text("1 of 1 answered",
                                                                timeout=10_000)
            expect(remote.get_by_text(re.compile(r"Question 1 of \d+: 1 of 1 answered"))) \
                .to_be_visible(timeout=10_000)
            wait_idle(screen)
            shoot(screen, "screen-question")
            shoot(remote, "remote-question")

            remote.get_by_role("button", name=room_remote.SHOW_QR).click()
            expect(remote.locator("img.coup-qr")).to_be_visible(timeout=10_000)
            wait_idle(remote)
            shoot(remote, "remote-qr")
            remote.get_by_role("button", name=room_remote.HIDE_QR).click()
            expect(remote.locator("img.coup-qr")).to_have_count(0, timeout=10_000)

            remote.locator(".st-key-room_reveal button").click()
            expect(screen.get_by_text(re.compile(r"^Best move: "))).to_be_visible(
                timeout=15_000)
            expect(screen.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible(
                timeout=15_000)
            wait_idle(screen)
            wait_idle(remote)
            shoot(screen, "screen-reveal")
            shoot(remote, "remote-reveal")
            screen.wait_for_timeout(1_500)  # a poll or two more of the revealed screen

            # Nothing on the screen to click: no button of the room at all.
            assert screen.locator('[class*="st-key-room_"] button').count() == 0
            assert frames, "no frame reached the screen"
            wire = "\n".join(frames)
            assert code in wire and "Best move" in wire  # the frames are the screen's
            assert host not in wire, "the host key reached the presenter screen"
            assert f"host={host}" not in wire and "&host=" not in wire, \
                "the remote's link reached the presenter screen"
            assert host not in screen.content()
        finally:
            for ctx in (laptop_ctx, screen_ctx, phone_ctx):
                ctx.close()
