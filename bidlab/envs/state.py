"""The auction as plain arrays and pure step functions (pgx style), batched over tables.

An :class:`AuctionState` holds ``n`` tables, one row each: the deal, dealer, vulnerability,
the calls so far, the state code of :mod:`bidlab.bridge.rules` (legality and the end of the
auction), the first seat of each side to name each strain (the declarer), and every seat's
480 observation bit-packed (:mod:`bidlab.bridge.features`), kept up to date call by call so
that :func:`observe` is a gather and an unpack.

Functions, each over all rows at once with no Python loop over tables:

- :func:`init` (fresh auctions), :func:`from_prefix` (start from real auctions);
- :func:`step` (pure: returns a new state) and :func:`step_` (in place, for owners of a
  state such as :class:`~bidlab.envs.auction.AuctionEnv` and :func:`~bidlab.envs.rollout.rollout`);
- :func:`observe` (480), :func:`observe636` (480 + the other three hands), legal masks
  (:attr:`AuctionState.legal`), final contracts (:func:`contracts`);
- for search: :func:`with_hands` (replace the hidden hands of a table with sampled deals),
  :meth:`AuctionState.take`, :func:`repeat` and :func:`concat` (one position, many particles).

This module and :class:`~bidlab.bridge.auction.Auction` both step through the rules tables,
so there is one implementation of legality; the 480 columns come from the one encoding.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from bidlab.bridge import rules
from bidlab.bridge.auction import Auction
from bidlab.bridge.calls import ALL_CALLS, NUM_CALLS, Call, Strain
from bidlab.bridge.features import (
    OBS_BYTE,
    OBS_KEY_OF,
    OBS_MASK,
    OPENSPIEL480,
    PACKED_BYTES,
    PACKED_HAND_BYTE,
    VALUE636,
    packed_hands,
    unpack_observations,
    vulnerability_bytes,
    write_hidden_hands,
)
from bidlab.cards import Seat
from bidlab.errors import BidlabError

NO_CALL = rules.NO_CALL
MAX_AUCTION_LENGTH = 319
"""3 passes, then every bid followed by P P X P P XX P P, then the final pass."""

# columns of AuctionState.namer: first namer of (side, strain) (10 slots, -1 none), a sink
# slot that non-bids write to, and the declarer if the auction ended now (-1 before any bid)
_SINK, _DECLARER, _NAMER_WIDTH = 10, 11, 12
_NAMER_INIT = np.array([-1] * 10 + [0, -1], np.int16)


def _namer_slot_of_key() -> np.ndarray:
    """``[obs key + caller]`` -> namer slot written by that call (the sink for non-bids)."""
    k = np.arange((NUM_CALLS + 1) * NUM_CALLS * 4)
    call = k // (NUM_CALLS * 4) - 1
    side = k % 4 & 1
    return np.where(call >= 3, side * 5 + (call - 3) % 5, _SINK)


_NAMER_OF_K = _namer_slot_of_key()
_VUL_BYTE = vulnerability_bytes()
_SEATS = tuple(Seat)
_STRAINS = tuple(Strain)
_LEGAL_EXT = rules.LEGAL  # [code, call + 1]
_NEXT_FLAT = rules.NEXT.ravel()
_ENDS_FLAT = rules.ENDS.ravel()


class StateError(BidlabError, ValueError):
    """Arrays given to the auction state have the wrong shape, dtype or values."""


class IllegalCallInBatchError(StateError):
    """A call passed to :func:`step` is not legal on its table."""

    def __init__(self, message: str, *, board: int, call: int):
        self.board = board
        self.call = call
        super().__init__(message)


class FinishedTableError(IllegalCallInBatchError):
    """A call was passed for a table whose auction is over."""


@dataclass(eq=False)
class AuctionState:
    """``n`` auction tables as arrays (see the module docstring). Rows are tables."""

    deals: np.ndarray          # uint8[n, 52]: seat holding each card (suit * 13 + rank)
    dealer: np.ndarray         # int8[n]
    vulnerability: np.ndarray  # int8[n]: Vulnerability 0 none, 1 NS, 2 EW, 3 both
    history: np.ndarray        # int8[n, 320]: call ids, -1 after the last
    length: np.ndarray         # int16[n]: calls made
    to_act: np.ndarray         # int16[n]: seat to act (dealer + length) mod 4
    code: np.ndarray           # intp[n]: state code of bidlab.bridge.rules
    namer: np.ndarray          # int16[n, 12]: first namers, a sink, declarer-if-ended-now
    bits: np.ndarray           # uint8[n, 4, 60]: every seat's packed 480 observation

    @property
    def n(self) -> int:
        return len(self.code)

    def __len__(self) -> int:
        return len(self.code)

    @property
    def done(self) -> np.ndarray:
        """``bool[n]``: the auction is over."""
        return rules.OVER[self.code]

    @property
    def legal(self) -> np.ndarray:
        """``bool[n, 38]``: legal calls of the player to act (all false once over)."""
        return _LEGAL_EXT[self.code, 1:]

    @property
    def declarer(self) -> np.ndarray:
        """``int8[n]``: declarer should the auction end now (-1 before any bid)."""
        return self.namer[:, _DECLARER].astype(np.int8)

    def copy(self) -> AuctionState:
        return AuctionState(*(getattr(self, f.name).copy() for f in fields(self)))

    def take(self, rows) -> AuctionState:
        """The tables ``rows`` (any integer index array, repeats allowed) as a new state."""
        rows = np.asarray(rows, dtype=np.intp)
        return AuctionState(*(getattr(self, f.name)[rows] for f in fields(self)))

    def put(self, rows, other: AuctionState) -> None:
        """Overwrite tables ``rows`` with the tables of ``other`` (in place)."""
        rows = np.asarray(rows, dtype=np.intp)
        for f in fields(self):
            getattr(self, f.name)[rows] = getattr(other, f.name)

    def calls(self, t: int) -> list[int]:
        return self.history[t, :self.length[t]].tolist()

    def auction(self, t: int) -> Auction:
        """Table ``t``'s auction as a scalar :class:`~bidlab.bridge.Auction` (built from the
        row's rules state, without replaying the calls)."""
        calls = self.calls(t)
        dealer = int(self.dealer[t])
        bids = [i for i, c in enumerate(calls) if c >= 3]
        last_bidder = (dealer + bids[-1]) % 4 if bids else None
        namer = self.namer[t, :10].tolist()
        first = {(k // 5, _STRAINS[k % 5]): _SEATS[s] for k, s in enumerate(namer) if s >= 0}
        return Auction.from_rules_state(dealer, calls, int(self.code[t]), last_bidder, first)


# -- construction -----------------------------------------------------------------------------


def _as_rows(name: str, a, n: int, hi: int) -> np.ndarray:
    arr = np.asarray(a)
    if arr.ndim == 0:
        arr = np.full(n, arr)
    if arr.shape != (n,) or not np.issubdtype(arr.dtype, np.integer):
        raise StateError(f"{name} must be an integer or an integer array of shape ({n},), got {arr.dtype}{list(arr.shape)}")
    if n and (arr.min() < 0 or arr.max() > hi):
        bad = int(np.flatnonzero((arr < 0) | (arr > hi))[0])
        raise StateError(f"{name}[{bad}] = {int(arr[bad])} is outside 0..{hi}")
    return arr.astype(np.int8)


def check_deals(deals) -> np.ndarray:
    """``deals`` as ``uint8[n, 52]`` after checking that every seat holds 13 cards."""
    d = np.asarray(deals)
    if d.ndim != 2 or d.shape[1] != 52 or not np.issubdtype(d.dtype, np.integer):
        raise StateError(f"deals must be an integer array of shape (n, 52), got {d.dtype}{list(d.shape)}")
    counts = np.stack([(d == s).sum(axis=1) for s in range(4)], axis=1)
    bad = np.flatnonzero((counts != 13).any(axis=1))
    if bad.size:
        raise StateError(f"deals[{bad[0]}] is not a deal: seats hold {counts[bad[0]].tolist()} cards")
    return d.astype(np.uint8, copy=False)


def init(deals, dealer=0, vulnerability=0) -> AuctionState:
    """Fresh auctions: ``deals`` ``uint8[n, 52]``, ``dealer`` and ``vulnerability`` ``int[n]``
    (or one value for every table)."""
    deals = check_deals(deals)
    n = len(deals)
    dealer = _as_rows("dealer", dealer, n, 3)
    vul = _as_rows("vulnerability", vulnerability, n, 3)
    bits = np.zeros((n, 4, PACKED_BYTES), np.uint8)
    bits[:, :, 0] = _VUL_BYTE[vul]
    bits[:, :, PACKED_HAND_BYTE:] = packed_hands(deals)
    return AuctionState(
        deals=deals.copy(), dealer=dealer, vulnerability=vul,
        history=np.full((n, MAX_AUCTION_LENGTH + 1), NO_CALL, np.int8),
        length=np.zeros(n, np.int16), to_act=dealer.astype(np.int16),
        code=np.full(n, rules.INITIAL, np.intp),
        namer=np.tile(_NAMER_INIT, (n, 1)), bits=bits,
    )


def from_prefix(deals, dealer, vulnerability, history) -> AuctionState:
    """Tables started from real auctions: ``history`` ``int[n, L]`` call ids padded with -1
    (or one auction ``int[L]`` for every table). Each prefix must be legal."""
    state = init(deals, dealer, vulnerability)
    h = np.asarray(history)
    if h.ndim == 1:
        h = np.broadcast_to(h, (state.n, h.shape[0]))
    if h.ndim != 2 or h.shape[0] != state.n or not np.issubdtype(h.dtype, np.integer):
        raise StateError(f"history must be an integer array of shape ({state.n}, L), got {h.dtype}{list(h.shape)}")
    played = h >= 0
    if (played[:, 1:] & ~played[:, :-1]).any():
        row = int(np.flatnonzero((played[:, 1:] & ~played[:, :-1]).any(axis=1))[0])
        raise StateError(f"history[{row}] has a call after a -1 (padding must come last)")
    for i in range(h.shape[1]):
        step_(state, h[:, i])
    return state


def reset_rows(state: AuctionState, rows, deals, dealer, vulnerability) -> None:
    """Start fresh auctions in place on tables ``rows`` with the given deals."""
    fresh = init(deals, dealer, vulnerability)
    state.put(rows, fresh)


def with_hands(state: AuctionState, deals, rows=None) -> AuctionState:
    """A copy of ``state`` (or of its tables ``rows``) with the cards replaced by ``deals``:
    the auctions stay, every seat's hand bits are rewritten (e.g. particles of a search, each
    the real auction on a sampled deal). Vulnerability bits and call bits are unchanged."""
    out = state.copy() if rows is None else state.take(rows)
    deals = check_deals(deals)
    if len(deals) != out.n:
        raise StateError(f"with_hands needs one deal per table ({out.n}), got {len(deals)}")
    out.deals[:] = deals
    # byte 53's high half holds the last bid's redoubled bits: keep it, replace the rest
    hands = packed_hands(deals)
    keep = out.bits[:, :, PACKED_HAND_BYTE] & 0xF0
    out.bits[:, :, PACKED_HAND_BYTE:] = hands
    out.bits[:, :, PACKED_HAND_BYTE] |= keep
    return out


def repeat(state: AuctionState, k: int) -> AuctionState:
    """Each table repeated ``k`` times in a row (table t becomes rows t*k .. t*k + k - 1)."""
    return state.take(np.repeat(np.arange(state.n), k))


def concat(states) -> AuctionState:
    """The tables of several states, in order, as one state."""
    states = list(states)
    return AuctionState(*(np.concatenate([getattr(s, f.name) for s in states]) for f in fields(AuctionState)))


# -- stepping ---------------------------------------------------------------------------------


def step(state: AuctionState, calls) -> AuctionState:
    """The state after ``calls[t]`` on every table ``t`` (:data:`NO_CALL` to sit out): pure."""
    new = state.copy()
    step_(new, calls)
    return new


def step_(state: AuctionState, calls) -> np.ndarray:
    """Apply ``calls`` in place; returns ``bool[n]``, the tables whose auction ended now.

    Every update runs over all rows through the lookup tables of :mod:`bidlab.bridge.rules`
    and :mod:`bidlab.bridge.features` (cheaper at a thousand tables than picking out the
    acting rows); an illegal call raises before anything changes.
    """
    n = state.n
    c = np.asarray(calls)
    if c.shape != (n,):
        raise StateError(f"calls must have shape ({n},) (one per table), got {c.shape}")
    if c.dtype.kind not in "iu":
        raise StateError(f"calls must be an integer array, got dtype {c.dtype}")
    c1 = c.astype(np.intp) + 1  # column of the call in the rules tables (NO_CALL -> 0)
    _validate(state, c, c1)
    code = state.code
    key = code * (NUM_CALLS + 1)
    key += c1
    rows = np.arange(n)
    state.history[rows, state.length] = c
    act = c1 > 0
    s = state.to_act
    # every seat's observation: at most one bit per observer (a call that sets none ORs 0)
    k = OBS_KEY_OF[key]
    k += s
    flat_bits = state.bits.reshape(-1)
    byte = OBS_BYTE.take(k, axis=0)
    byte += (rows * (4 * PACKED_BYTES))[:, None]
    flat_bits[byte] |= OBS_MASK.take(k, axis=0)
    # first seat of each side to name each strain (the declarer rule); non-bids hit the sink
    slot = _NAMER_OF_K[k] + rows * _NAMER_WIDTH
    flat_namer = state.namer.reshape(-1)
    first = flat_namer[slot]
    first = np.where(first < 0, s, first)
    flat_namer[slot] = first
    # after a bid, its first namer is the declarer should the auction end now
    np.copyto(state.namer[:, _DECLARER], first, where=c1 > 3)
    ended = _ENDS_FLAT[key]
    _NEXT_FLAT.take(key, out=code, mode="clip")
    state.length += act
    s += act
    s &= 3
    return ended


def _validate(state: AuctionState, c: np.ndarray, c1: np.ndarray) -> None:
    # one unsigned max catches ids below NO_CALL (they wrap to huge values) and above 37
    if c1.size and c1.view(np.uintp).max() > NUM_CALLS:
        t = int(np.flatnonzero((c1 < 0) | (c1 > NUM_CALLS))[0])
        raise IllegalCallInBatchError(f"board {t}: call id {int(c[t])} is not a call "
                                      f"(0..{NUM_CALLS - 1}, or {NO_CALL} for none)", board=t, call=int(c[t]))
    ok = _LEGAL_EXT[state.code, c1]
    if ok.all():
        return
    t = int(np.flatnonzero(~ok)[0])
    call = ALL_CALLS[int(c[t])]
    if rules.OVER[state.code[t]]:
        raise FinishedTableError(f"board {t}: the auction is over, cannot call {call} "
                                 f"(pass {NO_CALL} for finished boards)", board=t, call=int(c[t]))
    legal = " ".join(str(x) for x in ALL_CALLS if state.legal[t, x.id])
    raise IllegalCallInBatchError(f"board {t}: {call} is not legal after {state.auction(t)} "
                                  f"by {Seat(int(state.to_act[t])).letter} (legal: {legal})",
                                  board=t, call=int(c[t]))


def random_calls(state: AuctionState, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal call for every live table (:data:`NO_CALL` for finished ones)."""
    code = state.code
    k = (rng.random(state.n) * rules.LEGAL_COUNT[code]).astype(np.intp)
    return rules.LEGAL_LIST[code, k]


# -- reading ----------------------------------------------------------------------------------


def _out_buffer(out: np.ndarray | None, n: int, width: int) -> np.ndarray:
    """``out`` checked as float32[n, width], or a new one."""
    if out is None:
        return np.empty((n, width), np.float32)
    if out.shape != (n, width) or out.dtype != np.float32:
        raise StateError(f"out must be float32[{n}, {width}], got {out.dtype}{list(out.shape)}")
    return out


def _seats(state: AuctionState, seat) -> np.ndarray:
    """The player to act at every table, or ``seat`` checked as n seats 0..3."""
    if seat is None:
        return state.to_act
    seat = np.asarray(seat)
    if seat.shape != (state.n,) or not np.issubdtype(seat.dtype, np.integer) or \
            (seat.size and (seat.min() < 0 or seat.max() > 3)):
        raise StateError(f"seat must be an integer array of {state.n} seats 0..3")
    return seat


def packed_observations(state: AuctionState, seat=None) -> np.ndarray:
    """The bit-packed 480 (uint8[n, 60], the state's own packing) of the player to act at every
    table (or of ``seat[t]``): a copy, usable as a key for identical observations."""
    n = state.n
    seat = _seats(state, seat)
    return state.bits.reshape(n * 4, PACKED_BYTES).take(np.arange(n) * 4 + seat, axis=0, mode="clip")


def observe(state: AuctionState, out: np.ndarray | None = None, seat=None) -> np.ndarray:
    """openspiel480 of the player to act at every table (or of ``seat[t]``) into ``out``."""
    out = _out_buffer(out, state.n, OPENSPIEL480)
    return unpack_observations(packed_observations(state, seat), out)


def observe636(state: AuctionState, out: np.ndarray | None = None, seat=None) -> np.ndarray:
    """value636 (480 + LHO's, partner's and RHO's cards) of the player to act (or ``seat``)."""
    out = _out_buffer(out, state.n, VALUE636)
    seat = _seats(state, seat)
    observe(state, out=out[:, :OPENSPIEL480], seat=seat)
    write_hidden_hands(out[:, OPENSPIEL480:], state.deals, seat.astype(np.int64))
    return out


@dataclass(frozen=True)
class Contracts:
    """The contracts of finished tables: ``level`` 0 means passed out (``declarer`` -1)."""

    level: np.ndarray     # int8[n]
    strain: np.ndarray    # int8[n]
    doubled: np.ndarray   # int8[n]
    declarer: np.ndarray  # int8[n]


def contracts(state: AuctionState) -> Contracts:
    """Final contract of every table (of the auction so far if it were over now)."""
    code = state.code
    level = rules.LEVEL[code]
    declarer = np.where(level > 0, state.namer[:, _DECLARER], -1).astype(np.int8)
    return Contracts(level, rules.STRAIN[code], rules.DOUBLED[code].astype(np.int8), declarer)


def encode_openspiel480(deals, dealer, vulnerability, history, *, observer=None, out=None) -> np.ndarray:
    """openspiel480 of a batch of auctions given as call histories (``int[n, L]``, -1 padded):
    the histories are replayed through :func:`step_`, so this is the env's own encoding."""
    state = from_prefix(deals, dealer, vulnerability, history)
    return observe(state, out=out, seat=observer)


def encode_value636(deals, dealer, vulnerability, history, *, observer=None, out=None) -> np.ndarray:
    """value636 of a batch of auctions given as call histories (see :func:`encode_openspiel480`)."""
    state = from_prefix(deals, dealer, vulnerability, history)
    return observe636(state, out=out, seat=observer)


def views_state(views) -> AuctionState:
    """The state of agents' :class:`~bidlab.agents.base.BiddingView`-like objects (``seat``,
    ``hand``, ``auction``, ``vulnerability``), one table each. A view holds only its own
    hand, so the other 39 cards go to the other seats in a fixed order: use the result only
    for what the viewer may see (its 480 observation, legal calls)."""
    n = len(views)
    deals = np.empty((n, 52), np.uint8)
    dealer = np.empty(n, np.int64)
    vul = np.empty(n, np.int64)
    longest = max((len(v.auction) for v in views), default=0)
    history = np.full((n, max(longest, 1)), NO_CALL, np.int64)
    for i, v in enumerate(views):
        own = np.array([c.index for c in v.hand], dtype=np.int64)
        others = np.setdiff1d(np.arange(52), own)
        deals[i, own] = int(v.seat)
        deals[i, others] = (int(v.seat) + 1 + np.arange(39) // 13) % 4
        dealer[i] = int(v.auction.dealer)
        vul[i] = int(v.vulnerability)
        history[i, :len(v.auction)] = [c.id for c in v.auction.calls]
    state = from_prefix(deals, dealer, vul, history)
    seats = np.array([int(v.seat) for v in views], np.int64)
    if n and not np.array_equal(state.to_act, seats):
        t = int(np.flatnonzero(state.to_act != seats)[0])
        raise StateError(f"view {t}: it is {Seat(int(state.to_act[t])).letter}'s turn, not {views[t].seat.letter}'s")
    return state


__all__ = [
    "MAX_AUCTION_LENGTH", "NO_CALL", "AuctionState", "Call", "Contracts", "FinishedTableError",
    "IllegalCallInBatchError", "StateError", "concat", "contracts", "encode_openspiel480",
    "encode_value636", "from_prefix", "init", "observe", "observe636", "packed_observations", "random_calls", "repeat",
    "reset_rows", "step", "step_", "views_state", "with_hands",
]
