"""Neural bidding agents: a policy net over the 480 auction features, batched over boards.

``greedy`` plays the most probable legal call; ``sample`` draws from the legal-masked
softmax with an explicit seed. :meth:`NeuralAgent.decide` reads the 480 observations of
all its rows straight from the array state and makes one forward pass.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import numpy as np
import torch

from bidlab.agents.base import AgentBase, BiddingView, Decision
from bidlab.bridge.calls import Call
from bidlab.bridge.features import OPENSPIEL480
from bidlab.envs.state import AuctionState, observe, views_state
from bidlab.errors import BidlabError
from bidlab.nets import ModelFileError, load_model


class NeuralAgent(AgentBase):
    """A policy network that bids; see the module docstring."""

    def __init__(self, net: torch.nn.Module, meta: dict | None = None, mode: str = "greedy", seed: int = 0,
                 device: str = "cpu"):
        if mode not in ("greedy", "sample"):
            raise BidlabError(f"neural agent mode must be 'greedy' or 'sample', got {mode!r}")
        if net.cfg.kind != "policy" or net.cfg.input_dim != OPENSPIEL480:
            raise ModelFileError(f"a bidding agent needs a policy net on the 480 features, got {net.cfg}")
        self.net = net.to(device).eval()
        self.meta = meta or {}
        self.mode = mode
        self.device = device
        self.name = "nn"
        self._gen = torch.Generator(device="cpu").manual_seed(int(seed))

    def probabilities(self, state: AuctionState) -> np.ndarray:
        """Legal-masked call probabilities ``float32[n, 38]`` of the player to act at every row."""
        x = torch.from_numpy(observe(state)).to(self.device)
        legal = torch.from_numpy(state.legal).to(self.device)
        with torch.inference_mode():
            logits = self.net(x).float().masked_fill(~legal, float("-inf"))
            return torch.softmax(logits, dim=-1).cpu().numpy()

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        if state.n == 0:
            return Decision(np.zeros(0, np.int64), np.zeros((0, 38), np.float32), [] if explain else None)
        p = self.probabilities(state)
        if self.mode == "greedy":
            ids = p.argmax(axis=1)
        else:
            ids = torch.multinomial(torch.from_numpy(p), 1, generator=self._gen).squeeze(1).numpy()
        reasons = [self._reason(int(c), row) for c, row in zip(ids, p)] if explain else None
        return Decision(ids.astype(np.int64), p, reasons)

    def _reason(self, call: int, p: np.ndarray) -> str:
        order = np.argsort(-p)[:3]
        parts = ", ".join(f"{Call(int(i))} {p[i]:.0%}" for i in order if p[i] > 0)
        return f"{Call(call)}: policy network ({self.mode}); top calls {parts}"

    def top_calls(self, view: BiddingView, k: int = 5) -> list[tuple[Call, float]]:
        """The ``k`` most probable legal calls with their probabilities."""
        p = self.probabilities(views_state([view]))[0]
        order = np.argsort(-p)[:k]
        return [(Call(int(i)), float(p[i])) for i in order if p[i] > 0]


def shipped_models_dir() -> Path:
    return Path(str(resources.files("bidlab") / "models"))


def resolve_model(name_or_path: str | os.PathLike) -> Path:
    """A model path, or the name of a model shipped with bidlab (e.g. ``sl``)."""
    p = Path(name_or_path)
    if p.suffix in ("", ".safetensors", ".json") and p.with_suffix(".safetensors").is_file():
        return p.with_suffix(".safetensors")
    shipped = shipped_models_dir() / f"{p.name}.safetensors"
    if shipped.exists() and len(p.parts) == 1:
        return shipped
    known = sorted(f.stem for f in shipped_models_dir().glob("*.safetensors")) if shipped_models_dir().exists() else []
    raise ModelFileError(f"no model at {p} (shipped models: {', '.join(known) or 'none'})")


def load_neural_agent(path: str | os.PathLike, mode: str = "greedy", seed: int = 0,
                      device: str = "cpu") -> NeuralAgent:
    net, meta = load_model(resolve_model(path), device=device)
    return NeuralAgent(net, meta, mode=mode, seed=seed, device=device)
