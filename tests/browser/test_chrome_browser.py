"""What every page shares, in a real browser: a returning visitor is the same learner (the
cookie), another browser is not, "Not you?" starts afresh; large type from the address on every
page and across page switches, nothing clipped at 1280×720; the labelled menu on a phone; the
quiz's → and Space keys; screenshots of the Quiz, Rules and Calibration pages."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator

import pytest

from tests.browser.live import (
    DESKTOP,
    PHONE,
    cookie,
    serve_app,
    settle_for_screenshot,
    until,
    wait_idle,
)
from tests.browser.test_quiz_browser import GRADE, options, wait_for_question
from tests.helpers import sample_answers
from trainer.learners.identity import COOKIE, COOKIE_MAX_AGE
from trainer.learners.storage import Store

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1280, "height": 720}
PAGES = {"Learn": "/", "Quiz": "/quiz", "Calibration": "/calibration", "Rules": "/rules"}
HEADING = {"Learn": "Learn Coup", "Quiz": "Quiz", "Calibration": "Calibration",
           "Rules": "Rules of Coup"}
ANN = "b-" + "5a" * 16  # a learner whose browser already holds its cookie


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[str]:
    """A server of its own, on a database where ANN (named "Ann") has 60 answers."""
    url = f"sqlite:///{tmp_path_factory.mktemp('chrome') / 'answers.db'}"
    store = Store(url)
    store.save_many(a.model_copy(update={"answer_id": f"ann-{i:05d}"})
                    for i, a in enumerate(sample_answers(ANN, 60)))
    store.set_name(ANN, "Ann")
    store.close()
    with serve_app("chrome", env={"COUP_TRAINER_DB_URL": url}) as base:
        yield base


def no_error(page) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0


def answering_as(page) -> str:
    """The learner's name in the line above the quiz."""
    from playwright.sync_api import expect

    line = page.get_by_text(re.compile(r"^Answering as "))
    expect(line).to_be_visible(timeout=20_000)
    found = re.match(r"Answering as (.+?)(\.|,)", line.inner_text())
    assert found, line.inner_text()
    return found.group(1)


def answered(page) -> int:
    from playwright.sync_api import expect

    status = page.get_by_text(re.compile(r"^\d+ answered"))
    expect(status).to_be_visible(timeout=20_000)
    return int(status.inner_text().split()[0])


def root_font(page, wanted: float | None = None) -> float:
    """The root font size in px; with `wanted`, once it is that (the stylesheet may land a
    moment after the page's first elements), or whatever it is after 10 s."""
    js = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
    if wanted is not None:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        with contextlib.suppress(PlaywrightTimeout):  # the caller's assert says what it found
            page.wait_for_function(f"{js} === {wanted}", timeout=10_000)
    return page.evaluate(js)


def nav_to(page, title: str) -> None:
    """Click a page in the top navigation bar, as a visitor would."""
    from playwright.sync_api import expect

    page.get_by_test_id("stTopNavLink").filter(has_text=title).click()
    expect(page.get_by_role("heading", name=HEADING[title]).first).to_be_visible(
        timeout=20_000)
    wait_idle(page)


