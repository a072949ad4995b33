"""A hidden-role end-game written out as a Gambit extensive-form game (.efg), for checking the
solver against other solvers (OpenSpiel reads the format with `pyspiel.load_efg_game`).

Why a second walk instead of printing the solver's tree: the check is only worth something if
the two share as little as possible. This walk plays every deal's engine game move by move with
full histories — each information set is a player's own card, every public move and the cards
they drew and kept, with no merging — and cuts at the same horizon with the same leaf values.
Given a `Solution` it also writes out the solver's strategy at every information set, so the
other solver can measure that strategy's exploitability independently.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainer.endgame.chance import outcomes
from trainer.endgame.hidden import (
    DECISION,
    EXCHANGE,
    Continuations,
    Leaf,
    Solution,
    _Tree,
    known_leaf,
)
from trainer.endgame.public import PublicGraph, _play, _resolve, public_graph
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase


@dataclass
class Export:
    """The .efg text, and (given a solution) the solver's action probabilities per named
    information set, in the file's action order."""

    text: str
    policy: dict[str, list[float]] = field(default_factory=dict)
    actions: dict[str, list[str]] = field(default_factory=dict)
    infosets: int = 0
    terminals: int = 0


class EfgLines:
    """The lines of an .efg file as a walk writes them: terminal, chance and player nodes,
    information sets numbered per player in the order first met (shared by the exports of
    the one-card duel and of two cards against one)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.infosets: dict[tuple[int, tuple[str, ...]], int] = {}
        self.actions: dict[str, list[str]] = {}
        self.chance_sets = 0
        self.outcomes = 0

    def _infoset(self, player: int, label: tuple[str, ...]) -> tuple[int, str]:
        key = (player, label)
        number = self.infosets.get(key)
        if number is None:
            number = self.infosets[key] = sum(1 for p, _ in self.infosets if p == player) + 1
        return number, f"p{player}:" + "|".join(label)

    def _terminal(self, depth: int, value: float) -> None:
        self.outcomes += 1
        u = 2 * value - 1
        self.lines.append(f'{"  " * depth}t "" {self.outcomes} "" {{ {u!r} {-u!r} }}')

    def _chance(self, depth: int, probs: list[float]) -> None:
        self.chance_sets += 1
        acts = " ".join(f'"{k}" {p!r}' for k, p in enumerate(probs))
        self.lines.append(f'{"  " * depth}c "" {self.chance_sets} "" {{ {acts} }} 0')

    def _decision(self, depth: int, player: int, label: tuple[str, ...],
                  actions: list[str]) -> str:
        """A player node; returns its information set's name."""
        number, name = self._infoset(player, label)
        acts = " ".join(f'"{a}"' for a in actions)
        self.lines.append(f'{"  " * depth}p "{name}" {player + 1} {number} "{name}" '
                          f'{{ {acts} }} 0')
        self.actions.setdefault(name, actions)
        return name


