"""The Quiz and Calibration pages and the verdict words in the visitor's language.

Under `?lang=qps` (the pseudo-language: every catalogued string marked ⟦so⟧) no word of the
pages may be left outside the marks, before an answer and after it (the truth, the bot's
estimate, the grade). Under `?lang=fil` nothing of this area is looked up without a
translation and the Filipino words show. The grade words and verdict headlines every page
shares have their Filipino, and a counted message takes Filipino's plural forms.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import sample_answers
from tests.i18n_sweep import leaks, page_strings
from tests.test_calibration_text import TWENTY_ONE
from trainer.i18n import tr, tr_n, use_language
from trainer.i18n.catalogue import catalogue
from trainer.learners.identity import BROWSER
from trainer.learners.storage import Store
from trainer.verdicts import GRADES, Doubt, OptionValue, Source, Valuation, judge, words
from trainer.verdicts.valuation import Horizons

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
ANN = "b-" + "a0" * 16
# Data, not words: the shipped bank's name, the language switch (the chrome's, not this
# area's), and the hidden Next buttons' keyboard shortcuts ("right", "space": the proto's
# `shortcut`, which the sweep reads as text). The seats' names are added per item (`seats`).
DATA = ["default", "Pseudo", "lang", "qps", "right", "space"]
# Where this area's messages are found (the places `i18n check` records for a message).
AREA = ("pages/quiz.py", "pages/calibration.py", "trainer/ui/quiz_parts.py",
        "trainer/ui/learner.py", "trainer/ui/store.py", "trainer/ui/resources.py",
        "trainer/views/quiz_text.py", "trainer/views/calibration_text.py",
        "trainer/views/calibration_charts.py", "trainer/views/estimate_text.py",
        "trainer/views/history_text.py", "trainer/views/learner_text.py", "trainer/verdicts/",
        "trainer/quiz/", "trainer/learners/", "trainer/estimates/")


@pytest.fixture
def db_url(tmp_path, monkeypatch) -> str:
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    return url


@pytest.fixture(scope="module")
def area_messages() -> set[tuple[str | None, str]]:
    from trainer.i18n.check import extract

    return {key for key, source in extract().items()
            if any(place.startswith(AREA) for place in source.places)}


def page(name: str, lang: str, **state: object) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.session_state[BROWSER] = ANN
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(name).run()
    assert not at.exception, at.exception
    return at


def answer(at: AppTest, lang: str) -> AppTest:
    """Judge the claim at 80% and take the first option. AppTest words a select box's value
    with its format function in the test's own thread: in the page's language here too."""
    with use_language(lang):
        at.slider(key="quiz_p").set_value(80).run()
        at.button(key="quiz_option_0").click().run()
    assert not at.exception, at.exception
    return at


def seats(at: AppTest) -> list[str]:
    """The names at the shown item's table: data, allowed in a sweep."""
    from tests.helpers import shipped_bank

    item = shipped_bank().get(at.session_state["quiz_current"]["item"])
    return [*DATA, *item.game().names]


def boxes(at: AppTest) -> list[str]:
    """The texts of the page's coloured boxes (the verdict's among them)."""
    return [b.value for b in (*at.success, *at.info, *at.warning, *at.error)]


def swept(at: AppTest, allowed: list[str]) -> list[str]:
    """`leaks`, less the strings that are a widget's random id (32 hex digits), not words."""
    return [x for x in leaks(at, allowed)
            if not re.fullmatch(r".*<-  '[0-9a-f]{32}'", x)]


def text_of(at: AppTest) -> str:
    return "\n".join(page_strings(at))


def missing_of_area(area: set[tuple[str | None, str]]) -> set[tuple[str | None, str]]:
    return catalogue("fil").missing & area


# --------------------------------------------------------------------------- the Quiz


