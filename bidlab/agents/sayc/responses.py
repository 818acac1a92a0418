"""Responses to partner's uncontested opening (SAYC booklet, "Responses").

One of a major: Jacoby 2NT (13+ with 4+ trumps, game forcing), limit raise to three
(10-12 dummy points, 3+ trumps), single raise (6-10), preemptive raise to four (5+ trumps,
weak, shapely), 1S over 1H (4+ spades, 6+), 1NT (6-10, forcing one round is not SAYC:
non-forcing), new suit at the two level (10+ HCP; 2H over 1S shows five), jump shifts (19+).
One of a minor: four-card majors up the line at the one level, 1D over 1C, single raise
(6-10, 4+ in diamonds, 5+ in clubs), limit raise (10-12; no inverted minors in SAYC),
1NT (6-10), 2NT (13-15 balanced, forcing), 3NT (16-17). Over a major, 3NT is 15-17
balanced with exactly two trumps. Strong 2C: 2D waiting, positive suit responses with 8+ HCP and a
good five-card suit, 2NT with 8+ balanced. Weak twos and preempts: raises are to play,
2NT asks for a feature, new suits are forcing.
"""

from __future__ import annotations

from bidlab.agents.sayc.context import LV, MAJORS, NAMES, NT, ST, SUIT_NAMES, Ctx, bid
from bidlab.agents.sayc.engine import rule
from bidlab.agents.sayc.evaluation import (
    light_major_raise,
    long_suit_response,
    preempt_game_raise,
)
from bidlab.bridge.calls import PASS

G = "response"


def _opening_suit(c: Ctx) -> int:
    return ST[c.opening.id]


def _is_one_suit_opening(c: Ctx) -> bool:
    return LV[c.opening.id] == 1 and ST[c.opening.id] < NT


def _preemptive_raise_hand(c: Ctx) -> bool:
    """A weak hand with five of opener's major and shortness: the preemptive raise to game."""
    s = _opening_suit(c)
    return s in MAJORS and c.f.lengths[s] >= 5 and c.f.shortest() <= 1 and c.f.hcp >= 3


@rule(G)
def light_single_raise(c: Ctx):
    """Below 6 HCP a trump fit still raises partner's major to two: four trumps from 3 HCP
    (``evaluation.light_major_raise``). The fit takes the two level from the
    opponents and is the partscore partner's game try needs; passing sold out or missed the
    game (issue 27, round thirty-nine, calibrated on train DD deals)."""
    if not _is_one_suit_opening(c) or c.f.hcp >= 6 or _preemptive_raise_hand(c):
        return None
    s = _opening_suit(c)
    if s in MAJORS and light_major_raise(c.f.hcp, c.f.lengths[s]):
        return bid(2, s), (f"{c.f.hcp} HCP, {c.f.lengths[s]} {SUIT_NAMES[s]}: light single raise, the trump "
                           "fit makes up for high cards (judgement)")
    return None


@rule(G)
def light_response_long_suit(c: Ctx):
    """Below 6 HCP a six-card suit still responds at the one level: its length makes up for
    the missing high cards (``evaluation.long_suit_response``: from 4 HCP). Passing sold out
    to opener's one-bid where we had a fit or a game (issue 27, round thirty-nine, calibrated
    on train DD deals)."""
    if not _is_one_suit_opening(c) or c.f.hcp >= 6 or _preemptive_raise_hand(c):
        return None
    o = _opening_suit(c)
    best = None
    for s in (3, 2, 1, 0):  # the longest suit, ties to the higher-ranking
        if s == o or c.cheapest_level(s) != 1:
            continue
        if long_suit_response(c.f.hcp, c.f.lengths[s]) and (
                best is None or c.f.lengths[s] > c.f.lengths[best]):
            best = s
    if best is None:
        return None
    n = c.f.lengths[best]
    return bid(1, best), (f"{c.f.hcp} HCP, {n} {SUIT_NAMES[best]}: a six-card suit makes up for high "
                          "cards (judgement), light new suit at the one level")


@rule(G)
def too_weak_to_respond(c: Ctx):
    if _is_one_suit_opening(c) and c.f.hcp < 6:
        if _preemptive_raise_hand(c):
            return None  # the preemptive raise to game comes below
        return PASS, f"{c.f.hcp} HCP: fewer than 6 points, pass partner's one-bid"


@rule(G)
def jacoby_2nt(c: Ctx):
    if not _is_one_suit_opening(c) or c.passed_hand:
        return None
    s = _opening_suit(c)
    if s in MAJORS and c.f.lengths[s] >= 4 and c.f.hcp >= 13:
        return bid(2, NT), f"13+ points, 4+ {SUIT_NAMES[s]}: game-forcing raise (SAYC Jacoby 2NT)"


