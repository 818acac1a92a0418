"""What each call shows in SAYC: one small reader per family of calls.

:func:`read_call` updates one seat's :class:`Shown` (an HCP range, minimum suit lengths,
balance, the suits it bid) with what a call means at its point in the auction, using the
ranges of the ACBL SAYC System Booklet (revised January 2006). It picks a reader by the
kind of call, in this order (the first reader that recognises the call reads it):

* the seat's first call before anyone opened (:func:`_read_opening_seat`): "Opening bids";
* a later pass (:func:`_read_later_pass`) and a redouble (:func:`_read_redouble`);
* our conventions (:func:`_read_conventional`): Stayman, transfers, Gerber, Blackwood
  answers, the 2C waiting response, Jacoby 2NT rebids, the two-suited overcalls;
* a direct two-suited overcall (:func:`_read_two_suited`): Michaels, the unusual 2NT;
* advancer's first bid (:func:`_read_advance`): "Responses to takeout doubles" and
  "Advancing overcalls";
* a double (:func:`_read_double`): takeout, negative, balancing;
* responder's natural suit bid over partner's 1NT (:func:`_read_suit_over_notrump`);
* a bid in partner's suit (:func:`_read_raise`), in notrump (:func:`_read_notrump`), in
  their suit (:func:`_read_cue_bid`), or in a suit of our own (:func:`_read_suit_bid`:
  the length it shows, then the strength of an overcall, a response, responder's
  rebid or opener's rebid).

Seats are absolute here (the reading is shared by all four seats); ``rel`` is the seat
that made the call. The readings are coarse on purpose: they are what the bidder's
rules ask about partner ("has he shown four spades? 12-14?"), not a full inference.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bidlab.agents.sayc.evaluation import (
    SEMI_BALANCED_NT_REBID_HCP,
    VALUES_DOUBLE_HCP,
    WEAK_TWO_MINIMUM_HCP,
    doubler_second_double_hcp,
)
from bidlab.bridge.calls import Call

NT = 4
MAJORS = (2, 3)
MINORS = (0, 1)

#: Level, strain (9 for pass, X and XX) and name of each call id, so that rules never
#: build Strain enums on the hot path.
LV = tuple(0 if i < 3 else (i - 3) // 5 + 1 for i in range(38))
ST = tuple(9 if i < 3 else (i - 3) % 5 for i in range(38))
NAMES = tuple(str(Call(i)) for i in range(38))


@dataclass(slots=True)
class Shown:
    """What one seat's calls have promised: an HCP range and minimum suit lengths."""

    min_hcp: int = 0
    max_hcp: int = 37
    min_len: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    balanced: bool = False
    bid_suits: list[int] = field(default_factory=list)  # suits this seat bid naturally, in order
    acted: bool = False  # made any call but pass

    def limit(self, lo: int, hi: int) -> None:
        self.min_hcp = max(self.min_hcp, lo)
        self.max_hcp = min(self.max_hcp, hi)
        if self.min_hcp > self.max_hcp:  # contradictory calls: trust the latest one
            self.min_hcp, self.max_hcp = lo, hi

    def length(self, suit: int, n: int) -> None:
        if n > self.min_len[suit]:
            self.min_len[suit] = min(n, 13)

    @property
    def mid_hcp(self) -> int:
        return (self.min_hcp + min(self.max_hcp, self.min_hcp + 8)) // 2

    def copy(self) -> Shown:
        return Shown(self.min_hcp, self.max_hcp, list(self.min_len), self.balanced, list(self.bid_suits), self.acted)


class _Turn:
    """One call in its setting: who made it, what was bid before, and its level and strain."""

    __slots__ = ("call", "rel", "s", "shown", "per_seat", "opener", "opening", "last_bid", "partner_rel",
                 "pshown", "first_action", "lv", "strain", "jump", "n_before", "balancing", "last_bidder")

    def __init__(self, call, rel, shown, per_seat, opener, opening, last_bid, first_action, last_bidder=None):
        self.call, self.rel, self.shown, self.per_seat = call, rel, shown, per_seat
        self.opener, self.opening, self.last_bid = opener, opening, last_bid
        self.s = shown[rel]
        self.partner_rel = (rel + 2) % 4
        self.pshown = shown[self.partner_rel]
        self.first_action = first_action
        self.lv, self.strain = LV[call.id], ST[call.id]
        self.jump = last_bid is not None and self.lv > LV[last_bid.id] + (1 if self.strain <= ST[last_bid.id] else 0)
        self.n_before = len(per_seat[rel])  # this seat's calls before this one
        # the last bid was LHO's and partner has not acted: partner and RHO passed it
        self.balancing = last_bidder == (rel + 1) % 4 and not self.pshown.acted
        self.last_bidder = last_bidder

    @property
    def by_opener(self) -> bool:
        return self.opener == self.rel

    @property
    def by_responder(self) -> bool:
        return self.opener == self.partner_rel

    @property
    def by_defender(self) -> bool:
        return self.opener % 2 != self.rel % 2


def read_call(call, rel, shown, per_seat, opener, opening, last_bid, last_bidder) -> None:
    """Update ``shown[rel]`` with what ``call`` means in SAYC (coarsely) at this point."""
    s = shown[rel]
    if opener is None:
        _read_opening_seat(call, s)
        return
    if call.id == 0:
        _read_later_pass(s, rel, per_seat, opener, last_bidder)
        return
    if call.id == 2:
        _read_redouble(s)
        return
    if call.id >= 3 and _read_conventional(call, rel, shown, per_seat, opener, opening, last_bid):
        s.acted = True
        return
    t = _Turn(call, rel, shown, per_seat, opener, opening, last_bid, first_action=not s.acted,
              last_bidder=last_bidder)
    s.acted = True
    if call.id == 1:
        _read_double(t)
        return
    for reader in _BID_READERS:
        if reader(t):
            return


