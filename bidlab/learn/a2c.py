"""A2C self-play with prioritized replay and a value net that sees the hidden hands
(Qiu et al. 2024, Sec. IV, App. C Algs. 1-2, Table I).

Pieces:

- :class:`A2CConfig`: every hyperparameter, with the policy and value nets' shapes nested
  (:class:`~bidlab.nets.NetConfig`); presets ``paper`` (Table I) and ``cpu``.
- :class:`SelfPlayActor`: bids batches of duplicate board pairs on the array env
  (:func:`bidlab.envs.rollout.rollout`) and returns their transitions with rewards. The same
  class runs in a thread (local backend) or as a Ray actor (``--backend ray``).
- :class:`Learner`: one A2C step on a replay batch, returns the new priorities.
- :func:`train_rl`: the loop (actors -> replay -> learner), periodic greedy evaluation
  against the SL policy on validation deals, TensorBoard, checkpoints and resume.

Decisions on the points the paper leaves open (``../shared/notes/qiu-bmcs-notes.md`` §1-2
says what the authors' code does):

- **Self-play.** As in the authors' code, all four seats at both tables are the current
  network sampling from its policy; there is no frozen opponent. Each board is bid at two
  tables (rows ``0..n-1`` table 0, rows ``n..2n-1`` table 1) and every player's transitions
  get the terminal reward ``+-IMPs/24`` with ``gamma = 1``: team = ``(seat + table) % 2``,
  team 0 (NS at table 0, EW at table 1) gets ``+IMP(NS0 - NS1)/24``, team 1 the negation.
  Scores come from the deal store's double-dummy tables; a passed-out board scores 0.
- **Dealer and vulnerability are random** (uniform over the 4 x 4), not the authors'
  "dealer North, nobody vulnerable": our matches (``bidlab match``) play the 16-board cycle,
  so every dealer/vulnerability combination is evaluated, and the policy must be trained on
  the inputs it will see (vulnerability changes the right bid: sacrifices, game tries).
- **Deals:** the train split of the shipped deal store, drawn with replacement; validation
  deals for the periodic evaluation; never the test split.
- **Softmax over the legal calls only**, for sampling, the stored log-probabilities, the
  ratio and the entropy. The authors' code normalizes over all 38 calls and masks only when
  sampling; but our SL policy was trained with the legal-masked cross-entropy, so its logits
  of illegal calls carry no meaning, and an entropy over all 38 would reward mass on calls
  that can never be made. Over legal calls, the learner's distribution is exactly the one the
  actors sample from, so the importance ratio compares like with like.
- **Policy loss:** the authors' PPO-style clipped surrogate, ``-min(rho A, clip(rho, 1 +- eps) A)``
  with ``eps = 0.05``, ``rho = pi_new(a) / pi_old(a)`` from the stored log-probs, and the
  advantage ``A = r - V(h)`` detached and not normalized; minus ``c_H`` times the entropy.
- **Value loss:** ``(r - V(h))^2`` on the 636 input (480 + LHO's, partner's, RHO's cards),
  tanh head. ``--no-hidden-info`` feeds the value net the 480 only and keeps the tanh (the
  authors' no-HI net drops it; keeping it changes only the input, the thing the ablation tests).
- **Total loss** = mean over the batch of ``w * (policy + value)``, ``w`` the PER importance
  weights. Two Adan optimizers (``pytorch-optimizer``), gradient-norm clip 40 on each net.
- **Priorities:** on insert ``|r - v(h)|^alpha`` with ``v`` from the actor's (stale) value
  net; after each learner step reset to ``|r - V_learner(h)|^alpha``. See
  :mod:`bidlab.learn.replay` for the small epsilon.
- **Table I vs the authors' yaml:** the ``paper`` preset takes Table I (batch 2048, alpha 0.8,
  beta 0.6, entropy 0.01, buffer 80K, burn-in 20K, sync 10) with the yaml's learning rates
  1e-5 / 1e-4 (Table I's are garbled in the text). The ``cpu`` preset keeps the method and
  scales the sizes: the policy is the shipped SL net (4 x 512), the value net 3 x 256
  (about 0.3M parameters: cheap enough for the actor to run it on every decision), batch 512,
  and a policy learning rate of 1e-4, ten times the paper's: an hour on this shared machine
  holds only ~1-2k updates. In a 7-minute pilot (two runs sharing the loaded machine, ~190
  updates each), 1e-4 reached +0.15 +- 0.07 and 3e-5 +0.12 +- 0.06 IMPs/board against SL on
  1,000 validation boards.
- **Search targets (issue #17, online JPS):** ``train_rl(..., search=SearchTraining(...))``
  passes in a hook that the actor calls on each finished self-play batch (learning does not
  import search; the CLI builds the hook from :mod:`bidlab.search.jps`). What it returns waits
  in a small separate queue, and every learner update takes up to ``batch_size`` of them, each
  used once, and adds ``weight * sum(term) / batch_size`` to the A2C loss: with ``loss="pg"``
  (the CLI's default) each row is a searched infoset with all its candidates' values and the
  term is :func:`search_policy_gradient`; with ``loss="nll"`` each row is one improved call and
  the term is :func:`search_nll`. Used once, not resampled from a ring: in a pilot that
  sampled 32 NLL targets per update from a ring buffer, the first few dozen targets were
  replayed hundreds of times (Adan takes full-size steps along a consistent gradient) and both
  the 1-search and the JPS run lost ~0.4 IMPs/board on validation within 50 updates while
  plain A2C did not. The queue is not checkpointed: after a resume it refills from the next
  searched batches.
- **Evaluation:** greedy play of the learner's policy against the SL policy, as a duplicate
  match on a fixed sample of validation deals with the 16-board dealer/vulnerability cycle
  (the authors' Fig. 2 uses 50k validation deals; we use ``eval_boards``). The best policy on
  validation is kept as ``best.safetensors`` + ``best.json`` (a plain policy model file, so
  ``nn:runs/rl/best`` bids in ``bidlab match``); every checkpoint also writes the run's latest
  policy as ``final.safetensors`` + ``final.json`` (``nn:runs/rl/final``).
"""

