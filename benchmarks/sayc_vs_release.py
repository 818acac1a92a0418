"""The current SAYC bidder against an earlier commit's (default: the previous release, c58ef9b).

Two modes:

* ``same`` -- bid N random boards with both bidders and count the boards whose auctions
  differ (a behaviour-preserving refactor must print 0 differing boards);
* ``match`` -- a duplicate match on the shipped store's test split through
  ``bidlab.eval.match`` (public API), current ``sayc`` as A, the old one as B; prints
  IMPs/board for the current bidder +- its standard error. Resumable: run it again with the
  same ``--out`` after a kill.

    python benchmarks/sayc_vs_release.py same --boards 3000
    nice -n 10 python benchmarks/sayc_vs_release.py match --boards 4000 --out /tmp/sayc_match
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sayc_release import BASE_COMMIT, ReleaseSayc, register_release  # noqa: E402

from bidlab.agents.base import BiddingView  # noqa: E402
from bidlab.agents.sayc import SaycAgent  # noqa: E402
from bidlab.bridge.auction import Auction  # noqa: E402
from bidlab.bridge.board import board_dealer, board_vulnerability  # noqa: E402
from bidlab.cards import Deal, random_deals  # noqa: E402


def bid_board(agent, deal: Deal, dealer, vul) -> Auction:
    auction = Auction(dealer)
    while not auction.is_over:
        seat = auction.to_act
        auction = auction.with_call(agent.act(BiddingView(seat, deal[seat], auction, vul)))
    return auction


def same_auctions(boards: int, seed: int, commit: str) -> int:
    new, old = SaycAgent(), ReleaseSayc(commit)
    differ = 0
    for i, holders in enumerate(random_deals(boards, seed=seed)):
        deal, n = Deal.from_array(holders), i % 16 + 1
        a = bid_board(new, deal, board_dealer(n), board_vulnerability(n))
        b = bid_board(old, deal, board_dealer(n), board_vulnerability(n))
        if a.calls != b.calls:
            differ += 1
            if differ <= 5:
                print(f"board {i}: now {a.to_str()!r}, at {commit} {b.to_str()!r}")
    print(f"{boards} random boards (seed {seed}): {differ} auctions differ from commit {commit}")
    return differ


def run_match(boards: int, seed: int, commit: str, out: str) -> None:
    from rich.progress import Progress

    from bidlab.eval.match import Match, MatchConfig

    spec = register_release(commit)
    cfg = MatchConfig(agent_a="sayc", agent_b=spec, split="test", boards=boards, seed=seed)
    match = Match(cfg, out)
    with Progress() as bar:
        task = bar.add_task("boards", total=boards)
        # one worker: the old bidder is registered in this process only
        summary = match.run(workers=1, progress=lambda done, total: bar.update(task, completed=done))
    print(summary.line())
    print(f"IMPs/board for the current sayc: {summary.imps_per_board:+.3f} ± {summary.standard_error:.3f} "
          f"over {summary.boards} test boards (A vs par {summary.a_vs_par:+.2f} ± {summary.a_vs_par_se:.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("same", "match"))
    ap.add_argument("--boards", type=int, default=None, help="3000 for same, 4000 for match")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--commit", default=BASE_COMMIT)
    ap.add_argument("--out", default="/tmp/sayc_vs_release_match")
    args = ap.parse_args()
    if args.mode == "same":
        same_auctions(args.boards or 3000, args.seed, args.commit)
    else:
        run_match(args.boards or 4000, args.seed, args.commit, args.out)


if __name__ == "__main__":
    main()
