"""The small collaborative games of Tian et al. 2020, Sec. 6, as full game trees.

Every game here has the same shape, and the representation exploits it:

* one chance move at the root deals a private value to each of the two players (uniformly and
  independently: the *deal* ``d`` is the pair ``(s1, s2)``, numbered ``d = s1 * n2 + s2``);
* after that, every action is public, so the play is a walk down a small **public tree** whose
  shape does not depend on the deal.

A full state (history) is therefore a pair ``(deal, public node)`` plus the root before chance,
and every per-state quantity (reach, value, reward) is a ``[n_deals, n_nodes]`` numpy array.
The information set of the player to move at ``(d, p)`` is ``(player, own private value, p)``.

Games (Sec. 6 and ../shared/notes/jps-notes.md, which records what the authors' code does):

* :func:`comm` -- Simple Communication Game of length L (Def. 1);
* :func:`simple_bidding` -- Simple Bidding of size N (Def. 2);
* :func:`mini_bridge` -- 2-Suit Mini-Bridge of size N (Def. 3; the private value counts hearts,
  as in the authors' code, where Def. 3 counts spades -- the same game with the suits renamed);
* :func:`mini_hanabi` -- the two-step card game of the BAD paper, OpenSpiel's ``tiny_hanabi``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from bidlab.errors import BidlabError

TERMINAL = -1  # player id of a terminal public node
NO_CHILD = -1  # padding in ``Game.children``


class TabularError(BidlabError, ValueError):
    """Bad input to the tabular layer: an unknown game, a size out of range, a malformed policy."""


@dataclass(frozen=True, eq=False)
class Game:
    """A two-player collaborative game with one chance deal and public actions.

    Arrays (read-only by convention):

    * ``priv[i, d]``: private value of player ``i`` (0 = P1, 1 = P2) in deal ``d``;
      ``deal_prob[d]`` the chance probability of ``d``.
    * public nodes ``0..n_nodes-1`` in breadth-first order (node 0 is the public root):
      ``player[p]`` (0, 1 or ``TERMINAL``), ``parent[p]``, ``parent_action[p]``, ``depth[p]``,
      ``n_actions[p]`` and ``children[p, a]`` (``NO_CHILD`` past ``n_actions[p]``).
    * ``reward[d, p]``: the shared payoff at terminal nodes (0 elsewhere).
    * information sets: ``info_offset[p] + s`` is the id of the infoset of the player to move at
      decision node ``p`` holding private value ``s``; ``n_infosets`` actionable infosets.
    """

    name: str
    n_priv: tuple[int, int]
    priv: np.ndarray
    deal_prob: np.ndarray
    player: np.ndarray
    parent: np.ndarray
    parent_action: np.ndarray
    depth: np.ndarray
    n_actions: np.ndarray
    children: np.ndarray
    reward: np.ndarray
    action_names: tuple[tuple[str, ...], ...]
    info_offset: np.ndarray
    n_infosets: int
    n_terminal_keys: int
    levels: tuple[np.ndarray, ...] = field(repr=False)
    group: tuple[np.ndarray, np.ndarray] = field(repr=False)

    @property
    def n_deals(self) -> int:
        return int(self.priv.shape[1])

    @property
    def n_nodes(self) -> int:
        return int(self.player.shape[0])

    @property
    def max_actions(self) -> int:
        return int(self.children.shape[1])

    @property
    def decision_nodes(self) -> np.ndarray:
        return np.flatnonzero(self.player != TERMINAL)

    @property
    def n_states(self) -> int:
        """All histories as Table 1 counts them: the root before chance, decision nodes, terminals."""
        return 1 + self.n_deals * self.n_nodes

    @property
    def n_table1_infosets(self) -> int:
        """Table 1's #Infosets: the chance root, every decision infoset, and the terminal keys."""
        return 1 + self.n_infosets + self.n_terminal_keys

    def infoset_player(self) -> np.ndarray:
        """Player (0/1) owning each actionable infoset."""
        out = np.empty(self.n_infosets, dtype=np.int64)
        for p in self.decision_nodes:
            i = self.player[p]
            out[self.info_offset[p] : self.info_offset[p] + self.n_priv[i]] = i
        return out

    def infoset_node(self) -> np.ndarray:
        """Public node of each actionable infoset."""
        out = np.empty(self.n_infosets, dtype=np.int64)
        for p in self.decision_nodes:
            out[self.info_offset[p] : self.info_offset[p] + self.n_priv[self.player[p]]] = p
        return out

    def infoset_of_states(self, nodes: np.ndarray) -> np.ndarray:
        """``[n_deals, len(nodes)]`` infoset ids of the states ``(d, nodes[k])`` (decision nodes)."""
        pl = self.player[nodes]
        return self.info_offset[nodes][None, :] + self.priv[pl, :].T

    def history(self, p: int) -> list[int]:
        """Public action sequence leading to node ``p``."""
        out: list[int] = []
        while p != 0:
            out.append(int(self.parent_action[p]))
            p = int(self.parent[p])
        return out[::-1]

    def describe_infoset(self, k: int) -> str:
        """Human-readable form of infoset ``k``, e.g. ``P2 s=3 @ 1-2``."""
        if not 0 <= k < self.n_infosets:
            raise TabularError(f"infoset id {k} out of range 0..{self.n_infosets - 1} for {self.name}")
        nodes = self.decision_nodes  # offsets were assigned in node order, so they are sorted
        node = int(nodes[np.searchsorted(self.info_offset[nodes], k, side="right") - 1])
        s = k - int(self.info_offset[node])
        path = []
        q = node
        while q != 0:
            path.append(self.action_names[int(self.parent[q])][int(self.parent_action[q])])
            q = int(self.parent[q])
        return f"P{int(self.player[node]) + 1} s={s} @ {'-'.join(reversed(path)) or 'start'}"


