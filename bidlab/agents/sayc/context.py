"""What the SAYC bidder knows at its turn: its hand's features and a reading of the auction.

:func:`make_context` reads the calls once (cached by prefix) and records, for every seat,
what its calls have *shown* in SAYC (an HCP range and minimum suit lengths: :class:`Shown`,
each call read by :func:`~bidlab.agents.sayc.reading.read_call`), who opened, which suits
each side has bid, and our side's uncontested sequence (used to look up the conventional
continuations: Stayman, transfers, Jacoby 2NT, Blackwood, Gerber). The reading depends
only on the public auction, never on a hidden hand, so it is the same inference a human
partner would draw from the SAYC booklet's ranges.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc.hand import HandFeatures, features
from bidlab.agents.sayc.reading import LV, MAJORS, MINORS, NAMES, NT, ST, Shown, read_call
from bidlab.bridge.calls import Call

__all__ = ["LV", "MAJORS", "MINORS", "NAMES", "NT", "ST", "SUIT_LETTERS", "SUIT_NAMES", "Ctx", "Shown", "bid",
           "make_context"]

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades", "notrump")
SUIT_LETTERS = ("C", "D", "H", "S", "NT")


def bid(level: int, strain: int) -> Call | None:
    """The bid ``level`` ``strain``, or None above the seven level (rules then do nothing)."""
    return _BIDS[level * 5 + strain] if level <= 7 else None


_BIDS = (None,) * 5 + tuple(Call.bid(lv, s) for lv in range(1, 8) for s in range(5))  # type: ignore[arg-type]


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

    # A seat's "actions": its calls other than pass (bids, doubles and redoubles), in order.
    # Many rules ask whether a seat has acted yet, or how often; one home for the filter.
    @property
    def my_actions(self) -> tuple[Call, ...]:
        return tuple(x for x in self.my_calls if x.id)

    @property
    def partner_actions(self) -> tuple[Call, ...]:
        return tuple(x for x in self.partner_calls if x.id)

    @property
    def lho_actions(self) -> tuple[Call, ...]:
        return tuple(x for x in self.lho_calls if x.id)

    @property
    def rho_actions(self) -> tuple[Call, ...]:
        return tuple(x for x in self.rho_calls if x.id)

    @property
    def we_redoubled(self) -> bool:
        """Our side has redoubled: partner's later double is then for penalties (standard
        practice: the redouble showed the balance of power)."""
        return any(x.is_redouble for x in self.my_calls + self.partner_calls)

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

    def longest_fit(self) -> tuple[int, int | None]:
        """Our longest known fit outside their suits, as (length, suit); the lower-ranking
        suit on a tie; (0, None) when they have bid all four."""
        return max(((self.fit(x), x) for x in range(4) if x not in self.their_suits),
                   key=lambda z: z[0], default=(0, None))


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
        if call.id == 0 and self.opener is not None and (old.acted or per_seat[seat] and old.max_hcp <= 9):
            # a later pass shows nothing new: share the readings (but a passed hand's first pass
            # of partner's opening still limits him, reading._read_later_pass)
            shown = self.shown
        else:
            shown = list(self.shown)
            shown[seat] = old.copy()
            read_call(call, seat, shown, per_seat, self.opener, self.opening, self.last_bid, self.last_bidder)
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
