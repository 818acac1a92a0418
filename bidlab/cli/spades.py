"""``bidlab spades ...``: Spades tournaments and a terminal game against three bots."""

from __future__ import annotations

import json
import random
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from bidlab.errors import BidlabError

app = typer.Typer(
    help="Spades (Cohensius et al. 2020): bidder tournaments and playing against bots.", no_args_is_help=True
)
console = Console()


def _rules(goal: int, lose: int, blind_nil: bool, exchange: int, failed_nil_counts: bool, first_lead: str):
    from bidlab.spades.rules import Rules

    return Rules(
        win_goal=goal, lose_goal=lose, blind_nil=blind_nil, blind_nil_exchange=exchange,
        failed_nil_tricks_count=failed_nil_counts, first_lead=first_lead,
    )  # fmt: skip


def _pair(text: str, what: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) == 1:
        return parts[0], parts[0]
    if len(parts) != 2:
        raise typer.BadParameter(f"give one {what} or two separated by a comma (side A,side B), got {text!r}")
    return parts[0], parts[1]


def print_summary(s: dict, labels: tuple[str, str]) -> None:
    t = Table(title=f"{s['games']} games, {s['rounds']} rounds")
    t.add_column("side")
    t.add_column("win rate", justify="right")
    t.add_column("points / round", justify="right")
    t.add_column("nil bids / round", justify="right")
    t.add_column("nils made", justify="right")
    wa, se = s["win_rate_a"], s["win_rate_a_se"]
    t.add_row(labels[0], f"{100 * wa:.1f}% ± {100 * se:.1f}", f"{s['points_per_round_a']:.1f} ± {s['points_per_round_a_se']:.1f}",
              f"{s['nil_rate_a']:.3f}", f"{100 * s['nil_success_a']:.1f}%")  # fmt: skip
    t.add_row(labels[1], f"{100 * (1 - wa):.1f}% ± {100 * se:.1f}", f"{s['points_per_round_b']:.1f} ± {s['points_per_round_b_se']:.1f}",
              f"{s['nil_rate_b']:.3f}", f"{100 * s['nil_success_b']:.1f}%")  # fmt: skip
    console.print(t)


@app.command()
def tournament(
    bidders: str = typer.Option(
        "rb,rb", help="Bidders of side A and side B, comma-separated (io, ms, rb, ...); one name = both."
    ),
    player: str = typer.Option(
        "srp",
        help="Playing module(s): one for all four seats, or 'A,B' per side. wrp, srp, ismcts[:ITER|:SECs], uct<X>[:ITER].",
    ),
    games: int = typer.Option(
        200, min=1, help="Games to play (the paper used 10,000; issue runs use 2,000)."
    ),
    goal: int = typer.Option(200, help="Winning goal (the paper's tournaments: 200; standard game: 500)."),
    lose: int = typer.Option(-100, help="Losing goal (paper: -100; standard: -200)."),
    blind_nil: bool = typer.Option(False, help="Allow blind nil (when trailing by 100 or more)."),
    exchange: int = typer.Option(0, min=0, max=4, help="Cards exchanged after a blind nil (usually 2)."),
    failed_nil_counts: bool = typer.Option(False, help="A failed nil's tricks count toward partner's bid."),
    first_lead: str = typer.Option("left_of_dealer", help="left_of_dealer or two_of_clubs."),
    seed: int = typer.Option(0, help="Seed: the same seed and options give the same games."),
    workers: int = typer.Option(2, min=1, help="Worker processes (this machine has 2 cores)."),
    out: Path = typer.Option(
        None, help="Results JSON (resumed if it exists). Default: results/spades/<setup>.json."
    ),
) -> None:
    """Play side A against side B; print win rate and points per round with standard errors.

    Sides alternate seats over game pairs that share their deals. Stop with Ctrl-C and run
    the same command again to resume from the results file.
    """
    from bidlab.spades.tournament import TournamentConfig, run_tournament

    try:
        ba, bb = _pair(bidders, "bidder")
        pa, pb = _pair(player, "player")
        rules = _rules(goal, lose, blind_nil, exchange, failed_nil_counts, first_lead)
        cfg = TournamentConfig(ba, bb, pa, pb, games=games, seed=seed, rules=rules.to_dict())
        if out is None:
            out = Path("results/spades") / f"{ba}+{pa}_vs_{bb}+{pb}_g{goal}_s{seed}.json".replace(":", "-")
        console.print(f"side A: {ba} bidding + {pa} play   side B: {bb} bidding + {pb} play   -> {out}")
        with Progress(
            TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
            console=console,
        ) as prog:  # fmt: skip
            task = prog.add_task("games", total=games)

            def on_progress(done: int, total: int) -> None:
                prog.update(task, completed=done)

            try:
                summary = run_tournament(cfg, out, workers=workers, progress=on_progress)
            except KeyboardInterrupt:
                console.print(
                    f"[yellow]stopped; finished games are saved in {out}; run again to resume[/yellow]"
                )
                raise typer.Exit(130) from None
        print_summary(summary, (f"A {ba}+{pa}", f"B {bb}+{pb}"))
        console.print(f"results: {out}")
    except BidlabError as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None


@app.command()
def summary(path: Path = typer.Argument(..., help="A tournament results JSON.")) -> None:
    """Print the summary of a (possibly unfinished) tournament results file."""
    from bidlab.spades.tournament import summarize

    try:
        data = json.loads(path.read_text())
        cfg = data["config"]
    except (OSError, json.JSONDecodeError, KeyError) as e:
        console.print(f"[red]error:[/red] {path}: not a tournament results file ({e})")
        raise typer.Exit(2) from None
    s = summarize(data.get("results", []))
    if not s.get("games"):
        console.print("no finished games yet")
        return
    print_summary(s, (f"A {cfg['bidder_a']}+{cfg['player_a']}", f"B {cfg['bidder_b']}+{cfg['player_b']}"))


@app.command()
def play(
    bots: str = typer.Option("rb", help="Bidder of the three bots (io, ms, rb, ...)."),
    player: str = typer.Option(
        "srp", help="Playing module of the three bots (wrp, srp, ismcts[:ITER], uct<X>)."
    ),
    goal: int = typer.Option(200, help="Winning goal."),
    lose: int = typer.Option(-100, help="Losing goal."),
    seed: int = typer.Option(None, help="Seed for the deals (random if omitted)."),
) -> None:
    """Play a game of Spades in the terminal: you sit South, partner North, bots East and West."""
    from bidlab.spades.game import play_game
    from bidlab.spades.human import HumanBidderPlayer
    from bidlab.spades.registry import make_bidder, make_player

    try:
        rules = _rules(goal, lose, False, 0, False, "left_of_dealer")
        rng = random.Random(seed)
        human = HumanBidderPlayer(console)
        bidders = [make_bidder(bots), make_bidder(bots), human, make_bidder(bots)]
        players = [make_player(player, rng.getrandbits(32)) for _ in range(4)]
        players[2] = human
        rec = play_game(
            rules,
            bidders,
            players,
            rng,
            first_dealer=rng.randrange(4),
        )
        who = {0: "North-South (you)", 1: "East-West", -1: "nobody (draw)"}[rec.winner]
        console.print(f"[bold]Game over[/bold]: {rec.scores[0]} to {rec.scores[1]}; winner: {who}")
    except (KeyboardInterrupt, EOFError):
        console.print("\nbye")
    except BidlabError as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
