"""Advancing partner's overcall, takeout double, Michaels or unusual 2NT (SAYC booklet,
"Defensive bidding": answering a takeout double, advancing an overcall).

Answering a two-suiter, responsive doubles, answering a takeout double (cheapest suit 0-8,
jump 9-11, cue bid 12+, notrump with a stopper, penalty pass), advancing a notrump
overcall (the notrump system on) and a suit overcall (raise 7-10, cue-bid limit raise
below our game, 4M with game values, notrump with a stopper, a new suit). Split out of
:mod:`~bidlab.agents.sayc.competitive` (issue 27).
"""

from __future__ import annotations

from bidlab.agents.sayc.context import LV, MAJORS, NT, ST, SUIT_NAMES, Ctx, bid
from bidlab.agents.sayc.engine import rule
from bidlab.agents.sayc.evaluation import GAME_OVER_RAISE_TRUMPS
from bidlab.agents.sayc.overcalls import _their_last_suit, partner_doubled_artificial_bid
from bidlab.bridge.calls import DOUBLE, PASS

AD = "advance"
NO_FIT_CUE_HCP = 13  # advancer's cue bid without a fit: opening values


# -- advancing partner's action ------------------------------------------------------------------

def _partner_first_action(c: Ctx):
    """Partner's first non-pass call, if it is his latest call (my first chance to advance)."""
    for x in c.partner_calls:
        if x.id != 0:
            return x if x is c.partner_calls[-1] else None
    return None


def _direct_over_opening(c: Ctx, call) -> bool:
    """Partner made ``call`` right after the opening bid (the direct seat).

    Judged by position, not by object identity: the auction reading is cached by call
    ids, so its Call objects need not be the ones in ``c.calls``.
    """
    for i, x in enumerate(c.calls):
        if x.id >= 3:
            j = i + 1
            return j < len(c.calls) and (len(c.calls) - j) % 4 == 2 and c.calls[j].id == call.id
    return False


@rule(AD)
def answer_michaels_or_unusual(c: Ctx):
    a = _partner_first_action(c)
    if a is None or a.id < 3 or c.last_bidder == 1 and c.last_bid is not a or not _direct_over_opening(c, a):
        return None
    opening = c.opening
    if LV[a.id] == 2 and ST[a.id] == NT and c.last_bid is a and LV[opening.id] == 1:
        t = ST[opening.id]
        low = [s for s in range(4) if s != t][:2]
        s = max(low, key=lambda x: (c.f.lengths[x], x))
        game = bid(4, s) if s in MAJORS else bid(5, s)
        if c.f.lengths[s] >= 4 and c.f.support_points(s) >= (11 if s in MAJORS else 13) and c.legal(game):
            return game, f"{c.f.lengths[s]} {SUIT_NAMES[s]} and values: game in partner's suit (unusual 2NT)"
        return c.cheapest(s), f"picks {SUIT_NAMES[s]} of partner's two suits (unusual 2NT)"
    if LV[a.id] == 2 and ST[opening.id] < NT and ST[a.id] == ST[opening.id] and c.last_bid is a:
        t = ST[opening.id]
        s = (3 if c.f.lengths[3] >= c.f.lengths[2] else 2) if t < 2 else 5 - t
        if c.f.lengths[s] >= (4 if t < 2 else 3) and c.f.support_points(s) >= 11 and c.legal(bid(4, s)):
            return bid(4, s), f"{c.f.lengths[s]} {SUIT_NAMES[s]}, {c.f.hcp} HCP: game in partner's major (Michaels)"
        if t < 2:
            return c.cheapest(s), f"prefers {SUIT_NAMES[s]} of partner's majors (Michaels)"
        other = s
        if c.f.lengths[other] >= 3:
            return c.cheapest(other), f"3+ {SUIT_NAMES[other]}: partner's known major (Michaels)"
        return bid(2, NT), "asks for partner's minor (Michaels)"


