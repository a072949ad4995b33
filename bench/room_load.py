"""Simulated tabs for the Room load test (bench/room.py): a phone or the presenter screen.

Two kinds of tab, with one interface (`open`, `poll`, `set`, `click`, `keys`, `texts`):

- `BrowserTab` speaks Streamlit's own browser protocol over the app's websocket
  (`/_stcore/stream`, protobuf `BackMsg`/`ForwardMsg`), as the JavaScript client does, only
  without drawing anything. The server cannot tell it from a browser: a click is a rerun
  request carrying the button's trigger, and a `st.fragment(run_every=...)` is polled the
  way the browser polls it, by a fragment-only rerun request (`fragment_id`,
  `is_auto_rerun`) on the interval the server announced in its `auto_rerun` message. So a
  poll costs the server what a real phone's poll costs: the fragment alone, and a full run
  only when the fragment asks for one (`st.rerun(scope="app")`).
- `AgentTab` drives an agent-API session (bench/agentapi.py). The agent API cannot run a
  fragment's timer, so its `poll` is a rerun of the whole page: heavier than a browser's.

Both are synchronous and one tab is used by one thread at a time: a request is sent, then
the tab reads until that run has finished. Where the browser would send its fragment poll
while another run of the same tab is in flight, this tab sends it right after (the server
queues the two anyway). Every request is recorded as a `Step` (wall time of its start,
seconds until its run finished, whether a full page run happened).
"""

from __future__ import annotations

import builtins
import json
import re
import socket
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlencode

from agentapi import Session
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

STREAM = "/_stcore/stream"
WIDGET_ID = re.compile(r"^\$\$ID-[0-9a-f]+-(.+)$")
# ForwardMsg.script_finished values
FINISHED, COMPILE_ERROR, EARLY_FOR_RERUN, FRAGMENT_FINISHED = 0, 1, 2, 3


@dataclass
class Step:
    """One request of a tab: what it was, when it started (time.time()), how long until its
    run finished, whether it ended well and whether a full page run happened in it."""

    label: str
    started: float
    seconds: float
    ok: bool
    full: bool
    error: str = ""

    @property
    def ended(self) -> float:
        return self.started + self.seconds


class Tab(Protocol):
    steps: list[Step]

    def open(self) -> Step: ...
    def poll(self) -> Step: ...
    def timers(self) -> dict[str, float]: ...
    def poll_fragment(self, fragment: str) -> Step: ...
    def set(self, key: str, value: Any) -> Step: ...
    def click(self, key: str) -> Step: ...
    def close(self) -> None: ...
    @property
    def keys(self) -> builtins.set[str]: ...  # `set` in this class is the method above
    @property
    def texts(self) -> list[str]: ...
    @property
    def poll_interval(self) -> float | None: ...
    @property
    def params(self) -> dict[str, str]: ...


# ------------------------------------------------------------------ the browser protocol
@dataclass
class _Element:
    kind: str
    text: str = ""
    key: str | None = None
    widget_id: str | None = None


