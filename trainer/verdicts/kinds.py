"""The kind of a decision: one enum for the quiz, the review, the kiosk and the answer record.

Why one enum: the same five decisions (judge a claim, block, take your turn's action, lose a
card, keep cards from an exchange) are asked by the quiz, graded in a played game's review,
shown by the kiosk and saved with every answer; each used to list them itself, and one list
carried a kind nothing ever produced. The review also meets decisions the quiz never asks
(answering a challenge of your own claim, and the rest): they are kinds too, but no answer is
saved for them.
"""

from __future__ import annotations

from enum import StrEnum

from trainer.i18n import tr


class DecisionKind(StrEnum):
    """What the decider is asked. A `str`, so the database and CSV text are the value."""

    CHALLENGE = "challenge"  # challenge a claim or let it pass
    BLOCK = "block"  # block an action, and with which card
    BLUFF = "bluff"  # your turn's action, bluffs included
    LOSE = "lose"  # which card to turn face up
    KEEP = "keep"  # which cards to keep from an exchange
    ACTION = "action"  # a played game's turn action where no bluff was possible
    PROVE = "prove"  # show the card claimed, or give up an influence
    OTHER = "other"  # any other decision of a played game

    @property
    def answered(self) -> bool:
        """Whether an answer of this kind is saved (the kinds the quiz asks)."""
        return self in ANSWER_KINDS


# The kinds a learner's answer is saved under, in the order the bank describes them.
ANSWER_KINDS: tuple[DecisionKind, ...] = (
    DecisionKind.CHALLENGE, DecisionKind.BLOCK, DecisionKind.BLUFF, DecisionKind.LOSE,
    DecisionKind.KEEP,
)

# Early answer files listed a "counter" kind (a counteraction, which in Coup is a block);
# nothing ever saved one, but a hand-edited file may hold it, so it still reads as a block.
LEGACY_KINDS: dict[str, DecisionKind] = {"counter": DecisionKind.BLOCK}


def parse_kind(value: object, *, answered: bool = False) -> DecisionKind:
    """A stored or typed kind as the enum; ValueError naming what was expected otherwise.
    With `answered`, only the kinds an answer is saved under are taken."""
    text = str(value.value if isinstance(value, DecisionKind) else value).strip().lower()
    kind = LEGACY_KINDS.get(text)
    if kind is None:
        try:
            kind = DecisionKind(text)
        except ValueError:
            kind = None
    allowed = ANSWER_KINDS if answered else tuple(DecisionKind)
    if kind is None or kind not in allowed:
        raise ValueError(tr("{field}: expected one of {choices} (got {value})", field="kind",
                            choices=", ".join(k.value for k in allowed), value=repr(value)))
    return kind
