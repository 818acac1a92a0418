"""The JSON API's request and response bodies (pydantic), and their conversion from table state.

Every request field has a type, a bound and no unknown neighbours (``extra="forbid"``),
so a malformed request is refused with a 422 that names the field before any code runs.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bidlab.bridge.auction import Auction, Contract
from bidlab.bridge.calls import Strain
from bidlab.cards import Deal, Hand, Seat
from bidlab.web.table import YOU, Room, Session, Why

SeatLetter = Literal["N", "E", "S", "W"]
VulName = Literal["None", "NS", "EW", "All"]
MAX_SPEC = 200
MAX_DEAL = 300
SEED_MAX = 2**63 - 1


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatsIn(_In):
    """Who sits where: ``"you"`` or an agent spec such as ``sayc``, ``random``, ``nn:NAME``; a
    seat not named gets the page's default (``default_seats`` of ``GET /api/agents``)."""

    N: str | None = Field(None, min_length=1, max_length=MAX_SPEC)
    E: str | None = Field(None, min_length=1, max_length=MAX_SPEC)
    S: str | None = Field(None, min_length=1, max_length=MAX_SPEC)
    W: str | None = Field(None, min_length=1, max_length=MAX_SPEC)


class NewBoardIn(_In):
    """A new board: by number (dealer and vulnerability follow the 16-board cycle) and seed, or a
    pasted PBN deal; dealer and vulnerability may be set explicitly."""

    number: int = Field(1, ge=1, le=1_000_000, description="Board number (sets dealer and vulnerability).")
    seed: int | None = Field(None, ge=0, le=SEED_MAX, description="Seed of the random deal and the bots; "
                             "random if omitted (the answer says which).")
    deal: str | None = Field(None, max_length=MAX_DEAL, description="A PBN deal, e.g. 'N:AKQ2.J3.T98.7654 ...'.")
    dealer: SeatLetter | None = None
    vulnerability: VulName | None = None
    seats: SeatsIn = Field(default_factory=SeatsIn)
    stand_in: str | None = Field(None, min_length=1, max_length=MAX_SPEC,
                                 description="Bot in your seats at the other table (default: your partner's bot).")
    play: bool = Field(False, description="Play the cards after the auction; by default the board is bid only "
                       "and scored by double-dummy tricks.")
    bots_play: Literal["single-dummy", "double-dummy"] = Field(
        "single-dummy", description="How bots play the cards: single dummy (each sees only its own hand, dummy, "
        "the auction and the cards played; the default) or double dummy (each sees all four hands).")


class CallIn(_In):
    call: str = Field(..., min_length=1, max_length=8, description="Pass, X, XX or a bid such as 1NT, 4S.")


class CardIn(_In):
    card: str = Field(..., min_length=2, max_length=4, description="A card: suit and rank, e.g. SA, H7, DT.")


class ErrorOut(BaseModel):
    error: str
    status: int
    detail: list[dict] | None = None


class HandOut(BaseModel):
    pbn: str
    suits: list[str] = Field(description="Spades, hearts, diamonds, clubs.")
    hcp: int


class CallOut(BaseModel):
    index: int
    seat: SeatLetter
    call: str
    bot: bool
    alert: str | None = Field(None, description="A person's call as SAYC reads it, as an alert card says it: "
                              "the HCP range and suit lengths shown so far, and whether it forces partner.")


class RoomOut(BaseModel):
    seats: dict[SeatLetter, str]
    calls: list[CallOut]
    contract: str | None = Field(description="Level, strain and X/XX, e.g. '4SX'; null if passed out.")
    declarer: SeatLetter | None
    tricks: int | None = Field(description="Declarer's double-dummy tricks.")
    score_ns: int
    line: str = Field(description="The result as players write it, e.g. '2♦ by N, −1, NS −100'.")


class PlayedOut(BaseModel):
    tricks: int = Field(description="Tricks declarer took in the play.")
    score_ns: int
    line: str
    dd_tricks: int = Field(description="Declarer's double-dummy tricks in the same contract, beside the played result.")
    dd_line: str = Field(description="The same contract scored with its double-dummy tricks.")
    bots_play: Literal["single-dummy", "double-dummy"] = Field(description="How the bots played the cards.")
    imps: int = Field(description="IMPs won by the result's `side` on the hand as played: its score as played "
                      "minus its score at the other table (scored double dummy).")


