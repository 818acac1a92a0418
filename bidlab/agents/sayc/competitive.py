"""Competitive bidding (SAYC booklet, "Competitive bidding" and "Defensive bidding").

Our first action lives in :mod:`~bidlab.agents.sayc.overcalls` and advancing partner's
action in :mod:`~bidlab.agents.sayc.advances` (imported first below, so their rules are
registered); this module keeps responder's and opener's calls after their interference
and penalty doubles. The whole area, as the booklet has it:

Our first action after their opening: 1NT overcall (15-18 balanced, a stopper; 11-14 in
the balancing seat), takeout double (opening values, short in their suit, support for the
unbid suits; or 17+ too strong to overcall), weak jump overcall (a good six-card suit,
5-10 HCP), simple overcall (a good five-card suit, 8-16 at the one level, 10-16 at the two
level), Michaels cue bid and the unusual 2NT (5-5 two-suiters), penalty double of a 1NT
opening (15+). Advancing: answering a takeout double (cheapest suit 0-8, jump 9-11, cue bid
12+, 1NT 6-10 with a stopper, penalty pass with long strong trumps), advancing an overcall
(raise 8-10, cue bid with a limit raise or better, notrump with a stopper, new suit).
Responder after an overcall: negative double through 2S, raises, notrump with a stopper,
new suits; after a takeout double: redouble 10+, Jordan 2NT (limit raise or better),
preemptive jump raise; after their overcall of our 1NT, natural bids and a Stayman-like
cue bid (the system is off). Responsive doubles after partner's takeout double and their
raise; lead-directing doubles of their artificial bids (Stayman, transfers, strong 2C).
The overcaller's rebids after a cue-bid raise or a new suit. The takeout doubler's second
turn (round five of issue 27): answering advancer's forcing cue bid, raising the answer by
support points, showing a five-card suit of his own. Penalty doubles of contracts
that are clearly failing.
"""

from __future__ import annotations

from bidlab.agents.sayc.advances import NO_FIT_CUE_HCP
from bidlab.agents.sayc.context import LV, MAJORS, NAMES, NT, ST, SUIT_NAMES, Ctx, bid
from bidlab.agents.sayc.engine import rule
from bidlab.agents.sayc.evaluation import FORCED_ANSWER_LOSERS, ltc_raise_level, quick_tricks
from bidlab.agents.sayc.overcalls import (
    _their_last_suit,
)
from bidlab.agents.sayc.slam import fit_slam_try
from bidlab.bridge.calls import DOUBLE, PASS, REDOUBLE

CR = "competitive_response"
OC = "opener_competitive"
PEN = "penalty"


# -- responder after their interference --------------------------------------------------------------

def _partner_opened_one_suit(c: Ctx) -> bool:
    return c.opener == 2 and LV[c.opening.id] == 1 and ST[c.opening.id] < NT and not [x for x in c.my_calls if x.id]


def _answer_partners_double(c: Ctx):
    """Partner (the opener) doubled their bid for takeout: answer it like a takeout double."""
    if c.opener != 2 or not c.partner_calls or not c.partner_calls[-1].is_double:
        return None
    # redoubled too: their redouble is no reason to leave the double in (1SXX made with
    # overtricks when the weak hand passed it)
    if c.doubled not in (1, 2) or c.last_bidder not in (1, 3) or ST[c.opening.id] == NT:
        return None
    t = _their_last_suit(c)
    if t is None or LV[c.last_bid.id] > 3:
        return None
    f = c.f
    if f.lengths[t] >= 4 and f.top5[t] >= 2:
        return PASS, f"length and honours in {SUIT_NAMES[t]}: converts partner's double to penalties"
    o = ST[c.opening.id]
    options = [s for s in range(4) if s not in c.their_suits and (f.lengths[s] >= 4 or s == o and f.lengths[s] >= 3)]
    if options:
        s = max(options, key=lambda x: (f.lengths[x] + (1 if x == o else 0), x))
        cb = c.cheapest(s)
        if cb is not None and LV[cb.id] <= 3:
            return cb, f"answers partner's takeout double with {SUIT_NAMES[s]}"
    if f.stoppers[t]:
        cb = c.cheapest(NT)
        if cb is not None and LV[cb.id] <= 2:
            return cb, "answers partner's takeout double in notrump, a stopper in their suit"
    s = max((x for x in range(4) if x not in c.their_suits), key=lambda x: (f.lengths[x], x), default=None)
    if s is not None:
        cb = c.cheapest(s)
        if cb is not None and LV[cb.id] <= 3:
            return cb, f"answers partner's takeout double with the longest unbid suit, {SUIT_NAMES[s]}"
    return None


@rule(CR)
def answer_reopening_double(c: Ctx):
    return _answer_partners_double(c)


