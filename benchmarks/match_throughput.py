"""Duplicate-match throughput: the array ``rollout`` against the old per-table path, same run.

Both paths bid the same boards at two tables (A North-South in the open room, B in the
closed room) and look up the DD score of each contract:

- ``rollout`` (bidlab's path): :func:`bidlab.envs.rollout.duplicate`, one array state for
  both rooms; each round, every policy answers all of its tables with one ``decide`` (one
  forward pass for a net) and every table steps at once.
- the old per-table path (the baseline, as ``bidlab match`` bid before the rollout path,
  kept here only to be measured): one scalar :class:`~bidlab.bridge.Auction` per table,
  per round one ``act_batch`` of :class:`BiddingView` objects per agent, a legality check
  and ``Auction.with_call`` per table.

Pairs: ``nn:sl`` vs ``nn:sl`` (the neural case the rollout path is for) and ``sayc`` vs
``sayc`` (a rule bidder decides one view at a time on both paths). The contenders run in
alternating rounds (the machine is shared and its load swings); the ratio reported is the
median of the per-round ratios.

Run: ``python benchmarks/match_throughput.py [--boards 500] [--rounds 3] [--threads 1]``.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np
import torch

from bidlab.agents.base import BiddingView
from bidlab.agents.registry import make_agent
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board, board_dealer, board_vulnerability
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cards import Deal
from bidlab.dd import shipped_store
from bidlab.envs.rollout import duplicate


def per_table(boards: list[Board], dd: np.ndarray, a, b) -> np.ndarray:
    """The old path: scalar auctions, one ``act_batch`` of views per agent per round."""
    seats = [(a, b, a, b)] * len(boards) + [(b, a, b, a)] * len(boards)
    tables = boards + boards
    auctions = [Auction(t.dealer) for t in tables]
    active = list(range(len(tables)))
    while active:
        groups: dict[int, list[int]] = defaultdict(list)
        agents = {}
        for i in active:
            agent = seats[i][auctions[i].to_act]
            groups[id(agent)].append(i)
            agents[id(agent)] = agent
        for key, idx in groups.items():
            views = [BiddingView(auctions[i].to_act, tables[i].deal[auctions[i].to_act], auctions[i],
                                 tables[i].vulnerability) for i in idx]
            for i, call in zip(idx, agents[key].act_batch(views)):
                if not auctions[i].is_legal(call):
                    raise RuntimeError(f"illegal call {call}")
                auctions[i] = auctions[i].with_call(call)
        active = [i for i in active if not auctions[i].is_over]
    n = len(boards)
    out = np.zeros(n, np.int64)
    for i, bd in enumerate(boards):
        ns = []
        for auction in (auctions[i], auctions[n + i]):
            c = auction.contract
            ns.append(score_contract(c, 0 if c is None else int(dd[i, c.declarer, c.strain]), bd.vulnerability))
        out[i] = imps(ns[0] - ns[1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (on a busy machine, more threads than free cores spin and slow both paths)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    batch = shipped_store().load("validation")
    deals, dd = batch.deals[:args.boards], batch.dd[:args.boards]
    numbers = np.arange(1, args.boards + 1)
    boards = [Board(Deal.from_array(d), int(k), board_dealer(int(k)), board_vulnerability(int(k)))
              for d, k in zip(deals, numbers)]
    dealer = np.array([int(x.dealer) for x in boards])
    vul = np.array([int(x.vulnerability) for x in boards])
    print(f"{args.boards} boards (two tables each), {args.rounds} alternating rounds")
    for spec in ("nn:sl", "sayc"):
        a, b = make_agent(spec), make_agent(spec)
        duplicate(deals[:20], dealer[:20], vul[:20], a, b, dd=dd[:20])  # warm caches and torch
        ratios, fast, slow = [], [], []
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            new = duplicate(deals, dealer, vul, a, b, dd=dd).imps
            t1 = time.perf_counter()
            old = per_table(boards, dd, a, b)
            t2 = time.perf_counter()
            if not np.array_equal(new, old):
                raise SystemExit(f"{spec}: the two paths disagree on {int((new != old).sum())} boards")
            fast.append(args.boards / (t1 - t0))
            slow.append(args.boards / (t2 - t1))
            ratios.append((t2 - t1) / (t1 - t0))
        print(f"{spec} vs {spec}: rollout {np.median(fast):8.1f} boards/s, per-table (baseline) "
              f"{np.median(slow):8.1f} boards/s, ratio {np.median(ratios):5.2f}x (rounds: "
              + ", ".join(f"{r:.2f}" for r in ratios) + "); IMPs identical on both paths")


if __name__ == "__main__":
    main()
