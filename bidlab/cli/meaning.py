"""``bidlab meaning AGENT "AUCTION"``: what the auction's last call shows, as AGENT's side reads it
(:mod:`bidlab.search.meaning`: the belief net's picture of the caller after the call)."""

from __future__ import annotations

import json

import typer
from rich.console import Console

from bidlab.cli import app

console = Console()


def sayc_rule_text(agent, auction, vulnerability) -> str | None:
    """SAYC's reading of the auction's last call, for ``sayc`` and agents anchored to SAYC."""
    from bidlab.agents.sayc import SaycAgent
    from bidlab.bridge.auction import Auction
    from bidlab.web.alert import sayc_alert

    if not (isinstance(agent, SaycAgent) or getattr(agent, "sayc", None) is not None):
        return None
    before = Auction(auction.dealer, auction.calls[:-1])
    return sayc_alert(before, auction.calls[-1], vulnerability).text()


@app.command()
def meaning(
    agent: str = typer.Argument(..., help="Agent spec whose side reads the call: nn:rl, nn:partner, bmcs:rl (its "
                                "policy reads), sayc, ..."),
    auction: str = typer.Argument(..., help="The calls, e.g. '1C 2S' or '1NT P 2C P 2H'; the last call is read."),
    dealer: str = typer.Option("N", help="Dealer: N, E, S or W."),
    vul: str = typer.Option("none", help="Vulnerable side(s): none, ns, ew, all."),
    samples: int = typer.Option(256, min=16, help="Partner hands sampled (more: steadier ranges, slower)."),
    belief: str = typer.Option("belief", help="Belief net (shipped name or path)."),
    seed: int = typer.Option(0, help="Seed of the sampling."),
    as_json: bool = typer.Option(False, "--json", help="Print the meaning as JSON."),
) -> None:
    """What the auction's last call shows about the caller's hand, as the caller's partner reads
    it with AGENT's policy and the belief net: HCP range, suit lengths with their likelihood,
    forcing or not, and example hands; e.g. '11–15 HCP, 5+ ♠ (0.86)'."""
    import torch

    import bidlab.search  # noqa: F401  (registers bmcs:, mcs:, jps:)
    from bidlab.bridge.auction import Auction
    from bidlab.bridge.board import Vulnerability
    from bidlab.cards import Seat
    from bidlab.search.meaning import load_reader

    torch.set_num_threads(1)
    a = Auction.parse(auction, Seat.parse(dealer))
    v = Vulnerability.parse(vul)
    reader = load_reader(agent, belief=belief, seed=seed, partner_hands=samples)
    m = reader.meaning(a, v)
    rule = sayc_rule_text(reader.agent, a, v)
    if as_json:
        typer.echo(json.dumps(m.as_dict() | {"sayc_rule": rule}, ensure_ascii=False))
        return
    console.print(f"{m.caller}: {m.call.to_str(symbols=True)} shows {m.shows()}", highlight=False)
    if m.forcing is not None:
        console.print(m.forcing_text(), highlight=False)
    if m.changed():
        console.print(f"changed by the call: {m.changed()}", highlight=False)
    if rule:
        console.print(f"SAYC's rule: {rule}", highlight=False)
    console.print("hands like:", highlight=False)
    for line in m.example_lines():
        console.print(f"  {line}", highlight=False)
    note = m.belief_note or f"read with the belief net of {reader.trained_on}'s bidding"
    console.print(f"({note}; {m.samples} hands drawn, {m.partner_ess:.0f} effective partner hands)",
                  highlight=False)
