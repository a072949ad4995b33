"""The words and the table of a "Check yourself" room: rules questions, right or wrong.

Why the table is drawn from the learner's observation (`game.observation(learner)`), exactly
as the Learn page draws it: the same HTML goes to every phone of the class, so another seat's
face-down cards and the deck's order must never be in it; an observation holds neither.

Why the buttons read as the Learn page's ("Coup Ben", "Block: claim Ambassador") while the
store keeps the engine's move ("Ana: coup Ben"): the store's name of an option never changes
with the wording of a label, and the wording is this module's alone.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trainer.rooms.check import CheckQuestion
from trainer.rooms.results import Standing
from trainer.views.move_labels import your_move
from trainer.views.plurals import count
from trainer.views.table_art import table_html
from trainer.views.table_view import table_view

SOURCE_LABEL = "Check yourself (the rules after the Learn path)"
SOURCE_TITLE = "Check yourself: rules questions after the Learn path"
NO_LESSON = ("The \"Check yourself\" lesson file is missing or does not load on this server, "
             "so there are no questions to ask. Fix `scenarios/learn-check.yaml` (the Learn "
             "page names the problem at the foot of its library).")
CHANGED = ("The \"Check yourself\" lesson file was changed after this room was made; a "
           "question it no longer asks is skipped with a message.")
FORM_NOTE = ("The rules questions that end the Learn path, in a game no lesson showed. Every "
             "phone sees the table from the same seat and picks a move; each answer is right or "
             "wrong by the rules, and the screen shows how many got each question right.")
RANKING_RULE = "Points: 100 for each question answered right, 0 for a wrong one. Speed never " \
    "counts."

CHECK_CSS = """<style>
.room-check-options{list-style:none;padding:0 !important;margin:.6rem 0 0 0 !important;
 display:grid;gap:.35rem}
.room-check-total{font-size:clamp(1.3rem,3vw,2.2rem)}
.room-check-options li{display:flex;justify-content:space-between;gap:1rem;align-items:center;
 border:1px solid #4a3430;border-radius:.6rem;padding:.35rem .8rem;
 font-size:clamp(1rem,1.8vw,1.45rem)}
