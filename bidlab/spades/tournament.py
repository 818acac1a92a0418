"""Tournaments between two partnerships (Cohensius et al. 2020, Sec. 5.1, Table 2).

Side A (bidder A + player A) plays side B. Games come in pairs that share one deal
sequence with the sides swapped (A at North-South in even games, East-West in odd ones),
which removes much of the luck of the cards; the first dealer rotates from pair to pair.
Game ``i`` is seeded by its index alone, so the same seed gives the same results whatever
the order or the process that plays it (iteration-budgeted players only; time budgets are
not repeatable).

Storage and execution are the shared runtime's:

- results go to a :class:`~bidlab.runtime.shards.ShardStore` folder (kind
  ``spades-tournament``) whose job is the tournament's configuration without the number of
  games, so asking for more games extends it and another setup is refused. Every few
  seconds, and when the run stops for any reason (Ctrl-C and kill included), the games
  finished since the last save are written as one new record shard (one record per game,
  keyed by ``index``); shards are checksummed and never rewritten;
- games run on :func:`bidlab.runtime.executor.run_tasks` (spawned worker processes, or
  this process for one worker), progress goes to a
  :class:`~bidlab.runtime.progress.ProgressTask`, and the standard errors come from
  :func:`bidlab.runtime.stats.ratio_se`.

Results files of the first format (one JSON file, ``{"format": 1, "config", "games_planned",
"results"}``) are upgraded on open: ``out/`` is the store and ``out.json`` beside it the old
file (either spelling of ``--out`` names the pair). Its games not yet in the store are
copied into a new shard; the old file is only read, never changed, so a process of an
older bidlab still writing it loses nothing, and the games it adds later are copied at the
next open.

Reported per side: win rate and average points per round, each with a standard error
clustered by game pair (pairs are independent; the two games of a pair are not).
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bidlab.runtime.executor import ExecutorConfig, run_tasks
from bidlab.runtime.progress import ProgressTask, task_or_null
from bidlab.runtime.shards import JobMismatchError, ShardError, ShardStore, StoreBusyError
from bidlab.runtime.stats import ratio_se
from bidlab.spades.errors import TournamentError
from bidlab.spades.game import play_game
from bidlab.spades.registry import make_bidder, make_player
from bidlab.spades.rules import Rules

KIND = "spades-tournament"
LEGACY_FORMAT = 1
"""``format`` of the single-JSON results files that :func:`open_results` upgrades."""


@dataclass(frozen=True)
class TournamentConfig:
    bidder_a: str
    bidder_b: str
    player_a: str = "srp"
    player_b: str = "srp"
    games: int = 2000
    seed: int = 0
    rules: dict = field(default_factory=lambda: Rules.paper().to_dict())

    def __post_init__(self):
        if self.games < 1:
            raise TournamentError(f"games must be >= 1, got {self.games}")
        make_bidder(self.bidder_a)
        make_bidder(self.bidder_b)
        make_player(self.player_a)
        make_player(self.player_b)
        Rules.from_dict(self.rules)

    def identity(self) -> dict:
        """Everything that must match for a resume (not the number of games)."""
        d = asdict(self)
        d.pop("games")
        return d


def play_tournament_game(cfg: TournamentConfig, index: int) -> dict:
    """Play game ``index`` of the tournament; returns its compact result."""
    rules = Rules.from_dict(cfg.rules)
    pair = index // 2
    a_seat_side = index % 2  # side (0 NS, 1 EW) of partnership A
    bidders = []
    players = []
    for seat in range(4):
        is_a = (seat & 1) == a_seat_side
        bidders.append(make_bidder(cfg.bidder_a if is_a else cfg.bidder_b, seed=index * 4 + seat))
        pseed = random.Random(f"{cfg.seed}:player:{index}:{seat}").getrandbits(63)
        players.append(make_player(cfg.player_a if is_a else cfg.player_b, seed=pseed))
    deal_rng = random.Random(f"{cfg.seed}:deals:{pair}")
    t0 = time.perf_counter()
    rec = play_game(rules, bidders, players, deal_rng, first_dealer=pair % 4)
    a, b = a_seat_side, 1 - a_seat_side
    nil = {"a_bids": 0, "a_made": 0, "b_bids": 0, "b_made": 0}
    for r in rec.rounds:
        for seat in range(4):
            if r.bids[seat] == 0:
                key = "a" if (seat & 1) == a else "b"
                nil[f"{key}_bids"] += 1
                nil[f"{key}_made"] += r.tricks[seat] == 0
    return {
        "index": index,
        "a_side": a,
        "result_a": 0.5 if rec.winner == -1 else float(rec.winner == a),
        "rounds": len(rec.rounds),
        "points_a": sum(r.points[a] for r in rec.rounds),
        "points_b": sum(r.points[b] for r in rec.rounds),
        "score_a": rec.scores[a],
        "score_b": rec.scores[b],
        "nil": nil,
        "seconds": round(time.perf_counter() - t0, 4),
    }


def _worker(args: tuple[TournamentConfig, list[int]]) -> list[dict]:
    cfg, indices = args
    return [play_tournament_game(cfg, i) for i in indices]


def games_per_task(games: int, workers: int) -> int:
    """Games in one executor task: one in this process; with worker processes, enough that
    a long tournament is a few thousand tasks (they are all submitted at once, and a
    Ctrl-C during the submission is not seen), at most 32 (the games of running tasks are
    lost when the run is stopped)."""
    if workers <= 1:
        return 1
    return max(1, min(32, -(-games // (workers * 200))))


def summarize(results: list[dict]) -> dict:
    """Win rate and points per round for side A and B, SEs clustered by game pair
    (:func:`bidlab.runtime.stats.ratio_se`, one cluster per pair)."""
    if not results:
        return {"games": 0}
    pairs: dict[int, list[dict]] = {}
    for r in results:
        pairs.setdefault(r["index"] // 2, []).append(r)
    groups = list(pairs.values())

    def per_pair(key):
        return [sum(key(r) for r in g) for g in groups]

    games = per_pair(lambda r: 1)
    rounds_pp = per_pair(lambda r: r["rounds"])
    win = ratio_se(per_pair(lambda r: r["result_a"]), games)
    ppr_a = ratio_se(per_pair(lambda r: r["points_a"]), rounds_pp)
    ppr_b = ratio_se(per_pair(lambda r: r["points_b"]), rounds_pp)
    rounds = sum(rounds_pp)
    nil = {k: sum(r["nil"][k] for r in results) for k in ("a_bids", "a_made", "b_bids", "b_made")}
    return {
        "games": len(results),
        "rounds": rounds,
        "win_rate_a": win.mean,
        "win_rate_a_se": win.se,
        "points_per_round_a": ppr_a.mean,
        "points_per_round_a_se": ppr_a.se,
        "points_per_round_b": ppr_b.mean,
        "points_per_round_b_se": ppr_b.se,
        "nil_rate_a": nil["a_bids"] / rounds,
        "nil_success_a": nil["a_made"] / nil["a_bids"] if nil["a_bids"] else float("nan"),
        "nil_rate_b": nil["b_bids"] / rounds,
        "nil_success_b": nil["b_made"] / nil["b_bids"] if nil["b_bids"] else float("nan"),
        "draws": sum(1 for r in results if r["result_a"] == 0.5),
        "cpu_seconds": round(sum(r.get("seconds", 0.0) for r in results), 1),
    }


# -- results on disk ----------------------------------------------------------------------------


def results_paths(out: str | os.PathLike) -> tuple[Path, Path]:
    """``(store folder, old results file)`` named by ``out``: ``x`` and ``x.json`` alike."""
    out = Path(out)
    folder = out.with_suffix("") if out.suffix == ".json" else out
    return folder, folder.parent / f"{folder.name}.json"


def _read_legacy(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise TournamentError(f"{path}: cannot read the old results file to upgrade it ({e}); "
                              "move it away to start over") from None
    if not isinstance(data, dict) or data.get("format") != LEGACY_FORMAT or not isinstance(data.get("results"), list):
        raise TournamentError(f"{path}: not a tournament results file of format {LEGACY_FORMAT}; "
                              "move it away or use another --out")
    return data


def _planned(store: ShardStore) -> int:
    return max((int(s.fields.get("games_planned", 0)) for s in store.shards), default=0)


def _done_indices(store: ShardStore) -> set[int]:
    return {int(i) for s in store.shards for i in s.fields.get("games", ())}


def _next_shard(store: ShardStore) -> int:
    return max((s.index for s in store.shards), default=-1) + 1


def _write_games(store: ShardStore, games: list[dict], planned: int, **fields) -> None:
    """One new shard holding ``games``; its entry lists their indices (resume reads no shard)."""
    games = sorted(games, key=lambda r: r["index"])
    store.write_records(_next_shard(store), games, games=[r["index"] for r in games],
                        games_planned=planned, **fields)


def open_results(cfg: TournamentConfig, out: str | os.PathLike) -> ShardStore:
    """The store of ``cfg``'s games at ``out`` (made if missing), with the games of an old
    results file beside it copied in (see the module docstring). Refuses a store or an old
    file of another setup."""
    folder, legacy_path = results_paths(out)
    legacy = _read_legacy(legacy_path) if legacy_path.is_file() else None
    different = "holds a tournament with a different setup {}; use another --out or the same options to resume"
    if legacy is not None and legacy.get("config") != cfg.identity():
        raise TournamentError(f"{legacy_path}: " + different.format(legacy.get("config")))
    try:
        store = ShardStore.open_job(folder, KIND, cfg.identity())
    except JobMismatchError:
        raise TournamentError(f"{folder}: " + different.format(_job_of(folder))) from None
    except ShardError as e:
        raise TournamentError(str(e)) from None
    if legacy is not None:
        done = _done_indices(store)
        new = {int(r["index"]): r for r in legacy["results"] if int(r["index"]) not in done}
        planned = int(legacy.get("games_planned", 0))
        if new or planned > _planned(store):
            _write_games(store, list(new.values()), planned, source=legacy_path.name)
    return store


def _job_of(folder: Path) -> object:
    try:
        return ShardStore.open(folder, KIND).job
    except ShardError:
        return None


def read_results(out: str | os.PathLike) -> tuple[dict, list[dict]]:
    """``(configuration, finished games in index order)`` of the results at ``out``: a
    store, or an old results file not upgraded yet (read only)."""
    folder, legacy_path = results_paths(out)
    games: dict[int, dict] = {}
    config = None
    if (folder / "manifest.json").is_file():
        try:
            store = ShardStore.open(folder, KIND)
            config = store.job
            for r in store.iter_records():
                games.setdefault(int(r["index"]), r)
        except ShardError as e:
            raise TournamentError(str(e)) from None
    if legacy_path.is_file():
        legacy = _read_legacy(legacy_path)
        if config is not None and legacy.get("config") != config:
            raise TournamentError(f"{legacy_path}: holds another tournament than {folder}")
        config = legacy.get("config")
        for r in legacy["results"]:
            games.setdefault(int(r["index"]), r)
    if config is None:
        raise TournamentError(f"{out}: no tournament results here (neither a results folder nor a .json file)")
    return config, [games[i] for i in sorted(games)]


def load_results(cfg: TournamentConfig, out: str | os.PathLike) -> list[dict]:
    """The finished games of ``cfg`` at ``out``, in index order (upgrading an old file)."""
    store = open_results(cfg, out)
    return _games(store)


def _games(store: ShardStore) -> list[dict]:
    try:
        games = {int(r["index"]): r for r in store.iter_records()}
    except ShardError as e:
        raise TournamentError(f"{e}; finished shards are never rewritten, so move the damaged folder "
                              "aside to replay the tournament") from None
    return [games[i] for i in sorted(games)]


def run_tournament(
    cfg: TournamentConfig,
    out: str | os.PathLike,
    workers: int = 2,
    checkpoint_seconds: float = 15.0,
    progress: ProgressTask | None = None,
) -> dict:
    """Play the games of ``cfg`` not yet at ``out``; save them and return the summary.

    ``out`` names the results store (see the module docstring). A run that stops early
    (Ctrl-C, SIGTERM, an error) first saves every game it finished, then re-raises
    (SIGTERM as KeyboardInterrupt).
    """
    store = open_results(cfg, out)
    planned = _planned(store)
    if cfg.games < planned:
        # Asked for fewer games than an earlier run: refuse rather than report a different
        # (shorter) tournament than the one on disk; a longer run extends it.
        raise TournamentError(
            f"{store.path}: holds a tournament of {planned} games; ask for {planned} or more to resume or "
            "extend it, or use another --out"
        )
    progress = task_or_null(progress)
    try:
        with store.exclusive():
            done = _done_indices(store)
            todo = [i for i in range(cfg.games) if i not in done]
            progress.start(cfg.games, cfg.games - len(todo))
            _play(store, cfg, todo, workers, checkpoint_seconds, progress)
    except StoreBusyError:
        raise TournamentError(f"{store.path}: another process is running this tournament; "
                              "wait for it or stop it first") from None
    return summarize(_games(store))


def _play(store: ShardStore, cfg: TournamentConfig, todo: list[int], workers: int,
          checkpoint_seconds: float, progress: ProgressTask) -> None:
    unsaved: list[dict] = []
    last = time.monotonic()

    def save() -> None:
        nonlocal last
        # A run that played nothing new still records how many games it planned (#20).
        if unsaved or cfg.games > _planned(store):
            _write_games(store, unsaved, cfg.games)
            unsaved.clear()
        last = time.monotonic()

    def on_result(rs: list[dict]) -> None:
        unsaved.extend(rs)
        progress.advance(len(rs))
        if time.monotonic() - last > checkpoint_seconds:
            save()

    def on_term(signum, frame):  # a kill saves the finished games like Ctrl-C does
        raise KeyboardInterrupt

    main = threading.current_thread() is threading.main_thread()
    old_term = signal.signal(signal.SIGTERM, on_term) if main else None
    try:
        k = games_per_task(len(todo), workers)
        tasks = [(cfg, todo[i:i + k]) for i in range(0, len(todo), k)]
        run_tasks(_worker, tasks, on_result, ExecutorConfig("process", workers))
    finally:
        try:
            save()
        finally:
            if main:
                signal.signal(signal.SIGTERM, old_term)
