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

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from trainer.engine.cards import Action, Character
from trainer.engine.errors import InvalidMoveError
from trainer.engine.moves import Move, MoveKind
from trainer.engine.rules import Variant
from trainer.engine.variants import BASE, VENGEANCE_SPEC

Scope = Literal["challenge", "block", "claim", "any"]


class MoveTextError(InvalidMoveError):
    """The text is not a move this grammar can read; the message says what was expected."""


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

_EXAMPLES = ("'Ely claims Duke: tax', 'Maria: income', 'Maria: coup Ely', 'Cris challenges', "
             "'Maria passes', 'Maria blocks with Contessa', 'Ely shows Duke', "
             "'Cris loses Assassin', 'Cris keeps Assassin and Captain', 'No one challenges'")


def parse_move_text(text: str, names: Sequence[str], variant: Variant = BASE) -> MovePhrase:
    """Read one move sentence for a game whose seats are `names` (in seat order)."""
    if not isinstance(text, str) or not text.strip():
        raise MoveTextError(f"a move is a sentence such as {_EXAMPLES}")
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
    raise MoveTextError(
        f"a move starts with a player's name ({', '.join(names)}) or with 'No one' / "
        f"'Everyone'; {first!r} is neither{_did_you_mean(first, names)}"
    )


def _player_move(text: str, s: str, names: Sequence[str], variant: Variant, seat: int,
                 rest: str) -> MovePhrase:
    rest = rest.strip()
    if rest.startswith(":"):
        rest = rest[1:].strip()
    if not rest:
        raise MoveTextError(f"say what {names[seat]} does, e.g. {_EXAMPLES}")
    try:
        return _Parser(text, names, variant, seat).verb(rest)
    except MoveTextError as e:
        raise MoveTextError(_recase(str(e), s)) from None


def _recase(message: str, original: str) -> str:
    """Quote the writer's own words with their own capitals (the parser works in lowercase)."""
    low = original.lower()

    def fix(m: re.Match[str]) -> str:
        at = low.find(m.group(1).lower()) if m.group(1) else -1
        return f"'{original[at:at + len(m.group(1))]}'" if at >= 0 else m.group(0)

    return re.sub(r"'([^']*)'", fix, message)


