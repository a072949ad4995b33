"""The visitor's language in a real browser: a Filipino phone opens in Filipino, the Menu's
switch changes it and the cookie keeps it; a link's `?lang=` wins; two browsers on one server
each keep their own language."""

from __future__ import annotations

import re

import pytest

from tests.browser.live import DESKTOP, PHONE, cookie, settle_for_screenshot, wait_idle

pytestmark = pytest.mark.browser


def large_label(page) -> str:
    return page.locator(".st-key-ct_large label").inner_text().strip()


def opened(page, url: str, label: str) -> None:
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.locator(".st-key-ct_large label")).to_have_text(label, timeout=30_000)
    wait_idle(page)


def test_a_filipino_phone_opens_in_filipino_and_keeps_a_switch_to_english(browser, app_url):
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, locale="fil-PH")
    try:
        page = context.new_page()
        opened(page, f"{app_url}/rules", "Malaking titik")
        assert "lang=fil" in page.url
        assert page.evaluate("document.documentElement.lang") == "fil"
        # On a phone the switch is in the Menu, beside the pages (in Filipino too).
        page.get_by_test_id("stPopover").get_by_role("button", name="Menu").click()
        expect(page.get_by_test_id("stPopoverBody").get_by_text("Matuto")).to_be_visible()
        page.get_by_test_id("stPopoverBody").get_by_text("English", exact=True).click()
        expect(page.locator(".st-key-ct_large label")).to_have_text("Large type",
                                                                   timeout=20_000)
        expect(page).not_to_have_url(re.compile(r"lang="), timeout=10_000)
        kept = cookie(context, "ct_lang", lambda value: value == "en")
        assert (kept["path"], kept["sameSite"]) == ("/", "Lax")
        # The choice outlasts a reload, against the phone's own language.
        page.reload()
        expect(page.locator(".st-key-ct_large label")).to_have_text("Large type",
                                                                   timeout=30_000)
        assert page.evaluate("document.documentElement.lang") == "en"
    finally:
        context.close()


def test_a_link_in_filipino_opens_in_filipino_in_an_english_browser(browser, app_url):
    from playwright.sync_api import expect

    english = browser.new_context(viewport=DESKTOP, locale="en-US")
    filipino = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        mine = english.new_page()
        theirs = filipino.new_page()
        opened(theirs, f"{app_url}/rules?lang=fil", "Malaking titik")
        opened(mine, f"{app_url}/rules", "Large type")
        # The header's switch on a wide screen; the other visitor is not touched.
        expect(theirs.locator(".st-key-ct_language input")).to_have_value("Filipino")
        nav = theirs.get_by_test_id("stTopNavLink").filter(has_text="Matuto")
        expect(nav).to_be_visible()
        mine.reload()
        expect(mine.locator(".st-key-ct_large label")).to_have_text("Large type",
                                                                   timeout=30_000)
        assert large_label(theirs) == "Malaking titik"
    finally:
        english.close()
        filipino.close()


PAGES = ("learn", "quiz", "calibration", "endgame", "play", "rules", "kiosk", "room")
LAPTOP = {"width": 1366, "height": 768}


def header_overlaps(page) -> list[str]:
    """Pairs of the header's controls (the Menu, the language switch, large type, Streamlit's
    own menu) drawn over each other: a longer Filipino label must push, never cover."""
    return page.evaluate("""() => {
        const boxes = [];
        for (const sel of ['.st-key-ct_menu', '.st-key-ct_language', '.st-key-ct_large',
                           '[data-testid="stMainMenu"]']) {
            const el = document.querySelector(sel);
            if (!el || getComputedStyle(el).display === 'none') continue;
            const r = el.getBoundingClientRect();
            if (r.width > 0) boxes.push([sel, r]);
        }
        const out = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const [a, r] = boxes[i], [b, s] = boxes[j];
            if (r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1
                && s.top < r.bottom - 1) out.push(`${a} over ${b}`);
        }
        return out;
    }""")


def clipped_labels(page) -> list[str]:
    """Widget labels and options Streamlit cut short with an ellipsis, with their text."""
    return page.evaluate("""() => {
        const out = [];
        for (const el of document.querySelectorAll(
                '[data-testid="stMainBlockContainer"] .stMarkdownEllipsis')) {
            if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
                out.push(`cut short: ${el.innerText.slice(0, 60)}`);
        }
        return out;
    }""")


def test_every_page_in_filipino_fits_the_screen(browser, app_url, screenshots):
    """Filipino runs longer than English: on a phone and a laptop, no page overflows sideways
    and the header's controls do not cover each other. Screenshots for people to look at.
    Each page is loaded once and measured at both sizes: the window is resized, not the page
    loaded again (the layout follows the window; the server's work is the same at both)."""
    from tests.browser.test_chrome_browser import overflow

    context = browser.new_context(viewport=PHONE, locale="fil-PH")
    problems: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        for name in PAGES:
            page.set_viewport_size(PHONE)
            page.goto(f"{app_url}/{'' if name == 'learn' else name}")  # Learn is the home
            page.wait_for_selector('[data-testid="stMainBlockContainer"] '
                                   '[data-testid="stMarkdownContainer"]', timeout=60_000,
                                   state="attached")
            wait_idle(page, 60_000)
            for label, size in (("phone", PHONE), ("laptop", LAPTOP)):
                page.set_viewport_size(size)
                wait_idle(page, 60_000)
                page.wait_for_timeout(300)  # the layout follows the new width
                settle_for_screenshot(page, 800)
                page.screenshot(path=str(screenshots / f"fil-{name}-{size['width']}.png"))
                found = overflow(page) + header_overlaps(page) + clipped_labels(page)
                if page.locator('[data-testid="stException"]').count():
                    found.append("an exception is shown")
                if found:
                    problems[f"{name} ({label})"] = found
    finally:
        context.close()
    assert problems == {}