# -- before the opening ------------------------------------------------------------------------

_OPENING_MEANING = {
    # strain-level: (min hcp, max hcp, min length in the bid suit, balanced)  ["Opening bids"]
    "1C": (12, 21, 3, False), "1D": (12, 21, 3, False), "1H": (12, 21, 5, False),
    "1S": (12, 21, 5, False), "1NT": (15, 17, 0, True), "2C": (22, 37, 0, False),
    "2D": (5, 11, 6, False), "2H": (5, 11, 6, False), "2S": (5, 11, 6, False),
    "2NT": (20, 21, 0, True), "3NT": (25, 27, 0, True),
}


def _read_opening_seat(call, s: Shown) -> None:
    """A pass before anyone opened denies an opening; an opening bid shows the chart's range."""
    if call.id == 0:
        s.limit(0, 11)
        return
    s.acted = True
    text = NAMES[call.id]
    lv, strain = LV[call.id], ST[call.id]
    if text in _OPENING_MEANING:
        lo, hi, n, bal = _OPENING_MEANING[text]
        s.limit(lo, hi)
        if strain < NT:
            s.length(strain, n)
            if text != "2C":
                s.bid_suits.append(int(strain))
        s.balanced = bal
    elif strain < NT:  # preempts
        s.limit(4, 10)
        s.length(strain, 4 + lv)
        s.bid_suits.append(int(strain))


def _read_later_pass(s: Shown, rel: int, per_seat, opener: int, last_bidder) -> None:
    """Responder's first pass of partner's opening: too weak to respond (0-5, or 0-9 over
    their interference, where a free bid would show values)."""
    # A passed hand too (his first pass came before the opening): he would have answered
    # with 6+, or bid freely with 10-11 over their interference. Read 0-11 only, his later
    # forced answer to opener's reopening double was read 10-11 and opener bid 3NT on
    # 16-19 HCP (Pass Pass 1C 2D Pass Pass X Pass 2S: 32% made double dummy on the train
    # deals, 47 games; issue 27 round twenty-seven).
    if not s.acted and opener == (rel + 2) % 4 and all(x.id == 0 for x in per_seat[rel]):
        s.limit(0, 5 if last_bidder == opener else 9)


def _read_redouble(s: Shown) -> None:
    """A redouble shows 10+ HCP ("Competitive bidding": redouble after a takeout double)."""
    s.acted = True
    s.limit(10, 37)


# -- conventions and advancing ------------------------------------------------------------------

def _read_conventional(call, rel, shown, per_seat, opener, opening, last_bid) -> bool:
    """Read an artificial bid of our conventions; True if ``call`` was one (nothing natural).

    Stayman and the transfers stay on over a double of our notrump (``last_bid`` is still
    the opening) and are off over a suit overcall ("Interference over 1NT")."""
    s = shown[rel]
    partner_rel = (rel + 2) % 4
    mine, partners = per_seat[rel], per_seat[partner_rel]
    p_last = partners[-1] if partners else None
    if p_last is None:
        return False
    name, p_name = NAMES[call.id], NAMES[p_last.id]
    if p_name == "4NT" and LV[call.id] == 5:
        return True  # Blackwood answer: aces, not a suit
    if p_name == "5NT" and LV[call.id] == 6 and len(partners) >= 2 and NAMES[partners[-2].id] == "4NT":
        return True  # answer to the 5NT king ask
    # ``mine`` may hold a pass made before partner opened: a passed hand plays Stayman and the
    # transfers too (read as a natural 2C 10+ or 2D, opener's later calls placed the contract
    # in the relay suit: issue 27 round forty-two)
    nt_opened_by_partner = opener == partner_rel and NAMES[opening.id] in ("1NT", "2NT") \
        and not any(m.id for m in mine) and last_bid is opening
    if nt_opened_by_partner and len(partners) == 1:
        lv = LV[opening.id] + 1
        if name == f"{lv}C":
            s.limit(8 if lv == 2 else 4, 37)  # Stayman
            return True
        if name in (f"{lv}D", f"{lv}H"):
            s.length(ST[call.id] + 1, 5)  # Jacoby transfer: the next suit up
            s.bid_suits.append(ST[call.id] + 1)
            return True
        if name in ("2S", "4C"):
            return True  # minor-suit puppet, Gerber
    if opener == rel and NAMES[opening.id] in ("1NT", "2NT") and len(mine) == 1:
        lv = LV[opening.id] + 1
        if p_name == f"{lv}C" and name == f"{lv}D":
            return True  # Stayman: no four-card major
        if p_name in (f"{lv}D", f"{lv}H") and ST[call.id] == ST[p_last.id] + 1:
            s.length(ST[call.id], 2)  # transfer completed (or super-accepted with four)
            if LV[call.id] > lv:
                s.length(ST[call.id], 4)
            return True
        if p_name in ("2S", "4C"):
            return True  # puppet and Gerber answers
    my_bids, p_bids = [m for m in mine if m.id], [x for x in partners if x.id]
    if opener == partner_rel and NAMES[opening.id] == "2C" and not my_bids and name == "2D":
        return True  # waiting response (also from a hand that passed before the 2C opening)
    # 2C 2D 2NT (22-24 balanced): the 2NT system is on, so Stayman and the transfers are
    # read as after a 2NT opening (the bidder plays them there; reading 3H as hearts made
    # a phantom diamond fit the Blackwood suit)
    if opener == partner_rel and [NAMES[x.id] for x in p_bids] == ["2C", "2NT"] and p_last is p_bids[-1] \
            and [NAMES[m.id] for m in my_bids] == ["2D"]:
        if name == "3C":
            return True  # Stayman
        if name in ("3D", "3H"):
            s.length(ST[call.id] + 1, 5)  # Jacoby transfer: the next suit up
            s.bid_suits.append(ST[call.id] + 1)
            return True
    if opener == rel and [NAMES[m.id] for m in my_bids] == ["2C", "2NT"] and len(p_bids) == 2 \
            and NAMES[p_bids[0].id] == "2D" and p_last is p_bids[-1]:
        if p_name == "3C" and name == "3D":
            return True  # Stayman: no four-card major
        if p_name in ("3D", "3H") and ST[call.id] == ST[p_last.id] + 1:
            s.length(ST[call.id], 2)  # transfer completed
            return True
    if opener == partner_rel and LV[call.id] == 2 and ST[call.id] < NT:
        seq = [x for x in (partners[0], *[m for m in mine if m.id][:1], *partners[1:2]) if x.id >= 3]
        bids_mine = [m for m in mine if m.id]
        if len(bids_mine) == 1 and len([x for x in partners if x.id]) == 2 and len(seq) == 3 \
                and all(LV[x.id] == 1 and ST[x.id] < NT for x in seq) and len({ST[x.id] for x in seq}) == 3 \
                and ST[call.id] not in {ST[x.id] for x in seq}:
            s.limit(12, 37)  # fourth suit forcing: values, not length
            return True
    if opener == rel and len(mine) == 1 and NAMES[opening.id] in ("1H", "1S") and p_name == "2NT" \
            and LV[call.id] == 3 and ST[call.id] not in (ST[opening.id], NT):
        return True  # Jacoby 2NT rebid: shortness
    if opener == rel and len(mine) == 1 and NAMES[opening.id] in ("1H", "1S") and p_name == "2NT" \
            and (ST[call.id] == ST[opening.id] and LV[call.id] in (3, 4) or name == "3NT"):
        # Jacoby 2NT rebids without shortness: 3M 18+, 3NT 15-17, 4M minimum
        s.limit(*{3: (18, 21), 4: (12, 14)}[LV[call.id]] if name != "3NT" else (15, 17))
        return True
    if opener == rel and len(mine) == 1 and NAMES[opening.id] in ("1H", "1S") and p_name == "2NT" \
            and LV[call.id] == 4 and ST[call.id] not in (ST[opening.id], NT):
        s.length(ST[call.id], 5)  # Jacoby 2NT rebid: a good five-card side suit
        return True
    return False


