"""The words and styles of a room: the presenter screen read from the back of a class, the
phone read at arm's length. Short sentences first; every probability says what it is the
chance of."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from trainer.engine.errors import RuleSetError
from trainer.engine.explain import variant_title
from trainer.engine.names import card_name
from trainer.engine.variants import parse_rules
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import number, percent
from trainer.quiz.bank import theme_words
from trainer.quiz.scoring import VERDICT_AT
from trainer.rooms.model import Room
from trainer.rooms.results import ClassScores, Standing
from trainer.rooms.settings import RoomSettings, Source
from trainer.rulebook import choices
from trainer.verdicts.grades import parse_grade
from trainer.verdicts.words import Labeller, break_even_line, grade_word

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

HOST_TITLE = N_("Run a room")
HOST_INTRO = N_("Put the same Coup decision in front of a whole class. Everyone answers on "
                "their phone; you reveal the truth and how the room did. Nothing is shown to "
                "the room until you choose.")
JOIN_TITLE = N_("Join a room")
JOIN_INTRO = N_("Type the code shown on the screen.")
HIDDEN_UNTIL_REVEAL = N_("Answers stay hidden until you reveal them.")
NO_ANSWERS_YET = N_("No answers yet.")
WAITING_START = N_("You're in. The host will start soon: keep this page open.")
WAITING_REVEAL = N_("Your answer is in. Wait for the host to reveal.")
WAITING_NEXT = N_("The next question is coming.")
NO_ROOM_DB = N_("Rooms need the shared database, and it cannot be reached: {problem}")
RANKING_RULE = N_("Points per question: for the chance of a bluff, 100 × (1 + log₂ of the "
                  "chance you gave to what really happened), so 50% scores 0 and a confident "
                  "miss costs up to 564; for the move, 100 minus the win-% points it lost. "
                  "Speed never counts.")


# Whether phones can reach the server: `make run` serves this computer only, `make run LAN=1`
# the network (the Makefile); the same for `make serve`, a school's several processes. The
# host is told what to do; a phone only what is on.
LAN_COMMAND = "make run LAN=1"
SERVE_LAN_COMMAND = "make serve LAN=1"  # with the same WORKERS= and DB= as before


def loopback_only(command: str = LAN_COMMAND) -> str:
    return tr("Phones cannot join: this app is served to this computer only. To let phones on "
              "the same Wi-Fi join, stop it (Ctrl+C in its terminal) and start it again with "
              "`{command}`.", command=command)


def phone_loopback(command: str = LAN_COMMAND) -> str:
    return tr("This app is served to its own computer only, so phones cannot open it until the "
              "host starts it again with `{command}`.", command=command)


LAN_OPEN = N_("Open to the network: phones on the same network as this computer (the "
              "classroom Wi-Fi) can join.")
PHONE_LAN = N_("Phones on the same network as the screen can join.")


def phone_header(code: str, nickname: str) -> str:
    return tr("Room {code} · your name in the room: **{nickname}**", code=code,
              nickname=nickname)


def seat_line(seat: str) -> str:
    return tr("At this table everyone plays **{seat}** (marked YOU).", seat=seat)


def or_list(parts: Sequence[str]) -> str:
    """"a or b or c" in the reader's language."""
    said = parts[0] if parts else ""
    for part in parts[1:]:
        said = tr("{first} or {last}", first=said, last=part)
    return said


def doubt_line(claimant: str, options: list[str]) -> str:
    which = or_list([f"**{o}**" for o in options])
    return tr("The bot cannot tell what kind of player {claimant} is; within that doubt, "
              "{options} may be as good as the best move.", claimant=claimant, options=which)


def code_html(code: str) -> str:
    label = html.escape(tr("Room code {code}", code=" ".join(code)))
    return f'<p class="room-code" aria-label="{label}">{code}</p>'


def join_html(link: str) -> str:
    shown = html.escape(link.split("://", 1)[-1])
    said = tr("Scan the code, or go to <b>{link}</b>", link=shown)
    return f'<p class="room-join">{said}</p>'


