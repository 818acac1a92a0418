"""Observation encoders for the auction, batched and written into preallocated arrays.

Three encodings, each a function ``encode_*(deals, dealer, vulnerability, history, *,
observer=None, out=None) -> out`` over a batch of ``n`` auction states:

- ``deals``: ``uint8[n, 52]``, the seat holding each card (bidlab card index suit*13 + rank);
- ``dealer``: ``int[n]`` seats 0..3; ``vulnerability``: ``int[n]`` :class:`Vulnerability` 0..3;
- ``history``: ``int[n, L]`` call ids (0 Pass, 1 X, 2 XX, 3.. bids), padded with -1 after the
  last call; the histories must be legal auctions (the environment guarantees this; the scalar
  :class:`~bidlab.bridge.Auction` checks it for hand-made ones);
- ``observer``: the seat whose view is encoded, by default the player to act.

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

from bidlab.errors import BidlabError

OPENSPIEL480 = 480
VALUE636 = 636
JPS267 = 267
NUM_CALLS = 38
NUM_BIDS = 35

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


# ------------------------------------------------------------------------------------------
# encoders


def encode_openspiel480(deals, dealer, vulnerability, history, *, observer=None, out=None) -> np.ndarray:
    """OpenSpiel's 480-value auction observation (Qiu et al. Appendix B) for a batch."""
    deals, dealer, vul, history, observer, _ = _check_batch(deals, dealer, vulnerability, history, observer)
    out = _out(out, deals.shape[0], OPENSPIEL480, "openspiel480")
    _write_480(out, deals, dealer, vul, history, observer)
    return out


def encode_value636(deals, dealer, vulnerability, history, *, observer=None, out=None) -> np.ndarray:
    """480 observation plus LHO's, partner's and RHO's cards (Qiu et al. Table VI, value net)."""
    deals, dealer, vul, history, observer, _ = _check_batch(deals, dealer, vulnerability, history, observer)
    out = _out(out, deals.shape[0], VALUE636, "value636")
    _write_480(out, deals, dealer, vul, history, observer)
    write_hidden_hands(out[:, OPENSPIEL480:], deals, observer)
    return out


def encode_jps267(deals, dealer, vulnerability, history, *, observer=None, out=None) -> np.ndarray:
    """Tian et al.'s 267-bit input (appendix D) for a batch."""
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
    running = _running_last_bid(history)
    doubled = (calls == 1) | (calls == 2)
    out[rows[doubled], JPS_DOUBLED + running[rows[doubled], pos[doubled]] - 3] = 1
    out[:, JPS_VUL:JPS_VUL + 2] = VULNERABLE[vul]
    legal_masks(dealer, history, length, out=out[:, JPS_LEGAL:JPS_LEGAL + NUM_CALLS])
    return out


def write_hidden_hands(out: np.ndarray, deals: np.ndarray, observer: np.ndarray) -> None:
    """Write LHO's, partner's, RHO's hands (52 each, OpenSpiel card order) into ``out[n, 156]``."""
    for k in range(3):
        holder = (observer + k + 1) % 4
        block = out[:, 52 * k:52 * (k + 1)]
        block[:, OPENSPIEL_CARD] = deals == holder[:, None]


def _running_last_bid(history: np.ndarray) -> np.ndarray:
    """For each position, the highest bid id made up to and including it (0 if none yet)."""
    return np.maximum.accumulate(np.where(history >= 3, history, 0), axis=1)


def _write_480(out, deals, dealer, vul, history, observer) -> None:
    side = observer % 2
    we = VULNERABLE[vul, side]
    they = VULNERABLE[vul, 1 - side]
    out[:, 0] = ~we
    out[:, 1] = we
    out[:, 2] = ~they
    out[:, 3] = they
    rows, pos = np.nonzero(history >= 0)
    calls = history[rows, pos]
    rel = (dealer[rows] + pos - observer[rows]) % 4
    running = _running_last_bid(history)[rows, pos]
    col = np.full(calls.shape, -1, dtype=np.int64)
    opening = (calls == 0) & (running == 0)
    col[opening] = OPENING_PASS_OFFSET + rel[opening]
    bid = calls >= 3
    col[bid] = BIDS_OFFSET + (calls[bid] - 3) * BID_BLOCK + rel[bid]
    dbl = calls == 1
    col[dbl] = BIDS_OFFSET + (running[dbl] - 3) * BID_BLOCK + 4 + rel[dbl]
    rdbl = calls == 2
    col[rdbl] = BIDS_OFFSET + (running[rdbl] - 3) * BID_BLOCK + 8 + rel[rdbl]
    keep = col >= 0
    out[rows[keep], col[keep]] = 1
    hand = out[:, HAND_OFFSET:HAND_OFFSET + 52]
    hand[:, OPENSPIEL_CARD] = deals == observer[:, None]


