"""PBN and LIN files: round trips, endplay as an independent reader, and bad input."""

import numpy as np
import pytest
from endplay.parsers import lin as ep_lin
from endplay.parsers import pbn as ep_pbn
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.bridge import PASS, Auction, Board, Vulnerability, lin, pbn
from bidlab.bridge.records import BoardRecord, Tag
from bidlab.cards import Deal, Seat
from bidlab.errors import FileFormatError


def _random_record(seed: int, with_tags: bool = True) -> BoardRecord:
    rng = np.random.default_rng(seed)
    number = int(rng.integers(1, 65))
    board = Board.numbered(number, Deal.random(rng))
    auction = Auction(board.dealer)
    while not auction.is_over:
        legal = auction.legal_calls()
        auction = auction.with_call(PASS if rng.random() < 0.5 else legal[rng.integers(len(legal))])
    tags = (Tag("Event", "bidlab test"), Tag("Site", 'Club "A"'),
            Tag("OptimumResultTable", "Declarer;Denomination\\2R;Result\\2R", ("N S 7", "E S 6"))) if with_tags else ()
    tricks = None if auction.contract is None else int(rng.integers(14))
    return BoardRecord(board, auction, auction.contract, auction.is_passed_out, tricks, tags)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 2**31), min_size=1, max_size=4))
def test_pbn_file_round_trip(seeds):
    records = [_random_record(s) for s in seeds]
    text = pbn.dumps(records)
    assert pbn.loads(text) == records
    assert pbn.dumps(pbn.loads(text)) == text


