"""`python -m trainer estimate FILE --step N`: what a strong reasoner believes at a scenario's
decision, from the learner's point of view — the counting prior, the behavioural posterior,
each option's win probability and, for a challenge, the break-even belief p*."""

from __future__ import annotations

from typing import Any

from trainer.engine.cards import Character, proves
from trainer.engine.explain import PHASE_QUESTION
from trainer.engine.moves import MoveKind
from trainer.engine.names import card_name
from trainer.engine.observation import Observation
from trainer.engine.variants import parse_rules
from trainer.estimates.claims import pending_claim
from trainer.estimates.knowledge import Knowledge, knowledge
from trainer.estimates.posterior import Belief, mixture, p_holds
from trainer.estimates.rollouts import option_values
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import percent
from trainer.scenarios import Scenario, replay, run_scenario

# The behaviour model the estimates assume unless told otherwise: the personas equally likely.
DEFAULT_MODEL = {"honest": 1.0, "rule": 1.0, "bluffer": 1.0, "skeptic": 1.0}
# The personas' names as a reader sees them (the model's keys are identifiers).
PERSONA_WORDS = {"honest": N_("honest"), "rule": N_("rule"), "bluffer": N_("bluffer"),
                 "skeptic": N_("skeptic")}


def persona_name(name: str) -> str:
    """A persona's name in the reader's language (an unknown one as it is)."""
    return tr(PERSONA_WORDS[name]) if name in PERSONA_WORDS else name


def _belief(scenario: Scenario, upto: int, observer: int, model: dict[str, float],
            belief_type: type[Belief] | None = None) -> Belief:
    """The observer's evidence after the first `upto` steps, fed move by move (into a
    `belief_type`, a `Belief` subclass that may keep a record; `Belief` by default)."""
    variant = parse_rules(scenario.setup.variant).variant
    belief = (belief_type or Belief)(observer, mixture(model), variant.cards)
    run = run_scenario(scenario)
    for k in range(1, upto + 1):
        game = replay(scenario, k - 1)
        for move in run.step(k).moves:
            belief.observe(game.observation(observer), move)
            game.apply(move)
    return belief


def estimate(scenario: Scenario, step: int, *, rollouts: int = 300, seed: int = 0,
             model: dict[str, float] | None = None) -> dict[str, Any]:
    model = model or DEFAULT_MODEL
    run = run_scenario(scenario)
    if not 0 <= step <= len(run.steps):
        raise ValueError(f"steps are numbered 0 to {len(run.steps)}, not {step}")
    learner = run.learner
    game = replay(scenario, step)
    if game.is_over:
        raise ValueError(f"the game is over after step {step}: there is no decision")
    obs = game.observation(learner)
    belief = _belief(scenario, step, learner, model)
    names = game.names
    variant = parse_rules(scenario.setup.variant).variant
    roles = variant.claimable()
    k = knowledge(obs)
    opponents = {}
    for j in sorted(k.unknown_cards):
        opponents[names[j]] = {
            "prior": {str(c): round(p_holds(obs, None, j, c), 4) for c in roles},
            "posterior": {str(c): round(p_holds(obs, belief, j, c), 4) for c in roles},
        }
    d = game.pending
    assert d is not None
    result: dict[str, Any] = {
        "scenario": scenario.id, "step": step, "viewer": names[learner],
        "decision": {"player": names[d.player], "phase": str(d.phase),
                     "question": PHASE_QUESTION[d.phase]},
        "model": model, "opponents": opponents,
    }
    claimant, role = pending_claim(game)
    if claimant is not None and role is not None and claimant != learner:
        prior = p_holds(obs, None, claimant, role)
        post = p_holds(obs, belief, claimant, role)
        result["claim"] = {"claimant": names[claimant], "character": str(role),
                           "p_honest_prior": round(prior, 4), "p_honest": round(post, 4),
                           "p_bluff": round(1 - post, 4)}
        result["explanation"] = explain(obs, k, claimant, role, prior, post, names, model)
    if d.player == learner:
        values, cv = option_values(game, learner, belief, mixture(model), rollouts, seed)
        result["options"] = [{"move": v.label, "win": round(v.win, 4), "se": round(v.se, 4),
                              "rollouts": v.n} for v in values]
        if cv is not None:
            result["p_star"] = None if cv.p_star is None else round(cv.p_star, 4)
            result["challenge"] = {"w_pass": round(cv.w_pass, 4), "w_win": round(cv.w_win, 4),
                                   "w_lose": round(cv.w_lose, 4)}
    return result


def explain(obs: Observation, k: Knowledge, claimant: int, role: Character, prior: float,
            post: float,
            names: tuple[str, ...] | list[str], model: dict[str, float]) -> str:
    """The estimate in a few sentences a learner can check."""
    copies = sum(1 for c in obs.rule_set.court(len(obs.seats)) if proves(c, role))
    mine = sum(1 for c in obs.hand if proves(c, role))
    up = sum(1 for s in obs.seats for c in s.revealed if proves(c, role))
    claims = sum(1 for e in obs.events if e.kind == "move" and e.data["move"].player == claimant
                 and ((e.data["move"].kind is MoveKind.BLOCK
                       and e.data["move"].character == role)
                      or (e.data["move"].kind is MoveKind.ACT and e.data["move"].action
                          is not None and obs.rule_set.spec(
                              e.data["move"].action).claim == role)))
    seen = []
    if mine:
        seen.append(tr("{n} in your hand", n=mine))
    if up:
        seen.append(tr("{n} face up", n=up))
    where = f" ({', '.join(seen)})" if seen else ""
    people = ", ".join(tr("{kind} {share}", kind=persona_name(c.name), share=percent(c.weight))
                       for c in mixture(model))
    name, card = names[claimant], card_name(role)
    counted = tr("{visible} of the {copies} {card}s are visible to you{where}, so by counting "
                 "alone {name} holds one with probability {prior}.", visible=mine + up,
                 copies=copies, card=card, where=where, name=name, prior=percent(prior))
    claimed = tr_n("{name} has claimed {card} {n} time this game.",
                   "{name} has claimed {card} {n} times this game.", claims, name=name,
                   card=card)
    weighed = tr("Weighing the kinds of player the bot knows ({people}) by how well each "
                 "explains the moves so far, the claim is honest with probability {post}.",
                 people=people, post=percent(post))
    return f"{counted} {claimed} {weighed}"


def report_text(result: dict[str, Any]) -> str:
    """The `estimate` result in lines a learner reads top to bottom: the decision, then the
    beliefs, the claim and the options that follow from them."""
    lines = [f"{result['scenario']}, after step {result['step']}: "
             f"{result['decision']['player']} must {result['decision']['question']} "
             f"(seen by {result['viewer']})"]
    for name, est in result["opponents"].items():
        row = ", ".join(f"{c} {est['prior'][c]:.2f}→{est['posterior'][c]:.2f}"
                        for c in est["prior"])
        lines.append(f"  {name} holds (counting → posterior): {row}")
    if "claim" in result:
        c = result["claim"]
        lines.append(f"  claim: {c['claimant']}'s {c['character']} is honest with probability "
                     f"{c['p_honest']:.2f} (counting alone {c['p_honest_prior']:.2f})")
        lines.append(f"  {result['explanation']}")
    for o in result.get("options", []):
        lines.append(f"  option {o['move']}: wins {o['win']:.3f} ± {o['se']:.3f} "
                     f"({o['rollouts']} rollouts)")
    if "p_star" in result:
        lines.append(f"  p* = {result['p_star']} (challenging pays when P(bluff) > p*)")
    return "\n".join(lines)
