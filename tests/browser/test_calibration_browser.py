"""The Calibration page in chromium on a phone (390×844) and a laptop (1366×768): the opening
sentences are the first thing on screen, every chart fits the width, the expert figures open
from their expander; screenshots go to artifacts/screenshots/calibration-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.live import serve_app, settle_for_screenshot, wait_idle
from tests.helpers import sample_answers
from tests.test_calibration_text import TWENTY_ONE
from trainer.learners.storage import Store

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
FEW, MANY = "cal-few", "cal-many"


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[str]:
    """A server of its own, on a database holding a few answers for one learner and many
    for another, written through the store the app reads (as the quiz would have)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('calibration') / 'answers.db'}"
    store = Store(url)
    store.save_many(a.model_copy(update={"learner": FEW, "answer_id": f"few-{a.answer_id}"})
                    for a in TWENTY_ONE)
    store.save_many(sample_answers(MANY, 200))
    with serve_app("calibration-layout", env={"COUP_TRAINER_DB_URL": url}) as base:
        yield base


def open_calibration(browser, app: str, learner: str, viewport: dict):
    from playwright.sync_api import expect

    page = browser.new_page(viewport=viewport)
    page.goto(f"{app}/calibration?learner={learner}")
    lead = page.locator(".st-key-calibration_lead")
    expect(lead).to_be_visible(timeout=30_000)
    wait_idle(page)
    expect(page.get_by_test_id("stVegaLiteChart").first).to_be_visible(timeout=10_000)
    page.wait_for_timeout(1000)  # Vega draws after the element appears
    return page, lead


def overflowing_charts(page, width: int) -> list[str]:
    """Each chart whose drawing reaches past the window's right edge, as "i: right px"."""
    rights = page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid="stVegaLiteChart"] svg, [data-testid="stVegaLiteChart"] canvas')]
        .map(e => e.getBoundingClientRect().right)""")
    return [f"{i}: {r:.0f}" for i, r in enumerate(rights) if r > width + 0.5]


SIZES = (("phone", PHONE), ("desktop", LAPTOP))


def test_many_answers_open_with_sentences_and_every_chart_fits(browser, app, screenshots):
    """The page is opened once and measured at both sizes: the window is resized (Vega draws
    its charts again at the new width), the server's page is the same."""
    from playwright.sync_api import expect

    page, lead = open_calibration(browser, app, MANY, PHONE)
    try:
        expect(lead).to_contain_text("You judged 200 claims.")
        for name, viewport in SIZES:
            page.set_viewport_size(viewport)
            page.wait_for_timeout(1000)
            box = lead.bounding_box()
            assert box is not None and box["y"] + 40 < viewport["height"], (name, box)
            page.screenshot(path=str(screenshots / f"calibration-top-{name}.png"))

            # Streamlit scrolls an inner container, so a tall window shows the whole page.
            page.set_viewport_size({"width": viewport["width"], "height": 4600})
            page.wait_for_timeout(1500)
            assert len(page.get_by_test_id("stVegaLiteChart").all()) == 6
            assert overflowing_charts(page, viewport["width"]) == [], name
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= viewport["width"], (name, wide)
            page.screenshot(path=str(screenshots / f"calibration-many-{name}.png"))

            page.get_by_text(re.compile("^Expert figures")).click()
            expert = page.get_by_test_id("stExpander").filter(has_text="Expert figures")
            expect(expert.get_by_text(re.compile(r"^Brier score: 0\.\d{3}"))).to_be_visible()
            settle_for_screenshot(page, 800)
            expert.screenshot(path=str(screenshots / f"calibration-expert-{name}.png"))
            page.get_by_text(re.compile("^Expert figures")).click()  # closed again
            expect(expert.get_by_text(re.compile(r"^Brier score: 0\.\d{3}"))).to_be_hidden()
    finally:
        page.close()


def test_a_few_answers_say_it_is_too_early(browser, app, screenshots):
    from playwright.sync_api import expect

    page, lead = open_calibration(browser, app, FEW, PHONE)
    try:
        expect(lead).to_contain_text(
            "You said “likely a bluff” (over 50%) 12 times; 7 were bluffs.")
        expect(lead).to_contain_text("It is too early to say whether you are overconfident")
        for name, viewport in SIZES:
            page.set_viewport_size({"width": viewport["width"], "height": 1700})
            page.wait_for_timeout(1200)
            assert overflowing_charts(page, viewport["width"]) == [], name
            page.screenshot(path=str(screenshots / f"calibration-few-{name}.png"))
    finally:
        page.close()
