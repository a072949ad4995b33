"""Facts that must hold in every reachable position, checked by the fuzzer and property tests.

They are written against the game's public attributes, not its internals, so that a bug in the
engine's bookkeeping cannot hide itself by corrupting the check as well.
"""

from __future__ import annotations

import random
from collections import Counter

from trainer.game import NOBODY, Game, Phase
from trainer.moves import MoveKind
from trainer.rules import Options, Variant

MAX_DECISIONS = 5_000


class InvariantViolation(AssertionError):
    """A position the rules cannot produce."""


def _fail(game: Game, what: str) -> None:
    raise InvariantViolation(f"turn {game.turn}, decision {len(game.log)}: {what}")


def check_invariants(game: Game) -> None:
    v = game.variant
    n = game.n
    # Cards are conserved: hands, face-up cards, the deck and an exchange draw in progress.
    cards: Counter = Counter(game.deck)
    for p in range(n):
        cards.update(game.hidden[p])
        cards.update(game.revealed[p])
        if len(game.hidden[p]) + len(game.revealed[p]) != v.hand_size:
            _fail(game, f"{game.names[p]} holds {len(game.hidden[p])} face-down and "
                        f"{len(game.revealed[p])} face-up cards")
    if game.phase is Phase.EXCHANGE:
        drawn = Counter(game.exchange_pool())
        drawn.subtract(game.hidden[game.actor])
        cards.update(+drawn)
    if cards != Counter(v.court(n)):
        _fail(game, f"cards not conserved: {dict(cards)}")
    # Coins are conserved and never negative.
    if any(c < 0 for c in game.coins):
        _fail(game, f"negative coins: {game.coins}")
    if game.treasury is not None:
        if game.treasury < 0:
            _fail(game, f"negative treasury: {game.treasury}")
        if sum(game.coins) + game.treasury != v.coins_total:
            _fail(game, f"coins not conserved: players {game.coins}, treasury {game.treasury}")
    # Influence and life agree; the dead hold nothing and decide nothing.
    for p in range(n):
        if game.alive[p] != bool(game.hidden[p]):
            _fail(game, f"{game.names[p]} alive={game.alive[p]} with hand {game.hidden[p]}")
    living = game.living()
    if game.is_over:
        if len(living) != 1 or game.winner != living[0]:
            _fail(game, f"game over with living players {living}, winner {game.winner}")
        if game.legal_moves():
            _fail(game, "moves offered after the game ended")
        if any(game.coins[p] for p in range(n) if not game.alive[p]):
            _fail(game, f"an exiled player kept coins: {game.coins}")
        return
    if len(living) < 2:
        _fail(game, f"game not over with living players {living}")
    d = game.decider
    if not game.alive[d]:
        _fail(game, f"exiled {game.names[d]} must decide ({game.phase})")
    moves = game.legal_moves()
    if not moves:
        _fail(game, f"no legal move for {game.names[d]} in {game.phase}")
    if any(m.player != d for m in moves):
        _fail(game, f"a legal move belongs to someone other than {game.names[d]}")
    if game.phase is Phase.ACTION:
        if game.coins[d] >= v.forced_coup_at and any(m.action != "coup" for m in moves):
            _fail(game, f"{game.names[d]} has {game.coins[d]} coins but may avoid a Coup")
        for m in moves:
            if m.target is not None and (m.target == d or not game.alive[m.target]):
                _fail(game, f"illegal target offered: {m}")
    if game.phase is Phase.LOSE and any(m.kind is not MoveKind.LOSE for m in moves):
        _fail(game, "a loss of influence offers other moves")
    check_observations(game)


def check_observations(game: Game) -> None:
    """No observation contains another player's face-down cards or private events."""
    for p in range(game.n):
        obs = game.observation(p)
        if list(obs.hand) != game.hidden[p]:
            _fail(game, f"observation of {game.names[p]} shows the wrong hand")
        for e in obs.events:
            if e.visible_to not in (None, p) or e.visible_to == NOBODY:
                _fail(game, f"observation of {game.names[p]} contains a private event {e.kind}")
        if obs.exchange_pool and not (game.phase is Phase.EXCHANGE and game.actor == p):
            _fail(game, f"observation of {game.names[p]} contains another's exchange draw")
        if obs.legal_moves and game.decider != p:
            _fail(game, f"observation of {game.names[p]} lists another player's moves")


def play_random(variant: Variant, players: int, seed: int, *, check: bool = True,
                options: Options | None = None) -> Game:
    """One game of uniformly random legal play; with `check`, invariants after every move."""
    game = Game.new(players, seed=seed, variant=variant, options=options)
    choose = random.Random(seed).choice
    if check:
        check_invariants(game)
    decisions = 0
    while not game.is_over:
        game.apply(choose(game.legal_moves()))
        decisions += 1
        if check:
            check_invariants(game)
        if decisions > MAX_DECISIONS:
            _fail(game, f"the game did not end within {MAX_DECISIONS} decisions")
    if check:
        again = Game.replay(game.log)
        if _state(again) != _state(game):
            _fail(game, "replaying the log does not reproduce the game")
    return game


def _state(game: Game) -> tuple:
    """The position without the deck order, which random draws make meaningless."""
    return (game.hidden, game.revealed, game.coins, game.treasury, game.alive, sorted(game.deck),
            game.turn, game.winner, [e for e in game.log if e.kind != "setup"])
