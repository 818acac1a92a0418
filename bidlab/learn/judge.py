"""The doubling judge (issue 44): from one player's view, what doubling the opponents'
current contract gains, in IMPs, over the call the player would otherwise make.

**Input**: the 480 observation of the player to act (:mod:`bidlab.bridge.features`, the one
encoding the policy and the belief net read: own hand, the auction, vulnerability), so the
judge sees nothing a player may not see. **Output**: one number, the IMPs doubling gains.
(Against passing or against the agent's own call: at most positions where a double is legal
the agents pass, and where they bid instead, "what doubling gains over what I would do" is
the question a punisher asks.)

**Positions**: every decision at which double is legal (the last bid is the opponents' and
is not doubled yet) and the agent did not double, in auctions bid by a panel of agents (the
``nn:rl`` shipped before issue 44, kept as ``nn:rl@soup1``, its earlier generations,
``nn:sl`` and ``nn:partner`` with their generations, ``sayc``), all through the one
array-level :func:`bidlab.envs.rollout.rollout`. Each chunk of deals draws a pair of agents
(one North-South, one East-West; a pair may be one agent twice; with probability ``focus``
the panel's first agent at both sides, so that the judge is calibrated best against the
style it will punish first), dealer and vulnerability. TRAIN deals of the shipped DD store
make the training positions, VALIDATION deals the held-out ones (model choice,
calibration); the test split is never read.

**Label** (hidden information, for the target only, as Qiu Sec. IV's value net): the IMPs
that doubling gains over the call the agent made. The position is bid on after X by the same
agents to the end and scored double dummy from the deal's table; the table's own result (the
agent's call, then the same agents) is the other side of the comparison; the difference, for
the doubler's side, goes through the WBF IMP scale. Regression averages it over the deals
(and auctions) behind one view: the judge learns the single-dummy expectation.

Choices (documented in docs/punishers.md):

- **IMPs, not points.** Matches are scored in IMPs, and IMPs bound the target (a doubled
  slam making with overtricks is a few hundred points but a handful of IMPs more), so a
  mean-squared loss is not ruled by rare huge swings. The punisher's threshold is in IMPs.
- **Runouts, redoubles and partner's takeout are played, not assumed away.** A first version
  labelled "the contract stands doubled vs stands undoubled": calibrated on that label, yet
  its punisher *lost* on validation at every threshold tried (0 to 3 IMPs), because the
  partner took the double out and the opponents ran or redoubled. The label now lets the
  agents bid on after the double, so these are in the target as the panel plays them. The
  "contract stands" gain (:func:`doubling_gain`) is kept beside it in the data
  (``stands_imps``) and shown in the calibration table.
- **Doubles of freely bid games** are not treated apart: the judge sees the whole auction,
  so an uncontested game and a contested partscore are different inputs, learnt from their
  own outcomes.

Training: mean squared error, Adam, learning rate decayed linearly to 10%, batches from a
permutation seeded by (seed, epoch). The run folder holds ``data.safetensors`` +
``data.json`` (the positions, written once), ``checkpoint.safetensors`` + ``state.json``
(weights, Adam moments, step; written atomically every ``checkpoint_seconds`` and at each
epoch's end) and ``model.safetensors`` + ``model.json`` (the best epoch by validation
error). Rerunning the same command after a stop (Ctrl-C, ``kill -9``) resumes from the
checkpoint and ends with the same weights as an uninterrupted run.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import torch

from bidlab.bridge.calls import DOUBLE_ID as DOUBLE
from bidlab.bridge.features import OPENSPIEL480, unpack_observations
from bidlab.envs.rollout import Policy, rollout, score
from bidlab.envs.scoring import dd_tricks, imps_array, ns_scores
from bidlab.envs.state import AuctionState, concat, contracts, init, packed_observations, step
from bidlab.errors import BidlabError
from bidlab.fileio import write_bytes_atomic, write_json_atomic
from bidlab.learn.belief import he_init
from bidlab.learn.optim import decayed_step
from bidlab.nets import JudgeNet, build, load_model, load_optimizer, optimizer_tensors, preset, save_model

#: The panel whose auctions make the positions: the shipped policies, their kept earlier
#: generations and the rule bidder (``nn:rl@soup1`` is the ``nn:rl`` shipped when the judge was made).
PANEL = ("nn:rl@soup1", "nn:rl@156750", "nn:rl@80000", "nn:rl@8750", "nn:rl@2750", "nn:sl", "nn:sl@v3",
         "nn:partner", "nn:partner@18000", "sayc")


class JudgeTrainingError(BidlabError):
    """Judge training cannot start or resume as asked, or a judge file is not one."""


@dataclass(frozen=True)
class JudgeConfig:
    """Hyperparameters of judge training. ``cpu`` (the shipped judge, with ``seed=1``): 3 x 256
    net, every TRAIN deal bid sixteen times. Eight passes made the first judge (kept as
    ``judge@v1``): its punisher's best margin on validation was +0.10 IMPs/board against +0.14
    for sixteen (docs/punishers.md), and four passes had done worse than eight; ``paper`` (no paper has a judge: the belief net's size,
    Qiu Table VI): 4 x 1024, sixteen times."""

    preset: str = "cpu"
    agents: tuple[str, ...] = PANEL
    deals: int = 46400           # TRAIN deals bid (the whole split by default)
    passes: int = 16             # auctions per deal (each its own pair of agents, dealer, vulnerability)
    validation_deals: int = 5800
    chunk: int = 512             # deals per drawn pair of agents
    focus: float = 0.5           # share of chunks bid by the panel's first agent at both sides
    lr: float = 1e-3
    batch_size: int = 512
    epochs: int = 8
    seed: int = 0
    checkpoint_seconds: float = 60.0
    max_steps: int | None = None

    @classmethod
    def cpu(cls, **kw) -> JudgeConfig:
        return cls(**kw)

    @classmethod
    def paper(cls, **kw) -> JudgeConfig:
        return cls(**{"preset": "paper", "passes": 16, "lr": 3e-4, "batch_size": 256, "epochs": 8, **kw})

    def data_key(self) -> dict:
        return {"label": "continuation", "agents": list(self.agents), "deals": self.deals, "passes": self.passes,
                "validation_deals": self.validation_deals, "chunk": self.chunk, "focus": self.focus, "seed": self.seed}

    def resume_key(self) -> dict:
        """What a resumed run must share with the stored one (``max_steps`` and the
        checkpoint interval may change between runs)."""
        d = asdict(self)
        d["agents"] = list(self.agents)
        for k in ("max_steps", "checkpoint_seconds"):
            d.pop(k)
        return d

    def net_config(self):
        return replace(preset("judge", self.preset), extra={"target": "imps"})


# -- labels and positions ---------------------------------------------------------------------


def doubling_gain(state: AuctionState, dd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(points, IMPs) that doubling the current contract gains over passing for the player to
    act, at every row, assuming the contract then stands (declarer takes its DD tricks from
    ``dd``, ``uint8[n, 4, 5]``). Rows must be ones where double is legal."""
    c = contracts(state)
    tricks = dd_tricks(dd, c.declarer, c.strain)
    undoubled = ns_scores(c.level, c.strain, np.zeros_like(c.doubled), c.declarer, tricks, state.vulnerability)
    doubled = ns_scores(c.level, c.strain, np.ones_like(c.doubled), c.declarer, tricks, state.vulnerability)
    sign = np.where(state.to_act.astype(np.int64) % 2 == 0, 1, -1)   # the doubler's side: NS +, EW -
    points = sign * (doubled.astype(np.int64) - undoubled)
    return points.astype(np.int32), imps_array(points).astype(np.int8)


