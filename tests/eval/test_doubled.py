"""Doubled and redoubled contracts per declaring side, in match summaries, ``bidlab match``
output and ``bidlab report``'s Markdown, on hand-built match results whose counts are known."""

from __future__ import annotations

import json
import math
import re

import pytest

from bidlab.eval.doubled import DoubledSide, doubled_contracts, pooled
from bidlab.eval.match import summarize
from bidlab.eval.report import build_report

DEAL = "N:AKJ84.K32.Q5.763 Q2.QJ74.8642.985 T976.AT9.AKJ.AKQ 53.865.T973.JT42"


def _room(contract, declarer, ns_score):
    return {"auction": "P P P P" if contract is None else "1S X XX P P P", "contract": contract,
            "declarer": declarer, "tricks": None if contract is None else 7, "ns_score": ns_score}


def _records():
    """Three boards. A ("alice") sits NS in the open room and EW in the closed room.

    A declares: 4SX by N in the open room (-500 for NS, so -500 for A), 3NTXX by E in the
    closed room (NS -1000, so +1000 for A), 2HX by S in board 3's open room (NS +470: +470).
    B ("bob") declares: 2HX by W in the open room (NS +300, so -300 for B).
    Undoubled contracts and a passed-out table count for nobody."""
    return [
        {"board": 1, "deal": DEAL, "dealer": "N", "vulnerability": "None", "deal_id": 0, "imps_a": 3,
         "a_vs_par": [0, 0], "open": _room("4SX", "N", -500), "closed": _room("3NTXX", "E", -1000)},
        {"board": 2, "deal": DEAL, "dealer": "E", "vulnerability": "NS", "deal_id": 10, "imps_a": -2,
         "a_vs_par": [0, 0], "open": _room("2HX", "W", 300), "closed": _room("4S", "N", 420)},
        {"board": 3, "deal": DEAL, "dealer": "S", "vulnerability": "EW", "deal_id": 20, "imps_a": 0,
         "a_vs_par": [0, 0], "open": _room("2HX", "S", 470), "closed": _room(None, None, 0)},
    ]


def test_counts_shares_and_mean_scores_per_declaring_side():
    alice, bob = doubled_contracts(_records(), "alice", "bob")
    assert (alice.agent, alice.doubled, alice.redoubled, alice.total, alice.tables) == ("alice", 2, 1, 3, 6)
    assert alice.mean_score == pytest.approx((-500 + 1000 + 470) / 3)
    assert alice.share == pytest.approx(50.0)
    assert (bob.doubled, bob.redoubled, bob.tables) == (1, 0, 6)
    assert bob.mean_score == -300 and bob.share == pytest.approx(100 / 6)
    # the side that declared none has no mean score, and says so
    none_a, _ = doubled_contracts(_records()[1:2], "alice", "bob")
    assert none_a.total == 0 and math.isnan(none_a.mean_score) and "n/a on average" in none_a.text()


def test_the_match_summary_carries_the_counts():
    s = summarize(_records(), "alice", "bob")
    a, b = s.extra["doubled"]
    assert (a["agent"], a["doubled"], a["redoubled"], a["total"]) == ("alice", 2, 1, 3)
    assert (b["agent"], b["doubled"], b["redoubled"], b["total"]) == ("bob", 1, 0, 1)
    assert b["mean_score"] == -300


