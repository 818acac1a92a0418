"""Boards: board number, dealer and vulnerability by the standard 16-board cycle."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from bidlab.cards import Deal, Seat
from bidlab.errors import BoardError


class Vulnerability(IntEnum):
    """Which sides are vulnerable."""

    NONE = 0
    NS = 1
    EW = 2
    BOTH = 3

    def is_vulnerable(self, seat_or_side: Seat | int, *, side: bool = False) -> bool:
        """Whether a seat (or, with ``side=True``, partnership 0 NS / 1 EW) is vulnerable."""
        s = int(seat_or_side) if side else int(seat_or_side) % 2
        return self == Vulnerability.BOTH or (self == Vulnerability.NS and s == 0) or (
            self == Vulnerability.EW and s == 1
        )

    @property
    def pbn(self) -> str:
        return ("None", "NS", "EW", "All")[self]

    @classmethod
    def parse(cls, text: str | int | Vulnerability) -> Vulnerability:
        if isinstance(text, int) and not isinstance(text, bool):
            if 0 <= text <= 3:
                return cls(text)
            raise BoardError(f"vulnerability must be 0..3, got {text}")
        t = str(text).strip().upper().replace("-", "").replace("/", "").replace(" ", "")
        table = {
            "NONE": cls.NONE, "LOVE": cls.NONE, "0": cls.NONE, "O": cls.NONE, "NEITHER": cls.NONE,
            "NS": cls.NS, "N": cls.NS,
            "EW": cls.EW, "E": cls.EW,
            "ALL": cls.BOTH, "BOTH": cls.BOTH, "B": cls.BOTH,
        }
        if t in table:
            return table[t]
        raise BoardError(f"not a vulnerability (expected None, NS, EW or All): {text!r}")


# Vulnerability of boards 1..16; the cycle repeats every 16 boards.
_VUL_CYCLE = (
    "NONE", "NS", "EW", "BOTH", "NS", "EW", "BOTH", "NONE",
    "EW", "BOTH", "NONE", "NS", "BOTH", "NONE", "NS", "EW",
)


def board_dealer(number: int) -> Seat:
    """Dealer of a board: board 1 North, 2 East, 3 South, 4 West, and so on."""
    _check_number(number)
    return Seat((number - 1) % 4)


def board_vulnerability(number: int) -> Vulnerability:
    """Vulnerability of a board by the standard 16-board cycle."""
    _check_number(number)
    return Vulnerability[_VUL_CYCLE[(number - 1) % 16]]


def _check_number(number: int) -> None:
    if isinstance(number, bool) or not isinstance(number, int):
        raise BoardError(f"board number must be an integer, got {number!r}")
    if number < 1:
        raise BoardError(f"board number must be at least 1, got {number}")


@dataclass(frozen=True, slots=True)
class Board:
    """A deal with its board number, dealer and vulnerability."""

    deal: Deal
    number: int = 1
    dealer: Seat = Seat.N
    vulnerability: Vulnerability = Vulnerability.NONE

    @classmethod
    def numbered(cls, number: int, deal: Deal) -> Board:
        """A board whose dealer and vulnerability follow from its number."""
        return cls(deal, number, board_dealer(number), board_vulnerability(number))
