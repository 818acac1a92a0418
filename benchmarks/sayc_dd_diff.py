"""Which SAYC rules make the final contract fail double dummy, and what a change did to it.

The make rate of ``benchmarks/sayc_legality.py`` (``sayc`` at all four seats on the 58,000
solved deals) is one number; this script says where it comes from, so that a judgement
change can be checked against it before the long run:

* ``blame`` -- bid the first ``--boards`` solved deals with the current bidder and rank the
  rules that made the *last bid* (the call that set the contract's level and strain) by how
  many of their contracts fail double dummy, with the make and par-level rates of each;
* ``diff --commit C`` -- bid the same deals with the bidder of commit ``C`` as well, and
  charge every board whose auction differs to the current bidder's rule at the first call
  where the two auctions part: contracts made and contracts at the par level, current minus
  old, per rule (the round-three note's "by the first call where the two bidders part").

Dealer and vulnerability follow the 16-board cycle, as in the legality check. ``--split``
keeps the deals of one split (a deal's id is its place in the store; id % 10: 0 test,
1 validation, the rest train): a judgement round gates its made-contract budget on
``--split train`` so that no test deal steers a choice; the issue's report runs on ``all``.

    nice -n 10 python benchmarks/sayc_dd_diff.py blame --boards 20000
    nice -n 10 python benchmarks/sayc_dd_diff.py diff --commit f07c2f6 --boards 20000 --split train
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sayc_legality import SHARED_DD, load_dd  # noqa: E402

from bidlab.agents.base import BiddingView  # noqa: E402
from bidlab.agents.sayc.bidder import decide  # noqa: E402
from bidlab.bridge.auction import Auction  # noqa: E402
from bidlab.bridge.board import board_dealer, board_vulnerability  # noqa: E402
from bidlab.bridge.scoring import score_contract  # noqa: E402
from bidlab.cards import Deal  # noqa: E402
from bidlab.dd.store import SPLITS, split_mask  # noqa: E402


def bid_with_rules(deal: Deal, dealer, vul) -> tuple[Auction, list[str]]:
    """The current bidder's auction and the rule of every call."""
    auction, rules = Auction(dealer), []
    while not auction.is_over:
        d = decide(BiddingView(auction.to_act, deal[auction.to_act], auction, vul))
        rules.append(d.rule)
        auction = auction.with_call(d.call)
    return auction, rules


def bid_plain(agent, deal: Deal, dealer, vul) -> Auction:
    auction = Auction(dealer)
    while not auction.is_over:
        auction = auction.with_call(agent.act(BiddingView(auction.to_act, deal[auction.to_act], auction, vul)))
    return auction


def outcome(auction: Auction, table, vul, dealer) -> tuple[int, int, int, int]:
    """(has a contract, makes DD, at the par level, NS score minus par)."""
    from bidlab.dd import par

    p = par(table, vul, dealer)
    c = auction.contract
    if c is None:
        return 0, 0, int(not p.contracts), -p.score
    tricks = int(table[int(c.declarer), int(c.strain)])
    ns = score_contract(c, tricks, vul)
    return 1, int(tricks >= c.level + 6), int(any(pc.level == c.level for pc in p.contracts)), ns - p.score


def last_bid_index(auction: Auction) -> int:
    return max(i for i, call in enumerate(auction.calls) if call.is_bid)


