"""The catalogue's machinery: lookups, plural rules, the pseudo-language, choosing a visitor's
language, and the checks that keep the catalogues whole."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from trainer.i18n import N_, current_language, tr, tr_n, trc, use_language
from trainer.i18n import check as checks
from trainer.i18n.catalogue import CLOSE, OPEN, catalogue, pseudo, read
from trainer.i18n.formats import date, number, percent
from trainer.i18n.negotiate import choose, from_accept_language, language_from_tag

PO_HEADER = '''msgid ""
msgstr ""
"Language: fil\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=n != 1 && n != 2 && n != 3 && "
"(n % 10 == 4 || n % 10 == 6 || n % 10 == 9);\\n"

'''


def write_po(path: Path, body: str) -> Path:
    path.write_text(PO_HEADER + body, encoding="utf-8")
    return path


def test_english_is_the_key_and_comes_back_unchanged() -> None:
    with use_language("en"):
        assert tr("Join the game") == "Join the game"
        assert tr("{name} wins.", name="Ana") == "Ana wins."
        assert tr_n("{n} coin", "{n} coins", 1) == "1 coin"
        assert tr_n("{n} coin", "{n} coins", 0) == "0 coins"


def test_a_marked_constant_is_unchanged_until_shown() -> None:
    assert N_("Menu") == "Menu"


def test_filipino_catalogue_translates_the_navigation() -> None:
    with use_language("fil"):
        assert tr("Learn") == "Matuto"
        assert tr("Rules") == "Mga patakaran"


def test_a_message_without_translation_shows_english_and_is_remembered(tmp_path: Path) -> None:
    po = read("fil", write_po(tmp_path / "fil.po", ""))
    assert po.text(None, "Nowhere in the catalogue") == "Nowhere in the catalogue"
    assert (None, "Nowhere in the catalogue") in po.missing


def test_filipino_plural_rule_is_not_english(tmp_path: Path) -> None:
    """CLDR's Filipino: "one" for 1, 2, 3 and any number not ending in 4, 6 or 9."""
    po = read("fil", write_po(tmp_path / "fil.po", '''msgid "{n} coin"
msgid_plural "{n} coins"
msgstr[0] "{n} ginto (one)"
msgstr[1] "{n} ginto (other)"
'''))
    forms = {n: po.plural("{n} coin", "{n} coins", n) for n in (1, 2, 3, 4, 5, 6, 9, 10, 14, 21)}
    assert {n for n, text in forms.items() if text.endswith("(other)")} == {4, 6, 9, 14}


def test_fields_may_move_in_a_translation(tmp_path: Path) -> None:
    po = read("fil", write_po(tmp_path / "fil.po", '''msgid "{name} claims the {card}."
msgstr "Naghahayag si {name} ng {card}."
'''))
    assert po.text(None, "{name} claims the {card}.").format(name="Ana", card="Duke") == \
        "Naghahayag si Ana ng Duke."


def test_a_fuzzy_translation_is_not_used(tmp_path: Path) -> None:
    po = read("fil", write_po(tmp_path / "fil.po", '''#, fuzzy
msgid "Deal"
msgstr "Mamigay"
'''))
    assert po.text(None, "Deal") == "Deal"


def test_context_separates_two_uses_of_one_word(tmp_path: Path) -> None:
    po = read("fil", write_po(tmp_path / "fil.po", '''msgctxt "button"
msgid "Pass"
msgstr "Pass"

msgid "Pass"
msgstr "Palampasin"
'''))
    assert po.text("button", "Pass") == "Pass"
    assert po.text(None, "Pass") == "Palampasin"
    with use_language("en"):
        assert trc("button", "Pass") == "Pass"


