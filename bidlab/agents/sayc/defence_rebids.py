"""The defenders' second turn (SAYC booklet, "Defensive bidding").

After our overcall or takeout double of their opening: the overcaller's rebids after a
cue-bid raise or a new suit, the answer to partner's responsive double, the Michaels bidder
naming his minor, and the takeout doubler's second turn (round five of issue 27): answering
advancer's forcing cue bid, raising the answer by support points (with or without their bid
in between), showing a long suit of his own. Split out of
:mod:`~bidlab.agents.sayc.competitive` (issue 27); the rules stay in that module's
``opener_competitive`` group, the group of our later turns in a contested auction.
"""

from __future__ import annotations

from bidlab.agents.sayc.advances import NO_FIT_CUE_HCP
from bidlab.agents.sayc.competitive import OC
from bidlab.agents.sayc.context import LV, MAJORS, NAMES, NT, ST, SUIT_NAMES, Ctx, bid
from bidlab.agents.sayc.engine import rule
from bidlab.agents.sayc.evaluation import FORCED_ANSWER_LOSERS, ltc_raise_level
from bidlab.agents.sayc.overcalls import (
    _their_last_suit,
)
from bidlab.bridge.calls import PASS


def _my_cue_bid_advance(c: Ctx):
    """(partner's overcall, my cue bid) when my only bid advanced partner's suit overcall
    with a cue bid of their suit and partner has just answered it; else None."""
    if c.opener not in (1, 3) or c.last_bidder != 2:
        return None
    mine = list(c.my_actions)
    pb = list(c.partner_actions)
    if len(mine) != 1 or len(pb) != 2 or mine[0].id < 3 or pb[0].id < 3:
        return None
    o, q = ST[pb[0].id], ST[mine[0].id]
    if o == NT or q == NT or q not in c.their_suits or q == o or ST[c.opening.id] == o:
        return None
    return pb[0], mine[0]


@rule(OC)
def advancer_after_no_fit_cue_bid(c: Ctx):
    """I advanced partner's overcall with a cue bid of their suit and no fit (13+ HCP,
    advance_suit_overcall); partner described: place the game. Notrump from partner is
    raised to 3NT or passed; his minimum rebid of his suit is converted to 3NT with their
    suit stopped, to game in his major on a doubleton with 15+, else passed (issue 27,
    round fourteen). With a fit (the cue-bid raise) a 3NT answer is taken back to his major."""
    got = _my_cue_bid_advance(c)
    if got is None:
        return None
    over, cue = got
    s, t = ST[over.id], ST[cue.id]
    ans = c.partner_calls[-1]
    if ans.id < 3:
        return None
    f = c.f
    L = f.lengths[s]
    if L >= 3:
        if ST[ans.id] == NT and s in MAJORS:
            g = bid(4, s) if LV[ans.id] >= 3 or f.support_points(s) >= 13 else c.cheapest(s)
            if c.legal(g):
                return g, f"{L} {SUIT_NAMES[s]}: back to partner's major after my cue-bid raise"
        return None
    if f.hcp < NO_FIT_CUE_HCP:
        return None
    if ST[ans.id] == NT:
        if LV[ans.id] <= 2 and c.legal(bid(3, NT)):
            return bid(3, NT), "game values and partner's stopper: 3NT over his notrump answer to my cue bid"
        return PASS, "partner's 3NT answer to my cue bid: game reached"
    if ST[ans.id] == s:
        if LV[ans.id] >= (4 if s in MAJORS else 5):
            return PASS, "partner bid game in his suit over my cue bid"
        if f.stoppers[t] and c.legal(bid(3, NT)):
            return bid(3, NT), (f"{f.hcp} HCP, {SUIT_NAMES[t]} stopped: 3NT opposite partner's minimum "
                                "rebid of his suit (no fit)")
        if s in MAJORS and L == 2 and f.hcp >= 15 and c.legal(bid(4, s)):
            return bid(4, s), f"{f.hcp} HCP and two {SUIT_NAMES[s]}: game on the 5-2 fit"
        return PASS, f"no fit, no {SUIT_NAMES[t]} stopper: partner's minimum rebid of his suit is our contract"
    return None


