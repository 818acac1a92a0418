"""Counterfactual audit of the SAYC bidder's rules on solved deals (issue 27, rounds 47-53).

``sayc`` bids the deals at all four seats. At every decision an *alternative* call is asked
for; where it differs from ``sayc``'s, it is substituted at that one decision, ``sayc``
finishes the auction at all four seats, and both final contracts are scored double dummy
from the store, in IMPs for the side that made the decision. The cells (the rule that made
``sayc``'s call, the kind of the alternative call) are ranked by total IMPs; a cell whose
alternative pays clearly is a judgement to look at. Two alternatives:

* ``--against AGENT`` (default ``nn:rl@80000``): that agent's call in the same position (the
  net-guided audit of round forty-eight). Inside ``sayc``'s system a net's call costs on
  average (partner reads it by ``sayc``'s rules), so the cells where it still pays stand out.
* ``--skip-rule``: the call of the next rule in ``sayc``'s list with the answering rule skipped
  (``bidder.decide_without``; round forty-seven): a cell that pays is a rule answering where a
  later rule should (a catch-all pass ahead of the penalty double, say).

Deals come from ``--split train`` (default) or ``validation``; test deals are refused, since
the audit chooses judgements. All batches go through the one array ``rollout``.

    python benchmarks/sayc_audit.py --deals 20000
    python benchmarks/sayc_audit.py --deals 20000 --skip-rule --min 30 --json audit.json
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

import bidlab.search  # noqa: F401  (registers the search agents, so any spec works for --against)
from bidlab.agents.base import views_of
from bidlab.agents.registry import make_agent
from bidlab.agents.sayc.bidder import decide, decide_without
from bidlab.bridge.board import board_dealer, board_vulnerability
from bidlab.bridge.calls import Call
from bidlab.dd import shipped_store
from bidlab.envs.rollout import Decision, rollout, score
from bidlab.envs.scoring import imps_array
from bidlab.envs.state import concat, init, step_
from bidlab.fileio import write_json_atomic


class RecordingSayc:
    """``sayc`` as a policy over table rows that keeps the rule of each call it made last."""

    name = "sayc"

    def __init__(self):
        self.rules: list[str] = []

    def decide(self, state, explain: bool = False) -> Decision:
        ds = [decide(v) for v in views_of(state)]
        self.rules = [d.rule for d in ds]
        return Decision(np.array([d.call.id for d in ds], np.int64))


def call_kind(prefix: list[int], dealer: int, seat: int, call: int, sayc_call: int) -> str:
    """The alternative call in bridge terms: pass, double, redouble, notrump, raise (partner's
    suit), rebid-own, cue (their suit) or new-suit, with ``jumpN`` levels above the cheapest
    bid in that strain and whether it is higher or lower than ``sayc``'s bid."""
    c = Call(call)
    if c.is_pass:
        return "pass"
    if c.is_double or c.is_redouble:
        return "double" if c.is_double else "redouble"
    level, strain = c.level, c.strain
    mine, partners, theirs, last = set(), set(), set(), None
    for k, x in enumerate(prefix):
        b = Call(x)
        if b.is_bid:
            who = (dealer + k) % 4
            (mine if who == seat else partners if who == (seat + 2) % 4 else theirs).add(b.strain)
            last = b
    cheapest = 1 if last is None else last.level + (strain <= last.strain)
    kind = ("notrump" if strain == 4 else "raise" if strain in partners else "rebid-own" if strain in mine
            else "cue" if strain in theirs else "new-suit")
    jump = f" jump{level - cheapest}" if level > cheapest else ""
    rel = "" if not Call(sayc_call).is_bid else (" >sayc" if call > sayc_call else " <sayc")
    return kind + jump + rel


