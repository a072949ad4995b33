"""The path's first game: a two-player game from the deal against a bot that never bluffs,
with every loss and every clear mistake explained in one sentence."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tests.helpers import shipped_library
from trainer.engine.cards import Character
from trainer.scenarios.lesson_game import PracticeState, mistakes_in, practice
from trainer.scenarios.loader import load_scenario
from trainer.scenarios.replay import replay
from trainer.views.lesson_text import game_over, mistake
from trainer.views.move_labels import your_move

LIBRARY = shipped_library()
GAME = LIBRARY.get("learn-first-game")
assert GAME is not None
FIRST = GAME.scenario


def play(picks: Sequence[str], until_over: bool = False) -> PracticeState:
    """The game after the learner's moves, each the first whose label holds the pick (then
    the first move, to the end, when `until_over`)."""
    moves = []
    state = practice(FIRST, moves)
    for want in picks:
        labels = [your_move(state.game, m) for m in state.legal]
        moves.append(next(m for m, label in zip(state.legal, labels, strict=True)
                          if want in label))
        state = practice(FIRST, moves)
    while until_over and not state.over:
        moves.append(state.legal[0])
        state = practice(FIRST, moves)
    return state


def test_the_first_game_starts_from_a_two_player_deal() -> None:
    """2 cards each, 2 coins each but 1 for the first player, the other 11 in the deck."""
    game = practice(FIRST, []).game
    assert game.n == 2 and [len(h) for h in game.hidden] == [2, 2]
    assert game.coins == [1, 2] and len(game.deck) == 11 and not any(game.revealed)


def test_challenging_the_bot_that_never_bluffs_is_explained_at_once() -> None:
    state = play(["Tax", "Challenge"])
    assert [mistake(m) for m in state.latest] == ["Ben never bluffs, so the Duke was real."]


def test_the_next_move_after_a_mistake_brings_no_repeat_of_it() -> None:
    state = play(["Tax", "Challenge", "Give up Duke"])
    assert state.latest == () and len(state.mistakes) == 1


def test_a_game_lost_by_a_challenge_says_why() -> None:
    state = play(["Tax", "Challenge", "Give up Duke", "Tax", "Challenge"], until_over=True)
    assert state.over and not state.won
    assert "Ben never bluffs, so the Duke was real." in game_over(state.game, state.learner,
                                                                  state.mistakes)


def test_a_game_lost_to_a_coup_without_a_clear_mistake_says_what_won_it() -> None:
    state = play(["Income", "Don't", "Income", "Don't", "Income", "Give up", "Income", "Don't",
                  "Income", "Don't", "Income"], until_over=True)
    assert state.over and not state.won and state.mistakes == ()
    assert "Ben reached 7 coins first, and a Coup cannot be stopped." in game_over(
        state.game, state.learner)


def test_the_winning_line_is_explained_as_no_mistake() -> None:
    from trainer.scenarios.lesson_game import line_moves

    state = practice(FIRST, line_moves(FIRST))
    assert state.won and state.mistakes == ()


def test_a_bluff_the_bot_challenges_is_explained() -> None:
    """In the challenges lesson Ben challenges Ana's Captain, which she does not hold."""
    lesson = LIBRARY.get("learn-challenges")
    assert lesson is not None
    game = replay(lesson.scenario)
    log = game.log
    hands = [(Character.DUKE, Character.CONTESSA)] * len(log)
    found = mistakes_in(log, 2, game.names, hands)
    assert [mistake(m) for m in found] == [
        "You had no Captain, and Ben challenges only a claim their own cards prove false."]


def test_not_blocking_an_assassination_while_holding_the_contessa_is_explained(
        tmp_path: Path) -> None:
    (tmp_path / "no-block.yaml").write_text("""id: no-block
title: No block
summary: Ana lets an assassination through.
mode: watch
setup:
  players:
    - {name: Ana, coins: 2, hidden: [Contessa, Duke]}
    - {name: Ben, coins: 3, hidden: [Assassin, Duke]}
  deck: [Captain, Captain, Captain, Ambassador, Ambassador, Ambassador, Assassin, Assassin,
         Contessa, Contessa, Duke]
  first: Ben
  learner: Ana
steps:
  - "Ben claims Assassin: assassinate Ana"
  - Ana does not challenge
  - Ana does not block
  - Ana loses Duke
""")
    game = replay(load_scenario(tmp_path / "no-block.yaml"))
    log = game.log
    found = mistakes_in(log, 0, game.names, [(Character.CONTESSA, Character.DUKE)] * len(log))
    assert [mistake(m) for m in found] == [
        "You held the Contessa: blocking would have saved your card."]


def test_a_last_card_is_given_up_without_asking() -> None:
    """Down to one card and challenged wrongly, the learner is not asked which card to lose:
    the game is over, and the loss is among the replies shown."""
    state = play(["Tax", "Challenge", "Give up Duke", "Tax", "Challenge"])
    assert state.over and not state.won
    assert any(m.player == state.learner for m in state.bot_moves)
