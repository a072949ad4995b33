"""The question bank: decision points from real games, each with its hidden truth and the
bot's verdict, ready to be asked.

Why items are built offline: grading an answer needs each option's win probability, and those
come from hundreds of determinized rollouts per option (seconds of work). The bank does that
work once; the quiz then answers in milliseconds. A default bank ships with the code
(`trainer/quiz/banks/default.jsonl.gz`); `python -m trainer bank build` (or the Quiz page)
builds more with `trainer.quiz.building`.

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

import gzip
import hashlib
import json
import os
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from trainer.engine.cards import Action, Character
from trainer.engine.errors import CoupError
from trainer.engine.game import Game
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import card_name
from trainer.i18n import N_, tr
from trainer.i18n.said import Said, said
from trainer.paths import data_dir, scenarios_dir
from trainer.verdicts.kinds import ANSWER_KINDS

BANK_DIR = Path(__file__).resolve().parent / "banks"
DEFAULT_BANK = BANK_DIR / "default.jsonl.gz"
# Bank files: JSON lines, gzip-compressed when the name ends in .gz (the shipped bank is).
BANK_GLOBS = ("*.jsonl", "*.jsonl.gz")
# Banks built in the app go to the data folder's banks/, or to this folder when it is set (a
# folder shared by several servers, a test's temporary one).
USER_BANK_ENV = "COUP_TRAINER_BANK_DIR"
FORMAT = 1  # the file format; a bank's own version is its name and content hash

# The kinds a bank asks: the verdict layer's answer kinds, as the text the bank file holds.
KINDS: tuple[str, ...] = tuple(k.value for k in ANSWER_KINDS)
# The default mix of decision kinds: challenges are the heart of the trainer.
KIND_SHARE = {"challenge": 0.5, "block": 0.15, "bluff": 0.15, "lose": 0.1, "keep": 0.1}
# Player counts of the persona games, and how often each is used.
PLAYER_SHARE = {2: 0.3, 3: 0.35, 4: 0.35}
ITEMS_PER_GAME = 2

# A theme is an identifier (the bank and every answer store it, in English): shown through
# `theme_words`, in the reader's language.
CLAIM_THEMES = {
    Character.DUKE: N_("Duke claims"), Character.CONTESSA: N_("Contessa blocks"),
    Character.CAPTAIN: N_("Captain steals"), Character.ASSASSIN: N_("Assassin claims"),
    Character.AMBASSADOR: N_("Ambassador claims"), Character.INQUISITOR: N_("Inquisitor claims"),
}
KIND_THEMES = {"block": N_("Blocking"), "bluff": N_("Bluffing"), "lose": N_("Losing a card"),
               "keep": N_("Exchanges")}
END_GAME = N_("End-game 1-v-1")
CHALLENGING_A_BLOCK = N_("Challenging a block")
VARIANT_THEME = "Variant: "  # and the rule set's title
_FIXED_THEMES = frozenset([*CLAIM_THEMES.values(), *KIND_THEMES.values(), END_GAME,
                           CHALLENGING_A_BLOCK])
DIFFICULTIES = ("easy", "medium", "hard")
DIFFICULTY_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def theme_words(theme: str) -> str:
    """A stored theme as the reader sees it, in the reader's language."""
    if theme in _FIXED_THEMES:
        return tr(theme)
    if theme.startswith(VARIANT_THEME):
        return tr("Variant: {title}", title=theme[len(VARIANT_THEME):])
    role = theme.removesuffix(" claims")
    if role != theme and role in {c.value for c in Character}:
        return tr("{card} claims", card=card_name(role))
    return theme


class BankError(ValueError):
    """A bank file that cannot be read, with the file and line."""


def user_bank_dir() -> Path:
    """Where the app writes the banks a learner builds: $COUP_TRAINER_BANK_DIR, else the
    banks/ folder of the data folder (beside the answers)."""
    return Path(os.environ.get(USER_BANK_ENV) or data_dir() / "banks")


def available_banks(shipped: Path = BANK_DIR, built: Path | None = None) -> dict[str, Path]:
    """Every bank a learner can pick, by file name: the shipped ones, then those built in the
    app (`built`, by default `user_bank_dir()`); a built bank named like a shipped one wins."""
    found = [p for folder in (shipped, built or user_bank_dir()) for glob in BANK_GLOBS
             for p in sorted(folder.glob(glob))]
    return {bank_stem(p): p for p in found}


