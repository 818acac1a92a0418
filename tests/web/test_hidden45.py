"""Nothing hidden is shown (issue 45): a real browser plays a Spades round and a bridge board
through the pages, every API response the pages receive is read, and the test fails on any
card the person may not see yet.

The truth comes from outside the pages: the Spades game is rebuilt from its seed (the same
deal), and the bridge board's deal is the one the test types into the form. A card may show
once it is played; a hand may show when the rules of the table show it (the person's own,
dummy after the opening lead, the hands the person plays), and every hand once the board is
over. Before the fix the Spades page's "Why your partner bid that" listed North's holdings.
"""

from __future__ import annotations

import json
import re

import pytest

from bidlab.cards import Deal, Seat
from tests.live_server import live_server
from tests.web.chromium import CHROMIUM

pytestmark = [
    pytest.mark.filterwarnings("ignore:.*httpx2.*"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"),
]

STEP_MS = 60_000
SPADES_SEED = 11
RANKS = "23456789TJQKA"
SUIT_OF = {"♣": 0, "♦": 1, "♥": 2, "♠": 3}
# "A♥", "10♠" (a card named), and "♥  AKQ2" / "♥AKQ2" (a holding written after its suit)
CARD_TEXT = re.compile(r"(10|[2-9TJQKA])([♠♥♦♣])")
HOLDING_TEXT = re.compile(r"([♠♥♦♣])\s*([2-9TJQKA]{1,13})\b")
SPADE_HONOURS_TEXT = re.compile(r"spade honours ([2-9TJQKA]{1,13})\b")   # BIS's "spade honours AJ953"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from bidlab.web import create_app
    from bidlab.web.agents import shipped_models_dir

    app = create_app(results_dir=tmp_path_factory.mktemp("results45"), model_dirs=[shipped_models_dir()],
                     meaning_samples=32, meaning_wait=120.0)
    with live_server(app) as url:
        yield url


class Responses:
    """Every /api/ response of a page, read in the order they came."""

    def __init__(self, page):
        self._pending = []
        page.on("response", lambda r: self._pending.append(r) if "/api/" in r.url else None)

    def take(self) -> list[tuple[str, object]]:
        out = []
        for r in self._pending:
            try:
                out.append((r.url, json.loads(r.text())))
            except ValueError:
                continue
        self._pending.clear()
        return out


def _strings(obj, skip=()):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k not in skip:
                yield from _strings(v, skip)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v, skip)


def cards_named(text: str) -> set[int]:
    """Card indices (suit * 13 + rank, clubs first) a text names, alone or in a holding."""
    out = {SUIT_OF[s] * 13 + RANKS.index("T" if r == "10" else r) for r, s in CARD_TEXT.findall(text)}
    for s, ranks in HOLDING_TEXT.findall(text):
        out |= {SUIT_OF[s] * 13 + RANKS.index(r) for r in ranks}
    for ranks in SPADE_HONOURS_TEXT.findall(text):
        out |= {3 * 13 + RANKS.index(r) for r in ranks}
    return out


# -- Spades ------------------------------------------------------------------------------------


def _spades_truth():
    from bidlab.web.spades import SpadesGame

    g = SpadesGame("rb", "srp", 200, SPADES_SEED)   # the page's defaults and the seed typed below
    return g.hands


def _spades_card(text: str) -> int:
    return "CDHS".index(text[0]) * 13 + RANKS.index(text[1])


def _check_spades(responses, hands, played: set[int]) -> None:
    south = hands[2]
    for url, body in responses:
        if not isinstance(body, dict) or "phase" not in body:
            continue
        for t in body.get("trick", []) + body.get("last_trick", []):
            played.add(_spades_card(t["card"]))
        mine = {_spades_card(c) for c in body["hand"]}
        assert all(south >> c & 1 for c in mine), f"{url}: a card not South's in 'hand'"
        if body["phase"] in ("round_over", "over"):
            continue
        hidden = {c for seat in (0, 1, 3) for c in range(52) if hands[seat] >> c & 1} - played
        for text in _strings(body, skip=("hand", "legal", "trick", "last_trick")):
            leak = cards_named(text) & hidden
            assert not leak, f"{url} names hidden cards {sorted(leak)} in: {text[:300]!r}"


