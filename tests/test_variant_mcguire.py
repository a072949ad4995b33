"""McGuire house rules 1–7 (000): each rule as the text states it."""

from __future__ import annotations

import random

from tests.helpers import act, cards, everyone_passes, table
from trainer.engine.cards import Action, Character, proves
from trainer.engine.game import Game, Phase, prove_moves
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import MCGUIRE
from trainer.estimates.claims import pending_claim
from trainer.estimates.posterior import p_holds


def house(*seats, **kw) -> Game:
    """A McGuire table; without `mat`, a position past every mat event is McGuire's rules
    without the mat (`mcguire-mat`): the set-up check counts the mat's cards."""
    return table(*seats, variant="mcguire" if "mat" in kw else "mcguire-mat", **kw)


def test_rule_1_an_ambassador_reduces_a_steal_to_one_coin():
    game = house(("Ana", "Captain Duke", 1), ("Ben", "Ambassador Contessa", 4))
    act(game, "steal", 1)
    everyone_passes(game)
    game.apply(Move.block(1, Character.AMBASSADOR))
    everyone_passes(game)
    assert game.coins == [1 + 1, 4 - 1]


def test_rule_1_a_captain_still_blocks_a_steal_entirely():
    game = house(("Ana", "Captain Duke", 1), ("Ben", "Captain Contessa", 4))
    act(game, "steal", 1)
    everyone_passes(game)
    game.apply(Move.block(1, Character.CAPTAIN))
    everyone_passes(game)
    assert game.coins == [1, 4]


def test_rule_2_first_player_starts_with_0_coins_and_the_others_with_1():
    game = Game.new(4, seed=2, variant="mcguire")
    assert game.coins[:1] == [0] and game.coins[1:] == [1, 1, 1]


def test_rule_3_the_challenger_takes_1_coin_before_the_challenge_resolves():
    game = house(("Ana", "Duke Contessa", 2), ("Ben", "Captain Contessa", 1))
    act(game, "tax")
    game.apply(Move.challenge(1))
    assert game.coins[1] == 2 and game.phase is Phase.PROVE_ACTION


def test_rule_4_the_loser_of_a_challenge_may_pay_5_instead_of_a_card():
    game = house(("Ana", "Captain Contessa", 6), ("Ben", "Captain Contessa", 1),
                 ("Cat", "Duke Assassin", 1))
    act(game, "tax")
    game.apply(Move.challenge(1))
    assert Move.pay(0) in game.legal_moves()
    game.apply(Move.pay(0))
    assert game.coins[0] == 1 and game.hidden[0] == cards("Captain Contessa")
    assert game.phase is Phase.ACTION and game.actor == 1


def test_rule_4_paying_needs_5_coins_at_the_time():
    game = house(("Ana", "Duke Contessa", 2), ("Ben", "Captain Contessa", 3),
                 ("Cat", "Duke Assassin", 1), draws=("Captain",))
    act(game, "tax")
    game.apply(Move.challenge(1))  # Ben now has 4
    game.apply(Move.show(0, Character.DUKE))
    assert game.phase is Phase.LOSE and MoveKind.PAY not in {m.kind for m in game.legal_moves()}


def test_rule_4_payment_comes_before_the_action_so_a_steal_may_find_nothing():
    game = house(("Ana", "Captain Duke", 0), ("Ben", "Contessa Duke", 5),
                 ("Cat", "Duke Assassin", 1), draws=("Captain",))
    act(game, "steal", 1)
    game.apply(Move.challenge(1))  # Ben takes the bounty: 6
    game.apply(Move.show(0, Character.CAPTAIN))
    game.apply(Move.pay(1))  # 6 - 5 = 1
    game.apply(Move.pass_(1))  # no block
    assert game.coins[:2] == [1, 0]


def test_rule_5_inheritance_gains_4_when_killed():
    game = house(("Ana", "Duke Captain", 7), ("Ben", "Inheritance Ambassador, Contessa", 1),
                 ("Cat", "Duke Assassin", 1))
    act(game, "coup", 1)
    game.apply(Move.lose(1, Character.INHERITANCE))
    assert game.coins[1] == 5