# --------------------------------------------------------------------------------------------
# Construction from rules


Legal = Callable[[tuple[int, ...]], Sequence[int]]
Payoff = Callable[[np.ndarray, np.ndarray, tuple[int, ...]], np.ndarray]


def build_game(
    name: str,
    n_priv: tuple[int, int],
    legal: Legal,
    payoff: Payoff,
    action_name: Callable[[int], str],
    terminal_keys: Callable[[tuple[int, ...]], int],
) -> Game:
    """Enumerate the public tree breadth-first from rule callbacks.

    ``legal(history)`` lists the legal actions (empty at a terminal); the players alternate,
    except that ``legal`` may signal the same player again by returning a pair ``(player,
    actions)``. ``payoff(s1, s2, history)`` gives the terminal reward for arrays of private
    values. ``terminal_keys(history)`` is how many Table 1 infoset keys the terminal adds.
    """
    n1, n2 = n_priv
    s1 = np.repeat(np.arange(n1), n2)
    s2 = np.tile(np.arange(n2), n1)
    priv = np.stack([s1, s2])
    deal_prob = np.full(n1 * n2, 1.0 / (n1 * n2))

    histories: list[tuple[int, ...]] = [()]
    players: list[int] = []
    parents: list[int] = [NO_CHILD]
    parent_actions: list[int] = [NO_CHILD]
    depths: list[int] = [0]
    child_lists: list[list[int]] = []
    action_lists: list[list[int]] = []
    head = 0
    while head < len(histories):
        h = histories[head]
        res = legal(h)
        who, acts = res if isinstance(res, tuple) and len(res) == 2 and isinstance(res[1], list) else (
            len(h) % 2,
            list(res),
        )
        if not acts:
            players.append(TERMINAL)
            child_lists.append([])
            action_lists.append([])
        else:
            players.append(who)
            kids = []
            for a in acts:
                kids.append(len(histories))
                histories.append(h + (a,))
                parents.append(head)
                parent_actions.append(len(kids) - 1)
                depths.append(depths[head] + 1)
            child_lists.append(kids)
            action_lists.append(list(acts))
        head += 1

    n_nodes = len(histories)
    max_a = max(len(k) for k in child_lists)
    children = np.full((n_nodes, max_a), NO_CHILD, dtype=np.int64)
    for p, kids in enumerate(child_lists):
        children[p, : len(kids)] = kids
    player = np.array(players, dtype=np.int64)
    reward = np.zeros((n1 * n2, n_nodes))
    n_terminal_keys = 0
    for p in np.flatnonzero(player == TERMINAL):
        reward[:, p] = payoff(s1, s2, histories[p])
        n_terminal_keys += terminal_keys(histories[p])

    info_offset = np.full(n_nodes, -1, dtype=np.int64)
    k = 0
    for p in range(n_nodes):
        if player[p] != TERMINAL:
            info_offset[p] = k
            k += n_priv[player[p]]

    depth = np.array(depths, dtype=np.int64)
    levels = tuple(
        np.flatnonzero((depth == lv) & (player != TERMINAL)) for lv in range(int(depth.max()) + 1)
    )
    # One-hot grouping matrices: group[i][s, d] = 1 iff player i holds s in deal d.
    group = tuple((priv[i][None, :] == np.arange(n_priv[i])[:, None]).astype(np.float64) for i in (0, 1))
    names = tuple(tuple(action_name(a) for a in acts) for acts in action_lists)
    return Game(
        name=name,
        n_priv=n_priv,
        priv=priv,
        deal_prob=deal_prob,
        player=player,
        parent=np.array(parents, dtype=np.int64),
        parent_action=np.array(parent_actions, dtype=np.int64),
        depth=depth,
        n_actions=np.array([len(k) for k in child_lists], dtype=np.int64),
        children=children,
        reward=reward,
        action_names=names,
        info_offset=info_offset,
        n_infosets=k,
        n_terminal_keys=n_terminal_keys,
        levels=levels,
        group=group,  # type: ignore[arg-type]
    )


