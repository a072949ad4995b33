"""The Calibration page under AppTest with no, a few and many answers: the plain sentences come
first, the expert figures wait in an expander, and nothing on the page passes a verdict in
colour."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import sample_answers
from tests.test_calibration_text import TWENTY_ONE
from tests.test_quiz_page import open_page
from trainer.learners.storage import Store


@pytest.fixture
def db_url(tmp_path, monkeypatch) -> str:
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    return url


def calibration(url: str, answers: list) -> AppTest:
    Store(url).save_many(answers)
    return open_page("pages/calibration.py", learner="ann")


def top(at: AppTest) -> list:
    """The page's top-level elements and blocks, in the order they are drawn (the router's
    chrome above every page, pinned into the header, left out)."""
    drawn = [at.main.children[k] for k in sorted(at.main.children)]
    return [e for e in drawn if getattr(e, "key", None) != "ct_chrome"]


def markdown_in(node) -> list[str]:
    """Every markdown text inside a block (or the element itself), in order."""
    if node.type == "markdown":
        return [node.value]
    return [text for k in sorted(getattr(node, "children", {}) or {})
            for text in markdown_in(node.children[k])]


def lead_paragraphs(at: AppTest) -> list[str]:
    """The opening block's paragraphs, checked to come after the title and before anything
    else of the page's own: its first subheader, chart or expander. (The shared page chrome
    may draw above the title; it is not the page's.)"""
    nodes = top(at)
    title = next(i for i, n in enumerate(nodes) if n.type == "title")
    lead = next(i for i, n in enumerate(nodes)
                if markdown_in(n)
                and markdown_in(n)[0].startswith(("You judged", "None of", "Your one answer")))
    rest = [i for i, n in enumerate(nodes)
            if n.type in ("subheader", "expandable", "vega_lite_chart")]
    assert title < lead < min(rest), [n.type for n in nodes]
    return markdown_in(nodes[lead])


def test_no_answers_shows_the_empty_state_and_no_figures(db_url):
    at = calibration(db_url, [])
    assert any("No answers yet" in i.value for i in at.info)
    assert [e.label for e in at.expander] == ["Forget my answers"]
    assert not at.get("vega_lite_chart")


def test_a_few_answers_open_with_their_counts_and_no_verdict(db_url):
    at = calibration(db_url, TWENTY_ONE)
    assert lead_paragraphs(at) == [
        "You judged 21 claims. You said “likely a bluff” (over 50%) 12 times; 7 were bluffs. "
        "You said “likely honest” (under 50%) 9 times; 8 were honest.",
        "It is too early to say whether you are overconfident: that takes 30 judged claims, "
        "and you have 21.",
        "On the same 21 claims, the bot said “likely a bluff” 12 times; 7 were bluffs. "
        "Too few claims yet to say which of you judges better: that takes 30.",
    ]


def test_a_few_answers_keep_the_scores_in_the_expert_expander_with_a_warning(db_url):
    at = calibration(db_url, TWENTY_ONE)
    expert = next(e for e in at.expander if e.label.startswith("Expert figures"))
    figures = expert.markdown[0].value
    for name in ("Brier score", "Brier, you − the bot", "Skill vs the bot",
                 "Skill vs the base rate", "Log score", "Overconfidence",
                 "Expected calibration error", "Discrimination (AUC)", "Action error rate"):
        assert f"**{name}" in figures, name
    assert "read these numbers as early signs" in expert.caption[0].value
    # No headline number outside the expander, and no green or red delta anywhere.
    assert not at.metric


def test_many_answers_still_lead_with_sentences_then_the_chart(db_url):
    at = calibration(db_url, sample_answers("ann", 200))
    paragraphs = lead_paragraphs(at)
    assert paragraphs[0].startswith("You judged 200 claims. You said “likely a bluff”")
    assert "too early" not in " ".join(paragraphs)
    assert paragraphs[2].startswith("On the same 200 claims, the bot said")
    nodes = top(at)
    after = next(i for i, n in enumerate(nodes) if markdown_in(n)[:1] == paragraphs[:1]) + 1
    assert nodes[after].type == "subheader"  # the chart's section follows the lead directly
    expert = next(e for e in at.expander if e.label.startswith("Expert figures"))
    assert not expert.caption or "early signs" not in expert.caption[0].value
    for jargon in ("Brier", "calibrat", "AUC", "log score", "skill", "base rate"):
        assert jargon not in " ".join(paragraphs), jargon
    assert not at.metric and not at.success and not at.error


