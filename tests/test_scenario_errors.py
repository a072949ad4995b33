"""A broken scenario gets one message naming the file, the line, the step and what was expected.

Each test breaks a small valid scenario in one place and checks the whole message, including
that its line number is the line of the broken text.
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from trainer.cli import main
from trainer.engine.cards import Character
from trainer.rulebook.sources import RULES_DIR_ENV
from trainer.scenarios import ScenarioError, check_file, parse_scenario, replay

ROOT = Path(__file__).resolve().parent.parent

GOOD = """\
id: {id}
title: A small example
summary: The first round of the rulebook's example.
setup:
  players:
    - name: Maria
      coins: 2
      hidden: [Contessa, Duke]
    - name: Cris
      coins: 2
      hidden: [Captain, Contessa]
    - name: Ely
      coins: 2
      hidden: [Assassin, Duke]
  deck: [Assassin, Duke, Contessa, Assassin, Captain, Captain, Ambassador, Ambassador, Ambassador]
  learner: Cris
steps:
  - move: "Maria claims Duke: tax"
  - move: No one challenges
    checkpoint:
      coins: {{Maria: 5}}
  - move: "Cris claims Ambassador: exchange"
  - move: No one challenges
    draw: [Assassin, Duke]
  - move: Cris keeps Assassin and Captain
    rule:
      quote: Then return two cards to the Court deck.
      source: 004_7a51b40b357838ae.txt
  - move: "Ely claims Duke: tax"
  - move: Maria passes
  - move: Cris challenges
  - move: Ely shows Duke
    replacement: Contessa
  - move: Cris loses Assassin
    checkpoint:
      coins: {{Maria: 5, Cris: 2, Ely: 5}}
      next: Maria
"""


def write(tmp_path: Path, name: str, old: str = "", new: str = "") -> tuple[Path, str]:
    """The good scenario with `old` replaced by `new`, saved as NAME.yaml; returns the path and
    the file's text."""
    text = GOOD.format(id=name)
    if old:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def line(text: str, fragment: str) -> int:
    """The 1-based line of the first line containing `fragment`."""
    return next(i for i, t in enumerate(text.splitlines(), 1) if fragment in t)


def message(path: Path) -> str:
    with pytest.raises(ScenarioError) as info:
        check_file(path)
    return str(info.value)


def test_the_good_scenario_is_ok(tmp_path):
    path, _ = write(tmp_path, "good")
    assert len(check_file(path).steps) == 10


# ---------------------------------------------------------------- schema
def test_a_typo_in_a_key_names_the_key_and_the_allowed_keys(tmp_path):
    path, text = write(tmp_path, "typo", "    checkpoint:\n      coins: {Maria: 5}",
                       "    chekpoint:\n      coins: {Maria: 5}")
    assert message(path) == (
        f'{path}:{line(text, "chekpoint")}: step 2 ("No one challenges"): unknown key '
        f"'chekpoint' (did you mean 'checkpoint'?); allowed keys: move, illegal, because, "
        f"narration, rule, tip, draw, replacement, prompt, checkpoint, teaches")


def test_a_typo_in_a_required_key_is_reported_at_the_typo_not_as_a_missing_key(tmp_path):
    path, text = write(tmp_path, "titel", "title: A small example", "titel: A small example")
    assert message(path) == (
        f"{path}:{line(text, 'titel:')}: unknown key 'titel' (did you mean 'title'?); allowed "
        f"keys: id, title, summary, teaches, order, tags, mode, rule, intro, setup, steps, "
        f"practice")


def test_an_unknown_key_comes_before_a_missing_key_that_is_another_problem(tmp_path):
    path, text = write(tmp_path, "two", "summary: The first round of the rulebook's example.\n",
                       "")
    text = text.replace("  learner: Cris", "  lerner: Cris")
    path.write_text(text, encoding="utf-8")
    assert message(path) == (
        f"{path}:{line(text, 'lerner:')}: setup: unknown key 'lerner' (did you mean "
        f"'learner'?); allowed keys: variant, options, players, deck, first, learner, treasury, "
        f"reserve, mat, mat_up, removed, checkpoint (and 1 more problem(s) in this file)")


