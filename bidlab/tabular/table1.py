"""Reproduction of Table 1 of Tian et al. 2020 (CFR1k and CFR1k+JPS rows), with checkpointing.

Per column and seed: run CFR for 1,000 iterations from a seeded random start, report the value
of its purified last iterate (the CFR1k row), then run JPS (paper settings, :meth:`JPSConfig.paper`)
from the *unpurified* last iterate, as the authors' ``main.cpp`` does, and report the final value
(the CFR1k+JPS row). Finished seeds go into a JSON file (written atomically) so a killed run
resumes where it stopped; the same seed gives the same numbers.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bidlab.tabular.cfr import CFRConfig, run_cfr
from bidlab.tabular.games import TabularError, make_game
from bidlab.tabular.jps import JPSConfig, run_jps


@dataclass(frozen=True)
class Column:
    spec: str
    label: str
    paper_cfr: float
    paper_jps: float
    best_known: float
    min_seeds: int


# Table 1 of the paper: CFR1k, CFR1k+JPS, best known; the minimum seed counts.
COLUMNS: tuple[Column, ...] = (
    Column("comm:3", "Comm L=3", 0.89, 1.00, 1.00, 100),
    Column("comm:5", "Comm L=5", 0.85, 1.00, 1.00, 100),
    Column("comm:6", "Comm L=6", 0.85, 1.00, 1.00, 10),
    Column("comm:7", "Comm L=7", 0.85, 1.00, 1.00, 10),
    Column("mini_hanabi", "Mini-Hanabi", 9.11, 9.50, 10.0, 100),
    Column("simple_bidding:4", "SimpleBid N=4", 2.18, 2.20, 2.25, 100),
    Column("simple_bidding:8", "SimpleBid N=8", 4.96, 5.00, 5.06, 100),
    Column("simple_bidding:16", "SimpleBid N=16", 10.47, 10.56, 10.75, 100),
    Column("mini_bridge:3", "2SuitBridge N=3", 1.01, 1.07, 1.13, 100),
    Column("mini_bridge:4", "2SuitBridge N=4", 1.62, 1.71, 1.84, 100),
    Column("mini_bridge:5", "2SuitBridge N=5", 2.60, 2.74, 2.89, 100),
)


def column(spec: str) -> Column:
    for c in COLUMNS:
        if c.spec == spec:
            return c
    raise TabularError(f"no Table 1 column for game {spec!r} (known: {', '.join(c.spec for c in COLUMNS)})")


def run_seed(spec: str, seed: int, cfr_config: CFRConfig | None = None) -> dict:
    """CFR1k and CFR1k+JPS for one seed of one column; returns a JSON-ready record."""
    game = make_game(spec)
    t0 = time.perf_counter()
    cfr = run_cfr(game, seed, cfr_config or CFRConfig.paper())
    t1 = time.perf_counter()
    run = run_jps(game, cfr.last_iterate, seed, JPSConfig.paper(game))
    t2 = time.perf_counter()
    return {
        "seed": seed,
        "cfr_raw": cfr.raw_value,
        "cfr_pure": cfr.purified_value,
        "jps_start": run.start_value,
        "jps": run.best_value,
        "jps_iterations": run.iterations,
        "cfr_seconds": t1 - t0,
        "jps_seconds": t2 - t1,
    }


# Table 2 of the paper (CFR1k initialization rows): "all states" and k samples per infoset.
TABLE2_PAPER: dict[str, dict[int, float]] = {
    "mini_hanabi": {0: 9.50, 1: 10.00, 2: 9.99, 5: 9.95, 8: 9.75, 15: 9.51, 20: 9.51, 25: 9.51, 30: 9.51},
    "simple_bidding:16": {0: 10.56, 1: 10.47, 2: 10.47, 5: 10.49, 8: 10.52, 15: 10.58, 20: 10.60, 25: 10.61,
                          30: 10.61},
}


def run_seed_samples(spec: str, seed: int, samples: list[int]) -> dict:
    """Table 2: from one CFR1k run, JPS with ``k`` samples per infoset for each ``k`` (0 = all
    states); the best full evaluation over the run's iterations is reported."""
    game = make_game(spec)
    cfr = run_cfr(game, seed, CFRConfig.paper())
    out: dict = {"seed": seed, "cfr_pure": cfr.purified_value}
    base = JPSConfig.paper(game)
    for k in samples:
        cfg = JPSConfig(depth=base.depth, iterations=base.iterations, samples=k)
        out[f"k{k}"] = run_jps(game, cfr.last_iterate, seed, cfg).best_value
    return out


def load_results(path: Path) -> dict:
    if not path.exists():
        return {"columns": {}}
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise TabularError(f"{path}: checkpoint is not valid JSON ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("columns"), dict):
        raise TabularError(f"{path}: checkpoint has no 'columns' object")
    return data


def save_results(path: Path, data: dict) -> None:
    """Atomic write: a temporary file in the same directory, then ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1)
    os.replace(tmp, path)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Serialize read-modify-write of the checkpoint between worker processes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def run_column(
    spec: str,
    seeds: int,
    path: Path,
    on_seed: Callable[[dict], None] | None = None,
    first_seed: int = 0,
    runner: Callable[[str, int], dict] | None = None,
) -> list[dict]:
    """Run seeds ``first_seed..seeds-1`` of a column, skipping those already in the checkpoint
    (re-read before each seed, so several workers can share a column from different starts)."""
    for seed in range(first_seed, seeds):
        if any(r["seed"] == seed for r in load_results(path)["columns"].get(spec, [])):
            continue
        rec = (runner or run_seed)(spec, seed)
        with _locked(path):  # another worker may have written meanwhile
            data = load_results(path)
            col = [r for r in data["columns"].get(spec, []) if r["seed"] != seed]
            col.append(rec)
            col.sort(key=lambda r: r["seed"])
            data["columns"][spec] = col
            save_results(path, data)
        if on_seed is not None:
            on_seed(rec)
    return [r for r in load_results(path)["columns"].get(spec, []) if first_seed <= r["seed"] < seeds]


@dataclass(frozen=True)
class Summary:
    n: int
    cfr_mean: float
    cfr_se: float
    cfr_best: float
    jps_mean: float
    jps_se: float
    jps_best: float


def _mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def summarize(records: list[dict]) -> Summary:
    if not records:
        raise TabularError("no finished seeds to summarize")
    cfr = [r["cfr_pure"] for r in records]
    jps = [r["jps"] for r in records]
    cm, cs = _mean_se(cfr)
    jm, js = _mean_se(jps)
    return Summary(len(records), cm, cs, max(cfr), jm, js, max(jps))
