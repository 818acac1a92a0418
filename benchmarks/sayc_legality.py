"""The SAYC bidder on 200,000 random boards: legal calls, an answer at every turn, and how
good its final contracts are double dummy (issue 21).

For every board (dealer and vulnerability by the 16-board cycle) the bidder is asked for a
call at every turn until the auction ends; the run counts

* illegal calls (judged by bidlab's ``Auction.is_legal``) and turns where the bidder raised
  instead of answering -- both must be 0;
* on the boards that have a double-dummy table (the 58,000 solved deals of
  ``--dd-dir``, else the shipped store), how often the final contract makes double dummy
  (declarer's DD tricks >= level + 6; passed-out boards are left out of this rate), and
  how often it sits at the par level (its level is the level of a par contract; a
  passed-out board counts when par is a pass-out), and how often it scores exactly par.

The DD boards come first, then fresh random deals up to ``--boards``. ``--agent release``
bids with the previous release's bidder (commit c58ef9b, via ``sayc_release``) for the
before/after comparison. Counters are checkpointed atomically every ``--chunk`` boards
under ``--out``; a killed run resumes from its last checkpoint. The checkpoint records the
bidder it counts (the SAYC rules' fingerprint, or the release commit), and the default folder
is named after it: a checkpoint left by another bidder or other settings is never resumed
(its counts would be another bidder's) nor overwritten -- the run stops and says so.

    nice -n 10 python benchmarks/sayc_legality.py --agent current --out /tmp/sayc_legal_now
    nice -n 10 python benchmarks/sayc_legality.py --agent release --out /tmp/sayc_legal_base
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bidlab.agents.base import BiddingView  # noqa: E402
from bidlab.agents.sayc import SaycAgent  # noqa: E402
from bidlab.bridge.auction import Auction  # noqa: E402
from bidlab.bridge.board import board_dealer, board_vulnerability  # noqa: E402
from bidlab.bridge.scoring import score_contract  # noqa: E402
from bidlab.cards import Deal, random_deals  # noqa: E402
from bidlab.eval.fingerprint import agent_fingerprint  # noqa: E402
from bidlab.fileio import write_json_atomic  # noqa: E402

SHARED_DD = "/work/shared/data/dd"
COUNTERS = ("boards", "calls", "illegal", "no_answer", "dd_boards", "dd_contracts", "dd_made",
            "dd_at_par_level", "dd_par_score", "passed_out")


def load_dd(dd_dir: str | None) -> tuple[np.ndarray, np.ndarray]:
    """(deals uint8[n,52], tables uint8[n,4,5]) of the solved deals."""
    files = sorted(glob.glob(os.path.join(dd_dir, "dd_*.npz"))) if dd_dir else []
    if files:
        parts = [np.load(f) for f in files]
        return np.concatenate([p["deals"] for p in parts]), np.concatenate([p["dd"] for p in parts])
    from bidlab.dd import shipped_store

    store = shipped_store()
    loaded = [store.load(s) for s in ("train", "valid", "test")]
    return np.concatenate([x[0] for x in loaded]), np.concatenate([x[1] for x in loaded])


def bid_checked(agent, deal: Deal, dealer, vul, tally: dict) -> Auction:
    """Bid one board; count illegal calls and failures to answer (then pass for the bidder)."""
    auction = Auction(dealer)
    while not auction.is_over:
        seat = auction.to_act
        try:
            call = agent.act(BiddingView(seat, deal[seat], auction, vul))
        except Exception as e:  # the check is that this never happens
            tally["no_answer"] += 1
            if tally["no_answer"] <= 5:
                print(f"no answer after {auction.to_str()!r}: {type(e).__name__}: {e}")
            call = None
        if call is None or not auction.is_legal(call):
            if call is not None:
                tally["illegal"] += 1
                if tally["illegal"] <= 5:
                    print(f"illegal {call} after {auction.to_str()!r}")
            auction = auction.with_call("P")
        else:
            auction = auction.with_call(call)
        tally["calls"] += 1
    return auction


def score_dd(auction: Auction, table: np.ndarray, vul, dealer, tally: dict) -> None:
    from bidlab.dd import par

    tally["dd_boards"] += 1
    p = par(table, vul, dealer)
    c = auction.contract
    if c is None:
        tally["passed_out"] += 1
        tally["dd_at_par_level"] += not p.contracts
        tally["dd_par_score"] += p.score == 0
        return
    tricks = int(table[int(c.declarer), int(c.strain)])
    tally["dd_contracts"] += 1
    tally["dd_made"] += tricks >= c.level + 6
    tally["dd_at_par_level"] += any(pc.level == c.level for pc in p.contracts)
    tally["dd_par_score"] += score_contract(c, tricks, vul) == p.score


def report(tally: dict, label: str) -> None:
    b, d = tally["boards"], max(tally["dd_boards"], 1)
    print(f"{label}: {b} boards, {tally['calls']} calls; illegal calls {tally['illegal']}, "
          f"turns without an answer {tally['no_answer']}")
    print(f"  on {tally['dd_boards']} boards with DD tables: contract makes DD "
          f"{tally['dd_made'] / max(tally['dd_contracts'], 1):.2%} of {tally['dd_contracts']} contracts; "
          f"at the par level {tally['dd_at_par_level'] / d:.2%}; exactly par score {tally['dd_par_score'] / d:.2%}; "
          f"passed out {tally['passed_out'] / d:.2%}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--agent", choices=("current", "release"), default="current")
    ap.add_argument("--dd-dir", default=SHARED_DD if os.path.isdir(SHARED_DD) else None)
    ap.add_argument("--chunk", type=int, default=10_000)
    ap.add_argument("--out", default=None,
                    help="checkpoint folder (default /tmp/sayc_legality_<agent>_<bidder fingerprint>)")
    args = ap.parse_args()
    if args.agent == "current":
        agent, label, bidder = SaycAgent(), "sayc (this branch)", agent_fingerprint("sayc")
    else:
        from sayc_release import BASE_COMMIT, ReleaseSayc

        agent, label, bidder = ReleaseSayc(BASE_COMMIT), f"sayc at {BASE_COMMIT}", BASE_COMMIT
    out = Path(args.out or f"/tmp/sayc_legality_{args.agent}_{bidder}")
    config = {"boards": args.boards, "seed": args.seed, "agent": args.agent, "bidder": bidder,
              "dd_dir": args.dd_dir}
    ckpt = out / "checkpoint.json"
    saved = json.loads(ckpt.read_text()) if ckpt.exists() else None
    if saved is not None and saved.get("config") != config:
        raise SystemExit(f"{ckpt} is the checkpoint of another run ({saved.get('config')}), not of this one "
                         f"({config}); give another --out, or remove that folder to start this run there")
    dd_deals, dd_tables = load_dd(args.dd_dir)
    n_dd = min(len(dd_deals), args.boards)
    extra = random_deals(args.boards - n_dd, seed=args.seed) if args.boards > n_dd else np.zeros((0, 52), np.uint8)

    tally = dict.fromkeys(COUNTERS, 0)
    if saved is not None:
        tally = saved["tally"]
        print(f"resuming after {tally['boards']} boards from {ckpt}")
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    t0 = time.perf_counter()
    start = tally["boards"]
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn()) as bar:
        task = bar.add_task(label, total=args.boards, completed=start)
        for i in range(start, args.boards):
            number = i % 16 + 1
            dealer, vul = board_dealer(number), board_vulnerability(number)
            holders = dd_deals[i] if i < n_dd else extra[i - n_dd]
            auction = bid_checked(agent, Deal.from_array(holders), dealer, vul, tally)
            if i < n_dd:
                score_dd(auction, dd_tables[i], vul, dealer, tally)
            tally["boards"] += 1
            if tally["boards"] % args.chunk == 0 or tally["boards"] == args.boards:
                write_json_atomic(ckpt, {"config": config, "tally": tally})
                bar.update(task, completed=tally["boards"])
    rate = (tally["boards"] - start) / max(time.perf_counter() - t0, 1e-9)
    report(tally, label)
    if tally["boards"] > start:
        print(f"  {rate:.0f} boards/s in this run (DD scoring included)")
    write_json_atomic(out / "result.json", {"config": config, "tally": tally})
    if tally["illegal"] or tally["no_answer"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
