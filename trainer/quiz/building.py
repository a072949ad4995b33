"""Building a question bank: find decision points in persona games and lessons, then grade
every option by determinized rollouts.

Why apart from the bank itself: reading a bank and asking its items takes milliseconds and
only the engine; building one plays thousands of games with the bots and the estimates.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from trainer.batch import run
from trainer.engine.cards import Action, Character, proves
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import parse_rules, rules_text
from trainer.estimates.claims import pending_claim
from trainer.estimates.knowledge import knowledge
from trainer.estimates.posterior import Belief, mixture, p_holds
from trainer.estimates.report import DEFAULT_MODEL, explain
from trainer.estimates.rollouts import Precision, values
from trainer.learners.answers import GRADE_BOUNDS
from trainer.paths import scenarios_dir
from trainer.policies.personas import Persona, personas
from trainer.policies.runner import Runner, SeatStreams
from trainer.quiz.bank import (
    CHALLENGING_A_BLOCK,
    CLAIM_THEMES,
    END_GAME,
    ITEMS_PER_GAME,
    KIND_SHARE,
    KIND_THEMES,
    PLAYER_SHARE,
    VARIANT_THEME,
    Bank,
    Item,
    Option,
    move_to_data,
    new_game,
)
from trainer.quiz.leaks import Seen, tells, without_leaks
from trainer.rulebook.choices import title as rule_set_title

K = TypeVar("K")


# ------------------------------------------------------------------------ labels
def option_label(game: Game, move: Move) -> str:
    """The move as the learner would say it, in the second person."""
    names = game.names
    k = move.kind
    if k is MoveKind.ACT and move.action is not None:
        spec = game.variant.spec(move.action)
        word = game.options.action_label(move.action).capitalize()
        target = f" {names[move.target]}" if move.target is not None else ""
        if move.action is Action.STEAL and move.target is not None:
            target = f" from {names[move.target]}"
        claim = f" (claim {spec.claim})" if spec.claim and not spec.inverted else ""
        return f"{word}{target}{claim}"
    if k is MoveKind.CHALLENGE:
        return "Challenge"
    if k is MoveKind.PASS:
        d = game.pending
        return "Don't block" if d is not None and d.phase is Phase.BLOCK else "Pass"
    if k is MoveKind.BLOCK:
        return f"Block with {move.character}"
    if k is MoveKind.LOSE:
        return f"Lose your {move.character}"
    if k is MoveKind.KEEP:
        return f"Keep {' and '.join(move.cards or ())}"
    return game.describe(move)


# ------------------------------------------------------------------------ candidates
def decision_kind(game: Game) -> str | None:
    """The kind of item this pending decision makes, or None when it is not a question
    worth asking (forced, or a phase the quiz does not cover)."""
    d = game.pending
    if d is None:
        return None
    legal = game.legal_moves()
    if len(legal) < 2:
        return None
    phase = d.phase
    if phase in (Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK, Phase.CHALLENGE_CLAIM):
        return "challenge" if pending_claim(game)[0] is not None else None
    if phase is Phase.BLOCK:
        return "block" if any(m.kind is MoveKind.BLOCK for m in legal) else None
    if phase is Phase.LOSE:
        return "lose" if len({m.character for m in legal}) > 1 else None
    if phase is Phase.EXCHANGE:
        return "keep" if len({m.cards for m in legal}) > 1 else None
    if phase is Phase.ACTION:
        mine = {c.role for c in game.hidden[d.player]}
        for m in legal:
            if m.action is not None:
                spec = game.variant.spec(m.action)
                if spec.claim is not None and not spec.inverted and spec.claim not in mine:
                    return "bluff"
    return None


def action_options(game: Game) -> list[Move]:
    """One move per action (bluffs included): the natural target for a targeted action — the
    richest opponent for a steal, otherwise the one with most influence, then coins."""
    legal = game.legal_moves()
    d = game.pending
    assert d is not None
    seats = game.coins
    by_action: dict[Action, list[Move]] = {}
    for m in legal:
        if m.action is not None:
            by_action.setdefault(m.action, []).append(m)
    out = []
    for action, moves in by_action.items():
        if len(moves) == 1 or moves[0].target is None:
            out.append(moves[0])
            continue

        def key(m: Move, action: Action = action) -> tuple[int, int]:
            t = m.target if m.target is not None else 0
            if action is Action.STEAL:
                return (seats[t], len(game.hidden[t]))
            return (len(game.hidden[t]), seats[t])

        out.append(max(moves, key=key))
    return out


def options_for(game: Game, kind: str) -> list[Move]:
    legal = list(game.legal_moves())
    if kind == "bluff":
        return action_options(game)
    if kind == "lose":
        return list({m.character: m for m in legal}.values())
    if kind == "keep":
        return list({m.cards: m for m in legal}.values())
    return legal


def variant_theme(rules: str) -> str:
    """The theme of every item of a rule set other than the base game: "Variant: " and its
    title (and the table rules it changes, in a few words)."""
    return f"{VARIANT_THEME}{rule_set_title(rules)}"


def _themes(game: Game, kind: str, claim: Character | None, source: str) -> tuple[str, ...]:
    themes = []
    d = game.pending
    assert d is not None
    if claim is not None:
        themes.append(CLAIM_THEMES.get(claim.role, f"{claim.role} claims"))
        if d.phase is Phase.CHALLENGE_BLOCK:
            themes.append(CHALLENGING_A_BLOCK)
        if d.action is Action.EXCHANGE and "Exchanges" not in themes:
            themes.append("Exchanges")
    if kind in KIND_THEMES and KIND_THEMES[kind] not in themes:
        themes.append(KIND_THEMES[kind])
    if kind == "block" and d.action is not None:
        # McGuire's Vengeance is no action of the table: it claims nothing
        spec = next((a for a in game.variant.actions if a.action is d.action), None)
        if spec is not None and spec.claim is not None and spec.claim.role in CLAIM_THEMES:
            themes.append(CLAIM_THEMES[spec.claim.role])
    if sum(1 for h in game.hidden if h) == 2:
        themes.append(END_GAME)
    rules = rules_text(game.variant, game.options)
    if rules != "base":
        themes.append(variant_theme(rules))
    return tuple(dict.fromkeys(themes))


def difficulty(spread_pp: float, second_gap_pp: float, bot: float | None,
               p_star: float | None) -> str:
    """Easy when one option is clearly best (and, for a challenge, the bot's belief is far
    from the break-even point); hard when the best two options are close or the belief sits
    near p*."""
    near = bot is not None and p_star is not None and abs(bot - p_star) < 0.1
    if second_gap_pp >= 15 and not near:
        return "easy"
    if second_gap_pp < 5 or near:
        return "hard"
    return "medium"


# ------------------------------------------------------------------------ building
# The one precision every decision is valued with (bank items, the Play coach and review):
# playouts in doubling batches from `FIRST_BATCH` per option until every option's grade band
# (`GRADE_BOUNDS`) is clear, at most `PLAYOUTS` per option. The cap is what a close decision
# costs; most decisions settle well before it.
FIRST_BATCH = 64
PLAYOUTS = 1024


def precision(cap: int = PLAYOUTS) -> Precision:
    """Sequential playouts graded on the quiz's bands, at most `cap` per option."""
    return Precision(cap=cap, first=min(FIRST_BATCH, cap),
                     edges=tuple(bound for _, bound in GRADE_BOUNDS))


