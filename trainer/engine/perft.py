"""Perft: how many decision sequences of a given length a position has, kept as data per variant.

Why: python-chess checks its move generator against files of known counts
(`examples/perft/*.perft`); a count that changes means the rules engine now allows or forbids
something it did not before, even where no rule test looked. The same holds for Coup, once the
chance in the game is fixed: a position is dealt from a seed (`Game.new(seed=...)`) and then
played with `ScriptedChance()`, so every draw takes the top of the court deck and shuffles keep
its order. Every count is then one number, the same on every machine and in both builds.

The convention: `perft(game, 0)` is 1; otherwise each legal move of the player who decides
counts the sequences of `depth - 1` further decisions after it. A game that ends before the
depth is reached counts as one sequence (it ended early), so a finished position is a leaf at
every depth: counts never drop because a line of play won the game.

The file format, one block per position and blank lines between blocks::

    id base-4p-seed1
    variant base
    players 4
    seed 1
    deal hands Captain+Duke, ...; deck ...      (the dealt position, so that a changed deal
                                                 is told apart from a changed move generator)
    moves P0:tax, P1:pass, P2:pass, P3:pass     (optional: the position after these moves)
    perft 1 7
    perft 2 19
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from trainer.engine.chance import ScriptedChance
from trainer.engine.errors import CoupError
from trainer.engine.game import Game
from trainer.engine.notation import cards_text, move_text, parse, parse_moves
from trainer.engine.variants import VARIANTS, parse_rules

PERFT_DIR = PurePosixPath("tests/data/perft")  # inside the checkout


def scripted_start(variant: str, players: int, seed: int) -> Game:
    """The deal of `Game.new(players, seed=seed)`, with every later draw taken from the top.

    `variant` is a rule set's compact description, table rules included
    (``base+pay_five(challengers=all)``). Rebuilt from the log's set-up, as `Game.replay`
    does, so the seeded random chance that dealt plays no further part (and the McGuire mat's
    first flip happens again, as dealt).
    """
    rules = parse_rules(variant)
    dealt = Game.new(players, seed=seed, variant=rules.variant, options=rules.options)
    setup = next(e for e in dealt.log if e.kind == "setup")
    return Game.from_snapshot(setup.data, ScriptedChance())


def perft(game: Game, depth: int) -> int:
    """The number of decision sequences of length `depth` from `game` (see the module's
    convention: a game that ends sooner counts as one). `game` itself is not changed."""
    if depth <= 0 or game.is_over:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)  # the frontier is counted, not played: most of perft's time
    total = 0
    for move in moves:
        child = game.clone()
        child.apply(move)
        total += perft(child, depth - 1)
    return total


def perft_counts(game: Game, depth: int) -> tuple[int, ...]:
    """`perft(game, d)` for every d from 1 to `depth`, in one walk of the tree (the deepest
    count visits every shallower position anyway)."""
    counts = [0] * (depth + 1)

    def walk(node: Game, ply: int) -> None:
        if node.is_over:
            for d in range(ply + 1, depth + 1):
                counts[d] += 1  # an early end: one sequence at every greater depth
            return
        moves = node.legal_moves()
        counts[ply + 1] += len(moves)
        if ply + 1 < depth:
            for move in moves:
                child = node.clone()
                child.apply(move)
                walk(child, ply + 1)

    walk(game, 0)
    return tuple(counts[1:])


def divide(game: Game, depth: int) -> dict[str, int]:
    """The count below each legal move, by its notation: where two engines' totals differ,
    this shows which move to look under (chess programmers' "divide")."""
    out: dict[str, int] = {}
    for move in game.legal_moves():
        child = game.clone()
        child.apply(move)
        out[move_text(move)] = perft(child, depth - 1)
    return out


def deal_text(game: Game) -> str:
    """The dealt position on one line: hands, court deck top first, and what variants add
    (a draft's sets, the McGuire mat's cards)."""
    snap = next(e for e in game.log if e.kind == "setup").data
    parts = ["hands " + ", ".join(cards_text(h) for h in snap["hands"]),
             "deck " + cards_text(snap["deck"])]
    if snap.get("offers"):
        parts.append("draft " + ", ".join(cards_text(o) for o in snap["offers"]))
    if snap.get("mat"):
        parts.append("mat " + ", ".join(e if c is None else f"{e}={c}" for e, c in snap["mat"]))
    return "; ".join(parts)


@dataclass(frozen=True)
class PerftPosition:
    """One block of a perft file: a seeded scripted deal, moves played from it, and counts."""

    id: str
    variant: str
    players: int
    seed: int
    moves: tuple[str, ...] = ()
    deal: str = ""
    counts: tuple[int, ...] = field(default=())  # counts[d - 1] is perft at depth d

    def game(self) -> Game:
        """The position: the deal, then the listed moves (each must be legal)."""
        game = scripted_start(self.variant, self.players, self.seed)
        for text in self.moves:
            game.apply(parse(text))
        return game

    def text(self) -> str:
        lines = [f"id {self.id}", f"variant {self.variant}", f"players {self.players}",
                 f"seed {self.seed}"]
        if self.deal:
            lines.append(f"deal {self.deal}")
        if self.moves:
            lines.append(f"moves {', '.join(self.moves)}")
        lines.extend(f"perft {d} {n}" for d, n in enumerate(self.counts, start=1))
        return "\n".join(lines)


@dataclass(frozen=True)
class PerftSpec:
    """What to count for one position: the counts themselves are computed, never typed in."""

    players: int
    seed: int
    depth: int
    prefix: int = 0  # random moves played (seeded by `seed`) to reach a mid-game position

    def id(self, variant: str) -> str:
        rules = "".join(c if c.isalnum() or c in "-_" else "_" for c in variant.rstrip(")"))
        return f"{rules}-{self.players}p-seed{self.seed}" + (
            f"-after{self.prefix}" if self.prefix else "")


# Per variant: a start position at two player counts and one mid-game position, with depths
# that keep each count in the thousands (the whole suite runs in a few seconds).
SUITE: dict[str, tuple[PerftSpec, ...]] = {
    "base": (PerftSpec(2, 1, 7), PerftSpec(4, 1, 7), PerftSpec(6, 3, 6),
             PerftSpec(3, 2, 7, prefix=12)),
    "draft": (PerftSpec(2, 1, 6), PerftSpec(2, 2, 7, prefix=6)),
    "inquisitor": (PerftSpec(2, 1, 7), PerftSpec(4, 1, 6), PerftSpec(3, 2, 7, prefix=12)),
    "reformation": (PerftSpec(2, 1, 6), PerftSpec(4, 1, 5), PerftSpec(3, 2, 6, prefix=12)),
    "reformation-inquisitor": (PerftSpec(2, 1, 6), PerftSpec(4, 1, 5),
                               PerftSpec(3, 2, 6, prefix=12)),
    "mcguire": (PerftSpec(2, 1, 7), PerftSpec(4, 1, 7), PerftSpec(3, 2, 7, prefix=12)),
    "forum": (PerftSpec(2, 1, 7), PerftSpec(4, 1, 7), PerftSpec(3, 2, 8, prefix=12)),
}


# Rule sets made by switching house rules and choosing table rules, in one file of their own
# (switches.perft): between them every house rule is on and off, and every reading of every
# table rule in force, at least once (a test checks it).
MIXED: tuple[tuple[str, PerftSpec], ...] = (
    ("base+bounty+pay_five(challengers=all)", PerftSpec(3, 4, 6)),
    ("base+ambassador_reduces+low_start(foreign_aid_blockers=queue)", PerftSpec(4, 5, 6)),
    ("base+inheritance+vengeance+treaty+mat(foreign_aid_blockers=random)", PerftSpec(3, 6, 6)),
    ("base-no_self_target(block_after_lost_challenge=no,gainless_actions=refused)",
     PerftSpec(3, 7, 6, prefix=10)),
    ("mcguire-pay_five-mat(challenge_order=target_first,challengers=all)", PerftSpec(3, 8, 6)),
    ("reformation+bounty+treaty(foreign_aid_blockers=queue,gainless_actions=refused,"
     "vocabulary=treason)", PerftSpec(3, 9, 5)),
    ("forum+low_start+vengeance+mat(challengers=all)", PerftSpec(3, 10, 6)),
    ("inquisitor+pay_five-no_self_target(examine_pick=random)", PerftSpec(3, 11, 6)),
    ("draft+low_start+bounty", PerftSpec(2, 12, 6)),
    ("base(steal_from_eliminated=no,finite_treasury=no,more_players=web,"
     "two_player_start=two_coins)", PerftSpec(11, 13, 4)),
)
MIXED_FILE = "switches"


def measure(variant: str, spec: PerftSpec) -> PerftPosition:
    """Play the spec's random prefix (stopping short of the end of the game) and count."""
    game = scripted_start(variant, spec.players, spec.seed)
    deal = deal_text(game)
    rng = random.Random(spec.seed)
    moves: list[str] = []
    for _ in range(spec.prefix):
        choice = rng.choice(game.legal_moves())
        after = game.clone()
        after.apply(choice)
        if after.is_over:
            break
        game = after
        moves.append(move_text(choice))
    counts = perft_counts(game, spec.depth)
    return PerftPosition(spec.id(variant), variant, spec.players, spec.seed, tuple(moves),
                         deal, counts)


def perft_file(variant: str) -> str:
    """The text of the variant's perft file (or, for `MIXED_FILE`, of the switched rule
    sets'), computed now."""
    if variant == MIXED_FILE:
        what = "rule sets with house rules switched and table rules chosen"
        blocks = [measure(rules, spec).text() for rules, spec in MIXED]
    else:
        parse_rules(variant)  # an unknown name fails here, naming the known ones
        what = f"the variant {variant!r}"
        blocks = [measure(variant, spec).text() for spec in SUITE[variant]]
    head = (f"# Perft counts for {what}: decision sequences of each length\n"
            f"# from a deal of Game.new(players, seed=seed), played on with ScriptedChance()\n"
            f"# (draws from the top, shuffles keep the order); a game that ends sooner counts\n"
            f"# as one sequence. Written by `python -m trainer golden`: see docs/engine.md.\n")
    return head + "\n" + "\n\n".join(blocks) + "\n"


def perft_files() -> dict[PurePosixPath, str]:
    """Every variant's perft file, and the switched rule sets', by path in the checkout."""
    return {PERFT_DIR / f"{name}.perft": perft_file(name)
            for name in (*VARIANTS, MIXED_FILE)}


def read_perft(text: str) -> list[PerftPosition]:
    """The positions of a perft file; ValueError with the line number if it is malformed."""
    positions: list[PerftPosition] = []
    block: dict[str, str] = {}
    counts: list[int] = []
    start = 0

    def close() -> None:
        if not block and not counts:
            return
        missing = [k for k in ("id", "variant", "players", "seed") if k not in block]
        if missing:
            raise ValueError(f"line {start}: the position has no {missing[0]} line")
        try:
            moves = tuple(move_text(m) for m in parse_moves(block.get("moves", "")))
        except ValueError as e:
            raise ValueError(f"line {start} ({block['id']}): {e}") from None
        positions.append(PerftPosition(block["id"], block["variant"], int(block["players"]),
                                       int(block["seed"]), moves, block.get("deal", ""),
                                       tuple(counts)))

    for number, raw in enumerate([*text.splitlines(), ""], start=1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            close()
            block, counts = {}, []
            continue
        if not block and not counts:
            start = number
        key, _, value = line.partition(" ")
        if key == "perft":
            depth, _, count = value.partition(" ")
            if not (depth.isdigit() and count.isdigit()) or int(depth) != len(counts) + 1:
                raise ValueError(f"line {number}: expected 'perft {len(counts) + 1} COUNT', "
                                 f"got {line!r}")
            counts.append(int(count))
        elif key in ("id", "variant", "moves", "deal") or (
                key in ("players", "seed") and value.isdigit()):
            if key in block:
                raise ValueError(f"line {number}: a second {key} line in one position")
            block[key] = value
        else:
            raise ValueError(f"line {number}: expected id, variant, players N, seed N, moves, "
                             f"deal or perft D N, got {line!r}")
    return positions


def check(position: PerftPosition) -> list[str]:
    """The differences between a recorded position and the engine now, one sentence each
    (empty when every count agrees)."""
    game = scripted_start(position.variant, position.players, position.seed)
    if position.deal and deal_text(game) != position.deal:
        return [f"{position.id}: the deal is now {deal_text(game)!r}, "
                f"not {position.deal!r}"]
    try:
        game = position.game()
    except (ValueError, CoupError) as e:  # a move that no longer parses, or is not legal
        return [f"{position.id}: the listed moves no longer play: {e}"]
    now = perft_counts(game, len(position.counts))
    return [f"{position.id}: perft {d} is {n}, the file says {want}"
            for d, (n, want) in enumerate(zip(now, position.counts, strict=True), start=1)
            if n != want]

