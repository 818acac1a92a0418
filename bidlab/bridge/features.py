"""Observation encoders for the auction, batched and written into preallocated arrays.

This module is the one definition of each encoding. The 480 block is defined here as
lookup tables over the state codes of :mod:`bidlab.bridge.rules` (which bit a call sets in
each observer's view, bit-packed), which the array auction state of :mod:`bidlab.envs.state`
applies call by call; ``bidlab.envs.state.encode_openspiel480`` encodes from call histories
by replaying them through the same tables. The 267 block is encoded from histories here.

:data:`OPENSPIEL480` is the auction block of OpenSpiel's ``bridge`` observation tensor
(``observation_tensor()[4:484]``), the input of Qiu et al.'s policy and belief nets
(Appendix B, Table VI):

======= ===================================================================================
0:4     vulnerability: our side [not vul, vul], then the opponents' [not vul, vul]
4:8     passes made before the first bid, by relative seat (0 self, 1 LHO, 2 partner, 3 RHO)
8:428   35 blocks of 12, one per bid 1C..7NT: who bid it, who doubled it, who redoubled it,
        4 relative seats each
428:480 own 13 cards, in OpenSpiel's card order rank*4 + suit
======= ===================================================================================

Relative seat = (seat of the caller - observer) mod 4 with the real dealer. OpenSpiel always
lets North deal, so its tensor agrees with this one only for North dealing (OpenSpiel issue
#1619 is about its relative seats when another seat deals); here the caller's seat is
``(dealer + call number) mod 4`` for every dealer.

:data:`VALUE636` appends the 156 hidden cards of LHO, partner and RHO (52 each, same card
order), the value net's input with hidden information (Qiu et al., Table VI; the authors' code
orders the hidden hands clockwise from the player to act).

:data:`JPS267` is the 267-bit input of Tian et al. (appendix D, Fig. 5): 52 own cards, 35 bids
made by self, partner, left opponent, right opponent, 35 "this bid was doubled or redoubled"
bits, NS and EW vulnerability (absolute, as the paper says), and the 38 legal calls. The
paper leaves the card order and legal-call order open; we use bidlab's orders (card
suit*13 + rank, clubs first, 2 low; call ids Pass, X, XX, 1C..7NT). Left opponent is the
seat after us (LHO), as the paper's Fig. 5 example implies.

OpenSpiel's card order (rank*4 + suit) is converted in exactly one place: :data:`OPENSPIEL_CARD`.
"""

from __future__ import annotations

import numpy as np

from bidlab.bridge import rules
from bidlab.bridge.calls import NUM_BIDS, NUM_CALLS
from bidlab.errors import BidlabError

OPENSPIEL480 = 480
VALUE636 = 636
JPS267 = 267

# Offsets inside the 480 block.
VUL_OFFSET = 0
OPENING_PASS_OFFSET = 4
BIDS_OFFSET = 8
BID_BLOCK = 12  # made by 4 rel seats, doubled by 4, redoubled by 4
HAND_OFFSET = 428

# Offsets inside the 267 block.
JPS_HAND = 0
JPS_BIDS = 52  # own, partner, LHO, RHO segments of 35
JPS_DOUBLED = 192
JPS_VUL = 227
JPS_LEGAL = 229

_card = np.arange(52)
OPENSPIEL_CARD: np.ndarray = ((_card % 13) * 4 + _card // 13).astype(np.intp)
"""``OPENSPIEL_CARD[c]``: OpenSpiel's index (rank*4 + suit) of bidlab card ``c`` (suit*13 + rank)."""
BIDLAB_CARD: np.ndarray = np.argsort(OPENSPIEL_CARD).astype(np.intp)
"""Inverse of :data:`OPENSPIEL_CARD`: bidlab card index of OpenSpiel card ``k``."""

# VULNERABLE[v, side]: whether partnership side (0 NS, 1 EW) is vulnerable under Vulnerability v.
VULNERABLE = np.array([[False, False], [True, False], [False, True], [True, True]])


class FeatureError(BidlabError, ValueError):
    """Arrays given to an encoder have the wrong shape, dtype or values."""


# ------------------------------------------------------------------------------------------
# input checking


def _as_int_array(name: str, a, shape: tuple[int, ...] | None, lo: int, hi: int) -> np.ndarray:
    arr = np.asarray(a)
    if not np.issubdtype(arr.dtype, np.integer):
        raise FeatureError(f"{name} must be an integer array, got dtype {arr.dtype}")
    if shape is not None and arr.shape != shape:
        raise FeatureError(f"{name} must have shape {shape}, got {arr.shape}")
    if arr.size:
        bad = np.flatnonzero((arr < lo) | (arr > hi))
        if bad.size:
            pos = np.unravel_index(bad[0], arr.shape)
            raise FeatureError(f"{name}{list(map(int, pos))} = {int(arr[pos])} is outside {lo}..{hi}")
    return arr


# ------------------------------------------------------------------------------------------
# the 480 block, bit-packed, as tables over (call, state code)
#
# Every seat's 480 observation is kept bit-packed in 60 bytes. The hand (bits 428..479)
# fills bytes 54..59 and the low half of byte 53, whose high half belongs to the last bid's
# redoubled bits; a fresh table gets its hand bytes 53..59 (high half zero) and later calls
# only OR bits in, at most one bit per observer per call.

PACKED_BYTES = 60
PACKED_HAND_BYTE = 53
_NO_WRITE = 1 << 40
BYTE_TO_FLOATS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.float32)
"""``BYTE_TO_FLOATS[b]``: the 8 bits of byte ``b`` as floats, to unpack observations in one take."""