def join_strip_html(code: str, link: str, screen: str | None) -> str:
    shown = html.escape(link.split("://", 1)[-1].split("?", 1)[0])
    extra = tr(" · screen code <b>{code}</b>", code=screen) if screen else ""
    said = tr('Join at <b>{link}</b> with code <b class="room-code-small">{code}</b>',
              link=shown, code=code)
    return f'<p class="room-strip">{said}{extra}</p>'


def screen_code_html(code: str) -> str:
    said = html.escape(tr("Then type this screen code (it changes every 30 s):"))
    return (f'<p class="room-join">{said}</p>'
            f'<p class="room-screen-code">{code}</p>')


def names_html(names: Sequence[str]) -> str:
    if not names:
        nobody = html.escape(tr("Nobody has joined yet."))
        return f'<p class="room-join">{nobody}</p>'
    return '<div class="room-names">' + "".join(
        f"<span>{html.escape(n)}</span>" for n in names) + "</div>"


def answered_line(answered: int, joined: int) -> str:
    """"3 of 12 answered"."""
    return tr_n("{answered} of {n} answered", "{answered} of {n} answered", joined,
                answered=answered)


def count_html(answered: int, joined: int) -> str:
    return f'<p class="room-count">{html.escape(answered_line(answered, joined))}</p>'


def joined_line(joined: int) -> str:
    return tr_n("{n} joined", "{n} joined", joined)


def question_header(room: Room) -> str:
    return tr("Question {number} of {total}", number=room.question + 1,
              total=len(room.questions))


PUZZLE_KINDS = {
    "any": N_("Any end-game puzzle"),
    "bluff": N_("A bluff wins it"),
    "trap": N_("The obvious move loses"),
    "hold": N_("Hold on when behind"),
}
# The same kinds inside "End-game puzzles: …", where English writes them in lower case.
_PUZZLE_KINDS_INSIDE = {
    "any": N_("any end-game puzzle"),
    "bluff": N_("a bluff wins it"),
    "trap": N_("the obvious move loses"),
    "hold": N_("hold on when behind"),
}


def puzzle_kind(kind: str) -> str:
    return tr(PUZZLE_KINDS[kind])


def source_title(source: Source, lesson_titles: Mapping[str, str]) -> str:
    if source.kind == "check":
        return tr("Check yourself: rules questions after the Learn path")
    if source.kind == "puzzles":
        return tr("End-game puzzles: {kind} (graded by perfect play)",
                  kind=tr(_PUZZLE_KINDS_INSIDE[source.puzzles]))
    if source.kind == "lesson":
        if source.lesson in (None, "*"):
            return tr("Questions from every lesson")
        title = lesson_titles.get(source.lesson)
        return tr("Lesson: {title}", title=tr(title) if title else source.lesson)
    drill = {"mixed": N_("Mixed decisions"), "end-game": N_("End-game decisions")}
    what = (tr("Theme: {theme}", theme=theme_words(source.theme or ""))
            if source.drill == "theme" else tr(drill[source.drill]))
    return f"{what} · {rules_title(source.rule_set)}"


EVERY_RULE_SET = N_("Every rule set in the bank")


def rules_title(rule_set: str) -> str:
    """A room's rules by name ("Coup (base game) + paying 5 instead of a card"); a stored
    description the rules no longer read is shown as it is."""
    if rule_set == "all":
        return tr(EVERY_RULE_SET)
    try:
        return variant_title(parse_rules(rule_set).variant)
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
    return tr("Rules of this question: **{rules}**.", rules=title) + (
        f" {extra}" if extra else "")


def room_rules(source: Source) -> str | None:
    """The rules of a drill room's questions, for the screen and the phones: the rule set's
    title and the house and table rules in force (None for lessons and puzzles, whose rules
    each question carries)."""
    if source.kind != "drill":
        return None
    line = rules_line(source.rule_set)
    return tr("Rules: **{rules}**.", rules=rules_title(source.rule_set)) + (
        f" {line}" if line else "")


MAKE_HELP = N_("Bots play games under exactly these rules; each decision is valued by playing "
               "every option out {rollouts} times, as the Quiz's own question banks are. The "
               "questions are saved as a question bank named after the rules, for every room "
               "and the Quiz.")