@rule(CR)
def after_nt_opening_interference(c: Ctx):
    """Responder after their interference over our notrump ("Interference over 1NT").

    Over a double the system is on: Stayman and transfers keep their meaning (the notrump
    rules answer), and a redouble shows 8+ without a major to show. Over a suit overcall
    the system is off (no Lebensohl in SAYC): a two-level suit is natural and weak, a
    three-level suit is forcing, the cue bid is Stayman-like (game values, a four-card
    major), 2NT is natural and invitational, double is for penalties.
    """
    if c.opener != 2 or NAMES[c.opening.id] not in ("1NT", "2NT") or [x for x in c.my_calls if x.id]:
        return None
    f = c.f
    t = _their_last_suit(c)
    lo = 15 if NAMES[c.opening.id] == "1NT" else 20
    if c.last_bidder == 3 and c.last_bid.id != c.opening.id:
        if f.hcp + lo >= 25:
            for s in (3, 2):
                if s == t:
                    continue
                if f.lengths[s] >= 6 and c.legal(bid(4, s)):
                    return bid(4, s), f"6+ {SUIT_NAMES[s]} and game values: game (systems off over their overcall)"
                cb = c.cheapest(s)
                if f.lengths[s] == 5 and cb is not None and LV[cb.id] == 3:
                    return cb, f"5 {SUIT_NAMES[s]}, game values: natural and forcing (systems off over their overcall)"
            if t is not None and any(f.lengths[s] == 4 for s in MAJORS if s != t):
                cb = c.cheapest(t)
                if cb is not None and LV[cb.id] <= 3:
                    return cb, "game values and a four-card major: Stayman-like cue bid of their suit"
            if t is None or f.stoppers[t]:
                if c.legal(bid(3, NT)):
                    return bid(3, NT), "game values with a stopper"
            if t is not None and f.lengths[t] >= 4:
                return DOUBLE, "penalty double of their overcall of our notrump"
            return c.cheapest(t) if t is not None else None, "game values, no stopper: cue bid"
        if t is not None and f.lengths[t] >= 4 and f.hcp >= 8 and LV[c.last_bid.id] <= 3:
            return DOUBLE, "penalty double of their overcall of our notrump"
        if t is not None and f.hcp + lo >= 23 and f.stoppers[t] and f.shortest() >= 2 and c.legal(bid(2, NT)):
            return bid(2, NT), f"{f.hcp} HCP and a stopper: natural 2NT, invitational (no Lebensohl in SAYC)"
        for s in (3, 2, 1, 0):
            if s != t and f.lengths[s] >= 5:
                cb = c.cheapest(s)
                if cb is not None and LV[cb.id] == 2:
                    return cb, f"5+ {SUIT_NAMES[s]}: natural, to play (systems off over their overcall)"
        return PASS, "nothing to say after their interference"
    if c.doubled and c.last_bidder == 2:
        major = max(f.lengths[2], f.lengths[3])
        if major >= 5 or (major == 4 and f.hcp >= 8):
            return None  # Stayman and transfers are still on over the double
        if f.hcp >= 8:
            return REDOUBLE, "8+ HCP and no major to show: we hold the balance of power"
    return None


@rule(OC)
def opener_after_notrump_interference(c: Ctx):
    """I opened 1NT, they overcalled, partner bid: raise his forcing three-level major with
    three, answer his Stayman-like cue bid with a four-card major (else 3NT with a stopper)."""
    if c.opener != 0 or NAMES[c.opening.id] != "1NT" or len(c.my_calls) != 1 or c.last_bidder != 2:
        return None
    pb = c.partner_calls[-1]
    if len([x for x in c.partner_calls if x.id]) != 1 or pb.id < 3 or LV[pb.id] != 3:
        return None
    f = c.f
    ps = ST[pb.id]
    if ps in MAJORS and ps not in c.their_suits:
        if f.lengths[ps] >= 3:
            return bid(4, ps), f"3+ {SUIT_NAMES[ps]}: raises partner's forcing {SUIT_NAMES[ps]} to game"
        return bid(3, NT), f"only two {SUIT_NAMES[ps]}: 3NT"
    if ps in c.their_suits:
        for m in (2, 3):
            if m not in c.their_suits and f.lengths[m] >= 4 and c.legal(bid(3, m)):
                return bid(3, m), f"four {SUIT_NAMES[m]}: answers the Stayman-like cue bid"
        return bid(3, NT), "no four-card major: 3NT over the cue bid"
    return None