def test_pbn_written_file_read_by_endplay(tmp_path):
    records = [_random_record(s, with_tags=False) for s in range(40)]
    path = tmp_path / "boards.pbn"
    pbn.dump(records, path)
    theirs = ep_pbn.loads(path.read_text())
    assert len(theirs) == len(records)
    for ours, ep in zip(records, theirs):
        assert Deal.parse(ep.deal.to_pbn()) == ours.board.deal
        assert ep.board_num == ours.board.number
        ep_calls = []
        for bid in ep.auction:
            ep_calls.append(str(bid).replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C"))
        ours_calls = [c.to_str() for c in ours.auction.calls]
        assert [_norm(c) for c in ep_calls] == [_norm(c) for c in ours_calls]


def _norm(call: str) -> str:
    c = call.upper()
    return {"PASS": "P", "P": "P", "D": "X", "X": "X", "R": "XX", "XX": "XX"}.get(c, c)


PBN_SAMPLE = """% PBN 2.1
% EXPORT
[Event "Club night"] ; a comment
[Board "7"]
[Dealer "S"]
[Vulnerable "All"]
[Deal "S:AKQ2.J3.T98.7654 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.983"]
[Declarer "W"]
[Contract "4SX"]
[Result "9"]
[Auction "S"]
Pass 1S =1= Pass 3S
{ a block
comment } Pass 4S X AP
[Note "1:five cards"]
[MyTag "kept"]

[Board "8"]
[Dealer "W"]
[Vulnerable "None"]
[Deal "W:AKQ2.J3.T98.7654 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.983"]
[Contract "Pass"]
[Auction "W"]
AP
"""


def test_pbn_reads_notes_comments_ap_and_unknown_tags():
    r1, r2 = pbn.loads(PBN_SAMPLE)
    assert r1.board.number == 7 and r1.board.dealer == Seat.S and r1.board.vulnerability == Vulnerability.BOTH
    assert r1.auction.to_str() == "Pass 1S Pass 3S Pass 4S X Pass Pass Pass"
    assert r1.auction.contract == r1.contract
    assert r1.contract.to_str() == "4SX" and r1.contract.declarer == Seat.W and r1.tricks == 9
    assert r1.tag("Event") == "Club night" and r1.tag("MyTag") == "kept"
    assert r2.passed_out and r2.auction.is_passed_out and len(r2.auction) == 4
    again = pbn.loads(pbn.dumps([r1, r2]))
    assert again == [r1, r2]


@pytest.mark.parametrize(
    "line_no, broken, fragment",
    [
        (7, '[Deal "N:AKQ2.J3.T98.7654 J987.AK2.AK2.AK2 T65.QT98.QJ7.QJT 43.7654.6543.98"]', "line 7, tag Deal"),
        (7, '[Deal "garbage"]', "line 7, tag Deal"),
        (4, '[Board "0"]', "line 4, tag Board"),
        (6, '[Vulnerable "Sometimes"]', "line 6, tag Vulnerable"),
        (10, '[Result "14"]', "line 10, tag Result"),
        (9, '[Contract "9S"]', "line 9, tag Contract"),
        (12, "Pass 1S X X", "line 12, tag Auction, call 4"),
        (12, "Pass 1S 1H", "line 12, tag Auction, call 3"),
        (12, "Pass 1S Zork", "line 12, tag Auction, call 3"),
        (5, '[Dealer "Q"', "line 5"),
    ],
)
def test_malformed_pbn_says_where(line_no, broken, fragment):
    lines = PBN_SAMPLE.split("\n\n")[0].splitlines()
    lines[line_no - 1] = broken
    if line_no == 12:
        lines = lines[:12]  # drop the rest of the auction
    with pytest.raises(FileFormatError) as e:
        pbn.loads("\n".join(lines), source="club.pbn")
    assert "club.pbn" in str(e.value)
    assert fragment in str(e.value), str(e.value)


def test_pbn_missing_deal_and_unreadable_file(tmp_path):
    with pytest.raises(FileFormatError, match="no Deal tag"):
        pbn.loads('[Board "1"]\n[Dealer "N"]\n')
    with pytest.raises(FileFormatError, match="cannot read"):
        pbn.load(tmp_path / "missing.pbn")


LIN_SAMPLE = (
    "pn|South,West,North,East|st||md|3SAKQ2HJ3DT98C7654,SJ987HAK2DAK2CAK2,ST65HQT98DQJ7CQJT,|"
    "sv|b|rh||ah|Board 7|mb|p|mb|1S!|an|five|mb|p|mb|3S|mb|p|mb|4S|mb|d|mb|p|mb|p|mb|p|pg||\n"
    "pn|South,West,North,East|st||md|4S43H7654D6543C983,SAKQ2HJ3DT98C7654,SJ987HAK2DAK2CAK2,|"
    "sv|o|rh||ah|Board 8|mb|p|mb|p|mb|p|mb|p|pg||\n"
)


def test_lin_read_and_agrees_with_endplay():
    ours = lin.loads(LIN_SAMPLE)
    theirs = ep_lin.loads(LIN_SAMPLE)
    assert len(ours) == len(theirs) == 2
    for o, t in zip(ours, theirs):
        assert o.board.deal == Deal.parse(t.deal.to_pbn())
        assert o.board.dealer == Seat(int(t.dealer))
        assert o.board.number == t.board_num
        assert len(o.auction.calls) == len(t.auction)
    r1 = ours[0]
    assert r1.board.dealer == Seat.N and r1.board.vulnerability == Vulnerability.BOTH
    assert r1.auction.to_str() == "Pass 1S Pass 3S Pass 4S X Pass Pass Pass"
    assert str(r1.contract) == "4SX by E"
    assert ours[1].passed_out


def test_lin_board_without_pn_and_hand_without_all_suits():
    # Hand viewer style: no pn|, a hand that omits suit letters for voids.
    text = "md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|e|mb|7S|mb|p|mb|p|mb|p|"
    (r,) = lin.loads(text)
    assert r.board.dealer == Seat.S
    assert r.board.deal[Seat.S].length(3) == 13 and r.board.deal[Seat.W].length(2) == 13
    assert r.board.deal[Seat.E].length(0) == 13
    assert r.contract.to_str() == "7S" and r.contract.declarer == Seat.S


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("md|5SAKQ2HJ3DT98C7654,SJ987HAK2DAK2CAK2,ST65HQT98DQJ7CQJT,|", "dealer digit"),
        ("md|3SAKQ2HJ3DT98C7654,SJ987HAK2DAK2CAK2,ST65HQT98DQJ7CQJ,|", "key md"),
        ("md|3SAKQ2HJ3DT98C7654,SAKQHAK2DAK2CAK2,ST65HQT98DQJ7CQJT,|", "key md"),
        ("md|3SAKQ2HJ3DT98C7654,SJ987HAK2DAK2CAK2,ST65HQT98DQJ7CQJT,|sv|q|", "key sv"),
        ("md|3SAKQ2HJ3DT98C7654,SJ987HAK2DAK2CAK2,ST65HQT98DQJ7CQJT,|mb|1S|mb|1H|", "call 2"),
        ("md|3SAKQ2HJ3DT98C7654,SJ987HAK2DAK2CAK2,ST65HQT98DQJ7CQJT,|mb|1S|mb|p|mb|x|", "call 3"),
        ("sv|o|mb|1S|", "no md"),
    ],
)
def test_malformed_lin_says_where(text, fragment):
    with pytest.raises(FileFormatError) as e:
        lin.loads(text, source="game.lin")
    assert "game.lin" in str(e.value) and fragment in str(e.value), str(e.value)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mangled_files_raise_only_bidlab_errors(data):
    """Cut, duplicate or corrupt any part of a valid file: the readers either read it or
    raise a bidlab error, never a bare IndexError, KeyError or ValueError."""
    from bidlab.errors import BidlabError

    for reader, text in ((pbn.loads, PBN_SAMPLE), (lin.loads, LIN_SAMPLE)):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 40)))
        junk = data.draw(st.text(alphabet='[]"|,;{}%$=*-+ \nSHDCNEWPXAKQJT0123456789mdsvbah', max_size=12))
        mangled = text[:i] + junk + text[j:]
        try:
            reader(mangled)
        except BidlabError:
            pass
