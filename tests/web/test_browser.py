"""A real browser at the table: Debian's chromium (headless, driven by Playwright) bids a whole
auction as South against three SAYC bots by clicking the bidding box, and the contract, DD
table and IMP swing on the page are checked against bidlab's rules, DD solver and agents.

The screenshot goes to ``$BIDLAB_SCREENSHOT`` if set (that is how docs/web.png is made), else
into the test's temporary folder.
"""

from __future__ import annotations

import os
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
from tests.live_server import live_server
from tests.scalar_bidding import bid_scalar
from tests.web.chromium import CHROMIUM, watched_page

BOARD, SEED = 5, 7

pytestmark = [
    pytest.mark.filterwarnings("ignore:.*httpx2.*"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"),
]


@pytest.fixture(scope="module")
def server(app):
    """The app under uvicorn on a free loopback port, in a thread; yields its base URL."""
    with live_server(app) as url:
        yield url


@pytest.fixture(scope="module")
def page(server, browser):
    with watched_page(browser, viewport={"width": 1400, "height": 900}) as pg:
        pg.goto(server + "/")
        yield pg


def _south_bid(page) -> str:
    """South's first call: 1NT or 2D (a transfer after partner's 1NT) if it can be pressed, else the
    cheapest bid that can."""
    for call in ("1NT", "2D"):
        if page.is_enabled(f"[data-testid=bid-{call}]"):
            return call
    return page.locator("[data-testid=bidbox] button:not([disabled])").first.get_attribute("data-call")


def test_the_page_in_a_real_browser(page, tmp_path, results_dir):
    """One browser session (xdist would otherwise start one per worker): bid a board, make a bad
    request, browse the matches."""
    bid_a_whole_auction_as_south_by_clicking(page, tmp_path)
    a_bad_deal_shows_the_error_and_the_page_stays_usable(page)
    matches_view_lists_the_match_and_shows_its_plots(page, results_dir)
    the_api_docs_render_from_local_files(page)


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
    text = page.inner_text("[data-testid=why-text]")
    rule = page.get_attribute("[data-testid=why-text]", "title")
    call = auction.calls[bot_index].to_str()
    assert "[" not in text and f"{call}: {text} [{rule.removeprefix('rule ')}]" == sayc.explain(view)
    page.check("[data-testid=reveal]")
    for seat in Seat:
        text = page.inner_text(f"[data-testid=hand-{seat.letter}]")
        assert f"{deal[seat].hcp} HCP" in text and "hidden" not in text

    shot = Path(os.environ.get("BIDLAB_SCREENSHOT") or tmp_path / "web.png")
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes().startswith(b"\x89PNG")


def _error_shows_then_clears(page, fragment: str, mend) -> None:
    """Dealing shows an error naming ``fragment``; after ``mend(page)`` a new deal clears it."""
    page.click("[data-testid=deal-button]")
    page.wait_for_selector("[data-testid=error]:not(.hidden)")
    assert fragment in page.inner_text("[data-testid=error]")
    mend(page)
    page.click("[data-testid=deal-button]")
    page.wait_for_selector("[data-testid=error].hidden", state="attached")


def a_bad_deal_shows_the_error_and_the_page_stays_usable(page):
    page.fill("[data-testid=deal]", "N:AKQ nonsense")
    _error_shows_then_clears(page, "malformed PBN deal", lambda pg: pg.fill("[data-testid=deal]", ""))
    page.wait_for_selector("[data-testid=bid-Pass]:not([disabled])")


def matches_view_lists_the_match_and_shows_its_plots(page, results_dir):
    page.click("[data-testid=tab-matches]")
    page.click("[data-testid=match-row]")
    page.wait_for_selector("[data-testid=match-summary]")
    assert "IMPs/board for random over 6 boards" in page.inner_text("[data-testid=match-summary]")
    # The report is rendered Markdown with its plots, not raw Markdown text.
    page.wait_for_function("[...document.querySelectorAll('.report-html img')].length >= 3 && "
                           "[...document.querySelectorAll('.report-html img')].every(i => i.complete && i.naturalWidth > 0)")
    assert page.locator(".report-html table th").count() >= 6 and "|---" not in page.inner_text(".report-html")
    assert page.inner_text("[data-testid=boards-range]") == "boards 1–6 of 6"
    # Any board opens: its deal and both rooms' auctions, the same as the results file.
    page.click("[data-testid=match-board-4]")
    page.wait_for_selector("[data-testid=match-room-closed-line]")
    from bidlab.eval.match import load_results

    _, records = load_results(next(Path(results_dir).glob("*/results.jsonl")))
    rec = next(r for r in records if r["board"] == 4)
    deal = Deal.parse(rec["deal"])
    for seat in Seat:
        assert f"{deal[seat].hcp} HCP" in page.inner_text(f"#mb-hand-{seat.letter}")
    for room in ("open", "closed"):
        shown = page.eval_on_selector_all(f"[data-testid=match-room-{room}] td[data-call]",
                                          "tds => tds.map(td => td.dataset.call)")
        assert " ".join(shown) == rec[room]["auction"]
    page.click("[data-testid=tab-table]")


def the_api_docs_render_from_local_files(page):
    """Swagger UI comes from the package, so /docs renders with no network (it was blank)."""
    base = page.url.split("/#")[0].rstrip("/")
    external = []
    page.on("request", lambda r: external.append(r.url) if not r.url.startswith(base) else None)
    page.goto(base + "/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "bidlab table" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-summary-path")
    assert external == []
    page.goto(base + "/")


def _calls_on_page(page) -> list[str]:
    """The calls in the auction grid, in order."""
    cells = page.eval_on_selector_all("#auction td[data-call]",
                                      "tds => tds.map(td => [Number(td.dataset.index), td.dataset.call])")
    assert [i for i, _ in cells] == list(range(len(cells)))
    return [c for _, c in cells]


# -- a phone, and a whole board played -------------------------------------------------------------

#: North holds ten spades; West is void in two suits (issue 20: long suits overflowed at 390 px).
TEN_CARD_DEAL = "N:AKQJT98765.A.A.A 432.KQJT9.KQJ.KQ .8765432.T98.JT9 ..765432.8765432"


def _deal_from_form(pg, deal: str, seats: dict[str, str], play: bool, dd_bots: bool = False) -> None:
    pg.fill("[data-testid=deal]", deal)
    pg.fill("[data-testid=number]", "1")
    pg.fill("[data-testid=seed]", "1")
    for seat, who in seats.items():
        pg.select_option(f"[data-testid=seat-{seat}]", who)
    if pg.is_checked("[data-testid=play-toggle]") != play:
        pg.click("[data-testid=play-toggle]")
    if pg.is_checked("[data-testid=dd-bots]") != dd_bots:   # the labelled double-dummy setting
        pg.click("[data-testid=dd-bots]")
    pg.click("[data-testid=deal-button]")


def _pass_until_the_play(pg) -> None:
    """Pass at each of the person's turns until the auction is over and the play shows."""
    pg.wait_for_selector("[data-testid=bid-Pass]:not([disabled]), [data-testid=playinfo]:not(.hidden)")
    while pg.is_visible("[data-testid=bid-Pass]"):
        n = len(_calls_on_page(pg))
        pg.click("[data-testid=bid-Pass]")
        pg.wait_for_function("n => document.querySelectorAll('#auction td[data-call]').length > n", arg=n)
        pg.wait_for_selector("[data-testid=bid-Pass]:not([disabled]), [data-testid=playinfo]:not(.hidden)")


def _click_cards_to_the_end(pg) -> int:
    """Click the person's first playable card until the play is over; the number of clicks."""
    clicked = 0
    while pg.get_attribute("#playinfo", "data-over") != "true":
        pg.wait_for_selector(".hand button.card:not([disabled]), #playinfo[data-over=true]")
        if pg.get_attribute("#playinfo", "data-over") == "true":
            break
        before = int(pg.get_attribute("#playinfo", "data-cards"))
        pg.locator(".hand button.card:not([disabled])").first.click()
        clicked += 1
        pg.wait_for_function("n => Number(document.getElementById('playinfo').dataset.cards) > n", arg=before)
    return clicked


def _horizontal_overflow(pg) -> list[str]:
    """Elements whose right edge is past the viewport, and the page's own sideways scroll."""
    return pg.evaluate("""() => {
        const w = document.documentElement.clientWidth, out = [];
        if (document.documentElement.scrollWidth > w) out.push(`page scrollWidth ${document.documentElement.scrollWidth} > ${w}`);
        for (const e of document.querySelectorAll('body *')) {
            const r = e.getBoundingClientRect();
            if (r.width && r.height && r.right > w + 0.5 && getComputedStyle(e).visibility !== 'hidden')
                out.push(`${e.tagName}#${e.id}.${e.className} right ${Math.round(r.right)}`);
        }
        return out;
    }""")



def test_a_phone_sees_the_whole_table_without_sideways_scrolling(server, browser):
    pg = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(server + "/")
        pg.wait_for_selector("[data-testid=seat-S] option[value=you]", state="attached")
        assert _horizontal_overflow(pg) == []
        _deal_from_form(pg, TEN_CARD_DEAL, {"N": "sayc", "E": "sayc", "S": "you", "W": "sayc"}, play=False)
        pg.wait_for_selector("[data-testid=bid-Pass]:not([disabled])")
        # The deal scrolled the table into view: South's hand is on screen, not below the form.
        top = pg.evaluate("document.getElementById('hand-S').getBoundingClientRect().top")
        assert 0 <= top < 844, top
        assert _horizontal_overflow(pg) == []
        while not pg.is_visible("[data-testid=result]"):
            n = len(_calls_on_page(pg))
            pg.click("[data-testid=bid-Pass]")
            pg.wait_for_function("n => document.querySelectorAll('#auction td[data-call]').length > n || "
                                 "!document.getElementById('result').classList.contains('hidden')", arg=n)
            pg.wait_for_selector("[data-testid=result]:not(.hidden), [data-testid=bid-Pass]:not([disabled])")
        pg.check("[data-testid=reveal]")
        assert "AKQJT98765" in pg.inner_text("[data-testid=hand-N]").replace(" ", "").replace("\n", "")
        assert _horizontal_overflow(pg) == []
        # Seat and agent are apart, not run together as "Westsayc".
        for seat in "NESW":
            name, agent = (pg.locator(f"[data-testid=hand-{seat}] .who > *").nth(i).bounding_box() for i in (0, 1))
            assert name["x"] + name["width"] + 2 <= agent["x"] or agent["y"] >= name["y"] + name["height"] - 1
        pg.screenshot(path=str(Path(os.environ.get("BIDLAB_PHONE_SCREENSHOT") or "/tmp/bidlab-phone.png")),
                      full_page=True)
    finally:
        pg.close()
    assert errors == [], errors


def test_play_a_whole_board_against_bots_and_check_the_score(server, browser, tmp_path):
    """Deal with card play on: South passes throughout, North declares with South as dummy, so
    the person plays both hands; 13 tricks are clicked, and the played result on the page is
    checked against ``bidlab score`` for the same contract and trick count. A misclicked first
    card is taken back; the record of tricks lists all 13; the IMP swing shown is the one on the
    result as played (issue 28), with the double-dummy swing labelled beside it."""
    from typer.testing import CliRunner

    from bidlab.cli import app as cli

    pg = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(server + "/")
        pg.wait_for_selector("[data-testid=seat-S] option[value=you]", state="attached")
        _deal_from_form(pg, TEN_CARD_DEAL, {"N": "sayc", "E": "sayc", "S": "you", "W": "sayc"}, play=True,
                        dd_bots=True)
        _pass_until_the_play(pg)
        auction = Auction(Seat.N, _calls_on_page(pg))
        # The auction is over while the cards are played: no "?" waits for another call.
        assert pg.eval_on_selector_all("#auction td", "tds => tds.filter(t => t.textContent === '?').length") == 0
        contract = auction.contract
        assert contract is not None and contract.declarer == Seat.N, auction.to_str()
        # A misclick: the first card is played, then taken back with the bots' cards after it.
        pg.wait_for_selector(".hand button.card:not([disabled])")
        assert not pg.is_visible("[data-testid=undo-card]")
        first = pg.locator(".hand button.card:not([disabled])").first.get_attribute("data-card")
        before = int(pg.get_attribute("#playinfo", "data-cards"))
        pg.locator(".hand button.card:not([disabled])").last.click()
        pg.wait_for_function("n => Number(document.getElementById('playinfo').dataset.cards) > n", arg=before)
        pg.click("[data-testid=undo-card]")
        pg.wait_for_function("n => Number(document.getElementById('playinfo').dataset.cards) === n", arg=before)
        assert pg.locator(".hand button.card:not([disabled])").first.get_attribute("data-card") == first
        assert not pg.is_visible("[data-testid=undo-card]")
        clicked = _click_cards_to_the_end(pg)
        assert pg.get_attribute("#playinfo", "data-cards") == "52" and clicked == 26  # N and S: 13 cards each
        counts = pg.inner_text("[data-testid=trick-count]")
        ns, ew = (int(x) for x in counts.split("tricks")[0].replace("NS", "").replace("EW", "").split("·"))
        assert ns + ew == 13
        pg.wait_for_selector("[data-testid=played-line]")
        line = pg.inner_text("[data-testid=played-line]").replace("\n", "")
        r = CliRunner().invoke(cli, ["score", contract.to_str(), "--tricks", str(ns), "--vul", "none",
                                     "--declarer", "N"])
        assert r.exit_code == 0, r.output
        score = int(r.output.split(":")[-1].split("for")[0])
        over = ns - (contract.level + 6)
        made = "=" if over == 0 else (f"+{over}" if over > 0 else f"\u2212{-over}")
        signed = f"+{score}" if score > 0 else (f"\u2212{-score}" if score < 0 else "0")
        assert line == f"played {contract.to_str(symbols=True)} by N, {made}, NS {signed}"
        dd_tricks = int(dd_table(Deal.parse(TEN_CARD_DEAL))[Seat.N, contract.strain])
        assert pg.inner_text("[data-testid=this-room-line]").replace("\n", "").startswith(
            f"DD {contract.to_str(symbols=True)} by N, {'=' if dd_tricks == contract.level + 6 else ''}")
        # The record of the tricks: 13 lines, whose winners add up to the trick count.
        pg.click("[data-testid=trick-record] summary")
        winners = [pg.locator(f"[data-testid=trick-record-{i}] td").nth(2).inner_text() for i in range(1, 14)]
        assert sum(w in "NS" for w in winners) == ns and pg.locator("[data-testid=trick-record] tr").count() == 14

        # The swing on the result as played, scored here from the tricks on the page; the other
        # table (four SAYC bots: South's stand-in is partner's bot) scored double dummy.
        board = Board.numbered(1, Deal.parse(TEN_CARD_DEAL))
        other = bid_scalar(board, (SaycAgent(),) * 4).contract
        dd = dd_table(board.deal)
        ns_other = score_contract(other, int(dd[other.declarer, other.strain]) if other else 0, board.vulnerability)
        played_swing = imps(score_contract(contract, ns, board.vulnerability) - ns_other)
        dd_swing = imps(score_contract(contract, dd_tricks, board.vulnerability) - ns_other)
        assert pg.inner_text("[data-testid=imps-label]") == "IMPs for NS as played"
        assert pg.inner_text("[data-testid=imps]") == (f"{played_swing:+d}" if played_swing else "0")
        assert pg.inner_text("[data-testid=imps-dd]") == (
            f"double dummy at both tables: {dd_swing:+d}" if dd_swing else "double dummy at both tables: 0")
        assert played_swing != dd_swing  # first-card clicks lose a trick here: the two swings differ
        assert pg.inner_text("[data-testid=played-vs-dd]") == (
            f"played {ns} tricks (double-dummy bots) · double dummy {dd_tricks} tricks")
        pg.screenshot(path=str(tmp_path / "played.png"), full_page=True)
    finally:
        pg.close()
    assert errors == [], errors


def test_the_oracle_punisher_cannot_take_a_seat(server, browser):
    """oracle-punish: reads the hidden hands (a diagnostic for `bidlab match`): typed at a seat
    of the page, the board is refused with the reason, and the page stays usable."""
    with watched_page(browser, viewport={"width": 1400, "height": 900}) as pg:
        pg.goto(server + "/")
        pg.wait_for_selector("[data-testid=seat-E] option[value=sayc]", state="attached")
        pg.select_option("[data-testid=seat-E]", "__custom")
        pg.fill("[data-testid=seat-E-custom]", "oracle-punish:sayc")
        _error_shows_then_clears(pg, "looks at the hidden hands",
                                 lambda p: p.select_option("[data-testid=seat-E]", "sayc"))
