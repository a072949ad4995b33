"""What the Learn page says about the lessons, as Markdown strings (no Streamlit).

Why apart from the page: the library's cards, the screen line and the answers' feedback are
worded once here, where a test can read them; the page script only places them. Every word
is the reader's: the page's own through the catalogue, a lesson file's (`tr(field)`, English
as the teacher wrote it is the key) where it is shown, never when the library is loaded (the
library is cached once per process, for every visitor).
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.engine.explain import join_and
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import card_name
from trainer.i18n import DEFAULT, N_, current_language, tr, tr_n
from trainer.scenarios.lesson_game import Mistake
from trainer.scenarios.lessons import Lesson, Progress
from trainer.scenarios.replay import PromptOption, PromptView, StepResult
from trainer.views.styles import read_css

LEARN_CSS = f"<style>\n{read_css('learn.css')}</style>"


WELCOME = N_("Coup is a card game of bluffing. You may claim any character, "
             "and call out the others' lies. Learn it here by playing, one move at a time.")


def path_caption(path: Sequence[Lesson], screens: int, minutes: str) -> str:
    """The path's size, as the browser measured it (or, for lessons it has not measured,
    as the lesson files count it)."""
    return " · ".join((tr_n("{n} short lesson", "{n} short lessons", len(path)),
                       tr_n("{n} screen", "{n} screens", screens),
                       tr("about {minutes} minutes", minutes=minutes)))


def progress_unsaved(problem: str) -> str:
    return tr("Your lesson progress is kept in this browser tab only. {problem}",
              problem=problem)


# A lesson's kind in the library, by its `mode`.
KINDS = {"play": N_("you play"), "game": N_("a game"), "watch": N_("to watch")}


def lesson_card(lesson: Lesson, progress: Progress, seconds: float) -> str:
    """A lesson in the library: its mark (○, ✓ or stars), title, rule set and size."""
    x = lesson
    kind = tr(KINDS[x.scenario.mode])
    size = tr("about {minutes} min", minutes=max(1, round(seconds / 60)))
    return (f"{progress.mark(x)} **{tr(x.title)}**  \n:gray[{x.variant_title} · {kind} · "
            f"{size}]")


def missing_lesson(lesson_id: str) -> str:
    return tr("There is no lesson called {lesson}; here is the library.",
              lesson=repr(lesson_id))


def screen_caption(lesson: Lesson, number: int, total: int, path_place: tuple[int, int] | None
                   ) -> str:
    """Where the learner is: on the path, the lesson's place in it; elsewhere who they play
    and the screen (in a game: against whom, as a game has no fixed number of screens)."""
    run = lesson.run
    if path_place is not None:
        # On the path the bar shows the screen, and the table says who "you" are: one line
        # that changes only with the lesson (every word that changes is a word to read).
        return tr("Lesson {number} of {total}", number=path_place[0], total=path_place[1])
    me = run.names[run.learner]
    if lesson.scenario.mode == "game" and number > 0:
        others = join_and([n for i, n in enumerate(run.names) if i != run.learner])
        return tr("you play **{name}** against {others}", name=me, others=others)
    return tr("you play **{name}** · {number} of {total}", name=me, number=number,
              total=total)


def not_quite(option: PromptOption, why: str | None) -> str:
    """Why a wrong answer is wrong, and that the rules forbid it when they do: `why`, the
    engine's reason asked of the game in the reader's language (never the option's own
    `why_illegal`, worded once in English when the lesson was checked)."""
    explanation = tr(option.explanation)
    if why:
        return tr("**Not quite.** {explanation} (The rules do not allow it: {why}.) Try again.",
                  explanation=explanation, why=why)
    return tr("**Not quite.** {explanation} Try again.", explanation=explanation)


def right(prompt: PromptView) -> str:
    return tr("**Right.** {explanation}", explanation=tr(prompt.correct.explanation))


def lesson_complete(stars: str) -> str:
    return tr("**Lesson complete** {stars}", stars=stars)


def check_score(first: int, answered: int, asked: int) -> str:
    """The learner's score on "check yourself": right at the first try, of those answered."""
    if answered == 0:
        return tr_n("{n} question", "{n} questions", asked)
    if answered < asked:
        return tr("{first} of {answered} right at the first try so far ({left} to go)",
                  first=first, answered=answered, left=asked - answered)
    return tr("{first} of {answered} right at the first try", first=first, answered=answered)