def _obs480_columns() -> np.ndarray:
    """``int[((call + 1) * 38 + last bid) * 4 + caller, observer]``: the 480 column a call sets
    in each observer's view (:data:`_NO_WRITE` when it sets none)."""
    base = np.full((NUM_CALLS + 1, NUM_CALLS), -1, np.int64)
    lbs = np.arange(NUM_CALLS)
    base[1] = np.where(lbs == 0, OPENING_PASS_OFFSET, -1)  # a pass before any bid
    base[2] = np.where(lbs >= 3, BIDS_OFFSET + (lbs - 3) * BID_BLOCK + 4, -1)  # X of the last bid
    base[3] = np.where(lbs >= 3, BIDS_OFFSET + (lbs - 3) * BID_BLOCK + 8, -1)  # XX of the last bid
    for c in range(3, NUM_CALLS):
        base[c + 1] = BIDS_OFFSET + (c - 3) * BID_BLOCK
    rel = (np.arange(4)[:, None] - np.arange(4)[None, :]) % 4  # [caller, observer]
    col = np.where(base[:, :, None, None] >= 0, base[:, :, None, None] + rel[None, None], _NO_WRITE)
    return col.reshape(-1, 4)


_OBS_COL = _obs480_columns()
OBS_KEY_OF = ((np.arange(NUM_CALLS + 1)[None, :] * NUM_CALLS + rules.LAST_BID[:, None]) * 4).reshape(-1)
"""``OBS_KEY_OF[code * 39 + call + 1] + caller``: the row of :data:`OBS_BYTE` / :data:`OBS_MASK`."""
OBS_BYTE = np.where(_OBS_COL == _NO_WRITE, 0, _OBS_COL >> 3) + (np.arange(4) * PACKED_BYTES)[None, :]
"""Byte (within a table's 4 x 60 packed bytes, by observer) that a call sets; a call that
sets nothing ORs 0 into byte 0 of the observer's block."""
OBS_MASK = np.where(_OBS_COL == _NO_WRITE, 0, 128 >> (_OBS_COL & 7)).astype(np.uint8)
"""Bit mask within :data:`OBS_BYTE`."""
for _t in (OBS_KEY_OF, OBS_BYTE, OBS_MASK, BYTE_TO_FLOATS):
    _t.setflags(write=False)


def vulnerability_bytes() -> np.ndarray:
    """``uint8[4 vul, 4 seat]``: the first packed byte of each seat's observation (the four
    vulnerability values, then four zero opening-pass bits)."""
    out = np.zeros((4, 4), np.uint8)
    for v in range(4):
        for seat in range(4):
            we, they = VULNERABLE[v, seat % 2], VULNERABLE[v, 1 - seat % 2]
            out[v, seat] = np.packbits([not we, we, not they, they, 0, 0, 0, 0])[0]
    return out


def packed_hands(deals: np.ndarray) -> np.ndarray:
    """``uint8[n, 4, 7]``: bytes 53..59 of each seat's packed observation holding only its
    hand (4 zero bits, then the 52 cards in OpenSpiel's order)."""
    hands = np.zeros((len(deals), 4, 56), bool)
    for seat in range(4):
        hands[:, seat, 4 + OPENSPIEL_CARD] = deals == seat
    return np.packbits(hands, axis=2)


