"""A game in progress: the learner's seat, bots in the others, one move at a time.

Why one move at a time: the page shows every bot move with a short pause so a person can
follow, and the learner's decisions arrive as clicks; the match never runs ahead of either.

Reproducible: the deal comes from the seed, and each bot decision draws from a random stream
fixed by the seed, the seat and the move's number. The same seed and the same moves of the
learner therefore give the same game, and a game rebuilt from its record (after a restart, or
from an imported log) goes on exactly as it would have.

The bots see only their own observation: the moves go through the one game runner
(`trainer.policies.runner`), which hands each bot its seat's observation and never the game.

Why a version: the page may run twice at once (a click while the bots play starts a new run
before the old one ends), and both runs hold this match. Every move is applied only at the
version (the number of moves made) it was chosen at, under the runner's lock: a run that
finds the game moved on gets `Stale`, changes nothing and stops.

The learner's belief about the others (the coach's
and the review's estimate) is rebuilt from the record where it is needed
(`trainer.play.review.positions`), fed only the learner's observation, move by move.
"""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime
from typing import Any

from trainer.bots.tournament import every_persona
from trainer.engine.game import Game
from trainer.engine.moves import Move
from trainer.engine.observation import Observation
from trainer.i18n import tr
from trainer.play.record import GameRecord, fresh_game, new_game_id, not_legal_there
from trainer.play.setup import Setup
from trainer.policies.runner import Bot, LockedState, Runner, Stale, forced_loss, move_streams

__all__ = ["Match", "NotYourTurn", "Stale"]


class NotYourTurn(ValueError):
    """A move of the learner's sent when the decision is a bot's, or the game is over."""


class Match(LockedState):
    """The live game of one record. Build it with `start` or `resume`."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        setup = record.setup()
        self.learner = setup.learner
        bots: dict[int, Bot] = {i: every_persona()[setup.seats[i]] for i in setup.bot_seats()}
        self.runner = Runner(fresh_game(setup), bots, move_streams(record.seed),
                             new_game_streams={i: random.Random(f"{record.seed}:{i}")
                                               for i in bots},
                             per_decision=True)
        self.saved: int | None = None  # moves in the database's copy, when known
        self._lock = self._new_lock()

    _lock: threading.RLock

    def _new_lock(self) -> Any:
        return threading.RLock()  # a move and the save after it are taken under one lock

    @property
    def game(self) -> Game:
        return self.runner.game

    @property
    def bots(self) -> dict[int, Bot]:
        return self.runner.bots

    @property
    def lock(self) -> threading.RLock:
        """Held while a move is applied or the record is copied to be saved."""
        return self._lock

    @property
    def version(self) -> int:
        """The number of moves made: what a move is checked against before it is applied."""
        return self.runner.version

    # ----------------------------------------------------------------- building
    @classmethod
    def start(cls, setup: Setup, learner: str) -> Match:
        return cls(GameRecord(game_id=new_game_id(), learner=learner, variant=setup.variant,
                              seed=setup.seed, seats=setup.seats))

    @classmethod
    def resume(cls, record: GameRecord) -> Match:
        """The match of a saved record, its moves replayed (a move the rules refuse is a
        ValueError naming it)."""
        match, problem = cls.rebuild(record)
        if problem is not None:
            raise ValueError(problem)
        match.record = record
        return match

    @classmethod
    def rebuild(cls, record: GameRecord) -> tuple[Match, str | None]:
        """The match of the record's longest playable beginning, and what stopped the replay
        there (None when every move replayed): the repair of a saved game a move of which
        the rules refuse. The stated chances and coached marks of the moves dropped go with
        them; a game cut short is unfinished again."""
        moves = record.parsed()
        match = cls(record.model_copy(update={"moves": [], "finished_at": None}))
        problem = None
        for k, move in enumerate(moves):
            if match.game.is_over:
                problem = tr("moves: move {number} {text} comes after the end of the game",
                             number=k + 1, text=repr(record.moves[k]))
                break
            try:
                match._apply(move)
            except ValueError as e:
                problem = not_legal_there(k, record.moves[k], e)
                break
        kept = len(match.record.moves)
        match.record.stated = {k: v for k, v in record.stated.items() if k < kept}
        match.record.coached = [k for k in record.coached if k < kept]
        match.record.resigned = record.resigned and problem is None
        match.record.finished_at = record.finished_at if problem is None else None
        match._close()
        return match, problem

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
    def bot_move(self, version: int | None = None) -> Move:
        """The deciding bot chooses and its move is played, if the game is still at `version`
        (the current one when None): `Stale` otherwise, and nothing changes."""
        with self._lock:
            if not self.bot_to_move:
                if version is not None and version != self.version:
                    raise Stale(f"the game is at move {self.version}, not {version}")
                raise NotYourTurn("no bot is to move")
            move = self.runner.step(self.version if version is None else version)
            self.record.add(move)
            self._play_forced()
            self._close()
            return move

    def play(self, move: Move, *, stated: float | None = None, coached: bool = False,
             version: int | None = None) -> None:
        """The learner's move, chosen at `version` (`Stale` if the game has moved since);
        `stated` is the chance of a bluff they gave before it. An illegal move raises the
        engine's error and changes nothing."""
        with self._lock:
            if version is not None and version != self.version:
                raise Stale(f"the move was chosen at move {version}; the game is at "
                            f"{self.version}")
            if not self.learner_to_move:
                raise NotYourTurn("it is not your decision" if not self.over
                                  else "the game is over")
            index = self.index
            self._apply(move)
            if stated is not None:
                self.record.stated[index] = round(min(0.99, max(0.01, stated)), 2)
            if coached:
                self.record.coached.append(index)
            self._play_forced()
            self._close()

    def resign(self) -> None:
        with self._lock:
            if not self.over:
                self.record.resigned = True
            self._close()

    def saved_copy(self) -> tuple[GameRecord, int | None]:
        """The record as it is now, copied under the lock (another run may be moving), and
        how many of its moves the database held when last saved."""
        with self._lock:
            return self.record.model_copy(deep=True), self.saved

    def mark_saved(self, moves: int) -> None:
        with self._lock:
            if self.saved is None or moves > self.saved:
                self.saved = moves

    def _play_forced(self) -> None:
        """The learner's losses with nothing to choose (a last card), played for them and
        recorded like any move: the page never asks for a click with one answer."""
        while self.learner_to_move and (move := forced_loss(self.game)) is not None:
            self._apply(move)

    def _apply(self, move: Move) -> None:
        move = self.runner.apply(move, self.runner.version)  # the engine's form, or its error
        self.record.add(move)
        self._close()

    def _close(self) -> None:
        if self.over and self.record.finished_at is None:
            self.record.finished_at = datetime.now(UTC)
