"""Calibration of call meanings (issue 45): does the caller's real hand lie inside the stated
ranges at the rate the stated likelihood promises?

Each agent bids deals of a split at all four seats; of every auction, ``--calls`` random calls
are read by :class:`bidlab.search.meaning.MeaningReader` (as ``bidlab meaning`` and the web's
"Why?" read them), and each stated range is checked against the caller's real hand:

* **stated statements**: the HCP range (stated likelihood = share of sampled hands inside it)
  and the four suit-length statements, binned by stated likelihood, against the share of real
  hands that fit them;
* **the whole picture**: every "at least k cards" (k = 1..8, each suit) and "at least t HCP"
  (t = 4, 6, ..., 24) probability of the sampled hands, binned by tenths, against the real rate.

Usage::

    python benchmarks/meaning_calibration.py --agent nn:rl --agent nn:partner --split test \
        --deals 60 --calls 3 --json results/meaning_calibration.json

Prints markdown tables and writes the JSON (atomically). With one ``--agent`` and
``--register NAME`` the result is stored in the results registry
(:mod:`bidlab.eval.measurements`), fingerprinted by the agent, the belief net and the reading
code; docs/meanings.md quotes its tables from there (``bidlab results --write-docs``), and
``bidlab results --rerun`` runs this script again when any of them changed.
Choose settings on ``--split validation``; report ``--split test``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

STATED_BINS = (0.8, 0.85, 0.9, 0.95, 1.0000001)
DECILES = tuple(np.round(np.arange(0, 1.01, 0.1), 2)) + (1.0000001,)
SUIT_K = range(1, 9)
HCP_T = range(4, 26, 2)


def bid_deals(agent, deals: np.ndarray, rng: np.random.Generator):
    """Auctions of ``deals`` bid by ``agent`` at all four seats, random dealer and vulnerability."""
    from bidlab.agents.base import BiddingView
    from bidlab.bridge.auction import Auction
    from bidlab.bridge.board import Vulnerability
    from bidlab.cards import Deal, Seat

    out = []
    for holders in deals:
        deal = Deal.from_array(holders)
        vul = Vulnerability(int(rng.integers(4)))
        a = Auction(Seat(int(rng.integers(4))))
        while not a.is_over:
            a = a.with_call(agent.act(BiddingView(a.to_act, deal[a.to_act], a, vul)))
        out.append((deal, a, vul))
    return out


def _bins(rows: list[tuple[float, bool]], edges) -> list[dict]:
    out = []
    p = np.array([r[0] for r in rows])
    hit = np.array([r[1] for r in rows], bool)
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (p >= lo) & (p < hi)
        if m.sum():
            out.append({"from": float(lo), "to": float(min(hi, 1.0)), "n": int(m.sum()),
                        "stated": float(p[m].mean()), "real": float(hit[m].mean()),
                        "se": float(np.sqrt(hit[m].mean() * (1 - hit[m].mean()) / m.sum()))})
    return out


def _gap(bins: list[dict]) -> float:
    """Mean |stated - real| weighted by count (expected calibration error)."""
    n = sum(b["n"] for b in bins)
    return sum(b["n"] * abs(b["stated"] - b["real"]) for b in bins) / max(n, 1)


def calibrate(spec: str, split: str, n_deals: int, calls: int, seed: int, samples: int,
              caller_weight: float, progress=None) -> dict:
    import torch

    import bidlab.search  # noqa: F401
    from bidlab.agents.registry import make_agent
    from bidlab.bridge.auction import Auction
    from bidlab.cards import SUITS_HIGH_FIRST
    from bidlab.dd import shipped_store
    from bidlab.search.meaning import hcp_of, lengths_of, load_reader

    torch.set_num_threads(1)
    rng = np.random.default_rng([seed, 45])
    deals = shipped_store().load(split)[0]
    pick = rng.choice(len(deals), size=n_deals, replace=False)
    bidder = make_agent(spec, seed)
    reader = load_reader(spec, seed=seed, partner_hands=samples, caller_weight=caller_weight)
    boards = bid_deals(bidder, deals[pick], rng)
    stated, hcp_rows, whole = [], [], []
    by_kind = {"bid": [], "pass": []}
    t0, done = time.time(), 0
    for deal, auction, vul in boards:
        idx = rng.choice(len(auction.calls), size=min(calls, len(auction.calls)), replace=False)
        for k in sorted(int(i) for i in idx):
            m = reader.meaning(Auction(auction.dealer, auction.calls[:k + 1]), vul)
            hand = deal[auction.seat_of(k)]
            fits = m.holds(hand)
            hcp_rows.append((m.hcp_p, fits["hcp"]))
            kind = "pass" if m.call.id == 0 else "bid"
            for s in m.lengths:
                stated.append((s.p, fits[s.symbol]))
                by_kind[kind].append((s.p, fits[s.symbol]))
            by_kind[kind].append((m.hcp_p, fits["hcp"]))
            hs = m.hand_samples
            L, H = lengths_of(hs), hcp_of(hs)
            real_len = [hand.length(s) for s in SUITS_HIGH_FIRST]
            for j in range(4):
                for kk in SUIT_K:
                    whole.append((float((L[:, j] >= kk).mean()), real_len[j] >= kk))
            for t in HCP_T:
                whole.append((float((H >= t).mean()), hand.hcp >= t))
            done += 1
            if progress:
                progress(f"{spec}: {done} calls read, {time.time() - t0:.0f} s")
    stated_bins, whole_bins = _bins(stated, STATED_BINS), _bins(whole, DECILES)
    hcp = np.array([r[1] for r in hcp_rows], float)
    return {
        "agent": spec, "split": split, "deals": n_deals, "calls_read": done, "seed": seed,
        "partner_hands": samples, "caller_weight": caller_weight, "belief_trained_on": reader.trained_on,
        "hcp_range": {"n": len(hcp_rows), "stated": float(np.mean([r[0] for r in hcp_rows])),
                      "real": float(hcp.mean()), "se": float(np.sqrt(hcp.mean() * (1 - hcp.mean()) / len(hcp)))},
        "suit_statements": stated_bins, "suit_gap": _gap(stated_bins),
        "bids_and_doubles": {"n": len(by_kind["bid"]), "real": float(np.mean([r[1] for r in by_kind["bid"]] or [0])),
                             "stated": float(np.mean([r[0] for r in by_kind["bid"]] or [0]))},
        "passes": {"n": len(by_kind["pass"]), "real": float(np.mean([r[1] for r in by_kind["pass"]] or [0])),
                   "stated": float(np.mean([r[0] for r in by_kind["pass"]] or [0]))},
        "whole_picture": whole_bins, "whole_gap": _gap(whole_bins), "seconds": time.time() - t0,
    }


def markdown(r: dict) -> str:
    h = r["hcp_range"]
    lines = [f"### {r['agent']} ({r['calls_read']} calls of {r['deals']} {r['split']} deals; belief net trained on "
             f"{r['belief_trained_on']}'s bidding)", "",
             f"HCP range: stated {h['stated']:.3f} on average, real hand inside {h['real']:.3f} ± {h['se']:.3f} "
             f"({h['n']} ranges)", "",
             "| suit-length statements: stated likelihood | statements | mean stated | real rate ± SE |",
             "| --- | ---: | ---: | ---: |"]
    for b in r["suit_statements"]:
        lines.append(f"| {b['from']:.2f}–{b['to']:.2f} | {b['n']} | {b['stated']:.3f} | {b['real']:.3f} ± {b['se']:.3f} |")
    lines += ["", f"Mean gap |stated − real|: {r['suit_gap']:.3f}. Bids and doubles: stated {r['bids_and_doubles']['stated']:.3f}, "
              f"real {r['bids_and_doubles']['real']:.3f} ({r['bids_and_doubles']['n']}); passes: stated "
              f"{r['passes']['stated']:.3f}, real {r['passes']['real']:.3f} ({r['passes']['n']}).", "",
              "| whole picture: P(at least k cards / t HCP) | probabilities | mean stated | real rate ± SE |",
              "| --- | ---: | ---: | ---: |"]
    for b in r["whole_picture"]:
        lines.append(f"| {b['from']:.1f}–{b['to']:.1f} | {b['n']} | {b['stated']:.3f} | {b['real']:.3f} ± {b['se']:.3f} |")
    lines += ["", f"Mean gap: {r['whole_gap']:.3f}."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", action="append", help="agent spec (repeat); default nn:rl and nn:partner")
    ap.add_argument("--split", default="test", choices=("train", "validation", "test"))
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--calls", type=int, default=3, help="calls read per auction")
    ap.add_argument("--samples", type=int, default=256, help="partner hands sampled per reading")
    ap.add_argument("--caller-weight", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="write the results here (JSON)")
    ap.add_argument("--register", metavar="NAME", help="store the result in the results registry (one --agent only)")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.calls < 1:
        print("error: --deals and --calls must be at least 1", file=sys.stderr)
        return 2
    if args.json is not None and args.json.is_dir():
        print(f"error: --json {args.json} is a directory", file=sys.stderr)
        return 2
    if args.register is not None and len(args.agent or []) != 1:
        print("error: --register stores one agent's calibration: give exactly one --agent", file=sys.stderr)
        return 2
    results = []
    for spec in args.agent or ["nn:rl", "nn:partner"]:
        r = calibrate(spec, args.split, args.deals, args.calls, args.seed, args.samples, args.caller_weight,
                      progress=lambda m: print(m, file=sys.stderr, end="\r"))
        print(file=sys.stderr)
        print(markdown(r) + "\n", flush=True)
        results.append(r)
    if args.json is not None:
        from bidlab.fileio import write_json_atomic

        args.json.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(args.json, {"benchmark": "meaning_calibration", "command": " ".join(sys.argv),
                                      "results": results})
    if args.register is not None:
        register(args.register, results[0], args)
    return 0


#: What a calibration depends on besides the agent: the belief net and the code that reads calls.
READING = ("model:belief", "file:search/meaning.py", "file:search/sampler.py")


def register(name: str, r: dict, args) -> None:
    """Store ``r`` as the registry measurement ``name``: the HCP range's real rate first, the
    gaps, and the rendered tables that docs/meanings.md quotes."""
    from bidlab.eval.measurements import record

    command = (f"python benchmarks/meaning_calibration.py --agent {r['agent']} --split {args.split} "
               f"--deals {args.deals} --calls {args.calls} --samples {args.samples} "
               f"--caller-weight {args.caller_weight} --seed {args.seed}")
    h = r["hcp_range"]
    result = {"hcp_real": {"mean": h["real"], "se": h["se"]}, "hcp_stated": h["stated"],
              "suit_gap": r["suit_gap"], "whole_gap": r["whole_gap"], "calls_read": r["calls_read"],
              "table": markdown(r)}
    record(name, "calibration", command, result, [r["agent"], *READING], split=args.split, boards=args.deals,
           seed=args.seed)
    print(f"registered {name} in the results registry", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
