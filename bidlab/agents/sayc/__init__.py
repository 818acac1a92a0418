"""A rule-based SAYC bidder: the supervised-learning teacher and the baseline opponent.

Qiu et al. (2024) imitate WBridge5 bidding Standard American Yellow Card and measure SAYC
opening conformity (Sec. VI-F, Table V). This package is bidlab's own SAYC expert:

* :class:`SaycAgent` (registry name ``"sayc"``): deterministic, every call made by a small
  named rule (:mod:`~bidlab.agents.sayc.engine`), with :meth:`SaycAgent.explain`;
* :func:`sayc_opening_conforms`: an opening-chart check written independently of the rules;
* :func:`features`: the hand evaluation (HCP, length and shortness points, stoppers, balance).

Example::

    >>> from bidlab.agents.base import BiddingView
    >>> from bidlab.agents.sayc import SaycAgent
    >>> from bidlab.bridge import Auction, Vulnerability
    >>> from bidlab.cards import Hand, Seat
    >>> view = BiddingView(Seat.S, Hand.parse("KJ974.85.Q63.842"), Auction.parse("1NT P", "N"),
    ...                    Vulnerability.NONE)
    >>> SaycAgent().explain(view)
    '2H: 5+ spades: Jacoby transfer (SAYC), opener must bid 2S [notrump.jacoby_transfer]'
"""

from bidlab.agents.sayc.bidder import SaycAgent, SaycError, decide
from bidlab.agents.sayc.chart import SAYC_OPENING_CHART, sayc_opening_conforms
from bidlab.agents.sayc.engine import Decision
from bidlab.agents.sayc.hand import HandFeatures, features

__all__ = [
    "SAYC_OPENING_CHART", "Decision", "HandFeatures", "SaycAgent", "SaycError", "decide",
    "features", "sayc_opening_conforms",
]
