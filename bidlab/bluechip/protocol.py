"""The Blue Chip Bridge table protocol (version 18): one value type per message, parsed and formatted here.

The protocol is the plain-text, line-per-message exchange between a table manager and four
bridge programs used at the World Computer Bridge Championships (described at
bluechipbridge.co.uk/protocol.htm; no formal grammar exists). A session runs::

    client: Connecting "team" as North using protocol version 18
    TM:     North ("team") seated
    client: North ready for teams
    TM:     Teams : N/S : "ns team" E/W : "ew team"
    client: North ready to start
    TM:     Start of board                                  <- once per board
    client: North ready for deal
    TM:     Board number 1. Dealer North. Neither vulnerable.
    client: North ready for cards
    TM:     North's cards : S A K 5. H Q J 2. D 9 8 7 6. C A 3 2.
    client: North passes | North bids 1NT [Alert. text] | East ready for North's bid
    TM:     East to lead                                    <- to the player (or declarer) on lead
    client: East plays 5H | North ready for East's card to trick 1 | North ready for dummy
    TM:     Dummy's cards : S ...
    TM:     Timing - N/S : this board [...]                  <- optional, after each board
    TM:     End of session

Real programs differ in small ways (WBridge5 writes seats in capitals and cards as ``kc``, BEN
ends bids with a dot and sends CRLF, OpenSpiel's wrapper writes ``cards:`` without a space
and omits nothing, some table managers never send ``Timing`` and some send the ``Teams`` line
a second time before the first board; some clients repeat ``ready to start`` before every
board). :func:`parse` accepts every
such variant that a known program sends, and notes each one in a :class:`ToleranceLog`;
:func:`format_message` always writes the canonical form shown above.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import DOUBLE, PASS, REDOUBLE, Call, Strain
from bidlab.cards import SUITS_HIGH_FIRST, Card, Hand, Rank, Seat, Suit
from bidlab.errors import BidlabError

PROTOCOL_VERSION = 18
SEAT_NAMES = ("North", "East", "South", "West")
_SEAT_RE = "North|East|South|West"
_VUL_WORDS = {Vulnerability.NONE: "Neither", Vulnerability.NS: "N/S", Vulnerability.EW: "E/W",
              Vulnerability.BOTH: "Both"}
_VUL_ALIASES = {"neither": Vulnerability.NONE, "none": Vulnerability.NONE, "n/s": Vulnerability.NS,
                "ns": Vulnerability.NS, "e/w": Vulnerability.EW, "ew": Vulnerability.EW,
                "both": Vulnerability.BOTH, "all": Vulnerability.BOTH}


class ProtocolError(BidlabError):
    """A line that is not a Blue Chip message, or not the one expected at this point."""


class IllegalActionError(ProtocolError):
    """A call or card the rules do not allow: insufficient bid, double out of turn, revoke, card not held."""


class ConnectionLostError(BidlabError):
    """The other side closed the connection, reset it, or sent nothing within the timeout."""


# -- variants accepted ----------------------------------------------------------------------

#: Names of the variants :func:`parse` accepts (keys of :class:`ToleranceLog`).
CASE = "words in another case"
SPACES = "runs of spaces"
LF = "bare LF line end"
DOT_MISSING = "trailing dot omitted"
DOT_EXTRA = "trailing dot added"
N_FOR_NT = "N for NT"
HAND_RANK_ORDER = "hand ranks not high to low"
HAND_SUIT_ORDER = "hand suits not in S H D C order"
TEN_AS_10 = "10 for T"
VOID_EMPTY = "void without '-'"
SUIT_FIRST = "card written suit first"
DUMMY_AS_SEAT = "dummy named by its seat"
SEAT_AS_DUMMY = "seat named 'Dummy'"
DECLARER_FOR_DUMMY = "dummy's lead announced with declarer's seat"
NO_TIMING = "no Timing line after a board"
COLON_SPACING = "no space before ':'"
TEAMS_FORMAT = "Teams line in another layout"
VUL_WORD = "vulnerability in another word"
READY_TO_START_AGAIN = "ready to start repeated between boards"
TEAMS_AGAIN = "Teams line repeated before the first board"


class ToleranceLog:
    """What was accepted that is not the canonical form: a count and the first line for each variant."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.examples: dict[str, str] = {}

    def note(self, variant: str, line: str) -> None:
        self.counts[variant] += 1
        self.examples.setdefault(variant, line)

    def __contains__(self, variant: str) -> bool:
        return variant in self.counts

    def lines(self) -> list[str]:
        return [f"accepted {v} ({n}x), first: {self.examples[v]!r}" for v, n in sorted(self.counts.items())]

    def to_json(self) -> dict:
        return {v: {"count": n, "first": self.examples[v]} for v, n in sorted(self.counts.items())}


