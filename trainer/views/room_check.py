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

from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import percent
from trainer.rooms.check import CheckQuestion
from trainer.rooms.results import Standing
from trainer.views.move_labels import your_move
from trainer.views.table_art import table_html
from trainer.views.table_view import table_view

SOURCE_LABEL = N_("Check yourself (the rules after the Learn path)")
SOURCE_TITLE = N_("Check yourself: rules questions after the Learn path")
NO_LESSON = N_("The \"Check yourself\" lesson file is missing or does not load on this "
               "server, so there are no questions to ask. Fix `scenarios/learn-check.yaml` (the "
               "Learn page names the problem at the foot of its library).")
CHANGED = N_("The \"Check yourself\" lesson file was changed after this room was made; a "
             "question it no longer asks is skipped with a message.")
FORM_NOTE = N_("The rules questions that end the Learn path, in a game no lesson showed. Every "
               "phone sees the table from the same seat and picks a move; each answer is right "
               "or wrong by the rules, and the screen shows how many got each question right.")
RANKING_RULE = N_("Points: 100 for each question answered right, 0 for a wrong one. Speed "
                  "never counts.")

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
    return tr("At this table everyone plays **{seat}** (marked YOU).",
              seat=question.prompt.player_name)


def question_text(question: CheckQuestion) -> str:
    """What is read with the question, as markdown: what just happened, then the question."""
    said = " ".join(tr(t) for t in question.before)
    return (f"{said}  \n" if said else "") + tr("**{question}** What do you do?",
                                                question=tr(question.prompt.question))


def question_html(question: CheckQuestion) -> str:
    """The same, large, for the presenter's screen."""
    said = html.escape(" ".join(tr(t) for t in question.before))
    asked = tr("<b>{question}</b> What do you do?",
               question=html.escape(tr(question.prompt.question)))
    return f'<p class="room-big-question">{said + "<br>" if said else ""}{asked}</p>'


def label_of(question: CheckQuestion, labels: Sequence[str], stored: str) -> str:
    """The button's words for a stored option (the stored text itself if it is gone)."""
    for option, label in zip(question.options, labels, strict=True):
        if option.label == stored:
            return label
    return stored


def right_line(question: CheckQuestion, labels: Sequence[str]) -> str:
    right = question.right
    return tr("Right answer: **{answer}**.", answer=label_of(question, labels, right.label)) + \
        f" {tr(right.explanation)}"


def after_line(question: CheckQuestion) -> str | None:
    """What the right answer led to in the lesson (its narrations after the question)."""
    said = " ".join(tr(t) for t in question.screen.after)
    return tr("What happens next: {said}", said=said) if said else None


def class_right_line(right: int, answered: int) -> str:
    if not answered:
        return tr("Nobody answered this one.")
    return right_of(right, answered)


def right_of(right: int, answered: int) -> str:
    """"3 of 12 right"."""
    return tr_n("{right} of {n} right", "{right} of {n} right", answered, right=right)


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
        said = html.escape(tr_n("{n} answer", "{n} answers", n or 0))
        tally = "" if n is None else f'<b class="n" aria-label="{said}">{n}</b>'
        rows.append(f"<li{cls}><span>{html.escape(label)}{mark}</span>{tally}</li>")
    title = html.escape(tr("Answers per option") if counts is not None
                        else tr("The options on the phones"))
    return f'<ul class="room-check-options" aria-label="{title}">{"".join(rows)}</ul>'


def my_verdict(question: CheckQuestion, labels: Sequence[str], chosen: str,
               correct: bool) -> tuple[bool, str]:
    """A phone's own verdict after the reveal: (right?, what to say)."""
    label = label_of(question, labels, chosen)
    if correct:
        return True, tr("**Right.** You chose **{answer}**.", answer=label) + \
            f" {tr(question.right.explanation)}"
    option = question.option(chosen)
    why = f" {tr(option.explanation)}" if option is not None and option.explanation else ""
    return False, tr("**Not quite.** You chose **{answer}**.", answer=label) + why


