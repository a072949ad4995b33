"""What the router draws above every page: the page menu for narrow screens, the large-type
switch, the stylesheet they need, and the script that keeps the learner's cookie.

Why in the router: streamlit_app.py runs before every page, so one switch serves every page
(those to come included) and keeps one state for the tab. Large type is kept in the address
(`?large=1`): the address wins when it says something, the switch writes it back, and the
router restores it after a page switch, which drops query parameters. The menu and the switch
are pinned into Streamlit's header bar (chrome.css), so they take no room on the page.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from trainer.i18n import current_language, tr
from trainer.ui.language import (
    carried,
    language_script,
    language_switch,
    menu_language_switch,
)
from trainer.ui.learner import pending_cookie
from trainer.ui.state import session_state
from trainer.views import chrome, learner_text

LARGE = "ct_large_type"  # the switch's key: this tab's choice


def _address_follows_switch() -> None:
    """The switch was flipped: the address says so before the rerun reads it."""
    if session_state().get(LARGE):
        st.query_params[chrome.LARGE_PARAM] = "1"
    else:
        st.query_params.pop(chrome.LARGE_PARAM, None)


def _large_from_address() -> None:
    """The address wins when it asks for large type or not (a shared link, a reload, an old
    link's `large_type=true`); then it says what the tab shows, so a page switch keeps it."""
    state = session_state()
    params = st.query_params
    asked = chrome.large_from_address(params.get(chrome.LARGE_PARAM))
    if asked is None:
        asked = chrome.large_from_address(params.get(chrome.OLD_LARGE_PARAM))
    if asked is not None:
        state[LARGE] = asked
    params.pop(chrome.OLD_LARGE_PARAM, None)
    if state.get(LARGE):
        params[chrome.LARGE_PARAM] = "1"
    else:
        params.pop(chrome.LARGE_PARAM, None)


def page_chrome(pages: Sequence[StreamlitPage]) -> bool:
    """Draw what sits above every page; returns whether large type is on."""
    _large_from_address()
    kept = carried() | ({chrome.LARGE_PARAM: "1"} if session_state().get(LARGE) else {})
    with st.container(key="ct_chrome"):
        with (st.container(key="ct_menu", width="content"),
              st.popover(tr(chrome.MENU_LABEL), icon=":material/menu:",
                         help=tr(chrome.MENU_HELP))):
            for page in pages:
                st.page_link(page, query_params=kept or None, width="stretch")
            st.divider()
            menu_language_switch()
        with st.container(key="ct_tools", horizontal=True, width="content",
                          vertical_alignment="center"):
            with st.container(key="ct_language", width="content"):
                language_switch()
            with st.container(key="ct_large", width="content"):
                large = st.toggle(tr(chrome.LARGE_LABEL), key=LARGE, help=tr(chrome.LARGE_HELP),
                                  on_change=_address_follows_switch)
        st.html(chrome.stylesheet(large))
        with st.container(key="language_script"):
            st.html(language_script(current_language()), unsafe_allow_javascript=True)
        if (browser_id := pending_cookie()) is not None:
            with st.container(key="learner_cookie"):
                st.html(learner_text.cookie_script(browser_id), unsafe_allow_javascript=True)
    return large
