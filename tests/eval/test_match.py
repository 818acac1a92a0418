"""Duplicate matches: scoring worked out by hand, self-play zero, determinism, resume."""

import json
import zlib

import numpy as np
import pytest

from bidlab.agents.base import ViewPolicy
from bidlab.agents.registry import AgentSpecError, make_agent, register
from bidlab.bridge import PASS, Call, imps
from bidlab.cards import Deal
from bidlab.dd import DealStore, par
from bidlab.eval.match import Match, MatchConfig, MatchError, load_results


class OpenFourSpades(ViewPolicy):
    """Opens 4S when nobody has bid yet, otherwise passes."""

    name = "open4s"

    def act(self, view):
        return Call.parse("4S") if view.auction.last_bid is None else PASS


class AlwaysPass(ViewPolicy):
    name = "pass"

    def act(self, view):
        return PASS


class HashAgent(ViewPolicy):
    """Deterministic but varied: a legal call chosen by a hash of the view (pass-heavy)."""

    name = "hash"

    def act(self, view):
        legal = view.auction.legal_calls()
        h = zlib.crc32(f"{view.hand.to_pbn()}|{view.auction.to_str()}|{view.seat}".encode())
        return PASS if h % 3 else legal[h % len(legal)]


register("open4s", "test", lambda arg, seed: OpenFourSpades())
register("pass", "test", lambda arg, seed: AlwaysPass())
register("hash", "test", lambda arg, seed: HashAgent())

DEAL = Deal.parse("N:AKQJ2.AK2.A2.K32 T98.QJT.KQJ.QJT9 7654.987.T98.A87 3.6543.76543.654")
# Hand-made DD table (declarer N, E, S, W x strain C, D, H, S, NT): only the spade column matters.
TABLE = np.array([[7, 7, 7, 10, 8], [6, 6, 6, 3, 5], [7, 7, 7, 11, 8], [6, 6, 6, 3, 5]], dtype=np.uint8)


@pytest.fixture()
def tiny_store(tmp_path):
    store = DealStore.create(tmp_path / "store")
    # The same deal twice, so board 1 and board 2 get it whatever the sampling order.
    store.append(np.stack([DEAL.to_array()] * 2), np.stack([TABLE] * 2))
    return str(tmp_path / "store")


def test_scoring_of_hand_made_boards(tiny_store, tmp_path):
    cfg = MatchConfig("open4s", "pass", split="all", boards=2, seed=0, store=tiny_store, chunk_size=2)
    summary = Match(cfg, tmp_path / "m").run(workers=1)
    _, recs = load_results(tmp_path / "m")
    b1, b2 = sorted(recs, key=lambda r: r["board"])
    # Board 1: dealer N, nobody vulnerable.
    #   Open room, A (open4s) sits NS: N opens 4S, all pass; N takes 10 tricks: +420.
    #   Closed room, A sits EW: N passes, E opens 4S, takes 3 tricks: down 7 x 50 = -350 for EW, +350 NS.
    assert b1["open"]["contract"] == "4S" and b1["open"]["declarer"] == "N" and b1["open"]["ns_score"] == 420
    assert b1["closed"]["contract"] == "4S" and b1["closed"]["declarer"] == "E" and b1["closed"]["ns_score"] == 350
    assert b1["imps_a"] == 2  # 70 points
    # Board 2: dealer E, NS vulnerable.
    #   Open room: E (pass agent) passes, S (A) opens 4S, takes 11: 620 + 30 = +650.
    #   Closed room: E (A) opens 4S not vulnerable, takes 3: +350 for NS.
    assert b2["open"]["declarer"] == "S" and b2["open"]["ns_score"] == 650
    assert b2["closed"]["declarer"] == "E" and b2["closed"]["ns_score"] == 350
    assert b2["imps_a"] == 7  # 300 points
    assert summary.imps_per_board == pytest.approx(4.5)
    assert summary.standard_error == pytest.approx(np.std([2, 7], ddof=1) / np.sqrt(2))
    for r, vul, dealer in ((b1, "None", "N"), (b2, "NS", "E")):
        p = par(TABLE, vul, dealer).score
        assert r["par_ns"] == p
        assert r["a_vs_par"] == [imps(r["open"]["ns_score"] - p), imps(p - r["closed"]["ns_score"])]


