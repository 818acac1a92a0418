"""Cards, hands and deals: the small immutable value types everything else uses.

Conventions (../shared/DESIGN.md): seats N, E, S, W = 0..3; suits clubs, diamonds,
hearts, spades = 0..3; ranks 2..A = 0..12; card index = suit * 13 + rank.

A :class:`Hand` is a 52-bit set stored as an ``int``; a :class:`Deal` is four
disjoint hands of 13 cards. Both parse and print PBN: a hand is
``"AKQ2.J3.T98.7654"`` (spades first, suits separated by dots) and a deal is
``"N:<hand> <hand> <hand> <hand>"`` with the hands in clockwise order from the
named first seat.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from bidlab.errors import CardError, DealError


class Seat(IntEnum):
    """A seat at the table, clockwise from North."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def letter(self) -> str:
        return "NESW"[self]

    @property
    def full_name(self) -> str:
        return ("North", "East", "South", "West")[self]

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat clockwise."""
        return Seat((self + 1) % 4)

    @property
    def rho(self) -> Seat:
        """Right-hand opponent: the previous seat clockwise."""
        return Seat((self + 3) % 4)

    @property
    def side(self) -> int:
        """Partnership: 0 for North-South, 1 for East-West."""
        return self % 2

    def next(self, steps: int = 1) -> Seat:
        return Seat((self + steps) % 4)

    @classmethod
    def parse(cls, text: str | int | Seat) -> Seat:
        if isinstance(text, (int, Seat)) and not isinstance(text, bool):
            if 0 <= int(text) <= 3:
                return cls(int(text))
            raise CardError("seat must be 0..3", text=str(text))
        t = str(text).strip().upper()
        for seat in cls:
            if t in (seat.letter, seat.full_name.upper()):
                return seat
        raise CardError("not a seat (expected N, E, S or W)", text=str(text))


class Suit(IntEnum):
    """A suit, ordered by rank in bridge: clubs lowest."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        t = text.strip()
        if len(t) == 1:
            i = "CDHS".find(t.upper())
            if i < 0:
                i = "♣♦♥♠".find(t)
            if i < 0:
                i = "♧♢♡♤".find(t)
            if i >= 0:
                return cls(i)
        raise CardError("not a suit (expected C, D, H, S or ♣♦♥♠)", text=text)


#: PBN and diagrams list suits from spades down.
SUITS_HIGH_FIRST: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

_RANK_CHARS = "23456789TJQKA"


