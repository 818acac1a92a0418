"""The strength-readability frontier of issue 29: policies trained with the anchor term
(``bidlab train rl --anchor nn:sl --anchor-weight λ``) and with a SAYC partner
(``--partner sayc --partner-share S``), each measured on

- **strength**: IMPs/board against ``nn:sl`` and against ``sayc`` (duplicate, double dummy);
- **readability**: agreement with ``sayc``'s call over every decision of its own self-play on
  fresh deals, and over the decisions after the first round (``bidlab agree``);
- **cross-play**: the team ``sayc+X`` (SAYC North/East, X South/West) and ``X+sayc`` against
  ``sayc`` at both seats: how much X adds to a SAYC player's partnership.

Why a script: the frontier is the basis on which the shipped ``nn:partner`` is chosen, so its
numbers must be re-derivable from the stored matches. Every match is a ``bidlab.eval.match``
folder under ``--results`` and every agreement a JSON file beside them: a finished match is
read back, never replayed, and a stopped one resumes. Matches are played one at a time.

    python benchmarks/partner_frontier.py --run "λ 0=nn:runs/f-l0/final" \\
        --run "λ 0.1=nn:runs/f-l01/final" --boards 4000

prints the table (Markdown, IMPs/board ± 1 SE) and draws strength against agreement and
against cross-play into ``results/partner_frontier.png`` (``--out docs/partner_frontier.png``
replaces the figure the docs show). Pick settings on ``--split validation`` (its own folder);
the test split is for the table, each match played once.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

REFERENCE = "sayc"
ANCHOR = "nn:sl"

#: The columns of the table: (key, heading). Matches are (agent A, agent B) with B ``sayc``
#: or ``nn:sl``; cross-play puts X in a team with ``sayc``.
MATCHES = (("vs_sl", "IMPs vs nn:sl"), ("vs_sayc", "IMPs vs sayc"),
           ("sayc_x", "sayc+X vs sayc"), ("x_sayc", "X+sayc vs sayc"))


class FrontierError(Exception):
    """Bad options (one line, no traceback)."""


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", text.lower().replace("λ", "lambda")).strip("-")


def match_pair(key: str, spec: str) -> tuple[str, str]:
    """The two agents of the match ``key`` for candidate ``spec``."""
    return {"vs_sl": (spec, ANCHOR), "vs_sayc": (spec, REFERENCE),
            "sayc_x": (f"{REFERENCE}+{spec}", REFERENCE), "x_sayc": (f"{spec}+{REFERENCE}", REFERENCE)}[key]


def parse_runs(items: list[str]) -> dict[str, str]:
    runs: dict[str, str] = {}
    for item in items:
        label, sep, spec = item.partition("=")
        if not sep or not label.strip() or not spec.strip():
            raise FrontierError(f"--run must be LABEL=SPEC (e.g. 'λ 0.1=nn:runs/f/final'), got {item!r}")
        runs[label.strip()] = spec.strip()
    return runs


def measure(runs: dict[str, str], *, split: str, boards: int, deals: int, agree_seed: int, results: Path,
            workers: int, play: bool) -> dict:
    """Each candidate's four matches and its agreement: read back where stored, else played
    (with ``play``) or left out (``None``). A match of ``nn:sl`` against itself is 0 exactly
    (the same deterministic agent at every seat of both rooms) and is not played."""
    from bidlab.eval.agreement import agreement
    from bidlab.eval.match import Match, MatchConfig
    from bidlab.fileio import write_json_atomic

    table: dict = {}
    for label, spec in runs.items():
        folder = results / slug(label)
        row: dict = {"spec": spec}
        for key, _ in MATCHES:
            a, b = match_pair(key, spec)
            if a == b:
                row[key] = {"imps": 0.0, "se": 0.0, "boards": boards}
                continue
            match = Match(MatchConfig(a, b, split=split, boards=boards), folder / key)
            if not play and match.pending():
                row[key] = None
                continue
            print(f"{label}: {a} vs {b} on {boards} {split} boards ...", file=sys.stderr, flush=True)
            s = match.run(workers=workers)
            row[key] = {"imps": s.imps_per_board, "se": s.standard_error, "boards": s.boards}
        agree_file = folder / f"agree-{deals}-s{agree_seed}.json"
        if agree_file.is_file():
            row["agree"] = json.loads(agree_file.read_text())
        elif play:
            print(f"{label}: agreement with {REFERENCE} on {deals} fresh deals ...", file=sys.stderr, flush=True)
            row["agree"] = agreement(spec, REFERENCE, deals=deals, seed=agree_seed).to_json()
            write_json_atomic(agree_file, row["agree"])
        else:
            row["agree"] = None
        table[label] = row
    return table


def proportion_se(rate: float, n: int) -> float:
    """Binomial SE of an agreement rate (decisions taken as independent: a lower bound, since
    the decisions of one auction are correlated)."""
    return math.sqrt(rate * (1 - rate) / n) if n else float("nan")


def markdown(table: dict, split: str, boards: int) -> str:
    head = ["candidate", *(h for _, h in MATCHES[:2]), "agreement (all)", "after round 1", *(h for _, h in MATCHES[2:])]
    lines = [f"IMPs/board ± 1 SE on {boards:,} {split} boards; agreement with sayc ± 1 SE on fresh deals.", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def imps(r):
        return "—" if r is None else f"{r['imps']:+.2f} ± {r['se']:.2f}"

    def agree(ag, later):
        if ag is None:
            return "—"
        rate, n = (ag["later_rate"], ag["later_decisions"]) if later else (ag["rate"], ag["decisions"])
        return f"{100 * rate:.1f} ± {100 * proportion_se(rate, n):.1f} %"

    for label, row in table.items():
        cells = [label, imps(row["vs_sl"]), imps(row["vs_sayc"]), agree(row["agree"], False),
                 agree(row["agree"], True), imps(row["sayc_x"]), imps(row["x_sayc"])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(table: dict, out: Path, split: str, boards: int) -> None:
    """Strength (IMPs/board vs sayc) against agreement and against cross-play (sayc+X vs
    sayc), ± 1 SE, with the issue's targets as dashed lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.6), sharey=True)
    for label, row in table.items():
        strength, ag, cross = row["vs_sayc"], row["agree"], row["sayc_x"]
        if strength is None:
            continue
        if ag is not None:
            x = 100 * ag["rate"]
            left.errorbar(x, strength["imps"], yerr=strength["se"], xerr=100 * proportion_se(ag["rate"], ag["decisions"]),
                          fmt="o", capsize=3)
            left.annotate(label, (x, strength["imps"]), textcoords="offset points", xytext=(5, 5), fontsize=8)
        if cross is not None:
            right.errorbar(cross["imps"], strength["imps"], yerr=strength["se"], xerr=cross["se"], fmt="o", capsize=3)
            right.annotate(label, (cross["imps"], strength["imps"]), textcoords="offset points", xytext=(5, 5),
                           fontsize=8)
    for ax in (left, right):
        ax.axhline(0.5, ls="--", lw=0.8, color="grey")
        ax.grid(alpha=0.3)
    left.axvline(90, ls="--", lw=0.8, color="grey")
    right.axvline(0.3, ls="--", lw=0.8, color="grey")
    left.set_xlabel("agreement with sayc, % of decisions (own self-play, fresh deals)")
    right.set_xlabel("cross-play: sayc+X vs sayc, IMPs/board")
    left.set_ylabel("strength: X vs sayc, IMPs/board")
    fig.suptitle(f"Strength against readability and cross-play ({boards:,} {split} boards; dashed: issue 29's targets)")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp.png")
    fig.savefig(tmp, dpi=110)
    tmp.replace(out)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", action="append", required=True, help="LABEL=SPEC of one candidate, e.g. 'λ 0.1=nn:runs/f/final'")
    ap.add_argument("--split", default="test", help="deal split of the matches: test (the table) or validation (choosing)")
    ap.add_argument("--boards", type=int, default=4000, help="boards per match")
    ap.add_argument("--deals", type=int, default=2000, help="fresh deals of the agreement measure")
    ap.add_argument("--agree-seed", type=int, default=99, help="seed of the agreement's fresh deals")
    ap.add_argument("--workers", type=int, default=2, help="worker processes of each match")
    ap.add_argument("--results", type=Path, default=None,
                    help="folder of the stored matches (default results/partner-frontier[-validation])")
    ap.add_argument("--no-play", action="store_true", help="only read what is stored; leave the rest out")
    ap.add_argument("--out", type=Path, default=Path("results/partner_frontier.png"),
                    help="PNG of the plot (docs/partner_frontier.png is the docs' figure: name it to replace it)")
    args = ap.parse_args(argv)
    try:
        if args.split not in ("train", "validation", "test"):
            raise FrontierError(f"--split must be train, validation or test, got {args.split!r}")
        for name, value in (("--boards", args.boards), ("--deals", args.deals), ("--workers", args.workers)):
            if value < 1:
                raise FrontierError(f"{name} must be >= 1, got {value}")
        if args.agree_seed < 0:
            raise FrontierError(f"--agree-seed must be >= 0, got {args.agree_seed}")
        if args.out.suffix.lower() != ".png":
            raise FrontierError(f"--out must name a .png file, got {args.out}")
        runs = parse_runs(args.run)
        from bidlab.agents.specs import check_agent_spec

        for spec in runs.values():
            check_agent_spec(spec)
    except Exception as e:  # noqa: BLE001  (one line for any bad option, before anything is written)
        print(f"error: {e}", file=sys.stderr)
        return 2
    results = args.results or Path("results/partner-frontier" + ("" if args.split == "test" else f"-{args.split}"))
    table = measure(runs, split=args.split, boards=args.boards, deals=args.deals, agree_seed=args.agree_seed,
                    results=results, workers=args.workers, play=not args.no_play)
    text = markdown(table, args.split, args.boards)
    print(text)
    results.mkdir(parents=True, exist_ok=True)
    (results / "table.md").write_text(text + "\n")
    (results / "table.json").write_text(json.dumps(table, indent=1) + "\n")
    plot(table, args.out, args.split, args.boards)
    print(f"wrote {results / 'table.md'} and {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
