"""Card play at a Blue Chip table: the rules of a trick, and two players for a bidding client.

The table manager knows the deal and checks every card (held by the player, follows suit).
A client does not: it sees its own hand, dummy's hand after the opening lead, and the cards
played. Every seat therefore plays under hidden information, declarer included (it sees 26
cards, not 52), so the "double dummy" player here is the usual perfect-information Monte
Carlo scheme: deal the unseen cards at random to the hidden hands, respecting each hand's
size and the suits a player has shown out of, solve each sampled deal double dummy with DDS
(through endplay), and play the card that takes the most tricks summed over the samples.
The rule player is a fast, fixed heuristic (second hand low, third hand high, win cheaply,
lead from length), for tests and long sessions where card play does not matter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bidlab.bluechip.protocol import IllegalActionError
from bidlab.bridge.calls import Strain
from bidlab.cards import Card, Hand, Seat, Suit

# DDS keeps per-thread scratch memory: solves from several Python threads must not overlap
# (clients of a test or of `connect --seat NS` share a process), nor overlap bidlab.dd's own.
from bidlab.dd.solver import solve_position


def trick_winner(leader: Seat, cards: Sequence[Card], strain: Strain) -> Seat:
    """Who wins a full trick: the highest trump, else the highest card of the suit led."""
    trump = None if strain == Strain.NOTRUMP else Suit(int(strain))
    best = 0
    for i, c in enumerate(cards[1:], start=1):
        b = cards[best]
        if (c.suit == b.suit and c.rank > b.rank) or (trump is not None and c.suit == trump and b.suit != trump):
            best = i
    return leader.next(best)


@dataclass
class TrickPlay:
    """The play of one board so far: tricks, the trick in progress, who has shown out of what."""

    strain: Strain
    declarer: Seat
    tricks: list[tuple[Seat, tuple[Card, ...]]] = field(default_factory=list)
    current: list[Card] = field(default_factory=list)
    leader: Seat = None  # type: ignore[assignment]
    played: int = 0  # mask of cards played
    shown_out: dict[Seat, set[Suit]] = field(default_factory=lambda: {s: set() for s in Seat})
    declarer_tricks: int = 0

    def __post_init__(self):
        if self.leader is None:
            self.leader = self.declarer.lho

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def trick_number(self) -> int:
        """1..13 for the trick in progress (14 once all are played)."""
        return len(self.tricks) + 1

    @property
    def is_over(self) -> bool:
        return len(self.tricks) == 13

    @property
    def to_play(self) -> Seat:
        return self.leader.next(len(self.current))

    def controller(self, seat: Seat) -> Seat:
        """The seat that chooses ``seat``'s cards: declarer plays for dummy."""
        return self.declarer if seat == self.dummy else seat

    @property
    def led_suit(self) -> Suit | None:
        return self.current[0].suit if self.current else None

    def played_by(self, seat: Seat) -> Hand:
        out = [c for leader, cards in self.tricks for i, c in enumerate(cards) if leader.next(i) == seat]
        out += [c for i, c in enumerate(self.current) if self.leader.next(i) == seat]
        return Hand(out)

    def legal_cards(self, remaining: Hand) -> list[Card]:
        """Cards of ``remaining`` that may be played now (follow suit if able)."""
        led = self.led_suit
        if led is not None and remaining.length(led):
            return [c for c in remaining if c.suit == led]
        return list(remaining)

    def check(self, card: Card, remaining: Hand | None) -> None:
        """Raise :class:`IllegalActionError` if ``card`` cannot be played now by the player to act.

        ``remaining`` is that player's unplayed cards when known (table manager, own hand,
        dummy), else None: then only a card already played is caught.
        """
        who = self.to_play.full_name
        if self.played >> card.index & 1:
            raise IllegalActionError(f"{who} plays {card}, which was already played")
        if remaining is None:
            return
        if card not in remaining:
            raise IllegalActionError(f"{who} plays {card}, a card {who} does not hold")
        led = self.led_suit
        if led is not None and card.suit != led and remaining.length(led):
            raise IllegalActionError(f"{who} revokes: plays {card} holding {led.name.lower()}")

    def play(self, card: Card, remaining: Hand | None = None) -> Seat | None:
        """Play ``card`` for the player to act; returns the trick's winner when it completes a trick."""
        if self.is_over:
            raise IllegalActionError(f"all 13 tricks are played; {card} cannot be played")
        self.check(card, remaining)
        seat = self.to_play
        if self.current and card.suit != self.current[0].suit:
            self.shown_out[seat].add(self.current[0].suit)
        self.current.append(card)
        self.played |= 1 << card.index
        if len(self.current) < 4:
            return None
        winner = trick_winner(self.leader, self.current, self.strain)
        self.tricks.append((self.leader, tuple(self.current)))
        if winner.side == self.declarer.side:
            self.declarer_tricks += 1
        self.current = []
        self.leader = winner
        return winner


@dataclass(frozen=True)
class PlayView:
    """What a client knows when it must choose a card for ``seat`` (its own, or dummy's as declarer)."""

    me: Seat
    seat: Seat
    hands: dict[Seat, Hand]  # unplayed cards of every hand the client sees (own; dummy once shown)
    play: TrickPlay


