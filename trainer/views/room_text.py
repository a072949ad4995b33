"""The words and styles of a room: the presenter screen read from the back of a class, the
phone read at arm's length. Short sentences first; every probability says what it is the
chance of."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from trainer.engine.errors import RuleSetError
from trainer.engine.variants import parse_rules
from trainer.quiz.scoring import VERDICT_AT
from trainer.rooms.model import Room
from trainer.rooms.results import ClassScores, Standing
from trainer.rooms.settings import LEADERBOARD, LIVE, NAMES, RoomSettings, Source
from trainer.rulebook import choices
from trainer.verdicts.grades import parse_grade
from trainer.verdicts.words import grade_word
from trainer.views.plurals import count

ROOM_CSS = """<style>
.room-code{font-family:ui-monospace,monospace;font-size:clamp(2.6rem,9vw,6.5rem);
 letter-spacing:.12em;font-weight:800;color:#f0c970;line-height:1.05;margin:0}
.room-join{font-size:clamp(1rem,2.2vw,1.6rem);margin:.2rem 0 .6rem}
.room-screen-code{font-family:ui-monospace,monospace;font-size:clamp(2rem,5vw,4rem);
 font-weight:800;color:#f3ead8;letter-spacing:.2em}
.room-count{font-size:clamp(1.6rem,4vw,3rem);font-weight:700;margin:0}
.room-names{display:flex;flex-wrap:wrap;gap:.4rem .6rem;margin:.4rem 0}
.room-names span{background:#2a1d1b;border:1px solid #4a3430;border-radius:.6rem;
 padding:.15rem .6rem;font-size:clamp(1rem,1.8vw,1.4rem)}
.room-strip{font-size:clamp(1rem,1.6vw,1.3rem);margin:0}
.room-code-small{font-family:ui-monospace,monospace;letter-spacing:.08em;color:#f0c970}
.room-big-question{font-size:clamp(1.2rem,2.4vw,2rem);line-height:1.35}
</style>"""

HOST_TITLE = "Run a room"
HOST_INTRO = ("Put the same Coup decision in front of a whole class. Everyone answers on their "
              "phone; you reveal the truth and how the room did. Nothing is shown to the room "
              "until you choose.")
JOIN_TITLE = "Join a room"
JOIN_INTRO = "Type the code shown on the screen."
HIDDEN_UNTIL_REVEAL = "Answers stay hidden until you reveal them."
NO_ANSWERS_YET = "No answers yet."
WAITING_START = "You're in. The host will start soon: keep this page open."
WAITING_REVEAL = "Your answer is in. Wait for the host to reveal."
WAITING_NEXT = "The next question is coming."
NO_ROOM_DB = ("Rooms need the shared database, and it cannot be reached: {problem}")
RANKING_RULE = ("Points per question: for the chance of a bluff, 100 × (1 + log₂ of the "
                "chance you gave to what really happened), so 50% scores 0 and a confident "
                "miss costs up to 564; for the move, 100 minus the win-% points it lost. "
                "Speed never counts.")


# Whether phones can reach the server: `make run` serves this computer only, `make run LAN=1`
# the network (the Makefile); the same for `make serve`, a school's several processes. The
# host is told what to do; a phone only what is on.
LAN_COMMAND = "make run LAN=1"
SERVE_LAN_COMMAND = "make serve LAN=1"  # with the same WORKERS= and DB= as before


def loopback_only(command: str = LAN_COMMAND) -> str:
    return ("Phones cannot join: this app is served to this computer only. To let phones on "
            "the same Wi-Fi join, stop it (Ctrl+C in its terminal) and start it again with "
            f"`{command}`.")


def phone_loopback(command: str = LAN_COMMAND) -> str:
    return ("This app is served to its own computer only, so phones cannot open it until the "
            f"host starts it again with `{command}`.")


LAN_OPEN = ("Open to the network: phones on the same network as this computer (the "
            "classroom Wi-Fi) can join.")
PHONE_LAN = "Phones on the same network as the screen can join."


def phone_header(code: str, nickname: str) -> str:
    return f"Room {code} · your name in the room: **{nickname}**"


def seat_line(seat: str) -> str:
    return f"At this table everyone plays **{seat}** (marked YOU)."


def doubt_line(claimant: str, options: list[str]) -> str:
    which = " or ".join(f"**{o}**" for o in options)
    return (f"The bot cannot tell what kind of player {claimant} is; within that doubt, "
            f"{which} may be as good as the best move.")


def code_html(code: str) -> str:
    return f'<p class="room-code" aria-label="Room code {" ".join(code)}">{code}</p>'


def join_html(link: str) -> str:
    shown = html.escape(link.split("://", 1)[-1])
    return f'<p class="room-join">Scan the code, or go to <b>{shown}</b></p>'


def join_strip_html(code: str, link: str, screen: str | None) -> str:
    shown = html.escape(link.split("://", 1)[-1].split("?", 1)[0])
    extra = f" · screen code <b>{screen}</b>" if screen else ""
    return (f'<p class="room-strip">Join at <b>{shown}</b> with code '
            f'<b class="room-code-small">{code}</b>{extra}</p>')


def screen_code_html(code: str) -> str:
    return (f'<p class="room-join">Then type this screen code (it changes every 30 s):</p>'
            f'<p class="room-screen-code">{code}</p>')


def names_html(names: Sequence[str]) -> str:
    if not names:
        return '<p class="room-join">Nobody has joined yet.</p>'
    return '<div class="room-names">' + "".join(
        f"<span>{html.escape(n)}</span>" for n in names) + "</div>"


def count_html(answered: int, joined: int) -> str:
    return f'<p class="room-count">{answered} of {joined} answered</p>'


def joined_line(joined: int) -> str:
    return f"{joined} joined" if joined != 1 else "1 joined"


def question_header(room: Room) -> str:
    return f"Question {room.question + 1} of {len(room.questions)}"


PUZZLE_KINDS = {
    "any": "Any end-game puzzle",
    "bluff": "A bluff wins it",
    "trap": "The obvious move loses",
    "hold": "Hold on when behind",
}


def source_title(source: Source, lesson_titles: Mapping[str, str]) -> str:
    if source.kind == "check":
        return "Check yourself: rules questions after the Learn path"
    if source.kind == "puzzles":
        return f"End-game puzzles: {PUZZLE_KINDS[source.puzzles].lower()} (graded by perfect play)"
    if source.kind == "lesson":
        if source.lesson in (None, "*"):
            return "Questions from every lesson"
        return f"Lesson: {lesson_titles.get(source.lesson, source.lesson)}"
    drill = {"mixed": "Mixed decisions", "end-game": "End-game decisions",
             "theme": f"Theme: {source.theme}"}[source.drill]
    return f"{drill} · {rules_title(source.rule_set)}"


EVERY_RULE_SET = "Every rule set in the bank"


def rules_title(rule_set: str) -> str:
    """A room's rules by name ("Coup (base game) + paying 5 instead of a card"); a stored
    description the rules no longer read is shown as it is."""
    if rule_set == "all":
        return EVERY_RULE_SET
    try:
        return parse_rules(rule_set).variant.title
    except RuleSetError:
        return rule_set


def rules_line(rule_set: str) -> str | None:
    """The house rules and table rules a room's questions are played under, in plain words
    (None for the base game at the rulebook's table rules, or every rule set)."""
    if rule_set in ("all", "base"):
        return None
    try:
        return choices.in_force_line(parse_rules(rule_set))
    except RuleSetError:
        return None


def question_rules_line(item_rules: str, room_rules: str) -> str | None:
    """Under a question whose rules are not the room's (a room of every rule set): which."""
    if item_rules == room_rules:
        return None
    title = rules_title(item_rules)
    extra = rules_line(item_rules)
    return f"Rules of this question: **{title}**." + (f" {extra}" if extra else "")


def room_rules(source: Source) -> str | None:
    """The rules of a drill room's questions, for the screen and the phones: the rule set's
    title and the house and table rules in force (None for lessons and puzzles, whose rules
    each question carries)."""
    if source.kind != "drill":
        return None
    line = rules_line(source.rule_set)
    return f"Rules: **{rules_title(source.rule_set)}**." + (f" {line}" if line else "")


MAKE_HELP = ("Bots play games under exactly these rules; each decision is valued by playing "
             "every option out {rollouts} times, as the Quiz's own question banks are. The "
             "questions are saved as a question bank named after the rules, for every room "
             "and the Quiz.")


def no_questions_line(bank: str, made: str | None) -> str:
    """Why the room has no questions yet under the rules chosen, and what can be done."""
    if made is not None:
        return (f"The question bank {bank!r} has no questions under these rules, but the bank "
                f"{made!r} was made for them.")
    return ("No question here was played under these rules yet. Make some: bots play games "
            "under exactly these rules and each decision is valued, a few seconds a question.")


def made_line(count: int, bank: str) -> str:
    return (f"{count} questions under these rules are in the bank {bank!r}, for rooms and the "
            f"Quiz.")


def settings_line(settings: RoomSettings) -> str:
    parts = [NAMES[settings.names].split(" (")[0],
             f"leaderboard: {LEADERBOARD[settings.leaderboard].lower()}",
             f"answers: {LIVE[settings.live].lower()}"]
    if settings.screen_code:
        parts.append("screen code on")
    return " · ".join(parts)


def truth_line(claimant: str, claim: str, bluff: bool) -> str:
    return (f"The truth: {claimant} {'did not have' if bluff else 'had'} the {claim}. "
            f"The claim was {'a bluff' if bluff else 'true'}.")


def bot_line(bot: float | None, p_star: float | None) -> str | None:
    if bot is None:
        return None
    star = (f" A challenge pays when the chance of a bluff is above {p_star:.0%}."
            if p_star is not None else " Here a challenge never pays.")
    return f"The bot put the chance of a bluff at {bot:.0%}.{star}"


def class_belief_line(mean: float | None, n: int) -> str | None:
    if mean is None or not n:
        return None
    return f"The room's average chance of a bluff: {mean:.0%} ({count(n, 'answer')})."


def best_line(best: str, share: float | None) -> str:
    if share is None:
        return f"Best move: **{best}**."
    return f"Best move: **{best}**, chosen by {share:.0%} of the room."


def wrong_line(popular: tuple[str, int] | None) -> str | None:
    if popular is None:
        return None
    action, n = popular
    return f"Most popular poor move: **{action}** ({n} {'person' if n == 1 else 'people'})."


def scores_lines(s: ClassScores, enough: int = VERDICT_AT) -> list[str]:
    """How well the room's chances of a bluff matched the cards, in the Calibration page's
    terms. Below `enough` answers no figure: a Brier score on a handful of answers says mostly
    which claims happened to come up, and the Calibration page and the class report wait for
    the same number."""
    if not s.n or s.brier is None or s.log is None:
        return ["No chance of a bluff was given, so there is no calibration to show."]
    if s.n < enough:
        return [f"On {count(s.n, 'answer')} about bluffs: too few to tell how well the room "
                f"judged them (it takes {enough})."]
    lines = [f"On {count(s.n, 'answer')} about bluffs, the room's Brier score is {s.brier:.3f} "
             "(0 is perfect; always saying 50% scores 0.250)."]
    if s.bot_brier is not None:
        verdict = ("the room did better than the bot" if s.brier < s.bot_brier
                   else "the bot did better than the room")
        lines.append(f"The bot scored {s.bot_brier:.3f} on the same questions: {verdict}.")
    if s.bot_log is not None:
        lines.append(f"Log score (higher is better, 0 for always 50%): the room "
                     f"{s.log:.0f}, the bot {s.bot_log:.0f}.")
    return lines


def standings_rows(table: Sequence[Standing], top: int | None = None) -> list[dict[str, object]]:
    rows = table[:top] if top else table
    return [{"#": i + 1, "Name": s.name, "Answered": s.answered,
             "Belief points": round(s.belief), "Move points": round(s.decision),
             "Total": round(s.total)} for i, s in enumerate(rows)]


def my_answer_line(action: str, stated: float | None) -> str:
    if stated is None:
        return f"You chose **{action}**."
    return f"You chose **{action}** and said the chance of a bluff was **{stated:.0%}**."


def my_result_line(question: int, action: str | None, grade: str | None, best: str | None,
                   stated: float | None) -> str:
    """One question of a phone's results, short enough for a narrow screen."""
    if action is None:
        return f"{question}. Not answered."
    said = f" · you said {stated:.0%} bluff" if stated is not None else ""
    tip = "" if action == best or best is None else f" (best: {best})"
    word = grade_word(parse_grade(grade)) if grade is not None else "Not graded"
    return f"{question}. **{action}** — {word}{tip}{said}"


def my_total_line(points: float, answered: int, asked: int) -> str:
    """A phone's total over the questions the room was asked (not those it never reached)."""
    if asked == 0:
        return "The room ended before its first question."
    scored = f" and scored {points:.0f} points (belief plus move points)"
    if asked == 1:
        return ("You did not answer the one question asked." if not answered
                else f"You answered the one question asked{scored}.")
    return f"You answered {answered} of the {asked} questions asked{scored}."


def ended_early_line(asked: int, total: int) -> str | None:
    """Said at the end of a room its host ended before the last question; None otherwise
    (and in a room ended in the lobby, whose phones already say that nothing was asked)."""
    if asked == 0 or asked >= total:
        return None
    return f"The room ended after question {asked} of {total}."


# ------------------------------------------------------------------ joining and its limits
def screen_code_label(digits: int) -> str:
    return f"Screen code ({digits} digits on the screen)"


SCREEN_CODE_TOGGLE = ("Rotating screen code: joining also needs a {digits}-digit code shown "
                      "only on this screen")
MAX_SEATS_LABEL = "Most people in the room"
MAX_SEATS_HELP = ("Joins past this number are refused with a message; removing someone frees "
                  "a place.")
EXPIRED_HOST = ("Room {code} has expired: rooms last {hours} hours after your last step. "
                "Phones cannot join or answer, and are told it has expired.")
REOPEN = "Reopen the room for {hours} more hours"
REOPEN_HELP = "Phones can join and answer again; the room stays where it was."


def remove_button(n: int) -> str:
    return "Remove the people ticked" if n == 0 else \
        f"Remove {n} {'person' if n == 1 else 'people'}"


def first_answer_counts(action: str, stated: float | None) -> str:
    """Said to a tab whose answer came second: which answer of this seat counts."""
    said = f" with {stated:.0%} bluff" if stated is not None else ""
    return (f"This seat had already answered, in another tab or a moment earlier: "
            f"**{action}**{said} counts (the first answer stored). Your last tap did not count.")
