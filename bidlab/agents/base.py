"""The policy interface: every agent (rules, net, search) is a policy over table rows.

A policy (:class:`~bidlab.envs.rollout.Policy`, defined beside ``rollout``) answers a
batch of tables at once: ``decide`` takes an :class:`~bidlab.envs.state.AuctionState` (the
rows where it is to act) and returns a :class:`~bidlab.envs.rollout.Decision`: one call per row, optionally the probability vector it drew the call
from, and, when asked, a reason per row. :func:`bidlab.envs.rollout.rollout` bids every
auction of bidlab through this one method (matches, expert data, self-play, search
rollouts, the web app).

A policy may read only what the player to act may see: its own hand
(``state.deals[t] == state.to_act[t]``), the auction, the dealer and vulnerability (the
480 observation holds exactly that). The other hands are in the state because search
policies inject sampled hands there and self-play value nets read them for training, never
to choose a call.

For one position at a time (the Blue Chip client, a person's table), :meth:`AgentBase.act`
and :meth:`AgentBase.explain` take a :class:`BiddingView` and go through the same
``decide``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import Call
from bidlab.cards import Hand, Seat
from bidlab.envs.rollout import Decision, Policy
from bidlab.envs.state import AuctionState, random_calls, views_state


@dataclass(frozen=True, slots=True)
class BiddingView:
    """One player's view of an auction in progress (one table row, as a value)."""

    seat: Seat
    hand: Hand
    auction: Auction
    vulnerability: Vulnerability

    @property
    def dealer(self) -> Seat:
        return self.auction.dealer

    @property
    def we_vulnerable(self) -> bool:
        return self.vulnerability.is_vulnerable(self.seat)

    @property
    def they_vulnerable(self) -> bool:
        return self.vulnerability.is_vulnerable(self.seat.lho)


_CARD_BITS = np.left_shift(1, np.arange(52, dtype=np.int64))
_SEATS = tuple(Seat)
_VULS = tuple(Vulnerability)


def views_of(state: AuctionState) -> list[BiddingView]:
    """Every row as the view of its player to act (hands gathered for all rows at once)."""
    masks = ((state.deals == state.to_act[:, None]).astype(np.int64) @ _CARD_BITS).tolist()
    return [BiddingView(_SEATS[s], Hand.from_mask(m), state.auction(t), _VULS[v])
            for t, (s, m, v) in enumerate(zip(state.to_act.tolist(), masks, state.vulnerability.tolist()))]


def view_of(state: AuctionState, t: int) -> BiddingView:
    """Row ``t`` as the view of the player to act."""
    return views_of(state.take([t]))[0]


class AgentBase:
    """A policy with the scalar conveniences :meth:`act` and :meth:`explain` for one view."""

    name = "agent"

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:  # pragma: no cover
        raise NotImplementedError

    def act(self, view: BiddingView) -> Call:
        return Call(int(self.decide(views_state([view])).calls[0]))

    def act_batch(self, views: Sequence[BiddingView]) -> list[Call]:
        if not views:
            return []
        return [Call(int(c)) for c in self.decide(views_state(list(views))).calls]

    def explain(self, view: BiddingView) -> str:
        d = self.decide(views_state([view]), explain=True)
        return d.reasons[0] if d.reasons else f"{Call(int(d.calls[0]))}: chosen by {self.name}"


class ViewPolicy(AgentBase):
    """A policy that decides one view at a time (rule-based bidders): ``decide`` rebuilds
    each row's view and asks :meth:`call_and_reason`. A subclass overrides either
    :meth:`call_and_reason` or :meth:`act`."""

    def call_and_reason(self, view: BiddingView) -> tuple[Call, str]:
        call = self.act(view)
        return call, f"{call}: chosen by {self.name}"

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        calls = np.empty(state.n, np.int64)
        reasons = [] if explain else None
        for t, view in enumerate(views_of(state)):
            call, reason = self.call_and_reason(view)
            calls[t] = call.id
            if explain:
                reasons.append(reason)
        return Decision(calls, None, reasons)

    def act(self, view: BiddingView) -> Call:
        return self.call_and_reason(view)[0]

    def explain(self, view: BiddingView) -> str:
        return self.call_and_reason(view)[1]


class RandomAgent(AgentBase):
    """Uniformly random legal calls, from an explicit seed."""

    def __init__(self, seed: int | None = 0):
        self.name = "random"
        self._rng = np.random.default_rng(seed)

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        calls = random_calls(state, self._rng)
        probs = state.legal / np.maximum(state.legal.sum(axis=1, keepdims=True), 1)
        reasons = None
        if explain:
            reasons = [f"{Call(int(c))}: uniformly random among {int(state.legal[t].sum())} legal calls"
                       for t, c in enumerate(calls)]
        return Decision(calls, probs.astype(np.float32), reasons)

    def act(self, view: BiddingView) -> Call:
        # one view (a person's table, a Blue Chip seat): no array state needed
        legal = view.auction.legal_calls()
        return legal[int(self._rng.random() * len(legal))]


Agent = Policy
"""Older name of :class:`~bidlab.envs.rollout.Policy`."""

__all__ = ["Agent", "AgentBase", "BiddingView", "Decision", "Policy", "RandomAgent", "ViewPolicy", "view_of", "views_of"]
