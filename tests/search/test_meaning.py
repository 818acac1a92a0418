"""Call meanings from the belief net (issue 45): bidlab.search.meaning and ``bidlab meaning``."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

import bidlab.search  # noqa: F401  (registers bmcs:)
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.search.meaning import MeaningError, load_reader, reading_spec, suit_statement

NONE = Vulnerability.parse("none")


@pytest.fixture(scope="module")
def rl():
    return load_reader("nn:rl", partner_hands=64, keep=16, hands_each=32)


@pytest.fixture(scope="module")
def sayc():
    return load_reader("sayc", partner_hands=64, keep=16, hands_each=32)


def _prior(lo, hi):
    return sum(comb(13, k) * comb(39, 13 - k) for k in range(lo, hi + 1)) / comb(52, 13)


def test_a_suit_statement_is_the_most_telling_range_that_holds_enough_hands():
    counts = np.zeros(14)
    counts[[4, 5, 6, 7]] = [5, 50, 35, 10]
    lo, hi, p = suit_statement(counts, 0.8)
    assert p >= 0.8 and abs(p - counts[lo:hi + 1].sum() / counts.sum()) < 1e-9
    # every other range holding 80 % is one a random hand fits at least as often
    for a in range(14):
        for b in range(a, 14):
            if counts[a:b + 1].sum() / counts.sum() >= 0.8:
                assert _prior(a, b) >= _prior(lo, hi) - 1e-12
    assert (lo, hi) == (5, 6)


def test_sayc_1nt_opening_reads_as_15_to_17_and_balanced(sayc):
    m = sayc.meaning(Auction.parse("1NT", "N"), NONE)
    assert m.hcp == (15, 17), m.text()
    assert all(s.lo >= 2 and s.hi <= 5 for s in m.lengths), m.text()   # no singleton, no six-card suit
    assert m.forcing == "not forcing"
    assert "nn:rl" in m.belief_note      # the belief net learned nn:rl's bidding, not SAYC's: said


def test_stayman_is_forcing_and_a_game_raise_is_not(rl):
    assert rl.meaning(Auction.parse("1NT P 2C", "N"), NONE).forcing == "forcing"
    game = rl.meaning(Auction.parse("1S P 4S", "N"), NONE)
    assert game.forcing == "not forcing" and game.pass_rate > 0.5
    assert rl.meaning(Auction.parse("1S P P", "N"), NONE).pass_rate is None    # a pass forces nothing


def test_an_overcall_shows_its_suit_and_the_examples_fit_the_statement(rl):
    m = rl.meaning(Auction.parse("1C 2S", "N"), NONE)
    spades = m.lengths[0]
    assert spades.symbol == "♠" and spades.lo >= 5 and spades.mean > spades.mean_before + 1.5, m.text()
    assert m.belief_note == ""           # nn:rl is the belief net's own policy
    assert 2 <= len(m.examples) <= 3
    for hand in m.examples:
        assert all(m.holds(hand).values()), (hand, m.text())
    # the same question gets the same answer
    assert rl.meaning(Auction.parse("1C 2S", "N"), NONE).text() == m.text()


def test_partners_calls_weigh_the_partner_hands(rl):
    """In 1♠ P 2♠ the opener's partner raised: the partner hands are weighted by how likely the
    policy raises with them, so far fewer than all of them count."""
    m = rl.meaning(Auction.parse("1S P 2S P 3S", "N"), NONE)
    assert m.partner_ess < 0.8 * rl.partner_hands
    assert rl.meaning(Auction.parse("1S", "N"), NONE).partner_ess == pytest.approx(rl.partner_hands)


def test_a_search_bot_is_read_by_its_policy_and_bad_input_is_one_clear_error(rl):
    assert reading_spec("bmcs:rl?preset=fast") == "nn:rl"
    assert reading_spec("jps:/m/rl.safetensors:greedy?k=3") == "nn:/m/rl.safetensors"
    assert reading_spec("sayc") == "sayc"
    with pytest.raises(MeaningError, match="no call yet"):
        rl.meaning(Auction.parse("", "N"), NONE)


def test_the_meaning_command_prints_a_range_and_suit_lengths():
    from typer.testing import CliRunner

    from bidlab.cli import app

    r = CliRunner().invoke(app, ["meaning", "nn:rl", "1C 2S", "--samples", "32", "--json"])
    assert r.exit_code == 0, r.output
    m = json.loads(r.output)
    lo, hi = m["hcp"]
    assert 0 <= lo <= hi <= 37 and [s["suit"] for s in m["lengths"]] == ["♠", "♥", "♦", "♣"]
    assert m["text"].startswith("2♠ shows ") and m["forcing"] in ("forcing", "not forcing")
    text = CliRunner().invoke(app, ["meaning", "nn:partner", "1NT P 2C", "--samples", "32"])
    assert text.exit_code == 0 and "SAYC's rule: 2♣" in text.output and "HCP" in text.output


def test_a_belief_trained_on_a_mixture_says_so():
    from bidlab.agents.registry import make_agent
    from bidlab.learn.belief import load_belief
    from bidlab.search.meaning import MeaningReader, belief_trainer

    assert belief_trainer({"info": {"policy": "rl"}}) == "nn:rl"
    mixed = belief_trainer({"info": {"policy": "rl,sl,sayc"}})
    assert mixed == "nn:rl,nn:sl,sayc"
    reader = MeaningReader(make_agent("nn:rl"), load_belief("belief"), "nn:rl", mixed)
    note = reader.belief_note()
    assert "several bidders" in note and "nn:sl" in note and "sayc" in note
    assert not reader.same_policy
