"""Means with standard errors, and how bidlab prints numbers that may be undefined.

All standard errors are of a mean: the sample standard deviation (``ddof=1``) over
``sqrt(n)``, undefined (nan) below two samples. Duplicate bridge pairs its two tables
inside one board record, so a match's per-board IMPs are already paired; a Spades
tournament plays each deal twice with seats swapped, so its rates are ratios whose
errors are clustered by game pair (:func:`ratio_se`).

Printing: a nan prints as ``n/a`` and a value that rounds to zero prints without a
minus sign, so no ``nan``, ``± nan``, ``-0.00`` or ``nan%`` reaches a user.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

NA = "n/a"


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its standard error over ``n`` samples (nan where undefined)."""

    mean: float
    se: float
    n: int

    def format(self, digits: int = 2, *, signed: bool = False) -> str:
        """``+0.12 ± 0.05``; ``n/a`` for an undefined mean; ``+0.12 ± n/a`` for one sample."""
        if not math.isfinite(self.mean):
            return NA
        return f"{fmt(self.mean, digits, signed=signed)} ± {fmt(self.se, digits)}"

    def __str__(self) -> str:
        return self.format()


def mean_se(values: Iterable[float]) -> Estimate:
    """Mean of ``values`` and its standard error ``std(ddof=1) / sqrt(n)``."""
    x = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=float).ravel()
    n = len(x)
    if n == 0:
        return Estimate(float("nan"), float("nan"), 0)
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return Estimate(float(x.mean()), se, n)


def paired_mean_se(a: Iterable[float], b: Iterable[float]) -> Estimate:
    """Mean difference ``a - b`` of paired samples (same deal, same seed) and its error."""
    a, b = np.asarray(list(a), dtype=float), np.asarray(list(b), dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    return mean_se(a - b)


def ratio_se(numerators: Iterable[float], denominators: Iterable[float]) -> Estimate:
    """``sum(num) / sum(den)`` over clusters, with its cluster-robust standard error.

    Each cluster (e.g. a Spades game pair) contributes a numerator (points won, games
    won) and a denominator (rounds, games). The error is the delta-method (linearised)
    one, ``sqrt(n/(n-1) * sum((num_i - r den_i)^2)) / sum(den)``; ``n`` is the number
    of clusters.
    """
    num = np.asarray(list(numerators), dtype=float)
    den = np.asarray(list(denominators), dtype=float)
    n = len(num)
    if n == 0 or den.sum() == 0:
        return Estimate(float("nan"), float("nan"), n)
    r = float(num.sum() / den.sum())
    if n < 2:
        return Estimate(r, float("nan"), n)
    ss = float(((num - r * den) ** 2).sum())
    return Estimate(r, math.sqrt(ss * n / (n - 1)) / float(den.sum()), n)


def fmt(x: float | None, digits: int = 2, *, signed: bool = False) -> str:
    """``x`` with ``digits`` decimals; ``n/a`` if undefined; never ``-0.00``."""
    if x is None or not math.isfinite(x):
        return NA
    s = f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"
    if float(s) == 0:  # -0.004 rounds to "-0.00": print the zero it is
        s = f"{0.0:+.{digits}f}" if signed else f"{0.0:.{digits}f}"
    return s


def fmt_percent(x: float | None, digits: int = 1) -> str:
    """A fraction as a percentage (``0.5`` -> ``50.0%``); ``n/a`` if undefined."""
    if x is None or not math.isfinite(x):
        return NA
    return fmt(100 * x, digits) + "%"
