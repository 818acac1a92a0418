"""How well belief nets read bidders they did and did not learn from (issue 44: a belief that reads strangers).

For each style of bidding (a list of bidders; each batch of deals is bid by a pair drawn from
it, as in ``bidlab train belief --policy A,B``), the auctions of that style on VALIDATION
(or test) deals give (view, hidden hands) pairs, and each belief net is scored by its mean
binary cross-entropy over the 156 hidden cards, beside the uniform belief. The difference
between two beliefs is paired (the same positions) with a standard error over auctions, since
the positions of one auction are not independent.

The default styles: ``nn:rl``'s own self-play (what the shipped belief learned), ``nn:sl``'s
family (``sl``, ``sl@v3``: left out of the mixture belief ``belief-mix``, so a stranger to both),
``sayc``, and ``nn:partner``.

    python benchmarks/belief_strangers.py --deals 2000 --register belief-strangers
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import torch

from bidlab.dd import shipped_store
from bidlab.learn.belief import (
    bce_per_row,
    load_belief,
    mixture_bidder,
    policy_names,
    self_play_pairs,
    uniform_belief,
    unpack,
)

STYLES = {"nn:rl self-play": "rl", "nn:sl family (sl, sl@v3)": "sl,sl@v3", "sayc": "sayc", "nn:partner": "partner"}


def per_auction_bce(net, obs: np.ndarray, hid: np.ndarray, where: np.ndarray, batch: int = 8192) -> np.ndarray:
    """Summed cross-entropy per auction (rows grouped by ``where // 1024``) and the row count."""
    rows = []
    with torch.inference_mode():
        for s in range(0, len(obs), batch):
            x, y = unpack(obs[s:s + batch], hid[s:s + batch])
            rows.append(bce_per_row(net, x, y).double().numpy() if net is not None else _uniform_bce(x, y))
    return np.concatenate(rows)


def _uniform_bce(x: torch.Tensor, y: torch.Tensor, eps: float = 1e-6) -> np.ndarray:
    q = np.clip(uniform_belief(x.numpy()), eps, 1 - eps)
    t = y.numpy()
    return -(t * np.log(q) + (1 - t) * np.log(1 - q)).mean(axis=1)


def measure(beliefs: list[str], split: str, deals: int, seed: int, say=lambda m: None) -> dict:
    all_deals, _, _ = shipped_store().load(split)
    chosen = all_deals[np.random.default_rng([seed, 44]).permutation(len(all_deals))[:deals]]
    nets = {b: load_belief(b) for b in beliefs}
    out = {}
    for style, names in STYLES.items():
        say(f"{style}: bidding {deals} {split} deals")
        bidders = [mixture_bidder(n, seed) for n in policy_names(names)]
        obs, hid, where = self_play_pairs(bidders if len(bidders) > 1 else bidders[0], chosen, seed=seed)
        auction = where // 1024
        per_row = {b: per_auction_bce(net, obs, hid, where) for b, net in nets.items()}
        per_row["uniform"] = per_auction_bce(None, obs, hid, where)
        row = {"positions": int(len(obs)), "bce": {b: float(v.mean()) for b, v in per_row.items()}}
        if len(beliefs) == 2:
            d = per_row[beliefs[1]] - per_row[beliefs[0]]
            sums = np.bincount(np.unique(auction, return_inverse=True)[1], weights=d)
            # mean over positions, SE from the spread of auction sums (auctions are independent)
            k = len(sums)
            row["difference"] = {"mean": float(d.mean()), "se": float(sums.std(ddof=1) * np.sqrt(k) / len(d))}
        out[style] = row
    return out


def markdown(r: dict, beliefs: list[str]) -> str:
    head = "| auctions of | positions | " + " | ".join(f"`{b}`" for b in beliefs) + " | uniform |"
    if len(beliefs) == 2:
        head += f" `{beliefs[1]}` − `{beliefs[0]}` (paired) |"
    lines = [head, "|" + " --- |" * (head.count("|") - 1)]
    for style, row in r.items():
        cells = [style, f"{row['positions']:,}"] + [f"{row['bce'][b]:.4f}" for b in beliefs] + [f"{row['bce']['uniform']:.4f}"]
        if "difference" in row:
            cells.append(f"{row['difference']['mean']:+.4f} ± {row['difference']['se']:.4f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--belief", action="append", help="belief net, a shipped name or a path (repeat; default belief and belief-mix)")
    ap.add_argument("--split", default="validation", choices=("validation", "test"))
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--register", metavar="NAME", help="store the result in the results registry")
    args = ap.parse_args(argv)
    if args.deals < 1:
        print("error: --deals must be at least 1", file=sys.stderr)
        return 2
    beliefs = args.belief or ["belief", "belief-mix"]
    try:
        for b in beliefs:
            load_belief(b)
    except Exception as e:  # a missing or foreign model file: one line
        print(f"error: {e}", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    r = measure(beliefs, args.split, args.deals, args.seed, say=lambda m: print(m, file=sys.stderr))
    table = markdown(r, beliefs)
    print(table)
    if args.register is not None:
        from bidlab.eval.measurements import record

        command = (f"python benchmarks/belief_strangers.py --split {args.split} --deals {args.deals} --seed {args.seed} "
                   + " ".join(f"--belief {b}" for b in beliefs))
        first = next(iter(r.values()))
        result = {"home_difference": first.get("difference", {"mean": first["bce"][beliefs[0]], "se": 0.0}),
                  "styles": r, "table": table}
        keys = [f"model:{b}" for b in beliefs] + ["nn:rl", "nn:sl", "nn:sl@v3", "sayc", "nn:partner"]
        record(args.register, "benchmark", command, result, keys, split=args.split, boards=args.deals, seed=args.seed)
        print(f"registered {args.register} in the results registry", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
