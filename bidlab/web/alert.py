"""What a call means in SAYC, as an alert card would say it: HCP range, suit lengths, forcing.

A person at the web table bids SAYC; the ``sayc`` partner reads their calls with the SAYC
bidder's own reading of the auction (:mod:`bidlab.agents.sayc.reading`, through
:func:`~bidlab.agents.sayc.context.make_context`). The alert shown for a call is exactly that
reading, so it is what the ``sayc`` partner believes about the hand, not a second guess:
the HCP range and the minimum suit lengths the caller's calls have shown so far, and whether
the call forces partner to bid again. A neural partner reads the same calls as its own
training taught it, which the alert does not describe.

The reading records ranges and lengths but not whether a call forces, so the forcing part
is a short list of SAYC's forcing calls (ACBL SAYC System Booklet): the 2♣ opening and
the game force after it, responder's new suit and jump shift over a one-level suit opening,
Jacoby 2NT, the notrump conventions (Stayman, transfers, Gerber), cue bids of their suit,
fourth suit forcing, Blackwood, and opener's reverse and jump shift (the bidder's own test,
:func:`~bidlab.agents.sayc.placement._forcing_situation`, asked from partner's seat). A
takeout or negative double asks partner to bid unless the next hand does. Reading one call
is a few dictionary look-ups on the cached reading, so every call of a board is read at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc.context import LV, NAMES, NT, ST, Ctx, Shown, make_context
from bidlab.agents.sayc.placement import _forcing_situation, _game_forcing
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import Call
from bidlab.cards import Hand, Seat

#: Suits in the order an alert card lists them (spades first), with their strain numbers.
_SUITS_SHOWN = ((3, "♠"), (2, "♥"), (1, "♦"), (0, "♣"))
_NO_LIMIT = (0, 37)
#: A stand-in hand for the seat whose context is read: the reading never looks at the hand.
_ANY_HAND = Hand.parse("AKQJ.T98.765.432")

FORCING_GAME = "forcing to game"
FORCING = "forcing"
NOT_FORCING = "not forcing"
ASKS_PARTNER = "partner bids unless the next hand does"


@dataclass(frozen=True, slots=True)
class SaycAlert:
    """One call as SAYC reads it: what the caller's calls have shown after it, and whether it forces."""

    call: Call
    hcp: tuple[int, int]
    lengths: tuple[tuple[str, int], ...]   # (suit symbol, at least this many cards), spades first
    balanced: bool
    forcing: str | None                   # FORCING_GAME, FORCING, NOT_FORCING, a double's note; None for a pass
    why_forcing: str = ""

    def text(self) -> str:
        """``1♥: 12–21 HCP, 5+ ♥; not forcing`` (an alert card's line)."""
        lo, hi = self.hcp
        parts = []
        if (lo, hi) != _NO_LIMIT:
            parts.append(f"{lo}+ HCP" if hi >= 37 else f"{lo}–{hi} HCP" if lo != hi else f"{lo} HCP")
        parts += [f"{n}+ {sym}" for sym, n in self.lengths]
        if self.balanced:
            parts.append("balanced")
        shown = ", ".join(parts) if parts else "no HCP range or suit length shown"
        force = ""
        if self.forcing is not None:
            force = f"; {self.forcing}" + (f" ({self.why_forcing})" if self.why_forcing else "")
        return f"{self.call.to_str(symbols=True)}: {shown}{force}"


def sayc_alert(auction: Auction, call: Call, vulnerability: Vulnerability) -> SaycAlert:
    """What ``call``, made after ``auction``, means in SAYC: the caller's shown range and
    lengths (the SAYC bidder's reading of the auction with the call) and whether it forces."""
    seat = auction.to_act
    after = auction.with_call(call)
    partner_ctx = make_context(BiddingView(seat.partner, _ANY_HAND, after, vulnerability))
    shown: Shown = partner_ctx.partner   # the caller, as partner reads them
    before = make_context(BiddingView(seat, _ANY_HAND, auction, vulnerability))
    forcing, why = _forcing(before, partner_ctx, call)
    lengths = tuple((sym, shown.min_len[s]) for s, sym in _SUITS_SHOWN if shown.min_len[s] > 0)
    return SaycAlert(call, (shown.min_hcp, shown.max_hcp), lengths, shown.balanced, forcing, why)


