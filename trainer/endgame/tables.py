"""The known-role end-game tables of a rule set, one per pair of lost cards, kept in the package.

Why stored: a two-player game's end-game starts once each player has lost a card, and every
quiz item, hint or hidden-role solve that reaches one needs the value of a face-up position at
once, where solving the pair of lost cards takes about 40 s. The base game's 15 pairs are
solved ahead (`python -m trainer endgame build`) into `data/known-base.npz`, about 22 KiB
read in milliseconds; a pair not stored (another rule set, or no file) is solved on first use
and kept in memory.

Why only 15 of the 25 ordered pairs: in the base game swapping the players (their cards,
coins, lost cards and who acts) turns the game into itself, so the pair (Y, X) is (X, Y) read
from the other seat: player 0's chance there is 1 minus player 1's chance here. The lookup
does the swap.

Each pair's table is indexed `[card0, card1, coins0, coins1, first]`, the cards in the rule
set's character order, coins 0..`known.MAX_COINS`: `values` is player 0's chance of winning
under perfect play (NaN where the court cannot deal those cards), `distances` the turns
within which the certain winner wins (`Table.turns`; -1 where a draw decides).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path
from typing import IO, Any, TypeVar

import numpy as np

from trainer import batch
from trainer.endgame import known
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.variants import get_variant

Pair = tuple[Character, Character]
# The stored file of a rule set, inside the package.
DATA = "data"
DEFAULT_OUT = Path(__file__).resolve().parent / DATA / "known-base.npz"
# Rule sets in which swapping the players (cards, coins, lost cards, who acts) is known to turn
# the game into itself, so that (Y, X) is read from (X, Y): the base game, where a test checks
# it against a direct solve. Elsewhere (a mat's clock, allegiances) each order is solved.
SYMMETRIC = frozenset({"base"})
# The largest difference between the value iteration's two bounds a stored table accepts.
GAP = 1e-9


def stored_name(variant: str) -> str:
    return f"known-{variant}.npz"


@dataclass(frozen=True)
class KnownValues:
    """One ordered pair of lost cards: `revealed[p]` is the card player p has lost."""

    revealed: Pair
    variant: str
    characters: tuple[Character, ...]
    values: np.ndarray  # float64 [card0, card1, coins0, coins1, first]; NaN: no such deal
    distances: np.ndarray  # int8, same index; -1: no certain winner (or no such deal)

    def _index(self, cards: Pair, coins: tuple[int, int],
               first: int) -> tuple[int, int, int, int, int]:
        if (not isinstance(cards, tuple | list) or len(cards) != 2
                or any(c not in self.characters for c in cards)):
            raise ValueError(f"cards: expected two of {', '.join(map(str, self.characters))} "
                             f"(player 0's, player 1's), got {cards!r}")
        if (not isinstance(coins, tuple | list) or len(coins) != 2
                or any(isinstance(n, bool) or not isinstance(n, int | np.integer)
                       or not 0 <= n <= known.MAX_COINS for n in coins)):
            raise ValueError(f"coins: expected two whole numbers 0 to {known.MAX_COINS}, "
                             f"got {coins!r}")
        if first not in (0, 1) or isinstance(first, bool):
            raise ValueError(f"first: expected 0 or 1 (the player who acts), got {first!r}")
        at = (self.characters.index(cards[0]), self.characters.index(cards[1]),
              int(coins[0]), int(coins[1]), int(first))
        if np.isnan(self.values[at]):
            raise ValueError(f"cards {cards[0]} and {cards[1]}: the court of the "
                             f"{self.variant} game cannot deal them with {self.revealed[0]} "
                             f"and {self.revealed[1]} lost")
        return at

    def value(self, cards: Pair, coins: tuple[int, int], first: int) -> float:
        """Player 0's chance of winning under perfect play, `cards[p]` and `coins[p]` being
        player p's, `first` to act."""
        return float(self.values[self._index(cards, coins, first)])

    def turns(self, cards: Pair, coins: tuple[int, int], first: int) -> int | None:
        """The turns (this one included) within which the certain winner wins, the loser
        making it last; None where the winner depends on a draw."""
        d = int(self.distances[self._index(cards, coins, first)])
        return None if d < 0 else d


