"""Practice: play an end-game out against the solved opponent, every decision graded exactly.

Why a real engine game beside the solved tree: the learner must meet what a player meets — a
real card dealt, real draws at an Exchange, the engine's words for every move — while the grade
and the opponent come from the solution. The two walk in step: each move played in the game
is the same edge taken in the tree, and the private states (the cards, and after an Exchange
what was seen) follow the tree's own bookkeeping.

The opponent plays the equilibrium: it holds the card it was dealt and, at each of its
decisions, draws its move from the solution's mix for that card (an Exchange's keep too). When
play reaches the solved horizon, the position is solved again from there, the deal weighed by
what the moves so far say of each card (the solution's strategies; the learner's mixed with a
little uniform play, so an off-equilibrium move still leaves every card possible). What an
Exchange showed its player is then folded into their card: a small simplification, said in
docs/endgame.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from trainer.endgame import hidden
from trainer.endgame.public import _resolve
from trainer.engine.cards import Character
from trainer.engine.chance import RandomChance
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move

# An off-equilibrium move of the learner still leaves every card this much weight when the
# position is solved again.
SMOOTHING = 0.01
# The opponent never plays an option this much worse than its best (in win probability).
CLOSE = 0.01
GoalKind = Literal["win", "survive"]


class PracticeError(ValueError):
    """A move that is not one of the learner's options now, named with what was expected."""


@dataclass(frozen=True)
class Goal:
    """What the learner plays for: win the game, or still be in it after `turns` of the
    opponent's turns (a position that is lost with best play can still be held for a while)."""

    kind: GoalKind = "win"
    turns: int = 0

    def describe(self) -> str:
        if self.kind == "win":
            return "Win the duel."
        return f"Still have your card after {self.turns} of your opponent's turns."


@dataclass(frozen=True)
class Offer:
    """One option of the learner now: a move, or at an Exchange the card kept; its chance of
    winning with best play from both sides after it, and how often the solution takes it."""

    index: int
    move: Move | None
    kept: Character | None
    value: float
    frequency: float


@dataclass(frozen=True)
class Event:
    """A move of the duel as the learner may see it: an Exchange's keep by the opponent
    carries no card (`kept` is None), the learner's own does."""

    player: int
    move: Move
    phase: Phase
    kept: Character | None = None


@dataclass(frozen=True)
class Graded:
    """One decision of the learner, graded against the solution: every option with its
    win chance, the one chosen, the points lost against the best, and what the learner should
    have made of the opponent's card at that moment."""

    number: int
    phase: Phase
    offers: tuple[Offer, ...]
    chosen: int
    belief: dict[Character, float]

    @property
    def best(self) -> Offer:
        return max(self.offers, key=lambda o: o.value)

    @property
    def lost_pp(self) -> float:
        return max(0.0, 100 * (self.best.value - self.offers[self.chosen].value))

    @property
    def mixed(self) -> bool:
        """The best value is reached by more than one option the solution plays: any of them
        is as good, and mixing them is what keeps the opponent guessing."""
        top = self.best.value
        return sum(1 for o in self.offers if o.value >= top - 1e-3 and o.frequency > 0.02) > 1


