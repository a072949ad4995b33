"""Coup Trainer: the router. Every page is listed here; pages/ holds page scripts only."""

import streamlit as st

from trainer.i18n import tr
from trainer.ui.chrome import page_chrome
from trainer.ui.language import choose_language
from trainer.ui.router import mark_routed
from trainer.ui.serving import freeze_loaded_heap


def main() -> None:
    freeze_loaded_heap()  # gc.freeze() once a page's modules are loaded (docs/serving.md)
    # The visitor's language, before any word is drawn: the address, the tab's choice, the
    # cookie, then the browser (trainer.ui.language).
    choose_language()

    st.set_page_config(
        page_title=tr("Coup Trainer"),
        page_icon="🃏",  # an emoji favicon is drawn in the browser: nothing fetched from outside
        layout="wide",
        initial_sidebar_state="collapsed",
    )

    pages = [
        st.Page("pages/learn.py", title=tr("Learn"), icon=":material/school:", url_path="learn",
                default=True),
        st.Page("pages/quiz.py", title=tr("Quiz"), icon=":material/quiz:", url_path="quiz"),
        st.Page("pages/calibration.py", title=tr("Calibration"), icon=":material/monitoring:",
                url_path="calibration"),
        st.Page("pages/endgame.py", title=tr("End-game"), icon=":material/swords:",
                url_path="endgame"),
        st.Page("pages/play.py", title=tr("Play"), icon=":material/playing_cards:",
                url_path="play"),
        st.Page("pages/rules.py", title=tr("Rules"), icon=":material/menu_book:",
                url_path="rules"),
        st.Page("pages/kiosk.py", title=tr("Kiosk"), icon=":material/storefront:",
                url_path="kiosk"),
        st.Page("pages/room.py", title=tr("Room"), icon=":material/co_present:", url_path="room"),
    ]

    navigation = st.navigation(pages, position="top")
    # Above every page: the labelled menu for narrow screens, the large-type switch (?large=1)
    # and this browser's learner cookie (trainer.ui.chrome).
    page_chrome(pages)
    # Tell the page it was opened through this router. On a freshly started server Streamlit's
    # legacy pages/ mode runs a deep-linked page (e.g. /rules) without this script; each page
    # checks this mark and hands over to the router when it is missing (trainer.ui.router).
    mark_routed()
    navigation.run()


# Streamlit runs this script as __main__. A worker process started with `spawn` (the Play
# page values decisions in workers, trainer.play.worker) imports it under another name, and
# must not run the app: the guard the multiprocessing docs ask of every main module.
if __name__ == "__main__":
    main()