@rule(CR)
def redouble_after_takeout_double(c: Ctx):
    if not _partner_opened_one_suit(c) or not (c.doubled == 1 and c.last_bidder == 2):
        return None
    f = c.f
    s = ST[c.opening.id]
    if s in MAJORS and f.lengths[s] >= 4 and f.support_points(s) >= 11:
        return bid(2, NT), f"4+ {SUIT_NAMES[s]}, limit raise or better: Jordan 2NT (SAYC)"
    if f.hcp >= 10:
        return REDOUBLE, "10+ HCP after their takeout double (SAYC redouble)"
    if s in MAJORS and f.lengths[s] >= 4 and f.hcp <= 9:
        return bid(3, s), f"4+ {SUIT_NAMES[s]}, weak: preemptive jump raise over the double"
    return None


@rule(CR)
def negative_double(c: Ctx):
    if not _partner_opened_one_suit(c) or c.last_bidder != 3 or c.doubled:
        return None
    t = _their_last_suit(c)
    if t is None or c.last_bid.id > bid(2, 3).id:
        return None
    f = c.f
    o = ST[c.opening.id]
    unbid_majors = [s for s in MAJORS if s != o and s != t]
    if not unbid_majors:
        return None
    lv_need = 8 if LV[c.last_bid.id] >= 2 else 6
    if f.hcp < lv_need:
        return None
    if len(unbid_majors) == 2:
        if f.lengths[2] >= 4 and f.lengths[3] >= 4:
            return DOUBLE, "both majors: negative double (SAYC, through 2S)"
        return None
    m = unbid_majors[0]
    if f.lengths[m] < 4:
        return None
    lv = c.cheapest_level(m)
    if lv == 1 and f.lengths[m] >= 4 and not (f.lengths[m] == 4 and m == 2 and t == 3):
        return None  # bid the major naturally at the one level
    if f.lengths[m] >= 5 and f.hcp >= 10 and lv <= 2:
        return None  # strong enough to bid it
    # a five-card major that would need the three level (1C (2S) with hearts) doubles: the
    # free bid at the three level is forcing to game, and passing it (the rule that used to
    # decline the double) left their jump overcall to play where we had a game (issue 27)
    if f.lengths[m] >= 5 and f.hcp >= 10:
        return DOUBLE, (f"5+ {SUIT_NAMES[m]}, {f.hcp} HCP: {SUIT_NAMES[m]} would need the three level (a game "
                        "force), so negative double (SAYC, through 2S)")
    return DOUBLE, f"4+ {SUIT_NAMES[m]}, {lv_need}+ HCP: negative double (SAYC, through 2S)"


@rule(CR)
def raise_in_competition(c: Ctx):
    if not _partner_opened_one_suit(c) or c.last_bidder not in (1, 3) and not c.doubled:
        return None
    f = c.f
    s = ST[c.opening.id]
    need = 3 if s in MAJORS else 5
    if f.lengths[s] < need:
        return None
    sp = f.support_points(s)
    t = _their_last_suit(c)
    # slam values with the fit: Blackwood instead of the jump to game (slam.fit_slam_try's
    # points once a fit is found; issue 27 round twenty-four)
    why = fit_slam_try(sp + c.partner.min_hcp, sp + c.partner.mid_hcp, f.aces) if s in MAJORS and sp >= 13 else None
    if why is not None and c.legal(bid(4, NT)):
        return bid(4, NT), f"3+ {SUIT_NAMES[s]}, {sp} support points: Blackwood ({why})"
    if s in MAJORS and sp >= 13 and c.legal(bid(4, s)):
        return bid(4, s), f"3+ {SUIT_NAMES[s]}, game values"
    if sp >= 11 and t is not None and c.last_bidder == 3:
        cb = c.cheapest(t)
        if cb is not None and LV[cb.id] <= 3:
            return cb, f"3+ {SUIT_NAMES[s]}, 11+ points: cue bid, limit raise or better (SAYC)"
    if 6 <= sp <= 10:
        cb = c.cheapest(s)
        if cb is not None and LV[cb.id] <= 3 and (LV[cb.id] == 2 or f.lengths[s] >= 4):
            return cb, f"3+ {SUIT_NAMES[s]}, 6-10 points: raise in competition"
    return None


@rule(CR)
def notrump_after_overcall(c: Ctx):
    """Responder's notrump over their overcall, by strength with a stopper: 1NT 6-10, 2NT
    11-12 (a jump over a one-level overcall, so the invitation is not lost to a pass; it
    paid in double-dummy IMPs on the train and validation splits, issue 27), 3NT 13-15."""
    if not _partner_opened_one_suit(c) or c.last_bidder != 3:
        return None
    t = _their_last_suit(c)
    f = c.f
    if t is None or not f.stoppers[t] or f.shortest() < 2:
        return None
    lv = c.cheapest_level(NT)
    if 13 <= f.hcp <= 15 and lv <= 3:
        return bid(3, NT), "13-15 HCP, a stopper: 3NT"
    if 11 <= f.hcp <= 12 and lv <= 2:
        # over a one-level overcall the jump to 2NT keeps the invitation (1NT shows 6-10)
        return bid(2, NT), "11-12 HCP, a stopper: invites 3NT"
    if 6 <= f.hcp <= 10 and lv == 1:
        return bid(1, NT), "6-10 HCP, a stopper in their suit: 1NT"


