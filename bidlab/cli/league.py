"""``bidlab league``: every pairing of a panel of agents, a cross-table and one rating each."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from bidlab.cli import app
from bidlab.cli._checks import OptionError, check_output_file, check_output_folder
from bidlab.runtime.progress import plural, progress_display
from bidlab.runtime.stats import fmt

console = Console()

#: Plot formats matplotlib writes (by the --plot suffix).
PLOT_SUFFIXES = (".png", ".pdf", ".svg")


def _default_plot(results: Path, agents: list[str], boards: int, search_boards: int, seed: int, split: str) -> Path:
    """``RESULTS/league-SPLIT-N-sSEED-HASH.png``: one file per panel, so two leagues never
    overwrite each other's plot."""
    key = hashlib.sha1("\n".join([*agents, str(search_boards)]).encode()).hexdigest()[:8]
    return results / f"league-{split}-{boards}-s{seed}-{key}.png"


@app.command()
def league(
    agents: list[str] = typer.Argument(..., help="Agent specs, at least two: random sayc nn:sl nn:rl@2750 nn:rl bmcs:rl ..."),
    boards: int = typer.Option(2000, help="Boards per pairing (each bid at two tables)."),
    search_boards: int = typer.Option(100, help="Boards per pairing that involves a search agent (bmcs:, mcs:, jps:); "
                                      "fewer, since each of their calls is a search. Their SE is larger."),
    split: str = typer.Option("test", help="Deal split: test (default), validation, train."),
    seed: int = typer.Option(0, help="Seed of every pairing's deal sample and agents."),
    anchor: str = typer.Option(None, help="Agent rated 0 (default: sayc, else the first agent)."),
    results: Path = typer.Option(Path("results"), help="Folder of the match folders (those of `bidlab match`: "
                                 "stored pairings are reused, in either order)."),
    plot: Path = typer.Option(None, help="Ratings plot (.png, .pdf or .svg; default RESULTS/league-SPLIT-N-sSEED-HASH.png)."),
    store: Path = typer.Option(None, help="Deal store folder (default: the store shipped with bidlab)."),
    workers: int = typer.Option(2, help="Worker processes (or Ray tasks) playing chunks in parallel."),
    backend: str = typer.Option("local", help="Where chunks are played: local or ray (same results)."),
    ray_address: str = typer.Option(None, help="Existing Ray cluster (HOST:PORT or auto) for --backend ray."),
    chunk_size: int = typer.Option(50, help="Boards per chunk: the unit of progress and of resuming."),
    fit_without: list[str] = typer.Option(None, "--fit-without", help="Agent shown in the cross-table but left out of "
                                          "the ratings fit (repeatable); default: random agents, whose losses are "
                                          "not additive (they lose far more to strong agents than the ratings say)."),
) -> None:
    """Play (or reuse) every pairing of AGENTS as a duplicate match and rate each agent in IMPs/board.

    The ratings are a weighted least-squares fit r_A - r_B ≈ (A's IMPs/board against B),
    weighted by 1/SE², with the anchor at 0; the 95 % intervals come from the fit's
    covariance. Prints the cross-table, each agent's net IMPs on the boards where it declared
    a doubled contract, and the ratings, and writes a plot. Rerunning resumes unfinished
    pairings and reuses finished ones."""
    from bidlab.agents.registry import refuse_peeking
    from bidlab.agents.specs import check_agent_spec
    from bidlab.eval.league import is_search_agent, plan_league, play_pairing
    from bidlab.eval.match import MatchConfig, select_deals
    from bidlab.eval.ratings import choose_anchor, fit_ratings, plot_ratings
    from bidlab.runtime.executor import cli_executor

    # Every option is checked before any folder or file is made.
    for value, option in ((boards, "--boards"), (search_boards, "--search-boards"), (workers, "--workers"),
                          (chunk_size, "--chunk-size")):
        if value < 1:
            raise OptionError(f"{option} must be >= 1, got {value}")
    if seed < 0:
        raise OptionError(f"--seed must be >= 0, got {seed}")
    if len(agents) < 2:
        raise OptionError(f"a league needs at least 2 agents, got {len(agents)}")
    for a in agents:
        refuse_peeking(a, "a league's ratings")
    agents = [check_agent_spec(a) for a in agents]
    if anchor is not None:
        anchor = anchor.strip()
        if anchor not in agents:
            raise OptionError(f"--anchor {anchor!r} is not one of the agents ({', '.join(agents)})")
    if fit_without is None:  # random agents out of the fit, where at least two others are left to rate
        fit_without = [a for a in agents if a.split(":")[0] == "random"]
        if len(agents) - len(fit_without) < 2:
            fit_without = []
    for a in fit_without:
        if a not in agents:
            raise OptionError(f"--fit-without {a!r} is not one of the agents ({', '.join(agents)})")
    rated = [a for a in agents if a not in fit_without]
    if len(rated) < 2:
        raise OptionError("the ratings fit needs at least 2 agents besides --fit-without")
    if anchor is not None and anchor in fit_without:
        raise OptionError(f"--anchor {anchor!r} is left out of the fit by --fit-without")
    check_output_folder(results, "--results")
    plot = plot if plot is not None else _default_plot(results, agents, boards, search_boards, seed, split)
    if plot.suffix.lower() not in PLOT_SUFFIXES:
        raise OptionError(f"--plot {plot}: give a file ending in {', '.join(PLOT_SUFFIXES)}")
    check_output_file(plot, "--plot")
    executor = cli_executor(backend, workers, ray_address)
    store_s = None if store is None else str(store)
    sizes = {boards} | ({min(search_boards, boards)} if any(is_search_agent(a) for a in agents) else set())
    for n in sorted(sizes):  # the split holds enough deals (checked here, not after the first matches)
        select_deals(MatchConfig(agents[0], agents[1], split, n, seed, store_s, chunk_size))
    pairings = plan_league(agents, boards, search_boards, split=split, seed=seed, store=store_s,
                           chunk_size=chunk_size, root=results)
    anchor = anchor or choose_anchor(rated)
    if "sayc" not in rated and anchor == rated[0]:
        console.print(f"sayc is not in the league: ratings are anchored at the first agent, {anchor} = 0",
                      highlight=False)

    done = {i: p.stored_boards() for i, p in enumerate(pairings)}
    total = sum(p.config.boards for p in pairings)
    played = []
    with progress_display(console) as display:
        task = display.task("league boards")
        task.start(total, sum(done.values()))
        for i, p in enumerate(pairings):
            def follow(n: int, _total: int, i: int = i) -> None:
                if n > done[i]:
                    task.advance(n - done[i])
                    done[i] = n

            r = play_pairing(p, workers=workers, executor=executor, progress=follow, note=task.note)
            played.append(r)
            res = r.result()
            how = "reused" if r.reused else "played"
            stored = f" (stored as {p.config.agent_a} vs {p.config.agent_b})" if p.flipped else ""
            console.print(f"{how} {p.folder}{stored}: {res.agent_a} vs {res.agent_b} "
                          f"{_estimate(res.imps_per_board, res.standard_error)} IMPs/board over "
                          f"{plural(res.boards, 'board')}", highlight=False)

    pair_results = [r.result() for r in played]
    ratings = fit_ratings(rated, [r for r in pair_results if r.agent_a in rated and r.agent_b in rated], anchor)
    if fit_without:
        console.print(f"left out of the ratings fit (cross-table only): {', '.join(fit_without)}", highlight=False)
    _print_cross_table(agents, pair_results)
    _print_doubled(agents, played)
    _print_ratings(ratings, pair_results)
    plot.parent.mkdir(parents=True, exist_ok=True)
    title = f"bidlab league, {split} split, {plural(boards, 'board')} per pairing"
    if any(is_search_agent(a) for a in agents):
        title += f"\n({min(search_boards, boards)} in a pairing with a search agent)"
    plot_ratings(ratings, plot, title)
    console.print(f"plot: {plot}", highlight=False)


