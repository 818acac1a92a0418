"""Cohensius et al. 2020, Tables 2 and 4: BIS against the rival bidders and against itself with
one component off, every row a tournament (bidlab.spades.tournament), printed beside the paper.

Each row's games are saved in the results store results/spades/paper/<row>/ (a
bidlab.runtime.shards folder; a results file <row>.json of the old format beside it is
upgraded into it, never changed), so a stopped run resumes and a rerun with more games
extends the rows. Sizing on a 2-core machine shared with other jobs, one
worker at nice 10: rule-based rows ~60-100 games/s, UCT(3) ~2 games/s, UCT(5) ~1 game/s.

    nice -n 10 python benchmarks/spades_paper_tables.py --games 10000 --uct-games 2000 --workers 1
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bidlab.spades.rules import Rules
from bidlab.spades.tournament import TournamentConfig, run_tournament

# (row id, BIS side, other side, player, goal, paper win rate, paper points BIS : other)
TABLE_2 = [
    ("t2_rb_wrp", "bis", "rb", "wrp", 200, 51.9, "53.2 : 50.0"),
    ("t2_ms_wrp", "bis", "ms", "wrp", 200, 66.9, "50.1 : 38.2"),
    ("t2_io_wrp", "bis", "io", "wrp", 200, 68.6, "52.8 : 46.5"),
    ("t2_rb_srp", "bis", "rb", "srp", 200, 52.3, "56.2 : 52.8"),
    ("t2_ms_srp", "bis", "ms", "srp", 200, 67.7, "50.8 : 38.4"),
    ("t2_io_srp", "bis", "io", "srp", 200, 67.1, "51.6 : 46.3"),
]
# UCT(X): SRP for the first 13 - X tricks, then ISMCTS. The paper's rollouts play SRP (App. F.3);
# "-anchor" keeps SRP's card unless the search beats it by 2 SEs (benchmarks/spades_ismcts_study.py).
# The first two rows are the bid-blind greedy rollouts without anchoring, kept for comparison.
TABLE_2_UCT = [
    ("t2_rb_uct3", "bis", "rb", "uct3", 200, 52.1, "52.0 : 48.5"),
    ("t2_rb_uct5", "bis", "rb", "uct5", 200, 52.9, "48.5 : 40.3"),
    ("t2_rb_uct3a", "bis", "rb", "uct3-srp-anchor", 200, 52.1, "52.0 : 48.5"),
    ("t2_rb_uct5a", "bis", "rb", "uct5-srp-anchor", 200, 52.9, "48.5 : 40.3"),
]
TABLE_4 = [
    ("t4_1curve", "bis", "bis-1curve", "srp", 200, 51.2, "44.7 : 43.6"),
    ("t4_noend_g200", "bis", "bis-noend", "srp", 200, 52.0, "48.3 : 49.9"),
    ("t4_noend_g1", "bis", "bis-noend", "srp", 1, 52.8, "43.5 : 52.9"),
    ("t4_nonil", "bis", "bis-nonil", "srp", 200, None, "-"),
    ("t4_noconv", "bis", "bis-noconv", "srp", 200, None, "-"),
    ("t4_threshold", "bis", "bis-threshold", "srp", 200, None, "-"),
]


def run_row(row, games: int, seed: int, workers: int, out_dir: Path) -> dict:
    rid, a, b, player, goal, *_ = row
    rules = Rules.paper().with_options(win_goal=goal)
    cfg = TournamentConfig(a, b, player, player, games=games, seed=seed, rules=rules.to_dict())
    return run_tournament(cfg, out_dir / rid, workers=workers)


def fmt(row, s: dict) -> str:
    rid, a, b, player, goal, paper_win, paper_pts = row
    win = f"{100 * s['win_rate_a']:.1f} ± {100 * s['win_rate_a_se']:.1f}"
    pts = f"{s['points_per_round_a']:.1f} : {s['points_per_round_b']:.1f}"
    nil = f"{100 * s['nil_success_a']:.1f}% of {s['nil_rate_a']:.3f}/round"
    pw = f"{paper_win:.1f}" if paper_win is not None else "-"
    return f"| {a} vs {b} | {player} | {goal} | {s['games']} | {win} | {pw} | {pts} | {paper_pts} | {nil} |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="games per rule-based row (paper: 10,000)")
    ap.add_argument("--uct-games", type=int, default=2_000, help="games per UCT(X) row")
    ap.add_argument("--seed", type=int, default=2020)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rows", default="", help="comma-separated row ids (default: all)")
    ap.add_argument("--out", type=Path, default=Path("results/spades/paper"))
    args = ap.parse_args()
    wanted = set(filter(None, args.rows.split(",")))
    rows = [(r, args.games) for r in TABLE_2 + TABLE_4] + [(r, args.uct_games) for r in TABLE_2_UCT]
    head = "| BIS vs | play | goal | games | BIS win % ± SE | paper | points/round | paper | BIS nils made |"
    lines = [head, "|" + "---|" * 9]
    for row, games in rows:
        if wanted and row[0] not in wanted:
            continue
        t = time.time()
        s = run_row(row, games, args.seed, args.workers, args.out)
        lines.append(fmt(row, s))
        print(lines[-1], f"({time.time() - t:.0f} s)", flush=True)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
