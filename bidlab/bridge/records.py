"""A board as a file records it: the deal, the auction, the contract and result, other tags.

PBN and LIN both read into and write from :class:`BoardRecord`, so the rest of bidlab
never sees either format.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bidlab.bridge.auction import Auction, Contract
from bidlab.bridge.board import Board


@dataclass(frozen=True, slots=True)
class Tag:
    """A PBN tag bidlab does not interpret, kept for the round trip.

    ``section`` holds the lines that followed the tag (tables such as
    ``OptimumResultTable``), verbatim.
    """

    name: str
    value: str
    section: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """One board of a file.

    ``contract`` is the recorded final contract; ``passed_out`` is True when the file
    says the board was passed out; both are empty when the file says nothing.
    ``tricks`` is declarer's trick count (PBN's Result tag).
    """

    board: Board
    auction: Auction | None = None
    contract: Contract | None = None
    passed_out: bool = False
    tricks: int | None = None
    tags: tuple[Tag, ...] = field(default=())

    def tag(self, name: str) -> str | None:
        """The value of an uninterpreted tag (case-insensitive), or None."""
        for t in self.tags:
            if t.name.lower() == name.lower():
                return t.value
        return None
