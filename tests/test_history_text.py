"""The game so far in words (`trainer.views.history_text`): every public decision the bot's
posterior conditioned on for a quiz item is in the timeline the learner reads.

The moves are found by driving the bank builder's own path (`building.evaluate_task`, which
feeds `Belief.observe` move by move for persona games and through `estimates.report._belief`
for lesson questions) with a recorder in place of the posterior, so the test follows whatever
that path feeds the bot, not a copy of it.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from tests.helpers import kept_item, sample_items, shipped_bank
from trainer.engine.game import Phase
from trainer.engine.moves import CHOICE_TEXT, Move, MoveKind
from trainer.engine.observation import Observation
from trainer.engine.rules import Options
from trainer.estimates import report
from trainer.quiz import building
from trainer.quiz.bank import Item
from trainer.views.history_text import (
    PRIVATE,
    HistoryRow,
    history_html,
    history_markdown,
    history_rows,
    history_title,
)

BANK = shipped_bank()
# Every lesson item, the longest game of each kind, rule set and table size, items until every
# move of the bank is in one, then a seeded draw: 300 of the 1,647 items of the shipped bank.
# After a change to the timeline or to the bank, walk every item once (a few minutes):
#   COUP_TRAINER_ALL_ITEMS=1 .venv/bin/python -m pytest tests/test_history_text.py -n 0 -q
SAMPLE = BANK.items if os.environ.get("COUP_TRAINER_ALL_ITEMS") == "1" else sample_items(
    BANK.items, 300)
_CHALLENGES = (Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK, Phase.CHALLENGE_CLAIM)


class _Recorder:
    """Takes the place of `Belief`: keeps what the bot's path feeds it, computes nothing."""

    def __init__(self, observer: int, components: Any, cards: Any) -> None:
        self.observer = observer
        self.fed: list[tuple[Observation, Move]] = []

    def observe(self, obs: Observation, move: Move) -> None:
        self.fed.append((obs, move))


@cache
def fed(item_id: str) -> tuple[tuple[Observation, Move], ...]:
    """The (observation, move) pairs the posterior observes for the item, in order."""
    item = next(i for i in BANK.items if i.id == item_id)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(building, "Belief", _Recorder)
        mp.setattr(report, "Belief", _Recorder)
        mp.setattr(building, "evaluate", lambda game, viewer, belief, **_: belief)
        task = building.Task(kind=item.kind, viewer=item.viewer, rollout_seed=0,
                             variant=item.variant, players=item.players, seed=item.seed,
                             moves=item.moves, scenario=item.scenario, step=item.step)
        recorder = building.evaluate_task(task, rollouts=1)
    assert isinstance(recorder, _Recorder) and recorder.observer == item.viewer
    return tuple(recorder.fed)


def _expected(obs: Observation, move: Move) -> list[str]:
    """Words the phrase for `move` must hold (lower case; any one of a tuple will do)."""
    who = "you" if move.player == obs.player else obs.seats[move.player].name.lower()
    k = move.kind
    assert obs.pending is not None
    if k is MoveKind.PASS:
        phase = obs.pending.phase
        window = ("challenge" if phase in _CHALLENGES else "block" if phase is Phase.BLOCK
                  else "claim" if phase is Phase.CLAIM else "pass")
        return [window, f"{who}|nobody"]
    words = {
        MoveKind.CHALLENGE: ["challenged"],
        MoveKind.BLOCK: ["blocked with", str(move.character).lower()],
        MoveKind.SHOW: ["showed", *(str(c).lower() for c in (move.cards or (move.character,)))],
        MoveKind.LOSE: ["lost", str(move.character).lower()],
        MoveKind.KEEP: ["kept|exchanged"],
        MoveKind.PAY: ["paid", "instead of losing"],
        MoveKind.CLAIM: ["claimed", str(move.character).lower()],
        MoveKind.OFFER: ["showed", "inquisitor"],
    }.get(k, [])
    if k is MoveKind.ACT and move.action is not None:
        words = [Options().with_(**obs.options).action_label(move.action)]
    if k is MoveKind.CHOOSE:
        words = [CHOICE_TEXT.get(move.choice or "", move.choice or "").lower()]
    return [*words, who]


