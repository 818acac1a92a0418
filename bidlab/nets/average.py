"""Weight averaging of networks from one lineage.

Two policies that share an ancestor (two checkpoints of one run, or two runs continued from
one checkpoint) usually lie in one basin of the loss, so the average of their weights is a
policy too, and often a better one than either: stochastic weight averaging over a run's
checkpoints (Izmailov et al. 2018, "Averaging Weights Leads to Wider Optima and Better
Generalization") and the uniform "model soup" of fine-tuned runs (Wortsman et al. 2022, Sec. 2).
Nets of unrelated training runs do not average: their hidden units are in different orders.

Only the weights are averaged. Every net must have the same :class:`NetConfig`, and the
result is a net of that config.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from bidlab.nets.config import ModelFileError
from bidlab.nets.modules import build


def mixing_weights(count: int, weights: Sequence[float] | None = None) -> list[float]:
    """The weights of ``count`` nets in their average, normalised to sum 1 (uniform if none)."""
    if count < 1:
        raise ModelFileError("averaging needs at least one net")
    if weights is None:
        return [1.0 / count] * count
    w = [float(x) for x in weights]
    if len(w) != count:
        raise ModelFileError(f"{len(w)} weights for {count} nets: give one weight per net")
    if any(not x >= 0 for x in w):  # also refuses nan
        raise ModelFileError(f"averaging weights must be >= 0, got {', '.join(f'{x:g}' for x in w)}")
    total = sum(w)
    if not total > 0:
        raise ModelFileError("averaging weights must not all be 0")
    return [x / total for x in w]


def average_nets(nets: Sequence[nn.Module], weights: Sequence[float] | None = None,
                 names: Sequence[str] | None = None) -> nn.Module:
    """A new net (eval mode, on the CPU) whose every parameter and buffer is the weighted mean
    of the nets' own. ``names`` label the nets in errors (file names, for example)."""
    w = mixing_weights(len(nets), weights)
    labels = list(names) if names is not None else [f"net {i + 1}" for i in range(len(nets))]
    cfg = nets[0].cfg
    for net, label in zip(nets[1:], labels[1:]):
        if net.cfg != cfg:
            raise ModelFileError(f"{label} is a {_shape(net.cfg)} net and {labels[0]} a {_shape(cfg)} net: "
                                 "only nets of one shape average")
    states = [{k: v.detach().to("cpu", torch.float64) for k, v in net.state_dict().items()} for net in nets]
    mean = {k: sum(wi * s[k] for wi, s in zip(w, states)) for k in states[0]}
    out = build(cfg)
    own = out.state_dict()
    out.load_state_dict({k: v.to(own[k].dtype) for k, v in mean.items()})
    return out.eval()


def _shape(cfg) -> str:
    return f"{cfg.kind} {cfg.layers}x{cfg.hidden} ({cfg.encoder})"
