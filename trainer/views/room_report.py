"""A room's results for the teacher: the words of the downloads, each question as it was asked
(for the files and the report), and the class report laid out for printing.

Why the report is the remote's alone: it names the hardest questions and, on request, each
person's score; the projector shows the class's results and never a person's. Why scores are
off until asked for: a teacher may put the report on a screen or hand it round, and a class
answers more honestly when nobody is ranked in public. Why the calibration part says "too few
answers" below the Calibration page's threshold and shows no figure there: on a dozen claims a
Brier score is luck, and a printed number reads as a verdict.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import date, number, percent
from trainer.quiz.bank import Item
from trainer.quiz.feedback import describe_decision, option_namer
from trainer.quiz.findings import Findings
from trainer.quiz.solved import Solved
from trainer.rooms.check import CheckQuestion
from trainer.rooms.export import QuestionInfo, QuestionResult, Row
from trainer.rooms.model import Room
from trainer.rooms.results import ClassScores
from trainer.views import room_text
from trainer.views.calibration_text import class_lead
from trainer.views.move_labels import your_move

DOWNLOADS_TITLE = N_("Results to keep")
DOWNLOADS_NOTE = N_("Two CSV files for a spreadsheet: one row per person, and one row per "
                    "question asked. They hold the names shown in the room only (in an "
                    "anonymous room, the generated names); people you removed are left out.")
DOWNLOADS_SO_FAR = N_("The room is still open: the files hold the questions asked so far.")
PER_PERSON = N_("Download each person's answers (CSV)")
PER_QUESTION = N_("Download each question's results (CSV)")
REPORT_LINK = N_("Class report (to print)")
REPORT_HELP = N_("A page laid out for printing: the class's calibration, the hardest questions "
                 "with their right answers and, only if you ask, each person's score.")
BACK = N_("Back to the remote")
SHOW_SCORES = N_("Show each person's score")
SHOW_SCORES_HELP = N_("Off by default: the report may be shown or handed round, and the "
                      "class's results need nobody's name.")
PRINT_HINT = N_("Print this page with your browser (Ctrl+P, or ⌘P on a Mac); the menu and "
                "these controls are left off the paper, and each part starts a new page.")
NOT_YET = N_("The report fills in once the room has asked its first question.")


def file_name(room: Room, what: str) -> str:
    """A download's file name: the room's code and date, so a term's files sort together."""
    return f"room-{room.code}-{room.created_at:%Y-%m-%d}-{what}.csv"


# ------------------------------------------------------------------ each question as asked
def decision_info(item: Item, solved: Solved | None) -> QuestionInfo:
    """A decision question: the situation and the question as the phones read them, and the
    best move (the exact one where the end-game solver graded it)."""
    game = item.game()
    line, question = describe_decision(item, game)
    best = solved.best if solved is not None else item.best.label
    say = option_namer(item, game)
    return QuestionInfo(text=f"{line} {question}", right=best, rules=False,
                        labels={o.label: say(o.label) for o in item.options})


def check_info(question: CheckQuestion) -> QuestionInfo:
    """A rules question: the question, and each option worded as the phones' buttons were
    (the store keeps the engine's move)."""
    game = question.game()
    labels = {o.label: your_move(game, o.move) for o in question.options}
    return QuestionInfo(text=tr(question.prompt.question), right=question.right.label,
                        rules=True, labels=labels)


