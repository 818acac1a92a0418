"""The agent protocol: what a bidder sees and how it answers.

An agent sees a :class:`BiddingView` (its own hand and seat, the board's dealer and
vulnerability, the auction so far: exactly one player's information set) and returns a
legal :class:`~bidlab.bridge.Call`. ``act_batch`` answers many views at once; neural
agents override it to make one batched forward pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import Call
from bidlab.cards import Hand, Seat


@dataclass(frozen=True, slots=True)
class BiddingView:
    """One player's view of an auction in progress."""

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


@runtime_checkable
class Agent(Protocol):
    """A bidder. ``name`` is its registry spec (e.g. ``"sayc"``, ``"nn:model.safetensors"``)."""

    name: str

    def act(self, view: BiddingView) -> Call: ...

    def act_batch(self, views: Sequence[BiddingView]) -> list[Call]: ...

    def explain(self, view: BiddingView) -> str: ...


class AgentBase:
    """Convenience base: ``act_batch`` loops over ``act``; ``explain`` says nothing special."""

    name = "agent"

    def act(self, view: BiddingView) -> Call:  # pragma: no cover - abstract
        raise NotImplementedError

    def act_batch(self, views: Sequence[BiddingView]) -> list[Call]:
        return [self.act(v) for v in views]

    def explain(self, view: BiddingView) -> str:
        return f"{self.act(view)}: chosen by {self.name}"


class RandomAgent(AgentBase):
    """Uniformly random legal calls, from an explicit seed."""

    def __init__(self, seed: int | None = 0):
        self.name = "random"
        self._rng = np.random.default_rng(seed)

    def act(self, view: BiddingView) -> Call:
        legal = view.auction.legal_calls()
        return legal[int(self._rng.integers(len(legal)))]

    def explain(self, view: BiddingView) -> str:
        return f"{self.act(view)}: uniformly random among {len(view.auction.legal_calls())} legal calls"
