"""The free game at the end of a lesson (`mode: game`): the learner plays from a prepared
position against bots that take their most likely move, so the same choices always lead to
the same game.

Why the moves are the whole state: a game is the lesson's set-up, its steps, then the
learner's moves, with every bot reply derived from them. A page keeps only the learner's
moves (a take-back drops the last one), and the winning line in the lesson file is checked
the same way the page plays it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from trainer.engine.cards import Character
from trainer.engine.errors import AmbiguousMoveError, IllegalMoveError, MoveError
from trainer.engine.game import Event, Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.notation import complete
from trainer.i18n import N_, tr
from trainer.i18n.said import said, said_each
from trainer.policies.personas import Persona, personas
from trainer.policies.runner import Likeliest, Runner, SeatStreams, forced_loss
from trainer.scenarios.errors import error_at
from trainer.scenarios.move_text import MoveTextError, parse_move_text
from trainer.scenarios.replay import replay
from trainer.scenarios.schema import Scenario

# A bot reply loop longer than this means two bots are stuck passing a decision back and forth.
MAX_BOT_MOVES = 200


@dataclass(frozen=True)
class PracticeState:
    """The game after the learner's moves, and what the bots did since the learner's last
    move (for the page to tell)."""

    game: Game
    learner: int
    bot_moves: tuple[Move, ...]
    bot_phases: tuple[Phase, ...] = ()  # the decision each bot move answered
    mistakes: tuple[Mistake, ...] = ()  # every clear mistake of the learner so far, in order
    latest: tuple[Mistake, ...] = ()  # those of the learner's last move and the replies

    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def won(self) -> bool:
        return self.game.is_over and self.game.winner == self.learner

    @property
    def legal(self) -> tuple[Move, ...]:
        """The learner's choices now (none once the game is over)."""
        return () if self.game.is_over else self.game.legal_moves()


@dataclass(frozen=True)
class Mistake:
    """A move of the learner's that the game proved wrong, with what proves it: the card the
    other player really held, or the learner's own card that would have saved them.

    Why only these: against a bot that never bluffs (and challenges only a claim its own cards
    disprove) they are certain, not a judgement: a challenge of its claim always loses, a bluff
    it challenges was always caught, and a block the learner held but did not make cost a card.
    """

    kind: str  # "challenged_truth", "bluff_caught" or "no_block"
    other: str  # the bot's name
    card: Character  # the card shown, the card claimed, or the card that would have blocked


def mistakes_in(events: Sequence[Event], learner: int, names: Sequence[str],
                hands: Sequence[Sequence[Character]]) -> list[Mistake]:
    """The learner's clear mistakes in `events` (a stretch of a game's log); `hands[i]` is
    the learner's face-down cards before event i, for a block they could have made."""
    out: list[Mistake] = []
    moves = [(i, e.data["move"], e.data.get("phase")) for i, e in enumerate(events)
             if e.kind == "move"]
    for j, (i, move, phase) in enumerate(moves):
        nxt = moves[j + 1][1] if j + 1 < len(moves) else None
        if move.player == learner and move.kind is MoveKind.CHALLENGE and nxt is not None \
                and nxt.kind is MoveKind.SHOW and nxt.character is not None:
            out.append(Mistake("challenged_truth", names[nxt.player], nxt.character))
        elif move.player != learner and move.kind is MoveKind.CHALLENGE and nxt is not None \
                and nxt.player == learner and nxt.kind is MoveKind.LOSE:
            claim = _claimed_before(moves[:j], learner)
            if claim is not None and claim not in hands[i]:
                out.append(Mistake("bluff_caught", names[move.player], claim))
        elif move.player == learner and move.kind is MoveKind.PASS and phase is Phase.BLOCK:
            saver = Character.CONTESSA
            lost = any(e.kind == "lost" and e.data.get("player") == learner
                       and "assassin" in str(e.data.get("reason", "")).lower()
                       for e in events[i:])
            if lost and saver in hands[i]:
                attacker = next((m.player for _, m, _ in reversed(moves[:j])
                                 if m.kind is MoveKind.ACT), None)
                if attacker is not None:
                    out.append(Mistake("no_block", names[attacker], saver))
    return out


def _claimed_before(moves: Sequence[tuple[int, Move, object]], learner: int
                    ) -> Character | None:
    """The character of the learner's claim a challenge answers: their last action's card or
    their block's."""
    for _, m, _ in reversed(moves):
        if m.player != learner:
            continue
        if m.kind is MoveKind.BLOCK:
            return m.character
        if m.kind is MoveKind.ACT and m.action is not None:
            return _ACTION_CARD.get(m.action.value)
        return None
    return None


_ACTION_CARD = {"tax": Character.DUKE, "assassinate": Character.ASSASSIN,
                "steal": Character.CAPTAIN, "exchange": Character.AMBASSADOR}


def bot_for(scenario: Scenario) -> Persona:
    assert scenario.practice is not None
    return personas()[scenario.practice.bot]


def likeliest(bot: Persona, game: Game) -> Move:
    """The bot's most likely move (the first of equals), so a game replays identically;
    decided from the decider's observation."""
    return Likeliest(bot).choose(game.observation(game.decider), _NO_DRAW)


