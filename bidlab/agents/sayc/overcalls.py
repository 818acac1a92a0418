"""Our first action after their opening (SAYC booklet, "Defensive bidding" and "Doubles").

The overcall group, in the order the bidder tries it: too weak to act, lead-directing
doubles of their artificial bids, the defence to their 1NT (penalty double 15+, natural
overcalls), notrump overcalls (15-18 balanced with a stopper, 11-14 balancing), 3NT over
a preempt, the strong takeout double (17+), Michaels and the unusual 2NT (5-5), weak jump
overcalls, takeout doubles (opening values, short in their suit; a king lighter in the
balancing seat), simple overcalls (8-16 at the one level, 10-16 at the two level; lighter
when balancing). Split out of :mod:`~bidlab.agents.sayc.competitive` (issue 27).
"""

from __future__ import annotations

from bidlab.agents.sayc.context import LV, MAJORS, NAMES, NT, ST, SUIT_NAMES, Ctx, bid
from bidlab.agents.sayc.engine import rule
from bidlab.agents.sayc.evaluation import SIX_CARD_SUIT_OVER_1NT_HCP, suit_good_enough
from bidlab.bridge.calls import DOUBLE, PASS

OV = "overcall"


def _their_last_suit(c: Ctx) -> int | None:
    b = c.last_bid
    return ST[b.id] if b is not None and ST[b.id] < NT and c.last_bidder in (1, 3) else None


def _balancing(c: Ctx) -> bool:
    """(1x) P (P) ?: their opening would be passed out if I pass."""
    n = len(c.calls)
    return n >= 3 and c.last_bidder == 1 and c.calls[-1].id == 0 and c.calls[-2].id == 0


def _unbid(c: Ctx) -> list[int]:
    return [s for s in range(4) if s not in c.their_suits]


# -- our first action after their opening ---------------------------------------------------------

@rule(OV)
def too_weak_to_act(c: Ctx):
    """Under 5 HCP, or under 8 without a five-card suit: no overcall, double or cue bid fits."""
    f = c.f
    if f.hcp < 5 or (f.hcp < 8 and f.shape[0] < 5):
        return PASS, f"{f.hcp} HCP: too weak to enter the auction"


def _their_calls(c: Ctx) -> list[str]:
    """The opponents' bids (no passes or doubles), in order."""
    n = len(c.calls)
    return [NAMES[x.id] for j, x in enumerate(c.calls) if x.id >= 3 and (j - n) % 4 in (1, 3)]


def _artificial_pattern(b: list[str]) -> bool:
    """Their bids ``b``, in order, end in an artificial bid: a strong 2C opening, the 2D
    waiting response, Stayman, a Jacoby transfer, Gerber, a Blackwood answer."""
    last = b[-1]
    if b == ["2C"] or b[:2] == ["2C", "2D"] and len(b) == 2:
        return True
    if len(b) == 2 and b[0] in ("1NT", "2NT"):
        lv = int(b[0][0]) + 1
        if last in (f"{lv}C", f"{lv}D", f"{lv}H", "4C"):
            return True
    return len(b) >= 2 and b[-2] == "4NT" and last[0] == "5" and not last.endswith("NT")


def _their_artificial_bid(c: Ctx) -> int | None:
    """The strain of their last bid when it was artificial (:func:`_artificial_pattern`), else None."""
    if c.last_bidder not in (1, 3) or c.doubled:
        return None
    lv = LV[c.last_bid.id]
    if lv not in (2, 3, 4, 5) or lv < 5 and NAMES[c.opening.id] not in ("2C", "1NT", "2NT"):
        return None  # the cheap test first: this runs on every overcall turn
    return ST[c.last_bid.id] if _artificial_pattern(_their_calls(c)) else None


def partner_doubled_artificial_bid(c: Ctx) -> bool:
    """Partner's first call is a double straight over their artificial response (Stayman or
    a transfer over their notrump, the 2D waiting answer to 2C, a Blackwood answer): the
    lead-directing double of :func:`double_artificial_bid` (length and top honours in the
    suit they bid), not a takeout double, so his partner must not answer it as one. A
    double of their 2C opening is left out: it may be natural_action_over_2c's takeout."""
    n = len(c.calls)
    p = next((j for j in range(n) if (j - n) % 4 == 2 and c.calls[j].id != 0), None)
    if p is None or p == 0 or not c.calls[p].is_double or c.calls[p - 1].id < 3:
        return False
    theirs = [j for j in range(p) if c.calls[j].id >= 3]
    if (theirs[0] - n) % 4 not in (1, 3):
        return False  # our side opened: their bid is an overcall, not a convention of theirs
    b = [NAMES[c.calls[j].id] for j in theirs if (j - n) % 4 in (1, 3)]
    return b != ["2C"] and _artificial_pattern(b)