@rule(G)
def preemptive_major_raise(c: Ctx):
    if not _is_one_suit_opening(c):
        return None
    s = _opening_suit(c)
    if s in MAJORS and c.f.lengths[s] >= 5 and c.f.hcp < 10 and c.f.shortest() <= 1:
        return bid(4, s), f"5+ {SUIT_NAMES[s]}, under 10 HCP, shortness: preemptive raise to game (SAYC)"


@rule(G)
def limit_raise_major(c: Ctx):
    if not _is_one_suit_opening(c):
        return None
    s = _opening_suit(c)
    if s in MAJORS and c.f.lengths[s] >= 3 and 10 <= c.f.support_points(s) and c.f.hcp <= 12:
        return bid(3, s), f"10-12 dummy points, 3+ {SUIT_NAMES[s]} (SAYC limit raise)"


@rule(G)
def passed_hand_max_raise(c: Ctx):
    if not _is_one_suit_opening(c) or not c.passed_hand:
        return None
    s = _opening_suit(c)
    if s in MAJORS and c.f.lengths[s] >= 3 and c.f.support_points(s) >= 13:
        return bid(4, s), f"passed hand with a maximum and 3+ {SUIT_NAMES[s]}: raise to game"


@rule(G)
def jump_shift(c: Ctx):
    if not _is_one_suit_opening(c) or c.passed_hand or c.f.hcp < 19:
        return None
    s = c.f.longest
    o = _opening_suit(c)
    if s == o or c.f.lengths[s] < 5:
        return None
    lv = c.cheapest_level(s) + 1
    return bid(lv, s), f"19+ HCP, 5+ {SUIT_NAMES[s]}: strong jump shift (SAYC)"


@rule(G)
def one_spade_over_one_heart(c: Ctx):
    if NAMES[c.opening.id] != "1H" or c.f.lengths[3] < 4:
        return None
    if c.f.lengths[2] >= 3 and c.f.support_points(2) <= 10:
        return None  # the single raise describes this hand better
    if c.f.lengths[2] >= 3 and c.f.support_points(2) >= 13 and c.f.lengths[3] < 5:
        return None
    return bid(1, 3), "6+ points, 4+ spades (SAYC new suit at the one level, forcing)"


@rule(G)
def single_raise_major(c: Ctx):
    if not _is_one_suit_opening(c):
        return None
    s = _opening_suit(c)
    if s in MAJORS and c.f.lengths[s] >= 3 and 6 <= c.f.support_points(s) <= 10:
        return bid(2, s), f"6-10 dummy points, 3+ {SUIT_NAMES[s]} (SAYC single raise)"


@rule(G)
def major_at_one_level_over_minor(c: Ctx):
    if not _is_one_suit_opening(c) or _opening_suit(c) >= 2:
        return None
    L = c.f.lengths
    if max(L[2], L[3]) < 4:
        return None
    o = _opening_suit(c)
    # with a long minor and game values, show the minor first (only over 1C: 1D)
    if o == 0 and L[1] >= 5 and L[1] > max(L[2], L[3]) and c.f.hcp >= 11:
        return None
    if L[2] >= 4 and L[3] >= 4:
        s = 3 if L[3] >= 5 and L[3] > L[2] else (3 if L[3] == L[2] == 5 else 2)
    else:
        s = 2 if L[2] >= 4 else 3
    return bid(1, s), f"6+ points, 4+ {SUIT_NAMES[s]} (SAYC: bid four-card majors up the line)"


@rule(G)
def one_diamond_over_one_club(c: Ctx):
    if NAMES[c.opening.id] == "1C" and c.f.lengths[1] >= 4 and not (c.f.lengths[0] >= 5 and c.f.lengths[0] > c.f.lengths[1] and c.f.hcp <= 10):
        return bid(1, 1), "6+ points, 4+ diamonds (SAYC new suit at the one level)"


MINOR_LIMIT_RAISE_HCP = (11, 12)
# a balanced hand reaches the limit raise with four cards of either minor (round sixty-two)
BALANCED_LIMIT_RAISE_LENGTH = 4
# responder's game values opposite an opening bid
GAME_VALUES_HCP = 13


def _minor_limit_raise_hcp(hcp: int) -> bool:
    """The HCP range of SAYC's limit raise of a minor."""
    lo, hi = MINOR_LIMIT_RAISE_HCP
    return lo <= hcp <= hi


@rule(G)
def limit_raise_minor(c: Ctx):
    if not _is_one_suit_opening(c) or _opening_suit(c) >= 2:
        return None
    s = _opening_suit(c)
    if c.f.lengths[s] >= (5 if s == 0 else 4) and _minor_limit_raise_hcp(c.f.hcp) and not c.f.balanced:
        return bid(3, s), f"11-12 points, 4+ {SUIT_NAMES[s]} (SAYC limit raise of a minor)"


