"""The question bank: decision points from real games, each with its hidden truth and the
bot's verdict, ready to be asked.

Why items are built offline: grading an answer needs each option's win probability, and those
come from hundreds of determinized rollouts per option (seconds of work). The bank does that
work once; the quiz then answers in milliseconds. A default bank ships with the code
(`trainer/banks/default.jsonl`); `python -m trainer bank build` (or the Quiz page) builds more.

Where items come from:
- persona games (the bots of `trainer.policies.personas`, drawn from the same mix the estimates
  assume), so the share of bluffs among the claims is the share those players produce — a real
  base rate, not a 50/50 quiz. Decisions are picked by kind (challenge, block, bluff, lose,
  keep) without looking at the truth, so no kind is enriched in bluffs;
- the questions of the Learn lessons (scenario prompts), graded the same way.

A position is stored as the moves that led to it (with the game's seed, or the scenario and
step), never as a snapshot of the hidden cards: rebuilding it through the engine is what keeps
the item honest, and a learner's table is drawn from their observation of that game.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from trainer.engine.cards import Action, Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import get_variant
from trainer.estimates.claims import pending_claim
from trainer.estimates.knowledge import knowledge
from trainer.estimates.posterior import Belief, mixture, p_holds
from trainer.estimates.report import DEFAULT_MODEL, explain
from trainer.estimates.rollouts import option_values
from trainer.paths import scenarios_dir
from trainer.policies.personas import Persona, personas

BANK_DIR = Path(__file__).resolve().parent / "banks"
DEFAULT_BANK = BANK_DIR / "default.jsonl"
FORMAT = 1  # the file format; a bank's own version is its name and content hash

KINDS = ("challenge", "block", "bluff", "lose", "keep")
# The default mix of decision kinds: challenges are the heart of the trainer.
KIND_SHARE = {"challenge": 0.5, "block": 0.15, "bluff": 0.15, "lose": 0.1, "keep": 0.1}
# Player counts of the persona games, and how often each is used.
PLAYER_SHARE = {2: 0.3, 3: 0.35, 4: 0.35}
ITEMS_PER_GAME = 2

CLAIM_THEMES = {
    Character.DUKE: "Duke claims", Character.CONTESSA: "Contessa blocks",
    Character.CAPTAIN: "Captain steals", Character.ASSASSIN: "Assassin claims",
    Character.AMBASSADOR: "Ambassador claims", Character.INQUISITOR: "Inquisitor claims",
}
KIND_THEMES = {"block": "Blocking", "bluff": "Bluffing", "lose": "Losing a card",
               "keep": "Exchanges"}
END_GAME = "End-game 1-v-1"
LESSONS = "Lesson questions"
DIFFICULTIES = ("easy", "medium", "hard")


class BankError(ValueError):
    """A bank file that cannot be read, with the file and line."""


# ------------------------------------------------------------------------ moves as data
def move_to_data(m: Move) -> list[Any]:
    return [str(m.kind), m.player, None if m.action is None else str(m.action), m.target,
            None if m.character is None else str(m.character),
            None if m.cards is None else [str(c) for c in m.cards], m.choice]


def move_from_data(d: list[Any]) -> Move:
    kind, player, action, target, character, cards, choice = d
    return Move(MoveKind(kind), int(player), None if action is None else Action(action), target,
                None if character is None else Character(character),
                None if cards is None else tuple(Character(c) for c in cards), choice)


# ------------------------------------------------------------------------ the item
@dataclass(frozen=True)
class Option:
    """One answer the learner can give, with its value from the learner's seat."""

    move: Move
    label: str
    win: float  # the learner's win probability after this move
    se: float
    diff_se: float  # noise of (this − best), paired rollouts