def bank_stem(path: Path) -> str:
    """The file's name without .jsonl or .jsonl.gz."""
    name = path.name
    for suffix in (".jsonl.gz", ".jsonl"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


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
class ItemLost(CoupError):
    """An item whose position can no longer be rebuilt (its lesson file changed or went);
    `str()` says why in the reader's language."""

    def __init__(self, message: Said) -> None:
        super().__init__(message.words())
        self.said = message

    def __str__(self) -> str:
        return self.said.words()


@dataclass(frozen=True)
class Option:
    """One answer the learner can give, with its value from the learner's seat."""

    move: Move
    label: str
    win: float  # the learner's win probability after this move
    se: float
    diff_se: float  # noise of (this − best), paired rollouts
    # The playouts this option got and why they stopped ("settled": its grade band was clear;
    # "cap": the budget ran out first; "fixed": a fixed count). Absent from older banks.
    n: int = 0
    stop: str = ""


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
    # The central 80% of the bot's P(bluff) over who the claimant might be (the kinds of player
    # the model holds, weighed by how well each explains their moves): narrow once their moves
    # have shown how they play, wide on a first claim.
    bot_low: float | None = None
    bot_high: float | None = None
    explanation: str = ""
    p_star: float | None = None
    w_win: float | None = None  # challenge, and it was a bluff
    w_lose: float | None = None  # challenge, and it was true
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def has_claim(self) -> bool:
        return self.claim is not None and self.bluff is not None

    @property
    def asks_chance(self) -> bool:
        """Whether answering takes the chance that the claim is a bluff: a claim to challenge
        or pass. A block decision of a played game carries the action's claim too (for its
        truth and the bot's estimate), but blocking is not judging that claim: it was not
        challenged, and it can no longer be."""
        return self.has_claim and self.kind != "block"

    @property
    def best(self) -> Option:
        return max(self.options, key=lambda o: o.win)

    @property
    def playouts(self) -> str:
        """How many playouts the options got, in words: "1,000" when each got the same,
        "64 to 1,024" when the sequential playouts stopped some early."""
        counts = sorted({o.n or self.rollouts for o in self.options})
        if not counts:
            return f"{self.rollouts:,}"
        return f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}"

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

    def lost_range(self, label: str) -> tuple[float, float] | None:
        """The win-% lost by `label` as the chance of a bluff runs over the bot's range
        (`bot_low`–`bot_high`), for a challenge-or-pass item; None otherwise. A challenge's
        win chance moves with that chance by (w_win − w_lose) per unit, around its rollout
        value at the bot's own estimate; passing does not depend on it."""
        if (self.bot is None or self.bot_low is None or self.bot_high is None
                or self.w_win is None or self.w_lose is None):
            return None
        labels = {o.label for o in self.options}
        if labels != {"Challenge", "Pass"} or label not in labels:
            return None
        challenge, passing = self.option("Challenge").win, self.option("Pass").win

        def lost(p: float) -> float:
            value = challenge + (p - self.bot) * (self.w_win - self.w_lose)  # type: ignore
            gap = passing - value if label == "Challenge" else value - passing
            return 100 * max(0.0, gap)

        ends = sorted((lost(self.bot_low), lost(self.bot_high)))
        return ends[0], ends[1]

    def noise_pp(self) -> float:
        """The largest standard error of a win-% lost figure on this item, in points."""
        return 100 * max((o.diff_se for o in self.options), default=0.0)

    # --------------------------------------------------------------------- rebuilding
    def _lesson_game(self, folder: Path) -> Game:
        """The lesson item's game, or `ItemLost` naming the file by its name only (the item
        may be drawn on a shared screen, which never shows a server's folders)."""
        from trainer.scenarios import ScenarioError, load_scenario, replay

        path = folder / f"{self.scenario}.yaml"
        try:
            return replay(load_scenario(path), self.step)
        except ScenarioError as e:
            raise ItemLost(said(N_("its lesson file {file} no longer plays through: {problem}"),
                                file=path.name, problem=e.said)) from None
        except IndexError:
            raise ItemLost(said(N_("its lesson file {file} has fewer steps than it had"),
                                file=path.name)) from None

    def game(self, scenarios: Path | None = None) -> Game:
        """The game at the decision, rebuilt through the engine."""
        if self.source == "end-game puzzle":
            from trainer.quiz.puzzle_items import item_game

            return item_game(self)
        if self.scenario is not None:
            return self._lesson_game(scenarios or scenarios_dir())
        assert self.seed is not None
        names = self.meta.get("names")  # a played game's seats: "You" and the bots' names
        game = (Game.new(list(names), seed=self.seed, variant=self.variant) if names
                else new_game(self.players, self.seed, self.variant))
        for m in self.moves:
            game.apply(m)
        return game

    def learner_view(self, scenarios: Path | None = None) -> tuple[Any, ...]:
        """What the learner is shown, as a key: two items with the same key are the same
        question to them (the same hand and public past), however different the deals."""
        obs = self.game(scenarios).observation(self.viewer)
        return (self.variant, self.kind, tuple(obs.hand),
                tuple((e.kind, repr(e.data)) for e in obs.events))

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
        judged = [bool(i.bluff) for i in self.items if i.has_claim]
        return sum(judged) / len(judged) if judged else None

    def save(self, path: Path) -> None:
        """JSON lines; gzip-compressed when the name ends in .gz."""
        path.parent.mkdir(parents=True, exist_ok=True)
        header = {k: v for k, v in self.header.items() if not k.startswith("_")}
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "wt", encoding="utf-8") as f:
            f.write(json.dumps({"format": FORMAT, "bank": self.name, **header}) + "\n")
            for item in self.items:
                f.write(json.dumps(item.to_data(), separators=(",", ":")) + "\n")


def load_bank(path: Path | str) -> Bank:
    """Read a bank file; a damaged line is an error naming the file and line."""
    path = Path(path)
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rt", encoding="utf-8") as f:
                lines = f.read().splitlines()
        else:
            lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError, EOFError, zlib.error) as e:
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
    name = str(header.pop("bank", bank_stem(path)))
    header.pop("format", None)
    return Bank(name, tuple(items), header)


NAMES = ("Ana", "Ben", "Cris", "Dee", "Eli", "Fay")


def table_names(players: int) -> list[str]:
    """The seat names of a persona game: short, so the table and the answers read easily."""
    return list(NAMES[:players])


def new_game(players: int, seed: int, variant: str) -> Game:
    return Game.new(table_names(players), seed=seed, variant=variant)


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
