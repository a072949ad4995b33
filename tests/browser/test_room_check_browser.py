"""A "Check yourself" room in a real browser: the host makes it, one phone joins and answers
two rules questions (one right, one wrong), the screen reveals each and sums the room up.
Every websocket frame the phone receives is read: none may hold another seat's face-down card
or the deck, which the phone's table (drawn from the learner's observation) never shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.live import PHONE, shoot_at, wait_idle
from tests.browser.test_room_browser import SCREEN, _query, open_screen, take_seat
from tests.helpers import shipped_library
from trainer.engine.game import Game
from trainer.rooms.check import check_questions
from trainer.views.move_labels import your_move

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-room")
SEAT = re.compile(r'<section class="ct-seat[^"]*" data-seat="([^"]+)">(.*?)</section>', re.S)
CARD = re.compile(r'data-card="([^"]+)"')


def frame_text(payload: str | bytes) -> str:
    """A websocket frame as text: Streamlit's frames are protobuf, whose strings (the HTML
    of the table among them) are UTF-8 inside."""
    return payload if isinstance(payload, str) else payload.decode("utf-8", errors="replace")


def leaks(frames: list[str], game: Game, learner: int) -> list[str]:
    """What the frames show that the learner may not see: a face-down card on another seat,
    a named card on the deck, or the deck's order. Also fails when no frame drew the table at
    all, so the check can never pass by looking at nothing."""
    found, seats_seen = [], set()
    deck = [str(c) for c in game.deck]
    for text in frames:
        for name, body in SEAT.findall(text):
            seats_seen.add(name)
            p = game.names.index(name)
            if p == learner:
                continue
            drawn = sorted(c for c in CARD.findall(body) if c != "back")
            if drawn != sorted(map(str, game.revealed[p])):
                found.append(f"{name}'s cards drawn as {drawn}")
        # Anywhere in the frame (the deck's pile included), a card drawn face up is the
        # learner's own or one face up on the table.
        allowed = {"back", *map(str, game.hidden[learner])} | {
            str(c) for cards in game.revealed for c in cards}
        if extra := set(CARD.findall(text)) - allowed:
            found.append(f"cards drawn that the learner cannot see: {sorted(extra)}")
        for sep in (", ", "', '", '", "', "|"):
            if len(deck) > 2 and sep.join(deck[:3]) in text:
                found.append(f"the deck's order: {sep.join(deck[:3])}")
    if set(game.names) - seats_seen:
        found.append(f"no table with every seat in the frames: saw {sorted(seats_seen)}")
    return found


def shoot(page, name: str) -> None:
    """The page at a phone's and a laptop's size (restored to its own size afterwards)."""
    shoot_at(page, SHOTS, name, (PHONE, SCREEN))


def test_a_host_and_a_phone_run_two_check_yourself_questions(browser, app_url):
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    lesson = shipped_library().check()
    assert lesson is not None
    questions = check_questions(lesson)
    # The session's server: the room is a new one, with a code of its own, so nothing
    # another test left on that server is seen here (and its first page is warm).
    screen_ctx = browser.new_context(viewport=SCREEN)
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        remote, phone = screen_ctx.new_page(), phone_ctx.new_page()
        screen = screen_ctx.new_page()
        frames: list[str] = []
        phone.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: frames.append(frame_text(payload))))
        phone.goto(f"{app_url}/room", wait_until="commit")

        remote.goto(f"{app_url}/room?host")
        check = remote.get_by_role("radio", name="Check yourself (the rules after the "
                                                  "Learn path)")
        expect(check).to_be_visible(timeout=30_000)
        wait_idle(remote)
        check.click()
        expect(remote.get_by_text("6 questions · Check yourself")).to_be_visible(
            timeout=15_000)
        wait_idle(remote)
        remote.locator(".st-key-room_make button").click()
        remote.wait_for_url(re.compile(r"[?&]code=[A-Z0-9]{6}&host="), timeout=20_000)
        code = _query(remote)["code"]
        open_screen(remote, screen)

        phone.goto(f"{app_url}/room?code={code}")
        take_seat(phone, code)
        expect(screen.locator("p.room-count")).to_have_text("1 joined", timeout=10_000)
        wait_idle(screen)

        for n, pick_right in ((0, True), (1, False)):
            question = questions[n]
            game = question.game()
            labels = [your_move(game, o.move) for o in question.options]
            frames.clear()
            button = ".st-key-room_start button" if n == 0 else ".st-key-room_next button"
            remote.locator(button).click()
            expect(remote.locator(".st-key-room_reveal button")).to_be_visible(
                timeout=15_000)
            expect(screen.get_by_text(question.prompt.question)).to_be_visible()
            option = phone.locator(f".st-key-room_option_{n}_0 button")
            expect(option).to_be_enabled(timeout=20_000)
            wait_idle(phone)
            expect(phone.get_by_text(f"Question {n + 1} of 6", exact=True)).to_be_visible()
            expect(phone.get_by_text(question.prompt.question)).to_be_visible()
            expect(phone.get_by_role("slider")).to_have_count(0)
            shown = [phone.locator(f".st-key-room_option_{n}_{i} button").inner_text()
                     .strip() for i in range(len(labels))]
            assert shown == labels, shown
            if n == 0:
                shoot(phone, "phone-question")
                shoot(screen, "presenter-question")
            pick = next(i for i, o in enumerate(question.options) if o.correct == pick_right)
            phone.locator(f".st-key-room_option_{n}_{pick} button").click()
            expect(phone.get_by_text("Your answer is in")).to_be_visible(timeout=10_000)
            expect(screen.locator("p.room-count")).to_have_text("1 of 1 answered",
                                                                timeout=10_000)
            remote.locator(".st-key-room_reveal button").click()
            right_label = labels[next(i for i, o in enumerate(question.options)
                                      if o.correct)]
            expect(screen.locator("p.room-count")).to_have_text(
                f"{1 if pick_right else 0} of 1 right", timeout=15_000)
            expect(screen.get_by_text(f"Right answer: {right_label}.")).to_be_visible()
            expect(screen.locator("ul.room-check-options li")).to_have_count(len(labels))
            verdict = "Right." if pick_right else "Not quite."
            expect(phone.get_by_text(verdict)).to_be_visible(timeout=15_000)
            wait_idle(phone)
            wait_idle(screen)
            if n == 1:
                shoot(phone, "phone-reveal-wrong")
                shoot(screen, "presenter-reveal")
            phone.wait_for_timeout(500)
            assert not (found := leaks(frames, game, question.learner)), found

        remote.locator(".st-key-room_finish button").click()  # ended after 2 of 6
        expect(screen.get_by_role("heading", name="How the room did")).to_be_visible(
            timeout=15_000)
        expect(screen.locator("ol.room-check-summary li")).to_have_count(2)
        expect(screen.get_by_text("The class: 1 of 2 answers right (50%), over 2 "
                                   "questions.")).to_be_visible()
        expect(phone.get_by_text("You got 1 of 2 right.")).to_be_visible(timeout=15_000)
        wait_idle(phone)
        wait_idle(screen)
        shoot(phone, "phone-end")
        shoot(screen, "presenter-end")
    finally:
        screen_ctx.close()
        phone_ctx.close()
