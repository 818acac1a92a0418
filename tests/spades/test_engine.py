"""Play legality, trick winners and whole random games (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.cards import Card
from bidlab.spades.engine import SPADES, SUIT_MASKS, RoundState, mask_cards
from bidlab.spades.errors import IllegalPlayError
from bidlab.spades.game import deal_hands, play_game, play_round
from bidlab.spades.rules import FirstLead, Rules, game_winner, score_round


def c(text: str) -> int:
    return Card.parse(text).index


def fixed_hands():
    # Build 4 valid 13-card hands deterministically from a seed.
    return deal_hands(random.Random(7))


def test_must_follow_suit_when_able():
    h = fixed_hands()
    s = RoundState(Rules(), h, dealer=3)  # North leads
    lead = min(mask_cards(h[0] & ~SPADES))
    s.play(lead)
    suit = lead // 13
    east = s.hands[1]
    if east & SUIT_MASKS[suit]:
        assert s.legal_mask() == east & SUIT_MASKS[suit]
        off = min(mask_cards(east & ~SUIT_MASKS[suit]))
        with pytest.raises(IllegalPlayError, match="must follow"):
            s.play_checked(off)
    else:
        assert s.legal_mask() == east


def test_void_player_may_play_anything_and_void_is_recorded():
    hands = [0, 0, 0, 0]
    # N 13 clubs, E 13 diamonds, S 13 hearts, W 13 spades.
    for s in range(4):
        hands[s] = SUIT_MASKS[s]
    st_ = RoundState(Rules(), hands, dealer=3)
    assert st_.legal_mask() == SUIT_MASKS[0]
    st_.play(c("C2"))
    assert st_.legal_mask() == SUIT_MASKS[1]  # East is void in clubs: anything
    st_.play(c("DA"))
    assert st_.voids[1] == 1 << 0
    st_.play(c("H2"))
    st_.play(c("S2"))  # a spade ruffs
    assert st_.tricks == [0, 0, 0, 1] and st_.to_play == 3 and st_.spades_broken
    # West is spade-tight and leads a spade.
    assert st_.legal_mask() == SUIT_MASKS[3] & ~(1 << c("S2"))


def test_spades_cannot_be_led_until_broken():
    h = fixed_hands()
    s = RoundState(Rules(), h, dealer=3)
    north = s.hands[0]
    assert north & SPADES and north & ~SPADES
    assert s.legal_mask() == north & ~SPADES
    with pytest.raises(IllegalPlayError, match="spades are not broken"):
        s.play_checked(min(mask_cards(north & SPADES)))


def test_spade_tight_leader_may_lead_spades():
    hands = [SUIT_MASKS[3], SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2]]
    s = RoundState(Rules(), hands, dealer=3)
    assert s.legal_mask() == SUIT_MASKS[3]
    s.play_checked(c("S5"))


def test_spades_broken_by_a_discard_allow_spade_leads():
    spades_low = sum(1 << c("S" + r) for r in "2345678")
    n = SUIT_MASKS[0]
    e = spades_low | sum(1 << c("D" + r) for r in "234567")
    s_ = (SUIT_MASKS[3] & ~spades_low) | sum(1 << c("D" + r) for r in "89TJQKA")
    w = SUIT_MASKS[2]
    st_ = RoundState(Rules(), [n, e, s_, w], dealer=3)
    st_.play(c("C2"))
    st_.play(c("S2"))  # East is void in clubs and ruffs: spades are broken
    assert st_.spades_broken
    st_.play(c("D8"))
    st_.play(c("H2"))
    assert st_.to_play == 1 and st_.tricks == [0, 1, 0, 0]
    assert st_.legal_mask() == st_.hands[1]  # East may now lead a spade
    st_.play_checked(c("S3"))


def test_spades_not_broken_restricts_a_mixed_leader():
    spades_low = sum(1 << c("S" + r) for r in "2345678")
    n = SUIT_MASKS[0]
    e = spades_low | sum(1 << c("D" + r) for r in "234567")
    s_ = (SUIT_MASKS[3] & ~spades_low) | sum(1 << c("D" + r) for r in "89TJQKA")
    w = SUIT_MASKS[2]
    st_ = RoundState(Rules(), [n, e, s_, w], dealer=0)  # East leads first
    assert st_.legal_mask() == e & ~SPADES


def test_trick_winner_rules():
    hands = [SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2], SUIT_MASKS[3]]
    st_ = RoundState(Rules(), hands, dealer=3)
    st_.play(c("C9"))
    st_.play(c("DA"))  # off-suit, not a spade: cannot win
    st_.play(c("HA"))
    st_.play(c("S2"))  # lowest spade beats everything
    assert st_.tricks == [0, 0, 0, 1]


def test_highest_of_led_suit_wins_without_spades():
    rng = random.Random(3)
    for _ in range(200):
        hands = deal_hands(rng)
        s = RoundState(Rules(), hands, dealer=rng.randrange(4))
        while not s.is_over:
            leader = s.to_play
            cards = []
            for _ in range(4):
                card = rng.choice(s.legal_cards())
                cards.append(card)
                s.play(card)
            spades = [x for x in cards if x // 13 == 3]
            led = cards[0] // 13
            best = max(spades) if spades else max(x for x in cards if x // 13 == led)
            assert s.leader == (leader + cards.index(best)) % 4


def test_two_of_clubs_leads_first():
    h = fixed_hands()
    s = RoundState(Rules(first_lead=FirstLead.TWO_OF_CLUBS), h, dealer=0)
    holder = next(i for i in range(4) if h[i] & 1)
    assert s.to_play == holder and s.legal_mask() == 1
    with pytest.raises(IllegalPlayError, match="two of clubs"):
        s.play_checked(mask_cards(h[holder])[1])


def test_play_checked_rejects_bad_input():
    s = RoundState(Rules(), fixed_hands(), dealer=3)
    with pytest.raises(IllegalPlayError, match="0..51"):
        s.play_checked(52)
    not_mine = mask_cards(s.hands[1])[0]
    with pytest.raises(IllegalPlayError, match="does not hold"):
        s.play_checked(not_mine)
    with pytest.raises(IllegalPlayError, match="not over"):
        s.score()


class RandomBidder:
    name = "random"

    def __init__(self, rng):
        self.rng = rng

    def bid(self, view):
        return self.rng.choice([0] + list(range(1, 7)))

    def blind_nil(self, view):
        return self.rng.random() < 0.3


class RandomPlayer:
    name = "random"

    def __init__(self, rng):
        self.rng = rng

    def play(self, view):
        return self.rng.choice(mask_cards(view.legal))

    def exchange(self, hand, n, to_niler):
        return sum(1 << x for x in self.rng.sample(mask_cards(hand), n))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.booleans(),
    first=st.sampled_from(list(FirstLead)),
    blind=st.booleans(),
    exchange=st.integers(0, 3),
)
def test_random_games_finish_with_13_tricks_and_consistent_scores(seed, count, first, blind, exchange):
    rules = Rules(
        win_goal=200, lose_goal=-100, failed_nil_tricks_count=count, first_lead=first,
        blind_nil=blind, blind_nil_margin=50, blind_nil_exchange=exchange, max_rounds=30,
    )  # fmt: skip
    rng = random.Random(seed)
    bidders = [RandomBidder(rng) for _ in range(4)]
    players = [RandomPlayer(rng) for _ in range(4)]
    rec = play_game(rules, bidders, players, random.Random(seed + 1), first_dealer=seed % 4)
    scores = [0, 0]
    bags = (0, 0)
    for i, r in enumerate(rec.rounds):
        assert sum(r.tricks) == 13
        assert len(r.plays) == 52 and sorted(r.plays) == list(range(52))
        assert r.dealer == (seed + i) % 4
        assert all(not r.blind[s] or r.bids[s] == 0 for s in range(4))
        if any(r.blind):
            assert blind and rules.blind_nil_allowed(
                scores[0 if r.blind.index(True) % 2 == 0 else 1],
                scores[1 if r.blind.index(True) % 2 == 0 else 0],
            )
        ns, ew = score_round(rules, r.bids, r.blind, r.tricks, bags)
        assert (ns.points, ew.points) == r.points
        assert all(0 <= b < rules.bag_limit for b in r.bags_after)
        scores = [scores[0] + ns.points, scores[1] + ew.points]
        bags = r.bags_after
        if i < len(rec.rounds) - 1:
            assert game_winner(rules, tuple(scores), i + 1) is None
    assert tuple(scores) == rec.scores
    assert game_winner(rules, rec.scores, len(rec.rounds)) == rec.winner


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_replaying_a_round_reproduces_tricks_and_voids_are_true(seed):
    rng = random.Random(seed)
    hands = deal_hands(rng)
    rules = Rules()
    rec = play_round(
        rules, hands, seed % 4, [RandomBidder(rng) for _ in range(4)], [RandomPlayer(rng) for _ in range(4)]
    )
    s = RoundState(rules, hands, rec.dealer, rec.bids, rec.blind)
    for card in rec.plays:
        seat = s.to_play
        s.play_checked(card)
        # A recorded void is real: the seat holds no card of that suit any more.
        for suit in range(4):
            if s.voids[seat] >> suit & 1:
                assert not s.hands[seat] & SUIT_MASKS[suit]
    assert tuple(s.tricks) == rec.tricks


def test_play_round_rejects_illegal_player_and_bad_bids():
    class Cheat(RandomPlayer):
        def play(self, view):
            return mask_cards(view.hand & ~view.legal or view.hand)[0] if view.hand & ~view.legal else 99

    class BadBidder:
        name = "bad"

        def bid(self, view):
            return 14

        def blind_nil(self, view):
            return False

    from bidlab.spades.errors import IllegalBidError

    rng = random.Random(1)
    with pytest.raises(IllegalPlayError, match="illegal card"):
        play_round(Rules(), deal_hands(rng), 0, [RandomBidder(rng)] * 4, [Cheat(rng)] * 4)
    with pytest.raises(IllegalBidError, match="bid 14"):
        play_round(Rules(), deal_hands(rng), 0, [BadBidder()] * 4, [RandomPlayer(rng)] * 4)


def test_blind_nil_exchange_moves_cards_and_records_knowledge():
    from bidlab.spades.game import blind_nil_exchange
    from bidlab.spades.players import StrongRulePlayer

    rng = random.Random(8)
    hands = deal_hands(rng)
    before = hands[:]
    known = blind_nil_exchange(
        Rules(blind_nil=True, blind_nil_exchange=2),
        hands,
        (False, True, False, False),
        [StrongRulePlayer()] * 4,
    )
    assert all(h.bit_count() == 13 for h in hands)
    assert hands[0] == before[0] and hands[2] == before[2]
    moved_to_east = hands[1] & ~before[1]
    moved_to_west = hands[3] & ~before[3]
    assert moved_to_east.bit_count() == 2 and moved_to_west.bit_count() == 2
    assert known[1][3] == moved_to_west and known[3][1] == moved_to_east
    assert known[0] == (0, 0, 0, 0)
