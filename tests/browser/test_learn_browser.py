"""The Learn page in a real browser: step through the rulebook's example play to the end,
answer a prompt wrongly then rightly, go back; nothing hidden reaches the page."""

from __future__ import annotations

import re

import pytest

from tests.browser.live import DESKTOP, PHONE, until, wait_idle

pytestmark = pytest.mark.browser

EXAMPLE = "rulebook-example-play"


def _caption_step(page) -> int:
    text = page.get_by_text(re.compile(r"step \d+ of \d+")).first.inner_text()
    return int(re.search(r"step (\d+) of", text).group(1))


def _opponent_cards(page, learner: str) -> list[tuple[str, str]]:
    """(seat, data-card) for every card drawn on another player's seat."""
    return page.evaluate(
        """(me) => [...document.querySelectorAll('section.ct-seat')]
             .filter(s => s.dataset.seat !== me)
             .flatMap(s => [...s.querySelectorAll('[data-card]')]
               .map(c => [s.dataset.seat, c.dataset.card, c.className]))""", learner)


def _answer(page, label: str) -> None:
    """Pick an answer and wait until Next is enabled. A click that lands while the page is
    still rerunning can be lost on a busy machine; answering twice is harmless."""
    from playwright.sync_api import expect

    next_button = page.get_by_role("button", name="Next", exact=True)
    option = page.get_by_role("button", name=label, exact=True)
    until(lambda: option.click() if option.count() else None,
          lambda t: expect(next_button).to_be_enabled(timeout=t), tries=4)
    expect(page.get_by_text(re.compile("^Right:"))).to_be_visible()


@pytest.mark.parametrize("name, viewport", [("desktop", DESKTOP), ("phone", PHONE)])
def test_step_through_the_example_play(browser, app_url, screenshots, name, viewport):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    page = browser.new_page(viewport=viewport)
    try:
        page.goto(f"{app_url}/")
        expect(page.get_by_role("heading", name="Learn Coup", exact=True)).to_be_visible(
            timeout=20_000)
        page.wait_for_timeout(300)
        page.screenshot(path=str(screenshots / f"learn-library-{name}.png"))
        page.locator(".st-key-open_" + EXAMPLE + " button").click()
        expect(page.get_by_role("heading", name="The rulebook's example game")).to_be_visible()
        expect(page.locator("section.ct-seat")).to_have_count(3)
        wrong_seen = False
        for _ in range(60):
            wait_idle(page)
            step = _caption_step(page)
            # The rerun is complete once the timeline marks this step.
            expect(page.locator(f'.st-key-jump_{step} [data-testid="stBaseButton-primary"]')
                   ).to_be_visible()
            for seat, card, cls in _opponent_cards(page, "Cris"):
                assert card == "back" or "ct-mini--revealed" in cls, (step, seat, card)
            if step == 24:
                break
            next_button = page.get_by_role("button", name="Next", exact=True)
            if next_button.is_disabled():  # a question first
                if not wrong_seen:
                    page.get_by_role("button", name="Cris: income", exact=True).click()
                    expect(page.get_by_text("Not quite.")).to_be_visible()
                    if name == "desktop":
                        page.screenshot(path=str(screenshots / f"learn-wrong-{name}.png"))
                    wrong_seen = True
                correct = {19: "Cris claims Captain: steal Ely", 22: "Cris challenges"}[step]
                _answer(page, correct)
                continue  # look at the page again: a rerun may still be on its way
            try:
                next_button.click(timeout=5_000)
            except PlaywrightTimeout:
                continue  # the button turned out to wait for an answer: look again
            expect(page.get_by_text(f"step {step + 1} of 24")).to_be_visible()
        assert _caption_step(page) == 24 and wrong_seen
        expect(page.get_by_text(re.compile("Lesson complete"))).to_be_visible()
        page.wait_for_timeout(300)
        page.screenshot(path=str(screenshots / f"learn-end-{name}.png"))
        page.get_by_role("button", name="Back", exact=True).click()
        expect(page.get_by_text("step 23 of 24")).to_be_visible()
        assert "step=23" in page.url and "lesson=" + EXAMPLE in page.url
        page.goto(f"{app_url}/?lesson={EXAMPLE}&step=14")
        expect(page.get_by_text("Step 14: Ely claims Assassin: assassinate Maria")).to_be_visible(
            timeout=20_000)
        page.wait_for_timeout(300)
        page.screenshot(path=str(screenshots / f"learn-step-{name}.png"))
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        page.close()


def test_large_type_for_a_room_survives_opening_a_lesson(browser, app_url, screenshots):
    from playwright.sync_api import expect

    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(f"{app_url}/?large_type=true")
        expect(page.get_by_role("heading", name="Learn Coup", exact=True)).to_be_visible(
            timeout=20_000)
        page.locator(".st-key-open_first-block button").click()
        expect(page.get_by_role("heading", name="Blocks: the Contessa stops an Assassin")
               ).to_be_visible()
        root = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
        assert root > 18, f"large type was lost (root font {root}px)"
        assert "large_type=true" in page.url and "lesson=first-block" in page.url
        page.wait_for_timeout(300)
        page.screenshot(path=str(screenshots / "learn-projector.png"))
    finally:
        page.close()
