"""Policy-change density (Tian et al. 2020, Sec. 4.1, Eqs. 3 and 5; Theorem 1).

For a change of joint policy ``sigma -> sigma'`` the density at a non-terminal state is

    rho(h) = pi^{sigma'}(h) [ sum_a sigma'(I(h), a) v^sigma(ha) - v^sigma(h) ]        (Eq. 5)

equivalently ``rho(h) = -c(h) + sum_a c(ha)`` with ``c(h) = (pi^{sigma'}(h) - pi^sigma(h))
v^sigma(h)`` (Eq. 3). It vanishes where the policy does not change (Lemma 1), and its sum over
the infosets where ``sigma' != sigma`` is the exact change of game value (Theorem 1). The chance
root never changes, so its density is 0 and it is left out.
"""

from __future__ import annotations

import numpy as np

from bidlab.tabular.evaluate import plan, reach_probabilities, state_values
from bidlab.tabular.games import Game


def density(game: Game, sigma: np.ndarray, sigma_new: np.ndarray) -> np.ndarray:
    """``rho^{sigma, sigma'}`` of every state by Eq. 5, ``[n_deals, n_nodes]`` (0 at terminals)."""
    v = state_values(game, sigma)
    reach_new = reach_probabilities(game, sigma_new)
    rho = np.zeros((game.n_deals, game.n_nodes))
    for lv in plan(game):
        pol_new = sigma_new[lv.state_infosets, : lv.width]
        expected = np.einsum("dka,dka->dk", pol_new, v[:, lv.children])
        rho[:, lv.nodes] = reach_new[:, lv.nodes] * (expected - v[:, lv.nodes])
    return rho


def density_eq3(game: Game, sigma: np.ndarray, sigma_new: np.ndarray) -> np.ndarray:
    """The same density through the cost ``c`` of Eq. 3 (used to cross-check Eq. 5)."""
    v = state_values(game, sigma)
    cost = (reach_probabilities(game, sigma_new) - reach_probabilities(game, sigma)) * v
    cost[:, game.n_nodes] = 0.0
    rho = np.zeros((game.n_deals, game.n_nodes))
    for lv in plan(game):
        rho[:, lv.nodes] = -cost[:, lv.nodes] + cost[:, lv.children].sum(axis=2)
    return rho


def infoset_density(game: Game, sigma: np.ndarray, sigma_new: np.ndarray) -> np.ndarray:
    """``J(I) = sum_{h in I} rho(h)`` for every actionable infoset (Sec. 5.2's notation)."""
    rho = density(game, sigma, sigma_new)
    out = np.zeros(game.n_infosets)
    for lv in plan(game):
        out[lv.infosets] = game.group[lv.player] @ rho[:, lv.nodes]
    return out


def changed_infosets(sigma: np.ndarray, sigma_new: np.ndarray, atol: float = 0.0) -> np.ndarray:
    """The active set ``I(sigma, sigma') = {I : sigma(I) != sigma'(I)}`` as a boolean mask."""
    return (np.abs(sigma - sigma_new) > atol).any(axis=1)


def value_change_by_density(game: Game, sigma: np.ndarray, sigma_new: np.ndarray) -> float:
    """``v-bar^{sigma'} - v-bar^sigma`` by Theorem 1: density summed over the changed infosets only."""
    j = infoset_density(game, sigma, sigma_new)
    return float(j[changed_infosets(sigma, sigma_new)].sum())
