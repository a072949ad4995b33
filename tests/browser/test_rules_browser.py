"""The Rules page in a real browser: it renders, and it reads on a desktop and on a phone."""

from __future__ import annotations

import re
from urllib.parse import quote_plus

import pytest

from tests.browser.live import (
    DESKTOP,
    PHONE,
    screenshots_wanted,
    serve_app,
    settle_for_screenshot,
    until,
    wait_idle,
)
from trainer.engine.variants import BASE

pytestmark = pytest.mark.browser


def _open_rules(browser, url: str, viewport: dict, path: str = "/rules"):
    """Open the Rules page (at /rules; Learn is the app's default page)."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport=viewport)
    page.goto(f"{url}{path}")
    expect(page.locator("table.ct-table")).to_be_visible(timeout=20_000)
    expect(page.locator(".ct-card")).to_have_count(len(BASE.characters))
    expect(page.get_by_text("A turn, step by step")).to_be_visible()
    settle_for_screenshot(page, 300)  # fonts and the last layout
    return page


def _choose(page, label: str) -> None:
    """Pick a radio option. A click that lands while the expander is still opening can be
    lost on a busy machine, and choosing an option twice is harmless, so retry a few times."""
    from playwright.sync_api import expect

    radio = page.get_by_role("radio", name=label)
    expect(radio).to_be_enabled()
    until(lambda: page.get_by_text(label).click(),
          lambda t: expect(radio).to_be_checked(timeout=t), tries=4, timeout=3_000)


def _shoot(page, path, viewport: dict, full: bool = False) -> None:
    """Streamlit scrolls an inner container, so a full-length shot needs a tall viewport. The
    window is resized for the image alone: without screenshots nothing is done."""
    if not screenshots_wanted():
        return
    if full:
        height = page.evaluate(
            "document.querySelector('[data-testid=\"stMainBlockContainer\"]').scrollHeight")
        page.set_viewport_size({"width": viewport["width"], "height": int(height) + 120})
        page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    page.set_viewport_size(viewport)


# The phone first: the page opens at the size where overflowing is likeliest.
SIZES = (("phone", PHONE), ("desktop", DESKTOP))


def test_rules_page_shows_actions_and_cards(browser, app_url, screenshots):
    """Opened once, measured at a desktop's and a phone's size by resizing the window: the
    page's layout follows the window, its content does not."""
    from playwright.sync_api import expect

    page = _open_rules(browser, app_url, PHONE)
    try:
        rows = page.locator("table.ct-table tbody tr")
        expect(rows).to_have_count(len(BASE.actions))
        for name, viewport in SIZES:
            page.set_viewport_size(viewport)
            page.wait_for_timeout(300)
            for spec in BASE.actions:
                expect(page.locator(f'tr[data-action="{spec.action.value}"]')).to_be_visible()
            duke = page.locator('.ct-card[data-character="Duke"]')
            duke.scroll_into_view_if_needed()
            expect(duke).to_be_visible()
            expect(duke).to_contain_text("Tax")
            box = duke.bounding_box()
            assert box and box["width"] <= viewport["width"], f"a card overflows the {name}"
            assert page.locator('[data-testid="stException"]').count() == 0
            page.locator("h1").first.scroll_into_view_if_needed()
            _shoot(page, screenshots / f"rules-{name}.png", viewport)
            _shoot(page, screenshots / f"rules-{name}-full.png", viewport, full=True)
    finally:
        page.close()


def test_fresh_server_routes_deep_links_and_shared_settings(browser, screenshots):
    """Right after `make run`, the first visitor may arrive on a deep link: Streamlit's legacy
    pages/ mode would then run the page without the router (narrow layout, a second sidebar
    menu) until someone opened the root URL. The page must hand over to the router instead.
    Then a host's shared link (?large_type=true&players=7) opens in large type for 7 players.
    A fresh server of its own, because only the first visit shows the problem."""
    from playwright.sync_api import expect

    main = '[data-testid="stMainBlockContainer"]'
    with serve_app("fresh") as url:
        page = _open_rules(browser, url, DESKTOP, "/rules")
        try:
            wait_idle(page)  # the page as it stays, once its run (and any hand-over) is over
            assert page.locator('[data-testid="stSidebarNav"]').count() == 0
            width = page.evaluate(f"document.querySelector('{main}').offsetWidth")
            assert width > 1000, f"the router's wide layout is missing (content {width}px)"
        finally:
            page.close()

        page = _open_rules(browser, url, DESKTOP, "/rules?large_type=true&players=7")
        try:
            expect(page.get_by_text("4 in the Court deck").first).to_be_visible()
            root = page.evaluate(
                "parseFloat(getComputedStyle(document.documentElement).fontSize)")
            assert root > 18, f"large type did not scale the page (root font {root}px)"
            _shoot(page, screenshots / "rules-projector.png", DESKTOP)
            _shoot(page, screenshots / "rules-projector-full.png", DESKTOP, full=True)
        finally:
            page.close()


