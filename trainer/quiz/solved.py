"""End-game items graded by the exact solver: each option's win chance under perfect play.

Why: a quiz item's option values come from rollouts against our own bot players, which is an
estimate of how those players would carry on. Once two players are left with one face-down
card each, the duel is small enough to solve exactly (`trainer.endgame.hidden`), so the
End-game drill can grade a learner against perfect play instead, and say that it does.

How an item is solved:
- the position at the start of the item's current turn must already be a 1-v-1 with one
  face-down card each (else the item stays graded by rollouts);
- the two live players' seats become the solver's players 0 and 1 (the lower seat is 0);
  the face-up cards of players already out leave the court (`out`);
- the deal is what a shuffled court gives: every unseen card equally likely. What the
  players claimed earlier in the game is not read (a simplification the page states);
- the turn's public moves are walked down the solved tree to the item's decision, where
  each option's exact win chance is read (`Solution.choices`, the learner's card as its
  private state), matched to the item's option labels;
- the same duel is solved once more with the two face-up cards swapped (a face-up card only
  leaves the court, so it is the same game solved on its own): a game can have several
  perfect ways to play, and a grade counts only what both solves say of a weaker option.

The values are precomputed for a bank (`python -m trainer endgame grade-bank`) into a small
file beside it, `<bank>.solved.json`, keyed by the bank's version and item ids; the bank file
itself is never changed (its content hash is the version the learners' answers cite). A file
that is missing, damaged or made for another version of the bank is reported and ignored:
the items are then graded by rollouts, as before.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from trainer import batch
from trainer.endgame import hidden, settled
from trainer.endgame.hidden_tables import EXCHANGES, FACE_UP_INERT, TARGET, compared_exchanges
from trainer.endgame.known import MAX_COINS
from trainer.endgame.public import Unsupported
from trainer.endgame.tables import court_leaf
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.i18n import N_, tr, tr_n
from trainer.quiz.bank import END_GAME, Bank, Item, bank_stem, new_game

FORMAT = 1
HORIZON = 4  # turns looked ahead from the start of the item's turn, as the End-game page
SUFFIX = ".solved.json"
# Rounding of the stored win chances: far below the solver's 0.1-point exploitability.
DIGITS = 6

SOLVED_BASIS = N_("Solved exactly: graded against perfect play from the start of this turn "
                "(every unseen card equally likely).")
ROLLOUT_BASIS = N_("Estimated by playing each option out many times against our bot players: "
                 "the win chances are estimates.")


class Unsolvable(ValueError):
    """Why an item cannot be graded by the solver; it stays graded by rollouts. The text
    before the first colon is the reason's kind, counted in the sidecar's summary."""


@dataclass(frozen=True)
class Solved:
    """An item's exact grade: the learner's win chance after each option (by its label)
    under perfect play from the start of the turn, with what says how far to trust it."""

    values: dict[str, float]
    horizon: int  # whole turns looked ahead; beyond, both cards are valued face up
    exploitability: float  # of the solved strategies, in win probability
    # by `trainer.endgame.settled`, against `shorter` turns ahead: the decision's value
    # moved at most a tenth of a point and its best option stayed best (an entry written
    # before `before` was kept cannot be checked, and counts as not settled)
    settled: bool
    moved: float  # the largest move of an option's value between the two, in win probability
    before: dict[str, float] = field(default_factory=dict)  # the values at `shorter`
    # the look-ahead `before` comes from when it is not `horizon - 2`: a position of the
    # stored table checked one turn deeper (`hidden_tables.CHECK`) is compared with that
    compared: int | None = None
    # the same options' values in a second, separate solve of the same duel at `horizon`
    # (the face-up cards swapped: `hidden_tables.FACE_UP_INERT`); empty where the two
    # face-up cards are the same card or the entry was written before it was kept
    other: dict[str, float] = field(default_factory=dict)
    # `before` allowed a line of play a second Exchange at the same look-ahead (`compared`
    # is then `horizon`): a stored position such a check moved (`hidden_tables.exchange_check`)
    exchanges: bool = False
    # the Exchanges a line may hold in `values`: 1, or k (3 or 4) for a stored position a
    # second Exchange moved that settled allowing more (`hidden_tables.more_exchanges`;
    # `before` then holds the figures with k - 1, and `exchanges` is true)
    exchanges_at: int = 1

    @property
    def allowed(self) -> tuple[int, int]:
        """The Exchanges a line may hold in `values` and in `before`, where the two differ
        in Exchanges (`exchanges`), not in turns."""
        return self.exchanges_at, compared_exchanges(self.exchanges_at)

    @property
    def shorter(self) -> int:
        """The other look-ahead the values were compared with (it may be the deeper one)."""
        return self.compared if self.compared is not None else max(1, self.horizon - 2)

    @property
    def best(self) -> str:
        """The best option's label (the first of equals, in the item's order)."""
        return max(self.values, key=lambda label: self.values[label])

    def lost_pp(self, label: str) -> float:
        """Points of win chance `label` loses against the best option."""
        if label not in self.values:
            raise KeyError(f"{label!r} is not an answer with a solved value; expected one of "
                           f"{', '.join(repr(x) for x in self.values)}")
        return max(0.0, 100 * (self.values[self.best] - self.values[label]))

    @property
    def trivial(self) -> bool:
        """Every option within a point of the best: left out of error rates, as for
        rollouts."""
        return 100 * (max(self.values.values()) - min(self.values.values())) <= 1.0

    def to_data(self) -> dict[str, Any]:
        return {"values": {k: round(v, DIGITS) for k, v in self.values.items()},
                "horizon": self.horizon,
                "exploitability": round(self.exploitability, DIGITS),
                "settled": self.settled, "moved": round(self.moved, DIGITS),
                "before": {k: round(v, DIGITS) for k, v in self.before.items()},
                **({} if self.compared is None else {"compared": self.compared}),
                **({"other": {k: round(v, DIGITS) for k, v in self.other.items()}}
                   if self.other else {}),
                **({"exchanges": True} if self.exchanges else {}),
                **({"exchanges_at": self.exchanges_at} if self.exchanges_at != 1 else {})}

    @classmethod
    def from_data(cls, data: object) -> Solved:
        """Checked field by field: a damaged entry is refused with what is wrong."""
        if not isinstance(data, dict):
            raise ValueError("expected an object with values, horizon, exploitability, "
                             "settled and moved")
        values = data.get("values")
        if not isinstance(values, dict) or not values:
            raise ValueError("values: expected an object of option label to win chance")
        for label, v in values.items():
            if (not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v)
                    or not 0.0 <= v <= 1.0):
                raise ValueError(f"values: {label!r} has {v!r}; expected a win chance "
                                 f"from 0 to 1")
        horizon = data.get("horizon")
        if not isinstance(horizon, int) or isinstance(horizon, bool) or horizon < 1:
            raise ValueError(f"horizon: expected a whole number of turns, got {horizon!r}")
        numbers = {}
        for key in ("exploitability", "moved"):
            x = data.get(key)
            if not isinstance(x, int | float) or isinstance(x, bool) or not math.isfinite(x):
                raise ValueError(f"{key}: expected a number, got {x!r}")
            numbers[key] = float(x)
        is_settled = data.get("settled")
        if not isinstance(is_settled, bool):
            raise ValueError(f"settled: expected true or false, got {is_settled!r}")
        before = data.get("before", {})
        if not isinstance(before, dict) or set(before) - set(values) or any(
                not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v)
                for v in before.values()):
            raise ValueError("before: expected an object of option label to win chance, "
                             "for the item's own options")
        exchanges = data.get("exchanges", False)
        if not isinstance(exchanges, bool):
            raise ValueError(f"exchanges: expected true or false, got {exchanges!r}")
        exchanges_at = data.get("exchanges_at", 1)
        if (not isinstance(exchanges_at, int) or isinstance(exchanges_at, bool)
                or exchanges_at < 1 or (exchanges_at > 1 and not exchanges)):
            raise ValueError(f"exchanges_at: expected the Exchanges a line may hold, a whole "
                             f"number from 1 (above 1 only with exchanges), got {exchanges_at!r}")
        compared = data.get("compared")
        if exchanges and compared != horizon:
            raise ValueError(f"compared: a check with a second Exchange is made at the horizon "
                             f"{horizon}, got {compared!r}")
        if not exchanges and compared is not None and (not isinstance(compared, int) or isinstance(
                compared, bool) or compared < 1 or compared == horizon):
            raise ValueError(f"compared: expected the other look-ahead, a whole number of "
                             f"turns other than the horizon {horizon}, got {compared!r}")
        other = data.get("other", {})
        if not isinstance(other, dict) or set(other) - set(values) or any(
                not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v)
                or not 0.0 <= v <= 1.0 for v in other.values()):
            raise ValueError("other: expected an object of option label to win chance in the "
                             "second solve, for the item's own options")
        return cls({str(k): float(v) for k, v in values.items()}, horizon,
                   numbers["exploitability"], is_settled and bool(before), numbers["moved"],
                   {str(k): float(v) for k, v in before.items()}, compared,
                   {str(k): float(v) for k, v in other.items()}, exchanges, exchanges_at)


# ------------------------------------------------------------------------ the turn's frame
@dataclass(frozen=True)
class Frame:
    """An item's turn as the solver sees it: the position at the start of the turn in the
    two-player frame, and the turn's moves up to the decision."""

    seats: tuple[int, int]  # the live players' seats at the table: frame player 0, 1
    revealed: tuple[Character, Character]
    out: tuple[Character, ...]  # the face-up cards of players already out
    coins: tuple[int, int]
    first: int  # frame player who acts
    cards: tuple[Character, Character]  # the face-down cards at the turn's start
    moves: tuple[Move, ...]  # this turn's moves so far, in frame numbering

    def frame_move(self, move: Move) -> Move:
        """A table move in the frame's numbering (players and target)."""
        index = {seat: k for k, seat in enumerate(self.seats)}
        if move.player not in index or (move.target is not None and move.target not in index):
            raise Unsolvable(f"a move cannot be mapped: {move} involves a player who is out")
        target = None if move.target is None else index[move.target]
        return move._replace(player=index[move.player], target=target)


