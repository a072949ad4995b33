"""Facts that must hold in every reachable position, checked by the fuzzer and property tests.

They are written against the game's public attributes, not its internals, so that a bug in the
engine's bookkeeping cannot hide itself by corrupting the check as well.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from trainer.engine.cards import Character
from trainer.engine.errors import SetupError
from trainer.engine.game import NOBODY, Game, Phase
from trainer.engine.moves import MoveKind
from trainer.engine.positions import check_table
from trainer.engine.rules import Options, Variant

MAX_DECISIONS = 5_000

_SETUP_PHASES = (Phase.DRAFT, Phase.ALLEGIANCE)


class InvariantViolation(AssertionError):
    """A position the rules cannot produce."""


def _fail(game: Game, what: str) -> None:
    raise InvariantViolation(f"turn {game.turn}, decision {len(game.log)}: {what}")


def check_invariants(game: Game, checked: dict[int, int] | None = None) -> None:
    """Raise InvariantViolation if the position breaks a rule. `checked` (player -> events
    already verified) lets a caller that checks every move verify only the new events."""
    v = game.variant
    n = game.n
    drafting = game.phase is Phase.DRAFT
    # The facts a hand-built position is checked for too (trainer.engine.positions): cards of
    # the variant, conserved (an exchange draw in progress included), every seat's hand size,
    # no coins on an exiled seat once a turn is over (within a turn a steal or the
    # Graverobber may still hold an exiled player's coins).
    drawn: Counter[Character] = Counter()
    if game.phase is Phase.EXCHANGE:
        drawn.update(game.exchange_pool())
        drawn.subtract(game.hidden[game.actor])
    try:
        check_table(variant=v, names=game.names, hands=game.hidden, revealed=game.revealed,
                    coins=game.coins, deck=game.deck, offers=game.offers, removed=game.removed,
                    mat_cards=game.mat_cards, mat_up=game.mat_up,
                    drawn=list((+drawn).elements()), drafting=drafting,
                    between_turns=game.is_over or game.phase is Phase.ACTION)
    except SetupError as e:
        _fail(game, str(e))
    # Coins are conserved and never negative.
    if any(c < 0 for c in game.coins) or game.reserve < 0 or game.mat_coins < 0:
        _fail(game, f"negative coins: {game.coins}, reserve {game.reserve}")
    if game.treasury is not None:
        if game.treasury < 0:
            _fail(game, f"negative treasury: {game.treasury}")
        total = sum(game.coins) + game.treasury + game.reserve + game.mat_coins
        if total != v.coins_total:
            _fail(game, f"coins not conserved: players {game.coins}, treasury {game.treasury}, "
                        f"reserve {game.reserve}, mat {game.mat_coins}")
    if game.reserve and not v.allegiances:
        _fail(game, "a Treasury Reserve outside Reformation")
    # Influence and life agree; the dead hold nothing and decide nothing.
    for p in range(n):
        if game.alive[p] != bool(game.hidden[p]) and not drafting:
            _fail(game, f"{game.names[p]} alive={game.alive[p]} with hand {game.hidden[p]}")
    if v.allegiances and game.phase is not Phase.ALLEGIANCE and len(game.sides) != n:
        _fail(game, f"allegiances missing: {game.sides}")
    living = game.living()
    if game.is_over:
        if game.winner is None:
            if living or not v.ties:
                _fail(game, f"a tie with living players {living}")
        elif len(living) != 1 or game.winner != living[0]:
            _fail(game, f"game over with living players {living}, winner {game.winner}")
        if game.legal_moves():
            _fail(game, "moves offered after the game ended")
        return
    if len(living) < 2 and game.phase is not Phase.VENGEANCE and not (
            v.ties and game.phase in (Phase.BLOCK, Phase.CHALLENGE_BLOCK, Phase.PROVE_BLOCK,
                                      Phase.LOSE)):
        _fail(game, f"game not over with living players {living}")
    d = game.decider
    if not game.alive[d] and game.phase is not Phase.VENGEANCE:
        _fail(game, f"exiled {game.names[d]} must decide ({game.phase})")
    moves = game.legal_moves()
    if not moves:
        _fail(game, f"no legal move for {game.names[d]} in {game.phase}")
    if any(m.player != d for m in moves):
        _fail(game, f"a legal move belongs to someone other than {game.names[d]}")
    if game.phase is Phase.ACTION:
        if game.coins[d] >= v.forced_coup_at and any(m.action != "coup" for m in moves):
            _fail(game, f"{game.names[d]} has {game.coins[d]} coins but may avoid a Coup")
        same_side = v.allegiances and len({game.sides[q] for q in living}) == 1
        for m in moves:
            if m.target is not None and (not game.alive[m.target] or m.target == d and not (
                    v.self_target and m.action in ("coup", "assassinate"))):
                _fail(game, f"illegal target offered: {m}")
            if (v.allegiances and m.target is not None and m.target != d
                    and m.action != "convert"
                    and not same_side and game.sides[m.target] == game.sides[d]):
                _fail(game, f"an action against one's own allegiance offered: {m}")
    if game.phase is Phase.LOSE and any(
            m.kind is not MoveKind.LOSE and m.kind is not MoveKind.PAY for m in moves):
        _fail(game, "a loss of influence offers other moves")
    if any(m.kind is MoveKind.PAY for m in moves) and game.coins[d] < v.pay_instead:
        _fail(game, f"paying instead of losing a card offered with {game.coins[d]} coins")
    check_observations(game, checked)


def check_observations(game: Game, checked: dict[int, int] | None = None) -> None:
    """No observation contains another player's face-down cards or private events."""
    for p in range(game.n):
        obs = game.observation(p)
        if list(obs.hand) != game.hidden[p]:
            _fail(game, f"observation of {game.names[p]} shows the wrong hand")
        start = checked.get(p, 0) if checked is not None else 0
        if checked is not None:
            checked[p] = len(obs.events)
        for e in obs.events[start:]:
            if e.visible_to not in (None, p) or e.visible_to == NOBODY:
                _fail(game, f"observation of {game.names[p]} contains a private event {e.kind}")
            if e.kind == "move" and e.visible_to is None and e.data["move"].kind in (
                    MoveKind.KEEP, MoveKind.OFFER):
                _fail(game, f"a private move is public: {e.data['move']}")
        if obs.exchange_pool and not (game.phase is Phase.EXCHANGE and game.actor == p):
            _fail(game, f"observation of {game.names[p]} contains another's exchange draw")
        if obs.legal_moves and game.decider != p:
            _fail(game, f"observation of {game.names[p]} lists another player's moves")
        if any(o for q, o in enumerate(obs.offers) if q != p):
            _fail(game, f"observation of {game.names[p]} contains another's draft set")


