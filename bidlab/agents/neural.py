"""Neural bidding agents: a policy net over the 480 auction features, batched over boards.

``greedy`` plays the most probable legal call; ``sample`` draws from the legal-masked
softmax with an explicit seed. :meth:`NeuralAgent.decide` reads the 480 observations of
all its rows straight from the array state and makes one forward pass.

Repeated observations are computed once. The net is a deterministic function of the 480
(eval mode, no dropout), so rows whose player to act sees exactly the same thing get the
same logits: :meth:`NeuralAgent.logits` runs the forward pass only on the distinct
observations of a batch (keyed by the 60 packed bytes the state keeps per seat,
:attr:`~bidlab.envs.state.AuctionState.bits`) and copies each result to its rows. Batches
repeat themselves in two common cases: the same agent bidding both rooms of a duplicate
match (the same greedy net reaches the same auction in both rooms, so about half its rows
are repeats; :func:`bidlab.envs.rollout.rollout` batches one agent's rows together for
this), and particles of one search position at the searcher's own turns (same hand, same
auction). BMCS already skips those turns when it filters particles, so in its rollouts
only about 2% of the rows repeat (12 positions of ``bmcs:sl``: 20,665 of 20,994 rows
computed) and the saving there is small. The legal mask and the softmax are still
applied row by row, and ``sample`` mode still draws one sample per row from the same
generator, so the calls, probabilities and random stream are those of the plain forward
pass over every row (see :data:`MIN_FORWARD_BATCH` for why this holds to the bit).

**Anchored to SAYC at play time.** A model whose JSON holds ``"play": {"sayc_margin": m}``
bids ``sayc``'s call unless the net's own call is more likely than ``sayc``'s by more than
``m`` nats (log-probability): the net departs from the system only where it is sure. This is
piKL's test-time regularisation (Jacob et al. 2022) with the rule bidder itself as the
anchor, a hard version of ``argmax log pi - lambda * KL``; issue 29 measures what it buys
(``docs/partner.md``). ``nn:partner`` ships with it; every other model plays its net alone.
"""

from __future__ import annotations

import json
import math
import os
from importlib import resources
from pathlib import Path

import numpy as np
import torch

from bidlab.agents.base import AgentBase, BiddingView, Decision
from bidlab.agents.sayc import SaycAgent
from bidlab.bridge.calls import Call
from bidlab.bridge.features import OPENSPIEL480, PACKED_BYTES, unpack_observations
from bidlab.envs.state import AuctionState, observe, packed_observations, views_state
from bidlab.errors import BidlabError
from bidlab.nets import ModelFileError, load_model

MIN_FORWARD_BATCH = 16
"""Fewest rows :meth:`NeuralAgent.logits` gives the net when it skips repeated observations.

A row's logits are the same bits in any batch only while the matrix products use the same
kernels: on this build (MKL, AVX2) a batch of 1 to 3 rows (one torch thread), or of 5 to
11 rows (two threads), goes through other kernels whose last bits differ from a large
batch's. So batches under this size are computed whole, and a larger batch with fewer
distinct observations is padded up to it; then the distinct pass gives the plain pass's
bits (checked by tests/agents/test_neural_dedup.py)."""