@rule(OC)
def overcaller_answers_cue_bid(c: Ctx):
    """Partner cue-bid their suit over my suit overcall (a limit raise or better, or a good
    hand without a fit): with extra values, a balanced five-card suit and their suit
    stopped bid 3NT (SAYC: the overcaller describes); else answer_cue_bid_raise rebids the
    suit (the minimum rebid) or bids game in his major. (A minimum 2NT answer was tried in
    round fourteen of issue 27: it lost the fit after the cue-bid raise of a minor.)"""
    if c.opener not in (1, 3) or c.last_bidder != 2:
        return None
    mine = list(c.my_actions)
    pb = list(c.partner_actions)
    if len(mine) != 1 or len(pb) != 1 or mine[0].id < 3 or ST[mine[0].id] == NT:
        return None
    s, t = ST[mine[0].id], ST[pb[0].id]
    if t == NT or t not in c.their_suits or t == s or LV[pb[0].id] > 3:
        return None
    f = c.f
    if not f.stoppers[t] or f.lengths[s] >= 6:
        return None
    if f.total_points >= 13 and f.balanced and c.legal(bid(3, NT)):
        return bid(3, NT), f"extra values, {SUIT_NAMES[t]} stopped: 3NT over partner's cue bid"
    return None


@rule(OC)
def answer_cue_bid_raise(c: Ctx):
    """Partner cue-bid their suit after my opening or overcall: limit raise or better."""
    if not c.partner_calls or c.last_bidder != 2 or not c.my_calls:
        return None
    pb = c.partner_calls[-1]
    if pb.id < 3 or ST[pb.id] == NT or ST[pb.id] not in c.their_suits or LV[pb.id] > 3:
        return None
    if sum(1 for x in c.partner_calls if x.id >= 3) != 1 or sum(1 for x in c.my_calls if x.id >= 3) != 1:
        return None  # only partner's first bid, a cue bid right after my one bid
    mine = next((x for x in c.my_calls if x.id >= 3), None)
    if mine is None or ST[mine.id] == NT:
        return None
    s = ST[mine.id]
    extra = c.f.total_points >= (14 if c.opener == 0 else 13)
    if s in MAJORS:
        return (bid(4, s) if extra else c.cheapest(s)), ("accepts" if extra else "minimum:") + " the cue-bid raise"
    if extra and c.f.stoppers[ST[pb.id]] and c.legal(bid(3, NT)):
        return bid(3, NT), "accepts the cue-bid raise in notrump"
    return c.cheapest(s), "minimum: returns to the suit"


@rule(OC)
def overcaller_after_forcing_major(c: Ctx):
    """My notrump overcall (15-18: 1NT over a one-bid, 2NT over their weak two), partner's
    first bid a major at the three level: five cards and game values, forcing
    (advance_notrump_overcall). Raise to game with three, else 3NT."""
    mine = list(c.my_actions)
    pb = list(c.partner_actions)
    if len(mine) != 1 or len(pb) != 1 or c.opener not in (1, 3) or c.last_bidder != 2:
        return None
    if not (NAMES[mine[0].id] == "2NT" and LV[c.opening.id] == 2 or NAMES[mine[0].id] == "1NT") \
            or LV[pb[0].id] != 3 or ST[pb[0].id] not in MAJORS:
        return None
    m = ST[pb[0].id]
    if c.f.lengths[m] >= 3 and c.legal(bid(4, m)):
        return bid(4, m), f"three {SUIT_NAMES[m]}: raises partner's forcing five-card {SUIT_NAMES[m]} to game"
    return bid(3, NT), f"only {c.f.lengths[m]} {SUIT_NAMES[m]}: 3NT over partner's forcing five-card major"


@rule(OC)
def overcaller_after_new_suit(c: Ctx):
    """I overcalled, partner bid a new suit (non-forcing, SAYC): with a minimum, rebid a
    six-card suit or pass; stronger hands are placed by the general rules."""
    mine = list(c.my_actions)
    pb = list(c.partner_actions)
    if len(mine) != 1 or len(pb) != 1 or c.opener not in (1, 3) or c.last_bidder != 2 or mine[0].id < 3:
        return None
    o, p = ST[mine[0].id], ST[pb[0].id]
    if o == NT or p == NT or p == o or p in c.their_suits:
        return None
    f = c.f
    if f.hcp > 13 or f.lengths[p] >= 3:
        return None
    if f.lengths[o] >= 6:
        cb = c.cheapest(o)
        if cb is not None and LV[cb.id] <= 3:
            return cb, f"minimum overcall with six {SUIT_NAMES[o]}: rebids them"
    return PASS, f"minimum overcall, short in {SUIT_NAMES[p]}: passes partner's non-forcing new suit"


