"""Clicks and key presses while the bots play: Streamlit starts a new run of the page at once
(fast reruns) while the old one is still moving the bots, and both hold the same game. A game of
four, at every decision a move clicked and H (the coach) pressed twice straight after; the game
must come out whole: no traceback in the server's log, no error box on the page, and the saved
game rebuilding move by move.

Why one game: each decision already races a click and two key presses against the bots' moves,
some thirty times a game; more games of the same kind repeat those races at half a minute each.
`GAMES` takes more deals when a change to the play page calls for a longer check."""

from __future__ import annotations

import glob

import pytest

from tests.browser.live import DESKTOP, LOGS, serve_app, wait_idle

pytestmark = pytest.mark.browser

GAMES = [4]  # deals; seats: the learner first, three bots
LINK = "/play?rules=base&seats=you,calibrated,bluffer,rule&deal={deal}"
MAX_DECISIONS = 60  # a game of four ends well before; a stuck page fails instead of hanging


ERRORS = '[data-testid="stException"], [data-testid="stAlertContentError"]'


def _play_one(page, url: str, deal: int, boxes: list[str]) -> int:
    """One game: a click and H twice at every decision. Returns the decisions made; the text
    of every error box seen on the way goes into `boxes`."""
    from playwright.sync_api import expect

    page.goto(url + LINK.format(deal=deal))
    page.get_by_role("button", name="Play this deal").click()
    # `.first`: for a moment the heading of the run being replaced may still be on the page.
    review = page.get_by_role("heading", name="Review").first
    buttons = page.locator(".st-key-play_moves button:visible")
    made = 0
    for _ in range(MAX_DECISIONS):
        # At the game's end the last decision's buttons may still show beside the review's
        # heading for a moment (the run that replaces them is on its way): either will do.
        expect(buttons.first.or_(review).first).to_be_visible(timeout=120_000)
        boxes.extend(page.locator(ERRORS).all_inner_texts())
        if review.is_visible():
            return made
        try:
            buttons.first.click(timeout=5_000)
        except Exception:  # the button went away under the click: the page moved on
            continue
        page.keyboard.press("h")
        page.keyboard.press("h")
        made += 1
    expect(review).to_be_visible(timeout=120_000)
    return made


def test_clicks_and_keys_while_the_bots_play_leave_every_game_whole(browser):
    from sqlalchemy import create_engine, select

    from trainer.play.match import Match
    from trainer.play.store import PlayStore, games_table

    with serve_app("overlap") as url:
        page = browser.new_page(viewport=DESKTOP)
        try:
            boxes: list[str] = []
            decisions = [_play_one(page, url, deal, boxes) for deal in GAMES]
            wait_idle(page, timeout=60_000)
            boxes.extend(page.locator(ERRORS).all_inner_texts())
        finally:
            page.close()
        [db] = glob.glob(str(LOGS / "answers-overlap-*.db"))
        store = PlayStore(create_engine(f"sqlite:///{db}"))
        with store.engine.connect() as conn:
            learners = [r[0] for r in conn.execute(select(games_table.c.learner).distinct())]
        assert len(learners) == 1, learners
        saved = store.games(learners[0])
        records = [store.get(g.game_id, learners[0]) for g in saved]
    log = (LOGS / "streamlit-overlap.log").read_text()
    assert all(decisions), decisions
    assert boxes == []
    assert log.count("Traceback") == 0, log[-4000:]
    assert saved.damaged == ()
    assert len(records) == len(GAMES)
    for record in records:
        assert Match.resume(record).over  # raises naming the move the rules refuse