def test_rule_5_a_card_lost_in_a_challenge_is_a_death_not_a_kill():
    game = house(("Ana", "Duke Contessa", 1), ("Ben", "Inheritance Ambassador, Contessa", 1),
                 ("Cat", "Duke Assassin", 1), draws=("Captain",))
    act(game, "tax")
    game.apply(Move.challenge(1))
    game.apply(Move.show(0, Character.DUKE))
    game.apply(Move.lose(1, Character.INHERITANCE))
    assert game.coins[1] == 2  # only the bounty


def test_rule_5_vengeance_makes_a_free_assassination_when_killed_by_a_coup():
    game = house(("Ana", "Duke Captain", 7), ("Ben", "Vengeance Assassin, Contessa", 1),
                 ("Cat", "Duke Assassin", 1))
    act(game, "coup", 1)
    game.apply(Move.lose(1, Character.VENGEANCE))
    assert game.phase is Phase.VENGEANCE and game.decider == 1
    game.apply(Move.act(1, Action.VENGEANCE, 2))
    assert game.phase is Phase.BLOCK and game.decider == 2  # blockable by a Contessa
    game.apply(Move.pass_(2))
    game.apply(Move.lose(2, Character.DUKE))
    assert game.phase is Phase.ACTION and game.actor == 1  # play goes on after Ana's turn


def test_rule_5_a_vengeance_from_an_exiled_player_can_end_the_game_in_a_tie():
    game = house(("Ana", "Duke", 7), ("Ben", "Vengeance Assassin,", 1),
                 revealed={0: "Captain", 1: "Contessa"})
    act(game, "coup", 1)
    game.apply(Move.lose(1, Character.VENGEANCE))
    assert not game.alive[1] and not game.is_over
    game.apply(Move.act(1, Action.VENGEANCE, 0))
    game.apply(Move.pass_(0))
    game.apply(Move.lose(0, Character.DUKE))
    assert game.is_over and game.winner is None and game.is_tie


def test_rule_5_vengeance_can_be_blocked_by_a_contessa():
    game = house(("Ana", "Contessa", 7), ("Ben", "Vengeance Assassin,", 1),
                 revealed={0: "Captain", 1: "Duke"})
    act(game, "coup", 1)
    game.apply(Move.lose(1, Character.VENGEANCE))
    game.apply(Move.act(1, Action.VENGEANCE, 0))
    game.apply(Move.block(0, Character.CONTESSA))
    assert game.is_over and game.winner == 0


def duke_blocks_foreign_aid(ana: str) -> Game:
    """Ana (holding `ana`) takes foreign aid, Ben blocks with a Duke and nobody challenges:
    Ana may now claim the Treaty Contessa to override the block."""
    game = house(("Ana", ana, 1), ("Ben", "Duke Captain", 1), ("Cat", "Duke Assassin", 1))
    act(game, "foreign aid")
    game.apply(Move.block(1, Character.DUKE))
    everyone_passes(game)
    return game


def test_rule_5_treaty_overrides_a_dukes_block_of_foreign_aid():
    game = duke_blocks_foreign_aid("Treaty Contessa, Captain")
    assert game.phase is Phase.CLAIM and game.decider == 0
    game.apply(Move.claim(0, Character.TREATY))
    everyone_passes(game)
    assert game.coins[0] == 3


def test_rule_5_a_treaty_claim_can_be_challenged_and_only_the_treaty_card_proves_it():
    game = duke_blocks_foreign_aid("Contessa Captain")
    game.apply(Move.claim(0, Character.TREATY))
    game.apply(Move.challenge(1))
    assert MoveKind.SHOW not in {m.kind for m in game.legal_moves()}  # a plain Contessa
    game.apply(Move.lose(0, Character.CAPTAIN))
    assert game.coins[0] == 1 and game.actor == 1


def test_rule_5_one_copy_of_each_modified_card():
    court = MCGUIRE.court(4)
    assert court.count(Character.INHERITANCE) == 1 and court.count(Character.AMBASSADOR) == 2
    assert court.count(Character.VENGEANCE) == 1 and court.count(Character.TREATY) == 1


