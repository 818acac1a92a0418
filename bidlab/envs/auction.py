"""A vectorized bridge-auction environment: many tables stepped at once over numpy arrays.

The tables live in one :class:`~bidlab.envs.state.AuctionState` (plain arrays, stepped by
the pure functions of :mod:`bidlab.envs.state`); the env adds what training needs on top:
drawing deals from a store, dealer and vulnerability modes, duplicate pairing with IMP
rewards from double-dummy tables, and automatic re-dealing.

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

import bidlab.dd as dd_layer
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.features import VALUE636, encode_jps267
from bidlab.bridge.rules import LEGAL, OVER
from bidlab.cards import Seat
from bidlab.envs import state as st
from bidlab.envs.scoring import dd_tricks, imps_array, ns_scores
from bidlab.envs.state import (
    MAX_AUCTION_LENGTH,
    NO_CALL,
    FinishedTableError,
    IllegalCallInBatchError,
    StateError,
    check_deals,
)
from bidlab.errors import BidlabError

__all__ = ["MAX_AUCTION_LENGTH", "NO_CALL", "AuctionEnv", "BatchError", "EnvConfig", "EnvError",
           "FinishedBoardError", "IllegalEnvCallError", "StepResult"]

# Vulnerability of boards 1..16 (standard cycle), as Vulnerability ids.
_VUL_CYCLE = np.array([0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2], dtype=np.int8)


class EnvError(BidlabError, ValueError):
    """The environment was given input it cannot use."""


class BatchError(EnvError):
    """An array passed to the environment has the wrong shape or dtype."""


IllegalEnvCallError = IllegalCallInBatchError
FinishedBoardError = FinishedTableError


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

    The table arrays (``deals``, ``dealer``, ``vulnerability``, ``history``, ``length``,
    ``to_act``) are those of :attr:`state`, updated in place, so references stay current.
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
        self.state = st.init(np.tile(self._src_deals[:1], (n, 1)))
        self.deals = self.state.deals
        self.dealer = self.state.dealer
        self.vulnerability = self.state.vulnerability
        self.history = self.state.history
        self.length = self.state.length
        self.to_act = self.state.to_act
        self.legal = np.zeros((n, 38), bool)
        """Legal calls of the player to act (all false on finished tables)."""
        self.done = np.ones(n, bool)
        self.final_score = np.zeros(n, np.int32)
        """North-South DD score of each finished table (kept until the table is reset)."""
        self.reset()

    # -- construction helpers ----------------------------------------------------------------

    @classmethod
    def from_store(cls, store=None, split: str = "train", config: EnvConfig | None = None,
                   **overrides) -> AuctionEnv:
        """An env over one split of a :mod:`bidlab.dd` deal store.

        ``store``: a :class:`bidlab.dd.DealStore`, a path to one, or None for the store
        shipped with bidlab. The env's ``deal_index`` then indexes ``env.store_ids``.
        """
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
        self._refresh()

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
        self.deal_index[rows] = di
        self.final_score[rows] = 0
        st.reset_rows(self.state, rows, self._src_deals[di], de, vu)
        self.done[rows] = False

    # -- stepping ----------------------------------------------------------------------------

    def step(self, calls: np.ndarray) -> StepResult:
        """Apply ``calls[t]`` (a call id 0..37, or :data:`NO_CALL` to skip) on every table ``t``."""
        c = np.asarray(calls)
        if c.shape != (self.num_tables,):
            raise BatchError(f"calls must have shape ({self.num_tables},) (one per table), got {c.shape}")
        if c.dtype.kind not in "iu":
            raise BatchError(f"calls must be an integer array, got dtype {c.dtype}")
        ended = st.step_(self.state, c)
        result, finished_rows = self._finish(ended)
        if self.config.auto_reset:
            self._auto_reset(result, finished_rows)
        # after any reset, so that reset tables get their fresh masks here too
        self._refresh()
        return result

    def _refresh(self) -> None:
        np.copyto(self.legal, LEGAL[self.state.code, 1:])
        np.copyto(self.done, OVER[self.state.code])

    def random_calls(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal call for every live table (:data:`NO_CALL` for done ones)."""
        return st.random_calls(self.state, rng)

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
        """Score the ``ended`` tables: contract, declarer, DD tricks, NS score.
        Also returns the rows of the ``ended`` tables."""
        n = self.num_tables
        level = np.zeros(n, np.int8)
        strain = np.zeros(n, np.int8)
        doubled = np.zeros(n, np.int8)
        declarer = np.full(n, -1, np.int8)
        tricks = np.zeros(n, np.int8)
        score = np.zeros(n, np.int32)
        rows = ended.nonzero()[0]
        if rows.size:
            c = st.contracts(self.state.take(rows))
            tr, ns = self._dd_scores(rows, c)
            level[rows], strain[rows], doubled[rows], declarer[rows], tricks[rows], score[rows] = \
                c.level, c.strain, c.doubled, c.declarer, tr, ns
            self.final_score[rows] = ns
        if not self.config.duplicate:
            return StepResult(ended, level, strain, doubled, declarer, tricks, score), rows
        b = self.config.num_boards
        done = OVER[self.state.code]
        pair_finished = done[:b] & done[b:] & (ended[:b] | ended[b:])
        imps = np.where(pair_finished, imps_array(self.final_score[:b] - self.final_score[b:]), 0).astype(np.int32)
        return StepResult(ended, level, strain, doubled, declarer, tricks, score,
                          pair_finished, imps, (imps / 24.0).astype(np.float32)), rows

    def _dd_scores(self, rows: np.ndarray, c: st.Contracts) -> tuple[np.ndarray, np.ndarray]:
        """DD tricks and North-South score of contracts ``c`` on tables ``rows`` (passed out: 0)."""
        played = c.level > 0
        if self._src_dd is None:  # unscored env: tricks -1, score 0
            return np.where(played, -1, 0).astype(np.int8), np.zeros(len(rows), np.int32)
        tr = dd_tricks(self._src_dd[self.deal_index[rows]], c.declarer, c.strain)
        ns = ns_scores(c.level, c.strain, c.doubled, c.declarer, tr, self.vulnerability[rows])
        return np.where(played, tr, 0).astype(np.int8), ns

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
        try:
            return st.observe(self.state, out=out, seat=seat)
        except StateError as e:
            raise BatchError(str(e)) from None

    def observe_value636(self, out: np.ndarray | None = None) -> np.ndarray:
        """value636 (480 + LHO's, partner's and RHO's cards) of the player to act at every table."""
        n = self.num_tables
        if out is not None and (out.shape != (n, VALUE636) or out.dtype != np.float32):
            raise BatchError(f"out must be float32[{n}, {VALUE636}], got {out.dtype}{list(out.shape)}")
        return st.observe636(self.state, out=out)

    def observe_jps267(self, out: np.ndarray | None = None) -> np.ndarray:
        """jps267 of the player to act at every table (from the call histories)."""
        width = max(int(self.length.max()), 1)
        return encode_jps267(self.deals, self.dealer, self.vulnerability, self.history[:, :width], out=out)

    # -- views -------------------------------------------------------------------------------

    @property
    def team_to_act(self) -> np.ndarray:
        """Team (0 or 1) controlling the player to act: ``(seat + table) mod 2``."""
        return (self.to_act + self.table) % 2

    def auction(self, t: int):
        """Table ``t``'s auction as a scalar :class:`~bidlab.bridge.Auction`."""
        return self.state.auction(t)




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
    try:
        check_deals(deals)
    except StateError as e:
        raise BatchError(str(e)) from None


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
    try:
        return int(Vulnerability.parse(v))
    except BidlabError:
        raise EnvError(f"vulnerability must be None/NS/EW/All, 'random' or 'board', got {v!r}") from None
