"""Rooms, game tables and the kiosk in the visitor's language: every word of their pages
through the catalogue (the pseudo-language shows any that is not), nothing of theirs left
untranslated in Filipino, and one room read in two languages at once.

One screen of each kind: a room's form, remote, presenter screen, a phone joining, answering
and reading its results, the printable report; a table's form, host page, screen before and
during a game, a phone's decision and its wait, the end of a game; the kiosk's loop, a
decision's answer and the station.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from streamlit.testing.v1 import AppTest

import trainer.ui.kiosk as ui_kiosk
from tests.helpers import shipped_bank, shipped_library
from tests.i18n_sweep import own_messages, page_strings, unmarked
from trainer.i18n import LANGUAGES, use_language
from trainer.i18n.catalogue import catalogue
from trainer.learners.storage import Store
from trainer.quiz.bank import NAMES
from trainer.rooms import check
from trainer.rooms import kiosk as rk
from trainer.rooms.codes import screen_token
from trainer.rooms.nicknames import ADJECTIVES, FIGURES
from trainer.rooms.questions import choose
from trainer.rooms.settings import RoomSettings, Source
from trainer.rooms.store import RoomStore
from trainer.tables.model import TableSettings
from trainer.tables.store import TableStore

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "streamlit_app.py")

# Data, not words: players' names (a question's seats, a table's people), the generated
# nicknames, what every page's header shows (the language switch's pseudo-language), a
# button's key shortcut, and CSV, the files' kind.
ALLOWED = ({n.lower() for n in NAMES} | {w.lower() for w in ADJECTIVES + FIGURES}
           | {"ann", "ben", "zoe", "pseudo", "lang", "qps", "csv", "bot"})
# Drawn by other parts of the trainer and swept by their own tests: the table, the game's
# history, the Quiz's verdict and the Play page's review (this area's words around them are
# checked here).
OTHERS = ('class="ct-table', "ct-history", 'class="ct-overview')

OWN_FILES = (
    "pages/room.py", "pages/kiosk.py", "trainer/ui/rooms.py", "trainer/ui/room_host.py",
    "trainer/ui/room_phone.py", "trainer/ui/room_screen.py", "trainer/ui/tables.py",
    "trainer/ui/table_host.py", "trainer/ui/table_page.py", "trainer/ui/table_phone.py",
    "trainer/ui/table_review.py", "trainer/ui/table_screen.py", "trainer/ui/kiosk.py",
    "trainer/views/room_text.py", "trainer/views/room_charts.py", "trainer/views/room_check.py",
    "trainer/views/room_remote.py", "trainer/views/room_report.py",
    "trainer/views/kiosk_text.py", "trainer/views/table_text.py",
    *(f"trainer/rooms/{p.name}" for p in (ROOT / "trainer" / "rooms").glob("*.py")),
    *(f"trainer/tables/{p.name}" for p in (ROOT / "trainer" / "tables").glob("*.py")),
)


@pytest.fixture(autouse=True)
def _root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COUP_TRAINER_DB_URL", db_url(tmp_path))


def db_url(tmp_path: Path | None = None) -> str:
    """The test's own answers database (the app reads it from the environment)."""
    import os

    if tmp_path is not None:
        return f"sqlite:///{tmp_path / 'answers.db'}"
    return os.environ["COUP_TRAINER_DB_URL"]


