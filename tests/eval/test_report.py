"""Reports: every plot is built from a small match and checked against its results."""

import json
import re
from collections import Counter

import numpy as np
from matplotlib.image import imread

from bidlab.bridge import Call
from bidlab.cards import Seat
from bidlab.eval.match import Match, MatchConfig, load_results
from bidlab.eval.report import build_report, collect, contract_matrix, opening_matrix


def test_report_plots_and_numbers(tmp_path):
    cfg = MatchConfig("random:1", "random:2", split="test", boards=40, seed=2, chunk_size=40)
    Match(cfg, tmp_path / "m").run(workers=1)
    md = build_report([str(tmp_path / "m")], tmp_path / "report")
    _, recs = load_results(tmp_path / "m")

    for name in ("openings", "contracts", "auction_lengths", "imp_swings"):
        img = imread(tmp_path / "report" / f"{name}.png")
        assert img.ndim == 3 and img.shape[0] > 200 and img.shape[1] > 300
        assert img[..., :3].std() > 0.05, f"{name}.png looks blank"

    # Summary numbers equal the ones computed here from the per-board records.
    text = md.read_text()
    x = np.array([r["imps_a"] for r in recs], dtype=float)
    row = re.search(r"\| random:1 vs random:2 \| 40 \| ([+-][\d.]+) \| ([\d.]+) \|", text)
    assert row, text
    assert float(row.group(1)) == round(x.mean(), 2)
    assert float(row.group(2)) == round(x.std(ddof=1) / np.sqrt(len(x)), 2)
    mean_len = np.mean([len(r[room]["auction"].split()) for r in recs for room in ("open", "closed")])
    assert f"mean {mean_len:.2f} calls per auction" in text
    swings = int((x != 0).sum())
    assert f"{swings} of 40 boards swing" in text

    # Heatmap matrices count exactly the openings and contracts found in the records.
    stats, _ = collect([str(tmp_path / "m")])
    opened = Counter()
    declared = Counter()
    for r in recs:
        for room, ns in (("open", "random:1"), ("closed", "random:2")):
            ew = "random:2" if ns == "random:1" else "random:1"
            calls = [Call.parse(t) for t in r[room]["auction"].split()]
            first = next((i for i, c in enumerate(calls) if c.is_bid), None)
            if first is not None:
                seat = Seat.parse(r["dealer"]).next(first)
                opened[ns if seat.side == 0 else ew] += 1
            if r[room]["contract"]:
                side = Seat.parse(r[room]["declarer"]).side
                declared[ns if side == 0 else ew] += 1
    for agent in ("random:1", "random:2"):
        assert opening_matrix(stats[agent]).sum() == opened[agent]
        assert contract_matrix(stats[agent]).sum() == declared[agent]


# A two-board match written by hand (agents "alice" = A and "bob" = B), every number below
# counted by hand from these auctions and hands, not by the report code.
BOARD_1 = "N:AKJ84.K32.Q5.763 Q2.QJ74.8642.985 T976.AT9.AKJ.AKQ 53.865.T973.JT42"   # dealer N
BOARD_2 = "N:AJ32.KQ2.J43.975 KQ4.AJ3.KQ52.Q84 T98.T987.A76.JT2 765.654.T98.AK63"   # dealer E


def _room(auction, contract, declarer):
    return {"auction": auction, "contract": contract, "declarer": declarer, "tricks": None, "ns_score": 0}


def _write_hand_worked_match(path):
    header = {"type": "bidlab-match", "config": {"agent_a": "alice", "agent_b": "bob"}, "deal_ids": [0, 10]}
    records = [
        # Open room: alice NS. N opens 1S (13 HCP, five spades: SAYC), N-S reach 4S by N.
        # Closed room: alice EW. E opens 1H on four hearts and 5 HCP (not SAYC); 2H by E.
        {"board": 1, "deal": BOARD_1, "dealer": "N", "vulnerability": "None", "deal_id": 0,
         "imps_a": 5, "a_vs_par": [1, 2],
         "open": _room("1S P 2S P 4S P P P", "4S", "N"), "closed": _room("P 1H P 2H P P P", "2H", "E")},
        # Open room: bob EW. E opens 1NT (17 HCP, 3-3-4-3: SAYC), 3NT by E. Closed room: passed out.
        {"board": 2, "deal": BOARD_2, "dealer": "E", "vulnerability": "NS", "deal_id": 10,
         "imps_a": -3, "a_vs_par": [0, -1],
         "open": _room("1NT P 3NT P P P", "3NT", "E"), "closed": _room("P P P P", None, None)},
    ]
    path.mkdir()
    (path / "results.jsonl").write_text("".join(json.dumps(x) + "\n" for x in [header, *records]))


