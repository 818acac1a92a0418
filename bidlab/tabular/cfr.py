"""Vanilla CFR with purification ("CFR1k" of Tian et al. 2020, Table 1).

As in the authors' ``cfr_opt.h`` (../shared/notes/jps-notes.md, Sec. 2):

* start from a random normalized strategy (seeded);
* every iteration updates both players simultaneously: the instantaneous regret
  ``v(ha) - v(h)`` at each state is weighted by the reach of the *other* player and chance
  (Zinkevich et al. 2007), summed into the infoset, and the next strategy is regret matching on
  the cumulative regret;
* if an infoset has no positive regret, its next strategy is uniform plus N(0, 0.01) noise,
  clipped at 0 and renormalized (the code's exploration);
* after T iterations the **last iterate** is purified (one-hot on its argmax, first maximum
  on ties); Table 1's CFR1k row is the value of that pure policy. The "raw" CFR number is the
  mean root value over the iterations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bidlab.tabular.evaluate import action_mask, game_value, plan, purify, random_policy, state_values
from bidlab.tabular.games import Game, TabularError


@dataclass(frozen=True)
class CFRConfig:
    """Hyperparameters of CFR1k. The paper and the authors' code use 1,000 iterations."""

    iterations: int = 1000
    explore_noise: float = 0.01  # std of the noise added to the uniform fallback

    @classmethod
    def paper(cls) -> CFRConfig:
        return cls()

    @classmethod
    def cpu(cls) -> CFRConfig:
        return cls()  # CFR1k is cheap enough on 2 cores for every Table 1 game

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise TabularError(f"CFRConfig.iterations must be >= 1, got {self.iterations}")
        if self.explore_noise < 0:
            raise TabularError(f"CFRConfig.explore_noise must be >= 0, got {self.explore_noise}")


@dataclass(frozen=True, eq=False)
class CFRResult:
    last_iterate: np.ndarray  # the unpurified final strategy (JPS's starting point in the code)
    purified: np.ndarray
    raw_value: float  # mean over iterations of the root value
    last_value: float  # value of the unpurified last iterate
    purified_value: float  # Table 1's "CFR1k"


def regret_matching(
    cum_regret: np.ndarray, mask: np.ndarray, rng: np.random.Generator, noise: float
) -> np.ndarray:
    """Next strategy from cumulative regrets, with the noisy-uniform fallback of the code."""
    pos = np.maximum(cum_regret, 0.0) * mask
    total = pos.sum(axis=1, keepdims=True)
    sigma = np.divide(pos, total, out=np.zeros_like(pos), where=total > 0)
    stuck = total[:, 0] <= 0
    if stuck.any():
        m = mask[stuck]
        fallback = m / m.sum(axis=1, keepdims=True)
        if noise > 0:
            fallback = np.maximum(fallback + rng.normal(0.0, noise, size=fallback.shape) * m, 0.0)
            sums = fallback.sum(axis=1, keepdims=True)
            fallback = np.where(sums > 0, fallback / np.where(sums > 0, sums, 1.0), m / m.sum(1, keepdims=True))
        sigma[stuck] = fallback
    return sigma


@dataclass(frozen=True, eq=False)
class _EdgeLevel:
    """The decision nodes at one depth and their outgoing edges. Breadth-first numbering makes
    the children of a depth's nodes one contiguous block ``lo:hi``, so per-edge arrays are slices
    and per-node sums are ``np.add.reduceat`` -- no padding, no gathers over deals."""

    player: int
    nodes: np.ndarray  # [K]
    lo: int
    hi: int
    parent: np.ndarray  # [E]: index into ``nodes`` of each edge's source
    action: np.ndarray  # [E]: action index of each edge
    starts: np.ndarray  # [K]: first edge of each node
    infosets: np.ndarray  # [n_i, E]: infoset id of (private value, edge source)