def _two_suits(call, opening) -> tuple[int, int] | None:
    """The suits a direct Michaels cue bid or unusual 2NT over a one-level suit shows."""
    if opening is None or LV[opening.id] != 1 or ST[opening.id] == NT or call.id < 3 or LV[call.id] != 2:
        return None
    t = ST[opening.id]
    if ST[call.id] == t:  # Michaels: both majors over a minor, the other major over a major
        return (2, 3) if t < 2 else (5 - t, -1)
    if ST[call.id] == NT:  # unusual 2NT: the two lowest unbid suits
        low = [x for x in range(4) if x != t][:2]
        return low[0], low[1]
    return None


def _read_two_suited(t: _Turn) -> bool:
    """A direct Michaels cue bid (8-13, 5-5) or unusual 2NT (6-12, 5-5) over their one-level
    suit opening ("Michaels cue-bid", "Unusual notrump"); -1 stands for an unknown minor."""
    if not (t.first_action and t.by_defender and not t.pshown.acted and t.n_before == 0):
        return False
    if t.last_bid is not t.opening:
        return False
    suits = _two_suits(t.call, t.opening)
    if suits is None:
        return False
    t.s.limit(*((6, 12) if t.strain == NT else (8, 13)))
    for x in suits:
        if x >= 0:
            t.s.length(x, 5)
            t.s.bid_suits.append(x)
    return True


def _shown_by_two_suited_bid(t: _Turn) -> bool:
    """This seat's first bid was a Michaels cue bid or unusual 2NT that showed ``t.strain``."""
    first = next((c for c in t.per_seat[t.rel] if c.id >= 3), None)
    suits = None if first is None else _two_suits(first, t.opening)
    return suits is not None and t.strain in suits


