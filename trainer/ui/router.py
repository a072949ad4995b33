"""The hand-over to the router, for a page that was opened without it.

Why: on a freshly started server, Streamlit's legacy pages/ mode runs a deep-linked page (e.g.
/rules) by itself, without streamlit_app.py, so without the page config and the navigation bar.
The router marks every run it starts; a page that finds no mark registers a navigation (which
switches that mode off) and reruns, this time through the router.
"""

from __future__ import annotations

import streamlit as st

ROUTED = "_routed"
HOME = "pages/learn.py"


def mark_routed() -> None:
    """Called by the router before it runs the page: this run came through it."""
    st.session_state[ROUTED] = True


def hand_over(script: str, url_path: str) -> None:
    """Rerun through the router unless this run came through it. `script` is the page's
    path from the app's folder, `url_path` its address."""
    if st.session_state.pop(ROUTED, False):
        return
    if script == HOME:
        pages = [st.Page(HOME, url_path=url_path)]
    else:
        # The default page is listed too, or this page (not the default) would be "not found".
        pages = [st.Page(HOME, default=True), st.Page(script, url_path=url_path)]
    st.navigation(pages, position="hidden")
    st.rerun()
