"""What the SAYC bidder knows at its turn: its hand's features and a reading of the auction.

:func:`read_auction` walks the calls once and records, for every seat, what its calls have
*shown* in SAYC (an HCP range and minimum suit lengths: :class:`Shown`), who opened, which
suits each side has bid, and our side's uncontested sequence (used to look up the
conventional continuations: Stayman, transfers, Jacoby 2NT, Blackwood, Gerber). The
reading depends only on the public auction, never on a hidden hand, so it is the same
inference a human partner would draw from the SAYC booklet's ranges.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc.hand import HandFeatures, features
from bidlab.bridge.calls import Call

NT = 4
MAJORS = (2, 3)
MINORS = (0, 1)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades", "notrump")
SUIT_LETTERS = ("C", "D", "H", "S", "NT")


def bid(level: int, strain: int) -> Call | None:
    """The bid ``level`` ``strain``, or None above the seven level (rules then do nothing)."""
    return _BIDS[level * 5 + strain] if level <= 7 else None


#: Level, strain (9 for pass, X and XX) and name of each call id, so that rules never
#: build Strain enums on the hot path.
LV = tuple(0 if i < 3 else (i - 3) // 5 + 1 for i in range(38))
ST = tuple(9 if i < 3 else (i - 3) % 5 for i in range(38))
NAMES = tuple(str(Call(i)) for i in range(38))


_BIDS = (None,) * 5 + tuple(Call.bid(lv, s) for lv in range(1, 8) for s in range(5))  # type: ignore[arg-type]


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


@dataclass(slots=True)
class Ctx:
    """One turn: the view, the hand's features and the reading of the auction.

    Seats are relative to the bidder: 0 me, 1 LHO, 2 partner, 3 RHO.
    """

    view: BiddingView
    f: HandFeatures
    calls: tuple[Call, ...]
    shown: list[Shown]
    opener: int | None  # relative seat of the first bidder
    opening: Call | None
    last_bid: Call | None
    last_bidder: int | None  # relative
    doubled: int
    contested: bool  # the opponents made a bid (our side opened)
    interfered: bool  # the opponents made a bid or a double (our side opened)
    ours: tuple[str, ...]  # our side's calls from our opening, when uncontested
    my_calls: tuple[Call, ...]
    partner_calls: tuple[Call, ...]
    lho_calls: tuple[Call, ...]
    rho_calls: tuple[Call, ...]
    their_suits: frozenset[int]
    our_suits: frozenset[int]
    passed_hand: bool  # I passed when I could have opened
    position: int  # 1..4: my seat counted from the dealer
    asked_4nt: bool = False  # our side has bid 4NT
    memo: dict = field(default_factory=dict)  # values several rules need, computed once per turn

    @property
    def we_vul(self) -> bool:
        return self.view.we_vulnerable

    @property
    def they_vul(self) -> bool:
        return self.view.they_vulnerable

    @property
    def partner(self) -> Shown:
        return self.shown[2]

    @property
    def me(self) -> Shown:
        return self.shown[0]

    def legal(self, call: Call | None) -> bool:
        if call is None:
            return False
        if call.id == 0:
            return True
        if call.id >= 3:
            return self.last_bid is None or call.id > self.last_bid.id
        if call.id == 1:
            return self.last_bidder in (1, 3) and self.doubled == 0
        return self.last_bidder in (0, 2) and self.doubled == 1

    def cheapest(self, strain: int) -> Call | None:
        """The lowest legal bid in ``strain`` (None above 7)."""
        if self.last_bid is None:
            return bid(1, strain)
        lv = LV[self.last_bid.id] + (1 if strain <= ST[self.last_bid.id] else 0)
        return bid(lv, strain) if lv <= 7 else None

    def cheapest_level(self, strain: int) -> int:
        if self.last_bid is None:
            return 1
        return LV[self.last_bid.id] + (1 if strain <= ST[self.last_bid.id] else 0)

    def fit(self, suit: int) -> int:
        """Known combined length in ``suit``: my cards plus what partner has shown."""
        return self.f.lengths[suit] + self.partner.min_len[suit]


class _Reading:
    """The auction read so far, in absolute seats; extended one call at a time and cached."""

    __slots__ = ("shown", "per_seat", "opener", "opening", "last_bid", "last_bidder", "doubled",
                 "side_suits", "opener_side_calls", "contested", "interfered", "passed_first",
                 "asked_4nt")

    def __init__(self):
        self.shown = [Shown(), Shown(), Shown(), Shown()]
        self.per_seat = ((), (), (), ())
        self.opener = None
        self.opening = None
        self.last_bid = None
        self.last_bidder = None
        self.doubled = 0
        self.side_suits = (frozenset(), frozenset())
        self.opener_side_calls = ()
        self.contested = False
        self.interfered = False
        self.passed_first = (False, False, False, False)
        self.asked_4nt = (False, False)

    def extend(self, call: Call, seat: int) -> _Reading:
        r = _Reading.__new__(_Reading)
        per_seat = self.per_seat
        old = self.shown[seat]
        if call.id == 0 and self.opener is not None and (old.acted or per_seat[seat]):
            shown = self.shown  # a later pass shows nothing new: share the readings
        else:
            shown = list(self.shown)
            shown[seat] = Shown(old.min_hcp, old.max_hcp, list(old.min_len), old.balanced,
                                list(old.bid_suits), old.acted)
            _read_call(call, seat, shown, per_seat, self.opener, self.opening, self.last_bid, self.last_bidder)
        r.shown = shown
        ps = list(per_seat)
        ps[seat] = ps[seat] + (call,)
        r.per_seat = tuple(ps)
        r.opener, r.opening = self.opener, self.opening
        r.last_bid, r.last_bidder, r.doubled = self.last_bid, self.last_bidder, self.doubled
        r.side_suits = self.side_suits
        r.opener_side_calls = self.opener_side_calls
        r.contested = self.contested
        r.interfered = self.interfered
        r.passed_first = self.passed_first
        r.asked_4nt = self.asked_4nt
        cid = call.id
        side = seat % 2
        if cid >= 3:
            if cid == 22:  # 4NT
                r.asked_4nt = (True, self.asked_4nt[1]) if side == 0 else (self.asked_4nt[0], True)
            if r.opener is None:
                r.opener, r.opening = seat, call
            r.last_bid, r.last_bidder, r.doubled = call, seat, 0
            strain = ST[cid]
            # a suit first named by the other side is a cue bid, not a suit of ours
            if strain < NT and strain not in self.side_suits[1 - side]:
                suits = list(self.side_suits)
                suits[side] = suits[side] | {strain}
                r.side_suits = tuple(suits)
        elif cid == 1:
            r.doubled = 1
        elif cid == 2:
            r.doubled = 2
        elif r.opener is None and not per_seat[seat]:
            pf = list(self.passed_first)
            pf[seat] = True
            r.passed_first = tuple(pf)
        if r.opener is not None:
            if r.opener % 2 == side:
                r.opener_side_calls = self.opener_side_calls + (NAMES[cid],)
            elif cid:
                # a double leaves our bidding space intact: conventions stay on after it
                r.interfered = True
                if cid >= 3:
                    r.contested = True
        return r


_EMPTY = _Reading()
_READINGS: dict[tuple[int, bytes], _Reading] = {}
_READINGS_LIMIT = 20_000  # enough for thousands of boards bid in lockstep; bounded memory
# The reading asked for last: auctions grow one call per turn, so the next turn's reading
# is almost always this one extended by one call (tuple comparison of the same Call
# objects is an identity check, much cheaper than hashing the whole prefix).
_LAST: tuple = (None, -1, _EMPTY)  # replaced whole, so threads never see a torn pair


def _reading(dealer: int, calls: tuple[Call, ...]) -> _Reading:
    """The reading of ``calls``, extended from the previous turn's or from a cached prefix."""
    global _LAST
    last_calls, last_dealer, last = _LAST
    if last_dealer == dealer and last_calls is not None:
        n = len(last_calls)
        if len(calls) == n + 1 and calls[:n] == last_calls:
            r = last.extend(calls[-1], (dealer + n) % 4)
            _LAST = (calls, dealer, r)
            return r
        if len(calls) == n and calls == last_calls:
            return last
    ids = bytes(c.id for c in calls)
    k = len(ids)
    r = None
    while k >= 0:
        r = _READINGS.get((dealer, ids[:k]))
        if r is not None:
            break
        k -= 1
    if r is None:
        r = _EMPTY
        k = 0
    for i in range(k, len(ids)):
        r = r.extend(calls[i], (dealer + i) % 4)
    if len(_READINGS) >= _READINGS_LIMIT:
        _READINGS.clear()
    _READINGS[(dealer, ids)] = r
    _LAST = (calls, dealer, r)
    return r


