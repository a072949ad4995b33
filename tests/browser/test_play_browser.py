"""A whole game on the Play page in a real browser, at the bots' normal pace: the learner's
moves by mouse and by key at a desktop size then a phone's, the coach turned on with its key,
no bot's face-down card in the page before the review, then the review with every card turned
over and a retry."""

from __future__ import annotations

import pytest

from tests.browser.live import DESKTOP, PHONE, screenshots_wanted, until, wait_idle

pytestmark = pytest.mark.browser

# A game the learner loses against the Calibrated bot (deal 0): the same clicks meet the same
# bot moves every time.
SCRIPT = ["Income: take 1", "Don't block", "Income: take 1", "Don't challenge", "Don't block",
          "Give up Duke", "Income: take 1", "Don't block", "Income: take 1", "Don't challenge",
          "Don't block"]  # then the last card goes without asking


def face_down_cards_of_others(page) -> list[str]:
    """data-card of every face-down card drawn on another player's seat."""
    return page.evaluate(
        """() => [...document.querySelectorAll('section.ct-seat:not(.ct-seat--me)')]
             .flatMap(s => [...s.querySelectorAll('.ct-seat__cards [data-card]')]
               .filter(c => !c.className.includes('ct-mini--revealed'))
               .map(c => c.dataset.card))""")


def move_buttons(page):
    return page.locator(".st-key-play_moves button:visible")


def wait_for_decision(page, label: str) -> None:
    from playwright.sync_api import expect

    expect(move_buttons(page).filter(has_text=label).first).to_be_visible(timeout=60_000)
    wait_idle(page, timeout=60_000)


SIZES = [("desktop", DESKTOP), ("phone", PHONE)]
# From this move on the game is played at a phone's size: one game covers both sizes.
PHONE_FROM = 6


def screenshot_at_every_size(page, path, now: dict[str, int], **options) -> None:
    """`path` with {name} filled in, once per size of `SIZES`; the page goes back to `now`.
    Without screenshots nothing is done (the sizes are for the images alone)."""
    if not screenshots_wanted():
        return
    for name, viewport in SIZES:
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)  # the layout settles at the new width
        page.screenshot(path=str(path).format(name=name), **options)
    page.set_viewport_size(now)
    page.wait_for_timeout(300)


def test_a_whole_game_then_its_review(browser, app_url, screenshots):
    """Why one game for both sizes: a whole game costs half a minute, and what differs
    between the sizes is the layout, not the game. The first moves are made at a desktop
    size, the rest and the review at a phone's; every screenshot is taken at both sizes."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport=DESKTOP)
    now = DESKTOP
    try:
        page.goto(f"{app_url}/play?rules=base&seats=you,calibrated&deal=0")
        page.get_by_role("button", name="Play this deal").click()
        for n, label in enumerate(SCRIPT):
            if n == PHONE_FROM:
                now = PHONE
                page.set_viewport_size(now)
            wait_for_decision(page, label)
            assert set(face_down_cards_of_others(page)) <= {"back"}, f"before move {n + 1}"
            if n == 3:  # a challenge decision: the coach, turned on by its key
                until(lambda: page.keyboard.press("h"),
                      lambda t: expect(page.get_by_text("The coach's pick")).to_be_visible(
                          timeout=max(t, 30_000)))
                assert page.get_by_text("The bot's chance that Ana is bluffing").count()
                screenshot_at_every_size(page, screenshots / "play-coach-{name}.png", now)
            buttons = move_buttons(page)
            labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
            index = next(i for i, text in enumerate(labels) if text.startswith(label))
            if n % 2 and index < 9:  # every other move by its key, 1 to 9
                page.keyboard.press(str(index + 1))
            else:
                buttons.nth(index).click()
            if n == 0:
                expect(page.get_by_text("is deciding")).to_be_visible(timeout=10_000)
        expect(page.get_by_role("heading", name="Review")).to_be_visible(timeout=90_000)
        wait_idle(page, timeout=60_000)
        expect(page.get_by_text("Ana won.")).to_be_visible()
        expect(page.get_by_text("graded decisions").first).to_be_visible()
        screenshot_at_every_size(page, screenshots / "play-review-{name}.png", now,
                                 full_page=True)

        assert set(face_down_cards_of_others(page)) <= {"back"}, "the review opens as you saw it"
        page.locator(".st-key-play_all_cards label").first.click()
        expect(page.locator("section.ct-seat:not(.ct-seat--me) .ct-mini--own").first
               ).to_be_attached(timeout=20_000)
        wait_idle(page)
        shown = [c for c in face_down_cards_of_others(page) if c != "back"]
        assert shown, "with every card turned over, Ana's hand is on the table"
        screenshot_at_every_size(page, screenshots / "play-all-cards-{name}.png", now)

        page.get_by_role("button", name="Retry this decision").first.click()
        wait_idle(page)
        box = page.locator(".st-key-play_retry_box")
        expect(box).to_be_visible()
        box.get_by_role("button").first.click()
        wait_idle(page)
        expect(box.get_by_text("of your chance to win", exact=False).first).to_be_visible()
        screenshot_at_every_size(page, screenshots / "play-retry-{name}.png", now)
    finally:
        page.close()


@pytest.mark.parametrize("name, viewport", [("desktop", DESKTOP), ("phone", PHONE)])
def test_a_game_under_house_rules_says_them_in_full_one_click_away(browser, app_url,
                                                                   screenshots, name,
                                                                   viewport):
    from playwright.sync_api import expect

    page = browser.new_page(viewport=viewport)
    try:
        page.goto(f"{app_url}/play?rules=base+pay_five(challengers=all)"
                  "&seats=you,rule,honest&deal=5")
        expect(page.get_by_text("This link deals a game")).to_be_visible(timeout=30_000)
        page.get_by_role("button", name="Play this deal").click()
        expect(move_buttons(page).first).to_be_visible(timeout=60_000)
        wait_idle(page, timeout=60_000)
        expect(page.get_by_text("House rules: 4. Paying instead of losing a card")).to_be_visible()
        page.get_by_role("button", name="Rules").click()
        expect(page.get_by_text("Several challengers.", exact=False)).to_be_visible()
        expect(page.get_by_role("link", name="Every rule of this game")).to_be_visible()
        page.screenshot(path=screenshots / f"play-house-rules-{name}.png")
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        page.close()
