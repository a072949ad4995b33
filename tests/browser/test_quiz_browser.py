"""The Quiz in a real browser: ten items answered with the keyboard and the mouse at a desktop
size then a phone's, feedback after each, nothing hidden on the table before answering; then
the Calibration page."""

from __future__ import annotations

import re

import pytest

from tests.browser.live import (
    DESKTOP,
    PHONE,
    screenshots_wanted,
    settle_for_screenshot,
    until,
    wait_idle,
)

pytestmark = pytest.mark.browser

# A grade, or what a range depends on when the evidence cannot settle it
# ("Depends on Ben: … · ", "Too close to call · ").
GRADE = re.compile(r"^(Best move|Good|Inaccuracy|Mistake|Blunder|Depends on [^·]+"
                   r"|Sound however often [^·]+|Too close to call) · ")


def hidden_cards_of_others(page) -> list[str]:
    """data-card of every face-down card drawn on another player's seat."""
    return page.evaluate(
        """() => [...document.querySelectorAll('section.ct-seat:not(.ct-seat--me)')]
             .flatMap(s => [...s.querySelectorAll('.ct-seat__cards [data-card]')]
               .filter(c => !c.className.includes('ct-mini--revealed'))
               .map(c => c.dataset.card))""")


def options(page):
    card = page.locator(".st-key-quiz_card")
    return card.get_by_role("button").filter(has_not_text=re.compile("%$"))


def wait_for_question(page) -> None:
    from playwright.sync_api import expect

    expect(page.locator(".st-key-quiz_card")).to_be_visible(timeout=20_000)
    expect(options(page).first).to_be_enabled(timeout=10_000)
    wait_idle(page)  # the slider may still be on its way


SIZES = [("desktop", DESKTOP), ("phone", PHONE)]
# From this item on the quiz is answered at a phone's size: one learner covers both sizes.
PHONE_FROM = 5


def test_ten_items_then_the_calibration_page(browser, app_url, screenshots):
    """Why ten items for both sizes rather than ten for each: what differs between the sizes
    is the layout, so the first five items are answered at a desktop size and the last five
    at a phone's, and the screenshots are taken at both sizes."""
    from playwright.sync_api import expect

    def at_every_size(shoot) -> None:
        """Screenshots at both sizes (without screenshots, nothing)."""
        if not screenshots_wanted():
            return
        for name, viewport in SIZES:
            page.set_viewport_size(viewport)
            page.wait_for_timeout(300)  # the layout settles at the new width
            shoot(name, viewport)
        page.set_viewport_size(now)

    page = browser.new_page(viewport=DESKTOP)  # a browser of its own: a new learner
    now = DESKTOP
    try:
        page.goto(f"{app_url}/quiz")
        wait_for_question(page)
        judged = 0
        for n in range(10):
            if n == PHONE_FROM:
                now = PHONE
                page.set_viewport_size(now)
            wait_for_question(page)
            assert set(hidden_cards_of_others(page)) <= {"back"}
            assert not page.get_by_text("The truth.").count()
            slider = page.get_by_role("slider")
            said = None
            if slider.count():
                until(lambda: page.keyboard.press("k"),  # +5%
                      lambda t, s=slider: expect(s).not_to_have_value("50", timeout=t))
                said = slider.input_value()
            if n == 0:
                at_every_size(lambda name, _: page.screenshot(
                    path=str(screenshots / f"quiz-question-{name}.png")))
            grade = page.get_by_text(GRADE)
            if n % 2 == 0:  # the first answer, by its shortcut
                until(lambda: page.keyboard.press("1"),
                      lambda t, g=grade: expect(g).to_be_visible(timeout=t))
            else:
                until(lambda: options(page).last.click(),
                      lambda t, g=grade: expect(g).to_be_visible(timeout=t))
            if said is not None:
                expect(page.get_by_text(f"you said {said}%")).to_be_visible()
            # A judged claim, read from the feedback rather than from the slider's presence
            # before the answer: on a busy machine the slider may draw just after that look
            # (the answer then goes in at 50%, and it still counts as judged).
            wait_idle(page)  # the feedback drawn whole
            judged += bool(page.get_by_text(re.compile(r"you said \d+%")).count())
            if n == 0:
                settle_for_screenshot(page, 900)  # the options table draws on a canvas
                at_every_size(lambda name, _: page.locator(".st-key-quiz_feedback").screenshot(
                    path=str(screenshots / f"quiz-feedback-{name}.png")))
            feedback = page.locator(".st-key-quiz_feedback")
            until(lambda: page.get_by_role("button", name=re.compile("Next item")).click(),
                  lambda t, f=feedback: expect(f).to_have_count(0, timeout=t))
        expect(page.get_by_text(re.compile(r"^10 answered"))).to_be_visible(timeout=10_000)

        page.goto(f"{app_url}/calibration")  # the same browser: the same learner
        expect(page.get_by_role("heading", name="Calibration")).to_be_visible(timeout=20_000)
        opening = (f"You judged {judged} claim" if judged
                   else "None of your 10 answers judged a claim yet")
        expect(page.locator(".st-key-calibration_lead")).to_contain_text(opening,
                                                                          timeout=10_000)
        expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible(timeout=20_000)
        settle_for_screenshot(page, 800)

        def tall(name: str, viewport: dict[str, int]) -> None:
            page.set_viewport_size({"width": viewport["width"], "height": 2600})
            page.wait_for_timeout(500)
            page.screenshot(path=str(screenshots / f"calibration-{name}.png"))

        at_every_size(tall)
    finally:
        page.close()


