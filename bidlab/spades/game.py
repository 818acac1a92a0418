"""Playing rounds and games: bidding, the blind nil exchange, the play, scoring (Sec. 2).

The dealer rotates clockwise each round; bidding starts at the dealer's left. A bidder
may bid blind nil (asked before it looks at its hand) when the rules allow it and its
side trails by at least ``rules.blind_nil_margin``; with ``rules.blind_nil_exchange`` = n,
the partner then passes n cards to the blind nil bidder, who passes n back (possibly some
it just received), and each of the two knows where the cards it passed are.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bidlab.spades.bidders import Bidder, BidView
from bidlab.spades.engine import FULL_DECK, RoundState, card_str
from bidlab.spades.errors import IllegalBidError, IllegalPlayError
from bidlab.spades.players import Player
from bidlab.spades.rules import Rules, game_winner


def deal_hands(rng: random.Random) -> list[int]:
    """Four 13-card hand masks, uniformly at random."""
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(cards):
        hands[i & 3] |= 1 << c
    return hands


@dataclass(slots=True)
class RoundRecord:
    dealer: int
    hands: tuple[int, int, int, int]  # as dealt (before any exchange)
    bids: tuple[int, int, int, int]
    blind: tuple[bool, bool, bool, bool]
    tricks: tuple[int, int, int, int]
    points: tuple[int, int]
    bags_after: tuple[int, int]
    plays: tuple[int, ...] = ()

    def to_dict(self) -> dict:
        return {
            "dealer": self.dealer,
            "bids": list(self.bids),
            "blind": list(self.blind),
            "tricks": list(self.tricks),
            "points": list(self.points),
            "bags_after": list(self.bags_after),
        }


@dataclass(slots=True)
class GameRecord:
    winner: int  # 0 NS, 1 EW, -1 draw
    scores: tuple[int, int]
    rounds: list[RoundRecord] = field(default_factory=list)


def collect_bids(
    rules: Rules,
    hands: list[int],
    dealer: int,
    bidders: Sequence[Bidder],
    scores: tuple[int, int],
    bags: tuple[int, int],
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    bids: list[int] = []
    blind: list[bool] = []
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        side = seat & 1
        common = dict(
            seat=seat, dealer=dealer, prev_bids=tuple(bids), prev_blind=tuple(blind), rules=rules,
            our_score=scores[side], their_score=scores[1 - side], our_bags=bags[side], their_bags=bags[1 - side],
        )  # fmt: skip
        if rules.blind_nil_allowed(scores[side], scores[1 - side]) and bidders[seat].blind_nil(
            BidView(hand=0, **common)
        ):
            bids.append(0)
            blind.append(True)
            continue
        b = bidders[seat].bid(BidView(hand=hands[seat], **common))
        if isinstance(b, bool) or not isinstance(b, int) or not 0 <= b <= 13:
            raise IllegalBidError(
                f"bidder {getattr(bidders[seat], 'name', '?')} at seat {'NESW'[seat]} bid {b!r}; bids are ints 0..13"
            )
        bids.append(b)
        blind.append(False)
    # Reorder from bidding order to seat order.
    first = (dealer + 1) % 4
    by_seat = [0] * 4
    blind_seat = [False] * 4
    for i in range(4):
        by_seat[(first + i) % 4] = bids[i]
        blind_seat[(first + i) % 4] = blind[i]
    return tuple(by_seat), tuple(blind_seat)


def blind_nil_exchange(
    rules: Rules, hands: list[int], blind: tuple[bool, ...], players: Sequence[Player]
) -> tuple[tuple[int, int, int, int], ...]:
    """Do the exchange in place; returns ``known[viewer][seat]`` masks."""
    known = [[0] * 4 for _ in range(4)]
    n = rules.blind_nil_exchange
    if n == 0:
        return tuple(tuple(k) for k in known)  # type: ignore[return-value]
    for niler in range(4):
        if not blind[niler]:
            continue
        partner = niler ^ 2
        # Pagat: the partner passes first; the nil bidder then passes back from its new hand.
        back = _checked_pass(players[partner].exchange(hands[partner], n, True), hands[partner], n, partner)
        hands[partner] &= ~back
        hands[niler] |= back
        give = _checked_pass(players[niler].exchange(hands[niler], n, False), hands[niler], n, niler)
        hands[niler] &= ~give
        hands[partner] |= give
        known[niler][partner] |= give
        known[partner][niler] |= back & ~give
    return tuple(tuple(k) for k in known)  # type: ignore[return-value]


def _checked_pass(mask, hand: int, n: int, seat: int) -> int:
    if not isinstance(mask, int) or mask & ~hand or mask.bit_count() != n:
        raise IllegalPlayError(
            f"seat {'NESW'[seat]} must pass {n} cards of its own hand in the blind nil exchange"
        )
    return mask


def play_round(
    rules: Rules,
    hands: list[int],
    dealer: int,
    bidders: Sequence[Bidder],
    players: Sequence[Player],
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
    on_card: Callable[[RoundState, int, int], None] | None = None,
) -> RoundRecord:
    """Bid and play one round. ``scores``/``bags`` are the sides' totals before it."""
    dealt = tuple(hands)
    if (
        len(hands) != 4
        or any(h.bit_count() != 13 for h in hands)
        or (hands[0] | hands[1] | hands[2] | hands[3]) != FULL_DECK
    ):
        raise IllegalPlayError("a round needs four disjoint 13-card hands")
    hands = list(hands)
    bids, blind = collect_bids(rules, hands, dealer, bidders, scores, bags)
    known = blind_nil_exchange(rules, hands, blind, players)
    state = RoundState(rules, hands, dealer, bids, blind, known)  # type: ignore[arg-type]
    while state.n_played < 52:
        seat = state.to_play
        legal = state.legal_mask()
        if legal & (legal - 1) == 0:
            card = legal.bit_length() - 1
        else:
            card = players[seat].play(state.view(seat, scores, bags))
            if not isinstance(card, int) or not legal >> card & 1:
                name = getattr(players[seat], "name", "?")
                shown = card_str(card) if isinstance(card, int) and 0 <= card < 52 else repr(card)
                raise IllegalPlayError(f"player {name} at seat {'NESW'[seat]} played illegal card {shown}")
        state.play(card)
        if on_card is not None:
            on_card(state, seat, card)
    ns, ew = state.score(bags)
    return RoundRecord(
        dealer,
        dealt,
        bids,
        blind,
        tuple(state.tricks),
        (ns.points, ew.points),
        (ns.bags, ew.bags),
        tuple(state.plays),  # type: ignore[arg-type]
    )


def play_game(
    rules: Rules,
    bidders: Sequence[Bidder],
    players: Sequence[Player],
    deal_rng: random.Random,
    first_dealer: int = 0,
) -> GameRecord:
    """Play rounds until :func:`~bidlab.spades.rules.game_winner` decides the game."""
    scores = (0, 0)
    bags = (0, 0)
    rounds: list[RoundRecord] = []
    dealer = first_dealer
    while True:
        rec = play_round(rules, deal_hands(deal_rng), dealer, bidders, players, scores, bags)
        rounds.append(rec)
        scores = (scores[0] + rec.points[0], scores[1] + rec.points[1])
        bags = rec.bags_after
        winner = game_winner(rules, scores, len(rounds))
        if winner is not None:
            return GameRecord(winner, scores, rounds)
        dealer = (dealer + 1) % 4
