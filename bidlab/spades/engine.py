"""The fast play engine of one Spades round (Sec. 2 of Cohensius et al. 2020).

State is small ints: each hand is a 52-bit mask (card index = suit * 13 + rank, clubs
first, 2 low; ``bidlab.cards`` conventions), the current trick is a short list of card
indices, known voids are a 4-bit mask per seat. Tournaments of thousands of games and
the ISMCTS rollouts run on this, so the hot methods avoid creating objects per card.

Play rules: a player must follow the led suit if she can; a trick is won by the highest
spade in it, else by the highest card of the led suit; the winner leads the next trick;
spades may not be led until a spade has been played in the round ("broken") unless the
leader holds only spades. Under ``FirstLead.TWO_OF_CLUBS`` the holder of the two of clubs
leads it to the first trick.
"""

from __future__ import annotations

from bidlab.spades.errors import IllegalPlayError
from bidlab.spades.rules import FirstLead, Rules, SideScore, score_round

SUIT_BITS = 0x1FFF
SUIT_MASKS: tuple[int, int, int, int] = tuple(SUIT_BITS << (13 * s) for s in range(4))  # type: ignore[assignment]
SPADES = SUIT_MASKS[3]
NON_SPADES = (1 << 39) - 1
FULL_DECK = (1 << 52) - 1
TWO_OF_CLUBS = 0
ACE_OF_SPADES = 51
SUIT_LETTERS = "CDHS"
RANK_CHARS = "23456789TJQKA"


