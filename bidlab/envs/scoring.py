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


def _vulnerable_side() -> np.ndarray:
    """``bool[4 vulnerability, 2 side]``, Vulnerability ids 0 none, 1 NS, 2 EW, 3 both."""
    return np.array([[False, False], [True, False], [False, True], [True, True]])


@lru_cache(maxsize=1)
def ns_score_table() -> np.ndarray:
    """``int32[35 bids, 3 doubled, 4 vulnerability, 2 declarer side, 14 tricks]``: North-South's
    score of a contract, from :func:`score_table` (so from the scalar rules)."""
    t = score_table()  # [level - 1, strain, doubled, declarer vulnerable, tricks]
    vul = _vulnerable_side()
    out = np.zeros((35, 3, 4, 2, 14), np.int32)
    for v in range(4):
        for side in range(2):
            sign = -1 if side else 1
            out[:, :, v, side] = sign * t[:, :, :, int(vul[v, side])].reshape(35, 3, 14)
    out.setflags(write=False)
    return out


def ns_scores(level, strain, doubled, declarer, tricks, vulnerability) -> np.ndarray:
    """North-South's duplicate scores of many contracts (``level`` 0: passed out, score 0).

    All arguments are integer arrays of one shape: ``declarer`` a seat (ignored when passed
    out), ``tricks`` declarer's tricks, ``vulnerability`` a Vulnerability id.
    """
    level = np.asarray(level, np.int64)
    played = level > 0
    bid = np.maximum((level - 1) * 5 + np.asarray(strain, np.int64), 0)
    side = np.asarray(declarer, np.int64) & 1
    tr = np.where(played, np.asarray(tricks, np.int64), 0)
    s = ns_score_table()[bid, np.asarray(doubled, np.int64), np.asarray(vulnerability, np.int64), side, tr]
    return np.where(played, s, 0).astype(np.int32)


def dd_tricks(dd: np.ndarray, declarer, strain) -> np.ndarray:
    """Declarer's double-dummy tricks from stored tables ``dd`` ``uint8[n, 4, 5]`` (deal store
    layout: declarer N, E, S, W by strain C, D, H, S, NT); -1 where ``declarer`` is -1."""
    dec = np.asarray(declarer, np.int64)
    t = dd[np.arange(len(dec)), np.maximum(dec, 0), np.asarray(strain, np.int64)].astype(np.int8)
    return np.where(dec >= 0, t, -1).astype(np.int8)
