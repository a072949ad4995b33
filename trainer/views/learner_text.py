"""What the pages say about the learner: who is answering, where the answers are kept, why
something the browser sent was not used, and the script that stores the learner's cookie.

Why here: the words are read by people who have never heard of cookies or ids; they change
without touching the logic of `trainer.learners.identity`, and a test can read them.
"""

from __future__ import annotations

import json

from trainer.learners.identity import COOKIE, COOKIE_MAX_AGE, Note, Source, is_browser_id
from trainer.learners.names import EXPECTED, MAX_NAME

KEPT = "Your answers are kept in this browser."
NAME_LABEL = "Your name"
NAME_HELP = f"Shown on your pages only: {EXPECTED}."
NAME_CAPTION = ("Only this browser shows this name. Someone who types the same name elsewhere "
                "starts their own answers; they never see yours.")
NOT_YOU = "Not you?"
NEW_LEARNER = "Start as a new learner"
OWN_LEARNER = "Back to my own answers"
MAX_NAME_CHARS = MAX_NAME


def _code(value: str) -> str:
    """A value the browser sent, shown as typed and never as Markdown."""
    return "`" + value.replace("`", "'") + "`"


def answering_as(name: str, source: Source) -> str:
    """The line above the quiz and the calibration page."""
    if source == "link":
        return (f"Answering as **{name}**, opened from a link: anyone with this link sees "
                f"these answers.")
    if source == "room":
        return f"Answering as **{name}**, the name your room gave you."
    return f"Answering as **{name}**. {KEPT}"


def answers_of(name: str, source: Source) -> str:
    """The line under the Calibration page's title."""
    if source == "link":
        return (f"Answers of **{name}**, opened from a link: anyone with this link sees them. "
                f"Back to your own answers on the Quiz.")
    return f"Answers of **{name}**. {KEPT} Not you? Say so on the Quiz."


def not_you_text(name: str) -> str:
    return (f"Start afresh as someone new in this browser. The answers of **{name}** stay "
            f"saved, but this browser will not open them again.")


def note_text(note: Note) -> str:
    """Why the cookie or the link was not used, in one or two sentences."""
    if note.kind == "bad_cookie":
        return ("This browser's learner cookie could not be read, so you start here as a new "
                "learner.")
    if note.kind == "bad_link":
        return (f"The address names the learner {_code(note.value)}, which is not a learner "
                f"name ({EXPECTED}); it was ignored.")
    if note.kind == "other_browser":
        return ("The address names a learner of another browser. Answers stay in the browser "
                "that gave them, so this page shows yours.")
    return (f"No answers are saved under {_code(note.value)}. Names are private to each "
            f"browser now, so a name in the address opens only answers saved under it before; "
            f"this page shows yours.")


def cookie_script(browser_id: str) -> str:
    """A script that keeps `browser_id` in this browser for 400 days (the longest browsers
    allow), for every page of the site, sent on same-site requests only."""
    if not is_browser_id(browser_id):
        raise ValueError(f"not a browser learner id: {browser_id!r}")
    cookie = f"{COOKIE}={browser_id}; Max-Age={COOKIE_MAX_AGE}; Path=/; SameSite=Lax"
    return ("<script>(function () { var c = " + json.dumps(cookie) + ";"
            " if (location.protocol === 'https:') { c += '; Secure'; }"
            " document.cookie = c; })();</script>")
