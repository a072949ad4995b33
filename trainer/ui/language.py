"""The visitor's language: read once per run, kept for the tab, the address and the browser.

Why here and not in the library: only Streamlit knows the visitor (their address, cookie and
browser language, `st.context.locale`). The router calls `choose_language` before it draws
anything; every `tr()` in the library then asks this module's resolver, which reads the
running session's choice, so two visitors of one server in two languages each get their own.
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from trainer.i18n import DEFAULT, LANGUAGES, PSEUDO, current_language, set_resolver, tr
from trainer.i18n.negotiate import choose, language_from_tag
from trainer.ui.state import session_state

PARAM = "lang"  # ?lang=fil
COOKIE = "ct_lang"  # the choice, kept 400 days in this browser
CHOSEN = "ct_language"  # this tab's language
SWITCH = "ct_language_switch"  # the header's switch (wide screens)
MENU_SWITCH = "ct_language_menu"  # the same choice inside the Menu (phones)
COOKIE_MAX_AGE = 400 * 24 * 3600


def _session_language() -> str | None:
    if get_script_run_ctx(suppress_warning=True) is None:
        return None
    try:
        value = st.session_state.get(CHOSEN)
    except Exception:  # no session (a bare script run by a test harness)
        return None
    return value if isinstance(value, str) else None


set_resolver(_session_language)


def choose_language() -> str:
    """This run's language: the address, else the tab's earlier choice, else the cookie, else
    the browser. The address then says it (unless English), so a shared link keeps it."""
    state = session_state()
    asked = language_from_tag(st.query_params.get(PARAM))
    if asked is not None:
        language = asked
    elif isinstance(state.get(CHOSEN), str):
        language = state[CHOSEN]
    else:
        language = choose(None, st.context.cookies.get(COOKIE), st.context.locale,
                          st.context.headers.get("Accept-Language"))
    _keep(state, CHOSEN, language)
    _address_says(language)
    return language


def _keep(state: MutableMapping[str, Any], key: str, value: str) -> None:
    """Write `key` only when it changes. Why: a click during a run starts the next run while
    this one still draws, and Streamlit calls the next run's callbacks while iterating over
    the session state; a key written on every run is added again to the state's new values
    and breaks that iteration ("dictionary keys changed during iteration")."""
    if state.get(key) != value:
        state[key] = value


def _address_says(language: str) -> None:
    if language == DEFAULT:
        st.query_params.pop(PARAM, None)
    elif st.query_params.get(PARAM) != language:
        st.query_params[PARAM] = language


def carried() -> dict[str, str]:
    """The query parameter a page link carries so a page switch keeps the language."""
    language = current_language()
    return {} if language == DEFAULT else {PARAM: language}


def _switched(key: str) -> None:
    picked = session_state().get(key)
    if isinstance(picked, str) and language_from_tag(picked) == picked:
        session_state()[CHOSEN] = picked
        _address_says(picked)


def _choices() -> tuple[list[str], dict[str, str]]:
    codes = [language.code for language in LANGUAGES]
    names = {language.code: language.name for language in LANGUAGES}
    if current_language() == PSEUDO:
        codes.append(PSEUDO)
        names[PSEUDO] = "Pseudo"
    return codes, names


def language_switch() -> None:
    """The switch in every page's header on a wide screen: each language in its own name."""
    codes, names = _choices()
    _keep(session_state(), SWITCH, current_language())
    st.selectbox(tr("Language"), codes, key=SWITCH, format_func=names.__getitem__,
                 label_visibility="collapsed", on_change=_switched, args=(SWITCH,),
                 help=tr("The language of every page. Kept in the address and in this "
                         "browser."))


def menu_language_switch() -> None:
    """The same choice inside the Menu, where a phone's header has no room for it."""
    codes, names = _choices()
    _keep(session_state(), MENU_SWITCH, current_language())
    st.radio(tr("Language"), codes, key=MENU_SWITCH, format_func=names.__getitem__,
             horizontal=True, on_change=_switched, args=(MENU_SWITCH,))


def language_script(language: str) -> str:
    """A script that keeps the choice in this browser and tells it the page's language (for
    screen readers and hyphenation)."""
    cookie = f"{COOKIE}={language}; Max-Age={COOKIE_MAX_AGE}; Path=/; SameSite=Lax"
    return ("<script>(function () { var c = " + json.dumps(cookie) + ";"
            " if (location.protocol === 'https:') { c += '; Secure'; }"
            " document.cookie = c; document.documentElement.lang = "
            + json.dumps(language) + "; })();</script>")


def cookie_due(language: str) -> bool:
    """Whether the browser's cookie must be written (it says another language, or none while
    the visitor is not on English)."""
    sent = st.context.cookies.get(COOKIE)
    return sent != language and (sent is not None or language != DEFAULT)
