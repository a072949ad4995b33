"""Known-role end-games of two cards against one: a two-player game after its first lost card,
both hands face up.

Why: the duel of two cards against one is the most common end-game of a real game, and the
hidden-role solver needs, at its horizon, the value of such a position with every card face up,
as it reads the one-card table (`trainer.endgame.tables`) for the duel of one card each. The
game is one of perfect information with chance (the Exchange's draw), so its value is exact:
the same exploration and two-sided value iteration as `trainer.endgame.known`, over engine
positions played by the engine's rules.

The positions: player 0 holds two cards (any two the court can deal, a pair included) and has
lost none; player 1 holds one and has lost `lost`; coins 0..`known.MAX_COINS` each; either to
act. Once player 0 loses a card the duel is one card each and, at the next turn's start, its
value is read from the one-card table instead of explored again (`_one_card`); a player 1 with
two cards is the same table read from the other seat (`value` mirrors it, as the base game is
the same game with the seats swapped).

Cost, measured on this machine: one lost card of player 1 is about 1.6 million positions
(every coin count is reached from every other by play), 105 s to explore and 21 s to iterate,
4 GB of memory; the loops never decide a value (the two bounds agree to 10⁻¹²). Five jobs,
one per card player 1 lost, run through `trainer.batch` (Ray when installed) and are saved as
they finish, so a stopped build resumes. The file keeps only the turn starts: 15 hands × 5
cards × 13 × 13 coins × 2, per lost card.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from pathlib import Path

import numpy as np

from trainer import batch
from trainer.endgame import known
from trainer.endgame.tables import GAP, Built, _save, build_record, known_values, parts_dir
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.variants import get_variant

Hand = tuple[Character, Character]
DATA = "data"
DEFAULT_OUT = Path(__file__).resolve().parent / DATA / "known2-base.npz"
# Rule sets where swapping the seats is known to turn the game into itself (as tables.SYMMETRIC)
SYMMETRIC = frozenset({"base"})


def stored_name(variant: str) -> str:
    return f"known2-{variant}.npz"


def hands(variant: str = "base") -> list[Hand]:
    """Every two-card hand in the rule set's character order (a pair of the same card too)."""
    chars = get_variant(variant).characters
    return [(x, y) for i, x in enumerate(chars) for y in chars[i:]]


def _hand_index(hand: tuple[Character, ...], variant: str) -> int:
    chars = get_variant(variant).characters
    key = tuple(sorted(hand, key=chars.index))
    return hands(variant).index((key[0], key[1]))


def root(hand: Hand, card: Character, lost: Character, coins: tuple[int, int], first: int,
         variant: str = "base") -> Game | None:
    """The engine game at the start of `first`'s turn: player 0 holding `hand`, player 1
    holding `card` with `lost` face up, the rest of the court the deck; None when the court
    cannot deal it."""
    v = get_variant(variant)
    rest = Counter(v.court(2))
    rest.subtract([*hand, card, lost])
    if any(n < 0 for n in rest.values()):
        return None
    return Game(names=["P1", "P2"], hands=[list(hand), [card]], revealed=[[], [lost]],
                coins=list(coins), deck=sorted(rest.elements()), first=first, variant=v)


def _one_card(game: Game) -> float | None:
    """A duel of one card each at a turn's start: the one-card table's value (None
    elsewhere, and beyond the table's coins: such a position is explored)."""
    if (game.phase is not Phase.ACTION or len(game.hidden[0]) != 1
            or len(game.hidden[1]) != 1 or max(game.coins) > known.MAX_COINS):
        return None
    table = known_values((game.revealed[0][0], game.revealed[1][0]), game.variant.name)
    return table.value((game.hidden[0][0], game.hidden[1][0]),
                       (game.coins[0], game.coins[1]), game.decider)


def solve_lost(job: tuple[str, str]) -> np.ndarray:
    """Every position with player 1's lost card `job[0]` in rule set `job[1]` (a job of
    `build`, by names so it pickles small): player 0's chance of winning, indexed
    `[hand, card, coins0, coins1, first]`, NaN where the court cannot deal the cards."""
    lost, variant = Character.parse(job[0]), job[1]
    chars = get_variant(variant).characters
    all_hands = hands(variant)
    m = known.MAX_COINS + 1
    values = np.full((len(all_hands), len(chars), m, m, 2), np.nan)
    at: list[tuple[int, int, int, int, int]] = []
    games: list[Game] = []
    for h, hand in enumerate(all_hands):
        for c, card in enumerate(chars):
            for a in range(m):
                for b in range(m):
                    for first in (0, 1):
                        g = root(hand, card, lost, (a, b), first, variant)
                        if g is not None:
                            at.append((h, c, a, b, first))
                            games.append(g)
    keys, nodes = known.explore(games, _one_card)
    arrays = known._arrays(nodes)
    low, _ = known.iterate(nodes, 0.0, arrays)
    high, _ = known.iterate(nodes, 1.0, arrays)
    gap = max((hi - lo for lo, hi in zip(low, high, strict=True)), default=0.0)
    if gap > GAP:
        raise RuntimeError(f"{lost} lost: the value iteration's bounds differ by {gap:.3g}, "
                           f"so a loop decides some value and the table would not be exact")
    for index, g in zip(at, games, strict=True):
        i = keys[g.position_key()]
        values[index] = (low[i] + high[i]) / 2
    return values


