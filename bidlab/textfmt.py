"""Numbers as people read them in summaries: a missing value is "n/a", never ``nan``, and a
value that rounds to zero is "0.00", never "-0.00".

A one-board match has no standard error, and an agent that never opened 1NT has no
conformity rate; such values are ``nan`` in the data and "n/a" on the screen and in reports.
"""

from __future__ import annotations

import math

NA = "n/a"


def _finite(x) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def plain(x, digits: int = 2) -> str:
    """``x`` with ``digits`` decimals; "n/a" for None or nan; no negative zero."""
    v = _finite(x)
    if v is None:
        return NA
    text = f"{v:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def signed(x, digits: int = 2) -> str:
    """``x`` with an explicit sign ("+0.14", "-0.07"); zero has no sign; "n/a" for nan."""
    text = plain(x, digits)
    if text == NA or float(text) == 0 or text.startswith("-"):
        return text
    return "+" + text


def plus_minus(mean, se, digits: int = 2) -> str:
    """"+0.14 ± 0.07"; a missing standard error reads "± n/a"."""
    return f"{signed(mean, digits)} ± {plain(se, digits)}"


def percent(fraction, digits: int = 1) -> str:
    """A fraction as a percentage ("37.5%"); "n/a" when there is nothing to count."""
    v = _finite(fraction)
    return NA if v is None else f"{plain(100 * v, digits)}%"