@pytest.mark.parametrize("width", [1280, 390])
def test_the_spades_page_shows_no_hidden_card(server, browser, width):
    from tests.web.test_browser_pages import _phase, _play_spades_round

    hands = _spades_truth()
    pg = browser.new_page(viewport={"width": width, "height": 900})
    seen = Responses(pg)
    played: set[int] = set()
    try:
        pg.goto(server + "/spades")
        pg.fill("[data-testid=seed]", str(SPADES_SEED))
        pg.click("[data-testid=new-game]")
        pg.wait_for_selector("[data-testid=status][data-phase]", timeout=STEP_MS)
        _check_spades(seen.take(), hands, played)
        why = pg.inner_text("[data-testid=why]")
        north = {c for c in range(52) if hands[0] >> c & 1}
        assert not cards_named(why) & north, why
        _play_spades_round(pg)
        assert _phase(pg) in ("round_over", "over")
        _check_spades(seen.take(), hands, played)
    finally:
        pg.close()


# -- bridge ------------------------------------------------------------------------------------

#: North and South hold the strength, so the auction has bids and a play.
BRIDGE_DEAL = "N:AKQ2.KQJ3.A54.K2 J943.874.KJ3.Q95 T87.A62.Q87.AJ76 65.T95.T962.T843"


def _check_bridge(responses, deal: Deal) -> bool:
    """Checks each board response (and every other one) for hands the person may not see;
    True once a response says the board is over."""
    over = False
    pbns = {s: (deal[s].to_pbn(), deal[s].to_symbols()) for s in Seat}
    for url, body in responses:
        if isinstance(body, dict) and "hands" in body and "over" in body:
            if body["over"]:
                over = True
                continue
            assert body.get("deal") is None, f"{url}: the deal is sent before the board is over"
            play = body.get("play")
            for letter, hand in body["hands"].items():
                if hand is None or letter == "S":
                    continue
                # another hand only in the play: dummy after the opening lead, or a hand South plays
                assert play is not None, f"{url}: {letter}'s hand is sent during the auction"
                started = bool(play.get("tricks")) or bool(play.get("trick"))
                assert (letter == play["dummy"] and started) or play.get("declarer") in ("N", "S"), \
                    f"{url}: {letter}'s hand is sent in the play before it may be seen"
        if over:
            continue
        for text in _strings(body, skip=("hands",)):   # the hands were checked above
            for s in (Seat.N, Seat.E, Seat.W):
                assert not any(form in text for form in pbns[s]), f"{url}: {s.letter}'s hand in {text[:200]!r}"
    return over


@pytest.mark.parametrize("width", [390, 1280])
def test_the_bridge_page_shows_no_hidden_hand_before_the_end(server, browser, width):
    from tests.web.test_browser import _deal_from_form

    deal = Deal.parse(BRIDGE_DEAL)
    pg = browser.new_page(viewport={"width": width, "height": 900})
    seen = Responses(pg)
    try:
        pg.goto(server + "/")
        pg.wait_for_selector("[data-testid=seat-S] option[value=you]", state="attached")
        _deal_from_form(pg, BRIDGE_DEAL, {"N": "nn:partner", "E": "nn:rl", "S": "you", "W": "nn:rl"}, play=True)
        over = False
        whys = 0
        for _ in range(200):
            pg.wait_for_selector("[data-testid=result]:not(.hidden), [data-testid=bidbox] button:not([disabled]), "
                                 "[data-testid=hand-S] button.card:not([disabled]), "
                                 "[data-testid=hand-N] button.card:not([disabled])", timeout=STEP_MS)
            # every bot call's "Why?", once
            links = pg.locator("[data-testid^=why-this-]")
            while whys < links.count():
                links.nth(whys).click()
                pg.wait_for_selector("[data-testid=why-meaning]", timeout=STEP_MS)
                # the page shows what the call means: an HCP range and example hands
                assert " HCP, " in pg.inner_text("[data-testid=why-meaning]")
                assert pg.locator("[data-testid=why-examples] .example-hand").count() >= 2
                whys += 1
            over = _check_bridge(seen.take(), deal) or over
            if pg.is_visible("[data-testid=result]"):
                break
            card = pg.locator("[data-testid=hand-S] button.card:not([disabled]), "
                              "[data-testid=hand-N] button.card:not([disabled])")
            if card.count():
                card.first.click()
            else:
                pg.locator("[data-testid=bidbox] button:not([disabled])").first.click() \
                    if not pg.is_enabled("[data-testid=bid-Pass]") else pg.click("[data-testid=bid-Pass]")
            pg.wait_for_timeout(150)
        over = _check_bridge(seen.take(), deal) or over
        assert over and whys >= 3
    finally:
        pg.close()
