"""The doubling judge's training (issue 44): labels from the DD table, positions where double
is legal, and a run killed with ``kill -9`` that resumes to the same model as a run never
stopped."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from bidlab.bridge.auction import Auction
from bidlab.bridge.scoring import contract_score, imps
from bidlab.cards import Deal
from bidlab.dd import shipped_store
from bidlab.envs.state import from_prefix
from bidlab.learn.judge import doubling_gain, doubling_positions
from tests.kill_training import run_until_then_kill9

CMD = [sys.executable, "-c", "from bidlab.cli import main; main()", "train", "judge", "--agent", "nn:sl",
       "--agent", "sayc", "--deals", "300", "--validation-deals", "100", "--passes", "1", "--epochs", "3",
       "--batch-size", "8", "--checkpoint-seconds", "0.001"]


def test_the_label_is_the_doubled_minus_the_undoubled_score_for_the_doubler():
    deals, dd, _ = shipped_store().load("train")
    for i, (calls, dealer) in enumerate([("1S", 0), ("1NT P 3NT", 1), ("P 2H", 2), ("1C 1D 1H 2S", 3)]):
        a = Auction.parse(calls, "NESW"[dealer])
        ids = [c.id for c in a.calls]
        state = from_prefix(deals[i:i + 1], [dealer], [i % 4], np.array([ids]))
        assert state.legal[0, 1]
        points, got = doubling_gain(state, dd[i:i + 1])
        final = Auction.parse(calls + " P P P", "NESW"[dealer])   # the contract if the auction ended now
        level, strain, declarer = final.contract.level, int(final.contract.strain), int(final.declarer)
        tricks = int(dd[i, declarer, strain])
        vul = [False, declarer % 2 == 0, declarer % 2 == 1, True][i % 4]
        want = contract_score(level, strain, 0, vul, tricks) - contract_score(level, strain, 1, vul, tricks)
        assert points[0] == want and got[0] == (imps(abs(want)) if want >= 0 else -imps(-want))
        assert Deal.from_array(deals[i])  # a real deal of the store


def test_positions_are_the_decisions_where_double_is_legal_and_was_not_made():
    from bidlab.agents.registry import make_agent

    deals, dd, _ = shipped_store().load("train")
    data = doubling_positions([make_agent("nn:sl"), make_agent("sayc")], deals[:200], dd[:200], 0, chunk=100)
    m = len(data["obs"])
    assert m > 200 and all(len(v) == m for v in data.values())
    assert (data["level"] >= 1).all() and (np.abs(data["imps"]) <= 24).all()
    assert (data["imps"] != data["stands_imps"]).any()    # the auction going on after X matters


def test_the_continuation_label_replays_the_auction_with_a_double():
    """Each label equals, recomputed another way, the IMPs of (the auction replayed from its
    calls with X added, then bid on by the same agents) against the table's own result."""
    from bidlab.agents.registry import make_agent
    from bidlab.envs.rollout import rollout, score
    from bidlab.envs.scoring import imps_array
    from bidlab.envs.state import init
    from bidlab.learn.judge import continuation_gain

    table = [make_agent("nn:sl"), make_agent("sayc")]
    seats = np.array([0, 1, 0, 1])
    deals, dd, _ = shipped_store().load("train")
    n = 40
    found = []

    def hook(_pi, rows, sub, d):
        ok = np.flatnonzero(sub.legal[:, 1] & (np.asarray(d.calls) != 1))
        found.extend((int(rows[k]), sub.take([k])) for k in ok)

    end = rollout(init(deals[:n], 1, 2), table, seats, on_decision=hook)
    actual = score(end, dd[:n]).ns_score
    checked = 0
    for t, at in found[:25]:
        got = continuation_gain(at, table, seats, dd[t:t + 1], actual[t:t + 1])[0]
        replay = from_prefix(deals[t:t + 1], [1], [2], np.array([at.calls(0) + [1]]))
        doubled = score(rollout(replay, table, seats), dd[t:t + 1]).ns_score[0]
        sign = 1 if int(at.to_act[0]) % 2 == 0 else -1
        assert got == imps_array(np.array([sign * (int(doubled) - int(actual[t]))]))[0]
        checked += 1
    assert checked == 25


def test_resume_after_kill9_ends_with_the_same_model(tmp_path):
    killed, clean = tmp_path / "killed", tmp_path / "clean"
    run_until_then_kill9(CMD + ["--out", str(killed)], killed / "state.json", "step", 60)
    stopped_at = json.loads((killed / "state.json").read_text())["step"]
    subprocess.run(CMD + ["--out", str(killed)], check=True, capture_output=True)
    subprocess.run(CMD + ["--out", str(clean)], check=True, capture_output=True)
    a, b = (json.loads((d / "state.json").read_text()) for d in (killed, clean))
    assert stopped_at < a["step"] == b["step"] and a["epoch"] == b["epoch"] == 3
    assert [h["validation_mse"] for h in a["history"]] == [h["validation_mse"] for h in b["history"]]
    assert (killed / "model.safetensors").read_bytes() == (clean / "model.safetensors").read_bytes()