def legal_masks(dealer, history, length=None, *, out=None) -> np.ndarray:
    """``bool``-valued legal-call masks ``[n, 38]`` of the player to act (all zero once over)."""
    dealer = np.asarray(dealer, dtype=np.int64)
    history = np.asarray(history, dtype=np.int64)
    n = history.shape[0]
    if length is None:
        length = (history >= 0).sum(axis=1)
    if out is None:
        out = np.zeros((n, NUM_CALLS), dtype=bool)
    state = auction_state(dealer, history, length)
    last_bid, last_bidder, doubled, over = state["last_bid"], state["last_bidder"], state["doubled"], state["over"]
    to_act = (dealer + length) % 4
    same_side = (last_bidder % 2) == (to_act % 2)
    out[:, 0] = ~over
    out[:, 1] = ~over & (last_bid > 0) & ~same_side & (doubled == 0)
    out[:, 2] = ~over & (doubled == 1) & same_side
    out[:, 3:] = (np.arange(3, NUM_CALLS)[None, :] > last_bid[:, None]) & ~over[:, None]
    return out


def auction_state(dealer, history, length=None) -> dict[str, np.ndarray]:
    """Vectorized summary of auctions: last bid id (0 none), its bidder, doubled state, end flag."""
    dealer = np.asarray(dealer, dtype=np.int64)
    history = np.asarray(history, dtype=np.int64)
    n, L = history.shape
    if length is None:
        length = (history >= 0).sum(axis=1)
    bids = np.where(history >= 3, history, 0)
    last_bid = bids.max(axis=1, initial=0)
    at = bids.argmax(axis=1) if L else np.zeros(n, dtype=np.int64)
    has_bid = last_bid > 0
    last_bidder = np.where(has_bid, (dealer + at) % 4, -1)
    pos = np.arange(L)[None, :]
    after = (pos > at[:, None]) & has_bid[:, None]
    redoubled = ((history == 2) & after).any(axis=1)
    doubled_ = ((history == 1) & after).any(axis=1)
    doubled = np.where(redoubled, 2, np.where(doubled_, 1, 0))
    # trailing passes
    nonpass = (history != 0) & (history >= 0)
    last_nonpass = np.where(nonpass.any(axis=1), L - 1 - nonpass[:, ::-1].argmax(axis=1), -1)
    passes = length - 1 - last_nonpass
    over = np.where(has_bid, passes >= 3, passes >= 4)
    return {"last_bid": last_bid, "last_bidder": last_bidder, "doubled": doubled, "over": over,
            "passes": passes}


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


def encode_views(views, kind: str = "openspiel480", out=None) -> np.ndarray:
    """Encode agents' :class:`~bidlab.agents.base.BiddingView` objects (one row each).

    A view holds only its own hand, so only the encodings without hidden cards are possible:
    ``"openspiel480"`` and ``"jps267"``.
    """
    encoders = {"openspiel480": encode_openspiel480, "jps267": encode_jps267}
    if kind not in encoders:
        raise FeatureError(f"kind must be one of {sorted(encoders)} for views, got {kind!r}")
    n = len(views)
    holders = np.empty((n, 52), np.uint8)
    dealer = np.empty(n, np.int64)
    vul = np.empty(n, np.int64)
    observer = np.empty(n, np.int64)
    length = max((len(v.auction) for v in views), default=0)
    history = np.full((n, max(length, 1)), -1, np.int64)
    for i, v in enumerate(views):
        own = np.array([c.index for c in v.hand], dtype=np.int64)
        # the other 39 cards go to the other seats in any order: these encodings ignore them
        others = np.setdiff1d(np.arange(52), own)
        holders[i, own] = int(v.seat)
        holders[i, others] = (int(v.seat) + 1 + np.arange(39) // 13) % 4
        dealer[i] = int(v.auction.dealer)
        vul[i] = int(v.vulnerability)
        observer[i] = int(v.seat)
        history[i, :len(v.auction)] = [c.id for c in v.auction.calls]
    return encoders[kind](holders, dealer, vul, history, observer=observer, out=out)