def test_the_quiz_in_the_pseudo_language_leaves_no_word_outside_the_catalogue(db_url):
    at = page("pages/quiz.py", "qps", quiz_mode="theme", quiz_theme="Duke claims")
    assert swept(at, seats(at)) == []
    answer(at, "qps")
    assert any("⟦" in b for b in boxes(at)), "the verdict's box"
    said = text_of(at)
    assert "⟦" in said and "%" in said
    assert swept(at, seats(at)) == []


def test_a_range_verdict_in_the_pseudo_language_is_catalogued(db_url):
    # An item whose grade is a range (the claimant's doubt): find one in the shipped bank.
    from tests.helpers import shipped_bank
    from trainer.quiz.feedback import item_valuation

    bank = shipped_bank()
    item = next((i for i in bank.items if i.has_claim and i.kind == "challenge"
                 and item_valuation(i, None, "x").doubt is not None
                 and judge(item_valuation(i, None, "x"), "Challenge").is_range), None)
    if item is None:
        pytest.skip("no range verdict in the shipped bank")
    at = page("pages/quiz.py", "qps", quiz_mode="mixed",
              quiz_current={"item": item.id, "bank": bank.version, "answer_id": "r" * 32,
                            "shown": 0.0, "why": "new"})
    assert at.session_state["quiz_current"]["item"] == item.id
    index = [o.label for o in item.options].index("Challenge")
    with use_language("qps"):
        at.slider(key="quiz_p").set_value(60).run()
        at.button(key=f"quiz_option_{index}").click().run()
    assert not at.exception, at.exception
    with use_language("qps"):  # the range's headline: what it depends on, or too close
        ranges = (tr("Depends on {who}", who=""), tr("Sound however often {who} bluffs",
                                                     who="")[:8], tr(words.CLOSE_CALL))
    assert any(r[:8] in b for b in boxes(at) for r in ranges), boxes(at)
    assert swept(at, seats(at)) == []


def test_the_quiz_in_filipino_has_every_message_of_its_area(db_url, area_messages):
    catalogue("fil").missing.clear()
    at = page("pages/quiz.py", "fil", quiz_mode="theme", quiz_theme="Duke claims")
    answer(at, "fil")
    said = text_of(at)
    assert missing_of_area(area_messages) == set()
    assert "Pagsusulit" in said and "Susunod na tanong" in said
    assert "Tsansa na bluff ito" in said  # the slider, and the belief after the answer
    assert any(word in said for word in ("Pinakamahusay", "Mahusay", "Hindi tumpak",
                                         "Pagkakamali", "Malaking pagkakamali",
                                         "Masyadong dikit", "Depende", "Tama"))


# --------------------------------------------------------------------------- Calibration


def test_calibration_in_the_pseudo_language_leaves_no_word_outside_the_catalogue(db_url):
    Store(db_url).save_many([a.model_copy(update={"learner": ANN})
                             for a in TWENTY_ONE + sample_answers(ANN, 12)])
    at = page("pages/calibration.py", "qps")
    assert swept(at, DATA) == []
    assert at.get("vega_lite_chart")


def test_calibration_in_filipino_has_every_message_of_its_area(db_url, area_messages):
    Store(db_url).save_many([a.model_copy(update={"learner": ANN})
                             for a in TWENTY_ONE + sample_answers(ANN, 12)])
    catalogue("fil").missing.clear()
    at = page("pages/calibration.py", "fil")
    said = text_of(at)
    assert missing_of_area(area_messages) == set()
    assert "Kalibrasyon" in said and "Humusga ka ng" in said
    assert "tsansa na bluff" in said.lower()


# --------------------------------------------------------------------------- the words


def doubt_verdict():
    values = Valuation((OptionValue("Challenge", 0.5, 0.01, 0.005),
                        OptionValue("Pass", 0.55, 0.01, 0.0)), Source("playouts", 1000),
                       doubt=Doubt("Dee", 0.1, 0.7, {"Challenge": 0.35, "Pass": 0.55},
                                   {"Challenge": 0.65, "Pass": 0.55}, 1))
    return judge(values, "Challenge")


