"""Neural bidding agents: a policy net over the 480 auction features, batched over boards.

``greedy`` plays the most probable legal call; ``sample`` draws from the legal-masked
softmax with an explicit seed. ``act_batch`` encodes all views into one array and makes
one forward pass.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np
import torch

from bidlab.agents.base import AgentBase, BiddingView
from bidlab.bridge.calls import Call
from bidlab.bridge.features import OPENSPIEL480, encode_views
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

    def probabilities(self, views: Sequence[BiddingView]) -> np.ndarray:
        """Legal-masked call probabilities ``float32[n, 38]``."""
        x = encode_views(views, "openspiel480")
        legal = np.array([v.auction.legal_mask() for v in views], dtype=bool)
        with torch.inference_mode():
            logits = self.net(torch.from_numpy(x).to(self.device))
            logits = logits.masked_fill(~torch.from_numpy(legal).to(self.device), float("-inf"))
            return torch.softmax(logits.float(), dim=-1).cpu().numpy()

    def act_batch(self, views: Sequence[BiddingView]) -> list[Call]:
        if not views:
            return []
        p = self.probabilities(views)
        if self.mode == "greedy":
            ids = p.argmax(axis=1)
        else:
            ids = torch.multinomial(torch.from_numpy(p), 1, generator=self._gen).squeeze(1).numpy()
        return [Call(int(i)) for i in ids]

    def act(self, view: BiddingView) -> Call:
        return self.act_batch([view])[0]

    def top_calls(self, view: BiddingView, k: int = 5) -> list[tuple[Call, float]]:
        """The ``k`` most probable legal calls with their probabilities."""
        p = self.probabilities([view])[0]
        order = np.argsort(-p)[:k]
        return [(Call(int(i)), float(p[i])) for i in order if p[i] > 0]

    def explain(self, view: BiddingView) -> str:
        top = self.top_calls(view, 3)
        chosen = self.act(view)
        parts = ", ".join(f"{c} {p:.0%}" for c, p in top)
        return f"{chosen}: policy network ({self.mode}); top calls {parts}"


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