@rule(AD)
def responsive_double(c: Ctx):
    """Partner doubled for takeout and RHO raised opener's suit: double with values and
    two four-card unbid suits, no five-card suit (responsive double)."""
    a = _partner_first_action(c)
    if a is None or not a.is_double or c.last_bidder != 3 or c.doubled or len(c.their_suits) != 1:
        return None
    t = ST[c.opening.id]
    if ST[c.last_bid.id] != t or LV[c.last_bid.id] > 3:
        return None
    f = c.f
    unbid = [s for s in range(4) if s != t]
    if f.hcp < (8 if LV[c.last_bid.id] == 2 else 10) or any(f.lengths[s] >= 5 for s in unbid):
        return None
    # over a minor it shows both majors; over a major, both minors without the other major
    wanted = [2, 3] if t < 2 else [0, 1]
    if all(f.lengths[s] >= 4 for s in wanted) and not (t >= 2 and f.lengths[5 - t] >= 4):
        names = " and ".join(SUIT_NAMES[s] for s in wanted)
        return DOUBLE, f"{f.hcp} HCP, four {names}: responsive double"
    return None


@rule(AD)
def run_from_redoubled_1nt(c: Ctx):
    """Partner's penalty double of their 1NT was redoubled: with opener's 15-17, partner's
    15+ and the redoubler's values there is little left for me, and 1NT redoubled makes
    with overtricks; a weak hand runs to its longest suit (practice: pass says I can defend)."""
    a = _partner_first_action(c)
    if a is None or not a.is_double or c.calls[-1].id != 2 or c.opening is None \
            or LV[c.opening.id] != 1 or ST[c.opening.id] != NT or c.last_bid is not c.opening:
        return None
    f = c.f
    if f.hcp >= 6:
        return None
    best = max(range(4), key=lambda s: (f.lengths[s], -s))
    if f.lengths[best] < 4:
        return None
    return bid(2, best), f"{f.hcp} HCP: runs from 1NT redoubled to my {f.lengths[best]}-card {SUIT_NAMES[best]}"


