"""Streamlit's session state as the plain mapping the library's sessions take.

Why a cast here: the library works on any `MutableMapping[str, Any]` (a dict in the tests);
Streamlit types its state's keys as `str | int`, and a mapping's key type is invariant, so the
type checker would refuse the state everywhere it is handed on. The app only uses str keys.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, cast

import streamlit as st


def session_state() -> MutableMapping[str, Any]:
    return cast("MutableMapping[str, Any]", st.session_state)