def doubling_positions(policies: Sequence[Policy], deals: np.ndarray, dd: np.ndarray, seed: int,
                       chunk: int = 512, focus: float = 0.0) -> dict[str, np.ndarray]:
    """Bid ``deals`` (chunks of ``chunk`` deals, each chunk with a pair of ``policies`` drawn
    North-South / East-West, or with probability ``focus`` the first policy at both sides;
    random dealer and vulnerability) and keep every decision where
    double is legal and the agent did not double: ``obs`` (the actor's packed 480,
    uint8[m, 60]); ``imps`` (the label: :func:`continuation_gain`, the IMPs that doubling
    there, the same agents bidding on, gains over the call the agent made); ``stands_imps`` and
    ``stands_points`` (:func:`doubling_gain`, the contract standing); ``deal`` (row into
    ``deals``), ``level``, ``pair`` (NS, EW agent indices)."""
    rng = np.random.default_rng([seed, 44])
    keys = ("obs", "imps", "stands_imps", "stands_points", "deal", "level", "pair")
    parts: dict[str, list[np.ndarray]] = {k: [] for k in keys}
    for start in range(0, len(deals), chunk):
        d = deals[start:start + chunk]
        n = len(d)
        state = init(d, rng.integers(0, 4, n), rng.integers(0, 4, n))
        ns, ew = (int(i) for i in rng.integers(0, len(policies), 2))
        if rng.random() < focus:
            ns = ew = 0
        table = [policies[ns], policies[ew]]
        seats = np.array([0, 1, 0, 1])
        found: list[tuple[np.ndarray, AuctionState]] = []

        def hook(_pi, rows, sub, decision, found=found):
            ok = np.flatnonzero(sub.legal[:, DOUBLE] & (np.asarray(decision.calls) != DOUBLE))
            if len(ok):
                found.append((np.asarray(rows)[ok], sub.take(ok)))

        end = rollout(state, table, seats, on_decision=hook)
        if not found:
            continue
        tables = np.concatenate([f[0] for f in found])
        at = concat([f[1] for f in found])
        chunk_dd = dd[start:start + n]
        actual = score(end, chunk_dd).ns_score
        points, imps = doubling_gain(at, chunk_dd[tables])
        parts["obs"].append(packed_observations(at))
        parts["imps"].append(continuation_gain(at, table, seats, chunk_dd[tables], actual[tables]))
        parts["stands_imps"].append(imps)
        parts["stands_points"].append(points)
        parts["deal"].append((start + tables).astype(np.int32))
        parts["level"].append(contracts(at).level.astype(np.int8))
        parts["pair"].append(np.tile(np.array((ns, ew), np.int8), (len(tables), 1)))
    widths = {"obs": (0, 60), "pair": (0, 2)}
    return {k: np.concatenate(v) if v else np.zeros(widths.get(k, (0,)), np.uint8) for k, v in parts.items()}


