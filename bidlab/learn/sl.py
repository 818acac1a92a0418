"""Supervised learning of the policy net from expert auctions (Qiu et al. Sec. III, VI-A).

Cross-entropy between the legal-masked policy and the expert's call at every state of
every auction; Adam at 1e-4 with batch 512 (the paper's values). Boards are split by
:mod:`bidlab.runtime.split` (board id = position in its auction set): training uses the
``train`` boards, every epoch reports accuracy (greedy call == expert call) on the
``validation`` boards and keeps the best model by it, and ``test`` boards are never seen.

The output folder holds ``checkpoint.safetensors`` (weights, Adam moments) and
``state.json`` (epoch, step, metrics) written atomically every ``checkpoint_every``
steps and at each epoch's end; ``model.safetensors`` + ``model.json`` (the best model by
validation accuracy); and TensorBoard logs in ``tb/``. Rerunning the same command after a
kill resumes from the last checkpoint; batches are drawn from a permutation seeded by
(seed, epoch), so a resumed run sees the same batches as an uninterrupted one.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from bidlab.errors import BidlabError
from bidlab.fileio import write_bytes_atomic, write_json_atomic
from bidlab.learn.data import AuctionArrays, AuctionSet, batch_features, node_call_pairs
from bidlab.nets import (
    NetConfig,
    PolicyNet,
    build,
    load_model,
    load_optimizer,
    optimizer_tensors,
    policy_cpu,
    policy_paper,
    save_model,
)
from bidlab.runtime.progress import ProgressTask, task_or_null
from bidlab.runtime.split import check_split, split_mask


class TrainingError(BidlabError):
    """Training cannot start or resume as asked."""


@dataclass(frozen=True)
class SLConfig:
    """Hyperparameters of supervised learning, the policy net's shape included.

    ``paper()`` is Qiu et al.'s (Sec. VI-A: 4 x 2048 net, Adam 1e-4, batch 512);
    ``cpu()`` the shipped model's 4 x 512 net with the same optimiser settings.
    """

    net: NetConfig = field(default_factory=policy_cpu)
    lr: float = 1e-4
    batch_size: int = 512
    epochs: int = 8
    seed: int = 0
    device: str = "cpu"
    checkpoint_every: int = 1000   # steps
    init: str | None = None        # start from this saved policy (fine-tuning) instead of random weights
    max_steps: int | None = None   # stop early (tests, quick runs)
    eval_batch: int = 4096

    @classmethod
    def paper(cls, **kw) -> SLConfig:
        return cls(**{"net": policy_paper(), **kw})

    @classmethod
    def cpu(cls, **kw) -> SLConfig:
        return cls(**{"net": policy_cpu(), **kw})

    def __post_init__(self) -> None:
        if self.net.kind != "policy":
            raise TrainingError(f"supervised learning trains a policy net, not a {self.net.kind} net")

    def training_key(self) -> dict:
        """Settings that must not change between a run and its resumption."""
        d = asdict(self)
        for k in ("device", "checkpoint_every", "max_steps", "eval_batch", "epochs"):
            d.pop(k)
        if d["init"] is None:
            d.pop("init")  # runs saved before fine-tuning existed have no such key
        return d


def save_checkpoint(out: Path, net: torch.nn.Module, opt: torch.optim.Optimizer, state: dict) -> None:
    from safetensors.torch import save

    tensors = {f"net.{k}": v.detach().cpu().contiguous() for k, v in net.state_dict().items()}
    opt_tensors, opt_extra = optimizer_tensors(opt)
    tensors.update(opt_tensors)
    full = dict(state, optimizer=opt_extra)
    # The training state rides in the checkpoint's own metadata, so weights and step
    # counter are replaced together in one atomic rename; state.json is a readable copy.
    write_bytes_atomic(out / "checkpoint.safetensors", save(tensors, metadata={"state": json.dumps(full)}))
    write_json_atomic(out / "state.json", full)


def evaluate(net: PolicyNet, arrays: AuctionArrays, boards: np.ndarray, device: str,
             batch: int = 4096) -> dict[str, float]:
    """Accuracy and cross-entropy of the greedy policy against the expert's calls on ``boards``."""
    sub = arrays.subset(boards)
    b, s = node_call_pairs(sub)
    correct, total, loss_sum = 0, 0, 0.0
    net.eval()
    with torch.inference_mode():
        for i in range(0, len(b), batch):
            x, legal, y = batch_features(sub, b[i : i + batch], s[i : i + batch])
            logits = PolicyNet.mask_logits(net(torch.from_numpy(x).to(device)), torch.from_numpy(legal).to(device))
            yt = torch.from_numpy(y).to(device)
            loss_sum += float(F.cross_entropy(logits, yt, reduction="sum"))
            correct += int((logits.argmax(1) == yt).sum())
            total += len(y)
    net.train()
    return {"accuracy": correct / max(total, 1), "loss": loss_sum / max(total, 1), "pairs": total}