class PlayCardOut(BaseModel):
    seat: SeatLetter
    card: str


class TrickOut(BaseModel):
    leader: SeatLetter
    cards: list[PlayCardOut]
    winner: SeatLetter


class PlayOut(BaseModel):
    declarer: SeatLetter
    dummy: SeatLetter
    strain: str
    to_play: SeatLetter | None
    your_turn: bool
    legal_cards: list[str]
    trick: list[PlayCardOut] = Field(description="Cards in the current trick, from its leader.")
    tricks: list[TrickOut]
    ns_tricks: int
    ew_tricks: int
    over: bool


class ResultOut(BaseModel):
    this: RoomOut
    other: RoomOut
    dd: dict[str, dict[SeatLetter, int]] = Field(description="Tricks by strain (C,D,H,S,NT) and declarer.")
    par_score_ns: int
    par_contracts: list[str]
    side: Literal["NS", "EW"] = Field(description="The side the IMP swing is counted for (yours).")
    imps: int = Field(description="IMPs won by `side` with both tables scored double dummy: its score here minus "
                      "its score at the other table. A played hand's swing is in `played.imps`.")
    played: PlayedOut | None = Field(None, description="The hand as played at this table, if it was played.")


class BoardOut(BaseModel):
    id: str
    number: int
    seed: int
    dealer: SeatLetter
    vulnerability: VulName
    seats: dict[SeatLetter, str]
    stand_in: str
    hands: dict[SeatLetter, HandOut | None] = Field(description="Your hands; all four once the auction is over.")
    deal: str | None = Field(description="The full PBN deal once the auction is over.")
    calls: list[CallOut]
    to_act: SeatLetter | None
    your_turn: bool
    legal_calls: list[str]
    auction_over: bool
    play: PlayOut | None
    can_undo: bool = Field(description="Whether your last call can be taken back (no card played yet).")
    can_undo_card: bool = Field(False, description="Whether you have played a card that can be taken back "
                                "(POST /api/boards/{id}/cards/undo).")
    over: bool = Field(description="The auction is over, and so is the play if the board is played.")
    result: ResultOut | None


class TopCallOut(BaseModel):
    call: str
    probability: float


class SaycComparisonOut(BaseModel):
    meaning: str = Field(description="What the call made means in SAYC (HCP, suit lengths, forcing or not).")
    sayc_call: str = Field(description="The call the SAYC bidder makes in this seat with this hand.")
    sayc_reason: str = Field(description="The SAYC rule's reason for that call.")
    departs: bool = Field(description="The call made is not SAYC's: the person opposite would misread it.")


class WhyOut(BaseModel):
    table: Literal["this", "other"]
    index: int
    seat: SeatLetter
    call: str
    agent: str
    text: str = Field(description="The agent's reason, without a rule id.")
    rule: str | None = Field(None, description="The id of the SAYC rule that made the call (shown on hover).")
    meaning: str | None = Field(None, description="What the call shows as the caller's partner reads it: the "
                                "belief net's HCP range and suit lengths (with their likelihood) after the call, "
                                "what it changed, and whether partner may pass it.")
    meaning_examples: list[str] = Field(default_factory=list, description="Two or three hands drawn from "
                                        "the meaning: hands with which the call says what it says.")
    sayc_rule: str | None = Field(None, description="For sayc and SAYC-anchored bots: the call as SAYC's "
                                  "rules read it, beside the belief net's reading.")
    top_calls: list[TopCallOut] | None
    search: bool = Field(False, description="Made by a search bot (bmcs:/mcs:): /api/boards/{id}/search "
                         "gives its candidates, particles and beliefs.")
    sayc: SaycComparisonOut | None = Field(None, description="For a person's partner: the call against SAYC, "
                                           "the system the person bids.")


