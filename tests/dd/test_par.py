"""Par from DDS checked against an independent brute force over the bidding game."""

from functools import cache

import numpy as np
import pytest

from bidlab.bridge.auction import Contract
from bidlab.bridge.board import Board, Vulnerability
from bidlab.bridge.calls import Strain
from bidlab.bridge.scoring import contract_score, score_contract
from bidlab.cards import Deal, Seat
from bidlab.dd import board_par, par, shipped_store
from bidlab.dd.solver import SolverError


def brute_force_par(table: np.ndarray, vul: Vulnerability, dealer: int) -> int:
    """North-South's score when both sides bid perfectly knowing the DD table.

    A game over contracts 1C..7NT in bidding order: seats call in turn from the dealer; a
    call is pass or any higher contract for the caller's side (played by that side's
    better declarer in the strain); four passes at the start or three after a bid end it.
    The final contract is doubled exactly when it fails (the defenders' best choice).
    NS maximise the score, EW minimise it. Uses only bidlab.bridge.scoring.
    """
    best = [[max(int(table[side, s]), int(table[side + 2, s])) for s in range(5)] for side in (0, 1)]

    def final(k: int, side: int) -> int:
        level, strain = k // 5 + 1, k % 5
        tricks = best[side][strain]
        doubled = 1 if tricks < level + 6 else 0
        s = contract_score(level, Strain(strain), doubled, vul.is_vulnerable(side, side=True), tricks)
        return s if side == 0 else -s

    @cache
    def value(k: int, holder: int, seat: int, passes: int) -> int:
        side = seat % 2
        if k < 0 and passes == 4:
            return 0
        if k >= 0 and passes == 3:
            return final(k, holder)
        options = [value(k, holder, (seat + 1) % 4, passes + 1)]
        options += [value(k2, side, (seat + 1) % 4, 0) for k2 in range(k + 1, 35)]
        return max(options) if side == 0 else min(options)

    return value(-1, -1, dealer, 0)


def test_par_matches_brute_force_on_stored_tables():
    _, dd, _ = shipped_store().load("test")
    rng = np.random.default_rng(9)
    for row in rng.choice(len(dd), 60, replace=False):
        for vul in Vulnerability:
            dealer = int(rng.integers(4))
            p = par(dd[row], vul, dealer)
            assert p.score == brute_force_par(dd[row], vul, dealer), (row, vul, dealer)


def test_par_contracts_score_the_par_score():
    _, dd, _ = shipped_store().load("validation")
    for row in range(40):
        for vul in Vulnerability:
            p = par(dd[row], vul, Seat.N)
            assert p.contracts or p.score == 0
            for c in p.contracts:
                tricks = int(dd[row, c.declarer, c.strain])
                assert score_contract(c, tricks, vul) == p.score
                assert c.doubled == (1 if tricks < c.level + 6 else 0)


def test_hand_built_tables():
    grand = np.zeros((4, 5), np.uint8)
    grand[[0, 2]] = 13
    p = par(grand, Vulnerability.NONE)
    assert p.score == 1520
    assert set(p.contracts) == {Contract(7, Strain.NOTRUMP, 0, Seat.N), Contract(7, Strain.NOTRUMP, 0, Seat.S)}
    ew_hearts = np.full((4, 5), 6, np.uint8)
    ew_hearts[:, 2] = [0, 13, 0, 12]
    p = par(ew_hearts, "ew", "S")
    # EW's vulnerable 7H (2210) is worth NS's non-vulnerable 7-level sacrifice, 7 down doubled (-1700)
    assert p.score == -1700 == brute_force_par(ew_hearts, Vulnerability.EW, 2)
    assert p.contracts and all(c.level == 7 and c.doubled == 1 and c.declarer.side == 0 for c in p.contracts)
    p = par(ew_hearts, "none", "S")  # not vulnerable 7H is 1510, cheaper than the sacrifice
    assert p.score == -1510 == brute_force_par(ew_hearts, Vulnerability.NONE, 2)
    assert set(p.contracts) == {Contract(7, Strain.HEARTS, 0, Seat.E)}


def test_dealer_decides_who_gets_a_contract_both_sides_make():
    """Each side makes exactly 1NT and nothing else: the dealer's side bids it first."""
    t = np.full((4, 5), 6, np.uint8)
    t[:, 4] = 7
    for dealer in Seat:
        p = par(t, Vulnerability.NONE, dealer)
        assert p.score == brute_force_par(t, Vulnerability.NONE, int(dealer))
        assert p.score == (90 if dealer.side == 0 else -90)


def test_passed_out_board_has_no_par_contract():
    t = np.full((4, 5), 6, np.uint8)  # nobody makes anything
    for vul in Vulnerability:
        p = par(t, vul, Seat.W)
        assert p.score == 0 == brute_force_par(t, vul, 3)
        assert p.contracts == ()
        assert "passed out" in str(p)


def test_board_par_uses_board_dealer_and_vulnerability():
    _, dd, _ = shipped_store().load("test")
    board = Board.numbered(6, Deal.random(1))  # dealer E, EW vulnerable
    assert board_par(board, dd[0]) == par(dd[0], Vulnerability.EW, Seat.E)


def test_bad_tables():
    with pytest.raises(SolverError, match="shape"):
        par(np.zeros((5, 4), np.uint8))
    with pytest.raises(SolverError, match="0..13"):
        par(np.full((4, 5), 14, np.uint8))
