"""Which view of a game table an address asks for (`?table=…` on the Room page)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from trainer.i18n import tr
from trainer.rooms.codes import is_room_code, normalise_code
from trainer.ui import table_host, table_phone, table_screen
from trainer.ui.tables import live_tables, table_store
from trainer.views import table_text


def is_table(code: str) -> bool:
    store, _ = table_store()
    return store is not None and store.exists(code)


def route(params: Any) -> None:
    store, problem = table_store()
    tables = live_tables()
    if store is None or tables is None:
        st.error(tr(table_text.NO_DB, problem=problem), icon=":material/cloud_off:")
        return
    raw = str(params.get("table") or "")
    code = normalise_code(raw)
    host = params.get("host")
    if not code:
        if host is not None:
            table_host.create_form(store)
        else:
            st.query_params.pop("table", None)
            st.rerun()
        return
    if not is_room_code(code):
        st.error(tr("{code} is not a table code: expected 6 letters and digits.",
                    code=repr(raw)), icon=":material/error:")
        return
    if host:
        table_host.host_page(store, code, str(host))
    elif params.get("screen"):
        table_screen.screen(tables, code, str(params.get("screen")))
    elif params.get("seat"):
        table_phone.hand(code, str(params.get("seat")))
    else:
        table_phone.join(store, code)
