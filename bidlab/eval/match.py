"""Duplicate matches scored by double dummy (Qiu et al. Sec. VI: IMPs per deal).

Each board is bid at two tables: agent A sits North-South at the open room and
East-West at the closed room, agent B takes the other seats. The final contract at each
table is scored with declarer taking exactly its double-dummy tricks (no card play),
and A's result on the board is ``imps(NS score in the open room - NS score in the
closed room)``. A deterministic agent playing itself therefore scores exactly 0 on
every board.

Output folder (every file written atomically; a killed match resumes where it stopped):

- ``match.json``: the configuration, the exact deal ids, seeds and the state of the run;
- ``chunks/``: a :class:`~bidlab.runtime.shards.ShardStore` of finished chunks of boards
  (one checksummed record shard each), the unit of resumption;
- ``results.jsonl``: a header line (configuration, deal ids) then one line per board;
- ``auctions.pbn``: both tables' auctions, contracts and DD results;
- ``summary.json``: IMPs/board for A with its standard error, and each side vs par.

With ``scoring="played"`` (issue 47) every contract is also **played out** by single-dummy
card players (:mod:`bidlab.search.cardplay`, ``card_player``, default ``sd:fast``, on all
four seats) and scored by the tricks declarer actually took; each room then records both
results, the board both IMP swings (``imps_a`` played, ``imps_a_dd`` double dummy), and the
summary both means with the paired difference. A table whose deal, vulnerability and
auction repeat (the same auction in both rooms) is played once: the player's choices
depend only on those. Playing out costs seconds a table, so chunks report each board played.
"""

from __future__ import annotations

import json
import math
import os
import queue
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

import bidlab
import bidlab.search  # noqa: F401  (registers the bmcs:, mcs: and jps: agent kinds, here and in worker processes)
from bidlab.agents.registry import importable_by_reference, install, make_agent, shipped_kinds, team_members
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board, Vulnerability, board_dealer, board_vulnerability
from bidlab.bridge.play import CardPlay
from bidlab.bridge.records import BoardRecord, Tag
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cards import Deal, Seat
from bidlab.dd import par
from bidlab.envs.rollout import Decision, Scores, duplicate
from bidlab.envs.state import AuctionState, step_
from bidlab.errors import BidlabError
from bidlab.eval.doubled import doubled_contracts
from bidlab.eval.fingerprint import agent_fingerprint
from bidlab.fileio import write_json_atomic, write_text_atomic
from bidlab.runtime.executor import ExecutorConfig, run_tasks
from bidlab.runtime.progress import plural
from bidlab.runtime.shards import ShardError, ShardStore
from bidlab.runtime.stats import Estimate, fmt, mean_se
from bidlab.search.agents import SearchAgent
from bidlab.search.cardplay import card_player, play_out


class MatchError(BidlabError):
    """A match cannot run as asked (bad settings, or an output folder of another match)."""


@dataclass(frozen=True)
class MatchConfig:
    """Everything that determines a match's results."""

    agent_a: str
    agent_b: str
    split: str = "test"
    boards: int = 200
    seed: int = 0
    store: str | None = None   # None: the store shipped with bidlab
    chunk_size: int = 50
    scoring: str = "dd"        # or "played": every contract played out single dummy
    card_player: str = "sd:fast"

    def to_json(self) -> dict:
        d = asdict(self)
        if self.scoring == "dd":   # a DD-scored match is stored as before the option existed
            d.pop("scoring")
            d.pop("card_player")
        return d


@dataclass
class MatchSummary:
    boards: int
    imps_per_board: float
    standard_error: float
    a_vs_par: float
    b_vs_par: float
    a_vs_par_se: float
    table_abs_vs_par: float
    agent_a: str
    agent_b: str
    extra: dict = field(default_factory=dict)

    def line(self) -> str:
        imps = Estimate(self.imps_per_board, self.standard_error, self.boards)
        text = (f"{self.agent_a} vs {self.agent_b}: {imps.format(signed=True)} "
                f"IMPs/board for {self.agent_a} over {plural(self.boards, 'board')}; vs par: "
                f"{self.agent_a} {fmt(self.a_vs_par, signed=True)}, {self.agent_b} {fmt(self.b_vs_par, signed=True)} "
                "IMPs/table")
        if self.extra.get("scoring") == "played":
            dd = Estimate(self.extra["dd_scored"]["mean"], self.extra["dd_scored"]["se"], self.boards)
            diff = Estimate(self.extra["paired_difference"]["mean"], self.extra["paired_difference"]["se"], self.boards)
            text = (f"played out: {text}\nscored double dummy on the same boards: {dd.format(signed=True)} "
                    f"IMPs/board; played minus DD (paired): {diff.format(signed=True)}")
        return text


