"""Calibration of the doubling judge (issue 44): predicted gain of doubling against the
realised gain, in bins of the prediction.

The panel of the judge's training (:data:`bidlab.learn.judge.PANEL`) bids deals of a split
(VALIDATION by default; the test split is refused: choices are made on validation); every
decision where double is legal and the agent did not double is a position. For each the judge
predicts the IMPs that doubling gains; the realised gain is the label the judge is trained on
(the same agents bid on after the double, scored double dummy, against the call made), and,
beside it, the gain if the contract had stood (no runout, no redouble, no takeout).

Usage::

    python benchmarks/judge_calibration.py --split validation --deals 5800 \
        --plot docs/judge_calibration.png --register judge-calibration

Prints a markdown table; ``--plot`` writes the picture (atomically), ``--register NAME``
stores the table and the summary numbers in the results registry, from where
docs/punishers.md quotes them.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import numpy as np

EDGES = (-np.inf, -8, -4, -2, -1, 0, 1, 2, 3, 4, 6, np.inf)


def calibrate(split: str, n_deals: int, model: str, seed: int, focus: float = 0.5) -> dict:
    import torch

    from bidlab.dd import shipped_store
    from bidlab.learn.judge import PANEL, build_panel, doubling_positions, load_judge, predict

    torch.set_num_threads(1)
    deals, dd, _ = shipped_store().load(split)
    order = np.random.default_rng([seed, 12]).permutation(len(deals))[:n_deals]
    data = doubling_positions(build_panel(PANEL, seed), deals[order], dd[order], seed + 999_999, focus=focus)
    pred = predict(load_judge(model), data["obs"])
    real = data["imps"].astype(np.float64)
    stands = data["stands_imps"].astype(np.float64)
    bins = []
    for lo, hi in zip(EDGES[:-1], EDGES[1:]):
        m = (pred >= lo) & (pred < hi)
        if m.sum() >= 2:
            bins.append({"from": float(lo), "to": float(hi), "n": int(m.sum()), "predicted": float(pred[m].mean()),
                         "real": float(real[m].mean()), "se": float(real[m].std(ddof=1) / np.sqrt(m.sum())),
                         "stands": float(stands[m].mean())})
    n = sum(b["n"] for b in bins)
    gap = sum(b["n"] * abs(b["predicted"] - b["real"]) for b in bins) / max(n, 1)
    return {"split": split, "deals": n_deals, "model": model, "seed": seed, "focus": focus, "positions": int(len(pred)),
            "bins": bins, "gap": gap, "corr": float(np.corrcoef(pred, real)[0, 1]),
            "mse": float(((pred - real) ** 2).mean()), "mse_of_mean": float(((real - real.mean()) ** 2).mean())}


def _edge(x: float) -> str:
    return "−∞" if x == -np.inf else "+∞" if x == np.inf else f"{x:+g}"


def markdown(r: dict) -> str:
    lines = [f"Judge `{r['model']}` on {r['positions']:,} positions of {r['deals']:,} {r['split']} deals "
             f"(the panel's auctions, {r['focus']:.0%} of them `nn:rl@soup1` at both sides; double legal, not "
             "doubled).", "",
             "| predicted gain (IMPs) | positions | mean predicted | realised ± SE | if the contract stood |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for b in r["bins"]:
        lines.append(f"| {_edge(b['from'])} to {_edge(b['to'])} | {b['n']:,} | {b['predicted']:+.2f} | "
                     f"{b['real']:+.2f} ± {b['se']:.2f} | {b['stands']:+.2f} |")
    lines += ["", f"Mean |predicted − realised| over the bins: {r['gap']:.2f} IMPs; correlation of prediction and "
              f"outcome {r['corr']:.2f}; mean squared error {r['mse']:.1f} IMPs² (predicting the mean: "
              f"{r['mse_of_mean']:.1f})."]
    return "\n".join(lines)


def plot(r: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from bidlab.fileio import write_bytes_atomic

    b = r["bins"]
    x = [v["predicted"] for v in b]
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    lo, hi = min(x + [v["real"] for v in b]) - 1, max(x + [v["real"] for v in b]) + 1
    ax.plot([lo, hi], [lo, hi], color="grey", lw=1, ls="--", label="perfect calibration")
    ax.errorbar(x, [v["real"] for v in b], yerr=[2 * v["se"] for v in b], fmt="o-", capsize=3,
                label="realised (bid on after X) ± 2 SE")
    ax.plot(x, [v["stands"] for v in b], "s:", color="tab:orange", ms=4, label="if the contract had stood")
    ax.axhline(0, color="black", lw=0.5)
    ax.set_xlabel("judge's predicted gain of doubling (IMPs)")
    ax.set_ylabel("mean realised gain (IMPs)")
    ax.set_title(f"Doubling judge, {r['positions']:,} {r['split']} positions")
    ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    write_bytes_atomic(path, buf.getvalue())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="validation", choices=("train", "validation"))
    ap.add_argument("--deals", type=int, default=5800)
    ap.add_argument("--model", default="judge", help="judge model: shipped name or path")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--focus", type=float, default=0.5, help="share of chunks bid by nn:rl@soup1 at both sides "
                    "(as in the judge's training)")
    ap.add_argument("--plot", type=Path, help="write the calibration plot here (.png)")
    ap.add_argument("--register", metavar="NAME", help="store the result in the results registry")
    args = ap.parse_args(argv)
    if args.deals < 1 or not 0 <= args.focus <= 1:
        print("error: --deals must be at least 1 and --focus in [0, 1]", file=sys.stderr)
        return 2
    if args.plot is not None and (args.plot.is_dir() or args.plot.suffix.lower() != ".png"):
        print(f"error: --plot {args.plot}: give a .png file name", file=sys.stderr)
        return 2
    try:
        from bidlab.learn.judge import load_judge

        load_judge(args.model)
    except Exception as e:  # noqa: BLE001 - one line, nothing written
        print(f"error: --model {args.model}: {e}", file=sys.stderr)
        return 2
    r = calibrate(args.split, args.deals, args.model, args.seed, args.focus)
    print(markdown(r), flush=True)
    if args.plot is not None:
        plot(r, args.plot)
        print(f"wrote {args.plot}", file=sys.stderr)
    if args.register:
        from bidlab.eval.measurements import record
        from bidlab.learn.judge import PANEL

        command = (f"python benchmarks/judge_calibration.py --split {args.split} --deals {args.deals} "
                   f"--model {args.model} --seed {args.seed} --focus {args.focus:g}")
        result = {"gap": r["gap"], "corr": r["corr"], "mse": r["mse"], "mse_of_mean": r["mse_of_mean"],
                  "positions": r["positions"], "table": markdown(r)}
        keys = [f"model:{args.model}", *PANEL, "file:learn/judge.py"]
        record(args.register, "calibration", command, result, keys, split=args.split, boards=args.deals,
               seed=args.seed)
        print(f"registered {args.register} in the results registry", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