def evaluate(game: Game, viewer: int, belief: Belief | None, *, kind: str, source: str,
             rollouts: int, rollout_seed: int, model: dict[str, float] | None = None,
             options_to_value: Sequence[Move] | None = None,
             claim: tuple[int, Character] | None = None, fixed: bool = False,
             **position: Any) -> Item:
    """An item for the viewer's pending decision in `game`: truth, estimates, option values
    by sequential playouts (`precision`: at most `rollouts` per option, the item's
    `rollouts`), or by exactly `rollouts` each when `fixed` (a reference).
    `options_to_value` replaces the kind's usual options; `claim` (claimant, character) names
    the claim to judge where it is not the one a challenge window is about (a block
    decision judges the action's claim)."""
    model = model or DEFAULT_MODEL
    comps = mixture(model)
    moves = list(options_to_value) if options_to_value is not None else options_for(game, kind)
    how = Precision.fixed(rollouts) if fixed else precision(rollouts)
    valuation = values(game, viewer, belief, comps, how, rollout_seed, moves=moves)
    cv = valuation.challenge
    options = tuple(Option(v.move, option_label(game, v.move), v.win, v.se, v.diff_se, v.n,
                           v.stop)
                    for v in valuation.options)
    claimant, role = claim or (pending_claim(game) if kind == "challenge" else (None, None))
    extra: dict[str, Any] = {}
    if claimant is not None and role is not None:
        obs = game.observation(viewer)
        prior = p_holds(obs, None, claimant, role)
        post = p_holds(obs, belief, claimant, role)
        low, high = belief.spread(obs, claimant, role) if belief is not None else (post, post)
        hand = tuple(str(c) for c in game.hidden[claimant])
        extra = dict(
            claimant=claimant, claim=str(role),
            bluff=not any(proves(c, role) for c in game.hidden[claimant]),
            claimant_hand=hand, bot=round(1 - post, 4), prior=round(1 - prior, 4),
            bot_low=round(1 - high, 4), bot_high=round(1 - low, 4),
            explanation=explain(obs, knowledge(obs), claimant, role, prior, post,
                                game.names, model),
        )
        if cv is not None:
            extra.update(p_star=None if cv.p_star is None else round(cv.p_star, 4),
                         w_win=round(cv.w_win, 4), w_lose=round(cv.w_lose, 4))
    wins = sorted((o.win for o in options), reverse=True)
    gap = 100 * (wins[0] - wins[1]) if len(wins) > 1 else 100.0
    spread = 100 * (wins[0] - wins[-1])
    diff = difficulty(spread, gap, extra.get("bot"), extra.get("p_star"))
    key = json.dumps([source, rules_text(game.variant, game.options), game.n, viewer,
                      position.get("seed"),
                      position.get("scenario"), position.get("step"),
                      [move_to_data(m) for m in position.get("moves", ())]])
    item_id = hashlib.sha1(key.encode()).hexdigest()[:12]
    return Item(id=item_id, source=source, kind=kind,
                variant=rules_text(game.variant, game.options),
                players=game.n, viewer=viewer, themes=_themes(game, kind, role, source),
                difficulty=diff, options=options, rollouts=rollouts, **position, **extra)


