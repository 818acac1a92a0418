"""The deal store: shards of deals with their double-dummy tables, on disk.

A deal store is a :class:`bidlab.runtime.shards.ShardStore` of kind ``dd-store``::

    manifest.json        kind, the generator's settings (the job), split rule, one entry per shard
    shard-000000.npz     deals uint8[n, 52], dd uint8[n, 4, 5], optional meta_<name>[n]
    shard-000001.npz
    ...

* Atomic, checksummed and append-only as every shard store is: a shard is never
  rewritten once listed, and :meth:`DealStore.load` checks each sha256, then the array
  shapes and values, so a corrupt or truncated shard never loads silently.
* Deal ids: each shard entry records ``first_id``; shard ``k`` holds the contiguous ids
  ``first_id .. first_id + count - 1``; ids never repeat within a store.
* Splits are fixed by the deal id alone (:mod:`bidlab.runtime.split`: ``id % 10``, 0 test,
  1 validation, the rest train), recorded in the manifest, so a deal never changes split
  when the store grows.
* Loading concatenates whole shards into preallocated arrays: no Python loop over deals.
* Stores written before the shard store existed (manifest format ``bidlab-dd-store``)
  open as they are; their manifest is rewritten in the new format with the next shard.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

import numpy as np

from bidlab.runtime import split as _split
from bidlab.runtime.shards import (
    MANIFEST,
    ChecksumMismatchError,
    ManifestError,
    NotAShardStoreError,
    ShardCorruptError,
    ShardError,
    ShardInfo,
    ShardStore,
)

KIND = "dd-store"
LEGACY_FORMAT = "bidlab-dd-store"
SPLITS = _split.SPLITS
SPLIT_MODULUS = _split.MODULUS
SPLIT_RULE = _split.RULE
split_of = _split.split_of
split_mask = _split.split_mask

#: Errors of a deal store are those of every shard store.
StoreError = ShardError
NotAStoreError = NotAShardStoreError

__all__ = [
    "ChecksumMismatchError", "DealBatch", "DealShard", "DealStore", "MANIFEST", "ManifestError",
    "NotAStoreError", "ShardCorruptError", "StoreError", "split_mask", "split_of",
]


class DealBatch(NamedTuple):
    """Deals with their tables; unpacks as ``deals, dd, ids``."""

    deals: np.ndarray   # uint8[n, 52], seat holding each card
    dd: np.ndarray      # uint8[n, 4, 5], tricks for declarer N,E,S,W x strain C,D,H,S,NT
    ids: np.ndarray     # int64[n], deal ids


@dataclass(frozen=True, slots=True)
class DealShard:
    """One shard of a deal store: its entry, with the deal ids it holds."""

    index: int
    file: str
    first_id: int
    count: int
    sha256: str
    meta: tuple[str, ...] = ()
    source: str = ""

    @property
    def ids(self) -> np.ndarray:
        return np.arange(self.first_id, self.first_id + self.count, dtype=np.int64)

    @classmethod
    def of(cls, info: ShardInfo) -> DealShard:
        f = info.fields
        return cls(info.index, info.file, int(f.get("first_id", -1)), info.count, info.sha256,
                   tuple(f.get("meta", ())), str(f.get("source", "")))


def _upgrade_legacy(manifest: dict) -> dict | None:
    """A ``bidlab-dd-store`` version 1 manifest in the shard store's format (same shard files)."""
    if manifest.get("format") != LEGACY_FORMAT or manifest.get("version") != 1:
        return None
    shards = []
    for s in manifest.get("shards", []):
        if not isinstance(s, dict):
            return None
        m = re.fullmatch(r"shard-(\d{6})\.npz", str(s.get("file", "")))
        entry = dict(s)
        entry["index"] = int(m.group(1)) if m else -1
        shards.append(entry)
    return {"format": "bidlab-shards", "version": 1, "kind": KIND,
            "job": manifest.get("generator") or None,
            "meta": {"description": manifest.get("description", ""), "splits": manifest.get("splits")},
            "shards": shards}