_NO_DRAW = random.Random(0)  # a likeliest move draws nothing


def practice(scenario: Scenario, moves: Sequence[Move]) -> PracticeState:
    """The game of a `mode: game` lesson after the learner's `moves`; raises IllegalMoveError
    for a move the rules do not allow at its point."""
    game = replay(scenario)
    learner = _seat(game, scenario.setup.learner)
    bot = bot_for(scenario)
    replies = _bots(game, learner, bot)
    start = len(game.log)
    hands: list[tuple[Character, ...]] = [tuple(game.hidden[learner])] * start
    last = start
    for move in moves:
        if game.is_over or game.decider != learner:
            raise IllegalMoveError(tr("it is not {name}'s decision", name=game.names[learner]),
                                   move=move, player=move.player)
        last = len(game.log)
        hand = tuple(game.hidden[learner])
        game.apply(move)
        replies = _bots(game, learner, bot)
        hands += [hand] * (len(game.log) - len(hands))
    log = game.log
    found = mistakes_in(log[start:], learner, game.names, hands[start:])
    latest = mistakes_in(log[last:], learner, game.names, hands[last:]) if moves else []
    return PracticeState(game, learner, tuple(m for m, _ in replies),
                         tuple(p for _, p in replies), tuple(found), tuple(latest))


def _seat(game: Game, name: str) -> int:
    return [n.lower() for n in game.names].index(name.strip().lower())


def _bots(game: Game, learner: int, bot: Persona) -> list[tuple[Move, Phase]]:
    """The bots' replies up to the learner's next decision, through the one game runner."""
    seats = {p: Likeliest(bot) for p in range(game.n) if p != learner}
    runner = Runner(game, seats, SeatStreams([_NO_DRAW] * game.n), started=True)
    played: list[tuple[Move, Phase]] = []
    while True:
        while runner.bot_to_move:
            if len(played) >= MAX_BOT_MOVES:
                raise RuntimeError(f"the bots made {MAX_BOT_MOVES} moves in a row without "
                                   f"the learner's turn coming back")
            phase = game.phase
            played.append((runner.step(runner.version), phase))
        # a loss with nothing to choose (the learner's last card) is played, not asked
        forced = forced_loss(game) if game.decider == learner else None
        if forced is None:
            return played
        phase = game.phase
        played.append((runner.apply(forced, runner.version), phase))


def line_moves(scenario: Scenario) -> list[Move]:
    """The lesson's winning line as moves, each checked where it is played; raises
    ScenarioError naming the line entry at fault, or when the line does not win."""
    assert scenario.practice is not None
    state = practice(scenario, [])
    names = state.game.names
    moves: list[Move] = []
    for j, text in enumerate(scenario.practice.line):
        loc = ("practice", "line", j)
        if state.over:
            raise error_at(scenario, loc, said(N_("practice: the game is already over before "
                                                  "{move}; end the line there"), move=repr(text)))
        try:
            phrase = parse_move_text(text, names, state.game.variant)
        except MoveTextError as e:
            raise error_at(scenario, loc, said(N_("practice: cannot read the move: {problem}"),
                                               problem=e.said)) from None
        move = phrase.move
        if move is None or move.player != state.learner:
            raise error_at(scenario, loc, said(N_("practice: {move} must be a single move by "
                                                  "the learner, {name}"),
                                               move=repr(text), name=names[state.learner]))
        completing = phrase.infer_card
        try:
            if completing:
                move = complete(state.game, move)
                completing = False
            state = practice(scenario, [*moves, move])
        except (AmbiguousMoveError, IllegalMoveError):
            # the engine's reason, made again in each reader's language from this position
            reason = said_each(partial(_refusal, state.game, move, completing))
            raise error_at(scenario, loc, said(N_("practice: {move} cannot be played here: "
                                                  "{reason}"), move=repr(text),
                                               reason=reason)) from None
        moves.append(move)
    if not state.won:
        learner, winner = names[state.learner], state.game.winner
        if not state.over:
            result = said(N_("practice: the line does not win for {name}: after it the game is "
                             "not over"), name=learner)
        elif winner is not None:
            result = said(N_("practice: the line does not win for {name}: after it {winner} "
                             "wins"), name=learner, winner=names[winner])
        else:
            result = said(N_("practice: the line does not win for {name}: after it it ends in "
                             "a tie"), name=learner)
        raise error_at(scenario, ("practice", "line"), result)
    return moves


def _refusal(game: Game, move: Move, unfinished: bool) -> str:
    """Why the line's `move` cannot be played in `game` (the position before it), in the
    current language: the engine's reason, or, for a move written without its card
    (`unfinished`), why it cannot be completed."""
    if unfinished:
        try:
            complete(game, move)
        except MoveError as e:
            return e.reason
    return game.why_illegal(move)


def check_practice(scenario: Scenario) -> None:
    """Everything a game lesson promises: its line is readable, legal and wins."""
    if scenario.mode == "game":
        line_moves(scenario)