from __future__ import annotations

import json
import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import torch

from bidlab.agents.neural import NeuralAgent
from bidlab.bridge import board_vulnerability, rules
from bidlab.bridge.calls import NUM_CALLS
from bidlab.bridge.features import OPENSPIEL480, VALUE636, unpack_observations, write_hidden_hands
from bidlab.envs.rollout import Decision, duplicate, rollout, score
from bidlab.envs.scoring import imps_array
from bidlab.envs.state import AuctionState, init, observe, observe636
from bidlab.errors import BidlabError
from bidlab.fileio import write_bytes_atomic, write_json_atomic
from bidlab.learn.replay import ReplayBuffer
from bidlab.nets import NetConfig, build, load_model, load_optimizer, optimizer_tensors, preset, save_model
from bidlab.runtime.executor import ExecutorError, connect_ray


class RLTrainingError(BidlabError):
    """Self-play training cannot start or resume as asked."""


# -- configuration ----------------------------------------------------------------------------

VALUE_CPU = NetConfig("value", "cpu-rl", VALUE636, 256, 3, 1, "value636")
VALUE_PAPER = preset("value", "paper")


@dataclass(frozen=True)
class A2CConfig:
    """Hyperparameters of A2C self-play (see the module docstring for the choices)."""

    policy: NetConfig = field(default_factory=lambda: preset("policy", "cpu"))
    value: NetConfig = VALUE_CPU
    preset: str = "cpu"
    actors: int = 1                  # actor threads (local) or Ray actors
    boards_per_batch: int = 256      # board pairs one actor bids per rollout (2x tables)
    buffer_size: int = 100_000
    burn_in: int = 10_000
    batch_size: int = 512
    lr_policy: float = 1e-4          # cpu: 10x the paper's (few updates fit in an hour; pilot below)
    lr_value: float = 1e-4
    alpha: float = 0.6
    beta: float = 0.4
    entropy: float = 0.01
    clip: float = 0.05
    grad_clip: float = 40.0
    sync_every: int = 10             # learner updates between weight syncs to the actors
    per: bool = True                 # False: uniform replay (the --no-per ablation)
    hidden_info: bool = True         # False: value net on the 480 only (--no-hidden-info)
    eval_every: int = 500            # updates between greedy evaluations against SL
    eval_boards: int = 1000          # validation boards per evaluation
    checkpoint_every: int = 250      # updates between checkpoints
    seed: int = 0
    replay_ratio: float | None = None  # learned / generated transitions to hold (None: actors run free)

    @classmethod
    def cpu(cls, **kw) -> A2CConfig:
        return _with_ablations(cls(**kw))

    @classmethod
    def paper(cls, **kw) -> A2CConfig:
        base = dict(policy=preset("policy", "paper"), value=VALUE_PAPER, preset="paper", actors=12,
                    boards_per_batch=150, buffer_size=80_000, burn_in=20_000, batch_size=2048,
                    lr_policy=1e-5, lr_value=1e-4, alpha=0.8, beta=0.6, entropy=0.01, sync_every=10)
        return _with_ablations(cls(**{**base, **kw}))

    @classmethod
    def tiny(cls, **kw) -> A2CConfig:
        """For tests: tiny nets, a few boards."""
        base = dict(policy=preset("policy", "tiny"), value=NetConfig("value", "tiny", VALUE636, 32, 2, 1, "value636"),
                    preset="tiny", boards_per_batch=16, buffer_size=4096, burn_in=200, batch_size=64,
                    lr_policy=1e-4, lr_value=1e-3, eval_every=20, eval_boards=32, checkpoint_every=10)
        return _with_ablations(cls(**{**base, **kw}))

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> A2CConfig:
        d = dict(d)
        d["policy"] = NetConfig(**d["policy"])
        d["value"] = NetConfig(**d["value"])
        return cls(**d)

    def training_key(self) -> dict:
        """Settings a resumed run must share with the run it resumes."""
        d = self.to_json()
        # throughput knobs: a run may resume with other values (replay_ratio: old runs lack it);
        # the seed only picks the games, so replicates may fine-tune one checkpoint with other seeds
        for k in ("eval_every", "eval_boards", "checkpoint_every", "actors", "replay_ratio", "seed"):
            d.pop(k, None)
        return d


