"""The play of the cards (Laws 44-45 in brief): the player on declarer's left leads, each
player follows suit if able, the highest trump (else the highest card of the suit led) wins
the trick, and its winner leads the next.

:class:`CardPlay` is the one record of a hand in play, shared by the card players
(:mod:`bidlab.dd.play`, :mod:`bidlab.search.cardplay`), the CLI, played-out match scoring
and the web table. It holds the whole deal, because it is the table; a card player reads it
only through :meth:`CardPlay.view`, which keeps what one seat may see.
"""

from __future__ import annotations

from dataclasses import dataclass

from bidlab.bridge.auction import Auction, Contract
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import Strain
from bidlab.bridge.scoring import score_contract
from bidlab.cards import Card, Deal, Hand, Seat


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


@dataclass(frozen=True)
class PlayView:
    """What the player at ``seat`` may see when it is to choose a card: its own 13 cards,
    dummy's 13 once the opening lead is down (declarer's view also when it plays dummy's
    cards), the auction, the contract, the vulnerability and every card played, in order.
    ``showed_out[s]`` are the suits seat ``s`` failed to follow (a public fact)."""

    seat: Seat                     # who decides: declarer when dummy is to play
    on_play: Seat                  # whose card it is
    own: Hand                      # the decider's 13 cards as dealt
    dummy: Hand | None             # dummy's 13 cards as dealt, once visible
    contract: Contract
    vulnerability: Vulnerability
    auction: Auction | None
    history: tuple[tuple[Seat, Card], ...]
    leader: Seat                   # leader of the current trick
    trick: tuple[Card, ...]        # cards of the current trick so far
    declarer_tricks: int           # tricks won so far by declarer's side
    tricks_played: int
    legal: tuple[Card, ...]

    @property
    def showed_out(self) -> dict[Seat, set[int]]:
        out: dict[Seat, set[int]] = {s: set() for s in Seat}
        for k in range(0, len(self.history), 4):
            trick = self.history[k:k + 4]
            led = trick[0][1].suit
            for seat, card in trick[1:]:
                if card.suit != led:
                    out[seat].add(int(led))
        return out

    def key(self) -> bytes:
        """Bytes that identify the view (for seeding a player's randomness from it alone)."""
        parts = [int(self.seat), int(self.on_play), self.own.mask, -1 if self.dummy is None else self.dummy.mask,
                 self.contract.level, int(self.contract.strain), self.contract.doubled, int(self.contract.declarer),
                 int(self.vulnerability), *(c.index for _, c in self.history)]
        if self.auction is not None:
            parts += [int(self.auction.dealer), *(c.id for c in self.auction.calls)]
        return ",".join(map(str, parts)).encode()


class CardPlay:
    """The play of one hand: the cards held, the tricks played, whose turn it is.

    ``auction`` (with its dealer) and ``vulnerability`` are public; card players that read
    the auction need them, the double-dummy player does not.
    """

    def __init__(self, deal: Deal, contract: Contract, auction: Auction | None = None,
                 vulnerability: Vulnerability | int = Vulnerability.NONE):
        self.deal = deal
        self.contract = contract
        self.auction = auction
        self.vulnerability = Vulnerability(vulnerability)
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
    def decider(self) -> Seat | None:
        """Who chooses the next card: the player on play, or declarer for dummy."""
        seat = self.to_play
        return self.declarer if seat == self.dummy else seat

    @property
    def started(self) -> bool:
        return bool(self.tricks or self.trick)

    def tricks_won(self, side: int) -> int:
        return sum(t.winner.side == side for t in self.tricks)

    @property
    def declarer_tricks(self) -> int:
        return self.tricks_won(self.declarer.side)

    def ns_score(self) -> int:
        """North-South's duplicate score for the tricks declarer has won so far (the result
        once the play is over)."""
        return score_contract(self.contract, self.declarer_tricks, self.vulnerability)

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
        play = CardPlay(self.deal, self.contract, self.auction, self.vulnerability)
        for _, card in self.history[:n]:
            play.play(card)
        return play

    def remaining(self, seat: Seat) -> Hand:
        return Hand(self.hands[seat])

    def view(self) -> PlayView:
        """What the player who chooses the next card may see (:class:`PlayView`)."""
        seat, on_play = self.decider, self.to_play
        if seat is None:
            raise ValueError("the play is over")
        return PlayView(
            seat=seat, on_play=on_play, own=self.deal[seat],
            dummy=self.deal[self.dummy] if self.history else None,
            contract=self.contract, vulnerability=self.vulnerability, auction=self.auction,
            history=tuple(self.history), leader=self.leader, trick=tuple(self.trick),
            declarer_tricks=self.declarer_tricks, tricks_played=len(self.tricks),
            legal=tuple(self.legal_cards()))


@dataclass(frozen=True)
class CardChoice:
    """A card player's choice and why: for each legal card it weighed, declarer's expected
    tricks over the whole hand and declarer's expected score (``None`` where the card was
    not weighed: one legal card, or all legal cards equivalent). ``samples``: deals weighed."""

    card: Card
    tricks: dict[Card, float]
    scores: dict[Card, float]
    samples: int = 0

    @property
    def expected_tricks(self) -> float | None:
        return self.tricks.get(self.card)
