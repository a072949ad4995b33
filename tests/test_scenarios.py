"""The shipped scenarios replay through the engine and teach what they say they teach."""

import json
import pickle
from collections import Counter
from pathlib import Path

import pytest
import yaml

from trainer.cli import main
from trainer.engine.cards import Action, Character
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.rulebook.sources import rules_dir
from trainer.scenarios import (
    ScenarioError,
    check_file,
    check_quotes,
    load_scenario,
    load_scenarios,
    parse_scenario,
    prompt_for,
    replay,
    run_scenario,
    step_texts,
)
from trainer.scenarios.lessons import FIVE_MINUTES
from trainer.scenarios.schema import SCHEMA_PATH, schema_text

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
EXAMPLE = ROOT / "scenarios" / "rulebook-example-play.yaml"
D, A, CAP, AMB, CON = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN,
                       Character.AMBASSADOR, Character.CONTESSA)
MARIA, CRIS, ELY = 0, 1, 2


def scenario(name: str):
    return load_scenario(ROOT / "scenarios" / f"{name}.yaml")


def game_after(name: str, step: int | None = None):
    return replay(scenario(name), step)


# ---------------------------------------------------------------- every shipped file
def test_the_six_required_scenarios_are_shipped():
    assert {p.stem for p in SCENARIOS} >= {
        "rulebook-example-play", "double-danger", "challenged-steal-block",
        "exchange-one-influence", "forced-coup", "two-player-start"}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_shipped_scenario_checks_ok(path):
    run = check_file(path)
    assert len(run.steps) == len(run.scenario.steps)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_shipped_scenario_has_checkpoints_narration_and_a_prompt(path):
    s = load_scenario(path)
    if s.mode == "game":  # a free game: its winning line is what `check` proves
        assert s.practice is not None and s.practice.line
        return
    assert sum(step.checkpoint is not None for step in s.steps) >= 2
    assert any(step.narration for step in s.steps)
    assert any(step.prompt for step in s.steps)