def make_context(view: BiddingView) -> Ctx:
    """Read the auction (cached by prefix, so a whole auction is read once) for this seat."""
    f = features(view.hand)
    calls = view.auction.calls
    me = int(view.seat)
    dealer = int(view.auction.dealer)
    r = _reading(dealer, calls)
    rot = (me, (me + 1) % 4, (me + 2) % 4, (me + 3) % 4)
    ours_side = me % 2
    opener = None if r.opener is None else (r.opener - me) % 4
    our_opened = opener is not None and opener % 2 == 0
    return Ctx(
        view=view, f=f, calls=calls, shown=[r.shown[k] for k in rot], opener=opener,
        opening=r.opening, last_bid=r.last_bid,
        last_bidder=None if r.last_bidder is None else (r.last_bidder - me) % 4,
        doubled=r.doubled, contested=r.contested if our_opened else False,
        interfered=r.interfered if our_opened else False,
        ours=r.opener_side_calls if our_opened else (),
        my_calls=r.per_seat[me], partner_calls=r.per_seat[rot[2]], lho_calls=r.per_seat[rot[1]],
        rho_calls=r.per_seat[rot[3]], their_suits=r.side_suits[1 - ours_side],
        our_suits=r.side_suits[ours_side], passed_hand=r.passed_first[me],
        position=(me - dealer) % 4 + 1, asked_4nt=r.asked_4nt[ours_side],
    )


