"""Errors raised by the Spades layer; all are :class:`bidlab.errors.BidlabError`."""

from __future__ import annotations

from bidlab.errors import BidlabError


class SpadesError(BidlabError):
    """Base class of the errors the Spades layer raises on purpose."""


class RulesError(SpadesError, ValueError):
    """A :class:`~bidlab.spades.rules.Rules` option has an impossible value."""


class IllegalBidError(SpadesError, ValueError):
    """A bidder returned a bid the rules do not allow (says which seat and what bid)."""


class IllegalPlayError(SpadesError, ValueError):
    """A card was played that is not in the player's hand or breaks a play rule."""


class TournamentError(SpadesError, ValueError):
    """A tournament was set up inconsistently (unknown bidder, mismatched resume file...)."""
