"""Valuing one decision of the learner's: the coach's advice during the game and the review's
grade after it come from the same function, so a decision the coach valued is never valued
twice.

How a decision is valued:
- every option the learner had (one target per action, the natural one, plus the move they
  actually made) is played out from worlds drawn from the learner's belief about the hidden
  cards (`trainer.estimates.rollouts.values`, through the quiz's `evaluate`, as the quiz's
  bank items are), in doubling batches until each option's grade is clear or the cap is
  reached, giving each option's win chance and its noise;
- a claim on the table (a challenge window, or the action a block would answer) gets the
  bot's chance of a bluff, the chance from counting cards alone and the explanation;
- a duel of one face-down card each in the base game is solved exactly instead
  (`trainer.quiz.solved`): perfect play from the start of the turn, every unseen card equally
  likely.

The result is a quiz `Item` (source "played game"), so a mistake can be asked again as a quiz
question with the quiz's own grading and feedback.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from trainer.endgame.hidden_tables import stored_solution
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.estimates.claims import pending_claim
from trainer.estimates.posterior import Belief
from trainer.quiz.bank import END_GAME, Item
from trainer.quiz.building import PLAYOUTS, decision_kind, evaluate, option_label, options_for
from trainer.quiz.solved import Solved, Unsolvable, solve_item

SOURCE = "played game"
# At most this many playouts per option, for the coach and the review alike (so a decision the
# coach valued is never valued again): the quiz's own sequential rule (`trainer.quiz.building`),
# stopping as soon as every option's grade is clear, but with a quarter of the quiz's cap. Why:
# the quiz's items are valued ahead of time, while a person waits for the coach; at the quiz's
# cap (1,024) a close five-option decision costs about five times the old fixed 200 playouts
# (some 20 CPU seconds), at 256 at most 1.3 times, and clear decisions stop at 64 or 128.
# bench/play.py measures what each cap does to the grades. $COUP_TRAINER_PLAY_ROLLOUTS sets
# another cap (a slow machine, tests).
ROLLOUTS = PLAYOUTS // 4
ROLLOUTS_ENV = "COUP_TRAINER_PLAY_ROLLOUTS"
_PROVE = (Phase.PROVE_ACTION, Phase.PROVE_BLOCK, Phase.PROVE_CLAIM)


def rollouts() -> int:
    """The cap of playouts per option the page values decisions with."""
    raw = os.environ.get(ROLLOUTS_ENV, "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else ROLLOUTS


@dataclass(frozen=True)
class Valued:
    """A decision valued: the item (options, claim, estimates) and, for a solved duel, the
    exact values that grade it instead of the rollouts."""

    item: Item
    solved: Solved | None = None  # a settled exact grade only
    unsettled: Solved | None = None  # an exact grade that did not settle: rollouts grade

    @classmethod
    def of(cls, item: Item, exact: Solved | None) -> Valued:
        """An exact grade counts only when it settled (`trainer.endgame.settled`); one that
        did not is kept beside the rollouts that grade instead, to say why."""
        if exact is None or exact.settled:
            return cls(item, exact)
        return cls(item, None, exact)

    @property
    def exact(self) -> Solved | None:
        return self.solved or self.unsettled

    @property
    def rollouts(self) -> int:
        """The cap of playouts per option it was valued with (each option's own count is
        its `n`)."""
        return self.item.rollouts

    def win(self, label: str) -> float:
        """The learner's win chance after `label`: exact when solved."""
        if self.solved is not None:
            return self.solved.values[label]
        return self.item.option(label).win

    @property
    def best(self) -> str:
        return self.solved.best if self.solved is not None else self.item.best.label

    def lost_pp(self, label: str) -> float:
        if self.solved is not None:
            return self.solved.lost_pp(label)
        return self.item.lost_pp(label)

    def noise_pp(self, label: str) -> float:
        """The noise of `label`'s win-% lost, in points: the rollouts' paired standard error,
        or the solver's exploitability."""
        if self.solved is not None:
            return 100 * self.solved.exploitability
        return 100 * self.item.option(label).diff_se

    @property
    def trivial(self) -> bool:
        return self.solved.trivial if self.solved is not None else self.item.trivial


def kind_of(game: Game) -> str | None:
    """What kind of decision the pending one is, or None when there is nothing to choose
    (one legal move, or every move the same choice)."""
    legal = game.legal_moves()
    if len(legal) < 2:
        return None
    kind = decision_kind(game)
    if kind is not None:
        return kind
    d = game.pending
    assert d is not None
    if d.phase is Phase.ACTION:
        return "action"
    if d.phase in _PROVE:
        return "prove"
    if d.phase is Phase.LOSE or d.phase is Phase.EXCHANGE:
        return None  # every option the same card (decision_kind said so)
    return "other"


