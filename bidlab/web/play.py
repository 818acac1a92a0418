"""Card play at the web table: the rules and the record of the hand are
:class:`bidlab.bridge.play.CardPlay`; bots play with a card player of
:mod:`bidlab.search.cardplay` (single dummy by default, or the labelled double-dummy setting).
"""

from __future__ import annotations

from bidlab.bridge.play import CardPlay, Trick, trick_winner

__all__ = ["CardPlay", "Trick", "trick_winner"]
