"""The league's pool of opponents (issue #26): who is in it, how often each is met, and how the
learner fares against each.

The pool always holds the learner itself (``self``: plain self-play, a fixed share of the
batches, :attr:`LeagueConfig.self_share`). The rest of the batches go to the other members by
prioritized fictitious self-play (:class:`~bidlab.learn.a2c.config.LeagueConfig` says how the
weights are made):

- fixed agents, by spec (``sayc``, ``nn:sl``);
- frozen snapshots of the learner, one at the start of the league and one every
  ``snapshot_every`` updates, saved as plain model files in ``RUN/league/`` (so each one
  also bids in ``bidlab match`` as ``nn:RUN/league/snap-NNNNNN``);
- members added by hand, such as exploiters (``--league-add nn:runs/exploit/final``);
- frozen main exploiters (``exploiter@UPDATE``, :mod:`bidlab.learn.a2c.main_exploiter`), files in
  ``RUN/league/`` as the snapshots'.

Each member's running result is the learner's IMPs/board against it, as a mean over its
last ``horizon`` boards (an exponential fade: the learner changes, so old boards say less).
The whole pool, results included, goes into the checkpoint's state (:meth:`League.to_json`)
and comes back on resume; snapshot weights are read back from their files.

Members reach the actors by value (:meth:`League.actor_members`): a neural member travels as
its net config and weights, so Ray actors on other machines need no run folder and no model
files; any other member (``sayc``) travels as its spec and is built where it bids.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from bidlab.agents.neural import resolve_model
from bidlab.agents.registry import AgentSpecError, make_agent
from bidlab.agents.specs import split_neural_spec
from bidlab.learn.a2c.config import LeagueConfig, RLTrainingError
from bidlab.nets import load_model, save_model

SELF = "self"
FROZEN_KINDS = ("snapshot", "exploiter")  # members whose weights are files in RUN/league/
EXPLOITER = "main-exploiter"  # the opponent label of batches bid by the main exploiter (not a member)


@dataclass
class Member:
    """One opponent team of the pool and the learner's results against it."""

    name: str          # "self", the spec of a fixed agent, "snap@UPDATE", "exploiter@UPDATE", or the spec added
    kind: str          # "self" | "fixed" | "snapshot" | "added" | "exploiter"
    spec: str          # an agent spec that builds it ("" for self)
    since: int = 0     # learner update when it joined
    boards: int = 0
    imps_sum: float = 0.0
    imps_sq: float = 0.0
    recent: float = 0.0  # the learner's IMPs/board against it over about the last ``horizon`` boards

    @property
    def mean(self) -> float:
        return self.imps_sum / self.boards if self.boards else 0.0

    @property
    def se(self) -> float:
        if self.boards < 2:
            return 0.0
        var = max(0.0, (self.imps_sq - self.imps_sum ** 2 / self.boards) / (self.boards - 1))
        return math.sqrt(var / self.boards)


def check_member_spec(spec: str) -> str:
    """``spec`` if it builds an agent here (fixed members and ``--league-add``); a clear error if not."""
    try:
        make_agent(spec, 0)
    except AgentSpecError as e:
        raise RLTrainingError(f"league member {spec!r}: {e}") from None
    except Exception as e:  # a model file that does not load
        raise RLTrainingError(f"league member {spec!r} cannot be built: {type(e).__name__}: {e}") from None
    return spec


