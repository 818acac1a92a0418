"""``bidlab spades ...``: Spades tournaments and a terminal game against three bots."""

from __future__ import annotations

import hashlib
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

from bidlab.cli._stop import stopped
from bidlab.errors import BidlabError
from bidlab.runtime.progress import plural
from bidlab.runtime.stats import fmt, fmt_percent

app = typer.Typer(
    help="Spades (Cohensius et al. 2020): bidder tournaments and playing against bots.", no_args_is_help=True
)
console = Console()
err_console = Console(stderr=True, soft_wrap=True)


class _Resumed:
    """Progress that first says how many games a rerun found finished."""

    def __init__(self, task, out: Path):
        self.task, self.out = task, out

    def start(self, total, done=0) -> None:
        if done:
            console.print(f"resuming {self.out}: {done} of {plural(total, 'game')} already played", highlight=False)
        self.task.start(total, done)

    def advance(self, n=1) -> None:
        self.task.advance(n)

    def note(self, text) -> None:
        self.task.note(text)


def _rules(goal: int, lose: int, blind_nil: bool, exchange: int, failed_nil_counts: bool, first_lead: str):
    """The rules, with errors in the options' names (--goal, not the Rules field win_goal)."""
    from bidlab.cli._checks import OptionError
    from bidlab.spades.rules import FirstLead, Rules

    if goal <= 0:
        raise OptionError(f"--goal must be > 0, got {goal}")
    if lose >= 0:
        raise OptionError(f"--lose must be < 0, got {lose}")
    if first_lead not in {f.value for f in FirstLead}:
        raise OptionError(f"--first-lead must be one of {', '.join(f.value for f in FirstLead)}, got {first_lead!r}")
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
    t = Table(title=f"{plural(s['games'], 'game')}, {plural(s['rounds'], 'round')}")
    t.add_column("side")
    t.add_column("win rate", justify="right")
    t.add_column("points / round", justify="right")
    t.add_column("nil bids / round", justify="right")
    t.add_column("nils made", justify="right")
    wa, se = s["win_rate_a"], s["win_rate_a_se"]
    # A missing value (no nil bid, one game: no standard error) reads "n/a", never "nan%".
    t.add_row(labels[0], f"{fmt_percent(wa)} ± {fmt(100 * se, 1)}", f"{fmt(s['points_per_round_a'], 1)} ± {fmt(s['points_per_round_a_se'], 1)}",
              fmt(s["nil_rate_a"], 3), fmt_percent(s["nil_success_a"]))  # fmt: skip
    t.add_row(labels[1], f"{fmt_percent(1 - wa)} ± {fmt(100 * se, 1)}", f"{fmt(s['points_per_round_b'], 1)} ± {fmt(s['points_per_round_b_se'], 1)}",
              fmt(s["nil_rate_b"], 3), fmt_percent(s["nil_success_b"]))  # fmt: skip
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
        200, min=1, help="Games to play (the paper used 10,000 per comparison)."
    ),
    goal: int = typer.Option(200, help="Winning goal (the paper's tournaments: 200; standard game: 500)."),
    lose: int = typer.Option(-100, help="Losing goal (paper: -100; standard: -200)."),
    blind_nil: bool = typer.Option(False, help="Allow blind nil (when trailing by 100 or more)."),
    exchange: int = typer.Option(0, min=0, max=4, help="Cards exchanged after a blind nil (usually 2)."),
    failed_nil_counts: bool = typer.Option(False, help="A failed nil's tricks count toward partner's bid."),
    first_lead: str = typer.Option("left_of_dealer", help="left_of_dealer or two_of_clubs."),
    seed: int = typer.Option(0, help="Seed: the same seed and options give the same games."),
    workers: int = typer.Option(2, min=1, help="Worker processes playing games in parallel."),
    out: Path = typer.Option(
        None, help="Results folder (resumed if it exists; an old results file OUT.json is upgraded into it). "
        "Default: results/spades/<setup>.",
    ),
) -> None:
    """Play side A against side B; print win rate and points per round with standard errors.

    Sides alternate seats over game pairs that share their deals. Stop with Ctrl-C and run
    the same command again to resume from the results folder.
    """
    from bidlab.runtime.progress import progress_display
    from bidlab.spades.tournament import TournamentConfig, run_tournament

    try:
        ba, bb = _pair(bidders, "bidder")
        pa, pb = _pair(player, "player")
        rules = _rules(goal, lose, blind_nil, exchange, failed_nil_counts, first_lead)
        cfg = TournamentConfig(ba, bb, pa, pb, games=games, seed=seed, rules=rules.to_dict())
        if out is None:
            # Every setting is in the name (a hash of the ones not spelled out), so two different
            # tournaments never share a default file.
            digest = hashlib.sha1(json.dumps(cfg.identity(), sort_keys=True).encode()).hexdigest()[:8]
            out = Path("results/spades") / f"{ba}+{pa}_vs_{bb}+{pb}_g{goal}_s{seed}_{digest}".replace(":", "-")
        console.print(f"side A: {ba} bidding + {pa} play   side B: {bb} bidding + {pb} play   -> {out}")
        with progress_display(console, every=15.0) as display:  # off a terminal: a line per checkpoint
            try:
                summary = run_tournament(cfg, out, workers=workers, progress=_Resumed(display.task("games", games), out))
            except KeyboardInterrupt:
                stopped(console, f"[yellow]stopped; finished games are saved in {out}; run again to resume[/yellow]")
        print_summary(summary, (f"A {ba}+{pa}", f"B {bb}+{pb}"))
        console.print(f"results: {out}")
    except BidlabError as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None


