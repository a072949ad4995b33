"""The one game runner: bots decide from their seat's observation only, a game they need for a
search is rebuilt from what they saw, and a move is applied only at the version it was chosen
at."""

from __future__ import annotations

import ast
import pickle
import random
import threading
from pathlib import Path

import pytest

from trainer.bots.calibrated import Calibrated
from trainer.bots.play import play_game
from trainer.engine.cards import Action, Character
from trainer.engine.game import Game, Phase
from trainer.engine.information import resample, world
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation, observe
from trainer.play.match import Match, Stale
from trainer.play.setup import Setup
from trainer.policies.personas import Persona, personas
from trainer.policies.runner import Runner, seat_streams, seen_as
from trainer.quiz.building import exchange_branch, persona_positions
from trainer.scenarios.lesson_game import practice
from trainer.scenarios.loader import load_scenario

ROOT = Path(__file__).resolve().parents[1]


class Spy:
    """A bot that plays like a persona and remembers the type of everything it was handed."""

    def __init__(self, persona: Persona) -> None:
        self.persona = persona
        self.handed: list[type] = []

    def new_game(self, rng: random.Random) -> None:
        self.handed.append(type(rng))
        self.persona.new_game(rng)

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        self.handed.extend([type(obs), type(rng)])
        return self.persona.choose(obs, rng)

    def observe(self, obs: Observation, move: Move) -> None:
        self.handed.extend([type(obs), type(move)])


def only_observations(spies: list[Spy]) -> set[type]:
    return {t for s in spies for t in s.handed}


def test_a_bot_at_a_tournament_table_is_handed_observations_never_the_game() -> None:
    spies = [Spy(personas()[name]) for name in ("honest", "bluffer", "rule")]
    game = play_game(spies, seed=4)
    assert game.is_over
    assert only_observations(spies) == {Observation, random.Random, Move}


def test_a_bot_on_the_play_page_is_handed_observations_never_the_game() -> None:
    match = Match.start(Setup("base", 9, ("honest", "you", "calibrated")), "ann")
    spies = {seat: Spy(bot) for seat, bot in match.bots.items()}  # type: ignore[arg-type]
    match.runner.bots.update(spies)
    match.runner._watchers = [(s, b) for s, b in spies.items()]
    for _ in range(200):
        if match.over:
            break
        if match.bot_to_move:
            match.bot_move()
        else:
            match.play(match.game.legal_moves()[0])
    assert match.over
    assert only_observations(list(spies.values())) == {Observation, random.Random, Move}


def test_the_runner_never_calls_a_bot_with_anything_but_an_observation() -> None:
    """Read the source: every call of a bot's `choose` or `observe` passes an observation
    built there (`observe(...)`, `.observation(...)`) or a name holding one, and no code
    hands a bot the game (`bot.game = ...`, `hasattr(bot, "game")`)."""
    allowed_names = {"obs", "observation", "before"}
    problems = []
    for path in sorted((ROOT / "trainer").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("choose", "observe") and len(node.args) == 2
                    and not (isinstance(node.func.value, ast.Name)
                             and node.func.value.id == "Move")):
                first = node.args[0]
                made = (isinstance(first, ast.Call) and (
                    (isinstance(first.func, ast.Name) and first.func.id == "observe")
                    or (isinstance(first.func, ast.Attribute)
                        and first.func.attr in ("observation", "observe"))))
                if not made and not (isinstance(first, ast.Name) and first.id in allowed_names):
                    problems.append(f"{where}: {ast.unparse(node)[:80]}")
            if (isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == "game"
                    and isinstance(t.value, ast.Name) and t.value.id in ("bot", "seat", "persona")
                    for t in node.targets)):
                problems.append(f"{where}: a bot is handed the game")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "hasattr" and len(node.args) == 2
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value == "game"):
                problems.append(f"{where}: hasattr(..., 'game')")
    assert problems == [], "\n".join(problems)


def test_the_calibrated_bot_keeps_no_game() -> None:
    bot = Calibrated()
    assert not hasattr(bot, "game")
    match = Match.start(Setup("base", 0, ("you", "calibrated")), "ann")
    for _ in range(300):
        if match.over:
            break
        if match.bot_to_move:
            match.bot_move()
        else:
            match.play(match.game.legal_moves()[0])
        assert not any(isinstance(v, Game) for b in match.bots.values()
                       for v in vars(b).values())


def test_a_watching_bot_never_sees_the_cards_another_player_kept() -> None:
    keep = Move(MoveKind.KEEP, 1, cards=(Character.DUKE, Character.CAPTAIN))
    assert seen_as(keep, 0).cards is None and seen_as(keep, 0).kind is MoveKind.KEEP
    assert seen_as(keep, 1) == keep
    tax = Move.act(1, Action.TAX)
    assert seen_as(tax, 0) == tax


# ------------------------------------------------------------ a game rebuilt from what was seen
def _playout(game: Game) -> tuple[list[Move], int | None]:
    """The same bots and stream on two games: equal results if the games play alike."""
    bots = [personas()["rule"] for _ in range(game.n)]
    rng = random.Random(3)
    moves = []
    for _ in range(300):
        if game.is_over:
            break
        move = bots[game.decider].choose(observe(game, game.decider, events=False), rng)
        moves.append(move)
        game.apply(move)
    return moves, game.winner


@pytest.mark.parametrize("variant", ["base", "inquisitor", "reformation", "forum", "draft",
                                     "mcguire", "base+mat"])