@rule(G)
def two_nt_over_minor(c: Ctx):
    if _is_one_suit_opening(c) and _opening_suit(c) < 2 and c.f.balanced and 13 <= c.f.hcp <= 15 and not c.passed_hand:
        return bid(2, NT), "13-15 HCP, balanced, no four-card major (SAYC 2NT response, forcing)"


@rule(G)
def three_nt_response(c: Ctx):
    """1m-3NT 16-17 balanced; 1M-3NT 15-17 balanced with exactly two of the major."""
    if not _is_one_suit_opening(c) or not c.f.balanced or c.passed_hand:
        return None
    o = _opening_suit(c)
    if o in MAJORS:
        other = 5 - o
        if 15 <= c.f.hcp <= 17 and c.f.lengths[o] == 2 and c.f.lengths[other] < 4:
            return bid(3, NT), f"15-17 HCP, balanced, two {SUIT_NAMES[o]} (SAYC 3NT response)"
        return None
    if 16 <= c.f.hcp <= 17:
        return bid(3, NT), "16-17 HCP, balanced (SAYC 3NT response)"


@rule(G)
def two_over_one(c: Ctx):
    if not _is_one_suit_opening(c) or c.f.hcp < 10:
        return None
    o = _opening_suit(c)
    L = c.f.lengths
    cand = [s for s in (1, 0, 2) if s < o and L[s] >= (5 if s == 2 else 4)]
    if not cand:
        return None
    s = max(cand, key=lambda x: (L[x], x))
    if o in MAJORS and L[o] >= 3 and c.f.hcp < 13:
        return None  # a limit raise described this hand; here 3-card support and 13+ only
    return bid(2, s), f"10+ HCP, {'5' if s == 2 else '4'}+ {SUIT_NAMES[s]} (SAYC two-over-one, forcing)"


@rule(G)
def single_raise_minor(c: Ctx):
    if not _is_one_suit_opening(c) or _opening_suit(c) >= 2:
        return None
    s = _opening_suit(c)
    if c.f.lengths[s] >= (5 if s == 0 else 4) and 6 <= c.f.hcp <= 10:
        return bid(2, s), f"6-10 points, {'5' if s == 0 else '4'}+ {SUIT_NAMES[s]}, no major (SAYC single raise)"


@rule(G)
def game_force_new_suit(c: Ctx):
    # 13+ without a convenient bid: the cheapest new suit of four or more cards
    if not _is_one_suit_opening(c) or c.f.hcp < 13:
        return None
    o = _opening_suit(c)
    L = c.f.lengths
    for s in sorted(range(4), key=lambda x: (-L[x], -x)):
        if s != o and L[s] >= 4:
            lv = c.cheapest_level(s)
            if lv <= 2 and not (lv == 2 and s == 2 and L[2] < 5 and o == 3):
                return bid(lv, s), f"13+ HCP, 4+ {SUIT_NAMES[s]}: new suit, forcing"
    s = 1 if L[1] >= L[0] else 0
    if s != o:
        return bid(c.cheapest_level(s), s), f"13+ HCP: forcing new suit in {SUIT_NAMES[s]}"


@rule(G)
def one_notrump_response(c: Ctx):
    if _is_one_suit_opening(c) and 6 <= c.f.hcp <= 10:
        return bid(1, NT), "6-10 HCP, no fit and no suit to show at the one level (SAYC 1NT response)"


@rule(G)
def balanced_limit_raise_minor(c: Ctx):
    """11-12 HCP, balanced, no four-card major over one of a minor: too strong for 1NT (6-10),
    too weak for 2NT (13-15), and no lower suit for a two-over-one, so no booklet call
    answered and responder passed with half the deck. The hand then holds four or more of
    opener's minor (over 1C no four diamonds, over 1D no four clubs), so the limit raise says
    it: opener passes 3m with a minimum and bids 3NT or game with extras (issue 27, round
    sixty-two, calibrated on train DD deals: 3m beat 1NT, 2m and 2NT)."""
    if not _is_one_suit_opening(c) or not _minor_limit_raise_hcp(c.f.hcp):
        return None
    s = _opening_suit(c)
    if s >= 2 or not c.f.balanced or c.f.lengths[s] < BALANCED_LIMIT_RAISE_LENGTH:
        return None
    return bid(3, s), (f"{c.f.hcp} HCP, balanced, {c.f.lengths[s]} {SUIT_NAMES[s]}, no four-card major: "
                       "limit raise of partner's minor rather than pass (judgement: too strong for 1NT, "
                       "too weak for 2NT)")


