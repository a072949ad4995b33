"""Who is answering, without a browser: the per-browser id and its cookie, `?learner=` links,
"Not you?", display names, and what the page says about each."""

from __future__ import annotations

import re
from typing import Any

import pytest

from trainer.learners.history_csv import export_csv
from trainer.learners.identity import (
    BROWSER,
    LINKED,
    Note,
    back_to_own,
    cookie_due,
    is_browser_id,
    new_browser_id,
    read_cookie,
    resolve,
    start_new,
)
from trainer.learners.names import EXPECTED, check_name, default_name, is_old_key
from trainer.views import chrome, learner_text

MINE = "b-" + "0123456789abcdef" * 2
THEIRS = "b-" + "fedcba9876543210" * 2
OLD = {"ann", "guest-b38f30"}  # keys of answers saved before browser ids


def known(key: str) -> bool:
    return key in OLD


# ------------------------------------------------------------------------------ the id
def test_a_new_id_is_random_and_has_the_browser_form() -> None:
    ids = {new_browser_id() for _ in range(200)}
    assert len(ids) == 200
    assert all(re.fullmatch(r"b-[0-9a-f]{32}", i) and is_browser_id(i) for i in ids)


@pytest.mark.parametrize("value", [
    "", "b-", "b-0123", MINE.upper(), MINE + "0", " " + MINE, "a-" + MINE[2:], "ann",
    "guest-b38f30", "b-" + "g" * 32, None, 7, ["b-" + "0" * 32]])
def test_anything_else_is_not_a_browser_id(value: Any) -> None:
    assert not is_browser_id(value)


# ------------------------------------------------------------------------------ the cookie
def test_a_cookie_holding_an_id_is_read() -> None:
    assert read_cookie(MINE) == (MINE, None)
    assert read_cookie(f'"{MINE}"') == (MINE, None)  # quoted by some servers


@pytest.mark.parametrize("raw", [None, ""])
def test_no_cookie_is_no_learner_and_no_note(raw: str | None) -> None:
    assert read_cookie(raw) == (None, None)


@pytest.mark.parametrize("raw", ["ann", "b-xyz", "%00%ff", "<script>", "b-" + "0" * 31,
                                 "x" * 5000, "\x00\x1b[31m"])
def test_a_malformed_cookie_is_noted_and_cut_short(raw: str) -> None:
    learner, note = read_cookie(raw)
    assert learner is None and note is not None and note.kind == "bad_cookie"
    assert len(note.value) <= 40 and note.value.isprintable()


# ------------------------------------------------------------------------------ resolving
def test_a_first_visit_gets_a_new_learner_and_asks_for_the_cookie() -> None:
    state: dict[str, Any] = {}
    found = resolve(state, None, None, known)
    assert is_browser_id(found.key) and found.key == found.browser_id == state[BROWSER]
    assert (found.source, found.notes, found.write_cookie) == ("browser", (), True)


def test_a_returning_visitor_is_the_learner_in_the_cookie() -> None:
    found = resolve({}, MINE, None, known)
    assert (found.key, found.source, found.notes, found.write_cookie) == (
        MINE, "browser", (), False)


def test_the_tab_keeps_its_learner_over_a_cookie_changed_elsewhere() -> None:
    state: dict[str, Any] = {BROWSER: MINE}
    found = resolve(state, THEIRS, None, known)
    assert found.key == MINE and found.write_cookie


def test_a_malformed_cookie_starts_a_new_learner_with_a_note() -> None:
    found = resolve({}, "garbage;", None, known)
    assert is_browser_id(found.key) and found.write_cookie
    assert found.notes == (Note("bad_cookie", "garbage;"),)


def test_the_router_asks_for_the_cookie_and_the_page_notes_a_bad_one_once() -> None:
    state: dict[str, Any] = {}
    due = cookie_due(state, "garbage")  # the router, before the page
    assert is_browser_id(due) and state[BROWSER] == due
    found = resolve(state, "garbage", None, known)  # the page
    assert found.key == due and found.notes == (Note("bad_cookie", "garbage"),)
    assert resolve(state, "garbage", None, known).notes == ()
    assert cookie_due({BROWSER: THEIRS}, MINE) == THEIRS


def test_a_matching_cookie_is_written_again_once_per_tab_to_keep_it_alive() -> None:
    state: dict[str, Any] = {}
    assert cookie_due(state, MINE) == MINE  # renewed: its 400 days start again
    assert cookie_due(state, MINE) is None and cookie_due(state, MINE) is None
    new = start_new(state)
    assert cookie_due(state, MINE) == new and cookie_due(state, MINE) == new  # until reloaded


def test_a_link_to_an_old_name_opens_its_answers_in_this_tab() -> None:
    state: dict[str, Any] = {}
    found = resolve(state, MINE, "ann", known)
    assert (found.key, found.source, found.browser_id) == ("ann", "link", MINE)
    assert state[LINKED] == "ann" and not found.notes
    # A page switch drops the address; the tab keeps the link's learner.
    assert resolve(state, MINE, None, known).key == "ann"


def test_a_name_with_no_saved_answers_opens_nothing() -> None:
    found = resolve({}, MINE, "bob", known)
    assert (found.key, found.source) == (MINE, "browser")
    assert found.notes == (Note("unknown_link", "bob"),)


