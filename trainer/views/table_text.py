"""The words of a game table: the host's set-up, the screen, each phone.

Why a module of its own: the same seat, countdown and result are said on three screens (the
host's page, the shared screen, a phone) and must read the same on each; the pages only
arrange these.
"""

from __future__ import annotations

import html
from datetime import datetime

from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import percent
from trainer.play.setup import Strength, bot_title
from trainer.tables.model import TableSeat, TableSettings

TABLE_CSS = """<style>
.table-code{font-family:ui-monospace,monospace;font-size:clamp(2.2rem,7vw,5rem);
 letter-spacing:.12em;font-weight:800;color:#f0c970;line-height:1.05;margin:0}
.table-seats{display:flex;flex-wrap:wrap;gap:.5rem .7rem;margin:.5rem 0}
.table-seats span{background:#2a1d1b;border:1px solid #4a3430;border-radius:.6rem;
 padding:.2rem .7rem;font-size:clamp(1rem,1.9vw,1.5rem)}
.table-seats span.open{opacity:.55;border-style:dashed}
.table-wait{font-size:clamp(1.2rem,2.6vw,2.1rem);font-weight:700;margin:.2rem 0}
.table-clock{font-family:ui-monospace,monospace;color:#f0c970}
</style>"""

HOST_TITLE = N_("Open a game table")
HOST_INTRO = N_("People play a whole game of Coup against each other, each on their own phone, "
                "with this screen as the table. Empty seats can be filled by bots. After the "
                "game every card is turned over, and each player gets a review of their own "
                "decisions.")
JOIN_TITLE = N_("Join the game")
NO_DB = N_("Game tables need the shared database, and it cannot be reached: {problem}")
CLOCK_HELP = N_("A decision not made in time is made for the player: Income on a turn (a Coup "
                "on a random player at 10 or more coins), a pass when others may challenge or "
                "block, and the stand-in bot's choice otherwise (which card to lose or keep). "
                "This is the time-out rule of the forum variant, offered for every rule set.")
STAND_IN_HELP = N_("If a phone has not been seen for this long (closed, out of battery, out of "
                   "range), a bot plays for that seat until the phone comes back.")
PACE_HELP = N_("How long each bot move stays on the screen before the next one.")
SCREEN_HELP = N_("Open this on the screen everyone can see. It shows the table and never a "
                 "hidden card; it has no controls, so its address can be on view.")
VENUE_INTRO = N_("Every time someone at a table here decided whether to challenge or block a "
                 "claim, the bot had its own chance that the claim was a bluff. Once the game "
                 "is over the cards show who was bluffing: this compares the bot's chances, "
                 "and counting the cards alone, with the truth. Names are never used.")
REVIEW_NOTE = N_("How it grades: each option you had is played out many times with the bots "
                 "in the other seats, and with the cards you could not see drawn from what you "
                 "knew. It does not know how these people play, so a grade says what was best "
                 "against the bots' habits.")
HOST_KEY_NOTE = N_("This page's address is the table's host key: keep it on your own phone or "
                   "laptop, not on the shared screen.")


