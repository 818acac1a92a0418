"""``bidlab jps``: the tabular games of Tian et al. 2020 -- Table 1 reproduction and JPS speed."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from bidlab.errors import BidlabError
from bidlab.runtime.progress import plural

app = typer.Typer(
    help="Joint Policy Search on the small collaborative games (Tian et al. 2020, Sec. 6).",
    no_args_is_help=True,
)
console = Console(width=None if sys.stdout.isatty() else 150)
err_console = Console(stderr=True, soft_wrap=True)

# Relative to where the command runs, like every other command's results folder.
DEFAULT_RESULTS = Path("results") / "tabular" / "table1"
DEFAULT_RESULTS_TABLE2 = Path("results") / "tabular" / "table2"
LARGE = ("comm:6", "comm:7")


@app.command("games")
def games() -> None:
    """Print #states and #infosets of every Table 1 game, counted as Table 1 counts them."""
    from bidlab.tabular.games import make_game
    from bidlab.tabular.table1 import COLUMNS

    t = Table(title="Table 1 game sizes")
    for col in ("game", "#states", "#infosets", "public nodes", "deals"):
        t.add_column(col, justify="right")
    for c in COLUMNS:
        g = make_game(c.spec)
        t.add_row(c.label, str(g.n_states), str(g.n_table1_infosets), str(g.n_nodes), str(g.n_deals))
    console.print(t)


@app.command("table1")
def table1(
    seeds: int = typer.Option(10, "--seeds", "-k", min=1, help="Seeds per column (the paper used 1000)."),
    seeds_large: int = typer.Option(
        0, "--seeds-large", min=0,
        help="Seeds for Comm L=6 and L=7 (0.27M and 2.1M states); 0 = min(--seeds, 10).",
    ),
    only: str = typer.Option("", "--games", help="Comma-separated game specs to run (default: all columns)."),
    results: Path = typer.Option(DEFAULT_RESULTS, "--results",
                                 help="Folder of finished seeds, one subfolder per game (resumable)."),
    report_only: bool = typer.Option(False, "--report-only", help="Print the table from the checkpoint only."),
    first_seed: int = typer.Option(
        0, "--first-seed", min=0, help="Start at this seed (for extra workers sharing a column)."
    ),
) -> None:
    """Reproduce Table 1's CFR1k and CFR1k+JPS rows beside the paper's values.

    Each seed runs CFR for 1,000 iterations (purified last iterate = CFR1k) and JPS from the
    unpurified last iterate (D=3 for Simple Bidding N=16 and Mini-Bridge N=4,5, full depth
    otherwise). Finished seeds are checkpointed, so an interrupted run resumes; several
    processes may share one checkpoint (use --games to split the columns).
    """
    from bidlab.runtime.progress import progress_display
    from bidlab.tabular.table1 import COLUMNS, column, load_column, run_column

    try:
        cols = [column(s.strip()) for s in only.split(",") if s.strip()] if only else list(COLUMNS)
        large = seeds_large or min(seeds, 10)
        if not report_only:
            with progress_display(console) as display:
                for c in cols:
                    k = large if c.spec in LARGE else seeds
                    done = len([r for r in load_column(results, c.spec) if first_seed <= r["seed"] < k])
                    task = display.task(c.label)
                    task.start(max(k - first_seed, 0), done)
                    run_column(c.spec, k, results, on_seed=lambda _r, t=task: t.advance(), first_seed=first_seed)
        _print_table1(results, cols)
    except BidlabError as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None


