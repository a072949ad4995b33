"""The engine in words: what each decision asks, how a move reads with names, and why a move
cannot be played now.

Why apart from the state machine: these sentences are for people (lessons, error messages, the
Quiz page) and change with wording, while `trainer.engine.game` is the compiled hot path that
bots play millions of moves through. Only an illegal move comes here, so the inner loop never
pays for the English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trainer.engine.cards import Action, Allegiance, proves
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind, describe

if TYPE_CHECKING:
    from trainer.engine.game import Game

# Losing an influence, asked the same way on every page (the Play page, the Quiz, the
# end-game practice, the kiosk); the buttons say "Give up Duke". A loss with nothing to choose
# is never asked (`trainer.policies.runner.forced_loss`).
LOSE_LINE = "You lose an influence."
LOSE_QUESTION = "Which card do you give up? It turns face up."

PHASE_QUESTION: dict[Phase, str] = {
    Phase.ACTION: "choose an action",
    Phase.CHALLENGE_ACTION: "challenge the claim or pass",
    Phase.PROVE_ACTION: "show the claimed card or lose the challenge",
    Phase.BLOCK: "block or pass",
    Phase.CHALLENGE_BLOCK: "challenge the block or pass",
    Phase.PROVE_BLOCK: "show the claimed card or lose the challenge",
    Phase.LOSE: "choose an influence to lose",
    Phase.EXCHANGE: "choose the cards to keep",
    Phase.DRAFT: "choose one card of their draft set to keep",
    Phase.ALLEGIANCE: "choose the starting allegiance",
    Phase.EXAMINE_OFFER: "choose a card to show the Inquisitor",
    Phase.EXAMINE_DECIDE: "hand the card back or force a swap",
    Phase.CLAIM: "claim the character or pass",
    Phase.CHALLENGE_CLAIM: "challenge the claim or pass",
    Phase.PROVE_CLAIM: "show the claimed card or lose the challenge",
    Phase.VENGEANCE: "choose the target of the Vengeance",
    Phase.OVER: "nothing: the game is over",
}

KIND_PHRASE: dict[MoveKind, str] = {
    MoveKind.ACT: "taking an action",
    MoveKind.CHALLENGE: "a challenge",
    MoveKind.PASS: "passing",
    MoveKind.BLOCK: "a block",
    MoveKind.SHOW: "showing a card",
    MoveKind.LOSE: "losing an influence",
    MoveKind.KEEP: "keeping cards",
    MoveKind.CHOOSE: "a choice",
    MoveKind.OFFER: "showing a card to the Inquisitor",
    MoveKind.CLAIM: "a claim",
    MoveKind.PAY: "paying instead of losing a card",
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

# Each action as a verb phrase, for "Ben wants to ..." and "Ben claims the Captain to ...", with
# `{target}` where its target goes. Why not the action's name: the rulebook names actions with
# nouns ("foreign aid", "tax"), and "Ben wants to foreign aid" is no sentence.
ACTION_VERBS: dict[Action, tuple[str, str]] = {  # (without a target, with one)
    Action.INCOME: ("take income", "take income"),
    Action.FOREIGN_AID: ("take foreign aid", "take foreign aid"),
    Action.COUP: ("launch a coup", "launch a coup against {target}"),
    Action.TAX: ("take tax", "take tax"),
    Action.ASSASSINATE: ("assassinate", "assassinate {target}"),
    Action.STEAL: ("steal", "steal from {target}"),
    Action.EXCHANGE: ("exchange", "exchange"),
    Action.EXAMINE: ("examine", "examine {target}"),
    Action.CONVERT: ("convert", "convert {target}"),
    Action.EMBEZZLE: ("embezzle", "embezzle"),
    Action.PEEK: ("peek at the Court deck", "peek at the Court deck"),
    Action.VENGEANCE: ("take Vengeance", "take Vengeance on {target}"),
}
# Each action as a noun phrase, for "Fay blocks your ...": "blocks your assassinate" is no
# sentence either. The target is named only when it is not the blocker (a block is made by the
# player the action is aimed at, so "Fay blocks your steal from Fay" says Fay twice).
ACTION_NOUNS: dict[Action, tuple[str, str]] = {
    Action.INCOME: ("income", "income"),
    Action.FOREIGN_AID: ("foreign aid", "foreign aid"),
    Action.COUP: ("coup", "coup against {target}"),
    Action.TAX: ("tax", "tax"),
    Action.ASSASSINATE: ("assassination", "assassination of {target}"),
    Action.STEAL: ("steal", "steal from {target}"),
    Action.EXCHANGE: ("exchange", "exchange"),
    Action.EXAMINE: ("examination", "examination of {target}"),
    Action.CONVERT: ("conversion", "conversion of {target}"),
    Action.EMBEZZLE: ("embezzlement", "embezzlement"),
    Action.PEEK: ("peek", "peek"),
    Action.VENGEANCE: ("Vengeance", "Vengeance on {target}"),
}
# Treason's words for the actions it renames (`Options.action_label`), in both forms.
_TREASON_VERBS: dict[Action, tuple[str, str]] = {
    Action.EXAMINE: ("interrogate", "interrogate {target}"),
    Action.CONVERT: ("change team", "make {target} change team"),
}
_TREASON_NOUNS: dict[Action, tuple[str, str]] = {
    Action.EXAMINE: ("interrogation", "interrogation of {target}"),
    Action.CONVERT: ("change of team", "change of team for {target}"),
}


def action_verb(game: Game, action: Action, target: str | None = None) -> str:
    """The action as a verb phrase in the game's words: "take foreign aid", "steal from Ana"
    (`target` is the target's name as the sentence says it: "you" for the reader)."""
    words = (_TREASON_VERBS if game.options.vocabulary == "treason" else {}).get(
        action, ACTION_VERBS[action])
    return words[0] if target is None else words[1].format(target=target)


def action_noun(game: Game, action: Action, target: str | None = None) -> str:
    """The action as a noun phrase in the game's words: "foreign aid", "assassination",
    "steal from Ana"."""
    words = (_TREASON_NOUNS if game.options.vocabulary == "treason" else {}).get(
        action, ACTION_NOUNS[action])
    return words[0] if target is None else words[1].format(target=target)


def second_person(text: str) -> str:
    """A sentence about the seat named "You" made second person: "You passes" becomes
    "You pass", "assassinate You" "assassinate you", "not You's decision" "not your
    decision". Names are capitalised and verbs follow the name, so only those words move."""
    text = text.replace(f"{SECOND_PERSON}'s", "your")
    text = re.sub(rf"(?<=\w ){SECOND_PERSON}\b", "you", text)
    match = re.match(rf"{SECOND_PERSON} (\w+)\b", text)
    if match:
        verb = match.group(1)
        if re.search(r"(ss|sh|ch|x)es$", verb):
            verb = verb[:-2]
        elif verb.endswith("s") and not verb.endswith("ss"):
            verb = verb[:-1]
        text = f"{SECOND_PERSON} {verb}{text[match.end():]}"
    return text


def describe_move(game: Game, move: Move) -> str:
    """The move as a phrase with the players' names, in the variant's words (in the second
    person for a seat named "You")."""
    text = _describe_move(game, move)
    return second_person(text) if SECOND_PERSON in game.names else text


def _describe_move(game: Game, move: Move) -> str:
    names = game.names
    variant = game.variant
    text = describe(move, names.__getitem__,
                    {s.action: s.claim for s in variant.actions if s.claim and not s.inverted})
    if move.kind is MoveKind.BLOCK and move.character in variant.reducers:
        return f"{names[move.player]} claims {move.character} to reduce the steal to 1"
    if game.options.vocabulary == "treason":
        if move.kind is MoveKind.ACT and move.action is not None:
            word = game.options.action_label(move.action)
            text = text.replace(f": {move.action.label}", f": {word}", 1)
        if move.kind is MoveKind.CHOOSE and move.choice in (Allegiance.LOYALIST,
                                                           Allegiance.REFORMIST):
            return f"{names[move.player]} joins the {str(move.choice).lower()} team"
    if move.kind is MoveKind.ACT and move.action is Action.CONVERT and move.target is None:
        return f"{text} (self)"
    if move.kind is MoveKind.ACT and move.action is Action.EMBEZZLE:
        return f"{names[move.player]} claims no Duke: embezzle"
    if (move.kind is MoveKind.KEEP and variant.draft and move.cards is not None
            and len(move.cards) == 1 and game.phase is Phase.DRAFT):
        return f"{names[move.player]} keeps {move.cards[0]} from the draft set"
    return text


def why_illegal(game: Game, move: Any) -> Illegality:
    """Why `move` cannot be played now (for a move that is not legal)."""
    if not isinstance(move, Move):
        return Illegality(f"{move!r} is not a move")
    if game.is_over:
        if game.winner is None:
            return Illegality("the game is over: it ended in a tie")
        return Illegality(f"the game is over: {game.names[game.winner]} has won")
    if not 0 <= move.player < game.n:
        return Illegality(f"there is no player {move.player}", "player")
    who = game.names[move.player]
    owner = game.names[game.decider]
    question = PHASE_QUESTION[game.phase]
    avenging = game.phase is Phase.VENGEANCE and move.player == game.decider
    if not game.alive[move.player] and not avenging:
        return Illegality(f"{who} is out of the game and makes no more decisions", "player")
    if move.player != game.decider:
        return Illegality(f"it is {owner}'s decision now ({question}), not {who}'s", "player")
    proving = game.phase in _PROVING
    expected = {m.kind for m in game.legal_moves()}
    if move.kind not in expected and not (proving and move.kind is MoveKind.SHOW):
        return Illegality(f"{owner} must {question} now; {KIND_PHRASE[move.kind]} is not "
                          f"possible", "kind")
    if move.kind is MoveKind.ACT:
        return _why_action_illegal(game, move)
    spec = game.spec
    pending = game.pending
    hand = game.hidden[move.player]
    if move.kind is MoveKind.BLOCK and spec is not None:
        blockers = " or ".join(spec.blockers)
        return Illegality(f"{spec.action.label} can be blocked only with {blockers}",
                          "character")
    if move.kind is MoveKind.SHOW and spec is not None and pending is not None:
        if game.phase is Phase.PROVE_ACTION and spec.inverted:
            if spec.claim is not None and any(proves(c, spec.claim) for c in hand):
                return Illegality(f"{who} holds a {spec.claim} and must concede the challenge",
                                  "kind")
            return Illegality(f"{who} must show every face-down card ({', '.join(hand)}) or "
                              f"concede", "cards")
        claim = (spec.claim if game.phase is Phase.PROVE_ACTION else game.block_char
                 if game.phase is Phase.PROVE_BLOCK else pending.claim)
        if move.character is None or move.character.role != claim and (
                move.character != claim):
            return Illegality(f"the claim was {claim}; showing {move.character} does not "
                              f"prove it", "character")
        return Illegality(f"{who} has no {claim} to show", "character")
    if move.kind is MoveKind.LOSE or move.kind is MoveKind.OFFER:
        verb = "lose" if move.kind is MoveKind.LOSE else "show"
        return Illegality(f"{who} has no face-down {move.character} to {verb} "
                          f"(face down: {', '.join(hand)})", "character")
    if move.kind is MoveKind.PAY:
        pay = game.variant.pay_instead
        return Illegality(f"paying {pay} coins instead of losing a card needs {pay} coins; "
                          f"{who} has {game.coins[move.player]}", "kind")
    if move.kind is MoveKind.KEEP:
        if game.phase is Phase.DRAFT:
            return Illegality(f"{who} must keep one card of "
                              f"{', '.join(game.offers[move.player])}", "cards")
        k = len(hand)
        cards = move.cards or ()
        if len(cards) != k:
            return Illegality(f"{who} must keep exactly {k} card(s), not {len(cards)}", "cards")
        return Illegality(f"{', '.join(cards)} are not among "
                          f"{', '.join(game.exchange_pool())}", "cards")
    if move.kind is MoveKind.CHOOSE:
        options = " or ".join(repr(m.choice) for m in game.legal_moves())
        return Illegality(f"{who} must choose {options}, not {move.choice!r}", "choice")
    if move.kind is MoveKind.CLAIM and pending is not None:
        return Illegality(f"only a {pending.claim} claim is possible now", "character")
    return Illegality(f"{describe_move(game, move)} is not legal now")


def _why_action_illegal(game: Game, move: Move) -> Illegality:
    who = game.names[move.player]
    coins = game.coins[move.player]
    variant = game.variant
    if game.phase is Phase.VENGEANCE:
        anyone = "a player" if variant.self_target else "another player"
        return Illegality(f"the Vengeance must target {anyone} still in the game", "target")
    spec = next((s for s in variant.actions if s.action == move.action), None)
    if spec is None:
        return Illegality(f"{move.action} is not an action of {variant.title}", "action")
    if coins >= variant.forced_coup_at and move.action != Action.COUP:
        return Illegality(f"{who} starts the turn with {coins} coins and must launch a Coup "
                          f"(forced at {variant.forced_coup_at} or more)", "action")
    cost = spec.other_cost if spec.other_cost and move.target is not None else spec.cost
    if coins < cost:
        return Illegality(f"{spec.action.label} costs {cost} coins and {who} has {coins}",
                          "action")
    refuse = game.options.gainless_actions == "refused"
    if refuse and spec.action is Action.EMBEZZLE and not game.reserve:
        return Illegality("the Treasury Reserve is empty: embezzling would gain nothing, and "
                          "at this table an action that can gain nothing is a pass, which is "
                          "not allowed", "action")
    if refuse and game.treasury == 0 and spec.action in (Action.INCOME, Action.FOREIGN_AID,
                                                         Action.TAX):
        return Illegality(f"the Treasury is empty: {spec.action.label} would gain nothing, and "
                          f"at this table an action that can gain nothing is a pass, which is "
                          f"not allowed", "action")
    if spec.targeted or spec.other_cost:
        if move.target is None and not spec.other_cost:
            return Illegality(f"{spec.action.label} needs a target", "target")
        if move.target == move.player and not (
                variant.self_target and spec.action in (Action.COUP, Action.ASSASSINATE)):
            return Illegality(f"{who} cannot target themselves (no self-targeting: the rules "
                              f"say \"another player\")", "target")
        if (refuse and spec.action is Action.STEAL and move.target is not None
                and 0 <= move.target < game.n and game.alive[move.target]
                and not game.coins[move.target]):
            return Illegality(f"{game.names[move.target]} has no coins: stealing would gain "
                              f"nothing, and at this table an action that can gain nothing is "
                              f"a pass, which is not allowed", "target")
        if move.target is not None and (
                not 0 <= move.target < game.n or not game.alive[move.target]):
            return Illegality("the target must be a player still in the game", "target")
        if spec.targeted and move.target not in game.hostile_targets(move.player):
            return Illegality(f"{who} cannot {spec.action.label} a player of the same "
                              f"allegiance ({game.sides[move.player]}) while another "
                              f"allegiance is in the game", "target")
    elif move.target is not None:
        return Illegality(f"{spec.action.label} does not take a target", "target")
    return Illegality(f"{describe_move(game, move)} is not legal now")