@dataclass(frozen=True)
class Item:
    """One decision point, seen from the `viewer` seat."""

    id: str
    source: str  # "persona game" or "lesson"
    kind: str  # one of KINDS
    variant: str
    players: int
    viewer: int
    themes: tuple[str, ...]
    difficulty: str
    options: tuple[Option, ...]
    rollouts: int
    # The position: a persona game's seed and moves, or a lesson and the step before it.
    seed: int | None = None
    moves: tuple[Move, ...] = ()
    scenario: str | None = None
    step: int | None = None
    # The claim being judged (challenge items only), its truth and the estimates.
    claimant: int | None = None
    claim: str | None = None
    bluff: bool | None = None
    claimant_hand: tuple[str, ...] = ()
    bot: float | None = None  # the bot's P(bluff): the behavioural posterior
    prior: float | None = None  # P(bluff) from counting cards alone
    explanation: str = ""
    p_star: float | None = None
    w_win: float | None = None  # challenge, and it was a bluff
    w_lose: float | None = None  # challenge, and it was true
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def has_claim(self) -> bool:
        return self.claim is not None and self.bluff is not None

    @property
    def best(self) -> Option:
        return max(self.options, key=lambda o: o.win)

    @property
    def spread_pp(self) -> float:
        """How much the choice matters: best minus worst option, in points."""
        return 100 * (self.best.win - min(o.win for o in self.options))

    @property
    def trivial(self) -> bool:
        return self.spread_pp <= 1.0

    def option(self, label: str) -> Option:
        for o in self.options:
            if o.label == label:
                return o
        raise KeyError(f"{label!r} is not an answer to item {self.id}; expected one of "
                       f"{', '.join(repr(o.label) for o in self.options)}")

    def lost_pp(self, label: str) -> float:
        return max(0.0, 100 * (self.best.win - self.option(label).win))

    def noise_pp(self) -> float:
        """The largest standard error of a win-% lost figure on this item, in points."""
        return 100 * max((o.diff_se for o in self.options), default=0.0)

    # --------------------------------------------------------------------- rebuilding
    def game(self, scenarios: Path | None = None) -> Game:
        """The game at the decision, rebuilt through the engine."""
        if self.scenario is not None:
            from trainer.scenarios import load_scenario, replay

            folder = scenarios or scenarios_dir()
            path = folder / f"{self.scenario}.yaml"
            return replay(load_scenario(path), self.step)
        assert self.seed is not None
        game = new_game(self.players, self.seed, self.variant)
        for m in self.moves:
            game.apply(m)
        return game

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data["moves"] = [move_to_data(m) for m in self.moves]
        data["options"] = [{**asdict(o), "move": move_to_data(o.move)} for o in self.options]
        data["themes"] = list(self.themes)
        data["claimant_hand"] = list(self.claimant_hand)
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Item:
        d = dict(data)
        d["moves"] = tuple(move_from_data(m) for m in d.get("moves", ()))
        d["options"] = tuple(Option(**{**o, "move": move_from_data(o["move"])})
                             for o in d["options"])
        d["themes"] = tuple(d.get("themes", ()))
        d["claimant_hand"] = tuple(d.get("claimant_hand", ()))
        return cls(**d)


# ------------------------------------------------------------------------ the bank
@dataclass(frozen=True)
class Bank:
    name: str
    items: tuple[Item, ...]
    header: dict[str, Any]

    @property
    def version(self) -> str:
        """Name and content hash: answers record it, so a rebuilt bank never mixes with an
        old one under the same name."""
        digest = hashlib.sha1("".join(i.id for i in self.items).encode()).hexdigest()[:8]
        return f"{self.name}-{digest}"

    def get(self, item_id: str) -> Item | None:
        return self._index().get(item_id)

    def _index(self) -> dict[str, Item]:
        cached = self.header.get("_index")
        if cached is None:
            cached = {i.id: i for i in self.items}
            self.header["_index"] = cached
        return cached

    def themes(self) -> Counter[str]:
        return Counter(t for i in self.items for t in i.themes)

    def bluff_share(self) -> float | None:
        judged = [i.bluff for i in self.items if i.has_claim]
        return sum(judged) / len(judged) if judged else None

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        header = {k: v for k, v in self.header.items() if not k.startswith("_")}
        with path.open("w", encoding="utf-8") as f:
            f.write(json.dumps({"format": FORMAT, "bank": self.name, **header}) + "\n")
            for item in self.items:
                f.write(json.dumps(item.to_data(), separators=(",", ":")) + "\n")


