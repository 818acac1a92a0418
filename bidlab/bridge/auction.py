"""The auction: legal calls, end of the auction, final contract and declarer (Laws 18-22)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bidlab.bridge import rules
from bidlab.bridge.calls import ALL_CALLS, Call, Strain
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

    Legality and the end of the auction come from the state-code tables of
    :mod:`bidlab.bridge.rules` (the one implementation of the rules, shared with the array
    state in :mod:`bidlab.envs.state`), so :meth:`legal_calls` and :meth:`with_call` cost
    O(1) per call. Beside the code, the auction keeps the last bidder and the first seat of
    each side to name each strain (for the declarer).
    """

    __slots__ = ("dealer", "calls", "_code", "_last_bidder", "_first_namer")

    def __init__(self, dealer: Seat | int = Seat.N, calls: Iterable[Call | str | int] = ()):
        object.__setattr__(self, "dealer", Seat.parse(dealer))
        object.__setattr__(self, "calls", ())
        object.__setattr__(self, "_code", rules.INITIAL)
        object.__setattr__(self, "_last_bidder", None)
        object.__setattr__(self, "_first_namer", {})
        for i, c in enumerate(calls):
            call = c if isinstance(c, Call) else (Call(c) if isinstance(c, int) else _parse_at(c, i))
            self._apply_in_place(call)

    def __setattr__(self, name, value):
        raise AttributeError("Auction is immutable; use with_call()")

    @classmethod
    def from_rules_state(cls, dealer: Seat | int, call_ids: Iterable[int], code: int, last_bidder: int | None,
                         first_namers: dict[tuple[int, Strain], Seat]) -> Auction:
        """An auction whose state was already worked out by the rules tables (a row of
        :class:`bidlab.envs.state.AuctionState`): no replay and no legality check, O(calls).
        ``first_namers`` maps (side, strain) to the first seat of that side to name it."""
        new = cls.__new__(cls)
        object.__setattr__(new, "dealer", Seat(int(dealer)))
        object.__setattr__(new, "calls", tuple(ALL_CALLS[i] for i in call_ids))
        object.__setattr__(new, "_code", int(code))
        object.__setattr__(new, "_last_bidder", None if last_bidder is None else Seat(last_bidder))
        object.__setattr__(new, "_first_namer", first_namers)
        return new

    def _apply_in_place(self, call: Call) -> None:
        i = len(self.calls)
        if self.is_over:
            raise AuctionOverError(f"the auction is over; {call} cannot be made", call_index=i)
        seat = self.to_act
        if not rules.LEGAL[self._code, call.id + 1]:
            raise IllegalCallError(self._why_illegal(call, seat), call_index=i)
        if call.is_bid:
            object.__setattr__(self, "_last_bidder", seat)
            key = (seat.side, call.strain)
            if key not in self._first_namer:
                object.__setattr__(self, "_first_namer", {**self._first_namer, key: seat})
        object.__setattr__(self, "_code", int(rules.NEXT[self._code, call.id + 1]))
        # one Call object per id (ALL_CALLS), so that every auction holds the same objects
        object.__setattr__(self, "calls", self.calls + (ALL_CALLS[call.id],))

    def _why_illegal(self, call: Call, seat: Seat) -> str:
        """The reason, in words, that the tables refused ``call`` (for the error message)."""
        last, doubled = self.last_bid, self.doubled
        if call.is_bid:
            return f"{call} by {seat.letter} is not higher than the last bid {last}"
        if call.is_double:
            if last is None:
                return f"X by {seat.letter}: there is no bid to double"
            if doubled:
                return f"X by {seat.letter}: {last} is already {'doubled' if doubled == 1 else 'redoubled'}"
            return f"X by {seat.letter}: the last bid {last} was made by your side"
        if doubled != 1:
            return f"XX by {seat.letter}: only a doubled bid can be redoubled"
        return f"XX by {seat.letter}: only the side that made the doubled bid can redouble"

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
    def code(self) -> int:
        """The auction's state code in :mod:`bidlab.bridge.rules`."""
        return self._code

    @property
    def is_over(self) -> bool:
        """Four passes at the start, or three passes in a row after a bid."""
        return bool(rules.OVER[self._code])

    @property
    def is_passed_out(self) -> bool:
        return self.is_over and self.last_bid is None

    @property
    def last_bid(self) -> Call | None:
        lb = int(rules.LAST_BID[self._code])
        return ALL_CALLS[lb] if lb else None

    @property
    def last_bidder(self) -> Seat | None:
        return self._last_bidder

    @property
    def doubled(self) -> int:
        """Doubled state of the last bid: 0, 1 (doubled), 2 (redoubled)."""
        return int(rules.DOUBLED[self._code])

    def is_legal(self, call: Call) -> bool:
        return bool(rules.LEGAL[self._code, call.id + 1]) and not self.is_over

    def legal_calls(self) -> list[Call]:
        """All calls legal now, in id order (empty once the auction is over)."""
        return [ALL_CALLS[i] for i in rules.LEGAL_LIST[self._code, :rules.LEGAL_COUNT[self._code]]]

    def legal_mask(self) -> list[bool]:
        return rules.LEGAL[self._code, 1:].tolist()

    @property
    def contract(self) -> Contract | None:
        """The final contract once the auction is over (None if passed out or not over)."""
        last = self.last_bid
        if not self.is_over or last is None:
            return None
        return Contract(last.level, last.strain, self.doubled, self.declarer)

    @property
    def declarer(self) -> Seat | None:
        """First player of the declaring side to name the final strain."""
        last = self.last_bid
        if last is None:
            return None
        return self._first_namer[(self._last_bidder.side, last.strain)]

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