def unpack_observations(packed: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Unpack ``uint8[n, 60]`` packed observations into ``float32[n, 480]`` ``out``."""
    target = out if out.flags.c_contiguous else np.empty(out.shape, np.float32)
    BYTE_TO_FLOATS.take(packed.reshape(-1), axis=0, out=target.reshape(-1, 8), mode="clip")
    if target is not out:
        out[...] = target
    return out


def write_hidden_hands(out: np.ndarray, deals: np.ndarray, observer: np.ndarray) -> None:
    """Write LHO's, partner's, RHO's hands (52 each, OpenSpiel card order) into ``out[n, 156]``."""
    for k in range(3):
        holder = (observer + k + 1) % 4
        block = out[:, 52 * k:52 * (k + 1)]
        block[:, OPENSPIEL_CARD] = deals == holder[:, None]


# ------------------------------------------------------------------------------------------
# the 267 block, from call histories


def _check_batch(deals, dealer, vulnerability, history, observer):
    deals = np.asarray(deals)
    if deals.ndim != 2 or deals.shape[1] != 52:
        raise FeatureError(f"deals must have shape (n, 52), got {deals.shape}")
    n = deals.shape[0]
    deals = _as_int_array("deals", deals, None, 0, 3)
    dealer = _as_int_array("dealer", dealer, (n,), 0, 3)
    vulnerability = _as_int_array("vulnerability", vulnerability, (n,), 0, 3)
    history = np.asarray(history)
    if history.ndim != 2 or history.shape[0] != n:
        raise FeatureError(f"history must have shape ({n}, L), got {history.shape}")
    history = _as_int_array("history", history, None, -1, NUM_CALLS - 1)
    played = history >= 0
    # -1 only as padding after the last call
    gaps = played[:, 1:] & ~played[:, :-1]
    if gaps.any():
        row = int(np.flatnonzero(gaps.any(axis=1))[0])
        raise FeatureError(f"history[{row}] has a call after a -1 (padding must come last)")
    length = played.sum(axis=1)
    if observer is None:
        observer = (dealer.astype(np.int64) + length) % 4
    else:
        observer = _as_int_array("observer", observer, (n,), 0, 3)
    return deals, dealer.astype(np.int64), vulnerability.astype(np.int64), history.astype(np.int64), \
        observer.astype(np.int64), length


def _out(out, n: int, width: int, name: str) -> np.ndarray:
    if out is None:
        return np.zeros((n, width), dtype=np.float32)
    if not isinstance(out, np.ndarray) or out.shape != (n, width):
        raise FeatureError(f"out for {name} must be an array of shape ({n}, {width}), "
                           f"got {getattr(out, 'shape', type(out).__name__)}")
    out[...] = 0
    return out


def encode_jps267(deals, dealer, vulnerability, history, *, observer=None, out=None) -> np.ndarray:
    """Tian et al.'s 267-bit input (appendix D) for a batch of auctions.

    ``deals`` ``uint8[n, 52]`` (holder of each card), ``dealer`` and ``vulnerability``
    ``int[n]``, ``history`` ``int[n, L]`` call ids padded with -1, ``observer`` the seat whose
    view is encoded (default: the player to act).
    """
    deals, dealer, vul, history, observer, length = _check_batch(
        deals, dealer, vulnerability, history, observer)
    n = deals.shape[0]
    out = _out(out, n, JPS267, "jps267")
    out[:, JPS_HAND:JPS_HAND + 52] = deals == observer[:, None]
    rows, pos = np.nonzero(history >= 0)
    calls = history[rows, pos]
    rel = (dealer[rows] + pos - observer[rows]) % 4
    # segment order own, partner, LHO, RHO  <- relative seats 0, 2, 1, 3
    segment = np.array([0, 2, 1, 3])[rel]
    bid = calls >= 3
    out[rows[bid], JPS_BIDS + segment[bid] * NUM_BIDS + calls[bid] - 3] = 1
    running = np.maximum.accumulate(np.where(history >= 3, history, 0), axis=1)
    doubled = (calls == 1) | (calls == 2)
    out[rows[doubled], JPS_DOUBLED + running[rows[doubled], pos[doubled]] - 3] = 1
    out[:, JPS_VUL:JPS_VUL + 2] = VULNERABLE[vul]
    try:
        out[:, JPS_LEGAL:JPS_LEGAL + NUM_CALLS] = rules.legal_masks(history)
    except ValueError as e:
        raise FeatureError(str(e)) from None
    return out


def openspiel_deal_actions(holders) -> list[int]:
    """OpenSpiel ``bridge`` chance actions that deal ``holders`` (``uint8[52]``, bidlab order).

    OpenSpiel gives the k-th dealt card to seat k mod 4 (North first) and names a card
    rank*4 + suit, so the cards are dealt round-robin N, E, S, W from each hand.
    """
    h = np.asarray(holders)
    if h.shape != (52,) or not all(int((h == s).sum()) == 13 for s in range(4)):
        raise FeatureError(f"holders must be 52 seats with 13 cards each, got shape {h.shape}")
    hands = [OPENSPIEL_CARD[np.flatnonzero(h == s)] for s in range(4)]
    return [int(hands[k % 4][k // 4]) for k in range(52)]
