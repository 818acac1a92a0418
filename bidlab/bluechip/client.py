"""A Blue Chip client: one seat at a table, bidding with any bidlab agent and playing the cards.

The client follows the table manager's lead line by line (see :mod:`bidlab.bluechip.protocol`):
it answers each message with the next one the protocol expects, checks that every call and
card it is told about is legal as far as it can know (its own and dummy's cards are known,
the others' are not), and ends with a :class:`ProtocolError` or :class:`ConnectionLostError`
naming the line at fault rather than guessing. Card play is :mod:`bidlab.bluechip.play`'s.
"""

from __future__ import annotations

import logging
import socket
from dataclasses import dataclass, field

from bidlab.agents.base import Agent, BiddingView
from bidlab.bluechip.connection import LineConnection
from bidlab.bluechip.play import PlayView, RulePlayer, SampledDDPlayer, TrickPlay
from bidlab.bluechip.protocol import (
    DECLARER_FOR_DUMMY,
    DUMMY_AS_SEAT,
    NO_TIMING,
    SEAT_AS_DUMMY,
    TEAMS_AGAIN,
    BoardInfo,
    CallMade,
    CardPlayed,
    Connecting,
    ConnectionLostError,
    EndOfSession,
    ErrorLine,
    HandCards,
    IllegalActionError,
    Message,
    ProtocolError,
    ReadyForBid,
    ReadyForCard,
    ReadyForCards,
    ReadyForDeal,
    ReadyForDummy,
    ReadyForTeams,
    ReadyToStart,
    Seated,
    StartOfBoard,
    Teams,
    Timing,
    ToLead,
    ToleranceLog,
    format_message,
    parse,
)
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.cards import Hand, Seat
from bidlab.errors import BidlabError

logger = logging.getLogger("bidlab.bluechip")


@dataclass
class ClientBoard:
    """What one client saw of a board."""

    number: int
    dealer: Seat
    vulnerability: Vulnerability
    hand: Hand
    auction: Auction
    play: TrickPlay | None = None

    def to_json(self) -> dict:
        c = self.auction.contract
        return {
            "board": self.number, "dealer": self.dealer.letter, "vulnerability": self.vulnerability.pbn,
            "hand": self.hand.to_pbn(), "auction": self.auction.to_str(),
            "contract": None if c is None else c.to_str(), "declarer": None if c is None else c.declarer.letter,
            "declarer_tricks": None if self.play is None else self.play.declarer_tricks,
        }


@dataclass
class ClientSession:
    seat: Seat
    teams: Teams | None = None
    boards: list[ClientBoard] = field(default_factory=list)


