"""The one train/validation/test split of bidlab: by deal id, ``id % 10``.

A deal (or board of an auction set) with id ``i`` is in split ``RULE[i % 10]``: 0 is
``test``, 1 is ``validation``, 2..9 are ``train`` (80/10/10). The split depends on the id
alone, so a deal never changes split when a store grows, and every consumer agrees:

- the deal store (:mod:`bidlab.dd.store`): ids are store deal ids; matches play the
  ``test`` split by default;
- supervised learning (:mod:`bidlab.learn.sl`): ids are board positions in an auction
  set (board number - 1 for generated sets); it trains on ``train``, picks its best
  epoch on ``validation``, and never sees ``test``.

The rule is the store's rule from the first release, kept so that the store's test deals,
on which every shipped-model evaluation was played, stay the test deals. (Before this
module, SL held out every 20th board of an auction set instead; the shipped ``nn:sl`` was
trained on random deals that are not store deals, so its evaluations on the store's
``test`` split remain on held-out data either way.)
"""

from __future__ import annotations

import numpy as np

from bidlab.errors import BidlabError

SPLITS = ("train", "validation", "test")
#: Split of id ``i`` = ``RULE[i % MODULUS]``.
MODULUS = 10
RULE = ("test", "validation") + ("train",) * 8


class SplitError(BidlabError):
    """An unknown split name."""


def check_split(split: str, *, allow_all: bool = True) -> str:
    """``split`` if it names a split (or ``'all'``); :class:`SplitError` otherwise."""
    if split in SPLITS or (allow_all and split == "all"):
        return split
    names = ", ".join(SPLITS) + (" or 'all'" if allow_all else "")
    raise SplitError(f"unknown split {split!r} (expected one of {names})")


def split_of(ids: np.ndarray | int) -> np.ndarray:
    """Split name(s) of id(s)."""
    ids = np.asarray(ids)
    if ids.size and ids.min() < 0:
        raise SplitError("ids must be >= 0")
    return np.asarray(RULE)[ids % MODULUS]


def split_mask(ids: np.ndarray, split: str) -> np.ndarray:
    """Boolean mask of the ``ids`` in ``split`` ('train', 'validation', 'test' or 'all')."""
    check_split(split)
    ids = np.asarray(ids)
    if split == "all":
        return np.ones(ids.shape, dtype=bool)
    buckets = np.flatnonzero(np.asarray(RULE) == split)
    return np.isin(ids % MODULUS, buckets)


def split_ids(ids: np.ndarray, split: str) -> np.ndarray:
    """The ``ids`` in ``split``, in their order."""
    ids = np.asarray(ids)
    return ids[split_mask(ids, split)]


def rule_record() -> dict:
    """The rule as recorded in manifests, so a file made under another rule is detected."""
    return {"modulus": MODULUS, "rule": list(RULE), "note": "split of id i is rule[i % modulus]"}


def matches_record(record: object) -> bool:
    """Whether a manifest's recorded rule is this one."""
    return (isinstance(record, dict) and record.get("modulus") == MODULUS
            and tuple(record.get("rule", ())) == RULE)
