"""Strength of search in the style of Qiu et al. Table IV, in one pass on TEST deals.

Two duplicate matches on the same deals (the same MatchConfig seed picks the same boards):
``bmcs:MODEL?OPTS`` vs ``nn:MODEL`` (greedy) and ``mcs:MODEL?OPTS`` vs ``nn:MODEL``, played
chunk by chunk in turn (or one per process with ``--only``); the report uses the chunks both finished. Every
finished chunk is kept (results/<name>/{bmcs,mcs}/chunks, the Match format); rerunning
resumes; lost boards are never replayed. ``--report`` prints IMPs/board ± SE for each, and
the paired per-deal difference BMCS - MCS, over the chunks both finished.

    nice -n 10 python benchmarks/bmcs_strength.py --boards 1000 --out results/bmcs-strength
    python benchmarks/bmcs_strength.py --out results/bmcs-strength --report
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import torch

from bidlab.eval.match import Match, MatchConfig, play_boards, summarize
from bidlab.runtime.shards import ShardExistsError


def matches(args) -> dict[str, Match]:
    out = Path(args.out)
    specs = {"bmcs": f"bmcs:{args.model}{args.opts}", "mcs": f"mcs:{args.model}{args.opts}"}
    return {k: Match(MatchConfig(s, f"nn:{args.model}", boards=args.boards, seed=args.seed, chunk_size=args.chunk),
                     out / k) for k, s in specs.items()}


def run(args) -> None:
    ms = matches(args)
    first = next(iter(ms.values()))
    t0 = time.time()
    order = range(first.n_chunks - 1, -1, -1) if args.reverse else range(first.n_chunks)
    for k in order:
        for name, m in ms.items():
            if args.only and name != args.only:
                continue
            if m.chunks.refresh().has(k):      # another process (--reverse) may have played it
                continue
            c0 = time.time()
            task = m._task(k)
            recs = play_boards(MatchConfig(**task[0]), k, *task[2:])
            try:
                m.chunks.write_records(k, recs)
            except ShardExistsError:           # the other process finished it meanwhile: keep theirs
                continue
            print(f"chunk {k} {name}: {len(recs)} boards in {time.time() - c0:.0f}s "
                  f"(elapsed {time.time() - t0:.0f}s)", flush=True)


def report(args) -> dict:
    ms = matches(args)
    first = next(iter(ms.values()))
    both = [k for k in range(first.n_chunks) if all(m.chunks.has(k) for m in ms.values())]
    if not both:
        print("no chunk finished by both matches yet")
        return {}
    recs = {name: [r for k in both for r in _chunk(m, k)] for name, m in ms.items()}
    out = {"chunks": len(both), "boards": len(recs["bmcs"])}
    for name, rs in recs.items():
        s = summarize(rs, ms[name].cfg.agent_a, ms[name].cfg.agent_b)
        out[name] = {"imps": s.imps_per_board, "se": s.standard_error, "line": s.line()}
        print(s.line())
    d = np.array([a["imps_a"] - b["imps_a"] for a, b in zip(recs["bmcs"], recs["mcs"])], float)
    se = d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    out["bmcs_minus_mcs"] = {"imps": float(d.mean()), "se": float(se)}
    print(f"BMCS - MCS (paired by deal, each vs greedy): {d.mean():+.3f} ± {se:.3f} IMPs/board over {len(d)} boards")
    return out


def _chunk(m: Match, k: int) -> list[dict]:
    return m.chunks.read_records(k)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="sl")
    ap.add_argument("--opts", default="", help="search options, e.g. '?k=4&rmax=1500' (default: fast setting)")
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--chunk", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="results/bmcs-strength")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--reverse", action="store_true",
                    help="play chunks from the last one down (a second process beside a forward one)")
    ap.add_argument("--only", choices=["bmcs", "mcs"], help="play one of the two matches (run two processes in parallel)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    if args.report:
        report(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