def test_changing_a_table_rule_marks_it_as_changed(browser, app_url, screenshots):
    from playwright.sync_api import expect

    page = _open_rules(browser, app_url, DESKTOP)
    try:
        treasury = page.locator('.ct-opt[data-option="finite_treasury"]')
        expect(treasury).to_have_attribute("data-changed", "false")
        page.get_by_text("Change the table rules").click()
        _choose(page, "Unlimited central store of money.")
        expect(treasury).to_have_attribute("data-changed", "true")
        expect(treasury).to_contain_text("Changed")
        expect(page.get_by_text("the Treasury never runs out (a table rule)")).to_be_visible()
        expect(page).to_have_url(re.compile(r"rules=base%28finite_treasury%3Dno%29"))
        _shoot(page, screenshots / "rules-desktop-table-rule-full.png", DESKTOP, full=True)
    finally:
        page.close()


@pytest.mark.parametrize("name, players, viewport, shot", [
    ("mcguire", 3, DESKTOP, "desktop"), ("reformation-inquisitor", 4, PHONE, "phone"),
    ("forum", 5, DESKTOP, "desktop"), ("draft", 2, PHONE, "phone"),
])
def test_a_variant_link_opens_its_rules(browser, app_url, screenshots, name, players, viewport,
                                        shot):
    from playwright.sync_api import expect

    from trainer.engine.variants import get_variant

    variant = get_variant(name)
    page = browser.new_page(viewport=viewport)
    try:
        # A bound selectbox keeps the option's label in the URL.
        page.goto(f"{app_url}/rules?variant={quote_plus(variant.title)}&players={players}")
        expect(page.locator(".ct-card")).to_have_count(len(variant.cards), timeout=20_000)
        expect(page.get_by_role("heading", name=f"What {variant.title} changes")).to_be_visible()
        expect(page.locator("table.ct-table tbody tr")).to_have_count(len(variant.actions))
        assert page.locator('[data-testid="stException"]').count() == 0
        settle_for_screenshot(page, 300)
        _shoot(page, screenshots / f"rules-{name}-{shot}-full.png", viewport, full=True)
    finally:
        page.close()


def test_a_house_rule_switched_on_changes_the_page_and_its_address(browser, app_url,
                                                                   screenshots):
    """Switched on at a phone's size (the narrower layout, where a click is likelier to
    miss), then shot at a desktop's too."""
    from playwright.sync_api import expect

    page = _open_rules(browser, app_url, PHONE)
    try:
        page.get_by_text("McGuire's house rules: none on").click()
        toggle = page.locator(".st-key-switch_treaty input")
        until(lambda: page.get_by_text("5. Treaty (one Contessa)").first.click(),
              lambda t: expect(toggle).to_be_checked(timeout=t), tries=4, timeout=3_000)
        expect(page.locator('.ct-card[data-character="Treaty Contessa"]')).to_be_visible()
        expect(page.get_by_text("1 house rule", exact=True)).to_be_visible()
        expect(page).to_have_url(re.compile(r"rules=base\+treaty"))
        for shot, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            if not screenshots_wanted():
                break  # the sizes are for the images alone
            page.set_viewport_size(viewport)
            page.wait_for_timeout(300)
            _shoot(page, screenshots / f"rules-house-rule-{shot}-full.png", viewport, full=True)
    finally:
        page.close()


def test_a_link_with_house_and_table_rules_opens_them(browser, app_url, screenshots):
    from playwright.sync_api import expect

    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(f"{app_url}/rules?rules=mcguire-inheritance(challengers=all)&players=3")
        expect(page.locator(".ct-card")).to_have_count(7, timeout=20_000)  # 5 and 2 with powers
        expect(page.get_by_text("McGuire's without 5. Inheritance")).to_be_visible()
        expect(page.get_by_text("all of them do", exact=False)).to_be_visible()
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        page.close()
