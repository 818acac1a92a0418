"""BMCS decision latency: median and p90 seconds per non-trivial decision (two or more
candidates), split into sampling, filtering, rollouts and DD / trick estimation.

Wall time depends on the load of the machine, so the CPU time of the process (what a
decision costs on a core of its own, per phase too) and the load average are printed beside it.

Positions: the decisions of greedy self-play of the policy on VALIDATION deals, in order,
keeping those where the setting has two or more candidates; every setting searches the same
positions when it can (a setting with a larger p_min or smaller k has fewer). Baseline named
in the output: one greedy policy call on the same position.

    python benchmarks/bmcs_latency.py --positions 40 --json latency.json
    python benchmarks/bmcs_latency.py --positions 5 --settings paper-exact
    python benchmarks/bmcs_latency.py --positions 10 --devices cpu,cuda   # the same positions on a GPU
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import torch

import bidlab
from bidlab.agents.registry import make_agent
from bidlab.dd import shipped_store
from bidlab.envs.state import init, step_
from bidlab.fileio import write_json_atomic
from bidlab.search.agents import SearchAgent
from bidlab.search.bmcs import PHASES

SETTINGS = {   # name -> (agent kind, options)
    "fast": ("bmcs", ""),                               # SearchConfig defaults: k=3, pmin=0.05, rmin=40, rmax=240, dd=net
    "paper": ("bmcs", "?preset=paper"),                 # k=4, pmin=0.01, rmin=100, rmax=1500, pmax=1e5, dd=net
    "fast-exact": ("bmcs", "?dd=exact"),                # the fast setting with exact single-contract DDS
    "paper-exact": ("bmcs", "?preset=paper&dd=exact"),  # the authors' setting with exact DDS
    "mcs-fast": ("mcs", ""),                            # uniform sampling (the ablation), fast setting
}


def positions(agent: SearchAgent, n: int, seed: int = 0, split: str = "validation"):
    """Up to ``n`` one-row states from greedy self-play where ``agent`` has >= 2 candidates."""
    deals, _, _ = shipped_store().load(split)
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


def _q(xs, q: float) -> float:
    return float(np.quantile(np.asarray(xs, float), q)) if len(xs) else float("nan")


def measure(name: str, model: str, n: int, seed: int, device: str = "cpu") -> dict:
    """Search ``n`` positions with one setting on one torch device; every number the report needs."""
    opts = SETTINGS[name][1]
    if device != "cpu":
        opts += f"{'&' if opts else '?'}device={device}"
    spec = f"{SETTINGS[name][0]}:{model}{opts}"
    agent = make_agent(spec, seed)
    pos = positions(agent, n, seed)
    t0, c0 = time.perf_counter(), time.process_time()
    for st in pos:
        agent.searcher.policy.probabilities(st)
    base_wall = (time.perf_counter() - t0) / max(len(pos), 1)
    base_cpu = (time.process_time() - c0) / max(len(pos), 1)
    load0 = os.getloadavg()[0]
    rows = [agent.search(st) for st in pos]
    load1 = os.getloadavg()[0]
    out = {"setting": name, "spec": spec, "decisions": len(rows), "searched": sum(r.searched for r in rows),
           "load_avg_1min": [round(load0, 2), round(load1, 2)],
           "baseline_ms": {"wall": base_wall * 1e3, "cpu": base_cpu * 1e3},
           "kept_median": _q([r.kept for r in rows], 0.5), "drawn_median": _q([r.sampled for r in rows], 0.5),
           "survival_median": _q([r.kept / r.sampled for r in rows if r.sampled], 0.5),
           "solves_median": _q([r.solves for r in rows], 0.5)}
    for clock, prefix in (("wall", ""), ("cpu", "cpu_")):
        tot = [r.timing[prefix + "total"] for r in rows]
        out[clock] = {"median": _q(tot, 0.5), "p90": _q(tot, 0.9), "mean": float(np.mean(tot)) if tot else float("nan"),
                      "split_mean": {k: float(np.mean([r.timing[prefix + k] for r in rows])) for k in PHASES}}
    return out


def line(m: dict) -> str:
    w, c = m["wall"], m["cpu"]
    split = ", ".join(f"{k} {c['split_mean'][k]:.3f}" for k in PHASES)
    wsplit = ", ".join(f"{k} {w['split_mean'][k]:.3f}" for k in PHASES)
    return (f"{m['setting']:12s} {m['spec']}: {m['decisions']} decisions ({m['searched']} searched, "
            f"{m['decisions'] - m['searched']} fell back)\n"
            f"  CPU s/decision: median {c['median']:.3f}, p90 {c['p90']:.3f}, mean {c['mean']:.3f}; mean split {split}\n"
            f"  wall s/decision: median {w['median']:.3f}, p90 {w['p90']:.3f}, mean {w['mean']:.3f}; mean split {wsplit} "
            f"(load avg {m['load_avg_1min'][0]:.1f} -> {m['load_avg_1min'][1]:.1f} on {os.cpu_count()} cores)\n"
            f"  particles: median {m['kept_median']:.0f} kept of {m['drawn_median']:.0f} drawn "
            f"(median survival {m['survival_median']:.1%}), median {m['solves_median']:.0f} DD solves/estimates; "
            f"baseline one greedy policy call {m['baseline_ms']['cpu']:.2f} ms CPU")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="rl")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--settings", default="fast,paper", help=f"comma list of {', '.join(SETTINGS)}")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--json", help="also write the numbers to this JSON file")
    ap.add_argument("--devices", default="cpu", help="comma list of torch devices to search on (cpu, cuda...), "
                    "each on the same positions; ratios are printed against the first")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    print(f"bidlab {bidlab.__version__}, torch threads {args.threads}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores", flush=True)
    results = []
    names, devices = args.settings.split(","), args.devices.split(",")
    for name in names:
        if name not in SETTINGS:
            raise SystemExit(f"unknown setting {name!r}; choose from {', '.join(SETTINGS)}")
    for name in names:
        first = None
        for device in devices:
            results.append(measure(name, args.model, args.positions, args.seed, device))
            print(line(results[-1]), flush=True)
            if first is None:
                first = results[-1]
            else:
                print(f"  {device} vs {devices[0]}: wall median {results[-1]['wall']['median'] / first['wall']['median']:.2f}x, "
                      f"mean {results[-1]['wall']['mean'] / first['wall']['mean']:.2f}x", flush=True)
    if args.json:
        write_json_atomic(Path(args.json), {"model": args.model, "positions": args.positions, "seed": args.seed,
                                            "results": results})


if __name__ == "__main__":
    main()
