"""Room: one screen for the host, a phone for everyone else.

The address says who is looking: `?host` makes a room, `?code=…&host=…` is the host's
remote (its controls; with `&report=1`, the class report to print), `?code=…&screen=…` the
presenter screen (what is projected: no control and no host key), `?code=…` joins,
`?code=…&seat=…` is a participant's seat.

A game table is the same with `table` for `code`: `?table&host` opens one,
`?table=…&host=…` is the host's page, `?table=…&screen=…` the shared screen, `?table=…`
joins and `?table=…&seat=…` is a player's hand. A code typed on a phone may be a table's.
"""

import streamlit as st

from trainer.i18n import tr
from trainer.rooms.codes import is_room_code, normalise_code
from trainer.ui import room_host, room_phone, room_screen, table_page
from trainer.ui.rooms import room_store, styles
from trainer.ui.router import hand_over
from trainer.views import room_text

hand_over("pages/room.py", "room")
styles()
params = st.query_params
if "table" in params:
    table_page.route(params)
    st.stop()
rooms, problem = room_store()
if rooms is None:
    st.error(tr(room_text.NO_ROOM_DB, problem=problem), icon=":material/cloud_off:")
    st.stop()

code = normalise_code(params.get("code", ""))
host = params.get("host")
seat = params.get("seat")
screen = params.get("screen")
if code and not is_room_code(code):
    st.error(tr("{code} is not a room code: expected 6 letters and digits.",
                code=repr(params.get("code"))), icon=":material/error:")
    params.pop("code", None)
    room_phone.enter_code()
elif not code and host is not None:
    room_host.create_form(rooms)
elif not code:
    room_phone.enter_code()
    st.divider()
    st.page_link("pages/room.py", label=tr("Run a room for a class"), icon=":material/co_present:",
                 query_params={"host": ""})
    st.page_link("pages/room.py", label=tr("Open a game table: people play each other"),
                 icon=":material/table_restaurant:", query_params={"table": "", "host": ""})
elif not (host or screen or seat) and rooms.pulse(code) is None and table_page.is_table(code):
    st.query_params.from_dict({"table": code})  # the code typed was a game table's
    st.rerun()
elif host and params.get("report"):
    room_host.report(rooms, code, host)
elif host:
    room_host.remote(rooms, code, host)
elif screen:
    room_screen.screen(rooms, code, screen)
elif seat:
    room_phone.seat_view(rooms, code, seat)
else:
    room_phone.join(rooms, code)