#: Agent kinds that search at every call: seconds a call, where a net takes microseconds.
SEARCH_KINDS = ("bmcs", "mcs", "jps")

#: Boards per chunk: a chunk is the unit of progress and of what Ctrl-C keeps. Fast agents
#: bid 50 boards in well under a second; a searching agent takes seconds a board, so its
#: chunks hold 2 boards (each a few seconds to a minute of work) and finished boards are kept.
FAST_CHUNK_BOARDS = 50
SLOW_CHUNK_BOARDS = 2


def is_search_agent(spec: str) -> bool:
    """Whether ``spec`` (or a member of a team ``A+B``) searches at each call."""
    members = team_members(spec) or (spec,)
    return any(m.partition(":")[0].strip().lower() in SEARCH_KINDS for m in members)


def default_chunk_size(agent_a: str, agent_b: str, scoring: str = "dd") -> int:
    """Boards per chunk for a match of these agents, sized by the time they take (above); a
    match whose hands are played out card by card takes seconds a table too."""
    slow = scoring == "played" or is_search_agent(agent_a) or is_search_agent(agent_b)
    return SLOW_CHUNK_BOARDS if slow else FAST_CHUNK_BOARDS


def describe_config(cfg: dict | None) -> str:
    """A stored match's settings in words: ``'nn:rl' vs 'sayc', 200 boards of the test split, seed 0``."""
    if not isinstance(cfg, dict):
        return "settings unreadable"
    try:
        words = (f"{cfg['agent_a']!r} vs {cfg['agent_b']!r}, {plural(int(cfg['boards']), 'board')} of the "
                 f"{cfg['split']} split, seed {cfg['seed']}, chunks of {cfg['chunk_size']}")
    except (KeyError, TypeError, ValueError):
        return "settings unreadable"
    return words + (f", deal store {cfg['store']}" if cfg.get("store") else "")


