"""What a bot's call shows, for the web table's "Why?": the belief net's public reading of the
call (:mod:`bidlab.search.meaning`), for any auction the net can read.

The web app only asks: one :class:`~bidlab.search.meaning.MeaningReader` per agent spec (its
policy and the shipped belief net), loaded in a background thread the first time a board seats
the agent, and each (auction, call) read once and kept.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import Call
from bidlab.search.meaning import CallMeaning, MeaningReader, load_reader

log = logging.getLogger("bidlab.web")

#: Partner hands sampled per reading (see :class:`~bidlab.search.meaning.MeaningReader`).
DEFAULT_SAMPLES = 256
#: Readings kept per app.
KEEP = 4096


class MeaningService:
    """Meaning readers per agent spec, loaded in the background; readings kept."""

    def __init__(self, make: Callable[[str], MeaningReader] | None = None, samples: int = DEFAULT_SAMPLES):
        self._make = make or (lambda spec: load_reader(spec, partner_hands=samples))
        self.samples = samples
        self._readers: dict[str, MeaningReader] = {}
        self._loading: dict[str, Future] = {}
        self._kept: OrderedDict[tuple, CallMeaning] = OrderedDict()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bidlab-meanings")

    def reader(self, spec: str, wait: float | None = None) -> MeaningReader | None:
        """The reader of ``spec``'s calls; starts loading it if needed and returns None until it
        is ready (after waiting up to ``wait`` seconds)."""
        with self._lock:
            if spec in self._readers:
                return self._readers[spec]
            fut = self._loading.get(spec)
            if fut is None:
                fut = self._pool.submit(self._make, spec)
                self._loading[spec] = fut
        try:
            reader = fut.result(timeout=wait) if wait else (fut.result() if fut.done() else None)
        except TimeoutError:
            return None
        except Exception:
            log.exception("loading the call reader of %s failed", spec)
            with self._lock:
                self._loading.pop(spec, None)
            raise
        if reader is not None:
            with self._lock:
                self._readers[spec] = reader
                self._loading.pop(spec, None)
        return reader

    def meaning(self, spec: str, auction: Auction, call: Call, vulnerability: Vulnerability,
                wait: float | None = None) -> CallMeaning | None:
        """What ``call`` after ``auction`` shows, as ``spec``'s side reads it; None while the
        reader is still loading."""
        key = (spec, int(auction.dealer), int(vulnerability), *(c.id for c in auction.calls), call.id)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        reader = self.reader(spec, wait)
        if reader is None:
            return None
        m = reader.meaning(auction.with_call(call), vulnerability)
        with self._lock:
            self._kept[key] = m
            while len(self._kept) > KEEP:
                self._kept.popitem(last=False)
        return m

    def describe(self, spec: str, auction: Auction, call: Call, vulnerability: Vulnerability,
                 wait: float | None = None) -> str:
        m = self.meaning(spec, auction, call, vulnerability, wait)
        if m is None:
            return (f"what {call.to_str(symbols=True)} shows is being read from the belief net; "
                    "ask again in a moment")
        return m.text()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["DEFAULT_SAMPLES", "MeaningService"]
