"""The leak finder: hand-built boards where the parting call and its family are known."""

from __future__ import annotations

import json

import pytest

from bidlab.bridge import Auction, Call
from bidlab.cards import Seat
from bidlab.cli import main
from bidlab.eval.leaks import (
    LeakError,
    attribute,
    auction_pattern,
    leak_table,
    parting_index,
    pattern_family,
    sayc_family,
)

# South holds the Jacoby-transfer hand of the SAYC docstring (KJ974.85.Q63.842).
DEAL = "N:AQ3.AK72.K84.Q53 T8.QJT94.AJ7.K96 KJ974.85.Q63.842 652.63.T952.AJT7"


def _room(auction: str, dealer: str, ns_score: int) -> dict:
    a = Auction.parse(auction, dealer)
    c = a.contract
    return {"auction": a.to_str(), "contract": None if c is None else c.to_str(),
            "declarer": None if c is None else c.declarer.letter, "tricks": 9, "ns_score": ns_score}


def record(open_auction: str, closed_auction: str, imps_a: int, dealer: str = "N", board: int = 1,
           deal: str = DEAL, vul: str = "None") -> dict:
    """A ``bidlab match`` board record: A is NS in the open room, EW in the closed room."""
    return {"board": board, "deal_id": 100 + board, "deal": deal, "dealer": dealer, "vulnerability": vul,
            "par_ns": 0, "open": _room(open_auction, dealer, 10 * imps_a),
            "closed": _room(closed_auction, dealer, 0), "imps_a": imps_a}


def test_parting_index():
    a = Auction.parse("1S P 2S P P P")
    assert parting_index(a, Auction.parse("1S P 4S P P P")) == 2
    assert parting_index(a, Auction.parse("P P P P")) == 0
    assert parting_index(a, a) is None


def test_parting_at_a_north_south_seat_is_charged_to_the_open_room_for_a():
    # Position 2 with dealer N is South: A holds South in the open room.
    rec = record("1S P 2S P P P", "1S P 4S P P P", imps_a=-6)
    att = attribute(rec, focus_is_a=True)
    assert (att.index, att.seat, att.focus_room) == (2, Seat.S, "open")
    assert (att.focus_call, att.other_call, att.imps) == (Call.parse("2S"), Call.parse("4S"), -6)
    # Seen from B, the same decision is B's call in the closed room, and the swing is B's gain.
    att_b = attribute(rec, focus_is_a=False)
    assert (att_b.seat, att_b.focus_room, att_b.focus_call, att_b.imps) == (Seat.S, "closed", Call.parse("4S"), 6)


def test_parting_at_an_east_west_seat_is_charged_to_the_closed_room_for_a():
    # Position 1 with dealer N is East: A holds East in the closed room.
    rec = record("1S 2H 2S P P P", "1S P 2S P P P", imps_a=5)
    att = attribute(rec, focus_is_a=True)
    assert (att.index, att.seat, att.focus_room) == (1, Seat.E, "closed")
    assert (att.focus_call, att.other_call, att.imps) == (Call.parse("P"), Call.parse("2H"), 5)


def test_same_auction_and_contract_is_not_charged():
    assert attribute(record("1NT P 3NT P P P", "1NT P 3NT P P P", imps_a=0), True) is None


def test_same_auction_with_different_contracts_goes_to_the_last_call():
    rec = record("1NT P 3NT P P P", "1NT P 3NT P P P", imps_a=-3)
    rec["closed"]["contract"] = "4S"  # not possible from a real scorer; handled anyway
    att = attribute(rec, focus_is_a=True)
    assert att.index == 5 and att.other_call is None and att.imps == -3
    assert att.seat == Seat.E and att.focus_room == "closed"


def test_auction_patterns():
    def pat(auction, dealer="N"):
        a = Auction.parse(auction, dealer)
        return auction_pattern(a, a.to_act)

    assert pat("") == "opening"
    assert pat("P P") == "opening"
    assert pat("1H P") == "uncontested: response"
    assert pat("1H P 1S P") == "uncontested: opener later"
    assert pat("1H 2C") == "competitive: response after interference"
    assert pat("1NT") == "defence: against 1NT"
    assert pat("1H") == "defence: direct action"
    assert pat("1H P P") == "defence: balancing"
    assert pat("1H 2C P") == "defence: advance"
    assert pat("1H X 2H P P") == "defence: later"
    assert pat("1H P 3H P 4NT P") == "slam"
    a = Auction.parse("1H P P")
    assert pattern_family(a, a.to_act, Call.parse("X")) == "defence: balancing / double"


def test_sayc_family_is_the_rule_that_made_the_call():
    # South's 2H after 1NT P is the Jacoby transfer; the closed room's South (B) bid 2S.
    rec = record("1NT P 2H P 2S P P P", "1NT P 2S P P P", imps_a=-2)
    att = attribute(rec, focus_is_a=True)
    assert att.seat == Seat.S and att.focus_call == Call.parse("2H")
    assert sayc_family(rec, att) == "notrump.jacoby_transfer"
    # A record whose call the bidder would not make is flagged, not filed under a wrong rule.
    bad = record("1NT P 3C P P P", "1NT P 2S P P P", imps_a=-2)
    assert sayc_family(bad, attribute(bad, True)).startswith("(not this sayc")