def _read_advance(t: _Turn) -> bool:
    """Advancer's first bid after partner's takeout double or suit overcall (SAYC ranges)."""
    if not (t.first_action and t.by_defender and t.pshown.acted):
        return False
    p_action = next((x for x in t.per_seat[t.partner_rel] if x.id), None)
    if p_action is None:
        return False
    s, lv, strain, last_bid, shown = t.s, t.lv, t.strain, t.last_bid, t.shown
    if _two_suits(p_action, t.opening) is not None and strain in t.pshown.bid_suits:
        s.length(strain, 3)  # a preference between partner's suits (a jump to game: values)
        s.limit(*((11, 37) if lv >= 4 else (0, 10)))
        s.bid_suits.append(strain)
        return True
    cheapest = 1 if last_bid is None else LV[last_bid.id] + (1 if strain <= ST[last_bid.id] else 0)
    opp_suits = shown[(t.partner_rel + 1) % 4].bid_suits + shown[(t.partner_rel + 3) % 4].bid_suits
    if p_action.id == 1:  # answering a takeout double
        if strain == NT:
            s.limit(*((6, 10) if lv == cheapest else (11, 12)))
        elif strain in opp_suits:
            s.limit(12, 37)  # cue bid
        else:
            rho = t.per_seat[(t.rel + 3) % 4]
            if lv == cheapest and rho and rho[-1].id >= 3:
                # a free bid: RHO bid over the double, so the answer is no longer forced
                # (advance_takeout_double bids freely from 6 HCP with five cards, 8 with four;
                # 9-11 jumps while the jump stays at the three level, else bids the cheapest)
                s.limit(6, 8 if cheapest + 1 <= 3 else 11)
            else:
                s.limit(*((0, 8) if lv == cheapest else (9, 11)))
            s.length(strain, 4)
            s.bid_suits.append(strain)
        return True
    if p_action.id >= 3 and ST[p_action.id] < NT:
        ps = ST[p_action.id]
        if strain == ps and lv == 4 and strain in MAJORS and lv > cheapest and LV[last_bid.id] <= 2:
            # the jump to 4M over a one-level overcall (their side silent or at the two
            # level): advance_suit_overcall bids it on 13-17 support points (18+ cue-bids),
            # 10+ HCP; read as the preemptive 0-9, 22 of 23 held more (issue 27 round forty-two)
            s.limit(10, 17)
            s.length(strain, 3)
            s.bid_suits.append(strain)
        elif strain == ps:
            s.limit(*((7, 10) if lv == cheapest else (0, 9)))
            s.length(strain, 3)
            s.bid_suits.append(strain)
        elif strain == NT:
            s.limit(*{1: (8, 11), 2: (12, 14)}.get(lv, (15, 18)))
        elif strain in opp_suits:
            # cue bid: a limit raise or better with three trumps, or opening values (13+)
            # without a fit (advance_suit_overcall, round fourteen): no length in partner's
            # suit is promised until advancer bids it (reading three let the overcaller
            # play a 5-2 fit)
            s.limit(11, 37)
        else:
            s.limit(10, 16)
            s.length(strain, 5)
            s.bid_suits.append(strain)
        return True
    return False


def _read_suit_over_notrump(t: _Turn) -> bool:
    """Responder's first natural suit bid over partner's 1NT ("Responses to 1NT"): 3C/3D a
    good six-card minor, invitational (6-9); 3H/3S six cards and slam interest (14-17);
    4H/4S a weak jump to game. After their overcall (systems off): a two-level suit is
    natural and weak, a three-level suit is forcing (five cards, game values)."""
    if not (t.first_action and t.by_responder and t.n_before == 0 and t.strain < NT
            and NAMES[t.opening.id] == "1NT"):
        return False
    s, lv, strain = t.s, t.lv, t.strain
    opp = t.shown[(t.rel + 1) % 4].bid_suits + t.shown[(t.rel + 3) % 4].bid_suits
    if strain in opp:
        return False  # a cue bid
    if t.last_bid is t.opening:
        if lv == 3:
            s.limit(*((6, 9) if strain < 2 else (14, 17)))
            s.length(strain, 6)
        elif lv == 4 and strain in MAJORS:
            s.limit(0, 9)
            s.length(strain, 6)
        else:
            return False
    elif lv == 2:
        s.limit(0, 9)
        s.length(strain, 5)
    else:
        s.limit(10, 37)
        s.length(strain, 5 if lv == 3 else 6)
    s.bid_suits.append(strain)
    return True


# -- doubles ------------------------------------------------------------------------------------

def _read_double(t: _Turn) -> None:
    """A defender's first double is for takeout (opening values, support for the unbid
    majors); responder's first double is negative (6+) ("Doubles")."""
    s, last_bid = t.s, t.last_bid
    p_first = next((x for x in t.per_seat[t.partner_rel] if x.id), None)
    if t.by_defender and t.first_action and p_first is not None and p_first.id == 1:
        s.limit(8, 37)  # responsive double: values, the unbid suits
        return
    if t.by_defender and t.first_action:
        # takeout double (direct or balancing) or negative double
        s.limit(12 if not t.by_responder else 6, 37)
        if last_bid is not None and ST[last_bid.id] < NT:
            for su in MAJORS:
                if su != ST[last_bid.id]:
                    s.length(su, 3)
    elif t.by_defender and last_bid is not None and ST[last_bid.id] < NT and LV[last_bid.id] in (2, 3) \
            and [x.id for x in t.per_seat[t.rel] if x.id] == [1] and not any(x.id for x in t.per_seat[t.partner_rel]):
        # the takeout doubler doubles again over their bid, partner silent
        # (``penalty.doubler_second_double``): extras for the level
        s.limit(doubler_second_double_hcp(LV[last_bid.id]), 37)
    elif t.by_responder and t.first_action:
        s.limit(6, 37)  # negative double
    elif t.by_opener and last_bid is not None and ST[last_bid.id] < NT and LV[last_bid.id] == 2 \
            and [(LV[x.id], ST[x.id]) for x in t.per_seat[t.partner_rel] if x.id >= 3] == [(1, NT)]:
        # opener's competitive (values) double over their two-level bid after partner's 1NT
        # response (``penalty.values_double``): VALUES_DOUBLE_HCP+, short in their suit
        s.limit(VALUES_DOUBLE_HCP, 37)


#: The fewest HCP of responder's major limit raise 1M 3M, read from how limit_raise_major
#: bids it (10-12 support points, HCP at most 12): on the train deals 60% of these raisers
#: held under 11 HCP, a tenth under 9 (issue 27 round forty-two; read as 11-12 before).
LIMIT_RAISE_MAJOR_MIN_HCP = 8


# -- bids ---------------------------------------------------------------------------------------

