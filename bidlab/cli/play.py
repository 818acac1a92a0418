"""``bidlab play``: play one hand out card by card with bots (single dummy by default)."""

from __future__ import annotations

import typer
from rich.console import Console

from bidlab.cli import app
from bidlab.cli._style import suits_in_colour

console = Console()


@app.command()
def play(
    deal: str = typer.Argument(..., help="The deal in PBN, e.g. 'N:AKQ2.J3.T98.7654 ...' (quote it)."),
    contract: str = typer.Option(..., help="Contract like 4S, 3NT, 4SX (♠♥♦♣ also accepted)."),
    declarer: str = typer.Option(..., help="Declarer: N, E, S or W."),
    lead: str = typer.Option(None, help="The opening lead (e.g. HK) instead of the bot's choice."),
    vul: str = typer.Option("none", help="Vulnerable side(s): none, ns, ew, all."),
    auction: str = typer.Option(None, help="The auction that reached the contract (e.g. '1S P 4S P P P'), read "
                                "by the bots' belief net; without it the hidden cards are sampled uniformly."),
    dealer: str = typer.Option(None, help="Dealer for --auction (default: the seat whose call comes first so "
                               "that declarer's side named the strain first; give it when in doubt)."),
    player: str = typer.Option("sd:fast", help="Card player on all four seats: sd:fast, sd:strong, sd:N "
                               "(single dummy, N samples), or dd (double dummy: sees every card)."),
    defenders: str = typer.Option(None, help="A different card player for the defenders (default --player)."),
) -> None:
    """Play a hand out card by card: each card with the bot's expected tricks for declarer,
    each trick's winner, the result and its score beside the double-dummy result."""
    from bidlab.bridge.auction import Auction, Contract
    from bidlab.bridge.board import Vulnerability
    from bidlab.bridge.play import CardPlay
    from bidlab.cards import Card, Deal, Seat
    from bidlab.dd import dd_table
    from bidlab.errors import BidlabError
    from bidlab.search.cardplay import CardPlayError, card_player

    # every option is checked before a card is played
    try:
        d = Deal.parse(deal)
        c = Contract.parse(contract, declarer)
        v = Vulnerability.parse(vul)
        opening = None if lead is None else Card.parse(lead)
        a = None
        if auction is not None:
            first = Seat.parse(dealer) if dealer is not None else None
            candidates = [first] if first is not None else list(Seat)
            for s in candidates:
                try:
                    trial = Auction.parse(auction, s)
                except BidlabError:
                    continue
                if trial.is_over and trial.contract == c:
                    a = trial
                    break
            if a is None:
                raise typer.BadParameter(f"{auction!r} does not end in {c} (from any dealer)" if first is None
                                         else f"{auction!r} dealt by {first.letter} does not end in {c}",
                                         param_hint="--auction")
        players = (card_player(player), card_player(defenders or player))
    except CardPlayError as e:
        raise typer.BadParameter(str(e), param_hint="--player/--defenders") from None
    if opening is not None and opening not in d[c.declarer.lho]:
        raise typer.BadParameter(f"{opening} is not in the opening leader's ({c.declarer.lho.full_name}'s) hand",
                                 param_hint="--lead")

    game = CardPlay(d, c, a, v)
    names = {0: players[0].name, 1: players[1].name}
    console.print(suits_in_colour(f"{c.to_str(symbols=True)} by {c.declarer.full_name}, "
                                  f"{'vulnerable' if v.is_vulnerable(c.declarer) else 'not vulnerable'}; "
                                  f"declarer's side: {names[0]}, defenders: {names[1]}"
                                  + ("" if a is None else f"; auction {a.to_str(symbols=True)}")), highlight=False)
    while not game.is_over:
        seat = game.to_play
        ours = game.decider.side == c.declarer.side
        bot = players[0] if ours else players[1]
        if opening is not None and not game.history:
            card, why = opening, "the lead given"
        else:
            choice = bot.choose(game)
            card = choice.card
            exp = choice.expected_tricks
            why = ("only card" if len(game.legal_cards()) == 1 else "equal cards") if exp is None else \
                f"expects {exp:.2f} declarer tricks" + (f" over {choice.samples} samples" if choice.samples > 1 else "")
        n = len(game.tricks) + 1
        pos = len(game.trick) + 1
        game.play(card)
        console.print(suits_in_colour(f"  {n:2d}.{pos} {seat.letter} {card.suit.symbol}{card.rank.char}  ({why})"),
                      highlight=False)
        if not game.trick:
            t = game.tricks[-1]
            cards = " ".join(f"{t.leader.next(i).letter} {x.suit.symbol}{x.rank.char}" for i, x in enumerate(t.cards))
            console.print(suits_in_colour(f"trick {n:2d}: {cards}  won by {t.winner.letter}; declarer "
                                          f"{game.declarer_tricks}, defenders {n - game.declarer_tricks}"),
                          highlight=False)
    dd = int(dd_table(d)[int(c.declarer), int(c.strain)])
    made = game.declarer_tricks - (c.level + 6)
    result = f"made{' +' + str(made) if made > 0 else ''}" if made >= 0 else f"down {-made}"
    console.print(suits_in_colour(f"result: {c.to_str(symbols=True)} by {c.declarer.letter}, "
                                  f"{game.declarer_tricks} tricks ({result}), {game.ns_score():+d} for NS; "
                                  f"double dummy: {dd} tricks"), highlight=False)
