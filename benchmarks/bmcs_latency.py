"""BMCS decision latency: median and p90 seconds per non-trivial decision (two or more
candidates), split into sampling, filtering, rollouts and DD / trick estimation.

Wall time depends on the load of the machine, so the CPU time of the process is printed
too (what a decision costs on a core of its own).

Positions: the decisions of greedy self-play of the policy on VALIDATION deals, in order,
keeping those where the setting has two or more candidates; every setting searches the same
positions when it can (a setting with a larger p_min or smaller k has fewer). Baseline named
in the output: one greedy policy call on the same position.

    python benchmarks/bmcs_latency.py --positions 20
    python benchmarks/bmcs_latency.py --positions 5 --settings paper-exact
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from bidlab.agents.registry import make_agent
from bidlab.dd import shipped_store
from bidlab.envs.state import init, step_
from bidlab.search.agents import SearchAgent

SETTINGS = {
    "fast": "",                                 # the defaults of SearchConfig: k=3, pmin=0.05, rmin=40, rmax=240, dd=net
    "paper": "?preset=paper",                   # k=4, pmin=0.01, rmin=100, rmax=1500, pmax=1e5, dd=net
    "paper-exact": "?preset=paper&dd=exact",    # the same with exact single-contract DDS
}


def positions(agent: SearchAgent, n: int, seed: int = 0):
    """Up to ``n`` one-row states from greedy self-play where ``agent`` has >= 2 candidates."""
    deals, _, _ = shipped_store().load("validation")
    rng = np.random.default_rng(seed)
    pol, cfg = agent.searcher.policy, agent.searcher.cfg
    out = []
    for i in rng.permutation(len(deals)):
        st = init(deals[i:i + 1], int(rng.integers(4)), int(rng.integers(4)))
        while not st.done[0]:
            p = pol.probabilities(st)[0]
            if (np.sort(p)[::-1][:cfg.k] > cfg.pmin).sum() >= 2:
                out.append(st.copy())
                if len(out) >= n:
                    return out
            step_(st, np.array([int(p.argmax())]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="sl")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--settings", default="fast,paper", help=f"comma list of {', '.join(SETTINGS)}")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    for name in args.settings.split(","):
        agent = make_agent(f"bmcs:{args.model}{SETTINGS[name]}", args.seed)
        pos = positions(agent, args.positions, args.seed)
        t0 = time.perf_counter()
        for st in pos:
            agent.searcher.policy.probabilities(st)
        base = (time.perf_counter() - t0) / max(len(pos), 1)
        rows, cpu = [], []
        for st in pos:
            c0 = time.process_time()
            rows.append(agent.search(st))
            cpu.append(time.process_time() - c0)
        tot = np.array([r.timing["total"] for r in rows])
        split = {k: np.median([r.timing[k] for r in rows]) for k in ("sampling", "filter", "rollouts", "dd")}
        searched = sum(r.searched for r in rows)
        print(f"{name:12s} bmcs:{args.model}{SETTINGS[name]}: {len(rows)} decisions ({searched} searched, "
              f"{len(rows) - searched} fell back): median {np.median(tot):.2f} s, p90 {np.quantile(tot, 0.9):.2f} s "
              f"(CPU time of this process: median {np.median(cpu):.2f} s, p90 {np.quantile(cpu, 0.9):.2f} s); "
              f"median split sampling {split['sampling']:.2f}, filter {split['filter']:.2f}, "
              f"rollouts {split['rollouts']:.2f}, dd {split['dd']:.2f}; median kept {np.median([r.kept for r in rows]):.0f} "
              f"of {np.median([r.sampled for r in rows]):.0f} drawn, {np.median([r.solves for r in rows]):.0f} solves; "
              f"baseline (one greedy policy call) {base * 1000:.1f} ms = x{np.median(tot) / base:.0f}", flush=True)


if __name__ == "__main__":
    main()