class CandidateOut(BaseModel):
    call: str
    prob: float = Field(description="The policy's probability of the call.")
    rollouts: int = Field(description="Sampled deals bid to the end after this call.")
    mean: float = Field(description="Mean score of those rollouts for the searcher's side (IMPs against the "
                        "policy's first choice, or points; see 'score').")
    se: float
    alive: bool = Field(description="False once successive elimination dropped the call.")
    contracts: dict[str, int] = Field(description="Final contracts the rollouts reached, with counts.")


class BeliefGridOut(BaseModel):
    who: Literal["LHO", "partner", "RHO"]
    seat: SeatLetter
    rows: list[str] = Field(description="Suits of the rows: S H D C.")
    columns: list[str] = Field(description="Ranks of the columns: A K ... 2.")
    grid: list[list[float]] = Field(description="4 x 13: P(this hand holds the card) by the searcher's belief.")


class SearchOut(BaseModel):
    table: Literal["this", "other"]
    index: int
    seat: SeatLetter
    agent: str
    made: str = Field(description="The call made at the table.")
    call: str = Field(description="The search's call (the same as 'made').")
    greedy: str = Field(description="The policy's own first choice.")
    searched: bool = Field(description="False when the policy's call stood (one candidate, or too few deals kept).")
    reason: str
    candidates: list[CandidateOut]
    sampled: int = Field(description="Deals sampled for the hidden hands.")
    kept: int = Field(description="Sampled deals kept by the filter on the earlier calls.")
    solves: int
    score: Literal["imps", "points"]
    timing: dict[str, float]
    beliefs: list[BeliefGridOut]


class AgentKindOut(BaseModel):
    prefix: str
    summary: str


class AgentsOut(BaseModel):
    suggestions: list[str]
    kinds: list[AgentKindOut]
    models: list[str] = Field(description="Policy models a seat may name as nn:NAME (not the search's belief and tricks nets).")
    default_seats: dict[SeatLetter, str] = Field(description="The seats a new page starts with: you South, your "
                                                 "partner nn:partner when that model is shipped (else sayc), "
                                                 "the opponents nn:rl when shipped (else sayc).")


class MatchTextOut(BaseModel):
    """The numbers as the report prints them (one rounding for the list, the summary and the report)."""

    imps_per_board: str
    standard_error: str
    a_vs_par: str
    b_vs_par: str


class MatchOut(BaseModel):
    name: str
    agent_a: str
    agent_b: str
    boards: int
    imps_per_board: float
    standard_error: float | None
    a_vs_par: float
    b_vs_par: float
    text: MatchTextOut


class InterruptedMatchOut(BaseModel):
    name: str
    agent_a: str
    agent_b: str
    boards: int = Field(description="Boards the match was started with.")
    boards_done: int | None = Field(description="Boards finished and saved so far (null if unknown).")
    message: str = Field(description="What to do: rerun the same `bidlab match` command to finish it.")


class MatchesOut(BaseModel):
    matches: list[MatchOut]
    interrupted: list[InterruptedMatchOut] = Field(
        default_factory=list, description="Matches stopped before their last board: no results file yet.")
    errors: list[str] = Field(default_factory=list, description="Result folders that could not be read.")


class MatchBoardOut(BaseModel):
    board: int
    open: str
    closed: str
    imps_a: int


class MatchDetailOut(BaseModel):
    match: MatchOut
    boards: list[MatchBoardOut] = Field(description="One page of boards: `limit` from `offset`.")
    offset: int
    limit: int
    total_boards: int
    plots: list[str] = Field(description="URLs of the report's PNG plots.")
    report: str = Field(description="The report's Markdown summary.")
    report_html: str = Field("", description="The report rendered as HTML, its images pointing at the plots.")
    report_error: str | None = None


class MatchRoomOut(BaseModel):
    room: Literal["open", "closed"]
    seats: dict[SeatLetter, str]
    calls: list[CallOut]
    contract: str | None
    declarer: SeatLetter | None
    tricks: int | None
    score_ns: int
    line: str


