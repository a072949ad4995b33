"""Who is answering in this browser tab: the browser's own learner, an old learner opened from
a link, or (later) a learner a teacher's room assigns.

Why a random id in a cookie: a learner should come back to their answers without accounts,
passwords or bookmarks, and nobody else should reach them by typing a name. The first visit
draws 128 random bits (`new_browser_id`); the page stores them in a long-lived cookie of this
browser, and the server reads the cookie when the page connects. The id is the key the answers
are saved under; the name the page shows sits beside it (`trainer.learners.names`).

`?learner=` links: answers saved before browser ids are keyed by a typed name or a guest id
("ann", "guest-b38f30"). A link naming such a key opens those answers in that tab, as it did
(they were never private). A name with no saved answers is not created: names are private to
a browser now. A browser id in a link opens nothing but this browser's own learner, so a link
or a screenshot of the address never hands one learner's answers to another browser.

Plain Python over a mapping (Streamlit's session state in the app, a dict in the tests); the
cookie and the link arrive as the strings the browser sent, so everything here validates them.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, Literal

from trainer.learners.names import is_old_key

COOKIE = "coup_trainer_learner"
COOKIE_MAX_AGE = 400 * 24 * 60 * 60  # seconds: the longest a browser keeps a cookie (Chrome)
LINK_PARAM = "learner"

# What this tab remembers between reruns (the cookie is only read when the page connects).
BROWSER = "learner_browser"  # this browser's own learner id
LINKED = "learner_linked"  # an old learner opened from a link, kept while the tab lives
BAD_COOKIE = "learner_bad_cookie"  # what an unreadable cookie held, until a page says so
RENEWED = "learner_cookie_renewed"  # the id whose cookie this tab has written once already

_ID = re.compile(r"^b-[0-9a-f]{32}$")
SHOWN_CHARS = 40  # of a refused value, in a note

Source = Literal["browser", "link", "room"]
NoteKind = Literal["bad_cookie", "bad_link", "other_browser", "unknown_link"]


def new_browser_id() -> str:
    """An unguessable learner id: "b-" and 128 random bits in hex."""
    return "b-" + secrets.token_hex(16)


def is_browser_id(value: object) -> bool:
    return isinstance(value, str) and bool(_ID.match(value))


@dataclass(frozen=True)
class Note:
    """Something the browser sent that was not used, and what it was (cut short)."""

    kind: NoteKind
    value: str = ""


@dataclass(frozen=True)
class Resolution:
    key: str  # whose answers this tab shows and saves
    browser_id: str  # this browser's own learner: what the cookie must hold
    source: Source
    notes: tuple[Note, ...]
    write_cookie: bool  # the cookie the browser sent is not `browser_id`


def _shown(value: str) -> str:
    value = "".join(c for c in value if c.isprintable())
    return value if len(value) <= SHOWN_CHARS else value[:SHOWN_CHARS - 1] + "…"


def read_cookie(raw: str | None) -> tuple[str | None, Note | None]:
    """The learner id in the cookie's value, or None, with a note when a value was there but
    was not an id (edited by hand, or left by something else under the same name)."""
    if raw is None or raw == "":
        return None, None
    value = _sent(raw)
    if is_browser_id(value):
        return value, None
    return None, Note("bad_cookie", _shown(raw))


def browser_learner(state: MutableMapping[str, Any], cookie: str | None) -> str:
    """This browser's own learner: the one this tab already holds, else the cookie's, else a
    new one (an unreadable cookie is kept under `BAD_COOKIE` for the page to mention)."""
    held = state.get(BROWSER)
    if is_browser_id(held):
        return str(held)
    found, note = read_cookie(cookie)
    if note is not None:
        state[BAD_COOKIE] = note.value
    state[BROWSER] = found or new_browser_id()
    return str(state[BROWSER])


def _sent(cookie: str | None) -> str:
    return (cookie or "").strip().strip('"')


def cookie_due(state: MutableMapping[str, Any], cookie: str | None) -> str | None:
    """The id the browser's cookie must be set to now, or None.

    Due while the cookie the page connected with is not this tab's learner (the server sees
    the cookie of the connection only, not what a script wrote since), and once per tab when
    it is: writing it again starts its 400 days afresh, so a learner who keeps coming back is
    never forgotten."""
    held = browser_learner(state, cookie)
    if _sent(cookie) != held:
        return held
    if state.get(RENEWED) != held:
        state[RENEWED] = held
        return held
    return None


def resolve(state: MutableMapping[str, Any], cookie: str | None, link: str | None,
            known: Callable[[str], bool], assigned: str | None = None) -> Resolution:
    """The learner of this page view.

    Order: a learner assigned by a room (not built yet: the room will pass its key in as
    `assigned`), then an old learner opened from a `?learner=` link in this tab, then this
    browser's own learner (`browser_learner`). `known(key)` says whether answers were ever
    saved under an old key. An unreadable cookie is noted once.
    """
    notes: list[Note] = []
    browser_id = browser_learner(state, cookie)
    if BAD_COOKIE in state:
        notes.append(Note("bad_cookie", str(state.pop(BAD_COOKIE))))

    if link is not None and link.strip():
        asked = link.strip()
        if asked == browser_id:
            state.pop(LINKED, None)
        elif is_browser_id(asked):
            notes.append(Note("other_browser"))
        elif not is_old_key(asked):
            notes.append(Note("bad_link", _shown(asked)))
        elif asked == state.get(LINKED) or known(asked):
            state[LINKED] = asked
        else:
            notes.append(Note("unknown_link", _shown(asked)))

    source: Source = "browser"
    key = browser_id
    if assigned is not None:
        key, source = assigned, "room"
    elif isinstance(linked := state.get(LINKED), str):
        key, source = linked, "link"
    return Resolution(key, browser_id, source, tuple(notes),
                      write_cookie=_sent(cookie) != browser_id)


def start_new(state: MutableMapping[str, Any]) -> str:
    """"Not you?": this browser gets a new learner (and a link's learner is let go). The
    previous learner's answers stay saved under their id; this browser no longer opens them."""
    state.pop(LINKED, None)
    state[BROWSER] = new_browser_id()
    return str(state[BROWSER])


def back_to_own(state: MutableMapping[str, Any]) -> None:
    """Leave the learner a link opened and answer as this browser's own learner again."""
    state.pop(LINKED, None)
