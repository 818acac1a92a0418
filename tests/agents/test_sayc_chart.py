"""The SAYC opening chart check, and the bidder's openings judged by it (Qiu Sec. VI-F)."""

from __future__ import annotations

import numpy as np
import pytest

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc import SaycAgent, sayc_opening_conforms
from bidlab.bridge import Auction, Call, Vulnerability
from bidlab.cards import Deal, Hand, Seat
from bidlab.errors import BidlabError


@pytest.mark.parametrize(
    "hand, call, ok",
    [
        ("AKJ74.K52.Q83.J4", "1S", True),      # 14 HCP, five spades
        ("AKJ7.K52.Q83.J42", "1S", False),     # only four spades
        ("AKJ7.K52.Q83.J42", "1C", True),      # three clubs
        ("AKJ7.K532.Q83.J4", "1C", False),     # two clubs
        ("AQ984.KJ973.J5.4", "1S", True),      # 11 HCP, Rule of 20
        ("KJ4.Q84.A753.J62", "1D", False),     # 11 HCP, fails the Rule of 20
        ("KJ4.Q84.A753.J62", "Pass", True),
        ("AKQ4.AKQ.AKQ2.K2", "1C", False),     # 27 HCP is not a one-bid
        ("KQ4.AJ6.K973.A52", "1NT", True),
        ("KQ4.AJ6.K973.A5", "1NT", True),      # a 12-card hand is rejected below
        ("KQ4.AJ6.K9732.A5", "1NT", True),     # 5-3-3-2 balanced, 16
        ("KQ42.AJ62.K973.A", "1NT", False),    # singleton
        ("AK5.KQ4.AJ72.KJ4", "2NT", True),
        ("AK5.KQ4.AJ72.KJ4", "1NT", False),
        ("AKQJ74.AK5.AQ2.4", "2C", True),
        ("AKQJ74.AK5.Q32.4", "2C", False),     # 21 HCP
        ("KQJ974.83.742.95", "2S", True),
        ("KQJ9742.83.74.95", "2S", False),     # seven spades: a three-level preempt
        ("KQJ974.83.742.95", "2C", False),
        ("5.KQJ9763.84.932", "3H", True),
        ("5.KQJ976.843.932", "3H", False),
        ("KQJ98743.5.T84.6", "4S", True),
        ("AKQ.KQ5.AKJ5.KQ4", "3NT", True),
        ("AKQ.KQ5.AKJ5.KQ4", "X", False),
        ("AKJ74.K52.Q83.J4", "4NT", False),
        ("KQJ98743.5.T84.6", "5S", False),
    ],
)
def test_chart_rows(hand, call, ok):
    h = Hand.parse(hand)
    if len(h) != 13:
        with pytest.raises(BidlabError, match="13 cards"):
            sayc_opening_conforms(h, Call.parse(call))
        return
    assert sayc_opening_conforms(h, Call.parse(call)) is ok


def test_chart_rejects_non_hands():
    with pytest.raises(BidlabError, match="needs a Hand"):
        sayc_opening_conforms("AKJ74.K52.Q83.J4", Call.parse("1S"))  # type: ignore[arg-type]


def _openings(n_deals: int, seed: int):
    """Every SAYC opening (first non-pass call, by any seat) on ``n_deals`` random deals."""
    agent = SaycAgent()
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n_deals):
        deal = Deal.random(rng)
        dealer = Seat(i % 4)
        vul = Vulnerability(i // 4 % 4)
        auction = Auction(dealer)
        while not auction.is_over:
            seat = auction.to_act
            call = agent.act(BiddingView(seat, deal[seat], auction, vul))
            if call.is_bid or not call.is_pass:
                out.append((deal[seat], call))
                break
            auction = auction.with_call(call)
    return out


def _check_openings(n_deals: int, seed: int) -> None:
    openings = _openings(n_deals, seed)
    bad = [(h.to_pbn(), str(c)) for h, c in openings if not sayc_opening_conforms(h, c)]
    assert not bad, f"{len(bad)} of {len(openings)} openings break the SAYC chart, e.g. {bad[:5]}"
    # the bidder opens a real share of deals and uses most of the chart
    assert len(openings) > 0.85 * n_deals
    kinds = {str(c) for _, c in openings}
    assert {"1C", "1D", "1H", "1S", "1NT", "2H", "2S", "2NT", "2C"} <= kinds


def test_openings_conform_on_5000_deals():
    _check_openings(5000, seed=11)


@pytest.mark.slow
def test_openings_conform_on_100000_deals():
    _check_openings(100_000, seed=2024)