def pairs(variant: str = "base") -> list[Pair]:
    """The pairs of lost cards a table file holds: X before or equal to Y in the rule set's
    character order (the others are their mirrors)."""
    chars = get_variant(variant).characters
    return [(x, y) for i, x in enumerate(chars) for y in chars[i:]]


def _check_revealed(revealed: object, variant: str) -> tuple[Character, ...]:
    """The rule set's characters, after checking that `revealed` can be two lost cards."""
    v = get_variant(variant)
    if (not isinstance(revealed, tuple | list) or len(revealed) != 2
            or any(c not in v.characters for c in revealed)):
        raise ValueError(f"revealed: expected two of {', '.join(map(str, v.characters))} "
                         f"(the card player 0 lost, the card player 1 lost), got {revealed!r}")
    court = Counter(v.court(2))
    if any(n > court[c] for c, n in Counter(revealed).items()):
        raise ValueError(f"revealed: the {v.name} court holds {court[revealed[0]]} "
                         f"{revealed[0]}, not two")
    return v.characters


def solve_pair(job: tuple[str, str, str]) -> tuple[np.ndarray, np.ndarray]:
    """The values and distances of one pair of lost cards `(X, Y, variant)`, by names so
    the job pickles small. A certain win's value is stored as exactly 1 or 0 (the iteration
    sums chances that add up to 1 only within rounding)."""
    revealed = (Character.parse(job[0]), Character.parse(job[1]))
    variant = job[2]
    chars = _check_revealed(revealed, variant)
    n, m = len(chars), known.MAX_COINS + 1
    roots = list(known.positions([(a, b) for a in chars for b in chars], revealed,
                                 coins=known.MAX_COINS, variant=variant))
    table = known.solve(p.game() for p in roots)
    if table.gap() > GAP:
        # The mean of two bounds that disagree is no game's value: better no table.
        raise RuntimeError(f"lost cards {revealed[0]} and {revealed[1]}: the value "
                           f"iteration's bounds differ by {table.gap():.3g}, so a loop "
                           f"decides some value and the table would not be exact")
    values = np.full((n, n, m, m, 2), np.nan)
    turns = np.full((n, n, m, m, 2), -1, dtype=np.int8)
    for p in roots:
        at = (chars.index(p.cards[0]), chars.index(p.cards[1]), p.coins[0], p.coins[1],
              p.first)
        game = p.game()
        d = table.turns(game)
        value = table.value(game)
        if d is not None:
            value = 1.0 if value > 0.5 else 0.0
            turns[at] = d
        values[at] = value
    return values, turns