def missing(item: Item, rows: tuple[HistoryRow, ...]) -> list[str]:
    """Every decision the posterior observed for `item` that `rows` do not say, in words."""
    game = item.game()
    final = game.observation(item.viewer).events
    pairs = fed(item.id)
    problems = []
    for n, (obs, move) in enumerate(pairs):
        start = len(obs.events)
        end = len(pairs[n + 1][0].events) if n + 1 < len(pairs) else len(final)
        assert obs.events == final[:start], "the bot's path and the item's game differ"
        assert obs.pending is not None
        if move.kind is MoveKind.OFFER and move.player != item.viewer:
            # Shown to the Inquisitor alone; the posterior does not condition on it either.
            assert obs.pending.phase is Phase.EXAMINE_OFFER
            continue
        if move.kind is MoveKind.KEEP and obs.pending.phase is Phase.DRAFT:
            # The two-player draft's hand, chosen in secret: the posterior only starts the
            # player's hand afresh, as after an exchange, and learns nothing from it.
            continue
        if move.kind is MoveKind.KEEP and move.player != item.viewer:
            # Which cards were kept is private; the exchange itself is public.
            at = [j for j in range(start, end) if final[j].kind == "exchanged"
                  and final[j].data["player"] == move.player]
        else:
            at = [j for j in range(start, end)
                  if final[j].kind == "move" and final[j].data["move"] == move]
        assert len(at) == 1, f"{item.id}: {move} is not in the viewer's log once"
        # The turn as the viewer knew it then (0: the set-up, before the first turn).
        turn = next((e.data["turn"] for e in reversed(obs.events) if e.kind == "turn"), 0)
        assert turn in (0, obs.turn)
        phrases = [p for r in rows if r.turn == turn for p in r.phrases if at[0] in p.events]
        said = phrases[0].text.lower() if phrases else ""
        if not phrases or not all(re.search(w, said) for w in _expected(obs, move)):
            problems.append(f"item {item.id}, turn {turn}: {move} "
                            f"({obs.pending.phase}) is not said: {said!r}")
    return problems


@pytest.mark.parametrize("item", SAMPLE, ids=lambda i: i.id)
def test_every_decision_the_posterior_used_is_in_the_timeline(item: Item) -> None:
    game = item.game()
    obs = game.observation(item.viewer)
    rows = history_rows(obs)
    assert item.source == "lesson" or len(fed(item.id)) == len(item.moves)
    assert not missing(item, rows)
    # Only what the viewer may see: public events and the viewer's own.
    for r in rows:
        for p in r.phrases:
            for j in p.events:
                assert obs.events[j].visible_to in (None, item.viewer)
            private = {obs.events[j].visible_to for j in p.events} == {item.viewer}
            assert not private or PRIVATE in p.text, p


# What a timeline that left out one kind of event would drop: the phrases saying it.
DROPS = {
    "a pass in a challenge window": r"didn't challenge|nobody challenged",
    "a pass in a block window": r"didn't block|nobody blocked",
    "a block": r"blocked with",
    "a challenge": r"challenged( the (block|claim))?$",
    "a proof": r"showed",
    "a lost card": r" lost ",
    "an action": r": ",
    "an exchange": r"kept|exchanged",
}


@pytest.mark.parametrize("kind", DROPS)
def test_the_check_fails_when_a_kind_of_event_is_left_out(kind: str) -> None:
    """A check that never fires would pass forever: leave one kind out of the rows and some
    bank item must be reported."""
    pattern = re.compile(DROPS[kind])
    for item in BANK.items:
        rows = history_rows(item.game().observation(item.viewer))
        cut = tuple(replace(r, phrases=tuple(p for p in r.phrases if not pattern.search(p.text)))
                    for r in rows)
        if cut != rows and missing(item, cut):
            return
    pytest.fail(f"dropping {kind} went unnoticed")