def board_ids(paths_lengths: list[int]) -> np.ndarray:
    """Board ids of concatenated auction sets: each set numbers its boards from 0."""
    return np.concatenate([np.arange(n, dtype=np.int64) for n in paths_lengths]) if paths_lengths else \
        np.empty(0, np.int64)


def train_sl(data: str | os.PathLike | list[str], out: str | os.PathLike, cfg: SLConfig,
             progress: ProgressTask | None = None, on_epoch: Callable[[dict], None] | None = None) -> dict:
    """Train (or resume) a policy net on one or more auction sets; returns the final state.

    ``progress`` counts steps over all epochs and notes the loss; ``on_epoch`` gets each
    epoch's validation metrics.
    """
    progress = task_or_null(progress)
    torch.manual_seed(cfg.seed)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = [data] if isinstance(data, (str, os.PathLike)) else list(data)
    sets = [AuctionSet.open(p).load() for p in paths]
    arrays = AuctionArrays.concat(sets)
    ids = board_ids([len(a) for a in sets])
    train_boards = np.flatnonzero(split_mask(ids, "train"))
    held_boards = np.flatnonzero(split_mask(ids, "validation"))
    if len(train_boards) == 0 or len(held_boards) == 0:
        raise TrainingError(f"need expert auctions in both the train and validation splits (boards with id % 10 "
                            f"== 1 validate); {len(arrays)} boards have {len(train_boards)} and {len(held_boards)}")
    train = arrays.subset(train_boards)
    tb, ts = node_call_pairs(train)
    steps_per_epoch = math.ceil(len(tb) / cfg.batch_size)

    net_cfg = cfg.net
    net = build(net_cfg).to(cfg.device)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    state = {"config": cfg.training_key(), "data": [str(p) for p in paths], "boards": len(arrays),
             "epoch": 0, "step_in_epoch": 0, "step": 0, "history": [], "best_accuracy": -1.0}
    if (out / "checkpoint.safetensors").exists():
        state = _resume(out, cfg, net, opt, state)
    elif cfg.init:
        start, _ = load_model(cfg.init)
        if start.cfg != net_cfg:
            raise TrainingError(f"--init model {cfg.init} is a {start.cfg.kind} net of preset {start.cfg.preset!r}, "
                                f"not the {net_cfg.preset!r} policy being trained")
        net.load_state_dict(start.state_dict())
    writer = _tensorboard(out / "tb")
    total_steps = steps_per_epoch * cfg.epochs
    if cfg.max_steps is not None:
        total_steps = min(total_steps, cfg.max_steps)
    progress.start(total_steps, min(state["step"], total_steps))

    x_buf = np.zeros((cfg.batch_size, net_cfg.input_dim), dtype=np.float32)
    t0, done_pairs = time.time(), 0
    while state["epoch"] < cfg.epochs:
        order = np.random.default_rng([cfg.seed, state["epoch"]]).permutation(len(tb))
        for k in range(state["step_in_epoch"], steps_per_epoch):
            if cfg.max_steps is not None and state["step"] >= cfg.max_steps:
                break
            idx = order[k * cfg.batch_size : (k + 1) * cfg.batch_size]
            x, legal, y = batch_features(train, tb[idx], ts[idx], out=x_buf[: len(idx)])
            logits = PolicyNet.mask_logits(net(torch.from_numpy(x).to(cfg.device)),
                                           torch.from_numpy(legal).to(cfg.device))
            loss = F.cross_entropy(logits, torch.from_numpy(y).to(cfg.device))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            state["step"] += 1
            state["step_in_epoch"] = k + 1
            done_pairs += len(idx)
            if writer:
                writer.add_scalar("train/loss", loss.item(), state["step"])
            if state["step"] % cfg.checkpoint_every == 0:
                save_checkpoint(out, net, opt, state)
            progress.note(f"epoch {state['epoch'] + 1}  loss {loss.item():.3f}  "
                          f"{done_pairs / max(time.time() - t0, 1e-9):.0f} pairs/s")
            progress.advance(1)
        if cfg.max_steps is not None and state["step"] >= cfg.max_steps and state["step_in_epoch"] < steps_per_epoch:
            save_checkpoint(out, net, opt, state)
            break
        metrics = evaluate(net, arrays, held_boards, cfg.device, cfg.eval_batch)
        metrics.update(epoch=state["epoch"] + 1, step=state["step"])
        state["history"].append(metrics)
        if writer:
            writer.add_scalar("validation/accuracy", metrics["accuracy"], state["epoch"] + 1)
            writer.add_scalar("validation/loss", metrics["loss"], state["epoch"] + 1)
        if metrics["accuracy"] > state["best_accuracy"]:
            state["best_accuracy"] = metrics["accuracy"]
            save_model(out / "model", net, info={"trained_on": state["data"], "sl": cfg.training_key(),
                                                 "validation": metrics, "epoch": state["epoch"] + 1})
        state["epoch"] += 1
        state["step_in_epoch"] = 0
        save_checkpoint(out, net, opt, state)
        if on_epoch is not None:
            on_epoch({"epoch_done": state["epoch"], **metrics})
    if writer:
        writer.close()
    return state


