"""Readability: how often an agent makes the call a reference system (SAYC) would make.

A partner can read a bot's calls only if they mean what the partner's system says they
mean (issue 29). So the measure is agreement with ``sayc``'s call: the agent bids
self-play auctions with itself at all four seats, and at every one of its decisions the
reference is asked what *it* would call in exactly that position (same hand, same
auction). This differs from ``bidlab train accuracy``, which scores a net on positions of
auctions the *teacher* bid: here the positions are the agent's own, the ones a partner
would actually face, including the odd auctions the agent's drift leads to.

Two numbers are reported, with their counts: agreement over every decision, and over the
decisions after the first round (after each player has called once). Openings and first
overcalls are easy to agree on; the later calls (responses, rebids, competition) are where
a drifting policy stops being readable.

The deals are fresh: uniformly random deals from their own seed stream (not the deal
store's test split, nor any training deals), with board numbers 1, 2, … giving dealers and
vulnerabilities by the 16-board cycle, as ``bidlab data expert`` deals them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

import bidlab.search  # noqa: F401  (registers the bmcs:, mcs: and jps: agent kinds)
from bidlab.agents.registry import make_agent
from bidlab.bridge.board import board_vulnerability
from bidlab.cards import random_deals
from bidlab.envs.rollout import Decision, Policy, rollout
from bidlab.envs.state import AuctionState, init
from bidlab.errors import BidlabError

#: Calls made before a decision from which it counts as "after the first round".
FIRST_ROUND_CALLS = 4

#: Tag mixed into the deal seed, so these deals are never the ones another job draws from
#: the same user seed (expert data, self-play).
_DEAL_STREAM = 0xA9EE


class AgreementError(BidlabError):
    """The agreement measure cannot run as asked."""


@dataclass(frozen=True)
class Agreement:
    """Agreement of ``agent`` with ``reference`` over the decisions of ``deals`` self-play auctions."""

    agent: str
    reference: str
    deals: int
    seed: int
    decisions: int
    agreed: int
    later_decisions: int
    later_agreed: int

    @property
    def rate(self) -> float:
        return self.agreed / self.decisions if self.decisions else float("nan")

    @property
    def later_rate(self) -> float:
        return self.later_agreed / self.later_decisions if self.later_decisions else float("nan")

    def line(self) -> str:
        return (f"{self.agent} agrees with {self.reference} on {self.rate:.1%} of {self.decisions} decisions "
                f"({self.agreed}); after the first round {self.later_rate:.1%} of {self.later_decisions} "
                f"({self.later_agreed}); {self.deals} fresh deals, seed {self.seed}")

    def to_json(self) -> dict:
        return dict(asdict(self), rate=self.rate, later_rate=self.later_rate)


def fresh_boards(deals: int, seed: int) -> AuctionState:
    """``deals`` seeded random deals as boards 1..deals (dealer and vulnerability by the cycle)."""
    holders = random_deals(deals, seed=int(np.random.SeedSequence([int(seed), _DEAL_STREAM]).generate_state(1)[0]))
    numbers = np.arange(1, deals + 1)
    vul = np.array([int(board_vulnerability(int(k))) for k in numbers], np.int64)
    return init(holders, (numbers - 1) % 4, vul)


def agreement(agent: Policy | str, reference: Policy | str = "sayc", *, deals: int = 2000, seed: int = 0,
              batch: int = 1000) -> Agreement:
    """Agreement of ``agent`` with ``reference`` on ``deals`` fresh deals (see the module docstring).

    ``agent``/``reference``: policies or agent specs (built with ``seed``). Self-play is bid
    ``batch`` deals at a time through :func:`~bidlab.envs.rollout.rollout`; at each round the
    reference answers all the rows the agent just decided, with one batched ``decide``.
    """
    if deals < 1:
        raise AgreementError(f"deals must be >= 1, got {deals}")
    if batch < 1:
        raise AgreementError(f"batch must be >= 1, got {batch}")
    x = make_agent(agent, seed) if isinstance(agent, str) else agent
    ref = make_agent(reference, seed) if isinstance(reference, str) else reference
    counts = np.zeros(4, np.int64)  # decisions, agreed, later decisions, later agreed

    def compare(_index: int, _rows: np.ndarray, before: AuctionState, d: Decision) -> None:
        theirs = np.asarray(ref.decide(before).calls)
        same = np.asarray(d.calls) == theirs
        later = before.length >= FIRST_ROUND_CALLS
        counts[:] += (len(same), int(same.sum()), int(later.sum()), int(same[later].sum()))

    boards = fresh_boards(deals, seed)
    for start in range(0, deals, batch):
        part = boards.take(np.arange(start, min(start + batch, deals)))
        rollout(part, [x] * 4, inplace=True, on_decision=compare)
    return Agreement(str(getattr(x, "name", agent)), str(getattr(ref, "name", reference)), deals, seed,
                     *(int(c) for c in counts))


__all__ = ["Agreement", "AgreementError", "FIRST_ROUND_CALLS", "agreement", "fresh_boards"]
