"""One shard store for every resumable output: a folder of shard files and a manifest.

Layout::

    manifest.json         format, kind, the job's settings, meta, one entry per shard
    shard-000000.npz      numpy arrays (np.savez_compressed, loaded without pickle) ...
    shard-000001.jsonl    ... or JSON-lines records, one per line

Guarantees:

* **Atomic.** A shard is written to a temporary name, fsynced and renamed
  (:mod:`bidlab.fileio`), then listed in the manifest, which is replaced the same way. A
  kill at any moment leaves the store as it was before the write or after it (at worst
  with an unlisted temporary file, removed by the next writer).
* **Checksummed.** Every entry lists its file's sha256; reading checks it, so a corrupt
  or truncated shard never loads silently (:class:`ChecksumMismatchError`).
* **Resumable.** A store made for a job records the job's settings (``job``): reopening
  it for a job with other settings is refused with a message that names the first
  difference (:class:`JobMismatchError`); the same settings reopen it, and the job
  writes only the shards it lacks. The job's size (deals, boards, games) is not part of
  its settings, so asking for more grows the job. Shard ``k`` is written once: a
  finished shard is never rewritten (:class:`ShardExistsError`).
* **Shared.** Writes hold a lock on the folder for the moment they take, so several
  processes may fill one store (each shard by one of them); :meth:`ShardStore.exclusive`
  takes a second lock for a whole run when one writer must be alone.

Shard index ``k`` is the caller's unit of work (shard ``k`` of a generator, chunk ``k``
of a match, seed ``k`` of a table); entries may carry extra fields (``first_id``,
``source``...) that the caller reads back from :attr:`ShardInfo.fields`.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bidlab.errors import BidlabError
from bidlab.fileio import write_bytes_atomic

FORMAT = "bidlab-shards"
VERSION = 1
MANIFEST = "manifest.json"
_WRITE_LOCK = ".write.lock"
_RUN_LOCK = ".run.lock"
_SHARD_FILE = re.compile(r"shard-(\d{6,})\.(npz|jsonl)")
_RESERVED = ("index", "file", "count", "sha256")


class ShardError(BidlabError):
    """A shard store is missing, malformed, busy, or holds another job; names the path."""

    def __init__(self, message: str, *, path: str | os.PathLike | None = None):
        self.path = None if path is None else Path(path)
        super().__init__(f"{path}: {message}" if path is not None else message)


class NotAShardStoreError(ShardError):
    """The folder holds no manifest of the expected kind."""


class ManifestError(ShardError):
    """The manifest is not valid JSON or lacks required fields."""


class ShardCorruptError(ShardError):
    """A shard file is missing, truncated or unreadable."""


class ChecksumMismatchError(ShardCorruptError):
    """A shard's sha256 differs from the one the manifest lists."""


class JobMismatchError(ShardError):
    """The folder holds a job with other settings."""


class ShardExistsError(ShardError):
    """Shard ``k`` is already written (finished shards are never rewritten)."""


class StoreBusyError(ShardError):
    """Another process holds the store's run lock."""


@dataclass(frozen=True)
class ShardInfo:
    """One manifest entry: shard ``index`` in ``file`` with ``count`` rows and its sha256."""

    index: int
    file: str
    count: int
    sha256: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def format(self) -> str:
        return "npz" if self.file.endswith(".npz") else "jsonl"

    def to_json(self) -> dict:
        return {"index": self.index, "file": self.file, "count": self.count, "sha256": self.sha256,
                **dict(self.fields)}

    @classmethod
    def from_json(cls, d: Mapping) -> ShardInfo:
        return cls(int(d["index"]), str(d["file"]), int(d["count"]), str(d["sha256"]),
                   {k: v for k, v in d.items() if k not in _RESERVED})


def shard_file(index: int, fmt: str) -> str:
    return f"shard-{index:06d}.{fmt}"


