"""The End-game page in chromium: a shared link opens its position on a running server, the
options list shows one card per option, best first, on a phone and a laptop without
sideways scrolling, and the address keeps the position; screenshots go to
artifacts/screenshots/endgame-*.png."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser.live import PHONE, wait_idle

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
LINK = "/endgame?card=Duke&lost=Ambassador,Contessa&coins=2,2&turn=you&mode=hidden&horizon=1"


SIZES = (("phone", PHONE), ("laptop", LAPTOP))


def fits_at_every_size(page, shot: str) -> None:
    """No sideways scrolling at a phone's or a laptop's width, with a screenshot at each (the
    window is resized; the page is not loaded again), leaving the page at a phone's size."""
    for name, viewport in SIZES:
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= viewport["width"], (name, wide)
        page.screenshot(path=shot.format(name=name))
    page.set_viewport_size(PHONE)


def test_a_link_opens_the_position_with_its_options(browser, app_url, screenshots):
    from playwright.sync_api import expect

    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{app_url}{LINK}")
        options = page.locator("li.eg-option")
        expect(options.first).to_be_visible(timeout=60_000)
        wait_idle(page, timeout=60_000)
        expect(page.get_by_role("heading", name="Your options, best first")).to_be_visible()
        expect(options).to_have_count(5)  # income, foreign aid, tax, steal, exchange
        expect(options.first).to_contain_text("Tax: claim Duke, take 3")
        expect(options.first).to_contain_text("the best move")
        expect(options.first.locator(".eg-cell")).to_have_count(5)
        wins = [int(re.search(r"You win (\d+)%", t).group(1))
                for t in options.locator(".eg-win").all_inner_texts()]
        assert wins == sorted(wins, reverse=True), wins
        expect(page.get_by_text("You hold the Duke and have 2 coins")).to_be_visible()
        assert page.locator('[data-testid="stException"]').count() == 0

        # The address still links to this position, large type or not.
        query = parse_qs(urlparse(page.url).query)
        assert query["card"] == ["Duke"] and query["coins"] == ["2,2"]
        assert query["lost"] == ["Ambassador,Contessa"] and query["horizon"] == ["1"]

        fits_at_every_size(page, str(screenshots / "endgame-{name}.png"))
    finally:
        page.close()


def test_a_bad_link_says_which_parameter_is_wrong(browser, app_url):
    from playwright.sync_api import expect

    page = browser.new_page(viewport=LAPTOP)
    try:
        page.goto(f"{app_url}/endgame?coins=2,lots&horizon=1")
        alert = page.get_by_text(re.compile(r"^The link's coins could not be read"))
        expect(alert).to_be_visible(timeout=60_000)
        expect(page.locator("li.eg-option").first).to_be_visible(timeout=60_000)
    finally:
        page.close()


PUZZLE = "/endgame?tab=practice&puzzle=bluff-Ambassador-Ambassador-3-7-Contessa"


def test_a_practice_duel_grades_the_winning_bluff(browser, app_url, screenshots):
    """Played at a phone's size, shot at a laptop's too."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{app_url}{PUZZLE}")
        buttons = page.locator(".st-key-eg_practice_buttons button")
        expect(buttons.first).to_be_visible(timeout=90_000)
        wait_idle(page, timeout=60_000)
        expect(page.get_by_text("They have 7 coins")).to_be_visible()
        fits_at_every_size(page, str(screenshots / "endgame-practice-{name}.png"))
        buttons.filter(has_text="Steal from them").click()
        verdict = page.get_by_text(re.compile(r"^Best move\."))
        expect(verdict).to_be_visible(timeout=90_000)
        wait_idle(page, timeout=60_000)
        assert page.locator('[data-testid="stException"]').count() == 0
        verdict.scroll_into_view_if_needed()
        fits_at_every_size(page, str(screenshots / "endgame-practice-graded-{name}.png"))
        assert "puzzle=" in page.url and "seed=" not in page.url  # no draw: no card in it
    finally:
        page.close()