PEOPLE = "game between people"  # an item from a person's decision at a game table


@dataclass(frozen=True)
class Task:
    """One item to evaluate: where the position is, whose decision, which kind."""

    kind: str
    viewer: int
    rollout_seed: int
    variant: str = "base"
    players: int = 0
    seed: int | None = None
    moves: tuple[Move, ...] = ()
    scenario: str | None = None
    step: int | None = None
    # Where a game's position comes from, when it is not a persona game: "game between
    # people" for a decision a person made at a table (trainer.tables.bank).
    source: str | None = None


def _table(game_seed: int, players: int, variant: str, model: dict[str, float]
           ) -> tuple[Game, list[Persona], list[random.Random]]:
    """A fresh persona game: the deal, a persona per seat drawn from the model, and each
    seat's random stream (all fixed by the seed)."""
    rng = random.Random(game_seed)
    names = list(model)
    seats = [personas()[rng.choices(names, weights=list(model.values()))[0]]
             for _ in range(players)]
    rngs = [random.Random(f"{game_seed}:{i}") for i in range(players)]
    for p, r in zip(seats, rngs, strict=True):
        p.new_game(r)
    return new_game(players, game_seed, variant), seats, rngs


def persona_positions(game_seed: int, players: int, variant: str,
                      model: dict[str, float]) -> tuple[list[Move], list[tuple[int, str]]]:
    """Play one persona game; return its moves and the (index, kind) of every candidate
    decision (the position before moves[index])."""
    game, seats, rngs = _table(game_seed, players, variant, model)
    runner = Runner(game, dict(enumerate(seats)), SeatStreams(rngs), started=True)
    moves: list[Move] = []
    candidates: list[tuple[int, str]] = []
    while not game.is_over and len(moves) < 3000:
        kind = decision_kind(game)
        if kind is not None:
            candidates.append((len(moves), kind))
        moves.append(runner.step(runner.version))
    return moves, candidates


