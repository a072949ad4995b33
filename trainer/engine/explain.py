"""The engine in words: what each decision asks, how a move reads with names, and why a move
cannot be played now, in the reader's language.

Why apart from the state machine: these sentences are for people (lessons, error messages, the
Quiz page) and change with wording, while `trainer.engine.game` is the compiled hot path that
bots play millions of moves through. Only an illegal move comes here, so the inner loop never
pays for the words.

Why whole sentences: every sentence is one catalogued message per move kind and action, one
for the reader's own seat ("You pass") and one for another player ("Ben passes"), with fields
for the names, the target and the cards. A translation may reorder everything; nothing is
rewritten after translation. Two small slots are messages of their own, because a language
marks them differently from a bare name: the target of an action (`target_words`: "Ben",
"you"; Filipino "kay Ben", "sa iyo") and the owner of a blocked action (`owner_words`:
"Ben's", "your"; Filipino "ni Ben", "mo").

The reader: a seat named `SECOND_PERSON` ("You", the Play page's and a table's convention) is
the reader's own, and so is the seat passed as `reader` (a quiz item whose seats all have
names).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trainer.engine.cards import Action, Allegiance, Character, proves
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import action_word, allegiance_name, card_name
from trainer.i18n import N_, tr, trc

if TYPE_CHECKING:
    from collections.abc import Sequence

    from trainer.engine.game import Game

# Losing an influence, asked the same way on every page (the Play page, the Quiz, the
# end-game practice, the kiosk); the buttons say "Give up Duke". A loss with nothing to choose
# is never asked (`trainer.policies.runner.forced_loss`). Catalogued: show with `tr(...)`, or
# call `lose_line()` / `lose_question()`.
LOSE_LINE = N_("You lose an influence.")
LOSE_QUESTION = N_("Which card do you give up? It turns face up.")


def lose_line() -> str:
    return tr(LOSE_LINE)


def lose_question() -> str:
    return tr(LOSE_QUESTION)


# What each decision asks, as a bare phrase ("choose an action"): the Rules page's list of
# decisions, and the English of `Decision.question`. Catalogued: `phase_question` translates.
PHASE_QUESTION: dict[Phase, str] = {
    Phase.ACTION: N_("choose an action"),
    Phase.CHALLENGE_ACTION: N_("challenge the claim or pass"),
    Phase.PROVE_ACTION: N_("show the claimed card or lose the challenge"),
    Phase.BLOCK: N_("block or pass"),
    Phase.CHALLENGE_BLOCK: N_("challenge the block or pass"),
    Phase.PROVE_BLOCK: N_("show the claimed card or lose the challenge"),
    Phase.LOSE: N_("choose an influence to lose"),
    Phase.EXCHANGE: N_("choose the cards to keep"),
    Phase.DRAFT: N_("choose one card of their draft set to keep"),
    Phase.ALLEGIANCE: N_("choose the starting allegiance"),
    Phase.EXAMINE_OFFER: N_("choose a card to show the Inquisitor"),
    Phase.EXAMINE_DECIDE: N_("hand the card back or force a swap"),
    Phase.CLAIM: N_("claim the character or pass"),
    Phase.CHALLENGE_CLAIM: N_("challenge the claim or pass"),
    Phase.PROVE_CLAIM: N_("show the claimed card or lose the challenge"),
    Phase.VENGEANCE: N_("choose the target of the Vengeance"),
    Phase.OVER: N_("nothing: the game is over"),
}
# The same phrase put to the reader, where it differs ("your draft set").
_PHASE_QUESTION_YOURS: dict[Phase, str] = {
    Phase.DRAFT: N_("choose one card of your draft set to keep"),
}

# Who must decide what, as a whole sentence: (the reader's own seat, another player's).
_MUST: dict[Phase, tuple[str, str]] = {
    Phase.ACTION: (N_("You must choose an action"), N_("{name} must choose an action")),
    Phase.CHALLENGE_ACTION: (N_("You must challenge the claim or pass"),
                             N_("{name} must challenge the claim or pass")),
    Phase.PROVE_ACTION: (N_("You must show the claimed card or lose the challenge"),
                         N_("{name} must show the claimed card or lose the challenge")),
    Phase.BLOCK: (N_("You must block or pass"), N_("{name} must block or pass")),
    Phase.CHALLENGE_BLOCK: (N_("You must challenge the block or pass"),
                            N_("{name} must challenge the block or pass")),
    Phase.PROVE_BLOCK: (N_("You must show the claimed card or lose the challenge"),
                        N_("{name} must show the claimed card or lose the challenge")),
    Phase.LOSE: (N_("You must choose an influence to lose"),
                 N_("{name} must choose an influence to lose")),
    Phase.EXCHANGE: (N_("You must choose the cards to keep"),
                     N_("{name} must choose the cards to keep")),
    Phase.DRAFT: (N_("You must choose one card of your draft set to keep"),
                  N_("{name} must choose one card of their draft set to keep")),
    Phase.ALLEGIANCE: (N_("You must choose the starting allegiance"),
                       N_("{name} must choose the starting allegiance")),
    Phase.EXAMINE_OFFER: (N_("You must choose a card to show the Inquisitor"),
                          N_("{name} must choose a card to show the Inquisitor")),
    Phase.EXAMINE_DECIDE: (N_("You must hand the card back or force a swap"),
                           N_("{name} must hand the card back or force a swap")),
    Phase.CLAIM: (N_("You must claim the character or pass"),
                  N_("{name} must claim the character or pass")),
    Phase.CHALLENGE_CLAIM: (N_("You must challenge the claim or pass"),
                            N_("{name} must challenge the claim or pass")),
    Phase.PROVE_CLAIM: (N_("You must show the claimed card or lose the challenge"),
                        N_("{name} must show the claimed card or lose the challenge")),
    Phase.VENGEANCE: (N_("You must choose the target of the Vengeance"),
                      N_("{name} must choose the target of the Vengeance")),
    Phase.OVER: (N_("Nothing to decide: the game is over"),
                 N_("Nothing to decide: the game is over")),
}

# A kind of move as a noun phrase, for "... a block is not possible".
KIND_PHRASE: dict[MoveKind, str] = {
    MoveKind.ACT: N_("taking an action"),
    MoveKind.CHALLENGE: N_("a challenge"),
    MoveKind.PASS: N_("passing"),
    MoveKind.BLOCK: N_("a block"),
    MoveKind.SHOW: N_("showing a card"),
    MoveKind.LOSE: N_("losing an influence"),
    MoveKind.KEEP: N_("keeping cards"),
    MoveKind.CHOOSE: N_("a choice"),
    MoveKind.OFFER: N_("showing a card to the Inquisitor"),
    MoveKind.CLAIM: N_("a claim"),
    MoveKind.PAY: N_("paying instead of losing a card"),
}

_PROVING = (Phase.PROVE_ACTION, Phase.PROVE_BLOCK, Phase.PROVE_CLAIM)


@dataclass(frozen=True, slots=True)
class Illegality:
    """Why a move cannot be played: the sentence, and the part of the move at fault ("player",
    "kind", "action", "target", "character", "cards", "choice"; None: the move as a whole)."""

    reason: str
    field: str | None = None


# A seat with this name is the reader's own: its moves read in the second person.
SECOND_PERSON = "You"


# ---------------------------------------------------------------------------- small words
def seat_name(name: str) -> str:
    """A seat's name as shown: the reader's own seat ("You") in the reader's language."""
    return trc("seat", "You") if name == SECOND_PERSON else name