def continuation_gain(at: AuctionState, table: Sequence[Policy], seats: np.ndarray, dd: np.ndarray,
                      actual_ns: np.ndarray) -> np.ndarray:
    """IMPs that doubling at each row of ``at`` gains for the doubler's side over the call the
    agent made there: the rows are bid on after X by the same agents (``table``, ``seats``) to
    the end, scored double dummy (``dd``), and compared with the table's actual result
    ``actual_ns`` (North-South points). Runouts, redoubles and partner's takeout of the double
    are in the label as the agents play them."""
    after = step(at, np.full(at.n, DOUBLE, np.int64))
    end = rollout(after, table, seats, inplace=True)
    doubled_ns = score(end, dd).ns_score.astype(np.int64)
    sign = np.where(at.to_act.astype(np.int64) % 2 == 0, 1, -1)
    return imps_array(sign * (doubled_ns - actual_ns.astype(np.int64))).astype(np.int8)


def build_panel(agents: Sequence[str], seed: int) -> list[Policy]:
    from bidlab.agents.registry import make_agent

    return [make_agent(a, seed) for a in agents]


def generate_data(out: Path, cfg: JudgeConfig, say: Callable[[str], None] | None = None) -> dict[str, np.ndarray]:
    """``out/data.safetensors``: training positions (TRAIN deals, ``cfg.passes`` passes) and
    validation positions (prefix ``val_``), written once and reused while its key matches."""
    from safetensors.numpy import load_file, save

    from bidlab.dd import shipped_store

    path, key_path = out / "data.safetensors", out / "data.json"
    if path.exists() and key_path.exists():
        if json.loads(key_path.read_text()) == cfg.data_key():
            return load_file(str(path))
        raise JudgeTrainingError(f"{out} holds judge data of another configuration; use a new --out")
    store = shipped_store()
    deals, dd, _ = store.load("train")
    vdeals, vdd, _ = store.load("validation")
    panel = build_panel(cfg.agents, cfg.seed)
    order = np.random.default_rng([cfg.seed, 11]).permutation(len(deals))[: cfg.deals]
    parts = []
    for j in range(cfg.passes):
        if say:
            say(f"pass {j + 1}/{cfg.passes}: auctions of {len(cfg.agents)} agents on {cfg.deals} train deals")
        parts.append(doubling_positions(panel, deals[order], dd[order], cfg.seed + 1000 * j, cfg.chunk, cfg.focus))
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    if say:
        say(f"validation: auctions on {cfg.validation_deals} validation deals")
    vorder = np.random.default_rng([cfg.seed, 12]).permutation(len(vdeals))[: cfg.validation_deals]
    val = doubling_positions(panel, vdeals[vorder], vdd[vorder], cfg.seed + 999_999, cfg.chunk, cfg.focus)
    data.update({f"val_{k}": v for k, v in val.items()})
    out.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(path, save({k: np.ascontiguousarray(v) for k, v in data.items()}))
    write_json_atomic(key_path, cfg.data_key())
    return data