@rule(AD)
def advance_takeout_double(c: Ctx):
    a = _partner_first_action(c)
    if a is None or not a.is_double or c.last_bid is None:
        return None
    if partner_doubled_artificial_bid(c):
        # his double asked for a lead: answering it as takeout ran from their redouble to
        # a doubled contract of our own (1NT P 2C X XX 2S X; +7 to +12 IMPs a decision
        # double dummy against nn:rl@80000, issue 27 round forty-nine)
        return None
    f = c.f
    t = _their_last_suit(c)
    if t is None:
        return None
    # RHO bid (or redoubled) over the double: no need to answer. RHO's own call decides,
    # not who made the last bid: in the balancing seat (1H P P X P) the last bid is
    # RHO's opening, and a weak hand that passed there left partner's double in.
    # A redouble is no free bid: it threatens to play our double redoubled, so it is
    # answered as if RHO had passed (practice; leaving 1xXX in was the costliest pass).
    free = c.calls[-1].id not in (0, 2)
    if not free and f.lengths[t] >= 5 and f.top3[t] >= 2 and f.hcp >= 7:
        return PASS, f"long strong {SUIT_NAMES[t]}: converts the takeout double to penalties"
    if not free and LV[c.last_bid.id] == 2 and c.last_bid is c.opening and f.lengths[t] >= 4 \
            and f.top5[t] >= 1 and f.hcp >= 6:
        # Their two-bid opening doubled for takeout (2S X P, 2S P P X P): four trumps with an
        # honour and 6+ HCP opposite the double's opening values leave declarer short of
        # eight tricks on a weak two's six-card suit, so the penalty pays better than a
        # three-level answer in a misfit (issue 27, round ten: judgement, checked in
        # double-dummy IMPs on the train and validation splits).
        return PASS, (f"{f.lengths[t]} {SUIT_NAMES[t]} with an honour and {f.hcp} HCP: converts the takeout "
                      f"double of their two-bid to penalties (four trumps opposite the doubler's shortness)")
    unbid = [s for s in range(4) if s not in c.their_suits]
    if not unbid:
        return None
    # a four-card major before a four-card minor, never a doubleton major before a
    # three-card minor (the answer promises four: partner raises it)
    best = max(unbid, key=lambda s: (f.lengths[s] + (1 if s in MAJORS and f.lengths[s] >= 4 else 0), s))
    # Strength for the answer: HCP plus length points in the suit to be named (a fifth and
    # sixth trump are tricks opposite the doubler's support; issue 27 judgement, checked
    # in double-dummy IMPs on the train and validation splits).
    pts = f.hcp + max(0, f.lengths[best] - 4)
    if pts >= 12:
        if best in MAJORS and f.lengths[best] >= 5 and c.legal(bid(4, best)):
            return bid(4, best), f"{f.hcp} HCP + length, 5+ {SUIT_NAMES[best]}: game"
        cue = c.cheapest(t)
        if cue is not None and LV[cue.id] >= 4:
            # no room below game for the cue bid's question: name the game
            for m in (3, 2):
                if m in unbid and f.lengths[m] >= 4 and c.legal(bid(4, m)):
                    return bid(4, m), f"{f.hcp} HCP, four {SUIT_NAMES[m]}: game (a four-level cue bid leaves no room)"
            if best not in MAJORS and f.lengths[best] >= 6 and c.legal(bid(5, best)):
                return bid(5, best), f"{f.hcp} HCP + length, 6+ {SUIT_NAMES[best]}: game (a four-level cue bid leaves no room)"
        return cue, "12+ HCP: cue bid of their suit, forcing"
    if f.balanced and f.stoppers[t] and not any(f.lengths[s] >= 4 for s in unbid if s in MAJORS):
        if 11 <= f.hcp <= 12:
            return c.cheapest(NT) if c.cheapest_level(NT) == 2 else None, "11-12 HCP, a stopper: 2NT"
        if 6 <= f.hcp <= 10 and c.cheapest_level(NT) == 1:
            return bid(1, NT), "6-10 HCP, a stopper in their suit: 1NT"
    lv = c.cheapest_level(best)
    if lv >= 5 or (lv == 4 and f.lengths[best] < 5 and f.hcp < 6):
        return PASS, "too high to answer the double"
    if lv == 3 and best in MAJORS and f.lengths[best] >= 5 and pts >= 10 and c.legal(bid(4, best)):
        # over their weak two the cheapest answer is already at the three level, so no jump
        # is left below game: 10+ points (HCP + length) with a five-card major bid game
        return bid(4, best), f"{f.hcp} HCP + length, 5+ {SUIT_NAMES[best]}: game over their weak two (no room to jump)"
    if 9 <= pts <= 11 and f.lengths[best] >= 4 and lv + 1 <= 3:
        return bid(lv + 1, best), f"9-11 points (HCP + length), 4+ {SUIT_NAMES[best]}: jump answer (SAYC)"
    if free:
        if f.hcp >= 6 and f.lengths[best] >= 5 and lv <= 2:
            return bid(lv, best), f"free bid: 5+ {SUIT_NAMES[best]}"
        if f.hcp >= 8 and f.lengths[best] >= 4 and lv <= 3:
            return bid(lv, best), f"8+ HCP, 4+ {SUIT_NAMES[best]}: free bid over their raise"
        return PASS, "RHO bid: no need to answer the double"
    return bid(lv, best), f"0-8 HCP: {SUIT_NAMES[best]} at the cheapest level (answer to a takeout double)"


def _balancing_notrump(c: Ctx) -> bool:
    """Partner's 1NT came in the pass-out seat over their opening: (1x) P (P) 1NT."""
    bids = [i for i, x in enumerate(c.calls) if x.id >= 3]
    return (len(bids) == 2 and bids[1] == bids[0] + 3 and c.calls[bids[1]].id == bid(1, NT).id
            and (len(c.calls) - bids[1]) % 4 == 2)


