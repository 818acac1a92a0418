"""``rollout``: bid many tables to the end, any policy at any seat — the one path for every auction.

Matches, expert data, self-play actors, search rollouts and the web app's bots all bid
through :func:`rollout`. Each round, every live table has one player to act; the tables are
grouped by the policy sitting in that seat, and each policy answers all of its tables with
one :meth:`Policy.decide` call (one forward pass for a net), then every table steps at once.
Policies are grouped by object, not by index: a policy object listed more than once in
``policies`` (the same agent for both teams of a self-play match, ``duplicate(a, a)``)
answers all of its rows in one call, so a net gets its whole batch at once and can
compute repeated observations once (the two rooms of a duplicate match by one greedy net
bid identically; see :mod:`bidlab.agents.neural`). ``on_decision`` still sees each index's
rows separately.

A seat may also hold no policy (index -1 in ``seat_policy``): a person, or anyone outside.
A table whose player to act has no policy pauses, and :func:`rollout` returns once every
table is over or paused.

Scoring: :func:`score` gives each finished table's contract, declarer's tricks and
North-South's score, with the tricks from stored double-dummy tables (the deal store's
layout) or from a callback that solves only the contracts reached (a search's DD cache).
:func:`duplicate` bids the same deals at two tables with the policies swapped and returns
the IMPs, as a duplicate match scores them (Qiu et al. Sec. VI).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from bidlab.envs.scoring import dd_tricks, imps_array, ns_scores
from bidlab.envs.state import AuctionState, Contracts, contracts, init, step_
from bidlab.errors import BidlabError

HUMAN = -1
"""``seat_policy`` entry of a seat that no policy bids for: the table pauses there."""


class PolicyError(BidlabError):
    """A policy answered with something that is not a legal call for every row it was asked."""


@dataclass(frozen=True)
class Decision:
    """A policy's answer for a batch of rows.

    ``calls``: ``int64[n]`` call ids. ``probs``: ``float32[n, 38]`` the legal-masked
    distribution the calls came from, or None for a policy without one (rules).
    ``reasons``: one text per row when the caller asked for explanations, else None.
    """

    calls: np.ndarray
    probs: np.ndarray | None = None
    reasons: list[str] | None = None


@runtime_checkable
class Policy(Protocol):
    """A bidder over table rows. ``name`` is its registry spec (``"sayc"``, ``"nn:sl"``...).

    ``decide`` gets the rows where the policy is to act and may read only what the player to
    act may see there: its own hand, the auction, dealer and vulnerability.
    """

    name: str

    def decide(self, state: AuctionState, explain: bool = False) -> Decision: ...


OnDecision = Callable[[int, np.ndarray, AuctionState, Decision], None]
"""``on_decision(policy index, table rows, the rows' state before the call, decision)``."""


def rollout(state: AuctionState, policies: Sequence[Policy], seat_policy=None, *,
            inplace: bool = False, on_decision: OnDecision | None = None,
            max_rounds: int | None = None) -> AuctionState:
    """Bid every table of ``state`` until it is over (or paused at a seat with no policy).

    ``policies``: the policies at the tables. ``seat_policy``: ``int[n, 4]`` (or ``int[4]``
    for every table), the index into ``policies`` of the policy at each seat N, E, S, W of
    each table, :data:`HUMAN` for none; by default ``policies`` are the four seats N, E, S, W.
    ``on_decision`` sees every batch of decisions before it is applied (self-play actors
    record transitions there). ``max_rounds`` stops after that many calls per table.
    Returns the final state (``state`` itself with ``inplace``, else a new one).
    """
    if not inplace:
        state = state.copy()
    n = state.n
    sp = _seat_policy(seat_policy, policies, n)
    rounds = 0
    calls = np.empty(n, np.int64)
    rows_all = np.arange(n)
    # group[i]: the first index in ``policies`` of the object at index i (one decide per object).
    first_index = {}
    group = np.array([first_index.setdefault(id(p), i) for i, p in enumerate(policies)] + [HUMAN], np.int64)
    while max_rounds is None or rounds < max_rounds:
        who = sp[rows_all, state.to_act]
        who[state.done] = HUMAN
        if not (who >= 0).any():
            break
        calls.fill(-1)
        who_group = group[who]  # HUMAN (-1) maps to the last entry, HUMAN
        for g in np.unique(who_group[who_group >= 0]):
            rows = np.flatnonzero(who_group == g)
            sub = state.take(rows)
            policy = policies[g]
            d = policy.decide(sub)
            c = np.asarray(d.calls)
            if c.shape != (len(rows),):
                raise PolicyError(f"policy {policy.name} answered {c.shape} calls for {len(rows)} tables")
            if not sub.legal[np.arange(len(rows)), c].all():
                t = int(np.flatnonzero(~sub.legal[np.arange(len(rows)), c])[0])
                raise PolicyError(f"policy {policy.name} made the illegal call id {int(c[t])} "
                                  f"after {sub.auction(t)}")
            if on_decision is not None:
                _report(on_decision, who[rows], rows, sub, d)
            calls[rows] = c
        step_(state, calls)
        rounds += 1
    return state


def _report(on_decision: OnDecision, index: np.ndarray, rows: np.ndarray, sub: AuctionState,
            d: Decision) -> None:
    """Call ``on_decision`` once per policy index among one object's rows (in index order)."""
    indices = np.unique(index)
    if len(indices) == 1:
        on_decision(int(indices[0]), rows, sub, d)
        return
    for p in indices:
        k = np.flatnonzero(index == p)
        on_decision(int(p), rows[k], sub.take(k),
                    Decision(np.asarray(d.calls)[k], None if d.probs is None else np.asarray(d.probs)[k],
                             None if d.reasons is None else [d.reasons[i] for i in k]))


def _seat_policy(seat_policy, policies: Sequence[Policy], n: int) -> np.ndarray:
    if seat_policy is None:
        if len(policies) != 4:
            raise PolicyError(f"without seat_policy, give four policies (N, E, S, W), got {len(policies)}")
        seat_policy = np.arange(4)
    sp = np.asarray(seat_policy, dtype=np.int64)
    if sp.shape == (4,):
        sp = np.broadcast_to(sp, (n, 4))
    if sp.shape != (n, 4):
        raise PolicyError(f"seat_policy must have shape ({n}, 4) or (4,), got {sp.shape}")
    if sp.size and (sp.max() >= len(policies) or sp.min() < HUMAN):
        raise PolicyError(f"seat_policy holds indices outside -1..{len(policies) - 1}")
    return sp


# -- scoring ----------------------------------------------------------------------------------

TrickSolver = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""``solve(deals uint8[k, 52], declarer int[k], strain int[k]) -> tricks int[k]``."""


@dataclass(frozen=True)
class Scores:
    """Finished tables scored: the contract, declarer's tricks (-1 passed out), NS score."""

    contracts: Contracts
    tricks: np.ndarray
    ns_score: np.ndarray


def score(state: AuctionState, dd: np.ndarray | None = None, solve: TrickSolver | None = None) -> Scores:
    """Score every table's final contract with declarer taking its double-dummy tricks, from
    stored tables ``dd`` (``uint8[n, 4, 5]``, one per table) or by ``solve`` on the
    contracts reached (passed-out tables are not solved)."""
    if not state.done.all():
        raise PolicyError(f"{int((~state.done).sum())} tables are still bidding; finish them before scoring")
    c = contracts(state)
    if dd is not None:
        tricks = dd_tricks(np.asarray(dd), c.declarer, c.strain)
    elif solve is not None:
        tricks = np.full(state.n, -1, np.int8)
        played = np.flatnonzero(c.level > 0)
        if played.size:
            tricks[played] = np.asarray(solve(state.deals[played], c.declarer[played], c.strain[played]))
    else:
        raise PolicyError("score needs stored dd tables or a solve callback")
    ns = ns_scores(c.level, c.strain, c.doubled, c.declarer, tricks, state.vulnerability)
    return Scores(c, tricks, ns)


@dataclass(frozen=True)
class Duplicate:
    """Both tables of every board: A sits North-South in the open room and East-West in the
    closed room; ``imps`` is A's result, ``imps(NS open - NS closed)``."""

    open: AuctionState
    closed: AuctionState
    open_scores: Scores
    closed_scores: Scores
    imps: np.ndarray


def duplicate(deals, dealer, vulnerability, a: Policy, b: Policy, *, dd: np.ndarray | None = None,
              solve: TrickSolver | None = None, on_decision: OnDecision | None = None) -> Duplicate:
    """Bid ``deals`` at two tables (A NS / B EW, then B NS / A EW) in one rollout, and score."""
    start = init(deals, dealer, vulnerability)
    n = start.n
    both = init(np.concatenate([start.deals, start.deals]), np.tile(start.dealer, 2),
                np.tile(start.vulnerability, 2))
    seat_policy = np.empty((2 * n, 4), np.int64)
    seat_policy[:n] = (0, 1, 0, 1)
    seat_policy[n:] = (1, 0, 1, 0)
    end = rollout(both, [a, b], seat_policy, inplace=True, on_decision=on_decision)
    table_dd = None if dd is None else np.concatenate([dd, dd])
    s = score(end, table_dd, solve)
    open_, closed = end.take(np.arange(n)), end.take(np.arange(n, 2 * n))

    def half(k: slice) -> Scores:
        c = s.contracts
        return Scores(Contracts(c.level[k], c.strain[k], c.doubled[k], c.declarer[k]), s.tricks[k], s.ns_score[k])

    so, sc = half(slice(0, n)), half(slice(n, 2 * n))
    return Duplicate(open_, closed, so, sc, imps_array(so.ns_score.astype(np.int64) - sc.ns_score))