def _is_game(call: Call) -> bool:
    lv, st = LV[call.id], ST[call.id]
    return lv >= 5 or (lv == 4 and st >= 2) or (lv == 3 and st == NT)


def _forcing(c: Ctx, partner_ctx: Ctx, call: Call) -> tuple[str | None, str]:
    """(forcing label, the convention or rule that makes it so) for ``call`` made in ``c``
    (the caller's context before the call; seats relative to the caller: 2 is partner)."""
    cid = call.id
    if cid == 0 or cid == 2:
        return None, ""
    if cid == 1:
        their_bid = c.last_bidder in (1, 3) and c.last_bid is not None
        if their_bid and LV[c.last_bid.id] <= 3 and ST[c.last_bid.id] < NT and (
                not c.partner.acted or c.opener == 2) and not c.my_calls and c.doubled == 0:
            return ASKS_PARTNER, "negative double" if c.opener == 2 else "takeout double"
        return NOT_FORCING, "penalty double"
    lv, st, name = LV[cid], ST[cid], NAMES[cid]
    if c.opener is None:
        if name == "2C":
            return FORCING_GAME, "strong artificial 2♣ opening"
        return NOT_FORCING, ""
    if _game_forcing(partner_ctx) and not _is_game(call):
        return FORCING_GAME, "after the 2♣ opening"
    partner_opened = c.opener == 2
    first_bid = not any(x.id >= 3 for x in c.my_calls)
    opening = NAMES[c.opening.id] if c.opening is not None else ""
    if partner_opened and first_bid and c.last_bid is c.opening and opening in ("1NT", "2NT"):
        conventions = ({"2C": "Stayman", "2D": "Jacoby transfer", "2H": "Jacoby transfer", "2S": "minor-suit transfer",
                        "3H": "six hearts, slam interest", "3S": "six spades, slam interest", "4C": "Gerber"}
                       if opening == "1NT" else
                       {"3C": "Stayman", "3D": "Jacoby transfer", "3H": "Jacoby transfer", "4C": "Gerber"})
        if name in conventions:
            return FORCING, conventions[name]
        return NOT_FORCING, ""
    if st < NT and st in c.their_suits:
        return FORCING, "cue bid of their suit"
    if name == "4NT" and not (c.partner_calls and ST[c.partner_calls[-1].id] == NT and c.partner_calls[-1].id >= 3):
        return FORCING, "Blackwood: asks for aces"
    if _is_game(call):
        return NOT_FORCING, ""
    if partner_opened and first_bid and not c.passed_hand and LV[c.opening.id] == 1 and ST[c.opening.id] < NT:
        if name == "2NT" and opening in ("1H", "1S") and not c.interfered:
            return FORCING_GAME, "Jacoby 2NT"
        if st < NT and st not in c.our_suits:
            if lv > c.cheapest_level(st):
                return FORCING_GAME, "responder's jump shift"
            return FORCING, "new suit by responder"
        return NOT_FORCING, ""
    ours = c.ours
    if (not c.contested and len(ours) == 3 and c.opener == 2 and lv == 2 and st < NT
            and all(len(x) == 2 and x[0] == "1" and x[1] in "CDHS" for x in ours)
            and len({x[1] for x in ours}) == 3 and "CDHS"[st] not in {x[1] for x in ours}):
        return FORCING, "fourth suit forcing"
    if (c.opener == 0 and len(c.my_calls) == 1 and c.partner.acted and not c.contested and st < NT
            and st not in c.our_suits and lv > c.cheapest_level(st)):
        return FORCING_GAME, "opener's jump shift"
    why = _forcing_situation(partner_ctx)
    if why is not None and c.opener == 0:
        return (FORCING_GAME if "game" in why else FORCING), why.removeprefix("opener's ").replace(" is forcing", "")
    return NOT_FORCING, ""


def seat_alerts(auction: Auction, seats: set[Seat], vulnerability: Vulnerability) -> dict[int, SaycAlert]:
    """The SAYC alert of every call made from ``seats`` in ``auction``, by the call's index."""
    out = {}
    for i, call in enumerate(auction.calls):
        if auction.seat_of(i) in seats:
            out[i] = sayc_alert(Auction(auction.dealer, auction.calls[:i]), call, vulnerability)
    return out


__all__ = ["FORCING", "FORCING_GAME", "NOT_FORCING", "SaycAlert", "sayc_alert", "seat_alerts"]
