"""Choosing the punisher's threshold (issue 44) on VALIDATION boards.

For each threshold T, a duplicate match of ``punish:BASE?threshold=T`` against ``BASE`` on
validation deals (never the test split: this is where the choice is made). The threshold
shipped as :data:`bidlab.search.punish.THRESHOLD` is the one with the best margin.

Usage::

    python benchmarks/punish_threshold.py --base nn:rl@soup1 --boards 4000 \
        --thresholds 0,1,2,3,4,6 --register punish-threshold-sweep

Prints a markdown table (threshold, IMPs/board ± SE, doubles made by the punisher's judge);
``--register NAME`` stores it in the results registry (docs/punishers.md quotes it). Match
folders go to a temporary folder and are removed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def sweep(base: str, thresholds: list[float], boards: int, seed: int, workers: int,
          judge: str | None = None) -> list[dict]:
    from bidlab.eval.doubled import doubled_contracts
    from bidlab.eval.match import Match, MatchConfig

    rows = []
    with tempfile.TemporaryDirectory(prefix="bidlab-punish-sweep-") as scratch:
        for t in thresholds:
            spec = f"punish:{base}?threshold={t:g}" + ("" if judge is None else f"&judge={judge}")
            cfg = MatchConfig(spec, base, "validation", boards, seed)
            m = Match(cfg, Path(scratch) / f"t{t:g}")
            s = m.run(workers=workers)
            d = doubled_contracts(m.records(), spec, base)
            rows.append({"threshold": t, "imps": s.imps_per_board, "se": s.standard_error, "doubled": d})
            print(f"threshold {t:g}: {s.imps_per_board:+.3f} ± {s.standard_error:.3f}", file=sys.stderr, flush=True)
    return rows


def markdown(base: str, boards: int, rows: list[dict], judge: str | None = None) -> str:
    judged = "" if judge is None else f"&judge={judge}"
    lines = [f"`punish:{base}?threshold=T{judged}` against `{base}`, {boards:,} validation boards each.", "",
             "| threshold T (IMPs) | IMPs/board for the punisher |", "| ---: | ---: |"]
    best = max(rows, key=lambda r: r["imps"])
    for r in rows:
        mark = " (chosen)" if r is best else ""
        lines.append(f"| {r['threshold']:g}{mark} | {r['imps']:+.2f} ± {r['se']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="nn:rl@soup1", help="the agent the punisher wraps and meets")
    ap.add_argument("--thresholds", default="0,1,2,3,4,6", help="comma-separated thresholds in IMPs")
    ap.add_argument("--boards", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--judge", default=None,
                    help="judge of the punisher: a shipped name or a model path (a candidate before it ships); "
                         "default: the shipped judge")
    ap.add_argument("--register", metavar="NAME", help="store the table in the results registry")
    args = ap.parse_args(argv)
    try:
        thresholds = [float(x) for x in args.thresholds.split(",") if x.strip()]
    except ValueError:
        print(f"error: --thresholds {args.thresholds!r}: give comma-separated numbers", file=sys.stderr)
        return 2
    if not thresholds or args.boards < 1 or args.workers < 1:
        print("error: give at least one threshold, --boards >= 1 and --workers >= 1", file=sys.stderr)
        return 2
    if args.register and args.judge is not None:
        print("error: --register records the shipped judge's sweep; ship the candidate judge first", file=sys.stderr)
        return 2
    from bidlab.agents.specs import check_agent_spec

    try:
        check_agent_spec(f"punish:{args.base}")
        if args.judge is not None:
            check_agent_spec(f"punish:{args.base}?judge={args.judge}")
    except Exception as e:  # noqa: BLE001 - one line, nothing written
        print(f"error: {'--judge' if 'judge=' in str(e) else '--base'}: {e}", file=sys.stderr)
        return 2
    rows = sweep(args.base, thresholds, args.boards, args.seed, args.workers, args.judge)
    table = markdown(args.base, args.boards, rows, args.judge)
    print(table)
    if args.register:
        from bidlab.eval.measurements import record

        best = max(rows, key=lambda r: r["imps"])
        command = (f"python benchmarks/punish_threshold.py --base {args.base} --thresholds={args.thresholds} "
                   f"--boards {args.boards} --seed {args.seed}")
        result = {"best_threshold": best["threshold"], "best": {"mean": best["imps"], "se": best["se"]},
                  "table": table}
        record(args.register, "benchmark", command, result,
               [args.base, "model:judge", "file:search/punish.py"], split="validation", boards=args.boards,
               seed=args.seed)
        print(f"registered {args.register} in the results registry", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