class DealStore:
    """A folder of shards of deals with their DD tables (see the module docstring).

    >>> store = DealStore.open("path/to/store")          # doctest: +SKIP
    >>> deals, dd, ids = store.load("train")              # doctest: +SKIP
    """

    def __init__(self, shards: ShardStore):
        self._store = shards
        self._shards = tuple(DealShard.of(s) for s in shards.shards)

    @property
    def path(self) -> Path:
        return self._store.path

    @property
    def shard_store(self) -> ShardStore:
        return self._store

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike) -> DealStore:
        """Open an existing store; :class:`NotAStoreError` if ``path`` is not one."""
        try:
            store = ShardStore.open(path, KIND, upgrade=_upgrade_legacy)
        except NotAShardStoreError as e:
            raise NotAStoreError(f"{str(e).split(': ', 1)[-1]}, so not a deal store", path=e.path) from None
        mpath = store.path / MANIFEST
        if not _split.matches_record(store.meta.get("splits")):
            raise ManifestError("split rule differs from this bidlab's (id % 10: 0 test, 1 validation)",
                                path=mpath)
        deal_store = cls(store)
        for s in deal_store._shards:
            if s.first_id < 0:
                raise ManifestError(f"malformed shard entry ({s.file} has no first_id)", path=mpath)
        _check_disjoint(deal_store._shards, mpath)
        return deal_store

    @classmethod
    def create(cls, path: str | os.PathLike, *, generator: Mapping | None = None,
               description: str = "") -> DealStore:
        """Make an empty store at ``path`` (the directory may exist but must hold no manifest)."""
        return cls(ShardStore.create(path, KIND, job=generator or None,
                                     meta={"description": description, "splits": _split.rule_record()}))

    @classmethod
    def open_or_create(cls, path: str | os.PathLike, **create_kwargs) -> DealStore:
        p = Path(path)
        if (p / MANIFEST).exists():
            return cls.open(p)
        return cls.create(p, **create_kwargs)

    # ------------------------------------------------------------------ facts
    @property
    def shards(self) -> tuple[DealShard, ...]:
        return self._shards

    @property
    def generator(self) -> dict:
        """Settings of ``bidlab dd generate`` that made this store (empty if imported)."""
        return dict(self._store.job or {})

    @property
    def description(self) -> str:
        return self._store.meta.get("description", "")

    def __len__(self) -> int:
        return sum(s.count for s in self._shards)

    @property
    def next_id(self) -> int:
        return max((s.first_id + s.count for s in self._shards), default=0)

    def ids(self, split: str = "all") -> np.ndarray:
        """Deal ids in ``split``, in store order, without reading any shard."""
        ids = np.concatenate([s.ids for s in self._shards]) if self._shards else np.empty(0, np.int64)
        return ids[split_mask(ids, split)]

    def count(self, split: str = "all") -> int:
        return int(split_mask(self.ids(), split).sum())

    def __repr__(self) -> str:
        return f"DealStore({str(self.path)!r}, {len(self)} deals in {len(self._shards)} shards)"

    # ------------------------------------------------------------------ reading
    def read_shard(self, shard: DealShard | int, *, verify: bool = True) -> dict[str, np.ndarray]:
        """Arrays of one shard ('deals', 'dd', 'meta_*'), checked against the manifest.

        An int is a position in :attr:`shards` (``-1`` the last), not a shard index.
        """
        info = self._shards[shard] if isinstance(shard, int) else shard
        arrays = self._store.read_arrays(info.index, verify=verify)
        _check_arrays(arrays, info, self.path / info.file)
        return arrays

    def iter_shards(self, *, verify: bool = True) -> Iterator[tuple[DealShard, dict[str, np.ndarray]]]:
        for info in self._shards:
            yield info, self.read_shard(info, verify=verify)

    def load(self, split: str = "all", *, verify: bool = True) -> DealBatch:
        """All deals of ``split`` ('train', 'validation', 'test' or 'all') as numpy arrays.

        Returns ``(deals uint8[n, 52], dd uint8[n, 4, 5], ids int64[n])``. Every shard
        is checked (sha256, shapes, 13 cards per seat, tricks 0..13) unless ``verify``
        is False; a bad shard raises :class:`ShardCorruptError` naming the file.
        """
        ids = self.ids()
        keep = split_mask(ids, split)
        n = int(keep.sum())
        deals = np.empty((n, 52), np.uint8)
        dd = np.empty((n, 4, 5), np.uint8)
        at, start = 0, 0
        for info in self._shards:
            k = keep[start:start + info.count]
            start += info.count
            m = int(k.sum())
            if m == 0:
                continue
            arrays = self.read_shard(info, verify=verify)
            deals[at:at + m] = arrays["deals"][k]
            dd[at:at + m] = arrays["dd"][k]
            at += m
        return DealBatch(deals, dd, ids[keep])

    def load_meta(self, name: str, split: str = "all", *, verify: bool = True) -> np.ndarray:
        """Board metadata array ``name`` for ``split`` (every shard in the split must have it)."""
        ids = self.ids()
        keep = split_mask(ids, split)
        parts, start = [], 0
        for info in self._shards:
            k = keep[start:start + info.count]
            start += info.count
            if not k.any():
                continue
            if name not in info.meta:
                raise StoreError(f"shard has no metadata {name!r}", path=self.path / info.file)
            parts.append(self.read_shard(info, verify=verify)["meta_" + name][k])
        return np.concatenate(parts) if parts else np.empty(0)

    def verify(self) -> int:
        """Read and check every shard; returns the number of deals. Raises on the first bad one."""
        for _ in self.iter_shards():
            pass
        return len(self)

    # ------------------------------------------------------------------ writing
    def append(self, deals: np.ndarray, dd: np.ndarray, *, first_id: int | None = None,
               meta: Mapping[str, np.ndarray] | None = None, source: str = "") -> DealShard:
        """Write one new shard (atomically) and list it in the manifest; returns its entry.

        ``first_id`` defaults to the next unused id; the shard's ids must not overlap
        any existing shard. ``meta`` holds per-deal board metadata arrays (e.g. board
        numbers), stored as ``meta_<name>``.
        """
        deals = np.ascontiguousarray(deals, dtype=np.uint8)
        dd = np.ascontiguousarray(dd, dtype=np.uint8)
        n = len(deals)
        if n == 0:
            raise StoreError("refusing to write an empty shard", path=self.path)
        first = self.next_id if first_id is None else int(first_id)
        if first < 0:
            raise StoreError(f"first_id must be >= 0, got {first}", path=self.path)
        arrays = {"deals": deals, "dd": dd}
        for name, arr in (meta or {}).items():
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                raise StoreError(f"bad metadata name {name!r} (lowercase letters, digits, _)")
            arrays["meta_" + name] = np.ascontiguousarray(arr)
        index = max((s.index + 1 for s in self._shards), default=0)
        info = DealShard(index, f"shard-{index:06d}.npz", first, n, "", tuple(sorted(meta or ())), source)
        _check_arrays(arrays, info, self.path / info.file)
        _check_disjoint(self._shards + (info,), self.path / MANIFEST)
        # Another writer must not have changed the store under us.
        if ShardStore.open(self.path, KIND, upgrade=_upgrade_legacy).shards != self._store.shards:
            raise StoreError("store changed on disk since it was opened; reopen and retry", path=self.path)
        fields = {"first_id": first}
        if info.meta:
            fields["meta"] = list(info.meta)
        if source:
            fields["source"] = source
        written = DealShard.of(self._store.write_arrays(index, arrays, count=n, **fields))
        self._shards = self._shards + (written,)
        return written

    def set_generator(self, generator: Mapping) -> None:
        """Record the generator settings (only while the store is empty)."""
        if self._shards:
            raise StoreError("generator settings are fixed once the store has shards", path=self.path)
        self._store.set_job(generator)


