"""Blackwood (SAYC booklet, "Slam bidding"): 4NT asks for aces.

Answers: 5C 0 or 4, 5D 1, 5H 2, 5S 3. The asker signs off at five of the agreed suit when
two aces are missing, bids six when one is missing, and seven with all four aces and the
values for a grand slam (37+ combined), or first 5NT, which promises all the aces and
asks for kings (6C 0/4, 6D 1, 6H 2, 6S 3); all the kings: seven. Gerber over notrump lives
in :mod:`notrump`; control-showing cue bids after Jacoby 2NT in :mod:`rebids`. Roman Key
Card Blackwood (1430) and the grand slam force are not adopted: they are not SAYC.
A 4NT that directly raises partner's natural notrump is quantitative, not Blackwood.
"""

from __future__ import annotations

from bidlab.agents.sayc.context import LV, NAMES, NT, ST, SUIT_NAMES, Ctx, bid
from bidlab.agents.sayc.engine import rule
from bidlab.agents.sayc.notrump import (
    NT_REBID_ACCEPT,
    quantitative_after_relay,
    quantitative_over_notrump_rebid,
)
from bidlab.bridge.calls import PASS

G = "slam"


def _partner_last_bid(c: Ctx):
    for call in reversed(c.partner_calls):
        if call.id >= 3:
            return call
    return None


def _is_blackwood(c: Ctx, asker_calls, other_calls) -> bool:
    """The asker's last bid was 4NT and was not a quantitative raise of natural notrump.

    4NT is quantitative only when it raises partner's notrump and our side has bid no
    suit (the uncontested 1NT-4NT and 2NT-4NT are answered by the notrump system), and
    directly over opener's 1NT rebid (1D 1H 1NT 4NT: ``notrump.quantitative_over_notrump_rebid``).
    """
    last = next((x for x in reversed(asker_calls) if x.id >= 3), None)
    if last is None or NAMES[last.id] != "4NT":
        return False
    prev_other = [x for x in other_calls if x.id >= 3]
    if prev_other and ST[prev_other[-1].id] == NT and LV[prev_other[-1].id] <= 3 and not c.our_suits:
        return False
    return not (quantitative_after_relay(c.ours) or quantitative_over_notrump_rebid(c.ours))


def fit_slam_try(low: int, mid: int, aces: int) -> str | None:
    """Why a hand with a known trump fit asks with Blackwood, or None: points once a fit is
    found (SAYC), ``low`` = my points plus partner's shown minimum, ``mid`` = plus the middle
    of his range, ``aces`` = the aces in my hand.

    31 opposite the minimum and 32 opposite the middle (issue 27 round eight). At exactly 30
    opposite the minimum, also with three aces of my own (the answer cannot leave us at five
    with two missing, and the aces are the controls a thin slam needs) or when the middle
    reaches 33: on 46,400 train-split deals solved double dummy, the suit games bid at 30
    this way made twelve tricks 63% of the time (82 games, +348 IMPs, 21 fewer contracts
    made); at 30 without either, 31% (issue 27 round twenty-four).
    """
    if low >= 31 and mid >= 32:
        return "31+ opposite partner's minimum"
    if low == 30 and aces >= 3:
        return "30 opposite partner's minimum and three aces of my own"
    if low == 30 and mid >= 33:
        return "30 opposite partner's minimum and 33 opposite the middle of his range"
    return None


def agreed_suit(c: Ctx) -> int | None:
    """Our side's trump suit: the last suit bid by our side in which we have a known fit."""
    best = None
    for s in range(4):
        if s in c.our_suits and c.fit(s) >= 8:
            if best is None or (s in (2, 3)) > (best in (2, 3)) or (
                (s in (2, 3)) == (best in (2, 3)) and c.fit(s) > c.fit(best)
            ):
                best = s
    return best


def own_trump_suit(c: Ctx) -> int | None:
    """My own long suit as trumps when no fit is agreed: six or more cards in a suit I have
    bid and partner has not (the longest; the higher of equals), not theirs."""
    best = None
    # the strong 2C opener's long suit counts before he has named it (2C 2NT: he is the
    # captain, and jumping to game in it hid a slam opposite the positive answer)
    mine = range(4) if c.opener == 0 and c.ours[:1] == ("2C",) else c.me.bid_suits
    for s in mine:
        if c.f.lengths[s] >= 6 and s not in c.their_suits and s not in c.partner.bid_suits and (
            best is None or (c.f.lengths[s], s) > (c.f.lengths[best], best)
        ):
            best = s
    return best


def _blackwood_trump(c: Ctx) -> int | None:
    """The suit the asker places the slam in: the agreed fit, else his own long suit (the
    Blackwood without a fit of ``placement.reach_slam``), else None (notrump)."""
    trump = agreed_suit(c)
    return own_trump_suit(c) if trump is None else trump


