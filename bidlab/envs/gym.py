"""Gymnasium adapter: one auction table, the agent bidding for one partnership.

Needs the optional ``gymnasium`` package (``pip install bidlab[envs]``). The agent controls
the seats of ``side`` (North-South by default); the other two seats call by ``opponent``, a
bidlab policy (:class:`~bidlab.envs.rollout.Policy`: any agent) or a function ``(observation480, legal_mask) ->
call id``, uniformly random legal calls by default. Observations are dicts with the
openspiel480 view of the agent's seat to act and the 38-call ``action_mask``; the reward,
given when the auction ends, is the side's double-dummy score divided by ``reward_scale``.

An illegal action raises :class:`~bidlab.envs.IllegalEnvCallError` by default; with
``illegal_action="penalty"`` it ends the episode with reward ``illegal_penalty`` instead,
for learners that ignore the mask (and for Gymnasium's ``check_env``, which samples
actions blindly).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("bidlab.envs.gym needs gymnasium: pip install 'bidlab[envs]'") from e

from bidlab.bridge.calls import NUM_CALLS
from bidlab.envs._single import OPENSPIEL480, SingleTable
from bidlab.envs.auction import EnvError


class BiddingEnv(gymnasium.Env):
    """Single-board Gymnasium env over :class:`~bidlab.envs.AuctionEnv` (see module doc)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, deals: np.ndarray, dd: np.ndarray, *, side: str = "NS", opponent=None,
                 dealer="random", vulnerability="random", reward_scale: float = 1.0,
                 illegal_action: str = "raise", illegal_penalty: float = -1.0,
                 render_mode: str | None = None):
        if side.upper() not in ("NS", "EW"):
            raise EnvError(f"side must be 'NS' or 'EW', got {side!r}")
        if illegal_action not in ("raise", "penalty"):
            raise EnvError(f"illegal_action must be 'raise' or 'penalty', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self._ended_by_illegal = False
        self.side = 0 if side.upper() == "NS" else 1
        self.table = SingleTable(deals, dd, dealer=dealer, vulnerability=vulnerability)
        self.reward_scale = float(reward_scale)
        self.render_mode = render_mode
        self._opponent = opponent
        self._opp_rng = np.random.default_rng(0)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (OPENSPIEL480,), np.float32),
            "action_mask": spaces.MultiBinary(NUM_CALLS),
        })
        self.action_space = spaces.Discrete(NUM_CALLS)

    # -- gymnasium API -------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._opp_rng = np.random.default_rng([seed, 1])
        self.table.reset(seed=seed, deal_index=(options or {}).get("deal_index"))
        self._ended_by_illegal = False
        self._opponents_call()
        return self._obs(), self._info()

    def step(self, action):
        if self.table.done or self._ended_by_illegal:
            raise EnvError("the auction is over: call reset() before step()")
        if self.illegal_action == "penalty" and not self.table.legal_mask()[int(action)]:
            self._ended_by_illegal = True
            info = self._info() | {"illegal_action": int(action)}
            return self._obs(), self.illegal_penalty, True, False, info
        self.table.call(int(action))
        self._opponents_call()
        terminated = self.table.done
        reward = 0.0
        if terminated:
            sign = 1 if self.side == 0 else -1
            reward = sign * self.table.ns_score / self.reward_scale
        return self._obs(), reward, terminated, False, self._info()

    def render(self):
        return str(self.table.env.auction(0))

    # -- helpers -----------------------------------------------------------------------------

    def _opponents_call(self) -> None:
        while not self.table.done and self.table.to_act % 2 != self.side:
            self.table.call(self._opponent_call())

    def _opponent_call(self) -> int:
        seat = self.table.to_act
        mask = self.table.legal_mask().astype(bool)
        opp = self._opponent
        if opp is None:
            return int(self._opp_rng.choice(np.flatnonzero(mask)))
        if hasattr(opp, "decide"):  # a bidlab policy: it decides on the table's array state
            return int(opp.decide(self.table.env.state.take([0])).calls[0])
        fn: Callable[[np.ndarray, np.ndarray], Any] = opp
        return int(fn(self.table.observation(seat), mask))

    def _obs(self) -> dict:
        seat = self.table.to_act if not self.table.done else self.side
        return {"observation": self.table.observation(seat), "action_mask": self.table.legal_mask()}

    def _info(self) -> dict:
        return self.table.info()

