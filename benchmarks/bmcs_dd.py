"""The trick estimator's effect on BMCS (issue 16): its mean trick error on TEST deals, and
BMCS with ``dd=net`` (the estimator) against ``dd=exact`` (single-contract DDS) on the same
positions.

Both searchers share the seed, and a search's random stream is a function of the seed and the
position, so on every position they draw the *same* particle sequence and play the same
rollouts on it: the only difference is how the rollouts' contracts are scored (and hence how
soon successive elimination stops, i.e. how long a prefix of the sequence each one uses). Printed per setting: how often
the two pick the same call, and the cost of the estimator's picks when judged by exact DD
(the exact search's mean score of the call ``dd=net`` chose minus that of its own choice,
in the search's unit, IMPs against the policy's first choice per particle; 0 when they agree).

Positions: greedy self-play of the policy on TEST deals, each decision where the setting has
two or more candidates (as in ``bmcs_latency.py``).

    nice -n 5 python benchmarks/bmcs_dd.py --positions 40 --json dd.json
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch

from bidlab.agents.registry import make_agent
from bidlab.dd import shipped_store
from bidlab.fileio import write_json_atomic
from bidlab.learn.tricks import load_tricknet, mean_abs_error

sys.path.insert(0, str(Path(__file__).parent))
from bmcs_latency import positions  # noqa: E402


def trick_error(split: str = "test") -> dict:
    from bidlab.agents.neural import shipped_models_dir

    deals, dd, _ = shipped_store().load(split)
    net = load_tricknet(shipped_models_dir() / "tricks")
    return {"split": split, "deals": int(len(deals)), "mean_abs_trick_error": mean_abs_error(net, deals, dd)}


def agreement(model: str, opts: str, n: int, seed: int) -> dict:
    sep = "&" if opts else "?"
    net = make_agent(f"bmcs:{model}{opts}", seed)
    exact = make_agent(f"bmcs:{model}{opts}{sep}dd=exact", seed)
    pos = positions(net, n, seed, split="test")
    rows = []
    c0, t0 = time.process_time(), time.perf_counter()
    for st in pos:
        a, b = net.search(st), exact.search(st)
        if not (a.searched and b.searched):
            continue
        by_call = {c.call: c for c in b.candidates}
        # exact's estimate of net's pick: its mean over the particles both rolled (a dropped
        # candidate's mean covers fewer particles; it was dropped for being clearly worse)
        regret = by_call[b.call].mean - by_call[a.call].mean
        rows.append({"same": a.call == b.call, "regret": float(regret), "solves_exact": b.solves})
    same = np.array([r["same"] for r in rows], float)
    reg = np.array([r["regret"] for r in rows], float)
    k = len(rows)
    return {"spec": f"bmcs:{model}{opts}", "positions": len(pos), "searched_by_both": k,
            "agreement": float(same.mean()) if k else math.nan,
            "agreement_se": float(same.std(ddof=1) / math.sqrt(k)) if k > 1 else math.nan,
            "exact_regret_mean": float(reg.mean()) if k else math.nan,
            "exact_regret_se": float(reg.std(ddof=1) / math.sqrt(k)) if k > 1 else math.nan,
            "cpu_seconds": time.process_time() - c0, "wall_seconds": time.perf_counter() - t0,
            "load_avg": os.getloadavg()[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="rl")
    ap.add_argument("--opts", default="", help="search options, e.g. '?preset=paper' (default: fast setting)")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.set_num_threads(1)
    te = trick_error()
    print(f"trick estimator on {te['deals']} {te['split']} deals: mean absolute error of the expected trick "
          f"count {te['mean_abs_trick_error']:.3f} tricks (all 20 declarer x strain pairs)", flush=True)
    ag = agreement(args.model, args.opts, args.positions, args.seed)
    print(f"{ag['spec']} dd=net vs dd=exact on {ag['searched_by_both']} searched test positions "
          f"(of {ag['positions']}): same call {ag['agreement']:.1%} ± {ag['agreement_se']:.1%}; "
          f"net's pick judged by exact DD: {-ag['exact_regret_mean']:+.3f} ± {ag['exact_regret_se']:.3f} "
          f"IMPs/particle vs exact's pick; {ag['cpu_seconds']:.0f} s CPU, {ag['wall_seconds']:.0f} s wall "
          f"(load avg {ag['load_avg']:.1f})", flush=True)
    if args.json:
        write_json_atomic(Path(args.json), {"tricks": te, "agreement": ag})


if __name__ == "__main__":
    main()