def _resume(out: Path, cfg: SLConfig, net, opt, fresh: dict) -> dict:
    from safetensors import safe_open
    from safetensors.torch import load

    try:
        path = out / "checkpoint.safetensors"
        tensors = load(path.read_bytes())
        with safe_open(str(path), framework="pt") as f:
            state = json.loads((f.metadata() or {})["state"])
    except (OSError, json.JSONDecodeError, Exception) as e:
        raise TrainingError(f"cannot resume from {out}: {e}; use another --out folder") from None
    if state.get("config") != fresh["config"] or state.get("data") != fresh["data"]:
        raise TrainingError(f"{out} holds a run with other settings or data ({state.get('config')}); "
                            "use another --out folder")
    net.load_state_dict({k[4:]: v for k, v in tensors.items() if k.startswith("net.")})
    load_optimizer(opt, tensors, state.pop("optimizer"))
    return state


def _tensorboard(path: Path):
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:  # tensorboard is optional at run time
        return None
    return SummaryWriter(str(path))


def heldout_accuracy(model: str | os.PathLike, data: str | os.PathLike, split: str = "test") -> dict:
    """Accuracy of a saved model on the boards of an auction set in ``split`` (``test`` by
    default, the boards training never sees; ``all`` for a set the model never saw)."""
    check_split(split)
    net, _ = load_model(model)
    arrays = AuctionSet.open(data).load()
    held = np.flatnonzero(split_mask(board_ids([len(arrays)]), split))
    return evaluate(net, arrays, held, "cpu")


__all__ = ["SLConfig", "TrainingError", "evaluate", "heldout_accuracy", "replace", "train_sl"]
