"""The one game runner: bots at a table, each deciding from what its seat may see.

Why one: tournaments, bank building, the Play page and lesson games all play the same way, and
the promise that a bot never sees a hidden card is kept in one place. A bot is handed an
`Observation` of its own seat and a random stream, nothing else; the live `Game` never leaves
the runner.

Why a version: a page may run twice at once (Streamlit starts a new run when the learner clicks
while the old run is still moving the bots). The runner counts the moves it applied and
applies a move only if the count is still the one the move was chosen at, under a lock, so two
overlapping runs can never both move: the loser sees `Stale` and stops.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from trainer.engine.game import PRIVATE_KINDS, Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation, observe

MAX_DECISIONS = 5_000


class Bot(Protocol):
    """A player of the game: it decides from its seat's observation and a random stream."""

    def new_game(self, rng: random.Random) -> None:
        """Forget the last game; `rng` is this seat's stream for the game."""

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        """One of `obs.legal_moves`."""


@runtime_checkable
class Watcher(Protocol):
    """A bot that keeps a belief: it sees every move at the table, from its own seat, before
    the move is played (its observation then, and the move as that seat sees it: `seen_as`)."""

    def observe(self, obs: Observation, move: Move) -> None: ...


@runtime_checkable
class Reseeded(Protocol):
    """A bot with a stream of its own for searching, set afresh at each decision when the
    runner gives every decision its own stream (so a game rebuilt from its moves replays)."""

    def reseed(self, rng: random.Random) -> None: ...


class Likeliest:
    """A persona that always takes its most likely move (the first of equals): the same
    choices of the learner always meet the same replies (lesson games)."""

    def __init__(self, persona: Any) -> None:
        self.persona = persona  # anything with `policy(obs) -> {move: probability}`

    def new_game(self, rng: random.Random) -> None:
        """Nothing is drawn: the persona plays as it is."""

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        policy: dict[Move, float] = self.persona.policy(obs)
        return max(policy, key=lambda m: policy[m])


def forced_loss(game: Game) -> Move | None:
    """The loss the decider cannot choose: their last face-down card, or two of the same
    character. A person is not asked to pick from one option (the Play page and the lesson
    games play it for them, as the end-game trees do); None when there is a choice."""
    if game.is_over or game.phase is not Phase.LOSE:
        return None
    moves = game.legal_moves()
    if moves and all(m.kind is MoveKind.LOSE and m.character == moves[0].character
                     for m in moves):
        return moves[0]
    return None


def seen_as(move: Move, seat: int) -> Move:
    """The move as `seat` sees it: another player's private move (the cards kept after an
    exchange, the card shown to an Inquisitor) without its cards."""
    if move.player == seat or move.kind not in PRIVATE_KINDS:
        return move
    return move._replace(character=None, cards=None)


class Stale(RuntimeError):
    """The game moved on since the move was chosen: someone else advanced it first."""


# The stream of one decision: from the seat and the number of the move about to be made.
Streams = Callable[[int, int], random.Random]


class SeatStreams:
    """One stream per seat for the whole game (by default `Random(f"{seed}:{seat}")`): the
    tournament's and the bank's games."""

    def __init__(self, streams: Sequence[random.Random]) -> None:
        self.streams = list(streams)

    def __call__(self, seat: int, index: int) -> random.Random:
        return self.streams[seat]


def seat_streams(seed: int | str, seats: int) -> SeatStreams:
    return SeatStreams([random.Random(f"{seed}:{i}") for i in range(seats)])


class MoveStreams:
    """A stream per decision, `Random(f"{seed}:{seat}:{index}")`: a game rebuilt from its
    moves then goes on exactly as it would have (the Play page). A class, not a closure, so
    a match in a session can be pickled."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed

    def __call__(self, seat: int, index: int) -> random.Random:
        return random.Random(f"{self.seed}:{seat}:{index}")


def move_streams(seed: int | str) -> MoveStreams:
    return MoveStreams(seed)


class LockedState:
    """An object that holds a lock beside its state. Sessions are pickled (Streamlit's
    serializable session state), and a lock is not state: it is left out and made anew."""

    _lock: Any

    def _new_lock(self) -> Any:
        return threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = self._new_lock()


class Runner(LockedState):
    """A game, the bots in some of its seats (the others are people), and the count of moves
    applied (`version`).

    `bots` must be separate instances (a bot keeps one game's state); each gets `new_game`
    with `new_game_streams[seat]` (not when `started`: the caller began their game already).
    With `per_decision`, every decision's stream comes fresh from `streams` and a `Reseeded`
    bot is reseeded from it first."""

    def __init__(self, game: Game, bots: Mapping[int, Bot], streams: Streams, *,
                 new_game_streams: Mapping[int, random.Random] | None = None,
                 per_decision: bool = False, version: int = 0, started: bool = False) -> None:
        self.game = game
        self.bots = dict(bots)
        self.streams = streams
        self.per_decision = per_decision
        self.version = version
        self._lock = self._new_lock()
        for seat, bot in self.bots.items() if not started else ():
            bot.new_game(new_game_streams[seat] if new_game_streams is not None
                         else streams(seat, 0))
        self._watchers = [(s, b) for s, b in self.bots.items() if isinstance(b, Watcher)]

    @property
    def bot_to_move(self) -> bool:
        return not self.game.is_over and self.game.decider in self.bots

    def observation(self, seat: int) -> Observation:
        return observe(self.game, seat)

    def decide(self) -> Move:
        """The deciding bot's choice, from its observation alone (the game is not moved)."""
        game = self.game
        seat = game.decider
        bot = self.bots[seat]
        rng = self.streams(seat, self.version)
        if self.per_decision and isinstance(bot, Reseeded):
            bot.reseed(random.Random(rng.random()))
        return bot.choose(observe(game, seat), rng)

    def apply(self, move: Move, version: int) -> Move:
        """Play `move`, chosen at `version`, in the engine's form; `Stale` if the game has
        moved since (nothing changes), the engine's error if the rules refuse it."""
        with self._lock:
            return self._apply(move, version)

    def _apply(self, move: Move, version: int) -> Move:
        if version != self.version:
            raise Stale(f"the move was chosen at move {version}; the game is at "
                        f"{self.version}")
        game = self.game
        move = game.as_legal(move)
        for seat, bot in self._watchers:
            bot.observe(observe(game, seat), seen_as(move, seat))
        game.apply(move)
        self.version += 1
        return move

    def step(self, version: int) -> Move:
        """The deciding bot moves, if the game is still at `version`: `Stale` otherwise.
        Chosen and applied under the lock, so a bot's belief is never read while another run
        feeds it a move."""
        with self._lock:
            if version != self.version:
                raise Stale(f"the game is at move {self.version}, not {version}")
            if not self.bot_to_move:
                raise Stale("no bot is to move")
            return self._apply(self.decide(), version)

    def play_out(self, limit: int = MAX_DECISIONS) -> Game:
        """Every seat a bot: play to the end (RuntimeError after `limit` decisions)."""
        for _ in range(limit):
            if self.game.is_over:
                return self.game
            self.step(self.version)
        raise RuntimeError(f"the game did not end within {limit} decisions")
