"""One optimiser step with the learning rate decayed linearly to 10 % over a run, as a
function of the step alone: a run resumed from a checkpoint repeats the rates exactly
(belief net, doubling judge)."""

from __future__ import annotations

import torch


def decayed_step(opt: torch.optim.Optimizer, loss: torch.Tensor, lr: float, step: int, total: int) -> None:
    """Set the rate for ``step`` of ``total`` (``lr`` down to ``0.1 * lr``), then backpropagate
    ``loss`` and step ``opt``."""
    for g in opt.param_groups:
        g["lr"] = lr * (1 - 0.9 * step / total)
    opt.zero_grad()
    loss.backward()
    opt.step()