def turn_frame(item: Item) -> Frame:
    """The frame of the item's turn; `Unsolvable` when the turn did not start as a 1-v-1
    with one face-down card each, or the item is not one the solver covers."""
    if END_GAME not in item.themes:
        raise Unsolvable("not an End-game item")
    if item.variant != "base":
        raise Unsolvable("not the base game: the solver's tables are the base game's")
    if item.seed is None or item.scenario is not None:
        raise Unsolvable("a lesson position: its moves from the deal are not in the item")
    game = new_game(item.players, item.seed, item.variant)
    start = 0
    for k, m in enumerate(item.moves):
        if game.phase is Phase.ACTION:
            start = k
        game.apply(m)
    if game.phase is Phase.ACTION:
        start = len(item.moves)
    # the position at the start of the turn
    game = new_game(item.players, item.seed, item.variant)
    for m in item.moves[:start]:
        game.apply(m)
    live = [p for p in range(game.n) if game.hidden[p]]
    if len(live) != 2:
        raise Unsolvable(f"not a duel at the start of the turn: {len(live)} players were "
                         f"still in")
    if any(len(game.hidden[p]) != 1 or len(game.revealed[p]) != 1 for p in live):
        raise Unsolvable("not one card each at the start of the turn: a player still held "
                         "two")
    if any(game.coins[p] > MAX_COINS for p in live):
        raise Unsolvable(f"coins beyond the tables: more than {MAX_COINS}")
    seats = (live[0], live[1])
    out = tuple(sorted(c for p in range(game.n) if p not in live for c in game.revealed[p]))
    frame = Frame(seats, (game.revealed[seats[0]][0], game.revealed[seats[1]][0]), out,
                  (game.coins[seats[0]], game.coins[seats[1]]), seats.index(game.actor),
                  (game.hidden[seats[0]][0], game.hidden[seats[1]][0]), ())
    moves = tuple(frame.frame_move(m) for m in item.moves[start:])
    return Frame(frame.seats, frame.revealed, frame.out, frame.coins, frame.first,
                 frame.cards, moves)