# -- what a call shows ---------------------------------------------------------------------

_OPENING_MEANING = {
    # strain-level: (min hcp, max hcp, min length in the bid suit, balanced)
    "1C": (12, 21, 3, False), "1D": (12, 21, 3, False), "1H": (12, 21, 5, False),
    "1S": (12, 21, 5, False), "1NT": (15, 17, 0, True), "2C": (22, 37, 0, False),
    "2D": (5, 11, 6, False), "2H": (5, 11, 6, False), "2S": (5, 11, 6, False),
    "2NT": (20, 21, 0, True), "3NT": (25, 27, 0, True),
}


def _read_call(call, rel, shown, per_seat, opener, opening, last_bid, last_bidder) -> None:
    """Update ``shown[rel]`` with what ``call`` means in SAYC (coarsely) at this point."""
    s = shown[rel]
    partner_rel = (rel + 2) % 4
    if opener is None:
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
        return
    if call.id == 0:
        if not s.acted and opener == partner_rel and not per_seat[rel]:
            s.limit(0, 5 if last_bidder == opener else 9)
        return
    if call.id == 2:
        s.acted = True
        s.limit(10, 37)
        return
    if call.id >= 3 and _read_conventional(call, rel, shown, per_seat, opener, opening):
        s.acted = True
        return
    pshown = shown[partner_rel]
    first_action = not s.acted
    s.acted = True
    if first_action and call.id >= 3 and opener % 2 != rel % 2 and pshown.acted:
        if _read_advance(call, s, shown, per_seat, partner_rel, last_bid):
            return
    if call.id == 1:
        if opener % 2 != rel % 2 and first_action:
            # takeout double (direct or balancing) or negative double
            s.limit(12 if opener != partner_rel else 6, 37)
            if last_bid is not None and ST[last_bid.id] < NT:
                for su in MAJORS:
                    if su != ST[last_bid.id]:
                        s.length(su, 3)
        elif opener == partner_rel and first_action:
            s.limit(6, 37)  # negative double
        return
    lv, strain = LV[call.id], ST[call.id]
    pshown = shown[partner_rel]
    jump = last_bid is not None and lv > LV[last_bid.id] + (1 if strain <= ST[last_bid.id] else 0)
    if strain < NT and strain in pshown.bid_suits and strain not in s.bid_suits:
        # a raise of partner's suit
        s.length(strain, max(8 - pshown.min_len[strain], 3))
        if first_action and opener == partner_rel:
            if opening is not None and NAMES[opening.id] in ("1C", "1D", "1H", "1S"):
                if lv == 2:
                    s.limit(6, 10)
                elif lv == 3:
                    s.limit(11, 12)
                elif lv == 4 and strain in MAJORS:
                    s.limit(0, 9)
        elif first_action:
            s.limit(6, 12)
        elif opener == rel and len(per_seat[rel]) == 1:
            # opener raises responder: single 12-15, jump 16-18, double jump 19-21
            lo, hi = (19, 21) if lv >= 4 and strain in MAJORS else ((16, 18) if jump else (12, 15))
            s.limit(lo, hi)
        if strain not in s.bid_suits:
            s.bid_suits.append(strain)
        return
    if strain == NT:
        if first_action and opener == partner_rel and opening is not None:
            o = NAMES[opening.id]
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
        elif first_action and opener % 2 != rel % 2 and not jump and lv <= 2:
            if pshown.acted:
                s.limit(8, 12)  # advancer's notrump
            else:
                s.limit(15, 18)  # notrump overcall
                s.balanced = True
        elif opener == rel and len(per_seat[rel]) == 1 and lv <= 3:
            # opener's notrump rebid: cheapest 12-14 (also 2NT after a two-over-one),
            # a jump to 2NT 18-19, a jump to 3NT 15+ after a two-level response
            if not jump:
                s.limit(12, 14)
            else:
                s.limit(*((18, 19) if lv == 2 else (15, 21)))
            s.balanced = True
        elif opener == partner_rel and len(per_seat[rel]) == 1 and lv <= 3:
            s.limit(*{1: (6, 10), 2: (11, 12), 3: (13, 17)}[lv])  # responder's notrump rebid
        return
    opp_suits = shown[(rel + 1) % 4].bid_suits + shown[(rel + 3) % 4].bid_suits
    if strain in opp_suits and strain not in s.bid_suits and strain not in pshown.bid_suits:
        s.limit(max(s.min_hcp, 11), 37)  # a cue bid of their suit: strength, not length
        return
    # a natural suit bid (or a convention: those are read by their own handlers)
    if strain in s.bid_suits:
        s.length(strain, min(s.min_len[strain] + 1, 6) if s.min_len[strain] >= 5 else 6)
        if opener == rel and len(per_seat[rel]) == 1:
            if not pshown.min_len[strain]:
                s.limit(*((16, 18) if jump else (12, 15)))  # opener rebids his suit
            elif lv == 3:
                s.limit(16, 18)  # re-raise of partner's raise: invitational
    else:
        # a new suit shows four, except the strong 2C opener's first suit: five
        strong_2c = opener == rel and len(per_seat[rel]) == 1 and NAMES[opening.id] == "2C"
        s.length(strain, 5 if strong_2c else 4)
        s.bid_suits.append(strain)
    if first_action and opener % 2 != rel % 2 and not pshown.acted:
        if jump:
            s.limit(5, 10)
            s.length(strain, 6)
        else:
            s.limit(8 if lv == 1 else 10, 16)
            s.length(strain, 5)
    elif first_action and opener == partner_rel:
        if jump:
            s.limit(19, 37)
            s.length(strain, 5)
        else:
            s.limit(6 if lv == 1 else 10, 18)
    elif opener == partner_rel and len(per_seat[rel]) == 1 and jump and lv == 3 and strain in s.bid_suits[:1]:
        s.limit(10, 12)  # responder's invitational jump rebid of his suit
    elif opener == rel and len(per_seat[rel]) == 1:
        prev = per_seat[rel][0]
        if prev.id >= 3 and ST[prev.id] < NT and strain > ST[prev.id] and lv == 2 and not jump and NAMES[prev.id][0] == "1":
            s.limit(17, 21)  # a reverse
        elif strain == ST[prev.id] or strain in pshown.bid_suits:
            pass  # a rebid of the suit or a raise: read above
        elif jump:
            s.limit(19, 21)  # a jump shift
        elif NAMES[prev.id] in ("1C", "1D", "1H", "1S"):
            s.limit(12, 18)  # a new suit without a jump


