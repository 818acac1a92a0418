"""The SAYC bidder as a whole: legal calls and finished auctions, determinism, explanations,
errors. Legality is judged by bidlab's Auction and, on a sample, by OpenSpiel's bridge game."""

from __future__ import annotations

import numpy as np
import pytest

from bidlab.agents.base import Agent, BiddingView, RandomAgent
from bidlab.agents.sayc import SaycAgent, SaycError, decide
from bidlab.agents.sayc import context as sayc_context
from bidlab.agents.sayc import hand as sayc_hand
from bidlab.bridge import Auction, Call, Vulnerability
from bidlab.bridge.board import board_dealer, board_vulnerability
from bidlab.cards import Deal, Hand, Seat, random_deals

MAX_CALLS = 319  # the longest possible auction: 3 passes, then 35 x (bid P P X P P XX P P), 3 passes


def _bid_board(agent, deal: Deal, dealer: Seat, vul: Vulnerability) -> Auction:
    auction = Auction(dealer)
    for _ in range(MAX_CALLS + 1):
        if auction.is_over:
            return auction
        seat = auction.to_act
        view = BiddingView(seat, deal[seat], auction, vul)
        call = agent.act(view)
        assert auction.is_legal(call), f"illegal {call} by {seat.letter} after {auction}"
        auction = auction.with_call(call)  # raises IllegalCallError on an illegal call
    raise AssertionError(f"auction did not end: {auction}")


def test_agent_protocol_and_name():
    agent = SaycAgent()
    assert isinstance(agent, Agent)
    assert agent.name == "sayc"


def test_10000_boards_legal_and_finished():
    agent = SaycAgent()
    arrays = random_deals(10_000, seed=7)
    lengths = []
    contracts = 0
    for i, holders in enumerate(arrays):
        number = i % 16 + 1
        auction = _bid_board(agent, Deal.from_array(holders), board_dealer(number), board_vulnerability(number))
        assert auction.is_over
        lengths.append(len(auction))
        contracts += auction.contract is not None
    # sanity: real auctions, most boards reach a contract
    assert 4 <= np.mean(lengths) <= 20
    assert contracts > 0.95 * len(arrays)


def test_calls_are_legal_in_openspiel():
    """Replay SAYC auctions in OpenSpiel's bridge: every call is legal there and the
    auction is over exactly when OpenSpiel leaves the bidding phase."""
    oracle = pytest.importorskip("tests.bridge.openspiel_oracle")
    agent = SaycAgent()
    rng = np.random.default_rng(5)
    for i in range(300):
        deal = Deal.random(rng)
        dealer = i % 4
        state = oracle.dealt_state(deal, dealer=dealer)
        auction = Auction(dealer)
        while not auction.is_over:
            seat = auction.to_act
            assert state.current_player() == int(seat)
            call = agent.act(BiddingView(seat, deal[seat], auction, Vulnerability.NONE))
            assert call.action_id in state.legal_actions(), f"{call} illegal in OpenSpiel after {auction}"
            state.apply_action(call.action_id)
            auction = auction.with_call(call)
        # OpenSpiel moves on to the play (or ends a passed-out deal) exactly now
        assert state.is_terminal() or all(a < 52 for a in state.legal_actions())


def test_legal_after_arbitrary_auctions():
    """Prefixes made by a random bidder (doubles, redoubles, jumps to 7NT): SAYC still
    answers with a legal call, and its fallback keeps every auction finite."""
    sayc = SaycAgent()
    rng = np.random.default_rng(11)
    for i in range(1500):
        deal = Deal.random(rng)
        random_agent = RandomAgent(seed=i)
        auction = Auction(Seat(i % 4))
        cut = int(rng.integers(0, 12))
        while not auction.is_over:
            seat = auction.to_act
            view = BiddingView(seat, deal[seat], auction, Vulnerability(i % 4))
            call = random_agent.act(view) if len(auction) < cut else sayc.act(view)
            assert auction.is_legal(call)
            auction = auction.with_call(call)
        assert len(auction) <= MAX_CALLS


