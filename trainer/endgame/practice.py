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

from trainer.endgame import hidden, hidden_two
from trainer.engine.cards import Character
from trainer.engine.chance import RandomChance
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import card_name
from trainer.i18n import tr, tr_n

Hand = tuple[Character, ...]

# An off-equilibrium move of the learner still leaves every card this much weight when the
# position is solved again.
SMOOTHING = 0.01
# The opponent never plays an option this much worse than its best (in win probability).
CLOSE = 0.01
# A two-card duel's solves stop at this exploitability (as the End-game page's)
TWO_TARGET = 1e-4
HORIZON = 4  # a one-card duel played out is solved this many turns ahead, again at each cut
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
            return tr("Win the duel.")
        return tr_n("Still have your card after {n} of your opponent's turns.",
                    "Still have your card after {n} of your opponent's turns.", self.turns)


@dataclass(frozen=True)
class Offer:
    """One option of the learner now: a move, or at an Exchange the card kept; its chance of
    winning with best play from both sides after it, and how often the solution takes it."""

    index: int
    move: Move | None
    kept: Character | None
    value: float
    frequency: float
    hand: Hand | None = None  # at an Exchange, the whole hand kept (two cards in a two-card duel)


@dataclass(frozen=True)
class Event:
    """A move of the duel as the learner may see it: an Exchange's keep by the opponent
    carries no card (`kept` is None), the learner's own does."""

    player: int
    move: Move
    phase: Phase
    kept: Character | None = None
    hand: Hand | None = None  # the learner's whole hand kept at an Exchange


