"""Double-dummy solving through DDS (bundled in endplay): full tables and single contracts.

Both entry points take deals as ``uint8[n, 52]`` holder arrays (the store's format) and
fill DDS's C structures straight from numpy, with no per-deal Python objects: that is
what makes the batched path as fast as endplay's own ``calc_all_tables`` loop.

DDS limits one ``CalcAllTables`` call to 200 (deal x strain) tables (40 full deals) and
one ``SolveAllBoardsBin`` call to 200 boards; both spread a call over all the threads
DDS was given (:func:`set_threads`; by default every core).

The buffers below write into endplay's private ``endplay._dds`` ctypes structures by
offset, so they depend on that version's layout: importing endplay through :func:`_dds`
checks the installed version against :data:`ENDPLAY_VERSIONS` and the structures' sizes,
and refuses another version with a clear :class:`SolverError` instead of corrupting memory.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Sequence
from functools import cache
from importlib import metadata

import numpy as np

from bidlab.cards import Deal
from bidlab.dd.convert import DDS_STRAIN, dds_tables_to_bidlab, holders_to_dds_hands
from bidlab.errors import BidlabError, DealError
from bidlab.runtime.progress import ProgressTask

#: Most (deal x strain) tables one CalcAllTables call accepts.
MAX_TABLES_PER_CALL = 200
#: Most boards one SolveAllBoardsBin call accepts.
MAX_BOARDS_PER_CALL = 200
#: Full (5-strain) deals per CalcAllTables call.
DEALS_PER_TABLE_CALL = MAX_TABLES_PER_CALL // 5

# DDS keeps per-thread scratch memory; two Python threads calling it at once would share it.
_lock = threading.Lock()


class SolverError(BidlabError):
    """DDS rejected its input or failed."""


#: endplay versions whose private ``_dds`` structure layout this module was written for.
ENDPLAY_VERSIONS = ("0.5.12",)


def _installed_endplay_version() -> str:
    try:
        return metadata.version("endplay")
    except metadata.PackageNotFoundError:
        raise SolverError("endplay is not installed; bidlab solves double dummy through it "
                          f"(pip install endplay=={ENDPLAY_VERSIONS[-1]})") from None


def check_endplay_version(version: str | None = None) -> str:
    """The installed endplay version, or :class:`SolverError` if this module was not written for it."""
    version = _installed_endplay_version() if version is None else version
    if version not in ENDPLAY_VERSIONS:
        raise SolverError(
            f"endplay {version} is installed, but bidlab's DDS batching fills endplay's private _dds "
            f"structures as laid out in endplay {', '.join(ENDPLAY_VERSIONS)}; "
            f"install that version (pip install endplay=={ENDPLAY_VERSIONS[-1]})")
    return version


def _check_layout(dds) -> None:
    """The structure sizes the buffers below assume (a second guard beside the version)."""
    i = ctypes.sizeof(ctypes.c_int)
    expected = {
        "ddTableDeals": i + dds.MAXNOOFTABLES * 5 * 16 * 4,
        "ddTablesRes": i + dds.MAXNOOFTABLES * 5 * 20 * 4,
        "boards": i + dds.MAXNOOFBOARDS * (_BoardBuffers._DEAL_WORDS + 3) * 4,
        "solvedBoards": i + dds.MAXNOOFBOARDS * _BoardBuffers._FUT_WORDS * 4,
    }
    for name, size in expected.items():
        if ctypes.sizeof(getattr(dds, name)) != size:
            raise SolverError(f"endplay's _dds.{name} is {ctypes.sizeof(getattr(dds, name))} bytes, not the "
                              f"{size} bidlab was written for; install endplay=={ENDPLAY_VERSIONS[-1]}")


@cache
def _dds():
    check_endplay_version()  # before loading: a wrong layout would write outside the buffers
    import endplay._dds as dds  # imported lazily: loading libdds takes a moment

    _check_layout(dds)
    return dds


class _TableBuffers:
    """Preallocated DDS input/output structures for CalcAllTables, viewed as numpy arrays."""

    def __init__(self):
        dds = _dds()
        self.deals = dds.ddTableDeals()
        self.res = dds.ddTablesRes()
        self.par = dds.allParResults()
        n = dds.MAXNOOFTABLES * 5  # the structures' capacity, whatever chunk size callers use
        self.cards = np.ctypeslib.as_array(
            (ctypes.c_uint32 * (n * 16)).from_buffer(self.deals, ctypes.sizeof(ctypes.c_int))
        ).reshape(n, 4, 4)
        self.tables = np.ctypeslib.as_array(
            (ctypes.c_int32 * (n * 20)).from_buffer(self.res, ctypes.sizeof(ctypes.c_int))
        ).reshape(n, 5, 4)


class _BoardBuffers:
    """Preallocated DDS structures for SolveAllBoardsBin, viewed as numpy arrays."""

    # struct deal = trump, first, currentTrickSuit[3], currentTrickRank[3], remainCards[4][4]
    _DEAL_WORDS = 2 + 3 + 3 + 16
    # struct futureTricks = nodes, cards, suit[13], rank[13], equals[13], score[13]
    _FUT_WORDS = 2 + 4 * 13

    def __init__(self):
        dds = _dds()
        n = dds.MAXNOOFBOARDS
        self.boards = dds.boards()
        self.solved = dds.solvedBoards()
        words = np.ctypeslib.as_array(
            (ctypes.c_int32 * (1 + n * (self._DEAL_WORDS + 3))).from_buffer(self.boards)
        )
        self.deal_words = words[1:1 + n * self._DEAL_WORDS].reshape(n, self._DEAL_WORDS)
        self.cards = self.deal_words[:, 8:].view(np.uint32).reshape(n, 4, 4)
        tail = words[1 + n * self._DEAL_WORDS:]
        self.target, self.solutions, self.mode = tail[:n], tail[n:2 * n], tail[2 * n:3 * n]
        out = np.ctypeslib.as_array(
            (ctypes.c_int32 * (1 + n * self._FUT_WORDS)).from_buffer(self.solved)
        )
        self.fut = out[1:].reshape(n, self._FUT_WORDS)


@cache
def _table_buffers() -> _TableBuffers:
    return _TableBuffers()


@cache
def _board_buffers() -> _BoardBuffers:
    return _BoardBuffers()


def set_threads(threads: int = 0) -> None:
    """Give DDS ``threads`` worker threads (0: DDS picks, i.e. every core).

    Call before solving; background jobs on a shared machine pass 1.
    """
    if threads < 0:
        raise SolverError(f"threads must be >= 0, got {threads}")
    with _lock:
        _dds().SetMaxThreads(int(threads))


def as_holders(deals) -> np.ndarray:
    """Accept a :class:`Deal`, a list of them, or ``uint8[52]`` / ``uint8[n, 52]`` holder arrays.

    Raises :class:`~bidlab.errors.DealError` saying which deal is not a deal.
    """
    if isinstance(deals, Deal):
        return deals.to_array()[None, :]
    if isinstance(deals, (list, tuple)) and deals and isinstance(deals[0], Deal):
        return np.stack([d.to_array() for d in deals])
    arr = np.asarray(deals)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != 52:
        raise DealError(f"deals must be holder arrays of shape (n, 52), got {arr.shape}")
    check_holders(arr)
    return arr.astype(np.uint8, copy=False)


def check_holders(deals: np.ndarray, where: str = "deals") -> None:
    """Raise :class:`DealError` unless every row holds 13 cards for each of seats 0..3."""
    if deals.size == 0:
        return
    if deals.min() < 0 or deals.max() > 3:
        bad = int(np.argmax((deals > 3).any(axis=1) | (deals < 0).any(axis=1)))
        raise DealError(f"{where}: row {bad} has a holder outside seats 0..3")
    counts = (deals[:, :, None] == np.arange(4)).sum(axis=1)
    wrong = np.flatnonzero((counts != 13).any(axis=1))
    if len(wrong):
        raise DealError(f"{where}: row {int(wrong[0])} does not give 13 cards to each seat "
                        f"(counts N,E,S,W = {counts[wrong[0]].tolist()})")


def dd_tables(deals, progress: ProgressTask | None = None) -> np.ndarray:
    """Full double-dummy tables: ``uint8[n, 4, 5]``, tricks for declarer N,E,S,W x strain C,D,H,S,NT.

    Deals go to DDS 40 at a time (its limit of 200 tables per call); ``progress`` advances
    by the deals finished after each call.
    """
    holders = as_holders(deals)
    n = len(holders)
    out = np.empty((n, 4, 5), dtype=np.uint8)
    hands = holders_to_dds_hands(holders)
    buf = _table_buffers()
    dds = _dds()
    no_filter = [0, 0, 0, 0, 0]
    for start in range(0, n, DEALS_PER_TABLE_CALL):
        stop = min(n, start + DEALS_PER_TABLE_CALL)
        k = stop - start
        with _lock:
            buf.cards[:k] = hands[start:stop]
            buf.deals.noOfTables = k
            try:
                dds.CalcAllTables(buf.deals, -1, no_filter, buf.res, buf.par)
            except dds.DDSError as e:
                raise SolverError(f"DDS CalcAllTables failed on deals {start}..{stop - 1}: {e}") from None
            out[start:stop] = dds_tables_to_bidlab(buf.tables[:k])
        if progress is not None:
            progress.advance(k)
    return out


def dd_table(deal: Deal | str | np.ndarray) -> np.ndarray:
    """The ``uint8[4, 5]`` table of one deal (a :class:`Deal`, PBN string, or holder array)."""
    if isinstance(deal, str):
        deal = Deal.parse(deal)
    return dd_tables(deal)[0]


def solve_position(pbn: str, strain: int, leader: int, played: Sequence[str] = ()) -> dict[str, int]:
    """Tricks from now on for the side to play, per legal card, in one card-play position.

    ``pbn``: the four hands (``"N:..."``) as they were when the current trick began;
    ``strain`` 0..4 (C, D, H, S, NT); ``leader`` 0..3 the seat that led (N, E, S, W);
    ``played``: the cards already in the trick, in order, as ``"SA"``/``"H9"``. The
    answer maps each legal card (``"SA"``, ``"HT"``...) to the tricks its
    side takes double dummy from the start of this trick. DDS SolveBoard (through
    endplay), held under this module's lock like every DDS call, because DDS's per-thread
    scratch memory is shared by all its entry points.
    """
    from endplay.dds import solve_board
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    if not 0 <= strain <= 4 or not 0 <= leader <= 3:
        raise SolverError(f"strain must be 0..4 and leader 0..3, got {strain} and {leader}")
    try:
        deal = EDeal(pbn)
        deal.trump = (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt)[strain]
        deal.first = (Player.north, Player.east, Player.south, Player.west)[leader]
        for card in played:
            deal.play(str(card))
    except (ValueError, RuntimeError) as e:
        raise SolverError(f"not a position DDS can solve ({e}): {pbn}, played {list(played)}") from None
    with _lock:
        solved = list(solve_board(deal))
    return {"SHDC"[int(card.suit)] + str(card).lstrip("♠♥♦♣SHDC"): int(tricks) for card, tricks in solved}


def _solve_boards(trumps, leaders, trick_words, hands: np.ndarray, target: int, solutions: int,
                  what: str) -> np.ndarray:
    """One SolveAllBoardsBin call on ``len(hands)`` <= 200 boards (DDS ``remainCards``), with
    DDS's trump and leader of each (or one for all) and the current trick's six words; returns
    a copy of the ``futureTricks`` words of each board."""
    k = len(hands)
    buf = _board_buffers()
    dds = _dds()
    with _lock:
        buf.deal_words[:k, 0] = trumps
        buf.deal_words[:k, 1] = leaders
        buf.deal_words[:k, 2:8] = trick_words
        buf.cards[:k] = hands
        buf.target[:k] = target
        buf.solutions[:k] = solutions
        buf.mode[:k] = 1
        buf.boards.noOfBoards = k
        try:
            dds.SolveAllBoardsBin(buf.boards, buf.solved)
        except dds.DDSError as e:
            raise SolverError(f"DDS SolveAllBoardsBin failed on {what}: {e}") from None
        return buf.fut[:k].copy()


def solve_contracts(deals, declarers, strains, progress: ProgressTask | None = None) -> np.ndarray:
    """Tricks declarer takes double dummy in one (declarer, strain) per deal: ``uint8[n]``.

    About 8x cheaper than a full table, for search that needs only the contracts its
    rollouts reach. ``declarers`` (0..3) and ``strains`` (0..4) broadcast against the deals.
    The player on declarer's left leads; DDS returns the most tricks the leading side
    can take, and declarer takes the rest.
    """
    holders = as_holders(deals)
    n = len(holders)
    decl = np.broadcast_to(np.asarray(declarers, dtype=np.int64), (n,))
    strn = np.broadcast_to(np.asarray(strains, dtype=np.int64), (n,))
    if n and (decl.min() < 0 or decl.max() > 3):
        raise SolverError("declarers must be seats 0..3")
    if n and (strn.min() < 0 or strn.max() > 4):
        raise SolverError("strains must be 0..4 (C, D, H, S, NT)")
    hands = holders_to_dds_hands(holders)
    trumps = DDS_STRAIN[strn]
    leaders = (decl + 1) % 4
    out = np.empty(n, dtype=np.uint8)
    for start in range(0, n, MAX_BOARDS_PER_CALL):
        stop = min(n, start + MAX_BOARDS_PER_CALL)
        # no cards played to the current trick; find the maximum (target -1) with one optimal card
        fut = _solve_boards(trumps[start:stop], leaders[start:stop], 0, hands[start:stop], -1, 1,
                            f"deals {start}..{stop - 1}")
        # score[0] sits after nodes, cards, suit[13], rank[13], equals[13]
        out[start:stop] = 13 - fut[:, 2 + 3 * 13]
        if progress is not None:
            progress.advance(stop - start)
    return out


def solve_positions(hands: np.ndarray, strain: int, leader: int, trick: Sequence[int] = ()) -> np.ndarray:
    """Tricks per legal card in many deals that share one card-play position's public part.

    ``hands``: ``uint8[n, 52]``, the seat (0..3) still holding each card, 255 for a card
    already played (the cards of ``trick`` included); ``strain`` 0..4; ``leader`` the seat
    that led the current trick; ``trick``: the bidlab card indices played to it so far.
    Returns ``int8[n, 52]``: for each legal card of the player on play, the tricks its side
    takes double dummy from the start of the current trick (as DDS's SolveBoard counts
    them); -1 for every other card. All ``n`` boards go to DDS's SolveAllBoardsBin (200 a
    call, spread over DDS's threads); cards DDS reports as equivalent (``equals``) share
    their representative's score, as SolveBoard's solutions=3 mode groups them.
    """
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 52:
        raise SolverError(f"hands must be uint8[n, 52] holders, got shape {h.shape}")
    if not 0 <= strain <= 4 or not 0 <= leader <= 3 or len(trick) > 3:
        raise SolverError(f"strain must be 0..4, leader 0..3 and at most 3 cards in the trick; "
                          f"got {strain}, {leader}, {len(trick)}")
    n = len(h)
    masks = holders_to_dds_hands(h)          # 255 matches no seat: played cards drop out
    trick_words = np.zeros(6, np.int32)
    for i, card in enumerate(trick):
        trick_words[i] = DDS_STRAIN[card // 13]      # DDS suit numbers equal its strain numbers
        trick_words[3 + i] = card % 13 + 2
    out = np.full((n, 52), -1, np.int8)
    rank_bits = 1 << (np.arange(13) + 2)
    for start in range(0, n, MAX_BOARDS_PER_CALL):
        stop = min(n, start + MAX_BOARDS_PER_CALL)
        k = stop - start
        # every legal card with its score: target 0, solutions 3
        fut = _solve_boards(DDS_STRAIN[strain], leader, trick_words, masks[start:stop], 0, 3,
                            f"positions {start}..{stop - 1}")
        counts = fut[:, 1]
        suits, ranks, equals, scores = (fut[:, 2 + 13 * j:2 + 13 * (j + 1)] for j in range(4))
        for b in range(k):
            for j in range(counts[b]):
                suit = DDS_STRAIN[suits[b, j]]              # back to bidlab's suit
                held = (1 << ranks[b, j]) | equals[b, j]
                for r in np.flatnonzero(held & rank_bits):
                    out[start + b, suit * 13 + r] = scores[b, j]
    return out
