"""Moves written as a rulebook writes them ("Ely claims Duke: tax", "Cris challenges").

Why a grammar of our own: scenario files are written by teachers, not programmers, so a move is
the sentence a teacher would say at the table. The grammar is small and forgiving (any
capitalisation, optional articles and colon, a few synonyms) but never guesses a choice that
matters: a card to lose or keep must be named unless the rules leave only one.

A phrase does not know the game state. "No one challenges" becomes a `MovePhrase` with a
`group`; the scenario runner expands it into one PASS per player the engine asks, because the
engine polls players one at a time and only it knows who is asked.

    <name> claims <card>: <action> [<target>]    Ely claims Assassin: assassinate Maria
    <name>: <action> [<target>]                  Maria: coup Ely    Maria: foreign aid
    <name> <verb-form of action> [<target>]      Maria takes income    Cris steals from Ely
    <name> challenges [<name>['s] [<card>]]      Cris challenges    Cris challenges Ely's Duke
    <name> passes | does not challenge | doesn't block
    <name> blocks [with] [<card>]                Maria blocks with the Contessa
    <name> claims <card> to block                Ely claims Ambassador to block
    <name> shows [<card>]                        Ely shows Duke
    <name> loses [<card>]                        Cris loses Assassin
    <name> keeps <card> [and <card>]             Cris keeps Assassin and Captain
                                                 (a draft: Ana keeps Duke [from the draft set])
    no one challenges | nobody blocks | everyone passes   (also "no one else ...")

Variant moves:
    <name> chooses Loyalist|Reformist            Reformation: the starting allegiance
    <name>: convert [<target>]                   Reformation: oneself for 1, another for 2
    <name>: embezzle                             Reformation (claims NOT to hold the Duke)
    <name> shows <card> and <card>               an embezzler shows every card
    <name> claims Inquisitor: examine <target>   then "<target> shows <card>" to the Inquisitor
    <name> hands the card back | forces a swap   the Inquisitor's choice
    <name> claims Inquisitor: peek               forum variant
    <name> claims Graverobber | Treaty           out-of-turn claims; "no one claims" passes
    <name> pays 5                                McGuire: instead of losing a card
    <name>: vengeance <target>                   McGuire: the couped Vengeance Assassin
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from trainer.engine.cards import Action, Character
from trainer.engine.errors import InvalidMoveError
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import action_word, card_name
from trainer.engine.rules import Variant
from trainer.engine.variants import BASE, VENGEANCE_SPEC, title_words
from trainer.i18n import N_, tr
from trainer.i18n.said import Said, SaidValueError, as_said, said
from trainer.scenarios.hints import card_named, closest, did_you_mean

Scope = Literal["challenge", "block", "claim", "any"]


class MoveTextError(InvalidMoveError):
    """The text is not a move this grammar can read; the message says what was expected.

    `said` keeps the message's key and fields, so a lesson checked once (in English) is
    reported in each reader's language; `str()` is the message in the current language."""

    def __init__(self, message: str | Said) -> None:
        self.said = as_said(message)
        super().__init__(self.said.words())

    def __str__(self) -> str:
        return self.said.words()

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.said,))


@dataclass(frozen=True, slots=True)
class MovePhrase:
    """A parsed move sentence.

    Exactly one of `move` and `group` is set. `group` is a whole window declining ("no one
    challenges"): its scope says which windows it may close. A single PASS may carry a scope too
    ("Maria does not block"), so a script that has drifted from the story is caught.
    `infer_card` marks a BLOCK/SHOW/LOSE written without a card ("Ely shows"), which the runner
    completes only if the rules leave one choice.
    """

    text: str
    move: Move | None = None
    group: Scope | None = None
    scope: Scope = "any"
    challenged: int | None = None
    challenged_card: Character | None = None
    infer_card: bool = False

    @property
    def player(self) -> int | None:
        return self.move.player if self.move is not None else None


_ARTICLES = {"a", "an", "the", "his", "her", "their", "its", "my", "your"}

