"""Playing modules behind one interface: WRP and SRP (Cohensius et al. 2020, Sec. 5.1, App. D-E).

A :class:`Player` sees a :class:`~bidlab.spades.engine.PlayView` and returns a card index
from ``view.legal``. It is only asked when it has a choice (the game driver plays forced
cards itself). After a blind nil with card exchange, :meth:`Player.exchange` picks the
cards to pass.

- :class:`WeakRulePlayer` (WRP): follows suit with simple high/low choices: high when it
  can beat the card winning the trick and partner is not winning, low otherwise; ruffs
  with its lowest winning spade; leads its highest side card; as a nil bidder it plays
  under. No counting, no covering, no bag avoidance.
- :class:`StrongRulePlayer` (SRP): the paper says SRP "is impossible to describe briefly";
  this is our rule set built from the sub-functions App. D names: it counts sure future
  takes (D.1, the worst-case "1 suit, 2 players whist" count), picks a goal per round
  type (D.2, App. E): make the contract, cover a nil-bidding partner (never abandoned,
  as in the paper), try to set an opponent's nil when its own contract is not at risk,
  try to set the opponents in "over" rounds, and avoid bags when its contract is safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bidlab.spades.engine import NON_SPADES, SPADES, SUIT_MASKS, PlayView, mask_cards


@runtime_checkable
class Player(Protocol):
    name: str

    def play(self, view: PlayView) -> int: ...

    def exchange(self, hand: int, n: int, to_niler: bool) -> int: ...


# -- card helpers over masks -------------------------------------------------------------


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def above(card: int) -> int:
    """Mask of the cards of ``card``'s suit ranked above it."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def beating(mask: int, win_card: int, led: int) -> int:
    """Cards of ``mask`` that would beat ``win_card`` in a trick led in suit ``led``."""
    ws = win_card // 13
    out = mask & above(win_card)
    if ws != 3:
        out |= mask & SPADES
    return out


def is_boss(card: int, hand: int, played: int) -> bool:
    """No unplayed card of the suit outside ``hand`` ranks above ``card``."""
    return not (above(card) & ~hand & ~played)


