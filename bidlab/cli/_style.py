"""Suit symbols in colour on the terminal, as on a four-colour deck: ♠ black (bold, so it
shows on dark terminals too), ♥ red, ♦ orange, ♣ green. Files keep plain letters; this is
only for what rich prints to a screen."""

from __future__ import annotations

from rich.text import Text

SUIT_STYLES = {"♠": "bold", "♥": "bold red", "♦": "bold dark_orange", "♣": "bold green"}


def suits_in_colour(text: str | Text) -> Text:
    """``text`` as rich Text with every suit symbol styled; the characters are unchanged, so
    column alignment done on the plain text still holds."""
    out = text.copy() if isinstance(text, Text) else Text(text)
    for symbol, style in SUIT_STYLES.items():
        out.highlight_regex(symbol, style)
    return out
