"""What search adds to its policy against other bidders (issue 44: "search against strangers").

For each opponent X, two duplicate matches on the same boards (one MatchConfig seed picks the
same deals, dealers and vulnerabilities): the search agent against X, and its policy against
X. The search's gain is the per-board difference of the two, paired by deal, with its
standard error. Against ``nn:sl`` it is the gain against a style that neither the belief
``belief-mix`` nor the rollouts ever read (its family was left out of the mixture).

    python benchmarks/search_gain.py --split validation --boards 1000 --out results/search-gain
    python benchmarks/search_gain.py --split test --boards 4000 --out results/search-gain-test \\
        --register search-gain

Each match keeps its chunks in ``OUT/<opponent>/{search,policy}`` in the Match format:
rerunning resumes and never replays a finished board. Prints a markdown table;
``--register NAME`` stores it in the results registry.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bidlab.runtime.stats import paired_mean_se

SEARCH = "bmcs:rl?belief=belief-mix&opponents=punish:nn:rl"


def folder_name(spec: str) -> str:
    return "".join(c if c.isalnum() or c in "-_.@" else "_" for c in spec)


def gain(search: str, policy: str, opponent: str, split: str, boards: int, seed: int, out: Path,
         workers: int) -> dict:
    """Both matches against ``opponent`` (resumed where they stopped) and the paired difference."""
    from bidlab.eval.match import Match, MatchConfig

    runs = {}
    for role, spec in (("policy", policy), ("search", search)):
        m = Match(MatchConfig(spec, opponent, split, boards, seed), out / folder_name(opponent) / role)
        s = m.run(workers=workers)
        runs[role] = (s, {r["deal_id"]: r["imps_a"] for r in m.records()})
        print(f"{spec} vs {opponent}: {s.imps_per_board:+.3f} ± {s.standard_error:.3f}", file=sys.stderr, flush=True)
    ids = sorted(runs["search"][1])
    d = paired_mean_se([runs["search"][1][i] for i in ids], [runs["policy"][1][i] for i in ids])
    return {"opponent": opponent, "boards": d.n,
            "policy": {"mean": runs["policy"][0].imps_per_board, "se": runs["policy"][0].standard_error},
            "search": {"mean": runs["search"][0].imps_per_board, "se": runs["search"][0].standard_error},
            "gain": {"mean": d.mean, "se": d.se}}


def markdown(search: str, policy: str, split: str, rows: list[dict]) -> str:
    lines = [f"`{search}` and its policy `{policy}` against each opponent, the same {split} boards.", "",
             "| opponent | boards | policy | search | search's gain, paired |", "| --- | ---: | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| `{r['opponent']}` | {r['boards']:,} | {r['policy']['mean']:+.2f} ± {r['policy']['se']:.2f} "
                     f"| {r['search']['mean']:+.2f} ± {r['search']['se']:.2f} "
                     f"| **{r['gain']['mean']:+.2f} ± {r['gain']['se']:.2f}** |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--search", default=SEARCH, help=f"the search agent [{SEARCH}]")
    ap.add_argument("--policy", default="nn:rl", help="its policy, bidding greedily [nn:rl]")
    ap.add_argument("--against", default="sayc,nn:sl", help="comma-separated opponents [sayc,nn:sl]")
    ap.add_argument("--split", default="validation", choices=["validation", "test"])
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True, help="folder of the match chunks (resumable)")
    ap.add_argument("--register", metavar="NAME", help="store the table in the results registry")
    args = ap.parse_args(argv)
    opponents = [x.strip() for x in args.against.split(",") if x.strip()]
    if not opponents or args.boards < 2 or args.workers < 1:
        print("error: give at least one opponent, --boards >= 2 and --workers >= 1", file=sys.stderr)
        return 2
    from bidlab.agents.specs import check_agent_spec

    for flag, spec in [("--search", args.search), ("--policy", args.policy)] + [("--against", o) for o in opponents]:
        try:
            check_agent_spec(spec)
        except Exception as e:  # noqa: BLE001 - one line, nothing written
            print(f"error: {flag} {spec}: {e}", file=sys.stderr)
            return 2
    rows = [gain(args.search, args.policy, o, args.split, args.boards, args.seed, args.out, args.workers)
            for o in opponents]
    table = markdown(args.search, args.policy, args.split, rows)
    print(table)
    if args.register:
        from bidlab.eval.measurements import record

        command = (f"python benchmarks/search_gain.py --search '{args.search}' --policy {args.policy} "
                   f"--against {args.against} --split {args.split} --boards {args.boards} --seed {args.seed} "
                   f"--out results/search-gain")
        # one field per opponent, named without ':' so that a docs marker can quote it (r:NAME nn_sl)
        result = {r["opponent"].replace(":", "_"): r["gain"] for r in rows} | {"table": table}
        record(args.register, "benchmark", command, result, [args.search, args.policy, *opponents],
               split=args.split, boards=args.boards, seed=args.seed)
        print(f"registered {args.register} in the results registry", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
