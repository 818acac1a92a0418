"""Calls of the auction, numbered as OpenSpiel numbers them.

Call id = OpenSpiel bridge action id - 52: 0 Pass, 1 Double, 2 Redouble,
3 + 5 * (level - 1) + strain for bids, strains clubs, diamonds, hearts, spades,
notrump = 0..4. The same 38 ids are used by pgx and both bridge papers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from bidlab.errors import CallError

NUM_CALLS = 38
NUM_BIDS = 35
PASS_ID, DOUBLE_ID, REDOUBLE_ID = 0, 1, 2


class Strain(IntEnum):
    """Trump strain of a bid or contract; notrump ranks highest."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    @property
    def letter(self) -> str:
        return ("C", "D", "H", "S", "NT")[self]

    @property
    def symbol(self) -> str:
        return ("♣", "♦", "♥", "♠", "NT")[self]

    @property
    def is_major(self) -> bool:
        return self in (Strain.HEARTS, Strain.SPADES)

    @property
    def is_minor(self) -> bool:
        return self in (Strain.CLUBS, Strain.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Strain:
        t = text.strip()
        u = t.upper()
        if u in ("NT", "N", "NOTRUMP", "NOTRUMPS", "SA"):
            return cls.NOTRUMP
        for i, names in enumerate((("C", "♣", "♧"), ("D", "♦", "♢"), ("H", "♥", "♡"), ("S", "♠", "♤"))):
            if u in names or t in names:
                return cls(i)
        raise CallError("not a strain (expected C, D, H, S, NT or ♣♦♥♠)", text=text)


@dataclass(frozen=True, order=True, slots=True)
class Call:
    """One call: pass, double, redouble, or a bid. Ordered by id."""

    id: int

    def __post_init__(self):
        if not isinstance(self.id, int) or not 0 <= self.id < NUM_CALLS:
            raise CallError(f"call id must be an integer 0..{NUM_CALLS - 1}", text=str(self.id))

    @classmethod
    def bid(cls, level: int, strain: Strain | int) -> Call:
        if not 1 <= level <= 7:
            raise CallError("bid level must be 1..7", text=str(level))
        return cls(3 + 5 * (level - 1) + int(strain))

    @property
    def is_pass(self) -> bool:
        return self.id == PASS_ID

    @property
    def is_double(self) -> bool:
        return self.id == DOUBLE_ID

    @property
    def is_redouble(self) -> bool:
        return self.id == REDOUBLE_ID

    @property
    def is_bid(self) -> bool:
        return self.id >= 3

    @property
    def level(self) -> int:
        if not self.is_bid:
            raise CallError(f"{self} is not a bid and has no level")
        return (self.id - 3) // 5 + 1

    @property
    def strain(self) -> Strain:
        if not self.is_bid:
            raise CallError(f"{self} is not a bid and has no strain")
        return Strain((self.id - 3) % 5)

    @property
    def action_id(self) -> int:
        """OpenSpiel's bridge action id."""
        return self.id + 52

    def to_str(self, symbols: bool = False) -> str:
        if self.id == PASS_ID:
            return "Pass"
        if self.id == DOUBLE_ID:
            return "X"
        if self.id == REDOUBLE_ID:
            return "XX"
        s = self.strain
        return f"{self.level}{s.symbol if symbols else s.letter}"

    def __str__(self) -> str:
        return self.to_str()

    def __repr__(self) -> str:
        return f"Call({self})"

    @classmethod
    def parse(cls, text: str | Call) -> Call:
        """Parse ``"P"``, ``"Pass"``, ``"X"``, ``"XX"``, ``"1NT"``, ``"4♠"``, ``"4S"``, ``"3N"``.

        Also accepts PBN's ``"AP"``-free forms ``"D"``/``"R"`` used by some tools
        (``"Dbl"``, ``"Rdbl"``) and LIN's lowercase ``"p"``, ``"d"``, ``"r"``.
        """
        if isinstance(text, Call):
            return text
        if not isinstance(text, str):
            raise CallError(f"a call must be a string, got {type(text).__name__}")
        t = text.strip()
        u = t.upper().rstrip("!")
        if u in ("P", "PASS", "PS"):
            return PASS
        if u in ("X", "D", "DBL", "DOUBLE"):
            return DOUBLE
        if u in ("XX", "R", "RDBL", "REDOUBLE"):
            return REDOUBLE
        if len(u) >= 2 and u[0] in "1234567":
            try:
                return cls.bid(int(u[0]), Strain.parse(t.rstrip("!")[1:]))
            except CallError:
                pass
        raise CallError("not a call (expected Pass, X, XX or a bid like 1NT, 4S, 4♠)", text=text)


PASS = Call(PASS_ID)
DOUBLE = Call(DOUBLE_ID)
REDOUBLE = Call(REDOUBLE_ID)
ALL_CALLS: tuple[Call, ...] = tuple(Call(i) for i in range(NUM_CALLS))