def target_words(name: str, reader: bool = False) -> str:
    """The target of an action inside a sentence: "Ben", or "you" for the reader."""
    return trc("target", "you") if reader else trc("target", "{name}", name=name)


def owner_words(name: str, reader: bool = False) -> str:
    """Whose action a block stops: "Ben's", or "your" for the reader."""
    return trc("owner", "your") if reader else trc("owner", "{name}'s", name=name)


def join_and(items: Sequence[str]) -> str:
    """["a", "b", "c"] -> "a, b and c" in the reader's language."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return tr("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def join_or(items: Sequence[str]) -> str:
    """["a", "b", "c"] -> "a, b or c" in the reader's language."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return tr("{first} or {last}", first=", ".join(items[:-1]), last=items[-1])


def cards_words(cards: Sequence[Character | str]) -> str:
    """Cards named in the reader's language and joined: "Duke and Captain"."""
    return join_and([card_name(c) for c in cards])


def phase_question(phase: Phase, reader: bool = False) -> str:
    """What a decision asks, as a bare phrase ("choose an action"), in the reader's
    language; `reader`: put to the reader ("your draft set")."""
    if reader and phase in _PHASE_QUESTION_YOURS:
        return tr(_PHASE_QUESTION_YOURS[phase])
    return tr(PHASE_QUESTION[phase])


def must_line(phase: Phase, name: str, reader: bool = False) -> str:
    """Who must decide what: "Ben must block or pass", "You must block or pass"."""
    yours, theirs = _MUST[phase]
    return tr(yours) if reader or name == SECOND_PERSON else tr(theirs, name=name)


def turn_line(name: str, reader: bool = False) -> str:
    """A player's turn to act: "Ben's turn: choose an action", "Your turn: choose an action"."""
    if reader or name == SECOND_PERSON:
        return tr("Your turn: choose an action")
    return tr("{name}'s turn: choose an action", name=name)


def decision_line(phase: Phase, name: str, reader: bool = False) -> str:
    """The status line of a table: whose turn or decision it is, and what it asks."""
    return turn_line(name, reader) if phase is Phase.ACTION else must_line(phase, name, reader)


def _pick(pair: tuple[str, str], reader: bool, name: str, **fields: Any) -> str:
    """The reader's sentence of `pair` or another player's, with the fields put in."""
    yours, theirs = pair
    return tr(yours, **fields) if reader else tr(theirs, name=name, **fields)