def _edge_levels(game: Game) -> list[_EdgeLevel]:
    out = []
    for lv in plan(game):
        kids = np.concatenate([game.children[p, : game.n_actions[p]] for p in lv.nodes])
        lo, hi = int(kids[0]), int(kids[-1]) + 1
        if not np.array_equal(kids, np.arange(lo, hi)):
            raise TabularError(f"{game.name}: children of depth-{game.depth[lv.nodes[0]]} nodes are not contiguous")
        parent = np.repeat(np.arange(lv.nodes.size), game.n_actions[lv.nodes])
        starts = np.concatenate([[0], np.cumsum(game.n_actions[lv.nodes])[:-1]])
        action = np.arange(parent.size) - starts[parent]
        infos = game.info_offset[lv.nodes][parent][None, :] + np.arange(game.n_priv[lv.player])[:, None]
        out.append(_EdgeLevel(lv.player, lv.nodes, lo, hi, parent, action, starts, infos))
    return out


def _check_product_deals(game: Game) -> None:
    n1, n2 = game.n_priv
    ok = (
        game.n_deals == n1 * n2
        and np.array_equal(game.priv[0], np.repeat(np.arange(n1), n2))
        and np.array_equal(game.priv[1], np.tile(np.arange(n2), n1))
        and np.allclose(game.deal_prob, 1.0 / (n1 * n2))
    )
    if not ok:
        raise TabularError(f"{game.name}: CFR here needs uniform independent private values")