def chosen_deals(n_deals: int, split: str, start: int, boards: int) -> list[int]:
    """Store positions (= deal ids) of the ``boards`` deals of ``split`` from its ``start``-th."""
    chosen = np.flatnonzero(split_mask(np.arange(n_deals), split))
    return [int(i) for i in chosen[start:start + boards]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("blame", "diff"))
    ap.add_argument("--boards", type=int, default=20_000)
    ap.add_argument("--start", type=int, default=0, help="first solved deal of the split to bid")
    ap.add_argument("--split", default="all", choices=("all", *SPLITS),
                    help="bid only this split's deals (train for a round's gate; all for the report)")
    ap.add_argument("--commit", default=None, help="diff: the earlier bidder's commit")
    ap.add_argument("--dd-dir", default=SHARED_DD)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--examples", type=int, default=0, help="diff: example boards per rule")
    args = ap.parse_args()
    if args.boards <= 0:
        raise SystemExit(f"--boards must be > 0, got {args.boards}")
    if args.mode == "diff" and not args.commit:
        raise SystemExit("diff needs --commit")
    deals, tables = load_dd(args.dd_dir)
    old = None
    if args.mode == "diff":
        from sayc_release import ReleaseSayc

        old = ReleaseSayc(args.commit)
    stats: dict[str, list[int]] = defaultdict(lambda: [0] * 6)
    examples: dict[str, list[str]] = defaultdict(list)
    totals = [0] * 6
    chosen = chosen_deals(len(deals), args.split, args.start, args.boards)
    for i in chosen:
        n = i % 16 + 1
        dealer, vul = board_dealer(n), board_vulnerability(n)
        deal = Deal.from_array(deals[i])
        auction, rules = bid_with_rules(deal, dealer, vul)
        has, made, at_par, vs_par = outcome(auction, tables[i], vul, dealer)
        if args.mode == "blame":
            totals = [t + x for t, x in zip(totals, (1, has, made, at_par, vs_par, 0), strict=True)]
            if has:
                s = stats[rules[last_bid_index(auction)]]
                s[0] += 1
                s[1] += made
                s[2] += at_par
                s[3] += vs_par
            continue
        other = bid_plain(old, deal, dealer, vul)
        if other.calls == auction.calls:
            continue
        o_has, o_made, o_at_par, o_vs_par = outcome(other, tables[i], vul, dealer)
        k = next(j for j, (a, b) in enumerate(zip(auction.calls, other.calls, strict=False)) if a != b)
        s = stats[rules[k]]
        delta = (1, has - o_has, made - o_made, at_par - o_at_par, vs_par - o_vs_par, 0)
        for j, x in enumerate(delta):
            s[j] += x
            totals[j] += x
        if len(examples[rules[k]]) < args.examples:
            examples[rules[k]].append(f"  deal {i} {deal.to_pbn() if hasattr(deal, 'to_pbn') else deal}\n"
                                      f"    now {auction.to_str()} ({made=}, {vs_par=:+d})\n"
                                      f"    old {other.to_str()} (made={o_made}, vs_par={o_vs_par:+d})")
    if args.mode == "blame":
        print(f"{len(chosen)} boards ({args.split}), {totals[1]} contracts, make {totals[2] / max(totals[1], 1):.2%}, "
              f"at par level {totals[3] / max(len(chosen), 1):.2%}")
        print(f"{'rule of the last bid':55s} {'contracts':>9s} {'failed':>7s} {'make%':>6s} {'parlvl%':>7s}")
        ranked = sorted(stats.items(), key=lambda kv: -(kv[1][0] - kv[1][1]))
        for name, (c, m, p, _v, _, _) in ranked[: args.top]:
            print(f"{name:55s} {c:9d} {c - m:7d} {m / c:6.1%} {p / c:7.1%}")
        return
    print(f"{len(chosen)} boards ({args.split}), {totals[0]} bid differently; now minus {args.commit}: "
          f"contracts {totals[1]:+d}, made {totals[2]:+d}, at par level {totals[3]:+d}")
    print(f"{'rule where the auctions part':55s} {'boards':>6s} {'contr':>6s} {'made':>6s} {'parlvl':>6s}")
    ranked = sorted(stats.items(), key=lambda kv: kv[1][2])
    for name, (b, c, m, p, _v, _) in ranked[: args.top]:
        print(f"{name:55s} {b:6d} {c:+6d} {m:+6d} {p:+6d}")
        for e in examples[name]:
            print(e)


if __name__ == "__main__":
    main()
