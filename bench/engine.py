"""Benchmark the project's Coup engine against coupml under random legal play, in CPU time.

Why this exists: `trainer.engine.game` is written for speed (bots and training play many games), and
the only honest way to say whether it is fast is to race it against an independent engine of
the same game on the same machine, in the same process, with the same move chooser. The
reference is the PyPI package coupml (0.1.1), a pure-Python Coup engine for machine learning.

What races
----------
Every registered rule set of the trainer (`trainer.engine.variants.VARIANTS`: base, draft,
inquisitor, reformation, reformation-inquisitor, mcguire, forum; ``--variants`` picks some)
races coupml, which knows only the base game, at a player count both allow: 4 players, or 2
for the draft (coupml then plays a two-player base game). Game i of a line is dealt with seed
S+i (coupml's dealer draws from its own stream, seeded 2**32+S+i, so the deck order and the move
choices are not the same numbers) and its moves are chosen by ``random.Random(S + i).choice``
over the legal moves: the chooser is the same function, drawing from the same kind of
generator, on both sides.

The trainer plays under the table rules (`trainer.engine.rules.Options`) that reproduce
coupml's readings where the rule texts leave a point open (``--table-rules official`` plays
the rulebook's defaults instead). Each was checked against coupml's code:

* ``challengers="all"``: every other living player is asked in turn whether to challenge, and
  if the claim is proven every challenger loses an influence (`actions.Challenge`: "The
  challenger(s) were not successful and they must now reveal in turn");
* ``foreign_aid_blockers="random"``: every other living player is asked whether to block
  Foreign Aid and one of the willing is drawn at random (`actions.Block._execute_block`);
* ``finite_treasury=False``: coupml has no Treasury, coins come from an unlimited store;
* ``steal_from_eliminated=False``: a thief whose target lost its last card during the steal
  (challenging the Captain, or a disproved block) gets nothing (`Action.resolve_challenge` and
  `resolve_block` end the turn when the target is dead);
* ``gainless_actions="allowed"``: coupml offers a steal from a player with no coins (and its
  store never runs dry);
* ``block_after_lost_challenge=True``: after a failed challenge the target may still block
  (`resolve_challenge(True)` calls `action_accepted`, which opens the block).

Rule differences that remain in the base game (none changes how long a game is on average by
much, but each is a difference):

* The challenged claimant's answers. coupml asks for ``reveal:<card>`` and the claimed card
  proves the claim, so a claimant holding it can lose the challenge only by revealing another
  card. The trainer offers ``show`` the claimed card or ``lose`` any card, the claimed one
  included (conceding a challenge while holding the card, as the rulebook allows: "or do not
  wish to"). The random chooser therefore proves a true claim less often in the trainer.
* The order of a block's challengers: coupml asks clockwise from the blocker, the trainer
  the acting player first, then clockwise. Under ``challengers="all"`` everyone is asked
  either way; only the order of the decisions, and of the challengers' losses, differs.
* The start player: coupml draws it at random after the deal, the trainer's is seat 0.
* The Assassin's cost: coupml charges it after the challenge (nothing is paid if the
  challenge succeeds), the trainer on the declaration and refunds it if the challenge
  succeeds. The coins shown during the challenge differ; no outcome does.
* An exiled player's coins go back to the (unlimited) store in the trainer and stay in
  coupml: nobody can use them either way.
* The deck: coupml deals from the top and shuffles after every card returned (an exchange, a
  proven card); the trainer draws from random places, which needs no shuffle after an
  exchange (it shuffles after a proven card). The distributions are the same.
* Losing an influence with two equal cards: coupml lists ``reveal:duke`` twice, the trainer
  one move; it changes the ``forced/game`` count, not the game.

The other variants change the trainer's game (different cards, actions, hooks), so their lines
compare the cost of playing a game of that variant with the cost of a coupml base game of the
same size; they use the same table rules where they apply.

What a decision is
------------------
trainer: one ``Game.apply`` call, choosing one of ``Game.legal_moves()``.

coupml: one ``Coup.play_action`` call, choosing one of ``Coup.get_legal_actions()`` (strings)
for ``Coup.player_to_act()``. coupml serialises everything into such calls: the turn's action;
after every character claim, each other living player in turn order answers ``pass`` or
``challenge``; the target of a steal or an assassination, or every other player for foreign
aid, answers ``pass`` / ``block:<role>``; ``reveal:<role>`` to lose an influence or answer a
challenge (also with one card left: a decision with a single legal option); ``keep:<roles>``
after an exchange. Because the two engines may split a turn into a different number of
decisions, each line also prints ``decisions/game`` and ``forced/game`` (decisions with exactly
one legal option), and the ratio of games per second beside the ratio of decisions per second.

How it is timed
---------------
The engines take turns: ``--rounds`` rounds, each playing a block of every line's games on
one engine and then on the other (the order alternating from round to round), so a change in
machine load falls on both alike. Each block is timed by the CPU time of this thread
(``time.thread_time``: what the engine costs, whatever else the machine runs) and by the wall
clock (``time.perf_counter``); both cover creating, dealing and playing the games and choosing
the moves. The choosers are seeded before the clock starts; garbage is collected before each
block. A game is stopped after ``--max-decisions`` decisions and reported as capped; its
decisions and time still count. On a machine shared with other work the wall clock also counts
the time the process waited for a core, so the CPU figures are the ones to compare.

What makes the comparison unfair, either way
--------------------------------------------
* coupml's documented usage passes a ``numpy.random.RandomState`` to the dealer and picks
  moves with ``np_random.choice`` (which also turns every action into ``numpy.str_``). Here
  the dealer gets a thin adapter over ``random.Random`` (its only calls are ``shuffle(list)``
  and ``choice(n)``) and moves are picked with ``random.Random.choice``. This makes coupml
  about 3x faster than its README loop, so it favours coupml; it is what makes the chooser
  identical on both sides. The chooser (about 0.5 µs a decision) is the same cost on both
  sides, which pulls the ratio towards 1.
* coupml is driven through its public ``Coup`` wrapper, which adds one delegation per call.
* coupml keeps every player's claim/reveal history (``trace``) and reshuffles the deck on every
  card returned; the trainer keeps the complete log of the game (every move, draw and loss, so
  that it can be replayed) and checks each move against the legal ones. Each engine's own
  bookkeeping is counted.
* The trainer keeps its tables of legal moves for the whole process (they hold only seat
  numbers, so every game shares them); coupml builds its lists of strings at every decision.
  The trainer's tables are warm after the first games, as they are in any long run.
* The rule differences above (the prove answers above all) change the games themselves.

Where the time goes
-------------------
Base game, 4 players, coupml's readings, compiled build; this thread's CPU time, the best of 7
rounds of 2,000 games, on the project's 2-core machine shared with other work. A game (about 40
decisions) costs the trainer about 48 µs: dealing 10 µs (5 µs of it seeding the Mersenne
Twister, which stays: the deal must be random.Random's), playing 21 µs (``legal_moves`` and
``apply``, 0.5 µs a decision) and this bench's loop with the chooser 18 µs (the chooser alone
13 to 15 µs: ``random.Random.choice`` is interpreted Python and costs coupml the same). A
coupml game costs about 280 µs (7 µs a decision): leaving out the chooser and the loop, the
engines differ by 8 to 9 times, and the chooser is what holds the bench's ratio near 5. The
trainer's games free what they allocate as they end: 2 young-generation collections of the
garbage collector in 3,000 games, against coupml's 192.

Before the engine was reworked for this bench (commit cb88851) a game cost 79 µs: dealing 18
µs, playing 43 µs, the loop and chooser 18 µs. A cProfile of the pure build and ``perf`` on the
compiled one showed where: look-ups by name from the compiled code (module globals that were
not ``Final``, the fields of ``ActionSpec``, ``Options`` and ``Variant``, which are plain Python
classes), a dict made for every event of the log and a tuple for every move, a list built for
every window of challenges or blocks and popped from the front, ``move in legal`` comparing
moves field by field until it met the one played, the deal shuffled by interpreted Python,
and the rule set hashed (a Python ``__hash__``) in five cached functions per game. Each is gone:
the constants are ``Final``, an action's row and the table rules are native fields, the log
stores flat tuples (the dicts are made when the log is read), windows ask from shared tuples by
index, a played move is found by identity, and the deal and the draws of a ``RandomChance`` over
``random.Random`` are compiled, calling ``getrandbits`` exactly as CPython's ``shuffle`` and
``randrange`` do (``tests/test_build.py`` checks the deal and every draw against theirs).

Output
------
One block per rule set, then the last line, ``name value`` pairs: ``ratio_cpu`` and
``ratio_wall`` are the base game's ratios of decisions per second (trainer / coupml, with
coupml's readings unless ``--table-rules official``), the headline figure; then
``<variant>_ratio_cpu`` and ``<variant>_ratio_wall`` for every rule set raced (a ``-`` in a name
written ``_``). ``--only`` runs one engine and prints no ratio.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trainer.engine.rules import Options  # noqa: E402
from trainer.engine.variants import VARIANTS  # noqa: E402

ENGINES = ("trainer", "coupml")
# The table rules under which the trainer reads the open points as coupml does.
COUPML_READINGS = Options(
    challengers="all",
    foreign_aid_blockers="random",
    finite_treasury=False,
    steal_from_eliminated=False,
    gainless_actions="allowed",
    block_after_lost_challenge=True,
)
TABLE_RULES = {"coupml": COUPML_READINGS, "official": Options()}

# One game's outcome: (decisions, decisions with a single legal option, hit the cap).
GameResult = tuple[int, int, bool]
Choose = Callable[[Sequence[Any]], Any]
PlayGame = Callable[[int, Choose, int], GameResult]


@dataclass(frozen=True, slots=True)
class Result:
    """Totals for one engine on one line."""

    name: str
    games: int
    decisions: int
    forced: int
    capped: int
    cpu: float  # seconds of this thread's CPU time
    wall: float  # seconds of the wall clock

    def rate(self, cpu: bool, per: str = "decisions") -> float:
        seconds = self.cpu if cpu else self.wall
        count = self.decisions if per == "decisions" else self.games
        return count / seconds if seconds else 0.0

    def line(self) -> str:
        per_game = self.decisions / self.games if self.games else 0.0
        forced = self.forced / self.games if self.games else 0.0
        # decisions/s and games/s are the wall clock's (the names older scripts read).
        return (
            f"{self.name:<8} games/s={self.rate(False, 'games'):.1f} "
            f"decisions/s={self.rate(False):.0f} games/cpu_s={self.rate(True, 'games'):.1f} "
            f"decisions/cpu_s={self.rate(True):.0f} cpu_s={self.cpu:.2f} wall_s={self.wall:.2f} "
            f"decisions/game={per_game:.2f} forced/game={forced:.2f} capped={self.capped}"
        )

    def __add__(self, other: Result) -> Result:
        return Result(self.name, self.games + other.games, self.decisions + other.decisions,
                      self.forced + other.forced, self.capped + other.capped,
                      self.cpu + other.cpu, self.wall + other.wall)


class _DealerRandom:
    """The part of numpy's RandomState that coupml's Dealer uses, backed by random.Random."""

    __slots__ = ("_rng",)

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def shuffle(self, items: list[Any]) -> None:
        self._rng.shuffle(items)

    def choice(self, n: int) -> int:
        # Dealer.choose only ever calls choice(len(items)) and indexes with the result.
        return self._rng.randrange(n)


def players_for(variant: str) -> int:
    """4 players, or the most the rule set takes if fewer (2 for the draft)."""
    v = VARIANTS[variant]
    return min(4, v.max_players)


def trainer_player(variant: str, players: int, options: Options) -> PlayGame:
    from trainer.engine.game import Game

    v = VARIANTS[variant]

    def play(seed: int, choose: Choose, cap: int) -> GameResult:
        game = Game.new(players, seed=seed, variant=v, options=options)
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


def coupml_player(players: int) -> PlayGame:
    from coupml import Coup

    def play(seed: int, choose: Choose, cap: int) -> GameResult:
        coup = Coup(players, _DealerRandom((1 << 32) + seed))
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


def run(name: str, play: PlayGame, games: range, seed: int, cap: int) -> Result:
    """Play the games numbered `games` on one engine; time the block in CPU and wall time."""
    choosers = [random.Random(seed + i).choice for i in games]
    gc.collect()
    decisions = forced = capped = 0
    cpu0, wall0 = time.thread_time(), time.perf_counter()
    for i, choose in zip(games, choosers, strict=True):
        n, f, hit_cap = play(seed + i, choose, cap)
        decisions += n
        forced += f
        capped += hit_cap
    wall = time.perf_counter() - wall0
    cpu = time.thread_time() - cpu0
    return Result(name, len(games), decisions, forced, capped, cpu, wall)


def _ratios(trainer: Result, coupml: Result) -> tuple[float, float, float, float]:
    """(decisions cpu, decisions wall, games cpu, games wall) ratios, trainer / coupml."""
    def r(cpu: bool, per: str) -> float:
        theirs = coupml.rate(cpu, per)
        return trainer.rate(cpu, per) / theirs if theirs else 0.0
    return r(True, "decisions"), r(False, "decisions"), r(True, "games"), r(False, "games")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per engine and rule set")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed S+i")
    parser.add_argument("--only", choices=ENGINES, help="run one engine, no ratio")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help=f"comma-separated rule sets to race (default all: "
                             f"{','.join(VARIANTS)})")
    parser.add_argument("--table-rules", choices=tuple(TABLE_RULES), default="coupml",
                        help="the trainer's table rules: coupml's readings of the open points "
                             "(default) or the rulebook's defaults")
    parser.add_argument("--rounds", type=int, default=10,
                        help="alternate the engines in this many rounds, so that a change in "
                             "machine load during the run affects both alike")
    parser.add_argument(
        "--max-decisions", type=int, default=10_000, help="stop a game after this many"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown or not variants:
        parser.error(f"unknown rule set(s) {', '.join(unknown) or '(none given)'}; expected "
                     f"some of {', '.join(VARIANTS)}")
    names = [n for n in ENGINES if args.only in (None, n)]
    options = TABLE_RULES[args.table_rules]
    players = {v: players_for(v) for v in variants}
    try:
        plays: dict[tuple[str, str], PlayGame] = {}
        for v in variants:
            if "trainer" in names:
                plays[v, "trainer"] = trainer_player(v, players[v], options)
            if "coupml" in names:
                plays[v, "coupml"] = coupml_player(players[v])
    except ImportError as exc:
        parser.error(f"engine not importable ({exc})")
    if "trainer" in names:
        from trainer.engine.build import engine_build

        print(f"trainer engine build: {engine_build()} (COUP_TRAINER_PURE_PYTHON=1 for the "
              f"pure-Python build); trainer table rules: {options.text() or 'the defaults'}")
    load = os.getloadavg()
    print(f"{args.games} games per engine and rule set in {args.rounds} rounds; "
          f"{os.cpu_count()} cores, load average {load[0]:.2f} at the start", flush=True)
    results: dict[tuple[str, str], Result] = {}
    rounds = max(1, min(args.rounds, args.games))
    bounds = [args.games * r // rounds for r in range(rounds + 1)]
    total = args.games * len(names) * len(variants)
    with tqdm(total=total, unit="game", file=sys.stderr, leave=False) as bar:
        for r in range(rounds):
            block = range(bounds[r], bounds[r + 1])
            for v in variants:
                for name in (names if r % 2 == 0 else names[::-1]):
                    result = run(name, plays[v, name], block, args.seed, args.max_decisions)
                    key = (v, name)
                    results[key] = results[key] + result if key in results else result
                    bar.update(len(block))
    summary: list[str] = []
    for v in variants:
        print(f"{v}, {players[v]} players")
        for name in names:
            print(results[v, name].line())
        if args.only is None:
            cpu, wall, games_cpu, games_wall = _ratios(results[v, "trainer"],
                                                       results[v, "coupml"])
            print(f"ratio    decisions/s cpu {cpu:.2f} wall {wall:.2f}; "
                  f"games/s cpu {games_cpu:.2f} wall {games_wall:.2f}")
            if v == "base":
                summary[:0] = [f"ratio_cpu {cpu:.2f}", f"ratio_wall {wall:.2f}"]
            key = v.replace("-", "_")
            summary += [f"{key}_ratio_cpu {cpu:.2f}", f"{key}_ratio_wall {wall:.2f}"]
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} at the end", flush=True)
    if summary:
        print(" ".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