# ------------------------------------------------------------------------ solving
def _walk(solution: hidden.Solution, frame: Frame) -> int:
    """The tree node the turn's moves lead to from the root."""
    tree = solution.tree
    node = 0
    for move in frame.moves:
        if tree.kind[node] != hidden.DECISION or move not in tree.moves[node]:
            raise Unsolvable(f"a move cannot be mapped: {move} is not a move of the solved "
                             f"turn there")
        node = tree.children[node][tree.moves[node].index(move)]
    return node


def _kept(game: Game, move: Move) -> Character:
    trial = game.clone()
    trial.apply(move)
    return trial.hidden[game.decider][0]


def item_values(item: Item, solution: hidden.Solution, frame: Frame,
                game: Game | None = None) -> dict[str, float]:
    """Each option's exact win chance for the learner, by label, read at the item's node of
    `solution` (solved from the start of the item's turn)."""
    game = game or item.game()
    tree = solution.tree
    chars = solution.graph.characters
    node = _walk(solution, frame)
    learner = frame.seats.index(item.viewer) if item.viewer in frame.seats else -1
    if tree.kind[node] == hidden.UTILITY or tree.decider[node] != learner:
        raise Unsolvable("a move cannot be mapped: the solved turn does not reach the "
                         "learner's decision")
    state = chars.index(frame.cards[learner])
    values: dict[str, float] = {}
    if tree.kind[node] == hidden.EXCHANGE:
        pool = list(game.exchange_pool())
        pool.remove(frame.cards[learner])
        drawn = tuple(sorted(chars.index(c) for c in pool))
        by_card = {c.kept: c.value for c in solution.choices(node, state, drawn)}
        for o in item.options:
            kept = _kept(game, o.move)
            if kept not in by_card:
                raise Unsolvable(f"a move cannot be mapped: keeping the {kept} is not an "
                                 f"option of the solved Exchange")
            values[o.label] = by_card[kept]
    else:
        choices = solution.choices(node, state)
        for o in item.options:
            move = frame.frame_move(o.move)
            if move not in tree.moves[node]:
                raise Unsolvable(f"a move cannot be mapped: the option {o.label!r} is not a "
                                 f"move of the solved position")
            values[o.label] = choices[tree.moves[node].index(move)].value
    if any(not math.isfinite(v) for v in values.values()):
        raise Unsolvable("perfect play never reaches this decision: the solution says "
                         "nothing of the cards behind the moves that led here")
    return values