# ------------------------------------------------------------------------------ the moves
# An action taken, as the move list writes it: (action, claimed, targeted) -> (the reader's,
# another player's). `{card}` the character claimed, `{target}` from `target_words`.
_ACT: dict[tuple[Action, bool, bool], tuple[str, str]] = {
    (Action.INCOME, False, False): (N_("You: income"), N_("{name}: income")),
    (Action.FOREIGN_AID, False, False): (N_("You: foreign aid"), N_("{name}: foreign aid")),
    (Action.COUP, False, True): (N_("You: coup {target}"), N_("{name}: coup {target}")),
    (Action.TAX, True, False): (N_("You claim {card}: tax"), N_("{name} claims {card}: tax")),
    (Action.ASSASSINATE, True, True): (N_("You claim {card}: assassinate {target}"),
                                       N_("{name} claims {card}: assassinate {target}")),
    (Action.STEAL, True, True): (N_("You claim {card}: steal {target}"),
                                 N_("{name} claims {card}: steal {target}")),
    (Action.EXCHANGE, True, False): (N_("You claim {card}: exchange"),
                                     N_("{name} claims {card}: exchange")),
    (Action.EXAMINE, True, True): (N_("You claim {card}: examine {target}"),
                                   N_("{name} claims {card}: examine {target}")),
    (Action.CONVERT, False, True): (N_("You: convert {target}"),
                                    N_("{name}: convert {target}")),
    (Action.CONVERT, False, False): (N_("You: convert (self)"), N_("{name}: convert (self)")),
    (Action.EMBEZZLE, False, False): (N_("You claim no {card}: embezzle"),
                                      N_("{name} claims no {card}: embezzle")),
    (Action.PEEK, True, False): (N_("You claim {card}: peek"),
                                 N_("{name} claims {card}: peek")),
    (Action.VENGEANCE, False, True): (N_("You: vengeance {target}"),
                                      N_("{name}: vengeance {target}")),
}
# Treason's words for the actions it renames (`Options.vocabulary`).
_ACT_TREASON: dict[tuple[Action, bool, bool], tuple[str, str]] = {
    (Action.EXAMINE, True, True): (N_("You claim {card}: interrogate {target}"),
                                   N_("{name} claims {card}: interrogate {target}")),
    (Action.CONVERT, False, True): (N_("You: change team {target}"),
                                    N_("{name}: change team {target}")),
    (Action.CONVERT, False, False): (N_("You: change team (self)"),
                                     N_("{name}: change team (self)")),
}
# Any other shape (a move that is not legal, say): the action's bare name in `{action}`.
_ACT_ANY: dict[tuple[bool, bool], tuple[str, str]] = {
    (True, True): (N_("You claim {card}: {action} {target}"),
                   N_("{name} claims {card}: {action} {target}")),
    (True, False): (N_("You claim {card}: {action}"), N_("{name} claims {card}: {action}")),
    (False, True): (N_("You: {action} {target}"), N_("{name}: {action} {target}")),
    (False, False): (N_("You: {action}"), N_("{name}: {action}")),
}

_CHALLENGES = (N_("You challenge"), N_("{name} challenges"))
_PASSES = (N_("You pass"), N_("{name} passes"))
_BLOCKS = (N_("You block with {card}"), N_("{name} blocks with {card}"))
_REDUCES = (N_("You claim {card} to reduce the steal to 1"),
            N_("{name} claims {card} to reduce the steal to 1"))
_SHOWS = (N_("You show {cards}"), N_("{name} shows {cards}"))
_OFFERS = (N_("You show a card to the Inquisitor"), N_("{name} shows a card to the Inquisitor"))
_CLAIMS = (N_("You claim {card}"), N_("{name} claims {card}"))
_PAYS = (N_("You pay instead of losing a card"), N_("{name} pays instead of losing a card"))
_LOSES = (N_("You lose {card}"), N_("{name} loses {card}"))
_KEEPS = (N_("You keep {cards}"), N_("{name} keeps {cards}"))
_KEEPS_DRAFT = (N_("You keep {card} from the draft set"),
                N_("{name} keeps {card} from the draft set"))
_CHOICES: dict[str, tuple[str, str]] = {
    "return": (N_("You hand the card back"), N_("{name} hands the card back")),
    "swap": (N_("You force a swap with the Court deck"),
             N_("{name} forces a swap with the Court deck")),
}
_CHOOSES_SIDE = (N_("You choose {side}"), N_("{name} chooses {side}"))
_JOINS_TEAM: dict[str, tuple[str, str]] = {
    Allegiance.LOYALIST: (N_("You join the loyalist team"), N_("{name} joins the loyalist team")),
    Allegiance.REFORMIST: (N_("You join the reformist team"),
                           N_("{name} joins the reformist team")),
}
_CHOOSES = (N_("You choose {choice}"), N_("{name} chooses {choice}"))


def _is_reader(game: Game, seat: int | None, reader: int | None) -> bool:
    return seat is not None and (seat == reader or (
        0 <= seat < len(game.names) and game.names[seat] == SECOND_PERSON))


def _target(game: Game, seat: int, reader: int | None) -> str:
    if not 0 <= seat < len(game.names):
        return target_words(f"P{seat}")
    return target_words(game.names[seat], _is_reader(game, seat, reader))