@rule(CR)
def new_suit_after_interference(c: Ctx):
    if not _partner_opened_one_suit(c) or c.last_bidder not in (1, 3) and not c.doubled:
        return None
    f = c.f
    o = ST[c.opening.id]
    for s in sorted(range(4), key=lambda x: (-f.lengths[x], -x)):
        if s == o or s in c.their_suits:
            continue
        cb = c.cheapest(s)
        if cb is None:
            continue
        if LV[cb.id] == 1 and f.lengths[s] >= 4 and f.hcp >= 6:
            return cb, f"6+ HCP, 4+ {SUIT_NAMES[s]}: new suit at the one level"
        if LV[cb.id] == 2 and f.lengths[s] >= 5 and f.hcp >= 10:
            return cb, f"10+ HCP, 5+ {SUIT_NAMES[s]}: new suit at the two level, forcing"
        if LV[cb.id] == 3 and f.lengths[s] >= 5 and f.hcp >= 11 and c.last_bidder == 3:
            # over their two-level (jump) overcall a five-card suit with game values is bid
            # at the three level, forcing (SAYC "Competitive bidding": a new suit by an
            # unpassed responder forces); passing it sold out to their overcall
            return cb, f"{f.hcp} HCP, 5+ {SUIT_NAMES[s]}: new suit at the three level over their overcall, forcing"
    return None


@rule(CR)
def pass_after_interference(c: Ctx):
    if _partner_opened_one_suit(c) and c.f.hcp < 13:
        return PASS, "nothing descriptive to say after their interference"


# -- opener and overcaller in competition ------------------------------------------------------------

@rule(OC)
def answer_openers_takeout_double(c: Ctx):
    return _answer_partners_double(c)


@rule(OC)
def answer_negative_double(c: Ctx):
    if c.opener != 0 or len(c.partner_calls) == 0 or not c.partner_calls[-1].is_double:
        return None
    if c.last_bidder not in (1, 3) or len(c.my_calls) != 1 or c.last_bidder == 1 and c.doubled != 1:
        return None
    f = c.f
    o = ST[c.opening.id]
    if o == NT:
        return None  # partner's double of their overcall of my notrump is for penalties
    t = ST[c.last_bid.id] if ST[c.last_bid.id] < NT else None
    if c.last_bidder == 3:
        # RHO bid over the double (their raise): no need to answer, but the four-card major
        # partner promised is still a fit: compete at the two level, and at the three level
        # with a sound opening (13+ points): their raise shows a fit of theirs too, so by the
        # Law of Total Tricks both sides have eight cards and three over their three is
        # cheap (round twenty-six; 15+ sold out to their raise where the major made).
        # Passing it left their raise to play where we had the major.
        for m in (3, 2):
            if m != o and m not in c.their_suits and f.lengths[m] >= 4:
                lv = c.cheapest_level(m)
                if lv <= 2 or lv == 3 and f.total_points >= 13:
                    return bid(lv, m), (f"4+ {SUIT_NAMES[m]} opposite the negative double, {f.total_points} points: "
                                        "competes over their raise (Law of Total Tricks: both sides have a fit)")
        if o in MAJORS and f.lengths[o] >= 6 and o not in c.their_suits and c.cheapest_level(o) <= 3:
            # a six-card major opposite the negative doubler's values (8+ through 2S) competes
            # once over their raise: partner's two or more make eight trumps and their raise
            # shows their fit, so three over three is the Law of Total Tricks' level (round
            # twenty-six; in a minor it took the auction from partner and lost)
            return c.cheapest(o), (f"6+ {SUIT_NAMES[o]} opposite the negative double: competes over their raise "
                                   "(Law of Total Tricks: both sides have a fit)")
        return None
    for m in (3, 2):
        if m != o and m != t and f.lengths[m] >= 4:
            lv = c.cheapest_level(m)
            if f.total_points >= 17 and lv <= 2:
                lv += 1
            return bid(lv, m), f"4+ {SUIT_NAMES[m]}: answers the negative double"
    if t is not None and f.stoppers[t] and f.balanced:
        lv = c.cheapest_level(NT)
        return bid(lv if f.hcp <= 14 else lv + 1, NT), "balanced with a stopper: notrump"
    if f.lengths[o] >= 6 or c.cheapest_level(o) <= 2:
        return c.cheapest(o), f"rebids the {SUIT_NAMES[o]}"
    return None


