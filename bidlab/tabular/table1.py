"""Reproduction of Table 1 of Tian et al. 2020 (CFR1k and CFR1k+JPS rows), with checkpointing.

Per column and seed: run CFR for 1,000 iterations from a seeded random start, report the value
of its purified last iterate (the CFR1k row), then run JPS (paper settings, :meth:`JPSConfig.paper`)
from the *unpurified* last iterate, as the authors' ``main.cpp`` does, and report the final value
(the CFR1k+JPS row). Each column is a :class:`~bidlab.runtime.shards.ShardStore` (folder
``RESULTS/<game>``) with one shard per finished seed, so a killed run resumes where it stopped,
several processes may share a column (each seed is written by one of them), and the same seed
gives the same numbers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from bidlab.runtime.shards import ShardExistsError, ShardStore
from bidlab.runtime.stats import mean_se
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


def column_folder(results: str | os.PathLike, spec: str) -> Path:
    """Folder of one column's seeds under the results folder (``mini_bridge:4`` -> ``mini_bridge-4``)."""
    return Path(results) / spec.replace(":", "-")


def _job(spec: str, table: str, settings: dict | None) -> dict:
    """What determines a column's numbers: a store of other settings is refused, not mixed in."""
    return {"table": table, "game": spec, "cfr": asdict(CFRConfig.paper()), "jps": "JPSConfig.paper(game)",
            **(settings or {})}


def load_column(results: str | os.PathLike, spec: str) -> list[dict]:
    """The finished seeds of a column (empty if none), in seed order."""
    folder = column_folder(results, spec)
    if not folder.exists():
        return []
    return sorted(ShardStore.open(folder).iter_records(), key=lambda r: r["seed"])


def run_column(
    spec: str,
    seeds: int,
    results: str | os.PathLike,
    on_seed: Callable[[dict], None] | None = None,
    first_seed: int = 0,
    runner: Callable[[str, int], dict] | None = None,
    table: str = "table1",
    settings: dict | None = None,
) -> list[dict]:
    """Run seeds ``first_seed..seeds-1`` of a column, skipping those already finished (by this
    or another process: the store is re-read before each seed). ``settings`` adds to the job's
    identity what ``runner`` depends on."""
    store = ShardStore.open_job(column_folder(results, spec), f"tabular-{table}", _job(spec, table, settings))
    for seed in range(first_seed, seeds):
        if store.refresh().has(seed):
            continue
        rec = (runner or run_seed)(spec, seed)
        try:
            store.write_records(seed, [rec])
        except ShardExistsError:  # another worker finished this seed meanwhile
            continue
        if on_seed is not None:
            on_seed(rec)
    return [r for r in load_column(results, spec) if first_seed <= r["seed"] < seeds]


@dataclass(frozen=True)
class Summary:
    n: int
    cfr_mean: float
    cfr_se: float
    cfr_best: float
    jps_mean: float
    jps_se: float
    jps_best: float


def summarize(records: list[dict]) -> Summary:
    if not records:
        raise TabularError("no finished seeds to summarize")
    cfr = [r["cfr_pure"] for r in records]
    jps = [r["jps"] for r in records]
    c, j = mean_se(cfr), mean_se(jps)
    return Summary(len(records), c.mean, c.se, max(cfr), j.mean, j.se, max(jps))
