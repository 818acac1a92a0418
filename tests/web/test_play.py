"""Card play and undo at the web table (issue 20): the rules of play, bots that play
double-dummy cards, the played score, and taking back a call."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidlab.bridge.auction import Contract
from bidlab.bridge.calls import Strain
from bidlab.bridge.scoring import score_contract
from bidlab.cards import Card, Deal, Hand, Seat
from bidlab.dd import dd_table
from bidlab.dd.play import DoubleDummyPlayer, dd_card_values
from bidlab.web.play import CardPlay, trick_winner

DEAL = "N:AQ954.KQT8.Q7.83 K72.A74.A832.AJ7 JT3.962.T94.KT52 86.J53.KJ65.Q964"


def C(text: str) -> Card:
    return Card.parse(text)


def test_trick_winner_hand_worked():
    # Highest of the suit led wins without trumps; a trump beats it; a discard never wins.
    assert trick_winner(Seat.N, (C("H5"), C("HK"), C("H2"), C("SA")), Strain.NOTRUMP) == Seat.E
    assert trick_winner(Seat.N, (C("H5"), C("HK"), C("S2"), C("HA")), Strain.SPADES) == Seat.S
    assert trick_winner(Seat.W, (C("D3"), C("C2"), C("CA"), C("D4")), Strain.HEARTS) == Seat.S
    assert trick_winner(Seat.E, (C("C9"), C("CT"), C("H2"), C("H3")), Strain.HEARTS) == Seat.N


def test_opening_lead_values_agree_with_the_dd_table():
    """The tricks the defence takes with its best opening lead are 13 minus declarer's DD
    tricks (CalcAllTables vs SolveBoard), for three declarer-strain pairs."""
    deal = Deal.parse(DEAL)
    table = dd_table(deal)
    for declarer, strain in ((Seat.N, Strain.SPADES), (Seat.E, Strain.NOTRUMP), (Seat.W, Strain.HEARTS)):
        values = dd_card_values([deal[s] for s in Seat], strain, declarer.lho)
        assert set(values) == set(deal[declarer.lho])
        assert max(values.values()) == 13 - int(table[declarer, strain]), (declarer, strain)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31 - 1), st.sampled_from(list(Strain)), st.sampled_from(list(Seat)),
       st.randoms(use_true_random=False))
def test_bots_playing_every_seat_make_the_dd_tricks(seed, strain, declarer, rnd):
    """All four seats played double dummy: declarer ends with exactly its DD tricks; every card
    played was legal (followed suit when able); 13 tricks of 4 cards."""
    deal = Deal.random(seed)
    play = CardPlay(deal, Contract(1, strain, 0, declarer))
    while not play.is_over:
        seat = play.to_play
        legal = play.legal_cards()
        if play.trick and any(c.suit == play.trick[0].suit for c in play.hands[seat]):
            assert all(c.suit == play.trick[0].suit for c in legal)
        play.play(DoubleDummyPlayer().choose(play).card)
    assert len(play.tricks) == 13 and all(len(t.cards) == 4 for t in play.tricks)
    assert sum(len(h) for h in play.hands) == 0
    assert play.declarer_tricks == int(dd_table(deal)[declarer, strain])


def new_board(client, **body):
    r = client.post("/api/boards", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def _bid_to_a_contract(client, b):
    while not b["auction_over"]:
        b = client.post(f"/api/boards/{b['id']}/calls", json={"call": "Pass"}).json()
    return b


def test_a_played_board_hides_the_hands_until_the_end_and_scores_the_play(client):
    seats = {"N": "sayc", "E": "sayc", "S": "you", "W": "sayc"}
    b = _bid_to_a_contract(client, new_board(client, seed=4, play=True, seats=seats))
    p = b["play"]
    assert p is not None and not b["over"] and b["result"] is None and b["deal"] is None
    played = []
    while not b["over"]:
        p = b["play"]
        assert p["your_turn"] and p["to_play"] in ("N", "S")  # South is dummy or declarer: plays both
        # A defender's hand is never shown to the person during the play.
        assert all(b["hands"][s] is None for s in "EW")
        card = p["legal_cards"][-1]
        played.append(card)
        b = client.post(f"/api/boards/{b['id']}/cards", json={"card": card}).json()
    deal = Deal.parse(b["deal"])
    r = b["result"]["played"]
    c = Contract.parse(b["result"]["this"]["contract"], b["result"]["this"]["declarer"])
    tricks = b["play"]["ns_tricks"] if c.declarer.side == 0 else b["play"]["ew_tricks"]
    assert r["tricks"] == tricks and r["score_ns"] == score_contract(c, tricks, _vul(b["vulnerability"]))
    assert b["play"]["ns_tricks"] + b["play"]["ew_tricks"] == 13
    assert {s: h["pbn"] for s, h in b["hands"].items()} == {s.letter: deal[s].to_pbn() for s in Seat}
    assert len(played) == 26


def _vul(name):
    from bidlab.bridge.board import Vulnerability

    return Vulnerability.parse(name)


def test_bad_cards_are_refused(client):
    seats = {"N": "sayc", "E": "sayc", "S": "you", "W": "sayc"}
    bid_only = _bid_to_a_contract(client, new_board(client, seed=4, seats=seats))
    r = client.post(f"/api/boards/{bid_only['id']}/cards", json={"card": "SA"})
    assert r.status_code == 409 and "bid only" in r.json()["error"]
    b = _bid_to_a_contract(client, new_board(client, seed=4, play=True, seats=seats))
    p = b["play"]
    seat = Seat.parse(p["to_play"])
    held = {str(c) for c in Hand.parse(b["hands"][seat.letter]["pbn"])}
    other = next(str(c) for c in (Card.from_index(i) for i in range(52)) if str(c) not in held)
    r = client.post(f"/api/boards/{b['id']}/cards", json={"card": other})
    assert r.status_code == 409 and "does not hold" in r.json()["error"]
    r = client.post(f"/api/boards/{b['id']}/cards", json={"card": "ZZ"})
    assert r.status_code == 400 and "not a card" in r.json()["error"]
    if p["trick"]:
        led = p["trick"][0]["card"][0]
        off = [c for c in held if c[0] != led]
        if off and any(c[0] == led for c in held):
            r = client.post(f"/api/boards/{b['id']}/cards", json={"card": off[0]})
            assert r.status_code == 409 and "must follow suit" in r.json()["error"]
    assert client.get(f"/api/boards/{b['id']}").json() == b


def test_undo_takes_back_your_last_call_and_the_bots_after_it(client):
    seats = {"N": "sayc", "E": "sayc", "S": "you", "W": "sayc"}
    b = new_board(client, seed=11, seats=seats)
    assert not b["can_undo"]
    r = client.post(f"/api/boards/{b['id']}/undo")
    assert r.status_code == 409 and "no call" in r.json()["error"]
    first = b
    after = client.post(f"/api/boards/{b['id']}/calls", json={"call": "Pass"}).json()
    assert after["can_undo"] and len(after["calls"]) > len(first["calls"])
    back = client.post(f"/api/boards/{b['id']}/undo").json()
    assert back == first
    # Bidding on to the end, then undoing, reopens the auction at South's last call.
    while not after["auction_over"]:
        after = client.post(f"/api/boards/{b['id']}/calls", json={"call": "Pass"}).json()
    assert after["over"] and after["result"] is not None
    back = client.post(f"/api/boards/{b['id']}/undo").json()
    south = [c["index"] for c in after["calls"] if c["seat"] == "S"]
    assert len(back["calls"]) == south[-1] and back["your_turn"] and back["result"] is None


def test_undo_is_refused_once_a_card_is_played(client):
    seats = {"N": "sayc", "E": "sayc", "S": "you", "W": "sayc"}
    b = _bid_to_a_contract(client, new_board(client, seed=4, play=True, seats=seats))
    b = client.post(f"/api/boards/{b['id']}/cards", json={"card": b["play"]["legal_cards"][0]}).json()
    assert not b["can_undo"]
    r = client.post(f"/api/boards/{b['id']}/undo")
    assert r.status_code == 409 and "cards have been played" in r.json()["error"]


@pytest.mark.parametrize("contract, tricks, vul, line", [
    ("2D", 7, "None", "2♦ by N, −1, NS −50"),
    ("4S", 10, "NS", "4♠ by N, =, NS +620"),
    ("3NT", 11, "None", "3NT by N, +2, NS +460"),
    ("1HX", 5, "NS", "1♥X by N, −2, NS −500"),
])
def test_result_lines_in_players_notation(contract, tricks, vul, line):
    from bidlab.web.models import result_line

    c = Contract.parse(contract, "N")
    assert result_line(c, tricks, score_contract(c, tricks, _vul(vul))) == line


def test_a_defender_plays_only_their_own_seat(client):
    """East holds ten spades and declares; South (the person) defends: they play South's 13
    cards, North's are played by its bot, and dummy is shown once the opening lead is made."""
    deal = "N:..765432.8765432 AKQJT98765.A.A.A 432.KQJT9.KQJ.KQ .8765432.T98.JT9"
    b = new_board(client, deal=deal, number=2, play=True,
                  seats={"N": "sayc", "E": "sayc", "S": "you", "W": "sayc"})
    b = _bid_to_a_contract(client, b)
    p = b["play"]
    assert p is not None and p["declarer"] in "EW", b["calls"]
    mine = 0
    while not b["over"]:
        p = b["play"]
        assert p["your_turn"] and p["to_play"] == "S"
        if p["trick"] or p["tricks"]:
            assert b["hands"][p["dummy"]] is not None  # dummy is face up after the opening lead
        assert b["hands"]["N"] is None  # partner's hand stays hidden
        b = client.post(f"/api/boards/{b['id']}/cards", json={"card": p["legal_cards"][0]}).json()
        mine += 1
    assert mine == 13 and b["play"]["ns_tricks"] + b["play"]["ew_tricks"] == 13
