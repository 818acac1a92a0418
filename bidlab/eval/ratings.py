"""One rating per agent, in IMPs/board, fitted to the pairwise results of a league.

A duplicate match between A and B measures ``m_AB``, A's mean IMPs/board against B, with
a standard error. IMPs are not additive in general, but over a panel of agents of
similar style a linear model ``r_A - r_B ≈ m_AB`` summarises the cross-table in one
number per agent and lets an agent be compared with another it never met (a
Bradley-Terry-style model on the IMP scale instead of the win-probability scale).

The fit is weighted least squares with weights ``1 / SE²``: a match of many boards
counts more than a short one (a search agent's few boards). Only differences are
identified, so one agent, the *anchor*, is fixed at 0 and the others are rated against
it. The covariance of the fitted ratings, ``(Xᵀ W X)⁻¹`` with the match SEs taken as
known, gives each rating's confidence interval relative to the anchor.

A comparison graph that falls apart (no chain of matches between two agents) cannot
place the parts on one scale; :func:`fit_ratings` says which agents are cut off.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bidlab.errors import BidlabError

#: Two-sided 95 % normal quantile, for the confidence intervals.
Z95 = 1.959963984540054


class RatingsError(BidlabError):
    """The pairwise results cannot be turned into ratings (unknown agent, disconnected panel...)."""


@dataclass(frozen=True)
class PairResult:
    """One match: ``agent_a``'s mean IMPs/board against ``agent_b``, its SE and board count."""

    agent_a: str
    agent_b: str
    imps_per_board: float
    standard_error: float
    boards: int

    def flipped(self) -> PairResult:
        """The same match seen from B's side (a match stored as B-A read as A-B)."""
        return PairResult(self.agent_b, self.agent_a, -self.imps_per_board, self.standard_error, self.boards)


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings (IMPs/board against the anchor) with their covariance."""

    agents: tuple[str, ...]
    anchor: str
    rating: np.ndarray       # per agent, in ``agents`` order; the anchor's is 0
    covariance: np.ndarray   # agents x agents; the anchor's row and column are 0
    boards: np.ndarray       # boards each agent played over all its matches
    chi2: float              # weighted residual sum of squares of the fit
    dof: int                 # matches minus free ratings

    def se(self) -> np.ndarray:
        return np.sqrt(np.clip(np.diag(self.covariance), 0.0, None))

    def ci95(self) -> np.ndarray:
        """Half-width of each rating's 95 % confidence interval."""
        return Z95 * self.se()

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """``r_a - r_b`` and its standard error (from the covariance, not the two SEs alone)."""
        i, j = self.agents.index(a), self.agents.index(b)
        var = self.covariance[i, i] + self.covariance[j, j] - 2 * self.covariance[i, j]
        return float(self.rating[i] - self.rating[j]), math.sqrt(max(var, 0.0))


def effective_se(result: PairResult) -> float:
    """The SE a pairing is weighted by.

    Two agents that bid alike (the same weights under two names, or a deterministic agent
    against itself) swing no board, so their measured SE is 0 and their weight would be
    infinite. Such a match is floored at ``1 / sqrt(boards)`` IMPs, the SE of a match whose
    boards vary by one IMP: it still ties the two agents together much more tightly than
    an ordinary match, and the fit stays finite."""
    floor = 1.0 / math.sqrt(max(result.boards, 1))
    se = result.standard_error
    return floor if not math.isfinite(se) or se < floor else se


def choose_anchor(agents: Sequence[str], preferred: str = "sayc") -> str:
    """``preferred`` (``sayc``) when it plays, else the first agent."""
    return preferred if preferred in agents else agents[0]


def _components(agents: Sequence[str], results: Sequence[PairResult]) -> list[list[str]]:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    index = {a: i for i, a in enumerate(agents)}
    rows = [index[r.agent_a] for r in results]
    cols = [index[r.agent_b] for r in results]
    graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(agents), len(agents)))
    n, labels = connected_components(graph, directed=False)
    return [[a for a, lab in zip(agents, labels) if lab == k] for k in range(n)]