def test_rule_5_a_modified_card_proves_its_character():
    game = house(("Ana", "Vengeance Assassin, Duke", 3), ("Ben", "Duke Captain", 1),
                 draws=("Captain",))
    act(game, "assassinate", 1)
    game.apply(Move.challenge(1))
    assert Move.show(0, Character.VENGEANCE) in game.legal_moves()


def test_rule_5_what_proves_a_claim_is_what_the_engine_lets_a_challenged_player_show():
    # `proves` is what every estimate and the quiz's truth read; the engine's answers to a
    # challenge are the rules. A claim of a modified card itself (the Treaty's) is exact.
    for claim in Character:
        exact = claim.role is not claim
        for card in Character:
            shows = any(m.kind is MoveKind.SHOW
                        for m in prove_moves(0, [card], claim, False, exact, False))
            assert proves(card, claim) == shows, (card, claim)


def test_rule_5_a_treaty_claim_by_the_treaty_holder_is_not_a_bluff_to_the_estimates():
    game = duke_blocks_foreign_aid("Treaty Contessa, Captain")
    game.apply(Move.claim(0, Character.TREATY))
    assert pending_claim(game) == (0, Character.TREATY)
    # To Ben and Cat the one Treaty Contessa is among the cards they cannot see: Ana may
    # hold it (before, every Treaty claim read as a certain bluff).
    for viewer in (1, 2):
        assert 0.0 < p_holds(game.observation(viewer), None, 0, Character.TREATY) < 1.0


def test_rule_6_the_mat_holds_four_cards_and_a_coin_for_three_players():
    game = Game.new(3, seed=9, variant="mcguire")
    assert len(game.mat_up) == 1 and len(game.mat_cards) == 3  # the first flipped at once
    assert game.mat_coins == 1 and len(game.deck) == 15 - 6 - 4


def test_rule_6_the_first_player_collects_the_coin_before_their_second_turn():
    game = house(("Ana", "Duke Captain", 0), ("Ben", "Duke Captain", 1),
                 ("Cat", "Duke Assassin", 1),
                 mat=[("coin_turn_2", None), ("flip_turn_3", "Contessa")],
                 mat_up="Ambassador Captain Assassin")
    act(game, "income")
    act(game, "income")
    act(game, "income")
    assert game.coins[0] == 1 + 1 and game.mat_coins == 0
    for _ in range(3):
        act(game, "income")
    assert game.mat_up[-1] == Character.CONTESSA


def test_rule_6_a_card_flips_after_the_first_death():
    game = house(("Ana", "Duke Captain", 7), ("Ben", "Duke Captain", 1),
                 ("Cat", "Duke Assassin", 1), mat=[("flip_death_1", "Contessa")],
                 mat_up="Ambassador Captain Assassin")
    act(game, "coup", 1)
    game.apply(Move.lose(1, Character.DUKE))
    assert game.mat_up[-1] == Character.CONTESSA


def test_rule_6_more_players_use_fewer_events():
    assert MCGUIRE.mat_events(5) == ("flip_turn_1", "coin_turn_2")
    assert MCGUIRE.mat_events(4) == ("flip_turn_1", "coin_turn_2", "flip_turn_3",
                                     "flip_death_1")


def test_rule_7_no_self_targeting():
    game = house(("Ana", "Duke Captain", 7), ("Ben", "Duke Captain", 1))
    assert all(m.target != 0 for m in game.legal_moves())


def test_a_snapshot_part_way_through_the_mat_restarts_the_same_game():
    from trainer.engine.invariants import check_invariants

    rng = random.Random(5)
    for seed in range(30):
        game = Game.new(3, seed=seed, variant="mcguire")
        for _ in range(rng.randrange(4, 40)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_moves()))
            if game.phase is Phase.ACTION and game.mat_up:
                copy = Game.from_snapshot(game.snapshot())
                check_invariants(copy)
                assert (copy.mat_up, copy.mat_pending, copy.mat_clock) == (
                    game.mat_up, game.mat_pending, game.mat_clock)
