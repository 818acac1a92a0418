"""Playing modules: legality, App. D's sure-takes count, nil play, cover, ISMCTS search."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.cards import Card, Hand
from bidlab.spades.engine import FULL_DECK, SPADES, SUIT_MASKS, RoundState, mask_cards
from bidlab.spades.errors import TournamentError
from bidlab.spades.game import deal_hands
from bidlab.spades.ismcts import ISMCTSConfig, ISMCTSPlayer, determinize, distinct_moves
from bidlab.spades.players import (
    StrongRulePlayer,
    WeakRulePlayer,
    cheapest_equivalent,
    default_exchange,
    sure_takes,
)
from bidlab.spades.registry import make_player
from bidlab.spades.rules import Rules


def c(text: str) -> int:
    return Card.parse(text).index


def spades(ranks: str) -> int:
    return sum(1 << c("S" + r) for r in ranks)


def test_sure_takes_app_d1_examples():
    all_sp = SPADES
    # The A of spades is a sure take.
    assert sure_takes(spades("A"), all_sp & ~spades("A")) == 1
    # {K, Q} is a single sure take.
    assert sure_takes(spades("KQ"), all_sp & ~spades("KQ")) == 1
    # Four spades when seven were played: two sure takes (here the four lowest vs two higher).
    mine = spades("2345")
    unseen = spades("AK")
    assert sure_takes(mine, unseen) == 2
    # More spades than the unseen ones: all of ours beyond them win.
    assert sure_takes(spades("32"), 0) == 2
    assert sure_takes(0, all_sp) == 0
    # A-K-Q: three; Q-J-T with A, K out: one (two cards lost to A and K, then the T is the last).
    assert sure_takes(spades("AKQ"), all_sp & ~spades("AKQ")) == 3
    assert sure_takes(spades("QJT"), all_sp & ~spades("QJT")) == 1


def test_cheapest_equivalent_skips_played_and_own_cards():
    hand = sum(1 << c(x) for x in ("HK", "HJ", "H9"))
    played = 1 << c("HQ") | 1 << c("HT")
    assert cheapest_equivalent(c("HK"), hand, played) == c("H9")
    assert cheapest_equivalent(c("HK"), hand, 0) == c("HK")


def test_distinct_moves_keeps_one_of_equivalent_cards():
    hand = sum(1 << c(x) for x in ("S5", "S6", "S8", "H2"))
    played = 1 << c("S7")
    legal = hand
    assert distinct_moves(legal, hand, played) == (1 << c("S5")) | (1 << c("H2"))
    assert distinct_moves(legal, hand, 0) == (1 << c("S5")) | (1 << c("S8")) | (1 << c("H2"))


def _random_states(seed: int, n: int):
    """Views at random points of random rounds (all four seats' perspectives)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        bids = tuple(rng.choice([0, 1, 2, 3, 4, 5]) for _ in range(4))
        s = RoundState(Rules(), deal_hands(rng), rng.randrange(4), bids)
        stop = rng.randrange(52)
        while s.n_played < stop:
            s.play(rng.choice(mask_cards(s.legal_mask())))
        out.append(s)
    return out


@pytest.mark.parametrize("name", ["wrp", "srp", "ismcts:20", "uct4:20", "uct4-srp:20"])
def test_players_always_play_legal_cards(name):
    for i, s in enumerate(_random_states(11, 60)):
        player = make_player(name, seed=i)
        view = s.view(s.to_play)
        card = player.play(view)
        assert view.legal >> card & 1, (name, i)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_determinizations_respect_sizes_voids_and_seen_cards(seed):
    rng = random.Random(seed)
    s = _random_states(seed, 1)[0]
    if s.is_over:
        return
    seat = s.to_play
    # Pretend the viewer passed two cards to partner in a blind nil exchange.
    partner_cards = s.hands[seat ^ 2]
    known_partner = 0
    for x in mask_cards(partner_cards)[:2]:
        known_partner |= 1 << x
    known = [[0] * 4 for _ in range(4)]
    known[seat][seat ^ 2] = known_partner
    s.known = tuple(tuple(k) for k in known)
    view = s.view(seat)
    for _ in range(5):
        hands = determinize(view, rng)
        assert hands[seat] == view.hand
        assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK & ~s.played
        assert sum(h.bit_count() for h in hands) == 52 - s.n_played
        for other in range(4):
            assert hands[other].bit_count() == view.hand_sizes[other]
            for suit in range(4):
                if s.voids[other] >> suit & 1:
                    assert not hands[other] & SUIT_MASKS[suit]
        assert hands[seat ^ 2] & known_partner == known_partner


def _endgame(
    hands: dict[int, str], bids, tricks, to_lead: int, played_extra: int = 0, broken=True
) -> RoundState:
    masks = [Hand.parse(hands[s]).mask for s in range(4)]
    s = RoundState(Rules(), masks, dealer=(to_lead - 1) % 4, bids=bids)
    s.played = FULL_DECK & ~(masks[0] | masks[1] | masks[2] | masks[3])
    s.n_played = 52 - sum(m.bit_count() for m in masks)
    s.tricks = list(tricks)
    s.spades_broken = broken
    return s


def test_search_wins_cheaply_to_keep_its_boss():
    # Two tricks left; North-South bid 4 + 3 and have 5: they need both. East leads the heart
    # four, South and West play low; North (last) holds the ace and the five. Winning with the
    # five keeps the ace for the last trick (2 tricks, contract made); the ace now loses the
    # five to East's king later (set).
    s = _endgame({0: ".A5..", 1: ".K4..", 2: ".2.2.", 3: ".3.3."}, (4, 2, 3, 2), (3, 3, 2, 3), to_lead=1)
    for card in ("H4", "H2", "H3"):
        s.play(c(card))
    p = ISMCTSPlayer(ISMCTSConfig(iterations=200), seed=1)
    assert p.search(s.view(0)) == c("H5")
    assert StrongRulePlayer().play(s.view(0)) == c("H5")


def test_search_ducks_to_protect_its_own_nil():
    # North bid nil and has taken nothing; West leads the heart ten. Playing the jack wins
    # the trick (nil set); the two ducks, and on the last trick North discards the jack on
    # a diamond lead.
    s = _endgame({0: ".J2..", 1: ".3.3.", 2: ".4.4.", 3: ".T.5."}, (0, 3, 4, 2), (0, 4, 5, 2), to_lead=3)
    s.play(c("HT"))
    for player in (ISMCTSPlayer(ISMCTSConfig(iterations=200), seed=2), WeakRulePlayer(), StrongRulePlayer()):
        assert player.play(s.view(0)) == c("H2"), player.name


def test_srp_covers_partner_nil_and_wrp_does_not():
    # South bid nil and is winning the trick with the heart ten; North plays last.
    s = _endgame({0: ".A2..", 1: ".83..", 2: ".T4..", 3: ".95.."}, (3, 3, 0, 4), (3, 4, 0, 4), to_lead=1)
    s.play(c("H8"))
    s.play(c("HT"))
    s.play(c("H9"))
    assert s.win_seat == 2
    assert StrongRulePlayer().play(s.view(0)) == c("HA")  # overtake partner
    assert WeakRulePlayer().play(s.view(0)) == c("H2")  # partner "winning": plays low


def test_srp_sets_opponent_nil_by_playing_under():
    # East bid nil and is winning with the heart ten; South plays under it rather than over.
    s = _endgame({0: ".85..", 1: ".T3..", 2: ".A9..", 3: ".42.."}, (4, 0, 4, 3), (4, 0, 3, 4), to_lead=0)
    s.play(c("H5"))
    s.play(c("HT"))
    assert StrongRulePlayer().play(s.view(2)) == c("H9")


def test_srp_ducks_when_contract_made_in_under_round():
    # North-South bid 2 + 2 and already took 4; a low round (sum 7): avoid the bag.
    s = _endgame({0: ".A3..", 1: ".K4..", 2: ".Q5..", 3: ".J6.."}, (2, 2, 2, 1), (2, 5, 2, 2), to_lead=1)
    s.play(c("H4"))
    assert StrongRulePlayer().play(s.view(2)) == c("H5")
    assert WeakRulePlayer().play(s.view(2)) == c("HQ")


def test_default_exchange_passes_n_own_cards():
    rng = random.Random(3)
    for _ in range(50):
        hand = deal_hands(rng)[0]
        for to_niler in (False, True):
            m = default_exchange(hand, 2, to_niler)
            assert m.bit_count() == 2 and m & ~hand == 0
    hand = Hand.parse("AK2.Q32.5432.432").mask
    assert default_exchange(hand, 2, False) == (1 << c("SA")) | (1 << c("SK"))
    assert default_exchange(hand, 2, True) & SPADES == 0


def test_player_specs():
    assert make_player("wrp").name == "wrp"
    p = make_player("uct5:300")
    assert p.config.uct_tricks == 5 and p.config.iterations == 300
    assert make_player("ismcts:0.5s").config.time_limit == 0.5
    assert make_player("ismcts-random:10").config.rollout == "random"
    assert make_player("uct3-srp:10").config.rollout == "srp"
    for bad in ("foo", "ismcts:abc", "uct20", "ismcts:0"):
        with pytest.raises(TournamentError):
            make_player(bad)


def test_search_is_repeatable_with_a_seed():
    s = _random_states(4, 8)
    for st_ in s:
        if st_.is_over or st_.legal_mask().bit_count() < 2:
            continue
        a = ISMCTSPlayer(ISMCTSConfig(iterations=50), seed=9).search(st_.view(st_.to_play))
        b = ISMCTSPlayer(ISMCTSConfig(iterations=50), seed=9).search(st_.view(st_.to_play))
        assert a == b


def test_anchored_search_keeps_srps_card_unless_the_evidence_is_clear():
    from bidlab.spades.ismcts import _Node

    s = _endgame({0: ".A5..", 1: ".K4..", 2: ".2.2.", 3: ".3.3."}, (4, 2, 3, 2), (3, 3, 2, 3), to_lead=1)
    for card in ("H4", "H2", "H3"):
        s.play(c(card))
    view = s.view(0)
    p = ISMCTSPlayer(ISMCTSConfig(iterations=10, anchor=2.0), seed=1)
    srp_card = StrongRulePlayer().play(view)
    other = c("HA") if srp_card != c("HA") else c("H5")

    def node(visits, mean, sd):
        nd = _Node(0)
        nd.visits, nd.total = visits, visits * mean
        nd.total_sq = visits * (sd * sd + mean * mean)
        return nd

    root = _Node(-1)
    # The other card looks better by 0.2 with SE sqrt(2 * 1 / 50) = 0.2: one SE, not two.
    root.children = {srp_card: node(50, 0.0, 1.0), other: node(50, 0.2, 1.0)}
    assert p._anchored(view, root, other) == srp_card
    # Better by 1.0 with the same spread: five SEs: the search overrules SRP.
    root.children = {srp_card: node(50, 0.0, 1.0), other: node(50, 1.0, 1.0)}
    assert p._anchored(view, root, other) == other