class NeuralAgent(AgentBase):
    """A policy network that bids; see the module docstring."""

    def __init__(self, net: torch.nn.Module, meta: dict | None = None, mode: str = "greedy", seed: int = 0,
                 device: str = "cpu", dedup: bool = True):
        if mode not in ("greedy", "sample"):
            raise BidlabError(f"neural agent mode must be 'greedy' or 'sample', got {mode!r}")
        if net.cfg.kind != "policy" or net.cfg.input_dim != OPENSPIEL480:
            raise ModelFileError(f"a bidding agent needs a policy net on the 480 features, got a {net.cfg.kind} net "
                                 f"({net.cfg.input_dim} -> {net.cfg.output_dim})")
        self.net = net.to(device).eval()
        self.meta = meta or {}
        self.mode = mode
        self.device = device
        self.dedup = dedup
        self.name = "nn"
        self._gen = torch.Generator(device="cpu").manual_seed(int(seed))
        self.sayc_margin = sayc_margin(self.meta)
        self.sayc = None if self.sayc_margin is None else SaycAgent()

    @property
    def deterministic(self) -> bool:
        """Greedy: the calls depend on nothing but the net and the observation (no seed, no
        state), so one object may play several seats or teams (``bidlab match`` shares it)."""
        return self.mode == "greedy"

    def logits(self, state: AuctionState, dedup: bool | None = None) -> torch.Tensor:
        """Raw policy logits ``float32[n, 38]`` of the player to act at every row.

        With ``dedup`` (default: the agent's ``dedup``, True unless built otherwise) the net
        sees each distinct observation once (see the module docstring); ``dedup=False`` is
        the plain forward pass over every row, the reference the tests compare against.
        """
        n = state.n
        if not (self.dedup if dedup is None else dedup) or n < MIN_FORWARD_BATCH:
            x = torch.from_numpy(observe(state)).to(self.device)
            with torch.inference_mode():
                return self.net(x).float()
        packed = packed_observations(state)
        keys = packed.view(np.dtype((np.void, PACKED_BYTES))).reshape(n)
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        # Never shrink the batch below MIN_FORWARD_BATCH rows (padding with a repeat): see there.
        first = np.concatenate([first, np.repeat(first[:1], max(0, MIN_FORWARD_BATCH - len(first)))])
        x = unpack_observations(packed[first], np.empty((len(first), OPENSPIEL480), np.float32))
        with torch.inference_mode():
            distinct = self.net(torch.from_numpy(x).to(self.device)).float()
            return distinct[torch.from_numpy(inverse.reshape(n)).to(self.device)]

    def probabilities(self, state: AuctionState, dedup: bool | None = None) -> np.ndarray:
        """Legal-masked call probabilities ``float32[n, 38]`` of the player to act at every row."""
        legal = torch.from_numpy(state.legal).to(self.device)
        logits = self.logits(state, dedup)
        with torch.inference_mode():
            return torch.softmax(logits.masked_fill(~legal, float("-inf")), dim=-1).cpu().numpy()

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        if state.n == 0:
            return Decision(np.zeros(0, np.int64), np.zeros((0, 38), np.float32), [] if explain else None)
        p = self.probabilities(state)
        if self.mode == "greedy":
            ids = p.argmax(axis=1)
        else:
            ids = torch.multinomial(torch.from_numpy(p), 1, generator=self._gen).squeeze(1).numpy()
        if self.sayc is None:
            reasons = [self._reason(int(c), row) for c, row in zip(ids, p)] if explain else None
            return Decision(ids.astype(np.int64), p, reasons)
        system = self.sayc.decide(state).calls.astype(np.int64)
        rows = np.arange(state.n)
        logp = np.log(np.maximum(p, 1e-12))
        depart = (ids != system) & (logp[rows, ids] - logp[rows, system] > self.sayc_margin)
        calls = np.where(depart, ids, system)
        reasons = None
        if explain:
            reasons = [self._reason(int(c), row) if d else self._sayc_reason(int(c), int(a), row)
                       for c, a, d, row in zip(calls, ids, depart, p)]
        return Decision(calls.astype(np.int64), p, reasons)

    def _sayc_reason(self, call: int, net_call: int, p: np.ndarray) -> str:
        if call == net_call:
            return f"{Call(call)}: SAYC's call, and the policy network's; top calls {_top_calls_text(p)}"
        times = math.exp(self.sayc_margin)
        return (f"{Call(call)}: SAYC's call. The network preferred {Call(net_call)} ({p[net_call]:.0%} against "
                f"{p[call]:.0%}), but this bot keeps to SAYC unless its own call is at least {times:.0f} times as "
                f"likely as SAYC's")

    def _reason(self, call: int, p: np.ndarray) -> str:
        return f"{Call(call)}: policy network ({self.mode}); top calls {_top_calls_text(p)}"

    def top_calls(self, view: BiddingView, k: int = 5) -> list[tuple[Call, float]]:
        """The ``k`` most probable legal calls with their probabilities."""
        p = self.probabilities(views_state([view]))[0]
        order = np.argsort(-p)[:k]
        return [(Call(int(i)), float(p[i])) for i in order if p[i] > 0]


