"""A game in progress: the learner's seat, bots in the others, one move at a time.

Why one move at a time: the page shows every bot move with a short pause so a person can
follow, and the learner's decisions arrive as clicks; the match never runs ahead of either.

Reproducible: the deal comes from the seed, and each bot decision draws from a random stream
fixed by the seed, the seat and the move's number. The same seed and the same moves of the
learner therefore give the same game, and a game rebuilt from its record (after a restart, or
from an imported log) goes on exactly as it would have.

The bots see only their own observation. The learner's belief about the others (the coach's
and the review's estimate) is rebuilt from the record where it is needed
(`trainer.play.review.positions`), fed only the learner's observation, move by move.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

from trainer.bots.tournament import every_persona
from trainer.engine.game import Game
from trainer.engine.moves import Move
from trainer.engine.observation import Observation
from trainer.play.record import GameRecord, fresh_game, new_game_id
from trainer.play.setup import Setup
from trainer.policies.personas import Persona


class NotYourTurn(ValueError):
    """A move of the learner's sent when the decision is a bot's, or the game is over."""


class Match:
    """The live game of one record. Build it with `start` or `resume`."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        setup = record.setup()
        self.learner = setup.learner
        self.game: Game = fresh_game(setup)
        self.bots: dict[int, Persona] = {i: every_persona()[setup.seats[i]]
                                         for i in setup.bot_seats()}
        for i, bot in self.bots.items():
            bot.new_game(random.Random(f"{record.seed}:{i}"))

    # ----------------------------------------------------------------- building
    @classmethod
    def start(cls, setup: Setup, learner: str) -> Match:
        return cls(GameRecord(game_id=new_game_id(), learner=learner, variant=setup.variant,
                              seed=setup.seed, seats=setup.seats))

    @classmethod
    def resume(cls, record: GameRecord) -> Match:
        """The match of a saved record, its moves replayed (a move the rules refuse is a
        ValueError naming it)."""
        moves = record.parsed()
        match = cls(record.model_copy(update={"moves": []}))
        for k, move in enumerate(moves):
            if match.game.is_over:
                raise ValueError(f"moves: move {k + 1} {record.moves[k]!r} comes after the "
                                 f"end of the game")
            try:
                match._apply(move)
            except ValueError as e:
                raise ValueError(f"moves: move {k + 1} {record.moves[k]!r} is not legal "
                                 f"there: {e}") from None
        match.record = record
        return match

    # ----------------------------------------------------------------- state
    @property
    def over(self) -> bool:
        return self.game.is_over or self.record.resigned

    @property
    def learner_to_move(self) -> bool:
        return not self.over and self.game.decider == self.learner

    @property
    def bot_to_move(self) -> bool:
        return not self.over and self.game.decider != self.learner

    @property
    def learner_out(self) -> bool:
        """The learner has lost every influence; the bots may still be playing it out."""
        return not self.game.alive[self.learner]

    @property
    def index(self) -> int:
        """The number the next move will have in the record."""
        return len(self.record.moves)

    def observation(self) -> Observation:
        return self.game.observation(self.learner)

    @property
    def won(self) -> bool | None:
        """True or False once the game is decided; None while it goes on or after a tie."""
        if self.record.resigned:
            return False
        if not self.game.is_over or self.game.winner is None:
            return None
        return self.game.winner == self.learner

    # ----------------------------------------------------------------- moves
    def bot_move(self) -> Move:
        """The deciding bot chooses and its move is played."""
        if not self.bot_to_move:
            raise NotYourTurn("no bot is to move")
        seat = self.game.decider
        bot = self.bots[seat]
        stream = random.Random(f"{self.record.seed}:{seat}:{self.index}")
        if hasattr(bot, "game"):  # the Calibrated bot copies the position's structure
            bot.game = self.game
            bot.rng = random.Random(stream.random())  # type: ignore[attr-defined]
        move = bot.choose(self.game.observation(seat), stream)
        self._apply(move)
        return move

    def play(self, move: Move, *, stated: float | None = None, coached: bool = False) -> None:
        """The learner's move; `stated` is the chance of a bluff they gave before it.
        An illegal move raises the engine's error and changes nothing."""
        if not self.learner_to_move:
            raise NotYourTurn("it is not your decision" if not self.over
                              else "the game is over")
        index = self.index
        self._apply(move)
        if stated is not None:
            self.record.stated[index] = round(min(0.99, max(0.01, stated)), 2)
        if coached:
            self.record.coached.append(index)
        self._close()

    def resign(self) -> None:
        if not self.over:
            self.record.resigned = True
        self._close()

    def _apply(self, move: Move) -> None:
        game = self.game
        move = game.as_legal(move)  # the engine's form, or its specific error
        for seat, bot in self.bots.items():
            if hasattr(bot, "observe"):
                bot.observe(game.observation(seat), move)
        game.apply(move)
        self.record.add(move)
        self._close()

    def _close(self) -> None:
        if self.over and self.record.finished_at is None:
            self.record.finished_at = datetime.now(UTC)
