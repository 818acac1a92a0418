"""Greedy evaluation during training: a duplicate match of the learner's policy against a fixed
agent on a seeded sample of validation deals (the authors' Fig. 2 uses 50k validation deals)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from bidlab.agents.neural import NeuralAgent, load_neural_agent
from bidlab.agents.registry import known_kinds, make_agent
from bidlab.bridge import board_vulnerability
from bidlab.envs.rollout import duplicate
from bidlab.errors import BidlabError
from bidlab.learn.a2c.config import RLTrainingError
from bidlab.nets import build


@dataclass(frozen=True)
class EvalDeals:
    deals: np.ndarray
    dd: np.ndarray
    dealer: np.ndarray
    vulnerability: np.ndarray


def validation_deals(boards: int, seed: int = 0, split: str = "validation") -> EvalDeals:
    """A fixed seeded sample of ``boards`` deals of ``split`` with the 16-board cycle's dealer
    and vulnerability (boards numbered 1, 2, ...), as ``bidlab match`` plays them."""
    from bidlab.dd import shipped_store

    deals, dd, ids = shipped_store().load(split)
    if boards > len(ids):
        raise RLTrainingError(f"split {split!r} has only {len(ids)} deals, {boards} asked for evaluation")
    order = np.random.default_rng([seed, 15]).permutation(len(ids))[:boards]
    numbers = np.arange(1, boards + 1)
    vul = np.array([int(board_vulnerability(int(x))) for x in numbers], np.int64)
    return EvalDeals(deals[order], dd[order], (numbers - 1) % 4, vul)


def evaluation_opponent(opponent: str):
    """The agent the periodic evaluation plays: an agent spec (``sayc``, ``nn:rl@8750``), or a
    model path or shipped name without a kind (``sl``, as older runs recorded it)."""
    kinds = {k.prefix for k in known_kinds()}
    prefix = opponent.partition(":")[0].lower()
    try:
        if prefix in kinds or "+" in opponent:  # a spec (or a team A+B)
            return make_agent(opponent, 0)
        return load_neural_agent(opponent)
    except BidlabError as e:
        raise RLTrainingError(f"evaluation opponent {opponent!r}: {e}") from None


def evaluate_against(policy: torch.nn.Module, opponent, ev: EvalDeals) -> tuple[float, float]:
    """Greedy ``policy`` (A) against ``opponent`` (B) as a duplicate match: IMPs/board for A and
    its standard error."""
    net = build(policy.cfg)
    net.load_state_dict({k: v.detach().cpu() for k, v in policy.state_dict().items()})
    a = NeuralAgent(net.eval(), mode="greedy")
    r = duplicate(ev.deals, ev.dealer, ev.vulnerability, a, opponent, dd=ev.dd)
    imps = r.imps.astype(np.float64)
    return float(imps.mean()), float(imps.std(ddof=1) / math.sqrt(len(imps))) if len(imps) > 1 else 0.0