def _my_cue_bid_advance(c: Ctx):
    """(partner's overcall, my cue bid) when my only bid advanced partner's suit overcall
    with a cue bid of their suit and partner has just answered it; else None."""
    if c.opener not in (1, 3) or c.last_bidder != 2:
        return None
    mine = [x for x in c.my_calls if x.id]
    pb = [x for x in c.partner_calls if x.id]
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
    mine = [x for x in c.my_calls if x.id]
    pb = [x for x in c.partner_calls if x.id]
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
def opener_after_partners_redouble(c: Ctx):
    """1x (X) XX (P): opener passes. Partner's redouble shows 10+ and the balance of power;
    the pass gives him the first chance to double their runout (or leaves 1xXX to play).
    Only a minimum with a six-card suit or a second five-card suit, which does not want to
    defend, bids at once (SAYC practice after a redouble; issue 27: the bidder used to bid on
    as if uncontested, 2NT with 13 points)."""
    if c.opener != 0 or c.opening is None or LV[c.opening.id] != 1 or ST[c.opening.id] == NT:
        return None
    if len(c.my_calls) != 1 or len(c.partner_calls) != 1 or c.partner_calls[0] != REDOUBLE:
        return None
    if c.last_bid != c.opening:
        return None  # they bid over the redouble: the competitive rules decide
    f = c.f
    o = ST[c.opening.id]
    five_five = sum(1 for s in range(4) if f.lengths[s] >= 5) >= 2
    if f.hcp <= 14 and (f.lengths[o] >= 6 or five_five):
        return None  # a distributional minimum bids its shape (the rebid rules)
    return PASS, ("partner redoubled their takeout double (10+, our hand): pass, so that he can "
                  "double their runout (SAYC practice after a redouble)")


@rule(OC)
def opener_rebid_in_competition(c: Ctx):
    """I opened one of a suit, partner bid a suit, they interfered: support, rebid, or pass."""
    if c.opener != 0 or LV[c.opening.id] != 1 or ST[c.opening.id] == NT:
        return None
    mine = [x for x in c.my_calls if x.id]
    theirs_last = c.last_bidder in (1, 3)
    pbids = [x for x in c.partner_calls if x.id >= 3]
    forced = _forcing_new_suit_over_overcall(c, pbids)
    if len(mine) != 1 or not (theirs_last or forced) or any(x.id in (1, 2) for x in c.partner_calls):
        return None
    f = c.f
    o = ST[c.opening.id]
    if not pbids:  # partner passed: game, a long suit, a second suit, a reopening double
        extra = f.total_points >= 16
        if o in MAJORS and f.lengths[o] >= 7 and f.total_points >= 20 and f.top3[o] >= 2 and c.legal(bid(4, o)):
            return bid(4, o), f"20+ points with a long strong {SUIT_NAMES[o]} suit: game"
        t = _their_last_suit(c)
        # Reopening double: with a singleton or void in their suit partner may hold a
        # penalty pass, so any 14+ reopens; with a doubleton that is unlikely and the double
        # only pushes partner to bid a bad partscore, so it needs real extras, 16+ (with 14-15
        # and a doubleton the reopening double went down, double dummy and at IMPs)
        reopen = t is not None and LV[c.last_bid.id] <= 2 and f.lengths[t] <= 2 and f.hcp >= 14 \
            and not c.doubled and f.lengths[o] < 6
        if reopen and (f.lengths[t] <= 1 or f.hcp >= 16):
            return DOUBLE, (f"reopening double: {'short' if f.lengths[t] <= 1 else 'a doubleton'} in their suit, "
                            f"{f.hcp} HCP ({'14+' if f.lengths[t] <= 1 else '16+ with a doubleton'})")
        if f.lengths[o] >= 6:
            cb = c.cheapest(o)
            if cb is not None and LV[cb.id] <= 2 + extra:
                return cb, f"6+ {SUIT_NAMES[o]}: rebids the suit in competition"
        for s in sorted(range(4), key=lambda x: (-f.lengths[x], -x)):
            if s != o and s not in c.their_suits and f.lengths[s] >= 5:
                cb = c.cheapest(s)
                if cb is not None and LV[cb.id] <= 2 + extra:
                    return cb, f"5+ {SUIT_NAMES[s]}: shows the second suit in competition"
        if reopen:
            return PASS, (f"{f.hcp} HCP and a doubleton in their suit: no reopening double (partner is "
                          f"unlikely to sit with a penalty pass; the double needs 16+)")
        return None
    if len(pbids) != 1 or ST[pbids[0].id] == NT:
        return None
    p = ST[pbids[0].id]
    if p in c.their_suits or p == o:
        return None  # a cue bid or a raise: the cue-bid and placement rules answer those
    need = 3 if p in MAJORS else 4
    if f.lengths[p] >= need:
        cb = c.cheapest(p)
        if cb is not None and LV[cb.id] <= 3:
            sp = f.support_points(p)
            if sp >= 16 and LV[cb.id] <= 2:
                cb = bid(LV[cb.id] + 1, p)
            return cb, f"{need}+ {SUIT_NAMES[p]}: supports partner in competition"
    if f.lengths[o] >= 6:
        cb = c.cheapest(o)
        if cb is not None and LV[cb.id] <= 2 + (f.total_points >= 16):
            return cb, f"6+ {SUIT_NAMES[o]}: rebids the suit in competition"
    for s in sorted(range(4), key=lambda x: (-f.lengths[x], -x)):
        if s not in (o, p) and s not in c.their_suits and f.lengths[s] >= 4:
            cb = c.cheapest(s)
            if cb is not None and (LV[cb.id] == 1 or LV[cb.id] == 2 and (s < o or f.hcp >= 16)):
                return cb, f"4+ {SUIT_NAMES[s]}: new suit in competition"
    if not forced:
        return None
    # partner's new suit is forcing ("Competitive bidding": a new suit by an unpassed
    # responder after their overcall forces one round): no pass; notrump with their suit
    # stopped, else my own suit again, else the cheapest notrump
    t = _their_last_suit(c)
    why = "partner's new suit over their overcall is forcing"
    if f.balanced and (t is None or f.stoppers[t]):
        cb = c.cheapest(NT)
        if cb is not None and LV[cb.id] <= 2:
            if f.hcp >= 18 and LV[cb.id] == 1 and c.legal(bid(2, NT)):
                return bid(2, NT), f"18-19 balanced, their suit stopped: jump to 2NT ({why})"
            return cb, f"{f.hcp} HCP balanced, their suit stopped: notrump ({why})"
    for s in (o, NT):
        cb = c.cheapest(s)
        if cb is not None and LV[cb.id] <= 3:
            return cb, f"{'rebids my suit' if s == o else 'notrump'}: {why}"
    return None