def _read_raise(t: _Turn) -> bool:
    """A bid in partner's suit: support, with the raise's SAYC range."""
    s, strain, lv = t.s, t.strain, t.lv
    pshown = t.pshown
    if not (strain < NT and strain in pshown.bid_suits and strain not in s.bid_suits):
        return False
    s.length(strain, max(8 - pshown.min_len[strain], 3))
    if t.first_action and t.by_responder:
        opening = t.opening
        interfered = t.last_bid is not opening or len(t.per_seat[(t.rel + 3) % 4]) > 0 \
            and t.per_seat[(t.rel + 3) % 4][-1].id == 1
        if opening is not None and NAMES[opening.id] in ("1C", "1D", "1H", "1S") and interfered and lv <= 3:
            # after their overcall or double: the cheapest raise 6-10 (raise_in_competition,
            # also at the three level), a jump raise preemptive (the limit raise goes
            # through the cue bid or Jordan 2NT) (issue 27, round twenty)
            cheapest = LV[t.last_bid.id] + (1 if strain <= ST[t.last_bid.id] else 0)
            s.limit(*((6, 10) if lv == cheapest else (0, 9)))
        elif opening is not None and NAMES[opening.id] in ("1H", "1S") and interfered and lv == 4:
            # responder's 4M after their overcall or double: raise_in_competition bids it
            # with 13+ support points (game values; the weak hands raise at the cheapest
            # level), not the uncontested preemptive raise (0-9) (issue 27, round twenty-three)
            s.limit(9, 16)
        elif opening is not None and NAMES[opening.id] in ("1C", "1D", "1H", "1S"):
            if lv == 2:
                s.limit(6, 10)
            elif lv == 3:
                # the major limit raise is bid on 10-12 support points (limit_raise_major: a
                # singleton or void adds up to 3), so from 8 HCP; the minor one on 11-12 HCP
                s.limit(LIMIT_RAISE_MAJOR_MIN_HCP if strain in MAJORS else 11, 12)
            elif lv == 4 and strain in MAJORS:
                s.limit(0, 9)
    elif t.first_action:
        s.limit(6, 12)
    elif t.by_defender and not t.by_opener and _first_bid_was_double(t):
        # the takeout doubler raises advancer's answer: single 16-18, jump 19-21; a raise
        # to game shows no more than game opposite the answer (16-24)
        jumps = lv - (LV[t.last_bid.id] + (1 if strain <= ST[t.last_bid.id] else 0))
        game = lv >= (4 if strain in MAJORS else 5)
        s.limit(*((16, 24) if game else ((16, 18) if jumps <= 0 else (19, 21))))
    elif t.by_responder and t.n_before == 1 and not t.jump and lv == 2 and s.min_hcp < 10 \
            and len(t.pshown.bid_suits) >= 2:
        # responder's simple preference to opener's first suit (1H 1S 2C 2H) or raise of
        # his second (1D 1H 1S 2S): 6-10
        s.limit(6, 10)
    elif t.by_responder and t.n_before == 1 and t.jump and lv == 3 and s.min_hcp < 10 \
            and len(t.pshown.bid_suits) >= 2:
        # responder's jump raise of opener's second suit or jump preference (1D 1H 1S 3S):
        # invitational, 10-12 (read as 6-18, opener accepted on 14-15 and 4M made 30%)
        s.limit(10, 12)
    elif t.by_responder and t.n_before == 1 and not t.jump and lv == 3 and s.min_hcp >= 10 \
            and t.pshown.bid_suits and strain == t.pshown.bid_suits[0]:
        # after a two-over-one response, a raise of opener's suit to the three level is
        # invitational, 10-12 (read as 10-18, opener accepted with 13 and 4M made 9%)
        s.limit(10, 12)
    elif t.by_opener and t.n_before == 1:
        # opener raises responder: single 12-15, jump 16-18, double jump 19-21
        lo, hi = (19, 21) if lv >= 4 and strain in MAJORS else ((16, 18) if t.jump else (12, 15))
        if t.jump and lv == 3 and strain in MAJORS:
            # rebids.raise_responders_major bids it on 16-18 support points (a singleton
            # counts 3), so as few as 13-14 HCP. Read 16-18 HCP, responder accepted on his
            # own dummy points with 6-8 HCP and these 4M made 23% double dummy on the train
            # deals; read 14-18 the old bidder lost 92 DD IMPs and 40 made contracts to it in
            # self-play there (issue 27 round twenty-seven)
            lo = 14
        s.limit(lo, hi)
    if strain not in s.bid_suits:
        s.bid_suits.append(strain)
    return True


def _first_bid_was_double(t: _Turn) -> bool:
    """This seat's only call but passes so far was a double (a takeout double)."""
    acted = [x for x in t.per_seat[t.rel] if x.id]
    return len(acted) == 1 and acted[0].id == 1