.room-check-options li.right{border-color:#6fbf73;background:rgba(111,191,115,.14)}
.room-check-options b.n{font-size:1.2em;min-width:2.5ch;text-align:right}
.room-check-summary{padding-left:1.4rem;font-size:clamp(1rem,1.6vw,1.3rem);line-height:1.5}
</style>"""


@dataclass(frozen=True)
class Drawn:
    """One question as every screen shows it: the table's HTML and each option's label, in
    the order of `question.options`."""

    table: str
    labels: tuple[str, ...]


def drawn(question: CheckQuestion) -> Drawn:
    """The table from the learner's seat and the options worded for the learner's buttons."""
    game = question.game()
    table = table_html(table_view(game.observation(question.learner), latest=1),
                       compact=True)
    return Drawn(table, tuple(your_move(game, o.move) for o in question.options))


def seat_line(question: CheckQuestion) -> str:
    return f"At this table everyone plays **{question.prompt.player_name}** (marked YOU)."


def question_text(question: CheckQuestion) -> str:
    """What is read with the question, as markdown: what just happened, then the question."""
    said = " ".join(question.before)
    return (f"{said}  \n" if said else "") + f"**{question.prompt.question}** What do you do?"


def question_html(question: CheckQuestion) -> str:
    """The same, large, for the presenter's screen."""
    said = html.escape(" ".join(question.before))
    return (f'<p class="room-big-question">{said + "<br>" if said else ""}'
            f"<b>{html.escape(question.prompt.question)}</b> What do you do?</p>")


def label_of(question: CheckQuestion, labels: Sequence[str], stored: str) -> str:
    """The button's words for a stored option (the stored text itself if it is gone)."""
    for option, label in zip(question.options, labels, strict=True):
        if option.label == stored:
            return label
    return stored


def right_line(question: CheckQuestion, labels: Sequence[str]) -> str:
    right = question.right
    return f"Right answer: **{label_of(question, labels, right.label)}**. {right.explanation}"


def after_line(question: CheckQuestion) -> str | None:
    """What the right answer led to in the lesson (its narrations after the question)."""
    said = " ".join(question.screen.after)
    return f"What happens next: {said}" if said else None


def class_right_line(right: int, answered: int) -> str:
    if not answered:
        return "Nobody answered this one."
    return f"{right} of {answered} right"


def options_html(question: CheckQuestion, labels: Sequence[str],
                 counts: Mapping[str, int] | None, revealed: bool) -> str:
    """The options in the phones' order, with how many chose each when `counts` is given (a
    live room, or the reveal); after the reveal the right one is marked, and before it
    nothing says which is right."""
    rows = []
    for option, label in zip(question.options, labels, strict=True):
        mark = " ✓" if revealed and option.correct else ""
        cls = ' class="right"' if revealed and option.correct else ""
        n = None if counts is None else counts.get(option.label, 0)
        tally = "" if n is None else f'<b class="n" aria-label="{count(n, "answer")}">{n}</b>'
        rows.append(f"<li{cls}><span>{html.escape(label)}{mark}</span>{tally}</li>")
    title = "Answers per option" if counts is not None else "The options on the phones"
    return f'<ul class="room-check-options" aria-label="{title}">{"".join(rows)}</ul>'


def my_verdict(question: CheckQuestion, labels: Sequence[str], chosen: str,
               correct: bool) -> tuple[bool, str]:
    """A phone's own verdict after the reveal: (right?, what to say)."""
    label = label_of(question, labels, chosen)
    if correct:
        return True, f"**Right.** You chose **{label}**. {question.right.explanation}"
    option = question.option(chosen)
    why = f" {option.explanation}" if option is not None and option.explanation else ""
    return False, f"**Not quite.** You chose **{label}**.{why}"


def my_answer_line(question: CheckQuestion, labels: Sequence[str], chosen: str) -> str:
    return f"You chose **{label_of(question, labels, chosen)}**."


def share(right: int, answered: int) -> str:
    return f"{right / answered:.0%}" if answered else "–"


GONE = "(no longer in the lesson file)"


def summary_html(questions: Mapping[int, CheckQuestion | None],
                 by_question: Mapping[int, tuple[int, int]], asked: int) -> str:
    """The end summary on the screen: each question asked, with the class's share right."""
    rows = []
    for q in range(asked):
        question = questions.get(q)
        words = html.escape(question.prompt.question if question is not None else GONE)
        right, answered = by_question.get(q, (0, 0))
        said = (f"<b>{right} of {answered} right</b> ({share(right, answered)})" if answered
                else "nobody answered")
        rows.append(f"<li>{words} — {said}</li>")
    return f'<ol class="room-check-summary">{"".join(rows)}</ol>'


def total_html(right: int, answered: int, asked: int) -> str:
    """The class's score over the questions asked, large on the screen."""
    if not answered:
        said = f"Nobody answered the {count(asked, 'question')} asked."
    else:
        said = (f"The class: {right} of {count(answered, 'answer')} right "
                f"({share(right, answered)}), over {count(asked, 'question')}.")
    return f'<p class="room-count room-check-total">{html.escape(said)}</p>'


def my_total_line(right: int, answered: int, asked: int) -> str:
    if asked == 0:
        return "The room ended before its first question."
    return (f"You got **{right} of {asked}** right"
            + (f" ({asked - answered} not answered)." if answered < asked else "."))


def my_summary_line(number: int, question: CheckQuestion | None, correct: bool | None,
                    right: int, answered: int) -> str:
    """One question of a phone's results: its own verdict and how the class did."""
    asked = question.prompt.question if question is not None else GONE
    mine = "not answered" if correct is None else "right" if correct else "wrong"
    theirs = f"the class: {share(right, answered)} right" if answered else "no answers"
    return f"**Q{number}** {asked} — you: **{mine}** · {theirs}"


def person_rows(names: Mapping[str, str], answers: Mapping[tuple[str, int], bool],
                asked: int) -> list[dict[str, object]]:
    """Each person's results, one row each, for the presenter's table and its CSV download:
    the number right, then each question asked as right, wrong or not answered."""
    rows: list[dict[str, object]] = []
    for seat, name in sorted(names.items(), key=lambda kv: kv[1].casefold()):
        marks = [answers.get((seat, q)) for q in range(asked)]
        row: dict[str, object] = {"Name": name, "Right": sum(1 for m in marks if m),
                                  "Answered": sum(1 for m in marks if m is not None)}
        for q, m in enumerate(marks, start=1):
            row[f"Q{q}"] = "–" if m is None else "right" if m else "wrong"
        rows.append(row)
    return rows


def ranking_rows(table: Sequence[Standing], top: int | None = None
                 ) -> list[dict[str, object]]:
    """The leaderboard of a rules room: right answers only (there are no beliefs or moves to
    score)."""
    rows = table[:top] if top else table
    return [{"#": i + 1, "Name": s.name, "Answered": s.answered, "Right": s.right}
            for i, s in enumerate(rows)]