def _top_calls_text(p: np.ndarray) -> str:
    """The three most probable calls of one row, e.g. ``1♠ 62%, 1NT 20%, Pass 9%``."""
    order = np.argsort(-p)[:3]
    return ", ".join(f"{Call(int(i))} {p[i]:.0%}" for i in order if p[i] > 0)


def sayc_margin(meta: dict) -> float | None:
    """``meta["play"]["sayc_margin"]``: the nats by which the net must prefer its call to
    ``sayc``'s to bid it (see the module docstring); None for a net that plays alone."""
    play = meta.get("play") if isinstance(meta, dict) else None
    if not isinstance(play, dict) or play.get("sayc_margin") is None:
        return None
    m = play["sayc_margin"]
    if isinstance(m, bool) or not isinstance(m, (int, float)) or not m >= 0:
        raise ModelFileError(f"the model's play.sayc_margin must be a number >= 0, got {m!r}")
    return float(m)


def shipped_models_dir() -> Path:
    return Path(str(resources.files("bidlab") / "models"))


def _shipped_kind(weights: Path) -> str | None:
    """The kind a model's JSON names: at the top (trick nets) or in its ``net`` config."""
    try:
        meta = json.loads(weights.with_suffix(".json").read_text())
    except (OSError, ValueError):
        return None
    net = meta.get("net")
    return meta.get("kind") or (net.get("kind") if isinstance(net, dict) else None)


def resolve_model(name_or_path: str | os.PathLike, kind: str | None = None) -> Path:
    """A model path, the name of a model shipped with bidlab (e.g. ``sl``), or an earlier
    shipped generation by name and update count (``rl@8750``, kept in ``models/history/`` so
    that a ratings table can always set a new model against every one of its ancestors).

    ``kind`` (e.g. ``policy``) only narrows the list of shipped models an error offers, so
    that a bidding agent's error does not suggest the belief or trick nets."""
    p = Path(name_or_path)
    if p.suffix in ("", ".safetensors", ".json") and p.with_suffix(".safetensors").is_file():
        return p.with_suffix(".safetensors")
    folder = shipped_models_dir() / "history" if "@" in p.name else shipped_models_dir()
    shipped = folder / f"{p.name}.safetensors"
    if shipped.exists() and len(p.parts) == 1:
        return shipped
    if "@" in p.name and len(p.parts) == 1:
        kept = sorted((f.stem for f in folder.glob("*.safetensors")),
                      key=lambda n: (n.split("@")[0], int(n.split("@")[1]) if n.split("@")[1].isdigit() else 0))
        raise ModelFileError(f"no shipped generation {p.name} (kept: {', '.join(kept) or 'none'})")
    files = sorted(shipped_models_dir().glob("*.safetensors")) if shipped_models_dir().exists() else []
    known = [f.stem for f in files if kind is None or _shipped_kind(f) == kind]
    what = "shipped models" if kind is None else f"shipped {kind} models"
    raise ModelFileError(f"no model at {p} ({what}: {', '.join(known) or 'none'})")


def load_neural_agent(path: str | os.PathLike, mode: str = "greedy", seed: int = 0,
                      device: str = "cpu") -> NeuralAgent:
    net, meta = load_model(resolve_model(path, kind="policy"), device=device)
    return NeuralAgent(net, meta, mode=mode, seed=seed, device=device)
