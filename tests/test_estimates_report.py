"""`python -m trainer estimate`: the prior, the posterior, option values and p* at a
scenario's decision, as text and JSON."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from trainer.cli import main
from trainer.estimates import posterior
from trainer.estimates.posterior import mixture
from trainer.estimates.rollouts import determinize
from trainer.scenarios import load_scenario, replay

ROOT = Path(__file__).resolve().parent.parent
DANGER = str(ROOT / "scenarios" / "double-danger.yaml")


def test_the_json_report_of_a_challenge_decision(capsys):
    assert main(["estimate", DANGER, "--step", "3", "--json", "--rollouts", "30"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decision"] == {"player": "Ana", "phase": "challenge_block",
                               "question": "challenge the block or pass"}
    claim = out["claim"]
    assert claim["claimant"] == "Ben" and claim["character"] == "Contessa"
    # 1 of 3 Contessas is in Ana's hand: 13 unseen, 2 of them Contessas, Ben holds 2 cards.
    assert claim["p_honest_prior"] == pytest.approx(1 - 55 / 78, abs=1e-4)
    assert 0.0 <= claim["p_honest"] <= 1.0
    assert {o["move"] for o in out["options"]} == {"Ana challenges", "Ana passes"}
    assert all(o["rollouts"] == 30 and 0 <= o["se"] <= 0.1 for o in out["options"])
    assert out["p_star"] is None or 0.0 <= out["p_star"] <= 1.0
    assert "Contessas are visible to you" in out["explanation"]


def test_the_text_report_names_the_claim_and_p_star(capsys):
    assert main(["estimate", DANGER, "--step", "3", "--rollouts", "20"]) == 0
    out = capsys.readouterr().out
    assert "Ben's Contessa is honest with probability" in out and "p* =" in out


def test_a_step_outside_the_scenario_is_refused(capsys):
    assert main(["estimate", DANGER, "--step", "99"]) == 2
    assert "steps are numbered 0 to 13" in capsys.readouterr().err


def test_a_determinized_world_keeps_what_the_viewer_knows_and_replaces_the_rest():
    game = replay(load_scenario(DANGER), 3)
    world = determinize(game, 0, {1: ("Duke", "Duke"), 2: ("Captain", "Captain")},
                        random.Random(0))
    assert world.hidden[0] == game.hidden[0]
    assert world.hidden[1] == ["Duke", "Duke"] and world.hidden[2] == ["Captain", "Captain"]
    assert sorted(world.deck + [c for h in world.hidden for c in h]) == sorted(
        game.deck + [c for h in game.hidden for c in h])
    assert world.pending == game.pending


def test_a_bluffing_game_persona_is_split_into_two_components():
    comps = mixture({"rule": 1.0, "honest": 1.0}, uninformed=0.0)
    assert [c.name for c in comps] == ["rule (bluffing game)", "rule (honest game)", "honest"]
    assert sum(c.weight for c in comps) == pytest.approx(1.0)


def test_the_model_keeps_a_share_for_players_no_bot_describes():
    comps = mixture({"rule": 1.0, "honest": 1.0})
    strangers = [c for c in comps if not c.cast]
    assert [c.name for c in strangers] == [name for name, _, _ in posterior.strangers()]
    assert sum(c.weight for c in strangers) == pytest.approx(
        posterior.CASUAL + posterior.RECKLESS + posterior.UNINFORMED)
    assert sum(c.weight for c in comps) == pytest.approx(1.0)


def test_rollouts_cast_only_the_bots_personas():
    import random

    from trainer.estimates.rollouts import _pick

    comps = mixture({"rule": 1.0, "honest": 1.0})
    rng = random.Random(0)
    cast = [_pick(comps, rng) for _ in range(200)]
    assert {p.name for p in cast} == {"Rule bot", "Honest"}
    # The model reads the personas loosely; the rollouts play them as the bots play.
    assert all(c.persona.loose > 0 for c in comps if c.cast)
    assert all(p.loose == 0 for p in cast)