# ------------------------------------------------------------------------------ identity
def test_a_returning_visitor_is_the_same_learner_and_another_browser_is_not(browser, app):
    from playwright.sync_api import expect

    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{app}/quiz")
        wait_for_question(page)
        me = answering_as(page)
        assert re.fullmatch(r"Guest [0-9A-F]{4}", me)
        expect(page.get_by_text("Your answers are kept in this browser.").first).to_be_visible()
        assert answered(page) == 0
        until(lambda: page.keyboard.press("1"),
              lambda t: expect(page.get_by_text(GRADE)).to_be_visible(timeout=t))
        expect(page.get_by_text(re.compile(r"^1 answered"))).to_be_visible(timeout=10_000)
        mine = cookie(context, COOKIE)
        assert re.fullmatch(r"b-[0-9a-f]{32}", mine["value"])
        assert (mine["path"], mine["sameSite"]) == ("/", "Lax")
        assert mine["expires"] > time.time() + COOKIE_MAX_AGE - 3600
        page.close()

        # A fresh page of the same browser, without anything in the address.
        again = context.new_page()
        again.goto(f"{app}/quiz")
        wait_for_question(again)
        assert answering_as(again) == me and answered(again) == 1
        assert "learner=" not in again.url and mine["value"] not in again.inner_text("body")
        nav_to(again, "Calibration")
        expect(again.get_by_text(f"Answers of {me}.", exact=False).first).to_be_visible()
        no_error(again)

        # Another browser (a new context) is another learner.
        other_context = browser.new_context(viewport=DESKTOP)
        try:
            other = other_context.new_page()
            other.goto(f"{app}/quiz")
            wait_for_question(other)
            assert answering_as(other) != me and answered(other) == 0
        finally:
            other_context.close()

        # "Not you?" starts a new learner, and the browser remembers the new one.
        nav_to(again, "Quiz")
        wait_for_question(again)
        again.get_by_role("button", name="Not you?").click()
        again.get_by_role("button", name="Start as a new learner").click()
        expect(again.get_by_text(re.compile(r"^0 answered"))).to_be_visible(timeout=20_000)
        fresh = answering_as(again)
        assert fresh != me
        wait_idle(again)
        later = context.new_page()
        later.goto(f"{app}/quiz")
        wait_for_question(later)
        assert answering_as(later) == fresh and answered(later) == 0
        assert re.fullmatch(r"b-[0-9a-f]{32}",
                            cookie(context, COOKIE, lambda v: v != mine["value"])["value"])
    finally:
        context.close()


def test_a_cookie_names_its_learner_and_a_bad_one_starts_afresh_with_a_note(browser, app):
    from playwright.sync_api import expect

    context = browser.new_context(viewport=DESKTOP)
    try:
        context.add_cookies([{"name": COOKIE, "value": ANN, "url": app}])
        page = context.new_page()
        page.goto(f"{app}/quiz")
        wait_for_question(page)
        assert answering_as(page) == "Ann" and answered(page) == 60
        wait_idle(page)  # a visit writes the cookie again: its 400 days start afresh
        renewed = next(c for c in context.cookies() if c["name"] == COOKIE)
        assert renewed["value"] == ANN and renewed["expires"] > time.time() + COOKIE_MAX_AGE - 3600
        # Typing Ann's name in another browser shows nothing of hers.
        stranger = browser.new_context(viewport=DESKTOP)
        try:
            other = stranger.new_page()
            other.goto(f"{app}/quiz?learner=Ann")
            wait_for_question(other)
            expect(other.get_by_text("No answers are saved under").first).to_be_visible()
            other.get_by_role("button", name="Your name").click()
            other.get_by_role("textbox", name="Name").fill("Ann")
            other.get_by_role("button", name="Use this name").click()
            expect(other.get_by_text(re.compile(r"^Answering as Ann\."))).to_be_visible(
                timeout=20_000)
            assert answered(other) == 0
            other.goto(f"{app}/quiz?learner={ANN}")  # even Ann's id in a link opens nothing
            wait_for_question(other)
            expect(other.get_by_text("names a learner of another browser").first
                   ).to_be_visible()
            assert answered(other) == 0
        finally:
            stranger.close()
    finally:
        context.close()

    broken = browser.new_context(viewport=DESKTOP)
    try:
        broken.add_cookies([{"name": COOKIE, "value": "not-an-id%3Cscript%3E", "url": app}])
        page = broken.new_page()
        page.goto(f"{app}/quiz")
        wait_for_question(page)
        expect(page.get_by_text("learner cookie could not be read").first).to_be_visible()
        assert answered(page) == 0
        no_error(page)
        wait_idle(page)
        value = cookie(broken, COOKIE, lambda v: v != "not-an-id%3Cscript%3E")["value"]
        assert re.fullmatch(r"b-[0-9a-f]{32}", value)
    finally:
        broken.close()