def _read_notrump(t: _Turn) -> bool:
    """A natural notrump bid: responses, overcalls, opener's and responder's rebids."""
    if t.strain != NT:
        return False
    s, lv = t.s, t.lv
    if t.first_action and t.by_responder and t.opening is not None and t.last_bid is not t.opening \
            and NAMES[t.opening.id] in ("1C", "1D", "1H", "1S") and lv <= 3:
        # responder's notrump over their overcall (notrump_after_overcall): 1NT 6-10, 2NT
        # 11-12, 3NT 13-15, natural with a stopper (not Jacoby 2NT) (issue 27, round twenty)
        s.limit(*{1: (6, 10), 2: (11, 12), 3: (13, 15)}[lv])
        s.balanced = True
    elif t.first_action and t.by_responder and t.opening is not None and NAMES[t.opening.id] == "2C" \
            and lv == 2 and t.last_bid is t.opening:
        # the positive 2NT response to a strong 2C: 8+ balanced (SAYC "Strong 2C opening";
        # ``two_club_positive_notrump``). Left unread, opener counted 0 opposite it and stopped
        # in game with 23-25 HCP opposite 8-11 (issue 27 round forty-one)
        s.limit(8, 37)
        s.balanced = True
    elif t.first_action and t.by_responder and t.opening is not None:
        _read_notrump_response(s, lv, NAMES[t.opening.id], t.opening)
    elif lv <= 2 and t.opener == (t.rel + 3) % 4 and _first_bid_was_double(t) \
            and t.opening is not None and ST[t.opening.id] != NT:
        # the direct takeout doubler's notrump below game ("double, then notrump": too
        # strong for a 15-18 notrump overcall): 17-22 balanced, what doubler_rebid and the
        # invitation bid it with (a balancing doubler's 2NT is lighter: not read here).
        # Read as the double's bare 12+, advancer passed 2NT with five spades and 7 HCP
        # opposite 19-22 (issue 27, round sixteen)
        s.limit(17, 22)
        s.balanced = True
    elif lv <= 2 and not t.jump and t.pshown.min_hcp >= 11 and _balancing_double(t):
        # the balancing doubler's notrump below game over advancer's cue bid (12+): the
        # light double (takeout_double balances from 9 HCP) inviting game, 9-12; with 13+
        # opposite the cue bid he bids 3NT himself. Read as the double's 12+, advancer
        # raised 2NT to 3NT with 10-12 opposite 9-11 (issue 27, round twenty). The
        # double's 12+ is replaced, not narrowed
        s.min_hcp, s.max_hcp = 9, 12
        s.balanced = True
    elif t.first_action and t.by_defender and not t.jump and lv <= 2:
        if t.pshown.acted:
            s.limit(8, 12)  # advancer's notrump
        elif t.balancing and lv == 1:
            # the balancing 1NT ((1x) P (P) 1NT): 11-14, what notrump_overcall bids it with
            # (SAYC: the balancer borrows a king); advance_notrump_overcall counts the same
            # (issue 27, round twenty-three)
            s.limit(11, 14)
            s.balanced = True
        else:
            s.limit(15, 18)  # notrump overcall
            s.balanced = True
    elif t.by_opener and t.n_before == 1 and lv <= 3 and NAMES[t.opening.id] == "2C":
        # the strong 2C opener's notrump rebid (``strong_two_club_rebid``): 2C 2D 2NT 22-24,
        # 2C 2D 3NT 28+, balanced; after a positive response the 2C's 22+ stands. Read as a
        # one-bid's 12-14 rebid, it replaced the 22+ and responder stopped in 3NT with slam
        # values (issue 27 round forty-one)
        waiting = [NAMES[x.id] for x in t.per_seat[t.partner_rel] if x.id] == ["2D"]
        s.limit(*((22, 24) if lv == 2 else (28, 37)) if waiting else (22, 37))
        s.balanced = True
    elif t.by_opener and t.n_before == 1 and NAMES[t.opening.id] == "1NT":
        # the 1NT opener's 3NT over responder's 2NT invitation accepts it: the upper part of
        # 15-17 (notrump.answer_invitation), read as a one-bid's 12-14 rebid before (issue 27
        # round forty-two); his other notrump rebids keep the opening's range
        if lv == 3:
            lo, hi = _OPENING_MEANING["1NT"][:2]
            s.limit(lo + 1, hi)
    elif t.by_opener and t.n_before == 1 and lv <= 3:
        # opener's notrump rebid: cheapest 12-14 (also 2NT after a two-over-one),
        # a jump to 2NT 18-19, a jump to 3NT 15+ after a two-level response; 2NT over
        # partner's 1NT response is no jump but the same 18-19 (balanced_notrump_rebid bids
        # it so; read as 12-14, responder passed it with 8-10 HCP: issue 27 round forty)
        if _raises_partners_1nt_response(t) or lv == 1 and not any(x.id for x in t.per_seat[t.partner_rel]):
            # also opener's 1NT after partner passed their overcall (competitive.REOPENING_NT_HCP)
            s.limit(18, 19)
        elif not t.jump:
            s.limit(12, 14)
        else:
            # (3NT after a two-over-one: 15+; a balanced 15-17 opens 1NT, not a minor, so over
            # 1m it is 18-19: read 15-21, responder with 13-14 missed the 6NT; round forty)
            minor = t.opening is not None and NAMES[t.opening.id] in ("1C", "1D") and not any(
                x.id for r in ((t.rel + 1) % 4, (t.rel + 3) % 4) for x in t.per_seat[r])
            if lv == 3 and _after_one_level_response(t):
                # 1x 1y 3NT and 1x 1NT 3NT: rebids.semi_balanced_notrump_jump's 20-21 (a
                # balanced 20-21 opens 2NT); read 15-21 or 18-19 before (issue 27 round
                # fifty-two)
                s.limit(*SEMI_BALANCED_NT_REBID_HCP[3])
            else:
                s.limit(*((18, 19) if lv == 2 or minor else (15, 21)))
        s.balanced = True
    elif t.by_responder and lv in (2, 3) and NAMES[t.opening.id] == "1NT" and t.last_bid is not t.opening \
            and sum(1 for m in t.per_seat[t.rel] if m.id) == 1:
        # after Stayman or a transfer, responder's 2NT and 3NT are the booklet's notrump
        # responses to 1NT (8-9, 10-15), not a one-bid responder's 11-12 and 13-17 (issue 27
        # round forty-two)
        _read_notrump_response(s, lv, "1NT", t.opening)
    elif t.by_responder and t.n_before == 1 and lv <= 3:
        # responder's notrump rebid; after opener's big strength (a strong 2C, a jump
        # shift: 19+; the 18-19 notrump rebids) it places the contract and shows no extra
        # values, so the range shown so far stands (reading 2C 2D 3D 3NT as 13-17 drove
        # opener to 7NT)
        if t.pshown.min_hcp < OPENER_SHOWN_BIG:
            s.limit(*{1: (6, 10), 2: (11, 12), 3: (13, 17)}[lv])
    return True


