"""Coverage of call meanings (issue 45): 200 random bot calls of ``nn:rl``, ``nn:partner`` and
``bmcs:rl`` (its fast default setting) in their own auctions of test deals; does ``bidlab
meaning`` and the web "Why?" give an HCP range and suit lengths for every one of them?

Each agent bids ``--boards`` test deals at all four seats on the web app (through its API, as
the page does; dealer and vulnerability by board number); from all bot calls, ``--calls`` are
drawn at random, and each is asked of ``GET /api/boards/{id}/why`` and of ``bidlab meaning
AGENT "AUCTION" --dealer D --vul V --json`` (in process, through the command itself).

    nice -n 10 python benchmarks/meaning_coverage.py --json results/meaning_coverage.json

Prints a table per agent and writes the JSON (atomically).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

AGENTS = ("nn:rl", "nn:partner", "bmcs:rl")
SHOWN = re.compile(r"(?:^|: )(\S+) shows (\d+)(?:–(\d+))? HCP, (.+?)(?:;|\. |$)")
SUIT = re.compile(r"(≤\d+|\d+\+|\d+–\d+|\d+) ([♠♥♦♣]) \((0\.\d\d|1\.00)\)")


def web_reading(text: str | None) -> bool:
    """A "Why?" meaning with an HCP range and a length for each of the four suits."""
    if not text:
        return False
    m = SHOWN.search(text)
    return bool(m) and sorted(s for _, s, _ in SUIT.findall(m.group(4))) == sorted("♠♥♦♣")


def cli_reading(out: dict) -> bool:
    lo, hi = out["hcp"]
    return 0 <= lo <= hi <= 37 and sorted(s["suit"] for s in out["lengths"]) == sorted("♠♥♦♣")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=24, help="test deals bid per neural agent")
    ap.add_argument("--search-boards", type=int, default=6, help="test deals bid by bmcs:rl (about 1 s a call)")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.json is not None and args.json.is_dir():
        print(f"error: --json {args.json} is a directory", file=sys.stderr)
        return 2

    import torch
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from bidlab.bridge.board import board_dealer, board_vulnerability
    from bidlab.cards import Deal
    from bidlab.cli import app as cli
    from bidlab.dd import shipped_store
    from bidlab.web import create_app

    torch.set_num_threads(1)
    rng = np.random.default_rng([args.seed, 45])
    deals = shipped_store().load("test")[0]
    t0 = time.time()
    pool = []    # (agent, board id, call index, dealer, vul, calls before and with it)
    with TestClient(create_app(results_dir=Path("/nonexistent-results"), meaning_wait=600.0)) as client:
        for agent in AGENTS:
            n = args.search_boards if agent.startswith("bmcs") else args.boards
            for i in rng.choice(len(deals), size=n, replace=False):
                number = int(i) + 1
                body = {"deal": Deal.from_array(deals[i]).to_pbn(), "number": number, "seed": int(i),
                        "seats": {s: agent for s in "NESW"}}
                r = client.post("/api/boards", json=body)
                r.raise_for_status()
                b = r.json()
                calls = [c["call"] for c in b["calls"]]
                for k in range(len(calls)):
                    pool.append((agent, b["id"], k, board_dealer(number).letter, board_vulnerability(number).pbn,
                                 " ".join(calls[:k + 1])))
                print(f"{agent}: board {number} bid ({len(calls)} calls), {time.time() - t0:.0f} s",
                      file=sys.stderr)
        picks = sorted(rng.choice(len(pool), size=min(args.calls, len(pool)), replace=False))
        rows = []
        runner = CliRunner()
        for j, p in enumerate(picks):
            agent, board, k, dealer, vul, auction = pool[p]
            w = client.get(f"/api/boards/{board}/why", params={"index": k}).json()
            vul_opt = {"None": "none", "NS": "ns", "EW": "ew", "All": "all"}[vul]
            r = runner.invoke(cli, ["meaning", agent, auction, "--dealer", dealer, "--vul", vul_opt, "--json"])
            out = json.loads(r.output) if r.exit_code == 0 else None
            rows.append({"agent": agent, "auction": auction, "dealer": dealer, "vul": vul,
                         "web": w.get("meaning"), "web_ok": web_reading(w.get("meaning")),
                         "cli": None if out is None else out["text"], "cli_ok": out is not None and cli_reading(out),
                         "cli_error": None if out is not None else r.output.strip()[-300:]})
            print(f"{j + 1}/{len(picks)} calls asked, {time.time() - t0:.0f} s", file=sys.stderr)
    summary = {}
    for agent in AGENTS:
        mine = [r for r in rows if r["agent"] == agent]
        summary[agent] = {"calls": len(mine), "web_ok": sum(r["web_ok"] for r in mine),
                          "cli_ok": sum(r["cli_ok"] for r in mine)}
    print("| agent | calls drawn | web \"Why?\" with HCP range and four suit lengths | `bidlab meaning` with them |")
    print("| --- | ---: | ---: | ---: |")
    for agent, s in summary.items():
        print(f"| {agent} | {s['calls']} | {s['web_ok']} | {s['cli_ok']} |")
    total = {k: sum(s[k] for s in summary.values()) for k in ("calls", "web_ok", "cli_ok")}
    print(f"| all | {total['calls']} | {total['web_ok']} | {total['cli_ok']} |")
    for r in rows:
        if not (r["web_ok"] and r["cli_ok"]):
            print(f"MISSING: {r['agent']} '{r['auction']}': web {r['web']!r} cli {r['cli'] or r['cli_error']!r}")
    if args.json is not None:
        from bidlab.fileio import write_json_atomic

        args.json.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(args.json, {"benchmark": "meaning_coverage", "command": " ".join(sys.argv),
                                      "summary": summary, "total": total, "seconds": time.time() - t0, "calls": rows})
    return 0 if total["web_ok"] == total["cli_ok"] == total["calls"] else 1


if __name__ == "__main__":
    sys.exit(main())
