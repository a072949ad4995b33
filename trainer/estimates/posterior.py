"""The behavioural posterior: what a player's decisions say about their hand.

A claim is evidence. Under a behaviour model — a mixture of personas with prior weights — the
probability of an opponent's hand x after their decisions d is

    P(x | h) ∝ P_count(x) · Σ_t w_t Π_d π_t(d | x, public state at d)

(`estimates-math.md`). The observer keeps, for each opponent and each persona, the product of
π_t over that opponent's decisions since their hand last changed, as a weight per possible
hand: `Belief.observe` is called with the observer's own observation just before each public
decision is applied, which holds exactly the public state the deciding player saw. A lost card
carries the evidence over to the remaining hand.

Why the model holds against players it does not describe (`docs/estimates.md` measures it):

- An *uninformed* component, "anyone": every legal move alike, with a real share of the prior
  (`UNINFORMED`). Under it no decision says anything about the hand, so a player whose moves no
  persona explains drifts towards card counting instead of towards a confident mistake.
- The mixture is per player: Σ_t w_t Π_d π_t(d | x) weighs each persona by how well it explains
  *this* player's moves so far, a Bayesian average over who they are.
- What a player's moves said about who they are outlives the hand they were made with. A
  proof's replacement, an exchange or a forced swap starts the evidence about the *hand* afresh,
  but first each persona's share is multiplied by how well it explained the old hand's
  decisions (its marginal likelihood under card counting; for a proof, of the hands holding the
  card shown), so a player proved honest twice stays known as honest.
- Each player's *own* order of actions. The personas all prefer Tax to Assassinate to Steal,
  so a player who steals while holding a Duke would read as holding none, and their next,
  honest Duke claim as a near-certain bluff. Which honest action a player takes is read
  through a Dirichlet over the actions, one per player and game: its prior mean is the
  personas' order (`PREFERENCE`), worth `CONCENTRATION` moves, and every action the player
  takes adds one. A player who keeps stealing is expected to steal whatever they hold.
- A cap on what behaviour alone can conclude. However many moves a persona explains, the
  model keeps a share `FLOOR` of "these moves say nothing about the hand" that no evidence
  wears down, so the likelihood of one hand is never more than 1 / `FLOOR` times another's:
  a posterior's odds never move further than that factor from card counting's. Proofs and
  revealed cards are not behaviour: the count knows them for certain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement

from trainer.engine.cards import Action, Character
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation
from trainer.estimates.counting import Hand, Likelihood
from trainer.estimates.knowledge import knowledge
from trainer.policies.personas import Persona

# The share of a decision the model leaves to chance: any legal move keeps some probability.
TREMBLE = 0.02
# The decisions whose likelihood is weighed. A conceded challenge (PROVES) is weighed too: a
# player who had the card would have shown it, so giving up a card says the claim was a bluff,
# which is evidence about the kind of player as well as the hand.
WEIGHED = frozenset({Phase.ACTION, Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK,
                     Phase.CHALLENGE_CLAIM, Phase.BLOCK, Phase.CLAIM, Phase.LOSE})
PROVES = frozenset({Phase.PROVE_ACTION, Phase.PROVE_BLOCK, Phase.PROVE_CLAIM})
PROVE_WEIGHED = True
# How loosely the model reads each persona: the chance of any honest move instead of its best
# (`Persona.loose`). The bots play tight; people are rarely as predictable as a bot.
LOOSE = 0.1
# The prior share of the uninformed component ("anyone": every legal move alike).
UNINFORMED = 0.5
UNINFORMED_NAME = "Anyone (every legal move alike)"
# Player types no bot plays, each with its prior share: a casual player (honest, but any honest
# move rather than the best) and a reckless one (bluffs nine times in ten).
CASUAL = 0.1
RECKLESS = 0.1
# How many players' worth of weight the prior mixture keeps against what the rest of the table
# showed about who sits at it (see `Belief.evidence_for`).
POOL = 0.5
# The share of every player's moves read as saying nothing about their hand, however well a
# persona explains them: a cap of 1 / FLOOR on the likelihood ratio of two hands. Why this
# value: a cap of 20 keeps a claim that counting gives even odds between 5% and 95%, short of
# the 2% / 98% a confident forecast means, while the personas' own games lose little
# (`bench/offmodel.py`, docs/estimates.md).
FLOOR = 0.05
# The prior mean of a player's preference among the honest actions open to them (Income
# aside), before their own moves are seen: the personas' order, each action far ahead of the
# next (a Duke taxes, an Assassin assassinates, a Captain steals), so a player's first moves
# read as the personas' and a habit of their own soon outweighs it. An action not listed
# weighs `OTHER_ACTION`.
PREFERENCE: dict[Action, float] = {
    Action.TAX: 1000.0, Action.ASSASSINATE: 100.0, Action.STEAL: 10.0, Action.EMBEZZLE: 10.0,
    Action.PEEK: 10.0, Action.FOREIGN_AID: 1.0, Action.EXCHANGE: 0.1, Action.EXAMINE: 0.1,
}
OTHER_ACTION = 0.1
# Income whatever the hand, as the personas take it now and then (`personas.STEADY`).
STEADY = 0.2
# How many moves' worth the prior mean weighs against the player's own actions.
CONCENTRATION = 2.0
# The actions a persona bluffs (`trainer.policies.personas`).
BLUFFED = (Action.TAX, Action.STEAL, Action.ASSASSINATE)


def strangers() -> list[tuple[str, Persona, float]]:
    """The model's types beyond the named personas, with their prior shares."""
    return [("Casual (any honest move)", Persona("Casual", 0.1, 0.1, loose=1.0), CASUAL),
            ("Reckless (bluffs 90%)", Persona("Reckless", 0.9, 0.3), RECKLESS),
            (UNINFORMED_NAME, Persona("Random", 0.0, 0.5, uniform=True), UNINFORMED)]


