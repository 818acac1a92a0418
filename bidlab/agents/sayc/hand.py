"""Hand evaluation for the SAYC bidder: everything a rule asks about a hand, computed once.

The ACBL SAYC booklet counts high-card points (A 4, K 3, Q 2, J 1), adds length points
when opening (one per card beyond four in a suit) and shortness points when raising
partner ("dummy points": void 5, singleton 3, doubleton 1 with four trumps; 3/2/1 with
three). :class:`HandFeatures` holds these numbers so that no rule recounts them;
:func:`features` caches them by the hand's 52-bit mask, because the same hand is
looked at on every turn of an auction (and on both tables of a duplicate board).

The per-suit judgements (stoppers, quick tricks, losers, suit quality, dummy points) and
the judgement rules on top of them (Law of Total Tricks, vulnerability) live in one place,
:mod:`~bidlab.agents.sayc.evaluation`; this module only tabulates them per hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from bidlab.agents.sayc.evaluation import dummy_points, is_stopper, quick_tricks, suit_losers, suit_quality
from bidlab.cards import Hand

__all__ = ["HandFeatures", "features", "is_stopper", "quick_tricks"]

_SUIT_BITS = (1 << 13) - 1
_ACE, _KING, _QUEEN, _JACK, _TEN = 1 << 12, 1 << 11, 1 << 10, 1 << 9, 1 << 8


def _suit_hcp(m: int) -> int:
    return 4 * bool(m & _ACE) + 3 * bool(m & _KING) + 2 * bool(m & _QUEEN) + bool(m & _JACK)


# Per 13-bit suit holding: HCP and the number of the top five honours (A K Q J T) held.
_HCP_TABLE = tuple(_suit_hcp(m) for m in range(1 << 13))
_TOP5_TABLE = tuple((m >> 8).bit_count() for m in range(1 << 13))
_TOP3_TABLE = tuple((m >> 10).bit_count() for m in range(1 << 13))


@dataclass(frozen=True, slots=True)
class HandFeatures:
    """The numbers SAYC rules ask about one 13-card hand. Suits are indexed C, D, H, S = 0..3."""

    mask: int
    suit_masks: tuple[int, int, int, int]
    lengths: tuple[int, int, int, int]
    suit_hcp: tuple[int, int, int, int]
    hcp: int
    shape: tuple[int, int, int, int]
    balanced: bool
    length_points: int
    stoppers: tuple[bool, bool, bool, bool]
    top5: tuple[int, int, int, int]
    top3: tuple[int, int, int, int]
    aces: int
    kings: int
    quick_tricks: float
    losers: tuple[int, int, int, int]

    @property
    def losing_tricks(self) -> int:
        """Klinger's losing-trick count of the hand (see :mod:`~bidlab.agents.sayc.evaluation`)."""
        return self.losers[0] + self.losers[1] + self.losers[2] + self.losers[3]

    def suit_quality(self, suit: int) -> int:
        """Klinger's suit quality: length plus the top five honours held in ``suit``."""
        return suit_quality(self.suit_masks[suit])

    @property
    def total_points(self) -> int:
        """Opening-bid valuation: HCP plus one point per card beyond four in each suit."""
        return self.hcp + self.length_points

    @property
    def longest(self) -> int:
        """The longest suit; the higher-ranking of equally long suits."""
        best = 3
        for s in (2, 1, 0):
            if self.lengths[s] > self.lengths[best]:
                best = s
        return best

    def support_points(self, trump: int) -> int:
        """HCP plus shortness ("dummy points") for raising partner's ``trump`` suit."""
        return dummy_points(self.hcp, self.lengths, trump)

    def rule_of_20(self) -> bool:
        """SAYC's guide for borderline first- and second-seat openings: HCP + two longest >= 20."""
        return self.hcp + self.shape[0] + self.shape[1] >= 20

    def good_suit(self, suit: int) -> bool:
        """Two of the top three honours, or three of the top five (a preempt's standard)."""
        return self.top3[suit] >= 2 or self.top5[suit] >= 3

    def shortest(self) -> int:
        return self.shape[3]


_BALANCED = frozenset({(4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)})
_CACHE: dict[int, HandFeatures] = {}
_CACHE_LIMIT = 50_000


# Per 13-bit suit holding, everything features() needs, so a hand costs four lookups.
_SUIT_INFO = tuple(
    (m.bit_count(), _HCP_TABLE[m], _TOP5_TABLE[m], _TOP3_TABLE[m], is_stopper(m), quick_tricks(m),
     1 if m & _ACE else 0, 1 if m & _KING else 0, suit_losers(m))
    for m in range(1 << 13)
)


def features(hand: Hand | int) -> HandFeatures:
    """The :class:`HandFeatures` of a hand (or 52-bit mask), computed once and cached."""
    mask = hand if isinstance(hand, int) else hand.mask
    f = _CACHE.get(mask)
    if f is not None:
        return f
    sm = (mask & _SUIT_BITS, (mask >> 13) & _SUIT_BITS, (mask >> 26) & _SUIT_BITS, (mask >> 39) & _SUIT_BITS)
    c, d, h, s = _SUIT_INFO[sm[0]], _SUIT_INFO[sm[1]], _SUIT_INFO[sm[2]], _SUIT_INFO[sm[3]]
    lengths = (c[0], d[0], h[0], s[0])
    shape = tuple(sorted(lengths, reverse=True))
    f = HandFeatures(
        mask=mask,
        suit_masks=sm,
        lengths=lengths,
        suit_hcp=(c[1], d[1], h[1], s[1]),
        hcp=c[1] + d[1] + h[1] + s[1],
        shape=shape,  # type: ignore[arg-type]
        balanced=shape in _BALANCED,
        length_points=max(0, c[0] - 4) + max(0, d[0] - 4) + max(0, h[0] - 4) + max(0, s[0] - 4),
        stoppers=(c[4], d[4], h[4], s[4]),
        top5=(c[2], d[2], h[2], s[2]),
        top3=(c[3], d[3], h[3], s[3]),
        aces=c[6] + d[6] + h[6] + s[6],
        kings=c[7] + d[7] + h[7] + s[7],
        quick_tricks=c[5] + d[5] + h[5] + s[5],
        losers=(c[8], d[8], h[8], s[8]),
    )
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[mask] = f
    return f