def _check_disjoint(shards: tuple[DealShard, ...], where: Path) -> None:
    files = [s.file for s in shards]
    if len(set(files)) != len(files):
        raise ManifestError("a shard file is listed twice", path=where)
    spans = sorted((s.first_id, s.first_id + s.count, s.file) for s in shards)
    for (_a0, a1, fa), (b0, _b1, fb) in pairwise(spans):
        if b0 < a1:
            raise ManifestError(f"deal ids of {fa} and {fb} overlap", path=where)
    for s in shards:
        if s.count <= 0 or s.first_id < 0:
            raise ManifestError(f"{s.file}: bad id range (first_id {s.first_id}, count {s.count})", path=where)


def _check_arrays(arrays: dict[str, np.ndarray], info: DealShard, path: Path) -> None:
    """Shapes, dtypes and values a shard must have; raises :class:`ShardCorruptError`."""
    n = info.count
    deals, dd = arrays.get("deals"), arrays.get("dd")
    if deals is None or dd is None:
        raise ShardCorruptError("shard lacks the 'deals' or 'dd' array", path=path)
    if deals.shape != (n, 52) or deals.dtype != np.uint8:
        raise ShardCorruptError(f"deals has shape {deals.shape} {deals.dtype}, expected ({n}, 52) uint8",
                                path=path)
    if dd.shape != (n, 4, 5) or dd.dtype != np.uint8:
        raise ShardCorruptError(f"dd has shape {dd.shape} {dd.dtype}, expected ({n}, 4, 5) uint8", path=path)
    if deals.max(initial=0) > 3:
        raise ShardCorruptError("a holder is not a seat 0..3", path=path)
    counts = np.stack([(deals == s).sum(axis=1) for s in range(4)], axis=1)
    bad = np.flatnonzero((counts != 13).any(axis=1))
    if len(bad):
        raise ShardCorruptError(f"deal id {info.first_id + int(bad[0])} does not give each seat 13 cards",
                                path=path)
    if dd.max(initial=0) > 13:
        raise ShardCorruptError("a table entry exceeds 13 tricks", path=path)
    for name in info.meta:
        arr = arrays.get("meta_" + name)
        if arr is None or len(arr) != n:
            raise ShardCorruptError(f"metadata {name!r} missing or not {n} long", path=path)
