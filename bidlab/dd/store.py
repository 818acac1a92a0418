"""The deal store: shards of deals with their double-dummy tables, on disk.

Layout of a store directory::

    manifest.json        format tag, split rule, generator settings, one entry per shard
    shard-000000.npz     deals uint8[n, 52], dd uint8[n, 4, 5], optional meta_<name>[n]
    shard-000001.npz
    ...

* Append-only: a shard file is never rewritten once listed; appending writes a new
  shard to a temporary name, renames it into place, then rewrites the manifest the
  same way. A kill at any moment leaves the store as it was before the append or
  after it (at worst with an unlisted shard file, which the next append replaces).
* Every shard is listed with its sha256; :meth:`DealStore.load` checks it and the
  array shapes and values, so a corrupt or truncated shard never loads silently.
* Deal ids: shard ``k`` holds the contiguous ids ``first_id .. first_id + count - 1``;
  ids never repeat within a store.
* Splits are fixed by the deal id alone (``id % 10``: 0 test, 1 validation, the rest
  train), recorded in the manifest, so a deal never changes split when the store grows.
* Loading concatenates whole shards into preallocated arrays: no Python loop over deals.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

import numpy as np

from bidlab.errors import BidlabError
from bidlab.fileio import write_bytes_atomic

FORMAT = "bidlab-dd-store"
VERSION = 1
MANIFEST = "manifest.json"
SPLITS = ("train", "validation", "test")
#: Split of a deal = ``SPLIT_RULE[id % SPLIT_MODULUS]``.
SPLIT_MODULUS = 10
SPLIT_RULE = ("test", "validation") + ("train",) * 8
_SHARD_NAME = re.compile(r"shard-(\d{6})\.npz")


class StoreError(BidlabError):
    """A deal store is missing, malformed or inconsistent; the message names the file."""

    def __init__(self, message: str, *, path: str | os.PathLike | None = None):
        self.path = None if path is None else Path(path)
        super().__init__(f"{path}: {message}" if path is not None else message)


class NotAStoreError(StoreError):
    """The directory is not a deal store (no manifest, or not a bidlab one)."""


class ManifestError(StoreError):
    """The manifest is not valid JSON or lacks required fields."""


class ShardCorruptError(StoreError):
    """A shard file is missing, truncated, unreadable or holds impossible values."""


class ChecksumMismatchError(ShardCorruptError):
    """A shard's sha256 differs from the one the manifest lists."""


class DealBatch(NamedTuple):
    """Deals with their tables; unpacks as ``deals, dd, ids``."""

    deals: np.ndarray   # uint8[n, 52], seat holding each card
    dd: np.ndarray      # uint8[n, 4, 5], tricks for declarer N,E,S,W x strain C,D,H,S,NT
    ids: np.ndarray     # int64[n], deal ids


@dataclass(frozen=True, slots=True)
class ShardInfo:
    """One manifest entry."""

    file: str
    first_id: int
    count: int
    sha256: str
    meta: tuple[str, ...] = ()
    source: str = ""

    @property
    def ids(self) -> np.ndarray:
        return np.arange(self.first_id, self.first_id + self.count, dtype=np.int64)

    def to_json(self) -> dict:
        d = {"file": self.file, "first_id": self.first_id, "count": self.count, "sha256": self.sha256}
        if self.meta:
            d["meta"] = list(self.meta)
        if self.source:
            d["source"] = self.source
        return d


def split_of(ids: np.ndarray | int) -> np.ndarray:
    """Split name(s) of deal id(s) by the fixed rule ``SPLIT_RULE[id % 10]``."""
    return np.asarray(SPLIT_RULE)[np.asarray(ids) % SPLIT_MODULUS]


