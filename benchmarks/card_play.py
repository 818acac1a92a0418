"""Single-dummy card play against double dummy (issue 47), on TEST deals of the DD store.

Each deal is bid by the bidding agent (``--bidder``, default ``nn:rl``, greedy, all four
seats; dealer and vulnerability by board number 1, 2, ...), so the card players see a real
auction to read with the belief net. Passed-out deals are skipped. The contract is then
played out in three settings, and declarer's tricks are compared with the DD store's number
for that (declarer, strain):

- ``sd-sd``: single dummy on all four seats;
- ``sd-dd``: single-dummy declarer against double-dummy defenders;
- ``dd-sd``: double-dummy declarer against single-dummy defenders.

It prints one line per setting, e.g. ``single dummy on all four seats: declarer mean
-0.12 tricks from DD, mean abs 0.61 (500 deals)``, and the seconds per single-dummy card
(median, p90; all cards, and the cards that needed a search: those with a choice between
cards that are not equivalent). Every played hand is appended to ``--out`` (a JSON-lines
file) as it finishes, so a killed run resumes where it stopped; ``--json`` writes the
numbers. DDS gets ``--threads`` threads (1 for a background run on a shared machine).

    nice -n 10 python benchmarks/card_play.py --deals 500 --out runs/card_play.jsonl --json card_play.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

import bidlab.search  # noqa: F401  (registers search agent kinds)
from bidlab.agents.registry import make_agent
from bidlab.bridge.board import board_dealer, board_vulnerability
from bidlab.bridge.play import CardPlay
from bidlab.cards import Deal
from bidlab.dd import DealStore, set_threads, shipped_store
from bidlab.envs.rollout import rollout
from bidlab.envs.state import init
from bidlab.fileio import write_json_atomic
from bidlab.search.cardplay import card_player, play_out

SETTINGS = {
    "sd-sd": "single dummy on all four seats",
    "sd-dd": "single-dummy declarer vs DD defenders",
    "dd-sd": "DD declarer vs single-dummy defenders",
}


def bid_deals(deals: np.ndarray, bidder: str) -> list:
    """(auction, contract, dealer, vulnerability) of each deal, bid by ``bidder`` at all seats."""
    numbers = np.arange(1, len(deals) + 1)
    dealers = (numbers - 1) % 4
    vuls = np.array([int(board_vulnerability(int(x))) for x in numbers])
    agent = make_agent(bidder, 0)
    end = rollout(init(deals, dealers, vuls), [agent] * 4)
    return [(end.auction(i), end.auction(i).contract, int(board_dealer(int(numbers[i]))), int(vuls[i]))
            for i in range(len(deals))]


def play_setting(setting: str, deal: Deal, contract, auction, vul: int, sd, dd, times: list) -> int:
    decl, defe = {"sd-sd": (sd, sd), "sd-dd": (sd, dd), "dd-sd": (dd, sd)}[setting]
    play = CardPlay(deal, contract, auction, vul)
    clock = [time.perf_counter()]

    def on_card(seat, choice) -> None:
        now = time.perf_counter()
        player = decl if play.declarer.side == seat.side else defe
        if player is sd:
            times.append((now - clock[0], choice.samples > 0))
        clock[0] = now

    play_out(play, decl, defe, on_card)
    return play.declarer_tricks


def summarize(rows: list[dict]) -> dict:
    out = {}
    for setting, label in SETTINGS.items():
        d = np.array([r[setting] - r["dd"] for r in rows if setting in r], float)
        if len(d):
            out[setting] = {"label": label, "deals": len(d), "mean": float(d.mean()),
                            "se": float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else 0.0,
                            "mean_abs": float(np.abs(d).mean())}
    times = [t for r in rows for t in r.get("times", [])]
    searched = [t for t, s in times if s]
    if times:
        all_t = np.array([t for t, _ in times])
        out["seconds_per_card"] = {
            "cards": len(all_t), "median": float(np.median(all_t)), "p90": float(np.percentile(all_t, 90)),
            "searched_cards": len(searched),
            "searched_median": float(np.median(searched)) if searched else None,
            "searched_p90": float(np.percentile(searched, 90)) if searched else None}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=500, help="test deals with a contract (default 500)")
    ap.add_argument("--player", default="sd:fast", help="single-dummy player (default sd:fast)")
    ap.add_argument("--bidder", default="nn:rl", help="agent that bids the deals (default nn:rl)")
    ap.add_argument("--settings", default="sd-sd,sd-dd,dd-sd", help="comma list of sd-sd, sd-dd, dd-sd")
    ap.add_argument("--store", default=None, help="DD store folder (default: the one shipped)")
    ap.add_argument("--threads", type=int, default=0, help="DDS threads (0: every core)")
    ap.add_argument("--out", default=None, help="JSON-lines file of played hands (resumes from it)")
    ap.add_argument("--json", default=None, help="write the summary here")
    ap.add_argument("--part", default="0/1", help="I/N: play only every N-th deal from the I-th (N processes, "
                    "each with its own --out, share the work; --summarize then reads all their files)")
    ap.add_argument("--summarize", nargs="+", default=None, metavar="FILE",
                    help="play nothing: print the summary of the hands in these --out files")
    ap.add_argument("--register", metavar="NAME", default=None,
                    help="store the summary of --settings in the results registry as measurement NAME")
    ap.add_argument("--note", default="", help="with --register: a note stored beside the measurement")
    args = ap.parse_args(argv)
    if args.summarize:
        return _print_summary(_read_rows(args.summarize, args.player, args.bidder), args)
    try:
        part, parts = (int(x) for x in args.part.split("/"))
        if not 0 <= part < parts:
            raise ValueError
    except ValueError:
        ap.error(f"--part must be I/N with 0 <= I < N, got {args.part!r}")
    settings = [s.strip() for s in args.settings.split(",") if s.strip()]
    bad = [s for s in settings if s not in SETTINGS]
    if args.deals < 1 or bad or not settings:
        ap.error(f"--deals must be >= 1 and --settings a comma list of {', '.join(SETTINGS)} (got {bad or settings})")
    sd = card_player(args.player)   # raises a clear error for an unknown player, before any output
    dd = card_player("dd")
    set_threads(args.threads)
    store = shipped_store() if args.store is None else DealStore.open(args.store)
    deals, tables, ids = store.load("test")
    out = Path(args.out) if args.out else None
    done = {r["deal_id"]: r for r in _read_rows([out] if out is not None and out.exists() else [],
                                                args.player, args.bidder)}
    # bid a little more than asked: passed-out deals are skipped
    k = min(len(deals), int(args.deals * 1.15) + 20)
    bids = bid_deals(deals[:k], args.bidder)
    rows, t0, ordinal = [], time.time(), -1
    for i, (auction, contract, _dealer, vul) in enumerate(bids):
        if contract is None:
            continue
        ordinal += 1
        if ordinal >= args.deals:
            break
        if ordinal % parts != part:
            continue
        row = dict(done.get(int(ids[i]), {}))
        todo = [s for s in settings if s not in row]
        if todo:
            deal = Deal.from_array(deals[i])
            row.update({"deal_id": int(ids[i]), "player": args.player, "bidder": args.bidder,
                        "contract": str(contract), "auction": auction.to_str(),
                        "dd": int(tables[i, int(contract.declarer), int(contract.strain)])})
            times = []
            for s in todo:
                row[s] = play_setting(s, deal, contract, auction, vul, sd, dd, times)
            row["times"] = row.get("times", []) + times
            if out is not None:
                out.parent.mkdir(parents=True, exist_ok=True)
                with out.open("a") as f:   # one line per deal: a kill loses at most the deal in play
                    f.write(json.dumps({k: v for k, v in row.items()}) + "\n")
                    f.flush()
                    os.fsync(f.fileno())
        rows.append(row)
        if len(rows) % 10 == 0:
            print(f"  {len(rows)}/{len(range(part, args.deals, parts))} deals, {time.time() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    return _print_summary(rows, args)


def _read_rows(files, player: str, bidder: str) -> list[dict]:
    """The played hands in JSON-lines files, one row per deal (later lines complete earlier ones)."""
    done: dict[int, dict] = {}
    for f in files:
        for line in Path(f).read_text().splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue   # a line cut by a kill: that deal is played again
            if r.get("player") == player and r.get("bidder") == bidder:
                done.setdefault(r["deal_id"], {}).update(r)
    return list(done.values())


def _print_summary(rows: list[dict], args) -> int:
    settings = [s.strip() for s in args.settings.split(",") if s.strip()]
    summary = summarize(rows)
    for s in settings:
        v = summary.get(s)
        if v:
            print(f"{v['label']}: declarer mean {v['mean']:+.2f} tricks from DD (SE {v['se']:.2f}), "
                  f"mean abs {v['mean_abs']:.2f} ({v['deals']} deals)")
    spc = summary.get("seconds_per_card")
    if spc:
        print(f"seconds per single-dummy card ({args.player}): median {spc['median']:.3f}, p90 {spc['p90']:.3f} "
              f"({spc['cards']} cards); cards with a search: median {spc['searched_median']:.3f}, "
              f"p90 {spc['searched_p90']:.3f} ({spc['searched_cards']} cards)")
    if args.json:
        write_json_atomic(args.json, {"player": args.player, "bidder": args.bidder, "threads": args.threads,
                                      "summary": summary})
    if args.register:
        _register(args, settings, summary)
    return 0


#: What the benchmark's numbers depend on besides the bidder: the card players' code and the
#: belief net the single-dummy player samples from.
PLAY_KEYS = ("model:belief", "file:search/cardplay.py", "file:search/sampler.py", "file:dd/play.py",
             "file:bridge/play.py")


def _register(args, settings: list[str], summary: dict) -> None:
    """Store the summary of ``settings`` as one registry measurement: per setting, declarer's
    mean tricks from DD ± SE and the mean absolute difference; then the seconds per card."""
    from bidlab.eval.measurements import record

    played = [s for s in settings if s in summary]
    deals = {summary[s]["deals"] for s in played}
    if not played or len(deals) != 1:
        raise SystemExit(f"error: --register needs --settings played on one number of deals (got {deals or 'none'})")
    n = deals.pop()
    result = {}
    for s in played:
        key = s.replace("-", "_")
        result[f"{key}_mean"] = {"mean": summary[s]["mean"], "se": summary[s]["se"]}
        result[f"{key}_mean_abs"] = summary[s]["mean_abs"]
    spc = summary.get("seconds_per_card") or {}
    result.update({k: spc[k] for k in ("median", "p90", "cards") if k in spc})
    command = (f"python benchmarks/card_play.py --deals {n} --player {args.player} --bidder {args.bidder} "
               f"--settings {','.join(played)}" + ("" if args.store is None else f" --store {args.store}"))
    record(args.register, "benchmark", command, result, [args.bidder, *PLAY_KEYS], split="test", boards=n,
           note=args.note)
    print(f"registered {args.register} in the results registry")


if __name__ == "__main__":
    raise SystemExit(main())