def describe_move(game: Game, move: Move, reader: int | None = None) -> str:
    """The move as the move list writes it, with the players' names, in the variant's words
    and the reader's language: "Ely claims Duke: tax", "You pass". The seat named "You" (or
    the seat `reader`) reads in the second person."""
    names = game.names
    n = len(names)
    who = names[move.player] if 0 <= move.player < n else f"P{move.player}"
    mine = _is_reader(game, move.player, reader)
    variant = game.variant
    k = move.kind

    def say(pair: tuple[str, str], **fields: Any) -> str:
        return _pick(pair, mine, who, **fields)

    if k is MoveKind.ACT and move.action is not None:
        action = move.action
        if action is Action.EMBEZZLE:
            spec = next((s for s in variant.actions if s.action is action), None)
            denied = spec.claim if spec is not None and spec.claim else Character.DUKE
            return say(_ACT[(action, False, False)], card=card_name(denied))
        claims = {s.action: s.claim for s in variant.actions if s.claim and not s.inverted}
        claim = claims.get(action)
        key = (action, claim is not None, move.target is not None)
        treason = game.options.vocabulary == "treason"
        pair = (_ACT_TREASON.get(key) if treason else None) or _ACT.get(key)
        fields: dict[str, Any] = {}
        if claim is not None:
            fields["card"] = card_name(claim)
        if move.target is not None:
            fields["target"] = _target(game, move.target, reader)
        if pair is None:
            pair = _ACT_ANY[(claim is not None, move.target is not None)]
            fields["action"] = (tr(_TREASON_WORD[action]) if treason and action in _TREASON_WORD
                                else action_word(action))
        return say(pair, **fields)
    if k is MoveKind.CHALLENGE:
        return say(_CHALLENGES)
    if k is MoveKind.PASS:
        return say(_PASSES)
    if k is MoveKind.BLOCK:
        card = card_name(move.character or "")
        return say(_REDUCES if move.character in variant.reducers else _BLOCKS, card=card)
    if k is MoveKind.SHOW:
        shown = cards_words(move.cards) if move.cards is not None else card_name(
            move.character or "")
        return say(_SHOWS, cards=shown)
    if k is MoveKind.OFFER:
        return say(_OFFERS)
    if k is MoveKind.CLAIM:
        return say(_CLAIMS, card=card_name(move.character or ""))
    if k is MoveKind.PAY:
        return say(_PAYS)
    if k is MoveKind.CHOOSE:
        choice = move.choice or ""
        if choice in _CHOICES:
            return say(_CHOICES[choice])
        if choice in (Allegiance.LOYALIST, Allegiance.REFORMIST):
            if game.options.vocabulary == "treason":
                return say(_JOINS_TEAM[choice])
            return say(_CHOOSES_SIDE, side=allegiance_name(Allegiance(choice)))
        return say(_CHOOSES, choice=choice)
    if k is MoveKind.LOSE:
        return say(_LOSES, card=card_name(move.character or ""))
    cards = move.cards or ()
    if variant.draft and len(cards) == 1 and game.phase is Phase.DRAFT:
        return say(_KEEPS_DRAFT, card=card_name(cards[0]))
    return say(_KEEPS, cards=cards_words(cards))


# ------------------------------------------------------------------- a decision in words
# What a pending action is, as whole sentences for the decisions about it (the Quiz, the Play
# page, rooms, the kiosk): "Ben wants to take foreign aid.", "Ana claims the Captain to steal
# from you.", "Ben blocks your foreign aid with the Duke."
_WANTS: dict[tuple[Action, bool], tuple[str, str]] = {
    (Action.INCOME, False): (N_("You want to take income."),
                             N_("{name} wants to take income.")),
    (Action.FOREIGN_AID, False): (N_("You want to take foreign aid."),
                                  N_("{name} wants to take foreign aid.")),
    (Action.COUP, False): (N_("You want to launch a coup."), N_("{name} wants to launch a coup.")),
    (Action.COUP, True): (N_("You want to launch a coup against {target}."),
                          N_("{name} wants to launch a coup against {target}.")),
    (Action.TAX, False): (N_("You want to take tax."), N_("{name} wants to take tax.")),
    (Action.ASSASSINATE, False): (N_("You want to assassinate."),
                                  N_("{name} wants to assassinate.")),
    (Action.ASSASSINATE, True): (N_("You want to assassinate {target}."),
                                 N_("{name} wants to assassinate {target}.")),
    (Action.STEAL, False): (N_("You want to steal."), N_("{name} wants to steal.")),
    (Action.STEAL, True): (N_("You want to steal from {target}."),
                           N_("{name} wants to steal from {target}.")),
    (Action.EXCHANGE, False): (N_("You want to exchange."), N_("{name} wants to exchange.")),
    (Action.EXAMINE, False): (N_("You want to examine."), N_("{name} wants to examine.")),
    (Action.EXAMINE, True): (N_("You want to examine {target}."),
                             N_("{name} wants to examine {target}.")),
    (Action.CONVERT, False): (N_("You want to convert."), N_("{name} wants to convert.")),
    (Action.CONVERT, True): (N_("You want to convert {target}."),
                             N_("{name} wants to convert {target}.")),
    (Action.EMBEZZLE, False): (N_("You want to embezzle."), N_("{name} wants to embezzle.")),
    (Action.PEEK, False): (N_("You want to peek at the Court deck."),
                           N_("{name} wants to peek at the Court deck.")),
    (Action.VENGEANCE, False): (N_("You want to take Vengeance."),
                                N_("{name} wants to take Vengeance.")),
    (Action.VENGEANCE, True): (N_("You want to take Vengeance on {target}."),
                               N_("{name} wants to take Vengeance on {target}.")),
}
_WANTS_TREASON: dict[tuple[Action, bool], tuple[str, str]] = {
    (Action.EXAMINE, False): (N_("You want to interrogate."), N_("{name} wants to interrogate.")),
    (Action.EXAMINE, True): (N_("You want to interrogate {target}."),
                             N_("{name} wants to interrogate {target}.")),
    (Action.CONVERT, False): (N_("You want to change team."), N_("{name} wants to change team.")),
    (Action.CONVERT, True): (N_("You want to make {target} change team."),
                             N_("{name} wants to make {target} change team.")),
}
_CLAIMS_TO: dict[tuple[Action, bool], tuple[str, str]] = {
    (Action.TAX, False): (N_("You claim the {card} to take tax."),
                          N_("{name} claims the {card} to take tax.")),
    (Action.ASSASSINATE, False): (N_("You claim the {card} to assassinate."),
                                  N_("{name} claims the {card} to assassinate.")),
    (Action.ASSASSINATE, True): (N_("You claim the {card} to assassinate {target}."),
                                 N_("{name} claims the {card} to assassinate {target}.")),
    (Action.STEAL, False): (N_("You claim the {card} to steal."),
                            N_("{name} claims the {card} to steal.")),
    (Action.STEAL, True): (N_("You claim the {card} to steal from {target}."),
                           N_("{name} claims the {card} to steal from {target}.")),
    (Action.EXCHANGE, False): (N_("You claim the {card} to exchange."),
                               N_("{name} claims the {card} to exchange.")),
    (Action.EXAMINE, False): (N_("You claim the {card} to examine."),
                              N_("{name} claims the {card} to examine.")),
    (Action.EXAMINE, True): (N_("You claim the {card} to examine {target}."),
                             N_("{name} claims the {card} to examine {target}.")),
    (Action.PEEK, False): (N_("You claim the {card} to peek at the Court deck."),
                           N_("{name} claims the {card} to peek at the Court deck.")),
}
_CLAIMS_TO_TREASON: dict[tuple[Action, bool], tuple[str, str]] = {
    (Action.EXAMINE, False): (N_("You claim the {card} to interrogate."),
                              N_("{name} claims the {card} to interrogate.")),
    (Action.EXAMINE, True): (N_("You claim the {card} to interrogate {target}."),
                             N_("{name} claims the {card} to interrogate {target}.")),
}
_CLAIMS_FOR = (N_("You claim the {card} to take the action: {action}."),
               N_("{name} claims the {card} to take the action: {action}."))