def opened(lang: str, page: str = "pages/room.py", **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def run(at: AppTest) -> AppTest:
    """The page's next run. In the page's language on this side too: AppTest words a
    widget's value with the page's own `format_func` here, outside the page's session."""
    lang = at.query_params.get("lang") or "en"
    with use_language(lang if isinstance(lang, str) else lang[0]):
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    return run(at)


def submit(at: AppTest, form: str) -> AppTest:
    """A form's submit button, whose key carries its label (in the page's language)."""
    next(b for b in at.button if getattr(b, "form_id", "") == form).click()
    return run(at)


def polled(at: AppTest) -> AppTest:
    """The page's next poll after the host moved the room or the table on."""
    from trainer.ui.rooms import pulse
    from trainer.ui.tables import pulse as table_pulse

    pulse.clear()
    table_pulse.clear()
    return run(at)


KIOSK_TABLE = re.compile(r'<div class="kk-table">.*?(?=<div class="kk-side">)', re.DOTALL)
# A page link's query string ("code=…&host=…&report=1") is an address, not words.
QUERY = re.compile(r"^[\w-]+=[^\s&]*(&[\w-]+=[^\s&]*)*$")


def leaks(at: AppTest, allowed: set[str]) -> list[str]:
    """The strings of the page with a word outside the pseudo-language's marks."""
    fine = ALLOWED | allowed | {language.name.lower() for language in LANGUAGES}
    found = []
    for text in page_strings(at):
        text = KIOSK_TABLE.sub("", text)  # a kiosk slide: its words, not its table
        if any(mark in text for mark in OTHERS) or QUERY.match(text):
            continue
        words = [w for w in unmarked(text) if w.lower() not in fine]
        if words:
            found.append(f"{' '.join(words)}  <-  {text[:160]!r}")
    return sorted(set(found))


def code_words(code: str) -> set[str]:
    """A room's or table's code as the sweep reads it: its runs of letters ("HAK7ZS")."""
    return {w.lower() for w in re.findall(r"[A-Za-z]{2,}", code)}


# ------------------------------------------------------------------------------ the walks
def _room(rooms: RoomStore) -> tuple[str, str]:
    bank = shipped_bank()
    source = Source(count=3, seed=7)
    items = [i for i in choose(bank, source) if i.has_claim][:1]
    room, host = rooms.create(source, RoomSettings(live="live", leaderboard="each"),
                              [i.id for i in items], bank.version)
    return room.code, host


def room_walk(lang: str) -> Iterator[tuple[str, AppTest, set[str]]]:
    """The Room page's screens, each with its name and the data it may show."""
    yield "the room form", opened(lang, host=""), set()
    rooms = RoomStore(Store(db_url()).engine)
    code, host = _room(rooms)
    data = code_words(code)
    remote = opened(lang, code=code, host=host)
    yield "the remote in the lobby", remote, data
    screen = opened(lang, code=code, screen=rooms.screen_token(code, host))
    phone = opened(lang, code=code)
    yield "a phone joining", phone, data
    submit(phone, "room_join_form")
    nickname = rooms.seats(code, host)[0].nickname
    data = data | {w.lower() for w in nickname.split()}
    yield "a phone in the lobby", phone, data
    yield "the screen's lobby", polled(screen), data
    click(remote, "room_start")
    yield "a phone's question", polled(phone), data
    click(phone, "room_option_0_0")
    yield "a phone's answer in", phone, data
    yield "the screen's question, live", polled(screen), data
    click(remote, "room_reveal")
    yield "the remote after the reveal", remote, data
    yield "the screen's reveal", polled(screen), data
    yield "a phone's feedback", polled(phone), data
    click(remote, "room_next")
    yield "the remote at the end", remote, data
    yield "the screen's end", polled(screen), data
    yield "a phone's results", polled(phone), data
    # The report's date is Babel's, in the page's language (English months under qps).
    months = {date(2000, m, 1).strftime("%B").lower() for m in range(1, 13)}
    yield "the class report", opened(lang, code=code, host=host, report="1"), data | months


def check_walk(lang: str) -> Iterator[tuple[str, AppTest, set[str]]]:
    """A "Check yourself" room (the lesson file's rules questions) and the other kinds of the
    room form."""
    form = opened(lang, host="")
    for kind in ("puzzles", "lesson", "check"):
        form.segmented_control(key="room_new_kind").set_value(kind)
        yield f"the room form, {kind}", run(form), set()
    library = shipped_library()
    ids = check.question_ids(library)[:2]
    rooms = RoomStore(Store(db_url()).engine)
    room, host = rooms.create(Source(kind="check", lesson=check.DEFAULT_LESSON, count=2),
                              RoomSettings(leaderboard="each", live="live"), ids,
                              check.version(library))
    code = room.code
    phone = submit(opened(lang, code=code), "room_join_form")
    data = code_words(code) | {w.lower() for w in rooms.seats(code, host)[0].nickname.split()}
    remote = opened(lang, code=code, host=host)
    screen = opened(lang, code=code, screen=rooms.screen_token(code, host))
    click(remote, "room_start")
    yield "a rules question on a phone", polled(phone), data
    yield "a rules answer in", click(phone, "room_option_0_0"), data
    yield "a rules question on the screen, live", polled(screen), data
    click(remote, "room_reveal")
    yield "a rules question revealed on the screen", polled(screen), data
    yield "a rules question's verdict on a phone", polled(phone), data
    click(remote, "room_finish")
    yield "a rules room's end on the screen", polled(screen), data
    yield "a rules room's end on a phone", polled(phone), data
    yield "a rules room's end on the remote", remote, data


def table_walk(lang: str) -> Iterator[tuple[str, AppTest, set[str]]]:
    yield "the table form", opened(lang, table="", host=""), set()
    store = TableStore(create_engine(db_url()))
    t, host = store.create(TableSettings(seats=2, bot_pace=0.0, turn_seconds=60))
    data = code_words(t.code)
    yield "the host's page, a table empty", opened(lang, table=t.code, host=host), data
    screen = opened(lang, table=t.code, screen=screen_token(store.table(t.code).join_secret))
    yield "the screen's lobby", screen, data
    yield "a phone joining", opened(lang, table=t.code), data
    tokens = [store.join(t.code, name)[1] for name in ("Ann", "Ben")]
    store.deal(t.code, host, seed=3)
    yield "the host's page during a game", opened(lang, table=t.code, host=host), data
    yield "the screen during a game", polled(screen), data
    yield "a phone's decision", opened(lang, table=t.code, seat=tokens[0]), data
    yield "a phone waiting", opened(lang, table=t.code, seat=tokens[1]), data
    store.end_game(t.code, host)
    yield "a phone after the game", opened(lang, table=t.code, seat=tokens[0]), data


def kiosk_walk(lang: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, AppTest,
                                                                             set[str]]]:
    from tests.test_kiosk import BANK, PLAYLIST, FakeClock

    clock = FakeClock()
    monkeypatch.setattr(ui_kiosk, "clock", clock)
    loop = opened(lang, "pages/kiosk.py")
    yield "the kiosk's first slide", loop, set()
    index = next(k for k, s in enumerate(PLAYLIST) if isinstance(s, rk.DecisionSlide))
    loop.session_state["kiosk_cursor"] = rk.Cursor(index, clock.now)
    clock.now += rk.ask_seconds(PLAYLIST[index])
    yield "a decision's answer on the loop", run(loop), set()
    claim = next(i for i in rk.station_pool(BANK) if i.has_claim)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    for key, value in {"kiosk_mode": "station", "kiosk_item": claim.id, "kiosk_p": 50,
                       "kiosk_touched": clock.now}.items():
        at.session_state[key] = value
    at.switch_page("pages/kiosk.py").run()
    yield "the station", at, set()
    option = next(b for b in at.button if (b.key or "").startswith("kiosk_option_"))
    option.click()
    yield "the station's grade", run(at), set()


