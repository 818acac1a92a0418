"""Checks of option values and output paths that every command runs before it creates anything.

A command that fails half-way leaves an empty run folder behind, or (``bluechip serve``)
plays a board and then cannot save it; so ranges and output paths are checked first, and
each error names the option the user typed."""

from __future__ import annotations

import tempfile
from pathlib import Path

from bidlab.errors import BidlabError


class OptionError(BidlabError):
    """An option's value is out of range, or names a path that cannot be written."""


def check_positive(value: float | None, option: str) -> None:
    """``value`` (when given) is above 0: learning rates, budgets."""
    if value is not None and not value > 0:  # also refuses nan
        raise OptionError(f"{option} must be > 0, got {value:g}")


def _nearest_existing(path: Path) -> Path:
    p = path.absolute()
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def _check_writable_folder(folder: Path, option: str, path: Path) -> None:
    if not folder.is_dir():
        raise OptionError(f"{option} {path}: {folder} is a file, not a folder")
    try:  # an anonymous temporary file: nothing is left behind, and root's read-only mounts are caught too
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise OptionError(f"{option} {path}: cannot write in {folder} ({e.strerror or e})") from None


def check_output_folder(path: Path, option: str = "--out") -> None:
    """``path`` is a folder that exists or can be made, and files can be written in it.

    Nothing is created: the folder is made later by the command itself."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OptionError(f"{option} {path}: is a file, not a folder; give a folder")
    _check_writable_folder(_nearest_existing(path), option, path)


def check_output_file(path: Path, option: str = "--out") -> None:
    """``path`` names a file (not a folder) whose folder exists or can be made and is writable."""
    path = Path(path)
    if path.is_dir():
        raise OptionError(f"{option} {path}: is a folder; give a file name")
    _check_writable_folder(_nearest_existing(path.parent), option, path)
