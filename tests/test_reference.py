"""The Rules page's data and HTML, straight from the engine's tables (no Streamlit)."""

from __future__ import annotations

import pytest

from trainer.engine.cards import Action, Character
from trainer.engine.rules import Options
from trainer.engine.variants import BASE
from trainer.rulebook import reference as ref
from trainer.views import cardart


def test_action_table_has_one_row_per_action_in_order() -> None:
    frame = ref.action_frame(BASE)
    assert list(frame.columns) == list(ref.ACTION_COLUMNS)
    assert list(frame["Action"]) == [ref.action_name(s.action) for s in BASE.actions]
    steal = frame.set_index("Action").loc["Steal"]
    assert steal["Character"] == "Captain"
    assert steal["Blocked by"] == "The target, claiming Ambassador or Captain"
    assert frame.set_index("Action").loc["Foreign aid", "Blocked by"] == (
        "Any other player, claiming Duke")
    assert frame.set_index("Action").loc["Income", "Challenge?"] == "No"


def test_character_roles_are_derived_from_the_table() -> None:
    roles = {r.character: r for r in ref.character_roles(BASE)}
    assert list(roles) == list(BASE.characters)
    assert [s.action for s in roles[Character.DUKE].actions] == [Action.TAX]
    assert [s.action for s in roles[Character.DUKE].blocks] == [Action.FOREIGN_AID]
    assert roles[Character.CONTESSA].actions == ()
    assert [s.action for s in roles[Character.CONTESSA].blocks] == [Action.ASSASSINATE]
    for c in (Character.CAPTAIN, Character.AMBASSADOR):
        assert Action.STEAL in [s.action for s in roles[c].blocks]


@pytest.mark.parametrize("players, copies", [(2, 3), (6, 3), (7, 4), (8, 4), (9, 5), (10, 5)])
def test_setup_facts_follow_the_variant(players: int, copies: int) -> None:
    facts = ref.setup_facts(BASE, players)
    assert facts.copies == copies
    assert facts.deck_size == copies * len(BASE.characters)
    assert facts.left_in_deck == facts.deck_size - players * BASE.hand_size
    assert len(facts.starting_coins) == players


def test_two_player_game_gives_the_first_player_one_coin() -> None:
    facts = ref.setup_facts(BASE, 2)
    assert facts.starting_coins == (1, 2)
    assert facts.starting_coins_text == "1 for the first player, 2 for the others"
    assert ref.setup_facts(BASE, 4).starting_coins_text == "2 each"


def test_setup_facts_reject_a_player_count_outside_the_variant() -> None:
    with pytest.raises(ValueError, match="2–10 players"):
        ref.setup_facts(BASE, 11)


def test_option_rows_mark_default_and_active_choices() -> None:
    rows = ref.option_rows(Options())
    assert [r.name for r in rows] == list(Options.info())
    assert not any(r.changed for r in rows)
    rows = {r.name: r for r in ref.option_rows(Options().with_(finite_treasury=False))}
    assert rows["finite_treasury"].changed
    assert rows["finite_treasury"].active_text == "Unlimited central store of money."
    assert sum(r.changed for r in rows.values()) == 1


def test_source_label_hides_file_names_but_keeps_the_book() -> None:
    label = ref.source_label(BASE.source)
    assert ".txt" not in label
    assert label.startswith("The official rulebook")


def test_turn_steps_follow_the_options() -> None:
    steps = ref.turn_steps(BASE, Options())
    assert [s.title for s in steps] == [
        "Action", "Challenge the action", "Block", "Challenge the block", "Resolution"]
    assert f"{BASE.forced_coup_at} or more coins" in steps[0].text
    assert "may still block" in steps[2].text
    changed = ref.turn_steps(BASE, Options().with_(block_after_lost_challenge=False))
    assert "can no longer be blocked" in changed[2].text


def test_card_faces_and_tables_escape_text_and_load_nothing_external() -> None:
    row = ref.action_rows(BASE)[0]
    evil = ref.ActionRow(**{**{f: getattr(row, f) for f in row.__slots__},
                            "effect": "<script>alert(1)</script>"})
    table = cardart.action_table([evil])
    assert "<script>" not in table and "&lt;script&gt;" in table
    page = (cardart.card_grid(ref.character_roles(BASE), copies=3) + cardart.stylesheet(True)
            + cardart.action_table(ref.action_rows(BASE)))
    assert 'src="http' not in page and "url(" not in page and "@import" not in page


def test_unknown_characters_get_a_stable_look() -> None:
    assert cardart.look("Inquisitor").emblem == "eye"
    assert cardart.look("Jester") == cardart.look("Jester")
    assert cardart.look("Jester").emblem == "shield"


def test_setup_tiles_name_the_numbers_of_the_table() -> None:
    assert ref.copies_text(BASE) == "3 for 2–6 players, 4 for 7–8, 5 for 9–10"
    tiles = {t.key: t for t in ref.setup_tiles(BASE, 7)}
    assert tiles["copies"].value == "4"
    assert (tiles["deck"].value, tiles["deck"].unit) == ("20", "cards")
    assert tiles["coins"].value == "2" and tiles["coins"].note == "for every player"
    assert tiles["hand"].unit == ""
    assert ref.setup_tiles(BASE, 2)[3].value == "1 or 2"
