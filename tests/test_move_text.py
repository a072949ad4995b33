"""The move grammar reads a move the way a rulebook writes it, and refuses what it cannot read."""

import pytest

from trainer.engine.cards import Action, Character
from trainer.engine.moves import Move, MoveKind, describe
from trainer.scenarios.move_text import MoveTextError, parse_move_text

NAMES = ["Maria", "Cris", "Ely"]


def read(text: str):
    return parse_move_text(text, NAMES)


@pytest.mark.parametrize("text, expected", [
    ("Ely claims Duke: tax", "Ely claims Duke: tax"),
    ("Maria: income", "Maria: income"),
    ("Maria: coup Ely", "Maria: coup Ely"),
    ("Ely claims Assassin: assassinate Maria", "Ely claims Assassin: assassinate Maria"),
    ("Cris claims Captain: steal Ely", "Cris claims Captain: steal Ely"),
    ("Cris claims Ambassador: exchange", "Cris claims Ambassador: exchange"),
    ("Maria: foreign aid", "Maria: foreign aid"),
    ("Cris challenges", "Cris challenges"),
    ("Maria passes", "Maria passes"),
    ("Maria blocks with Contessa", "Maria blocks with Contessa"),
    ("Ely shows Duke", "Ely shows Duke"),
    ("Cris loses Assassin", "Cris loses Assassin"),
    ("Cris keeps Assassin and Captain", "Cris keeps Assassin and Captain"),
])
def test_the_rulebook_phrasing_reads_back_as_the_engine_prints_it(text, expected):
    assert describe(read(text).move, NAMES.__getitem__) == expected


@pytest.mark.parametrize("text, expected", [
    ("ely CLAIMS the duke: Tax.", "Ely claims Duke: tax"),
    ("Maria takes income", "Maria: income"),
    ("Maria launches a coup against Ely", "Maria: coup Ely"),
    ("Cris steals from Ely", "Cris claims Captain: steal Ely"),
    ("Cris claims Captain: steal 2 coins from Ely", "Cris claims Captain: steal Ely"),
    ("Maria:tax", "Maria claims Duke: tax"),
    ("Maria blocks with the Contessa", "Maria blocks with Contessa"),
    ("Ely claims the Ambassador to block", "Ely blocks with Ambassador"),
    ("Cris loses his Assassin", "Cris loses Assassin"),
    ("Cris keeps Captain, Assassin", "Cris keeps Assassin and Captain"),
    ("Maria does not challenge", "Maria passes"),
    ("Maria doesn't block", "Maria passes"),
])
def test_the_grammar_forgives_case_articles_and_synonyms(text, expected):
    assert describe(read(text).move, NAMES.__getitem__) == expected


@pytest.mark.parametrize("text, scope", [
    ("No one challenges", "challenge"), ("nobody blocks", "block"),
    ("Everyone passes", "any"), ("No one else challenges", "challenge"),
    ("no block", "block"),
])
def test_a_whole_window_declining_is_one_group_phrase(text, scope):
    phrase = read(text)
    assert phrase.move is None and phrase.group == scope


def test_a_pass_that_names_the_window_keeps_its_scope():
    assert read("Maria does not block").scope == "block"
    assert read("Maria passes").scope == "any"


def test_a_challenge_may_name_the_claimant_and_the_card():
    phrase = read("Cris challenges Ely's Duke")
    assert phrase.move == Move.challenge(1)
    assert phrase.challenged == 2 and phrase.challenged_card is Character.DUKE


def test_a_card_left_out_is_marked_for_the_runner_to_infer():
    phrase = read("Ely shows")
    assert phrase.infer_card and phrase.move.kind is MoveKind.SHOW


def test_keep_sorts_cards_like_the_engine():
    assert read("Cris keeps Captain and Assassin").move.cards == (
        Character.ASSASSIN, Character.CAPTAIN)


def test_targets_are_seats():
    assert read("Maria: coup Ely").move == Move.act(0, Action.COUP, 2)


@pytest.mark.parametrize("text, message", [
    ("Ely claims Captain: tax", "tax is claimed with the Duke, not the Captain"),
    ("Maria claims Duke: income", "income needs no character"),
    ("Maria: coup", "coup needs a target"),
    ("Maria: income Ely", "unexpected words 'Ely' after 'income' (income takes no target)"),
    ("Maria: coup Elly", "coup whom? 'Elly' is not a player (Maria, Cris, Ely); did you mean"),
    ("Cris chalenges", "did you mean 'challenges'?"),
    ("Criss passes", "did you mean 'Cris'?"),
    ("Cris keeps Dukee", "did you mean 'Duke'?"),
    ("Ely claims Duke", "say what the Duke claim is for"),
    ("Maria: tax 2 coins", "tax does not take 2 coin(s); it takes 3"),
    ("", "a move is a sentence"),
])
def test_unreadable_moves_say_what_was_expected(text, message):
    with pytest.raises(MoveTextError, match=None) as info:
        read(text)
    assert message in str(info.value)


def test_longest_name_wins_when_one_name_starts_another():
    phrase = parse_move_text("Alice passes", ["Al", "Alice"])
    assert phrase.move == Move.pass_(1)