@dataclass(frozen=True)
class Component:
    """One persona of the behaviour model, with its prior weight."""

    name: str
    persona: Persona
    weight: float
    # Rollouts cast a persona drawn from the model; the uninformed share is a way of saying
    # "we do not know", not a player to seat.
    cast: bool = True


def mixture(weights: Mapping[str, float], uninformed: float | None = None) -> list[Component]:
    """The behaviour model from persona weights, plus the uninformed component with prior
    share `uninformed` (`UNINFORMED` when None); a persona that bluffs only in some games
    becomes two components (a bluffing game and an honest one)."""
    from trainer.policies.personas import personas

    extra = strangers() if uninformed is None else [(UNINFORMED_NAME, personas()["random"],
                                                      uninformed)]
    rest = sum(w for _, _, w in extra)
    if not 0.0 <= rest < 1.0:
        raise ValueError(f"the shares beyond the personas must sum to [0, 1), not {rest}")
    table = personas()
    out = []
    total = sum(weights.values()) / (1.0 - rest)
    for name, w in weights.items():
        p = replace(table[name], loose=LOOSE) if not table[name].uniform else table[name]
        if p.bluff_games < 1.0:
            honest = replace(p, bluff_games=1.0, bluffing=False)
            bluffing = replace(p, bluff_games=1.0, bluffing=True)
            out.append(Component(f"{name} (bluffing game)", bluffing,
                                 w / total * p.bluff_games))
            out.append(Component(f"{name} (honest game)", honest,
                                 w / total * (1 - p.bluff_games)))
        else:
            out.append(Component(name, p, w / total))
    out += [Component(name, persona, w, cast=False) for name, persona, w in extra if w > 0.0]
    return out


