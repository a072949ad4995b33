"""After a game at a table: each phone's review of its own decisions, and the screen's look
back at the whole game with every card turned over and the bluffs marked.

Why the Play page's review, unchanged: a decision at a table is graded as a decision against
the bots is, by the one verdict layer (`trainer.play.review`, through `trainer.verdicts`), with
"good decision, bad outcome" where the cards went against a good choice. The table's game is
handed to it as a Play record seen from the player's seat (`Tables.finished_record`), under
the players' own names.
"""

from __future__ import annotations

import streamlit as st

from trainer.i18n import tr, tr_n
from trainer.play.match import Match
from trainer.play.record import GameRecord
from trainer.play.store import PlayStore, PlayStoreError
from trainer.tables.live import Tables
from trainer.tables.store import TableError
from trainer.ui.learner import current_learner
from trainer.ui.play import PlayTab, play_store
from trainer.ui.play_review import (
    OTHER_PLAYERS,
    RETRY,
    explorer,
    export_button,
    key_moments,
    retry_panel,
    summary,
    the_review,
)
from trainer.ui.state import session_state
from trainer.views import play_text, table_text

OTHERS = OTHER_PLAYERS  # the review's key for "the other players'" (it words them itself)
OPEN = "table_review_open"  # the reviews this tab has asked for, by (table, game)
KEPT = "table_review_kept"  # game id → whether this tab saved it among the player's games


def phone_review(tables: Tables, code: str, number: int, seat: int) -> None:
    """The player's own review, valued once asked for (it plays every decision out: a few
    seconds a decision), then kept in this tab."""
    try:
        record = tables.finished_record(code, number, seat)
    except TableError as e:
        st.caption(str(e))
        return
    st.header(tr("Your review"), anchor="your-review")
    opened: set[tuple[str, int]] = session_state().setdefault(OPEN, set())
    if (code, number) not in opened:
        st.markdown(tr("Every decision you made in this game, graded against the best one you "
                       "could have made with what you knew then."))
        st.button(tr("Review my decisions"), key="table_review", type="primary",
                  icon=":material/fact_check:", width="stretch",
                  on_click=opened.add, args=((code, number),))
        return
    me = current_learner()
    games, _ = play_store()
    mine = record.model_copy(update={"learner": me.key})
    saved = _keep(games, mine)
    tab = PlayTab(session_state(), me.key, games if saved else None)
    match = Match.resume(mine)
    rev = the_review(tab, match, me.history, me.store)
    st.caption(tr(table_text.REVIEW_NOTE))
    summary(rev, OTHERS)
    key_moments(tab, rev)
    if session_state().get(RETRY) is not None:
        retry_panel(tab, match, rev, me.history, me.store)
    st.subheader(tr("Step through the game"))
    explorer(tab, match, rev, OTHERS)
    export_button(match)
    if saved:
        st.caption(tr("This game is kept with your games: open it again from *Your games* on "
                      "the Play page."))


def _keep(games: PlayStore | None, record: GameRecord) -> bool:
    """The game saved among the player's own games on the Play page (whose review then
    opens without valuing again), once per tab; whether it is. A game id another learner
    holds (someone else reviewed this seat on this table before) is left to them."""
    if games is None:
        return False
    kept: dict[str, bool] = session_state().setdefault(KEPT, {})
    if record.game_id not in kept:
        try:
            games.save(record)
            kept[record.game_id] = True
        except PlayStoreError:
            kept[record.game_id] = False
    return kept[record.game_id]


def look_back(tables: Tables, code: str, number: int) -> None:
    """The whole game in words, every bluff marked: what the screen shows once it is over."""
    try:
        record = tables.finished_record(code, number, None)
    except TableError:
        return
    lines = play_text.timeline(record.parsed(), record.game(0), -1, [], True)
    bluffs = sum(1 for line in lines if line.bluff)
    st.markdown("**" + tr("The whole game, every card known") + "** · "
                + tr_n("{n} bluff marked", "{n} bluffs marked", bluffs))
    with st.container(height=360, key="table_look_back"):
        st.html(play_text.timeline_html(lines))