def audit(deals: np.ndarray, dd: np.ndarray, ids: np.ndarray, against: str | None, progress=print) -> list[dict]:
    """One record per decision where the alternative differs: the rule, both calls, their
    kind and the IMPs the alternative gains for the side that made the decision."""
    boards = ids % 16 + 1
    dealer = np.array([int(board_dealer(int(b))) for b in boards])
    vul = np.array([int(board_vulnerability(int(b))) for b in boards])
    sayc = RecordingSayc()
    other = make_agent(against) if against else None
    found = []   # (rows, state after the alternative, [(row, length, seat, sayc call, alternative, rule)])

    def on_decision(_policy, rows, sub, d):
        mine = np.asarray(d.calls)
        if other is not None:
            alt = np.asarray(other.decide(sub).calls)
        else:
            alt = np.array([decide_without(v, r).call.id for v, r in zip(views_of(sub), sayc.rules)], np.int64)
        k = np.flatnonzero(alt != mine)
        if len(k):
            after = sub.take(k)
            step_(after, alt[k])
            found.append((rows[k], after, [(int(rows[i]), int(sub.length[i]), int(sub.to_act[i]), int(mine[i]),
                                            int(alt[i]), sayc.rules[i]) for i in k]))

    t0 = time.perf_counter()
    # one policy index for all four seats, so that each decision batch reaches on_decision
    # whole and sayc.rules lines up with its rows
    base = rollout(init(deals, dealer, vul), [sayc], np.zeros(4, np.int64), on_decision=on_decision)
    if not found:
        return []
    rows = np.concatenate([r for r, _, _ in found])
    info = [x for _, _, xs in found for x in xs]
    progress(f"{len(deals)} deals bid in {time.perf_counter() - t0:.0f} s; {len(rows)} decisions differ; "
             "finishing those auctions")
    alt = rollout(concat([s for _, s, _ in found]), [sayc], np.zeros(4, np.int64))
    gain = score(alt, dd[rows]).ns_score.astype(np.int64) - score(base, dd).ns_score[rows].astype(np.int64)
    out = []
    for k, (r, j, seat, mine, other_call, rule) in enumerate(info):
        sign = 1 if seat % 2 == 0 else -1   # North-South score; the decision's side gains
        out.append({"deal_id": int(ids[r]), "call_index": j, "seat": "NESW"[seat], "rule": rule,
                    "sayc": str(Call(mine)), "alternative": str(Call(other_call)),
                    "kind": call_kind(base.calls(r)[:j], int(dealer[r]), seat, other_call, mine),
                    "imps": int(imps_array(np.array([sign * gain[k]]))[0])})
    return out


def cells(records: list[dict], min_decisions: int) -> list[dict]:
    """IMPs per decision ± SE by (rule, kind), cells with more than ``min_decisions``,
    ranked by total IMPs; ``clear``: mean above +0.5 and above 2 SE."""
    by = defaultdict(list)
    for r in records:
        by[(r["rule"], r["kind"])].append(r["imps"])
    out = []
    for (rule, kind), v in by.items():
        if len(v) <= min_decisions:
            continue
        x = np.asarray(v, float)
        se = float(x.std(ddof=1) / math.sqrt(len(x)))
        out.append({"rule": rule, "kind": kind, "decisions": len(x), "total": int(x.sum()),
                    "mean": float(x.mean()), "se": se, "clear": bool(x.mean() > 0.5 and x.mean() > 2 * se)})
    return sorted(out, key=lambda c: -c["total"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=5000, help="deals of the split, from its start")
    ap.add_argument("--split", default="train", choices=["train", "validation"])
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--against", default="nn:rl@80000", help="agent whose call is substituted")
    how.add_argument("--skip-rule", action="store_true", help="substitute the next rule's call instead")
    ap.add_argument("--min", type=int, default=30, help="least decisions a printed cell has (exclusive)")
    ap.add_argument("--top", type=int, default=40, help="cells printed")
    ap.add_argument("--json", type=Path, help="also write the cells and every record here")
    args = ap.parse_args()
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    if args.json is not None and not args.json.parent.is_dir():
        ap.error(f"--json: no folder {args.json.parent}")
    deals, dd, ids = shipped_store().load(args.split)
    deals, dd, ids = deals[:args.deals], dd[:args.deals], ids[:args.deals]
    against = None if args.skip_rule else args.against
    records = audit(deals, dd, ids, against)
    table = cells(records, args.min)
    what = "the next rule's call" if against is None else f"{against}'s call"
    total = sum(r["imps"] for r in records)
    print(f"{len(deals)} {args.split} deals; {len(records)} decisions where {what} differs from sayc's; "
          f"substituted, they gain {total:+d} IMPs ({total / max(len(records), 1):+.3f} a decision)")
    print(f"{'rule that made sayc’s call':50s} {'alternative':24s} {'n':>6s} {'total':>7s} {'mean':>7s} {'SE':>6s}")
    for c in table[:args.top]:
        print(f"{c['rule']:50s} {c['kind']:24s} {c['decisions']:6d} {c['total']:+7d} {c['mean']:+7.2f} "
              f"{c['se']:6.2f}{' **' if c['clear'] else ''}")
    if args.json is not None:
        write_json_atomic(args.json, {"deals": len(deals), "split": args.split, "alternative": what,
                                      "cells": table, "records": records})


if __name__ == "__main__":
    main()
