"""Tabular joint policies and their exact evaluation (Tian et al. 2020, Sec. 3 notation).

A joint policy is one array ``sigma[n_infosets, max_actions]``: row ``k`` is the action
distribution at infoset ``k`` (zeros past the infoset's legal actions). Evaluation sweeps the
public tree level by level with every deal at once, giving the total reachability
``pi^sigma(h)`` (chance included), the value ``v^sigma(h)`` of every state, and the game value
``v-bar^sigma = v^sigma(h0)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from bidlab.tabular.games import NO_CHILD, TERMINAL, Game, TabularError


@dataclass(frozen=True, eq=False)
class Level:
    """The decision nodes at one public depth; in these games one player moves at each depth."""

    player: int
    nodes: np.ndarray  # [K]
    children: np.ndarray  # [K, A]; padding points at the zero column ``n_nodes``
    width: int  # A: the most legal actions at a node of this depth
    infosets: np.ndarray  # [n_priv[player], K]: infoset id of (s, node)
    state_infosets: np.ndarray  # [n_deals, K]: infoset id of state (d, node)


@lru_cache(maxsize=32)
def plan(game: Game) -> tuple[Level, ...]:
    """Per-depth index arrays for the vectorized sweeps (cached per game object)."""
    out = []
    for nodes in game.levels:
        if nodes.size == 0:
            continue
        players = np.unique(game.player[nodes])
        if players.size != 1:
            raise TabularError(f"{game.name}: nodes at one depth belong to both players")
        i = int(players[0])
        width = int(game.n_actions[nodes].max())
        kids = game.children[nodes, :width].copy()
        kids[kids == NO_CHILD] = game.n_nodes
        infos = game.info_offset[nodes][None, :] + np.arange(game.n_priv[i])[:, None]
        out.append(
            Level(
                player=i,
                nodes=nodes,
                children=kids,
                width=width,
                infosets=infos,
                state_infosets=game.info_offset[nodes][None, :] + game.priv[i][:, None],
            )
        )
    return tuple(out)


@lru_cache(maxsize=32)
def action_mask(game: Game) -> np.ndarray:
    """``[n_infosets, max_actions]`` boolean: which actions are legal at each infoset."""
    node_of = game.infoset_node()
    return np.arange(game.max_actions)[None, :] < game.n_actions[node_of][:, None]


def uniform_policy(game: Game) -> np.ndarray:
    mask = action_mask(game)
    return mask / mask.sum(axis=1, keepdims=True)


def random_policy(game: Game, rng: np.random.Generator) -> np.ndarray:
    """Each infoset's row uniform on [0, 1) per legal action, normalized (the authors' start)."""
    mask = action_mask(game)
    x = rng.random(mask.shape) * mask
    return x / x.sum(axis=1, keepdims=True)


def random_pure_policy(game: Game, rng: np.random.Generator) -> np.ndarray:
    node_of = game.infoset_node()
    choice = (rng.random(game.n_infosets) * game.n_actions[node_of]).astype(np.int64)
    return one_hot(game, choice)


def one_hot(game: Game, actions: np.ndarray) -> np.ndarray:
    sigma = np.zeros((game.n_infosets, game.max_actions))
    sigma[np.arange(game.n_infosets), actions] = 1.0
    return sigma


def purify(sigma: np.ndarray) -> np.ndarray:
    """One-hot on each row's argmax, the first maximum on ties (Sec. 6: "purifying")."""
    out = np.zeros_like(sigma)
    out[np.arange(sigma.shape[0]), np.argmax(sigma, axis=1)] = 1.0
    return out


def check_policy(game: Game, sigma: np.ndarray, *, atol: float = 1e-9) -> None:
    """Raise :class:`TabularError` unless ``sigma`` is a joint policy of ``game``."""
    shape = (game.n_infosets, game.max_actions)
    if not isinstance(sigma, np.ndarray) or sigma.shape != shape:
        got = getattr(sigma, "shape", type(sigma).__name__)
        raise TabularError(f"policy for {game.name}: expected an array of shape {shape}, got {got}")
    if not np.all(np.isfinite(sigma)) or (sigma < -atol).any():
        k = int(np.flatnonzero(~np.isfinite(sigma).all(1) | (sigma < -atol).any(1))[0])
        raise TabularError(f"policy for {game.name}: infoset {k} has a negative or non-finite probability")
    illegal = np.abs(sigma * ~action_mask(game)).sum(axis=1) > atol
    if illegal.any():
        k = int(np.flatnonzero(illegal)[0])
        raise TabularError(f"policy for {game.name}: infoset {k} ({game.describe_infoset(k)}) "
                           "puts probability on an illegal action")
    bad = np.abs(sigma.sum(axis=1) - 1.0) > 1e-6
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise TabularError(f"policy for {game.name}: infoset {k} ({game.describe_infoset(k)}) "
                           f"sums to {sigma[k].sum():.6g}, not 1")


@dataclass(frozen=True, eq=False)
class Evaluation:
    """Exact quantities of a joint policy: ``reach[d, p] = pi^sigma((d, p))`` with chance
    included, ``v[d, p] = v^sigma((d, p))``; both have a trailing zero column (index
    ``n_nodes``) used as padding. ``value`` is the game value ``v-bar^sigma``."""

    value: float
    reach: np.ndarray
    v: np.ndarray


def state_values(game: Game, sigma: np.ndarray) -> np.ndarray:
    """``v^sigma`` of every state, ``[n_deals, n_nodes + 1]`` (bottom-up sweep)."""
    v = np.zeros((game.n_deals, game.n_nodes + 1))
    v[:, : game.n_nodes] = game.reward
    for lv in reversed(plan(game)):
        pol = sigma[lv.state_infosets, : lv.width]  # [D, K, A]
        v[:, lv.nodes] = np.einsum("dka,dka->dk", pol, v[:, lv.children])
    return v


def reach_probabilities(game: Game, sigma: np.ndarray) -> np.ndarray:
    """``pi^sigma`` of every state, ``[n_deals, n_nodes + 1]`` (top-down sweep)."""
    reach = np.zeros((game.n_deals, game.n_nodes + 1))
    reach[:, 0] = game.deal_prob
    for lv in plan(game):
        pol = sigma[lv.state_infosets, : lv.width]
        reach[:, lv.children] = reach[:, lv.nodes, None] * pol
    reach[:, game.n_nodes] = 0.0
    return reach


def evaluate(game: Game, sigma: np.ndarray) -> Evaluation:
    """Exact evaluation of the joint policy ``sigma``."""
    v = state_values(game, sigma)
    reach = reach_probabilities(game, sigma)
    return Evaluation(value=float(game.deal_prob @ v[:, 0]), reach=reach, v=v)


def game_value(game: Game, sigma: np.ndarray) -> float:
    return float(game.deal_prob @ state_values(game, sigma)[:, 0])


def terminal_mask(game: Game) -> np.ndarray:
    return game.player == TERMINAL