def test_leak_table_sums_and_ranks():
    recs = [
        record("1S P 2S P P P", "1S P 4S P P P", imps_a=-6, board=1),
        record("1S P 3S P P P", "1S P 4S P P P", imps_a=-4, board=2),
        record("1S P 3S P P P", "1S P 2S P P P", imps_a=3, board=3),
        record("1S 2H 2S P P P", "1S P 2S P P P", imps_a=-1, board=4),
        record("1NT P 3NT P P P", "1NT P 3NT P P P", imps_a=0, board=5),
    ]
    by_call = lambda rec, att: str(att.focus_call)  # noqa: E731
    t = leak_table(recs, "a", "b", family=by_call, examples=1)
    assert t.boards == 5 and t.unattributed == 1
    names = [f.name for f in t.families]
    assert names == ["2S", "3S", "Pass"]  # 6 lost; 4 lost (and 3 won); 1 lost
    f3 = t.families[1]
    assert (f3.boards, f3.lost, f3.won, f3.net) == (2, 4, 3, -1)
    assert t.per100(f3.lost) == pytest.approx(80.0)
    assert [e[1]["board"] for e in t.families[0].examples] == [1]
    # Every board is charged once: the families' nets add up to the match result.
    assert sum(f.net for f in t.families) == sum(r["imps_a"] for r in recs)
    md = t.markdown(top=2, examples=1)
    assert "| 1 | `2S` |" in md and "`Pass`" not in md.split("###")[0]


def test_focus_must_be_in_the_match():
    with pytest.raises(LeakError, match="--focus"):
        leak_table([], "sayc", "nn:rl", focus="nn:sl")


def _run(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out = capsys.readouterr()
    return e.value.code, out.out, out.err


@pytest.mark.parametrize("argv, fragment", [
    (["leaks", "sayc", "random:1", "--boards", "0"], "--boards"),
    (["leaks", "sayc", "random:1", "--examples", "-1"], "--examples"),
    (["leaks", "sayc", "random:1", "--contracts", "-1"], "--contracts"),
    (["leaks", "sayc", "random:1", "--split", "nope"], "--split"),
    (["leaks", "sayc", "random:1", "--focus", "nn:sl"], "--focus"),
    (["leaks", "sayc"], "name the two agents"),
    (["leaks", "foo", "sayc"], "unknown agent 'foo'"),
    (["leaks", "sayc", "random:1", "--markdown", "nofolder/leaks.md"], "--markdown"),
    (["leaks", "sayc", "random:1", "--results", "nothere"], "either --results or the two agents"),
    (["leaks", "--results", "nothere"], "nothere"),
])
def test_cli_bad_input_is_one_line_and_writes_nothing(argv, fragment, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run([*argv, "--out", str(tmp_path / "m")], capsys)
    assert code == 2 and fragment in " ".join(err.split()) and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_cli_plays_a_match_and_reads_it_back(tmp_path, capsys):
    out, md = tmp_path / "m", tmp_path / "leaks.md"
    try:
        main(["leaks", "sayc", "random:3", "--boards", "12", "--workers", "1", "--out", str(out),
              "--markdown", str(md)])
    except SystemExit as e:
        assert e.code in (0, None)
    recs = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()[1:]]
    text = md.read_text()
    rows = [r for r in text.splitlines() if r.startswith("| ") and r[2].isdigit()]
    charged = sum(int(r.split("|")[3]) for r in rows)
    unattributed = int(text.split("; ")[1].split(" boards")[0])
    assert charged + unattributed == len(recs) == 12
    # Reading the stored folder gives the same table.
    capsys.readouterr()
    try:
        main(["leaks", "--results", str(out), "--focus", "random:3"])
    except SystemExit as e:
        assert e.code in (0, None)
    assert "Leaks of `random:3` against `sayc` over 12 boards" in capsys.readouterr().out


def test_their_openings_split_the_swing_by_table():
    # Board 1: A (NS in the open room) passes as dealer, B opens 1H in the closed room; A
    # loses 5 IMPs, lost at the closed table (A defending B's 1H: -6 against par) while A's
    # own table is +1 against par. Board 2 parts after an opening bid: not an opening turn.
    r1 = record("P P P P", "1H P 4H P P P", imps_a=-5, board=1)
    r1["a_vs_par"] = [1, -6]
    r2 = record("1S P 2S P P P", "1S P 4S P P P", imps_a=-6, board=2)
    r2["a_vs_par"] = [-6, 0]
    t = leak_table([r1, r2], "a", "b", family=lambda rec, att: str(att.focus_call))
    assert [(o.name, o.boards, o.net, o.defending_vs_par, o.own_vs_par) for o in t.their_openings] == \
        [("1H", 1, -5, -6, 1)]
    # Seen from B, the same board is B's opening beating A's pass: nothing of B's to file.
    assert leak_table([r1, r2], "a", "b", focus="b", family=lambda rec, att: "x").their_openings == []
    md = t.markdown()
    assert "| `1H` | 1 | -250.0 | -300.0 | +50.0 |" in md