@rule(OC)
def answer_responsive_double(c: Ctx):
    """I doubled for takeout, they raised, partner made a responsive double (values, no
    major he could bid): bid my best unbid suit, a minor before a four-card major, or
    notrump with their suit stopped."""
    mine = list(c.my_actions)
    if len(mine) != 1 or not mine[0].is_double or c.opener not in (1, 3):
        return None
    # their redouble (1C X 2C X XX) does not release me: the responsive double still asks me to
    # bid, and I am short in their suit (issue 27 round sixty-four: `sayc` left 2CXX in)
    if not c.partner_calls or not c.partner_calls[-1].is_double or c.doubled not in (1, 2) or c.last_bidder != 1:
        return None
    # only the double advances.responsive_double makes is responsive: partner's first action,
    # over their raise of the opening suit to the three level at most. Partner's double after
    # he has bid, or of their slam after my lead-directing double of a Blackwood answer or
    # a transfer, is for penalties: it is passed, not answered in a new suit at the six level.
    t = ST[c.opening.id]
    if c.partner_actions != (c.partner_calls[-1],) or len(c.their_suits) != 1 \
            or t == NT or ST[c.last_bid.id] != t or LV[c.last_bid.id] > 3:
        return None
    f = c.f
    unbid = [s for s in range(4) if s not in c.their_suits]
    if not unbid:
        return None
    # partner's double denies an unbid major he could have bid: prefer a minor unless mine is long
    s = max(unbid, key=lambda x: (f.lengths[x] + (0 if x in MAJORS and f.lengths[x] < 5 else 1), -x))
    t = _their_last_suit(c)
    if f.lengths[s] < 4 and t is not None and f.stoppers[t] and c.cheapest_level(NT) <= 3:
        return c.cheapest(NT), "answers the responsive double in notrump, a stopper in their suit"
    return c.cheapest(s), f"answers partner's responsive double with {SUIT_NAMES[s]}"


@rule(OC)
def michaels_bidder_names_minor(c: Ctx):
    """My Michaels cue bid of their major showed the other major and a minor; partner's
    2NT asks which minor: bid it at the three level."""
    mine = list(c.my_actions)
    if len(mine) != 1 or c.opener not in (1, 3) or c.last_bidder != 2 or NAMES[c.last_bid.id] != "2NT":
        return None
    o = c.opening
    if mine[0].id < 3 or LV[o.id] != 1 or ST[o.id] not in MAJORS or ST[mine[0].id] != ST[o.id] or LV[mine[0].id] != 2:
        return None
    m = 1 if c.f.lengths[1] > c.f.lengths[0] else 0
    return bid(3, m), f"my minor is {SUIT_NAMES[m]} (answer to partner's 2NT ask after my Michaels cue bid)"


def _my_takeout_double_answered(c: Ctx):
    """Partner's one bid, when my only call so far doubled their suit for takeout and he
    answered it with RHO passing (the doubler's second turn), else None."""
    mine = list(c.my_actions)
    if len(mine) != 1 or not mine[0].is_double or c.opener not in (1, 3) or c.last_bidder != 2 or c.doubled:
        return None
    if ST[c.opening.id] == NT:
        return None  # a double of their 1NT is for penalties
    if any(c.f.lengths[s] > 3 for s in c.their_suits):
        return None  # length in their suit: a lead-directing double of their 2C, not takeout
    pbids = list(c.partner_actions)
    if len(pbids) != 1 or pbids[0].id < 3:
        return None
    return pbids[0]


