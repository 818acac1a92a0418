"""The contract account: where a duplicate match's IMPs go, by the contract each table reached.

The leak finder (:mod:`bidlab.eval.leaks`) charges a board to the first call where the two
tables' auctions part. That names a decision, but a board's swing is often made later (a
missed slam after the same opening is charged to the opening if the tables parted there).
This view looks at the outcome instead: holding the same cards, the focus agent's pair
reached one contract and the other agent's pair another, and the board's IMPs go to that
pair of contract classes ("we game made" against "we slam made" is a missed slam).

A board has two such comparisons, one for the North-South cards and one for the East-West
cards (the focus agent holds North-South in one room and East-West in the other). They are
mirror images: if with the North-South cards the focus pair reached X and the other pair Y,
then with the East-West cards the focus pair defends Y and the other pair defends X. The
board is counted once, in the view where the focus pair's own contract is ours ("we ..."),
with its whole swing, so the account sums to the match's total (issue 27: the ninth
session's analysis of `sayc` against `nn:rl`, which found the slam and game decisions this
way).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bidlab.bridge.auction import Contract
from bidlab.bridge.scoring import game_level

PASSED_OUT = "passed out"


def contract_class(room: dict, holder_ns: bool) -> str:
    """The class of one room's contract from the view of the pair holding the NS cards
    (``holder_ns``) or the EW cards: who declares ("we" / "they"), its size (partscore, game,
    slam) and its result ("made", "down", "down doubled").

    ``room`` is a match record's room: ``contract`` such as ``"4S"``, ``"3NT"`` or ``"6HX"``,
    ``declarer`` (a seat letter) and ``tricks`` (double-dummy tricks taken by declarer).
    """
    if not room.get("contract") or not room.get("declarer"):
        return PASSED_OUT
    c = Contract.parse(room["contract"], room["declarer"])
    size = "slam" if c.level >= 6 else ("game" if c.level >= game_level(c.strain) else "partscore")
    who = "we" if (c.side == 0) == holder_ns else "they"
    if room["tricks"] >= c.level + 6:
        result = "made"
    else:
        result = "down doubled" if c.doubled else "down"
    return f"{who} {size} {result}"


@dataclass
class ContractAccount:
    """IMPs of the focus agent by (its pair's contract class, the other pair's class)."""

    focus: str
    other: str
    boards: int = 0
    cells: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # [boards, IMPs]

    def add(self, mine: str, theirs: str, imps: float) -> None:
        cell = self.cells.setdefault((mine, theirs), [0, 0.0])
        cell[0] += 1
        cell[1] += imps

    def total(self) -> float:
        return sum(imps for _, imps in self.cells.values())

    def markdown(self, rows: int = 10) -> str:
        """The cells where the focus agent lost most, per 100 boards, as a Markdown table (cells
        where both pairs reached the same class count in :meth:`total` but are not listed)."""
        per100 = 100.0 / max(self.boards, 1)
        worst = sorted(((imps, key, n) for key, (n, imps) in self.cells.items() if key[0] != key[1]))[:rows]
        lines = [f"Contract account of `{self.focus}` against `{self.other}` over {self.boards} boards: "
                 f"the same cards, `{self.focus}`'s pair reached one contract and `{self.other}`'s another "
                 "(each board once, from the cards of the pair that declares).", "",
                 f"| `{self.focus}` reached | `{self.other}` reached | boards | net IMPs /100 boards |",
                 "| --- | --- | ---: | ---: |"]
        lines += [f"| {mine} | {theirs} | {n} | {imps * per100:+.1f} |" for imps, (mine, theirs), n in worst]
        return "\n".join(lines) + "\n"


def contract_account(records: Iterable[dict], agent_a: str, agent_b: str,
                     focus_is_a: bool = True) -> ContractAccount:
    """Tally a match's records (``bidlab match`` results: A sits North-South in the open
    room, East-West in the closed room) by the contract each pair reached with the same cards."""
    focus, other = (agent_a, agent_b) if focus_is_a else (agent_b, agent_a)
    account = ContractAccount(focus, other)
    for record in records:
        if "imps_a" not in record:
            continue
        account.boards += 1
        imps = float(record["imps_a"]) if focus_is_a else -float(record["imps_a"])
        views = []
        for holder_ns, a_room in ((True, "open"), (False, "closed")):
            b_room = "closed" if a_room == "open" else "open"
            focus_room, other_room = (a_room, b_room) if focus_is_a else (b_room, a_room)
            views.append((contract_class(record[focus_room], holder_ns),
                          contract_class(record[other_room], holder_ns)))
        # the view in which the focus pair declares ("we ..."), else the other pair's view of it
        mine, theirs = min(views, key=lambda v: (not v[0].startswith("we"), not v[1].startswith("we"), v))
        account.add(mine, theirs, imps)
    return account
