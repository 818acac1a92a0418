"""Another policy shape without losing progress (issue #26, capacity): a wider or deeper net
starts as a copy of the current policy by distillation, then A2C goes on from it.

Positions come from the teacher's own self-play (sampling, all four seats, train deals:
the positions the student will meet first), and the student minimises the cross-entropy to
the teacher's legal-masked call distribution, ``KL(π_teacher ‖ π_student)`` up to a constant
(soft targets, Hinton et al. 2015), with Adam. ``--net LxW`` (e.g. ``4x1024``, the width of
Kita et al. 2024) names the shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
import torch

from bidlab.learn.a2c.actor import SelfPlayActor
from bidlab.learn.a2c.config import A2CConfig, RLTrainingError
from bidlab.learn.a2c.transitions import features
from bidlab.nets import NetConfig, build


def parse_net(text: str, base: NetConfig) -> NetConfig:
    """``"4x1024"`` (layers x width) as a policy config shaped like ``base`` otherwise."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text or "")
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise RLTrainingError(f"--net must be LAYERSxWIDTH such as 4x1024, got {text!r}")
    layers, width = int(m.group(1)), int(m.group(2))
    return replace(base, preset=f"{layers}x{width}", layers=layers, hidden=width)


@dataclass(frozen=True)
class DistillConfig:
    steps: int = 2000
    batch_size: int = 1024
    lr: float = 1e-3
    boards_per_batch: int = 256    # board pairs of teacher self-play per refill of positions
    holdout: int = 4096            # held-out positions for the reported KL and agreement


def _positions(actor: SelfPlayActor, n: int) -> dict[str, np.ndarray]:
    parts: list[dict] = []
    got = 0
    while got < n:
        out = actor.play()
        parts.append({k: out[k] for k in ("obs", "code", "call", "seat", "deal")})
        got += len(out["call"])
    return {k: np.concatenate([p[k] for p in parts])[:n] for k in parts[0]}


def _teacher_probs(teacher: torch.nn.Module, x: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    with torch.inference_mode():
        return torch.softmax(teacher(x).masked_fill(~legal, float("-inf")), dim=-1)


def soft_cross_entropy(logits: torch.Tensor, legal: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean over rows of ``-sum_a target(a) log π(a)`` over the legal calls."""
    logp = torch.log_softmax(logits.masked_fill(~legal, float("-inf")), dim=-1).masked_fill(~legal, 0.0)
    return -(target * logp).sum(1).mean()


def distill(teacher: torch.nn.Module, student_cfg: NetConfig, cfg: DistillConfig, seed: int = 0,
            progress=None) -> tuple[torch.nn.Module, dict]:
    """A new ``student_cfg`` net trained to bid as ``teacher``; returns it and held-out
    ``kl`` (nats per decision) and ``agreement`` (same most probable call)."""
    torch.manual_seed(seed)
    actor = SelfPlayActor(A2CConfig.cpu(policy=teacher.cfg, boards_per_batch=cfg.boards_per_batch,
                                        hidden_info=False), seed)
    actor.set_weights(0, teacher.state_dict(), actor.value.state_dict())
    student = build(student_cfg).train()
    opt = torch.optim.Adam(student.parameters(), lr=cfg.lr)
    hold = _positions(actor, cfg.holdout)
    hx, _, hlegal = features(hold, hidden_info=False)
    hx, hlegal = torch.from_numpy(hx), torch.from_numpy(hlegal)
    hp = _teacher_probs(teacher, hx, hlegal)
    pool = {"x": torch.zeros(0, hx.shape[1]), "legal": torch.zeros(0, 38, dtype=torch.bool)}
    rng = np.random.default_rng(seed)
    for step in range(cfg.steps):
        if len(pool["x"]) < cfg.batch_size:
            fresh = _positions(actor, 8 * cfg.batch_size)
            fx, _, fl = features(fresh, hidden_info=False)
            pool = {"x": torch.from_numpy(fx), "legal": torch.from_numpy(fl)}
            pool["p"] = _teacher_probs(teacher, pool["x"], pool["legal"])
        take = torch.from_numpy(rng.choice(len(pool["x"]), cfg.batch_size, replace=False))
        keep = torch.ones(len(pool["x"]), dtype=torch.bool)
        keep[take] = False
        batch = {k: v[take] for k, v in pool.items()}
        pool = {k: v[keep] for k, v in pool.items()}  # each position is used once
        loss = soft_cross_entropy(student(batch["x"]), batch["legal"], batch["p"])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if progress is not None:
            progress(step + 1, loss.item())
    student.eval()
    with torch.inference_mode():
        logits = student(hx)
        sp = torch.softmax(logits.masked_fill(~hlegal, float("-inf")), dim=-1)
        kl = (hp * (hp.clamp_min(1e-12).log() - sp.clamp_min(1e-12).log())).masked_fill(~hlegal, 0.0).sum(1)
        agree = (sp.argmax(1) == hp.argmax(1)).float().mean()
    return student, {"kl": float(kl.mean()), "agreement": float(agree), "positions": int(len(hx)),
                     "steps": cfg.steps}


__all__ = ["DistillConfig", "distill", "parse_net", "soft_cross_entropy"]
