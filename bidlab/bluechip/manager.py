"""A Blue Chip table manager: seat four programs per table, deal, relay, check, score, record.

One table listens on one port (the usual arrangement at computer championships); a team
match has two tables, the open room on ``port`` and the closed room on ``port + 1``, with the
same boards. The team seated North-South in the open room is "team 1"; its IMPs per board
are ``imps(NS score open - NS score closed)``, exactly as :mod:`bidlab.eval.match` scores
agent A, who sits NS in the open room there.

Each board is scored twice: by the contract's double-dummy tricks (``tricks``, ``ns_score``:
the score ``bidlab match`` gives, used for IMPs and for comparing with it) and by the tricks
actually taken in the play (``played_tricks``, ``ns_score_played``, ``imps_played``).

Every finished board is written at once (atomically) to ``results.jsonl`` and
``session.pbn`` in the output folder; a session stopped by a protocol error, an illegal call
or card, or a lost connection keeps every board finished before it, and running the same
session again on the same folder plays only the boards not yet finished.
"""

from __future__ import annotations

import json
import logging
import math
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

import bidlab
from bidlab.bluechip.connection import LineConnection, check_loopback
from bidlab.bluechip.play import TrickPlay, trick_winner
from bidlab.bluechip.protocol import (
    DUMMY_AS_SEAT,
    READY_TO_START_AGAIN,
    SEAT_AS_DUMMY,
    BoardInfo,
    CallMade,
    CardPlayed,
    Connecting,
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
    parse,
)
from bidlab.bridge import pbn
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board
from bidlab.bridge.calls import Strain
from bidlab.bridge.records import BoardRecord, Tag
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cards import Card, Deal, Hand, Seat
from bidlab.dd import dd_tables
from bidlab.errors import BidlabError
from bidlab.eval.match import MatchConfig, select_deals
from bidlab.fileio import write_json_atomic, write_text_atomic

logger = logging.getLogger("bidlab.bluechip")

ROOMS = ("open", "closed")


class SessionError(BidlabError):
    """The session stopped before its last board (the reason says which table, seat and line)."""


@dataclass(frozen=True)
class ServeConfig:
    """Everything that determines a session's boards and its protocol behaviour."""

    host: str = "127.0.0.1"
    port: int = 2000
    tables: int = 2
    timeout: float = 120.0          # seconds a client may take for any one line
    accept_timeout: float = 600.0   # seconds to wait for the four programs of a table
    send_timing: bool = True
    allow_remote: bool = False


# -- one table ------------------------------------------------------------------------------


