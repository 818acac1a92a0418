"""Doubled and redoubled contracts in a match: who declared them and how they fared.

A policy trained only by self-play learns when it gets doubled by *itself*; a different
opponent may double it more often and more profitably. Counting, for each side of a
match, the doubled (X) and redoubled (XX) final contracts it declared, the share of its
tables they make, and the mean score of the declaring side on them shows that leak (or
its absence) in one line per side.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from bidlab.runtime.stats import NA, fmt

#: Seats whose declarer is North-South.
_NS_SEATS = ("N", "S")


@dataclass(frozen=True)
class DoubledSide:
    """One side's doubled contracts: counts, the share of its tables, and the mean score
    (for the declaring side) over the doubled and redoubled contracts together."""

    agent: str
    tables: int
    doubled: int
    redoubled: int
    mean_score: float   # nan when it declared none

    @property
    def total(self) -> int:
        return self.doubled + self.redoubled

    @property
    def share(self) -> float:
        """Percent of the side's tables on which it declared a doubled or redoubled contract."""
        return 100.0 * self.total / self.tables if self.tables else float("nan")

    def text(self) -> str:
        score = NA if not math.isfinite(self.mean_score) else f"{self.mean_score:+.0f}"
        return (f"{self.agent} declared {self.total} ({self.doubled} X, {self.redoubled} XX; "
                f"{fmt(self.share, 1)} % of {self.tables} tables), {score} on average")

    def to_json(self) -> dict:
        return dict(asdict(self), total=self.total, share=self.share)


def doubled_contracts(records: list[dict], agent_a: str, agent_b: str) -> tuple[DoubledSide, DoubledSide]:
    """(A's side, B's side) from a match's per-board records (A sits NS in the open room
    and EW in the closed room). Every side sits at both tables of every board."""
    counts = {"a": [0, 0], "b": [0, 0]}
    scores: dict[str, list[int]] = {"a": [], "b": []}
    for r in records:
        for room, ns_side in (("open", "a"), ("closed", "b")):
            t = r[room]
            contract = t.get("contract")
            if not contract or not contract.endswith("X"):
                continue
            declarer_ns = t["declarer"] in _NS_SEATS
            side = ns_side if declarer_ns else ("b" if ns_side == "a" else "a")
            counts[side][1 if contract.endswith("XX") else 0] += 1
            scores[side].append(t["ns_score"] if declarer_ns else -t["ns_score"])
    tables = 2 * len(records)
    out = []
    for side, agent in (("a", agent_a), ("b", agent_b)):
        s = scores[side]
        out.append(DoubledSide(agent, tables, counts[side][0], counts[side][1],
                               sum(s) / len(s) if s else float("nan")))
    return out[0], out[1]


def doubled_line(sides: tuple[DoubledSide, DoubledSide]) -> str:
    """``doubled contracts: A declared …; B declared …`` for a match's printed summary."""
    return "doubled contracts: " + "; ".join(s.text() for s in sides)