@dataclass
class BrowserTab:
    """One browser tab on `base` at `/{page}?{query}`, without the drawing.

    `elements` is the page as the last runs left it, by delta path: a full run replaces it
    when it finishes, a fragment run updates the paths it sent. `fragments` maps each
    fragment that polls to its interval in seconds, as announced by the server."""

    base: str
    page: str
    query: dict[str, str]
    timeout: float = 120.0
    steps: list[Step] = field(default_factory=list)
    elements: dict[tuple[int, ...], _Element] = field(default_factory=dict)
    fragments: dict[str, float] = field(default_factory=dict)
    page_hash: str = ""
    _ws: ClientConnection | None = None
    _values: dict[str, WidgetState] = field(default_factory=dict)  # by widget id
    _cache: dict[str, ForwardMsg] = field(default_factory=dict)  # cacheable messages by hash
    _fresh: dict[tuple[int, ...], _Element] | None = None  # a full run's page so far
    _pending: int = 0  # requests sent whose run has not ended yet

    # -- the connection
    def _connect(self) -> ClientConnection:
        if self._ws is None:
            url = self.base.replace("http://", "ws://", 1) + STREAM
            # No keep-alive pings: a browser sends none, and a busy server answering them
            # late would make the client drop a connection a browser keeps.
            self._ws = connect(url, subprotocols=[Subprotocol("streamlit")], max_size=None,
                               open_timeout=self.timeout, close_timeout=2,
                               ping_interval=None)
            # As browsers do: without it, each frame waits ~40 ms for the server's delayed
            # acknowledgement of the previous one (Nagle), a delay no phone would see.
            self._ws.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return self._ws

    def close(self) -> None:
        if self._ws is not None:
            with suppress(OSError, ConnectionClosed):
                self._ws.close()
            self._ws = None

    # -- what the page shows
    @property
    def keys(self) -> set[str]:
        return {e.key for e in self.elements.values() if e.key}

    @property
    def texts(self) -> list[str]:
        return [e.text for e in self.elements.values() if e.text]

    @property
    def poll_interval(self) -> float | None:
        return min(self.fragments.values()) if self.fragments else None

    @property
    def params(self) -> dict[str, str]:
        """The address's query parameters now (the app may have changed them)."""
        return dict(self.query)

    def _widget_id(self, key: str) -> str:
        for e in self.elements.values():
            if e.key == key and e.widget_id:
                return e.widget_id
        raise KeyError(f"no widget with the key {key!r} on the page")

    # -- requests
    def _send(self, fragment: str = "", trigger: str | None = None) -> None:
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = urlencode(self.query)
        cs.page_name = self.page
        cs.page_script_hash = self.page_hash
        cs.fragment_id = fragment
        cs.is_auto_rerun = bool(fragment)
        cs.cached_message_hashes.extend(self._cache)
        live = {e.widget_id for e in self.elements.values() if e.widget_id}
        for wid, state in self._values.items():
            if wid in live:
                cs.widget_states.widgets.append(state)
        if trigger is not None:
            cs.widget_states.widgets.append(WidgetState(id=trigger, trigger_value=True))
        self._connect().send(msg.SerializeToString())

    def _run(self, label: str, fragment: str = "", trigger: str | None = None) -> Step:
        """Send one rerun request and read until its run (and any run it led to) ends.

        A run still going after `timeout` is recorded as failed but not abandoned: the
        connection stays (as a browser's would) and the next request first waits it out."""
        started, t0 = time.time(), time.perf_counter()
        full, ok, error = False, False, ""
        try:
            while self._pending:
                self._finish_run()
                self._pending -= 1
            started, t0 = time.time(), time.perf_counter()
            self._send(fragment, trigger)
            self._pending += 1
            full = self._finish_run()
            self._pending -= 1
            ok = True
        except TimeoutError as e:
            error = f"TimeoutError: {e}"
        except (OSError, ConnectionClosed, KeyError, RuntimeError) as e:
            error = f"{type(e).__name__}: {e}"[:200]
            self.close()
            self._pending = 0
        step = Step(label, started, time.perf_counter() - t0, ok, full, error)
        self.steps.append(step)
        return step

    def _finish_run(self) -> bool:
        """Read until the run of one request ends (following st.rerun to the run it started);
        whether a full page run happened. RuntimeError when the run did not end well."""
        full = False
        while True:
            status, was_full = self._until_finished()
            full = full or was_full
            if status == EARLY_FOR_RERUN:
                continue  # the run was replaced by another (st.rerun): read that one
            if status not in (FINISHED, FRAGMENT_FINISHED):
                raise RuntimeError(f"script_finished {status}")
            return full

    def _until_finished(self) -> tuple[int, bool]:
        """Read messages until a `script_finished`; its status and whether a full run began."""
        ws = self._connect()
        full = False
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no end of run after {self.timeout:.0f} s")
            raw = ws.recv(timeout=left)
            msg = ForwardMsg()
            msg.ParseFromString(raw if isinstance(raw, bytes) else raw.encode())
            if msg.WhichOneof("type") == "ref_hash":
                cached = self._cache[msg.ref_hash]
                meta = msg.metadata
                msg = ForwardMsg()
                msg.CopyFrom(cached)
                msg.metadata.CopyFrom(meta)
            elif msg.metadata.cacheable and msg.hash:
                self._cache[msg.hash] = msg
            kind = msg.WhichOneof("type")
            if kind == "new_session" and not msg.metadata.run.fragment_ids:
                # A full run: the browser drops its fragment timers and the page's elements
                # (those this run does not send again are gone when it finishes).
                full = True
                self._fresh = {}
                self.fragments.clear()
                self.page_hash = msg.new_session.page_script_hash or self.page_hash
            elif kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                qs = msg.page_info_changed.query_string
                self.query = dict(parse_qsl(qs, keep_blank_values=True))
            elif kind == "auto_rerun":
                self.fragments[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                for fid in msg.stop_auto_rerun.fragment_ids:
                    self.fragments.pop(fid, None)
            elif kind == "delta":
                self._delta(msg)
            elif kind == "script_finished":
                status = int(msg.script_finished)
                if status == FINISHED and self._fresh is not None:
                    self.elements, self._fresh = self._fresh, None
                elif status != EARLY_FOR_RERUN:
                    self._fresh = None
                return status, full

    def _delta(self, msg: ForwardMsg) -> None:
        path = tuple(msg.metadata.delta_path)
        target = self._fresh if self._fresh is not None else self.elements
        d = msg.delta
        if d.WhichOneof("type") != "new_element":
            target[path] = _Element("block")
            return
        el = d.new_element
        kind = el.WhichOneof("type") or "empty"
        sub = getattr(el, kind, None)
        text = getattr(sub, "body", "") if sub is not None else ""
        wid = getattr(sub, "id", "") if sub is not None else ""
        m = WIDGET_ID.match(wid) if wid else None
        target[path] = _Element(kind, str(text), m.group(1) if m else None, wid or None)

    # -- the interface
    def open(self) -> Step:
        return self._run(f"open {self.page}")

    def rerun(self) -> Step:
        """A full run of the page with nothing changed (as the app's own st.rerun does)."""
        return self._run("rerun")

    def poll(self) -> Step:
        """What the browser's timer sends: a rerun of the polling fragment only (the fastest,
        where a page has several; `Timers` runs each on its own interval)."""
        if not self.fragments:
            return self._run("rerun")
        fid = min(self.fragments, key=self.fragments.__getitem__)
        return self._run("poll", fragment=fid)

    def timers(self) -> dict[str, float]:
        """The page's polling fragments and their intervals, as the server announced them."""
        return dict(self.fragments)

    def poll_fragment(self, fragment: str) -> Step:
        """One fragment's timer firing: a fragment-only rerun of it."""
        return self._run("poll", fragment=fragment)

    def set(self, key: str, value: Any) -> Step:
        """Move a slider to `value` (a number; the browser sends it as a one-item array)."""
        try:
            wid = self._widget_id(key)
        except KeyError as e:
            return self._refused(f"set {key}", str(e))
        state = WidgetState(id=wid)
        state.double_array_value.data.append(float(value))
        self._values[wid] = state
        return self._run(f"set {key}")

    def click(self, key: str) -> Step:
        try:
            wid = self._widget_id(key)
        except KeyError as e:
            return self._refused(f"click {key}", str(e))
        return self._run(f"click {key}", trigger=wid)

    def _refused(self, label: str, error: str) -> Step:
        step = Step(label, time.time(), 0.0, False, False, error)
        self.steps.append(step)
        return step


# ------------------------------------------------------------------------ the agent API
def _walk(node: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            out.append(n)
            stack.extend(reversed(n.get("children", [])))
    return out


@dataclass
class AgentTab:
    """One agent-API session on `/{page}?{query}`. `poll` reruns the whole page: the agent API
    has no way to run only a fragment on its timer."""

    base: str
    page: str
    query: dict[str, str]
    timeout: float = 120.0
    interval: float = 2.0
    steps: list[Step] = field(default_factory=list)
    _session: Session | None = None

    def _s(self) -> Session:
        if self._session is None:
            self._session = Session(self.base, timeout=self.timeout)
        return self._session

    def close(self) -> None:
        if self._session is not None:
            self._session.close()

    @property
    def keys(self) -> set[str]:
        return set(self._s().actions())

    @property
    def texts(self) -> list[str]:
        out = []
        for n in _walk(self._s().snapshot.get("tree", {})):
            props = n.get("props") or {}
            body = props.get("body")
            if isinstance(body, str):
                out.append(body)
        return out

    @property
    def poll_interval(self) -> float | None:
        return self.interval

    @property
    def params(self) -> dict[str, str]:
        qp = self._s().snapshot.get("query_params") or {}
        return {k: (v[-1] if isinstance(v, list) and v else str(v)) for k, v in qp.items()}

    def _timed(self, label: str, body: dict[str, Any]) -> Step:
        started = time.time()
        t = self._s().timed(label, body)
        step = Step(label, started, t.seconds, t.ok, t.ok, t.error)
        self.steps.append(step)
        return step

    def open(self) -> Step:
        return self._timed(f"open {self.page}", {
            "page": self.page, "query_params": {k: [v] for k, v in self.query.items()}})

    def poll(self) -> Step:
        return self._timed("poll", {})

    def timers(self) -> dict[str, float]:
        """One timer, the tab's interval: each poll reruns the whole page."""
        return {"": self.interval}

    def poll_fragment(self, fragment: str) -> Step:
        return self.poll()

    def set(self, key: str, value: Any) -> Step:
        return self._timed(f"set {key}", {"widget_state": {key: value}})

    def click(self, key: str) -> Step:
        return self._timed(f"click {key}", {"trigger": {"key": key}})


@dataclass
class Timers:
    """A browser's fragment timers for one tab: every polling fragment of the page runs on
    its own interval, and a full run of the page restarts them all (the browser drops its
    timers and the new run announces them again)."""

    tab: Tab
    due: dict[str, float] = field(default_factory=dict)  # fragment -> monotonic time

    def next(self) -> tuple[str, float] | None:
        """The fragment whose timer fires first, and when; None when the page polls not."""
        now, frags = time.monotonic(), self.tab.timers()
        for gone in set(self.due) - set(frags):
            del self.due[gone]
        for fid, interval in frags.items():
            self.due.setdefault(fid, now + interval)
        if not self.due:
            return None
        fid = min(self.due, key=self.due.__getitem__)
        return fid, self.due[fid]

    def ran(self, step: Step) -> None:
        """After any request of the tab: a full run restarts the timers."""
        if step.full:
            self.due.clear()

    def fire(self, fragment: str) -> Step:
        step = self.tab.poll_fragment(fragment)
        interval = self.tab.timers().get(fragment)
        if step.full or interval is None:
            self.due.pop(fragment, None)
            self.ran(step)
        else:  # a slow run delays the next tick, as in the browser
            self.due[fragment] = max(self.due[fragment] + interval, time.monotonic())
        return step


def snapshot_json(tab: Tab) -> str:
    """The page as text, for messages when something unexpected shows."""
    return json.dumps(tab.texts)[:600]
