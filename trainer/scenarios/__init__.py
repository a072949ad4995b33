"""Scenarios: lesson files in YAML, read with line numbers and replayed through the engine.

    load_scenario(path) -> Scenario            parse and statically check one file
    load_scenarios(directory) -> [Scenario]    every *.yaml there, in lesson order
    run_scenario(scenario) -> ScenarioRun      replay everything; per-step results and prompts
    replay(scenario, upto_step) -> Game        the game after the first `upto_step` steps
    prompt_for(scenario, step) -> PromptView   the question asked before a step, if any
    check_file(path) -> ScenarioRun            everything `python -m trainer check` checks

Every problem is a `ScenarioError` whose message starts with ``file:line:``.
"""

from trainer.scenarios.errors import ScenarioError
from trainer.scenarios.loader import load_scenario, load_scenarios, parse_scenario
from trainer.scenarios.replay import (
    PromptOption,
    PromptView,
    ScenarioRun,
    StepResult,
    check_file,
    check_quotes,
    prompt_for,
    replay,
    run_scenario,
    step_texts,
)
from trainer.scenarios.schema import Scenario

__all__ = [
    "PromptOption", "PromptView", "Scenario", "ScenarioError", "ScenarioRun", "StepResult",
    "check_file", "check_quotes", "load_scenario", "load_scenarios", "parse_scenario",
    "prompt_for", "replay", "run_scenario", "step_texts",
]