def _forcing_new_suit_over_overcall(c: Ctx, pbids) -> bool:
    """1x (their overcall) new suit by unpassed partner, RHO passed: my turn, forced."""
    if c.last_bidder != 2 or len(pbids) != 1 or len(c.partner_calls) != 1 or any(x.id for x in c.rho_calls):
        return False
    lho = [x for x in c.lho_calls if x.id]
    if len(lho) != 1 or lho[0].id < 3 or ST[lho[0].id] == NT:
        return False
    p, ov, o = pbids[0], lho[0], ST[c.opening.id]
    if ST[p.id] in (NT, o, ST[ov.id]):
        return False
    return LV[p.id] == LV[ov.id] + (1 if ST[p.id] < ST[ov.id] else 0)


@rule(OC)
def overcaller_after_forcing_major(c: Ctx):
    """My notrump overcall (15-18: 1NT over a one-bid, 2NT over their weak two), partner's
    first bid a major at the three level: five cards and game values, forcing
    (advance_notrump_overcall). Raise to game with three, else 3NT."""
    mine = [x for x in c.my_calls if x.id]
    pb = [x for x in c.partner_calls if x.id]
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
    mine = [x for x in c.my_calls if x.id]
    pb = [x for x in c.partner_calls if x.id]
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
    mine = [x for x in c.my_calls if x.id]
    if len(mine) != 1 or not mine[0].is_double or c.opener not in (1, 3):
        return None
    if not c.partner_calls or not c.partner_calls[-1].is_double or c.doubled != 1 or c.last_bidder != 1:
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
    mine = [x for x in c.my_calls if x.id]
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
    mine = [x for x in c.my_calls if x.id]
    if len(mine) != 1 or not mine[0].is_double or c.opener not in (1, 3) or c.last_bidder != 2 or c.doubled:
        return None
    if ST[c.opening.id] == NT:
        return None  # a double of their 1NT is for penalties
    if any(c.f.lengths[s] > 3 for s in c.their_suits):
        return None  # length in their suit: a lead-directing double of their 2C, not takeout
    pbids = [x for x in c.partner_calls if x.id]
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
    mine = [x for x in c.my_calls if x.id]
    if len(mine) != 1 or not mine[0].is_double or c.opener not in (1, 3) or c.last_bidder not in (1, 3) \
            or c.doubled or ST[c.opening.id] == NT or any(c.f.lengths[s] > 3 for s in c.their_suits):
        return None
    pbids = [x for x in c.partner_calls if x.id]
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
    mine = [x for x in c.my_calls if x.id]
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