def _cells(entries):
    m = np.zeros((7, 5), dtype=int)
    for level, strain in entries:  # strain C, D, H, S, NT = 0..4
        m[level - 1, strain] += 1
    return m


def test_heatmaps_and_tables_of_a_hand_worked_match(tmp_path):
    _write_hand_worked_match(tmp_path / "m")
    stats, _ = collect([str(tmp_path / "m")])
    assert np.array_equal(opening_matrix(stats["alice"]), _cells([(1, 3), (1, 2)]))   # 1S, 1H
    assert np.array_equal(opening_matrix(stats["bob"]), _cells([(1, 4)]))             # 1NT
    assert np.array_equal(contract_matrix(stats["alice"]), _cells([(4, 3), (2, 2)]))  # 4S, 2H
    assert np.array_equal(contract_matrix(stats["bob"]), _cells([(3, 4)]))            # 3NT
    assert stats["alice"].passed_out == stats["bob"].passed_out == 1
    assert stats["alice"].tables == stats["bob"].tables == 4

    text = build_report([str(tmp_path / "m")], tmp_path / "report").read_text()
    # IMPs 5 and -3: mean 1, SE = stdev / sqrt(2) = 5.657 / 1.414 = 4; vs par (1 + 2 + 0 - 1) / 4
    assert "| alice vs bob | 2 | +1.00 | 4.00 | +0.50 | -0.50 |" in text
    assert "mean 6.25 calls per auction" in text  # (8 + 7 + 6 + 4) / 4
    assert "2 of 2 boards swing; largest 5 IMPs" in text
    # SAYC conformity (alice | bob): 1S fits SAYC, the 4-card 5-point 1H does not, 1NT fits.
    assert "| 1S | 100.00 (1) | - |" in text
    assert "| 1H | 0.00 (1) | - |" in text
    assert "| 1NT | - | 100.00 (1) |" in text
    assert "| 1C | - | - |" in text


def test_report_on_an_interrupted_match_says_how_to_finish_it(tmp_path, capsys):
    """The message names the boards played and a command that, pasted, finishes the match."""
    import shlex

    import pytest

    from bidlab.cli import main
    from bidlab.errors import BidlabError
    from bidlab.eval.match import Match, MatchConfig
    from bidlab.eval.report import build_report

    folder = tmp_path / "cut"
    m = Match(MatchConfig("random", "sayc", boards=3, seed=2, chunk_size=1), folder)

    def stop(done, total):
        if done >= 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        m.run(workers=1, progress=stop)
    with pytest.raises(BidlabError) as e:
        build_report([str(folder)], tmp_path / "report")
    text = str(e.value)
    assert "unfinished match" in text and f"{m.boards_done()} of 3 boards played" in text
    command = shlex.split(text.split("rerun it to finish: ")[1])
    assert command[0] == "bidlab"
    with pytest.raises(SystemExit) as done:
        main([*command[1:], "--workers", "1"])
    assert done.value.code == 0
    capsys.readouterr()
    build_report([str(folder)], tmp_path / "report")


def test_conformity_table_goes_on_to_3nt_and_the_4_level_openings(tmp_path):
    """North holds eight spades and 6 HCP: a 4S opening, which the SAYC chart allows (8+ cards,
    at most 10 HCP); alice opens it in the open room, bob in the closed room."""
    deal = "N:KQJ98765.2.32.54 AT432.AKQJT987.. .6543.AKQJT9876. ..54.AKQJT987632"
    header = {"type": "bidlab-match", "config": {"agent_a": "alice", "agent_b": "bob"}, "deal_ids": [0]}
    record = {"board": 1, "deal": deal, "dealer": "N", "vulnerability": "None", "deal_id": 0,
              "imps_a": 0, "a_vs_par": [0, 0],
              "open": _room("4S P P P", "4S", "N"), "closed": _room("4S P P P", "4S", "N")}
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "results.jsonl").write_text("".join(json.dumps(x) + "\n" for x in [header, record]))
    text = build_report([str(tmp_path / "m")], tmp_path / "report").read_text()
    assert "| 4S | 100.00 (1) | 100.00 (1) |" in text
    rows = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ")]
    for bid in ("3S", "3NT", "4C", "4D", "4H", "4S"):
        assert bid in rows, rows
