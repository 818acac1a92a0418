"""The JSON API end to end (FastAPI TestClient), with every expected value recomputed from
bidlab's rules, DD solver and agents outside the web package."""

from __future__ import annotations

import numpy as np
import pytest

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc import SaycAgent
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board, Vulnerability, board_dealer, board_vulnerability
from bidlab.bridge.calls import Call, Strain
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cards import Deal, Seat
from bidlab.dd import dd_table, par
from tests.scalar_bidding import bid_scalar

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2.*")

SAYC_VS_YOU = {"N": "sayc", "E": "sayc", "S": "you", "W": "sayc"}


def new_board(client, **body):
    r = client.post("/api/boards", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def call(client, board_id, c):
    return client.post(f"/api/boards/{board_id}/calls", json={"call": c})


def auction_of(state) -> Auction:
    return Auction(state["dealer"], [c["call"] for c in state["calls"]])


def expect_error(r, status, *fragments):
    assert r.status_code == status, r.text
    body = r.json()
    assert body["status"] == status and isinstance(body["error"], str) and body["error"]
    for f in fragments:
        assert f.lower() in body["error"].lower(), body["error"]
    return body


def play_as_south(client, state, first_bid=True):
    """Bid as the person: the cheapest legal bid at the first turn, then pass; check every state."""
    made_bid = not first_bid
    while not state["over"]:
        assert state["your_turn"] and state["to_act"] == "S"
        a = auction_of(state)
        assert state["legal_calls"] == [c.to_str() for c in a.legal_calls()]
        assert [h is not None for h in state["hands"].values()] == [False, False, True, False]
        assert state["deal"] is None and state["result"] is None
        choice = next(c for c in state["legal_calls"] if c[0].isdigit()) if not made_bid else "Pass"
        made_bid = True
        r = call(client, state["id"], choice)
        assert r.status_code == 200, r.text
        new = r.json()
        assert [c["call"] for c in new["calls"][: len(state["calls"]) + 1]] == \
            [c["call"] for c in state["calls"]] + [choice]
        state = new
    return state


def test_full_board_against_sayc_matches_rules_dd_and_other_table(client):
    state = new_board(client, number=5, seed=11, seats=SAYC_VS_YOU)
    deal = Deal.random(11)
    board = Board.numbered(5, deal)
    assert (state["dealer"], state["vulnerability"]) == (board.dealer.letter, board.vulnerability.pbn)
    assert state["hands"]["S"]["pbn"] == deal[Seat.S].to_pbn()
    assert state["hands"]["S"]["hcp"] == deal[Seat.S].hcp

    state = play_as_south(client, state)

    # Every bot call is what a fresh SAYC bidder makes in that position, and "Why?" is its reason.
    auction = auction_of(state)
    assert auction.is_over
    sayc = SaycAgent()
    for i, c in enumerate(state["calls"]):
        seat = Seat.parse(c["seat"])
        assert seat == auction.seat_of(i) and c["bot"] == (seat != Seat.S)
        view = BiddingView(seat, deal[seat], Auction(board.dealer, auction.calls[:i]), board.vulnerability)
        w = client.get(f"/api/boards/{state['id']}/why", params={"index": i})
        if not c["bot"]:
            expect_error(w, 400, "yours")
            continue
        assert Call.parse(c["call"]) == sayc.act(view)
        assert w.status_code == 200, w.text
        shown = w.json()["text"] + (f" [{w.json()['rule']}]" if w.json()["rule"] else "")
        assert shown == sayc.explain(view) and w.json()["agent"] == "sayc"
        assert "[" not in w.json()["text"]  # the rule id is shown on hover only

    # All four hands are shown once the auction is over.
    assert state["deal"] == deal.to_pbn()
    assert {s: h["pbn"] for s, h in state["hands"].items()} == {s.letter: deal[s].to_pbn() for s in Seat}

    # Contract, DD table, par and score, from bidlab.dd and bidlab.bridge directly.
    r = state["result"]
    table = dd_table(deal)
    c = auction.contract
    this = r["this"]
    assert (this["contract"], this["declarer"]) == ((c.to_str(), c.declarer.letter) if c else (None, None))
    tricks = int(table[c.declarer, c.strain]) if c else 0
    assert this["score_ns"] == score_contract(c, tricks, board.vulnerability)
    assert r["dd"] == {st.letter: {s.letter: int(table[s, st]) for s in Seat} for st in Strain}
    p = par(table, board.vulnerability, board.dealer)
    assert r["par_score_ns"] == p.score and r["par_contracts"] == [str(x) for x in p.contracts]

    # The other table: four SAYC bots (the partner's bot stands in for the person).
    other = bid_scalar(board, (SaycAgent(),) * 4)
    assert [x["call"] for x in r["other"]["calls"]] == [x.to_str() for x in other.calls]
    oc = other.contract
    other_score = score_contract(oc, int(table[oc.declarer, oc.strain]) if oc else 0, board.vulnerability)
    assert r["other"]["score_ns"] == other_score and r["other"]["seats"] == {s: "sayc" for s in "NESW"}
    assert r["side"] == "NS" and r["imps"] == imps(this["score_ns"] - other_score)

    # "Why?" works at the other table too, once the auction is over.
    w = client.get(f"/api/boards/{state['id']}/why", params={"index": 0, "table": "other"})
    assert w.status_code == 200 and w.json()["call"] == other.calls[0].to_str()

    # The finished board is still there, unchanged.
    again = client.get(f"/api/boards/{state['id']}").json()
    assert again == state


def test_bots_only_board_is_finished_at_once_and_ties_the_other_table(client):
    s = new_board(client, number=2, seed=4, seats={k: "sayc" for k in "NESW"})
    assert s["over"] and not s["your_turn"] and s["legal_calls"] == []
    r = s["result"]
    assert r["this"]["calls"] == r["other"]["calls"] and r["imps"] == 0


def test_east_west_person_gets_the_swing_for_east_west(client):
    s = new_board(client, number=7, seed=21, seats={"N": "sayc", "E": "you", "S": "sayc", "W": "sayc"})
    while not s["over"]:
        s = call(client, s["id"], "Pass").json()
    r = s["result"]
    assert r["side"] == "EW" and r["other"]["seats"]["E"] == "sayc"
    assert r["imps"] == -imps(r["this"]["score_ns"] - r["other"]["score_ns"])


def test_two_people_see_both_hands_and_call_in_turn(client):
    s = new_board(client, number=1, seed=5, seats={"N": "you", "E": "random", "S": "you", "W": "random"},
                  stand_in="random:7")
    assert [h is not None for h in s["hands"].values()] == [True, False, True, False]
    assert s["stand_in"] == "random:7"
    seen = set()
    while not s["over"]:
        seen.add(s["to_act"])
        s = call(client, s["id"], "Pass").json()
    assert seen == {"N", "S"}
    assert s["result"]["other"]["seats"] == {"N": "random:7", "E": "random", "S": "random:7", "W": "random"}


def test_pasted_pbn_deal_with_explicit_dealer_and_vulnerability(client):
    deal = Deal.random(99)
    text = deal.to_pbn(Seat.E)
    s = new_board(client, deal=text, dealer="W", vulnerability="All", number=1, seats=SAYC_VS_YOU)
    assert (s["dealer"], s["vulnerability"]) == ("W", "All")
    assert s["hands"]["S"]["pbn"] == deal[Seat.S].to_pbn()
    s = play_as_south(client, s, first_bid=False)
    assert s["deal"] == deal.to_pbn()


def test_seeded_random_bots_repeat_and_default_seed_is_reported(client):
    seats = {"N": "random", "E": "random", "S": "you", "W": "random"}
    runs = []
    for _ in range(2):
        s = new_board(client, number=4, seed=123, seats=seats)
        runs.append(play_as_south(client, s, first_bid=False)["calls"])
    assert runs[0] == runs[1]
    unseeded = new_board(client, number=4, seats=seats)
    assert unseeded["hands"]["S"]["pbn"] == Deal.random(unseeded["seed"])[Seat.S].to_pbn()
    assert (unseeded["dealer"], unseeded["vulnerability"]) == (board_dealer(4).letter, board_vulnerability(4).pbn)


def test_random_bot_why_names_the_call_it_made(client):
    s = new_board(client, number=1, seed=8, seats={"N": "random", "E": "sayc", "S": "you", "W": "sayc"})
    s = play_as_south(client, s, first_bid=False)
    north = [c for c in s["calls"] if c["seat"] == "N"]
    assert north
    for c in north:
        if c["bot"]:
            w = client.get(f"/api/boards/{s['id']}/why", params={"index": c["index"]}).json()
            assert w["text"].startswith(f"{c['call']}:") and "uniformly random" in w["text"]


def test_neural_agent_seat_and_its_top_calls(client, models_dir):
    from bidlab.agents.neural import load_neural_agent

    agents = client.get("/api/agents").json()
    assert "nn:tiny" in agents["suggestions"] and agents["models"] == ["tiny"]
    s = new_board(client, number=1, seed=2, seats={"N": "nn:tiny", "E": "sayc", "S": "you", "W": "sayc"})
    s = play_as_south(client, s, first_bid=False)
    net = load_neural_agent(models_dir / "tiny.safetensors")
    deal = Deal.random(2)
    auction = auction_of(s)
    north = [c for c in s["calls"] if c["seat"] == "N"]
    assert north
    for c in north:
        view = BiddingView(Seat.N, deal[Seat.N], Auction(auction.dealer, auction.calls[: c["index"]]),
                           Vulnerability.NONE)
        assert Call.parse(c["call"]) == net.act(view)
        w = client.get(f"/api/boards/{s['id']}/why", params={"index": c["index"]}).json()
        expected = net.top_calls(view, k=5)
        assert [t["call"] for t in w["top_calls"]] == [x.to_str() for x, _ in expected]
        assert np.allclose([t["probability"] for t in w["top_calls"]], [p for _, p in expected])
        assert w["top_calls"][0]["call"] == c["call"]   # greedy: its call is its most probable one
        assert all(Auction(auction.dealer, auction.calls[: c["index"]]).is_legal(Call.parse(t["call"]))
                   for t in w["top_calls"])


def test_sampling_model_given_by_path_repeats_with_the_seed(client, models_dir):
    seats = {"N": f"nn:{models_dir / 'tiny.safetensors'}:sample", "E": "nn:tiny:sample", "S": "sayc", "W": "sayc"}
    runs = [new_board(client, seed=1, seats=seats) for _ in range(2)]
    assert all(r["over"] for r in runs)
    assert runs[0]["calls"] == runs[1]["calls"] and runs[0]["result"] == runs[1]["result"]


def test_a_failing_bot_is_a_500_with_a_message_not_a_crash(client, monkeypatch):
    def broken(self, view):
        raise RuntimeError("rule table missing")

    monkeypatch.setattr(SaycAgent, "call_and_reason", broken)
    r = client.post("/api/boards", json={"seed": 1})
    assert r.status_code == 500
    assert "bot failed" in r.json()["error"] and "rule table missing" in r.json()["error"]


# -- bad input ------------------------------------------------------------------------------------

LIVE_SEED = 20


def _live_board(client) -> dict:
    """A board waiting for South after 1S by North (board 1: North deals). Seeded: the random
    bots' calls (and so which calls are illegal for South) are the same on every run."""
    s = new_board(client, number=1, seed=LIVE_SEED, deal=GOOD_DEAL,
                  seats={"N": "you", "E": "random", "S": "you", "W": "random"})
    s = call(client, s["id"], "1S").json()
    while s["to_act"] != "S":  # East (random) bid; let North pass until it is South's turn
        s = call(client, s["id"], "Pass").json()
    return s


@pytest.fixture()
def live(client):
    return _live_board(client)


def test_the_live_board_repeats(client):
    """The fixture once dealt without a seed, so its random bots made other calls on every run
    and the illegal-call test failed when East happened to double (issue 20)."""
    a, b = _live_board(client), _live_board(client)
    assert {**a, "id": None} == {**b, "id": None}


def test_illegal_calls_are_409_and_leave_the_board_as_it_was(client, live):
    a = auction_of(live)
    assert not a.is_legal(Call.parse("XX"))  # at this seed; the XX check below needs it
    lower = next(c for c in ("1C", "1D", "1H", "1S") if not a.is_legal(Call.parse(c)))
    expect_error(call(client, live["id"], lower), 409, "illegal call", "not higher")
    if a.last_bidder is not None and a.last_bidder.side == Seat.S.side and not a.doubled:
        expect_error(call(client, live["id"], "X"), 409, "your side")
    expect_error(call(client, live["id"], "XX"), 409, "illegal call")
    assert client.get(f"/api/boards/{live['id']}").json() == live


@pytest.mark.parametrize("text", ["7Z", "banana", "8NT", "0S", "XXX"])
def test_malformed_calls_are_400(client, live, text):
    r = call(client, live["id"], text)
    expect_error(r, 400, "not a call")
    assert r.json()["error"].count("not a call") == 1  # once said "not a call: not a call (...)"


def test_calls_after_the_end_are_409(client):
    s = new_board(client, seed=3, seats={k: "sayc" for k in "NESW"})
    expect_error(call(client, s["id"], "Pass"), 409, "auction is over")


GOOD_DEAL = "N:AQ954.KQT8.Q7.83 K72.A74.A832.AJ7 JT3.962.T94.KT52 86.J53.KJ65.Q964"  # Deal.random(42)


@pytest.mark.parametrize("deal,fragment", [
    ("N:AKQ", "4 hands"),
    (GOOD_DEAL[2:], "first seat"),
    (GOOD_DEAL.replace("86.J53.KJ65.Q964", "AQ954.KQT8.Q7.83"), "held twice"),
    (GOOD_DEAL.replace("Q7.83", "Q7.8Z"), "bad rank"),
    (GOOD_DEAL.replace("Q7.83", "Q7.8"), "12 cards"),
    ("N:- - AQ954.KQT8.Q7.83 K72.A74.A832.AJ7", "at most one"),
    ("Q:AQ954.KQT8.Q7.83 K72.A74.A832.AJ7 JT3.962.T94.KT52 86.J53.KJ65.Q964", "first seat"),
])
def test_malformed_pbn_is_400(client, deal, fragment):
    expect_error(client.post("/api/boards", json={"deal": deal}), 400, "malformed PBN deal", fragment)


@pytest.mark.parametrize("spec,fragment", [
    ("foo", "unknown agent"), ("random:abc", "integer seed"), ("sayc:x", "no argument"),
    ("nn:/etc/passwd", "unknown model"), ("nn:../../etc/passwd", "unknown model"), ("nn:", "needs a model"),
    ("nn:tiny/../../x", "unknown model"), ("nn:tiny:weird", "unknown mode 'weird'"),
    ("oracle-punish:sayc", "looks at the hidden hands"), ("sayc+oracle-punish:sayc", "looks at the hidden hands"),
])
def test_unknown_or_unsafe_agents_are_400(client, spec, fragment):
    expect_error(client.post("/api/boards", json={"seats": {"E": spec}}), 400, fragment)


def test_model_files_outside_the_model_folders_are_refused(client, tmp_path):
    from bidlab.nets import build, preset, save_model

    outside = save_model(tmp_path / "outside", build(preset("policy", "tiny")))
    expect_error(client.post("/api/boards", json={"seats": {"E": f"nn:{outside}"}}), 400, "unknown model")


def test_stand_in_must_be_an_agent(client):
    expect_error(client.post("/api/boards", json={"stand_in": "you"}), 400, "stand-in")
    expect_error(client.post("/api/boards", json={"stand_in": "nobody"}), 400, "unknown agent")


def test_unknown_and_malformed_board_ids(client):
    expect_error(client.get("/api/boards/0123456789abcdef"), 404, "unknown board id")
    expect_error(call(client, "0123456789abcdef", "Pass"), 404, "unknown board id")
    expect_error(client.get("/api/boards/0123456789abcdef/why", params={"index": 0}), 404, "unknown board id")
    expect_error(client.get("/api/boards/..%2F..%2Fetc"), 404)
    expect_error(client.get("/api/boards/ZZZ"), 422, "board_id")


@pytest.mark.parametrize("body,fragment", [
    ({"number": 0}, "number"), ({"number": "x"}, "number"), ({"seed": -1}, "seed"),
    ({"dealer": "Q"}, "dealer"), ({"vulnerability": "some"}, "vulnerability"),
    ({"seats": {"N": ""}}, "seats.N"), ({"seats": {"X": "sayc"}}, "seats.X"), ({"colour": "red"}, "colour"),
    ({"deal": "N:" + "A" * 400}, "deal"), ({"seats": {"N": "r" * 300}}, "seats.N"),
])
def test_schema_violations_are_422_naming_the_field(client, body, fragment):
    expect_error(client.post("/api/boards", json=body), 422, fragment)


def test_not_json_is_422(client):
    expect_error(client.post("/api/boards", content=b"{not json", headers={"content-type": "application/json"}),
                 422, "json")


def test_oversized_requests_are_413(client, live):
    big = b'{"call": "' + b"P" * 20000 + b'"}'
    expect_error(client.post(f"/api/boards/{live['id']}/calls", content=big,
                             headers={"content-type": "application/json"}), 413, "over the limit")

    def chunks():  # no Content-Length: the limit holds for a streamed body too
        for _ in range(40):
            yield b" " * 1000

    expect_error(client.post("/api/boards", content=chunks(), headers={"content-type": "application/json"}),
                 413, "over the limit")
    assert client.get(f"/api/boards/{live['id']}").json() == live


def test_why_bad_requests(client, live):
    n = len(live["calls"])
    r = client.get(f"/api/boards/{live['id']}/why", params={"index": n})
    expect_error(r, 404, "no call")
    assert r.json()["error"].startswith(f"this table's auction has {n} calls")  # once "the this table's"
    expect_error(client.get(f"/api/boards/{live['id']}/why", params={"index": 0}), 400, "yours")
    expect_error(client.get(f"/api/boards/{live['id']}/why", params={"index": 0, "table": "other"}), 409,
                 "once this table")
    expect_error(client.get(f"/api/boards/{live['id']}/why", params={"index": -1}), 422, "index")
    expect_error(client.get(f"/api/boards/{live['id']}/why", params={"index": 1, "table": "x"}), 422, "table")


def test_unknown_route_is_json_404(client):
    expect_error(client.get("/api/nothing"), 404, "/api/nothing")


# -- bounded state ---------------------------------------------------------------------------------

def test_board_store_drops_the_least_recently_used(results_dir):
    from fastapi.testclient import TestClient

    from bidlab.web import create_app

    with TestClient(create_app(results_dir=results_dir, model_dirs=[], max_boards=3)) as c:
        ids = [c.post("/api/boards", json={"seed": i}).json()["id"] for i in range(3)]
        assert c.get(f"/api/boards/{ids[0]}").status_code == 200       # now the most recently used
        ids.append(c.post("/api/boards", json={"seed": 9}).json()["id"])
        assert c.get(f"/api/boards/{ids[1]}").status_code == 404       # the least recently used went
        assert all(c.get(f"/api/boards/{i}").status_code == 200 for i in (ids[0], ids[2], ids[3]))
        assert len(c.app.state.store) == 3


# -- matches ---------------------------------------------------------------------------------------

def test_matches_list_summary_and_plots(client, results_dir):
    from bidlab.eval.match import load_results, summarize

    listing = client.get("/api/matches").json()
    assert [m["name"] for m in listing["matches"]] == ["m-random-sayc"] and listing["errors"] == []
    header, records = load_results(results_dir / "m-random-sayc")
    expected = summarize(records, "random", "sayc")
    m = listing["matches"][0]
    assert (m["agent_a"], m["agent_b"], m["boards"]) == ("random", "sayc", 6)
    assert m["imps_per_board"] == pytest.approx(expected.imps_per_board)
    assert m["standard_error"] == pytest.approx(expected.standard_error)

    d = client.get("/api/match", params={"name": "m-random-sayc"}).json()
    assert d["report_error"] is None and d["match"] == m
    assert [b["imps_a"] for b in d["boards"]] == [r["imps_a"] for r in records]
    assert len(d["plots"]) >= 3 and "# bidlab match report" in d["report"]
    for url in d["plots"]:
        png = client.get(url)
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png.content.startswith(b"\x89PNG")
    for plot in ("../summary.md", "/etc/passwd", "x.png", "summary.md", "..%2Fx.png", "../../" + d["plots"][0]):
        expect_error(client.get("/api/match/plot", params={"name": "m-random-sayc", "plot": plot}), 404)


@pytest.mark.parametrize("name", ["..", "../", "/etc", "/etc/passwd", "m-random-sayc/..", "m-random-sayc/chunks",
                                  ".", "nope"])
def test_match_names_outside_the_listing_are_404(client, name):
    expect_error(client.get("/api/match", params={"name": name}), 404, "no match named")




def test_results_reached_through_a_symlink_out_of_the_results_dir_are_not_listed(tmp_path, results_dir):
    import shutil

    from fastapi.testclient import TestClient

    from bidlab.web import create_app

    outside = tmp_path / "outside"
    shutil.copytree(results_dir / "m-random-sayc", outside / "m")
    root = tmp_path / "results"
    root.mkdir()
    (root / "link").symlink_to(outside / "m")
    (root / "broken").mkdir()
    (root / "broken" / "results.jsonl").write_text("not json\n")
    with TestClient(create_app(results_dir=root, model_dirs=[])) as c:
        listing = c.get("/api/matches").json()
        assert listing["matches"] == [] and len(listing["errors"]) == 1 and "broken" in listing["errors"][0]
        expect_error(c.get("/api/match", params={"name": "link"}), 404)


def test_missing_results_dir_lists_nothing(tmp_path):
    from fastapi.testclient import TestClient

    from bidlab.web import create_app

    with TestClient(create_app(results_dir=tmp_path / "none", model_dirs=[])) as c:
        assert c.get("/api/matches").json() == {"matches": [], "interrupted": [], "errors": []}


# -- the page --------------------------------------------------------------------------------------

def test_page_and_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'id="bidbox"' in page.text and "/static/app.js" in page.text
    for f in ("app.js", "style.css"):
        assert client.get(f"/static/{f}").status_code == 200
    expect_error(client.get("/static/../../pyproject.toml"), 404)


# -- fuzzing the live board ------------------------------------------------------------------------

def test_arbitrary_call_text_and_why_indexes_never_crash_a_live_board(client, live):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    board_id = live["id"]
    n = len(live["calls"])

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(text=st.one_of(st.text(max_size=12), st.sampled_from(["1C", "1S", "X", "XX", "8C", "Pass", "p", "3♠"])),
           index=st.integers(-5, n + 5), table=st.sampled_from(["this", "other", "x"]))
    def probe(text, index, table):
        state = client.get(f"/api/boards/{board_id}").json()
        r = client.post(f"/api/boards/{board_id}/calls", json={"call": text})
        assert r.status_code in (200, 400, 409, 422), r.text
        body = r.json()
        if r.status_code == 200:
            assert body["calls"][len(state["calls"])]["call"] == Call.parse(text).to_str()
        else:
            assert body["error"] and client.get(f"/api/boards/{board_id}").json() == state
        w = client.get(f"/api/boards/{board_id}/why", params={"index": index, "table": table})
        assert w.status_code in (200, 400, 404, 409, 422), w.text

    probe()


# -- the command -----------------------------------------------------------------------------------

def test_serve_binds_loopback_by_default(monkeypatch, tmp_path):
    import uvicorn
    from typer.testing import CliRunner

    import bidlab.cli.web as web_cli
    from bidlab.cli import app as cli

    seen = {}

    class FakeSocket:
        def __init__(self, host, port):
            self.addr = (host, port)

        def getsockname(self):
            return self.addr

        def close(self):
            pass

    def fake_bind(host, port):
        seen.update(host=host, port=port)
        return FakeSocket(host, port)

    monkeypatch.setattr(web_cli, "bind_port", fake_bind)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: seen.update(app=self.config.app))
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["serve"])
    assert r.exit_code == 0, r.output
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 8000) and "http://127.0.0.1:8000/" in r.output
    r = CliRunner().invoke(cli, ["serve", "--port", "8123", "--results", str(tmp_path), "--max-boards", "5"])
    assert r.exit_code == 0 and seen["port"] == 8123 and seen["app"].state.store.capacity == 5


