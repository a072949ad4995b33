"""The documentation names every open point the engine makes an option."""

from __future__ import annotations

from pathlib import Path

from trainer.engine.game import Phase
from trainer.engine.rules import Options
from trainer.engine.variants import VARIANTS

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_option_is_documented_with_its_default():
    text = (DOCS / "engine.md").read_text()
    for name, info in Options.info().items():
        default = getattr(Options(), name)
        assert f"`{name}`" in text, name
        assert f"`{default}`" in text or f"`{str(default)}`" in text, (name, default)
        assert info.source


def test_every_variant_is_documented_by_name():
    text = (DOCS / "variants.md").read_text()
    for name in VARIANTS:
        assert f"`{name}`" in text, name


def test_every_phase_a_checkpoint_can_name_is_documented():
    text = (DOCS / "scenarios.md").read_text()
    for phase in Phase:
        if phase is not Phase.LOSE:  # documented as lose_influence
            assert f"`{phase.value}`" in text, phase


def test_the_learn_guide_quotes_the_lesson_files_count_of_the_five_minute_path():
    from tests.helpers import shipped_library
    from trainer.views.path_model import path_model, summary

    model = path_model(shipped_library().five_minutes())
    expected = summary(model).replace("*", "")
    text = " ".join((DOCS / "learn.md").read_text().replace("*", "").split())
    assert expected in text


def test_the_learn_guide_and_the_readme_quote_the_browsers_measure_of_the_shipped_path():
    """The measure is of these very lessons (a lesson edited since fails here, before the
    browser walk measures it again)."""
    from tests.helpers import shipped_library
    from trainer.views.path_model import stored_measure

    measure = stored_measure(shipped_library().five_minutes())
    assert measure is not None, "trainer/scenarios/path-measure.json is of other lessons"
    for doc in (DOCS / "learn.md", DOCS.parent / "README.md"):
        text = " ".join(doc.read_text().replace("*", "").split())
        assert measure.summary() in text, doc


def test_the_quiz_guide_describes_the_shipped_bank():
    from collections import Counter

    from tests.helpers import shipped_bank
    from trainer.quiz.bank import KINDS

    bank = shipped_bank()
    text = (DOCS / "quiz.md").read_text()
    kinds = Counter(i.kind for i in bank.items)
    judged = sum(1 for i in bank.items if i.has_claim)
    noise = sorted(i.noise_pp() for i in bank.items)
    assert f"| items | {len(bank.items)}:" in text
    assert "| kinds | " + ", ".join(f"{k} {kinds[k]}" for k in KINDS) + " |" in text
    assert f"| claims judged | {judged}, of which **{bank.bluff_share():.1%} bluffs** |" in text
    assert f"median {noise[len(noise) // 2]:.2f} points, max {noise[-1]:.2f}" in text
