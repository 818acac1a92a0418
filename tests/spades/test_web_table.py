"""The web app's Spades table: a person at South with a BIS partner against two bots.

The API test replays the round with bidlab's own engine, bidders and scoring (the oracle);
the browser test plays one whole round in headless Chromium by clicking, as a person would.
"""

from __future__ import annotations

import os

import pytest

from bidlab.cards import Card
from bidlab.spades.bidders import BidView, RBBidder
from bidlab.spades.bis import BISBidder, BISConfig
from bidlab.spades.rules import Rules, score_round
from tests.live_server import live_server
from tests.web.chromium import CHROMIUM, launch

SEATS = "NESW"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from bidlab.web import create_app

    return create_app(results_dir=tmp_path_factory.mktemp("results"), max_boards=20)


@pytest.fixture()
def client(app):
    from fastapi.testclient import TestClient

    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def _mask(cards: list[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << Card.parse(c).index
    return m


def test_one_round_through_the_api_agrees_with_the_engine(client):
    r = client.post("/api/spades/tables", json={"bots": "rb", "player": "srp", "goal": 200, "seed": 4})
    assert r.status_code == 201, r.text
    g = r.json()
    tid = g["id"]
    hand = _mask(g["hand"])
    assert len(g["hand"]) == 13 and g["phase"] == "bidding" and g["your_turn_to_bid"]
    # Bad moves are refused with a reason, and the game is unchanged.
    assert client.post(f"/api/spades/tables/{tid}/play", json={"card": "SA"}).status_code == 409
    bad = client.post(f"/api/spades/tables/{tid}/bid", json={"bid": 14})
    assert bad.status_code == 400 and "0..13" in bad.json()["error"]
    assert client.post(f"/api/spades/tables/{tid}/next").status_code == 409
    assert client.get("/api/spades/tables/0123456789abcdef").status_code == 404

    g = client.post(f"/api/spades/tables/{tid}/bid", json={"bid": 3}).json()
    dealer = SEATS.index(g["dealer"])
    order = [SEATS.index(s) for s in g["bid_order"]]
    assert order == [(dealer + 1 + i) % 4 for i in range(4)]
    bids = {SEATS.index(s): b for s, b in g["bids"].items()}
    assert bids[2] == 3
    # The bots' hands are not shown; their bids are checked in the next test.
    assert g["partner_explanation"].strip().endswith(f"bid: {'nil' if bids[0] == 0 else bids[0]}")
    assert "regularTakes" in g["partner_explanation"]

    played = 0
    while g["phase"] == "play":
        assert g["to_play"] == "S" and g["legal"]
        assert set(g["legal"]) <= set(g["hand"])
        g = client.post(f"/api/spades/tables/{tid}/play", json={"card": g["legal"][0]}).json()
        played += 1
    assert played == 13 and g["phase"] in ("round_over", "over")
    rnd = g["rounds"][0]
    assert sum(rnd["tricks"]) == 13
    ns, ew = score_round(Rules.paper(), tuple(rnd["bids"]), (False,) * 4, tuple(rnd["tricks"]), (0, 0))
    assert rnd["points"] == [ns.points, ew.points]
    assert [g["scores"]["NS"], g["scores"]["EW"]] == rnd["scores"] == [ns.points, ew.points]
    assert hand  # South's dealt hand was 13 cards (checked above)


def test_partner_and_bot_bids_match_the_bidders():
    """The game object's bots bid exactly as bidlab's bidders do on the same views."""
    from bidlab.web.spades import SpadesGame

    g = SpadesGame("rb", "srp", 200, seed=11)
    prev: list[int] = []
    for seat in g.order:
        view = BidView(seat=seat, hand=g.hands[seat], dealer=g.dealer, prev_bids=tuple(prev),
                       prev_blind=(False,) * len(prev), rules=g.rules)  # fmt: skip
        if seat == 0:
            assert g.bids[0] == BISBidder(BISConfig(conventions=False)).bid(view)
        else:
            assert g.bids[seat] == RBBidder().bid(view)
        prev.append(g.bids[seat])


@pytest.fixture(scope="module")
def server(app):
    """The app under uvicorn on a free loopback port, in a thread; yields its base URL."""
    with live_server(app) as url:
        yield url


@pytest.mark.filterwarnings("ignore:.*httpx2.*")
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_a_round_in_a_real_browser(server, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/spades")
        page.fill("[data-testid=seed]", "5")
        page.click("[data-testid=new-game]")
        page.wait_for_selector("[data-testid=status]:has-text('Your turn to bid')")
        assert page.locator("[data-testid=hand] button").count() == 13
        page.click("[data-testid=bid-button-2]")
        page.wait_for_selector("[data-testid=bid-S]:has-text('2')")
        # Partner's bid and its explanation are on the page.
        why = page.inner_text("[data-testid=why]")
        assert "regularTakes" in why and "nilValue" in why
        partner_bid = page.inner_text("[data-testid=bid-N]")
        assert why.strip().endswith(f"bid: {partner_bid}")
        clicks = 0
        while page.get_attribute("[data-testid=status]", "data-phase") == "play":
            enabled = page.locator("[data-testid=hand] button:not([disabled])")
            n_cards = page.locator("[data-testid=hand] button").count()
            assert enabled.count() >= 1
            enabled.first.click()
            clicks += 1
            page.wait_for_function(
                "n => document.querySelectorAll('[data-testid=hand] button').length < n", arg=n_cards
            )
        assert clicks == 13
        status = page.inner_text("[data-testid=status]")
        assert "Round over" in status or "Game over" in status
        tricks = [int(page.inner_text(f"[data-testid=tricks-{s}]")) for s in SEATS]
        assert sum(tricks) == 13
        row = page.inner_text("[data-testid=rounds] tbody tr")
        assert row.split("\t")[2].split() == [str(t) for t in tricks]
        page.screenshot(path=os.environ.get("BIDLAB_SPADES_SCREENSHOT", str(tmp_path / "spades.png")), full_page=True)
        browser.close()
    assert errors == [], errors