def exchange_branch(game_seed: int, players: int, variant: str, moves: list[Move],
                    model: dict[str, float], rng: random.Random) -> tuple[Move, ...] | None:
    """The personas almost never exchange (foreign aid is worth more to them), so exchange
    decisions come from a branch: at a turn where the player holds an Ambassador, they
    exchange (an honest claim) and the others answer as their personas would, up to the
    choice of cards to keep. Returns the moves up to that choice, or None."""
    game, seats, rngs = _table(game_seed, players, variant, model)
    points = []
    for i, m in enumerate(moves):
        d = game.pending
        if (d is not None and d.phase is Phase.ACTION and game.coins[d.player] < 10
                and any(c.role is Character.AMBASSADOR for c in game.hidden[d.player])
                and Move.act(d.player, Action.EXCHANGE) in game.legal_moves()):
            points.append(i)
        game.apply(m)
    if not points:
        return None
    at = rng.choice(points)
    game, seats, _ = _table(game_seed, players, variant, model)
    for m in moves[:at]:
        game.apply(m)
    actor = game.decider
    branch = [*moves[:at], Move.act(actor, Action.EXCHANGE)]
    game.apply(branch[-1])
    answer = random.Random(f"{game_seed}:exchange:{at}")
    runner = Runner(game, dict(enumerate(seats)), SeatStreams([answer] * len(seats)),
                    started=True)
    while not game.is_over and len(branch) < at + 40:
        d = game.pending
        if d is not None and d.phase is Phase.EXCHANGE and d.player == actor:
            return tuple(branch) if decision_kind(game) == "keep" else None
        branch.append(runner.step(runner.version))
    return None


def persona_tasks(count: int, *, seed: int, players: dict[int, float] | None = None,
                  variants: dict[str, float] | None = None,
                  kinds: dict[str, float] | None = None,
                  model: dict[str, float] | None = None,
                  max_games: int | None = None) -> Iterator[Task]:
    """Up to `count` decision points from persona games, kinds in the given shares. The
    position is picked by kind only, never by its truth. Gives up after `max_games` games
    (default 100 per item) when the kinds asked for are too rare."""
    model = model or DEFAULT_MODEL
    players = players or PLAYER_SHARE
    variants = variants or {"base": 1.0}
    kinds = kinds or KIND_SHARE
    max_games = max_games or 100 * count + 100
    rng = random.Random(seed)
    made: Counter[str] = Counter()
    produced = 0
    g = 0
    while produced < count and g < max_games:
        game_seed = seed * 100_003 + g
        g += 1
        variant = rng.choices(list(variants), weights=list(variants.values()))[0]
        n = _table_size(variant, players, rng)
        moves, found = persona_positions(game_seed, n, variant, model)
        candidates = [(tuple(moves[:i]), k) for i, k in found]
        if kinds.get("keep") and not any(k == "keep" for _, k in candidates):
            branch = exchange_branch(game_seed, n, variant, moves, model, rng)
            if branch is not None:
                candidates.append((branch, "keep"))
        used: set[int] = set()
        picked: list[Seen] = []
        for _ in range(ITEMS_PER_GAME):
            if produced >= count:
                break
            offered = {k for _, k in candidates}
            # The kind furthest behind its share, among the kinds this game offers.
            wanted = [k for k in sorted(kinds, key=lambda k: made[k] - kinds[k] * (produced + 1))
                      if k in offered and kinds[k] > 0]
            pool = [j for j, (_, k) in enumerate(candidates)
                    if wanted and k == wanted[0] and j not in used]
            if not pool:
                break
            j = _pick(pool, rng, picked, (game_seed, n, variant), candidates)
            if j is None:
                break
            used.add(j)
            prefix, kind = candidates[j]
            yield _game_task(kind, n, game_seed, variant, prefix, rng)
            made[kind] += 1
            produced += 1


def _seats(game_seed: int, players: int, variant: str, prefix: tuple[Move, ...],
           kind: str) -> Seen:
    """The decision after `prefix` in a persona game as the leak rules see it: its viewer
    and, for a claim item, the claimant and the character claimed."""
    game = new_game(players, game_seed, variant)
    for m in prefix:
        game.apply(m)
    claimant, role = pending_claim(game) if kind == "challenge" else (None, None)
    return Seen(prefix, game.decider, claimant, role)


def _pick(pool: list[int], rng: random.Random, picked: list[Seen],
          game: tuple[int, int, str], candidates: Sequence[Sequence[Any]]) -> int | None:
    """A candidate of `pool` (indices into `candidates` of the persona game `game`: seed,
    players, rule set; each a (moves before it, kind, ...)) drawn at random that neither
    answers the claim of a decision already picked from this game nor has its own claim
    answered by one: seen from the claimant's seat, or later with the claim's outcome in
    its history (`trainer.quiz.leaks`: the build would leave such an item out after grading
    it); None when every one would. `picked` gets the one drawn."""
    left = list(pool)
    while left:
        j = rng.choice(left)
        seen = _seats(*game, tuple(candidates[j][0]), str(candidates[j][1]))
        if not any(tells(seen, s, game) or tells(s, seen, game) for s in picked):
            picked.append(seen)
            return j
        left.remove(j)
    return None


