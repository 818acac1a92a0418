"""Double-dummy card play: the tricks each legal card wins from a position in mid-play, by
DDS's SolveBoard through endplay (``endplay.dds.solve_board``).

A position is the four hands still held, the trump strain, the leader of the current trick
and the cards already in it. The answer counts the tricks the side on play takes from the
start of the current trick to the end of the hand, for every card it may play; a bot that
plays one of the cards with the most tricks plays double-dummy perfectly.
"""

from __future__ import annotations

from collections.abc import Sequence

from bidlab.bridge.calls import Strain
from bidlab.bridge.play import CardChoice, CardPlay
from bidlab.cards import Card, Hand, Rank, Seat, Suit
from bidlab.dd.solver import SolverError, _lock

# endplay names strains and seats by word; bidlab's Strain and Seat are in the same order.
_DENOM = ("clubs", "diamonds", "hearts", "spades", "nt")
_PLAYER = ("north", "east", "south", "west")
_SUIT_OF_DENOM = {"clubs": Suit.CLUBS, "diamonds": Suit.DIAMONDS, "hearts": Suit.HEARTS, "spades": Suit.SPADES}


def _from_endplay(card) -> Card:
    rank = Rank.parse(card.rank.name[-1])  # endplay ranks are named R2 .. RT, RJ, RQ, RK, RA
    return Card.from_index(_SUIT_OF_DENOM[card.suit.name] * 13 + rank)


def dd_card_values(hands: Sequence[Hand], strain: Strain | int, leader: Seat | int,
                   trick: Sequence[Card] = ()) -> dict[Card, int]:
    """``{card: tricks}`` for every legal card of the player on play.

    ``hands`` are the cards each seat (N, E, S, W) still holds, without the cards of
    ``trick``; ``trick`` holds the cards played to the current trick so far, from ``leader``.
    Tricks count from the start of the current trick, for the side on play.
    """
    from endplay.dds import solve_board
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Denom, Player

    leader = Seat(leader)
    start = [set(h) for h in hands]
    for i, card in enumerate(trick):  # the hands as they were when the trick began
        start[leader.next(i)].add(card)
    sizes = {len(h) for h in start}
    if len(sizes) != 1 or not 0 < sizes.pop() <= 13:
        raise SolverError(f"hands of unequal size at the start of the trick: {[len(h) for h in start]}")
    pbn = "N:" + " ".join(Hand(h).to_pbn() for h in start)
    deal = EndplayDeal(pbn)
    deal.trump = Denom[_DENOM[Strain(strain)]]
    deal.first = Player[_PLAYER[leader]]
    for card in trick:
        deal.play(f"{card.suit.letter}{card.rank.char}")
    with _lock:  # DDS keeps per-thread scratch memory; one solve at a time from Python
        solved = solve_board(deal)
    return {_from_endplay(c): int(t) for c, t in solved}


def best_dd_card(values: dict[Card, int]) -> Card:
    """A card with the most tricks; among equals the lowest (by rank, then suit), so a bot's
    play is repeatable."""
    top = max(values.values())
    return min((c for c, t in values.items() if t == top), key=lambda c: (c.rank, c.suit))


class DoubleDummyPlayer:
    """The **double-dummy** card player: it sees all four hands and plays one of the cards
    DDS says take the most tricks (:func:`best_dd_card`). It peeks by design, so it is a
    diagnostic and a named exception of the no-peeking rule, never a single-dummy bot; the
    web app offers it only under a setting labelled double dummy."""

    name = "dd"
    peeks = True

    def choose(self, play: CardPlay) -> CardChoice:
        values = dd_card_values([Hand(h) for h in play.hands], play.contract.strain, play.leader, play.trick)
        on_declarer_side = play.to_play.side == play.declarer.side
        base = play.declarer_tricks
        left = 13 - len(play.tricks)
        tricks = {c: float(base + (t if on_declarer_side else left - t)) for c, t in values.items()}
        return CardChoice(best_dd_card(values), tricks, {}, 1)