@cache
def _stored(variant: str) -> dict[Character, np.ndarray]:
    """The stored tables by player 1's lost card; empty without a file or with one made for
    other characters or coins."""
    resource = files("trainer.endgame").joinpath(DATA, stored_name(variant))
    if not resource.is_file():
        return {}
    with resource.open("rb") as f, np.load(f, allow_pickle=False) as z:
        chars = tuple(Character.parse(str(c)) for c in z["characters"])
        if (str(z["variant"]) != variant or chars != get_variant(variant).characters
                or int(z["max_coins"]) != known.MAX_COINS):
            return {}
        values = z["values"]
        out = {Character.parse(str(x)): np.ascontiguousarray(values[k])
               for k, x in enumerate(z["lost"])}
    for a in out.values():
        a.setflags(write=False)
    return out


def table(lost: Character, variant: str = "base") -> np.ndarray | None:
    """Player 0's chances `[hand, card, coins0, coins1, first]`, player 0 holding the two
    cards and player 1 having lost `lost`; None when no stored table holds it (a build takes
    minutes and gigabytes, so it is never solved on a page's request)."""
    return _stored(get_variant(variant).name).get(lost)


def value(hands_: tuple[tuple[Character, ...], tuple[Character, ...]],
          revealed: tuple[tuple[Character, ...], tuple[Character, ...]],
          coins: tuple[int, int], first: int, variant: str = "base") -> float | None:
    """Player 0's chance of winning with both hands face up, one player holding two cards
    and the other one (with one lost): `hands_[p]` and `revealed[p]` are player p's. None
    when the table is not stored, or for a position it does not hold."""
    name = get_variant(variant).name
    two = 0 if len(hands_[0]) == 2 else 1
    if (len(hands_[two]) != 2 or len(hands_[1 - two]) != 1 or revealed[two]
            or len(revealed[1 - two]) != 1 or not all(0 <= n <= known.MAX_COINS for n in coins)
            or (two == 1 and name not in SYMMETRIC)):
        return None
    found = table(revealed[1 - two][0], name)
    if found is None:
        return None
    chars = get_variant(name).characters
    mine = (coins[0], coins[1]) if two == 0 else (coins[1], coins[0])
    at = (_hand_index(hands_[two], name), chars.index(hands_[1 - two][0]), mine[0], mine[1],
          first if two == 0 else 1 - first)
    v = float(found[at])
    if np.isnan(v):
        return None
    return v if two == 0 else 1.0 - v


def build(out: Path = DEFAULT_OUT, *, variant: str = "base", executor: str = "auto",
          processes: int = 1, address: str | None = None,
          progress: Callable[[int, int], None] | None = None) -> Built:
    """One job per card player 1 may have lost, each saved as it finishes in
    `parts_dir(out)`; then `out` is written and the parts dropped. A stopped build resumes
    from its parts."""
    start = time.perf_counter()
    chars = get_variant(variant).characters
    parts = parts_dir(out)
    parts.mkdir(parents=True, exist_ok=True)

    def part(lost: Character) -> Path:
        return parts / f"{lost.value}.npz"

    done: dict[Character, np.ndarray] = {}
    for lost in chars:
        try:
            with np.load(part(lost), allow_pickle=False) as z:
                if str(z["variant"]) == variant and int(z["max_coins"]) == known.MAX_COINS:
                    done[lost] = z["values"]
        except (OSError, ValueError, KeyError):
            pass
    resumed = len(done)
    if progress:
        progress(resumed, len(chars))
    jobs = [(lost, (lost.value, variant)) for lost in chars if lost not in done]
    for lost, values in batch.run(solve_lost, jobs, executor=executor, processes=processes,
                                  address=address):
        _save(part(lost), values=values, variant=np.array(variant),
              max_coins=np.array(known.MAX_COINS))
        done[lost] = values
        if progress:
            progress(len(done), len(chars))
    out.parent.mkdir(parents=True, exist_ok=True)
    _save(out, variant=np.array(variant), max_coins=np.array(known.MAX_COINS),
          characters=np.array([c.value for c in chars]),
          lost=np.array([c.value for c in chars]),
          values=np.stack([done[c] for c in chars]).astype(np.float32),
          **build_record(start, processes, resumed))
    for lost in chars:
        part(lost).unlink(missing_ok=True)
    if not any(parts.iterdir()):
        parts.rmdir()
    _stored.cache_clear()
    return Built(out, out.stat().st_size, time.perf_counter() - start, len(chars) - resumed,
                 resumed)
