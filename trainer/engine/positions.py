"""Checks on a hand-built position: a lesson's set-up, a puzzle, a snapshot read back.

Why apart from the game: a dealt game is valid by construction and bots create millions of
them, so `Game.new` skips these checks; a position typed by a person gets every one of them,
each failure a `SetupError` that names the argument at fault (`field`) and, for card counts,
the card and the numbers, so a caller can point at the right line of a file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from trainer.engine.cards import Allegiance, Character
from trainer.engine.errors import SetupError
from trainer.engine.rules import Options, Variant


def check_position(
    *,
    variant: Variant,
    options: Options,
    names: Sequence[str],
    hands: Sequence[Sequence[Character]],
    revealed: Sequence[Sequence[Character]],
    coins: Sequence[int],
    deck: Sequence[Character],
    first: int,
    treasury: int | None,
    offers: Sequence[Sequence[Character]],
    removed: Sequence[Character],
    sides: Sequence[Allegiance],
    reserve: int,
    mat_pending: Sequence[str],
    mat_cards: Mapping[str, Character],
    mat_up: Sequence[Character],
    mat_coins: int,
) -> int | None:
    """Raise SetupError for the first rule the position breaks; return the Treasury's coins
    (None for an unlimited Treasury)."""
    n = len(names)
    most = variant.most_players(options)
    if not variant.min_players <= n <= most:
        raise SetupError(f"{variant.title} is for {variant.min_players}–{most} players, not {n}",
                         field="names")
    if len(set(names)) != n:
        raise SetupError("player names must be different", field="names")
    if len(hands) != n:
        raise SetupError("give one hand and one coin count per player", field="hands")
    if len(coins) != n:
        raise SetupError("give one hand and one coin count per player", field="coins")
    if len(revealed) != n:
        raise SetupError("give one list of face-up cards per player", field="revealed")
    if offers and len(offers) != n:
        raise SetupError("give one draft set per player", field="offers")
    if sides and len(sides) != n:
        raise SetupError("give one allegiance per player", field="allegiances")
    if sides and not variant.allegiances:
        raise SetupError(f"{variant.title} has no allegiances", field="allegiances")
    if reserve and not variant.allegiances:
        raise SetupError(f"{variant.title} has no Treasury Reserve", field="reserve")
    if reserve < 0:
        raise SetupError("the Treasury Reserve cannot be negative", field="reserve")
    unknown = [e for e in mat_pending if e not in variant.mat_events(2)]
    if unknown:
        raise SetupError(f"{unknown[0]!r} is not an event of the {variant.title} mat",
                         field="mat")
    check_table(variant=variant, names=names, hands=hands, revealed=revealed, coins=coins,
                deck=deck, offers=offers, removed=removed, mat_cards=mat_cards, mat_up=mat_up,
                drafting=bool(offers))
    left = None
    if options.finite_treasury:
        held = sum(coins) + reserve + mat_coins
        left = variant.coins_total - held if treasury is None else treasury
        if left < 0 or held + left != variant.coins_total:
            raise SetupError(
                f"players hold {sum(coins)} coins and the treasury {left}"
                + (f", the Reserve {reserve}" if reserve else "")
                + (f", the mat {mat_coins}" if mat_coins else "")
                + f"; together they must make the {variant.coins_total} coins in the box",
                field="coins" if treasury is None else "treasury")
    if sum(1 for p in range(n) if hands[p] or offers) < 2:
        raise SetupError("at least two players must still have influence", field="hands")
    if not 0 <= first < n or not (hands[first] or offers):
        raise SetupError(f"the first player (seat {first}) must be a living player",
                         field="first")
    return left


def check_table(
    *,
    variant: Variant,
    names: Sequence[str],
    hands: Sequence[Sequence[Character]],
    revealed: Sequence[Sequence[Character]],
    coins: Sequence[int],
    deck: Sequence[Character],
    offers: Sequence[Sequence[Character]],
    removed: Sequence[Character],
    mat_cards: Mapping[str, Character],
    mat_up: Sequence[Character] = (),
    drawn: Sequence[Character] = (),
    drafting: bool = False,
    between_turns: bool = True,
) -> None:
    """The facts about cards and seats that hold in every position of a game, hand-built or
    reached by play; raise SetupError (with `field` and `seat`) for the first one broken.

    Why one function: `check_position` (a lesson's set-up, a puzzle) and the fuzzer's
    `check_invariants` must agree on what a possible position is. When they were written
    twice, a set-up could pass here and be rejected by the invariants later (a living player
    without cards, one card where a player has two, an exiled player keeping coins).

    * every card is a card of the variant;
    * every seat holds exactly `hand_size` cards, face down while alive and face up once lost
      (during the two-player draft, when hands are still being chosen, at most that many);
    * between turns (at an action, the draft or the choice of allegiance, or when the game is
      over) an exiled seat holds no coins: it returned them to the Treasury (a steal or the
      Graverobber may hold them until the end of the turn);
    * no seat has negative coins;
    * McGuire's mat holds a card for every flip event of this player count, face down until
      its event, face up after;
    * the table holds exactly the court for this many players: hands, face-up cards, the deck,
      the draft sets and removed cards, McGuire's mat, and `drawn`, the cards an exchange in
      progress has taken from the deck.
    """
    piles: list[tuple[str, int | None, Sequence[Character]]] = [
        *(("hands", p, h) for p, h in enumerate(hands)),
        *(("revealed", p, r) for p, r in enumerate(revealed)),
        *(("offers", p, o) for p, o in enumerate(offers)),
        ("deck", None, deck), ("removed", None, removed), ("mat", None, list(mat_cards.values())),
        ("mat_up", None, mat_up), ("deck", None, drawn),
    ]
    counts: dict[Character, int] = {}
    cards = variant.cards
    for field, seat, pile in piles:
        for c in pile:
            if c not in cards:
                raise SetupError(f"{c} is not a card of {variant.title} (its cards: "
                                 f"{', '.join(cards)})", field=field, seat=seat, card=str(c))
            counts[c] = counts.get(c, 0) + 1
    size = variant.hand_size
    for p, h in enumerate(hands):
        held = len(h) + len(revealed[p])
        if held > size or (held != size and not drafting):
            raise SetupError(
                f"{names[p]} has {_count(len(h), 'face-down')} and "
                f"{_count(len(revealed[p]), 'face-up')}; every player has {size} cards (face "
                f"down while alive, face up once lost)",
                field="hands", seat=p, expected=size, found=held)
    for p, money in enumerate(coins):
        if money < 0:
            raise SetupError("coins cannot be negative", field="coins", seat=p)
        if money and between_turns and not hands[p] and not drafting:
            raise SetupError(
                f"{names[p]} is out of the game (every card face up) but has {money} "
                f"coin{'s' if money != 1 else ''}; a player who is out returns all their coins "
                f"to the Treasury", field="coins", seat=p, expected=0, found=money)
    flips = [e for e in variant.mat_events(len(names)) if e.startswith("flip")]
    if len(mat_cards) + len(mat_up) != len(flips):
        raise SetupError(
            f"McGuire's mat holds {len(flips)} card{'s' if len(flips) != 1 else ''} for "
            f"{len(names)} players (one per flip event); found {len(mat_cards)} face down "
            f"and {len(mat_up)} face up (list the flipped ones under mat_up)",
            field="mat", expected=len(flips), found=len(mat_cards) + len(mat_up))
    want: dict[Character, int] = {}
    for c in variant.court(len(names)):
        want[c] = want.get(c, 0) + 1
    for c, k in want.items():
        if counts.get(c, 0) != k:
            where = ("hands, revealed, deck and mat" if variant.event_mat
                     else "hands, draft sets, removed cards and deck" if variant.draft
                     else "hands, revealed and deck")
            raise SetupError(
                f"there must be {k} {c} card{'s' if k != 1 else ''} in play ({where}) "
                f"for {len(names)} players; found {counts.get(c, 0)}",
                field="cards", card=str(c), expected=k, found=counts.get(c, 0))


def _count(k: int, side: str) -> str:
    return f"{'no' if k == 0 else k} {side} card{'s' if k > 1 else ''}"
