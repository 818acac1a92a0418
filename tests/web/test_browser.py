"""A real browser at the table: Debian's chromium (headless, driven by Playwright) bids a whole
auction as South against three SAYC bots by clicking the bidding box, and the contract, DD
table and IMP swing on the page are checked against bidlab's rules, DD solver and agents.

The screenshot goes to ``$BIDLAB_SCREENSHOT`` if set (that is how docs/web.png is made), else
into the test's temporary folder.
"""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc import SaycAgent
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board
from bidlab.bridge.calls import Strain
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cards import Deal, Seat
from bidlab.dd import dd_table
from tests.scalar_bidding import bid_scalar

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BOARD, SEED = 5, 7

pytestmark = [
    pytest.mark.filterwarnings("ignore:.*httpx2.*"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"),
]


@pytest.fixture(scope="module")
def server(app):
    """The app under uvicorn on a free loopback port, in a thread; yields its base URL."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    ready = threading.Event()

    def wait_started():
        while not srv.started and thread.is_alive():
            ready.wait(0.05)

    wait_started()
    assert srv.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=30)
    sock.close()


@pytest.fixture(scope="module")
def page(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        pg = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(server + "/")
        yield pg
        browser.close()
        assert errors == [], errors


def _south_bid(page) -> str:
    """South's first call: 1NT or 2D (a transfer after partner's 1NT) if it can be pressed, else the
    cheapest bid that can."""
    for call in ("1NT", "2D"):
        if page.is_enabled(f"[data-testid=bid-{call}]"):
            return call
    return page.locator("[data-testid=bidbox] button:not([disabled])").first.get_attribute("data-call")


def test_the_page_in_a_real_browser(page, tmp_path):
    """One browser session (xdist would otherwise start one per worker): bid a board, make a bad
    request, browse the matches."""
    bid_a_whole_auction_as_south_by_clicking(page, tmp_path)
    a_bad_deal_shows_the_error_and_the_page_stays_usable(page)
    matches_view_lists_the_match_and_shows_its_plots(page)


def bid_a_whole_auction_as_south_by_clicking(page, tmp_path):
    page.fill("[data-testid=number]", str(BOARD))
    page.fill("[data-testid=seed]", str(SEED))
    for seat, who in (("N", "sayc"), ("E", "sayc"), ("S", "you"), ("W", "sayc")):
        page.select_option(f"[data-testid=seat-{seat}]", who)
    page.click("[data-testid=deal-button]")

    # Only South's hand shows; the bidding box offers exactly the legal calls.
    page.wait_for_selector("[data-testid=bid-Pass]:not([disabled])")
    deal = Deal.random(SEED)
    board = Board.numbered(BOARD, deal)
    assert "hidden" in page.inner_text("[data-testid=hand-N]")
    assert deal[Seat.S].hcp == int(page.inner_text("[data-testid=hand-S]").split("HCP")[0].split()[-1])

    clicked = []
    first = True
    while not page.is_visible("[data-testid=result]"):
        page.wait_for_selector("[data-testid=result]:not(.hidden), [data-testid=bid-Pass]:not([disabled])")
        if page.is_visible("[data-testid=result]"):
            break
        auction = Auction(board.dealer, _calls_on_page(page))
        enabled = page.eval_on_selector_all("[data-testid=bidbox] button:not([disabled])",
                                            "bs => bs.map(b => b.dataset.call)")
        assert sorted(enabled) == sorted(c.to_str() for c in auction.legal_calls())
        choice = _south_bid(page) if first else "Pass"
        first = False
        clicked.append(choice)
        page.click(f"[data-testid=bid-{choice}]")
        page.wait_for_function("n => document.querySelectorAll('#auction td[data-call]').length > n",
                               arg=len(auction.calls))

    # The auction on the page: South's clicks, and what SAYC bots make in every other turn.
    calls = _calls_on_page(page)
    auction = Auction(board.dealer, calls)
    assert auction.is_over
    sayc = SaycAgent()
    replay = Auction(board.dealer)
    south = iter(clicked)
    for c in auction.calls:
        seat = replay.to_act
        expected = next(south) if seat == Seat.S else sayc.act(
            BiddingView(seat, deal[seat], replay, board.vulnerability)).to_str()
        assert c.to_str() == expected
        replay = replay.with_call(c)

    # Contract and declarer.
    table = dd_table(deal)
    contract = auction.contract
    shown = page.inner_text("[data-testid=this-room-contract]").replace("\n", "")
    if contract is None:
        assert shown == "Passed out"
    else:
        symbol = contract.strain.symbol
        assert shown == f"{contract.level}{symbol}{'X' * contract.doubled} by {contract.declarer.full_name}"
    tricks = int(table[contract.declarer, contract.strain]) if contract else 0
    ns_here = score_contract(contract, tricks, board.vulnerability)
    assert page.inner_text("[data-testid=this-room-score]") == f"NS {ns_here:+d}"

    # The DD table, cell by cell.
    for seat in Seat:
        for strain in Strain:
            cell = page.inner_text(f"[data-testid=dd-{seat.letter}-{strain.letter}]")
            assert int(cell) == int(table[seat, strain]), (seat, strain)

    # The other table (four SAYC bots) and the IMP swing for North-South.
    other = bid_scalar(board, (SaycAgent(),) * 4)
    oc = other.contract
    ns_there = score_contract(oc, int(table[oc.declarer, oc.strain]) if oc else 0, board.vulnerability)
    assert page.inner_text("[data-testid=other-room-score]") == f"NS {ns_there:+d}"
    swing = imps(ns_here - ns_there)
    assert page.inner_text("[data-testid=imps]") == (f"{swing:+d}" if swing else "0")

    # "Why?" on a bot call shows the SAYC rule's reason; the reveal toggle shows every hand.
    bot_index = next(i for i in range(len(auction.calls)) if auction.seat_of(i) != Seat.S)
    page.click(f"[data-testid=why-this-{bot_index}]")
    page.wait_for_selector("[data-testid=why-text]")
    seat = auction.seat_of(bot_index)
    view = BiddingView(seat, deal[seat], Auction(board.dealer, auction.calls[:bot_index]), board.vulnerability)
    assert page.inner_text("[data-testid=why-text]") == sayc.explain(view)
    page.check("[data-testid=reveal]")
    for seat in Seat:
        text = page.inner_text(f"[data-testid=hand-{seat.letter}]")
        assert f"{deal[seat].hcp} HCP" in text and "hidden" not in text

    shot = Path(os.environ.get("BIDLAB_SCREENSHOT") or tmp_path / "web.png")
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes().startswith(b"\x89PNG")


def a_bad_deal_shows_the_error_and_the_page_stays_usable(page):
    page.fill("[data-testid=deal]", "N:AKQ nonsense")
    page.click("[data-testid=deal-button]")
    page.wait_for_selector("[data-testid=error]:not(.hidden)")
    assert "malformed PBN deal" in page.inner_text("[data-testid=error]")
    page.fill("[data-testid=deal]", "")
    page.click("[data-testid=deal-button]")
    page.wait_for_selector("[data-testid=error].hidden", state="attached")
    page.wait_for_selector("[data-testid=bid-Pass]:not([disabled])")


def matches_view_lists_the_match_and_shows_its_plots(page):
    page.click("[data-testid=tab-matches]")
    page.click("[data-testid=match-row]")
    page.wait_for_selector("[data-testid=match-summary]")
    assert "IMPs/board for random over 6 boards" in page.inner_text("[data-testid=match-summary]")
    page.wait_for_function("[...document.querySelectorAll('.plots img')].length >= 3 && "
                           "[...document.querySelectorAll('.plots img')].every(i => i.complete && i.naturalWidth > 0)")
    page.click("[data-testid=tab-table]")


def _calls_on_page(page) -> list[str]:
    """The calls in the auction grid, in order."""
    cells = page.eval_on_selector_all("#auction td[data-call]",
                                      "tds => tds.map(td => [Number(td.dataset.index), td.dataset.call])")
    assert [i for i, _ in cells] == list(range(len(cells)))
    return [c for _, c in cells]