@cache
def _solved(x: Character, y: Character, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """A pair not in the stored file, solved once per process."""
    return solve_pair((x.value, y.value, variant))


@cache
def _stored(variant: str) -> dict[Pair, tuple[np.ndarray, np.ndarray]]:
    """The rule set's stored tables, read once per process; empty without a file, or with
    one made for other characters or coins (it is then ignored, and pairs are solved)."""
    resource = files("trainer.endgame").joinpath(DATA, stored_name(variant))
    if not resource.is_file():
        return {}
    with resource.open("rb") as f:
        data = read(f)
    if data.variant != variant:
        return {}
    return data.tables


@dataclass(frozen=True)
class StoredTables:
    """The contents of a table file."""

    variant: str
    characters: tuple[Character, ...]
    tables: dict[Pair, tuple[np.ndarray, np.ndarray]]


def read(source: Path | IO[bytes]) -> StoredTables:
    """A table file's tables, checked against its rule set's characters and the coins."""
    with np.load(source, allow_pickle=False) as z:
        variant = str(z["variant"])
        chars = tuple(Character.parse(str(c)) for c in z["characters"])
        names = [(str(a), str(b)) for a, b in z["pairs"]]
        values, turns = z["values"], z["turns"]
        coins = int(z["max_coins"])
    if chars != get_variant(variant).characters or coins != known.MAX_COINS:
        return StoredTables(variant, chars, {})
    tables = {(Character.parse(a), Character.parse(b)): (values[i], turns[i])
              for i, (a, b) in enumerate(names)}
    return StoredTables(variant, chars, tables)


def _readonly(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def known_values(revealed: Pair, variant: str = "base") -> KnownValues:
    """The table of one ordered pair of lost cards, `revealed[p]` being the card player p
    lost: from the stored file when it holds the pair, else solved now (about 40 s) and kept
    for the rest of the process."""
    try:
        name = get_variant(variant).name
    except ValueError as e:
        raise ValueError(f"variant: {e}") from None
    _check_revealed(revealed, name)
    return _known((Character(revealed[0]), Character(revealed[1])), name)


@lru_cache(maxsize=256)
def _known(revealed: Pair, variant: str) -> KnownValues:
    chars = get_variant(variant).characters
    x, y = revealed
    mirrored = variant in SYMMETRIC and chars.index(x) > chars.index(y)
    key = (y, x) if mirrored else (x, y)
    values, turns = _stored(variant).get(key) or _solved(key[0], key[1], variant)
    if mirrored:
        # Player 0 here is player 1 there: swap the cards, the coins and who acts.
        values = 1.0 - values.transpose(1, 0, 3, 2, 4)[..., ::-1]
        turns = turns.transpose(1, 0, 3, 2, 4)[..., ::-1]
    return KnownValues(revealed, variant, chars, _readonly(values), _readonly(turns))


# ------------------------------------------------------------------------------ building


def parts_dir(out: Path) -> Path:
    """Where a build keeps each finished pair until the whole file is written: beside it."""
    return out.with_name(out.name + ".parts")


def _part_path(parts: Path, pair: Pair) -> Path:
    return parts / f"{pair[0].value}-{pair[1].value}.npz"


def build_record(start: float, processes: int, resumed: int) -> dict[str, np.ndarray]:
    """What a table file says of its own build (bench/endgame.py reports it): the wall-clock
    seconds of the run that finished it, its processes, and how many parts came from an
    earlier, interrupted run (then the seconds are only the last run's)."""
    return {"build_seconds": np.array(time.perf_counter() - start),
            "build_processes": np.array(processes), "build_resumed": np.array(resumed)}


def build_minutes(path: Path | IO[bytes]) -> tuple[float, int, int] | None:
    """A table file's recorded build: minutes, processes, parts resumed (None if absent)."""
    with np.load(path, allow_pickle=False) as z:
        if "build_seconds" not in z.files:
            return None
        return (float(z["build_seconds"]) / 60, int(z["build_processes"]),
                int(z["build_resumed"]))


def _save(path: Path, **arrays: Any) -> None:
    """Written under a temporary name and renamed: an interrupt never leaves half a file."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, **arrays)
    os.replace(tmp, path)


def packaged(name: str) -> dict[str, np.ndarray] | None:
    """Every array of a table file shipped in the package's data folder, or None when the
    package has none of that name (another rule set, or a table not built)."""
    try:
        data = files("trainer.endgame").joinpath("data", name)
        with data.open("rb") as f, np.load(f, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except (FileNotFoundError, OSError):
        return None


K = TypeVar("K", bound=Hashable)
A = TypeVar("A")


def run_parts(fn: Callable[[A], dict[str, np.ndarray]], keys: Sequence[K],
              arg: Callable[[K], A], part: Callable[[K], Path], *, executor: str = "auto",
              processes: int = 1, address: str | None = None,
              progress: Callable[[int, int], None] | None = None
              ) -> tuple[dict[K, dict[str, np.ndarray]], int]:
    """A resumable batch of table jobs: each key's result from its part file when an earlier,
    interrupted run saved it, else `fn(arg(key))` through `trainer.batch` (Ray or this
    process), saved to `part(key)` as it finishes. Returns every result and how many came
    from earlier runs; `progress(done, total)` hears of each."""
    done: dict[K, dict[str, np.ndarray]] = {}
    for key in keys:
        try:
            with np.load(part(key), allow_pickle=False) as f:
                done[key] = {k: f[k] for k in f.files}
        except (OSError, ValueError):
            pass
    resumed = len(done)
    if progress:
        progress(resumed, len(keys))
    jobs = [(key, arg(key)) for key in keys if key not in done]
    for key, result in batch.run(fn, jobs, executor=executor, processes=processes,
                                 address=address):
        _save(part(key), **result)
        done[key] = result
        if progress:
            progress(len(done), len(keys))
    return done, resumed


def drop_parts(keys: Iterable[K], part: Callable[[K], Path], parts: Path) -> None:
    """The part files of a finished run removed, and their folder when nothing else is left."""
    for key in keys:
        part(key).unlink(missing_ok=True)
    if parts.is_dir() and not any(parts.iterdir()):
        parts.rmdir()


def _load_part(path: Path, variant: str, shape: tuple[int, ...]
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """A finished pair of an earlier build, or None if it is missing or was made for other
    characters, coins or rule set."""
    try:
        with np.load(path, allow_pickle=False) as z:
            if str(z["variant"]) != variant or int(z["max_coins"]) != known.MAX_COINS:
                return None
            values, turns = z["values"], z["turns"]
    except (OSError, ValueError, KeyError):
        return None
    if values.shape != shape or turns.shape != shape:
        return None
    return values, turns


@dataclass(frozen=True)
class Deepest:
    """What a pass one turn deeper over a table's still-moving positions did
    (`hidden_tables.deepest`, `hidden_two_tables.deepest`)."""

    path: Path
    solved: int  # positions solved one turn deeper by this run (or found in its parts)
    deep: int  # positions of the table solved that deep, by this run or before
    settled: int  # of those this run added, settled between the last two look-aheads
    left: int  # positions still moving, not yet solved one turn deeper
    seconds: float
    # positions that read a solved twin's figures instead of a solve of their own (the one-card
    # duel with the face-up cards swapped: `hidden_tables.FACE_UP_INERT`)
    copied: int = 0


def still_moving(z: dict[str, np.ndarray], check: int, deeper: str) -> np.ndarray:
    """Positions last compared at look-ahead `check` and not settled there, not yet solved
    one turn deeper (`value<deeper>` missing or NaN): what a pass one turn deeper takes."""
    shape = z["settled"].shape
    deep = z.get(f"value{deeper}", np.full(shape, np.nan))
    checked = z.get("check_horizon", np.zeros(shape, dtype=np.int8))
    moving: np.ndarray = (z["settled"] == 0) & (checked == check) & np.isnan(
        deep.astype(float))
    return moving


def spread(mask: np.ndarray, like: np.ndarray) -> np.ndarray:
    """A per-position mask shaped to broadcast over `like`'s trailing axes (per card, per
    option...), for `np.where` between two look-aheads' figures."""
    return mask.reshape(mask.shape + (1,) * (like.ndim - mask.ndim))


@dataclass(frozen=True)
class Built:
    path: Path
    size: int  # bytes
    seconds: float
    solved: int  # jobs (pairs, slices) solved by this run
    resumed: int  # jobs found finished in the parts folder


def build(out: Path, *, variant: str = "base", executor: str = "auto", processes: int = 1,
          address: str | None = None,
          progress: Callable[[int, int], None] | None = None) -> Built:
    """Solve every pair of lost cards as one job each through `trainer.batch`, save
    each as it finishes in `parts_dir(out)`, then write `out` and drop the parts. A build
    stopped half-way keeps its parts and the next one starts from them; `progress(done,
    total)` is called first with the parts found, then after every pair."""
    start = time.perf_counter()
    chars = get_variant(variant).characters
    wanted = pairs(variant)
    m = known.MAX_COINS + 1
    shape = (len(chars), len(chars), m, m, 2)
    parts = parts_dir(out)
    parts.mkdir(parents=True, exist_ok=True)
    done: dict[Pair, tuple[np.ndarray, np.ndarray]] = {}
    for pair in wanted:
        part = _load_part(_part_path(parts, pair), variant, shape)
        if part is not None:
            done[pair] = part
    resumed = len(done)
    if progress:
        progress(resumed, len(wanted))
    jobs = [(pair, (pair[0].value, pair[1].value, variant)) for pair in wanted
            if pair not in done]
    for pair, (values, turns) in batch.run(solve_pair, jobs, executor=executor,
                                           processes=processes, address=address):
        _save(_part_path(parts, pair), values=values, turns=turns,
              variant=np.array(variant), max_coins=np.array(known.MAX_COINS))
        done[pair] = (values, turns)
        if progress:
            progress(len(done), len(wanted))
    out.parent.mkdir(parents=True, exist_ok=True)
    _save(out, variant=np.array(variant), max_coins=np.array(known.MAX_COINS),
          characters=np.array([c.value for c in chars]),
          pairs=np.array([[x.value, y.value] for x, y in wanted]).reshape(len(wanted), 2),
          values=np.stack([done[p][0] for p in wanted]),
          turns=np.stack([done[p][1] for p in wanted]),
          **build_record(start, processes, resumed))
    for pair in wanted:
        _part_path(parts, pair).unlink(missing_ok=True)
    if not any(parts.iterdir()):
        parts.rmdir()
    return Built(out, out.stat().st_size, time.perf_counter() - start,
                 len(wanted) - resumed, resumed)


# ------------------------------------------------------------------ cards out of the game

# Rule sets in which only these cards' actions draw from the deck. With both cards face up a
# bluff is always challenged and a lost challenge ends a one-card duel, so between two hands
# holding none of them the deck is never drawn from, and the value is the two-player table's
# whatever the deck holds. Only the positions with such a card in a hand are solved again for
# a court that has lost cards; elsewhere every position is.
DECK_CARDS: dict[str, tuple[Character, ...]] = {"base": (Character.AMBASSADOR,)}


def court_values(revealed: Pair, out: tuple[Character, ...] = (),
                 variant: str = "base") -> np.ndarray:
    """Player 0's known-role values `[card0, card1, coins0, coins1, first]` (NaN where the
    court cannot deal the cards) when `out`, the face-up cards of players already out, have
    also left the court: the leaf of a hidden-role end-game from a game that started with
    more than two players. With nothing out, the stored table itself."""
    name = get_variant(variant).name
    _check_revealed(revealed, name)
    pair = (Character(revealed[0]), Character(revealed[1]))
    if not out:
        return known_values(pair, name).values
    key = (pair, tuple(sorted(Character(c) for c in out)), name)
    values = _COURTS.get(key)
    if values is None:
        values = _court_values(*key)
        while len(_COURTS) >= COURTS_KEPT:
            del _COURTS[next(iter(_COURTS))]
        _COURTS[key] = values
    return values


CourtKey = tuple[Pair, tuple[Character, ...], str]
# The court values solved in this process (or handed to it), by face-up cards, cards out and
# rule set: the oldest goes first when full.
_COURTS: dict[CourtKey, np.ndarray] = {}
COURTS_KEPT = 16


def solved_courts() -> dict[CourtKey, np.ndarray]:
    """The court values this process has solved, to hand to another one (`add_courts`). Why:
    the duel at the end of a reviewed game needs one court's values for each of its
    decisions, and they take seconds to solve; the first decision's worker solves them and
    the others start from them."""
    return dict(_COURTS)


def add_courts(courts: dict[CourtKey, np.ndarray]) -> None:
    """Court values solved elsewhere (`solved_courts`), read-only, as if solved here. Each is
    checked against the shape `court_values` makes, so a damaged one is solved again."""
    for key, values in courts.items():
        chars = get_variant(key[2]).characters
        m = known.MAX_COINS + 1
        if key not in _COURTS and values.shape == (len(chars), len(chars), m, m, 2):
            _COURTS[key] = _readonly(np.array(values, dtype=float))


def _court_values(revealed: Pair, out: tuple[Character, ...], variant: str) -> np.ndarray:
    """Solved once per face-up cards and process (`_COURTS`): about 11 s for the base game
    with two cards out (the positions with an Ambassador in a hand; the rest are read), 30 s
    where every position must be solved."""
    v = get_variant(variant)
    chars = v.characters
    court = Counter(v.court(2))
    court.subtract(list(revealed) + list(out))
    if any(n < 0 for n in court.values()):
        raise ValueError(f"revealed {revealed} and out {out}: more copies than the "
                         f"{v.name} court holds")
    two = known_values(revealed, variant).values
    drawers = DECK_CARDS.get(v.name)
    index = {c: k for k, c in enumerate(chars)}

    def fixed(game: Game) -> float | None:
        if drawers is None or game.phase is not Phase.ACTION:
            return None
        hands = (game.hidden[0][0], game.hidden[1][0])
        if any(c in drawers for c in hands):
            return None
        return float(two[index[hands[0]], index[hands[1]], game.coins[0], game.coins[1],
                          game.decider])

    cards = [(a, b) for a in chars for b in chars
             if drawers is None or a in drawers or b in drawers]
    roots = list(known.positions(cards, revealed, variant=v.name, out=out))
    # Each root's key, from the game explored (building a root's game checks the whole
    # table, and there are some two thousand roots).
    games = [p.game() for p in roots]
    root_keys = [g.position_key() for g in games]
    keys, nodes = known.explore(games, fixed)
    arrays = known._arrays(nodes)
    low, _ = known.iterate(nodes, 0.0, arrays)
    high, _ = known.iterate(nodes, 1.0, arrays)
    m = known.MAX_COINS + 1
    values = np.full((len(chars), len(chars), m, m, 2), np.nan)
    for a in chars:
        for b in chars:
            dealt = Counter((a, b))
            if any(court[c] < k for c, k in dealt.items()):
                continue
            if drawers is not None and a not in drawers and b not in drawers:
                values[index[a], index[b]] = two[index[a], index[b]]
    for p, key in zip(roots, root_keys, strict=True):
        i = keys[key]
        if high[i] - low[i] > GAP:
            raise RuntimeError(f"lost cards {revealed}, out {out}: the value iteration's "
                               f"bounds differ by {high[i] - low[i]:.3g}")
        values[index[p.cards[0]], index[p.cards[1]], p.coins[0], p.coins[1], p.first] = (
            low[i] + high[i]) / 2
    return _readonly(values)


def court_leaf(revealed: Pair, out: tuple[Character, ...] = (),
               variant: str = "base") -> Callable[[tuple[int, int], int], np.ndarray]:
    """The hidden-role solver's horizon value for a court with `out` cards gone: the
    known-role values of `court_values` at those coins and that player to act (0 where the
    court cannot deal a pair, as the stored table's leaf does)."""
    values = _readonly(np.nan_to_num(court_values(revealed, out, variant)))  # once, not per leaf

    def leaf(coins: tuple[int, int], first: int) -> np.ndarray:
        at: np.ndarray = values[:, :, coins[0], coins[1], first]
        return at

    return leaf
