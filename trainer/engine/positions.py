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
    check_cards(variant, names, hands, revealed, deck, offers, removed, mat_cards, mat_up)
    for p, c in enumerate(coins):
        if c < 0:
            raise SetupError("coins cannot be negative", field="coins", seat=p)
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


def check_cards(variant: Variant, names: Sequence[str], hands: Sequence[Sequence[Character]],
                revealed: Sequence[Sequence[Character]], deck: Sequence[Character],
                offers: Sequence[Sequence[Character]], removed: Sequence[Character],
                mat_cards: Mapping[str, Character], mat_up: Sequence[Character] = ()) -> None:
    """Every card is a card of the variant, the table holds exactly the court for this many
    players, and nobody holds more than a hand."""
    piles: list[tuple[str, int | None, Sequence[Character]]] = [
        *(("hands", p, h) for p, h in enumerate(hands)),
        *(("revealed", p, r) for p, r in enumerate(revealed)),
        *(("offers", p, o) for p, o in enumerate(offers)),
        ("deck", None, deck), ("removed", None, removed), ("mat", None, list(mat_cards.values())),
        ("mat_up", None, mat_up),
    ]
    counts: dict[Character, int] = {}
    cards = variant.cards
    for field, seat, pile in piles:
        for c in pile:
            if c not in cards:
                raise SetupError(f"{c} is not a card of {variant.title} (its cards: "
                                 f"{', '.join(cards)})", field=field, seat=seat, card=str(c))
            counts[c] = counts.get(c, 0) + 1
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
    for p, h in enumerate(hands):
        if len(h) + len(revealed[p]) > variant.hand_size:
            raise SetupError(f"{names[p]} holds more than {variant.hand_size} cards",
                             field="hands", seat=p)