class League:
    """The pool: members, their PFSP weights and their running results."""

    def __init__(self, cfg: LeagueConfig, members: list[Member], run: Path, version: int = 0):
        self.cfg = cfg
        self.members = members
        self.run = Path(run)
        self.version = version  # bumped whenever the members change (the actors rebuild them then)
        self.dropped: list[str] = []  # snapshots whose files were gone on resume

    # -- building --------------------------------------------------------------------------

    @classmethod
    def start(cls, cfg: LeagueConfig, run: Path, update: int, policy: torch.nn.Module) -> League:
        """A new pool at ``update``: self, the fixed agents and a snapshot of ``policy``."""
        league = cls(cfg, [Member(SELF, "self", "", update)], run)
        for spec in cfg.fixed:
            league.add(check_member_spec(spec), "fixed", update)
        if cfg.snapshot_every:
            league.add_snapshot(update, policy)
        return league

    def add(self, spec: str, kind: str = "added", update: int = 0) -> bool:
        """Add the member ``spec`` unless it is already there; True if it was added."""
        if any(m.name == spec for m in self.members):
            return False
        self.members.append(Member(spec, kind, spec, update))
        self.version += 1
        return True

    def add_snapshot(self, update: int, policy: torch.nn.Module) -> None:
        """Freeze ``policy`` at ``update`` into the pool (a model file in ``RUN/league/``); the
        oldest snapshot after the first leaves once more than ``max_snapshots`` are kept."""
        path = self.run / "league" / f"snap-{update:06d}"
        save_model(path, policy, info={"league": {"snapshot_of_update": update}})
        name = f"snap@{update}"
        self.members = [m for m in self.members if m.name != name]
        mode = "" if self.cfg.snapshot_mode == "greedy" else ":sample"
        self.members.append(Member(name, "snapshot", f"nn:{path.resolve()}{mode}", update))
        snaps = [m for m in self.members if m.kind == "snapshot"]
        if len(snaps) > self.cfg.max_snapshots:
            gone = snaps[1]  # keep the league's starting point, drop the oldest after it
            self.members.remove(gone)
        self.version += 1

    def add_exploiter(self, name: str, stem: str, update: int, policy: torch.nn.Module, info: dict) -> Path:
        """Freeze a main exploiter's ``policy`` into the pool as ``name`` (a model file
        ``RUN/league/STEM``, bidding as snapshots do); it stays as long as the run (it is no
        snapshot, so ``max_snapshots`` does not push it out). Returns the file's path without suffix."""
        path = self.run / "league" / stem
        save_model(path, policy, info={"league": {"main_exploiter": info}})
        mode = "" if self.cfg.snapshot_mode == "greedy" else ":sample"
        self.members = [m for m in self.members if m.name != name]
        self.members.append(Member(name, "exploiter", f"nn:{path.resolve()}{mode}", update))
        self.version += 1
        return path

    # -- weights and results -------------------------------------------------------------------

    def probabilities(self) -> dict[str, float]:
        """Each member's share of the batches: ``self_share`` for self, the rest by PFSP weight."""
        others = [m for m in self.members if m.name != SELF]
        share = self.cfg.self_share if others else 1.0
        out = {SELF: share}
        if not others:
            return out
        w = np.array([pfsp_weight(m.recent if m.boards else 0.0, self.cfg) for m in others])
        w = w / w.sum() * (1.0 - share)
        out.update({m.name: float(p) for m, p in zip(others, w)})
        return out

    def record(self, name: str, imps: np.ndarray) -> None:
        """Add a batch's boards: ``imps`` the learner's IMPs on each board against ``name``."""
        m = next((m for m in self.members if m.name == name), None)
        if m is None:  # a batch bid against a member that has since left the pool
            return
        imps = np.asarray(imps, np.float64)
        n = len(imps)
        if n == 0:
            return
        m.boards += n
        m.imps_sum += float(imps.sum())
        m.imps_sq += float((imps ** 2).sum())
        step = n / min(m.boards, self.cfg.horizon)
        m.recent += step * (float(imps.mean()) - m.recent)

    def actor_members(self) -> list[dict]:
        """The members other than self as the actors build them: neural ones by value (net
        config and numpy weights), the rest by spec."""
        out = []
        for m in self.members:
            if m.name == SELF:
                continue
            item = {"name": m.name, "spec": m.spec}
            if m.spec.startswith("nn:"):
                path, mode = _neural_path_mode(m.spec[3:])
                net, _ = load_model(resolve_model(path))
                item.update(net=asdict(net.cfg), mode=mode,
                            weights={k: v.detach().cpu().numpy() for k, v in net.state_dict().items()})
            out.append(item)
        return out

    def table(self) -> list[dict]:
        """One row per member: name, share of batches, boards, running and overall IMPs/board."""
        p = self.probabilities()
        return [{"name": m.name, "kind": m.kind, "p": p.get(m.name, 0.0), "boards": m.boards, "recent": m.recent,
                 "mean": m.mean, "se": m.se} for m in self.members]

    # -- checkpoint ----------------------------------------------------------------------------

    def to_json(self) -> dict:
        return {"config": self.cfg.to_json(), "version": self.version, "members": [asdict(m) for m in self.members],
                "dropped": list(self.dropped)}

    @classmethod
    def from_json(cls, d: dict, run: Path, cfg: LeagueConfig | None = None) -> League:
        """The pool as checkpointed; ``cfg`` (this run's settings) replaces the stored ones, and
        fixed agents new to ``cfg`` join."""
        stored = LeagueConfig.from_json(d["config"])
        league = cls(cfg or stored, [Member(**m) for m in d["members"]], run, d.get("version", 0))
        league.dropped = list(d.get("dropped", []))
        for m in list(league.members):
            if m.kind in FROZEN_KINDS:
                path, _ = _neural_path_mode(m.spec[3:])
                if not _snapshot_file(path, run).is_file():
                    # a run folder copied without its league/ files (a checkpoint committed to
                    # git keeps only the learner's state): the snapshot leaves the pool, said so
                    league.members.remove(m)
                    league.dropped.append(m.name)
                    league.version += 1
                elif not Path(path).with_suffix(".safetensors").is_file():  # the run folder moved
                    m.spec = f"nn:{_snapshot_file(path, run).with_suffix('').resolve()}" + (
                        "" if league.cfg.snapshot_mode == "greedy" else ":sample")
        if cfg is not None:
            for spec in cfg.fixed:
                league.add(check_member_spec(spec), "fixed", 0)
        return league


def _snapshot_file(path: str, run: Path) -> Path:
    """A snapshot's weights: where they were written, or in this run's ``league/`` folder (the
    run folder may have been copied or moved since)."""
    p = Path(path).with_suffix(".safetensors")
    return p if p.is_file() else Path(run) / "league" / p.name


def pfsp_weight(recent_imps: float, cfg: LeagueConfig) -> float:
    """``max(floor, (1 - x)^power)``, ``x = sigmoid(recent_imps / imps_scale)``: the learner's
    expectation of winning a board against the member (AlphaStar's "hard" PFSP weighting)."""
    x = 1.0 / (1.0 + math.exp(-recent_imps / cfg.imps_scale))
    return max(cfg.floor, (1.0 - x) ** cfg.pfsp_power)


def _neural_path_mode(arg: str) -> tuple[str, str]:
    """``nn:``'s argument as (model path, mode), the mode greedy unless named."""
    path, mode = split_neural_spec(arg)
    return path, mode or "greedy"


__all__ = ["EXPLOITER", "FROZEN_KINDS", "SELF", "League", "Member", "check_member_spec", "pfsp_weight"]
