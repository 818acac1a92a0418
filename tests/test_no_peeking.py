"""No bot peeks (DESIGN.md, issue 47): for every agent kind in the registry, every card
player and every Spades player, permute the cards the agent cannot see while keeping all it
can see, and its decision does not change (fixed seeds). A deliberate peek (an agent that
reads partner's hand) fails the same check, and the double-dummy card player and the oracle
punisher (``oracle-punish:``, issue 44), which peek by design, are the named exceptions.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

import bidlab.search  # noqa: F401  (registers the bmcs:, mcs: and jps: kinds)
from bidlab.agents.registry import PEEKING_KINDS, known_kinds, make_agent
from bidlab.bridge.auction import Auction
from bidlab.bridge.play import CardPlay
from bidlab.cards import Deal, Hand, Seat
from bidlab.dd import shipped_store
from bidlab.envs.rollout import Decision, rollout
from bidlab.envs.state import AuctionState, concat, init, with_hands
from bidlab.search.cardplay import CARD_PLAYERS, PEEKING_CARD_PLAYERS, card_player
from bidlab.spades.engine import PlayView as SpadesView
from bidlab.spades.engine import RoundState
from bidlab.spades.game import collect_bids, deal_hands
from bidlab.spades.registry import bidder_names, make_bidder, make_player, player_names
from bidlab.spades.rules import Rules

# One spec per registry kind (several for nn:), cheap settings for the searches. A new kind
# in the registry fails test_every_kind_is_covered until it is added here.
BIDDING_SPECS = {
    "random": ["random:5"],
    "sayc": ["sayc"],
    "nn": ["nn:sl", "nn:rl", "nn:partner", "nn:rl:sample"],
    "bmcs": ["bmcs:rl?k=2&rmin=4&rmax=8&pmax=400&pmin=0.01&dd=exact",
             "bmcs:rl?k=2&rmin=4&rmax=8&pmax=400&pmin=0.01&dd=exact&opponents=punish:nn:rl"],
    "mcs": ["mcs:rl?k=2&rmin=4&rmax=8&pmax=400&pmin=0.01&dd=exact"],
    "jps": ["jps:rl?samples=4"],
    # a low threshold, so that the judge's doubles are among the calls checked
    "punish": ["punish:nn:rl", "punish:sayc?threshold=-3", "punish:nn:rl@soup1?threshold=-1"],
}
#: Bidding kinds that peek by design (diagnostics, never players): checked to be caught below.
PEEKING_BIDDING_SPECS = {"oracle-punish": ["oracle-punish:sayc?down=1", "oracle-punish:nn:rl"]}
TEAMS = ["sayc+nn:rl"]


def test_every_kind_is_covered():
    # the kinds bidlab registers (other test modules register test-only kinds of their own)
    shipped = {k.prefix for k in known_kinds() if k.factory.__module__.startswith("bidlab.")}
    assert shipped >= {"random", "sayc", "nn", "bmcs", "mcs", "jps", "punish", "oracle-punish"}
    assert shipped <= set(BIDDING_SPECS) | set(PEEKING_BIDDING_SPECS)
    assert set(PEEKING_BIDDING_SPECS) == set(PEEKING_KINDS) and not set(PEEKING_KINDS) & set(BIDDING_SPECS)


def _positions(n: int = 6) -> AuctionState:
    """Tables part-way through SAYC auctions on TEST deals (0..5 calls made), not over."""
    deals, _, _ = shipped_store().load("test")
    rows = []
    for i in range(n):
        state = init(deals[i:i + 1], i % 4, i % 4)
        state = rollout(state, [make_agent("sayc")] * 4, max_rounds=i % 6)
        if not state.done[0]:
            rows.append(state)
    return concat(rows)


def _hide(state: AuctionState, rng: np.random.Generator) -> AuctionState:
    """The same tables with the 39 cards the player to act cannot see dealt again at random
    among the other three hands (13 each)."""
    deals = state.deals.copy()
    for t in range(state.n):
        me = int(state.to_act[t])
        hidden = np.flatnonzero(deals[t] != me)
        deals[t, hidden] = rng.permutation(deals[t, hidden])
    return with_hands(state, deals)


def bidding_violations(make, state: AuctionState, trials: int = 2) -> list[int]:
    """Rows where the call of the agent ``make()`` builds (a fresh one, same seed, each
    time) changes when the hidden hands are dealt again."""
    calls = np.asarray(make().decide(state).calls)
    bad = set()
    rng = np.random.default_rng(0)
    for _ in range(trials):
        other = np.asarray(make().decide(_hide(state, rng)).calls)
        bad |= set(np.flatnonzero(other != calls).tolist())
    return sorted(bad)


@pytest.fixture(scope="module")
def positions():
    return _positions()


@pytest.mark.parametrize("spec", [s for specs in BIDDING_SPECS.values() for s in specs] + TEAMS)
def test_bidding_agents_do_not_peek(spec, positions):
    assert bidding_violations(lambda: make_agent(spec, 11), positions) == []


class PartnerPeeker:
    """A deliberate peek: opens 1NT-ish (the cheapest legal bid) when *partner* holds 12+ HCP."""

    name = "peek"
    deterministic = True

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        calls = np.zeros(state.n, np.int64)
        for t in range(state.n):
            partner = (int(state.to_act[t]) + 2) % 4
            hcp = Hand([c for c in range(52) if state.deals[t, c] == partner]).hcp
            legal = np.flatnonzero(state.legal[t])
            bids = legal[legal >= 3]
            calls[t] = int(bids[0]) if hcp >= 12 and len(bids) else 0
        return Decision(calls)


def test_a_deliberate_peek_fails(positions):
    assert bidding_violations(PartnerPeeker, positions, trials=4)


@pytest.mark.parametrize("spec", [s for specs in PEEKING_BIDDING_SPECS.values() for s in specs])
def test_the_oracle_punisher_is_the_named_bidding_exception(spec):
    """oracle-punish: doubles by the real deal's DD result: the check catches it (on positions
    where double is legal), and its agent says that it peeks."""
    assert make_agent(spec).peeks
    deals, _, _ = shipped_store().load("test")
    rows = []
    for i in range(40):
        state = rollout(init(deals[100 + i:101 + i], i % 4, i % 4), [make_agent("nn:rl")] * 4, max_rounds=1 + i % 4)
        if not state.done[0] and state.legal[0, 1]:
            rows.append(state)
    assert bidding_violations(lambda: make_agent(spec, 11), concat(rows), trials=4)


# -- card players ---------------------------------------------------------------------------


def _hide_play(play: CardPlay, rng: np.random.Generator) -> CardPlay:
    """The same play with the unplayed cards the decider cannot see (not its own, not dummy's
    once dummy is down) dealt again among the hands that hold them, sizes kept."""
    view = play.view()
    visible = {int(view.seat)} | ({int(play.dummy)} if view.dummy is not None else set())
    holders = [s for s in Seat if int(s) not in visible]
    pool = [c for s in holders for c in sorted(play.hands[s], key=lambda c: c.index)]
    order = rng.permutation(len(pool))
    new_hands = [set(h) for h in play.hands]
    k = 0
    for s in holders:
        n = len(play.hands[s])
        new_hands[s] = {pool[i] for i in order[k:k + n]}
        k += n
    played_by = {s: [c for p, c in play.history if p == s] for s in Seat}
    deal = Deal([Hand(list(new_hands[s]) + played_by[s]) for s in Seat])
    other = CardPlay(deal, play.contract, play.auction, play.vulnerability)
    other.hands, other.leader, other.trick = new_hands, play.leader, list(play.trick)
    other.tricks, other.history = list(play.tricks), list(play.history)
    return other


def _card_positions() -> list[CardPlay]:
    """Positions from DD-played hands of TEST deals: the opening lead, dummy's first card,
    defenders and declarer in mid-hand."""
    deals, _, _ = shipped_store().load("test")
    out = []
    dd = card_player("dd")
    for i, (auction, dealer) in enumerate([("1NT P 3NT P P P", "N"), ("1S P 2S P 4S P P P", "E"),
                                            ("1H 2C 2H P P P", "S")]):
        a = Auction.parse(auction, dealer)
        play = CardPlay(Deal.from_array(deals[20 + i]), a.contract, a, i % 4)
        for n in (0, 1, 6, 13, 22):
            while len(play.history) < n:
                play.play(dd.choose(play).card)
            if len(play.legal_cards()) > 1:
                out.append(play.replayed(n))
    return out


@pytest.fixture(scope="module")
def card_positions():
    return _card_positions()


@pytest.mark.parametrize("spec", [s for s in CARD_PLAYERS if s not in PEEKING_CARD_PLAYERS])
def test_card_players_do_not_peek(spec, card_positions):
    if spec == "sd:strong":
        card_positions = card_positions[::3]
    rng = np.random.default_rng(1)
    for play in card_positions:
        card = card_player(spec).choose(play).card
        for _ in range(2):
            assert card_player(spec).choose(_hide_play(play, rng)).card == card, (spec, play.history)


def test_double_dummy_player_is_the_named_exception(card_positions):
    """dd peeks by design: the check catches it, and it says so itself."""
    assert PEEKING_CARD_PLAYERS == ("dd",) and card_player("dd").peeks
    assert not card_player("sd").peeks
    rng = np.random.default_rng(1)
    changed = 0
    for play in card_positions:
        card = card_player("dd").choose(play).card
        changed += any(card_player("dd").choose(_hide_play(play, rng)).card != card for _ in range(3))
    assert changed > 0


# -- Spades ---------------------------------------------------------------------------------


def _spades_states(rules: Rules) -> list[RoundState]:
    out = []
    for seed in range(3):
        hands = deal_hands(random.Random(seed))
        state = RoundState(rules, hands, dealer=seed % 4, bids=(3, 3, 4, 3))
        srp = make_player("srp")
        for _ in range(5 + 9 * seed):
            state.play(srp.play(SpadesView(state, state.to_play, (0, 0), (0, 0))))
        out.append(state)
    return out


def _hide_spades(state: RoundState, rng: random.Random) -> RoundState:
    me = state.to_play
    others = [s for s in range(4) if s != me]
    pool = [c for s in others for c in range(52) if state.hands[s] >> c & 1]
    rng.shuffle(pool)
    other = state.copy()
    k = 0
    for s in others:
        n = bin(state.hands[s]).count("1")
        other.hands[s] = sum(1 << c for c in pool[k:k + n])
        k += n
    return other


SPADES_PLAYERS = [p for p in player_names()] + ["ismcts:40", "uct3:40", "ismcts-random:40"]


@pytest.mark.parametrize("spec", SPADES_PLAYERS)
def test_spades_players_do_not_peek(spec):
    rules = Rules()
    rng = random.Random(0)
    for state in _spades_states(rules):
        card = make_player(spec, 3).play(SpadesView(state, state.to_play, (0, 0), (0, 0)))
        for _ in range(2):
            hidden = _hide_spades(state, rng)
            assert make_player(spec, 3).play(SpadesView(hidden, hidden.to_play, (0, 0), (0, 0))) == card


class _Fixed:
    def __init__(self, bid: int):
        self.bid_value, self.name = bid, "fixed"

    def bid(self, view) -> int:
        return self.bid_value

    def blind_nil(self, view) -> bool:
        return False


@pytest.mark.parametrize("name", bidder_names())
def test_spades_bidders_do_not_peek(name):
    rules = replace(Rules())
    for seed in range(4):
        hands = deal_hands(random.Random(seed))
        dealer = seed % 4
        target = (dealer + 1 + seed % 4) % 4      # first to last bidder
        bidders = [_Fixed(3) for _ in range(4)]
        bidders[target] = make_bidder(name, 5)
        bids, _ = collect_bids(rules, hands, dealer, bidders, (0, 0), (0, 0))
        rng = random.Random(seed)
        for _ in range(2):
            others = [s for s in range(4) if s != target]
            pool = [c for s in others for c in range(52) if hands[s] >> c & 1]
            rng.shuffle(pool)
            shuffled = list(hands)
            for j, s in enumerate(others):
                shuffled[s] = sum(1 << c for c in pool[13 * j:13 * (j + 1)])
            bidders[target] = make_bidder(name, 5)
            again, _ = collect_bids(rules, shuffled, dealer, bidders, (0, 0), (0, 0))
            assert again[target] == bids[target]
