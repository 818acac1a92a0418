"""Mixed partnerships: a team of two agents, ``A+B``, is itself a policy over table rows.

A partnership in bridge is two players who may bid differently: a person who plays SAYC
opposite a bot, or a rule bidder opposite a net. To measure how well a bot partners a SAYC
player (cross-play, issue 29), the team ``sayc+nn:rl`` seats ``sayc`` North (or East) and
``nn:rl`` South (or West). Because everything in bidlab bids through
:func:`bidlab.envs.rollout.rollout`, a team needs no special case anywhere: it is one
policy whose :meth:`TeamPolicy.decide` sends each row to the member sitting in the seat of
the player to act there, with one batched ``decide`` per member. A match, the web app, Blue
Chip or the Python API then seat the team like any agent, and the duplicate pairing stays
exact: the same pair at both tables, the seats swapped.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bidlab.agents.base import AgentBase
from bidlab.bridge.calls import Call
from bidlab.envs.rollout import Decision, Policy
from bidlab.envs.state import AuctionState

#: Seats (N, E, S, W = 0..3) whose player is the first member: North and East.
FIRST_MEMBER_SEATS = (0, 1)


def member_index(seat: int) -> int:
    """0 for North and East (the first member of ``A+B``), 1 for South and West."""
    return 0 if int(seat) in FIRST_MEMBER_SEATS else 1


class TeamPolicy(AgentBase):
    """Two policies as one partnership: ``members[0]`` bids for North/East, ``members[1]``
    for South/West. Each answers only its own rows, explains with its own reasons, and the
    team's name is ``"A+B"`` (the specs of its members)."""

    def __init__(self, members: Sequence[Policy], name: str | None = None):
        if len(members) != 2:
            raise ValueError(f"a team has two members, got {len(members)}")
        self.members = tuple(members)
        self.name = name or "+".join(m.name for m in self.members)

    @property
    def deterministic(self) -> bool:
        """True when both members' calls depend only on what they see, so one team object
        may play both teams of a match (as :mod:`bidlab.eval.match` shares a greedy net)."""
        return all(getattr(m, "deterministic", False) for m in self.members)

    def member_for_seat(self, seat: int) -> Policy:
        return self.members[member_index(seat)]

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        if self.members[0] is self.members[1]:  # one object for both seats: one batch
            return self.members[0].decide(state, explain=explain)
        n = state.n
        second = np.isin(state.to_act, FIRST_MEMBER_SEATS, invert=True)
        calls = np.zeros(n, np.int64)
        probs: np.ndarray | None = np.zeros((n, 38), np.float32)
        reasons: list[str] | None = [""] * n if explain else None
        for k, rows in enumerate((np.flatnonzero(~second), np.flatnonzero(second))):
            if rows.size == 0:
                continue
            d = self.members[k].decide(state.take(rows), explain=explain)
            calls[rows] = np.asarray(d.calls)
            # The team has a distribution only if every member that answered gave one.
            if probs is not None and d.probs is not None:
                probs[rows] = np.asarray(d.probs)
            else:
                probs = None
            if reasons is not None:
                for i, t in enumerate(rows.tolist()):
                    reasons[t] = (d.reasons[i] if d.reasons
                                  else f"{Call(int(calls[t]))}: chosen by {self.members[k].name}")
        return Decision(calls, probs, reasons)


__all__ = ["FIRST_MEMBER_SEATS", "TeamPolicy", "member_index"]
