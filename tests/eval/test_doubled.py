"""Doubled and redoubled contracts per declaring side, in match summaries, ``bidlab match``
output and ``bidlab report``'s Markdown, on hand-built match results whose counts are known."""

from __future__ import annotations

import json
import math
import re

import pytest

from bidlab.eval.doubled import doubled_contracts
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
    assert "| alice vs bob | alice | 2 | 1 | 50.0 % | +323 |" in text   # (-500 + 1000 + 470) / 3
    assert "| alice vs bob | bob | 1 | 0 | 16.7 % | -300 |" in text


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
    for r in recs:
        for room, ns, ew in (("open", "random:1", "random:2"), ("closed", "random:2", "random:1")):
            c = r[room]["contract"] or ""
            if c.endswith("X"):
                counted[ns if r[room]["declarer"] in "NS" else ew][c.endswith("XX")] += 1
    assert sum(sum(v) for v in counted.values()) > 0  # random bidding doubles on 30 boards
    line = next(x for x in text.splitlines() if x.startswith("doubled contracts:"))
    for agent, (x, xx) in counted.items():
        assert re.search(rf"{re.escape(agent)} declared {x + xx} \({x} X, {xx} XX; [\d.]+ % of 60 tables\)", line), line
