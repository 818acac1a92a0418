"""``bidlab play`` and ``bidlab match --scoring played`` (issue 47)."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from bidlab.bridge.auction import Contract
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cli import app
from bidlab.eval.match import Match, MatchConfig

PLAY_DEAL = "N:AKQ.AQ.AKQJ.AKQJ JT98765.K.T9876. 432.32.5432.5432 .JT987654..T9876"


def test_play_shows_every_card_and_trick_and_the_result():
    r = CliRunner().invoke(app, ["play", PLAY_DEAL, "--contract", "7NT", "--declarer", "S", "--lead", "HJ",
                                 "--auction", "7NT P P P"])
    assert r.exit_code == 0, r.output
    cards = re.findall(r"^\s+(\d+)\.(\d) ([NESW]) ", r.output, re.M)
    assert len(cards) == 52 and cards[0][2] == "W"
    assert "1.1 W ♥J  (the lead given)" in r.output
    # dummy's card to the first trick: the finesse, with declarer's expected tricks
    assert re.search(r"1\.2 N ♥Q  \(expects \d+\.\d\d declarer tricks over 6 samples\)", r.output)
    tricks = re.findall(r"^trick +(\d+): .* won by ([NESW]); declarer (\d+), defenders (\d+)", r.output, re.M)
    assert [int(t[0]) for t in tricks] == list(range(1, 14))
    declarer = int(tricks[-1][2])
    assert declarer == sum(w in "NS" for _, w, _, _ in tricks)
    # East's singleton king: the finesse loses, 12 tricks; the ace would have dropped it (DD 13)
    assert declarer == 12
    score = score_contract(Contract.parse("7NT", "S"), declarer, Vulnerability.NONE)
    assert f"result: 7NT by S, 12 tricks (down 1), {score:+d} for NS; double dummy: 13 tricks" in r.output


def test_played_scoring_keeps_both_results_and_resumes(tmp_path):
    cfg = MatchConfig("sayc", "nn:rl", boards=3, seed=2, chunk_size=2, scoring="played")
    out = tmp_path / "m"
    Match(cfg, out).run(workers=1)
    recs = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()[1:]]
    assert len(recs) == 3
    for r in recs:
        for room in ("open", "closed"):
            t = r[room]
            if t["contract"] is None:
                assert t["ns_score"] == 0 == t["dd_ns_score"]
                continue
            c = Contract.parse(t["contract"], t["declarer"])
            v = Vulnerability.parse(r["vulnerability"])
            assert t["ns_score"] == score_contract(c, t["tricks"], v)
            assert t["dd_ns_score"] == score_contract(c, t["dd_tricks"], v)
            assert t["dd_tricks"] == r["dd"][int(c.declarer)][int(c.strain)]
        assert r["imps_a"] == imps(r["open"]["ns_score"] - r["closed"]["ns_score"])
        assert r["imps_a_dd"] == imps(r["open"]["dd_ns_score"] - r["closed"]["dd_ns_score"])
    summary = json.loads((out / "summary.json").read_text())
    diffs = [r["imps_a"] - r["imps_a_dd"] for r in recs]
    assert abs(summary["extra"]["paired_difference"]["mean"] - sum(diffs) / 3) < 1e-9
    # the same folder again: nothing is replayed, the same results come back
    before = (out / "results.jsonl").read_text().splitlines()[1:]
    assert Match(cfg, out).pending() == []
    Match(cfg, out).run(workers=1)
    assert (out / "results.jsonl").read_text().splitlines()[1:] == before
    # a DD-scored match's configuration is stored as it was before the option existed
    assert "scoring" not in MatchConfig("sayc", "nn:rl").to_json()