class Rank(IntEnum):
    """A rank, 2 lowest (0) to ace highest (12)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return _RANK_CHARS[self]

    @property
    def hcp(self) -> int:
        """Milton Work high-card points: A 4, K 3, Q 2, J 1."""
        return max(0, self - 8)

    @classmethod
    def parse(cls, text: str) -> Rank:
        t = text.strip().upper()
        if t == "10":
            return cls.TEN
        if len(t) == 1 and t in _RANK_CHARS:
            return cls(_RANK_CHARS.index(t))
        raise CardError("not a rank (expected 2-9, T or 10, J, Q, K, A)", text=text)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card; ``index = suit * 13 + rank``."""

    suit: Suit
    rank: Rank

    @property
    def index(self) -> int:
        return self.suit * 13 + self.rank

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise CardError("card index must be 0..51", text=str(index))
        return _CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"SA"``, ``"♠A"``, ``"AS"``, ``"A♠"``, ``"H10"``, ``"10h"``."""
        t = text.strip()
        if len(t) >= 2:
            for suit_part, rank_part in ((t[0], t[1:]), (t[-1], t[:-1])):
                try:
                    return _CARDS[Suit.parse(suit_part) * 13 + Rank.parse(rank_part)]
                except CardError:
                    continue
        raise CardError("not a card (expected suit and rank, e.g. SA, ♥10, 7C)", text=text)

    def __str__(self) -> str:
        return self.suit.letter + self.rank.char

    def __repr__(self) -> str:
        return f"Card({self})"


_CARDS: tuple[Card, ...] = tuple(Card(Suit(i // 13), Rank(i % 13)) for i in range(52))
_FULL_MASK = (1 << 52) - 1
_SUIT_MASK = (1 << 13) - 1


class Hand:
    """An immutable set of cards (usually 13), stored as a 52-bit mask."""

    __slots__ = ("_mask",)

    def __init__(self, cards: Iterable[Card | int] = ()):
        mask = 0
        for c in cards:
            i = c.index if isinstance(c, Card) else int(c)
            if not 0 <= i < 52:
                raise CardError("card index must be 0..51", text=str(i))
            mask |= 1 << i
        object.__setattr__(self, "_mask", mask)

    @classmethod
    def from_mask(cls, mask: int) -> Hand:
        if not 0 <= mask <= _FULL_MASK:
            raise CardError("hand mask must fit in 52 bits", text=str(mask))
        h = cls.__new__(cls)
        object.__setattr__(h, "_mask", int(mask))
        return h

    def __setattr__(self, name, value):  # immutability
        raise AttributeError("Hand is immutable")

    @property
    def mask(self) -> int:
        return self._mask

    def __contains__(self, card: Card | int) -> bool:
        i = card.index if isinstance(card, Card) else int(card)
        return bool(self._mask >> i & 1)

    def __iter__(self) -> Iterator[Card]:
        """Cards from the lowest index (2 of clubs) upwards."""
        m = self._mask
        while m:
            low = m & -m
            yield _CARDS[low.bit_length() - 1]
            m ^= low

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __eq__(self, other) -> bool:
        return isinstance(other, Hand) and other._mask == self._mask

    def __hash__(self) -> int:
        return hash(("Hand", self._mask))

    def __or__(self, other: Hand) -> Hand:
        return Hand.from_mask(self._mask | other._mask)

    def __and__(self, other: Hand) -> Hand:
        return Hand.from_mask(self._mask & other._mask)

    def __sub__(self, other: Hand) -> Hand:
        return Hand.from_mask(self._mask & ~other._mask)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(self)

    def suit_mask(self, suit: Suit | int) -> int:
        """The 13-bit rank mask of one suit (bit r set when rank r is held)."""
        return self._mask >> (13 * int(suit)) & _SUIT_MASK

    def suit_ranks(self, suit: Suit | int) -> tuple[Rank, ...]:
        """Ranks held in a suit, highest first."""
        m = self.suit_mask(suit)
        return tuple(Rank(r) for r in range(12, -1, -1) if m >> r & 1)

    def length(self, suit: Suit | int) -> int:
        return self.suit_mask(suit).bit_count()

    @property
    def lengths(self) -> tuple[int, int, int, int]:
        """Suit lengths in suit order (clubs, diamonds, hearts, spades)."""
        return tuple(self.length(s) for s in Suit)  # type: ignore[return-value]

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """Suit lengths longest first, e.g. (5, 3, 3, 2)."""
        return tuple(sorted(self.lengths, reverse=True))  # type: ignore[return-value]

    @property
    def hcp(self) -> int:
        """High-card points (A 4, K 3, Q 2, J 1)."""
        total = 0
        for s in range(4):
            m = self.suit_mask(s)
            total += 4 * (m >> 12 & 1) + 3 * (m >> 11 & 1) + 2 * (m >> 10 & 1) + (m >> 9 & 1)
        return total

    def suit_hcp(self, suit: Suit | int) -> int:
        m = self.suit_mask(suit)
        return 4 * (m >> 12 & 1) + 3 * (m >> 11 & 1) + 2 * (m >> 10 & 1) + (m >> 9 & 1)

    @property
    def is_balanced(self) -> bool:
        """4-3-3-3, 4-4-3-2 or 5-3-3-2."""
        return self.shape in ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2))

    def to_pbn(self) -> str:
        return ".".join("".join(r.char for r in self.suit_ranks(s)) for s in SUITS_HIGH_FIRST)

    def to_symbols(self) -> str:
        """Like ``"♠AKQ2 ♥J3 ♦T98 ♣7654"``; a void shows as ``-``."""
        parts = []
        for s in SUITS_HIGH_FIRST:
            ranks = "".join(r.char for r in self.suit_ranks(s)) or "-"
            parts.append(s.symbol + ranks)
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Parse a PBN hand ``"AKQ2.J3.T98.7654"`` (spades, hearts, diamonds, clubs).

        ``"10"`` is accepted for the ten, ``"-"`` for a void. Symbol form
        ``"♠AKQ2 ♥J3 ♦T98 ♣7654"`` (or ``"SAKQ2 HJ3 DT98 C7654"``) is accepted too.
        """
        t = text.strip()
        if t.count(".") == 3:
            holdings = dict(zip(SUITS_HIGH_FIRST, t.split(".")))
        else:
            holdings = _parse_symbol_hand(t)
        mask = 0
        for suit, holding in holdings.items():
            h = holding.strip().upper().replace("10", "T")
            if h in ("-", ""):
                continue
            for ch in h:
                if ch not in _RANK_CHARS:
                    raise CardError(f"bad rank {ch!r} in {suit.name.lower()}", text=text)
                bit = 1 << (suit * 13 + _RANK_CHARS.index(ch))
                if mask & bit:
                    raise CardError(f"card {suit.letter}{ch} repeated", text=text)
                mask |= bit
        return cls.from_mask(mask)

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Hand({self.to_pbn()!r})"


_SYMBOL_SPLIT = re.compile(r"([SHDC♠♥♦♣♤♡♢♧])", re.IGNORECASE)


def _parse_symbol_hand(text: str) -> dict[Suit, str]:
    pieces = _SYMBOL_SPLIT.split(text)
    if pieces[0].strip():
        raise CardError("hand must be PBN 'S.H.D.C' or suit symbols followed by ranks", text=text)
    out: dict[Suit, str] = {}
    for i in range(1, len(pieces), 2):
        suit = Suit.parse(pieces[i])
        if suit in out:
            raise CardError(f"suit {suit.letter} given twice", text=text)
        out[suit] = pieces[i + 1].replace(" ", "")
    if not out:
        raise CardError("hand must be PBN 'S.H.D.C' or suit symbols followed by ranks", text=text)
    return out