def test_pseudo_marks_every_line_and_keeps_fields_and_markup() -> None:
    text = pseudo("## Your hand\n\n- {name} has **{n}** coins <b>now</b> :material/menu:")
    assert text.startswith("## " + OPEN)
    assert "- " + OPEN in text
    for kept in ("{name}", "{n}", "<b>", "</b>", ":material/menu:", "**"):
        assert kept in text
    assert "hand" not in text and "coins" not in text
    assert text.count(OPEN) == text.count(CLOSE) == 2
    with use_language("qps"):
        assert tr("Menu").startswith(OPEN)
        assert tr("{name} wins.", name="Ana").startswith(OPEN)
        assert "Ana" in tr("{name} wins.", name="Ana")


@pytest.mark.parametrize(("tag", "code"), [
    ("fil", "fil"), ("fil-PH", "fil"), ("tl", "fil"), ("tl_PH", "fil"), ("FIL", "fil"),
    ("en-US", "en"), ("en", "en"), ("qps", "qps"), ("de", None), ("", None), (None, None),
    (["fil"], None),
])
def test_language_tags_of_browsers_and_links(tag: object, code: str | None) -> None:
    assert language_from_tag(tag) == code


def test_the_link_wins_then_the_cookie_then_the_browser() -> None:
    assert choose("fil", "en", "en-US") == "fil"
    assert choose(None, "fil", "en-US") == "fil"
    assert choose(None, None, "fil-PH") == "fil"
    assert choose("xx", "yy", "de-DE") == "en"  # nothing we speak: English, never a guess
    assert choose(None, None, "de-DE", "de-DE,tl;q=0.8,en;q=0.5") == "fil"
    assert choose(None, None, "qps") == "en"  # the pseudo-language only by link or choice


def test_accept_language_weights() -> None:
    assert from_accept_language("en;q=0.4, fil;q=0.9") == "fil"
    assert from_accept_language("fil;q=0, en") == "en"
    assert from_accept_language("xx, yy;q=bad") is None


def test_each_thread_speaks_its_own_language() -> None:
    """Streamlit runs each visitor's script on its own thread: no language is global."""
    seen: dict[str, list[str]] = {"en": [], "fil": []}
    barrier = threading.Barrier(2)

    def visit(code: str) -> None:
        with use_language(code):
            barrier.wait()
            for _ in range(200):
                seen[code].append(tr("Learn"))

    threads = [threading.Thread(target=visit, args=(c,)) for c in seen]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(seen["en"]) == {"Learn"}
    assert set(seen["fil"]) == {"Matuto"}
    assert current_language() == "en"


def test_numbers_and_dates_follow_the_language() -> None:
    import datetime

    with use_language("fil"):
        assert date(datetime.date(2026, 11, 27)) == "Nobyembre 27, 2026"
        assert percent(0.375) == "38%"
        assert number(1234.5, 1) == "1,234.5"
    with use_language("en"):
        assert date(datetime.date(2026, 11, 27)) == "November 27, 2026"


def test_an_unknown_language_reads_as_english() -> None:
    assert catalogue("xx").text(None, "Menu") == "Menu"


# The checks -------------------------------------------------------------------------------

def sources(*messages: str, plural: dict[str, str] | None = None) -> dict:
    found = {}
    for message in messages:
        found[(None, message)] = checks.Source((None, message), (plural or {}).get(message),
                                               ["trainer/views/x.py"])
    return found


def kinds(problems: list[checks.Problem]) -> dict[str, str]:
    return {p.message: p.kind for p in problems}


def test_check_finds_a_missing_a_dropped_field_a_changed_tag_and_an_old_message(
        tmp_path: Path) -> None:
    path = write_po(tmp_path / "fil.po", '''msgid "{name} wins."
msgstr "Panalo!"

msgid "<b>Your</b> hand"
msgstr "Iyong kamay"

msgid "Gone from the code"
msgstr "Wala na"

msgid "Fine"
msgstr "Ayos"
''')
    found = kinds(checks.problems("fil", sources("{name} wins.", "<b>Your</b> hand", "Fine",
                                                 "New message"), path))
    assert found == {"{name} wins.": "fields", "<b>Your</b> hand": "tags",
                     "Gone from the code": "obsolete", "New message": "missing"}


