"""Duplicate scoring and IMPs: hand-checked components and two independent oracles."""

import numpy as np
import pytest
from endplay.types import Contract as EpContract
from endplay.types import Denom, Penalty, Player, Vul

from bidlab.bridge import PASS, Auction, Contract, Strain, Vulnerability, contract_score, imps, score_contract
from bidlab.cards import Deal, Seat
from bidlab.errors import BidlabError

from .openspiel_oracle import bidlab_card, dealt_state

C, D, H, S, NT = Strain


# Each case is worked out from Law 77's table in the comment beside it.
@pytest.mark.parametrize(
    "level, strain, doubled, vul, tricks, expected",
    [
        (1, C, 0, False, 7, 70),       # 20 trick score + 50 part-score bonus
        (1, NT, 0, False, 7, 90),      # 40 + 50
        (2, NT, 0, False, 8, 120),     # 40+30 + 50 part score
        (3, NT, 0, False, 9, 400),     # 40+30+30 = 100 -> game 300
        (3, NT, 0, True, 9, 600),      # game vulnerable 500
        (4, H, 0, False, 10, 420),     # 120 + 300
        (4, S, 0, True, 11, 650),      # 120 + 500 + 30 overtrick
        (5, D, 0, False, 11, 400),     # 100 + 300
        (4, D, 0, False, 10, 130),     # 80 part score + 50
        (6, S, 0, False, 12, 980),     # 180 + 300 + small slam 500
        (6, NT, 0, True, 12, 1440),    # 190 + 500 + 750
        (7, NT, 0, False, 13, 1520),   # 220 + 300 + grand slam 1000
        (7, C, 0, True, 13, 2140),     # 140 + 500 + 1500
        (1, C, 1, False, 7, 140),      # 40 + 50 part score + 50 insult
        (2, H, 1, False, 8, 470),      # 120 -> game 300 + 50 insult
        (1, NT, 1, True, 8, 380),      # 80 + 50 + 50 insult + 200 doubled overtrick vul
        (1, C, 2, False, 7, 230),      # 80 + 50 + 100 insult
        (1, NT, 2, False, 7, 560),     # 160 -> game 300 + 100 insult
        (2, S, 2, True, 10, 1640),     # 240 + 500 + 100 + 2 x 400
        (7, NT, 2, True, 13, 2980),    # 880 + 500 + 1500 + 100
        (4, S, 0, False, 9, -50),      # down 1 undoubled not vul
        (4, S, 0, True, 7, -300),      # down 3 undoubled vul
        (4, S, 1, False, 9, -100),     # down 1 doubled nv
        (4, S, 1, False, 8, -300),     # 100 + 200
        (4, S, 1, False, 7, -500),     # 100 + 200 + 200
        (4, S, 1, False, 6, -800),     # + 300 from the 4th
        (7, NT, 1, False, 0, -3500),   # 100+200+200 + 10 x 300
        (4, S, 1, True, 9, -200),      # vul doubled: 200, then 300 each
        (4, S, 1, True, 7, -800),
        (4, S, 2, False, 8, -600),     # redoubled = 2 x doubled
        (4, S, 2, True, 6, -2200),     # 2 x (200+300+300+300)
        (7, NT, 2, True, 0, -7600),
    ],
)
def test_hand_checked_scores(level, strain, doubled, vul, tricks, expected):
    assert contract_score(level, strain, doubled, vul, tricks) == expected


def test_score_contract_sides_and_pass_out():
    c = Contract(4, S, 0, Seat.E)
    assert score_contract(c, 10, Vulnerability.EW) == -620
    assert score_contract(c, 10, Vulnerability.NS) == -420
    assert score_contract(None, 0, Vulnerability.BOTH) == 0