HISTORY_LABEL = N_("History")


def timeline_label(n: int, text: str) -> str:
    return f"{n}. {text}" if n else text


def step_words(result: StepResult, game: Game) -> str:
    """A step of a lesson to watch, as its line reads: the lesson file's move as the teacher
    wrote it ("Maria claims Duke: tax", the engine's own English), or in another language the
    engine's sentence for each move of the step, from `game` (any game of the lesson: the
    names and the rule set are what a sentence needs)."""
    if current_language() == DEFAULT or not result.moves:
        return result.text
    return " · ".join(game.describe(m) for m in result.moves)


def your_question(game: Game, learner: int) -> str:
    """The practice game's question to the learner, in the second person."""
    if game.is_over:
        return ""
    # The buttons name every choice ("Challenge Ben", "Give up Duke"): the question adds
    # words to read at every decision and nothing to choose by.
    return tr("**Your move.**")


def bot_moves(game: Game, moves: Sequence[Move], phases: Sequence[Phase] = ()) -> str:
    """What the other players did since the learner's last move, one line each; a bot that
    only lets a move happen (no challenge, no block) is left out."""
    lines = []
    for i, m in enumerate(moves):
        phase = phases[i] if i < len(phases) else None
        if m.kind is MoveKind.PASS and phase in _DECLINED:
            continue  # what a bot let happen shows on the table; its moves are the news
        lines.append(f"· {game.describe(m)}")
    return "  \n".join(lines)


_DECLINED = frozenset({Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK, Phase.CHALLENGE_CLAIM,
                       Phase.BLOCK})


# Where a learner goes once the first game is won (the pages' own addresses).
AFTER_THE_GAME = N_("[All the rules](rules) · [Play a full game](play)")


def mistake(m: Mistake) -> str:
    """One sentence on a move the game proved wrong, from what the bot is and what the cards
    were."""
    card = card_name(m.card)
    if m.kind == "challenged_truth":
        return tr("{other} never bluffs, so the {card} was real.", other=m.other, card=card)
    if m.kind == "bluff_caught":
        return tr("You had no {card}, and {other} challenges only a claim their own cards "
                  "prove false.", other=m.other, card=card)
    return tr("You held the {card}: blocking would have saved your card.", card=card)


def _how_lost(game: Game, learner: int) -> str:
    """What took the learner's last card, when no single move of theirs was a clear mistake."""
    assert game.winner is not None
    winner = game.names[game.winner]
    reason = next((str(e.data.get("reason", "")) for e in reversed(game.log)
                   if e.kind == "lost" and e.data.get("player") == learner), "")
    if reason == "couped":
        return tr("{winner} reached 7 coins first, and a Coup cannot be stopped.",
                  winner=winner)
    if reason == "assassinated":
        return tr("{winner}'s Assassin took your last card.", winner=winner)
    return tr("{winner} took your last card before you took theirs.", winner=winner)


def game_over(game: Game, learner: int, mistakes: Sequence[Mistake] = ()) -> str:
    """The end of the practice game; a loss says why in one sentence (the first clear
    mistake, or what won it for the other side)."""
    others = join_and([n for i, n in enumerate(game.names) if i != learner])
    if game.winner == learner:
        return tr("**You win against {others}.** Now you can play Coup.", others=others)
    if game.winner is None:
        return tr("**A tie.** Try again: you can win this one.")
    winner = game.names[game.winner]
    why = mistake(mistakes[0]) if mistakes else _how_lost(game, learner)
    return tr("**{winner} wins this time.** {why} Take back a move or start again: the hint "
              "shows a way to win.", winner=winner, why=why)