@app.command("table2")
def table2(
    seeds: int = typer.Option(20, "--seeds", "-k", min=1, help="Seeds (the paper used 1000)."),
    game: str = typer.Option("mini_hanabi", "--game", help="Game spec (the paper: mini_hanabi, simple_bidding:16)."),
    samples: str = typer.Option("0,1,2,5,8,15,20,25,30", "--samples",
                                help="Comma-separated states per infoset; 0 = all states."),
    results: Path = typer.Option(DEFAULT_RESULTS_TABLE2, "--results",
                                 help="Folder of finished seeds, one subfolder per game (resumable)."),
) -> None:
    """Sample-based JPS from CFR1k (Table 2): best value over 100 iterations per sample count."""
    from bidlab.runtime.stats import mean_se
    from bidlab.tabular.table1 import TABLE2_PAPER, run_column, run_seed_samples

    try:
        ks = [int(x) for x in samples.split(",") if x.strip()]
    except ValueError:
        err_console.print(f"[red]error:[/red] --samples must be comma-separated integers, got {samples!r}")
        raise typer.Exit(2) from None
    try:
        from bidlab.tabular.games import make_game

        make_game(game)
        # Each sample count list is its own job: a store made for other counts is refused.
        recs = run_column(game, seeds, results, runner=lambda spec, seed: run_seed_samples(spec, seed, ks),
                          table="table2", settings={"samples": ks})
    except BidlabError as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
    paper = TABLE2_PAPER.get(game, {})
    t = Table(title=f"Table 2, {game}, CFR1k start: best value over JPS iterations ({plural(len(recs), 'seed')})")
    for name in ("samples per infoset", "ours (mean ± s.e.)", "paper"):
        t.add_column(name, justify="right")
    for k in ks:
        vals = [r[f"k{k}"] for r in recs if f"k{k}" in r]
        if not vals:
            continue
        t.add_row("all states" if k == 0 else str(k), mean_se(vals).format(3),
                  f"{paper[k]:.2f}" if k in paper else "-")
    console.print(t)


def _print_table1(results: Path, cols) -> None:
    from bidlab.runtime.stats import Estimate
    from bidlab.tabular.table1 import load_column, summarize

    t = Table(title="Table 1 (Tian et al. 2020): ours vs paper, mean ± s.e. over seeds",
              caption="* after a mean: at least one seed reached the best known value (within 0.005); "
                      "the mean itself may be lower")
    for name in ("game", "seeds", "CFR1k ours", "CFR1k paper", "CFR1k+JPS ours", "CFR1k+JPS paper", "best known"):
        t.add_column(name, justify="right")
    for c in cols:
        recs = load_column(results, c.spec)
        if not recs:
            t.add_row(c.label, "0", "-", f"{c.paper_cfr:.2f}", "-", f"{c.paper_jps:.2f}", f"{c.best_known:g}")
            continue
        s = summarize(recs)
        star_c = "*" if s.cfr_best >= c.best_known - 5e-3 else ""
        star_j = "*" if s.jps_best >= c.best_known - 5e-3 else ""
        t.add_row(
            c.label, str(s.n),
            Estimate(s.cfr_mean, s.cfr_se, s.n).format(3) + star_c, f"{c.paper_cfr:.2f}",
            Estimate(s.jps_mean, s.jps_se, s.n).format(3) + star_j, f"{c.paper_jps:.2f}",
            f"{c.best_known:g}",
        )
    console.print(t)


@app.command("speed")
def speed(
    max_brute: int = typer.Option(
        2000, "--max-brute", min=10,
        help="Re-evaluate at most this many proposals per search; beyond, time a random sample and scale.",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the random policy searched from."),
    only: str = typer.Option("", "--games", help="Comma-separated game specs (default: the paper's four cases)."),
) -> None:
    """JPS search time vs brute force over the same proposals, for the paper's cases
    (Simple Bidding N=8 and N=16 with D=3, Comm L=4, Mini-Bridge N=4 with D=3)."""
    from bidlab.tabular.speed import PAPER_CASES, measure

    cases = [c for c in PAPER_CASES if not only or c.spec in {s.strip() for s in only.split(",")}]
    if not cases:
        err_console.print(f"[red]error:[/red] no speed case for {only!r} "
                      f"(known: {', '.join(c.spec for c in PAPER_CASES)})")
        raise typer.Exit(2)
    t = Table(title="JPS vs brute force, time per search (baseline: brute force over the same proposals)")
    for name in ("case", "proposals", "JPS s", "brute force s", "ratio (ours)", "ratio (paper)", "brute force"):
        t.add_column(name, justify="right")
    for c in cases:
        r = measure(c, seed=seed, max_brute=max_brute)
        how = "all, best gains agree" if r.brute_sampled == r.proposals and r.agree else (
            "all, DISAGREE" if r.brute_sampled == r.proposals else f"scaled from {r.brute_sampled}/search")
        t.add_row(c.label, str(r.proposals), f"{r.jps_seconds:.3f}", f"{r.brute_seconds:.2f}",
                  f"{r.ratio:.0f}x", f"{c.paper_ratio:.0f}x", how)
        console.print(f"{c.label}: {r.ratio:.1f}x", highlight=False)
    console.print(t)