@rule(G)
def game_values_in_partners_minor(c: Ctx):
    """13+ HCP whose only long suit is opener's minor and which no forcing call fitted (no
    four-card side suit, not balanced 13-17): responder must not pass with game values.
    3NT, the minor game most often made, ends the auction at the level the values promise
    (issue 27, round sixty-two, calibrated on train DD deals: 3m, read as a limit raise, was
    passed short of game)."""
    if not _is_one_suit_opening(c) or c.f.hcp < GAME_VALUES_HCP or _opening_suit(c) >= 2:
        return None
    return bid(3, NT), (f"{c.f.hcp} HCP, no side suit to force with: game values opposite the opening, "
                        "3NT rather than pass (judgement)")


@rule(G)
def pass_one_suit_opening(c: Ctx):
    if _is_one_suit_opening(c):
        return PASS, "no SAYC response fits"


# -- strong 2C ------------------------------------------------------------------------------

@rule(G)
def two_club_positive_suit(c: Ctx):
    if NAMES[c.opening.id] != "2C" or c.f.hcp < 8:
        return None
    L = c.f.lengths
    for s in (3, 2, 1, 0):
        if L[s] >= 5 and c.f.top3[s] >= 2:
            lv = 2 if s >= 2 else 3
            return bid(lv, s), f"8+ HCP, good 5+ {SUIT_NAMES[s]} (SAYC positive response to 2C)"


@rule(G)
def two_club_positive_notrump(c: Ctx):
    if NAMES[c.opening.id] == "2C" and c.f.hcp >= 8 and c.f.balanced:
        return bid(2, NT), "8+ HCP, balanced (SAYC positive 2NT response to 2C)"


@rule(G)
def two_club_waiting(c: Ctx):
    if NAMES[c.opening.id] == "2C":
        return bid(2, 1), "artificial waiting response (SAYC 2D over 2C)"


# -- weak twos and preempts -------------------------------------------------------------------

def _is_preempt(c: Ctx) -> bool:
    o = c.opening
    return ST[o.id] < NT and (LV[o.id] >= 3 or (LV[o.id] == 2 and ST[o.id] != 0))


@rule(G)
def raise_preempt_to_game(c: Ctx):
    if not _is_preempt(c):
        return None
    s = _opening_suit(c)
    if s not in MAJORS or LV[c.opening.id] >= 4:
        return None
    L = c.f.lengths[s]
    strong = c.f.hcp >= 14 and c.f.quick_tricks >= 3 or LV[c.opening.id] == 3 and c.f.hcp >= 13 and c.f.quick_tricks >= 2
    if (L >= 3 and strong) or (L >= 4 and c.f.hcp <= 10 and c.f.shortest() <= 1):
        return bid(4, s), f"{'game values' if c.f.hcp >= 14 else 'weak, 4+ trumps: preemptive'} raise of partner's {SUIT_NAMES[s]}"
    if preempt_game_raise(c.f.hcp, c.fit(s), LV[c.opening.id]):
        return bid(4, s), (f"{c.f.hcp} HCP, {L} {SUIT_NAMES[s]}: three or four tricks opposite the preempt's five "
                           f"to seven (rule of 2-3-4) in a {c.fit(s)}-card fit: raise to game "
                           f"(judgement, preempt_game_raise)")


@rule(G)
def feature_ask_2nt(c: Ctx):
    if not _is_preempt(c) or LV[c.opening.id] != 2:
        return None
    if c.f.hcp >= 15:
        return bid(2, NT), "15+ HCP: asks the weak two for a feature (SAYC 2NT, forcing)"


@rule(G)
def three_nt_over_preempt(c: Ctx):
    if not _is_preempt(c) or LV[c.opening.id] >= 4:
        return None
    f = c.f
    s = _opening_suit(c)
    if f.hcp >= 16 and all(f.stoppers[x] for x in range(4) if x != s):
        return bid(3, NT), "16+ HCP with stoppers in the other suits: to play"


@rule(G)
def raise_weak_two_to_three(c: Ctx):
    if not _is_preempt(c) or LV[c.opening.id] != 2:
        return None
    s = _opening_suit(c)
    if c.f.lengths[s] >= 3 and c.f.hcp <= 13:
        return bid(3, s), f"3+ {SUIT_NAMES[s]}: preemptive raise, to play (SAYC weak-two raise)"


@rule(G)
def new_suit_over_weak_two(c: Ctx):
    if not _is_preempt(c) or LV[c.opening.id] != 2 or c.f.hcp < 14:
        return None
    for s in (3, 2, 1, 0):
        if s != _opening_suit(c) and c.f.lengths[s] >= 5 and c.f.top3[s] >= 2:
            return c.cheapest(s), f"14+ HCP, good 5+ {SUIT_NAMES[s]}: forcing one round (SAYC)"


@rule(G)
def pass_preempt(c: Ctx):
    if _is_preempt(c):
        return PASS, "no game in sight opposite a preempt"
