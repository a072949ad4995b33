"""An option of a question as the reader sees it, in the reader's language.

Why apart from `building.option_label`: that label is an identifier, English for good (the
bank stores it, an answer records it as its `action`, and the verdict compares by it), so the
words a reader sees are made again from the option's move at the item's position, through the
catalogue: never by rewriting the stored English.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.engine.cards import Action
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import action_title, card_name
from trainer.i18n import tr, trc


def and_list(parts: Sequence[str]) -> str:
    """"Duke", "Duke and Captain", "Duke, Captain and Contessa" in the reader's language
    ("" for none)."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return tr("{first} and {last}", first=", ".join(parts[:-1]), last=parts[-1])


def option_words(game: Game, move: Move) -> str:
    """The words of `building.option_label(game, move)` in the reader's language: the move
    as the learner would say it, in the second person."""
    names = game.names
    k = move.kind
    if k is MoveKind.ACT and move.action is not None:
        spec = game.variant.spec(move.action)
        word = _action_word(game, move.action)
        if move.action is Action.STEAL and move.target is not None:
            word = tr("{action} from {target}", action=word, target=names[move.target])
        elif move.target is not None:
            word = tr("{action} {target}", action=word, target=names[move.target])
        if spec.claim and not spec.inverted:
            return tr("{option} (claim {card})", option=word, card=card_name(spec.claim))
        return word
    if k is MoveKind.CHALLENGE:
        return trc("button", "Challenge")
    if k is MoveKind.PASS:
        d = game.pending
        return (tr("Don't block") if d is not None and d.phase is Phase.BLOCK
                else trc("button", "Pass"))
    if k is MoveKind.BLOCK and move.character is not None:
        return tr("Block with {card}", card=card_name(move.character))
    if k is MoveKind.LOSE and move.character is not None:
        return tr("Lose your {card}", card=card_name(move.character))
    if k is MoveKind.KEEP:
        return tr("Keep {cards}", cards=and_list([card_name(c) for c in move.cards or ()]))
    return game.describe(move)


def _action_word(game: Game, action: Action) -> str:
    """The action's name as the option's first word: the catalogue's title, or the table's
    own vocabulary's word (Treason's) as the game says it."""
    if game.options.vocabulary == "treason":
        word = game.options.action_label(action)
        return word[:1].upper() + word[1:]
    return action_title(action)