def test_an_unknown_card_lists_the_valid_cards(tmp_path):
    path, text = write(tmp_path, "card", "[Contessa, Duke]", "[Contessa, Dukee]")
    assert message(path) == (
        f"{path}:{line(text, 'Dukee')}: setup > player 1 (Maria) > hidden > item 2: unknown "
        f"card 'Dukee'; expected one of Duke, Assassin, Captain, Ambassador, Contessa, "
        f"Inquisitor, Graverobber, Inheritance Ambassador, Vengeance Assassin, Treaty Contessa; "
        f"did you mean 'Duke'?")


def test_an_unknown_option_names_the_options(tmp_path):
    path, text = write(tmp_path, "option", "  learner: Cris",
                       "  learner: Cris\n  options: {steal_from_eliminted: false}")
    msg = message(path)
    assert msg.startswith(f"{path}:{line(text, 'steal_from_eliminted')}: setup > options: "
                          f"unknown key 'steal_from_eliminted'")
    assert "allowed keys: challenge_order, block_after_lost_challenge, steal_from_eliminated, " \
           "finite_treasury" in msg


def test_an_examine_option_in_the_base_game_is_refused_at_its_line(tmp_path):
    path, text = write(tmp_path, "examine", "  learner: Cris",
                       "  learner: Cris\n  options:\n    examine_pick: random")
    assert message(path) == (
        f"{path}:{line(text, 'examine_pick')}: setup > options: `examine_pick` does not apply "
        f"to Coup (base game): it has no Examine action; it applies to: inquisitor, "
        f"reformation-inquisitor (leave it out here)")


def test_an_option_that_cannot_apply_is_refused_even_at_its_default_value(tmp_path):
    path, text = write(tmp_path, "vocabulary", "  learner: Cris",
                       "  learner: Cris\n  options: {finite_treasury: true, vocabulary: official}")
    assert message(path) == (
        f"{path}:{line(text, 'vocabulary:')}: setup > options: `vocabulary` does not apply to "
        f"Coup (base game): it has no allegiances (Loyalist and Reformist); it applies to: "
        f"reformation, reformation-inquisitor (leave it out here)")


def test_the_two_player_start_option_does_not_apply_to_mcguire(tmp_path):
    path, text = shipped_copy(tmp_path, "mcguire-vengeance", "  learner:",
                              "  options: {two_player_start: two_coins}\n  learner:")
    assert message(path) == (
        f"{path}:{line(text, 'two_player_start')}: setup > options: `two_player_start` does not "
        f"apply to McGuire house rules without the event mat: its own rule gives the first "
        f"player 0 coins at any "
        f"player count; it applies to: base, inquisitor, reformation, reformation-inquisitor, "
        f"forum (leave it out here)")


def test_the_two_player_start_option_does_not_apply_to_the_draft(tmp_path):
    path, text = shipped_copy(tmp_path, "draft-choosing", "  learner:",
                              "  options: {two_player_start: one_coin}\n  learner:")
    assert message(path) == (
        f"{path}:{line(text, 'two_player_start')}: setup > options: `two_player_start` does not "
        f"apply to Two-player draft: the draft always gives the starting player 1 coin; it "
        f"applies to: base, inquisitor, reformation, reformation-inquisitor, forum (leave it "
        f"out here)")


def test_an_option_that_applies_everywhere_is_accepted(tmp_path):
    path, _ = write(tmp_path, "order", "  learner: Cris",
                    "  learner: Cris\n  options: {challenge_order: target_first}")
    assert len(check_file(path).steps) == 10


def test_a_missing_key_is_named(tmp_path):
    path, _ = write(tmp_path, "nolearner", "  learner: Cris\n", "")
    assert message(path).startswith(f"{path}:4: setup: missing key 'learner'")


def test_broken_yaml_gives_the_line_and_says_to_quote_a_move_with_a_colon(tmp_path):
    path, text = write(tmp_path, "yaml", '"Ely claims Duke: tax"', "Ely claims Duke: tax")
    assert message(path) == (
        f"{path}:{line(text, 'Ely claims Duke: tax')}: YAML syntax error: mapping values are "
        f"not allowed here (a move that contains ':' must be quoted, e.g. move: \"Maria claims "
        f"Duke: tax\")")


def test_a_key_written_twice_is_an_error(tmp_path):
    path, text = write(tmp_path, "twice", "  learner: Cris\n", "  learner: Cris\n  learner: Ely\n")
    assert message(path) == (f"{path}:{line(text, 'learner: Ely')}: the key "
                             f"'learner' appears twice here (first on line "
                             f"{line(text, 'learner: Cris')}); remove one")