class Table:
    """Four connections and the boards played over them, one at a time."""

    def __init__(self, room: str, conns: dict[Seat, LineConnection], teams: Teams, cfg: ServeConfig,
                 log: ToleranceLog):
        self.room = room
        self.conns = conns
        self.teams = teams
        self.cfg = cfg
        self.log = log
        # Thinking time per side (NS, EW): from the moment a seat may act to its line.
        self.board_time = [0.0, 0.0]
        self.total_time = [0.0, 0.0]

    def _to(self, seat: Seat, msg: Message) -> None:
        self.conns[seat].send(msg)

    def _all(self, msg: Message, but: Seat | None = None) -> None:
        for s in Seat:
            if s != but:
                self._to(s, msg)

    def _expect(self, seat: Seat, kind: type, waiting_for: str) -> Message:
        return self._check(seat, self.conns[seat].receive_line(waiting_for), kind, waiting_for)

    def fail(self, seat: Seat | None, error: BidlabError) -> None:
        """Tell the seat at fault (if any) what went wrong, then close every connection."""
        if seat is not None:
            try:
                self._to(seat, ErrorLine(str(error)))
            except BidlabError:
                pass
        self.close()

    def close(self) -> None:
        for c in self.conns.values():
            c.close()

    def start(self) -> None:
        for s in Seat:
            self._expect(s, ReadyForTeams, f"'{s.full_name} ready for teams'")
        self._all(self.teams)
        for s in Seat:
            self._expect(s, ReadyToStart, f"'{s.full_name} ready to start'")

    def end(self) -> None:
        self._all(EndOfSession())

    def play_board(self, board: Board) -> dict:
        """Deal, bid and play one board; returns the room's record (without DD scoring)."""
        self._all(StartOfBoard())
        self.board_time = [0.0, 0.0]
        for s in Seat:
            line = self.conns[s].receive_line(f"'{s.full_name} ready for deal'")
            if _peek(line) == ReadyToStart(s):
                # Some clients repeat "ready to start" before every board.
                self.log.note(READY_TO_START_AGAIN, line)
                line = self.conns[s].receive_line(f"'{s.full_name} ready for deal'")
            self._check(s, line, ReadyForDeal, f"'{s.full_name} ready for deal'")
        self._all(BoardInfo(board.number, board.dealer, board.vulnerability))
        for s in Seat:
            self._expect(s, ReadyForCards, f"'{s.full_name} ready for cards'")
        for s in Seat:
            self._to(s, HandCards(s, board.deal[s]))
        auction = self._auction(board)
        record: dict = {"room": self.room, "auction": auction.to_str(), "ns_team": self.teams.ns,
                        "ew_team": self.teams.ew}
        c = auction.contract
        if c is None:
            record.update(contract=None, declarer=None, played_tricks=None, play=[])
        else:
            tp = self._play(board, auction)
            record.update(contract=c.to_str(), declarer=c.declarer.letter, played_tricks=tp.declarer_tricks,
                          play=[str(card) for _, cards in tp.tricks for card in cards])
        for side in (0, 1):
            self.total_time[side] += self.board_time[side]
        if self.cfg.send_timing:
            b, t = self.board_time, self.total_time
            self._all(Timing(f"Timing - N/S : this board [{_mmss(b[0])}], total [{_hmmss(t[0])}]. "
                             f"E/W : this board [{_mmss(b[1])}], total [{_hmmss(t[1])}]."))
        return record

    def _check(self, seat: Seat, line: str, kind: type, waiting_for: str) -> Message:
        try:
            msg = parse(line, self.log)
        except ProtocolError as e:
            self._refuse(seat, ProtocolError(f"{self.room} room, {seat.full_name}: waiting for {waiting_for}: {e}"))
        if isinstance(msg, ErrorLine):
            raise ProtocolError(f"{self.room} room, {seat.full_name} reported an error: {msg.text}")
        # A card line names the player, which for dummy's cards is not the sender (declarer).
        if not isinstance(msg, kind) or (kind is not CardPlayed and getattr(msg, "seat", seat) != seat):
            self._refuse(seat, ProtocolError(f"{self.room} room, {seat.full_name}: expected {waiting_for}, "
                                             f"got {line!r}"))
        return msg

    def _refuse(self, seat: Seat, error: BidlabError) -> None:
        """Send the seat at fault an ``Error:`` line saying why, close the table, raise ``error``."""
        self.fail(seat, error)
        raise error

    def _auction(self, board: Board) -> Auction:
        auction = Auction(board.dealer)
        while not auction.is_over:
            actor = auction.to_act
            t0 = time.monotonic()
            for s in Seat:
                if s == actor:
                    continue
                msg = self._expect(s, ReadyForBid, f"'{s.full_name} ready for {actor.full_name}'s bid'")
                if msg.bidder != actor:
                    self._refuse(s, ProtocolError(f"{self.room} room, {s.full_name}: ready for {msg.bidder.full_name}'s bid, "
                                        f"but {actor.full_name} is to call"))
            msg = self._expect(actor, CallMade, f"{actor.full_name}'s call")
            self.board_time[actor.side] += time.monotonic() - t0
            if not auction.is_legal(msg.call):
                reason = "not legal"
                try:
                    auction.with_call(msg.call)
                except BidlabError as e:
                    reason = str(e).split(": ", 1)[-1]
                err = IllegalActionError(f"{self.room} room, board {board.number}: {actor.full_name}'s "
                                         f"{msg.call}: {reason}")
                self._refuse(actor, err)
            auction = auction.with_call(msg.call)
            for s in Seat:
                if s == actor:
                    continue
                opponent = s.side != actor.side
                # Alerts (and their explanations) go to the opponents only.
                self._to(s, CallMade(actor, msg.call, msg.alert and opponent, msg.explanation if opponent else ""))
        return auction

    def _play(self, board: Board, auction: Auction) -> TrickPlay:
        c = auction.contract
        tp = TrickPlay(c.strain, c.declarer)
        dummy = tp.dummy
        remaining = {s: board.deal[s] for s in Seat}
        while not tp.is_over:
            p = tp.to_play
            ctrl = tp.controller(p)
            if not tp.current:
                self._to(ctrl, ToLead(None if p == dummy else p))
            trick = tp.trick_number
            t0 = time.monotonic()
            for s in Seat:
                if s == ctrl:
                    continue
                name = "dummy" if p == dummy else p.full_name
                msg = self._expect(s, ReadyForCard, f"'{s.full_name} ready for {name}'s card to trick {trick}'")
                if msg.player is None and p != dummy or msg.player is not None and msg.player != p:
                    self._refuse(s, ProtocolError(f"{self.room} room, {s.full_name}: ready for the wrong player's card "
                                        f"({'dummy' if msg.player is None else msg.player.full_name}), "
                                        f"{name} is to play"))
                if msg.player == p == dummy:
                    self.log.note(DUMMY_AS_SEAT, f"ready for {p.full_name}'s card")
                if msg.trick != trick:
                    self._refuse(s, ProtocolError(f"{self.room} room, {s.full_name}: ready for trick "
                                                  f"{msg.trick}, this is trick {trick}"))
            msg = self._expect(ctrl, CardPlayed, f"{p.full_name}'s card to trick {trick}")
            self.board_time[ctrl.side] += time.monotonic() - t0
            if msg.seat is None and p == dummy:
                self.log.note(SEAT_AS_DUMMY, f"Dummy plays {msg.card}")
            elif msg.seat != p:
                self._refuse(ctrl, ProtocolError(f"{self.room} room, {ctrl.full_name}: played for "
                                                 f"{'Dummy' if msg.seat is None else msg.seat.full_name}, "
                                                 f"but {p.full_name} is to play"))
            try:
                tp.play(msg.card, remaining[p])
            except IllegalActionError as e:
                self._refuse(ctrl, IllegalActionError(f"{self.room} room, board {board.number}, "
                                                      f"trick {trick}: {e}"))
            remaining[p] = remaining[p] - Hand([msg.card])
            self._all(CardPlayed(p, msg.card), but=ctrl)
            if tp.played.bit_count() == 1:
                for s in Seat:
                    if s != dummy:
                        self._expect(s, ReadyForDummy, f"'{s.full_name} ready for dummy'")
                for s in Seat:
                    if s != dummy:
                        self._to(s, HandCards(None, board.deal[dummy]))
        return tp