def first_difference(old: object, new: object, where: str = "") -> str | None:
    """The first setting in which two JSON-like values differ, as ``name: old here, new asked``."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for k in list(old) + [k for k in new if k not in old]:
            d = first_difference(old.get(k), new.get(k), f"{where}.{k}" if where else str(k))
            if d:
                return d
        return None
    if old != new:
        return f"{where or 'settings'}: {json.dumps(old)} here, {json.dumps(new)} asked"
    return None


def _normalize(obj: object) -> object:
    """What ``obj`` looks like after a JSON round trip (tuples become lists)."""
    return json.loads(json.dumps(obj))


class ShardStore:
    """A folder of shards (see the module docstring).

    >>> store = ShardStore.open_job("out/run", kind="example", job={"seed": 1})  # doctest: +SKIP
    >>> for k in store.missing(range(10)):                                       # doctest: +SKIP
    ...     store.write_records(k, [{"k": k}])
    """

    def __init__(self, path: Path, manifest: dict, upgrade: Callable[[dict], dict | None] | None = None):
        self.path = path
        self._manifest = manifest
        self._upgrade = upgrade
        self._shards = self._parse_shards(manifest)

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike, kind: str | None = None, *,
             upgrade: Callable[[dict], dict | None] | None = None) -> ShardStore:
        """Open an existing store (of ``kind``, if given).

        ``upgrade`` converts a manifest of an older format into this one (or returns
        None if it cannot); the converted manifest is written with the next shard.
        """
        p = Path(path)
        return cls(p, cls._read_manifest(p, kind, upgrade), upgrade)

    @classmethod
    def create(cls, path: str | os.PathLike, kind: str, *, job: Mapping | None = None,
               meta: Mapping | None = None) -> ShardStore:
        """A new empty store at ``path`` (the folder may exist, but must hold no manifest)."""
        p = Path(path)
        if p.exists() and not p.is_dir():
            raise ShardError("exists and is not a folder", path=p)
        if (p / MANIFEST).exists():
            raise ShardError(f"already holds a {MANIFEST}; open it instead", path=p)
        manifest = {"format": FORMAT, "version": VERSION, "kind": kind,
                    "job": None if job is None else _normalize(dict(job)),
                    "meta": _normalize(dict(meta or {})), "shards": []}
        try:
            p.mkdir(parents=True, exist_ok=True)
            write_bytes_atomic(p / MANIFEST, _manifest_bytes(manifest))
        except OSError as e:
            raise ShardError(f"cannot create a store here ({e.strerror})", path=p) from None
        return cls(p, manifest)

    @classmethod
    def open_job(cls, path: str | os.PathLike, kind: str, job: Mapping, *, meta: Mapping | None = None,
                 allow_foreign_files: bool = False) -> ShardStore:
        """Reopen the store of this job, or create it; refuse a folder of another job.

        A new store is made only in a missing or empty folder (unless
        ``allow_foreign_files``), so a typo in ``--out`` cannot scatter shards among
        someone's files.
        """
        p = Path(path)
        if (p / MANIFEST).exists():
            store = cls.open(p, kind)
            store.check_job(job)
            return store
        if p.is_dir() and not allow_foreign_files and any(p.iterdir()):
            raise ShardError(f"is not empty and holds no {MANIFEST}; use another folder", path=p)
        return cls.create(p, kind, job=job, meta=meta)

    @staticmethod
    def _read_manifest(p: Path, kind: str | None, upgrade) -> dict:
        mpath = p / MANIFEST
        if not p.is_dir():
            raise NotAShardStoreError("not a folder", path=p)
        if not mpath.is_file():
            raise NotAShardStoreError(f"no {MANIFEST} here", path=p)
        try:
            manifest = json.loads(mpath.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ManifestError(f"not valid JSON ({e})", path=mpath) from None
        if not isinstance(manifest, dict):
            raise ManifestError("not a JSON object", path=mpath)
        if manifest.get("format") != FORMAT and upgrade is not None:
            manifest = upgrade(manifest) or manifest
        if manifest.get("format") != FORMAT:
            raise NotAShardStoreError(f"manifest format is not {FORMAT!r}", path=mpath)
        if manifest.get("version") != VERSION:
            raise ManifestError(f"unsupported manifest version {manifest.get('version')!r}", path=mpath)
        if kind is not None and manifest.get("kind") != kind:
            raise NotAShardStoreError(f"holds a {manifest.get('kind')!r} store, not {kind!r}", path=mpath)
        if not isinstance(manifest.get("shards"), list):
            raise ManifestError("manifest has no list of shards", path=mpath)
        return manifest

    def _parse_shards(self, manifest: dict) -> dict[int, ShardInfo]:
        mpath = self.path / MANIFEST
        try:
            shards = [ShardInfo.from_json(s) for s in manifest["shards"]]
        except (KeyError, TypeError, ValueError) as e:
            raise ManifestError(f"malformed shard entry ({e!r})", path=mpath) from None
        out: dict[int, ShardInfo] = {}
        for s in shards:
            m = _SHARD_FILE.fullmatch(s.file)
            if not m or int(m.group(1)) != s.index:
                raise ManifestError(f"bad shard file name {s.file!r} for shard {s.index}", path=mpath)
            if s.index in out:
                raise ManifestError(f"shard {s.index} is listed twice", path=mpath)
            if s.count < 0:
                raise ManifestError(f"shard {s.index} has a negative count", path=mpath)
            out[s.index] = s
        return dict(sorted(out.items()))

    # ------------------------------------------------------------------ facts
    @property
    def kind(self) -> str:
        return self._manifest.get("kind", "")

    @property
    def job(self) -> dict | None:
        job = self._manifest.get("job")
        return None if job is None else dict(job)

    @property
    def meta(self) -> dict:
        return dict(self._manifest.get("meta") or {})

    @property
    def shards(self) -> tuple[ShardInfo, ...]:
        """Entries in index order."""
        return tuple(self._shards.values())

    def has(self, index: int) -> bool:
        return index in self._shards

    def get(self, index: int) -> ShardInfo:
        try:
            return self._shards[index]
        except KeyError:
            raise ShardError(f"has no shard {index}", path=self.path) from None

    def missing(self, indices: Iterable[int]) -> list[int]:
        """The indices in ``indices`` not written yet: the work a resumed job has left."""
        return [k for k in indices if k not in self._shards]

    def __len__(self) -> int:
        """Rows in all shards."""
        return sum(s.count for s in self._shards.values())

    def __repr__(self) -> str:
        return f"ShardStore({str(self.path)!r}, {self.kind!r}, {len(self._shards)} shards)"

    def check_job(self, job: Mapping) -> None:
        """:class:`JobMismatchError` unless this store was made for ``job``."""
        diff = first_difference(self.job, _normalize(dict(job)))
        if diff:
            article = "an" if self.kind[:1].lower() in "aeiou" else "a"
            raise JobMismatchError(f"holds {article} {self.kind} job with other settings ({diff}); "
                                   "use another folder, or the same settings to resume", path=self.path)

    def refresh(self) -> ShardStore:
        """Re-read the manifest (to see shards other processes wrote)."""
        self._manifest = self._read_manifest(self.path, self.kind, self._upgrade)
        self._shards = self._parse_shards(self._manifest)
        return self

    # ------------------------------------------------------------------ reading
    def read_bytes(self, shard: ShardInfo | int, *, verify: bool = True) -> bytes:
        info = self.get(shard) if isinstance(shard, int) else shard
        path = self.path / info.file
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise ShardCorruptError("shard listed in the manifest is missing", path=path) from None
        except OSError as e:
            raise ShardCorruptError(f"cannot read shard ({e.strerror})", path=path) from None
        if verify:
            digest = hashlib.sha256(data).hexdigest()
            if digest != info.sha256:
                raise ChecksumMismatchError(
                    f"sha256 {digest[:16]}... does not match the manifest's {info.sha256[:16]}...; "
                    "the shard is corrupt", path=path)
        return data

    def read_arrays(self, shard: ShardInfo | int, *, verify: bool = True) -> dict[str, np.ndarray]:
        """The arrays of an npz shard, checksum verified."""
        info = self.get(shard) if isinstance(shard, int) else shard
        if info.format != "npz":
            raise ShardError(f"shard {info.index} holds records, not arrays", path=self.path / info.file)
        data = self.read_bytes(info, verify=verify)
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                return {k: z[k] for k in z.files}
        except Exception as e:  # noqa: BLE001 - damaged bytes fail in zipfile, zlib or numpy's header parser
            raise ShardCorruptError(f"cannot read shard ({type(e).__name__}: {e})",
                                    path=self.path / info.file) from None

    def read_records(self, shard: ShardInfo | int, *, verify: bool = True) -> list[dict]:
        """The records of a JSON-lines shard, checksum verified."""
        info = self.get(shard) if isinstance(shard, int) else shard
        if info.format != "jsonl":
            raise ShardError(f"shard {info.index} holds arrays, not records", path=self.path / info.file)
        data = self.read_bytes(info, verify=verify)
        try:
            records = [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ShardCorruptError(f"cannot read shard ({e})", path=self.path / info.file) from None
        if len(records) != info.count:
            raise ShardCorruptError(f"holds {len(records)} records, the manifest lists {info.count}",
                                    path=self.path / info.file)
        return records

    def iter_records(self, *, verify: bool = True) -> Iterator[dict]:
        """Every record of every JSON-lines shard, in shard order."""
        for info in self.shards:
            if info.format == "jsonl":
                yield from self.read_records(info, verify=verify)

    def verify(self) -> int:
        """Read and check every shard; returns the number of rows."""
        for info in self.shards:
            if info.format == "npz":
                self.read_arrays(info)
            else:
                self.read_records(info)
        return len(self)

    # ------------------------------------------------------------------ writing
    def write_arrays(self, index: int, arrays: Mapping[str, np.ndarray], *, count: int | None = None,
                     **fields: Any) -> ShardInfo:
        """Write shard ``index`` holding numpy ``arrays``; ``count`` defaults to their length."""
        if not arrays:
            raise ShardError("refusing to write a shard with no arrays", path=self.path)
        arrays = {k: np.ascontiguousarray(v) for k, v in arrays.items()}
        for k, v in arrays.items():
            if v.dtype == object:
                raise ShardError(f"array {k!r} holds Python objects, which npz shards do not store",
                                 path=self.path)
        if count is None:
            count = len(next(iter(arrays.values())))
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        return self._write(index, "npz", buf.getvalue(), count, fields)

    def write_records(self, index: int, records: Iterable[Mapping], **fields: Any) -> ShardInfo:
        """Write shard ``index`` holding JSON records, one per line."""
        records = list(records)
        text = "".join(json.dumps(r, allow_nan=True) + "\n" for r in records)
        return self._write(index, "jsonl", text.encode("utf-8"), len(records), fields)

    def set_job(self, job: Mapping) -> None:
        """Record the job's settings (only while the store has no shards)."""
        with self._write_lock():
            self.refresh()
            if self._shards:
                raise ShardError("its job settings are fixed once it has shards", path=self.path)
            self._manifest = dict(self._manifest, job=_normalize(dict(job)))
            write_bytes_atomic(self.path / MANIFEST, _manifest_bytes(self._manifest))

    def _write(self, index: int, fmt: str, data: bytes, count: int, fields: Mapping) -> ShardInfo:
        if index < 0:
            raise ShardError(f"shard index must be >= 0, got {index}", path=self.path)
        bad = [k for k in fields if k in _RESERVED]
        if bad:
            raise ShardError(f"entry fields {bad} are reserved", path=self.path)
        info = ShardInfo(index, shard_file(index, fmt), count, hashlib.sha256(data).hexdigest(),
                         _normalize(dict(fields)))
        with self._write_lock():
            # Other writers may have added shards since we read the manifest.
            on_disk = self._read_manifest(self.path, self.kind, self._upgrade)
            if on_disk.get("job") != self._manifest.get("job"):
                raise JobMismatchError("its job settings changed on disk since it was opened", path=self.path)
            shards = self._parse_shards(on_disk)
            if index in shards:
                raise ShardExistsError(f"shard {index} is already written; finished shards are never rewritten",
                                       path=self.path)
            write_bytes_atomic(self.path / info.file, data)
            shards[index] = info
            # Keep what this process knows (an upgraded format, meta) and the shards on disk.
            manifest = dict(self._manifest, shards=[s.to_json() for _, s in sorted(shards.items())])
            write_bytes_atomic(self.path / MANIFEST, _manifest_bytes(manifest))
            self._manifest, self._shards = manifest, dict(sorted(shards.items()))
        return info

    @contextmanager
    def _write_lock(self) -> Iterator[None]:
        """Short lock around one write; leftovers of killed writes are removed under it."""
        lock = self.path / _WRITE_LOCK
        fd = _acquire(lock, fcntl.LOCK_EX)
        try:
            # Every write happens under this lock, so a temporary file seen now is a leftover.
            for stale in self.path.glob(".*.tmp"):
                stale.unlink(missing_ok=True)
            yield
        finally:
            _release(lock, fd)

    @contextmanager
    def exclusive(self) -> Iterator[ShardStore]:
        """Hold the run lock for a whole job: a second job on this store gets :class:`StoreBusyError`."""
        lock = self.path / _RUN_LOCK
        try:
            fd = _acquire(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreBusyError("another process is writing this store (lock held)", path=self.path) from None
        try:
            yield self
        finally:
            _release(lock, fd)


def _acquire(path: Path, flags: int) -> int:
    """Lock file ``path`` with ``flock(flags)``; returns the open descriptor.

    The holder removes the file when it lets go (a clean run leaves no lock file behind), so a
    process that waited on the old file may hold a lock on a file no longer at ``path``: it
    checks that the file it locked is the one at ``path`` now, and otherwise tries again."""
    while True:
        fd = _open_lock(path)
        try:
            fcntl.flock(fd, flags)
        except BaseException:
            os.close(fd)
            raise
        try:
            current = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            current = False
        if current:
            return fd
        os.close(fd)


def _release(path: Path, fd: int) -> None:
    """Remove the lock file while still holding it, then let go (see :func:`_acquire`)."""
    try:
        path.unlink(missing_ok=True)
    finally:
        os.close(fd)


def _open_lock(path: Path) -> int:
    try:
        return os.open(path, os.O_CREAT | os.O_RDWR, 0o644)
    except OSError as e:
        raise ShardError(f"cannot lock the store ({e.strerror})", path=path.parent) from None


def _manifest_bytes(manifest: Mapping) -> bytes:
    return (json.dumps(manifest, indent=1) + "\n").encode("utf-8")


__all__ = [
    "ChecksumMismatchError", "JobMismatchError", "ManifestError", "NotAShardStoreError", "ShardCorruptError",
    "ShardError", "ShardExistsError", "ShardInfo", "ShardStore", "StoreBusyError", "first_difference",
]
