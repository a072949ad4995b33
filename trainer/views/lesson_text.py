"""What the Learn page says about the lessons, as Markdown strings (no Streamlit).

Why apart from the page: the library's cards, the screen line and the answers' feedback are
worded once here, where a test can read them; the page script only places them.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.engine.explain import PHASE_QUESTION
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.scenarios.lessons import Lesson, Progress
from trainer.scenarios.replay import PromptOption, PromptView
from trainer.views.styles import read_css

LEARN_CSS = f"<style>\n{read_css('learn.css')}</style>"


WELCOME = ("Coup is a card game of bluffing. You may claim any character, "
           "and call out the others' lies. Learn it here by playing, one move at a time.")


def path_caption(path: Sequence[Lesson], screens: int, minutes: str) -> str:
    """The path's size, as the README's time model measures it."""
    return (f"{len(path)} short lessons · {screens} screens · you make every move · "
            f"about {minutes} minutes")


def progress_unsaved(problem: str) -> str:
    return f"Your lesson progress is kept in this browser tab only. {problem}"


def lesson_card(lesson: Lesson, progress: Progress, seconds: float) -> str:
    """A lesson in the library: its mark (○, ✓ or stars), title, rule set and size."""
    x = lesson
    kind = {"play": "you play", "game": "a game", "watch": "to watch"}[x.scenario.mode]
    return (f"{progress.mark(x)} **{x.title}**  \n:gray[{x.variant_title} · {kind} · "
            f"about {max(1, round(seconds / 60))} min]")


def missing_lesson(lesson_id: str) -> str:
    return f"There is no lesson called {lesson_id!r}; here is the library."


def screen_caption(lesson: Lesson, number: int, total: int, path_place: tuple[int, int] | None
                   ) -> str:
    """Where the learner is: the lesson on the path, who they play, the screen (in a game:
    against whom, as a game has no fixed number of screens)."""
    run = lesson.run
    where = f"Lesson {path_place[0]} of {path_place[1]} · " if path_place else ""
    me = run.names[run.learner]
    if lesson.scenario.mode == "game" and number > 0:
        others = " and ".join(n for i, n in enumerate(run.names) if i != run.learner)
        return f"{where}you play **{me}** against {others}"
    return f"{where}you play **{me}** · {number} of {total}"


def not_quite(option: PromptOption) -> str:
    """Why a wrong answer is wrong (and that the rules forbid it, when they do)."""
    illegal = (f" (The rules do not allow it: {option.why_illegal}.)"
               if option.why_illegal else "")
    return f"**Not quite.** {option.explanation}{illegal} Try again."


def right(prompt: PromptView) -> str:
    return f"**Right.** {prompt.correct.explanation}"


def lesson_complete(stars: str) -> str:
    return f"**Lesson complete** {stars}"


def timeline_label(n: int, text: str) -> str:
    return f"{n}. {text}" if n else text


def your_question(game: Game, learner: int) -> str:
    """The practice game's question to the learner, in the second person."""
    if game.is_over:
        return ""
    return f"**Your move:** {PHASE_QUESTION[game.phase]}."


def bot_moves(game: Game, moves: Sequence[Move], phases: Sequence[Phase] = ()) -> str:
    """What the other players did since the learner's last move, one line each; a pass says
    what was declined."""
    lines = []
    for i, m in enumerate(moves):
        phase = phases[i] if i < len(phases) else None
        text = game.describe(m)
        if m.kind is MoveKind.PASS and phase in _DECLINED:
            text = f"{game.names[m.player]} does not {_DECLINED[phase]}"
        lines.append(f"· {text}")
    return "  \n".join(lines)


_DECLINED = {Phase.CHALLENGE_ACTION: "challenge", Phase.CHALLENGE_BLOCK: "challenge the block",
             Phase.CHALLENGE_CLAIM: "challenge", Phase.BLOCK: "block"}


def game_over(game: Game, learner: int) -> str:
    others = " and ".join(n for i, n in enumerate(game.names) if i != learner)
    if game.winner == learner:
        return f"**You win against {others}.** You know enough Coup to play a real game."
    if game.winner is None:
        return "**A tie.** Try again: you can win this one."
    return (f"**{game.names[game.winner]} wins this time.** Take back a move or start again: "
            f"the hint shows a way to win.")