@dataclass(frozen=True)
class Graded:
    """One decision of the learner, graded against the solution: every option with its
    win chance, the one chosen, the points lost against the best, and what the learner should
    have made of the opponent's card at that moment."""

    number: int
    phase: Phase
    offers: tuple[Offer, ...]
    chosen: int
    belief: dict[Character, float]  # in a two-card duel, by the other hand's first card
    hands: dict[Hand, float] = field(default_factory=dict)  # the same by whole hands

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
    solution: hidden.InTree
    rng: random.Random
    horizon: int = HORIZON
    variant: str = "base"
    node: int = 0
    states: list[int] = field(default_factory=lambda: [0, 0])
    graded: list[Graded] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)  # oldest first
    opponent_turns: int = 0
    last_hands: tuple[Hand, Hand] | None = None
    solves: int = 1
    start_value: float = 0.0  # the learner's win chance at the start with best play
    solver: Callable[..., hidden.Solution] = field(default=hidden.solve, repr=False)
    # the duel of two cards against one (`hidden_two`): the card player 1 lost, until player
    # 0 too is down to one card and the duel is solved again as one card each
    two: Character | None = None

    # -- reading ------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def won(self) -> bool:
        return self.game.is_over and self.game.winner == self.learner

    def _hand(self, p: int) -> Hand:
        """p's hand, or when the duel is over the hand p held for its last move (a card
        shown to win a challenge is replaced, and the new one never played)."""
        if self.game.is_over and self.last_hands:
            return self.last_hands[p]
        return tuple(self.game.hidden[p])

    @property
    def my_hand(self) -> Hand:
        return self._hand(self.learner)

    @property
    def their_hand(self) -> Hand | None:
        """The opponent's hand: shown only when the game is over."""
        return self._hand(1 - self.learner) if self.game.is_over else None

    @property
    def my_card(self) -> Character:
        return self.my_hand[0]

    @property
    def their_card(self) -> Character | None:
        """The opponent's card (the first of their hand): shown only when the game is over."""
        hand = self.their_hand
        return hand[0] if hand else None

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
        legal = self.game.legal_moves()
        # a two-card duel's choice of card to lose lists every card some hand could lose
        return [Offer(c.index, c.move, c.kept, c.value, c.frequency, c.hand) for c in choices
                if c.move is None or c.move in legal]

    def belief_hands(self) -> dict[Hand, float]:
        """What the learner should make of the opponent's hand now, from the moves so far
        and the solution's strategies (both of which the learner sees)."""
        return self.solution.belief_hands(self.node, self.learner, self.states[self.learner])

    def belief(self) -> dict[Character, float]:
        """`belief_hands` by the opponent's card (of a two-card hand, each card it holds
        counts, so the chances are of holding at least one)."""
        out: dict[Character, float] = {}
        for hand, p in self.belief_hands().items():
            for c in set(hand):
                out[c] = out.get(c, 0.0) + p
        return out

    # -- playing --------------------------------------------------------------------------
    def play(self, index: int) -> Graded:
        """The learner takes option `index` of `offers()`; the opponent then plays until the
        learner's next decision or the end. Returns the grade of the learner's decision."""
        offers = self.offers()
        if not offers:
            raise PracticeError(tr("it is not your decision now") if not self.over
                                else tr("the duel is over"))
        at = [o.index for o in offers]
        if index not in at:
            raise PracticeError(
                tr("option {index} does not exist; expected 0 to {last}", index=index,
                   last=len(at) - 1) if at == list(range(len(at))) else
                tr("option {index} does not exist; expected one of {choices}", index=index,
                   choices=", ".join(map(str, at))))
        g = Graded(len(self.graded) + 1, self.game.phase, tuple(offers), at.index(index),
                   self.belief(), self.belief_hands())
        self.graded.append(g)
        self._take(self.learner, index)
        self._advance()
        return g

    def _drawn(self) -> tuple[int, ...] | None:
        if self.game.phase is not Phase.EXCHANGE:
            return None
        chars = self.solution.graph.characters
        pool = list(self.game.exchange_pool())
        for c in self.game.hidden[self.game.decider]:
            pool.remove(c)
        return tuple(sorted(chars.index(c) for c in pool))

    def _take(self, player: int, index: int) -> None:
        """Play option `index` of the node for `player`, in the game and in the tree."""
        tree = self.solution.tree
        if tree.kind[self.node] == hidden.EXCHANGE:
            choice = self.solution.choices(self.node, self.states[player], self._drawn())[index]
            assert choice.hand is not None
            keep = next(m for m in self.game.legal_moves()
                        if m.cards is not None and sorted(m.cards) == sorted(choice.hand))
            mine = player == self.learner
            self._apply(keep, player, choice.kept if mine else None,
                        choice.hand if mine else None)
            self.states[player] = choice.token
            self.node = tree.children[self.node][0]
            self._follow()
            return
        move = tree.moves[self.node][index]
        if move not in self.game.legal_moves():
            # the tree and the game apart
            raise PracticeError(tr("{move} is not legal in the game now", move=move))
        self._apply(move, player)
        self.node = tree.children[self.node][index]
        self._follow()

    def _follow(self) -> None:
        """Through the steps of a two-card duel's tree that are no one's decision: past a
        SUM (the deals that ended, or those going on), and the private steps of a hand (the
        card left after a loss, a replacement drawn), each to the state the real hand says.
        An Exchange the engine asks for is a decision, and stays."""
        tree = self.solution.tree
        while not self.game.is_over:
            kind = tree.kind[self.node]
            if kind == hidden.SUM:
                self.node = tree.children[self.node][1]  # [0] are the deals that ended
                continue
            x = tree.decider[self.node]
            if kind != hidden.EXCHANGE or (self.game.phase is Phase.EXCHANGE
                                           and self.game.decider == x):
                return
            sw = tree.swaps[self.node]
            assert sw is not None
            label = self._label(x)
            j = next(int(j) for j in range(len(sw.slot_info))
                     if int(sw.info_state[sw.slot_info[j]]) == self.states[x]
                     and int(sw.slot_kept[j]) == label)
            self.states[x] = int(sw.token[j])
            self.node = tree.children[self.node][0]

    def _label(self, p: int) -> int:
        """The label of p's real hand in the solution's graph."""
        chars = self.solution.graph.characters
        hand = tuple(sorted(self.game.hidden[p], key=chars.index))
        return self.solution.graph.labels[p].index(hand)

    def _apply(self, move: Move, player: int, kept: Character | None = None,
               hand: Hand | None = None) -> None:
        self.events.append(Event(player, move, self.game.phase, kept, hand))
        self.last_hands = (tuple(self.game.hidden[0]), tuple(self.game.hidden[1]))
        before = self.game.turn
        self.game.apply(move)
        _settle(self.game)
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
            legal = self.game.legal_moves()
            weights = [w if c.move is None or c.move in legal else 0.0
                       for c, w in zip(choices, _weights(choices), strict=True)]
            if sum(weights) <= 0:  # only options this hand cannot take were in the mix
                weights = [1.0 if c.move is None or c.move in legal else 0.0 for c in choices]
            index = self.rng.choices(range(len(choices)), weights=weights)[0]
            self._take(p, index)

    def _resolve_again(self) -> None:
        """Play has reached the horizon: solve again from this turn, the deal weighed by what
        the moves so far say of each card."""
        deal = self.solution.deal_at(self.node, smooth=(self.learner, SMOOTHING))
        g = self.game
        coins = (g.coins[0], g.coins[1])
        if self.two is not None and len(g.hidden[0]) > 1:
            self.solution = hidden_two.solve(self.two, coins, g.decider, horizon=self.horizon,
                                             target=TWO_TARGET, deal=deal)
        else:
            if self.two is not None:
                # player 0 is down to one card: one card each from here, their lost card
                # face up, the deal carried (the one-card rows of the two-card duel's labels)
                self.revealed = (g.revealed[0][0], self.two)
                deal = deal[-len(self.solution.graph.characters):]
                self.two = None
            self.solution = self.solver(self.revealed, coins, g.decider, horizon=self.horizon,
                                        variant=self.variant, deal=deal)
        self.solves += 1
        self.node = 0
        self.states = [self._label(p) for p in (0, 1)]


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


