"""A move as a button label for the player making it: "Tax: claim Duke, take 3".

Why not the engine's notation ("Ana claims Duke: tax"): a newcomer reads a button as "what
happens if I press this". The label names the action, the character it claims (so a bluff is
visibly a claim) and what it costs or gains, read from the variant's tables, never restated.
"""

from __future__ import annotations

from trainer.engine.cards import Action
from trainer.engine.explain import cards_words, target_words
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import card_name
from trainer.i18n import trc
from trainer.rulebook.reference import action_name

# The coins an action gains, in a word or two (the variant's `effect` is the full sentence).
_GAIN = {Action.INCOME: 1, Action.FOREIGN_AID: 2, Action.TAX: 3, Action.STEAL: 2}


def your_move(game: Game, move: Move) -> str:
    """The label of `move` on the button of the player who makes it."""
    names = game.names
    if move.kind is MoveKind.ACT and move.action is not None:
        return _action(game, move)
    claimant = _claimant(game)
    if move.kind is MoveKind.CHALLENGE:
        if claimant is not None:
            return trc("button", "Challenge {name}", name=names[claimant])
        return trc("button", "Challenge")
    if move.kind is MoveKind.PASS:
        if game.phase in (Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK, Phase.CHALLENGE_CLAIM):
            return trc("button", "Don't challenge")
        if game.phase is Phase.BLOCK:
            return trc("button", "Don't block")
        return trc("button", "Pass")
    if move.kind is MoveKind.BLOCK and move.character is not None:
        return trc("button", "Block: claim {card}", card=card_name(move.character))
    if move.kind is MoveKind.LOSE and move.character is not None:
        return trc("button", "Give up {card}", card=card_name(move.character))
    if move.kind is MoveKind.SHOW and move.character is not None:
        return trc("button", "Show {card}", card=card_name(move.character))
    if move.kind is MoveKind.KEEP and move.cards:
        return trc("button", "Keep {cards}", cards=cards_words(move.cards))
    return game.describe(move)


def your_action(game: Game, action: Action) -> str:
    """An action's label before its target is chosen: "Steal: claim Captain, take 2"."""
    return _label(game, action, action_name(action))


def _action(game: Game, move: Move) -> str:
    assert move.action is not None
    name = action_name(move.action)
    gain = None
    if move.action is Action.STEAL and move.target is not None:
        # A steal takes what the target has, up to 2: "take 1", "take nothing".
        gain = min(_GAIN[Action.STEAL], game.coins[move.target])
    if move.target is not None:
        target = game.names[move.target]
        if move.action is Action.STEAL:
            name = trc("button", "Steal from {target}", target=target)
        else:
            name = trc("button", "{action} {target}", action=name,
                       target=target_words(target))
    return _label(game, move.action, name, gain)


def _label(game: Game, action: Action, label: str, gain: int | None = None) -> str:
    spec = next((s for s in game.variant.actions if s.action is action), None)
    parts = []
    if spec is not None and spec.claim is not None:
        card = card_name(spec.claim)
        parts.append(trc("button", "claim no {card}", card=card) if spec.inverted
                     else trc("button", "claim {card}", card=card))
    if spec is not None and spec.cost:
        parts.append(trc("button", "pay {n}", n=spec.cost))
    if action in _GAIN:
        gain = _GAIN[action] if gain is None else gain
        parts.append(trc("button", "take {n}", n=gain) if gain
                     else trc("button", "take nothing"))
    if not parts:
        return label
    return trc("button", "{action}: {parts}", action=label, parts=", ".join(parts))


def _claimant(game: Game) -> int | None:
    d = game.pending
    if d is None:
        return None
    if game.phase is Phase.CHALLENGE_ACTION:
        return d.actor
    if game.phase is Phase.CHALLENGE_BLOCK:
        return d.blocker
    if game.phase is Phase.CHALLENGE_CLAIM:
        return d.claimant
    return None