class _Writer(EfgLines):
    def __init__(self, graph: PublicGraph, horizon: int, exchanges: int, leaf: Leaf,
                 solution: Solution | None, continuations: Continuations | None = None) -> None:
        super().__init__()
        self.graph = graph
        self.horizon = horizon
        self.exchanges = exchanges
        self.leaf = leaf
        self.solution = solution
        self.continuations = continuations
        self.names: dict[int, str] = {}
        self.policy: dict[str, list[float]] = {}
        self.index = {c: k for k, c in enumerate(graph.characters)}

    def _player(self, depth: int, player: int, label: tuple[str, ...],
                actions: list[str], probs: list[float] | None) -> None:
        name = self._decision(depth, player, label, actions)
        if probs is not None:
            self.policy.setdefault(name, probs)

    def root(self, coins: tuple[int, int], first: int) -> None:
        worlds = self.graph.worlds
        self._chance(0, [self.graph.deal_chance(w) for w in worlds])
        for w in worlds:
            game = self.graph.game(w, coins, first)
            labels = tuple((self.graph.characters[w[p]].value,) for p in (0, 1))
            self.walk(game, labels, 1, 0, 0, 0, (w[0], w[1]))

    def _mine(self, node: int, player: int, key: tuple[object, ...], n: int) -> list[float] | None:
        """The solver's probabilities at this information set, if a solution was given."""
        if self.solution is None or node < 0:
            return None
        flow = self.solution.flows[player]
        info = flow.infos[(node, *key)]
        start = int(flow.info_start[info])
        return [float(x) for x in self.solution.strategy[player][start:start + n]]

    def walk(self, game: Game, labels: tuple[tuple[str, ...], ...], depth: int, turns: int,
             swapped: int, node: int, tokens: tuple[int, int]) -> None:
        tree: _Tree | None = self.solution.tree if self.solution else None
        if game.is_over:
            self._terminal(depth, 1.0 if game.winner == 0 else 0.0)
            return
        if game.phase is Phase.ACTION and (turns >= self.horizon or swapped >= self.exchanges):
            cards = tuple(self.index[game.hidden[p][0]] for p in (0, 1))
            if self.continuations is not None:
                self._leaf_game(game, labels, depth, node, tokens, cards)
                return
            self._terminal(depth, float(self.leaf((game.coins[0], game.coins[1]),
                                                  game.decider)[cards]))
            return
        p = game.decider
        moves = game.legal_moves()
        names = [str(m) for m in moves]
        if tree is not None:
            assert tree.kind[node] == DECISION and tree.decider[node] == p
            assert [str(m) for m in tree.moves[node]] == names
        self._player(depth, p, labels[p], names,
                     self._mine(node, p, (tokens[p],), len(moves)))
        for k, move in enumerate(moves):
            child = tree.children[node][k] if tree is not None else -1
            seen = tuple(lab + (names[k],) for lab in labels)
            branches = list(outcomes(game, move))
            after = _resolve(branches[0][1])
            if after.phase is Phase.EXCHANGE and not after.is_over:
                self._exchange(game, move, branches, seen, depth + 1, turns, swapped, child,
                               tokens)
                continue
            self.walk(after, seen, depth + 1, turns + (after.phase is Phase.ACTION), swapped,
                      child if tree is None or tree.kind[child] == DECISION
                      or tree.cut[child] else -1, tokens)

    def _leaf_game(self, game: Game, labels: tuple[tuple[str, ...], ...], depth: int,
                   node: int, tokens: tuple[int, int], cards: tuple[int, ...]) -> None:
        """The horizon as a leaf game: player 0 picks a way of playing on, then player 1,
        in an information set that does not know player 0's pick."""
        assert self.continuations is not None
        v = self.continuations((game.coins[0], game.coins[1]), game.decider)
        k = v.shape[0]
        ways = [f"way {j}" for j in range(k)]
        tree = self.solution.tree if self.solution is not None and node >= 0 else None
        self._player(depth, 0, labels[0] + ("horizon",), ways,
                     self._mine(node, 0, (tokens[0], ()), k) if tree is not None else None)
        # player 1's pick: one information set, so one reading of the solver's strategy
        second = self._mine(tree.children[node][0], 1, (tokens[1], ()), k) \
            if tree is not None else None
        for k0 in range(k):
            self._player(depth + 1, 1, labels[1] + ("horizon",), ways, second)
            for k1 in range(k):
                self._terminal(depth + 2, float(v[k0, k1][cards]))

    def _exchange(self, game: Game, move: object, branches: list[tuple[float, Game]],
                  labels: tuple[tuple[str, ...], ...], depth: int, turns: int, swapped: int,
                  node: int, tokens: tuple[int, int]) -> None:
        """The draw (chance), then the exchanger's choice of card to keep."""
        self._chance(depth, [p for p, _ in branches])
        sw = self.solution.tree.swaps[node] if self.solution and node >= 0 else None
        for _, drawn_game in branches:
            x = drawn_game.decider
            pool = sorted(self.index[c] for c in drawn_game.exchange_pool())
            pool.remove(self.index[game.hidden[x][0]])
            drawn = tuple(pool)
            mine = list(labels)
            mine[x] = labels[x] + ("drew " + "+".join(self.graph.characters[c].value
                                                         for c in drawn),)
            keeps = drawn_game.legal_moves()
            names = [str(m) for m in keeps]
            afters = [_play(drawn_game, keep) for keep in keeps]
            kept_cards = [self.index[a.hidden[x][0]] for a in afters]
            probs = None
            if sw is not None:
                # the solver's slots run in card order; the engine lists its moves by name
                mine_probs = self._mine(node, x, (tokens[x], drawn), len(keeps))
                assert mine_probs is not None
                order = sorted(kept_cards)
                probs = [mine_probs[order.index(c)] for c in kept_cards]
            self._player(depth + 1, x, tuple(mine[x]), names, probs)
            for k, after in enumerate(afters):
                kept = kept_cards[k]
                seen = list(mine)
                seen[x] = mine[x] + (names[k],)
                new_tokens = tokens
                child = -1
                if sw is not None and self.solution is not None:
                    token = next(int(sw.token[j]) for j in range(len(sw.slot_info))
                                 if int(sw.info_state[sw.slot_info[j]]) == tokens[x]
                                 and sw.info_drawn[sw.slot_info[j]] == drawn
                                 and int(sw.slot_kept[j]) == kept)
                    new_tokens = (token, tokens[1]) if x == 0 else (tokens[0], token)
                    child = self.solution.tree.children[node][0]
                    if self.solution.tree.kind[child] != DECISION and \
                            not self.solution.tree.cut[child]:
                        child = -1
                self.walk(after, tuple(seen), depth + 2, turns + (after.phase is Phase.ACTION),
                          swapped + 1, child, new_tokens)


def export(revealed: tuple[Character, Character], coins: tuple[int, int], first: int = 0, *,
           horizon: int = 2, exchanges: int = 1, variant: str = "base",
           leaf: Leaf | None = None, solution: Solution | None = None,
           continuations: Continuations | None = None) -> Export:
    """The end-game as an .efg file; payoffs are 2·(player 0 wins) − 1 for player 0 and the
    negative for player 1 (zero-sum, as OpenSpiel's exploitability expects). With
    `continuations` the horizon is a leaf game, as `hidden.solve` has it."""
    graph = public_graph(revealed, variant)
    writer = _Writer(graph, horizon, exchanges, leaf or known_leaf(graph), solution,
                     continuations)
    writer.root(coins, first)
    head = (f'EFG 2 R "Coup end-game {revealed[0].value}/{revealed[1].value} {coins} '
            f'first {first}" {{ "P1" "P2" }}\n')
    return Export(head + "\n".join(writer.lines) + "\n", writer.policy, writer.actions,
                  len(writer.infosets), writer.outcomes)


__all__ = ["EXCHANGE", "EfgLines", "Export", "export"]