@rule(OC)
def jordan_answer(c: Ctx):
    if c.opener != 0 or not c.partner_calls or NAMES[c.partner_calls[-1].id] != "2NT" or c.last_bidder != 2:
        return None
    if not c.rho_calls or not any(x.is_double for x in c.lho_calls):
        return None
    s = ST[c.opening.id]
    if s not in MAJORS:
        return None
    return (bid(4, s) if c.f.total_points >= 14 else bid(3, s)), "answers Jordan 2NT"


@rule(OC)
def answer_preemptive_jump_raise(c: Ctx):
    """1M (X) 3M (P): over their takeout double the jump raise is preemptive (SAYC: the
    limit raise and better go through the redouble or Jordan 2NT), so it shows four trumps
    and a weak hand, not the uncontested limit raise. Game needs a hand that makes ten
    tricks opposite about nine losers: five losers or fewer, or 17+ points; else pass.
    (Read as a limit raise, opener bid game with 14 points and it failed on 7 of 10 boards.)"""
    if c.opener != 0 or c.last_bidder != 2 or any(x.id for x in c.rho_calls):
        return None
    mine = [x for x in c.my_calls if x.id]
    if len(mine) != 1 or LV[mine[0].id] != 1 or ST[mine[0].id] not in MAJORS:
        return None
    s = ST[mine[0].id]
    if [x.id for x in c.lho_calls] != [DOUBLE.id] or [x.id for x in c.partner_calls] != [bid(3, s).id]:
        return None
    f = c.f
    if f.losing_tricks <= 5 or f.total_points >= 17:
        return bid(4, s), (f"{f.losing_tricks} losers, {f.total_points} points: game opposite partner's "
                           "preemptive jump raise over the double (four trumps, weak; SAYC)")
    return PASS, (f"{f.losing_tricks} losers, {f.total_points} points: passes partner's preemptive jump raise "
                  "over the double (four trumps, weak; SAYC: limit raises go through the redouble or Jordan 2NT)")


# -- penalty doubles ------------------------------------------------------------------------------------

@rule(PEN)
def penalty_double(c: Ctx):
    """Double a contract that is clearly going down: count defensive tricks."""
    if c.last_bidder not in (1, 3) or c.doubled or c.last_bid is None:
        return None
    p = c.partner
    if not p.acted and c.opener not in (0, 2):
        return None
    lv = LV[c.last_bid.id]
    t = ST[c.last_bid.id]
    f = c.f
    if lv <= 2 and t < NT and not (c.partner_calls and any(x.id >= 3 for x in c.partner_calls) and c.opener in (0, 2)):
        return None
    if lv <= 3 and t < NT and (f.lengths[t] < 3 or f.top5[t] == 0 or f.lengths[t] + f.top5[t] < 5):
        return None  # a low-level penalty double needs trump tricks
    trump_tricks = 0.0
    if t < NT:
        n, honours = f.lengths[t], f.top5[t]
        if n >= 4:
            trump_tricks = min(honours, n - 2) + (0.5 if n >= 5 else 0)
        elif n == 3 and honours >= 2:
            trump_tricks = 1
    # trump honours were counted as trump tricks; outside them count quick tricks
    side = f.quick_tricks - (quick_tricks(f.suit_masks[t]) if t < NT and trump_tricks else 0.0)
    mine = side + trump_tricks
    partner_tricks = p.min_hcp / 5.0
    needed = 14 - (6 + lv)  # tricks to set the contract
    combined_hcp = f.hcp + p.min_hcp
    # A trick in reserve below game; at the game level and above half a trick will do: their
    # bonus is already at stake, so the double risks less than it gains (it paid in
    # double-dummy IMPs on the train and validation splits, issue 27).
    # Below game, four or more trumps with an honour sitting over or under declarer are
    # their own reserve: the count of defensive tricks is enough without a trick to spare
    # or 20 combined HCP (round seventeen: their undoubled partscores where the count
    # reached the tricks needed went down 90% of the time double dummy).
    long_trumps = lv <= 3 and t < NT and f.lengths[t] >= 4 and f.top5[t] >= 1 and t not in c.our_suits  # not a cue bid
    reserve = 0.5 if lv >= 4 else (0 if long_trumps else 1)
    if mine + partner_tricks >= needed + reserve and (combined_hcp >= 20 or lv >= 4 or long_trumps) \
            and mine >= needed / 2:
        why = (f"{f.lengths[t]} trumps with an honour are the reserve (trump tricks)" if long_trumps
               else f"{reserve} in reserve")
        return DOUBLE, (f"about {mine + partner_tricks:.1f} defensive tricks against {c.last_bid} "
                        f"({needed} beat it, {why}): penalty double")
    return None