def solve_item(item: Item, horizon: int = HORIZON,
               solver: Callable[..., hidden.Solution] = hidden.solve) -> Solved:
    """The item's exact grade: solved from the start of its turn `horizon` turns ahead, and
    `horizon - 2` (at least 1) to say whether the values have settled (where they have,
    once more at `horizon` allowing a line a second Exchange, which may unsettle them), and
    once more at
    `horizon` with the two face-up cards swapped, the same duel solved on its own (a face-up
    card only leaves the court), whose values may grade a weaker option otherwise
    (`verdicts.Solves`). `Unsolvable` when it cannot be (the reason says why)."""
    if horizon < 1:
        raise ValueError(f"horizon: expected at least 1 turn, got {horizon}")
    frame = turn_frame(item)
    game = item.game()
    shallow = max(1, horizon - 2)
    found: dict[int, tuple[dict[str, float], float]] = {}
    for h in dict.fromkeys((horizon, shallow)):
        s = solver(frame.revealed, frame.coins, frame.first, horizon=h, variant=item.variant,
                   out=frame.out, target=TARGET)
        found[h] = (item_values(item, s, frame, game), s.exploitability)
    values, exploitability = found[horizon]
    other: dict[str, float] = {}
    if frame.revealed[0] != frame.revealed[1] and item.variant in FACE_UP_INERT:
        # the horizon's values are the same game's too: with cards out, those already
        # worked out for the first solve (a court's values take seconds to work out)
        leaf = court_leaf(frame.revealed, frame.out, item.variant) if frame.out else None
        twin = solver((frame.revealed[1], frame.revealed[0]), frame.coins, frame.first,
                      horizon=horizon, variant=item.variant, out=frame.out, target=TARGET,
                      leaf=leaf)
        other = item_values(item, twin, frame, game)
    before = found[shallow][0]
    moved = max(abs(values[k] - before[k]) for k in values)
    labels = list(values)
    check = settled.compare(max(before.values()), max(values.values()),
                            np.array([[before[k] for k in labels]]),
                            np.array([[values[k] for k in labels]]))
    if check.settled and shallow < horizon:
        # both look-aheads stop a line at the turn after its first Exchange: a second one
        # may still move what they agree on (`hidden_tables.exchange_check`)
        s2 = solver(frame.revealed, frame.coins, frame.first, horizon=horizon,
                    variant=item.variant, out=frame.out, target=TARGET, exchanges=EXCHANGES)
        two = item_values(item, s2, frame, game)
        if not settled.compare(max(values.values()), max(two.values()),
                               np.array([[values[k] for k in labels]]),
                               np.array([[two[k] for k in labels]])).settled:
            return Solved(values, horizon, exploitability, False,
                          max(abs(values[k] - two[k]) for k in values), two, horizon,
                          other=other, exchanges=True)
    return Solved(values, horizon, exploitability, check.settled and shallow < horizon, moved,
                  before, other=other)


