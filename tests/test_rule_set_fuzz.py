"""A rule set written in a link (`?rules=`) or a lesson file, mangled at random, is a rule set
or a `RuleSetError` in the reader's words naming the part at fault: never another exception
(a link is anybody's to edit, and the Play, Rules and End-game pages read it).

The texts are made of the grammar's own pieces (variants, house rules, table rules and their
values), the separators and some junk, so most of them come close to a real rule set.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.i18n_sweep import unmarked
from trainer.engine.errors import RuleSetError
from trainer.engine.rules import Options
from trainer.engine.variants import HOUSE_RULE_NAMES, VARIANTS, parse_rules
from trainer.i18n import use_language
from trainer.i18n.catalogue import CLOSE, OPEN

PIECES = [*VARIANTS, *HOUSE_RULE_NAMES, *Options.info(),
          *(str(c) for info in Options.info().values() for c in info.choices),
          "+", "-", "(", ")", "=", ",", " ", "_", "++", "()", "(=)", "x", "é", "\u200b", "0",
          "-1", "99", "yes", "none", "random", "all"]


@settings(max_examples=600, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
# (the pseudo-language's own marks are left out of the texts: they would confuse the check)
@given(st.lists(st.sampled_from(PIECES), max_size=9).map("".join)
       | st.text(max_size=30).filter(lambda t: OPEN not in t and CLOSE not in t))
def test_a_mangled_rule_set_is_read_or_refused_in_the_readers_words(text: str) -> None:
    try:
        with use_language("qps"):
            rules = parse_rules(text)
    except RuleSetError as e:
        # Every word of ours is marked; the rest is the text itself, quoted back.
        assert [w for w in unmarked(str(e)) if w.lower() not in text.lower()] == [], str(e)
        return
    # What was read describes itself so that it reads back the same.
    assert parse_rules(rules.text) == rules