# The partnership's balance of power: my HCP plus partner's shown minimum. Against their
# suit contract over our opening (up to the four level: there it added +1.5 IMPs a decision
# on 20 more) we do not sell out once we know we hold most of the deck: the
# double pays when I hold enough of their trumps, and the fewer I hold the more strength it
# needs; short in their suit, a known fit of ours competes instead. Calibrated in
# double-dummy IMPs on the train deals with sayc at all four seats, against the pass (issue
# 27 round thirty-one): the double with three trumps from 23 HCP between us +1.6 IMPs a
# decision (268 decisions), four or more from 21 +1.5 (225), two or fewer from 26 (game values
# without a fit) +3.1 (63); three trumps at 22 and a doubleton at 23-25 lost. Short in their
# suit, the cheapest bid in our seven-card or longer known fit up to the three level from 20
# +1.3 (492; from 19 +0.3 on the next 159, six-card fits +0.5 on 53).
# When they opened and we came in (an overcall, a takeout double, an advance) the same
# knowledge holds with the same thresholds (round thirty-five, DD IMPs on the train deals
# against the bidder without it): the compete from 20 HCP between us +1.6 a decision (154;
# from 19 +0.8 on the next 150 with 39 fewer contracts made), the double +1.2 (135: four or
# more trumps +88 IMPs on 70, two or fewer +81 on 17, three trumps even). Lower thresholds
# lose there: an overcall or a double shows a wide range, so below 23 (three trumps) or 21
# (four) the known count says little (-0.9 to -2.8 a decision from 18 HCP), and their
# doubled partscores went down only where our real combined count was 24+.
BALANCE_OF_POWER_HCP = {3: 23, 4: 21}  # the double, by my length in their suit (4 = four or more)
BALANCE_OF_POWER_SHORT_HCP = 26  # the double with two or fewer of their trumps
BALANCE_OF_POWER_COMPETE_HCP = 20  # the bid in our fit with two or fewer of their trumps
BALANCE_OF_POWER_FIT = 7


def balance_of_power(c: Ctx) -> int:
    """My HCP plus partner's shown minimum: what I know our side holds."""
    return c.f.hcp + c.partner.min_hcp


def balance_of_power_needed(trumps: int) -> int:
    """Combined HCP the balance-of-power double needs with ``trumps`` of their suit."""
    if trumps >= 4:
        return BALANCE_OF_POWER_HCP[4]
    return BALANCE_OF_POWER_HCP.get(trumps, BALANCE_OF_POWER_SHORT_HCP)


@rule(PEN)
def balance_of_power_action(c: Ctx):
    """They rest in a suit contract of theirs below five, and we opened or came in over their
    opening: with the balance of power (see :func:`balance_of_power_needed`) double it; short
    in their suit, compete in our known fit. The placement rules ahead of this one would have
    bid a game of ours, and the trick-count penalty double (:func:`penalty_double`) comes
    first; the bid lives in the penalty group so that it is weighed against the double before
    the Law's compete and the settling pass of :mod:`~bidlab.agents.sayc.placement`."""
    if c.last_bidder not in (1, 3) or c.doubled or c.last_bid is None or c.opener is None:
        return None
    we_opened = c.opener in (0, 2)
    if not we_opened and not (c.shown[0].acted or c.partner.acted):
        return None  # they opened and we have not come in: nothing shown, the balancing rules decide
    lv, t = LV[c.last_bid.id], ST[c.last_bid.id]
    if t == NT or t not in c.their_suits or t in c.our_suits or lv > 4:
        return None  # a contract in their own suit (not a cue bid of ours)
    known = balance_of_power(c)
    n = c.f.lengths[t]
    need = balance_of_power_needed(n)
    if known >= need:
        opened = "we opened" if we_opened else "they opened, we came in"
        return DOUBLE, (f"{known}+ HCP between us ({opened}), {n} of their {SUIT_NAMES[t]} (balance of power: {need}+ with "
                        f"{n} trumps): penalty double of their contract")
    if n > 2 or known < BALANCE_OF_POWER_COMPETE_HCP:
        return None
    fit, s = max(((c.f.lengths[x] + c.partner.min_len[x], x) for x in range(4) if x not in c.their_suits),
                 key=lambda z: z[0], default=(0, None))  # they may have bid all four suits
    if fit < BALANCE_OF_POWER_FIT:
        return None
    cb = c.cheapest(s)
    if cb is None or LV[cb.id] > 3:
        return None
    opened = "we opened" if we_opened else "they opened, we came in"
    return cb, (f"{known}+ HCP between us ({opened}; balance of power: {BALANCE_OF_POWER_COMPETE_HCP}+), {n} of their "
                f"{SUIT_NAMES[t]} and {'an' if fit in (8, 11) else 'a'} {fit}-card {SUIT_NAMES[s]} fit: competes rather than "
                f"sell out (Law of Total Tricks: short in their suit, our fit plays and theirs is long)")