def test_deterministic_and_independent_of_caches():
    arrays = random_deals(200, seed=3)
    first, second = [], []
    for run in (first, second):
        agent = SaycAgent()
        for i, holders in enumerate(arrays):
            a = _bid_board(agent, Deal.from_array(holders), Seat(i % 4), Vulnerability(i % 4))
            run.append(a.calls)
        # a cold start must give the same calls as warm caches
        sayc_hand._CACHE.clear()
        sayc_context._READINGS.clear()
    assert first == second


def test_same_view_same_call_in_any_order():
    """Asking about views in a scrambled order (no prefix reuse) changes nothing."""
    agent = SaycAgent()
    deal = Deal.random(8)
    views = []
    auction = Auction(Seat.N)
    while not auction.is_over:
        seat = auction.to_act
        views.append(BiddingView(seat, deal[seat], auction, Vulnerability.BOTH))
        auction = auction.with_call(agent.act(views[-1]))
    expected = [agent.act(v) for v in views]
    order = list(reversed(range(len(views))))
    assert [agent.act(views[k]) for k in order] == [expected[k] for k in order]
    assert agent.act_batch(views) == expected


def test_explain_names_the_call_the_reason_and_the_rule():
    agent = SaycAgent()
    view = BiddingView(Seat.N, Hand.parse("AKJ74.K52.Q83.J4"), Auction(Seat.N), Vulnerability.NONE)
    text = agent.explain(view)
    assert text.startswith("1S: ")
    assert "5+ spades" in text and "SAYC opening" in text and "[opening.open_one_suit]" in text
    d = decide(view)
    assert d.call == Call.parse("1S") and d.rule == "opening.open_one_suit"
    assert d.explain() == f"1S: {d.reason} (opening.open_one_suit)"


def test_every_rule_name_is_unique_and_grouped():
    from bidlab.agents.sayc.engine import GROUPS

    names = [r.name for rules in GROUPS.values() for r in rules]
    assert len(names) == len(set(names))
    assert {"opening", "response", "notrump", "rebid", "slam", "overcall", "advance",
            "competitive_response", "opener_competitive", "penalty", "placement"} <= set(GROUPS)


def test_bad_views_raise_clear_errors():
    agent = SaycAgent()
    short = Hand.parse("AKJ74.K52.Q83.J")
    with pytest.raises(SaycError, match="12 cards"):
        agent.act(BiddingView(Seat.N, short, Auction(Seat.N), Vulnerability.NONE))
    over = Auction.parse("P P P P", "N")
    hand = Hand.parse("AKJ74.K52.Q83.J4")
    with pytest.raises(SaycError, match="is over"):
        agent.act(BiddingView(Seat.N, hand, over, Vulnerability.NONE))
    with pytest.raises(SaycError, match="turn"):
        agent.act(BiddingView(Seat.E, hand, Auction(Seat.N), Vulnerability.NONE))


def test_package_docstring_example():
    import doctest

    import bidlab.agents.sayc as package

    result = doctest.testmod(package)
    assert result.attempted > 0 and result.failed == 0


def test_same_auction_from_new_call_objects_gets_the_same_call():
    """The auction reading is cached by call ids; rules must not compare its Call objects
    with the view's by identity (a Michaels advance once failed on a re-parsed auction)."""
    hand_a, hand_b = Hand.parse("K84.Q7532.A64.95"), Hand.parse("K84.AQ75.A64.952")
    for hand in (hand_a, hand_b, hand_a):
        auction = Auction.parse("1C 2C P", "E")  # fresh Call objects every time
        d = decide(BiddingView(auction.to_act, hand, auction, Vulnerability.NONE))
        assert d.rule == "advance.answer_michaels_or_unusual", d