def comm(length: int) -> Game:
    """Simple Communication Game of length L (Def. 1).

    P1 holds ``s1`` in ``0..2^L-1`` and sends L public bits, one per move; P2 (no private value)
    then guesses ``s1``; the reward is 1 for a right guess.
    """
    if not 1 <= length <= 8:
        raise TabularError(f"comm: length L must be in 1..8 (2^L deals), got {length}")
    n = 2**length

    def legal(h: tuple[int, ...]):
        if len(h) < length:
            return (0, [0, 1])
        if len(h) == length:
            return (1, list(range(n)))
        return (0, [])

    def payoff(s1, s2, h):
        return (s1 == h[-1]).astype(np.float64)

    return build_game(
        f"comm(L={length})",
        (n, 1),
        legal,
        payoff,
        action_name=str,
        terminal_keys=lambda h: 1,  # key (signals, guess): s1 is not part of it
    )


MINI_HANABI_PAYOFF = np.array(
    # [c1][c2][a1][a2], the BAD paper's two-step game (OpenSpiel tiny_hanabi's default payoff)
    [
        [[[10, 0, 0], [4, 8, 4], [10, 0, 0]], [[0, 0, 10], [4, 8, 4], [0, 0, 10]]],
        [[[0, 0, 10], [4, 8, 4], [0, 0, 0]], [[10, 0, 0], [4, 8, 4], [10, 0, 0]]],
    ],
    dtype=np.float64,
)


def mini_hanabi() -> Game:
    """Mini-Hanabi: each player holds a card in {0, 1}; P1 then P2 play one of 3 actions.

    The payoff table is the BAD paper's (Foerster et al. 2019), the default of OpenSpiel's
    ``tiny_hanabi``; the optimum is 10.
    """

    def legal(h):
        return [0, 1, 2] if len(h) < 2 else []

    def payoff(s1, s2, h):
        return MINI_HANABI_PAYOFF[s1, s2, h[0], h[1]]

    return build_game(
        "mini_hanabi",
        (2, 2),
        legal,
        payoff,
        action_name=str,
        terminal_keys=lambda h: 4,  # the key is the full history: one per deal
    )


