"""A person at the terminal as bidder and player (``bidlab spades play``)."""

from __future__ import annotations

from rich.console import Console

from bidlab.cards import Card, Hand
from bidlab.errors import CardError
from bidlab.spades.bidders import BidView
from bidlab.spades.engine import PlayView, card_str, mask_cards
from bidlab.spades.players import default_exchange

SEATS = ("North", "East", "South", "West")


def _bid_str(bid: int) -> str:
    return "nil" if bid == 0 else str(bid)


class HumanBidderPlayer:
    """Asks the person for bids and cards; shows the table state before each decision."""

    name = "human"

    def __init__(self, console: Console | None = None, ask=input):
        self.console = console or Console()
        self.ask = ask
        self._last_trick_shown = -1

    def blind_nil(self, view: BidView) -> bool:
        a = self.ask("Bid blind nil before looking at your cards? [y/N] ").strip().lower()
        return a in ("y", "yes")

    def bid(self, view: BidView) -> int:
        c = self.console
        c.print(
            f"\n[bold]New round[/bold]  score: you {view.our_score} ({view.our_bags} bags), them {view.their_score} ({view.their_bags} bags)"
        )
        c.print(f"Your hand: {Hand.from_mask(view.hand).to_symbols()}")
        first = (view.dealer + 1) % 4
        for i, b in enumerate(view.prev_bids):
            c.print(
                f"  {SEATS[(first + i) % 4]} bids {_bid_str(b)}{' (blind)' if view.prev_blind[i] else ''}"
            )
        while True:
            a = self.ask("Your bid (0 or nil .. 13): ").strip().lower()
            if a == "nil":
                return 0
            if a.isdigit() and 0 <= int(a) <= 13:
                return int(a)
            c.print("[red]a bid is a number 0..13 or 'nil'[/red]")

    def exchange(self, hand: int, n: int, to_niler: bool) -> int:
        return default_exchange(hand, n, to_niler)

    def play(self, view: PlayView) -> int:
        c = self.console
        if view.trick_number != self._last_trick_shown and view.leaders:
            self._show_previous_trick(view)
        self._last_trick_shown = view.trick_number
        bids = ", ".join(f"{SEATS[s][0]} {_bid_str(view.bids[s])}:{view.tricks[s]}" for s in range(4))
        c.print(f"\nTrick {view.trick_number + 1}   bids:taken  {bids}")
        for i, card in enumerate(view.trick):
            c.print(
                f"  {SEATS[(view.leader + i) % 4]} played {Card.from_index(card).suit.symbol}{card_str(card)[1]}"
            )
        c.print(f"Your hand: {Hand.from_mask(view.hand).to_symbols()}")
        legal = mask_cards(view.legal)
        c.print("Legal: " + " ".join(card_str(x) for x in legal))
        while True:
            a = self.ask("Play a card (e.g. SA, H10, 7C): ")
            try:
                card = Card.parse(a).index
            except CardError as e:
                c.print(f"[red]{e}[/red]")
                continue
            if card in legal:
                return card
            c.print(f"[red]{card_str(card)} is not legal here[/red]")

    def _show_previous_trick(self, view: PlayView) -> None:
        t = len(view.leaders) - (1 if view.trick else 0) - 1
        if t < 0:
            return
        cards = view.plays[4 * t : 4 * t + 4]
        lead = view.leaders[t]
        shown = ", ".join(f"{SEATS[(lead + i) % 4][0]} {card_str(x)}" for i, x in enumerate(cards))
        self.console.print(f"[dim]last trick: {shown}[/dim]")