@rule(OV)
def double_artificial_bid(c: Ctx):
    """Their last bid was artificial: double it with a strong holding in that suit (asks
    for the lead), otherwise pass (standard practice)."""
    s = _their_artificial_bid(c)
    if s is None:
        return None
    f = c.f
    if f.lengths[s] >= 5 and f.top3[s] >= 2 or f.lengths[s] >= 4 and f.top3[s] == 3:
        return DOUBLE, f"{f.lengths[s]} {SUIT_NAMES[s]} with top honours: lead-directing double of their artificial {c.last_bid}"
    if _their_2c_opening(c):
        return None  # natural_action_over_2c decides
    return PASS, f"their {c.last_bid} is artificial and I hold nothing to show"


def _their_2c_opening(c: Ctx) -> bool:
    """Their only bid is a 2C opening, and it is the last bid."""
    return c.last_bid is c.opening and c.last_bidder in (1, 3) and not c.doubled \
        and NAMES[c.opening.id] == "2C" and _their_calls(c) == ["2C"]


@rule(OV)
def natural_action_over_2c(c: Ctx):
    """Their 2C opening: suit overcalls are natural (standard defence to a strong 2C), and
    a takeout double or notrump follows the usual rules when the 2C cannot be the
    booklet's strong opening: when opener's partner passed it (SAYC's 2C is forcing, so
    a passed 2C is a natural club contract) or when I hold 12-16 HCP (the count: opener's
    22+ would leave 6 or fewer for the other two hands). With 17 a real strong 2C is
    still possible (a 22-count and my 17 leave one point out) and my hand defends better
    than it bids: the usual rules wait (it keeps a sound 2C from being overcalled in 2NT).
    With 18+ the count rules a 22+ 2C out altogether (40 HCP in the pack), so the hand acts
    again (round four: the 18+ hands that passed lost 6.9 IMPs a table against par; acting
    pays +0.005/+0.004 against nn:rl on train/validation).
    In the pass-out seat (2C P P) partner may be sitting with values: he passes a 2C that
    could be strong with up to 11 (or 17), so 11+ HCP with three or more cards in each other
    suit balances with a takeout double even with three clubs (round seven: passing it let
    their partscore play where the values were ours).
    Judgement of issue 27 ("passing where a bid or double was expected"): checked to pay
    on the train and validation splits before it was kept."""
    if not _their_2c_opening(c):
        return None
    natural = _balancing(c) or 12 <= c.f.hcp <= 16 or c.f.hcp >= 18
    rules = ((notrump_overcall, strong_takeout_double, takeout_double, weak_jump_overcall, simple_overcall)
             if natural else (weak_jump_overcall, simple_overcall))
    why = "their passed 2C is a natural club contract" if _balancing(c) else (
        "their 2C cannot be strong by the count" if natural else "suit overcalls of their 2C are natural")
    for fn in rules:
        p = fn(c)  # clubs count as their suit already: the auction reading records every strain bid
        if p is not None and c.legal(p[0]) and p[0].id != 0:
            return p[0], f"{p[1]}; {why}"
    f = c.f
    if _balancing(c) and f.hcp >= 11 and f.lengths[0] <= 3 and min(f.lengths[1:]) >= 3:
        return DOUBLE, (f"{f.hcp} HCP, three or more cards in each other suit: balancing takeout double of "
                        f"their passed 2C (partner may be sitting with values); {why}")
    if 12 <= c.f.hcp <= 16 and not _balancing(c):
        # by the count the values are ours: a five-card suit is worth showing at the two
        # level even without the suit quality a two-level overcall of a real opening wants
        s = max((3, 2, 1), key=lambda x: (c.f.lengths[x], x))
        if c.f.lengths[s] >= 5 and c.legal(bid(2, s)):
            return bid(2, s), f"{c.f.hcp} HCP, five {SUIT_NAMES[s]}: natural overcall; {why}"
    return PASS, f"no sound action over their 2C ({why})"


@rule(OV)
def penalty_double_of_1nt(c: Ctx):
    if c.last_bid is not None and c.last_bid is c.opening and NAMES[c.last_bid.id] == "1NT" and c.f.hcp >= 15:
        return DOUBLE, "15+ HCP: penalty double of 1NT (SAYC)"