_GROUP = re.compile(
    r"^(?:(?:no one|no-one|noone|nobody|none)(?: else)? (?P<verb>challenges?|blocks?|pass(?:es)?)"
    r"|(?:everyone|everybody|all|all players|all others|the others|others)(?: else)?"
    r" (?:passes|pass|declines?)"
    r"|(?:no one|no-one|noone|nobody|none)(?: else)? (?P<claim>claims?)"
    r"|no (?P<noun>challenges?|blocks?|claims?))$"
)

# First words of an action phrase ("takes income", "launches a coup against Ely").
_FILLERS = ("takes", "take", "launches", "launch", "collects", "collect", "uses", "use",
            "does", "makes", "attempts to", "tries to", "wants to")

_ACTION_WORDS: tuple[tuple[str, Action], ...] = (
    ("foreign aid", Action.FOREIGN_AID), ("foreign-aid", Action.FOREIGN_AID),
    ("foreign_aid", Action.FOREIGN_AID),
    ("income", Action.INCOME),
    ("coups", Action.COUP), ("coup", Action.COUP),
    ("taxes", Action.TAX), ("tax", Action.TAX),
    ("assassinates", Action.ASSASSINATE), ("assassinate", Action.ASSASSINATE),
    ("assassination", Action.ASSASSINATE),
    ("steals", Action.STEAL), ("steal", Action.STEAL),
    ("exchanges", Action.EXCHANGE), ("exchange", Action.EXCHANGE),
    ("examines", Action.EXAMINE), ("examine", Action.EXAMINE),
    ("interrogates", Action.EXAMINE), ("interrogate", Action.EXAMINE),
    ("converts", Action.CONVERT), ("convert", Action.CONVERT),
    ("embezzles", Action.EMBEZZLE), ("embezzle", Action.EMBEZZLE),
    ("peeks", Action.PEEK), ("peek", Action.PEEK),
    ("avenges", Action.VENGEANCE), ("vengeance", Action.VENGEANCE),
)
_PREPOSITIONS = ("from", "against", "on", "of", "at")
# "Maria: tax 3 coins" is accepted when the number is one the action can take.
_AMOUNTS: dict[Action, tuple[int, ...]] = {
    Action.INCOME: (1,), Action.FOREIGN_AID: (2,), Action.TAX: (3,), Action.STEAL: (2, 1),
}

_VERBS = ("claims", "challenges", "passes", "declines", "blocks", "shows", "loses", "keeps",
          "does not", "doesn't", "chooses", "pays", "hands", "forces")

# The grammar's own examples: file syntax, so the same English in every reader's language.
_EXAMPLES = ("'Ely claims Duke: tax', 'Maria: income', 'Maria: coup Ely', 'Cris challenges', "
             "'Maria passes', 'Maria blocks with Contessa', 'Ely shows Duke', "
             "'Cris loses Assassin', 'Cris keeps Assassin and Captain', 'No one challenges'")


def parse_move_text(text: str, names: Sequence[str], variant: Variant = BASE) -> MovePhrase:
    """Read one move sentence for a game whose seats are `names` (in seat order)."""
    if not isinstance(text, str) or not text.strip():
        raise MoveTextError(said(N_("a move is a sentence such as {examples}"),
                                 examples=_EXAMPLES))
    s = _normalise(text)
    g = _GROUP.match(s.lower())
    # A player's name first (longest name first): a player may be called "A", "No", "All" or
    # "Everyone", and "No passes" is then that player passing. Only a sentence that does not
    # read as the named player's move falls back to the group words ("No one challenges").
    seat, rest = _name_prefix(s, names)
    if seat is not None:
        try:
            return _player_move(text, s, names, variant, seat, rest)
        except MoveTextError:
            if g is None:
                raise
    if g:
        word = g.group("verb") or g.group("claim") or g.group("noun") or "pass"
        scope: Scope = ("challenge" if word.startswith("challenge")
                        else "block" if word.startswith("block")
                        else "claim" if word.startswith("claim") else "any")
        return MovePhrase(text=text, group=scope)
    first = s.split(" ")[0].rstrip(":,")
    raise MoveTextError(said(
        N_("a move starts with a player's name ({names}) or with 'No one' / 'Everyone'; "
           "{word} is neither{hint}"),
        names=", ".join(names), word=repr(first), hint=did_you_mean(first, names)))