def stored_chunk_size(folder: str | os.PathLike) -> int | None:
    """The chunk size of the match stored in ``folder`` (None if none is), so that a rerun
    without ``--chunk-size`` resumes it as it was cut."""
    try:
        size = json.loads((Path(folder) / "match.json").read_text())["config"]["chunk_size"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return size if isinstance(size, int) and size >= 1 else None


def match_folder(cfg: MatchConfig, root: str | os.PathLike = "results") -> Path:
    """The folder ``bidlab match`` writes a match to by default (and ``bidlab league``
    looks for stored matches in): ``ROOT/match-A-vs-B-SPLIT-N-sSEED``."""
    def safe(s: str) -> str:
        return "".join(ch if ch.isalnum() else "_" for ch in s)[:40]

    played = "" if cfg.scoring == "dd" else f"-played-{safe(cfg.card_player)}"
    return Path(root) / f"match-{safe(cfg.agent_a)}-vs-{safe(cfg.agent_b)}-{cfg.split}-{cfg.boards}-s{cfg.seed}{played}"


def _open_store(store: str | None):
    from bidlab.dd import DealStore, shipped_store

    return shipped_store() if store is None else DealStore.open(store)


def select_deals(cfg: MatchConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The match's deals: a seeded sample (without replacement) of the split, in board order."""
    deals, dd, ids = _open_store(cfg.store).load(cfg.split)
    if cfg.boards < 1:
        raise MatchError(f"a match needs at least 1 board, got {cfg.boards}")
    if cfg.boards > len(ids):
        raise MatchError(f"split {cfg.split!r} has only {len(ids)} deals, {cfg.boards} boards asked")
    order = np.random.default_rng([cfg.seed, 20240]).permutation(len(ids))[: cfg.boards]
    return deals[order], dd[order], ids[order]


def _agent_seed(seed: int, chunk: int, which: int) -> int:
    return int(np.random.SeedSequence([seed, chunk, which]).generate_state(1)[0])


class _RowByRow:
    """A search agent asked one table at a time, with ``tick(calls)`` after each call.

    A search over many tables takes minutes in one ``decide``; asked row by row it can
    report each call. Its calls are the same: :class:`SearchAgent` searches each row on its
    own, seeded by the position, never by the batch."""

    def __init__(self, agent, tick: Callable[[int], None]):
        self.agent, self.tick, self.name = agent, tick, agent.name
        self.deterministic = getattr(agent, "deterministic", False)

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        calls = np.empty(state.n, np.int64)
        for t in range(state.n):
            calls[t] = int(np.asarray(self.agent.decide(state.take([t])).calls)[0])
            self.tick(1)
        return Decision(calls)


class _ChunkProgress:
    """Counts the calls made and the boards finished at both tables of one chunk, and
    reports ``(boards finished, calls made)`` as they change."""

    def __init__(self, n_boards: int, report: Callable[[int, int], None]):
        self.n, self.report = n_boards, report
        self.over = np.zeros(2 * n_boards, bool)  # per table of the duplicate rollout
        self.decided = 0   # calls of finished decide()s
        self.searched = 0  # calls a row-by-row agent made inside the decide() running now
        self.boards = 0

    def tick(self, calls: int) -> None:
        self.searched += calls
        self.report(self.boards, self.decided + self.searched)

    def on_decision(self, index: int, rows: np.ndarray, sub: AuctionState, d: Decision) -> None:
        after = sub.copy()
        step_(after, np.asarray(d.calls))
        self.over[rows[after.done]] = True
        self.boards = int((self.over[: self.n] & self.over[self.n :]).sum())
        self.decided += len(rows)
        self.searched = 0
        self.report(self.boards, self.decided)


def play_boards(cfg: MatchConfig, chunk: int, numbers: np.ndarray, deals: np.ndarray, dd: np.ndarray,
                ids: np.ndarray, progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """Bid and score one chunk of boards at both tables (one :func:`duplicate` rollout);
    returns one record per board. ``progress(boards finished, calls made)`` follows the
    chunk while it runs (it does not change any call)."""
    a = make_agent(cfg.agent_a, _agent_seed(cfg.seed, chunk, 0))
    # A deterministic agent ignores its seed: one object plays both teams, so the rollout
    # batches both rooms together and a net computes each repeated observation once.
    same = cfg.agent_b == cfg.agent_a and getattr(a, "deterministic", False)
    b = a if same else make_agent(cfg.agent_b, _agent_seed(cfg.seed, chunk, 1))
    numbers = np.asarray(numbers, dtype=np.int64)
    dealers = (numbers - 1) % 4
    vuls = np.array([int(board_vulnerability(int(x))) for x in numbers], np.int64)
    on_decision = None
    played = cfg.scoring == "played"
    calls_made = [0]
    if progress is not None:
        report = progress
        if played:  # boards count once played out; the auctions report only their calls

            def report(boards: int, calls: int) -> None:
                calls_made[0] = calls
                progress(0, calls)

        follow = _ChunkProgress(len(numbers), report)
        on_decision = follow.on_decision
        a = _RowByRow(a, follow.tick) if isinstance(a, SearchAgent) else a
        b = a if same else (_RowByRow(b, follow.tick) if isinstance(b, SearchAgent) else b)
    result = duplicate(deals, dealers, vuls, a, b, dd=dd, on_decision=on_decision)
    records = []
    playouts: dict = {}   # one card player per chunk, and the tables already played
    for i, number in enumerate(numbers):
        bd = Board(Deal.from_array(deals[i]), int(number), board_dealer(int(number)), board_vulnerability(int(number)))
        rooms = [_room_record("open", result.open, result.open_scores, i),
                 _room_record("closed", result.closed, result.closed_scores, i)]
        p = par(dd[i], bd.vulnerability, bd.dealer).score
        extra = {}
        if played:
            for room, end in zip(rooms, (result.open, result.closed), strict=True):
                _play_room(room, bd, end.auction(i), cfg.card_player, playouts)
            extra["imps_a_dd"] = int(result.imps[i])
            if progress is not None:
                progress(i + 1, calls_made[0])
        ns_open, ns_closed = rooms[0]["ns_score"], rooms[1]["ns_score"]
        records.append({
            "board": int(bd.number),
            "deal_id": int(ids[i]),
            "deal": bd.deal.to_pbn(),
            "dealer": bd.dealer.letter,
            "vulnerability": bd.vulnerability.pbn,
            "dd": dd[i].astype(int).tolist(),
            "par_ns": int(p),
            "open": rooms[0],
            "closed": rooms[1],
            "imps_a": imps(ns_open - ns_closed) if played else int(result.imps[i]),
            **extra,
            # A is NS in the open room and EW in the closed room.
            "a_vs_par": [imps(ns_open - p), imps(p - ns_closed)],
        })
    return records


def _play_room(room: dict, board: Board, auction: Auction, player_spec: str, playouts: dict) -> None:
    """Play one room's contract out single dummy; the room's ``tricks``/``ns_score`` become
    the played result and the DD ones move to ``dd_tricks``/``dd_ns_score``."""
    room["dd_tricks"], room["dd_ns_score"] = room["tricks"], room["ns_score"]
    contract = auction.contract
    if contract is None:
        return
    key = (board.deal.to_pbn(), int(board.vulnerability), int(auction.dealer), auction.to_str())
    if key not in playouts:
        if "player" not in playouts:
            playouts["player"] = card_player(player_spec)
        play = play_out(CardPlay(board.deal, contract, auction, board.vulnerability),
                        playouts["player"], playouts["player"])
        playouts[key] = play.declarer_tricks
    room["tricks"] = playouts[key]
    room["ns_score"] = score_contract(contract, playouts[key], board.vulnerability)


def _room_record(room: str, end: AuctionState, scores: Scores, i: int) -> dict:
    auction = end.auction(i)
    c = auction.contract
    return {
        "room": room,
        "auction": auction.to_str(),
        "contract": None if c is None else c.to_str(),
        "declarer": None if c is None else c.declarer.letter,
        "tricks": None if c is None else int(scores.tricks[i]),
        "ns_score": int(scores.ns_score[i]),
    }


def _run_chunk(args) -> tuple[int, list[dict]]:
    cfg_dict, chunk, numbers, deals, dd, ids, channel, kinds = args
    install(kinds)  # the kinds registered in the parent at run time (a no-op in the parent itself)
    report = None
    if channel is not None:  # a queue back to the parent (a Manager's proxy across processes)
        last = [0.0, -1]

        def report(boards: int, calls: int) -> None:
            now = time.monotonic()
            if boards != last[1] or now - last[0] >= 0.5:  # every finished board, else at most 2 a second
                last[0], last[1] = now, boards
                channel.put((chunk, boards, calls))

    return chunk, play_boards(MatchConfig(**cfg_dict), chunk, numbers, deals, dd, ids, report)


@contextmanager
def _progress_channel(backend: str | None, heard: Callable[[tuple], None]) -> Iterator[object | None]:
    """A queue the chunks report into while they run, drained by a thread that calls
    ``heard``; None (no reports from inside chunks) without a backend or on Ray, whose
    tasks may run on other machines."""
    if backend is None or backend == "ray":
        yield None
        return
    manager = None
    if backend == "process":  # a spawned worker reaches the queue through a manager's proxy
        from multiprocessing import get_context

        manager = get_context("spawn").Manager()
        channel = manager.Queue()
    else:
        channel = queue.Queue()
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            try:
                msg = channel.get(timeout=0.2)
            except queue.Empty:
                continue
            except (EOFError, OSError):  # the manager went away (interrupted)
                return
            try:
                heard(msg)
            except BaseException:  # noqa: BLE001 - a failing display stops these reports, never the match;
                return             # the same callback raises again in the main thread at the chunk's end

    reader = threading.Thread(target=drain, name="match-progress", daemon=True)
    reader.start()
    try:
        yield channel
    finally:
        stop.set()
        reader.join()
        if manager is not None:
            manager.shutdown()


def changed_agents(stored: dict, cfg: MatchConfig, fingerprints: dict[str, str | None]) -> list[str]:
    """The specs of ``cfg`` whose agent is no longer the one a stored match (its
    ``match.json``) was played with; a match stored before fingerprints were kept is
    taken as it is. An agent without a fingerprint (defined in a REPL) counts as changed:
    nothing tells that the stored games are its own."""
    old = stored.get("fingerprints") or {}
    return [spec for side, spec in (("a", cfg.agent_a), ("b", cfg.agent_b))
            if fingerprints[side] is None or (side in old and old[side] != fingerprints[side])]


def _reachable_executor(executor: ExecutorConfig, kinds) -> ExecutorConfig:
    """``executor``, or threads in this process when a kind registered here cannot reach a
    spawned worker process: its factory has no module to import it from (defined in a REPL,
    a notebook or ``python -c``). Pickling the code itself is left to Ray (which does so by
    value with cloudpickle); a local worker is never sent code by value."""
    if executor.backend != "process" or all(importable_by_reference(k) for k in kinds):
        return executor
    return ExecutorConfig("thread", executor.workers, executor.ray_address)


_SAID_NO_FINGERPRINT: set[str] = set()


def _say_no_fingerprint(spec: str) -> None:
    """Warn once per agent that its matches cannot be checked nor reused."""
    if spec not in _SAID_NO_FINGERPRINT:
        _SAID_NO_FINGERPRINT.add(spec)
        warnings.warn(f"agent {spec!r} has no fingerprint (its code cannot be read, e.g. it was defined in a "
                      "REPL, and it has no fingerprint() of its own): its stored matches are never reused",
                      stacklevel=3)


class Match:
    """A match bound to its output folder; :meth:`run` plays the boards not yet played."""

    def __init__(self, cfg: MatchConfig, out: str | os.PathLike):
        self.cfg = cfg
        self.out = Path(out)
        self.deals, self.dd, self.ids = select_deals(cfg)
        self.numbers = np.arange(1, cfg.boards + 1)
        self.n_chunks = math.ceil(cfg.boards / cfg.chunk_size)
        # kinds registered here at run time travel with every chunk to the worker processes
        self.kinds = shipped_kinds([cfg.agent_a, cfg.agent_b])
        self.fingerprints = {"a": agent_fingerprint(cfg.agent_a), "b": agent_fingerprint(cfg.agent_b)}
        for side, spec in (("a", cfg.agent_a), ("b", cfg.agent_b)):
            if self.fingerprints[side] is None:
                _say_no_fingerprint(spec)
        self._check_or_write_header()

    @property
    def header(self) -> dict:
        return {
            "type": "bidlab-match",
            "version": bidlab.__version__,
            "config": self.cfg.to_json(),
            "fingerprints": self.fingerprints,
            "deal_ids": self.ids.astype(int).tolist(),
            "agent_seeds": {
                "a": [_agent_seed(self.cfg.seed, k, 0) for k in range(self.n_chunks)],
                "b": [_agent_seed(self.cfg.seed, k, 1) for k in range(self.n_chunks)],
            },
        }

    def _check_or_write_header(self) -> None:
        path = self.out / "match.json"
        if path.exists():
            try:
                old = json.loads(path.read_text())
            except (OSError, json.JSONDecodeError) as e:
                raise MatchError(f"{path} is not a bidlab match file ({e}); use another --out") from None
            if old.get("config") != self.cfg.to_json() or old.get("deal_ids") != self.header["deal_ids"]:
                raise MatchError(
                    f"{self.out} holds a different match ({describe_config(old.get('config'))}); this one is "
                    f"{describe_config(self.cfg.to_json())}: use another --out folder, or delete it to start over"
                )
            changed = changed_agents(old, self.cfg, self.fingerprints)
            if changed:
                side = "a" if changed[0] == self.cfg.agent_a else "b"
                why = ("it has no fingerprint, so stored games are never reused" if self.fingerprints[side] is None
                       else "the agent has changed since (other weights or rules)")
                raise MatchError(f"{self.out} holds games of an earlier {changed[0]!r}: {why}; "
                                 "move the folder aside or use another --out")
        elif self.out.exists() and any(self.out.iterdir()):
            raise MatchError(f"{self.out} is not empty and holds no match.json; use another --out folder")
        else:
            write_json_atomic(path, self.header)
        # finished chunks: one record shard per chunk, keyed by the match's settings and deals
        try:
            self.chunks = ShardStore.open_job(self.out / "chunks", "match-chunks",
                                              {"config": self.cfg.to_json(), "deal_ids": self.header["deal_ids"]})
        except ShardError as e:
            raise MatchError(f"{self.out}: {e}") from None

    def pending(self) -> list[int]:
        return self.chunks.missing(range(self.n_chunks))

    def boards_done(self) -> int:
        """Boards of finished chunks (played by an earlier run, when this one has not started)."""
        return self.cfg.boards - sum(self._chunk_len(k) for k in self.pending())

    def run(self, workers: int = 2, progress: Callable[[int, int], None] | None = None,
            executor: ExecutorConfig | None = None, note: Callable[[str], None] | None = None) -> MatchSummary:
        """Play every pending chunk; ``progress(done_boards, total_boards)`` as boards finish,
        inside a running chunk too, and ``note(text)`` with the calls made so far (a slow
        agent's chunk shows it is moving long before its first board ends).

        ``executor`` (default: ``workers`` processes) says where chunks are played, e.g. as
        Ray tasks; the results do not depend on it (each chunk's agents are seeded by the
        match seed and the chunk number), nor on whether progress is followed."""
        executor = _reachable_executor(executor or ExecutorConfig(workers=workers), self.kinds)
        pending = self.pending()
        done = self.cfg.boards - sum(self._chunk_len(k) for k in pending)
        if progress:
            progress(done, self.cfg.boards)
        state = {"done": done}
        running: dict[int, tuple[int, int]] = {}  # chunk -> (boards finished, calls made)
        finished: set[int] = set()
        lock = threading.Lock()

        # Only a searching agent takes long enough over a board for a note to help: the calls
        # made so far show it moving before its first board ends. A net's chunk is over in
        # well under a second, and a count of calls in flight would only vary from run to run.
        slow = is_search_agent(self.cfg.agent_a) or is_search_agent(self.cfg.agent_b)
        note = note if slow else None

        def show() -> None:
            if note:  # first, so that a line printed for the progress shows the current note
                calls = sum(c for _, c in running.values())
                note(f"{plural(calls, 'call')} bid so far in the boards being played" if running else "")
            if progress:
                progress(state["done"] + sum(b for b, _ in running.values()), self.cfg.boards)

        def save(result: tuple[int, list[dict]]) -> None:
            k, recs = result
            self.chunks.write_records(k, recs)
            with lock:
                finished.add(k)
                running.pop(k, None)
                state["done"] += len(recs)
                show()

        def heard(msg: tuple[int, int, int]) -> None:
            k, boards, calls = msg
            with lock:
                if k not in finished:
                    running[k] = (boards, calls)
                    show()

        with _progress_channel(executor.backend if (progress or note) and pending else None, heard) as channel:
            run_tasks(_run_chunk, [self._task(k, channel) for k in pending], save, executor)
        if note:
            note("")  # every board is finished: no calls in flight
        return self.finish()

    def _chunk_len(self, k: int) -> int:
        return len(range(k * self.cfg.chunk_size, min((k + 1) * self.cfg.chunk_size, self.cfg.boards)))

    def _task(self, k: int, channel=None):
        s = slice(k * self.cfg.chunk_size, min((k + 1) * self.cfg.chunk_size, self.cfg.boards))
        return (self.cfg.to_json(), k, self.numbers[s], self.deals[s], self.dd[s], self.ids[s], channel, self.kinds)

    def records(self) -> list[dict]:
        """Every finished board in board order (each chunk's checksum checked)."""
        try:
            return [r for k in range(self.n_chunks) for r in self.chunks.read_records(k)]
        except ShardError as e:
            raise MatchError(f"{self.out}: {e}; finished chunks are never rewritten, so move the "
                             "damaged folder aside to replay the match") from None

    def finish(self) -> MatchSummary:
        """Write results.jsonl, auctions.pbn and summary.json from the finished chunks."""
        if self.pending():
            raise MatchError(f"{len(self.pending())} chunks are not finished; run the match again to resume")
        recs = self.records()
        header = dict(self.header, finished=time.strftime("%Y-%m-%dT%H:%M:%S"))
        write_text_atomic(self.out / "results.jsonl",
                          json.dumps(header) + "\n" + "".join(json.dumps(r) + "\n" for r in recs))
        write_text_atomic(self.out / "auctions.pbn", match_pbn(self.cfg, recs))
        summary = summarize(recs, self.cfg.agent_a, self.cfg.agent_b)
        write_json_atomic(self.out / "summary.json", asdict(summary))
        return summary


def summarize(records: list[dict], agent_a: str, agent_b: str) -> MatchSummary:
    """IMPs/board for A with its standard error, each side's average IMPs vs par, and (in
    ``extra["doubled"]``) the doubled and redoubled contracts each side declared."""
    # Each record is one board with both rooms, so the IMPs are already paired by deal.
    imps_a = mean_se([r["imps_a"] for r in records])
    a_par = np.array([v for r in records for v in r["a_vs_par"]], dtype=float)
    a_vs_par = mean_se(a_par)
    extra = {}
    if records and "imps_a_dd" in records[0]:
        dd_imps = mean_se([r["imps_a_dd"] for r in records])
        diff = mean_se([r["imps_a"] - r["imps_a_dd"] for r in records])
        extra = {"scoring": "played", "dd_scored": {"mean": dd_imps.mean, "se": dd_imps.se},
                 "paired_difference": {"mean": diff.mean, "se": diff.se}}
    return MatchSummary(
        boards=imps_a.n,
        imps_per_board=imps_a.mean,
        standard_error=imps_a.se,
        a_vs_par=a_vs_par.mean,
        b_vs_par=0.0 - a_vs_par.mean,  # not -a: a mean of exactly 0 would be stored as -0.0
        a_vs_par_se=a_vs_par.se,
        table_abs_vs_par=float(np.abs(a_par).mean()),
        agent_a=agent_a,
        agent_b=agent_b,
        extra={**extra, "doubled": [side.to_json() for side in doubled_contracts(records, agent_a, agent_b)]},
    )


def match_pbn(cfg: MatchConfig, records: list[dict]) -> str:
    """Both rooms of every board as PBN, with the DD trick count as the Result."""
    from bidlab.bridge import pbn
    from bidlab.bridge.auction import Contract
    from bidlab.bridge.board import Vulnerability
    from bidlab.cards import Seat

    # A team A+B sits with A North (East) and B South (West): each seat's tag names its player.
    a, b = (team_members(spec) or (spec, spec) for spec in (cfg.agent_a, cfg.agent_b))
    out = []
    for r in records:
        deal = Deal.parse(r["deal"])
        board = Board(deal, r["board"], Seat.parse(r["dealer"]), Vulnerability.parse(r["vulnerability"]))
        for room, (ns, ew) in (("open", (a, b)), ("closed", (b, a))):
            t = r[room]
            auction = Auction.parse(t["auction"], board.dealer)
            contract = None if t["contract"] is None else Contract.parse(t["contract"], t["declarer"])
            tags = (Tag("Event", f"bidlab match {cfg.agent_a} vs {cfg.agent_b}"), Tag("Room", room.title()),
                    Tag("North", ns[0]), Tag("East", ew[0]), Tag("South", ns[1]), Tag("West", ew[1]),
                    Tag("DealId", str(r["deal_id"])), Tag("Score", f"NS {t['ns_score']}"))
            out.append(BoardRecord(board, auction, contract, contract is None, t["tricks"], tags))
    return pbn.dumps(out)


def _unfinished(folder: Path) -> str:
    """What to say of a match folder without results: an interrupted match, and the command
    that finishes it."""
    try:
        cfg = MatchConfig(**json.loads((folder / "match.json").read_text())["config"])
        done = f"{Match(cfg, folder).boards_done()} of {plural(cfg.boards, 'board')} played"
    except (OSError, KeyError, TypeError, ValueError, BidlabError):
        return f"{folder} is an unfinished match (no results.jsonl yet); rerun its `bidlab match` command to finish it"
    opts = [f"--boards {cfg.boards}", f"--seed {cfg.seed}"] + ([f"--split {cfg.split}"] if cfg.split != "test" else []) \
        + ([f"--store {cfg.store}"] if cfg.store else []) + ([f"--chunk-size {cfg.chunk_size}"] if cfg.chunk_size != 50 else [])
    return (f"{folder} is an unfinished match ({done}, no results.jsonl yet); rerun it to finish: "
            f"bidlab match '{cfg.agent_a}' '{cfg.agent_b}' {' '.join(opts)} --out {folder}")


def stored_prefix(folder: str | os.PathLike, cfg: MatchConfig) -> list[dict] | None:
    """The records of ``cfg``'s match read from a larger match stored in ``folder``, or None.

    A match of fewer boards with the same agents, split, seed, store and chunk size plays
    exactly the first boards of the larger one: its deals are a prefix of the same seeded
    sample, and each chunk's agents are seeded by the match seed and the chunk number. So when
    ``cfg.boards`` is a whole number of chunks, all finished in ``folder`` by the same agents
    (fingerprints), those chunks are its results, and nothing needs to be played or written."""
    try:
        old = json.loads((Path(folder) / "match.json").read_text())
        stored = MatchConfig(**old["config"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    rest = {k: v for k, v in cfg.to_json().items() if k != "boards"}
    if {k: v for k, v in stored.to_json().items() if k != "boards"} != rest or stored.boards <= cfg.boards \
            or cfg.boards % cfg.chunk_size:
        return None
    if old.get("deal_ids", [])[: cfg.boards] != select_deals(cfg)[2].astype(int).tolist():
        return None
    fingerprints = {"a": agent_fingerprint(cfg.agent_a), "b": agent_fingerprint(cfg.agent_b)}
    if changed_agents(old, cfg, fingerprints):
        return None
    whole = Match(stored, folder)
    chunks = range(cfg.boards // cfg.chunk_size)
    if set(whole.pending()) & set(chunks):
        return None
    return [r for k in chunks for r in whole.chunks.read_records(k)]


def load_results(path: str | os.PathLike) -> tuple[dict, list[dict]]:
    """Read a results.jsonl (or the folder holding one): (header, per-board records)."""
    p = Path(path)
    if p.is_dir():
        p = p / "results.jsonl"
    if not p.exists() and (p.parent / "match.json").exists():
        raise MatchError(_unfinished(p.parent))
    try:
        lines = [x for x in p.read_text().splitlines() if x.strip()]
    except OSError as e:
        raise MatchError(f"cannot read match results {p}: {e.strerror}") from None
    try:
        header = json.loads(lines[0])
        records = [json.loads(x) for x in lines[1:]]
    except (IndexError, json.JSONDecodeError) as e:
        raise MatchError(f"{p} is not a bidlab results file ({e})") from None
    if header.get("type") == "bidlab-bluechip":
        return bluechip_as_match(header, records)
    if header.get("type") != "bidlab-match":
        raise MatchError(f"{p} is not a bidlab results file (no bidlab-match or bidlab-bluechip header)")
    return header, records


def bluechip_as_match(header: dict, lines: list[dict]) -> tuple[dict, list[dict]]:
    """A Blue Chip team match's ``results.jsonl`` (``bidlab bluechip serve --out``) as a
    match's (header, records): the team North-South in the open room is A, as in a match;
    boards finished in both rooms only. Its own fields (``imps_team1``, the played scores,
    the card play) stay in each record."""
    teams = header.get("teams") or {}
    a = str(teams.get("open", {}).get("ns", "team 1"))
    b = str(teams.get("open", {}).get("ew", "team 2"))
    records = []
    for line in lines:
        if not all(isinstance(line.get(room), dict) for room in ("open", "closed")) or "imps_team1" not in line:
            continue
        vul = Vulnerability.parse(line["vulnerability"]) if line.get("vulnerability") else \
            board_vulnerability(int(line["board"]))
        dealer = Seat.parse(line["dealer"]) if line.get("dealer") else board_dealer(int(line["board"]))
        p = par(np.asarray(line["dd"]), vul, dealer).score
        rooms = {room: {k: line[room].get(k) for k in ("room", "auction", "contract", "declarer", "tricks", "ns_score")}
                 for room in ("open", "closed")}
        records.append(dict(line, deal_id=line.get("deal_id"), par_ns=int(p), imps_a=int(line["imps_team1"]),
                            a_vs_par=[imps(rooms["open"]["ns_score"] - p), imps(p - rooms["closed"]["ns_score"])],
                            **{room: dict(line[room], **rooms[room]) for room in rooms}))
    cfg = header.get("config") or {}
    match_header = {"type": "bidlab-match", "source": "bidlab-bluechip", "version": header.get("version"),
                    "config": {"agent_a": a, "agent_b": b, "split": "bluechip", "boards": len(records),
                               "seed": cfg.get("seed"), "store": None, "chunk_size": None},
                    "bluechip": header}
    return match_header, records
