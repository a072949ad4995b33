"""A move as a button label for the player making it: "Tax: claim Duke, take 3".

Why not the engine's notation ("Ana claims Duke: tax"): a newcomer reads a button as "what
happens if I press this". The label names the action, the character it claims (so a bluff is
visibly a claim) and what it costs or gains, read from the variant's tables, never restated.
"""

from __future__ import annotations

from trainer.engine.cards import Action
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.rulebook.reference import action_name

# The coins an action gains, in a word or two (the variant's `effect` is the full sentence).
_GAIN = {Action.INCOME: "take 1", Action.FOREIGN_AID: "take 2", Action.TAX: "take 3",
         Action.STEAL: "take 2"}


def your_move(game: Game, move: Move) -> str:
    """The label of `move` on the button of the player who makes it."""
    names = game.names
    if move.kind is MoveKind.ACT and move.action is not None:
        return _action(game, move)
    claimant = _claimant(game)
    if move.kind is MoveKind.CHALLENGE:
        return f"Challenge {names[claimant]}" if claimant is not None else "Challenge"
    if move.kind is MoveKind.PASS:
        if game.phase in (Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK, Phase.CHALLENGE_CLAIM):
            return "Don't challenge"
        if game.phase is Phase.BLOCK:
            return "Don't block"
        return "Pass"
    if move.kind is MoveKind.BLOCK and move.character is not None:
        return f"Block: claim {move.character}"
    if move.kind is MoveKind.LOSE and move.character is not None:
        return f"Give up {move.character}"
    if move.kind is MoveKind.SHOW and move.character is not None:
        return f"Show {move.character}"
    if move.kind is MoveKind.KEEP and move.cards:
        return "Keep " + " and ".join(str(c) for c in move.cards)
    return game.describe(move)


def your_action(game: Game, action: Action) -> str:
    """An action's label before its target is chosen: "Steal: claim Captain, take 2"."""
    return _label(game, action, action_name(action))


def _action(game: Game, move: Move) -> str:
    assert move.action is not None
    name = action_name(move.action)
    target = f" {game.names[move.target]}" if move.target is not None else ""
    if move.action is Action.STEAL and move.target is not None:
        name, target = "Steal from", f" {game.names[move.target]}"
    return _label(game, move.action, f"{name}{target}")


def _label(game: Game, action: Action, label: str) -> str:
    spec = next((s for s in game.variant.actions if s.action is action), None)
    parts = []
    if spec is not None and spec.claim is not None:
        parts.append(f"claim {'no ' if spec.inverted else ''}{spec.claim}")
    if spec is not None and spec.cost:
        parts.append(f"pay {spec.cost}")
    if action in _GAIN:
        parts.append(_GAIN[action])
    return f"{label}: {', '.join(parts)}" if parts else label


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