def card_str(card: int) -> str:
    """``"SA"``-style name of a card index."""
    return SUIT_LETTERS[card // 13] + RANK_CHARS[card % 13]


def mask_cards(mask: int) -> list[int]:
    """Card indices in a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def beats(card: int, winning: int) -> bool:
    """Whether ``card`` played to a trick beats the card currently winning it."""
    cs = card // 13
    ws = winning // 13
    if cs == ws:
        return card > winning
    return cs == 3


class RoundState:
    """Mutable state of the play of one round; :meth:`play` is the only way to move.

    Public information: everything except ``hands`` (and ``known``, which is per viewer).
    """

    __slots__ = (
        "rules", "hands", "dealer", "bids", "blind", "leader", "to_play", "trick", "win_card",
        "win_seat", "spades_broken", "tricks", "played", "voids", "n_played", "plays", "leaders",
        "known",
    )  # fmt: skip

    def __init__(
        self,
        rules: Rules,
        hands: list[int] | tuple[int, ...],
        dealer: int,
        bids: tuple[int, int, int, int] = (1, 1, 1, 1),
        blind: tuple[bool, bool, bool, bool] = (False, False, False, False),
        known: tuple[tuple[int, int, int, int], ...] | None = None,
    ):
        self.rules = rules
        self.hands = list(hands)
        self.dealer = dealer
        self.bids = bids
        self.blind = blind
        if rules.first_lead is FirstLead.TWO_OF_CLUBS:
            self.leader = next(s for s in range(4) if self.hands[s] & 1)
        else:
            self.leader = (dealer + 1) % 4
        self.to_play = self.leader
        self.trick: list[int] = []
        self.win_card = -1
        self.win_seat = -1
        self.spades_broken = False
        self.tricks = [0, 0, 0, 0]
        self.played = 0
        self.voids = [0, 0, 0, 0]
        self.n_played = 0
        self.plays: list[int] = []
        self.leaders: list[int] = []
        #: known[viewer][seat]: cards the viewer knows are in seat's hand (blind nil exchange).
        self.known = known if known is not None else ((0,) * 4,) * 4

    # -- queries -----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.n_played == 52

    @property
    def trick_number(self) -> int:
        """0-based index of the trick in progress (13 when the round is over)."""
        return self.n_played >> 2

    def legal_mask(self, seat: int | None = None) -> int:
        """Mask of the cards the player to act may play."""
        h = self.hands[self.to_play if seat is None else seat]
        if self.trick:
            follow = h & SUIT_MASKS[self.trick[0] // 13]
            return follow or h
        if self.n_played == 0 and self.rules.first_lead is FirstLead.TWO_OF_CLUBS:
            return 1
        if self.spades_broken:
            return h
        return (h & NON_SPADES) or h

    def legal_cards(self) -> list[int]:
        return mask_cards(self.legal_mask())

    # -- moves -------------------------------------------------------------------------
    def play(self, card: int) -> None:
        """Play ``card`` for the player to act. Unchecked: use :meth:`play_checked` on input."""
        seat = self.to_play
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        self.plays.append(card)
        self.n_played += 1
        suit = card // 13
        if suit == 3:
            self.spades_broken = True
        trick = self.trick
        if not trick:
            self.leaders.append(seat)
            trick.append(card)
            self.win_card = card
            self.win_seat = seat
            self.to_play = (seat + 1) & 3
            return
        if suit != trick[0] // 13:
            self.voids[seat] |= 1 << (trick[0] // 13)
        trick.append(card)
        w = self.win_card
        if (suit == w // 13 and card > w) or (suit == 3 and w // 13 != 3):
            self.win_card = card
            self.win_seat = seat
        if len(trick) == 4:
            winner = self.win_seat
            self.tricks[winner] += 1
            self.trick = []
            self.leader = winner
            self.to_play = winner
        else:
            self.to_play = (seat + 1) & 3

    def play_checked(self, card: int) -> None:
        seat = self.to_play
        if self.is_over:
            raise IllegalPlayError("the round is over; no more cards can be played")
        if not isinstance(card, int) or not 0 <= card < 52:
            raise IllegalPlayError(f"seat {'NESW'[seat]}: {card!r} is not a card index 0..51")
        if not self.hands[seat] >> card & 1:
            raise IllegalPlayError(f"seat {'NESW'[seat]} does not hold {card_str(card)}")
        if not self.legal_mask() >> card & 1:
            if self.trick:
                why = f"must follow {SUIT_LETTERS[self.trick[0] // 13]}"
            elif self.n_played == 0 and self.rules.first_lead is FirstLead.TWO_OF_CLUBS:
                why = "the two of clubs must be led to the first trick"
            else:
                why = "spades are not broken and the hand holds other suits"
            raise IllegalPlayError(f"seat {'NESW'[seat]} may not play {card_str(card)}: {why}")
        self.play(card)

    def copy(self) -> RoundState:
        c = RoundState.__new__(RoundState)
        c.rules = self.rules
        c.hands = self.hands[:]
        c.dealer = self.dealer
        c.bids = self.bids
        c.blind = self.blind
        c.leader = self.leader
        c.to_play = self.to_play
        c.trick = self.trick[:]
        c.win_card = self.win_card
        c.win_seat = self.win_seat
        c.spades_broken = self.spades_broken
        c.tricks = self.tricks[:]
        c.played = self.played
        c.voids = self.voids[:]
        c.n_played = self.n_played
        c.plays = self.plays[:]
        c.leaders = self.leaders[:]
        c.known = self.known
        return c

    def score(self, bags_before: tuple[int, int] = (0, 0)) -> tuple[SideScore, SideScore]:
        if not self.is_over:
            raise IllegalPlayError(f"the round is not over ({self.n_played} of 52 cards played)")
        return score_round(self.rules, self.bids, self.blind, tuple(self.tricks), bags_before)  # type: ignore[arg-type]

    def view(self, seat: int, scores: tuple[int, int] = (0, 0), bags: tuple[int, int] = (0, 0)) -> PlayView:
        """What ``seat`` sees now: its own hand and everything public."""
        return PlayView(self, seat, scores, bags)


class PlayView:
    """One player's information set during the play (treat as read-only).

    ``hand`` is the viewer's own hand; ``known[s]`` the cards the viewer knows are still in
    seat ``s``'s hand (from a blind nil exchange); everything else is public.
    """

    __slots__ = (
        "seat", "hand", "legal", "rules", "dealer", "bids", "blind", "tricks", "trick", "leader",
        "win_card", "win_seat", "played", "spades_broken", "voids", "known", "n_played", "plays",
        "leaders", "hand_sizes", "scores", "bags",
    )  # fmt: skip

    def __init__(self, state: RoundState, seat: int, scores: tuple[int, int], bags: tuple[int, int]):
        self.seat = seat
        self.hand = state.hands[seat]
        self.legal = state.legal_mask(seat) if state.to_play == seat else 0
        self.rules = state.rules
        self.dealer = state.dealer
        self.bids = state.bids
        self.blind = state.blind
        self.tricks = tuple(state.tricks)
        self.trick = tuple(state.trick)
        self.leader = state.leader
        self.win_card = state.win_card
        self.win_seat = state.win_seat
        self.played = state.played
        self.spades_broken = state.spades_broken
        self.voids = tuple(state.voids)
        self.known = tuple(m & ~state.played for m in state.known[seat])
        self.n_played = state.n_played
        self.plays = tuple(state.plays)
        self.leaders = tuple(state.leaders)
        n = state.n_played
        sizes = [13 - (n >> 2)] * 4
        for i in range(len(state.trick)):
            sizes[(state.leader + i) & 3] -= 1
        self.hand_sizes = tuple(sizes)
        self.scores = scores
        self.bags = bags

    @property
    def trick_number(self) -> int:
        return self.n_played >> 2

    @property
    def unseen(self) -> int:
        """Cards neither played nor in the viewer's hand."""
        return FULL_DECK & ~self.played & ~self.hand

    def to_state(self, hands: list[int]) -> RoundState:
        """A full :class:`RoundState` at this point with the given (e.g. sampled) hands."""
        s = RoundState.__new__(RoundState)
        s.rules = self.rules
        s.hands = hands
        s.dealer = self.dealer
        s.bids = self.bids
        s.blind = self.blind
        s.leader = self.leader
        s.to_play = self.seat
        s.trick = list(self.trick)
        s.win_card = self.win_card
        s.win_seat = self.win_seat
        s.spades_broken = self.spades_broken
        s.tricks = list(self.tricks)
        s.played = self.played
        s.voids = list(self.voids)
        s.n_played = self.n_played
        s.plays = list(self.plays)
        s.leaders = list(self.leaders)
        s.known = ((0,) * 4,) * 4
        return s
