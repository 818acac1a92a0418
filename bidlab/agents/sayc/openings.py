"""Opening bids (ACBL SAYC booklet, "General approach" and "Opening bids").

Five-card majors in all seats; the longer minor, 1D with 4-4 and 1C with 3-3; the higher
of two five- or six-card suits; 1NT 15-17 and 2NT 20-21 balanced (a five-card suit is
allowed), 3NT 25-27; strong artificial 2C (22+ HCP, or balanced 22-24 / 28+); weak twos
in D, H, S (5-11 HCP, a good six-card suit); three-level preempts with a good seven-card
suit and four-level ones with eight. Borderline one-level openings follow the Rule of 20
in every seat; fourth seat opens on the same values (no Rule of 15: issue 27 round
thirty-three measured it double dummy and against the neural bidders, and it lost).
"""

from __future__ import annotations

from bidlab.agents.sayc.context import NT, SUIT_NAMES, Ctx, bid
from bidlab.agents.sayc.engine import rule
from bidlab.agents.sayc.evaluation import suit_good_enough
from bidlab.bridge.calls import PASS

G = "opening"


def _major_before_six_card_minor(f) -> int | None:
    """6-5 with the six-card suit a minor and the five-card suit a major: open the major.

    A judgement against the booklet's "longer suit first" (issue 27 round thirty-three): with
    `sayc` at all four seats on the train deals, 1M instead of 1m on these hands gained about
    2.2 IMPs a board double dummy (757 hands, every HCP band), because after 1m the five-card
    major is often never shown or never raised; it paid against nn:rl and nn:sl as well."""
    L = f.lengths
    major = 3 if L[3] == 5 else 2 if L[2] == 5 else None
    if major is not None and max(L[0], L[1]) == 6 and f.shape[:2] == (6, 5):
        return major
    return None


def _one_level_suit(f) -> int:
    """SAYC's choice of a one-level opening suit."""
    L = f.lengths
    best_major = 3 if L[3] >= L[2] else 2
    longest = f.longest
    if L[best_major] >= 5 and L[best_major] >= L[longest]:
        return best_major
    six_five = _major_before_six_card_minor(f)
    if six_five is not None:
        return six_five
    if L[longest] >= 5:
        return longest
    # no five-card suit: the longer minor, 1D with 4-4 (or longer diamonds), 1C with 3-3
    if L[1] > L[0] or (L[1] == L[0] == 4):
        return 1
    return 0


def _opening_strength(c: Ctx) -> bool:
    """12+ HCP, or 11 with the Rule of 20, in every seat. Fourth seat used to want the Rule of
    15 as well (HCP + spades >= 15); issue 27 round thirty-three dropped it: with `sayc` at all
    four seats on the train deals, opening these fourth-seat hands instead of passing them out
    gained about 0.9 IMPs a board double dummy (900 hands), and it paid against nn:rl and nn:sl."""
    f = c.f
    return f.hcp >= 12 or (f.hcp == 11 and f.rule_of_20())


def _no_rule_of_15(c: Ctx) -> str:
    """The explanation's note for a fourth-seat opening the Rule of 15 would have passed out."""
    if c.position == 4 and c.f.hcp + c.f.lengths[3] < 15:
        return "; fourth seat: opened without the Rule of 15 (judgement: a 12-count opens in every seat)"
    return ""


@rule(G)
def too_weak_to_open(c: Ctx):
    """Under 11 HCP without a six-card suit: no opening (and no preempt) is possible."""
    if c.f.hcp < 11 and c.f.shape[0] < 6:
        return PASS, f"{c.f.hcp} HCP and no six-card suit: pass"


@rule(G)
def open_3nt(c: Ctx):
    f = c.f
    if f.balanced and 25 <= f.hcp <= 27:
        return bid(3, NT), "25-27 HCP, balanced (SAYC 3NT opening)"


@rule(G)
def open_2c(c: Ctx):
    if c.f.hcp >= 22:
        return bid(2, 0), "22+ HCP, strong and artificial (SAYC strong 2C)"


@rule(G)
def open_2nt(c: Ctx):
    f = c.f
    if f.balanced and 20 <= f.hcp <= 21:
        return bid(2, NT), "20-21 HCP, balanced (SAYC 2NT opening)"


@rule(G)
def open_1nt(c: Ctx):
    f = c.f
    if f.balanced and 15 <= f.hcp <= 17:
        return bid(1, NT), "15-17 HCP, balanced (SAYC 1NT opening)"


# The weak two's HCP range (the booklet's 5-11).
WEAK_TWO_HCP = (5, 11)


