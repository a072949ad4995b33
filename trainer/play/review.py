"""The review of a played game: every decision of the learner's valued, graded and summed up.

Grading follows the quiz: the win-% lost against the best option, with the quiz's thresholds
(best ≤ 1, good ≤ 5, inaccuracy ≤ 10, mistake ≤ 15, blunder > 15 points). Two guards keep a
grade honest:
- a decision where every option is within a point of the best (or there was one legal move)
  is *trivial* and left out, as GNU Backgammon leaves out forced and obvious moves;
- a loss no larger than twice its noise (the paired standard error of the rollouts, or the
  solver's exploitability) cannot be told from the best: it counts as Good (Best within a
  point), never as a mistake the estimate cannot prove.

Accuracy is Lichess's formula per decision, on the win-% lost as graded:
    accuracy = 103.1668 · e^(−0.04354 · lost) − 3.1669, clamped to 0–100,
so a best move scores 100 and a 15-point loss about 50.5; the game's accuracy is the plain
mean over the graded decisions.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from trainer.endgame.claims import claimed
from trainer.endgame.tables import CourtKey, add_courts, solved_courts
from trainer.engine.game import Game
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import parse_rules
from trainer.estimates.posterior import Belief, mixture
from trainer.estimates.report import DEFAULT_MODEL
from trainer.i18n import N_
from trainer.play.assess import ROLLOUTS, Valued, kind_of, label_of, value
from trainer.play.record import GameRecord, fresh_game
from trainer.quiz.feedback import item_valuation
from trainer.verdicts import (
    ANSWER_KINDS,
    GRADES,
    NOISE_FACTOR,
    Answer,
    Grade,
    Valuation,
    Verdict,
    judge,
    now,
    record,
)

BANK = "played games"
MODE = "play"
# The grades worth a second look, and the swing of the win chance that makes a key moment.
MISTAKES: tuple[Grade, ...] = ("mistake", "blunder")
SWING_PP = 15.0

Progress = Callable[[int, int], object]  # (done, total)

Courts = dict[CourtKey, np.ndarray]  # court values by their key (`trainer.endgame.tables`)


def accuracy(lost_pp: float) -> float:
    """Lichess's accuracy of one decision from its win-% lost (0–100)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * lost_pp) - 3.1669))


def rollout_seed(record: GameRecord, index: int) -> int:
    """Each decision's rollouts have their own fixed stream, so a review is reproducible."""
    return (record.seed * 1_000_003 + index) % 2**31


@dataclass(frozen=True)
class Step:
    """One decision of the learner's in the review."""

    index: int  # the move's index in the record
    number: int  # the learner's decision number, from 1
    turn: int
    kind: str
    valued: Valued
    chosen: str
    stated: float | None
    coached: bool
    lost_pp: float
    noise_pp: float
    grade: Grade | None  # None: trivial, left out
    within_noise: bool
    call_out: str | None = None
    verdict: Verdict | None = None  # the verdict layer's, with its words

    @property
    def win_before(self) -> float:
        """The learner's win chance with the best option: what the position was worth."""
        return self.valued.win(self.valued.best)

    @property
    def win_after(self) -> float:
        return self.valued.win(self.chosen)

    @property
    def accuracy(self) -> float | None:
        if self.grade is None:
            return None
        return accuracy(0.0 if self.within_noise else self.lost_pp)

    @property
    def solved(self) -> bool:
        return self.valued.solved is not None

    @property
    def key(self) -> bool:
        return self.grade in MISTAKES


@dataclass(frozen=True)
class Review:
    record: GameRecord
    steps: tuple[Step, ...]
    forced: int = 0  # learner moves with one legal option, not valued
    swings: tuple[int, ...] = field(default=())  # steps after which the bots' moves and the
    # cards moved the learner's win chance by SWING_PP or more (by step number)

    def graded(self) -> list[Step]:
        return [s for s in self.steps if s.grade is not None]

    def counts(self) -> dict[Grade, int]:
        c = Counter(s.grade for s in self.graded())
        return {g: c[g] for g in GRADES}

    @property
    def accuracy(self) -> float | None:
        values = [s.accuracy for s in self.graded() if s.accuracy is not None]
        return sum(values) / len(values) if values else None

    @property
    def coached(self) -> int:
        return sum(1 for s in self.steps if s.coached)

    def mistakes(self) -> list[Step]:
        return [s for s in self.steps if s.key]


def positions(record: GameRecord, upto: int | None = None
              ) -> Iterator[tuple[int, Game, Belief, Move | None]]:
    """(index, game before the move, the learner's belief then, the move) for every move of
    the learner's among the first `upto`, in order, and last the learner's pending decision
    (its move None) when the record stops there; the belief is fed only what the learner
    saw."""
    game = fresh_game(record.setup())
    seat = record.learner_seat
    belief = Belief(seat, mixture(DEFAULT_MODEL), parse_rules(record.variant).variant.cards)
    moves = record.parsed()
    for k, move in enumerate(moves[:upto]):
        if move.player == seat:
            yield k, game, belief, move
        belief.observe(game.observation(seat), move)
        game.apply(move)
    if (upto is None or upto > len(moves)) and not game.is_over and game.decider == seat \
            and not record.resigned:
        yield len(moves), game, belief, None