class Belief:
    """One observer's evidence about every opponent's hand, kept as the game goes."""

    def __init__(self, observer: int, components: list[Component], cards: tuple[Character,
                 ...]) -> None:
        self.observer = observer
        self.components = components
        self.cards = cards
        # evidence[j][t][hand] = Π over j's decisions of π_t(decision | hand) since j's hand
        # last changed
        self.evidence: dict[int, list[dict[Hand, float]]] = {}
        # kind[j][t] ∝ how well persona t explained j's decisions with the hands j had before
        # (normalised so Σ_t w_t kind[j][t] = 1); absent: no hand has changed yet
        self.kind: dict[int, list[float]] = {}
        self.decisions: dict[int, int] = {}
        # actions[j][a] = how many times j took action a this game (the Dirichlet's counts)
        self.actions: dict[int, dict[Action, int]] = {}

    def preference(self, j: int) -> dict[Action, float]:
        """The posterior mean of j's Dirichlet over actions, up to a common factor: the
        prior mean worth `CONCENTRATION` moves plus j's own actions so far."""
        total = sum(PREFERENCE.values())
        counts = self.actions.get(j, {})
        keys = set(PREFERENCE) | set(counts)
        return {a: CONCENTRATION * PREFERENCE.get(a, OTHER_ACTION) / total + counts.get(a, 0)
                for a in keys if a is not Action.INCOME}

    def _hands(self, k: int) -> list[Hand]:
        return [tuple(sorted(h)) for h in combinations_with_replacement(self.cards, k)]

    def _reset(self, j: int, obs: Observation, shown: Character | None = None) -> None:
        """j's hand is replaced: fold what the old hand's decisions said about each persona
        into `kind[j]`, then forget the hand. `obs` is the observer's observation before the
        change; `shown`, a card j proved to hold just before."""
        tables = self.evidence.pop(j, None)
        self.decisions[j] = 0
        if not tables:
            return
        prior = _hand_prior(obs, j)
        if shown is not None:
            prior = {h: p for h, p in prior.items() if shown in h}
        marginal = [sum(p * w.get(h, 1.0) for h, p in prior.items()) for w in tables]
        old = self.kind.get(j, [1.0] * len(self.components))
        new = [a * b for a, b in zip(old, marginal, strict=True)]
        total = sum(c.weight * x for c, x in zip(self.components, new, strict=True))
        if total > 0.0:
            self.kind[j] = [x / total for x in new]

    def observe(self, obs: Observation, move: Move) -> None:
        """`obs` is the observer's observation just before `move` (by the deciding player)."""
        j = move.player
        d = obs.pending
        if d is None or j == self.observer:
            return
        if move.kind in (MoveKind.KEEP, MoveKind.SHOW) and move.player == j:
            # the hand is replaced (exchange, proof)
            self._reset(j, obs, move.character if move.kind is MoveKind.SHOW else None)
            return
        if move.kind is MoveKind.CHOOSE and move.choice == "swap" and d.target is not None:
            self._reset(d.target, obs)
            return
        if d.phase not in WEIGHED and not (PROVE_WEIGHED and d.phase in PROVES):
            if move.kind is MoveKind.LOSE and move.character is not None:
                self._carry_loss(j, move.character)  # a conceded challenge
            return
        k = obs.seats[j].influence
        table = self.evidence.setdefault(j, [dict() for _ in self.components])
        updated = []
        # Each hand's view of the decision, built once for every persona of the model.
        views = [obs.replace(player=j, hand=hand, legal_moves=obs.legal_moves_for(hand))
                 for hand in self._hands(k)]
        own = (self.preference(j) if d.phase is Phase.ACTION and move.kind is MoveKind.ACT
               else None)
        choices = [_action_choices(view) if own is not None else None for view in views]
        for t, comp in enumerate(self.components):
            weights = dict(table[t])
            for view, choice in zip(views, choices, strict=True):
                hand, legal = view.hand, view.legal_moves
                if (choice is not None and own is not None
                        and isinstance(comp.persona, Persona) and not comp.persona.uniform):
                    p = _action_chance(choice, comp.persona, own, move)
                else:
                    p = comp.persona.policy(view).get(move, 0.0)
                # A tremble: people (and other bots) do what no persona would, now and then;
                # without it one such move would rule every hand out.
                p = (1 - TREMBLE) * p + TREMBLE / len(legal) if move in legal else p
                weights[hand] = weights.get(hand, 1.0) * p
            updated.append(weights)
        # A safety net: a move outside the public model for every hand says nothing about
        # the hand, and must not rule every hand out.
        if any(w > 0 for weights in updated for w in weights.values()):
            table[:] = updated
        self.decisions[j] = self.decisions.get(j, 0) + 1
        if own is not None and move.action is not None:
            counts = self.actions.setdefault(j, {})
            counts[move.action] = counts.get(move.action, 0) + 1
        if move.kind is MoveKind.LOSE and move.character is not None:
            self._carry_loss(j, move.character)

    def _carry_loss(self, j: int, lost: Character) -> None:
        """After j turns `lost` face up, a hand y of the rest weighs what y + lost weighed."""
        for t, weights in enumerate(self.evidence.get(j, [])):
            carried: dict[Hand, float] = {}
            for hand, w in weights.items():
                if lost in hand:
                    rest = list(hand)
                    rest.remove(lost)
                    key = tuple(rest)
                    carried[key] = carried.get(key, 0.0) + w
            self.evidence[j][t] = carried

    def likelihood(self, j: int, known: tuple[Character, ...] = (),
                   prior: list[float] | None = None) -> Likelihood | None:
        """L_j(unknown part of the hand) = Σ_t w_t Π_d π_t(d | hand), or None without
        evidence; `prior` replaces the components' weights w_t."""
        table = self.evidence.get(j)
        if not table:
            return None  # the same for every hand, whatever kind[j] says
        kind = self.kind.get(j, [1.0] * len(self.components))
        base = prior if prior is not None else [c.weight for c in self.components]
        weights = [w * x for w, x in zip(base, kind, strict=True)]

        def mixed(hand: Hand) -> float:
            return sum(w * table[t].get(hand, 1.0) for t, w in enumerate(weights))

        # The cap: the likelihood relative to the likeliest hand j may hold, floored.
        hands = {h for t in table for h in t if _contains(h, known)}
        top = max((mixed(h) for h in hands), default=0.0)
        if top <= 0.0:
            return None  # no hand explains the moves: they say nothing

        def lk(unknown: Hand) -> float:
            return FLOOR + (1 - FLOOR) * mixed(tuple(sorted(known + unknown))) / top

        return lk


    def evidence_for(self, obs: Observation) -> dict[int, Likelihood]:
        """Every opponent's likelihood, each weighing the personas by what the *rest of the
        table* showed: a hierarchical prior. The table's mixture is unknown (a Dirichlet with
        mean the model's weights and `POOL` players' worth of weight); each other player with
        evidence adds their chance of being each persona, so a table of reckless players
        makes the model expect the next claim to be reckless too."""
        k = knowledge(obs)
        out: dict[int, Likelihood] = {}
        for j, (table_prior, _) in self._types(obs).items():
            lk = self.likelihood(j, k.known_in_hand.get(j, ()), table_prior)
            if lk is not None:
                out[j] = lk
        return out

    def _types(self, obs: Observation) -> dict[int, tuple[list[float], list[float]]]:
        """Per opponent with evidence: the prior over the components that the rest of the
        table gives them, and how well each component explains their own decisions (the
        marginal likelihood under card counting, up to a common factor)."""
        k = knowledge(obs)
        seen = [j for j in sorted(k.unknown_cards) if self.evidence.get(j) or j in self.kind]
        if not seen:
            return {}
        opponents, d = k.deal()
        prior = [c.weight for c in self.components]
        ones = [1.0] * len(self.components)
        marginals: dict[int, list[float]] = {}
        kinds: dict[int, list[float]] = {}
        for j in seen:
            known = k.known_in_hand.get(j, ())
            hands = d.hands[opponents.index(j)]
            tables = self.evidence.get(j)
            marginals[j] = [x * (sum(p * tables[t].get(tuple(sorted(known + h)), 1.0)
                                     for h, p in hands.items()) if tables else 1.0)
                            for t, x in enumerate(self.kind.get(j, ones))]
            raw = [w * m for w, m in zip(prior, marginals[j], strict=True)]
            total = sum(raw)
            kinds[j] = [x / total for x in raw] if total > 0 else prior
        out = {}
        for j in seen:
            others = [kinds[i] for i in seen if i != j]
            table_prior = [(POOL * w + sum(r[t] for r in others)) / (POOL + len(others))
                           for t, w in enumerate(prior)]
            out[j] = (table_prior, marginals[j])
        return out

    def spread(self, obs: Observation, opponent: int, role: Character,
               mass: float = 0.8) -> tuple[float, float]:
        """How far P(opponent holds `role`) could be from the estimate for want of knowing
        who they are: the central `mass` of that chance over the components, each taken as
        the opponent's type and weighted by how likely it is. Narrow when their moves have
        shown their kind of play; wide on thin evidence (a first claim, say)."""
        k = knowledge(obs)
        types = self._types(obs)
        point = p_holds(obs, self, opponent, role)
        if opponent not in types or not self.evidence.get(opponent):
            return point, point
        table_prior, marginal = types[opponent]
        raw = [w * m for w, m in zip(table_prior, marginal, strict=True)]
        evidence = self.evidence_for(obs)
        known = k.known_in_hand.get(opponent, ())
        chances = []
        for t, share in enumerate(raw):
            if share <= 0.0:
                continue
            one = [1.0 if i == t else 0.0 for i in range(len(self.components))]
            lk = self.likelihood(opponent, known, one)
            try:
                chances.append((k.p_holds(opponent, role, {**evidence, opponent: lk}
                                          if lk is not None else evidence), share))
            except ValueError:  # no deal fits this component alone: it carries no weight
                continue
        total = sum(w for _, w in chances)
        chances = sorted((value, w / total) for value, w in chances)
        lo_tail, hi_tail = (1 - mass) / 2, 1 - (1 - mass) / 2
        cum, lo, hi = 0.0, point, point
        found_lo = False
        for value, w in chances:
            cum += w
            if not found_lo and cum >= lo_tail:
                lo, found_lo = value, True
            if cum >= hi_tail:
                hi = value
                break
        return min(lo, point), max(hi, point)


