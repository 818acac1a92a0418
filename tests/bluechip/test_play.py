"""Trick rules, the table's legality checks, and the sampled double-dummy player against DDS."""

import numpy as np
import pytest

from bidlab.bluechip.play import (
    PlayView,
    RulePlayer,
    SampledDDPlayer,
    TrickPlay,
    _solve_position,
    trick_winner,
)
from bidlab.bluechip.protocol import IllegalActionError
from bidlab.bridge.calls import Strain
from bidlab.cards import Card, Deal, Hand, Seat, Suit
from bidlab.dd import solve_contracts


def cards(text):
    return [Card.parse(t) for t in text.split()]


@pytest.mark.parametrize("leader,played,strain,winner", [
    (Seat.N, "SA S2 S3 S4", Strain.NOTRUMP, Seat.N),
    (Seat.N, "S2 SA S3 S4", Strain.NOTRUMP, Seat.E),
    (Seat.W, "S2 H2 S3 SK", Strain.NOTRUMP, Seat.S),      # a discard never wins at notrump
    (Seat.W, "S2 H2 S3 SK", Strain.HEARTS, Seat.N),       # ... but a ruff does
    (Seat.E, "D5 C2 C3 DA", Strain.CLUBS, Seat.W),        # the higher ruff wins: C3 over C2
    (Seat.S, "HQ HK HA H2", Strain.SPADES, Seat.N),
])
def test_trick_winner(leader, played, strain, winner):
    assert trick_winner(leader, cards(played), strain) == winner


def test_trick_play_catches_revoke_card_not_held_and_replay():
    deal = Deal.parse("N:AKQJ2.AK2.A2.K32 T98.QJT.KQJ.QJT9 7654.987.T98.A87 3.6543.76543.654")
    tp = TrickPlay(Strain.SPADES, Seat.N)          # East leads
    hands = {s: deal[s] for s in Seat}
    tp.play(Card.parse("DK"), hands[Seat.E])
    with pytest.raises(IllegalActionError, match="revokes"):
        tp.play(Card.parse("S7"), hands[Seat.S])   # South holds diamonds
    with pytest.raises(IllegalActionError, match="does not hold"):
        tp.play(Card.parse("DA"), hands[Seat.S])
    with pytest.raises(IllegalActionError, match="already played"):
        tp.play(Card.parse("DK"), None)
    tp.play(Card.parse("D8"), hands[Seat.S])
    tp.play(Card.parse("D3"), hands[Seat.W])
    assert tp.play(Card.parse("DA"), hands[Seat.N]) == Seat.N
    assert tp.declarer_tricks == 1 and tp.leader == Seat.N and tp.trick_number == 2


def test_shown_out_and_trick_count():
    tp = TrickPlay(Strain.NOTRUMP, Seat.S)         # West leads
    for c in cards("C2 H5 C3 C4"):                 # North shows out of clubs
        tp.play(c)
    assert tp.shown_out[Seat.N] == {Suit.CLUBS} and not tp.shown_out[Seat.E]
    assert tp.leader == Seat.S and tp.declarer_tricks == 1


@pytest.mark.parametrize("seed", range(4))
def test_dd_player_with_every_hand_visible_finds_the_dds_optimum(seed):
    """With all four hands in view there is one sample, the real deal: the lead chosen must hold
    the defenders to what bidlab.dd (SolveAllBoardsBin, an independent path) says declarer makes."""
    deal = Deal.random(seed)
    rng = np.random.default_rng(seed)
    declarer, strain = Seat(int(rng.integers(4))), Strain(int(rng.integers(5)))
    tp = TrickPlay(strain, declarer)
    hands = {s: deal[s] for s in Seat}
    declarer_makes = int(solve_contracts(deal, int(declarer), int(strain))[0])
    values = _solve_position(hands, tp)
    assert max(values.values()) == 13 - declarer_makes
    lead = SampledDDPlayer(samples=1, seed=seed).choose(PlayView(declarer.lho, declarer.lho, hands, tp))
    assert values[lead] == 13 - declarer_makes
    # After the lead, declarer's side to play can take exactly the rest.
    tp.play(lead, hands[declarer.lho])
    hands[declarer.lho] = hands[declarer.lho] - Hand([lead])
    assert max(_solve_position(hands, tp).values()) == 13 - values[lead]


def test_rule_player_follows_suit_and_wins_cheaply():
    deal = Deal.parse("N:AKQJ2.AK2.A2.K32 T98.QJT.KQJ.QJT9 7654.987.T98.A87 3.6543.76543.654")
    tp = TrickPlay(Strain.NOTRUMP, Seat.W)         # North leads
    hands = {s: deal[s] for s in Seat}
    tp.play(Card.parse("C2"), hands[Seat.N])
    east = RulePlayer().choose(PlayView(Seat.E, Seat.E, hands, tp))
    assert east == Card.parse("C9")                 # second hand low, following suit
    tp.play(east, hands[Seat.E])
    south = RulePlayer().choose(PlayView(Seat.S, Seat.S, hands, tp))
    assert south == Card.parse("CA")                # third hand: the cheapest card that wins
    tp.play(south, hands[Seat.S])
    assert RulePlayer().choose(PlayView(Seat.W, Seat.W, hands, tp)) == Card.parse("C4")  # cannot win: lowest
