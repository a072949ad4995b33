"""A card's name fits on its card in the drawn table, on a phone and a desktop: no word is broken
across two lines ("AMBASSADO" / "R") and no label runs past its card's edge. Measured in Chromium
on the Play page (the app's own font and stylesheet), first on a game's table with the learner's
Ambassador face up, then on tables of two to six seats, compact and full size, holding every
character of every rule set."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.browser.live import PHONE, wait_idle

pytestmark = pytest.mark.browser

# Per visible card name: its text, the words broken over two lines or more, and how far the
# text runs past the card's inside edge (px, 0 when it fits).
LABELS = """() => [...document.querySelectorAll('.ct-mini__name')]
  .filter(e => e.getClientRects().length > 0)
  .map(e => {
    const card = e.closest('.ct-mini');
    const box = card.getBoundingClientRect();
    const left = box.left + card.clientLeft, right = left + card.clientWidth;
    const text = e.firstChild;
    const broken = [];
    let past = 0, at = 0;
    for (const word of text.textContent.split(' ')) {
      const r = document.createRange();
      r.setStart(text, at);
      r.setEnd(text, at + word.length);
      const rects = [...r.getClientRects()].filter(q => q.width > 0);
      if (new Set(rects.map(q => Math.round(q.top))).size > 1) broken.push(word);
      for (const q of rects) past = Math.max(past, left - q.left, q.right - right);
      at += word.length + 1;
    }
    return {name: text.textContent, broken, past: Math.max(0, past)};
  })"""

# The longest names: every character of every rule set, McGuire's two-word ones included.
EVERY_CARD = ("Ambassador", "Inquisitor", "Graverobber", "Inheritance Ambassador",
              "Vengeance Assassin", "Treaty Contessa", "Assassin", "Contessa", "Captain", "Duke")


def misfits(page) -> list[dict]:
    return [label for label in page.evaluate(LABELS) if label["broken"] or label["past"] > 0.5]


def open_a_game(page, app_url: str) -> None:
    """A two-seat game (deal 0): the learner holds an Ambassador, drawn face up for them."""
    from playwright.sync_api import expect

    page.goto(f"{app_url}/play?rules=base&seats=you,random&deal=0")
    page.get_by_role("button", name="Play this deal").click()
    expect(page.locator(".st-key-play_moves button").first).to_be_visible(timeout=60_000)
    wait_idle(page, timeout=60_000)


@pytest.mark.parametrize("name, viewport", [("phone", PHONE),
                                            ("desktop", {"width": 1366, "height": 768})])
def test_the_ambassador_on_the_play_table_fits_on_its_card(browser, app_url, screenshots, name,
                                                          viewport) -> None:
    page = browser.new_page(viewport=viewport)
    try:
        open_a_game(page, app_url)
        labels = page.evaluate(LABELS)
        assert "Ambassador" in [label["name"] for label in labels], labels
        assert misfits(page) == []
        page.locator(".ct-table").first.screenshot(path=screenshots / f"labels-play-{name}.png")
    finally:
        page.close()


def probe_tables() -> str:
    """Tables of 2 to 6 seats, compact and full size, every seat's two cards drawn face up
    (both held, or one held and one lost), the names dealt round so that each of `EVERY_CARD`
    is on every size of card the stylesheet draws."""
    from trainer.engine.game import Game
    from trainer.views.table_art import table_html
    from trainer.views.table_view import table_view

    html = []
    for n in range(2, 7):
        game = Game.new(["You", "Ana", "Ben", "Cris", "Dee", "Ely"][:n], seed=0)
        view = table_view(game.observation(0))
        for start in range(0, len(EVERY_CARD), 2 * n):
            for lost in (False, True):
                cards = [EVERY_CARD[(start + k) % len(EVERY_CARD)] for k in range(2 * n)]
                seats = tuple(replace(s, hidden=tuple(cards[2 * p:2 * p + (1 if lost else 2)]),
                                      revealed=tuple(cards[2 * p + 1:2 * p + 2] if lost else ()))
                              for p, s in enumerate(view.seats))
                shown = replace(view, seats=seats)
                html += [table_html(shown, compact=True), table_html(shown)]
    return "".join(html)


def test_every_name_fits_on_every_size_of_card(browser, app_url) -> None:
    """Every card's name on every size of card the table draws, at a phone's width, a small
    tablet's, a large tablet's and a laptop's: one page, widened step by step (the same
    stylesheet; opening a game for each width only repeated the wait for the deal)."""
    page = browser.new_page(viewport={"width": 390, "height": 900})
    try:
        open_a_game(page, app_url)  # the app's font and the table's stylesheet
        page.evaluate("""html => {
            const probe = document.createElement('div');
            probe.innerHTML = html;
            document.querySelector('[data-testid="stMainBlockContainer"]').prepend(probe);
        }""", probe_tables())
        found = {}
        for width in (390, 640, 900, 1366):
            page.set_viewport_size({"width": width, "height": 900})
            page.wait_for_function(f"() => window.innerWidth === {width}")
            names = {label["name"] for label in page.evaluate(LABELS)}
            assert set(EVERY_CARD) <= names, width
            found[width] = misfits(page)
        assert found == {w: [] for w in found}
    finally:
        page.close()