def test_the_check_fails_when_a_phrase_loses_its_events() -> None:
    item = next(i for i in BANK.items if i.source == "persona game" and len(i.moves) > 20)
    rows = history_rows(item.game().observation(item.viewer))
    assert not missing(item, rows)
    blind = tuple(replace(r, phrases=tuple(replace(p, events=()) for p in r.phrases))
                  for r in rows)
    assert len(missing(item, blind)) >= len(fed(item.id)) // 2


def _item(item_id: str) -> Item:
    """A bank item, or the worked example kept beside the tests (an Inquisitor game whose
    turns the tests below quote word for word), which outlives any rebuilt bank."""
    example = kept_item("history-item")
    if example.id == item_id:
        return example
    return next(i for i in BANK.items if i.id == item_id)


def test_a_turn_reads_as_plain_words() -> None:
    # Inquisitor game, Ben's seat, deciding which card to lose to Cris's Coup.
    item = _item("e26792bf6b45")
    rows = history_rows(item.game().observation(item.viewer))
    text = [r.text for r in rows]
    assert text[0] == "Start · You were dealt Duke and Contessa (only you saw this)"
    assert text[3] == ("Turn 3 · Cris: Tax (claims Duke) — Ana challenged; Cris showed a Duke "
                       "and drew a new card; Ana lost a Contessa")
    assert text[4] == ("Turn 4 · Ana: Assassinate you (claims Assassin) — nobody challenged; "
                       "you blocked with a Contessa; nobody challenged the block")
    assert text[6] == ("Turn 6 · Cris: Steal from you (claims Captain) — nobody challenged; "
                       "you didn't block")
    assert "you showed a Duke and drew a new card: Captain (only you saw this)" in text[7]
    assert rows[-1].current and text[-1] == "Turn 9 · Cris: Coup against you"
    assert [r.current for r in rows].count(True) == 1
    assert history_title(rows) == "What happened before (8 turns)"
    assert history_title(rows[:2]) == "What happened before (1 turn)"
    assert history_title(rows[:1]) == "What happened so far (first turn)"


def test_another_players_private_cards_never_show() -> None:
    # Cris's replacement draws are Cris's alone: from Ana's seat the same game says only that
    # a new card was drawn.
    item = _item("e26792bf6b45")
    game = item.game()
    for viewer in range(game.n):
        obs = game.observation(viewer)
        text = history_markdown(history_rows(obs))
        hidden = [e for e in game.log if e.visible_to not in (None, viewer)
                  and e.kind in ("draw", "deal")]
        assert hidden
        for e in hidden:
            cards = " and ".join(str(c) for c in e.data["cards"])
            assert f"drew a new card: {cards}" not in text
            assert f"dealt {cards}" not in text


def test_the_html_is_escaped_and_marks_the_current_turn() -> None:
    item = _item("e26792bf6b45")
    rows = history_rows(item.game().observation(item.viewer))
    html = history_html(rows)
    assert html.count("<li") == len(rows)
    assert html.count("ct-history-current") == 1
    assert '<em class="ct-history-private">' in html
    named = replace(rows[1], phrases=(replace(rows[1].phrases[0], text="<b>Ana</b>: Income"),))
    assert "&lt;b&gt;Ana&lt;/b&gt;" in history_html([named])
    assert history_html([]) == '<p class="ct-history-empty">Nothing has happened yet.</p>'


def test_a_blocker_drawn_at_random_reads_as_plain_words() -> None:
    from tests.helpers import act, table
    from trainer.engine.cards import Character

    game = table(("Ana", "Captain Contessa", 2), ("Ben", "Assassin Captain", 2),
                 ("Cat", "Duke Ambassador", 2),
                 options=Options().with_(foreign_aid_blockers="random"), picks=(1,))
    act(game, "foreign_aid")
    game.apply(Move.block(1, Character.DUKE))
    game.apply(Move.block(2, Character.DUKE))
    text = " ".join(r.text for r in history_rows(game.observation(0)))
    assert "Ben and Cat wanted to block; Cat was drawn at random to block" in text
