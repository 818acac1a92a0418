"""The belief network (Qiu et al. 2024 Sec. V): from one player's 480 observation, the
probability that each of the other three players holds each card.

Data (Sec. V; the authors' ``train_belief.py``): self-play of the policy in ``sample`` mode
(all four seats, the policy whose calls the searcher will later explain) on TRAIN deals of
the DD store with random dealer and vulnerability. Every state before every call gives one
pair (the 480 observation of the player to act, the 156 hidden cards: LHO, partner, RHO in
OpenSpiel's card order rank*4 + suit), read through :func:`bidlab.envs.rollout.rollout`'s
``on_decision`` hook and :func:`bidlab.envs.state.observe636` (whose last 156 columns are
exactly those hands). Pairs are stored bit-packed.

**A mixture** (issue 44: a belief that reads strangers). ``policy`` may name several bidders,
``"rl,sl,partner,sayc"``: then each batch of deals is bid by a pair drawn from them, one
North-South and one East-West (a pair may be one bidder twice), so the net learns to read
calls from partners and opponents of several styles, as a searcher meets them, not only its
own policy's self-play. A net name (``rl``, ``rl@80000``, a path) bids in sample mode, as
the single-policy data does; an agent spec with a colon or a rule bidder (``sayc``) bids as
that agent.

Output (``output``): the paper's net ends in 156 independent sigmoids. Trained that way on
20k SL auctions it was barely better than the uniform belief (held-out 0.4741 vs 0.4774 nats)
and *worse* before the first call, where the uniform belief is exactly right: given the
searcher's hand every unseen card is in each other hand with probability 1/3 and its own
cards nowhere, and 156 free sigmoids have to learn that structure (hard zeros, a per-card sum
of one) from data before they can learn anything from the auction. ``card_softmax`` (our
default) builds it in: the 156 logits are read as 52 cards x 3 hands, each unseen card's
three probabilities are a softmax (the card is in exactly one hand) and the searcher's own
cards get 0. With the head initialised to zero the net starts *exactly* at the uniform
belief, and training can only move it away where the auction says so. Before the first call
the output is held at the uniform belief (the exact posterior there: measured, a trained net
left free drifted 0.0003 nats above it).

Training: mean binary cross-entropy over the 156 outputs (the paper's loss, so numbers stay
comparable), Adam (paper 3e-4, batch 256), learning rate decayed linearly to 10% over the run.
The run folder holds ``data.safetensors`` (the pairs, written once), ``checkpoint.safetensors``
+ ``state.json`` (weights, Adam moments, step; atomic, every ``checkpoint_every`` steps), and
``model.safetensors`` + ``model.json`` (the best model by held-out cross-entropy). Rerunning
the same command resumes; batches come from a permutation seeded by (seed, epoch).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from bidlab.bridge.features import OPENSPIEL480
from bidlab.envs.rollout import Policy, rollout
from bidlab.envs.state import init, observe636
from bidlab.errors import BidlabError
from bidlab.fileio import write_bytes_atomic, write_json_atomic
from bidlab.learn.optim import decayed_step
from bidlab.nets import BeliefNet, build, load_model, load_optimizer, optimizer_tensors, preset, save_model

HIDDEN = 156
OUTPUTS = ("card_softmax", "sigmoid")
OWN = slice(OPENSPIEL480 - 52, OPENSPIEL480)     # the acting player's hand in the 480


class BeliefTrainingError(BidlabError):
    """Belief training cannot start or resume as asked."""


@dataclass(frozen=True)
class BeliefConfig:
    """Hyperparameters of belief training. ``paper``: 4 x 1024, Adam 3e-4, batch 256."""

    policy: str = "sl"
    preset: str = "cpu"
    deals: int = 20000           # TRAIN deals bid by self-play
    passes: int = 1              # auctions per deal (each with its own dealer, vulnerability, calls)
    output: str = "card_softmax"  # or "sigmoid" (the paper's 156 independent sigmoids)
    lr: float = 3e-4
    batch_size: int = 256
    epochs: int = 3
    seed: int = 0
    heldout_every: int = 20      # every 20th auction is held out
    checkpoint_every: int = 500
    max_steps: int | None = None

    @classmethod
    def paper(cls, **kw) -> BeliefConfig:
        return cls(**{"preset": "paper", **kw})

    def data_key(self) -> dict:
        key = {"policy": self.policy, "deals": self.deals, "seed": self.seed}
        return key | ({"passes": self.passes} if self.passes != 1 else {})

    def net_config(self):
        if self.output not in OUTPUTS:
            raise BeliefTrainingError(f"belief output must be one of {', '.join(OUTPUTS)}, got {self.output!r}")
        return replace(preset("belief", self.preset), extra={"output": self.output})


# -- data ------------------------------------------------------------------------------------


def policy_names(policy: str) -> list[str]:
    """The bidders a ``--policy`` text names: ``"rl"`` or a comma-separated mixture ``"rl,sayc"``."""
    names = [p.strip() for p in policy.split(",")]
    if not all(names):
        raise BeliefTrainingError(f"--policy must name one bidder or several separated by commas, got {policy!r}")
    return names


def is_net_name(name: str) -> bool:
    """A ``--policy`` name that is a policy net (``rl``, ``rl@80000``, a path), not an agent
    spec with a colon or the rule bidder ``sayc``."""
    return ":" not in name and name != "sayc"


def mixture_bidder(name: str, seed: int) -> Policy:
    """One bidder of the data: a net name in sample mode, or any other agent spec as itself."""
    from bidlab.agents.neural import load_neural_agent
    from bidlab.agents.registry import make_agent

    if is_net_name(name):
        return load_neural_agent(name, mode="sample", seed=seed)
    return make_agent(name, seed)


def self_play_pairs(policy: Policy | list[Policy], deals: np.ndarray, seed: int = 0,
                    batch: int = 2048) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bid ``deals`` with ``policy`` at all four seats (or, given a list of bidders, each batch
    with a pair drawn from it, North-South and East-West); every state before every call as
    (obs480 packed uint8[m, 60], hidden156 packed uint8[m, 20], auction index int32[m],
    call number int16[m] packed into the third array as ``index * 1024 + length``)."""
    rng = np.random.default_rng([seed, 5])
    pairs = np.random.default_rng([seed, 6])  # its own stream: one bidder gives the data it always gave
    bidders = policy if isinstance(policy, list) else [policy]
    obs_parts, hid_parts, where_parts = [], [], []
    for start in range(0, len(deals), batch):
        d = deals[start:start + batch]
        n = len(d)
        state = init(d, rng.integers(0, 4, n), rng.integers(0, 4, n))
        table = [bidders[0]] if len(bidders) == 1 else [bidders[int(i)] for i in pairs.integers(0, len(bidders), 2)]
        seats = np.zeros(4, np.int64) if len(table) == 1 else np.array([0, 1, 0, 1])

        def hook(_pi, rows, sub, _decision, base=start):
            x = observe636(sub)
            obs_parts.append(np.packbits(x[:, :OPENSPIEL480] > 0.5, axis=1))
            hid_parts.append(np.packbits(x[:, OPENSPIEL480:] > 0.5, axis=1))
            where_parts.append((np.asarray(rows, np.int64) + base) * 1024 + sub.length.astype(np.int64))

        rollout(state, table, seats, inplace=True, on_decision=hook)
    return np.concatenate(obs_parts), np.concatenate(hid_parts), np.concatenate(where_parts)


