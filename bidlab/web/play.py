"""Card play at the web table, after the auction (Laws 44-45 in brief): the player on lead's
left of declarer leads, each player follows suit if able, the highest trump (else the
highest card of the suit led) wins the trick, and its winner leads the next.

The person plays their own seats; when the declaring side has a person, that person plays
declarer and dummy both, as declarer does at the table. Bots play double-dummy cards: one
of the legal cards that :func:`bidlab.dd.play.dd_card_values` says takes the most tricks.
"""

from __future__ import annotations

from dataclasses import dataclass

from bidlab.bridge.auction import Contract
from bidlab.bridge.calls import Strain
from bidlab.cards import Card, Deal, Hand, Seat
from bidlab.dd.play import best_dd_card, dd_card_values


@dataclass(frozen=True, slots=True)
class Trick:
    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat


def trick_winner(leader: Seat, cards: tuple[Card, ...], strain: Strain) -> Seat:
    """The seat that wins a complete trick led by ``leader``."""
    trump = None if strain == Strain.NOTRUMP else int(strain)  # Strain C..S = Suit C..S
    led = cards[0].suit

    def strength(card: Card) -> tuple[int, int]:
        return (2 if card.suit == trump else 1 if card.suit == led else 0, int(card.rank))

    best = max(range(len(cards)), key=lambda i: strength(cards[i]))
    return leader.next(best)


class CardPlay:
    """The play of one hand: the cards held, the tricks played, whose turn it is."""

    def __init__(self, deal: Deal, contract: Contract):
        self.deal = deal
        self.contract = contract
        self.declarer = contract.declarer
        self.dummy = contract.declarer.partner
        self.hands: list[set[Card]] = [set(deal[s]) for s in Seat]
        self.leader = contract.declarer.lho
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.history: list[tuple[Seat, Card]] = []   # every card played, in order

    @property
    def is_over(self) -> bool:
        return len(self.tricks) == 13

    @property
    def to_play(self) -> Seat | None:
        return None if self.is_over else self.leader.next(len(self.trick))

    @property
    def started(self) -> bool:
        return bool(self.tricks or self.trick)

    def tricks_won(self, side: int) -> int:
        return sum(t.winner.side == side for t in self.tricks)

    @property
    def declarer_tricks(self) -> int:
        return self.tricks_won(self.declarer.side)

    def legal_cards(self) -> list[Card]:
        seat = self.to_play
        if seat is None:
            return []
        hand = self.hands[seat]
        if self.trick:
            follow = [c for c in hand if c.suit == self.trick[0].suit]
            if follow:
                return sorted(follow, key=lambda c: c.index)
        return sorted(hand, key=lambda c: c.index)

    def play(self, card: Card) -> None:
        seat = self.to_play
        if seat is None:
            raise ValueError("the play is over")
        if card not in self.legal_cards():
            raise ValueError(f"{card} is not a legal card for {seat.full_name}")
        self.hands[seat].discard(card)
        self.history.append((seat, card))
        self.trick.append(card)
        if len(self.trick) == 4:
            cards = tuple(self.trick)
            self.tricks.append(Trick(self.leader, cards, trick_winner(self.leader, cards, self.contract.strain)))
            self.leader = self.tricks[-1].winner
            self.trick = []

    def replayed(self, n: int) -> CardPlay:
        """The play as it stood after its first ``n`` cards (the cards after them taken back)."""
        play = CardPlay(self.deal, self.contract)
        for _, card in self.history[:n]:
            play.play(card)
        return play

    def dd_card(self) -> Card:
        """The bot's card: one that takes the most tricks double dummy."""
        values = dd_card_values([Hand(h) for h in self.hands], self.contract.strain, self.leader, self.trick)
        return best_dd_card(values)

    def remaining(self, seat: Seat) -> Hand:
        return Hand(self.hands[seat])