def test_check_command_prints_ok_for_every_shipped_file(capsys):
    assert main(["check", *map(str, SCENARIOS)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(SCENARIOS)
    assert out[0] == f"OK {SCENARIOS[0]} ({len(load_scenario(SCENARIOS[0]).steps)} steps)"


@pytest.mark.skipif(rules_dir() is None, reason="the rule texts are not on this machine")
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_rule_quote_is_word_for_word_in_its_text(path):
    check_quotes(load_scenario(path))


def test_lessons_are_listed_in_their_order():
    ids = [s.id for s in load_scenarios(ROOT / "scenarios")]
    assert ids[:len(FIVE_MINUTES)] == list(FIVE_MINUTES)  # the newcomer's path comes first
    orders = [s.order for s in load_scenarios(ROOT / "scenarios")]
    assert orders == sorted(orders)


# ---------------------------------------------------------------- the rulebook's example
def test_example_play_after_the_first_round_is_as_the_text_states():
    g = replay(load_scenario(EXAMPLE), 10)
    assert g.coins == [5, 2, 5]
    assert Counter(g.hidden[MARIA]) == Counter([CON, D])
    assert g.hidden[CRIS] == [CAP]
    assert Counter(g.hidden[ELY]) == Counter([A, CON])
    assert [c for r in g.revealed for c in r] == [A]  # "One Assassin has been revealed"
    assert g.treasury == 50 - 12


def test_example_play_ends_exactly_as_the_text_states():
    g = replay(load_scenario(EXAMPLE))
    assert g.coins == [1, 5, 0]
    assert Counter(g.hidden[MARIA]) == Counter([CON, D])  # 2 influence: Contessa and Duke
    assert g.hidden[CRIS] == [CAP]  # 1 influence: Captain
    assert g.alive == [True, True, False]  # "Ely is out of the game"
    assert Counter(c for r in g.revealed for c in r) == Counter([A, A, CON])
    assert g.treasury == 50 - 6
    assert g.actor == MARIA and g.pending.phase is Phase.ACTION  # "Play continues..."


def test_example_play_cris_exchange_draws_an_assassin_and_a_duke():
    run = run_scenario(load_scenario(EXAMPLE))
    draws = [e.data for s in run.steps for e in s.events if e.kind == "draw"]
    assert draws[0]["player"] == CRIS and draws[0]["why"] == "exchange"
    assert Counter(draws[0]["cards"]) == Counter([A, D])


def test_example_play_ely_draws_a_contessa_after_proving_his_duke():
    run = run_scenario(load_scenario(EXAMPLE))
    draws = [e.data for s in run.steps for e in s.events if e.kind == "draw"]
    assert draws[1] == {"player": ELY, "cards": (CON,), "why": "replacement"}


def test_example_play_cris_still_takes_ely_s_coins_when_the_steal_exiles_him():
    s = load_scenario(EXAMPLE)
    assert s.setup.options.steal_from_eliminated is True
    before, after = replay(s, 23), replay(s, 24)
    assert (before.coins[CRIS], before.coins[ELY]) == (3, 2)
    assert (after.coins[CRIS], after.coins[ELY]) == (5, 0)


def test_example_play_asks_one_player_at_a_time():
    run = run_scenario(load_scenario(EXAMPLE))
    assert run.step(2).described == ("Cris passes", "Ely passes")
    assert run.step(17).described == ("Ely passes", "Cris passes")  # the block: actor first


# ---------------------------------------------------------------- one lesson each
def test_a_challenged_contessa_bluff_costs_two_influences_in_one_turn():
    run = run_scenario(scenario("double-danger"))
    lost = [(s.turn, e.data["card"]) for s in run.steps for e in s.events
            if e.kind == "lost" and e.data["player"] == 1]
    assert lost == [(1, CAP), (1, AMB)]


def test_losing_a_challenge_against_a_real_assassin_costs_two_influences():
    run = run_scenario(scenario("double-danger"))
    lost = [(s.turn, e.data["reason"]) for s in run.steps for e in s.events
            if e.kind == "lost" and e.data["player"] == 2]
    assert lost == [(3, "lost a challenge"), (3, "assassinated")]
    assert game_after("double-danger").winner == 0


def test_a_true_block_stands_and_the_challenger_loses_a_card():
    g = game_after("challenged-steal-block", 6)
    assert g.coins == [2, 2, 2]
    assert g.revealed[0] == [AMB]


def test_a_bluffed_block_that_is_challenged_lets_the_steal_through():
    g = game_after("challenged-steal-block")
    assert g.coins == [2, 1, 4]
    assert g.revealed[1] == [D]


def test_exchange_with_one_influence_keeps_one_card_of_three():
    s = scenario("exchange-one-influence")
    mid = replay(s, 2)
    assert Counter(mid.exchange_pool()) == Counter([AMB, A, CAP])
    assert {len(m.cards) for m in mid.legal_moves()} == {1}
    end = replay(s)
    assert end.hidden[0] == [CAP] and len(end.deck) == 11


def test_at_ten_coins_only_a_coup_is_legal():
    g = game_after("forced-coup", 2)
    assert g.coins[0] == 10
    assert {m.action for m in g.legal_moves()} == {Action.COUP}


def test_two_player_first_player_starts_with_one_coin():
    g = game_after("two-player-start", 0)
    assert g.coins == [1, 2]
    assert g.treasury == 47


# ---------------------------------------------------------------- the Learn page's API
def test_replay_of_zero_steps_is_the_setup():
    g = replay(load_scenario(EXAMPLE), 0)
    assert g.turn == 1 and g.coins == [2, 2, 2] and len(g.deck) == 9


def test_step_texts_are_the_moves_as_written():
    texts = step_texts(load_scenario(EXAMPLE))
    assert texts[:3] == ["Maria claims Duke: tax", "No one challenges",
                         "Cris claims Ambassador: exchange"]


def test_a_scenario_run_survives_pickling_for_session_state():
    run = run_scenario(load_scenario(EXAMPLE))
    copy = pickle.loads(pickle.dumps(run))
    assert copy.step_texts() == run.step_texts()
    assert copy.scenario.path == run.scenario.path
    assert copy.game_after(24).coins == [1, 5, 0]


def test_a_prompt_lists_the_correct_move_first_and_explains_every_option():
    view = prompt_for(load_scenario(EXAMPLE), 23)
    assert view.player_name == "Cris"
    assert view.correct.move == Move.challenge(CRIS)
    assert [o.correct for o in view.options] == [True, False]
    assert all(o.explanation for o in view.options)
    assert view.judge(Move.pass_(CRIS)).correct is False


def test_a_prompt_marks_options_the_rules_forbid_and_says_why():
    view = prompt_for(scenario("forced-coup"), 3)
    income = view.judge(Move.act(0, Action.INCOME))
    assert income.legal is False and "must launch a Coup" in income.why_illegal
    assert view.correct.legal is True


def test_a_keep_prompt_judges_cards_in_any_order():
    view = prompt_for(scenario("exchange-one-influence"), 3)
    wrong = view.judge(Move(MoveKind.KEEP, 0, cards=(CAP, A)))
    assert wrong is not None and not wrong.legal


# ---------------------------------------------------------------- format conveniences
SMALL = """\
id: small
title: Small
summary: Two incomes.
setup:
  players:
    - {name: Kim, hidden: [Duke, Captain]}
    - {name: Leo, hidden: [Assassin, Contessa]}
  deck: [Ambassador, Duke, Assassin, Captain, Contessa, Ambassador, Duke, Assassin, Captain,
         Contessa, Ambassador]
  learner: Kim
steps:
  - Kim: income
  - "Leo: income"
  - move: Kim passes
"""


def test_a_step_may_be_just_its_move_even_unquoted():
    s = parse_scenario(SMALL.replace("  - move: Kim passes\n", ""))
    assert step_texts(s) == ["Kim: income", "Leo: income"]
    assert replay(s).coins == [2, 3]


def test_committed_json_schema_matches_the_models():
    assert (ROOT / SCHEMA_PATH).read_text(encoding="utf-8") == schema_text(), (
        "regenerate with: python -m trainer schema")


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_shipped_scenarios_validate_against_the_json_schema(path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / SCHEMA_PATH).read_text(encoding="utf-8"))
    jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)