def generate_data(out: Path, cfg: BeliefConfig, progress: Callable[[str], None] | None = None) -> dict:
    """Write ``out/data.safetensors`` once (reused on resume if its key matches)."""
    from safetensors.numpy import load_file, save

    from bidlab.agents.neural import load_neural_agent
    from bidlab.dd import shipped_store

    path = out / "data.safetensors"
    key_path = out / "data.json"
    if path.exists() and key_path.exists():
        if json.loads(key_path.read_text()) == cfg.data_key():
            return load_file(str(path))
        raise BeliefTrainingError(f"{out} holds belief data of another configuration; use a new --out")
    deals, _, _ = shipped_store().load("train")
    if cfg.deals > len(deals):
        raise BeliefTrainingError(f"the train split has {len(deals)} deals, {cfg.deals} asked")
    order = np.random.default_rng([cfg.seed, 11]).permutation(len(deals))[: cfg.deals]
    names = policy_names(cfg.policy)
    agent = (load_neural_agent(cfg.policy, mode="sample", seed=cfg.seed) if len(names) == 1
             else [mixture_bidder(name, cfg.seed) for name in names])
    if progress:
        what = f"self-play of {cfg.policy} (sample mode)" if len(names) == 1 else f"auctions of pairs drawn from {', '.join(names)}"
        progress(f"{what} on {cfg.deals} train deals x {cfg.passes} auctions")
    # pass j's auctions get indices j*deals + i: split_rows holds out deal i in every pass
    parts = [self_play_pairs(agent, deals[order], cfg.seed + 1000 * j) for j in range(cfg.passes)]
    obs = np.concatenate([p[0] for p in parts])
    hid = np.concatenate([p[1] for p in parts])
    where = np.concatenate([p[2] + j * cfg.deals * 1024 for j, p in enumerate(parts)])
    data = {"obs": obs, "hidden": hid, "where": where}
    out.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(path, save(data))
    write_json_atomic(key_path, cfg.data_key())
    return data