@pytest.mark.parametrize(
    "diff, expected",
    [(0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (80, 2), (90, 3), (120, 3), (130, 4), (160, 4),
     (170, 5), (210, 5), (220, 6), (260, 6), (270, 7), (310, 7), (320, 8), (360, 8), (370, 9),
     (420, 9), (430, 10), (490, 10), (500, 11), (590, 11), (600, 12), (740, 12), (750, 13),
     (890, 13), (900, 14), (1090, 14), (1100, 15), (1290, 15), (1300, 16), (1490, 16),
     (1500, 17), (1740, 17), (1750, 18), (1990, 18), (2000, 19), (2240, 19), (2250, 20),
     (2490, 20), (2500, 21), (2990, 21), (3000, 22), (3490, 22), (3500, 23), (3990, 23),
     (4000, 24), (7600, 24), (-620, -12), (-20, -1)],
)
def test_wbf_imp_table(diff, expected):
    # Bands copied by hand from the WBF IMP scale.
    assert imps(diff) == expected


_EP_DENOM = {C: Denom.clubs, D: Denom.diamonds, H: Denom.hearts, S: Denom.spades, NT: Denom.nt}


def test_scores_match_endplay_on_2000_random_cases():
    rng = np.random.default_rng(11)
    for _ in range(2000):
        level, strain = int(rng.integers(1, 8)), Strain(int(rng.integers(5)))
        doubled, tricks, declarer = int(rng.integers(3)), int(rng.integers(14)), Seat(int(rng.integers(4)))
        vul = Vulnerability(int(rng.integers(4)))
        ep = EpContract(level=level, denom=_EP_DENOM[strain], declarer=Player(declarer),
                        penalty=(Penalty.passed, Penalty.doubled, Penalty.redoubled)[doubled],
                        result=tricks - level - 6)
        ep_vul = {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns, Vulnerability.EW: Vul.ew,
                  Vulnerability.BOTH: Vul.both}[vul]
        ours = contract_score(level, strain, doubled, vul.is_vulnerable(declarer), tricks)
        assert ours == ep.score(ep_vul), (level, strain, doubled, vul, tricks)




def test_scores_match_openspiel_after_random_play():
    """Random auctions and random card play in OpenSpiel; its returns equal our score of
    the contract and the tricks declarer took (counted from OpenSpiel's own history)."""
    rng = np.random.default_rng(5)
    checked = 0
    while checked < 1000:
        deal, dealer = Deal.random(rng), int(rng.integers(4))
        dealer_vul, non_dealer_vul = bool(rng.integers(2)), bool(rng.integers(2))
        auction = Auction(Seat(dealer))
        while not auction.is_over:
            legal = auction.legal_calls()
            auction = auction.with_call(PASS if rng.random() < 0.5 else legal[rng.integers(len(legal))])
        state = dealt_state(deal, dealer, dealer_vul, non_dealer_vul)
        for c in auction.calls:
            state.apply_action(c.action_id)
        declarer_tricks = _random_play_declarer_tricks(rng, state, auction.contract)
        side_vul = {dealer % 2: dealer_vul, 1 - dealer % 2: non_dealer_vul}
        vul = Vulnerability(int(side_vul[0]) + 2 * int(side_vul[1]))
        ns_score = score_contract(auction.contract, declarer_tricks, vul)
        assert state.returns() == [ns_score, -ns_score, ns_score, -ns_score], (auction, declarer_tricks)
        checked += auction.contract is not None
    assert checked == 1000


def _random_play_declarer_tricks(rng, state, contract) -> int:
    """Play random legal cards; count declarer's tricks with our own trick-winner rule."""
    if contract is None:
        assert state.is_terminal()
        return 0
    tricks = 0
    trick: list[tuple[int, int]] = []
    while not state.is_terminal():
        player = state.current_player()
        os_action = int(rng.choice(state.legal_actions()))
        trick.append((player, bidlab_card(os_action)))
        state.apply_action(os_action)
        if len(trick) == 4:
            led = trick[0][1] // 13

            def strength(card, led=led):
                suit, rank = divmod(card, 13)
                if contract.strain != NT and suit == int(contract.strain):
                    return 100 + rank
                return rank if suit == led else -1

            winner = max(trick, key=lambda pc: strength(pc[1]))[0]
            tricks += winner % 2 == contract.declarer.side
            trick = []
    return tricks


def test_bad_scoring_input():
    with pytest.raises(BidlabError):
        contract_score(8, S, 0, False, 10)
    with pytest.raises(BidlabError):
        contract_score(4, S, 3, False, 10)
    with pytest.raises(BidlabError):
        contract_score(4, S, 0, False, 14)