def test_the_guide_s_complete_example_checks_ok(tmp_path):
    guide = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = guide.split("## A complete small example\n\n```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "foreign-aid-block.yaml"
    path.write_text(example, encoding="utf-8")
    assert len(check_file(path).steps) == 3


def test_the_example_play_needs_the_steal_from_an_exiled_player_to_pay():
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "  learner: Cris\n", "  learner: Cris\n  options: {steal_from_eliminated: false}\n")
    with pytest.raises(ScenarioError) as info:
        run_scenario(parse_scenario(text, path="example.yaml"))
    assert 'step 24 ("Ely loses Assassin"): checkpoint failed: Cris coins expected 5, found 3' \
        in str(info.value)


GRAMMAR_NAMES = """\
id: grammar-names
title: Players named like the grammar's words
summary: A, No and Everyone are players, even where YAML or the grammar would read a word.
setup:
  players:
    - name: A
      hidden: [Duke, Captain]
    - name: No
      hidden: [Contessa, Captain]
    - name: Everyone
      hidden: [Assassin, Ambassador]
  deck: [Duke, Duke, Assassin, Assassin, Captain, Ambassador, Ambassador, Contessa, Contessa]
  learner: No
steps:
  - "A: foreign aid"
  - No passes
  - move: Everyone passes
    checkpoint:
      coins: {A: 4, No: 2, Everyone: 2}
      next: No
  - "No claims Captain: steal from A"
  - move: No one challenges
    checkpoint:
      next: {player: A, phase: block}
"""