def _contains(hand: Hand, known: tuple[Character, ...]) -> bool:
    """True when `hand` holds every card of `known` (as many of each)."""
    rest = list(hand)
    for c in known:
        if c not in rest:
            return False
        rest.remove(c)
    return True


@dataclass(frozen=True)
class _Choices:
    """One hand's action decision as the model reads it: the honest moves by action, the
    moves that would be a bluff, or `forced` when the personas' choice does not depend on
    the hand (a coup at 7 coins or more)."""

    honest: dict[Action, list[Move]]
    lies: list[Move]
    forced: dict[Move, float] | None = None


def _action_choices(view: Observation) -> _Choices:
    """The honest and the bluffing actions open to the hand of `view`, by the personas'
    rules (`trainer.policies.personas`): a steal only from a player with coins, an embezzle
    only from a reserve of 2 and only without a Duke, never a conversion."""
    legal = view.legal_moves
    coups = [m for m in legal if m.action is Action.COUP]
    if coups and view.seats[view.player].coins >= 7:
        return _Choices({}, [], {m: 1 / len(coups) for m in coups})
    mine = {c.role for c in view.hand}
    claims = {s.action: s.claim for s in view.rule_set.actions}

    def useful(m: Move) -> bool:
        if m.action is Action.STEAL and m.target is not None:
            return view.seats[m.target].coins > 0
        if m.action is Action.EMBEZZLE:
            return view.reserve >= 2
        return m.action is not Action.CONVERT

    def honest(m: Move) -> bool:
        if m.action is Action.EMBEZZLE:
            return Character.DUKE not in mine
        claim = claims.get(m.action) if m.action is not None else None
        return claim is None or claim in mine

    groups: dict[Action, list[Move]] = {}
    lies = []
    for m in legal:
        if m.action is None or not useful(m):
            continue
        if honest(m):
            groups.setdefault(m.action, []).append(m)
        elif m.action in BLUFFED:
            lies.append(m)
    if not groups:  # nothing honest and useful: the personas take the first legal move
        first = legal[0]
        return _Choices({}, [], {first: 1.0})
    return _Choices(groups, lies)