# ------------------------------------------------------------------ the printable report
REPORT_CSS = """<style>
.room-report{font-size:1.05rem;line-height:1.45;max-width:60rem}
.room-report h1{font-size:1.9rem;margin:0 0 .3rem}
.room-report h2{font-size:1.35rem;margin:1.2rem 0 .4rem;border-bottom:1px solid #4a3430;
 padding-bottom:.2rem}
.room-report dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0;
 padding:0}
.room-report dt{font-weight:700}
.room-report dd{margin:0}
.room-report table{border-collapse:collapse;width:100%;margin:.3rem 0}
.room-report th,.room-report td{border:1px solid #4a3430;padding:.3rem .5rem;text-align:left;
 vertical-align:top}
.room-report td.n,.room-report th.n{text-align:right;white-space:nowrap}
.room-report .note{opacity:.85;font-size:.95rem}
@media (max-width:640px){
 .room-report{font-size:.98rem}
 .room-report table{font-size:.9rem}
 .room-report th,.room-report td{padding:.25rem .3rem}
}
@media print{
 @page{margin:16mm}
 .st-key-ct_chrome,.st-key-room_report_controls,header[data-testid="stHeader"],
 [data-testid="stSidebar"],[data-testid="stToolbar"],[data-testid="stDecoration"],
 [data-testid="stStatusWidget"]{display:none !important}
 html,body,.stApp,[data-testid="stAppViewContainer"],[data-testid="stMain"]{
  background:#fff !important;color:#000 !important}
 .block-container,[data-testid="stMainBlockContainer"]{padding:0 !important;
  max-width:none !important}
 .room-report,.room-report *{color:#000 !important;background:transparent !important}
 .room-report th,.room-report td{border-color:#888 !important}
 .room-report h2{border-color:#888 !important}
 .room-report .report-section + .report-section{break-before:page}
 .room-report h2{break-after:avoid}
 .room-report tr{break-inside:avoid}
}
</style>"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _pct(x: float | None) -> str:
    return "–" if x is None else percent(x)


def report_title(room: Room) -> str:
    return tr("Class report: room {code}", code=room.code)


def rules_of(room: Room) -> str:
    """The rule set a room asked under, in words."""
    if room.source.kind == "lesson":
        return tr("Each lesson's own (the base game unless the lesson says otherwise)")
    if room.source.kind == "check":
        return room_text.rules_title("base")
    return room_text.rules_title(room.source.rule_set)


def head_html(room: Room, what: str, people: int) -> str:
    asked = (tr("{asked} of {total}", asked=room.asked, total=len(room.questions))
             if room.asked < len(room.questions) else str(room.asked))
    rows = [(tr("Questions"), what), (tr("Date"), date(room.created_at.date())),
            (tr("Rules"), rules_of(room)), (tr("People"), str(people)),
            (tr("Questions asked"), asked)]
    items = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in rows)
    # The head shares the first page with the calibration: no page of its own.
    return f'<header class="report-head"><h1>{_e(report_title(room))}</h1><dl>{items}</dl></header>'



def calibration_html(f: Findings, scores: ClassScores) -> str:
    """The class's calibration on claim questions, in the Calibration page's plain sentences;
    the Brier and log scores only once there are enough judged claims."""
    paragraphs = class_lead(f)
    if f.enough:
        paragraphs += room_text.scores_lines(scores)
    body = "".join(f"<p>{_e(p.replace('**', ''))}</p>" for p in paragraphs)
    title = _e(tr("How well the class judged bluffs"))
    return f'<section class="report-section"><h2>{title}</h2>{body}</section>'


def hardest_html(results: Sequence[QuestionResult]) -> str:
    """The hardest questions, each with its right answer and how the class did."""
    if not results:
        body = "<p>" + _e(tr("Nobody answered a question, so none stands out as hard.")) + "</p>"
    else:
        rows = []
        for r in results:
            detail = (tr_n("{right} of {n} answer right", "{right} of {n} answers right",
                           r.answered, right=r.right) if r.right is not None
                      else tr_n("{best} of {n} answer graded best",
                                "{best} of {n} answers graded best", r.answered,
                                best=r.grades.get("best", 0) if r.grades else 0))
            if r.mean_lost is not None:
                detail += "; " + tr("{points} win-% points lost on average",
                                    points=number(r.mean_lost, 1))
            answer = r.info.shown(r.info.right) or "–"
            rows.append(f'<tr><td class="n">{r.number}</td><td>{_e(r.info.text)}</td>'
                        f"<td>{_e(answer)}</td>"
                        f'<td class="n">{_pct(r.share_right)}</td><td>{_e(detail)}</td></tr>')
        q, question, answer = _e(tr("Q")), _e(tr("Question")), _e(tr("Right answer"))
        right, how = _e(tr("Right")), _e(tr("How the class did"))
        heads = (f'<th class="n">{q}</th><th>{question}</th><th>{answer}</th>'
                 f'<th class="n">{right}</th><th>{how}</th>')
        note = tr("Right: the share answered right (a rules question) or graded best: the "
                  "best move, or one within a point of it (a decision).")
        body = (f'<table><thead><tr>{heads}</tr>'
                f'</thead><tbody>{"".join(rows)}</tbody></table>'
                f'<p class="note">{_e(note)}</p>')
    title = _e(tr("The hardest questions"))
    return f'<section class="report-section"><h2>{title}</h2>{body}</section>'


def scores_html(rows: Sequence[Row], rules: bool, decisions: bool) -> str:
    """Each person's totals, by name, A to Z (shown only when the teacher asks): right
    answers where the room asked rules questions, best moves and points where it asked
    decisions."""
    # The rows are the per-person file's (`export.student_rows`): its columns are in the
    # reader's language, as these headings are.
    columns = [tr("Answered"), *([tr("Right")] if rules else []),
               *([tr("Best moves")] if decisions else []), tr("Points")]
    if not rows:
        body = "<p>" + _e(tr("Nobody is in the room.")) + "</p>"
    else:
        head = "".join(f'<th class="n">{_e(c)}</th>' for c in columns)
        name = tr("Name")
        lines = "".join(
            f'<tr><td>{_e(r[name])}</td>'
            + "".join(f'<td class="n">{_e(r[c])}</td>' for c in columns) + "</tr>"
            for r in rows)
        notes = [*([tr("Right: rules questions answered right.")] if rules else []),
                 *([tr("Best moves: decisions graded best.")] if decisions else []),
                 tr("Points: as the leaderboard counts them.")]
        body = (f"<table><thead><tr><th>{_e(name)}</th>{head}</tr></thead><tbody>{lines}"
                f'</tbody></table><p class="note">{_e(" ".join(notes))}</p>')
    title = _e(tr("Each person"))
    return f'<section class="report-section"><h2>{title}</h2>{body}</section>'


def report_html(room: Room, what: str, people: int, f: Findings, scores: ClassScores,
                all_results: Sequence[QuestionResult], hardest: Sequence[QuestionResult],
                students: Sequence[Row] | None) -> str:
    """The whole report; `students` None leaves each person's score out."""
    parts = [head_html(room, what, people), calibration_html(f, scores),
             hardest_html(hardest)]
    if students is not None:
        rules = any(r.info.rules for r in all_results)
        decisions = any(not r.info.rules for r in all_results)
        parts.append(scores_html(students, rules, decisions))
    return f'<div class="room-report">{"".join(parts)}</div>'