def fit_ratings(agents: Sequence[str], results: Sequence[PairResult], anchor: str | None = None) -> Ratings:
    """Weighted least-squares ratings ``r`` with ``r_A - r_B ≈ m_AB`` and ``r[anchor] = 0``.

    ``anchor`` defaults to :func:`choose_anchor` (``sayc``, else the first agent)."""
    agents = tuple(agents)
    if len(set(agents)) != len(agents):
        raise RatingsError(f"an agent is listed twice: {', '.join(agents)}")
    if len(agents) < 2:
        raise RatingsError(f"ratings need at least 2 agents, got {len(agents)}")
    anchor = choose_anchor(agents) if anchor is None else anchor
    if anchor not in agents:
        raise RatingsError(f"anchor {anchor!r} is not one of the agents ({', '.join(agents)})")
    index = {a: i for i, a in enumerate(agents)}
    for r in results:
        for name in (r.agent_a, r.agent_b):
            if name not in index:
                raise RatingsError(f"match {r.agent_a} vs {r.agent_b} names {name!r}, not one of the agents")
        if r.agent_a == r.agent_b:
            raise RatingsError(f"match {r.agent_a} vs itself says nothing about ratings")
        if not math.isfinite(r.imps_per_board):
            raise RatingsError(f"match {r.agent_a} vs {r.agent_b} has no result (IMPs/board {r.imps_per_board})")
    parts = _components(agents, results)
    if len(parts) > 1:
        groups = "; ".join("{" + ", ".join(p) + "}" for p in parts)
        raise RatingsError(f"the matches do not connect all agents, so they cannot be rated on one scale: "
                           f"{len(parts)} separate groups {groups}; play a match between the groups")

    free = [i for i, a in enumerate(agents) if a != anchor]   # columns of the design matrix
    column = {i: k for k, i in enumerate(free)}
    x = np.zeros((len(results), len(free)))
    y = np.empty(len(results))
    w = np.empty(len(results))
    for row, r in enumerate(results):
        i, j = index[r.agent_a], index[r.agent_b]
        if i in column:
            x[row, column[i]] = 1.0
        if j in column:
            x[row, column[j]] = -1.0
        y[row] = r.imps_per_board
        w[row] = 1.0 / effective_se(r) ** 2
    sw = np.sqrt(w)
    beta, *_ = np.linalg.lstsq(x * sw[:, None], y * sw, rcond=None)
    # Known-variance WLS: Cov(beta) = (X' W X)^-1 (the graph is connected, so it is invertible).
    cov_free = np.linalg.inv(x.T @ (x * w[:, None]))
    resid = y - x @ beta
    rating = np.zeros(len(agents))
    rating[free] = beta
    cov = np.zeros((len(agents), len(agents)))
    cov[np.ix_(free, free)] = cov_free
    boards = np.zeros(len(agents), dtype=np.int64)
    for r in results:
        boards[index[r.agent_a]] += r.boards
        boards[index[r.agent_b]] += r.boards
    return Ratings(agents, anchor, rating, cov, boards, float((w * resid**2).sum()), len(results) - len(free))


def plot_ratings(ratings: Ratings, path, title: str = "bidlab league") -> None:
    """Ratings with their 95 % CI bars, best at the top, written as a PNG (or any format
    matplotlib knows from the suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = np.argsort(ratings.rating)
    names = [ratings.agents[i] for i in order]
    fig, ax = plt.subplots(figsize=(6.5, 0.45 * len(names) + 1.5))
    ax.errorbar(ratings.rating[order], range(len(names)), xerr=ratings.ci95()[order], fmt="o", capsize=4)
    # The numbers beside the points: an outlier (random, ~-18) squeezes the others together.
    for y, i in enumerate(order):
        label = "anchor" if ratings.agents[i] == ratings.anchor else \
            f"{ratings.rating[i]:+.2f} ± {ratings.ci95()[i]:.2f}"
        ax.annotate(label, (ratings.rating[i], y), xytext=(0, 7), textcoords="offset points",
                    ha="center", fontsize=7)
    ax.axvline(0.0, color="grey", lw=0.8, ls="--")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel(f"rating, IMPs/board vs {ratings.anchor} (95 % CI)")
    ax.set_title(title, fontsize=10)
    ax.margins(x=0.08)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
