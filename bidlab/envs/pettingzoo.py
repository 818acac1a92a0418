"""PettingZoo AEC adapter: one auction table, four agents north, east, south, west.

Needs the optional ``pettingzoo`` package (``pip install bidlab[envs]``). Each agent observes
a dict with its own openspiel480 view and the 38-call ``action_mask`` (all zero unless it is
that agent's turn). When the auction ends, North and South get the North-South
double-dummy score divided by ``reward_scale`` and East and West its negative.
"""

from __future__ import annotations

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("bidlab.envs.pettingzoo needs pettingzoo: pip install 'bidlab[envs]'") from e

from bidlab.bridge.calls import NUM_CALLS
from bidlab.envs._single import OPENSPIEL480, SEAT_NAMES, SingleTable
from bidlab.envs.auction import EnvError


class BiddingAECEnv(AECEnv):
    """Four-player AEC env over :class:`~bidlab.envs.AuctionEnv` (see module doc)."""

    metadata = {"render_modes": ["ansi"], "name": "bidlab_bridge_bidding_v0", "is_parallelizable": False}

    def __init__(self, deals: np.ndarray, dd: np.ndarray, *, dealer="random", vulnerability="random",
                 reward_scale: float = 1.0, render_mode: str | None = None):
        super().__init__()
        self.table = SingleTable(deals, dd, dealer=dealer, vulnerability=vulnerability)
        self.reward_scale = float(reward_scale)
        self.render_mode = render_mode
        self.possible_agents = list(SEAT_NAMES)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (OPENSPIEL480,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_CALLS,), np.int8),
        })
        self._act_space = spaces.Discrete(NUM_CALLS)
        self.agents: list[str] = []

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.table.reset(seed=seed, deal_index=(options or {}).get("deal_index"))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = SEAT_NAMES[self.table.to_act]

    def observe(self, agent: str) -> dict:
        seat = SEAT_NAMES.index(agent)
        mask = np.zeros(NUM_CALLS, np.int8)
        if not self.table.done and seat == self.table.to_act:
            mask = self.table.legal_mask()
        return {"observation": self.table.observation(seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise EnvError(f"{agent} must call (an id 0..{NUM_CALLS - 1}); None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        self.table.call(int(action))
        if self.table.done:
            ns = self.table.ns_score / self.reward_scale
            info = self.table.info()
            for i, a in enumerate(self.agents):
                self.rewards[a] = ns if i % 2 == 0 else -ns
                self.terminations[a] = True
                self.infos[a] = info
        else:
            self._clear_rewards()
            self.agent_selection = SEAT_NAMES[self.table.to_act]
        self._accumulate_rewards()

    def render(self):
        return str(self.table.env.auction(0))

    def close(self) -> None:
        pass