def no_questions_line(bank: str, made: str | None) -> str:
    """Why the room has no questions yet under the rules chosen, and what can be done."""
    if made is not None:
        return tr("The question bank {bank} has no questions under these rules, but the bank "
                  "{made} was made for them.", bank=repr(bank), made=repr(made))
    return tr("No question here was played under these rules yet. Make some: bots play games "
              "under exactly these rules and each decision is valued, a few seconds a "
              "question.")


def made_line(count: int, bank: str) -> str:
    return tr_n("{n} question under these rules is in the bank {bank}, for rooms and the Quiz.",
                "{n} questions under these rules are in the bank {bank}, for rooms and the "
                "Quiz.", count, bank=repr(bank))


def settings_line(settings: RoomSettings) -> str:
    parts = [tr({"anonymous": N_("Anonymous"), "names": N_("Names")}[settings.names]),
             tr("leaderboard: {choice}", choice={
                 "off": tr("no leaderboard"), "end": tr("at the end"),
                 "each": tr("after each question")}[settings.leaderboard]),
             tr("answers: {choice}", choice={
                 "after-reveal": tr("hidden until you reveal"),
                 "live": tr("live, as answers come in")}[settings.live])]
    if settings.screen_code:
        parts.append(tr("screen code on"))
    return " · ".join(parts)


def truth_line(claimant: str, claim: str, bluff: bool) -> str:
    if bluff:
        return tr("The truth: {claimant} did not have the {card}. The claim was a bluff.",
                  claimant=claimant, card=card_name(claim))
    return tr("The truth: {claimant} had the {card}. The claim was true.",
              claimant=claimant, card=card_name(claim))


def bot_line(bot: float | None, p_star: float | None) -> str | None:
    if bot is None:
        return None
    return (tr("The bot put the chance of a bluff at {p}.", p=percent(bot)) + " "
            + break_even_line(p_star))


def class_belief_line(mean: float | None, n: int) -> str | None:
    if mean is None or not n:
        return None
    return tr_n("The room's average chance of a bluff: {p} ({n} answer).",
                "The room's average chance of a bluff: {p} ({n} answers).", n,
                p=percent(mean))


def best_line(best: str, share: float | None) -> str:
    if share is None:
        return tr("Best move: **{move}**.", move=best)
    return tr("Best move: **{move}**, chosen by {share} of the room.", move=best,
              share=percent(share))


def wrong_line(popular: tuple[str, int] | None, say: Labeller | None = None) -> str | None:
    if popular is None:
        return None
    action, n = popular
    return tr_n("Most popular poor move: **{move}** ({n} person).",
                "Most popular poor move: **{move}** ({n} people).", n,
                move=say(action) if say is not None else action)


def scores_lines(s: ClassScores, enough: int = VERDICT_AT) -> list[str]:
    """How well the room's chances of a bluff matched the cards, in the Calibration page's
    terms. Below `enough` answers no figure: a Brier score on a handful of answers says mostly
    which claims happened to come up, and the Calibration page and the class report wait for
    the same number."""
    if not s.n or s.brier is None or s.log is None:
        return [tr("No chance of a bluff was given, so there is no calibration to show.")]
    if s.n < enough:
        return [tr_n("On {n} answer about bluffs: too few to tell how well the room judged "
                     "them (it takes {enough}).",
                     "On {n} answers about bluffs: too few to tell how well the room judged "
                     "them (it takes {enough}).", s.n, enough=enough)]
    lines = [tr_n("On {n} answer about bluffs, the room's Brier score is {brier} (0 is "
                  "perfect; always saying 50% scores {coin}).",
                  "On {n} answers about bluffs, the room's Brier score is {brier} (0 is "
                  "perfect; always saying 50% scores {coin}).", s.n,
                  brier=number(s.brier, 3), coin=number(0.25, 3))]
    if s.bot_brier is not None:
        if s.brier < s.bot_brier:
            lines.append(tr("The bot scored {brier} on the same questions: the room did better "
                            "than the bot.", brier=number(s.bot_brier, 3)))
        else:
            lines.append(tr("The bot scored {brier} on the same questions: the bot did better "
                            "than the room.", brier=number(s.bot_brier, 3)))
    if s.bot_log is not None:
        lines.append(tr("Log score (higher is better, 0 for always 50%): the room {room}, the "
                        "bot {bot}.", room=number(s.log), bot=number(s.bot_log)))
    return lines


