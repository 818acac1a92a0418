"""JPS search time against brute force over the same proposals (Tian et al. 2020, Sec. 6,
"Correctness of Theorem 1 and runtime speed": 4x, 13x, 3x, 30x).

Both searches score exactly the same proposals (the chains of :func:`bidlab.tabular.jps.search`).
JPS scores them all from one evaluation through the policy-change density (Theorem 1); brute
force applies each proposal and re-evaluates the whole game (O(|S| M)). When a brute-force pass
over all ``M`` proposals would take too long, a uniform random sample of ``max_brute`` proposals
is timed and the time is scaled by ``M / max_brute`` (evaluations of one game all cost the same);
the report says when that was done.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from bidlab.tabular.evaluate import evaluate, game_value, random_policy
from bidlab.tabular.games import make_game
from bidlab.tabular.jps import apply_chain, enumerate_chains, search, search_depths


@dataclass(frozen=True)
class SpeedCase:
    spec: str
    depth: int | None
    paper_ratio: float
    label: str


PAPER_CASES: tuple[SpeedCase, ...] = (
    SpeedCase("simple_bidding:8", None, 4.0, "SimpleBid N=8, full depth"),
    SpeedCase("simple_bidding:16", 3, 13.0, "SimpleBid N=16, D=3"),
    SpeedCase("comm:4", None, 3.0, "Comm L=4, full depth"),
    SpeedCase("mini_bridge:4", 3, 30.0, "2SuitBridge N=4, D=3"),
)


@dataclass(frozen=True)
class SpeedResult:
    case: SpeedCase
    proposals: int
    jps_seconds: float  # per search (one JPS iteration's search, evaluation included)
    brute_seconds: float  # per search, measured or scaled from a sample
    brute_sampled: int  # proposals actually re-evaluated (== proposals when not sampled)
    agree: bool  # best gains equal (checked when brute force ran on all proposals)

    @property
    def ratio(self) -> float:
        return self.brute_seconds / self.jps_seconds


def measure(case: SpeedCase, seed: int = 0, max_brute: int = 2000) -> SpeedResult:
    """Time one JPS search and brute force over its proposals, averaged over the start depths
    (D-limited) or from the root (full depth), on a seeded random policy."""
    game = make_game(case.spec)
    rng = np.random.default_rng(seed)
    sigma = random_policy(game, rng)
    starts: list[int | None] = [None] if case.depth is None else list(search_depths(game, case.depth))
    evaluate(game, sigma)  # warm the cached index plans before timing
    jps_t = brute_t = 0.0
    n_total = n_brute = 0
    agree = True
    for start in starts:
        times = []
        for _ in range(3):  # the median of 3 runs: the machine is shared and timings swing
            t0 = time.perf_counter()
            ev = evaluate(game, sigma)
            res = search(game, sigma, ev, start_depth=start, max_length=case.depth)
            times.append(time.perf_counter() - t0)
        jps_t += sorted(times)[1]
        chains = enumerate_chains(game, start_depth=start, max_length=case.depth)
        sample = chains
        if len(chains) > max_brute:
            pick = rng.choice(len(chains), size=max_brute, replace=False)
            sample = [chains[i] for i in pick]
        t0 = time.perf_counter()
        base = game_value(game, sigma)
        best = 0.0
        for chain in sample:
            best = max(best, game_value(game, apply_chain(sigma, chain)) - base)
        elapsed = time.perf_counter() - t0
        brute_t += elapsed * len(chains) / len(sample)
        if len(sample) == len(chains):
            agree &= abs(best - res.gain) < 1e-9
        n_total += len(chains)
        n_brute += len(sample)
    k = len(starts)
    return SpeedResult(case, n_total // k, jps_t / k, brute_t / k, n_brute // k, agree)