def _table_size(variant: str, players: dict[int, float], rng: random.Random) -> int:
    """A player count drawn by `players`' weights among those the rule set allows."""
    rules = parse_rules(variant)
    v = rules.variant
    most = v.most_players(rules.options)
    sizes = {k: w for k, w in players.items() if v.min_players <= k <= most}
    return rng.choices(list(sizes), weights=list(sizes.values()))[0] if sizes \
        else v.min_players


def _game_task(kind: str, players: int, game_seed: int, variant: str,
               prefix: tuple[Move, ...], rng: random.Random) -> Task:
    """The task of the decision after `prefix` in a persona game, from its decider's seat."""
    viewer = new_game(players, game_seed, variant)
    for m in prefix:
        viewer.apply(m)
    return Task(kind=kind, viewer=viewer.decider, rollout_seed=rng.randrange(2**31),
                variant=variant, players=players, seed=game_seed, moves=prefix)


Candidate = tuple[tuple[Move, ...], str, tuple[str, ...]]


def game_candidates(game_seed: int, players: int, variant: str, model: dict[str, float],
                    rng: random.Random, exchanges: bool = True) -> list[Candidate]:
    """Every decision point of one persona game (and, with `exchanges`, of its exchange
    branch) as (moves before it, kind, themes)."""
    moves, found = persona_positions(game_seed, players, variant, model)
    out: list[Candidate] = []
    game = new_game(players, game_seed, variant)
    done = 0
    for index, kind in found:
        for m in moves[done:index]:
            game.apply(m)
        done = index
        out.append((tuple(moves[:index]), kind, _candidate_themes(game, kind)))
    if exchanges and not any(k == "keep" for _, k, _ in out):
        branch = exchange_branch(game_seed, players, variant, moves, model, rng)
        if branch is not None:
            game = new_game(players, game_seed, variant)
            for m in branch:
                game.apply(m)
            out.append((branch, "keep", _candidate_themes(game, "keep")))
    return out


def _candidate_themes(game: Game, kind: str) -> tuple[str, ...]:
    role = pending_claim(game)[1] if kind == "challenge" else None
    return _themes(game, kind, role, "persona game")


def task_themes(task: Task, scenarios: Path | None = None) -> tuple[str, ...]:
    """The themes the task's item will carry, without grading it."""
    game, _ = task_position(task, scenarios=scenarios)
    return _candidate_themes(game, task.kind)