def test_players_may_be_called_a_no_and_everyone():
    run = run_scenario(parse_scenario(GRAMMAR_NAMES))
    assert run.names == ("A", "No", "Everyone")
    assert [m.player for m in run.step(3).moves] == [2]  # Everyone's own pass, not a group
    assert run.step(4).moves == (Move.act(1, Action.STEAL, 0),)
    assert [m.player for m in run.step(5).moves] == [2, 0]  # "No one" is the group again


# ---------------------------------------------------------------- rule cases
RULE_CASE = """\
id: income-unchallengeable
title: Income cannot be challenged
summary: Income claims no character, so there is nothing to challenge.
mode: rule
rule:
  quote: "Income: Take one coin from the bank. This cannot be Challenged or Blocked."
  source: 000_6e655cddb6a19b32.txt
setup:
  players:
    - name: Ana
      hidden: [Duke, Captain]
    - name: Ben
      hidden: [Contessa, Captain]
    - name: Cat
      hidden: [Assassin, Ambassador]
  deck: [Duke, Duke, Assassin, Assassin, Captain, Ambassador, Ambassador, Contessa, Contessa]
  learner: Ben
steps:
  - "Ana: income"
  - illegal: [Cat challenges, Ana passes]
    because: "it is Ben's decision now (choose an action)"
    checkpoint:
      coins: {Ana: 3}
      next: {player: Ben, phase: action}
"""


def test_an_illegal_step_plays_nothing_and_leaves_the_game_as_it_was():
    s = parse_scenario(RULE_CASE)
    run = run_scenario(s)
    assert run.step(2).moves == () and run.step(2).text == (
        "illegal: Cat challenges; Ana passes")
    assert replay(s, 2).snapshot() == replay(s, 1).snapshot()


def test_a_rule_case_needs_no_steps_when_its_set_up_checkpoint_pins_the_rule():
    text = RULE_CASE.split("steps:")[0].replace("  learner: Ben\n", (
        "  learner: Ben\n  first: Ben\n  checkpoint:\n    coins: {Ana: 2, Ben: 2, Cat: 2}\n"
        "    legal_actions: [income, foreign aid, tax, steal, exchange]\n"))
    run = run_scenario(parse_scenario(text))
    assert run.steps == ()


def test_check_counts_the_checks_of_a_rule_case(tmp_path, capsys):
    path = tmp_path / "income-unchallengeable.yaml"
    path.write_text(RULE_CASE, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out == f"OK {path} (rule case, 3 checks)\n"


def test_a_rule_case_is_not_a_lesson_of_the_library(tmp_path):
    from trainer.scenarios.lessons import load_library

    (tmp_path / "income-unchallengeable.yaml").write_text(RULE_CASE, encoding="utf-8")
    (tmp_path / "first-block.yaml").write_text(
        (ROOT / "scenarios" / "first-block.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    library = load_library(tmp_path)
    assert ([lesson.id for lesson in library.lessons], library.broken) == (["first-block"], ())


def guide_rule_cases() -> list[tuple[str, str]]:
    """The worked examples of the guide's "Rule cases" section: (file name, text)."""
    guide = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = guide.split("\n## Rule cases\n", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0] for b in section.split("```yaml\n")[1:]]
    return [(b.split("\n", 1)[0].removeprefix("# scenarios/rules/"), b.split("\n", 1)[1])
            for b in blocks]


def test_the_guide_s_rule_cases_are_the_shipped_files_and_check_ok():
    examples = guide_rule_cases()
    assert len(examples) == 3
    for name, text in examples:
        path = ROOT / "scenarios" / "rules" / name
        assert path.read_text(encoding="utf-8") == text, f"{name} differs from the guide"
        assert check_file(path).scenario.mode == "rule"
