"""Bidding one board at a time through the scalar :class:`~bidlab.bridge.Auction`: the
reference that tests hold the array :func:`~bidlab.envs.rollout.rollout` against."""

from __future__ import annotations

from bidlab.agents.base import BiddingView
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board


def bid_scalar(board: Board, seats, prefix=()) -> Auction:
    """``board`` bid to the end by ``seats`` (agents N, E, S, W), one ``act(view)`` per call,
    after the forced calls ``prefix``."""
    auction = Auction(board.dealer, prefix)
    while not auction.is_over:
        seat = auction.to_act
        view = BiddingView(seat, board.deal[seat], auction, board.vulnerability)
        auction = auction.with_call(seats[seat].act(view))
    return auction
