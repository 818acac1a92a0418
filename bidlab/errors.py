"""Exceptions raised by bidlab.

Every error a user can provoke with bad input is a subclass of :class:`BidlabError`,
so callers can catch one type, and every message says what was wrong and where.
Parsing errors subclass ``ValueError`` as well, so generic code that expects one
still works.
"""

from __future__ import annotations


class BidlabError(Exception):
    """Base class of all errors bidlab raises on purpose."""


class ParseError(BidlabError, ValueError):
    """Text that should describe a card, hand, deal, call, or file does not.

    ``where`` names the place (a field, a tag, a line and column, a call index)
    and is prefixed to the message.
    """

    def __init__(self, message: str, *, where: str | None = None, text: str | None = None):
        self.where = where
        self.text = text
        full = message
        if text is not None:
            full = f"{full}: {text!r}"
        if where:
            full = f"{where}: {full}"
        super().__init__(full)


class CardError(ParseError):
    """A card, hand, or deal string is malformed."""


class DealError(ParseError):
    """A deal is not a deal: missing or repeated cards, hands of the wrong size."""


class CallError(ParseError):
    """A call string is not a call."""


class IllegalCallError(BidlabError, ValueError):
    """A call was made that the rules of the auction do not allow at that point."""

    def __init__(self, message: str, *, call_index: int | None = None):
        self.call_index = call_index
        if call_index is not None:
            message = f"call {call_index + 1}: {message}"
        super().__init__(message)


class AuctionOverError(IllegalCallError):
    """A call was made after the auction had already ended."""


class BoardError(BidlabError, ValueError):
    """A board number or board description is invalid."""


class FileFormatError(ParseError):
    """A PBN or LIN (or other outside-format) file is malformed."""
