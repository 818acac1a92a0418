"""Self-play transitions as replay columns: what one stored decision holds, the features the
learner rebuilds from it, and the duplicate reward (Qiu et al. Sec. IV: +-IMPs/24, gamma = 1)."""

from __future__ import annotations

import numpy as np

from bidlab.bridge import rules
from bidlab.bridge.features import OPENSPIEL480, VALUE636, unpack_observations, write_hidden_hands

PACKED480 = OPENSPIEL480 // 8
REPLAY_COLUMNS = {
    "obs": ((PACKED480,), np.uint8),   # the 480 of the player to act, bit-packed (the state's own packing)
    "deal": ((52,), np.uint8),         # holder of each card: the 636's hidden hands are rebuilt from it
    "seat": ((), np.int8),             # player to act
    "code": ((), np.int32),            # auction state code: the legal calls are rules.LEGAL[code]
    "call": ((), np.int16),
    "logp": ((), np.float32),          # log-prob of the call under the sampling policy
    "reward": ((), np.float32),        # +-IMPs/24 of the player's team
}


ANCHOR_COLUMNS = {
    "anchor": ((38,), np.float16),     # the anchor policy's legal-masked call probabilities (issue #29)
}


def replay_columns(anchor: bool) -> dict:
    """The replay's columns: :data:`REPLAY_COLUMNS`, and the anchor's probabilities with an anchor."""
    return {**REPLAY_COLUMNS, **ANCHOR_COLUMNS} if anchor else dict(REPLAY_COLUMNS)


def features(cols: dict[str, np.ndarray], hidden_info: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(480 float32[k, 480], value input float32[k, 636 or 480], legal bool[k, 38]) of stored transitions."""
    k = len(cols["call"])
    x = unpack_observations(np.ascontiguousarray(cols["obs"]), np.empty((k, OPENSPIEL480), np.float32))
    legal = rules.LEGAL[cols["code"].astype(np.intp), 1:]
    if not hidden_info:
        return x, x, legal
    h = np.empty((k, VALUE636), np.float32)
    h[:, :OPENSPIEL480] = x
    write_hidden_hands(h[:, OPENSPIEL480:], cols["deal"], cols["seat"].astype(np.int64))
    return x, h, legal


def duplicate_rewards(imps: np.ndarray, rows: np.ndarray, seats: np.ndarray, n: int) -> np.ndarray:
    """``+-imps/24`` for the transitions at table rows ``rows`` (``0..n-1`` table 0, ``n..2n-1``
    table 1) by players ``seats``; ``imps[b]`` is ``IMP(NS at table 0 - NS at table 1)`` of board b."""
    table = (rows >= n).astype(np.int64)
    team = (seats.astype(np.int64) + table) % 2
    sign = np.where(team == 0, 1.0, -1.0)
    return (sign * imps[rows % n] / 24.0).astype(np.float32)




def insert_priorities(batch: dict[str, np.ndarray], alpha: float) -> np.ndarray:
    """Insert priorities ``|r - v(h)|^alpha`` with the actor's v."""
    return np.abs(batch["reward"] - batch["v"]).astype(np.float64) ** alpha
