"""Where a partner's departures from SAYC pay: one-step rollouts of the net's call against SAYC's.

A partner such as ``nn:partner`` bids ``sayc``'s call unless its net prefers another call by
more than a margin (``play.sayc_margin``, nats). This benchmark asks, position by position,
what the net's own top call would gain over SAYC's call there. It plays ``sayc+AGENT``
against ``sayc`` (both rooms of a duplicate board), keeps every decision of AGENT's seat where
the net's top call differs from SAYC's, bids the position on from each of the two calls with
the same four players, scores both double dummy and compares them in IMPs against the other
room's result. Positions are grouped by the net's margin (log-probability of its call minus
SAYC's): the table shows how often each band occurs, what a departure there gains on average,
and what it adds per position of AGENT's seat. A margin keeps the bands above it.

The gain is a one-step estimate: the rest of the auction is bid by the same players as now,
so it measures one departure at a time, not a policy that departs everywhere at once.

    python benchmarks/partner_departures.py --agent nn:partner --split validation --deals 5800
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from bidlab.agents.registry import make_agent
from bidlab.bridge.board import board_vulnerability
from bidlab.dd import shipped_store
from bidlab.envs.rollout import duplicate, rollout, score
from bidlab.envs.scoring import imps_array
from bidlab.envs.state import concat, step

BANDS = ((0, 1), (1, 2), (2, 3), (3, 4), (4, 6), (6, np.inf))


def positions(agent: str, deals: np.ndarray, dd: np.ndarray, seed: int):
    """Play ``sayc+AGENT`` against ``sayc``; AGENT's decisions with the tables' results."""
    n = len(deals)
    numbers = np.random.default_rng([seed, 7]).integers(1, 17, n)
    dealers = (numbers - 1) % 4
    vuls = np.array([int(board_vulnerability(int(x))) for x in numbers], np.int64)
    team, sayc = make_agent(f"sayc+{agent}", seed), make_agent("sayc", seed)
    found = []

    def hook(index, rows, sub, _decision):
        mine = np.flatnonzero(np.isin(sub.to_act, (2, 3))) if index == 0 else np.zeros(0, np.int64)
        if len(mine):
            found.append((np.asarray(rows)[mine], sub.take(mine)))

    base = duplicate(deals, dealers, vuls, team, sayc, dd=dd, on_decision=hook)
    rows = np.concatenate([r for r, _ in found])
    at = concat([s for _, s in found])
    return team, sayc, rows, at, base


def one_step_gains(team, sayc, rows: np.ndarray, at, base, dd: np.ndarray):
    """(margin, gain in IMPs of the net's top call over SAYC's) where the two differ, and the
    number of AGENT's positions in all."""
    n = len(dd)
    net = team.members[1]
    p = net.probabilities(at)
    top = p.argmax(axis=1)
    system = np.asarray(sayc.decide(at).calls, np.int64)
    differ = np.flatnonzero(top != system)
    logp = np.log(np.maximum(p, 1e-12))
    margin = logp[differ, top[differ]] - logp[differ, system[differ]]
    sub = at.take(differ)
    table = rows[differ]
    board, open_room = table % n, table < n
    seats = np.where(open_room[:, None], np.array([0, 1, 0, 1]), np.array([1, 0, 1, 0]))
    ns_open = base.open_scores.ns_score.astype(np.int64)
    ns_closed = base.closed_scores.ns_score.astype(np.int64)

    def result(calls: np.ndarray) -> np.ndarray:
        end = rollout(step(sub, calls), [team, sayc], seats, inplace=True)
        ns = score(end, dd[board]).ns_score.astype(np.int64)
        return np.where(open_room, imps_array(ns - ns_closed[board]), imps_array(ns_open[board] - ns))

    return margin, (result(top[differ]) - result(system[differ])).astype(np.float64), at.n


def table(margin: np.ndarray, gain: np.ndarray, total: int) -> str:
    lines = ["| net's margin over SAYC's call (nats) | share of positions | gain per departure (IMPs) | gain per position |",
             "| --- | ---: | ---: | ---: |"]
    for lo, hi in BANDS:
        k = (margin > lo) & (margin <= hi)
        g = gain[k]
        se = g.std(ddof=1) / np.sqrt(len(g)) if len(g) > 1 else float("nan")
        label = f"{lo}–{hi:g}" if np.isfinite(hi) else f"above {lo}"
        lines.append(f"| {label} | {k.sum() / total:.1%} | {g.mean() if len(g) else float('nan'):+.2f} ± {se:.2f} | "
                     f"{g.sum() / total:+.4f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="nn:partner", help="a net agent (its top call is read)")
    ap.add_argument("--split", default="validation", choices=("train", "validation", "test"))
    ap.add_argument("--deals", type=int, default=5800)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--register", metavar="NAME", help="store the result in the results registry")
    args = ap.parse_args(argv)
    deals, dd, _ = shipped_store().load(args.split)
    if not 1 <= args.deals <= len(deals):
        print(f"error: --deals must be 1..{len(deals)} for the {args.split} split", file=sys.stderr)
        return 2
    try:
        agent = make_agent(args.agent)
    except Exception as e:  # an unknown spec: one line
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not hasattr(agent, "probabilities"):
        print(f"error: {args.agent} has no policy net to read a top call from", file=sys.stderr)
        return 2
    order = np.random.default_rng([args.seed, 11]).permutation(len(deals))[: args.deals]
    team, sayc, rows, at, base = positions(args.agent, deals[order], dd[order], args.seed)
    margin, gain, total = one_step_gains(team, sayc, rows, at, base, dd[order])
    print(f"{args.agent} opposite sayc, {args.deals} {args.split} deals: {total} decisions of its seat, "
          f"{len(gain)} where its net's top call is not SAYC's")
    text = table(margin, gain, total)
    print(text)
    if args.register is not None:
        from bidlab.eval.measurements import record

        shipped = margin > (getattr(agent, "sayc_margin", None) or 0.0)
        command = (f"python benchmarks/partner_departures.py --agent {args.agent} --split {args.split} "
                   f"--deals {args.deals} --seed {args.seed}")
        result = {"gain_per_position_at_margin": {"mean": float(gain[shipped].sum() / total),
                                                  "se": float(gain[shipped].std(ddof=1) * np.sqrt(shipped.sum()) / total)},
                  "positions": int(total), "departures_possible": int(len(gain)), "table": text}
        record(args.register, "benchmark", command, result, [args.agent, "sayc"], split=args.split,
               boards=args.deals, seed=args.seed)
        print(f"registered {args.register} in the results registry", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
