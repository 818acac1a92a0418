"""Double dummy: DDS tables, single-contract solves, par, and the on-disk deal store.

The public API::

    from bidlab.dd import shipped_store, DealStore, dd_tables, solve_contracts, par
    deals, dd, ids = shipped_store().load("train")   # uint8[n,52], uint8[n,4,5], int64[n]

Tables are ``uint8[..., 4, 5]``: tricks for declarer N, E, S, W (axis -2) in strain
C, D, H, S, NT (axis -1). All conversion to DDS's orders lives in :mod:`bidlab.dd.convert`.
endplay (and with it libdds) is imported only when something is solved.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from bidlab.dd.par import Par, board_par, par
from bidlab.dd.solver import SolverError, dd_table, dd_tables, set_threads, solve_contracts
from bidlab.dd.store import (
    ChecksumMismatchError,
    DealBatch,
    DealStore,
    ManifestError,
    NotAStoreError,
    ShardCorruptError,
    StoreError,
    split_of,
)


def shipped_store_path() -> Path:
    """Directory of the store shipped inside the package (``bidlab/data/dd``)."""
    return Path(str(resources.files("bidlab") / "data" / "dd"))


def shipped_store() -> DealStore:
    """The deal store shipped with bidlab: tens of thousands of random deals with DD tables.

    Its test split (deal id % 10 == 0) is for evaluation only, never for training.
    """
    return DealStore.open(shipped_store_path())


__all__ = [
    "ChecksumMismatchError", "DealBatch", "DealStore", "ManifestError", "NotAStoreError", "Par",
    "ShardCorruptError", "SolverError", "StoreError", "board_par", "dd_table", "dd_tables", "par",
    "set_threads", "shipped_store", "shipped_store_path", "solve_contracts", "split_of",
]