def unpack(obs: np.ndarray, hid: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    x = np.unpackbits(obs, axis=1, count=OPENSPIEL480).astype(np.float32)
    y = np.unpackbits(hid, axis=1, count=HIDDEN).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(y)


def split_rows(where: np.ndarray, every: int, deals: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(train rows, held-out rows): every ``every``-th auction is held out, whole; with
    ``deals`` (auction ``j * deals + i`` is pass j of deal i) every ``every``-th *deal*, in all
    its passes, so no held-out deal is ever trained on."""
    auction = where // 1024
    if deals:
        auction = auction % deals
    held = auction % every == 0
    return np.flatnonzero(~held), np.flatnonzero(held)


# -- training --------------------------------------------------------------------------------


def output_kind(net: BeliefNet) -> str:
    """How ``net``'s 156 logits become probabilities: ``card_softmax`` or ``sigmoid`` (nets
    saved before the choice existed are sigmoid nets)."""
    return net.cfg.extra.get("output", "sigmoid")


def probabilities(net: BeliefNet, x: torch.Tensor) -> torch.Tensor:
    """``float32[n, 156]``: P(LHO / partner / RHO holds card c) from 480 observations ``x``
    (see the module docstring for the two output kinds)."""
    logits = net(x)
    if output_kind(net) == "sigmoid":
        return torch.sigmoid(logits)
    return _card_softmax(logits, x)


def _before_any_call(x: torch.Tensor) -> torch.Tensor:
    """bool[n]: no call made yet (the 480's opening-pass and call blocks, [4:428], all zero)."""
    return ~(x[:, 4:OPENSPIEL480 - 52] > 0.5).any(dim=1)


def _card_logits(logits: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """``[n, 3, 52]`` logits of a ``card_softmax`` net. Before the first call the belief is
    *set* to uniform (all logits 0): given only its own hand, every deal of the other 39
    cards is equally likely, so the exact answer is known and nothing is left to learn."""
    z = logits.view(-1, 3, 52)
    return torch.where(_before_any_call(x)[:, None, None], torch.zeros_like(z), z)


def _card_softmax(logits: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """Per card a softmax over the three hidden hands; the acting player's own cards 0."""
    p = torch.softmax(_card_logits(logits, x), dim=1)
    unseen = (x[:, OWN] < 0.5).to(p.dtype)
    return (p * unseen[:, None, :]).reshape(-1, HIDDEN)


def bce_per_row(net: BeliefNet, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Mean binary cross-entropy over the 156 outputs, per row (nats)."""
    logits = net(x)
    if output_kind(net) == "sigmoid":
        return F.binary_cross_entropy_with_logits(logits, y, reduction="none").mean(dim=1)
    logp = torch.log_softmax(_card_logits(logits, x), dim=1)
    # log(1 - p) = log of the other two hands' probability mass, computed stably
    others = torch.stack([torch.logaddexp(logp[:, 1], logp[:, 2]), torch.logaddexp(logp[:, 0], logp[:, 2]),
                          torch.logaddexp(logp[:, 0], logp[:, 1])], dim=1)
    ce = -(y.view(-1, 3, 52) * logp + (1 - y.view(-1, 3, 52)) * others)
    unseen = (x[:, OWN] < 0.5).to(ce.dtype)                # own cards: p = 0 = y exactly, no loss
    return (ce * unseen[:, None, :]).reshape(-1, HIDDEN).mean(dim=1)


def he_init(net: torch.nn.Module) -> None:
    """He (Kaiming) normal weights, zero biases. With torch's default Linear init the 4-layer
    GELU MLP sat on the constant-output plateau (BCE 0.5623 = predicting 13/52 everywhere)
    for 300+ steps at lr 1e-3; with this it leaves it within 50 steps (measured).
    A ``card_softmax`` net's head starts at zero: every logit equal = exactly the uniform belief."""
    for m in net.modules():
        if isinstance(m, torch.nn.Linear):
            torch.nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            torch.nn.init.zeros_(m.bias)
    if output_kind(net) == "card_softmax":
        torch.nn.init.zeros_(net.head.weight)


def evaluate(net: BeliefNet, obs: np.ndarray, hid: np.ndarray, batch: int = 8192) -> float:
    net.eval()
    total = 0.0
    with torch.inference_mode():
        for s in range(0, len(obs), batch):
            x, y = unpack(obs[s:s + batch], hid[s:s + batch])
            total += float(bce_per_row(net, x, y).sum())
    net.train()
    return total / max(len(obs), 1)


def train_belief(out: str | Path, cfg: BeliefConfig, progress: Callable[[dict], None] | None = None) -> dict:
    """Generate the data (once) and train; returns the final state dict (see module docstring)."""
    from safetensors.torch import load as load_tensors
    from safetensors.torch import save as save_tensors

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    data = generate_data(out, cfg, (lambda m: progress({"message": m})) if progress else None)
    obs, hid, where = data["obs"], data["hidden"], data["where"]
    train_rows, held_rows = split_rows(where, cfg.heldout_every, cfg.deals if cfg.passes > 1 else None)
    torch.manual_seed(cfg.seed)
    net = build(cfg.net_config())
    he_init(net)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    state = {"config": asdict(cfg), "step": 0, "epoch": 0, "best_bce": None, "history": []}
    ck, st = out / "checkpoint.safetensors", out / "state.json"
    if ck.exists() and st.exists():
        saved = json.loads(st.read_text())
        if saved["config"] != asdict(cfg) | {"max_steps": saved["config"].get("max_steps")}:
            raise BeliefTrainingError(f"{out} holds a run with another configuration; use a new --out")
        tensors = load_tensors(ck.read_bytes())
        net.load_state_dict({k[4:]: v for k, v in tensors.items() if k.startswith("net.")})
        load_optimizer(opt, {k[4:]: v for k, v in tensors.items() if k.startswith("opt.")}, saved["opt"])
        state = saved

    def checkpoint() -> None:
        ot, extra = optimizer_tensors(opt)
        tensors = {f"net.{k}": v.contiguous() for k, v in net.state_dict().items()}
        tensors.update({f"opt.{k}": v for k, v in ot.items()})
        write_bytes_atomic(ck, save_tensors(tensors))
        write_json_atomic(st, dict(state, opt=extra))

    steps_per_epoch = math.ceil(len(train_rows) / cfg.batch_size)
    t0, seen = time.time(), 0
    net.train()
    while state["epoch"] < cfg.epochs:
        perm = train_rows[np.random.default_rng([cfg.seed, state["epoch"]]).permutation(len(train_rows))]
        k0 = state["step"] - state["epoch"] * steps_per_epoch
        for k in range(k0, steps_per_epoch):
            if cfg.max_steps is not None and state["step"] >= cfg.max_steps:
                checkpoint()
                return state
            rows = np.sort(perm[k * cfg.batch_size:(k + 1) * cfg.batch_size])
            x, y = unpack(obs[rows], hid[rows])
            loss = bce_per_row(net, x, y).mean()
            decayed_step(opt, loss, cfg.lr, state["step"], cfg.epochs * steps_per_epoch)
            state["step"] += 1
            seen += len(rows)
            if progress and state["step"] % 50 == 0:
                progress({"epoch": state["epoch"], "step_in_epoch": k + 1, "steps_per_epoch": steps_per_epoch,
                          "loss": float(loss.detach()), "pairs_per_s": seen / max(time.time() - t0, 1e-9)})
            if state["step"] % cfg.checkpoint_every == 0:
                checkpoint()
        bce = evaluate(net, obs[held_rows], hid[held_rows])
        uniform_bce = uniform_cross_entropy(obs[held_rows], hid[held_rows])
        state["epoch"] += 1
        state["history"].append({"epoch": state["epoch"], "heldout_bce": bce})
        if state["best_bce"] is None or bce < state["best_bce"]:
            state["best_bce"] = bce
            save_model(out / "model", net, {
                "trained_on": trained_on(cfg.policy), **cfg.data_key(),
                # which generation of each policy it read: a name such as "rl" moves on when a new one ships
                **generations(cfg.policy),
                "pairs": int(len(train_rows)), "heldout_pairs": int(len(held_rows)), "heldout_bce": bce,
                "heldout_uniform_bce": uniform_bce, "epoch": state["epoch"], "epochs": cfg.epochs, "lr": cfg.lr,
                "batch_size": cfg.batch_size})
        checkpoint()
        if progress:
            progress({"epoch_done": state["epoch"], "heldout_bce": bce, "uniform_bce": uniform_bce,
                      "pairs": int(len(train_rows))})
    return state


def trained_on(policy: str) -> str:
    if len(policy_names(policy)) == 1:
        return "self-play of the policy on TRAIN deals of the shipped DD store"
    return "auctions of pairs drawn from the policies (one North-South, one East-West) on TRAIN deals of the shipped DD store"


def generations(policy: str) -> dict:
    """What a belief's model card records of the bidders it read: ``policy_sha256`` for one
    net, ``policies_sha256`` (name -> hash, None for a rule bidder) for a mixture."""
    names = policy_names(policy)
    if len(names) == 1:
        return {"policy_sha256": policy_weights_hash(policy)}
    return {"policies_sha256": {n: policy_weights_hash(n) if is_net_name(n) else None for n in names}}


def policy_weights_hash(name_or_path: str) -> str:
    """sha256 of the policy's weights file: what names the generation a belief was trained
    on (``rl`` is whichever ``nn:rl`` ships; the hash matches one file in models/history/)."""
    import hashlib

    from bidlab.agents.neural import resolve_model

    return hashlib.sha256(resolve_model(name_or_path, kind="policy").read_bytes()).hexdigest()


def load_belief(name_or_path: str = "belief", device: str = "cpu") -> BeliefNet:
    """A saved belief net (a path, or the name of a shipped model such as ``belief``) on ``device``."""
    from bidlab.agents.neural import resolve_model

    net, _ = load_model(resolve_model(name_or_path), device=device)
    if net.cfg.kind != "belief":
        raise BeliefTrainingError(f"{name_or_path} is a {net.cfg.kind} net, not a belief net")
    return net


# -- Fig. 3: cross-entropy against auction length ----------------------------------------------


def uniform_belief(obs480: np.ndarray) -> np.ndarray:
    """The uniform belief: each of the 39 unseen cards in each other hand with prob 1/3."""
    own = obs480[:, OPENSPIEL480 - 52:]
    p = np.where(own > 0.5, 0.0, 1.0 / 3.0).astype(np.float32)
    return np.concatenate([p, p, p], axis=1)


def uniform_cross_entropy(obs: np.ndarray, hid: np.ndarray, eps: float = 1e-6, batch: int = 65536) -> float:
    """Mean BCE (nats per card slot) of packed pairs under :func:`uniform_belief`."""
    total, n = 0.0, 0
    for s in range(0, len(obs), batch):
        x, y = unpack(obs[s:s + batch], hid[s:s + batch])
        q = uniform_belief(x.numpy()).clip(eps, 1 - eps)
        y = y.numpy()
        total += float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).mean(axis=1).sum())
        n += len(x)
    return total / max(n, 1)


def cross_entropy_by_length(net: BeliefNet, obs: np.ndarray, hid: np.ndarray, where: np.ndarray,
                            max_length: int = 24, eps: float = 1e-6) -> dict:
    """Fig. 3 data. For each auction length (calls made before the decision): the mean
    cross-entropy (nats per card slot over the 156 outputs, the training loss) of the real
    hidden hands under the belief net and under the uniform belief, and the entropy of the
    real hands as a reference (0: a one-hot target has no entropy of its own), plus counts."""
    x, y = unpack(obs, hid)
    with torch.inference_mode():
        p = probabilities(net, x).numpy().clip(eps, 1 - eps)
    u = uniform_belief(x.numpy()).clip(eps, 1 - eps)
    y = y.numpy()

    def ce(q):
        return -(y * np.log(q) + (1 - y) * np.log(1 - q)).mean(axis=1)

    length = where % 1024
    ce_b, ce_u = ce(p), ce(u)
    rows = []
    for L in range(max_length + 1):
        m = length == L
        if m.sum() >= 20:
            rows.append({"length": L, "n": int(m.sum()), "belief": float(ce_b[m].mean()),
                         "uniform": float(ce_u[m].mean()), "real": 0.0})
    return {"rows": rows, "belief_mean": float(ce_b.mean()), "uniform_mean": float(ce_u.mean())}
