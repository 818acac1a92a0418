"""Tournaments between two partnerships (Cohensius et al. 2020, Sec. 5.1, Table 2).

Side A (bidder A + player A) plays side B. Games come in pairs that share one deal
sequence with the sides swapped (A at North-South in even games, East-West in odd ones),
which removes much of the luck of the cards; the first dealer rotates from pair to pair.
Games run in worker processes (both cores by default); finished games are checkpointed
atomically to a JSON file so a killed run resumes where it stopped, and the same seed
gives the same results (iteration-budgeted players only; time budgets are not repeatable).

Reported per side: win rate and average points per round, each with a standard error
clustered by game pair (pairs are independent; the two games of a pair are not).
"""

from __future__ import annotations

import json
import math
import random
import signal
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path

from bidlab.fileio import write_json_atomic
from bidlab.spades.errors import TournamentError
from bidlab.spades.game import play_game
from bidlab.spades.registry import make_bidder, make_player
from bidlab.spades.rules import Rules

FORMAT_VERSION = 1


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


def _worker(args):
    cfg, index = args
    return play_tournament_game(cfg, index)


def _init_worker():
    # Ctrl-C is the parent's to handle (it terminates the pool), and the pool's terminate()
    # must end a worker quietly: a forked worker would otherwise inherit the parent's SIGTERM
    # handler below and print a KeyboardInterrupt traceback as it dies.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def summarize(results: list[dict]) -> dict:
    """Win rate and points per round for side A and B, SEs clustered by game pair."""
    if not results:
        return {"games": 0}
    pairs: dict[int, list[dict]] = {}
    for r in results:
        pairs.setdefault(r["index"] // 2, []).append(r)
    n_games = len(results)
    n_pairs = len(pairs)
    win = sum(r["result_a"] for r in results) / n_games
    rounds = sum(r["rounds"] for r in results)
    ppr_a = sum(r["points_a"] for r in results) / rounds
    ppr_b = sum(r["points_b"] for r in results) / rounds

    def clustered_se(
        values: Callable[[list[dict]], float], weights: Callable[[list[dict]], float], ratio: float
    ) -> float:
        if n_pairs < 2:
            return float("nan")
        tw = sum(weights(g) for g in pairs.values())
        ss = sum((values(g) - ratio * weights(g)) ** 2 for g in pairs.values())
        return math.sqrt(ss * n_pairs / (n_pairs - 1)) / tw

    def res(g):
        return sum(r["result_a"] for r in g)

    def cnt(g):
        return len(g)

    def pa(g):
        return sum(r["points_a"] for r in g)

    def pb(g):
        return sum(r["points_b"] for r in g)

    def nr(g):
        return sum(r["rounds"] for r in g)

    nil = {k: sum(r["nil"][k] for r in results) for k in ("a_bids", "a_made", "b_bids", "b_made")}
    return {
        "games": n_games,
        "rounds": rounds,
        "win_rate_a": win,
        "win_rate_a_se": clustered_se(res, cnt, win),
        "points_per_round_a": ppr_a,
        "points_per_round_a_se": clustered_se(pa, nr, ppr_a),
        "points_per_round_b": ppr_b,
        "points_per_round_b_se": clustered_se(pb, nr, ppr_b),
        "nil_rate_a": nil["a_bids"] / rounds,
        "nil_success_a": nil["a_made"] / nil["a_bids"] if nil["a_bids"] else float("nan"),
        "nil_rate_b": nil["b_bids"] / rounds,
        "nil_success_b": nil["b_made"] / nil["b_bids"] if nil["b_bids"] else float("nan"),
        "draws": sum(1 for r in results if r["result_a"] == 0.5),
        "cpu_seconds": round(sum(r.get("seconds", 0.0) for r in results), 1),
    }


def load_results(cfg: TournamentConfig, out: Path) -> list[dict]:
    """Results already in ``out`` (for resuming); checks they come from the same setup."""
    if not out.exists():
        return []
    try:
        data = json.loads(out.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise TournamentError(
            f"{out}: cannot read the results file to resume ({e}); move it away to start over"
        ) from None
    if data.get("config") != cfg.identity():
        raise TournamentError(
            f"{out}: holds a tournament with a different setup {data.get('config')}; "
            "use another --out or the same options to resume"
        )
    planned = int(data.get("games_planned", 0))
    if cfg.games < planned:
        # A shorter rerun would drop finished games from the file: refuse (a longer one extends).
        raise TournamentError(
            f"{out}: holds a tournament of {planned} games; ask for {planned} or more to resume or "
            "extend it, or use another --out"
        )
    return list(data.get("results", []))


def run_tournament(
    cfg: TournamentConfig,
    out: Path,
    workers: int = 2,
    checkpoint_seconds: float = 15.0,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Play the games not yet in ``out``; checkpoint and return the summary."""
    results = load_results(cfg, out)
    done = {r["index"] for r in results}
    todo = [i for i in range(cfg.games) if i not in done]

    def save():
        results.sort(key=lambda r: r["index"])
        write_json_atomic(
            out,
            {"format": FORMAT_VERSION, "config": cfg.identity(), "games_planned": cfg.games,
             "summary": summarize(results), "results": results},
        )  # fmt: skip

    if progress:
        progress(len(results), cfg.games)
    last = time.monotonic()

    def on_term(signum, frame):  # a kill saves the finished games like Ctrl-C does
        raise KeyboardInterrupt

    pool = None
    if workers > 1 and len(todo) > 1:
        pool = get_context("fork").Pool(workers, initializer=_init_worker)
    old_term = signal.signal(signal.SIGTERM, on_term)
    try:
        if pool is None:
            it = (play_tournament_game(cfg, i) for i in todo)
        else:
            it = pool.imap_unordered(_worker, [(cfg, i) for i in todo], chunksize=1)
        try:
            for r in it:
                results.append(r)
                if progress:
                    progress(len(results), cfg.games)
                if time.monotonic() - last > checkpoint_seconds:
                    save()
                    last = time.monotonic()
        finally:
            if pool is not None:
                pool.terminate()
                pool.join()
    finally:
        save()
        signal.signal(signal.SIGTERM, old_term)
    return summarize(results)
