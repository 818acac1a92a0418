"""``bidlab deal`` and ``bidlab score``: the bridge-rules commands."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.text import Text

from bidlab.bridge.auction import Contract
from bidlab.bridge.board import Board, Vulnerability
from bidlab.bridge.diagram import board_diagram
from bidlab.bridge.scoring import contract_score
from bidlab.cards import Deal
from bidlab.cli import app
from bidlab.cli._style import suits_in_colour

console = Console()


@app.command()
def deal(
    seed: int = typer.Option(None, min=0, help="Random seed; the same seed gives the same deal. Random if omitted."),
    board: int = typer.Option(1, min=1, help="Board number: sets dealer and vulnerability (16-board cycle)."),
    pbn: str = typer.Option(None, help="Show this PBN deal instead of a random one, e.g. 'N:AKQ2.J3.T98.7654 ...'."),
) -> None:
    """Print a board as a bridge diagram with each hand's high-card points."""
    d = Deal.parse(pbn) if pbn else Deal.random(seed)
    b = Board.numbered(board, d)
    console.print(suits_in_colour(board_diagram(b)), highlight=False)
    console.print(f"PBN: {d.to_pbn()}", highlight=False)


@app.command()
def score(
    contract: str = typer.Argument(..., help="Contract like 4S, 3NT, 4SX, 6HXX (♠♥♦♣ also accepted)."),
    tricks: int = typer.Option(..., "--tricks", "-t", min=0, max=13, help="Tricks taken by declarer (0-13)."),
    vul: str = typer.Option("none", help="Vulnerable side(s): none, ns, ew, all."),
    declarer: str = typer.Option("N", help="Declarer: N, E, S or W."),
) -> None:
    """Print the duplicate score of a contract and result, for declarer's side."""
    c = Contract.parse(contract, declarer)
    v = Vulnerability.parse(vul)
    vulnerable = v.is_vulnerable(c.declarer)
    s = contract_score(c.level, c.strain, c.doubled, vulnerable, tricks)
    result = tricks - (c.level + 6)
    made = f"made{' +' + str(result) if result > 0 else ''}" if result >= 0 else f"down {-result}"
    side = "NS" if c.side == 0 else "EW"
    line = Text.from_markup(
        f"{c.to_str(symbols=True)} by {c.declarer.full_name} "
        f"({'vulnerable' if vulnerable else 'not vulnerable'}), {tricks} tricks, {made}: "
        f"[bold]{s:+d}[/bold] for {side}")
    console.print(suits_in_colour(line), highlight=False)