@rule(OC)
def doubler_answers_cue_bid(c: Ctx):
    """Partner answered my takeout double with a cue bid of their suit (12+, forcing; SAYC
    "Responses to takeout doubles"): never pass it. Show a four-card major up the line,
    else notrump with their suit stopped, else my longest unbid suit (the cue bid was
    passed out: 3C by the advancer, 19 HCP opposite, was the costliest auction over their
    natural 2C)."""
    pb = _my_takeout_double_answered(c)
    if pb is None or ST[pb.id] == NT or ST[pb.id] not in c.their_suits:
        return None
    f = c.f
    unbid = [s for s in range(4) if s not in c.their_suits]
    majors = [s for s in MAJORS if s in unbid and f.lengths[s] >= 4]
    if majors:
        s = max(majors, key=lambda x: (f.lengths[x], -x))  # 4-4: hearts first (up the line)
        cb = c.cheapest(s)
        if cb is not None and LV[cb.id] <= 4:
            return cb, f"{f.lengths[s]} {SUIT_NAMES[s]}: answers partner's forcing cue bid (takeout double)"
    if all(f.stoppers[s] for s in c.their_suits):
        cb = c.cheapest(NT)
        if cb is not None and LV[cb.id] <= 3:
            return cb, "no four-card major, their suit stopped: notrump over partner's forcing cue bid"
    if unbid:
        s = max(unbid, key=lambda x: (f.lengths[x], x))
        cb = c.cheapest(s)
        if cb is not None and LV[cb.id] <= (5 if s < 2 else 4):
            return cb, f"answers partner's forcing cue bid with my longest suit, {SUIT_NAMES[s]}"
    return None


NO_LEVEL_CAP = 7  # a raise the losing-trick count does not limit (the points scale alone decides)


# The takeout doubler with a six-card suit (a double that passed over the overcall because
# it also holds the other major) shows it over their next bid from this many HCP, not only
# with the 17+ of "double, then bid": sold out, their partscore made where our suit played
# (issue 27, round thirty-two: +0.004 / +0.003 vs nn:rl@80000 on train / validation)
DOUBLER_SIX_CARD_HCP = 14


def _no_room_to_jump(c: Ctx, pb) -> bool:
    """Partner's cheapest answer to my takeout double of their weak two is at the three
    level: the booklet's 9-11 jump answer had no room below game (advance_takeout_double
    answers 9-11 with a four-card suit at the cheapest level there), so the answer holds
    0-11, not the 0-8 of a one- or two-level answer."""
    return LV[c.opening.id] == 2 and ST[c.opening.id] < NT and LV[pb.id] == 3 \
        and NAMES[c.opening.id] != "2C" and c.partner.min_hcp < 9


def doubler_raise_target(sp: int, answer_level: int, jump_answer: bool) -> int:
    """The level the takeout doubler raises partner's suit answer to, 0 for no raise: the
    standard scale with the booklet's answers (opposite the 0-8 cheapest answer 16-18
    support points one level, 19-21 two levels, 22+ game; opposite the 9-11 jump answer
    13+ game). The one home of the scale, with or without their bid in between; 22+ is
    returned uncapped, so the caller caps it at game."""
    if jump_answer:
        return 4 if sp >= 13 else 0
    if sp < 16:
        return 0
    return answer_level + (1 if sp <= 18 else 2 if sp <= 21 else NO_LEVEL_CAP)  # callers cap at game