_CLAIMS_BARE = (N_("You claim the {card}."), N_("{name} claims the {card}."))
# A block, named once by its blocker: (action, targeted) -> (the reader blocks, another does).
_BLOCKS_ACTION: dict[tuple[Action, bool], tuple[str, str]] = {
    (Action.FOREIGN_AID, False): (N_("You block {owner} foreign aid with the {card}."),
                                  N_("{name} blocks {owner} foreign aid with the {card}.")),
    (Action.STEAL, False): (N_("You block {owner} steal with the {card}."),
                            N_("{name} blocks {owner} steal with the {card}.")),
    (Action.STEAL, True): (N_("You block {owner} steal from {target} with the {card}."),
                           N_("{name} blocks {owner} steal from {target} with the {card}.")),
    (Action.ASSASSINATE, False): (N_("You block {owner} assassination with the {card}."),
                                  N_("{name} blocks {owner} assassination with the {card}.")),
    (Action.ASSASSINATE, True): (
        N_("You block {owner} assassination of {target} with the {card}."),
        N_("{name} blocks {owner} assassination of {target} with the {card}.")),
    (Action.VENGEANCE, False): (N_("You block {owner} Vengeance with the {card}."),
                                N_("{name} blocks {owner} Vengeance with the {card}.")),
    (Action.VENGEANCE, True): (N_("You block {owner} Vengeance on {target} with the {card}."),
                               N_("{name} blocks {owner} Vengeance on {target} with the "
                                  "{card}.")),
}
_BLOCKS_ANY = (N_("You block {owner} action ({action}) with the {card}."),
               N_("{name} blocks {owner} action ({action}) with the {card}."))

_TREASON_WORD: dict[Action, str] = {
    Action.EXAMINE: N_("interrogate"),
    Action.CONVERT: N_("change team"),
}


def _words_of(game: Game, table: dict[tuple[Action, bool], tuple[str, str]],
              treason: dict[tuple[Action, bool], tuple[str, str]],
              key: tuple[Action, bool]) -> tuple[str, str] | None:
    if game.options.vocabulary == "treason" and key in treason:
        return treason[key]
    return table.get(key)


def vocabulary_word(vocabulary: str, action: Action) -> str:
    """An action's bare name in a table's vocabulary (`Options.vocabulary`): "examine", or
    Treason's "interrogate", in the reader's language."""
    if vocabulary == "treason" and action in _TREASON_WORD:
        return tr(_TREASON_WORD[action])
    return action_word(action)


def _action_name(game: Game, action: Action) -> str:
    return vocabulary_word(game.options.vocabulary, action)


def wants_line(game: Game, actor: int, action: Action, target: int | None = None,
               reader: int | None = None) -> str:
    """"Ben wants to take foreign aid.": an action that claims no character."""
    fields: dict[str, Any] = {}
    if target is not None:
        fields["target"] = _target(game, target, reader)
    pair = _words_of(game, _WANTS, _WANTS_TREASON, (action, target is not None)) or \
        _WANTS[(action, False)]
    fields = fields if "{target}" in pair[1] else {}
    return _pick(pair, _is_reader(game, actor, reader), game.names[actor], **fields)