# -- messages -------------------------------------------------------------------------------


class Message:
    """Base of the message types; ``final_dot`` says whether the canonical line ends with '.'."""

    final_dot: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Connecting(Message):
    team: str
    seat: Seat | None  # None: "ANYPL", the table manager picks the seat
    version: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Seated(Message):
    seat: Seat
    team: str


@dataclass(frozen=True, slots=True)
class ReadyForTeams(Message):
    seat: Seat


@dataclass(frozen=True, slots=True)
class Teams(Message):
    ns: str
    ew: str


@dataclass(frozen=True, slots=True)
class ReadyToStart(Message):
    seat: Seat


@dataclass(frozen=True, slots=True)
class StartOfBoard(Message):
    pass


@dataclass(frozen=True, slots=True)
class ReadyForDeal(Message):
    seat: Seat


@dataclass(frozen=True, slots=True)
class BoardInfo(Message):
    final_dot: ClassVar[bool] = True
    number: int
    dealer: Seat
    vulnerability: Vulnerability


@dataclass(frozen=True, slots=True)
class ReadyForCards(Message):
    seat: Seat


@dataclass(frozen=True, slots=True)
class HandCards(Message):
    """``North's cards : ...`` (``seat`` set) or ``Dummy's cards : ...`` (``seat`` None)."""

    final_dot: ClassVar[bool] = True
    seat: Seat | None
    hand: Hand


@dataclass(frozen=True, slots=True)
class CallMade(Message):
    seat: Seat
    call: Call
    alert: bool = False
    explanation: str = ""


@dataclass(frozen=True, slots=True)
class ReadyForBid(Message):
    seat: Seat
    bidder: Seat


@dataclass(frozen=True, slots=True)
class ToLead(Message):
    """``East to lead``; ``seat`` None for ``Dummy to lead``."""

    seat: Seat | None


@dataclass(frozen=True, slots=True)
class CardPlayed(Message):
    """``East plays 5H``; ``seat`` None when the line says ``Dummy plays``."""

    seat: Seat | None
    card: Card


@dataclass(frozen=True, slots=True)
class ReadyForCard(Message):
    """``North ready for East's card to trick 3``; ``player`` None for ``dummy's card``."""

    seat: Seat
    player: Seat | None
    trick: int


@dataclass(frozen=True, slots=True)
class ReadyForDummy(Message):
    seat: Seat


@dataclass(frozen=True, slots=True)
class Timing(Message):
    text: str


@dataclass(frozen=True, slots=True)
class EndOfSession(Message):
    pass


@dataclass(frozen=True, slots=True)
class ErrorLine(Message):
    """``Error ...``: a table manager or client reporting a problem before it disconnects."""

    text: str


# -- formatting -----------------------------------------------------------------------------


def _seat(seat: Seat) -> str:
    return SEAT_NAMES[seat]


def format_call(call: Call) -> str:
    if call.is_pass:
        return "passes"
    if call.is_double:
        return "doubles"
    if call.is_redouble:
        return "redoubles"
    return f"bids {call.level}{call.strain.letter}"


def format_card(card: Card) -> str:
    return card.rank.char + card.suit.letter


def format_hand(hand: Hand) -> str:
    parts = []
    for suit in SUITS_HIGH_FIRST:
        ranks = " ".join(r.char for r in hand.suit_ranks(suit))
        parts.append(f"{suit.letter} {ranks or '-'}.")
    return " ".join(parts)