def theme_tasks(count: int, *, seed: int, per_theme: int, players: dict[int, float],
                variants: dict[str, float], kinds: dict[str, float] | None = None,
                model: dict[str, float] | None = None, covered: Counter[str] | None = None,
                max_games: int | None = None) -> Iterator[Task]:
    """At least `count` decision points from persona games, with every theme they touch
    (claims, kinds, end-games, each rule set) on at least `per_theme` items, so no drill
    repeats itself soon. Each game's rule set is the one furthest from its quota (the base
    game takes what the others leave of `count`; `variants` names the rule sets, their
    weights unused); within a game, the kind furthest behind its share, and of that kind the
    decision whose themes are shortest. Positions are picked by kind and theme only, never by
    their truth. `covered` counts themes other items (the lessons') already hold."""
    model = model or DEFAULT_MODEL
    kinds = kinds or KIND_SHARE
    max_games = max_games or 100 * count + 100
    rng = random.Random(seed)
    made_kind: Counter[str] = Counter()
    made: Counter[str] = Counter(covered or {})
    titles = {v: variant_theme(v) for v in variants if v != "base"}
    kind_total = sum(kinds.values())
    produced = 0
    for g in range(max_games):
        short = {t for t, c in made.items() if c < per_theme}
        if produced >= count and not short:
            return
        needs = {v: max(0, per_theme - made[t]) for v, t in titles.items()}
        if "base" in variants:
            needs["base"] = max(0, count - produced - sum(needs.values()))
        if not any(needs.values()):  # a short theme of the base game, or of any rule set
            needs = {v: 1 for v in variants}
        names = [v for v in needs if needs[v] > 0]
        variant = rng.choices(names, weights=[needs[v] for v in names])[0]
        n = _table_size(variant, players, rng)
        game_seed = seed * 100_003 + g
        candidates = game_candidates(game_seed, n, variant, model, rng,
                                     exchanges=bool(kinds.get("keep")))
        used: set[int] = set()
        picked: list[Seen] = []
        for _ in range(ITEMS_PER_GAME):
            def gain(themes: tuple[str, ...]) -> float:
                return sum(max(0, per_theme - made[t]) for t in themes) / per_theme

            pool = [j for j in range(len(candidates)) if j not in used
                    and kinds.get(candidates[j][1], 0) > 0]
            if produced >= count:
                pool = [j for j in pool if gain(candidates[j][2]) > 0]
            else:
                offered = {candidates[j][1] for j in pool}
                behind = sorted(offered, key=lambda k: made_kind[k]
                                - kinds[k] / kind_total * (produced + 1))
                pool = [j for j in pool if behind and candidates[j][1] == behind[0]]
            if not pool:
                break
            top = max(gain(candidates[j][2]) for j in pool)
            j = _pick([j for j in pool if gain(candidates[j][2]) == top], rng, picked,
                      (game_seed, n, variant), candidates)
            if j is None:
                break
            used.add(j)
            prefix, kind, themes = candidates[j]
            yield _game_task(kind, n, game_seed, variant, prefix, rng)
            made_kind[kind] += 1
            made.update(themes)
            produced += 1


def lesson_tasks(folder: Path, seed: int = 0) -> list[Task]:
    """Every Learn question whose decision the quiz can grade (challenge, block, bluff, lose,
    keep), from the learner's seat."""
    from trainer.scenarios import ScenarioError, load_scenario, replay, run_scenario

    tasks = []
    for path in sorted(Path(folder).glob("*.yaml")):
        try:
            scenario = load_scenario(path)
            run = run_scenario(scenario)
        except ScenarioError:
            continue  # `python -m trainer check` reports broken lessons
        for prompt in run.prompts():
            game = replay(scenario, prompt.step - 1)
            kind = decision_kind(game)
            if kind is None or game.decider != run.learner:
                continue
            tasks.append(Task(kind=kind, viewer=run.learner, rollout_seed=seed + prompt.step,
                              variant=scenario.setup.variant, players=game.n,
                              scenario=scenario.id, step=prompt.step - 1))
    return tasks


def task_position(task: Task, model: dict[str, float] | None = None,
                  scenarios: Path | None = None, belief_type: type[Belief] | None = None
                  ) -> tuple[Game, Belief]:
    """The task's game at its decision and the viewer's belief, fed move by move: the one
    path by which an item's estimate is made (`belief_type`, a `Belief` subclass, may keep a
    record of what it was fed, as the feedback's step-by-step estimate does)."""
    model = model or DEFAULT_MODEL
    make = belief_type or Belief
    if task.scenario is not None:
        from trainer.estimates.report import _belief
        from trainer.scenarios import load_scenario, replay

        folder = scenarios or scenarios_dir()
        scenario = load_scenario(folder / f"{task.scenario}.yaml")
        step = task.step or 0
        return replay(scenario, step), _belief(scenario, step, task.viewer, model, make)
    assert task.seed is not None
    game = new_game(task.players, task.seed, task.variant)
    belief = make(task.viewer, mixture(model), parse_rules(task.variant).variant.cards)
    for m in task.moves:
        belief.observe(game.observation(task.viewer), m)
        game.apply(m)
    return game, belief


def item_task(item: Item, seed: int = 0) -> Task:
    """The task that grades `item`'s position again (its rollout stream drawn from `seed` and
    the item's id, since an item does not keep the stream it was graded with)."""
    rollout_seed = int(hashlib.sha1(f"{seed}:{item.id}".encode()).hexdigest()[:8], 16)
    return Task(kind=item.kind, viewer=item.viewer, rollout_seed=rollout_seed,
                variant=item.variant, players=item.players, seed=item.seed,
                moves=tuple(item.moves), scenario=item.scenario, step=item.step,
                source=PEOPLE if item.source == PEOPLE else None)