def test_another_browsers_id_in_a_link_opens_nothing() -> None:
    found = resolve({}, MINE, THEIRS, lambda key: True)
    assert (found.key, found.source) == (MINE, "browser")
    assert found.notes == (Note("other_browser"),)
    assert THEIRS not in str(found.notes)


def test_this_browsers_own_id_in_a_link_is_just_this_learner() -> None:
    state: dict[str, Any] = {BROWSER: MINE, LINKED: "ann"}
    found = resolve(state, MINE, MINE, known)
    assert (found.key, found.source, found.notes) == (MINE, "browser", ())
    assert LINKED not in state


@pytest.mark.parametrize("link", ["<b>x</b>", "x" * 41, "-ann", "[a](javascript:x)"])
def test_a_malformed_link_is_ignored_with_a_note(link: str) -> None:
    found = resolve({}, MINE, link, lambda key: True)
    assert found.key == MINE and found.notes[0].kind == "bad_link"


def test_an_empty_link_says_nothing() -> None:
    assert resolve({}, MINE, "  ", known).notes == ()


def test_a_room_assigned_learner_comes_first() -> None:
    state: dict[str, Any] = {LINKED: "ann"}
    found = resolve(state, MINE, None, known, assigned="room-7-ann")
    assert (found.key, found.source, found.browser_id) == ("room-7-ann", "room", MINE)


def test_not_you_starts_a_new_learner_and_lets_a_link_go() -> None:
    state: dict[str, Any] = {BROWSER: MINE, LINKED: "ann"}
    new = start_new(state)
    assert is_browser_id(new) and new != MINE and LINKED not in state
    found = resolve(state, MINE, None, known)
    assert found.key == new and found.write_cookie  # the cookie must follow


def test_back_to_own_leaves_the_links_learner() -> None:
    state: dict[str, Any] = {BROWSER: MINE, LINKED: "ann"}
    back_to_own(state)
    assert resolve(state, MINE, None, known).key == MINE


# ------------------------------------------------------------------------------ names
def test_names_are_checked_and_trimmed() -> None:
    assert check_name("  Ann B ") == "Ann B"
    for bad in ("", "x" * 41, "<script>", "-ann", "a\nb"):
        with pytest.raises(ValueError, match=re.escape(EXPECTED)):
            check_name(bad)


def test_a_guest_name_is_stable_and_gives_nothing_of_the_id_away() -> None:
    name = default_name(MINE)
    assert re.fullmatch(r"Guest [0-9A-F]{4}", name) and name == default_name(MINE)
    assert name[6:].lower() not in MINE
    assert default_name(MINE) != default_name(THEIRS)


def test_old_keys_have_the_form_of_a_name() -> None:
    assert is_old_key("ann") and is_old_key("guest-b38f30") and not is_old_key("<x>")


# ------------------------------------------------------------------------------ words
def test_what_the_browser_sent_is_never_read_as_markdown() -> None:
    said = learner_text.note_text(Note("bad_link", "[click](http://x) `y` **z**"))
    assert "`[click](http://x) 'y' **z**`" in said


@pytest.mark.parametrize("kind", ["bad_cookie", "bad_link", "other_browser", "unknown_link"])
def test_every_note_has_words(kind: Any) -> None:
    assert len(learner_text.note_text(Note(kind, "bob"))) > 40


def test_the_page_says_how_answers_are_kept() -> None:
    assert "Your answers are kept in this browser." in learner_text.answering_as(
        "Ann", "browser")
    assert "anyone with this link" in learner_text.answering_as("ann", "link")


def test_the_cookie_script_keeps_the_id_long_same_site_and_site_wide() -> None:
    script = learner_text.cookie_script(MINE)
    assert f"coup_trainer_learner={MINE}; Max-Age=34560000; Path=/; SameSite=Lax" in script
    assert "Secure" in script  # added on https


@pytest.mark.parametrize("bad", ['b-"; alert(1); "', "ann", ""])
def test_the_cookie_script_takes_only_an_id(bad: str) -> None:
    with pytest.raises(ValueError):
        learner_text.cookie_script(bad)


def test_an_export_leaves_the_browser_id_out() -> None:
    from tests.helpers import sample_answers

    mine = [a.model_copy(update={"answer_id": f"answer-{i:04d}"})
            for i, a in enumerate(sample_answers(MINE, 2))]
    rows = export_csv(mine).splitlines()
    assert MINE not in "\n".join(rows) and rows[1].startswith("answer-0000,,")
    old = export_csv(sample_answers("ann", 1)).splitlines()
    assert ",ann," in old[1]


# ------------------------------------------------------------------------------ large type
@pytest.mark.parametrize("value, wanted", [
    ("1", True), ("true", True), ("TRUE", True), (" on ", True), ("yes", True),
    ("0", False), ("false", False), ("off", False),
    ("", None), ("2", None), ("maybe", None), (None, None), (["1"], None)])
def test_the_address_asks_for_large_type(value: Any, wanted: bool | None) -> None:
    assert chrome.large_from_address(value) is wanted


def test_large_type_scales_the_root_and_comes_after_the_chrome() -> None:
    css = chrome.stylesheet(True)
    assert "font-size: 21px" in css and css.index(".st-key-ct_menu") < css.index("21px")
    assert "21px" not in chrome.stylesheet(False)