class RulePlayer:
    """A fast heuristic: second hand low, third hand high, win as cheaply as possible, lead from length."""

    name = "rule"

    def choose(self, view: PlayView) -> Card:
        p = view.play
        hand = view.hands[view.seat]
        legal = p.legal_cards(hand)
        if len(legal) == 1:
            return legal[0]
        trump = None if p.strain == Strain.NOTRUMP else Suit(int(p.strain))
        if not p.current:
            return self._lead(hand, trump)
        winner_pos = self._winning_position(p.current, trump)
        partner_winning = p.leader.next(winner_pos) == view.seat.partner
        best = p.current[winner_pos]
        beats = [c for c in legal if self._beats(c, best, trump)]
        low = min(legal, key=lambda c: (c.suit == trump, c.rank))
        if partner_winning or not beats:
            return low
        if len(p.current) == 1 and legal[0].suit == p.current[0].suit:
            return low  # second hand low
        return min(beats, key=lambda c: (c.suit == trump, c.rank))

    @staticmethod
    def _beats(c: Card, best: Card, trump: Suit | None) -> bool:
        if c.suit == best.suit:
            return c.rank > best.rank
        return trump is not None and c.suit == trump

    @staticmethod
    def _winning_position(cards: Sequence[Card], trump: Suit | None) -> int:
        best = 0
        for i, c in enumerate(cards[1:], start=1):
            if RulePlayer._beats(c, cards[best], trump):
                best = i
        return best

    @staticmethod
    def _lead(hand: Hand, trump: Suit | None) -> Card:
        suits = [s for s in Suit if hand.length(s) and s != trump] or [s for s in Suit if hand.length(s)]
        suit = max(suits, key=lambda s: (hand.length(s), hand.suit_hcp(s)))
        ranks = hand.suit_ranks(suit)
        # Top of a sequence (AK, KQ, QJ ...), else fourth best / lowest.
        if len(ranks) >= 2 and ranks[0] - ranks[1] == 1 and ranks[0] >= 9:
            return Card(suit, ranks[0])
        return Card(suit, ranks[min(3, len(ranks) - 1)])


class SampledDDPlayer:
    """Double dummy on sampled deals (perfect-information Monte Carlo), ``samples`` deals per card.

    Falls back to :class:`RulePlayer` for forced plays (one legal card).
    """

    name = "dd"

    def __init__(self, samples: int = 8, seed: int = 0):
        if samples < 1:
            raise IllegalActionError(f"samples must be at least 1, got {samples}")
        self.samples = samples
        self.rng = np.random.default_rng(seed)

    def choose(self, view: PlayView) -> Card:
        p = view.play
        legal = p.legal_cards(view.hands[view.seat])
        if len(legal) == 1:
            return legal[0]
        score = {c: 0 for c in legal}
        for _ in range(self.samples):
            hands = sample_hidden_hands(view, self.rng)
            for card, tricks in _solve_position(hands, p).items():
                if card in score:
                    score[card] += tricks
        # Ties go to the lowest card, so equal cards are played from the bottom.
        return max(legal, key=lambda c: (score[c], -c.rank))


def sample_hidden_hands(view: PlayView, rng: np.random.Generator) -> dict[Seat, Hand]:
    """Unplayed cards of all four seats: the seen hands as they are, the unseen ones dealt at random.

    Each hidden seat gets as many cards as it has left, never a card of a suit it has shown
    out of (if the shown-out constraints cannot be met after a few tries, they are dropped).
    """
    p = view.play
    seen = dict(view.hands)
    hidden = [s for s in Seat if s not in seen]
    known = 0
    for h in seen.values():
        known |= h.mask
    unseen = [i for i in range(52) if not (known >> i & 1) and not (p.played >> i & 1)]
    need = {s: 13 - len(p.played_by(s)) for s in hidden}
    for attempt in range(20):
        order = rng.permutation(unseen)
        left = dict(need)
        got: dict[Seat, list[int]] = {s: [] for s in hidden}
        ok = True
        for i in order.tolist():
            suit = Suit(i // 13)
            choices = [s for s in hidden if left[s] and (attempt == 19 or suit not in p.shown_out[s])]
            if not choices:
                ok = False
                break
            weights = np.array([left[s] for s in choices], dtype=float)
            s = choices[int(rng.choice(len(choices), p=weights / weights.sum()))]
            got[s].append(i)
            left[s] -= 1
        if ok:
            return {**seen, **{s: Hand(got[s]) for s in hidden}}
    raise IllegalActionError("the cards seen are inconsistent: the unseen cards cannot be dealt")


def _solve_position(hands: dict[Seat, Hand], p: TrickPlay) -> dict[Card, int]:
    """Tricks (from now on) for the side to play, per legal card, by DDS on one full position."""
    # The cards of the trick in progress go back to their players, then are played again.
    full = {s: set(hands[s].cards) for s in Seat}
    for i, c in enumerate(p.current):
        full[p.leader.next(i)].add(c)
    pbn = "N:" + " ".join(Hand(full[s]).to_pbn() for s in Seat)
    solved = solve_position(pbn, int(p.strain), int(p.leader), [str(c) for c in p.current])
    return {Card.parse(card): tricks for card, tricks in solved.items()}