PRESETS = {"cpu": A2CConfig.cpu, "paper": A2CConfig.paper, "tiny": A2CConfig.tiny}


def _with_ablations(cfg: A2CConfig) -> A2CConfig:
    """The value net's input follows ``hidden_info``: 636 with the hidden hands, else the 480."""
    if cfg.hidden_info:
        v = replace(cfg.value, input_dim=VALUE636, encoder="value636")
    else:
        v = replace(cfg.value, input_dim=OPENSPIEL480, encoder="openspiel480")
    return replace(cfg, value=v)


def make_config(preset_name: str = "cpu", **kw) -> A2CConfig:
    if preset_name not in PRESETS:
        raise RLTrainingError(f"no A2C preset {preset_name!r}; choose one of {', '.join(PRESETS)}")
    return PRESETS[preset_name](**kw)


# -- transitions ------------------------------------------------------------------------------

PACKED480 = OPENSPIEL480 // 8
REPLAY_COLUMNS = {
    "obs": ((PACKED480,), np.uint8),   # the 480 of the player to act, bit-packed (the state's own packing)
    "deal": ((52,), np.uint8),         # holder of each card: the 636's hidden hands are rebuilt from it
    "seat": ((), np.int8),             # player to act
    "code": ((), np.int32),            # auction state code: the legal calls are rules.LEGAL[code]
    "call": ((), np.int16),
    "logp": ((), np.float32),          # log-prob of the call under the sampling policy
    "reward": ((), np.float32),        # +-IMPs/24 of the player's team
}


