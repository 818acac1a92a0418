"""Plain-text bridge diagrams of a board."""

from __future__ import annotations

from bidlab.bridge.board import Board
from bidlab.cards import SUITS_HIGH_FIRST, Hand, Seat


def _hand_lines(hand: Hand, seat: Seat) -> list[str]:
    lines = [f"{seat.full_name} ({hand.hcp} HCP)"]
    for s in SUITS_HIGH_FIRST:
        ranks = " ".join(r.char for r in hand.suit_ranks(s)) or "-"
        lines.append(f"{s.symbol} {ranks}")
    return lines


def board_diagram(board: Board) -> str:
    """A four-hand diagram with board number, dealer, vulnerability and HCP."""
    d = board.deal
    north, south = _hand_lines(d[Seat.N], Seat.N), _hand_lines(d[Seat.S], Seat.S)
    west, east = _hand_lines(d[Seat.W], Seat.W), _hand_lines(d[Seat.E], Seat.E)
    pad = " " * 22
    out = [f"Board {board.number}   Dealer {board.dealer.full_name}   Vul {board.vulnerability.pbn}", ""]
    out += [pad + line for line in north]
    out.append("")
    for w, e in zip(west, east):
        out.append(f"{w:<44}{e}")
    out.append("")
    out += [pad + line for line in south]
    return "\n".join(out)
