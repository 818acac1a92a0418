"""Expert auctions for supervised learning (Qiu et al. Sec. III): generation and import.

An *auction set* is a :class:`~bidlab.runtime.shards.ShardStore` folder (``manifest.json``
listing each shard with its sha256). A shard holds, for ``n`` boards, the deal (``uint8[n, 52]`` seat per card),
dealer, vulnerability and the calls (``int8[n, L]``, -1 after the last call). Every
state before a call is one training pair (node, call): :func:`node_call_pairs`.

Sources:

- :func:`generate_expert`: random deals bid by four copies of a teacher agent (SAYC by
  default), both cores, resumable shard by shard;
- :func:`import_openspiel`: OpenSpiel-format trajectories, one game per line of action
  ids (52 dealing actions, card = rank * 4 + suit dealt round-robin from North, then
  calls as 52 + call id, then card play), as read by OpenSpiel's bridge supervised
  learning example; this is the format of the WBridge5 data set Qiu et al. trained on;
- :func:`import_pbn`: any PBN file whose boards carry auctions.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bidlab.agents.registry import make_agent
from bidlab.bridge import rules
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board, board_vulnerability
from bidlab.bridge.calls import NUM_CALLS, Call
from bidlab.cards import Deal, random_deals
from bidlab.envs.rollout import rollout
from bidlab.envs.state import AuctionState, encode_openspiel480, init
from bidlab.errors import BidlabError, FileFormatError
from bidlab.runtime.executor import ExecutorConfig, run_tasks
from bidlab.runtime.shards import MANIFEST, ShardError, ShardStore

LEGACY_FORMAT = "bidlab-auctions"
KIND = "auctions"


class AuctionSetError(BidlabError):
    """An auction set folder is missing, corrupt, or not an auction set."""


@dataclass(frozen=True)
class AuctionArrays:
    """Boards with their auctions, as arrays (the in-memory form of an auction set)."""

    deals: np.ndarray          # uint8[n, 52]
    dealer: np.ndarray         # uint8[n]
    vulnerability: np.ndarray  # uint8[n]
    history: np.ndarray        # int8[n, L], -1 padded
    length: np.ndarray         # int16[n]

    def __len__(self) -> int:
        return len(self.deals)

    @classmethod
    def concat(cls, parts: list[AuctionArrays]) -> AuctionArrays:
        if not parts:
            return cls(np.zeros((0, 52), np.uint8), np.zeros(0, np.uint8), np.zeros(0, np.uint8),
                       np.full((0, 1), -1, np.int8), np.zeros(0, np.int16))
        width = max(p.history.shape[1] for p in parts)
        hist = [np.pad(p.history, ((0, 0), (0, width - p.history.shape[1])), constant_values=-1) for p in parts]
        return cls(np.concatenate([p.deals for p in parts]), np.concatenate([p.dealer for p in parts]),
                   np.concatenate([p.vulnerability for p in parts]), np.concatenate(hist),
                   np.concatenate([p.length for p in parts]))

    def subset(self, index: np.ndarray) -> AuctionArrays:
        return AuctionArrays(self.deals[index], self.dealer[index], self.vulnerability[index],
                             self.history[index], self.length[index])


def from_boards(boards: Iterable[tuple[Board, Auction]]) -> AuctionArrays:
    rows = list(boards)
    width = max((len(a.calls) for _, a in rows), default=1)
    hist = np.full((len(rows), max(width, 1)), -1, dtype=np.int8)
    for i, (_, a) in enumerate(rows):
        hist[i, : len(a.calls)] = [c.id for c in a.calls]
    return AuctionArrays(
        np.stack([b.deal.to_array() for b, _ in rows]) if rows else np.zeros((0, 52), np.uint8),
        np.array([int(b.dealer) for b, _ in rows], dtype=np.uint8),
        np.array([int(b.vulnerability) for b, _ in rows], dtype=np.uint8),
        hist,
        np.array([len(a.calls) for _, a in rows], dtype=np.int16),
    )


# --------------------------------------------------------------------------------- the folder

class AuctionSet:
    """An auction-set folder: a :class:`~bidlab.runtime.shards.ShardStore` of kind
    ``auctions`` whose job is the set's source; append shards, read them all back (checksums
    verified). Sets written before the runtime store open as they are."""

    def __init__(self, store: ShardStore):
        self.store = store
        self.path = store.path

    @classmethod
    def open(cls, path: str | os.PathLike) -> AuctionSet:
        try:
            return cls(ShardStore.open(path, KIND, upgrade=_upgrade_legacy))
        except ShardError as e:
            raise AuctionSetError(f"{Path(path)} is not an auction set ({e})") from None

    @classmethod
    def open_or_create(cls, path: str | os.PathLike, source: dict) -> AuctionSet:
        p = Path(path)
        try:
            if (p / MANIFEST).exists():
                s = cls.open(p)
                s.store.check_job(source)
                return s
            return cls(ShardStore.open_job(p, KIND, source))
        except ShardError as e:  # its message names the folder already, and most say what to do
            msg = str(e) if str(e).startswith(str(p)) else f"{p}: {e}"
            raise AuctionSetError(msg if "another folder" in msg else f"{msg}; use another folder") from None

    @property
    def source(self) -> dict | None:
        return self.store.job

    @property
    def shards(self):
        return self.store.shards

    def has_shard(self, index: int) -> bool:
        return self.store.has(index)

    def append(self, index: int, arrays: AuctionArrays) -> None:
        self.store.write_arrays(index, {"deals": arrays.deals, "dealer": arrays.dealer,
                                        "vulnerability": arrays.vulnerability, "history": arrays.history,
                                        "length": arrays.length})

    def load(self) -> AuctionArrays:
        parts = []
        for s in self.shards:
            try:
                z = self.store.read_arrays(s)
            except ShardError as e:
                raise AuctionSetError(str(e)) from None
            parts.append(AuctionArrays(z["deals"], z["dealer"], z["vulnerability"], z["history"], z["length"]))
        return AuctionArrays.concat(parts)

    def __len__(self) -> int:
        return sum(s.count for s in self.shards)


def _upgrade_legacy(manifest: dict) -> dict | None:
    """A ``bidlab-auctions`` version 1 manifest in the shard store's format (same shard files)."""
    if manifest.get("format") != LEGACY_FORMAT or manifest.get("version") != 1:
        return None
    return {"format": "bidlab-shards", "version": 1, "kind": KIND, "job": manifest.get("source"),
            "meta": {}, "shards": list(manifest.get("shards", []))}


