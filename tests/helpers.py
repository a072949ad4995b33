"""Building scripted positions for the rule tests in one line each."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

from trainer.engine.cards import Action, Character
from trainer.engine.chance import ScriptedChance
from trainer.engine.game import Game
from trainer.engine.moves import Move
from trainer.engine.rules import Options, Variant
from trainer.engine.variants import BASE, get_variant


def cards(text: str) -> list[Character]:
    return [Character.parse(w) for w in text.split()]


def cards_of(text: str) -> list[Character]:
    """Cards separated by commas, for names of more than one word ("Treaty Contessa, Duke")."""
    return [Character.parse(w) for w in text.split(",") if w.strip()]


def table(*seats: tuple[str, str, int], deck: str | None = None, first: int = 0,
          options: Options | None = None, draws: tuple[str, ...] = (),
          revealed: dict[int, str] | None = None, variant: Variant | str = BASE,
          allegiances: str | None = None, reserve: int = 0,
          mat: list[tuple[str, str | None]] | None = None, picks: tuple[int, ...] = (),
          treasury: int | None = None, mat_up: str = "") -> Game:
    """Players as (name, "Card Card", coins); a hand with a comma is read card by card on
    commas. The deck is the rest of the court, in a fixed order, unless given top to bottom;
    `draws` scripts each random draw in turn."""
    v = get_variant(variant) if isinstance(variant, str) else variant

    def read(text: str) -> list[Character]:
        return cards_of(text) if "," in text else cards(text)

    names = [s[0] for s in seats]
    hands = [read(s[1]) for s in seats]
    shown = [read((revealed or {}).get(i, "")) for i in range(len(seats))]
    on_mat = [(e, Character.parse(c) if c else None) for e, c in (mat or [])]
    flipped = read(mat_up)
    if deck is None:
        rest = Counter(v.court(len(seats)))
        for h in hands + shown + [[c for _, c in on_mat if c is not None], flipped]:
            rest.subtract(h)
        pile = sorted(rest.elements())
    else:
        pile = read(deck)
    return Game(names=names, hands=hands, revealed=shown, coins=[s[2] for s in seats],
                deck=pile, first=first, options=options, variant=v,
                chance=ScriptedChance((read(d) for d in draws), picks),
                allegiances=allegiances.split() if allegiances else None, reserve=reserve,
                mat=on_mat or None, treasury=treasury, mat_up=flipped)


def act(game: Game, action: str, target: int | None = None) -> None:
    game.apply(Move.act(game.decider, Action.parse(action), target))


def everyone_passes(game: Game) -> None:
    """Close the current challenge or block window with nobody acting."""
    window = game.phase
    while game.phase is window and not game.is_over:
        game.apply(Move.pass_(game.decider))


def kinds(game: Game) -> set[str]:
    return {str(m.kind) for m in game.legal_moves()}


def sample_answers(learner: str, n: int, seed: int = 7) -> list:
    """A plausible history for the calibration page: 30% bluffs, a bot that leans the right
    way, a learner who follows the bot with noise, ten minutes between answers."""
    import random
    from datetime import timedelta

    from trainer.learners.answers import Answer, grade_for, now

    rng = random.Random(seed)
    start = now() - timedelta(minutes=10 * n)
    rows = []
    for i in range(n):
        bluff = rng.random() < 0.3
        bot = min(0.99, max(0.01, (0.7 if bluff else 0.15) + rng.gauss(0, 0.15)))
        stated = min(0.99, max(0.01, round(bot + rng.gauss(0, 0.2), 2)))
        lost = abs(rng.gauss(0, 6))
        rows.append(Answer(
            answer_id=f"{learner}-{i:06d}", learner=learner, item_id=f"item{i % 300}",
            bank="b-1", kind="challenge",
            themes=rng.choice(["Duke claims", "Captain steals|End-game 1-v-1",
                               "Contessa blocks", "Assassin claims"]),
            answered_at=start + timedelta(minutes=10 * i), stated=stated, bot=round(bot, 3),
            prior=0.5, bluff=bluff, action="Pass", best="Challenge", lost_pp=round(lost, 2),
            grade=grade_for(lost)))
    return rows


def kept_item(name: str):  # -> trainer.quiz.bank.Item
    """A quiz item kept in tests/data/<name>.json: tests that quote an item's turns word for
    word hold it here, so a rebuilt bank leaves them standing."""
    import json
    from pathlib import Path

    from trainer.quiz.bank import Item

    path = Path(__file__).resolve().parent / "data" / f"{name}.json"
    return Item.from_data(json.loads(path.read_text(encoding="utf-8")))


def sample_items(items, size: int, seed: int = 2024) -> list:
    """A fixed sample of bank items for a check that would otherwise walk the whole bank.

    Why not every item: most items of a 1,600-item bank repeat what others already exercise,
    and a walk of all of them costs the suite minutes. The sample keeps what a full walk could
    catch: every lesson item (each is its own scenario); for every kind of question, rule set
    and table size, the item with the longest game; then, until every move seen in the bank
    (rule set, kind, action, card, choice) is in some chosen item's game, the item adding the
    most moves not yet covered; then items drawn with `random.Random(seed)` up to `size`. The
    same bank always gives the same sample, in the bank's order."""
    import random

    def moves_of(item) -> set[tuple]:
        return {(item.variant, m.kind, m.action, m.character, m.choice) for m in item.moves}

    chosen: set[int] = {i for i, item in enumerate(items) if item.source == "lesson"}
    longest: dict[tuple, int] = {}
    for i, item in enumerate(items):
        key = (item.source, item.variant, item.kind, item.players)
        if key not in longest or len(item.moves) > len(items[longest[key]].moves):
            longest[key] = i
    chosen |= set(longest.values())
    covered = set().union(*(moves_of(items[i]) for i in chosen))
    left = set().union(*(moves_of(item) for item in items)) - covered
    while left:
        best = max(range(len(items)), key=lambda i: len(moves_of(items[i]) & left))
        chosen.add(best)
        left -= moves_of(items[best])
    rest = [i for i in range(len(items)) if i not in chosen]
    chosen |= set(random.Random(seed).sample(rest, max(0, min(len(rest), size - len(chosen)))))
    return [items[i] for i in sorted(chosen)]


