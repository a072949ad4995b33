"""What the kiosk shows, as words and HTML (no Streamlit): a lesson's screen or a solved
decision on a large table, the QR that takes it to a phone, and the station's chances.

Why its own stylesheet here: the kiosk is read from across a shop, by people who never
played. Its type grows with the screen (a 1080p television gets about 26-pixel text, a phone
stays at 16), every sentence is short, and every percentage says what it is the chance of.
The page's menu and Streamlit's header are hidden: the kiosk needs no input, and a visitor
should not wander into pages that keep a learner's answers on a shared screen.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from html import escape

from trainer.engine.explain import LOSE_QUESTION, describe_move
from trainer.engine.game import Game
from trainer.i18n import N_, tr
from trainer.i18n.formats import percent
from trainer.quiz.bank import Item
from trainer.quiz.feedback import describe_decision, highlighted, option_namer
from trainer.quiz.labels import and_list
from trainer.quiz.solved import Solved
from trainer.rooms.kiosk import LessonSlide, Phase
from trainer.scenarios.lessons import Lesson
from trainer.scenarios.replay import StepResult, replay
from trainer.scenarios.screens import screens
from trainer.verdicts.words import Labeller
from trainer.views.move_labels import your_move
from trainer.views.table_art import table_html
from trainer.views.table_view import TableView, table_view

KIOSK_CSS = """<style>
/* Type that grows with the screen, and with its height too, so a slide fits a television
   without scrolling: 16px on a phone, about 19 at 1366x768, 26 at 1920x1080. */
html:root { font-size: clamp(16px, min(calc(9px + .9vw), 2.5vh), 30px) !important; }
/* Nothing to click above the kiosk: the header (menu, large type, the running sign) goes. */
header[data-testid="stHeader"], html body .stApp .st-key-ct_chrome {
  display: none !important; }
html body [data-testid="stMainBlockContainer"] { padding: .8rem 1.5rem 1rem !important;
  max-width: none; }
.st-key-kiosk_head h3 { padding: 0; font-size: 1.6rem; }
.st-key-kiosk_head p { font-size: 1rem; margin: 0; }
.kk-slide { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
  gap: 1.2rem; align-items: start; }