# ------------------------------------------------------------------------------ large type
def overflow(page) -> list[str]:
    """What is wider than its box on the page: the main block, and any element that scrolls
    or clips sideways (Streamlit's own hidden helpers, under 40 px, left out)."""
    return page.evaluate("""() => {
        const out = [];
        const main = document.querySelector('[data-testid="stMainBlockContainer"]');
        if (main.scrollWidth > main.clientWidth + 1)
            out.push(`main block ${main.scrollWidth} > ${main.clientWidth}`);
        for (const el of main.querySelectorAll('*')) {
            const s = getComputedStyle(el);
            if (s.overflowX === 'visible' || el.clientWidth < 40) continue;
            if (el.closest('[data-testid="stDataFrame"], [data-testid="stVegaLiteChart"]'))
                continue;  // grids and charts scroll by design
            if (el.scrollWidth > el.clientWidth + 1)
                out.push(`${el.tagName}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`);
        }
        const r = main.getBoundingClientRect();
        if (r.right > window.innerWidth + 1) out.push(`main ends at ${r.right}`);
        return out;
    }""")


def test_large_type_from_the_address_holds_on_every_page_and_clips_nothing(browser, app,
                                                                           screenshots):
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PROJECTOR)
    context.add_cookies([{"name": COOKIE, "value": ANN, "url": app}])
    page = context.new_page()
    try:
        for title, path in PAGES.items():
            page.goto(f"{app}{path}?large=1")
            expect(page.get_by_role("heading", name=HEADING[title]).first).to_be_visible(
                timeout=30_000)
            wait_idle(page)
            page.wait_for_timeout(800)  # charts and fonts settle
            assert root_font(page, 21) == 21, title
            expect(page.get_by_role("switch", name="Large type")).to_be_checked()
            assert overflow(page) == [], (title, overflow(page))
            no_error(page)
            if title != "Learn":
                page.screenshot(path=str(screenshots / f"chrome-{title.lower()}-large-1280.png"))

        # Rules: the actions table fits at every projector width, not only at 1280.
        for width in (1280, 1440, 1600, 1920):
            page.set_viewport_size({"width": width, "height": 720})
            page.wait_for_timeout(400)
            fits = page.evaluate("""() => { const t = document.querySelector('.ct-tablewrap');
                return [t.scrollWidth, t.clientWidth]; }""")
            assert fits[0] <= fits[1], (width, fits)
        page.set_viewport_size(PROJECTOR)

        # Switching pages through the navigation bar keeps large type, and so does a reload.
        for title in ("Quiz", "Calibration", "Learn", "Rules"):
            nav_to(page, title)
            assert "large=1" in page.url and root_font(page, 21) == 21, (title, page.url)
        page.reload()
        expect(page.get_by_role("heading", name="Rules of Coup")).to_be_visible(timeout=20_000)
        assert "large=1" in page.url and root_font(page, 21) == 21

        # The switch turns it off, for the following pages too.
        page.locator(".st-key-ct_large label").click()
        expect(page).not_to_have_url(re.compile(r"large="), timeout=10_000)
        assert root_font(page, 16) == 16
        nav_to(page, "Quiz")
        assert root_font(page, 16) == 16 and "large=" not in page.url
    finally:
        context.close()


def test_an_old_large_type_link_still_opens_in_large_type(browser, app):
    from playwright.sync_api import expect

    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(f"{app}/rules?large_type=true&players=7")
        expect(page.get_by_text("4 in the Court deck").first).to_be_visible(timeout=30_000)
        wait_idle(page)
        assert root_font(page, 21) == 21 and "large=1" in page.url
    finally:
        page.close()