def test_bind_port_listens_on_loopback_and_refuses_a_busy_port():
    from bidlab.cli.web import PortError, bind_port

    sock = bind_port("127.0.0.1", 0)
    try:
        host, port = sock.getsockname()[:2]
        assert host == "127.0.0.1" and port > 0
        with pytest.raises(PortError, match=f"port {port} on 127.0.0.1 is busy"):
            bind_port("127.0.0.1", port)
    finally:
        sock.close()


# -- any agent at any seat ---------------------------------------------------------------------------

def test_any_mix_of_people_and_agents_keeps_the_board_consistent(client):
    """Property: whoever sits where and whatever legal calls the people make, the board's state
    follows the rules, and the result agrees with its own auctions, the DD table and the IMP table."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    who = st.sampled_from(["you", "sayc", "random", "nn:tiny", "nn:tiny:sample"])

    @settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(seats=st.tuples(who, who, who, who), number=st.integers(1, 32), seed=st.integers(0, 2**32),
           picks=st.lists(st.integers(0, 40), min_size=40, max_size=40))
    def check(seats, number, seed, picks):
        s = new_board(client, number=number, seed=seed, seats=dict(zip("NESW", seats)))
        humans = {x for x, w in zip("NESW", seats) if w == "you"}
        turn = 0
        while not s["over"]:
            assert s["to_act"] in humans and s["your_turn"]
            assert {x for x, h in s["hands"].items() if h is not None} == humans
            legal = s["legal_calls"]
            assert legal == [c.to_str() for c in auction_of(s).legal_calls()]
            # Mostly pass (auctions end), sometimes any legal call.
            pick = picks[turn % len(picks)]
            choice = legal[pick % len(legal)] if pick % 4 == 0 else "Pass"
            turn += 1
            s = call(client, s["id"], choice).json()
        a = auction_of(s)
        assert a.is_over and s["legal_calls"] == [] and s["to_act"] is None
        r = s["result"]
        deal = Deal.parse(s["deal"])
        vul = Vulnerability.parse(s["vulnerability"])
        for room in (r["this"], r["other"]):
            ra = Auction(s["dealer"], [c["call"] for c in room["calls"]])
            c = ra.contract
            tricks = r["dd"][c.strain.letter][c.declarer.letter] if c else None
            assert room["tricks"] == tricks
            assert room["score_ns"] == score_contract(c, tricks or 0, vul)
        assert r["this"]["calls"] == s["calls"]
        swing = imps(r["this"]["score_ns"] - r["other"]["score_ns"])
        assert r["imps"] == (swing if r["side"] == "NS" else -swing)
        assert r["other"]["seats"] == {x: (s["stand_in"] if w == "you" else w) for x, w in zip("NESW", seats)}
        assert sorted(h["pbn"] for h in s["hands"].values()) == sorted(deal[x].to_pbn() for x in Seat)
        for c in s["calls"][:12]:
            w = client.get(f"/api/boards/{s['id']}/why", params={"index": c["index"]})
            assert w.status_code == (200 if c["bot"] else 400), w.text
            if c["bot"]:
                assert w.json()["call"] == c["call"] and w.json()["text"].startswith(c["call"] + ":")
                assert (w.json()["top_calls"] is not None) == w.json()["agent"].startswith("nn:")

    check()


def test_a_punisher_takes_a_seat_and_the_judge_may_not_be_named(client):
    s = new_board(client, number=3, seed=5, seats={"N": "punish:sayc?threshold=1", "E": "sayc", "S": "you",
                                                   "W": "punish:nn:tiny"})
    assert s["seats"]["N"] == "punish:sayc?threshold=1" and not s["over"]
    expect_error(client.post("/api/boards", json={"seats": {"E": "punish:sayc?judge=/etc/passwd"}}), 400,
                 "may not name files")