def _estimate(mean: float, se: float) -> str:
    """``+0.12 ± 0.05`` (no ``-0.00`` for two agents that never swing a board)."""
    return f"{fmt(mean, signed=True)} ± {fmt(se)}"


def _print_cross_table(agents: list[str], results) -> None:
    cell = {}
    for r in results:
        cell[(r.agent_a, r.agent_b)] = r
        cell[(r.agent_b, r.agent_a)] = r.flipped()
    t = Table(title="IMPs/board of the row agent against the column agent (± SE)")
    t.add_column("")
    for a in agents:
        t.add_column(a, justify="right")
    for a in agents:
        row = []
        for b in agents:
            r = cell.get((a, b))
            row.append("—" if a == b or r is None else _estimate(r.imps_per_board, r.standard_error))
        t.add_row(a, *row)
    console.print(t)


def _print_ratings(ratings, results) -> None:
    se, ci = ratings.se(), ratings.ci95()
    t = Table(title=f"Ratings, IMPs/board relative to {ratings.anchor} = 0 (weighted least squares)")
    for name, justify in (("#", "right"), ("agent", "left"), ("rating", "right"), ("95 % CI", "right"),
                          ("SE", "right"), ("boards", "right")):
        t.add_column(name, justify=justify)
    order = sorted(range(len(ratings.agents)), key=lambda i: -ratings.rating[i])
    for rank, i in enumerate(order, 1):
        anchored = ratings.agents[i] == ratings.anchor
        t.add_row(str(rank), ratings.agents[i], fmt(ratings.rating[i], signed=True),
                  "anchor" if anchored else f"± {fmt(ci[i])}", "—" if anchored else fmt(se[i]),
                  str(int(ratings.boards[i])))
    console.print(t)
    p = _chi2_p(ratings.chi2, ratings.dof)
    if ratings.dof > 0:
        line = f"fit: chi² = {ratings.chi2:.1f} on {ratings.dof} degrees of freedom (p = {fmt(p)})"
        if p < 0.01:  # the CIs take the match SEs as the only error: misfit makes them too narrow
            line += (f"; the pairwise results are not additive, so the intervals, which assume they are, "
                     f"are too narrow (by about {math.sqrt(ratings.chi2 / ratings.dof):.1f}x)")
        console.print(line, highlight=False)


