"""Doubled and redoubled contracts in a match: who declared them and how they fared.

A policy trained only by self-play learns when it gets doubled by *itself*; a different
opponent may double it more often and more profitably. Counting, for each side of a
match, the doubled (X) and redoubled (XX) final contracts it declared, the share of its
tables they make, and the mean score of the declaring side on them shows that leak (or
its absence) in one line per side.

The score alone does not say what the doubles cost in the match: going down 500 doubled
is a gain when the other table made a vulnerable game. So each side also gets the net
IMPs of the boards on which it declared a doubled or redoubled contract (at either
table, each board once), from its own point of view and both tables together, as a total
and per 100 boards of the match (issue 44: "−20 IMPs per 100 boards").
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields

from bidlab.runtime.stats import NA, fmt

#: Seats whose declarer is North-South.
_NS_SEATS = ("N", "S")


@dataclass(frozen=True)
class DoubledSide:
    """One side's doubled contracts: counts, the share of its tables, the mean score (for
    the declaring side) over the doubled and redoubled contracts together, and the net
    IMPs for that side of the boards on which it declared at least one of them."""

    agent: str
    tables: int
    doubled: int
    redoubled: int
    mean_score: float   # nan when it declared none
    boards: int         # boards of the match (or matches, pooled)
    doubled_boards: int  # boards on which this side declared X or XX at either table
    net_imps: int       # this side's IMPs on those boards, summed

    @property
    def total(self) -> int:
        return self.doubled + self.redoubled

    @property
    def share(self) -> float:
        """Percent of the side's tables on which it declared a doubled or redoubled contract."""
        return 100.0 * self.total / self.tables if self.tables else float("nan")

    @property
    def imps_per_100(self) -> float:
        """Net IMPs of the doubled boards per 100 boards of the match: what the doubles cost
        (or won) the side over the whole match, on the scale of its IMPs/board x 100."""
        return 100.0 * self.net_imps / self.boards if self.boards else float("nan")

    def text(self) -> str:
        score = NA if not math.isfinite(self.mean_score) else f"{self.mean_score:+.0f}"
        return (f"{self.agent} declared {self.total} ({self.doubled} X, {self.redoubled} XX; "
                f"{fmt(self.share, 1)} % of {self.tables} tables), {score} on average, "
                f"{self.net_imps:+d} IMPs on those {self.doubled_boards} boards "
                f"({fmt(self.imps_per_100, 1, signed=True)} per 100 boards)")

    def to_json(self) -> dict:
        """The fields and the derived total, share and IMPs per 100 boards (nan where
        undefined: :func:`~bidlab.fileio.write_json_atomic` stores it as null)."""
        return dict(asdict(self), total=self.total, share=self.share, imps_per_100=self.imps_per_100)

    @classmethod
    def from_json(cls, d: dict) -> DoubledSide:
        """Back from :meth:`to_json` (a null mean score read as nan; derived keys ignored)."""
        values = {f.name: d[f.name] for f in fields(cls)}
        if values["mean_score"] is None:
            values["mean_score"] = float("nan")
        return cls(**values)


def doubled_contracts(records: list[dict], agent_a: str, agent_b: str) -> tuple[DoubledSide, DoubledSide]:
    """(A's side, B's side) from a match's per-board records (A sits NS in the open room
    and EW in the closed room; ``imps_a`` is the board's IMPs for A, B's are its negative).
    Every side sits at both tables of every board."""
    counts = {"a": [0, 0], "b": [0, 0]}
    scores: dict[str, list[int]] = {"a": [], "b": []}
    board_imps: dict[str, list[int]] = {"a": [], "b": []}
    for r in records:
        declared = set()
        for room, ns_side in (("open", "a"), ("closed", "b")):
            t = r[room]
            contract = t.get("contract")
            if not contract or not contract.endswith("X"):
                continue
            declarer_ns = t["declarer"] in _NS_SEATS
            side = ns_side if declarer_ns else ("b" if ns_side == "a" else "a")
            counts[side][1 if contract.endswith("XX") else 0] += 1
            scores[side].append(t["ns_score"] if declarer_ns else -t["ns_score"])
            declared.add(side)
        for side in declared:  # a side doubled at both tables counts the board once
            board_imps[side].append(r["imps_a"] if side == "a" else -r["imps_a"])
    tables = 2 * len(records)
    out = []
    for side, agent in (("a", agent_a), ("b", agent_b)):
        s = scores[side]
        out.append(DoubledSide(agent, tables, counts[side][0], counts[side][1],
                               sum(s) / len(s) if s else float("nan"),
                               len(records), len(board_imps[side]), sum(board_imps[side])))
    return out[0], out[1]


def pooled(agent: str, sides: Iterable[DoubledSide]) -> DoubledSide:
    """``agent``'s doubled contracts over several matches (a league): counts, tables, boards
    and net IMPs summed, the mean score weighted by each match's doubled contracts, so the
    IMPs per 100 boards are over all the boards the agent played."""
    mine = [s for s in sides if s.agent == agent]
    total = sum(s.total for s in mine)
    score = sum(s.mean_score * s.total for s in mine if s.total) / total if total else float("nan")
    return DoubledSide(agent, sum(s.tables for s in mine), sum(s.doubled for s in mine),
                       sum(s.redoubled for s in mine), score, sum(s.boards for s in mine),
                       sum(s.doubled_boards for s in mine), sum(s.net_imps for s in mine))


def doubled_line(sides: tuple[DoubledSide, DoubledSide]) -> str:
    """``doubled contracts: A declared …; B declared …`` for a match's printed summary."""
    return "doubled contracts: " + "; ".join(s.text() for s in sides)
