"""The free game at the end of a lesson (`mode: game`): the learner plays from a prepared
position against bots that take their most likely move, so the same choices always lead to
the same game.

Why the moves are the whole state: a game is the lesson's set-up, its steps, then the
learner's moves, with every bot reply derived from them. A page keeps only the learner's
moves (a take-back drops the last one), and the winning line in the lesson file is checked
the same way the page plays it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from trainer.engine.errors import AmbiguousMoveError, IllegalMoveError
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.engine.notation import complete
from trainer.policies.personas import Persona, personas
from trainer.policies.runner import Likeliest, Runner, SeatStreams
from trainer.scenarios.errors import error_at
from trainer.scenarios.move_text import MoveTextError, parse_move_text
from trainer.scenarios.replay import replay
from trainer.scenarios.schema import Scenario

# A bot reply loop longer than this means two bots are stuck passing a decision back and forth.
MAX_BOT_MOVES = 200


@dataclass(frozen=True)
class PracticeState:
    """The game after the learner's moves, and what the bots did since the learner's last
    move (for the page to tell)."""

    game: Game
    learner: int
    bot_moves: tuple[Move, ...]
    bot_phases: tuple[Phase, ...] = ()  # the decision each bot move answered

    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def won(self) -> bool:
        return self.game.is_over and self.game.winner == self.learner

    @property
    def legal(self) -> tuple[Move, ...]:
        """The learner's choices now (none once the game is over)."""
        return () if self.game.is_over else self.game.legal_moves()


def bot_for(scenario: Scenario) -> Persona:
    assert scenario.practice is not None
    return personas()[scenario.practice.bot]


def likeliest(bot: Persona, game: Game) -> Move:
    """The bot's most likely move (the first of equals), so a game replays identically;
    decided from the decider's observation."""
    return Likeliest(bot).choose(game.observation(game.decider), _NO_DRAW)


_NO_DRAW = random.Random(0)  # a likeliest move draws nothing


def practice(scenario: Scenario, moves: Sequence[Move]) -> PracticeState:
    """The game of a `mode: game` lesson after the learner's `moves`; raises IllegalMoveError
    for a move the rules do not allow at its point."""
    game = replay(scenario)
    learner = _seat(game, scenario.setup.learner)
    bot = bot_for(scenario)
    replies = _bots(game, learner, bot)
    for move in moves:
        if game.is_over or game.decider != learner:
            raise IllegalMoveError(f"it is not {game.names[learner]}'s decision",
                                   move=move, player=move.player)
        game.apply(move)
        replies = _bots(game, learner, bot)
    return PracticeState(game, learner, tuple(m for m, _ in replies),
                         tuple(p for _, p in replies))


def _seat(game: Game, name: str) -> int:
    return [n.lower() for n in game.names].index(name.strip().lower())


def _bots(game: Game, learner: int, bot: Persona) -> list[tuple[Move, Phase]]:
    """The bots' replies up to the learner's next decision, through the one game runner."""
    seats = {p: Likeliest(bot) for p in range(game.n) if p != learner}
    runner = Runner(game, seats, SeatStreams([_NO_DRAW] * game.n), started=True)
    played: list[tuple[Move, Phase]] = []
    while runner.bot_to_move:
        if len(played) >= MAX_BOT_MOVES:
            raise RuntimeError(f"the bots made {MAX_BOT_MOVES} moves in a row without the "
                               f"learner's turn coming back")
        phase = game.phase
        played.append((runner.step(runner.version), phase))
    return played


def line_moves(scenario: Scenario) -> list[Move]:
    """The lesson's winning line as moves, each checked where it is played; raises
    ScenarioError naming the line entry at fault, or when the line does not win."""
    assert scenario.practice is not None
    state = practice(scenario, [])
    names = state.game.names
    moves: list[Move] = []
    for j, text in enumerate(scenario.practice.line):
        loc = ("practice", "line", j)
        if state.over:
            raise error_at(scenario, loc, f"practice: the game is already over before "
                                          f"{text!r}; end the line there")
        try:
            phrase = parse_move_text(text, names, state.game.variant)
        except MoveTextError as e:
            raise error_at(scenario, loc, f"practice: cannot read the move: {e}") from None
        move = phrase.move
        if move is None or move.player != state.learner:
            raise error_at(scenario, loc, f"practice: {text!r} must be a single move by the "
                                          f"learner, {names[state.learner]}")
        try:
            if phrase.infer_card:
                move = complete(state.game, move)
            state = practice(scenario, [*moves, move])
        except (AmbiguousMoveError, IllegalMoveError) as e:
            raise error_at(scenario, loc, f"practice: {text!r} cannot be played here: "
                                          f"{e}") from None
        moves.append(move)
    if not state.won:
        where = ("the game is not over" if not state.over
                 else f"{names[state.game.winner]} wins" if state.game.winner is not None
                 else "it ends in a tie")
        raise error_at(scenario, ("practice", "line"),
                       f"practice: the line does not win for {names[state.learner]}: after it "
                       f"{where}")
    return moves


def check_practice(scenario: Scenario) -> None:
    """Everything a game lesson promises: its line is readable, legal and wins."""
    if scenario.mode == "game":
        line_moves(scenario)
