"""The single-dummy card player (issue 47) on hands built for it: where single-dummy and
double-dummy play must differ and single dummy is right, and its hard facts and batching."""

from __future__ import annotations

import numpy as np
import pytest

from bidlab.bridge.auction import Auction
from bidlab.bridge.play import CardPlay
from bidlab.cards import Card, Deal, Hand, Seat
from bidlab.dd.play import dd_card_values
from bidlab.dd.solver import solve_positions
from bidlab.search.cardplay import (
    CardPlayError,
    SingleDummyPlayer,
    card_player,
    equivalent_cards,
    play_out,
)


def deal_of(n: str, e: str, s: str, w: str) -> Deal:
    return Deal.parse(f"N:{n} {e} {s} {w}")


def position(deal: Deal, auction: str, dealer: str, cards: str) -> CardPlay:
    a = Auction.parse(auction, dealer)
    play = CardPlay(deal, a.contract, a, 0)
    for c in cards.split():
        play.play(Card.parse(c))
    return play


# 7NT by South: twelve top tricks; the thirteenth is the heart queen. West leads the heart
# jack through dummy's AQ. The finesse (queen) wins whenever West holds the king, about half
# the layouts; the ace wins the trick only when East's king is singleton. Built so that on
# layout A (East: singleton king) the ace is right double dummy.
NORTH_7NT = "AKQ.AQ.AKQJ.AKQJ"
SOUTH_7NT = "432.32.5432.5432"
KING_SINGLETON_EAST = deal_of(NORTH_7NT, "JT98765.K.T9876.", SOUTH_7NT, ".JT987654..T9876")
KING_WEST = deal_of(NORTH_7NT, "JT98765.4.T9876.", SOUTH_7NT, ".KJT98765..T9876")


@pytest.mark.parametrize("deal", [KING_SINGLETON_EAST, KING_WEST], ids=["king-singleton-east", "king-west"])
def test_percentage_line_whatever_the_layout(deal):
    play = position(deal, "7NT Pass Pass Pass", "S", "HJ")
    assert play.to_play == Seat.N and play.decider == Seat.S
    sd = card_player("sd:fast").choose(play)
    # the finesse, on both layouts: South sees the same cards on each
    assert sd.card == Card.parse("HQ")
    assert sd.tricks[Card.parse("HQ")] > sd.tricks[Card.parse("HA")]
    dd = dd_card_values([Hand(h) for h in play.hands], play.contract.strain, play.leader, play.trick)
    best_dd = max(dd.values())
    if deal is KING_SINGLETON_EAST:   # double dummy rises with the ace and drops the king
        assert dd[Card.parse("HA")] == best_dd > dd[Card.parse("HQ")]
        assert card_player("dd").choose(play).card == Card.parse("HA")
    else:
        assert dd[Card.parse("HQ")] == best_dd > dd[Card.parse("HA")]


# 3NT by South: eight top tricks outside clubs; dummy's clubs (AQJT9) have no side entry.
# South leads the club two and West plays low. Rising with the ace makes the contract on
# every layout; the finesse (queen) makes an overtrick when West has the king (here K87, so
# one finesse gains exactly one trick) and goes down when East has it (the clubs are then
# stranded). Double dummy finesses on the layout where it works; single dummy does not risk
# its game for 30 points.
NORTH_3NT = "543.32.432.AQJT9"
SOUTH_3NT = "AKQ.A7654.AKQJ.2"
KING_ONSIDE = deal_of(NORTH_3NT, "98762..8765.6543", SOUTH_3NT, "JT.KQJT98.T9.K87")
KING_OFFSIDE = deal_of(NORTH_3NT, "98762..8765.K543", SOUTH_3NT, "JT.KQJT98.T9.876")


