"""The torch modules of the bridge pipelines (see :mod:`bidlab.nets`)."""

from __future__ import annotations

import torch
from torch import nn

from bidlab.nets.config import ModelFileError, NetConfig


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


class JudgeNet(_MLPNet):
    """The doubling judge (issue 44): one player's 480 observation (own hand, auction,
    vulnerability; nothing hidden) -> the IMPs that doubling the opponents' current contract
    gains over passing, for the player to act (:mod:`bidlab.learn.judge`)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return super().forward(x).squeeze(-1)


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


_CLASSES = {"policy": PolicyNet, "value": ValueNet, "belief": BeliefNet, "jps": JpsNet, "judge": JudgeNet}


def build(cfg: NetConfig) -> nn.Module:
    if cfg.kind not in _CLASSES:
        raise ModelFileError(f"unknown network kind {cfg.kind!r}")
    return _CLASSES[cfg.kind](cfg)
