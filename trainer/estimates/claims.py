"""Which claim a pending challenge window is about.

Why one function: the estimate report, the rollouts' split of a challenge into "it was a
bluff" and "it was true", and the question bank all ask the same question of a game, and must
agree on it — in particular that an embezzlement (a claim *not* to hold the Duke) is no claim
to a character, so it has no "holds the card" truth of that kind.
"""

from __future__ import annotations

from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase


def pending_claim(game: Game) -> tuple[int | None, Character | None]:
    """(claimant, character) of the claim the pending decision may challenge, or
    (None, None) when the decision is not a challenge of a character claim."""
    d = game.pending
    if d is None:
        return None, None
    if d.phase is Phase.CHALLENGE_ACTION and d.action is not None:
        spec = game.variant.spec(d.action)
        return (None, None) if spec.inverted else (d.actor, d.claim)
    if d.phase is Phase.CHALLENGE_BLOCK:
        return d.blocker, d.block_character
    if d.phase is Phase.CHALLENGE_CLAIM:
        return d.claimant, d.claim
    return None, None