@dataclass
class _Parser:
    text: str
    names: Sequence[str]
    variant: Variant
    seat: int

    @property
    def who(self) -> str:
        return self.names[self.seat]

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
            return self.card_move(MoveKind.BLOCK, tail, "block with")
        if head in ("shows", "show", "proves", "prove"):
            if tail[:1] == ["with"]:
                tail = tail[1:]
            return self.card_move(MoveKind.SHOW, tail, "show")
        if head in ("loses", "lose"):
            return self.card_move(MoveKind.LOSE, tail, "lose")
        if head == "turns" and tail[:1] == ["over"]:
            return self.card_move(MoveKind.LOSE, tail[1:], "lose")
        if head in ("keeps", "keep"):
            return self.keep(tail)
        if head in ("chooses", "choose", "picks", "joins", "sides"):
            return self.choose(tail)
        if head in ("pays", "pay"):
            if tail and not all(w in ("5", "five", "coins", "isk", "instead") for w in tail):
                raise MoveTextError(f"write '{self.who} pays 5' (instead of losing a card)")
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
        raise MoveTextError(f"write '{self.who} chooses Loyalist' or '{self.who} chooses "
                            f"Reformist'")

    # -- the pieces
    def claim(self, words: list[str]) -> MovePhrase:
        if not words:
            raise MoveTextError(f"say which character {self.who} claims, e.g. "
                                f"'{self.who} claims Duke: tax'")
        words = _lead(words)  # "claims the Duke"; later words may name a player called "A"
        if not words:
            raise MoveTextError(f"say which character {self.who} claims")
        if words[0] == "no" and len(words) > 1:  # "claims no Duke: embezzle"
            words = words[1:]
            card = _card(words[0].rstrip(":,"))
            rest = [w for w in words[1:] if w not in (":", "-", ",")]
            if rest in (["embezzle"], ["embezzles"], ["embezzlement"]):
                return MovePhrase(self.text, Move.act(self.seat, Action.EMBEZZLE))
            raise MoveTextError(f"'{self.who} claims no {card}' is only for embezzlement: "
                                f"'{self.who} claims no Duke: embezzle'")
        card_word, sep = words[0], ""
        if card_word.endswith((":", ",")):
            card_word, sep = card_word[:-1], card_word[-1]
        card = _card(card_word)
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
            raise MoveTextError(
                f"say what the {card} claim is for: '{self.who} claims {card}: <action>' or "
                f"'{self.who} claims {card} to block'"
            )
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
            hint = _did_you_mean(first, vocab) or f"; a move reads like {_EXAMPLES}"
            raise MoveTextError(f"cannot read {phrase!r} as something {self.who} does{hint}")
        word, action = found
        rest = phrase[len(word):].strip()
        if action is Action.EXCHANGE:
            rest = re.sub(r"^cards?(?: with court(?: deck)?)?$", "", rest).strip()
        amount = re.match(r"^(\d+) coins?\b", rest)
        if amount:
            n, allowed = int(amount.group(1)), _AMOUNTS.get(action, ())
            if n not in allowed:
                raise MoveTextError(
                    f"{action.label} does not take {n} coin(s)" + (
                        f"; it takes {' or '.join(map(str, allowed))}" if allowed else ""))
            rest = rest[amount.end():].strip()
        try:
            spec = VENGEANCE_SPEC if action is Action.VENGEANCE and self.variant.specials \
                else self.variant.spec(action)
        except KeyError:
            raise MoveTextError(f"{action.label} is not an action of {self.variant.title}") \
                from None
        target = None
        if rest and not spec.targeted and not spec.other_cost:
            raise MoveTextError(f"unexpected words {rest!r} after {action.label!r} "
                                f"({action.label} takes no target)")
        if rest:
            first, _, more = rest.partition(" ")
            if first in _PREPOSITIONS:
                rest = more
            target, after = self._target(rest)
            if target is None:
                word = rest.split(" ")[0]
                raise MoveTextError(
                    f"{action.label} whom? {word!r} is not a player ({', '.join(self.names)})"
                    f"{_did_you_mean(word, self.names)}")
            if after.strip():
                raise MoveTextError(f"unexpected words {after.strip()!r} after the target "
                                    f"{self.names[target]}")
        if spec.targeted and target is None:
            raise MoveTextError(f"{action.label} needs a target: '{self.who}: {action.label} "
                                f"<player>'")
        if claim is not None and spec.claim is None:
            aim = f" {self.names[target]}" if target is not None else ""
            raise MoveTextError(f"{action.label} needs no character, so nothing is claimed; "
                                f"write '{self.who}: {action.label}{aim}'")
        if claim is not None and spec.inverted:
            raise MoveTextError(f"{action.label} claims NOT to hold the {spec.claim}: write "
                                f"'{self.who}: {action.label}'")
        if claim is not None and claim != spec.claim:
            raise MoveTextError(f"{action.label} is claimed with the {spec.claim}, "
                                f"not the {claim}")
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
                card = _card(w)
            except MoveTextError:
                raise MoveTextError(
                    f"cannot read {' '.join(words)!r} after 'challenges'; write "
                    f"'{self.who} challenges' or '{self.who} challenges <name>'s <card>'"
                ) from None
        return MovePhrase(self.text, Move.challenge(self.seat), challenged=challenged,
                          challenged_card=card)

    def card_move(self, kind: MoveKind, words: list[str], verb: str) -> MovePhrase:
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
                                              cards=tuple(sorted(_card(p) for p in parts))))
        if len(parts) > 1:
            raise MoveTextError(f"{self.who} can {verb} one card; found {joined!r}")
        return MovePhrase(self.text, Move(kind, self.seat, character=_card(joined)))

    def keep(self, words: list[str]) -> MovePhrase:
        joined = " ".join(w for w in words if w not in _ARTICLES)
        joined = re.sub(r"\s*from (?:draft )?set$", "", joined)  # as the engine words a draft
        parts = [p for p in re.split(r"\s*(?:,|&|\+|\band\b)\s*", joined) if p]
        if not parts:
            raise MoveTextError(f"say which cards {self.who} keeps, e.g. "
                                f"'{self.who} keeps Assassin and Captain'")
        return MovePhrase(self.text, Move.keep(self.seat, tuple(_card(p) for p in parts)))

    def _pass_scope(self, words: list[str], allow_empty: bool) -> Scope:
        words = [w for w in words if w not in ("to", "it", "on", "this", "that")]
        if not words and allow_empty:
            return "any"
        if words and words[0].startswith("challenge"):
            return "challenge"
        if words and words[0].startswith("block"):
            return "block"
        raise MoveTextError(f"write '{self.who} passes', '{self.who} does not challenge' or "
                            f"'{self.who} does not block'")


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


def _card(word: str) -> Character:
    word = word.strip().strip(",:")
    try:
        return Character.parse(word)
    except ValueError as e:
        raise MoveTextError(f"{e}{_did_you_mean(word, [c.value for c in Character])}") from None


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    lowered = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.7)
    return f"; did you mean {lowered[close[0]]!r}?" if close else ""