def claims_line(game: Game, claimant: int, card: Character | str,
                action: Action | None = None, target: int | None = None,
                reader: int | None = None) -> str:
    """"Ana claims the Captain to steal from you.": a claim and what it is for (`action`
    None: a claim on its own, "Ana claims the Graverobber.")."""
    mine = _is_reader(game, claimant, reader)
    who = game.names[claimant]
    if action is None:
        return _pick(_CLAIMS_BARE, mine, who, card=card_name(card))
    fields: dict[str, Any] = {"card": card_name(card)}
    pair = _words_of(game, _CLAIMS_TO, _CLAIMS_TO_TREASON, (action, target is not None))
    if pair is None:
        return _pick(_CLAIMS_FOR, mine, who, action=_action_name(game, action), **fields)
    if target is not None:
        fields["target"] = _target(game, target, reader)
    return _pick(pair, mine, who, **fields)


def blocks_line(game: Game, blocker: int, actor: int, action: Action, card: Character | str,
                target: int | None = None, reader: int | None = None) -> str:
    """"Ben blocks your foreign aid with the Duke.": the block names its blocker once, so the
    target is named only when it is not the blocker."""
    aimed = None if target in (None, blocker) else target
    fields: dict[str, Any] = {
        "card": card_name(card),
        "owner": owner_words(game.names[actor], _is_reader(game, actor, reader)),
    }
    pair = _BLOCKS_ACTION.get((action, aimed is not None))
    if pair is None:
        pair = _BLOCKS_ANY
        fields["action"] = _action_name(game, action)
    elif aimed is not None:
        fields["target"] = _target(game, aimed, reader)
    return _pick(pair, _is_reader(game, blocker, reader), game.names[blocker], **fields)


# The old phrase tables, kept for callers that still glue phrases (English, catalogued):
# prefer `wants_line`, `claims_line` and `blocks_line`, which are whole sentences.
ACTION_VERBS: dict[Action, tuple[str, str]] = {  # (without a target, with one)
    Action.INCOME: (N_("take income"), N_("take income")),
    Action.FOREIGN_AID: (N_("take foreign aid"), N_("take foreign aid")),
    Action.COUP: (N_("launch a coup"), N_("launch a coup against {target}")),
    Action.TAX: (N_("take tax"), N_("take tax")),
    Action.ASSASSINATE: (N_("assassinate"), N_("assassinate {target}")),
    Action.STEAL: (N_("steal"), N_("steal from {target}")),
    Action.EXCHANGE: (N_("exchange"), N_("exchange")),
    Action.EXAMINE: (N_("examine"), N_("examine {target}")),
    Action.CONVERT: (N_("convert"), N_("convert {target}")),
    Action.EMBEZZLE: (N_("embezzle"), N_("embezzle")),
    Action.PEEK: (N_("peek at the Court deck"), N_("peek at the Court deck")),
    Action.VENGEANCE: (N_("take Vengeance"), N_("take Vengeance on {target}")),
}
ACTION_NOUNS: dict[Action, tuple[str, str]] = {
    Action.INCOME: (N_("income"), N_("income")),
    Action.FOREIGN_AID: (N_("foreign aid"), N_("foreign aid")),
    Action.COUP: (N_("coup"), N_("coup against {target}")),
    Action.TAX: (N_("tax"), N_("tax")),
    Action.ASSASSINATE: (N_("assassination"), N_("assassination of {target}")),
    Action.STEAL: (N_("steal"), N_("steal from {target}")),
    Action.EXCHANGE: (N_("exchange"), N_("exchange")),
    Action.EXAMINE: (N_("examination"), N_("examination of {target}")),
    Action.CONVERT: (N_("conversion"), N_("conversion of {target}")),
    Action.EMBEZZLE: (N_("embezzlement"), N_("embezzlement")),
    Action.PEEK: (N_("peek"), N_("peek")),
    Action.VENGEANCE: (N_("Vengeance"), N_("Vengeance on {target}")),
}
_TREASON_VERBS: dict[Action, tuple[str, str]] = {
    Action.EXAMINE: (N_("interrogate"), N_("interrogate {target}")),
    Action.CONVERT: (N_("change team"), N_("make {target} change team")),
}
_TREASON_NOUNS: dict[Action, tuple[str, str]] = {
    Action.EXAMINE: (N_("interrogation"), N_("interrogation of {target}")),
    Action.CONVERT: (N_("change of team"), N_("change of team for {target}")),
}


def action_verb(game: Game, action: Action, target: str | None = None) -> str:
    """The action as a verb phrase in the game's words: "take foreign aid", "steal from Ana"
    (`target` is the target's name as the sentence says it: "you" for the reader)."""
    words = (_TREASON_VERBS if game.options.vocabulary == "treason" else {}).get(
        action, ACTION_VERBS[action])
    return tr(words[0]) if target is None else tr(words[1], target=target)


def action_noun(game: Game, action: Action, target: str | None = None) -> str:
    """The action as a noun phrase in the game's words: "foreign aid", "assassination",
    "steal from Ana"."""
    words = (_TREASON_NOUNS if game.options.vocabulary == "treason" else {}).get(
        action, ACTION_NOUNS[action])
    return tr(words[0]) if target is None else tr(words[1], target=target)