def features(cols: dict[str, np.ndarray], hidden_info: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(480 float32[k, 480], value input float32[k, 636 or 480], legal bool[k, 38]) of stored transitions."""
    k = len(cols["call"])
    x = unpack_observations(np.ascontiguousarray(cols["obs"]), np.empty((k, OPENSPIEL480), np.float32))
    legal = rules.LEGAL[cols["code"].astype(np.intp), 1:]
    if not hidden_info:
        return x, x, legal
    h = np.empty((k, VALUE636), np.float32)
    h[:, :OPENSPIEL480] = x
    write_hidden_hands(h[:, OPENSPIEL480:], cols["deal"], cols["seat"].astype(np.int64))
    return x, h, legal


def duplicate_rewards(imps: np.ndarray, rows: np.ndarray, seats: np.ndarray, n: int) -> np.ndarray:
    """``+-imps/24`` for the transitions at table rows ``rows`` (``0..n-1`` table 0, ``n..2n-1``
    table 1) by players ``seats``; ``imps[b]`` is ``IMP(NS at table 0 - NS at table 1)`` of board b."""
    table = (rows >= n).astype(np.int64)
    team = (seats.astype(np.int64) + table) % 2
    sign = np.where(team == 0, 1.0, -1.0)
    return (sign * imps[rows % n] / 24.0).astype(np.float32)


# -- search targets (online JPS, issue #17) ------------------------------------------------------

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


# -- learner ----------------------------------------------------------------------------------

def a2c_loss(logits: torch.Tensor, legal: torch.Tensor, calls: torch.Tensor, logp_old: torch.Tensor,
             reward: torch.Tensor, value: torch.Tensor, weights: torch.Tensor, *, clip: float,
             entropy_coef: float) -> dict[str, torch.Tensor]:
    """The A2C loss of one batch (module docstring): clipped-ratio surrogate times the detached
    advantage ``r - V``, entropy bonus over legal calls, value MSE, all weighted by ``weights``.
    Returns the scalar ``total`` and its pieces (batch means, unweighted except ``total``)."""
    logp_all = torch.log_softmax(logits.masked_fill(~legal, float("-inf")), dim=-1)
    logp = logp_all.gather(1, calls[:, None]).squeeze(1)
    # illegal calls have log-prob -inf; zero it before p * log p, or 0 * -inf makes NaN gradients
    logp_legal = logp_all.masked_fill(~legal, 0.0)
    entropy = -(logp_legal.exp() * logp_legal).masked_fill(~legal, 0.0).sum(1)
    adv = (reward - value).detach()
    ratio = torch.exp(logp - logp_old)
    surrogate = torch.minimum(ratio * adv, torch.clamp(ratio, 1 - clip, 1 + clip) * adv)
    policy_term = -surrogate - entropy_coef * entropy
    value_term = (reward - value) ** 2
    total = (weights * (policy_term + value_term)).mean()
    return {"total": total, "policy": (-surrogate).mean(), "value": value_term.mean(), "entropy": entropy.mean(),
            "ratio": ratio.mean(), "clipped": ((ratio - 1).abs() > clip).float().mean(), "advantage": adv.abs().mean()}


def _adan(params, lr: float):
    from pytorch_optimizer import Adan

    return Adan(params, lr=lr)


class Learner:
    """One A2C update on a replay batch (the policy net from SL, a fresh value net)."""

    def __init__(self, cfg: A2CConfig, policy: torch.nn.Module, value: torch.nn.Module, device: str = "cpu"):
        self.cfg = cfg
        self.device = device
        self.policy = policy.to(device).train()
        self.value = value.to(device).train()
        self.opt_policy = _adan(self.policy.parameters(), cfg.lr_policy)
        self.opt_value = _adan(self.value.parameters(), cfg.lr_value)

    def step(self, cols: dict[str, np.ndarray], weights: np.ndarray, targets: dict[str, np.ndarray] | None = None,
             target_weight: float = 0.0, target_loss: str = "nll") -> tuple[np.ndarray, dict[str, float]]:
        """One update; returns the new priorities ``|r - V(h)|^alpha`` and the loss pieces.
        ``targets`` (:data:`TARGET_COLUMNS`): search targets; ``target_weight`` times
        :func:`search_nll` (``target_loss="nll"``) or :func:`search_policy_gradient` (``"pg"``)
        joins the loss."""
        x, h, legal = features(cols, self.cfg.hidden_info)
        dev = self.device
        t = {k: torch.from_numpy(np.ascontiguousarray(v)).to(dev) for k, v in
             (("x", x), ("h", h), ("legal", legal))}
        calls = torch.from_numpy(cols["call"].astype(np.int64)).to(dev)
        logp_old = torch.from_numpy(cols["logp"]).to(dev)
        reward = torch.from_numpy(cols["reward"]).to(dev)
        w = torch.from_numpy(weights).to(dev)
        logits = self.policy(t["x"])
        v = self.value(t["h"])
        loss = a2c_loss(logits, t["legal"], calls, logp_old, reward, v, w, clip=self.cfg.clip,
                        entropy_coef=self.cfg.entropy)
        if targets is not None and len(targets["call"]):
            tx, _, tlegal = features(targets, False)
            tlogits = self.policy(torch.from_numpy(tx).to(dev))
            if target_loss == "pg":
                term = search_policy_gradient(tlogits, torch.from_numpy(targets["cand"]).to(dev),
                                              torch.from_numpy(targets["q"]).to(dev))
            else:
                term = search_nll(tlogits, torch.from_numpy(tlegal).to(dev),
                                  torch.from_numpy(targets["call"].astype(np.int64)).to(dev))
            loss["total"] = loss["total"] + target_weight * term
            loss[f"search_{target_loss}"] = term
        self.opt_policy.zero_grad(set_to_none=True)
        self.opt_value.zero_grad(set_to_none=True)
        loss["total"].backward()
        torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.cfg.grad_clip)
        torch.nn.utils.clip_grad_norm_(self.value.parameters(), self.cfg.grad_clip)
        self.opt_policy.step()
        self.opt_value.step()
        prio = (reward - v.detach()).abs().cpu().numpy() ** self.cfg.alpha
        return prio, {k: v.item() for k, v in loss.items()}

    def weights(self) -> tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]:
        """CPU copies of both nets' weights (what the actors load)."""
        return ({k: v.detach().to("cpu", copy=True) for k, v in self.policy.state_dict().items()},
                {k: v.detach().to("cpu", copy=True) for k, v in self.value.state_dict().items()})


def insert_priorities(batch: dict[str, np.ndarray], alpha: float) -> np.ndarray:
    """Insert priorities ``|r - v(h)|^alpha`` with the actor's v."""
    return np.abs(batch["reward"] - batch["v"]).astype(np.float64) ** alpha


# -- evaluation -------------------------------------------------------------------------------

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


def evaluate_against(policy: torch.nn.Module, opponent, ev: EvalDeals) -> tuple[float, float]:
    """Greedy ``policy`` (A) against ``opponent`` (B) as a duplicate match: IMPs/board for A and
    its standard error."""
    net = build(policy.cfg)
    net.load_state_dict({k: v.detach().cpu() for k, v in policy.state_dict().items()})
    a = NeuralAgent(net.eval(), mode="greedy")
    r = duplicate(ev.deals, ev.dealer, ev.vulnerability, a, opponent, dd=ev.dd)
    imps = r.imps.astype(np.float64)
    return float(imps.mean()), float(imps.std(ddof=1) / math.sqrt(len(imps))) if len(imps) > 1 else 0.0


# -- checkpoints ------------------------------------------------------------------------------

def save_checkpoint(out: Path, learner: Learner, state: dict) -> None:
    """Weights, optimizer moments and counters in one safetensors file (the counters in its
    metadata, so they are replaced together in one atomic rename); state.json is a readable copy."""
    from safetensors.torch import save

    tensors = {f"policy.{k}": v.detach().cpu().contiguous() for k, v in learner.policy.state_dict().items()}
    tensors.update({f"value.{k}": v.detach().cpu().contiguous() for k, v in learner.value.state_dict().items()})
    tp, ep = optimizer_tensors(learner.opt_policy, "opt_policy")
    tv, evv = optimizer_tensors(learner.opt_value, "opt_value")
    tensors.update(tp)
    tensors.update(tv)
    full = dict(state, optimizers={"opt_policy": ep, "opt_value": evv})
    write_bytes_atomic(out / "checkpoint.safetensors", save(tensors, metadata={"state": json.dumps(full)}))
    write_json_atomic(out / "state.json", full)


def checkpoint_state(path: Path) -> dict:
    """The counters (and optimizer metadata) stored in a checkpoint file's metadata."""
    from safetensors import safe_open

    try:
        with safe_open(str(path), framework="pt") as f:
            return json.loads((f.metadata() or {})["state"])
    except Exception as e:  # a truncated or foreign file
        raise RLTrainingError(f"{path} is not a readable checkpoint ({e})") from None


def load_checkpoint(out: Path, learner: Learner) -> dict:
    from safetensors.torch import load

    path = out / "checkpoint.safetensors"
    state = checkpoint_state(path)
    try:
        tensors = load(path.read_bytes())
    except Exception as e:  # a truncated or foreign file
        raise RLTrainingError(f"{path} is not a readable checkpoint ({e})") from None
    dev = learner.device
    learner.policy.load_state_dict({k[7:]: v.to(dev) for k, v in tensors.items() if k.startswith("policy.")})
    learner.value.load_state_dict({k[6:]: v.to(dev) for k, v in tensors.items() if k.startswith("value.")})
    load_optimizer(learner.opt_policy, tensors, state["optimizers"]["opt_policy"], "opt_policy")
    load_optimizer(learner.opt_value, tensors, state["optimizers"]["opt_value"], "opt_value")
    state.pop("optimizers")
    return state


# -- backends ---------------------------------------------------------------------------------

class ReplayRatioLimiter:
    """Holds the replay ratio (transitions learned per transition generated) near ``ratio``,
    like Reverb's ``SampleToInsertRatio``: after the burn-in, an actor starts a batch only while
    ``ratio * (inserted - largest_batch - burn_in) <= learned`` (one batch ahead, so actor and
    learner overlap: without it they took turns and both idled ~40% of a measured run), and the learner steps only while
    ``learned <= ratio * (inserted - burn_in) + slack`` (``slack``: one learner batch). One of
    the two may always proceed (batches queued by an actor count for the actor at once and for
    the learner when the loop inserts them, which it does while the learner waits), so they
    never wait for each other. ``ratio`` None: no limit (the actors generate as fast as they
    can: the default, and the behaviour of older runs).

    What "the learner keeps pace" means here (our decision): the loop holds a chosen replay
    ratio at steady state, rather than whatever the two threads' speeds give. On this 2-core
    machine one actor thread generates about 3x as many transitions per CPU-second as the
    learner learns (a learned transition costs a forward and a backward pass of both nets, a
    generated one a forward pass), so a free-running actor fills the buffer with transitions
    the learner mostly never samples (replay ratio ~0.34, the buffer turning over every few
    seconds). ``0.5`` keeps the learner saturated and the generation above 10,000
    transitions/s (README, ``benchmarks/selfplay_throughput.py``); the actor waits for the rest
    of its time. The ratio does not enter :meth:`A2CConfig.training_key`: runs resume with or
    without it."""

    def __init__(self, ratio: float | None, burn_in: int, slack: int):
        if ratio is not None and not ratio > 0:
            raise RLTrainingError(f"--replay-ratio must be > 0, got {ratio}")
        self.ratio, self.burn_in, self.slack = ratio, burn_in, slack
        self.inserted = 0   # transitions in the replay buffer's count (added by the loop)
        self.produced = 0   # transitions made by local actor threads, queued ones included
        self.largest = 0    # largest actor batch: an actor overshoots by at most one batch
        self.learned = 0
        self.actor_wait_seconds = 0.0
        self._cond = threading.Condition()

    def actor_may_play(self) -> bool:
        made = max(self.produced, self.inserted)  # batches waiting in a queue count as made
        # one batch ahead: the actor starts its next batch while the learner still has that
        # batch's worth of allowance, so the two run side by side instead of taking turns
        return self.ratio is None or self.ratio * (made - self.largest - self.burn_in) <= self.learned

    def learner_may_step(self) -> bool:
        return self.ratio is None or self.learned <= self.ratio * (self.inserted - self.burn_in) + self.slack

    def add_inserted(self, n: int) -> None:
        with self._cond:
            self.inserted += n
            self.largest = max(self.largest, n)
            self._cond.notify_all()

    def add_produced(self, n: int) -> None:
        with self._cond:
            self.produced += n
            self.largest = max(self.largest, n)

    def add_learned(self, n: int) -> None:
        with self._cond:
            self.learned += n
            self._cond.notify_all()

    def wait_for_actor(self, stop: threading.Event, timeout: float = 0.2) -> bool:
        """Block an actor thread until it may play (True) or ``timeout`` passes (False)."""
        if self.actor_may_play():
            return True
        t0 = time.perf_counter()
        with self._cond:
            ok = self._cond.wait_for(lambda: stop.is_set() or self.actor_may_play(), timeout)
        self.actor_wait_seconds += time.perf_counter() - t0
        return bool(ok) and not stop.is_set()


class LocalBackend:
    """Actors in threads of this process; torch and numpy release the GIL, so an actor thread
    and the learner (the caller's thread) overlap on two cores, and weights and transitions
    pass without pickling. (Processes are what ``--backend ray`` gives on one machine; the
    session that built this could not compare the two fairly: the 2 cores ran at a load
    average near 20, and starting Ray alone took minutes.)"""

    def __init__(self, cfg: A2CConfig, seed: int, limiter: ReplayRatioLimiter | None = None,
                 search_hook: SearchHook | None = None):
        self.limiter = limiter or ReplayRatioLimiter(None, 0, 0)
        self.cpu_seconds = 0.0  # actor threads' CPU time (time.thread_time), for the benchmark
        self.actors = [SelfPlayActor(cfg, int(np.random.SeedSequence([seed, i]).generate_state(1)[0]),
                                     search_hook=search_hook) for i in range(cfg.actors)]
        self.queue: queue.Queue = queue.Queue(maxsize=2 * cfg.actors + 2)
        self._weights: tuple | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._errors: list[BaseException] = []
        self.threads = [threading.Thread(target=self._run, args=(a,), daemon=True) for a in self.actors]
        self._started = False

    def publish(self, version: int, policy: dict, value: dict) -> None:
        with self._lock:
            self._weights = (version, policy, value)
        if not self._started:
            self._started = True
            for t in self.threads:
                t.start()

    def _run(self, actor: SelfPlayActor) -> None:
        try:
            while not self._stop.is_set():
                with self._lock:
                    w = self._weights
                if w is not None and w[0] != actor.version:
                    actor.set_weights(*w)
                if not self.limiter.wait_for_actor(self._stop):
                    continue
                c0 = time.thread_time()
                batch = actor.play()
                self.cpu_seconds += time.thread_time() - c0
                self.limiter.add_produced(len(batch["call"]))
                while not self._stop.is_set():
                    try:
                        self.queue.put(batch, timeout=0.2)
                        break
                    except queue.Full:
                        continue
        except BaseException as e:  # surfaced in the learner's thread by poll()
            self._errors.append(e)

    def poll(self, block: bool) -> list[dict]:
        if self._errors:
            raise self._errors[0]
        out = []
        try:
            out.append(self.queue.get(timeout=1.0) if block else self.queue.get_nowait())
            while True:
                out.append(self.queue.get_nowait())
        except queue.Empty:
            pass
        return out

    def stats(self) -> list[dict]:
        return [a.stats() for a in self.actors]

    def close(self) -> None:
        self._stop.set()
        for t in self.threads:
            if t.is_alive():
                t.join(timeout=30)


class RayBackend:
    """The same :class:`SelfPlayActor` as Ray actors (one process each, one torch thread), on a
    local Ray instance or an existing cluster (``address``); the learner stays in this process."""

    def __init__(self, cfg: A2CConfig, seed: int, address: str | None = None, num_cpus: int | None = None,
                 limiter: ReplayRatioLimiter | None = None, search_hook: SearchHook | None = None):
        try:
            ray = connect_ray(address, num_cpus)
        except ExecutorError as e:
            raise RLTrainingError(str(e)) from None
        self.ray = ray
        self.limiter = limiter or ReplayRatioLimiter(None, 0, 0)
        self.idle: list[int] = []  # actors held back by the replay-ratio limiter
        remote = ray.remote(num_cpus=1)(_RayActor)
        self.actors = [remote.remote(cfg, int(np.random.SeedSequence([seed, i]).generate_state(1)[0]), search_hook)
                       for i in range(cfg.actors)]
        self.versions = {i: -1 for i in range(len(self.actors))}
        self.pending: dict = {}
        self._weights = None

    def publish(self, version: int, policy: dict, value: dict) -> None:
        self._weights = (version, self.ray.put({k: v.numpy() for k, v in policy.items()}),
                         self.ray.put({k: v.numpy() for k, v in value.items()}))
        if not self.pending and not self.idle:  # the first publish starts every actor
            for i in range(len(self.actors)):
                self._submit(i)

    def _submit(self, i: int) -> None:
        if not self.limiter.actor_may_play():
            self.idle.append(i)
            return
        a = self.actors[i]
        if self._weights is not None and self.versions[i] != self._weights[0]:
            a.set_weights.remote(*self._weights)  # a Ray actor runs its calls in submission order
            self.versions[i] = self._weights[0]
        self.pending[a.play.remote()] = i

    def poll(self, block: bool) -> list[dict]:
        idle, self.idle = self.idle, []
        for i in idle:
            self._submit(i)
        if not self.pending:
            return []
        ready, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=1.0 if block else 0)
        out = []
        for ref in ready:
            i = self.pending.pop(ref)
            out.append(self.ray.get(ref))
            self._submit(i)
        return out

    def stats(self) -> list[dict]:
        return self.ray.get([a.stats.remote() for a in self.actors])

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.pending.clear()


