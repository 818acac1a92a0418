"""Duplicate-match throughput: the array ``rollout`` against the old per-table path, same run.

Both paths bid the same boards at two tables (A North-South in the open room, B in the
closed room):

- ``rollout`` (bidlab's path): :func:`bidlab.envs.rollout.duplicate`, one array state for
  both rooms; each round, every policy answers all of its tables with one ``decide`` (one
  forward pass for a net) and every table steps at once; DD scores by table lookup. As
  ``bidlab match nn:sl nn:sl`` does, one agent object plays both teams (a greedy net's
  calls depend on nothing but its weights), so the rollout hands it both rooms' rows in
  one batch, and the agent runs its net once per distinct observation
  (:mod:`bidlab.agents.neural`). The same greedy net bids the same auction in both rooms,
  so about half of the rows repeat one from the other room: that halves the forward
  passes, which are over 90% of the rollout's time. The calls are bit-for-bit those of
  the plain forward pass (tests/agents/test_neural_dedup.py). This saving is specific to
  self-play; the ``two agents`` line shows the rollout without it (two agent objects,
  one per team, each answering its own rows), i.e. a match of two different nets.
- the old per-table path (the baseline): ``bid_tables`` of the release before the rollout
  path (commit ``c58ef9b``), the code ``bidlab match`` ran then: one scalar ``Auction`` per
  table, per round one ``act_batch`` of ``BiddingView`` objects per agent (the views encoded
  one by one), a legality check and ``Auction.with_call`` per table. It is taken from git
  (``git archive``) and run in a child process on the same boards; only its bidding is timed,
  inside the child. The old release has the old SAYC bidder, so the ``sayc`` row compares
  paths and bidders together; the ``nn:sl`` row runs the same network on both paths.

Pairs: ``nn:sl`` vs ``nn:sl`` (the neural case the rollout path is for) and ``sayc`` vs
``sayc``. Both paths bid the same boards with the same network file; the old path builds
two agents, as ``bidlab match`` did then (it cannot share work between tables anyway).
The contenders run in alternating rounds (the machine is shared and its load swings); the
ratio reported is the median of the per-round ratios. Each path's CPU time
(``time.process_time``) is reported too, a steadier measure when other jobs share the cores.

Run: ``python benchmarks/match_throughput.py [--boards 300] [--rounds 3] [--threads 1]``.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from bidlab.agents.registry import make_agent
from bidlab.bridge.board import board_vulnerability
from bidlab.dd import shipped_store
from bidlab.envs.rollout import duplicate

OLD_RELEASE = "c58ef9b"
REPO = Path(__file__).resolve().parent.parent

# Runs inside the child, on the old release's package: bids the boards and prints boards/s.
_OLD_PATH = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import torch
torch.set_num_threads(int(sys.argv[4]))
from bidlab.agents.registry import make_agent
from bidlab.bridge.board import Board, board_dealer, board_vulnerability
from bidlab.cards import Deal
from bidlab.dd import shipped_store
from bidlab.eval.bidding import Table, bid_tables
spec, n = sys.argv[2], int(sys.argv[3])
deals = shipped_store().load("validation").deals[:n]
boards = [Board(Deal.from_array(d), k + 1, board_dealer(k + 1), board_vulnerability(k + 1)) for k, d in enumerate(deals)]
a, b = make_agent(spec), make_agent(spec)
bid_tables([Table(x, (a, b, a, b)) for x in boards[:20]])  # warm caches and torch
t, c = time.perf_counter(), time.process_time()
bid_tables([Table(x, (a, b, a, b)) for x in boards] + [Table(x, (b, a, b, a)) for x in boards])
print(json.dumps({"boards_per_s": n / (time.perf_counter() - t), "boards_per_cpu_s": n / (time.process_time() - c)}))
"""


def old_release(commit: str = OLD_RELEASE) -> Path:
    """The old release's ``bidlab`` package, unpacked from git into a temporary folder."""
    blob = subprocess.run(["git", "-C", str(REPO), "archive", commit, "bidlab"], check=True,
                          capture_output=True).stdout
    root = Path(tempfile.mkdtemp(prefix="bidlab_old_"))
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        tar.extractall(root, filter="data")
    return root


def old_path_rate(root: Path, spec: str, boards: int, threads: int) -> tuple[float, float]:
    """The old path's boards per second of wall clock and per second of CPU time."""
    out = subprocess.run([sys.executable, "-c", _OLD_PATH, str(root), spec, str(boards), str(threads)],
                         check=True, capture_output=True, text=True, cwd=root).stdout
    rates = json.loads(out.strip().splitlines()[-1])
    return rates["boards_per_s"], rates["boards_per_cpu_s"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (on a busy machine, more threads than free cores spin and slow both paths)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    batch = shipped_store().load("validation")
    deals, dd = batch.deals[:args.boards], batch.dd[:args.boards]
    numbers = np.arange(1, args.boards + 1)
    dealer = (numbers - 1) % 4
    vul = np.array([int(board_vulnerability(int(k))) for k in numbers])
    root = old_release()
    print(f"{args.boards} boards (two tables each), {args.rounds} alternating rounds, "
          f"{args.threads} torch thread(s); baseline: bid_tables of {OLD_RELEASE}")
    for spec in ("nn:sl", "sayc"):
        a = make_agent(spec)  # one agent for both teams, as `bidlab match` builds it
        a2, b2 = make_agent(spec), make_agent(spec)  # the reference: one object per team
        duplicate(deals[:20], dealer[:20], vul[:20], a, a, dd=dd[:20])  # warm caches and torch
        ratios, fast, fast_cpu, slow, slow_cpu, two, two_cpu = [], [], [], [], [], [], []
        for _ in range(args.rounds):
            t0, c0 = time.perf_counter(), time.process_time()
            one_agent = duplicate(deals, dealer, vul, a, a, dd=dd)
            fast.append(args.boards / (time.perf_counter() - t0))
            fast_cpu.append(args.boards / (time.process_time() - c0))
            t0, c0 = time.perf_counter(), time.process_time()
            two_agents = duplicate(deals, dealer, vul, a2, b2, dd=dd)
            two.append(args.boards / (time.perf_counter() - t0))
            two_cpu.append(args.boards / (time.process_time() - c0))
            if not (np.array_equal(one_agent.open.history, two_agents.open.history)
                    and np.array_equal(one_agent.closed.history, two_agents.closed.history)):
                raise SystemExit(f"{spec}: one agent for both teams bid differently from two agents")
            wall, cpu = old_path_rate(root, spec, args.boards, args.threads)
            slow.append(wall)
            slow_cpu.append(cpu)
            ratios.append(fast[-1] / slow[-1])
        print(f"{spec} vs {spec}: rollout {np.median(fast):8.1f} boards/s, old per-table path (baseline) "
              f"{np.median(slow):8.1f} boards/s, ratio {np.median(ratios):5.2f}x (rounds: "
              + ", ".join(f"{r:.2f}" for r in ratios) + ")")
        print(f"    per CPU-second (steadier on a shared machine): rollout {np.median(fast_cpu):8.1f}, "
              f"old path {np.median(slow_cpu):8.1f}, ratio {np.median(fast_cpu) / np.median(slow_cpu):5.2f}x")
        print(f"    rollout with two agents (one per team, no cross-room sharing): {np.median(two):8.1f} boards/s "
              f"(ratio {np.median(two) / np.median(slow):5.2f}x), {np.median(two_cpu):8.1f} boards per CPU-s "
              f"(ratio {np.median(two_cpu) / np.median(slow_cpu):5.2f}x)")


if __name__ == "__main__":
    main()