def _say(game: Game, seat: int, yours: str, theirs: str, **fields: Any) -> str:
    """A sentence about `seat`: the reader's sentence (the seat named "You") or another
    player's (`{name}`), so that no English is rewritten into the second person."""
    if 0 <= seat < len(game.names) and game.names[seat] == SECOND_PERSON:
        return tr(yours, **fields)
    name = game.names[seat] if 0 <= seat < len(game.names) else f"P{seat}"
    return tr(theirs, name=name, **fields)


def why_illegal(game: Game, move: Any) -> Illegality:
    """Why `move` cannot be played now (for a move that is not legal), in the reader's
    language (the seat named "You" in the second person)."""
    if not isinstance(move, Move):
        return Illegality(tr("{move} is not a move", move=repr(move)))
    if game.is_over:
        if game.winner is None:
            return Illegality(tr("the game is over: it ended in a tie"))
        return Illegality(_say(game, game.winner, N_("the game is over: you have won"),
                               N_("the game is over: {name} has won")))
    if not 0 <= move.player < game.n:
        return Illegality(tr("there is no player {number}", number=move.player), "player")
    who = game.names[move.player]
    owner = game.names[game.decider]
    question = phase_question(game.phase)
    avenging = game.phase is Phase.VENGEANCE and move.player == game.decider
    if not game.alive[move.player] and not avenging:
        return Illegality(_say(game, move.player,
                               N_("you are out of the game and make no more decisions"),
                               N_("{name} is out of the game and makes no more decisions")),
                          "player")
    if move.player != game.decider:
        if owner == SECOND_PERSON:
            reason = tr("it is your decision now ({question}), not {other}'s",
                        question=question, other=who)
        elif who == SECOND_PERSON:
            reason = tr("it is {owner}'s decision now ({question}), not yours",
                        owner=owner, question=question)
        else:
            reason = tr("it is {owner}'s decision now ({question}), not {other}'s",
                        owner=owner, question=question, other=who)
        return Illegality(reason, "player")
    proving = game.phase in _PROVING
    expected = {m.kind for m in game.legal_moves()}
    if move.kind not in expected and not (proving and move.kind is MoveKind.SHOW):
        kind = tr(KIND_PHRASE[move.kind])
        return Illegality(_say(game, game.decider,
                               N_("you must {question} now; {kind} is not possible"),
                               N_("{name} must {question} now; {kind} is not possible"),
                               question=phase_question(game.phase, owner == SECOND_PERSON),
                               kind=kind), "kind")
    if move.kind is MoveKind.ACT:
        return _why_action_illegal(game, move)
    spec = game.spec
    pending = game.pending
    hand = game.hidden[move.player]
    p = move.player
    if move.kind is MoveKind.BLOCK and spec is not None:
        return Illegality(tr("{action} can be blocked only with {cards}",
                             action=_action_name(game, spec.action),
                             cards=join_or([card_name(c) for c in spec.blockers])),
                          "character")
    if move.kind is MoveKind.SHOW and spec is not None and pending is not None:
        if game.phase is Phase.PROVE_ACTION and spec.inverted:
            if spec.claim is not None and any(proves(c, spec.claim) for c in hand):
                return Illegality(_say(game, p, N_("you hold a {card} and must concede the "
                                                   "challenge"),
                                       N_("{name} holds a {card} and must concede the "
                                          "challenge"), card=card_name(spec.claim)), "kind")
            return Illegality(_say(game, p, N_("you must show every face-down card ({cards}) "
                                               "or concede"),
                                   N_("{name} must show every face-down card ({cards}) or "
                                      "concede"), cards=", ".join(map(card_name, hand))),
                              "cards")
        claim = (spec.claim if game.phase is Phase.PROVE_ACTION else game.block_char
                 if game.phase is Phase.PROVE_BLOCK else pending.claim)
        if move.character is None or move.character.role != claim and (
                move.character != claim):
            return Illegality(tr("the claim was {claim}; showing {card} does not prove it",
                                 claim=card_name(claim or ""),
                                 card=card_name(move.character or "")), "character")
        return Illegality(_say(game, p, N_("you have no {card} to show"),
                               N_("{name} has no {card} to show"),
                               card=card_name(claim or "")), "character")
    if move.kind is MoveKind.LOSE or move.kind is MoveKind.OFFER:
        face_down = ", ".join(map(card_name, hand))
        card = card_name(move.character or "")
        if move.kind is MoveKind.LOSE:
            reason = _say(game, p, N_("you have no face-down {card} to lose (face down: "
                                      "{cards})"),
                          N_("{name} has no face-down {card} to lose (face down: {cards})"),
                          card=card, cards=face_down)
        else:
            reason = _say(game, p, N_("you have no face-down {card} to show (face down: "
                                      "{cards})"),
                          N_("{name} has no face-down {card} to show (face down: {cards})"),
                          card=card, cards=face_down)
        return Illegality(reason, "character")
    if move.kind is MoveKind.PAY:
        pay = game.variant.pay_instead
        return Illegality(_say(game, p, N_("paying {pay} coins instead of losing a card needs "
                                           "{pay} coins; you have {coins}"),
                               N_("paying {pay} coins instead of losing a card needs {pay} "
                                  "coins; {name} has {coins}"),
                               pay=pay, coins=game.coins[p]), "kind")
    if move.kind is MoveKind.KEEP:
        if game.phase is Phase.DRAFT:
            return Illegality(_say(game, p, N_("you must keep one card of {cards}"),
                                   N_("{name} must keep one card of {cards}"),
                                   cards=", ".join(map(card_name, game.offers[p]))), "cards")
        k = len(hand)
        cards = move.cards or ()
        if len(cards) != k:
            return Illegality(_say(game, p, N_("you must keep exactly {k} card(s), not {n}"),
                                   N_("{name} must keep exactly {k} card(s), not {n}"),
                                   k=k, n=len(cards)), "cards")
        return Illegality(tr("{cards} are not among {pool}",
                             cards=", ".join(map(card_name, cards)),
                             pool=", ".join(map(card_name, game.exchange_pool()))), "cards")
    if move.kind is MoveKind.CHOOSE:
        options = join_or([repr(m.choice) for m in game.legal_moves()])
        return Illegality(_say(game, p, N_("you must choose {options}, not {choice}"),
                               N_("{name} must choose {options}, not {choice}"),
                               options=options, choice=repr(move.choice)), "choice")
    if move.kind is MoveKind.CLAIM and pending is not None:
        return Illegality(tr("only a {card} claim is possible now",
                             card=card_name(pending.claim or "")), "character")
    return Illegality(tr("{move} is not legal now", move=describe_move(game, move)))


