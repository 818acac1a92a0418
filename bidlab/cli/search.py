"""``bidlab explain`` (one search decision, shown) and ``bidlab belief plot`` (Fig. 3).
Heavy imports (torch, bidlab.search) stay inside the commands so ``bidlab --help`` is fast."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bidlab.cli import app
from bidlab.cli._checks import check_output_file

console = Console()
belief_app = typer.Typer(help="The belief network: evaluation plots.", no_args_is_help=True)

SUITS = "♠♥♦♣"
RANKS = "AKQJT98765432"


def hand_grid(row52: np.ndarray) -> np.ndarray:
    """A seat's 52 card values (bidlab order, suit*13 + rank, clubs first, 2 low) as a 4 x 13
    grid: rows ♠ ♥ ♦ ♣, columns A .. 2."""
    g = np.asarray(row52, float).reshape(4, 13)   # [suit C D H S, rank 2..A]
    return g[::-1, ::-1]


def heat_table(title: str, grid: np.ndarray) -> Table:
    t = Table(title=title, show_header=True, header_style="bold", box=None, pad_edge=False)
    t.add_column("")
    for r in RANKS:
        t.add_column(r, justify="right")
    for i, s in enumerate(SUITS):
        cells = []
        for v in grid[i]:
            shade = int(round(255 * (1 - v)))
            cells.append(Text(f"{v * 100:3.0f}", style=f"black on rgb(255,{shade},{shade})"))
        t.add_row(s, *cells)
    return t


@app.command()
def explain(
    deal: str = typer.Argument(..., help="PBN deal, e.g. 'N:AKQ2.J3.T98.7654 ...' (the searcher's hand is used; "
                               "the others are only shown for comparison)."),
    auction: str = typer.Option("", help="Calls so far, e.g. '1C P' (the player to act next is the searcher)."),
    dealer: str = typer.Option("N", help="Dealer: N, E, S or W."),
    vul: str = typer.Option("none", help="Vulnerable side(s): none, ns, ew, all."),
    agent: str = typer.Option("bmcs:rl", help="Search agent spec, e.g. bmcs:rl, bmcs:rl?preset=paper, mcs:rl, bmcs:sl."),
    seed: int = typer.Option(0, help="Seed of the search's sampling."),
    plot: Path = typer.Option(None, help="Also save the candidates and the belief heat maps as a PNG."),
    threads: int = typer.Option(1, min=1, help="Torch CPU threads."),
) -> None:
    """Show one BMCS decision: candidates (policy probability, rollouts, mean score),
    particles sampled and kept, and the belief of each hidden hand as a 4 x 13 heat map."""
    import torch

    from bidlab.agents.base import BiddingView
    from bidlab.agents.registry import AgentSpecError, make_agent
    from bidlab.bridge.auction import Auction
    from bidlab.bridge.board import Vulnerability
    from bidlab.cards import Deal, Seat
    from bidlab.envs.state import views_state, with_hands
    from bidlab.search.agents import SearchAgent  # importing bidlab.search registers bmcs:, mcs:

    if plot is not None:  # checked before the search runs, not after it
        check_output_file(plot, "--plot")
    torch.set_num_threads(threads)
    d = Deal.parse(deal)
    a = Auction.parse(auction, Seat.parse(dealer))
    if a.is_over:
        raise AgentSpecError("the auction is over; nothing to decide")
    seat = a.to_act
    view = BiddingView(seat, d[seat], a, Vulnerability.parse(vul))
    bot = make_agent(agent, seed)
    if not isinstance(bot, SearchAgent):
        raise AgentSpecError(f"explain needs a search agent (bmcs:... or mcs:...), got {agent!r}")
    state = with_hands(views_state([view]), d.to_array()[None, :])
    r = bot.search(state)
    show_result(r, d.to_array())
    from bidlab.bridge.calls import Call
    from bidlab.search.meaning import load_reader

    m = load_reader(agent, seed=seed).meaning(a.with_call(Call(r.call)), view.vulnerability)
    console.print(f"what {Call(r.call).to_str(symbols=True)} tells partner (bidlab meaning): {m.text()}",
                  highlight=False)
    if plot is not None:
        save_plot(r, plot, title=f"{agent}: {seat.letter} after '{auction or '(opening)'}'")
        console.print(f"plot: {plot}")


def contract_words(code: str) -> str:
    """``3CXS`` -> ``3♣ doubled, declarer South`` (the rollouts' contract codes); ``P`` -> passed out."""
    if code == "P":
        return "passed out"
    level, strain, rest = code[0], code[1], code[2:]
    doubled = {"": "", "X": " doubled", "XX": " redoubled"}.get(rest[:-1], "")
    seat = {"N": "North", "E": "East", "S": "South", "W": "West"}.get(rest[-1:], rest[-1:])
    return f"{level}{dict(zip('CDHSN', ('♣', '♦', '♥', '♠', 'NT')))[strain]}{doubled}, declarer {seat}"


def show_result(r, truth: np.ndarray | None = None) -> None:
    from bidlab.bridge.calls import Call
    from bidlab.cards import Seat

    console.print(f"[bold]{Call(r.call)}[/bold]  ({r.reason}; policy's own call {Call(r.greedy)})")
    unit = "mean IMPs vs first choice" if r.score == "imps" else "mean points"
    t = Table(title="candidates")
    for col in ("call", "policy p", "rollouts", unit, "± SE", "kept", "top contracts"):
        t.add_column(col, justify="right" if col not in ("call", "top contracts") else "left")
    for c in r.candidates:
        top = sorted(c.contracts.items(), key=lambda kv: -kv[1])[:3]
        t.add_row(str(Call(c.call)), f"{c.prob:.3f}", str(c.rollouts), f"{c.mean:+.2f}" if c.rollouts else "-",
                  f"{c.se:.2f}" if c.rollouts else "-", "yes" if c.alive else "dropped",
                  ", ".join(f"{k} {v}" for k, v in top))
    console.print(t)
    console.print("kept: 'yes' = still a candidate when the search stopped; 'dropped' = eliminated by "
                  "successive halving, its mean score too far below the best call's to catch up", highlight=False)
    codes = sorted({k for c in r.candidates for k in c.contracts})[:3]
    console.print("contract codes: level, strain (C D H S, N notrump), X doubled or XX redoubled, then the "
                  "declarer's seat; P passed out" + (": " + ", ".join(f"{k} = {contract_words(k)}" for k in codes)
                                                      if codes else ""), highlight=False)
    console.print(f"particles: {r.sampled} sampled, {r.kept} kept after filtering; "
                  f"time {r.timing.get('total', 0):.2f} s "
                  f"(sampling {r.timing.get('sampling', 0):.2f}, filter {r.timing.get('filter', 0):.2f}, "
                  f"rollouts {r.timing.get('rollouts', 0):.2f}, DD {r.timing.get('dd', 0):.2f})")
    if r.belief is None:
        return
    names = {1: "LHO", 2: "partner", 3: "RHO"}
    for rel in (1, 2, 3):
        s = (r.seat + rel) % 4
        title = f"{names[rel]} ({Seat(s).letter}): P(holds card), %"
        console.print(heat_table(title, hand_grid(r.belief[s])))
        if truth is not None:
            held = hand_grid(np.asarray(truth) == s)
            cards = " ".join(SUITS[i] + "".join(RANKS[j] for j in range(13) if held[i, j]) for i in range(4))
            console.print(f"  actual: {cards}", highlight=False)


def save_plot(r, path: Path, title: str = "") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from bidlab.bridge.calls import Call
    from bidlab.cards import Seat
    from bidlab.fileio import write_bytes_atomic

    fig, axes = plt.subplots(1, 4, figsize=(17, 3.6), gridspec_kw={"width_ratios": [1.2, 1, 1, 1]})
    ax = axes[0]
    ax.axis("off")
    rows = [[str(Call(c.call)), f"{c.prob:.2f}", str(c.rollouts), f"{c.mean:+.2f}" if c.rollouts else "-",
             "" if c.alive else "dropped"] for c in r.candidates]
    if rows:
        tab = ax.table(cellText=rows, colLabels=["call", "p", "rollouts", "IMPs" if r.score == "imps" else "points", ""],
                       loc="center")
        tab.scale(1, 1.4)
    ax.set_title(f"chose {Call(r.call)}; kept {r.kept}/{r.sampled} deals", fontsize=10)
    names = {1: "LHO", 2: "partner", 3: "RHO"}
    for k, rel in enumerate((1, 2, 3)):
        ax = axes[k + 1]
        s = (r.seat + rel) % 4
        grid = hand_grid(r.belief[s]) if r.belief is not None else np.zeros((4, 13))
        im = ax.imshow(grid, vmin=0, vmax=1, cmap="Reds")
        ax.set_xticks(range(13), list(RANKS))
        ax.set_yticks(range(4), ["S", "H", "D", "C"])
        ax.set_title(f"{names[rel]} ({Seat(s).letter})")
    fig.colorbar(im, ax=axes[1:], shrink=0.8, label="P(holds card)")
    fig.suptitle(title)
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(path, buf.getvalue())


@belief_app.command("plot")
def belief_plot(
    model: str = typer.Option("belief", help="Belief net (shipped name or path)."),
    policy: str = typer.Option("rl", help="Policy whose self-play makes the evaluation auctions."),
    deals: int = typer.Option(2000, min=50, help="VALIDATION deals to bid (one auction each)."),
    out: Path = typer.Option(Path("results/belief_fig3.png"), help="PNG to write (docs/belief_fig3.png is the "
                             "figure the docs show: name it to replace that)."),
    seed: int = typer.Option(1, help="Seed of dealer, vulnerability and the sampled calls."),
) -> None:
    """Fig. 3 of Qiu et al.: cross-entropy of the real hidden hands under the belief net and
    under the uniform belief, against the auction length, with the real hands' own entropy
    (0) as the reference; on self-play auctions of VALIDATION deals."""
    import torch

    from bidlab.agents.neural import load_neural_agent
    from bidlab.dd import shipped_store

    check_output_file(out)
    from bidlab.learn.belief import cross_entropy_by_length, load_belief, self_play_pairs

    torch.set_num_threads(1)
    vdeals, _, _ = shipped_store().load("validation")
    order = np.random.default_rng([seed, 3]).permutation(len(vdeals))[:deals]
    obs, hid, where = self_play_pairs(load_neural_agent(policy, mode="sample", seed=seed), vdeals[order], seed)
    res = cross_entropy_by_length(load_belief(model), obs, hid, where)
    t = Table(title=f"cross-entropy per card slot (nats), {len(obs)} decisions")
    for c in ("calls so far", "decisions", "belief net", "uniform", "real hands"):
        t.add_column(c, justify="right")
    for row in res["rows"]:
        t.add_row(str(row["length"]), str(row["n"]), f"{row['belief']:.4f}", f"{row['uniform']:.4f}", "0")
    console.print(t)
    console.print(f"all decisions: belief {res['belief_mean']:.4f}, uniform {res['uniform_mean']:.4f}")
    save_fig3(res, out, f"{model} on self-play of {policy}, {len(obs)} decisions of {deals} validation deals")
    console.print(f"plot: {out}")


def save_fig3(res: dict, path: Path, subtitle: str) -> None:
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from bidlab.fileio import write_bytes_atomic

    L = [r["length"] for r in res["rows"]]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(L, [r["uniform"] for r in res["rows"]], "o-", label="uniform belief")
    ax.plot(L, [r["belief"] for r in res["rows"]], "s-", label="belief net")
    ax.plot(L, [r["real"] for r in res["rows"]], "k--", label="real hands (reference)")
    ax.set_xlabel("bidding length (calls before the decision)")
    ax.set_ylabel("cross-entropy per card slot (nats)")
    ax.set_title("Belief network vs uniform sampling (Qiu et al. Fig. 3)\n" + subtitle, fontsize=9)
    ax.legend()
    ax.grid(alpha=0.3)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(path, buf.getvalue())