# The columns of the leaderboard and of the host's table of each person's results.
RANK, NAME, ANSWERED, BELIEF, MOVE, TOTAL, RIGHT = (
    "#", N_("Name"), N_("Answered"), N_("Belief points"), N_("Move points"), N_("Total"),
    N_("Right"))


def standings_rows(table: Sequence[Standing], top: int | None = None) -> list[dict[str, object]]:
    rows = table[:top] if top else table
    return [{RANK: i + 1, tr(NAME): s.name, tr(ANSWERED): s.answered,
             tr(BELIEF): round(s.belief), tr(MOVE): round(s.decision),
             tr(TOTAL): round(s.total)} for i, s in enumerate(rows)]


def my_answer_line(action: str, stated: float | None) -> str:
    if stated is None:
        return tr("You chose **{move}**.", move=action)
    return tr("You chose **{move}** and said the chance of a bluff was **{p}**.", move=action,
              p=percent(stated))


def my_result_line(question: int, action: str | None, grade: str | None, best: str | None,
                   stated: float | None, say: Labeller | None = None) -> str:
    """One question of a phone's results, short enough for a narrow screen; `say` words a
    stored option's label."""
    if action is None:
        return tr("{number}. Not answered.", number=question)
    name = say or (lambda label: label)
    said = (" · " + tr("you said {p} bluff", p=percent(stated))) if stated is not None else ""
    tip = "" if action == best or best is None else " " + tr("(best: {move})", move=name(best))
    word = grade_word(parse_grade(grade)) if grade is not None else grade_word(None)
    return f"{question}. **{name(action)}** — {word}{tip}{said}"


def my_total_line(points: float, answered: int, asked: int) -> str:
    """A phone's total over the questions the room was asked (not those it never reached)."""
    if asked == 0:
        return tr("The room ended before its first question.")
    if asked == 1:
        return (tr("You did not answer the one question asked.") if not answered
                else tr("You answered the one question asked and scored {points} points "
                        "(belief plus move points).", points=number(points)))
    return tr_n("You answered {answered} of the {n} question asked and scored {points} points "
                "(belief plus move points).",
                "You answered {answered} of the {n} questions asked and scored {points} points "
                "(belief plus move points).", asked, answered=answered, points=number(points))


def ended_early_line(asked: int, total: int) -> str | None:
    """Said at the end of a room its host ended before the last question; None otherwise
    (and in a room ended in the lobby, whose phones already say that nothing was asked)."""
    if asked == 0 or asked >= total:
        return None
    return tr("The room ended after question {asked} of {total}.", asked=asked, total=total)


# ------------------------------------------------------------------ joining and its limits
def screen_code_label(digits: int) -> str:
    return tr("Screen code ({digits} digits on the screen)", digits=digits)


SCREEN_CODE_TOGGLE = N_("Rotating screen code: joining also needs a {digits}-digit code shown "
                        "only on this screen")
MAX_SEATS_LABEL = N_("Most people in the room")
MAX_SEATS_HELP = N_("Joins past this number are refused with a message; removing someone frees "
                    "a place.")
EXPIRED_HOST = N_("Room {code} has expired: rooms last {hours} hours after your last step. "
                  "Phones cannot join or answer, and are told it has expired.")
REOPEN = N_("Reopen the room for {hours} more hours")
REOPEN_HELP = N_("Phones can join and answer again; the room stays where it was.")


def remove_button(n: int) -> str:
    if n == 0:
        return tr("Remove the people ticked")
    return tr_n("Remove {n} person", "Remove {n} people", n)


def first_answer_counts(action: str, stated: float | None) -> str:
    """Said to a tab whose answer came second: which answer of this seat counts."""
    if stated is None:
        return tr("This seat had already answered, in another tab or a moment earlier: "
                  "**{move}** counts (the first answer stored). Your last tap did not count.",
                  move=action)
    return tr("This seat had already answered, in another tab or a moment earlier: "
              "**{move}** with {p} bluff counts (the first answer stored). Your last tap did "
              "not count.", move=action, p=percent(stated))