class _RayActor(SelfPlayActor):
    """A :class:`SelfPlayActor` in its own process: one torch thread (the process has one core)."""

    def __init__(self, cfg: A2CConfig, seed: int, search_hook: SearchHook | None = None):
        torch.set_num_threads(1)
        super().__init__(cfg, seed, search_hook=search_hook)


# -- the training loop ------------------------------------------------------------------------

def initial_policy(init: str | None, cfg: A2CConfig) -> tuple[torch.nn.Module, A2CConfig]:
    """The policy to start from (a saved model, e.g. the shipped SL net) and the config with its shape."""
    if init is None:
        return build(cfg.policy), cfg
    from bidlab.agents.neural import resolve_model

    spec = init[3:] if init.startswith("nn:") else init
    net, _ = load_model(resolve_model(spec))
    if net.cfg.kind != "policy":
        raise RLTrainingError(f"--init {init} is a {net.cfg.kind} net, not a policy")
    return net, replace(cfg, policy=net.cfg)


def train_rl(out: str | Path, cfg: A2CConfig, *, init: str | None = "sl", minutes: float | None = None,
             updates: int | None = None, backend: str = "local", ray_address: str | None = None,
             device: str = "cpu", opponent: str = "sl",
             progress: Callable[[dict], None] | None = None, search: SearchTraining | None = None,
             keep_policies: bool = False) -> dict:
    """Train (or resume, if ``out`` holds a checkpoint) until ``minutes`` of training time
    (counted across resumptions) or ``updates`` learner updates; returns the final state.
    ``search``: search targets trained by NLL next to A2C (online JPS); a run without search
    may be resumed with it (fine-tuning from a plain RL checkpoint), not the other way round.
    ``keep_policies``: every checkpoint also keeps the policy as ``policies/update-NNNNNN``
    (a plain model file), for learning curves measured by matches afterwards."""
    from torch.utils.tensorboard import SummaryWriter

    from bidlab.agents.neural import load_neural_agent

    if minutes is None and updates is None:
        raise RLTrainingError("give a budget: --minutes or --updates")
    if backend not in ("local", "ray"):
        raise RLTrainingError(f"unknown backend {backend!r}; choose local or ray")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(cfg.seed)
    policy, cfg = initial_policy(init, cfg)
    value = build(cfg.value)
    learner = Learner(cfg, policy, value, device)
    state = {"config": cfg.to_json(), "init": init, "updates": 0, "generated": 0, "learned": 0,
             "seconds": 0.0, "evals": [], "best": None, "resumed": 0}
    wanted = None if search is None else search.describe()
    if (out / "checkpoint.safetensors").exists():
        old = load_checkpoint(out, learner)
        if A2CConfig.from_json(old["config"]).training_key() != cfg.training_key() or old.get("init") != init:
            raise RLTrainingError(f"{out} holds a run with other settings; use another --out or the same settings")
        had = (old.get("search") or {}).get("settings")
        if had is not None and had != wanted:
            raise RLTrainingError(f"{out} was trained with search targets {had}; resume it with the same search "
                                  f"settings, not {wanted}")
        state.update(old, config=cfg.to_json(), resumed=old.get("resumed", 0) + 1)
    if search is not None and "settings" not in (state.get("search") or {}):
        # search starts here: from scratch, or fine-tuning a plain RL run from this update on
        state["search"] = {"settings": wanted, "since_update": state["updates"], "searched": 0, "targets": 0}
    # a resumed run draws new games (the seed includes the resume count); the buffer is rebuilt by burn-in
    run_seed = int(np.random.SeedSequence([cfg.seed, state["resumed"]]).generate_state(1)[0])
    targets = None if search is None else TargetQueue(search.buffer_size)
    replay = ReplayBuffer(cfg.buffer_size, REPLAY_COLUMNS, prioritized=cfg.per, beta=cfg.beta,
                          burn_in=cfg.burn_in, seed=run_seed)
    ev = validation_deals(cfg.eval_boards, cfg.seed)
    opp = load_neural_agent(opponent)
    writer = SummaryWriter(str(out / "tb"), purge_step=state["updates"] or None)
    limiter = ReplayRatioLimiter(cfg.replay_ratio, cfg.burn_in, cfg.batch_size)
    hook = None if search is None else search.hook
    if backend == "local":
        actors = LocalBackend(cfg, run_seed, limiter=limiter, search_hook=hook)
    else:
        actors = RayBackend(cfg, run_seed, ray_address, limiter=limiter, search_hook=hook)
    learner_cpu = 0.0  # the learner thread's CPU seconds in this process (for the benchmark)

    def budget_left() -> bool:
        if updates is not None and state["updates"] >= updates:
            return False
        return minutes is None or state["seconds"] < minutes * 60

    def evaluate() -> None:
        m, se = evaluate_against(learner.policy, opp, ev)
        point = {"update": state["updates"], "seconds": round(state["seconds"], 1), "generated": state["generated"],
                 "imps": m, "se": se}
        state["evals"].append(point)
        writer.add_scalar("eval/imps_vs_sl", m, state["updates"])
        if state["best"] is None or m > state["best"]["imps"]:
            state["best"] = point
            save_model(out / "best", learner.policy, info={
                "rl": {"init": init, "config": cfg.to_json(), "validation": point,
                       "opponent": opponent}})
        learner.policy.train()

    def checkpoint() -> None:
        save_checkpoint(out, learner, state)
        # the run's latest policy as a plain model file (nn:RUN/final), beside the best on validation
        info = {"rl": {"init": init, "config": cfg.to_json(), "update": state["updates"], "opponent": opponent}}
        save_model(out / "final", learner.policy, info=info)
        if keep_policies:
            (out / "policies").mkdir(exist_ok=True)
            save_model(out / "policies" / f"update-{state['updates']:06d}", learner.policy, info=info)

    last = {"t": time.perf_counter(), "gen": state["generated"], "learned": state["learned"]}
    rates = {"generated_per_s": 0.0, "learned_per_s": 0.0}
    actors.publish(state["updates"], *learner.weights())
    if not state["evals"]:
        evaluate()
        checkpoint()
    metrics: dict[str, float] = {}
    try:
        clock = time.perf_counter()
        while budget_left():
            for batch in actors.poll(block=not (replay.ready and limiter.learner_may_step())):
                cols = {k: batch[k] for k in REPLAY_COLUMNS}
                replay.add(cols, insert_priorities(batch, cfg.alpha))
                state["generated"] += len(batch["call"])
                limiter.add_inserted(len(batch["call"]))
                if targets is not None and "targets" in batch:
                    add_search_targets(targets, batch["targets"], state["search"], writer, state["updates"])
            if replay.ready and limiter.learner_may_step():
                c0 = time.thread_time()
                slots, cols, w = replay.sample(cfg.batch_size)
                tcols, tw = None, 0.0
                if targets is not None and len(targets):
                    tcols = targets.take(search.batch_size)
                    tw = search.weight * len(tcols["call"]) / search.batch_size  # a sum over batch_size slots
                prio, metrics = learner.step(cols, w, tcols, tw, "nll" if search is None else search.loss)
                replay.update_priorities(slots, prio)
                learner_cpu += time.thread_time() - c0
                state["updates"] += 1
                state["learned"] += cfg.batch_size
                limiter.add_learned(cfg.batch_size)
                u = state["updates"]
                if u % cfg.sync_every == 0:
                    actors.publish(u, *learner.weights())
                if u % 10 == 0:
                    for k, v in metrics.items():
                        writer.add_scalar(f"loss/{k}", v, u)
                    writer.add_scalar("replay/mean_priority", replay.mean_priority(), u)
            now = time.perf_counter()
            state["seconds"] += now - clock
            clock = now
            if now - last["t"] >= 5.0:
                dt = now - last["t"]
                rates = {"generated_per_s": (state["generated"] - last["gen"]) / dt,
                         "learned_per_s": (state["learned"] - last["learned"]) / dt}
                last = {"t": now, "gen": state["generated"], "learned": state["learned"]}
                writer.add_scalar("throughput/generated_per_s", rates["generated_per_s"], state["updates"])
                writer.add_scalar("throughput/learned_per_s", rates["learned_per_s"], state["updates"])
            u = state["updates"]
            if replay.ready and u % cfg.eval_every == 0:
                evaluate()
                clock = time.perf_counter()  # evaluation time is not training time
            if replay.ready and u % cfg.checkpoint_every == 0:
                checkpoint()
            if progress is not None:
                progress({**state, **rates, "metrics": metrics, "replay": len(replay), "burn_in": cfg.burn_in,
                          "budget_updates": updates, "budget_seconds": None if minutes is None else minutes * 60})
        if state["evals"][-1]["update"] != state["updates"]:
            evaluate()
        checkpoint()
        state["actor_stats"] = actors.stats()
        # this process's share (not counted across resumptions): what the benchmark reports
        state["this_run"] = {"generated": limiter.inserted, "learned": limiter.learned,
                             "largest_batch": limiter.largest, "learner_cpu_seconds": learner_cpu,
                             "actor_cpu_seconds": getattr(actors, "cpu_seconds", None),
                             "actor_wait_seconds": limiter.actor_wait_seconds}
    finally:
        actors.close()
        writer.close()
    return state


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


def load_state(out: str | Path) -> dict:
    """The run's counters as a resume would see them: from the checkpoint's metadata. state.json
    is written just after the checkpoint, so a kill between the two leaves it one checkpoint
    behind; it is read only for a folder that has no checkpoint file."""
    ck, js = Path(out) / "checkpoint.safetensors", Path(out) / "state.json"
    if ck.exists():
        state = checkpoint_state(ck)
        state.pop("optimizers", None)
        return state
    if not js.exists():
        raise RLTrainingError(f"no training state in {out}")
    return json.loads(js.read_text())


__all__ = ["A2CConfig", "Learner", "LocalBackend", "RayBackend", "SearchTraining", "SelfPlayActor", "a2c_loss",
           "search_nll", "train_rl"]