@rule(AD)
def advance_notrump_overcall(c: Ctx):
    a = _partner_first_action(c)
    if a is None or a.id < 3 or ST[a.id] != NT or c.last_bid is not a:
        return None
    if LV[a.id] == 2 and LV[c.opening.id] == 2:  # natural 2NT over their weak two: 15-18
        for s in (3, 2):
            if c.f.lengths[s] >= 6 and c.f.hcp >= 7 and c.legal(bid(4, s)):
                return bid(4, s), f"6+ {SUIT_NAMES[s]} and game values opposite 15-18"
        # a five-card major with game values: 3M forcing, so the 5-3 fit is found (3NT alone
        # missed 4M; partner raises with three, else 3NT; round seven of issue 27). From 5
        # HCP, and 3NT from 6: opposite 15-18 that is 20-24 with a source of tricks (passing
        # with five spades and 5-6 lost the 4S that nn:rl bid; issue 27, round twenty-three)
        for s in (3, 2):
            if c.f.lengths[s] == 5 and c.f.hcp >= 5 and s not in c.their_suits and c.legal(bid(3, s)):
                return bid(3, s), (f"five {SUIT_NAMES[s]} and game values opposite 15-18: 3{'CDHS'[s]}, forcing "
                                   "(partner raises with three, else 3NT)")
        if c.f.hcp >= 6:
            return bid(3, NT), "6+ HCP opposite a 15-18 2NT overcall: game (the overcall is 15-18, so 21+ together)"
        return PASS, "weak: pass the 2NT overcall"
    if LV[a.id] != 1:
        return None
    f = c.f
    # A balancing 1NT ((1x) P (P) 1NT) shows about 11-14, not 15-18 (SAYC: the balancer
    # "borrows a king"): advancer takes the king back, game needs three points more
    # (issue 27, round twenty-three; the reading agrees, reading._read_notrump).
    k, rng = (3, "11-14 (balancing 1NT)") if _balancing_notrump(c) else (0, "15-18")
    for s in (3, 2):
        if f.lengths[s] >= 6 and f.hcp >= 9 + k:
            return bid(4, s), f"6+ {SUIT_NAMES[s]} and game values opposite {rng}"
    for s in (3, 2):
        if f.lengths[s] == 5 and f.hcp >= 10 + k and s not in c.their_suits and c.legal(bid(3, s)):
            return bid(3, s), (f"five {SUIT_NAMES[s]} and game values opposite {rng}: jump to 3{'CDHS'[s]}, "
                               "forcing (partner raises with three, else 3NT)")
    if f.hcp >= 10 + k:
        return bid(3, NT), f"{10 + k}+ HCP opposite {rng}: game"
    if f.hcp >= 8 + k:
        return bid(2, NT), f"{8 + k}-{9 + k} HCP opposite {rng}: invites 3NT"
    for s in (3, 2, 1, 0):
        if f.lengths[s] >= 5 and s not in c.their_suits and c.legal(bid(2, s)):
            return bid(2, s), f"weak with 5+ {SUIT_NAMES[s]}: to play"
    return PASS, "weak: pass the 1NT overcall"


def _game_over_their_raise(c: Ctx, s: int, call, why: str, instead: str):
    """Over their raise (1H 1S 2H), a three-level raise of partner's major with four or more
    trumps goes to game instead (``instead`` names the raise it replaces, for the explanation): with a fit of nine or more (ten when partner holds six) the
    three level only pushes them to 4H, and 4M either makes or is a cheap sacrifice against
    their game (Law of Total Tricks; a raise of an overcall is preemptive in SAYC practice).
    Issue 27, round thirty-six: train DD, sayc at all four seats, the three-level raise of
    advance_suit_overcall with 4+ trumps against 4M: about +2 IMPs a decision."""
    a = _partner_first_action(c)
    if s not in MAJORS or c.f.lengths[s] < GAME_OVER_RAISE_TRUMPS or c.last_bidder != 3 \
            or c.opening is None or ST[c.last_bid.id] != ST[c.opening.id] or LV[call.id] != 3:
        return call, why
    if LV[c.opening.id] != 1 or a is None or not _direct_over_opening(c, a):
        # over their weak two (2D 2S 3D) or a sandwich overcall (1C P 1D 2H 3C) the raise
        # stays at three: 4M there lost in train DD (the overcall's fit and their
        # strength are less known)
        return call, why
    game = bid(4, s)
    if not c.legal(game):
        return call, why
    return game, (f"{c.f.lengths[s]} {SUIT_NAMES[s]} over their raise: game in partner's major "
                  f"(Law of Total Tricks: 4M makes or saves their game), not {instead}")