def cheapest_equivalent(card: int, hand: int, played: int) -> int:
    """The lowest card of ``hand`` equivalent to ``card`` (only own or played cards between)."""
    best = card
    c = card - 1
    low = (card // 13) * 13
    while c >= low:
        bit = 1 << c
        if hand & bit:
            best = c
        elif not played & bit:
            break
        c -= 1
    return best


def suit_of(mask: int, s: int) -> int:
    return mask & SUIT_MASKS[s]


def sure_takes(my_spades: int, unseen_spades: int) -> int:
    """Guaranteed spade tricks (App. D.1): worst case, one opponent holds every unseen spade.

    Equivalent to "1 suit, 2 players whist" with the agent leading every spade trick:
    our top card wins if it beats all theirs (they discard their lowest); otherwise we
    give up our lowest and they win it as cheaply as possible.
    """
    mine = mask_cards(my_spades)  # lowest first
    theirs = mask_cards(unseen_spades)
    takes = 0
    while mine:
        if not theirs:
            return takes + len(mine)
        if mine[-1] > theirs[-1]:
            mine.pop()
            theirs.pop(0)
            takes += 1
        else:
            low = mine.pop(0)
            for i, r in enumerate(theirs):
                if r > low:
                    theirs.pop(i)
                    break
    return takes


def lowest_side_card(legal: int) -> int:
    """The lowest-ranked legal card, side suits before spades: a lead that avoids tricks."""
    pool = legal & NON_SPADES or legal
    return min(mask_cards(pool), key=lambda c: c % 13)


def _nil_alive(view: PlayView, seat: int) -> bool:
    return view.bids[seat] == 0 and view.tricks[seat] == 0


def default_exchange(hand: int, n: int, to_niler: bool) -> int:
    """Blind nil exchange: the nil bidder passes its highest cards (spades first), the
    partner passes its lowest side cards."""
    chosen = 0
    if to_niler:
        pool = hand & NON_SPADES or hand
        for _ in range(n):
            if not pool:
                pool = hand & ~chosen
            c = min(mask_cards(pool), key=lambda x: x % 13)
            chosen |= 1 << c
            pool &= ~(1 << c)
        return chosen
    rest = hand
    for _ in range(n):
        sp = rest & SPADES
        c = highest(sp) if sp else max(mask_cards(rest), key=lambda x: x % 13)
        chosen |= 1 << c
        rest &= ~(1 << c)
    return chosen


# -- nil play shared by both rule players ------------------------------------------------


def nil_play(view: PlayView) -> int:
    """Play as a nil bidder: stay under the winning card, shed dangerous high cards."""
    legal = view.legal
    trick = view.trick
    if not trick:
        return lowest_side_card(legal)
    led = trick[0] // 13
    win = view.win_card
    follow = legal & SUIT_MASKS[led]
    if follow:
        if win // 13 != led:
            return highest(follow)  # trick is ruffed: any card of the suit is safe
        under = follow & ~above(win)
        if under:
            return highest(under)
        if len(trick) == 3:
            return highest(follow)  # we win it anyway: get rid of the highest
        return lowest(follow)
    # Void in the led suit: discard the most dangerous side card.
    side = legal & NON_SPADES
    if side:
        return max(mask_cards(side), key=lambda c: c % 13)
    spades = legal
    if win // 13 == 3:
        under = spades & ~above(win)
        if under:
            return highest(under)
    return lowest(spades)


class WeakRulePlayer:
    """WRP (Sec. 5.1): simple high/low play, strength of an average recreational player."""

    name = "wrp"

    def play(self, view: PlayView) -> int:
        if _nil_alive(view, view.seat):
            return nil_play(view)
        legal = view.legal
        trick = view.trick
        if not trick:
            side = legal & NON_SPADES
            pool = side or legal
            return max(mask_cards(pool), key=lambda c: c % 13)
        led = trick[0] // 13
        win = view.win_card
        partner_winning = view.win_seat == (view.seat ^ 2)
        follow = legal & SUIT_MASKS[led]
        if follow:
            if partner_winning:
                return lowest(follow)
            top = highest(follow)
            return top if win // 13 == led and top > win else lowest(follow)
        if not partner_winning:
            ruff = beating(legal & SPADES, win, led)
            if ruff:
                return lowest(ruff)
        side = legal & NON_SPADES
        pool = side or legal
        return min(mask_cards(pool), key=lambda c: c % 13)

    def exchange(self, hand: int, n: int, to_niler: bool) -> int:
        return default_exchange(hand, n, to_niler)


@dataclass(frozen=True, slots=True)
class SRPConfig:
    """SRP's thresholds (our choices; App. E's round types give the sum-of-bids cut-offs)."""

    #: Sum of bids from which a round is "over" (App. E) and setting the opponents pays.
    over_round: int = 11
    #: Try to set the opponents after making our bid only if it needs at most this many tricks.
    max_set_effort: int = 3
    #: Try to set an opponent's nil while our own contract needs at most remaining - this.
    nil_set_slack: int = 2


class StrongRulePlayer:
    """SRP (Sec. 5.1, App. D-E): counts sure tricks, chooses a goal, plays to it."""

    name = "srp"

    def __init__(self, config: SRPConfig | None = None):
        self.config = config or SRPConfig()

    def exchange(self, hand: int, n: int, to_niler: bool) -> int:
        return default_exchange(hand, n, to_niler)

    # -- goal choosing (App. D.2) ----------------------------------------------------------
    def play(self, view: PlayView) -> int:
        me = view.seat
        if _nil_alive(view, me):
            return nil_play(view)
        partner = me ^ 2
        if _nil_alive(view, partner):
            return self._cover(view)
        bids, tricks = view.bids, view.tricks
        remaining = 13 - view.trick_number
        counts = view.rules.failed_nil_tricks_count
        our_bid = bids[me] + bids[partner]
        our_tricks = sum(tricks[s] for s in (me, partner) if bids[s] > 0 or counts)
        need = our_bid - our_tricks
        opp = ((me + 1) & 3, (me + 3) & 3)
        opp_bid = bids[opp[0]] + bids[opp[1]]
        opp_tricks = sum(tricks[s] for s in opp if bids[s] > 0 or counts)
        opp_need = opp_bid - opp_tricks
        nilers = [s for s in opp if _nil_alive(view, s)]
        if nilers and need + self.config.nil_set_slack <= remaining:
            return self._set_nil(view, nilers[0])
        unseen_sp = SPADES & ~view.played & ~view.hand
        sure = sure_takes(view.hand & SPADES, unseen_sp)
        total_bids = sum(bids)
        if need > 0 and not (sure >= need and total_bids < self.config.over_round):
            return self._win(view)
        # Our contract is made or safe: set the opponents if cheap, otherwise avoid bags.
        to_set = remaining - opp_need + 1
        if (
            opp_need > 0
            and total_bids >= self.config.over_round
            and to_set - max(need, 0) <= self.config.max_set_effort
        ):
            return self._win(view)
        return self._duck(view)

    # -- try to take the trick --------------------------------------------------------------
    def _win(self, view: PlayView) -> int:
        legal, hand, played = view.legal, view.hand, view.played
        me = view.seat
        trick = view.trick
        opps = ((me + 1) & 3, (me + 3) & 3)
        if not trick:
            # Cash side-suit bosses the opponents can follow (not known void).
            for c in sorted(mask_cards(legal & NON_SPADES), key=lambda x: -(x % 13)):
                s = c // 13
                if is_boss(c, hand, played) and not any(view.voids[o] >> s & 1 for o in opps):
                    return cheapest_equivalent(c, hand, played)
            sp = legal & SPADES
            if sp and is_boss(highest(sp), hand, played):
                return cheapest_equivalent(highest(sp), hand, played)
            # Lead low from the shortest side suit to make a void for ruffing later.
            side = legal & NON_SPADES
            if side:
                if hand & SPADES:
                    s = min(
                        (s for s in range(3) if side & SUIT_MASKS[s]),
                        key=lambda s: (side & SUIT_MASKS[s]).bit_count(),
                    )
                else:
                    s = max(
                        (s for s in range(3) if side & SUIT_MASKS[s]),
                        key=lambda s: (side & SUIT_MASKS[s]).bit_count(),
                    )
                return lowest(side & SUIT_MASKS[s])
            return lowest(legal)
        led = trick[0] // 13
        win = view.win_card
        pos = len(trick)  # 1: second hand, 2: third hand, 3: last
        partner_winning = view.win_seat == (me ^ 2)
        follow = legal & SUIT_MASKS[led]
        if partner_winning and (pos == 3 or self._holds(view, win)):
            return self._discard_low(view, follow)
        if follow:
            beat = beating(follow, win, led)
            if not beat:
                return lowest(follow)
            if pos == 3:
                return lowest(beat)
            top = highest(beat)
            if is_boss(top, hand, played):
                return cheapest_equivalent(top, hand, played)
            if pos == 2:
                return cheapest_equivalent(top, hand, played)
            return lowest(follow)  # second hand low
        ruff = beating(legal & SPADES, win, led)
        if ruff:
            return lowest(ruff)
        return self._discard_low(view, 0)

    def _holds(self, view: PlayView, win: int) -> bool:
        """Whether the card winning the trick will probably hold: a boss nobody left can ruff."""
        if not is_boss(win, view.hand, view.played):
            return False
        led = view.trick[0] // 13
        if win // 13 != led:
            return True  # a ruff: only an overruff beats it; treat boss spade as holding
        for i in range(len(view.trick) + 1, 4):
            seat = (view.leader + i) & 3
            if seat != view.seat and view.voids[seat] >> led & 1 and not view.voids[seat] >> 3 & 1:
                return False
        return True

    def _discard_low(self, view: PlayView, follow: int) -> int:
        legal = view.legal
        if follow:
            return lowest(follow)
        side = legal & NON_SPADES
        if side:
            # Shed the lowest card of the shortest side suit (not a boss).
            best = None
            for s in range(3):
                sm = side & SUIT_MASKS[s]
                if sm:
                    c = lowest(sm)
                    key = (is_boss(c, view.hand, view.played), sm.bit_count(), c % 13)
                    if best is None or key < best[0]:
                        best = (key, c)
            return best[1]  # type: ignore[index]
        return lowest(legal)

    # -- avoid taking the trick (bags) ---------------------------------------------------
    def _duck(self, view: PlayView) -> int:
        legal = view.legal
        trick = view.trick
        if not trick:
            return lowest_side_card(legal)
        led = trick[0] // 13
        win = view.win_card
        follow = legal & SUIT_MASKS[led]
        if view.win_seat == (view.seat ^ 2) and follow:
            return lowest(follow)
        if follow:
            under = follow & ~beating(follow, win, led)
            if under:
                return highest(under)
            return highest(follow) if len(trick) == 3 else lowest(follow)
        side = legal & NON_SPADES
        if side:
            return max(mask_cards(side), key=lambda c: c % 13)
        under = legal & ~beating(legal, win, led)
        return highest(under) if under else lowest(legal)

    # -- cover a nil-bidding partner (never abandoned; App. D.2) ---------------------------
    def _cover(self, view: PlayView) -> int:
        legal, hand, played = view.legal, view.hand, view.played
        partner = view.seat ^ 2
        trick = view.trick
        if not trick:
            side = legal & NON_SPADES
            # Lead high in a suit partner is void in (partner discards freely), else our highest.
            for s in range(3):
                if view.voids[partner] >> s & 1 and side & SUIT_MASKS[s]:
                    return highest(side & SUIT_MASKS[s])
            pool = side or legal
            return max(mask_cards(pool), key=lambda c: (c % 13, is_boss(c, hand, played)))
        led = trick[0] // 13
        win = view.win_card
        follow = legal & SUIT_MASKS[led]
        partner_played = (partner - view.leader) & 3 < len(trick)
        if partner_played:
            if view.win_seat == partner:
                beat = beating(legal, win, led)
                if beat:
                    return lowest(beat & SUIT_MASKS[led]) if beat & SUIT_MASKS[led] else lowest(beat)
                return self._discard_low(view, follow)
            return self._discard_low(view, follow)
        # Partner plays after us: make the card to beat as high as we can.
        if follow:
            return highest(follow)
        ruff = beating(legal & SPADES, win, led)
        if ruff:
            return lowest(ruff)
        return self._discard_low(view, 0)

    # -- set an opponent's nil -------------------------------------------------------------
    def _set_nil(self, view: PlayView, niler: int) -> int:
        legal = view.legal
        trick = view.trick
        if not trick:
            # Lead low in a suit the nil bidder still holds.
            pool = legal & NON_SPADES or legal
            cands = [c for c in mask_cards(pool) if not view.voids[niler] >> (c // 13) & 1] or mask_cards(
                pool
            )
            return min(cands, key=lambda c: c % 13)
        led = trick[0] // 13
        win = view.win_card
        follow = legal & SUIT_MASKS[led]
        niler_played = (niler - view.leader) & 3 < len(trick)
        if niler_played and view.win_seat == niler:
            if follow:
                under = follow & ~beating(follow, win, led)
                return highest(under) if under else lowest(follow)
            side = legal & NON_SPADES
            if side:
                return max(mask_cards(side), key=lambda c: c % 13)
            under = legal & ~beating(legal, win, led)
            return highest(under) if under else lowest(legal)
        if niler_played:
            return self._duck(view) if follow else self._discard_low(view, 0)
        # The nil bidder plays after us: keep the card to beat low.
        if follow:
            return lowest(follow)
        return self._discard_low(view, 0)
