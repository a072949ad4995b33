"""Checkpoints: what a scenario says the table looks like at a step, compared with the game.

Each difference is reported with its place in the checkpoint, so the error points at the very
line of the file that is wrong. A difference is a `Said`, worded when shown: the library is
checked once, in English, and read by people of every language (cards, actions and the
decision asked are worded in the reader's language too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial

from trainer.engine.cards import Action, Allegiance, Character
from trainer.engine.explain import phase_question
from trainer.engine.game import Game, Phase
from trainer.engine.moves import MoveKind
from trainer.engine.names import action_title, allegiance_name, card_name
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.said import Said, said
from trainer.scenarios.schema import Checkpoint
from trainer.scenarios.yaml_lines import Loc


def checkpoint_failures(g: Game, cp: Checkpoint) -> list[tuple[Loc, Said]]:
    """Every way the game differs from the checkpoint, as (location in the checkpoint, what
    differs)."""
    out: list[tuple[Loc, Said]] = []
    seat = {n.lower(): i for i, n in enumerate(g.names)}

    def who(name: str) -> tuple[int, str]:
        s = seat[name.strip().lower()]
        return s, g.names[s]

    question = partial(phase_question, g.phase)
    for name, expected in (cp.coins or {}).items():
        s, n = who(name)
        if g.coins[s] != expected:
            out.append((("coins", name), said(N_("{name} coins expected {expected}, found "
                                                 "{found}"),
                                              name=n, expected=expected, found=g.coins[s])))
    for name, expected in (cp.influence or {}).items():
        s, n = who(name)
        if len(g.hidden[s]) != expected:
            out.append((("influence", name), said(N_("{name} influence expected {expected}, "
                                                     "found {found}"),
                                                  name=n, expected=expected,
                                                  found=len(g.hidden[s]))))
    for key, pile, label in (("hidden", g.hidden, N_("{name} face-down cards expected "
                                                     "{expected}, found {found}")),
                             ("revealed", g.revealed, N_("{name} face-up cards expected "
                                                         "{expected}, found {found}"))):
        for name, expected_cards in (getattr(cp, key) or {}).items():
            s, n = who(name)
            if Counter(pile[s]) != Counter(expected_cards):
                out.append(((key, name), said(label, name=n, expected=card_list(expected_cards),
                                              found=card_list(pile[s]))))
    if cp.face_up is not None:
        table = [c for r in g.revealed for c in r]
        if Counter(table) != Counter(cp.face_up):
            out.append((("face_up",), said(N_("face-up cards on the table expected {expected}, "
                                              "found {found}"),
                                           expected=card_list(cp.face_up), found=card_list(table))))
    if cp.alive is not None:
        expected_seats = sorted(who(n)[0] for n in cp.alive)
        if expected_seats != g.living():
            out.append((("alive",), said(N_("players in the game expected {expected}, found "
                                            "{found}"),
                                         expected=_names(g, expected_seats),
                                         found=_names(g, g.living()))))
    if cp.treasury is not None and g.treasury != cp.treasury:
        out.append((("treasury",), said(N_("treasury expected {expected}, found {found}"),
                                        expected=cp.treasury, found=g.treasury)))
    if cp.deck_size is not None and len(g.deck) != cp.deck_size:
        out.append((("deck_size",), said(N_("deck size expected {expected}, found {found}"),
                                         expected=cp.deck_size, found=len(g.deck))))
    if cp.deck is not None and Counter(g.deck) != Counter(cp.deck):
        missing = Counter(cp.deck) - Counter(g.deck)
        extra = Counter(g.deck) - Counter(cp.deck)
        detail = (said(N_("missing {missing}; not expected {extra}"), missing=card_counts(missing),
                       extra=card_counts(extra)) if missing and extra else
                  said(N_("missing {missing}"), missing=card_counts(missing)) if missing else
                  said(N_("not expected {extra}"), extra=card_counts(extra)))
        out.append((("deck",), said(N_("deck expected {expected}, found {found} ({detail})"),
                                    expected=card_list(cp.deck), found=card_list(g.deck),
                                    detail=detail)))
    if cp.next is not None:
        s, n = who(cp.next.player)
        if g.is_over:
            out.append((("next",), said(N_("next decision expected {name}'s, but the game is "
                                           "over ({result})"), name=n, result=_result(g))))
        elif g.decider != s:
            out.append((("next",), said(N_("next decision expected {name}'s, found {other}'s "
                                           "({question})"),
                                        name=n, other=g.names[g.decider], question=question)))
        elif cp.next.phase is not None and cp.next.phase is not g.phase:
            out.append((("next",), said(N_("{name}'s next decision expected phase {phase} "
                                           "({question}), found {found} ({found_question})"),
                                        name=n, phase=str(cp.next.phase),
                                        question=partial(phase_question, cp.next.phase),
                                        found=str(g.phase), found_question=question)))
    if cp.legal_actions is not None:
        if g.is_over:
            out.append((("legal_actions",), said(N_("legal actions can be checked only when a "
                                                    "player chooses an action; now the game "
                                                    "is over"))))
        elif g.phase is not Phase.ACTION:
            out.append((("legal_actions",), said(N_("legal actions can be checked only when a "
                                                    "player chooses an action; now {name} "
                                                    "must {question}"),
                                                 name=g.names[g.decider], question=question)))
        else:
            legal = {m.action for m in g.legal_moves()
                     if m.kind is MoveKind.ACT and m.action is not None}
            if legal != set(cp.legal_actions):
                out.append((("legal_actions",), said(N_("legal actions for {name} expected "
                                                        "{expected}, found {found}"),
                                                     name=g.names[g.decider],
                                                     expected=_actions(cp.legal_actions),
                                                     found=_actions(legal))))
    if cp.winner is not None:
        s, n = who(cp.winner)
        if not g.is_over:
            out.append((("winner",), said(N_("winner expected {name}, but the game is not over "
                                             "({other} must {question})"),
                                          name=n, other=g.names[g.decider], question=question)))
        elif g.winner != s:
            found: str | Said = A_TIE if g.winner is None else g.names[g.winner]
            out.append((("winner",), said(N_("winner expected {name}, found {found}"), name=n,
                                          found=found)))
    if cp.tie is not None and cp.tie != g.is_tie:
        out.append((("tie",), said(N_("a tie expected")) if cp.tie else
                    said(N_("no tie expected"))))
    for name, side in (cp.allegiances or {}).items():
        s, n = who(name)
        found_side = g.sides[s] if g.sides else None
        if found_side != side:
            out.append((("allegiances", name), said(
                N_("{name} allegiance expected {expected}, found {found}"), name=n,
                expected=partial(allegiance_name, Allegiance(side)),
                found=partial(allegiance_name, found_side) if found_side else
                said(N_("none (not chosen yet)")))))
    if cp.reserve is not None and g.reserve != cp.reserve:
        out.append((("reserve",), said(N_("Treasury Reserve expected {expected}, found {found}"),
                                       expected=cp.reserve, found=g.reserve)))
    if cp.mat_up is not None and Counter(g.mat_up) != Counter(cp.mat_up):
        out.append((("mat_up",), said(N_("face-up mat cards expected {expected}, found "
                                         "{found}"),
                                      expected=card_list(cp.mat_up), found=card_list(g.mat_up))))
    return out


def failures_text(failures: tuple[Said, ...]) -> str:
    """The differences one after the other, in the current language."""
    return "; ".join(f.words() for f in failures)


A_TIE = said(N_("a tie"))
_ORDER = list(Character)
_ACTIONS = list(Action)

# A number of one card, in the reader's words and plural ("2 Assassins"): one counted message
# per card, so a language that does not add an "s" (Filipino counts "2 Assassin") says its own.
_CARD_COUNTS: dict[Character, Callable[[int], str]] = {
    Character.DUKE: lambda k: tr_n("{n} Duke", "{n} Dukes", k),
    Character.ASSASSIN: lambda k: tr_n("{n} Assassin", "{n} Assassins", k),
    Character.CAPTAIN: lambda k: tr_n("{n} Captain", "{n} Captains", k),
    Character.AMBASSADOR: lambda k: tr_n("{n} Ambassador", "{n} Ambassadors", k),
    Character.CONTESSA: lambda k: tr_n("{n} Contessa", "{n} Contessas", k),
    Character.INQUISITOR: lambda k: tr_n("{n} Inquisitor", "{n} Inquisitors", k),
    Character.GRAVEROBBER: lambda k: tr_n("{n} Graverobber", "{n} Graverobbers", k),
    Character.INHERITANCE: lambda k: tr_n("{n} Inheritance Ambassador",
                                          "{n} Inheritance Ambassadors", k),
    Character.VENGEANCE: lambda k: tr_n("{n} Vengeance Assassin", "{n} Vengeance Assassins", k),
    Character.TREATY: lambda k: tr_n("{n} Treaty Contessa", "{n} Treaty Contessas", k),
}
# The same, as a count over what the rules allow ("2 extra Assassins").
_EXTRA_COUNTS: dict[Character, Callable[[int], str]] = {
    Character.DUKE: lambda k: tr_n("{n} extra Duke", "{n} extra Dukes", k),
    Character.ASSASSIN: lambda k: tr_n("{n} extra Assassin", "{n} extra Assassins", k),
    Character.CAPTAIN: lambda k: tr_n("{n} extra Captain", "{n} extra Captains", k),
    Character.AMBASSADOR: lambda k: tr_n("{n} extra Ambassador", "{n} extra Ambassadors", k),
    Character.CONTESSA: lambda k: tr_n("{n} extra Contessa", "{n} extra Contessas", k),
    Character.INQUISITOR: lambda k: tr_n("{n} extra Inquisitor", "{n} extra Inquisitors", k),
    Character.GRAVEROBBER: lambda k: tr_n("{n} extra Graverobber", "{n} extra Graverobbers",
                                          k),
    Character.INHERITANCE: lambda k: tr_n("{n} extra Inheritance Ambassador",
                                          "{n} extra Inheritance Ambassadors", k),
    Character.VENGEANCE: lambda k: tr_n("{n} extra Vengeance Assassin",
                                        "{n} extra Vengeance Assassins", k),
    Character.TREATY: lambda k: tr_n("{n} extra Treaty Contessa", "{n} extra Treaty Contessas",
                                     k),
}


def cards_text(cards: Iterable[Character]) -> str:
    """Cards in the order of the court, named in the current language ("Duke, Captain"), or
    "none"."""
    cards = sorted(cards, key=_ORDER.index)
    return ", ".join(card_name(c) for c in cards) if cards else tr("none")


def card_list(cards: Iterable[Character]) -> Callable[[], str]:
    """`cards_text` as a field of a `Said`: worded when shown, in the reader's language."""
    return partial(cards_text, tuple(cards))