def format_message(msg: Message) -> str:
    """The canonical line for a message (no line end)."""
    match msg:
        case Connecting(team, seat, version):
            return f'Connecting "{team}" as {"ANYPL" if seat is None else _seat(seat)} using protocol version {version}'
        case Seated(seat, team):
            return f'{_seat(seat)} ("{team}") seated'
        case ReadyForTeams(seat):
            return f"{_seat(seat)} ready for teams"
        case Teams(ns, ew):
            return f'Teams : N/S : "{ns}" E/W : "{ew}"'
        case ReadyToStart(seat):
            return f"{_seat(seat)} ready to start"
        case StartOfBoard():
            return "Start of board"
        case ReadyForDeal(seat):
            return f"{_seat(seat)} ready for deal"
        case BoardInfo(number, dealer, vul):
            return f"Board number {number}. Dealer {_seat(dealer)}. {_VUL_WORDS[vul]} vulnerable."
        case ReadyForCards(seat):
            return f"{_seat(seat)} ready for cards"
        case HandCards(seat, hand):
            return f"{'Dummy' if seat is None else _seat(seat)}'s cards : {format_hand(hand)}"
        case CallMade(seat, call, alert, explanation):
            line = f"{_seat(seat)} {format_call(call)}"
            if alert:
                line += " Alert." + (f" {explanation}" if explanation else "")
            return line
        case ReadyForBid(seat, bidder):
            return f"{_seat(seat)} ready for {_seat(bidder)}'s bid"
        case ToLead(seat):
            return f"{'Dummy' if seat is None else _seat(seat)} to lead"
        case CardPlayed(seat, card):
            return f"{'Dummy' if seat is None else _seat(seat)} plays {format_card(card)}"
        case ReadyForCard(seat, player, trick):
            return f"{_seat(seat)} ready for {'dummy' if player is None else _seat(player)}'s card to trick {trick}"
        case ReadyForDummy(seat):
            return f"{_seat(seat)} ready for dummy"
        case Timing(text):
            return text if text.lower().startswith("timing") else f"Timing - {text}"
        case EndOfSession():
            return "End of session"
        case ErrorLine(text):
            return f"Error: {text}"
    raise ProtocolError(f"cannot format {msg!r}")  # pragma: no cover - every type is handled above


# -- parsing --------------------------------------------------------------------------------

_CARD_TOKEN = r"(?:[2-9TJQKA]|10)[CDHS]|[CDHS](?:[2-9TJQKA]|10)"
_BID_TOKEN = r"[1-7](?:NT|N|C|D|H|S)"


def _parse_seat(text: str) -> Seat:
    return Seat(SEAT_NAMES.index(text.capitalize()))


def _parse_card(token: str, line: str, log: ToleranceLog) -> Card:
    t = token.upper()
    if t[0] in "CDHS":
        log.note(SUIT_FIRST, line)
        suit, rank = t[0], t[1:]
    else:
        suit, rank = t[-1], t[:-1]
    if rank == "10":
        log.note(TEN_AS_10, line)
    return Card(Suit.parse(suit), Rank.parse(rank))


def _parse_bid(token: str, line: str, log: ToleranceLog) -> Call:
    t = token.upper()
    if t[1:] == "N":
        log.note(N_FOR_NT, line)
    return Call.bid(int(t[0]), Strain.parse(t[1:]))


_SUIT_PART = re.compile(r"^([SHDC])\s*((?:[2-9TJQKA]|10|\s)*|-)$", re.IGNORECASE)


