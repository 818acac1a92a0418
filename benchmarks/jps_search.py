"""Online JPS search throughput: positions searched per second at the paper setting (Tian et
al. 2020, Sec. 7.3: threshold 0.05, 5 opponent samples x 5 rollouts per partner branch,
sigma sampled), against the named baseline measured in the same run:

- ``rollout`` (baseline): one plain rollout of sigma from each of the same positions to the
  end, DD-scored from the stored tables -- what a self-play actor does per position.
- ``1-search``: P1's candidates only, partner on policy (``joint=False``).
- ``jps``: the joint search (P1 candidates x opponent samples x P2 branches x rollouts).

Positions are decisions of ``nn:sl`` self-play on validation deals, one uniformly drawn
decision per game (the per-game dice of :func:`bidlab.search.jps.searched_positions`).
The contenders run in alternating rounds (the machine is shared); the ratio reported is the
median of the per-round ratios.

Run: ``python benchmarks/jps_search.py [--positions 128] [--rounds 3] [--threads 1]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from bidlab.agents.neural import load_neural_agent
from bidlab.dd import shipped_store
from bidlab.envs.rollout import rollout, score
from bidlab.envs.state import init
from bidlab.search.jps import JPSSearchConfig, SampledPolicy, joint_search, prefix_state, searched_positions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=128)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    sl = load_neural_agent("sl")
    deals, dd, _ = shipped_store().load("validation")
    pick = rng.choice(len(deals), args.positions, replace=False)
    start = init(deals[pick], rng.integers(0, 4, args.positions), rng.integers(0, 4, args.positions))
    end = rollout(start, [SampledPolicy(sl, rng)], np.zeros(4, np.int64))
    rows, lengths = searched_positions(end, 1.0, rng)
    pos = prefix_state(end, rows, lengths)
    pdd = dd[pick][rows]
    ref = score(end, dd=dd[pick]).ns_score[rows]
    cfg = JPSSearchConfig.paper()

    def plain() -> int:
        out = rollout(pos, [SampledPolicy(sl, rng)], np.zeros(4, np.int64))
        score(out, dd=pdd)
        return pos.n

    def one() -> int:
        return joint_search(pos, sl, reference_ns=ref, dd=pdd, config=cfg, rng=rng, joint=False).rollouts

    def jps() -> int:
        return joint_search(pos, sl, reference_ns=ref, dd=pdd, config=cfg, rng=rng).rollouts

    contenders = {"rollout": plain, "1-search": one, "jps": jps}
    times = {k: [] for k in contenders}
    leaves = {}
    for _ in range(args.rounds):
        for k, f in contenders.items():
            t0 = time.perf_counter()
            leaves[k] = f()
            times[k].append(time.perf_counter() - t0)
    base = np.array(times["rollout"])
    print(f"{pos.n} positions (nn:sl self-play decisions, validation deals), paper setting "
          f"thr={cfg.threshold} {cfg.opponent_samples}x{cfg.rollouts}, torch threads {args.threads}, "
          f"{args.rounds} rounds")
    for k in contenders:
        t = np.array(times[k])
        print(f"{k:>9}: {pos.n / np.median(t):9.1f} positions/s  ({leaves[k]} rollouts per pass, "
              f"{leaves[k] / np.median(t):8.0f} rollouts/s)  time x{np.median(t / base):7.1f} the plain rollout")


if __name__ == "__main__":
    main()
