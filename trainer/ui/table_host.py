"""The host's side of a game table: open it, seat bots, deal, and follow the game.

Why the host's page is not the screen: its address carries the host key, which must never be
on view. The host opens the screen view (`?table=…&screen=…`, a key that controls nothing)
on the shared screen, and keeps this page on their own phone or laptop.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from trainer.batch import ExecutorError
from trainer.engine.explain import variant_title
from trainer.i18n import tr, tr_n
from trainer.i18n.formats import number
from trainer.play.setup import BOTS, bot_title, strength, table_sizes
from trainer.quiz.bank import BankError
from trainer.rulebook.choices import TABLE
from trainer.tables.bank import app_rollouts, build_people_bank, people_tasks
from trainer.tables.claims import records_csv, report_figures, report_lines
from trainer.tables.model import BOT_PACES, STAND_IN_AFTER, TURN_SECONDS, GameTable, TableSettings
from trainer.tables.store import TableError, TableStore
from trainer.tables.venue import venue_report
from trainer.ui.rooms import forget_banks, network_note
from trainer.ui.rule_choice import chosen, family_picker, rules_expander
from trainer.ui.state import session_state
from trainer.ui.tables import POLL_SECONDS, follow, join_link, screen_link
from trainer.views import table_text
from trainer.views.qr import qr_svg

ERROR = "table_host_error"
MAKE_QUIZ = "table_make_quiz_asked"


def create_form(store: TableStore) -> None:
    """The table's rules, seats and clocks, then "Open the table"."""
    st.title(tr(table_text.HOST_TITLE))
    st.markdown(tr(table_text.HOST_INTRO))
    network_note(host=True)
    family_picker(TABLE, label=tr("Rule set"))
    ruleset = chosen(TABLE)
    rules_expander(ruleset, TABLE)
    allowed = list(table_sizes(ruleset))
    cols = st.columns(2)
    seats = cols[0].select_slider(tr("Seats"), allowed, value=4 if 4 in allowed else allowed[-1],
                                  key=f"table_new_seats_{allowed[0]}_{allowed[-1]}")
    clock = cols[1].selectbox(tr("Clock"), TURN_SECONDS, index=0, key="table_new_clock",
                              format_func=table_text.clock_label,
                              help=tr(table_text.CLOCK_HELP))
    cols = st.columns(2)
    stand_in_after = cols[0].selectbox(tr("A bot plays for someone gone"), STAND_IN_AFTER,
                                       index=STAND_IN_AFTER.index(120),
                                       key="table_new_stand_in",
                                       format_func=table_text.stand_in_label,
                                       help=tr(table_text.STAND_IN_HELP))
    pace = cols[1].selectbox(tr("Bot pace"), BOT_PACES, index=BOT_PACES.index(1.5),
                             key="table_new_pace",
                             format_func=_pace,
                             help=tr(table_text.PACE_HELP))
    try:
        settings = TableSettings(rules=ruleset.text, seats=seats, turn_seconds=clock,
                                 stand_in_after=stand_in_after, bot_pace=pace)
    except ValueError as e:
        st.error(tr("This table cannot be opened: {problem}", problem=e),
                 icon=":material/error:")
        return
    st.button(tr("Open the table"), type="primary", icon=":material/table_restaurant:",
              key="table_make", width="stretch", on_click=_make, args=(store, settings))
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _pace(seconds: float) -> str:
    return tr("{seconds} s per move", seconds=number(seconds, 1 if seconds % 1 else 0))


def _make(store: TableStore, settings: TableSettings) -> None:
    try:
        table, host = store.create(settings)
    except TableError as e:
        session_state()[ERROR] = str(e)
        return
    st.query_params.from_dict({"table": table.code, "host": host})


def _act(step: Callable[[], object]) -> None:
    """A host step; its refusal is said once above the controls."""
    try:
        step()
    except TableError as e:
        session_state()[ERROR] = str(e)


def host_page(store: TableStore, code: str, host: str) -> None:
    try:
        table = store.table(code)
        if not store.is_host(code, host):
            st.error(tr("This link does not carry table {code}'s host key.", code=code),
                     icon=":material/lock:")
            return
    except TableError as e:
        st.error(str(e), icon=":material/error:")
        return
    st.fragment(follow, run_every=POLL_SECONDS * 2)(code, table.version)
    st.title(tr("Table {code}", code=code))
    title = chosen_title(table)
    st.caption(table_text.settings_line(table.settings, title))
    st.caption(tr(table_text.HOST_KEY_NOTE))
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")
    if table.status == "closed":
        st.info(tr("Table {code} is closed.", code=code), icon=":material/door_front:")
        return
    screen = store.screen_token(code, host)
    left, right = st.columns([3, 2], vertical_alignment="top")
    with left:
        st.link_button(tr("Open the screen view"), screen_link(code, screen),
                       icon=":material/tv:", type="primary", width="stretch",
                       help=tr(table_text.SCREEN_HELP))
        _seats(store, table, host)
        _game_controls(store, table, host)
        _venue(store)
        _quiz_from_games(store)
    with right:
        link = join_link(code)
        st.html(table_text.TABLE_CSS + table_text.code_html(code))
        st.html(qr_svg(link, size_px=200, label=tr("Join table {code}", code=code)))
        st.caption(tr("Phones join at {link}", link=link.split("://", 1)[-1]))


def chosen_title(table: GameTable) -> str:
    from trainer.engine.variants import parse_rules

    return variant_title(parse_rules(table.settings.rules).variant)