def _bid_bits(n: int) -> int:
    return max(1, int(n - 1).bit_length())


def simple_bidding(n: int) -> Game:
    """Simple Bidding of size N (Def. 2).

    ``s1, s2`` uniform on ``0..N-1``. Action 0 is Pass and action ``k >= 1`` bids ``2^(k-1)`` up
    to ``2^K`` with ``K`` the bit length of ``N-1``. P1 opens with a bid (no Pass), bids strictly
    increase, and any later Pass ends the game. The last bid ``v`` scores ``v`` if
    ``v <= s1 + s2``, else 0.
    """
    if not 2 <= n <= 64:
        raise TabularError(f"simple_bidding: N must be in 2..64, got {n}")
    top = _bid_bits(n) + 1  # highest action id

    def legal(h):
        if h and h[-1] == 0:
            return []
        last = h[-1] if h else 0
        bids = list(range(last + 1, top + 1))
        return bids if not h else [0, *bids]

    def payoff(s1, s2, h):
        value = 2 ** (h[-2] - 1)
        return np.where(s1 + s2 >= value, float(value), 0.0)

    return build_game(
        f"simple_bidding(N={n})",
        (n, n),
        legal,
        payoff,
        action_name=lambda a: "P" if a == 0 else str(2 ** (a - 1)),
        terminal_keys=lambda h: n,  # (next player by parity, that player's value, history)
    )


def mini_bridge(n: int) -> Game:
    """2-Suit Mini-Bridge of size N (Def. 3, with the suits as in the authors' code).

    ``s1, s2`` (hearts held) uniform on ``0..N``. Action 0 is Pass, ``2k-1`` is k♥ and ``2k``
    is k♠ for ``k = 1..N``. P1 may open with Pass; any Pass after the first action ends the
    game (Pass-Pass scores 0). k♥ makes if ``s1+s2 >= N+k``, k♠ if ``s1+s2 <= N-k``; made
    scores ``2^(k-1)``, failed scores -1.
    """
    if not 1 <= n <= 8:
        raise TabularError(f"mini_bridge: N must be in 1..8, got {n}")
    top = 2 * n

    def legal(h):
        if len(h) >= 2 and h[-1] == 0:
            return []
        last = max(h) if h else 0
        bids = list(range(last + 1, top + 1))
        return [0, *bids]

    def payoff(s1, s2, h):
        bids = [a for a in h if a != 0]
        if not bids:
            return np.zeros(s1.shape)
        b = bids[-1]
        k = (b + 1) // 2
        made = (s1 + s2 >= n + k) if b % 2 == 1 else (s1 + s2 <= n - k)
        return np.where(made, float(2 ** (k - 1)), -1.0)

    def name(a):
        return "P" if a == 0 else f"{(a + 1) // 2}{'H' if a % 2 == 1 else 'S'}"

    return build_game(
        f"mini_bridge(N={n})",
        (n + 1, n + 1),
        legal,
        payoff,
        action_name=name,
        terminal_keys=lambda h: n + 1,
    )


GAME_BUILDERS: dict[str, Callable[[int], Game]] = {
    "comm": comm,
    "simple_bidding": simple_bidding,
    "mini_bridge": mini_bridge,
}


def make_game(spec: str) -> Game:
    """Build a game from a short spec: ``comm:5``, ``mini_hanabi``, ``simple_bidding:8``, ``mini_bridge:4``."""
    name, _, size = spec.partition(":")
    if name == "mini_hanabi":
        if size:
            raise TabularError(f"game spec {spec!r}: mini_hanabi takes no size")
        return mini_hanabi()
    if name not in GAME_BUILDERS:
        known = ", ".join([*GAME_BUILDERS, "mini_hanabi"])
        raise TabularError(f"game spec {spec!r}: unknown game {name!r} (known: {known})")
    try:
        n = int(size)
    except ValueError:
        raise TabularError(f"game spec {spec!r}: size {size!r} is not an integer") from None
    return GAME_BUILDERS[name](n)