def _over_their_strong_notrump(c: Ctx) -> bool:
    """Whether partner overcalled their 1NT opening and RHO passed. The overcall is a
    six-card suit from 6 HCP (``SIX_CARD_SUIT_OVER_1NT_HCP``) or a five-card suit with 11+,
    their 15-17 holds the balance of the high cards: the overcall has bought the partscore,
    and advancer's new suit (good five cards, 10+ HCP) ran from it into a misfit one level
    higher (issue 27 round forty-five, train DD: passing instead +2.2 IMPs a decision on 22).
    Over RHO's new bid the general competitive rules decide."""
    return (c.opening is not None and LV[c.opening.id] == 1 and ST[c.opening.id] == NT
            and c.calls[-1].id == 0)


def _raise_over_their_strong_notrump(c: Ctx, s: int) -> bool:
    """Whether raising partner's overcall of their 1NT opening in ``s`` takes us to the three
    level. Their 15-17 notrump holds the balance of the high cards and the overcall (from 6
    HCP with a six-card suit, ``SIX_CARD_SUIT_OVER_1NT_HCP``) already bought the partscore:
    with 8-10 support points the simple raise to three went down where the two level made or
    they would have gone down (issue 27 round forty-five, train DD: passing instead +2.1 IMPs
    a decision on 77, at every trump length and 6-10 HCP)."""
    return _over_their_strong_notrump(c) and c.cheapest_level(s) >= 3