def test_the_id_must_match_the_file_name(tmp_path):
    path, text = write(tmp_path, "named", "id: named", "id: other-name")
    assert message(path) == (f"{path}:1: the id 'other-name' must match the file name 'named' "
                             f"(so every lesson has its own id)")


def test_an_unknown_player_in_a_checkpoint_is_named(tmp_path):
    path, text = write(tmp_path, "who", "{Maria: 5}", "{Mria: 5}")
    assert message(path) == (
        f'{path}:{line(text, "Mria")}: step 2 ("No one challenges"): checkpoint coins: no '
        f"player named 'Mria' (did you mean 'Maria'?); the players are Maria, Cris, Ely")


def test_an_unreadable_move_suggests_the_word_meant(tmp_path):
    path, text = write(tmp_path, "verb", "move: Cris challenges", "move: Cris chalenges")
    assert message(path) == (
        f'{path}:{line(text, "chalenges")}: step 8 ("Cris chalenges"): cannot read the move: '
        f"cannot read 'chalenges' as something Cris does; did you mean 'challenges'?")


# ---------------------------------------------------------------- bounded YAML
def alias_bomb(tmp_path: Path) -> tuple[Path, str]:
    """A "billion laughs": nine levels of nine aliases each, about 400 bytes that would build
    nine to the ninth (387 million) strings."""
    rows = ['lol: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        rows.append(f"{name}{name}{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    text = "\n".join(rows) + "\n"
    path = tmp_path / "bomb.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def test_an_alias_bomb_is_rejected_at_the_alias_that_expands_too_far(tmp_path):
    path, text = alias_bomb(tmp_path)
    assert len(text.encode()) < 450
    start = time.perf_counter()
    msg = message(path)
    elapsed = time.perf_counter() - start
    # *e is the first alias whose copies pass 100,000 values: nine copies of 9**5 strings.
    assert msg == (
        f"{path}:{line(text, 'fff:')}: too many aliases/expanded nodes: expanding '*e' here "
        f"builds more than 100,000 values (every copy an alias or a merge makes counts); "
        f"expected a lesson file of at most 100,000 nodes")
    assert elapsed < 5, f"the alias bomb took {elapsed:.2f} s to reject"  # about 0.2 s


def test_the_check_command_rejects_an_alias_bomb_in_one_line(tmp_path, capsys):
    path, text = alias_bomb(tmp_path)
    assert main(["check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(f"{path}:{line(text, 'fff:')}: too many aliases/expanded nodes")


def test_a_file_over_a_megabyte_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text("# " + "x" * 1_000_000 + "\n", encoding="utf-8")
    assert message(path) == (f"{path}:1: the file is 1,000,003 bytes; expected a lesson file "
                             f"of at most 1,000,000 bytes (is it really a scenario?)")


def test_an_alias_inside_its_own_value_is_an_error_not_a_crash(tmp_path):
    path, text = write(tmp_path, "loop", "  learner: Cris\n",
                       "  learner: Cris\n  removed: &loop [*loop]\n")
    assert message(path) == (f"{path}:{line(text, '*loop')}: the alias '*loop' is used inside "
                             f"the value it names, which would never end; a lesson file cannot "
                             f"be recursive")


def test_lists_nested_too_deeply_are_an_error_not_a_crash(tmp_path):
    path, text = write(tmp_path, "deep", "  learner: Cris\n",
                       "  learner: Cris\n  removed: " + "[" * 200 + "]" * 200 + "\n")
    assert message(path) == (f"{path}:{line(text, 'removed:')}: lists and mappings nest more "
                             f"than 64 levels deep here; expected a lesson file at most 64 "
                             f"levels deep")


def test_anchors_aliases_and_merges_still_work(tmp_path):
    path, text = write(tmp_path, "merges", "    checkpoint:\n      coins: {Maria: 5}",
                       "    checkpoint: &after_tax\n      coins: {Maria: 5}\n"
                       "      next: {player: Cris, phase: action}")
    text = text.replace("      coins: {Maria: 5, Cris: 2, Ely: 5}\n      next: Maria",
                        "      <<: *after_tax\n      next: Maria")
    text = text.replace("hidden: [Assassin, Duke]\n", "hidden: &ely [Assassin, Duke]\n")
    text = text.replace("    draw: [Assassin, Duke]", "    draw: *ely")
    path.write_text(text, encoding="utf-8")
    run = check_file(path)
    last = run.step(10).checkpoint
    assert last is not None and last.coins == {"Maria": 5}  # merged in
    assert last.next is not None and last.next.player == "Maria"  # the written key wins
    assert run.scenario.steps[3].draw == [Character.ASSASSIN, Character.DUKE]


def test_a_key_a_merge_brings_may_be_overridden_but_not_written_twice(tmp_path):
    path, text = write(tmp_path, "twice-merged", "    checkpoint:\n      coins: {Maria: 5}",
                       "    checkpoint: &after_tax\n      coins: {Maria: 5}")
    text = text.replace("      next: Maria", "      <<: *after_tax\n      next: Maria\n"
                                            "      next: Cris")
    path.write_text(text, encoding="utf-8")
    assert message(path) == (f"{path}:{line(text, 'next: Cris')}: the key 'next' appears twice "
                             f"here (first on line {line(text, 'next: Maria')}); remove one")


# ---------------------------------------------------------------- set-up
def test_a_wrong_deck_names_the_deck_line_and_what_it_must_hold(tmp_path):
    path, text = write(tmp_path, "deck", "deck: [Assassin, Duke,", "deck: [Duke,")
    assert message(path) == (
        f"{path}:{line(text, 'deck:')}: setup: there must be 3 Assassin cards in play (hands, "
        f"revealed and deck) for 3 players; found 2; with these hands the court deck must hold "
        f"exactly 1 Duke, 2 Assassins, 2 Captains, 3 Ambassadors, 1 Contessa (9 cards)")


def test_a_player_dealt_too_many_cards_is_named(tmp_path):
    path, text = write(tmp_path, "hand", "[Contessa, Duke]", "[Contessa, Duke, Duke]")
    assert message(path) == (
        f"{path}:{line(text, 'name: Maria')}: setup > player 1 (Maria): Maria has 3 face-down "
        f"cards and no face-up card; every player has 2 cards (face down while alive, face up "
        f"once lost)")


def test_a_living_player_without_cards_is_refused_at_the_player(tmp_path):
    path, text = write(tmp_path, "empty", "hidden: [Captain, Contessa]", "hidden: []")
    path.write_text(text.replace("deck: [", "deck: [Captain, Contessa, "), encoding="utf-8")
    assert message(path) == (
        f"{path}:{line(text, 'name: Cris')}: setup > player 2 (Cris): Cris has no face-down "
        f"card and no face-up card; every player has 2 cards (face down while alive, face up "
        f"once lost)")


def test_one_face_down_card_and_none_face_up_is_refused_at_the_player(tmp_path):
    path, text = write(tmp_path, "half", "hidden: [Captain, Contessa]", "hidden: [Captain]")
    path.write_text(text.replace("deck: [", "deck: [Contessa, "), encoding="utf-8")
    assert message(path) == (
        f"{path}:{line(text, 'name: Cris')}: setup > player 2 (Cris): Cris has 1 face-down card "
        f"and no face-up card; every player has 2 cards (face down while alive, face up once "
        f"lost)")


def test_a_player_who_is_out_cannot_hold_coins(tmp_path):
    path, text = write(tmp_path, "exiled", "      coins: 2\n      hidden: [Assassin, Duke]",
                       "      coins: 2\n      hidden: []\n      revealed: [Assassin, Duke]")
    assert message(path) == (
        f"{path}:{line(text, 'name: Ely') + 1}: setup > player 3 (Ely): Ely is out of the game "
        f"(every card face up) but has 2 coins; a player who is out returns all their coins to "
        f"the Treasury")


def test_a_player_who_is_out_has_no_coins_unless_told(tmp_path):
    path, text = write(tmp_path, "exiled-default",
                       "    - name: Ely\n      coins: 2\n      hidden: [Assassin, Duke]",
                       "    - name: Ely\n      hidden: []\n      revealed: [Assassin, Duke]")
    text = text[:text.index("steps:")] + 'steps:\n  - "Maria: income"\n'
    path.write_text(text, encoding="utf-8")
    game = replay(parse_scenario(text, str(path)), 0)
    assert (game.coins, game.alive) == ([2, 2, 0], [True, True, False])


def shipped_copy(tmp_path: Path, stem: str, old: str, new: str) -> tuple[Path, str]:
    text = (ROOT / "scenarios" / f"{stem}.yaml").read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    path = tmp_path / f"{stem}.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def test_a_mcguire_table_missing_its_treaty_contessa_points_at_the_deck(tmp_path):
    path, text = shipped_copy(tmp_path, "mcguire-treaty-and-mat",
                              "hidden: [Treaty Contessa, Captain]", "hidden: [Contessa, Captain]")
    path.write_text(text.replace("Inheritance Ambassador, Contessa]",
                                 "Inheritance Ambassador, Contessa, Contessa]"), encoding="utf-8")
    assert message(path) == (
        f"{path}:{line(text, 'deck:')}: setup: there must be 1 Treaty Contessa card in play "
        f"(hands, revealed, deck and mat) for 3 players; found 0; with these hands and mat the "
        f"court deck must hold exactly 1 Captain, 1 Ambassador, 1 Inheritance Ambassador, "
        f"1 Vengeance Assassin, 1 Treaty Contessa (5 cards)")


def test_a_card_of_another_variant_points_at_the_hand_that_holds_it(tmp_path):
    path, text = write(tmp_path, "stranger", "hidden: [Assassin, Duke]",
                       "hidden: [Assassin, Inquisitor]")
    assert message(path) == (
        f"{path}:{line(text, 'Inquisitor')}: setup: Inquisitor is not a card of Coup (base "
        f"game) (its cards: Duke, Assassin, Captain, Ambassador, Contessa)")


def test_coins_that_do_not_add_up_point_at_the_treasury_when_it_is_given(tmp_path):
    path, text = write(tmp_path, "treasury", "  learner: Cris\n",
                       "  learner: Cris\n  treasury: 3\n")
    assert message(path) == (
        f"{path}:{line(text, 'treasury:')}: setup: players hold 6 coins and the treasury 3; "
        f"together they must make the 50 coins in the box")


# ---------------------------------------------------------------- replay
def test_an_illegal_move_says_whose_decision_it_is(tmp_path):
    path, text = write(tmp_path, "illegal", "  - move: Maria passes\n", "")
    assert message(path) == (
        f'{path}:{line(text, "Cris challenges")}: step 7 ("Cris challenges"): illegal move: '
        f"it is Maria's decision now (challenge the claim or pass), not Cris's")


def test_a_move_the_rules_forbid_gives_the_engine_s_reason(tmp_path):
    path, text = write(tmp_path, "keep", "Cris keeps Assassin and Captain", "Cris keeps Assassin")
    assert message(path) == (
        f'{path}:{line(text, "Cris keeps Assassin")}: step 5 ("Cris keeps Assassin"): illegal '
        f"move: Cris must keep exactly 2 card(s), not 1")


def test_no_one_challenges_needs_a_challenge_window(tmp_path):
    path, text = write(tmp_path, "window", '  - move: "Cris claims Ambassador: exchange"\n'
                       "  - move: No one challenges\n    draw: [Assassin, Duke]\n"
                       "  - move: Cris keeps Assassin and Captain\n",
                       "  - move: Nobody challenges\n")
    assert message(path) == (
        f'{path}:{line(text, "Nobody challenges")}: step 3 ("Nobody challenges"): nobody is '
        f"being asked to challenge at this point: it is Cris's decision now (choose an action)")


def test_challenging_names_the_claimant(tmp_path):
    path, text = write(tmp_path, "claimant", "move: Cris challenges", "move: Cris challenges Maria")
    assert message(path) == (
        f'{path}:{line(text, "Cris challenges Maria")}: step 8 ("Cris challenges Maria"): the '
        f"claim open to challenge is Ely's (Duke), not Maria's")


def test_a_wrong_checkpoint_says_what_was_expected_and_found(tmp_path):
    path, text = write(tmp_path, "wrongcp", "{Maria: 5, Cris: 2, Ely: 5}",
                       "{Maria: 5, Cris: 3, Ely: 5}")
    assert message(path) == (
        f'{path}:{line(text, "Cris: 3")}: step 10 ("Cris loses Assassin"): checkpoint failed: '
        f"Cris coins expected 3, found 2")


def test_a_wrong_next_decision_names_both_players(tmp_path):
    path, text = write(tmp_path, "next", "      next: Maria", "      next: Ely")
    assert message(path) == (
        f'{path}:{line(text, "next: Ely")}: step 10 ("Cris loses Assassin"): checkpoint '
        f"failed: next decision expected Ely's, found Maria's (choose an action)")


def test_a_scripted_draw_of_cards_not_in_the_deck_is_refused(tmp_path):
    path, text = write(tmp_path, "draw", "draw: [Assassin, Duke]", "draw: [Contessa, Contessa]")
    assert message(path) == (
        f'{path}:{line(text, "draw: [Contessa")}: step 4 ("No one challenges"): bad scripted '
        f"draw (draw: Contessa, Contessa): cannot draw Contessa: the court deck holds only "
        f"Ambassador, Ambassador, Ambassador, Assassin, Assassin, Captain, Captain, Duke")


def test_a_replacement_where_an_exchange_draws_two_cards_is_refused(tmp_path):
    path, text = write(tmp_path, "kind", "draw: [Assassin, Duke]", "replacement: Duke")
    assert message(path) == (
        f'{path}:{line(text, "replacement: Duke")}: step 4 ("No one challenges"): bad scripted '
        f"draw (replacement: Duke): the scripted draw Duke has 1 card(s); this draw takes 2; "
        f"`replacement:` scripts the one card drawn after a proven claim, `draw:` the cards an "
        f"exchange takes")


def test_a_scripted_draw_that_is_never_used_is_reported(tmp_path):
    path, text = write(tmp_path, "unused", '  - move: "Maria claims Duke: tax"\n',
                       '  - move: "Maria claims Duke: tax"\n    replacement: Duke\n')
    assert message(path) == (
        f'{path}:{line(text, "replacement: Duke")}: step 1 ("Maria claims Duke: tax"): the '
        f"scripted draw (replacement: Duke) is never used: the turn ends before any card is "
        f"drawn")


def test_a_prompt_must_be_on_a_move_of_the_learner(tmp_path):
    path, text = write(tmp_path, "prompt", '  - move: "Maria claims Duke: tax"\n',
                       '  - move: "Maria claims Duke: tax"\n    prompt:\n      question: Q?\n'
                       "      explanation: E.\n      wrong:\n        - move: \"Maria: income\"\n"
                       "          explanation: W.\n")
    assert message(path) == (
        f'{path}:{line(text, "prompt:")}: step 1 ("Maria claims Duke: tax"): a prompt asks the '
        f"learner (Cris) to choose this step's move, but the move is Maria's; put the prompt on "
        f"a step where Cris makes a single move")


def test_a_misquoted_rule_is_caught(tmp_path, monkeypatch):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "004_7a51b40b357838ae.txt").write_text(
        "Choose which, if any, to exchange.\nThen return two cards to the\nCourt deck.\n")
    monkeypatch.setenv(RULES_DIR_ENV, str(rules))
    good, _ = write(tmp_path, "quoted")
    check_file(good)  # the quote spans a line break in the text: still found
    path, text = write(tmp_path, "misquoted", "return two cards", "return three cards")
    assert message(path) == (
        f'{path}:{line(text, "quote:")}: step 5 ("Cris keeps Assassin and Captain"): rule: the '
        f"quote 'Then return three cards to the Court deck.' is not in "
        f"004_7a51b40b357838ae.txt; copy it word for word (use ... for left-out words)")


def test_text_without_a_file_is_labelled_as_such():
    with pytest.raises(ScenarioError) as info:
        parse_scenario("- just\n- a list\n")
    assert str(info.value) == ("<scenario>:1: a scenario file is a mapping with the keys id, "
                               "title, summary, setup and steps")


# ---------------------------------------------------------------- illegal moves, rule cases
AFTER_TAX = '  - move: "Maria claims Duke: tax"\n'


def test_a_move_said_to_be_illegal_that_is_legal_is_reported_at_its_line(tmp_path):
    path, text = write(tmp_path, "legal", AFTER_TAX, AFTER_TAX + "  - illegal: Cris passes\n")
    assert message(path) == (
        f'{path}:{line(text, "illegal: Cris passes")}: step 2 ("illegal: Cris passes"): '
        f"illegal: 'Cris passes' is a legal move here (Cris may challenge the claim or pass); an "
        f"`illegal:` step needs a move the rules refuse at this point")


def test_an_illegal_move_refused_for_another_reason_quotes_the_engine_s_reason(tmp_path):
    path, text = write(tmp_path, "reason", AFTER_TAX, AFTER_TAX + (
        "  - illegal: Ely challenges\n    because: claims no character\n"))
    assert message(path) == (
        f'{path}:{line(text, "because:")}: step 2 ("illegal: Ely challenges"): the engine '
        f"refuses 'Ely challenges', but for another reason: \"it is Cris's decision now "
        f"(challenge the claim or pass), not Ely's\"; `because: claims no character` is not in "
        f"it")


def test_the_because_words_may_be_any_part_of_the_reason_in_any_capitals(tmp_path):
    path, _ = write(tmp_path, "because", AFTER_TAX, AFTER_TAX + (
        "  - illegal: [Ely challenges, Maria challenges]\n    because: IT IS CRIS'S DECISION\n"))
    assert check_file(path).step(2).moves == ()


def test_a_legal_move_in_a_list_of_illegal_ones_is_reported_at_its_item(tmp_path):
    path, text = write(tmp_path, "listed", AFTER_TAX, AFTER_TAX + (
        "  - illegal:\n      - Ely challenges\n      - Cris challenges\n"))
    assert message(path).startswith(
        f'{path}:{line(text, "- Cris challenges")}: step 2 ("illegal: Ely challenges; Cris '
        f"challenges\"): illegal: 'Cris challenges' is a legal move here")


def test_an_illegal_step_names_one_player_s_move_not_a_window(tmp_path):
    path, text = write(tmp_path, "group", AFTER_TAX, AFTER_TAX + "  - illegal: No one blocks\n")
    assert message(path) == (
        f'{path}:{line(text, "illegal: No one")}: step 2 ("illegal: No one blocks"): illegal: '
        f"'No one blocks' is a whole window declining; an illegal move is one player's move, "
        f"e.g. 'Ben challenges'")


def test_an_illegal_step_cannot_script_a_draw(tmp_path):
    path, text = write(tmp_path, "drawn", AFTER_TAX, AFTER_TAX + (
        "  - illegal: Ely challenges\n    draw: [Duke]\n"))
    assert message(path) == (
        f'{path}:{line(text, "illegal: Ely")}: step 2 ("illegal: Ely challenges"): an '
        f"`illegal:` step plays no move, so it has no `draw:`")


def test_a_step_cannot_both_play_a_move_and_name_an_illegal_one(tmp_path):
    path, text = write(tmp_path, "both", AFTER_TAX, AFTER_TAX.replace(
        "\n", "\n    illegal: Ely challenges\n"))
    assert message(path) == (
        f'{path}:{line(text, "Maria claims Duke: tax")}: step 1 ("Maria claims Duke: tax"): a '
        f"step has `move:` (a move played) or `illegal:` (moves the rules refuse here), not both")


def test_an_illegal_step_must_name_a_move(tmp_path):
    path, text = write(tmp_path, "empty", AFTER_TAX, AFTER_TAX + "  - illegal: []\n")
    assert message(path) == (
        f"{path}:{line(text, 'illegal: []')}: step 2: illegal: `illegal:` is a move, e.g. 'Ben "
        f"challenges', or a list of moves; found []")


def test_a_lesson_without_steps_is_still_an_error(tmp_path):
    path, text = write(tmp_path, "nosteps")
    path.write_text(text.split("steps:")[0] + "steps: []\n", encoding="utf-8")
    assert message(path) == (
        f"{path}:{line(text, 'steps:')}: `steps:` needs at least one step (a file that only "
        f"sets up a position and checks it is a rule case: `mode: rule`)")


def test_a_rule_case_must_quote_its_rule(tmp_path):
    path, text = write(tmp_path, "unquoted", "summary:", "mode: rule\nsummary:")
    assert message(path) == (
        f"{path}:{line(text, 'mode: rule')}: a rule case (`mode: rule`) quotes the rule it pins "
        f"down: add `rule:` with `quote:` and `source:`")


def test_a_rule_case_must_check_something(tmp_path):
    path, text = write(tmp_path, "unchecked", "summary:", (
        "mode: rule\nrule:\n  quote: Whoever loses the challenge immediately loses an "
        "influence.\n  source: 004_7a51b40b357838ae.txt\nsummary:"))
    text = text.split("steps:")[0] + 'steps:\n  - "Maria: income"\n'
    path.write_text(text, encoding="utf-8")
    assert message(path) == (
        f"{path}:{line(text, 'mode: rule')}: a rule case (`mode: rule`) needs something to "
        f"check: a `checkpoint:` (under `setup:` or on a step) or an `illegal:` step")


def test_a_rule_case_s_own_rule_quote_is_checked(tmp_path, monkeypatch):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "004_7a51b40b357838ae.txt").write_text("Whoever loses the challenge immediately "
                                                     "loses an influence.\n")
    monkeypatch.setenv(RULES_DIR_ENV, str(rules))
    path, text = write(tmp_path, "misquoted-case", "summary:", (
        "mode: rule\nrule:\n  quote: Whoever loses the challenge loses two influences.\n"
        "  source: 004_7a51b40b357838ae.txt\nsummary:"))
    assert message(path) == (
        f"{path}:{line(text, 'quote: Whoever')}: rule: the quote 'Whoever loses the challenge "
        f"loses two influences.' is not in 004_7a51b40b357838ae.txt; copy it word for word "
        f"(use ... for left-out words)")


# ---------------------------------------------------------------- the command
def test_check_prints_one_line_per_file_and_fails_if_any_file_fails(tmp_path, capsys):
    good, _ = write(tmp_path, "good")
    bad, text = write(tmp_path, "bad", "{Maria: 5}", "{Maria: 6}")
    missing = tmp_path / "missing.yaml"
    assert main(["check", str(good), str(bad), str(missing)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"OK {good} (10 steps)"]
    assert err.splitlines() == [
        f'{bad}:{line(text, "Maria: 6")}: step 2 ("No one challenges"): checkpoint failed: '
        f"Maria coins expected 6, found 5",
        f"{missing}: cannot read the file: there is no such file",
    ]


def test_the_cli_exits_non_zero_without_a_traceback(tmp_path):
    bad, text = write(tmp_path, "cli", '"Ely claims Duke: tax"', '"Ely claims Duke: tax now"')
    result = subprocess.run([sys.executable, "-m", "trainer", "check", str(bad)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    # Only this line is ours; the package may warn on stderr too (e.g. about its build).
    assert (
        f'{bad}:{line(text, "tax now")}: step 6 ("Ely claims Duke: tax now"): cannot read the '
        f"move: unexpected words 'now' after 'tax' (tax takes no target)"
    ) in result.stderr.splitlines()


def test_the_cli_exits_zero_when_every_file_is_ok(tmp_path):
    good, _ = write(tmp_path, "fine")
    result = subprocess.run([sys.executable, "-m", "trainer", "check", str(good)],
                            capture_output=True, text=True, cwd=ROOT)
    assert (result.returncode, result.stdout) == (0, f"OK {good} (10 steps)\n")


# ---------------------------------------------------------------- variants
REFORM = """\
id: {id}
title: Reformation
summary: Allegiances.
setup:
  variant: reformation
  players:
    - name: Ana
      hidden: [Duke, Captain]
      allegiance: Loyalist
    - name: Ben
      hidden: [Duke, Assassin]
      allegiance: Reformist
    - name: Cat
      hidden: [Duke, Contessa]
      allegiance: Loyalist
  deck: [Assassin, Assassin, Captain, Captain, Ambassador, Ambassador, Ambassador, Contessa,
         Contessa]
  learner: Ana
steps:
  - "Ana: coup Cat"
"""


def test_a_variant_move_against_ones_own_allegiance_is_explained(tmp_path):
    path = tmp_path / "reform.yaml"
    path.write_text(REFORM.format(id="reform").replace("Ana\n      hidden: [Duke, Captain]",
                                                      "Ana\n      coins: 7\n      hidden: "
                                                      "[Duke, Captain]"))
    assert message(path).endswith(
        "step 1 (\"Ana: coup Cat\"): illegal move: Ana cannot coup a player of the same "
        "allegiance (Loyalist) while another allegiance is in the game")


def test_an_allegiance_missing_for_one_player_is_named(tmp_path):
    path = tmp_path / "reform.yaml"
    text = REFORM.format(id="reform").replace("      allegiance: Reformist\n", "")
    path.write_text(text)
    assert message(path) == (
        f"{path}:{line(text, 'name: Ben')}: setup: Ben has no allegiance; give every player "
        f"one, or none to start with the first player's choice")


def test_an_unknown_allegiance_lists_the_two(tmp_path):
    path = tmp_path / "reform.yaml"
    text = REFORM.format(id="reform").replace("allegiance: Reformist", "allegiance: Royalist")
    path.write_text(text)
    assert "'Loyalist' or 'Reformist'" in message(path)


def test_a_mat_event_of_another_name_is_refused(tmp_path):
    path = tmp_path / "reform.yaml"
    text = REFORM.format(id="reform").replace("  learner: Ana\n",
                                              "  learner: Ana\n  mat: {flip_turn_9: Duke}\n")
    path.write_text(text)
    assert "flip_turn_9" in message(path) and "flip_turn_1" in message(path)
