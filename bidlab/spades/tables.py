"""BIS's probability tables, computed exactly (Cohensius et al. 2020, Sec. 4.1.1, 4.2, App. A).

The paper fills its tables by Monte Carlo (100K deals per entry). Both kinds of table only
ask how the unseen cards of ONE suit fall among the other three hands, which is a
multivariate hypergeometric distribution, so we sum it exactly instead:

- :func:`side_suit_table` - Table 1 (two opponents may ruff), Table 5 (one: an opponent bid
  nil) and Table 6 (three: cutthroat). Entry ``[k][j]``: the probability that each of the
  ``opponents`` dangerous hands holds more than ``j`` cards of a suit of which we hold ``k``,
  i.e. that the (j+1)-th round of the suit cannot be ruffed. It is the value of our A, K, Q
  (j = 0, 1, 2) when we hold enough blockers (``k > j``), and of a ruff in round j+1 when
  we are void by then (``k <= j``; Sec. 4.1.4).
- :func:`cnil` - Sec. 4.2: the probability that a holding in one suit is "cards nil" safe,
  ``1 - Pr(set at the lowest, second or third card)``. The set event in round ``t`` of the
  suit, with our ``t``-th lowest card ``c`` on the table, is the paper's: each opponent is
  void by then (fewer than ``t`` cards) or has at least ``t`` cards below ``c``, and partner
  cannot cover - she still holds the suit (at least ``t`` cards; a void partner ruffs) and
  has fewer than ``t`` cards above ``c`` (she covers with her highest card each round, so by
  round ``t`` she has spent ``t - 1`` of them). The paper writes the partner's condition for
  the third round as "no higher card"; we use "fewer than three higher", the same rule as
  its second round, because partner may have spent high cards covering the first two.
  In spades partner cannot ruff (a void partner does not cover) and a fourth spade denies
  nil (cnil = 0). Cards above our third lowest are not dangerous (the paper's second
  assumption).

For the ``t``-th round only the counts of each hand's cards in the bands between our own
cards matter, so the sum runs over how the unseen cards of each band split among the three
hands, each split weighted by the number of ways to fill the hands with the other suits.
Hands: index 0 and 1 are the opponents, 2 is partner.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations, product
from math import comb, factorial
from pathlib import Path

from bidlab.spades.errors import SpadesError

#: The paper's printed tables (Monte Carlo, 100K deals each), for comparison only.
PAPER_TABLE_1: tuple[tuple[float, float, float], ...] = (
    (0.997, 0.966, 0.817), (0.994, 0.942, 0.733), (0.990, 0.907, 0.624), (0.983, 0.855, 0.489),
    (0.970, 0.779, 0.350), (0.948, 0.678, 0.212), (0.915, 0.544, 0.095), (0.857, 0.381, 0.025),
    (0.774, 0.214, 0.0), (0.646, 0.074, 0.0), (0.462, 0.0, 0.0), (0.227, 0.0, 0.0),
)  # fmt: skip
PAPER_TABLE_5: tuple[tuple[float, float, float], ...] = (
    (0.998, 0.983, 0.910), (0.997, 0.971, 0.866), (0.994, 0.954, 0.809), (0.992, 0.927, 0.733),
    (0.985, 0.891, 0.648), (0.974, 0.835, 0.546), (0.957, 0.761, 0.426), (0.928, 0.667, 0.308),
    (0.886, 0.546, 0.195), (0.819, 0.410, 0.100), (0.715, 0.252, 0.030), (0.561, 0.106, 0.0),
    (0.336, 0.0, 0.0),
)  # fmt: skip
PAPER_TABLE_6: tuple[tuple[float, float, float], ...] = (
    (0.996, 0.949, 0.729), (0.992, 0.915, 0.605), (0.986, 0.862, 0.450), (0.974, 0.784, 0.275),
    (0.955, 0.672, 0.110), (0.924, 0.523, 0.0), (0.872, 0.338, 0.0), (0.790, 0.145, 0.0),
    (0.664, 0.0, 0.0), (0.480, 0.0, 0.0), (0.240, 0.0, 0.0),
)  # fmt: skip
PAPER_TABLES = {2: PAPER_TABLE_1, 1: PAPER_TABLE_5, 3: PAPER_TABLE_6}
#: Deals per entry behind the paper's tables (Sec. 4.2: "100K times").
PAPER_DEALS = 100_000

_HANDS_TOTAL = factorial(39) // factorial(13) ** 3  # ways to deal 39 unseen cards into 3 hands


def _fill_ways(counts: tuple[int, int, int], k: int) -> int:
    """Ways to complete the three hands with the 26 + k unseen cards of the other suits."""
    a, b, c = counts
    return factorial(26 + k) // (factorial(13 - a) * factorial(13 - b) * factorial(13 - c))


@cache
def suit_split_probability(k: int, counts: tuple[int, int, int]) -> Fraction:
    """Pr(the three other hands hold ``counts`` cards of a suit of which we hold ``k``)."""
    n = 13 - k
    a, b, c = counts
    if a + b + c != n or min(counts) < 0 or max(counts) > 13:
        return Fraction(0)
    ways = comb(n, a) * comb(n - a, b)
    return Fraction(ways * _fill_ways(counts, k), _HANDS_TOTAL)


@cache
def more_than(k: int, j: int, opponents: int = 2) -> Fraction:
    """Pr(each of ``opponents`` hands holds more than ``j`` cards of a suit of which we hold ``k``)."""
    if not 1 <= opponents <= 3:
        raise ValueError(f"opponents must be 1..3, got {opponents}")
    n = 13 - k
    total = Fraction(0)
    for a in range(n + 1):
        for b in range(n + 1 - a):
            counts = (a, b, n - a - b)
            if all(x > j for x in counts[:opponents]):
                total += suit_split_probability(k, counts)
    return total


def side_suit_table(opponents: int = 2) -> list[tuple[float, float, float]]:
    """Table 1 (``opponents=2``), Table 5 (1) or Table 6 (3): rows k = 0..12, columns j = 0..2."""
    return [tuple(float(more_than(k, j, opponents)) for j in range(3)) for k in range(13)]  # type: ignore[misc]


def worth_zero(k: int, j: int) -> bool:
    """The paper's parentheses: an A/K/Q needs ``j`` blockers, so with ``k <= j`` it is worth 0
    (the entry is then a ruffing value, Sec. 4.1.4)."""
    return k <= j


def _compositions(n: int) -> list[tuple[int, int, int]]:
    return [(a, b, n - a - b) for a in range(n + 1) for b in range(n + 1 - a)]


@cache
def _split_weight(k: int, counts: tuple[int, int, int]) -> float:
    """Pr(one given assignment of the unseen suit cards giving the hands ``counts`` cards)."""
    return _fill_ways(counts, k) / _HANDS_TOTAL


@cache
def _set_probability(low: tuple[int, ...], length: int, spades: bool) -> float:
    """Pr(a nil is set in this suit) for our lowest (up to three) ranks ``low`` and suit length."""
    ours_above = length - len(low)  # our cards above the third lowest (not dangerous)
    edges = (-1, *low, 13)
    bands = []
    for i in range(len(low) + 1):
        lo, hi = edges[i], edges[i + 1]
        size = hi - lo - 1
        if i == len(low):
            size -= ours_above
        bands.append(size)
    k = length
    rounds = len(low)
    total = 0.0
    for split in product(*(_compositions(n) for n in bands)):
        ways = 1
        for n, (a, b, _) in zip(bands, split):
            ways *= comb(n, a) * comb(n - a, b)
        counts = tuple(sum(s[h] for s in split) for h in range(3))
        if max(counts) > 13:
            continue
        set_here = False
        for t in range(1, rounds + 1):
            below = [sum(s[h] for s in split[:t]) for h in range(3)]
            opp_under = all(counts[h] < t or below[h] >= t for h in (0, 1))
            above_p = counts[2] - below[2]
            if spades:
                no_cover = above_p < t
            else:
                no_cover = counts[2] >= t and above_p < t
            if opp_under and no_cover:
                set_here = True
                break
        if set_here:
            total += ways * _split_weight(k, counts)  # type: ignore[arg-type]
    return total


def cnil(ranks: tuple[int, ...] | list[int], spades: bool = False) -> float:
    """Pr(cnil(suit) | our holding ``ranks`` (0 = deuce .. 12 = ace) in the suit), Sec. 4.2."""
    ranks = tuple(sorted(ranks))
    if len(set(ranks)) != len(ranks) or any(not 0 <= r <= 12 for r in ranks):
        raise ValueError(f"a suit holding is distinct ranks 0..12, got {ranks}")
    if not ranks:
        return 1.0
    if spades and len(ranks) >= 4:
        return 0.0
    # Float sums of ~1e4 terms: round away the last bits so certain events come out exact.
    return round(max(0.0, 1.0 - _set_probability(ranks[:3], len(ranks), spades)), 12)


# -- the cnil table shipped with bidlab --------------------------------------------------
#
# Summing one entry takes up to ~0.1 s and a tournament worker would need most of the 1,469
# entries, so the whole table is computed once by ``bidlab spades tables --write`` and
# shipped as JSON; tests recompute a sample of it.

CNIL_FILE = Path(__file__).resolve().parents[1] / "data" / "spades" / "cnil.json"


def cnil_key(ranks: tuple[int, ...], spades: bool) -> str:
    """``"S:0,4,9/5"``: suit kind, our lowest three ranks, our length in the suit."""
    ranks = tuple(sorted(ranks))
    return f"{'S' if spades else 'X'}:{','.join(map(str, ranks[:3]))}/{len(ranks)}"


def all_cnil_holdings() -> list[tuple[tuple[int, ...], bool]]:
    """One holding per table entry: every (lowest three, length) of a side suit, spades up to 3."""
    out = []
    for spades in (False, True):
        for length in range(1, 4 if spades else 14):
            seen = set()
            for combo in combinations(range(13), length):
                key = cnil_key(combo, spades)
                if key not in seen:
                    seen.add(key)
                    out.append((combo, spades))
    return out


def compute_cnil_table(progress=None) -> dict[str, float]:
    holdings = all_cnil_holdings()
    table = {}
    for i, (ranks, spades) in enumerate(holdings):
        table[cnil_key(ranks, spades)] = cnil(ranks, spades)
        if progress:
            progress(i + 1, len(holdings))
    return table


@lru_cache(maxsize=1)
def shipped_cnil_table() -> dict[str, float]:
    try:
        data = json.loads(CNIL_FILE.read_text())
        return {k: float(v) for k, v in data["cnil"].items()}
    except (OSError, json.JSONDecodeError, KeyError) as e:
        raise SpadesError(f"{CNIL_FILE}: no cnil table ({e}); run `bidlab spades tables --write`") from None


def cnil_lookup(ranks: tuple[int, ...], spades: bool) -> float:
    """:func:`cnil` from the shipped table (void suits 1, four or more spades 0)."""
    if not ranks:
        return 1.0
    if spades and len(ranks) >= 4:
        return 0.0
    return shipped_cnil_table()[cnil_key(ranks, spades)]