# --------------------------------------------------------------------------------- generation

def _bid_shard(args) -> tuple[int, AuctionArrays]:
    teacher, seed, index, size, first_board, agent_modules = args
    for name in agent_modules:  # a spawned worker registers the kinds the parent's caller named
        importlib.import_module(name)
    agent = make_agent(teacher, seed)
    holders = random_deals(size, seed=int(np.random.SeedSequence([seed, index]).generate_state(1)[0]))
    numbers = first_board + np.arange(size)
    vul = np.array([int(board_vulnerability(int(k))) for k in numbers], np.int64)
    end = rollout(init(holders, (numbers - 1) % 4, vul), [agent] * 4, inplace=True)
    return index, from_state(end)


def from_state(end: AuctionState) -> AuctionArrays:
    """The auctions of an array state (as bid by :func:`~bidlab.envs.rollout.rollout`)."""
    width = max(int(end.length.max(initial=0)), 1)
    return AuctionArrays(end.deals.copy(), end.dealer.astype(np.uint8), end.vulnerability.astype(np.uint8),
                         end.history[:, :width].copy(), end.length.astype(np.int16))


def _check_resumed_sizes(aset: AuctionSet, boards: int, shard_size: int) -> None:
    """A set resumed with another ``boards`` would keep shards of the old size (its last
    shard short or long) and report the new size as done: say so instead, before any work."""
    for s in aset.shards:
        want = max(0, min(shard_size, boards - s.index * shard_size))
        if s.count != want:
            held = len(aset)
            raise AuctionSetError(
                f"{aset.path} holds {held} boards from an earlier run of another --boards; its shard {s.index} "
                f"has {s.count} boards where --boards {boards} needs {want}, and finished shards are never rebid: "
                f"rerun with that run's --boards, or bid {boards} boards into another --out folder")


