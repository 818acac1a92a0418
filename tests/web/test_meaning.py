"""What a bot's call shows in the web's "Why?" (issues 20, 45): the belief net's reading of the
call (bidlab.search.meaning), for any auction, with example hands and, for SAYC bots, SAYC's rule."""

from __future__ import annotations

import re

from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import Call
from bidlab.cards import Hand
from bidlab.web.meaning import MeaningService

SHOWS = re.compile(r"^(?P<call>\S+) shows (?P<lo>\d+)(–(?P<hi>\d+))? HCP, (?P<suits>.+?)(;|\. |$)")


def _hcp_range(meaning: str) -> tuple[int, int]:
    m = SHOWS.match(meaning)
    assert m, meaning
    return int(m["lo"]), int(m["hi"] or m["lo"])


def test_why_shows_what_a_neural_call_means_with_example_hands(client, models_dir):
    b = client.post("/api/boards", json={"seed": 5, "seats": {k: "nn:tiny" for k in "NESW"}}).json()
    assert b["over"]
    w = client.get(f"/api/boards/{b['id']}/why", params={"index": 0}).json()
    meaning = w["meaning"]
    assert "policy network" in w["text"]
    lo, hi = _hcp_range(meaning)
    suits = SHOWS.match(meaning)["suits"]
    assert [s for s in "♠♥♦♣" if s in suits] == list("♠♥♦♣"), meaning   # every suit's length
    assert 2 <= len(w["meaning_examples"]) <= 3
    for line in w["meaning_examples"]:
        hand = Hand.parse(line.split("  (")[0])
        assert lo <= hand.hcp <= hi, (line, meaning)
    assert w["sayc_rule"] is None        # an untrained net is not anchored to SAYC


def test_a_sayc_bots_why_keeps_the_rule_text_beside_the_reading(client):
    s = client.post("/api/boards", json={"seed": 5, "seats": {k: "sayc" for k in "NESW"}}).json()
    w = client.get(f"/api/boards/{s['id']}/why", params={"index": 0}).json()
    _hcp_range(w["meaning"])
    assert w["sayc_rule"].startswith(Call.parse(w["call"]).to_str(symbols=True) + ":")
    assert "[" not in w["text"] and (w["rule"] is None or re.fullmatch(r"[a-z_.]+", w["rule"]))


def test_a_rare_auction_is_read_too():
    """A lookup of stored deals had nothing for the slam auction 4NT 5H 6H (issue 45): the
    belief net reads it like any other."""
    svc = MeaningService(samples=32)
    try:
        a = Auction.parse("1H P 3H P 4NT P 5H P", "N")
        m = svc.meaning("nn:rl", a, Call.parse("6H"), Vulnerability.parse("none"), wait=120)
        assert m is not None and m.hcp[0] <= m.hcp[1] and len(m.lengths) == 4
        assert svc.meaning("nn:rl", a, Call.parse("6H"), Vulnerability.parse("none")) is m   # kept
    finally:
        svc.close()