def _read_conventional(call, rel, shown, per_seat, opener, opening) -> bool:
    """Read an artificial bid of our conventions; True if ``call`` was one (nothing natural)."""
    s = shown[rel]
    partner_rel = (rel + 2) % 4
    mine, partners = per_seat[rel], per_seat[partner_rel]
    p_last = partners[-1] if partners else None
    if p_last is None:
        return False
    name, p_name = NAMES[call.id], NAMES[p_last.id]
    if p_name == "4NT" and LV[call.id] == 5:
        return True  # Blackwood answer: aces, not a suit
    nt_opened_by_partner = opener == partner_rel and NAMES[opening.id] in ("1NT", "2NT") and not mine
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
    if opener == partner_rel and NAMES[opening.id] == "2C" and not mine and name == "2D":
        return True  # waiting response
    if opener == rel and len(mine) == 1 and NAMES[opening.id] in ("1H", "1S") and p_name == "2NT" \
            and LV[call.id] == 3 and ST[call.id] not in (ST[opening.id], NT):
        return True  # Jacoby 2NT rebid: shortness
    return False


def _read_advance(call, s, shown, per_seat, partner_rel, last_bid) -> bool:
    """Advancer's first bid after partner's takeout double or suit overcall (SAYC ranges)."""
    p_action = next((x for x in per_seat[partner_rel] if x.id), None)
    if p_action is None:
        return False
    lv, strain = LV[call.id], ST[call.id]
    cheapest = 1 if last_bid is None else LV[last_bid.id] + (1 if strain <= ST[last_bid.id] else 0)
    opp_suits = shown[(partner_rel + 1) % 4].bid_suits + shown[(partner_rel + 3) % 4].bid_suits
    if p_action.id == 1:  # answering a takeout double
        if strain == NT:
            s.limit(*((6, 10) if lv == cheapest else (11, 12)))
        elif strain in opp_suits:
            s.limit(12, 37)  # cue bid
        else:
            s.limit(*((0, 8) if lv == cheapest else (9, 11)))
            s.length(strain, 4)
            s.bid_suits.append(strain)
        return True
    if p_action.id >= 3 and ST[p_action.id] < NT:
        ps = ST[p_action.id]
        if strain == ps:
            s.limit(*((7, 10) if lv == cheapest else (0, 9)))
            s.length(strain, 3)
            s.bid_suits.append(strain)
        elif strain == NT:
            s.limit(*{1: (8, 11), 2: (12, 14)}.get(lv, (15, 18)))
        elif strain in opp_suits:
            s.limit(11, 37)  # cue bid: limit raise or better
            s.length(ps, 3)
        else:
            s.limit(10, 16)
            s.length(strain, 5)
            s.bid_suits.append(strain)
        return True
    return False