_OPEN = (Phase.LOSE, Phase.PROVE_ACTION, Phase.PROVE_BLOCK)


def _settle(game: Game) -> None:
    """Play the decider's forced answers in the real game, as the solvers' trees do: a last
    card lost, and a challenged player holding the claimed card shows it (see
    `trainer.endgame.public_two`); a two-card player choosing which card to lose decides."""
    while not game.is_over and game.phase in _OPEN:
        moves = game.legal_moves()
        hand = game.hidden[game.decider]
        shows = [m for m in moves if m.kind is MoveKind.SHOW]
        if game.phase is not Phase.LOSE and shows:
            game.apply(shows[0])
        elif len(hand) == 1:
            game.apply(moves[0])
        else:
            return


def start(revealed: tuple[Character, Character], coins: tuple[int, int], first: int,
          learner: int, *, card: Character | None = None, goal: Goal | None = None,
          seed: int = 0, horizon: int = HORIZON, variant: str = "base",
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
        raise PracticeError(
            tr("you cannot hold {card} here: it is not in this rule set's court, or the face-up "
               "cards use every copy", card=card_name(card)) if card else
            tr("you cannot hold a card here: it is not in this rule set's court, or the face-up "
               "cards use every copy"))
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


def start_two(lost: Character, coins: tuple[int, int], first: int, learner: int, *,
              hand: Hand | None = None, goal: Goal | None = None, seed: int = 0,
              horizon: int = 2, solution: hidden_two.TwoSolution | None = None) -> Practice:
    """Deal a duel of two cards (player 0) against one (player 1, who lost `lost`) and play
    the opponent's moves up to the learner's first decision, the learner in seat `learner`.
    `hand` fixes the learner's hidden cards (else they are dealt); `seed` makes the deal,
    the draws and the opponent's mixing repeatable."""
    s = solution or hidden_two.solve(lost, coins, first, horizon=horizon, target=TWO_TARGET)
    graph = s.graph
    rng = random.Random(seed)
    chance = s.spaces.spaces[0].chance
    want = None if hand is None else graph.label(learner, hand)
    worlds = [w for w in graph.worlds if chance[w] > 0 and (want is None or w[learner] == want)]
    if not worlds:
        raise PracticeError(
            tr("you cannot hold {hand} here: the court and the face-up card leave too few "
               "copies", hand="+".join(card_name(c) for c in hand)) if hand else
            tr("you cannot hold that hand here: the court and the face-up card leave too few "
               "copies"))
    world = rng.choices(worlds, weights=[float(chance[w]) for w in worlds])[0]
    game = graph.game(world, coins, first)
    game.names = ["you", "them"] if learner == 0 else ["them", "you"]
    game.chance = RandomChance(random.Random(seed + 1))
    game.log = []
    p = Practice((lost, lost), learner, goal or Goal(), game, s, rng, horizon, "base",
                 states=[world[0], world[1]], two=lost)
    p.start_value = s.win_chances(learner)[graph.labels[learner][world[learner]]]
    p._advance()
    return p