def test_check_holds_translations_to_the_glossary(tmp_path: Path) -> None:
    path = write_po(tmp_path / "fil.po", '''msgid "Take 2 coins."
msgstr "Kumuha ng 2 barya."

msgid "Block the steal."
msgstr "Hadlangan ang pagnanakaw."
''')
    found = kinds(checks.problems("fil", sources("Take 2 coins.", "Block the steal."), path))
    assert found == {"Take 2 coins.": "glossary"}


def test_update_adds_new_messages_and_keeps_an_unused_translation_as_obsolete(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "catalogue_path", lambda code: tmp_path / f"{code}.po")
    write_po(tmp_path / "fil.po", '''msgid "Old"
msgstr "Luma"

msgid "Kept"
msgstr "Nanatili"
''')
    added, unused = checks.update("fil", sources("Kept", "New", "{n} coin",
                                                 plural={"{n} coin": "{n} coins"}))
    assert (added, unused) == (2, 1)
    po = checks.read_catalogue("fil", tmp_path / "fil.po")
    assert po.get("Kept").string == "Nanatili"
    assert po.get("New").string == ""
    assert po.get(("{n} coin", "{n} coins")).string == ("", "")
    assert "Old" in po.obsolete
    # The message comes back (a file was read half-written): its translation comes back too.
    checks.update("fil", sources("Kept", "Old"))
    assert checks.read_catalogue("fil", tmp_path / "fil.po").get("Old").string == "Luma"
    checks.update("fil", sources("Kept"), drop_obsolete=True)
    assert not checks.read_catalogue("fil", tmp_path / "fil.po").obsolete


def test_merge_takes_a_translators_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "catalogue_path", lambda code: tmp_path / f"{code}.po")
    write_po(tmp_path / "fil.po", '''msgid "Deal"
msgstr ""
''')
    part = write_po(tmp_path / "part.po", '''msgid "Deal"
msgstr "Mamigay"

msgid "Not in the catalogue"
msgstr "Wala"
''')
    assert checks.merge("fil", [part]) == 1
    assert checks.read_catalogue("fil", tmp_path / "fil.po").get("Deal").string == "Mamigay"


def test_fields_of_a_message() -> None:
    assert checks.fields("{name} has {n} coins, {p:.0%}") == {"name", "n", "p"}
    assert checks.fields("no fields {{literal}}") == set()


def test_a_message_inside_an_f_strings_braces_is_found(tmp_path: Path) -> None:
    source = tmp_path / "page.py"
    source.write_text('from trainer.i18n import N_, tr, tr_n, trc\n'
                      'TITLE = N_("A title")\n'
                      'html = f"<div>{tr(\'<b>{n}</b> in the Treasury\', n=3)}</div>"\n'
                      'label = trc("button", "Pass")\n'
                      'count = tr_n("{n} coin", "{n} coins", 2)\n'
                      'shown = tr(TITLE)\n', encoding="utf-8")
    assert sorted(checks.python_messages(source), key=str) == sorted([
        (None, "A title", None), (None, "<b>{n}</b> in the Treasury", None),
        ("button", "Pass", None), (None, "{n} coin", "{n} coins")], key=str)


def test_a_date_axis_names_its_months_in_the_readers_language() -> None:
    """Vega writes month names in English: the axis takes them from Babel instead."""
    import pandas as pd

    from trainer.i18n.formats import months
    from trainer.views.practice_view import accuracy_chart

    frame = pd.DataFrame({"day": pd.to_datetime(["2026-11-26", "2026-11-27"]),
                          "decisions": [3, 4], "accuracy": [0.5, 0.75], "lost": [2.0, 1.0]})
    with use_language("fil"):
        assert months()[10] == "Nob"
        spec = accuracy_chart(frame).to_json()
    assert '\\"Nob\\"' in spec  # the axis's labels, and
    assert "Nob 27, 2026" in spec  # the tooltip's day, written by Babel
    with use_language("en"):
        assert '\\"Nov\\"' in accuracy_chart(frame).to_json()