@rule(OV)
def overcall_over_1nt(c: Ctx):
    if c.last_bid is None or c.last_bid is not c.opening or NAMES[c.last_bid.id] != "1NT":
        return None
    for s in (3, 2, 1, 0):
        if c.f.lengths[s] >= 6 and c.f.good_suit(s) and c.f.hcp >= 8 or c.f.lengths[s] >= 5 and c.f.top3[s] >= 2 and c.f.hcp >= 11:
            return bid(2, s), f"good {c.f.lengths[s]}-card {SUIT_NAMES[s]}: natural overcall of 1NT"
    for s in (3, 2, 1, 0):
        if c.f.lengths[s] >= 6 and c.f.hcp >= SIX_CARD_SUIT_OVER_1NT_HCP:
            return bid(2, s), (f"{c.f.lengths[s]}-card {SUIT_NAMES[s]}, {c.f.hcp} HCP: natural overcall of 1NT "
                               "(judgement: a six-card suit plays better than their notrump)")
    return PASS, "no safe action over 1NT"


@rule(OV)
def notrump_overcall(c: Ctx):
    f = c.f
    if not f.balanced or not c.their_suits or len(c.their_suits) > 1 or ST[c.last_bid.id] == NT:
        return None
    s = next(iter(c.their_suits))
    if not f.stoppers[s]:
        return None
    lv = LV[c.last_bid.id]
    if _balancing(c) and lv == 1 and 11 <= f.hcp <= 14:
        return bid(1, NT), "11-14 HCP, balanced, a stopper: balancing 1NT"
    if not _balancing(c) and 15 <= f.hcp <= 18 and lv <= 2:
        return bid(lv, NT), f"15-18 HCP, balanced, a stopper in {SUIT_NAMES[s]} (SAYC {lv}NT overcall)"
    if _balancing(c) and lv == 2 and 15 <= f.hcp <= 18 and f.lengths[s] >= 3:
        # their two-bid in the pass-out seat: with three or more of their suit the hand has
        # no takeout double and passing sold out with 15-18 (issue 27, round thirty-two: train
        # DD with sayc at all four seats, +103 IMPs on 33 of 46,000 deals); the advancer reads
        # it as the 15-18 2NT over a weak two (advance_notrump_overcall)
        return bid(2, NT), (f"{f.hcp} HCP, balanced, {f.lengths[s]} {SUIT_NAMES[s]} with a stopper: balancing 2NT "
                            "over their two-bid (15-18, the notrump overcall's range; no takeout double with "
                            "length in their suit)")


def _short_in_theirs(c: Ctx) -> bool:
    return all(c.f.lengths[s] <= 2 for s in c.their_suits)


@rule(OV)
def three_nt_over_preempt(c: Ctx):
    t = _their_last_suit(c)
    if t is None or LV[c.last_bid.id] != 3:
        return None
    if 16 <= c.f.hcp <= 21 and c.f.stoppers[t] and c.f.shortest() >= 2:
        return bid(3, NT), "16+ HCP with a stopper: 3NT over their preempt"


def game_over_preempt_losers(level: int) -> int:
    """The most losers with which a six-card major jumps to game over their two- or three-bid.

    Over a weak two the simple overcall still leaves partner room to raise, so the jump
    wants four losers; over a three-bid the overcall is already one level short of game and
    partner rarely raises it, so five will do (issue 27, round thirty-two: with sayc at all
    four seats on the train deals, double dummy, the jump paid +448 IMPs on 127 of 46,000
    deals at these limits; with five losers over a weak two it was about even)."""
    return 4 if level == 2 else 5


@rule(OV)
def game_over_preempt(c: Ctx):
    """Their weak two or three-bid, and I hold a six-card major with few losers: bid the
    game directly (SAYC: over a preempt bid what you expect to make; partner cannot raise a
    simple overcall that far on the values he needs to keep it alive)."""
    t = _their_last_suit(c)
    if t is None or c.last_bid is not c.opening or LV[c.opening.id] not in (2, 3) or NAMES[c.opening.id] == "2C":
        return None
    f = c.f
    lv = LV[c.opening.id]
    for s in (3, 2):
        if s != t and f.lengths[s] >= 6 and f.losing_tricks <= game_over_preempt_losers(lv) and c.legal(bid(4, s)):
            return bid(4, s), (f"six {SUIT_NAMES[s]}, {f.losing_tricks} losers (losing-trick count): game over their "
                               f"{c.opening} (over a preempt bid what you expect to make)")
    return None


