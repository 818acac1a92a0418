"""The networks of the bridge pipelines, and their safetensors + JSON files.

- :class:`PolicyNet` (Qiu et al. Sec. III, Appendix B): 480 auction features -> MLP with
  GELU -> 38 call logits, illegal calls masked. ``paper`` preset 4 x 2048; ``cpu`` preset
  4 x 512 (1.05M parameters, a 4.2 MB file), sized so SL and self-play keep pace on a
  shared 2-core machine.
- :class:`ValueNet` (Qiu Sec. IV, Table VI): 636 features (480 + the 156 hidden cards of
  LHO, partner, RHO) -> 5 x 1024 GELU -> tanh scalar in [-1, 1] (the IMP/24 reward).
- :class:`BeliefNet` (Qiu Sec. V): 480 -> 4 x 1024 GELU -> 156 sigmoids, the probability
  that LHO, partner, RHO hold each card (blocks of 52 in OpenSpiel's card order, the
  order of the 480 input's own-hand block).
- :class:`JpsNet` (Tian et al. Sec. 7 and appendix D): 267 -> 200, then 4 layers of 200
  with a skip connection every two layers, a 38-way policy head and a value head.

A model file is ``NAME.safetensors`` (weights, with the config also in its metadata) and
``NAME.json`` (the same config: kind, preset, sizes, encoder, bidlab version, and what
it was trained on). Loading never unpickles anything.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch
from torch import nn

import bidlab
from bidlab.errors import BidlabError


class ModelFileError(BidlabError):
    """A model file is missing, corrupt, or not a bidlab model."""


@dataclass(frozen=True)
class NetConfig:
    """Shape of a network; ``kind`` picks the class, ``encoder`` its input features."""

    kind: str                 # "policy", "value", "belief" or "jps"
    preset: str
    input_dim: int
    hidden: int
    layers: int
    output_dim: int
    encoder: str
    extra: dict = field(default_factory=dict)


PRESETS: dict[tuple[str, str], NetConfig] = {
    ("policy", "paper"): NetConfig("policy", "paper", 480, 2048, 4, 38, "openspiel480"),
    ("policy", "cpu"): NetConfig("policy", "cpu", 480, 512, 4, 38, "openspiel480"),
    ("policy", "tiny"): NetConfig("policy", "tiny", 480, 64, 2, 38, "openspiel480"),
    ("value", "paper"): NetConfig("value", "paper", 636, 1024, 5, 1, "value636"),
    ("value", "cpu"): NetConfig("value", "cpu", 636, 512, 4, 1, "value636"),
    ("value", "tiny"): NetConfig("value", "tiny", 636, 64, 2, 1, "value636"),
    ("belief", "paper"): NetConfig("belief", "paper", 480, 1024, 4, 156, "openspiel480"),
    ("belief", "cpu"): NetConfig("belief", "cpu", 480, 512, 4, 156, "openspiel480"),
    ("belief", "tiny"): NetConfig("belief", "tiny", 480, 64, 2, 156, "openspiel480"),
    ("jps", "paper"): NetConfig("jps", "paper", 267, 200, 4, 38, "jps267"),
    ("jps", "cpu"): NetConfig("jps", "cpu", 267, 200, 4, 38, "jps267"),
    ("jps", "tiny"): NetConfig("jps", "tiny", 267, 32, 2, 38, "jps267"),
}


def preset(kind: str, name: str) -> NetConfig:
    try:
        return PRESETS[(kind, name)]
    except KeyError:
        names = sorted(p for k, p in PRESETS if k == kind)
        raise ModelFileError(f"no {kind} preset {name!r}; choose one of {', '.join(names)}") from None


def _mlp(input_dim: int, hidden: int, layers: int) -> nn.Sequential:
    mods: list[nn.Module] = []
    width = input_dim
    for _ in range(layers):
        mods += [nn.Linear(width, hidden), nn.GELU()]
        width = hidden
    return nn.Sequential(*mods)


class _MLPNet(nn.Module):
    """``layers`` x ``hidden`` GELU body and a linear head of ``output_dim``."""

    def __init__(self, cfg: NetConfig):
        super().__init__()
        self.cfg = cfg
        self.body = _mlp(cfg.input_dim, cfg.hidden, cfg.layers)
        self.head = nn.Linear(cfg.hidden, cfg.output_dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


class PolicyNet(_MLPNet):
    """480 -> layers x hidden (GELU) -> 38 logits."""

    @staticmethod
    def mask_logits(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
        """Illegal calls get -inf, so softmax and argmax see only legal ones."""
        return logits.masked_fill(~legal, float("-inf"))


class ValueNet(_MLPNet):
    """636 -> layers x hidden (GELU) -> tanh scalar (Qiu's value net with hidden information)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(super().forward(x)).squeeze(-1)


class BeliefNet(_MLPNet):
    """480 -> layers x hidden (GELU) -> 156 logits (forward, for a stable BCE loss);
    ``probabilities`` applies the sigmoid."""

    def probabilities(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.forward(x))


class JpsNet(nn.Module):
    """Tian et al.'s residual MLP: 267 -> hidden, then pairs of layers with a skip, two heads."""

    def __init__(self, cfg: NetConfig):
        super().__init__()
        self.cfg = cfg
        self.stem = nn.Linear(cfg.input_dim, cfg.hidden)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.Linear(cfg.hidden, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, cfg.hidden))
            for _ in range(cfg.layers // 2)
        )
        self.policy = nn.Linear(cfg.hidden, cfg.output_dim)
        self.value = nn.Linear(cfg.hidden, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.relu(self.stem(x))
        for block in self.blocks:
            h = torch.relu(h + block(h))
        return self.policy(h), self.value(h).squeeze(-1)


_CLASSES = {"policy": PolicyNet, "value": ValueNet, "belief": BeliefNet, "jps": JpsNet}


def build(cfg: NetConfig) -> nn.Module:
    if cfg.kind not in _CLASSES:
        raise ModelFileError(f"unknown network kind {cfg.kind!r}")
    return _CLASSES[cfg.kind](cfg)


def _config_json(cfg: NetConfig, info: dict | None) -> dict:
    return {"format": "bidlab-model", "bidlab_version": bidlab.__version__, "net": asdict(cfg),
            "info": dict(info or {})}


def model_paths(path: str | os.PathLike) -> tuple[Path, Path]:
    """(weights, config) paths of a model given either file or the stem."""
    p = Path(path)
    if p.suffix in (".safetensors", ".json"):
        p = p.with_suffix("")
    return p.with_suffix(".safetensors"), p.with_suffix(".json")


def save_model(path: str | os.PathLike, net: nn.Module, info: dict | None = None) -> Path:
    """Write ``NAME.safetensors`` and ``NAME.json`` atomically; returns the weights path."""
    from safetensors.torch import save

    from bidlab.fileio import write_bytes_atomic, write_json_atomic

    weights, config = model_paths(path)
    meta = _config_json(net.cfg, info)
    tensors = {k: v.detach().to("cpu").contiguous() for k, v in net.state_dict().items()}
    write_bytes_atomic(weights, save(tensors, metadata={"bidlab": json.dumps(meta)}))
    write_json_atomic(config, meta)
    return weights


def load_model(path: str | os.PathLike, device: str = "cpu") -> tuple[nn.Module, dict]:
    """Load a model saved by :func:`save_model`; returns (network in eval mode, config JSON)."""
    from safetensors import SafetensorError
    from safetensors.torch import load

    weights, config = model_paths(path)
    if not weights.exists():
        raise ModelFileError(f"no model file {weights}")
    data = weights.read_bytes()
    try:
        tensors = load(data)
    except (SafetensorError, Exception) as e:  # a truncated or foreign file
        raise ModelFileError(f"{weights} is not a readable safetensors file ({e})") from None
    if config.exists():
        try:
            meta = json.loads(config.read_text())
        except json.JSONDecodeError as e:
            raise ModelFileError(f"{config} is not valid JSON ({e})") from None
    else:
        from safetensors import safe_open

        with safe_open(str(weights), framework="pt") as f:
            raw = (f.metadata() or {}).get("bidlab")
        if raw is None:
            raise ModelFileError(f"{weights} has no bidlab config (no {config.name} and no metadata)")
        meta = json.loads(raw)
    if meta.get("format") != "bidlab-model":
        raise ModelFileError(f"{config} is not a bidlab model config")
    try:
        cfg = NetConfig(**meta["net"])
        net = build(cfg)
        net.load_state_dict(tensors)
    except (TypeError, KeyError, RuntimeError) as e:
        raise ModelFileError(f"{weights} does not match its config ({e})") from None
    return net.to(device).eval(), meta