def parse_hand(text: str, line: str, log: ToleranceLog) -> Hand:
    """``S A K 5. H -. D Q J 9 8 7. C 2`` (any suit order, ranks in any order, ``10`` for ``T``)."""
    parts = [p.strip() for p in text.strip().rstrip(".").split(".")]
    if len(parts) != 4:
        raise ProtocolError(f"a hand needs four suits separated by dots, found {len(parts)}", )
    cards: list[Card] = []
    order: list[Suit] = []
    for part in parts:
        m = _SUIT_PART.match(part)
        if not m:
            raise ProtocolError(f"not a suit holding {part!r}")
        suit = Suit.parse(m.group(1))
        if suit in order:
            raise ProtocolError(f"suit {suit.letter} given twice")
        order.append(suit)
        holding = m.group(2).strip()
        if holding == "-":
            continue
        if not holding:
            log.note(VOID_EMPTY, line)
            continue
        tokens = holding.split() if " " in holding else re.findall(r"10|.", holding)
        ranks = []
        for tok in tokens:
            if tok == "10":
                log.note(TEN_AS_10, line)
            ranks.append(Rank.parse(tok))
        if ranks != sorted(ranks, reverse=True):
            log.note(HAND_RANK_ORDER, line)
        cards.extend(Card(suit, r) for r in ranks)
    if tuple(order) != SUITS_HIGH_FIRST:
        log.note(HAND_SUIT_ORDER, line)
    hand = Hand(cards)
    if len(hand) != len(cards):
        raise ProtocolError("a card is given twice in the hand")
    if len(hand) != 13:
        raise ProtocolError(f"a hand has 13 cards, this one has {len(hand)}")
    return hand


def _patterns() -> list[tuple[re.Pattern, re.Pattern, str]]:
    S = f"(?P<seat>{_SEAT_RE})"
    raw = [
        ("connecting", r'Connecting "(?P<team>[^"]*)" as (?P<seat>' + _SEAT_RE + r'|ANYPL) using protocol version (?P<version>\d+)'),
        ("seated", S + r' \(?"?(?P<team>[^"]*?)"?\)? seated'),
        ("ready_teams", S + " ready for teams"),
        ("teams", r'Teams ?:? ?N/S ?:? ?"(?P<ns>[^"]*)"\.? ?,? ?E/W ?:? ?"(?P<ew>[^"]*)"(?P<rest>.*)'),
        ("ready_start", S + " ready to start"),
        ("start", "Start of board"),
        ("ready_deal", S + " ready for deal"),
        ("board", r"Board number (?P<number>\d+)\. ?Dealer (?P<dealer>" + _SEAT_RE + r")\. ?(?P<vul>Neither|None|N/S|NS|E/W|EW|Both|All) vulnerable"),
        ("ready_cards", S + " ready for cards"),
        ("cards", r"(?P<seat>" + _SEAT_RE + r"|Dummy)'s cards(?P<space> ?):(?P<hand>.*)"),
        ("call", S + r" (?:(?P<pass>passes)|(?P<dbl>doubles)|(?P<rdbl>redoubles)|bids (?P<bid>" + _BID_TOKEN + r"))\.?"
         r"(?: ?(?P<kind>Alert|Infos)\.?(?: (?P<expl>.*))?)?"),
        ("ready_bid", S + r" ready for (?P<bidder>" + _SEAT_RE + r")'s bid"),
        ("to_lead", r"(?P<seat>" + _SEAT_RE + r"|Dummy) to lead"),
        ("plays", r"(?P<seat>" + _SEAT_RE + r"|Dummy) plays (?P<card>" + _CARD_TOKEN + ")"),
        ("ready_card", S + r" ready for (?P<player>" + _SEAT_RE + r"|dummy)'s card to trick (?P<trick>\d+)"),
        ("ready_dummy", S + " ready for dummy"),
        ("timing", r"Timing\b(?P<text>.*)"),
        ("end", "End of session"),
        ("error", r"Error\b:? ?(?P<text>.*)"),
    ]
    return [(re.compile(p), re.compile(p, re.IGNORECASE), name) for name, p in raw]


_PATTERNS = _patterns()