def _print_doubled(agents: list[str], played) -> None:
    """Per agent, over all its pairings: the boards on which its side declared a doubled or
    redoubled contract and its net IMPs on them, per 100 of all the boards it played (one
    column to read beside the ratings: what being doubled costs each agent in the league)."""
    from bidlab.eval.doubled import DoubledSide, pooled

    sides = [DoubledSide.from_json(d) for r in played for d in r.summary.extra["doubled"]]
    t = Table(title="Boards on which each agent declared a doubled or redoubled contract, and its net IMPs "
                    "on them (all its pairings)")
    for name in ("agent", "boards", "doubled boards", "X", "XX", "mean score", "net IMPs", "IMPs per 100 boards"):
        t.add_column(name, justify="left" if name == "agent" else "right")
    for agent in agents:
        s = pooled(agent, sides)
        t.add_row(agent, str(s.boards), str(s.doubled_boards), str(s.doubled), str(s.redoubled),
                  "—" if not s.total else f"{s.mean_score:+.0f}", f"{s.net_imps:+d}",
                  fmt(s.imps_per_100, 1, signed=True))
    console.print(t)


def _chi2_p(chi2: float, dof: int) -> float:
    if dof <= 0:
        return math.nan
    from scipy.stats import chi2 as dist

    return float(dist.sf(chi2, dof))