@cache
def shipped_bank():  # -> trainer.quiz.bank.Bank
    """The shipped bank (`DEFAULT_BANK`), read once per test process: reading its 1,600 items
    takes half a second, and a dozen test files did it at import, in each process of the
    run. A Bank is frozen, so the files share it."""
    from trainer.quiz.bank import DEFAULT_BANK, load_bank

    return load_bank(DEFAULT_BANK)


@cache
def shipped_library():  # -> trainer.scenarios.lessons.Library
    """The lessons and scenarios of scenarios/, read once per test process (a Library is
    frozen), for the same reason as `shipped_bank`."""
    from pathlib import Path

    from trainer.scenarios.lessons import load_library

    return load_library(Path(__file__).resolve().parents[1] / "scenarios")


def alive(pid: int) -> bool:
    """Whether process `pid` still exists (a test that stops servers checks none is left)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def hidden_table_copy(tmp_path: Path, keep: list[tuple[str, int, int]],
                      edit: Callable[[dict[str, np.ndarray], np.ndarray], None]) -> Path:
    """A copy of the shipped one-card hidden-role table (`tmp_path / "hidden.npz"`) for a
    table pass over a few positions: `edit(arrays, mask)` changes its arrays in place, `mask`
    marking the `keep` positions ("Duke-Duke", mover's coins, other's coins)."""
    from trainer.endgame import hidden_tables

    out = tmp_path / "hidden.npz"
    shutil.copy(Path(hidden_tables.__file__).resolve().parent / "data" / "hidden-base.npz", out)
    with np.load(out) as f:
        z = {k: f[k] for k in f.files}
    names = [str(p) for p in z["pairs"]]
    mask = np.zeros(z["settled"].shape, dtype=bool)
    for name, a, b in keep:
        mask[names.index(name), a, b] = True
    edit(z, mask)
    np.savez_compressed(out, **z)
    return out
