"""The web table's side of seeing the search (issue 16): a search bot's "Why?" and
``/api/boards/{id}/search`` show the search that made the call, kept when the bot called,
not a new one; an undone call's search is forgotten; and what a search bot's call shows is
read from its policy's calls, so seating one never starts hours of searches in the background.
"""

from __future__ import annotations

import pytest

from bidlab.agents.base import BiddingView
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board
from bidlab.cards import Deal, Seat
from bidlab.search.bmcs import Searcher
from tests.web.test_api import new_board

#: A small search over the tiny (untrained) policy: p_min 0 keeps three candidates.
SEARCH_BOT = "bmcs:tiny?k=3&pmin=0.0&rmin=10&rmax=20"

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2.*")


def _no_new_searches(monkeypatch):
    def refuse(self, root):
        raise AssertionError("searched again")

    monkeypatch.setattr(Searcher, "search", refuse)


def test_why_and_search_show_the_search_that_made_the_call(client, monkeypatch):
    s = new_board(client, number=1, seed=5, seats={"N": SEARCH_BOT, "E": "sayc", "S": "you", "W": "sayc"})
    north = [c for c in s["calls"] if c["seat"] == "N"]
    assert north
    _no_new_searches(monkeypatch)
    for c in north:
        r = client.get(f"/api/boards/{s['id']}/search", params={"index": c["index"]})
        assert r.status_code == 200, r.text
        j = r.json()
        assert j["made"] == j["call"] == c["call"] and j["seat"] == "N"
        w = client.get(f"/api/boards/{s['id']}/why", params={"index": c["index"]})
        assert w.status_code == 200, w.text
        w = w.json()
        assert w["search"] is True and w["call"] == c["call"]
        if j["searched"]:
            assert f"search over {j['kept']} of {j['sampled']} sampled deals kept" in w["text"]
    east = next(c for c in s["calls"] if c["seat"] == "E")
    w = client.get(f"/api/boards/{s['id']}/why", params={"index": east["index"]}).json()
    assert w["search"] is False


def test_an_undone_call_forgets_the_searches_after_it(client, models_dir):
    """East (you) bids, North searches again; East takes the bid back and bids 7NT, and North's
    next call is explained from the new auction, not from the search before the undo."""
    from bidlab.agents.neural import load_neural_agent

    seats = {"N": SEARCH_BOT, "E": "you", "S": "sayc", "W": "sayc"}
    s = new_board(client, number=1, seed=5, seats=seats)       # dealer N: N has called, E to act
    cheapest = next(c for c in s["legal_calls"] if c[0].isdigit())
    assert cheapest != "7NT"
    bid = client.post(f"/api/boards/{s['id']}/calls", json={"call": cheapest}).json()
    assert len(bid["calls"]) >= 5     # after a bid, the auction lasts past North's next call
    first = client.get(f"/api/boards/{s['id']}/search", params={"index": 4}).json()
    client.post(f"/api/boards/{s['id']}/undo")
    again = client.post(f"/api/boards/{s['id']}/calls", json={"call": "7NT"}).json()
    assert len(again["calls"]) >= 5
    j = client.get(f"/api/boards/{s['id']}/search", params={"index": 4}).json()
    assert j["made"] == j["call"] == again["calls"][4]["call"]
    # the candidates are the tiny policy's top calls after the new auction
    deal, board = Deal.random(5), Board.numbered(1, Deal.random(5))
    auction = Auction(board.dealer, [c["call"] for c in again["calls"][:4]])
    view = BiddingView(Seat.N, deal[Seat.N], auction, board.vulnerability)
    top = load_neural_agent(str(models_dir / "tiny.safetensors")).top_calls(view, k=3)
    assert [c["call"] for c in j["candidates"]] == [c.to_str() for c, _ in top]
    assert [c["call"] for c in j["candidates"]] != [c["call"] for c in first["candidates"]] or \
        [c["prob"] for c in j["candidates"]] != [c["prob"] for c in first["candidates"]]


def test_a_search_bots_meanings_come_from_its_policy(app, client):
    asked: list[str] = []
    meanings = app.state.store.meanings
    reader = meanings.reader

    def spy(spec, wait=None):
        asked.append(spec)
        return reader(spec, wait)

    meanings.reader = spy
    try:
        s = new_board(client, number=1, seed=5, seats={"N": SEARCH_BOT, "E": "sayc", "S": "you", "W": "sayc"})
        w = client.get(f"/api/boards/{s['id']}/why", params={"index": 0}).json()
    finally:
        del meanings.reader
    assert asked and not any(a.lower().startswith(("bmcs:", "mcs:")) for a in asked), asked
    assert any(a.startswith("nn:") and a.endswith("tiny.safetensors") for a in asked), asked
    assert w["meaning"].startswith("Its policy, without search: ")