def solve_job(job: tuple[Item, int]) -> dict[str, Any] | str:
    """One item of a bank's grading (module-level, so Ray can send it): its solved entry as
    data, or why it cannot be solved."""
    item, horizon = job
    try:
        return solve_item(item, horizon).to_data()
    except (Unsolvable, Unsupported) as e:
        return str(e)


# ------------------------------------------------------------------------ the sidecar file
def solved_path(bank_path: Path) -> Path:
    """The file of exact grades beside a bank: `default.jsonl.gz` → `default.solved.json`."""
    return bank_path.with_name(bank_stem(bank_path) + SUFFIX)


@dataclass(frozen=True)
class SolvedGrades:
    """A bank's exact grades as read: `entries` by item id, and `problem`, a sentence for
    the page when the file is missing, damaged or made for another version of the bank (its
    items are then graded by rollouts)."""

    bank: str
    entries: dict[str, Solved] = field(default_factory=dict)
    problem: str | None = None
    horizon: int | None = None
    skipped: dict[str, int] = field(default_factory=dict)

    def entry(self, item: Item) -> Solved | None:
        """The item's exact grade, if it has one that settled: an unsettled one is not a
        truth to grade by, so the item stays graded by its playouts (`unsettled` says so)."""
        found = self.entries.get(item.id)
        return found if found is not None and found.settled else None

    def unsettled(self, item: Item) -> Solved | None:
        """The item's exact grade when it did not settle (graded by playouts instead)."""
        found = self.entries.get(item.id)
        return found if found is not None and not found.settled else None

    @property
    def settled_count(self) -> int:
        return sum(s.settled for s in self.entries.values())

    def __len__(self) -> int:
        return len(self.entries)


def _fallback(path: Path, why: str) -> str:
    """The sentence for a file of exact grades that cannot be used (in the reader's language:
    the page's cache of the grades keys on it)."""
    return tr("Exact end-game grades: {file} {why}; End-game items are graded by rollouts. "
              "`python -m trainer endgame grade-bank --bank <the bank file>` writes them.",
              file=path.name, why=why)


