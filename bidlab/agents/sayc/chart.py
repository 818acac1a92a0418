"""SAYC opening-bid conformity, in the spirit of Qiu et al. Sec. VI-F (Table V).

Qiu et al. judge an opening by "a straightforward comparison of high card points (HCP)
and suit lengths with the SAYC guidelines". This module is that comparison against the
opening chart of the ACBL SAYC booklet (revised January 2006). It is written on purpose
without using the bidder's rules or hand-evaluation helpers, so that it can judge them:
it counts HCP and lengths from the hand itself, and each chart row is data, not code.

The chart (what an opening *may* hold; the bidder is stricter within it):

==========  =========================================================================
1C / 1D     3+ cards in the suit, 11-21 HCP; below 12 HCP only when HCP + the two
            longest suits >= 20 (the Rule of 20)
1H / 1S     5+ cards, same strength as a minor
1NT         15-17 HCP, balanced (4-3-3-3, 4-4-3-2, 5-3-3-2)
2C          strong, artificial: 22+ HCP
2D/2H/2S    weak two: 5-11 HCP, exactly 6 cards in the suit
2NT         20-21 HCP, balanced
3C..3S      preempt: 7 cards in the suit, at most 10 HCP
3NT         25-27 HCP, balanced
4C..4S      preempt: 8+ cards in the suit, at most 10 HCP
Pass        always allowed (the chart says what an opening shows, not when one is required)
==========  =========================================================================

Other openings (X and XX cannot open; 4NT and up, 5-level suits) do not conform.
"""

from __future__ import annotations

from dataclasses import dataclass

from bidlab.bridge.calls import Call
from bidlab.cards import Hand
from bidlab.errors import BidlabError

_BALANCED_SHAPES = ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2))
_HONOUR_POINTS = {12: 4, 11: 3, 10: 2, 9: 1}  # rank index -> Milton Work points


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One opening's requirements: HCP range, suit length range, balance, Rule-of-20 floor."""

    min_hcp: int
    max_hcp: int
    min_len: int = 0
    max_len: int = 13
    balanced: bool = False
    rule_of_20_below: int | None = None  # below this HCP the Rule of 20 must hold


def _rows() -> dict[str, ChartRow]:
    one_level = dict(min_hcp=11, max_hcp=21, rule_of_20_below=12)
    return {
        "1C": ChartRow(min_len=3, **one_level),
        "1D": ChartRow(min_len=3, **one_level),
        "1H": ChartRow(min_len=5, **one_level),
        "1S": ChartRow(min_len=5, **one_level),
        "1NT": ChartRow(15, 17, balanced=True),
        "2C": ChartRow(22, 40),
        "2D": ChartRow(5, 11, 6, 6),
        "2H": ChartRow(5, 11, 6, 6),
        "2S": ChartRow(5, 11, 6, 6),
        "2NT": ChartRow(20, 21, balanced=True),
        "3C": ChartRow(0, 10, 7, 7),
        "3D": ChartRow(0, 10, 7, 7),
        "3H": ChartRow(0, 10, 7, 7),
        "3S": ChartRow(0, 10, 7, 7),
        "3NT": ChartRow(25, 27, balanced=True),
        "4C": ChartRow(0, 10, 8, 13),
        "4D": ChartRow(0, 10, 8, 13),
        "4H": ChartRow(0, 10, 8, 13),
        "4S": ChartRow(0, 10, 8, 13),
    }


SAYC_OPENING_CHART: dict[str, ChartRow] = _rows()
_SUIT_OF = {"C": 0, "D": 1, "H": 2, "S": 3}


def _count(hand: Hand) -> tuple[int, list[int]]:
    hcp = 0
    lengths = [0, 0, 0, 0]
    for card in hand:
        lengths[int(card.suit)] += 1
        hcp += _HONOUR_POINTS.get(int(card.rank), 0)
    return hcp, lengths


def sayc_opening_conforms(hand: Hand, call: Call) -> bool:
    """Whether opening ``call`` with ``hand`` agrees with the SAYC opening chart (HCP and lengths).

    Pass always conforms; double and redouble never do (they cannot open).
    """
    if not isinstance(hand, Hand):
        raise BidlabError(f"sayc_opening_conforms needs a Hand, got {type(hand).__name__}")
    if len(hand) != 13:
        raise BidlabError(f"an opening hand has 13 cards, this one has {len(hand)}: {hand}")
    call = Call.parse(call) if isinstance(call, str) else call
    if call.is_pass:
        return True
    if not call.is_bid:
        return False
    row = SAYC_OPENING_CHART.get(str(call))
    if row is None:
        return False
    hcp, lengths = _count(hand)
    if not row.min_hcp <= hcp <= row.max_hcp:
        return False
    if row.balanced and tuple(sorted(lengths, reverse=True)) not in _BALANCED_SHAPES:
        return False
    suit_letter = str(call)[1:]
    if suit_letter in _SUIT_OF:
        n = lengths[_SUIT_OF[suit_letter]]
        if not row.min_len <= n <= row.max_len:
            return False
    if row.rule_of_20_below is not None and hcp < row.rule_of_20_below:
        two_longest = sum(sorted(lengths, reverse=True)[:2])
        if hcp + two_longest < 20:
            return False
    return True