@rule(OC)
def doubler_raises_answer(c: Ctx):
    """Partner answered my takeout double in a suit and RHO passed: with four trumps the
    doubler raises by its support points (the standard scale with the booklet's answers:
    opposite the 0-8 cheapest answer 16-18 raise one level, 19-21 jump, 22+ game; opposite
    the 9-11 jump answer 13+ bids game in a major). Passing with 19-21 and a fit (the
    placement rules wait for 25 opposite partner's minimum) left games and slams unbid.
    The losing-trick count caps the raise of a 0-8 answer (counted as ten losers); over
    their weak two a three-level answer holds 0-11 (no room to jump), so the points
    scale alone decides there: 19+ support points bid game (round seven of issue 27).
    Opposite the jump answer 21+ support points ask for aces (30+ with the fit, as
    reach_slam's fit try): the jump to game left slams unbid."""
    pb = _my_takeout_double_answered(c)
    if pb is None:
        return None
    p = ST[pb.id]
    if p == NT or p in c.their_suits:
        return None
    f = c.f
    if f.lengths[p] < 4:
        return None
    sp = f.support_points(p)
    lv = c.cheapest_level(p)
    jump_answer = c.partner.min_hcp >= 9
    # losing-trick count: a forced answer (0-8) is counted as ten losers, so the doubler
    # raises to the two level with six losers, the three level with five, game with four
    no_room = _no_room_to_jump(c, pb)
    ltc = NO_LEVEL_CAP if no_room else ltc_raise_level(f.losing_tricks, FORCED_ANSWER_LOSERS)
    scale = ("a three-level answer to their weak two holds 0-11 (no room to jump)" if no_room
             else "losing-trick count opposite a forced answer")
    if p in MAJORS:
        if jump_answer:
            if sp >= 21 and c.legal(bid(4, NT)):
                return bid(4, NT), (f"{sp} support points opposite partner's 9-11 jump answer: 30+ with a "
                                    f"{SUIT_NAMES[p]} fit, Blackwood")
            if sp >= 13 and lv <= 4:
                return bid(4, p), f"{sp} support points opposite partner's 9-11 jump answer: game"
            return None
        raise_to = doubler_raise_target(sp, LV[pb.id], False)
        if raise_to == 0 or raise_to == lv >= 4:
            return None  # a forced three-level answer: game needs 19+ opposite it
        target = min(raise_to, 4, ltc)
        if target < lv:
            return PASS, (f"{sp} support points but {f.losing_tricks} losers: no raise of partner's forced answer "
                          f"(losing-trick count: it may be made on nothing)")
        return bid(target, p), (f"{sp} support points, four {SUIT_NAMES[p]}, {f.losing_tricks} losers: raises "
                                f"partner's answer to {target}{'' if target < 4 else ' (game)'} (16-18 one level, "
                                f"19-21 a jump, 22+ game; {scale})")
    # a minor: raise one level with 16-18, 19+ tries 3NT with their suits stopped, else jumps
    if jump_answer or sp < 16:
        return None
    if sp >= 19 and all(f.stoppers[s] for s in c.their_suits) and c.legal(bid(3, NT)):
        return bid(3, NT), f"{sp} support points and their suit stopped: 3NT opposite partner's answer"
    target = min(lv + (0 if sp <= 18 else 1), 5 if sp >= 22 else 4, ltc)
    if target < lv and ltc < lv:
        return PASS, (f"{sp} support points but {f.losing_tricks} losers: no raise of partner's forced answer "
                      f"(losing-trick count: it may be made on nothing)")
    if target < lv or target > 5 or sp <= 18 and target >= 4:
        return None  # 16-18 raises a minor only to the three level
    return bid(target, p), (f"{sp} support points, four {SUIT_NAMES[p]}, {f.losing_tricks} losers: raises "
                            f"partner's answer to {target} ({scale})")


def _my_takeout_double_answered_then_contested(c: Ctx):
    """Partner's suit answer to my takeout double when the opponents have bid over it
    (1C X P 1S 3C ?), else None: the doubler's second turn in a contested auction."""
    mine = list(c.my_actions)
    if len(mine) != 1 or not mine[0].is_double or c.opener not in (1, 3) or c.last_bidder not in (1, 3) \
            or c.doubled or ST[c.opening.id] == NT or any(c.f.lengths[s] > 3 for s in c.their_suits):
        return None
    pbids = list(c.partner_actions)
    if len(pbids) != 1 or pbids[0].id < 3 or ST[pbids[0].id] == NT or ST[pbids[0].id] in c.their_suits:
        return None
    return pbids[0]


@rule(OC)
def doubler_raises_over_competition(c: Ctx):
    """1C X P 1S 3C ?: the doubler with four cards in partner's answer raises on the same
    scale as without the competition (16-18 one level above the answer, 19-21 two, 22+
    game), when that level is still available; their bid only takes the cheaper raises
    away. Without it the doubler passed with 19-24 support points and a fit (the placement
    rules wait for 25 opposite partner's minimum), and their partscore played where our
    game made (issue 27, round thirty-two)."""
    pb = _my_takeout_double_answered_then_contested(c)
    if pb is None:
        return None
    p = ST[pb.id]
    f = c.f
    if f.lengths[p] < 4 or p not in MAJORS:
        return None
    sp = f.support_points(p)
    jump_answer = c.partner.min_hcp >= 9
    target = doubler_raise_target(sp, LV[pb.id], jump_answer)
    if not jump_answer:
        target = min(target, ltc_raise_level(f.losing_tricks, FORCED_ANSWER_LOSERS))
    target = min(target, 4)
    if target < c.cheapest_level(p):
        return None
    return bid(target, p), (f"{sp} support points, four {SUIT_NAMES[p]}: raises partner's answer to my takeout "
                            f"double to {target} over their bid (16-18 one level, 19-21 two, 22+ game)")


