"""A double-dummy trick estimator for search (issue 16's speed item; not in Qiu et al.,
who solve every rollout with DDS at 1-2 minutes per decision).

:class:`TrickNet`: a deal (the holder of each of the 52 cards, one-hot: 208 inputs) -> for
each of the 20 (declarer, strain) pairs a distribution over 0..13 tricks (20 x 14 logits).
Search scores a contract by the *expected* duplicate score under that distribution, which is
smoother than scoring a rounded trick count (a contract on the edge of making is worth the
average of making and going down).

Trained by cross-entropy on the TRAIN split of the shipped DD store (each deal used in its 4
rotations: turning the deal by one seat turns the table's declarer axis by one), with the
VALIDATION split for the reported mean absolute trick error (of the expected trick count).
The run folder holds ``checkpoint.safetensors`` + ``state.json`` (every epoch, atomic;
rerun to resume) and ``model.safetensors`` + ``model.json`` (best by validation error).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

import bidlab
from bidlab.errors import BidlabError
from bidlab.fileio import write_bytes_atomic, write_json_atomic
from bidlab.nets.device import module_device


class TrickNetError(BidlabError):
    """A trick-estimator file is missing or malformed, or training cannot resume."""


@dataclass(frozen=True)
class TrickNetConfig:
    hidden: int = 512
    layers: int = 3
    lr: float = 1e-3
    batch_size: int = 512
    epochs: int = 8
    seed: int = 0


class TrickNet(nn.Module):
    """208 -> layers x hidden (GELU) -> 20 x 14 trick logits (declarer N E S W x strain C D H S NT)."""

    def __init__(self, cfg: TrickNetConfig):
        super().__init__()
        self.cfg = cfg
        mods: list[nn.Module] = []
        width = 208
        for _ in range(cfg.layers):
            mods += [nn.Linear(width, cfg.hidden), nn.GELU()]
            width = cfg.hidden
        self.body = nn.Sequential(*mods)
        self.head = nn.Linear(width, 20 * 14)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x)).view(-1, 4, 5, 14)

    def trick_probabilities(self, deals: np.ndarray) -> np.ndarray:
        """``float32[n, 4, 5, 14]``: P(declarer takes t tricks) for every (declarer, strain)."""
        with torch.inference_mode():
            x = deal_features(deals).to(module_device(self))
            return torch.softmax(self(x), dim=-1).cpu().numpy()


def deal_features(deals: np.ndarray) -> torch.Tensor:
    """One-hot holders: ``float32[n, 208]`` (card-major: 52 cards x 4 seats)."""
    d = np.asarray(deals, np.int64)
    x = np.zeros((len(d), 52, 4), np.float32)
    np.put_along_axis(x, d[:, :, None], 1.0, axis=2)
    return torch.from_numpy(x.reshape(len(d), 208))


def rotate(deals: np.ndarray, dd: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
    """The deal turned by ``r`` seats (seat s's cards go to s + r) and its DD table."""
    return ((deals.astype(np.int64) + r) % 4).astype(np.uint8), np.roll(dd, r, axis=1)


def expected_tricks(p: np.ndarray) -> np.ndarray:
    return (p * np.arange(14, dtype=np.float32)).sum(axis=-1)


def mean_abs_error(net: TrickNet, deals: np.ndarray, dd: np.ndarray, batch: int = 4096) -> float:
    err = 0.0
    for s in range(0, len(deals), batch):
        err += float(np.abs(expected_tricks(net.trick_probabilities(deals[s:s + batch])) - dd[s:s + batch]).sum())
    return err / (len(deals) * 20)


def save_tricknet(path: str | Path, net: TrickNet, info: dict) -> Path:
    from safetensors.torch import save

    p = Path(path).with_suffix("")
    meta = {"format": "bidlab-model", "bidlab_version": bidlab.__version__, "kind": "tricks",
            "net": asdict(net.cfg), "info": info}
    tensors = {k: v.detach().contiguous() for k, v in net.state_dict().items()}
    write_bytes_atomic(p.with_suffix(".safetensors"), save(tensors, metadata={"bidlab": json.dumps(meta)}))
    write_json_atomic(p.with_suffix(".json"), meta)
    return p.with_suffix(".safetensors")


def load_tricknet(path: str | Path, device: str = "cpu") -> TrickNet:
    from safetensors.torch import load

    p = Path(path).with_suffix("")
    w, j = p.with_suffix(".safetensors"), p.with_suffix(".json")
    if not w.exists() or not j.exists():
        raise TrickNetError(f"no trick estimator at {p} (.safetensors + .json)")
    try:
        meta = json.loads(j.read_text())
        if meta.get("kind") != "tricks":
            raise TrickNetError(f"{j} is not a trick estimator")
        net = TrickNet(TrickNetConfig(**meta["net"]))
        net.load_state_dict(load(w.read_bytes()))
    except (json.JSONDecodeError, TypeError, KeyError, RuntimeError) as e:
        raise TrickNetError(f"{p} is not a readable trick estimator ({e})") from None
    return net.to(device).eval()


def train_tricknet(out: str | Path, cfg: TrickNetConfig, progress: Callable[[dict], None] | None = None) -> dict:
    """Train on the shipped store's TRAIN split; resumes from ``out`` (see module docstring)."""
    from safetensors.torch import load, save

    from bidlab.dd import shipped_store

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    store = shipped_store()
    deals, dd, _ = store.load("train")
    vdeals, vdd, _ = store.load("validation")
    torch.manual_seed(cfg.seed)
    net = TrickNet(cfg)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    state = {"config": asdict(cfg), "epoch": 0, "best_mae": None, "history": []}
    ck, st = out / "checkpoint.safetensors", out / "state.json"
    if ck.exists() and st.exists():
        saved = json.loads(st.read_text())
        if saved["config"] != asdict(cfg):
            raise TrickNetError(f"{out} holds a run with another configuration; use a new --out")
        net.load_state_dict(load(ck.read_bytes()))
        state = saved
    n = len(deals)
    while state["epoch"] < cfg.epochs:
        rng = np.random.default_rng([cfg.seed, state["epoch"]])
        order = rng.permutation(4 * n)
        t0 = time.time()
        net.train()
        steps = (4 * n + cfg.batch_size - 1) // cfg.batch_size
        for k in range(steps):
            idx = order[k * cfg.batch_size:(k + 1) * cfg.batch_size]
            parts = [rotate(deals[idx[idx // n == r] % n], dd[idx[idx // n == r] % n], r) for r in range(4)]
            x = deal_features(np.concatenate([p[0] for p in parts]))
            y = torch.from_numpy(np.concatenate([p[1] for p in parts]).astype(np.int64))
            loss = F.cross_entropy(net(x).reshape(-1, 14), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            if progress and k % 50 == 0:
                progress({"epoch": state["epoch"], "step": k, "steps": steps, "loss": float(loss.detach()),
                          "deals_per_s": (k + 1) * cfg.batch_size / max(time.time() - t0, 1e-9)})
        net.eval()
        mae = mean_abs_error(net, vdeals, vdd)
        state["epoch"] += 1
        state["history"].append({"epoch": state["epoch"], "validation_mae": mae})
        if state["best_mae"] is None or mae < state["best_mae"]:
            state["best_mae"] = mae
            save_tricknet(out / "model", net, {"trained_on": "TRAIN split of the shipped DD store, 4 rotations",
                                               "validation_mean_abs_trick_error": mae, "epoch": state["epoch"]})
        write_bytes_atomic(ck, save({k: v.contiguous() for k, v in net.state_dict().items()}))
        write_json_atomic(st, state)
        if progress:
            progress({"epoch_done": state["epoch"], "validation_mae": mae})
    return state