def load_solved(path: Path, bank: Bank) -> SolvedGrades:
    """The exact grades of `bank` in `path`; never raises. An entry whose item is not in the
    bank or whose option labels are not the item's is left out, and said so."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return SolvedGrades(bank.version, problem=_fallback(path, tr("was not found")))
    except (OSError, UnicodeDecodeError) as e:
        return SolvedGrades(bank.version, problem=_fallback(path, tr("cannot be read ({error})",
                                                                       error=e)))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return SolvedGrades(bank.version, problem=_fallback(
            path, tr("is not valid JSON (line {line}: {error})", line=e.lineno, error=e.msg)))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return SolvedGrades(bank.version, problem=_fallback(
            path, tr("is not a file of exact grades (expected \"format\": {format})",
                     format=FORMAT)))
    if data.get("bank") != bank.version:
        return SolvedGrades(bank.version, problem=_fallback(
            path, tr("was made for bank {made_for}, not {bank} (the bank has changed since)",
                     made_for=repr(data.get("bank")), bank=repr(bank.version))))
    items = data.get("items")
    if not isinstance(items, dict):
        return SolvedGrades(bank.version, problem=_fallback(
            path, tr("has no \"items\" object of item id to grade")))
    entries: dict[str, Solved] = {}
    bad: list[str] = []
    for item_id, raw in items.items():
        item = bank.get(str(item_id))
        if item is None:
            bad.append(tr("{item}: no such item in the bank", item=item_id))
            continue
        try:
            solved = Solved.from_data(raw)
        except ValueError as e:
            bad.append(f"{item_id}: {e}")
            continue
        if set(solved.values) != {o.label for o in item.options}:
            bad.append(tr("{item}: its options are not the item's ({options})", item=item_id,
                          options=", ".join(sorted(solved.values))))
            continue
        entries[item.id] = solved
    problem = None
    if bad:
        problem = tr_n("Exact end-game grades: {n} entry of {file} could not be used, so that "
                       "item is graded by rollouts (first: {first}).",
                       "Exact end-game grades: {n} entries of {file} could not be used, so "
                       "those items are graded by rollouts (first: {first}).", len(bad),
                       file=path.name, first=bad[0])
    horizon = data.get("horizon")
    skipped = data.get("skipped")
    return SolvedGrades(bank.version, entries, problem,
                        horizon if isinstance(horizon, int) else None,
                        {str(k): int(v) for k, v in skipped.items() if isinstance(v, int)}
                        if isinstance(skipped, dict) else {})


def _write(path: Path, data: dict[str, Any]) -> None:
    """Under a temporary name, then renamed: an interrupt never leaves half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def reason_kind(reason: str) -> str:
    """The kind of an `Unsolvable` reason: its text before the first colon."""
    return reason.split(":", 1)[0]


@dataclass(frozen=True)
class Graded:
    """What `grade_bank` did."""

    path: Path
    solved: int
    candidates: int  # the End-game items whose turn started as a 1-v-1 with one card each
    end_game: int  # the bank's End-game items
    resumed: int  # entries kept from an earlier run
    seconds: float
    skipped: dict[str, int]


def candidates(bank: Bank) -> tuple[list[Item], Counter[str]]:
    """The End-game items whose turn can be framed for the solver, and why the others
    cannot (by kind of reason)."""
    found: list[Item] = []
    skipped: Counter[str] = Counter()
    for item in bank.items:
        if END_GAME not in item.themes:
            continue
        try:
            turn_frame(item)
        except Unsolvable as e:
            skipped[reason_kind(str(e))] += 1
            continue
        found.append(item)
    return found, skipped