@pytest.mark.parametrize("deal", [KING_ONSIDE, KING_OFFSIDE], ids=["king-onside", "king-offside"])
def test_safety_play_secures_the_contract(deal):
    play = position(deal, "1NT Pass 3NT Pass Pass Pass", "S", "SJ S3 S2 SQ C2 C7")
    assert play.to_play == Seat.N and play.decider == Seat.S
    sd = card_player("sd:fast").choose(play)
    assert sd.card == Card.parse("CA")
    assert sd.scores[Card.parse("CA")] > sd.scores[Card.parse("CQ")]
    dd = dd_card_values([Hand(h) for h in play.hands], play.contract.strain, play.leader, play.trick)
    if deal is KING_ONSIDE:
        # double dummy takes the finesse for the overtrick: 10 tricks (3 to come after
        # the 7 this counts from trick 2) against 9
        assert dd[Card.parse("CQ")] == dd[Card.parse("CA")] + 1
        # (the nine: dummy's QJT9 are one card double dummy, and it plays the lowest)
        assert card_player("dd").choose(play).card in {Card.parse(c) for c in ("C9", "CT", "CJ", "CQ")}
        # and played out, single dummy makes exactly its contract
        out = play_out(position(deal, "1NT Pass 3NT Pass Pass Pass", "S", ""), card_player("sd:fast"),
                       card_player("dd"))
        assert out.declarer_tricks >= 9


def test_solve_positions_matches_solve_board():
    rng = np.random.default_rng(3)
    for k in range(4):
        deal = Deal.random(rng)
        play = CardPlay(deal, Auction.parse("1S Pass Pass Pass", "N").contract)
        for _ in range(5 + 3 * k):
            play.play(play.legal_cards()[int(rng.integers(len(play.legal_cards())))])
        holders = deal.to_array().astype(np.uint8)
        holders[[c.index for _, c in play.history]] = 255
        got = solve_positions(holders[None], int(play.contract.strain), int(play.leader),
                              [c.index for c in play.trick])[0]
        want = dd_card_values([Hand(h) for h in play.hands], play.contract.strain, play.leader, play.trick)
        assert {Card.from_index(i): int(got[i]) for i in np.flatnonzero(got >= 0)} == want


def test_samples_respect_the_hard_facts():
    """Played cards stay with who played them, dummy's with dummy, and a seat that showed
    out of a suit is dealt none of it."""
    # trick 3: dummy's spade to South's ace (West's ten); trick 4: South's king, West discards
    play = position(KING_ONSIDE, "1NT Pass 3NT Pass Pass Pass", "S",
                    "SJ S3 S2 SQ C2 C7 CA C3 S4 S6 SA ST SK H8")
    view = play.view()
    assert view.showed_out[Seat.W] == {3} and play.to_play == Seat.N
    player = SingleDummyPlayer()
    deals = player.sample(view, np.random.default_rng(0))
    assert len(deals) == player.cfg.samples
    for s, card in view.history:
        assert (deals[:, card.index] == int(s)).all()
    for card in view.dummy:
        assert (deals[:, card.index] == int(Seat.N)).all()
    for card in view.own:
        assert (deals[:, card.index] == int(Seat.S)).all()
    unplayed_spades = [c for c in range(39, 52) if c not in {x.index for _, x in view.history}]
    assert unplayed_spades and not (deals[:, unplayed_spades] == int(Seat.W)).any()
    assert ((deals[:, None, :] == np.arange(4)[None, :, None]).sum(axis=2) == 13).all()
    # East's last spades (9, 8) are the only spades left hidden: always East's
    assert (deals[:, [Card.parse("S9").index, Card.parse("S8").index]] == int(Seat.E)).all()


def test_equivalent_cards_are_not_searched():
    # South, third to play to the spade jack with AKQ: one choice, played without a search
    play = position(KING_ONSIDE, "1NT Pass 3NT Pass Pass Pass", "S", "SJ S3 S2")
    assert [str(c) for c in play.legal_cards()] == ["SQ", "SK", "SA"]
    assert equivalent_cards(play.view())
    choice = card_player("sd:fast").choose(play)
    assert choice.samples == 0 and choice.card == Card.parse("SQ")
    # West with K87 of clubs: dummy's QJT9 lie between the eight and the king
    play2 = position(KING_ONSIDE, "1NT Pass 3NT Pass Pass Pass", "S", "SJ S3 S2 SQ C2")
    assert not equivalent_cards(play2.view())
    # a card of the current trick between two of a hand's cards still competes
    play3 = position(KING_ONSIDE, "1NT Pass 3NT Pass Pass Pass", "S", "SJ S3 S2 SQ C2 C7")
    view = play3.view()
    assert [str(c) for c in view.legal] == ["C9", "CT", "CJ", "CQ", "CA"] and not equivalent_cards(view)


def test_unknown_player_is_a_clear_error():
    with pytest.raises(CardPlayError, match="unknown card player"):
        card_player("gib")
    with pytest.raises(CardPlayError, match="unknown single-dummy setting"):
        card_player("sd:turbo")
