"""What a bot's call shows, the way bridge players read a bid: the HCP range and suit lengths
of the hands with which this agent makes this call after this auction.

The ranges are taken from the agent's own calls: it bids all four seats of stored deals (the
``train`` split of the shipped deal store, boards numbered 1, 2, ... for dealer and
vulnerability), and every call is filed under the auction before it. A call's meaning is
then the spread of the hands filed under (auction, call): the 5th to 95th percentile of HCP
and of each suit's length once 20 or more hands are filed, else the full range. This reads
a neural policy as Qiu et al. (2024, Sec. VI-F) read theirs, by the hands behind its bids,
and it shows SAYC's rules as they are actually applied.

Bidding the deals takes a while for a neural policy (a few milliseconds a call), so an
agent's table is built once in a background thread and kept on disk, keyed by the agent spec
and its model file's size and modification time.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bidlab.agents.base import Agent, BiddingView
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import board_dealer, board_vulnerability
from bidlab.bridge.calls import Call
from bidlab.cards import SUITS_HIGH_FIRST, Deal
from bidlab.fileio import write_json_atomic

log = logging.getLogger("bidlab.web")

#: Deals bid per agent by default (about a minute for a neural policy on one core).
DEFAULT_DEALS = 500
#: Below this many hands the full range is shown; from it on, the 5th-95th percentile.
PERCENTILE_FROM = 20
#: Below this many hands a meaning is flagged as drawn from too few hands for a firm range.
FEW_HANDS = 10
FORMAT = 1


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bidlab" / "meanings"


@dataclass(frozen=True, slots=True)
class CallMeaning:
    """The spread of the hands behind one call after one auction."""

    count: int
    hcp: tuple[int, int]
    lengths: tuple[tuple[int, int], ...]   # spades, hearts, diamonds, clubs

    def text(self, call: Call, deals: int) -> str:
        def span(lo: int, hi: int) -> str:
            return f"{lo}–{hi}" if lo != hi else str(lo)

        suits = ", ".join(f"{s.symbol} {span(*r)}" for s, r in zip(SUITS_HIGH_FIRST, self.lengths))
        hands = f"{self.count} hand{'s' if self.count != 1 else ''}"
        if self.count < FEW_HANDS:  # a range from two hands is no range: say so
            return (f"{call.to_str(symbols=True)} here shows {span(*self.hcp)} HCP; {suits} "
                    f"(from only {hands} this agent bid it with, in {deals} stored deals: "
                    "too few for a firm range)")
        spread = "most" if self.count >= PERCENTILE_FROM else "all"
        return (f"{call.to_str(symbols=True)} here shows {span(*self.hcp)} HCP; {suits} "
                f"({spread} of the {hands} this agent bid it with, in {deals} stored deals)")


def _spread(values: np.ndarray) -> tuple[int, int]:
    if len(values) >= PERCENTILE_FROM:
        lo, hi = np.percentile(values, [5, 95], method="nearest")
        return int(lo), int(hi)
    return int(values.min()), int(values.max())


def auction_key(calls) -> str:
    return " ".join(c.to_str() for c in calls) or "-"


def build_meanings(agent: Agent, deals: np.ndarray, progress: Callable[[int], None] | None = None) -> dict:
    """Bid ``deals`` (holders ``uint8[n, 52]``) with ``agent`` at all four seats; returns
    ``{auction key: {call: [count, hcp lo, hi, then lo, hi per suit ♠♥♦♣]}}``."""
    filed: dict[tuple[str, str], list[tuple[int, ...]]] = {}
    for i, holders in enumerate(deals):
        number = i + 1
        deal = Deal.from_array(holders)
        vul = board_vulnerability(number)
        auction = Auction(board_dealer(number))
        while not auction.is_over:
            seat = auction.to_act
            hand = deal[seat]
            call = agent.act(BiddingView(seat, hand, auction, vul))
            filed.setdefault((auction_key(auction.calls), call.to_str()), []).append(
                (hand.hcp, *(hand.length(s) for s in SUITS_HIGH_FIRST)))
            auction = auction.with_call(call)
        if progress is not None:
            progress(i + 1)
    table: dict[str, dict[str, list[int]]] = {}
    for (key, call), rows in filed.items():
        a = np.array(rows)
        spreads = [_spread(a[:, j]) for j in range(5)]
        table.setdefault(key, {})[call] = [len(rows), *(x for pair in spreads for x in pair)]
    return table


class MeaningService:
    """Meaning tables per agent spec: built in the background, cached on disk, looked up by
    (auction so far, call)."""

    def __init__(self, make: Callable[[str], Agent], deals: np.ndarray | None = None,
                 n_deals: int = DEFAULT_DEALS, cache_dir: str | os.PathLike | None = None):
        self._make = make
        self._deals = deals
        self.n_deals = n_deals
        self.cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        self._tables: dict[str, dict] = {}
        self._building: dict[str, Future] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bidlab-meanings")

    def _stored_deals(self) -> np.ndarray:
        if self._deals is None:
            from bidlab.dd import shipped_store

            self._deals = shipped_store().load("train")[0]
        return self._deals[: self.n_deals]

    def _cache_path(self, spec: str) -> Path:
        ident = spec
        _, _, arg = spec.partition(":")
        model = Path(arg.rsplit(":", 1)[0]) if arg else None
        if model is not None and model.is_file():
            st = model.stat()
            ident += f"|{st.st_size}|{st.st_mtime_ns}"
        key = hashlib.sha256(f"{FORMAT}|{ident}|{self.n_deals}".encode()).hexdigest()[:24]
        return self.cache_dir / f"{key}.json"

    def _build(self, spec: str) -> dict:
        path = self._cache_path(spec)
        try:
            data = json.loads(path.read_text())
            if data.get("format") == FORMAT and data.get("spec") == spec:
                return data
        except (OSError, ValueError):
            pass
        deals = self._stored_deals()
        table = build_meanings(self._make(spec), deals)
        data = {"format": FORMAT, "spec": spec, "deals": int(len(deals)), "table": table}
        try:
            write_json_atomic(path, data)
        except OSError as e:  # a read-only cache only costs a rebuild next time
            log.warning("cannot cache call meanings in %s: %s", path, e)
        return data

    def table(self, spec: str, wait: float | None = None) -> dict | None:
        """The meaning table of ``spec``; starts building it if needed and returns None until it is
        ready (after waiting up to ``wait`` seconds)."""
        with self._lock:
            if spec in self._tables:
                return self._tables[spec]
            fut = self._building.get(spec)
            if fut is None:
                fut = self._pool.submit(self._build, spec)
                self._building[spec] = fut
        try:
            data = fut.result(timeout=wait) if wait else (fut.result() if fut.done() else None)
        except TimeoutError:
            return None
        except Exception:
            log.exception("building call meanings for %s failed", spec)
            with self._lock:
                self._building.pop(spec, None)
            return None
        if data is not None:
            with self._lock:
                self._tables[spec] = data
                self._building.pop(spec, None)
        return data

    def describe(self, spec: str, auction: Auction, call: Call, wait: float | None = None) -> str:
        data = self.table(spec, wait)
        if data is None:
            return (f"what {call.to_str(symbols=True)} shows is being worked out from this agent's own calls on "
                    f"{self.n_deals} stored deals; ask again in a minute")
        row = data["table"].get(auction_key(auction.calls), {}).get(call.to_str())
        if row is None:
            return (f"this agent never bid {call.to_str(symbols=True)} after this auction in "
                    f"{data['deals']} stored deals, so there are no hands to show what it means")
        count, *flat = row
        meaning = CallMeaning(count, (flat[0], flat[1]), tuple((flat[i], flat[i + 1]) for i in range(2, 10, 2)))
        return meaning.text(call, data["deals"])

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