def _player_move(text: str, s: str, names: Sequence[str], variant: Variant, seat: int,
                 rest: str) -> MovePhrase:
    rest = rest.strip()
    if rest.startswith(":"):
        rest = rest[1:].strip()
    if not rest:
        raise MoveTextError(said(N_("say what {name} does, e.g. {examples}"), name=names[seat],
                                 examples=_EXAMPLES))
    return _Parser(text, s, names, variant, seat).verb(rest)


def _either(numbers: Sequence[int]) -> str:
    """The numbers an action may take, as a choice in the reader's words ("2 or 1")."""
    words = [str(n) for n in numbers]
    if len(words) < 2:
        return "".join(words)
    return tr("{first} or {last}", first=", ".join(words[:-1]), last=words[-1])


@dataclass
class _Parser:
    """Reads what one player does. It works in lowercase; a message quotes the writer's own
    words with the writer's capitals (`_quoted`), found again in `source`, the sentence as
    written (normalised)."""

    text: str
    source: str
    names: Sequence[str]
    variant: Variant
    seat: int

    @property
    def who(self) -> str:
        return self.names[self.seat]

    def _orig(self, fragment: str) -> str:
        """`fragment` (lowercased by the parser) as the writer wrote it: the same stretch of
        the sentence with its capitals; as it is when the sentence does not hold it."""
        at = self.source.lower().find(fragment.lower()) if fragment else -1
        return self.source[at:at + len(fragment)] if at >= 0 else fragment

    def _quoted(self, fragment: str) -> str:
        return repr(self._orig(fragment))

    def card(self, word: str) -> Character:
        """The card `word` names; a misspelt one is refused naming the cards there are."""
        word = word.strip().strip(",:")
        try:
            return card_named(self._orig(word))
        except SaidValueError as e:
            raise MoveTextError(e.said) from None

    def verb(self, rest: str) -> MovePhrase:
        words = _words(rest)
        head = words[0]
        tail = words[1:]
        if head in ("claims", "claim", "claiming"):
            return self.claim(tail)
        if head in ("challenges", "challenge", "calls"):
            return self.challenge(tail)
        if head in ("passes", "pass", "declines", "decline"):
            scope = self._pass_scope(tail, allow_empty=True)
            return MovePhrase(self.text, Move.pass_(self.seat), scope=scope)
        if head in ("does", "do", "did") and tail[:1] == ["not"]:
            return MovePhrase(self.text, Move.pass_(self.seat),
                              scope=self._pass_scope(tail[1:], allow_empty=False))
        if head in ("doesn't", "don't", "didn't"):
            return MovePhrase(self.text, Move.pass_(self.seat),
                              scope=self._pass_scope(tail, allow_empty=False))
        if head in ("blocks", "block"):
            if tail[:1] and tail[0] in ("with", "using", "claiming", "by"):
                tail = tail[1:]
            return self.card_move(MoveKind.BLOCK, tail)
        if head in ("shows", "show", "proves", "prove"):
            if tail[:1] == ["with"]:
                tail = tail[1:]
            return self.card_move(MoveKind.SHOW, tail)
        if head in ("loses", "lose"):
            return self.card_move(MoveKind.LOSE, tail)
        if head == "turns" and tail[:1] == ["over"]:
            return self.card_move(MoveKind.LOSE, tail[1:])
        if head in ("keeps", "keep"):
            return self.keep(tail)
        if head in ("chooses", "choose", "picks", "joins", "sides"):
            return self.choose(tail)
        if head in ("pays", "pay"):
            if tail and not all(w in ("5", "five", "coins", "isk", "instead") for w in tail):
                raise MoveTextError(said(N_("write '{name} pays 5' (instead of losing a card)"),
                                         name=self.who))
            return MovePhrase(self.text, Move.pay(self.seat))
        if head in ("hands", "returns", "gives") or words[:2] == ["lets", "go"]:
            return MovePhrase(self.text, Move.choose(self.seat, "return"))
        if head in ("forces", "swaps", "force", "swap"):
            return MovePhrase(self.text, Move.choose(self.seat, "swap"))
        if head == "takes" and tail[:1] == ["vengeance"]:
            return self.action(["vengeance"] + tail[1:], claim=None)
        return self.action(words, claim=None)

    def choose(self, words: list[str]) -> MovePhrase:
        words = [w for w in words if w not in _ARTICLES and w not in ("to", "be")]
        for side in ("loyalist", "reformist"):
            if words and words[0].rstrip("s") == side:
                return MovePhrase(self.text, Move.choose(self.seat, side.capitalize()))
        if words and words[0] in ("return", "swap"):
            return MovePhrase(self.text, Move.choose(self.seat, words[0]))
        raise MoveTextError(said(N_("write '{name} chooses Loyalist' or '{name} chooses "
                                    "Reformist'"), name=self.who))

    # -- the pieces
    def claim(self, words: list[str]) -> MovePhrase:
        if not words:
            raise MoveTextError(said(N_("say which character {name} claims, e.g. "
                                        "'{name} claims Duke: tax'"), name=self.who))
        words = _lead(words)  # "claims the Duke"; later words may name a player called "A"
        if not words:
            raise MoveTextError(said(N_("say which character {name} claims"), name=self.who))
        if words[0] == "no" and len(words) > 1:  # "claims no Duke: embezzle"
            words = words[1:]
            card = self.card(words[0].rstrip(":,"))
            rest = [w for w in words[1:] if w not in (":", "-", ",")]
            if rest in (["embezzle"], ["embezzles"], ["embezzlement"]):
                return MovePhrase(self.text, Move.act(self.seat, Action.EMBEZZLE))
            raise MoveTextError(said(
                N_("'{written} claims no {card}' is only for embezzlement: "
                   "'{name} claims no Duke: embezzle'"),
                written=self._orig(self.who), card=self._orig(card.value), name=self.who))
        card_word, sep = words[0], ""
        if card_word.endswith((":", ",")):
            card_word, sep = card_word[:-1], card_word[-1]
        card = self.card(card_word)
        rest = words[1:]
        if not sep and rest and rest[0] in (":", "-", "\u2013", ",", "to", "and", "for"):
            rest = rest[1:]
        if rest in (["block"], ["blocks"], ["block", "it"], ["blocks", "it"]):
            return MovePhrase(self.text, Move.block(self.seat, card))
        if rest[:1] == ["reduce"]:
            return MovePhrase(self.text, Move.block(self.seat, card))
        if rest[:1] in (["ambassador"], ["contessa"]) and card in (Character.TREATY,):
            rest = rest[1:]
        if card in (Character.GRAVEROBBER, Character.TREATY) and (
                not rest or rest[0] in ("override", "overrides", "to")):
            return MovePhrase(self.text, Move.claim(self.seat, card))
        if not rest:
            raise MoveTextError(said(
                N_("say what the {card} claim is for: '{name} claims {card_id}: <action>' or "
                   "'{name} claims {card_id} to block'"),
                card=partial(card_name, card), name=self.who, card_id=card.value))
        return self.action(rest, claim=card)

    def action(self, words: list[str], claim: Character | None) -> MovePhrase:
        phrase = " ".join(words)
        for filler in _FILLERS:
            if phrase.startswith(filler + " "):
                phrase = phrase[len(filler) + 1:]
                break
        phrase = " ".join(_lead(phrase.split(" ")))
        found = next(((w, a) for w, a in _ACTION_WORDS
                      if phrase == w or phrase.startswith(w + " ")), None)
        if found is None:
            first = phrase.split(" ")[0] if phrase else ""
            vocab = list(_VERBS) + [w for w, _ in _ACTION_WORDS]
            if closest(first, vocab) is not None:
                raise MoveTextError(said(N_("cannot read {words} as something {name} does{hint}"),
                                         words=self._quoted(phrase), name=self.who,
                                         hint=did_you_mean(first, vocab)))
            raise MoveTextError(said(N_("cannot read {words} as something {name} does; a move "
                                        "reads like {examples}"),
                                     words=self._quoted(phrase), name=self.who,
                                     examples=_EXAMPLES))
        word, action = found
        named = partial(action_word, action)  # the action in the reader's words
        rest = phrase[len(word):].strip()
        if action is Action.EXCHANGE:
            rest = re.sub(r"^cards?(?: with court(?: deck)?)?$", "", rest).strip()
        amount = re.match(r"^(\d+) coins?\b", rest)
        if amount:
            n, allowed = int(amount.group(1)), _AMOUNTS.get(action, ())
            if n not in allowed and allowed:
                raise MoveTextError(said(N_("{action} does not take {n} coin(s); it takes "
                                            "{allowed}"),
                                         action=named, n=n, allowed=partial(_either, allowed)))
            if n not in allowed:
                raise MoveTextError(said(N_("{action} does not take {n} coin(s)"),
                                         action=named, n=n))
            rest = rest[amount.end():].strip()
        try:
            spec = VENGEANCE_SPEC if action is Action.VENGEANCE and self.variant.specials \
                else self.variant.spec(action)
        except KeyError:
            raise MoveTextError(said(N_("{action} is not an action of {rules}"), action=named,
                                     rules=partial(title_words, self.variant))) from None
        target = None
        if rest and not spec.targeted and not spec.other_cost:
            raise MoveTextError(said(N_("unexpected words {words} after {action_id} ({action} "
                                        "takes no target)"),
                                     words=self._quoted(rest),
                                     action_id=self._quoted(action.label), action=named))
        if rest:
            first, _, more = rest.partition(" ")
            if first in _PREPOSITIONS:
                rest = more
            target, after = self._target(rest)
            if target is None:
                word = rest.split(" ")[0]
                raise MoveTextError(said(
                    N_("{action} whom? {word} is not a player ({names}){hint}"), action=named,
                    word=self._quoted(word), names=", ".join(self.names),
                    hint=did_you_mean(word, self.names)))
            if after.strip():
                raise MoveTextError(said(N_("unexpected words {words} after the target {name}"),
                                         words=self._quoted(after.strip()),
                                         name=self.names[target]))
        # In a sentence to write ('Maria: coup <player>') the action stays the grammar's word.
        if spec.targeted and target is None:
            raise MoveTextError(said(N_("{action} needs a target: '{name}: {action_id} "
                                        "<player>'"),
                                     action=named, name=self.who, action_id=action.label))
        needed = spec.claim  # the character the action claims (None: nothing is claimed)
        if claim is not None and needed is None:
            aim = f" {self.names[target]}" if target is not None else ""
            raise MoveTextError(said(N_("{action} needs no character, so nothing is claimed; "
                                        "write '{name}: {action_id}{target}'"),
                                     action=named, name=self.who, action_id=action.label,
                                     target=aim))
        if claim is not None and needed is not None and spec.inverted:
            raise MoveTextError(said(N_("{action} claims NOT to hold the {card}: write "
                                        "'{name}: {action_id}'"),
                                     action=named, card=partial(card_name, needed),
                                     name=self.who, action_id=action.label))
        if claim is not None and needed is not None and claim != needed:
            raise MoveTextError(said(N_("{action} is claimed with the {card}, not the "
                                        "{claimed}"),
                                     action=named, card=partial(card_name, needed),
                                     claimed=partial(card_name, claim)))
        return MovePhrase(self.text, Move.act(self.seat, action, target))

    def _target(self, text: str) -> tuple[int | None, str]:
        """The player `text` starts with, and the rest. A name comes before the articles a
        sentence may hold ("steal from the Ely"), so that a player called "A" is a player."""
        seat, after = _name_prefix(text, self.names)
        if seat is None:
            seat, after = _name_prefix(" ".join(_lead(text.split(" "))), self.names)
        return seat, after

    def challenge(self, words: list[str]) -> MovePhrase:
        challenged = card = None
        if words:
            seat, after = self._target(" ".join(words))
            if seat is not None:
                challenged = seat
                after = after.strip()
                after = after[2:].strip() if after.startswith("'s") else after
                words = after.split(" ") if after else []
        words = [w for w in words if w not in _ARTICLES]
        for w in words:
            if w in ("claim", "block", "bluff", "him", "her", "them", "it", "that"):
                continue
            try:
                card = self.card(w)
            except MoveTextError:
                raise MoveTextError(said(
                    N_("cannot read {words} after 'challenges'; write '{name} challenges' or "
                       "'{name} challenges <name>'s <card>'"),
                    words=self._quoted(" ".join(words)), name=self.who)) from None
        return MovePhrase(self.text, Move.challenge(self.seat), challenged=challenged,
                          challenged_card=card)

    def card_move(self, kind: MoveKind, words: list[str]) -> MovePhrase:
        if kind is MoveKind.SHOW and "to" in words:  # "shows Contessa to Ana" (or to "A")
            at = len(words) - 1 - words[::-1].index("to")
            seat, after = self._target(" ".join(words[at + 1:]))
            if seat is not None and not after.strip():
                words = words[:at]
        words = [w for w in words if w not in _ARTICLES]
        if words and words[-1] in ("card", "influence"):
            words = words[:-1]
        if not words:
            return MovePhrase(self.text, Move(kind, self.seat), infer_card=True)
        joined = " ".join(words)
        parts = [p for p in re.split(r"\s*(?:,|&|\+|\band\b)\s*", joined) if p]
        if kind is MoveKind.SHOW and len(parts) > 1:  # an embezzler shows every card
            return MovePhrase(self.text, Move(kind, self.seat,
                                              cards=tuple(sorted(self.card(p) for p in parts))))
        if len(parts) > 1:  # a block or a loss (a show of several cards returned above)
            one = (N_("{name} can block with one card; found {cards}") if kind is MoveKind.BLOCK
                   else N_("{name} can lose one card; found {cards}"))
            raise MoveTextError(said(one, name=self.who, cards=self._quoted(joined)))
        return MovePhrase(self.text, Move(kind, self.seat, character=self.card(joined)))

    def keep(self, words: list[str]) -> MovePhrase:
        joined = " ".join(w for w in words if w not in _ARTICLES)
        joined = re.sub(r"\s*from (?:draft )?set$", "", joined)  # as the engine words a draft
        parts = [p for p in re.split(r"\s*(?:,|&|\+|\band\b)\s*", joined) if p]
        if not parts:
            raise MoveTextError(said(N_("say which cards {name} keeps, e.g. "
                                        "'{name} keeps Assassin and Captain'"), name=self.who))
        return MovePhrase(self.text, Move.keep(self.seat, tuple(self.card(p) for p in parts)))

    def _pass_scope(self, words: list[str], allow_empty: bool) -> Scope:
        words = [w for w in words if w not in ("to", "it", "on", "this", "that")]
        if not words and allow_empty:
            return "any"
        if words and words[0].startswith("challenge"):
            return "challenge"
        if words and words[0].startswith("block"):
            return "block"
        raise MoveTextError(said(N_("write '{name} passes', '{name} does not challenge' or "
                                    "'{name} does not block'"), name=self.who))


# -- helpers
def _normalise(text: str) -> str:
    s = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").strip()
    s = re.sub(r"[.!]+$", "", s)
    s = re.sub(r"\s*:\s*", ": ", s)
    return re.sub(r"\s+", " ", s).strip()


def _lead(words: list[str]) -> list[str]:
    """`words` without the articles they start with ("a coup", "the Duke")."""
    i = 0
    while i < len(words) and words[i] in _ARTICLES:
        i += 1
    return words[i:]


def _words(text: str) -> list[str]:
    return text.lower().split()


def _name_prefix(text: str, names: Sequence[str]) -> tuple[int | None, str]:
    """The seat whose name starts `text` (case-insensitive, longest name first) and the rest."""
    low = text.lower()
    for seat in sorted(range(len(names)), key=lambda i: -len(names[i])):
        name = names[seat].lower()
        if low.startswith(name) and (len(low) == len(name) or low[len(name)] in " :,'"):
            return seat, text[len(name):]
    return None, text

