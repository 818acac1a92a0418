"""What a bot's call shows (issue 20): HCP and suit lengths of the hands behind it, from the
agent's own calls on stored deals."""

from __future__ import annotations

import re

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc import SaycAgent
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import board_dealer, board_vulnerability
from bidlab.bridge.calls import Call
from bidlab.cards import SUITS_HIGH_FIRST, Deal
from bidlab.dd import shipped_store
from bidlab.web.meaning import MeaningService, build_meanings

N = 200


def _deals(n=N):
    return shipped_store().load("train")[0][:n]


def _hands_behind(deals, key_calls: tuple[str, ...], call: str):
    """An independent pass over the same deals: every hand SAYC makes ``call`` with after ``key_calls``."""
    agent, out = SaycAgent(), []
    for i, holders in enumerate(deals):
        deal = Deal.from_array(holders)
        a = Auction(board_dealer(i + 1))
        while not a.is_over:
            seat = a.to_act
            c = agent.act(BiddingView(seat, deal[seat], a, board_vulnerability(i + 1)))
            if tuple(x.to_str() for x in a.calls) == key_calls and c.to_str() == call:
                out.append(deal[seat])
            a = a.with_call(c)
    return out


def test_sayc_1nt_opening_shows_15_to_17_balanced():
    """SAYC's 1NT opening is 15-17 HCP and balanced (the SAYC booklet): the table learned from
    SAYC's own calls says exactly that, and agrees with a second pass over the same deals."""
    deals = _deals()
    table = build_meanings(SaycAgent(), deals)
    hands = _hands_behind(deals, (), "1NT")  # opened by the dealer
    assert len(hands) >= 3
    row = table["-"]["1NT"]
    assert row[0] == len(hands)
    lo, hi = row[1], row[2]
    assert 15 <= lo <= hi <= 17
    assert (lo, hi) == (min(h.hcp for h in hands), max(h.hcp for h in hands)) or len(hands) >= 20
    for j, suit in enumerate(SUITS_HIGH_FIRST):
        lengths = [h.length(suit) for h in hands]
        assert 2 <= row[3 + 2 * j] and row[4 + 2 * j] <= 5  # balanced: no singleton, no six-card suit
        assert min(lengths) <= row[3 + 2 * j] <= row[4 + 2 * j] <= max(lengths)


def test_describe_reads_the_table_and_says_when_a_call_was_never_seen(tmp_path):
    deals = _deals(60)
    svc = MeaningService(lambda spec: SaycAgent(), deals=deals, n_deals=60, cache_dir=tmp_path)
    text = svc.describe("sayc", Auction(board_dealer(1)), Call.parse("1NT"), wait=120)
    assert re.search(r"1NT here shows 1[5-7](–1[5-7])? HCP; ♠ \d(–\d)?, ♥", text), text
    assert not re.search(r"(\d+)–\1\b", text)  # a single value is not written as a range
    never = svc.describe("sayc", Auction(board_dealer(1)), Call.parse("7NT"), wait=120)
    assert "never bid 7NT" in never
    # The table is cached on disk: a new service reads it without bidding again.
    again = MeaningService(lambda spec: (_ for _ in ()).throw(AssertionError("rebuilt")), deals=deals, n_deals=60,
                           cache_dir=tmp_path)
    assert again.describe("sayc", Auction(board_dealer(1)), Call.parse("1NT"), wait=120) == text
    svc.close()
    again.close()


def test_why_shows_what_a_neural_call_means_and_sayc_rule_ids_only_on_hover(client, models_dir):
    from tests.web.conftest import MEANING_DEALS

    b = client.post("/api/boards", json={"seed": 5, "seats": {k: "nn:tiny" for k in "NESW"}}).json()
    assert b["over"]
    w = client.get(f"/api/boards/{b['id']}/why", params={"index": 0}).json()
    meaning = w["meaning"]
    assert meaning is not None and "policy network" in w["text"]
    call = Call.parse(w["call"])
    if "never bid" not in meaning:
        assert meaning.startswith(f"{call.to_str(symbols=True)} here shows ") and "HCP" in meaning
        assert f"in {MEANING_DEALS} stored deals" in meaning
    s = client.post("/api/boards", json={"seed": 5, "seats": {k: "sayc" for k in "NESW"}}).json()
    w = client.get(f"/api/boards/{s['id']}/why", params={"index": 0}).json()
    assert w["meaning"] and "[" not in w["text"] and (w["rule"] is None or re.fullmatch(r"[a-z_.]+", w["rule"]))


def test_meaning_counts_match_the_number_of_calls():
    deals = _deals(30)
    table = build_meanings(SaycAgent(), deals)
    total = sum(row[0] for calls in table.values() for row in calls.values())
    n_calls = 0
    agent = SaycAgent()
    for i, holders in enumerate(deals):
        deal = Deal.from_array(holders)
        a = Auction(board_dealer(i + 1))
        while not a.is_over:
            a = a.with_call(agent.act(BiddingView(a.to_act, deal[a.to_act], a, board_vulnerability(i + 1))))
            n_calls += 1
    assert total == n_calls
