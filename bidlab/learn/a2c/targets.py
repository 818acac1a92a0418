"""Search targets mixed into A2C (online JPS, Tian et al. 2020 Sec. 7; issue #17): the hook the
actors call, the queue the learner takes targets from (each used once), and the two losses
(policy gradient over all searched candidates, or NLL of the best call)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from bidlab.bridge.calls import NUM_CALLS
from bidlab.envs.state import AuctionState
from bidlab.learn.a2c.config import RLTrainingError
from bidlab.learn.a2c.transitions import PACKED480

SearchHook = Callable[[AuctionState, np.ndarray, torch.nn.Module, np.random.Generator], dict]
"""``hook(end, dd, policy_net, rng) -> targets``: called by the actor on every finished batch of
duplicate board pairs (``end`` 2n finished tables, ``dd`` the n boards' DD tables, the actor's
current policy net); returns :data:`TARGET_COLUMNS` plus ``gain`` (IMPs) and ``searched``."""

TARGET_COLUMNS = {
    "obs": ((PACKED480,), np.uint8),   # the 480 of the player whose call the search improved
    "code": ((), np.int32),            # auction state code there (legal calls)
    "call": ((), np.int16),            # the searched call: NLL target
    "cand": ((NUM_CALLS,), np.bool_),  # the candidates searched there (policy-gradient targets)
    "q": ((NUM_CALLS,), np.float32),   # their values, IMPs (policy-gradient targets)
}
SEARCH_LOSSES = ("pg", "nll")


@dataclass(frozen=True)
class SearchTraining:
    """Supervised search targets mixed into A2C: the hook, what it is (recorded in state.json
    and checked on resume), the NLL weight, the most targets per update and the most waiting."""

    hook: SearchHook
    settings: dict
    weight: float = 0.1
    batch_size: int = 32
    buffer_size: int = 4096
    loss: str | None = None  # "pg": search_policy_gradient over all candidates; "nll": search_nll of the best;
    #                           None: the hook's own ``loss`` (RLSearchHook's), else "nll"

    def __post_init__(self) -> None:
        if self.loss is None:
            object.__setattr__(self, "loss", getattr(self.hook, "loss", "nll"))
        if self.weight < 0 or self.batch_size < 1 or self.buffer_size < self.batch_size:
            raise RLTrainingError(f"search targets need weight >= 0 and 1 <= batch <= buffer, got weight "
                                  f"{self.weight}, batch {self.batch_size}, buffer {self.buffer_size}")
        if self.loss not in SEARCH_LOSSES:
            raise RLTrainingError(f"search loss must be one of {', '.join(SEARCH_LOSSES)}, got {self.loss!r}")

    def describe(self) -> dict:
        return {**self.settings, "weight": self.weight, "batch_size": self.batch_size,
                "buffer_size": self.buffer_size, "use": "once", "learner_loss": self.loss}


def search_nll(logits: torch.Tensor, legal: torch.Tensor, calls: torch.Tensor) -> torch.Tensor:
    """Mean ``-log pi(call)`` of the searched calls under the legal-masked softmax."""
    logp = torch.log_softmax(logits.masked_fill(~legal, float("-inf")), dim=-1)
    return -logp.gather(1, calls[:, None]).mean()


def search_policy_gradient(logits: torch.Tensor, cand: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    """All-actions policy gradient at searched infosets: minus the mean over rows of
    ``sum_a pi_C(a) (q(a) - sum_b pi_C(b) q(b)) / 24``, ``pi_C`` the policy renormalised over
    the searched candidates and ``q`` their values (IMPs; / 24 is the RL reward's unit).

    Its gradient is that of the expected value of the candidates under pi at the infoset
    (the baseline only lowers variance): every candidate moves by its value against the
    policy's mean, not only the per-deal best one. The deal at a searched infoset is drawn by
    self-play, so over many deals this is an unbiased step towards the call with the best
    mean value at the infoset, where NLL of each deal's best call moves towards the call that
    is most often best (a call that wins a little on most deals and loses a lot on the rest
    would win under NLL). Calls outside the candidates keep their share of pi."""
    z = logits.masked_fill(~cand, float("-inf"))
    p = torch.softmax(z, dim=-1)
    qz = q.masked_fill(~cand, 0.0)
    adv = (qz - (p.detach() * qz).sum(1, keepdim=True)).masked_fill(~cand, 0.0)
    return -(p.masked_fill(~cand, 0.0) * adv).sum(1).mean() / 24.0




class TargetQueue:
    """Search targets waiting for the learner, oldest first; each is taken once. At most
    ``capacity`` wait (the oldest are dropped when the actors outpace the learner)."""

    def __init__(self, capacity: int):
        self.capacity = int(capacity)
        self.cols = {c: np.zeros((0, *shape), dtype) for c, (shape, dtype) in TARGET_COLUMNS.items()}

    def __len__(self) -> int:
        return len(self.cols["call"])

    def add(self, found: dict[str, np.ndarray]) -> None:
        self.cols = {c: np.concatenate([v, np.asarray(found[c], v.dtype)])[-self.capacity:] for c, v in self.cols.items()}

    def take(self, k: int) -> dict[str, np.ndarray]:
        out = {c: v[:k] for c, v in self.cols.items()}
        self.cols = {c: v[k:] for c, v in self.cols.items()}
        return out


def add_search_targets(queue: TargetQueue, found: dict[str, np.ndarray], counters: dict, writer, step: int) -> None:
    """Queue one batch's search targets and log them (positions searched, targets, mean gain)."""
    k = len(found["call"])
    counters["searched"] += int(found.get("searched", 0))
    counters["targets"] += k
    if k:
        queue.add(found)
        writer.add_scalar("search/gain", float(np.mean(found["gain"])), step)
    writer.add_scalar("search/positions", counters["searched"], step)
    writer.add_scalar("search/targets", counters["targets"], step)