@rule(OV)
def strong_takeout_double(c: Ctx):
    t = _their_last_suit(c)
    if t is None or LV[c.last_bid.id] > 4:
        return None
    f = c.f
    if f.hcp >= 19 or (f.hcp >= 17 and max(f.lengths) >= 5 and f.lengths[t] <= 3):
        return DOUBLE, f"{f.hcp} HCP, too strong to overcall: double first (SAYC)"


def _single_one_level_suit(c: Ctx) -> int | None:
    """Their one suit, when they opened it at the 1 level and we are not balancing:
    the setting of the two-suited overcalls (Michaels, unusual 2NT)."""
    if _balancing(c) or c.last_bid is None or LV[c.last_bid.id] != 1 or len(c.their_suits) != 1:
        return None
    return _their_last_suit(c)


@rule(OV)
def michaels_cue_bid(c: Ctx):
    t = _single_one_level_suit(c)
    if t is None:
        return None
    f = c.f
    if not 8 <= f.hcp <= 13:
        return None
    if t < 2 and f.lengths[2] >= 5 and f.lengths[3] >= 5:
        return bid(2, t), "5-5 in the majors: Michaels cue bid"
    if t >= 2 and f.lengths[5 - t] >= 5 and max(f.lengths[0], f.lengths[1]) >= 5:
        return bid(2, t), f"five {SUIT_NAMES[5 - t]} and a five-card minor: Michaels cue bid"


@rule(OV)
def unusual_2nt(c: Ctx):
    t = _single_one_level_suit(c)
    if t is None:
        return None
    f = c.f
    low = [s for s in range(4) if s != t][:2]
    if 6 <= f.hcp <= 12 and all(f.lengths[s] >= 5 for s in low):
        return bid(2, NT), f"5-5 in {SUIT_NAMES[low[0]]} and {SUIT_NAMES[low[1]]}: unusual 2NT"


@rule(OV)
def weak_jump_overcall(c: Ctx):
    if _balancing(c) or c.last_bid is None or LV[c.last_bid.id] > 2:
        return None
    f = c.f
    if not 5 <= f.hcp <= 10:
        return None
    for s in (3, 2, 1, 0):
        if s in c.their_suits:
            continue
        lv = c.cheapest_level(s) + 1
        if not (f.lengths[s] >= 6 and lv == 2 or f.lengths[s] >= 7 and lv == 3):
            continue
        if f.good_suit(s):
            return bid(lv, s), f"5-10 HCP, good {f.lengths[s]}-card {SUIT_NAMES[s]}: weak jump overcall (SAYC)"
        # as for preempts: not vulnerable the Suit Quality Test one trick short will do (rule
        # of 2-3-4), vulnerable against not the booklet's good suit (issue 27 judgement,
        # checked in double-dummy IMPs on the train and validation splits)
        if not (c.we_vul and not c.they_vul) and suit_good_enough(f.suit_masks[s], lv - (0 if c.we_vul else 1)):
            return bid(lv, s), (f"5-10 HCP, {f.lengths[s]}-card {SUIT_NAMES[s]} of suit quality "
                                f"{f.suit_quality(s)} (Suit Quality Test, rule of 2-3-4): weak jump overcall")


@rule(OV)
def takeout_double(c: Ctx):
    """Opening values short in their suit; in the pass-out seat a king lighter, and any
    balanced 15-18 (too strong for the balancing 1NT, which shows 11-14) doubles first
    rather than let their one-bid play: it paid on the train and validation splits."""
    t = _their_last_suit(c)
    if t is None or LV[c.last_bid.id] > 3:
        return None
    f = c.f
    # balance lightly only when their opening would be passed out
    light = _balancing(c) and len([x for x in c.calls if x.id]) == 1
    need = 9 if light else (13 if LV[c.last_bid.id] >= 3 else 12)  # balancing: a king lighter
    if light and LV[c.last_bid.id] == 1 and f.balanced and 15 <= f.hcp <= 18:
        return DOUBLE, (f"{f.hcp} HCP balanced, too strong for a balancing 1NT (11-14): "
                        "double, then notrump")
    if f.hcp < need or not _short_in_theirs(c):
        return None
    unbid = _unbid(c)
    long_suits = [s for s in unbid if f.lengths[s] >= 5]
    if f.hcp < 17 and long_suits and not any(f.lengths[s] >= 4 for s in unbid if s in MAJORS and s not in long_suits):
        return None  # a five-card suit and no other four-card major: overcall instead
    short_unbid = [s for s in unbid if f.lengths[s] < 3]
    if not short_unbid or (f.hcp >= 15 and len(short_unbid) == 1 and short_unbid[0] < 2):
        return DOUBLE, f"{f.hcp} HCP, short in their suit, support for the unbid suits: takeout double (SAYC)"


