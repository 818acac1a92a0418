"""The auction: legal calls, end of the auction, final contract and declarer (Laws 18-22)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bidlab.bridge.calls import ALL_CALLS, DOUBLE, PASS, REDOUBLE, Call, Strain
from bidlab.cards import Seat
from bidlab.errors import AuctionOverError, CallError, IllegalCallError


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract: level, strain, doubled state (0, 1 X, 2 XX) and declarer."""

    level: int
    strain: Strain
    doubled: int
    declarer: Seat

    @property
    def side(self) -> int:
        return self.declarer.side

    def to_str(self, symbols: bool = False) -> str:
        s = self.strain.symbol if symbols else self.strain.letter
        return f"{self.level}{s}{'X' * self.doubled}"

    def __str__(self) -> str:
        return f"{self.to_str()} by {self.declarer.letter}"

    @classmethod
    def parse(cls, text: str, declarer: Seat | str) -> Contract:
        """Parse ``"4SX"``, ``"3NTXX"``, ``"4♠"`` with the given declarer."""
        t = text.strip().upper()
        doubled = 0
        while t.endswith("X") and doubled < 2:
            t = t[:-1]
            doubled += 1
        if t.endswith("X"):
            raise CallError("a contract is a bid followed by at most XX (redoubled)", text=text)
        if not t:
            raise CallError("a contract must be a bid such as 4S or 3NT, optionally followed by X or XX",
                            text=text)
        call = Call.parse(t)
        if not call.is_bid:
            raise CallError("a contract must be a bid, optionally followed by X or XX", text=text)
        return cls(call.level, call.strain, doubled, Seat.parse(declarer))