def _why_action_illegal(game: Game, move: Move) -> Illegality:
    p = move.player
    coins = game.coins[p]
    variant = game.variant
    if game.phase is Phase.VENGEANCE:
        if variant.self_target:
            return Illegality(tr("the Vengeance must target a player still in the game"),
                              "target")
        return Illegality(tr("the Vengeance must target another player still in the game"),
                          "target")
    spec = next((s for s in variant.actions if s.action == move.action), None)
    if spec is None:
        assert move.action is not None
        return Illegality(tr("{action} is not an action of {rules}",
                             action=_action_name(game, move.action),
                             rules=variant_title(variant)), "action")
    action = _action_name(game, spec.action)
    if coins >= variant.forced_coup_at and move.action != Action.COUP:
        return Illegality(_say(game, p, N_("you start the turn with {coins} coins and must "
                                           "launch a Coup (forced at {forced} or more)"),
                               N_("{name} starts the turn with {coins} coins and must launch "
                                  "a Coup (forced at {forced} or more)"),
                               coins=coins, forced=variant.forced_coup_at), "action")
    cost = spec.other_cost if spec.other_cost and move.target is not None else spec.cost
    if coins < cost:
        return Illegality(_say(game, p, N_("{action} costs {cost} coins and you have {coins}"),
                               N_("{action} costs {cost} coins and {name} has {coins}"),
                               action=action, cost=cost, coins=coins), "action")
    refuse = game.options.gainless_actions == "refused"
    if refuse and spec.action is Action.EMBEZZLE and not game.reserve:
        return Illegality(tr("the Treasury Reserve is empty: embezzling would gain nothing, "
                             "and at this table an action that can gain nothing is a pass, "
                             "which is not allowed"), "action")
    if refuse and game.treasury == 0 and spec.action in (Action.INCOME, Action.FOREIGN_AID,
                                                         Action.TAX):
        return Illegality(tr("the Treasury is empty: {action} would gain nothing, and at this "
                             "table an action that can gain nothing is a pass, which is not "
                             "allowed", action=action), "action")
    if spec.targeted or spec.other_cost:
        if move.target is None and not spec.other_cost:
            return Illegality(tr("{action} needs a target", action=action), "target")
        if move.target == p and not (
                variant.self_target and spec.action in (Action.COUP, Action.ASSASSINATE)):
            return Illegality(_say(game, p, N_("you cannot target yourself (no "
                                               "self-targeting: the rules say \"another "
                                               "player\")"),
                                   N_("{name} cannot target themselves (no self-targeting: "
                                      "the rules say \"another player\")")), "target")
        if (refuse and spec.action is Action.STEAL and move.target is not None
                and 0 <= move.target < game.n and game.alive[move.target]
                and not game.coins[move.target]):
            return Illegality(_say(game, move.target,
                                   N_("you have no coins: stealing would gain nothing, and at "
                                      "this table an action that can gain nothing is a pass, "
                                      "which is not allowed"),
                                   N_("{name} has no coins: stealing would gain nothing, and "
                                      "at this table an action that can gain nothing is a "
                                      "pass, which is not allowed")), "target")
        if move.target is not None and (
                not 0 <= move.target < game.n or not game.alive[move.target]):
            return Illegality(tr("the target must be a player still in the game"), "target")
        if spec.targeted and move.target not in game.hostile_targets(p):
            side = game.sides[p]
            return Illegality(_say(game, p, N_("you cannot {action} a player of the same "
                                               "allegiance ({side}) while another allegiance "
                                               "is in the game"),
                                   N_("{name} cannot {action} a player of the same "
                                      "allegiance ({side}) while another allegiance is in "
                                      "the game"), action=action,
                                   side=allegiance_name(side)),
                              "target")
    elif move.target is not None:
        return Illegality(tr("{action} does not take a target", action=action), "target")
    return Illegality(tr("{move} is not legal now", move=describe_move(game, move)))


# ------------------------------------------------------------------------- rule sets
def variant_title(variant: Any) -> str:
    """A rule set's title in the reader's language: a registered rule set's own, or a
    composed one's ("Coup (base game) + paying 5 instead of a card")."""
    from trainer.engine.variants import title_words

    return title_words(variant)