def test_deterministic_agent_against_itself_scores_zero_on_every_board(tmp_path):
    cfg = MatchConfig("hash", "hash", split="test", boards=60, seed=3, chunk_size=25)
    summary = Match(cfg, tmp_path / "m").run(workers=1)
    _, recs = load_results(tmp_path / "m")
    assert len(recs) == 60
    assert all(r["imps_a"] == 0 for r in recs)
    assert all(r["open"]["auction"] == r["closed"]["auction"] for r in recs)
    assert any(r["open"]["contract"] is not None for r in recs)
    assert summary.imps_per_board == 0.0


def test_parallel_and_serial_runs_agree_and_record_seeds(tmp_path):
    cfg = MatchConfig("random", "random:7", split="test", boards=40, seed=11, chunk_size=10)
    Match(cfg, tmp_path / "serial").run(workers=1)
    Match(cfg, tmp_path / "parallel").run(workers=2)
    h1, r1 = load_results(tmp_path / "serial")
    h2, r2 = load_results(tmp_path / "parallel")
    assert r1 == r2
    assert h1["deal_ids"] == h2["deal_ids"] and len(h1["deal_ids"]) == 40
    assert h1["config"]["seed"] == 11 and len(h1["agent_seeds"]["a"]) == 4
    # Only test-split deals (id % 10 == 0) are used.
    assert all(i % 10 == 0 for i in h1["deal_ids"])


def test_interrupted_match_resumes_to_the_same_result(tmp_path):
    cfg = MatchConfig("random", "random", split="test", boards=30, seed=5, chunk_size=10)
    full = Match(cfg, tmp_path / "full")
    full.run(workers=1)

    calls = []

    def stop_after_first_chunk(done, total):
        calls.append(done)
        if done >= 10:
            raise KeyboardInterrupt

    m = Match(cfg, tmp_path / "cut")
    with pytest.raises(KeyboardInterrupt):
        m.run(workers=1, progress=stop_after_first_chunk)
    assert not (tmp_path / "cut" / "results.jsonl").exists()
    assert Match(cfg, tmp_path / "cut").pending() == [1, 2]
    # A stray file where an unfinished chunk will go is not taken for it.
    (tmp_path / "cut" / "chunks" / "shard-000001.jsonl").write_text('{"board": 11, "trunc')
    Match(cfg, tmp_path / "cut").run(workers=1)
    assert load_results(tmp_path / "cut")[1] == load_results(tmp_path / "full")[1]
    # A finished chunk damaged afterwards is never trusted: its checksum fails, clearly.
    (tmp_path / "cut" / "chunks" / "shard-000000.jsonl").write_text('{"board": 1, "trunc')
    with pytest.raises(MatchError, match="shard-000000.jsonl"):
        Match(cfg, tmp_path / "cut").finish()
    pbn_text = (tmp_path / "cut" / "auctions.pbn").read_text()
    assert pbn_text.count("[Room ") == 60


def test_bad_match_settings(tmp_path, tiny_store):
    with pytest.raises(AgentSpecError, match="unknown agent"):
        make_agent("wbridge5")
    with pytest.raises(MatchError, match="only 2 deals"):
        Match(MatchConfig("pass", "pass", split="all", boards=3, store=tiny_store), tmp_path / "x")
    Match(MatchConfig("pass", "pass", split="all", boards=1, store=tiny_store), tmp_path / "y")
    with pytest.raises(MatchError, match="different match"):
        Match(MatchConfig("pass", "open4s", split="all", boards=1, store=tiny_store), tmp_path / "y")
    (tmp_path / "z").mkdir()
    (tmp_path / "z" / "other.txt").write_text("keep me")
    with pytest.raises(MatchError, match="not empty"):
        Match(MatchConfig("pass", "pass", split="all", boards=1, store=tiny_store), tmp_path / "z")
    assert (tmp_path / "z" / "other.txt").read_text() == "keep me"
    (tmp_path / "bad.jsonl").write_text(json.dumps({"type": "other"}) + "\n")
    with pytest.raises(MatchError, match="not a bidlab results file"):
        load_results(tmp_path / "bad.jsonl")


def test_a_side_level_with_par_is_stored_as_zero_not_minus_zero():
    """Issue 28: b_vs_par was -0.0 in summary.json when A was exactly level with par."""
    import math

    from bidlab.eval.match import summarize

    room = {"contract": "4S", "declarer": "N", "ns_score": 420}
    s = summarize([{"imps_a": 0, "a_vs_par": [0, 0], "open": room, "closed": room},
                   {"imps_a": 3, "a_vs_par": [2, -2], "open": room, "closed": room}], "a", "b")
    assert s.b_vs_par == 0.0 and math.copysign(1.0, s.b_vs_par) == 1.0