def test_clicking_a_reliability_bin_lists_its_answers(browser, screenshots, tmp_path):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    from tests.browser.live import serve_app
    from tests.test_quiz_page import seed_answers

    url = f"sqlite:///{tmp_path / 'answers.db'}"
    seed_answers(url, "cal", 200)
    with serve_app("calibration", env={"COUP_TRAINER_DB_URL": url}) as app:
        page = browser.new_page(viewport={"width": 1280, "height": 3000})
        try:
            page.goto(f"{app}/calibration?learner=cal")
            chart = page.get_by_test_id("stVegaLiteChart").first
            expect(page.locator(".st-key-calibration_lead")).to_contain_text(
                "You judged 200 claims.", timeout=20_000)
            points = chart.locator('path[aria-label*="who: you; chances of a bluff given: "]')
            expect(points.first).to_be_visible(timeout=20_000)
            # A point of yours that the bot's point for the same bin does not cover.
            labels = points.evaluate_all("ps => ps.map(p => p.getAttribute('aria-label'))")
            free = None
            for i in range(len(labels)):
                try:
                    points.nth(i).click(trial=True, timeout=1_000)
                except PlaywrightTimeout:
                    continue
                free = i
                break
            assert free is not None, labels
            low = re.search(r"chances of a bluff given: (\d+)–(\d+)%", labels[free])
            points.nth(free).click()
            listing = page.get_by_text(re.compile(
                rf"Answers where you said {low.group(1)}%–{low.group(2)}% \(\d+\)"))
            expect(listing).to_be_visible(timeout=10_000)
            settle_for_screenshot(page, 1200)
            page.screenshot(path=str(screenshots / "calibration-bin-desktop.png"))
        finally:
            page.close()


SHOTS = "/tmp/shots-quiz"  # screenshots of this test, when they are asked for
# The Quiz's scrolling box: Streamlit scrolls its main area, not the window.
SCROLLED = """() => [window.scrollY,
                     document.querySelector('[data-testid="stMain"]')?.scrollTop ?? 0]"""
TOOLTIPS = """() => [...document.querySelectorAll(
        '[data-testid="stTooltipContent"], [role="tooltip"]')]
    .map(e => e.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0)
    .map(r => ({x: r.x, y: r.y, width: r.width, height: r.height}))"""


def _overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1366, "height": 768}],
                         ids=["phone", "laptop"])
def test_nothing_covers_the_grade_and_the_next_item_opens_at_the_top(
        browser, app_url, viewport):
    """After an answer the grade is in view and the pointer is near "Next item": a hover
    tooltip on it sat over the grade and what is said with it. After Next, the next item
    opened where the last one's grade had been scrolled to, its top out of sight."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport=viewport)
    try:
        page.goto(f"{app_url}/quiz")
        for n in range(2):
            wait_for_question(page)
            if n:  # the item after Next: its top, the table's first, in view
                page.wait_for_timeout(800)  # anything that would still scroll has done so
                assert page.evaluate(SCROLLED) == [0, 0]
                table = page.locator(".ct-table").first.bounding_box()
                assert table is not None and 0 <= table["y"] < viewport["height"], table
                if screenshots_wanted():
                    page.screenshot(path=f"{SHOTS}/quiz-next-item-{viewport['width']}.png")
                break
            grade = page.get_by_text(GRADE)
            until(lambda: page.keyboard.press("1"),
                  lambda t, g=grade: expect(g).to_be_visible(timeout=t))
            wait_idle(page)
            page.wait_for_timeout(800)  # the grade's smooth scroll into view
            upper = page.locator(".st-key-quiz_grade").bounding_box()
            next_item = page.get_by_role("button", name=re.compile("^Next item")).first
            lower = next_item.bounding_box()
            assert upper is not None and lower is not None
            # the grade and what is said with it, down to the Next button
            said = {**upper, "height": lower["y"] - upper["y"]}
            next_item.hover()
            page.wait_for_timeout(1_200)  # a tooltip shows after a short hover
            if screenshots_wanted():
                page.screenshot(path=f"{SHOTS}/quiz-graded-hover-{viewport['width']}.png")
            covering = [t for t in page.evaluate(TOOLTIPS) if _overlap(t, said)]
            assert covering == [], (said, covering)
            until(lambda b=next_item: b.click(),
                  lambda t: expect(page.locator(".st-key-quiz_feedback")).to_have_count(
                      0, timeout=t))
    finally:
        page.close()
