"""Vectorized duplicate scoring and IMPs: lookup tables built once from the scalar rules.

The tables are filled by calling :func:`bidlab.bridge.contract_score` and
:func:`bidlab.bridge.imps` for every possible input, so the vectorized scores cannot drift
from the scalar implementation.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bidlab.bridge.scoring import contract_score, imps

# The largest possible score difference between two tables (7NTXX vulnerable making
# 13 tricks against the same contract by the other side) is well below this.
_MAX_DIFF = 16_000


@lru_cache(maxsize=1)
def score_table() -> np.ndarray:
    """``int32[7, 5, 3, 2, 14]``: declarer's score by level-1, strain, doubled, vulnerable, tricks."""
    t = np.zeros((7, 5, 3, 2, 14), dtype=np.int32)
    for level in range(1, 8):
        for strain in range(5):
            for doubled in range(3):
                for vul in range(2):
                    for tricks in range(14):
                        t[level - 1, strain, doubled, vul, tricks] = contract_score(
                            level, strain, doubled, bool(vul), tricks)
    t.setflags(write=False)
    return t


@lru_cache(maxsize=1)
def _imp_of_abs_diff() -> np.ndarray:
    t = np.array([imps(d) for d in range(_MAX_DIFF + 1)], dtype=np.int32)
    t.setflags(write=False)
    return t


def imps_array(difference: np.ndarray) -> np.ndarray:
    """WBF IMPs of integer score differences, sign kept (vectorized :func:`bidlab.bridge.imps`)."""
    d = np.asarray(difference, dtype=np.int64)
    return np.sign(d).astype(np.int32) * _imp_of_abs_diff()[np.minimum(np.abs(d), _MAX_DIFF)]
