"""Calls and auctions, checked against OpenSpiel's bridge game and by hand."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.bridge import DOUBLE, PASS, REDOUBLE, Auction, Call, Strain
from bidlab.cards import Deal, Seat
from bidlab.errors import AuctionOverError, CallError, IllegalCallError

from .openspiel_oracle import dealt_state, decode_contract_index


def test_call_ids_follow_openspiel():
    assert PASS.id == 0 and DOUBLE.id == 1 and REDOUBLE.id == 2
    assert Call.bid(1, Strain.CLUBS).id == 3
    assert Call.bid(1, Strain.NOTRUMP).id == 7
    assert Call.bid(7, Strain.NOTRUMP).id == 37
    assert Call.parse("4S").action_id == 52 + 3 + 5 * 3 + 3


@pytest.mark.parametrize(
    "text, expected",
    [("P", "Pass"), ("Pass", "Pass"), ("pass", "Pass"), ("X", "X"), ("XX", "XX"),
     ("1NT", "1NT"), ("1N", "1NT"), ("4♠", "4S"), ("4S", "4S"), ("7nt", "7NT"), ("2♥", "2H"),
     ("3♦", "3D"), ("1♣", "1C")],
)
def test_call_parse_print(text, expected):
    assert str(Call.parse(text)) == expected
    assert Call.parse(str(Call.parse(text))) == Call.parse(text)


@pytest.mark.parametrize("text", ["", "8S", "0NT", "1Z", "XXX", "4", "S4"])
def test_bad_calls(text):
    with pytest.raises(CallError):
        Call.parse(text)


def test_auction_basics():
    a = Auction.parse("1S P 2S P P P", dealer="E")
    assert a.is_over
    c = a.contract
    assert (c.level, c.strain, c.doubled, c.declarer) == (1 + 1, Strain.SPADES, 0, Seat.E)
    assert Auction.parse("P P P P").is_passed_out
    assert Auction.parse("P P P P").contract is None
    assert not Auction.parse("1C P P").is_over
    # Declarer is the first of the side to name the strain, not the last bidder.
    a = Auction.parse("1H P 2C P 2S P 4H P P P", dealer="N")
    assert a.contract.declarer == Seat.N
    a = Auction.parse("P 1D P 1H 1S 2H P 4H X XX P P P", dealer="N")
    assert a.contract.declarer == Seat.W and a.contract.doubled == 2


@pytest.mark.parametrize(
    "calls, bad_index, fragment",
    [
        ("1S P X", 2, "your side"),            # double of partner's bid
        ("1S 1S", 1, "not higher"),            # bid not higher than the last
        ("1NT 1S", 1, "not higher"),
        ("X", 0, "no bid to double"),
        ("1S XX", 1, "only a doubled bid"),
        ("1S X XX XX", 3, "only a doubled bid"),
        ("1S X P XX", 3, "only the side"),  # West redoubles his own side's double
        ("1S X P X", 3, "already doubled"),
        ("P P P P P", 4, "over"),
        ("1C P P P 1D", 4, "over"),
    ],
)
def test_illegal_calls_say_where(calls, bad_index, fragment):
    with pytest.raises(IllegalCallError) as e:
        Auction.parse(calls)
    assert e.value.call_index == bad_index
    assert f"call {bad_index + 1}" in str(e.value)
    assert fragment in str(e.value)


def test_auction_over_error_type():
    with pytest.raises(AuctionOverError):
        Auction.parse("P P P P").with_call(PASS)


def _random_auction_vs_openspiel(rng, deal, dealer):
    """Random legal auction; legal sets compared with OpenSpiel's at every step."""
    state = dealt_state(deal, dealer=dealer)
    auction = Auction(Seat(dealer))
    while not auction.is_over:
        ours = [c.id + 52 for c in auction.legal_calls()]
        theirs = state.legal_actions()
        assert ours == theirs, (auction, ours, theirs)
        assert state.current_player() == auction.to_act
        # Bias towards passes so that auctions are of realistic length and end.
        if rng.random() < 0.45:
            call = PASS
        else:
            legal = auction.legal_calls()
            call = legal[rng.integers(len(legal))]
        auction = auction.with_call(call)
        state.apply_action(call.action_id)
    assert state.current_phase() != 1  # no longer bidding
    expected = decode_contract_index(state.contract_index())
    c = auction.contract
    got = None if c is None else (c.level, int(c.strain), c.doubled, int(c.declarer))
    assert got == expected, (auction, got, expected)
    return auction


def test_auctions_match_openspiel_on_10000_random_auctions():
    rng = np.random.default_rng(2026)
    kinds = {"passed out": 0, "doubled": 0, "redoubled": 0, "long": 0}
    for _ in range(10_000):
        a = _random_auction_vs_openspiel(rng, Deal.random(rng), int(rng.integers(4)))
        kinds["passed out"] += a.is_passed_out
        kinds["doubled"] += a.contract is not None and a.contract.doubled == 1
        kinds["redoubled"] += a.contract is not None and a.contract.doubled == 2
        kinds["long"] += len(a) >= 20
    # The sample must exercise every ending, not just pass-outs.
    assert min(kinds.values()) >= 50, kinds


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 3), st.lists(st.integers(0, 10**6), min_size=1, max_size=400))
def test_random_legal_auctions_end_and_declarer_is_on_declaring_side(dealer, choices):
    a = Auction(Seat(dealer))
    it = iter(choices)
    while not a.is_over:
        legal = a.legal_calls()
        nxt = next(it, None)
        # Once the drawn choices run out, pass: the auction must then end within 4 calls.
        a = a.with_call(PASS if nxt is None else legal[nxt % len(legal)])
        if nxt is None:
            for _ in range(3):
                if not a.is_over:
                    a = a.with_call(PASS)
            break
    assert a.is_over
    assert len(a) <= 319  # the longest possible auction
    if a.contract is not None:
        last = a.last_bidder
        assert a.contract.declarer.side == last.side
        strain_bids = [a.seat_of(i) for i, c in enumerate(a.calls)
                       if c.is_bid and c.strain == a.contract.strain and a.seat_of(i).side == last.side]
        assert a.contract.declarer == strain_bids[0]
