"""Duplicate scoring (Laws of Duplicate Bridge, Law 77) and the WBF IMP scale."""

from __future__ import annotations

import bisect

from bidlab.bridge.auction import Contract
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import Strain
from bidlab.errors import BidlabError

# Upper ends of each IMP band of the WBF scale: a difference of 0-10 is 0 IMPs,
# 20-40 is 1, ..., 3500-3990 is 23, 4000 and more is 24.
_IMP_UPPER = (10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890,
              1090, 1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990)


def imps(difference: float) -> int:
    """IMPs for a score difference (sign kept), by the WBF table."""
    d = abs(difference)
    n = bisect.bisect_left(_IMP_UPPER, d)
    return n if difference >= 0 else -n


def game_level(strain: Strain | int) -> int:
    """The lowest level at which an undoubled contract in ``strain`` scores game (a trick
    score of 100 or more): 3NT, four of a major, five of a minor."""
    strain = Strain(strain)
    return 3 if strain == Strain.NOTRUMP else (5 if strain.is_minor else 4)


def contract_score(level: int, strain: Strain | int, doubled: int, vulnerable: bool, tricks: int) -> int:
    """Duplicate score for the declaring side of a contract taking ``tricks`` tricks.

    ``doubled`` is 0 (undoubled), 1 (doubled) or 2 (redoubled). Positive when the
    contract makes, negative when it goes down.
    """
    if not 1 <= level <= 7:
        raise BidlabError(f"contract level must be 1..7, got {level}")
    if doubled not in (0, 1, 2):
        raise BidlabError(f"doubled must be 0, 1 or 2, got {doubled}")
    if not 0 <= tricks <= 13:
        raise BidlabError(f"tricks must be 0..13, got {tricks}")
    strain = Strain(strain)
    needed = level + 6
    mult = (1, 2, 4)[doubled]
    if tricks >= needed:
        per_trick = 20 if strain.is_minor else 30
        first_trick = 40 if strain == Strain.NOTRUMP else per_trick
        trick_score = (first_trick + per_trick * (level - 1)) * mult
        score = trick_score
        score += (500 if vulnerable else 300) if trick_score >= 100 else 50
        if level == 6:
            score += 750 if vulnerable else 500
        elif level == 7:
            score += 1500 if vulnerable else 1000
        score += 50 * doubled  # the "insult": 50 doubled, 100 redoubled
        over = tricks - needed
        if doubled:
            score += over * (200 if vulnerable else 100) * doubled
        else:
            score += over * per_trick
        return score
    under = needed - tricks
    if not doubled:
        return -under * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (under - 1)
    else:
        penalty = 100 + 200 * min(under - 1, 2) + 300 * max(under - 3, 0)
    return -penalty * doubled


def score_contract(contract: Contract | None, tricks: int, vulnerability: Vulnerability) -> int:
    """Score from North-South's point of view; a passed-out board (None) scores 0."""
    if contract is None:
        return 0
    s = contract_score(contract.level, contract.strain, contract.doubled,
                       vulnerability.is_vulnerable(contract.declarer), tricks)
    return s if contract.declarer.side == 0 else -s