def horizon_verdict():
    h = Horizons(2, 4, {"Challenge": 0.3, "Pass": 0.55})
    return judge(Valuation.solved({"Challenge": 0.5, "Pass": 0.52}, 0.001, h), "Challenge")


GLOSSARY_GRADES = {"best": "Pinakamahusay", "good": "Mahusay", "inaccuracy": "Hindi tumpak",
                   "mistake": "Pagkakamali", "blunder": "Malaking pagkakamali"}


def test_every_grade_word_is_the_glossarys_filipino() -> None:
    fil = catalogue("fil")
    for grade in GRADES:
        assert fil.messages.get((None, words.HEADLINES[grade])) == GLOSSARY_GRADES[grade]
        with use_language("fil"):
            assert words.grade_word(grade) == GLOSSARY_GRADES[grade]
    for message in (*words.RANGE_WORDS.values(), words.CLOSE_CALL, words.NOT_GRADED,
                    words.POINTS_MEANING):
        assert fil.messages.get((None, message)), message


def test_every_verdict_headline_and_sentence_has_its_filipino() -> None:
    fil = catalogue("fil")
    fil.missing.clear()
    verdicts = [doubt_verdict(), horizon_verdict(),
                judge(Valuation((OptionValue("Challenge", 0.4, 0.05, 0.05),
                                 OptionValue("Pass", 0.5, 0.05, 0.0)), Source("playouts", 200)),
                      "Challenge")]
    verdicts += [judge(Valuation((OptionValue("Challenge", 0.5 - lost / 100, 0.01, 0.001),
                                  OptionValue("Pass", 0.5, 0.01, 0.0)),
                                 Source("playouts", 1000)), "Challenge")
                 for lost in (0.5, 3, 8, 12, 30)]
    with use_language("fil"):
        said = [x for v in verdicts for x in (words.headline(v), words.short_headline(v),
                                               words.sentence(v), words.range_note(v),
                                               words.evidence_note(v, 1000),
                                               Source("playouts", 1000).words()) if x]
    assert fil.missing == set(), fil.missing
    # A range never holds a grade word: its sides are said in other words.
    for v in verdicts[:2]:
        with use_language("fil"):
            head = words.headline(v)
        assert v.is_range and not any(re.search(rf"\b{g}\b", head)
                                      for g in GLOSSARY_GRADES.values()), head
    assert any("Pagkakamali" in x or "Malaking pagkakamali" in x for x in said)


def test_counted_messages_take_filipinos_plural_forms() -> None:
    fil = catalogue("fil")
    # Filipino's rule: "one" unless n ends in 4, 6 or 9 (1, 2 and 3 are "one" too).
    assert [fil.plural_index(n) for n in (1, 2, 3, 4, 5, 6, 9, 11, 14, 16, 19, 21, 24)] == [
        0, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1]
    singular, plural = "You judged {n} claim.", "You judged {n} claims."
    forms = fil.messages[(None, singular)]
    assert isinstance(forms, tuple) and len(forms) == 2 and forms[0] != forms[1]
    with use_language("fil"):
        for n in (1, 5, 11):
            assert tr_n(singular, plural, n) == forms[0].format(n=n)
        for n in (4, 14, 6, 19):
            assert tr_n(singular, plural, n) == forms[1].format(n=n)
    with use_language("en"):
        assert tr_n(singular, plural, 1) == "You judged 1 claim."
        assert tr_n(singular, plural, 4) == "You judged 4 claims."


def test_the_chance_of_a_bluff_says_what_it_is_the_chance_of_in_filipino() -> None:
    with use_language("fil"):
        assert tr("Chance it is a bluff") == "Tsansa na bluff ito"
        assert "tsansa na bluff" in tr("A challenge pays when the chance of a bluff is above "
                                       "{p}.", p="40%")