def reestimate(item: Item, model: dict[str, float] | None = None,
               scenarios: Path | None = None) -> Item:
    """`item` with its claim's estimates made again by the estimates as they are now: the
    bot's P(bluff), counting's, the bot's range, the explanation and the difficulty, and
    whether the claim was a bluff (read from the claimant's cards by `proves`); the option
    values, and the break-even point drawn from them, are kept.

    Why apart from `bank revalue`: a change to the behaviour model changes every claim's
    estimate, which takes a replay of the game, where grading the options again takes
    rollouts for hours. (The rollouts draw the hidden cards from the posterior too, so the
    option values keep what the old model said about them until the bank is graded again.)
    """
    if not item.has_claim or item.claimant is None or item.claim is None:
        return item
    game, belief = task_position(item_task(item), model, scenarios)
    obs = game.observation(item.viewer)
    role = Character(item.claim)
    claimant = item.claimant
    prior = p_holds(obs, None, claimant, role)
    post = p_holds(obs, belief, claimant, role)
    low, high = belief.spread(obs, claimant, role)
    bot = round(1 - post, 4)
    wins = sorted((o.win for o in item.options), reverse=True)
    gap = 100 * (wins[0] - wins[1]) if len(wins) > 1 else 100.0
    return replace(item, bluff=not any(proves(c, role) for c in game.hidden[claimant]),
                   bot=bot, prior=round(1 - prior, 4), bot_low=round(1 - high, 4),
                   bot_high=round(1 - low, 4),
                   explanation=explain(obs, knowledge(obs), claimant, role, prior, post,
                                       game.names, model or DEFAULT_MODEL),
                   difficulty=difficulty(item.spread_pp, gap, bot, item.p_star))


def evaluate_task(task: Task, rollouts: int, model: dict[str, float] | None = None,
                  scenarios: Path | None = None) -> Item:
    model = model or DEFAULT_MODEL
    game, belief = task_position(task, model, scenarios)
    if task.scenario is not None:
        return evaluate(game, task.viewer, belief, kind=task.kind, source="lesson",
                        rollouts=rollouts, rollout_seed=task.rollout_seed, model=model,
                        scenario=task.scenario, step=task.step or 0)
    return evaluate(game, task.viewer, belief, kind=task.kind,
                    source=task.source or "persona game",
                    rollouts=rollouts, rollout_seed=task.rollout_seed, model=model,
                    seed=task.seed, moves=task.moves)


def _evaluate_star(args: tuple[Task, int, dict[str, float], Path | None]) -> Item | str:
    """The item, or why this position could not be evaluated (one bad position must not
    cost a long build)."""
    task = args[0]
    try:
        return evaluate_task(*args)
    except (ValueError, RuntimeError) as e:
        where = (f"lesson {task.scenario} step {task.step}" if task.scenario
                 else f"{task.variant} game seed {task.seed} after {len(task.moves)} moves")
        return f"{where} ({task.kind}): {e}"


def task_key(task: Task, rollouts: int, model: dict[str, float]) -> str:
    """Everything that decides a task's result, hashed: a resumed build takes a finished
    result only when it is exactly what this build would compute."""
    data = [task.kind, task.viewer, task.rollout_seed, task.variant, task.players, task.seed,
            [move_to_data(m) for m in task.moves], task.scenario, task.step, rollouts,
            sorted(model.items())] + ([task.source] if task.source else [])
    return hashlib.sha1(json.dumps(data).encode()).hexdigest()[:16]


def evaluate_all(tasks: Iterable[tuple[K, Task]], *, rollouts: int,
                 model: dict[str, float] | None = None, scenarios: Path | None = None,
                 executor: str = "auto", processes: int = 1, address: str | None = None
                 ) -> Iterator[tuple[K, Item | str]]:
    """`(key, item or why not)` for every `(key, task)`, in the order they finish, over the
    executor of `trainer.batch` (Ray, or this process)."""
    model = model or DEFAULT_MODEL
    jobs = ((key, (t, rollouts, model, scenarios)) for key, t in tasks)
    yield from run(_evaluate_star, jobs, executor=executor, processes=processes,
                   address=address)


