"""The self-play actor (Qiu et al. Alg. 1): bids batches of duplicate board pairs on the array
env through :func:`bidlab.envs.rollout.rollout` and returns the transitions with their rewards.
The same class runs in a thread (local backend) or as a Ray actor."""

from __future__ import annotations

import time

import numpy as np
import torch

from bidlab.envs.rollout import Decision, rollout, score
from bidlab.envs.scoring import imps_array
from bidlab.envs.state import AuctionState, init, observe, observe636
from bidlab.learn.a2c.config import A2CConfig
from bidlab.learn.a2c.targets import SearchHook
from bidlab.learn.a2c.transitions import duplicate_rewards
from bidlab.nets import build


class _SamplingPolicy:
    """The actor's policy in the rollout: samples from the legal-masked softmax with a seeded
    generator, and keeps what the transition needs (log-prob, v(h)) for the on_decision hook."""

    name = "rl-selfplay"

    def __init__(self, actor: SelfPlayActor):
        self.actor = actor
        self.last: tuple[np.ndarray, np.ndarray] | None = None

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        a = self.actor
        t0 = time.perf_counter()
        x = observe(state)
        h = observe636(state) if a.cfg.hidden_info else x
        legal = torch.from_numpy(state.legal)
        with torch.inference_mode():
            logits = a.policy(torch.from_numpy(x)).masked_fill(~legal, float("-inf"))
            logp = torch.log_softmax(logits, dim=-1)
            calls = torch.multinomial(logp.exp(), 1, generator=a.gen).squeeze(1)
            lp = logp.gather(1, calls[:, None]).squeeze(1)
            v = a.value(torch.from_numpy(h))
        a.net_seconds += time.perf_counter() - t0
        self.last = (lp.numpy().astype(np.float32), v.numpy().astype(np.float32))
        return Decision(calls.numpy().astype(np.int64), None, None)


class SelfPlayActor:
    """Bids batches of duplicate board pairs with the current policy (all four seats, both
    tables) and returns their transitions. Runs in a thread or as a Ray actor unchanged."""

    def __init__(self, cfg: A2CConfig, seed: int, split: str = "train", search_hook: SearchHook | None = None):
        from bidlab.dd import shipped_store

        self.cfg = cfg
        self.search_hook = search_hook
        self.search_rng = np.random.default_rng([seed, 17])
        self.search_seconds = 0.0
        self.policy = build(cfg.policy).eval()
        self.value = build(cfg.value).eval()
        self.deals, self.dd, _ = shipped_store().load(split)
        self.rng = np.random.default_rng(seed)
        self.gen = torch.Generator().manual_seed(int(seed))
        self.version = -1
        self.net_seconds = 0.0
        self.total_seconds = 0.0
        self.generated = 0

    def set_weights(self, version: int, policy: dict, value: dict) -> None:
        """Load the learner's weights (tensors or numpy arrays) tagged with ``version``."""
        with torch.no_grad():
            self.policy.load_state_dict({k: torch.as_tensor(v) for k, v in policy.items()})
            self.value.load_state_dict({k: torch.as_tensor(v) for k, v in value.items()})
        self.version = int(version)

    def stats(self) -> dict:
        return {"generated": self.generated, "net_seconds": self.net_seconds, "total_seconds": self.total_seconds,
                "search_seconds": self.search_seconds}

    def play(self, boards: int | None = None, deal_rows: np.ndarray | None = None, dealer=None,
             vulnerability=None) -> dict[str, np.ndarray]:
        """Bid ``boards`` board pairs (random train deals, dealers, vulnerabilities unless given)
        and return their transitions: :data:`REPLAY_COLUMNS` plus ``v`` (the actor's v(h)),
        ``row`` (table row), ``length`` (calls before this one) and per-board ``imps``."""
        t0 = time.perf_counter()
        n = int(boards or self.cfg.boards_per_batch)
        if deal_rows is None:
            deal_rows = self.rng.integers(0, len(self.deals), n)
        n = len(deal_rows)
        dealer = self.rng.integers(0, 4, n) if dealer is None else np.broadcast_to(dealer, (n,))
        vul = self.rng.integers(0, 4, n) if vulnerability is None else np.broadcast_to(vulnerability, (n,))
        deals, dd = self.deals[deal_rows], self.dd[deal_rows]
        state = init(np.concatenate([deals, deals]), np.tile(dealer, 2), np.tile(vul, 2))
        pol = _SamplingPolicy(self)
        parts: dict[str, list[np.ndarray]] = {k: [] for k in ("row", "length", "obs", "seat", "code", "call", "logp", "v")}

        def record(_p: int, rows: np.ndarray, sub: AuctionState, d: Decision) -> None:
            lp, v = pol.last
            parts["row"].append(rows.astype(np.int32))
            parts["length"].append(sub.length.astype(np.int16))
            parts["obs"].append(sub.bits[np.arange(sub.n), sub.to_act])
            parts["seat"].append(sub.to_act.astype(np.int8))
            parts["code"].append(sub.code.astype(np.int32))
            parts["call"].append(d.calls.astype(np.int16))
            parts["logp"].append(lp)
            parts["v"].append(v)

        end = rollout(state, [pol], np.zeros(4, np.int64), inplace=True, on_decision=record)
        s = score(end, np.concatenate([dd, dd]))
        imps = imps_array(s.ns_score[:n].astype(np.int64) - s.ns_score[n:].astype(np.int64))
        out = {k: np.concatenate(v) for k, v in parts.items()}
        out["deal"] = end.deals[out["row"]]
        out["reward"] = duplicate_rewards(imps, out["row"], out["seat"], n)
        out["imps"] = imps
        self.generated += len(out["call"])
        if self.search_hook is not None:
            t1 = time.perf_counter()
            out["targets"] = self.search_hook(end, dd, self.policy, self.search_rng)
            self.search_seconds += time.perf_counter() - t1
        self.total_seconds += time.perf_counter() - t0
        out["version"] = np.array(self.version)
        return out