def judged_claim(game: Game) -> tuple[int, Character] | None:
    """The claim the pending decision lets the learner judge: the one a challenge window is
    about, or, at a block decision, the action's own claim (a Captain's steal)."""
    claimant, role = pending_claim(game)
    if claimant is not None and role is not None:
        return claimant, role
    d = game.pending
    if d is not None and d.phase is Phase.BLOCK and d.action is not None:
        spec = game.variant.spec(d.action)
        if spec.claim is not None and not spec.inverted and d.actor is not None:
            return d.actor, spec.claim.role
    return None


def options(game: Game, kind: str, played: Move | None = None) -> list[Move]:
    """The options valued: the quiz's for its kinds (one target per action), every legal
    move otherwise, and the move played whatever it was."""
    if kind in ("action", "bluff"):
        moves = options_for(game, "bluff")
    elif kind in ("lose", "keep"):
        moves = options_for(game, kind)
    else:
        moves = list(game.legal_moves())
    if played is not None and played not in moves:
        # An exchange keeps a set of cards: the same set in another order is the same option.
        same = [m for m in moves if m.kind is MoveKind.KEEP and played.kind is MoveKind.KEEP
                and sorted(m.cards or ()) == sorted(played.cards or ())]
        if not same:
            moves.append(played)
    return moves


def label_of(game: Game, item: Item, move: Move) -> str:
    """The option label `move` is valued under (a kept set in any order is the same)."""
    label = option_label(game, move)
    if any(o.label == label for o in item.options):
        return label
    if move.kind is MoveKind.KEEP:
        for o in item.options:
            if sorted(o.move.cards or ()) == sorted(move.cards or ()):
                return o.label
    raise KeyError(f"{label!r} was not valued")


def value(game: Game, belief: Belief | None, viewer: int, *, kind: str, rollouts: int,
          seed: int, game_seed: int, prefix: tuple[Move, ...], meta: dict[str, object],
          played: Move | None = None, solve: bool = True, fixed: bool = False) -> Valued:
    """The viewer's pending decision in `game` (the position after `prefix` from the deal of
    `game_seed`), valued by sequential playouts (at most `rollouts` per option; exactly
    `rollouts` when `fixed`) and, for a duel, solved exactly."""
    claim = judged_claim(game) if kind in ("challenge", "block") else None
    item = evaluate(game, viewer, belief, kind=kind, source=SOURCE, rollouts=rollouts,
                    rollout_seed=seed, options_to_value=options(game, kind, played),
                    claim=claim, fixed=fixed, seed=game_seed, moves=prefix)
    item = _with_meta(item, meta)
    solved = None
    if solve and END_GAME in item.themes and item.variant == "base":
        solved = stored_root(game, viewer, item)
        if solved is None:
            try:
                solved = solve_item(item)
            except (Unsolvable, ValueError):
                solved = None  # graded by the rollouts, which say so
    return Valued.of(item, solved)


def stored_root(game: Game, viewer: int, item: Item) -> Solved | None:
    """A two-player duel at the start of the viewer's own turn, read from the stored
    hidden-role table (`trainer.endgame.hidden_tables`, solved ahead to the same horizon)
    in a millisecond instead of solved in seconds; None where the table does not hold it (a
    turn already under way, players out of the game, 7 coins or more)."""
    if (game.n != 2 or game.phase is not Phase.ACTION or game.decider != viewer
            or any(len(game.hidden[p]) != 1 or len(game.revealed[p]) != 1 for p in (0, 1))):
        return None
    stored = stored_solution((game.revealed[0][0], game.revealed[1][0]),
                             (game.coins[0], game.coins[1]), viewer)
    if stored is None:
        return None
    card = game.hidden[viewer][0]
    by_move = {o.move: o.value for o in stored.options(card)}
    values = {o.label: by_move.get(o.move) for o in item.options}
    if any(v is None for v in values.values()):
        return None  # an option the table does not list: solve it instead
    prev = stored.options_prev.get(card, {})
    before = {o.label: prev[o.move] for o in item.options if o.move in prev}
    twin = stored.options_twin.get(card, {})
    other = {o.label: twin[o.move] for o in item.options if o.move in twin}
    return Solved({k: float(v) for k, v in values.items() if v is not None}, stored.horizon,
                  stored.exploitability, stored.settled and len(before) == len(values),
                  stored.moved, before,
                  None if stored.check_horizon == stored.horizon - 2 else stored.check_horizon,
                  other, stored.by_exchange or stored.exchanges > 1, stored.exchanges)


def _with_meta(item: Item, meta: dict[str, object]) -> Item:
    from dataclasses import replace

    return replace(item, meta={**item.meta, **meta})