# -- the variants' moves
@pytest.mark.parametrize("variant, text, expected", [
    ("reformation", "Maria chooses Loyalist", Move.choose(0, "Loyalist")),
    ("reformation", "Maria: convert", Move.act(0, Action.CONVERT)),
    ("reformation", "Maria: convert Ely", Move.act(0, Action.CONVERT, 2)),
    ("reformation", "Maria: embezzle", Move.act(0, Action.EMBEZZLE)),
    ("reformation", "Maria claims no Duke: embezzle", Move.act(0, Action.EMBEZZLE)),
    ("reformation", "Maria shows Captain and Contessa",
     Move(MoveKind.SHOW, 0, cards=(Character.CAPTAIN, Character.CONTESSA))),
    ("inquisitor", "Maria claims Inquisitor: examine Cris", Move.act(0, Action.EXAMINE, 1)),
    ("inquisitor", "Cris shows Contessa to Maria", Move.show(1, Character.CONTESSA)),
    ("inquisitor", "Maria hands the card back", Move.choose(0, "return")),
    ("inquisitor", "Maria forces a swap", Move.choose(0, "swap")),
    ("forum", "Maria claims Inquisitor: peek", Move.act(0, Action.PEEK)),
    ("forum", "Ely claims Graverobber", Move.claim(2, Character.GRAVEROBBER)),
    ("mcguire", "Maria claims Treaty", Move.claim(0, Character.TREATY)),
    ("mcguire", "Cris claims Ambassador to reduce the steal",
     Move.block(1, Character.AMBASSADOR)),
    ("mcguire", "Cris pays 5", Move.pay(1)),
    ("mcguire", "Cris: vengeance Ely", Move.act(1, Action.VENGEANCE, 2)),
    ("mcguire", "Cris loses Vengeance Assassin", Move.lose(1, Character.VENGEANCE)),
    ("draft", "Maria keeps Duke", Move.keep(0, (Character.DUKE,))),
    ("draft", "Maria keeps Duke from the draft set", Move.keep(0, (Character.DUKE,))),
])
def test_the_variant_moves_read_as_their_texts_write_them(variant, text, expected):
    from trainer.engine.variants import get_variant

    assert parse_move_text(text, NAMES, get_variant(variant)).move == expected


def test_no_one_claims_closes_a_graverobber_window():
    assert read("No one claims").group == "claim"


def test_an_action_the_variant_lacks_is_refused():
    with pytest.raises(MoveTextError, match="examine is not an action of Coup"):
        read("Maria claims Inquisitor: examine Cris")


def test_embezzlement_is_not_claimed_with_the_duke():
    from trainer.engine.variants import get_variant

    with pytest.raises(MoveTextError, match="claims NOT to hold the Duke"):
        parse_move_text("Maria claims Duke: embezzle", NAMES, get_variant("reformation"))


# -- any player names: one letter, and the grammar's own words
LETTERS = ["A", "B", "I"]
WORDS = ["No", "One", "Everyone", "All", "Nobody", "Blocks"]


@pytest.mark.parametrize("text, expected", [
    ("A challenges", Move.challenge(0)),
    ("B passes", Move.pass_(1)),
    ("I: income", Move.act(2, Action.INCOME)),
    ("A: coup B", Move.act(0, Action.COUP, 1)),
    ("B claims Captain: steal from A", Move.act(1, Action.STEAL, 0)),
    ("I claims Assassin: assassinate A", Move.act(2, Action.ASSASSINATE, 0)),
    ("I launches a coup against A", Move.act(2, Action.COUP, 0)),
    ("B blocks with a Contessa", Move.block(1, Character.CONTESSA)),
])
def test_one_letter_names_are_players_even_where_an_article_could_stand(text, expected):
    assert parse_move_text(text, LETTERS).move == expected


def test_a_challenge_may_name_a_one_letter_claimant():
    phrase = parse_move_text("B challenges A", LETTERS)
    assert (phrase.move, phrase.challenged) == (Move.challenge(1), 0)


def test_an_examined_player_shows_a_card_to_a_one_letter_inquisitor():
    from trainer.engine.variants import get_variant

    phrase = parse_move_text("B shows Contessa to A", LETTERS, get_variant("inquisitor"))
    assert phrase.move == Move.show(1, Character.CONTESSA)


@pytest.mark.parametrize("text, expected", [
    ("No passes", Move.pass_(0)),
    ("No challenges", Move.challenge(0)),
    ("One challenges", Move.challenge(1)),
    ("Everyone: income", Move.act(2, Action.INCOME)),
    ("All passes", Move.pass_(3)),
    ("Nobody blocks with Duke", Move.block(4, Character.DUKE)),
    ("Blocks blocks with Duke", Move.block(5, Character.DUKE)),
    ("Everyone: coup Nobody", Move.act(2, Action.COUP, 4)),
    ("All claims Captain: steal from No", Move.act(3, Action.STEAL, 0)),
])
def test_a_player_named_like_a_grammar_word_is_read_as_that_player(text, expected):
    assert parse_move_text(text, WORDS).move == expected


@pytest.mark.parametrize("text, scope", [
    ("No one challenges", "challenge"), ("Everyone passes", "any"),
])
def test_group_words_still_close_a_window_when_they_do_not_read_as_a_player_s_move(text, scope):
    assert parse_move_text(text, ["No", "Ana"]).group == scope
