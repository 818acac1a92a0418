"""The SAYC bidder: picks the rule groups that fit the auction and makes the first legal call.

Situations, in the order :func:`decide` tells them apart:

* nobody has bid: the opening rules;
* our side opened and the opponents only passed: conventions (Blackwood, the notrump
  system), responder's first call, opener's rebid and the other named continuations, then
  contract placement;
* our side opened and they came in: responder's competitive calls (negative double,
  redouble, cue-bid raise...), opener's answers, penalty doubles, placement;
* they opened: our first action (overcalls, takeout doubles, balancing), then advancing
  partner's action, penalty doubles and placement.

If no rule applies, the bidder passes, which is always legal, so every situation gets a
legal call and every auction ends.
"""

from __future__ import annotations

from bidlab.agents.base import BiddingView, ViewPolicy

# Importing the rule modules registers their rules (order of GROUPS entries within a group
# is the order of definition).
from bidlab.agents.sayc import advances as _advances  # noqa: F401
from bidlab.agents.sayc import competitive as _competitive  # noqa: F401
from bidlab.agents.sayc import defence_rebids as _defence_rebids  # noqa: F401
from bidlab.agents.sayc import notrump as _notrump  # noqa: F401
from bidlab.agents.sayc import openings as _openings  # noqa: F401
from bidlab.agents.sayc import overcalls as _overcalls  # noqa: F401
from bidlab.agents.sayc import penalty as _penalty  # noqa: F401
from bidlab.agents.sayc import placement as _placement  # noqa: F401
from bidlab.agents.sayc import rebids as _rebids  # noqa: F401
from bidlab.agents.sayc import responses as _responses  # noqa: F401
from bidlab.agents.sayc import slam as _slam  # noqa: F401
from bidlab.agents.sayc.context import Ctx, make_context
from bidlab.agents.sayc.engine import Decision, first_legal, first_legal_after
from bidlab.bridge.calls import PASS, Call
from bidlab.errors import BidlabError


class SaycError(BidlabError, ValueError):
    """The SAYC bidder was asked to bid in a situation that is not a bidding turn."""


def situation_groups(c: Ctx) -> tuple[str, ...]:
    """The rule groups that apply to this turn, most specific first.

    Groups that cannot apply are left out up front (the notrump system without a notrump
    opening, the slam rules before anyone bid 4NT), which keeps the bidder fast.
    """
    if c.last_bid is None:
        return ("opening",)
    i_acted = c.shown[0].acted
    slam = ("slam",) if c.asked_4nt else ()
    if c.opener in (0, 2):
        nt = ("notrump",) if c.ours and (c.ours[0] in ("1NT", "2NT") or c.ours[:3] == ("2C", "2D", "2NT")) else ()
        if not c.contested:
            if c.opener == 2 and not i_acted:
                if c.interfered:  # RHO doubled partner's opening
                    return ("competitive_response", "competitive_response_pass", *nt, "response", "placement_game",
                            "placement")
                return (*nt, "response", "placement_game", "placement")
            rebid = ("rebid", "continuation") if c.opener == 0 and len(c.ours) == 2 else ("continuation",)
            if c.interfered:
                return (*slam, "opener_competitive", *nt, *rebid, "placement_game", "placement")
            return (*slam, *nt, *rebid, "opener_competitive", "placement_game", "placement")
        if c.opener == 2 and not i_acted:
            return (*slam, "competitive_response", "placement_game", "penalty", "competitive_response_pass",
                    "placement")
        return (*slam, "opener_competitive", "placement_game", "penalty", "placement")
    if not i_acted and not c.partner.acted:
        return ("overcall",)
    if not i_acted:
        return (*slam, "advance", "placement_game", "penalty", "placement")
    return (*slam, "opener_competitive", "placement_game", "penalty", "placement")



def decide(view: BiddingView) -> Decision:
    """The SAYC call for this view, with the rule that chose it and the reason."""
    hand = view.hand
    if hand.mask.bit_count() != 13:
        raise SaycError(f"{view.seat.letter}'s hand has {len(hand)} cards, not 13: {hand}")
    if view.auction.is_over:
        raise SaycError(f"the auction {view.auction} is over; there is no call to make")
    if (int(view.auction.dealer) + len(view.auction.calls)) % 4 != int(view.seat):
        raise SaycError(f"it is {view.auction.to_act.letter}'s turn in {view.auction}, not {view.seat.letter}'s")
    c = make_context(view)
    d = first_legal(c, situation_groups(c))
    if d is None:
        return Decision(PASS, "fallback.pass", "no SAYC rule applies: pass")
    return d


def decide_without(view: BiddingView, rule_name: str) -> Decision:
    """The call this view gets with the rule ``rule_name`` skipped, the rest of the rule list
    unchanged (a pass when no later rule applies): what the rule is worth, by counterfactual."""
    c = make_context(view)
    d = first_legal_after(c, situation_groups(c), rule_name)
    return d if d is not None else Decision(PASS, "fallback.pass", "no later SAYC rule applies: pass")


class SaycAgent(ViewPolicy):
    """A deterministic rule-based bidder playing Standard American Yellow Card (ACBL booklet).

    Its reasons read e.g. ``"1S: 12-21 HCP (or Rule of 20), 5+ spades (SAYC opening)
    [opening.open_one_suit]"``.
    """

    name = "sayc"

    def call_and_reason(self, view: BiddingView) -> tuple[Call, str]:
        d = decide(view)
        return d.call, f"{d.call}: {d.reason} [{d.rule}]"

    def decision(self, view: BiddingView) -> Decision:
        """The rule-level decision (call, rule name, reason) for one view."""
        return decide(view)