def card_count(card: Character, k: int) -> str:
    """`k` of one card in the current language ("2 Assassins")."""
    return _CARD_COUNTS[card](k)


def count_text(counts: Counter[Character]) -> str:
    """How many of each card, in the order of the court ("1 Duke, 2 Assassins")."""
    return ", ".join(card_count(c, counts[c]) for c in _ORDER if counts[c] > 0)


def card_counts(found: Counter[Character]) -> Callable[[], str]:
    """`count_text` as a field of a `Said`."""
    return partial(count_text, Counter(found))


def extra_text(over: dict[Character, int]) -> str:
    """Cards over what the rules allow ("1 extra Duke, 2 extra Assassins"), in the order
    given."""
    return ", ".join(_EXTRA_COUNTS[c](k) for c, k in over.items())


def _names_text(names: tuple[str, ...]) -> str:
    return ", ".join(names) or tr("nobody")


def _names(g: Game, seats: Iterable[int]) -> Callable[[], str]:
    return partial(_names_text, tuple(g.names[s] for s in seats))


def _actions_text(actions: tuple[Action, ...]) -> str:
    return ", ".join(action_title(a) for a in sorted(set(actions), key=_ACTIONS.index))


def _actions(actions: Iterable[Action | str]) -> Callable[[], str]:
    return partial(_actions_text, tuple(Action(a) for a in actions))


def _result(g: Game) -> Said:
    """How the game ended: a tie, or who won."""
    return A_TIE if g.winner is None else said(N_("{name} won"), name=g.names[g.winner])