def unpack(obs: np.ndarray) -> torch.Tensor:
    """Packed 480 rows (the state's packing) -> ``float32[n, 480]``."""
    return torch.from_numpy(unpack_observations(obs, np.empty((len(obs), OPENSPIEL480), np.float32)))


# -- training --------------------------------------------------------------------------------


def predict(net: JudgeNet, obs: np.ndarray, batch: int = 16384) -> np.ndarray:
    """The judge's gains (IMPs) for packed 480 rows."""
    out = []
    dev = next(net.parameters()).device
    with torch.inference_mode():
        for s in range(0, len(obs), batch):
            out.append(net(unpack(obs[s:s + batch]).to(dev)).float().cpu().numpy())
    return np.concatenate(out) if out else np.zeros(0, np.float32)


def train_judge(out: str | Path, cfg: JudgeConfig, progress: Callable[[dict], None] | None = None,
                device: str = "cpu") -> dict:
    """Generate the positions (once) and train; returns the final state (module docstring)."""
    from safetensors.torch import load as load_tensors
    from safetensors.torch import save as save_tensors

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    data = generate_data(out, cfg, (lambda m: progress({"message": m})) if progress else None)
    obs, y = data["obs"], data["imps"].astype(np.float32)
    vobs, vy = data["val_obs"], data["val_imps"].astype(np.float32)
    if not len(obs) or not len(vobs):
        raise JudgeTrainingError("no position with double legal was bid; give more deals")
    torch.manual_seed(cfg.seed)
    net = build(cfg.net_config())
    he_init(net)
    net.to(device)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    state = {"config": cfg.resume_key(), "step": 0, "epoch": 0, "best_mse": None, "history": []}
    ck, st = out / "checkpoint.safetensors", out / "state.json"
    if ck.exists() and st.exists():
        saved = json.loads(st.read_text())
        if saved["config"] != cfg.resume_key():
            raise JudgeTrainingError(f"{out} holds a run with another configuration; use a new --out")
        tensors = load_tensors(ck.read_bytes())     # on the CPU: load_state_dict moves weights and moments to the device
        net.load_state_dict({k[4:]: v for k, v in tensors.items() if k.startswith("net.")})
        load_optimizer(opt, {k[4:]: v for k, v in tensors.items() if k.startswith("opt.")}, saved["opt"])
        state = {k: v for k, v in saved.items() if k != "opt"}

    def checkpoint() -> None:
        ot, extra = optimizer_tensors(opt)
        tensors = {f"net.{k}": v.detach().cpu().contiguous() for k, v in net.state_dict().items()}
        tensors.update({f"opt.{k}": v for k, v in ot.items()})
        write_bytes_atomic(ck, save_tensors(tensors))
        write_json_atomic(st, dict(state, opt=extra))

    baseline = float(((vy - y.mean()) ** 2).mean())   # predicting the training mean everywhere
    steps_per_epoch = math.ceil(len(obs) / cfg.batch_size)
    total = cfg.epochs * steps_per_epoch
    t0, seen, last = time.time(), 0, time.monotonic()
    net.train()
    while state["epoch"] < cfg.epochs:
        perm = np.random.default_rng([cfg.seed, state["epoch"]]).permutation(len(obs))
        for k in range(state["step"] - state["epoch"] * steps_per_epoch, steps_per_epoch):
            if cfg.max_steps is not None and state["step"] >= cfg.max_steps:
                checkpoint()
                return state
            rows = np.sort(perm[k * cfg.batch_size:(k + 1) * cfg.batch_size])
            x = unpack(obs[rows]).to(device)
            target = torch.from_numpy(y[rows]).to(device)
            loss = torch.mean((net(x) - target) ** 2)
            decayed_step(opt, loss, cfg.lr, state["step"], total)
            state["step"] += 1
            seen += len(rows)
            if progress and state["step"] % 50 == 0:
                progress({"epoch": state["epoch"], "step_in_epoch": k + 1, "steps_per_epoch": steps_per_epoch,
                          "loss": float(loss.detach()), "positions_per_s": seen / max(time.time() - t0, 1e-9)})
            if time.monotonic() - last >= cfg.checkpoint_seconds:
                checkpoint()
                last = time.monotonic()
        net.eval()
        pred = predict(net, vobs)
        net.train()
        mse = float(((pred - vy) ** 2).mean())
        state["epoch"] += 1
        state["history"].append({"epoch": state["epoch"], "validation_mse": mse})
        if state["best_mse"] is None or mse < state["best_mse"]:
            state["best_mse"] = mse
            save_model(out / "model", net, {
                "trained_on": "positions where double is legal in auctions of the panel on TRAIN deals of the "
                              "shipped DD store; labels from the deals' DD tables", **cfg.data_key(),
                "target": "IMPs for the doubler's side of (X, then the same agents bid on) minus (the call made, then "
                          "the same agents bid on), both scored double dummy",
                "positions": int(len(obs)), "validation_positions": int(len(vobs)), "validation_mse": mse,
                "validation_mse_of_the_mean": baseline, "epoch": state["epoch"], "epochs": cfg.epochs,
                "lr": cfg.lr, "batch_size": cfg.batch_size})
        checkpoint()
        last = time.monotonic()
        if progress:
            progress({"epoch_done": state["epoch"], "validation_mse": mse, "baseline_mse": baseline,
                      "positions": int(len(obs))})
    return state


def load_judge(name_or_path: str = "judge", device: str = "cpu") -> JudgeNet:
    """A saved judge (a path, or a shipped model's name such as ``judge``) on ``device``."""
    from bidlab.agents.neural import resolve_model

    net, _ = load_model(resolve_model(name_or_path, kind="judge"), device=device)
    if net.cfg.kind != "judge":
        raise JudgeTrainingError(f"{name_or_path} is a {net.cfg.kind} net, not a doubling judge")
    return net