def test_a_world_rebuilt_from_what_a_player_saw_plays_on_like_the_real_game(variant: str
                                                                            ) -> None:
    """At every decision, from every seat: the world built from the turn's start, the turn's
    moves and the observation now, dealt afresh like `resample` deals the real game, plays on
    exactly as the real game dealt afresh the same way."""
    rebuilt = compared = 0
    for seed in range(2):
        n = 2 if variant == "draft" else 3 + seed
        game = Game.new(n, seed=seed, variant=variant)
        names = list(personas())
        bots = [personas()[names[(seed + i) % len(names)]] for i in range(n)]
        rngs = [random.Random(f"{seed}:{i}") for i in range(n)]
        for bot, rng in zip(bots, rngs, strict=True):
            bot.new_game(rng)
        start: list[Observation | None] = [None] * n
        moves: list[list[Move]] = [[] for _ in range(n)]
        for _ in range(150):
            if game.is_over:
                break
            for p in range(n):
                if not game.alive[p] or start[p] is None:
                    continue
                now = observe(game, p)
                d = now.pending
                turn_start = d is not None and d.phase is Phase.ACTION and d.player == now.actor
                built = (world(now, (), now, random.Random(5)) if turn_start
                         else world(start[p], moves[p], now, random.Random(5)))  # type: ignore[arg-type]
                compared += 1
                if built is None:
                    continue
                rebuilt += 1
                assert observe(built, p).hand == now.hand
                assert (_playout(resample(built, p, random.Random(9)))
                        == _playout(resample(game, p, random.Random(9))))
            q = game.decider
            move = bots[q].choose(observe(game, q), rngs[q])
            for p in range(n):
                obs = observe(game, p)
                d = obs.pending
                if d is not None and d.phase is Phase.ACTION and d.player == obs.actor:
                    start[p], moves[p] = obs, []
                moves[p].append(move)
            game.apply(move)
    assert compared > 50
    assert rebuilt > 0.85 * compared


def test_a_world_is_refused_for_a_turn_start_that_is_not_a_turn_start() -> None:
    game = Game.new(3, seed=1)
    game.apply(Move.act(0, Action.TAX))  # a claim: the turn goes on to its challenge window
    later = observe(game, 1)
    assert later.pending is not None and later.pending.phase is not Phase.ACTION
    assert world(later, (), later, random.Random(0)) is None


# ------------------------------------------------------------ the other loops, one runner
def test_a_tournament_game_is_the_same_for_the_same_seed() -> None:
    a = play_game([personas()["rule"], Calibrated(), personas()["bluffer"]], seed=12)
    b = play_game([personas()["rule"], Calibrated(), personas()["bluffer"]], seed=12)
    assert [e for e in a.log if e.kind == "move"] == [e for e in b.log if e.kind == "move"]


def test_bank_positions_come_from_the_runner_and_replay() -> None:
    moves, candidates = persona_positions(7, 3, "base", {"honest": 1.0, "bluffer": 1.0})
    assert candidates
    game = Game.new(3, seed=7)
    for m in moves:
        game.apply(m)
    assert game.is_over
    branch = exchange_branch(7, 3, "base", moves, {"honest": 1.0, "bluffer": 1.0},
                             random.Random(1))
    assert branch is not None
    game = Game.new(3, seed=7)
    for m in branch:
        game.apply(m)  # every reply legal
    assert game.phase is Phase.EXCHANGE


def test_a_lesson_game_replies_through_the_runner_the_same_every_time() -> None:
    path = next(p for p in sorted((ROOT / "scenarios").rglob("*.yaml"))
                if "mode: game" in p.read_text())
    scenario = load_scenario(path)
    first = practice(scenario, [])
    again = practice(scenario, [])
    assert first.bot_moves == again.bot_moves


# ------------------------------------------------------------ versions
def test_a_move_chosen_before_the_game_moved_on_is_refused_and_changes_nothing() -> None:
    game = Game.new(3, seed=2)
    runner = Runner(game, {i: personas()["honest"] for i in range(3)}, seat_streams(2, 3))
    stale = runner.decide()
    runner.step(0)
    before = runner.version, len(game.log)
    with pytest.raises(Stale):
        runner.apply(stale, 0)
    assert (runner.version, len(game.log)) == before


def test_a_match_in_a_session_pickles_and_plays_on() -> None:
    match = Match.start(Setup("base", 3, ("you", "calibrated", "rule")), "ann")
    match.play(match.game.legal_moves()[0], version=0)
    copy = pickle.loads(pickle.dumps(match))
    while copy.bot_to_move:
        copy.bot_move(copy.version)
    assert copy.record.moves[:1] == match.record.moves[:1]


def test_a_learner_click_from_an_out_of_date_page_is_refused() -> None:
    match = Match.start(Setup("base", 3, ("you", "honest")), "ann")
    drawn_at = match.version
    match.play(match.game.legal_moves()[0], version=drawn_at)
    while match.bot_to_move:
        match.bot_move()
    with pytest.raises(Stale):
        match.play(match.game.legal_moves()[0], version=drawn_at)


def test_two_overlapping_runs_never_both_move() -> None:
    """Two threads drive the bots of one match from the version each read: every version
    is moved from once, and the record replays."""
    match = Match.start(Setup("base", 5, ("honest", "rule", "bluffer", "you")), "ann")
    refused: list[int] = []
    go = threading.Barrier(2)

    def run() -> None:
        go.wait()
        for _ in range(400):
            if not match.bot_to_move:
                if match.over:
                    return
                try:
                    match.play(match.game.legal_moves()[0], version=match.version)
                except Stale:
                    refused.append(1)
                except ValueError:
                    pass
                continue
            try:
                match.bot_move(match.version)
            except Stale:
                refused.append(1)
            except ValueError:
                pass

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert match.version == len(match.record.moves)
    assert Match.resume(match.record).version == match.version
