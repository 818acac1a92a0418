"""Textbook SAYC situations: (hand, dealer, vulnerability, auction so far) -> expected call.

Each case cites the part of the ACBL SAYC System Booklet (revised January 2006) or the
standard SAYC teaching it checks. Expected calls were written from the booklet's ranges
and standard practice, hand by hand, not produced by the bidder. Hands are PBN
(spades.hearts.diamonds.clubs); the seat to act is the dealer plus the calls made so far.
"""

from __future__ import annotations

import pytest

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc import SaycAgent
from bidlab.bridge import Auction, Call, Vulnerability
from bidlab.cards import Hand

# (rule cited, hand, dealer, vulnerability, auction, expected call)
CASES: list[tuple[str, str, str, str, str, str]] = [
    # ---- opening bids ----------------------------------------------------------------------------
    ("open: five-card major, 12-21", "AKJ74.K52.Q83.J4", "N", "None", "", "1S"),
    ("open: five-card major, 12-21", "K4.AQ953.K72.Q85", "N", "None", "", "1H"),
    ("open: higher of two five-card suits", "AQ974.KJ863.5.A4", "N", "None", "", "1S"),
    ("open: longer suit first (6-5)", "AK954.KQJ863.4.7", "N", "None", "", "1H"),
    ("open: 1D with 4-4 in the minors", "K42.A3.KJ75.Q832", "N", "None", "", "1D"),
    ("open: 1C with 3-3 in the minors", "AJ54.K82.Q73.K52", "N", "None", "", "1C"),
    ("open: 4-4-3-2 with three diamonds opens 1D", "AJ54.K842.Q73.K5", "N", "None", "", "1D"),
    ("open: 4-4 majors, 3 clubs, 2 diamonds opens 1C", "AK54.QJ43.K2.742", "N", "None", "", "1C"),
    ("open: longer minor", "K5.A4.Q83.AJ9752", "N", "None", "", "1C"),
    ("open: 1NT 15-17 balanced", "KQ4.AJ6.K973.A52", "N", "None", "", "1NT"),
    ("open: 1NT may hold a five-card major", "AJ2.KQ953.K4.Q52", "N", "None", "", "1NT"),
    ("open: 1NT may hold a five-card minor", "K84.A5.KQ963.A72", "N", "None", "", "1NT"),
    ("open: 2NT 20-21 balanced", "AK5.KQ4.AJ72.KJ4", "N", "None", "", "2NT"),
    ("open: strong 2C, 22+ unbalanced", "AKQJ74.AK5.AQ2.4", "N", "None", "", "2C"),
    ("open: strong 2C with 22-24 balanced", "AKJ.KQ5.AQJ4.KJ5", "N", "None", "", "2C"),
    ("open: 3NT 25-27 balanced", "AKQ.KQ5.AKJ5.KQ4", "N", "None", "", "3NT"),
    ("open: weak two 2S, 5-11 and six spades", "KQJ974.83.742.95", "N", "None", "", "2S"),
    ("open: weak two 2H", "85.AQT953.Q84.73", "N", "None", "", "2H"),
    ("open: weak two 2D", "84.73.KQJ852.J64", "N", "None", "", "2D"),
    ("open: no weak two with four cards in the other major", "KQT974.J852.43.5", "N", "None", "", "Pass"),
    ("open: three-level preempt, seven hearts", "5.KQJ9763.84.932", "N", "None", "", "3H"),
    ("open: three-level preempt, seven clubs", "8.75.942.AQJ9753", "N", "None", "", "3C"),
    ("open: four-level preempt, eight spades", "KQJ98743.5.T84.6", "N", "None", "", "4S"),
    ("open: pass a 9-count", "K54.Q73.K842.J53", "N", "None", "", "Pass"),
    ("open: Rule of 20 with 11 HCP and 5-5", "AQ984.KJ973.J5.4", "N", "None", "", "1S"),
    ("open: 11 HCP flat fails the Rule of 20", "KJ4.Q84.A753.J62", "N", "None", "", "Pass"),
    ("open: fourth seat, 13 HCP and a singleton spade (no Rule of 15; issue 27 round 33)",
     "5.KJ84.AQ3.QJ842", "W", "None", "P P P", "1C"),
    ("open: fourth seat, 12 HCP and five spades", "KJ854.A3.Q84.K52", "W", "None", "P P P", "1S"),
    ("open: no weak two in fourth seat", "KQJ974.83.742.95", "W", "None", "P P P", "Pass"),
    ("open: 18 balanced opens a suit (to rebid 2NT)", "AQ4.KJ5.KQ82.K64", "N", "None", "", "1D"),
    ("open: 1S in third seat after two passes", "AKJ74.K52.Q83.J4", "S", "NS", "P P", "1S"),
    ("open: 2C with 23 HCP and a long minor", "A4.AK.KQ5.AKJ852", "E", "EW", "", "2C"),
    # ---- responses to one of a suit --------------------------------------------------------------------
    ("respond 1H: single raise 6-10 with 3+", "K85.Q942.J763.84", "N", "None", "1H P", "2H"),
    ("respond 1H: limit raise 10-12 dummy points", "K85.QJ92.A763.84", "N", "None", "1H P", "3H"),
    ("respond 1H: Jacoby 2NT, 13+ with 4+ trumps", "A85.KJ92.A763.K4", "N", "None", "1H P", "2NT"),
    ("respond 1H: preemptive raise to game", "5.KJ962.Q8763.84", "N", "None", "1H P", "4H"),
    ("respond 1H: 1S with four spades", "KJ84.75.Q863.J42", "N", "None", "1H P", "1S"),
    ("respond 1H: 1NT 6-10 without a fit", "Q74.85.K843.J752", "N", "None", "1H P", "1NT"),
    ("respond 1H: two-over-one 2C, 10+", "84.73.KQ8.AQ9752", "N", "None", "1H P", "2C"),
    ("respond 1S: 2H shows five hearts, 10+", "84.KQJ74.A82.Q75", "N", "None", "1S P", "2H"),
    ("respond 1S: four hearts only, bid 2C", "84.KQ74.A82.QJ75", "N", "None", "1S P", "2C"),
    ("respond 1S: 1NT when 2H would need five", "J4.K953.Q842.875", "N", "None", "1S P", "1NT"),
    ("respond 1S: pass with under 6", "5.43.9764.K86532", "N", "None", "1S P", "Pass"),
    ("respond 1C: four-card major at the one level", "K8.QJ74.K863.952", "N", "None", "1C P", "1H"),
    ("respond 1C: 4-4 majors, up the line", "KJ84.Q974.K63.52", "N", "None", "1C P", "1H"),
    ("respond 1C: 5-5 majors, spades first", "KJ874.Q9742.K6.5", "N", "None", "1C P", "1S"),
    ("respond 1D: 1NT 6-10 balanced, no major", "Q74.K85.J62.K874", "N", "None", "1D P", "1NT"),
    ("respond 1D: 2NT 13-15 balanced, no major", "A74.K85.KJ2.Q874", "N", "None", "1D P", "2NT"),
    ("respond 1D: 3NT 16-17 balanced, no major", "A74.K85.KJ2.AQ74", "N", "None", "1D P", "3NT"),
    ("respond 1D: single raise 6-10 with 4+", "85.743.KJ84.Q962", "N", "None", "1D P", "2D"),
    ("respond 1D: limit raise 11-12 with 5 diamonds", "5.A73.KQ842.K963", "N", "None", "1D P", "3D"),
    ("respond 1C: 1D with 4+ diamonds, no major", "K84.A3.QJ9763.54", "N", "None", "1C P", "1D"),
    ("respond 1H: strong jump shift, 19+", "AKQ874.A5.KQJ.42", "N", "None", "1H P", "2S"),
    ("respond 1S: passed hand 2H not forcing but natural", "84.KQJ74.A82.Q75", "S", "None", "P P 1S P", "2H"),
    ("respond 1H in third seat: passed hand has no Jacoby", "A85.KJ92.J763.84", "S", "None", "P P 1H P", "3H"),
    ("respond 2C: 2D waiting", "84.7532.J843.Q62", "N", "None", "2C P", "2D"),
    ("respond 2C: positive 2H, 8+ and a good suit", "84.KQJ75.A43.962", "N", "None", "2C P", "2H"),
    ("respond 2C: positive 2NT, 8+ balanced", "K84.Q75.A432.J62", "N", "None", "2C P", "2NT"),
    ("respond weak 2H: raise to 3 is to play", "Q84.K75.8432.J62", "N", "None", "2H P", "3H"),
    ("respond weak 2S: game with support and tricks", "AK4.A75.KQ32.J62", "N", "None", "2S P", "4S"),
    ("respond weak 2S: 2NT asks for a feature", "A4.AK5.KQ32.J862", "N", "None", "2S P", "2NT"),
    ("respond weak 2H: preemptive game raise with 4 trumps", "5.K875.Q8632.J62", "N", "None", "2H P", "4H"),
    ("respond 3H: game with support and tricks", "A4.K75.AKQ32.862", "N", "None", "3H P", "4H"),
    ("respond 3C: pass without game values", "KQ4.A75.K832.J62", "N", "None", "3C P", "Pass"),
    ("respond weak 2D: pass with a misfit", "KQ84.AJ75.5.J862", "N", "None", "2D P", "Pass"),
    # ---- responses to notrump ------------------------------------------------------------------------
    ("1NT: 2NT invitation, 8-9 balanced (4-3-3-3: no Stayman)", "Q84.K975.J63.Q84", "N", "None", "1NT P", "2NT"),
    ("1NT: 3NT with 10-15 and no major", "A84.K5.Q632.K942", "N", "None", "1NT P", "3NT"),
    ("1NT: Stayman with 8+ and a four-card major", "K8.QJ75.A63.J842", "N", "None", "1NT P", "2C"),
    ("1NT: Jacoby transfer to hearts", "85.KJ974.Q63.842", "N", "None", "1NT P", "2D"),
    ("1NT: Jacoby transfer to spades", "KJ974.85.Q63.842", "N", "None", "1NT P", "2H"),
    ("1NT: transfer even with a bust", "98742.85.J63.842", "N", "None", "1NT P", "2H"),
    ("1NT: transfer with a game-going five-card major", "KJ974.KQ5.A32.84", "N", "None", "1NT P", "2H"),
    ("1NT: 2S puppet with a weak long minor", "85.74.Q63.J97542", "N", "None", "1NT P", "2S"),
    ("1NT: pass with a weak balanced hand", "Q84.75.J63.98542", "N", "None", "1NT P", "Pass"),
    ("1NT: 4NT quantitative, 16-17", "AK4.K95.Q632.KJ4", "N", "None", "1NT P", "4NT"),
    ("1NT: Gerber with slam values", "AK4.KQ5.AQ32.K94", "N", "None", "1NT P", "4C"),
    ("1NT: Stayman answer 2H with both majors", "KQ84.AJ52.K4.Q85", "N", "None", "1NT P 2C P", "2H"),
    ("1NT: Stayman answer 2S", "KQ84.AJ5.K42.Q85", "N", "None", "1NT P 2C P", "2S"),
    ("1NT: Stayman answer 2D, no major", "KQ8.AJ5.K742.Q85", "N", "None", "1NT P 2C P", "2D"),
    ("1NT: complete the transfer to hearts", "KQ8.AJ5.K742.Q85", "N", "None", "1NT P 2D P", "2H"),
    ("1NT: super-accept with 17 and four trumps", "K8.AJ52.KQ42.A85", "N", "None", "1NT P 2D P", "3H"),
    ("1NT: complete the transfer to spades", "A8.KQ5.K742.QJ85", "N", "None", "1NT P 2H P", "2S"),
    ("1NT: 3C after the 2S puppet", "A8.KQ5.K742.QJ85", "N", "None", "1NT P 2S P", "3C"),
    ("1NT: accept 2NT with a maximum", "KQ8.AJ5.K742.A85", "N", "None", "1NT P 2NT P", "3NT"),
    ("1NT: decline 2NT with a minimum", "KQ8.AJ5.K742.Q85", "N", "None", "1NT P 2NT P", "Pass"),
    ("1NT: Gerber answer 4S = two aces", "A84.KQ5.AJ42.K85", "N", "None", "1NT P 4C P", "4S"),
    ("1NT: Gerber answer 4H = one ace", "K84.KQ5.AJ42.K85", "N", "None", "1NT P 4C P", "4H"),
    ("1NT: accept 4NT with a maximum", "KQ8.AJ5.K742.A85", "N", "None", "1NT P 4NT P", "6NT"),
    ("1NT: decline 4NT with a minimum", "KQ8.AJ5.K742.Q85", "N", "None", "1NT P 4NT P", "Pass"),
    ("1NT Stayman: 4-4 fit and game values", "K8.QJ75.A63.J842", "N", "None", "1NT P 2C P 2H P", "4H"),
    ("1NT Stayman: no fit, game values -> 3NT", "K8.QJ75.A63.J842", "N", "None", "1NT P 2C P 2S P", "3NT"),
    ("1NT Stayman: no fit, invitational -> 2NT", "K8.QJ75.J63.J842", "N", "None", "1NT P 2C P 2D P", "2NT"),
    ("1NT Stayman: fit, invitational -> 3H", "K8.QJ75.J63.J842", "N", "None", "1NT P 2C P 2H P", "3H"),
    ("1NT transfer: weak hand passes", "85.KJ974.Q63.842", "N", "None", "1NT P 2D P 2H P", "Pass"),
    ("1NT transfer: five hearts, invitational -> 2NT", "85.KJ974.KQ3.842", "N", "None", "1NT P 2D P 2H P", "2NT"),
    ("1NT transfer: six hearts, invitational -> 3H", "85.KJ9743.KQ3.84", "N", "None", "1NT P 2D P 2H P", "3H"),
    ("1NT transfer: five hearts, game -> 3NT", "A5.KJ974.KQ3.842", "N", "None", "1NT P 2D P 2H P", "3NT"),
    ("1NT transfer: six hearts, game -> 4H", "A5.KJ9743.KQ3.84", "N", "None", "1NT P 2D P 2H P", "4H"),
    ("1NT puppet: pass 3C with clubs", "85.74.Q63.J97542", "N", "None", "1NT P 2S P 3C P", "Pass"),
    ("1NT puppet: correct to 3D with diamonds", "85.74.J97542.Q63", "N", "None", "1NT P 2S P 3C P", "3D"),
    ("1NT transfer then 2NT: max with 3 hearts -> 4H", "KQ8.AJ5.K742.A85", "N", "None", "1NT P 2D P 2H P 2NT P", "4H"),
    ("1NT transfer then 2NT: min with 3 hearts -> 3H", "KQ8.AJ5.K742.Q85", "N", "None", "1NT P 2D P 2H P 2NT P", "3H"),
    ("1NT transfer then 3NT: two hearts -> pass", "KQ8.A5.K742.AJ85", "N", "None", "1NT P 2D P 2H P 3NT P", "Pass"),
    ("1NT transfer then 3NT: three hearts -> 4H", "KQ8.AJ5.K742.Q85", "N", "None", "1NT P 2D P 2H P 3NT P", "4H"),
    ("1NT Stayman 2H then 2NT: 4 spades and a max -> 4S", "KQ84.AJ52.K4.A85", "N", "None", "1NT P 2C P 2H P 2NT P", "4S"),
    ("1NT Stayman 2D then 2NT: minimum passes", "KQ8.AJ5.K742.Q85", "N", "None", "1NT P 2C P 2D P 2NT P", "Pass"),
    ("1NT Stayman 2H then 3NT: 4 spades -> 4S", "KQ84.AJ52.K4.Q85", "N", "None", "1NT P 2C P 2H P 3NT P", "4S"),
    ("2NT: Stayman 3C with game values and a major", "Q8.J975.Q63.J842", "N", "None", "2NT P", "3C"),
    ("2NT: transfer 3D to hearts", "85.KJ974.863.842", "N", "None", "2NT P", "3D"),
    ("2NT: pass a bust", "85.J974.863.8542", "N", "None", "2NT P", "Pass"),
    ("2NT: 3NT with 5-10 and no major", "K85.Q74.863.J542", "N", "None", "2NT P", "3NT"),
    ("2NT: complete the transfer to spades", "AK5.KQ4.AJ72.KJ4", "N", "None", "2NT P 3H P", "3S"),
    ("2C-2D-2NT: systems on, Stayman 3C", "Q8.J975.Q63.J842", "N", "None", "2C P 2D P 2NT P", "3C"),
    # ---- opener's rebids -------------------------------------------------------------------------------
    ("rebid: raise partner's major with four, 12-15", "K84.AQ75.K3.Q942", "N", "None", "1C P 1H P", "2H"),
    ("rebid: new major at the one level", "AK84.Q7.K3.Q9842", "N", "None", "1C P 1H P", "1S"),
    ("rebid: 1NT 12-14 balanced", "K84.Q7.AJ3.KJ942", "N", "None", "1C P 1H P", "1NT"),
    ("rebid: 2NT 18-19 balanced", "K4.AQ7.KJ3.AQ942", "N", "None", "1C P 1S P", "2NT"),
    ("rebid: six-card suit, minimum", "84.AKJ974.K3.Q42", "N", "None", "1H P 1S P", "2H"),
    ("rebid: six-card suit jump, 16-18", "84.AKJ974.AK3.Q4", "N", "None", "1H P 1S P", "3H"),
    ("rebid: lower second suit after 1NT", "84.AKJ97.K3.Q942", "N", "None", "1H P 1NT P", "2C"),
    ("rebid: pass 1NT with a balanced minimum", "K84.AKJ97.Q3.942", "N", "None", "1H P 1NT P", "Pass"),
    ("rebid: reverse with 17+", "A4.AQ75.KQJ42.K4", "N", "None", "1D P 1S P", "2H"),
    ("rebid: jump raise with four trumps and 16-18", "AQ84.KJ5.AQ94.42", "N", "None", "1D P 1S P", "3S"),
    ("rebid: game raise with four trumps and 19+", "AQ84.AJ5.AKQ42.4", "N", "None", "1D P 1S P", "4S"),
    ("rebid: pass the single raise with a minimum", "AKJ74.K52.Q83.J4", "N", "None", "1S P 2S P", "Pass"),
    ("rebid: re-raise to invite with 16-18", "AKJ74.K52.Q83.Q4", "N", "None", "1S P 2S P", "3S"),
    ("rebid: game over a single raise with 19+", "AKJ74.AK2.KQ3.84", "N", "None", "1S P 2S P", "4S"),
    ("rebid: decline the limit raise", "AJ874.K52.Q83.Q4", "N", "None", "1S P 3S P", "Pass"),
    ("rebid: accept the limit raise", "AKJ74.K52.Q83.J4", "N", "None", "1S P 3S P", "4S"),
    ("Jacoby 2NT: show a singleton", "AK4.KQJ85.Q842.5", "N", "None", "1H P 2NT P", "3C"),
    ("Jacoby 2NT: minimum without shortness -> 4H", "K84.AQ975.K63.84", "N", "None", "1H P 2NT P", "4H"),
    ("Jacoby 2NT: 18+ without shortness -> 3H", "K84.AQ975.KQ3.A4", "N", "None", "1H P 2NT P", "3H"),
    ("Jacoby 2NT: 15-17 without shortness -> 3NT", "K84.AQ975.KQ3.Q4", "N", "None", "1H P 2NT P", "3NT"),
    ("rebid: raise the two-over-one 2H with three", "AKJ74.K52.Q83.J4", "N", "None", "1S P 2H P", "3H"),
    ("rebid: 2NT 12-14 balanced after a two-over-one", "AKJ74.K52.Q83.J4", "N", "None", "1S P 2C P", "2NT"),
    ("rebid: 2C-2D-2NT shows 22-24 balanced", "AKJ.KQ5.AQJ4.KJ5", "N", "None", "2C P 2D P", "2NT"),
    ("rebid: 2C-2D then the long suit", "AKQJ74.AK5.AQ2.4", "N", "None", "2C P 2D P", "2S"),
    ("weak two feature ask: minimum rebids the suit", "85.AQT953.Q84.73", "N", "None", "2H P 2NT P", "3H"),
    ("weak two feature ask: maximum shows a feature", "85.AQT953.K84.73", "N", "None", "2H P 2NT P", "3D"),
    ("1C-1D: balanced 12-14 rebids 1NT", "K84.Q75.A3.KJ942", "N", "None", "1C P 1D P", "1NT"),
    ("1C-1H: six clubs, minimum", "K8.Q7.A43.KJ9842", "N", "None", "1C P 1H P", "2C"),
    # ---- responder's rebids and placement --------------------------------------------------------------------
    ("responder: game after 1NT rebid with 13", "K8.AQ975.K63.J42", "N", "None", "1C P 1H P 1NT P", "3NT"),
    ("responder: invite after 1NT rebid with 11", "K8.AQ975.J63.J42", "N", "None", "1C P 1H P 1NT P", "2NT"),
    ("responder: pass 1NT rebid with a minimum", "K8.Q9752.J63.J42", "N", "None", "1C P 1H P 1NT P", "Pass"),
    ("responder: accept the invitational re-raise", "K85.Q942.K763.84", "N", "None", "1H P 2H P 3H P", "4H"),
    ("responder: decline the invitational re-raise", "K85.9842.Q763.84", "N", "None", "1H P 2H P 3H P", "Pass"),
    ("responder: pass opener's game", "K85.Q942.J763.84", "N", "None", "1H P 2H P 4H P", "Pass"),
    ("responder: after Jacoby, game with no slam", "A85.KJ92.A763.84", "N", "None", "1H P 2NT P 4H P", "Pass"),
    ("responder bids again after a two-over-one: 3NT", "98.A85.A753.K965", "N", "None", "1S P 2D P 3D P", "3NT"),
    ("responder must bid over opener's reverse", "KJ84.75.Q63.J842", "N", "None", "1D P 1S P 2H P", "2NT"),
    # ---- slam bidding ----------------------------------------------------------------------------
    ("Blackwood answer: 5H = two aces", "AK874.KQ2.A3.K54", "N", "None", "1S P 2NT P 3S P 4NT P", "5H"),
    ("Blackwood answer: 5D = one ace", "KQ874.KQ2.A3.KQ4", "N", "None", "1S P 2NT P 3S P 4NT P", "5D"),
    ("Blackwood answer: 5C = no ace", "KQJ74.KQ2.KQ3.K4", "N", "None", "1S P 2NT P 3S P 4NT P", "5C"),
    ("Blackwood answer: 5S = three aces", "AK874.AQ2.A3.K54", "N", "None", "1S P 2NT P 3S P 4NT P", "5S"),
    ("Blackwood asker: one ace missing -> six", "Q932.A54.AQ4.K93", "N", "None", "1S P 2NT P 3S P 4NT P 5D P", "6S"),
    ("Blackwood asker: two aces missing -> sign off", "Q932.A54.KQ4.KQ3", "N", "None", "1S P 2NT P 3S P 4NT P 5C P", "5S"),
    ("Jacoby then Blackwood with slam values", "Q932.A54.AQ4.KQ3", "N", "None", "1S P 2NT P 3S P", "4NT"),
    ("Gerber asker: one ace missing -> 6NT", "AK4.KQ5.AQ32.K94", "N", "None", "1NT P 4C P 4H P", "6NT"),
    ("Gerber asker: two aces missing -> 4NT", "KQ4.KQ5.KQ32.K94", "N", "None", "1NT P 4C P 4H P", "4NT"),
    # ---- overcalls and our first action ------------------------------------------------------------------
    ("overcall: one-level, good five-card suit, 8-16", "AQJ74.K52.83.J42", "E", "None", "1D", "1S"),
    ("overcall: two-level, 10-16, good suit", "84.K52.AQJ83.Q42", "E", "None", "1S", "2D"),
    ("overcall: 1NT 15-18 balanced with a stopper", "KQ4.AJ5.K742.Q85", "E", "None", "1H", "1NT"),
    ("takeout double: opening values, short in their suit", "KJ82.5.AQ73.K842", "E", "None", "1H", "X"),
    ("weak jump overcall: good six-card suit, 5-10", "KQJ974.83.Q42.95", "E", "None", "1C", "2S"),
    ("weak jump overcall in hearts over 1D", "9.KQJ742.843.953", "E", "None", "1D", "2H"),
    ("strong hand: double first, 17+ with a long suit", "AKJ84.A5.KQ3.Q42", "E", "None", "1H", "X"),
    ("Michaels over a major: other major and a minor", "5.KQ984.QJ973.85", "E", "None", "1S", "2S"),
    ("Michaels over a minor: both majors", "KQ984.AJ973.5.85", "E", "None", "1C", "2C"),
    ("unusual 2NT: the two lowest unbid suits", "5.4.KQ984.QJ9732", "E", "None", "1H", "2NT"),
    ("over 1NT: natural two-level overcall with six", "84.KQJ975.A42.95", "E", "None", "1NT", "2H"),
    ("over 1NT: penalty double with 15+", "AQ4.KJ5.KQ42.J85", "E", "None", "1NT", "X"),
    ("balancing 1NT: 11-14 with a stopper", "K84.QJ5.AJ73.K84", "E", "None", "1H P P", "1NT"),
    ("balancing double: light, short in their suit", "KJ82.5.Q873.A842", "E", "None", "1H P P", "X"),
    ("takeout double of a preempt", "AK84.5.KQ73.A842", "E", "None", "3H", "X"),
    ("no action: pass a weak hand over their opening", "84.K52.Q83.J8742", "E", "None", "1S", "Pass"),
    ("no two-level overcall on a poor suit", "K4.Q52.J8632.K42", "E", "None", "1S", "Pass"),
    ("3NT over their preempt with a stopper", "A4.KQ5.AK32.KJ62", "E", "None", "3H", "3NT"),
    # ---- advancing --------------------------------------------------------------------------------
    ("advance a double: 0-8, cheapest suit (major)", "Q842.74.J863.952", "E", "None", "1H X P", "1S"),
    ("advance a double: 8 HCP, four spades", "KQ84.74.J86.Q952", "E", "None", "1H X P", "1S"),
    ("advance a double: 9-11 jump", "KQ84.74.A86.Q952", "E", "None", "1H X P", "2S"),
    ("advance a double: 1NT 6-10 with a stopper", "K84.Q74.A863.952", "E", "None", "1H X P", "1NT"),
    ("advance a double: 12+ cue bid", "AQ84.74.K863.K52", "E", "None", "1H X P", "2H"),
    ("advance a double: penalty pass with strong trumps", "84.KQJ96.A3.9752", "E", "None", "1H X P", "Pass"),
    ("advance a double: free to pass after RHO bids", "842.74.J8632.952", "E", "None", "1H X 2H", "Pass"),
    ("advance a double of 1D: spades", "Q842.74.J86.9532", "E", "None", "1D X P", "1S"),
    ("advance an overcall: simple raise 7-10", "K84.Q75.A642.952", "E", "None", "1D 1S P", "2S"),
    ("advance an overcall: cue bid with a limit raise", "K84.A75.K642.Q52", "E", "None", "1D 1S P", "2D"),
    ("advance an overcall: 2NT 12-14 with a stopper", "Q5.KJ5.KJ72.Q852", "E", "None", "1D 1S P", "2NT"),
    ("advance 1NT overcall: 3NT with 10+", "K84.Q75.A642.K52", "E", "None", "1D 1NT P", "3NT"),
    ("advance Michaels over a minor: better major", "K84.Q7532.A64.95", "E", "None", "1C 2C P", "2H"),
    ("advance unusual 2NT: longer minor", "K84.Q753.A6.9542", "E", "None", "1H 2NT P", "3C"),
    # ---- responder in competition ------------------------------------------------------------------------
    ("negative double: four hearts after 1C-(1S)", "84.KJ74.Q863.952", "N", "None", "1C 1S", "X"),
    ("negative double: both majors after 1C-(1D)", "KJ74.Q863.84.952", "N", "None", "1C 1D", "X"),
    ("negative double at the two level: 8+", "KJ742.84.Q86.K52", "N", "None", "1H 2C", "X"),
    ("raise in competition: 6-10 with three trumps", "84.K85.Q863.A952", "N", "None", "1H 1S", "2H"),
    ("cue-bid raise: limit raise or better in competition", "K84.Q85.A863.K92", "N", "None", "1H 1S", "2S"),
    ("1NT after an overcall: 6-10 with a stopper", "KJ4.85.Q863.A952", "N", "None", "1H 1S", "1NT"),
    ("redouble after a takeout double: 10+", "K84.85.AQ63.K952", "N", "None", "1H X", "XX"),
    ("Jordan 2NT: limit raise or better over a double", "KJ84.85.AQ63.952", "N", "None", "1S X", "2NT"),
    ("preemptive jump raise over a double", "KJ84.85.Q863.952", "N", "None", "1S X", "3S"),
    ("penalty double of an overcall of our 1NT", "85.KJ94.A863.952", "N", "None", "1NT 2H", "X"),
    ("new suit at the two level after an overcall: 10+, five", "84.852.Q86.AKJ74", "N", "None", "1D 1H", "2C"),
    ("opener answers the negative double: four hearts", "K5.AQ84.K63.Q952", "N", "None", "1C 1S X P", "2H"),
    ("opener answers the cue-bid raise with a minimum", "AJ874.K52.Q83.Q4", "N", "None", "1S 2H 3H P", "3S"),
    ("opener accepts the Jordan 2NT with extras", "AKJ74.K52.AQ3.J4", "N", "None", "1S X 2NT P", "4S"),
    ("opener supports partner's major in competition", "KQ87.AQ2.5.T9843", "N", "None", "1C 1D 1H 2D", "2H"),
    ("doubler rebids a long suit with 17+", "A2.AQ.96.AKQJ765", "S", "None", "1D X 2D P P", "3C"),
    ("advance a natural 2NT overcall of a weak two", "J76.K64.A9.Q9432", "E", "None", "2S 2NT P", "3NT"),
    ("advance a double: free bid with 8+ and four hearts", "KQ3.Q875.A5.9542", "N", "None", "2D X 3D", "3H"),
    ("answer opener's reopening double with a suit", "J85.643.K9642.Q5", "W", "None", "1C 2H P P X P", "3D"),
    ("convert opener's reopening double with trump honours", "85.KQ94.J9642.Q5", "W", "None", "1C 2H P P X P", "Pass"),
    # ---- penalty doubles and competing -----------------------------------------------------------
    ("penalty double of a sacrifice over our game", "AKJ74.A5.KQ3.Q42", "N", "None", "1S 2H 4S 5H", "X"),
    ("penalty double: trump stack over their three-level bid", "A5.AKJ74.KQT9.84", "N", "None", "1H 2D 2H 3D", "X"),
    ("compete to three with nine trumps (Law of Total Tricks)", "K842.85.Q863.952", "N", "None", "1S 2H 2S 3H P P", "3S"),
    ("compete: raise partner's overcall in competition", "Q842.85.K863.J52", "E", "None", "1H 1S 2H", "2S"),
]


def _case_id(i_case) -> str:
    i, case = i_case
    return f"{i:03d}-{case[0][:48]}"


def test_there_are_at_least_150_cases():
    assert len(CASES) >= 150


@pytest.mark.parametrize("case", CASES, ids=[_case_id(x) for x in enumerate(CASES)])
def test_textbook_situation(case):
    rule, hand_text, dealer, vul, auction_text, expected = case
    hand = Hand.parse(hand_text)
    assert len(hand) == 13, f"test hand {hand_text} has {len(hand)} cards"
    auction = Auction.parse(auction_text, dealer)
    seat = auction.to_act
    view = BiddingView(seat, hand, auction, Vulnerability.parse(vul))
    agent = SaycAgent()
    call = agent.act(view)
    assert call == Call.parse(expected), (
        f"[{rule}] {seat.letter} holding {hand_text} after '{auction_text}' (dealer {dealer}): "
        f"expected {expected}, got {agent.explain(view)}"
    )