def test_many_answers_draw_every_chart_with_a_clickable_reliability_diagram(db_url):
    at = calibration(db_url, sample_answers("ann", 80))
    charts = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    # reliability; Brier, log score and win-% lost over time; Brier and moves by theme
    assert len(charts) == 6
    assert any(p.get("name") == "bin" for p in charts[0].get("params", []))
    assert charts[0]["title"]["subtitle"][0] == "circle: you · square: the bot"


# --------------------------------------------------------------------------- counts in words

# A count beside its noun: "1 answers" or "2 claim" is the slip these tests catch.
NOUNS = ("answer", "claim", "decision", "item", "question")
ONE_PLURAL = re.compile(rf"(?<![\d.,−-])\b1 ({'|'.join(NOUNS)})s\b")
MANY_SINGULAR = re.compile(rf"(?<![\d.,−-])\b(0|[2-9]|\d{{2,}}) ({'|'.join(NOUNS)})\b(?!s)")


def miscounted(words: str) -> list[str]:
    return [m.group(0) for m in (*ONE_PLURAL.finditer(words), *MANY_SINGULAR.finditer(words))]


def every_word(at: AppTest) -> str:
    """Everything written on the page, the labels of its folds and boxes included."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + \
        [e.label for e in at.expander] + [b.label for b in at.checkbox] + \
        [str(i.value) for i in at.info] + [str(s.value) for s in at.success]
    return "\n".join(parts)


@pytest.mark.parametrize("n", [0, 1, 2])
@pytest.mark.parametrize("judged", [True, False])
def test_counts_agree_with_their_nouns_at_zero_one_and_two(db_url, n: int, judged: bool):
    from tests.test_calibration_text import claim

    answers = [claim(i, 0.8 if judged else None, bool(i % 2) if judged else None,
                     0.3 if judged else None, lost=4.0) for i in range(n)]
    at = calibration(db_url, answers)
    words = every_word(at)
    if n:
        assert f"Yes, delete my {'answer' if n == 1 else f'{n} answers'}" in words
        if judged:
            same = "On the same claim, the bot" if n == 1 else "On the same 2 claims, the bot"
            assert same in words
    assert miscounted(words) == [], words


def test_one_deleted_answer_is_said_in_the_singular(db_url):
    from tests.test_calibration_text import claim

    at = calibration(db_url, [claim(0, 0.8, True, 0.3)])
    at.checkbox(key="forget_sure").check().run()
    at.button(key="forget").click().run()
    assert [s.value for s in at.success] == ["Deleted 1 answer."]


# --------------------------------------------------------------------------- too few to tell


def test_three_claims_give_no_interval_or_skill_but_say_how_many_it_takes(db_url):
    """The bot near-perfect on three claims, the learner not: a bootstrap interval and a skill
    of −236% would look like findings; the fold says there are too few claims to tell."""
    from tests.test_calibration_text import claims

    at = calibration(db_url, claims((1, 0.8, 1, 0.95), (1, 0.3, 0, 0.05), (1, 0.6, 0, 0.1)))
    expert = next(e for e in at.expander if e.label.startswith("Expert figures"))
    figures = expert.markdown[0].value
    assert "interval" not in figures and "resamples" not in figures
    skill_lines = [x for x in figures.splitlines() if "Skill vs" in x]
    assert len(skill_lines) == 2
    for line in skill_lines:
        assert not re.search(r"\d+%\.\*\*", line), line  # no percentage given as a skill
        assert "too few claims to tell" in line and "30" in line and "you have 3" in line
    versus = next(x for x in figures.splitlines() if "you − the bot" in x)
    assert "too few claims to tell" in versus and "30" in versus
