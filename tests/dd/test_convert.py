"""The one conversion layer, checked against endplay's own parsing and its enum-named table access."""

import numpy as np
from endplay.dds import calc_dd_table
from endplay.types import Deal as EpDeal
from endplay.types import Denom, Player
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.cards import Deal
from bidlab.dd.convert import (
    DDS_STRAIN,
    bidlab_strain,
    bidlab_tables_to_dds,
    dds_hands_to_holders,
    dds_strain,
    dds_tables_to_bidlab,
    dds_vulnerability,
    holders_to_dds_hands,
)
from bidlab.dd.solver import dd_tables

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
EP_DENOM = {0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades, 4: Denom.nt}
EP_PLAYER = {0: Player.north, 1: Player.east, 2: Player.south, 3: Player.west}


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_dds_hands_match_endplays_pbn_parser(seed):
    deal = Deal.random(seed)
    ours = holders_to_dds_hands(deal.to_array()[None])[0]
    theirs = np.array([[EpDeal(deal.to_pbn())._data.remainCards[h][s] for s in range(4)] for h in range(4)])
    assert np.array_equal(ours, theirs)
    assert np.array_equal(dds_hands_to_holders(ours[None])[0], deal.to_array())


def test_strain_maps_are_inverse_and_named():
    for s in range(5):
        assert bidlab_strain(dds_strain(s)) == s
    assert [Denom(int(DDS_STRAIN[s])) for s in range(5)] == [EP_DENOM[s] for s in range(5)]


def test_vulnerability_codes_match_endplay():
    from endplay.types import Vul

    from bidlab.bridge.board import Vulnerability

    expected = {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns, Vulnerability.EW: Vul.ew,
                Vulnerability.BOTH: Vul.both}
    for ours, theirs in expected.items():
        assert dds_vulnerability(ours) == int(theirs)


def test_table_round_trip():
    rng = np.random.default_rng(5)
    t = rng.integers(0, 14, (7, 4, 5)).astype(np.uint8)
    assert np.array_equal(dds_tables_to_bidlab(bidlab_tables_to_dds(t)), t)


def test_batched_tables_match_endplay_calc_dd_table_by_enum_names():
    """Each bidlab entry [seat, strain] equals endplay's table[Denom.<name>, Player.<name>]."""
    deals = [Deal.random(100 + i) for i in range(1)]
    ours = dd_tables(deals)
    for deal, table in zip(deals, ours, strict=True):
        ep = calc_dd_table(EpDeal(deal.to_pbn()))
        for seat in range(4):
            for strain in range(5):
                assert table[seat, strain] == ep[EP_DENOM[strain], EP_PLAYER[seat]]
