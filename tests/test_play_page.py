"""The Play page under AppTest: scripted whole games (a win, a loss, a challenge lost on
purpose), the coach, a stated chance, resigning, a saved game resumed, a bad link, and no
bot's face-down card ever drawn while the game is played.

The scripts lean on the engine's determinism: a deal's number fixes the cards and each bot's
random stream, so the same clicks meet the same bot moves every time. The bots move without a
pause ("Instant") and decisions are valued in the page's own process (no worker processes).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.engine.variants import VARIANTS
from trainer.learners.storage import Store
from trainer.play.match import Match
from trainer.play.setup import sizes

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")

WIN = ("you,random", 0, ["Tax: claim Duke, take 3", "Don't challenge",
                         "Block: claim Ambassador", "Show Ambassador",
                         "Tax: claim Duke, take 3", "Coup Ana: pay 7"])
LOSE = ("you,calibrated", 0, ["Income: take 1", "Don't block", "Income: take 1",
                              "Don't challenge", "Don't block", "Give up Duke",
                              "Income: take 1", "Don't block", "Income: take 1",
                              "Don't challenge", "Don't block"])  # the last card: played
CONCEDE = ("you,skeptic", 0, ["Tax: claim Duke, take 3", "Tax: claim Duke, take 3"])


@pytest.fixture(autouse=True)
def db_url(tmp_path, monkeypatch) -> str:
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    monkeypatch.setenv("COUP_TRAINER_PLAY_WORKERS", "0")
    return url


def page(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["play_speed"] = "Instant"
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("pages/play.py").run()
    ok(at)
    return at


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def deal(seats: str, number: int) -> AppTest:
    at = page(rules="base", seats=seats, deal=str(number))
    click(at, "play_linked")
    return at


def click(at: AppTest, key: str) -> None:
    next(b for b in at.button if b.key == key).click().run()
    ok(at)


def moves(at: AppTest) -> list[str]:
    return [b.label for b in at.button if b.key and b.key.startswith("play_move_")]


def press(at: AppTest, label: str) -> None:
    found = [b for b in at.button if b.key and b.key.startswith("play_move_")
             and b.label == label]
    assert found, f"no button {label!r}; the page offers {moves(at)}"
    found[0].click().run()
    ok(at)


def match(at: AppTest) -> Match:
    m: Match = at.session_state["play_match"]
    return m


def words(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [e.value for e in at.success]
                     + [e.value for e in at.warning] + [e.value for e in at.info]
                     + [e.value for e in at.error] + [c.value for c in at.caption])


def tables(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html") if "data-seat=" in h.proto.body]


def play_script(at: AppTest, labels: list[str]) -> None:
    for label in labels:
        press(at, label)


def test_a_link_offers_its_deal_and_starts_it() -> None:
    at = page(rules="base", seats="you,random", deal="0")
    assert "This link deals a game" in words(at)
    click(at, "play_linked")
    assert match(at).record.seed == 0
    assert match(at).record.seats == ("you", "random")
    assert moves(at), "the learner's first decision is on screen"


def test_the_learner_can_win_a_whole_game() -> None:
    seats, number, script = WIN
    at = deal(seats, number)
    play_script(at, script)
    assert match(at).won is True
    assert "You won!" in words(at)
    assert [h.value for h in at.header] == ["Review"]
    assert re.search(r"Accuracy \*\*\d+%\*\* over \d+ graded decisions", words(at))


@dataclass(frozen=True)
class Played:
    """A game played to its end on the page, with what the page drew before each move."""

    at: AppTest
    # Before each move: the tables' HTML, the bot's face-down cards, the learner's count.
    steps: tuple[tuple[tuple[str, ...], tuple[str, ...], int], ...]


@pytest.fixture(scope="module")
def lost(tmp_path_factory) -> Iterator[Played]:
    """The LOSE game played once for the tests that only read it (a whole game on the page
    costs seconds): the tables drawn before every move and the page at the end. Read it,
    never press anything on it; a test that plays on deals its own game."""
    with pytest.MonkeyPatch.context() as mp:
        url = f"sqlite:///{tmp_path_factory.mktemp('lost') / 'answers.db'}"
        mp.setenv("COUP_TRAINER_DB_URL", url)
        mp.setenv("COUP_TRAINER_PLAY_WORKERS", "0")
        seats, number, script = LOSE
        at = deal(seats, number)
        steps = []
        for label in script:
            game = match(at).game
            steps.append((tuple(tables(at)), tuple(str(c) for c in game.hidden[1]),
                          len(game.hidden[0])))
            press(at, label)
        yield Played(at, tuple(steps))


def test_the_learner_can_lose_a_whole_game(lost: Played) -> None:
    at = lost.at
    assert match(at).won is False
    assert "Ana won." in words(at)
    assert "Review" in [h.value for h in at.header]


# Three seats, deal 24: Ana's then Ben's assassination take the learner's two cards while
# Ana and Ben both still hold theirs, so the bots have a game left to finish.
OUT_FIRST = ("you,bluffer,rule", 24, ["Income: take 1", "Income: take 1", "Don't challenge",
                                      "Don't block", "Give up Assassin", "Don't challenge",
                                      "Don't block"])  # the last card goes without asking
TROPHY = ":material/emoji_events:"


def alerts(at: AppTest) -> list[tuple[str, str, str]]:
    """(type, icon, text) of every coloured box on the page."""
    return [(a.type, a.proto.icon, a.value)
            for a in [*at.success, *at.info, *at.warning, *at.error]]


def test_once_the_learner_is_out_the_table_shows_how_the_bots_finished() -> None:
    seats, number, script = OUT_FIRST
    at = deal(seats, number)
    play_script(at, script[:-1])
    assert match(at).game.alive.count(True) == 3
    press(at, script[-1])  # lets the assassination through: the learner's last card
    game = match(at).game
    assert game.is_over and game.winner not in (None, 0), "the bots played the game out"
    winner = game.names[game.winner]
    final = tables(at)[0]  # the game's own table, above the review's
    assert final.count("ct-seat--out") == game.n - 1, "only the winner is still in"
    assert "ct-seat--decider" not in final, "nobody is left to decide"
    history = [h.proto.body for h in at.get("html") if "ct-history-row" in h.proto.body]
    assert history and f"{winner} won" in history[0], "the last turn is in the history"
    assert not any(t.key == "play_coach" for t in at.toggle)
    assert not any(b.key in ("play_resign", "play_coach_key") for b in at.button)
    result = [a for a in alerts(at) if f"{winner} won" in a[2]]
    assert len(result) == 1, alerts(at)
    kind, icon, text = result[0]
    assert kind != "success" and icon != TROPHY, "a lost game is not shown as a win"
    assert text.startswith("You lost") and "review" in text


def test_a_won_game_keeps_its_trophy() -> None:
    seats, number, script = WIN
    at = deal(seats, number)
    play_script(at, script)
    result = [a for a in alerts(at) if "You won!" in a[2]]
    assert [(kind, icon) for kind, icon, _ in result] == [("success", TROPHY)]
    assert not any(t.key == "play_coach" for t in at.toggle)


def test_a_challenge_can_be_lost_on_purpose_by_giving_up_a_card() -> None:
    seats, number, script = CONCEDE
    at = deal(seats, number)
    play_script(at, script)
    offered = moves(at)
    assert "Show Duke" in offered and "Give up Duke" in offered
    press(at, "Give up Duke")
    game = match(at).game
    assert [str(c) for c in game.revealed[0]] == ["Duke"], "the Duke was given up, not shown"


def test_no_bots_face_down_card_is_drawn_while_the_game_is_played(lost: Played) -> None:
    for drawn, bots_cards, own in lost.steps:
        assert drawn, "the table is drawn"
        for html in drawn:
            # Only the learner's own face-down cards are drawn face up: one per card held.
            assert html.count("ct-mini--own") == own
            bot_seat = html.split('data-seat="Ana"')[1].split("</section>")[0]
            for card in bots_cards:
                assert f'data-card="{card}"' not in bot_seat.replace(
                    "ct-mini--revealed", "")


def test_the_coach_gives_the_bots_chance_of_a_bluff_and_each_options_win_chance() -> None:
    seats, number, script = LOSE
    at = deal(seats, number)
    play_script(at, script[:3])
    assert moves(at)[0] == "Challenge Ana"
    at.toggle(key="play_coach").set_value(True).run()
    ok(at)
    assert "The bot's chance that Ana is bluffing" in words(at)
    assert "The coach's pick" in words(at)
    coach = at.dataframe[0].value
    assert set(coach["Option"]) == {"Challenge", "Pass"}
    index = match(at).index
    press(at, "Don't challenge")
    assert index in match(at).record.coached


def test_a_stated_chance_of_a_bluff_is_kept_with_the_decision() -> None:
    seats, number, script = LOSE
    at = deal(seats, number)
    play_script(at, script[:3])
    at.toggle(key="play_say").set_value(True).run()
    at.slider(key="play_p").set_value(35).run()
    ok(at)
    index = match(at).index
    press(at, "Don't challenge")
    assert match(at).record.stated == {index: 0.35}


def test_a_stated_chance_reaches_the_learners_answers_after_the_game(db_url: str) -> None:
    seats, number, script = LOSE
    at = deal(seats, number)
    play_script(at, script[:3])
    at.toggle(key="play_say").set_value(True).run()
    at.slider(key="play_p").set_value(35).run()
    play_script(at, script[3:])
    store = Store(db_url)
    learner = match(at).record.learner
    saved, _ = store.answers(learner)
    stated = [a for a in saved if a.stated is not None]
    assert len(stated) == 1 and stated[0].stated == 0.35 and stated[0].mode == "play"


def test_resigning_ends_the_game_and_shows_the_review() -> None:
    seats, number, script = LOSE
    at = deal(seats, number)
    play_script(at, script[:2])
    click(at, "play_resign")
    assert match(at).record.resigned
    assert "You resigned this game." in words(at)
    assert not moves(at)
    assert "Review" in [h.value for h in at.header]


def test_a_game_left_half_way_is_listed_and_resumed() -> None:
    seats, number, script = LOSE
    at = deal(seats, number)
    play_script(at, script[:4])
    before = list(match(at).record.moves)
    game_id = match(at).record.game_id
    click(at, "play_new")
    assert "play_match" not in at.session_state
    assert "unfinished" in words(at)
    click(at, f"play_open_{game_id}")
    assert match(at).record.moves == before
    assert moves(at) == [script[4]] or script[4] in moves(at)


def test_a_link_with_an_unknown_bot_says_what_is_wrong() -> None:
    at = page(rules="base", seats="you,genius", deal="3")
    assert "unknown bot 'genius'" in words(at)
    assert not any(b.key == "play_linked" for b in at.button)


def test_a_new_game_starts_from_the_form_with_the_chosen_bots() -> None:
    at = page()
    at.toggle(key="play_mixed").set_value(False).run()
    at.selectbox(key="play_bot_1").set_value("honest").run()
    ok(at)
    click(at, "play_start")
    assert match(at).record.seats[:2] == ("you", "honest")


def test_a_mistake_can_be_retried_as_a_quiz_question() -> None:
    seats, number, script = LOSE
    at = deal(seats, number)
    play_script(at, script)
    retries = [b for b in at.button if b.key and b.key.startswith("play_retry_")
               and b.label == "Retry this decision"]
    assert retries, "the lost game has mistakes to retry"
    retries[0].click().run()
    ok(at)
    options = [b for b in at.button if b.key and b.key.startswith("play_retry_option_")]
    assert len(options) >= 2
    options[0].click().run()
    ok(at)
    graded = [e.value for e in [*at.success, *at.info, *at.warning, *at.error]]
    assert any(re.match(r"\*\*(Best move|Good|Inaccuracy|Mistake|Blunder|Depends on "
                        r"|Sound however often |Too close to call)", g) for g in graded)
    answer = at.session_state["play_retry_answer"]
    assert answer.mode == "play retry" and answer.action == options[0].label


def test_a_block_decision_is_retried_as_a_block_not_as_a_challenge() -> None:
    seats, number, script = LOSE
    at = deal(seats, number)
    play_script(at, script)
    # Move 6: Ana claims the Assassin to assassinate you; you block with the Contessa or not.
    block = next(s for s in at.session_state["play_reviews"].values()
                 for s in s.steps if s.kind == "block" and s.valued.item.has_claim)
    at.session_state["play_retry"] = block.index
    at.run()
    ok(at)
    assert "Do you block, and with which card?" in words(at)
    assert not [s for s in at.slider if s.key == "play_retry_p"], "no chance of a bluff asked"
    options = [b for b in at.button if b.key and b.key.startswith("play_retry_option_")]
    assert [b.label for b in options] == [o.label for o in block.valued.item.options]
    assert any(b.label.startswith("Block with") for b in options)
    options[0].click().run()
    ok(at)
    shown = words(at)
    assert "challenge never pays" not in shown and "A challenge pays" not in shown
    assert "Chance it is a bluff" not in shown
    answer = at.session_state["play_retry_answer"]
    assert answer.mode == "play retry" and answer.kind == "block" and answer.stated is None


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_whole_game_can_be_played_in_every_rule_set(variant: str, monkeypatch) -> None:
    monkeypatch.setenv("COUP_TRAINER_PLAY_ROLLOUTS", "8")
    players = sizes(variant)[0]
    bots = ",".join(["rule"] * (players - 1))
    at = page(rules=variant, seats=f"you,{bots}", deal="5")
    click(at, "play_linked")
    for _ in range(300):
        offered = [b for b in at.button if b.key and b.key.startswith("play_move_")]
        if not offered:
            break
        offered[-1].click().run()  # the last button: a pass, a keep, a give-up, a target
        ok(at)
    assert match(at).over, f"{variant}: the game ended"
    assert "Review" in [h.value for h in at.header]


def test_a_new_game_forgets_the_link_of_the_game_left() -> None:
    seats, number, script = LOSE
    at = deal(seats, number)
    play_script(at, script[:1])
    click(at, "play_new")
    assert "This link deals a game" not in words(at)
    assert "deal" not in at.query_params
    assert any(b.key == "play_start" for b in at.button)


def test_a_move_refused_by_the_rules_is_said_once_and_changes_nothing() -> None:
    from trainer.engine.moves import Move

    seats, number, script = LOSE
    at = deal(seats, number)
    before = list(match(at).record.moves)
    tab_state = at.session_state
    # A stale button of an earlier screen: a move the rules do not allow now.
    from trainer.ui.play import PlayTab

    PlayTab(tab_state, match(at).record.learner, None).move(Move.pass_(0))
    at.run()
    ok(at)
    assert any("That move cannot be made now" in e.value for e in at.error)
    assert match(at).record.moves == before
    at.run()
    assert not any("That move cannot be made now" in e.value for e in at.error)


def test_an_imported_log_that_is_not_a_game_is_refused_with_its_line() -> None:
    from trainer.ui.play import PlayTab
    from trainer.ui.play_games import IMPORT_ERROR, _import

    state: dict[str, object] = {}
    tab = PlayTab(state, "ann", None)
    _import(tab, b"coup-trainer game log 1\ngame: abc\n")
    assert "line 2" in str(state[IMPORT_ERROR]) and "game" in str(state[IMPORT_ERROR])
    _import(tab, b"\xff\xfe not text")
    assert "not a text file" in str(state[IMPORT_ERROR])
    assert "play_match" not in state


def test_an_imported_log_with_a_seed_of_thousands_of_digits_is_refused_naming_the_seed(
        ) -> None:
    from trainer.play.log import export_text
    from trainer.ui.play import PlayTab
    from trainer.ui.play_games import IMPORT_ERROR, _import

    seats, number, script = WIN
    at = deal(seats, number)
    text = export_text(match(at).record)
    huge = "\n".join(f"seed: {'9' * 5000}" if line.startswith("seed: ") else line
                     for line in text.splitlines())
    state: dict[str, object] = {}
    _import(PlayTab(state, "ann", None), huge.encode())
    message = str(state[IMPORT_ERROR])
    assert "seed:" in message and "a whole number from 0 to" in message
    assert "(5,000 digits)" in message and "play_match" not in state


def test_a_five_megabyte_log_on_one_line_is_refused_at_once_with_a_short_message() -> None:
    from trainer.ui.play import PlayTab
    from trainer.ui.play_games import IMPORT_ERROR, _import

    state: dict[str, object] = {}
    data = ("coup-trainer game log " + "9" * (5 * 1024 * 1024)).encode()
    started = time.perf_counter()
    _import(PlayTab(state, "ann", None), data)
    assert time.perf_counter() - started < 1
    message = str(state[IMPORT_ERROR])
    assert "line 1:" in message and "expected a game log of at most" in message
    assert "9" * 21 not in message and len(message) < 400, message
    assert "play_match" not in state


def test_a_refused_import_is_said_under_the_import_not_at_the_top() -> None:
    from trainer.ui.play_games import IMPORT_ERROR

    at = page()
    at.session_state[IMPORT_ERROR] = "The game log could not be read: line 1: found 'x'"
    at.run()
    ok(at)
    errors = [e.value for e in at.error]
    assert errors == ["The game log could not be read: line 1: found 'x'"]
    # Drawn after the list of games, where the import is: below "Your games".
    order = [getattr(e, "value", None) for e in at.main]
    assert order.index("Your games") < order.index(errors[0])
    at.run()
    assert not at.error, "said once"


def test_the_log_upload_takes_a_file_of_at_most_a_megabyte() -> None:
    at = page()
    uploads = [u for u in at.get("file_uploader") if u.proto.label == "Import a game log"]
    assert [u.proto.max_upload_size_mb for u in uploads] == [1]


def test_an_exported_log_imports_back_as_the_same_game_on_the_page() -> None:
    from trainer.play.log import export_text
    from trainer.ui.play import PlayTab
    from trainer.ui.play_games import _import

    seats, number, script = WIN
    at = deal(seats, number)
    play_script(at, script)
    record = match(at).record
    state: dict[str, object] = {}
    _import(PlayTab(state, record.learner, None), export_text(record).encode())
    imported = state["play_match"]
    assert isinstance(imported, Match) and imported.record == record
    assert imported.game.position_key() == match(at).game.position_key()


def test_without_a_database_the_game_is_played_and_says_it_is_not_saved(monkeypatch) -> None:
    monkeypatch.setenv("COUP_TRAINER_DB_URL", "nosuchdb://nowhere")
    at = page()
    assert "Games cannot be saved" in words(at)
    click(at, "play_start")
    assert moves(at)


def test_decisions_valued_during_the_game_are_saved_with_it(db_url: str) -> None:
    from sqlalchemy import create_engine

    from trainer.play.assess import kind_of
    from trainer.play.store import PlayStore

    seats, number, script = LOSE
    at = deal(seats, number)
    play_script(at, script[:3])
    record = match(at).record
    saved = PlayStore(create_engine(db_url)).valued(record.game_id)
    real = {k for k in record.learner_moves() if kind_of(record.game(k)) is not None}
    assert real and set(saved) == real, "every decision made so far is in the database"


# ------------------------------------------------------------ house rules and table rules
COMPOSED = "base+pay_five(challengers=all)"


def test_a_game_under_house_and_table_rules_plays_to_the_end(monkeypatch) -> None:
    monkeypatch.setenv("COUP_TRAINER_PLAY_ROLLOUTS", "8")
    at = page(rules="base pay_five(challengers=all)", seats="you,rule,honest", deal="5")
    assert "This link deals a game" in words(at)
    click(at, "play_linked")
    record = match(at).record
    assert record.variant == COMPOSED
    game = match(at).game
    assert game.variant.pay_instead == 5 and game.options.challengers == "all"
    assert at.query_params["rules"] in ("base pay_five(challengers=all)",
                                        ["base pay_five(challengers=all)"])
    shown = words(at)
    assert "House rules: 4. Paying instead of losing a card" in shown
    assert "Table rules: everyone who wants to may challenge" in shown
    for _ in range(300):
        offered = [b for b in at.button if b.key and b.key.startswith("play_move_")]
        if not offered:
            break
        offered[-1].click().run()
        ok(at)
    assert match(at).over
    assert "Review" in [h.value for h in at.header]
    assert match(at).record.variant == COMPOSED


def test_the_set_up_plays_exactly_the_switches_chosen() -> None:
    at = page()
    assert "none (as in the rulebook)" in at.expander[0].label
    at.toggle(key="play_hr_bounty").set_value(True).run()
    at.radio(key="play_opt_challengers").set_value("all").run()
    ok(at)
    fold = next(e for e in at.expander if e.label.startswith("House rules and table rules"))
    assert fold.label.endswith("the challenger's coin; everyone who wants to may challenge")
    assert "measured in the base game" in words(at)
    click(at, "play_start")
    assert match(at).record.variant == "base+bounty(challengers=all)"
    assert match(at).game.variant.challenge_bounty == 1


def test_only_the_switches_that_fit_the_rule_set_are_offered() -> None:
    at = page()
    at.selectbox(key="play_rules").set_value("inquisitor").run()
    ok(at)
    keys = {t.key for t in at.toggle}
    assert "play_hr_pay_five" in keys
    assert "play_hr_ambassador_reduces" not in keys and "play_hr_inheritance" not in keys
    assert "play_opt_examine_pick" in {r.key for r in at.radio}


def test_a_link_with_only_rules_fills_the_form() -> None:
    at = page(rules="mcguire-inheritance")
    assert at.selectbox(key="play_rules").value == "mcguire"
    assert at.toggle(key="play_hr_inheritance").value is False
    assert at.toggle(key="play_hr_vengeance").value is True
    click(at, "play_start")
    assert match(at).record.variant == "mcguire-inheritance"


def test_a_link_with_a_bad_description_says_what_is_wrong() -> None:
    at = page(rules="base+pay5", seats="you,rule", deal="1")
    shown = words(at)
    assert "The link's game cannot be dealt" in shown
    assert "unknown house rule 'pay5'" in shown
    assert not any(b.key == "play_linked" for b in at.button)
    assert at.selectbox(key="play_rules").value == "base"


def test_a_long_description_can_be_started() -> None:
    text = "reformation-inquisitor+low_start+bounty+pay_five(challengers=all)"
    at = page(rules=text)
    assert not next(b for b in at.button if b.key == "play_start").disabled


def test_the_coach_weighs_a_decision_under_house_rules(monkeypatch) -> None:
    monkeypatch.setenv("COUP_TRAINER_PLAY_ROLLOUTS", "8")
    at = page(rules="mcguire(challengers=all)", seats="you,honest,rule", deal="2")
    click(at, "play_linked")
    for _ in range(40):
        if match(at).over:
            break
        at.toggle(key="play_coach").set_value(True).run()
        ok(at)
        if any("The coach's pick" in m.value for m in at.markdown):
            break
        offered = [b for b in at.button if b.key and b.key.startswith("play_move_")]
        offered[0].click().run()
        ok(at)
    assert any("The coach's pick" in m.value for m in at.markdown)
