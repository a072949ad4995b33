"""Benchmark the project's Coup engine against coupml under random legal play.

Why this exists: `trainer.engine.game` is written for speed (bots and training play many games), and
the only honest way to say whether it is fast is to race it against an independent engine of
the same game on the same machine, in the same process, with the same move chooser. The
reference is the PyPI package coupml (0.1.1), a pure-Python Coup engine for machine learning.

Both sides play N games of the base game with 4 players. Game i is dealt with seed S+i and its
moves are chosen by ``random.Random(S + i).choice`` over the legal moves, so the chooser is
the same function, drawing from the same kind of generator, on both sides. The last line
printed is ``ratio <trainer decisions/s / coupml decisions/s>`` (omitted with ``--only``).

The project engine runs as installed: compiled with mypyc by ``make install`` (the first line
printed says which build), or as plain Python with ``COUP_TRAINER_PURE_PYTHON=1``. The engines
take turns in ``--rounds`` blocks of games, so a change in machine load during the run falls on
both alike.

What a decision is
------------------
trainer: one ``Game.apply`` call, choosing one of ``Game.legal_moves()``.

coupml: one ``Coup.play_action`` call, choosing one of ``Coup.get_legal_actions()`` (strings)
for ``Coup.player_to_act()``. coupml serialises everything into such calls:

* the turn's action: ``income``, ``foreign_aid``, ``tax``, ``exchange``, ``steal:P``,
  ``assassinate:P``, ``coup:P`` (only ``coup:P`` at 10+ coins);
* after every character claim (tax, steal, assassinate, exchange, and every block), each other
  living player in turn order answers ``pass`` or ``challenge``, one decision each, even when
  nobody challenges (3 decisions per claim while 4 players live);
* blocks: the target of steal/assassinate answers ``pass`` / ``block:<role>`` (steal offers
  ``block:ambassador`` and ``block:captain``); for foreign aid every other living player is
  asked ``pass`` / ``block:duke`` in turn;
* losing influence: ``reveal:<role>``, also when the player has only one card left, i.e. a
  decision with a single legal option. A challenged player also "reveals" this way and may
  show a card other than the claimed one (deliberately losing the challenge). A hand of two
  equal cards yields the same ``reveal:<role>`` twice, so that choice is not counted as forced;
* exchange: one ``keep:<roles>`` decision choosing the whole kept hand.

Because the two engines may split a turn into a different number of decisions, each line also
prints ``forced/game`` (decisions with exactly one legal option) beside ``decisions/game``;
compare games/s as well as decisions/s before concluding anything.

What makes the comparison unfair, either way
--------------------------------------------
* coupml's documented usage passes a ``numpy.random.RandomState`` to the dealer and picks
  moves with ``np_random.choice`` (which also turns every action into ``numpy.str_``). Here
  the dealer gets a thin adapter over ``random.Random`` (its only calls are ``shuffle(list)``
  and ``choice(n)``) and moves are picked with ``random.Random.choice``. This makes coupml
  about 3x faster than its README loop, so it favours coupml; it is what makes the chooser
  identical on both sides.
* coupml is driven through its public ``Coup`` wrapper, which adds one delegation per call.
* coupml's rules differ from the project's defaults in ways that change game length and so
  decisions/game and games/s: if a challenge fails, *every* player who challenged loses an
  influence; if several players block foreign aid, the dealer picks one at random; the
  Treasury is unlimited; a thief whose target dies mid-steal gets nothing; challengers are
  asked in seat order starting after the claimer (for a block, not the acting player first).
* coupml keeps every player's claim/reveal history (``trace``) and reshuffles the deck on
  every card returned; that work is counted, as the project engine does its own bookkeeping.
* Timing (``time.perf_counter``) covers creating, dealing and playing each game; the progress
  bar, the per-game seeding of the chooser and the report are outside it. Garbage from one
  engine is collected before the other starts.
* A game is stopped after ``--max-decisions`` decisions and reported as capped; its
  decisions and time still count.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

PLAYERS = 4
ENGINES = ("trainer", "coupml")

# One game's outcome: (decisions, decisions with a single legal option, hit the cap).
GameResult = tuple[int, int, bool]
PlayGame = Callable[[int, Callable[[Sequence[Any]], Any], int], GameResult]


@dataclass(frozen=True, slots=True)
class Result:
    """Totals for one engine."""

    name: str
    games: int
    decisions: int
    forced: int
    capped: int
    seconds: float

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        games_s = self.games / self.seconds if self.seconds else 0.0
        per_game = self.decisions / self.games if self.games else 0.0
        forced = self.forced / self.games if self.games else 0.0
        return (
            f"{self.name:<9}games/s={games_s:.1f} decisions/s={self.decisions_per_second:.0f} "
            f"decisions/game={per_game:.2f} forced/game={forced:.2f} capped={self.capped}"
        )


class _DealerRandom:
    """The part of numpy's RandomState that coupml's Dealer uses, backed by random.Random."""

    __slots__ = ("_rng",)

    def __init__(self, seed: str) -> None:
        self._rng = random.Random(seed)

    def shuffle(self, items: list[Any]) -> None:
        self._rng.shuffle(items)

    def choice(self, n: int) -> int:
        # Dealer.choose only ever calls choice(len(items)) and indexes with the result.
        return self._rng.randrange(n)


def _trainer_player() -> PlayGame:
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    from trainer.engine.game import Game

    def play(seed: int, choose: Callable[[Sequence[Any]], Any], cap: int) -> GameResult:
        game = Game.new(players=PLAYERS, seed=seed)
        decisions = forced = 0
        while not game.is_over:
            if decisions == cap:
                return decisions, forced, True
            moves = game.legal_moves()
            if len(moves) == 1:
                forced += 1
            game.apply(choose(moves))
            decisions += 1
        return decisions, forced, False

    return play


def _coupml_player() -> PlayGame:
    from coupml import Coup

    def play(seed: int, choose: Callable[[Sequence[Any]], Any], cap: int) -> GameResult:
        # Its own stream for the deal, so deck order and move choices are not the same numbers.
        coup = Coup(PLAYERS, _DealerRandom(f"coupml-deal-{seed}"))
        coup.init_game()
        decisions = forced = 0
        while not coup.is_game_over():
            if decisions == cap:
                return decisions, forced, True
            moves = coup.get_legal_actions()
            if len(moves) == 1:
                forced += 1
            coup.play_action(choose(moves))
            decisions += 1
        return decisions, forced, False

    return play


PLAYERS_BY_ENGINE: dict[str, Callable[[], PlayGame]] = {
    "trainer": _trainer_player,
    "coupml": _coupml_player,
}


def run(name: str, games: range, seed: int, cap: int, play: PlayGame | None = None) -> Result:
    """Play the games numbered `games` on one engine and time them."""
    play = play or PLAYERS_BY_ENGINE[name]()
    gc.collect()
    clock = time.perf_counter
    seconds = 0.0
    decisions = forced = capped = 0
    for i in games:
        choose = random.Random(seed + i).choice
        start = clock()
        n, f, hit_cap = play(seed + i, choose, cap)
        seconds += clock() - start
        decisions += n
        forced += f
        capped += hit_cap
    return Result(name, len(games), decisions, forced, capped, seconds)


def merge(a: Result | None, b: Result) -> Result:
    if a is None:
        return b
    return Result(a.name, a.games + b.games, a.decisions + b.decisions, a.forced + b.forced,
                  a.capped + b.capped, a.seconds + b.seconds)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per engine")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed S+i")
    parser.add_argument("--only", choices=ENGINES, help="run one engine, no ratio")
    parser.add_argument("--rounds", type=int, default=10,
                        help="alternate the engines in this many rounds, so that a change in "
                             "machine load during the run affects both alike")
    parser.add_argument(
        "--max-decisions", type=int, default=10_000, help="stop a game after this many"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    names = [n for n in ENGINES if args.only in (None, n)]
    try:
        players = {n: PLAYERS_BY_ENGINE[n]() for n in names}
    except ImportError as exc:
        parser.error(f"engine not importable ({exc})")
    if "trainer" in names:
        from trainer.engine.build import engine_build

        print(f"trainer engine build: {engine_build()} (COUP_TRAINER_PURE_PYTHON=1 for the "
              f"pure-Python build)")
    results: dict[str, Result | None] = dict.fromkeys(names)
    rounds = max(1, min(args.rounds, args.games))
    bounds = [args.games * r // rounds for r in range(rounds + 1)]
    with tqdm(total=args.games * len(names), unit="game", file=sys.stderr, leave=False) as bar:
        for r in range(rounds):
            block = range(bounds[r], bounds[r + 1])
            for name in names:
                results[name] = merge(results[name],
                                      run(name, block, args.seed, args.max_decisions,
                                          players[name]))
                bar.update(len(block))
    for name in names:
        result = results[name]
        assert result is not None
        print(result.line(), flush=True)
    if args.only is None:
        trainer, coupml = results["trainer"], results["coupml"]
        assert trainer is not None and coupml is not None
        print(f"ratio {trainer.decisions_per_second / coupml.decisions_per_second:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