def generate_expert(out: str | os.PathLike, boards: int, *, teacher: str = "sayc", seed: int = 0,
                    shard_size: int = 5000, workers: int = 2,
                    progress: Callable[[int, int], None] | None = None,
                    agent_modules: tuple[str, ...] = ()) -> AuctionSet:
    """Bid ``boards`` random deals with four ``teacher`` agents into an auction set.

    ``agent_modules``: modules that register more agent kinds when imported (the CLI passes
    ``bidlab.search`` for ``bmcs:``, ``mcs:`` and ``jps:``); each spawned worker imports them,
    since this layer may not import search itself.

    Board ``k`` (from 1) gets the dealer and vulnerability of the 16-board cycle, so
    every dealer and vulnerability is covered. Rerunning with the same settings resumes
    after the last finished shard.
    """
    source = {"kind": "expert", "teacher": teacher, "seed": seed, "shard_size": shard_size}
    aset = AuctionSet.open_or_create(out, source)
    n_shards = -(-boards // shard_size)
    _check_resumed_sizes(aset, boards, shard_size)
    tasks = [(teacher, seed, k, min(shard_size, boards - k * shard_size), k * shard_size + 1, tuple(agent_modules))
             for k in range(n_shards) if not aset.has_shard(k)]
    done = boards - sum(t[3] for t in tasks)
    if progress:
        progress(done, boards)
    state = {"done": done}

    def save(result: tuple[int, AuctionArrays]) -> None:
        k, arrays = result
        aset.append(k, arrays)
        state["done"] += len(arrays)
        if progress:
            progress(state["done"], boards)

    run_tasks(_bid_shard, tasks, save, ExecutorConfig(workers=workers))
    return aset


# --------------------------------------------------------------------------------- importers

def parse_openspiel_line(line: str, where: str) -> tuple[Board, Auction]:
    """One OpenSpiel bridge trajectory -> (board, auction). Dealer North, nobody vulnerable."""
    try:
        actions = [int(t) for t in line.replace(",", " ").split()]
    except ValueError:
        raise FileFormatError("a trajectory is a list of integer action ids", where=where) from None
    if len(actions) < 52:
        raise FileFormatError(f"a trajectory starts with 52 dealing actions, found {len(actions)} actions",
                              where=where)
    deal_actions = actions[:52]
    if sorted(deal_actions) != list(range(52)):
        raise FileFormatError("the first 52 actions must deal each card (0..51) once", where=where)
    holders = np.empty(52, dtype=np.uint8)
    for i, os_card in enumerate(deal_actions):
        holders[(os_card % 4) * 13 + os_card // 4] = i % 4
    board = Board(Deal.from_array(holders), 1)
    auction = Auction(board.dealer)
    for j, a in enumerate(actions[52:]):
        if auction.is_over:
            break
        if not 52 <= a < 52 + NUM_CALLS:
            raise FileFormatError(f"action {a} is not a call (52..89) while the auction is on",
                                  where=f"{where}, call {j + 1}")
        try:
            auction = auction.with_call(Call(a - 52))
        except BidlabError as e:
            raise FileFormatError(str(e).split(": ", 1)[-1], where=f"{where}, call {j + 1}") from None
    if not auction.is_over:
        raise FileFormatError("the auction does not end", where=where)
    return board, auction


def import_openspiel(path: str | os.PathLike, out: str | os.PathLike, shard_size: int = 50_000) -> AuctionSet:
    """Import an OpenSpiel-format trajectory file (e.g. WBridge5's train.txt) as an auction set."""
    p = Path(path)
    try:
        lines = [ln for ln in p.read_text().splitlines() if ln.strip()]
    except OSError as e:
        raise FileFormatError(f"cannot read file: {e.strerror}", where=str(p)) from None
    rows = [parse_openspiel_line(ln, f"{p}, line {i + 1}") for i, ln in enumerate(lines)]
    return _write_rows(rows, out, {"kind": "openspiel", "file": p.name, "games": len(rows)}, shard_size)


def import_pbn(path: str | os.PathLike, out: str | os.PathLike, shard_size: int = 50_000) -> AuctionSet:
    """Import the boards of a PBN file that carry complete auctions."""
    from bidlab.bridge import pbn

    records = pbn.load(path)
    rows = [(r.board, r.auction) for r in records if r.auction is not None and r.auction.is_over]
    if not rows:
        raise FileFormatError("no board in the file has a complete auction", where=str(path))
    return _write_rows(rows, out, {"kind": "pbn", "file": Path(path).name, "boards": len(rows)}, shard_size)


def _write_rows(rows, out, source, shard_size) -> AuctionSet:
    aset = AuctionSet.open_or_create(out, source)
    for k in range(0, len(rows), shard_size):
        if not aset.has_shard(k // shard_size):
            aset.append(k // shard_size, from_boards(rows[k : k + shard_size]))
    return aset


# --------------------------------------------------------------------------------- training pairs

def node_call_pairs(arrays: AuctionArrays) -> tuple[np.ndarray, np.ndarray]:
    """(board index, step) of every call: the state before call ``step`` of board ``index``."""
    length = arrays.length.astype(np.int64)
    board = np.repeat(np.arange(len(length)), length)
    start = np.cumsum(length) - length
    step = np.arange(len(board)) - np.repeat(start, length)
    return board, step


def batch_features(arrays: AuctionArrays, board: np.ndarray, step: np.ndarray,
                   out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """480 features, legal masks and the expert's call for a batch of (board, step) pairs."""
    hist = arrays.history[board].astype(np.int64)
    width = hist.shape[1]
    hist = np.where(np.arange(width)[None, :] < step[:, None], hist, -1)
    labels = arrays.history[board, step].astype(np.int64)
    dealer = arrays.dealer[board].astype(np.int64)
    x = encode_openspiel480(arrays.deals[board], dealer, arrays.vulnerability[board].astype(np.int64),
                            hist, out=out)
    legal = rules.legal_masks(hist)
    return x, legal, labels