@rule(AD)
def advance_suit_overcall(c: Ctx):
    a = _partner_first_action(c)
    if a is None or a.id < 3 or ST[a.id] == NT or c.last_bidder == 1:
        return None
    s = ST[a.id]
    if c.opening is not None and ST[c.opening.id] == ST[a.id]:
        return None  # a cue bid
    f = c.f
    L = f.lengths[s]
    t = ST[c.opening.id] if ST[c.opening.id] < NT else None
    weak_jump = LV[a.id] > LV[c.opening.id] + (1 if s <= ST[c.opening.id] else 0)
    # Their raise or jump past our simple raise (1H 1S 3H, 1D 1S 3NT) takes the
    # conventional raises away: the cue bid stays below our game (three level at most) and
    # a simple raise is made only at its own level; above that, compete_by_total_tricks
    # decides how high the fit may go (Law of Total Tricks).
    room = c.cheapest_level(s) <= LV[a.id] + 1
    if L >= 3:
        sp = f.support_points(s)
        cue = None if t is None else c.cheapest(t)
        slam_try = sp >= 18 and cue is not None and LV[cue.id] <= 3 and c.legal(cue) and not weak_jump
        if s in MAJORS and sp >= (14 if weak_jump else 13) and c.legal(bid(4, s)) and not slam_try:
            return bid(4, s), f"3+ {SUIT_NAMES[s]} and game values"
        if slam_try:
            # 18+ support points opposite an overcall (10-16) may hold a slam: the jump to
            # game would shut partner out, the cue bid keeps the auction low (issue 27, round seven)
            return cue, (f"3+ {SUIT_NAMES[s]}, {sp} support points: cue bid, limit raise or better (SAYC), "
                         "not the jump to game: slam is possible opposite an overcall")
        if sp >= 11 and cue is not None and LV[cue.id] <= 3 and c.legal(cue) and not weak_jump:
            return c.cheapest(t), f"3+ {SUIT_NAMES[s]}, 11+ points: cue bid, limit raise or better (SAYC)"
        if L >= 4 and sp <= 9 and f.shortest() <= 1 and not weak_jump:
            lv = c.cheapest_level(s) + 1
            if lv <= 3:
                return _game_over_their_raise(c, s, bid(lv, s), f"4+ {SUIT_NAMES[s]}, weak: preemptive jump raise",
                                              "preemptive jump raise")
        # the simple raise from 8 support points, not 7 (issue 27, round nine: the overcall
        # is 8-16, so 7 opposite its minimum plays a level too high; passing it paid in
        # double-dummy IMPs on train and validation and made contracts)
        if 8 <= sp <= 10 and not weak_jump and room and not _raise_over_their_strong_notrump(c, s):
            return _game_over_their_raise(c, s, c.cheapest(s),
                                          f"3+ {SUIT_NAMES[s]}, 8-10 support points: simple raise (7 passes opposite an overcall)",
                                          "simple raise (7 passes opposite an overcall)")
    if t is not None and f.stoppers[t] and f.balanced:
        lv = c.cheapest_level(NT)
        if f.hcp >= 15 and lv <= 3:
            return bid(3, NT), "15+ HCP, a stopper: 3NT"
        if 12 <= f.hcp <= 14 and lv <= 2:
            return bid(2, NT), "12-14 HCP, a stopper: 2NT"
        if 8 <= f.hcp <= 11 and lv == 1:
            return bid(1, NT), "8-11 HCP, a stopper: 1NT"
    for o in (3, 2, 1, 0):
        if o != s and o not in c.their_suits and f.lengths[o] >= 5 and f.top5[o] >= 2 and f.hcp >= 10 \
                and not _over_their_strong_notrump(c):
            cb = c.cheapest(o)
            if cb is not None and LV[cb.id] <= 2:
                return cb, f"good 5+ {SUIT_NAMES[o]}, 10+ HCP: new suit, non-forcing"
    if t is not None and L < 3 and f.hcp >= NO_FIT_CUE_HCP and not weak_jump and c.calls[-1].id == 0 \
            and _direct_over_opening(c, a):
        # Opening values and no fit, no notrump or good suit to name: the cue bid of their
        # suit, forcing (SAYC "Advancing an overcall": a good hand); the overcaller then
        # describes and the partnership place the game (issue 27, round fourteen: passing
        # partner's overcall with 13+ HCP lost a game about once in 160 boards). Only over
        # a direct overcall: a balancing or sandwich overcall may be a king lighter, and the
        # cue bid there from 16+ cost made contracts (3NT on a misfit) for no IMPs.
        cue = c.cheapest(t)
        if cue is not None and LV[cue.id] <= 3 and c.legal(cue):
            return cue, (f"{f.hcp} HCP, only {L} {SUIT_NAMES[s]}: cue bid of their suit, forcing "
                         "(a good hand without a fit; partner describes)")
    if c.last_bidder == 3:
        # RHO raised past our simple raise (1D 1H 3D, 1S 2H 2S): with four trumps the Law
        # of Total Tricks would compete at the three level; game instead, as above
        cb = c.cheapest(s)
        if cb is not None and L >= GAME_OVER_RAISE_TRUMPS:
            call, why = _game_over_their_raise(c, s, cb, f"{L}-card support: compete at the three level",
                                               "compete at the three level")
            if call != cb:
                return call, why
        return None  # RHO bid: the general rules decide whether to compete
    if _over_their_strong_notrump(c) and any(
            o != s and f.lengths[o] >= 5 and f.top5[o] >= 2 for o in range(4)) and f.hcp >= 10:
        return PASS, (f"{f.hcp} HCP and a good suit of my own: no new suit over their strong notrump (judgement: "
                      "partner's overcall has bought the partscore)")
    if L >= 3 and _raise_over_their_strong_notrump(c, s):
        return PASS, (f"3+ {SUIT_NAMES[s]}, {f.support_points(s)} support points: no raise to the three level over "
                      "their strong notrump (judgement: the overcall has bought the partscore)")
    return PASS, "nothing to add to partner's overcall"


