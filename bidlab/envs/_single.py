"""A single auction table on top of :class:`AuctionEnv`, shared by the Gymnasium and
PettingZoo adapters (which add only their libraries' conventions)."""

from __future__ import annotations

import numpy as np

from bidlab.bridge.features import OPENSPIEL480
from bidlab.envs.auction import NO_CALL, AuctionEnv, StepResult

SEAT_NAMES = ("north", "east", "south", "west")


class SingleTable:
    """One board: reset to a random deal (or a chosen one), call, read every seat's view."""

    def __init__(self, deals: np.ndarray, dd: np.ndarray, *, dealer="random", vulnerability="random",
                 seed: int | None = None):
        self.env = AuctionEnv(deals, dd, num_boards=1, dealer=dealer, vulnerability=vulnerability,
                              auto_reset=False, seed=0 if seed is None else seed)
        self.last_result: StepResult | None = None

    def reset(self, seed: int | None = None, deal_index: int | None = None) -> None:
        if seed is not None:
            self.env._rng = np.random.default_rng(seed)
        chosen = {} if deal_index is None else {"deal_index": np.array([deal_index])}
        self.env.reset(**chosen)
        self.last_result = None

    @property
    def to_act(self) -> int:
        return int(self.env.to_act[0])

    @property
    def done(self) -> bool:
        return bool(self.env.done[0])

    def legal_mask(self) -> np.ndarray:
        return self.env.legal[0].astype(np.int8)

    def observation(self, seat: int) -> np.ndarray:
        """openspiel480 from ``seat``'s point of view (any seat, not only the one to act)."""
        return self.env.observe(seat=np.full(self.env.num_tables, seat))[0]

    def call(self, call_id: int) -> StepResult:
        self.last_result = self.env.step(np.array([call_id], dtype=np.int64))
        return self.last_result

    @property
    def ns_score(self) -> int:
        return int(self.env.final_score[0])

    def info(self) -> dict:
        r = self.last_result
        out = {"auction": str(self.env.auction(0)), "legal_mask": self.legal_mask()}
        if r is not None and r.finished[0]:
            out.update(contract=_contract_str(r), declarer=int(r.declarer[0]), tricks=int(r.tricks[0]),
                       ns_score=int(r.score[0]))
        return out


def _contract_str(r: StepResult) -> str:
    if r.level[0] == 0:
        return "passed out"
    strain = ("C", "D", "H", "S", "NT")[r.strain[0]]
    return f"{r.level[0]}{strain}{'X' * int(r.doubled[0])} by {'NESW'[r.declarer[0]]}"


__all__ = ["NO_CALL", "OPENSPIEL480", "SEAT_NAMES", "SingleTable"]