# ------------------------------------------------------------------------------ the menu
def test_a_phone_has_a_labelled_menu_that_reaches_every_page(browser, app, screenshots):
    from playwright.sync_api import expect

    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{app}/rules")
        expect(page.get_by_role("heading", name="Rules of Coup")).to_be_visible(timeout=30_000)
        menu = page.get_by_role("button", name="Menu", exact=True)
        expect(menu).to_be_visible()
        expect(page.get_by_test_id("stExpandSidebarButton")).to_be_hidden()  # the bare ">>"
        box = menu.bounding_box()
        assert box and box["y"] < 60 and box["x"] < 60, box  # where a menu is looked for
        menu.click()
        expect(page.get_by_test_id("stPopoverBody")).to_be_visible()
        settle_for_screenshot(page, 400)
        page.screenshot(path=str(screenshots / "chrome-menu-open-phone.png"))
        for title in ("Quiz", "Calibration", "Learn", "Rules"):
            panel = page.get_by_test_id("stPopoverBody")
            if not panel.is_visible():
                menu.click()
            link = panel.get_by_role("link", name=title)
            expect(link).to_be_visible()
            link.click()
            expect(page.get_by_role("heading", name=HEADING[title]).first).to_be_visible(
                timeout=20_000)
            wait_idle(page)
            no_error(page)
    finally:
        page.close()

    page = browser.new_page(viewport=LAPTOP)
    try:
        page.goto(f"{app}/rules")
        expect(page.get_by_role("heading", name="Rules of Coup")).to_be_visible(timeout=30_000)
        expect(page.get_by_test_id("stTopNavLink").filter(has_text="Quiz")).to_be_visible()
        expect(page.get_by_role("button", name="Menu", exact=True)).to_be_hidden()
    finally:
        page.close()


# ------------------------------------------------------------------------------ quiz keys
def sent_frames(page):
    """Messages the page sends the server from now on (a rerun request is one each)."""
    sent: list[int] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(len(f))))
    return sent


def test_right_arrow_and_space_go_to_the_next_item_once(browser, app):
    from playwright.sync_api import expect

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    sent = sent_frames(page)
    try:
        page.goto(f"{app}/quiz")
        wait_for_question(page)
        feedback = page.locator(".st-key-quiz_feedback")
        for n, key in enumerate(("ArrowRight", "Space", "Space-on-button"), start=1):
            until(lambda: page.keyboard.press("1"),
                  lambda t: expect(page.get_by_text(GRADE)).to_be_visible(timeout=t))
            wait_idle(page)
            expect(page.get_by_text(re.compile(rf"^{n} answered"))).to_be_visible()
            if key == "Space-on-button":
                # A focused button takes Space itself: the shortcut must not fire again.
                page.get_by_role("button", name=re.compile("Next item")).focus()
                before = len(sent)
                page.keyboard.press("Space")
                expect(feedback).to_have_count(0, timeout=10_000)
                wait_idle(page)
                page.wait_for_timeout(500)
                assert len(sent) - before == 1, f"{len(sent) - before} messages for one Space"
            else:
                until(lambda k=key: page.keyboard.press(k),
                      lambda t: expect(feedback).to_have_count(0, timeout=t))
            wait_for_question(page)
            expect(options(page).first).to_be_enabled()
        no_error(page)
    finally:
        context.close()


# ------------------------------------------------------------------------------ screenshots
def test_screenshots_of_the_quiz_rules_and_calibration(browser, app, screenshots):
    """Each page is opened once and measured at a phone's and a laptop's size: the window is
    resized, not the page loaded again (the layout follows the window; the server's work is
    the same at both)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": COOKIE, "value": ANN, "url": app}])
    page = context.new_page()
    try:
        for title in ("Quiz", "Rules", "Calibration"):
            page.set_viewport_size(PHONE)
            page.goto(f"{app}{PAGES[title]}")
            expect(page.get_by_role("heading", name=HEADING[title]).first).to_be_visible(
                timeout=30_000)
            if title == "Quiz":
                wait_for_question(page)
            wait_idle(page)
            for name, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
                page.set_viewport_size(viewport)
                page.wait_for_timeout(1200)  # charts draw again at the new width
                assert overflow(page) == [], (title, name, overflow(page))
                no_error(page)
                page.screenshot(path=str(screenshots / f"chrome-{title.lower()}-{name}.png"))
    finally:
        context.close()