def build(tasks: Iterable[Task], *, rollouts: int, jobs: int = 1, executor: str = "auto",
          address: str | None = None, model: dict[str, float] | None = None,
          scenarios: Path | None = None, problems: list[str] | None = None) -> list[Item]:
    """Every task's item in the order of the tasks (not the order they finish, so the result
    does not depend on the executor), in memory; `jobs` processes. A position that cannot be
    evaluated is left out and described in `problems`. Writing a bank file, resumably, is
    `trainer.quiz.bankfile.write_bank`."""
    results = dict(evaluate_all(enumerate(tasks), rollouts=rollouts, model=model,
                                scenarios=scenarios, executor=executor, processes=jobs,
                                address=address))
    return ordered_items([results[i] for i in sorted(results)], problems, scenarios)


def ordered_items(results: Iterable[Item | str], problems: list[str] | None = None,
                  scenarios: Path | None = None) -> list[Item]:
    """The items of `results` in their order, one per position: a position found twice, or
    two deals that look the same from the learner's seat (`Item.learner_view`), are asked
    once, and no item answers another's claim, by showing the claimant's hand or a history
    in which the claim turned out (`trainer.quiz.leaks`: the later of two such items is left
    out). The reasons a position could not be
    evaluated go to `problems`."""
    items: dict[str, Item] = {}
    views: set[tuple[Any, ...]] = set()
    for result in results:
        if isinstance(result, str):
            if problems is not None:
                problems.append(result)
        elif result.id not in items:
            view = result.learner_view(scenarios)
            if view not in views:
                views.add(view)
                items[result.id] = result
    return without_leaks(list(items.values()))[0]


# ------------------------------------------------------------------------ recipes
DEFAULT_VARIANTS = {"base": 0.85, "inquisitor": 0.05, "reformation": 0.05, "mcguire": 0.05}


def parse_shares(specs: list[str] | None, default: dict[str, float],
                 known: Iterable[str] | None = None) -> dict[str, float]:
    """["base=0.8", "forum"] → {"base": 0.8, "forum": 1.0}; names are checked (variant
    names, or the `known` ones)."""
    if not specs:
        return dict(default)
    out = {}
    names = list(known) if known is not None else None
    for spec in specs:
        name, _, weight = spec.partition("=")
        if names is None:
            parse_rules(name)  # raises naming the part at fault
        elif name not in names:
            raise ValueError(f"unknown kind {name!r}; expected one of {', '.join(names)}")
        try:
            out[name] = float(weight) if weight else 1.0
        except ValueError as e:
            raise ValueError(f"{spec!r}: expected NAME or NAME=WEIGHT") from e
    return out


def parse_players(specs: list[str] | None, default: dict[int, float]) -> dict[int, float]:
    """["2=1", "6"] → {2: 1.0, 6: 1.0}: player counts from 2 to 10 and their shares."""
    if not specs:
        return dict(default)
    out = {}
    for spec in specs:
        count, _, weight = spec.partition("=")
        try:
            n = int(count)
            out[n] = float(weight) if weight else 1.0
        except ValueError as e:
            raise ValueError(f"{spec!r}: expected N or N=WEIGHT (a player count)") from e
        if not 2 <= n <= 10:
            raise ValueError(f"{spec!r}: a game has 2 to 10 players")
    return out


def recipe(*, seed: int, items: int, rollouts: int, variants: dict[str, float],
           kinds: dict[str, float], lessons: bool, players: dict[int, float] | None = None,
           min_per_theme: int = 0) -> dict[str, Any]:
    """How a bank was built, kept in its header: enough to rebuild it, or to tell later
    additions apart from the first build."""
    made = {"seed": seed, "items": items, "rollouts": rollouts, "model": DEFAULT_MODEL,
            "variants": variants, "kinds": kinds, "players": players or PLAYER_SHARE,
            "lessons": lessons}
    if min_per_theme:
        made["min_per_theme"] = min_per_theme
    return made


def extended(old: Bank, items: Iterable[Item], addition: dict[str, Any]) -> Bank:
    """`old` with `items` added (a new item replaces an old one with the same id, so a
    rebuilt position is not asked twice) and the addition's recipe appended to its header;
    an added item that would give away an old item's answer, or have its own given away
    (`trainer.quiz.leaks`), is left out."""
    merged = {i.id: i for i in old.items + tuple(items)}
    header = {k: v for k, v in old.header.items() if not k.startswith("_")}
    header["additions"] = [*header.get("additions", []), addition]
    return Bank(old.name, tuple(without_leaks(list(merged.values()))[0]), header)