# Opener's shown strength from which responder's notrump rebid places the contract instead
# of showing 11-12 or 13-17: a strong 2C, a jump shift (19+), and opener's 18-19 notrump
# rebids (1C 1H 2NT 3NT: responder's 3NT read as 13-17 sent opener to 6NT on 28 combined
# HCP; issue 27 round forty).
OPENER_SHOWN_BIG = 18


def _after_one_level_response(t: _Turn) -> bool:
    """Partner's only bid so far is a one-level response (a new suit or 1NT) and the
    opponents have not bid (the auctions ``rebids`` answers)."""
    p_bids = [x for x in t.per_seat[t.partner_rel] if x.id]
    theirs = any(x.id for r in ((t.rel + 1) % 4, (t.rel + 3) % 4) for x in t.per_seat[r])
    return len(p_bids) == 1 and NAMES[p_bids[0].id][0] == "1" and not theirs


def _raises_partners_1nt_response(t: _Turn) -> bool:
    """Opener's 2NT directly over partner's 1NT response (1D P 1NT P 2NT)."""
    if t.lv != 2 or t.last_bid is None or NAMES[t.last_bid.id] != "1NT":
        return False
    p_bids = [x for x in t.per_seat[t.partner_rel] if x.id]
    return len(p_bids) == 1 and p_bids[0] is t.last_bid


def _balancing_double(t: _Turn) -> bool:
    """This seat's first action was a takeout double in the pass-out seat over their opening
    (1x P P X), nothing bid since but by partner or RHO."""
    mine = t.per_seat[t.rel]
    if t.opening is None or t.opener != (t.rel + 1) % 4 or not _first_bid_was_double(t):
        return False
    k = next(i for i, x in enumerate(mine) if x.id)
    before = t.per_seat[(t.rel + 1) % 4][:k + 1] + t.per_seat[(t.rel + 3) % 4][:k] + t.per_seat[t.partner_rel][:k + 1]
    return sum(1 for x in before if x.id) == 1


def _read_notrump_response(s: Shown, lv: int, o: str, opening) -> None:
    """Responder's first bid in notrump: 1NT 6-10, 2NT 13-15, 3NT 16-17 over a suit;
    2NT 8-9 and 3NT 10-15 over 1NT ("Responses")."""
    if o in ("1C", "1D", "1H", "1S"):
        s.limit(*{1: (6, 10), 2: (13, 15), 3: (16, 17)}.get(lv, (0, 37)))
        if lv == 2 and o in ("1H", "1S"):
            s.limit(13, 37)
            s.length(ST[opening.id], 4)
        if lv in (2, 3):
            s.balanced = True
    elif o == "1NT" and lv == 2:
        s.limit(8, 9)
    elif o == "1NT" and lv == 3:
        s.limit(10, 15)


def _read_cue_bid(t: _Turn) -> bool:
    """A bid of a suit only the opponents have named: strength, not length."""
    shown, rel, strain, s = t.shown, t.rel, t.strain, t.s
    opp_suits = shown[(rel + 1) % 4].bid_suits + shown[(rel + 3) % 4].bid_suits
    if strain in opp_suits and strain not in s.bid_suits and strain not in t.pshown.bid_suits:
        s.limit(max(s.min_hcp, 11), 37)
        return True
    return False


def _read_suit_bid(t: _Turn) -> bool:
    """A natural suit bid of our own: first its length, then the strength its place shows."""
    _read_suit_length(t)
    for reader in _STRENGTH_READERS:
        if reader(t):
            break
    return True


def _read_suit_length(t: _Turn) -> None:
    """A rebid suit shows six (or one more than shown); a new suit four (five for the strong
    2C opener's first suit). Opener's rebid of his suit is 12-15, a jump 16-18."""
    s, strain = t.s, t.strain
    if strain in s.bid_suits:
        # A suit partner has shown too is a fit: bidding it again (a re-raise, a competitive
        # raise, accepting an invitation) shows no extra length; nor does naming again one of
        # the two suits of a Michaels or unusual 2NT bid (5-5 already) (issue 45).
        if not (t.pshown.min_len[strain] or _shown_by_two_suited_bid(t)):
            s.length(strain, min(s.min_len[strain] + 1, 6) if s.min_len[strain] >= 5 else 6)
        if t.by_responder and t.n_before == 1 and not t.jump and t.lv == 2 and s.min_hcp < 10 \
                and not t.pshown.min_len[strain]:
            s.limit(6, 10)  # responder's simple rebid of his suit (1C 1H 1S 2H): a sign-off
        if t.by_opener and t.n_before == 1:
            if NAMES[t.opening.id] in ("2D", "2H", "2S"):
                # a weak two rebids its suit over the 2NT feature ask with a minimum
                # (weak_two_feature_answer), and otherwise keeps the opening's 5-11; read as
                # a one-bid's 12-15 rebid before (issue 27 round forty-two)
                if [NAMES[x.id] for x in t.per_seat[t.partner_rel] if x.id] == ["2NT"]:
                    s.limit(5, WEAK_TWO_MINIMUM_HCP)
            elif not t.pshown.min_len[strain]:
                s.limit(*((16, 18) if t.jump else (12, 15)))  # opener rebids his suit
            elif t.lv == 3 and t.last_bidder != t.partner_rel:
                s.limit(12, 16)  # after their bid over partner's raise: competing, not inviting
            elif t.lv == 3:
                s.limit(16, 18)  # re-raise of partner's raise: invitational
    else:
        strong_2c = t.by_opener and t.n_before == 1 and NAMES[t.opening.id] == "2C"
        s.length(strain, 5 if strong_2c else 4)
        s.bid_suits.append(strain)