def test_the_markdown_report_has_a_row_per_declaring_side(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    header = {"type": "bidlab-match", "config": {"agent_a": "alice", "agent_b": "bob"}, "deal_ids": [0, 10, 20]}
    (folder / "results.jsonl").write_text("".join(json.dumps(x) + "\n" for x in [header, *_records()]))
    text = build_report([str(folder)], tmp_path / "report").read_text()
    assert "## Doubled contracts" in text
    # alice declared doubled on boards 1 and 3 (+3 and 0 IMPs for her), bob on board 2 (-2 for A: +2)
    assert "| alice vs bob | alice | 2 | 1 | 50.0 % | +323 | 2 | +3 | +100.0 |" in text   # (-500 + 1000 + 470) / 3
    assert "| alice vs bob | bob | 1 | 0 | 16.7 % | -300 | 1 | +2 | +66.7 |" in text


def test_bidlab_match_prints_the_counts_of_its_own_boards(tmp_path, capsys):
    """Random bidders double and redouble often; the printed counts match the records,
    counted here from the contract strings and declarer seats."""
    from bidlab.cli import main

    out = tmp_path / "m"
    with pytest.raises(SystemExit) as e:
        main(["match", "random:1", "random:2", "--boards", "30", "--workers", "1", "--out", str(out)])
    assert e.value.code in (0, None)
    text = capsys.readouterr().out
    recs = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()[1:]]
    counted = {"random:1": [0, 0], "random:2": [0, 0]}
    net = {"random:1": {}, "random:2": {}}   # board -> that agent's IMPs, once per board
    for r in recs:
        for room, ns, ew in (("open", "random:1", "random:2"), ("closed", "random:2", "random:1")):
            c = r[room]["contract"] or ""
            if c.endswith("X"):
                agent = ns if r[room]["declarer"] in "NS" else ew
                counted[agent][c.endswith("XX")] += 1
                net[agent][r["board"]] = r["imps_a"] if agent == "random:1" else -r["imps_a"]
    assert sum(sum(v) for v in counted.values()) > 0  # random bidding doubles on 30 boards
    line = next(x for x in text.splitlines() if x.startswith("doubled contracts:"))
    for agent, (x, xx) in counted.items():
        assert re.search(rf"{re.escape(agent)} declared {x + xx} \({x} X, {xx} XX; [\d.]+ % of 60 tables\)", line), line
        total = sum(net[agent].values())
        assert (f"{total:+d} IMPs on those {len(net[agent])} boards "
                f"({100 * total / 30:+.1f} per 100 boards)") in line, line
    # summary.json holds the same numbers, as strict JSON
    sides = json.loads((out / "summary.json").read_text(), parse_constant=pytest.fail)["extra"]["doubled"]
    assert [(d["agent"], d["net_imps"], d["doubled_boards"]) for d in sides] == \
        [(a, sum(net[a].values()), len(net[a])) for a in ("random:1", "random:2")]


def _imp_records():
    """Five boards whose IMPs are worked out by hand from the laws' scoring and the WBF IMP
    scale. A sits NS in the open room and EW in the closed room; nobody is vulnerable.

    1. Open: A's North declares 2SX, 5 tricks: 100 + 200 + 200 = -500 for NS (A).
       Closed: B's South makes 2S, 110 for NS (B). A: -500 - 110 = -610 -> -12 IMPs.
    2. Open: A's North makes 4H, +420. Closed: B's South makes 4HX: 2 x 120 + 50 (insult)
       + 300 (game) = +590 for NS (B). A: 420 - 590 = -170 -> -5 IMPs, so B +5.
    3. A declares doubled at both tables: open 3NTX by N one down (-100 for NS = A);
       closed 3SX by W one down (+100 for NS = B). A: -100 - 100 = -200 -> -5 IMPs.
    4. No double: A +3 IMPs (the contracts do not matter here).
    5. Both sides declare doubled: open A's North makes 1NTX, 7 tricks: 2 x 40 + 50 + 50
       (partscore) = +180; closed B's South goes one down in 2CX: -100 for NS (B).
       A: 180 - (-100) = 280 -> +7 IMPs, B -7.

    A declared doubled on boards 1, 3 and 5: -12 - 5 + 7 = -10 IMPs, -200 per 100 boards.
    B declared doubled on boards 2 and 5: +5 - 7 = -2 IMPs, -40 per 100 boards."""
    def board(n, imps_a, open_room, closed_room):
        return {"board": n, "deal": DEAL, "dealer": "N", "vulnerability": "None", "deal_id": n, "imps_a": imps_a,
                "a_vs_par": [0, 0], "open": _room(*open_room), "closed": _room(*closed_room)}

    return [board(1, -12, ("2SX", "N", -500), ("2S", "S", 110)),
            board(2, -5, ("4H", "N", 420), ("4HX", "S", 590)),
            board(3, -5, ("3NTX", "N", -100), ("3SX", "W", 100)),
            board(4, 3, ("1NT", "N", 90), ("2H", "E", 110)),
            board(5, 7, ("1NTX", "N", 180), ("2CX", "S", -100))]


def test_the_hand_worked_boards_agree_with_the_laws_and_the_imp_scale():
    """The fixture's scores and IMPs, checked against bidlab's scoring (not the code under test)."""
    from bidlab.bridge.calls import Strain
    from bidlab.bridge.scoring import contract_score, imps

    assert contract_score(2, Strain.SPADES, 1, False, 5) == -500
    assert contract_score(4, Strain.HEARTS, 1, False, 10) == 590
    assert contract_score(1, Strain.NOTRUMP, 1, False, 7) == 180
    assert contract_score(2, Strain.CLUBS, 1, False, 7) == -100
    assert [imps(d) for d in (-610, -170, -200, 280)] == [-12, -5, -5, 7]


