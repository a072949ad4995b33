"""The visitor's language in a real browser: a Filipino phone opens in Filipino, the Menu's
switch changes it and the cookie keeps it; a link's `?lang=` wins; two browsers on one server
each keep their own language."""

from __future__ import annotations

import re

import pytest

from tests.browser.live import DESKTOP, PHONE, wait_idle

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
        cookie = next(c for c in context.cookies() if c["name"] == "ct_lang")
        assert (cookie["value"], cookie["path"], cookie["sameSite"]) == ("en", "/", "Lax")
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