def decision_indices(record: GameRecord) -> list[int]:
    """The indices of the learner's moves that were real choices (valued by the review)."""
    game = fresh_game(record.setup())
    out = []
    for k, move in enumerate(record.parsed()):
        if move.player == record.learner_seat and kind_of(game) is not None:
            out.append(k)
        game.apply(move)
    return out


def value_at(record: GameRecord, index: int, game: Game, belief: Belief, kind: str,
             rollouts: int = ROLLOUTS, fixed: bool = False) -> Valued:
    """The learner's decision before move `index`, valued (the same call the coach makes);
    `fixed`: exactly `rollouts` playouts per option (the benchmark's references)."""
    return value(game, belief, record.learner_seat, kind=kind, rollouts=rollouts, fixed=fixed,
                 seed=rollout_seed(record, index), game_seed=record.seed,
                 prefix=tuple(record.parsed()[:index]), meta=meta(record, index),
                 played=record.parsed()[index] if index < len(record.moves) else None)


def meta(record: GameRecord, index: int) -> dict[str, object]:
    return {"game": record.game_id, "index": index, "names": record.names}


def value_job(job: tuple[GameRecord, int, int] | tuple[GameRecord, int, int, bool]
              ) -> Valued | None:
    """One decision of a review (module-level, so a batch can send it): rebuilt from the
    record alone; (record, index, cap of playouts per option[, fixed count])."""
    record, index, rollouts = job[:3]
    fixed = bool(job[3]) if len(job) > 3 else False
    for k, game, belief, _ in positions(record, index + 1):
        if k == index:
            kind = kind_of(game)
            return None if kind is None else value_at(record, index, game, belief, kind,
                                                      rollouts, fixed)
    return None


def value_jobs(job: tuple[GameRecord, list[int], int] | tuple[GameRecord, list[int], int, bool]
               ) -> list[Valued | None]:
    """Several decisions of a review in one job, in the order given, the game replayed once:
    what `value_job` gives for each. Why: the duel at the end of a game is solved exactly
    (`trainer.play.assess`), and its first solve in a process works out the values of the
    cards left in the court (seconds); the duel's decisions sent together pay that once."""
    record, indices, rollouts = job[:3]
    fixed = bool(job[3]) if len(job) > 3 else False
    wanted = set(indices)
    found: dict[int, Valued | None] = {}
    if wanted:
        for k, game, belief, _ in positions(record, max(wanted) + 1):
            if k in wanted:
                kind = kind_of(game)
                found[k] = None if kind is None else value_at(record, k, game, belief, kind,
                                                              rollouts, fixed)
    return [found.get(k) for k in indices]


def value_jobs_with_courts(job: tuple[GameRecord, list[int], int, bool, Courts]
                           ) -> tuple[list[Valued | None], Courts]:
    """`value_jobs`, starting from the court values `job[4]` solved in another process, and
    handing back every court value this process holds. Why: each decision of the duel at the
    end of a game is solved with the values of the cards left in the court, which take
    seconds to work out; the first duel decision's job works them out, and the others, sent
    to whichever workers are free, start from them (`trainer.play.worker.Valuer`)."""
    record, indices, rollouts, fixed, courts = job
    add_courts(courts)
    return value_jobs((record, indices, rollouts, fixed)), solved_courts()


def duel_indices(record: GameRecord, indices: list[int]) -> list[int]:
    """Those of `indices` (the learner's decisions) taken when only two players were left in
    a base game: the ones solved exactly, which cost the most to value."""
    if parse_rules(record.variant).text != "base":
        return []
    wanted = set(indices)
    game = fresh_game(record.setup())
    out = []
    for k, move in enumerate(record.parsed()):
        if k in wanted and sum(1 for h in game.hidden if h) == 2:
            out.append(k)
        game.apply(move)
    return out


def review(record: GameRecord, cache: Mapping[int, Valued] | None = None, *,
           rollouts: int = ROLLOUTS, progress: Progress | None = None,
           done: Callable[[int, Valued], object] | None = None) -> Review:
    """Value and grade every decision of the learner's in `record`. A decision already in
    `cache` with at least `rollouts` is not valued again; each new one is handed to `done`
    (to be saved) as soon as it is ready, so an interrupted review resumes where it stopped."""
    cache = cache or {}
    moves = record.parsed()
    todo = [k for k, m in enumerate(moves) if m.player == record.learner_seat]
    steps: list[Step] = []
    forced = 0
    for count, (k, game, belief, move) in enumerate(positions(record), start=1):
        if move is None:  # the decision pending when the record stops: not made, not graded
            break
        kind = kind_of(game)
        if kind is None:
            forced += 1
        else:
            valued = cache.get(k)
            if valued is None or valued.rollouts < rollouts or not covers(game, valued, move):
                valued = value_at(record, k, game, belief, kind, rollouts)
                if done is not None:
                    done(k, valued)
            steps.append(step(record, k, len(steps) + 1, game, kind, valued, move))
        if progress is not None:
            progress(count, len(todo))
    return Review(record, tuple(steps), forced, swings(steps))