.kk-side { display: flex; flex-direction: column; gap: .6rem; color: #f3ead8; }
.kk-kicker { font-size: .8rem; letter-spacing: .08em; text-transform: uppercase;
  color: #d9a84e; font-weight: 700; }
.kk-title { font-family: Georgia, serif; font-size: 1.9rem; line-height: 1.1;
  font-weight: 700; color: #f6e3b4; margin: 0; }
.kk-summary { font-size: 1rem; opacity: .85; margin: 0; line-height: 1.35; }
.kk-words { font-size: 1.25rem; line-height: 1.4; display: flex; flex-direction: column;
  gap: .5rem; }
.kk-words p { margin: 0; }
.kk-question { font-weight: 700; color: #f6e3b4; }
.kk-wait { opacity: .75; font-style: italic; }
.kk-answer { border-left: 5px solid #5fb56b; padding: .35rem 0 .35rem .8rem;
  background: rgba(95,181,107,.1); border-radius: 0 8px 8px 0; }
.kk-answer b { color: #9be0a4; }
.kk-chances { list-style: none; margin: 0 !important; padding: 0 !important; display: flex;
  flex-direction: column; gap: .35rem; font-size: 1.05rem; }
.kk-chance { display: grid; grid-template-columns: minmax(0, 1fr) 4.2rem; gap: .1rem .6rem;
  align-items: center; }
.kk-chance__label { font-weight: 700; }
.kk-chance__pct { text-align: right; font-weight: 700; font-variant-numeric: tabular-nums;
  font-size: 1.2rem; }
.kk-chance__bar { grid-column: 1 / -1; height: .55rem; border-radius: 99px;
  background: rgba(255,255,255,.12); overflow: hidden; }
.kk-chance__bar span { display: block; height: 100%; background: #d9a84e; }
.kk-chance--best .kk-chance__bar span { background: #5fb56b; }
/* The words come from the label's data attributes, in the visitor's language. */
.kk-chance--best .kk-chance__label::after { content: "  ★ " attr(data-best); color: #9be0a4; }
.kk-chance--you .kk-chance__label::before { content: attr(data-you) " "; font-weight: 400; }
.kk-foot { font-size: .8rem; opacity: .75; margin: 0; line-height: 1.35; }
.kk-qr { display: flex; gap: .8rem; align-items: center; margin-top: .4rem;
  background: rgba(0,0,0,.25); border-radius: 12px; padding: .6rem; }
.kk-qr .coup-qr { flex: none; width: 7.5rem !important; }
.kk-qr p { margin: 0; font-size: 1rem; line-height: 1.3; }
.kk-qr b { color: #f6e3b4; }
/* The drawn table, a little tighter than on the Learn page: the whole of it fits the
   screen's height, every seat of a big table on one row. */
.kk-big .ct-table { padding: .6rem; gap: .5rem; }
.kk-big .ct-seats { flex-wrap: nowrap; }
.kk-big .ct-seat { min-width: 0; flex: 1 1 0; }
.kk-big .ct-mini { width: 4rem; height: 5.6rem; }
.kk-big .ct-court { padding: .25rem; }
.kk-big .ct-court .ct-mini { width: 2.8rem; height: 3.9rem; }
.kk-big .ct-court .ct-mini--back span { font-size: 1rem; width: 1.5rem; height: 1.5rem; }
.kk-big .ct-seats:has(> .ct-seat:nth-child(4)) .ct-mini { width: 2.9rem; height: 4.1rem; }
.kk-big .ct-seats:has(> .ct-seat:nth-child(4)) .ct-mini__role { display: none; }
.kk-big .ct-seats:has(> .ct-seat:nth-child(4)) .ct-seat { padding: .4rem; }
.kk-small { display: none; }
/* The big "Try it" and the station's buttons, readable from across the shop. */
.st-key-kiosk_try button, .st-key-kiosk_back button, .st-key-kiosk_again button {
  min-height: 3rem; }
.st-key-kiosk_try button p { font-size: 1.3rem; font-weight: 700; }
.st-key-kiosk_station h3 { padding: 0; font-size: 1.6rem; }
.st-key-kiosk_card [data-testid="stMarkdownContainer"] p { font-size: 1.1rem; }
/* A phone: one column, and the compact table of the Quiz, so the words follow it. */
@media (max-width: 800px) {
  .kk-slide { grid-template-columns: minmax(0, 1fr); }
  .kk-big { display: none; }
  .kk-small { display: block; }
  .kk-title { font-size: 1.6rem; }
  .kk-words { font-size: 1.1rem; }
}
</style>"""

TRY_IT = N_("Try it: you decide")
TRY_IT_HELP = N_("One decision from a real game. Answer, and see how good your move was.")
BACK = N_("Back to the loop")
AGAIN = N_("Another decision")
IDLE_NOTE = N_("Nobody here? The screen goes back to the loop after a minute without a touch.")
LOOP_HEADLINE = N_("Coup: the card game of bluffing")
LOOP_LINE = N_("You may claim any character, even one you do not hold. Catch the others "
               "lying, and do not get caught.")
STATION_TITLE = N_("Your decision")

# The chances of a solved decision: of winning the game, with perfect play by both.
SOLVED_FOOT = N_("Chances of winning if both players play perfectly from here, worked out "
                 "exactly by a solver (every card you cannot see is equally likely).")
ROLLOUT_FOOT = N_("Chances of winning worked out by playing the game on many times with bot "
                  "players.")


def tables(view: TableView) -> str:
    """The table twice: drawn large for a screen, compact for a phone (CSS shows one)."""
    return (f'<div class="kk-big">{table_html(view)}</div>'
            f'<div class="kk-small">{table_html(view, compact=True)}</div>')


def qr_image(qr_html: str) -> str:
    """A QR of `trainer.views.qr` with its drawing as an <img> and a data URI: st.html
    sanitises away inline <svg>. The wrapper, its size and its accessible name stay."""
    start, end = qr_html.find("<svg"), qr_html.rfind("</svg>")
    if start < 0 or end < 0:
        return qr_html
    end += len("</svg>")
    svg = qr_html[start:end]
    if "xmlns=" not in svg:
        svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    data = base64.b64encode(svg.encode()).decode()
    img = (f'<img alt="" src="data:image/svg+xml;base64,{data}" '
           f'style="width:100%;height:auto;display:block">')
    return qr_html[:start] + img + qr_html[end:]


def _p(text: str, cls: str = "") -> str:
    return f'<p class="{cls}">{escape(text)}</p>' if cls else f"<p>{escape(text)}</p>"


def _sentence(text: str) -> str:
    """A step as the lesson file writes it ("Ben claims Duke: tax"), ending as a sentence."""
    text = text.strip()
    return text if text.endswith((".", "!", "?", "…")) else f"{text}."


def or_list(parts: Sequence[str]) -> str:
    """"a or b or c" in the reader's language."""
    said = parts[0] if parts else ""
    for part in parts[1:]:
        said = tr("{first} or {last}", first=said, last=part)
    return said


def step_words(lesson: Lesson, result: StepResult) -> str:
    """A lesson step's moves in the reader's words, as the engine says them ("Ana: income",
    "Ben passes"); the lesson file's own notation is for the replay, not the reader. A step
    that made no move is said by its text."""
    if not result.moves:
        return tr(result.text)
    game = replay(lesson.scenario, result.number - 1)
    said = []
    for move in result.moves:
        said.append(_sentence(describe_move(game, move)))
        game.apply(move)
    return " ".join(said)


def qr_box(qr: str, caption: str) -> str:
    """The QR with what scanning it does, in bold first."""
    head, _, rest = caption.partition(":")
    rest = rest.strip()
    words = f"<b>{escape(head)}</b>" + (f"<br>{escape(rest[:1].upper() + rest[1:])}"
                                         if rest else "")
    return f'<div class="kk-qr">{qr_image(qr)}<p>{words}</p></div>'


def lesson_qr_caption(lesson: Lesson) -> str:
    return tr("Scan to play this lesson on your phone: {title}, free, no sign-up.",
              title=tr(lesson.title))


FIRST_LESSON_CAPTION = N_("Scan to learn Coup on your phone: five short lessons, free, no "
                          "sign-up.")


def _slide(table: str, side: Sequence[str], kind: str, phase: Phase) -> str:
    return (f'<div class="kk-slide" data-kind="{kind}" data-phase="{phase}">'
            f'<div class="kk-table">{table}</div>'
            f'<div class="kk-side">{"".join(side)}</div></div>')


# ------------------------------------------------------------------------ lesson slides
def lesson_kicker(slide: LessonSlide) -> str:
    """Which lesson and which step of it, in the Learn page's words: "Lesson 2 of 5" is the
    lesson's place on the five-minute path, "step 3 of 5" the screen within the lesson (the
    lesson's title follows under it)."""
    lesson = (tr("Lesson {number} of {total}", number=slide.place[0], total=slide.place[1])
              if slide.place else tr("Lesson"))
    return f"{lesson} · " + tr("step {number} of {total}", number=slide.step,
                               total=slide.steps)


def lesson_slide(lesson: Lesson, slide: LessonSlide, phase: Phase, qr: str) -> str:
    """A lesson's screen on the large table: its title, who the learner plays, then the
    step (a lesson to watch) or the question and, once revealed, the move and why (a lesson
    to play), as the Learn page words them."""
    run = lesson.run
    screen = next(s for s in screens(run) if s.number == slide.screen)
    me = run.names[run.learner]
    kicker = lesson_kicker(slide)
    words: list[str] = []
    if screen.kind == "play" and screen.prompt is not None:
        answered = phase == "answer"
        game = replay(lesson.scenario, screen.result if answered else screen.shown)
        table = tables(table_view(game.observation(run.learner), latest=1))
        words.extend(_p(_sentence(tr(t))) for t in screen.before)
        words.append(_p(tr(screen.prompt.question), "kk-question"))
        if answered:
            before = replay(lesson.scenario, screen.shown)
            right = screen.prompt.correct
            after = "".join(_p(_sentence(tr(t))) for t in screen.after)
            plays = escape(tr("{name} plays", name=me))
            words.append(f'<div class="kk-answer"><p class="kk-kicker">{plays}'
                         f'</p><p><b>{escape(your_move(before, right.move))}</b></p>'
                         f'{_p(tr(right.explanation))}{after}</div>')
        else:
            words.append(_p(tr("What would you do, {name}?", name=me), "kk-wait"))
    else:
        game = replay(lesson.scenario, screen.shown)
        result = run.step(screen.shown) if screen.shown else None
        table = tables(table_view(game.observation(run.learner),
                                  turn=result.turn if result else None,
                                  latest=len(result.moves) if result else 0))
        if result is None:
            words.append(_p(tr("The set-up."), "kk-question"))
        else:
            words.append(_p(_sentence(step_words(lesson, result)), "kk-question"))
            if result.narration:
                words.append(_p(_sentence(tr(result.narration))))
    side = [f'<div class="kk-kicker">{escape(kicker)}</div>',
            f'<div class="kk-title">{escape(tr(lesson.title))}</div>',
            _p(f"{tr(lesson.scenario.summary)} " + tr("You play {name}.", name=me),
               "kk-summary"),
            f'<div class="kk-words">{"".join(words)}</div>', qr]
    return _slide(table, side, "lesson", phase)


# ------------------------------------------------------------------------ decisions
_TITLES = {"challenge": N_("Bluff or not?"), "block": N_("Block or not?"),
           "bluff": N_("Your turn: what do you do?"), "lose": LOSE_QUESTION,
           "keep": N_("Which card do you keep?")}


def decision_question(item: Item, game: Game) -> tuple[str, str]:
    """The situation in a line and the question, for the loop, where nobody answers: a
    claim asks "challenge or let it pass?" rather than for a probability."""
    line, question = describe_decision(item, game)
    if item.kind == "challenge" and item.claimant is not None:
        who = game.names[item.claimant]
        question = tr("Do you challenge {name}, or let it pass?", name=who)
    return line, question


def duel_line(item: Item, game: Game) -> str:
    """Who is left and what is at stake, for someone who never played."""
    me = game.names[item.viewer]
    live = [game.names[p] for p in range(game.n) if game.hidden[p] and p != item.viewer]
    other = live[0] if len(live) == 1 else and_list(live)
    return tr("The end of a real game. You are {name}. Only you and {other} are left, with one "
              "card each: lose it and you are out.", name=me, other=other)


def best_labels(values: dict[str, float]) -> list[str]:
    """The best options: every one within half a point of the top."""
    top = max(values.values())
    return [k for k, v in values.items() if top - v <= 0.005]


def chances_html(values: dict[str, float], chosen: str | None = None,
                 say: Labeller | None = None) -> str:
    """Each option with a bar and its chance of winning the game, best first; `say` words an
    option's stored label."""
    best = set(best_labels(values))
    name = say or (lambda label: label)
    best_word, you_chose = escape(tr("best")), escape(tr("You chose:"))
    marks = f' data-best="{best_word}" data-you="{you_chose}"'
    rows = []
    for label in sorted(values, key=lambda k: -values[k]):
        pct = round(100 * values[label])
        classes = "kk-chance" + (" kk-chance--best" if label in best else "") + (
            " kk-chance--you" if label == chosen else "")
        shown = percent(pct / 100)
        chance = escape(tr("{p} chance you win the game", p=shown))
        rows.append(f'<li class="{classes}"><span class="kk-chance__label"{marks}>'
                    f'{escape(name(label))}</span><span class="kk-chance__pct" '
                    f'aria-label="{chance}">{shown}</span><span class="kk-chance__bar"><span '
                    f'style="width:{max(pct, 1)}%"></span></span></li>')
    foot = escape(tr("Your chance of winning the game after each move:"))
    return (f'<p class="kk-foot">{foot}</p>'
            f'<ul class="kk-chances">{"".join(rows)}</ul>')


def best_line(values: dict[str, float], say: Labeller | None = None) -> str:
    best = [say(b) for b in best_labels(values)] if say else best_labels(values)
    pct = round(100 * values[best_labels(values)[0]])
    if len(best) == 1:
        return tr("Best move: {move}. You win {n} games in 100 with it.", move=best[0], n=pct)
    return tr("Best moves: {moves}, equally good. You win {n} games in 100 with either.",
              moves=or_list(best), n=pct)


def decision_slide(item: Item, game: Game, solved: Solved, phase: Phase, qr: str) -> str:
    """A solved decision: the table as the player deciding sees it (the others' cards face
    down), the question, then the best move and every option's chance of winning."""
    obs = game.observation(item.viewer)
    table = tables(table_view(obs, latest=highlighted(item, obs)))
    line, question = decision_question(item, game)
    say = option_namer(item, game)
    words = [_p(line), _p(question, "kk-question")]
    if phase == "answer":
        words.append(f'<div class="kk-answer"><p><b>{escape(best_line(solved.values, say))}'
                     f'</b></p></div>')
        words.append(chances_html(solved.values, say=say))
        words.append(_p(tr(SOLVED_FOOT), "kk-foot"))
    else:
        words.append(_p(tr("What would you do? The answer follows in a few seconds."),
                        "kk-wait"))
    title = tr(_TITLES[item.kind]) if item.kind in _TITLES else tr("Your move")
    kicker = escape(tr("A decision from a real game"))
    side = [f'<div class="kk-kicker">{kicker}</div>',
            f'<div class="kk-title">{escape(title)}</div>',
            _p(duel_line(item, game), "kk-summary"),
            f'<div class="kk-words">{"".join(words)}</div>', qr]
    return _slide(table, side, "decision", phase)


# ------------------------------------------------------------------------ the station
def station_table(item: Item, game: Game) -> str:
    """The table as the visitor's seat sees it: only their own cards face up."""
    obs = game.observation(item.viewer)
    return tables(table_view(obs, latest=highlighted(item, obs)))


def station_intro(item: Item, game: Game) -> str:
    """Who the visitor is and what is going on, in Markdown."""
    me = game.names[item.viewer]
    line, question = describe_decision(item, game)
    return tr("You are **{name}** in a real game between bots. Your cards are the ones you can "
              "see; the others' cards are face down.", name=me) + f"  \n**{line}** {question}"


def station_chances(item: Item, solved: Solved | None, chosen: str) -> str:
    """After the answer: every option's chance of winning the game, the visitor's marked,
    and how the chances were found."""
    values = solved.values if solved is not None else {o.label: o.win for o in item.options}
    foot = tr(SOLVED_FOOT) if solved is not None else tr(ROLLOUT_FOOT)
    say = option_namer(item, item.game())
    return (f'<div class="kk-side">{chances_html(values, chosen, say)}'
            f'{_p(foot, "kk-foot")}</div>')