@dataclass
class Practice:
    """A duel in progress: the engine game with the real cards, the solution the opponent
    plays and where both stand in it."""

    revealed: tuple[Character, Character]
    learner: int
    goal: Goal
    game: Game
    solution: hidden.Solution
    rng: random.Random
    horizon: int = 4
    variant: str = "base"
    node: int = 0
    states: list[int] = field(default_factory=lambda: [0, 0])
    graded: list[Graded] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)  # oldest first
    opponent_turns: int = 0
    last_cards: tuple[Character, Character] | None = None
    solves: int = 1
    start_value: float = 0.0  # the learner's win chance at the start with best play
    solver: Callable[..., hidden.Solution] = field(default=hidden.solve, repr=False)

    # -- reading ------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def won(self) -> bool:
        return self.game.is_over and self.game.winner == self.learner

    def _card(self, p: int) -> Character:
        """p's card, or when the duel is over the card p held for its last move (a card
        shown to win a challenge is replaced, and the new one never played)."""
        if self.game.is_over and self.last_cards:
            return self.last_cards[p]
        return self.game.hidden[p][0]

    @property
    def my_card(self) -> Character:
        return self._card(self.learner)

    @property
    def their_card(self) -> Character | None:
        """The opponent's card: shown only when the game is over."""
        return self._card(1 - self.learner) if self.game.is_over else None

    @property
    def goal_met(self) -> bool | None:
        """None while it is still open."""
        if self.goal.kind == "win":
            return self.won if self.over else None
        if self.opponent_turns >= self.goal.turns and not (self.over and not self.won):
            return True
        if self.over:
            return self.won
        return None

    def offers(self) -> list[Offer]:
        """The learner's options now, in the engine's order (empty when it is not their
        turn to decide)."""
        if self.over or self.game.decider != self.learner:
            return []
        choices = self.solution.choices(self.node, self.states[self.learner], self._drawn())
        return [Offer(c.index, c.move, c.kept, c.value, c.frequency) for c in choices]

    def belief(self) -> dict[Character, float]:
        """What the learner should make of the opponent's card now, from the moves so far
        and the solution's strategies (both of which the learner sees)."""
        return self.solution.belief(self.node, self.learner, self.states[self.learner])

    # -- playing --------------------------------------------------------------------------
    def play(self, index: int) -> Graded:
        """The learner takes option `index` of `offers()`; the opponent then plays until the
        learner's next decision or the end. Returns the grade of the learner's decision."""
        offers = self.offers()
        if not offers:
            raise PracticeError("it is not your decision now" if not self.over
                                else "the duel is over")
        if not 0 <= index < len(offers):
            raise PracticeError(f"option {index} does not exist; expected 0 to "
                                f"{len(offers) - 1}")
        g = Graded(len(self.graded) + 1, self.game.phase, tuple(offers), index, self.belief())
        self.graded.append(g)
        self._take(self.learner, index)
        self._advance()
        return g

    def _drawn(self) -> tuple[int, ...] | None:
        if self.game.phase is not Phase.EXCHANGE:
            return None
        chars = self.solution.graph.characters
        pool = list(self.game.exchange_pool())
        pool.remove(self.game.hidden[self.game.decider][0])
        return tuple(sorted(chars.index(c) for c in pool))

    def _take(self, player: int, index: int) -> None:
        """Play option `index` of the node for `player`, in the game and in the tree."""
        tree = self.solution.tree
        if tree.kind[self.node] == hidden.EXCHANGE:
            choice = self.solution.choices(self.node, self.states[player], self._drawn())[index]
            assert choice.kept is not None
            keep = next(m for m in self.game.legal_moves()
                        if _kept_after(self.game, m) == choice.kept)
            self._apply(keep, player, choice.kept if player == self.learner else None)
            self.states[player] = choice.token
            self.node = tree.children[self.node][0]
            return
        move = tree.moves[self.node][index]
        if move not in self.game.legal_moves():
            raise PracticeError(f"{move} is not legal in the game now")  # tree and game apart
        self._apply(move, player)
        self.node = tree.children[self.node][index]

    def _apply(self, move: Move, player: int, kept: Character | None = None) -> None:
        self.events.append(Event(player, move, self.game.phase, kept))
        self.last_cards = (self.game.hidden[0][0], self.game.hidden[1][0])
        before = self.game.turn
        self.game.apply(move)
        chance = self.game.chance
        self.game = _resolve(self.game)
        self.game.chance = chance
        if self.game.turn != before and not self.game.is_over and self.game.actor == self.learner:
            self.opponent_turns += 1

    def _advance(self) -> None:
        """The opponent's moves (drawn from the solution's mix for its card) until the
        learner decides or the game ends; a new solve at the horizon."""
        tree = self.solution.tree
        while not self.game.is_over:
            if tree.kind[self.node] == hidden.UTILITY:
                self._resolve_again()
                tree = self.solution.tree
                continue
            if self.game.decider == self.learner:
                return
            p = self.game.decider
            choices = self.solution.choices(self.node, self.states[p], self._drawn())
            index = self.rng.choices(range(len(choices)), weights=_weights(choices))[0]
            self._take(p, index)

    def _resolve_again(self) -> None:
        """Play has reached the horizon: solve again from this turn, the deal weighed by what
        the moves so far say of each card."""
        deal = self.solution.deal_at(self.node, smooth=(self.learner, SMOOTHING))
        g = self.game
        self.solution = self.solver(self.revealed, (g.coins[0], g.coins[1]), g.decider,
                                    horizon=self.horizon, variant=self.variant, deal=deal)
        self.solves += 1
        chars = self.solution.graph.characters
        self.node = 0
        self.states = [chars.index(g.hidden[p][0]) for p in (0, 1)]


def _weights(choices: list[hidden.Choice]) -> list[float]:
    """The opponent's mix at a decision: the solution's, kept to the options within
    `CLOSE` of the best value for its card. Where play is likely under the solution the two
    agree (options in a mix are worth the same); where the learner's moves made the point
    unlikely, the solution's mix is barely trained and may hold a move that is plainly
    worse, and the opponent then answers with the best move instead."""
    values = [c.value for c in choices]
    if any(math.isnan(v) for v in values):
        return [max(c.frequency, 0.0) for c in choices]
    best = max(values)
    close = [v >= best - CLOSE for v in values]
    weights = [max(c.frequency, 0.0) if ok else 0.0 for c, ok in zip(choices, close,
                                                                     strict=True)]
    if sum(weights) <= 1e-9:
        weights = [1.0 if v == best else 0.0 for v in values]
    return weights


def _kept_after(game: Game, move: Move) -> Character:
    trial = game.clone()
    trial.apply(move)
    return trial.hidden[game.decider][0]


def start(revealed: tuple[Character, Character], coins: tuple[int, int], first: int,
          learner: int, *, card: Character | None = None, goal: Goal | None = None,
          seed: int = 0, horizon: int = 4, variant: str = "base",
          solution: hidden.Solution | None = None,
          solver: Callable[..., hidden.Solution] = hidden.solve) -> Practice:
    """Deal the duel and play the opponent's moves up to the learner's first decision.
    `card` fixes the learner's card (else it is dealt); `seed` makes the deal, the draws and
    the opponent's mixing repeatable (a shared link replays the same duel)."""
    s = solution or solver(revealed, coins, first, horizon=horizon, variant=variant)
    graph = s.graph
    chars = graph.characters
    rng = random.Random(seed)
    chance = s.spaces.spaces[0].chance
    worlds = [w for w in graph.worlds if chance[w] > 0
              and (card is None or chars[w[learner]] == card)]
    if not worlds:
        raise PracticeError(f"you cannot hold {card.value if card else 'a card'} here: it is "
                            "not in this rule set's court, or the face-up cards use every copy")
    world = rng.choices(worlds, weights=[float(chance[w]) for w in worlds])[0]
    game = graph.game(world, coins, first)
    game.names = ["you", "them"] if learner == 0 else ["them", "you"]
    game.chance = RandomChance(random.Random(seed + 1))
    game.log = []
    p = Practice(revealed, learner, goal or Goal(), game, s, rng, horizon, variant,
                 states=[world[0], world[1]], solver=solver)
    p.start_value = (s.card_values[chars[world[0]]] if learner == 0
                     else s.win_chances(1)[chars[world[1]]])
    p._advance()
    return p
