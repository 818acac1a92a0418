"""Scoring of every case in the rules (Cohensius et al. 2020, Sec. 2; Pagat's variants)."""

from __future__ import annotations

import pytest

from bidlab.spades.errors import RulesError
from bidlab.spades.rules import FirstLead, Rules, game_winner, score_round, score_side

R = Rules()
COUNT = Rules(failed_nil_tricks_count=True)
NB = (False, False)


def test_made_contract_scores_ten_per_bid():
    s = score_side(R, (4, 2), NB, (4, 2), 0)
    assert (s.points, s.bags, s.made, s.contract, s.tricks) == (60, 0, True, 6, 6)


def test_tricks_are_pooled_between_partners():
    assert score_side(R, (4, 2), NB, (1, 5), 0).points == 60


def test_overtricks_are_bags_worth_one_point():
    # Sec. 2: bid 4 + 2, take 9 -> 63 points and 3 bags.
    s = score_side(R, (4, 2), NB, (5, 4), 0)
    assert (s.points, s.bags) == (63, 3)


def test_set_contract_loses_ten_per_bid_and_no_bags():
    s = score_side(R, (4, 2), NB, (3, 2), 7)
    assert (s.points, s.bags, s.made) == (-60, 7, False)


def test_bags_roll_over_ten_with_penalty():
    # Sec. 2's example: 288 points with 8 bags, then 63 -> 3 more bags cross the limit:
    # -100 and 10 bags removed. 288 + 63 - 100 = 251 (the paper prints 241, an arithmetic slip:
    # in the usual "last digit = bags" bookkeeping 251 ends in the 1 remaining bag).
    s = score_side(R, (4, 2), NB, (5, 4), 8)
    assert (s.points, s.bags, s.bag_penalties) == (63 - 100, 1, 1)
    assert 288 + s.points == 251


def test_exactly_ten_bags_costs_the_penalty_and_leaves_zero():
    s = score_side(R, (3, 3), NB, (4, 3), 9)
    assert (s.points, s.bags, s.bag_penalties) == (61 - 100, 0, 1)


def test_two_bag_penalties_in_one_round():
    # Double nil whose failed tricks count as bags: 13 overtricks on top of 9 bags = 22.
    s = score_side(COUNT, (0, 0), NB, (6, 7), 9)
    assert (s.bags, s.bag_penalties) == (2, 2)
    assert s.points == -100 - 100 + 13 - 200


def test_bag_variants():
    no_bags = Rules(bag_limit=0)
    s = score_side(no_bags, (1, 1), NB, (6, 7), 9)
    assert (s.points, s.bags, s.bag_penalties) == (20 + 11, 20, 0)
    five = Rules(bag_limit=5, bag_penalty=50)
    s = score_side(five, (1, 1), NB, (2, 2), 3)
    assert (s.points, s.bags) == (22 - 50, 0)


def test_nil_made_with_partner_making_bid():
    s = score_side(R, (0, 4), NB, (0, 5), 0)
    assert (s.points, s.bags, s.nils_made, s.contract) == (100 + 41, 1, 1, 4)


def test_nil_made_partner_set():
    s = score_side(R, (0, 4), NB, (0, 3), 0)
    assert s.points == 100 - 40


def test_failed_nil_tricks_do_not_help_partner_by_default():
    s = score_side(R, (0, 4), NB, (2, 3), 0)
    assert (s.points, s.made, s.tricks, s.nils_failed) == (-100 - 40, False, 3, 1)


def test_failed_nil_tricks_count_toward_partner_when_enabled():
    s = score_side(COUNT, (0, 4), NB, (2, 3), 0)
    assert (s.points, s.made, s.tricks, s.bags) == (-100 + 41, True, 5, 1)


def test_failed_nil_tricks_are_not_bags_by_default():
    s = score_side(R, (4, 0), NB, (4, 3), 0)
    assert (s.points, s.bags) == (40 - 100, 0)


def test_double_nil():
    assert score_side(R, (0, 0), NB, (0, 0), 0).points == 200
    assert score_side(R, (0, 0), NB, (0, 3), 0).points == 0
    assert score_side(R, (0, 0), NB, (1, 3), 0).points == -200
    s = score_side(COUNT, (0, 0), NB, (0, 3), 0)
    assert (s.points, s.bags) == (100 - 100 + 3, 3)


def test_blind_nil_scores_double():
    s = score_side(R, (0, 5), (True, False), (0, 5), 0)
    assert s.points == 200 + 50
    s = score_side(R, (0, 5), (True, False), (1, 6), 0)
    assert s.points == -200 + 51
    custom = Rules(blind_nil_bonus=300, nil_bonus=50)
    assert score_side(custom, (0, 0), (True, False), (0, 0), 0).points == 350


def test_score_round_orders_sides_and_checks_trick_count():
    ns, ew = score_round(R, (3, 4, 2, 0), (False,) * 4, (3, 5, 5, 0), (0, 0))
    assert (ns.points, ew.points) == (53, 100 + 41)
    with pytest.raises(RulesError, match="13 tricks"):
        score_round(R, (3, 4, 2, 0), (False,) * 4, (3, 5, 5, 1), (0, 0))


def test_game_winner_goals_and_ties():
    p = Rules.paper()
    assert game_winner(p, (190, 150), 3) is None
    assert game_winner(p, (200, 150), 3) == 0
    assert game_winner(p, (150, 230), 3) == 1
    assert game_winner(p, (230, 250), 3) == 1  # both over: higher wins
    assert game_winner(p, (230, 230), 3) is None  # tie over the goal: play on
    assert game_winner(p, (-100, 50), 3) == 1  # losing goal
    assert game_winner(p, (-150, -120), 3) == 1  # both under: higher wins
    assert game_winner(p, (10, 10), p.max_rounds) == -1
    assert game_winner(p, (10, 20), p.max_rounds) == 1


def test_blind_nil_margin():
    r = Rules(blind_nil=True, blind_nil_margin=100)
    assert r.blind_nil_allowed(0, 100)
    assert not r.blind_nil_allowed(0, 99)
    assert not Rules().blind_nil_allowed(0, 1000)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"win_goal": 100, "lose_goal": 200}, "above lose_goal"),
        ({"lose_goal": 10}, "lose_goal must be negative"),
        ({"bag_limit": -1}, "bag_limit"),
        ({"blind_nil_exchange": 5}, "blind_nil_exchange"),
        ({"first_lead": "dealer"}, "first_lead"),
    ],
)
def test_bad_rules_raise_specific_errors(kwargs, match):
    with pytest.raises(RulesError, match=match):
        Rules(**kwargs)


def test_rules_round_trip_and_unknown_option():
    r = Rules(win_goal=300, first_lead=FirstLead.TWO_OF_CLUBS, blind_nil=True)
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules(first_lead="two_of_clubs").first_lead is FirstLead.TWO_OF_CLUBS
    with pytest.raises(RulesError, match="unknown rule option"):
        Rules().with_options(goal=3)
