"""The leak finder: which kinds of call lose IMPs in a duplicate match (issue 27).

A match's average says *how much* an agent loses; it does not say *where*. On each board
the two tables bid the same deal, so the two auctions agree call for call up to some
position and then part. Up to that position the same hand was to act with the same
auction in front of it at both tables, so the first differing call is the decision that
the board's swing hangs on: one agent chose one call, the other agent another, holding
the same cards. The board's IMP swing is charged to that decision.

* **Where**: the first position whose call differs between the rooms. When the auctions
  are identical the contracts are identical too (double-dummy scoring gives the same
  result), so such a board has no swing; should the contracts still differ (a scorer
  that is not a function of the auction), the swing goes to the last call.
* **Whose**: at that position the same seat acts at both tables; the *focus* agent holds
  it at one table (A is North-South in the open room, East-West in the closed room).
* **Family**: for ``sayc``, the rule that made the focus agent's call there (its
  ``[group.rule]`` explanation, recomputed from the hand and the auction prefix: the
  bidder is deterministic); for any other agent, the auction pattern (opening, response,
  overcall, advance, balancing, defence to 1NT, competitive, slam ...) and the kind of
  call (pass, double, bid).

Families are ranked by the IMPs the focus agent lost there per 100 boards of the match
(losses only, so a family that wins on some boards and loses on others still shows its
losses; the net is printed beside it).

**Their openings.** A board that parts at an opening turn (the other agent opens where the
focus agent passed or opened something else) is charged to the focus agent's opening call,
but its swing is mostly made afterwards, at the other table, where the focus agent defends
against that opening. So those boards are also split by the other agent's opening, with
the focus agent's IMPs against par at each table: where the other agent opened (the
defence to that opening) and at the focus agent's own table (the result of its own
opening call). The table that loses against par is the one to fix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bidlab.bridge.auction import Auction
from bidlab.bridge.calls import Call
from bidlab.cards import Seat
from bidlab.errors import BidlabError
from bidlab.runtime.progress import ProgressTask, task_or_null


class LeakError(BidlabError):
    """The leak finder cannot run as asked (a focus agent not in the match, bad records)."""


@dataclass(frozen=True)
class Attribution:
    """One board's swing, charged to the decision where the two tables' auctions part."""

    board: int
    index: int          # position in the auction (0 = dealer's first call)
    seat: Seat          # the hand to act there, the same at both tables
    focus_room: str     # "open" or "closed": where the focus agent held ``seat``
    focus_call: Call
    other_call: Call | None   # None when the auctions are the same (contracts still differ)
    imps: int           # the focus agent's IMPs on the board (negative: lost)
    family: str = ""


def parting_index(a: Auction, b: Auction) -> int | None:
    """The first position where the two auctions' calls differ; ``None`` when they are equal.

    With equal prefixes one auction cannot end before the other (the same passes end
    both), but a shorter auction that is a prefix of the longer parts at its length."""
    for i, (x, y) in enumerate(zip(a.calls, b.calls, strict=False)):
        if x != y:
            return i
    if len(a.calls) != len(b.calls):
        return min(len(a.calls), len(b.calls))
    return None


def _room_auction(record: dict, room: str) -> Auction:
    return Auction.parse(record[room]["auction"], record["dealer"])


def _contract_key(t: dict) -> tuple:
    return (t["contract"], t["declarer"])


def attribute(record: dict, focus_is_a: bool) -> Attribution | None:
    """Charge one board's swing to the call where the tables part (see the module doc).

    ``None`` when the tables bid the same auction to the same contract: nothing to charge.
    """
    open_, closed = _room_auction(record, "open"), _room_auction(record, "closed")
    imps_focus = int(record["imps_a"]) if focus_is_a else -int(record["imps_a"])
    k = parting_index(open_, closed)
    if k is None:
        if _contract_key(record["open"]) == _contract_key(record["closed"]) or not open_.calls:
            return None
        k = len(open_.calls) - 1
        same = True
    else:
        same = False
    seat = Seat((int(open_.dealer) + k) % 4)
    # A sits North-South in the open room; the focus agent holds ``seat`` in the room where
    # its side is the seat's side.
    a_room = "open" if int(seat) % 2 == 0 else "closed"
    focus_room = a_room if focus_is_a else ("closed" if a_room == "open" else "open")
    rooms = {"open": open_, "closed": closed}
    mine, theirs = rooms[focus_room], rooms["closed" if focus_room == "open" else "open"]
    if k >= len(mine.calls):  # the focus table's auction is the shorter: no call of its own
        raise LeakError(f"board {record['board']}: the {focus_room} room's auction ends before position {k}")
    other = None if same or k >= len(theirs.calls) else theirs.calls[k]
    return Attribution(int(record["board"]), k, seat, focus_room, mine.calls[k], other, imps_focus)


# ---- families -------------------------------------------------------------------------------


def call_kind(call: Call) -> str:
    """pass, double, redouble or bid."""
    if call.is_pass:
        return "pass"
    if call.is_double:
        return "double"
    if call.is_redouble:
        return "redouble"
    return "bid"


def auction_pattern(auction: Auction, seat: Seat) -> str:
    """The kind of turn ``seat`` faces after ``auction`` (a prefix), by who bid what.

    The families a bridge teacher uses for competitive judgement: opening; the opening
    side uncontested (response, opener's rebid, later); the opening side after they came
    in; the defending side's first action (direct overcall, balancing, defence to 1NT);
    advancing partner's action; later competitive turns; slam (after 4NT or at the five level).
    """
    calls = auction.calls
    first_bid = next((i for i, c in enumerate(calls) if c.is_bid), None)
    if first_bid is None:
        return "opening"
    if any(c.is_bid and (c.level >= 5 or (c.level == 4 and c.strain == 4)) for c in calls):
        return "slam"
    me = int(seat) % 2
    opener = (int(auction.dealer) + first_bid) % 4
    ours = opener % 2 == me
    acted = {s: False for s in range(4)}
    for i, c in enumerate(calls):
        if not c.is_pass:
            acted[(int(auction.dealer) + i) % 4] = True
    partner = (int(seat) + 2) % 4
    they_acted = acted[(int(seat) + 1) % 4] or acted[(int(seat) + 3) % 4]
    if ours:
        role = "opener" if opener == int(seat) else "responder"
        if not they_acted:
            if role == "responder" and not acted[int(seat)]:
                return "uncontested: response"
            return f"uncontested: {role} later"
        if role == "responder" and not acted[int(seat)]:
            return "competitive: response after interference"
        return f"competitive: {role} later"
    opening = calls[first_bid]
    if not acted[int(seat)] and not acted[partner]:
        if len(calls) >= 2 and calls[-1].is_pass and calls[-2].is_pass:
            return "defence: balancing"
        if opening.level == 1 and opening.strain == 4:
            return "defence: against 1NT"
        return "defence: direct action"
    if not acted[int(seat)]:
        return "defence: advance"
    return "defence: later"


def pattern_family(auction: Auction, seat: Seat, call: Call) -> str:
    """A non-rule agent's family: the auction pattern and the kind of call it made."""
    return f"{auction_pattern(auction, seat)} / {call_kind(call)}"


def sayc_family(record: dict, att: Attribution) -> str:
    """The SAYC rule that made the focus call (``group.rule``), recomputed from the view."""
    from bidlab.agents.base import BiddingView
    from bidlab.agents.sayc import decide
    from bidlab.bridge.board import Vulnerability
    from bidlab.cards import Deal

    auction = _room_auction(record, att.focus_room)
    prefix = Auction(auction.dealer, auction.calls[: att.index])
    view = BiddingView(att.seat, Deal.parse(record["deal"])[att.seat], prefix,
                       Vulnerability.parse(record["vulnerability"]))
    d = decide(view)
    if d.call != att.focus_call:  # the match was not bid by this version of the bidder
        return f"(not this sayc: it bids {d.call}, the match has {att.focus_call})"
    return d.rule


def family_function(focus_spec: str) -> Callable[[dict, Attribution], str]:
    """Rule families for the SAYC bidder, auction-pattern families for any other agent."""
    if focus_spec.strip().lower() == "sayc":
        return sayc_family

    def by_pattern(record: dict, att: Attribution) -> str:
        auction = _room_auction(record, att.focus_room)
        return pattern_family(Auction(auction.dealer, auction.calls[: att.index]), att.seat, att.focus_call)

    return by_pattern


# ---- the table ------------------------------------------------------------------------------


@dataclass
class Family:
    """The boards charged to one family and what they cost the focus agent."""

    name: str
    boards: int = 0
    lost: int = 0       # IMPs lost (a positive number)
    won: int = 0
    examples: list[tuple[int, dict, Attribution]] = field(default_factory=list)

    @property
    def net(self) -> int:
        return self.won - self.lost


@dataclass
class TheirOpening:
    """Boards that part where the other agent opened ``name``: the swing, and the focus
    agent's IMPs against par at the table of that opening and at its own table."""

    name: str
    boards: int = 0
    net: int = 0
    defending_vs_par: int = 0   # focus vs par where the other agent opened ``name``
    own_vs_par: int = 0         # focus vs par at its own table (its own opening call)


@dataclass
class LeakTable:
    """Families ranked by IMPs lost per 100 boards of the match."""

    focus: str
    opponent: str
    boards: int
    families: list[Family]
    unattributed: int   # boards with the same auction and contract at both tables
    their_openings: list[TheirOpening] = field(default_factory=list)

    def per100(self, imps: float) -> float:
        return 100.0 * imps / self.boards if self.boards else 0.0

    def markdown(self, top: int = 15, examples: int = 3) -> str:
        """The table and its example boards as Markdown."""
        total = sum(f.net for f in self.families)
        out = [f"Leaks of `{self.focus}` against `{self.opponent}` over {self.boards} boards "
               f"({self.per100(total) / 100:+.2f} IMPs/board for {self.focus}; "
               f"{self.unattributed} boards bid the same at both tables).", "",
               "| # | family | boards | IMPs lost /100 | IMPs won /100 | net /100 |",
               "| ---: | --- | ---: | ---: | ---: | ---: |"]
        for i, f in enumerate(self.families[:top], 1):
            out.append(f"| {i} | `{f.name}` | {f.boards} | {self.per100(f.lost):.1f} | "
                       f"{self.per100(f.won):.1f} | {self.per100(f.net):+.1f} |")
        if self.their_openings:
            out += ["", f"Boards that part at an opening turn, by `{self.opponent}`'s opening "
                    f"(IMPs per 100 boards of the match; {self.focus} against par at each table):", "",
                    f"| their opening | boards | net | {self.focus} vs par where they opened (defence) "
                    f"| {self.focus} vs par at its own table |",
                    "| --- | ---: | ---: | ---: | ---: |"]
            for o in self.their_openings[:top]:
                out.append(f"| `{o.name}` | {o.boards} | {self.per100(o.net):+.1f} | "
                           f"{self.per100(o.defending_vs_par):+.1f} | {self.per100(o.own_vs_par):+.1f} |")
        if examples:
            for i, f in enumerate(self.families[:top], 1):
                if not f.examples:
                    continue
                out += ["", f"### {i}. `{f.name}`", ""]
                for _, rec, att in f.examples[:examples]:
                    out += ["```", *example_lines(rec, att, self.focus), "```"]
        return "\n".join(out) + "\n"


def example_lines(record: dict, att: Attribution, focus: str) -> list[str]:
    """One example board: the deal, both auctions with the parting call marked, DD results."""
    lines = [f"board {record['board']} (deal id {record['deal_id']}), dealer {record['dealer']}, "
             f"vul {record['vulnerability']}: {focus} {att.imps:+d} IMPs; parts at call {att.index + 1} "
             f"({att.seat.letter}: {focus} {att.focus_call}, other {att.other_call or 'same'})",
             f"  deal {record['deal']}"]
    for room in ("open", "closed"):
        t = record[room]
        who = "focus" if room == att.focus_room else "other"
        contract = "passed out" if t["contract"] is None else f"{t['contract']} by {t['declarer']}, {t['tricks']} tricks DD"
        lines.append(f"  {room:6s} ({who}): {t['auction']}  ->  {contract}, NS {t['ns_score']:+d}")
    lines.append(f"  par NS {record['par_ns']:+d}")
    return lines


def leak_table(records: Iterable[dict], agent_a: str, agent_b: str, focus: str | None = None,
               examples: int = 3, progress: ProgressTask | None = None,
               family: Callable[[dict, Attribution], str] | None = None) -> LeakTable:
    """Charge each board of a match (``bidlab match`` records) to a family; rank the families.

    ``focus`` is the agent whose calls are classified (default A); the examples kept per
    family are its worst boards there."""
    records = list(records)
    focus = agent_a if focus is None else focus.strip()
    if focus not in (agent_a, agent_b):
        raise LeakError(f"--focus must be one of the match's agents ({agent_a!r} or {agent_b!r}), got {focus!r}")
    if agent_a == agent_b:
        raise LeakError(f"both sides of the match are {agent_a!r}: there is no other agent to compare with")
    focus_is_a = focus == agent_a
    name_of = family or family_function(focus)
    task = task_or_null(progress)
    task.start(len(records))
    fams: dict[str, Family] = {}
    openings: dict[str, TheirOpening] = {}
    unattributed = 0
    for rec in records:
        att = attribute(rec, focus_is_a)
        task.advance()
        if att is None:
            unattributed += 1
            continue
        _add_their_opening(openings, rec, att, focus_is_a)
        name = name_of(rec, att)
        f = fams.setdefault(name, Family(name))
        f.boards += 1
        f.lost += max(0, -att.imps)
        f.won += max(0, att.imps)
        if att.imps < 0:
            f.examples.append((att.imps, rec, att))
            f.examples.sort(key=lambda e: e[0])
            del f.examples[examples:]
    ranked = sorted(fams.values(), key=lambda f: (-f.lost, f.net, f.name))
    their = sorted(openings.values(), key=lambda o: (o.net, o.name))
    return LeakTable(focus, agent_b if focus_is_a else agent_a, len(records), ranked, unattributed, their)


def _add_their_opening(openings: dict[str, TheirOpening], record: dict, att: Attribution,
                       focus_is_a: bool) -> None:
    """File a board that parts at an opening turn under the other agent's opening."""
    other = att.other_call
    if other is None or not other.is_bid or any(c.is_bid for c in att_prefix(record, att)):
        return
    if "a_vs_par" not in record:
        return
    sign = 1 if focus_is_a else -1
    room_index = {"open": 0, "closed": 1}
    their_room = "closed" if att.focus_room == "open" else "open"
    o = openings.setdefault(str(other), TheirOpening(str(other)))
    o.boards += 1
    o.net += att.imps
    o.defending_vs_par += sign * int(record["a_vs_par"][room_index[their_room]])
    o.own_vs_par += sign * int(record["a_vs_par"][room_index[att.focus_room]])


def att_prefix(record: dict, att: Attribution) -> tuple[Call, ...]:
    """The calls both tables made before the parting call."""
    return _room_auction(record, att.focus_room).calls[: att.index]