def play_random(variant: Variant, players: int, seed: int, *, check: bool = True,
                options: Options | None = None) -> Game:
    """One game of uniformly random legal play; with `check`, invariants after every move."""
    game = Game.new(players, seed=seed, variant=variant, options=options)
    choose = random.Random(seed).choice
    checked: dict[int, int] = {}
    if check:
        check_invariants(game, checked)
    decisions = 0
    while not game.is_over:
        game.apply(choose(game.legal_moves()))
        decisions += 1
        if check:
            check_invariants(game, checked)
        if decisions > MAX_DECISIONS:
            _fail(game, f"the game did not end within {MAX_DECISIONS} decisions")
    if check:
        for p in range(game.n):  # the incremental views agree with a fresh filter of the log
            fresh = [e for e in game.log if e.visible_to is None or e.visible_to == p]
            if list(game.observation(p).events) != fresh:
                _fail(game, f"the observation of {game.names[p]} drifted from the log")
        again = Game.replay(game.log)
        if _state(again) != _state(game):
            _fail(game, "replaying the log does not reproduce the game")
    return game


def _state(game: Game) -> tuple[Any, ...]:
    """The position without the deck order, which random draws make meaningless."""
    deck = list(game.deck) if game.variant.fixed_deck else sorted(game.deck)
    return (game.hidden, game.revealed, game.coins, game.treasury, game.alive, deck,
            game.turn, game.winner, game.sides, game.reserve, game.mat_up, game.removed,
            [e for e in game.log if e.kind != "setup"])
