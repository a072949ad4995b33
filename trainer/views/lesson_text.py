"""What the Learn page says about the lessons, as Markdown strings (no Streamlit).

Why apart from the page: the library's cards, the screen line and the answers' feedback are
worded once here, where a test can read them; the page script only places them.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.scenarios.lesson_game import Mistake
from trainer.scenarios.lessons import Lesson, Progress
from trainer.scenarios.replay import PromptOption, PromptView
from trainer.views.styles import read_css

LEARN_CSS = f"<style>\n{read_css('learn.css')}</style>"


WELCOME = ("Coup is a card game of bluffing. You may claim any character, "
           "and call out the others' lies. Learn it here by playing, one move at a time.")


def path_caption(path: Sequence[Lesson], screens: int, minutes: str) -> str:
    """The path's size, as the browser measured it (or, for lessons it has not measured,
    as the lesson files count it)."""
    return f"{len(path)} short lessons · {screens} screens · about {minutes} minutes"


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
    """Where the learner is: on the path, the lesson's place in it; elsewhere who they play
    and the screen (in a game: against whom, as a game has no fixed number of screens)."""
    run = lesson.run
    if path_place is not None:
        # On the path the bar shows the screen, and the table says who "you" are: one line
        # that changes only with the lesson (every word that changes is a word to read).
        return f"Lesson {path_place[0]} of {path_place[1]}"
    where = ""
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


def check_score(first: int, answered: int, asked: int) -> str:
    """The learner's score on "check yourself": right at the first try, of those answered."""
    if answered == 0:
        return f"{asked} questions"
    of = f"{first} of {answered}"
    if answered < asked:
        return f"{of} right at the first try so far ({asked - answered} to go)"
    return f"{of} right at the first try"


HISTORY_LABEL = "History"


def timeline_label(n: int, text: str) -> str:
    return f"{n}. {text}" if n else text


def your_question(game: Game, learner: int) -> str:
    """The practice game's question to the learner, in the second person."""
    if game.is_over:
        return ""
    # The buttons name every choice ("Challenge Ben", "Give up Duke"): the question adds
    # words to read at every decision and nothing to choose by.
    return "**Your move.**"


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
AFTER_THE_GAME = "[All the rules](rules) · [Play a full game](play)"


def mistake(m: Mistake) -> str:
    """One sentence on a move the game proved wrong, from what the bot is and what the cards
    were."""
    if m.kind == "challenged_truth":
        return f"{m.other} never bluffs, so the {m.card} was real."
    if m.kind == "bluff_caught":
        return (f"You had no {m.card}, and {m.other} challenges only a claim their own cards "
                f"prove false.")
    return f"You held the {m.card}: blocking would have saved your card."


def _how_lost(game: Game, learner: int) -> str:
    """What took the learner's last card, when no single move of theirs was a clear mistake."""
    assert game.winner is not None
    winner = game.names[game.winner]
    reason = next((str(e.data.get("reason", "")) for e in reversed(game.log)
                   if e.kind == "lost" and e.data.get("player") == learner), "")
    if reason == "couped":
        return f"{winner} reached 7 coins first, and a Coup cannot be stopped."
    if reason == "assassinated":
        return f"{winner}'s Assassin took your last card."
    return f"{winner} took your last card before you took theirs."


def game_over(game: Game, learner: int, mistakes: Sequence[Mistake] = ()) -> str:
    """The end of the practice game; a loss says why in one sentence (the first clear
    mistake, or what won it for the other side)."""
    others = " and ".join(n for i, n in enumerate(game.names) if i != learner)
    if game.winner == learner:
        return f"**You win against {others}.** Now you can play Coup."
    if game.winner is None:
        return "**A tie.** Try again: you can win this one."
    winner = game.names[game.winner]
    why = mistake(mistakes[0]) if mistakes else _how_lost(game, learner)
    return (f"**{winner} wins this time.** {why} Take back a move or start again: the hint "
            f"shows a way to win.")