def covers(game: Game, valued: Valued, move: Move) -> bool:
    """Whether the move played is one of the options valued (the coach values the usual
    options before the move; a steal from an unusual target needs its own valuing)."""
    try:
        label_of(game, valued.item, move)
    except KeyError:
        return False
    return True


def step(record: GameRecord, index: int, number: int, game: Game, kind: str, valued: Valued,
         move: Move) -> Step:
    """One decision graded (see the module's docstring for the rules)."""
    chosen = label_of(game, valued.item, move)
    v = judge(valuation(valued, game), chosen)
    within = v.lost_pp <= NOISE_FACTOR * v.noise_pp
    grade: Grade | None = None if v.trivial else v.grade
    return Step(index, number, game.turn, kind, valued, chosen, record.stated.get(index),
                index in record.coached, v.lost_pp, v.noise_pp, grade, within,
                call_out(record, index, game, move, valued, grade), v)


def valuation(valued: Valued, game: Game) -> Valuation:
    """The decision's values as the verdict layer reads them: exact when the duel is solved,
    else the playouts, with the doubt about the claimant's bluffing."""
    item = valued.item
    who = game.names[item.claimant] if item.claimant is not None else "the claimant"
    return item_valuation(item, valued.solved, who)


def call_out(record: GameRecord, index: int, game: Game, move: Move, valued: Valued,
             grade: Grade | None) -> str | None:
    """"Good decision, bad outcome" where the cards fell the other way: a sound challenge
    of an honest claim, a sound pass of a bluff, a sound bluff that was caught."""
    if grade not in ("best", "good"):
        return None
    item = valued.item
    if move.kind is MoveKind.CHALLENGE and item.has_claim and not item.bluff:
        return CHALLENGED_TRUTH
    if move.kind is MoveKind.PASS and valued.item.kind == "challenge" and item.has_claim \
            and item.bluff:
        return PASSED_BLUFF
    if move.kind is MoveKind.ACT and is_bluff(game, move) and caught(record, index):
        return BLUFF_CAUGHT
    return None


# The call-outs, kept in English in a review (a review is kept per tab across language
# switches): shown with `tr(step.call_out)`.
CHALLENGED_TRUTH = N_("Good decision, bad outcome: on what you could see the challenge was "
                      "right; the card was there this time.")
PASSED_BLUFF = N_("Good decision, bad outcome: passing was right on what you could see; it "
                  "was a bluff this time.")
BLUFF_CAUGHT = N_("Good decision, bad outcome: the bluff was worth trying; this time someone "
                  "challenged it.")


def is_bluff(game: Game, move: Move) -> bool:
    """A claim (an action's character, a block, a claim out of turn) the player could not
    back up with a card in hand."""
    if move.kind is MoveKind.ACT:
        if not any(s.action is move.action for s in game.variant.actions):
            return False  # McGuire's Vengeance: no action of the table, no claim
        claim = claimed(move, game.variant.name)
    elif move.kind in (MoveKind.BLOCK, MoveKind.CLAIM):
        claim = move.character
    else:
        return False
    return claim is not None and claim.role not in {c.role for c in game.hidden[move.player]}


def caught(record: GameRecord, index: int) -> bool:
    """Whether the learner's action at `index` was challenged (a bluff then loses)."""
    for m in record.parsed()[index + 1:]:
        if m.kind is MoveKind.CHALLENGE:
            return True
        if m.kind in (MoveKind.BLOCK, MoveKind.ACT):  # a block answers it; a new turn began
            return False
    return False


def swings(steps: list[Step]) -> tuple[int, ...]:
    """The decisions after which the win chance moved by `SWING_PP` or more before the
    learner's next decision: the bots' moves and the cards, not the learner's choice."""
    out = []
    for a, b in zip(steps, steps[1:], strict=False):
        if abs(100 * (b.win_before - a.win_after)) >= SWING_PP:
            out.append(a.number)
    return tuple(out)


def answers(rev: Review, learner: str) -> list[Answer]:
    """The review's decisions as the Calibration page reads answers: one per graded decision
    of a kind the quiz asks (with the stated chance where the learner gave one); saving them
    twice is a no-op (the id is the game's and the move's)."""
    out = []
    for s in rev.steps:
        if s.grade is None or s.kind not in ANSWER_KINDS or s.verdict is None:
            continue
        item = s.valued.item
        out.append(record(
            s.verdict, answer_id=f"play-{rev.record.game_id}-{s.index}", learner=learner,
            item_id=f"{rev.record.game_id}:{s.index}", bank=BANK, mode=MODE, kind=s.kind,
            themes=item.themes, variant=item.variant,
            answered_at=rev.record.finished_at or now(),
            stated=s.stated if item.has_claim else None, bot=item.bot, prior=item.prior,
            bluff=item.bluff))
    return out
