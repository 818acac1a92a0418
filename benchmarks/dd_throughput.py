"""DD throughput: bidlab's batched table path vs a plain endplay ``calc_all_tables`` loop.

Baseline (named): endplay 0.5.12 ``calc_all_tables`` on ``endplay.types.Deal`` objects built
from PBN strings, 40 deals per call (DDS's limit of 200 tables), measured in the same run
on the same deals. Also reports single-contract solves/s (``solve_contracts``) against full
tables/s, and the ratio. Runs are interleaved (baseline, bidlab, baseline, ...) so that load
from other processes on this shared machine hits both about equally.

    python benchmarks/dd_throughput.py --deals 200 --rounds 3
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=120, help="deals per timed run (multiple of 40 is fairest)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of each method")
    ap.add_argument("--contracts", type=int, default=400, help="single-contract solves per round")
    ap.add_argument("--threads", type=int, default=0, help="DDS threads (0 = all cores)")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()

    from endplay.dds import calc_all_tables
    from endplay.types import Deal as EpDeal

    from bidlab.cards import Deal, random_deals
    from bidlab.dd import dd_tables, set_threads, solve_contracts

    set_threads(args.threads)
    rng = np.random.default_rng(args.seed)

    def baseline(deals: np.ndarray) -> np.ndarray:
        pbns = [Deal.from_array(d).to_pbn() for d in deals]
        out = []
        for i in range(0, len(pbns), 40):
            tables = calc_all_tables([EpDeal(p) for p in pbns[i:i + 40]])
            out.extend(t.to_list(player_major=True) for t in tables)  # endplay order: [player][S,H,D,C,NT]
        return np.array(out)

    dd_tables(random_deals(2, seed=0))  # warm up DDS memory
    t_base = t_ours = t_single = 0.0
    n_tables = n_single = 0
    for r in range(args.rounds):
        deals = random_deals(args.deals, seed=int(rng.integers(2**31)))
        order = ("base", "ours") if r % 2 == 0 else ("ours", "base")
        for which in order:
            t0 = time.perf_counter()
            if which == "base":
                ref = baseline(deals)
                t_base += time.perf_counter() - t0
            else:
                ours = dd_tables(deals)
                t_ours += time.perf_counter() - t0
        # same numbers, endplay's strain order S,H,D,C,NT vs ours C,D,H,S,NT
        assert np.array_equal(ours[:, :, [3, 2, 1, 0, 4]], ref), "bidlab and endplay tables differ"
        n_tables += args.deals
        rows = rng.integers(0, args.deals, args.contracts)
        t0 = time.perf_counter()
        single = solve_contracts(deals[rows], rng.integers(0, 4, args.contracts), rng.integers(0, 5, args.contracts))
        t_single += time.perf_counter() - t0
        assert single.shape == (args.contracts,)
        n_single += args.contracts

    base_rate, ours_rate, single_rate = n_tables / t_base, n_tables / t_ours, n_single / t_single
    print(f"deals per run {args.deals}, rounds {args.rounds}, DDS threads {args.threads or 'all'}")
    print(f"baseline endplay calc_all_tables loop: {base_rate:8.2f} tables/s")
    print(f"bidlab dd_tables (batched):           {ours_rate:8.2f} tables/s")
    print(f"ratio bidlab / endplay baseline:      {ours_rate / base_rate:8.3f}  (target >= 0.95)")
    print(f"bidlab solve_contracts:               {single_rate:8.2f} single-contract solves/s")
    print(f"ratio single solves/s / full tables/s:{single_rate / ours_rate:8.2f}")


if __name__ == "__main__":
    main()