def _read_overcall_strength(t: _Turn) -> bool:
    """A suit overcall: simple 8-16 at the one level (10-16 higher) with five; a jump
    overcall is weak, 5-10 with six ("Overcalls"); in the pass-out seat a king lighter."""
    if not (t.first_action and t.by_defender and not t.pshown.acted):
        return False
    s = t.s
    if t.jump:
        s.limit(5, 10)
        s.length(t.strain, 6)
    else:
        lo = 8 if t.lv == 1 else 10
        s.limit(lo - 3 if t.balancing else lo, 16)
        s.length(t.strain, 5)
    return True


def _read_response_strength(t: _Turn) -> bool:
    """Responder's first new suit: 6+ at the one level, 10+ at the two level; a jump
    shift 19+ with five. A responder who passed first keeps his pass's range."""
    if not (t.first_action and t.by_responder):
        return False
    if t.s.max_hcp <= 9:
        # Responder passed first (0-5, or 0-9 over their interference): his later suit is a
        # forced answer to opener's reopening double (the cheapest level, any strength) or a
        # competitive bid, not a free two-level response. Read 10-18, it let opener bid
        # 3NT on 16-19 HCP (1D 2S P P X P 3H P 3NT): 22% made double dummy on the train
        # deals (issue 27 round twenty-five).
        return True
    if t.jump:
        t.s.limit(19, 37)
        t.s.length(t.strain, 5)
    else:
        t.s.limit(6 if t.lv == 1 else 10, 18)
    return True


def _read_responder_jump_rebid(t: _Turn) -> bool:
    """Responder's jump rebid of his first suit at the three level: invitational, 10-12."""
    if t.by_responder and t.n_before == 1 and t.jump and t.lv == 3 and t.strain in t.s.bid_suits[:1]:
        t.s.limit(10, 12)
        return True
    return False


def _read_opener_second_suit(t: _Turn) -> bool:
    """Opener's second bid in a new suit: a reverse 17-21, a jump shift 19-21, else 12-18."""
    if not (t.by_opener and t.n_before == 1):
        return False
    s, strain, lv = t.s, t.strain, t.lv
    prev = t.per_seat[t.rel][0]
    if _answers_negative_double(t) and NAMES[prev.id] in ("1C", "1D", "1H", "1S") and strain != ST[prev.id]:
        # answer_negative_double names a four-card major at the cheapest level up to 16
        # total points and jumps with 17+: the cheapest answer is no reverse (1C 2H X P 2S
        # read as 17-21 sent responder to slam on 26 HCP; issue 27 rounds forty and forty-one:
        # those slams made a third of the time double dummy)
        s.limit(*((17, 21) if t.jump else (12, 16)))
    elif prev.id >= 3 and ST[prev.id] < NT and strain > ST[prev.id] and lv == 2 and not t.jump \
            and NAMES[prev.id][0] == "1":
        s.limit(17, 21)  # a reverse
    elif strain == ST[prev.id] or strain in t.pshown.bid_suits:
        pass  # a rebid of the suit or a raise: read with the length
    elif t.jump:
        s.limit(19, 21)  # a jump shift
    elif NAMES[prev.id] in ("1C", "1D", "1H", "1S"):
        s.limit(12, 18)  # a new suit without a jump
    return True


def _answers_negative_double(t: _Turn) -> bool:
    """Opener's bid after partner's only call, a double of their overcall (1C 2H X P 2S)."""
    p = t.per_seat[t.partner_rel]
    return t.by_opener and len(p) == 1 and p[0].id == 1 and t.last_bid is not t.opening


def _read_doubler_new_suit(t: _Turn) -> bool:
    """The takeout doubler's first bid, in a suit nobody has bid: the booklet's "double,
    then bid a new suit" hand, too strong for a simple overcall: 17-21 with five cards (what
    doubler_rebid bids it with; 22+ is rare and bids on). Not after partner's cue bid (the
    doubler's answer to it names a four-card major up the line) nor after a double of their
    notrump. Read as a plain new suit (four cards, no strength), advancer passed it with
    game values opposite (round seven of issue 27)."""
    if not (t.by_defender and not t.by_opener and _first_bid_was_double(t)) or t.opening is None \
            or ST[t.opening.id] == NT:
        return False
    p_last = next((x for x in reversed(t.per_seat[t.partner_rel]) if x.id >= 3), None)
    # every strain they bid, artificial ones too (a natural 2C is not in their bid_suits)
    opp_suits = [ST[x.id] for r in ((t.rel + 1) % 4, (t.rel + 3) % 4) for x in t.per_seat[r] if x.id >= 3]
    if p_last is None or ST[p_last.id] in opp_suits or t.strain in opp_suits or t.strain in t.pshown.bid_suits:
        return False
    t.s.limit(17, 21)
    t.s.length(t.strain, 5)
    return True


_BID_READERS = (_read_two_suited, _read_advance, _read_suit_over_notrump, _read_raise, _read_notrump, _read_cue_bid, _read_suit_bid)
_STRENGTH_READERS = (_read_doubler_new_suit, _read_overcall_strength, _read_response_strength, _read_responder_jump_rebid,
                     _read_opener_second_suit)
