"""The engine's words and the Rules page in every language: every sentence comes from the
catalogue whole (names, targets and cards put into it), the Rules page shows no English in the
pseudo-language and nothing untranslated in Filipino, and the move sentences read as whole
Filipino sentences for the reader's own seat and for another player's."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.i18n_sweep import leaks, unmarked
from trainer.engine import explain
from trainer.engine.cards import Action, Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import VARIANTS
from trainer.i18n import tr, use_language
from trainer.i18n.catalogue import catalogue
from trainer.rulebook import choices
from trainer.rulebook import reference as ref
from trainer.rulebook.variant_rules import variant_rules
from trainer.views.move_labels import your_move
from trainer.views.table_art import table_html
from trainer.views.table_view import table_view

APP = str(Path(__file__).resolve().parents[1] / "streamlit_app.py")
NAMES = ["Ana", "Ben", "Cy"]
PLAYS = ["You", "Ana", "Ben"]
# Words that are data, not text: the players' names, and what the sweep reads from markup
# (Streamlit's coloured badges) and the address (the language switch, the query string).
ALLOWED = ["Ana", "Ben", "Cy", "Pseudo", "lang", "qps", "players", "gray", "orange", "blue",
           "badge"]
RULE_SETS = ["base", "reformation(vocabulary=treason,gainless_actions=refused)",
             "mcguire-inheritance(challengers=all)", "base+pay_five-no_self_target"]
# Our own modules: a message looked up without a Filipino translation from these is ours.
OURS = ("trainer/engine/", "trainer/rulebook/", "trainer/views/cardart.py",
        "trainer/views/table_view.py", "trainer/views/table_art.py",
        "trainer/views/move_labels.py", "pages/rules.py", "trainer/ui/rule_choice.py")


def _rules_page(lang: str, rules: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.query_params["rules"] = rules
    at.run()
    at.switch_page("pages/rules.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_rules_page_shows_no_english_in_the_pseudo_language(rules: str) -> None:
    at = _rules_page("qps", rules)
    assert leaks(at, allowed=ALLOWED) == []


def _our_messages() -> set[str]:
    from trainer.i18n.check import extract

    return {key[1] for key, source in extract().items()
            if any(place.startswith(OURS) for place in source.places)}


def test_the_rules_page_in_filipino_has_every_message_translated() -> None:
    missing = catalogue("fil").missing
    missing.clear()
    for rules in RULE_SETS[:2]:
        at = _rules_page("fil", rules)
        text = " ".join(m.value for m in at.markdown) + " ".join(h.value for h in at.header)
        assert "Ang mga karakter" in text and "Mga patakaran ng mesa" in text
    ours = _our_messages()
    assert not [m for m in missing if (m[1] if isinstance(m, tuple) else m) in ours]


def _random_games(names: list[str],
                  games: int = 2) -> Iterator[tuple[Game, tuple[Move, ...]]]:
    """Positions of a few random games of every rule set, each with its legal moves."""
    rng = random.Random(7)
    rule_sets = list(VARIANTS) + ["reformation(vocabulary=treason)", "base-no_self_target"]
    for rules in rule_sets:
        for _ in range(games):
            players = names[:2] if VARIANTS.get(rules) is VARIANTS["draft"] else names
            game = Game.new(list(players), seed=rng.randrange(10_000), variant=rules)
            for _ in range(200):
                if game.is_over:
                    break
                legal = game.legal_moves()
                yield game, legal
                game.apply(rng.choice(legal))


def _marked(text: str, allowed: list[str]) -> bool:
    return not [w for w in unmarked(text) if w not in allowed]


def test_every_move_and_decision_of_random_games_is_catalogued() -> None:
    """In the pseudo-language every described move, button, illegal-move reason and phase
    question is fully marked: nothing was left in English or glued from English pieces."""
    seen_kinds: set[MoveKind] = set()
    seen_actions: set[Action] = set()
    seen_phases: set[Phase] = set()
    with use_language("qps"):
        for names in (NAMES, PLAYS):
            for game, legal in _random_games(names):
                seen_phases.add(game.phase)
                assert _marked(explain.decision_line(game.phase, game.names[game.decider]),
                               ALLOWED)
                for move in legal:
                    seen_kinds.add(move.kind)
                    if move.action is not None:
                        seen_actions.add(move.action)
                    assert _marked(game.describe(move), ALLOWED), game.describe(move)
                    assert _marked(your_move(game, move), ALLOWED), your_move(game, move)
                other = next(p for p in range(game.n) if p != game.decider)
                for bad in (Move.pass_(other), Move.act(game.decider, Action.COUP, None),
                            Move.lose(game.decider, Character.DUKE)):
                    if bad not in legal:
                        reason = explain.why_illegal(game, bad).reason
                        assert _marked(reason, ALLOWED + ["P0", "P1", "P2"]), reason
                view = table_view(game.observation(0), latest=2)
                assert _marked(table_html(view), ALLOWED), view.question
    assert seen_kinds >= {MoveKind.ACT, MoveKind.PASS, MoveKind.CHALLENGE, MoveKind.BLOCK,
                          MoveKind.LOSE, MoveKind.KEEP}
    assert Phase.ACTION in seen_phases and Action.STEAL in seen_actions


def test_every_action_phase_and_kind_has_its_sentences() -> None:
    """Each action, phase and kind of move has a catalogued sentence of its own."""
    with use_language("qps"):
        for phase in Phase:
            for name in ("Ana", "You"):
                assert _marked(explain.decision_line(phase, name), ALLOWED)
            assert _marked(explain.phase_question(phase), [])
        for kind in MoveKind:
            assert _marked(tr(explain.KIND_PHRASE[kind]), [])
        game = Game.new(NAMES, seed=1, variant="mcguire")
        for action in Action:
            for actor in (0, 1):
                for target in (None, 2):
                    line = explain.wants_line(game, actor, action, target, reader=0)
                    assert _marked(line, ALLOWED), line
                    claim = explain.claims_line(game, actor, Character.DUKE, action, target,
                                                reader=0)
                    assert _marked(claim, ALLOWED), claim
                    block = explain.blocks_line(game, 2, actor, action, Character.CONTESSA,
                                                target, reader=0)
                    assert _marked(block, ALLOWED), block
                    move = Move.act(actor, action, target)
                    assert _marked(explain.describe_move(game, move, reader=0), ALLOWED)


# One move of each kind, in Filipino: for another player (a name) and for the reader ("You").
FIL_MOVES = [
    (Move.act(0, Action.INCOME), "Ana: Kita", "Ikaw: Kita"),
    (Move.act(0, Action.STEAL, 1), "Naghayag si Ana ng Captain: pagnanakaw kay Ben",
     "Naghayag ka ng Captain: pagnanakaw kay Ben"),
    (Move.challenge(0), "Humamon si Ana", "Humamon ka"),
    (Move.pass_(0), "Nag-pass si Ana", "Nag-pass ka"),
    (Move.block(0, Character.CONTESSA), "Naghadlang si Ana gamit ang Contessa",
     "Naghadlang ka gamit ang Contessa"),
    (Move.show(0, Character.DUKE), "Ipinakita ni Ana ang Duke", "Ipinakita mo ang Duke"),
    (Move.lose(0, Character.DUKE), "Nawala kay Ana ang Duke", "Nawala sa iyo ang Duke"),
    (Move.keep(0, (Character.DUKE, Character.CAPTAIN)), "Itinabi ni Ana ang Captain at Duke",
     "Itinabi mo ang Captain at Duke"),
    (Move.choose(0, "return"), "Ibinalik ni Ana ang baraha", "Ibinalik mo ang baraha"),
    (Move.offer(0, Character.DUKE), "Nagpakita si Ana ng isang baraha sa Inquisitor",
     "Nagpakita ka ng isang baraha sa Inquisitor"),
    (Move.claim(0, Character.GRAVEROBBER), "Naghayag si Ana ng Graverobber",
     "Naghayag ka ng Graverobber"),
    (Move.pay(0), "Nagbayad si Ana sa halip na mawalan ng baraha",
     "Nagbayad ka sa halip na mawalan ng baraha"),
]


@pytest.mark.parametrize("move, named, yours", FIL_MOVES)
def test_a_move_reads_as_a_whole_filipino_sentence(move: Move, named: str, yours: str) -> None:
    with use_language("fil"):
        assert Game.new(["Ana", "Ben"], seed=1).describe(move) == named
        you = Game.new(["You", "Ben"], seed=1).describe(move)
        assert you == yours.replace("Ana", "Ikaw")
        assert Game.new(["Ana", "Ben"], seed=1).describe(Move.act(1, Action.STEAL, 0)) == (
            "Naghayag si Ben ng Captain: pagnanakaw kay Ana")
        assert Game.new(["You", "Ben"], seed=1).describe(Move.act(1, Action.STEAL, 0)) == (
            "Naghayag si Ben ng Captain: pagnanakaw sa iyo")


def test_a_pending_decision_reads_whole_in_filipino() -> None:
    game = Game.new(NAMES, seed=0)
    with use_language("fil"):
        assert explain.wants_line(game, 0, Action.FOREIGN_AID) == (
            "Gusto ni Ana na kumuha ng Tulong mula sa Labas.")
        assert explain.claims_line(game, 0, Character.CAPTAIN, Action.STEAL, 1, reader=1) == (
            "Naghahayag si Ana ng Captain para magnakaw sa iyo.")
        assert explain.blocks_line(game, 1, 0, Action.FOREIGN_AID, Character.DUKE,
                                   reader=0) == (
            "Hinahadlangan ni Ben ang Tulong mula sa Labas mo gamit ang Duke.")
        assert explain.decision_line(Phase.BLOCK, "You") == "Kailangan mong maghadlang o mag-pass"
        assert explain.decision_line(Phase.BLOCK, "Ben") == (
            "Kailangan ni Ben na maghadlang o mag-pass")
    # English stays as it was.
    assert explain.blocks_line(game, 1, 0, Action.FOREIGN_AID, Character.DUKE, reader=0) == (
        "Ben blocks your foreign aid with the Duke.")
    assert explain.claims_line(game, 0, Character.CAPTAIN, Action.STEAL, 1, reader=1) == (
        "Ana claims the Captain to steal from you.")


def test_an_illegal_move_is_explained_to_the_reader_in_the_second_person() -> None:
    game = Game.new(["You", "Ana"], seed=1)
    reason = explain.why_illegal(game, Move.pass_(1)).reason
    assert reason == "it is your decision now (choose an action), not Ana's"
    game = Game.new(["Ana", "You"], seed=1)
    assert explain.why_illegal(game, Move.pass_(1)).reason == (
        "it is Ana's decision now (choose an action), not yours")
    with use_language("fil"):
        assert explain.why_illegal(game, Move.pass_(1)).reason == (
            "si Ana ang magpapasya ngayon (pumili ng aksyon), hindi ikaw")


def test_the_rules_reference_speaks_filipino_and_keeps_the_english_quote() -> None:
    variant = VARIANTS["reformation"]
    with use_language("fil"):
        steps = ref.turn_steps(variant)
        assert steps[0].title == "Aksyon" and "ginto" in steps[0].text
        rules = variant_rules(variant)
        assert rules[0].title_words == "Mga panig"
        assert "Panig" in rules[0].quote_words
        assert choices.in_force_line("base") == (
            "Walang house rule; gaya ng sa rulebook ang bawat patakaran ng mesa.")
    # The quote checked against its rule text is the English.
    assert rules[0].quote.startswith("A player cannot Coup")