def load_bank(path: Path | str) -> Bank:
    """Read a bank file; a damaged line is an error naming the file and line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise BankError(f"{path}: cannot read the bank file ({e})") from e
    if not lines:
        raise BankError(f"{path}:1: the bank file is empty; expected a header line")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as e:
        raise BankError(f"{path}:1: the header is not JSON ({e.msg})") from e
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BankError(f"{path}:1: expected a bank header with \"format\": {FORMAT}")
    items = []
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            items.append(Item.from_data(json.loads(line)))
        except (json.JSONDecodeError, TypeError, ValueError, KeyError) as e:
            raise BankError(f"{path}:{n}: not a valid item ({e})") from e
    name = str(header.pop("bank", path.stem))
    header.pop("format", None)
    return Bank(name, tuple(items), header)


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


def _themes(game: Game, kind: str, claim: Character | None, source: str) -> tuple[str, ...]:
    themes = []
    d = game.pending
    assert d is not None
    if claim is not None:
        themes.append(CLAIM_THEMES.get(claim.role, f"{claim.role} claims"))
        if d.phase is Phase.CHALLENGE_BLOCK:
            themes.append("Challenging a block")
        if d.action is Action.EXCHANGE and "Exchanges" not in themes:
            themes.append("Exchanges")
    if kind in KIND_THEMES and KIND_THEMES[kind] not in themes:
        themes.append(KIND_THEMES[kind])
    if kind == "block" and d.action is not None:
        spec = game.variant.spec(d.action)
        if spec.claim is not None and spec.claim.role in CLAIM_THEMES:
            themes.append(CLAIM_THEMES[spec.claim.role])
    if sum(1 for h in game.hidden if h) == 2:
        themes.append(END_GAME)
    if game.variant.name != "base":
        themes.append(f"Variant: {game.variant.title}")
    if source == "lesson":
        themes.append(LESSONS)
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
def evaluate(game: Game, viewer: int, belief: Belief | None, *, kind: str, source: str,
             rollouts: int, rollout_seed: int, model: dict[str, float] | None = None,
             **position: Any) -> Item:
    """An item for the viewer's pending decision in `game`: truth, estimates, option values."""
    model = model or DEFAULT_MODEL
    comps = mixture(model)
    moves = options_for(game, kind)
    values, cv = option_values(game, viewer, belief, comps, rollouts, rollout_seed,
                               moves=moves)
    options = tuple(Option(v.move, option_label(game, v.move), v.win, v.se, v.diff_se)
                    for v in values)
    claimant, role = pending_claim(game) if kind == "challenge" else (None, None)
    extra: dict[str, Any] = {}
    if claimant is not None and role is not None:
        obs = game.observation(viewer)
        prior = p_holds(obs, None, claimant, role)
        post = p_holds(obs, belief, claimant, role)
        hand = tuple(str(c) for c in game.hidden[claimant])
        extra = dict(
            claimant=claimant, claim=str(role),
            bluff=not any(c.role == role for c in game.hidden[claimant]),
            claimant_hand=hand, bot=round(1 - post, 4), prior=round(1 - prior, 4),
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
    key = json.dumps([source, game.variant.name, game.n, viewer, position.get("seed"),
                      position.get("scenario"), position.get("step"),
                      [move_to_data(m) for m in position.get("moves", ())]])
    item_id = hashlib.sha1(key.encode()).hexdigest()[:12]
    return Item(id=item_id, source=source, kind=kind, variant=game.variant.name,
                players=game.n, viewer=viewer, themes=_themes(game, kind, role, source),
                difficulty=diff, options=options, rollouts=rollouts, **position, **extra)


NAMES = ("Ana", "Ben", "Cris", "Dee", "Eli", "Fay")


def table_names(players: int) -> list[str]:
    """The seat names of a persona game: short, so the table and the answers read easily."""
    return list(NAMES[:players])


def new_game(players: int, seed: int, variant: str) -> Game:
    return Game.new(table_names(players), seed=seed, variant=variant)


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
    moves: list[Move] = []
    candidates: list[tuple[int, str]] = []
    while not game.is_over and len(moves) < 3000:
        kind = decision_kind(game)
        if kind is not None:
            candidates.append((len(moves), kind))
        p = game.decider
        move = seats[p].choose(game.observation(p), rngs[p])
        moves.append(move)
        game.apply(move)
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
    while not game.is_over and len(branch) < at + 40:
        d = game.pending
        if d is not None and d.phase is Phase.EXCHANGE and d.player == actor:
            return tuple(branch) if decision_kind(game) == "keep" else None
        p = game.decider
        branch.append(seats[p].choose(game.observation(p), answer))
        game.apply(branch[-1])
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
        v = get_variant(variant)
        sizes = {k: w for k, w in players.items() if v.min_players <= k <= v.max_players}
        n = rng.choices(list(sizes), weights=list(sizes.values()))[0] if sizes \
            else v.min_players
        moves, found = persona_positions(game_seed, n, variant, model)
        candidates = [(tuple(moves[:i]), k) for i, k in found]
        if kinds.get("keep") and not any(k == "keep" for _, k in candidates):
            branch = exchange_branch(game_seed, n, variant, moves, model, rng)
            if branch is not None:
                candidates.append((branch, "keep"))
        used: set[int] = set()
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
            j = rng.choice(pool)
            used.add(j)
            prefix, kind = candidates[j]
            viewer = new_game(n, game_seed, variant)
            for m in prefix:
                viewer.apply(m)
            yield Task(kind=kind, viewer=viewer.decider, rollout_seed=rng.randrange(2**31),
                       variant=variant, players=n, seed=game_seed, moves=prefix)
            made[kind] += 1
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


def evaluate_task(task: Task, rollouts: int, model: dict[str, float] | None = None,
                  scenarios: Path | None = None) -> Item:
    model = model or DEFAULT_MODEL
    if task.scenario is not None:
        from trainer.estimates.report import _belief
        from trainer.scenarios import load_scenario, replay

        folder = scenarios or scenarios_dir()
        scenario = load_scenario(folder / f"{task.scenario}.yaml")
        step = task.step or 0
        game = replay(scenario, step)
        belief = _belief(scenario, step, task.viewer, model)
        return evaluate(game, task.viewer, belief, kind=task.kind, source="lesson",
                        rollouts=rollouts, rollout_seed=task.rollout_seed, model=model,
                        scenario=task.scenario, step=step)
    assert task.seed is not None
    game = new_game(task.players, task.seed, task.variant)
    belief = Belief(task.viewer, mixture(model), get_variant(task.variant).cards)
    for m in task.moves:
        belief.observe(game.observation(task.viewer), m)
        game.apply(m)
    return evaluate(game, task.viewer, belief, kind=task.kind, source="persona game",
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


def build(tasks: Iterable[Task], *, rollouts: int, jobs: int = 1,
          model: dict[str, float] | None = None, scenarios: Path | None = None,
          progress: Callable[[int, Item | None], None] | None = None,
          problems: list[str] | None = None) -> list[Item]:
    """Evaluate every task (in `jobs` processes); `progress(done, item)` after each. A
    position that cannot be evaluated is left out and described in `problems`."""
    model = model or DEFAULT_MODEL
    work = [(t, rollouts, model, scenarios) for t in tasks]
    items: list[Item] = []
    done = 0

    def take(result: Item | str) -> None:
        nonlocal done
        done += 1
        if isinstance(result, str):
            if problems is not None:
                problems.append(result)
        else:
            items.append(result)
        if progress:
            progress(done, None if isinstance(result, str) else result)

    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            for result in pool.map(_evaluate_star, work, chunksize=1):
                take(result)
    else:
        for w in work:
            take(_evaluate_star(w))
    return list({i.id: i for i in items}.values())


# ------------------------------------------------------------------------ command line
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
            get_variant(name)  # raises with the known names
        elif name not in names:
            raise ValueError(f"unknown kind {name!r}; expected one of {', '.join(names)}")
        try:
            out[name] = float(weight) if weight else 1.0
        except ValueError as e:
            raise ValueError(f"{spec!r}: expected NAME or NAME=WEIGHT") from e
    return out


def describe_bank(bank: Bank) -> str:
    items = bank.items
    kinds = Counter(i.kind for i in items)
    share = bank.bluff_share()
    noise = sorted(i.noise_pp() for i in items)
    lines = [
        f"bank {bank.name} ({bank.version}): {len(items)} items",
        "kinds: " + ", ".join(f"{k} {kinds[k]}" for k in KINDS if kinds[k]),
        "players: " + ", ".join(f"{n}p {c}" for n, c in sorted(Counter(
            i.players for i in items).items())),
        "variants: " + ", ".join(f"{v} {c}" for v, c in Counter(
            i.variant for i in items).most_common()),
        "difficulty: " + ", ".join(f"{d} {Counter(i.difficulty for i in items)[d]}"
                                   for d in DIFFICULTIES),
        "themes: " + ", ".join(f"{t} {c}" for t, c in bank.themes().most_common()),
    ]
    if share is not None:
        judged = sum(1 for i in items if i.has_claim)
        lines.append(f"claims judged: {judged}, of which bluffs {share:.1%}")
    if noise:
        lines.append(f"noise of a win-% lost figure (paired SE, points): median "
                     f"{noise[len(noise) // 2]:.2f}, max {noise[-1]:.2f}")
    return "\n".join(lines)


def bank_main(args: Any) -> int:
    import sys
    import time

    from tqdm import tqdm

    if args.bank_command == "info":
        try:
            print(describe_bank(load_bank(args.file)))
        except BankError as e:
            print(f"bank: {e}", file=sys.stderr)
            return 2
        return 0
    try:
        variants = parse_shares(args.variants, DEFAULT_VARIANTS)
        kinds = parse_shares(args.kinds, KIND_SHARE, KINDS)
    except (ValueError, KeyError) as e:
        print(f"bank: {e}", file=sys.stderr)
        return 2
    if args.items < 1:
        print("bank: --items must be at least 1", file=sys.stderr)
        return 2
    tasks = list(persona_tasks(args.items, seed=args.seed, variants=variants, kinds=kinds))
    if len(tasks) < args.items:
        print(f"bank: only {len(tasks)} decisions of the kinds asked for were found in "
              f"{100 * args.items + 100} games", file=sys.stderr)
    if args.lessons:
        tasks += lesson_tasks(Path(args.scenarios), seed=args.seed)
    start = time.perf_counter()
    problems: list[str] = []
    with tqdm(total=len(tasks), unit="item", desc="items", file=sys.stderr) as bar:
        items = build(tasks, rollouts=args.rollouts, jobs=args.jobs,
                      scenarios=Path(args.scenarios), problems=problems,
                      progress=lambda done, item: bar.update())
    for problem in problems:
        print(f"left out: {problem}", file=sys.stderr)
    recipe = {"seed": args.seed, "items": args.items, "rollouts": args.rollouts,
              "model": DEFAULT_MODEL, "variants": variants, "kinds": kinds,
              "players": PLAYER_SHARE, "lessons": bool(args.lessons)}
    out = Path(args.out)
    if args.add_to:
        try:
            old = load_bank(out)
        except BankError as e:
            print(f"bank: {e}", file=sys.stderr)
            return 2
        merged = {i.id: i for i in old.items + tuple(items)}
        header = {k: v for k, v in old.header.items() if not k.startswith("_")}
        header["additions"] = [*header.get("additions", []), recipe]
        bank = Bank(old.name, tuple(merged.values()), header)
    else:
        bank = Bank(args.name or out.stem, tuple(items), recipe)
    bank.save(out)
    print(describe_bank(bank))
    print(f"written to {args.out} in {time.perf_counter() - start:.0f} s")
    return 0
