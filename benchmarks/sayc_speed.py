"""Complete four-seat SAYC auctions per second, against the uniformly random agent.

Both agents bid the same pre-generated deals (dealer and vulnerability by the board
cycle) through the same loop: build a BiddingView, ask the agent, extend the Auction.
The random agent's auctions/s is the baseline measured in the same run; the issue's
target for the SAYC teacher is >= 1,000 auctions/s on the 2-core development machine.

    python benchmarks/sayc_speed.py [--boards 5000] [--seed 0] [--repeats 3] [--release c58ef9b]

``--release COMMIT`` also times that commit's SAYC bidder (loaded by ``sayc_release``) on
the same deals, so a slowdown of the rules shows as a ratio measured in the same run.

The SAYC bidder caches hand features and auction readings, so a warm-up pass over other
deals is run first and each timed pass uses fresh deals (no cache hits from earlier passes).
Wall-clock rates suffer when other jobs share the cores; the CPU-time rates (seconds this
process actually ran) are printed next to them, with the load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from bidlab.agents.base import BiddingView, RandomAgent
from bidlab.agents.sayc import SaycAgent
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import board_dealer, board_vulnerability
from bidlab.cards import Deal, random_deals


def _boards(n: int, seed: int) -> list[tuple[Deal, object, object]]:
    arrays = random_deals(n, seed=seed)
    return [(Deal.from_array(a), board_dealer(i % 16 + 1), board_vulnerability(i % 16 + 1))
            for i, a in enumerate(arrays)]


def run_auctions(agent, boards) -> tuple[float, float, int]:
    """Wall-clock and CPU seconds to bid every board to the end, and the number of calls."""
    calls = 0
    c0 = time.process_time()
    t0 = time.perf_counter()
    for deal, dealer, vul in boards:
        auction = Auction(dealer)
        hands = deal.hands
        while not auction.is_over:
            seat = auction.to_act
            call = agent.act(BiddingView(seat, hands[seat], auction, vul))
            auction = auction.with_call(call)
            calls += 1
    return time.perf_counter() - t0, time.process_time() - c0, calls


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=5000, help="boards per timed pass")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=3, help="timed passes per agent (best is kept)")
    ap.add_argument("--release", default=None, help="also time the SAYC bidder of this commit (e.g. c58ef9b)")
    args = ap.parse_args()

    sayc, rnd = SaycAgent(), RandomAgent(seed=args.seed)
    agents = [("random", rnd), ("sayc", sayc)]
    if args.release:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from sayc_release import ReleaseSayc

        agents.append((f"sayc@{args.release}", ReleaseSayc(args.release)))
    for _, agent in agents[1:]:
        run_auctions(agent, _boards(500, args.seed + 10_000))  # warm-up: imports, tables
    best: dict[str, tuple[float, float, float]] = {}
    for r in range(args.repeats):
        boards = _boards(args.boards, args.seed + r)
        for name, agent in agents:
            wall, cpu, calls = run_auctions(agent, boards)
            rate, cpu_rate = args.boards / wall, args.boards / cpu
            if name not in best or rate > best[name][0]:
                best[name] = (rate, cpu_rate, calls / args.boards)
    (s_rate, s_cpu, s_len), (r_rate, r_cpu, r_len) = best["sayc"], best["random"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"boards per pass: {args.boards}, passes: {args.repeats} (best pass kept); "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    print("                 wall-clock        CPU time of this process")
    print(f"random agent : {r_rate:9.0f} auctions/s  {r_cpu:9.0f} auctions/s   ({r_len:.1f} calls per auction)")
    print(f"SAYC agent   : {s_rate:9.0f} auctions/s  {s_cpu:9.0f} auctions/s   ({s_len:.1f} calls per auction)")
    print(f"ratio SAYC / random auctions/s: wall {s_rate / r_rate:.2f}, CPU {s_cpu / r_cpu:.2f}")
    if args.release:
        o_rate, o_cpu, o_len = best[f"sayc@{args.release}"]
        print(f"SAYC @{args.release:<7}: {o_rate:9.0f} auctions/s  {o_cpu:9.0f} auctions/s   ({o_len:.1f} calls per auction)")
        print(f"ratio SAYC now / @{args.release}: wall {s_rate / o_rate:.2f}, CPU {s_cpu / o_cpu:.2f}")
    print(f"target >= 1000 SAYC auctions/s (wall-clock): {'met' if s_rate >= 1000 else 'NOT met'}"
          f"; per CPU-second: {'met' if s_cpu >= 1000 else 'NOT met'}")


if __name__ == "__main__":
    main()
