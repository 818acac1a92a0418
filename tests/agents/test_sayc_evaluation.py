"""Judgement helpers (issue 27): textbook examples and properties checked by independent counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc.context import make_context
from bidlab.agents.sayc.defence_rebids import doubler_raise_target
from bidlab.agents.sayc.evaluation import (
    BID_ON_MAJOR_FIT,
    FORCED_ANSWER_LOSERS,
    LIGHT_RAISE_HCP,
    LIGHT_RAISE_TRUMPS,
    LONG_SUIT_COMPETE_LENGTH,
    LONG_SUIT_COMPETE_LOSERS,
    LONG_SUIT_RESPONSE_HCP,
    LONG_SUIT_RESPONSE_LENGTH,
    MISFIT_DOUBLETON_LOSERS,
    MISFIT_NEW_SUIT_LENGTH,
    MISFIT_SHORTNESS,
    PREEMPT_GAME_RAISE_FIT,
    PREEMPT_GAME_RAISE_HCP,
    SEMI_BALANCED_NT_REBID_HCP,
    THREE_LEVEL_RAISE_FIT,
    THREE_LEVEL_RAISE_HCP,
    VALUES_DOUBLE_HCP,
    declarer_points,
    doubler_second_double_hcp,
    dummy_points,
    light_major_raise,
    long_suit_competes_again,
    long_suit_response,
    losing_trick_count,
    ltc_raise_level,
    ltc_tricks,
    major_fit_bids_on,
    may_compete,
    misfit_new_suit,
    notrump_points,
    penalty_double_sound,
    preempt_game_raise,
    preempt_tricks_needed,
    preempt_undertricks,
    sacrifice_pays,
    second_five_card_suit_over_notrump,
    semi_balanced_notrump_rebid_level,
    suit_good_enough,
    suit_losers,
    suit_quality,
    three_level_raise_with_eight_card_fit,
    total_tricks_level,
)
from bidlab.agents.sayc.hand import features
from bidlab.agents.sayc.notrump import ruffing_value_after_declined_invitation
from bidlab.agents.sayc.penalty import (
    BALANCE_OF_POWER_GAME_PASSOUT_DISCOUNT,
    balance_of_power,
    balance_of_power_action,
    balance_of_power_needed,
)
from bidlab.agents.sayc.responses import MINOR_LIMIT_RAISE_HCP, _minor_limit_raise_hcp
from bidlab.agents.sayc.slam import fit_slam_try, own_suit_slam_try
from bidlab.bridge import Auction, Vulnerability
from bidlab.bridge.calls import Call
from bidlab.cards import Deal, Hand, Seat

_RANKS = "23456789TJQKA"


def suit(text: str) -> int:
    """'AK32' -> the 13-bit mask (2 = bit 0, A = bit 12)."""
    return sum(1 << _RANKS.index(ch) for ch in text)


@pytest.mark.parametrize("holding, losers", [
    ("", 0), ("A", 0), ("K", 1), ("2", 1), ("AK", 0), ("A2", 1), ("K2", 1), ("Q2", 2), ("32", 2),
    ("AKQ", 0), ("AK2", 1), ("AQ2", 1), ("KQ2", 1), ("A32", 2), ("K32", 2), ("Q32", 2), ("432", 3),
    ("AKQJ2", 0), ("QJT98", 2), ("AK5432", 1),
])
def test_suit_losers_klinger_table(holding, losers):
    # Klinger, The Modern Losing Trick Count: the top three cards only.
    assert suit_losers(suit(holding)) == losers


def test_losing_trick_count_textbook_hands():
    # A minimum opening 5-3-3-2 with two aces and a king: seven losers, Klinger's norm.
    assert features(Hand.parse("AK843.A52.Q73.84")).losing_tricks == 7
    # A limit raise: 8 losers with four trumps and a singleton.
    assert features(Hand.parse("K5.QJ92.A763.843")).losing_tricks == 8
    # Opener 7 + responder 8 losers: 24 - 15 = 9 tricks, the three level (a limit raise).
    assert ltc_tricks(8) == 9 and ltc_raise_level(8) == 3
    assert ltc_raise_level(7, 7) == 4 and ltc_raise_level(12, 12) == 0


def test_doubler_raises_a_forced_answer_by_losers():
    # the forced answer to a takeout double counts ten losers: six losers raise to the two
    # level, five to the three level, four to game; seven do not raise at all
    assert [ltc_raise_level(n, FORCED_ANSWER_LOSERS) for n in (7, 6, 5, 4)] == [1, 2, 3, 4]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_losing_tricks_agree_with_a_recount_from_the_pbn_text(seed):
    for hand in Deal.random(seed).hands:
        count = 0
        for holding in hand.to_pbn().split("."):  # PBN lists each suit high card first
            count += sum(1 for ch in "AKQ"[: min(3, len(holding))] if ch not in holding[:3])
        f = features(hand)
        assert f.losing_tricks == count == losing_trick_count(f.suit_masks)
        assert 0 <= count <= 12


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 13) - 1), st.sampled_from([12, 11, 10]))
def test_a_higher_honour_never_adds_a_loser(mask, honour):
    low = mask & -mask  # swap the lowest card for the missing honour: same length, a higher card
    if mask & (1 << honour) or mask == 0 or low > (1 << honour):  # (a singleton A is not "raised" to a K)
        return
    assert suit_losers(mask - low + (1 << honour)) <= suit_losers(mask)


@pytest.mark.parametrize("holding, quality, level, good", [
    ("AQ852", 7, 1, True),       # a sound one-level overcall
    ("AQ852", 7, 2, False),      # not good enough at the two level (needs 8)
    ("KQJ852", 9, 3, True),      # a three-level preempt in a six-card suit with three honours
    ("Q98432", 7, 3, False),
    ("KQJT98", 10, 4, True),
])
def test_suit_quality_test(holding, quality, level, good):
    assert suit_quality(suit(holding)) == quality
    assert suit_good_enough(suit(holding), level) is good


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 13) - 1))
def test_suit_quality_is_length_plus_honours(mask):
    n = mask.bit_count()
    assert n <= suit_quality(mask) <= n + min(5, n)


def test_law_of_total_tricks():
    # Cohen: eight trumps, the two level; nine, three; ten, four.
    assert [total_tricks_level(n) for n in (7, 8, 9, 10, 11)] == [1, 2, 3, 4, 5]
    assert may_compete(9, 3) and not may_compete(8, 3)


def test_rule_of_2_3_4():
    assert preempt_undertricks(True, False) == 2
    assert preempt_undertricks(False, False) == preempt_undertricks(True, True) == 3
    assert preempt_undertricks(False, True) == 4
    # A three-level preempt not vulnerable against vulnerable needs only five playing tricks.
    assert preempt_tricks_needed(3, False, True) == 5 and preempt_tricks_needed(3, True, False) == 7


def test_sacrifice_pays_by_the_score_table():
    # 4S doubled down two not vulnerable (-300) against their vulnerable 4H (+620): pays.
    assert sacrifice_pays(4, 8, False, 4, 2, 10, True)
    # Vulnerable, down three doubled (-800) against their non-vulnerable 4H (+420): it does not.
    assert not sacrifice_pays(4, 7, True, 4, 2, 10, False)
    # Their contract fails anyway: bidding on only loses.
    assert not sacrifice_pays(5, 10, False, 4, 2, 9, True)


def test_penalty_double_needs_the_setting_tricks():
    assert penalty_double_sound(4, 4) and not penalty_double_sound(3, 4)
    assert not penalty_double_sound(6, 2, into_game=True) and penalty_double_sound(7, 2, into_game=True)


def test_points_once_a_fit_is_found():
    lengths = (3, 4, 1, 5)  # C D H S
    # Dummy in spades with five trumps: singleton 3; in clubs (three trumps): singleton 2.
    assert dummy_points(10, lengths, 3) == 13 and dummy_points(10, lengths, 0) == 12
    assert dummy_points(10, lengths, 2) == 10  # one heart: no ruffing value
    # Declarer in spades: one for the fifth trump; with six, 1 + 2.
    assert declarer_points(12, lengths, 3) == 13
    assert declarer_points(12, (2, 4, 1, 6), 3) == 15



# ---- notrump points (round eight): length counts only in a suit that will run ----------------

@pytest.mark.parametrize("pbn, extra", [
    ("KQJ752.432.J32.2", 2),    # two of the top three honours
    ("QJT982.432.K32.2", 2),    # three of the top five
    ("AJ7532.432.K32.2", 0),    # one of the top three, two of the top five: broken
    ("986532.432.A32.2", 0),
    ("KQ753.5432.A32.2", 1),
    ("AKQJ.5432.A32.32", 0),    # no card beyond four
])
def test_notrump_points_count_length_only_in_a_running_suit(pbn, extra):
    f = features(Hand.parse(pbn))
    assert notrump_points(f.hcp, f.lengths, f.top3, f.top5) == f.hcp + extra
    # partner's suit (spades here) counts its length whatever its honours
    assert notrump_points(f.hcp, f.lengths, f.top3, f.top5, partner_suits=(3,)) == f.hcp + max(0, f.lengths[3] - 4)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(Seat)))
def test_notrump_points_lie_between_hcp_and_full_length_points(seed, seat):
    f = features(Deal.random(seed)[seat])
    full = f.hcp + sum(max(0, n - 4) for n in f.lengths)
    assert f.hcp <= notrump_points(f.hcp, f.lengths, f.top3, f.top5) <= full
    assert notrump_points(f.hcp, f.lengths, f.top3, f.top5, partner_suits=(0, 1, 2, 3)) == full


def test_fit_slam_try_thresholds():
    """slam.fit_slam_try: 31 opposite the minimum with 32 opposite the middle asks; exactly 30
    asks only with three aces in hand or 33 opposite the middle (issue 27 rounds eight and
    twenty-four); below 30 never, whatever the aces."""

    for aces in range(5):
        assert fit_slam_try(29, 36, aces) is None
        assert fit_slam_try(31, 32, aces) is not None
        assert fit_slam_try(30, 33, aces) is not None
    assert fit_slam_try(30, 32, 2) is None
    assert fit_slam_try(30, 31, 3) is not None
    assert "three aces" in fit_slam_try(30, 31, 3)
    assert "middle" in fit_slam_try(30, 33, 2)


def test_own_suit_slam_try_thresholds():
    """slam.own_suit_slam_try: with no fit, my own long suit as trumps asks with Blackwood from
    30 opposite partner's minimum with two aces of my own (issue 27 round twenty-eight); never
    with fewer aces or below 30."""

    for low in range(24, 38):
        for aces in range(5):
            assert (own_suit_slam_try(low, aces) is not None) == (low >= 30 and aces >= 2)
    assert "2 aces" in own_suit_slam_try(30, 2)


# ---- the balance of power over their contract (issue 27 round thirty-one) ----------------------

def test_balance_of_power_double_needs_more_strength_with_fewer_trumps():

    needs = [balance_of_power_needed(n) for n in range(14)]
    assert all(a >= b for a, b in zip(needs, needs[1:]))  # never less with fewer trumps
    assert needs[2] > needs[3] > needs[4]  # a doubleton, three trumps, four: each trump counts
    assert needs[4] == needs[13] and needs[0] == needs[2]  # four or more alike; two or fewer alike


def test_balance_of_power_adds_partners_shown_minimum():

    a = Auction.parse("1D 1S 2C 2S P P", "N")  # South (responder) to act
    weak, strong = Hand.parse("T84.KQ3.5.AKJ974"), Hand.parse("T84.KQ3.5.AKQ974")
    cw = make_context(BiddingView(a.to_act, weak, a, Vulnerability.NONE))
    cs = make_context(BiddingView(a.to_act, strong, a, Vulnerability.NONE))
    # partner's opening counts with its minimum, the same for both hands; one more HCP of mine
    # is one more between us
    assert cw.partner.min_hcp >= 11 and cw.partner.min_hcp == cs.partner.min_hcp
    assert balance_of_power(cs) == balance_of_power(cw) + 1 == features(strong).hcp + cs.partner.min_hcp


@pytest.mark.parametrize(
    "sp, answer_level, jump, reaches",
    [
        (15, 1, False, None),  # under 16: no raise of a forced answer
        (16, 1, False, 2),     # 16-18: one level above the answer (1S -> 2S)
        (18, 2, False, 3),
        (19, 1, False, 3),     # 19-21: two levels (1S -> 3S)
        (21, 2, False, 4),
        (22, 1, False, 4),     # 22+: game, however low the answer
        (12, 2, True, None),   # opposite the 9-11 jump answer: 13+ bids game
        (13, 2, True, 4),
    ],
)
def test_doubler_raise_scale(sp, answer_level, jump, reaches):

    got = doubler_raise_target(sp, answer_level, jump)
    if reaches is None:
        assert got == 0
    else:
        assert min(got, 4) == reaches  # callers cap the raise at game


def test_doubler_second_double_needs_more_at_the_three_level():

    two, three = doubler_second_double_hcp(2), doubler_second_double_hcp(3)
    assert 12 < two < three  # extras over the first double's opening values; more to push partner a level higher


def test_values_double_is_read_as_its_strength():

    hand = Hand.parse("Q62.T853.Q5.A974")
    # opener's double after my 1NT response: partner (opener) reads VALUES_DOUBLE_HCP+
    a = Auction.parse("1D 1H 1NT 2H X P", "N")
    plain = Auction.parse("1D 1H 1NT 2H P P", "N")
    c = make_context(BiddingView(a.to_act, hand, a, Vulnerability.NONE))
    c0 = make_context(BiddingView(plain.to_act, hand, plain, Vulnerability.NONE))
    assert c.partner.min_hcp >= VALUES_DOUBLE_HCP > c0.partner.min_hcp
    # the takeout doubler's second double over their three-level raise
    b = Auction.parse("1D X 2D P 3D X P", "N")
    cb = make_context(BiddingView(b.to_act, hand, b, Vulnerability.NONE))
    assert cb.partner.min_hcp >= doubler_second_double_hcp(3)


def test_long_suit_response_trades_length_for_high_cards():

    # below the booklet's 6 points: the light response needs both the length and the floor
    assert LONG_SUIT_RESPONSE_HCP < 6 and LONG_SUIT_RESPONSE_LENGTH > 5
    assert long_suit_response(LONG_SUIT_RESPONSE_HCP, LONG_SUIT_RESPONSE_LENGTH)
    assert long_suit_response(LONG_SUIT_RESPONSE_HCP, LONG_SUIT_RESPONSE_LENGTH + 1)
    assert not long_suit_response(LONG_SUIT_RESPONSE_HCP - 1, LONG_SUIT_RESPONSE_LENGTH)
    assert not long_suit_response(5, LONG_SUIT_RESPONSE_LENGTH - 1)  # five cards lost in the matches



def test_light_major_raise_needs_four_trumps():

    assert LIGHT_RAISE_HCP < 6  # below the booklet's response minimum
    assert light_major_raise(LIGHT_RAISE_HCP, LIGHT_RAISE_TRUMPS)
    assert not light_major_raise(LIGHT_RAISE_HCP - 1, LIGHT_RAISE_TRUMPS)
    assert not light_major_raise(5, 3)  # three trumps: flat in the four matches


def test_three_level_raise_with_eight_card_fit_thresholds():

    assert three_level_raise_with_eight_card_fit(THREE_LEVEL_RAISE_FIT, THREE_LEVEL_RAISE_HCP)
    assert not three_level_raise_with_eight_card_fit(THREE_LEVEL_RAISE_FIT - 1, THREE_LEVEL_RAISE_HCP + 4)
    assert not three_level_raise_with_eight_card_fit(THREE_LEVEL_RAISE_FIT + 1, THREE_LEVEL_RAISE_HCP - 1)


def test_long_suit_competes_again_thresholds():

    assert long_suit_competes_again(LONG_SUIT_COMPETE_LENGTH, LONG_SUIT_COMPETE_LOSERS)
    assert not long_suit_competes_again(LONG_SUIT_COMPETE_LENGTH - 1, LONG_SUIT_COMPETE_LOSERS - 2)
    assert not long_suit_competes_again(LONG_SUIT_COMPETE_LENGTH + 2, LONG_SUIT_COMPETE_LOSERS + 1)
    # partner's bid is worth a loser, no more
    assert long_suit_competes_again(LONG_SUIT_COMPETE_LENGTH, LONG_SUIT_COMPETE_LOSERS + 1, partner_has_bid=True)
    assert not long_suit_competes_again(LONG_SUIT_COMPETE_LENGTH, LONG_SUIT_COMPETE_LOSERS + 2, partner_has_bid=True)
    assert not long_suit_competes_again(LONG_SUIT_COMPETE_LENGTH - 1, LONG_SUIT_COMPETE_LOSERS, partner_has_bid=True)



@pytest.mark.parametrize("pbn, partner_has_bid, competes", [
    ("J.9.AKQ52.AQT742", False, True),    # six clubs, three losers (one in each singleton, one in clubs)
    ("A.K3.Q52.AKJ8642", False, True),    # seven clubs, four losers (heart, two diamonds, club)
    ("JT97.7.A.AKJT754", False, False),   # seven clubs, five losers (three spades, heart, club)
    ("JT97.7.A.AKJT754", True, True),     # the same five losers once partner has bid
    ("A.KJ3.Q52.QJ8642", True, False),    # six clubs, six losers (two each in hearts, diamonds, clubs)
    ("AK.AK3.AQ2.KQJ2", False, False),    # four losers but only four clubs: no long suit
])
def test_long_suit_competes_again_on_counted_hands(pbn, partner_has_bid, competes):

    f = features(Hand.parse(pbn))
    assert long_suit_competes_again(max(f.lengths), f.losing_tricks, partner_has_bid) is competes


def test_misfit_new_suit_thresholds():

    # a singleton or void: any hand with the five-card suit and a top honour
    assert misfit_new_suit(MISFIT_SHORTNESS, MISFIT_NEW_SUIT_LENGTH, 1, MISFIT_DOUBLETON_LOSERS + 2)
    assert not misfit_new_suit(MISFIT_SHORTNESS, MISFIT_NEW_SUIT_LENGTH - 1, 2, MISFIT_DOUBLETON_LOSERS)
    assert not misfit_new_suit(MISFIT_SHORTNESS, MISFIT_NEW_SUIT_LENGTH, 0, MISFIT_DOUBLETON_LOSERS)
    # a doubleton: only with few enough losers; three cards are a fit, never a misfit
    assert misfit_new_suit(MISFIT_SHORTNESS + 1, MISFIT_NEW_SUIT_LENGTH, 1, MISFIT_DOUBLETON_LOSERS)
    assert not misfit_new_suit(MISFIT_SHORTNESS + 1, MISFIT_NEW_SUIT_LENGTH, 1, MISFIT_DOUBLETON_LOSERS + 1)
    assert not misfit_new_suit(MISFIT_SHORTNESS + 2, MISFIT_NEW_SUIT_LENGTH + 1, 3, MISFIT_DOUBLETON_LOSERS - 3)


def test_second_five_card_suit_over_notrump():

    assert second_five_card_suit_over_notrump(MISFIT_NEW_SUIT_LENGTH, 1, MISFIT_NEW_SUIT_LENGTH)
    assert not second_five_card_suit_over_notrump(MISFIT_NEW_SUIT_LENGTH, 1, MISFIT_NEW_SUIT_LENGTH - 1)  # 5-4
    assert not second_five_card_suit_over_notrump(MISFIT_NEW_SUIT_LENGTH, 0, MISFIT_NEW_SUIT_LENGTH)


def test_balance_of_power_double_of_their_game_in_the_pass_out_seat():
    """The pass-out seat's discount applies at their four level only, not in the direct seat."""

    def ctx(calls):
        a = Auction(Seat(0))  # North deals
        for x in calls.split():
            a = a.with_call(Call.parse(x))
        return make_context(BiddingView(a.to_act, Hand.parse("Q.J7653.AK6.QT82"), a, Vulnerability.BOTH))

    passout = ctx("1H 1S 2S 3S P 4S P P")
    known, need = balance_of_power(passout), balance_of_power_needed(passout.f.lengths[3])
    assert need - BALANCE_OF_POWER_GAME_PASSOUT_DISCOUNT <= known < need
    assert balance_of_power_action(passout) is not None
    # their 4S in the direct seat (partner still to act): no discount, no double
    direct = balance_of_power_action(ctx("1H 1S 2S 4S"))
    assert direct is None or str(direct[0]) != "X"


