"""PBN (Portable Bridge Notation 2.1) files: boards with their auctions.

Why our own reader rather than ``endplay.parsers.pbn``: endplay's decoder turns tags into
its own types as it goes, so a bad Deal or Auction surfaces as a bare ``ValueError``
with no line number, repeated tags are dropped silently, the "AP" and note tokens are
handled but illegal auctions are not detected, and the deal's first seat is rewritten
from the contract. Bidlab needs every error to name the line, tag and call index, and
needs unknown tags kept in order for the round trip, so it tokenizes PBN itself and
uses endplay only as an independent oracle in the tests.

Supported: tag pairs, ``;`` and ``{}`` comments, ``%`` directives, ``#`` (repeat the
previous board's value, import format), the Auction section with ``AP``, ``=n=`` notes,
``$n`` NAGs, ``*``/``-``/``+`` terminators, and section data for other tags.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from bidlab.bridge.auction import Auction, Contract
from bidlab.bridge.board import Board, Vulnerability, board_dealer, board_vulnerability
from bidlab.bridge.calls import PASS, Call
from bidlab.bridge.records import BoardRecord, Tag
from bidlab.cards import Deal, Seat
from bidlab.errors import BidlabError, FileFormatError
from bidlab.fileio import write_text_atomic

_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(.*)$')

#: Tags bidlab interprets; written first, in PBN's standard order.
_KNOWN = ("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction")
_STANDARD_ORDER = ("Event", "Site", "Date", "Round", "Board", "West", "North", "East", "South",
                   "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")


class _RawTag:
    __slots__ = ("name", "value", "line", "section", "section_lines")

    def __init__(self, name: str, value: str, line: int):
        self.name, self.value, self.line = name, value, line
        self.section: list[str] = []
        self.section_lines: list[int] = []


def _strip_comment(text: str, in_block: bool) -> tuple[str, bool]:
    """Remove ``;`` and ``{...}`` comments; returns the rest and whether a block is open."""
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if in_block:
            j = text.find("}", i)
            if j < 0:
                return "".join(out), True
            in_block = False
            i = j + 1
            continue
        if ch == "{":
            in_block = True
            i += 1
            continue
        if ch == ";":
            break
        if ch == '"':  # a quoted tag value may contain ; or {
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out), in_block


def _games(text: str, source: str) -> Iterable[list[_RawTag]]:
    """Split PBN text into games (lists of raw tags with their section lines)."""
    game: list[_RawTag] = []
    current: _RawTag | None = None
    in_block = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if raw.startswith("%") and not in_block:
            continue
        line, in_block_after = _strip_comment(raw, in_block)
        was_in_block, in_block = in_block, in_block_after
        stripped = line.strip()
        if not stripped:
            if not raw.strip() and not was_in_block and game:  # a truly empty line ends a game
                yield game
                game, current = [], None
            continue
        m = _TAG.match(stripped)
        if m:
            current = _RawTag(m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\"), lineno)
            game.append(current)
            rest = m.group(3).strip()
            if rest:
                current.section.append(rest)
                current.section_lines.append(lineno)
            continue
        if stripped.startswith("["):
            raise FileFormatError("malformed tag pair (expected [Name \"value\"])",
                                  where=f"{source}, line {lineno}", text=stripped)
        if current is None:
            raise FileFormatError("data before any tag", where=f"{source}, line {lineno}", text=stripped)
        current.section.append(stripped)
        current.section_lines.append(lineno)
    if game:
        yield game


def _parse_auction(tag: _RawTag, where: str) -> Auction:
    try:
        dealer = Seat.parse(tag.value)
    except BidlabError:
        raise FileFormatError("Auction tag must name the first caller (N, E, S or W)",
                              where=f"{where}, line {tag.line}, tag Auction", text=tag.value) from None
    auction = Auction(dealer)
    for tokens_line, lineno in zip(tag.section, tag.section_lines):
        for token in tokens_line.split():
            loc = f"{where}, line {lineno}, tag Auction, call {len(auction.calls) + 1}"
            if token in ("*", "+", "-") or re.fullmatch(r"\$\d+", token) or re.fullmatch(r"=\d+=", token):
                continue
            if token.upper() == "AP":
                while not auction.is_over:
                    auction = auction.with_call(PASS)
                continue
            try:
                call = Call.parse(token)
            except BidlabError:
                raise FileFormatError("not a call", where=loc, text=token) from None
            try:
                auction = auction.with_call(call)
            except BidlabError as e:
                raise FileFormatError(str(e).split(": ", 1)[-1], where=loc, text=token) from None
    return auction


def _record(game: list[_RawTag], previous: dict[str, str], where: str) -> BoardRecord:
    seen: dict[str, _RawTag] = {}
    for t in game:
        if t.value == "#" and t.name in previous:
            t.value = previous[t.name]
        key = t.name.lower()
        if key in seen and t.name in _KNOWN:
            raise FileFormatError(f"tag {t.name} repeated (first on line {seen[key].line})",
                                  where=f"{where}, line {t.line}")
        seen[key] = t

    def loc(t: _RawTag) -> str:
        return f"{where}, line {t.line}, tag {t.name}"

    deal_tag = seen.get("deal")
    if deal_tag is None:
        raise FileFormatError("board has no Deal tag", where=f"{where}, line {game[0].line}")
    try:
        deal = Deal.parse(deal_tag.value)
    except BidlabError as e:
        raise FileFormatError(str(e), where=loc(deal_tag)) from None

    number = 1
    if "board" in seen and seen["board"].value.strip():
        try:
            number = int(seen["board"].value)
            if number < 1:
                raise ValueError
        except ValueError:
            raise FileFormatError("board number must be a whole number >= 1",
                                  where=loc(seen["board"]), text=seen["board"].value) from None
    dealer = board_dealer(number)
    if "dealer" in seen and seen["dealer"].value.strip() not in ("", "?"):
        try:
            dealer = Seat.parse(seen["dealer"].value)
        except BidlabError:
            raise FileFormatError("not a seat", where=loc(seen["dealer"]), text=seen["dealer"].value) from None
    vul = board_vulnerability(number)
    if "vulnerable" in seen and seen["vulnerable"].value.strip() not in ("", "?"):
        try:
            vul = Vulnerability.parse(seen["vulnerable"].value)
        except BidlabError:
            raise FileFormatError("not a vulnerability", where=loc(seen["vulnerable"]),
                                  text=seen["vulnerable"].value) from None

    auction = _parse_auction(seen["auction"], where) if "auction" in seen else None
    if auction is not None and auction.dealer != dealer and "dealer" in seen:
        raise FileFormatError(f"Auction starts with {auction.dealer.letter} but Dealer is {dealer.letter}",
                              where=loc(seen["auction"]))

    contract, passed_out = None, False
    ct = seen.get("contract")
    if ct is not None and ct.value.strip() not in ("", "?"):
        if ct.value.strip().lower() == "pass":
            passed_out = True
        else:
            decl = seen.get("declarer")
            if decl is None or decl.value.strip() in ("", "?"):
                raise FileFormatError("Contract given without a Declarer", where=loc(ct))
            try:
                contract = Contract.parse(ct.value, decl.value.strip().lstrip("^"))
            except BidlabError as e:
                raise FileFormatError(str(e), where=loc(ct)) from None

    tricks = None
    rt = seen.get("result")
    if rt is not None and rt.value.strip() not in ("", "?"):
        try:
            tricks = int(rt.value)
            if not 0 <= tricks <= 13:
                raise ValueError
        except ValueError:
            raise FileFormatError("Result must be declarer's tricks, 0..13", where=loc(rt), text=rt.value) from None

    others = tuple(Tag(t.name, t.value, tuple(t.section)) for t in game if t.name not in _KNOWN)
    for t in game:
        previous[t.name] = t.value
    return BoardRecord(Board(deal, number, dealer, vul), auction, contract, passed_out, tricks, others)


def loads(text: str, source: str = "<string>") -> list[BoardRecord]:
    """Read every board of PBN text. Errors name the source, line, tag and call."""
    previous: dict[str, str] = {}
    records = []
    for i, game in enumerate(_games(text, source), start=1):
        records.append(_record(game, previous, f"{source}, board {i}"))
    return records


def load(path: str | os.PathLike) -> list[BoardRecord]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        text = p.read_text(encoding="latin-1")
    except OSError as e:
        raise FileFormatError(f"cannot read file: {e.strerror}", where=str(p)) from None
    return loads(text, str(p))


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def dumps_record(rec: BoardRecord) -> str:
    b = rec.board
    tags: dict[str, str] = {
        "Board": str(b.number),
        "Dealer": b.dealer.letter,
        "Vulnerable": b.vulnerability.pbn,
        "Deal": b.deal.to_pbn(b.dealer),
    }
    if rec.passed_out:
        tags["Contract"] = "Pass"
    elif rec.contract is not None:
        tags["Declarer"] = rec.contract.declarer.letter
        tags["Contract"] = rec.contract.to_str()
    if rec.tricks is not None:
        tags["Result"] = str(rec.tricks)
    others = {t.name: t for t in rec.tags}
    lines: list[str] = []
    for name in _STANDARD_ORDER:
        if name in tags:
            lines.append(f'[{name} "{_quote(tags[name])}"]')
        elif name in others:
            t = others.pop(name)
            lines.append(f'[{t.name} "{_quote(t.value)}"]')
            lines.extend(t.section)
    if rec.auction is not None:
        lines.append(f'[Auction "{rec.auction.dealer.letter}"]')
        calls = [c.to_str() for c in rec.auction.calls]
        for i in range(0, len(calls), 4):
            lines.append(" ".join(calls[i : i + 4]))
    for t in others.values():
        lines.append(f'[{t.name} "{_quote(t.value)}"]')
        lines.extend(t.section)
    return "\n".join(lines) + "\n"


def dumps(records: Iterable[BoardRecord]) -> str:
    """PBN text (export format, one blank line between boards)."""
    return '% PBN 2.1\n% EXPORT\n\n' + "\n".join(dumps_record(r) for r in records)


def dump(records: Iterable[BoardRecord], path: str | os.PathLike) -> None:
    """Write a PBN file atomically (temporary file, then rename)."""
    write_text_atomic(path, dumps(records))
