"""The learner's saved games on the Play page: resume one, review one, or import a log.

Why a list and an import both: a game is saved after every move, so one closed by accident is
resumed where it stopped; a log exported elsewhere (another computer, a friend) becomes the
same game here, with its review.
"""

from __future__ import annotations

import streamlit as st

from trainer.i18n import tr
from trainer.play.log import LogError, import_text
from trainer.play.store import GameSummary, PlayStoreError
from trainer.ui.play import ERROR, PlayTab
from trainer.views import play_text

SHOWN = 10  # the newest games listed; older ones stay in the database
IMPORT_ERROR = "play_import_error"  # why the last log imported could not be opened
# The largest file the import takes, in megabytes (Streamlit's unit; its least). A game's log
# is some 10 KB and the reader refuses anything over `trainer.play.log.MAX_CHARS`, so a file
# this large is no log: the browser refuses it before sending it.
UPLOAD_MB = 1


def saved_games(tab: PlayTab) -> None:
    st.subheader(tr("Your games"))
    if tab.store is None:
        st.caption(tr("Games cannot be saved: the database cannot be reached. This game will "
                      "last as long as this tab."))
    else:
        games: list[GameSummary] = []
        try:
            found = tab.store.games(tab.learner, limit=SHOWN)
            games = list(found)
            for game_id in found.damaged:
                _damaged(tab, game_id, found.problems.get(game_id, ""))
        except PlayStoreError as e:
            st.warning(tr("Your saved games could not be read: {reason}", reason=e),
                       icon=":material/warning:")
        if not games:
            st.caption(tr("Games you play are saved here after every move."))
        for g in games:
            row = st.container(horizontal=True, vertical_alignment="center")
            row.markdown(play_text.saved_line(g))
            row.button(tr("Review") if g.finished_at else tr("Resume"),
                       key=f"play_open_{g.game_id}",
                       on_click=tab.open_saved, args=(g.game_id,))
    upload = st.file_uploader(tr("Import a game log"), type=["txt"], key="play_import",
                              max_upload_size=UPLOAD_MB,
                              help=tr("A log downloaded from the review of a game."))
    st.caption(play_text.import_note(UPLOAD_MB))
    if upload is not None:
        st.button(tr("Open the imported game"), key="play_import_open", type="primary",
                  on_click=_import, args=(tab, upload.getvalue()))
    if (refused := tab.state.pop(IMPORT_ERROR, None)) is not None:
        # Here, under the button pressed, not at the top of the page: on a phone the top is
        # screens away, and the page would seem to do nothing.
        st.error(refused, icon=":material/error:")


def _damaged(tab: PlayTab, game_id: str, problem: str) -> None:
    """A saved game that cannot be rebuilt is set aside, never dropped without a word: what is
    wrong, and (when a move is at fault) a button that keeps the moves before it."""
    text, repairable = play_text.damaged_line(game_id, problem)
    box = st.container(horizontal=True, vertical_alignment="center")
    box.warning(text, icon=":material/warning:")
    if repairable:
        box.button(tr("Keep the moves before it"), key=f"play_repair_{game_id}",
                   on_click=tab.repair_saved, args=(game_id,),
                   help=tr("The game goes on from its last move the rules allow."))


def _import(tab: PlayTab, data: bytes) -> None:
    """The log's game opened, or why not, said under the import (`IMPORT_ERROR`)."""
    try:
        record = import_text(data.decode("utf-8"), learner=tab.learner)
    except UnicodeDecodeError:
        tab.state[IMPORT_ERROR] = tr("The imported file is not a text file (UTF-8 "
                                     "expected).")
        return
    except LogError as e:
        tab.state[IMPORT_ERROR] = tr("The game log could not be read: {reason}", reason=e)
        return
    tab.open(record)
    if ERROR in tab.state:  # a game the engine cannot rebuild
        tab.state[IMPORT_ERROR] = tab.state.pop(ERROR)
        return
    if tab.store is not None and tab.match is not None:
        tab.save(tab.match)