def test_net_imps_of_the_boards_each_side_declared_doubled():
    alice, bob = doubled_contracts(_imp_records(), "alice", "bob")
    # alice: 2SX, 3NTX, 3SX, 1NTX (4 contracts) on 3 boards; board 3 counts once
    assert (alice.total, alice.doubled_boards, alice.net_imps, alice.boards) == (4, 3, -10, 5)
    assert alice.imps_per_100 == pytest.approx(-200.0)
    assert (bob.total, bob.doubled_boards, bob.net_imps) == (2, 2, -2)
    assert bob.imps_per_100 == pytest.approx(-40.0)
    assert "-10 IMPs on those 3 boards (-200.0 per 100 boards)" in alice.text()
    assert "-2 IMPs on those 2 boards (-40.0 per 100 boards)" in bob.text()
    # the swapped match (bob as A) gives the same per-agent numbers
    swapped = [dict(r, imps_a=-r["imps_a"], open=r["closed"], closed=r["open"]) for r in _imp_records()]
    bob2, alice2 = doubled_contracts(swapped, "bob", "alice")
    assert (alice2.net_imps, alice2.doubled_boards, bob2.net_imps, bob2.doubled_boards) == (-10, 3, -2, 2)


def test_a_side_that_never_declared_doubled_has_zero_net_and_an_empty_match_has_none(tmp_path):
    from bidlab.fileio import write_json_atomic

    alice, bob = doubled_contracts(_imp_records()[3:4], "alice", "bob")
    assert (alice.doubled_boards, alice.net_imps, alice.imps_per_100) == (0, 0, 0.0)
    empty, _ = doubled_contracts([], "alice", "bob")
    assert empty.boards == 0 and math.isnan(empty.imps_per_100) and "n/a per 100 boards" in empty.text()
    # strict JSON: the undefined values are null, and read back as nan
    path = tmp_path / "s.json"
    write_json_atomic(path, empty.to_json())
    data = json.loads(path.read_text(), parse_constant=lambda c: pytest.fail(f"{c} in strict JSON"))
    assert data["imps_per_100"] is None and data["mean_score"] is None
    back = DoubledSide.from_json(data)
    assert back.boards == 0 and math.isnan(back.mean_score)


def test_pooled_over_matches_sums_boards_and_imps():
    first = doubled_contracts(_imp_records(), "alice", "bob")       # alice -10 on 3 of 5 boards
    second = doubled_contracts(_imp_records()[:2], "alice", "carol")  # alice -12 on 1 of 2 boards
    p = pooled("alice", [*first, *second])
    assert (p.boards, p.doubled_boards, p.net_imps, p.total) == (7, 4, -22, 5)
    assert p.imps_per_100 == pytest.approx(-2200 / 7)
    # mean score of alice's five doubled contracts: -500, -100, -100, +180 and -500 again
    assert p.mean_score == pytest.approx((-500 - 100 - 100 + 180 - 500) / 5)
    assert pooled("bob", [*first, *second]).net_imps == -2


def test_the_match_summary_json_carries_the_net_imps(tmp_path):
    from dataclasses import asdict

    from bidlab.fileio import write_json_atomic

    s = summarize(_imp_records(), "alice", "bob")
    write_json_atomic(tmp_path / "summary.json", asdict(s))
    a, b = json.loads((tmp_path / "summary.json").read_text())["extra"]["doubled"]
    assert (a["agent"], a["doubled_boards"], a["net_imps"], a["imps_per_100"]) == ("alice", 3, -10, -200.0)
    assert (b["agent"], b["doubled_boards"], b["net_imps"], b["imps_per_100"]) == ("bob", 2, -2, -40.0)


def test_the_markdown_report_has_the_net_imps(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    header = {"type": "bidlab-match", "config": {"agent_a": "alice", "agent_b": "bob"}, "deal_ids": [1, 2, 3, 4, 5]}
    (folder / "results.jsonl").write_text("".join(json.dumps(x) + "\n" for x in [header, *_imp_records()]))
    text = build_report([str(folder)], tmp_path / "report").read_text()
    # alice: 2SX, 3NTX, 3SX and 1NTX, 40 % of 10 tables; her scores -500, -100, -100 (3SX by
    # West one down is +100 for North-South) and +180: mean -130
    assert "| alice vs bob | alice | 4 | 0 | 40.0 % | -130 | 3 | -10 | -200.0 |" in text
    # bob: 4HX and 2CX, mean (590 - 100) / 2 = +245
    assert "| alice vs bob | bob | 2 | 0 | 20.0 % | +245 | 2 | -2 | -40.0 |" in text
