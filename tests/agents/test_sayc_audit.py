"""The counterfactual audit (benchmarks/sayc_audit.py, issue 27) and the rule skipping it uses."""


import numpy as np
import pytest

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc.bidder import decide, decide_without, situation_groups
from bidlab.agents.sayc.context import make_context
from bidlab.agents.sayc.engine import _rules
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import board_dealer, board_vulnerability
from bidlab.bridge.calls import Call
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cards import Deal
from bidlab.dd import shipped_store


@pytest.fixture(scope="module")
def audit_module(benchmark_script):
    return benchmark_script("sayc_audit")


@pytest.fixture(scope="module")
def train():
    deals, dd, ids = shipped_store().load("train")
    return deals[:40], dd[:40], ids[:40]


def _finish(auction: Auction, deal: Deal, vul) -> Auction:
    while not auction.is_over:
        auction = auction.with_call(decide(BiddingView(auction.to_act, deal[auction.to_act], auction, vul)).call)
    return auction


def _ns_score(auction: Auction, table, vul) -> int:
    c = auction.contract
    return 0 if c is None else score_contract(c, int(table[int(c.declarer), int(c.strain)]), vul)


def test_skipping_a_rule_gives_a_later_rule_or_nothing_changes(train):
    deals, _, ids = train
    seen = 0
    for deal_arr, i in zip(deals[:10], ids[:10]):
        deal, b = Deal.from_array(deal_arr), int(i) % 16 + 1
        a, vul = Auction(board_dealer(b)), board_vulnerability(b)
        while not a.is_over:
            view = BiddingView(a.to_act, deal[a.to_act], a, vul)
            d = decide(view)
            assert decide_without(view, "no_such.rule").call == d.call
            if d.rule != "fallback.pass":
                names = [r.name for r in _rules(situation_groups(make_context(view)))]
                other = decide_without(view, d.rule)
                assert other.rule == "fallback.pass" or names.index(other.rule) > names.index(d.rule)
                seen += 1
            a = a.with_call(d.call)
    assert seen > 50


def test_the_same_agent_changes_no_call(audit_module, train):
    assert audit_module.audit(*train, against="sayc", progress=lambda s: None) == []


def test_skip_rule_records_match_the_auction_by_auction_replay(audit_module, train):
    deals, dd, ids = train
    records = audit_module.audit(deals, dd, ids, against=None, progress=lambda s: None)
    assert records
    where = {int(x): k for k, x in enumerate(ids)}
    for r in records[:12]:
        k = where[r["deal_id"]]
        deal, b = Deal.from_array(deals[k]), r["deal_id"] % 16 + 1
        vul = board_vulnerability(b)
        base = _finish(Auction(board_dealer(b)), deal, vul)
        prefix = Auction(board_dealer(b))
        for c in base.calls[:r["call_index"]]:
            prefix = prefix.with_call(c)
        view = BiddingView(prefix.to_act, deal[prefix.to_act], prefix, vul)
        assert decide(view).rule == r["rule"] and str(base.calls[r["call_index"]]) == r["sayc"]
        alt = decide_without(view, r["rule"]).call
        assert str(alt) == r["alternative"] != r["sayc"]
        swing = _ns_score(_finish(prefix.with_call(alt), deal, vul), dd[k], vul) - _ns_score(base, dd[k], vul)
        assert r["imps"] == imps(swing if r["seat"] in "NS" else -swing)


def test_call_kinds_in_bridge_terms(audit_module):
    ids = [Call.parse(x).id for x in ("1H", "P")]          # partner (North) opened 1H, East passed
    kind = lambda call, sayc="P": audit_module.call_kind(ids, 0, 2, Call.parse(call).id, Call.parse(sayc).id)  # noqa: E731
    assert kind("2H") == "raise"
    assert kind("3H") == "raise jump1"
    assert kind("1S") == "new-suit"
    assert kind("2S", "1S") == "new-suit jump1 >sayc"
    assert kind("2NT") == "notrump jump1"
    assert kind("X") == "double" and kind("P", "1S") == "pass"
    cells = audit_module.cells([{"rule": "r", "kind": "k", "imps": v} for v in (3, 4, 5, 4)], 3)
    assert cells == [{"rule": "r", "kind": "k", "decisions": 4, "total": 16, "mean": 4.0,
                      "se": pytest.approx(float(np.std([3, 4, 5, 4], ddof=1) / 2)), "clear": True}]