@rule(OC)
def doubler_rebid(c: Ctx):
    """After my takeout double: 17+ with a long suit bids it, 19+ balanced bids notrump.

    When partner answered in a suit and RHO passed, the five-card suit is shown only at
    the two level (the booklet's "double, then bid" hand, too strong to overcall): passing
    2D with 17 HCP and six spades left a slam unbid, while a three-level new suit over a
    forced answer lost (round five, dropped). Over their weak two the answer is already at
    the three level, so there a five-card major is shown at the three level, and with no
    fit for partner's suit 17+ with their suit stopped bids 3NT: the answer holds 0-11 (no
    room to jump), and passing it with 17-20 left games unbid (round seven). When they bid
    again over the double, a six-card suit competes from 14 HCP (DOUBLER_SIX_CARD_HCP;
    round thirty-two: 1D X 1S P 2S with 16 HCP and six hearts passed, and 2S played where
    our 4H made)."""
    mine = list(c.my_actions)
    if len(mine) != 1 or not mine[0].is_double or c.opener not in (1, 3):
        return None
    if c.last_bidder == 2:
        pb = _my_takeout_double_answered(c)
        if pb is None or ST[pb.id] == NT or ST[pb.id] in c.their_suits or c.f.hcp < 17:
            return None  # notrump and cue-bid answers are placed elsewhere
        for s in sorted(range(4), key=lambda x: (-c.f.lengths[x], -x)):
            if s not in c.their_suits and s != ST[pb.id] and c.f.lengths[s] >= 5:
                cb = c.cheapest(s)
                if cb is not None and LV[cb.id] <= 2:
                    return cb, f"17+ HCP with 5+ {SUIT_NAMES[s]}: shows the strong hand after doubling"
                if cb is not None and LV[cb.id] == 3 and s in MAJORS and _no_room_to_jump(c, pb):
                    return cb, (f"17+ HCP with 5+ {SUIT_NAMES[s]}: shows the strong hand after doubling their weak "
                                "two (the answer is at the three level: no room to jump)")
        f = c.f
        if _no_room_to_jump(c, pb) and f.hcp >= 17 and f.lengths[ST[pb.id]] < 4 \
                and all(f.stoppers[t] for t in c.their_suits) and c.legal(bid(3, NT)):
            return bid(3, NT), (f"{f.hcp} HCP, their suit stopped, no fit: 3NT opposite a three-level answer to "
                                "their weak two (it holds 0-11: no room to jump)")
        return None
    if c.last_bidder not in (1, 3):
        return None
    f = c.f
    # a five-card suit shows the strong hand (17+); a six-card suit competes from
    # DOUBLER_SIX_CARD_HCP once they have bid again (partner may have nothing to say)
    if f.hcp < DOUBLER_SIX_CARD_HCP:
        return None
    need = 5 if f.hcp >= 17 else 6
    for s in sorted(range(4), key=lambda x: (-f.lengths[x], -x)):
        if s not in c.their_suits and f.lengths[s] >= need:
            cb = c.cheapest(s)
            if cb is not None and LV[cb.id] <= 3:
                if need == 6:
                    return cb, (f"{f.hcp} HCP with six {SUIT_NAMES[s]}: competes in my long suit after doubling, "
                                "over their bid (a six-card suit plays opposite any two; Law of Total Tricks)")
                return cb, f"17+ HCP with 5+ {SUIT_NAMES[s]}: shows the strong hand after doubling"
    t = _their_last_suit(c)
    if f.balanced and f.hcp >= 19 and (t is None or f.stoppers[t]):
        cb = c.cheapest(NT)
        if cb is not None and LV[cb.id] <= 3:
            return cb, "19+ balanced with a stopper: notrump after doubling"
    return None