def own_suit_slam_try(low: int, aces: int) -> str | None:
    """Why a hand that will play in its own long suit, with no fit agreed, asks with
    Blackwood, or None. The fit thresholds (:func:`fit_slam_try`) do not apply, and 33
    opposite partner's minimum left these hands in game (issue 27 round two). On the 46,400
    train-split deals solved double dummy (``sayc`` at all four seats, games bid by
    ``placement.bid_game`` in the bidder's own suit), 30+ opposite partner's minimum with two
    or more aces of my own made twelve tricks 63% of the time (115 games, +451 IMPs against
    the game, 30 fewer contracts made); with fewer aces 36%, and at 29 with two or more aces
    24% (issue 27 round twenty-eight). Two aces in my hand also leave a stop at five when the
    answer shows none (5C: pass in clubs, 5D in diamonds)."""
    if low >= 30 and aces >= 2:
        return f"{low} opposite partner's minimum and {aces} aces of my own, playing in my long suit"
    return None


@rule(G)
def answer_quantitative_over_notrump_rebid(c: Ctx):
    """Opener's answer to responder's quantitative 4NT over his 1NT rebid (1D 1H 1NT 4NT):
    6NT in the upper part of the 12-14 (``notrump.NT_REBID_ACCEPT``), else pass."""
    if c.opener != 0 or len(c.ours) != 4 or not quantitative_over_notrump_rebid(c.ours):
        return None
    if c.f.hcp >= NT_REBID_ACCEPT:
        return bid(6, NT), f"{c.f.hcp} HCP, the upper part of the 1NT rebid: accepts the quantitative 4NT (SAYC; judgement, from 13)"
    return PASS, f"{c.f.hcp} HCP, the bottom of the 1NT rebid: declines the quantitative 4NT (SAYC; judgement, from 13)"


@rule(G)
def answer_blackwood(c: Ctx):
    if not c.partner_calls or NAMES[c.partner_calls[-1].id] != "4NT":
        return None
    if not _is_blackwood(c, c.partner_calls, c.my_calls):
        return None
    a = c.f.aces
    s = (0, 1, 2, 3, 0)[a]
    return bid(5, s), f"{a} ace{'s' if a != 1 else ''} (SAYC Blackwood answer: 5C 0/4, 5D 1, 5H 2, 5S 3)"


@rule(G)
def place_after_blackwood(c: Ctx):
    if not c.my_calls or not c.partner_calls:
        return None
    if NAMES[c.my_calls[-1].id] != "4NT" or not _is_blackwood(c, c.my_calls, c.partner_calls):
        return None
    ans = c.partner_calls[-1]
    if ans.id < 3 or LV[ans.id] != 5 or ST[ans.id] == NT:
        return None
    shown = ST[ans.id]
    partner_aces = 4 if shown == 0 and c.f.aces == 0 else shown
    aces = c.f.aces + partner_aces
    trump = _blackwood_trump(c)
    strain = NT if trump is None else trump
    name = SUIT_NAMES[strain]
    if aces <= 2:
        if trump is not None and c.legal(bid(5, trump)):
            return bid(5, trump), f"two aces missing: signs off in 5 {name}"
        if trump is not None and ST[ans.id] == trump:
            return PASS, "two aces missing: plays partner's answer in our suit"
        return bid(5, NT) if trump is None else bid(6, trump), "two aces missing, no lower stop"
    est = c.f.hcp + c.partner.min_hcp + 2
    if aces == 4 and est >= 34 and trump is not None:
        return bid(5, NT), f"all the aces, {est} points with a {name} fit: 5NT asks for kings (SAYC)"
    if aces == 4 and est >= 36:
        return bid(7, strain), f"all the aces and grand-slam values: 7 {name}"
    if aces == 4:
        return bid(6, strain), f"all the aces, no grand-slam values: small slam in {name}"
    return bid(6, strain), f"{4 - aces} ace missing: small slam in {name}"


def _asked_kings(asker_calls) -> bool:
    bids = [x for x in asker_calls if x.id >= 3]
    return len(bids) >= 2 and NAMES[bids[-1].id] == "5NT" and NAMES[bids[-2].id] == "4NT"


@rule(G)
def answer_king_ask(c: Ctx):
    """5NT after Blackwood promises all the aces and asks for kings: 6C 0 (or 4), 6D 1,
    6H 2, 6S 3 (SAYC booklet, "Slam bidding")."""
    if not c.partner_calls or NAMES[c.partner_calls[-1].id] != "5NT" or not _asked_kings(c.partner_calls):
        return None
    k = c.f.kings
    return bid(6, (0, 1, 2, 3, 0)[k]), f"{k} king{'s' if k != 1 else ''} (SAYC answer to the 5NT king ask)"


@rule(G)
def place_after_king_ask(c: Ctx):
    """All the aces and all the kings: grand slam; otherwise the small slam."""
    if not c.my_calls or not _asked_kings(c.my_calls) or not c.partner_calls:
        return None
    ans = c.partner_calls[-1]
    if ans.id < 3 or LV[ans.id] != 6 or ST[ans.id] == NT:
        return None
    shown = ST[ans.id]
    kings = c.f.kings + (4 if shown == 0 and c.f.kings == 0 else shown)
    trump = _blackwood_trump(c)
    strain = NT if trump is None else trump
    if kings == 4:
        return bid(7, strain), f"all the aces and kings: grand slam in {SUIT_NAMES[strain]}"
    for cb in (bid(6, strain), bid(6, NT)):
        if c.legal(cb):
            return cb, f"{4 - kings} king missing: small slam in {SUIT_NAMES[ST[cb.id]]}"
    return PASS, f"{4 - kings} king missing: plays the small slam"