@dataclass(frozen=True, slots=True)
class Deal:
    """Four disjoint 13-card hands, indexed by :class:`Seat`."""

    hands: tuple[Hand, Hand, Hand, Hand]

    def __post_init__(self):
        if len(self.hands) != 4:
            raise DealError(f"a deal has 4 hands, got {len(self.hands)}")
        seen = 0
        for seat, hand in zip(Seat, self.hands):
            if len(hand) != 13:
                raise DealError(f"{seat.full_name} has {len(hand)} cards, not 13", text=hand.to_pbn())
            if seen & hand.mask:
                dup = Hand.from_mask(seen & hand.mask)
                raise DealError(f"card(s) {' '.join(map(str, dup))} held twice ({seat.full_name})")
            seen |= hand.mask

    def __getitem__(self, seat: Seat | int) -> Hand:
        return self.hands[seat]

    def holder(self, card: Card | int) -> Seat:
        i = card.index if isinstance(card, Card) else int(card)
        for seat in Seat:
            if self.hands[seat].mask >> i & 1:
                return seat
        raise DealError("card not in deal", text=str(card))  # unreachable for a valid deal

    def to_array(self) -> np.ndarray:
        """``uint8[52]``: the seat holding each card (the deal store's format)."""
        out = np.empty(52, dtype=np.uint8)
        for seat, hand in enumerate(self.hands):
            for c in hand:
                out[c.index] = seat
        return out

    @classmethod
    def from_array(cls, holders: Sequence[int] | np.ndarray) -> Deal:
        arr = np.asarray(holders)
        if arr.shape != (52,):
            raise DealError(f"a holder array has shape (52,), got {arr.shape}")
        if arr.min(initial=0) < 0 or arr.max(initial=0) > 3:
            raise DealError("holders must be seats 0..3")
        masks = [0, 0, 0, 0]
        for i, s in enumerate(arr.tolist()):
            masks[s] |= 1 << i
        return cls(tuple(Hand.from_mask(m) for m in masks))  # type: ignore[arg-type]

    @classmethod
    def random(cls, seed: int | np.random.Generator | None = None) -> Deal:
        """A uniformly random deal from an explicit seed (or generator)."""
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        return cls.from_array(rng.permutation(np.repeat(np.arange(4, dtype=np.uint8), 13)))

    def rotate(self, steps: int = 1) -> Deal:
        """The deal with every hand moved ``steps`` seats clockwise (N's hand to E for 1)."""
        return Deal(tuple(self.hands[(s - steps) % 4] for s in range(4)))  # type: ignore[arg-type]

    def to_pbn(self, first: Seat | str = Seat.N) -> str:
        f = Seat.parse(first)
        return f.letter + ":" + " ".join(self.hands[f.next(i)].to_pbn() for i in range(4))

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Parse a PBN deal ``"E:AKQ2.J3.T98.7654 ..."``.

        The first seat may be any of N, E, S, W; hands follow clockwise. One hand
        may be ``"-"`` (PBN's unknown hand) when the other three hold 39 cards:
        it gets the remaining 13.
        """
        if not isinstance(text, str):
            raise DealError(f"a deal string must be str, got {type(text).__name__}")
        t = text.strip()
        m = re.fullmatch(r"([NESWnesw])\s*:\s*(.*)", t, re.DOTALL)
        if not m:
            raise DealError("deal must start with the first seat and a colon, e.g. 'N:'", text=text)
        first = Seat.parse(m.group(1))
        parts = m.group(2).split()
        if len(parts) != 4:
            raise DealError(f"deal must have 4 hands separated by spaces, found {len(parts)}", text=text)
        hands: list[Hand | None] = [None] * 4
        unknown = []
        for i, part in enumerate(parts):
            seat = first.next(i)
            if part == "-":
                unknown.append(seat)
                continue
            try:
                hands[seat] = Hand.parse(part)
            except CardError as e:
                raise DealError(f"{seat.full_name}'s hand: {e}", text=text) from None
        if len(unknown) > 1:
            raise DealError("at most one hand may be '-'", text=text)
        if unknown:
            known = 0
            for h in hands:
                if h is not None:
                    if known & h.mask:
                        raise DealError("a card is held twice", text=text)
                    known |= h.mask
            hands[unknown[0]] = Hand.from_mask(_FULL_MASK & ~known)
        return cls(tuple(hands))  # type: ignore[arg-type]

    def __str__(self) -> str:
        return self.to_pbn()


def random_deals(n: int, seed: int | None = None) -> np.ndarray:
    """``uint8[n, 52]`` holder arrays of ``n`` uniformly random deals, vectorized."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52))
    order = np.argsort(keys, axis=1)
    base = np.repeat(np.arange(4, dtype=np.uint8), 13)
    return base[order]
