"""The rules of the auction (Laws 18-22) as lookup tables: the one implementation of legality.

Everything about an auction that legality and its end depend on is one small integer,
the **state code**::

    code = ((last bid * 3 + doubled) * 5 + passes in a row) * 2 + opp

with ``last bid`` the call id of the last bid (0 before any bid), ``doubled`` 0/1/2,
``passes`` 0..4 (capped), and ``opp`` = 1 when the last bidder is an opponent of the player
to act. A call is then one lookup in :data:`NEXT`, its legality one lookup in :data:`LEGAL`.
Who declares also needs the first seat of each side to name each strain; that is kept
beside the code (:data:`FIRST_NAMER_SLOT`).

Calls are indexed ``call id + 1`` in these tables so that "no call" (-1, a table that sits
out a step of a batch) is column 0 and leaves the state unchanged. The scalar
:class:`~bidlab.bridge.auction.Auction` and the array state of :mod:`bidlab.envs.state`
both step through these tables, so the two cannot disagree.
"""

from __future__ import annotations

import numpy as np

from bidlab.bridge.calls import NUM_CALLS

NO_CALL = -1
"""Call id of a table that does not call in a batched step."""
NUM_STATES = NUM_CALLS * 3 * 5 * 2
INITIAL = 0
"""State code of an auction with no calls."""


def state_code(last_bid, doubled, passes, opp):
    """Pack the four parts of an auction state into its code (scalars or arrays)."""
    return ((last_bid * 3 + doubled) * 5 + passes) * 2 + opp


_codes = np.arange(NUM_STATES)
OPP = _codes % 2
"""``OPP[code]``: 1 when the last bidder is an opponent of the player to act."""
PASSES = _codes // 2 % 5
"""``PASSES[code]``: passes in a row since the last non-pass (capped at 4)."""
DOUBLED = _codes // 10 % 3
"""``DOUBLED[code]``: 0, 1 doubled, 2 redoubled."""
LAST_BID = _codes // 30
"""``LAST_BID[code]``: call id of the last bid, 0 when nobody has bid."""
OVER = np.where(LAST_BID == 0, PASSES >= 4, PASSES >= 3)
"""``OVER[code]``: four passes at the start, or three passes in a row after a bid (Law 22)."""
LEVEL = np.where(LAST_BID >= 3, (LAST_BID - 3) // 5 + 1, 0).astype(np.int8)
"""``LEVEL[code]``: level of the last bid (0 before any bid, so a passed-out end has level 0)."""
STRAIN = np.where(LAST_BID >= 3, (LAST_BID - 3) % 5, 0).astype(np.int8)
"""``STRAIN[code]``: strain of the last bid, clubs..notrump = 0..4."""


def _next_table() -> np.ndarray:
    nxt = np.empty((NUM_STATES, NUM_CALLS + 1), np.intp)
    lb, dbl, pas, opp = LAST_BID, DOUBLED, PASSES, OPP
    nxt[:, 0] = _codes  # no call: unchanged
    nxt[:, 1] = state_code(lb, dbl, np.minimum(pas + 1, 4), 1 - opp)  # pass
    nxt[:, 2] = state_code(lb, 1, 0, 1 - opp)  # double
    nxt[:, 3] = state_code(lb, 2, 0, 1 - opp)  # redouble
    for c in range(3, NUM_CALLS):
        nxt[:, c + 1] = state_code(c, 0, 0, 1)  # a bid: the next player is the bidder's LHO
    return nxt


def _legal_table() -> np.ndarray:
    live = ~OVER
    legal = np.zeros((NUM_STATES, NUM_CALLS + 1), bool)
    legal[:, 0] = True  # "no call" is always accepted (a sitting-out table)
    legal[:, 1] = live  # pass
    # Law 19: double only the opponents' last bid, not already doubled
    legal[:, 2] = live & (LAST_BID >= 3) & (DOUBLED == 0) & (OPP == 1)
    # Law 19: redouble only our side's doubled bid
    legal[:, 3] = live & (DOUBLED == 1) & (OPP == 0)
    # Law 18: a bid must outrank the last bid
    legal[:, 4:] = live[:, None] & (np.arange(3, NUM_CALLS)[None, :] > LAST_BID[:, None])
    return legal


NEXT = _next_table()
"""``NEXT[code, call + 1]``: the state code after the call."""
LEGAL = _legal_table()
"""``LEGAL[code, call + 1]``: whether the call is legal (column 0, no call, always true)."""
ENDS = OVER[NEXT] & ~OVER[:, None]
"""``ENDS[code, call + 1]``: the call ends a live auction."""
LEGAL_COUNT = LEGAL[:, 1:].sum(axis=1)
"""Number of legal calls in each state (0 once over)."""
LEGAL_LIST = np.full((NUM_STATES, NUM_CALLS), NO_CALL, np.int64)
"""``LEGAL_LIST[code, :LEGAL_COUNT[code]]``: the legal call ids in id order."""
for _code in range(NUM_STATES):
    _ids = np.flatnonzero(LEGAL[_code, 1:])
    LEGAL_LIST[_code, :len(_ids)] = _ids
for _t in (OPP, PASSES, DOUBLED, LAST_BID, OVER, LEVEL, STRAIN, NEXT, LEGAL, ENDS, LEGAL_COUNT, LEGAL_LIST):
    _t.setflags(write=False)
del _code, _ids, _t

FIRST_NAMER_SLOTS = 10
"""First namers are kept per (side, strain): slot = side * 5 + strain."""


def first_namer_slot(call: int, seat: int) -> int:
    """The (side, strain) slot a bid by ``seat`` writes its first namer to; -1 for non-bids."""
    if call < 3:
        return -1
    return (seat & 1) * 5 + (call - 3) % 5


def replay_codes(history: np.ndarray) -> np.ndarray:
    """State codes of many auctions: ``history`` ``int[n, L]`` call ids padded with -1.

    Vectorized over auctions, one table lookup per column; the histories must be legal
    (checked: an illegal call raises :class:`ValueError` naming the row and position).
    """
    h = np.asarray(history, dtype=np.intp)
    code = np.full(h.shape[0], INITIAL, np.intp)
    for i in range(h.shape[1]):
        col = h[:, i] + 1
        if not LEGAL[code, col].all():
            row = int(np.flatnonzero(~LEGAL[code, col])[0])
            raise ValueError(f"history[{row}]: call id {int(h[row, i])} at position {i} is not legal")
        code = NEXT[code, col]
    return code


def legal_masks(history: np.ndarray) -> np.ndarray:
    """``bool[n, 38]`` legal calls of the player to act after each history (all false once over)."""
    return LEGAL[replay_codes(history), 1:].copy()
