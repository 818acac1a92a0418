"""A vectorized bridge-auction environment: many tables stepped at once over numpy arrays.

Every table's state lives in one row of preallocated arrays (deal, dealer, vulnerability,
call history, player to act, legal mask, done flag), and :meth:`AuctionEnv.step` applies one
call to every table in a handful of numpy operations, with no Python loop over tables. The
openspiel480 observation of every seat is kept up to date incrementally (each call sets at
most one value per observer), so :meth:`AuctionEnv.observe` is a single gather.

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

import numpy as np

from bidlab.bridge.auction import Auction
from bidlab.bridge.calls import ALL_CALLS, NUM_CALLS, Call
from bidlab.bridge.features import (
    BID_BLOCK,
    BIDS_OFFSET,
    HAND_OFFSET,
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
_BID_IDS = np.arange(3, NUM_CALLS, dtype=np.int16)
_HAND_COLS = HAND_OFFSET + OPENSPIEL_CARD
_SEATS = np.arange(4, dtype=np.int64)


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
    declarer N, E, S, W and strain C, D, H, S, NT (the deal store's format).
    """

    def __init__(self, deals: np.ndarray, dd: np.ndarray, config: EnvConfig | None = None, **overrides):
        cfg = replace(config or EnvConfig(), **overrides)
        self.config = cfg
        self._src_deals, self._src_dd = _check_source(deals, dd)
        if not isinstance(cfg.num_boards, int) or cfg.num_boards < 1:
            raise EnvError(f"num_boards must be a positive integer, got {cfg.num_boards!r}")
        if cfg.order not in ("random", "sequential"):
            raise EnvError(f"order must be 'random' or 'sequential', got {cfg.order!r}")
        self._dealer_mode = _parse_dealer(cfg.dealer)
        self._vul_mode = _parse_vul(cfg.vulnerability)
        self.num_pairs = cfg.num_boards if cfg.duplicate else 0
        n = self.num_tables = cfg.num_boards * (2 if cfg.duplicate else 1)
        self._rng = np.random.default_rng(cfg.seed)
        self._cursor = 0

        self.table = (np.arange(n) >= cfg.num_boards).astype(np.int8) if cfg.duplicate \
            else np.zeros(n, np.int8)
        self.deal_index = np.zeros(n, np.int64)
        self.deals = np.zeros((n, 52), np.uint8)
        self.dealer = np.zeros(n, np.int8)
        self.vulnerability = np.zeros(n, np.int8)
        self.history = np.full((n, MAX_AUCTION_LENGTH), NO_CALL, np.int8)
        self.length = np.zeros(n, np.int16)
        self.to_act = np.zeros(n, np.int8)
        self.legal = np.zeros((n, NUM_CALLS), bool)
        self.done = np.ones(n, bool)
        self.final_score = np.zeros(n, np.int32)
        """North-South DD score of each finished table (kept until the table is reset)."""
        self._last_bid = np.zeros(n, np.int16)  # call id of the last bid, 0 before any bid
        self._last_bidder = np.zeros(n, np.int8)
        self._doubled = np.zeros(n, np.int8)
        self._passes = np.zeros(n, np.int8)
        self._first_namer = np.full((n, 2, 5), -1, np.int8)  # [table, side, strain] -> seat
        # every seat's observation, plus one spare element that absorbs masked-out writes
        self._obs_buf = np.zeros(n * 4 * OPENSPIEL480 + 1, np.float32)
        self._obs_sink = n * 4 * OPENSPIEL480
        self._obs4 = self._obs_buf[:-1].reshape(n, 4, OPENSPIEL480)
        self._obs_flat = self._obs_buf
        self._obs_rows = self._obs4.reshape(n * 4, OPENSPIEL480)
        self._all = np.arange(n)
        self._all4 = (self._all * 4)[:, None]
        self._fn_flat = self._first_namer.reshape(-1)
        self.reset()

    # -- construction helpers ----------------------------------------------------------------

    @classmethod
    def from_store(cls, store, split: str = "train", config: EnvConfig | None = None, **overrides) -> AuctionEnv:
        """An env over the deals of a :mod:`bidlab.dd` deal store (a path or an opened store)."""
        from bidlab.dd import store as dd_store  # the store is a separate layer, load it lazily

        s = dd_store.DealStore.open(store) if not hasattr(store, "load") else store
        data = s.load(split)
        deals, dd = (data["deals"], data["dd"]) if isinstance(data, dict) else (data[0], data[1])
        return cls(deals, dd, config, **overrides)

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

    def _draw(self, k: int, deal_index=None, dealer=None, vulnerability=None):
        if deal_index is None:
            if self.config.order == "random":
                deal_index = self._rng.integers(len(self._src_deals), size=k)
            else:
                deal_index = (self._cursor + np.arange(k)) % len(self._src_deals)
                self._cursor = (self._cursor + k) % len(self._src_deals)
        if dealer is None:
            m = self._dealer_mode
            dealer = self._rng.integers(4, size=k) if m == "random" else \
                deal_index % 4 if m == "board" else np.full(k, m)
        if vulnerability is None:
            m = self._vul_mode
            vulnerability = self._rng.integers(4, size=k) if m == "random" else \
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
        self.deal_index[rows] = deal_index
        deals = self._src_deals[deal_index]
        self.deals[rows] = deals
        self.dealer[rows] = dealer
        self.vulnerability[rows] = vul
        self.history[rows] = NO_CALL
        self.length[rows] = 0
        self.to_act[rows] = dealer
        self._last_bid[rows] = 0
        self._last_bidder[rows] = 0
        self._doubled[rows] = 0
        self._passes[rows] = 0
        self._first_namer[rows] = -1
        self.final_score[rows] = 0
        self.done[rows] = False
        self.legal[rows] = True
        self.legal[rows, 1:3] = False  # nothing to double yet
        # every seat's observation: vulnerability, own cards (set by flat index: the slow part
        # of a reset is otherwise a broadcast over all four seats)
        rows = np.asarray(rows, dtype=np.int64)
        self._obs4[rows] = 0
        seats = np.arange(4)
        vul = np.asarray(vul, dtype=np.int64)
        we = VULNERABLE[vul[:, None], seats[None, :] % 2]  # [k, 4]
        they = VULNERABLE[vul[:, None], 1 - seats[None, :] % 2]
        row_base = (rows[:, None] * 4 + seats[None, :]) * OPENSPIEL480  # [k, 4]
        flat = self._obs_flat
        flat[(row_base + we).ravel()] = 1.0
        flat[(row_base + 2 + they).ravel()] = 1.0
        flat[((rows[:, None] * 4 + deals) * OPENSPIEL480 + _HAND_COLS[None, :]).ravel()] = 1.0

    # -- stepping ----------------------------------------------------------------------------

    def step(self, calls: np.ndarray) -> StepResult:
        """Apply ``calls[t]`` (a call id 0..37, or :data:`NO_CALL` to skip) on every table ``t``.

        Every update below runs over all ``N`` rows with masks rather than over the subset of
        acting rows: at N ~ 1000 a whole-array operation costs less than the fancy indexing
        needed to pick the subset.
        """
        n = self.num_tables
        c = np.asarray(calls)
        if c.shape != (n,):
            raise BatchError(f"calls must have shape ({n},) (one per table), got {c.shape}")
        if not np.issubdtype(c.dtype, np.integer):
            raise BatchError(f"calls must be an integer array, got dtype {c.dtype}")
        self._validate(c)
        c = c.astype(np.int16)
        act = c >= 0
        s = self.to_act.copy()

        self.history[self._all, np.minimum(self.length, MAX_AUCTION_LENGTH - 1)] = np.where(
            act, c, self.history[self._all, np.minimum(self.length, MAX_AUCTION_LENGTH - 1)])
        self.length += act
        is_bid = act & (c >= 3)
        np.copyto(self._last_bid, c, where=is_bid)
        np.copyto(self._last_bidder, s, where=is_bid)
        # first seat of each side to name each strain (declarer rule, Law 53)
        fn_idx = self._all * 10 + (s % 2) * 5 + np.where(is_bid, (c - 3) % 5, 0)
        first = self._fn_flat[fn_idx]
        self._fn_flat[fn_idx] = np.where(is_bid & (first < 0), s, first)
        np.copyto(self._doubled, 0, where=is_bid)
        np.copyto(self._doubled, c, where=act & ((c == 1) | (c == 2)))
        passes = np.where(act, np.where(c == 0, self._passes + 1, 0), self._passes)
        self._passes[:] = passes
        lb = self._last_bid
        ended = act & np.where(lb == 0, passes >= 4, passes >= 3)
        nxt = np.where(act, (s + 1) % 4, s).astype(np.int8)
        self.to_act[:] = nxt

        # incremental observations: one value per observer for every call except a pass after
        # a bid; rows that write nothing point at a spare element past the end of the buffer
        lbx = lb.astype(np.int64) - 3
        base = np.where(c >= 3, BIDS_OFFSET + (c.astype(np.int64) - 3) * BID_BLOCK,
                        np.where(c == 1, BIDS_OFFSET + lbx * BID_BLOCK + 4,
                                 np.where(c == 2, BIDS_OFFSET + lbx * BID_BLOCK + 8,
                                          np.where(lb == 0, OPENING_PASS_OFFSET, -1))))
        rel = (s[:, None].astype(np.int64) - _SEATS[None, :]) % 4
        flat = (self._all4 + _SEATS[None, :]) * OPENSPIEL480 + base[:, None] + rel
        flat[~(act & (base >= 0))] = self._obs_sink
        self._obs_buf[flat] = 1.0

        # legal calls of the next player, recomputed from the state (unchanged rows stay the same)
        live = ~(self.done | ended)
        same_side = (self._last_bidder % 2) == (nxt % 2)
        dbl = self._doubled
        legal = self.legal
        legal[:, 0] = live
        legal[:, 1] = live & (lb > 0) & ~same_side & (dbl == 0)
        legal[:, 2] = live & (dbl == 1) & same_side
        np.greater(_BID_IDS[None, :], lb[:, None], out=legal[:, 3:])
        legal[:, 3:] &= live[:, None]

        result = self._finish(np.flatnonzero(ended))
        if self.config.auto_reset:
            self._auto_reset(result)
        return result

    def random_calls(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal call for every live table (:data:`NO_CALL` for done ones).

        Uses the structure of the legal set (Pass, maybe X or XX, then every bid above the
        last one) to draw in O(N) instead of over all 38 calls.
        """
        lb = self._last_bid.astype(np.int64)
        x = self.legal[:, 1].astype(np.int64)
        xx = self.legal[:, 2].astype(np.int64)
        n_bids = np.where(lb == 0, 35, 37 - lb)
        count = 1 + x + xx + n_bids
        k = (rng.random(self.num_tables) * count).astype(np.int64)
        first_bid = np.where(lb == 0, 3, lb + 1)
        call = np.where(k == 0, 0, np.where(k <= x + xx, np.where(x == 1, 1, 2), first_bid + k - 1 - x - xx))
        return np.where(self.done, NO_CALL, call)

    def _validate(self, c_all: np.ndarray) -> None:
        bad = np.flatnonzero((c_all < NO_CALL) | (c_all >= NUM_CALLS))
        if bad.size:
            t = int(bad[0])
            raise IllegalEnvCallError(f"board {t}: call id {int(c_all[t])} is not a call "
                                      f"(0..{NUM_CALLS - 1}, or {NO_CALL} for none)", board=t, call=int(c_all[t]))
        acting = c_all >= 0
        finished = np.flatnonzero(acting & self.done)
        if finished.size:
            t = int(finished[0])
            raise FinishedBoardError(f"board {t}: the auction is over, cannot call {ALL_CALLS[c_all[t]]} "
                                     f"(pass {NO_CALL} for finished boards)", board=t, call=int(c_all[t]))
        ok = self.legal[self._all, np.where(acting, c_all, 0)] | ~acting
        if not ok.all():
            t = int(np.flatnonzero(~ok)[0])
            call = ALL_CALLS[c_all[t]]
            legal = " ".join(str(x) for x in ALL_CALLS if self.legal[t, x.id])
            raise IllegalEnvCallError(f"board {t}: {call} is not legal after {self.auction(t)} "
                                      f"by {Seat(int(self.to_act[t])).letter} (legal: {legal})",
                                      board=t, call=int(c_all[t]))

    def _finish(self, rows: np.ndarray) -> StepResult:
        n = self.num_tables
        finished = np.zeros(n, bool)
        finished[rows] = True
        level = np.zeros(n, np.int8)
        strain = np.zeros(n, np.int8)
        doubled = np.zeros(n, np.int8)
        declarer = np.full(n, -1, np.int8)
        tricks = np.zeros(n, np.int8)
        score = np.zeros(n, np.int32)
        self.done[rows] = True
        lb = self._last_bid[rows].astype(np.int64)
        played = lb > 0
        r = rows[played]
        lbp = lb[played] - 3
        lv, st = lbp // 5 + 1, lbp % 5
        dec = self._first_namer[r, self._last_bidder[r] % 2, st].astype(np.int64)
        tr = self._src_dd[self.deal_index[r], dec, st].astype(np.int64)
        dbl = self._doubled[r].astype(np.int64)
        vul = VULNERABLE[self.vulnerability[r], dec % 2].astype(np.int64)
        pts = score_table()[lv - 1, st, dbl, vul, tr]
        ns = np.where(dec % 2 == 0, pts, -pts)
        level[r], strain[r], doubled[r], declarer[r], tricks[r], score[r] = lv, st, dbl, dec, tr, ns
        self.final_score[r] = ns
        if not self.config.duplicate:
            return StepResult(finished, level, strain, doubled, declarer, tricks, score)
        b = self.config.num_boards
        pair_finished = self.done[:b] & self.done[b:] & (finished[:b] | finished[b:])
        imps = np.where(pair_finished, imps_array(self.final_score[:b] - self.final_score[b:]), 0).astype(np.int32)
        return StepResult(finished, level, strain, doubled, declarer, tricks, score,
                          pair_finished, imps, (imps / 24.0).astype(np.float32))

    def _auto_reset(self, result: StepResult) -> None:
        if self.config.duplicate:
            boards = np.flatnonzero(result.pair_finished)
        else:
            boards = np.flatnonzero(result.finished)
        if boards.size:
            self._reset_boards(boards)

    # -- observations ------------------------------------------------------------------------

    def observe(self, out: np.ndarray | None = None) -> np.ndarray:
        """openspiel480 of the player to act at every table, into ``out`` (``float32[N, 480]``)."""
        n = self.num_tables
        if out is None:
            out = np.empty((n, OPENSPIEL480), np.float32)
        elif out.shape != (n, OPENSPIEL480) or out.dtype != np.float32:
            raise BatchError(f"out must be float32[{n}, {OPENSPIEL480}], got {out.dtype}{list(out.shape)}")
        idx = self._all * 4 + self.to_act
        np.take(self._obs_rows, idx, axis=0, out=out, mode="clip")  # 'raise' would buffer out
        return out

    def observe_value636(self, out: np.ndarray | None = None) -> np.ndarray:
        """value636 (480 + LHO's, partner's and RHO's cards) of the player to act at every table."""
        n = self.num_tables
        if out is None:
            out = np.empty((n, VALUE636), np.float32)
        elif out.shape != (n, VALUE636) or out.dtype != np.float32:
            raise BatchError(f"out must be float32[{n}, {VALUE636}], got {out.dtype}{list(out.shape)}")
        out[:, :OPENSPIEL480] = self._obs_rows[self._all * 4 + self.to_act]
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


def _check_source(deals, dd):
    deals = np.asarray(deals)
    dd = np.asarray(dd)
    if deals.ndim != 2 or deals.shape[1] != 52 or len(deals) == 0:
        raise BatchError(f"deals must be uint8[n, 52] with n >= 1, got {deals.dtype}{list(deals.shape)}")
    if dd.shape != (len(deals), 4, 5):
        raise BatchError(f"dd must have shape ({len(deals)}, 4, 5) to match deals, got {dd.shape}")
    if not np.issubdtype(deals.dtype, np.integer) or not np.issubdtype(dd.dtype, np.integer):
        raise BatchError(f"deals and dd must be integer arrays, got {deals.dtype} and {dd.dtype}")
    counts = np.stack([(deals == s).sum(axis=1) for s in range(4)], axis=1)
    bad = np.flatnonzero((counts != 13).any(axis=1))
    if bad.size:
        raise BatchError(f"deals[{bad[0]}] is not a deal: seats hold {counts[bad[0]].tolist()} cards")
    bad = np.flatnonzero(((dd < 0) | (dd > 13)).reshape(len(dd), -1).any(axis=1))
    if bad.size:
        raise BatchError(f"dd[{bad[0]}] has trick counts outside 0..13")
    return deals.astype(np.uint8, copy=False), dd.astype(np.uint8, copy=False)


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