class MatchBoardDetailOut(BaseModel):
    board: int
    dealer: SeatLetter
    vulnerability: VulName
    deal: str
    hands: dict[SeatLetter, HandOut]
    dd: dict[str, dict[SeatLetter, int]]
    par_ns: int
    rooms: list[MatchRoomOut]
    imps_a: int
    agent_a: str
    agent_b: str


# -- conversions ------------------------------------------------------------------------------

def hand_out(hand: Hand, remaining: Hand | None = None) -> HandOut:
    """A hand as dealt (HCP), showing the cards still held during the play."""
    pbn = (hand if remaining is None else remaining).to_pbn()
    return HandOut(pbn=pbn, suits=pbn.split("."), hcp=hand.hcp)


def calls_out(auction: Auction, seats: tuple[str, ...], alerts: dict | None = None) -> list[CallOut]:
    alerts = alerts or {}
    return [CallOut(index=i, seat=auction.seat_of(i).letter, call=c.to_str(), bot=seats[auction.seat_of(i)] != YOU,
                    alert=alerts[i].text() if i in alerts else None)
            for i, c in enumerate(auction.calls)]


def seats_out(seats: tuple[str, ...]) -> dict[str, str]:
    return {s.letter: seats[s] for s in Seat}


MINUS = "\u2212"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def result_line(contract: Contract | None, tricks: int | None, score_ns: int) -> str:
    """A result as players write it: ``4♠ by S, =, NS +420``, ``2♦X by E, −1, NS +100``."""
    if contract is None:
        return "Passed out, NS 0"
    over = (tricks or 0) - (contract.level + 6)
    made = "=" if over == 0 else _signed(over)
    return f"{contract.to_str(symbols=True)} by {contract.declarer.letter}, {made}, NS {_signed(score_ns)}"


def room_out(room: Room, alerts: dict | None = None) -> RoomOut:
    c = room.auction.contract
    return RoomOut(seats=seats_out(room.seats), calls=calls_out(room.auction, room.seats, alerts),
                   contract=None if c is None else c.to_str(), declarer=None if c is None else c.declarer.letter,
                   tricks=room.tricks, score_ns=room.score_ns, line=result_line(c, room.tricks, room.score_ns))


def play_out(s: Session) -> PlayOut | None:
    p = s.play
    if p is None:
        return None

    def cards(leader: Seat, cs) -> list[PlayCardOut]:
        return [PlayCardOut(seat=leader.next(i).letter, card=str(c)) for i, c in enumerate(cs)]

    return PlayOut(
        declarer=p.declarer.letter, dummy=p.dummy.letter, strain=p.contract.strain.letter,
        to_play=None if p.to_play is None else p.to_play.letter, your_turn=s.your_card,
        legal_cards=[str(c) for c in p.legal_cards()] if s.your_card else [],
        trick=cards(p.leader, p.trick),
        tricks=[TrickOut(leader=t.leader.letter, cards=cards(t.leader, t.cards), winner=t.winner.letter)
                for t in p.tricks],
        ns_tricks=p.tricks_won(0), ew_tricks=p.tricks_won(1), over=p.is_over)


def played_out(s: Session) -> PlayedOut | None:
    played = s.played_result()
    if played is None:
        return None
    c = s.play.contract
    return PlayedOut(tricks=played.tricks, score_ns=played.score_ns, imps=played.imps,
                     line=result_line(c, played.tricks, played.score_ns),
                     dd_tricks=s.result.this.tricks, dd_line=result_line(c, s.result.this.tricks, s.result.this.score_ns),
                     bots_play=s.bots_play)