@app.command()
def tables(
    write: bool = typer.Option(
        False, help="Also compute the nil (cnil) table of every suit holding and write it into the package."
    ),
) -> None:
    """Print the side-suit probability tables (Table 1, App. A's Tables 5-6), computed exactly,
    beside the paper's Monte Carlo values; z = (exact - paper) / the paper's Monte Carlo SE."""
    from bidlab.spades.tables import PAPER_DEALS, PAPER_TABLES, side_suit_table

    titles = {2: "Table 1: two opponents may ruff", 1: "Table 5: one opponent may ruff (an opponent bid nil)",
              3: "Table 6: three opponents may ruff (cutthroat)"}  # fmt: skip
    for opponents in (2, 1, 3):
        exact = side_suit_table(opponents)
        paper = PAPER_TABLES[opponents]
        t = Table(title=titles[opponents] + "   (exact  paper  z)")
        t.add_column("cards", justify="right")
        for j in range(3):
            t.add_column(f"> {j} of the suit", justify="right", no_wrap=True)
        for k, row in enumerate(paper):
            cells = [str(k)]
            for j in range(3):
                e, p = exact[k][j], row[j]
                se = (e * (1 - e) / PAPER_DEALS) ** 0.5
                z = (e - p) / se if se > 0 else 0.0
                shown = f"({e:.4f})" if k <= j else f" {e:.4f} "
                cells.append(f"{shown} {p:.3f} {z:+5.1f}")
            t.add_row(*cells)
        console.print(t)
    console.print("(parentheses: the card lacks blockers and is worth 0 as a high card; the entry is a ruff's value)")
    if write:
        from bidlab.fileio import write_json_atomic
        from bidlab.spades.tables import CNIL_FILE, compute_cnil_table

        with Progress(TextColumn("[bold]cnil"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console) as prog:  # fmt: skip
            task = prog.add_task("cnil", total=None)
            table = compute_cnil_table(lambda i, n: prog.update(task, completed=i, total=n))
        write_json_atomic(CNIL_FILE, {"what": "Pr(cnil(suit) | holding), Cohensius et al. 2020 Sec. 4.2; "
                                      "key: S/X (spades/side suit):lowest three ranks (0 = deuce)/length",
                                      "cnil": table})  # fmt: skip
        console.print(f"wrote {len(table)} cnil entries to {CNIL_FILE}")


def _parse_bids(text: str) -> tuple[int, ...]:
    from bidlab.spades.errors import SpadesError

    if not text.strip():
        return ()
    out = []
    for part in text.split(","):
        p = part.strip().lower()
        if p == "nil":
            p = "0"
        if not p.isdigit() or not 0 <= int(p) <= 13:
            raise SpadesError(f"--bids: {part.strip()!r} is not a bid (0..13 or nil)")
        out.append(int(p))
    if len(out) > 3:
        raise SpadesError(f"--bids: at most 3 earlier bids, got {len(out)}")
    return tuple(out)


@app.command()
def bid(
    hand: str = typer.Argument(..., help='13 cards, PBN order S.H.D.C, e.g. "AKJ62.AQ.Q.K9543".'),
    bids: str = typer.Option("", help="Bids made before this one this round, in order (e.g. 3,nil); "
                             "the position is their count."),  # fmt: skip
    position: int = typer.Option(None, min=0, max=3, help="Bidding position 0-3 (must match --bids)."),
    score: str = typer.Option("0,0", help="Scores 'ours,theirs' before this round (end-of-game rules)."),
    bags: str = typer.Option("0,0", help="Bags 'ours,theirs'."),
    goal: int = typer.Option(200, help="Winning goal (paper: 200)."),
    lose: int = typer.Option(-100, help="Losing goal."),
    blind_nil: bool = typer.Option(False, help="The rules allow blind nil (when trailing by 100)."),
    variant: str = typer.Option("bis", help="bis or an ablation: bis-nonil, bis-noend, bis-noconv, bis-1curve, "
                                "bis-threshold."),  # fmt: skip
) -> None:
    """Print BIS's bid for a hand and why: the takes card by card, the nil value suit by
    suit, nilProb against the threshold, and any end-of-game or convention change."""
    from bidlab.cards import Hand
    from bidlab.spades.bidders import BidView
    from bidlab.spades.errors import SpadesError
    from bidlab.spades.registry import make_bidder

    try:
        h = Hand.parse(hand)
        if len(h) != 13:
            raise SpadesError(f"a Spades hand has 13 cards, {hand!r} has {len(h)}")
        prev = _parse_bids(bids)
        if position is not None and position != len(prev):
            raise SpadesError(f"--position {position} needs {position} earlier bids in --bids, got {len(prev)}")
        ours, theirs = _two_ints(score, "--score")
        our_bags, their_bags = _two_ints(bags, "--bags")
        rules = _rules(goal, lose, blind_nil, 0, False, "left_of_dealer")
        bidder = make_bidder(variant)
        if not hasattr(bidder, "decide"):
            raise SpadesError(f"--variant {variant!r} is not a BIS variant")
        seat = 2
        view = BidView(seat=seat, hand=h.mask, dealer=(seat - len(prev) - 1) % 4, prev_bids=prev,
                       prev_blind=(False,) * len(prev), rules=rules, our_score=ours, their_score=theirs,
                       our_bags=our_bags, their_bags=their_bags)  # fmt: skip
        if rules.blind_nil_allowed(ours, theirs) and bidder.blind_nil(
            BidView(seat=seat, hand=0, dealer=view.dealer, prev_bids=prev, prev_blind=view.prev_blind,
                    rules=rules, our_score=ours, their_score=theirs, our_bags=our_bags, their_bags=their_bags)
        ):  # fmt: skip
            console.print("blind nil (App. G.2-G.3: partner's Big 6 or a desperate score)")
            return
        console.print(f"hand {h.to_symbols()}   earlier bids: {', '.join('nil' if b == 0 else str(b) for b in prev) or '-'}")
        console.print(bidder.decide(view).explain(), markup=False)
    except BidlabError as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None


def _two_ints(text: str, what: str) -> tuple[int, int]:
    from bidlab.spades.errors import SpadesError

    parts = [p.strip() for p in text.split(",")]
    try:
        a, b = (int(p) for p in parts)
    except ValueError:
        raise SpadesError(f"{what}: give two integers 'ours,theirs', got {text!r}") from None
    return a, b


@app.command("fit-curves")
def fit_curves(
    rounds: int = typer.Option(60_000, min=100, help="Simulated rounds (each gives about one nil bid)."),
    seed: int = typer.Option(0, min=0, help="Seed of the deals and the exploration."),
    out: Path = typer.Option(None, help="Where to write the curves. Default: results/spades/success_curves_s<seed>.json; "
                             "to replace the curves BIS uses, name the shipped file bidlab/data/spades/success_curves.json."),
    data: Path = typer.Option(None, help="Folder of the simulated samples (resumed). Default: results/spades/nil_rounds_s<seed>."),
) -> None:
    """Fit BIS's success curves (Sec. 4.3) by logistic regression on simulated nil rounds."""
    from bidlab.cli._checks import check_output_file, check_output_folder
    from bidlab.spades.fit_curves import fit_and_write

    # the shipped curves change only when --out names them: a quick fit must not replace them
    out = out or Path("results/spades") / f"success_curves_s{seed}.json"
    data = data or Path("results/spades") / f"nil_rounds_s{seed}"
    check_output_file(out)
    check_output_folder(data, "--data")
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        with Progress(TextColumn("[bold]rounds"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=console) as prog:  # fmt: skip
            task = prog.add_task("rounds", total=rounds)
            model = fit_and_write(rounds, seed, out, data, lambda i, n: prog.update(task, completed=i))
    except KeyboardInterrupt:
        stopped(console, f"[yellow]stopped; finished chunks are in {data}; run again to resume[/yellow]")
    except (BidlabError, OSError) as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
    meta = model["meta"]
    console.print(f"{meta['samples']} nil bids, {100 * meta['success_rate']:.1f}% made; held-out log-loss "
                  + ", ".join(f"{k} {v:.4f}" for k, v in meta["held_out_log_loss"].items()))  # fmt: skip
    for name, c in zip(model["full"]["features"], model["full"]["coef"]):
        console.print(f"  {name:<26} {c:+.4f}")
    console.print(f"  {'intercept':<26} {model['full']['intercept']:+.4f}")
    console.print(f"wrote {out}")


@app.command("fit-rb")
def fit_rb(
    rounds: int = typer.Option(20_000, min=100, help="Simulated rounds to measure the card values on."),
    seed: int = typer.Option(0, min=0, help="Seed of the deals."),
    out: Path = typer.Option(None, help="Where to write the table. Default: results/spades/rb_values_s<seed>.json; "
                             "to replace the table RB uses, name the shipped file bidlab/data/spades/rb_values.json."),
) -> None:
    """Measure RB's per-card values (Sec. 5.1): average tricks won by a card of each rank and
    suit length in simulated SRP rounds. The table RB bids with changes only when --out names
    the shipped file: a short run would make RB much weaker."""
    from bidlab.cli._checks import check_output_file
    from bidlab.fileio import write_json_atomic
    from bidlab.spades.fit_curves import measure_card_values, rb_values_table

    out = out or Path("results/spades") / f"rb_values_s{seed}.json"
    check_output_file(out)
    with console.status(f"playing {rounds} rounds"):
        won, seen = measure_card_values(rounds, seed)
    table = rb_values_table(won, seen)
    table.update({"rounds": rounds, "seed": seed})
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out, table)
    t = Table(title="RB card values by suit length (side suits | spades)")
    t.add_column("rank")
    for n in range(1, 8):
        t.add_column(f"len {n}", justify="right")
    for kind in ("side", "spades"):
        for r in (12, 11, 10, 9, 8, 4):
            t.add_row(f"{'SHDC'[0] if kind == 'spades' else 'x'}{'23456789TJQKA'[r]}",
                      *(f"{table[kind][r][n]:.2f}" for n in range(1, 8)))  # fmt: skip
    console.print(t)
    console.print(f"wrote {out}")


@app.command()
def summary(path: Path = typer.Argument(..., help="A tournament results folder (or an old results JSON).")) -> None:
    """Print the summary of a (possibly unfinished) tournament."""
    from bidlab.spades.tournament import read_results, summarize

    try:
        cfg, results = read_results(path)
    except BidlabError as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
    s = summarize(results)
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
    """Play a game of Spades in the terminal: you sit South; the three bots are your partner North
    and the opponents East and West."""
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
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