def _seats(store: TableStore, table: GameTable, host: str) -> None:
    st.subheader(tr("Seats"))
    between = table.status != "playing"
    game = store.game(table.code) if table.game else None
    for s in table.seats:
        row = st.container(horizontal=True, vertical_alignment="center",
                           key=f"table_seat_{s.seat}")
        label = table_text.seat_label(s)
        if game is not None and s.kind == "bot" and s.seat < len(game.names):
            label = f"{game.names[s.seat]} ({label})"  # the name the game calls it by
        row.markdown(f"**{s.seat + 1}.** {label}")
        if not between:
            continue
        if s.kind == "open":
            pick = row.selectbox(tr("Bot"), BOTS, key=f"table_bot_{s.seat}",
                                 label_visibility="collapsed", format_func=bot_title)
            row.button(tr("Seat a bot"), key=f"table_add_{s.seat}", icon=":material/smart_toy:",
                       on_click=_act, args=(lambda s=s, pick=pick: store.seat_bot(
                           table.code, host, s.seat, pick),))
        else:
            row.button(tr("Free the seat"), key=f"table_free_{s.seat}", icon=":material/close:",
                       on_click=_act, args=(lambda s=s: store.free_seat(
                           table.code, host, s.seat),))
    bots = sorted({s.bot for s in table.seats if s.kind == "bot" and s.bot})
    if bots:
        with st.expander(tr("How strong the bots are"), icon=":material/leaderboard:"):
            for key in bots:
                st.markdown("- " + table_text.strength_note(key, strength(key,
                                                                          len(table.seats))))


def _game_controls(store: TableStore, table: GameTable, host: str) -> None:
    # The deal is refused if the table changed after the version this run drew; that is the
    # table read at the top of the run, not the quarter-second poll, which can still hold the
    # version from before a bot was seated a moment ago.
    version = table.version
    if table.status == "playing":
        game = store.game(table.code)
        moves = game.moves if game else 0
        st.info(tr_n("Game {game} is being played: {n} move so far. Follow it on the screen "
                     "view.", "Game {game} is being played: {n} moves so far. Follow it on the "
                     "screen view.", moves, game=table.game), icon=":material/casino:")
        with st.popover(tr("End this game"), icon=":material/stop_circle:"):
            st.markdown(tr("Nobody wins a game ended here; its moves are kept."))
            st.button(tr("End the game now"), key="table_end", type="primary",
                      on_click=_act, args=(lambda: store.end_game(table.code, host),))
        return
    label = tr("Deal") if table.game == 0 else tr("Deal the next game")
    ready = not table.open_seats and bool(table.people)
    st.button(label, key="table_deal", type="primary", icon=":material/playing_cards:",
              width="stretch", disabled=not ready, on_click=_act,
              args=(lambda: store.deal(table.code, host, at=version),))
    if not ready:
        st.caption(tr("Every seat needs a person or a bot, and at least one person, before "
                      "the deal. People join by scanning the code."))
    with st.popover(tr("Close the table"), icon=":material/door_front:"):
        st.markdown(tr("The code stops working; the games played stay saved."))
        st.button(tr("Close it"), key="table_close", on_click=_act,
                  args=(lambda: store.close(table.code, host),))


def _venue(store: TableStore) -> None:
    """How the bot's chances of a bluff did on the people who played here (every table of
    this database): closed until asked, since it replays every finished game once."""
    with st.expander(tr("The bot's bluff estimates on the people here"),
                     icon=":material/query_stats:"):
        st.caption(tr(table_text.VENUE_INTRO))
        if not st.toggle(tr("Work it out"), key="table_venue"):
            return
        with st.spinner(tr("Replaying every finished game…")):
            report, records = venue_report(store)
        for line in report_lines(report):
            st.markdown(line)
        if records:
            with st.popover(tr("The figures"), icon=":material/table:"):
                st.dataframe(pd.DataFrame(report_figures(report),
                                          columns=[tr("Figure"), tr("Value")]),
                             hide_index=True)
            st.download_button(tr("Download the claims (CSV)"), records_csv(records),
                               file_name="coup-table-claims.csv", mime="text/csv",
                               key="table_venue_csv", icon=":material/download:")


@st.cache_data(show_spinner=False, max_entries=16)
def _decisions(_store: TableStore, games: tuple[tuple[str, int], ...]) -> int:
    """How many decisions people made in these finished games that the quiz can ask: worked
    out once per set of finished games (it replays each), not on every run of the host's
    page, which runs again at every move of a game being played."""
    return len(people_tasks(_store))


def _quiz_from_games(store: TableStore) -> None:
    """People's decisions at the finished games as quiz questions (the bank *people*), each
    graded by playing its options out: seconds a decision, with a progress bar."""
    with st.expander(tr("Quiz questions from these games"), icon=":material/quiz:"):
        count = _decisions(store, tuple(store.finished_games()))
        st.caption(table_text.quiz_from_games(count, app_rollouts()))
        if not count:
            return
        state = session_state()
        st.button(tr("Make the questions"), key="table_make_quiz", icon=":material/construction:",
                  on_click=state.__setitem__, args=(MAKE_QUIZ, True))
        if not state.pop(MAKE_QUIZ, False):  # asked by a click, kept across a rerun
            return
        bar = st.progress(0.0, text=tr("Grading the decisions…"))

        def progress(done: int, total: int) -> None:
            bar.progress(done / max(total, 1), text=tr("Grading the decisions… {done} of {total}",
                                                       done=done, total=total))

        problems: list[str] = []
        try:
            bank = build_people_bank(store, rollouts=app_rollouts(), executor="local",
                                     resume=True, progress=progress, problems=problems)
        except (BankError, ExecutorError) as e:
            st.error(tr("The questions could not be made: {problem}", problem=e),
                     icon=":material/error:")
            return
        forget_banks()
        bar.empty()
        st.success(table_text.quiz_made(len(bank.items)), icon=":material/task_alt:")
        st.page_link("pages/quiz.py", label=tr("Open the Quiz"), icon=":material/quiz:")