def _third_seat_weak_two(c: Ctx) -> bool:
    """Third seat, partner has passed: a six-card suit that qualifies for a weak two opens the
    weak two even with the 11 HCP that would open it at the one level by the Rule of 20 (issue
    27 round thirty-three: with `sayc` at all four seats on the train deals the weak two gained
    about 0.5 IMPs a board double dummy in third seat, and lost in first and second)."""
    f = c.f
    return c.position == 3 and f.hcp == WEAK_TWO_HCP[1] and any(
        f.lengths[s] == 6 and _preempt_ok_two(c, s) for s in (3, 2, 1))


@rule(G)
def open_one_suit(c: Ctx):
    f = c.f
    if f.hcp > 21 or not _opening_strength(c) or _third_seat_weak_two(c):
        return None
    s = _one_level_suit(f)
    need = "5+" if s >= 2 else "3+"
    six_five = "" if _major_before_six_card_minor(f) is None else (
        "; 6-5 with the six cards in a minor: the major first (judgement: the major is shown at once)")
    return bid(1, s), (f"12-21 HCP (or Rule of 20), {need} {SUIT_NAMES[s]} (SAYC opening)"
                       f"{six_five}{_no_rule_of_15(c)}")


def _preempt_suit(c: Ctx, s: int, level: int) -> bool:
    """The booklet's "good suit" for a preempt, or Klinger's Suit Quality Test (length plus
    honours at least the tricks bid: 8 for a weak two, 9 at the three level). The rule of
    2-3-4 sets the margin: vulnerable, also against not (two undertricks), the full test
    (quality at least the tricks bid: a weak two on AT9653; issue 27 round eight, it paid
    against nn:rl and nn:sl on train and validation); not vulnerable (three or four undertricks)
    one trick less of quality will do (a weak two on Q98432). Checked in double-dummy terms
    on the validation split against nn:rl and nn:sl before it was kept."""
    f = c.f
    if f.good_suit(s):
        return True
    # vulnerable (two undertricks at most) the full Suit Quality Test; not vulnerable the
    # rule of 2-3-4 allows a trick more down: one trick less of quality
    return suit_good_enough(f.suit_masks[s], level - (0 if c.we_vul else 1))


def _preempt_ok(c: Ctx, s: int, level: int) -> bool:
    f = c.f
    if c.position == 4 or f.hcp < 5 or f.hcp > 10 or not _preempt_suit(c, s, level):
        return False
    other_major = 5 - s if s >= 2 else None
    if other_major is not None and f.lengths[other_major] >= 4:
        return False
    return True


@rule(G)
def open_weak_two(c: Ctx):
    f = c.f
    lo, hi = WEAK_TWO_HCP
    for s in (3, 2, 1):
        if f.lengths[s] == 6 and lo <= f.hcp <= hi and _preempt_ok_two(c, s):
            seat = ("; third seat: the weak two, not one of the suit (judgement: partner has passed)"
                    if _third_seat_weak_two(c) else
                    "; fourth seat: 9-11 HCP, a constructive weak two (judgement: not a pass-out)"
                    if c.position == 4 else "")
            return bid(2, s), (f"5-11 HCP, good 6-card {SUIT_NAMES[s]} (SAYC weak two; suit quality "
                               f"{f.suit_quality(s)}){seat}")


# Fourth seat, after three passes, a weak two is a constructive partscore bid, not a preempt:
# it wants 9-11 HCP (issue 27 round thirty-three: with `sayc` at all four seats on the train
# deals, these weak twos gained about 1.5 IMPs a board double dummy over passing the hand out).
FOURTH_SEAT_WEAK_TWO_MIN_HCP = 9


def _preempt_ok_two(c: Ctx, s: int) -> bool:
    f = c.f
    if (c.position == 4 and f.hcp < FOURTH_SEAT_WEAK_TWO_MIN_HCP) or not _preempt_suit(c, s, 2):
        return False
    if s >= 2 and f.lengths[5 - s] >= 4:
        return False
    return f.shape[1] <= 4 and not (s == 1 and f.lengths[2] + f.lengths[3] >= 8)


@rule(G)
def open_four_level_preempt(c: Ctx):
    f = c.f
    for s in (3, 2, 1, 0):
        if f.lengths[s] >= 8 and _preempt_ok(c, s, 4):
            return bid(4, s), f"weak, 8+ {SUIT_NAMES[s]} (SAYC four-level preempt)"


@rule(G)
def open_three_level_preempt(c: Ctx):
    f = c.f
    for s in (3, 2, 1, 0):
        if f.lengths[s] == 7 and _preempt_ok(c, s, 3):
            return bid(3, s), f"weak, good 7-card {SUIT_NAMES[s]} (SAYC three-level preempt; suit quality {f.suit_quality(s)})"


@rule(G)
def open_pass(c: Ctx):
    return PASS, f"{c.f.hcp} HCP, no SAYC opening fits"