def my_answer_line(question: CheckQuestion, labels: Sequence[str], chosen: str) -> str:
    return tr("You chose **{move}**.", move=label_of(question, labels, chosen))


def share(right: int, answered: int) -> str:
    return percent(right / answered) if answered else "–"


GONE = N_("(no longer in the lesson file)")


def asked_text(question: CheckQuestion | None) -> str:
    """A question's words, or that the lesson file no longer asks it."""
    return tr(question.prompt.question) if question is not None else tr(GONE)


def summary_html(questions: Mapping[int, CheckQuestion | None],
                 by_question: Mapping[int, tuple[int, int]], asked: int) -> str:
    """The end summary on the screen: each question asked, with the class's share right."""
    rows = []
    for q in range(asked):
        question = questions.get(q)
        words = html.escape(asked_text(question))
        right, answered = by_question.get(q, (0, 0))
        said = (f"<b>{html.escape(right_of(right, answered))}</b> ({share(right, answered)})"
                if answered else html.escape(tr("nobody answered")))
        rows.append(f"<li>{words} — {said}</li>")
    return f'<ol class="room-check-summary">{"".join(rows)}</ol>'


def total_html(right: int, answered: int, asked: int) -> str:
    """The class's score over the questions asked, large on the screen."""
    if not answered:
        said = tr_n("Nobody answered the {n} question asked.",
                    "Nobody answered the {n} questions asked.", asked)
    else:
        said = tr("The class: {right} ({share}), over {questions}.",
                  right=tr_n("{right} of {n} answer right", "{right} of {n} answers right",
                             answered, right=right),
                  share=share(right, answered),
                  questions=tr_n("{n} question", "{n} questions", asked))
    return f'<p class="room-count room-check-total">{html.escape(said)}</p>'


def my_total_line(right: int, answered: int, asked: int) -> str:
    if asked == 0:
        return tr("The room ended before its first question.")
    if answered < asked:
        return tr("You got **{right} of {asked}** right ({missed} not answered).", right=right,
                  asked=asked, missed=asked - answered)
    return tr("You got **{right} of {asked}** right.", right=right, asked=asked)


def my_summary_line(number: int, question: CheckQuestion | None, correct: bool | None,
                    right: int, answered: int) -> str:
    """One question of a phone's results: its own verdict and how the class did."""
    asked = asked_text(question)
    mine = tr("not answered") if correct is None else tr("right") if correct else tr("wrong")
    theirs = (tr("the class: {share} right", share=share(right, answered)) if answered
              else tr("no answers"))
    return tr("**Q{number}** {question} — you: **{mine}** · {theirs}", number=number,
              question=asked, mine=mine, theirs=theirs)


def person_rows(names: Mapping[str, str], answers: Mapping[tuple[str, int], bool],
                asked: int) -> list[dict[str, object]]:
    """Each person's results, one row each, for the presenter's table and its CSV download:
    the number right, then each question asked as right, wrong or not answered."""
    rows: list[dict[str, object]] = []
    for seat, name in sorted(names.items(), key=lambda kv: kv[1].casefold()):
        marks = [answers.get((seat, q)) for q in range(asked)]
        row: dict[str, object] = {tr("Name"): name, tr("Right"): sum(1 for m in marks if m),
                                  tr("Answered"): sum(1 for m in marks if m is not None)}
        for q, m in enumerate(marks, start=1):
            row[tr("Q{number}", number=q)] = "–" if m is None else tr("right") if m \
                else tr("wrong")
        rows.append(row)
    return rows


def ranking_rows(table: Sequence[Standing], top: int | None = None
                 ) -> list[dict[str, object]]:
    """The leaderboard of a rules room: right answers only (there are no beliefs or moves to
    score)."""
    rows = table[:top] if top else table
    return [{"#": i + 1, tr("Name"): s.name, tr("Answered"): s.answered, tr("Right"): s.right}
            for i, s in enumerate(rows)]