def parse(line: str, log: ToleranceLog | None = None) -> Message:
    """Parse one line (without its line end) into a message; raise :class:`ProtocolError` if it is none.

    Every accepted deviation from the canonical form is noted in ``log``.
    """
    log = ToleranceLog() if log is None else log
    if not isinstance(line, str):
        raise ProtocolError(f"a line must be text, got {type(line).__name__}")
    # Runs of blanks outside quotes are one space (programs pad lines); a quoted team name
    # is kept as sent, so a name with two spaces in a row comes back unchanged.
    parts = line.strip().split('"')
    text = '"'.join(p if k % 2 else re.sub(r"[ \t]+", " ", p) for k, p in enumerate(parts))
    if text != line.strip():
        log.note(SPACES, line)
    if not text:
        raise ProtocolError("empty line")
    body, dot = (text[:-1].rstrip(), True) if text.endswith(".") else (text, False)
    for exact, loose, name in _PATTERNS:
        m = exact.fullmatch(body)
        if m is None:
            m = loose.fullmatch(body)
            if m is None:
                continue
            log.note(CASE, line)
        try:
            msg = _build(name, m, line, log)
        except BidlabError as e:
            raise ProtocolError(f"{e} in {line!r}") from None
        if name not in ("timing", "error", "teams") and not (name == "call" and m.group("kind")):
            if dot and not msg.final_dot:
                log.note(DOT_EXTRA, line)
            elif not dot and msg.final_dot:
                log.note(DOT_MISSING, line)
        return msg
    raise ProtocolError(f"not a Blue Chip message: {line[:120]!r}")


def _build(name: str, m: re.Match, line: str, log: ToleranceLog) -> Message:
    g = m.groupdict()
    seat = g.get("seat")
    match name:
        case "connecting":
            s = None if seat.upper() == "ANYPL" else _parse_seat(seat)
            return Connecting(g["team"], s, int(g["version"]))
        case "seated":
            return Seated(_parse_seat(seat), g["team"])
        case "ready_teams":
            return ReadyForTeams(_parse_seat(seat))
        case "teams":
            msg = Teams(g["ns"], g["ew"])
            if m.string.lower() != format_message(msg).lower():
                log.note(TEAMS_FORMAT, line)
            return msg
        case "ready_start":
            return ReadyToStart(_parse_seat(seat))
        case "start":
            return StartOfBoard()
        case "ready_deal":
            return ReadyForDeal(_parse_seat(seat))
        case "board":
            vul_text = g["vul"]
            if vul_text.capitalize() not in ("Neither", "Both") and vul_text.upper() not in ("N/S", "E/W"):
                log.note(VUL_WORD, line)
            number = int(g["number"])
            if number < 1:
                raise ProtocolError("board number must be at least 1")
            return BoardInfo(number, _parse_seat(g["dealer"]), _VUL_ALIASES[vul_text.lower()])
        case "ready_cards":
            return ReadyForCards(_parse_seat(seat))
        case "cards":
            if not g["space"]:
                log.note(COLON_SPACING, line)
            owner = None if seat.lower() == "dummy" else _parse_seat(seat)
            return HandCards(owner, parse_hand(g["hand"], line, log))
        case "call":
            if g["pass"]:
                call = PASS
            elif g["dbl"]:
                call = DOUBLE
            elif g["rdbl"]:
                call = REDOUBLE
            else:
                call = _parse_bid(g["bid"], line, log)
            alert = (g["kind"] or "").lower() == "alert"
            return CallMade(_parse_seat(seat), call, alert, (g["expl"] or "").strip())
        case "ready_bid":
            return ReadyForBid(_parse_seat(seat), _parse_seat(g["bidder"]))
        case "to_lead":
            return ToLead(None if seat.lower() == "dummy" else _parse_seat(seat))
        case "plays":
            return CardPlayed(None if seat.lower() == "dummy" else _parse_seat(seat),
                              _parse_card(g["card"], line, log))
        case "ready_card":
            player = None if g["player"].lower() == "dummy" else _parse_seat(g["player"])
            trick = int(g["trick"])
            if not 1 <= trick <= 13:
                raise ProtocolError(f"trick number must be 1..13, got {trick}")
            return ReadyForCard(_parse_seat(seat), player, trick)
        case "ready_dummy":
            return ReadyForDummy(_parse_seat(seat))
        case "timing":
            return Timing(m.string.strip())
        case "end":
            return EndOfSession()
        case "error":
            return ErrorLine(g["text"].strip())
    raise ProtocolError(f"unknown message kind {name}")  # pragma: no cover