def board_out(s: Session) -> BoardOut:
    over = s.over
    auction_over = s.auction.is_over
    visible = s.visible_seats()
    r = s.result
    result = None
    if r is not None and over:
        result = ResultOut(
            this=room_out(r.this, s.alerts()), other=room_out(r.other),
            dd={st.letter: {seat.letter: int(r.dd[seat, st]) for seat in Seat} for st in Strain},
            par_score_ns=r.par_score_ns, par_contracts=list(r.par_contracts),
            side=("NS", "EW")[r.side], imps=r.imps, played=played_out(s))
    playing = s.play is not None and not s.play.is_over

    def shown(seat: Seat) -> HandOut | None:
        if seat not in visible:
            return None
        return hand_out(s.board.deal[seat], s.play.remaining(seat) if playing else None)
    return BoardOut(
        id=s.id, number=s.board.number, seed=s.seed, dealer=s.board.dealer.letter,
        vulnerability=s.board.vulnerability.pbn, seats=seats_out(s.seats), stand_in=s.stand_in,
        hands={seat.letter: shown(seat) for seat in Seat},
        deal=s.board.deal.to_pbn() if over else None,
        calls=calls_out(s.auction, s.seats, s.alerts()),
        to_act=None if auction_over else s.auction.to_act.letter,
        your_turn=s.waiting_for_you,
        legal_calls=[c.to_str() for c in s.auction.legal_calls()] if s.waiting_for_you else [],
        auction_over=auction_over, play=play_out(s),
        can_undo=any(x == YOU for x in s.seats) and (s.play is None or not s.play.started)
        and any(s.seats[s.auction.seat_of(i)] == YOU for i in range(len(s.auction.calls))),
        can_undo_card=s.can_undo_card, over=over, result=result)


RULE_ID = re.compile(r"\s*\[([A-Za-z0-9_.:-]+)\]\s*$")


def split_rule_id(text: str) -> tuple[str, str | None]:
    """``"1S: 12-21 HCP ... [opening.open_one_suit]"`` -> (the text, ``"opening.open_one_suit"``)."""
    m = RULE_ID.search(text)
    return (text, None) if m is None else (text[: m.start()], m.group(1))


def why_out(w: Why) -> WhyOut:
    top = None if w.top_calls is None else [TopCallOut(call=c.to_str(), probability=p) for c, p in w.top_calls]
    text, rule = split_rule_id(w.text)
    sayc = None
    if w.sayc is not None:
        sayc = SaycComparisonOut(meaning=w.sayc.meaning, sayc_call=w.sayc.sayc_call.to_str(),
                                 sayc_reason=split_rule_id(w.sayc.sayc_reason)[0].strip(), departs=w.sayc.departs)
    return WhyOut(table=w.table, index=w.index, seat=w.seat.letter, call=w.call.to_str(), agent=w.agent,
                  text=text, rule=rule, meaning=w.meaning, meaning_examples=list(w.examples), sayc_rule=w.sayc_rule,
                  top_calls=top, search=w.search, sayc=sayc)


def match_board_out(rec: dict, agent_a: str, agent_b: str) -> MatchBoardDetailOut:
    """A board of a match's results file: the deal, DD table and both rooms."""
    from bidlab.bridge.board import Vulnerability

    deal = Deal.parse(rec["deal"])
    dealer = Seat.parse(rec["dealer"])
    vul = Vulnerability.parse(rec["vulnerability"])
    dd = rec["dd"]
    rooms = []
    for room, (ns, ew) in (("open", (agent_a, agent_b)), ("closed", (agent_b, agent_a))):
        t = rec[room]
        auction = Auction.parse(t["auction"], dealer)
        seats = (ns, ew, ns, ew)
        c = None if t["contract"] is None else Contract.parse(t["contract"], t["declarer"])
        rooms.append(MatchRoomOut(
            room=room, seats=seats_out(seats),
            calls=[CallOut(index=i, seat=auction.seat_of(i).letter, call=x.to_str(), bot=True)
                   for i, x in enumerate(auction.calls)],
            contract=t["contract"], declarer=t["declarer"], tricks=t["tricks"], score_ns=int(t["ns_score"]),
            line=result_line(c, t["tricks"], int(t["ns_score"]))))
    return MatchBoardDetailOut(
        board=int(rec["board"]), dealer=dealer.letter, vulnerability=vul.pbn, deal=deal.to_pbn(),
        hands={s.letter: hand_out(deal[s]) for s in Seat},
        dd={st.letter: {s.letter: int(dd[s][st]) for s in Seat} for st in Strain},
        par_ns=int(rec["par_ns"]), rooms=rooms, imps_a=int(rec["imps_a"]), agent_a=agent_a, agent_b=agent_b)