def test_preempt_game_raise_thresholds():

    assert preempt_game_raise(PREEMPT_GAME_RAISE_HCP, PREEMPT_GAME_RAISE_FIT, 3)
    assert not preempt_game_raise(PREEMPT_GAME_RAISE_HCP - 1, PREEMPT_GAME_RAISE_FIT + 2, 3)
    # eight trumps between us: no game raise on points alone
    assert not preempt_game_raise(PREEMPT_GAME_RAISE_HCP + 4, PREEMPT_GAME_RAISE_FIT - 1, 3)
    # the weak two is a trick lighter than the three-bid: it needs a trump more
    assert not preempt_game_raise(PREEMPT_GAME_RAISE_HCP, PREEMPT_GAME_RAISE_FIT, 2)
    assert preempt_game_raise(PREEMPT_GAME_RAISE_HCP, PREEMPT_GAME_RAISE_FIT + 1, 2)


def test_major_fit_bids_on_threshold():

    assert major_fit_bids_on(BID_ON_MAJOR_FIT)
    assert not major_fit_bids_on(BID_ON_MAJOR_FIT - 1)
    # a fit the Law already takes to the four level bids on too
    assert major_fit_bids_on(next(n for n in range(8, 14) if total_tricks_level(n) == 4))


def test_semi_balanced_notrump_rebid_level():
    """2NT on the lower range, 3NT on the upper, only for near-balanced shapes."""

    (lo2, hi2), (lo3, hi3) = SEMI_BALANCED_NT_REBID_HCP[2], SEMI_BALANCED_NT_REBID_HCP[3]
    for shape in ((5, 4, 2, 2), (1, 5, 4, 3), (4, 1, 4, 4)):
        assert semi_balanced_notrump_rebid_level(lo2, shape) == 2
        assert semi_balanced_notrump_rebid_level(hi2, shape) == 2
        assert semi_balanced_notrump_rebid_level(lo3, shape) == 3
        assert semi_balanced_notrump_rebid_level(hi3, shape) == 3
        assert semi_balanced_notrump_rebid_level(lo2 - 1, shape) is None
        assert semi_balanced_notrump_rebid_level(hi3 + 1, shape) is None
    for shape in ((5, 4, 4, 0), (5, 5, 2, 1), (6, 4, 2, 1), (6, 3, 2, 2)):
        assert semi_balanced_notrump_rebid_level(lo2, shape) is None


def test_ruffing_value_after_declined_invitation():
    """A singleton or void beside the major (lengths are clubs, diamonds, hearts, spades) raises
    opener's declining 3M; a doubleton does not, and the trump suit itself is not a side suit."""

    hearts, spades = 2, 3
    assert ruffing_value_after_declined_invitation((4, 3, 5, 1), hearts)   # singleton spade
    assert ruffing_value_after_declined_invitation((6, 0, 5, 2), hearts)   # void diamond
    assert not ruffing_value_after_declined_invitation((3, 2, 5, 3), hearts)  # 5-3-3-2
    assert not ruffing_value_after_declined_invitation((4, 2, 2, 5), spades)  # 5-4-2-2
    assert ruffing_value_after_declined_invitation((4, 3, 1, 5), spades)   # singleton heart


def test_minor_limit_raise_range():
    """The limit raise of a minor and its balanced fill-in (round sixty-two) share one range,
    which sits between the 1NT response and the 2NT response."""

    lo, hi = MINOR_LIMIT_RAISE_HCP
    assert all(_minor_limit_raise_hcp(h) for h in range(lo, hi + 1))
    assert not _minor_limit_raise_hcp(lo - 1)
    assert not _minor_limit_raise_hcp(hi + 1)
