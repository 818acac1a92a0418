"""A whole board played in a real browser against single-dummy bots (issue 47): the person
sits East and defends; North-South (SAYC bots) declare, so the bots play declarer, dummy
and West single dummy. Every bot card on the page is replayed through the rules (legal, from the hand on
play), and the IMPs shown follow from the played result."""

from __future__ import annotations

import pytest

from bidlab.agents.sayc import SaycAgent
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board
from bidlab.bridge.play import CardPlay
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cards import Card, Deal, Seat
from bidlab.dd import dd_table
from tests.live_server import live_server
from tests.scalar_bidding import bid_scalar
from tests.web.chromium import CHROMIUM
from tests.web.test_browser import (
    TEN_CARD_DEAL,
    _calls_on_page,
    _click_cards_to_the_end,
    _deal_from_form,
    _pass_until_the_play,
)

pytestmark = [
    pytest.mark.filterwarnings("ignore:.*httpx2.*"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"),
]

_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


@pytest.fixture(scope="module")
def server(app):
    with live_server(app) as url:
        yield url


def _card(text: str) -> Card:
    t = text.strip()
    return Card.parse(_SUIT.get(t[0], t[0]) + t[1:])


def test_a_whole_board_against_single_dummy_bots(server, browser):
    pg = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(server + "/")
        pg.wait_for_selector("[data-testid=seat-E] option[value=you]", state="attached")
        assert not pg.is_checked("[data-testid=dd-bots]")   # single-dummy bots by default
        _deal_from_form(pg, TEN_CARD_DEAL, {"N": "sayc", "E": "you", "S": "sayc", "W": "sayc"}, play=True)
        _pass_until_the_play(pg)
        auction = Auction(Seat.N, _calls_on_page(pg))
        contract = auction.contract
        # SAYC's North and South reach a game: the bots declare, dummy and West are bots too
        assert contract is not None and contract.declarer in (Seat.N, Seat.S), auction.to_str()
        clicked = _click_cards_to_the_end(pg)
        assert clicked == 13 and pg.get_attribute("#playinfo", "data-cards") == "52"

        # Every card on the page, replayed through the rules from the deal.
        deal = Deal.parse(TEN_CARD_DEAL)
        play = CardPlay(deal, contract)
        pg.click("[data-testid=trick-record] summary")
        for i in range(1, 14):
            cells = pg.locator(f"[data-testid=trick-record-{i}] td")
            shown = cells.nth(1).inner_text().split()
            pairs = [(Seat.parse(shown[k]), _card(shown[k + 1])) for k in range(0, len(shown), 2)]
            assert len(pairs) == 4
            for seat, card in pairs:
                assert seat == play.to_play, (i, seat, play.to_play)
                assert card in play.legal_cards(), f"trick {i}: {seat.full_name} played {card}, illegal"
                play.play(card)
            assert cells.nth(2).inner_text().strip() == play.tricks[-1].winner.letter
        ns = play.declarer_tricks

        # The result box: played and double-dummy results side by side, and the IMPs for East-West
        # from the result as played against the other table (four SAYC bots, scored double dummy).
        board = Board.numbered(1, deal)
        dd = dd_table(deal)
        dd_tricks = int(dd[contract.declarer, contract.strain])
        pg.wait_for_selector("[data-testid=played-vs-dd]")
        assert pg.inner_text("[data-testid=played-vs-dd]") == (
            f"played {ns} tricks (single-dummy bots) · double dummy {dd_tricks} tricks")
        other = bid_scalar(board, (SaycAgent(),) * 4).contract
        ns_other = score_contract(other, int(dd[other.declarer, other.strain]) if other else 0, board.vulnerability)
        swing_ew = -imps(score_contract(contract, ns, board.vulnerability) - ns_other)
        assert pg.inner_text("[data-testid=imps-label]") == "IMPs for EW as played"
        assert pg.inner_text("[data-testid=imps]") == (f"{swing_ew:+d}" if swing_ew else "0")
    finally:
        pg.close()
    assert errors == [], errors
