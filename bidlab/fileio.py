"""Atomic file writes: write to a temporary name in the same folder, fsync, then rename.

A reader never sees a half-written file, and a job killed mid-write leaves the old
file (or none) in place.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        # mkstemp makes the file private (0600); give it the permissions a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    dfd = os.open(p.parent, os.O_RDONLY)  # make the rename itself durable
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(path: str | os.PathLike, obj: Any) -> None:
    """``obj`` as strict JSON: a NaN or infinite number (a mean over nothing) is written as
    null, since strict parsers reject Python's bare ``NaN``."""
    write_text_atomic(path, json.dumps(strict_json(obj), indent=2, sort_keys=False, allow_nan=False) + "\n")


def strict_json(obj: Any) -> Any:
    """``obj`` with every non-finite float replaced by None (dicts, lists and tuples walked)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: strict_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [strict_json(v) for v in obj]
    return obj