class Auction:
    """An immutable auction: the dealer and the calls made so far.

    Derived state (last bid, who made it, doubled state, passes in a row, who
    first named each strain per side) is kept alongside so that
    :meth:`legal_calls` and :meth:`with_call` cost O(1) per call.
    """

    __slots__ = ("dealer", "calls", "_last_bid", "_last_bidder", "_doubled", "_passes",
                 "_first_namer")

    def __init__(self, dealer: Seat | int = Seat.N, calls: Iterable[Call | str | int] = ()):
        object.__setattr__(self, "dealer", Seat.parse(dealer))
        object.__setattr__(self, "calls", ())
        object.__setattr__(self, "_last_bid", None)
        object.__setattr__(self, "_last_bidder", None)
        object.__setattr__(self, "_doubled", 0)
        object.__setattr__(self, "_passes", 0)
        object.__setattr__(self, "_first_namer", {})
        for i, c in enumerate(calls):
            call = c if isinstance(c, Call) else (Call(c) if isinstance(c, int) else _parse_at(c, i))
            self._apply_in_place(call)

    def __setattr__(self, name, value):
        raise AttributeError("Auction is immutable; use with_call()")

    def _apply_in_place(self, call: Call) -> None:
        i = len(self.calls)
        if self.is_over:
            raise AuctionOverError(f"the auction is over; {call} cannot be made", call_index=i)
        seat = self.to_act
        if call.is_bid:
            if self._last_bid is not None and call.id <= self._last_bid.id:
                raise IllegalCallError(
                    f"{call} by {seat.letter} is not higher than the last bid {self._last_bid}",
                    call_index=i,
                )
            object.__setattr__(self, "_last_bid", call)
            object.__setattr__(self, "_last_bidder", seat)
            object.__setattr__(self, "_doubled", 0)
            object.__setattr__(self, "_passes", 0)
            key = (seat.side, call.strain)
            if key not in self._first_namer:
                namer = dict(self._first_namer)
                namer[key] = seat
                object.__setattr__(self, "_first_namer", namer)
        elif call.is_double:
            reason = self._double_problem(seat)
            if reason:
                raise IllegalCallError(f"X by {seat.letter}: {reason}", call_index=i)
            object.__setattr__(self, "_doubled", 1)
            object.__setattr__(self, "_passes", 0)
        elif call.is_redouble:
            reason = self._redouble_problem(seat)
            if reason:
                raise IllegalCallError(f"XX by {seat.letter}: {reason}", call_index=i)
            object.__setattr__(self, "_doubled", 2)
            object.__setattr__(self, "_passes", 0)
        else:
            object.__setattr__(self, "_passes", self._passes + 1)
        object.__setattr__(self, "calls", self.calls + (call,))

    def _double_problem(self, seat: Seat) -> str | None:
        if self._last_bid is None:
            return "there is no bid to double"
        if self._last_bidder.side == seat.side:
            return f"the last bid {self._last_bid} was made by your side"
        if self._doubled:
            return f"{self._last_bid} is already {'doubled' if self._doubled == 1 else 'redoubled'}"
        return None

    def _redouble_problem(self, seat: Seat) -> str | None:
        if self._doubled != 1:
            return "only a doubled bid can be redoubled"
        if self._last_bidder.side != seat.side:
            return "only the side that made the doubled bid can redouble"
        return None

    # -- queries ---------------------------------------------------------------------------

    def with_call(self, call: Call | str | int) -> Auction:
        """The auction after one more call; raises :class:`IllegalCallError` if not legal."""
        c = call if isinstance(call, Call) else (Call(call) if isinstance(call, int) else _parse_at(call, len(self.calls)))
        new = Auction.__new__(Auction)
        for name in Auction.__slots__:
            object.__setattr__(new, name, getattr(self, name))
        new._apply_in_place(c)
        return new

    def __len__(self) -> int:
        return len(self.calls)

    def __eq__(self, other) -> bool:
        return isinstance(other, Auction) and (self.dealer, self.calls) == (other.dealer, other.calls)

    def __hash__(self) -> int:
        return hash((self.dealer, self.calls))

    @property
    def to_act(self) -> Seat:
        """The seat whose turn it is (meaningless once the auction is over)."""
        return self.dealer.next(len(self.calls))

    @property
    def is_over(self) -> bool:
        """Four passes at the start, or three passes in a row after a bid."""
        if self._last_bid is None:
            return self._passes >= 4
        return self._passes >= 3

    @property
    def is_passed_out(self) -> bool:
        return self._last_bid is None and self._passes >= 4

    @property
    def last_bid(self) -> Call | None:
        return self._last_bid

    @property
    def last_bidder(self) -> Seat | None:
        return self._last_bidder

    @property
    def doubled(self) -> int:
        """Doubled state of the last bid: 0, 1 (doubled), 2 (redoubled)."""
        return self._doubled

    def is_legal(self, call: Call) -> bool:
        if self.is_over:
            return False
        if call.is_pass:
            return True
        if call.is_bid:
            return self._last_bid is None or call.id > self._last_bid.id
        seat = self.to_act
        if call.is_double:
            return self._double_problem(seat) is None
        return self._redouble_problem(seat) is None

    def legal_calls(self) -> list[Call]:
        """All calls legal now, in id order (empty once the auction is over)."""
        if self.is_over:
            return []
        out = [PASS]
        seat = self.to_act
        if self._double_problem(seat) is None:
            out.append(DOUBLE)
        if self._redouble_problem(seat) is None:
            out.append(REDOUBLE)
        start = 3 if self._last_bid is None else self._last_bid.id + 1
        out.extend(ALL_CALLS[start:])
        return out

    def legal_mask(self) -> list[bool]:
        legal = {c.id for c in self.legal_calls()}
        return [i in legal for i in range(len(ALL_CALLS))]

    @property
    def contract(self) -> Contract | None:
        """The final contract once the auction is over (None if passed out or not over)."""
        if not self.is_over or self._last_bid is None:
            return None
        return Contract(self._last_bid.level, self._last_bid.strain, self._doubled, self.declarer)

    @property
    def declarer(self) -> Seat | None:
        """First player of the declaring side to name the final strain."""
        if self._last_bid is None:
            return None
        return self._first_namer[(self._last_bidder.side, self._last_bid.strain)]

    def seat_of(self, index: int) -> Seat:
        """The seat that made call number ``index`` (0-based)."""
        return self.dealer.next(index)

    def to_str(self, symbols: bool = False) -> str:
        return " ".join(c.to_str(symbols) for c in self.calls)

    def __str__(self) -> str:
        return f"{self.dealer.letter}: {self.to_str() or '(no calls)'}"

    def __repr__(self) -> str:
        return f"Auction({self.dealer.letter!r}, {self.to_str()!r})"

    @classmethod
    def parse(cls, text: str, dealer: Seat | str = Seat.N) -> Auction:
        """Parse whitespace- or dash-separated calls, e.g. ``"1S P 2S P P P"``."""
        tokens = text.replace("-", " ").replace(",", " ").split()
        return cls(Seat.parse(dealer), [_parse_at(t, i) for i, t in enumerate(tokens)])


def _parse_at(text: str, index: int) -> Call:
    try:
        return Call.parse(text)
    except CallError as e:
        raise CallError(str(e), where=f"call {index + 1}") from None
