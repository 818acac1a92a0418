"""Filling a deal store with random deals and their DD tables, resumably.

Shard ``k`` of a store made with seed ``s`` and shard size ``S`` holds deal ids
``k*S .. k*S + S - 1``; its deals are drawn from ``numpy.random.default_rng([s, k])``,
one ``permutation`` of the 52 holders per deal. Shards are therefore independent:
a run that is killed loses at most the shard in progress, and the next run with the
same settings recomputes exactly that shard (same seed, same deals). Because a shard's
deals depend only on (seed, k), shards can be solved anywhere: with an
:class:`~bidlab.runtime.executor.ExecutorConfig` (``bidlab dd generate --backend ray``)
they are solved as parallel tasks, e.g. on a Ray cluster, and this process appends them in
shard order, so the store is byte-for-byte the one the local run makes. The shared
data set ../shared/data/dd was made by this recipe with seed 2026 and S = 2000, so
:func:`import_npz_shards` can adopt it as shards 0..28 after checking every deal.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bidlab.dd.solver import check_holders, dd_tables, set_threads
from bidlab.dd.store import DealStore, StoreError
from bidlab.runtime.executor import ExecutorConfig, run_tasks
from bidlab.runtime.progress import ProgressTask, task_or_null

_BASE = np.repeat(np.arange(4, dtype=np.uint8), 13)
RECIPE = "default_rng([seed, shard]).permutation per deal"


@dataclass(frozen=True, slots=True)
class GenerateConfig:
    """Settings of a generation run; ``seed`` and ``shard_size`` are fixed per store."""

    deals: int                 # total deals wanted in the store
    seed: int = 0
    shard_size: int = 1000     # deals per shard = the work lost at most by a kill
    threads: int = 0           # DDS threads, 0 = every core

    def __post_init__(self) -> None:
        # Checked here, before any folder is made, so that bad settings leave nothing behind.
        for name, low in (("deals", 0), ("seed", 0), ("shard_size", 1), ("threads", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise StoreError(f"{name} must be an integer >= {low}, got {value!r}")

    def generator_record(self) -> dict:
        return {"seed": self.seed, "shard_size": self.shard_size, "recipe": RECIPE}


def shard_deals(seed: int, shard: int, count: int) -> np.ndarray:
    """The first ``count`` deals of shard ``shard`` for ``seed``: ``uint8[count, 52]``."""
    rng = np.random.default_rng([seed, shard])
    out = np.empty((count, 52), dtype=np.uint8)
    for i in range(count):  # one permutation per deal keeps the stream equal to the recipe
        out[i] = rng.permutation(_BASE)
    return out


def open_for_generation(path: Path, cfg: GenerateConfig) -> DealStore:
    """Open (or create) the store and check its generator settings match ``cfg``."""
    store = DealStore.open_or_create(path, generator=cfg.generator_record(),
                                     description=f"random deals, seed {cfg.seed}")
    gen = store.generator
    if not gen and not store.shards:
        store.set_generator(cfg.generator_record())
        gen = store.generator
    if gen.get("recipe") != RECIPE:
        raise StoreError("store was not made by `bidlab dd generate`; cannot extend it", path=path)
    if (gen["seed"], gen["shard_size"]) != (cfg.seed, cfg.shard_size):
        raise StoreError(f"store was generated with seed {gen['seed']} and shard size {gen['shard_size']}; "
                         f"pass the same --seed and --shard-size to extend it", path=path)
    return store


def pending_shards(store: DealStore, cfg: GenerateConfig) -> list[tuple[int, int]]:
    """(shard index, count) still to solve to bring the store to ``cfg.deals`` deals."""
    todo, have = [], len(store)
    k = max((s.first_id // cfg.shard_size + 1 for s in store.shards), default=0)
    while have < cfg.deals:
        count = min(cfg.shard_size, cfg.deals - have)
        todo.append((k, count))
        have += count
        k += 1
    return todo


def solve_shard(task: tuple[int, int, int, int]) -> tuple[int, np.ndarray, np.ndarray]:
    """One executor task: ``(seed, shard, count, threads)`` -> ``(shard, deals, dd)``."""
    seed, k, count, threads = task
    if threads:
        set_threads(threads)
    deals = shard_deals(seed, k, count)
    return k, deals, dd_tables(deals)


def generate(path: str | os.PathLike, cfg: GenerateConfig, progress: ProgressTask | None = None,
             executor: ExecutorConfig | None = None) -> DealStore:
    """Solve and append shards until the store at ``path`` holds ``cfg.deals`` deals.

    ``progress`` starts at the deals present (of ``cfg.deals``) and advances after every
    DDS call, or after every shard with an ``executor``. Only one process may generate into
    a store at a time.

    ``executor`` None solves the shards here, one after another, each with ``cfg.threads``
    DDS threads. Otherwise every shard is a task of :func:`~bidlab.runtime.executor.run_tasks`
    (``cfg.threads`` DDS threads per task, 1 if 0: each task holds one CPU); finished shards
    are appended in shard order (a shard finished before an earlier one waits in memory),
    so a kill leaves a store without gaps and the rerun resumes it as usual.
    """
    if executor is not None:
        return _generate_tasks(Path(path), cfg, task_or_null(progress), executor)
    progress = task_or_null(progress)
    store = open_for_generation(Path(path), cfg)
    with store.shard_store.exclusive():
        store = DealStore.open(store.path)  # as it is now that no other writer runs
        todo = pending_shards(store, cfg)
        progress.start(len(store) + sum(c for _, c in todo), len(store))
        if todo and cfg.threads:
            set_threads(cfg.threads)
        for k, count in todo:
            deals = shard_deals(cfg.seed, k, count)
            dd = dd_tables(deals, progress=progress)
            store.append(deals, dd, first_id=k * cfg.shard_size, source=f"generated seed {cfg.seed} shard {k}")
    return store


def _generate_tasks(path: Path, cfg: GenerateConfig, progress: ProgressTask,
                    executor: ExecutorConfig) -> DealStore:
    store = open_for_generation(path, cfg)
    with store.shard_store.exclusive():
        store = DealStore.open(store.path)
        todo = pending_shards(store, cfg)
        progress.start(len(store) + sum(c for _, c in todo), len(store))
        order = [k for k, _ in todo]
        waiting: dict[int, tuple[np.ndarray, np.ndarray]] = {}

        def save(result: tuple[int, np.ndarray, np.ndarray]) -> None:
            k, deals, dd = result
            waiting[k] = (deals, dd)
            while order and order[0] in waiting:
                first = order.pop(0)
                d, t = waiting.pop(first)
                store.append(d, t, first_id=first * cfg.shard_size,
                             source=f"generated seed {cfg.seed} shard {first}")
                progress.advance(len(d))

        run_tasks(solve_shard, [(cfg.seed, k, c, cfg.threads or 1) for k, c in todo], save, executor)
    return store


def import_npz_shards(path: str | os.PathLike, files: Iterable[str | os.PathLike], *, seed: int,
                      shard_size: int, source: str = "") -> DealStore:
    """Adopt already-solved shard files (arrays ``deals``, ``dd``) made by the generator recipe.

    File ``i`` in ``files`` must hold shard ``i``'s deals for ``seed`` exactly (checked deal
    by deal), so the store stays extendable by :func:`generate` with the same settings.
    Shards already in the store are skipped, which makes the import resumable.
    """
    cfg = GenerateConfig(deals=0, seed=seed, shard_size=shard_size)
    files = list(files)
    for f in files:  # before the store is made, so that a typo leaves no empty store behind
        if not Path(f).is_file():
            raise StoreError("no such file", path=f)
    store = open_for_generation(Path(path), cfg)
    with store.shard_store.exclusive():
        store = DealStore.open(store.path)
        have = {s.first_id // shard_size for s in store.shards}
        for k, f in enumerate(files):
            if k in have:
                continue
            try:
                with np.load(f, allow_pickle=False) as z:
                    deals, dd = z["deals"], z["dd"]
            except (OSError, ValueError, KeyError) as e:
                raise StoreError(f"cannot read ({type(e).__name__}: {e})", path=f) from None
            check_holders(deals, where=str(f))
            if not np.array_equal(deals, shard_deals(seed, k, len(deals))):
                raise StoreError(f"deals are not shard {k} of seed {seed} by the generator recipe", path=f)
            store.append(deals, dd, first_id=k * shard_size, source=f"{source}{Path(f).name}")
    return store