# ------------------------------------------------------------------------------ the tests
def test_every_word_of_the_room_pages_comes_through_the_catalogue() -> None:
    found = {name: leaks(at, data) for name, at, data in room_walk("qps")}
    assert {name: words for name, words in found.items() if words} == {}


def test_every_word_of_a_rules_room_comes_through_the_catalogue() -> None:
    found = {name: leaks(at, data) for name, at, data in check_walk("qps")}
    assert {name: words for name, words in found.items() if words} == {}


def test_every_word_of_the_table_pages_comes_through_the_catalogue() -> None:
    found = {name: leaks(at, data) for name, at, data in table_walk("qps")}
    assert {name: words for name, words in found.items() if words} == {}


def test_every_word_of_the_kiosk_comes_through_the_catalogue(
        monkeypatch: pytest.MonkeyPatch) -> None:
    found = {name: leaks(at, data) for name, at, data in kiosk_walk("qps", monkeypatch)}
    assert {name: words for name, words in found.items() if words} == {}


def test_in_filipino_nothing_of_rooms_tables_or_the_kiosk_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fil = catalogue("fil")
    fil.missing.clear()
    seen = []
    for walk in (room_walk("fil"), check_walk("fil"), table_walk("fil"),
                 kiosk_walk("fil", monkeypatch)):
        for _name, at, _data in walk:
            seen.append("\n".join(page_strings(at)))
    missing = fil.missing & own_messages(ROOT, OWN_FILES)
    assert not missing, sorted(m for _c, m in missing)[:20]
    page = "\n".join(seen)
    for word in ("silid", "mesa", "Sumali"):
        assert word in page, word


def test_a_host_in_filipino_and_a_phone_in_english_each_read_their_own() -> None:
    """One room, two languages: the remote and the screen in Filipino, one phone in English
    and one in Filipino, each drawing the same question (whose words are cached per process
    and language, never handed from one visitor to another)."""
    rooms = RoomStore(Store(db_url()).engine)
    code, host = _room(rooms)
    remote = opened("fil", code=code, host=host)
    english, filipino = opened("en", code=code), opened("fil", code=code)
    submit(english, "room_join_form")
    submit(filipino, "room_join_form")
    click(remote, "room_start")
    polled(english)
    polled(filipino)
    screen = opened("fil", code=code, screen=rooms.screen_token(code, host))
    remote_words = "\n".join(page_strings(run(remote)))
    english_words = "\n".join(page_strings(english))
    filipino_words = "\n".join(page_strings(filipino))
    assert "silid" in remote_words and "Your remote for room" not in remote_words
    assert "Question 1 of 1" in english_words and "Chance it is a bluff" in english_words
    assert "silid" not in english_words and "Tanong" not in english_words
    assert "Tanong 1 sa 1" in filipino_words and "Tsansa na bluff ito" in filipino_words
    assert "Tanong 1 sa 1" in "\n".join(page_strings(screen))
    # The same question's situation, worded for each phone.
    situation = [m.value for m in english.markdown if m.value.startswith("**")][-1]
    assert situation not in filipino_words
