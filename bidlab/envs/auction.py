"""A vectorized bridge-auction environment: many tables stepped at once over numpy arrays.

Every table's state lives in one row of preallocated arrays (deal, dealer, vulnerability,
call history, player to act, legal mask, done flag), and :meth:`AuctionEnv.step` applies one
call to every table in about twenty numpy operations and table lookups, with no Python loop
over tables. The openspiel480 observation of every seat is kept up to date incrementally and
bit-packed (each call sets at most one bit per observer), so :meth:`AuctionEnv.observe` is
a gather, an unpack and a copy into the caller's float32 buffer.

Duplicate mode (Qiu et al. Sec. IV; Tian et al. Sec. 7) bids every deal at two tables. Team 0
sits North-South at table 0 and East-West at table 1, so the seat-to-team map is
``team = (seat + table) mod 2``. When both tables of a pair are over, team 0 scores
``IMP(NS score at table 0 - NS score at table 1)`` from the double-dummy tables; Qiu et al.
divide it by 24 for a reward in [-1, 1] (team 1 gets the negative). A table that finishes
before its twin waits (``done``) until the twin finishes.

Tables are rows ``0..N-1``. In duplicate mode with ``B`` pairs, ``N = 2B``: row ``p`` is table
0 and row ``p + B`` is table 1 of pair ``p``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from bidlab.bridge.auction import Auction
from bidlab.bridge.calls import ALL_CALLS, NUM_CALLS, Call
from bidlab.bridge.features import (
    BID_BLOCK,
    BIDS_OFFSET,
    OPENING_PASS_OFFSET,
    OPENSPIEL480,
    OPENSPIEL_CARD,
    VALUE636,
    VULNERABLE,
    encode_jps267,
    write_hidden_hands,
)
from bidlab.cards import Seat
from bidlab.envs.scoring import imps_array, score_table
from bidlab.errors import BidlabError

MAX_AUCTION_LENGTH = 319
"""3 passes, then every bid followed by P P X P P XX P P, then the final pass."""
NO_CALL = -1
"""Entry of ``calls`` for a table that does not call in this step."""

# Vulnerability of boards 1..16 (standard cycle), as Vulnerability ids.
_VUL_CYCLE = np.array([0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2], dtype=np.int8)
# Every seat's observation is kept bit-packed, 60 bytes in the 480 layout. The hand (bits
# 428..479) fills bytes 54..59 and the low half of byte 53, whose high half belongs to the
# last bid's redoubled bits; a reset copies a deal's pre-packed hand bytes 53..59 (their
# high half zero), and later calls only OR bits in.
_PACKED_BYTES = 60
_PACKED_HAND_BYTE = 53
_BYTE_TO_FLOATS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.float32)


# The auction state of a table (besides who named each strain first) is one small integer,
# code = ((last bid * 3 + doubled) * 5 + passes in a row) * 2 + opp, where last bid is the
# call id of the last bid (0 before any bid), doubled 0/1/2, passes 0..4, and opp = 1 when
# the last bidder is an opponent of the player to act. Every transition is then one lookup.
_NUM_STATES = NUM_CALLS * 3 * 5 * 2


def _state_code(lb, dbl, pas, opp):
    return ((lb * 3 + dbl) * 5 + pas) * 2 + opp


def _state_tables():
    """Lookup tables over state codes; calls are indexed ``c + 1`` so NO_CALL (-1) is row 0."""
    codes = np.arange(_NUM_STATES)
    opp = codes % 2
    pas = codes // 2 % 5
    dbl = codes // 10 % 3
    lb = codes // 30
    terminal = np.where(lb == 0, pas >= 4, pas >= 3)
    nxt = np.empty((_NUM_STATES, NUM_CALLS + 1), np.int64)
    nxt[:, 0] = codes  # no call: unchanged
    nxt[:, 1] = _state_code(lb, dbl, np.minimum(pas + 1, 4), 1 - opp)  # pass
    nxt[:, 2] = _state_code(lb, 1, 0, 1 - opp)  # X
    nxt[:, 3] = _state_code(lb, 2, 0, 1 - opp)  # XX
    for c in range(3, NUM_CALLS):
        nxt[:, c + 1] = _state_code(c, 0, 0, 1)  # a bid: the next player is the bidder's LHO
    # a call that ends the auction (only from a live state)
    ends = terminal[nxt] & ~terminal[:, None]
    ends[:, 0] = False
    # legal calls after a first column (always true) for NO_CALL; nothing is legal once over
    legal = np.zeros((_NUM_STATES, NUM_CALLS + 1), bool)
    legal[:, 0] = ~terminal
    legal[:, 1] = ~terminal & (lb >= 3) & (dbl == 0) & (opp == 1)
    legal[:, 2] = ~terminal & (dbl == 1) & (opp == 0)
    legal[:, 3:NUM_CALLS] = ~terminal[:, None] & (np.arange(3, NUM_CALLS)[None, :] > lb[:, None])
    legal[:, NUM_CALLS] = True
    legal = np.roll(legal, 1, axis=1)  # the NO_CALL column first: column = call id + 1
    # observation column of (call, last bid before it), -1 when the call sets nothing
    base = np.full((NUM_CALLS + 1, NUM_CALLS), -1, np.int64)
    lbs = np.arange(NUM_CALLS)
    base[1] = np.where(lbs == 0, OPENING_PASS_OFFSET, -1)
    base[2] = np.where(lbs >= 3, BIDS_OFFSET + (lbs - 3) * BID_BLOCK + 4, -1)
    base[3] = np.where(lbs >= 3, BIDS_OFFSET + (lbs - 3) * BID_BLOCK + 8, -1)
    for c in range(3, NUM_CALLS):
        base[c + 1] = BIDS_OFFSET + (c - 3) * BID_BLOCK
    rel = (np.arange(4)[:, None] - np.arange(4)[None, :]) % 4  # [caller, observer]
    # [((call + 1) * 38 + last bid) * 4 + caller, observer] -> column, or a huge value for none
    col = np.where(base[:, :, None, None] >= 0, base[:, :, None, None] + rel[None, None], _NO_WRITE)
    # first-namer column (side * 5 + strain) of a bid; the sink column for any other call
    fn = np.full((2, NUM_CALLS + 1), _S_SINK - _S_FN, np.int64)
    for side in range(2):
        for c in range(3, NUM_CALLS):
            fn[side, c + 1] = side * 5 + (c - 3) % 5
    return (nxt.astype(np.intp).ravel(), ends.ravel(), legal, col.reshape(-1, 4), fn,
            lb.astype(np.int64), dbl.astype(np.int64), opp.astype(np.int64))


# columns of AuctionEnv._s (int16): first namer of (side, strain) (10 columns, -1 none), a
# sink column for masked writes, the declarer if the auction ended now (-1 before any bid)
_S_FN, _S_SINK, _S_DECLARER, _S_WIDTH = 0, 10, 11, 12
_S_INIT = np.array([-1] * 10 + [0, -1], np.int16)
_NO_WRITE = 1 << 40
(_NEXT, _ENDS, _LEGAL, _OBS_COL, _FN_COL, _LB_OF, _DBL_OF, _OPP_OF) = _state_tables()
# byte and bit mask of each column written by a call (all such columns are below 428); a call
# that sets nothing ORs 0 into byte 0. Each (table, observer) row gets exactly one entry per
# step, so the fancy-indexed OR never hits a byte twice.
_OBS_BYTE = np.where(_OBS_COL == _NO_WRITE, 0, _OBS_COL >> 3)
_OBS_MASK = np.where(_OBS_COL == _NO_WRITE, 0, 128 >> (_OBS_COL & 7)).astype(np.uint8)
_INIT_STATE = 0  # no bid, not doubled, no passes
# for each state: how many calls are legal, and the legal calls in id order (then NO_CALL)
_LEGAL_COUNT = _LEGAL[:, 1:].sum(axis=1)
_LEGAL_LIST = np.full((_NUM_STATES, NUM_CALLS), NO_CALL, np.int64)
for _code in range(_NUM_STATES):
    _ids = np.flatnonzero(_LEGAL[_code, 1:])
    _LEGAL_LIST[_code, :len(_ids)] = _ids
_LEGAL_LIST = _LEGAL_LIST.reshape(-1)
_LEGAL_LIST_START = np.arange(_NUM_STATES) * NUM_CALLS
# Per-step lookups keyed by ``key = state * 39 + call + 1`` and ``k = _K_OF_KEY[key] + seat``
# (the row of _OBS_BYTE / _OBS_MASK), so that a step needs few numpy operations.
_K_OF_KEY = ((np.arange(NUM_CALLS + 1)[None, :] * NUM_CALLS + _LB_OF[:, None]) * 4).reshape(-1)
_k = np.arange((NUM_CALLS + 1) * NUM_CALLS * 4)
_FN_OF_K = _FN_COL[_k % 4 & 1, _k // (NUM_CALLS * 4)]  # first-namer column of (call, caller)
# the observation byte offsets of every (k, observer) within a table's 4 x 60 packed bytes
_OBS_OFF = _OBS_BYTE + (np.arange(4) * _PACKED_BYTES)[None, :]
del _k
# contract of a finished state code: level (0 passed out), strain, doubled, and the row of the
# signed NS score table below
_LEVEL_OF = np.where(_LB_OF >= 3, (_LB_OF - 3) // 5 + 1, 0).astype(np.int8)
_STRAIN_OF = np.where(_LB_OF >= 3, (_LB_OF - 3) % 5, 0).astype(np.int8)
_DOUBLED_OF = _DBL_OF.astype(np.int8)
# [code]: row of the contract (bid, doubled) in :func:`_ns_score_table`
_SCORE_ROW_OF = np.maximum((_LB_OF - 3) * 3 + _DBL_OF, 0) * 8 * 14


class EnvError(BidlabError, ValueError):
    """The environment was given input it cannot use."""


class BatchError(EnvError):
    """An array passed to the environment has the wrong shape or dtype."""


class IllegalEnvCallError(EnvError):
    """A call passed to :meth:`AuctionEnv.step` is not legal on its table."""

    def __init__(self, message: str, *, board: int, call: int):
        self.board = board
        self.call = call
        super().__init__(message)


class FinishedBoardError(IllegalEnvCallError):
    """A call was passed for a table whose auction is over."""


@dataclass(frozen=True)
class EnvConfig:
    """Settings of :class:`AuctionEnv`.

    ``dealer``: a seat (``"N"``, 0..3), ``"random"``, or ``"board"`` (from the deal's number,
    deal index i is board i + 1). ``vulnerability``: ``"none"``, ``"ns"``, ``"ew"``, ``"both"``,
    ``"random"`` or ``"board"``. ``order``: ``"random"`` draws deals uniformly with replacement,
    ``"sequential"`` takes them in order (each once, then again from the start).
    """

    num_boards: int = 1024
    duplicate: bool = False
    dealer: str | int = "N"
    vulnerability: str | int = "none"
    auto_reset: bool = True
    order: str = "random"
    seed: int = 0

    @classmethod
    def qiu(cls, **kw) -> EnvConfig:
        """Qiu et al. Sec. IV: duplicate, North deals, nobody vulnerable."""
        return replace(cls(duplicate=True, dealer="N", vulnerability="none"), **kw)

    @classmethod
    def jps(cls, **kw) -> EnvConfig:
        """Tian et al. Sec. 7: duplicate, dealer and vulnerability uniformly random."""
        return replace(cls(duplicate=True, dealer="random", vulnerability="random"), **kw)


@dataclass(frozen=True)
class StepResult:
    """What happened in one :meth:`AuctionEnv.step`. Arrays have one row per table (``N``)
    or per pair (``B``, duplicate mode only; ``None`` otherwise).

    The contract fields describe tables whose auction ended in this step (``finished``);
    ``level`` 0 means passed out (``declarer`` -1, ``score`` 0). ``score`` is North-South's
    double-dummy score. ``imps`` is team 0's IMP result of each pair finished in this step,
    ``reward`` = imps / 24 (Qiu et al. Sec. IV).
    """

    finished: np.ndarray
    level: np.ndarray
    strain: np.ndarray
    doubled: np.ndarray
    declarer: np.ndarray
    tricks: np.ndarray
    score: np.ndarray
    pair_finished: np.ndarray | None = None
    imps: np.ndarray | None = None
    reward: np.ndarray | None = None


class AuctionEnv:
    """``N`` auction tables over numpy arrays; see the module docstring.

    ``deals``: ``uint8[n, 52]`` holders; ``dd``: ``uint8[n, 4, 5]`` double-dummy tricks by
    declarer N, E, S, W and strain C, D, H, S, NT (the deal store's format), or None for an
    unscored env that reports contracts only (``tricks`` -1, ``score`` 0), e.g. for a search
    that solves just the contracts its rollouts reach.
    """

    def __init__(self, deals: np.ndarray, dd: np.ndarray, config: EnvConfig | None = None, **overrides):
        cfg = replace(config or EnvConfig(), **overrides)
        self.config = cfg
        self._src_deals, self._src_dd = _check_source(deals, dd)
        if not isinstance(cfg.num_boards, int) or cfg.num_boards < 1:
            raise EnvError(f"num_boards must be a positive integer, got {cfg.num_boards!r}")
        if cfg.order not in ("random", "sequential"):
            raise EnvError(f"order must be 'random' or 'sequential', got {cfg.order!r}")
        if cfg.duplicate and self._src_dd is None:
            raise EnvError("duplicate mode scores pairs in IMPs and needs dd tables (dd=None given)")
        self._dealer_mode = _parse_dealer(cfg.dealer)
        self._vul_mode = _parse_vul(cfg.vulnerability)
        self.num_pairs = cfg.num_boards if cfg.duplicate else 0
        n = self.num_tables = cfg.num_boards * (2 if cfg.duplicate else 1)
        self._rng = np.random.default_rng(cfg.seed)
        self._cursor = 0
        self.store_ids: np.ndarray | None = None
        """Deal ids of the source deals when built by :meth:`from_store`."""

        self.table = (np.arange(n) >= cfg.num_boards).astype(np.int8) if cfg.duplicate \
            else np.zeros(n, np.int8)
        self.deal_index = np.zeros(n, np.int64)
        self.deals = np.zeros((n, 52), np.uint8)
        self.dealer = np.zeros(n, np.int8)
        self.vulnerability = np.zeros(n, np.int8)
        # one spare column so that a table that does not call can "write" NO_CALL at its length
        self.history = np.full((n, MAX_AUCTION_LENGTH + 1), NO_CALL, np.int8)
        self._hist_flat = self.history.reshape(-1)
        self._hist_base = np.arange(n) * (MAX_AUCTION_LENGTH + 1)
        self.length = np.zeros(n, np.int16)
        self.to_act = np.zeros(n, np.int16)
        # legal calls after a first column (always true) that lets NO_CALL pass the legality check
        self._legal_ext = np.zeros((n, NUM_CALLS + 1), bool)
        self._legal_flat = self._legal_ext.reshape(-1)
        self.legal = self._legal_ext[:, 1:]
        self.done = np.ones(n, bool)
        self.final_score = np.zeros(n, np.int32)
        """North-South DD score of each finished table (kept until the table is reset)."""
        self._s = np.zeros((n, _S_WIDTH), np.int16)
        self._s_flat = self._s.reshape(-1)
        self._s_base = np.arange(n) * _S_WIDTH + _S_FN
        self._declarer_now = self._s[:, _S_DECLARER]
        self._state = np.zeros(n, np.intp)  # auction state code, see _state_tables
        # every seat's observation, plus one spare element that absorbs masked-out writes
        self._bits_flat = np.zeros(n * 4 * _PACKED_BYTES, np.uint8)
        self._bits4 = self._bits_flat.reshape(n, 4, _PACKED_BYTES)
        self._bits_rows = self._bits4.reshape(n * 4, _PACKED_BYTES)
        self._bits_gather = np.empty((n, _PACKED_BYTES), np.uint8)
        self._all = np.arange(n)
        self._all4 = self._all * 4
        self._bits_base = (self._all * 4 * _PACKED_BYTES)[:, None]
        # the fresh packed observations of reset tables are assembled here, then copied in
        self._fresh = np.zeros((n, 4, _PACKED_BYTES), np.uint8)
        self._legal_base = self._all * (NUM_CALLS + 1)
        self._vul_byte = _vulnerability_bytes()
        self._src_hands = _packed_hands(self._src_deals)
        self._dd_flat = None if self._src_dd is None else self._src_dd.reshape(-1)
        self._ns_score = _ns_score_table()
        self._no_declarer = np.full(n, -1, np.int8)
        self.reset()

    # -- construction helpers ----------------------------------------------------------------

    @classmethod
    def from_store(cls, store=None, split: str = "train", config: EnvConfig | None = None,
                   **overrides) -> AuctionEnv:
        """An env over one split of a :mod:`bidlab.dd` deal store.

        ``store``: a :class:`bidlab.dd.DealStore`, a path to one, or None for the store
        shipped with bidlab. The env's ``deal_index`` then indexes ``env.store_ids``.
        """
        import bidlab.dd as dd_layer  # imported lazily: the env itself needs only arrays

        if store is None:
            store = dd_layer.shipped_store()
        elif not isinstance(store, dd_layer.DealStore):
            store = dd_layer.DealStore.open(store)
        batch = store.load(split)
        env = cls(batch.deals, batch.dd, config, **overrides)
        env.store_ids = batch.ids
        return env

    # -- episode control ---------------------------------------------------------------------

    def reset(self, deal_index=None, dealer=None, vulnerability=None) -> None:
        """Start a fresh auction on every table.

        Optional ``int[B]`` arrays choose the deal, dealer and vulnerability of each board
        (of each pair in duplicate mode: both tables get the same); otherwise they are drawn
        as the config says.
        """
        b = self.config.num_boards
        chosen = {}
        for name, arr, hi in (("deal_index", deal_index, len(self._src_deals) - 1),
                              ("dealer", dealer, 3), ("vulnerability", vulnerability, 3)):
            if arr is not None:
                a = np.asarray(arr)
                if a.shape != (b,) or not np.issubdtype(a.dtype, np.integer):
                    raise BatchError(f"{name} must be an integer array of shape ({b},), "
                                     f"got {a.dtype} {a.shape}")
                bad = np.flatnonzero((a < 0) | (a > hi))
                if bad.size:
                    raise BatchError(f"{name}[{bad[0]}] = {a[bad[0]]} is outside 0..{hi}")
                chosen[name] = a
        self._reset_boards(np.arange(b), **chosen)
        np.take(_LEGAL, self._state, axis=0, out=self._legal_ext, mode="clip")

    def _draw(self, k: int, deal_index=None, dealer=None, vulnerability=None):
        # one cheap generator call for everything random: a uniform draw over deal x dealer x
        # vulnerability (rng.integers with array bounds costs tens of microseconds)
        draw = (self._rng.random(k) * (len(self._src_deals) * 16)).astype(np.int64)
        if deal_index is None:
            if self.config.order == "random":
                deal_index = draw >> 4
            else:
                deal_index = (self._cursor + np.arange(k)) % len(self._src_deals)
                self._cursor = (self._cursor + k) % len(self._src_deals)
        if dealer is None:
            m = self._dealer_mode
            dealer = draw >> 2 & 3 if m == "random" else deal_index % 4 if m == "board" else np.full(k, m)
        if vulnerability is None:
            m = self._vul_mode
            vulnerability = draw & 3 if m == "random" else \
                _VUL_CYCLE[deal_index % 16] if m == "board" else np.full(k, m)
        return deal_index, dealer, vulnerability

    def _reset_boards(self, boards: np.ndarray, **chosen) -> None:
        """Reset boards (pairs in duplicate mode) with new deals."""
        di, de, vu = self._draw(len(boards), **chosen)
        if self.config.duplicate:
            rows = np.concatenate([boards, boards + self.config.num_boards])
            di, de, vu = np.tile(di, 2), np.tile(de, 2), np.tile(vu, 2)
        else:
            rows = boards
        self._reset_rows(rows, di, de, vu)

    def _reset_rows(self, rows, deal_index, dealer, vul) -> None:
        rows = np.asarray(rows, dtype=np.int64)
        self.deal_index[rows] = deal_index
        self.deals[rows] = self._src_deals[deal_index]
        self.dealer[rows] = dealer
        self.vulnerability[rows] = vul
        self.to_act[rows] = dealer
        self.length[rows] = 0
        self.history[rows] = NO_CALL
        self._s[rows] = _S_INIT
        self.final_score[rows] = 0
        self.done[rows] = False
        self._state[rows] = _INIT_STATE
        # every seat's observation: vulnerability and own cards
        # (assembled in a scratch block whose bytes 1..52 stay zero, then one row copy)
        fresh = self._fresh[:len(rows)]
        fresh[:, :, 0] = self._vul_byte[vul]
        fresh[:, :, _PACKED_HAND_BYTE:] = self._src_hands[deal_index]
        self._bits4[rows] = fresh

    # -- stepping ----------------------------------------------------------------------------

    def step(self, calls: np.ndarray) -> StepResult:
        """Apply ``calls[t]`` (a call id 0..37, or :data:`NO_CALL` to skip) on every table ``t``.

        Every update runs over all ``N`` rows through lookup tables rather than over the
        subset of acting rows: at N ~ 1000 a whole-array operation costs less than the fancy
        indexing needed to pick a subset, and each numpy call costs microseconds regardless.
        """
        n = self.num_tables
        c = np.asarray(calls)
        if c.shape != (n,):
            raise BatchError(f"calls must have shape ({n},) (one per table), got {c.shape}")
        if c.dtype.kind not in "iu":
            raise BatchError(f"calls must be an integer array, got dtype {c.dtype}")
        c1 = c.astype(np.intp) + 1  # row of the call in the lookup tables (NO_CALL -> 0)
        self._validate(c, c1)
        s = self.to_act
        state = self._state
        key = state * (NUM_CALLS + 1)
        key += c1

        self._hist_flat[self._hist_base + self.length] = c
        act = c1 > 0
        self.length += act
        # every seat's observation: at most one bit per observer (a call that sets none ORs 0)
        k = _K_OF_KEY[key]
        k += s
        byte = _OBS_OFF.take(k, axis=0)
        byte += self._bits_base
        self._bits_flat[byte] |= _OBS_MASK.take(k, axis=0)
        # first seat of each side to name each strain (the declarer rule); non-bids hit the sink
        fn_idx = _FN_OF_K[k]
        fn_idx += self._s_base
        first = self._s_flat[fn_idx]
        first = np.where(first < 0, s, first)
        self._s_flat[fn_idx] = first
        # after a bid, its first namer is the declarer should the auction end now
        np.copyto(self._declarer_now, first, where=c1 > 3)

        ended = _ENDS[key]
        _NEXT.take(key, out=state, mode="clip")
        s += act
        s &= 3

        result, finished_rows = self._finish(ended)
        if self.config.auto_reset:
            self._auto_reset(result, finished_rows)
        # after any reset, so that reset tables get their fresh masks here too
        _LEGAL.take(state, axis=0, out=self._legal_ext, mode="clip")
        return result

    def _validate(self, c: np.ndarray, c1: np.ndarray) -> None:
        # one unsigned max catches ids below NO_CALL (they wrap to huge values) and above 37
        if c1.size and c1.view(np.uintp).max() > NUM_CALLS:
            t = int(np.flatnonzero((c1 < 0) | (c1 > NUM_CALLS))[0])
            raise IllegalEnvCallError(f"board {t}: call id {int(c[t])} is not a call "
                                      f"(0..{NUM_CALLS - 1}, or {NO_CALL} for none)", board=t, call=int(c[t]))
        # NO_CALL maps to the always-true first column of the extended legal mask
        ok = self._legal_flat[self._legal_base + c1]
        if ok.all():
            return
        t = int(np.flatnonzero(~ok)[0])
        call = ALL_CALLS[int(c[t])]
        if self.done[t]:
            raise FinishedBoardError(f"board {t}: the auction is over, cannot call {call} "
                                     f"(pass {NO_CALL} for finished boards)", board=t, call=int(c[t]))
        legal = " ".join(str(x) for x in ALL_CALLS if self.legal[t, x.id])
        raise IllegalEnvCallError(f"board {t}: {call} is not legal after {self.auction(t)} "
                                  f"by {Seat(int(self.to_act[t])).letter} (legal: {legal})",
                                  board=t, call=int(c[t]))

    def random_calls(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal call for every live table (:data:`NO_CALL` for done ones).

        The legal set depends only on the auction state code, so each state's legal calls
        are listed once (:data:`_LEGAL_LIST`) and a draw is one index into that list.
        """
        state = self._state
        k = (rng.random(self.num_tables) * _LEGAL_COUNT[state]).astype(np.intp)
        k += _LEGAL_LIST_START[state]
        return _LEGAL_LIST[k]

    def replay(self, history: np.ndarray) -> list[StepResult]:
        """Apply recorded calls column by column: ``history[t, i]`` is table t's next i-th call,
        -1 once its calls run out (vectorized over tables, one :meth:`step` per column).

        With ``auto_reset`` a table that finishes is reset at once, so replay onto fresh
        tables (``reset``) with ``auto_reset=False`` when the end state matters.
        """
        h = np.asarray(history)
        if h.ndim != 2 or h.shape[0] != self.num_tables or not np.issubdtype(h.dtype, np.integer):
            raise BatchError(f"history must be an integer array of shape ({self.num_tables}, L), "
                             f"got {h.dtype}{list(h.shape)}")
        return [self.step(h[:, i]) for i in range(h.shape[1])]

    def _finish(self, ended: np.ndarray) -> tuple[StepResult, np.ndarray]:
        """Mark the ``ended`` tables done and score them: contract, declarer, DD tricks, NS score.
        Also returns the rows of the ``ended`` tables."""
        n = self.num_tables
        level = np.zeros(n, np.int8)
        strain = np.zeros(n, np.int8)
        doubled = np.zeros(n, np.int8)
        declarer = self._no_declarer.copy()
        tricks = np.zeros(n, np.int8)
        score = np.zeros(n, np.int32)
        r = rows = ended.nonzero()[0]
        if r.size:
            self.done[r] = True
            code = self._state[r]
            lv = _LEVEL_OF[code]
            if not lv.all():  # passed-out tables keep level 0, declarer -1, score 0
                played = lv > 0
                r, code, lv = r[played], code[played], lv[played]
            st = _STRAIN_OF[code]
            dec = self._declarer_now[r]
            if self._dd_flat is None:  # unscored env: tricks -1, score 0
                tr = np.full(len(r), -1, np.int8)
                ns = 0
            else:
                tr = self._dd_flat[self.deal_index[r] * 20 + dec * 5 + st]
                ns = self._ns_score[_SCORE_ROW_OF[code] + (self.vulnerability[r] * 2 + (dec & 1)) * 14 + tr]
            level[r], strain[r], doubled[r], declarer[r], tricks[r], score[r] = \
                lv, st, _DOUBLED_OF[code], dec, tr, ns
            self.final_score[r] = ns
        if not self.config.duplicate:
            return StepResult(ended, level, strain, doubled, declarer, tricks, score), rows
        b = self.config.num_boards
        pair_finished = self.done[:b] & self.done[b:] & (ended[:b] | ended[b:])
        imps = np.where(pair_finished, imps_array(self.final_score[:b] - self.final_score[b:]), 0).astype(np.int32)
        return StepResult(ended, level, strain, doubled, declarer, tricks, score,
                          pair_finished, imps, (imps / 24.0).astype(np.float32)), rows

    def _auto_reset(self, result: StepResult, finished_rows: np.ndarray) -> None:
        if self.config.duplicate:
            boards = result.pair_finished.nonzero()[0]
        else:
            boards = finished_rows
        if boards.size:
            self._reset_boards(boards)

    # -- observations ------------------------------------------------------------------------

    def observe(self, out: np.ndarray | None = None, seat: np.ndarray | None = None) -> np.ndarray:
        """openspiel480 of the player to act at every table (or of ``seat[t]``, any seat) into
        ``out`` (``float32[N, 480]``)."""
        n = self.num_tables
        if out is None:
            out = np.empty((n, OPENSPIEL480), np.float32)
        elif out.shape != (n, OPENSPIEL480) or out.dtype != np.float32:
            raise BatchError(f"out must be float32[{n}, {OPENSPIEL480}], got {out.dtype}{list(out.shape)}")
        if seat is None:
            seat = self.to_act
        else:
            seat = np.asarray(seat)
            if seat.shape != (n,) or not np.issubdtype(seat.dtype, np.integer) or \
                    (seat.size and (seat.min() < 0 or seat.max() > 3)):
                raise BatchError(f"seat must be an integer array of {n} seats 0..3")
        self._bits_rows.take(self._all4 + seat, axis=0, out=self._bits_gather, mode="clip")
        # unpack through a byte -> 8 floats table: one pass, written straight into out
        target = out if out.flags.c_contiguous else np.empty(out.shape, np.float32)
        _BYTE_TO_FLOATS.take(self._bits_gather.reshape(-1), axis=0, out=target.reshape(-1, 8), mode="clip")
        if target is not out:
            out[...] = target
        return out

    def observe_value636(self, out: np.ndarray | None = None) -> np.ndarray:
        """value636 (480 + LHO's, partner's and RHO's cards) of the player to act at every table."""
        n = self.num_tables
        if out is None:
            out = np.empty((n, VALUE636), np.float32)
        elif out.shape != (n, VALUE636) or out.dtype != np.float32:
            raise BatchError(f"out must be float32[{n}, {VALUE636}], got {out.dtype}{list(out.shape)}")
        self.observe(out=out[:, :OPENSPIEL480])  # a strided view: observe copies into it
        write_hidden_hands(out[:, OPENSPIEL480:], self.deals, self.to_act.astype(np.int64))
        return out

    def observe_jps267(self, out: np.ndarray | None = None) -> np.ndarray:
        """jps267 of the player to act at every table (from the call histories)."""
        width = max(int(self.length.max()), 1)
        return encode_jps267(self.deals, self.dealer, self.vulnerability, self.history[:, :width], out=out)

    # -- views -------------------------------------------------------------------------------

    @property
    def team_to_act(self) -> np.ndarray:
        """Team (0 or 1) controlling the player to act: ``(seat + table) mod 2``."""
        return (self.to_act + self.table) % 2

    def auction(self, t: int) -> Auction:
        """Table ``t``'s auction as a scalar :class:`~bidlab.bridge.Auction`."""
        return Auction(Seat(int(self.dealer[t])), [Call(int(x)) for x in self.history[t, :self.length[t]]])


@lru_cache(maxsize=1)
def _ns_score_table() -> np.ndarray:
    """``int32[105 contracts * 4 vulnerabilities * 2 declarer sides * 14 tricks]``:
    North-South's score, contract = bid (0..34) * 3 + doubled, from :func:`score_table`."""
    t = score_table()  # [level - 1, strain, doubled, declarer vulnerable, tricks]
    out = np.zeros((35, 3, 4, 2, 14), np.int32)
    for v in range(4):
        for side in range(2):
            sign = -1 if side else 1
            out[:, :, v, side] = sign * t[:, :, :, int(VULNERABLE[v, side])].reshape(35, 3, 14)
    out.setflags(write=False)
    return out.reshape(-1)


def _vulnerability_bytes() -> np.ndarray:
    """``uint8[4 vul, 4 seat]``: the first packed byte of each seat's observation (the four
    vulnerability values, then four zero opening-pass bits)."""
    out = np.zeros((4, 4), np.uint8)
    for v in range(4):
        for seat in range(4):
            we, they = VULNERABLE[v, seat % 2], VULNERABLE[v, 1 - seat % 2]
            out[v, seat] = np.packbits([not we, we, not they, they, 0, 0, 0, 0])[0]
    return out


def _packed_hands(deals: np.ndarray) -> np.ndarray:
    """``uint8[n, 4, 7]``: bytes 53..59 of each seat's packed observation holding only its
    hand (4 zero bits, then the 52 cards in OpenSpiel's order)."""
    hands = np.zeros((len(deals), 4, 56), bool)
    for seat in range(4):
        hands[:, seat, 4 + OPENSPIEL_CARD] = deals == seat
    return np.packbits(hands, axis=2)


def _check_source(deals, dd):
    deals = np.asarray(deals)
    if deals.ndim != 2 or deals.shape[1] != 52 or len(deals) == 0:
        raise BatchError(f"deals must be uint8[n, 52] with n >= 1, got {deals.dtype}{list(deals.shape)}")
    if dd is None:  # unscored: contracts only (a search solves the contracts it reaches itself)
        _check_deals(deals)
        return deals.astype(np.uint8, copy=False), None
    dd = np.asarray(dd)
    if dd.shape != (len(deals), 4, 5):
        raise BatchError(f"dd must have shape ({len(deals)}, 4, 5) to match deals, got {dd.shape}")
    if not np.issubdtype(deals.dtype, np.integer) or not np.issubdtype(dd.dtype, np.integer):
        raise BatchError(f"deals and dd must be integer arrays, got {deals.dtype} and {dd.dtype}")
    _check_deals(deals)
    bad = np.flatnonzero(((dd < 0) | (dd > 13)).reshape(len(dd), -1).any(axis=1))
    if bad.size:
        raise BatchError(f"dd[{bad[0]}] has trick counts outside 0..13")
    return deals.astype(np.uint8, copy=False), dd.astype(np.uint8, copy=False)


def _check_deals(deals: np.ndarray) -> None:
    if not np.issubdtype(deals.dtype, np.integer):
        raise BatchError(f"deals must be an integer array, got {deals.dtype}")
    counts = np.stack([(deals == s).sum(axis=1) for s in range(4)], axis=1)
    bad = np.flatnonzero((counts != 13).any(axis=1))
    if bad.size:
        raise BatchError(f"deals[{bad[0]}] is not a deal: seats hold {counts[bad[0]].tolist()} cards")


def _parse_dealer(d):
    if d in ("random", "board"):
        return d
    try:
        return int(Seat.parse(d))
    except BidlabError:
        raise EnvError(f"dealer must be a seat, 'random' or 'board', got {d!r}") from None


def _parse_vul(v):
    if v in ("random", "board"):
        return v
    from bidlab.bridge.board import Vulnerability

    try:
        return int(Vulnerability.parse(v))
    except BidlabError:
        raise EnvError(f"vulnerability must be None/NS/EW/All, 'random' or 'board', got {v!r}") from None