class BlueChipClient:
    """One seat. ``player`` chooses cards (``RulePlayer`` or ``SampledDDPlayer``)."""

    def __init__(self, conn: LineConnection, seat: Seat, agent: Agent, team: str,
                 player: RulePlayer | SampledDDPlayer | None = None):
        if getattr(agent, "peeks", False):  # a diagnostic that reads hidden hands (oracle-punish:) never plays
            raise BidlabError(f"{getattr(agent, 'name', 'this agent')!r} cannot sit at a Blue Chip table: it looks "
                              "at the hidden hands (a diagnostic for `bidlab match` only)")
        self.conn = conn
        self.seat = seat
        self.agent = agent
        self.team = team
        self.player = RulePlayer() if player is None else player
        self.session = ClientSession(seat)

    @property
    def log(self) -> ToleranceLog:
        return self.conn.log

    # -- plumbing ------------------------------------------------------------------------

    def _send(self, msg: Message) -> None:
        self.conn.send(msg)

    def _expect(self, kinds: type | tuple[type, ...], waiting_for: str) -> Message:
        line = self.conn.receive_line(waiting_for)
        try:
            msg = parse(line, self.log)
        except ProtocolError as e:
            raise ProtocolError(f"{self.seat.full_name}: waiting for {waiting_for}: {e}") from None
        if isinstance(msg, ErrorLine):
            raise ProtocolError(f"{self.seat.full_name}: the table manager reported an error: {msg.text}")
        if not isinstance(msg, kinds):
            raise ProtocolError(f"{self.seat.full_name}: expected {waiting_for}, got {line!r}")
        return msg

    def _fail(self, problem: str) -> None:
        raise ProtocolError(f"{self.seat.full_name}: {problem}")

    # -- session -------------------------------------------------------------------------

    def run(self) -> ClientSession:
        """Play the whole session; always closes the connection."""
        try:
            self._connect()
            after_board = timing_seen = False
            while True:
                msg = self._expect((StartOfBoard, EndOfSession, Timing, Teams), "'Start of board' or 'End of session'")
                if isinstance(msg, Teams):
                    # some table managers send the Teams line again before the first board; later it is an error
                    if self.session.boards:
                        self._fail(f"a Teams line after board {len(self.session.boards)}: {format_message(msg)!r}")
                    self.log.note(TEAMS_AGAIN, format_message(msg))
                    self.session.teams = msg
                    continue
                if isinstance(msg, Timing):
                    timing_seen = True
                    continue
                if after_board and not timing_seen:
                    self.log.note(NO_TIMING, "(Start of board / End of session without Timing)")
                if isinstance(msg, EndOfSession):
                    return self.session
                self.session.boards.append(self._board())
                after_board, timing_seen = True, False
        finally:
            self.conn.close()

    def _connect(self) -> None:
        me = self.seat
        self._send(Connecting(self.team, me))
        seated = self._expect(Seated, f"'{me.full_name} (...) seated'")
        if seated.seat != me:
            self._fail(f"asked for {me.full_name} but was seated {seated.seat.full_name}")
        self._send(ReadyForTeams(me))
        self.session.teams = self._expect(Teams, "the Teams line")
        self._send(ReadyToStart(me))

    def _board(self) -> ClientBoard:
        me = self.seat
        self._send(ReadyForDeal(me))
        info = self._expect(BoardInfo, "'Board number ...'")
        self._send(ReadyForCards(me))
        cards = self._expect(HandCards, f"{me.full_name}'s cards")
        if cards.seat != me:
            self._fail(f"got {'dummy' if cards.seat is None else cards.seat.full_name}'s cards instead of its own")
        board = ClientBoard(info.number, info.dealer, info.vulnerability, cards.hand, Auction(info.dealer))
        self._auction(board)
        if board.auction.contract is not None:
            self._play(board)
        return board

    def _auction(self, board: ClientBoard) -> None:
        me = self.seat
        while not board.auction.is_over:
            actor = board.auction.to_act
            if actor == me:
                call = self.agent.act(BiddingView(me, board.hand, board.auction, board.vulnerability))
                if not board.auction.is_legal(call):
                    raise BidlabError(f"agent {self.agent.name} chose the illegal call {call}")
                self._send(CallMade(me, call))
            else:
                self._send(ReadyForBid(me, actor))
                msg = self._expect(CallMade, f"{actor.full_name}'s call")
                if msg.seat != actor:
                    self._fail(f"expected {actor.full_name}'s call, got {msg.seat.full_name}'s (out of turn)")
                call = msg.call
                if not board.auction.is_legal(call):
                    raise IllegalActionError(
                        f"{me.full_name}: {actor.full_name}'s {call} is not legal after "
                        f"'{board.auction.to_str() or '(start)'}'")
            board.auction = board.auction.with_call(call)

    def _play(self, board: ClientBoard) -> None:
        me = self.seat
        contract = board.auction.contract
        tp = TrickPlay(contract.strain, contract.declarer)
        board.play = tp
        dummy = tp.dummy
        hands: dict[Seat, Hand] = {me: board.hand}
        while not tp.is_over:
            p = tp.to_play
            if tp.controller(p) == me and me != dummy:
                if not tp.current:
                    self._expect_lead(p, tp)
                card = self.player.choose(PlayView(me, p, dict(hands), tp))
                self._send(CardPlayed(p, card))
            else:
                self._send(ReadyForCard(me, None if p == dummy else p, tp.trick_number))
                msg = self._expect(CardPlayed, f"{p.full_name}'s card to trick {tp.trick_number}")
                if msg.seat is None and p == dummy:
                    self.log.note(SEAT_AS_DUMMY, f"Dummy plays {msg.card}")
                elif msg.seat != p:
                    self._fail(f"expected {p.full_name}'s card, got one for "
                               f"{'Dummy' if msg.seat is None else msg.seat.full_name} (out of turn)")
                card = msg.card
            remaining = hands.get(p)
            if remaining is None:
                # Nobody may play a card this client can see in another hand.
                for s, h in hands.items():
                    if card in h:
                        raise IllegalActionError(f"{me.full_name}: {p.full_name} plays {card}, "
                                                 f"which is in {s.full_name}'s hand")
            try:
                tp.play(card, remaining)
            except IllegalActionError as e:
                raise IllegalActionError(f"{me.full_name}: {e}") from None
            if remaining is not None:
                hands[p] = remaining - Hand([card])
            if tp.played.bit_count() == 1 and me != dummy:
                hands[dummy] = self._receive_dummy(dummy, hands, tp)

    def _expect_lead(self, p: Seat, tp: TrickPlay) -> None:
        msg = self._expect(ToLead, f"'{'Dummy' if p == tp.dummy else p.full_name} to lead'")
        if msg.seat is None:
            if p != tp.dummy:
                self._fail(f"told 'Dummy to lead' but {p.full_name} is on lead")
        elif msg.seat != p:
            if p == tp.dummy and msg.seat == tp.declarer:
                self.log.note(DECLARER_FOR_DUMMY, f"{msg.seat.full_name} to lead")
            else:
                self._fail(f"told {msg.seat.full_name} to lead but {p.full_name} is on lead")
        elif p == tp.dummy:
            self.log.note(DUMMY_AS_SEAT, f"{p.full_name} to lead")

    def _receive_dummy(self, dummy: Seat, hands: dict[Seat, Hand], tp: TrickPlay) -> Hand:
        self._send(ReadyForDummy(self.seat))
        msg = self._expect(HandCards, "dummy's cards")
        if msg.seat is not None and msg.seat != dummy:
            self._fail(f"got {msg.seat.full_name}'s cards as dummy's; dummy is {dummy.full_name}")
        if msg.seat == dummy:
            self.log.note(DUMMY_AS_SEAT, f"{dummy.full_name}'s cards")
        if msg.hand.mask & hands[self.seat].mask or msg.hand.mask & tp.played:
            self._fail("dummy's cards overlap this hand or the opening lead")
        return msg.hand


def connect(host: str, port: int, timeout: float) -> socket.socket:
    """A TCP connection to a table manager, with a clear error when nobody listens."""
    try:
        return socket.create_connection((host, port), timeout=timeout)
    except OSError as e:
        raise ConnectionLostError(f"cannot connect to a table manager at {host}:{port} ({e.strerror or e})") from None


#: The card players ``--play`` names.
PLAYERS = ("dd", "rule")


def make_player(kind: str, samples: int, seed: int) -> RulePlayer | SampledDDPlayer:
    if kind == "rule":
        return RulePlayer()
    if kind == "dd":
        return SampledDDPlayer(samples, seed)
    raise BidlabError(f"card player must be 'dd' or 'rule', got {kind!r}")