def _action_chance(choice: _Choices, persona: Persona, own: Mapping[Action, float],
                   move: Move) -> float:
    """π(move | hand) for an action: with the persona's bluff rate one of the bluffs alike,
    otherwise an honest action: Income now and then (`STEADY`), else one drawn by the
    player's own preference `own` (with the persona's looseness, any honest action alike),
    then a target alike."""
    if choice.forced is not None:
        return choice.forced.get(move, 0.0)
    b = persona.bluff_rate if choice.lies else 0.0
    p = b / len(choice.lies) if move in choice.lies else 0.0
    group = choice.honest.get(move.action) if move.action is not None else None
    if group and move in group:
        rest = [a for a in choice.honest if a is not Action.INCOME]
        steady = STEADY if rest and Action.INCOME in choice.honest else 0.0
        if move.action is Action.INCOME:
            by_own = steady if rest else 1.0
        else:
            total = sum(own.get(a, OTHER_ACTION) for a in rest)
            by_own = (1 - steady) * own.get(move.action, OTHER_ACTION) / total  # type: ignore[arg-type]
        share = (1 - persona.loose) * by_own + persona.loose / len(choice.honest)
        p += (1 - b) * share / len(group)
    return p


def _hand_prior(obs: Observation, j: int) -> dict[Hand, float]:
    """Card counting's distribution of j's whole hand (known cards included), as the observer
    sees it, with no evidence about anyone."""
    k = knowledge(obs)
    known = k.known_in_hand.get(j, ())
    if k.unknown_cards.get(j, 0) == 0:
        return {tuple(sorted(known)): 1.0}
    opponents, d = k.deal()
    return {tuple(sorted(known + h)): p for h, p in d.hands[opponents.index(j)].items()}


def p_holds(obs: Observation, belief: Belief | None, opponent: int, role: Character) -> float:
    """P(opponent holds a card proving `role`), from the observer's observation: the counting
    prior when `belief` is None, the behavioural posterior otherwise."""
    k = knowledge(obs)
    evidence = belief.evidence_for(obs) if belief is not None else {}
    return k.p_holds(opponent, role, evidence)
