"""The Play page's words: the learner's moves in the second person, the bots' strength, and the
review's move list, which hides what the learner could not see unless every card is asked
for."""

from __future__ import annotations

import pytest

from trainer.engine.cards import Action, Character
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.play.record import GameRecord
from trainer.play.setup import Setup, strength
from trainer.views import play_text


def test_the_engine_describes_the_seat_named_you_in_the_second_person() -> None:
    from trainer.engine.game import Game

    game = Game.new(["You", "Ana"], seed=1)
    assert game.describe(Move.act(0, Action.INCOME)) == "You: income"
    assert game.describe(Move.pass_(0)) == "You pass"
    assert game.describe(Move.act(1, Action.STEAL, 0)) == "Ana claims Captain: steal you"
    assert Game.new(["Ely", "Ana"], seed=1).describe(Move.pass_(0)) == "Ely passes"


def test_a_bots_choice_names_its_win_rate_at_this_table_size() -> None:
    measured = strength("calibrated", 4)
    assert measured is not None
    assert play_text.bot_choice("calibrated", 4) == (
        f"Calibrated · wins {measured.rate:.0%} at 4 players (base game)")


def test_a_size_never_measured_says_which_size_it_shows() -> None:
    line = play_text.strength_line("honest", 5, strength("honest", 5))
    assert "(the nearest size measured)" in line
    assert "an even share is" in line


def test_the_table_line_names_each_seat_and_the_deal() -> None:
    setup = Setup("base", 42, ("you", "calibrated", "rule"))
    assert play_text.table_line(setup) == (
        "Coup (base game) · You, Ana (Calibrated), Ben (Rule bot) · deal 42")


def _exchange_record() -> GameRecord:
    """A two-player game where Ana exchanges and keeps two cards: her secret."""
    for seed in range(100):
        record = GameRecord(game_id="abcdefghijkm", learner="ann", variant="base", seed=seed,
                            seats=("you", "honest"))
        game = record.game()
        if Character.AMBASSADOR not in game.hidden[1]:
            continue
        for move in (Move.act(0, Action.INCOME), Move.act(1, Action.EXCHANGE)):
            game.apply(move)
            record.add(move)
        while game.phase is not Phase.EXCHANGE:
            move = next(m for m in game.legal_moves() if m.kind is MoveKind.PASS)
            game.apply(move)
            record.add(move)
        record.add(game.legal_moves()[-1])
        return record
    pytest.fail("Ana never holds an Ambassador in these deals")


def test_what_you_knew_hides_the_cards_a_bot_kept() -> None:
    record = _exchange_record()
    lines = play_text.timeline(record.parsed(), record.game(0), 0, (), all_cards=False)
    keep = next(line for line, move in zip(lines, record.parsed(), strict=True)
                if move.kind is MoveKind.KEEP and move.player != 0)
    assert "keeps 2 of the cards" in keep.text
    shown = play_text.timeline(record.parsed(), record.game(0), 0, (), all_cards=True)
    assert shown[keep.index].text != keep.text, "with every card, the kept cards are named"


def test_with_every_card_a_claim_without_the_card_is_marked_a_bluff() -> None:
    from tests.helpers import table

    game = table(("You", "Duke Contessa", 2), ("Ana", "Captain Assassin", 2))
    tax = Move.act(0, Action.TAX)
    steal = Move.act(0, Action.STEAL, 1)
    assert not play_text.is_bluff(game, tax)
    assert play_text.is_bluff(game, steal)
    assert game.phase is Phase.ACTION and game.hidden[0] == [Character.DUKE,
                                                             Character.CONTESSA]


def test_a_table_under_other_rules_says_them_and_where_the_bots_were_measured() -> None:
    base = Setup("base", 3, ("you", "rule"))
    table = Setup("base pay_five(challengers=all)", 3, ("you", "rule"))
    assert table.variant == "base+pay_five(challengers=all)"
    assert play_text.rule_set_title(table.variant) == (
        "Coup (base game) + paying 5 instead of a card · everyone who wants to may challenge")
    assert play_text.table_line(table, table_rules=False).startswith(
        "Coup (base game) + paying 5 instead of a card · You, Ana (Rule bot)")
    assert play_text.rules_line(table) == (
        "House rules: 4. Paying instead of losing a card. Table rules: everyone who wants to "
        "may challenge.")
    details = play_text.rules_details(table)
    assert details[0].startswith("**4. Paying instead of losing a card.** The loser")
    assert details[1].startswith("**Several challengers.** Everyone is asked")
    assert play_text.rules_details(Setup("base-no_self_target", 3, ("you", "rule")))[0] \
        .startswith("**7. Self-targeting allowed.** A player may challenge their own claim")
    assert play_text.strength_title(base.variant) == "How strong are these bots?"
    assert "measured in the base game" in play_text.strength_title(table.variant)
    assert play_text.bots_note(base.variant) is None
    assert play_text.bots_note(table.variant) == play_text.BOTS_MEASURED