def own_reach(game: Game, sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each player's own contribution to reach, ``own[i][s, p]`` for private value ``s``: the
    product of player ``i``'s action probabilities on the path to ``p`` (it depends on the deal
    only through ``i``'s own value, which keeps it small)."""
    own = tuple(np.ones((game.n_priv[i], game.n_nodes + 1)) for i in (0, 1))
    for lv in plan(game):
        i = lv.player
        own[i][:, lv.children] = own[i][:, lv.nodes, None] * sigma[lv.infosets, : lv.width]
        own[1 - i][:, lv.children] = own[1 - i][:, lv.nodes, None]
    return own


def run_cfr(game: Game, seed: int, config: CFRConfig | None = None) -> CFRResult:
    """Run vanilla CFR for ``config.iterations`` iterations from a seeded random start.

    Values are kept as ``V[s1, s2, node]`` and strategies/regrets per depth as
    ``[private value, edge]`` arrays (see :class:`_EdgeLevel`), which makes an iteration a few
    dense numpy operations per depth."""
    config = config or CFRConfig()
    _check_product_deals(game)
    rng = np.random.default_rng(seed)
    n1, n2 = game.n_priv
    chance = 1.0 / (n1 * n2)
    levels = _edge_levels(game)
    sigma0 = random_policy(game, rng)
    sig = [sigma0[lv.infosets, lv.action[None, :]] for lv in levels]
    regret = [np.zeros_like(x) for x in sig]
    n_act = [game.n_actions[lv.nodes][lv.parent].astype(np.float64) for lv in levels]
    # Node-major layouts keep every per-depth slice contiguous: values[node, s1, s2],
    # own[i][node, s_i], strategies and regrets [edge, s_i].
    values = np.ascontiguousarray(np.moveaxis(game.reward.reshape(n1, n2, game.n_nodes), 2, 0))
    own = [np.ones((game.n_nodes, n1)), np.ones((game.n_nodes, n2))]
    sig = [np.ascontiguousarray(x.T) for x in sig]
    regret = [np.zeros_like(x) for x in sig]
    src = [lv.nodes[lv.parent] for lv in levels]  # source node of each edge
    n_act = [x[:, None] for x in n_act]
    value_sum = 0.0
    for _ in range(config.iterations):
        for lv, x, e_src in zip(levels, sig, src, strict=True):  # own reach, top-down
            i = lv.player
            own[i][lv.lo : lv.hi] = own[i][e_src] * x
            own[1 - i][lv.lo : lv.hi] = own[1 - i][e_src]
        for lv, x, r in zip(reversed(levels), reversed(sig), reversed(regret), strict=True):
            child = values[lv.lo : lv.hi]  # [E, n1, n2]
            weighted = child * (x[:, :, None] if lv.player == 0 else x[:, None, :])
            node_v = np.add.reduceat(weighted, lv.starts, axis=0)  # [K, n1, n2]
            values[lv.nodes] = node_v
            # regret of edge (h, a): sum over the infoset's states of pi_{-i}(h) (v(ha) - v(h)),
            # where pi_{-i}(h) = chance x the other player's own reach at the edge's source node
            if lv.player == 0:
                w = own[1][lv.nodes]  # [K, n2]
                r += chance * (np.einsum("ej,eij->ei", w[lv.parent], child)
                               - np.einsum("kj,kij->ki", w, node_v)[lv.parent])
            else:
                w = own[0][lv.nodes]  # [K, n1]
                r += chance * (np.einsum("ei,eij->ej", w[lv.parent], child)
                               - np.einsum("ki,kij->kj", w, node_v)[lv.parent])
        value_sum += chance * float(values[0].sum())
        for k, lv in enumerate(levels):  # regret matching with the noisy-uniform fallback
            pos = np.maximum(regret[k], 0.0)
            total = np.add.reduceat(pos, lv.starts, axis=0)  # [K, n_i]
            stuck = total <= 0
            x = pos / np.where(stuck, 1.0, total)[lv.parent]
            if stuck.any():
                fb = 1.0 / n_act[k] + rng.normal(0.0, config.explore_noise, size=pos.shape) * (
                    config.explore_noise > 0
                )
                fb = np.maximum(fb, 0.0)
                fb_total = np.add.reduceat(fb, lv.starts, axis=0)
                fb = np.where(fb_total[lv.parent] > 0, fb / np.where(fb_total > 0, fb_total, 1.0)[lv.parent],
                              1.0 / n_act[k])
                x = np.where(stuck[lv.parent], fb, x)
            sig[k] = x
    sig = [x.T for x in sig]
    sigma = np.zeros((game.n_infosets, game.max_actions))
    for lv, x in zip(levels, sig, strict=True):
        sigma[lv.infosets, lv.action[None, :]] = x
    return _result(game, sigma, value_sum / config.iterations)


def _result(game: Game, sigma: np.ndarray, raw_value: float) -> CFRResult:
    """The last iterate, its purification, and their values."""
    pure = purify(sigma)
    return CFRResult(last_iterate=sigma, purified=pure, raw_value=raw_value,
                     last_value=game_value(game, sigma), purified_value=game_value(game, pure))


def run_cfr_reference(game: Game, seed: int, config: CFRConfig | None = None) -> CFRResult:
    """Straightforward CFR over ``[deal, node, action]`` arrays; the same algorithm as
    :func:`run_cfr` (kept to cross-check it in tests), without the exploration noise."""
    config = config or CFRConfig()
    rng = np.random.default_rng(seed)
    mask = action_mask(game)
    sigma = random_policy(game, rng)
    cum_regret = np.zeros_like(sigma)
    levels = plan(game)
    value_sum = 0.0
    for _ in range(config.iterations):
        v = state_values(game, sigma)
        value_sum += float(game.deal_prob @ v[:, 0])
        own = own_reach(game, sigma)
        for lv in levels:
            i = lv.player
            # pi_{-i}(h) for h = (d, node): chance x the other player's own reach.
            w = game.deal_prob[:, None] * own[1 - i][game.priv[1 - i]][:, lv.nodes]  # [D, K]
            inst = (v[:, lv.children] - v[:, lv.nodes, None]) * w[:, :, None]
            d, k, a = inst.shape
            per_infoset = (game.group[i] @ inst.reshape(d, k * a)).reshape(-1, k, a)
            cum_regret[lv.infosets, : lv.width] += per_infoset
        sigma = regret_matching(cum_regret, mask, rng, 0.0)
    return _result(game, sigma, value_sum / config.iterations)
