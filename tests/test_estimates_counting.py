"""Exact card counting against hand-computed hypergeometric values and brute force."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import Character as C
from trainer.estimates.counting import Seat, deal, p_holds_prior

FIVE = (C.DUKE, C.ASSASSIN, C.CAPTAIN, C.AMBASSADOR, C.CONTESSA)


def test_four_players_at_the_start_a_duke_you_do_not_hold():
    # 13 unseen cards with all 3 Dukes: 1 - C(10,2)/C(13,2) = 1 - 45/78 = 0.4231
    assert p_holds_prior(13, 3, 2) == pytest.approx(1 - 45 / 78)
    assert p_holds_prior(13, 3, 2) == pytest.approx(0.4231, abs=1e-4)


def test_the_popular_approximation_is_not_what_is_computed():
    assert p_holds_prior(13, 3, 2) != pytest.approx(3 / 13 * 2, abs=0.01)


def test_the_prior_deal_matches_the_hypergeometric_marginal():
    unseen = {c: 3 for c in FIVE} | {C.DUKE: 2, C.CAPTAIN: 2}  # you hold Duke and Captain
    d = deal(unseen, [Seat(2), Seat(2), Seat(2)], FIVE)
    for seat in range(3):
        assert d.p_holds(seat, C.DUKE) == pytest.approx(1 - 55 / 78)  # 1 - C(11,2)/C(13,2)
        assert d.p_holds(seat, C.ASSASSIN) == pytest.approx(p_holds_prior(13, 3, 2))
        assert sum(d.hands[seat].values()) == pytest.approx(1.0)


def test_two_copies_in_one_hand_exhaust_them_for_the_others():
    d = deal({C.DUKE: 2, C.CONTESSA: 1}, [Seat(2), Seat(1)], (C.DUKE, C.CONTESSA),)
    # Seat 1 holds the Contessa exactly when seat 0 holds both Dukes.
    both = d.hands[0][(C.DUKE, C.DUKE)]
    assert d.p_holds(1, C.CONTESSA) == pytest.approx(both)


def brute(cards: list[C], sizes: list[int], likelihoods) -> list[dict]:
    """Every ordering of the distinct cards, dealt in order to the seats then the rest."""
    totals = [Counter() for _ in sizes]
    z = 0.0
    for order in permutations(range(len(cards))):
        pos, w, hands = 0, 1.0, []
        for k, lk in zip(sizes, likelihoods, strict=True):
            h = tuple(sorted(cards[i] for i in order[pos:pos + k]))
            pos += k
            hands.append(h)
            w *= lk(h) if lk else 1.0
        z += w
        for t, h in zip(totals, hands, strict=True):
            t[h] += w
    return [{h: v / z for h, v in t.items() if v} for t in totals]


@settings(max_examples=25, deadline=None)
@given(counts=st.lists(st.integers(0, 2), min_size=3, max_size=3).filter(
           lambda xs: 3 <= sum(xs) <= 6),
       sizes=st.lists(st.integers(1, 2), min_size=1, max_size=2),
       weights=st.lists(st.floats(0.05, 1.0), min_size=3, max_size=3))
def test_the_dynamic_programme_equals_brute_force_on_small_decks(counts, sizes, weights):
    chars = FIVE[:3]
    if sum(sizes) > sum(counts):
        sizes = sizes[:1]
    unseen = dict(zip(chars, counts, strict=True))
    cards = [c for c in chars for _ in range(unseen[c])]

    def lk(h):  # evidence: a weight per character held
        return 1.0 + sum(weights[chars.index(c)] for c in h)

    lks = [lk] + [None] * (len(sizes) - 1)
    d = deal(unseen, [Seat(k, f) for k, f in zip(sizes, lks, strict=True)], chars)
    expected = brute(cards, sizes, lks)
    for got, want in zip(d.hands, expected, strict=True):
        assert set(got) == set(want)
        for h in want:
            assert got[h] == pytest.approx(want[h])


def test_evidence_that_rules_a_hand_out_gives_it_zero():
    d = deal({C.DUKE: 1, C.CAPTAIN: 2}, [Seat(1, lambda h: 0.0 if C.DUKE in h else 1.0)],
             (C.DUKE, C.CAPTAIN))
    assert d.p_holds(0, C.DUKE) == 0.0 and d.p_holds(0, C.CAPTAIN) == pytest.approx(1.0)


def test_more_hidden_cards_than_unseen_is_refused():
    with pytest.raises(ValueError, match="only 2 are unseen"):
        deal({C.DUKE: 2}, [Seat(2), Seat(1)])


def test_sampled_deals_follow_the_exact_distribution():
    import random

    from trainer.estimates.counting import sample_deals

    unseen = {C.DUKE: 2, C.CAPTAIN: 2, C.CONTESSA: 1}
    seats = [Seat(2, lambda h: 3.0 if C.DUKE in h else 1.0), Seat(1)]
    exact = deal(unseen, seats, (C.DUKE, C.CAPTAIN, C.CONTESSA))
    draws = sample_deals(unseen, seats, 6000, random.Random(1))
    freq = Counter(d[0] for d in draws)
    for hand, p in exact.hands[0].items():
        assert freq[hand] / len(draws) == pytest.approx(p, abs=0.025)
    for d in draws:  # every joint deal respects the shared pool
        used = Counter(d[0]) + Counter(d[1])
        assert all(used[c] <= unseen[c] for c in used)