def clock_label(seconds: int) -> str:
    if seconds == 0:
        return tr("No clock")
    if seconds >= 60 and seconds % 60 == 0:
        return tr_n("{n} min per decision", "{n} min per decision", seconds // 60)
    return tr_n("{n} s per decision", "{n} s per decision", seconds)


def stand_in_label(seconds: int) -> str:
    if seconds == 0:
        return tr("Never")
    if seconds < 60:
        return tr_n("After {n} s", "After {n} s", seconds)
    return tr_n("After {n} min", "After {n} min", seconds // 60)


def settings_line(settings: TableSettings, title: str) -> str:
    seconds = settings.turn_seconds
    clock = clock_label(seconds) if seconds else tr("no clock")
    parts = [title, tr_n("{n} seat", "{n} seats", settings.seats), clock]
    if settings.stand_in_after:
        away = settings.stand_in_after
        parts.append(tr_n("a bot stands in after {n} s away", "a bot stands in after {n} s away",
                          away) if away < 60 else
                     tr_n("a bot stands in after {n} min away",
                          "a bot stands in after {n} min away", away // 60))
    return " · ".join(parts)


def seat_label(seat: TableSeat) -> str:
    """"Ann", "Calibrated bot", "Ann (a bot plays for now)", "empty"."""
    if seat.kind == "open":
        return tr("empty")
    if seat.kind == "bot":
        key = seat.bot or "honest"
        title = bot_title(key)
        return title if key == "rule" else tr("{name} bot", name=title)
    name = seat.nickname or "?"
    return tr("{name} (a bot plays for now)", name=name) if seat.away else name


def seats_html(seats: tuple[TableSeat, ...]) -> str:
    spans = []
    for s in seats:
        cls = ' class="open"' if s.kind == "open" else ""
        spans.append(f"<span{cls}>{s.seat + 1}. {html.escape(seat_label(s))}</span>")
    return f'<div class="table-seats">{"".join(spans)}</div>'


def strength_note(key: str, strength: Strength | None) -> str:
    if strength is None:
        return tr("{bot}: not measured.", bot=bot_title(key))
    return tr("{bot} wins {rate} of games against other bots at a table of {players} (a fair "
              "share is {fair}).", bot=bot_title(key), rate=percent(strength.rate),
              players=strength.players, fair=percent(strength.fair))


def at_html(number: int, moves: int) -> str:
    """Which game and move a page shows, as data on an empty element: what a test or a
    benchmark reads to know that a move has reached a phone or the screen (public numbers,
    nothing a player may not know)."""
    return f'<span class="table-at" data-game="{number}" data-moves="{moves}"></span>'


def code_html(code: str) -> str:
    label = html.escape(tr("Table code {code}", code=" ".join(code)))
    return f'<p class="table-code" aria-label="{label}">{code}</p>'


def seconds_left(deadline: datetime | None, now: datetime) -> int | None:
    if deadline is None:
        return None
    return max(0, int((deadline - now).total_seconds() + 0.999))


def waiting_html(name: str | None, question: str | None, left: int | None) -> str:
    """The line everyone reads: whose decision it is, and the clock when there is one."""
    if name is None:
        return ""
    clock = f' <span class="table-clock">· {left} s</span>' if left is not None else ""
    text = html.escape(question or tr("Waiting for {name}", name=name))
    return f'<p class="table-wait">{text}{clock}</p>'


def result_line(names: tuple[str, ...], winner: int | None, me: int | None = None) -> str:
    if winner is None:
        return tr("The game was ended before anyone won.")
    if me is not None and winner == me:
        return tr("You won the game.")
    return tr("{name} won the game.", name=names[winner])


def quiz_from_games(count: int, rollouts: int) -> str:
    if not count:
        return tr("Once games are played to their end here, the decisions people made in them "
                  "can become quiz questions.")
    return tr_n("{n} decision people made in the finished games here can become questions of "
                "the Quiz's bank *people*, each graded by playing its options out (up to "
                "{rollouts} times each; a few seconds a decision). Nobody's name goes with "
                "them.",
                "{n} decisions people made in the finished games here can become questions of "
                "the Quiz's bank *people*, each graded by playing its options out (up to "
                "{rollouts} times each; a few seconds a decision). Nobody's name goes with "
                "them.", count, rollouts=rollouts)


def quiz_made(items: int) -> str:
    return tr_n("{n} question in the bank *people*: choose it on the Quiz page.",
                "{n} questions in the bank *people*: choose it on the Quiz page.", items)


def result_over_line(names: tuple[str, ...], winner: int | None, me: int | None = None) -> str:
    """The result, then that every card is now face up."""
    return result_line(names, winner, me) + " " + tr("Every card is turned over.")