def split_mask(ids: np.ndarray, split: str) -> np.ndarray:
    """Boolean mask of the ids in ``split`` ('train', 'validation', 'test' or 'all')."""
    if split == "all":
        return np.ones(len(ids), dtype=bool)
    if split not in SPLITS:
        raise StoreError(f"unknown split {split!r} (expected one of {', '.join(SPLITS)} or 'all')")
    buckets = np.flatnonzero(np.asarray(SPLIT_RULE) == split)
    return np.isin(np.asarray(ids) % SPLIT_MODULUS, buckets)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class DealStore:
    """A directory of shards of deals with their DD tables (see the module docstring).

    >>> store = DealStore.open("path/to/store")          # doctest: +SKIP
    >>> deals, dd, ids = store.load("train")              # doctest: +SKIP
    """

    def __init__(self, path: Path, manifest: dict, shards: tuple[ShardInfo, ...]):
        self.path = path
        self._manifest = manifest
        self._shards = shards

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike) -> DealStore:
        """Open an existing store; :class:`NotAStoreError` if ``path`` is not one."""
        p = Path(path)
        mpath = p / MANIFEST
        if not p.is_dir():
            raise NotAStoreError("not a directory, so not a deal store", path=p)
        if not mpath.is_file():
            raise NotAStoreError(f"no {MANIFEST}, so not a deal store", path=p)
        try:
            manifest = json.loads(mpath.read_text())
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ManifestError(f"not valid JSON ({e})", path=mpath) from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise NotAStoreError(f"manifest format is not {FORMAT!r}", path=mpath)
        if manifest.get("version") != VERSION:
            raise ManifestError(f"unsupported store version {manifest.get('version')!r}", path=mpath)
        rule = manifest.get("splits", {})
        if rule.get("modulus") != SPLIT_MODULUS or tuple(rule.get("rule", ())) != SPLIT_RULE:
            raise ManifestError("split rule differs from this bidlab's (id % 10: 0 test, 1 validation)",
                                path=mpath)
        try:
            shards = tuple(
                ShardInfo(file=s["file"], first_id=int(s["first_id"]), count=int(s["count"]),
                          sha256=str(s["sha256"]), meta=tuple(s.get("meta", ())), source=s.get("source", ""))
                for s in manifest["shards"]
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ManifestError(f"malformed shard entry ({e!r})", path=mpath) from None
        for s in shards:
            if not _SHARD_NAME.fullmatch(s.file):
                raise ManifestError(f"bad shard file name {s.file!r}", path=mpath)
        _check_disjoint(shards, mpath)
        return cls(p, manifest, shards)

    @classmethod
    def create(cls, path: str | os.PathLike, *, generator: Mapping | None = None,
               description: str = "") -> DealStore:
        """Make an empty store at ``path`` (the directory may exist but must hold no manifest)."""
        p = Path(path)
        if p.exists() and not p.is_dir():
            raise StoreError("exists and is not a directory", path=p)
        if (p / MANIFEST).exists():
            raise StoreError(f"already holds a {MANIFEST}; open it instead", path=p)
        p.mkdir(parents=True, exist_ok=True)
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "description": description,
            "splits": {"modulus": SPLIT_MODULUS, "rule": list(SPLIT_RULE),
                       "note": "split of deal id i is rule[i % modulus]"},
            "generator": dict(generator or {}),
            "shards": [],
        }
        write_bytes_atomic(p / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())
        return cls(p, manifest, ())

    @classmethod
    def open_or_create(cls, path: str | os.PathLike, **create_kwargs) -> DealStore:
        p = Path(path)
        if (p / MANIFEST).exists():
            return cls.open(p)
        return cls.create(p, **create_kwargs)

    # ------------------------------------------------------------------ facts
    @property
    def shards(self) -> tuple[ShardInfo, ...]:
        return self._shards

    @property
    def generator(self) -> dict:
        """Settings of ``bidlab dd generate`` that made this store (empty if imported)."""
        return dict(self._manifest.get("generator", {}))

    @property
    def description(self) -> str:
        return self._manifest.get("description", "")

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
    def read_shard(self, shard: ShardInfo | int, *, verify: bool = True) -> dict[str, np.ndarray]:
        """Arrays of one shard ('deals', 'dd', 'meta_*'), checked against the manifest."""
        info = self._shards[shard] if isinstance(shard, int) else shard
        path = self.path / info.file
        if not path.is_file():
            raise ShardCorruptError("shard listed in the manifest is missing", path=path)
        data = path.read_bytes()
        if verify:
            digest = hashlib.sha256(data).hexdigest()
            if digest != info.sha256:
                raise ChecksumMismatchError(
                    f"sha256 {digest[:16]}... does not match the manifest's {info.sha256[:16]}...", path=path)
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except Exception as e:  # noqa: BLE001 - damaged bytes fail in zipfile, zlib, or numpy's header parser
            raise ShardCorruptError(f"cannot read shard ({type(e).__name__}: {e})", path=path) from None
        _check_arrays(arrays, info, path)
        return arrays

    def iter_shards(self, *, verify: bool = True) -> Iterator[tuple[ShardInfo, dict[str, np.ndarray]]]:
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
               meta: Mapping[str, np.ndarray] | None = None, source: str = "") -> ShardInfo:
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
        index = max((int(_SHARD_NAME.fullmatch(s.file).group(1)) + 1 for s in self._shards), default=0)
        name = f"shard-{index:06d}.npz"
        info = ShardInfo(name, first, n, "", tuple(sorted(meta or ())), source)
        _check_arrays(arrays, info, self.path / name)
        _check_disjoint(self._shards + (info,), self.path / MANIFEST)

        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        data = buf.getvalue()
        info = ShardInfo(name, first, n, hashlib.sha256(data).hexdigest(), info.meta, source)
        # Re-read the manifest: another writer must not have changed it under us.
        current = DealStore.open(self.path)
        if current._shards != self._shards:
            raise StoreError("store changed on disk since it was opened; reopen and retry", path=self.path)
        write_bytes_atomic(self.path / name, data)
        manifest = dict(self._manifest)
        manifest["shards"] = [s.to_json() for s in self._shards + (info,)]
        write_bytes_atomic(self.path / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())
        self._manifest, self._shards = manifest, self._shards + (info,)
        return info

    def set_generator(self, generator: Mapping) -> None:
        """Record the generator settings (only while the store is empty)."""
        if self._shards:
            raise StoreError("generator settings are fixed once the store has shards", path=self.path)
        manifest = dict(self._manifest)
        manifest["generator"] = dict(generator)
        write_bytes_atomic(self.path / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())
        self._manifest = manifest


def _check_disjoint(shards: tuple[ShardInfo, ...], where: Path) -> None:
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


def _check_arrays(arrays: dict[str, np.ndarray], info: ShardInfo, path: Path) -> None:
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
