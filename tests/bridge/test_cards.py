"""Cards, hands and deals: parsing, printing, helpers and bad input."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidlab.cards import Card, Deal, Hand, Rank, Seat, Suit, random_deals
from bidlab.errors import BidlabError, CardError, DealError

SAMPLE = "N:AKQ2.J3.T98.7654 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.983"


def test_card_index_convention():
    # DESIGN.md: card index = suit * 13 + rank, clubs first, 2 low.
    assert Card.parse("C2").index == 0
    assert Card.parse("CA").index == 12
    assert Card.parse("D2").index == 13
    assert Card.parse("SA").index == 51
    assert Card.from_index(39) == Card(Suit.SPADES, Rank.TWO)


@pytest.mark.parametrize("text", ["SA", "♠A", "AS", "A♠", "sa", "s a"[0] + "a"])
def test_card_parse_forms(text):
    assert Card.parse(text) == Card(Suit.SPADES, Rank.ACE)


@pytest.mark.parametrize("text", ["H10", "♥10", "10H", "HT", "th"])
def test_card_ten_forms(text):
    assert Card.parse(text) == Card(Suit.HEARTS, Rank.TEN)


def test_hand_pbn_symbols_and_ten():
    h = Hand.parse("AKQ2.J3.T98.7654")
    assert h.to_pbn() == "AKQ2.J3.T98.7654"
    assert Hand.parse("AKQ2.J3.1098.7654") == h
    assert Hand.parse("♠AKQ2 ♥J3 ♦T98 ♣7654") == h
    assert Hand.parse("SAKQ2 HJ3 D1098 C7654") == h
    assert h.to_symbols() == "♠AKQ2 ♥J3 ♦T98 ♣7654"
    assert Hand.parse("AKQJT98765432...").to_symbols() == "♠AKQJT98765432 ♥- ♦- ♣-"


def test_hcp_and_shape():
    h = Hand.parse("AKQ2.J3.T98.7654")
    assert h.hcp == 4 + 3 + 2 + 1
    assert h.lengths == (4, 3, 2, 4)  # clubs, diamonds, hearts, spades
    assert h.shape == (4, 4, 3, 2)
    assert h.is_balanced
    assert not Hand.parse("AKQJT9876.A.A.A").is_balanced


def test_deal_parse_any_first_seat():
    d = Deal.parse(SAMPLE)
    assert d[Seat.N] == Hand.parse("AKQ2.J3.T98.7654")
    assert d[Seat.E] == Hand.parse("J987.AK2.AK2.AK2")
    east_first = d.to_pbn(Seat.E)
    assert east_first.startswith("E:J987.AK2.AK2.AK2 ")
    assert Deal.parse(east_first) == d
    assert sum(d[s].hcp for s in Seat) == 40


def test_deal_unknown_fourth_hand():
    d = Deal.parse(SAMPLE)
    parts = SAMPLE[2:].split()
    assert Deal.parse("N:" + " ".join(parts[:3] + ["-"])) == d


@given(st.integers(0, 2**32 - 1), st.sampled_from(list(Seat)))
def test_deal_pbn_round_trip(seed, first):
    d = Deal.random(seed)
    assert Deal.parse(d.to_pbn(first)) == d
    assert Deal.from_array(d.to_array()) == d


@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_rotate_moves_hands(seed, k):
    d = Deal.random(seed)
    r = d.rotate(k)
    for s in Seat:
        assert r[s.next(k)] == d[s]


def test_random_deal_is_seeded():
    assert Deal.random(7) == Deal.random(7)
    assert Deal.random(7) != Deal.random(8)
    arr = random_deals(100, seed=3)
    assert arr.shape == (100, 52)
    assert (np.stack([(arr == s).sum(1) for s in range(4)], 1) == 13).all()
    assert (random_deals(100, seed=3) == arr).all()


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("AKQ2.J3.T98.7654 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.983", "first seat"),
        ("N:AKQ2.J3.T98.7654 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT", "4 hands"),
        ("N:AKQ2.J3.T98.765X J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.983", "bad rank"),
        ("N:AKQ2.J3.T98.7654 A987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.983", "held twice"),
        ("N:AKQ2.J3.T98.76543 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.654.983", "14 cards"),
        ("N:AKQ2.J3.T98.765 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.983", "12 cards"),
        ("N:AKQ2.J3.T98.7664 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.983", "repeated"),
        ("Q:AKQ2.J3.T98.7654 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.983", "first seat"),
    ],
)
def test_bad_deals_raise_specific_errors(text, fragment):
    with pytest.raises(DealError) as e:
        Deal.parse(text)
    assert fragment in str(e.value)
    assert isinstance(e.value, BidlabError)


@pytest.mark.parametrize("text", ["", "S", "1S", "ZA", "S1", "SAA"])
def test_bad_cards(text):
    with pytest.raises(CardError):
        Card.parse(text)