def _mmss(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


def _hmmss(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def _peek(line: str) -> Message | None:
    """The message a line holds, or None; its variants are not logged (the line is parsed again)."""
    try:
        return parse(line, ToleranceLog())
    except ProtocolError:
        return None


# -- seating ----------------------------------------------------------------------------------


def open_listener(host: str, port: int, allow_remote: bool) -> socket.socket:
    """A listening socket; refuses non-loopback addresses unless ``allow_remote``."""
    check_loopback(host, allow_remote)
    try:
        sock = socket.create_server((host, port), reuse_port=False)
    except OSError as e:
        raise SessionError(f"cannot listen on {host}:{port} ({e.strerror or e})") from None
    return sock


def seat_table(listener: socket.socket, room: str, cfg: ServeConfig, log: ToleranceLog,
               on_seated: Callable[[str, Seat, str], None] | None = None) -> Table:
    """Accept programs until all four seats are taken; a bad newcomer is refused, not fatal."""
    conns: dict[Seat, LineConnection] = {}
    teams: dict[Seat, str] = {}
    listener.settimeout(cfg.accept_timeout)
    while len(conns) < 4:
        try:
            sock, addr = listener.accept()
        except TimeoutError:
            for c in conns.values():
                c.close()
            raise SessionError(f"{room} room: only {len(conns)} of 4 programs connected within "
                               f"{cfg.accept_timeout:g} s") from None
        conn = LineConnection(sock, f"{room} room, {addr[0]}:{addr[1]}", cfg.timeout, log)
        try:
            line = conn.receive_line("'Connecting ...'")
            msg = parse(line, log) if _peek(line) is not None else None
            if not isinstance(msg, Connecting):
                raise ProtocolError(f"expected 'Connecting \"team\" as SEAT using protocol version 18', got {line!r}")
            if msg.version != 18:
                raise ProtocolError(f"protocol version {msg.version} is not supported (18 is)")
            seat = msg.seat if msg.seat is not None else next(s for s in Seat if s not in conns)
            if seat in conns:
                raise ProtocolError(f"{seat.full_name} is already taken")
            if seat.partner in teams and teams[seat.partner] != msg.team:
                raise ProtocolError(f"team {msg.team!r} differs from partner {seat.partner.full_name}'s "
                                    f"team {teams[seat.partner]!r}")
        except BidlabError as e:
            logger.warning("%s refused: %s", conn.name, e)
            try:
                conn.send(ErrorLine(str(e)))
            except BidlabError:
                pass
            conn.close()
            continue
        conn.name = f"{room} room, {seat.full_name}"
        conns[seat] = conn
        teams[seat] = msg.team
        conn.send(Seated(seat, msg.team))
        if on_seated:
            on_seated(room, seat, msg.team)
    return Table(room, conns, Teams(teams[Seat.N], teams[Seat.E]), cfg, log)


# -- the session ------------------------------------------------------------------------------


class Session:
    """Boards, DD tables and the output folder of one table-manager session."""

    def __init__(self, boards: list[Board], dd: np.ndarray, cfg: ServeConfig, out: str | Path,
                 source: dict | None = None):
        if len(boards) != len(dd):
            raise SessionError(f"{len(boards)} boards but {len(dd)} DD tables")
        if cfg.tables not in (1, 2):
            raise SessionError(f"a session has 1 or 2 tables, got {cfg.tables}")
        self.boards = boards
        self.dd = np.asarray(dd)
        self.cfg = cfg
        self.out = Path(out)
        self.source = source or {}
        self.rooms = ROOMS[: cfg.tables]
        self.results: dict[str, list[dict | None]] = {r: [None] * len(boards) for r in self.rooms}
        self.teams: dict[str, Teams] = {}
        self.log = ToleranceLog()
        self._lock = threading.Lock()
        self._resume()

    def _resume(self) -> None:
        """Take back the boards a previous run of this session finished (same boards, same rooms)."""
        path = self.out / "results.jsonl"
        if not path.exists():
            return
        try:
            lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
            header = lines[0]
        except (OSError, json.JSONDecodeError, IndexError) as e:
            raise SessionError(f"{path} is not a bidlab Blue Chip results file ({e}); use another --out") from None
        if header.get("type") != "bidlab-bluechip" or header.get("source") != self.source \
                or header.get("rooms") != list(self.rooms):
            raise SessionError(f"{self.out} holds a different session ({header.get('source')}); "
                               "use another --out folder, or delete it to start over")
        number = {b.number: i for i, b in enumerate(self.boards)}
        for line in lines[1:]:
            i = number.get(line.get("board"))
            if i is None or line.get("deal") != self.boards[i].deal.to_pbn():
                raise SessionError(f"{path}: board {line.get('board')} is not one of this session's boards")
            for room in self.rooms:
                self.results[room][i] = line.get(room)
        self.teams = {r: Teams(t["ns"], t["ew"]) for r, t in header.get("teams", {}).items()}

    # -- scoring and files -------------------------------------------------------------

    def _score(self, i: int, rec: dict) -> dict:
        board, table = self.boards[i], self.dd[i]
        if rec["contract"] is None:
            return dict(rec, tricks=None, ns_score=0, ns_score_played=0)
        auction = Auction.parse(rec["auction"], board.dealer)
        c = auction.contract
        tricks = int(table[c.declarer, c.strain])
        return dict(rec, tricks=tricks, ns_score=score_contract(c, tricks, board.vulnerability),
                    ns_score_played=score_contract(c, rec["played_tricks"], board.vulnerability))

    def board_line(self, i: int) -> dict:
        b = self.boards[i]
        line = {"board": b.number, "deal": b.deal.to_pbn(), "dealer": b.dealer.letter,
                "vulnerability": b.vulnerability.pbn, "dd": self.dd[i].astype(int).tolist()}
        for room in self.rooms:
            line[room] = self.results[room][i]
        if len(self.rooms) == 2 and all(self.results[r][i] is not None for r in self.rooms):
            o, c = self.results["open"][i], self.results["closed"][i]
            line["imps_team1"] = imps(o["ns_score"] - c["ns_score"])
            line["imps_team1_played"] = imps(o["ns_score_played"] - c["ns_score_played"])
        return line

    def header(self) -> dict:
        return {"type": "bidlab-bluechip", "version": bidlab.__version__, "config": asdict(self.cfg),
                "source": self.source, "rooms": list(self.rooms),
                "teams": {r: {"ns": t.ns, "ew": t.ew} for r, t in self.teams.items()}}

    def finished(self) -> list[dict]:
        return [self.board_line(i) for i in range(len(self.boards))
                if any(self.results[r][i] is not None for r in self.rooms)]

    def _write(self) -> None:
        lines = self.finished()
        write_text_atomic(self.out / "results.jsonl",
                          json.dumps(self.header()) + "\n" + "".join(json.dumps(x) + "\n" for x in lines))
        pbn.dump(self.pbn_records(), self.out / "session.pbn")
        write_json_atomic(self.out / "tolerated.json", self.log.to_json())

    def record_room(self, room: str, i: int, rec: dict) -> None:
        with self._lock:
            self.results[room][i] = self._score(i, rec)
            self._write()

    def pbn_records(self) -> list[BoardRecord]:
        out = []
        for i, b in enumerate(self.boards):
            for room in self.rooms:
                r = self.results[room][i]
                if r is None:
                    continue
                auction = Auction.parse(r["auction"], b.dealer)
                c = auction.contract
                tags = [Tag("Event", "bidlab Blue Chip session"), Tag("Room", room.title()),
                        Tag("North", r["ns_team"]), Tag("East", r["ew_team"]),
                        Tag("South", r["ns_team"]), Tag("West", r["ew_team"]),
                        Tag("Score", f"NS {r['ns_score_played']}"),
                        Tag("DoubleDummyTricks", "" if r["tricks"] is None else str(r["tricks"])),
                        Tag("DoubleDummyScore", f"NS {r['ns_score']}")]
                if c is not None:
                    tags.append(Tag("Play", c.declarer.lho.letter, _play_section(c.declarer.lho, c.strain, r["play"])))
                out.append(BoardRecord(b, auction, c, c is None, r["played_tricks"], tuple(tags)))
        return out

    def summary(self) -> dict:
        lines = [x for x in self.finished() if "imps_team1" in x]
        out = {"boards": len(self.boards), "finished": len(self.finished()), "teams": self.header()["teams"]}
        if lines:
            for key in ("imps_team1", "imps_team1_played"):
                x = np.array([ln[key] for ln in lines], dtype=float)
                se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("nan")
                out[key] = {"per_board": float(x.mean()), "se": se, "total": int(x.sum()), "boards": len(x)}
        return out

    # -- running -------------------------------------------------------------------------

    def run(self, listeners: dict[str, socket.socket] | None = None,
            progress: Callable[[str, int], None] | None = None) -> dict:
        """Seat every table, play all boards (tables in parallel), write the files; returns the summary.

        ``listeners`` maps room to an already listening socket (tests use port 0); by default
        the session listens on ``port`` (open room) and ``port + 1`` (closed room).
        """
        self.out.mkdir(parents=True, exist_ok=True)
        if listeners is None:
            listeners = {room: open_listener(self.cfg.host, self.cfg.port + k, self.cfg.allow_remote)
                         for k, room in enumerate(self.rooms)}
        errors: list[BaseException] = []
        tables: dict[str, Table] = {}

        def run_room(room: str) -> None:
            table = None
            try:
                table = seat_table(listeners[room], room, self.cfg, self.log)
                tables[room] = table
                with self._lock:
                    old = self.teams.get(room)
                    if old is not None and old != table.teams and any(self.results[room]):
                        raise SessionError(f"{room} room: resuming a session of {old.ns} vs {old.ew}, "
                                           f"but {table.teams.ns} vs {table.teams.ew} sat down")
                    self.teams[room] = table.teams
                table.start()
                for i, b in enumerate(self.boards):
                    if errors:
                        return
                    if self.results[room][i] is not None:
                        continue  # finished by an earlier run of this session
                    self.record_room(room, i, table.play_board(b))
                    if progress:
                        progress(room, i + 1)
                table.end()
            except BaseException as e:  # noqa: BLE001 - every failure stops the whole session
                errors.append(e)
                for t in list(tables.values()):
                    t.close()
            finally:
                if table is not None:
                    table.close()

        threads = [threading.Thread(target=run_room, args=(room,), name=f"bluechip-{room}", daemon=True)
                   for room in self.rooms]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for s in listeners.values():
            s.close()
        with self._lock:
            self._write()
            summary = self.summary()
            write_json_atomic(self.out / "summary.json", summary)
        if errors:
            e = errors[0]
            done = summary["finished"]
            if isinstance(e, BidlabError):
                raise SessionError(f"session stopped after {done} finished boards: {e}") from None
            raise e
        return summary


def _play_section(leader: Seat, strain: Strain, cards: list[str]) -> tuple[str, ...]:
    """PBN's Play section: one line per trick, the cards in seat order from the opening leader."""
    lines = []
    lead = leader
    for k in range(0, len(cards), 4):
        trick = [Card.parse(c) for c in cards[k:k + 4]]
        by_seat = {lead.next(j): str(c) for j, c in enumerate(trick)}
        lines.append(" ".join(by_seat.get(leader.next(j), "-") for j in range(4)))
        if len(trick) == 4:
            lead = trick_winner(lead, trick, strain)
    return tuple(lines)


def load_boards(cfg_boards: int | None, pbn_file: str | None, split: str, seed: int,
                store: str | None) -> tuple[list[Board], np.ndarray, dict]:
    """The session's boards and DD tables: a PBN file's, or the same deals ``bidlab match`` picks."""
    if pbn_file is not None:
        records = pbn.load(pbn_file)
        if not records:
            raise SessionError(f"{pbn_file} holds no boards")
        if cfg_boards is not None:
            records = records[:cfg_boards]
        boards = [r.board for r in records]
        return boards, dd_tables([b.deal for b in boards]), {"pbn": str(pbn_file)}
    n = 32 if cfg_boards is None else cfg_boards
    deals, dd, ids = select_deals(MatchConfig("a", "b", split, n, seed, store))
    boards = [Board.numbered(k + 1, Deal.from_array(d)) for k, d in enumerate(deals)]
    return boards, dd, {"split": split, "seed": seed, "store": store, "deal_ids": ids.astype(int).tolist()}
