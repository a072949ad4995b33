"""A game table in a real browser: the host opens a table, three phones join (one by typing
its code on the Room page, two by the QR code's link), a bot fills the fourth seat, and the
three play a whole game to its end on their phones while the screen shows the table. One
phone is reloaded mid-game and the server is restarted once (on the same database): each
phone comes back to its seat and hand. At the end every phone reviews its own decisions.

Every websocket frame each phone and the screen receive is read: until the game is over no
phone is ever sent another player's face-down card and the screen none at all, and no frame
ever holds the deal's seed, the deck's order or (on the screen) the host's key."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import create_engine

from tests.browser.live import PHONE, SCREENSHOTS, serve_app, shoot_at, until, wait_idle
from tests.browser.test_room_check_browser import frame_text
from trainer.engine.game import Game
from trainer.tables.store import TableStore

pytestmark = pytest.mark.browser

SCREEN = {"width": 1366, "height": 768}
SHOTS = SCREENSHOTS / "table"  # what each page looked like, at a phone's and a laptop's size
SEAT = re.compile(r'<section class="ct-seat[^"]*" data-seat="([^"]+)">(.*?)</section>', re.S)
CARD = re.compile(r'data-card="([^"]+)"')
AT = re.compile(r'class="table-at" data-game="(\d+)" data-moves="(\d+)"')
OVER = "won the game"
# What the host's page says when "Deal" was drawn from an older version of the table (the
# seat just filled by a bot may not have reached the page's quarter-second poll yet).
STALE = "The table changed since this page was drawn"
MAX_PRESSES = 400


def query(page: Any) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query,
                                         keep_blank_values=True).items()}


@contextmanager
def app(name: str, db: str) -> Iterator[str]:
    with serve_app(name, env={"COUP_TRAINER_DB_URL": db,
                              "COUP_TRAINER_PLAY_ROLLOUTS": "8"}) as url:
        yield url


class Tab:
    """A browser page with every websocket frame it receives kept, in order."""

    def __init__(self, context: Any) -> None:
        self.page = context.new_page()
        self.frames: list[str] = []
        self.page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: self.frames.append(frame_text(payload))))

    def reopen(self, base: str) -> None:
        """The same address on (perhaps) another server: what a reload after a restart is.
        Only sent: the caller waits for what the page should draw, so that several tabs
        load at once."""
        parts = urlsplit(self.page.url)
        self.page.goto(f"{base}{parts.path}?{parts.query}", wait_until="commit")


def open_table(host: Any, base: str) -> tuple[str, str]:
    from playwright.sync_api import expect

    host.goto(f"{base}/room?table&host")
    make = host.locator(".st-key-table_make button")
    expect(make).to_be_enabled(timeout=30_000)
    wait_idle(host)
    host.get_by_role("combobox", name="Bot pace").click()  # the quickest bots: a short test
    host.get_by_role("option", name="0.5 s per move").click()
    wait_idle(host)
    make.click()
    host.wait_for_url(re.compile(r"table=[A-Z0-9]{6}&host="), timeout=20_000)
    wait_idle(host)
    q = query(host)
    return q["table"], q["host"]


def join(phone: Any, base: str, code: str, typed: bool) -> None:
    """The Room's two steps: the code (`typed` on the Room page, or the QR code's link),
    then a name (the suggested one) and a seat."""
    from playwright.sync_api import expect

    if typed:
        phone.goto(f"{base}/room")
        wait_idle(phone)
        phone.get_by_role("textbox", name="Room code").fill(code.lower())
        phone.get_by_role("button", name="Next").click()
    else:
        phone.goto(f"{base}/room?table={code}")
    expect(phone.get_by_role("heading", name=f"Join table {code}")).to_be_visible(
        timeout=20_000)
    wait_idle(phone)
    phone.get_by_role("button", name="Take a seat").click()
    phone.wait_for_url(re.compile(r"[?&]seat="), timeout=20_000)
    wait_idle(phone)


def shown_moves(tab: Tab) -> int:
    """The move the page shows (its marker), or -1."""
    html = tab.page.locator("span.table-at").first
    if not html.count():
        return -1
    value = html.get_attribute("data-moves")
    return int(value) if value else -1


def press_one(phones: list[Tab], rng: random.Random, challenges: float = 0.0) -> bool:
    """Whichever phone has a decision presses one of its buttons; whether one did. With
    `challenges`, a challenge, a coup or an assassination on offer is pressed that share of
    the time: each costs someone a card, so the game ends sooner and the test stays short."""
    for tab in phones:
        buttons = tab.page.locator(".st-key-table_moves button")
        n = buttons.count()
        if n:
            challenge = tab.page.locator(".st-key-table_moves button",
                                         has_text=re.compile(r"^(Challenge|Coup|Assassinate)"))
            pick = (challenge.first if challenges and challenge.count()
                    and rng.random() < challenges else buttons.nth(rng.randrange(n)))
            try:
                pick.click(timeout=2_000)
            except Exception:  # redrawn under the click: the next round sees the new page
                return False
            wait_idle(tab.page)
            return True
    return False


def dealt(host: Any, screen: Tab, timeout: float) -> None:
    """The screen shows the dealt table within `timeout` ms. A deal the host's page refused
    as stale (it says so, its Deal button now drawn from the table as it is) raises after a
    second: the press is made again, as the page asks, rather than after the whole timeout.
    (The second lets a refusal drawn before this press give way to the press's own rerun.)"""
    start = time.monotonic()
    while time.monotonic() < start + timeout / 1000:
        if screen.page.locator(".ct-seat").count():
            return
        if time.monotonic() > start + 1 and host.get_by_text(STALE).count():
            wait_idle(host)
            if host.get_by_text(STALE).count() and not screen.page.locator(".ct-seat").count():
                raise AssertionError(f"the host's page says: {STALE}")
        host.wait_for_timeout(100)
    raise AssertionError("the screen shows no dealt table")


def over(tab: Tab) -> bool:
    return bool(tab.page.get_by_text(OVER).count())


def play_until(phones: list[Tab], screen: Tab, rng: random.Random, stop: Any,
               challenges: float = 0.0) -> None:
    for _ in range(MAX_PRESSES):
        if stop():
            return
        if not press_one(phones, rng, challenges):
            screen.page.wait_for_timeout(150)  # a bot's move, or the pages catching up
    raise AssertionError("the game did not end")


def hidden_leaks(frames: list[str], final: Game, me: str | None) -> list[str]:
    """What the frames (before the end) show that `me` (None: the screen) may not see: a
    face-up card on another seat that is not one of its revealed cards."""
    found = []
    for text in frames:
        if 'data-status="over"' in text:
            continue  # the table at the end: every card is turned over, on purpose
        for name, body in SEAT.findall(text):
            if name == "You":
                continue
            p = final.names.index(name)
            shown = [c for c in CARD.findall(body) if c != "back"]
            allowed = [str(c) for c in final.revealed[p]]
            for card in shown:
                if card in allowed:
                    allowed.remove(card)
                else:
                    found.append(f"{me or 'the screen'} was sent {name}'s {card}")
    return found


def test_three_phones_and_a_bot_play_a_whole_game_across_a_reload_and_a_restart(
        browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    rng = random.Random(2024)
    with ExitStack() as stack:
        contexts = [browser.new_context(viewport=SCREEN)] + [
            browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            for _ in range(3)]
        for c in contexts:
            stack.callback(c.close)
        host = contexts[0].new_page()
        screen = Tab(contexts[0])
        phones = [Tab(c) for c in contexts[1:]]

        with app("table-1", db) as base:
            code, host_key = open_table(host, base)
            link = host.get_by_role("link", name="Open the screen view")
            screen.page.goto(str(link.evaluate("a => a.href")))
            wait_idle(screen.page)
            assert host_key not in screen.page.url
            for n, tab in enumerate(phones):
                join(tab.page, base, code, typed=n == 0)
            # The host's page follows the joins by its own poll: the third phone's seat, then
            # a page no longer rerunning, before a bot is seated.
            expect(host.locator(".st-key-table_free_2")).to_be_visible(timeout=20_000)
            wait_idle(host)
            host.locator(".st-key-table_bot_3").click()  # a bot that decides at once
            host.get_by_role("option", name="Honest").click()
            wait_idle(host)
            until(lambda: host.locator(".st-key-table_add_3 button").click(),
                  lambda t: expect(host.get_by_text("Honest bot")).to_be_visible(timeout=t))
            deal = host.locator(".st-key-table_deal button")
            expect(deal).to_be_enabled(timeout=10_000)
            wait_idle(host)

            def press_deal() -> None:
                wait_idle(host)
                try:
                    deal.click(timeout=5_000)
                except PlaywrightTimeout:
                    if deal.count():
                        raise  # else gone: an earlier press dealt the game

            until(press_deal, lambda t: dealt(host, screen, t), timeout=15_000)
            shoot_at(screen.page, SHOTS, "screen-playing", (SCREEN, PHONE))
            shoot_at(host, SHOTS, "host-playing", (SCREEN, PHONE))

            play_until(phones, screen, rng, lambda: shown_moves(phones[0]) >= 6)
            before = shown_moves(phones[1])
            phones[1].page.reload()  # a reload mid-game: the same seat and hand
            wait_idle(phones[1].page)
            expect(phones[1].page.locator(".ct-seat--me")).to_be_visible(timeout=20_000)
            assert shown_moves(phones[1]) >= before
            play_until(phones, screen, rng, lambda: shown_moves(phones[0]) >= 10
                       or over(phones[0]))
            at_restart = shown_moves(phones[0])
            shoot_at(phones[0].page, SHOTS, "phone-playing", (PHONE, SCREEN))

        with app("table-2", db) as base:  # the server restarted, on the same database
            for tab in [*phones, screen]:
                tab.reopen(base)
            for tab in [*phones, screen]:
                expect(tab.page.locator(".ct-seat").first).to_be_visible(timeout=30_000)
                wait_idle(tab.page)
            assert shown_moves(phones[0]) >= at_restart
            play_until(phones, screen, rng, lambda: all(over(t) for t in phones),
                       challenges=0.8)  # after the restart: on to the end, briskly
            expect(screen.page.get_by_text(OVER).first).to_be_visible(timeout=20_000)
            expect(screen.page.get_by_text(re.compile(r"bluffs? marked"))).to_be_visible(
                timeout=20_000)
            shoot_at(screen.page, SHOTS, "screen-over", (SCREEN, PHONE))
            for n, tab in enumerate(phones):
                tab.page.get_by_role("button", name="Review my decisions").click()
                expect(tab.page.get_by_text("Step through the game")).to_be_visible(
                    timeout=180_000)
                if n == 0:
                    shoot_at(tab.page, SHOTS, "phone-review", (PHONE, SCREEN))

        store = TableStore(create_engine(db))
        game = store.game(code)
        assert game is not None and game.finished_at is not None
        moves = store.moves(code, game.number)
        assert [m.index for m in moves] == list(range(game.moves))
        assert {m.made_by for m in moves} >= {"person", "bot"}
        final = Game.new(list(game.names), seed=game.seed, variant=game.rules)
        from trainer.engine.notation import parse

        for m in moves:
            final.apply(parse(m.move))
        assert final.is_over and final.winner == game.winner

        deck = [str(c) for c in final.deck]
        for who, tab in [*((final.names[p], t) for p, t in enumerate(phones)),
                         (None, screen)]:
            assert tab.frames, "no frame was read"
            assert any(SEAT.search(f) for f in tab.frames), "no table was drawn"
            leaks = hidden_leaks(tab.frames, final, who)
            assert not leaks, leaks[:5]
            text = "".join(tab.frames)
            assert str(game.seed) not in text, "the deal's seed reached a page"
            if len(deck) > 2:
                assert ", ".join(deck[:3]) not in text
        assert host_key not in "".join(screen.frames)


def _seconds(page: Any, selector: str) -> int:
    """The seconds the countdown at `selector` shows now."""
    text = page.locator(selector).first.inner_text(timeout=10_000)
    found = re.search(r"(\d+) s", text)
    assert found is not None, text
    return int(found.group(1))


def test_with_the_clock_on_the_screen_and_the_deciding_phone_count_down(
        browser: Any, tmp_path: Path) -> None:
    """The seconds left are drawn by each page's one poll (`trainer.ui.tables.poll_here`):
    they go down on the screen and on the phone whose decision it is, with nothing
    clicked, while the table itself stays the same element on the screen."""
    from playwright.sync_api import expect

    from trainer.rooms.codes import screen_token
    from trainer.tables.model import TableSettings

    db = f"sqlite:///{tmp_path / 'clock.db'}"
    store = TableStore(create_engine(db))
    table, host = store.create(TableSettings(seats=2, bot_pace=0.0, turn_seconds=60))
    tokens = [store.join(table.code, name)[1] for name in ("Ann", "Ben")]
    store.deal(table.code, host, seed=3)
    key = screen_token(store.table(table.code).join_secret)
    with app("table-clock", db) as base, ExitStack() as stack:
        screen_ctx = browser.new_context(viewport=SCREEN)
        phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        for c in (screen_ctx, phone_ctx):
            stack.callback(c.close)
        screen, phone = screen_ctx.new_page(), phone_ctx.new_page()
        screen.goto(f"{base}/room?table={table.code}&screen={key}")
        phone.goto(f"{base}/room?table={table.code}&seat={tokens[0]}")  # Ann decides first
        clock = "span.table-clock"
        left = ".st-key-table_decision [data-testid='stCaptionContainer']"
        expect(screen.locator(clock)).to_be_visible(timeout=30_000)
        expect(phone.locator(left).filter(has_text="left to decide")).to_be_visible(
            timeout=30_000)
        wait_idle(screen)
        screen.evaluate("() => { window.ctTable = document.querySelector('section.ct-seat'); }")
        first = (_seconds(screen, clock), _seconds(phone, left))
        screen.wait_for_timeout(3_000)
        then = (_seconds(screen, clock), _seconds(phone, left))
        assert then[0] < first[0] and then[1] < first[1], (first, then)
        assert screen.evaluate("() => window.ctTable === document.querySelector("
                               "'section.ct-seat') && window.ctTable.isConnected"), \
            "the screen's table was drawn again while only the clock moved"
        shoot_at(screen, SHOTS, "screen-clock", (SCREEN, PHONE))
        shoot_at(phone, SHOTS, "phone-clock", (PHONE, SCREEN))
