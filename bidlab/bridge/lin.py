"""LIN (Bridge Base Online) files: deal, dealer, vulnerability, board number and auction.

LIN is a flat ``key|value|`` stream. Why our own reader rather than
``endplay.parsers.lin``: its ``LINDecoder`` finds boards only by splitting at ``pn|``, so
files from hand viewers and vugraph archives that start boards with ``qx|`` or ``md|``
yield nothing; its ``Hand.from_lin`` assumes all four suit letters in S, H, D, C order
and silently puts the cards of a hand written ``"HAKQ..."`` into spades; and its errors
carry no position. Bidlab splits boards at each ``qx`` key, or at an ``md`` key when the
current board already has one, and uses endplay's reader as an oracle in the tests.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board, Vulnerability, board_vulnerability
from bidlab.bridge.calls import Call
from bidlab.bridge.records import BoardRecord, Tag
from bidlab.cards import Deal, Hand, Seat
from bidlab.errors import BidlabError, FileFormatError

# LIN numbers seats 1 = South, 2 = West, 3 = North, 4 = East.
_LIN_SEAT = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
_LIN_VUL = {"o": Vulnerability.NONE, "0": Vulnerability.NONE, "n": Vulnerability.NS,
            "e": Vulnerability.EW, "b": Vulnerability.BOTH}


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(key, value, position of the key) triples of a LIN stream."""
    flat = text.replace("\r", "").replace("\n", "")
    parts = flat.split("|")
    out = []
    pos = 0
    for i in range(0, len(parts) - 1, 2):
        key, value = parts[i].strip(), parts[i + 1]
        out.append((key, value, pos))
        pos += len(parts[i]) + len(parts[i + 1]) + 2
    if len(parts) % 2 == 0 and parts[-1].strip():
        raise FileFormatError("LIN stream ends with a key that has no value", text=parts[-1][:40])
    return out


def _deal_from_md(value: str, where: str) -> tuple[Seat, Deal]:
    v = value.strip()
    if not v or v[0] not in _LIN_SEAT:
        raise FileFormatError("md must start with the dealer digit 1-4", where=where, text=value)
    hands = v[1:].split(",")
    if len(hands) > 4:
        raise FileFormatError(f"md has {len(hands)} hands, at most 4", where=where, text=value)
    while len(hands) < 4:
        hands.append("")
    parts = []
    # md lists hands from South clockwise; an empty fourth hand gets the remaining cards.
    for i, h in enumerate(hands):
        seat = Seat.S.next(i)
        if not h.strip():
            parts.append((seat, "-"))
            continue
        try:
            parts.append((seat, Hand.parse(h.strip()).to_pbn()))
        except BidlabError as e:
            raise FileFormatError(f"{seat.full_name}'s hand: {e}", where=where) from None
    pbn = "S:" + " ".join(p for _, p in parts)
    try:
        deal = Deal.parse(pbn)
    except BidlabError as e:
        raise FileFormatError(f"bad deal: {e}", where=where) from None
    return _LIN_SEAT[v[0]], deal


def _board(tokens: list[tuple[str, str, int]], where: str) -> BoardRecord:
    dealer = deal = None
    vul = None
    number = None
    calls: list[tuple[str, int]] = []
    extra: list[Tag] = []
    for key, value, pos in tokens:
        loc = f"{where}, char {pos}, key {key}"
        k = key.lower()
        if k == "md":
            dealer, deal = _deal_from_md(value, loc)
        elif k == "sv":
            v = value.strip().lower()
            if v not in _LIN_VUL:
                raise FileFormatError("vulnerability must be o, n, e or b", where=loc, text=value)
            vul = _LIN_VUL[v]
        elif k == "ah":
            m = re.search(r"(\d+)", value)
            if not m or int(m.group(1)) < 1:
                raise FileFormatError("board header must hold a board number >= 1", where=loc, text=value)
            number = int(m.group(1))
        elif k == "mb":
            calls.append((value, pos))
        elif k in ("pn", "qx", "rh", "st", "vg", "pc", "mc", "an", "nt", "pg", "sa", "bt", "tu", "mn", "va"):
            if k in ("pn", "qx", "vg"):
                extra.append(Tag(f"lin_{k}", value))
        else:
            extra.append(Tag(f"lin_{k}", value))
    if deal is None or dealer is None:
        raise FileFormatError("board has no md (deal) field", where=where)
    if number is None:
        qx = next((t.value for t in extra if t.name == "lin_qx"), "")
        m = re.fullmatch(r"[oc](\d+)", qx.strip())
        number = int(m.group(1)) if m else 1
    if vul is None:
        vul = board_vulnerability(number)
    auction = Auction(dealer)
    for i, (raw, pos) in enumerate(calls):
        loc = f"{where}, char {pos}, call {i + 1}"
        try:
            call = Call.parse(raw.strip().rstrip("!"))
        except BidlabError:
            raise FileFormatError("not a call", where=loc, text=raw) from None
        try:
            auction = auction.with_call(call)
        except BidlabError as e:
            raise FileFormatError(str(e).split(": ", 1)[-1], where=loc, text=raw) from None
    return BoardRecord(Board(deal, number, dealer, vul), auction if calls else None,
                       auction.contract, auction.is_passed_out, None, tuple(extra))


def loads(text: str, source: str = "<string>") -> list[BoardRecord]:
    """Read every board of LIN text (one or many per line)."""
    try:
        tokens = _tokens(text)
    except FileFormatError as e:
        raise FileFormatError(str(e), where=source) from None
    boards: list[list[tuple[str, str, int]]] = []
    current: list[tuple[str, str, int]] = []
    has_md = False
    for tok in tokens:
        k = tok[0].lower()
        starts_new = (k == "qx" and current and has_md) or (k == "md" and has_md)
        if starts_new:
            # Keys that introduce a board (pn, qx, ah, rh, st) just before md belong to the next board.
            tail: list[tuple[str, str, int]] = []
            if k == "md":
                while current and current[-1][0].lower() in ("pn", "qx", "ah", "rh", "st"):
                    tail.insert(0, current.pop())
            boards.append(current)
            current, has_md = tail, False
        current.append(tok)
        has_md = has_md or k == "md"
    if current:
        boards.append(current)
    return [_board(b, f"{source}, board {i}") for i, b in enumerate(boards, start=1) if b]


def load(path: str | os.PathLike) -> list[BoardRecord]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise FileFormatError(f"cannot read file: {e.strerror}", where=str(p)) from None
    return loads(text, str(p))