def grade_bank(bank: Bank, path: Path, *, horizon: int = HORIZON, executor: str = "auto",
               processes: int = 1, address: str | None = None, resume: bool = True,
               only: Iterable[str] | None = None,
               progress: Callable[[int, int], None] | None = None) -> Graded:
    """Solve every End-game item of `bank` that can be, one job per item through
    `trainer.batch`, and write the exact grades to `path`. Entries already in `path` for
    this bank version and horizon are kept (`resume`), so an interrupted run goes on where
    it stopped: the file is written after every item. `only` narrows the items (for tests).
    `progress(done, total)` is called first with the items found finished, then after
    each."""
    start = time.perf_counter()
    wanted, skipped = candidates(bank)
    if only is not None:
        keep = set(only)
        wanted = [i for i in wanted if i.id in keep]
    end_game = sum(1 for i in bank.items if END_GAME in i.themes)
    done: dict[str, dict[str, Any]] = {}
    failed: dict[str, str] = {}
    if resume and path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = None
        if (isinstance(old, dict) and old.get("bank") == bank.version
                and old.get("horizon") == horizon and old.get("format") == FORMAT):
            ids = {i.id for i in wanted}
            items, unsolved = old.get("items"), old.get("unsolved")
            for k, v in (items.items() if isinstance(items, dict) else ()):
                try:
                    Solved.from_data(v)
                except ValueError:
                    continue  # a damaged entry is solved again
                if k in ids:
                    done[k] = v
            for k, v in (unsolved.items() if isinstance(unsolved, dict) else ()):
                if k in ids:
                    failed[k] = str(v)
    resumed = len(done) + len(failed)
    if progress:
        progress(resumed, len(wanted))

    def save() -> None:
        kinds = Counter(skipped)
        kinds.update(reason_kind(r) for r in failed.values())
        order = {i.id: n for n, i in enumerate(bank.items)}
        _write(path, {
            "format": FORMAT, "bank": bank.version, "horizon": horizon,
            "deal": "a shuffled court: every unseen card equally likely; earlier claims "
                    "are not read",
            "items": {k: done[k] for k in sorted(done, key=order.__getitem__)},
            "unsolved": {k: failed[k] for k in sorted(failed, key=order.__getitem__)},
            "skipped": dict(sorted(kinds.items())),
        })

    jobs = [(i.id, (i, horizon)) for i in wanted if i.id not in done and i.id not in failed]
    path.parent.mkdir(parents=True, exist_ok=True)
    for item_id, result in batch.run(solve_job, jobs, executor=executor,
                                     processes=processes, address=address):
        if isinstance(result, str):
            failed[item_id] = result
        else:
            done[item_id] = result
        save()
        if progress:
            progress(len(done) + len(failed), len(wanted))
    save()
    kinds = Counter(skipped)
    kinds.update(reason_kind(r) for r in failed.values())
    return Graded(path, len(done), len(wanted), end_game, resumed,
                  time.perf_counter() - start, dict(kinds))


# ------------------------------------------------------------------------ rollouts vs solved
@dataclass(frozen=True)
class Agreement:
    """How the rollouts' grades compare with the solved ones over a bank's solved items."""

    items: int
    same_best: int  # the rollouts' best option is the solver's best
    near_best: int  # the rollouts' best option is within a point of the solver's best
    options: int
    same_grade: int  # options graded alike by both
    mean_gap_pp: float  # mean |rollout − solved| win chance of an option, in points
    median_gap_pp: float
    best_lost_pp: float  # mean points the rollouts' best option loses against perfect play


def agreement(bank: Bank, grades: SolvedGrades) -> Agreement:
    """The rollouts against the solver on every solved item of `bank`: the figure the
    End-game docs quote, from the file the quiz reads."""
    from statistics import mean, median

    from trainer.learners.answers import grade_for

    items = [(i, grades.entries[i.id]) for i in bank.items if i.id in grades.entries]
    if not items:
        return Agreement(0, 0, 0, 0, 0, 0.0, 0.0, 0.0)
    gaps = [100 * abs(o.win - s.values[o.label]) for i, s in items for o in i.options]
    return Agreement(
        len(items), sum(i.best.label == s.best for i, s in items),
        sum(s.lost_pp(i.best.label) <= 1.0 for i, s in items), len(gaps),
        sum(grade_for(i.lost_pp(o.label)) == grade_for(s.lost_pp(o.label))
            for i, s in items for o in i.options),
        mean(gaps), median(gaps), mean(s.lost_pp(i.best.label) for i, s in items))