def _they_have_a_fit(c: Ctx) -> bool:
    """They opened a suit and raised it: by the Law of Total Tricks our side has a fit too,
    so passing them out at a low level costs more than usual."""
    b = _their_calls(c)
    return len(b) >= 2 and len(c.their_suits) == 1 and all(x[1:] == b[0][1:] for x in b)


def _overcall_judgement(c: Ctx, s: int, lv: int, bal: bool) -> str | None:
    """Why a simple overcall in ``s`` at ``lv`` is sound, or None when it is not.

    The booklet's ranges (8-16 HCP at the one level, 10-16 at the two level, a good six-card
    suit at the three level) come first and stay the floor. Where it is silent about the
    suit, two judgement rules of issue 27 (checked to pay in double-dummy IMPs on the train
    and validation splits): Klinger's Suit Quality Test (length + honours >= the 8 tricks
    bid) stands in for two top honours at the two level, so a long suit with one honour is
    not silenced; and when they have opened and raised (by the Law of Total Tricks we then
    have a fit too), a five-card suit with two top honours is enough at the three level in
    a hand of at most five losers (losing-trick count). Over their weak two (round four), a
    five-card suit with three of the top five honours and 14+ HCP overcalls at the three
    level: the suit plays for four tricks opposite nothing, and passing it was the
    costliest pass over their weak twos. A six-card suit with two of the top five honours
    overcalls at the three level with 14+ HCP (round seven): a 16-count with AJ9876 passed
    their 2S, where the hand is too strong to sell out and has no double."""
    f = c.f
    if lv == 1:
        # in the pass-out seat a king lighter (SAYC practice: balance with 3 HCP less)
        if (5 if bal else 8) <= f.hcp <= 16 and (f.top5[s] >= 2 or f.hcp >= 11):
            return "overcall (SAYC)"
    elif lv == 2:
        if (7 if bal else 10) + (1 if c.we_vul else 0) <= f.hcp <= 16:
            if f.top5[s] >= 2:
                return "overcall (SAYC)"
            if suit_good_enough(f.suit_masks[s], 2):
                return f"suit quality {f.suit_quality(s)} passes the Suit Quality Test: overcall"
        if f.lengths[s] >= 6 and (8 if not c.we_vul else 9) <= f.hcp <= 9 and not bal \
                and suit_good_enough(f.suit_masks[s], 2) and f.top5[s] >= 2:
            # a six-card suit that passes the Suit Quality Test plays for five tricks opposite
            # nothing: two points below the booklet's 10 at the two level (too strong for
            # nothing, too long to pass; the weak jump is a level higher)
            return (f"six-card suit of quality {f.suit_quality(s)} (Suit Quality Test): two-level overcall "
                    "with 8-9 HCP")
    elif lv == 3 and 13 <= f.hcp <= 17:
        if f.lengths[s] >= 6 and f.good_suit(s):
            return "overcall (SAYC)"
        if f.lengths[s] >= 6 and f.hcp >= 14 and f.top5[s] >= 2:
            return ("a six-card suit with two of the top five honours and 14+ HCP: the values make up for the "
                    "suit quality at the three level")
        if f.lengths[s] == 5 and f.top5[s] >= 3 and f.hcp >= 14 and LV[c.last_bid.id] == 2:
            return "a strong five-card suit (three of the top five honours): overcall their weak two"
        if _they_have_a_fit(c) and f.top5[s] >= 2 and f.losing_tricks <= 5:
            return (f"{f.losing_tricks} losers (losing-trick count) and they have a fit "
                    "(Law of Total Tricks): overcall")
    return None


@rule(OV)
def simple_overcall(c: Ctx):
    if c.last_bid is None or c.last_bidder not in (1, 3):
        return None
    f = c.f
    bal = _balancing(c)
    best, best_why = None, ""
    for s in (3, 2, 1, 0):
        if s in c.their_suits or f.lengths[s] < 5:
            continue
        why = _overcall_judgement(c, s, c.cheapest_level(s), bal)
        if why is not None and (best is None or f.lengths[s] > f.lengths[best]):
            best, best_why = s, why
    if best is None:
        return None
    lv = c.cheapest_level(best)
    return bid(lv, best), f"{f.hcp} HCP, {f.lengths[best]}-card {SUIT_NAMES[best]}: {best_why}"


@rule(OV)
def pass_no_overcall(c: Ctx):
    return PASS, "no sound overcall or double"

