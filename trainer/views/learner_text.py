"""What the pages say about the learner: who is answering, where the answers are kept, why
something the browser sent was not used, and the script that stores the learner's cookie.

Why here: the words are read by people who have never heard of cookies or ids; they change
without touching the logic of `trainer.learners.identity`, and a test can read them.
"""

from __future__ import annotations

import json

from trainer.i18n import N_, tr
from trainer.learners.identity import COOKIE, COOKIE_MAX_AGE, Note, Source, is_browser_id
from trainer.learners.names import EXPECTED, MAX_NAME

KEPT = N_("Your answers are kept in this browser.")
NAME_LABEL = N_("Your name")
NAME_CAPTION = N_("Only this browser shows this name. Someone who types the same name "
                  "elsewhere starts their own answers; they never see yours.")
NOT_YOU = N_("Not you?")
NEW_LEARNER = N_("Start as a new learner")
OWN_LEARNER = N_("Back to my own answers")
MAX_NAME_CHARS = MAX_NAME


def name_help() -> str:
    return tr("Shown on your pages only: {expected}.", expected=tr(EXPECTED))


def offline_reason(why: str) -> str:
    """Why answers are kept in this tab only, in the reader's language (every reason the
    storage gives is catalogued)."""
    return tr(why)


def _code(value: str) -> str:
    """A value the browser sent, shown as typed and never as Markdown."""
    return "`" + value.replace("`", "'") + "`"


def answering_as(name: str, source: Source) -> str:
    """The line above the quiz and the calibration page."""
    if source == "link":
        return tr("Answering as **{name}**, opened from a link: anyone with this link sees "
                  "these answers.", name=name)
    if source == "room":
        return tr("Answering as **{name}**, the name your room gave you.", name=name)
    return tr("Answering as **{name}**. Your answers are kept in this browser.", name=name)


def answers_of(name: str, source: Source) -> str:
    """The line under the Calibration page's title."""
    if source == "link":
        return tr("Answers of **{name}**, opened from a link: anyone with this link sees them. "
                  "Back to your own answers on the Quiz.", name=name)
    return tr("Answers of **{name}**. Your answers are kept in this browser. Not you? Say so "
              "on the Quiz.", name=name)


def not_you_text(name: str) -> str:
    return tr("Start afresh as someone new in this browser. The answers of **{name}** stay "
              "saved, but this browser will not open them again.", name=name)


def note_text(note: Note) -> str:
    """Why the cookie or the link was not used, in one or two sentences."""
    if note.kind == "bad_cookie":
        return tr("This browser's learner cookie could not be read, so you start here as a "
                  "new learner.")
    if note.kind == "bad_link":
        return tr("The address names the learner {value}, which is not a learner name "
                  "({expected}); it was ignored.", value=_code(note.value),
                  expected=tr(EXPECTED))
    if note.kind == "other_browser":
        return tr("The address names a learner of another browser. Answers stay in the browser "
                  "that gave them, so this page shows yours.")
    return tr("No answers are saved under {value}. Names are private to each browser now, so "
              "a name in the address opens only answers saved under it before; this page "
              "shows yours.", value=_code(note.value))


def cookie_script(browser_id: str) -> str:
    """A script that keeps `browser_id` in this browser for 400 days (the longest browsers
    allow), for every page of the site, sent on same-site requests only."""
    if not is_browser_id(browser_id):
        raise ValueError(f"not a browser learner id: {browser_id!r}")
    cookie = f"{COOKIE}={browser_id}; Max-Age={COOKIE_MAX_AGE}; Path=/; SameSite=Lax"
    return ("<script>(function () { var c = " + json.dumps(cookie) + ";"
            " if (location.protocol === 'https:') { c += '; Secure'; }"
            " document.cookie = c; })();</script>")
