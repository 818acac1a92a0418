"""Table 3 of Tian et al. 2020 (Sec. 7.3) on this machine: fine-tunings of one starting
policy compared by duplicate matches (issue #17).

Each run folder is a ``bidlab train rl`` run resumed from the same start with the same budget
(``--updates``, ``--replay-ratio``), with or without ``--jps``. This script

1. plays every run's last policy (``RUN/final``) against the start and against every other
   run on ``--boards`` TEST boards (one pass, no reruns), and prints Table 3 in IMPs/board ± SE;
2. if the runs kept their checkpoints' policies (``--keep-policies``: ``RUN/policies/``),
   plays each against the start on ``--curve-boards`` VALIDATION boards and draws the learning
   curves (IMPs/board against the start, ± 1 SE) to ``--plot``.

Matches are ``bidlab.eval.match`` folders under ``--out``: a stopped run resumes, a finished
match is read back, not replayed.

    python benchmarks/jps_table3.py --start runs/start/rl \\
        --run "no search=runs/nosearch" --run "1-search=runs/one" --run "JPS=runs/jps" \\
        --boards 4000 --curve-boards 4000 --out results/table3 --plot docs/jps_table3.png
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import bidlab.search  # noqa: E402,F401  (registers the search agents with the registry)
from bidlab.eval.match import Match, MatchConfig  # noqa: E402
from bidlab.fileio import write_json_atomic  # noqa: E402


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def play(a: str, b: str, split: str, boards: int, folder: Path, workers: int) -> dict:
    m = Match(MatchConfig(f"nn:{a}", f"nn:{b}", split=split, boards=boards), folder)
    s = m.run(workers=workers)
    return {"imps": s.imps_per_board, "se": s.standard_error, "boards": s.boards}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--start", required=True, help="the starting policy (model path without suffix, or a name)")
    ap.add_argument("--run", action="append", required=True, help="NAME=RUN_FOLDER, one per fine-tuning")
    ap.add_argument("--boards", type=int, default=4000, help="test boards per match")
    ap.add_argument("--curve-boards", type=int, default=4000, help="validation boards per curve point (0: no curve)")
    ap.add_argument("--curve-every", type=int, default=500, help="updates between curve points")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("results/table3"))
    ap.add_argument("--plot", type=Path, default=Path("results/jps_table3.png"),
                    help="PNG of the curve (docs/jps_table3.png is the figure the docs show: name it to replace it)")
    ap.add_argument("--title", default=None, help="the plot's title")
    args = ap.parse_args()
    runs = dict(r.split("=", 1) for r in args.run)
    names = list(runs)
    table: dict = {"start": args.start, "runs": runs, "boards": args.boards, "vs_start": {}, "pairs": {}}

    for name in names:
        r = play(f"{runs[name]}/final", args.start, "test", args.boards, args.out / f"{slug(name)}-vs-start", args.workers)
        table["vs_start"][name] = r
        print(f"{name} vs start: {r['imps']:+.2f} ± {r['se']:.2f} IMPs/board ({r['boards']} test boards)", flush=True)
    for i, a in enumerate(names):
        for b in names[:i]:
            r = play(f"{runs[a]}/final", f"{runs[b]}/final", "test", args.boards,
                     args.out / f"{slug(a)}-vs-{slug(b)}", args.workers)
            table["pairs"][f"{a} vs {b}"] = r
            print(f"{a} vs {b}: {r['imps']:+.2f} ± {r['se']:.2f} IMPs/board", flush=True)

    print(f"\n| IMPs/board (row vs column), {args.boards:,} test boards | start | "
          + " | ".join(names[:-1]) + " |")
    print("|---" * len(names) + "|---|")
    for a in names:
        cells = [f"{table['vs_start'][a]['imps']:+.2f} ± {table['vs_start'][a]['se']:.2f}"]
        for b in names[:-1]:
            p = table["pairs"].get(f"{a} vs {b}")
            cells.append(f"{p['imps']:+.2f} ± {p['se']:.2f}" if p else "")
        print(f"| {a} | " + " | ".join(cells) + " |")

    if args.curve_boards:
        table["curve"] = {}
        fig, ax = plt.subplots(figsize=(7, 4))
        for name in names:
            pols = sorted(Path(runs[name], "policies").glob("update-*.safetensors"))
            first = int(pols[0].stem.split("-")[1]) if pols else 0
            pts = []
            for p in pols:
                u = int(p.stem.split("-")[1])
                if (u - first) % args.curve_every:
                    continue
                r = play(str(p.with_suffix("")), args.start, "validation", args.curve_boards,
                         args.out / "curve" / f"{slug(name)}-{u}", args.workers)
                pts.append((u, r["imps"], r["se"]))
                print(f"curve {name} @{u}: {r['imps']:+.2f} ± {r['se']:.2f}", flush=True)
            table["curve"][name] = pts
            if pts:
                x, y, se = zip(*pts)
                line, = ax.plot(x, y, marker="o", label=name)
                ax.fill_between(x, [m - s for m, s in zip(y, se)], [m + s for m, s in zip(y, se)],
                                color=line.get_color(), alpha=0.15)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel("learner updates")
        ax.set_ylabel("IMPs/board vs the start (± 1 SE)")
        ax.set_title(args.title or "Fine-tuning with and without search: "
                     f"{args.curve_boards:,} validation boards per point")
        ax.legend()
        fig.tight_layout()
        args.plot.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.plot, dpi=110)
        print(f"plot: {args.plot}")
    args.out.mkdir(parents=True, exist_ok=True)
    write_json_atomic(args.out / "table3.json", table)
    print(f"results: {args.out / 'table3.json'}")


if __name__ == "__main__":
    main()
